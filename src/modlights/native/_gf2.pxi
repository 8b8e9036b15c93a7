"""The native GF(2) engine: bindings to csrc/dense/gf2.{h,c}.

``Gf2Engine`` factors a tap matrix A (m x r) over GF(2) once, T A = E with E in
reduced echelon form (bit-packed, Method of Four Russians), and answers the engine
interface of :class:`modlights.engines.reference.ReferenceEngine` from that factorisation.
Many right-hand sides are solved as one packed matrix product (bit-sliced, M4RM);
a uint8 batch is read 64 boards at a time (csrc/dense/gf2_batch.h).

Every bound is checked here before C runs: bad input is a ValueError, never a crash.
The GIL is released during the C work.
"""
import numpy as np
from libc.stdint cimport uint8_t, uint64_t, int32_t, int64_t
from libc.string cimport memset

cdef extern from "time.h" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk, timespec *tp)
    int CLOCK_MONOTONIC


#: Largest side accepted (rows or columns); keeps every size computation far from overflow.
MAX_DIM = 1 << 28
#: Largest factorisation, in bits: [A | I] is m x (r + m) bits (2 GiB at this limit).
MAX_FACTOR_BITS = 1 << 34


# ---------------------------------------------------------------------------- packing
cdef void _oom_check(const void *p) except *:
    if p == NULL:
        _raise_memory_error("out of memory in the GF(2) engine")


def _as_bits_2d(a, what):
    """A C-contiguous 2-D uint8 or int64 array whose low bits are the entries mod 2."""
    arr = np.asarray(a)
    if arr.ndim != 2:
        raise ValueError(f"{what} must be 2-D, got {arr.ndim}-D")
    if arr.shape[0] > MAX_DIM or arr.shape[1] > MAX_DIM:
        raise ValueError(f"{what} is too large: shape {arr.shape}")
    k = arr.dtype.kind
    if k == "b":
        return np.ascontiguousarray(arr, dtype=np.uint8)
    if arr.dtype == np.uint8 or arr.dtype == np.int64:
        return np.ascontiguousarray(arr)
    if k in "iu":
        return np.ascontiguousarray(arr & 1, dtype=np.uint8)   # low bit == value mod 2
    if k == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError(f"{what} must hold integers, got non-integral floats")
        return np.ascontiguousarray(np.mod(arr, 2), dtype=np.uint8)
    if k == "O":
        try:
            return np.array([[int(x) & 1 for x in row] for row in arr.tolist()],
                            dtype=np.uint8).reshape(arr.shape)
        except (TypeError, ValueError):
            pass
    raise ValueError(f"{what} must be an array of integers, got dtype {arr.dtype}")


cdef ml_gf2_t *_gf2_pack(arr) except NULL:
    """Pack a 2-D uint8 / int64 C-contiguous array (from _as_bits_2d)."""
    cdef size_t rows = arr.shape[0], cols = arr.shape[1]
    cdef ml_gf2_t *M
    cdef const uint8_t[:, ::1] u8
    cdef const int64_t[:, ::1] i64
    with nogil:
        M = ml_gf2_new(rows, cols)
    _oom_check(M)
    if rows == 0 or cols == 0:
        return M
    if arr.dtype == np.uint8:
        u8 = arr
        with nogil:
            ml_gf2_pack_u8(M, &u8[0, 0], cols)
    else:
        i64 = arr
        with nogil:
            ml_gf2_pack_i64(M, &i64[0, 0], cols)
    return M


cdef object _gf2_unpack(const ml_gf2_t *M, size_t c0, size_t cols):
    """Columns [c0, c0 + cols) of M as a uint8 array (caller ensures they exist)."""
    out = np.zeros((M.nrows, cols), dtype=np.uint8)
    cdef uint8_t[:, ::1] d
    if M.nrows and cols:
        d = out
        with nogil:
            ml_gf2_unpack_u8(M, c0, cols, &d[0, 0], cols)
    return out


cdef object _gf2_unpack_free(ml_gf2_t *M, size_t cols):
    """Unpack columns [0, cols) of M, then free it (also on error)."""
    try:
        return _gf2_unpack(M, 0, cols)
    finally:
        ml_gf2_free(M)


