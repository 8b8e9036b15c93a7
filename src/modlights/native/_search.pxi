"""Bindings to the public C API's split searches (csrc/include/modlights.h: split
searches; csrc/api/search.c, search_many.c): CSearch, an ml_search handle, capi_search
and search_task (a worker's part: import, run one task) for one coset;
capi_search_many and search_rows_task for many cosets (a task: a range of rows); capi_solve_progress,
the minimal solve on a context of its own whose progress callback calls Python. Errors
are the C library's statuses and messages (_ml_raise). tests/native/test_capi_search.py
and test_capi_search_many.py drive them over executors and compare them with
modlights.Solver.solve / min_taps_many / solve_many(executor=...)."""


cdef class CSearch:
    """An ml_search handle (modlights.h: split searches); freed with the object. Use from
    one thread at a time (a worker thread makes its own copy with from_bytes)."""

    cdef ml_search *q
    cdef uint64_t L
    cdef uint64_t k, tsize   # a many-coset search's states and ml_board_taps_size

    def __dealloc__(self):
        ml_search_free(self.q)
        self.q = NULL

    def split(self, want):
        """ml_search_split: about `want` tasks (at least one); the count made."""
        cdef uint64_t tasks = 0
        cdef uint64_t w = max(0, int(want))
        rc = ml_search_split(NULL, self.q, w, &tasks)
        _ml_ok(rc)
        return int(tasks)

    def bound(self, t):
        """ml_search_bound: the bound to give task t now."""
        cdef int64_t b = 0
        rc = ml_search_bound(NULL, self.q, <uint64_t>int(t), &b)
        _ml_ok(rc)
        return int(b)

    def export(self):
        """ml_search_export: the bytes a worker needs."""
        cdef size_t n = 0
        rc = ml_search_export(NULL, self.q, NULL, 0, &n)
        _ml_ok(rc)
        buf = bytearray(max(1, n))
        cdef uint8_t[::1] bv = buf
        rc = ml_search_export(NULL, self.q, &bv[0], n, &n)
        _ml_ok(rc)
        return bytes(buf[:n])

    @staticmethod
    def from_bytes(data):
        """ml_search_import: a worker's copy of an exported search."""
        data = bytes(data)
        cdef const uint8_t[::1] dv = data if data else b"\0"
        cdef ml_search *q = NULL
        rc = ml_search_import(NULL, &dv[0], len(data), &q)
        _ml_ok(rc)
        cdef CSearch out = CSearch.__new__(CSearch)
        out.q = q
        out.L = int.from_bytes(data[20:28], "little")
        return out

    def run(self, t, bound):
        """ml_search_run: (found, complete, length, examined, pruned, best uint8 (L,))."""
        best = np.zeros(max(1, self.L), dtype=np.uint8)
        cdef uint8_t[::1] bv = best
        cdef ml_task_result res
        cdef uint64_t ct = int(t)
        cdef int64_t cb = min(int(bound), 1 << 62)
        with nogil:
            rc = ml_search_run(NULL, self.q, ct, cb, &res, &bv[0])
        _ml_ok(rc)
        return (bool(res.found), bool(res.complete), int(res.length), int(res.examined),
                int(res.pruned), best[:self.L])

    def merge(self, t, answer):
        """ml_search_merge of a run's answer (the tuple run returns)."""
        found, complete, length, examined, pruned, best = answer
        cdef ml_task_result res
        res.found = bool(found)
        res.complete = bool(complete)
        res.length = int(length)
        res.examined = int(examined)
        res.pruned = int(pruned)
        b = np.zeros(max(1, self.L), dtype=np.uint8)
        b[:self.L] = np.asarray(best, dtype=np.uint8)[:self.L]
        cdef const uint8_t[::1] bv = b
        rc = ml_search_merge(NULL, self.q, <uint64_t>int(t), &res, &bv[0])
        _ml_ok(rc)

    @property
    def done(self):
        return bool(ml_search_done(self.q))

    def finish(self):
        """ml_search_finish: the answer as a CResult (proved when done)."""
        cdef ml_result *r = NULL
        rc = ml_search_finish(NULL, self.q, &r)
        _ml_ok(rc)
        cdef CResult out = CResult.__new__(CResult)
        out.r = r
        return out


    # -- many-coset searches
    def task_rows(self, t):
        """ml_search_task_rows: the rows of task t."""
        cdef uint64_t rows = 0
        rc = ml_search_task_rows(NULL, self.q, <uint64_t>int(t), &rows)
        _ml_ok(rc)
        return int(rows)

    def run_rows(self, t, taps=True):
        """ml_search_run_rows: (lengths int64 (rows,), least-length taps uint8 (rows, L)
        or None)."""
        rows = self.task_rows(t)
        lengths = np.zeros(max(1, rows), dtype=np.int64)
        best = np.zeros((max(1, rows), max(1, self.L)), dtype=np.uint8)
        cdef int64_t[::1] lv = lengths
        cdef uint8_t[:, ::1] bv = best
        cdef uint8_t *bp = &bv[0, 0] if taps else NULL
        cdef uint64_t ct = int(t)
        with nogil:
            rc = ml_search_run_rows(NULL, self.q, ct, &lv[0], bp)
        _ml_ok(rc)
        return lengths[:rows], (best[:rows, :self.L] if taps else None)

    def merge_rows(self, t, answer):
        """ml_search_merge_rows of a run_rows answer ((lengths, taps or None))."""
        lengths, taps = answer
        lengths = np.ascontiguousarray(lengths, dtype=np.int64).reshape(-1)
        n = lengths.shape[0]
        l1 = np.zeros(max(1, n), dtype=np.int64)
        l1[:n] = lengths
        cdef const int64_t[::1] lv = l1
        cdef const uint8_t[:, ::1] tv
        cdef const uint8_t *tp = NULL
        if taps is not None:
            t1 = np.zeros((max(1, n), max(1, self.L)), dtype=np.uint8)
            t1[:n, :self.L] = np.asarray(taps, dtype=np.uint8).reshape(n, self.L)
            if self.L == 0 or n == 0:
                t1 = np.zeros((max(1, n), 1), dtype=np.uint8)
            tv = t1
            tp = &tv[0, 0]
        rc = ml_search_merge_rows(NULL, self.q, <uint64_t>int(t), &lv[0], tp)
        _ml_ok(rc)

    def lengths(self, taps=True):
        """ml_search_lengths: (lengths int64 (k,), taps uint8 (k, ml_board_taps_size) or
        None)."""
        k, size = self.k, self.tsize
        lengths = np.zeros(max(1, k), dtype=np.int64)
        out = np.zeros(max(1, k * size), dtype=np.uint8)
        cdef int64_t[::1] lv = lengths
        cdef uint8_t[::1] ov = out
        rc = ml_search_lengths(NULL, self.q, &lv[0], &ov[0] if taps else NULL)
        _ml_ok(rc)
        return lengths[:k], (out[: k * size].reshape(k, size) if taps else None)

    def proven(self):
        """ml_search_proven: bool (k,)."""
        out = np.zeros(max(1, self.k), dtype=np.uint8)
        cdef uint8_t[::1] ov = out
        rc = ml_search_proven(NULL, self.q, &ov[0])
        _ml_ok(rc)
        return out[: self.k].astype(bool)


