"""modlights.search.covering: the covering lower bound against brute force (every tap
vector of random tiny boards: every pattern, n 2..9, locks, holes, wrap, graph boards),
against the support bound (a feasible point of its linear program), and its "bounds"
certificates against both checkers."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from verify_certs import random_board

import modlights as ml
from modlights.native import _core
from modlights.search.covering import bounds_certificate, covering_bound


def brute_least(board: ml.Board, b: np.ndarray) -> tuple[int, int]:
    """(least sum, least support) over every tap vector y with A y = b."""
    A = board.matrix().astype(np.int64)
    n = board.states
    best = (10**9, 10**9)
    for y in itertools.product(range(n), repeat=board.n_taps):
        v = np.array(y, dtype=np.int64)
        if not ((A @ v - b) % n).any():
            best = (min(best[0], int(v.sum())), min(best[1], int(np.count_nonzero(v))))
    return best


def support_bound(board: ml.Board, b: np.ndarray) -> int:
    """ceil(cells to change / the most of them one tap changes): uniform weights."""
    A = board.matrix().astype(np.int64) % board.states
    live = b != 0
    if not live.any():
        return 0
    most = int((A[live] != 0).sum(axis=0).max()) if board.n_taps else 0
    return -(-int(live.sum()) // most) if most else 10**9


@pytest.mark.parametrize("seed", range(40))
def test_the_bound_is_at_most_the_least_support_and_at_least_the_uniform_one(seed):
    rng = np.random.default_rng(seed)
    board = random_board(rng, max_brute=3000)
    b = board.apply_vector(rng.integers(0, board.states, size=board.n_taps)).astype(np.int64)
    bound, D, w = covering_bound(board, b)
    least, support = brute_least(board, b)
    assert bound <= support <= least
    assert bound >= min(support_bound(board, b), support)
    # the weights are what the bound says: 0 off the changed cells, columns <= D
    A = board.matrix().astype(np.int64) % board.states
    assert not w[b == 0].any() and (w >= 0).all()
    assert ((A != 0).T.astype(np.int64) @ w <= D).all()
    assert bound == -(-int(w.sum()) // D)


def test_the_all_on_board_gets_more_than_the_uniform_bound_at_the_corners():
    """The linear program does better than uniform weights 1/5 on the all-on k x k
    cross: the corner and edge taps change 3 and 4 lights, so the cells near the edge
    can weigh more."""
    for k in (6, 10, 15):
        board = ml.Board.grid(k, k)
        bound, D, w = covering_bound(board, np.ones(k * k, dtype=np.int64))
        assert bound >= -(-(k * k) // 5)
        assert int(w.sum()) > (k * k) * D // 5  # strictly above the uniform weights


@pytest.mark.parametrize(
    "board",
    [
        ml.Board.grid(5, 5),
        ml.Board.grid(4, 6, states=3, pattern="knight", wrap=True),
        ml.Board.grid(5, 4, states=8, pattern="square", holes=[(1, 1)], locked=[(0, 2)]),
        ml.Board.grid(3, 7, states=251, pattern="diagonal"),
        ml.Board.from_effects([[0, 0, 1], [1, 2], [0, 2], [1]], 3),
    ],
    ids=repr,
)
def test_bounds_certificates_hold_for_both_checkers_and_refuse_a_higher_lower(board):
    state = board.random_state(rng=4)
    sol = ml.Solver(board).solve(state)
    cert = bounds_certificate(board, sol.taps)
    assert cert["upper"] == sol.length and cert["lower"] <= sol.length
    text = json.dumps(cert)
    assert ml.verify(json.loads(text)) is True
    ok, summary = _core.verify_json(text)
    assert ok and summary == ml.search.verify.summary(json.loads(text))
    if cert["lower"] < cert["upper"]:
        higher = {**cert, "lower": cert["lower"] + 1}
        with pytest.raises(ValueError, match="exceeds the covering bound"):
            ml.verify(higher)
        assert _core.verify_json(json.dumps(higher))[0] is False


def test_bad_input_is_a_value_error():
    board = ml.Board.grid(3, 3, states=3)
    with pytest.raises(ValueError, match="rhs must have 9 entries in 0..2"):
        covering_bound(board, np.zeros(8, dtype=np.int64))
    with pytest.raises(ValueError, match="rhs must have 9 entries in 0..2"):
        covering_bound(board, np.full(9, 3))
    with pytest.raises(ValueError, match="shape"):
        bounds_certificate(board, np.zeros((2, 2), dtype=np.int64))
    assert covering_bound(board, np.zeros(9, dtype=np.int64))[0] == 0


def test_a_covering_witness_raises_the_hardest_lower_bound_only_when_it_is_higher():
    from modlights.search.covering import covering_witness

    board = ml.Board.grid(5, 5)
    h = json.loads(json.dumps(ml.Solver(board).hardest().certificate()))
    on = ml.Solver(board).solve(np.ones((5, 5), dtype=np.int64), minimal=False).taps
    assert covering_witness(h, board, on) is h  # 15 (proved) beats the covering bound
    low = covering_witness({**h, "lower": 0}, board, on)
    assert 0 < low["lower"] <= h["lower"] and "lower_bound" in low["witness"]
    assert ml.verify(low) and _core.verify_json(json.dumps(low))[0]
    with pytest.raises(ValueError, match="hardest certificate of this board"):
        covering_witness(h, ml.Board.grid(4, 4), np.zeros((4, 4), dtype=np.int64))
