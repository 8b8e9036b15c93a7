"""Bindings to csrc/search/cube.c: the least weight over a GF(2) coset by
Walsh-Hadamard leaves (GIL released). The problem (low columns, x0, supports of the
high generators, symmetries) is built by modlights.search.cube; here it is checked."""

#: Most taps and low generators the transform takes (int16 lanes).
CUBE_MAX_TAPS = ML_CUBE_MAX_TAPS
CUBE_MAX_LOW = ML_CUBE_MAX_LOW


def _cube_arr(name, a, dtype, ndim):
    a = np.asarray(a)
    if a.dtype.kind not in "iub":
        raise ValueError(f"{name} must hold integers, got dtype {a.dtype}")
    if a.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got {a.ndim}-D")
    if a.size and int(a.min()) < 0:
        raise ValueError(f"{name} entries must be >= 0")
    return np.ascontiguousarray(a, dtype=dtype)


cdef int _cube_problem(ml_cube_gf2 *P, list keep, col, y0, sup_start, sup_idx, m, sym_mat,
                       sym_shift) except -1:
    """Check the arrays and fill P (the arrays it points into are appended to keep)."""
    m = _check_int("m", m, 0, ML_CUBE_MAX_LOW)
    c = _cube_arr("col", col, np.uint32, 1)
    y = _cube_arr("y0", y0, np.uint8, 1)
    N = c.shape[0]
    if N > ML_CUBE_MAX_TAPS:
        raise ValueError(f"at most {ML_CUBE_MAX_TAPS} taps, got {N}")
    if y.shape[0] != N:
        raise ValueError(f"y0 must have {N} entries like col, got {y.shape[0]}")
    if N and int(y.max()) > 1:
        raise ValueError("y0 entries must be 0 or 1")
    if N and int(c.max()) >= 1 << m:
        raise ValueError(f"col entries must be < 2^m = {1 << m}")
    ss = _cube_arr("sup_start", sup_start, np.uint32, 1)
    si = _cube_arr("sup_idx", sup_idx, np.uint32, 1)
    kh = ss.shape[0] - 1
    if not 0 <= kh <= 63:
        raise ValueError(f"sup_start must have 1 to 64 entries (kh + 1), got {ss.shape[0]}")
    if int(ss[0]) != 0 or np.any(np.diff(ss.astype(np.int64)) < 0) \
            or int(ss[kh]) != si.shape[0]:
        raise ValueError("sup_start must rise from 0 to len(sup_idx)")
    if si.size and int(si.max()) >= N:
        raise ValueError(f"sup_idx entries must be taps 0..{N - 1}")
    sm = np.ascontiguousarray(sym_mat, dtype=np.uint64).reshape(-1, kh) if kh else \
        np.zeros((np.asarray(sym_shift).size, 0), dtype=np.uint64)
    sh = np.ascontiguousarray(sym_shift, dtype=np.uint64).reshape(-1)
    if sm.shape[0] != sh.shape[0]:
        raise ValueError("sym_mat must have one row of kh words per entry of sym_shift")
    if sh.shape[0] > 4096:
        raise ValueError("at most 4096 symmetries")
    lim = np.uint64((1 << kh) - 1)
    if (sm.size and np.any(sm & ~lim)) or (sh.size and np.any(sh & ~lim)):
        raise ValueError(f"symmetry words must have kh = {kh} bits")
    # dummies so that every pointer is valid
    c1 = c if N else np.zeros(1, np.uint32)
    y1 = y if N else np.zeros(1, np.uint8)
    si1 = si if si.size else np.zeros(1, np.uint32)
    sm1 = sm.reshape(-1) if sm.size else np.zeros(1, np.uint64)
    sh1 = sh if sh.size else np.zeros(1, np.uint64)
    keep.extend([c1, y1, ss, si1, sm1, sh1])
    cdef const uint32_t[::1] cv = c1
    cdef const uint8_t[::1] yv = y1
    cdef const uint32_t[::1] ssv = ss
    cdef const uint32_t[::1] siv = si1
    cdef const uint64_t[::1] smv = sm1
    cdef const uint64_t[::1] shv = sh1
    P.n_taps = N
    P.m = m
    P.kh = kh
    P.col = &cv[0]
    P.y0 = &yv[0]
    P.sup_start = &ssv[0]
    P.sup_idx = &siv[0]
    P.ng = sh.shape[0]
    P.sym_mat = &smv[0]
    P.sym_shift = &shv[0]
    return 0


