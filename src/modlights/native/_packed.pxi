"""Bindings to csrc/structured/packed.c: GF(2) grid states as np.packbits rows, worked on without
unpacking (bit transposes, a uniform pattern applied), GIL released. Every argument is
checked here, before any C code runs."""

import numpy as np
from libc.stdint cimport uint8_t, int64_t


cdef _rows_ok(arr, what):
    """ValueError unless arr is a 2-D uint8 array with contiguous rows, positive row
    stride."""
    if not isinstance(arr, np.ndarray) or arr.dtype != np.uint8 or arr.ndim != 2:
        raise ValueError(f"{what} must be a 2-D uint8 array")
    if arr.shape[0] and arr.shape[1] and (arr.strides[1] != 1 or
                                          (arr.shape[0] > 1 and arr.strides[0] <= 0)):
        raise ValueError(f"{what} must have contiguous rows in increasing order")


def transpose_bits(A, Py_ssize_t cols, out):
    """out[j] = column j of A for j < cols, as np.packbits rows: A holds rows x cols bits
    (rows of at least ceil(cols / 8) bytes, bits past column cols ignored), out at least
    cols rows of ceil(rows / 8) bytes, of which those bytes are written (bits past
    column rows 0). 64 x 64 bit blocks; no byte a tile; Ctrl-C stops it."""
    _rows_ok(A, "A")
    _rows_ok(out, "out")
    if not out.flags.writeable:
        raise ValueError("out must be writeable")
    cdef Py_ssize_t rows = A.shape[0]
    if cols < 0 or A.shape[1] < (cols + 7) // 8:
        raise ValueError(f"A has rows of {A.shape[1]} bytes, {cols} columns need "
                         f"{(cols + 7) // 8}")
    if out.shape[0] < cols or out.shape[1] < (rows + 7) // 8:
        raise ValueError(f"out is {out.shape[0]} x {out.shape[1]} bytes; the transpose "
                         f"needs {cols} rows of {(rows + 7) // 8} bytes")
    if rows == 0 or cols == 0:
        return out
    cdef const uint8_t[:, :] Av = A
    cdef uint8_t[:, :] Ov = out
    cdef size_t astride = A.strides[0], ostride = out.strides[0]
    with nogil:
        ml_packed_transpose(&Av[0, 0], astride, rows, cols, &Ov[0, 0], ostride)
    _check_interrupt()
    return out


def apply_offsets(x, Py_ssize_t h, Py_ssize_t w, bint wrap, dr, dc, s=None,
                  unsigned tc=0, bint write=True):
    """(s + A x or None unless write, the tiles where it differs from tc) over GF(2) for an
    h x w grid board whose taps flip (r + dr[k], c + dc[k]), np.packbits rows (h x
    ceil(w / 8) uint8); each offset listed once (odd counts), on a torus (wrap) reduced:
    0 <= dr < h, 0 <= dc < w. Streamed a row at a time; Ctrl-C stops it."""
    nb = (w + 7) // 8
    if h < 1 or w < 1:
        raise ValueError(f"h and w must be positive, got {h} and {w}")
    for name, a in (("x", x), ("s", s)):
        if a is not None and (not isinstance(a, np.ndarray) or a.dtype != np.uint8
                              or a.shape != (h, nb)):
            raise ValueError(f"{name} must be uint8 of shape {(h, nb)}")
    X = np.ascontiguousarray(x)
    S = None if s is None else np.ascontiguousarray(s)
    DR = np.ascontiguousarray(dr, dtype=np.int64).reshape(-1)
    DC = np.ascontiguousarray(dc, dtype=np.int64).reshape(-1)
    if DR.shape[0] != DC.shape[0]:
        raise ValueError("dr and dc must list the same offsets")
    if wrap and DR.shape[0] and (DR.min() < 0 or DR.max() >= h or DC.min() < 0
                                 or DC.max() >= w):
        raise ValueError("on a torus the offsets must be reduced: 0 <= dr < h, 0 <= dc < w")
    out = np.empty((h, nb), np.uint8) if write else None
    cdef const uint8_t[:, ::1] Xv = X
    cdef const uint8_t[:, ::1] Sv
    cdef uint8_t[:, ::1] Ov
    cdef const int64_t[::1] drv = DR
    cdef const int64_t[::1] dcv = DC
    cdef const uint8_t *sp = NULL
    cdef uint8_t *op = NULL
    cdef const int64_t *drp = &drv[0] if DR.shape[0] else NULL
    cdef const int64_t *dcp = &dcv[0] if DR.shape[0] else NULL
    if S is not None:
        Sv = S
        sp = &Sv[0, 0]
    if out is not None:
        Ov = out
        op = &Ov[0, 0]
    cdef size_t bad, noff = DR.shape[0]
    with nogil:
        bad = ml_packed_apply(h, w, wrap, noff, drp, dcp, sp, tc & 1, &Xv[0, 0], op)
    _check_interrupt()
    if bad == <size_t>-1:
        _raise_memory_error("apply_offsets: out of memory")
    return out, int(bad)
