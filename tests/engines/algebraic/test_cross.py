"""The C algebraic engines (csrc/engines/algebraic.c, torus.c) through the Engine
adapter (modlights.engines.native) against the chase, the dense reference
engine, brute-force checks by Board.apply and an independent pure-Python gcd."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine, covers


def algebraic_reason(b):
    """None when the C algebraic engine of b's kind (a torus or not) covers b."""
    return covers("algebraic-torus" if b.is_grid and b.wrap else "algebraic-cross", b)


def AlgebraicEngine(b):
    """The C algebraic engine of b's kind through the Engine adapter."""
    return NativeEngine(b, "algebraic-torus" if b.wrap else "algebraic-cross")


#: Every kind of covered pattern: cyclic T (cross, cross without centre, counts),
#: mirrored T (only (0,-1)), diagonal T (vertical), chased transposed (horizontal and
#: a pattern without (-1,0)).
COVERED = [
    "cross",
    "vertical",
    "horizontal",
    [(-1, 0), (1, 0), (0, -1), (0, 1)],
    [(0, 0), (-1, 0), (0, 1)],
    [(0, 0), (-1, 0), (0, -1)],
    [(-1, 0), (-1, 0), (0, 1), (1, 0), (0, 0), (0, 0)],
    [(0, -1), (0, 1), (1, 0)],
    [(-1, 0), (0, 1), (0, 1), (0, 1), (0, -1)],
]
PRIMES = [2, 3, 5, 7]


def _rank_mod(H: np.ndarray, n: int) -> int:
    """Rank of the rows of H over GF(n) by the reference engine."""
    if H.shape[0] == 0:
        return 0
    return ml.Solver(ml.Board.from_matrix(H, n), backend="reference").rank


@st.composite
def covered_boards(draw, max_side=10):
    n = draw(st.sampled_from(PRIMES))
    pattern = draw(st.sampled_from(COVERED))
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    b = ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=draw(st.booleans()))
    assume(algebraic_reason(b) is None)  # (counts of 2 are not units over GF(2))
    return b, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(covered_boards(), st.integers(0, 2))
def test_algebraic_equals_chase_and_dense(case, tkind):
    b, seed = case
    n = b.states
    rng = np.random.default_rng(seed)
    assert algebraic_reason(b) is None
    alg = ml.Solver(b, method="algebraic")
    ref = ml.Solver(b, backend="reference")
    chase = NativeEngine(b, "chase")
    assert alg.engine.startswith("algebraic-")
    assert alg.nullity == ref.nullity == len(chase.generators()[1])
    assert alg.kernel_size == ref.kernel_size == chase.kernel_size
    assert alg.rank == ref.rank
    assert alg.det() == ml.Solver(b, method="dense").det()
    # kernel: in ker A, independent, as many as the nullity
    H = alg.kernel()
    assert H.shape == (alg.nullity, b.n_taps)
    for h in H:
        assert not b.apply_vector(h).any()
    assert _rank_mod(H, n) == alg.nullity
    target = [0, 1, rng.integers(0, n, size=b.shape)][tkind]
    for solvable in (True, False):
        s = b.random_state(rng=rng, solvable=solvable)
        ok = ref.solvable(s, target)
        assert alg.solvable(s, target) == ok
        if ok:
            sol = alg.solve(s, target, minimal=False)
            assert np.array_equal(b.apply(s, sol.taps), b.coerce_target(target))
            if alg.nullity == 0:
                assert np.array_equal(
                    sol.taps, ml.Solver(b, method="chase").solve(s, target, minimal=False).taps
                )
            best, rbest = alg.solve(s, target), ref.solve(s, target)
            assert np.array_equal(b.apply(s, best.taps), b.coerce_target(target))
            if best.proven_minimal and rbest.proven_minimal:
                assert best.length == rbest.length
        else:
            with pytest.raises(ml.Unsolvable):
                alg.solve(s, target)


