"""Board geometry: patterns, locks, holes, wrap, mixed, graph boards, press/apply."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import modlights as ml
from strategies import boards


def naive_effect(b: ml.Board, pos) -> np.ndarray:
    """The change a tap at pos makes, straight from the definition."""
    rows, cols = b.shape
    r, c = pos
    out = np.zeros((rows, cols), dtype=np.int64)
    for dr, dc in b.offsets_at(r, c):
        rr, cc = r + dr, c + dc
        if b.wrap:
            rr, cc = rr % rows, cc % cols
        elif not (0 <= rr < rows and 0 <= cc < cols):
            continue
        if not b.holes[rr, cc]:
            out[rr, cc] += 1
    return out % b.states


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=boards)
def test_matrix_columns_are_tap_effects(b):
    A = b.matrix()
    assert A.shape == (b.n_cells, b.n_taps) and A.dtype == np.uint8
    zero = np.zeros(b.shape, dtype=np.uint8)
    for j, pos in enumerate(b.taps):
        pressed = b.press(zero, pos)
        assert np.array_equal(b.cell_vector(pressed), A[:, j])
        if b.is_grid:
            assert np.array_equal(pressed, naive_effect(b, pos))
        else:
            want = np.zeros(b.shape, dtype=np.int64)
            for c in b.effects[j]:
                want[c] += 1
            assert np.array_equal(pressed, want % b.states)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=boards)
def test_apply_is_sum_of_presses(b):
    rng = np.random.default_rng(7)
    state = b.random_state(rng=rng, solvable=False)
    taps = np.zeros(b.shape if b.is_grid else (b.n_taps,), dtype=np.int64)
    expect = state.copy()
    for pos in b.taps:
        k = int(rng.integers(0, 2 * b.states))
        taps[pos] = k
        expect = b.press(expect, pos, times=k)
    got = b.apply(state, taps)
    assert got.dtype == np.uint8
    assert np.array_equal(got, expect)
    assert np.array_equal(state, b.apply(got, (-taps) % b.states))


def test_named_patterns():
    assert ml.PATTERNS["cross"] == ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))
    assert set(ml.PATTERNS) == {"cross", "diagonal", "square", "horizontal", "vertical", "knight"}
    assert len(ml.PATTERNS["square"]) == 9 and len(ml.PATTERNS["knight"]) == 9
    b = ml.Board.grid(5, 5, pattern="knight")
    eff = b.press(np.zeros((5, 5)), (2, 2))
    assert int(eff.sum()) == 9 and eff[0, 1] == 1 and eff[1, 1] == 0


def test_offsets_without_centre_leave_tapped_tile():
    b = ml.Board.grid(3, 3, states=3, pattern=[(-1, 0), (1, 0)])
    eff = b.press(np.zeros((3, 3)), (1, 1))
    assert eff[1, 1] == 0 and eff[0, 1] == 1 and eff[2, 1] == 1


def test_wrap_double_advance():
    # On a 1x2 torus the left and right neighbours of a tile are the same tile.
    b = ml.Board.grid(1, 2, states=5, pattern="horizontal", wrap=True)
    assert np.array_equal(b.press(np.zeros((1, 2)), (0, 0)), [[1, 2]])
    assert b.matrix().tolist() == [[1, 2], [2, 1]]


def test_holes_and_locks():
    holes = np.zeros((3, 3), bool)
    holes[0, 0] = True
    b = ml.Board.grid(3, 3, locked=[(1, 1)], holes=holes)
    assert b.n_cells == 8 and b.n_taps == 7
    assert (0, 0) not in b.cells and (1, 1) in b.cells and (1, 1) not in b.taps
    eff = b.press(np.zeros((3, 3)), (0, 1))
    assert eff[0, 0] == 0 and eff[1, 1] == 1
    with pytest.raises(ValueError, match="locked"):
        b.press(np.zeros((3, 3)), (1, 1))
    with pytest.raises(ValueError, match="hole"):
        b.press(np.zeros((3, 3)), (0, 0))
    taps = np.zeros((3, 3), int)
    taps[1, 1] = 1
    with pytest.raises(ValueError, match="locked"):
        b.apply(np.zeros((3, 3)), taps)
    # values at holes are ignored on input and 0 on output
    st = np.ones((3, 3), int)
    assert b.apply(st, np.zeros((3, 3), int))[0, 0] == 0


def test_mixed_board():
    pat = [["cross", "horizontal"], [[(0, 0), (-1, 0)], "vertical"]]
    b = ml.Board.grid(2, 2, states=3, pattern=pat)
    z = np.zeros((2, 2))
    assert b.press(z, (0, 1)).tolist() == [[1, 1], [0, 0]]
    assert b.press(z, (1, 0)).tolist() == [[1, 0], [1, 0]]
    assert b.press(z, (1, 1)).tolist() == [[0, 1], [0, 1]]


def test_graph_board_before_and_after_cycle():
    # six cells in a cycle, each tap advances a cell and its two neighbours, 8 colours
    eff = [[(i - 1) % 6, i, (i + 1) % 6] for i in range(6)]
    b = ml.Board.from_effects(eff, 8)
    assert b.shape == (6,) and b.n_cells == 6 and b.n_taps == 6
    assert b.cells == list(range(6)) and b.taps == list(range(6))
    assert b.press(np.zeros(6), 0).tolist() == [1, 1, 0, 0, 0, 1]
    s = ml.Solver(b)
    st = b.random_state(rng=3)
    sol = s.solve(st)
    assert not b.apply(st, sol.taps).any()
    assert sol.taps.shape == (6,)


def test_repeated_cells_in_effects_advance_twice():
    b = ml.Board.from_effects([[0, 0, 1]], 5)
    assert b.matrix().tolist() == [[2], [1]]


def test_random_state_solvable_and_reproducible():
    b = ml.Board.grid(4, 4, states=2)         # nullity 4: not every state is solvable
    s = ml.Solver(b)
    for seed in range(20):
        st = b.random_state(rng=seed)
        assert s.solvable(st)
        assert np.array_equal(st, b.random_state(rng=seed))
    rng = np.random.default_rng(1)
    assert not all(s.solvable(b.random_state(rng=rng, solvable=False)) for _ in range(40))


def test_states_of_any_integer_dtype_are_reduced():
    b = ml.Board.grid(2, 2, states=3)
    for dt in (np.int8, np.int64, np.uint16, np.uint64, bool):
        st = np.array([[1, 2], [0, 1]]).astype(dt)
        out = b.apply(st, np.zeros((2, 2), dt))
        assert out.dtype == np.uint8
    assert b.apply(np.array([[-1, 4], [3, 0]]), np.zeros((2, 2), int)).tolist() == [[2, 1], [0, 0]]
    assert b.apply(np.array([[5, 0], [0, 0]], dtype=np.uint64), np.zeros((2, 2), int))[0, 0] == 2
