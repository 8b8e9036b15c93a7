# Declarations of csrc/chase/chase.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int32_t, int64_t, uint64_t, uint8_t


cdef extern from "chase/chase.h":
    ctypedef struct ml_chase:
        pass
    ml_chase *ml_chase_plan(int h, int w, int n, int wrap, const uint8_t *active,
                            const uint8_t *tappable, int nu, const int32_t *udr,
                            const int32_t *udc, int npat, const int32_t *cnt,
                            const int32_t *pat_of, int *err) nogil
    void ml_chase_free(ml_chase *p) nogil
    size_t ml_chase_nsym(const ml_chase *p) nogil
    size_t ml_chase_nres(const ml_chase *p) nogil
    size_t ml_chase_peak_live(const ml_chase *p) nogil
    size_t ml_chase_pool_rows(const ml_chase *p) nogil
    int ml_chase_mirrored(const ml_chase *p) nogil
    void ml_chase_symbols(const ml_chase *p, int64_t *out) nogil
    void ml_chase_residual_tiles(const ml_chase *p, int64_t *out) nogil
    int ml_chase_is_stencil(const ml_chase *p) nogil
    int ml_chase_matrix_gf2(const ml_chase *p, uint64_t *M, int threads, size_t block) nogil
    int ml_chase_matrix_zn(const ml_chase *p, uint8_t *M, int threads, size_t block) nogil
    int ml_chase_matrix_gf2_rows(const ml_chase *p, uint64_t *M, size_t rows, int threads,
                                 size_t block) nogil
    int ml_chase_matrix_zn_rows(const ml_chase *p, uint8_t *M, size_t rows, int threads,
                                size_t block) nogil
    int ml_chase_matrix_zn_mode(const ml_chase *p, uint8_t *M, size_t rows, int threads,
                                size_t block, int packed) nogil
    void ml_chase_numeric(const ml_chase *p, const uint8_t *b, const uint8_t *z,
                          uint8_t *x, uint8_t *rho) nogil
