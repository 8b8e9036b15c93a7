/* t-ctx: csrc/api/ctx.c, the contexts of modlights.h: the error slot (status, message id,
 * message) of a context and of each thread's default one, the messages formatted from the
 * table, a long message cut with "...", ml_ctx_fail for callbacks, the thread budget's
 * check; and the scopes of long calls (ml__enter / ml__leave over base/interrupt.c): a
 * stop by ml_ctx_stop, ml_stop_all or the progress callback ends a polling loop, on its
 * worker threads too (ml_thread_create), the callback runs on the calling thread only,
 * at its interval, with the figures reported, and each flag is cleared by the call that
 * saw it. Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: api/ctx.c api/errors.c api/version.c base/interrupt.c */
#include "include/modlights.h"
#include "api/ctx.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

/* Another thread's default context does not see this thread's error. */
static void *other_thread(void *arg)
{
    (void)arg;
    int *clean = malloc(sizeof *clean);
    if (clean)
        *clean = ml_errcode(NULL) == ML_OK && ml_errmsg(NULL)[0] == 0;
    ml_ctx_set_threads(NULL, -7);    /* an error here stays here */
    return clean;
}

/* ------------------------------------------------------------------ scopes */
static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A long loop as the library's are: polls every millisecond, reports its progress, and
 * returns how many steps it made before a stop (steps if none). */
static int loop(int steps)
{
    for (int i = 0; i < steps; i++) {
        ml_progress_report(ML_PHASE_SEARCH, (uint64_t)i, (uint64_t)steps);
        if (ml_interrupt_poll())
            return i;
        sleep_ms(1);
    }
    return steps;
}

/* A long public call as the library makes them: a scope, the loop, ML_OK or (the loop
 * stopped early) a failure that ml__leave turns into ML_EINTERRUPTED. */
static int long_call(ml_ctx *ctx, int steps, int *made)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    *made = loop(steps);
    int rc = *made < steps ? ml__fail(ctx, ML_M_NOMEM, "long_call") : ML_OK;
    return ml__leave(ctx, &sc, rc);
}

struct progress_log {
    int calls, stop_at, off_thread, last_phase;
    uint64_t last_done, last_total;
    pthread_t owner;
    double first_at, start;
};

static int on_progress(void *user, int phase, uint64_t done, uint64_t total)
{
    struct progress_log *log = user;
    if (!pthread_equal(pthread_self(), log->owner))
        log->off_thread++;
    if (log->calls++ == 0)
        log->first_at = now_s() - log->start;
    log->last_phase = phase;
    log->last_done = done;
    log->last_total = total;
    return log->stop_at > 0 && log->calls >= log->stop_at;
}

/* A worker of a long call: loops until a stop (its polls see the scope's). */
static void *worker_loop(void *arg)
{
    int *made = arg;
    *made = loop(5000);
    return NULL;
}

/* A call with two worker threads: returns what the workers made; the callback runs on
 * this thread only (the workers' polls never call it). */
static int call_with_workers(ml_ctx *ctx, int *made_here, int made_w[2])
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    pthread_t t[2];
    int started = 0;
    for (int i = 0; i < 2; i++)
        started += ml_thread_create(&t[i], worker_loop, &made_w[i]) == 0;
    *made_here = loop(5000);
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    int rc = started == 2 ? ML_OK : ml__fail(ctx, ML_M_INTERNAL, "t-ctx", "no thread");
    if (*made_here < 5000)
        rc = ml__fail(ctx, ML_M_NOMEM, "call_with_workers");
    return ml__leave(ctx, &sc, rc);
}

static void *stop_later(void *arg)
{
    sleep_ms(30);
    ml_ctx_stop(arg);
    return NULL;
}