@settings(max_examples=60, deadline=None)
@given(covered_boards(max_side=8), st.integers(0, 2**32 - 1))
def test_solve_many_names_unsolvable(case, seed2):
    b, seed = case
    rng = np.random.default_rng(seed ^ seed2)
    states = np.stack([b.random_state(rng=rng, solvable=bool(i % 2)) for i in range(5)])
    alg = ml.Solver(b, method="algebraic")
    ref = ml.Solver(b, backend="reference")
    ok = ref.solvable_many(states)
    assert np.array_equal(alg.solvable_many(states), ok)
    if ok.all():
        X = alg.solve_many(states)
        for s, x in zip(states, X):
            assert not b.apply(s, x).any()
    else:
        with pytest.raises(ml.Unsolvable) as e:
            alg.solve_many(states)
        assert e.value.indices == tuple(int(i) for i in np.flatnonzero(~ok))


# k x k cross boards over GF(2) with a non-trivial kernel (A159257 non-zero), and
# rectangles with one
SINGULAR = [
    (4, 4),
    (5, 5),
    (9, 9),
    (11, 11),
    (16, 16),
    (17, 17),
    (19, 19),
    (23, 23),
    (30, 30),
    (4, 9),
    (5, 11),
    (14, 29),
]


@pytest.mark.parametrize("shape", SINGULAR)
def test_singular_sizes_solvable_and_not(shape):
    b = ml.Board.grid(*shape)
    alg = ml.Solver(b, method="algebraic")
    assert alg.nullity > 0
    rng = np.random.default_rng(sum(shape))
    s = b.random_state(rng=rng)
    sol = alg.solve(s, minimal=False)
    assert not b.apply(s, sol.taps).any()
    # an unsolvable start: a solvable one with one tile changed, when that leaves the image
    ref = ml.Solver(b, method="dense")  # the native GF(2) elimination
    for r in range(shape[0]):
        t = b.press(s, (0, 0))
        t[r, shape[1] - 1] ^= 1
        if not ref.solvable(t):
            assert not alg.solvable(t)
            with pytest.raises(ml.Unsolvable):
                alg.solve(t)
            break
    else:
        pytest.fail("no unsolvable start found")


@pytest.mark.parametrize("n", [3, 5, 7])
def test_singular_sizes_over_gfp(n):
    """Square cross boards over GF(n) with a kernel: solvable starts solved, starts off
    the image refused, against the reference engine."""
    found = 0
    for k in range(2, 25):
        b = ml.Board.grid(k, k, states=n)
        alg = ml.Solver(b, method="algebraic")
        if alg.nullity == 0:
            continue
        ref = ml.Solver(b, backend="reference") if k <= 12 else None
        if ref is not None:
            assert ref.nullity == alg.nullity
        found += 1
        rng = np.random.default_rng(k)
        s = b.random_state(rng=rng)
        assert not b.apply(s, alg.solve(s, minimal=False).taps).any()
        u = b.random_state(rng=rng, solvable=False)
        if ref is not None:
            assert alg.solvable(u) == ref.solvable(u)
        if not alg.solvable(u):
            with pytest.raises(ml.Unsolvable):
                alg.solve(u)
    assert found >= 2


# ---------------------------------------------------------------- independent nullity
def _gf2_cheb(k: int) -> int:
    """p_k over GF(2) as an int: p_0 = 1, p_1 = x, p_{i+1} = x p_i + p_{i-1}."""
    a, b = 0, 1
    for _ in range(k):
        a, b = b, (b << 1) ^ a
    return b


def _gf2_shift_arg(f: int) -> int:
    """f(x + 1) over GF(2)."""
    out, power = 0, 1
    while f:
        if f & 1:
            out ^= power
        f >>= 1
        power ^= power << 1
    return out


def _gf2_gcd_degree(a: int, b: int) -> int:
    while b:
        db = b.bit_length()
        while a.bit_length() >= db:
            a ^= b << (a.bit_length() - db)
        a, b = b, a
    return a.bit_length() - 1


