/* registry_impl.h: the library's own engines, shared by the pieces of the registry
 * module (registry.c: the table; registry_own.c: their covers and costs). */
#ifndef ML_API_REGISTRY_IMPL_H
#define ML_API_REGISTRY_IMPL_H

#include "api/engine.h"

typedef struct ml__own_engine {
    const char *name, *family, *description;
    unsigned answers, backends;
    int auto_choose, variants;
    int (*covers)(const ml_board *b, char *why, size_t cap);
    double (*cost)(const ml_board *b);
    const ml_engine_def *ops;   /* its questions in C (csrc/engines/), or NULL */
} ml__own_engine;

/* engines/registry.py's _register_package_engines, in its order (the reference engine
 * aside: Python registers it through the seam). */
extern const ml__own_engine ml__own_engines[];
extern const size_t ml__own_engine_count;

/* tensor_reason behind _grid_reason (registry_tensor.c): 1 when the tensor engine
 * covers b, else 0 and why (snprintf convention). */
int ml__tensor_covers(const ml_board *b, char *why, size_t cap);

/* The engine over GF(p) that the lifted engine runs on the board b read mod the prime p
 * (the algebraic engines of the cross and the symmetric patterns, on tori the cross
 * family's torus engine then any pattern's, the first that covers it; registry_own.c),
 * or NULL and why (snprintf convention; why may be NULL): the cross's reason, on tori
 * the torus2 engine's. */
const ml_engine_def *ml__field_engine(const ml_board *b, int p, char *why, size_t cap);

/* The distinct primes of n, ascending (at most 4 for n <= 255), and the prime powers of
 * n they give (pk); their count (registry_own.c, shared with registry_tensor.c). */
int ml__primes_of(int n, int *p, int *pk);
/* Test-only fault injection (csrc/tests/t-registry.c): when set to n > 0, the n-th
 * allocation of the registry's table from then on (its engines, interned strings, the
 * table itself) fails; 0 (the default) injects nothing. */
extern _Atomic long ml__registry_fail_alloc;
/* A malloc'ed copy of s, NULL when out of memory (registry.c; registry_plan.c too). */
char *ml__registry_dup(const char *s);

#endif