# ---------------------------------------------------------------------------- engine
def _check_shape(m, r):
    """(m, r) as ints in 0..MAX_DIM; ValueError otherwise."""
    for what, v in (("m", m), ("r", r)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"{what} must be a non-negative int, got {v!r}")
        if not 0 <= v <= MAX_DIM:
            raise ValueError(f"{what} must be from 0 to {MAX_DIM}, got {v}")
    return int(m), int(r)


cdef ml_gf2_t *_pack_coo(size_t m, size_t r, ci, tj) except NULL:
    """The packed m x r matrix with a 1 added at (ci[t], tj[t]) for every t (checked)."""
    ci_a = np.asarray(ci)
    tj_a = np.asarray(tj)
    if ci_a.ndim != 1 or tj_a.ndim != 1 or ci_a.shape != tj_a.shape:
        raise ValueError(f"ci and tj must be 1-D of one length, got shapes "
                         f"{ci_a.shape} and {tj_a.shape}")
    if ci_a.size and (ci_a.dtype.kind not in "iu" or tj_a.dtype.kind not in "iu"):
        raise ValueError("ci and tj must hold integers")
    if ci_a.size and ci_a.dtype == np.uint64 and (int(ci_a.max()) >= m or int(tj_a.max()) >= r):
        raise ValueError(f"row indices must be in 0..{m - 1}, column indices in 0..{r - 1}")
    cdef const int64_t[::1] cv = np.ascontiguousarray(ci_a, dtype=np.int64)
    cdef const int64_t[::1] tv = np.ascontiguousarray(tj_a, dtype=np.int64)
    cdef size_t nnz = cv.shape[0], bad = 0
    cdef const int64_t *cp = NULL
    cdef const int64_t *tp = NULL
    if nnz:
        cp = &cv[0]
        tp = &tv[0]
    cdef ml_gf2_t *P
    with nogil:       # bounds checked in C, in the packing pass
        P = ml_gf2_from_coo(m, r, cp, tp, nnz, &bad)
    if P == NULL and bad < nnz:
        if not 0 <= cv[bad] < <int64_t>m:
            raise ValueError(f"row indices must be in 0..{m - 1}, got {cv[bad]} at {bad}")
        raise ValueError(f"column indices must be in 0..{r - 1}, got {tv[bad]} at {bad}")
    _oom_check(P)
    return P


def rank_coo(m, r, ci, tj):
    """Rank mod 2 of the m x r matrix with a 1 added at (ci[t], tj[t]) for every t:
    packed straight from coordinates (m x r bits), one elimination, no transform."""
    m, r = _check_shape(m, r)
    if m * r > MAX_FACTOR_BITS:
        raise ValueError(f"a {m}x{r} tap matrix is too large for the dense GF(2) rank: "
                         f"{m * r / 8 / 2**30:.1f} GiB packed (at most "
                         f"{MAX_FACTOR_BITS / 8 / 2**30:.0f} GiB)")
    cdef ml_gf2_t *M = _pack_coo(m, r, ci, tj)
    cdef size_t rk
    with nogil:
        rk = ml_gf2_echelonize(M, 0, M.ncols, NULL)
        ml_gf2_free(M)
    _check_interrupt()
    if rk == <size_t>-1:
        _raise_memory_error("out of memory in the GF(2) engine")
    return int(rk)


def _check_factor_size(m, r):
    """ValueError before any allocation when [A | I] would be unreasonably large."""
    if m * (r + m) > MAX_FACTOR_BITS:
        raise ValueError(f"a {m}x{r} tap matrix is too large for the dense GF(2) "
                         f"engine: [A | I] would take {m * (r + m) / 8 / 2**30:.1f} GiB "
                         f"(at most {MAX_FACTOR_BITS / 8 / 2**30:.0f} GiB)")


cdef object _solutions(ml_gf2_t *Y, size_t r):
    """(X uint8 k x r, ok bool k) from a solve's Y (solutions in columns [0, r),
    consistency bits right of them), rows of unsolvable right-hand sides zeroed;
    frees Y."""
    cdef size_t k = Y.nrows, i
    X = np.zeros((k, r), dtype=np.uint8)
    ok = np.empty(k, dtype=np.uint8)
    cdef uint8_t[:, ::1] xv = X
    cdef uint8_t[::1] okv = ok
    with nogil:
        if k:
            ml_gf2_solve_ok(Y, r, &okv[0])
            if r:
                ml_gf2_unpack_u8(Y, 0, r, &xv[0, 0], r)
                for i in range(k):
                    if not okv[i]:
                        memset(&xv[i, 0], 0, r)
        ml_gf2_free(Y)
    return X, ok.view(np.bool_)


