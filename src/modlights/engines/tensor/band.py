"""One 1-D factor of a product pattern: a banded Toeplitz matrix (circulant on a torus)
over Z/n and its chase (:class:`BandFactor`).

With the band of offsets dmin..dmax (coefficients c(d) mod n), equation i determines
y[i - dmin] from the ones before it when c(dmin) is a unit (else the axis is reversed and
c(dmax) is the pivot); the values nothing determines are symbols z (|dmin| of them,
dmax - dmin on a torus) and the equations left over are the residual system
M z = -q(b), s x s with s the number of symbols. The chase runs over every column of B at
once (csrc/band.c: bytes, or 8 columns a byte over GF(2)), the symbols riding along as s
extra columns, so one pass gives the particular values, the symbol matrix S and M. With
G_M a generalised inverse of M (M G_M M = M), b -> P b + S G_M (-q(b)) is a generalised
inverse G of the factor (:meth:`BandFactor.apply_ginv`); det(F) = sign * c(dmin)^(L - s)
det(M) (M is the Schur complement of the chase's triangular part) over any ring.

Over GF(2) on bit-packed rows (:meth:`BandFactor.apply_ginv_packed`) the chase is XORs of
whole packed rows; a factor I + P or P (offsets -1, 1 and maybe 0) that is invertible is
solved row by row in place by a word-parallel prefix XOR (:meth:`BandFactor.packed_row_
solver`: csrc/symchase.c, plus a rank-2 Woodbury correction on a torus,
:class:`_CirculantRows`).

Complexity: O(length x k x band) for k right-hand sides, plus O(s^2 k) for the symbols.
"""

from __future__ import annotations

from math import gcd

import numpy as np

from modlights.engines.reference import ReferenceEngine
from modlights.model.ring import factorize, is_prime, unit_inverse

__all__ = ["BandFactor", "MAX_SYMBOLS"]