static void test_scopes(void)
{
    ml_ctx *ctx = NULL;
    CHECK(ml_ctx_new(&ctx) == ML_OK);
    int made = -1;

    /* no stop: the loop runs out, OK, no scope left behind */
    CHECK(long_call(ctx, 5, &made) == ML_OK && made == 5 && ml_scope_current() == NULL);
    CHECK(!ml_interrupt_poll());     /* outside a scope: the process flag alone */

    /* a stop requested before the call stops its first poll; the flag is then cleared */
    ml_ctx_stop(ctx);
    CHECK(long_call(ctx, 100, &made) == ML_EINTERRUPTED && made == 0);
    CHECK(ml_errmsg_id(ctx) == ML_M_INTERRUPTED);
    CHECK(strcmp(ml_errmsg(ctx), "native work was interrupted") == 0);
    CHECK(ctx->stop == 0);
    CHECK(long_call(ctx, 3, &made) == ML_OK && made == 3);
    /* another context's stop does not concern this one */
    ml_ctx *other = NULL;
    CHECK(ml_ctx_new(&other) == ML_OK);
    ml_ctx_stop(other);
    CHECK(long_call(ctx, 3, &made) == ML_OK && made == 3 && other->stop == 1);
    ml_ctx_free(other);

    /* a stop from another thread while the call runs: it ends within a few polls */
    pthread_t th;
    CHECK(pthread_create(&th, NULL, stop_later, ctx) == 0);
    double t0 = now_s();
    CHECK(long_call(ctx, 5000, &made) == ML_EINTERRUPTED);
    CHECK(made > 0 && made < 5000 && now_s() - t0 < 2.0);
    pthread_join(th, NULL);
    CHECK(ctx->stop == 0);

    /* ml_stop_all: every call stops; the flag stays until a call that saw it returns */
    ml_stop_all();
    CHECK(ml__stop_all_pending() && long_call(ctx, 100, &made) == ML_EINTERRUPTED);
    CHECK(made == 0 && !ml__stop_all_pending());
    CHECK(long_call(NULL, 3, &made) == ML_OK && made == 3);

    /* a stop seen by a call that finished all the same: OK, and the flag is taken */
    {
        ml_scope sc;
        ml_ctx_stop(ctx);
        ml__enter(ctx, &sc);
        CHECK(ml_interrupt_poll() == 1 && ml_interrupt_poll() == 1);
        CHECK(ml__leave(ctx, &sc, ML_OK) == ML_OK && ctx->stop == 0);
    }

    /* nested scopes: the inner call's stop is the outer one's (same context) */
    {
        ml_scope outer;
        ml__enter(ctx, &outer);
        CHECK(ml_scope_current() == &outer);
        CHECK(long_call(ctx, 2, &made) == ML_OK && ml_scope_current() == &outer);
        ml__leave(ctx, &outer, ML_OK);
        CHECK(ml_scope_current() == NULL);
    }

    /* the progress callback: on this thread, not before its interval, told the figures
     * reported; it stops the call when it returns nonzero */
    struct progress_log log = {0};
    log.owner = pthread_self();
    log.stop_at = 3;
    log.start = now_s();
    ml_ctx_set_progress(ctx, on_progress, &log, 10);
    CHECK(long_call(ctx, 5000, &made) == ML_EINTERRUPTED);
    double took = now_s() - log.start;
    CHECK(log.calls == 3 && made < 5000 && log.off_thread == 0);
    CHECK(log.first_at >= 0.009);                 /* not before one interval */
    CHECK(took >= 0.028);                         /* 3 calls at least 10 ms apart */
    CHECK(log.last_phase == ML_PHASE_SEARCH && log.last_total == 5000);
    CHECK(log.last_done > 0 && log.last_done <= (uint64_t)made);
    CHECK(ctx->stop == 0 && !ml__stop_all_pending());
    /* it keeps running without stopping when it returns 0 */
    memset(&log, 0, sizeof log);
    log.owner = pthread_self();
    log.start = now_s();
    CHECK(long_call(ctx, 60, &made) == ML_OK && made == 60 && log.calls >= 2);

    /* worker threads inherit the scope: they see the stop, never call the callback */
    memset(&log, 0, sizeof log);
    log.owner = pthread_self();
    log.stop_at = 2;
    log.start = now_s();
    int here = -1, workers[2] = {-1, -1};
    CHECK(call_with_workers(ctx, &here, workers) == ML_EINTERRUPTED);
    CHECK(log.calls == 2 && log.off_thread == 0);
    CHECK(here < 5000 && workers[0] >= 0 && workers[0] < 5000);
    CHECK(workers[1] >= 0 && workers[1] < 5000);
    ml_ctx_set_progress(ctx, NULL, NULL, 0);
    /* ... and the context's stop from outside */
    CHECK(pthread_create(&th, NULL, stop_later, ctx) == 0);
    CHECK(call_with_workers(ctx, &here, workers) == ML_EINTERRUPTED);
    CHECK(here < 5000 && workers[0] < 5000 && workers[1] < 5000);
    pthread_join(th, NULL);
    CHECK(ctx->stop == 0);
    /* a thread started outside any scope has none */
    pthread_t plain;
    int plain_made = -1;
    CHECK(ml_thread_create(&plain, worker_loop, &plain_made) == 0);
    ml_ctx_stop(ctx);                   /* not seen there: no scope */
    sleep_ms(20);
    ml_interrupt_request();             /* the process-wide flag is */
    pthread_join(plain, NULL);
    CHECK(plain_made > 0 && plain_made < 5000);
    CHECK(ml_interrupt_take() == 1);
    ctx->stop = 0;
    ml_ctx_free(ctx);
}

