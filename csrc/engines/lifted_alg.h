/* lifted_alg.h: one polynomial equation over Z/p^k (engines/lifted_alg.c), for the
 * lifted engine's parts singular mod p (engines/lifted_cross.c).
 *
 * R = (Z/q)[x] / (chi), q = p^k (p prime, k >= 1, q <= 255), chi monic of degree w >= 1;
 * g in R. ml__zq1 answers g y = c in R: whether it is solvable, one solution, and the
 * kernel {y : g y = 0} as a direct sum of cyclic Z/q-modules (generators and orders).
 *
 * The algebra (docs/design/every-pattern.md, "Z/p^k, one variable"): mod p, d =
 * gcd(g, chi); chi = a b over GF(p) with b the largest factor of chi prime to d (every
 * irreducible factor of a divides d); Hensel's lemma lifts it to chi = A B over Z/q
 * (A, B monic, A = a, B = b mod p), and R = R_A x R_B (CRT: A, B coprime mod p). g is
 * a unit of R_B (prime to b mod p), inverted there by Newton's iteration; on R_A
 * (rank m = deg a over Z/q) multiplication by g is an m x m matrix brought to Smith form
 * U M V = diag(p^e_i) over the local ring Z/q. So: solvable iff p^e_i divides (U c_A)_i
 * for every i; y_A = V z, z_i = (U c_A)_i / p^e_i; y_B = g^-1 c mod B; y = y_B + B ((y_A
 * - y_B) B^-1 mod A). ker = the images of V p^(k - e_i) e_i (e_i > 0) in R_A x 0, of
 * orders p^e_i; |ker| = p^(sum e_i).
 *
 * Cost: two gcds and an extended gcd over GF(p) of degree w (poly.h's half-gcd), the
 * Hensel lifting and the R_A side in O(k w m + m^3), g^-1 mod B by O(log k) products of
 * degree w (poly.h's transform); a solve O(M(w) + w m + m^2). Polynomials over Z/q are
 * ml_gfpx with every coefficient below q (poly.h's products are exact for any modulus).
 * Functions return 0, 1 when declined (m above the limit given to build), 2 out of
 * memory, 3 stopped (interrupt.h, polled by the GF(p) gcds and between Smith pivots). */
#ifndef ML_ENGINES_LIFTED_ALG_H
#define ML_ENGINES_LIFTED_ALG_H

#include "poly/poly.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ml__zq1 {
    unsigned p, k, q;
    size_t w, m;        /* deg chi, deg A */
    ml_gfpx A, B;       /* chi = A B over Z/q, monic */
    ml_gfpx gB;         /* g^-1 mod B (zero when deg B = 0) */
    ml_gfpx bA;         /* B^-1 mod A */
    ml_gfpx rB;         /* rev(B)^-1 mod x^w: Barrett division by B */
    uint8_t *U, *V;     /* m x m, row-major */
    unsigned *e;        /* the exponents e_i, m of them */
    size_t ngens;       /* how many e_i > 0 */
    uint64_t klog;      /* sum of e_i: |ker| = p^klog */
} ml__zq1;

void ml__zq1_init(ml__zq1 *z);
void ml__zq1_clear(ml__zq1 *z);
/* z for g y = c mod (chi, p^k); declined (1) when m > mmax or m > ML__ZQ1_MMAX (the
 * products of U and V sum m terms below 2^16 in 32 bits); chi and g reduced mod q,
 * deg g < deg chi. */
#define ML__ZQ1_MMAX 4096
int ml__zq1_build(ml__zq1 *z, unsigned p, unsigned k, const ml_gfpx *chi, const ml_gfpx *g,
                  size_t mmax);
/* y (deg < w) with g y = c in R and *ok = 1, or *ok = 0 (y zero) when there is none. */
int ml__zq1_solve(const ml__zq1 *z, const ml_gfpx *c, ml_gfpx *y, int *ok);
/* The i-th kernel generator (i < ngens) and its order p^e. */
int ml__zq1_generator(const ml__zq1 *z, size_t i, ml_gfpx *y, unsigned *order);

/* r = a mod B (deg a < 2 deg B: Barrett's division with the series rB; else long
 * division). r may alias a. */
int ml__zq1_rem_B(const ml__zq1 *z, ml_gfpx *r, const ml_gfpx *a);
/* y in R with y = yA mod A (yA: m coefficients) and y = yB mod B (deg yB < deg B):
 * y = yB + B ((yA - yB) B^-1 mod A), deg y < w. */
int ml__zq1_combine(const ml__zq1 *z, const uint8_t *yA, const ml_gfpx *yB, ml_gfpx *y);
/* The Smith form over the local ring Z/p^k of the m x m matrix M (row-major, entries
 * below p^k, overwritten): unimodular U, V (m x m, written) with U M V = diag(p^e_i),
 * e_i = k for a zero; pivots of least p-adic valuation, O(m^3) byte operations (masks
 * for p = 2). 0, 2 out of memory, 3 stopped (polled at every pivot). */
int ml__zq_smith(unsigned p, unsigned k, size_t m, uint8_t *M, uint8_t *U, uint8_t *V,
                 unsigned *e);

/* The i-th kernel generator of that Smith form (V and e as ml__zq_smith wrote them): y
 * (m bytes) = V p^(k - e_j) e_j for j the i-th index with e_j > 0, *order = p^e_j; 4
 * when fewer than i + 1 of the e_j are positive. O(m). */
int ml__zq_smith_kernel(unsigned p, unsigned k, size_t m, const uint8_t *V,
                        const unsigned *e, size_t i, uint8_t *y, unsigned *order);

/* Over Z/q (any modulus 2..255, coefficients below q): r = a mod m, m monic of degree
 * >= 1 (long division, O((deg a - deg m + 1) deg m)). */
int ml__zq_rem(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *m, unsigned q);

#endif
