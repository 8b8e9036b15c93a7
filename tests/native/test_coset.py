"""The C coset search (csrc/coset.c) against plain NumPy enumeration."""

from __future__ import annotations

import contextlib
import itertools
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modlights.native import _core as _coset
from suite_groups import sample


@contextlib.contextmanager
def simd_env(simd):
    """MODLIGHTS_SIMD=portable ("portable") or unset ("auto": the best path), restored
    afterwards (the C search reads it on every call)."""
    old = os.environ.get("MODLIGHTS_SIMD")
    if simd == "portable":
        os.environ["MODLIGHTS_SIMD"] = "portable"
    else:
        os.environ.pop("MODLIGHTS_SIMD", None)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("MODLIGHTS_SIMD", None)
        else:
            os.environ["MODLIGHTS_SIMD"] = old


def enumerate_coset(x0, H, orders, n):
    """Every element x0 + sum c_i H_i (0 <= c_i < orders[i]) as rows."""
    C = np.array(list(itertools.product(*[range(o) for o in orders])), dtype=np.int64)
    if C.size == 0:
        return x0[None, :].astype(np.int64)
    return (x0[None, :].astype(np.int64) + C @ H.astype(np.int64)) % n


@st.composite
def cosets(draw):
    n = draw(st.sampled_from([2, 2, 3, 4, 5, 6, 8, 9, 12, 255]))
    r = draw(st.integers(0, 150))
    k = draw(st.integers(0, 12 if n == 2 else 4))
    divisors = [d for d in range(2, n + 1) if n % d == 0]
    orders = []
    for _ in range(k):  # keep the NumPy enumeration small
        o = draw(st.sampled_from(divisors))
        if np.prod(orders + [o]) <= 5000:
            orders.append(o)
    k = len(orders)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    H = np.zeros((k, r), dtype=np.uint8)
    for i, o in enumerate(orders):  # a vector of order dividing o: multiples of n/o
        H[i] = (rng.integers(0, o, size=r) * (n // o) * (rng.random(r) < 0.5)) % n
    x0 = rng.integers(0, n, size=r).astype(np.uint8)
    return x0, H, orders, n


@pytest.mark.parametrize("simd", ["portable", "auto"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cosets(), threads=st.sampled_from([1, 2, 3]))
def test_coset_min_matches_enumeration(simd, case, threads):
    x0, H, orders, n = case
    X = enumerate_coset(x0, H, orders, n)
    lens = X.sum(axis=1)
    with simd_env(simd):
        best, length, examined, pruned, complete = _coset.coset_min(
            x0, H, orders, n, threads=threads
        )
    assert complete
    assert length == lens.min() == int(best.astype(np.int64).sum())
    assert any(np.array_equal(best, x) for x in X[lens == length])
    assert examined + pruned >= min(len(X), 1) or length == 0


@pytest.mark.heavy  # 3 CPU s a case: the exact minimum over 2^20 combinations by NumPy
@pytest.mark.parametrize("simd", ["portable", "auto"])
@pytest.mark.parametrize("threads", [1, 2])
def test_gf2_chunked_search(threads, simd):
    """k > 18 takes the chunked multi-threaded path with the sub-cube bound; both the
    AVX2 walk (where the CPU has it) and the portable walk."""
    rng = np.random.default_rng(3)
    k, r = 20, 90
    H = (rng.random((k, r)) < 0.15).astype(np.uint8)
    x0 = rng.integers(0, 2, size=r).astype(np.uint8)
    # exact minimum by NumPy over all 2^20 combinations, in blocks
    best_len = None
    Hi = H.astype(np.int64)
    for hi in range(1 << (k - 12)):
        top = np.array([(hi >> i) & 1 for i in range(k - 12)], dtype=np.int64)
        base = (x0 + top @ Hi[12:]) % 2
        C = (np.arange(1 << 12)[:, None] >> np.arange(12)[None, :]) & 1
        lens = ((base[None, :] + C @ Hi[:12]) % 2).sum(axis=1)
        m = int(lens.min())
        best_len = m if best_len is None else min(best_len, m)
    with simd_env(simd):
        best, length, examined, pruned, complete = _coset.coset_min(
            x0, H, [2] * k, 2, threads=threads
        )
    assert complete and length == best_len
    assert examined + pruned == 1 << k


def test_threads_return_the_element_one_thread_returns():
    """Short vectors, so many elements tie for the least length: on 2, 3 or 4 threads
    the whole walk returns the element one thread returns (the first of the lowest
    chunk), not whichever thread offered first."""
    rng = np.random.default_rng(7)
    for t in range(24):
        n, k, r = (2, 20, 20) if t % 2 == 0 else (3, 11, 14)
        H = rng.integers(0, n, (k, r)).astype(np.uint8)
        x0 = rng.integers(0, n, r).astype(np.uint8)
        one = _coset.coset_min(x0, H, [n] * k, n, threads=1)
        for threads in (2, 3, 4):
            many = _coset.coset_min(x0, H, [n] * k, n, threads=threads)
            assert many[1] == one[1] and np.array_equal(many[0], one[0]), (t, threads)


def test_budget_and_deadline_stop_early():
    rng = np.random.default_rng(4)
    k, r = 30, 200
    H = rng.integers(0, 2, size=(k, r)).astype(np.uint8)
    x0 = rng.integers(0, 2, size=r).astype(np.uint8)
    best, length, examined, pruned, complete = _coset.coset_min(x0, H, [2] * k, 2, budget=10_000)
    assert not complete and examined < 100_000
    assert length == int(best.sum()) <= int(x0.sum())
    best, length, examined, pruned, complete = _coset.coset_min(x0, H, [2] * k, 2, seconds=0.05)
    assert not complete


def test_bad_arguments():
    with pytest.raises(ValueError):
        _coset.coset_min(np.zeros(3, np.uint8), np.zeros((1, 4), np.uint8), [2], 2)
    with pytest.raises(ValueError):
        _coset.coset_min(np.zeros(3, np.uint8), np.full((1, 3), 7, np.uint8), [2], 5)
    with pytest.raises(ValueError):
        _coset.coset_min(np.zeros(3, np.uint8), np.zeros((1, 3), np.uint8), [1], 2)
    with pytest.raises(ValueError):
        _coset.coset_min(np.zeros(3, np.uint8), np.zeros((63, 3), np.uint8), [2] * 63, 2)


def test_values_are_checked_before_narrowing():
    """Out-of-range int64 input must not wrap silently into uint8 / uint32."""
    with pytest.raises(ValueError, match="0..2"):
        _coset.coset_min(np.full(3, 257, np.int64), np.eye(3, dtype=np.uint8), [3, 3, 3], 3)
    with pytest.raises(ValueError, match="orders"):
        _coset.coset_min(
            np.zeros(3, np.uint8), np.eye(3, dtype=np.uint8), np.array([2, 2, 2**32 + 3]), 3
        )
    with pytest.raises(ValueError, match="n must"):
        _coset.coset_min(np.zeros(3, np.uint8), np.eye(3, dtype=np.uint8), [2, 2, 2], 2**70)


def test_zero_second_budget_and_huge_kernels_return_fast():
    import time

    import modlights as ml

    rng = np.random.default_rng(0)
    A = rng.integers(0, 2, (20, 80))
    s = ml.Solver(ml.Board.from_matrix(A, 2))
    st = rng.integers(0, 2, 20)
    t = time.perf_counter()
    sol = s.solve(st, budget=0.0)
    assert time.perf_counter() - t < 2 and not sol.proven_minimal
    assert not ml.Board.from_matrix(A, 2).apply(st, sol.taps).any()
    # 69 kernel generators: 2^69 solutions, more than any enumeration covers
    b = ml.Board.from_effects([[0]] * 70, 2, n_cells=1)
    t = time.perf_counter()
    sol = ml.Solver(b).solve(np.ones(1, np.uint8), budget=1 << 16)
    assert time.perf_counter() - t < 5
    assert sol.length == 1 and sol.proven_minimal is not None


def test_unbuilt_extension_objects_raise_instead_of_crashing():
    from modlights.native import _core as _gf2
    from modlights.native import _core as _zn

    e = _gf2.Gf2Engine.__new__(_gf2.Gf2Engine)
    with pytest.raises(ValueError, match="not built"):
        _ = e.rank
    with pytest.raises(ValueError, match="not built"):
        e.solve(np.zeros((1, 0), np.uint8))
    lu = _zn._LocalLU(2, 2, 3)
    with pytest.raises(ValueError, match="out of range"):
        lu.add_coo(np.array([10**9]), np.array([10**9]))
    with pytest.raises(ValueError):
        lu.set_dense(np.full((2, 2), 7, np.uint8))


@pytest.mark.parametrize("simd", ["portable", "auto"])
def test_gf2_wide_vectors_several_accumulator_blocks(simd):
    """More than 31 AVX2 vectors (7936 taps): the walk counts in several blocks."""
    rng = np.random.default_rng(11)
    k, r = 10, 9000
    H = rng.integers(0, 2, size=(k, r)).astype(np.uint8)
    x0 = rng.integers(0, 2, size=r).astype(np.uint8)
    X = enumerate_coset(x0, H, [2] * k, 2)
    with simd_env(simd):
        best, length, examined, pruned, complete = _coset.coset_min(x0, H, [2] * k, 2)
    assert complete and length == int(X.sum(axis=1).min()) == int(best.sum())


# ------------------------------------------------------------ seconds are deadlines
#: Allowed past a deadline on a loaded 2-core CI box (the docstrings promise +10% or
#: +0.25 s on an idle machine).
DEADLINE_SLACK = 1.0


def _wide_board():
    """1024 taps on one cell over Z/255: ker A has 255^1023 elements, so every minimal
    search is partial and the greedy clean-up has 1023 generators of 254 multiples."""
    import modlights as ml

    b = ml.Board.from_effects([[0]] * 1024, 255, n_cells=1024)
    st = np.zeros(1024, np.uint8)
    st[0] = 7
    return b, ml.Solver(b), st


# 1.5: a search that runs to its deadline (10 s of wall time under load)
@pytest.mark.parametrize("budget", sample([0.3, 1.5], 1, mark=pytest.mark.heavy))
def test_seconds_budget_is_a_deadline_for_solve_and_the_batches(budget):
    import time

    b, s, st = _wide_board()
    s.solve(st, budget=0.0)  # factored outside the measured calls
    many = np.stack([st, (st * 2) % 255, st, (st * 3) % 255])
    for call in (
        lambda: [s.solve(st, budget=budget)],
        lambda: s.min_taps_many(many, budget=budget)[0],
        lambda: s.solve_many(many, minimal=True, budget=budget),
    ):
        t = time.perf_counter()
        out = call()
        took = time.perf_counter() - t
        assert took < budget + DEADLINE_SLACK, f"{took:.2f} s for a {budget} s budget"
        assert len(out)
    # the answers are still solutions (Board.apply) and no worse than the greedy one
    sol = s.solve(st, budget=budget)
    assert not b.apply(st, sol.taps).any() and not sol.proven_minimal
    X = s.solve_many(many, minimal=True, budget=budget)
    lengths, proven = s.min_taps_many(many, budget=budget)
    for state, taps, length in zip(many, X, lengths):
        assert not b.apply(state, taps).any()
        assert length <= int(s.solve(state, minimal=False).taps.sum())
    assert not proven.any()


@pytest.mark.heavy  # 9 CPU s: two searches of 2^10 coset elements on a wide board
def test_int_budgets_stay_counts_and_zero_seconds_returns_at_once():
    """An int budget is a count of coset elements (no deadline: the clean-up finishes,
    the same answer every time); 0.0 seconds is a deadline: no search, only the greedy
    clean-up's MIN_DESCENT_SECONDS."""
    import time

    b, s, st = _wide_board()
    a, a2 = s.solve(st, budget=1 << 10), s.solve(st, budget=1 << 10)
    assert a == a2 and not b.apply(st, a.taps).any()
    t = time.perf_counter()
    z = s.solve(st, budget=0.0)
    assert time.perf_counter() - t < DEADLINE_SLACK
    assert not b.apply(st, z.taps).any() and not z.proven_minimal


def test_zero_seconds_still_gets_the_greedy_clean_up():
    """budget=0.0 searches nothing but keeps the clean-up (bounded by
    MIN_DESCENT_SECONDS): on a small board its answer is budget=0's, the greedy one."""
    import modlights as ml

    for n, seed in [(3, 1), (5, 2), (4, 3)]:
        b = ml.Board.grid(9, 9, states=n)
        s = ml.Solver(b)
        st = b.random_state(rng=seed)
        greedy, zero = s.solve(st, budget=0), s.solve(st, budget=0.0)
        assert zero.length == greedy.length and not b.apply(st, zero.taps).any()
        assert zero.length <= s.solve(st, minimal=False).length
