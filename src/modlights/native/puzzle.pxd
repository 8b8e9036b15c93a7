# Declarations of the measured puzzle layer of csrc/include/modlights.h (stats, the
# minimal solution, JSON, generate, daily: csrc/play/puzzle_measure.c, generate.c,
# daily.c), for modlights.native._core (_puzzle.pxi): declared here once, cimported there.
from libc.stdint cimport int64_t, uint32_t, uint64_t
from modlights.native.board cimport ml_board, ml_ctx, ml_grid, ml_puzzle
from modlights.native.solver cimport ml_result


cdef extern from "include/modlights.h":
    ctypedef struct ml_puzzle_stats:
        uint64_t min_taps
        int proven
        int difficulty
        uint64_t stars[3]
        uint64_t touched
        double score
    const char *ml_difficulty_name(int difficulty)
    int ml_puzzle_stats_get(ml_ctx *ctx, ml_puzzle *p, ml_puzzle_stats *out) nogil
    int ml_puzzle_solution(ml_ctx *ctx, ml_puzzle *p, const ml_result **out) nogil
    int ml_puzzle_to_json(ml_ctx *ctx, ml_puzzle *p, char *buf, size_t cap, size_t *len) nogil

    ctypedef struct ml_generate_opts:
        uint32_t size
        int64_t rows, cols
        int states
        const char *pattern
        const ml_grid *grid
        int difficulty
        int64_t locked, holes
        int wrap
        int unique
        uint64_t seed
        int seeded
    void ml_generate_opts_init(ml_generate_opts *opts) nogil
    int ml_generate(ml_ctx *ctx, const ml_generate_opts *opts, ml_puzzle **out) nogil
    int ml_daily(ml_ctx *ctx, int year, int month, int day, ml_puzzle *out[3]) nogil
