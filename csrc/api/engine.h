/* engine.h: the registry's engines, for the modules of csrc/api (modlights.h: engines and
 * plans; docs/design/one-c-library.md, "api/registry.c, api/registry_plan.c (the design note names it plan.c), api/engine.h").
 *
 * Every engine, the library's own (registered at load, in engines/registry.py's order)
 * and those registered through the seam (ml_engine_register), is one ml__engine: its
 * names, flags and either the library's own covers / cost functions or the seam's
 * ml_engine_def callbacks. Entries are reference counted: the registry's table holds
 * one reference, and ml__registry_snapshot hands a caller its own, so a plan being
 * chosen keeps every engine it asks alive even if another thread (or a callback)
 * unregisters it meanwhile; the last reference calls the seam's release(user). */
#ifndef ML_API_ENGINE_H
#define ML_API_ENGINE_H

#include "include/modlights.h"

#include <stdatomic.h>
#include <stddef.h>

/* Longest reason a library engine gives (its covers), NUL included. */
#define ML_WHY_MAX 1024

typedef struct ml__engine ml__engine;
struct ml__engine {
    _Atomic long refs;
    const char *name, *description, *family;   /* interned: never freed */
    unsigned answers;   /* ML_Q_ bits of the optional questions it answers */
    unsigned backends;  /* ML_BACKEND_ bits */
    int auto_choose;    /* "auto" and its family may choose it */
    int variants;       /* the built engine picks a registered variant (the chase) */
    /* the library's own: 1 and *len = 0 when it covers b, else 0 and why (snprintf
     * convention, at most ML_WHY_MAX bytes); the estimated seconds */
    int (*own_covers)(const ml_board *b, char *why, size_t cap);
    double (*own_cost)(const ml_board *b);
    /* the library's own engine's questions (build, solve, ...; covers and cost unused),
     * NULL while the engine has no C ops yet (csrc/engines/) */
    const ml_engine_def *own_ops;
    /* the seam's: the definition as registered (strings owned by the fields above) */
    ml_engine_def def;
    int seam;
};

/* The registered engines in registration order, each retained: *out (malloc'd, *count
 * entries) to give back with ml__registry_release. ML_ENOMEM on failure. */
int ml__registry_snapshot(ml_ctx *ctx, ml__engine ***out, size_t *count);
void ml__registry_release(ml__engine **list, size_t count);

/* Whether e covers b: *covers = 1, or 0 and *why its reason, whole (malloc'ed: the
 * caller frees it). */
int ml__engine_reason(ml_ctx *ctx, const ml__engine *e, const ml_board *b, int *covers,
                      char **why);

/* A copy of a live plan (registry_plan.c); NULL when out of memory or p is not live. */
ml_plan *ml__plan_dup(const ml_plan *p);

/* registry.resolve: p names the variant `name` a built engine took, and why (appended
 * to its reason); ML_ENOMEM when out of memory (p unchanged). */
int ml__plan_resolve(ml_plan *p, const char *name, const char *why);

/* p's reason followed by "; parts: <text>" (the strategy a built engine took for its
 * parts: the lifted engine's); ML_ENOMEM when out of memory (p unchanged). */
int ml__plan_note(ml_plan *p, const char *text);

/* Give back a reference to one engine (taken by ml__registry_snapshot and kept). */
void ml__engine_put(ml__engine *e);

/* Whether e covers b: *covers = 1, or 0 and why (snprintf convention into why/cap;
 * *len its full length). A seam callback's failure is returned with its message. */
int ml__engine_covers(ml_ctx *ctx, const ml__engine *e, const ml_board *b, int *covers,
                      char *why, size_t cap, size_t *len);
/* e's estimated seconds for b (a seam callback's failure returned). */
int ml__engine_cost(ml_ctx *ctx, const ml__engine *e, const ml_board *b, double *seconds);

/* ml_engine_register, the engine placed before the registered engine named `before`
 * (at the end when before is NULL or names none): a binding's own engine at its place
 * in the table (Python's reference engine after the dense ones, before the chase), so
 * plans tie and list as that binding's registry orders them. Same checks, statuses and
 * messages as ml_engine_register. O(engines). */
int ml__engine_register_before(ml_ctx *ctx, const ml_engine_def *def, const char *before);

/* The family names of ml_plan_choose's methods, and whether s is one. */
extern const char *const ml__method_families[5];
int ml__is_family(const char *s);

#endif
