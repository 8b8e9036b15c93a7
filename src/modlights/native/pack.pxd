# Declarations of csrc/dense/pack.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport uint64_t, uint8_t


cdef extern from "dense/pack.h":
    void ml_pack_bits(const uint8_t *src, size_t rows, size_t cols, size_t src_stride,
                      uint64_t *dst, size_t dst_stride) nogil
    void ml_unpack_bits(const uint64_t *src, size_t rows, size_t cols, size_t src_stride,
                        uint8_t *dst, size_t dst_stride) nogil
