"""Bindings to csrc/search/driver.c: the minimal-search drivers (GIL released).
modlights.search.minimal is the interface the rest of the package uses."""


def driver_descend(x, H, orders, n, seconds=None):
    """The greedy descent of x over the generators H (k, L) of the given orders, in Z/n
    (csrc/search/driver.h): a new uint8 vector. seconds: time allowed (None: no limit);
    when it runs out, the best vector so far. KeyboardInterrupt on Ctrl-C."""
    n = _canon_n(n)
    Hc = _canon_matrix("H", H, n)
    cdef size_t k = Hc.shape[0], L = Hc.shape[1]
    xv = np.asarray(x)
    if xv.ndim != 1 or xv.shape[0] != L:
        raise ValueError(f"x must have {L} entries, got shape {xv.shape}")
    X = _canon_matrix("x", xv[None, :], n)[0].copy()
    oa = np.asarray(orders)
    if oa.size and (oa.dtype.kind not in "iu" or int(oa.min()) < 1 or int(oa.max()) > n):
        raise ValueError(f"orders must be ints from 1 to n = {n}")
    O = np.ascontiguousarray(oa, dtype=np.uint32)
    if O.shape != (k,):
        raise ValueError(f"orders must have {k} entries, got {O.shape}")
    cdef const uint8_t[:, ::1] Hv = Hc if Hc.size else np.zeros((1, 1), np.uint8)
    cdef uint8_t[::1] Xv = X if X.size else np.zeros(1, np.uint8)
    cdef const uint32_t[::1] Ov = O if O.size else np.zeros(1, np.uint32)
    cdef int64_t deadline = 0
    if seconds is not None:
        deadline = ml_driver_now_ns() + max(1, <int64_t>(float(seconds) * 1e9))
    cdef unsigned c_n = n
    with nogil:
        rc = ml_driver_descend(&Hv[0, 0], k, L, &Ov[0], c_n, &Xv[0], deadline)
    if rc == ML_DRIVER_INTERRUPTED:
        _check_interrupt()
    return X