#: Largest number of symbols (band width) a 1-D factor may carry.
MAX_SYMBOLS = 64


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
    gaps = [((keys[(i + 1) % len(keys)] - keys[i]) % length or length, i) for i in range(len(keys))]
    _, i = max(gaps)
    start = keys[(i + 1) % len(keys)]
    shift = -length if start > length // 2 else 0  # the window nearest offset 0
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
        E[r] = E[r] * unit_inverse(int(E[r, c]), p) % p
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
    """The sorted indices of 0..length-1 not in ``idx``: np.setdiff1d without its sort,
    O(length)."""
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
            raise ValueError(
                f"along one direction the pattern's counts are all multiples "
                f"of n = {n} or its offsets leave the board (the tap matrix "
                "is zero)"
            )
        dmin, dmax = min(band), max(band)
        # chase forwards (pivot c(dmin)) or on the reversed axis (pivot c(dmax))
        self.reversed = gcd(band[dmin], n) != 1
        if self.reversed:
            if gcd(band[dmax], n) != 1:
                raise ValueError(
                    f"neither end of the band {sorted(band)} has a count that is a unit mod n = {n}"
                )
            band = {-d: c for d, c in band.items()}
            dmin, dmax = -dmax, -dmin
        self.band, self.dmin, self.dmax = band, dmin, dmax
        self.s = s = _symbols(band, length, wrap)
        if s > MAX_SYMBOLS:
            raise ValueError(
                f"the band {dmin}..{dmax} needs {s} symbols along a side of "
                f"{length}, more than the {MAX_SYMBOLS} allowed"
            )
        self.inv = unit_inverse(band[dmin], n)
        self._schedule()
        self.identity = band == {0: 1} and not self.reversed
        # symbol matrix S (length x s) and residual matrix M (s x s) from one chase
        # of the zero right-hand side with the symbols set to the identity
        Y, self.M = self._chase(None)
        self.S = Y[:length]
        self._sym_steps: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._row_solver = None
        # M's own engine (s symbols: M is s x s), None when the chase leaves no symbol
        small = ReferenceEngine(self.M, n) if s else None
        self._small = small
        # ring: n = p^k (k > 1) and M singular mod p. M then need not have a generalised
        # inverse; the engine solves such parts block by block (_RingPart) from M's
        # Smith form instead of through G. Other composite n (two primes or more) are
        # split by CRT first (_parts), so a singular factor there is refused.
        self.ring = small is not None and not is_prime(n) and small.kernel_size != 1
        if self.ring and len(factorize(n)) > 1:
            raise ValueError(
                f"the 1-D factor (offsets {sorted(band)}, side {length}) is "
                f"singular mod n = {n} (a composite n with two or more prime "
                "factors needs it invertible; its prime-power parts need not)"
            )
        self.G = (
            small.pseudo_inverse().astype(np.int64) if small is not None and not self.ring else None
        )
        # over a field dim ker F; for a ring factor the number of cyclic summands of ker M
        self.nullity = len(small.generators()[1]) if small is not None else 0

    # ------------------------------------------------------------- the schedule
    def _schedule(self) -> None:
        """Which equation determines which value, the symbols and the residual rows
        (on the reversed axis when ``reversed``)."""
        L, dmin, s = self.length, self.dmin, self.s
        if self.wrap:
            if s == L:  # everything a symbol
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
        inv = unit_inverse(self.band[dmin], n)
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
        self._brow = np.ascontiguousarray(L - 1 - eqs if self.reversed else eqs, dtype=np.int64)
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
    def _chase(
        self, B: np.ndarray | None, out: np.ndarray | None = None, packed: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
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
        if B is None:
            B = np.zeros((L, s), np.uint8)
        k = B.shape[1]
        Y = np.empty((L + s, k), np.uint8) if out is None else out
        Y[self.syms] = 0
        if symbols:
            Y[self.syms, np.arange(s)] = 1
        total = len(self._yrow)
        chunk = max(1, (1 << 24) // max(1, k))
        for start in range(0, total, chunk):
            band_chase(
                B,
                Y,
                self._brow,
                self._yrow,
                self._refs_rows,
                self._coefs,
                n,
                self.inv,
                start,
                min(total, start + chunk),
                self._lut,
            )
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
            raise ValueError(
                f"this factor is singular mod a prime dividing n = {n} and "
                "has no generalised inverse from its chase; the tensor "
                "engine solves its boards by blocks (_RingPart)"
            )
        if self.identity:
            return B, np.ones(k, dtype=bool)
        Y, res = self._chase(np.ascontiguousarray(B))
        ok = np.ones(k, dtype=bool)
        if s:
            rhs = (-res) % n  # M z = -q(b)
            Z = self.G @ rhs % n
            ok = ((self.M @ Z - rhs) % n == 0).all(axis=0)
            self._add_symbols(Y, Z.astype(np.uint8))
        Y = Y[:L]
        return (Y[::-1] if self.reversed else Y), ok

    def apply_ginv_packed(
        self, B: np.ndarray, cols: int, ones: bool = False, out: np.ndarray | None = None
    ) -> tuple[np.ndarray, bool]:
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
            assert self.G is not None  # GF(2) is a field: G exists
            Z = _gf2_combine(self.G, res)  # M z = q(b) (signs vanish)
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
        :class:`~modlights._poly.SymChase`, or on a torus :class:`_CirculantRows` (the
        same plus a rank-2 correction) when the path matrix is invertible too; None
        otherwise (solve_packed then transposes strips)."""
        if self._row_solver is None:
            self._row_solver = False
            keys = set(self.band)
            if (
                self.n == 2
                and self.nullity == 0
                and {-1, 1} <= keys <= {-1, 0, 1}
                and self.length >= 3
            ):
                from modlights.native._core import SymChase

                try:
                    path = SymChase(1, self.length, 2, [0, 0, int(0 in keys)], [0, 0, 1])
                except ValueError:  # the path matrix is singular
                    path = None
                if path is not None:
                    self._row_solver = _CirculantRows(path, self.length) if self.wrap else path
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
            self._sym_steps = (
                rows.astype(np.int64),
                np.ascontiguousarray(refs),
                np.ascontiguousarray(self.S[rows], dtype=np.uint32),
            )
        rows, refs, coefs = self._sym_steps
        lut = _mod_table(self.n, self.s + 1)
        chunk = max(1, (1 << 24) // max(1, Y.shape[1]))
        for start in range(0, len(rows), chunk):
            band_chase(
                Y, Y, rows, rows, refs, coefs, self.n, 1, start, min(len(rows), start + chunk), lut
            )

    # ------------------------------------------------------------- structure
    def kernel_basis(self) -> tuple[np.ndarray, list[int]]:
        """(U, pivots) for prime n: the rows of U (nullity x length) are a basis of
        ker F, U[:, pivots] the identity."""
        if not self.nullity:
            return np.zeros((0, self.length), np.uint8), []
        assert self._small is not None  # a nullity needs symbols
        H, _ = self._small.generators()
        E, piv = _rref_mod_p(H, self.n)
        U = E @ self.S.T.astype(np.int64) % self.n  # chase order of positions
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
        if self.nullity and not self.ring:  # a field: singular means det 0
            return 0
        if self.identity:
            return 1
        dm = int(self._small.det()) if self._small is not None else 1
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
        Q[0, 0] = 0x80  # e_0
        Q[1, (w - 1) // 8] = np.uint8(0x80 >> ((w - 1) % 8))  # e_{w-1}
        self.Q = path.solve_rows_packed(Q)
        # I + V^T Q: row 0 reads column w - 1 of Q's rows, row 1 column 0
        m = np.eye(2, dtype=np.uint8) ^ np.stack(
            [_packed_bit(self.Q, w - 1), _packed_bit(self.Q, 0)]
        )
        self.K = np.array([[m[1, 1], m[0, 1]], [m[1, 0], m[0, 0]]], np.uint8)  # adj = inv

    def solve_rows_packed(self, Y: np.ndarray) -> np.ndarray:
        """Y's rows replaced by F^-1 times them, in place; returns Y."""
        self.path.solve_rows_packed(Y)
        K, w = self.K, self.w
        for i0 in range(0, Y.shape[0], self.BLOCK):
            blk = Y[i0 : i0 + self.BLOCK]
            v = (_packed_bit(blk, w - 1), _packed_bit(blk, 0))  # V^T x0
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
