"""Bindings to csrc/chase/rowchase.c: the symbolic chase with online elimination (GIL
released). Every argument is checked here, before any C code runs."""

import numpy as np
from libc.stdint cimport uint8_t, int64_t



def bitsliced():
    """Whether GF(3) rows are bit-sliced (True, the default: two planes of bits,
    csrc/base/bitslice.h) or bytes (False: MODLIGHTS_BITSLICED=0 in the environment, read
    once per process; for before / after measurements)."""
    return bool(ml_rowchase_bitsliced())


def live_bounds(plan):
    """(min_width, slots): a lower bound on the row chase's live symbols for this plan
    (the most symbols made by a tap minus the equations met by then) and the ring's
    slots (rows kept at once)."""
    if not isinstance(plan, Plan):
        raise ValueError(f"plan must be a modlights.native._core.Plan, got {type(plan).__name__}")
    cdef size_t addr = plan._address()
    cdef const ml_chase *p = <const ml_chase *>addr
    cdef size_t lb
    with nogil:
        lb = ml_rowchase_min_width(p)
    if lb == <size_t>-1:
        _raise_memory_error("the row chase's width bound could not allocate")
    return int(lb), int(ml_chase_slots(p))


cdef class RowChase:
    """One run of the row-state chase of a Plan (csrc/chase/rowchase.h): the chase with
    online elimination for k right-hand sides (k = 0: the kernel only), mod q.

    Parameters
    ----------
    plan : modlights.native._core.Plan
        The chase plan of the board.
    B : array_like or None
        (k, rows * cols) right-hand sides ``t - s`` a byte a tile in the plan's layout,
        values < n; None for none.
    max_bytes : int
        Most memory the live rows and the elimination records may take; past it the
        run stops and ValueError is raised.
    q : int or None
        The modulus of the arithmetic: a prime power dividing the plan's n (None: the
        plan's n, which must then be a prime power). Over Z/p^e, e > 1, equations
        without a unit coefficient are kept pending (``pending``).
    """
    cdef ml_rowchase *R
    cdef object plan
    cdef readonly size_t k, nsym, nfree, eliminated, checks, retired, width, record_bytes
    cdef readonly size_t npending
    cdef readonly int q

    def __cinit__(self, plan, B=None, max_bytes=1 << 30, q=None):
        self.R = NULL
        if not isinstance(plan, Plan):
            raise ValueError(f"plan must be a modlights.native._core.Plan, got {type(plan).__name__}")
        n = int(plan.n)
        if q is None:
            q = n
        if isinstance(q, (bool, np.bool_)) or not isinstance(q, (int, np.integer)) \
                or not 2 <= q <= n or n % q or len(_factorize(int(q))) != 1:
            raise ValueError(f"the row chase works mod a prime power dividing n = {n}, got q = {q!r}")
        if isinstance(max_bytes, (bool, np.bool_)) or not isinstance(max_bytes, (int, np.integer)) \
                or max_bytes < 1:
            raise ValueError(f"max_bytes must be a positive int, got {max_bytes!r}")
        cdef size_t hw = <size_t>plan.h * <size_t>plan.w
        if B is None:
            bb = np.zeros((0, hw), dtype=np.uint8)
        else:
            raw = np.asarray(B)
            if raw.dtype.kind not in "ui" or (raw.size and (int(raw.min()) < 0
                                                             or int(raw.max()) >= n)):
                raise ValueError(f"right-hand sides must be integers in 0..{n - 1}")
            bb = np.ascontiguousarray(raw, dtype=np.uint8)
            if bb.ndim == 1:
                bb = bb.reshape(1, -1)
            if bb.ndim != 2 or bb.shape[1] != hw:
                raise ValueError(f"right-hand sides must be (k, {hw}), got {np.shape(B)}")
            if bb.size and int(bb.max()) >= n:
                raise ValueError(f"right-hand side entries must be < {n}")
        self.plan = plan
        self.q = int(q)
        self.k = bb.shape[0]
        flat = np.concatenate([bb.reshape(-1), np.zeros(1, np.uint8)])
        cdef const uint8_t[::1] bv = flat
        cdef const uint8_t *bp = &bv[0] if self.k else NULL
        cdef size_t addr = plan._address()
        cdef const ml_chase *p = <const ml_chase *>addr
        cdef size_t k = self.k, mb = max_bytes
        cdef int err = 0, cq = self.q
        with nogil:
            self.R = ml_rowchase_run(p, cq, bp, k, mb, &err)
        _check_interrupt()
        if self.R == NULL:
            if err == 2:
                _raise_memory_error("the row chase could not allocate its rows")
            if err == 4:
                raise ValueError(
                    f"this board is too large for the row chase: its live symbols and "
                    f"elimination records would take more than {max_bytes / 2**20:.0f} MiB "
                    f"(use a smaller board or fewer holes)")
            raise ValueError("bad arguments to the row chase")
        self.nsym = plan.nsym
        self.nfree = ml_rowchase_nfree(self.R)
        self.eliminated = ml_rowchase_neliminated(self.R)
        self.checks = ml_rowchase_nchecks(self.R)
        self.retired = ml_rowchase_nretired(self.R)
        self.width = ml_rowchase_width(self.R)
        self.record_bytes = ml_rowchase_record_bytes(self.R)
        self.npending = ml_rowchase_npending(self.R)

    def __dealloc__(self):
        if self.R != NULL:
            ml_rowchase_free(self.R)
            self.R = NULL

    def ok(self):
        """(k,) bool: whether each right-hand side passed every consistency check."""
        out = np.ones(self.k + 1, dtype=np.uint8)
        cdef uint8_t[::1] o = out
        ml_rowchase_ok(self.R, &o[0])
        return out[:self.k].astype(bool)

    def pending(self):
        """(A, C): the pending equations left at the end (Z/p^e: no unit coefficient),
        A (npending, nfree) uint8 coefficients on the free symbols (the order of
        ``free_symbols``) and C (npending, k) uint8 constants; free symbol values u
        must give A u + C[:, j] = 0 (mod q) for right-hand side j."""
        A = np.zeros(self.npending * self.nfree + 1, dtype=np.uint8)
        C = np.zeros(self.npending * self.k + 1, dtype=np.uint8)
        cdef uint8_t[::1] a = A
        cdef uint8_t[::1] c = C
        ml_rowchase_pending(self.R, &a[0], &c[0])
        return (A[:self.npending * self.nfree].reshape(self.npending, self.nfree),
                C[:self.npending * self.k].reshape(self.npending, self.k))

    def free_symbols(self):
        """Symbol numbers of the free symbols (retired or live at the end; ascending)."""
        out = np.zeros(self.nfree + 1, dtype=np.int64)
        cdef int64_t[::1] o = out
        ml_rowchase_free_symbols(self.R, &o[0])
        return out[:self.nfree]

    def symbols(self, j=None, u=None):
        """Symbol values (nsym,) uint8 mod q for right-hand side j (None: the
        homogeneous system) with the free symbols set to u (nfree values; None: zeros)."""
        cdef long jj = -1
        if j is not None:
            if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)) \
                    or not 0 <= j < self.k:
                raise ValueError(f"j must be an int from 0 to {self.k - 1}, got {j!r}")
            jj = int(j)
        uu = np.zeros(self.nfree + 1, dtype=np.uint8)
        if u is not None:
            a = np.asarray(u).reshape(-1)
            if a.shape[0] != self.nfree:
                raise ValueError(f"u must have {self.nfree} entries, got {a.shape[0]}")
            uu[:self.nfree] = np.mod(a.astype(np.int64), self.q)
        z = np.zeros(self.nsym + 1, dtype=np.uint8)
        cdef const uint8_t[::1] uv = uu
        cdef uint8_t[::1] zv = z
        cdef int st
        with nogil:
            st = ml_rowchase_symbols(self.R, jj, &uv[0], &zv[0])
        if st:
            _raise_memory_error("the row chase's back-substitution could not allocate")
        return z[:self.nsym]
