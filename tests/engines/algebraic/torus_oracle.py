"""A test oracle independent of the C torus engine: dim ker A of a torus of the cross family
from the Smith form of its 2 x 2 residual system over GF(p)[s] (polynomials of the
binding of csrc/poly/poly.c, powers of 2 x 2 polynomial matrices); formerly Python's
engine code (engines/algebraic/polymat.py, cross.py _torus_nullity), kept here as the
oracle of tests/engines/algebraic/test_torus.py and test_polymat.py."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from modlights.model.ring import unit_inverse

__all__ = ["poly", "padd", "mono", "mat_mul", "mat_pow", "power", "torus_nullity"]

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


def torus_nullity(h: int, w: int, p: int, d: int, cr: int, cl: int, cu: int, cd: int) -> int:
    """dim ker A of an h x w torus (h >= 3) whose pattern uses (0,0), (0,+-1), (+-1,0).

    Columns wrap, so a row is an element of R = GF(p)[s] / (s^w - 1) and B = d + cr s +
    cl s^-1; rows wrap, so with u = X_0 and v = X_{h-1} as unknowns the chase forces
    X_r = P_r u + mu P_{r-1} v (P_{r+1} = T P_r + mu P_{r-1}, T = -B / cu, mu = -cd / cu)
    and leaves two conditions, X_{h-1} = v and row h - 1:
        M = [[P_{h-1}, mu P_{h-2} - 1], [1 - P_h, -mu P_{h-1}]] acting on R^2.
    Both rows are scaled by the unit s^h (S_r = s^r P_r are polynomials: S_{r+1} = tau S_r
    + mu s^2 S_{r-1}, tau = s T, by powers of a 2 x 2 matrix). With the Smith form of M
    over GF(p)[s], d1 = gcd of the entries, d2 = det / d1:
        dim ker = deg gcd(d1, s^w - 1) + deg gcd(d2, s^w - 1)   (gcd(0, f) = f).
    d2 mod (s^w - 1) comes from det mod ((s^w - 1) d1), so no product exceeds that degree.
    """
    inv = unit_inverse(cu, p)
    tau = poly([(-cl * inv) % p, (-d * inv) % p, (-cr * inv) % p], p)
    mu = (-cd * inv) % p
    c = poly([0, 0, mu], p)
    one, zero = poly([1], p), poly([], p)

    # [[S_{r+1}], [S_r]] = [[tau, c], [1, 0]] [[S_r], [S_{r-1}]]; first column of the
    # (h-1)th power: S_{h-1}, S_{h-2}
    result = mat_pow([[tau, c], [one, zero]], h - 1, one, zero, lambda a, b: padd(a, b, p))
    s1, s2 = result[0][0], result[1][0]  # S_{h-1}, S_{h-2}
    sh = padd(tau * s1, c * s2, p)  # S_h
    x1 = mono(1, p)
    m11 = x1 * s1
    m12 = padd(c * s2, mono(h, p), p, p - 1)
    m21 = padd(mono(h, p), sh, p, p - 1)
    m22 = padd(zero, x1 * s1, p, (p - mu) % p)
    f = padd(mono(w, p), one, p, p - 1)
    # common case first: d1 coprime to f (gcd of the entries mod f and f is 1); then
    # gcd(d2, f) = gcd(det, f) and everything stays below degree w
    r11, r12, r21, r22 = (m.divmod(f)[1] for m in (m11, m12, m21, m22))
    if f.gcd(r11).gcd(r12).gcd(r21).gcd(r22).degree == 0:
        det = padd(r11 * r22, r12 * r21, p, p - 1).divmod(f)[1]
        return w if det.degree < 0 else f.gcd(det).degree
    g1 = m11.gcd(m12).gcd(m21)  # m22 = -mu m11 adds nothing to the gcd
    if g1.degree < 0:
        return 2 * w
    big = f * g1
    e11, e12, e21, e22 = (m.divmod(big)[1] for m in (m11, m12, m21, m22))  # e22 = -mu e11
    det = padd((e11 * e22).divmod(big)[1], (e12 * e21).divmod(big)[1], p, p - 1)
    d2, rem = det.divmod(g1)
    if rem.degree >= 0:  # never: g1 divides every entry
        raise RuntimeError("torus nullity: the gcd does not divide the determinant")
    d2 = d2.divmod(f)[1]
    first = f.gcd(g1).degree
    return first + (w if d2.degree < 0 else f.gcd(d2).degree)
