"""The tensor engine (engines/tensor/engine.py) against the dense reference engine, the
chase, brute force, Board.apply and an independent rank computation of the offset counts;
its memory on composite n, its use from threads and its stop on Ctrl-C."""

from __future__ import annotations

import pickle
import threading
import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine, covers
from modlights.model.ring import is_prime
from oracle import BruteForce


def tensor_reason(b):
    """None when the C tensor engine covers b, else its reason."""
    return covers("tensor", b)


def TensorEngine(b):
    """The C tensor engine through the Engine adapter."""
    return NativeEngine(b, "tensor")


#: Patterns whose counts factor: named ones and products of a row and a column set.
PRODUCTS = [
    "square",
    "horizontal",
    "vertical",
    [(dr, dc) for dr in (-1, 1) for dc in (-2, 0, 1)],  # no centre
    [(dr, dc) for dr in (0, 1) for dc in (0, 1)],  # 2 x 2 block
    [(dr, dc) for dr in (-1, 0, 0, 1) for dc in (-1, 0, 1)],  # a(0) = 2
    [(-2, 0), (-2, 1)],  # one row, shifted
    [(dr, dc) for dr in (-2, 2) for dc in (-1, 1, 1)],  # b(1) = 2
    [(1, 0)],  # a pure shift
]
SMALL_N = [2, 3, 4, 5, 6, 7, 8]


def _counts(pattern) -> dict:
    c: dict = {}
    for o in ml.Board.grid(1, 1, pattern=pattern).pattern:
        c[o] = c.get(o, 0) + 1
    return c


@st.composite
def product_patterns(draw):
    """A named product pattern or a random product of offset multisets."""
    if draw(st.booleans()):
        return draw(st.sampled_from(PRODUCTS))
    rows = draw(st.lists(st.integers(-2, 2), min_size=1, max_size=3))
    cols = draw(st.lists(st.integers(-2, 2), min_size=1, max_size=3))
    return [(dr, dc) for dr in rows for dc in cols]


@st.composite
def product_boards(draw, max_side=7):
    n = draw(st.sampled_from(SMALL_N))
    pattern = draw(product_patterns())
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    b = ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=draw(st.booleans()))
    return b, draw(st.integers(0, 2**32 - 1))


def _rhs(b, state, target):
    return b._rhs_cells(state, target).astype(np.int64)


# ---------------------------------------------------------------- the engine
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(product_boards(), st.sampled_from(["zero", "one", "array"]))
def test_tensor_equals_reference_and_chase(case, tkind):
    b, seed = case
    n = b.states
    rng = np.random.default_rng(seed)
    reason = tensor_reason(b)
    if reason is not None:
        with pytest.raises(ValueError, match="method='tensor' does not cover"):
            ml.Solver(b, method="tensor")
        # primes are refused only when the tap matrix is zero in one direction
        assert not is_prime(n) or "multiples of n" in reason
        return
    ten = ml.Solver(b, method="tensor")
    assert ten.engine == "tensor"
    ref = ml.Solver(b, backend="reference")
    assert ten.kernel_size == ref.kernel_size
    assert ten.nullity == ref.nullity and ten.rank == ref.rank
    assert ten.det() == ref.det()
    chase = NativeEngine(b, "chase") if covers("chase", b) is None else None
    target = {"zero": 0, "one": 1, "array": rng.integers(0, n, size=b.shape)}[tkind]
    for solvable in (True, False):
        s = b.random_state(rng=rng, solvable=solvable)
        want = ref.solvable(s, target)
        assert ten.solvable(s, target) == want
        if chase is not None:
            assert bool(chase.solve(_rhs(b, s, target)[None].astype(np.uint8))[1][0]) == want
        if want:
            sol = ten.solve(s, target, minimal=False)
            assert (b.apply(s, sol.taps) == np.broadcast_to(target, b.shape) % n).all()
        else:
            with pytest.raises(ml.Unsolvable):
                ten.solve(s, target, minimal=False)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(product_boards(max_side=5))
