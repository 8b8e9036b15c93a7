"""Bindings to csrc/search/coset_batch.c: the minimal search for many cosets of one kernel, and
over one sub-cube of a coset (an executor task). The GIL is released during the C work;
Ctrl-C stops it within a second (KeyboardInterrupt; the process-wide stop flag and
hook, see _interrupt.pxi)."""
import numpy as np
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t


def _prepare(H, orders, n, r):
    """(G uint8 (k, r), orders uint32 (k,), is_gf2) after checking them."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 2 <= n <= 255:
        raise ValueError(f"n must be an int from 2 to 255, got {n!r}")
    n = int(n)
    _, G = _check(np.zeros(r, dtype=np.uint8), H, n)
    ords = np.asarray(orders)
    if ords.size and (ords.dtype.kind not in "iu" or int(ords.min()) < 2
                      or int(ords.max()) > n):
        raise ValueError(f"generator orders must be ints in 2..{n}")
    ords = np.ascontiguousarray(ords, dtype=np.uint32).reshape(-1)
    if ords.shape[0] != G.shape[0]:
        raise ValueError(f"orders must have {G.shape[0]} entries, got {ords.shape[0]}")
    total = 1
    for o in ords.tolist():
        total *= int(o)
    if total >= 1 << 62:
        raise ValueError("the coset has 2^62 or more elements: too many to enumerate")
    return G, ords, n == 2 and all(o == 2 for o in ords.tolist())


def coset_min_many(X0, H, orders, n, threads=None, taps=True, packed=None):
    """For every row x of X0 (m, r): the least length over x + span(H) (coefficient i
    in 0..orders[i]-1), searched exhaustively, the kernel prepared once.

    packed: GF(2) only: bit-pack the rows (True) or sum bytes as for Z/n (False); None:
    packed unless the kernel is trivial (measured: packing wins for every k >= 1, the
    byte sums by 2-4x for k = 0).
    Returns (lengths int64 (m,), best uint8 (m, r) or None when ``taps`` is False).
    Stops within a second on Ctrl-C (KeyboardInterrupt; nothing is returned).
    """
    X = np.asarray(X0)
    if X.ndim != 2:
        raise ValueError(f"X0 must be 2-D (boards x taps), got shape {X.shape}")
    cdef size_t m = X.shape[0], r = X.shape[1]
    G, ords, gf2 = _prepare(H, orders, n, r)
    if X.dtype.kind not in "iub" or X.size and (int(X.min()) < 0 or int(X.max()) >= n):
        raise ValueError(f"X0 entries must be integers in 0..{n - 1}")
    X = np.ascontiguousarray(X, dtype=np.uint8)
    cdef size_t k = G.shape[0]
    cdef int c_threads = default_threads() if threads is None else max(1, int(threads))
    cdef unsigned c_n = int(n)
    lengths = np.zeros(m, dtype=np.int64)
    if m == 0:
        return lengths, (np.zeros((0, r), dtype=np.uint8) if taps else None)
    cdef int64_t[::1] lv = lengths
    cdef int rc
    cdef size_t nw
    cdef const uint64_t[:, ::1] Xp
    cdef const uint64_t[:, ::1] Gp
    cdef uint64_t[:, ::1] Bp
    cdef uint64_t *bptr = NULL
    cdef const uint8_t[:, ::1] Xv
    cdef const uint8_t[:, ::1] Gv
    cdef const uint32_t[::1] ov
    cdef uint8_t[:, ::1] Bv
    cdef uint8_t *bvptr = NULL
    if packed is None:
        packed = k > 0
    if gf2 and packed:
        nw = max(1, (r + 63) // 64)
        Xpk = _pack(X, nw) if r else np.zeros((m, 1), dtype=np.uint64)
        Gpk = np.zeros((max(1, k), nw), dtype=np.uint64)
        if k and r:
            Gpk[:k] = _pack(G, nw)
        Bpk = np.zeros((m, nw), dtype=np.uint64)
        Xp = Xpk
        Gp = Gpk
        Bp = Bpk
        if taps:
            bptr = &Bp[0, 0]
        with nogil:
            rc = ml_coset_min_gf2_many(&Xp[0, 0], m, nw, r, &Gp[0, 0], k, c_threads,
                                       &lv[0], bptr, nw)
        _check_interrupt()
        if rc < 0:
            _raise_memory_error("the batch coset search could not allocate its work space")
        return lengths, (_unpack(Bpk, r) if taps else None)
    best = np.zeros((m, r), dtype=np.uint8)
    if r == 0:
        return lengths, (best if taps else None)
    Xv = X
    Gz = G if k else np.zeros((1, r), dtype=np.uint8)
    oz = ords if k else np.zeros(1, dtype=np.uint32)
    Gv = Gz
    ov = oz
    Bv = best
    if taps:
        bvptr = &Bv[0, 0]
    with nogil:
        rc = ml_coset_min_zn_many(&Xv[0, 0], m, r, &Gv[0, 0], &ov[0], k, r, c_n,
                                  c_threads, &lv[0], bvptr, r)
    _check_interrupt()
    if rc < 0:
        _raise_memory_error("the batch coset search could not allocate its work space")
    return lengths, (best if taps else None)


def coset_min_sub(x0, H, orders, n, inner, corner, bound):
    """Walk one sub-cube of x0 + span(H): generators [0, inner) run over all their
    coefficients, generators [inner, k) are fixed by ``corner`` (mixed radix, generator
    ``inner`` the lowest digit). Only elements shorter than ``bound`` count.

    Returns (best uint8 (r,) or None, length (== bound when nothing shorter was found),
    examined, pruned).
    """
    x = np.asarray(x0)
    if x.ndim != 1:
        raise ValueError(f"x0 must be 1-D, got shape {x.shape}")
    cdef size_t r = x.shape[0]
    G, ords, gf2 = _prepare(H, orders, n, r)
    x, _ = _check(x, G, int(n))
    cdef size_t k = G.shape[0]
    if not 0 <= inner <= k:
        raise ValueError(f"inner must be in 0..{k}, got {inner}")
    cells = 1
    for o in ords.tolist()[inner:]:
        cells *= int(o)
    if not 0 <= corner < cells:
        raise ValueError(f"corner must be in 0..{cells - 1}, got {corner}")
    cdef size_t L = inner
    cdef uint64_t c_corner = corner
    cdef int64_t c_bound = min(int(bound), 1 << 62)
    cdef unsigned c_n = int(n)
    cdef ml_coset_stats st
    cdef int64_t length
    cdef size_t nw
    cdef const uint64_t[::1] xp
    cdef const uint64_t[:, ::1] Gp
    cdef uint64_t[::1] bp
    cdef const uint8_t[::1] xv
    cdef const uint8_t[:, ::1] Gv
    cdef const uint32_t[::1] ov
    cdef uint8_t[::1] bv
    if gf2:
        xpk, Gpk, bpk, nw = _pack_coset(x, G, k, r)
        xp = xpk[0]
        Gp = Gpk
        bp = bpk
        with nogil:
            length = ml_coset_sub_gf2(&xp[0], &Gp[0, 0], k, nw, L, c_corner, c_bound,
                                      &bp[0], &st)
        best = _unpack(bpk[None, :], r)[0]
    else:
        best = np.zeros(max(1, r), dtype=np.uint8)
        xz = x if r else np.zeros(1, dtype=np.uint8)
        Gz = G if k and r else np.zeros((max(1, k), max(1, r)), dtype=np.uint8)
        oz = ords if k else np.zeros(1, dtype=np.uint32)
        xv = xz
        Gv = Gz
        ov = oz
        bv = best
        with nogil:
            length = ml_coset_sub_zn(&xv[0], &Gv[0, 0], &ov[0], k, r, c_n, L, c_corner,
                                     c_bound, &bv[0], &st)
        best = best[:r]
    _check_interrupt()
    if length < 0:
        _raise_memory_error("the sub-cube search could not allocate its work space")
    found = length < c_bound
    return (best if found else None), int(length), int(st.examined), int(st.pruned)
