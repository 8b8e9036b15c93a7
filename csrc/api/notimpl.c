/* notimpl.c: the functions modlights.h declares that this release does not implement
 * yet. Each returns ML_ENOTIMPL with the message "<name> is not implemented yet in
 * libmodlights <version>" on its context (functions without one: on the calling thread's
 * default context, ml_errcode(NULL)), or returns 0 / NULL where it returns a value.
 * A work package that implements a function deletes its stub here
 * (docs/design/one-c-library.md); csrc/tests/t-notimpl.c checks every stub left. */
#include "api/ctx.h"

#include <stddef.h>

int ml_solver_search(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target, ml_search **out)
{
    (void)s;
    (void)state;
    (void)target;
    (void)out;
    return ml__not_implemented(ctx, "ml_solver_search");
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

void ml_search_free(ml_search *q)
{
    (void)q;
}

int ml_search_split(ml_ctx *ctx, ml_search *q, uint64_t want, uint64_t *tasks)
{
    (void)q;
    (void)want;
    (void)tasks;
    return ml__not_implemented(ctx, "ml_search_split");
}

int ml_search_bound(ml_ctx *ctx, const ml_search *q, uint64_t t, int64_t *bound)
{
    (void)q;
    (void)t;
    (void)bound;
    return ml__not_implemented(ctx, "ml_search_bound");
}

int ml_search_export(ml_ctx *ctx, const ml_search *q, uint8_t *buf, size_t cap, size_t *len)
{
    (void)q;
    (void)buf;
    (void)cap;
    (void)len;
    return ml__not_implemented(ctx, "ml_search_export");
}

int ml_search_import(ml_ctx *ctx, const uint8_t *buf, size_t len, ml_search **out)
{
    (void)buf;
    (void)len;
    (void)out;
    return ml__not_implemented(ctx, "ml_search_import");
}

int ml_search_run(ml_ctx *ctx, ml_search *q, uint64_t t, int64_t bound, ml_task_result *res, uint8_t *best)
{
    (void)q;
    (void)t;
    (void)bound;
    (void)res;
    (void)best;
    return ml__not_implemented(ctx, "ml_search_run");
}

int ml_search_merge(ml_ctx *ctx, ml_search *q, uint64_t t, const ml_task_result *res, const uint8_t *best)
{
    (void)q;
    (void)t;
    (void)res;
    (void)best;
    return ml__not_implemented(ctx, "ml_search_merge");
}

int ml_search_done(const ml_search *q)
{
    (void)q;
    ml__not_implemented(NULL, "ml_search_done");
    return 0;
}

int ml_search_finish(ml_ctx *ctx, ml_search *q, ml_result **out)
{
    (void)q;
    (void)out;
    return ml__not_implemented(ctx, "ml_search_finish");
}

int ml_search_lengths(ml_ctx *ctx, ml_search *q, int64_t *lengths, uint8_t *taps)
{
    (void)q;
    (void)lengths;
    (void)taps;
    return ml__not_implemented(ctx, "ml_search_lengths");
}








int ml_puzzle_stats_get(ml_ctx *ctx, ml_puzzle *p, ml_puzzle_stats *out)
{
    (void)p;
    (void)out;
    return ml__not_implemented(ctx, "ml_puzzle_stats_get");
}

int ml_puzzle_solution(ml_ctx *ctx, ml_puzzle *p, const ml_result **out)
{
    (void)p;
    (void)out;
    return ml__not_implemented(ctx, "ml_puzzle_solution");
}


int ml_puzzle_to_json(ml_ctx *ctx, ml_puzzle *p, char *buf, size_t cap, size_t *len)
{
    (void)p;
    (void)buf;
    (void)cap;
    (void)len;
    return ml__not_implemented(ctx, "ml_puzzle_to_json");
}


void ml_generate_opts_init(ml_generate_opts *opts)
{
    (void)opts;
    ml__not_implemented(NULL, "ml_generate_opts_init");
}

int ml_generate(ml_ctx *ctx, const ml_generate_opts *opts, ml_puzzle **out)
{
    (void)opts;
    (void)out;
    return ml__not_implemented(ctx, "ml_generate");
}

int ml_daily(ml_ctx *ctx, int year, int month, int day, ml_puzzle *out[3])
{
    (void)year;
    (void)month;
    (void)day;
    (void)out;
    return ml__not_implemented(ctx, "ml_daily");
}
