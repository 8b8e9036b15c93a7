"""csrc/poly.c (via modlights._poly) against pure-Python polynomial arithmetic on
random inputs: GF(2)[x] as Python ints (bit i = coefficient of x^i), GF(p)[x] as
lists of coefficients."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modlights.native._core import Gf2Poly, GfpPoly, karatsuba_words


# ---------------------------------------------------------------- pure-Python GF(2)[x]
def py2_mul(a: int, b: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        b >>= 1
    return r


def py2_divmod(a: int, b: int) -> tuple[int, int]:
    q, db = 0, b.bit_length() - 1
    while a and a.bit_length() - 1 >= db:
        k = a.bit_length() - 1 - db
        a ^= b << k
        q |= 1 << k
    return q, a


def py2_gcd(a: int, b: int) -> int:
    while b:
        a, b = b, py2_divmod(a, b)[1]
    return a


# ---------------------------------------------------------------- pure-Python GF(p)[x]
def trim(a: list[int]) -> list[int]:
    a = list(a)
    while a and a[-1] == 0:
        a.pop()
    return a


def pyp_add(a, b, p):
    n = max(len(a), len(b))
    return trim([((a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0)) % p for i in range(n)])


def pyp_mul(a, b, p):
    a, b = trim(a), trim(b)
    if not a or not b:
        return []
    r = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            r[i + j] = (r[i + j] + x * y) % p
    return trim(r)


def pyp_divmod(a, b, p):
    a, b = trim(a), trim(b)
    inv = pow(b[-1], p - 2, p)
    q = [0] * max(0, len(a) - len(b) + 1)
    while len(a) >= len(b):
        k = len(a) - len(b)
        c = a[-1] * inv % p
        q[k] = c
        a = trim([(a[i] - c * (b[i - k] if 0 <= i - k < len(b) else 0)) % p for i in range(len(a))])
    return trim(q), a


def pyp_gcd(a, b, p):
    a, b = trim(a), trim(b)
    while b:
        a, b = b, pyp_divmod(a, b, p)[1]
    if a:
        inv = pow(a[-1], p - 2, p)
        a = [x * inv % p for x in a]
    return a


def L(f) -> list[int]:
    """Coefficients of a GfpPoly as Python ints (no uint8 wrap-around in the oracle)."""
    return [int(v) for v in f.coeffs()]


PRIMES = [2, 3, 5, 7, 11, 251]
bits = st.integers(0, 3000).flatmap(lambda n: st.integers(0, (1 << n) - 1))


@given(bits, bits)
@settings(max_examples=150, deadline=None)
def test_gf2_ops_match_python(a, b):
    A, B = Gf2Poly(a), Gf2Poly(b)
    assert int(A) == a
    assert A.degree == a.bit_length() - 1
    prod = py2_mul(a, b)
    assert int(A * B) == prod
    assert int(A.mul(B, karatsuba=False)) == prod
    if b:
        q, r = A.divmod(B)
        assert (int(q), int(r)) == py2_divmod(a, b)
        g, s, t = A.xgcd(B)
        assert int(g) == py2_gcd(a, b) == int(A.gcd(B))
        assert py2_mul(int(s), a) ^ py2_mul(int(t), b) == int(g)
        g2, s2, t2 = A.xgcd(B, with_t=False)
        assert t2 is None and int(s2) == int(s)
    else:
        with pytest.raises(ValueError):
            A.divmod(B)


@pytest.mark.parametrize("threshold, words", [("2", 2), ("3", 3), ("5", 5), ("64", 64), ("1", 16)])
def test_gf2_karatsuba_thresholds(threshold, words):
    """Karatsuba at several thresholds (MODLIGHTS_KARATSUBA_WORDS, read once per process;
    below 2 words the default 16; unbalanced factors split into chunks) agrees with the
    schoolbook product and with Python."""
    import os
    import subprocess
    import sys

    code = (
        "import random\n"
        "from modlights.native._core import Gf2Poly, karatsuba_words\n"
        "def m(a, b):\n"
        "    r = 0\n"
        "    while b:\n"
        "        if b & 1: r ^= a\n"
        "        a <<= 1; b >>= 1\n"
        "    return r\n"
        f"rnd = random.Random({words})\n"
        "for _ in range(20):\n"
        "    a = rnd.getrandbits(rnd.randint(1, 64 * 200))\n"
        "    b = rnd.getrandbits(rnd.randint(1, 64 * 200))\n"
        "    A, B = Gf2Poly(a), Gf2Poly(b)\n"
        "    assert int(A * B) == int(A.mul(B, karatsuba=False)) == m(a, b)\n"
        "print(karatsuba_words())\n"
    )
    env = dict(os.environ, MODLIGHTS_KARATSUBA_WORDS=threshold)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == words


def test_gf2_karatsuba_threshold_default():
    """16 words unless the environment says otherwise (the measured crossover)."""
    assert karatsuba_words() == 16


coeffs = st.lists(st.integers(0, 250), max_size=120)


@given(st.sampled_from(PRIMES), coeffs, coeffs)
@settings(max_examples=150, deadline=None)
def test_gfp_ops_match_python(p, a, b):
    a = [x % p for x in a]
    b = [x % p for x in b]
    A, B = GfpPoly(a, p), GfpPoly(b, p)
    assert L(A) == trim(a)
    assert L(A * B) == pyp_mul(a, b, p)
    if trim(b):
        q, r = A.divmod(B)
        assert (L(q), L(r)) == pyp_divmod(a, b, p)
        g, s, t = A.xgcd(B)
        assert L(g) == pyp_gcd(a, b, p) == L(A.gcd(B))
        assert pyp_add(pyp_mul(L(s), a, p), pyp_mul(L(t), b, p), p) == L(g)
    else:
        with pytest.raises(ValueError):
            A.divmod(B)


def test_gfp_long_products_delay_reduction():
    """Products long enough to need the delayed reductions (p = 251: a reduction
    every ~68000 terms)."""
    import random

    rnd = random.Random(5)
    p = 251
    a = [rnd.randrange(p) for _ in range(600)]
    b = [p - 1] * 600
    assert L(GfpPoly(a, p) * GfpPoly(b, p)) == pyp_mul(a, b, p)
    big = [p - 1] * 70000
    prod = GfpPoly(big, p) * GfpPoly([p - 1] * 3, p)
    assert prod.coeffs()[2] == (3 * (p - 1) ** 2) % p
    assert prod.coeffs()[1000] == (3 * (p - 1) ** 2) % p


@pytest.mark.parametrize("p", [3, 101, 251])
def test_gfp_fast_paths_match_python(p):
    """Lengths past the fast paths' thresholds (csrc/poly/poly.h: transform products from
    512 coefficients, Newton division past 96, the half-gcd from 192): products, divmod
    and the extended gcd of a pair with a planted common factor as pure Python's."""
    import random

    rnd = random.Random(p)

    def poly(n):
        return [rnd.randrange(p) for _ in range(n - 1)] + [1 + rnd.randrange(p - 1)]

    a, b = poly(700), poly(600)
    A, B = GfpPoly(a, p), GfpPoly(b, p)
    assert L(A * B) == pyp_mul(a, b, p)
    n = poly(1500)
    q, r = GfpPoly(n, p).divmod(B)
    assert (L(q), L(r)) == pyp_divmod(n, b, p)
    c = poly(150)
    x, y = pyp_mul(poly(500), c, p), pyp_mul(poly(480), c, p)
    g, s, t = GfpPoly(x, p).xgcd(GfpPoly(y, p))
    assert L(g) == pyp_gcd(x, y, p) == L(GfpPoly(x, p).gcd(GfpPoly(y, p)))
    assert len(L(g)) >= 150
    assert pyp_add(pyp_mul(L(s), x, p), pyp_mul(L(t), y, p), p) == L(g)


