"""Bad input gets a ValueError that says what is allowed."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml


@pytest.mark.parametrize("n", [0, 1, 256, -3, 1000])
def test_states_out_of_range(n):
    with pytest.raises(ValueError, match="2 to 255"):
        ml.Board.grid(3, 3, states=n)
    with pytest.raises(ValueError, match="2 to 255"):
        ml.Board.from_effects([[0]], n)


@pytest.mark.parametrize("n", [2.0, "3", None, True])
def test_states_wrong_type(n):
    with pytest.raises(ValueError, match="states"):
        ml.Board.grid(3, 3, states=n)


@pytest.mark.parametrize("rows,cols", [(0, 3), (3, -1), (2.5, 2), (10**7, 10**7), ("3", 3)])
def test_bad_sizes(rows, cols):
    with pytest.raises(ValueError):
        ml.Board.grid(rows, cols)


def test_absurd_size_is_fast():
    """Past MAX_TILES only uniform boards are accepted (shape and pattern alone); what
    needs memory per tile refuses at once, saying how much; nothing is allocated."""
    import time

    t = time.perf_counter()
    with pytest.raises(ValueError, match="too large"):
        ml.Board.grid(100000, 100000, locked=[(0, 0)])
    with pytest.raises(ValueError, match="too large"):
        ml.Board.grid(100000, 100000, holes=[(5, 5)])
    with pytest.raises(ValueError, match="from 1 to"):
        ml.Board.grid(1 << 21, 2)
    b = ml.Board.grid(100000, 100000)
    assert b.n_cells == b.n_taps == 10**10
    for op in (
        b.random_state,
        lambda: b.coerce_target(0),
        lambda: b.holes,
        lambda: b.cells,
        b.matrix,
        b.coo,
        lambda: b._active,
    ):
        with pytest.raises(ValueError, match="GiB|entries"):
            op()
    assert time.perf_counter() - t < 0.5


def test_unknown_pattern():
    with pytest.raises(ValueError, match="unknown pattern 'star'.*cross"):
        ml.Board.grid(3, 3, pattern="star")
    with pytest.raises(ValueError, match="offsets"):
        ml.Board.grid(3, 3, pattern=[(0, 0, 1)])
    with pytest.raises(ValueError, match="offsets"):
        ml.Board.grid(3, 3, pattern=[(0.5, 0)])
    with pytest.raises(ValueError):
        ml.Board.grid(2, 2, pattern=[["cross", "nope"], ["cross", "cross"]])


def test_locked_and_hole_same_tile():
    with pytest.raises(ValueError, match=r"\(1, 2\).*both locked and a hole"):
        ml.Board.grid(3, 3, locked=[(1, 2)], holes=[(1, 2)])


def test_masks_wrong_shape_or_off_board():
    with pytest.raises(ValueError, match="shape"):
        ml.Board.grid(3, 3, locked=np.zeros((2, 2), bool))
    with pytest.raises(ValueError, match="off the board"):
        ml.Board.grid(3, 3, holes=[(3, 0)])


def test_wrong_state_shapes():
    b = ml.Board.grid(3, 3)
    s = ml.Solver(b)
    with pytest.raises(ValueError, match=r"shape \(3, 3\)"):
        s.solve(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="shape"):
        s.solvable(np.zeros(9))
    with pytest.raises(ValueError, match="shape"):
        s.solve_many(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="shape"):
        s.solve(np.zeros((3, 3)), target=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="integers"):
        s.solve(np.full((3, 3), 0.5))
    with pytest.raises(ValueError, match="integers"):
        s.solve(np.full((3, 3), "a"))


def test_tapping_locked_hole_offboard():
    b = ml.Board.grid(3, 3, locked=[(0, 0)], holes=[(2, 2)])
    z = np.zeros((3, 3))
    with pytest.raises(ValueError, match="locked"):
        b.press(z, (0, 0))
    with pytest.raises(ValueError, match="hole"):
        b.press(z, (2, 2))
    with pytest.raises(ValueError, match="off the board"):
        b.press(z, (3, 0))
    with pytest.raises(ValueError, match="off the board"):
        b.press(z, (-1, 0))
    with pytest.raises(ValueError):
        b.press(z, 4)
    g = ml.Board.from_effects([[0], [1]], 3)
    with pytest.raises(ValueError, match="out of range"):
        g.press(np.zeros(2), 2)


def test_graph_board_bad_effects():
    with pytest.raises(ValueError, match="out of range"):
        ml.Board.from_effects([[0, 5]], 2, n_cells=3)
    with pytest.raises(ValueError, match="ints"):
        ml.Board.from_effects([["a"]], 2)
    with pytest.raises(ValueError, match="out of range"):
        ml.Board.from_effects([[-1]], 2)


def test_solver_arguments():
    b = ml.Board.grid(2, 2)
    with pytest.raises(ValueError, match="backend"):
        ml.Solver(b, backend="gpu")
    with pytest.raises(ValueError, match="Board"):
        ml.Solver(np.eye(3))
    with pytest.raises(ValueError, match="budget"):
        ml.Solver(b).solve(np.zeros((2, 2)), budget="lots")


def test_det_inverse_need_square():
    s = ml.Solver(ml.Board.grid(2, 2, locked=[(0, 0)]))
    with pytest.raises(ValueError, match="square"):
        s.det()
    with pytest.raises(ValueError, match="square"):
        s.inverse()


def test_unsolvable_is_valueerror():
    b = ml.Board.grid(4, 4)
    s = ml.Solver(b)
    st = np.zeros((4, 4), np.uint8)
    st[0, 0] = 1  # a single light on 4x4 is unsolvable
    assert not s.solvable(st)
    with pytest.raises(ml.Unsolvable):
        s.solve(st)
    assert issubclass(ml.Unsolvable, ValueError)
