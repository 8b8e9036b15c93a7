/* lifted.h: the "lifted" engine's questions in C (engines/lifted.c), for the registry's
 * entry "lifted" (registry_own.c) and the solver (api/solver.c): lifted.py's
 * LiftedEngine on uniform grid boards over a composite n (no wrap, locks or holes) that
 * the GF(p) algebraic engine covers for every prime p dividing n. build, destroy, solve,
 * nullity, kernel_size, generators, kernel_fits; det, inverse and pseudo-inverse are the
 * registry's fallback and solve_packed is refused (Python's packs is False). A factor
 * p^k, k > 1, singular mod p is Python's "chase" part: the choosing chase engine
 * (engines/chase.h) over Z/p^k, whose build is ML_ENOTIMPL where it would take the row
 * chase (not in C yet). */
#ifndef ML_ENGINES_LIFTED_H
#define ML_ENGINES_LIFTED_H

#include "include/modlights.h"

extern const ml_engine_def ml__lifted_ops;

#endif
