"""Uniform boards with left-right symmetric 3 x 3 patterns by polynomial algebra: the
algebraic engine's method (:mod:`modlights.engines.algebraic.cross`) with polynomial row
coefficients.

Covered boards (:func:`sym_reason` says why a board is not): grid boards (no tori) over
a prime n with one pattern everywhere, no locks, no holes, whose pattern lies in the
3 x 3 box and, in the orientation chased, is left-right symmetric (count of (r, +1) =
count of (r, -1)) with an invertible coefficient C_1 of the next row (below). Patterns
of the algebraic engine proper (offsets (0,0), (0,+-1), (+-1,0) only) go there; this
covers diagonal, the ring (3 x 3 without its centre) and custom symmetric ones.

With P the w x w path adjacency (ones on the sub- and super-diagonals) and tap rows
X_0..X_{h-1}, the rows of A x = b read ``C_{-1} X_{r-1} + C_0 X_r + C_1 X_{r+1} = b_r``
with ``C_k = a_k I + b_k P`` (C_1: the counts of (-1, 0) and (-1, +1), the offsets
that reach the row above a tap; C_{-1}: those of (+1, .)). All C_k are polynomials in
P, so they commute. When C_1 is invertible (gcd(chi_P, a_1 + b_1 x) = 1; for diagonal
over GF(2): w even), chasing from X_0 = z forces X_r = F_r z + c_r with
F_{r+1} = T F_r + M F_{r-1}, T = -C_1^-1 C_0, M = -C_1^-1 C_{-1}, in
R = GF(p)[x] / (chi_P). The scaled G_r = C_1^r F_r are polynomials with
``G_{r+1} = -C_0 G_r - C_{-1} C_1 G_{r-1}`` (G_0 = 1, G_{-1} = 0), found by powering
the 2 x 2 companion matrix over R (O(log h) products mod chi_P); as C_1 is a unit of R,
gcd(F_h, chi_P) = gcd(G_h, chi_P) = g and:

- nullity = deg g;
- solvable iff g divides c = -X_h (the virtual row of the chase from z = 0); then
  z = s C_1^h (c / g) mod chi_P with s G_h + t chi_P = g, and the taps are the chase
  replayed from X_0 = z;
- ker A is spanned by the chases from (chi_P / g) x^i, i < deg g.

e_0 is a cyclic vector of P, so v = f(P) e_0 identifies GF(p)^w with R (the
conversions of :class:`~modlights.native._core.RowRec` with T = P). The numeric chase
(csrc/symchase.c) solves one tridiagonal Toeplitz system C_1 y = v a row in O(w).
When C_1 is singular in the rows' orientation but not in the columns' (and the
transposed pattern is symmetric), the board is worked on transposed.
det, inverse and pseudo-inverse are the registry's (its dense fallback, small boards;
det from the kernel where that decides it: :func:`modlights.engines.registry.ask`).

GF(2) boards also take np.packbits rows (``solve_packed``, ``apply_packed``, shared
with the algebraic engine through :class:`~modlights.engines.algebraic.cross.
RowPolynomialEngine`): there C_1 y = v is a prefix XOR with stride 2 (diagonal: C_1 =
P) or 3 (C_1 = I + P) on 64-bit words, since 1 / (1 + k x + x^2) = (1 + k x) / (1 + x^m)
over GF(2), so a row costs O(w / 64) word operations, never a byte a tile.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from modlights.engines.algebraic.cross import (
    RowPolynomialEngine,
    _counts,
    _neg,
    uniform_prime_grid_reason,
)
from modlights.engines.algebraic.polymat import mat_pow, padd, poly, power

__all__ = ["SymAlgebraicEngine", "sym_reason", "sym_supports"]

BOX = frozenset((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def _row_coeffs(c: dict, p: int) -> tuple[list[int], list[int]] | None:
    """(a, b) for the chase (a[k], b[k]: the I and P parts of the coefficient of
    X_{r-1+k}), None when the counts are not left-right symmetric."""
    if any(c.get((dr, 1), 0) % p != c.get((dr, -1), 0) % p for dr in (-1, 0, 1)):
        return None
    return (
        [c.get((dr, 0), 0) % p for dr in (1, 0, -1)],
        [c.get((dr, 1), 0) % p for dr in (1, 0, -1)],
    )


def _c1_invertible(a1: int, b1: int, w: int, p: int) -> bool:
    """Whether a1 I + b1 P (w x w) is invertible over GF(p)."""
    from modlights.native._core import SymChase

    try:
        SymChase(1, w, p, [0, 0, a1], [0, 0, b1])
    except ValueError:
        return False
    return True


def _orientation(board) -> tuple[bool, list[int], list[int]] | None:
    """(transposed, a, b) of the first orientation the chase runs in, else None."""
    p = board.states
    c = _counts(board)
    rows, cols = board.shape
    for transposed in (False, True):
        cc = {(dc, dr): k for (dr, dc), k in c.items()} if transposed else c
        w = rows if transposed else cols
        ab = _row_coeffs(cc, p)
        if ab is not None and _c1_invertible(ab[0][2], ab[1][2], w, p):
            return transposed, ab[0], ab[1]
    return None


def sym_reason(board) -> str | None:
    """None when :class:`SymAlgebraicEngine` covers the board, else why it does not."""
    reason = uniform_prime_grid_reason(board)
    if reason is not None:
        return reason
    if board.wrap:
        return "it does not take tori (wrap=True)"
    extra = sorted(set(board.pattern) - BOX)
    if extra:
        return f"the pattern must lie in the 3 x 3 box around the tap; it uses {extra[0]}"
    if _orientation(board) is None:
        return (
            "the pattern must be left-right (or, transposed, up-down) symmetric with an "
            "invertible coefficient a I + b P of the next row (a, b: the counts of "
            "(-1, 0) and (-1, +1); P the path adjacency of a row), and it is not in "
            "either orientation for this board's size"
        )
    return None


def sym_supports(board) -> bool:
    """Whether :class:`SymAlgebraicEngine` covers the board."""
    return sym_reason(board) is None


class SymAlgebraicEngine(RowPolynomialEngine):
    """The engine interface of :class:`~modlights.solver.Solver` (``kernel_size``,
    ``nullity``, ``generators()``, ``solve(R)``) for the boards :func:`sym_reason`
    accepts.

    Parameters
    ----------
    board : Board
        A covered board.
    """

    name = "algebraic"

    def __init__(self, board):
        from modlights.native._core import RowRec, SymChase

        super().__init__(board, sym_reason(board))
        p = self.n
        orientation = _orientation(board)
        assert orientation is not None  # sym_reason(board) above: the engine covers it
        self.transposed, self._a, self._b = orientation
        rows, cols = board.shape
        if self.transposed:
            rows, cols = cols, rows
        self.h, self.w = rows, cols
        self._chaser = SymChase(rows, cols, p, self._a, self._b)
        # T = -(cr shift + cl shift) / cu = P: the conversions of R = GF(p)[x] / (chi_P)
        self._conv = RowRec(rows, cols, p, 0, p - 1, p - 1, 1, 0)
        self._chi: Any = None
        self._G: Any = None
        self._g: Any = None
        self._s: Any = None

    # ---------------------------------------------------------------- the algebra
    def _mulmod(self, a, b):
        return (a * b).divmod(self._chi)[1]

    def _algebra(self):
        """(chi_P, G_h mod chi_P)."""
        if self._chi is None:
            p = self.n
            self._chi = chi = self._conv.charpoly()
            c = [poly([self._a[k], self._b[k]], p) for k in range(3)]
            zero, one = poly([], p), poly([1], p)
            neg = lambda f: padd(zero, f, p, p - 1)  # noqa: E731
            base = [
                [neg(c[1]).divmod(chi)[1], neg(self._mulmod(c[0], c[2]))],
                [one.divmod(chi)[1], zero],
            ]
            self._G = mat_pow(base, self.h, one, zero, lambda a, b: padd(a, b, p), self._mulmod)[0][
                0
            ]
        return self._chi, self._G

    def _xgcd(self):
        if self._s is None:
            chi, G = self._algebra()
            g, s, _ = G.xgcd(chi, with_t=False)
            # s F_h = s C_1^h G_h... F_h = C_1^-h G_h, so s C_1^h F_h = g
            c1 = poly([self._a[2], self._b[2]], self.n)
            self._g, self._s = (
                g,
                self._mulmod(s, power(c1, self.h, poly([1], self.n), self._mulmod)),
            )
        return self._g, self._s

    @property
    def nullity(self) -> int:
        """dim ker A = deg gcd(G_h, chi_P)."""
        if self._g is None:
            chi, G = self._algebra()
            self._g = G.gcd(chi)
        return int(self._g.degree)

    def _vec_poly(self, v: np.ndarray):
        return self._conv.vec_to_poly(v)

    def _residual_z(self, last: np.ndarray) -> np.ndarray | None:
        """z with F_h z = -last, None when there is none."""
        p = self.n
        chi, _ = self._algebra()
        g, s = self._xgcd()
        cp = self._conv.vec_to_poly(last if p == 2 else _neg(last, p))
        q, r = cp.divmod(g)
        if r.degree >= 0:
            return None
        return self._conv.poly_to_vec(self._mulmod(s, q))

    def _chase(
        self,
        B: np.ndarray,
        z: np.ndarray | None,
        out: np.ndarray | None = None,
        tc: int = 0,
        sb: int = 1,
        packed: bool = False,
        write: bool = True,
    ):
        """(taps or None, virtual row X_h) of the chase of b_eff = tc + sb B from X_0 = z
        (RowPolynomialEngine._solve_grid drives it): GF(2) packed rows (csrc/symchase.c,
        word-parallel), else bytes (tc = 0 and sb = 1 only; every row written)."""
        if packed:
            return self._chaser.chase_packed(B, tc, z, out, write)
        if tc or sb != 1:
            raise ValueError("the byte chase takes b itself (tc = 0, sb = 1)")
        return self._chaser.chase(B, z, out=out)

    # ---------------------------------------------------------------- interface
    def solve(self, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(X, ok): X[i] solves A x = R[i] where ok[i] (zeros elsewhere)."""
        R = np.asarray(R)
        k = R.shape[0]
        X = np.zeros((k, R.shape[1]), dtype=np.uint8)
        ok = np.zeros(k, dtype=bool)
        for i in range(k):
            x = self._solve_grid(self._grid_of(R[i]))
            if x is not None:
                X[i] = self._taps_of(x)
                ok[i] = True
        return X, ok

    def generators(self, limit: int | None = None) -> tuple[np.ndarray, list[int]]:
        """(H uint8 (k x n_taps), orders) of ker A; limit: only the first ``limit``."""
        k = self._generator_count(limit)
        p = self.n
        H = np.zeros((k, self.h * self.w), dtype=np.uint8)
        if k == 0:
            return H, []
        chi, _ = self._algebra()
        base = chi.divmod(self._g)[0]
        zero = np.zeros((self.h, self.w), dtype=np.uint8)
        for i in range(k):
            z = self._conv.poly_to_vec(base * poly([0] * i + [1], p))
            x, last = self._chaser.chase(zero, z)
            if last.any():
                raise RuntimeError(
                    "symmetric algebraic engine: a kernel vector left a residual (a bug)"
                )
            H[i] = self._taps_of(x)
        return H, [p] * k