def gf2_cross_nullity(h: int, w: int) -> int:
    """deg gcd(p_h(x), p_w(x + 1)): the h x w GF(2) cross board's nullity, computed
    here from the Chebyshev-like recurrences alone (pure Python)."""
    return _gf2_gcd_degree(_gf2_cheb(h), _gf2_shift_arg(_gf2_cheb(w)))


def _gfp_trim(a):
    while a and a[-1] == 0:
        a.pop()
    return a


def _gfp_gcd_degree(a, b, p):
    a, b = _gfp_trim(list(a)), _gfp_trim(list(b))
    while b:
        inv = pow(b[-1], p - 2, p)
        while len(a) >= len(b):
            c, k = a[-1] * inv % p, len(a) - len(b)
            for i, v in enumerate(b):
                a[i + k] = (a[i + k] - c * v) % p
            _gfp_trim(a)
        a, b = b, a
    return len(a) - 1


def gfp_cross_nullity(h: int, w: int, p: int) -> int:
    """Over GF(p): T = -tridiag(1, 1, 1), chi_T(x) = D_w(x + 1) with D_{j+1}(y) =
    y D_j - D_{j-1}; F = P_h with P_{i+1} = x P_i - P_{i-1}; nullity = deg gcd."""

    def cheb(k, c0):
        a, b = [], [1]
        for _ in range(k):
            nxt = [0] + b  # x * b
            nxt[0] = (nxt[0] + c0 * b[0]) % p if b else nxt[0]
            for i in range(1, len(b)):
                nxt[i] = (nxt[i] + c0 * b[i]) % p
            for i, v in enumerate(a):
                nxt[i] = (nxt[i] - v) % p
            a, b = b, [v % p for v in nxt]
        return b

    return _gfp_gcd_degree(cheb(h, 0), cheb(w, 1), p)


def test_independent_nullity_matches_reference():
    """The pure-Python formulas themselves, checked against the reference engine."""
    for h, w in [(4, 4), (5, 5), (5, 11), (9, 9), (7, 3), (11, 11)]:
        assert (
            gf2_cross_nullity(h, w) == ml.Solver(ml.Board.grid(h, w), backend="reference").nullity
        )
    for p in (3, 5, 7):
        for h, w in [(2, 2), (3, 5), (4, 4), (8, 8), (6, 10), (11, 11)]:
            assert (
                gfp_cross_nullity(h, w, p)
                == ml.Solver(ml.Board.grid(h, w, states=p), backend="reference").nullity
            )


def _check_nullities(ks):
    for k in ks:
        assert ml.Solver(ml.Board.grid(k, k), method="algebraic").nullity == gf2_cross_nullity(
            k, k
        ), k


def test_nullity_squares_gf2_up_to_200():
    _check_nullities(range(1, 201))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300))
def test_nullity_rectangles_gf2(h, w):
    assert ml.Solver(ml.Board.grid(h, w), method="algebraic").nullity == gf2_cross_nullity(h, w)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([3, 5, 7]), st.integers(1, 60), st.integers(1, 60))
def test_nullity_rectangles_gfp(p, h, w):
    assert ml.Solver(
        ml.Board.grid(h, w, states=p), method="algebraic"
    ).nullity == gfp_cross_nullity(h, w, p)


#: GF(p) boards past the fast paths' thresholds (csrc/poly/poly.h, structured/rowrec.h):
#: chi and F by doubling from 384 columns, the half-gcd from 192 coefficients, transform
#: products from 512; (h, w, p, the nullity by gfp_cross_nullity).
GFP_PAST_THRESHOLDS = [
    (404, 404, 3, 202),
    (389, 389, 5, 106),
    (391, 391, 7, 97),
    (1000, 1000, 3, 18),
    (2000, 420, 5, None),
]


