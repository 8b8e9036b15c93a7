/* lifted_odd.h: the lifted engine's part over Z/p^k (k > 1) of algebraic-sym-odd's boards
 * singular mod p (engines/lifted_odd.c): a left-right symmetric 3 x 3 pattern without wrap
 * on an odd width where the next-row coefficient C_1 = b P is singular (no tap (-1, 0),
 * the diagonal on odd sides). The rows split over Z/p^k as K (+) V1, K the component of
 * Z/q[s] / (s^L - eps) (the fold, where P is nilpotent mod p) and V1 = im A0(P) (where P
 * is invertible): on K the board is solved by a finite series (unique), on V1 by the
 * symmetric chase with P^-1 by parity and one polynomial equation over
 * Z/q[x] / (chi_w / A0) (engines/lifted_alg.h). The questions are ml__zq_odd_ops's
 * solve, nullity (the count of generators), kernel_size, generators (with their orders)
 * and destroy on the engine that ml__zq_odd_new makes; it has no build (not a registry
 * entry). */
#ifndef ML_ENGINES_LIFTED_ODD_H
#define ML_ENGINES_LIFTED_ODD_H

#include "include/modlights.h"

extern const ml_engine_def ml__zq_odd_ops;

/* *engine for b (a uniform grid, no wrap, locks or holes) read mod p^k, or NULL (ML_OK)
 * when declined: the pattern in the 3 x 3 box, left-right symmetric mod p^k, in an
 * orientation of odd width w below 2^24 whose counts give C_1 = b P (no (-1, 0) mod p^k,
 * b a unit mod p) and a centre (the count of (0, 0)) that is a unit mod p; declined too
 * when K's series is long (J L > 2 w + 256, J the nilpotency index of x on K, L the
 * fold's length) or the singular part of V1's algebra (R_A, lifted_alg.h) has rank
 * above ml__lifted_zq_mmax (lifted.h). Errors: ML_ENOMEM, ML_EINTERRUPTED. */
int ml__zq_odd_new(ml_ctx *ctx, const ml_board *b, unsigned p, unsigned k, void **engine);

/* The rank m of the part's R_A (lifted_alg.h) and its row length w (lifted.c's plan
 * text). */
void ml__zq_odd_rank(const void *engine, size_t *m, size_t *w);

#endif
