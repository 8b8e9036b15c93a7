"""The certificate checker's algebra: the matrix A, elimination mod p^e, the kernel and
the coset minima (Walsh-Hadamard transform and the coset walk). Imports nothing of
modlights (see the package's docstring)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from .data import (
    CHUNK_ENTRIES,
    WHT_DIM,
    _Board,
    _crt,
    _field,
    _int,
    _ints,
    _prime_powers,
)
from .work import (
    _ROW,
    _ROWS,
    _WORD,
    _Meter,
)


# ------------------------------------------------------------------ the matrix A
class _Matrix:
    """A of a board in coordinate form: entry (i, j) is the number of (ci, tj) pairs
    equal to (i, j), mod n. m cells x r taps."""

    def __init__(self, board: _Board):
        self.n, self.m, self.r = board.n, board.m, board.r
        self.ci, self.tj = board.coo()
        self._entries: tuple[np.ndarray, np.ndarray] | None = None

    def apply(self, x: np.ndarray) -> np.ndarray:
        """A x mod n for an int64 vector x of entries 0..n-1 (sums of at most
        len(coo) entries < 256: no overflow)."""
        acc = np.zeros(self.m, dtype=np.int64)
        np.add.at(acc, self.ci, x[self.tj])
        return acc % self.n

    def entries(
        self, cells: np.ndarray | None = None, taps: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The nonzero entries as (sorted keys i * r + j, values mod n), with rows and
        columns renamed by the permutations ``cells`` and ``taps`` when given (those of
        A itself are computed once)."""
        if cells is None and taps is None and self._entries is not None:
            return self._entries
        ci = self.ci if cells is None else cells[self.ci]
        tj = self.tj if taps is None else taps[self.tj]
        keys, counts = np.unique(ci * self.r + tj, return_counts=True)
        counts %= self.n
        keep = counts != 0
        out = keys[keep], counts[keep]
        if cells is None and taps is None:
            self._entries = out
        return out

    def profile(self) -> np.ndarray:
        """F (r,): F[j] = the number of rows whose first nonzero entry (mod n) is in a
        column <= j."""
        keys, _ = self.entries()
        rows = keys // max(1, self.r)
        _, at = np.unique(rows, return_index=True)
        return np.cumsum(np.bincount(keys[at] % max(1, self.r), minlength=self.r))

    def dense(self, q: int) -> np.ndarray:
        """A mod q as a uint8 (m, r) array."""
        keys, counts = self.entries()
        D = np.zeros(self.m * self.r, dtype=np.uint8)
        D[keys] = counts % q
        return D.reshape(self.m, self.r)


