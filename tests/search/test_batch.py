"""Batch minimal searches (csrc/coset_batch.c): min_taps_many and solve_many(minimal=True)
against the per-board search, brute force and plain NumPy enumeration."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.native import _core as _coset
from modlights.native import _core as _coset_batch
from oracle import BruteForce
from strategies import boards, random_masks, rhs_vector
from test_coset import cosets, enumerate_coset, simd_env

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


# ---------------------------------------------------------------- the C entry points
@pytest.mark.parametrize("simd", ["portable", "auto"])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=cosets(),
    m=st.integers(0, 5),
    threads=st.sampled_from([1, 2]),
    packed=st.sampled_from([None, True, False]),
)
def test_coset_min_many_matches_enumeration(simd, case, m, threads, packed):
    x0, H, orders, n = case
    rng = np.random.default_rng(len(x0) * 31 + m)
    X0 = rng.integers(0, n, size=(m, len(x0))).astype(np.uint8)
    with simd_env(simd):
        lengths, best = _coset_batch.coset_min_many(
            X0, H, orders, n, threads=threads, packed=packed
        )
    only, none = _coset_batch.coset_min_many(X0, H, orders, n, taps=False)
    assert none is None and np.array_equal(only, lengths)
    for i in range(m):
        X = enumerate_coset(X0[i], H, orders, n)
        lens = X.sum(axis=1)
        assert lengths[i] == lens.min() == int(best[i].astype(np.int64).sum())
        assert any(np.array_equal(best[i], x) for x in X[lens == lengths[i]])


@pytest.mark.parametrize("n,orders", [(2, [2] * 21), (3, [3] * 13)])
def test_large_kernels_run_the_gray_search_per_board(n, orders):
    """Past the table limit (2^20 elements) each board runs coset.c's search."""
    rng = np.random.default_rng(11)
    r = 60
    H = (rng.integers(0, n, size=(len(orders), r)) * (rng.random((len(orders), r)) < 0.3)).astype(
        np.uint8
    )
    X0 = rng.integers(0, n, size=(3, r)).astype(np.uint8)
    lengths, best = _coset_batch.coset_min_many(X0, H, orders, n)
    for i in range(3):
        _, want, _, _, complete = _coset.coset_min(X0[i], H, orders, n)
        assert complete and lengths[i] == want == int(best[i].astype(np.int64).sum())
        diff = (best[i].astype(np.int64) - X0[i]) % n  # best - x0 is in span(H)
        if n == 2:
            M = np.concatenate([H, diff[None, :]]).astype(np.uint8)
            assert _rank_gf2(M) == _rank_gf2(H)


def _rank_gf2(M):
    from modlights.native import _core as _gf2

    return _gf2.rank(M)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cosets(), data=st.data())
def test_sub_cubes_cover_the_coset(case, data):
    """Walking every sub-cube with the running bound finds the coset's minimum, and a
    sub-cube reported 'nothing shorter' really has nothing shorter than its bound."""
    x0, H, orders, n = case
    k = len(orders)
    inner = data.draw(st.integers(0, k))
    cells = int(np.prod(orders[inner:], dtype=np.int64))
    X = enumerate_coset(x0, H, orders, n)
    lens = X.sum(axis=1)
    best = int(x0.astype(np.int64).sum())
    covered = 0
    for corner in range(cells):
        found, length, ex, pr = _coset_batch.coset_min_sub(x0, H, orders, n, inner, corner, best)
        covered += ex + pr
        # the sub-cube's elements: enumerate_coset's order has generator 0 slowest
        digits = []
        rest = corner
        for o in orders[inner:]:
            digits.append(rest % o)
            rest //= o
        sub = X[_sub_rows(orders, inner, digits)]
        sub_min = int(sub.sum(axis=1).min())
        if found is None:
            assert length == best and sub_min >= best
        else:
            assert length == sub_min < best == best
            assert any(np.array_equal(found, x) for x in sub)
            best = length
    assert best == lens.min()
    assert covered == len(X)


def _sub_rows(orders, inner, digits):
    """Rows of enumerate_coset (itertools.product order) whose top digits are fixed."""
    idx = np.indices(orders).reshape(len(orders), -1) if orders else np.zeros((0, 1), int)
    keep = np.ones(idx.shape[1], dtype=bool)
    for t, d in zip(range(inner, len(orders)), digits):
        keep &= idx[t] == d
    return keep


def test_batch_rejects_bad_input():
    H = np.zeros((1, 4), dtype=np.uint8)
    with pytest.raises(ValueError, match="2-D"):
        _coset_batch.coset_min_many(np.zeros(4, np.uint8), H, [2], 2)
    with pytest.raises(ValueError, match="0..1"):
        _coset_batch.coset_min_many(np.full((2, 4), 2, np.uint8), H, [2], 2)
    with pytest.raises(ValueError, match="orders"):
        _coset_batch.coset_min_many(np.zeros((2, 4), np.uint8), H, [2, 2], 2)
    with pytest.raises(ValueError, match="corner"):
        _coset_batch.coset_min_sub(np.zeros(4, np.uint8), H, [2], 2, 0, 5, 10)
    with pytest.raises(ValueError, match="inner"):
        _coset_batch.coset_min_sub(np.zeros(4, np.uint8), H, [2], 2, 3, 0, 10)
    s = ml.Solver(ml.Board.grid(3, 3))
    with pytest.raises(ValueError, match="executor"):
        s.min_taps_many(np.zeros((1, 3, 3)), executor="pool")
    with pytest.raises(ValueError, match="executor"):
        s.solve(np.zeros((3, 3)), executor=4)
