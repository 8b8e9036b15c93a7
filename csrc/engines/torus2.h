/* torus2.h: the "algebraic-torus2" engine (engines/torus2.c): tori of any uniform
 * pattern, prime n, by the row chase of a monomial lead and a k x k system over
 * GF(p)[s] / (s^w - 1) (engines/polymatn.c), after a shear of the torus when no row
 * orientation has a monomial lead. build, destroy, solve, nullity, kernel_size,
 * generators, kernel_fits; det, inverse and pseudo-inverse are the registry's fallback,
 * solve_packed is not answered. ml__torus2_orient is the registry's covers test
 * (api/registry_own.c). */
#ifndef ML_ENGINES_TORUS2_H
#define ML_ENGINES_TORUS2_H

#include "include/modlights.h"

#include <stddef.h>

/* The largest shear |a| tried, and the largest span (rows of unknowns, the side of the
 * system over GF(p)[s] / (s^w - 1)) taken. */
#define ML_TORUS2_MAX_SHEAR 4
#define ML_TORUS2_MAX_SPAN 12
/* The most steps the diagonal form may take (2^37: about a minute; the 5000 x 5000 knight
 * over Z/3 takes 2^33, the 100000 x 100000 knight over GF(2) 2^36). */
#define ML_TORUS2_MAX_WORK_LOG2 37

/* Whether the diagonal form of a span x span system over GF(p)[s] / (s^w - 1) takes at
 * most 2^ML_TORUS2_MAX_WORK_LOG2 coefficient steps ((span^3 / 3 + 2 span) w^2, over
 * GF(2) / 64). */
int ml__torus2_work_fits(unsigned p, size_t span, size_t w);

/* How the board is worked on: transposed (t) or not, then sheared (r, c) -> (r + a c
 * mod h, c) (h | a w), then flipped (r -> -r) when f; h x w the worked board, span the
 * rows between the extreme rows of the mapped pattern (its lowest row a single offset
 * with a count that is a unit mod p: the lead). */
typedef struct ml__t2_orient {
    int t, f;
    long a;
    size_t h, w, span;
} ml__t2_orient;

/* The orientation of least span (then the least w, then t = 0, |a| small, a > 0, f = 0
 * first) of a uniform grid board with wrap and prime n, with h > span, span <=
 * ML_TORUS2_MAX_SPAN
 * and a diagonal form that fits ml__torus2_work_fits: 1 and *o, or 0 when none (-1 when
 * out of memory). O(|a| range x
 * offsets^2). */
int ml__torus2_orient(const ml_board *b, ml__t2_orient *o);

extern const ml_engine_def ml__algebraic_torus2_ops;

#endif