@pytest.mark.parametrize("h, w, p, null", GFP_PAST_THRESHOLDS)
def test_nullity_gfp_past_the_fast_thresholds(h, w, p, null):
    """The C engine's doubling, transform products and half-gcd against the pure-Python
    recurrences and Euclid (gfp_cross_nullity), with nullities far from 0."""
    got = ml.Solver(ml.Board.grid(h, w, states=p), method="algebraic").nullity
    want = gfp_cross_nullity(h, w, p)
    assert got == want
    if null is not None:
        assert want == null


@pytest.mark.parametrize(
    "p, pattern",
    [
        (3, [(0, 0), (0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (0, 1)]),
        (5, [(-1, 0), (1, 0), (1, 0), (0, -1), (0, 1), (0, 0)]),
        (7, [(0, 0), (-1, 0), (0, 1)]),
    ],
)
def test_gfp_counts_past_the_fast_thresholds_against_the_chase(p, pattern):
    """Other counts (other t0, mu, r s of the recurrences) on 384..450-column boards:
    the nullity and solvability as the chase's, and a solution (the fast xgcd's
    cofactor) that Board.apply confirms."""
    rng = np.random.default_rng(p)
    for _ in range(2):
        h, w = (int(v) for v in rng.integers(384, 450, size=2))
        b = ml.Board.grid(h, w, states=p, pattern=pattern)
        alg, chase = ml.Solver(b, method="algebraic"), ml.Solver(b, method="chase")
        assert alg.plan.engine == "algebraic-cross"
        assert alg.nullity == chase.nullity
        for solvable in (True, False):
            s = b.random_state(rng=rng, solvable=solvable)
            ok = chase.solvable(s)
            assert alg.solvable(s) == ok and (ok or not solvable)
            if ok:
                sol = alg.solve(s, minimal=False)
                assert np.array_equal(b.apply(s, sol.taps), b.coerce_target(0))


@pytest.mark.slow
def test_nullity_squares_gf2_up_to_2000():
    _check_nullities(range(201, 2001))


# ---------------------------------------------------------------- packed path
@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from([p for p in COVERED]),
    st.integers(1, 12),
    st.integers(1, 300),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2),
)
@example("vertical", 3, 1, 1690, 0)  # a torus with a kernel: packed and byte routes differ
def test_packed_equals_unpacked(pattern, rows, cols, seed, tkind):
    b = ml.Board.grid(rows, cols, pattern=pattern, wrap=bool(seed % 5 == 0))
    assume(algebraic_reason(b) is None)
    rng = np.random.default_rng(seed)
    s = b.random_state(rng=rng, solvable=bool(seed % 3))
    target = [0, 1, rng.integers(0, 2, size=b.shape).astype(np.uint8)][tkind]
    pt = target if tkind < 2 else np.packbits(target, axis=1)
    alg = ml.Solver(b, method="algebraic")
    packed = np.packbits(s, axis=1)
    if cols % 8:  # bits past the board are ignored
        packed[:, -1] |= np.uint8((1 << (8 - cols % 8)) - 1)
    if not alg.solvable(s, target):
        with pytest.raises(ml.Unsolvable):
            alg.solve_packed(packed, pt)
        return
    x = alg.solve_packed(packed, pt)
    assert x.shape == packed.shape and x.dtype == np.uint8
    if cols % 8:
        assert not (x[:, -1] & np.uint8((1 << (8 - cols % 8)) - 1)).any()
    taps = np.unpackbits(x, axis=1, count=cols)
    assert np.array_equal(b.apply(s, taps), b.coerce_target(target))
    if alg.kernel_size == 1 or not b.wrap:
        # the same particular solution (a torus's packed solve takes the tensor engine's
        # route, its byte solve the torus engine's: with a kernel they may differ by it)
        assert np.array_equal(taps, alg.solve(s, target, minimal=False).taps)
    # the other engines' boards take the unpacked detour and give a solution too
    d = ml.Solver(b, method="dense").solve_packed(packed, pt)
    assert np.array_equal(b.apply(s, np.unpackbits(d, axis=1, count=cols)), b.coerce_target(target))


