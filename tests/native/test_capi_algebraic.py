"""The C algebraic engines (csrc/engines/algebraic.c: "algebraic-cross" on grids without
wrap, "algebraic-sym"), through the C API's solver (modlights.native._core.CSolver),
answer as ``modlights.Solver(board, method=...)`` with Python's engines
(src/modlights/engines/algebraic/cross.py, sym.py): on random boards of each engine's
family (cross, vertical, horizontal and random counts of (0,0), (0,+-1), (+-1,0);
diagonal, square, ring and random left-right or up-down symmetric 3 x 3 patterns),
n = 2, 3, 5, 7, 101, 251, odd and even sides, rectangles, boards worked on transposed,
the same plan engine, nullity, rank, kernel size, the same canonical kernel generators
and orders (each in ker A), det, solvable, and solutions that reach the target; the same
Unsolvable message; boards neither covers refused with Python's reason; the kernel
basis limit (KERNEL_BYTES_MAX) with Python's message. Deterministic (seeded NumPy
generators); the big sweep and the large boards are in the matrix group."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from capi_oracle import CBoard, c_board, check_solves, check_structure, oracle_solver, same
from modlights.native import _core

CSolver = _core.CSolver
ROW = [(0, 0), (0, 1), (0, -1), (-1, 0), (1, 0)]
RING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def _cross_pattern(rng, n):
    """A pattern of the cross family: a named one or random counts of ROW's offsets."""
    r = rng.random()
    if r < 0.4:
        return str(rng.choice(["cross", "vertical", "horizontal"]))
    out = []
    for o in ROW:
        out += [o] * int(rng.integers(0, 3))
    return out or [(0, 0)]


def _sym_pattern(rng, n):
    """A left-right (or, half the time, up-down) symmetric pattern in the 3 x 3 box."""
    r = rng.random()
    if r < 0.3:
        return str(rng.choice(["diagonal", "square", "cross"]))
    if r < 0.4:
        return RING
    out = []
    for dr in (-1, 0, 1):
        out += [(dr, 0)] * int(rng.integers(0, 3))
        k = int(rng.integers(0, 3))
        out += [(dr, -1)] * k + [(dr, 1)] * k
    out = out or [(0, 0)]
    if rng.random() < 0.5:  # up-down symmetric: the engine works on the transpose
        out = [(dc, dr) for dr, dc in out]
    return out


def _board(rng, method, ns, max_side=9):
    n = int(rng.choice(ns))
    rows, cols = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
    pat = (_cross_pattern if method == "algebraic-cross" else _sym_pattern)(rng, n)
    return ml.Board.grid(rows, cols, states=n, pattern=pat)


def _refused(b, method):
    """Python's refusal of ``method`` on b, or None when it covers b; then C's is the same
    (but for the list of methods, which in Python holds its seam engine "reference")."""
    try:
        ml.Solver(b, method=method)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), method)
        assert str(got.value) == str(e)
        return str(e)
    return None


def _compare(b: ml.Board, method: str, rng, solves: int = 3) -> bool:
    """C against Python on b with ``method``; False when neither covers b."""
    if _refused(b, method) is not None:
        return False
    ps = oracle_solver(b)
    cs = CSolver(c_board(b), method)
    assert cs.plan["engine"] == method
    check_structure(cs, ps, b, in_ker=4)
    d_py, d_c = same(ps.det, cs.det)
    assert d_py == d_c
    check_solves(cs, ps, b, rng, solves)
    return True


@pytest.mark.parametrize("method", ["algebraic-cross", "algebraic-sym"])
def test_random_boards_as_python(method):
    rng = np.random.default_rng(33 if method == "algebraic-cross" else 34)
    covered = 0
    for _ in range(70):
        covered += _compare(_board(rng, method, [2, 3, 5, 7]), method, rng)
    assert covered >= 35  # most random boards of the family are covered


@pytest.mark.parametrize("method", ["algebraic-cross", "algebraic-sym"])
def test_large_primes_and_sides_as_python(method):
    rng = np.random.default_rng(3)
    covered = 0
    for n in (101, 251):
        for _ in range(5):
            covered += _compare(_board(rng, method, [n], max_side=13), method, rng)
    assert covered >= 5
    for rows, cols, n, pat in (
        (20, 20, 2, "cross"),
        (19, 24, 2, "cross"),
        (17, 17, 3, "vertical"),
        (16, 30, 2, "diagonal"),
        (30, 16, 2, "diagonal"),
        (14, 11, 5, "horizontal"),
    ):
        b = ml.Board.grid(rows, cols, states=n, pattern=pat)
        _compare(b, method, rng, solves=2)


