/* notimpl.c: the functions modlights.h declares that this release does not implement
 * yet. Each returns ML_ENOTIMPL with the message "<name> is not implemented yet in
 * libmodlights <version>" on its context (functions without one: on the calling thread's
 * default context, ml_errcode(NULL)), or returns 0 / NULL where it returns a value.
 * A work package that implements a function deletes its stub here
 * (docs/design/one-c-library.md); csrc/tests/t-notimpl.c checks every stub left. */
#include "api/ctx.h"

#include <stddef.h>

int ml_solver_solutions(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target, ml_solutions **out)
{
    (void)s;
    (void)state;
    (void)target;
    (void)out;
    return ml__not_implemented(ctx, "ml_solver_solutions");
}

int ml_solutions_next(ml_ctx *ctx, ml_solutions *it, uint8_t *taps, int *done)
{
    (void)it;
    (void)taps;
    (void)done;
    return ml__not_implemented(ctx, "ml_solutions_next");
}

void ml_solutions_free(ml_solutions *it)
{
    (void)it;
}

int ml_solver_solve_packed(ml_ctx *ctx, ml_solver *s, const uint8_t *packed, const uint8_t *target_packed, unsigned fill, uint8_t *out)
{
    (void)s;
    (void)packed;
    (void)target_packed;
    (void)fill;
    (void)out;
    return ml__not_implemented(ctx, "ml_solver_solve_packed");
}

int ml_solver_search_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states, ml_target target, ml_search **out)
{
    (void)s;
    (void)k;
    (void)states;
    (void)target;
    (void)out;
    return ml__not_implemented(ctx, "ml_solver_search_many");
}

int ml_search_lengths(ml_ctx *ctx, ml_search *q, int64_t *lengths, uint8_t *taps)
{
    (void)q;
    (void)lengths;
    (void)taps;
    return ml__not_implemented(ctx, "ml_search_lengths");
}
