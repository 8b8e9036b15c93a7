/* lifted.h: the "lifted" engine's questions in C (engines/lifted.c), for the registry's
 * entry "lifted" (registry_own.c) and the solver (api/solver.c): lifted.py's
 * LiftedEngine on uniform grid boards over a composite n (no wrap, locks or holes) that
 * the GF(p) algebraic engine covers for every prime p dividing n. build, destroy, solve,
 * nullity, kernel_size, generators, kernel_fits; det, inverse and pseudo-inverse are the
 * registry's fallback and solve_packed is refused (Python's packs is False). A factor
 * p^k, k > 1, singular mod p is Python's "chase" part: for the cross family and the
 * symmetric 3 x 3 patterns without wrap the algebra over Z/p^k
 * (engines/lifted_cross.h), for algebraic-sym-odd's boards without wrap the odd-width
 * split over Z/p^k (engines/lifted_odd.h), on tori the torus algebra over Z/p^k
 * (engines/lifted_torus.h), else the choosing chase engine (engines/chase.h) over
 * Z/p^k. */
#ifndef ML_ENGINES_LIFTED_H
#define ML_ENGINES_LIFTED_H

#include "include/modlights.h"

#include <stddef.h>

extern const ml_engine_def ml__lifted_ops;

/* What answers part j of a lifted engine (the prime powers of n ascending): "lift", or
 * the name of the engine (over GF(p): the field's; over Z/p^k: "lifted-zq-cross",
 * "lifted-zq-odd", "lifted-zq-torus" or the choosing chase's); NULL past the parts.
 * For tests. */
const char *ml__lifted_part(const void *engine, int j);

/* Every part of a lifted engine and why it takes its strategy, as text in buf (cap
 * bytes, snprintf convention; the length it needs returned): "Z/q <engine> (<why>)" a
 * part, comma-separated, a lift part as "lift over <the engine over GF(p)>"; the solver
 * appends it to its plan's reason (api/solver.c). */
int ml__lifted_parts_text(const void *engine, char *buf, size_t cap);

/* The largest rank m of the singular part R_A (lifted_alg.h) for which a part over Z/p^k
 * singular mod p with rows of length w is the algebra's (lifted_cross.c, lifted_odd.c),
 * the choosing chase's above: min(RHO w, ML__LIFTED_ZQ_MMAX), RHO registry_costs.h's
 * ML__LIFTED_ZQ_RHO_CROSS (the cross family) or _SYM (sym: the symmetric 3 x 3 patterns,
 * whose chase has the longer residual); ML__LIFTED_ZQ_MMAX when
 * MODLIGHTS_LIFTED_PARTS=algebra, 0 when =plain. */
#define ML__LIFTED_ZQ_MMAX 512
size_t ml__lifted_zq_mmax(size_t w, int sym);

#endif