# ------------------------------------------------------------------ elimination mod p^e
def _eliminate(
    M: np.ndarray,
    p: int,
    e: int,
    Z: np.ndarray | None = None,
    spend: Callable[[int], None] | None = None,
) -> tuple[list[tuple[int, int, int]], np.ndarray, np.ndarray | None]:
    """Row-reduce M (a x b) over Z/p^e with pivots of least p-valuation (a local Smith
    form; row operations only), applying the same operations to Z (a x t).

    Level by level, v = 0 .. e-1: while every remaining entry is divisible by p^v, a
    remaining entry u p^v (u a unit) in column j clears column j in the other remaining
    rows (each entry there is a multiple of p^v); its row then leaves. Entries of a
    column passed over at level v stay multiples of p^(v+1) (only multiples of pivot
    rows, whose entries there are such multiples, are added), so one pass over the
    columns per level suffices. Column operations, which do not change the sizes below,
    would clear each pivot row too: the diagonal u_t p^(v_t) is a Smith form of M, so

        |{x : M x = 0}| = p^(e (b - s) + sum v_t)    (b columns, s pivots)
        |row span of M| = p^(sum (e - v_t)).

    Returns (pivots [(row, column, v)], M, Z) after elimination. Entries stay in
    0..q-1 (q <= 255): products below 2^16, no overflow in int64. ``spend(units)`` is
    told the work of each row update before it is done (the work bound's meter).
    """
    q = p**e
    M = np.array(M, dtype=np.int64) % q
    Z = None if Z is None else np.array(Z, dtype=np.int64) % q
    left = np.ones(M.shape[0], dtype=bool)
    pivots: list[tuple[int, int, int]] = []
    done = np.zeros(M.shape[1], dtype=bool)
    for v in range(e):
        pv = p**v
        for j in range(M.shape[1]):
            if done[j]:
                continue
            col = M[:, j]
            cand = np.flatnonzero(left & ((col // pv) % p != 0))
            if cand.size == 0:
                continue
            i = int(cand[0])
            inv = pow(int(M[i, j]) // pv, -1, q)
            rows = np.flatnonzero(left & (col != 0))
            rows = rows[rows != i]
            if rows.size:
                if spend is not None:
                    width = M.shape[1] + (0 if Z is None else Z.shape[1])
                    spend(rows.size * (_ROWS + width * _ROW))
                f = (M[rows, j] // pv) * inv % q
                M[rows] = (M[rows] - f[:, None] * M[i]) % q
                if Z is not None:
                    Z[rows] = (Z[rows] - f[:, None] * Z[i]) % q
            left[i] = False
            done[j] = True
            pivots.append((i, j, v))
    return pivots, M, Z


def _rank_gf2(D: np.ndarray, spend: Callable[[int], None] | None = None) -> int:
    """The rank of a 0/1 matrix over GF(2): the same elimination as :func:`_eliminate`
    for p^e = 2, on rows packed 64 columns a word (column j is bit j % 64 of word
    j // 64). Remaining rows are zero left of the current column, so a pivot row is
    added from its own word on. ``spend``: as in :func:`_eliminate`."""
    m, r = D.shape
    if m == 0 or r == 0:
        return 0
    packed = np.packbits(D.astype(np.uint8), axis=1, bitorder="little")
    pad = (-packed.shape[1]) % 8
    P = np.ascontiguousarray(np.pad(packed, ((0, 0), (0, pad)))).view("<u8")
    left = np.ones(m, dtype=bool)
    rank = 0
    one = np.uint64(1)
    for j in range(r):
        w = j >> 6
        has = ((P[:, w] >> np.uint64(j & 63)) & one).astype(bool) & left
        rows = np.flatnonzero(has)
        if rows.size == 0:
            continue
        i = rows[0]
        left[i] = False
        rank += 1
        if rows.size > 1:
            if spend is not None:
                spend((rows.size - 1) * (_ROWS + (P.shape[1] - w) * _WORD))
            P[rows[1:], w:] ^= P[i, w:]
    return rank


def _log_kernel(A: _Matrix, p: int, e: int, spend: Callable[[int], None] | None = None) -> int:
    """log_p |{x in (Z/p^e)^r : A x = 0}|."""
    if p**e == 2:
        return A.r - _rank_gf2(A.dense(2), spend)
    pivots, _, _ = _eliminate(A.dense(p**e), p, e, spend=spend)
    return e * (A.r - len(pivots)) + sum(v for _, _, v in pivots)


def _log_span(H: np.ndarray, p: int, e: int) -> int:
    """log_p of the size of the subgroup of (Z/p^e)^r the rows of H generate."""
    if H.shape[0] == 0:
        return 0
    pivots, _, _ = _eliminate(H % p**e, p, e)
    return sum(e - v for _, _, v in pivots)


def _solve(M: np.ndarray, Z: np.ndarray, p: int, e: int) -> np.ndarray | None:
    """X (b x t) with M X = Z mod p^e, or None when there is none.

    After :func:`_eliminate`, pivot t's row reads p^v u x_j + (multiples of p^v in the
    columns of later pivots and free columns) = z; rows without a pivot are zero and
    need z = 0. Free unknowns are set to 0 and pivots solved from the last one up:
    z minus the later terms must be a multiple of p^v (it is whenever any solution
    exists, every other term being one)."""
    q = p**e
    pivots, M, Zr = _eliminate(M, p, e, Z)
    assert Zr is not None  # Z given: it comes back reduced
    Z = Zr
    rows = np.ones(M.shape[0], dtype=bool)
    rows[[i for i, _, _ in pivots]] = False
    if Z[rows].any():
        return None
    X = np.zeros((M.shape[1], Z.shape[1]), dtype=np.int64)
    for i, j, v in reversed(pivots):
        R = (Z[i] - M[i] @ X) % q  # b terms < 2^16 each
        if (R % p**v).any():
            return None
        X[j] = (R // p**v) * pow(int(M[i, j]) // p**v, -1, q) % q
    return X


# ------------------------------------------------------------------ the kernel
class _Kernel:
    """Generators h_0..h_{k-1} (int64 (k, r)) of all of ker A with their orders, each
    kernel element exactly once as sum c_i h_i, 0 <= c_i < o_i (checked by
    :func:`_check_kernel`)."""

    def __init__(self, H: np.ndarray, orders: list[int], n: int):
        self.H, self.orders, self.n = H, orders, n
        self.k = len(orders)

    def coords(self, Z: np.ndarray) -> np.ndarray:
        """Coefficients c (t x k, c_i mod o_i) of the columns z of Z (r x t) in the
        generators: sum c_i h_i = z. ValueError for a z outside the kernel's span.

        Mod each prime power p^e of n the system H^T c = z is solved; c_i matters mod
        the p-part of o_i (the order of h_i mod p^e), and the residues are joined by
        the Chinese remainder theorem."""
        t = Z.shape[1]
        C: list[list[list[Any]]] = [[[] for _ in range(self.k)] for _ in range(t)]
        for p, e in _prime_powers(self.n):
            X = _solve(self.H.T, Z, p, e) if self.k else np.zeros((0, t), np.int64)
            if X is None or (self.k == 0 and (Z % p**e).any()):
                raise ValueError("a vector is not in the span of the kernel generators")
            for i, o in enumerate(self.orders):
                pp = 1
                while o % (pp * p) == 0:
                    pp *= p
                for s in range(t):
                    C[s][i].append((int(X[i, s]) % pp, pp))
        out = np.array(
            [[_crt(C[s][i]) for i in range(self.k)] for s in range(t)], dtype=np.int64
        ).reshape(t, self.k)
        if ((out @ self.H - Z.T) % self.n).any():  # k terms < 2^16 each
            raise ValueError("a vector is not in the span of the kernel generators")
        return out


def _check_kernel(kd: Any, A: _Matrix, what: str, meter: _Meter) -> _Kernel:
    """The kernel checks of docs/certificates.md: entries, A h_i = 0, orders, and
    |subgroup generated| = prod(o_i) = |ker A| for every prime power p^e || n.

    Why this suffices: ker A and the subgroup S the h_i generate split by the Chinese
    remainder theorem into their parts mod each p^e, so S = ker A when S is inside
    ker A (A h_i = 0) and both have the same size mod each p^e. Then c -> sum c_i h_i
    maps prod(Z/o_i) (well defined as o_i h_i = 0) onto ker A, and prod(o_i) = |ker A|
    makes it one to one."""
    n, r = A.n, A.r
    gens = _field(kd, "generators", what)
    orders = _field(kd, "orders", what)
    if not isinstance(gens, list) or not isinstance(orders, list):
        raise ValueError(f"{what}: generators and orders must be lists")
    if len(gens) != len(orders):
        raise ValueError(f"{what}: {len(gens)} generators but {len(orders)} orders")
    H = np.zeros((len(gens), r), dtype=np.int64)
    for i, g in enumerate(gens):
        H[i] = _ints(g, f"{what} generator {i}", r, 0, n - 1)
    orders = [_int(o, f"{what} order {i}", 1, n) for i, o in enumerate(orders)]
    for i, (h, o) in enumerate(zip(H, orders)):
        if A.apply(h).any():
            raise ValueError(
                f"{what} generator {i} is not in ker A (A h != 0 at cell "
                f"{int(np.flatnonzero(A.apply(h))[0])})"
            )
        # o is the additive order: o h = 0 and (o / p) h != 0 for each prime p | o
        if (
            n % o
            or ((o * h) % n).any()
            or any(not (((o // p) * h) % n).any() for p, _ in _prime_powers(o))
        ):
            raise ValueError(
                f"{what} order {i} is wrong: {o} is not the additive order of generator {i}"
            )
    for p, e in _prime_powers(n):
        ker = _log_kernel(A, p, e, meter.spender("kernel", f"eliminating A mod {p**e}"))
        span = _log_span(H, p, e)
        claimed = 0
        for o in orders:
            while o % p == 0:
                o, claimed = o // p, claimed + 1
        if span != claimed:
            raise ValueError(
                f"{what}: the generators generate {p}^{span} elements mod "
                f"{p**e}, the product of their orders has {p}^{claimed} "
                "(they are not independent)"
            )
        if ker != span:
            raise ValueError(
                f"{what} is incomplete: ker A has {p}^{ker} elements mod "
                f"{p**e}, the generators generate {p}^{span}"
            )
    return _Kernel(H, orders, n)


# ------------------------------------------------------------------ coset minima
def _wht(a: np.ndarray) -> np.ndarray:
    """F(c) = sum_u a_u (-1)^popcount(c & u) for c < 2^d (a of length 2^d). Every
    partial sum is bounded by sum |a_u| (here at most the number of taps), so the
    transform runs in int16 when that is below 2^15, else int32. Two bits at a time
    where it can (the 4-point transform of bits t, t+1: s0 + s1, d0 + d1, s0 - s1,
    d0 - d1 with s, d the sums and differences of the pairs), else one (a0 + a1,
    a0 - a1)."""
    a = a.astype(np.int16 if int(np.abs(a).sum()) < 1 << 15 else np.int32)
    h, N = 1, a.size
    while h < N:
        if 4 * h <= N:
            b = a.reshape(-1, 4, h)
            s0, d0 = b[:, 0] + b[:, 1], b[:, 0] - b[:, 1]
            s1, d1 = b[:, 2] + b[:, 3], b[:, 2] - b[:, 3]
            np.add(s0, s1, out=b[:, 0])
            np.add(d0, d1, out=b[:, 1])
            np.subtract(s0, s1, out=b[:, 2])
            np.subtract(d0, d1, out=b[:, 3])
            h *= 4
        else:
            b = a.reshape(-1, 2, h)
            x = b[:, 0].copy()
            b[:, 0] += b[:, 1]
            np.subtract(x, b[:, 1], out=b[:, 1])
            h *= 2
    return a


class _Walk:
    """min over c (0 <= c_i < o_i) of sum((y + sum c_i h_i) mod n), exactly, for
    many y and one set of generators (the set-up is done once).

    The first generators form an inner block enumerated at once, the rest an outer
    loop (each outer choice shifts y). n = 2: the inner block is read through a
    Walsh-Hadamard transform. With u_j the column of tap j over the inner generators,
    tap j of y + c.H is y_j xor parity(c & u_j), and y xor t = y + t (1 - 2y), so

        sum = |y| + sum_u w_u (1 - (-1)^popcount(c & u)) / 2 = |y| + (W - F(c)) / 2

    with w_u = sum over taps of column u of (1 - 2 y_j), W = sum w_u and F the
    transform of w: every c of the block at once. Otherwise the inner block's
    vectors (sum c_i h_i mod n, at most CHUNK_ENTRIES entries) are added to y."""

    def __init__(self, H: np.ndarray, orders: list[int], n: int, r: int):
        self.H, self.orders, self.n, self.r = H, orders, n, r
        k = len(orders)
        if n == 2:
            d = min(k, WHT_DIM)
        else:
            d, size = 0, 1
            while d < k and size * orders[d] * max(1, r) <= CHUNK_ENTRIES:
                size *= orders[d]
                d += 1
        self.d = d
        if n == 2:
            self.u = np.zeros(r, dtype=np.int64)
            for i in range(d):
                self.u |= H[i] << i
            self.size = np.bincount(self.u, minlength=1 << d)  # taps per column u
        elif r:
            low = np.zeros((1, r), dtype=np.int64)
            for i in range(d):  # all combinations of the inner block
                mult = np.arange(orders[i], dtype=np.int64)[:, None, None] * H[i]
                low = ((low[None, :, :] + mult) % n).reshape(-1, r)
            self.low = low

    def min(self, y: np.ndarray) -> int:
        n, d = self.n, self.d
        if self.r == 0:
            return 0
        best = None
        for cs in itertools.product(*[range(o) for o in self.orders[d:]]):
            z = y
            for c, h in zip(cs, self.H[d:]):
                if c:
                    z = (z + c * h) % n
            if n == 2:
                w = self.size - 2 * np.bincount(self.u[z == 1], minlength=1 << d)
                F = _wht(w)  # w: sums of 1 - 2 z_j
                val = int(z.sum()) + (int(w.sum()) - int(F.max())) // 2
            else:
                val = int(((self.low + z) % n).sum(axis=1).min())
            if best is None or val < best:
                best = val
        assert best is not None  # the product has at least the empty combination
        return best


def _coset_min(y: np.ndarray, H: np.ndarray, orders: list[int], n: int) -> int:
    """min over the coset y + span(H) of the length (see :class:`_Walk`)."""
    return _Walk(H, orders, n, y.size).min(y)