def test_tensor_kernel_basis_and_minimum(case):
    """kernel() generates ker A: A H^T = 0, a basis for prime n (rank = nullity), for
    composite n orders whose product is |ker A| and rows that generate that many
    elements (enumerated); the minimal solution has the brute-force minimum length."""
    b, seed = case
    if tensor_reason(b) is not None:
        return
    n = b.states
    ten = ml.Solver(b, method="tensor")
    H = ten.kernel()
    A = b.matrix().astype(np.int64)
    assert H.shape == (ten.nullity, b.n_taps)
    assert ((A @ H.T.astype(np.int64)) % n == 0).all()
    assert np.prod(ten.kernel_orders, dtype=object) == ten.kernel_size
    if len(H) and is_prime(n):
        assert ml.Solver(ml.Board.from_matrix(H, n), backend="reference").rank == len(H)
    elif len(H) and ten.kernel_size <= 4096:
        import itertools

        span = {
            tuple(np.asarray(c, np.int64) @ H.astype(np.int64) % n)
            for c in itertools.product(*[range(o) for o in ten.kernel_orders])
        }
        assert len(span) == ten.kernel_size
    if n**b.n_taps <= 5000:
        rng = np.random.default_rng(seed)
        s = b.random_state(rng=rng)
        sol = ten.solve(s)
        assert sol.proven_minimal
        assert sol.length == BruteForce(b.matrix(), n).min_length(_rhs(b, s, 0))


@pytest.mark.parametrize("shape", [(5, 8), (8, 8), (11, 5), (8, 14), (2, 2)])
def test_gf2_square_singular_sizes(shape):
    """T_k is singular over GF(2) when k = 2 mod 3: nullity h kC + w kR - kR kC."""
    rows, cols = shape
    b = ml.Board.grid(rows, cols, states=2, pattern="square")
    ten = ml.Solver(b, method="tensor")
    kr, kc = int(rows % 3 == 2), int(cols % 3 == 2)
    assert ten.nullity == rows * kc + cols * kr - kr * kc
    ref = ml.Solver(b, backend="reference")
    assert ten.nullity == ref.nullity
    rng = np.random.default_rng(rows * 100 + cols)
    for solvable in (True, False, False):
        s = b.random_state(rng=rng, solvable=solvable)
        assert ten.solvable(s) == ref.solvable(s)
        if ref.solvable(s):
            assert not b.apply(s, ten.solve(s, minimal=False).taps).any()


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 8])
@pytest.mark.parametrize(
    "pattern",
    ["square", "vertical", "horizontal", [(dr, dc) for dr in (-1, 1) for dc in (-2, 0, 1)]],
)
@pytest.mark.parametrize("wrap", [False, True])
def test_medium_boards_checked_by_apply(n, pattern, wrap):
    """120 x 90 boards: the tensor solution solves the board (Board.apply); solvability
    and nullity as the chase says."""
    b = ml.Board.grid(120, 90, states=n, pattern=pattern, wrap=wrap)
    if tensor_reason(b) is not None:
        assert not is_prime(n)
        return
    ten = ml.Solver(b, method="tensor")
    chase = ml.Solver(b, method="chase")
    assert ten.kernel_size == chase.kernel_size
    rng = np.random.default_rng(n)
    s = b.random_state(rng=rng)
    sol = ten.solve(s, minimal=False)
    assert not b.apply(s, sol.taps).any()
    s2 = rng.integers(0, n, size=b.shape)
    assert ten.solvable(s2) == chase.solvable(s2)
    many = ten.solve_many(np.stack([s, b.apply(s, np.ones(b.shape, int))]))
    assert not b.apply(s, many[0]).any()


def test_refusals():
    base = dict(rows=6, cols=6, states=2, pattern="square")
    for kw, words in [
        (dict(locked=[(0, 0)]), "locked tiles or holes"),
        (dict(holes=[(1, 1)]), "locked tiles or holes"),
        (dict(pattern=[["square"] * 6] * 5 + [["cross"] * 6]), "mixed"),
        (dict(pattern="cross"), "factor"),
        (dict(pattern="knight"), "factor"),
        (
            dict(states=4, pattern=[(-1, 0), (-1, 0), (0, 0), (1, 0), (1, 0)]),
            "neither end of the band",
        ),  # 2, 1, 2 mod 4
        (dict(pattern=[(0, 0), (0, 0)]), "multiples of n = 2"),
    ]:
        b = ml.Board.grid(**{**base, **kw})
        with pytest.raises(ValueError, match=words):
            ml.Solver(b, method="tensor")
        assert tensor_reason(b) is not None
    g = ml.Board.from_effects([[0, 1], [1]], 2)
    with pytest.raises(ValueError, match="grid board"):
        ml.Solver(g, method="tensor")
    with pytest.raises(ValueError, match="backend must be native"):
        ml.Solver(ml.Board.grid(6, 6, pattern="square"), backend="reference", method="tensor")


