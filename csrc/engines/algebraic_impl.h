/* algebraic_impl.h: what the pieces of engines/algebraic.c share: a polynomial over
 * GF(p) (an ml_gf2x for p = 2, an ml_gfpx otherwise) and its arithmetic, 2 x 2 matrices
 * of them, the resultant, GF(2) rows as bytes or words (algebraic_poly.c). The
 * polynomial functions return poly.h's codes: 0, 2 out of memory, 3 stopped. The
 * engines over GF(p) (algebraic.c, algebraic_odd.c, torus.c, torus2.c) share besides
 * the status of such a code and the test of a zero row (static inline, below). */
#ifndef ML_ENGINES_ALGEBRAIC_IMPL_H
#define ML_ENGINES_ALGEBRAIC_IMPL_H

#include "include/modlights.h"
#include "api/ctx.h"
#include "poly/poly.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A polynomial over GF(p): b for p = 2, c otherwise. */
typedef struct px {
    ml_gf2x b;
    ml_gfpx c;
} px;


struct ml__pattern;
/* How many times the pattern holds the offset (dr, dc) ((dc, dr) when t: the board
 * worked on transposed). */
long ml__alg_count(const struct ml__pattern *pt, int t, long dr, long dc);

void ml__alg_px_init(px *a);
void ml__alg_px_clear(px *a);
/* n polynomials, each zero (ml__alg_px_init), or NULL when out of memory; freed (the
 * polynomials cleared) by ml__alg_px_vec_free(v, n), which takes NULL. */
px *ml__alg_px_vec(size_t n);
void ml__alg_px_vec_free(px *v, size_t n);
long ml__alg_px_deg(unsigned p, const px *a);
int ml__alg_px_mul(unsigned p, px *r, const px *a, const px *b);
int ml__alg_px_divrem(unsigned p, px *q, px *r, const px *a, const px *b);
int ml__alg_px_mulmod(unsigned p, px *r, const px *a, const px *b, const px *m, px *t);
int ml__alg_px_add(unsigned p, px *a, const px *b);
void ml__alg_px_neg(unsigned p, px *a);
int ml__alg_px_set(unsigned p, px *a, const uint8_t *c, size_t n);
int ml__alg_px_copy(unsigned p, px *r, const px *a);
int ml__alg_px_shift(unsigned p, px *r, const px *a, size_t k);
void ml__alg_to_words(const uint8_t *v, size_t w, uint64_t *out);
void ml__alg_from_words(const uint64_t *v, size_t w, uint8_t *out);
void ml__alg_reverse(uint8_t *v, size_t w);
unsigned ml__alg_powmod(unsigned a, uint64_t e, unsigned p);
int ml__alg_mat_mul(unsigned p, px *T, const px *X, const px *Y, const px *m, px *sq, px *u);
int ml__alg_resultant(unsigned p, const px *a0, const px *b0, unsigned *res);
/* The symmetric chase's algebra mod m (algebraic-sym mod chi, algebraic-sym-odd mod
 * chi / x): F = G_h, the polynomial of X_h in X_0 up to c_2^-h; s *= c_2^h. */
int ml__alg_sym_G(unsigned p, const unsigned a[3], const unsigned b[3], uint64_t h,
                  const px *mod, px *F);
int ml__alg_sym_scale(unsigned p, unsigned a2, unsigned b2, uint64_t h, const px *mod, px *s);

/* |ker A| = p^nullity as an ml_factored (nothing when the nullity is 0): the kernel_size
 * answer of the engines over GF(p). */
static inline void ml__alg_prime_size(unsigned p, uint64_t nullity, ml_factored *size)
{
    memset(size, 0, sizeof *size);
    if (nullity) {
        size->count = 1;
        size->prime[0] = p;
        size->exp[0] = nullity;
    }
}

/* A C module's status as the library's, recorded on ctx: 0 ML_OK, 2 out of memory, 3
 * stopped, else a bug (ML_M_INTERNAL naming `who`, the engine, and `what`, the step). */
static inline int ml__alg_status(ml_ctx *ctx, int rc, const char *who, const char *what)
{
    if (rc == 0)
        return ML_OK;
    if (rc == 2)
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    if (rc == 3)
        return ml__fail(ctx, ML_M_INTERRUPTED);
    return ml__fail(ctx, ML_M_INTERNAL, who, what);
}

/* Whether any of the n bytes of v is nonzero (stops at the first). */
static inline int ml__alg_any(const uint8_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i])
            return 1;
    return 0;
}

#endif
