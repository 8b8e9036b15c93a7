# Declarations of csrc/structured/band.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int64_t, uint32_t, uint8_t


cdef extern from "structured/band.h" nogil:
    void ml_band_chase(const uint8_t *B, ptrdiff_t bstride, uint8_t *Y, ptrdiff_t ystride,
                       size_t k, const int64_t *brow, const int64_t *yrow,
                       const int64_t *refs, const uint32_t *coefs, size_t m, size_t nsteps,
                       unsigned n, unsigned inv, uint32_t *acc, const uint8_t *lut,
                       size_t lutlen)
    void ml_band_transpose(const uint8_t *A, ptrdiff_t astride, uint8_t *T,
                           ptrdiff_t tstride, size_t rows, size_t cols)
