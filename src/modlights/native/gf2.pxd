# Declarations of csrc/dense/gf2.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int32_t, int64_t, uint64_t, uint8_t


cdef extern from "dense/gf2.h" nogil:
    ctypedef struct ml_gf2_t:
        size_t nrows, ncols, width, stride
        uint64_t *data
    ctypedef struct ml_gf2_fact_t:
        size_t m, r, rank
        ml_gf2_t *W
        size_t *piv
    ml_gf2_t *ml_gf2_new(size_t nrows, size_t ncols)
    void ml_gf2_free(ml_gf2_t *M)
    ml_gf2_t *ml_gf2_copy(const ml_gf2_t *M)
    ml_gf2_t *ml_gf2_from_coo(size_t nrows, size_t ncols, const int64_t *ci,
                              const int64_t *tj, size_t nnz, size_t *bad)
    ml_gf2_t *ml_gf2_from_csc(size_t nrows, size_t ncols, const int64_t *indptr,
                              const int32_t *cells, size_t *bad)
    void ml_gf2_pack_u8(ml_gf2_t *M, const uint8_t *src, size_t src_stride)
    void ml_gf2_pack_i64(ml_gf2_t *M, const int64_t *src, size_t src_stride)
    void ml_gf2_unpack_u8(const ml_gf2_t *M, size_t c0, size_t cols, uint8_t *dst,
                          size_t dst_stride)
    ml_gf2_t *ml_gf2_mul(const ml_gf2_t *A, const ml_gf2_t *B)
    ml_gf2_t *ml_gf2_transpose(const ml_gf2_t *A)
    size_t ml_gf2_echelonize(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv)
    size_t ml_gf2_echelonize_naive(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv)
    size_t ml_gf2_echelonize_m4ri(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv)
    ml_gf2_fact_t *ml_gf2_factor(const ml_gf2_t *A)
    void ml_gf2_fact_free(ml_gf2_fact_t *F)
    ml_gf2_t *ml_gf2_kernel(const ml_gf2_fact_t *F)
    ml_gf2_t *ml_gf2_kernel_rows(const ml_gf2_fact_t *F, size_t first, size_t count)
    ml_gf2_t *ml_gf2_pinv(const ml_gf2_fact_t *F)
    int ml_gf2_det(const ml_gf2_fact_t *F)
    ml_gf2_t *ml_gf2_solve_matrix(const ml_gf2_fact_t *F)
    ml_gf2_t *ml_gf2_solve_dot(const ml_gf2_fact_t *F, const ml_gf2_t *B)
    ml_gf2_t *ml_gf2_solve_direct(const ml_gf2_t *A, const ml_gf2_t *B, size_t *rank)
    void ml_gf2_solve_ok(const ml_gf2_t *Y, size_t r, uint8_t *ok)
