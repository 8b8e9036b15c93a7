"""The bit-sliced symbolic chase (Z/3, Z/4, Z/8 as 2 or 3 bit-planes; csrc/chase.c,
csrc/bitslice.h) against the byte path, an independent column-by-column computation of
the residual matrix by the numeric replay, the reference engine and Board.apply, on
every SIMD path this CPU supports (the binding's runtime setter, and MODLIGHTS_SIMD in
a subprocess). n = 5, 9 take the byte path (delayed reduction) and are checked the same
way."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from chase_plans import build_plan
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine
from modlights.engines.reference import ReferenceEngine
from modlights.native import _core as _chase
from oracle import group_closure_size, residual_by_replay
from simd import simd_fixture
from strategies import chase_boards, random_masks

NAMES = sorted(ml.PATTERNS)
PATHS = _chase.simd_paths()
simd = simd_fixture(_chase)


def packed_boards(max_side=10, n_values=(3, 4, 8, 3, 4, 8, 5, 9)):
    return chase_boards(max_side=max_side, n_values=n_values, p_locks=(0.0, 0.05, 0.2))


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(packed_boards(), st.sampled_from([None, 1, 64, 65, 200]), st.sampled_from([1, 2]))
def test_packed_matrix_equals_bytes_and_replay(simd, case, block, threads):
    b, _ = case
    plan = build_plan(b)
    M = plan.matrix_zn(threads, block=block)
    assert M.dtype == np.uint8 and M.shape == (plan.nres, plan.nsym)
    assert (M == plan.matrix_zn(threads, block=block, packed=False)).all()
    assert (M.astype(np.int64) == residual_by_replay(plan)).all()
    if plan.nres:  # a prefix of the rows
        k = plan.nres // 2
        assert (plan.matrix_zn(threads, block=block, rows=k) == M[:k]).all()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(packed_boards(max_side=8), st.integers(0, 2))
def test_packed_chase_equals_reference(simd, case, tkind):
    b, seed = case
    n = b.states
    rng = np.random.default_rng(seed)
    A = b.matrix().astype(np.int64)
    ref = ReferenceEngine(b.matrix(), n)
    chase = NativeEngine(b, "chase")
    assert chase.kernel_size == ref.kernel_size
    H, orders = chase.generators()
    assert not (A @ H.T.astype(np.int64) % n).any()  # in the kernel
    if ref.kernel_size <= 20000:  # and spanning it
        assert group_closure_size(H, n) == ref.kernel_size
    for solvable in (True, False):
        state = b.random_state(rng=rng, solvable=solvable)
        target = 0 if tkind == 0 else (1 if tkind == 1 else rng.integers(0, n, size=b.shape))
        t = b.coerce_target(target)
        rhs = (b.cell_vector(t).astype(np.int64) - b.cell_vector(b.coerce_state(state))) % n
        X, ok = chase.solve(rhs[None, :])
        _, ok_ref = ref.solve(rhs[None, :])
        assert bool(ok[0]) == bool(ok_ref[0])
        if ok[0]:
            assert (b.apply(state, b.from_tap_vector(X[0])) == t).all()


WIDE = [  # (rows, cols, pattern, locked fraction, holes fraction, wrap): > 512 symbols
    (4, 700, "cross", 0.0, 0.0, False),  # mirrored: half the blocks run
    (5, 600, "cross", 0.02, 0.0, False),
    (6, 530, "square", 0.0, 0.01, False),
    (5, 520, "knight", 0.01, 0.0, False),
    (4, 540, "diagonal", 0.0, 0.0, True),
    (4, 600, [(0, 0), (1, 0), (1, 2), (-2, -1)], 0.0, 0.0, False),
]


@pytest.mark.parametrize("n", [3, 4, 8])
@pytest.mark.parametrize("case", WIDE)
def test_wide_boards_many_blocks(simd, n, case):
    """Several blocks of every width (1, 2, 4, 8 words: 64-bit, 256-bit and 512-bit
    loops; 9 words: the word loop), threads, the mirror; answers by Board.apply."""
    rows, cols, pattern, pl, ph, wrap = case
    rng = np.random.default_rng(rows * cols + n)
    locked, holes = random_masks(rng, (rows, cols), pl, ph)
    b = ml.Board.grid(rows, cols, states=n, pattern=pattern, locked=locked, holes=holes, wrap=wrap)
    plan = build_plan(b)
    assert plan.nsym > 512
    want = plan.matrix_zn(1, packed=False)
    for block in (64, 128, 256, 512, 576):
        for threads in (1, 2):
            assert (plan.matrix_zn(threads, block=block) == want).all(), (block, threads)
    s = ml.Solver(b, method="chase")
    state = b.random_state(rng=rng, solvable=True)
    assert not b.apply(state, s.solve(state, minimal=False).taps).any()


@pytest.mark.parametrize("n", [3, 4, 8])
def test_mirrored_board_packed(n):
    b = ml.Board.grid(3, 1100, states=n)
    plan = build_plan(b)
    assert plan.mirrored and plan.nsym == 1100
    assert (plan.matrix_zn(2) == plan.matrix_zn(2, packed=False)).all()


def test_set_simd_rejects_bad_names():
    before = _chase.get_simd()
    with pytest.raises(ValueError, match="unknown SIMD path"):
        _chase.set_simd("sse9")
    with pytest.raises(ValueError, match="unknown SIMD path"):
        _chase.set_simd(3)
    assert _chase.get_simd() == before
    assert "portable" in PATHS and before in PATHS


_SUBPROCESS = f"""
import sys
sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
import numpy as np, modlights as ml
from modlights.native import _core as _chase
from chase_plans import build_plan
print(_chase.get_simd())
for n in (3, 4, 8, 2):
    b = ml.Board.grid(9, 300, states=n, pattern="square", locked=[(3, 7), (5, 200)])
    p = build_plan(b)
    if n == 2:
        M = p.matrix_gf2(2, block=1)
        assert (M == p.matrix_gf2(1)).all()
    else:
        assert (p.matrix_zn(2, block=64) == p.matrix_zn(1, packed=False)).all()
    s = b.random_state(rng=n, solvable=True)
    assert not b.apply(s, ml.Solver(b, method="chase").solve(s, minimal=False).taps).any()