cdef object _solve_cols(const ml_gf2_t *St, arr, size_t r):
    """(X uint8 k x r, ok bool k) for the rows of the uint8 array arr (k x m, read for
    their low bits) with the transposed solve matrix St = S^T: the boards packed 64 to
    a word (B^T, m x k), Y^T = S^T B^T, unpacked back to bytes (gf2_batch.h)."""
    cdef const uint8_t[:, ::1] src = arr
    cdef size_t k = arr.shape[0], m = arr.shape[1]
    X = np.empty((k, r), dtype=np.uint8)
    ok = np.empty(k, dtype=np.uint8)
    if k == 0:
        return X, ok.view(np.bool_)
    cdef uint8_t[:, ::1] xv = X
    cdef uint8_t[::1] okv = ok
    cdef uint8_t *xp = &xv[0, 0] if r else NULL
    cdef const uint8_t *sp = &src[0, 0] if m else NULL
    cdef ml_gf2_t *Bt
    cdef ml_gf2_t *Yt = NULL
    with nogil:
        Bt = ml_gf2_pack_u8_cols(sp, k, m, m)
        if Bt != NULL:
            Yt = ml_gf2_mul(St, Bt)
            ml_gf2_free(Bt)
    if _interrupted():
        ml_gf2_free(Yt)
        _check_interrupt()
    _oom_check(Yt)
    with nogil:
        ml_gf2_unpack_solutions_cols(Yt, r, xp, &okv[0])
        ml_gf2_free(Yt)
    return X, ok.view(np.bool_)


