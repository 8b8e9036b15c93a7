# Puzzle handles of the public C API (csrc/play/puzzle.c), for testing the C library
# against modlights.Puzzle (tests/native/test_capi_puzzle.py): CPuzzle wraps an
# ml_puzzle; boards come and go as CBoard (_board.pxi).


cdef class CPuzzle:
    """An ml_puzzle handle (modlights.h: puzzles): a grid board and a start state."""

    cdef ml_puzzle *p

    def __dealloc__(self):
        ml_puzzle_free(self.p)
        self.p = NULL

    @staticmethod
    cdef CPuzzle _wrap(ml_puzzle *p):
        cdef CPuzzle o = CPuzzle.__new__(CPuzzle)
        o.p = p
        return o

    @staticmethod
    def new(CBoard board, start):
        """ml_puzzle_new: start a board-shaped array of bytes (reduced mod n there)."""
        cdef ml_puzzle *p = NULL
        s = np.ascontiguousarray(np.asarray(start, dtype=np.uint8)).reshape(-1)
        if s.size != ml_board_size(board.b):
            raise ValueError("start must have a byte a tile")
        cdef const uint8_t[::1] sv = s if s.size else np.zeros(1, np.uint8)
        rc = ml_puzzle_new(NULL, board.b, &sv[0], &p)
        _ml_ok(rc)
        return CPuzzle._wrap(p)

    @staticmethod
    def from_code(code):
        """ml_puzzle_from_code of a str (UTF-8, lone surrogates passed through)."""
        cdef ml_puzzle *p = NULL
        data = code.encode("utf-8", "surrogatepass")
        cdef const char *t = data
        rc = ml_puzzle_from_code(NULL, t, len(data), &p)
        _ml_ok(rc)
        return CPuzzle._wrap(p)

    @staticmethod
    def from_json(text, max_tiles=0):
        """ml_puzzle_from_json of a JSON text."""
        cdef ml_puzzle *p = NULL
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
        cdef const char *t = data
        rc = ml_puzzle_from_json(NULL, t, len(data), max_tiles, &p)
        _ml_ok(rc)
        return CPuzzle._wrap(p)

    @property
    def code(self):
        cdef const char *c = NULL
        rc = ml_puzzle_code(NULL, self.p, &c)
        _ml_ok(rc)
        return c.decode("ascii")

    @property
    def board(self):
        return CBoard._wrap(ml_board_retain(<ml_board *>ml_puzzle_board(self.p)))

    @property
    def start(self):
        cdef const ml_board *b = ml_puzzle_board(self.p)
        cdef size_t n = ml_board_size(b)
        cdef const uint8_t *s = ml_puzzle_start(self.p)
        out = np.frombuffer(bytes((<const char *>s)[:n]), dtype=np.uint8).copy()
        return out.reshape(ml_board_rows(b), ml_board_cols(b))

    @property
    def stats(self):
        """ml_puzzle_stats_get as a dict (min_taps, proven, difficulty, stars, touched,
        score); the C library's error as an exception."""
        cdef ml_puzzle_stats st
        with nogil:
            rc = ml_puzzle_stats_get(NULL, self.p, &st)
        _ml_ok(rc)
        return {
            "min_taps": int(st.min_taps),
            "proven": bool(st.proven),
            "difficulty": ml_difficulty_name(st.difficulty).decode("ascii"),
            "stars": {3: int(st.stars[0]), 2: int(st.stars[1]), 1: int(st.stars[2])},
            "touched": int(st.touched),
            "score": float(st.score),
        }

    @property
    def solution(self):
        """ml_puzzle_solution: (taps, a flat uint8 copy; length; proven; the result's
        JSON text)."""
        cdef const ml_result *r = NULL
        cdef size_t n = 0
        with nogil:
            rc = ml_puzzle_solution(NULL, self.p, &r)
        _ml_ok(rc)
        size = ml_board_taps_size(ml_result_board(r))
        taps = (np.asarray(<const uint8_t[:size]>ml_result_taps(r)).copy() if size
                else np.zeros(0, np.uint8))
        rc = ml_result_to_json(NULL, r, NULL, 0, &n)
        _ml_ok(rc)
        buf = bytearray(n + 1)
        cdef char *bp = buf
        rc = ml_result_to_json(NULL, r, bp, n + 1, &n)
        _ml_ok(rc)
        return (taps, int(ml_result_length(r)), bool(ml_result_proven_minimal(r)),
                bytes(buf[:n]).decode("utf-8"))

    def to_json(self):
        """ml_puzzle_to_json: Puzzle.to_dict() as JSON text."""
        cdef size_t n = 0
        with nogil:
            rc = ml_puzzle_to_json(NULL, self.p, NULL, 0, &n)
        _ml_ok(rc)
        buf = bytearray(n + 1)
        cdef char *bp = buf
        rc = ml_puzzle_to_json(NULL, self.p, bp, n + 1, &n)
        _ml_ok(rc)
        return bytes(buf[:n]).decode("utf-8")

    def __eq__(self, other):
        if not isinstance(other, CPuzzle):
            return NotImplemented
        return ml_puzzle_equal(self.p, (<CPuzzle>other).p) == 1


