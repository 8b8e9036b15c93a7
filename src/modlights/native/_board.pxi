"""Bindings to the public C API's boards (csrc/include/modlights.h: big counts, patterns,
boards; csrc/api/board.c, grid.c, board_play.c, pattern.c, factored.c): CBoard, a handle
of an ml_board, and the pattern and count helpers. Errors are the C library's statuses
and messages (the thread's default context), raised as the header says: ValueError for
bad input, MemoryError, KeyboardInterrupt, RuntimeError for the rest. Every Python
Board holds one (model/board.py: its JSON, apply, press and indices are the C
board's); tests/native/test_capi_board.py checks it on its own."""

from cpython.buffer cimport PyBUF_FORMAT, PyBUF_WRITABLE
from cpython.ref cimport Py_DECREF, Py_INCREF
from libc.stdlib cimport free, malloc


#: The board limits of modlights.h (ML_MAX_*), by their Python names: model/validation.py
#: and model/patterns.py read them from here (the limits live in C once).
BOARD_LIMITS = {
    "MAX_STATES": ML_MAX_STATES,
    "MAX_SIDE": ML_MAX_SIDE,
    "MAX_TILES": ML_MAX_TILES,
    "MAX_DENSE": ML_MAX_DENSE,
    "MAX_REACH": ML_MAX_REACH,
    "MAX_OFFSETS": ML_MAX_OFFSETS,
}


#: The C library's words when no taps reach the target (ML_M_UNSOLVABLE): the message
#: of modlights.Unsolvable, read from the one table of messages.
UNSOLVABLE_MESSAGE = ml_msg_template(ML_M_UNSOLVABLE).decode()


def _ml_raise(int rc):
    """The exception of a failed C API call (its message from the thread's context)."""
    msg = ml_errmsg(NULL).decode("utf-8", "replace")
    if rc == ML_EINTERRUPTED:
        raise KeyboardInterrupt(msg)
    if rc == ML_ENOMEM:
        raise MemoryError(msg)
    if 0 < rc < ML_EINTERRUPTED:
        raise ValueError(msg)
    raise RuntimeError(msg)


cdef int _ml_ok(int rc) except -1:
    """After a C API call: the Ctrl-C the interrupt hook took during it raised first (its
    KeyboardInterrupt is set on this thread even when the call itself finished), then
    the exception of a failed call (_ml_raise); 0 otherwise."""
    _check_interrupt()
    if rc != ML_OK:
        _ml_raise(rc)
    return 0


cdef extern from "api/ctx.h":
    int ml__fail(ml_ctx *ctx, int id, ...)
    int ML_M_CELL_INDEX_MAX


def capi_cell_index_max(v):
    """Raises the C library's ValueError for a cell index v (an int) past what a board
    holds (ML_M_CELL_INDEX_MAX: Board.from_effects' rule for integer arrays wider than
    int32, model/board_args.py), in the table's words."""
    cdef long long c_v
    if -(1 << 63) <= v < (1 << 63):
        c_v = v
        _ml_raise(ml__fail(NULL, ML_M_CELL_INDEX_MAX, c_v, <long long>ML_MAX_TILES))
    # past int64 (a uint64 array): the table's template with the digits
    text = ml_msg_template(ML_M_CELL_INDEX_MAX).decode()
    raise ValueError(text.replace("%lld", str(v), 1).replace("%lld", str(ML_MAX_TILES), 1))


def capi_errmsg_name():
    """The message id's name (ML_M_...) of the thread's last C API failure."""
    return ml_msg_name(ml_errmsg_id(NULL)).decode()


cdef int _fact(primes, exps, ml_factored *f) except -1:
    if len(primes) != len(exps) or len(primes) > 4:
        raise ValueError("primes and exps: one exponent a prime, at most 4")
    f.count = len(primes)
    for i in range(len(primes)):
        f.prime[i] = primes[i]
        f.exp[i] = exps[i]
    return 0


