"""Minimal solutions against breadth-first search over physical taps.

From the start board, BFS applies one tap at a time (any tappable tile, once) until
the target is reached: the depth is the true fewest number of physical taps. The
minimal search over x0 + ker A must find exactly that many, for every n in 2..8,
with locks, holes, wrap and graph boards.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from strategies import graph_boards, grid_boards


def bfs_fewest_taps(board: ml.Board, state, target) -> int | None:
    n = board.states
    A = board.matrix().astype(np.int64)
    cells = board.cell_vector(board.coerce_state(state)).astype(np.int64)
    goal = board.cell_vector(board.coerce_target(target)).astype(np.int64)
    start, want = tuple(cells % n), tuple(goal % n)
    if start == want:
        return 0
    cols = [A[:, j] for j in range(A.shape[1])]
    seen = {start}
    frontier = deque([(start, 0)])
    limit = n ** len(start)
    while frontier:
        s, d = frontier.popleft()
        for c in cols:
            t = tuple((np.array(s) + c) % n)
            if t in seen:
                continue
            if t == want:
                return d + 1
            seen.add(t)
            frontier.append((t, d + 1))
        if len(seen) > limit:
            break
    return None


small_boards = st.one_of(grid_boards(max_brute=3000), graph_boards(max_brute=3000))


@pytest.mark.parametrize("backend", ["native", "reference"])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=small_boards, seed=st.integers(0, 2**32 - 1), target=st.sampled_from([0, 1]))
def test_minimal_equals_bfs(backend, b, seed, target):
    if b.states**b.n_cells > 20000:  # keep the BFS state space small
        return
    state = b.random_state(rng=seed, solvable=bool(seed % 3))
    s = ml.Solver(b, backend=backend)
    depth = bfs_fewest_taps(b, state, target)
    if depth is None:
        assert not s.solvable(state, target)
        return
    sol = s.solve(state, target)
    assert sol.proven_minimal
    assert sol.length == depth


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_minimal_equals_bfs_every_n(n):
    boards = [
        ml.Board.grid(2, 3, states=n, locked=[(0, 0)]),
        ml.Board.grid(2, 2, states=n, pattern="square", wrap=True),
        ml.Board.grid(2, 3, states=n, pattern="knight", holes=[(1, 2)]),
        ml.Board.from_effects([[0, 1], [1, 2], [2, 0], [0, 0, 2]], n),
    ]
    rng = np.random.default_rng(n)
    for b in boards:
        if n**b.n_cells > 50000:
            continue
        s = ml.Solver(b)
        for _ in range(4):
            state = b.random_state(rng=rng)
            assert s.solve(state).length == bfs_fewest_taps(b, state, 0)


@pytest.mark.parametrize("backend", ["native", "reference"])
def test_min_taps_many_matches_single_solves(backend):
    b = ml.Board.grid(3, 3, states=3, locked=[(0, 1)], holes=[(2, 2)])
    s = ml.Solver(b, backend=backend)
    rng = np.random.default_rng(9)
    states = np.stack([b.random_state(rng=rng, solvable=bool(i % 2)) for i in range(12)])
    lengths, proven = s.min_taps_many(states)
    for st_, ln, pr in zip(states, lengths, proven):
        if s.solvable(st_):
            sol = s.solve(st_)
            assert ln == sol.length == bfs_fewest_taps(b, st_, 0) and pr
        else:
            assert ln == -1 and pr
    sol = s.solve(states[1])
    assert sol.examined + sol.pruned >= 1 and sol.seconds >= 0
