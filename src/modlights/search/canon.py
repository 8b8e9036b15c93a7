"""Canonical kernel generators and canonical coset representatives.

The engines describe ker A by the generators their own elimination produces and a
particular solution by their own forward pass. A minimal search that stops short of
the whole coset (a budget smaller than |ker A|, or budget 0: the greedy descent) returns
an element that depends on both. Rewritten first into forms that depend only on ker A
and on the coset, those answers are the same whichever engine (or language: the
WebAssembly core calls the same C) produced the inputs.

- :func:`basis`: for each prime power q = p^e of n, the Howell form of the module
  mod q (unique for the module), then a direct-sum basis read from it: repeatedly the
  row with an entry of least p-valuation v (least column, then first row), scaled so
  that entry is p^v, cleared from the other rows at that column; its order is p^(e-v).
  The i-th generators of the prime powers are joined by the CRT idempotents. For prime
  n the result is the reduced row echelon basis.
- :func:`reduce`: per prime power, for each generator in order subtract
  floor(x[c] / p^v) times it, c its pivot (first column of least valuation); then join.
  Elements of one coset reduce to the same vector.

This module is the NumPy implementation: the reference backend's, and the oracle the
C one (csrc/search/canon.c, which the C solver applies to its kernel and to every
particular solution it searches from) is compared with through the Solver. Both give
the same output. Cost O(k^2 L) per prime power of n; :func:`fits` bounds it
(``CANON_MAX_WORK`` for the C one, k^2 ceil(L/64) for n = 2;
``CANON_MAX_WORK_NUMPY`` for this one): past it callers keep the engine's generators
and answers of unfinished searches may depend on the engine.
"""

from __future__ import annotations

import numpy as np

__all__ = ["basis", "reduce", "fits", "CANON_MAX_WORK", "CANON_MAX_WORK_NUMPY"]

#: Work units ``fits`` allows: k^2 ceil(L/64) for n = 2, k^2 L per prime factor otherwise.
CANON_MAX_WORK = 1 << 28
#: Work units ``fits(..., native=False)`` allows the NumPy implementation (k^2 L per
#: prime factor, for n = 2 too: rows are not packed), about a quarter of a second.
CANON_MAX_WORK_NUMPY = 1 << 23


def _parts(n: int) -> list[tuple[int, int, int]]:
    """(q, p, e) for each prime power q = p^e of n, p ascending."""
    out, p = [], 2
    while n > 1:
        if n % p == 0:
            q, e = 1, 0
            while n % p == 0:
                n //= p
                q *= p
                e += 1
            out.append((q, p, e))
        p += 1
    return out


def _check_n(n: int) -> int:
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or not 2 <= n <= 255:
        raise ValueError(f"n must be an int from 2 to 255, got {n!r}")
    return int(n)


def fits(k: int, L: int, n: int, *, native: bool = True) -> bool:
    """Whether k generators of length L over Z/n are within ``CANON_MAX_WORK``: work
    k^2 ceil(L/64) for n = 2, else k^2 L times the sum of the exponents of n's prime
    powers (the Howell form of a p^e part has up to e k rows): the C bound itself
    (``ml_canon_fits``), ValueError when k or L is not an int from 0 to 2^62.
    ``native=False``: the NumPy implementation's bound, ``CANON_MAX_WORK_NUMPY`` on
    k^2 L times that sum."""
    n = _check_n(n)
    if not native:
        return k * k * L * sum(e for _, _, e in _parts(n)) <= CANON_MAX_WORK_NUMPY
    from modlights.native import _core

    return _core.canon_fits(k, L, n)


def basis(G: np.ndarray, n: int) -> tuple[np.ndarray, list[int]]:
    """(H uint8 (r, L), orders): the canonical generators of the module the rows of G
    (k, L; entries 0..n-1) span over Z/n, r <= k, ker = direct sum of the cyclic groups
    of the rows. ValueError on entries out of range. O(k^2 L) per prime power."""
    n = _check_n(n)
    A = np.asarray(G)
    if A.dtype.kind not in "iub":
        raise ValueError(f"G must hold integers, got dtype {A.dtype}")
    if A.ndim != 2 or (A.size and (A.min() < 0 or A.max() >= n)):
        raise ValueError(f"G must be 2-D with entries in 0..{n - 1}")
    k, L = A.shape
    if k == 0 or L == 0:
        return np.zeros((0, L), dtype=np.uint8), []
    A = A.astype(np.int64)
    out = np.zeros((k, L), dtype=np.int64)
    orders = [1] * k
    r = 0
    for q, p, e in _parts(n):
        rows = _direct_sum(_howell(A % q, q, p, e), q, p, e)
        m = n // q
        idem = 1 if m == 1 else m * pow(m % q, -1, q) % n
        for i, (g, o) in enumerate(rows):
            out[i] = (out[i] + g * idem) % n
            orders[i] *= o
        r = max(r, len(rows))
    return out[:r].astype(np.uint8), orders[:r]


