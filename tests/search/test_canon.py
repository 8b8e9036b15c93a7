"""modlights.search.canon: canonical kernel generators and coset representatives, the
NumPy implementation against brute force (the span enumerated), the C one
(csrc/search/canon.c, checked against enumeration in csrc/tests/t-canon.c) against it
through the Solver (the native kernel and its budget-0 answers against the reference
backend's on random matrices), and the property they exist for: a minimal search that
stops early gives the same answer whichever engine factored the board."""

from __future__ import annotations

import itertools
from math import prod

import numpy as np
import pytest

import modlights as ml
from modlights.engines import registry
from modlights.search import canon
from suite_groups import sample

MODULI = [2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 25, 27, 30, 128, 210, 255]


def _span(G: np.ndarray, orders: list[int], n: int) -> set[tuple[int, ...]]:
    """Every element of the module the rows of G generate (coefficients < orders)."""
    L = G.shape[1]
    out = set()
    for c in itertools.product(*[range(o) for o in orders]):
        v = (
            np.array(c, dtype=np.int64) @ G.astype(np.int64) % n
            if orders
            else np.zeros(L, dtype=np.int64)
        )
        out.add(tuple(int(t) for t in v))
    return out


def _random_module(rng: np.random.Generator, n: int) -> np.ndarray:
    """A few generators, some multiplied by a zero divisor (torsion of every order)."""
    k = int(rng.integers(0, 5))
    while n**k > 4000:
        k -= 1
    L = int(rng.integers(1, 7))
    G = rng.integers(0, n, (k, L))
    if k and rng.random() < 0.5:
        G = G * int(rng.choice([d for d in range(1, n) if n % d == 0])) % n
    return G.astype(np.uint8)


@pytest.mark.parametrize("n", sample(MODULI, 5))
def test_basis_is_a_direct_sum_basis_of_the_module(n):
    rng = np.random.default_rng(n)
    for _ in range(30):
        G = _random_module(rng, n)
        H, orders = canon.basis(G, n)
        S = _span(G, [n] * G.shape[0], n)
        assert _span(H, orders, n) == S
        assert prod(orders) == len(S)  # spans S with |S| elements: direct
        assert all(o > 1 for o in orders)
        for h, o in zip(H.astype(np.int64), orders):  # o is the additive order of h
            assert not np.any(h * o % n) and all(np.any(h * d % n) for d in range(1, o))


@pytest.mark.parametrize("n", MODULI)
def test_basis_depends_only_on_the_module(n):
    """Any other generating set of the same module (combinations, repeats, shuffled)
    gives the same generators."""
    rng = np.random.default_rng(1000 + n)
    for _ in range(30):
        G = _random_module(rng, n)
        k = G.shape[0]
        if k == 0:
            continue
        U = rng.integers(0, n, (k + 2, k))
        G2 = np.vstack([U @ G.astype(np.int64) % n, G])[rng.permutation(2 * k + 2)]
        H, orders = canon.basis(G, n)
        H2, o2 = canon.basis(G2.astype(np.uint8), n)
        assert np.array_equal(H, H2) and orders == o2


@pytest.mark.parametrize("n", sample(MODULI, 5))
def test_reduce_gives_one_representative_per_coset(n):
    rng = np.random.default_rng(2000 + n)
    for _ in range(30):
        G = _random_module(rng, n)
        k, L = G.shape
        H, orders = canon.basis(G, n)
        x = rng.integers(0, n, (3, L)).astype(np.uint8)
        y = (x.astype(np.int64) + rng.integers(0, n, (3, k)) @ G.astype(np.int64)) % n if k else x
        a = canon.reduce(x, H, n)
        assert np.array_equal(a, canon.reduce(y.astype(np.uint8), H, n))
        assert np.array_equal(a[0], canon.reduce(x[0], H, n))
        S = _span(G, [n] * k, n)
        assert all(tuple(int(t) for t in (a[i].astype(np.int64) - x[i]) % n) in S for i in range(3))


def test_prime_moduli_give_the_reduced_row_echelon_basis():
    rng = np.random.default_rng(7)
    for n in (2, 3, 5, 7, 251):
        G = rng.integers(0, n, (6, 12)).astype(np.uint8)
        G[3] = (2 * G[0].astype(np.int64) + G[1]) % n  # a dependent row
        H, orders = canon.basis(G, n)
        assert orders == [n] * len(orders) and len(orders) == 5
        pivots = [int(np.flatnonzero(h)[0]) for h in H]
        assert pivots == sorted(pivots)
        for i, c in enumerate(pivots):
            assert H[i, c] == 1 and np.count_nonzero(H[:, c]) == 1


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="0..3"):
        canon.basis(np.array([[4, 0]]), 4)
    with pytest.raises(ValueError, match="2 to 255"):
        canon.basis(np.zeros((1, 2), dtype=np.uint8), 256)
    with pytest.raises(ValueError, match="entries like H"):
        canon.reduce(np.zeros(3, dtype=np.uint8), np.ones((1, 2), dtype=np.uint8), 2)
    with pytest.raises(ValueError, match="integers"):
        canon.basis(np.zeros((1, 2), dtype=float), 2)


