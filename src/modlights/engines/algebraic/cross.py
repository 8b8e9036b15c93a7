"""Uniform boards by polynomial algebra: the residual system of the light chase as one
polynomial equation.

Covered boards (:func:`algebraic_reason` says why a board is not): grid boards over a
prime n with one pattern everywhere, no locks, no holes (tori too: see below), whose pattern uses
only the offsets (0,0), (0,+-1), (+-1,0) (cross, vertical, horizontal, the cross without
its centre, any counts of these) with the count of (-1,0) a unit mod n (else the board
is worked on transposed, with (0,-1) in that role: horizontal).

The chase from the first tap row leaves one polynomial equation
``F(x) z(x) = -c(x) (mod chi_T(x))`` in place of the w x w residual system (derived in
docs/guide/engines.md, "Row recurrences"):

- nullity = deg g, g = gcd(F, chi_T) (for n = 2 and k x k cross boards this is OEIS
  A159257); |ker A| = p^nullity;
- solvable iff g divides c; then z = s (-c / g) mod chi_T with s F + t chi_T = g
  (extended gcd), and the taps are the numeric chase replayed from X_0 = z;
- ker A is spanned by the chases (zero right-hand side) from (chi_T / g) x^i,
  i < deg g.

Tori (wrap=True, at least 3 tiles along the chase) leave a 2 x 2 system over
GF(p)[s] / (s^w - 1), solved by :mod:`modlights.engines.algebraic.torus`; _torus_nullity
computes the same nullity independently (the tests compare them). det over p > 2 is left
to the registry's dense fallback. A torus costs four chases of O(h w) plus a fixed O(w^2) of ring
arithmetic in Python, so on small tori the chase engine is cheaper (the Solver's choice
weighs that).

Boards whose row operator T has only a super-diagonal are mirrored left-right for the conversions
(e_{w-1} is then the cyclic vector); boards with a diagonal T (vertical) have
F(T) = F(t0) I. det(A) = (-cu)^{hw} Res(chi_T, F).

The C side (csrc/poly.c, csrc/rowrec.c) keeps GF(2) rows and polynomials bit-packed:
the chase is O(h w / 64) word operations a pass (two passes, one when the first
residual is zero), the gcd, the extended gcd and the conversions O(w^2 / 64) (less
with Karatsuba for the one product), memory O(w) beyond the taps. GF(p) works on bytes
with delayed reduction. :meth:`RowPolynomialEngine.solve_packed` takes and returns
``np.packbits(..., axis=1)`` rows (n = 2), so a 100000 x 100000 board needs 1.25 GB a
state (boards chased down their columns are transposed in 64 x 64 bit blocks on the
way; the symmetric 3 x 3 engine shares it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from modlights.engines.algebraic.polymat import mat_pow, mono, padd, poly
from modlights.model.ring import is_prime, unit_inverse

__all__ = ["AlgebraicEngine", "algebraic_reason", "algebraic_supports", "KERNEL_BYTES_MAX"]

#: Offsets a covered pattern may use.
ROW_OFFSETS = frozenset({(0, 0), (0, 1), (0, -1), (-1, 0), (1, 0)})
#: Largest prime the polynomial code takes (coefficients in a byte).
MAX_PRIME = 251
#: Largest kernel basis (generators x taps bytes) ``generators()`` builds (256 MiB).
KERNEL_BYTES_MAX = 1 << 28


def _counts(board) -> dict:
    counts: dict = {}
    for o in board.pattern:
        counts[o] = counts.get(o, 0) + 1
    return counts


def uniform_prime_grid_reason(board) -> str | None:
    """Why ``board`` is not a grid board over a prime n (up to MAX_PRIME) with one pattern
    and no locked tiles or holes, or None: what every polynomial engine needs."""
    if not getattr(board, "is_grid", False):
        return "it needs a grid board (Board.grid)"
    n = board.states
    if not is_prime(n) or n > MAX_PRIME:
        return f"n must be a prime (2..{MAX_PRIME}), this board has n = {n}"
    if board.pattern is None:
        return "it needs one pattern on every tile (this board is mixed)"
    if board._any_locked or board._any_holes:
        return "it needs a board without locked tiles or holes"
    return None


def algebraic_reason(board) -> str | None:
    """None when :class:`AlgebraicEngine` covers the board, else why it does not."""
    reason = uniform_prime_grid_reason(board)
    if reason is not None:
        return reason
    extra = sorted(set(board.pattern) - ROW_OFFSETS)
    if extra:
        return f"the pattern may use only the offsets (0,0), (0,+-1), (+-1,0); it uses {extra[0]}"
    n = board.states
    c = _counts(board)
    rows, cols = board.shape
    down = c.get((-1, 0), 0) % n != 0 and (rows >= 3 or not board.wrap)
    across = c.get((0, -1), 0) % n != 0 and (cols >= 3 or not board.wrap)
    if not (down or across):
        return (
            "the chase needs the offset (-1, 0) (or, on the transposed board, (0, -1)) "
            "with a count that is a unit mod n"
            + (", and a torus at least 3 tiles along that direction" if board.wrap else "")
        )
    return None


def algebraic_supports(board) -> bool:
    """Whether :class:`AlgebraicEngine` covers the board."""
    return algebraic_reason(board) is None


def _neg(v: np.ndarray, p: int) -> np.ndarray:
    return ((p - v.astype(np.int64)) % p).astype(np.uint8)


class RowPolynomialEngine:
    """What the polynomial engines (:class:`AlgebraicEngine`,
    :class:`~modlights.engines.algebraic.sym.SymAlgebraicEngine`) share: a chase of h rows
    of w taps (the board transposed when ``transposed``), the kernel from a polynomial
    gcd (inverse and pseudo-inverse are not theirs: the registry answers them,
    :func:`modlights.engines.registry.ask`). Subclasses call
    ``__init__`` with their coverage check's answer and set ``h``, ``w``, ``transposed``
    and ``nullity``."""

    # set or defined by the subclasses (see the class docstring)
    h: int
    w: int
    transposed: bool
    nullity: Any  # an int: a property of each subclass
    _chase: Callable[..., Any]
    _residual_z: Callable[..., Any]

    def __init__(self, board, reason: str | None):
        if reason is not None:
            raise ValueError(
                f"method='algebraic' does not cover this board: {reason}; "
                "use method='chase' or 'auto'"
            )
        self.board = board
        self.n = board.states

    @property
    def kernel_size(self) -> int:
        """|ker A| = n ** nullity."""
        return self.n**self.nullity

    @property
    def residual_shape(self) -> tuple[int, int]:
        """(equations, symbols) of the residual system: one row of w."""
        return self.w, self.w

    def _grid_of(self, rhs: np.ndarray) -> np.ndarray:
        """A right-hand side (or tap) vector as the h x w rows the chase runs on."""
        rows, cols = self.board.shape
        B = np.asarray(rhs, dtype=np.uint8).reshape(rows, cols)
        if self.transposed:
            from modlights.engines.chase.engine import transpose_bytes

            return transpose_bytes(B)
        return np.ascontiguousarray(B)

    def _taps_of(self, x: np.ndarray) -> np.ndarray:
        """The chase's h x w rows back as a vector in the board's tap order."""
        if self.transposed:
            from modlights.engines.chase.engine import transpose_bytes

            x = transpose_bytes(x)
        return x.reshape(-1)

    def kernel_fits(self) -> bool:
        """Whether the kernel basis fits in KERNEL_BYTES_MAX bytes."""
        return self.nullity * self.h * self.w <= KERNEL_BYTES_MAX

    def _generator_count(self, limit: int | None) -> int:
        """How many kernel generators to list (all, or the first ``limit``); ValueError
        when they would take more than KERNEL_BYTES_MAX bytes."""
        k, hw = self.nullity, self.h * self.w
        if limit is not None:
            k = min(k, max(0, int(limit)))
        if k * hw > KERNEL_BYTES_MAX:
            raise ValueError(
                f"the kernel basis has {k} generators of {hw} taps: "
                f"{k * hw / 2**30:.2f} GiB, more than the "
                f"{KERNEL_BYTES_MAX / 2**20:.0f} MiB allowed; nullity, "
                "kernel_size, solvable and solve do not need it"
            )
        return k

    def __reduce__(self):
        """Pickles as its board (the C state is rebuilt on use)."""
        return (type(self), (self.board,))

    # ---------------------------------------------------------------- solving
    def _solve_grid(
        self,
        B: np.ndarray,
        tc: int = 0,
        sb: int = 1,
        packed: bool = False,
        out: np.ndarray | None = None,
    ) -> np.ndarray | None:
        """Taps (working orientation, B's layout) of b_eff = tc + sb B, None if none.
        GF(2): the first pass only reads (its taps are kept only when z = 0 solves).
        Subclasses give ``_chase(B, z, out, tc, sb, packed, write)`` -> (x, last) and
        ``_residual_z(last)``."""
        x, last = self._chase(B, None, out, tc, sb, packed, write=self.n != 2)
        if not last.any():
            if x is None:
                x, _ = self._chase(B, None, out, tc, sb, packed)
            return x
        z = self._residual_z(last)
        if z is None:
            return None
        x, last = self._chase(B, z, x if x is not None else out, tc, sb, packed)
        if last.any():  # never: F(T) z = -c by construction
            raise RuntimeError("algebraic engine: the replay left a residual (a bug)")
        return x

    # ---------------------------------------------------------------- bit-packed
    @property
    def packs(self) -> bool:
        """Whether solve_packed / apply_packed take this board (n = 2)."""
        return self.n == 2

    def solve_packed(self, packed: np.ndarray, tc: int = 0) -> np.ndarray | None:
        """GF(2) taps of ``tc + packed`` (np.packbits rows, board orientation) in the
        same layout; None when unsolvable. Never unpacked: O(rows cols / 64) word
        operations. A board chased down its columns (``transposed``) is transposed in
        64 x 64 bit blocks on the way in and out (two more packed states of memory)."""
        if self.n != 2:
            raise ValueError(f"solve_packed needs n = 2, this board has n = {self.n}")
        if not self.packs:
            raise ValueError(
                "solve_packed does not take tori of the cross family; use solve() on a byte state"
            )
        if not self.transposed:
            return self._solve_grid(packed, tc=tc, packed=True)
        from modlights.engines.packed import transpose_packed

        rows, cols = self.board.shape
        bt = transpose_packed(packed, rows, cols)
        xt = self._solve_grid(bt, tc=tc, packed=True)
        del bt
        return None if xt is None else transpose_packed(xt, cols, rows)

    def apply_packed(
        self, x: np.ndarray, s: np.ndarray | None = None, tc: int = 0, write: bool = True
    ) -> tuple[np.ndarray | None, int]:
        """GF(2), np.packbits rows (board orientation): (s + A x or None when not
        ``write``, the number of tiles where s + A x differs from tc), streamed a row at
        a time from the pattern (:func:`modlights.engines.packed.apply_packed`)."""
        if self.n != 2:
            raise ValueError(f"apply_packed needs n = 2, this board has n = {self.n}")
        from modlights.engines.packed import apply_packed

        return apply_packed(self.board, x, s, tc, write)


class AlgebraicEngine(RowPolynomialEngine):
    """The engine interface of :class:`~modlights.solver.Solver` (``kernel_size``,
    ``nullity``, ``generators()``, ``solve(R)``, ``det()`` but on tori over p > 2) for
    the uniform boards :func:`algebraic_reason` accepts. Registered twice: as
    "algebraic-cross" (which answers det) and "algebraic-torus" (which leaves det, like
    inverse and pseudo-inverse, to the registry's fallback)."""

    name = "algebraic"

    def __init__(self, board):
        from modlights.native._core import RowRec

        super().__init__(board, algebraic_reason(board))
        p = self.n
        rows, cols = board.shape
        c = _counts(board)
        # the chase runs down the rows when (-1, 0) has a unit count, else down the
        # columns of the transposed board (offset (dr, dc) becomes (dc, dr)); a torus
        # needs 3 rows along the chase
        self.transposed = c.get((-1, 0), 0) % p == 0 or (board.wrap and rows < 3)
        if self.transposed:
            c = {(dc, dr): k for (dr, dc), k in c.items()}
            rows, cols = cols, rows
        self.h, self.w = rows, cols
        args = (
            c.get((0, 0), 0),
            c.get((0, 1), 0),
            c.get((0, -1), 0),
            c.get((-1, 0), 0),
            c.get((1, 0), 0),
        )
        self._offset_counts = args
        self._rec = RowRec(rows, cols, p, *args)
        d, cr, cl, cu, cd = (a % p for a in args)
        self.torus = board.wrap
        self._conv: Any  # the RowRec of the residual's conversions, or None
        if self.torus:
            self.mode, self._conv = "torus", None
        elif cols > 1 and cr:
            self.mode, self._conv = "cyclic", self._rec
        elif cols > 1 and cl:
            # e_{w-1} is cyclic: convert the mirror images (sub- and super-diagonal swapped)
            self.mode, self._conv = "mirrored", RowRec(rows, cols, p, d, cl, cr, cu, cd)
        else:
            self.mode, self._conv = "scalar", None
        inv = pow(cu, p - 2, p)
        self._t0 = (p - d) * inv % p
        self._mu = (p - cd) * inv % p
        self._cu = cu
        self._chi: Any = None
        self._F: Any = None
        self._g: Any = None
        self._s: Any = None
        self._fscalar: int | None = None
        self._torus_sys = None

    # ---------------------------------------------------------------- the algebra
    def _scalar_F(self) -> int:
        """F(t0) for a diagonal T (P_{i+1} = t0 P_i + mu P_{i-1} mod p)."""
        if self._fscalar is None:
            p, t0, mu = self.n, self._t0, self._mu
            a, b = 0, 1
            for _ in range(self.h):
                a, b = b, (t0 * b + mu * a) % p
            self._fscalar = b
        return self._fscalar

    def _poly_F(self):
        if self._chi is None:
            chi = self._conv.charpoly()
            self._F = self._conv.residual_poly(chi)
            self._chi = chi
        return self._chi, self._F

    def _xgcd(self):
        """(g, s): g = gcd(F, chi) = s F + t chi."""
        if self._s is None:
            chi, F = self._poly_F()
            self._g, self._s, _ = F.xgcd(chi, with_t=False)
        return self._g, self._s

    @property
    def nullity(self) -> int:
        """dim ker A."""
        if self.mode == "torus":
            return self._torus_system().nullity
        if self.mode == "scalar":
            return 0 if self._scalar_F() else self.w
        if self._g is None:
            chi, F = self._poly_F()
            self._g = F.gcd(chi)
        return int(self._g.degree)

    def _residual_z(self, c: np.ndarray) -> np.ndarray | None:
        """z with F(T) z = -c (values < p, w entries), None when there is none."""
        p = self.n
        negc = c if p == 2 else _neg(c, p)
        if self.mode == "scalar":
            f = self._scalar_F()
            if f == 0:
                return None if c.any() else np.zeros(self.w, np.uint8)
            return (negc.astype(np.int64) * unit_inverse(f, p) % p).astype(np.uint8)
        chi, _ = self._poly_F()
        g, s = self._xgcd()
        mirrored = self.mode == "mirrored"
        cp = self._conv.vec_to_poly(negc[::-1] if mirrored else negc)
        q, r = cp.divmod(g)
        if r.degree >= 0:
            return None
        z = self._conv.poly_to_vec((s * q).divmod(chi)[1])
        return np.ascontiguousarray(z[::-1]) if mirrored else z

    # ---------------------------------------------------------------- chasing
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
        if self.n == 2:
            return self._rec.chase_gf2(B, packed, tc, z, out, write)
        return self._rec.chase_gfp(B, tc, sb, z, out)

    # ---------------------------------------------------------------- interface
    def _torus_system(self):
        """The 2 x 2 residual system over GF(p)[s] / (s^w - 1) of a torus
        (:class:`~modlights.engines.algebraic.torus.TorusSystem`), built on first use."""
        if self._torus_sys is None:
            from modlights.engines.algebraic.torus import TorusSystem

            self._torus_sys = TorusSystem(self.h, self.w, self.n, self._offset_counts)
        return self._torus_sys

    def _solve_one(self, rhs: np.ndarray) -> np.ndarray | None:
        """Taps (working orientation) of one right-hand side vector, None if none."""
        if self.torus:
            return self._torus_system().solve(self._grid_of(rhs))
        return self._solve_grid(self._grid_of(rhs))

    def solve(self, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        R = np.asarray(R)
        k = R.shape[0]
        ok = np.zeros(k, dtype=bool)
        if k == 1:
            x = self._solve_one(R[0])
            if x is None:
                return np.zeros((1, R.shape[1]), np.uint8), ok
            ok[0] = True
            return self._taps_of(x).reshape(1, -1), ok
        X = np.zeros((k, R.shape[1]), dtype=np.uint8)
        for i in range(k):
            x = self._solve_one(R[i])
            if x is not None:
                X[i] = self._taps_of(x)
                ok[i] = True
        return X, ok

    @property
    def packs(self) -> bool:
        """Whether solve_packed / apply_packed take this board (n = 2, not a torus:
        tori are solved by the chase)."""
        return self.n == 2 and not self.torus

    def apply_packed(
        self, x: np.ndarray, s: np.ndarray | None = None, tc: int = 0, write: bool = True
    ) -> tuple[np.ndarray | None, int]:
        """GF(2), np.packbits rows (board orientation): (s + A x or None when not
        ``write``, the number of tiles where s + A x differs from tc), streamed a row at
        a time (no per-tile temporaries): the row recurrence's own pass for boards
        chased down their rows, the pattern's offsets otherwise."""
        if self.n == 2 and not self.transposed and not self.torus:
            return self._rec.apply_gf2(x, s, True, tc, write)
        return super().apply_packed(x, s, tc, write)

    def generators(self, limit: int | None = None) -> tuple[np.ndarray, list[int]]:
        """(H uint8 (k x n_taps), orders) of ker A; limit: only the first ``limit``
        generators (a bounded part of a large kernel, as the other engines give)."""
        k = self._generator_count(limit)
        p = self.n
        H = np.zeros((k, self.h * self.w), dtype=np.uint8)
        if k == 0:
            return H, []
        if self.torus:
            ts = self._torus_system()
            for i, (u, v) in enumerate(ts.kernel_starts(k)):
                H[i] = self._taps_of(ts.kernel_vector(u, v))
            return H, [p] * k
        zero = np.zeros((self.h, self.w), dtype=np.uint8)
        if self.mode == "scalar":
            zs = [np.eye(1, self.w, i, dtype=np.uint8)[0] for i in range(k)]
        else:
            from modlights.native._core import Gf2Poly, GfpPoly

            chi, _ = self._poly_F()
            base = chi.divmod(self._gcd_poly())[0]
            zs = []
            for i in range(k):
                xi = Gf2Poly(1 << i) if p == 2 else GfpPoly([0] * i + [1], p)
                z = self._conv.poly_to_vec(base * xi)
                zs.append(np.ascontiguousarray(z[::-1]) if self.mode == "mirrored" else z)
        for i, z in enumerate(zs):
            x, last = self._chase(zero, z)
            if last.any():
                raise RuntimeError("algebraic engine: a kernel vector left a residual (a bug)")
            H[i] = self._taps_of(x)
        return H, [p] * k

    def _gcd_poly(self):
        """g = gcd(F, chi_T) (cyclic / mirrored modes)."""
        _ = self.nullity  # computing the nullity sets self._g
        return self._g

    def det(self) -> int:
        """det(A) mod n = (-cu)^(h w) Res(chi_T, F) (F(t0)^w for a diagonal T); 0 when
        singular, 1 over GF(2). ValueError for a torus over p > 2 with a trivial kernel
        (registered as "algebraic-torus", which leaves det to the registry)."""
        if self.nullity:
            return 0
        p = self.n
        if p == 2:
            return 1
        if self.torus:
            raise ValueError(
                "det of a torus over p > 2 is not the algebraic engine's: Solver.det "
                "asks the registry's fallback"
            )
        if self.mode == "scalar":
            res = pow(self._scalar_F(), self.w, p)
        else:
            chi, F = self._poly_F()
            res = _resultant(chi, F, p)
        return pow(p - self._cu, self.h * self.w, p) * res % p


# ---------------------------------------------------------------- tori
def _torus_nullity(h: int, w: int, p: int, d: int, cr: int, cl: int, cu: int, cd: int) -> int:
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


def _resultant(a, b, p: int) -> int:
    """Res(a, b) over GF(p) by Euclid: Res(a, b) = (-1)^(deg a deg b) lc(b)^(deg a -
    deg r) Res(b, r), r = a mod b; Res(a, c) = c^deg a for a constant c."""
    out = 1
    while True:
        m, n = a.degree, b.degree
        if n < 0:
            return 0
        if n == 0:
            return out * pow(int(b.coeffs()[0]), m, p) % p
        r = a.divmod(b)[1]
        k = r.degree
        if k < 0:
            return 0
        if (m * n) % 2:
            out = -out
        out = out * pow(int(b.coeffs()[-1]), m - k, p) % p
        a, b = b, r
