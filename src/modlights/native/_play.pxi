"""Bindings to the puzzle layer of the public C API (csrc/include/modlights.h, csrc/play):
SplitMix64 and its seeds, difficulty names, tap bands, stars and ISO dates.
modlights.play.prng and modlights.play.puzzles are the interfaces the rest of the package
uses. The C functions write their failures on the calling thread's default context
(ml_errmsg(NULL)); each becomes the exception Python raises for it, with the C
library's message (Python's text, from the message table)."""

cimport modlights.native.play as mlp
from libc.stdint cimport uint64_t
from cpython.mem cimport PyMem_Malloc, PyMem_Free

_U64 = (1 << 64) - 1
#: the difficulty names, in order (ml_difficulty_name)
DIFFICULTIES = tuple(mlp.ml_difficulty_name(i).decode("ascii")
                     for i in range(mlp.ML_DIFFICULTY_COUNT))


cdef _play_fail(int rc):
    """Raise the exception of status rc with the message of the thread's default context."""
    msg = mlp.ml_errmsg(NULL).decode("utf-8", "replace")
    if rc == mlp.ML_ENOMEM:
        raise MemoryError(msg)
    if rc == mlp.ML_EINTERRUPTED:
        raise KeyboardInterrupt(msg)
    if rc < mlp.ML_EINTERRUPTED:
        raise ValueError(msg)
    raise RuntimeError(msg)


cdef bytes _play_text(str s):
    """A str as the C functions read text: UTF-8, lone surrogates encoded as themselves
    ("surrogatepass") and a NUL as C0 80 (modified UTF-8), so the C side's repr() of it
    is Python's."""
    return s.encode("utf-8", "surrogatepass").replace(b"\0", b"\xc0\x80")


cdef uint64_t _play_u64(name, v) except? 0:
    """An int in 0..2**64 - 1 (ValueError naming ``name`` otherwise)."""
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise ValueError(f"{name} must be an int, got {type(v).__name__}")
    v = v.__index__()
    if not 0 <= v <= _U64:
        raise ValueError(f"{name} must be from 0 to 2**64 - 1, got {v}")
    return v


cdef class Prng:
    """SplitMix64 (csrc/play/prng.c: ml_prng): ``Prng(seed)`` with a seed in
    0..2**64 - 1. Its state is the 64-bit counter (``state``, readable and settable)."""

    cdef mlp.ml_prng g

    def __cinit__(self, seed=0):
        mlp.ml_prng_seed(&self.g, _play_u64("seed", seed))

    @property
    def state(self):
        """The generator's 64-bit state."""
        return self.g.state

    @state.setter
    def state(self, value):
        self.g.state = _play_u64("state", value)

    def next_u64(self):
        """The next 64-bit output (ml_prng_next)."""
        return mlp.ml_prng_next(&self.g)

    def below(self, n):
        """Uniform in [0, n) by rejection as Python's randbelow (ml_prng_below): n in
        1..2**64 - 1; n == 1 gives 0 without a draw."""
        cdef uint64_t c_n = _play_u64("n", n)
        if c_n == 0:
            raise ValueError("n must be from 1 to 2**64 - 1, got 0")
        return mlp.ml_prng_below(&self.g, c_n)

    def sample(self, n, k):
        """k distinct indices of 0..n-1 in random order, as Python's sample(range(n), k)
        draws them (ml_prng_sample); ValueError "cannot sample k of n items" when k > n."""
        cdef uint64_t c_n = _play_u64("n", n), c_k = _play_u64("k", k)
        if c_k > c_n:
            # the C check, before any allocation for k
            rc = mlp.ml_prng_sample(NULL, &self.g, c_n, c_k, NULL)
            _play_fail(rc)
        if c_k == 0:
            return []
        if c_k > (<uint64_t>1 << 60):
            raise MemoryError(f"cannot hold a sample of {c_k} items")
        cdef uint64_t *out = <uint64_t *>PyMem_Malloc(c_k * sizeof(uint64_t))
        if out == NULL:
            raise MemoryError(f"cannot hold a sample of {c_k} items")
        cdef int rc2
        try:
            rc2 = mlp.ml_prng_sample(NULL, &self.g, c_n, c_k, out)
            if rc2 != mlp.ML_OK:
                _play_fail(rc2)
            return [out[i] for i in range(c_k)]
        finally:
            PyMem_Free(out)


def seed_from_bytes(data):
    """The first 8 bytes of SHA-256(data), big-endian (ml_seed_from_bytes)."""
    cdef const unsigned char[::1] view = bytes(data)
    cdef size_t n = view.shape[0]
    return mlp.ml_seed_from_bytes(&view[0] if n else NULL, n)


