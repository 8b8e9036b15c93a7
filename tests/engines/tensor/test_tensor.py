"""The tensor engine (engines/tensor.py) against the dense reference engine, the chase,
brute force, Board.apply and an independent rank computation of the offset counts."""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.chase.engine import ChaseEngine, chase_supports
from modlights.engines.tensor.band import BandFactor
from modlights.engines.tensor.engine import TensorEngine, factor_pattern, tensor_reason
from modlights.model.ring import is_prime

from oracle import BruteForce

#: Patterns whose counts factor: named ones and products of a row and a column set.
PRODUCTS = [
    "square", "horizontal", "vertical",
    [(dr, dc) for dr in (-1, 1) for dc in (-2, 0, 1)],           # no centre
    [(dr, dc) for dr in (0, 1) for dc in (0, 1)],                # 2 x 2 block
    [(dr, dc) for dr in (-1, 0, 0, 1) for dc in (-1, 0, 1)],     # a(0) = 2
    [(-2, 0), (-2, 1)],                                          # one row, shifted
    [(dr, dc) for dr in (-2, 2) for dc in (-1, 1, 1)],           # b(1) = 2
    [(1, 0)],                                                    # a pure shift
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


# ---------------------------------------------------------------- the factorisation
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=1, max_size=9))
def test_factor_pattern_exact(offsets):
    """Counts factor iff their matrix has rank 1 (an independent rank computation);
    a factorisation found reproduces every count exactly."""
    counts = _counts(offsets)
    M = np.zeros((5, 5))
    for (dr, dc), k in counts.items():
        M[dr + 2, dc + 2] = k
    fac = factor_pattern(offsets)
    assert (fac is not None) == (np.linalg.matrix_rank(M) == 1)
    if fac is not None:
        a, b = fac
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                assert a.get(dr, 0) * b.get(dc, 0) == counts.get((dr, dc), 0)


def test_factor_pattern_named():
    assert factor_pattern(ml.PATTERNS["square"]) == ({-1: 1, 0: 1, 1: 1}, {-1: 1, 0: 1, 1: 1})
    assert factor_pattern(ml.PATTERNS["vertical"]) == ({-1: 1, 0: 1, 1: 1}, {0: 1})
    assert factor_pattern(ml.PATTERNS["horizontal"]) == ({0: 1}, {-1: 1, 0: 1, 1: 1})
    for name in ("cross", "diagonal", "knight"):
        assert factor_pattern(ml.PATTERNS[name]) is None
    assert factor_pattern([]) is None


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.integers(-3, 3), st.integers(1, 4), min_size=1, max_size=4),
       st.integers(1, 9), st.sampled_from(SMALL_N), st.booleans(), st.integers(0, 2**32 - 1))
