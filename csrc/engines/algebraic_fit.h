/* algebraic_fit.h: the nilpotent part of the Fitting decomposition of a row of odd width
 * w under the path adjacency P (engines/algebraic_fit.c), for algebraic-sym-odd.
 *
 * A row v (w entries) is the Laurent polynomial V(s) = sum v_i (s^(i+1) - s^-(i+1)) in
 * GF(p)[s] / (s^(4m) - 1), m = (w + 1) / 2, and P is multiplication by x = s + 1 / s.
 * With m = p^k m' (p not dividing m'), the root 0 of chi_w has multiplicity e = p^k
 * (p odd) or 2^(k+1) - 1 (p = 2), and ker P^e is the CRT component of
 * Q = GF(p)[s] / (s^L + 1), L = 2 p^k (p odd) or 2^(k+2) (p = 2): the fold c = V mod
 * (s^L + 1) (L entries) is the projection onto ker P^e along im P^e, and the lift
 * z_i = (-1)^t c_r / (2 m') (i + 1 = t L + r; GF(2): z_i = c_r) its inverse on the
 * component, both O(w). */
#ifndef ML_ENGINES_ALGEBRAIC_FIT_H
#define ML_ENGINES_ALGEBRAIC_FIT_H

#include <stddef.h>
#include <stdint.h>

typedef struct ml_fit {
    unsigned p;       /* a prime <= 251 */
    size_t w;         /* the odd width */
    size_t e;         /* the multiplicity of the root 0 of chi_w over GF(p) */
    size_t L;         /* the fold's length */
    unsigned sinv;    /* 1 / (2 m') mod p (1 over GF(2)) */
} ml_fit;

/* The widths whose fold sums fit 32 bits (e > 1). */
#define ML_FIT_WIDTH_MAX ((size_t)1 << 24)

/* The decomposition of width w (odd) over GF(p) (p prime, 2..251): 0, or -1 when w is
 * even, p is out of range, or e > 1 and w >= ML_FIT_WIDTH_MAX. */
int ml__fit_init(ml_fit *f, unsigned p, size_t w);

/* c (f->L bytes) = the fold of v (w bytes < p): its ker P^e component; acc: f->L
 * words of scratch. O(w + L). */
void ml__fit_fold(const ml_fit *f, const uint8_t *v, uint8_t *c, uint32_t *acc);

/* v += lift(c) (sub: v -= lift(c)), v of w bytes < p; d: 2 f->L bytes of scratch.
 * O(w + L). */
void ml__fit_lift(const ml_fit *f, const uint8_t *c, uint8_t *v, int sub, uint8_t *d);

/* For y whose projection E y onto ker P^e lies in ker P (= span of k = (1, 0, -1, 0, ..)):
 * the t with E y = t k. O(w / L). */
unsigned ml__fit_tau(const ml_fit *f, const uint8_t *y);

/* The component's equations, row r of C (h x L, folds; overwritten by the solution):
 * (a0 + b0 x) xi_{r-1} + (a1 + b1 x) xi_r + b2 x xi_{r+1} = c_r in Q (xi_{-1} = xi_h = 0),
 * a1 a unit mod p: unique. Solved in Q's (s^2 + 1)-adic coordinates (GF(2): (s + 1)-adic)
 * layer by layer, each layer a forward substitution down the rows; the coordinates by
 * Taylor shifts in char p (Kronecker products of p x p Pascal matrices). O(h L log L).
 * Returns 0, 2 out of memory, 3 stopped (polls the stop flag). */
int ml__fit_solve(const ml_fit *f, const unsigned a[3], const unsigned b[3], size_t h,
                  uint8_t *C);

#endif
