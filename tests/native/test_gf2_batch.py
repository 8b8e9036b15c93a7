"""GF(2) batches of byte right-hand sides (csrc/gf2_batch.c): the word-a-board table
path (at most 64 cells) and the transposed path (B^T, 64 boards a word) against the
engine's packed-row product (int64 right-hand sides take it), the reference engine and
Board.apply, for every SIMD path this CPU supports."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.reference import ReferenceEngine
from modlights.native import _core as _gf2
from modlights.native._core import Gf2Engine
from simd import simd_fixture
from strategies import NAMES, random_masks
from suite_groups import sample

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
PATHS = _gf2.simd_paths()
#: around the 64-board word: empty, one, 63/64/65, many
BATCH_SIZES = [0, 1, 63, 64, 65, 130, 1000]


simd = simd_fixture(_gf2)


def mixed_rhs(A: np.ndarray, rng, k: int) -> np.ndarray:
    """k right-hand sides (k x m uint8): about half A x for random x (solvable), the
    others random (unsolvable unless A's image holds them)."""
    m, r = A.shape
    X = rng.integers(0, 2, size=(k, r))
    R = (X @ A.T.astype(np.int64)) % 2
    wild = rng.random(k) < 0.5
    R[wild] = rng.integers(0, 2, size=(int(wild.sum()), m))
    return R.astype(np.uint8)


def check_engine(A: np.ndarray, R: np.ndarray) -> None:
    e = Gf2Engine(A)
    e.solve(np.zeros((64, A.shape[0]), np.uint8))  # build S: every later batch uses it
    X, ok = e.solve(R)  # uint8: gf2_batch.c
    X0, ok0 = e.solve(R.astype(np.int64))  # int64: the packed-row product
    assert X.dtype == np.uint8 and ok.dtype == np.bool_
    assert X.shape == (len(R), A.shape[1]) and ok.shape == (len(R),)
    np.testing.assert_array_equal(ok, ok0)
    np.testing.assert_array_equal(X, X0)
    ref_ok = ReferenceEngine(A, 2).solve(R)[1] if len(R) else ok
    np.testing.assert_array_equal(ok, ref_ok)
    # solutions solve, unsolvable rows are 0
    got = (X.astype(np.int64) @ A.T.astype(np.int64)) % 2
    np.testing.assert_array_equal(got[ok], R[ok])
    assert not X[~ok].any()


@SETTINGS
@given(
    m=st.integers(0, 150),
    r=st.integers(0, 150),
    density=st.floats(0.0, 0.6),
    k=st.one_of(st.sampled_from(BATCH_SIZES), st.integers(0, 300)),
    seed=st.integers(0, 2**32 - 1),
)
def test_engine_byte_batches_match_packed_rows_and_reference(simd, m, r, density, k, seed):
    rng = np.random.default_rng(seed)
    A = (rng.random((m, r)) < density).astype(np.uint8)
    check_engine(A, mixed_rhs(A, rng, k))


@pytest.mark.parametrize(
    "k,m,r",
    sample(
        [
            (k, m, r)
            for k in BATCH_SIZES
            for m, r in [
                (64, 64),
                (64, 1),
                (63, 70),
                (65, 65),
                (25, 25),
                (1, 64),
                (8, 57),
                (40, 30),
                (200, 3),
            ]
        ],
        12,
        unpack=True,
    ),
)
def test_engine_word_edges(simd, m, r, k):
    """Cells and solve-matrix columns at and around one word (64): the table path
    stops at 64 of each, the transposed path takes over."""
    rng = np.random.default_rng(m * 1000 + r * 10 + k)
    A = (rng.random((m, r)) < 0.3).astype(np.uint8)
    check_engine(A, mixed_rhs(A, rng, k))


def test_bytes_read_for_low_bit_only(simd):
    """uint8 states are read for their low bit (value mod 2): 2, 3, 255 as 0, 1, 1."""
    rng = np.random.default_rng(5)
    for m in (25, 100):
        A = (rng.random((m, m)) < 0.2).astype(np.uint8)
        R = rng.integers(0, 256, size=(300, m), dtype=np.uint8)
        e = Gf2Engine(A)
        X, ok = e.solve(R)
        X0, ok0 = e.solve(R & 1)
        np.testing.assert_array_equal(X, X0)
        np.testing.assert_array_equal(ok, ok0)


@st.composite
def gf2_boards(draw):
    """GF(2) boards of up to 144 cells: grids (named or offset patterns, wrap, locks,
    holes) and graph boards (from_effects)."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if draw(st.booleans()):
        rows, cols = draw(st.integers(1, 12)), draw(st.integers(1, 12))
        pattern = draw(
            st.one_of(
                st.sampled_from(NAMES),
                st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), max_size=5),
            )
        )
        locked, holes = random_masks(
            rng, (rows, cols), draw(st.sampled_from([0, 0.2])), draw(st.sampled_from([0, 0.2]))
        )
        return ml.Board.grid(
            rows, cols, 2, pattern, locked=locked, holes=holes, wrap=draw(st.booleans())
        )
    m, r = draw(st.integers(0, 100)), draw(st.integers(0, 100))
    effects = [
        list(rng.integers(0, m, size=int(rng.integers(0, 5)))) if m else [] for _ in range(r)
    ]
    return ml.Board.from_effects(effects, 2, n_cells=m)


@SETTINGS
@given(
    b=gf2_boards(),
    k=st.sampled_from(BATCH_SIZES),
    seed=st.integers(0, 2**32 - 1),
    tkind=st.sampled_from(["zero", "one", "array"]),
)
def test_solver_batches_against_reference(b, k, seed, tkind):
    rng = np.random.default_rng(seed)
    target = {"zero": 0, "one": 1}.get(tkind)
    if target is None:
        target = rng.integers(0, 2, size=b.shape)
    # random states: some solvable, some not (unless A is onto); held tiles of
    # locks/holes are random too, as the Solver only reads the cells
    S = rng.integers(0, 2, size=(k, *b.shape), dtype=np.uint8)
    half = rng.random(k) < 0.5
    for i in np.flatnonzero(half):  # target - A x: solvable
        x = rng.integers(0, 2, size=b.n_taps).astype(np.uint8)
        S[i] = b.apply(np.zeros(b.shape, np.uint8), b.from_tap_vector(x)) ^ b.coerce_target(target)
    s = ml.Solver(b)
    ok = s.solvable_many(S, target)
    ref_ok = ml.Solver(b, backend="reference").solvable_many(S, target)
    np.testing.assert_array_equal(ok, ref_ok)
    assert ok[half].all()
    if ok.all():
        T = s.solve_many(S, target)
        for i in range(k):
            np.testing.assert_array_equal(b.apply(S[i], T[i]), b.coerce_target(target))
    else:
        with pytest.raises(ml.Unsolvable) as ei:
            s.solve_many(S, target)
        assert ei.value.indices == tuple(int(i) for i in np.flatnonzero(~ok))
        T = s.solve_many(S[ok], target)
        for i, j in enumerate(np.flatnonzero(ok)):
            np.testing.assert_array_equal(b.apply(S[j], T[i]), b.coerce_target(target))
