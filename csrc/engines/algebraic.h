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
#include "structured/symchase.h"

extern const ml_engine_def ml__algebraic_cross_ops;
extern const ml_engine_def ml__algebraic_sym_ops;

/* algebraic-sym-odd (engines/algebraic_odd.c): algebraic-sym's recurrence on odd widths
 * where its next-row coefficient C_1 = b P is singular, the rows split as
 * ker P (+) im P (p not dividing (w + 1) / 2). */
extern const ml_engine_def ml__algebraic_sym_odd_ops;

/* The orientation algebraic-sym-odd works in (0: as given, 1: transposed) and its
 * chase's coefficients in *out (may be NULL), or -1 when it does not take the board
 * over GF(p): a uniform grid without wrap, locks or holes, p a prime <= 251, the
 * pattern in the 3 x 3 box, left-right symmetric mod p in that orientation with no
 * tap (-1, 0) and a unit count of (-1, +1) mod p, on an odd width w with p not
 * dividing (w + 1) / 2. */
int ml__sym_odd_orientation(const ml_board *b, unsigned p, ml_symchase *out);

#endif
