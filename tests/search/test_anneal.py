"""The local search (search/anneal.py) and its use in hardest(): the incremental coset
weights stay exact, the walk is deterministic given its seed, its boards are proved by
the coset search before they count, and its incumbent meets every row of the program."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from test_hardest import check_against_brute

import modlights as ml
from modlights.search import hardest as hardest_module
from modlights.search.anneal import Annealer
from modlights.search.lpbound import KernelElements
from modlights.search.minimal import coset_minimum
from strategies import graph_boards, grid_boards
from suite_groups import sample


def elements_of(board: ml.Board) -> tuple[KernelElements, ml.Solver]:
    s = ml.Solver(board)
    H, orders = s._generators()
    return KernelElements.build(H, orders, board.states, board.n_taps), s


def weights(x: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    return ((x.astype(np.int64)[None, :] + values.astype(np.int64)) % n).sum(axis=1)


@pytest.mark.parametrize(
    "board",
    [
        ml.Board.grid(9, 9),
        ml.Board.grid(4, 4, 4),
        ml.Board.grid(5, 5, 3, wrap=True),
        ml.Board.grid(4, 6, 6, "square"),
    ],
    ids=repr,
)
def test_incremental_weights_stay_exact(board):
    E, _ = elements_of(board)
    n = board.states
    walk = Annealer(E.values, n, seed=3)
    walk.start()
    for _ in range(3):
        x, best = walk.run(500)
        assert (walk.W == weights(walk.x, E.values, n)).all()
        assert best == int(weights(x, E.values, n).min())


def test_same_seed_same_walk():
    E, _ = elements_of(ml.Board.grid(9, 9))
    runs = []
    for seed in (5, 5, 6):
        walk = Annealer(E.values, 2, seed=seed)
        walk.start()
        runs.append(walk.run(2000))
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1]
    assert not np.array_equal(runs[0][0], runs[2][0])


def test_objective_over_the_whole_kernel_is_the_fewest_taps():
    board = ml.Board.grid(9, 9)
    E, s = elements_of(board)
    walk = Annealer(E.values, 2, seed=1)
    walk.start()
    x, best = walk.run(3000)
    y, proven, _, _ = coset_minimum(
        x, s._kernel(), steps=s.kernel_size, seconds=None, deadline=None
    )
    assert proven and int(y.sum()) == best
    # and it climbs well above a random board's (and stays below the true value)
    walk2 = Annealer(E.values, 2, seed=1)
    walk2.start()
    start_value = int(walk2.W.min())
    assert start_value < best <= 37 + 0  # 9 x 9: the hardest value is 37


def test_untouched_taps_are_set_to_n_minus_1_and_never_move():
    board = ml.Board.grid(5, 5, 3)
    E, _ = elements_of(board)
    walk = Annealer(E.values, 3, seed=0)
    walk.start()
    x, _ = walk.run(300)
    untouched = ~E.values.any(axis=0)
    assert untouched.any() and (x[untouched] == 2).all()


def test_deadline_stops_the_walk():
    E, _ = elements_of(ml.Board.grid(19, 19))
    walk = Annealer(E.values, 2, seed=0)
    walk.start()
    t = time.perf_counter()
    walk.run(10**9, deadline=time.perf_counter() + 0.2)
    assert time.perf_counter() - t < 1.5


def test_sampled_elements_grow_with_minimisers():
    E, _ = elements_of(ml.Board.grid(6, 6, 2))
    walk = Annealer(E.values[:3], 2, seed=0)
    walk.start()
    walk.add_elements(E.values[3:])
    assert walk.m == len(E) and (walk.W == weights(walk.x, E.values, 2)).all()


# ----------------------------------------------------------------------------- in hardest()
def anneal_always(monkeypatch):
    """Every kernel counts as large: the local search runs, then the program."""
    monkeypatch.setattr(hardest_module, "FULL_KERNEL_MAX", 0)
    monkeypatch.setattr(hardest_module, "ANNEAL_MOVES_PER_TAP", 30)


@pytest.mark.parametrize(
    "board",
    sample(
        [
            ml.Board.grid(4, 4),
            ml.Board.grid(2, 3, 4, "square"),
            ml.Board.grid(2, 3, 6, "cross"),
            ml.Board.grid(4, 4, 2, "diagonal"),
            ml.Board.grid(3, 3, 4, "cross", wrap=True),
            ml.Board.grid(4, 3, 2, "square", holes=[(2, 0)], locked=[(3, 0)]),
            ml.Board.from_effects([[0, 1], [0, 1], [0, 1], [2]], 4),
        ],
        3,
        ids=repr,
    ),
)
def test_hardest_with_local_search_matches_brute_force(board, monkeypatch):
    anneal_always(monkeypatch)
    check_against_brute(board)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=grid_boards(max_brute=4096))
def test_random_boards_with_local_search(board):
    original = (hardest_module.FULL_KERNEL_MAX, hardest_module.ANNEAL_MOVES_PER_TAP)
    hardest_module.FULL_KERNEL_MAX, hardest_module.ANNEAL_MOVES_PER_TAP = 0, 20
    try:
        check_against_brute(board)
    finally:
        hardest_module.FULL_KERNEL_MAX, hardest_module.ANNEAL_MOVES_PER_TAP = original


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=graph_boards(max_brute=4096))
def test_random_graph_boards_with_local_search(board):
    original = (hardest_module.FULL_KERNEL_MAX, hardest_module.ANNEAL_MOVES_PER_TAP)
    hardest_module.FULL_KERNEL_MAX, hardest_module.ANNEAL_MOVES_PER_TAP = 0, 20
    try:
        check_against_brute(board)
    finally:
        hardest_module.FULL_KERNEL_MAX, hardest_module.ANNEAL_MOVES_PER_TAP = original


def rows_of(program) -> list[tuple[float, float, dict[int, float]]]:
    """The program's rows (lower, upper, {column: coefficient}) from its operations."""
    out = []
    for op in program._ops:
        if op[0] != "rows":
            continue
        _, lower, upper, starts, idx, vals = op
        ends = list(starts[1:]) + [len(idx)]
        for lo, hi, a, b in zip(lower, upper, starts, ends):
            out.append((lo, hi, dict(zip(idx[a:b].tolist(), vals[a:b].tolist()))))
    return out


