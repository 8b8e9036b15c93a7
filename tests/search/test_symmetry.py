"""modlights.search.symmetry: the symmetries it returns are exactly the geometric maps
(dihedral, and torus translations composed with them) that preserve A entry by entry
and b, checked here on the dense matrix independently of its coordinate check."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from modlights.search.symmetry import MAX_SYMMETRIES, apply_taps, symmetries


def dense_maps(board):
    """Every candidate map as (cells, taps) or None, by brute force over positions."""
    rows, cols = board.shape
    R, C = rows - 1, cols - 1
    dih = [
        lambda r, c: (r, c),
        lambda r, c: (R - r, C - c),
        lambda r, c: (R - r, c),
        lambda r, c: (r, C - c),
    ]
    if rows == cols:
        dih += [
            lambda r, c: (c, r),
            lambda r, c: (C - c, R - r),
            lambda r, c: (c, R - r),
            lambda r, c: (C - c, r),
        ]
    shifts = [(a, b) for a in range(rows) for b in range(cols)] if board.wrap else [(0, 0)]
    cells = {p: i for i, p in enumerate(board.cells)}
    taps = {p: i for i, p in enumerate(board.taps)}
    out = []
    for a, b in shifts:
        for f in dih:

            def g(p, f=f, a=a, b=b):
                r, c = f(*p)
                return ((r + a) % rows, (c + b) % cols)

            if (a, b) == (0, 0) and f is dih[0]:
                continue
            pc = [cells.get(g(p), -1) for p in board.cells]
            pt = [taps.get(g(p), -1) for p in board.taps]
            out.append(
                None
                if -1 in pc or -1 in pt
                else (np.array(pc, dtype=np.int64), np.array(pt, dtype=np.int64))
            )
    return out


def preserves(board, pc, pt, b=None):
    A = board.matrix().astype(np.int64)
    B = np.zeros_like(A)
    B[np.ix_(pc, pt)] = A
    return np.array_equal(A, B) and (b is None or np.array_equal(b[pc], b))


def random_grid(rng):
    rows, cols = int(rng.integers(1, 7)), int(rng.integers(1, 7))
    if rng.random() < 0.5:
        cols = rows
    n = int(rng.integers(2, 5))
    pattern = [
        "cross",
        "square",
        "diagonal",
        "horizontal",
        "knight",
        ((0, 0), (0, 1)),
        ((0, 0), (1, 0), (-1, 0)),
    ][int(rng.integers(0, 7))]
    wrap = bool(rng.random() < 0.3)
    sym_mask = rng.random() < 0.5
    holes = rng.random((rows, cols)) < 0.15
    locked = (rng.random((rows, cols)) < 0.15) & ~holes
    if sym_mask:  # symmetric masks keep some symmetries
        holes = holes & holes[::-1, ::-1]
        locked = locked & locked[::-1, ::-1] & ~holes
    if holes.all():
        holes[0, 0] = False
        locked[0, 0] = False
    return ml.Board.grid(rows, cols, n, pattern, locked=locked, holes=holes, wrap=wrap)


@pytest.mark.parametrize("seed", range(60))
def test_symmetries_are_exactly_the_maps_that_preserve_A_and_b(seed):
    rng = np.random.default_rng(seed)
    board = random_grid(rng)
    rhs = None
    if seed % 2:
        # a symmetric rhs half the time: b = A x for a random x, or all ones
        rhs = (
            np.ones(board.n_cells, dtype=np.int64)
            if seed % 4 == 1
            else rng.integers(0, board.states, board.n_cells)
        )
    got = symmetries(board, rhs)
    want = [m for m in dense_maps(board) if m is not None and preserves(board, *m, rhs)]

    def key(m):
        return (tuple(m[0].tolist()), tuple(m[1].tolist()))

    rows, cols = board.shape
    whole = not board.wrap or rows * cols * (8 if rows == cols else 4) <= MAX_SYMMETRIES + 1
    if whole:  # the group listed whole: exactly the maps that preserve A and b
        assert set(map(key, got)) == set(map(key, want))
    else:  # large tori: a subset of them
        assert set(map(key, got)) <= set(map(key, want))
    for pc, pt in got:
        assert preserves(board, pc, pt, None if rhs is None else rhs % board.states)


def test_square_all_on_board_has_the_dihedral_group():
    b = ml.Board.grid(9, 9)
    assert len(symmetries(b, np.ones(b.n_cells, dtype=int))) == 7
    assert len(symmetries(ml.Board.grid(4, 6))) == 3
    # an asymmetric pattern keeps only what maps it onto itself
    assert symmetries(ml.Board.grid(5, 5, 2, ((0, 0), (0, 1), (2, 0)))) == []
    assert len(symmetries(ml.Board.grid(5, 5, 2, ((0, 0), (0, 1))))) == 1  # up-down
    # a lone hole off the axes breaks them all
    assert symmetries(ml.Board.grid(5, 5, holes=[(0, 1)])) == []


def test_torus_translations():
    b = ml.Board.grid(3, 3, wrap=True)
    assert len(symmetries(b)) == 3 * 3 * 8 - 1


def test_graph_boards_and_bad_rhs():
    g = ml.Board.from_effects([[0, 1], [1, 2], [2, 0]], 2)
    assert symmetries(g) == []
    with pytest.raises(ValueError, match="one per cell"):
        symmetries(ml.Board.grid(3, 3), np.ones(5))


def test_apply_taps_maps_solutions_to_solutions():
    b = ml.Board.grid(5, 5)
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2, b.n_taps)
    A = b.matrix().astype(np.int64)
    for pc, pt in symmetries(b):
        y = apply_taps(pt, x)
        assert np.array_equal((A @ y % 2)[pc], A @ x % 2)
