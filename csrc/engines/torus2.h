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
/* ml__torus2_orient for the board's pattern read mod the prime p instead of mod n (the
 * lifted engine's parts, api/registry_own.c's ml__field_engine). */
int ml__torus2_orient_mod(const ml_board *b, unsigned p, ml__t2_orient *o);

extern const ml_engine_def ml__algebraic_torus2_ops;

/* The engine's row chase over any modulus q (2..255), for the lifted engine's parts over
 * Z/p^k (engines/lifted_torus.c), q a power of the prime p: the board b mapped by o (an
 * orientation of b read mod p, ml__torus2_orient_mod), counts mod q. ml__t2_core_new
 * returns 0 and *core, 1 (declined) when the offsets mod q are not those mod p (a count
 * 0 mod p but not mod q) or o does not fit them, 2 out of memory.
 * ml__t2_core_chase: the chase from the unknown rows z (span x w, values < q) with
 * right-hand side B (h x w worked, values < q; NULL: zero): the taps in x (h x w, NULL:
 * not written), the span residual rows in res; entries are polynomials in s (the
 * column shift), the chase R-linear over Z/q[s] / (s^w - 1). 0, 2 out of memory, 3
 * stopped. ml__t2_core_map: the board's tiles to the worked board (to_work) or back. */
typedef struct t2_eng ml__t2_core;
int ml__t2_core_new(const ml_board *b, unsigned q, unsigned p, const ml__t2_orient *o,
                    ml__t2_core **core);
void ml__t2_core_free(ml__t2_core *core);
/* the geometry of the worked board: h, w, the span */
void ml__t2_core_dims(const ml__t2_core *core, size_t *h, size_t *w, size_t *span);
int ml__t2_core_chase(const ml__t2_core *core, const uint8_t *B, const uint8_t *z,
                      uint8_t *x, uint8_t *res);
void ml__t2_core_map(const ml__t2_core *core, const uint8_t *in, uint8_t *out, int to_work);

#endif
