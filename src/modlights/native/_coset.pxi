"""Bindings to csrc/search/coset.c: minimal-length search over x0 + ker A (GIL released)."""
import os

import numpy as np
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t


#: Largest packed / unpacked array the private helpers make (bytes).
MAX_BYTES = 1 << 33


def default_threads():
    """Worker threads for the coset search: the CPUs this process may use (<= 8)."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(8, n))


def _check(x0, H, n):
    for name, v in (("x0", x0), ("generators", H)):
        a = np.asarray(v)
        if a.dtype.kind not in "iub":
            raise ValueError(f"{name} must hold integers, got dtype {a.dtype}")
        if a.size and (int(a.min()) < 0 or int(a.max()) >= n):
            raise ValueError(f"{name} entries must be in 0..{n - 1}")
    x = np.ascontiguousarray(x0, dtype=np.uint8)
    G = np.ascontiguousarray(H, dtype=np.uint8)
    if x.ndim != 1:
        raise ValueError("x0 must be 1-D")
    if G.ndim != 2 or G.shape[1] != x.shape[0]:
        raise ValueError(f"generators must be (k, {x.shape[0]}), got {G.shape}")
    if not 2 <= n <= 255:
        raise ValueError(f"n must be from 2 to 255, got {n}")
    if x.size and int(x.max()) >= n or G.size and int(G.max()) >= n:
        raise ValueError(f"entries must be in 0..{n - 1}")
    return x, G


def _check_int(what, v, lo, hi):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) \
            or not lo <= v <= hi:
        raise ValueError(f"{what} must be an int from {lo} to {hi}, got {v!r}")
    return int(v)


def coset_min(x0, H, orders, n, budget=0, seconds=0.0, threads=None):
    """Least-length element of {x0 + sum c_i H_i : 0 <= c_i < orders[i]}.

    budget: elements to examine (0: no limit); seconds: time limit (<= 0: none).
    Returns (best uint8 (r,), length, examined, pruned, complete).
    Stops within a second on Ctrl-C (KeyboardInterrupt).
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 2 <= n <= 255:
        raise ValueError(f"n must be an int from 2 to 255, got {n!r}")
    budget = 0 if budget is None else _check_int("budget", budget, 0, (1 << 64) - 1)
    if isinstance(seconds, (bool, np.bool_)) or not isinstance(seconds, (int, float, np.integer, np.floating)) \
            or seconds != seconds:
        raise ValueError(f"seconds must be a number (<= 0: no limit), got {seconds!r}")
    cdef double c_seconds = min(float(seconds), 1e18)
    if threads is not None:
        threads = _check_int("threads", threads, 1, 1024)
    cdef unsigned c_n = int(n)
    n = int(n)
    x, G = _check(x0, H, n)
    cdef size_t k = G.shape[0], r = x.shape[0]
    o_in = np.asarray(orders)
    if o_in.size and (o_in.dtype.kind not in "iu" or int(o_in.min()) < 2 or int(o_in.max()) > n):
        raise ValueError(f"generator orders must be ints in 2..{n}")
    ords = np.ascontiguousarray(o_in, dtype=np.uint32)
    if ords.shape != (k,):
        raise ValueError(f"orders must have {k} entries")
    if k and int(ords.min()) < 2:
        raise ValueError("generator orders must be >= 2")
    total = 1
    for o in ords.tolist():
        total *= int(o)
    if total >= 1 << 62:
        raise ValueError("the coset has 2^62 or more elements: too many to enumerate")
    cdef uint64_t c_budget = budget
    cdef int c_threads = default_threads() if threads is None else threads
    cdef ml_coset_stats st
    cdef int64_t length
    cdef size_t nw
    cdef const uint64_t[::1] xp
    cdef const uint64_t[:, ::1] Gp
    cdef uint64_t[::1] bp
    cdef const uint8_t[::1] xv
    cdef const uint8_t[:, ::1] Gv
    cdef uint8_t[::1] bv
    cdef const uint32_t[::1] ov
    if n == 2 and all(o == 2 for o in ords.tolist()):
        xpk, Gpk, bpk, nw = _pack_coset(x, G, k, r)
        xp = xpk[0]
        Gp = Gpk
        bp = bpk
        with nogil:
            length = ml_coset_min_gf2(&xp[0], &Gp[0, 0], k, nw, c_budget, c_seconds,
                                      c_threads, &bp[0], &st)
        _check_interrupt()
        if length < 0:
            _raise_memory_error("coset search could not allocate its work space")
        best = _unpack(bpk[None, :], r)[0]
    else:
        if r == 0:
            return x.copy(), 0, 1, 0, True
        best = np.zeros(r, dtype=np.uint8)
        Gz = G if k else np.zeros((1, r), dtype=np.uint8)
        oz = ords if k else np.zeros(1, dtype=np.uint32)
        xv = x
        Gv = Gz
        ov = oz
        bv = best
        with nogil:
            length = ml_coset_min_zn(&xv[0], &Gv[0, 0], &ov[0], k, r, c_n, c_budget,
                                     c_seconds, c_threads, &bv[0], &st)
        _check_interrupt()
        if length < 0:
            _raise_memory_error("coset search could not allocate its work space")
    return best, int(length), int(st.examined), int(st.pruned), bool(st.complete)


