"""The Solver facade: targets, budgets, backends and methods, progress callbacks, the
solution's dict; every answer checked with Board.apply or against the reference engine."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings

import modlights as ml
from jsonsafe import json_types_only, via_json
from modlights.model.validation import MAX_BUDGET, check_budget
from strategies import board_and_state


# ---------------------------------------------------------------- targets
def test_zero_d_array_targets_are_scalars():
    """A 0-d array target is its scalar (solve_packed refused it while an int worked)."""
    b = ml.Board.grid(6, 6, states=2, pattern="diagonal")
    s = ml.Solver(b)
    rng = np.random.default_rng(3)
    state = b.random_state(rng=rng, solvable=True)
    for t in (1, np.int64(1), np.array(1), np.array(1, dtype=np.uint8)):
        sol = s.solve(state, t, minimal=False)
        assert (b.apply(state, sol.taps) == 1).all()
        packed = s.solve_packed(np.packbits(state, axis=1), t)
        taps = np.unpackbits(packed, axis=1, count=6)
        assert (b.apply(state, taps) == 1).all()
    with pytest.raises(ValueError, match="bool"):
        s.solve(state, np.array(True), minimal=False)


# ---------------------------------------------------------------- budgets
@pytest.mark.parametrize("budget", [2**64, 2**200, np.uint64(2**64 - 1)])
def test_huge_budgets_mean_no_limit(budget):
    b = ml.Board.grid(5, 5)  # |ker A| = 4: the C search runs
    s = ml.Solver(b)
    state = b.random_state(rng=3)
    sol = s.solve(state, budget=budget)
    ref = ml.Solver(b, backend="reference").solve(state)
    assert sol.proven_minimal and sol.length == ref.length
    lengths, proven = s.min_taps_many(state[None], budget=budget)
    assert lengths[0] == ref.length and proven[0]
    assert check_budget(budget, 1) == (MAX_BUDGET, None)


def test_bad_budgets_are_value_errors():
    s = ml.Solver(ml.Board.grid(3, 3))
    for bad in (-1, -(2**70), float("nan"), -0.5, True, "10", [1]):
        with pytest.raises(ValueError, match="budget"):
            s.solve(np.zeros((3, 3), int), budget=bad)


# ---------------------------------------------------------------- backends and methods
def test_reference_backend_refuses_the_chase_method():
    b = ml.Board.grid(30, 30)
    with pytest.raises(ValueError, match="chase.*reference|reference.*chase"):
        ml.Solver(b, backend="reference", method="chase")
    assert ml.Solver(ml.Board.grid(6, 6), backend="reference").engine == "reference"


# ---------------------------------------------------------------- progress callbacks
class _Stop(Exception):
    pass


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_progress_reports_the_minimal_search(backend):
    b = ml.Board.grid(4, 4, 4)  # |ker A| = 256 over Z/4
    s = ml.Solver(b, backend=backend)
    calls = []
    state = b.random_state(rng=5)
    sol = s.solve(state, progress=lambda done, total: calls.append((done, total)))
    total = s.kernel_size
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert all(t == total for _, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert (
        sol == ml.Solver(b, backend="reference").solve(state)
        or sol.length == ml.Solver(b, backend="reference").solve(state).length
    )


def test_progress_can_stop_a_python_search_and_the_solver_stays_usable():
    b = ml.Board.grid(8, 8, 3)  # |ker A| = 81
    s = ml.Solver(b, backend="reference")
    assert s.kernel_size > 1
    state = b.random_state(rng=2)
    seen = []

    def stop(done, total):
        seen.append(done)
        if done > 0:
            raise _Stop

    with pytest.raises(_Stop):
        s.solve(state, progress=stop)
    sol = s.solve(state)
    assert not b.apply(state, sol.taps).any() and sol.proven_minimal


def test_progress_of_min_taps_many_and_bad_callbacks():
    b = ml.Board.grid(4, 4)  # |ker A| = 16
    s = ml.Solver(b)
    states = np.stack([b.random_state(rng=i) for i in range(5)])
    calls = []
    s.min_taps_many(states, progress=lambda d, t: calls.append((d, t)))
    # one C call for the batch (the coset fits the budget): told once, at the end
    assert calls == [(5, 5)]
    calls.clear()
    s.min_taps_many(states, budget=2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(i, 5) for i in range(1, 6)]  # a partial search: board by board
    with pytest.raises(ValueError, match="progress"):
        s.solve(states[0], progress=3)


# ---------------------------------------------------------------- Solution.to_dict
@settings(max_examples=60, deadline=None)
@given(board_and_state(solvable=True))
def test_solution_dict_matches_the_solution(bst):
    b, state, target = bst
    assume(ml.Solver(b, backend="reference").solvable(state, target))
    sol = ml.Solver(b).solve(state, target)
    d = sol.to_dict()
    assert json_types_only(d) and via_json(d) == d
    assert list(d) == ["taps", "length", "proven_minimal", "moves", "kernel_size"]
    taps = np.array(d["taps"], dtype=np.int64)
    assert taps.shape == (b.shape if b.is_grid else (b.n_taps,))
    assert np.array_equal(taps, sol.taps.astype(np.int64))
    assert d["length"] == int(sol.taps.sum()) == len(d["moves"])
    assert d["proven_minimal"] is sol.proven_minimal
    assert d["kernel_size"] == ml.Solver(b, backend="reference").kernel_size
    # replaying the moves one tap at a time reaches the target
    s = b.coerce_state(state)
    for m in d["moves"]:
        s = b.press(s, tuple(m) if b.is_grid else m)
    assert np.array_equal(s, b.coerce_target(target))
    if b.is_grid:
        assert all(isinstance(m, list) and len(m) == 2 for m in d["moves"])
    else:
        assert all(type(m) is int for m in d["moves"])
