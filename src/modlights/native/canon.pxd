# Declarations of csrc/search/canon.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport uint32_t, uint64_t, uint8_t


cdef extern from "search/canon.h":
    uint64_t ML_CANON_MAX_WORK
    size_t ML_CANON_ENOMEM
    size_t ML_CANON_INTERRUPTED
    int ml_canon_fits(size_t k, size_t L, unsigned n) nogil
    size_t ml_canon_basis(const uint8_t *G, size_t k, size_t L, unsigned n, uint8_t *out,
                          uint32_t *orders) nogil
    int ml_canon_reduce(const uint8_t *H, size_t r, size_t L, unsigned n, uint8_t *X,
                        size_t m) nogil
