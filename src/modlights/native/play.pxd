# Declarations of the puzzle layer of csrc/include/modlights.h (the public C API: the PRNG,
# seeds, difficulty names, tap bands, stars, dates) and of the error slot the bindings
# read, for modlights.native._core (_play.pxi): declared here once, cimported there.
from libc.stdint cimport uint64_t


cdef extern from "include/modlights.h" nogil:
    ctypedef struct ml_ctx:
        pass
    enum:
        ML_OK
        ML_EINTERRUPTED
        ML_ENOMEM
        ML_DIFFICULTY_COUNT
        ML_M_DIFFICULTY
    int ml_errcode(const ml_ctx *ctx)
    const char *ml_errmsg(const ml_ctx *ctx)
    const char *ml_msg_template(int id)

    ctypedef struct ml_prng:
        uint64_t state
    void ml_prng_seed(ml_prng *g, uint64_t seed)
    uint64_t ml_seed_from_bytes(const void *data, size_t len)
    int ml_seed_random(ml_ctx *ctx, uint64_t *seed)
    uint64_t ml_prng_next(ml_prng *g)
    uint64_t ml_prng_below(ml_prng *g, uint64_t n)
    int ml_prng_sample(ml_ctx *ctx, ml_prng *g, uint64_t n, uint64_t k, uint64_t *out)

    const char *ml_difficulty_name(int difficulty)
    int ml_difficulty_lookup(ml_ctx *ctx, const char *name, int *difficulty)
    void ml_tap_bands(uint64_t n_taps, int states, uint64_t lo[4], uint64_t hi[4])
    int ml_difficulty_of(uint64_t min_taps, uint64_t n_taps, int states)
    void ml_stars_limits(uint64_t min_taps, uint64_t limits[3])
    int ml_stars_for_taps(const uint64_t limits[3], uint64_t taps)

    int ml_date_parse(ml_ctx *ctx, const char *text, int *year, int *month, int *day)