@pytest.mark.parametrize(
    "board",
    [
        ml.Board.grid(9, 9),
        ml.Board.grid(4, 4, 2, "diagonal"),
        ml.Board.grid(2, 3, 4, "square"),
        ml.Board.grid(3, 3, 4, "cross", wrap=True),
        ml.Board.grid(4, 4, 3, "cross"),
        ml.Board.grid(4, 3, 2, "square", holes=[(2, 0)], locked=[(3, 0)]),
    ],
    ids=repr,
)
def test_incumbent_meets_every_row(board):
    """The incumbent handed to HiGHS (a board the walk found, moved to the element of
    its coset the program's pinning allows) is feasible for the program with every
    kernel element's row, and its value is its proved fewest taps."""
    s = ml.Solver(board)
    H, orders = s._generators()
    n, r = board.states, board.n_taps
    groups = hardest_module._TapGroups(np.asarray(H, dtype=np.uint8), r)
    gens = np.asarray(H, dtype=np.int64)[:, groups.rep] % n
    pinned = hardest_module.pinned_groups(gens, groups.sizes, n)
    E = KernelElements.build(H, orders, n, r)
    constant = (n - 1) * len(groups.fixed)
    program = hardest_module._CoveringProgram(groups, n, constant, pinned)
    program.add_cuts(
        np.array(
            list(hardest_module._kernel_on_groups(gens, orders, n, 0))
            or np.zeros((0, len(groups)), dtype=np.int64)
        )
    )
    rng = np.random.default_rng(0)
    for _ in range(5):
        x = rng.integers(0, n, r).astype(np.uint8)
        x[groups.fixed] = n - 1
        value = int(weights(x, E.values, n).min())
        counts, v = hardest_module._incumbent(x, value, E, groups, pinned, n)
        assert v == value
        cols = np.append(counts.reshape(-1).astype(float), float(value - constant))
        op = program._ops[0]
        assert (cols >= op[2] - 1e-9).all() and (cols <= op[3] + 1e-9).all()
        for lo, hi, coef in rows_of(program):
            got = sum(c * cols[j] for j, c in coef.items())
            assert lo - 1e-9 <= got <= hi + 1e-9
    program.close()


# at 4.5 s: 5 s of real time, in the heavy group
@pytest.mark.parametrize("at", [1.0, pytest.param(4.5, marks=pytest.mark.heavy)])
def test_ctrl_c_stops_the_linear_program_and_the_walk(at):
    """23 x 23, budget 10 s: the program with pinned taps runs first (about 3 s), then
    the walk; Ctrl-C in either ends hardest() within a second, the Solver usable."""
    import _thread
    import threading

    s = ml.Solver(ml.Board.grid(23, 23))
    _ = s.kernel_size
    timer = threading.Timer(at, _thread.interrupt_main)
    t = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        s.hardest(budget=10)
        time.sleep(5)  # finished early: the interrupt lands here
    assert time.perf_counter() - t < at + 1.0
    assert s.solve(np.zeros((23, 23), dtype=np.uint8)).length == 0
