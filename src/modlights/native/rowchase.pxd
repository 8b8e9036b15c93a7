# Declarations of csrc/chase/rowchase.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int64_t, uint8_t
from modlights.native.chase cimport ml_chase


cdef extern from "chase/rowchase.h":
    int ml_rowchase_bitsliced()
    ctypedef struct ml_rowchase:
        pass
    ml_rowchase *ml_rowchase_run(const ml_chase *p, int q, const uint8_t *b, size_t k,
                                 size_t max_bytes, int *err) nogil
    void ml_rowchase_free(ml_rowchase *R) nogil
    size_t ml_rowchase_min_width(const ml_chase *p) nogil
    size_t ml_chase_slots(const ml_chase *p) nogil
    size_t ml_rowchase_nfree(const ml_rowchase *R) nogil
    size_t ml_rowchase_neliminated(const ml_rowchase *R) nogil
    size_t ml_rowchase_nchecks(const ml_rowchase *R) nogil
    size_t ml_rowchase_nretired(const ml_rowchase *R) nogil
    size_t ml_rowchase_width(const ml_rowchase *R) nogil
    size_t ml_rowchase_record_bytes(const ml_rowchase *R) nogil
    size_t ml_rowchase_npending(const ml_rowchase *R) nogil
    void ml_rowchase_pending(const ml_rowchase *R, uint8_t *a, uint8_t *c) nogil
    void ml_rowchase_ok(const ml_rowchase *R, uint8_t *ok) nogil
    void ml_rowchase_free_symbols(const ml_rowchase *R, int64_t *out) nogil
    int ml_rowchase_symbols(const ml_rowchase *R, long j, const uint8_t *u, uint8_t *z) nogil
