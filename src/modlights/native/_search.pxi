"""Bindings to the public C API's split search of one coset (csrc/include/modlights.h:
split searches; csrc/api/search.c): CSearch, an ml_search handle, capi_search and
search_task (a worker's part: import, run one task). Errors are the C library's statuses
and messages (_ml_raise). tests/native/test_capi_search.py drives it over executors and
compares it with modlights.Solver.solve(executor=...)."""


cdef class CSearch:
    """An ml_search handle (modlights.h: split searches); freed with the object. Use from
    one thread at a time (a worker thread makes its own copy with from_bytes)."""

    cdef ml_search *q
    cdef uint64_t L

    def __dealloc__(self):
        ml_search_free(self.q)
        self.q = NULL

    def split(self, want):
        """ml_search_split: about `want` tasks (at least one); the count made."""
        cdef uint64_t tasks = 0
        cdef uint64_t w = max(0, int(want))
        rc = ml_search_split(NULL, self.q, w, &tasks)
        if rc != ML_OK:
            _ml_raise(rc)
        return int(tasks)

    def bound(self, t):
        """ml_search_bound: the bound to give task t now."""
        cdef int64_t b = 0
        rc = ml_search_bound(NULL, self.q, <uint64_t>int(t), &b)
        if rc != ML_OK:
            _ml_raise(rc)
        return int(b)

    def export(self):
        """ml_search_export: the bytes a worker needs."""
        cdef size_t n = 0
        rc = ml_search_export(NULL, self.q, NULL, 0, &n)
        if rc != ML_OK:
            _ml_raise(rc)
        buf = bytearray(max(1, n))
        cdef uint8_t[::1] bv = buf
        rc = ml_search_export(NULL, self.q, &bv[0], n, &n)
        if rc != ML_OK:
            _ml_raise(rc)
        return bytes(buf[:n])

    @staticmethod
    def from_bytes(data):
        """ml_search_import: a worker's copy of an exported search."""
        data = bytes(data)
        cdef const uint8_t[::1] dv = data if data else b"\0"
        cdef ml_search *q = NULL
        rc = ml_search_import(NULL, &dv[0], len(data), &q)
        if rc != ML_OK:
            _ml_raise(rc)
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
        if rc != ML_OK:
            _ml_raise(rc)
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
        if rc != ML_OK:
            _ml_raise(rc)

    @property
    def done(self):
        return bool(ml_search_done(self.q))

    def finish(self):
        """ml_search_finish: the answer as a CResult (proved when done)."""
        cdef ml_result *r = NULL
        rc = ml_search_finish(NULL, self.q, &r)
        if rc != ML_OK:
            _ml_raise(rc)
        cdef CResult out = CResult.__new__(CResult)
        out.r = r
        return out


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
    if rc != ML_OK:
        _ml_raise(rc)
    cdef CSearch out = CSearch.__new__(CSearch)
    out.q = q
    out.L = ml_board_n_taps(ml_solver_board(s.s))
    return out


def search_task(data, t, bound):
    """A worker's part of a split search: import `data` (CSearch.export), run task t with
    `bound`; the tuple CSearch.run returns (picklable: executor tasks)."""
    return CSearch.from_bytes(data).run(t, bound)