int main(void)
{
    test_scopes();

    ml_ctx *ctx = NULL;
    CHECK(ml_ctx_new(&ctx) == ML_OK && ctx != NULL);
    CHECK(ml_errcode(ctx) == ML_OK && ml_errmsg_id(ctx) == ML_M_NONE && ml_errmsg(ctx)[0] == 0);

    /* a failure fills the slot; the next call clears it */
    CHECK(ml_ctx_set_threads(ctx, -1) == ML_ERANGE);
    CHECK(ml_errcode(ctx) == ML_ERANGE && ml_errmsg_id(ctx) == ML_M_INT_MIN);
    CHECK(strcmp(ml_errmsg(ctx), "threads must be >= 0, got -1") == 0);
    CHECK(ml_ctx_set_threads(ctx, 2) == ML_OK);
    CHECK(ml_errcode(ctx) == ML_OK && ml_errmsg(ctx)[0] == 0 && ctx->threads == 2);

    /* the default context (NULL) is separate, and one per thread */
    CHECK(ml_errcode(NULL) == ML_OK);
    CHECK(ml_ctx_set_threads(NULL, -2) == ML_ERANGE);
    CHECK(strcmp(ml_errmsg(NULL), "threads must be >= 0, got -2") == 0);
    CHECK(ml_errcode(ctx) == ML_OK);
    pthread_t th;
    void *clean = NULL;
    CHECK(pthread_create(&th, NULL, other_thread, NULL) == 0);
    CHECK(pthread_join(th, &clean) == 0);
    CHECK(clean != NULL && *(int *)clean == 1);
    free(clean);
    CHECK(strcmp(ml_errmsg(NULL), "threads must be >= 0, got -2") == 0);

    /* formatted from the table */
    CHECK(ml__fail(ctx, ML_M_OFF_BOARD, "locked", 3LL, 0LL, 2LL, 2LL) == ML_ERANGE);
    CHECK(strcmp(ml_errmsg(ctx), "locked (3, 0) is off the board: rows 0..2, cols 0..2") == 0);
    CHECK(ml__not_implemented(ctx, "ml_board_grid") == ML_ENOTIMPL);
    CHECK(ml_errmsg_id(ctx) == ML_M_NOT_IMPLEMENTED);
    CHECK(strstr(ml_errmsg(ctx), "ml_board_grid is not implemented yet") == ml_errmsg(ctx));
    /* a reason is not an error: recorded as an internal error */
    CHECK(ml__fail(ctx, ML_R_ONLY) == ML_EINTERNAL && ml_errmsg_id(ctx) == ML_M_INTERNAL);

    /* callbacks report their own text; a bad status becomes ML_ECALLBACK */
    CHECK(ml_ctx_fail(ctx, ML_EINVAL, "toy: no such board") == ML_EINVAL);
    CHECK(strcmp(ml_errmsg(ctx), "toy: no such board") == 0 && ml_errmsg_id(ctx) == ML_M_NONE);
    CHECK(ml_ctx_fail(ctx, ML_OK, "not a failure") == ML_ECALLBACK);
    CHECK(ml_ctx_fail(ctx, 999, NULL) == ML_ECALLBACK && ml_errmsg(ctx)[0] == 0);

    /* a message past ML_ERRMSG_MAX is cut, ending in "..." */
    size_t big = 3 * ML_ERRMSG_MAX;
    char *text = malloc(big + 1);
    CHECK(text != NULL);
    if (text) {
        memset(text, 'x', big);
        text[big] = 0;
        ml_ctx_fail(ctx, ML_EINVAL, text);
        size_t n = strlen(ml_errmsg(ctx));
        CHECK(n == ML_ERRMSG_MAX - 1);
        CHECK(strcmp(ml_errmsg(ctx) + n - 3, "...") == 0);
        free(text);
    }

    /* the stored settings */
    ml_ctx_set_progress(ctx, NULL, NULL, 5);
    CHECK(ctx->progress == NULL && ctx->progress_ms == 5);
    ml_ctx_stop(ctx);
    CHECK(ctx->stop == 1);
    CHECK(ml__stop_all_pending() == 0);
    ml_stop_all();
    CHECK(ml__stop_all_pending() == 1);

    CHECK(ml_ctx_new(NULL) == ML_EMISUSE);
    CHECK(strcmp(ml_errmsg(NULL), "ml_ctx_new: out must not be NULL") == 0);
    ml_ctx_free(ctx);
    ml_ctx_free(NULL);
    printf("fails=%d\n", fails);
    return fails != 0;
}
