/* tensor.h: the tensor engine's questions in C (engines/tensor.c), for the registry's
 * entry "tensor" (registry_own.c) and the solver (api/solver.c).
 *
 * An ml_engine_def holding only the questions (build, destroy, solve, nullity,
 * kernel_size, generators, det, kernel_fits, solve_packed; user NULL): covers and cost
 * stay the registry's own (registry_tensor.c); inverse and pseudo-inverse are the
 * registry's fallback, as in Python. It is src/modlights/engines/tensor/engine.py's
 * TensorEngine: A = R (x) C with R, C the 1-D band factors (engines/band.c), X = G_R B
 * G_C^T, n split by CRT into its prime powers when the factors fail mod n, the same
 * kernel generators (u_a (x) e_j, then e_i (x) v_b), the same det and the same
 * KERNEL_BYTES_MAX with its message. Ring parts (q = p^k, k > 1, a factor singular mod
 * p) are engines/ring.c's (_RingPart). */
#ifndef ML_ENGINES_TENSOR_H
#define ML_ENGINES_TENSOR_H

#include "include/modlights.h"

extern const ml_engine_def ml__tensor_ops;

/* The byte solve of k right-hand sides (R and X k x h w bytes, values < n; ok k flags) by
 * each part's byte chases and two byte transposes, whatever n: the solve of every n but
 * 2, whose solve packs 8 columns a byte (the same answers); for the tests to compare the
 * two. engine: one built by ml__tensor_ops. ML_ENOMEM, ML_EINTERRUPTED. */
int ml__tensor_solve_bytes(ml_ctx *ctx, void *engine, size_t k, const uint8_t *R, uint8_t *X,
                           uint8_t *ok);

#endif
