"""The C torus engine (csrc/engines/torus.c over polymat.c: "algebraic-torus"), through
the C API's solver (modlights.native._core.CSolver), answers as
``modlights.Solver(board, method="algebraic-torus")`` with Python's engine
(src/modlights/engines/algebraic/cross.py's AlgebraicEngine over torus.py's TorusSystem):
on random tori of the cross family (cross, vertical, horizontal and random counts of
(0,0), (0,+-1), (+-1,0)), n = 2, 3, 5, 7 and 251, odd and even sides, boards worked on
transposed (no unit (-1, 0), or fewer than 3 rows), the same plan engine, nullity, rank,
kernel size, the same canonical kernel generators and orders (each in ker A), det,
solvable, and solutions that reach the target; boards it does not cover refused with
Python's reason; the kernel basis limit with Python's message. Deterministic (seeded
NumPy generators); the big sweep and the large tori are in the matrix group."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from capi_oracle import CBoard, c_board, check_solves, check_structure, oracle_solver, same
from modlights.native import _core

CSolver = _core.CSolver
METHOD = "algebraic-torus"
ROW = [(0, 0), (0, 1), (0, -1), (-1, 0), (1, 0)]


def _pattern(rng):
    """A pattern of the cross family: a named one or random counts of ROW's offsets."""
    if rng.random() < 0.4:
        return str(rng.choice(["cross", "vertical", "horizontal"]))
    out = []
    for o in ROW:
        out += [o] * int(rng.integers(0, 3))
    return out or [(0, 0)]


def _torus(rng, ns, max_side=9):
    n = int(rng.choice(ns))
    rows, cols = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
    return ml.Board.grid(rows, cols, states=n, pattern=_pattern(rng), wrap=True)


def _compare(b: ml.Board, rng, solves: int = 3) -> bool:
    """C against an independent engine on b; False when neither Python's registry nor
    C's covers b with the torus engine (then the same reason)."""
    try:
        ml.Solver(b, method=METHOD)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), METHOD)
        assert str(got.value) == str(e)
        return False
    ps = oracle_solver(b)
    cs = CSolver(c_board(b), METHOD)
    assert cs.plan["engine"] == METHOD
    check_structure(cs, ps, b, in_ker=4)
    d_py, d_c = same(ps.det, cs.det)
    assert d_py == d_c
    check_solves(cs, ps, b, rng, solves)
    return True


def test_random_tori_as_python():
    rng = np.random.default_rng(37)
    covered = 0
    for _ in range(80):
        covered += _compare(_torus(rng, [2, 3, 5, 7]), rng)
    assert covered >= 40  # most random tori of the family are covered


def test_large_prime_and_sides_as_python():
    rng = np.random.default_rng(38)
    covered = 0
    for _ in range(6):
        covered += _compare(_torus(rng, [251], max_side=12), rng)
    assert covered >= 3
    for rows, cols, n, pat in (
        (20, 20, 2, "cross"),  # nullity 28 (a large kernel)
        (15, 30, 2, "cross"),
        (17, 17, 3, "vertical"),
        (12, 9, 5, "horizontal"),
        (2, 9, 2, "cross"),  # 2 rows: worked on transposed
        (9, 2, 3, "cross"),
        (6, 6, 251, "cross"),
    ):
        b = ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True)
        assert _compare(b, rng, solves=2)


def test_transposed_orientations_and_kernels():
    """No unit count of (-1, 0): chased down the columns; every singular case of the
    diagonal form (a zero entry, both zero) reached by these small tori."""
    rng = np.random.default_rng(39)
    pats = [
        [(0, 0), (0, -1), (1, 0)],
        [(0, 0), (-1, 0), (0, -1)],
        [(-1, 0), (1, 0)],
        [(-1, 0)],
        [(-1, 0), (0, 1), (0, -1)],
        [(0, 1), (0, -1)],
    ]
    for pat in pats:
        for n in (2, 3, 7):
            for rows, cols in ((3, 3), (4, 6), (6, 4), (5, 5), (3, 8), (1, 5), (5, 1)):
                b = ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True)
                _compare(b, rng, solves=2)


def test_same_taps_as_python():
    """Not only a solution: the engine's particular solution (solve without the minimal
    search) reaches Python's Solver unchanged through the adapter, and solves, on random
    solvable tori, the kernel trivial or not."""
    rng = np.random.default_rng(40)
    compared = 0
    for _ in range(100):
        b = _torus(rng, [2, 3, 5, 7, 251])
        try:
            ps = ml.Solver(b, method=METHOD)
        except ValueError:
            continue
        cs = CSolver(c_board(b), METHOD)
        x = rng.integers(0, b.states, size=b.shape)
        state = (b.apply(np.zeros(b.shape, dtype=np.int64), x) % b.states).astype(np.uint8)
        want = np.asarray(ps.solve(state, minimal=False).taps).reshape(-1)
        assert np.array_equal(np.asarray(cs.solve(state)[0]).reshape(-1), want)
        assert not b.apply(state, want.reshape(b.shape)).any()
        compared += 1
    assert compared >= 50


def test_kernel_basis_limit_as_python():
    # the vertical pair (-1, 0), (1, 0) over GF(2) on 4 rows: nullity 2 w; 2^14
    # generators of 2^15 taps (512 MiB) pass the solver's 1 GiB but not the engine's 256 MiB
    b = ml.Board.grid(4, 1 << 13, states=2, pattern=[(-1, 0), (1, 0)], wrap=True)
    ps = ml.Solver(b, method=METHOD)  # Python's refusal: the engine's, through the adapter
    cs = CSolver(c_board(b), METHOD)
    assert cs.nullity == ps.nullity
    with pytest.raises(ValueError) as e:
        ps.kernel()
    with pytest.raises(ValueError) as got:
        cs.kernel()
    assert str(got.value) == str(e.value)
    assert "256 MiB allowed" in str(e.value)


def test_giant_torus_structure_as_python():
    # past MAX_TILES: the nullity and kernel size from two chases of O(w) memory and the
    # algebra (over GF(2) the chases run on words, as Python's)
    b = ml.Board.grid(20000, 10007, states=2, pattern="cross", wrap=True)
    ps = ml.Solver(b, method=METHOD)
    cs = CSolver(CBoard.grid(20000, 10007, states=2, pattern="cross", wrap=True), METHOD)
    assert cs.nullity == ps.nullity
    assert cs.kernel_size == ps.kernel_size


@pytest.mark.matrix
def test_many_tori_as_python():
    rng = np.random.default_rng(337)
    for _ in range(400):
        _compare(_torus(rng, [2, 3, 5, 7, 11, 251], max_side=16), rng)


@pytest.mark.matrix
@pytest.mark.parametrize(
    "rows, cols, n, pat",
    [
        (300, 300, 2, "cross"),
        (301, 299, 3, "cross"),
        (200, 257, 2, "vertical"),
        (96, 101, 251, "cross"),
    ],
)
def test_large_tori_as_python(rows, cols, n, pat):
    b = ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True)
    ps = oracle_solver(b)
    cs = CSolver(c_board(b), METHOD)
    assert cs.nullity == ps.nullity
    assert cs.kernel_size == ps.kernel_size
    assert np.array_equal(cs.kernel()[0], ps.kernel())
    check_solves(cs, ps, b, np.random.default_rng(rows), 2)
