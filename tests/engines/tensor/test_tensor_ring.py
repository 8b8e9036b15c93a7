"""The tensor engine over Z/p^k when a 1-D factor is singular mod p (ring parts,
engines/tensor.py: _RingPart), alone and inside CRT splits (12 = 4 * 3, 18 = 2 * 9),
against the reference engine (Smith forms), the chase, brute force and Board.apply."""

from __future__ import annotations

import itertools
from math import prod

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine, covers
from modlights.model.ring import factorize
from oracle import BruteForce
from suite_groups import sample


def tensor_reason(b):
    """None when the C tensor engine covers b, else its reason."""
    return covers("tensor", b)


def TensorEngine(b):
    """The C tensor engine through the Engine adapter."""
    return NativeEngine(b, "tensor")


#: Prime powers (k > 1), CRT mixes with such a part, and 25 / 27 for odd p.
RING_N = [4, 8, 9, 12, 16, 18, 25, 27]

#: Product patterns; the row factor a = (1, 2, 1) has det T_L = L + 1 (singular mod p
#: exactly when p | L + 1, with M non-zero mod p^k: Smith invariants p^v, 0 < v < k);
#: (2, 1, 1) (tori) and (2, 1, 1, 1) chase on the reversed axis mod 2^k (an end that is
#: not a unit).
PATTERNS = [
    "square",
    "horizontal",
    "vertical",
    [(dr, dc) for dr in (-1, 0, 0, 1) for dc in (-1, 0, 1)],
    [(dr, dc) for dr in (-1, 0, 0, 1) for dc in (-1, 0, 0, 1)],
    [(dr, dc) for dr in (-1, -1, 0, 1) for dc in (-1, 0, 1, 1)],
    [(dr, dc) for dr in (-1, 1) for dc in (-2, 0, 1)],
    [(dr, dc) for dr in (0, 1) for dc in (0, 1)],
    [(dr, dc) for dr in (-2, -2, -1, 0, 1) for dc in (-1, 0, 1)],
]


@st.composite
def ring_boards(draw, max_side=8):
    """(board, seed): n from RING_N, a named or random product pattern, sides either
    2 mod 3 (T_L singular over Z, so mod every p), one less than a multiple of the
    primes of n (the (1, 2, 1) factor singular), or any."""
    n = draw(st.sampled_from(RING_N))
    if draw(st.booleans()):
        pattern = draw(st.sampled_from(PATTERNS))
    else:
        rows = draw(st.lists(st.integers(-2, 2), min_size=1, max_size=4))
        cols = draw(st.lists(st.integers(-2, 2), min_size=1, max_size=4))
        pattern = [(dr, dc) for dr in rows for dc in cols]
    p = factorize(n)[-1][0]
    singular = [L for L in range(1, max_side + 1) if L % 3 == 2 or (L + 1) % p == 0]
    side = st.one_of(st.sampled_from(singular), st.integers(1, max_side))
    b = ml.Board.grid(draw(side), draw(side), states=n, pattern=pattern, wrap=draw(st.booleans()))
    return b, draw(st.integers(0, 2**32 - 1))


def _rhs(b, state, target):
    return b._rhs_cells(state, target).astype(np.int64)


def _prime_parts(orders, n) -> dict:
    """{p: sorted p-parts > 1 of the orders}: the cyclic summands' orders of each Sylow
    subgroup, which do not depend on the decomposition (the invariant factors)."""
    out = {}
    for p, _ in factorize(n):
        parts = []
        for o in orders:
            v = 1
            while o % (v * p) == 0:
                v *= p
            if v > 1:
                parts.append(v)
        out[p] = sorted(parts)
    return out


def _check_board(b, seed, minimal=True):
    n = b.states
    reason = tensor_reason(b)
    if reason is not None:
        # refused only for its band (zero, no unit end, too many symbols), never
        # because a factor is singular
        assert "singular" not in reason
        assert any(w in reason for w in ("multiples of n", "neither end", "symbols"))
        return None
    ten = ml.Solver(b, method="tensor")
    ref = ml.Solver(b, backend="reference")
    assert ten.engine == "tensor"
    assert ten.kernel_size == ref.kernel_size
    assert ten.nullity == ref.nullity
    assert ten.det() == ref.det()
    # generators: in the kernel, with their exact orders, as many as the reference's
    # (the fewest cyclic summands) and the same Sylow structure; for small kernels the
    # group they generate is enumerated: a direct sum has prod(orders) elements
    H = ten.kernel().astype(np.int64)
    orders = ten.kernel_orders
    A = b.matrix().astype(np.int64)
    assert H.shape == (ten.nullity, b.n_taps)
    assert ((A @ H.T) % n == 0).all()
    for h, o in zip(H, orders):
        assert o > 1 and not (o * h % n).any()
        for p, _ in factorize(o):
            assert (o // p * h % n).any()  # order exactly o
    assert prod(orders) == ten.kernel_size
    assert _prime_parts(orders, n) == _prime_parts(ref.kernel_orders, n)
    if len(H) and ten.kernel_size <= 4096:
        span = {
            tuple(np.asarray(c, np.int64) @ H % n)
            for c in itertools.product(*[range(o) for o in orders])
        }
        assert len(span) == ten.kernel_size
    rng = np.random.default_rng(seed)
    for image in (True, False, True, False):
        s = rng.integers(0, n, size=b.shape)
        if image:  # target = s + A x
            target = b.apply(s, rng.integers(0, n, size=b.shape))
        else:
            target = rng.integers(0, n, size=b.shape)
        want = ref.solvable(s, target)
        assert not image or want
        assert ten.solvable(s, target) == want
        if want:
            sol = ten.solve(s, target, minimal=False)
            assert (b.apply(s, sol.taps) == target % n).all()
        else:
            with pytest.raises(ml.Unsolvable):
                ten.solve(s, target, minimal=False)
    if minimal and n**b.n_taps <= 20000:
        s = b.random_state(rng=rng)
        sol = ten.solve(s)
        assert sol.proven_minimal
        assert sol.length == BruteForce(b.matrix(), n).min_length(_rhs(b, s, 0))
    return ten


# ---------------------------------------------------------------- random boards
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ring_boards())
def test_ring_boards_against_reference(case):
    _check_board(*case)