def cube_min_gf2(col, y0, sup_start, sup_idx, m, sym_mat, sym_shift, top, corners,
                 bound, seconds=0.0, threads=None):
    """Least weight over the leaves below ``corners`` (csrc/search/cube.h).

    col uint32 (N,): low column of each tap (< 2^m); y0 0/1 (N,); sup_start (kh+1,)
    and sup_idx: the taps of each high generator; sym_mat uint64 (ng, kh) and
    sym_shift (ng,): the affine maps of the high coefficients; top: high coefficients
    fixed per corner; corners uint64: masks with bits only in kh-top..kh-1; bound: only
    weights below it count; seconds (<= 0: no limit); threads (None: the CPUs).
    Returns (length, high, low, leaves, skipped, corners_done, complete): length <
    bound with the coefficients (high mask, low mask) of an element of that length,
    or length == bound and high = low = None. Ctrl-C: KeyboardInterrupt.
    """
    cdef ml_cube_gf2 P
    keep = []
    _cube_problem(&P, keep, col, y0, sup_start, sup_idx, m, sym_mat, sym_shift)
    top = _check_int("top", top, 0, P.kh)
    cs = _cube_arr("corners", corners, np.uint64, 1)
    below = (1 << (P.kh - top)) - 1
    if cs.size and (np.any(cs & np.uint64(below)) or np.any(cs >> np.uint64(P.kh))):
        raise ValueError(f"corners must have bits only in {P.kh - top}..{P.kh - 1}")
    bound = _check_int("bound", bound, 0, 1 << 62)
    if isinstance(seconds, (bool, np.bool_)) or not isinstance(
            seconds, (int, float, np.integer, np.floating)) or seconds != seconds:
        raise ValueError(f"seconds must be a number (<= 0: no limit), got {seconds!r}")
    if threads is not None:
        threads = _check_int("threads", threads, 1, 1024)
    cdef int c_threads = default_threads() if threads is None else threads
    cdef double c_seconds = min(float(seconds), 1e18)
    cdef unsigned c_top = top
    cdef int64_t c_bound = bound
    cs1 = cs if cs.size else np.zeros(1, np.uint64)
    cdef const uint64_t[::1] cv = cs1
    cdef size_t nc = cs.shape[0]
    cdef uint64_t hi = 0
    cdef uint32_t lo = 0
    cdef ml_cube_stats st
    cdef int64_t length
    with nogil:
        length = ml_cube_min_gf2(&P, c_top, &cv[0], nc, c_bound, c_seconds, c_threads,
                                 &hi, &lo, &st)
    _check_interrupt()
    if length == -1:
        _raise_memory_error("cube search could not allocate its work space")
    if length < 0:
        raise ValueError("cube search: arguments out of range")
    found = length < bound
    return (int(length), int(hi) if found else None, int(lo) if found else None,
            int(st.leaves), int(st.skipped), int(st.corners), bool(st.complete))


def cube_leaf_gf2(col, y0, sup_start, sup_idx, m, high):
    """(least weight, low coefficients) of the leaf ``high`` by the transform."""
    cdef ml_cube_gf2 P
    keep = []
    _cube_problem(&P, keep, col, y0, sup_start, sup_idx, m, np.zeros(0, np.uint64),
                  np.zeros(0, np.uint64))
    high = _check_int("high", high, 0, (1 << P.kh) - 1)
    cdef uint64_t h = high
    cdef uint32_t arg = 0
    cdef int64_t w
    with nogil:
        w = ml_cube_leaf_gf2(&P, h, &arg)
    if w == -1:
        _raise_memory_error("cube leaf could not allocate its work space")
    if w < 0:
        raise ValueError("cube leaf: arguments out of range")
    return int(w), int(arg)
