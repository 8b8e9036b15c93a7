/* lifted_torus.h: the lifted engine's part over Z/p^k (k > 1) of a torus singular mod p
 * (engines/lifted_torus.c): algebraic-torus2's row chase over Z/q (engines/torus2.h's
 * core) and its k x k residual system over Z/q[s] / (s^w - 1) split by Hensel's lemma
 * (engines/lifted_alg.h) into a part where the system is invertible (solved digit by
 * digit from its diagonal form mod p) and a small free Z/q-module where it is brought to
 * Smith form, instead of the choosing chase's dense residual. The questions are
 * ml__zq_torus_ops's solve, nullity (the count of generators), kernel_size, generators
 * (with their orders) and destroy on the engine ml__zq_torus_new makes; it has no build
 * (not a registry entry). */
#ifndef ML_ENGINES_LIFTED_TORUS_H
#define ML_ENGINES_LIFTED_TORUS_H

#include "include/modlights.h"

extern const ml_engine_def ml__zq_torus_ops;

/* The largest rank (span x deg A) of the Smith form's module taken. */
#define ML__ZQ_TORUS_KMAX 1024

/* *engine for b (a uniform grid torus, no locks or holes) read mod q = p^k, or NULL
 * (ML_OK) when declined: no orientation of algebraic-torus2 over GF(p)
 * (ml__torus2_orient_mod) or one of span 0 (a single offset), an offset whose count
 * is 0 mod p but not mod q, or the singular part's rank above ML__ZQ_TORUS_KMAX. b may
 * be invertible mod p (then the part's kernel is 0, R_A = 0). Errors: ML_ENOMEM, ML_EINTERRUPTED,
 * ML_EINTERNAL (an identity of the algebra broken: a bug). */
int ml__zq_torus_new(ml_ctx *ctx, const ml_board *b, unsigned p, unsigned k, void **engine);

#endif
