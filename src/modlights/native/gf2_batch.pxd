# Declarations of csrc/dense/gf2_batch.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport uint8_t
from modlights.native.gf2 cimport ml_gf2_t


cdef extern from "dense/gf2_batch.h" nogil:
    ml_gf2_t *ml_gf2_pack_u8_cols(const uint8_t *src, size_t k, size_t m, size_t src_stride)
    void ml_gf2_unpack_solutions_cols(const ml_gf2_t *Yt, size_t r, uint8_t *x, uint8_t *ok)
    int ml_gf2_solve_bytes_small(const ml_gf2_t *S, size_t r, const uint8_t *src, size_t k,
                                 size_t src_stride, uint8_t *x, uint8_t *ok)
