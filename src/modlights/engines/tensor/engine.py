"""Product patterns by Kronecker factorisation: two families of 1-D banded systems.

Covered boards (:func:`tensor_reason` says why a board is not): grid boards with one
pattern everywhere, no locks, no holes (tori too), whose offset counts factor exactly,
``cnt(dr, dc) = a(dr) * b(dc)`` over the integers: square (3 x 3 block), horizontal,
vertical, or any custom product of a row set and a column set of offsets. Then the tap
matrix is a Kronecker product, A = R (x) C, with R (rows x rows) and C (cols x cols)
banded Toeplitz matrices (circulant on a torus): ``R[i, j] = a(i - j)``,
``C[i, j] = b(i - j)``. With taps X and right-hand side B as rows x cols arrays (row
major), A x = b reads ``R X C^T = B``.

Each factor is solved by a 1-D chase (:class:`BandFactor`): with the band of offsets
dmin..dmax (coefficients c(d) mod n), equation i determines y[i - dmin] from the
ones before it when c(dmin) is a unit; the values nothing determines are symbols z
(|dmin| of them, dmax - dmin on a torus) and the equations left over are the residual
system M z = -q(b), s x s with s the number of symbols. The chase runs over every
column of B at once as NumPy row operations (bytes, 64 at a time as words over GF(2)),
the symbols riding along as s extra columns, so one pass gives the particular values,
the symbol matrix S and M. With G_M a generalised inverse of M (M G_M M = M), b ->
P b + S G_M (-q(b)) is a generalised inverse G_R of R, and G_R (x) G_C one of A:

- ``X = G_R B G_C^T``: one chase down the rows (R, every column at once), one along
  the columns (C, on the transposed array); O(rows x cols x band) in all;
- solvable iff both residual systems are consistent (each row of G_R B is then in the
  image of C: G_R B = G_R R X C^T);
- over a prime n: nullity = rows cols - rank(R) rank(C), rank(R) = rows - nullity(M);
  ker A = ker R (x) F^cols + F^rows (x) ker C has the basis u_a (x) e_j, e_i (x) v_b
  (u_a, v_b bases of ker R, ker C in reduced form on the symbols, i outside the pivot
  symbols of ker R);
- det(A) = det(R)^cols det(C)^rows, det(R) = sign * c(dmin)^(rows - s) det(M) (M is
  the Schur complement of the chase's triangular part).

Boards past MAX_TILES (``Board.grid(100000, 100000, pattern="square")``) are covered
for rank, nullity, kernel_size and det, which need the two factors only (O(rows +
cols)), and over GF(2) solved on bit-packed states (:meth:`TensorEngine.solve_packed`,
``np.packbits`` rows, 1.25 GB a state at 100000 x 100000): the chase down the rows is
XORs of whole packed rows; along the rows, a factor I + P or P (square, horizontal) that
is invertible is solved row by row in place by a word-parallel prefix XOR (the
symmetric engine's row solve, csrc/symchase.c), any other factor on strips of rows
transposed in 64 x 64 bit blocks (csrc/packed.c) and chased as above.

Over a composite n the factors work mod n directly when their pivots c(dmin) (or
c(dmax), chasing backwards) are units and their M invertible (then A is invertible);
otherwise n is split by CRT into its prime powers q: a prime q is a field (singular
factors included), a q = p^k with k > 1 is either invertible mod q (as above) or a
ring part (:class:`_RingPart`), a factor singular mod p, whose M may have no
generalised inverse over Z/p^k. A ring part uses the chase as a change of variables:
Phi(y) = ((F y)_det, y_syms) is unimodular and F = E^-1 diag(I, M) Phi (E replaces the
residual rows of b by minus the chase's residual), so R X C^T = B becomes four
independent blocks for Y = Phi_R X Phi_C^T: Y11 = B'11, Y12 M_C^T = B'12,
M_R Y21 = B'21, M_R Y22 M_C^T = B'22 (B' = E_R B E_C^T), the small ones solved over
Z/p^k through the Smith forms of M_R and M_C (M_R (x) M_C's from theirs). The cost is
that of a field part (two full chases and transposes) plus chases of s columns and
rank-s updates: 5000 x 5000 Z/9 square 0.15 s instead of 14 s by the chase. Its kernel,
|ker M_C|^(rows - s_R) |ker M_R|^(cols - s_C) |ker (M_R (x) M_C)|, is the image of the
blocks' cyclic summands (:meth:`_RingPart.generators`, with their orders, for
``kernel_size`` and the minimal search); det(A) = det(R)^cols det(C)^rows as before
(det(F) = +-c(dmin)^(L - s) det(M) holds over any ring); A is never invertible there,
and inverse / pseudo_inverse go to the dense engine, which refuses a generalised
inverse where none exists. The parts' solutions and kernel generators are combined
as the lifted engine combines them; other boards (a band zero mod n, without a unit
end, or of more than MAX_SYMBOLS symbols) are left to the lifted, chase and dense
engines. ``method="auto"`` prefers the
algebraic engine for the boards both cover (cross-free row recurrences are faster
there); the tensor engine takes square and other 2-D products, where the chase's cone
spans whole rows.
"""
from __future__ import annotations

from math import gcd, prod
from typing import Any, Callable

import numpy as np

from modlights.engines.reference import ReferenceEngine, factorize, is_prime
from modlights.engines.base import dense_fallback

__all__ = ["TensorEngine", "BandFactor", "tensor_reason", "tensor_supports",
           "factor_pattern", "MAX_SYMBOLS", "KERNEL_BYTES_MAX"]

#: Largest number of symbols (band width) a 1-D factor may carry.
MAX_SYMBOLS = 64
#: Largest kernel basis (generators x taps bytes) ``generators()`` builds (256 MiB).
KERNEL_BYTES_MAX = 1 << 28
#: Rows a strip of the packed solve's column direction (transposed: 64 bytes a row).
STRIP_ROWS = 512