def test_band_factor_generalised_inverse(coeffs, length, n, wrap, seed):
    """Each 1-D factor: F G F = F (G from apply_ginv on the identity), ok exactly when
    the column is in the image (brute force over the reference engine), det."""
    F = np.zeros((length, length), np.int64)
    for j in range(length):
        for d, c in coeffs.items():
            i = j + d
            if wrap:
                F[i % length, j] += c
            elif 0 <= i < length:
                F[i, j] += c
    F %= n
    try:
        f = BandFactor(coeffs, length, n, wrap)
    except ValueError as e:
        assert "n =" in str(e)
        assert not F.any() or not is_prime(n)
        return
    ref = ml.Solver(ml.Board.from_matrix(F.astype(np.uint8), n), backend="reference")
    if f.ring:
        # n = p^k singular mod p: ker F = S ker M, no G (the engine solves by blocks)
        assert not is_prime(n) and ref.kernel_size > 1
        assert ref.nullity == f.nullity and ref.det() == f.det()
        with pytest.raises(ValueError, match="no generalised inverse"):
            f.apply_ginv(np.eye(length, dtype=np.uint8))
        return
    G, ok = f.apply_ginv(np.eye(length, dtype=np.uint8))
    assert ((F @ G.astype(np.int64) @ F - F) % n == 0).all()
    assert ref.nullity == f.nullity
    assert ref.det() == f.det()
    rng = np.random.default_rng(seed)
    B = rng.integers(0, n, (length, 4)).astype(np.uint8)
    B[:, 0] = F @ rng.integers(0, n, length) % n              # in the image
    Y, ok = f.apply_ginv(B)
    for j in range(4):
        assert ok[j] == ref.solvable(B[:, j])
        if ok[j]:
            assert ((F @ Y[:, j].astype(np.int64) - B[:, j]) % n == 0).all()
    U, piv = f.kernel_basis()
    if is_prime(n):
        assert len(U) == f.nullity
        assert (U[:, piv] == np.eye(len(U), dtype=np.uint8)).all()
        assert ((F @ U.T.astype(np.int64)) % n == 0).all()


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
    if not is_prime(n) and ten.kernel_size > 1:
        # split by CRT: the kernel comes from a field part (k = 1) or a ring part
        # (k > 1, a factor singular mod p)
        eng = ten._engine
        assert any(r is not None for r in eng._rings) or \
            any(is_prime(q) for q, _, _, _ in eng._parts)
    assert ten.det() == ref.det()
    chase = ChaseEngine(b) if chase_supports(b) else None
    target = {"zero": 0, "one": 1,
              "array": rng.integers(0, n, size=b.shape)}[tkind]
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
        span = {tuple(np.asarray(c, np.int64) @ H.astype(np.int64) % n)
                for c in itertools.product(*[range(o) for o in ten.kernel_orders])}
        assert len(span) == ten.kernel_size
    if n ** b.n_taps <= 5000:
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
@pytest.mark.parametrize("pattern", ["square", "vertical", "horizontal",
                                     [(dr, dc) for dr in (-1, 1) for dc in (-2, 0, 1)]])
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
            (dict(states=4, pattern=[(-1, 0), (-1, 0), (0, 0), (1, 0), (1, 0)]),
             "neither end of the band"),                          # 2, 1, 2 mod 4
            (dict(pattern=[(0, 0), (0, 0)]), "multiples of n = 2")]:
        b = ml.Board.grid(**{**base, **kw})
        with pytest.raises(ValueError, match=words):
            ml.Solver(b, method="tensor")
        assert tensor_reason(b) is not None
    g = ml.Board.from_effects([[0, 1], [1]], 2)
    with pytest.raises(ValueError, match="grid board"):
        ml.Solver(g, method="tensor")
    with pytest.raises(ValueError, match="backend must be native"):
        ml.Solver(ml.Board.grid(6, 6, pattern="square"), backend="reference",
                  method="tensor")


def test_auto_routing():
    from modlights.solver import TENSOR_MIN_TILES
    side = int(TENSOR_MIN_TILES ** 0.5) + 1
    assert ml.Solver(ml.Board.grid(side, side, 2, "square")).method == "tensor"
    assert ml.Solver(ml.Board.grid(side, side, 3, "square", wrap=True)).method == "tensor"
    assert ml.Solver(ml.Board.grid(side, side, 2, "cross")).method == "algebraic"
    assert ml.Solver(ml.Board.grid(side, side, 2, "vertical")).method == "algebraic"
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
    b = ml.Board.grid(500, 5000, states=2, pattern="square")    # 5000 = 2 mod 3
    s = ml.Solver(b, method="tensor")
    assert s.nullity == 500 * 1 + 5000 * 1 - 1                 # 500 = 2 mod 3 too
    st_ = b.random_state(rng=1)
    sol = s.solve(st_)
    assert not sol.proven_minimal
    assert not b.apply(st_, sol.taps).any()
    with pytest.raises(ValueError, match="GiB"):
        s.kernel()


def test_bench_method_tensor(capsys, monkeypatch):
    """``modlights bench --pattern square --method tensor`` times the tensor engine (every
    answer checked inside bench_large); a board it does not cover exits 2, one line."""
    from modlights.cli import main
    seen = []
    real = TensorEngine.solve

    def spy(self, R):
        seen.append(self.n)
        return real(self, R)
    monkeypatch.setattr(TensorEngine, "solve", spy)
    assert main(["bench", "--sizes", "64", "--states", "2,3", "--pattern", "square",
                 "--repeats", "1", "--quiet", "--method", "tensor", "--json"]) == 0
    rows = __import__("json").loads(capsys.readouterr().out)
    assert [(r["board"], r["n"], r["pattern"]) for r in rows] == [
        ("64x64", 2, "square"), ("64x64", 3, "square")]
    assert seen == [2, 3]
    assert main(["bench", "--sizes", "20", "--repeats", "1", "--quiet",
                 "--method", "tensor"]) == 2                 # cross: no product
    err = capsys.readouterr().err
    assert "factor" in err and len(err.strip().splitlines()) == 1


