"""Bindings to the public C API's solvers and results (csrc/include/modlights.h: solvers;
csrc/api/solver.c over csrc/engines/dense.c): CSolver, a handle of an ml_solver, and
capi_solve. Errors are the C library's statuses and messages (_ml_raise). modlights.Solver
answers from a CSolver on the native backend for the C library's engines
(modlights.solver._c_solves); tests/native/test_capi_solver.py compares it with the
Python engines' answers."""


#: The C library's minimal-search limits (csrc/api/solver_impl.h), by their Python names:
#: modlights.solver and solver_budget read them from here (the limits live in C once).
#: DEFAULT_SECONDS: the default budget's deadline a board past the default count;
#: DEFAULT_NATIVE_BUDGET: the largest default count; MAX_SEARCH_BYTES: the most bytes of
#: kernel generators a search holds.
SEARCH_LIMITS = {
    "DEFAULT_SECONDS": ML__DEFAULT_SECONDS,
    "DEFAULT_NATIVE_BUDGET": ML__DEFAULT_NATIVE_BUDGET,
    "MAX_SEARCH_BYTES": ML__MAX_SEARCH_BYTES,
}


def board_default_steps(CBoard board):
    """ml_board_default_steps: the count the default budget searches a coset whole
    within on this board (about 2^30 operations, 256 to DEFAULT_NATIVE_BUDGET). O(1)."""
    return int(ml_board_default_steps(board.b))


cdef object _factored_int(const ml_factored *f):
    v = 1
    for i in range(f.count):
        v *= int(f.prime[i]) ** int(f.exp[i])
    return v


