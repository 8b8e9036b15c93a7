"""model/board_args.py: Board.grid's locked / holes positions and Board.from_effects'
tap lists as board documents read by the C library in the constructors' words. The
messages are the ones Python's own checks gave (taken from the tree before the move):
the C reader's checks and order, with an item of the argument shown as Python shows it
(tuples, NumPy values). Boards built from positions equal those built from masks (two C
paths: positions marked by the reader, masks read in place), and a board's masks from
positions are the C board's own bytes, read in place."""

from __future__ import annotations

import gc
import pickle

import numpy as np
import pytest

import modlights as ml

GRID = [
    ("dict(locked=[[0, 0, 0]])", "locked must be a (row, col) pair of ints, got (0, 0, 0)"),
    ("dict(locked=[(0, 'a')])", "locked must be a (row, col) pair of ints, got (0, 'a')"),
    (
        "dict(locked=[np.array([0, 0, 0])])",
        "locked must be a (row, col) pair of ints, got (np.int64(0), np.int64(0), np.int64(0))",
    ),
    (
        "dict(holes=[(np.float64(0.5), 0)])",
        "holes must be a (row, col) pair of ints, got (np.float64(0.5), 0)",
    ),
    ("dict(locked=[(True, 0)])", "locked mask has shape (1, 2), the board is (3, 3)"),
    ("dict(locked=[(float('nan'), 0)])", "locked must be a (row, col) pair of ints, got (nan, 0)"),
    ("dict(locked=['ab'])", "locked must be a (row, col) pair of ints, got ('a', 'b')"),
    ("dict(locked=[(3, 0)])", "locked (3, 0) is off the board: rows 0..2, cols 0..2"),
    ("dict(locked=[(0, -1.0)])", "locked (0, -1) is off the board: rows 0..2, cols 0..2"),
    (
        "dict(holes=[(10**30, 0)])",
        "holes (1000000000000000000000000000000, 0) is off the board: rows 0..2, cols 0..2",
    ),
    (
        "dict(holes=[(1e19, 0)])",
        "holes (10000000000000000000, 0) is off the board: rows 0..2, cols 0..2",
    ),
    ("dict(locked=[(9, 9), (0, 0, 0)])", "locked (9, 9) is off the board: rows 0..2, cols 0..2"),
    ("dict(locked=[(0, 0, 0), (9, 9)])", "locked must be a (row, col) pair of ints, got (0, 0, 0)"),
    (
        "dict(locked=[(0, 0), (9, 9)], holes=[(0, 0, 0)])",
        "locked (9, 9) is off the board: rows 0..2, cols 0..2",
    ),
    ("dict(locked=5, holes=[(9, 9)])", "locked must be a sequence, got int"),
    ("dict(locked=[(9, 9)], holes=5)", "locked (9, 9) is off the board: rows 0..2, cols 0..2"),
    (
        "dict(pattern='nope', locked=5)",
        "unknown pattern 'nope': use one of 'cross', 'diagonal', 'square', 'horizontal', "
        "'vertical', 'knight', or a sequence of (dr, dc) offsets",
    ),
    (
        "dict(pattern=[(0, 0, 1)], holes=[[True]])",
        "pattern offsets must be (dr, dc) pairs of ints, got (0, 0, 1)",
    ),
    (
        "dict(locked=iter([(0, 0), (1, 1), (0, 5)]))",
        "locked (0, 5) is off the board: rows 0..2, cols 0..2",
    ),
    (
        "dict(holes=[1, 2])",
        "holes must be a boolean 3x3 mask or an iterable of (row, col) positions",
    ),
]

EFFECTS = [
    ("([[0, 1], [np.True_]], 2, None)", "effects[1] holds np.True_; cell indices must be ints"),
    (
        "([[0, 1], [np.float64(1.0)]], 2, None)",
        "effects[1] holds np.float64(1.0); cell indices must be ints",
    ),
    ("([[0, 1], [float('nan')]], 2, None)", "effects[1] holds nan; cell indices must be ints"),
    ("([[0, 'a']], 2, 1.5)", "effects[0] holds 'a'; cell indices must be ints"),
    ("([[0]], 2, 1.5)", "n_cells must be a non-negative int, got float 1.5"),
    (
        "([[0]], 2, np.float64(2.0))",
        "n_cells must be a non-negative int, got float64 np.float64(2.0)",
    ),
    ("([[0]], 2, True)", "n_cells must be a non-negative int, got a bool (True)"),
    ("([[0]], 2, -1)", "n_cells must be from 0 to 134217728, got -1"),
    (
        "([[0, 2**40, -(2**40)]], 2, None)",
        "cell index 1099511627776 out of range: a board has at most 134217728 cells",
    ),
    (
        "([np.array([-(2**40), 2**40])], 2, None)",
        "cell index 1099511627776 out of range: a board has at most 134217728 cells",
    ),
    (
        "([np.array([200000000])], 2, 5)",
        "cell index 200000000 out of range: a board has at most 134217728 cells",
    ),
    ("([[200000000]], 2, 5)", "cell index 200000000 out of range: cells are 0..4"),
    ("([['a'], np.array([2**40])], 2, None)", "effects[0] holds 'a'; cell indices must be ints"),
    (
        "([[2**40], np.array([5])], 2, None)",
        "cell index 1099511627776 out of range: a board has at most 134217728 cells",
    ),
    (
        "([np.array([2**63 + 5], np.uint64)], 2, None)",
        "cell index 9223372036854775813 out of range: a board has at most 134217728 cells",
    ),
    ("([[0, 5]], 2, 3)", "cell index 5 out of range: cells are 0..2"),
]


