/* torus.h: the "algebraic-torus" engine's questions in C (engines/torus.c), for the
 * registry's entry (registry_own.c) and the solver (api/solver.c): cross.py's
 * AlgebraicEngine on tori of the cross family, over torus.py's TorusSystem (a 2 x 2
 * system over GF(p)[s] / (s^w - 1), engines/polymat.c). build, destroy, solve, nullity,
 * kernel_size, generators, kernel_fits; det, inverse and pseudo-inverse are the
 * registry's fallback, and solve_packed is refused (Python's packs is False on tori). */
#ifndef ML_ENGINES_TORUS_H
#define ML_ENGINES_TORUS_H

#include "include/modlights.h"

extern const ml_engine_def ml__algebraic_torus_ops;

#endif
