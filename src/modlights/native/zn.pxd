# Declarations of csrc/dense/zn.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int64_t, uint8_t


cdef extern from "dense/zn.h":
    ctypedef struct ml_zn_lu_t:
        pass
    ml_zn_lu_t *ml_zn_lu_new(size_t m, size_t r, unsigned q) nogil
    void ml_zn_lu_free(ml_zn_lu_t *lu) nogil
    void ml_zn_lu_set_dense(ml_zn_lu_t *lu, const uint8_t *a, size_t stride) nogil
    void ml_zn_lu_add_coo(ml_zn_lu_t *lu, const int64_t *ci, const int64_t *tj, size_t nnz) nogil
    int ml_zn_lu_factor(ml_zn_lu_t *lu) nogil
    unsigned ml_zn_lu_p(const ml_zn_lu_t *lu) nogil
    unsigned ml_zn_lu_e(const ml_zn_lu_t *lu) nogil
    size_t ml_zn_lu_unit_rank(const ml_zn_lu_t *lu) nogil
    size_t ml_zn_lu_rank(const ml_zn_lu_t *lu) nogil
    size_t ml_zn_lu_kernel_log(const ml_zn_lu_t *lu) nogil
    size_t ml_zn_lu_ngens(const ml_zn_lu_t *lu) nogil
    int ml_zn_lu_generators(const ml_zn_lu_t *lu, uint8_t *h, unsigned *orders) nogil
    int ml_zn_lu_generators_range(const ml_zn_lu_t *lu, size_t first, size_t count,
                                  uint8_t *h, unsigned *orders) nogil
    int ml_zn_lu_solve(const ml_zn_lu_t *lu, const uint8_t *bt, size_t nb, uint8_t *xt,
                       uint8_t *ok, int check) nogil
    unsigned ml_zn_lu_det(const ml_zn_lu_t *lu) nogil
    int ml_zn_lu_set_method(ml_zn_lu_t *lu, int method) nogil
    int ml_zn_lu_method(const ml_zn_lu_t *lu) nogil