@pytest.mark.parametrize(
    "wrap,pattern,n",
    sample(
        [(w, p, n) for w in (False, True) for p in PATTERNS for n in (4, 8, 9, 16, 25, 27, 12, 18)],
        12,
        unpack=True,
    ),
)
def test_named_singular_sides(n, pattern, wrap):
    """Every pattern at sides that make the factors singular mod p (and one that does
    not next to one that does); the ring path is taken wherever the reference engine
    sees a kernel it cannot explain by field parts."""
    for shape in [(5, 5), (8, 2), (2, 7), (4, 8), (3, 3)]:
        _check_board(ml.Board.grid(*shape, states=n, pattern=pattern, wrap=wrap), 7)


# ---------------------------------------------------------------- medium boards
@pytest.mark.parametrize(
    "n, shape, pattern, wrap",
    [
        (9, (152, 110), "square", False),  # 110 = 2 mod 3
        (4, (101, 104), "square", False),  # both 2 mod 3
        (8, (90, 120), "square", True),  # circulants singular mod 2
        (27, (80, 61), PATTERNS[3], False),  # det T_80 = 81 (1, 2, 1)
        (12, (98, 77), "square", False),  # Z/4 ring part, Z/3 field part
        (18, (77, 60), "vertical", False),  # GF(2) field part, Z/9 ring part
    ],
)
def test_medium_boards_against_chase(n, shape, pattern, wrap):
    b = ml.Board.grid(*shape, states=n, pattern=pattern, wrap=wrap)
    ten = ml.Solver(b, method="tensor")
    chase = ml.Solver(b, method="chase")
    assert ten.kernel_size == chase.kernel_size > 1
    rng = np.random.default_rng(n)
    s = b.random_state(rng=rng)
    assert not b.apply(s, ten.solve(s, minimal=False).taps).any()
    for _ in range(3):
        s2 = rng.integers(0, n, size=b.shape)
        assert ten.solvable(s2) == chase.solvable(s2)
    many = ten.solve_many(np.stack([s, b.apply(s, rng.integers(0, n, size=b.shape))]))
    assert not b.apply(s, many[0]).any()


# ---------------------------------------------------------------- routing, giants
@pytest.mark.parametrize("n", [4, 8, 9])
def test_auto_takes_the_tensor_engine_at_every_side(n):
    from modlights.engines.registry import CROSSOVER_TILES

    # past its crossover with the chase and the chase's with the dense engines
    TENSOR_MIN_TILES = max(CROSSOVER_TILES["tensor"], CROSSOVER_TILES["chase"])
    side = int(TENSOR_MIN_TILES**0.5) + 1
    for k in (side, side + 1, side + 2, 200, 2000):  # every residue mod 3
        b = ml.Board.grid(k, k, states=n, pattern="square")
        assert tensor_reason(b) is None
        assert ml.Solver(b).method == "tensor"


def test_giant_ring_board_from_the_factors():
    """100001 x 99998 Z/9 square (both 2 mod 3, det T_L = 0 over Z: M = 0 mod 9):
    nullity and kernel_size from the factors, as over GF(3) with 9 for 3."""
    b = ml.Board.grid(100001, 99998, states=9, pattern="square")
    s = ml.Solver(b)
    assert s.method == "tensor"
    assert s.nullity == 100001 + 99998 - 1
    assert s.kernel_size == 9**s.nullity and s.det() == 0
    with pytest.raises(ValueError, match="MiB allowed"):
        s._engine.generators()


# ---------------------------------------------------------------- the rest
def test_pseudo_inverse_and_inverse_as_the_reference():
    """No generalised inverse over Z/p^k when an invariant is a proper power of p:
    ValueError as the reference engine; otherwise A G A = A. Never invertible."""
    raised = 0
    for n, shape, pattern in [
        (9, (5, 5), "square"),
        (4, (3, 5), PATTERNS[3]),
        (27, (8, 2), PATTERNS[3]),
        (8, (5, 3), "square"),
    ]:
        b = ml.Board.grid(*shape, states=n, pattern=pattern)
        ten = ml.Solver(b, method="tensor")
        ref = ml.Solver(b, backend="reference")
        assert not ten.is_invertible
        with pytest.raises(ValueError):
            ten.inverse()
        try:
            want = ref.pseudo_inverse()
        except ValueError:
            with pytest.raises(ValueError, match="generalised inverse"):
                ten.pseudo_inverse()
            raised += 1
            continue
        G = ten.pseudo_inverse().astype(np.int64)
        A = b.matrix().astype(np.int64)
        assert want.shape == G.shape
        assert ((A @ G @ A - A) % n == 0).all()
    assert 0 < raised < 4


def test_band_without_a_unit_end_refused():
    """A band with no unit count at either end is refused with the C reason (the ring
    factors' flags and refusals are t-engines-band's)."""
    with pytest.raises(ValueError, match="neither end of the band"):
        TensorEngine(
            ml.Board.grid(4, 4, states=4, pattern=[(-1, 0), (-1, 0), (0, 0), (1, 0), (1, 0)])
        )