def test_band_bindings_check_their_arguments():
    """csrc/band.c through _band.pyx: the tiled transpose equals NumPy's (reversed views
    too), and malformed step programs are ValueErrors before any C runs."""
    from modlights._band import band_chase, transpose
    rng = np.random.default_rng(5)
    for shape in [(1, 1), (3, 130), (129, 65), (200, 7)]:
        A = rng.integers(0, 256, shape).astype(np.uint8)
        for view in (A, A[::-1]):
            out = np.empty(shape[::-1], np.uint8)
            transpose(view, out)
            assert np.array_equal(out, view.T)
    with pytest.raises(ValueError, match="out is"):
        transpose(np.zeros((2, 3), np.uint8), np.zeros((2, 3), np.uint8))
    with pytest.raises(ValueError, match="contiguous"):
        transpose(np.zeros((4, 4), np.uint8)[:, ::2], np.zeros((2, 4), np.uint8))
    B = np.zeros((4, 3), np.uint8)
    Y = np.zeros((4, 3), np.uint8)
    rows = np.arange(4, dtype=np.int64)
    refs = np.full((4, 1), -1, np.int64)
    coefs = np.zeros((4, 1), np.uint32)
    lut = np.zeros(0, np.uint8)
    band_chase(B, Y, rows, rows, refs, coefs, 3, 1, 0, 4, lut)
    for bad, words in [
            (dict(brow=rows + 1), "off the arrays"),
            (dict(refs=refs + 5), "off Y"),
            (dict(coefs=coefs + 3), "coefficient"),
            (dict(n=256), "n must be"),
            (dict(inv=3), "inv < n"),
            (dict(stop=5), "outside"),
            (dict(Y=np.zeros((4, 2), np.uint8)), "columns")]:
        kw = dict(B=B, Y=Y, brow=rows, yrow=rows, refs=refs, coefs=coefs, n=3, inv=1,
                  start=0, stop=4, lut=lut)
        kw.update(bad)
        with pytest.raises(ValueError, match=words):
            band_chase(*kw.values())


def test_giant_board_analysed_from_the_factors():
    """A 100000 x 100000 square board (past MAX_TILES): nullity and det from the two
    factors (T_k over GF(2) is singular exactly when k = 2 mod 3); solve_packed checks
    its input's shape before anything large (packed solving itself:
    tests/test_packed_engines.py, on 12000 x 12000)."""
    b = ml.Board.grid(100000, 100000, states=2, pattern="square")
    s = ml.Solver(b)
    assert s.method == "tensor"
    assert s.nullity == 0 and s.det() == 1                   # 100000 = 1 mod 3
    b2 = ml.Board.grid(100001, 99998, states=2, pattern="square")   # both 2 mod 3
    s2 = ml.Solver(b2, method="tensor")
    assert s2.nullity == 100001 + 99998 - 1 and s2.det() == 0
    assert s2.kernel_size == 2 ** s2.nullity
    packed = np.zeros((100001, (99998 + 7) // 8), np.uint8)[:1]
    with pytest.raises(ValueError):
        s2.solve_packed(packed)
    assert s._packed_engine() is s._engine                   # packed, never unpacked
    with pytest.raises(ValueError, match="tensor engine, which does not either"):
        ml.Solver(ml.Board.grid(100000, 100000, states=2, pattern="knight"))


@pytest.mark.parametrize("n, shape", [(6, (8, 11)), (10, (5, 7)), (6, (11, 7)),
                                      (15, (8, 5)), (6, (7, 7))])
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
    assert t12._engine._rings[0] is not None and t12._engine._parts[0][0] == 4
    assert t12.kernel_size == ml.Solver(b12, backend="reference").kernel_size


def test_composite_split_medium_board():
    """300 x 200 Z/6 square (T_200 is singular mod 2 and mod 3): tensor against the chase."""
    b = ml.Board.grid(300, 200, states=6, pattern="square")
    ten = ml.Solver(b, method="tensor")
    chase = ml.Solver(b, method="chase")
    assert ten.kernel_size == chase.kernel_size == 6 ** 300
    rng = np.random.default_rng(6)
    s = b.random_state(rng=rng)
    assert not b.apply(s, ten.solve(s, minimal=False).taps).any()
    s2 = rng.integers(0, 6, size=b.shape)
    assert ten.solvable(s2) == chase.solvable(s2)
