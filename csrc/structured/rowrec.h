/* rowrec.h: uniform grid boards whose light chase is a row recurrence, over GF(p).
 *
 * The pattern uses only the offsets (0,0), (0,+1), (0,-1), (-1,0), (+1,0), with
 * counts d, cr, cl, cu, cd (mod p; cu a unit). Tap rows X_0..X_{h-1} (w entries each)
 * and right-hand side rows b_r (= t - s) satisfy, row by row,
 *     cd X_{r-1} + B X_r + cu X_{r+1} = b_r,   B = d I + cr (shift right) + cl (shift left)
 * with X_{-1} = X_h = 0. Chasing from X_0 = z gives
 *     X_{r+1} = T X_r + mu X_{r-1} + cu^-1 b_r,   T = -B / cu,  mu = -cd / cu,
 * so X_r = P_r(T) z + (chase of b with z = 0), P_{r+1} = x P_r + mu P_{r-1}, and the
 * board is solved iff the virtual row X_h = P_h(T) z + c vanishes.
 *
 * T is tridiagonal (diagonal t0 = -d/cu, sub-diagonal s = -cr/cu, super-diagonal
 * r = -cl/cu); when s != 0, e_0 is a cyclic vector and f -> f(T) e_0 maps
 * GF(p)[x] / (chi_T) onto GF(p)^w. The conversions here walk that isomorphism by the
 * three-term recurrence (O(w^2) coefficient operations, O(w^2 / 64) words over GF(2),
 * O(w) memory): vec_to_poly by Clenshaw's recurrence, poly_to_vec by Horner's rule
 * with T applied to vectors.
 *
 * Layouts of b and x (h rows of w tiles): bytes (one tile a byte, low bit over GF(2))
 * or, over GF(2) only, np.packbits rows (ceil(w / 8) bytes a row, column 8k + j in
 * bit 7 - j of byte k; bits past column w are ignored on input and zero on output).
 */
#ifndef ML_ROWREC_H
#define ML_ROWREC_H
#include <stddef.h>
#include <stdint.h>

#include "poly/poly.h"

typedef struct {
    size_t h, w;
    unsigned p;                    /* prime, 2..251 */
    unsigned d, cr, cl, cu, cd;    /* offset counts mod p: (0,0) (0,+1) (0,-1) (-1,0) (+1,0) */
} ml_rowrec;

/* The coefficients of T and the recurrence: t0, s, r, mu (all mod p). */
void ml_rowrec_coeffs(const ml_rowrec *P, unsigned *t0, unsigned *s, unsigned *r,
                      unsigned *mu);

/* ---- numeric chase: right-hand side b_eff = tc + sb * b (mod p; over GF(2) sb is
 * ignored: b_eff = tc ^ b); z: the first tap row (NULL: zero); writes the taps x (same
 * layout as b; GF(2): x may be NULL, only `last` is computed, a read-only pass) and the
 * virtual row X_h to `last` (GF(2): ceil(w/64) words, bit c of word c/64; GF(p): w
 * bytes). Returns 0, 2 when out of memory. */
int ml_rowrec_chase_gf2(const ml_rowrec *P, int packed, const uint8_t *b, unsigned tc,
                        const uint64_t *z, uint8_t *x, uint64_t *last);
int ml_rowrec_chase_gfp(const ml_rowrec *P, const uint8_t *b, unsigned tc, unsigned sb,
                        const uint8_t *z, uint8_t *x, uint8_t *last);

/* The chase of an h x w torus (h >= 3; columns and rows wrap) over GF(p), bytes: from
 * X_0 = u and X_{-1} = v (the last row) with right-hand side b (NULL: zero), writes
 * the taps X_0..X_{h-1} to x (NULL: not written, O(w) memory) and the residuals r1 = X_{h-1} - v, r2 = X_h - u (w bytes
 * each; zero iff x solves A x = b). Polls for an interrupt (interrupt.h) every 16 rows.
 * Returns 0, 1 for h < 3, 2 when out of memory, 3 when stopped (r1 and r2 untouched, the
 * rows of x from the stop on unwritten). */
int ml_rowrec_chase_torus_gfp(const ml_rowrec *P, const uint8_t *b, const uint8_t *u,
                              const uint8_t *v, uint8_t *x, uint8_t *r1, uint8_t *r2);

/* s + A x over GF(2), streamed: writes it to out (NULL: not written; may be s) and
 * returns the number of tiles where it differs from tc (0/1); (size_t)-1 when out of
 * memory. s NULL means zero. */
size_t ml_rowrec_apply_gf2(const ml_rowrec *P, int packed, const uint8_t *s, unsigned tc,
                           const uint8_t *x, uint8_t *out);

/* ---- the algebra (needs s != 0) */
/* chi_T, monic, degree w, and F = P_h mod chi. GF(2), and GF(p) below
 * ml_rowrec_doubling_w columns: the recurrences step by step, O(w^2) and O(h w)
 * coefficient operations (words over GF(2)), polling for an interrupt (interrupt.h)
 * every 256 steps. GF(p) from ml_rowrec_doubling_w on (384; C tests lower it): both by
 * doubling the index (Q_{2k} and Q_{2k-1} from Q_k and Q_{k-1}, poly.h's fast
 * products and division), O(M(w) log w) and O(M(w) log h), polling at every bit.
 * All four return 3 when stopped (the output is then untouched). */
extern size_t ml_rowrec_doubling_w;
int ml_rowrec_charpoly_gf2(const ml_rowrec *P, ml_gf2x *chi);
int ml_rowrec_charpoly_gfp(const ml_rowrec *P, ml_gfpx *chi);
int ml_rowrec_F_gf2(const ml_rowrec *P, const ml_gf2x *chi, ml_gf2x *F);
int ml_rowrec_F_gfp(const ml_rowrec *P, const ml_gfpx *chi, ml_gfpx *F);
/* f with f(T) e_0 = v (deg f < w); v: ceil(w/64) words / w bytes. */
int ml_rowrec_vec_to_poly_gf2(const ml_rowrec *P, const uint64_t *v, ml_gf2x *f);
int ml_rowrec_vec_to_poly_gfp(const ml_rowrec *P, const uint8_t *v, ml_gfpx *f);
/* v = f(T) e_0 for deg f < w (returns 1 when deg f >= w). */
int ml_rowrec_poly_to_vec_gf2(const ml_rowrec *P, const ml_gf2x *f, uint64_t *v);
int ml_rowrec_poly_to_vec_gfp(const ml_rowrec *P, const ml_gfpx *f, uint8_t *v);

#endif
