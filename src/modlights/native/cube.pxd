# Declarations of csrc/search/cube.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int64_t, uint32_t, uint64_t, uint8_t


cdef extern from "search/cube.h":
    enum:
        ML_CUBE_MAX_TAPS
        ML_CUBE_MAX_LOW
    ctypedef struct ml_cube_gf2:
        size_t n_taps
        unsigned m
        unsigned kh
        const uint32_t *col
        const uint8_t *y0
        const uint32_t *sup_start
        const uint32_t *sup_idx
        unsigned ng
        const uint64_t *sym_mat
        const uint64_t *sym_shift
    ctypedef struct ml_cube_stats:
        uint64_t leaves
        uint64_t skipped
        uint64_t corners
        int complete
    int64_t ml_cube_min_gf2(const ml_cube_gf2 *P, unsigned top, const uint64_t *corners,
                            size_t ncorners, int64_t bound, double seconds, int threads,
                            uint64_t *best_high, uint32_t *best_low,
                            ml_cube_stats *st) nogil
    int64_t ml_cube_leaf_gf2(const ml_cube_gf2 *P, uint64_t high, uint32_t *arg) nogil
