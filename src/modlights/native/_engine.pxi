"""The C library's engines as the registry's Engine protocol (src/modlights/engines/base.py)
for Python's Solver facade: CEngine asks the own engine of a CSolver
(csrc/api/solver_engine.h) and adds nothing of its own but the NumPy conversions, which
pass the caller's arrays to C without copies when they are already C-contiguous uint8
(the Solver's right-hand sides and packed states are). modlights.engines.native wraps it
for the registry."""


cdef class CEngine:
    """The Engine protocol over the own engine of a CSolver (built with the plan of one
    registered engine): solve, generators, nullity, kernel_size, det, kernel_fits, packs,
    transposed, solve_packed. Errors are the C library's statuses and messages
    (ValueError, MemoryError; KeyboardInterrupt when the stop flag stopped it). Use from
    one thread at a time (the C library refuses a second one: ValueError)."""

    cdef CSolver cs
    cdef readonly int n
    cdef readonly uint64_t m, r

    def __init__(self, CSolver cs):
        self.cs = cs
        self.n = cs.n
        self.m = cs.m
        self.r = cs.r

    @property
    def solver(self):
        """The CSolver whose engine answers."""
        return self.cs

    @property
    def nullity(self):
        """The number of kernel generators (ml_solver_nullity: the engine's)."""
        return self.cs.nullity

    @property
    def kernel_size(self):
        """|ker A| as a Python int."""
        return self.cs.kernel_size

    def det(self):
        """det A mod n (ml_solver_det: the engine's own when it answers det)."""
        return self.cs.det()

    def solve(self, R):
        """R (k, n_cells) uint8 right-hand sides t - s, each < n (a C-contiguous uint8
        array is read in place) -> (X (k, n_taps) uint8, ok (k,) bool); X rows of
        unsolvable right-hand sides are unspecified. ValueError for another shape or a
        value >= n. O(the engine's solve)."""
        a = R if isinstance(R, np.ndarray) and R.dtype == np.uint8 else np.asarray(R)
        if a.ndim != 2 or a.shape[1] != self.m:
            raise ValueError(f"R must be (k, {self.m}) right-hand sides, got shape {a.shape}")
        if a.dtype != np.uint8:
            a = a.astype(np.uint8)
        if not a.flags.c_contiguous:
            a = np.ascontiguousarray(a)
        cdef size_t k = a.shape[0]
        if k and self.m and int(a.max()) >= self.n:
            raise ValueError(f"R must hold values below n = {self.n}, got {int(a.max())}")
        X = np.empty((k, self.r), dtype=np.uint8)
        ok = np.zeros(k, dtype=np.bool_)
        if k == 0:
            return X, ok
        cdef const uint8_t[:, ::1] rv
        cdef uint8_t[:, ::1] xv
        cdef const uint8_t *rp = NULL
        cdef uint8_t *xp = NULL
        cdef uint8_t dummy = 0
        if self.m:
            rv = a
            rp = &rv[0, 0]
        else:
            rp = &dummy
        if self.r:
            xv = X
            xp = &xv[0, 0]
        else:
            xp = &dummy
        cdef uint8_t[::1] okv = ok.view(np.uint8)
        with nogil:
            rc = ml__solver_engine_solve(NULL, self.cs.s, k, rp, xp, &okv[0])
        _ml_ok(rc)
        return X, ok

    def generators(self, limit=None):
        """(H (k, n_taps) uint8, orders list): the engine's first ``limit`` (None: all)
        generators of ker A, as the engine makes them (Solver makes them canonical).
        ValueError past the engine's kernel basis cap (its message)."""
        cdef uint64_t lim = (1 << 64) - 1 if limit is None else max(0, int(limit))
        cdef uint64_t k = 0
        with nogil:
            rc = ml__solver_engine_generators(NULL, self.cs.s, lim, &k, NULL, NULL)
        _ml_ok(rc)
        H = np.zeros((k, self.r), dtype=np.uint8)
        orders = np.zeros(max(k, 1), dtype=np.uint32)
        if k == 0:
            return H, []
        cdef uint8_t[:, ::1] hv
        cdef uint8_t *hp = NULL
        cdef uint8_t dummy = 0
        if self.r:
            hv = H
            hp = &hv[0, 0]
        else:
            hp = &dummy
        cdef uint32_t[::1] ov = orders
        cdef uint64_t got = 0
        with nogil:
            rc = ml__solver_engine_generators(NULL, self.cs.s, k, &got, hp, &ov[0])
        _ml_ok(rc)
        return H[:got], [int(o) for o in orders[:got]]

    def kernel_fits(self):
        """Whether the engine's kernel basis fits its memory cap."""
        cdef int fits = 1
        rc = ml__solver_engine_kernel_fits(NULL, self.cs.s, &fits)
        _ml_ok(rc)
        return bool(fits)

    cdef tuple _packed(self):
        cdef int packs = 0, transposed = 0
        rc = ml__solver_engine_packed(NULL, self.cs.s, &packs, &transposed)
        _ml_ok(rc)
        return bool(packs), bool(transposed)

    @property
    def packs(self):
        """Whether solve_packed takes this board (a GF(2) grid the engine packs)."""
        return self._packed()[0]

    @property
    def transposed(self):
        """Whether solve_packed goes through 64 x 64 bit transposes (the engine chases
        down the columns)."""
        return self._packed()[1]

    def solve_packed(self, packed, tc=0):
        """GF(2) taps of ``tc + packed`` (np.packbits rows: uint8 (rows, ceil(cols / 8)),
        bits past the last column ignored; read in place when C-contiguous) in the same
        layout, or None when unsolvable. ValueError for another shape or dtype, or when
        the engine does not pack this board (``packs``)."""
        b = ml_solver_board(self.cs.s)
        rows = ml_board_rows(b)
        nb = (ml_board_cols(b) + 7) // 8
        if not isinstance(packed, np.ndarray) or packed.dtype != np.uint8 or \
                packed.shape != (rows, nb):
            raise ValueError(f"packed must be uint8 of shape {(rows, nb)}")
        p = packed if packed.flags.c_contiguous else np.ascontiguousarray(packed)
        out = np.empty((rows, nb), dtype=np.uint8)
        if rows == 0 or nb == 0:
            return out
        cdef const uint8_t[:, ::1] pv = p
        cdef uint8_t[:, ::1] ov = out
        cdef unsigned fill = <unsigned>(int(tc) & 1)
        cdef int solvable = 0
        with nogil:
            rc = ml__solver_engine_solve_packed(NULL, self.cs.s, &pv[0, 0], fill, &ov[0, 0],
                                                &solvable)
        _ml_ok(rc)
        return out if solvable else None