def _pack_coset(x, G, k, r):
    """The GF(2) walks' words: (x as 1 x nw, the k generators as max(1, k) x nw, a zeroed
    best (nw,), nw) for a coset of r taps."""
    nw = max(1, (r + 63) // 64)
    xpk = np.zeros((1, nw), dtype=np.uint64)
    Gpk = np.zeros((max(1, k), nw), dtype=np.uint64)
    if r:
        xpk[:, :] = _pack(x[None, :], nw)
        if k:
            Gpk[:k] = _pack(G, nw)
    return xpk, Gpk, np.zeros(nw, dtype=np.uint64), nw


def _pack(M, nw):
    """Rows of M (2-D, entries 0/1) packed into nw >= ceil(cols / 64) uint64 words each."""
    a = np.asarray(M)
    if a.ndim != 2:
        raise ValueError(f"_pack needs a 2-D array, got {a.ndim}-D")
    if a.dtype.kind not in "biu":
        raise ValueError(f"_pack needs integers, got dtype {a.dtype}")
    need = (a.shape[1] + 63) // 64
    nw = _check_int("nw", nw, need, max(need, 1) + (1 << 20))
    if a.shape[0] * nw * 8 > MAX_BYTES:
        raise ValueError(f"_pack would make {a.shape[0]}x{nw} words, more than "
                         f"{MAX_BYTES} bytes")
    cdef const uint8_t[:, ::1] src = np.ascontiguousarray(a & 1, dtype=np.uint8)
    out = np.zeros((src.shape[0], nw), dtype=np.uint64)
    cdef uint64_t[:, ::1] dst = out
    cdef size_t c_nw = nw
    if src.shape[0] and src.shape[1]:
        with nogil:
            ml_pack_bits(&src[0, 0], src.shape[0], src.shape[1], src.shape[1], &dst[0, 0],
                         c_nw)
    return out


def _unpack(P, cols):
    """The first cols bits of each row of P (2-D uint64) as 0/1 bytes."""
    a = np.asarray(P)
    if a.ndim != 2:
        raise ValueError(f"_unpack needs a 2-D array of words, got {a.ndim}-D")
    if a.dtype != np.uint64:
        raise ValueError(f"_unpack needs uint64 words, got dtype {a.dtype}")
    cols = _check_int("cols", cols, 0, 64 * a.shape[1])
    if a.shape[0] * cols > MAX_BYTES:
        raise ValueError(f"_unpack would make {a.shape[0]}x{cols} bytes, more than {MAX_BYTES}")
    cdef const uint64_t[:, ::1] src = np.ascontiguousarray(a)
    out = np.zeros((src.shape[0], cols), dtype=np.uint8)
    cdef uint8_t[:, ::1] dst = out
    cdef size_t c_cols = cols
    if src.shape[0] and c_cols:
        with nogil:
            ml_unpack_bits(&src[0, 0], src.shape[0], c_cols, src.shape[1], &dst[0, 0], c_cols)
    return out