def capi_search_many(CSolver s, states, target=0):
    """ml_solver_search_many: the split search of the cosets of a (k, *shape) stack of
    states (to `target`); one task until split."""
    st = s._states(states)
    keep = []
    cdef ml_target t
    s._target(target, &t, keep)
    cdef size_t k = st.shape[0]
    cdef const uint8_t[:, ::1] sv = st if st.size else np.zeros((1, 1), np.uint8)
    cdef ml_search *q = NULL
    with nogil:
        rc = ml_solver_search_many(NULL, s.s, k, &sv[0, 0], t, &q)
    _ml_ok(rc)
    cdef CSearch out = CSearch.__new__(CSearch)
    out.q = q
    out.L = ml_board_n_taps(ml_solver_board(s.s))
    out.k = k
    out.tsize = ml_board_taps_size(ml_solver_board(s.s))
    return out


def search_rows_task(data, t, taps=True):
    """A worker's part of a many-coset split search: import `data` (CSearch.export), run
    task t; the pair CSearch.run_rows returns (picklable: executor tasks)."""
    return CSearch.from_bytes(data).run_rows(t, taps)


def capi_search(CSolver s, state, target=0):
    """ml_solver_search: the split search of the coset of `state` (to `target`)."""
    st = s._state(state)
    keep = []
    cdef ml_target t
    s._target(target, &t, keep)
    cdef const uint8_t[::1] sv = st if s.tiles else np.zeros(1, np.uint8)
    cdef ml_search *q = NULL
    with nogil:
        rc = ml_solver_search(NULL, s.s, &sv[0], t, &q)
    _ml_ok(rc)
    cdef CSearch out = CSearch.__new__(CSearch)
    out.q = q
    out.L = ml_board_n_taps(ml_solver_board(s.s))
    return out