cdef class Gf2Engine:
    """Linear algebra of one tap matrix A (m x r) over GF(2), factored once in C.

    The engine interface: ``kernel_size``, ``generators()``, ``solve(R)``, ``det()``,
    ``inverse()``, ``pseudo_inverse()``; plus ``rank`` and ``nullity``.

    The factorisation ([A | I] reduced) is made on first need. Until then the packed
    A is kept, and the first ``DIRECT_SOLVES`` calls of ``solve`` with fewer than 64
    right-hand sides eliminate [A | B^T] directly instead (forward only, no transform
    carried: a fraction of the work of factoring), which also gives the rank.
    """
    cdef ml_gf2_fact_t *F
    cdef ml_gf2_t *A          # the packed A
    cdef ml_gf2_t *S          # the solve matrix [G^T | L^T], built on first solve
    cdef ml_gf2_t *St         # S^T, for batches of uint8 right-hand sides
    cdef Py_ssize_t _rank     # rank(A) once known (-1 before)
    cdef int _direct          # direct solves done
    cdef object _gens
    cdef readonly int n
    cdef readonly Py_ssize_t m, r

    name = "gf2-native"
    #: Solves of a few right-hand sides answered by direct elimination before the
    #: engine factors A (each costs a fraction of the factorisation).
    DIRECT_SOLVES = 2

    def __cinit__(self):
        self.F = NULL
        self.A = NULL
        self.S = NULL
        self.St = NULL
        self.n = 2
        self._rank = -1

    def __dealloc__(self):
        ml_gf2_fact_free(self.F)
        ml_gf2_free(self.A)
        ml_gf2_free(self.S)
        ml_gf2_free(self.St)

    def __init__(self, A):
        arr = _as_bits_2d(A, "the tap matrix")
        _check_factor_size(arr.shape[0], arr.shape[1])
        cdef ml_gf2_t *P = _gf2_pack(arr)
        self._set(P)

    cdef void _set(self, ml_gf2_t *P) noexcept:
        """Take the packed A (ownership of P); replaces any earlier matrix
        (``__init__`` called again) with everything derived from it."""
        ml_gf2_fact_free(self.F)
        ml_gf2_free(self.A)
        ml_gf2_free(self.S)
        ml_gf2_free(self.St)
        self.F = NULL
        self.S = NULL
        self.St = NULL
        self.A = P
        self._gens = None
        self._rank = -1
        self._direct = 0
        self.m = P.nrows
        self.r = P.ncols

    cdef int _factored(self) except -1:
        """Make the factorisation of the kept A (once). A stays (m x r bits, a third
        of the factorisation's size): other threads may be reading it without the GIL."""
        self._need()
        if self.F != NULL:
            return 0
        cdef ml_gf2_fact_t *F
        with nogil:
            F = ml_gf2_factor(self.A)
        if _interrupted():
            ml_gf2_fact_free(F)
            _check_interrupt()
        _oom_check(F)
        if self.F == NULL:             # another thread may have made it meanwhile
            self.F = F
            self._rank = F.rank
        else:
            ml_gf2_fact_free(F)
        return 0

    @classmethod
    def from_coo(cls, m, r, ci, tj):
        """The engine of the m x r matrix with a 1 added at (ci[t], tj[t]) for every t
        (repeated pairs add up mod 2), built packed: no dense uint8 matrix."""
        m, r = _check_shape(m, r)
        _check_factor_size(m, r)
        cdef ml_gf2_t *P = _pack_coo(m, r, ci, tj)
        cdef Gf2Engine eng = cls.__new__(cls)
        eng._set(P)
        return eng

    @classmethod
    def from_csc(cls, m, r, indptr, cells):
        """The engine of the m x r matrix whose column j has a 1 added at row
        cells[t] for t in indptr[j]..indptr[j+1]-1 (repeats add up mod 2): the
        compressed-column form, packed with a quarter of the index reads of
        ``from_coo``: int32 cells are read as they are (Board.from_effects stores
        them so), other integer cells are range-checked, then narrowed."""
        cdef const int64_t[::1] iv
        cdef const int32_t[::1] cv
        cdef size_t bad = 0
        cdef const int32_t *cp = NULL
        cdef const int64_t *ipp = NULL
        cdef ml_gf2_t *P
        cdef Gf2Engine eng
        cdef size_t mc, rc
        m, r = _check_shape(m, r)
        mc, rc = m, r
        _check_factor_size(m, r)
        ip = np.ascontiguousarray(indptr, dtype=np.int64)
        cl = np.asarray(cells)
        if ip.ndim != 1 or cl.ndim != 1 or ip.shape[0] != r + 1:
            raise ValueError(f"indptr must be 1-D of length r + 1 = {r + 1} and cells "
                             f"1-D, got shapes {ip.shape} and {cl.shape}")
        if cl.size and cl.dtype.kind not in "iu":
            raise ValueError(f"cells must hold integers, got dtype {cl.dtype}")
        if cl.dtype != np.int32 and cl.size:        # narrowing must not wrap
            out = np.flatnonzero((cl < 0) | (cl >= m))
            if out.size:
                raise ValueError(f"row indices must be in 0..{m - 1}, got "
                                 f"{cl[out[0]]} at {out[0]}")
        cl = np.ascontiguousarray(cl, dtype=np.int32)
        if ip[0] != 0 or ip[r] != cl.shape[0] or (r and (np.diff(ip) < 0).any()):
            raise ValueError("indptr must rise from 0 to len(cells)")
        iv = ip
        cv = cl
        ipp = &iv[0]
        if cl.shape[0]:
            cp = &cv[0]
        with nogil:
            P = ml_gf2_from_csc(mc, rc, ipp, cp, &bad)
        if P == NULL and bad != <size_t>-1:
            raise ValueError(f"row indices must be in 0..{m - 1}, got {cv[bad]} at {bad}")
        _oom_check(P)
        eng = cls.__new__(cls)
        eng._set(P)
        return eng

    cdef inline int _need(self) except -1:
        if self.A == NULL:
            raise ValueError("this Gf2Engine was not built: use Gf2Engine(A) or "
                             "Gf2Engine.from_coo(...)")
        return 0

    # ------------------------------------------------------------ structure
    @property
    def factored(self):
        """Whether the factorisation has been made (it is made on first need)."""
        return self.F != NULL

    @property
    def rank(self):
        """rank(A) mod 2: from the factorisation or a direct solve when one was made,
        else one forward elimination of A alone (no transform)."""
        self._need()
        cdef ml_gf2_t *C
        cdef size_t rk
        if self._rank < 0:
            with nogil:
                C = ml_gf2_copy(self.A)
            _oom_check(C)
            with nogil:
                rk = ml_gf2_echelonize(C, 0, C.ncols, NULL)
                ml_gf2_free(C)
            _check_interrupt()
            if rk == <size_t>-1:
                _raise_memory_error("out of memory in the GF(2) engine")
            self._rank = rk
        return int(self._rank)

    @property
    def nullity(self):
        return int(self.r) - self.rank

    @property
    def kernel_size(self):
        """|ker A| = 2**nullity, an exact Python int."""
        return 1 << self.nullity

    def generators(self, limit=None):
        """(H uint8 (nullity x r), [2] * nullity): a basis of ker A.
        limit: at most this many rows (the first ones of the same basis): a bounded
        part of a huge kernel."""
        self._factored()
        cdef ml_gf2_t *H
        cdef size_t null = self.F.r - self.F.rank, count
        if limit is not None and limit < null:
            count = max(0, int(limit))
            with nogil:
                H = ml_gf2_kernel_rows(self.F, 0, count)
            _oom_check(H)
            H_ = _gf2_unpack_free(H, self.F.r)
            return H_, [2] * H_.shape[0]
        if self._gens is None:
            with nogil:
                H = ml_gf2_kernel(self.F)
            _oom_check(H)
            self._gens = _gf2_unpack_free(H, self.F.r)
        H_ = self._gens
        return H_.copy(), [2] * H_.shape[0]

    # ------------------------------------------------------------ solving
    def solve(self, R):
        """Solve A x = b mod 2 for every row b of R (k x m). Returns (X uint8 k x r,
        ok bool k); rows of X where ok is False are 0."""
        self._need()
        arr = _as_bits_2d(R, "R")
        if arr.shape[1] != self.m:
            raise ValueError(f"R must have shape (k, {self.m}), got {arr.shape}")
        cdef ml_gf2_t *S
        cdef ml_gf2_t *B
        cdef ml_gf2_t *Y
        cdef size_t rk = 0
        if self.F == NULL and arr.shape[0] < 64 and self._direct < self.DIRECT_SOLVES:
            B = _gf2_pack(arr)
            with nogil:
                Y = ml_gf2_solve_direct(self.A, B, &rk)
                ml_gf2_free(B)
            if _interrupted():
                ml_gf2_free(Y)
                _check_interrupt()
            _oom_check(Y)
            self._direct += 1
            self._rank = rk
            return _solutions(Y, self.r)
        self._factored()
        # A few right-hand sides: dot products with the rows of T. Many: build the
        # solve matrix S once, then one packed product (M4RM) per batch; byte batches
        # are packed 64 boards a word (B^T) and multiplied as Y^T = S^T B^T.
        cdef bint dot = self.S == NULL and arr.shape[0] < 64
        if self.S == NULL and not dot:
            with nogil:
                S = ml_gf2_solve_matrix(self.F)
            _oom_check(S)
            if self.S == NULL:         # another thread may have built it meanwhile
                self.S = S
            else:
                ml_gf2_free(S)
        if not dot and arr.dtype == np.uint8:
            return self._solve_bytes(arr)
        B = _gf2_pack(arr)
        with nogil:
            if dot:
                Y = ml_gf2_solve_dot(self.F, B)
            else:
                Y = ml_gf2_mul(B, self.S)
            ml_gf2_free(B)
        if _interrupted():
            ml_gf2_free(Y)
            _check_interrupt()
        _oom_check(Y)
        return _solutions(Y, self.F.r)

    cdef object _solve_bytes(self, arr):
        """(X, ok) for a uint8 batch (k x m, C-contiguous) once S is built: one word a
        board through Four Russians tables of S when the board has at most 64 cells
        and S at most 64 columns, else packed 64 boards a word and multiplied by S^T
        (gf2_batch.h)."""
        cdef size_t k = arr.shape[0], m = arr.shape[1], r = self.F.r
        cdef ml_gf2_t *St
        cdef const uint8_t[:, ::1] src = arr
        cdef uint8_t[:, ::1] xv
        cdef uint8_t[::1] okv
        cdef int rc
        if k and m <= 64 and self.S.ncols <= 64:
            X = np.empty((k, r), dtype=np.uint8)
            ok = np.empty(k, dtype=np.uint8)
            xv = X
            okv = ok
            with nogil:
                rc = ml_gf2_solve_bytes_small(self.S, r, &src[0, 0] if m else NULL, k, m,
                                              &xv[0, 0] if r else NULL, &okv[0])
            if rc == 0:
                return X, ok.view(np.bool_)
            _raise_memory_error("out of memory in the GF(2) engine")
        if self.St == NULL:
            with nogil:
                St = ml_gf2_transpose(self.S)
            _oom_check(St)
            if self.St == NULL:        # another thread may have built it meanwhile
                self.St = St
            else:
                ml_gf2_free(St)
        return _solve_cols(self.St, arr, r)

    def det(self):
        self._need()
        if self.m != self.r:
            raise ValueError(f"det needs a square tap matrix, this one is {self.m}x{self.r}")
        return 1 if self.rank == self.m else 0

    def inverse(self):
        """A^-1 (uint8 r x m); ValueError unless square and invertible."""
        self._need()
        if self.m != self.r:
            raise ValueError(f"inverse needs a square tap matrix, this one is {self.m}x{self.r}")
        if self.rank < self.m:
            raise ValueError(f"the tap matrix is not invertible mod 2: det = 0 "
                             f"(rank {self.rank} of {self.m})")
        return self.pseudo_inverse()

    def pseudo_inverse(self):
        """G (uint8 r x m) with A G A = A mod 2 (always exists over a field)."""
        self._factored()
        cdef ml_gf2_t *G
        with nogil:
            G = ml_gf2_pinv(self.F)
        _oom_check(G)
        return _gf2_unpack_free(G, self.F.m)

    def __repr__(self):
        self._need()
        rank = "?" if self._rank < 0 else self._rank
        return f"Gf2Engine(<{self.m}x{self.r}>, rank={rank})"


