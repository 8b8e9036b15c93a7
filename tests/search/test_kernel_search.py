"""modlights.search.minimal on what the Solver hands it (a Kernel and a particular
solution), without a Solver: the least length of x0 + ker A by the NumPy enumeration
against brute force over every tap vector, and the C solver's (a native Solver's solve
and batch) against the same brute force."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

import modlights as ml
from modlights.engines.reference import ReferenceEngine
from modlights.search.minimal import (
    Kernel,
    coset_minimum,
    deadline_after,
    descend,
    minimise,
)

BOARDS = [
    ml.Board.grid(4, 4),
    ml.Board.grid(3, 3, 3, "cross"),
    ml.Board.grid(2, 3, 4, "cross"),
    ml.Board.grid(2, 3, 6, "square"),
    ml.Board.grid(3, 3, 2, "square", wrap=True),
    ml.Board.from_effects([[0, 0, 1], [1, 2], [0, 2], [1]], 3),
]


def kernel_of(board: ml.Board) -> Kernel:
    eng = ReferenceEngine(board.matrix(), board.states)
    return Kernel(board.states, board.n_taps, eng.kernel_size, generators=eng.generators)


def brute_least(board: ml.Board, x0: np.ndarray) -> int:
    """The least sum over every tap vector y with A y = A x0."""
    A = board.matrix().astype(np.int64)
    n = board.states
    target = A @ x0 % n
    return min(
        sum(y)
        for y in itertools.product(range(n), repeat=board.n_taps)
        if not ((A @ np.array(y) - target) % n).any()
    )


#: the boards whose brute force enumerates 2^16 and 6^6 tap vectors (1-3 CPU s a case):
#: in the matrix group
BRUTE_HEAVY = (BOARDS[0], BOARDS[3])


def _params(boards):
    return [
        pytest.param(b, id=repr(b), marks=pytest.mark.matrix if b in BRUTE_HEAVY else ())
        for b in boards
    ]


def _state_of(board: ml.Board, x: np.ndarray) -> np.ndarray:
    """The state that the taps x take to all zeros (-A x), board-shaped."""
    A = board.matrix().astype(np.int64)
    cells = (-(A @ x.astype(np.int64))) % board.states
    if not board.is_grid:
        return cells
    out = np.zeros(board.shape, dtype=np.int64)
    for (r, c), v in zip(board.cells, cells):
        out[r, c] = v
    return out


@pytest.mark.parametrize("board", _params(BOARDS))
def test_coset_minimum_is_the_least_length(board):
    """The NumPy enumeration (coset_minimum) and the C solver (a native Solver's
    solve) both give the least length, proved, against brute force."""
    kernel = kernel_of(board)
    s = ml.Solver(board)
    rng = np.random.default_rng(board.n_taps)
    A = board.matrix().astype(np.int64)
    for _ in range(3):
        x0 = rng.integers(0, board.states, board.n_taps).astype(np.uint8)
        best, proven, examined, _ = coset_minimum(
            x0, kernel, steps=1 << 20, seconds=None, deadline=None
        )
        assert proven and examined >= 1
        assert not ((A @ best.astype(np.int64) - A @ x0.astype(np.int64)) % board.states).any()
        least = brute_least(board, x0.astype(np.int64))
        assert int(best.sum()) == least
        sol = s.solve(_state_of(board, x0), budget=1 << 20)
        assert sol.proven_minimal and sol.length == least


@pytest.mark.parametrize("board", _params(BOARDS[:4]))
def test_c_batch_equals_brute_force(board):
    """The C solver's batches (min_taps_many, solve_many(minimal=True): one C call over
    the batch, the kernel shared) give every board's least length."""
    s = ml.Solver(board)
    rng = np.random.default_rng(7)
    X = rng.integers(0, board.states, (5, board.n_taps)).astype(np.uint8)
    states = np.stack([_state_of(board, x) for x in X])
    lengths, proven = s.min_taps_many(states, budget=1 << 20)
    taps = s.solve_many(states, minimal=True, budget=1 << 20)
    for x, length, t in zip(X, lengths, taps):
        assert length == int(t.sum()) == brute_least(board, x.astype(np.int64))
    assert proven.all()


def test_no_budget_descends_greedily_and_proves_nothing_unless_zero():
    board = ml.Board.grid(4, 4)
    kernel = kernel_of(board)
    x0 = np.ones(board.n_taps, np.uint8)
    best, proven, examined, _ = minimise(x0, kernel, 0, None)
    assert examined == 0 and not proven and best.sum() <= x0.sum()
    H, orders = kernel.generators()
    assert (descend(x0.astype(np.int64), H, orders, 2) == best).all()


def test_unsearchable_kernel_returns_the_start_unproved():
    board = ml.Board.grid(4, 4)
    eng = ReferenceEngine(board.matrix(), 2)
    kernel = Kernel(
        2,
        board.n_taps,
        eng.kernel_size,
        generators=eng.generators,
        searchable=lambda: False,
    )
    x0 = np.ones(board.n_taps, np.uint8)
    best, proven, examined, _ = minimise(x0, kernel, 1 << 20, deadline_after(1.0))
    assert (best == x0).all() and not proven and examined == 0


def _descend_oracle(x, H, orders, n):
    """The greedy descent written out in NumPy (the algorithm's definition)."""
    cur = np.asarray(x, dtype=np.int64).copy()
    cur_len = int(cur.sum())
    improved = True
    while improved:
        improved = False
        for h, o in zip(H, orders):
            cands = (cur[None, :] + np.arange(1, o)[:, None] * h.astype(np.int64)[None, :]) % n
            lens = cands.sum(axis=1)
            i = int(np.argmin(lens))
            if lens[i] < cur_len:
                cur, cur_len, improved = cands[i], int(lens[i]), True
    return cur


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 16, 251])
def test_descend_is_the_greedy_descent_and_stops_at_its_deadline(n):
    """descend (the C library's, csrc/search/driver.c) equals the NumPy definition on
    random canonical generators of every kind of n; its answer is a local minimum of the
    coset; a deadline already past returns the start unchanged."""
    from modlights.search.canon import basis

    rng = np.random.default_rng(n)
    for _ in range(12):
        L = int(rng.integers(1, 40))
        G = rng.integers(0, n, size=(int(rng.integers(0, 6)), L))
        H, orders = basis(G, n)
        x = rng.integers(0, n, size=L)
        got = descend(x, H, orders, n)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, _descend_oracle(x, H, orders, n))
        for h, o in zip(H, orders):  # no single multiple of a generator shortens it
            for c in range(1, o):
                assert ((got + c * h.astype(np.int64)) % n).sum() >= got.sum()
        np.testing.assert_array_equal(descend(x, H, orders, n, time.perf_counter() - 1), x)


def test_descend_refuses_orders_past_n():
    """An order outside 1..n is refused before any work (a negative one would otherwise
    wrap to 2^32 - 1 multiples)."""
    with pytest.raises(ValueError, match="orders must be ints from 1 to n = 2"):
        descend(np.array([0, 1]), np.array([[1, 1]], np.uint8), [-1], 2)
    with pytest.raises(ValueError, match="orders must be ints from 1 to n = 2"):
        descend(np.array([0, 1]), np.array([[1, 1]], np.uint8), [3], 2)
