/* algebraic.h: the polynomial engines' questions in C (engines/algebraic.c), for the
 * registry's entries "algebraic-cross" and "algebraic-sym" (registry_own.c) and the
 * solver (api/solver.c).
 *
 * Each is an ml_engine_def holding only the questions (build, destroy, solve, nullity,
 * kernel_size, generators, kernel_fits, solve_packed, and det for the cross engine; user
 * NULL): covers and cost stay the registry's own (registry_own.c); inverse and
 * pseudo-inverse are the registry's fallback, as in Python. They are
 * src/modlights/engines/algebraic/cross.py's AlgebraicEngine on grids without wrap
 * (tori are algebraic-torus's) and sym.py's SymAlgebraicEngine: the same kernel
 * generators (chases from (chi / g) x^i), the same limit KERNEL_BYTES_MAX with its
 * message, the same det. */
#ifndef ML_ENGINES_ALGEBRAIC_H
#define ML_ENGINES_ALGEBRAIC_H

#include "include/modlights.h"

extern const ml_engine_def ml__algebraic_cross_ops;
extern const ml_engine_def ml__algebraic_sym_ops;

#endif
