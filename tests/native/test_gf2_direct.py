"""The dense GF(2) engine before its factorisation: direct solves of [A | B^T]
(csrc/gf2.c ml_gf2_solve_direct), the rank without a transform, and packing from
coordinates in either order (ml_gf2_from_coo). Every answer is checked against the
factorised engine (identical solutions: the same pivot columns, free columns 0), the
reference engine and independent NumPy / Python-int computations, on every SIMD path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.reference import ReferenceEngine
from modlights.native import _core
from modlights.native._core import Gf2Engine
from simd import simd_fixture
from suite_groups import sample
from test_gf2 import mm, py_rank, random_matrix

simd = simd_fixture(_core)

SIDES = [63, 64, 65, 127, 128, 129, 511, 512, 513]
SHAPES = [(n, n) for n in SIDES] + [(65, 129), (129, 65), (512, 63), (63, 513)]


def rhs_for(a, rng, k):
    """k solvable right-hand sides (A x for random x), then k random ones."""
    m, r = a.shape
    x = (rng.random((k, r)) < 0.5).astype(np.uint8)
    return np.concatenate([mm(x, a.T), (rng.random((k, m)) < 0.5).astype(np.uint8)])


def check_direct(a, rng, k=3):
    """A fresh engine's first solve is direct; it must agree with the factorisation."""
    m, r = a.shape
    rhs = rhs_for(a, rng, k)
    e = Gf2Engine(a)
    assert not e.factored
    X, ok = e.solve(rhs)
    assert not e.factored  # answered without the transform
    rk = py_rank(a)
    assert e.rank == rk and not e.factored  # the rank came with the solve
    assert ok[:k].all()
    assert (mm(X[ok], a.T) == rhs[ok]).all()
    assert not X[~ok].any()
    for i in np.flatnonzero(~ok)[:3]:  # really not in the image
        assert py_rank(np.concatenate([a, rhs[i][:, None]], axis=1)) == rk + 1
    f = Gf2Engine(a)
    f.generators()  # factor first
    assert f.factored
    Xf, okf = f.solve(rhs)
    assert (ok == okf).all() and (X == Xf).all()
    return e, X, ok, rhs


@pytest.mark.parametrize(
    "kind,shape",
    sample(
        [(k, s) for k in ("dense", "lowrank", "zero-lines") for s in SHAPES],
        8,
        ids=lambda c: f"{c[0]}-{c[1][0]}x{c[1][1]}",
        unpack=True,
    ),
)
def test_direct_solve_matches_factorisation(simd, shape, kind):
    rng = np.random.default_rng(hash((shape, kind)) % 2**32)
    check_direct(random_matrix(rng, *shape, kind), rng)


@pytest.mark.parametrize("n", [63, 129, 513])
def test_direct_then_factored_answers(simd, n):
    """After DIRECT_SOLVES direct solves the engine factors; every answer stays the
    same, and kernel / det / inverse / pseudo-inverse are right."""
    rng = np.random.default_rng(n)
    a = random_matrix(rng, n, n, "lowrank")
    e, X, ok, rhs = check_direct(a, rng)
    for _ in range(Gf2Engine.DIRECT_SOLVES):
        X2, ok2 = e.solve(rhs[:5])
        assert (X2 == X[:5]).all() and (ok2 == ok[:5]).all()
    assert e.factored
    rk = py_rank(a)
    assert e.det() == int(rk == n)
    H, _ = e.generators()
    assert H.shape == (n - rk, n) and not mm(a, H.T).any() and py_rank(H) == n - rk
    G = e.pseudo_inverse()
    assert (mm(mm(a, G), a) == a).all()


@pytest.mark.parametrize("n", [64, 65, 512])
def test_det_and_inverse_before_factoring(simd, n):
    rng = np.random.default_rng(7 * n)
    while True:  # an invertible matrix
        a = random_matrix(rng, n, n, "dense")
        if py_rank(a) == n:
            break
    e = Gf2Engine(a)
    assert e.det() == 1 and not e.factored  # det from the rank alone
    inv = e.inverse()
    assert (mm(a, inv) == np.eye(n, dtype=np.uint8)).all()
    s = Gf2Engine(np.zeros((n, n), np.uint8))
    assert s.det() == 0 and s.rank == 0 and s.kernel_size == 2**n
    with pytest.raises(ValueError, match="not invertible"):
        s.inverse()