def test_auto_routing():
    from modlights.engines.registry import CROSSOVER_TILES

    # past its crossover with the chase and the chase's with the dense engines
    TENSOR_MIN_TILES = max(CROSSOVER_TILES["tensor"], CROSSOVER_TILES["chase"])
    side = int(TENSOR_MIN_TILES**0.5) + 1
    assert ml.Solver(ml.Board.grid(side, side, 2, "square")).method == "tensor"
    assert ml.Solver(ml.Board.grid(side, side, 3, "square", wrap=True)).method == "tensor"
    assert ml.Solver(ml.Board.grid(side, side, 2, "cross")).method == "algebraic"
    assert ml.Solver(ml.Board.grid(side, side, 2, "vertical")).method == "tensor"  # faster
    assert ml.Solver(ml.Board.grid(5, 5, 2, "square")).method == "dense"
    locked = ml.Board.grid(side, side, 2, "square", locked=[(0, 0)])
    assert ml.Solver(locked).method != "tensor"


def test_pickles_and_large_inverse_refused():
    b = ml.Board.grid(3000, 3000, states=3, pattern="square")
    s = ml.Solver(b, method="tensor")
    assert s.det() == TensorEngine(b).det()
    with pytest.raises(ValueError, match="too large|large"):
        s.inverse()
    small = ml.Board.grid(7, 6, states=5, pattern="square", wrap=True)
    t = ml.Solver(small, method="tensor")
    st_ = small.random_state(rng=3)
    x = t.solve(st_, minimal=False)
    t2 = pickle.loads(pickle.dumps(t))
    assert t2.method == "tensor"
    assert np.array_equal(t2.solve(st_, minimal=False).taps, x.taps)
    inv = t.inverse() if t.is_invertible else None
    if inv is not None:
        A = small.matrix().astype(np.int64)
        assert ((A @ inv.astype(np.int64)) % 5 == np.eye(42, dtype=np.int64)).all()


def test_large_gf2_square_kernel_not_built():
    """5000-wide singular boards: nullity from the factors, solve without a basis."""
    b = ml.Board.grid(500, 5000, states=2, pattern="square")  # 5000 = 2 mod 3
    s = ml.Solver(b, method="tensor")
    assert s.nullity == 500 * 1 + 5000 * 1 - 1  # 500 = 2 mod 3 too
    st_ = b.random_state(rng=1)
    sol = s.solve(st_)
    assert not sol.proven_minimal
    assert not b.apply(st_, sol.taps).any()
    with pytest.raises(ValueError, match="GiB"):
        s.kernel()


@pytest.mark.heavy  # 2 CPU s: a bench table (the CLI's bench has its test in tests/cli)
def test_bench_method_tensor(capsys, monkeypatch):
    """``modlights bench --pattern square --method tensor`` times the tensor engine (every
    answer checked inside bench_large); a board it does not cover exits 2, one line."""
    from modlights.cli import main
    from modlights.solver_native import NativeSolver

    seen = []
    real = NativeSolver._cask

    def spy(self, question, *args):  # the C solver's solves, by the plan's engine
        if question.startswith("solve") and self.plan.engine == "tensor":
            seen.append(self.n)
        return real(self, question, *args)

    monkeypatch.setattr(NativeSolver, "_cask", spy)
    assert (
        main(
            [
                "bench",
                "--sizes",
                "64",
                "--states",
                "2,3",
                "--pattern",
                "square",
                "--repeats",
                "1",
                "--quiet",
                "--method",
                "tensor",
                "--json",
            ]
        )
        == 0
    )
    rows = __import__("json").loads(capsys.readouterr().out)
    assert [(r["board"], r["n"], r["pattern"]) for r in rows] == [
        ("64x64", 2, "square"),
        ("64x64", 3, "square"),
    ]
    assert seen == [2, 3]
    assert (
        main(["bench", "--sizes", "20", "--repeats", "1", "--quiet", "--method", "tensor"]) == 2
    )  # cross: no product
    err = capsys.readouterr().err
    assert "factor" in err and len(err.strip().splitlines()) == 1


