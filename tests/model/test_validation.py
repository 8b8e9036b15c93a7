"""Input validation (model/validation.py and its callers): integral floats and Python ints
beyond int64 reduce exactly, non-integral values, infinities and huge numbers are
ValueErrors, iterators are read once (and endless ones refused), bad seeds are refused.
Expected values come from Python integers and the reference engine."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

import modlights as ml
from modlights.model.validation import as_int, as_int_array


# ---------------------------------------------------------------- floats and big ints
@pytest.mark.parametrize("n", [2, 3, 4, 7, 255])
@pytest.mark.parametrize("value", [1e19, -1e19, 2.0**63, 2.0**64 + 2**12, 1e300, 12345.0])
def test_huge_integral_floats_reduce_exactly(n, value):
    exact = int(value) % n  # Python ints: exact
    b = ml.Board.from_matrix([[value]], n)
    assert int(b.matrix()[0, 0]) == exact
    g = ml.Board.grid(2, 2, n)
    state = np.full((2, 2), value)
    assert (g.coerce_state(state) == exact).all()
    s = ml.Solver(g)
    if s.solvable(state):
        sol = s.solve(state)
        assert not g.apply(np.full((2, 2), exact), sol.taps).any()
    # the reference engine agrees
    r = ml.Solver(g, backend="reference")
    assert r.solvable(state) == s.solvable(state)


def test_float_1e19_in_a_state_and_a_matrix_reduces_exactly():
    b = ml.Board.grid(2, 2, 7)
    sol = ml.Solver(b).solve(np.full((2, 2), 1e19))
    assert not b.apply(np.full((2, 2), 10**19 % 7), sol.taps).any()
    assert ml.Board.from_matrix([[1e19]], 7).matrix()[0, 0] == 3


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 0.5, 1e19 + 0.5j])
def test_non_integral_values_are_a_value_error(bad):
    with pytest.raises(ValueError, match="integer"):
        ml.Board.from_matrix([[1, bad]], 5)
    with pytest.raises(ValueError, match="integer"):
        ml.Solver(ml.Board.grid(1, 2, 5)).solve([[1, bad]])


def test_python_ints_beyond_int64_are_exact():
    big = 10**30 + 1
    b = ml.Board.grid(1, 2, 7)
    assert b.coerce_state([[big, -big]]).tolist() == [[big % 7, -big % 7]]
    s = ml.Solver(b)
    states = [[[big, big]], [[big, 0]], [[0, 0]]]
    lengths, _ = s.min_taps_many(states)
    reduced = np.array([[[big % 7, big % 7]], [[big % 7, 0]], [[0, 0]]])
    assert lengths.tolist() == s.min_taps_many(reduced)[0].tolist()
    assert lengths[0] > 0 and lengths[1] == -1 and lengths[2] == 0


def test_as_int_and_as_int_array_share_one_path():
    assert as_int(3.0, "x") == 3 and as_int(np.int8(-3), "x") == -3
    assert as_int(1e19, "x") == 10**19
    for bad in (True, "3", None, 2.5, float("inf"), float("nan"), [1]):
        with pytest.raises(ValueError, match="x must be"):
            as_int(bad, "x")
    with pytest.raises(ValueError, match="from 2 to 255"):
        as_int(300, "x", 2, 255)
    with pytest.raises(ValueError, match="x must be an int"):
        as_int(3.0, "x", floats=False)
    a = as_int_array([[1e19, 2.0]], "a")
    assert a.dtype == object and a.tolist() == [[10**19, 2]]
    assert as_int_array([1.0, 2.0], "a").dtype == np.int64


# ---------------------------------------------------------------- iterators
def test_locked_and_holes_from_iterators_keep_every_position():
    b = ml.Board.grid(3, 3, locked=iter([(1, 1), (2, 2)]), holes=((0, c) for c in range(2)))
    assert sorted(map(tuple, np.argwhere(b.locked))) == [(1, 1), (2, 2)]
    assert sorted(map(tuple, np.argwhere(b.holes))) == [(0, 0), (0, 1)]
    ref = ml.Board.grid(3, 3, locked=[(1, 1), (2, 2)], holes=[(0, 0), (0, 1)])
    assert b == ref


def test_pattern_from_a_generator():
    offs = [(0, 0), (0, 1), (1, 0)]
    b = ml.Board.grid(3, 3, 3, (o for o in offs))
    assert b == ml.Board.grid(3, 3, 3, offs)
    # offsets themselves as iterators, and a mixed map of generators
    b2 = ml.Board.grid(2, 2, 3, [iter(o) for o in offs])
    assert b2.pattern == tuple(offs)
    mixed = (
        (iter(["cross", "horizontal"]) if r == 0 else ["vertical", "square"]) for r in range(2)
    )
    m = ml.Board.grid(2, 2, 3, mixed)
    assert m == ml.Board.grid(2, 2, 3, [["cross", "horizontal"], ["vertical", "square"]])


def test_positions_and_effects_from_iterators():
    b = ml.Board.grid(3, 3)
    s0 = np.zeros((3, 3), int)
    assert (b.press(s0, iter((1, 2))) == b.press(s0, (1, 2))).all()
    g = ml.Board.from_effects((iter([i, (i + 1) % 4]) for i in range(4)), 3)
    assert g == ml.Board.from_effects([[i, (i + 1) % 4] for i in range(4)], 3)


def test_endless_iterators_are_refused_not_read_forever():
    t = time.perf_counter()
    with pytest.raises(ValueError, match="more than"):
        ml.Board.grid(3, 3, locked=itertools.repeat((0, 0)))
    with pytest.raises(ValueError, match="more than"):
        ml.Board.grid(3, 3, pattern=itertools.repeat((0, 0)))
    assert time.perf_counter() - t < 2


def test_state_iterators_are_a_clear_error():
    with pytest.raises(ValueError, match="iterator"):
        ml.Board.grid(1, 2).coerce_state(iter([[0, 1]]))


# ---------------------------------------------------------------- infinities and huge numbers
@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan"), 1e300, 10**30])
def test_inf_and_huge_numbers_in_offsets_and_positions_are_value_errors(bad):
    with pytest.raises(ValueError):
        ml.Board.grid(3, 3, pattern=[(bad, 0)])
    with pytest.raises(ValueError):
        ml.Board.grid(3, 3, locked=[(0, bad)])
    with pytest.raises(ValueError):
        ml.Board.grid(3, 3, holes=[(bad, bad)])
    b = ml.Board.grid(3, 3)
    with pytest.raises(ValueError):
        b.press(np.zeros((3, 3), int), (bad, 0))
    with pytest.raises(ValueError):
        ml.Game(ml.Puzzle(b, np.eye(3, dtype=int))).tap((0, bad))


@pytest.mark.parametrize("cell", [2**27, 2**63, 10**30, -1])
def test_huge_cell_indices_in_effects_are_value_errors(cell):
    with pytest.raises(ValueError, match="too large|out of range"):
        ml.Board.from_effects([[0], [cell]], 3)
    with pytest.raises(ValueError, match="out of range"):
        ml.Board.from_effects([[cell]], 3, n_cells=4)


@pytest.mark.parametrize("rng", [float("inf"), 1e19, "x", -1, 2.5])
def test_bad_random_state_seeds_are_value_errors(rng):
    with pytest.raises(ValueError, match="rng"):
        ml.Board.grid(3, 3).random_state(rng=rng)