# ---------------------------------------------------------------------------- plain matrices
_METHODS = ("auto", "naive", "m4ri")


cdef size_t _echelon(ml_gf2_t *M, int full, int method, size_t *piv) nogil:
    if method == 1:
        return ml_gf2_echelonize_naive(M, full, M.ncols, piv)
    if method == 2:
        return ml_gf2_echelonize_m4ri(M, full, M.ncols, piv)
    return ml_gf2_echelonize(M, full, M.ncols, piv)


def _method_id(method):
    if method not in _METHODS:
        raise ValueError(f"unknown method {method!r}: use one of {_METHODS}")
    return _METHODS.index(method)


def echelonize(A, full=True, method="auto"):
    """(E uint8, rank, pivots): the (reduced if full) row echelon form of A mod 2."""
    cdef int mid = _method_id(method), f = 1 if full else 0
    arr = _as_bits_2d(A, "A")
    cdef ml_gf2_t *M = _gf2_pack(arr)
    piv = np.zeros(max(1, min(arr.shape[0], arr.shape[1])), dtype=np.uintp)
    cdef size_t[::1] pv = piv
    cdef size_t rk
    with nogil:
        rk = _echelon(M, f, mid, &pv[0])
    if _interrupted():
        ml_gf2_free(M)
        _check_interrupt()
    if rk == <size_t>-1:
        ml_gf2_free(M)
        _raise_memory_error("out of memory in the GF(2) engine")
    E = _gf2_unpack_free(M, arr.shape[1])
    return E, int(rk), [int(x) for x in piv[:rk]]