def capi_code_encode(CBoard board, start):
    """ml_code_encode: the puzzle code of a grid board and a start."""
    cdef size_t n = 0
    s = np.ascontiguousarray(np.asarray(start, dtype=np.uint8)).reshape(-1)
    cdef const uint8_t[::1] sv = s if s.size else np.zeros(1, np.uint8)
    rc = ml_code_encode(NULL, board.b, &sv[0], NULL, 0, &n)
    _ml_ok(rc)
    buf = bytearray(n + 1)
    cdef char *bp = buf
    rc = ml_code_encode(NULL, board.b, &sv[0], bp, n + 1, &n)
    _ml_ok(rc)
    return bytes(buf[:n]).decode("ascii")


cdef int _capi_seed(seed, ml_generate_opts *o) except -1:
    if seed is None:
        o.seeded = 0
        return 0
    if isinstance(seed, str):
        data = seed.encode("utf-8")
        o.seed = mlp.ml_seed_from_bytes(<const char *>data, len(data))
    else:
        o.seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    o.seeded = 1
    return 0


def capi_generate(rows=5, cols=5, states=2, pattern="cross", difficulty="medium", *,
                  locked=None, holes=None, wrap=False, unique=True, seed=None,
                  palette=None, index=None):
    """ml_generate with Python's arguments: a pattern name and counts go into the
    options; offsets, a mixed board (palette + index) or fixed positions (a boolean mask
    or (r, c) pairs) into an ml_grid (then the count of that kind is 0)."""
    cdef ml_generate_opts o
    cdef ml_grid *g = NULL
    cdef ml_puzzle *p = NULL
    cdef int d = 0
    cdef uint32_t at = 0
    cdef const uint32_t[::1] iv
    ml_generate_opts_init(&o)
    rc = mlp.ml_difficulty_lookup(NULL, difficulty.encode(), &d)
    _ml_ok(rc)
    o.difficulty = d
    o.rows, o.cols, o.states = rows, cols, states
    name = pattern.encode() if isinstance(pattern, str) else b"cross"
    o.pattern = name
    o.wrap = 1 if wrap else 0
    o.unique = 1 if unique else 0
    counts = [v is None or isinstance(v, int) for v in (locked, holes)]
    o.locked = -1 if locked is None else (locked if counts[0] else 0)
    o.holes = -1 if holes is None else (holes if counts[1] else 0)
    _capi_seed(seed, &o)
    try:
        if palette is not None or not isinstance(pattern, str) or not all(counts):
            rc = ml_grid_new(NULL, rows, cols, states, &g)
            _ml_ok(rc)
            if palette is not None:
                for q in palette:
                    _grid_offsets(g, q, 1, &at)
                ix = np.ascontiguousarray(np.asarray(index, dtype=np.uint32).reshape(-1))
                iv = ix
                rc = ml_grid_set_mixed(NULL, g, &iv[0])
                _ml_ok(rc)
            else:
                _grid_offsets(g, pattern, 0, NULL)
            if not counts[0]:
                _grid_mask(g, locked, 0, rows, cols, 0)
            if not counts[1]:
                _grid_mask(g, holes, 1, rows, cols, 0)
            o.grid = g
        with nogil:
            rc = ml_generate(NULL, &o, &p)
        _ml_ok(rc)
    finally:
        ml_grid_free(g)
    return CPuzzle._wrap(p)


def capi_daily(int year, int month, int day):
    """ml_daily: the day's three puzzles (easy, medium, hard) as CPuzzles."""
    cdef ml_puzzle *out[3]
    with nogil:
        rc = ml_daily(NULL, year, month, day, out)
    _ml_ok(rc)
    return tuple(CPuzzle._wrap(out[k]) for k in range(3))
