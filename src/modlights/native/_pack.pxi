"""Thin bindings to the C core in csrc/. Every bound is checked here, before C runs."""
import numpy as np
from libc.stdint cimport uint8_t, uint64_t

def pack_bits(m):
    """Pack the low bit of a 2-D uint8 array into rows of uint64 words.

    Returns a (rows, ceil(cols/64)) uint64 array; bit j of a row is bit j % 64 of
    word j // 64. Padding bits are zero.
    """
    a = np.ascontiguousarray(m, dtype=np.uint8)
    if a.ndim != 2:
        raise ValueError(f"pack_bits needs a 2-D array, got {a.ndim}-D")
    cdef Py_ssize_t rows = a.shape[0], cols = a.shape[1]
    cdef Py_ssize_t nw = (cols + 63) // 64
    out = np.zeros((rows, max(nw, 1)), dtype=np.uint64)
    if rows == 0 or cols == 0:
        return out[:, :nw]
    cdef const uint8_t[:, ::1] src = a
    cdef uint64_t[:, ::1] dst = out
    with nogil:
        ml_pack_bits(&src[0, 0], rows, cols, cols, &dst[0, 0], dst.shape[1])
    return out[:, :nw]


def unpack_bits(p, Py_ssize_t cols):
    """Inverse of pack_bits: a (rows, cols) uint8 array of 0/1."""
    a = np.ascontiguousarray(p, dtype=np.uint64)
    if a.ndim != 2:
        raise ValueError(f"unpack_bits needs a 2-D array, got {a.ndim}-D")
    if cols < 0 or (cols + 63) // 64 > a.shape[1]:
        raise ValueError(f"cols={cols} does not fit in {a.shape[1]} words per row")
    cdef Py_ssize_t rows = a.shape[0]
    out = np.zeros((rows, cols), dtype=np.uint8)
    if rows == 0 or cols == 0:
        return out
    cdef const uint64_t[:, ::1] src = a
    cdef uint8_t[:, ::1] dst = out
    with nogil:
        ml_unpack_bits(&src[0, 0], rows, cols, src.shape[1], &dst[0, 0], cols)
    return out