def rank(A, method="auto"):
    """Rank of A mod 2: one (non-reduced) elimination in C, no transform kept."""
    cdef int mid = _method_id(method)
    arr = _as_bits_2d(A, "A")
    cdef ml_gf2_t *M = _gf2_pack(arr)
    cdef size_t rk
    with nogil:
        rk = _echelon(M, 0, mid, NULL)
        ml_gf2_free(M)
    _check_interrupt()
    if rk == <size_t>-1:
        _raise_memory_error("out of memory in the GF(2) engine")
    return int(rk)


def bench_echelonize(A, full=False, method="auto", int repeats=1):
    """Seconds (list, one per repeat) spent in the C elimination of A alone, packing
    excluded: for benchmarks. Returns (times, rank)."""
    cdef int mid = _method_id(method), f = 1 if full else 0
    arr = _as_bits_2d(A, "A")
    cdef ml_gf2_t *P = _gf2_pack(arr)
    cdef ml_gf2_t *M
    cdef timespec t0, t1
    cdef size_t rk = 0
    times = []
    try:
        for _ in range(max(1, repeats)):
            with nogil:
                M = ml_gf2_copy(P)
            _oom_check(M)
            with nogil:
                clock_gettime(CLOCK_MONOTONIC, &t0)
                rk = _echelon(M, f, mid, NULL)
                clock_gettime(CLOCK_MONOTONIC, &t1)
                ml_gf2_free(M)
            _check_interrupt()
            times.append((t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec))
    finally:
        ml_gf2_free(P)
    return times, int(rk)
