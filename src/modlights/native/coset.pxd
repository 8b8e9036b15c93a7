# Declarations of csrc/search/coset.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int64_t, uint32_t, uint64_t, uint8_t


cdef extern from "search/coset.h":
    ctypedef struct ml_coset_stats:
        uint64_t examined
        uint64_t pruned
        int complete
    int64_t ml_coset_min_gf2(const uint64_t *x0, const uint64_t *basis, size_t k, size_t nw,
                             uint64_t budget, double seconds, int threads,
                             uint64_t *best, ml_coset_stats *st) nogil
    int64_t ml_coset_min_zn(const uint8_t *x0, const uint8_t *gens, const uint32_t *orders,
                            size_t k, size_t r, unsigned n, uint64_t budget, double seconds,
                            int threads, uint8_t *best, ml_coset_stats *st) nogil
