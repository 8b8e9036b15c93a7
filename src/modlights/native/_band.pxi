"""Binding to csrc/structured/band.c: the 1-D band chase of the tensor engine
(csrc/engines/band.c drives it in the library), GIL released. Every argument is checked here."""

import numpy as np
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memcmp


_MOD_TABLES: dict = {}


def _mod_table(unsigned n, Py_ssize_t length):
    """bytes v mod n for v < length, kept for the last few (n, length) asked for (the
    lut a band_chase is given is compared with it: one memcmp, not a loop a call)."""
    key = (n, length)
    got = _MOD_TABLES.get(key)
    if got is None:
        got = (np.arange(length) % n).astype(np.uint8).tobytes()
        if len(_MOD_TABLES) >= 32:
            try:                          # another thread may evict too
                _MOD_TABLES.pop(next(iter(_MOD_TABLES)), None)
            except (RuntimeError, StopIteration):
                pass
        _MOD_TABLES[key] = got
    return got


def transpose(const uint8_t[:, :] A, uint8_t[:, :] out):
    """out[:] = A.T for uint8 arrays whose rows are contiguous (row strides may be
    negative: reversed views), copied in cache-sized tiles."""
    if A.strides[1] != 1 or out.strides[1] != 1:
        raise ValueError("transpose needs arrays whose rows are contiguous")
    if out.shape[0] != A.shape[1] or out.shape[1] != A.shape[0]:
        raise ValueError(f"out is {out.shape[0]}x{out.shape[1]}, A.T "
                         f"{A.shape[1]}x{A.shape[0]}")
    if A.shape[0] == 0 or A.shape[1] == 0:
        return
    with nogil:
        ml_band_transpose(&A[0, 0], A.strides[0], &out[0, 0], out.strides[0], A.shape[0],
                          A.shape[1])


def band_chase(const uint8_t[:, ::1] B, uint8_t[:, ::1] Y, const int64_t[::1] brow,
               const int64_t[::1] yrow, const int64_t[:, ::1] refs,
               const uint32_t[:, ::1] coefs, unsigned n, unsigned inv,
               Py_ssize_t start, Py_ssize_t stop, const uint8_t[::1] lut):
    """Steps start..stop-1 of the chase (see csrc/structured/band.h): row yrow[t] of Y from row
    brow[t] of B and the rows refs[t] of Y (-1: none), coefficients coefs[t] < n, every
    column at once. lut: v -> v mod n for the sums below its length (the others
    reduced by %), or an empty array. ValueError for rows off the arrays, a step that
    reads the row it writes, coefficients >= n, a wrong lut or sums past 32 bits."""
    cdef Py_ssize_t k = Y.shape[1], m = refs.shape[1], nsteps = brow.shape[0]
    cdef Py_ssize_t t, q
    if B.shape[1] != k:
        raise ValueError(f"B has {B.shape[1]} columns, Y {k}")
    if yrow.shape[0] != nsteps or refs.shape[0] != nsteps or coefs.shape[0] != nsteps \
            or coefs.shape[1] != m or m < 1:
        raise ValueError("brow, yrow, refs and coefs must describe the same steps")
    if not (0 <= start <= stop <= nsteps):
        raise ValueError(f"steps {start}..{stop} outside 0..{nsteps}")
    if n < 2 or n > 255 or inv >= n:
        raise ValueError(f"n must be 2..255 and inv < n, got n = {n}, inv = {inv}")
    if <uint64_t>(m + 1) * (n - 1) * (n - 1) >= (<uint64_t>1) << 32:
        raise ValueError(f"{m} rows a step with n = {n}: the sums would pass 32 bits "
                         f"(at most {((1 << 32) - 1) // ((n - 1) * (n - 1)) - 1} rows)")
    cdef Py_ssize_t lutlen = lut.shape[0]
    cdef const char *want
    if lutlen:
        table = _mod_table(n, lutlen)
        want = table
        if memcmp(&lut[0], want, lutlen) != 0:
            t = next(i for i in range(lutlen) if lut[i] != table[i])
            raise ValueError(f"lut[{t}] = {lut[t]}, not {t} mod {n} = {t % n}")
    for t in range(start, stop):
        if not (0 <= brow[t] < B.shape[0] and 0 <= yrow[t] < Y.shape[0]):
            raise ValueError(f"step {t} reads or writes a row off the arrays")
        for q in range(m):
            if refs[t, q] >= Y.shape[0] or coefs[t, q] >= n:
                raise ValueError(f"step {t} refers to a row off Y or a coefficient >= n")
            if refs[t, q] == yrow[t]:
                raise ValueError(f"step {t} reads the row {yrow[t]} it writes")
    if stop == start or k == 0:
        return
    cdef const uint8_t *lutp = &lut[0] if lutlen else NULL
    acc = np.empty(k if n > 2 else 1, dtype=np.uint32)
    cdef uint32_t[::1] accv = acc
    with nogil:
        ml_band_chase(&B[0, 0], B.strides[0], &Y[0, 0], Y.strides[0], k,
                      &brow[start], &yrow[start], &refs[start, 0], &coefs[start, 0], m,
                      stop - start, n, inv, &accv[0], lutp, lutlen)