@pytest.mark.parametrize("pattern", [p for p in COVERED if p != "horizontal"])
@pytest.mark.parametrize("cols", [63, 64, 65, 128, 200, 257])
def test_packed_wide_rows(pattern, cols):
    """Rows of several 64-bit words (the packed chase's word loop and its tail), every
    pattern kind (asymmetric ones tell the two shift directions apart)."""
    b = ml.Board.grid(6, cols, pattern=pattern)
    if algebraic_reason(b) is not None:
        return
    alg = ml.Solver(b, method="algebraic")
    s = b.random_state(rng=cols)
    x = alg.solve_packed(np.packbits(s, axis=1))
    assert not b.apply(s, np.unpackbits(x, axis=1, count=cols)).any()
    assert np.array_equal(np.unpackbits(x, axis=1, count=cols), alg.solve(s, minimal=False).taps)


def test_solve_packed_errors():
    b = ml.Board.grid(5, 12)
    s = ml.Solver(b)
    good = np.zeros((5, 2), np.uint8)
    for bad in (
        np.zeros((5, 12), np.uint8),
        np.zeros((5, 2), np.int64),
        [[0, 0]] * 5,
        np.zeros((4, 2), np.uint8),
    ):
        with pytest.raises(ValueError, match="packbits"):
            s.solve_packed(bad)
    with pytest.raises(ValueError, match="target"):
        s.solve_packed(good, np.zeros((5, 12), np.uint8))
    with pytest.raises(ValueError, match="n = 2"):
        ml.Solver(ml.Board.grid(5, 12, states=3)).solve_packed(good)
    with pytest.raises(ValueError, match="graph"):
        ml.Solver(ml.Board.from_effects([[0]], 2)).solve_packed(good)
    assert not s.solve_packed(good).any()


# ---------------------------------------------------------------- routing, refusals
def test_routing_and_refusals():
    from modlights.engines.registry import CROSSOVER_TILES

    assert ml.Solver(ml.Board.grid(30, 30)).method == "algebraic"
    # 1-D patterns: the tensor engine covers them too and is faster (engine-costs' order)
    assert ml.Solver(ml.Board.grid(30, 30, states=7, pattern="vertical")).method == "tensor"
    assert ml.Solver(ml.Board.grid(30, 30, states=4)).method == "lifted"  # ring
    assert ml.Solver(ml.Board.grid(100, 100, wrap=True)).method == "algebraic"  # torus
    small = int(CROSSOVER_TILES["algebraic-torus"] ** 0.5) - 1  # a torus below its crossover
    assert small * small >= CROSSOVER_TILES["chase"]
    assert ml.Solver(ml.Board.grid(small, small, wrap=True)).method == "chase"
    assert ml.Solver(ml.Board.grid(30, 30, wrap=True, pattern="square")).method == "tensor"
    assert ml.Solver(ml.Board.grid(5, 5)).method == "dense"
    cases = [
        (ml.Board.grid(6, 6, states=4), "prime"),
        (ml.Board.grid(5, 5, pattern="square"), "offsets"),  # 6 x 6: the symmetric case
        (ml.Board.grid(6, 6, locked=[(1, 1)]), "locked"),
        (ml.Board.grid(6, 6, holes=[(1, 1)]), "holes"),
        (ml.Board.grid(2, 2, wrap=True), "torus at least 3"),
        (ml.Board.grid(2, 2, pattern=[["cross", "vertical"], ["cross", "cross"]]), "mixed"),
        (ml.Board.grid(6, 6, pattern=[(0, 0), (1, 0), (0, 1)]), "unit"),
        (ml.Board.grid(6, 6, states=3, pattern=[(-1, 0)] * 3 + [(0, -1)] * 3), "unit"),
        (ml.Board.from_effects([[0]], 2), "grid"),
    ]
    for board, word in cases:
        with pytest.raises(ValueError, match=word):
            ml.Solver(board, method="algebraic")
        with pytest.raises(ValueError, match="does not cover"):
            AlgebraicEngine(board)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_torus_nullity_against_the_chase(n):
    """Tori larger than the dense tests reach: the chase's residual elimination is the
    independent check (it handles the wrap with its own tap lists)."""
    for h, w in [(31, 31), (40, 24), (24, 40), (45, 45), (62, 18), (3, 50)]:
        b = ml.Board.grid(h, w, states=n, wrap=True)
        s = ml.Solver(b, method="algebraic")
        assert s.kernel_size == NativeEngine(b, "chase").kernel_size, (h, w)