print("ok")
"""


@pytest.mark.parametrize("path", PATHS)
def test_modlights_simd_environment(path):
    env = dict(os.environ, MODLIGHTS_SIMD=path)
    out = subprocess.run(
        [sys.executable, "-c", _SUBPROCESS], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [path, "ok"]


def test_gf2_runs_on_every_path_agree():
    """The GF(2) interior runs (portable, AVX2, AVX-512 with 512-bit slots) give one
    matrix, equal to the replay's columns."""
    b = ml.Board.grid(12, 90, pattern="knight", locked=[(4, 4)])
    plan = build_plan(b)
    before = _chase.get_simd()
    try:
        got = []
        for path in PATHS:
            _chase.set_simd(path)
            got += [plan.matrix_gf2(1, block=k) for k in (1, 4, 8)]
    finally:
        _chase.set_simd(before)
    nw = (plan.nsym + 63) // 64
    want = residual_by_replay(plan)
    bits = np.unpackbits(
        got[0].view(np.uint8).reshape(plan.nres, nw * 8), axis=1, bitorder="little"
    )[:, : plan.nsym]
    assert (bits == want).all()
    for M in got[1:]:
        assert (M == got[0]).all()


@pytest.mark.parametrize("n", [3, 4, 8, 9])
def test_engine_same_with_and_without_packing(n):
    """The bit-sliced and the byte symbolic chase give the same residual system on a
    board with locks and holes (the C engine takes the bit-sliced one), and the engine's
    answers solve the board, its generators spanning the kernel the residual system
    gives."""
    rng = np.random.default_rng(n)
    locked, holes = random_masks(rng, (40, 70), 0.03, 0.01)
    b = ml.Board.grid(40, 70, states=n, pattern="square", locked=locked, holes=holes)
    plan = build_plan(b)
    assert (plan.matrix_zn(2) == plan.matrix_zn(2, packed=False)).all()
    state = b.random_state(rng=rng, solvable=True)
    e = NativeEngine(b, "chase-light")
    H, orders = e.generators()
    assert not (b.matrix().astype(np.int64) @ H.T.astype(np.int64) % n).any()
    rhs = (-b.cell_vector(b.coerce_state(state)).astype(np.int64)) % n
    X, ok = e.solve(rhs[None, :])
    assert ok[0] and not b.apply(state, b.from_tap_vector(X[0])).any()
