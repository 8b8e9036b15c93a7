# Declarations of csrc/structured/packed.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int64_t, uint8_t


cdef extern from "structured/packed.h" nogil:
    void ml_packed_transpose(const uint8_t *A, size_t astride, size_t rows, size_t cols,
                             uint8_t *T, size_t tstride)
    size_t ml_packed_apply(size_t h, size_t w, int wrap, size_t noff, const int64_t *dr,
                           const int64_t *dc, const uint8_t *s, unsigned tc,
                           const uint8_t *x, uint8_t *out)
