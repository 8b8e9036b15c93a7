"""The least weight over a GF(2) coset x0 + ker A past enumeration: Walsh-Hadamard
leaves (csrc/search/cube.c), driven from here in chunks of corners.

The k kernel generators are rebased into m *low* ones h_0..h_{m-1} and k - m *high*
ones h_m..h_{k-1}. A *leaf* fixes the high coefficients and is the sub-coset
y + span(h_0..h_{m-1}); its least weight is (N - max W) / 2 with W the Walsh-Hadamard
transform of the signs of y grouped by the taps' low columns (m 2^m additions for
2^m elements). Leaves are walked in Gray-code order; a *corner* fixes the top high
coefficients and is one unit of work (a C call takes a batch of corners; an executor
task takes a range of them).

Symmetries of the board (:mod:`modlights.search.symmetry`) that fix b act on the coset;
when the low span is invariant under them (built here from orbit spans) they act on
the leaves, and only the leaves that are least in their orbit (as integers over the
high coefficients, c_{k-1} the most significant) are transformed: up to |G| times
fewer.

The result, when every corner was walked, is proved minimal; its proof is a
``{"method": "tree"}`` dict of docs/certificates.md with the rebased generators, the
leaf dimension m, no pruned prefixes and the symmetries used.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "CubePlan",
    "Result",
    "plan",
    "search",
    "task",
    "layout",
    "applies",
    "LOW_DIM",
    "CUBE_MIN_NULLITY",
    "MIN_STEPS",
]

#: Low generators (leaf dimension) aimed at: 2^LOW_DIM int16 entries per transform.
LOW_DIM = 16
#: Leaves per corner at most (2^CORNER_LOG): corners are the units of work.
CORNER_LOG = 10
#: Seconds a C call aims at (Ctrl-C, deadlines and progress between calls).
CALL_SECONDS = 0.3
#: From this nullity on, GF(2) minimal searches use the transform (below it the
#: Gray-code walk is as fast).
CUBE_MIN_NULLITY = 22
#: Budgets (coset elements) from which the transform search is used: a corner has
#: 2^(m + CORNER_LOG) elements, at most 2^(LOW_DIM + 2 + CORNER_LOG).
MIN_STEPS = 1 << (LOW_DIM + 2 + CORNER_LOG)
#: Most taps (int16 transform lanes) and generators (k - m <= 63, m <= 26).
MAX_TAPS = 32767
MAX_NULLITY = 63 + 24


def applies(n: int, n_taps: int, orders: Sequence[int]) -> bool:
    """Whether the transform search takes this coset: GF(2), at most MAX_TAPS taps and
    MAX_NULLITY generators (every order 2)."""
    return (
        n == 2
        and 0 < n_taps <= MAX_TAPS
        and len(orders) <= MAX_NULLITY
        and all(int(o) == 2 for o in orders)
    )


# ------------------------------------------------------------------ GF(2) with ints
def _to_int(row: np.ndarray) -> int:
    return int.from_bytes(
        np.packbits(np.asarray(row, dtype=np.uint8) & 1, bitorder="little").tobytes(), "little"
    )


def _to_bits(v: int, n: int) -> np.ndarray:
    raw = np.frombuffer(v.to_bytes((n + 7) // 8 or 1, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little", count=n)


class _Echelon:
    """Rows (Python ints) reduced on their highest bits, each with the combination of
    the added vectors (bits) that makes it."""

    def __init__(self):
        self.rows: dict[int, tuple[int, int]] = {}

    def reduce(self, v: int, combo: int = 0) -> tuple[int, int]:
        while v:
            r = self.rows.get(v.bit_length() - 1)
            if r is None:
                break
            v ^= r[0]
            combo ^= r[1]
        return v, combo

    def add(self, v: int, combo: int = 0) -> bool:
        v, combo = self.reduce(v, combo)
        if not v:
            return False
        self.rows[v.bit_length() - 1] = (v, combo)
        return True

    def __len__(self) -> int:
        return len(self.rows)


# ------------------------------------------------------------------ the plan
class CubePlan:
    """One coset rebased for the transform search (arrays for the C call, plain data:
    it pickles for executors).

    Attributes: n_taps, m, kh; gens uint8 (k, n_taps) (low ones first); col uint32,
    y0 uint8, sup_start / sup_idx uint32 (supports of the high generators); sym_mat
    uint64 (ng, kh), sym_shift uint64 (ng,); symmetries: the (cells, taps) pairs used.
    """

    def __init__(self, x0, gens, m, symmetries, sym_mat, sym_shift):
        self.x0 = np.ascontiguousarray(x0, dtype=np.uint8)
        self.gens = np.ascontiguousarray(gens, dtype=np.uint8)
        self.n_taps = int(self.x0.size)
        self.m = int(m)
        self.kh = int(len(self.gens) - self.m)
        low = self.gens[: self.m].astype(np.uint32)
        self.col = (
            (low << np.arange(self.m, dtype=np.uint32)[:, None]).sum(axis=0, dtype=np.uint32)
            if self.m
            else np.zeros(self.n_taps, np.uint32)
        )
        high = self.gens[self.m :]
        sizes = np.count_nonzero(high, axis=1)
        self.sup_start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.uint32)
        self.sup_idx = np.nonzero(high)[1].astype(np.uint32)
        self.y0 = self.x0 & 1
        self.symmetries = list(symmetries)
        self.sym_mat = np.ascontiguousarray(sym_mat, dtype=np.uint64).reshape(
            len(self.symmetries), self.kh
        )
        self.sym_shift = np.ascontiguousarray(sym_shift, dtype=np.uint64).reshape(-1)

    @property
    def k(self) -> int:
        return len(self.gens)

    def element(self, high: int, low: int) -> np.ndarray:
        """x0 + sum of the generators whose coefficient is 1 (low bits, then high)."""
        y = self.x0.copy()
        for i in range(self.m):
            if low >> i & 1:
                y ^= self.gens[i]
        for i in range(self.kh):
            if high >> i & 1:
                y ^= self.gens[self.m + i]
        return y

    def proof(self) -> dict:
        """The ``<proof>`` of a closed search (docs/certificates.md, method "tree")."""
        d: dict[str, Any] = {"method": "tree", "leaf_dim": self.m, "pruned": []}
        if self.symmetries:
            d["symmetries"] = [
                {"cells": [int(v) for v in c], "taps": [int(v) for v in t]}
                for c, t in self.symmetries
            ]
        d["generators"] = self.gens.astype(int).tolist()
        d["orders"] = [2] * self.k
        return d


def _permute_rows(rows: np.ndarray, taps: np.ndarray) -> np.ndarray:
    out = np.empty_like(rows)
    out[..., taps] = rows
    return out


def plan(
    x0: np.ndarray,
    H: np.ndarray,
    *,
    m: int | None = None,
    symmetries: Sequence[tuple[np.ndarray, np.ndarray]] = (),
) -> CubePlan:
    """Rebase the coset x0 + span(H) (GF(2), H independent rows) for the transform.

    Parameters
    ----------
    x0 : 0/1 (N,); H : 0/1 (k, N), a basis of ker A.
    m : the leaf dimension aimed at (default ``min(k, LOW_DIM)``; at least k - 63).
    symmetries : (cells, taps) pairs preserving A (see
        :func:`modlights.search.symmetry.symmetries`); those that do not keep the coset
        (P x0 - x0 outside span(H)) are dropped, and when no invariant low span of a
        usable dimension exists, all of them.

    Raises
    ------
    ValueError
        When H has dependent rows or more than ``MAX_NULLITY`` of them, or a symmetry
        does not map span(H) into itself.
    """
    x0 = np.asarray(x0, dtype=np.uint8) & 1
    H = np.asarray(H, dtype=np.uint8) & 1
    k, N = H.shape
    if k > MAX_NULLITY:
        raise ValueError(f"the transform search takes at most {MAX_NULLITY} generators, got {k}")
    base = _Echelon()
    ints = [_to_int(h) for h in H]
    for i, v in enumerate(ints):
        if not base.add(v, 1 << i):
            raise ValueError("the kernel generators must be independent over GF(2)")
    # sparse rows: the reduced echelon form, rows by weight
    red = sorted((v for v, _ in base.rows.values()), key=lambda v: (v.bit_count(), v))
    red_ech = _Echelon()
    for v in red:
        red_ech.add(v)
    red = [_full_reduce(v, red_ech) for v in red]
    red.sort(key=lambda v: (v.bit_count(), v))
    m_aim = min(k, LOW_DIM if m is None else int(m))
    m_min = max(0, k - 63)
    m_aim = max(m_aim, m_min)
    x0i = _to_int(x0)
    syms = []
    for c, t in symmetries:
        t = np.asarray(t, dtype=np.int64)
        if t.shape != (N,):
            continue
        shift = _to_int(_permute_rows(x0, t)) ^ x0i
        if base.reduce(shift)[0] == 0:
            syms.append((np.asarray(c, dtype=np.int64), t))
    low: list[int] | None = None
    if syms:
        low = _invariant_low(red, syms, N, m_aim, m_min)
        if low is None:
            syms = []
    if low is None:
        low = red[len(red) - m_aim :] if m_aim else []  # the densest are low
    ech = _Echelon()
    for i, v in enumerate(low):
        ech.add(v, 1 << i)
    high: list[int] = []
    for v in red:
        if ech.add(v, 1 << (len(low) + len(high))):
            high.append(v)
    gens_i = low + high
    mm = len(low)
    assert len(gens_i) == k
    sym_mat = np.zeros((len(syms), k - mm), dtype=np.uint64)
    sym_shift = np.zeros(len(syms), dtype=np.uint64)
    G = np.array([_to_bits(v, N) for v in gens_i], dtype=np.uint8).reshape(k, N)
    for g, (_c, t) in enumerate(syms):
        PG = _permute_rows(G[mm:], t)
        for i in range(k - mm):
            r, co = ech.reduce(_to_int(PG[i]))
            if r:
                raise ValueError("a symmetry does not map the kernel into itself")
            sym_mat[g, i] = co >> mm
        r, co = ech.reduce(_to_int(_permute_rows(x0, t)) ^ x0i)
        sym_shift[g] = co >> mm
    return CubePlan(x0, G, mm, syms, sym_mat, sym_shift)


def _full_reduce(v: int, ech: _Echelon) -> int:
    """v with every pivot of ech other than its own cleared."""
    own = v.bit_length() - 1
    for p, (r, _) in ech.rows.items():
        if p != own and v >> p & 1:
            v ^= r
    return v


def _invariant_low(red: list[int], syms, N: int, m_aim: int, m_min: int) -> list[int] | None:
    """A basis of a subspace of span(red) mapped into itself by every symmetry, of
    dimension near m_aim (m_min at least, m_aim + 2 at most), built from orbit spans;
    None when none is found."""
    m_hi = m_aim + 2
    perms = [t for _, t in syms]
    ech = _Echelon()
    basis: list[int] = []
    for v in reversed(red):  # densest first
        if len(basis) >= m_aim - 1:
            break
        if not ech.reduce(v)[0]:
            continue
        trial = _Echelon()
        trial.rows = dict(ech.rows)
        added = []
        queue = [v]
        ok = True
        while queue and ok:
            w = queue.pop()
            if not trial.add(w):
                continue
            added.append(w)
            if len(basis) + len(added) > m_hi:
                ok = False
                break
            bits = _to_bits(w, N)
            for t in perms:
                queue.append(_to_int(_permute_rows(bits, t)))
        if ok:
            ech = trial
            basis.extend(added)
    if len(basis) < max(m_min, 1) or len(basis) < min(m_aim, 4):
        return None
    return basis


# ------------------------------------------------------------------ the search
def _call(p: CubePlan, inner: int, a: int, b: int, bound: int, seconds: float, threads: int | None):
    from modlights.native import _core

    corners = np.arange(a, b, dtype=np.uint64) << np.uint64(inner)
    return _core.cube_min_gf2(
        p.col,
        p.y0,
        p.sup_start,
        p.sup_idx,
        p.m,
        p.sym_mat,
        p.sym_shift,
        p.kh - inner,
        corners,
        bound,
        seconds,
        threads,
    )


def task(p: CubePlan, inner: int, a: int, b: int, bound: int):
    """Executor task: corners a..b-1 with one thread (module level: it pickles)."""
    return _call(p, inner, a, b, bound, 0.0, 1)


class Result:
    """What :func:`search` found: length (the least found; the weight of x0 when
    nothing shorter), best (uint8 element), complete (every corner walked), covered
    (coset elements covered), examined / skipped (elements transformed, elements in
    leaves skipped by symmetry)."""

    __slots__ = ("length", "best", "complete", "covered", "examined", "skipped")

    def __init__(self, length, best, complete, covered, examined, skipped):
        self.length, self.best, self.complete = length, best, complete
        self.covered, self.examined, self.skipped = covered, examined, skipped


def layout(p: CubePlan) -> tuple[int, int, int]:
    """(inner, corners, elements per corner): a corner fixes the top kh - inner high
    coefficients; corner q is the mask q << inner."""
    inner = min(p.kh, CORNER_LOG)
    return inner, 1 << (p.kh - inner), 1 << (inner + p.m)


def search(
    p: CubePlan,
    *,
    steps: int | None = None,
    deadline: float | None = None,
    threads: int | None = None,
    progress: Any = None,
) -> Result:
    """The least weight over the coset of plan ``p``.

    Parameters
    ----------
    steps : coset elements to cover at most (None: all); a corner (2^(m + inner)
        elements) is covered whole or not at all.
    deadline : ``time.perf_counter()`` value to stop by (None: none).
    threads : C threads per call (None: the CPUs).
    progress : callable (done, total) in coset elements, after every C call.

    Returns a :class:`Result`; ``complete`` only when every corner was walked (the
    length is then the least over the coset). Ctrl-C: KeyboardInterrupt within a
    second (between calls, or from the C loop).
    """
    inner, n_corners, per_corner = layout(p)
    total = n_corners * per_corner
    best = p.x0.copy()
    best_len = int(best.sum())
    limit = n_corners if steps is None else min(n_corners, steps // per_corner)
    if progress is not None:
        progress(0, total)
    done = examined = skipped = 0
    batch = 1
    while done < limit and best_len > 0:
        b = min(limit, done + batch)
        left = 0.0
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
        t0 = time.perf_counter()
        length, hi, lo, lv, sk, cd, comp = _call(p, inner, done, b, best_len, left, threads)
        dt = time.perf_counter() - t0
        examined += lv << p.m
        skipped += sk << p.m
        if hi is not None and length < best_len:
            best, best_len = p.element(hi, lo), length
        if not comp:  # stopped: the corners it finished are not a prefix
            break
        done = b
        if progress is not None:
            progress(done * per_corner, total)
        per = dt / max(1, cd)
        batch = int(max(1, min(1 << 20, CALL_SECONDS / max(per, 1e-7))))
    complete = done >= n_corners or best_len == 0
    return Result(best_len, best, complete, min(done, n_corners) * per_corner, examined, skipped)