def test_bad_arguments():
    for bad in (-1, 1.5, "x", True):
        with pytest.raises(ValueError):
            Gf2Poly(bad)
    for p in (1, 4, 256, 257, True):
        with pytest.raises(ValueError):
            GfpPoly([1], p)
    with pytest.raises(ValueError):
        GfpPoly([1], 3) * GfpPoly([1], 5)
    with pytest.raises(ValueError):
        Gf2Poly.from_bits([0, 2])
    assert int(Gf2Poly.from_bits([1, 0, 1])) == 5
    assert list(Gf2Poly(5).bits(4)) == [1, 0, 1, 0]


# ---------------------------------------------------------------- the isomorphism (rowrec)
def _dense_T(w, p, d, cr, cl, cu):
    """T = -B / cu as a dense int matrix (B = d I + cr sub-diagonal + cl super-diagonal)."""
    import numpy as np

    inv = pow(cu, p - 2, p)
    B = np.zeros((w, w), dtype=np.int64)
    for c in range(w):
        B[c, c] = d
        if c:
            B[c, c - 1] = cr
        if c + 1 < w:
            B[c, c + 1] = cl
    return (-B * inv) % p


def _eval_at(coeffs, T, v, p):
    """f(T) v (Horner with dense products)."""
    import numpy as np

    out = np.zeros_like(v)
    for c in reversed([int(x) for x in coeffs]):
        out = (T @ out + c * v) % p
    return out