def reduce(X: np.ndarray, H: np.ndarray, n: int) -> np.ndarray:
    """X (L,) or (m, L) with every row replaced by the canonical representative of its
    coset row + span(H), H from :func:`basis` for this n (a new uint8 array). O(r L m)
    per prime power of n."""
    n = _check_n(n)
    Xa = np.asarray(X)
    one = Xa.ndim == 1
    Xm = np.atleast_2d(Xa).astype(np.int64)
    Hm = np.asarray(H, dtype=np.int64)
    if Hm.size == 0:
        return Xa.astype(np.uint8)
    if Hm.ndim != 2 or Hm.shape[1] != Xm.shape[1]:
        raise ValueError(f"X rows must have {Hm.shape[-1]} entries like H, got {Xm.shape[1]}")
    out = np.zeros_like(Xm)
    for q, p, e in _parts(n):
        m = n // q
        idem = 1 if m == 1 else m * pow(m % q, -1, q) % n
        xq = Xm % q
        for h in Hm % q:
            c, v = _pivot(h, p, e)
            if c is None:
                continue
            xq = (xq - (xq[:, c] // p**v)[:, None] * h[None, :]) % q
        out = (out + xq * idem) % n
    out = out.astype(np.uint8)
    return out[0] if one else out


def _val(a: int, p: int) -> int:
    v = 0
    while a % p == 0:
        a //= p
        v += 1
    return v


def _pivot(h: np.ndarray, p: int, e: int) -> tuple[int | None, int]:
    """(first column of least p-valuation, that valuation); (None, e) for a zero row."""
    best, bv = None, e
    for j in np.flatnonzero(h):
        v = _val(int(h[j]), p)
        if v < bv:
            best, bv = int(j), v
            if v == 0:
                break
    return best, bv


def _normalise(row: np.ndarray, c: int, p: int, q: int) -> np.ndarray:
    """row scaled by a unit so that row[c] = p^v."""
    a = int(row[c])
    u = a // p ** _val(a, p)
    return row * pow(u % q, -1, q) % q if q > 1 and u % q != 1 else row


def _howell(A: np.ndarray, q: int, p: int, e: int) -> list[np.ndarray]:
    """The Howell form of the rows of A mod q = p^e (rows by pivot column)."""
    work = [r for r in A if r.any()]
    H: list[np.ndarray] = []
    cols: list[int] = []
    L = A.shape[1]
    for c in range(L):
        if not work:
            break
        best, bv = None, e
        for i, r in enumerate(work):
            if r[c] and _val(int(r[c]), p) < bv:
                best, bv = i, _val(int(r[c]), p)
        if best is None:
            continue
        piv = _normalise(work.pop(best), c, p, q)
        d = p**bv
        work = [(r - (int(r[c]) // d) * piv) % q if r[c] else r for r in work]
        sat = piv * p ** (e - bv) % q
        if sat.any():
            work.append(sat)
        work = [r for r in work if r.any()]
        H.append(piv)
        cols.append(c)
    for i, c in enumerate(cols):
        d = int(H[i][c])
        for t in range(i):
            if H[t][c] >= d:
                H[t] = (H[t] - (int(H[t][c]) // d) * H[i]) % q
    return H


def _direct_sum(H: list[np.ndarray], q: int, p: int, e: int) -> list[tuple[np.ndarray, int]]:
    """The direct-sum basis read from Howell rows H (see the module docstring)."""
    live = [h.copy() for h in H]
    out = []
    width = len(live[0]) if live else 0
    while live:
        bi, bc, bv = -1, width, e
        for i, h in enumerate(live):
            c, v = _pivot(h, p, e)
            if c is not None and (v < bv or (v == bv and c < bc)):
                bi, bc, bv = i, c, v
        if bi < 0:
            break
        g = _normalise(live.pop(bi), bc, p, q)
        out.append((g, p ** (e - bv)))
        d = p**bv
        live = [(h - (int(h[bc]) // d) * g) % q if h[bc] else h for h in live]
        live = [h for h in live if h.any()]
    return out
