# Declarations of csrc/poly/poly.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport uint64_t, uint8_t


cdef extern from "poly/poly.h":
    ctypedef struct ml_gf2x:
        uint64_t *c
        size_t n
        size_t alloc
    ctypedef struct ml_gfpx:
        uint8_t *c
        size_t n
        size_t alloc
    size_t ml_gf2x_karatsuba_threshold()
    void ml_gf2x_init(ml_gf2x *a) nogil
    void ml_gf2x_clear(ml_gf2x *a) nogil
    int ml_gf2x_set(ml_gf2x *a, const uint64_t *w, size_t n) nogil
    int ml_gf2x_copy(ml_gf2x *r, const ml_gf2x *a) nogil
    long ml_gf2x_deg(const ml_gf2x *a) nogil
    int ml_gf2x_addshift(ml_gf2x *a, const ml_gf2x *b, size_t k) nogil
    int ml_gf2x_mul(ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b) nogil
    int ml_gf2x_mul_basecase(ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b) nogil
    int ml_gf2x_divrem(ml_gf2x *q, ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b) nogil
    int ml_gf2x_gcd(ml_gf2x *g, const ml_gf2x *a, const ml_gf2x *b) nogil
    int ml_gf2x_xgcd(ml_gf2x *g, ml_gf2x *s, ml_gf2x *t, const ml_gf2x *a,
                     const ml_gf2x *b) nogil
    void ml_gfpx_init(ml_gfpx *a) nogil
    void ml_gfpx_clear(ml_gfpx *a) nogil
    int ml_gfpx_set(ml_gfpx *a, const uint8_t *c, size_t n) nogil
    int ml_gfpx_copy(ml_gfpx *r, const ml_gfpx *a) nogil
    long ml_gfpx_deg(const ml_gfpx *a) nogil
    int ml_gfpx_mul(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b, unsigned p) nogil
    int ml_gfpx_divrem(ml_gfpx *q, ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b,
                       unsigned p) nogil
    int ml_gfpx_gcd(ml_gfpx *g, const ml_gfpx *a, const ml_gfpx *b, unsigned p) nogil
    int ml_gfpx_xgcd(ml_gfpx *g, ml_gfpx *s, ml_gfpx *t, const ml_gfpx *a, const ml_gfpx *b,
                     unsigned p) nogil