cdef class CSolver:
    """An ml_solver handle (modlights.h: solvers); freed with the object. Use from one
    thread at a time (the C library refuses a second one: ValueError)."""

    cdef ml_solver *s
    cdef CBoard board_ref
    cdef int n
    cdef uint64_t m, r, tiles

    def __dealloc__(self):
        ml_solver_free(self.s)
        self.s = NULL

    def __init__(self, CBoard board, method=None):
        """ml_solver_new(board, method) (None: "auto")."""
        cdef ml_solver *s = NULL
        m = None if method is None else method.encode()
        cdef const char *mp = NULL
        if m is not None:
            mp = m
        with nogil:
            rc = ml_solver_new(NULL, board.b, mp, &s)
        _ml_ok(rc)
        self.s = s
        self.board_ref = board
        self.n = ml_board_states(board.b)
        self.m = ml_board_n_cells(board.b)
        self.r = ml_board_n_taps(board.b)
        self.tiles = ml_board_size(board.b)

    @property
    def plan(self):
        """{engine, family, method, backend, reason, variant, json} of the plan that
        answers (ml_solver_plan: the variant the engine took named)."""
        cdef const ml_plan *p = ml_solver_plan(self.s)
        cdef const char *variant = ml_plan_variant(p)
        return {"engine": ml_plan_engine(p).decode(), "family": ml_plan_family(p).decode(),
                "method": ml_plan_method(p).decode(), "backend": ml_plan_backend(p).decode(),
                "reason": ml_plan_reason(p).decode(),
                "variant": None if variant == NULL else variant.decode(),
                "json": _plan_text(<ml_plan *>p, 1)}

    @property
    def nullity(self):
        cdef uint64_t v = 0
        with nogil:
            rc = ml_solver_nullity(NULL, self.s, &v)
        _ml_ok(rc)
        return int(v)

    @property
    def rank(self):
        cdef uint64_t v = 0
        with nogil:
            rc = ml_solver_rank(NULL, self.s, &v)
        _ml_ok(rc)
        return int(v)

    @property
    def kernel_size(self):
        """|ker A| as a Python int (from the factored count)."""
        cdef ml_factored f
        with nogil:
            rc = ml_solver_kernel_size(NULL, self.s, &f)
        _ml_ok(rc)
        return _factored_int(&f)

    @property
    def is_unique(self):
        cdef int v = 0
        rc = ml_solver_is_unique(NULL, self.s, &v)
        _ml_ok(rc)
        return bool(v)

    @property
    def is_invertible(self):
        cdef int v = 0
        rc = ml_solver_is_invertible(NULL, self.s, &v)
        _ml_ok(rc)
        return bool(v)

    def kernel(self):
        """(H uint8 (nullity x n_taps), orders list)."""
        k = self.nullity
        H = np.zeros((k, self.r), dtype=np.uint8)
        orders = np.zeros(max(k, 1), dtype=np.uint32)
        cdef uint8_t[:, ::1] hv = H
        cdef uint32_t[::1] ov = orders
        cdef uint8_t *hp = &hv[0, 0] if k and self.r else NULL
        with nogil:
            rc = ml_solver_kernel(NULL, self.s, hp, &ov[0])
        _ml_ok(rc)
        return H, [int(x) for x in orders[:k]]

    def det(self):
        cdef unsigned v = 0
        with nogil:
            rc = ml_solver_det(NULL, self.s, &v)
        _ml_ok(rc)
        return int(v)

    def _square(self, int pseudo):
        # past the dense fallback's 2^28 entries an engine that does not answer the
        # question itself is refused by the C solver before anything is written: asked
        # with one byte, so the refusal (its message) comes before an allocation of
        # n_taps x n_cells bytes that could not succeed
        cdef const ml_plan *p = ml_solver_plan(self.s)
        cdef unsigned bit = _QUESTION_BITS["pseudo_inverse" if pseudo else "inverse"]
        cdef int own = (ml_engine_answers(ml_engine_index(ml_plan_engine(p))) & bit) != 0
        refused = not own and self.r and self.m > (<uint64_t>1 << 28) // self.r
        out = None if refused else np.zeros((self.r, self.m), dtype=np.uint8)
        cdef uint8_t[:, ::1] ov
        cdef uint8_t *op = NULL
        cdef uint8_t dummy = 0
        if self.r and self.m and not refused:
            ov = out
            op = &ov[0, 0]
        else:
            op = &dummy
        with nogil:
            rc = ml_solver_pseudo_inverse(NULL, self.s, op) if pseudo else \
                ml_solver_inverse(NULL, self.s, op)
        _ml_ok(rc)
        if out is None:
            raise RuntimeError("the C solver answered past its dense fallback's size")
        return out

    def inverse(self):
        """A^-1 (uint8 n_taps x n_cells)."""
        return self._square(0)

    def pseudo_inverse(self):
        """G (uint8 n_taps x n_cells) with A G A = A."""
        return self._square(1)

    cdef object _bytes(self, state):
        # bytes go to the C library as they are (it reduces every value mod n); other
        # integers are reduced here in their own type: one pass, no int64 copy
        a = np.asarray(state)
        if a.dtype == np.uint8:
            return np.ascontiguousarray(a)
        if a.dtype.kind == "b":
            return np.ascontiguousarray(a, dtype=np.uint8)
        if a.dtype.kind not in "iu":
            a = a.astype(np.int64)
        return np.ascontiguousarray(np.mod(a, self.n), dtype=np.uint8)

    cdef object _state(self, state):
        a = self._bytes(state).reshape(-1)
        if a.shape[0] != self.tiles:
            raise ValueError(f"a state has {self.tiles} tiles, got {a.shape[0]}")
        return a

    cdef int _target(self, target, ml_target *t, list keep) except -1:
        if np.ndim(target) == 0:
            t[0] = ml_target_fill(<unsigned>(int(target) % self.n))
            return 0
        tv = self._state(target)
        keep.append(tv)
        cdef const uint8_t[::1] v = tv
        t[0] = ml_target_tiles(&v[0] if self.tiles else NULL)
        return 0

    def solvable(self, state, target=0):
        """ml_solver_solvable."""
        st = self._state(state)
        keep = []
        cdef ml_target t
        self._target(target, &t, keep)
        cdef const uint8_t[::1] sv = st if self.tiles else np.zeros(1, np.uint8)
        cdef int v = 0
        with nogil:
            rc = ml_solver_solvable(NULL, self.s, &sv[0], t, &v)
        _ml_ok(rc)
        return bool(v)

    def solve(self, state, target=0, minimal=False, budget=None):
        """ml_solver_solve: (taps, a flat uint8 array of ml_board_taps_size bytes; length;
        proven_minimal; kernel_size). ValueError when unsolvable (the C message)."""
        r = self.solve_result(state, target, minimal=minimal, budget=budget)
        return r.taps, r.length, r.proven_minimal, r.kernel_size

    def solve_result(self, state, target=0, minimal=True, budget=None, proof=False,
                     unsolvable=True):
        """ml_solver_solve as a CResult. budget: None (ml_budget_default), an int (coset
        elements, ml_budget_steps; negative: ValueError), a float (seconds,
        ml_budget_seconds; the C library checks it) or a raw (kind, steps, seconds)
        tuple (as the C caller may pass it). unsolvable=False: None when no tap counts
        reach the target (ML_EUNSOLVABLE) instead of its ValueError."""
        st = self._state(state)
        keep = []
        cdef ml_target t
        self._target(target, &t, keep)
        cdef const uint8_t[::1] sv = st if self.tiles else np.zeros(1, np.uint8)
        cdef ml_result *res = NULL
        cdef unsigned flags = (ML_SOLVE_MINIMAL if minimal else 0) | \
            (ML_SOLVE_PROOF if proof else 0)
        cdef ml_budget bud = _budget(budget)
        with nogil:
            rc = ml_solver_solve(NULL, self.s, &sv[0], t, flags, bud, &res)
        if rc == ML_EUNSOLVABLE and not unsolvable:
            _check_interrupt()
            return None
        _ml_ok(rc)
        cdef CResult out = CResult.__new__(CResult)
        out.r = res
        return out


    def solutions(self, state, target=0):
        """ml_solver_solutions: an iterator over every solution's taps (flat uint8 arrays
        of ml_board_taps_size bytes), in Solver.solutions' order; none when unsolvable."""
        st = self._state(state)
        keep = []
        cdef ml_target t
        self._target(target, &t, keep)
        cdef const uint8_t[::1] sv = st if self.tiles else np.zeros(1, np.uint8)
        cdef ml_solutions *it = NULL
        with nogil:
            rc = ml_solver_solutions(NULL, self.s, &sv[0], t, &it)
        _ml_ok(rc)
        cdef CSolutions out = CSolutions.__new__(CSolutions)
        out.it = it
        out.size = ml_board_taps_size(ml_solver_board(self.s))
        return out

    def solve_packed(self, packed, target=0):
        """ml_solver_solve_packed: packed = np.packbits(state, axis=1) (uint8, rows x
        ceil(cols / 8), C-contiguous); target 0, 1 or a packed array of that shape. The
        taps in the same layout."""
        b = ml_solver_board(self.s)
        rows = ml_board_rows(b)
        nb = (ml_board_cols(b) + 7) // 8
        p = np.ascontiguousarray(packed, dtype=np.uint8)
        if p.shape != (rows, nb):
            raise ValueError(f"packed must be uint8 of shape {(rows, nb)}, got {p.shape}")
        cdef unsigned fill = 0
        tp = None
        if np.ndim(target) == 0:
            fill = <unsigned>(int(target) & 1)
        else:
            tp = np.ascontiguousarray(target, dtype=np.uint8)
            if tp.shape != p.shape:
                raise ValueError(f"target must be uint8 of shape {p.shape}, got {tp.shape}")
        out = np.zeros((max(rows, 1), max(nb, 1)), dtype=np.uint8)
        cdef const uint8_t[:, ::1] pv = p if p.size else np.zeros((1, 1), np.uint8)
        cdef const uint8_t[:, ::1] tv = tp if tp is not None and tp.size else pv
        cdef uint8_t[:, ::1] ov = out
        cdef const uint8_t *tptr = &tv[0, 0] if tp is not None else NULL
        with nogil:
            rc = ml_solver_solve_packed(NULL, self.s, &pv[0, 0], tptr, fill, &ov[0, 0])
        _ml_ok(rc)
        return out[:rows, :nb]

    cdef object _states(self, states):
        a = self._bytes(states)
        k = a.shape[0] if a.ndim else 0
        a = a.reshape(k, int(np.prod(a.shape[1:], dtype=np.int64)) if a.ndim > 1 else 0)
        if a.shape[1] != self.tiles:
            raise ValueError(f"a state has {self.tiles} tiles, got {a.shape[1]}")
        return a

    def solvable_many(self, states, target=0):
        """ml_solver_solvable_many: bool (k,)."""
        st = self._states(states)
        keep = []
        cdef ml_target t
        self._target(target, &t, keep)
        cdef size_t k = st.shape[0]
        ok = np.zeros(max(k, 1), dtype=np.uint8)
        cdef const uint8_t[:, ::1] sv = st if st.size else np.zeros((1, 1), np.uint8)
        cdef uint8_t[::1] ov = ok
        with nogil:
            rc = ml_solver_solvable_many(NULL, self.s, k, &sv[0, 0], t, &ov[0])
        _ml_ok(rc)
        return ok[:k].astype(bool)

    def min_taps_many(self, states, target=0, budget=None):
        """ml_solver_min_taps_many: (lengths int64 (k,), proven bool (k,))."""
        st = self._states(states)
        keep = []
        cdef ml_target t
        self._target(target, &t, keep)
        cdef ml_budget bud = _budget(budget)
        cdef size_t k = st.shape[0]
        lengths = np.zeros(max(k, 1), dtype=np.int64)
        proven = np.zeros(max(k, 1), dtype=np.uint8)
        cdef const uint8_t[:, ::1] sv = st if st.size else np.zeros((1, 1), np.uint8)
        cdef int64_t[::1] lv = lengths
        cdef uint8_t[::1] pv = proven
        with nogil:
            rc = ml_solver_min_taps_many(NULL, self.s, k, &sv[0, 0], t, bud, &lv[0], &pv[0])
        _ml_ok(rc)
        return lengths[:k], proven[:k].astype(bool)

    def solve_many(self, states, target=0, minimal=False, budget=None, unsolvable=True):
        """ml_solver_solve_many: (taps uint8 (k, ml_board_taps_size), ok bool (k,));
        ValueError naming the unsolvable indices (the C message), or with
        unsolvable=False (None, ok) when some are unsolvable (ML_EUNSOLVABLE)."""
        st = self._states(states)
        keep = []
        cdef ml_target t
        self._target(target, &t, keep)
        cdef ml_budget bud = _budget(budget)
        cdef size_t k = st.shape[0]
        cdef uint64_t size = ml_board_taps_size(ml_solver_board(self.s))
        ok = np.zeros(max(k, 1), dtype=np.uint8)
        cdef const uint8_t[:, ::1] sv = st if st.size else np.zeros((1, 1), np.uint8)
        cdef uint8_t[::1] ov = ok
        cdef unsigned flags = ML_SOLVE_MINIMAL if minimal else 0
        cdef uint8_t[::1] flat
        if size:
            flat = np.zeros(max(k * size, 1), dtype=np.uint8)
        else:
            flat = np.zeros(1, dtype=np.uint8)
        with nogil:
            rc = ml_solver_solve_many(NULL, self.s, k, &sv[0, 0], t, flags, bud, &flat[0],
                                      &ov[0])
        if rc == ML_EUNSOLVABLE and not unsolvable:
            _check_interrupt()
            return None, ok[:k].astype(bool)
        _ml_ok(rc)
        out = np.asarray(flat)[: k * size].reshape(k, size).copy()
        return out, ok[:k].astype(bool)


