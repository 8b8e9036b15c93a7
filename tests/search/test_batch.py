"""Batch minimal searches (csrc/search/coset_batch.c through the Solver): min_taps_many and
solve_many(minimal=True) against the per-board search, brute force and the reference
backend. The C entry points themselves: csrc/tests/t-coset_batch.c."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from oracle import BruteForce
from strategies import boards, random_masks, rhs_vector

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def random_stack(b: ml.Board, rng, k: int) -> np.ndarray:
    """k states, about half of them solvable."""
    return (
        np.stack([b.random_state(rng=rng, solvable=bool(rng.integers(2))) for _ in range(k)])
        if k
        else np.zeros((0, *b.shape), dtype=np.uint8)
    )


@SETTINGS
@given(
    b=boards, seed=st.integers(0, 2**32 - 1), k=st.integers(0, 12), target=st.sampled_from([0, 1])
)
def test_min_taps_many_matches_brute_force_and_single(b, seed, k, target):
    rng = np.random.default_rng(seed)
    S = random_stack(b, rng, k)
    s = ml.Solver(b)
    lengths, proven = s.min_taps_many(S, target)
    bf = BruteForce(b.matrix(), b.states)
    for i in range(k):
        want = bf.min_length(rhs_vector(b, S[i], target))
        assert lengths[i] == (-1 if want is None else want)
        assert proven[i]
        if want is not None:
            one = s.solve(S[i], target)
            assert (one.length, one.proven_minimal) == (lengths[i], proven[i])


@SETTINGS
@given(b=boards, seed=st.integers(0, 2**32 - 1), k=st.integers(1, 10))
def test_solve_many_minimal_solves_with_fewest_taps(b, seed, k):
    rng = np.random.default_rng(seed)
    target = rng.integers(0, b.states, size=b.shape)
    # target - A v for random v: every state reaches the target
    S = np.stack(
        [
            b.apply(
                target,
                b.from_tap_vector(
                    ((-rng.integers(0, b.states, size=b.n_taps)) % b.states).astype(np.uint8)
                ),
            )
            for _ in range(k)
        ]
    )
    s = ml.Solver(b)
    T = s.solve_many(S, target, minimal=True)
    assert T.shape == (k, *(b.shape if b.is_grid else (b.n_taps,)))
    lengths, _ = s.min_taps_many(S, target)
    ref = ml.Solver(b, backend="reference")
    A = b.matrix().astype(np.int64)
    for i in range(k):
        x = b.tap_vector(T[i]).astype(np.int64)
        assert np.array_equal(
            (A @ x) % b.states if A.size else np.zeros(b.n_cells), rhs_vector(b, S[i], target)
        )
        assert int(x.sum()) == lengths[i] == ref.solve(S[i], target).length


@pytest.mark.parametrize(
    "n,shape,pattern",
    [
        (2, (5, 5), "cross"),
        (2, (4, 4), "cross"),
        (3, (4, 4), "cross"),
        (4, (4, 4), "cross"),
        (3, (5, 5), "square"),
        (5, (3, 3), "knight"),
    ],
)
def test_batch_equals_per_board_on_larger_boards(n, shape, pattern):
    rng = np.random.default_rng(7)
    locked, holes = random_masks(rng, shape, 0.1, 0.1)
    b = ml.Board.grid(*shape, states=n, pattern=pattern, locked=locked, holes=holes)
    S = random_stack(b, rng, 300)
    s = ml.Solver(b)
    lengths, proven = s.min_taps_many(S)
    assert proven.all()
    for i in range(0, 300, 7):
        if lengths[i] < 0:
            assert not s.solvable(S[i])
        else:
            sol = s.solve(S[i])
            assert (sol.length, sol.proven_minimal) == (lengths[i], True)


def test_budget_below_the_kernel_gives_the_single_board_flags():
    b = ml.Board.grid(4, 4)  # kernel 2^4
    s = ml.Solver(b)
    S = random_stack(b, np.random.default_rng(3), 40)
    for budget in (0, 3, 15, 16, 2.5):
        lengths, proven = s.min_taps_many(S, budget=budget)
        T = s.solve_many(S[lengths >= 0], minimal=True, budget=budget)
        for i, j in enumerate(np.flatnonzero(lengths >= 0)):
            one = s.solve(S[j], budget=budget)
            assert (one.length, one.proven_minimal) == (lengths[j], proven[j])
            assert int(T[i].sum()) == one.length
        assert proven[lengths < 0].all()
    assert s.min_taps_many(S, budget=16)[1].all()


def test_unsolvable_boards_in_a_batch():
    b = ml.Board.grid(4, 4)
    s = ml.Solver(b)
    S = random_stack(b, np.random.default_rng(5), 30)
    ok = s.solvable_many(S)
    assert (~ok).any() and ok.any()
    lengths, proven = s.min_taps_many(S)
    assert (lengths[~ok] == -1).all() and proven.all() and (lengths[ok] >= 0).all()
    with pytest.raises(ml.Unsolvable) as e:
        s.solve_many(S, minimal=True)
    assert list(e.value.indices) == np.flatnonzero(~ok).tolist()


def test_trivial_kernel_is_the_plain_solution():
    b = ml.Board.grid(6, 6)
    s = ml.Solver(b)
    assert s.kernel_size == 1
    S = np.random.default_rng(1).integers(0, 2, (100, 6, 6))
    X = s.solve_many(S)
    assert np.array_equal(s.solve_many(S, minimal=True), X)
    assert np.array_equal(s.min_taps_many(S)[0], X.reshape(100, -1).sum(axis=1))


def test_reference_backend_batches_agree():
    b = ml.Board.grid(3, 3, states=3, pattern="square")
    S = random_stack(b, np.random.default_rng(2), 20)
    got = ml.Solver(b).min_taps_many(S)
    want = ml.Solver(b, backend="reference").min_taps_many(S)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_batch_rejects_bad_executors():
    s = ml.Solver(ml.Board.grid(3, 3))
    with pytest.raises(ValueError, match="executor"):
        s.min_taps_many(np.zeros((1, 3, 3)), executor="pool")
    with pytest.raises(ValueError, match="executor"):
        s.solve(np.zeros((3, 3)), executor=4)