def factor_pattern(pattern) -> tuple[dict, dict] | None:
    """(a, b) with cnt(dr, dc) = a[dr] * b[dc] exactly (integer counts of the offsets,
    a and b dicts of positive ints, b primitive), or None when the counts do not
    factor (or the pattern is empty)."""
    counts: dict = {}
    for o in pattern:
        counts[o] = counts.get(o, 0) + 1
    if not counts:
        return None
    drs = sorted({dr for dr, _ in counts})
    dcs = sorted({dc for _, dc in counts})
    first = [counts.get((drs[0], dc), 0) for dc in dcs]
    g = 0
    for v in first:
        g = gcd(g, v)
    u = [v // g for v in first]
    j = next(i for i, v in enumerate(u) if v)
    a = {}
    for dr in drs:
        row = [counts.get((dr, dc), 0) for dc in dcs]
        k, rem = divmod(row[j], u[j])
        if rem or any(rv != k * uv for rv, uv in zip(row, u)):
            return None
        a[dr] = k
    return a, {dc: v for dc, v in zip(dcs, u) if v}


def _band(coeffs: dict, length: int, n: int, wrap: bool) -> dict:
    """Non-zero coefficients mod n of the 1-D factor: {offset: c}; on a torus the
    offsets are reduced mod length, then written in the shortest cyclic window."""
    if not wrap:
        band = {d: c % n for d, c in coeffs.items() if abs(d) < length and c % n}
        return band
    cyc: dict = {}
    for d, c in coeffs.items():
        cyc[d % length] = (cyc.get(d % length, 0) + c) % n
    keys = sorted(k for k, c in cyc.items() if c)
    if not keys:
        return {}
    # the window starts after the largest cyclic gap between non-zero offsets
    gaps = [((keys[(i + 1) % len(keys)] - keys[i]) % length or length, i)
            for i in range(len(keys))]
    _, i = max(gaps)
    start = keys[(i + 1) % len(keys)]
    shift = -length if start > length // 2 else 0     # the window nearest offset 0
    return {(k - start) % length + start + shift: cyc[k] for k in keys}


def _symbols(band: dict, length: int, wrap: bool) -> int:
    """Symbols of the 1-D chase (before any reversal): the band width on a torus (the
    window is shorter than the side), |dmin| otherwise, at most the side."""
    dmin, dmax = min(band), max(band)
    return min(length, dmax - dmin if wrap else abs(dmin))


def _rref_mod_p(V: np.ndarray, p: int) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form of V mod p (rows independent): (E, pivot columns)."""
    E = np.asarray(V, dtype=np.int64) % p
    piv = []
    r = 0
    for c in range(E.shape[1]):
        if r == E.shape[0]:
            break
        nz = np.flatnonzero(E[r:, c])
        if not len(nz):
            continue
        i = r + int(nz[0])
        E[[r, i]] = E[[i, r]]
        E[r] = E[r] * pow(int(E[r, c]), p - 2, p) % p
        for k in range(E.shape[0]):
            if k != r and E[k, c]:
                E[k] = (E[k] - E[k, c] * E[r]) % p
        piv.append(c)
        r += 1
    return E[:r], piv


def _mod_table(n: int, terms: int) -> np.ndarray:
    """v -> v mod n (uint8) for every sum of ``terms`` products of two values < n, the
    reduction table of csrc/band.c; empty (reduce by %) when it would pass 2^16 entries
    or n = 2 (no reduction: XOR)."""
    top = (n - 1) * (n - 1) * terms
    if n == 2 or top >= 1 << 16:
        return np.zeros(0, np.uint8)
    return (np.arange(top + 1) % n).astype(np.uint8)


def _complement(idx: np.ndarray, length: int) -> np.ndarray:
    """The sorted indices of 0..length-1 not in ``idx`` (np.setdiff1d without its
    sort: 3 s for a side of 10^6)."""
    keep = np.ones(length, dtype=bool)
    keep[idx] = False
    return np.flatnonzero(keep)


def _perm_sign(perm: np.ndarray) -> int:
    """+1 or -1: the sign of a permutation of 0..len-1."""
    seen = np.zeros(len(perm), dtype=bool)
    sign = 1
    for i in range(len(perm)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = int(perm[j])
                length += 1
            if length % 2 == 0:
                sign = -sign
    return sign


class BandFactor:
    """One 1-D factor: the length x length banded Toeplitz (circulant when ``wrap``)
    matrix ``F[i, j] = c(i - j) mod n`` and its chase.

    Parameters
    ----------
    coeffs : dict
        {offset: count}; a tap at j advances i = j + offset by count.
    length : int
        The side along this factor.
    n : int
        The modulus, 2..255.
    wrap : bool
        Circulant (a torus) instead of banded.

    Raises
    ------
    ValueError
        When the factor is zero mod n, its band needs more than MAX_SYMBOLS symbols,
        neither end of the band is a unit mod n, or it is singular mod a prime p | n and
        n is not a power of p (n = p^k, k > 1: allowed, ``ring`` True, no ``G``).
    """

    def __init__(self, coeffs: dict, length: int, n: int, wrap: bool):
        self.length, self.n, self.wrap = length, n, wrap
        band = _band(coeffs, length, n, wrap)
        if not band:
            raise ValueError(f"along one direction the pattern's counts are all multiples "
                             f"of n = {n} or its offsets leave the board (the tap matrix "
                             "is zero)")
        dmin, dmax = min(band), max(band)
        # chase forwards (pivot c(dmin)) or on the reversed axis (pivot c(dmax))
        self.reversed = gcd(band[dmin], n) != 1
        if self.reversed:
            if gcd(band[dmax], n) != 1:
                raise ValueError(f"neither end of the band {sorted(band)} has a count that "
                                 f"is a unit mod n = {n}")
            band = {-d: c for d, c in band.items()}
            dmin, dmax = -dmax, -dmin
        self.band, self.dmin, self.dmax = band, dmin, dmax
        self.s = s = _symbols(band, length, wrap)
        if s > MAX_SYMBOLS:
            raise ValueError(f"the band {dmin}..{dmax} needs {s} symbols along a side of "
                             f"{length}, more than the {MAX_SYMBOLS} allowed")
        self.inv = pow(band[dmin], -1, n)
        self._schedule()
        self.identity = band == {0: 1} and not self.reversed
        # symbol matrix S (length x s) and residual matrix M (s x s) from one chase
        # of the zero right-hand side with the symbols set to the identity
        Y, self.M = self._chase(None)
        self.S = Y[:length]
        self._sym_steps = None
        self._row_solver = None
        self._small = ReferenceEngine(self.M, n) if s else None
        # ring: n = p^k (k > 1) and M singular mod p. M then need not have a generalised
        # inverse; the engine solves such parts block by block (_RingPart) from M's
        # Smith form instead of through G. Other composite n (two primes or more) are
        # split by CRT first (_parts), so a singular factor there is refused.
        self.ring = bool(s) and not is_prime(n) and self._small.kernel_size != 1
        if self.ring and len(factorize(n)) > 1:
            raise ValueError(f"the 1-D factor (offsets {sorted(band)}, side {length}) is "
                             f"singular mod n = {n} (a composite n with two or more prime "
                             "factors needs it invertible; its prime-power parts need not)")
        self.G = self._small.pseudo_inverse().astype(np.int64) if s and not self.ring \
            else None
        # over a field dim ker F; for a ring factor the number of cyclic summands of ker M
        self.nullity = len(self._small.generators()[1]) if s else 0

    # ------------------------------------------------------------- the schedule
    def _schedule(self) -> None:
        """Which equation determines which value, the symbols and the residual rows
        (on the reversed axis when ``reversed``)."""
        L, dmin, s = self.length, self.dmin, self.s
        if self.wrap:
            if s == L:                               # everything a symbol
                self.det_vars = np.zeros(0, np.int64)
            else:
                self.det_vars = np.arange(s, L)
            self.syms = np.arange(min(s, L))
            self.det_eqs = (self.det_vars + dmin) % L
        else:
            lo, hi = max(0, -dmin), min(L - 1, L - 1 - dmin)
            self.det_vars = np.arange(lo, hi + 1) if hi >= lo else np.zeros(0, np.int64)
            self.det_eqs = self.det_vars + dmin
            self.syms = _complement(self.det_vars, L)
        self.res_eqs = _complement(self.det_eqs, L)
        assert len(self.res_eqs) == len(self.syms) == s
        # the steps of the C chase: row yrow[t] of Y from row brow[t] of B (natural
        # order) and the rows refs[t] of Y (-1: none) with coefficients -c / c(dmin)
        n = self.n
        inv = pow(self.band[dmin], -1, n)
        others = [(d, c) for d, c in sorted(self.band.items()) if d != dmin]
        m = max(1, len(others))
        eqs = self.det_eqs
        self._refs_rows = np.full((len(eqs), m), -1, np.int64)
        self._coefs = np.zeros((len(eqs), m), np.uint32)
        for q, (d, c) in enumerate(others):
            r = eqs - d
            if self.wrap:
                r %= L
            else:
                r = np.where((r >= 0) & (r < L), r, -1)
            self._refs_rows[:, q] = r
            self._coefs[:, q] = (n - c) * inv % n
        self._yrow = np.ascontiguousarray(self.det_vars, dtype=np.int64)
        self._brow = np.ascontiguousarray(L - 1 - eqs if self.reversed else eqs,
                                          dtype=np.int64)
        self._lut = _mod_table(n, m + 1)

    def _refs(self, i: int) -> list[tuple[int, int]]:
        """(row, coefficient) of the values equation i reads (all of them)."""
        L = self.length
        out = []
        for d, c in self.band.items():
            j = i - d
            if self.wrap:
                out.append((j % L, c))
            elif 0 <= j < L:
                out.append((j, c))
        return out

    # ------------------------------------------------------------- the chase
    def _chase(self, B: np.ndarray | None, out: np.ndarray | None = None,
               packed: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Chase ``B`` (length x k, values < n, rows contiguous, natural order) with the
        symbols 0, or (B None) the zero right-hand side of s columns with the symbols
        set to the identity: (Y (length + s) x k in chase order, with s spare rows for
        the symbols' values; residuals s x k, int64). The steps run in C
        (csrc/band.c), in chunks of about 2^24 entries (a Ctrl-C stops the work
        between two chunks). out: the (length + s) x k uint8 array to use as Y.
        packed (n = 2): every byte holds 8 columns (np.packbits rows); the residuals
        are then uint8 rows of the same layout, found by XOR."""
        from modlights.native._core import band_chase
        n, L, s = self.n, self.length, self.s
        symbols = B is None
        if symbols:
            B = np.zeros((L, s), np.uint8)
        k = B.shape[1]
        Y = np.empty((L + s, k), np.uint8) if out is None else out
        Y[self.syms] = 0
        if symbols:
            Y[self.syms, np.arange(s)] = 1
        total = len(self._yrow)
        chunk = max(1, (1 << 24) // max(1, k))
        for start in range(0, total, chunk):
            band_chase(B, Y, self._brow, self._yrow, self._refs_rows, self._coefs, n,
                       self.inv, start, min(total, start + chunk), self._lut)
        if packed:
            res = np.empty((s, k), np.uint8)
            for t, i in enumerate(self.res_eqs.tolist()):
                res[t] = B[i]
                for r, c in self._refs(i):
                    if c & 1:
                        res[t] ^= Y[r]
            return Y, res
        res = np.zeros((s, k), np.int64)
        for t, i in enumerate(self.res_eqs.tolist()):
            row = -B[L - 1 - i if self.reversed else i].astype(np.int64)
            for r, c in self._refs(i):
                row += c * Y[r].astype(np.int64)
            res[t] = row % n
        return Y, res

    def apply_ginv(self, B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(Y, ok): Y = G B for a generalised inverse G of this factor (F G F = F), B
        length x k (values < n); ok[j] says whether column j of B is in the image of F
        (then F Y[:, j] = B[:, j]). Y may be a view (reversed, or without the spare
        symbol rows)."""
        n, s, L = self.n, self.s, self.length
        k = B.shape[1]
        if self.ring:
            raise ValueError(f"this factor is singular mod a prime dividing n = {n} and "
                             "has no generalised inverse from its chase; the tensor "
                             "engine solves its boards by blocks (_RingPart)")
        if self.identity:
            return B, np.ones(k, dtype=bool)
        Y, res = self._chase(np.ascontiguousarray(B))
        ok = np.ones(k, dtype=bool)
        if s:
            rhs = (-res) % n                                  # M z = -q(b)
            Z = self.G @ rhs % n
            ok = ((self.M @ Z - rhs) % n == 0).all(axis=0)
            self._add_symbols(Y, Z.astype(np.uint8))
        Y = Y[:L]
        return (Y[::-1] if self.reversed else Y), ok

    def apply_ginv_packed(self, B: np.ndarray, cols: int, ones: bool = False,
                          out: np.ndarray | None = None) -> tuple[np.ndarray, bool]:
        """GF(2), 8 columns a byte (np.packbits rows): (Y, ok) with Y[:length] = G B' for
        B' = B (ones: B with every bit flipped, the target all ones), ok whether each of
        the first ``cols`` bit columns of B' is in the image of F (the other bits of a
        row are ignored). Y is (length + s) x k (the s spare rows hold the symbols),
        ``out`` when given.

        G is linear, so the flipped bits cost one chase of a single all-ones column
        (its result XORed onto every column) instead of a flipped copy of B."""
        L, s, k = self.length, self.s, B.shape[1]
        if self.n != 2:
            raise ValueError(f"apply_ginv_packed needs n = 2, this factor has n = {self.n}")
        # over GF(2) every non-zero count is a unit: the factor is never reversed
        if self.identity:
            Y = np.empty((L + s, k), np.uint8) if out is None else out
            np.bitwise_xor(B, np.uint8(0xFF if ones else 0), out=Y[:L])
            return Y, True
        Y, res = self._chase(np.ascontiguousarray(B), out, packed=True)
        if ones:
            Y1, res1 = self._chase(np.full((L, 1), 0xFF, np.uint8), packed=True)
            np.bitwise_xor(Y, Y1, out=Y)
            res ^= res1
        ok = True
        if s:
            Z = _gf2_combine(self.G, res)                 # M z = q(b) (signs vanish)
            bad = _gf2_combine(self.M, Z) ^ res
            nbytes = (cols + 7) // 8
            if cols % 8:
                bad[:, nbytes - 1] &= np.uint8((0xFF << (8 - cols % 8)) & 0xFF)
            ok = not bad[:, :nbytes].any()
            self._add_symbols(Y, Z)
        return Y, ok

    def __getstate__(self) -> dict:
        """Pickles without the packed row solver (C memory; made again on use)."""
        state = dict(self.__dict__)
        state["_row_solver"] = None
        return state

    def packed_row_solver(self):
        """GF(2): an object whose ``solve_rows_packed(Y)`` replaces packed rows v by
        F^-1 v in place, word-parallel (csrc/symchase.c), when F is invertible and I + P
        or P (the 1-D factor of square and horizontal: offsets -1, 1 and maybe 0): a
        :class:`~modlights.native._core.SymChase`, or on a torus :class:`_CirculantRows` (the
        same plus a rank-2 correction) when the path matrix is invertible too; None
        otherwise (solve_packed then transposes strips)."""
        if self._row_solver is None:
            self._row_solver = False
            keys = set(self.band)
            if self.n == 2 and self.nullity == 0 and {-1, 1} <= keys <= {-1, 0, 1} \
                    and self.length >= 3:
                from modlights.native._core import SymChase
                try:
                    path = SymChase(1, self.length, 2, [0, 0, int(0 in keys)], [0, 0, 1])
                except ValueError:                          # the path matrix is singular
                    path = None
                if path is not None:
                    self._row_solver = _CirculantRows(path, self.length) if self.wrap \
                        else path
        return self._row_solver or None

    def _add_symbols(self, Y: np.ndarray, Z: np.ndarray) -> None:
        """Y[:length] += S Z (mod n) in place: Z goes into the s spare rows of Y, and
        every row of S that is not zero is one step of the C chase (B = Y)."""
        from modlights.native._core import band_chase
        L = self.length
        Y[L:] = Z
        if self._sym_steps is None:
            rows = np.flatnonzero(self.S.any(axis=1))
            refs = np.where(self.S[rows] != 0, L + np.arange(self.s), -1).astype(np.int64)
            self._sym_steps = (rows.astype(np.int64), np.ascontiguousarray(refs),
                               np.ascontiguousarray(self.S[rows], dtype=np.uint32))
        rows, refs, coefs = self._sym_steps
        lut = _mod_table(self.n, self.s + 1)
        chunk = max(1, (1 << 24) // max(1, Y.shape[1]))
        for start in range(0, len(rows), chunk):
            band_chase(Y, Y, rows, rows, refs, coefs, self.n, 1, start,
                       min(len(rows), start + chunk), lut)

    # ------------------------------------------------------------- structure
    def kernel_basis(self) -> tuple[np.ndarray, list[int]]:
        """(U, pivots) for prime n: the rows of U (nullity x length) are a basis of
        ker F, U[:, pivots] the identity."""
        if not self.nullity:
            return np.zeros((0, self.length), np.uint8), []
        H, _ = self._small.generators()
        E, piv = _rref_mod_p(H, self.n)
        U = E @ self.S.T.astype(np.int64) % self.n          # chase order of positions
        pos = self.syms[piv]
        if self.reversed:
            U = U[:, ::-1]
            pos = self.length - 1 - pos
        return np.ascontiguousarray(U.astype(np.uint8)), [int(v) for v in pos]

    def apply_rows(self, V: np.ndarray, eqs: np.ndarray) -> np.ndarray:
        """(F V)[eqs] mod n (int64), V length x k; V, eqs and the result in chase order
        (on the reversed axis when ``reversed``, as the chase's Y)."""
        L = self.length
        out = np.zeros((len(eqs), V.shape[1]), np.int64)
        V = np.asarray(V, np.int64)
        for d, c in self.band.items():
            j = eqs - d
            if self.wrap:
                out += c * V[j % L]
            else:
                keep = (j >= 0) & (j < L)
                out[keep] += c * V[j[keep]]
        return out % self.n

    def natural(self, V: np.ndarray) -> np.ndarray:
        """V (rows in chase order) with its rows in natural order: a reversed view when
        ``reversed``; the chase reads its right-hand sides in natural order."""
        return V[::-1] if self.reversed else V

    def det(self) -> int:
        """det(F) mod n."""
        n, L = self.n, self.length
        if self.nullity and not self.ring:        # a field: singular means det 0
            return 0
        if self.identity:
            return 1
        dm = int(self._small.det()) if self.s else 1
        rows = np.concatenate([self.det_eqs, self.res_eqs])
        cols = np.concatenate([self.det_vars, self.syms])
        sign = _perm_sign(rows) * _perm_sign(cols)
        # reversing both axes is the same permutation on rows and columns: no sign
        d = pow(self.band[self.dmin], L - self.s, n) * dm % n
        return d if sign > 0 else (n - d) % n


def _packed_bit(rows: np.ndarray, c: int) -> np.ndarray:
    """Column c of np.packbits rows, one 0/1 byte a row."""
    return (rows[:, c // 8] >> np.uint8(7 - c % 8)) & np.uint8(1)


class _CirculantRows:
    """F^-1 on packed rows for a circulant F = I + P + e_0 e_{w-1}^T + e_{w-1} e_0^T
    (or the same without I) over GF(2), from the path matrix F_p = F + U V^T
    (U = [e_0, e_{w-1}], V = [e_{w-1}, e_0]) by Woodbury: with x0 = F_p^-1 y (the
    word-parallel row solve) and Q = F_p^-1 U, F^-1 y = x0 + Q K V^T x0, K = (I + V^T
    Q)^-1 a 2 x 2 matrix (invertible when F and F_p are: det F = det F_p det(I + V^T Q)).
    So a row costs the row solve and at most two row XORs."""

    #: Rows a block of the correction (a temporary of this many rows).
    BLOCK = 2048

    def __init__(self, path, w: int):
        self.path, self.w = path, w
        Q = np.zeros((2, (w + 7) // 8), np.uint8)
        Q[0, 0] = 0x80                                        # e_0
        Q[1, (w - 1) // 8] = np.uint8(0x80 >> ((w - 1) % 8))  # e_{w-1}
        self.Q = path.solve_rows_packed(Q)
        # I + V^T Q: row 0 reads column w - 1 of Q's rows, row 1 column 0
        m = np.eye(2, dtype=np.uint8) ^ np.stack([_packed_bit(self.Q, w - 1),
                                                 _packed_bit(self.Q, 0)])
        self.K = np.array([[m[1, 1], m[0, 1]], [m[1, 0], m[0, 0]]], np.uint8)  # adj = inv

    def solve_rows_packed(self, Y: np.ndarray) -> np.ndarray:
        """Y's rows replaced by F^-1 times them, in place; returns Y."""
        self.path.solve_rows_packed(Y)
        K, w = self.K, self.w
        for i0 in range(0, Y.shape[0], self.BLOCK):
            blk = Y[i0:i0 + self.BLOCK]
            v = (_packed_bit(blk, w - 1), _packed_bit(blk, 0))        # V^T x0
            for g in range(2):
                sel = np.flatnonzero((K[g, 0] & v[0]) ^ (K[g, 1] & v[1]))
                if len(sel):
                    blk[sel] ^= self.Q[g]
        return Y


def _gf2_combine(coef: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """coef @ rows over GF(2) for byte rows holding 8 columns each: row a of the result
    is the XOR of the rows c with coef[a, c] odd."""
    out = np.zeros((coef.shape[0], rows.shape[1]), np.uint8)
    for a in range(coef.shape[0]):
        sel = np.flatnonzero(np.asarray(coef[a]) & 1)
        if len(sel):
            np.bitwise_xor.reduce(rows[sel], axis=0, out=out[a])
    return out


def _offset_factors(board) -> tuple[dict, dict] | str:
    """(a, b) for the board's pattern or the reason it has none."""
    fac = factor_pattern(board.pattern)
    if fac is None:
        return ("the pattern's offset counts must factor as cnt(dr, dc) = a(dr) b(dc) "
                "(square, horizontal, vertical, products of a row and a column offset set)")
    return fac


def tensor_reason(board) -> str | None:
    """None when :class:`TensorEngine` covers the board, else why it does not."""
    if not getattr(board, "is_grid", False):
        return "it needs a grid board (Board.grid)"
    if board.pattern is None:
        return "it needs one pattern on every tile (this board is mixed)"
    if board._any_locked or board._any_holes:
        return "it needs a board without locked tiles or holes"
    fac = _offset_factors(board)
    if isinstance(fac, str):
        return fac
    try:
        _parts(board, fac)
    except ValueError as e:
        return str(e)
    return None


def tensor_supports(board) -> bool:
    """Whether :class:`TensorEngine` covers the board."""
    return tensor_reason(board) is None


_FACTOR_CACHE: dict = {}


def _factors(board, fac, q: int) -> tuple[BandFactor, BandFactor]:
    """The two 1-D factors (rows, cols) of a board mod q, kept for the last few boards
    (the reason check and the engine share them)."""
    rows, cols = board.shape
    wrap = board.wrap
    key = (tuple(sorted(fac[0].items())), tuple(sorted(fac[1].items())), rows, cols, q, wrap)
    got = _FACTOR_CACHE.get(key)
    if got is None:
        got = (BandFactor(fac[0], rows, q, wrap), BandFactor(fac[1], cols, q, wrap))
        if len(_FACTOR_CACHE) >= 8:
            try:                          # another thread (the web service) may evict too
                _FACTOR_CACHE.pop(next(iter(_FACTOR_CACHE)), None)
            except (RuntimeError, StopIteration):
                pass
        _FACTOR_CACHE[key] = got
    return got


def _parts(board, fac) -> list[tuple[int, int, BandFactor, BandFactor]]:
    """[(q, e, R, C)]: Z/n as the product of the Z/q (e = 1 mod q, 0 mod n / q), with
    the factors mod q. One part (q = n) when the factors work mod n (n a prime or a
    prime power, or A invertible mod n); otherwise one part per prime power q = p^k of
    n, each a field (k = 1), invertible mod q, or a ring part (k > 1, a factor singular
    mod p: :class:`_RingPart`). ValueError when a factor fails for another reason (its
    band), naming the part."""
    n = board.states
    try:
        return [(n, 1, *_factors(board, fac, n))]
    except ValueError:
        if len(factorize(n)) == 1:              # a prime power: splitting changes nothing
            raise
    out = []
    for p, k in factorize(n):
        q = p ** k
        try:
            R, C = _factors(board, fac, q)
        except ValueError as e:
            raise ValueError(f"over Z/{q} (a factor of n = {n}): {e}") from None
        rest = n // q
        out.append((q, rest * pow(rest, -1, q) % n, R, C))
    return out


def _part_nullity(R: BandFactor, C: BandFactor) -> int:
    """dim ker (R (x) C) over a field: rows cols - rank(R) rank(C)."""
    kr, kc = R.nullity, C.nullity
    return R.length * kc + C.length * kr - kr * kc


def _part_solve(R: BandFactor, C: BandFactor, B: np.ndarray, out: np.ndarray) -> bool:
    """X with R X C^T = B (B rows x cols, values < the factors' modulus) written into
    ``out`` (rows x cols uint8); False when there is none."""
    from modlights.native._core import transpose
    h, w = B.shape
    Y, ok_r = R.apply_ginv(B)                               # R Y = B, Y = X C^T
    if not ok_r.all():
        return False
    if C.identity:
        np.copyto(out, Y)
        return True
    Yt = np.empty((w, h), np.uint8)
    transpose(Y, Yt)
    del Y
    Xt, ok_c = C.apply_ginv(Yt)                              # C X^T = Y^T
    if not ok_c.all():
        return False
    transpose(Xt, out)
    return True


def _part_generators(R: BandFactor, C: BandFactor, k: int) -> np.ndarray:
    """The first k rows of the basis u_a (x) e_j, then e_i (x) v_b (i outside the
    pivots of ker R) of ker (R (x) C) over a field, as a (k, rows, cols) uint8 array."""
    h, w = R.length, C.length
    H = np.zeros((k, h, w), dtype=np.uint8)
    U, piv = R.kernel_basis()
    V, _ = C.kernel_basis()
    g = 0
    for u in U:
        for j in range(w):
            if g == k:
                return H
            H[g, :, j] = u
            g += 1
    for i in np.setdiff1d(np.arange(h), piv).tolist():
        for v in V:
            if g == k:
                return H
            H[g, i, :] = v
            g += 1
    return H


class _RingPart:
    """R (x) C over Z/q, q = p^e (e > 1), with a factor singular mod p (``ring``): M_R,
    M_C have no generalised inverse in general, so the engine works through the chase's
    change of variables. For a factor F the chase gives, for any b and symbol values z,
    y = L b + S z (L b: the chase of b with the symbols 0) with (F y)_det = b_det and
    (F y - b)_res = M z + rho(b), rho(b) the residual of L b. So with Phi(y) =
    ((F y)_det, y_syms) (unimodular, Phi^-1(u, z) = L u + S z) and E b = (b_det,
    -rho(b)), F = E^-1 diag(I, M) Phi, and R X C^T = B reads, for Y = Phi_R X Phi_C^T
    in blocks (det, sym) x (det, sym) and B' = E_R B E_C^T:
    Y11 = B'11, Y12 M_C^T = B'12, M_R Y21 = B'21, M_R Y22 M_C^T = B'22, independent
    systems with the s x s matrices M (Y22 through both Smith forms, U M V = diag(p^v):
    entry (i, j) is p^min(v_i + w_j, e) times the unknown). Solvable iff every block
    is; X = Phi_R^-1 Y Phi_C^-T; ker A = (Phi_R^-1 (x) Phi_C^-1) of the blocks'
    kernels, a direct sum of cyclic groups (:meth:`generators`).

    Everything runs in the factors' chase order (reversed axes when ``reversed``) and
    is flipped back at the end. The two full chases and transposes are those of a
    field part; the rest is chases of s columns and rank-s updates (``_add_symbols``).
    """

    def __init__(self, R: BandFactor, C: BandFactor):
        self.R, self.C, self.q = R, C, R.n
        ((self.p, self.e),) = factorize(R.n)
        # Smith forms U M V = diag(p^v) of the residual matrices (v = e: a zero invariant)
        self.sm_R = R._small.parts[0][2] if R.s else None
        self.sm_C = C._small.parts[0][2] if C.s else None
        self.gens_R = self.sm_R.generators() if R.s else []       # [(g over Z/q, order)]
        self.gens_C = self.sm_C.generators() if C.s else []
        vr = self.sm_R.v if R.s else np.zeros(0, np.int64)
        vc = self.sm_C.v if C.s else np.zeros(0, np.int64)
        self.v22 = np.minimum(vr[:, None] + vc[None, :], self.e)    # sR x sC

    # ------------------------------------------------------------- structure
    def _counts(self) -> tuple[int, int, int]:
        """Generators of the blocks 12, 21 and 22 of ker (D_R (x) D_C)."""
        R, C = self.R, self.C
        return ((R.length - R.s) * len(self.gens_C), (C.length - C.s) * len(self.gens_R),
                int((self.v22 > 0).sum()))

    @property
    def nullity(self) -> int:
        """The number of cyclic summands of ker A mod q (each block's summed)."""
        return sum(self._counts())

    @property
    def kernel_size(self) -> int:
        """|ker M_C|^(rows - s_R) |ker M_R|^(cols - s_C) |ker (M_R (x) M_C)|."""
        R, C = self.R, self.C
        kc = prod(o for _, o in self.gens_C)
        kr = prod(o for _, o in self.gens_R)
        return kc ** (R.length - R.s) * kr ** (C.length - C.s) * \
            self.p ** int(self.v22.sum())

    def generators(self, k: int) -> tuple[np.ndarray, list[int]]:
        """The first k of: e_r (x) S_C g (r over the rows the chase of R determines, g
        over the generators of ker M_C), S_R g (x) e_c (likewise), p^(e - v) S_R V_R[:, i]
        (x) S_C V_C[:, j] (the entries of D_R (x) D_C with v = min(v_i + w_j, e) > 0),
        as (k, rows, cols) uint8 and their orders. These are the images under
        Phi_R^-1 (x) Phi_C^-1 of the cyclic summands of the blocks' kernels (the e_r span
        {y: y_syms = 0} = Phi^-1(anything, 0)), so ker A is their direct sum."""
        R, C, q = self.R, self.C, self.q
        h, w = R.length, C.length
        H = np.zeros((k, h, w), np.uint8)            # chase order on both axes
        orders: list[int] = []
        SR, SC = R.S.astype(np.int64), C.S.astype(np.int64)
        for g, o in self.gens_C:
            sg = (SC @ g % q).astype(np.uint8)
            for r in R.det_vars.tolist():
                if len(orders) == k:
                    break
                H[len(orders), r] = sg
                orders.append(o)
        for g, o in self.gens_R:
            sg = (SR @ g % q).astype(np.uint8)
            for c in C.det_vars.tolist():
                if len(orders) == k:
                    break
                H[len(orders), :, c] = sg
                orders.append(o)
        for i, j in zip(*np.nonzero(self.v22)):
            if len(orders) == k:
                break
            v = int(self.v22[i, j])
            u = SR @ self.sm_R.V[:, i] % q
            t = SC @ self.sm_C.V[:, j] * self.p ** (self.e - v) % q
            H[len(orders)] = np.outer(u, t) % q
            orders.append(self.p ** v)
        if R.reversed:
            H = H[:, ::-1]
        if C.reversed:
            H = H[:, :, ::-1]
        return np.ascontiguousarray(H[:len(orders)]), orders

    # ------------------------------------------------------------- solving
    def _solve22(self, B22: np.ndarray) -> np.ndarray | None:
        """Y with M_R Y M_C^T = B22 (sR x sC, mod q), or None: with U M V = D for both,
        D_R W D_C = U_R B22 U_C^T entry by entry, Y = V_R W V_C^T."""
        q, p = self.q, self.p
        Cm = self.sm_R.U @ (B22 % q) @ self.sm_C.U.T % q
        pv = p ** self.v22                            # p^e = q: the zero entries
        if (Cm % pv).any():
            return None
        W = np.where(self.v22 < self.e, Cm // pv, 0)
        return self.sm_R.V @ W @ self.sm_C.V.T % q

    def solve(self, B: np.ndarray, out: np.ndarray) -> bool:
        """X with R X C^T = B (rows x cols uint8, values < q) into ``out``; False when
        there is none."""
        from modlights.native._core import transpose
        R, C, q = self.R, self.C, self.q
        h, w = B.shape
        sR, sC = R.s, C.s
        # T = L_R B (chase order of R down the rows), rho_R(B) (sR x cols, natural)
        Yr, res_r = R._chase(np.ascontiguousarray(B))
        Tt = np.empty((w, h), np.uint8)
        transpose(Yr[:h], Tt)
        # U^T = L_C T^T: rows of U^T in C's chase order; res_t = rho_C(rows of T)
        Yc, res_t = C._chase(Tt)
        del Tt
        res_rc = res_r[:, ::-1] if C.reversed else res_r        # columns in C's order
        # the blocks of B' = E_R B E_C^T outside B'11 (= B there, already in U):
        # B'21 = -rho_R(B) on C's determined columns; B'22 = rho_C of the rows rho_R(B);
        # B'12 = -(B K_C^T)_det with K_C^T = rho_C on rows: rho_C(rows of T) = L_R (B
        # K_C^T), and (R L_R v)_det = v_det
        Y12 = Y21 = Y22 = None
        if sC:
            B12 = (-R.apply_rows(res_t.T, R.det_eqs)) % q             # (h - sR) x sC
            Y12, ok = C._small.solve(B12.astype(np.uint8))            # M_C y = B'12 row
            if not ok.all():
                return False
        if sR:
            B21 = (-res_rc[:, C.det_eqs]) % q                          # sR x (w - sC)
            Y21, ok = R._small.solve(np.ascontiguousarray(B21.T, dtype=np.uint8))
            if not ok.all():                                           # Y21^T
                return False
        if sR and sC:
            _, B22t = C._chase(np.ascontiguousarray(res_r.T, dtype=np.uint8))
            Y22 = self._solve22(B22t.T)
            if Y22 is None:
                return False
        # X = U + L_R(Y12 on det rows) S_C^T + S_R (L_C(Y21 on det cols) + Y22 S_C^T)
        if sC:
            pad = np.zeros((h, sC), np.uint8)
            pad[R.det_eqs] = Y12
            P1 = R._chase(np.ascontiguousarray(R.natural(pad)))[0][:h]
            C._add_symbols(Yc, np.ascontiguousarray(P1.T))           # U^T += S_C P1^T
        transpose(Yc[:w], Yr[:h])
        del Yc
        if sR:
            pad = np.zeros((w, sR), np.uint8)
            pad[C.det_eqs] = Y21
            Q = C._chase(np.ascontiguousarray(C.natural(pad)))[0][:w].T.astype(np.int64)
            if sC:
                Q += Y22 @ C.S.T.astype(np.int64)
            R._add_symbols(Yr, np.ascontiguousarray(Q % q, dtype=np.uint8))   # += S_R Q
        X = R.natural(Yr[:h])
        np.copyto(out, X[:, ::-1] if C.reversed else X)
        return True


class TensorEngine:
    """The engine interface of :class:`~modlights.solver.Solver` (``kernel_size``,
    ``nullity``, ``generators()``, ``solve(R)``, ``det()``, ``inverse()``,
    ``pseudo_inverse()``) for the product-pattern boards :func:`tensor_reason` accepts.
    A composite n whose factors are not invertible mod n is split by CRT into its prime
    powers (each a field, invertible there, or a :class:`_RingPart`), the parts combined
    as the lifted engine combines them (the i-th generators of the parts add up to one
    generator whose order is the product of theirs).

    dense: a callable giving the native dense engine of the board, for ``inverse`` and
    ``pseudo_inverse``; None: they raise ValueError.
    """

    name = "tensor"
    #: solve_packed works along the board's rows (no bit transposes)
    transposed = False

    def __init__(self, board, dense: Callable[[], Any] | None = None):
        reason = tensor_reason(board)
        if reason is not None:
            raise ValueError(f"method='tensor' does not cover this board: {reason}; "
                             "use method='auto', 'chase' or 'dense'")
        self.board = board
        self.n = board.states
        self.h, self.w = board.shape
        self._parts = _parts(board, _offset_factors(board))
        # per part: a _RingPart (q = p^k, k > 1, a factor singular mod p) or None
        self._rings = [_RingPart(R, C) if R.ring or C.ring else None
                       for _, _, R, C in self._parts]
        self._dense_factory = dense
        self._dense = None

    def _nullities(self) -> list[int]:
        """Kernel generators of each part: its dimension over a field, the cyclic
        summands of a ring part, 0 where A is invertible."""
        return [ring.nullity if ring is not None else
                _part_nullity(R, C) if is_prime(q) else 0
                for (q, _, R, C), ring in zip(self._parts, self._rings)]

    def _solve_part(self, i: int, B: np.ndarray, out: np.ndarray) -> bool:
        """Part i: X with R X C^T = B mod q into ``out``; False when there is none."""
        _, _, Rf, Cf = self._parts[i]
        ring = self._rings[i]
        return ring.solve(B, out) if ring is not None else _part_solve(Rf, Cf, B, out)

    def _part_gens(self, i: int, k: int) -> tuple[np.ndarray, list[int]]:
        """The first k generators of part i's kernel, (k, rows, cols), and their orders."""
        q, _, Rf, Cf = self._parts[i]
        ring = self._rings[i]
        if ring is not None:
            return ring.generators(k)
        return _part_generators(Rf, Cf, k), [q] * k

    @property
    def nullity(self) -> int:
        """dim ker A for prime n; for composite n the number of kernel generators."""
        return max(self._nullities())

    @property
    def kernel_size(self) -> int:
        out = 1
        for (q, _, _, _), ring, k in zip(self._parts, self._rings, self._nullities()):
            out *= ring.kernel_size if ring is not None else q ** k
        return out

    def solve(self, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(X, ok) for the right-hand sides R (k x n_cells, values < n)."""
        R = np.asarray(R)
        k = R.shape[0]
        h, w, n = self.h, self.w, self.n
        X = np.zeros((k, h * w), dtype=np.uint8)
        ok = np.zeros(k, dtype=bool)
        for i in range(k):
            B = R[i].reshape(h, w)
            if len(self._parts) == 1:
                ok[i] = self._solve_part(0, B, X[i].reshape(h, w))
                continue
            acc = np.zeros((h, w), np.uint16)       # < n + (q - 1) e <= 255 * 256
            xq = np.empty((h, w), np.uint8)
            ok[i] = True
            for j, (q, e, _, _) in enumerate(self._parts):
                if not self._solve_part(j, (B % q).astype(np.uint8), xq):
                    ok[i] = False
                    break
                part = xq.astype(np.uint16)
                part *= e
                acc += part
                acc %= n
            if ok[i]:
                X[i] = acc.reshape(-1)
        return X, ok

    # ---------------------------------------------------------------- bit-packed
    @property
    def packs(self) -> bool:
        """Whether solve_packed / apply_packed take this board (n = 2)."""
        return self.n == 2

    def solve_packed(self, packed: np.ndarray, tc: int = 0) -> np.ndarray | None:
        """GF(2) taps of ``tc + packed`` (np.packbits rows, rows x ceil(cols / 8) uint8;
        bits past the last column ignored) in the same layout; None when unsolvable.

        ``X = G_R B G_C^T`` without a byte a tile: the chase down the rows (R) is row
        XORs of whole packed rows (8 columns a byte, csrc/band.c). Along the rows (C):
        when C is I + P or P and invertible (square, horizontal: cols not 2 mod 3;
        on a torus circulant, cols not 0 or 2 mod 3), each row is solved in place by the
        symmetric engine's word-parallel row solve (a prefix XOR with stride 3 or 2,
        plus a rank-2 correction on a torus, :meth:`BandFactor.packed_row_solver`);
        otherwise strips of STRIP_ROWS rows are transposed in 64 x 64 bit blocks
        (cols x STRIP_ROWS / 8 bytes, a few MB), chased the same way and transposed
        back in place. Memory: the answer (plus s spare rows) and one strip; the input
        is not modified."""
        if self.n != 2:
            raise ValueError(f"solve_packed needs n = 2, this board has n = {self.n}")
        from modlights.native._core import transpose_bits
        _, _, R, C = self._parts[0]
        h, w = self.h, self.w
        Y, ok = R.apply_ginv_packed(packed, w, ones=bool(tc & 1))     # R Y = B
        if not ok:
            return None
        Y = Y[:h]
        if C.identity:
            if w % 8:
                Y[:, -1] &= np.uint8((0xFF << (8 - w % 8)) & 0xFF)
            return Y
        if C.packed_row_solver() is not None:                # C X^T = Y^T row by row
            return C.packed_row_solver().solve_rows_packed(Y)
        sb = STRIP_ROWS // 8
        strip = np.empty((w, sb), np.uint8)
        work = np.empty((w + C.s, sb), np.uint8)
        for i0 in range(0, h, STRIP_ROWS):
            rows = min(STRIP_ROWS, h - i0)
            transpose_bits(Y[i0:i0 + rows], w, strip)               # strip = Y^T
            Xt, ok = C.apply_ginv_packed(strip, rows, out=work)     # C X^T = Y^T
            if not ok:
                return None
            transpose_bits(Xt[:w], rows, Y[i0:i0 + rows])
        return Y

    def apply_packed(self, x: np.ndarray, s: np.ndarray | None = None, tc: int = 0,
                     write: bool = True) -> tuple[np.ndarray | None, int]:
        """GF(2), np.packbits rows: (s + A x or None when not ``write``, the number of
        tiles where s + A x differs from tc), streamed a row at a time from the pattern
        (:func:`modlights.engines.packed.apply_packed`, independent of the factors)."""
        if self.n != 2:
            raise ValueError(f"apply_packed needs n = 2, this board has n = {self.n}")
        from modlights.engines.packed import apply_packed
        return apply_packed(self.board, x, s, tc, write)

    def kernel_fits(self) -> bool:
        """Whether the kernel basis fits in KERNEL_BYTES_MAX bytes."""
        return self.nullity * self.h * self.w <= KERNEL_BYTES_MAX

    def generators(self, limit: int | None = None) -> tuple[np.ndarray, list[int]]:
        """(H uint8 (k x n_taps), orders): per prime part the basis u_a (x) e_j, then
        e_i (x) v_b (i outside the pivots of ker R), per ring part the cyclic generators
        of :meth:`_RingPart.generators`, the parts' i-th rows combined by CRT (ker A is
        the direct sum of the cyclic groups they generate); limit: only the first
        ``limit`` of them."""
        h, w, n = self.h, self.w, self.n
        k = self.nullity if limit is None else min(self.nullity, max(0, int(limit)))
        if k * h * w > KERNEL_BYTES_MAX:
            raise ValueError(f"the kernel basis has {k} generators of {h * w} taps: "
                             f"{k * h * w / 2**30:.2f} GiB, more than the "
                             f"{KERNEL_BYTES_MAX / 2**20:.0f} MiB allowed; nullity, "
                             "kernel_size, solvable and solve do not need it")
        if len(self._parts) == 1:
            G, orders = self._part_gens(0, k)
            return G.reshape(k, h * w), orders
        # bytes throughout (the limit above counts bytes): each part's generators are
        # folded in a few rows at a time, the sums (< n + (q - 1) e <= 255 * 256) in uint16
        H = np.zeros((k, h * w), dtype=np.uint8)
        orders = [1] * k
        step = max(1, (1 << 20) // max(1, h * w))
        for j, ((q, e, _, _), kq) in enumerate(zip(self._parts, self._nullities())):
            kq = min(kq, k)
            G, ords = self._part_gens(j, kq)
            G = G.reshape(kq, h * w)
            for g0 in range(0, kq, step):
                g1 = min(kq, g0 + step)
                part = G[g0:g1].astype(np.uint16)
                part *= e
                part += H[g0:g1]
                part %= n
                H[g0:g1] = part
            del G
            for g in range(kq):
                orders[g] *= ords[g]
        return H, orders

    def det(self) -> int:
        """det(A) mod n = det(R)^cols det(C)^rows (per part, combined by CRT)."""
        n = self.n
        return sum(pow(R.det(), self.w, q) * pow(C.det(), self.h, q) * e
                   for q, e, R, C in self._parts) % n

    def _dense_engine(self):
        return dense_fallback(self, "tensor")

    def inverse(self) -> np.ndarray:
        return self._dense_engine().inverse()

    def pseudo_inverse(self) -> np.ndarray:
        return self._dense_engine().pseudo_inverse()
