"""The reference backend's bounds (issue 31): ``Solver(board, backend="reference")``
refuses a board past REFERENCE_MAX_WORK at once with a message naming the native
engines, and its minimal search honours a budget of seconds (a deadline) and of coset
elements (what the native backend counts, which rounds up to its steps) on a kernel of
870 generators."""

from __future__ import annotations

import time

import numpy as np
import pytest

import modlights as ml
from big_certificates import kernel_board
from modlights.engines import registry
from modlights.engines.reference import REFERENCE_MAX_WORK, reference_reason, reference_work


def test_the_work_counts_every_prime_power():
    assert reference_work(500, 500, 2) == reference_work(500, 500, 3) == REFERENCE_MAX_WORK
    assert reference_work(500, 500, 6) == 2 * REFERENCE_MAX_WORK  # two prime powers
    assert reference_work(500, 500, 16) == 7 * REFERENCE_MAX_WORK // 4  # 2^4
    assert reference_work(30, 900, 2) == reference_work(900, 30, 2) == 30 * 900**2
    assert reference_reason(500, 500, 2) is None
    assert reference_reason(0, 10**6, 2) is None  # nothing to eliminate


@pytest.mark.parametrize(
    "board",
    [
        ml.Board.grid(1, 501, pattern="horizontal"),  # 501^3: just past
        ml.Board.grid(20, 20, states=6),  # 400^3 x 2 prime powers
        ml.Board.grid(31, 30),  # 930 tiles: about a minute before the bound
    ],
    ids=["501 taps", "20x20 mod 6", "31x30"],
)
def test_a_board_past_the_bound_is_refused_at_once(board):
    t0 = time.perf_counter()
    with pytest.raises(ValueError) as e:
        ml.Solver(board, backend="reference")
    assert time.perf_counter() - t0 < 0.5
    msg = str(e.value)
    assert "REFERENCE_MAX_WORK" in msg and "backend='native'" in msg, msg
    assert f"{board.n_cells} x {board.n_taps}" in msg
    # the native backend takes it, and method="reference" on it is refused the same way
    assert ml.Solver(board).kernel_size >= 1
    with pytest.raises(ValueError, match="backend='native'"):
        ml.Solver(board, method="reference")
    assert "REFERENCE_MAX_WORK" in registry.entries()["reference"].covers(board)


def test_a_board_at_the_bound_is_taken():
    board = ml.Board.grid(1, 500, pattern="horizontal")
    assert reference_work(board.n_cells, board.n_taps, 2) == REFERENCE_MAX_WORK
    assert registry.choose(board, backend="reference").engine == "reference"
    small = ml.Board.grid(12, 12, states=4)
    ref, native = ml.Solver(small, backend="reference"), ml.Solver(small)
    state = small.random_state(rng=5)
    assert ref.kernel_size == native.kernel_size
    assert ref.solve(state).length == native.solve(state).length


@pytest.fixture(scope="module")
def wide():
    """30 cells, 900 taps: 870 kernel generators (a 2^870 coset)."""
    board = kernel_board(870, 30)
    solver = ml.Solver(board, backend="reference")
    assert solver.nullity == 870
    return board, solver


def test_a_budget_of_seconds_is_a_deadline(wide):
    """Before: 36 s for budget=0.5 (the NumPy canonical basis of 870 generators took
    23 s, one chunk of the enumeration 13 s)."""
    board, solver = wide
    state = board.random_state(rng=1)
    t0, c0 = time.perf_counter(), time.process_time()
    sol = solver.solve(state, budget=0.5)
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert cpu < 1.5 and took < 3.0, (cpu, took)  # 0.5 s + 10% or 0.25 s, machine load
    assert not sol.proven_minimal
    assert not board.apply(state, sol.taps).any()


def test_a_budget_of_elements_is_a_count_of_coset_elements(wide):
    board, solver = wide
    state = board.random_state(rng=2)
    native = ml.Solver(board)
    for budget in (1, 1000, 20_000):
        t0 = time.process_time()
        ref = solver.solve(state, budget=budget)
        assert time.process_time() - t0 < 2.0
        nat = native.solve(state, budget=budget)
        # native walks whole steps of its Gray code or transform (2 at least, 1024 later)
        assert ref.examined == budget <= nat.examined <= max(2, budget + 1024)
        assert not ref.proven_minimal and not nat.proven_minimal
        assert not board.apply(state, ref.taps).any()


def test_the_default_budget_is_about_a_second(wide):
    """2^20 elements of 900 taps took 15 s; a coset past the default count (2^26
    entries' worth here) is searched for the default second, a deadline, as on the
    native backend."""
    board, solver = wide
    assert solver._default_count == (1 << 26) // board.n_taps
    state = board.random_state(rng=3)
    t0 = time.perf_counter()
    sol = solver.solve(state)
    assert time.perf_counter() - t0 < 1.0 + 2.0  # the deadline and its clean-up margin
    assert sol.examined > 0 and not sol.proven_minimal


def test_the_enumeration_order_is_unchanged():
    """The block-by-block enumeration examines the same elements in the same order as
    one element at a time: the same least element within every budget."""
    from modlights.search.minimal import Kernel, minimise

    rng = np.random.default_rng(4)
    for n, orders in [(2, [2] * 9), (6, [6, 3, 2, 6]), (4, [4, 2, 4, 4, 2])]:
        r = 11
        H = rng.integers(0, n, size=(len(orders), r))
        H = (H * np.array([n // o for o in orders])[:, None]) % n  # order o_i
        x0 = rng.integers(0, n, size=r)
        gens = (H, orders)
        kernel = Kernel(n, r, int(np.prod(orders)), generators=lambda g=gens: g)
        elements = []
        for i in range(int(np.prod(orders))):
            c, rest = [], i
            for o in orders:
                c.append(rest % o)
                rest //= o
            elements.append((x0 + np.array(c) @ H) % n)
        for steps in (1, 7, 64, 300, 10**6):
            best, proven, examined, _ = minimise(x0.astype(np.uint8), kernel, steps, None)
            seen = elements[:steps]
            want = min(seen, key=lambda v: int(v.sum()))
            assert examined == len(seen)
            assert int(best.sum()) <= int(want.sum())  # the clean-up may only improve
            if len(seen) == len(elements):
                assert proven and np.array_equal(best, want)