cdef ml_budget _budget(budget) except *:
    """None: ml_budget_default; an int: ml_budget_steps (negative: ValueError); a float:
    ml_budget_seconds (the C library checks it); a raw (kind, steps, seconds) tuple."""
    cdef ml_budget bud = ml_budget_default()
    if isinstance(budget, tuple):
        bud.kind, bud.steps, bud.seconds = int(budget[0]), int(budget[1]), float(budget[2])
    elif isinstance(budget, (bool, np.bool_)):
        raise ValueError("budget must be an int or a float, got a bool")
    elif isinstance(budget, (int, np.integer)):
        if budget < 0:
            raise ValueError(f"budget must be >= 0, got {budget}")
        bud = ml_budget_steps(<uint64_t>min(int(budget), (1 << 64) - 1))
    elif isinstance(budget, (float, np.floating)):
        bud = ml_budget_seconds(float(budget))
    elif budget is not None:
        raise ValueError(f"budget must be None, an int or a float, got {budget!r}")
    return bud


cdef class CResult:
    """An ml_result handle (modlights.h: results), freed with the object."""

    cdef ml_result *r

    def __dealloc__(self):
        ml_result_free(self.r)
        self.r = NULL

    @property
    def taps(self):
        """The tap counts, a flat uint8 array of ml_board_taps_size bytes (a copy)."""
        size = ml_board_taps_size(ml_result_board(self.r))
        if not size:
            return np.zeros(0, np.uint8)
        return np.asarray(<const uint8_t[:size]>ml_result_taps(self.r)).copy()

    def taps_view(self):
        """The tap counts in the result's own memory (a flat uint8 array of
        ml_board_taps_size bytes, writable, keeping the result alive): no copy."""
        size = ml_board_taps_size(ml_result_board(self.r))
        if not size:
            return np.zeros(0, np.uint8)
        cdef _ResultTaps t = _ResultTaps.__new__(_ResultTaps)
        t.res = self
        t.shape[0] = <Py_ssize_t>size
        t.strides[0] = 1
        return np.asarray(t)

    @property
    def length(self):
        return int(ml_result_length(self.r))

    @property
    def proven_minimal(self):
        return bool(ml_result_proven_minimal(self.r))

    @property
    def kernel_size(self):
        cdef ml_factored f
        ml_result_kernel_size(self.r, &f)
        return _factored_int(&f)

    @property
    def examined(self):
        return int(ml_result_examined(self.r))

    @property
    def pruned(self):
        return int(ml_result_pruned(self.r))

    @property
    def seconds(self):
        return float(ml_result_seconds(self.r))

    def to_json(self):
        """ml_result_to_json: Solution.to_dict() as JSON text."""
        return _result_text(self.r, 0)

    def certificate(self):
        """ml_result_certificate: Solution.certificate() as JSON text (ValueError when
        none is available, with the C message)."""
        return _result_text(self.r, 1)


