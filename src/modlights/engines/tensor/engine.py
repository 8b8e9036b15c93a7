"""Product patterns by Kronecker factorisation: two families of 1-D banded systems.

Covered boards (:func:`tensor_reason` says why a board is not): grid boards with one
pattern everywhere, no locks, no holes (tori too), whose offset counts factor exactly,
``cnt(dr, dc) = a(dr) * b(dc)`` over the integers: square (3 x 3 block), horizontal,
vertical, or any custom product of a row set and a column set of offsets. Then the tap
matrix is a Kronecker product, A = R (x) C, with R (rows x rows) and C (cols x cols)
banded Toeplitz matrices (circulant on a torus): ``R[i, j] = a(i - j)``,
``C[i, j] = b(i - j)``. With taps X and right-hand side B as rows x cols arrays (row
major), A x = b reads ``R X C^T = B``.

Each factor is a :class:`~modlights.engines.tensor.band.BandFactor` (a 1-D chase and
a generalised inverse G_R, G_C); G_R (x) G_C is one of A:

- ``X = G_R B G_C^T``: one chase down the rows (R, every column at once), one along
  the columns (C, on the transposed array); O(rows x cols x band) in all;
- solvable iff both residual systems are consistent (each row of G_R B is then in the
  image of C: G_R B = G_R R X C^T);
- over a prime n: nullity = rows cols - rank(R) rank(C), rank(R) = rows - nullity(M);
  ker A = ker R (x) F^cols + F^rows (x) ker C has the basis u_a (x) e_j, e_i (x) v_b
  (u_a, v_b bases of ker R, ker C in reduced form on the symbols, i outside the pivot
  symbols of ker R);
- det(A) = det(R)^cols det(C)^rows.

Boards past MAX_TILES (``Board.grid(100000, 100000, pattern="square")``) are covered
for rank, nullity, kernel_size and det, which need the two factors only (O(rows +
cols)), and over GF(2) solved on bit-packed states (:meth:`TensorEngine.solve_packed`,
``np.packbits`` rows: rows x cols / 8 bytes a state, plus one strip).

Over a composite n the factors work mod n directly when their pivots c(dmin) (or
c(dmax), chasing backwards) are units and their M invertible (then A is invertible);
otherwise n is split by CRT into its prime powers q: a prime q is a field (singular
factors included), a q = p^k with k > 1 is either invertible mod q (as above) or a
ring part (:class:`~modlights.engines.tensor.ring_part._RingPart`). A is never
invertible there, and inverse / pseudo_inverse are left to the registry's dense
fallback (as on every board), which refuses a generalised inverse where none exists.
The parts' solutions and kernel generators are combined as the lifted engine combines
them; other boards (a band zero mod n, without a unit end, or of more than MAX_SYMBOLS
symbols) are left to the lifted, chase and dense engines.
"""

from __future__ import annotations

from math import gcd

import numpy as np

from modlights.engines.tensor.band import MAX_SYMBOLS, BandFactor
from modlights.engines.tensor.ring_part import _RingPart
from modlights.model.ring import crt_idempotents, factorize, is_prime

__all__ = [
    "TensorEngine",
    "tensor_reason",
    "tensor_supports",
    "factor_pattern",
    "KERNEL_BYTES_MAX",
    "MAX_SYMBOLS",
]

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


def _offset_factors(board) -> tuple[dict, dict] | str:
    """(a, b) for the board's pattern or the reason it has none."""
    fac = factor_pattern(board.pattern)
    if fac is None:
        return (
            "the pattern's offset counts must factor as cnt(dr, dc) = a(dr) b(dc) "
            "(square, horizontal, vertical, products of a row and a column offset set)"
        )
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
            try:  # another thread (the web service) may evict too
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
        if len(factorize(n)) == 1:  # a prime power: splitting changes nothing
            raise
    out = []
    for q, idem in crt_idempotents(n):
        try:
            R, C = _factors(board, fac, q)
        except ValueError as e:
            raise ValueError(f"over Z/{q} (a factor of n = {n}): {e}") from None
        out.append((q, idem, R, C))
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
    Y, ok_r = R.apply_ginv(B)  # R Y = B, Y = X C^T
    if not ok_r.all():
        return False
    if C.identity:
        np.copyto(out, Y)
        return True
    Yt = np.empty((w, h), np.uint8)
    transpose(Y, Yt)
    del Y
    Xt, ok_c = C.apply_ginv(Yt)  # C X^T = Y^T
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


