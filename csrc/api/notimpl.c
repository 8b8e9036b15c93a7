/* notimpl.c: the functions modlights.h declares that this release does not implement
 * yet. Each returns ML_ENOTIMPL with the message "<name> is not implemented yet in
 * libmodlights <version>" on its context (functions without one: on the calling thread's
 * default context, ml_errcode(NULL)), or returns 0 / NULL where it returns a value.
 * A work package that implements a function deletes its stub here
 * (docs/design/one-c-library.md); csrc/tests/t-notimpl.c checks every stub left. */
#include "api/ctx.h"

#include <stddef.h>

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
