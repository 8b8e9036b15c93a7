# Declarations of csrc/search/canon.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport uint64_t


cdef extern from "search/canon.h":
    uint64_t ML_CANON_MAX_WORK
    int ml_canon_fits(size_t k, size_t L, unsigned n) nogil