class TensorEngine:
    """The engine interface of :class:`~modlights.solver.Solver` (``kernel_size``,
    ``nullity``, ``generators()``, ``solve(R)``, ``det()``) for the product-pattern
    boards :func:`tensor_reason` accepts.
    A composite n whose factors are not invertible mod n is split by CRT into its prime
    powers (each a field, invertible there, or a :class:`_RingPart`), the parts combined
    as the lifted engine combines them (the i-th generators of the parts add up to one
    generator whose order is the product of theirs).

    inverse and pseudo-inverse are not the tensor engine's: the registry answers them
    (:func:`modlights.engines.registry.ask`).
    """

    name = "tensor"
    #: solve_packed works along the board's rows (no bit transposes)
    transposed = False

    def __init__(self, board):
        reason = tensor_reason(board)
        if reason is not None:
            raise ValueError(
                f"method='tensor' does not cover this board: {reason}; "
                "use method='auto', 'chase' or 'dense'"
            )
        self.board = board
        self.n = board.states
        self.h, self.w = board.shape
        self._parts = _parts(board, _offset_factors(board))
        # per part: a _RingPart (q = p^k, k > 1, a factor singular mod p) or None
        self._rings = [_RingPart(R, C) if R.ring or C.ring else None for _, _, R, C in self._parts]

    def _nullities(self) -> list[int]:
        """Kernel generators of each part: its dimension over a field, the cyclic
        summands of a ring part, 0 where A is invertible."""
        return [
            ring.nullity if ring is not None else _part_nullity(R, C) if is_prime(q) else 0
            for (q, _, R, C), ring in zip(self._parts, self._rings)
        ]

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
            out *= ring.kernel_size if ring is not None else q**k
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
            acc = np.zeros((h, w), np.uint16)  # < n + (q - 1) e <= 255 * 256
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
        Y, ok = R.apply_ginv_packed(packed, w, ones=bool(tc & 1))  # R Y = B
        if not ok:
            return None
        Y = Y[:h]
        if C.identity:
            if w % 8:
                Y[:, -1] &= np.uint8((0xFF << (8 - w % 8)) & 0xFF)
            return Y
        if C.packed_row_solver() is not None:  # C X^T = Y^T row by row
            return C.packed_row_solver().solve_rows_packed(Y)
        sb = STRIP_ROWS // 8
        strip = np.empty((w, sb), np.uint8)
        work = np.empty((w + C.s, sb), np.uint8)
        for i0 in range(0, h, STRIP_ROWS):
            rows = min(STRIP_ROWS, h - i0)
            transpose_bits(Y[i0 : i0 + rows], w, strip)  # strip = Y^T
            Xt, ok = C.apply_ginv_packed(strip, rows, out=work)  # C X^T = Y^T
            if not ok:
                return None
            transpose_bits(Xt[:w], rows, Y[i0 : i0 + rows])
        return Y

    def apply_packed(
        self, x: np.ndarray, s: np.ndarray | None = None, tc: int = 0, write: bool = True
    ) -> tuple[np.ndarray | None, int]:
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
            raise ValueError(
                f"the kernel basis has {k} generators of {h * w} taps: "
                f"{k * h * w / 2**30:.2f} GiB, more than the "
                f"{KERNEL_BYTES_MAX / 2**20:.0f} MiB allowed; nullity, "
                "kernel_size, solvable and solve do not need it"
            )
        if len(self._parts) == 1:
            G, orders = self._part_gens(0, k)
            return G.reshape(k, h * w), orders
        # bytes throughout (the limit above counts bytes): each part's generators are
        # folded in a few rows at a time, the sums (< n + (q - 1) e <= 255 * 256) in uint16
        H = np.zeros((k, h * w), dtype=np.uint8)
        orders = [1] * k
        step = max(1, (1 << 20) // max(1, h * w))
        for j, ((_q, e, _, _), kq) in enumerate(zip(self._parts, self._nullities())):
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
        return (
            sum(pow(R.det(), self.w, q) * pow(C.det(), self.h, q) * e for q, e, R, C in self._parts)
            % n
        )
