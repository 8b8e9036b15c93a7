/* dense.h: the dense engines' questions in C (engines/dense.c), for the registry's
 * entries "dense-gf2" and "dense-zn" (registry_own.c) and the solver (api/solver.c).
 *
 * Each is an ml_engine_def holding only the questions (build, destroy, solve, nullity,
 * kernel_size, generators, det, inverse, pseudo_inverse; user NULL): covers and cost
 * stay the registry's own (registry_own.c). They are the engines of
 * src/modlights/engines/dense.py, native/_gf2.pxi (Gf2Engine) and native/_zn.pxi
 * (ZnEngine): the same limits with the same messages, the same kernel generators and
 * orders. */
#ifndef ML_ENGINES_DENSE_H
#define ML_ENGINES_DENSE_H

#include "include/modlights.h"

#include <stdint.h>

extern const ml_engine_def ml__dense_gf2_ops;
extern const ml_engine_def ml__dense_zn_ops;

/* Workers of the engines' threaded stages (the chase's symbolic pass, dense-zn's panel
 * updates): ml_ctx_set_threads's count, else (0) the CPUs this process may use, at most
 * 8; the answers are the same whatever the count. */
int ml__engine_threads(ml_ctx *ctx);

/* The dense engine of a board's n: dense-gf2's for n = 2, dense-zn's otherwise. */
const ml_engine_def *ml__dense_ops_for(int n);

/* rank(A) mod 2 of a board with n = 2 by one elimination of the packed A, no transform
 * (Solver._gf2_rank): ML_ETOOLARGE (ML_M_GF2_RANK_TOO_LARGE) past MAX_FACTOR_BITS bits
 * for boards not given as a dense matrix, as _gf2.pxi's rank_coo. */
int ml__dense_gf2_rank(ml_ctx *ctx, const ml_board *b, uint64_t *rank);

#endif
