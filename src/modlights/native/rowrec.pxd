# Declarations of csrc/structured/rowrec.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport uint64_t, uint8_t
from modlights.native.poly cimport ml_gf2x, ml_gfpx


cdef extern from "structured/rowrec.h":
    ctypedef struct ml_rowrec:
        size_t h, w
        unsigned p, d, cr, cl, cu, cd
    int ml_rowrec_chase_gf2(const ml_rowrec *P, int packed, const uint8_t *b, unsigned tc,
                            const uint64_t *z, uint8_t *x, uint64_t *last) nogil
    int ml_rowrec_chase_gfp(const ml_rowrec *P, const uint8_t *b, unsigned tc, unsigned sb,
                            const uint8_t *z, uint8_t *x, uint8_t *last) nogil
    size_t ml_rowrec_apply_gf2(const ml_rowrec *P, int packed, const uint8_t *s, unsigned tc,
                               const uint8_t *x, uint8_t *out) nogil
    int ml_rowrec_chase_torus_gfp(const ml_rowrec *P, const uint8_t *b, const uint8_t *u,
                                  const uint8_t *v, uint8_t *x, uint8_t *r1,
                                  uint8_t *r2) nogil
    int ml_rowrec_charpoly_gf2(const ml_rowrec *P, ml_gf2x *chi) nogil
    int ml_rowrec_charpoly_gfp(const ml_rowrec *P, ml_gfpx *chi) nogil
    int ml_rowrec_F_gf2(const ml_rowrec *P, const ml_gf2x *chi, ml_gf2x *F) nogil
    int ml_rowrec_F_gfp(const ml_rowrec *P, const ml_gfpx *chi, ml_gfpx *F) nogil
    int ml_rowrec_vec_to_poly_gf2(const ml_rowrec *P, const uint64_t *v, ml_gf2x *f) nogil
    int ml_rowrec_vec_to_poly_gfp(const ml_rowrec *P, const uint8_t *v, ml_gfpx *f) nogil
    int ml_rowrec_poly_to_vec_gf2(const ml_rowrec *P, const ml_gf2x *f, uint64_t *v) nogil
    int ml_rowrec_poly_to_vec_gfp(const ml_rowrec *P, const ml_gfpx *f, uint8_t *v) nogil
