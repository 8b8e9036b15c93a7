"""modlights.engines.algebraic.polymat: powers of 2 x 2 polynomial matrices against
repeated multiplication, over GF(p)[s] and a quotient ring."""

from __future__ import annotations

import numpy as np
import pytest

from engines.algebraic.torus_oracle import mat_mul, mat_pow, mono, padd, poly, power


def coeffs(a, p):
    """The coefficient list of a polynomial (no trailing zeros), for comparisons."""
    n = max(0, a.degree + 1)
    c = [int(v) % p for v in (a.bits()[:n] if p == 2 else a.coeffs(n))]
    while c and c[-1] == 0:
        c.pop()
    return c


def naive_mul(a, b, p):
    """Schoolbook product of coefficient lists over GF(p)."""
    out = [0] * max(0, len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] = (out[i + j] + x * y) % p
    while out and out[-1] == 0:
        out.pop()
    return out


@pytest.mark.parametrize("p", [2, 3, 5, 251])
def test_poly_padd_mono_against_coefficient_lists(p):
    rng = np.random.default_rng(p)
    for _ in range(20):
        a = rng.integers(0, p, size=rng.integers(0, 7)).tolist()
        b = rng.integers(0, p, size=rng.integers(0, 7)).tolist()
        k = int(rng.integers(0, p))
        A, B = poly(a, p), poly(b, p)
        width = max(len(a), len(b))
        want = [
            (x + k * y) % p for x, y in zip(a + [0] * (width - len(a)), b + [0] * (width - len(b)))
        ]
        while want and want[-1] == 0:
            want.pop()
        assert coeffs(padd(A, B, p, k), p) == want
        assert coeffs(A * B, p) == naive_mul(a, b, p)
    assert coeffs(mono(4, p), p) == [0, 0, 0, 0, 1]


@pytest.mark.parametrize("p", [2, 3, 7])
def test_mat_pow_equals_repeated_products(p):
    rng = np.random.default_rng(10 + p)
    add = lambda a, b: padd(a, b, p)  # noqa: E731
    one, zero = poly([1], p), poly([], p)
    for _ in range(5):
        M = [[poly(rng.integers(0, p, size=3).tolist(), p) for _ in range(2)] for _ in range(2)]
        acc = [[one, zero], [zero, one]]
        for e in range(0, 12):
            got = mat_pow(M, e, one, zero, add)
            assert [[coeffs(x, p) for x in row] for row in got] == [
                [coeffs(x, p) for x in row] for row in acc
            ], e
            acc = mat_mul(acc, M, add)


def test_mat_pow_in_a_quotient_ring_reduces_every_product():
    p, w = 3, 5
    f = padd(mono(w, p), poly([1], p), p, p - 1)  # s^5 - 1
    mul = lambda a, b: (a * b).divmod(f)[1]  # noqa: E731
    add = lambda a, b: padd(a, b, p)  # noqa: E731
    one, zero = poly([1], p), poly([], p)
    M = [[poly([1, 2, 1], p), poly([0, 1], p)], [one, zero]]
    acc = [[one, zero], [zero, one]]
    for _ in range(37):
        acc = mat_mul(acc, M, add, mul)
    got = mat_pow(M, 37, one, zero, add, mul)
    for i in range(2):
        for j in range(2):
            assert got[i][j].degree < w
            assert coeffs(got[i][j], p) == coeffs(acc[i][j], p)
    s = poly([0, 1], p)
    assert coeffs(power(s, w, one, mul), p) == [1]  # s^w = 1 there
    assert coeffs(power(s, 0, one, mul), p) == [1]


def test_negative_exponents_are_value_errors():
    one, zero = poly([1], 2), poly([], 2)
    with pytest.raises(ValueError, match=">= 0"):
        mat_pow([[one, zero], [zero, one]], -1, one, zero, lambda a, b: a + b)
    with pytest.raises(ValueError, match=">= 0"):
        power(one, -2, one)
