/* poly.h: univariate polynomials over GF(2) (bit-packed) and GF(p) (bytes, p <= 251).
 *
 * ml_gf2x: coefficient of x^i is bit i % 64 of word i / 64; `n` words are in use and
 * the top one is non-zero (n == 0 for the zero polynomial). Multiplication is
 * word-level schoolbook (carry-less 64 x 64 products: PCLMULQDQ where the CPU has
 * it, a 4-bit window otherwise), Karatsuba from ml_gf2x_karatsuba_words words up.
 * Division and the (extended) gcd are the classical bit-at-a-time algorithms on
 * packed words: O(deg^2 / 64) word operations.
 *
 * ml_gfpx: one byte a coefficient, c[n - 1] != 0 (n == 0 for zero), p a prime from
 * 2 to 251 passed to every call. The base cases (poly.c) accumulate in 32-bit words and
 * reduce only every few thousand terms (delayed reduction): schoolbook products, long
 * division, Euclid's gcd, all O(n^2). From the thresholds below on, gfpx_fast.c takes
 * over: products by a number-theoretic transform (one prime, or two and the CRT),
 * O(n log n); division by a Newton inverse, O(M(n)); gcd, extended gcd and resultant by
 * the half-gcd, O(M(n) log n), with the same results as the classical ones (the same
 * remainder sequence).
 *
 * Functions return 0, or 2 when out of memory (the outputs are then unspecified but
 * still safe to clear). Outputs may alias inputs unless said otherwise. The gcd and
 * xgcd poll for an interrupt (interrupt.h) every 64 division steps and (GF(p)) at every
 * half-gcd call, the GF(p) resultant likewise, the series inverse (so Newton division)
 * at every doubling, products past 2^23 coefficients between their pieces; they return
 * 3 when stopped (the outputs are then untouched; the resultant's is 0).
 */
#ifndef ML_POLY_H
#define ML_POLY_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *c;
    size_t n;      /* words in use (normalised) */
    size_t alloc;  /* words allocated */
} ml_gf2x;

typedef struct {
    uint8_t *c;
    size_t n;      /* coefficients in use (normalised) */
    size_t alloc;
} ml_gfpx;

/* Karatsuba threshold in words (both factors at least this long): 16, or
 * MODLIGHTS_KARATSUBA_WORDS (an integer >= 2) from the environment, read at the first product
 * (for measurements). 0 until then; C tests set it directly. */
extern size_t ml_gf2x_karatsuba_words;
size_t ml_gf2x_karatsuba_threshold(void);

void ml_gf2x_init(ml_gf2x *a);
void ml_gf2x_clear(ml_gf2x *a);
/* Room for `words` words (contents kept, new words zero). */
int ml_gf2x_fit(ml_gf2x *a, size_t words);
/* a = the `n` words w (normalised). */
int ml_gf2x_set(ml_gf2x *a, const uint64_t *w, size_t n);
int ml_gf2x_copy(ml_gf2x *r, const ml_gf2x *a);
void ml_gf2x_zero(ml_gf2x *a);
void ml_gf2x_normalise(ml_gf2x *a);
/* Degree; -1 for zero. */
long ml_gf2x_deg(const ml_gf2x *a);
/* a ^= b * x^k (b must not alias a). */
int ml_gf2x_addshift(ml_gf2x *a, const ml_gf2x *b, size_t k);
/* a ^= x^k. */
int ml_gf2x_addmono(ml_gf2x *a, size_t k);
int ml_gf2x_mul(ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b);
/* Schoolbook only (the Karatsuba base case; for tests and the threshold). */
int ml_gf2x_mul_basecase(ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b);
/* a = q b + r, deg r < deg b; b != 0 (returns 1 when b is zero). q may be NULL. */
int ml_gf2x_divrem(ml_gf2x *q, ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b);
/* g = gcd(a, b) (0 when both are 0). */
int ml_gf2x_gcd(ml_gf2x *g, const ml_gf2x *a, const ml_gf2x *b);
/* g = gcd(a, b) = s a + t b; t may be NULL (not computed). With b != 0,
 * deg s < deg b - deg g (s = 0 when b divides a). g, s, t distinct from a, b. */
int ml_gf2x_xgcd(ml_gf2x *g, ml_gf2x *s, ml_gf2x *t, const ml_gf2x *a, const ml_gf2x *b);