def capi_factored(primes, exps):
    """(u64 value or None past 64 bits, log2, decimal text) of prod p ** e."""
    cdef ml_factored f
    _fact(primes, exps, &f)
    cdef uint64_t v = 0
    cdef size_t length = 0
    rc = ml_factored_u64(NULL, &f, &v)
    if rc != ML_OK and rc != 2:
        _ml_raise(rc)
    value = int(v) if rc == ML_OK else None
    log2 = ml_factored_log2(&f)
    rc2 = ml_factored_decimal(NULL, &f, NULL, 0, &length)
    if rc2 != ML_OK:
        _ml_raise(rc2)
    cdef char *buf = <char *>malloc(length + 1)
    if buf == NULL:
        raise MemoryError("capi_factored")
    try:
        rc2 = ml_factored_decimal(NULL, &f, buf, length + 1, &length)
        if rc2 != ML_OK:
            _ml_raise(rc2)
        text = buf[:length].decode()
    finally:
        free(buf)
    return value, log2, text


def capi_pattern_lookup(name):
    """The id of a pattern name (ValueError with Python's message otherwise)."""
    cdef int pid = -1
    b = name.encode()
    rc = ml_pattern_lookup(NULL, b, &pid)
    _ml_ok(rc)
    return pid


def capi_pattern(pid):
    """(name, offsets) of a pattern id (None, ()) for others."""
    cdef int32_t dr[16]
    cdef int32_t dc[16]
    cdef const char *name = ml_pattern_name(pid)
    k = ml_pattern_offsets(pid, dr, dc, 16)
    return (None if name == NULL else name.decode()), tuple((dr[i], dc[i]) for i in range(k))


cdef int _grid_offsets(ml_grid *g, pattern, int palette, uint32_t *index) except -1:
    """Set (palette = 0) or add to the palette a name or a list of (dr, dc)."""
    cdef int pid = 0
    cdef int rc
    if isinstance(pattern, str):
        if not palette:
            rc = ml_grid_set_pattern_name(NULL, g, pattern.encode())
        else:
            rc = ml_pattern_lookup(NULL, pattern.encode(), &pid)
            if rc == ML_OK:
                rc = ml_grid_palette_add(NULL, g, pid, index)
        _ml_ok(rc)
        return 0
    offs = np.asarray(list(pattern), dtype=np.int64).reshape(-1, 2)
    dr = np.ascontiguousarray(offs[:, 0])
    dc = np.ascontiguousarray(offs[:, 1])
    cdef int64_t[::1] drv = dr
    cdef int64_t[::1] dcv = dc
    cdef size_t k = dr.shape[0]
    cdef const int64_t *pr = &drv[0] if k else NULL
    cdef const int64_t *pc = &dcv[0] if k else NULL
    if not palette:
        rc = ml_grid_set_offsets(NULL, g, k, pr, pc)
    else:
        rc = ml_grid_palette_add_offsets(NULL, g, k, pr, pc, index)
    _ml_ok(rc)
    return 0


cdef void _release_array(void *arg) noexcept nogil:
    """ml_grid_share_*'s release: the reference _grid_mask took on the mask's array."""
    with gil:
        Py_DECREF(<object>arg)


cdef int _grid_mask(ml_grid *g, spec, int holes, int64_t rows, int64_t cols,
                    int share) except -1:
    """Locked tiles or holes: a boolean (rows, cols) mask or a list of (r, c). A boolean
    mask is copied, or with share read in place by the C grid and its boards
    (ml_grid_share_*: its bytes, no copy when contiguous), which hold a reference to it
    until they are freed: it must not change then (a Board's masks never do)."""
    cdef int rc = ML_OK
    cdef const uint8_t[::1] mv
    if spec is None:
        return 0
    a = np.asarray(spec)
    if a.dtype == bool:
        m = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
        if m.shape[0] != rows * cols:
            raise ValueError("mask shape")
        mv = m
        if not share:
            rc = ml_grid_set_holes(NULL, g, &mv[0]) if holes else ml_grid_set_locked(NULL, g, &mv[0])
            _ml_ok(rc)
            return 0
        Py_INCREF(m)
        if holes:
            rc = ml_grid_share_holes(NULL, g, &mv[0], _release_array, <void *>m)
        else:
            rc = ml_grid_share_locked(NULL, g, &mv[0], _release_array, <void *>m)
        if rc != ML_OK:
            Py_DECREF(m)
    else:
        for r, c in spec:
            rc = ml_grid_hole(NULL, g, r, c) if holes else ml_grid_lock(NULL, g, r, c)
            if rc != ML_OK:
                break
    _ml_ok(rc)
    return 0


