"""Bindings to csrc/search/canon.c: the canonical generators of a submodule of (Z/n)^L
and canonical coset representatives (GIL released). modlights.search.canon is the
interface the rest of the package uses."""

#: Work units (k^2 ceil(L/64) for n = 2, k^2 L times the exponents' sum otherwise) canon_fits allows.
CANON_MAX_WORK = ML_CANON_MAX_WORK


def _canon_n(n):
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) \
            or not 2 <= n <= 255:
        raise ValueError(f"n must be an int from 2 to 255, got {n!r}")
    return int(n)


def _canon_matrix(name, a, n):
    a = np.asarray(a)
    if a.dtype.kind not in "iub":
        raise ValueError(f"{name} must hold integers, got dtype {a.dtype}")
    if a.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got {a.ndim}-D")
    if a.size and (int(a.min()) < 0 or int(a.max()) >= n):
        raise ValueError(f"{name} entries must be in 0..{n - 1}")
    return np.ascontiguousarray(a, dtype=np.uint8)


def canon_fits(k, L, n):
    """Whether k generators of length L over Z/n are within CANON_MAX_WORK."""
    k = _check_int("k", k, 0, (1 << 62))
    L = _check_int("L", L, 0, (1 << 62))
    return bool(ml_canon_fits(k, L, _canon_n(n)))


def canon_basis(G, n):
    """(H uint8 (r, L), orders list of r ints): the canonical generators of the module the
    rows of G (k, L) span over Z/n (csrc/search/canon.h); r <= k. Stops on Ctrl-C
    (KeyboardInterrupt)."""
    n = _canon_n(n)
    A = _canon_matrix("G", G, n)
    cdef size_t k = A.shape[0], L = A.shape[1]
    if k == 0 or L == 0:
        return np.zeros((0, L), dtype=np.uint8), []
    out = np.zeros((k, L), dtype=np.uint8)
    orders = np.zeros(k, dtype=np.uint32)
    cdef const uint8_t[:, ::1] Av = A
    cdef uint8_t[:, ::1] Ov = out
    cdef uint32_t[::1] ov = orders
    cdef unsigned c_n = n
    cdef size_t r
    with nogil:
        r = ml_canon_basis(&Av[0, 0], k, L, c_n, &Ov[0, 0], &ov[0])
    if r == ML_CANON_INTERRUPTED:
        _check_interrupt()
        raise KeyboardInterrupt("native work was interrupted")
    if r == ML_CANON_ENOMEM:
        _raise_memory_error("canonical kernel generators could not allocate their work space")
    return out[:r].copy(), [int(o) for o in orders[:r]]


def canon_reduce(X, H, n):
    """X (L,) or (m, L) with each row replaced by the canonical representative of its
    coset X_i + span(H), H canonical generators from canon_basis for this n (a copy)."""
    n = _canon_n(n)
    Hc = _canon_matrix("H", H, n)
    Xa = np.asarray(X)
    one = Xa.ndim == 1
    Xc = _canon_matrix("X", Xa[None, :] if one else Xa, n).copy()
    if Xc.shape[1] != Hc.shape[1]:
        raise ValueError(f"X rows must have {Hc.shape[1]} entries like H, got {Xc.shape[1]}")
    cdef size_t r = Hc.shape[0], L = Hc.shape[1], m = Xc.shape[0]
    if r and L and m:
        _canon_reduce_into(Hc, Xc, n)
    return Xc[0] if one else Xc


cdef int _canon_reduce_into(const uint8_t[:, ::1] Hv, uint8_t[:, ::1] Xv, unsigned n) except -1:
    cdef size_t r = Hv.shape[0], L = Hv.shape[1], m = Xv.shape[0]
    cdef int rc
    with nogil:
        rc = ml_canon_reduce(&Hv[0, 0], r, L, n, &Xv[0, 0], m)
    if rc != 0:
        _raise_memory_error("canonical reduction could not allocate its work space")
    return 0
