"""The native GF(2) engine against the reference engine and independent oracles.

Every test runs once per SIMD path this CPU supports (the ``simd`` fixture forces
each in turn). Oracles: ReferenceEngine (NumPy Smith form) for small matrices, and
for larger ones a plain Gaussian elimination on Python ints (rows as bit sets) plus
direct checks of the defining equations (A x = b, A H^T = 0, A G A = A, A A^-1 = I).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.reference import ReferenceEngine
from modlights.native import _core as _gf2
from modlights.native._core import Gf2Engine
from simd import simd_fixture
from suite_groups import sample

PATHS = _gf2.simd_paths()
simd = simd_fixture(_gf2)


# ---------------------------------------------------------------------------- oracles
def mm(a, b):
    """a @ b mod 2, exact (float64 BLAS: sums stay far below 2**53)."""
    return (np.asarray(a, np.float64) @ np.asarray(b, np.float64) % 2).astype(np.uint8)


def _rows_as_ints(a):
    a = np.asarray(a, dtype=np.uint8) & 1
    if a.shape[1] == 0:
        return [0] * a.shape[0]
    packed = np.packbits(a[:, ::-1], axis=1, bitorder="big")
    return [int.from_bytes(row.tobytes(), "big") for row in packed]


def py_rank(a):
    """Rank over GF(2) by elimination on Python ints: slow, simple, independent."""
    a = np.asarray(a)
    if a.size == 0:
        return 0
    basis = {}  # leading bit -> row
    for v in _rows_as_ints(a):
        while v:
            h = v.bit_length() - 1
            if h in basis:
                v ^= basis[h]
            else:
                basis[h] = v
                break
    return len(basis)


def random_matrix(rng, m, r, kind):
    if kind == "dense":
        return (rng.random((m, r)) < 0.5).astype(np.uint8)
    if kind == "sparse":
        return (rng.random((m, r)) < 3.0 / max(r, 1)).astype(np.uint8)
    if kind == "lowrank":
        k = max(1, min(m, r) // 3)
        return mm(rng.random((m, k)) < 0.5, rng.random((k, r)) < 0.5)
    if kind == "zero-lines":
        a = (rng.random((m, r)) < 0.5).astype(np.uint8)
        a[rng.random(m) < 0.3] = 0
        a[:, rng.random(r) < 0.3] = 0
        return a
    if kind == "zero":
        return np.zeros((m, r), np.uint8)
    raise AssertionError(kind)


def check_engine(a, rng, *, reference=None, n_rhs=24):
    """All engine routines on A, against the oracles."""
    a = np.asarray(a, dtype=np.uint8)
    m, r = a.shape
    e = Gf2Engine(a)
    rk = py_rank(a)
    assert (e.m, e.r, e.n, e.name) == (m, r, 2, "gf2-native")
    assert e.rank == rk
    assert e.kernel_size == 2 ** (r - rk)
    H, orders = e.generators()
    assert H.dtype == np.uint8 and H.shape == (r - rk, r) and orders == [2] * (r - rk)
    if H.size:
        assert not mm(a, H.T).any()
        assert py_rank(H) == r - rk
    # solve: solvable right-hand sides (A x for random x) and random ones
    x = (rng.random((n_rhs, r)) < 0.5).astype(np.uint8)
    rhs = np.concatenate([mm(x, a.T), (rng.random((n_rhs, m)) < 0.5).astype(np.uint8)])
    X, ok = e.solve(rhs)
    assert X.dtype == np.uint8 and X.shape == (2 * n_rhs, r)
    assert ok.dtype == np.bool_ and ok.shape == (2 * n_rhs,)
    assert ok[:n_rhs].all()
    assert (mm(X[ok], a.T) == rhs[ok]).all()
    assert not X[~ok].any()
    for i in np.flatnonzero(~ok)[:4]:  # really not in the image
        assert py_rank(np.concatenate([a, rhs[i][:, None]], axis=1)) == rk + 1
    # a batch of >= 64 rows goes through the solve matrix (M4RM product), fewer rows
    # through dot products: same answers
    Xb, okb = e.solve(np.tile(rhs, (2, 1)))
    assert (Xb == np.tile(X, (2, 1))).all() and (okb == np.tile(ok, 2)).all()
    # any integer dtype, negatives too: only the value mod 2 counts
    X64, ok64 = e.solve(rhs.astype(np.int64) + 2 * rng.integers(-3, 3, rhs.shape))
    assert (ok64 == ok).all() and (X64 == X).all()
    X16, ok16 = e.solve(rhs.astype(np.int16) - 4)
    assert (ok16 == ok).all() and (X16 == X).all()
    G = e.pseudo_inverse()
    assert G.shape == (r, m) and G.dtype == np.uint8
    assert (mm(mm(a, G), a) == a).all()
    if m == r:
        assert e.det() == int(rk == m)
        if rk == m:
            inv = e.inverse()
            eye = np.eye(m, dtype=np.uint8)
            assert (mm(a, inv) == eye).all() and (mm(inv, a) == eye).all()
        else:
            with pytest.raises(ValueError, match="not invertible"):
                e.inverse()
    else:
        with pytest.raises(ValueError, match="square"):
            e.det()
        with pytest.raises(ValueError, match="square"):
            e.inverse()
    if reference is not None:
        assert e.kernel_size == reference.kernel_size
        _, ok_ref = reference.solve(rhs)
        assert (ok == ok_ref).all()
        if m == r:
            assert e.det() == reference.det()
    return e


# ---------------------------------------------------------------------------- random matrices
SMALL = [
    (0, 0),
    (0, 5),
    (5, 0),
    (1, 1),
    (1, 5),
    (5, 1),
    (3, 3),
    (7, 4),
    (4, 7),
    (63, 63),
    (64, 64),
    (65, 65),
    (64, 130),
    (130, 64),
    (70, 20),
    (20, 70),
]
LARGE = [
    (127, 127),
    (128, 128),
    (129, 129),
    (255, 255),
    (256, 256),
    (257, 257),
    (300, 129),
    (129, 300),
    (513, 200),
    (200, 513),
    (150, 1100),
]
KINDS = ["dense", "sparse", "lowrank", "zero-lines", "zero"]


@pytest.mark.parametrize(
    "kind,shape",
    sample(
        [(k, s) for k in KINDS for s in SMALL],
        16,
        ids=lambda c: f"{c[0]}-{c[1][0]}x{c[1][1]}",
        unpack=True,
    ),
)
def test_small_vs_reference(simd, shape, kind):
    rng = np.random.default_rng(hash((shape, kind)) & 0xFFFF)
    a = random_matrix(rng, *shape, kind)
    check_engine(a, rng, reference=ReferenceEngine(a, 2))


@pytest.mark.parametrize(
    "kind,shape",
    sample(
        [(k, s) for k in ("dense", "sparse", "lowrank", "zero-lines") for s in LARGE],
        3,
        ids=lambda c: f"{c[0]}-{c[1][0]}x{c[1][1]}",
        unpack=True,
    ),
)
def test_large(simd, shape, kind):
    rng = np.random.default_rng(hash((shape, kind, 1)) & 0xFFFF)
    check_engine(random_matrix(rng, *shape, kind), rng)


@pytest.mark.parametrize("n", sample([1, 63, 64, 65, 127, 128, 129, 255, 256, 257, 700], 5))
def test_invertible(simd, n):
    rng = np.random.default_rng(n)
    # unit lower times unit upper: always invertible, dense
    lo = np.tril((rng.random((n, n)) < 0.5).astype(np.uint8), -1) + np.eye(n, dtype=np.uint8)
    up = np.triu((rng.random((n, n)) < 0.5).astype(np.uint8), 1) + np.eye(n, dtype=np.uint8)
    a = mm(lo, up)
    e = check_engine(a, rng, n_rhs=8)
    assert e.det() == 1 and e.kernel_size == 1


def test_identity_and_zero(simd):
    for n in (1, 64, 65, 200):
        e = Gf2Engine(np.eye(n, dtype=np.uint8))
        assert (e.inverse() == np.eye(n, dtype=np.uint8)).all()
        z = Gf2Engine(np.zeros((n, n), np.uint8))
        assert z.det() == 0 and z.kernel_size == 2**n
        assert not z.pseudo_inverse().any()


@pytest.mark.parametrize(
    "shape,method",
    sample(
        [
            (s, m)
            for s in ((1, 1), (64, 64), (65, 200), (300, 300), (200, 65), (450, 450))
            for m in ("naive", "m4ri", "auto")
        ],
        6,
        unpack=True,
    ),
)
def test_echelonize_methods(simd, method, shape):
    rng = np.random.default_rng(7)
    for kind in ("dense", "lowrank", "zero-lines"):
        a = random_matrix(rng, *shape, kind)
        rk = py_rank(a)
        for full in (False, True):
            E, k, piv = _gf2.echelonize(a, full=full, method=method)
            assert k == rk == _gf2.rank(a, method=method) and len(piv) == k
            assert py_rank(np.concatenate([a, E])) == rk  # same row space
            assert not E[k:].any()
            assert (E[np.arange(k), piv] == 1).all() and all(np.diff(piv) > 0)
            for i, p in enumerate(piv):
                assert not E[i, :p].any()
                if full:
                    assert E[:, p].sum() == 1
        E1 = _gf2.echelonize(a, True, "naive")[0]
        assert (E1 == _gf2.echelonize(a, True, method)[0]).all()  # RREF is unique


@pytest.mark.matrix  # 1 CPU s a case (blocked elimination past the cache size)
@pytest.mark.parametrize("kind", ["dense", "deficient"])
def test_echelonize_blocked_size(simd, kind):
    """A matrix of >= 2 MiB takes the blocked forward elimination (panels of pivot
    columns, the columns to the right updated strip by strip): same rank, pivots and
    reduced form as the naive elimination, and its echelon form spans the same rows."""
    rng = np.random.default_rng(11)
    a = (rng.random((1100, 16500)) < 0.5).astype(np.uint8)
    if kind == "deficient":
        a[:, 3] = 0  # a column without pivot: passes unaligned
        a[:, 200:230] = 0
        a[700:] = a[:400] ^ a[300:700]  # rank 700 + whatever the rest adds
    for full in (False, True):
        E, k, piv = _gf2.echelonize(a, full=full, method="m4ri")
        En, kn, pn = _gf2.echelonize(a, full=full, method="naive")
        assert k == kn and piv == pn
        assert not E[k:].any()
        if full:
            assert (E == En).all()
        else:
            assert (
                _gf2.echelonize(E, True, "naive")[0] == _gf2.echelonize(En, True, "naive")[0]
            ).all()
    assert _gf2.rank(a) == kn
    if kind == "deficient":
        assert kn < 1100


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 80), st.integers(0, 80), st.integers(0, 2**32 - 1), st.sampled_from(KINDS))
def test_hypothesis_shapes(m, r, seed, kind):
    rng = np.random.default_rng(seed)
    for path in PATHS:
        _gf2.set_simd(path)
        check_engine(random_matrix(rng, m, r, kind), rng, n_rhs=6)
    _gf2.set_simd(PATHS[-1])


# ---------------------------------------------------------------------------- coordinates
def test_from_coo_matches_dense(simd):
    rng = np.random.default_rng(3)
    for m, r in [(0, 0), (1, 1), (70, 130), (129, 65), (300, 300)]:
        nnz = 4 * (m + r)
        ci = rng.integers(0, max(m, 1), nnz) if m else np.zeros(0, np.int64)
        tj = rng.integers(0, max(r, 1), nnz) if r else np.zeros(0, np.int64)
        if not (m and r):
            ci = tj = np.zeros(0, np.int64)
        dense = np.zeros((m, r), np.int64)
        np.add.at(dense, (ci, tj), 1)
        a = (dense % 2).astype(np.uint8)
        e1 = Gf2Engine.from_coo(m, r, ci, tj)
        e2 = Gf2Engine(a)
        assert e1.rank == e2.rank == py_rank(a)
        assert (e1.pseudo_inverse() == e2.pseudo_inverse()).all()
        assert (e1.generators()[0] == e2.generators()[0]).all()


def test_from_coo_repeats_cancel():
    e = Gf2Engine.from_coo(2, 2, [0, 0, 1], [0, 0, 1])
    assert e.rank == 1 and e.kernel_size == 2
    assert (e.generators()[0] == [[1, 0]]).all()


# ---------------------------------------------------------------------------- boards
BOARDS = [
    dict(rows=5, cols=5),
    dict(rows=4, cols=4),
    dict(rows=9, cols=7, pattern="diagonal"),
    dict(rows=6, cols=6, pattern="square"),
    dict(rows=8, cols=8, pattern="knight"),
    dict(rows=5, cols=11, pattern="horizontal"),
    dict(rows=7, cols=7, wrap=True),
    dict(rows=6, cols=9, pattern="square", wrap=True),
    dict(rows=10, cols=10, locked=[(0, 0), (3, 4), (9, 9)], holes=[(5, 5), (2, 7)]),
    dict(rows=8, cols=6, pattern=[(0, 0), (0, 1), (0, 1), (2, 0)]),  # repeats add up
    dict(
        rows=3,
        cols=3,
        pattern=[[("cross" if (r + c) % 2 else "square") for c in range(3)] for r in range(3)],
    ),
    dict(rows=16, cols=16),
    dict(rows=20, cols=13, pattern="knight", holes=[(i, i % 13) for i in range(0, 20, 3)]),
]


@pytest.mark.parametrize("spec", sample(BOARDS, 4, ids=lambda s: repr(s)[:60]))
def test_boards_vs_reference(simd, spec):
    b = ml.Board.grid(states=2, **spec)
    nat = ml.Solver(b, method="dense")
    ref = ml.Solver(b, backend="reference")
    assert nat.engine == "dense-gf2" and ref.engine == "reference"
    assert nat.kernel_size == ref.kernel_size and nat.nullity == ref.nullity
    assert nat.rank == ref.rank
    K = nat.kernel()
    A = b.matrix()
    if K.size:
        assert not mm(A, K.T).any() and py_rank(K) == nat.nullity
    rng = np.random.default_rng(11)
    states = np.stack([b.random_state(rng=rng, solvable=i % 2 == 0) for i in range(16)])
    assert (nat.solvable_many(states) == ref.solvable_many(states)).all()
    for s in states[:6]:
        if not ref.solvable(s):
            with pytest.raises(ml.Unsolvable):
                nat.solve(s)
            continue
        sol = nat.solve(s, minimal=nat.kernel_size <= 256)
        assert not b.apply(s, sol.taps).any()
        if nat.kernel_size <= 256:
            assert sol.length == ref.solve(s).length
    good = states[::2]
    taps = nat.solve_many(good)
    for s, t in zip(good, taps):
        assert not b.apply(s, t).any()
    G = nat.pseudo_inverse()
    assert (mm(mm(A, G), A) == A).all()
    if b.n_cells == b.n_taps:
        assert nat.det() == ref.det()
        if nat.is_invertible:
            assert (nat.inverse() == ref.inverse()).all()


def test_board_from_matrix_uses_dense():
    a = np.array([[1, 1, 0], [0, 1, 3], [2, 0, 1]])
    b = ml.Board.from_matrix(a, 2)
    s = ml.Solver(b)
    assert s.engine == "dense-gf2"
    assert s.kernel_size == ml.Solver(b, backend="reference").kernel_size


def test_large_board_factor():
    b = ml.Board.grid(40, 40)
    s = ml.Solver(b)
    state = b.random_state(rng=5)
    sol = s.solve(state, minimal=False)
    assert not b.apply(state, sol.taps).any()
    K = s.kernel()
    ci, tj = b.coo()
    for k in K:  # A k = 0 without a dense matrix
        acc = np.bincount(ci, weights=k[tj], minlength=b.n_cells)
        assert not (acc.astype(np.int64) % 2).any()


def test_grid_boards_never_build_dense(monkeypatch):
    """Board -> packed A straight from coordinates: matrix() is never called."""

    def boom(self):
        raise AssertionError("dense matrix built")

    b = ml.Board.grid(30, 30, holes=[(3, 3)], locked=[(0, 1)])
    state = b.random_state(rng=1)
    monkeypatch.setattr(ml.Board, "matrix", boom)
    s = ml.Solver(b)
    assert not b.apply(state, s.solve(state, minimal=False).taps).any()
    s.kernel(), s.pseudo_inverse()


def test_solve_many_batch():
    b = ml.Board.grid(5, 5)
    s = ml.Solver(b)
    rng = np.random.default_rng(2)
    states = np.stack([b.random_state(rng=rng, solvable=bool(i % 3)) for i in range(3000)])
    ok = s.solvable_many(states)
    ref_ok = ml.Solver(b, backend="reference").solvable_many(states)
    assert (ok == ref_ok).all()
    taps = s.solve_many(states[ok])
    A = b.matrix()
    R = (-states[ok].reshape(len(taps), -1)) % 2
    assert (mm(taps.reshape(len(taps), -1), A.T) == R).all()


def test_binary_boards_route_here_and_reference_stays_reachable():
    assert ml.Solver(ml.Board.grid(3, 3)).engine == "dense-gf2"
    assert ml.Solver(ml.Board.grid(3, 3, states=3)).engine != "dense-gf2"
    assert ml.Solver(ml.Board.grid(3, 3), backend="reference").engine == "reference"


# ---------------------------------------------------------------------------- bad input
def test_bad_input():
    with pytest.raises(ValueError, match="2-D"):
        Gf2Engine(np.zeros(3, np.uint8))
    with pytest.raises(ValueError, match="integers"):
        Gf2Engine(np.array([[0.5, 1.0]]))
    with pytest.raises(ValueError, match="integers"):
        Gf2Engine(np.array([["a"]]))
    e = Gf2Engine(np.eye(3, dtype=np.uint8))
    with pytest.raises(ValueError, match="shape"):
        e.solve(np.zeros((2, 4), np.uint8))
    with pytest.raises(ValueError, match="2-D"):
        e.solve(np.zeros(3, np.uint8))
    X, ok = e.solve(np.zeros((0, 3), np.int64))
    assert X.shape == (0, 3) and ok.shape == (0,)
    X, ok = e.solve(np.array([[-1, 2, 3]]))  # reduced mod 2, negatives too
    assert ok.all() and (X == [[1, 0, 1]]).all()
    with pytest.raises(ValueError, match="row indices"):
        Gf2Engine.from_coo(2, 2, [0, 2], [0, 1])
    with pytest.raises(ValueError, match="row indices"):
        Gf2Engine.from_coo(2, 2, [-1], [0])
    with pytest.raises(ValueError, match="column indices"):
        Gf2Engine.from_coo(2, 2, [0], [5])
    with pytest.raises(ValueError, match="1-D"):
        Gf2Engine.from_coo(2, 2, [0, 1], [0])
    with pytest.raises(ValueError):
        Gf2Engine.from_coo(-1, 2, [], [])
    with pytest.raises(ValueError):
        Gf2Engine.from_coo(2, 2.5, [], [])
    with pytest.raises(ValueError, match="integers"):
        Gf2Engine.from_coo(2, 2, [0.5], [0])
    with pytest.raises(ValueError, match="too large"):
        Gf2Engine.from_coo(1 << 18, 1 << 18, [], [])
    with pytest.raises(ValueError, match="unknown SIMD"):
        _gf2.set_simd("sse9")
    with pytest.raises(ValueError, match="method"):
        _gf2.rank(np.eye(2), method="fast")
    for p in ("portable", "avx2", "avx512"):
        if p not in PATHS:
            with pytest.raises(ValueError, match="cannot run"):
                _gf2.set_simd(p)
    assert PATHS[0] == "portable"


def test_env_var_forces_path():
    code = "from modlights.native import _core as _gf2; print(_gf2.get_simd())"
    for p in PATHS:
        env = dict(os.environ, MODLIGHTS_SIMD=p)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.strip()
        assert out == p


@pytest.mark.parametrize("shape", [(1, 1), (63, 65), (130, 70), (200, 200), (0, 5), (5, 0)])
def test_rank_only_path_matches_full_factorisation(shape):
    """Solver.rank / nullity / kernel_size on a dense GF(2) board take the rank-only
    elimination; they must agree with the full engine and the reference."""
    rng = np.random.default_rng(sum(shape))
    A = (rng.random(shape) < 0.5).astype(np.uint8)
    if shape[0] > 100:
        A[50:] = A[: shape[0] - 50] ^ A[: shape[0] - 50]  # rank-deficient
    b = ml.Board.from_matrix(A, 2)
    lazy = ml.Solver(b)
    assert lazy._eng is None
    rk, nl, ks = lazy.rank, lazy.nullity, lazy.kernel_size
    assert lazy._eng is None  # no factorisation yet
    ref = ml.Solver(b, backend="reference")
    assert (rk, nl, ks) == (ref.rank, ref.nullity, ref.kernel_size)
    assert lazy.engine == "dense-gf2"  # the plan, not built
    assert len(lazy.kernel()) == nl