def test_direct_solve_empty_and_tiny(simd):
    for m, r in [(0, 0), (0, 3), (3, 0), (1, 1), (2, 5)]:
        a = np.ones((m, r), np.uint8)
        e = Gf2Engine(a)
        X, ok = e.solve(np.ones((2, m), np.uint8))
        ref_X, ref_ok = ReferenceEngine(a, 2).solve(np.ones((2, m), np.uint8))
        assert (ok == ref_ok).all() and X.shape == (2, r)
        assert (mm(X[ok], a.T) == 1).all()


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 140), st.integers(0, 140), st.integers(1, 63), st.integers(0, 2**32 - 1))
def test_direct_solve_vs_reference(m, r, k, seed):
    rng = np.random.default_rng(seed)
    a = random_matrix(rng, m, r, ["dense", "lowrank", "sparse"][seed % 3])
    R = (rng.random((k, m)) < 0.5).astype(np.uint8)
    R[: k // 2] = mm((rng.random((k // 2, r)) < 0.5), a.T)
    X, ok = Gf2Engine(a).solve(R)
    _, ok_ref = ReferenceEngine(a, 2).solve(R)
    assert (ok == ok_ref).all()
    assert (mm(X[ok], a.T) == R[ok]).all() and not X[~ok].any()


# ---------------------------------------------------------------------------- coordinates
@pytest.mark.parametrize(
    "shape", [(63, 63), (64, 64), (129, 65), (65, 129), (513, 513)], ids=lambda s: f"{s[0]}x{s[1]}"
)
@pytest.mark.parametrize("order", ["by-cell", "by-tap", "shuffled"])
def test_from_coo_any_order(simd, shape, order):
    """Entries listed tap by tap (packed through the transpose), cell by cell or
    shuffled, with repeats: the same matrix as the dense one."""
    rng = np.random.default_rng(hash((shape, order)) % 2**32)
    counts = rng.integers(0, 3, shape)  # 2 = a repeat that cancels
    a = (counts % 2).astype(np.uint8)
    if order == "by-tap":
        tj, ci = np.nonzero(counts.T)
        reps = counts.T[tj, ci]
    else:
        ci, tj = np.nonzero(counts)
        reps = counts[ci, tj]
    ci, tj = np.repeat(ci, reps), np.repeat(tj, reps)
    if order == "shuffled":
        p = rng.permutation(ci.size)
        ci, tj = ci[p], tj[p]
    e = Gf2Engine.from_coo(*shape, ci, tj)
    d = Gf2Engine(a)
    assert e.rank == d.rank == py_rank(a)
    assert (e.pseudo_inverse() == d.pseudo_inverse()).all()
    rhs = rhs_for(a, rng, 4)
    Xe, oke = e.solve(rhs)
    Xd, okd = d.solve(rhs)
    assert (Xe == Xd).all() and (oke == okd).all()


@pytest.mark.parametrize(
    "ci, tj, what",
    [
        ([0, 70], [0, 1], "row indices"),
        ([0, -1], [0, 1], "row indices"),
        ([0, 1], [0, 65], "column indices"),
        ([0, 1], [-3, 1], "column indices"),
    ],
)
def test_from_coo_out_of_range(ci, tj, what):
    with pytest.raises(ValueError, match=what):
        Gf2Engine.from_coo(70, 65, np.array(ci), np.array(tj))
    with pytest.raises(ValueError, match=what):
        Gf2Engine.from_coo(70, 65, np.array(ci * 3000), np.array(tj * 3000))


def test_from_coo_uint64_out_of_range():
    with pytest.raises(ValueError, match="indices"):
        Gf2Engine.from_coo(4, 4, np.array([2**63 + 1], np.uint64), np.array([0], np.uint64))


# ---------------------------------------------------------------------------- through Solver
@pytest.mark.parametrize("n", [65, 129])
def test_solver_routes_identical(simd, n):
    """Solver on from_matrix and from_effects boards of one random matrix: the same
    solution as the reference engine's check and each other, the same kernel size."""
    rng = np.random.default_rng(n)
    a = random_matrix(rng, n, n, "lowrank")
    x = (rng.random(n) < 0.5).astype(np.uint8)
    b = mm(a, x[:, None])[:, 0]
    bm = ml.Board.from_matrix(a, 2)
    be = ml.Board.from_effects([np.flatnonzero(a[:, j]).tolist() for j in range(n)], 2, n_cells=n)
    ref = ml.Solver(bm, backend="reference", method="dense")
    sols = []
    for board in (bm, be):
        s = ml.Solver(board, method="dense")
        sol = s.solve(b, minimal=False)
        assert s.kernel_size == ref.kernel_size
        sols.append(np.asarray(sol.taps).reshape(-1))
        assert s.solvable(b) and (board.apply(b, sol.taps) == 0).all()
    assert (sols[0] == sols[1]).all()
    bad = b.copy()
    while ref.solvable(bad):
        bad = (rng.random(n) < 0.5).astype(np.uint8)
    with pytest.raises(ml.Unsolvable):
        ml.Solver(be, method="dense").solve(bad, minimal=False)


# ---------------------------------------------------------------------------- from_effects
def test_from_effects_lists_and_arrays_agree():
    """Effect lists given as Python lists, NumPy int arrays of any width, or mixed
    plain / NumPy ints: one board, one coordinate form, the same effects."""
    rng = np.random.default_rng(5)
    a = random_matrix(rng, 70, 67, "dense")
    lists = [np.flatnonzero(a[:, j]).tolist() for j in range(67)]
    boards = [
        ml.Board.from_effects(lists, 2, n_cells=70),
        ml.Board.from_effects([np.array(e, np.int64) for e in lists], 2, n_cells=70),
        ml.Board.from_effects([np.array(e, np.uint16) for e in lists], 2, n_cells=70),
        ml.Board.from_effects(
            [[np.int32(c) if c % 2 else c for c in e] for e in lists], 2, n_cells=70
        ),
    ]
    for b in boards:
        assert b == ml.Board.from_matrix(a, 2)
        assert b.effects == tuple(tuple(e) for e in lists)
        assert all(type(c) is int for e in b.effects for c in e) or b is boards[3]
        assert (b.matrix() == a).all()
    src = [np.array([0, 1])]
    b = ml.Board.from_effects(src, 2)
    src[0][0] = 5  # the board keeps its own copy
    assert b.effects == ((0, 1),)


@pytest.mark.parametrize(
    "effects, what",
    [
        ([[0, True]], "must be ints"),
        ([[0, 1.0]], "must be ints"),
        ([["1"]], "must be ints"),
        ([np.array([0, 1], bool)], "must be ints"),
        ([np.array([0.0])], "must be ints"),
        ([[0, 2**70]], "out of range"),
        ([np.array([2**63], np.uint64)], "out of range"),
        ([[0, -1]], "out of range"),
        ([np.array([-2])], "out of range"),
        ([np.array([2**32], np.int64)], "out of range"),  # 0 if narrowed unchecked
        ([np.array([2**31], np.uint32)], "out of range"),
        ([[0, 2**32]], "out of range"),
    ],
)
def test_from_effects_bad_cells(effects, what):
    with pytest.raises(ValueError, match=what):
        ml.Board.from_effects(effects, 2, n_cells=4)


INDEX_TYPES = (list, np.int64, np.uint32, np.int32, np.int16, np.uint8)


@st.composite
def effect_lists(draw):
    """(effects, n, n_cells): up to 70 taps over up to 70 cells (across a word), cells
    repeated, each tap's list a Python list or a NumPy array of some integer type."""
    n = draw(st.integers(2, 8))
    m = draw(st.integers(1, 70))
    r = draw(st.integers(0, 70))
    effects = []
    for _ in range(r):
        cells = draw(st.lists(st.integers(0, m - 1), max_size=2 * m))
        kind = draw(st.sampled_from(INDEX_TYPES))
        effects.append(cells if kind is list else np.array(cells, dtype=kind))
    return effects, n, m


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(effect_lists(), st.integers(0, 2**32 - 1))
def test_from_effects_int32_matches_from_matrix(case, seed):
    """from_effects boards keep int32 indices and are the from_matrix board of the
    matrix counted unit by unit in Python: equal, the same A x, and Solver answers
    (rank, kernel size, solvability, valid solutions) agreeing with the reference."""
    effects, n, m = case
    b = ml.Board.from_effects(effects, n, n_cells=m)
    ci, tj = b.coo()
    assert ci.dtype == tj.dtype == np.int32
    a = np.zeros((m, len(effects)), dtype=np.int64)
    for j, cells in enumerate(effects):
        for c in cells:
            a[int(c), j] += 1
    a = (a % n).astype(np.uint8)
    bm = ml.Board.from_matrix(a, n)
    assert b == bm and hash(b) == hash(bm)
    assert (b.matrix() == a).all()
    rng = np.random.default_rng(seed)
    x = rng.integers(0, n, len(effects))
    assert (b.apply_vector(x) == a.astype(np.int64) @ x % n).all()
    ref = ml.Solver(bm, backend="reference")
    s, sm = ml.Solver(b, method="dense"), ml.Solver(bm, method="dense")
    assert s.rank == sm.rank == ref.rank
    assert s.kernel_size == sm.kernel_size == ref.kernel_size
    for state in (b.random_state(rng), b.random_state(rng, solvable=False)):
        assert s.solvable(state) == sm.solvable(state) == ref.solvable(state)
        if ref.solvable(state):
            assert not b.apply(state, s.solve(state, minimal=False).taps).any()


def test_from_effects_int32_key_does_not_wrap():
    """Equality keys on cell * n_taps + tap past 2**31: (d, 0) and (0, 29) on a board
    of 33 taps meet mod 2**32 (33 d = 2**32 + 29) and are different boards."""
    d = (2**32 + 29) // 33
    b1 = ml.Board.from_effects([[d]] + [[]] * 32, 2, n_cells=2**27)
    b2 = ml.Board.from_effects([[]] * 29 + [[0]] + [[]] * 3, 2, n_cells=2**27)
    assert b1 != b2
    assert b1 == ml.Board.from_effects([np.array([d], np.int64)] + [[]] * 32, 2, n_cells=2**27)


@pytest.mark.parametrize(
    "shape",
    [(63, 64), (65, 65), (129, 127), (513, 511), (0, 3), (3, 0)],
    ids=lambda s: f"{s[0]}x{s[1]}",
)
def test_from_csc_matches_dense(simd, shape):
    """Compressed columns with repeats (Board.from_effects' form): the dense matrix."""
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    counts = rng.integers(0, 3, shape)
    cells = [np.repeat(np.arange(shape[0]), counts[:, j]) for j in range(shape[1])]
    for c in cells:
        rng.shuffle(c)
    indptr = np.concatenate(([0], np.cumsum([c.size for c in cells])))
    flat = np.concatenate(cells) if cells else np.zeros(0, np.int64)
    a = (counts % 2).astype(np.uint8)
    e, d = Gf2Engine.from_csc(*shape, indptr, flat), Gf2Engine(a)
    assert e.rank == d.rank == py_rank(a)
    assert (e.pseudo_inverse() == d.pseudo_inverse()).all()


@pytest.mark.parametrize(
    "indptr, cells, what",
    [
        ([0, 1, 2], [0, 9], "row indices"),
        ([0, 1, 2], [0, -1], "row indices"),
        ([0, 1, 2], [0, 2**32], "row indices"),
        ([0, 1, 2], [0, -(2**32) + 1], "row indices"),
        ([0, 2, 1], [0, 1], "rise"),
        ([1, 1, 2], [0, 1], "rise"),
        ([0, 1, 3], [0, 1], "rise"),
        ([0, 2], [0, 1], "length"),
    ],
)
def test_from_csc_bad(indptr, cells, what):
    with pytest.raises(ValueError, match=what):
        Gf2Engine.from_csc(4, 2, np.array(indptr), np.array(cells))