@given(
    st.sampled_from([2, 3, 5, 7]),
    st.integers(1, 70),
    st.integers(0, 6),
    st.integers(1, 6),
    st.integers(0, 6),
    st.integers(1, 6),
    st.integers(0, 2**32 - 1),
)
@settings(max_examples=80, deadline=None)
def test_rowrec_isomorphism_against_dense(p, w, d, cr, cl, cu, seed):
    """vec_to_poly / poly_to_vec invert each other and match f(T) e_0 computed with a
    dense T; chi_T is monic of degree w with chi_T(T) = 0."""
    import numpy as np
    from hypothesis import assume

    from modlights.native._core import RowRec

    assume(cr % p and cu % p)
    rec = RowRec(3, w, p, d, cr, cl, cu, 0)
    T = _dense_T(w, p, d % p, cr % p, cl % p, cu % p)
    e0 = np.zeros(w, dtype=np.int64)
    e0[0] = 1
    rng = np.random.default_rng(seed)
    v = rng.integers(0, p, size=w).astype(np.uint8)
    f = rec.vec_to_poly(v)
    coeffs = f.bits(w) if p == 2 else f.coeffs(w)
    assert f.degree < w
    assert np.array_equal(_eval_at(coeffs, T, e0, p), v)
    assert np.array_equal(rec.poly_to_vec(f), v)
    chi = rec.charpoly()
    cc = chi.bits() if p == 2 else chi.coeffs()
    assert chi.degree == w and int(cc[-1]) == 1
    Tc = np.eye(w, dtype=np.int64)
    acc = np.zeros((w, w), dtype=np.int64)
    for c in [int(x) for x in cc]:  # chi(T) by powers (low to high)
        acc = (acc + c * Tc) % p
        Tc = (Tc @ T) % p
    assert not acc.any()


def test_gf2_portable_base_case_in_a_subprocess():
    """The 4-bit-window base case (no PCLMULQDQ: MODLIGHTS_NO_PCLMUL, read once per
    process) gives the same products, with and without Karatsuba."""
    import os
    import subprocess
    import sys

    code = (
        "import random\n"
        "from modlights.native._core import Gf2Poly\n"
        "def m(a, b):\n"
        "    r = 0\n"
        "    while b:\n"
        "        if b & 1: r ^= a\n"
        "        a <<= 1; b >>= 1\n"
        "    return r\n"
        "rnd = random.Random(9)\n"
        "for _ in range(30):\n"
        "    a, b = rnd.getrandbits(rnd.randint(1, 5000)), rnd.getrandbits(rnd.randint(1, 5000))\n"
        "    A, B = Gf2Poly(a), Gf2Poly(b)\n"
        "    assert int(A * B) == int(A.mul(B, karatsuba=False)) == m(a, b)\n"
        "print('ok')\n"
    )
    env = dict(os.environ, MODLIGHTS_NO_PCLMUL="1")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