void ml_gfpx_init(ml_gfpx *a);
void ml_gfpx_clear(ml_gfpx *a);
int ml_gfpx_fit(ml_gfpx *a, size_t n);
/* a = the n coefficients c (each < p), normalised. */
int ml_gfpx_set(ml_gfpx *a, const uint8_t *c, size_t n);
int ml_gfpx_copy(ml_gfpx *r, const ml_gfpx *a);
void ml_gfpx_normalise(ml_gfpx *a);
long ml_gfpx_deg(const ml_gfpx *a);
/* Inverse of a mod p (a != 0 mod p). */
unsigned ml_gfp_inv(unsigned a, unsigned p);
/* a = a * k + b * x^s * m (mod p), k, m < p; b must not alias a. */
int ml_gfpx_axpy(ml_gfpx *a, unsigned k, const ml_gfpx *b, size_t s, unsigned m, unsigned p);
/* a = a * k (mod p). */
void ml_gfpx_scale(ml_gfpx *a, unsigned k, unsigned p);
/* Make monic (zero stays zero); returns the old leading coefficient (0 for zero). */
unsigned ml_gfpx_make_monic(ml_gfpx *a, unsigned p);

/* Thresholds of the fast algorithms (gfpx_fast.c), in coefficients: the transform for
 * products whose shorter factor has at least ml_gfpx_mul_threshold; Newton division when
 * the divisor and the quotient both have more than ml_gfpx_div_threshold; the half-gcd
 * when both inputs have at least ml_gfpx_gcd_threshold (and inside it down to that
 * length). ml_gfpx_ntt_points: the largest transform (2^23; longer products are summed
 * from pieces of half as many coefficients); ml_gfpx_ntt_force_crt: both primes even
 * when one would do (0). C tests set them to reach every path on small inputs. */
extern size_t ml_gfpx_mul_threshold, ml_gfpx_div_threshold, ml_gfpx_gcd_threshold;
extern size_t ml_gfpx_ntt_points;
extern int ml_gfpx_ntt_force_crt;

/* r = a b: the dispatcher, and its two methods (O(na nb); O(n log n), n = na + nb;
 * products past 2^23 coefficients go by pieces and poll for a stop between them, 3).
 * The three are exact for any modulus p from 2 to 255, prime or not (the integer
 * product reduced mod p): engines/lifted_alg.c multiplies over Z/p^k with them. */
int ml_gfpx_mul(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b, unsigned p);
int ml_gfpx_mul_basecase(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b, unsigned p);
int ml_gfpx_mul_ntt(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b, unsigned p);
/* a = q b + r, deg r < deg b (returns 1 when b is zero); q may be NULL. The dispatcher,
 * long division and Newton division. */
int ml_gfpx_divrem(ml_gfpx *q, ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b, unsigned p);
int ml_gfpx_divrem_basecase(ml_gfpx *q, ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b,
                            unsigned p);
int ml_gfpx_divrem_newton(ml_gfpx *q, ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b,
                          unsigned p);
/* g = f^-1 mod x^k (k >= 1; returns 1 when f(0) = 0). */
int ml_gfpx_inv_series(ml_gfpx *g, const ml_gfpx *f, size_t k, unsigned p);
/* Monic gcd: the dispatcher and Euclid's algorithm. */
int ml_gfpx_gcd(ml_gfpx *g, const ml_gfpx *a, const ml_gfpx *b, unsigned p);
int ml_gfpx_gcd_classical(ml_gfpx *g, const ml_gfpx *a, const ml_gfpx *b, unsigned p);
/* Monic g = s a + t b; t may be NULL. g, s, t distinct from a, b. The dispatcher and
 * Euclid's algorithm (both give the same s and t: Euclid's cofactors). */
int ml_gfpx_xgcd(ml_gfpx *g, ml_gfpx *s, ml_gfpx *t, const ml_gfpx *a, const ml_gfpx *b,
                 unsigned p);
int ml_gfpx_xgcd_classical(ml_gfpx *g, ml_gfpx *s, ml_gfpx *t, const ml_gfpx *a,
                           const ml_gfpx *b, unsigned p);
/* *res = Res(a, b) mod p (0 when a or b is 0), Euclid's formula over the remainder
 * sequence, whose degrees and leading coefficients the half-gcd logs: O(M(n) log n). */
int ml_gfpx_resultant(unsigned *res, const ml_gfpx *a, const ml_gfpx *b, unsigned p);

#endif
