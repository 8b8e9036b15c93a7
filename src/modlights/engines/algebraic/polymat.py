"""Polynomials over GF(p) and 2 x 2 matrices of them: the arithmetic the polynomial
engines share (the cross engine's torus nullity, the symmetric engine's row
recurrence, the torus system's diagonal form).

Polynomials are the native objects of :mod:`modlights._poly` (``Gf2Poly`` for p = 2,
``GfpPoly`` otherwise: ``+``, ``*``, ``divmod``, ``gcd``, ``xgcd``, ``degree``). A 2 x 2
matrix is a list of two rows of two entries; the products take the ring's operations
as arguments, so the same code serves GF(p)[s] and its quotients (a product reduced
mod chi, or mod s^w - 1).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["poly", "padd", "mono", "mat_mul", "mat_pow", "power"]

Mat = list  # [[a, b], [c, d]]


def poly(coeffs, p: int):
    """The polynomial sum coeffs[i] s^i over GF(p) (coefficients any ints, read mod p)."""
    from modlights.native._core import Gf2Poly, GfpPoly

    if p == 2:
        return Gf2Poly(sum(1 << i for i, c in enumerate(coeffs) if c % 2))
    return GfpPoly(coeffs, p)


def padd(a, b, p: int, k: int = 1):
    """a + k b over GF(p). O(max degree)."""
    from modlights.native._core import GfpPoly

    if p == 2:
        return a + b if k % 2 else a
    n = max(a.degree, b.degree) + 1
    return GfpPoly((a.coeffs(n).astype(np.int64) + k * b.coeffs(n).astype(np.int64)) % p, p)


def mono(k: int, p: int):
    """The monomial s^k over GF(p) (k >= 0)."""
    from modlights.native._core import Gf2Poly, GfpPoly

    return Gf2Poly(1 << k) if p == 2 else GfpPoly([0] * k + [1], p)


def mat_mul(
    X: Mat, Y: Mat, add: Callable[[Any, Any], Any], mul: Callable[[Any, Any], Any] = operator.mul
) -> Mat:
    """X Y for 2 x 2 matrices: entry (i, j) = add(mul(X[i][0], Y[0][j]),
    mul(X[i][1], Y[1][j])). Eight products, four sums."""
    return [[add(mul(X[i][0], Y[0][j]), mul(X[i][1], Y[1][j])) for j in range(2)] for i in range(2)]


def mat_pow(
    base: Mat,
    e: int,
    one,
    zero,
    add: Callable[[Any, Any], Any],
    mul: Callable[[Any, Any], Any] = operator.mul,
) -> Mat:
    """base ** e for a 2 x 2 matrix (e >= 0; e = 0 gives [[one, zero], [zero, one]]) by
    repeated squaring: O(log e) matrix products (:func:`mat_mul` with add and mul)."""
    if e < 0:
        raise ValueError(f"mat_pow needs an exponent >= 0, got {e}")
    result = [[one, zero], [zero, one]]
    while e:
        if e & 1:
            result = mat_mul(result, base, add, mul)
        e >>= 1
        if e:
            base = mat_mul(base, base, add, mul)
    return result


def power(a, e: int, one, mul: Callable[[Any, Any], Any] = operator.mul):
    """a ** e (e >= 0) by repeated squaring with the product ``mul``: O(log e) products."""
    if e < 0:
        raise ValueError(f"power needs an exponent >= 0, got {e}")
    result = one
    while e:
        if e & 1:
            result = mul(result, a)
        e >>= 1
        if e:
            a = mul(a, a)
    return result
