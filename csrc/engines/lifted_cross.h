/* lifted_cross.h: the lifted engine's part over Z/p^k (k > 1) of a grid of the cross
 * family or of a left-right symmetric 3 x 3 pattern without wrap that is singular mod p
 * (engines/lifted_cross.c): the row (or symmetric) chase over Z/p^k with its residual
 * solved as one polynomial equation over
 * (Z/p^k)[x] / (chi) (engines/lifted_alg.h) instead of the choosing chase's dense
 * residual. The questions are ml__zq_cross_ops's solve, nullity (the count of
 * generators), kernel_size, generators (with their orders) and destroy on the engine
 * that ml__zq_cross_new makes; it has no build (not a registry entry). */
#ifndef ML_ENGINES_LIFTED_CROSS_H
#define ML_ENGINES_LIFTED_CROSS_H

#include "include/modlights.h"

extern const ml_engine_def ml__zq_cross_ops;

/* *engine for b (a uniform grid, no wrap, locks or holes) read mod p^k, or NULL (ML_OK)
 * when declined: the cross family ((0,0), (0,+-1), (+-1,0)) in an orientation whose
 * counts of (-1, 0) and (0, +1) are units mod p; else, when sym, a pattern in the 3 x 3
 * box left-right symmetric mod p^k in an orientation where C_1 = a + b P is invertible
 * mod p with b a unit mod p or 0 mod p^k; declined too when the singular part of the
 * algebra (R_A, lifted_alg.h) has rank above ml__lifted_zq_mmax (lifted.h). Errors:
 * ML_ENOMEM, ML_EINTERRUPTED. */
int ml__zq_cross_new(ml_ctx *ctx, const ml_board *b, unsigned p, unsigned k, int sym,
                     void **engine);

/* The rank m of the part's R_A (lifted_alg.h) and its row length w (lifted.c's plan
 * text). */
void ml__zq_cross_rank(const void *engine, size_t *m, size_t *w);

#endif