def test_giant_board_analysed_from_the_factors():
    """A 100000 x 100000 square board (past MAX_TILES): nullity and det from the two
    factors (T_k over GF(2) is singular exactly when k = 2 mod 3); solve_packed checks
    its input's shape before anything large (packed solving itself:
    tests/test_packed_engines.py, on 12000 x 12000)."""
    b = ml.Board.grid(100000, 100000, states=2, pattern="square")
    s = ml.Solver(b)
    assert s.method == "tensor"
    assert s.nullity == 0 and s.det() == 1  # 100000 = 1 mod 3
    b2 = ml.Board.grid(100001, 99998, states=2, pattern="square")  # both 2 mod 3
    s2 = ml.Solver(b2, method="tensor")
    assert s2.nullity == 100001 + 99998 - 1 and s2.det() == 0
    assert s2.kernel_size == 2**s2.nullity
    packed = np.zeros((100001, (99998 + 7) // 8), np.uint8)[:1]
    with pytest.raises(ValueError):
        s2.solve_packed(packed)
    assert s._packed_engine() is s._engine  # packed, never unpacked
    with pytest.raises(ValueError, match="tensor engine, which does not either"):
        ml.Solver(ml.Board.grid(100000, 100000, states=2, pattern="knight"))


@pytest.mark.parametrize(
    "n, shape", [(6, (8, 11)), (10, (5, 7)), (6, (11, 7)), (15, (8, 5)), (6, (7, 7))]
)
def test_composite_split_by_crt(n, shape):
    """Squarefree composite n with a factor singular mod some p | n: each prime part is
    solved over its field and the parts combined by CRT; kernel_size, solvability,
    det and the kernel's group as the reference engine says."""
    b = ml.Board.grid(*shape, states=n, pattern="square")
    assert tensor_reason(b) is None
    ten = ml.Solver(b, method="tensor")
    ref = ml.Solver(b, backend="reference")
    assert ten.kernel_size == ref.kernel_size
    assert ten.nullity == ref.nullity
    assert ten.det() == ref.det()
    A = b.matrix().astype(np.int64)
    assert ((A @ ten.kernel().T.astype(np.int64)) % n == 0).all()
    rng = np.random.default_rng(n)
    for solvable in (True, False, False):
        s = b.random_state(rng=rng, solvable=solvable)
        assert ten.solvable(s) == ref.solvable(s)
        if ref.solvable(s):
            assert not b.apply(s, ten.solve(s, minimal=False).taps).any()
    # a prime power that is singular mod p (T_8 over Z/4): a ring part, not refused
    b12 = ml.Board.grid(8, 8, states=12, pattern="square")
    t12 = ml.Solver(b12, method="tensor")
    assert t12.kernel_size == ml.Solver(b12, backend="reference").kernel_size


def test_composite_split_medium_board():
    """300 x 200 Z/6 square (T_200 is singular mod 2 and mod 3): tensor against the chase."""
    b = ml.Board.grid(300, 200, states=6, pattern="square")
    ten = ml.Solver(b, method="tensor")
    chase = ml.Solver(b, method="chase")
    assert ten.kernel_size == chase.kernel_size == 6**300
    rng = np.random.default_rng(6)
    s = b.random_state(rng=rng)
    assert not b.apply(s, ten.solve(s, minimal=False).taps).any()
    s2 = rng.integers(0, 6, size=b.shape)
    assert ten.solvable(s2) == chase.solvable(s2)


# ---------------------------------------------------------------- composite n, threads, Ctrl-C
@st.composite
def tensor_boards(draw):
    """Product-pattern boards the tensor engine covers: composite n with several prime
    powers (9, 10, 12, 25, 255), tiny sides on tori, repeated offsets (counts > 1)."""
    n = draw(st.sampled_from([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 25, 255]))
    if draw(st.booleans()):
        pattern = draw(st.sampled_from(["square", "horizontal", "vertical"]))
    else:
        a = draw(st.dictionaries(st.integers(-3, 3), st.integers(1, 3), min_size=1, max_size=3))
        b = draw(st.dictionaries(st.integers(-3, 3), st.integers(1, 2), min_size=1, max_size=3))
        pattern = [(dr, dc) for dr, ca in a.items() for dc, cb in b.items() for _ in range(ca * cb)]
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 6))
    wrap = draw(st.booleans())
    board = ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=wrap)
    return board, draw(st.integers(0, 2**32 - 1))