cdef extern from "api/board_json.h":
    # the constructors' reader of board documents (as the WebAssembly layer's
    # mlx_grid_from_json): Board.grid's checks and messages, the grid described, not built;
    # masks given beside the document flagged by ML__SHARED_LOCKED / _HOLES
    unsigned ML__SHARED_LOCKED, ML__SHARED_HOLES
    int ml__grid_from_json_shared(ml_ctx *ctx, const char *json, size_t len, unsigned shared,
                                  ml_grid **out) nogil
    # ml_board_from_json in the constructors' words (Board.from_effects' messages)
    int ml__board_from_json_words(ml_ctx *ctx, const char *json, size_t len,
                                  ml_board **out) nogil


cdef extern from "api/board.h":
    # a grid board's locked / holes bytes (NULL when none), living as long as the board
    const uint8_t *ml__board_mask(const ml_board *b, int holes)
    # the per-tile refusal of giant boards, the cells' and taps' flat positions (NULL:
    # every tile is one), A in coordinate form
    int ml__board_per_tile(ml_ctx *ctx, const ml_board *b, const char *what,
                           int bytes_per_tile)
    int ml__board_cells(ml_ctx *ctx, const ml_board *b, const char *fn,
                        const uint32_t **cf) nogil
    int ml__board_taps(ml_ctx *ctx, const ml_board *b, const char *fn,
                       const uint32_t **tf) nogil
    int ml__board_coo(ml_ctx *ctx, const ml_board *b, int64_t *ci, int64_t *tj, size_t cap,
                      size_t *nnz) nogil


cdef class _BoardBytes:
    """The bytes of a C board's mask as a read-only buffer that keeps the board alive
    (np.frombuffer over it: the Python Board's masks read in place)."""

    cdef object owner
    cdef const uint8_t *p
    cdef Py_ssize_t n
    cdef Py_ssize_t shape[1]
    cdef Py_ssize_t strides[1]

    def __getbuffer__(self, Py_buffer *buf, int flags):
        if flags & PyBUF_WRITABLE:
            raise BufferError("a board's mask is read-only")
        self.shape[0] = self.n
        self.strides[0] = 1
        buf.buf = <void *>self.p
        buf.obj = self
        buf.len = self.n
        buf.readonly = 1
        buf.itemsize = 1
        if flags & PyBUF_FORMAT:
            buf.format = b"B"
        else:
            buf.format = NULL
        buf.ndim = 1
        buf.shape = self.shape
        buf.strides = self.strides
        buf.suboffsets = NULL
        buf.internal = NULL

    def __releasebuffer__(self, Py_buffer *buf):
        pass