def seed_random():
    """64 bits of the operating system's randomness (ml_seed_random)."""
    cdef uint64_t s = 0
    cdef int rc = mlp.ml_seed_random(NULL, &s)
    if rc != mlp.ML_OK:
        _play_fail(rc)
    return s


def difficulty_lookup(name):
    """The index of a difficulty name (ml_difficulty_lookup); ValueError with the C
    library's message for anything else (a value that is not a str formatted by the
    same template, with Python's repr)."""
    cdef int d = -1
    if not isinstance(name, str):
        raise ValueError(mlp.ml_msg_template(mlp.ML_M_DIFFICULTY).decode() % (repr(name),))
    cdef bytes b = _play_text(name)
    cdef int rc = mlp.ml_difficulty_lookup(NULL, b, &d)
    if rc != mlp.ML_OK:
        _play_fail(rc)
    return d


cdef int _play_states(states) except -1:
    if isinstance(states, bool) or not hasattr(states, "__index__") \
            or not 1 <= states.__index__() <= 2147483647:
        raise ValueError(f"states must be an int from 1 to 2**31 - 1, got {states!r}")
    return states.__index__()


cdef uint64_t _play_taps(v) except? 0:
    """A count of taps: negative counts as 0, as puzzles.py's max(0, n_taps)."""
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise ValueError(f"a count of taps must be an int, got {type(v).__name__}")
    v = v.__index__()
    if v > _U64:
        raise ValueError(f"a count of taps must be at most 2**64 - 1, got {v}")
    return max(0, v)


def tap_bands(n_taps, states):
    """((lo, hi) of easy, medium, hard, expert): ml_tap_bands (n_taps < 0 counts as 0)."""
    cdef uint64_t lo[4]
    cdef uint64_t hi[4]
    mlp.ml_tap_bands(_play_taps(n_taps), _play_states(states), lo, hi)
    return tuple((lo[i], hi[i]) for i in range(4))


def difficulty_of(min_taps, n_taps, states):
    """The index of the difficulty whose band holds min_taps (ml_difficulty_of;
    min_taps < 0 counts as 0, past 2**64 - 1 as 2**64 - 1: the same band)."""
    if isinstance(min_taps, bool) or not hasattr(min_taps, "__index__"):
        raise ValueError(f"min_taps must be an int, got {type(min_taps).__name__}")
    m = min_taps.__index__()
    cdef uint64_t c_m = min(max(0, m), _U64)
    return mlp.ml_difficulty_of(c_m, _play_taps(n_taps), _play_states(states))


def stars_limits(min_taps):
    """(3-star, 2-star, 1-star limits) of a minimum of min_taps taps (ml_stars_limits),
    min_taps in 0..2**63 - 1 (where the limits are exact)."""
    cdef uint64_t m = _play_u64("min_taps", min_taps)
    if m >> 63:
        raise ValueError(f"min_taps must be from 0 to 2**63 - 1, got {m}")
    cdef uint64_t lim[3]
    mlp.ml_stars_limits(m, lim)
    return (lim[0], lim[1], lim[2])


def stars_for_taps(limits, taps):
    """Stars for solving in taps taps under limits (3-star, 2-star, 1-star), each in
    0..2**64 - 2 (ml_stars_for_taps; taps < 0 counts as 0, past 2**64 - 1 as 2**64 - 1:
    the same stars)."""
    cdef uint64_t lim[3]
    for i in range(3):
        v = limits[i]
        if isinstance(v, bool) or not hasattr(v, "__index__") \
                or not 0 <= v.__index__() < _U64:
            raise ValueError(f"star limits must be ints from 0 to 2**64 - 2, got {v!r}")
        lim[i] = v.__index__()
    if isinstance(taps, bool) or not hasattr(taps, "__index__"):
        raise ValueError(f"taps must be an int, got {type(taps).__name__}")
    cdef uint64_t t = min(max(0, taps.__index__()), _U64)
    return mlp.ml_stars_for_taps(lim, t)


def date_parse(str text):
    """(year, month, day) of an ISO date "YYYY-MM-DD" as Python's daily() reads a str
    (ml_date_parse); ValueError with Python's message otherwise."""
    cdef bytes b = _play_text(text)
    cdef int y = 0, m = 0, d = 0
    cdef int rc = mlp.ml_date_parse(NULL, b, &y, &m, &d)
    if rc != mlp.ML_OK:
        _play_fail(rc)
    return (y, m, d)