@pytest.mark.heavy  # 4 CPU s: the nullity of a 100000 x 100000 torus
def test_torus_giant_nullity_fast():
    import time

    t = time.perf_counter()
    assert ml.Solver(ml.Board.grid(100000, 100000, wrap=True)).nullity == 256
    assert time.perf_counter() - t < 20  # ~0.7 s on an idle core


def test_inverse_small_and_refused_large():
    b = ml.Board.grid(6, 6, states=3)
    s = ml.Solver(b, method="algebraic")
    A = b.matrix().astype(np.int64)
    inv = s.inverse().astype(np.int64)
    assert np.array_equal(A @ inv % 3, np.eye(36, dtype=np.int64))
    with pytest.raises(ValueError, match="large"):
        ml.Solver(ml.Board.grid(200, 200, states=3)).inverse()


def test_engine_pickles():
    import copy
    import pickle

    b = ml.Board.grid(30, 30, states=5)
    eng = ml.Solver(b)._engine
    st0 = b.random_state(rng=4)
    x = eng.solve(b._rhs_cells(st0, 0)[None, :])[0]
    for e2 in (pickle.loads(pickle.dumps(eng)), copy.deepcopy(eng)):
        assert e2.nullity == eng.nullity
        assert np.array_equal(e2.solve(b._rhs_cells(st0, 0)[None, :])[0], x)


def test_giant_board_nullity_and_refusals():
    b = ml.Board.grid(100000, 100000)
    s = ml.Solver(b)
    assert s.method == "algebraic"
    assert s.nullity == 0 and s.rank == 10**10 and s.is_unique and s.det() == 1
    with pytest.raises(ValueError, match="GiB"):
        s.solve(np.zeros((2, 2), np.uint8))
    with pytest.raises(ValueError, match="GiB"):
        b.random_state()


def test_giant_uncovered_boards_refused_at_once():
    import time

    t = time.perf_counter()
    # (square is a product pattern: the tensor engine analyses it, see test_tensor.py)
    for board in (
        ml.Board.grid(20000, 20000, pattern="knight"),
        ml.Board.grid(20000, 20000, states=4),
    ):
        with pytest.raises(ValueError, match="only by the algebraic engine"):
            ml.Solver(board)
    with pytest.raises(ValueError, match="only by the algebraic engine"):
        ml.Solver(ml.Board.grid(20000, 20000), method="chase")
    assert time.perf_counter() - t < 1


def test_cli_info_giant():
    out = subprocess.run(
        [sys.executable, "-m", "modlights", "info", "--grid", "12000x12000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    null = [ln for ln in out.stdout.splitlines() if ln.startswith("nullity")]
    assert null and int(null[0].split()[1]) == gf2_cross_nullity(12000, 12000)
    assert "algebraic" in out.stdout


@pytest.mark.heavy  # 1.6 s: a subprocess factoring a 300 x 300 board; the default run
# keeps the packed solves' own tests here
def test_cli_bench_packed():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "modlights",
            "bench",
            "--sizes",
            "300,40x70",
            "--packed",
            "--repeats",
            "1",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "300x300" in out.stdout and "40x70" in out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "modlights", "bench", "--sizes", "300", "--packed", "--states", "3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "states 2" in bad.stderr


@pytest.mark.slow
def test_giant_nullity_against_python():
    k = 100000
    assert ml.Solver(ml.Board.grid(k, k)).nullity == gf2_cross_nullity(k, k)