cdef class CBoard:
    """An ml_board handle (modlights.h: boards). Immutable; freed with the object."""

    cdef ml_board *b

    def __dealloc__(self):
        ml_board_free(self.b)
        self.b = NULL

    @staticmethod
    cdef CBoard _wrap(ml_board *b):
        cdef CBoard o = CBoard.__new__(CBoard)
        o.b = b
        return o

    @staticmethod
    def grid(rows, cols, states=2, pattern="cross", *, palette=None, index=None, locked=None,
             holes=None, wrap=False, share_masks=False):
        """ml_grid_new ... ml_grid_build: pattern a name or (dr, dc) pairs; a mixed board
        gives palette (a list of such) and index ((rows, cols) palette entries). Boolean
        masks are copied, or with share_masks read in place for the board's life (the
        caller promises they never change: ml_grid_share_locked / _holes)."""
        cdef ml_grid *g = NULL
        cdef ml_board *b = NULL
        cdef uint32_t at = 0
        cdef const uint32_t[::1] iv
        rc = ml_grid_new(NULL, rows, cols, states, &g)
        _ml_ok(rc)
        try:
            if palette is not None:
                for p in palette:
                    _grid_offsets(g, p, 1, &at)
                ix = np.ascontiguousarray(np.asarray(index, dtype=np.uint32).reshape(-1))
                if ix.shape[0] != rows * cols:
                    raise ValueError("index shape")
                iv = ix
                rc = ml_grid_set_mixed(NULL, g, &iv[0])
                _ml_ok(rc)
            else:
                _grid_offsets(g, pattern, 0, NULL)
            rc = ml_grid_set_wrap(NULL, g, 1 if wrap else 0)
            _ml_ok(rc)
            _grid_mask(g, locked, 0, rows, cols, 1 if share_masks else 0)
            _grid_mask(g, holes, 1, rows, cols, 1 if share_masks else 0)
            with nogil:
                rc = ml_grid_build(NULL, g, &b)
            _ml_ok(rc)
        finally:
            ml_grid_free(g)
        return CBoard._wrap(b)

    @staticmethod
    def grid_words(text, int64_t rows, int64_t cols, locked=None, holes=None):
        """Board.grid of a grid document in the constructors' words
        (ml__grid_from_json_shared: rows, cols, states, pattern, wrap, and locked / holes
        as positions or nested booleans, checked in Board.grid's order with its messages),
        with ``locked`` / ``holes`` given beside it: None, or a C-contiguous (rows, cols)
        bool array marking some tile (the document then has no such field) that the C
        board reads in place for its life (ml_grid_share_*: it must never change); then
        built (ml_grid_build)."""
        cdef ml_grid *g = NULL
        cdef ml_board *b = NULL
        data = text.encode("utf-8", "surrogatepass")
        cdef const char *p = data
        cdef size_t n = len(data)
        cdef unsigned shared = (ML__SHARED_LOCKED if locked is not None else 0) | \
            (ML__SHARED_HOLES if holes is not None else 0)
        with nogil:
            rc = ml__grid_from_json_shared(NULL, p, n, shared, &g)
        _ml_ok(rc)
        try:
            _grid_mask(g, locked, 0, rows, cols, 1)
            _grid_mask(g, holes, 1, rows, cols, 1)
            with nogil:
                rc = ml_grid_build(NULL, g, &b)
            _ml_ok(rc)
        finally:
            ml_grid_free(g)
        return CBoard._wrap(b)

    @staticmethod
    def from_json_words(text):
        """ml_board_from_json in the constructors' words (ml__board_from_json_words: a graph
        document with Board.from_effects' checks, order and messages)."""
        cdef ml_board *b = NULL
        data = text.encode("utf-8", "surrogatepass")
        cdef const char *p = data
        cdef size_t n = len(data)
        with nogil:
            rc = ml__board_from_json_words(NULL, p, n, &b)
        _ml_ok(rc)
        return CBoard._wrap(b)

    @staticmethod
    def from_effects(effects, states, n_cells=None):
        """ml_board_from_effects of lists of cell indices."""
        cdef ml_board *b = NULL
        lengths = [len(e) for e in effects]
        indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
        if lengths:
            indptr[1:] = np.cumsum(lengths)
        flat = [int(c) for e in effects for c in e]
        cells = np.asarray(flat if flat else [0], dtype=np.int64)
        cdef const int64_t[::1] ip = indptr
        cdef const int64_t[::1] cv = cells
        rc = ml_board_from_effects(NULL, states, -1 if n_cells is None else n_cells,
                                   len(lengths), &ip[0], &cv[0], &b)
        _ml_ok(rc)
        return CBoard._wrap(b)

    @staticmethod
    def from_csc(states, n_cells, indptr, cells):
        """ml_board_from_effects of the effects in column form: tap j advances
        cells[indptr[j]:indptr[j + 1]] (integer arrays, read as int64; n_cells None: one
        more than the largest cell). O(entries)."""
        cdef ml_board *b = NULL
        ip_a = np.ascontiguousarray(indptr, dtype=np.int64)
        cv_a = np.ascontiguousarray(cells, dtype=np.int64)
        if cv_a.shape[0] == 0:
            cv_a = np.zeros(1, np.int64)
        cdef const int64_t[::1] ip = ip_a
        cdef const int64_t[::1] cv = cv_a
        cdef int c_states = states
        cdef int64_t m = -1 if n_cells is None else n_cells
        cdef size_t r = ip_a.shape[0] - 1
        with nogil:
            rc = ml_board_from_effects(NULL, c_states, m, r, &ip[0], &cv[0], &b)
        _ml_ok(rc)
        return CBoard._wrap(b)

    @staticmethod
    def from_matrix(a, states, share=False):
        """ml_board_from_matrix of a 2-D array of bytes; share=True: ml_board_share_matrix,
        the C board reading a C-contiguous uint8 array in place (the board keeps a
        reference to it; the array must not change while the board lives)."""
        cdef ml_board *b = NULL
        A = np.ascontiguousarray(np.asarray(a, dtype=np.uint8))
        if A.ndim != 2:
            raise ValueError("a must be 2-D")
        cdef const uint8_t[:, ::1] Av = A if A.size else np.zeros((1, 1), np.uint8)
        if share and A.size:
            Py_INCREF(A)
            rc = ml_board_share_matrix(NULL, states, A.shape[0], A.shape[1], &Av[0, 0],
                                       _release_array, <void *>A, &b)
            if rc != ML_OK:
                Py_DECREF(A)
        else:
            rc = ml_board_from_matrix(NULL, states, A.shape[0], A.shape[1], &Av[0, 0],
                                      A.shape[1], &b)
        _ml_ok(rc)
        return CBoard._wrap(b)

    @staticmethod
    def from_json(text, max_tiles=0):
        """ml_board_from_json of a JSON text (str: encoded as UTF-8 with surrogates
        passed through, as json.loads reads lone surrogate escapes; or bytes)."""
        cdef ml_board *b = NULL
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
        cdef const char *p = data
        cdef size_t n = len(data)
        cdef int64_t limit = max_tiles
        with nogil:
            rc = ml_board_from_json(NULL, p, n, limit, &b)
        _ml_ok(rc)
        return CBoard._wrap(b)

    def to_json(self):
        """ml_board_to_json: the board as JSON text (str)."""
        cdef size_t n = 0
        rc = ml_board_to_json(NULL, self.b, NULL, 0, &n)
        _ml_ok(rc)
        cdef char *buf = <char *>malloc(n + 1)
        if buf == NULL:
            raise MemoryError()
        try:
            with nogil:
                rc = ml_board_to_json(NULL, self.b, buf, n + 1, &n)
            _ml_ok(rc)
            return buf[:n].decode("ascii")
        finally:
            free(buf)

    # -------------------------------------------------------------- properties
    @property
    def kind(self):
        return "grid" if ml_board_kind(self.b) == ML_BOARD_GRID else "graph"

    @property
    def states(self):
        return ml_board_states(self.b)

    @property
    def shape(self):
        if ml_board_kind(self.b) == ML_BOARD_GRID:
            return (ml_board_rows(self.b), ml_board_cols(self.b))
        return (ml_board_rows(self.b),)

    @property
    def n_cells(self):
        return ml_board_n_cells(self.b)

    @property
    def n_taps(self):
        return ml_board_n_taps(self.b)

    @property
    def size(self):
        return ml_board_size(self.b)

    @property
    def taps_size(self):
        return ml_board_taps_size(self.b)

    @property
    def wrap(self):
        return bool(ml_board_wrap(self.b))

    @property
    def is_mixed(self):
        return bool(ml_board_is_mixed(self.b))

    @property
    def is_giant(self):
        return bool(ml_board_is_giant(self.b))

    @property
    def any_locked(self):
        return bool(ml_board_any_locked(self.b))

    @property
    def any_holes(self):
        return bool(ml_board_any_holes(self.b))

    def __eq__(self, other):
        return isinstance(other, CBoard) and bool(ml_board_equal(self.b, (<CBoard>other).b))

    def __hash__(self):
        return <Py_ssize_t>(ml_board_hash(self.b) >> 2)

    # -------------------------------------------------------------- geometry
    def pattern(self):
        """The offsets of a uniform grid (ml_board_pattern)."""
        cdef size_t k = 0
        cdef int32_t dr[4096]
        cdef int32_t dc[4096]
        rc = ml_board_pattern(NULL, self.b, &k, dr, dc, 4096)
        _ml_ok(rc)
        return tuple((dr[i], dc[i]) for i in range(k))

    def tile_pattern(self, r, c):
        cdef size_t k = 0
        cdef int32_t dr[4096]
        cdef int32_t dc[4096]
        rc = ml_board_tile_pattern(NULL, self.b, r, c, &k, dr, dc, 4096)
        _ml_ok(rc)
        return tuple((dr[i], dc[i]) for i in range(k))

    def _mask(self, int holes):
        size = ml_board_size(self.b) if not ml_board_is_giant(self.b) else 0
        out = np.zeros(max(size, 1), dtype=np.uint8)
        cdef uint8_t[::1] ov = out
        rc = ml_board_holes_mask(NULL, self.b, &ov[0]) if holes else \
            ml_board_locked_mask(NULL, self.b, &ov[0])
        _ml_ok(rc)
        return out[:size].reshape(self.shape).astype(bool)

    def locked_mask(self):
        return self._mask(0)

    def per_tile(self, what, int bytes_per_tile=1):
        """ValueError (ML_M_GIANT_PER_TILE) when the board is giant: ``what`` would need
        ``bytes_per_tile`` bytes a tile; None otherwise (ml__board_per_tile)."""
        data = what.encode()
        _ml_ok(ml__board_per_tile(NULL, self.b, data, bytes_per_tile))

    def _flats(self, int taps):
        cdef const uint32_t *f = NULL
        cdef uint64_t k = ml_board_n_taps(self.b) if taps else ml_board_n_cells(self.b)
        with nogil:
            if taps:
                rc = ml__board_taps(NULL, self.b, "Board.taps", &f)
            else:
                rc = ml__board_cells(NULL, self.b, "Board.cells", &f)
        _ml_ok(rc)
        if f == NULL or k == 0:
            return np.arange(k, dtype=np.int64)
        out = np.empty(k, dtype=np.int64)
        cdef int64_t[::1] ov = out
        cdef uint64_t i
        with nogil:
            for i in range(k):
                ov[i] = f[i]
        return out

    def cell_flats(self):
        """The flat (row-major) positions of the cells, ascending: int64 (the C board's
        own, made on first need: ml__board_cells; 0..n_cells-1 when every tile is one)."""
        return self._flats(0)

    def tap_flats(self):
        """The flat positions of the taps, ascending, as cell_flats (ml__board_taps)."""
        return self._flats(1)

    def coo(self):
        """A in coordinate form: (ci, tj) int64, tap by tap, a cell once a unit of effect
        (ml__board_coo; ValueError on a giant board)."""
        cdef size_t nnz = 0, got = 0
        with nogil:
            rc = ml__board_coo(NULL, self.b, NULL, NULL, 0, &nnz)
        _ml_ok(rc)
        ci = np.empty(max(nnz, 1), dtype=np.int64)
        tj = np.empty(max(nnz, 1), dtype=np.int64)
        cdef int64_t[::1] cv = ci
        cdef int64_t[::1] tv = tj
        with nogil:
            rc = ml__board_coo(NULL, self.b, &cv[0], &tv[0], nnz, &got)
        _ml_ok(rc)
        return ci[:nnz], tj[:nnz]

    def mask_view(self, int holes):
        """The board's own locked (holes: 0) or holes (1) mask: a read-only (rows, cols)
        bool array over the C board's bytes (it keeps the board alive; no copy), None when
        no tile is locked / a hole."""
        cdef const uint8_t *m = ml__board_mask(self.b, holes)
        if m == NULL:
            return None
        cdef _BoardBytes o = _BoardBytes.__new__(_BoardBytes)
        o.owner = self
        o.p = m
        o.n = <Py_ssize_t>ml_board_size(self.b)
        return np.frombuffer(o, dtype=np.bool_).reshape(self.shape)

    def holes_mask(self):
        return self._mask(1)

    def tap_index(self, r, c=0):
        cdef uint64_t j = 0
        rc = ml_board_tap_index(NULL, self.b, r, c, &j)
        _ml_ok(rc)
        return j

    def cell_index(self, r, c=0):
        cdef uint64_t i = 0
        rc = ml_board_cell_index(NULL, self.b, r, c, &i)
        _ml_ok(rc)
        return i

    def tap_position(self, j):
        cdef int64_t r = 0, c = 0
        rc = ml_board_tap_position(NULL, self.b, j, &r, &c)
        _ml_ok(rc)
        return (r, c)

    def cell_position(self, i):
        cdef int64_t r = 0, c = 0
        rc = ml_board_cell_position(NULL, self.b, i, &r, &c)
        _ml_ok(rc)
        return (r, c)

    def matrix(self):
        """A (n_cells, n_taps) uint8 (ml_board_matrix)."""
        cdef uint64_t m = ml_board_n_cells(self.b), r = ml_board_n_taps(self.b)
        if m * r > (1 << 32) or m > (1 << 32) or r > (1 << 32):
            out = np.zeros((1, 1), dtype=np.uint8)
        else:
            out = np.zeros((int(m), int(r)) if m * r else (1, 1), dtype=np.uint8)
        cdef uint8_t[:, ::1] ov = out
        with nogil:
            rc = ml_board_matrix(NULL, self.b, &ov[0, 0], r)
        _ml_ok(rc)
        return out[:m, :r] if m * r else np.zeros((m, r), dtype=np.uint8)

    def effect(self, j):
        cdef size_t k = 0
        rc = ml_board_effect(NULL, self.b, j, &k, NULL, 0)
        _ml_ok(rc)
        cells = np.zeros(max(k, 1), dtype=np.int64)
        cdef int64_t[::1] cv = cells
        rc = ml_board_effect(NULL, self.b, j, &k, &cv[0], k)
        _ml_ok(rc)
        return [int(c) for c in cells[:k]]

    # -------------------------------------------------------------- playing
    def _bytes(self, a, size, what):
        a = np.ascontiguousarray(np.asarray(a, dtype=np.uint8).reshape(-1))
        if a.shape[0] != size:
            raise ValueError(f"{what} has {a.shape[0]} entries, the board needs {size}")
        return a if size else np.zeros(1, np.uint8)

    def _out(self, out, size):
        """The output bytes: a new array, or ``out`` (C-contiguous uint8 of size bytes,
        written in place; it may be the state)."""
        if out is None or size == 0:
            return np.empty(max(size, 1), dtype=np.uint8)
        if not (isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.size == size
                and out.flags.c_contiguous and out.flags.writeable):
            raise ValueError(f"out must be a writable C-contiguous uint8 array of {size} bytes")
        return out.reshape(-1)

    def apply(self, state, taps, out=None):
        """state + A taps (mod n), board-shaped uint8 (ml_board_apply); written to
        ``out`` when given (see _out)."""
        giant = ml_board_is_giant(self.b)
        size = ml_board_size(self.b) if not giant else 0
        s = self._bytes(state, size, "state")
        x = self._bytes(taps, ml_board_taps_size(self.b) if not giant else 0, "taps")
        out = self._out(out, size)
        cdef const uint8_t[::1] sv = s
        cdef const uint8_t[::1] xv = x
        cdef uint8_t[::1] ov = out
        with nogil:
            rc = ml_board_apply(NULL, self.b, &sv[0], &xv[0], &ov[0])
        _ml_ok(rc)
        return out[:size].reshape(self.shape)

    def press(self, state, r, c=0, times=1, out=None):
        """The state after tapping (r, c) times times (ml_board_press); written to
        ``out`` when given (see _out)."""
        size = ml_board_size(self.b) if not ml_board_is_giant(self.b) else 0
        s = self._bytes(state, size, "state")
        out = self._out(out, size)
        cdef const uint8_t[::1] sv = s
        cdef uint8_t[::1] ov = out
        rc = ml_board_press(NULL, self.b, &sv[0], r, c, times, &ov[0])
        _ml_ok(rc)
        return out[:size].reshape(self.shape)

    def random_state(self, seed, solvable=True):
        """A random state from SplitMix64(seed) (ml_board_random_state)."""
        size = ml_board_size(self.b) if not ml_board_is_giant(self.b) else 0
        out = np.zeros(max(size, 1), dtype=np.uint8)
        cdef uint8_t[::1] ov = out
        cdef uint64_t c_seed = seed & ((1 << 64) - 1)
        cdef int c_solvable = 1 if solvable else 0
        with nogil:
            rc = ml_board_random_state(NULL, self.b, c_seed, c_solvable, &ov[0])
        _ml_ok(rc)
        return out[:size].reshape(self.shape)