cdef class _ResultTaps:
    """A result's taps as a buffer (CResult.taps_view): the array made over it holds
    this object, which holds the result."""
    cdef CResult res
    cdef Py_ssize_t shape[1]
    cdef Py_ssize_t strides[1]

    def __getbuffer__(self, Py_buffer *buf, int flags):
        buf.buf = <void *>ml_result_taps(self.res.r)
        buf.obj = self
        buf.len = self.shape[0]
        buf.readonly = 0
        buf.itemsize = 1
        buf.format = b"B"
        buf.ndim = 1
        buf.shape = self.shape
        buf.strides = self.strides
        buf.suboffsets = NULL
        buf.internal = NULL

    def __releasebuffer__(self, Py_buffer *buf):
        pass


cdef object _result_text(ml_result *r, int cert):
    cdef size_t n = 0
    cdef int rc
    with nogil:
        rc = ml_result_certificate(NULL, r, NULL, 0, &n) if cert else \
            ml_result_to_json(NULL, r, NULL, 0, &n)
    _ml_ok(rc)
    buf = bytearray(n + 1)
    cdef char *p = buf
    with nogil:
        rc = ml_result_certificate(NULL, r, p, n + 1, &n) if cert else \
            ml_result_to_json(NULL, r, p, n + 1, &n)
    _ml_ok(rc)
    return bytes(buf[:n]).decode()


cdef class CSolutions:
    """ml_solutions: iterates the taps of every solution (flat uint8 arrays)."""
    cdef ml_solutions *it
    cdef uint64_t size

    def __dealloc__(self):
        ml_solutions_free(self.it)
        self.it = NULL

    def __iter__(self):
        return self

    def __next__(self):
        out = np.zeros(max(self.size, 1), dtype=np.uint8)
        cdef uint8_t[::1] ov = out
        cdef int done = 0
        rc = ml_solutions_next(NULL, self.it, &ov[0], &done)
        _ml_ok(rc)
        if done:
            raise StopIteration
        return out[: self.size]
