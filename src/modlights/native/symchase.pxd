# Declarations of csrc/structured/symchase.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport uint64_t, uint8_t


cdef extern from "structured/symchase.h":
    ctypedef struct ml_symchase:
        size_t h, w
        unsigned p
        unsigned a[3]
        unsigned b[3]
    int ml_symchase_invertible(const ml_symchase *P) nogil
    int ml_symchase_run(const ml_symchase *P, const uint8_t *b, const uint8_t *z, uint8_t *x,
                        uint8_t *last) nogil
    int ml_symchase_run_packed(const ml_symchase *P, const uint8_t *b, unsigned tc,
                               const uint64_t *z, uint8_t *x, uint64_t *last) nogil
    int ml_symchase_solve_rows_packed(const ml_symchase *P, uint8_t *y, size_t rows,
                                      size_t stride) nogil
