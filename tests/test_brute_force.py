"""The Solver against brute force on random small boards (every pattern, n = 2..8,
locks, holes, wrap, mixed, graph boards, targets 0 / 1 / array)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import modlights as ml
from oracle import BruteForce
from strategies import board_and_state, rhs_vector

BACKENDS = ["reference", "native"]
SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def independent_apply(b: ml.Board, state, taps) -> np.ndarray:
    """state + A taps computed from the dense matrix (not through Board.apply)."""
    A = b.matrix().astype(np.int64)
    x = np.asarray(taps, dtype=np.int64).reshape(-1)
    if b.is_grid:
        x = x[[p[0] * b.shape[1] + p[1] for p in b.taps]]
    v = A @ x if A.size else np.zeros(b.n_cells, dtype=np.int64)
    out = np.asarray(state, dtype=np.int64).copy().reshape(-1)
    idx = [p if isinstance(p, int) else p[0] * b.shape[1] + p[1] for p in b.cells]
    out[idx] = (out[idx] + v) % b.states
    return out.reshape(b.shape)


def reaches(b, state, taps, target) -> bool:
    end = independent_apply(b, state, taps)
    t = np.full(b.shape, target) if np.isscalar(target) else np.asarray(target)
    idx = [p if isinstance(p, int) else p[0] * b.shape[1] + p[1] for p in b.cells]
    return np.array_equal(end.reshape(-1)[idx] % b.states, t.reshape(-1)[idx] % b.states)


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(case=board_and_state())
def test_solver_matches_brute_force(backend, case):
    b, state, target = case
    bf = BruteForce(b.matrix(), b.states)
    rhs = rhs_vector(b, state, target)
    s = ml.Solver(b, backend=backend)

    assert s.kernel_size == bf.kernel_size()
    assert s.is_unique == (bf.kernel_size() == 1)
    expect = bf.solvable(rhs)
    assert s.solvable(state, target) == expect
    if not expect:
        with pytest.raises(ml.Unsolvable):
            s.solve(state, target)
        assert list(s.solutions(state, target)) == []
        return
    sol = s.solve(state, target, minimal=True)
    assert sol.taps.dtype == np.uint8 and sol.taps.shape == (b.shape if b.is_grid else (b.n_taps,))
    assert reaches(b, state, sol.taps, target)
    assert sol.length == bf.min_length(rhs)
    assert sol.proven_minimal
    assert len(sol.moves()) == sol.length
    # the plain solve is valid too
    assert reaches(b, state, s.solve(state, target, minimal=False).taps, target)
    # solutions(): complete, distinct, valid
    got = [np.asarray(t) for t in s.solutions(state, target)]
    assert len(got) == s.kernel_size
    keys = set()
    for t in got:
        assert reaches(b, state, t, target)
        vec = t.reshape(-1)
        if b.is_grid:
            vec = vec[[p[0] * b.shape[1] + p[1] for p in b.taps]]
        keys.add(tuple(int(v) for v in vec))
    assert keys == {tuple(int(v) for v in x) for x in bf.solutions(rhs)}


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=board_and_state())
def test_batch_equals_single(backend, case):
    b, state, target = case
    s = ml.Solver(b, backend=backend)
    rng = np.random.default_rng(0)
    states = np.stack([state] + [b.random_state(rng=rng, solvable=bool(i % 2)) for i in range(5)])
    ok = s.solvable_many(states, target)
    assert ok.tolist() == [s.solvable(x, target) for x in states]
    good = states[ok]
    X = s.solve_many(good, target)
    assert X.shape == (len(good),) + (b.shape if b.is_grid else (b.n_taps,))
    for st_, x in zip(good, X):
        assert reaches(b, st_, x, target)
    Xmin = s.solve_many(good, target, minimal=True)
    for st_, x in zip(good, Xmin):
        assert int(x.sum()) == s.solve(st_, target).length
    if not ok.all():
        with pytest.raises(ml.Unsolvable) as ei:
            s.solve_many(states, target)
        assert list(ei.value.indices) == np.flatnonzero(~ok).tolist()


LARGE_KERNEL_BOARDS = [
    ml.Board.grid(4, 4, states=2),  # nullity 4
    ml.Board.grid(5, 5, states=2, pattern="horizontal"),  # 2 per row
    ml.Board.grid(4, 5, states=3, pattern="vertical", wrap=True),
    ml.Board.grid(4, 4, states=4),
    ml.Board.grid(3, 6, states=6, wrap=True),
    ml.Board.grid(6, 6, states=2, pattern="knight", holes=[(0, 0), (5, 5)]),
    ml.Board.grid(5, 5, states=2, pattern=[(0, 1), (1, 0)], wrap=True),
    ml.Board.grid(4, 4, states=8, pattern="diagonal", locked=[(0, 0)]),
    ml.Board.grid(5, 5, states=5, pattern="horizontal"),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("board", LARGE_KERNEL_BOARDS, ids=repr)
def test_minimal_equals_exhaustive_coset(backend, board):
    """On boards with large kernels the minimum equals the least length over every
    solution (solutions() is checked complete against brute force above)."""
    s = ml.Solver(board, backend=backend)
    assert 8 <= s.kernel_size <= 1 << 14, s.kernel_size
    rng = np.random.default_rng(5)
    for _ in range(4):
        st = board.random_state(rng=rng)
        sol = s.solve(st)
        want = min(int(t.sum()) for t in s.solutions(st))
        assert sol.length == want and sol.proven_minimal
        assert not board.apply(st, sol.taps).any()


@pytest.mark.parametrize("backend", BACKENDS)
def test_budget_is_honest(backend):
    b = ml.Board.grid(5, 5, states=2, pattern="horizontal")
    s = ml.Solver(b, backend=backend)
    rng = np.random.default_rng(2)
    seen_unproven = False
    for _ in range(10):
        st = b.random_state(rng=rng)
        best = min(int(t.sum()) for t in s.solutions(st))
        sol = s.solve(st, budget=1)
        assert not b.apply(st, sol.taps).any()
        assert sol.length >= best
        if sol.length > best:
            assert not sol.proven_minimal
        if not sol.proven_minimal:
            seen_unproven = True
        assert s.solve(st, budget=s.kernel_size).proven_minimal
        assert s.solve(st, budget=60.0).proven_minimal
    assert seen_unproven