@pytest.mark.parametrize("n", sample(MODULI, 6))
def test_c_canonical_forms_equal_numpys_through_the_solver(n):
    """On random tap matrices over Z/n (torsion of every order for composite n): the
    native Solver's kernel (the C canonical generators) is the reference backend's (the
    NumPy ones), and so are its budget-0 answers (the particular solution made the
    canonical representative of its coset, in C and in NumPy, then the same descent)."""
    rng = np.random.default_rng(3000 + n)
    for _ in range(6):
        m, L = int(rng.integers(1, 6)), int(rng.integers(2, 9))
        A = rng.integers(0, n, (m, L))
        if rng.random() < 0.5:  # zero divisors in the entries
            A = A * int(rng.choice([d for d in range(1, n) if n % d == 0] or [1])) % n
        b = ml.Board.from_matrix(A, n)
        nat, ref = ml.Solver(b), ml.Solver(b, backend="reference")
        assert nat._on_c and not ref._on_c
        assert np.array_equal(nat.kernel(), ref.kernel()) and nat.kernel_orders == ref.kernel_orders
        H, orders = canon.basis(nat.kernel(), n)  # canonical: its own canonical form
        assert np.array_equal(H, nat.kernel()) and orders == nat.kernel_orders
        for _ in range(3):
            x = rng.integers(0, n, L)
            state = (-(A @ x)) % n
            got, want = nat.solve(state, budget=0), ref.solve(state, budget=0)
            assert np.array_equal(got.taps, want.taps)


def test_fits_matches_the_c_bound():
    from modlights.native import _core

    assert canon.CANON_MAX_WORK == _core.CANON_MAX_WORK
    for k, L, n in [
        (0, 0, 2),
        (100, 10**6, 2),
        (2000, 10**6, 2),
        (64, 1 << 16, 6),
        (128, 1 << 16, 6),
        (300, 3000, 210),
        (300, 3000, 3),
        (4096, 1024, 2),
        (4096, 1025, 2),
        (181, 8192, 2),
        (182, 8192, 4),
    ]:
        exps = sum(e for _, _, e in canon._parts(n))
        work = k * k * ((L + 63) // 64 if n == 2 else L * exps)  # the documented bound
        assert canon.fits(k, L, n) == _core.canon_fits(k, L, n) == (work <= canon.CANON_MAX_WORK)


# ------------------------------------------------------------------ engine independence
BOARDS = [
    lambda: ml.Board.grid(5, 5, states=2),  # cross: algebraic
    lambda: ml.Board.grid(9, 9, states=2),
    lambda: ml.Board.grid(16, 16, states=2),
    lambda: ml.Board.grid(4, 4, states=2, pattern="diagonal"),
    lambda: ml.Board.grid(9, 9, states=4),  # lifted
    lambda: ml.Board.grid(14, 14, states=6),
    lambda: ml.Board.grid(4, 4, states=3, pattern="knight", wrap=True),
    lambda: ml.Board.grid(9, 9, states=2, locked=[(0, 0), (2, 3)], holes=[(8, 8)]),
    lambda: ml.Board.grid(4, 5, states=9, pattern="square", wrap=True),  # tensor
]


def _methods(board) -> list[str]:
    out = []
    for m in registry.METHOD_FAMILIES:
        try:
            ml.Solver(board, method=m)
        except ValueError:
            continue
        out.append(m)
    return out


@pytest.mark.parametrize("make", sample(BOARDS, 4, ids=[str(i) for i in range(len(BOARDS))]))
def test_an_unfinished_search_gives_the_same_answer_on_every_engine(make):
    board = make()
    methods = _methods(board)
    assert len(methods) >= 2, methods
    rng = np.random.default_rng(3)
    solvers = {m: ml.Solver(board, method=m) for m in methods}
    reference = ml.Solver(board, backend="reference")
    ks = solvers[methods[0]].kernel_size
    assert ks > 1
    for _ in range(3):
        taps = board.from_tap_vector(rng.integers(0, board.states, board.n_taps).astype(np.uint8))
        state = board.apply(np.zeros(board.shape, dtype=np.uint8), taps)
        for budget in (0, max(1, ks // 3)):
            answers = {m: s.solve(state, budget=budget) for m, s in solvers.items()}
            if budget == 0:
                # the greedy descent alone: the NumPy reference backend agrees too
                answers["reference"] = reference.solve(state, budget=0)
            first = answers[methods[0]]
            for m, a in answers.items():
                assert np.array_equal(a.taps, first.taps), (m, methods[0], budget)
                assert a.proven_minimal == first.proven_minimal


def test_solver_kernel_is_canonical():
    for board in (
        ml.Board.grid(9, 9, states=2),
        ml.Board.grid(6, 6, states=4),
        ml.Board.grid(5, 5, states=6),
    ):
        s = ml.Solver(board)
        H, orders = s.kernel(), s.kernel_orders
        H2, o2 = canon.basis(H, board.states)
        assert np.array_equal(H, H2) and orders == o2
        ref = ml.Solver(board, backend="reference")
        assert np.array_equal(ref.kernel(), H) and ref.kernel_orders == orders


def test_a_memory_error_keeps_the_engines_generators(monkeypatch):
    """Out of memory for the canonical form: the Solver searches with the engine's
    generators and answers as before (proved answers are the same)."""
    board = ml.Board.grid(9, 9)
    state = board.random_state(rng=2)
    want = ml.Solver(board).solve(state)

    def no_memory(*args, **kwargs):
        raise MemoryError("no room")

    monkeypatch.setattr(canon, "basis", no_memory)
    s = ml.Solver(board)
    got = s.solve(state)
    assert not s._canonical
    assert got.length == want.length and got.proven_minimal


def test_a_solver_pickled_before_the_canonical_forms_still_solves():
    import pickle

    board = ml.Board.grid(5, 5, states=3)
    s = ml.Solver(board)
    _ = s.kernel()
    state = s.__getstate__()
    del state["_canonical"]  # as a Solver pickled by 0.1.0
    old = ml.Solver.__new__(ml.Solver)
    old.__setstate__(pickle.loads(pickle.dumps(state)))
    st = board.random_state(rng=1)
    assert old.solve(st).length == s.solve(st).length