@pytest.mark.parametrize("src,message", GRID)
def test_grid_positions_in_board_grids_words(src, message):
    with pytest.raises(ValueError) as e:
        ml.Board.grid(3, 3, **eval(src))
    assert str(e.value) == message


@pytest.mark.parametrize("src,message", EFFECTS)
def test_from_effects_in_its_own_words(src, message):
    with pytest.raises(ValueError) as e:
        ml.Board.from_effects(*eval(src))
    assert str(e.value) == message


def test_a_giant_board_with_marks_is_refused_first():
    for kw in (
        {"locked": [(0, 0)], "states": 1},
        {"holes": np.zeros((1, 1), bool), "pattern": "nope"},
        {"holes": iter([(0, 0)])},
    ):
        with pytest.raises(ValueError, match="^board too large: 12000x12000 = 144000000 tiles"):
            ml.Board.grid(12000, 12000, **kw)


def _random_marks(rng, rows, cols):
    locked = rng.random((rows, cols)) < 0.2
    holes = (rng.random((rows, cols)) < 0.2) & ~locked
    return locked, holes


@pytest.mark.parametrize("seed", range(6))
def test_positions_and_masks_make_the_same_board(seed):
    """Positions (marked by the C reader, repeats and integral floats included) and
    boolean masks (read in place) give equal boards with the masks asked for, on random
    boards: n 2..9, odd and even sides, wrap, named and offset patterns."""
    rng = np.random.default_rng(seed)
    for _ in range(8):
        rows, cols = (int(v) for v in rng.integers(1, 9, size=2))
        n = int(rng.integers(2, 10))
        wrap = bool(rng.integers(0, 2))
        pattern = ["cross", "knight", [(0, 0), (1, 1), (-2, 0)]][int(rng.integers(0, 3))]
        locked, holes = _random_marks(rng, rows, cols)
        pos = {
            k: [tuple(map(int, p)) for p in np.argwhere(m)]
            for k, m in (("locked", locked), ("holes", holes))
        }
        floats = [(float(r), c) for r, c in pos["locked"]] + pos["locked"][:2]
        a = ml.Board.grid(rows, cols, n, pattern, locked=floats, holes=pos["holes"], wrap=wrap)
        b = ml.Board.grid(rows, cols, n, pattern, locked=locked, holes=holes, wrap=wrap)
        assert a == b
        assert (a.locked == locked).all() and (a.holes == holes).all()
        assert a.n_cells == rows * cols - holes.sum()
        assert a.n_taps == rows * cols - holes.sum() - locked.sum()
        assert (a.matrix() == b.matrix()).all()
        assert a.any_locked == bool(locked.any()) and a.any_holes == bool(holes.any())


def test_masks_from_positions_are_the_c_boards_own_bytes():
    """A board's masks from positions are read-only views of the C board's masks that keep
    it alive; they pickle by value, and the unpickled board equals the board."""
    b = ml.Board.grid(4, 5, 3, locked=[(0, 0), (3, 4)], holes=[(1, 1)])
    m = b._locked
    assert not m.flags.writeable and m.dtype == bool and m.shape == (4, 5)
    with pytest.raises(ValueError):
        m[0, 0] = False
    want = np.zeros((4, 5), bool)
    want[0, 0] = want[3, 4] = True
    c = pickle.loads(pickle.dumps(b))
    assert c == b and (c.locked == want).all()
    del b
    gc.collect()
    assert (m == want).all()  # the view holds the C board
    g = ml.Board.grid(3, 3)  # nothing marked: no mask kept
    assert not g.any_locked and g.locked.sum() == 0


def test_from_effects_boards_as_before():
    eff = [[(i - 1) % 6, i, (i + 1) % 6] for i in range(6)]
    for e, m in ((eff, None), ([np.array(x) for x in eff], 6), ([iter(x) for x in eff], 8)):
        b = ml.Board.from_effects(e, 3, m)
        assert b.n_cells == (6 if m is None else m) and b.n_taps == 6
        a = np.zeros((b.n_cells, 6), np.uint8)
        for j, cells in enumerate(eff):
            for c in cells:
                a[c, j] += 1
        assert (b.matrix() == a).all()
        ci, tj = b.coo()
        assert (
            ci.dtype == np.int32
            and len(ci) == 18
            and sorted(zip(tj.tolist(), ci.tolist()))
            == sorted((j, c) for j, cells in enumerate(eff) for c in cells)
        )
        assert b.effects == tuple(tuple(x) for x in eff)