def search_task(data, t, bound):
    """A worker's part of a split search: import `data` (CSearch.export), run task t with
    `bound`; the tuple CSearch.run returns (picklable: executor tasks)."""
    return CSearch.from_bytes(data).run(t, bound)


cdef int _progress_call(void *user, int phase, uint64_t done, uint64_t total) noexcept nogil:
    """ml_progress_fn of capi_solve_progress: on the caller's thread, with the GIL, the
    search phase's figures to box[0]; an exception it raises is kept in box[1] and stops
    the search (nonzero: ML_EINTERRUPTED)."""
    if phase != ML_PHASE_SEARCH:
        return 0
    with gil:
        box = <list>user
        try:
            box[0](int(done), int(total))
        except BaseException as e:
            box[1] = e
            return 1
    return 0


def capi_solve_progress(CSolver s, state, target, budget, progress):
    """ml_solver_solve (minimal, proof kept) on a context of its own whose progress
    callback calls ``progress(done, total)`` with the search's figures (coset elements;
    at most every 20 ms, on this thread: the transform search's chunks, the start and
    end of a walk as they fall). A CResult, or None when no taps reach the target; an
    exception ``progress`` raises stops the search and is raised here (the solver
    usable); other errors are the C library's (its message from this context)."""
    st = s._state(state)
    keep = []
    cdef ml_target t
    s._target(target, &t, keep)
    cdef const uint8_t[::1] sv = st if s.tiles else np.zeros(1, np.uint8)
    cdef ml_budget bud = _budget(budget)
    cdef ml_ctx *ctx = NULL
    if ml_ctx_new(&ctx) != ML_OK:
        raise MemoryError("ml_ctx_new: no memory for a context")
    box = [progress, None]
    ml_ctx_set_progress(ctx, _progress_call, <void *>box, 0)
    cdef ml_result *res = NULL
    cdef unsigned flags = ML_SOLVE_MINIMAL | ML_SOLVE_PROOF
    try:
        with nogil:
            rc = ml_solver_solve(ctx, s.s, &sv[0], t, flags, bud, &res)
        if box[1] is not None:
            _check_interrupt()
            raise box[1]
        if rc == ML_EUNSOLVABLE:
            _check_interrupt()
            return None
        if rc != ML_OK:
            _check_interrupt()
            msg = ml_errmsg(ctx).decode("utf-8", "replace")
            if rc == ML_EINTERRUPTED:
                raise KeyboardInterrupt(msg)
            if rc == ML_ENOMEM:
                raise MemoryError(msg)
            raise (ValueError if 0 < rc < ML_EINTERRUPTED else RuntimeError)(msg)
        _check_interrupt()
    finally:
        ml_ctx_free(ctx)
    cdef CResult out = CResult.__new__(CResult)
    out.r = res
    return out
