"""Tori of the cross family solved by polynomial algebra over R = GF(p)[s] / (s^w - 1).

The board is worked on in the algebraic engine's orientation (:class:`~modlights.engines.
algebraic.AlgebraicEngine`: h >= 3 rows along the chase, w columns, both wrapping). A
row of taps or right-hand side is an element of R (column c is the coefficient of
s^c), and row r of A x = b reads ``cd X_{r-1} + B X_r + cu X_{r+1} = b_r`` with
B = d + cr s + cl s^-1 in R (indices of rows mod h; cu a unit). With u = X_0 and
v = X_{-1} = X_{h-1} as unknowns the chase forces X_1 .. X_{h-1} and the virtual row X_h
(:func:`torus_chase`), and the board is solved iff the two residuals
``X_{h-1} - v`` and ``X_h - u`` vanish. Both are affine in (u, v) and R-linear (every
coefficient lies in the commutative ring R), so they read ``M (u, v) + c`` with M a
2 x 2 matrix over R whose columns are the residuals of the chases from (1, 0) and
(0, 1) with b = 0, and c the residuals of the chase of b from (0, 0).

:class:`TorusSystem` diagonalises M by unimodular row and column operations over
GF(p)[s] (extended gcds, entries reduced mod f = s^w - 1): L M V = diag(d1, d2) in R.
Then M y = -c reads d_i z_i = e_i with e = -L c and y = V z, and in R:

- d z = e has a solution iff g = gcd(d, f) divides e (gcd(0, f) = f); then
  z = t (e / g) with t d = g (mod f), and the solutions are z + (f / g) R, a space of
  dimension deg g;
- so dim ker A = deg gcd(d1, f) + deg gcd(d2, f), and ker A is spanned by the chases
  (b = 0) from (u, v) = V (f / g_1 s^j, 0) and V (0, f / g_2 s^j), j < deg g_i.

Cost: four chases of O(h w) (two to build M, a read-only one for c, one to replay the
taps; over
GF(2) a row is a Python int and the chase shifts and XORs whole rows, over GF(p) it is
csrc/rowrec.c's ml_rowrec_chase_torus_gfp), a few extended
gcds (each round of the diagonal form lowers a degree) and products of degree-w
polynomials (O(w^2 / 64) words over GF(2), O(w^2) bytes over GF(p)); memory O(w) beyond the taps.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from modlights.engines.algebraic.polymat import mat_mul

__all__ = ["TorusSystem", "torus_chase"]


# ---------------------------------------------------------------- the ring R
class _Ring:
    """R = GF(p)[s] / (s^w - 1): elements are polynomial objects of degree < w
    (:class:`~modlights.native._core.Gf2Poly` / :class:`~modlights.native._core.GfpPoly`); rows are
    uint8 arrays of w coefficients."""

    def __init__(self, p: int, w: int):
        from modlights.native._core import Gf2Poly, GfpPoly

        self.p, self.w = p, w
        self._cls = Gf2Poly if p == 2 else GfpPoly
        self.f = self.poly(np.r_[p - 1, np.zeros(w - 1, np.int64), 1])  # s^w - 1
        self.zero = self.poly([])
        self.one = self.poly([1])

    def poly(self, coeffs):
        """A polynomial from its coefficients (any integers, reduced mod p)."""
        c = np.asarray(coeffs, dtype=np.int64) % self.p
        if self.p == 2:
            return self._cls.from_bits(c.astype(np.uint8))
        return self._cls(c, self.p)

    def coeffs(self, a, length: int) -> np.ndarray:
        """The coefficients of a (degree < length) as uint8."""
        return a.bits(length) if self.p == 2 else a.coeffs(length)

    def row(self, a) -> np.ndarray:
        """a mod f as a row of w uint8 coefficients."""
        return self.coeffs(self.reduce(a), self.w)

    def reduce(self, a):
        """a mod (s^w - 1) by folding the coefficients."""
        if a.degree < self.w:
            return a
        c = self.coeffs(a, a.degree + 1).astype(np.int64)
        n = -(-c.size // self.w) * self.w
        c = np.pad(c, (0, n - c.size)).reshape(-1, self.w).sum(axis=0)
        return self.poly(c)

    def add(self, a, b, k: int = 1):
        """a + k b."""
        n = max(a.degree, b.degree, 0) + 1
        return self.poly(
            self.coeffs(a, n).astype(np.int64) + k * self.coeffs(b, n).astype(np.int64)
        )

    def mul(self, a, b):
        return self.reduce(a * b)

    def neg(self, a):
        return self.add(self.zero, a, -1)

    def is_zero(self, a) -> bool:
        return a.degree < 0

    def exact_div(self, a, b):
        """a / b in GF(p)[s] (b divides a)."""
        q, r = a.divmod(b)
        if r.degree >= 0:  # never: the callers divide by a gcd
            raise RuntimeError("torus algebra: an exact division left a remainder (a bug)")
        return q


def _mat_mul(ring: _Ring, X, Y):
    """X Y for 2 x 2 matrices over R."""
    return mat_mul(X, Y, lambda a, b: ring.reduce(ring.add(a, b)))


def _diagonalise(ring: _Ring, M):
    """(L, D, V) with L M V = D = diag(d1, d2) over R, L and V invertible (determinant
    1 over GF(p)[s], or a swap). Alternating row and column Euclid steps on the (0, 0)
    entry: each step either clears an entry by an exact quotient or strictly lowers the
    degree of the (0, 0) entry, so the loop ends."""
    one, zero = ring.one, ring.zero
    L = [[one, zero], [zero, one]]
    V = [[one, zero], [zero, one]]
    swap = [[zero, one], [one, zero]]
    M = [row[:] for row in M]
    for _ in range(2 * ring.w + 8):  # the degree of M[0][0] (< w) falls each round
        if ring.is_zero(M[0][0]):
            if not ring.is_zero(M[1][0]):
                M, L = _mat_mul(ring, swap, M), _mat_mul(ring, swap, L)
            elif not ring.is_zero(M[0][1]):
                M, V = _mat_mul(ring, M, swap), _mat_mul(ring, V, swap)
            elif not ring.is_zero(M[1][1]):
                # first row and column zero: the other entry is the only invariant
                M, L = _mat_mul(ring, swap, M), _mat_mul(ring, swap, L)
                M, V = _mat_mul(ring, M, swap), _mat_mul(ring, V, swap)
                continue
            else:
                return L, M, V
        a, c = M[0][0], M[1][0]
        if not ring.is_zero(c):  # clear (1, 0) by row operations
            q, r = c.divmod(a)
            if ring.is_zero(r):
                U = [[one, zero], [ring.neg(q), one]]
            else:
                g, s1, t1 = a.xgcd(c)
                U = [[s1, t1], [ring.neg(ring.exact_div(c, g)), ring.exact_div(a, g)]]
            M, L = _mat_mul(ring, U, M), _mat_mul(ring, U, L)
        a, b = M[0][0], M[0][1]
        if ring.is_zero(b):
            if ring.is_zero(M[1][0]):
                return L, M, V
            continue
        q, r = b.divmod(a)  # clear (0, 1) by column operations
        if ring.is_zero(r):
            W = [[one, ring.neg(q)], [zero, one]]
        else:
            g, s2, t2 = a.xgcd(b)
            W = [[s2, ring.neg(ring.exact_div(b, g))], [t2, ring.exact_div(a, g)]]
        M, V = _mat_mul(ring, M, W), _mat_mul(ring, V, W)
        if ring.is_zero(M[1][0]):
            return L, M, V
    raise RuntimeError("torus algebra: the diagonal form did not converge (a bug)")


# ---------------------------------------------------------------- the chase
def torus_chase(
    h: int,
    w: int,
    p: int,
    coeffs,
    B: np.ndarray | None,
    u: np.ndarray,
    v: np.ndarray,
    out: np.ndarray | None = None,
):
    """The chase of an h x w torus (h >= 3) from X_0 = u, X_{-1} = v.

    Parameters
    ----------
    h, w, p : int
        Rows along the chase, columns (wrapping), the prime.
    coeffs : tuple of int
        Offset counts (d, cr, cl, cu, cd) of (0,0), (0,+1), (0,-1), (-1,0), (+1,0); cu a
        unit mod p.
    B : (h, w) uint8 array or None
        Right-hand side rows b_r (None: zero).
    u, v : (w,) uint8 arrays
        The first row and the row before it (the last row, as the rows wrap).
    out : (h, w) uint8 array or None
        Where the taps X_0 .. X_{h-1} go (None: not written).

    Returns
    -------
    (r1, r2) : two (w,) uint8 arrays
        The residuals X_{h-1} - v and X_h - u (mod p): zero iff the taps solve A x = b.
    """
    d, cr, cl, cu, cd = (int(c) % p for c in coeffs)
    if p == 2:
        return _chase_gf2(h, w, (d, cr, cl, cd), B, u, v, out)
    from modlights.native._core import RowRec

    _, r1, r2 = RowRec(h, w, p, d, cr, cl, cu, cd).chase_torus_gfp(B, u, v, out)
    return r1, r2


def _row_int(a: np.ndarray) -> int:
    """A 0/1 row as an int (bit c: column c)."""
    return int.from_bytes(np.packbits(a, bitorder="little").tobytes(), "little")


def _int_row(x: int, w: int) -> np.ndarray:
    return np.unpackbits(
        np.frombuffer(x.to_bytes((w + 7) // 8, "little"), np.uint8), count=w, bitorder="little"
    )


def _chase_gf2(h, w, coeffs, B, u, v, out):
    """GF(2): every row a Python int, a step is a few shifts and XORs of whole rows."""
    d, cr, cl, cd = coeffs
    mask = (1 << w) - 1
    rows = None
    if B is not None:
        packed = np.packbits(B, axis=1, bitorder="little")
        rows = [int.from_bytes(packed[r].tobytes(), "little") for r in range(h)]
    xs = [] if out is not None else None
    iu, iv = _row_int(u), _row_int(v)
    prev, cur = iv, iu
    last = 0
    for r in range(h):
        if xs is not None:
            xs.append(cur)
        nxt = rows[r] if rows is not None else 0
        if cd:
            nxt ^= prev
        if d:
            nxt ^= cur
        if cr:
            nxt ^= ((cur << 1) & mask) | (cur >> (w - 1))
        if cl:
            nxt ^= (cur >> 1) | ((cur & 1) << (w - 1))
        prev, cur = cur, nxt
        if r == h - 2:
            last = cur
    if out is not None:
        nb = (w + 7) // 8
        buf = b"".join(x.to_bytes(nb, "little") for x in xs)
        out[:] = np.unpackbits(
            np.frombuffer(buf, np.uint8).reshape(h, nb), axis=1, count=w, bitorder="little"
        )
    return _int_row(last ^ iv, w), _int_row(cur ^ iu, w)


# ---------------------------------------------------------------- the system
class TorusSystem:
    """The 2 x 2 residual system over R of an h x w torus of the cross family, in the
    chase's orientation; built once (two chases, the diagonal form), then any number of
    right-hand sides.

    Parameters
    ----------
    h, w, p : int
        Rows along the chase (at least 3), columns, the prime.
    coeffs : tuple of int
        Offset counts (d, cr, cl, cu, cd); cu must be a unit mod p.
    """

    def __init__(self, h: int, w: int, p: int, coeffs):
        if h < 3:
            raise ValueError(f"the torus chase needs at least 3 rows, got {h}")
        if int(coeffs[3]) % p == 0:
            raise ValueError("the torus chase needs a unit count of the offset (-1, 0)")
        self.h, self.w, self.p = h, w, p
        self.coeffs = tuple(int(c) for c in coeffs)
        ring = self.ring = _Ring(p, w)
        e0 = np.zeros(w, np.uint8)
        e0[0] = 1
        zero = np.zeros(w, np.uint8)
        col_u = self._chase(None, e0, zero)
        col_v = self._chase(None, zero, e0)
        M = [[ring.poly(col_u[0]), ring.poly(col_v[0])], [ring.poly(col_u[1]), ring.poly(col_v[1])]]
        self._L, D, self._V = _diagonalise(ring, M)
        self._d = (D[0][0], D[1][1])
        # g_i = gcd(d_i, f) and t_i with t_i d_i = g_i (mod f)
        self._g, self._t = [], []
        for di in self._d:
            if ring.is_zero(di):
                self._g.append(ring.f)
                self._t.append(ring.zero)
            else:
                g, t, _ = di.xgcd(ring.f, with_t=False)
                self._g.append(g)
                self._t.append(ring.reduce(t))
        self.nullity = sum(int(g.degree) for g in self._g)

    def _chase(self, B, u, v, out=None):
        return torus_chase(self.h, self.w, self.p, self.coeffs, B, u, v, out)

    def _apply_V(self, z):
        ring, V = self.ring, self._V
        return [ring.row(ring.add(V[i][0] * z[0], V[i][1] * z[1])) for i in range(2)]

    def solve(self, B: np.ndarray) -> np.ndarray | None:
        """The taps X (h x w uint8) with A X = B (rows in the chase's orientation), None
        when there are none."""
        ring = self.ring
        X = np.empty((self.h, self.w), np.uint8)
        zero = np.zeros(self.w, np.uint8)
        c1, c2 = self._chase(B, zero, zero)  # a read-only pass: the residuals
        if not (c1.any() or c2.any()):
            self._chase(B, zero, zero, X)
            return X
        c = (ring.poly(c1), ring.poly(c2))
        L = self._L
        z = []
        for i in range(2):
            e = ring.neg(ring.reduce(ring.add(L[i][0] * c[0], L[i][1] * c[1])))
            q, r = e.divmod(self._g[i])
            if not ring.is_zero(r):
                return None
            z.append(ring.mul(self._t[i], q))
        u, v = self._apply_V(z)
        r1, r2 = self._chase(B, u, v, X)
        if r1.any() or r2.any():  # never: M (u, v) = -c by construction
            raise RuntimeError("torus algebra: the replay left a residual (a bug)")
        return X

    def kernel_starts(self, limit: int | None = None):
        """The (u, v) pairs whose chases (b = 0) are a basis of ker A (the first
        ``limit`` of them)."""
        ring = self.ring
        out: list[Any] = []
        for i in range(2):
            base = ring.exact_div(ring.f, self._g[i])
            for j in range(int(self._g[i].degree)):
                if limit is not None and len(out) >= limit:
                    return out
                zi = ring.mul(base, ring.poly(np.eye(1, j + 1, j, dtype=np.int64)[0]))
                z = [zi, ring.zero] if i == 0 else [ring.zero, zi]
                out.append(self._apply_V(z))
        return out

    def kernel_vector(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The taps (h x w) of the chase from (u, v) with b = 0 (in ker A when (u, v) is
        one of :meth:`kernel_starts`)."""
        X = np.empty((self.h, self.w), np.uint8)
        r1, r2 = self._chase(None, u, v, X)
        if r1.any() or r2.any():
            raise RuntimeError("torus algebra: a kernel vector left a residual (a bug)")
        return X