def test_transposed_and_mirrored_orientations():
    """Cross boards without (-1, 0) are worked on transposed, without (0, +1) mirrored;
    an up-down symmetric pattern transposed by the symmetric engine."""
    rng = np.random.default_rng(5)
    pats = [
        [(0, 0), (0, -1), (1, 0)],  # transposed: (0,-1) becomes the chase's (-1,0)
        [(0, 0), (-1, 0), (0, -1)],  # mirrored: only the super-diagonal
        [(0, 0), (-1, 0), (0, 1)],  # cyclic
        [(-1, 0), (1, 0)],  # scalar (vertical without centre)
        [(-1, -1), (1, -1), (0, 0)],  # up-down symmetric
    ]
    for pat in pats:
        for n in (2, 3, 7):
            for rows, cols in ((5, 8), (8, 5), (6, 6), (1, 7), (7, 1)):
                b = ml.Board.grid(rows, cols, states=n, pattern=pat)
                for method in ("algebraic-cross", "algebraic-sym"):
                    _compare(b, method, rng, solves=2)


def test_kernel_basis_limit_as_python():
    # vertical over GF(2) on 2 rows: F(t0) = 0, nullity = w; 2^14 generators of 2^15
    # taps pass the solver's 1 GiB but not the engine's 256 MiB
    b = ml.Board.grid(2, 1 << 14, states=2, pattern="vertical")
    ps = ml.Solver(b, method="algebraic-cross")
    cs = CSolver(c_board(b), "algebraic-cross")
    assert cs.nullity == ps.nullity == 1 << 14
    with pytest.raises(ValueError) as e:
        ps.kernel()
    with pytest.raises(ValueError) as got:
        cs.kernel()
    assert str(got.value) == str(e.value)
    assert "256 MiB allowed" in str(e.value)


def test_giant_board_structure_as_python():
    # past MAX_TILES: nullity, kernel size and det from the algebra alone (no h x w memory)
    for n, pat in ((2, "cross"), (3, "cross"), (2, "diagonal")):
        b = ml.Board.grid(20000, 10007, states=n, pattern=pat)
        method = "algebraic-cross" if pat == "cross" else "algebraic-sym"
        ps = ml.Solver(b, method=method)
        cs = CSolver(CBoard.grid(20000, 10007, states=n, pattern=pat), method)
        assert cs.nullity == ps.nullity
        assert cs.kernel_size == ps.kernel_size
        if method == "algebraic-cross":
            assert cs.det() == ps.det()


@pytest.mark.matrix
@pytest.mark.parametrize("method", ["algebraic-cross", "algebraic-sym"])
def test_many_boards_as_python(method):
    rng = np.random.default_rng(333)
    for _ in range(600):
        _compare(_board(rng, method, [2, 3, 5, 7, 11, 101, 251], max_side=16), method, rng)


@pytest.mark.matrix
@pytest.mark.parametrize(
    "side, n, pat",
    [
        (300, 2, "cross"),
        (301, 3, "cross"),
        (300, 2, "diagonal"),
        (301, 3, "square"),
        (2000, 2, "cross"),
    ],
)
def test_large_boards_as_python(side, n, pat):
    b = ml.Board.grid(side, side, states=n, pattern=pat)
    method = "algebraic-cross" if pat == "cross" else "algebraic-sym"
    ps = oracle_solver(b)
    cs = CSolver(c_board(b), method)
    assert cs.nullity == ps.nullity
    assert cs.kernel_size == ps.kernel_size
    if side <= 300:
        assert np.array_equal(cs.kernel()[0], ps.kernel())
    rng = np.random.default_rng(side)
    x = rng.integers(0, n, size=b.n_taps)
    state = (-b.apply(np.zeros(b.shape, dtype=np.int64), b.from_tap_vector(x))) % n
    taps = cs.solve(state)[0]
    assert np.array_equal(
        b.apply_vector(b.tap_vector(taps.reshape(b.shape))), b._rhs_cells(state, 0)
    )
