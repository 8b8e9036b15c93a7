# Declarations of csrc/chase/rowsolve.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int32_t, uint64_t, uint8_t


cdef extern from "chase/rowsolve.h":
    ctypedef struct ml_rowsolve:
        pass
    enum: ML_ROWSOLVE_MAX_REACH
    enum: ML_ROWSOLVE_MAX_OFFSETS
    int ml_rowsolve_eligible(int h, int w, int ne, const int32_t *er, const int32_t *ec) nogil
    ml_rowsolve *ml_rowsolve_plan(int h, int w, int ne, const int32_t *er, const int32_t *ec,
                                  int *err) nogil
    void ml_rowsolve_free(ml_rowsolve *p) nogil
    size_t ml_rowsolve_nsym(const ml_rowsolve *p) nogil
    int ml_rowsolve_mirrored(const ml_rowsolve *p) nogil
    int ml_rowsolve_matrix(const ml_rowsolve *p, uint64_t *M, int threads, size_t bw,
                           int mirror) nogil
    int ml_rowsolve_numeric(const ml_rowsolve *p, const uint8_t *b, const uint8_t *z,
                            uint8_t *x, uint8_t *rho) nogil
    enum: ML_ROWSOLVE_MAX_BZ
    int ml_rowsolve_eligible_zn(int h, int w, int n, int ne, const int32_t *er,
                                const int32_t *ec, const int32_t *cf) nogil
    ml_rowsolve *ml_rowsolve_plan_zn(int h, int w, int n, int ne, const int32_t *er,
                                     const int32_t *ec, const int32_t *cf, int *err) nogil
    int ml_rowsolve_matrix_zn(const ml_rowsolve *p, uint8_t *M, int threads, size_t bz,
                              int mirror) nogil
    int ml_rowsolve_matrix_sliced(const ml_rowsolve *p, uint8_t *M, int threads, size_t bw,
                                  int mirror) nogil