def _at_target(board, state, taps, target):
    end = board.apply(state, taps)
    return np.array_equal(
        end % board.states, np.broadcast_to(np.asarray(target) % board.states, board.shape)
    )


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(tensor_boards())
def test_tensor_equals_reference_on_more_moduli_and_repeated_offsets(case):
    """Kernel size, nullity, rank, det, inverse, pseudo-inverse, solvability, solutions
    (checked by Board.apply),
    the least length and its proved flag, the set of every solution, and a pickled
    copy: the tensor engine against the reference engine."""
    board, seed = case
    if tensor_reason(board) is not None:
        return
    rng = np.random.default_rng(seed)
    t = ml.Solver(board, method="tensor")
    ref = ml.Solver(board, backend="reference")
    for name in ("kernel_size", "nullity", "rank", "is_invertible", "is_unique"):
        assert getattr(t, name) == getattr(ref, name), name
    n = board.states
    A = board.matrix().astype(np.int64)
    assert t.det() == ref.det()  # a product board's A is square
    if ref.is_invertible:
        inv = t.inverse().astype(np.int64)
        assert np.array_equal(A @ inv % n, np.eye(len(A), dtype=np.int64))
    else:
        with pytest.raises(ValueError):
            t.inverse()
    try:
        G = t.pseudo_inverse().astype(np.int64)
    except ValueError:
        with pytest.raises(ValueError):
            ref.pseudo_inverse()
    else:
        assert np.array_equal(A @ G % n @ A % n, A % n)
    K = t.kernel().astype(np.int64)
    assert not (A @ K.T % n).any()
    copy = pickle.loads(pickle.dumps(t))
    for solvable in (True, False):
        state = board.random_state(rng=rng, solvable=solvable)
        target = rng.integers(0, n, board.shape) if rng.random() < 0.5 else 1
        assert t.solvable(state, target) == ref.solvable(state, target)
        if not ref.solvable(state, target):
            with pytest.raises(ml.Unsolvable):
                t.solve(state, target)
            continue
        sol = t.solve(state, target, minimal=False)
        assert _at_target(board, state, sol.taps, target)
        assert np.array_equal(copy.solve(state, target, minimal=False).taps, sol.taps)
        if ref.kernel_size <= 4096:
            mt, mr = t.solve(state, target), ref.solve(state, target)
            assert (mt.length, mt.proven_minimal) == (mr.length, mr.proven_minimal)
            assert _at_target(board, state, mt.taps, target)
        if ref.kernel_size <= 512:
            got = sorted(x.tobytes() for x in t.solutions(state, target))
            want = sorted(x.tobytes() for x in ref.solutions(state, target))
            assert got == want


def test_tensor_composite_generators_in_bytes():
    """Kernel generators over a composite n (CRT over the parts) are built in bytes:
    the peak stays a small multiple of the basis (k x taps bytes), not 8 bytes an
    entry; and they generate the kernel (orders multiply to kernel_size)."""
    side = 161  # 2 mod 3: singular mod 2, nullity 321
    board = ml.Board.grid(side, side, states=6, pattern="square")
    engine = TensorEngine(board)
    basis = engine.nullity * side * side
    tracemalloc.start()
    try:
        H, orders = engine.generators()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert H.dtype == np.uint8 and H.shape == (engine.nullity, side * side)
    assert peak < 3 * basis + (8 << 20), (peak, basis)
    assert np.prod([int(o) for o in orders], dtype=object) == engine.kernel_size
    for h in H[[0, -1]]:
        assert not board.apply(np.zeros(board.shape, np.uint8), h.reshape(side, side)).any()
    small = ml.Board.grid(5, 5, states=6, pattern="square")
    ref = ml.Solver(small, backend="reference")
    Hs, orders_s = TensorEngine(small).generators()
    assert np.prod(orders_s) == ref.kernel_size
    for h in Hs:
        assert not small.apply(np.zeros((5, 5), np.uint8), h.reshape(5, 5)).any()


def test_tensor_engines_from_threads():
    """Tensor solvers built and used from several threads at once (the web service's
    thread pool): more boards than the factor cache keeps, so threads evict each
    other's entries; every answer checked by Board.apply."""
    from concurrent.futures import ThreadPoolExecutor

    def work(i):
        n = (2, 3, 5, 6, 7)[i % 5]
        board = ml.Board.grid(48 + i % 7, 49 + i % 11, states=n, pattern="square", wrap=bool(i % 2))
        solver = ml.Solver(board)
        assert solver.method == "tensor"
        rng = np.random.default_rng(i)
        state = board.random_state(rng=rng)
        sol = solver.solve(state, minimal=False)
        return _at_target(board, state, sol.taps, 0)

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(work, range(48)))


@pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(),
    reason="signals reach the main thread only",
)
def test_interrupted_tensor_solve_stops_and_answers_afterwards():
    """Ctrl-C during tensor solves (the band chase runs in chunks, GIL released) stops
    within a second, and the same Solver (its factors shared through the cache) then
    gives right answers."""
    from test_interrupt import LATENCY, _interrupt_main_after

    board = ml.Board.grid(1500, 1500, states=3, pattern="square")
    solver = ml.Solver(board, method="tensor")
    state = board.random_state(rng=np.random.default_rng(6))
    timer = _interrupt_main_after(0.3)
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        for _ in range(1000):  # minutes: outlasts the timer
            solver.solve(state, minimal=False)
    assert time.perf_counter() - t0 < 0.3 + LATENCY
    timer.join()
    sol = solver.solve(state, minimal=False)
    assert not board.apply(state, sol.taps).any()
