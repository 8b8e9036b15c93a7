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

#endif
