# Declarations of csrc/search/coset_batch.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int64_t, uint32_t, uint64_t, uint8_t
from modlights.native.coset cimport ml_coset_stats


cdef extern from "search/coset_batch.h":
    int ml_coset_min_gf2_many(const uint64_t *X0, size_t m, size_t xs, size_t r,
                              const uint64_t *basis, size_t k, int threads,
                              int64_t *len, uint64_t *best, size_t bs) nogil
    int ml_coset_min_zn_many(const uint8_t *X0, size_t m, size_t xs, const uint8_t *gens,
                             const uint32_t *orders, size_t k, size_t r, unsigned n,
                             int threads, int64_t *len, uint8_t *best, size_t bs) nogil
    int64_t ml_coset_sub_gf2(const uint64_t *x0, const uint64_t *basis, size_t k,
                             size_t nw, size_t L, uint64_t corner, int64_t bound,
                             uint64_t *best, ml_coset_stats *st) nogil
    int64_t ml_coset_sub_zn(const uint8_t *x0, const uint8_t *gens, const uint32_t *orders,
                            size_t k, size_t r, unsigned n, size_t L, uint64_t corner,
                            int64_t bound, uint8_t *best, ml_coset_stats *st) nogil
