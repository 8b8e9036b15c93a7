/* t-ctx: csrc/api/ctx.c, the contexts of modlights.h: the error slot (status, message id,
 * message) of a context and of each thread's default one, the messages formatted from the
 * table, a long message cut with "...", ml_ctx_fail for callbacks, the thread budget's
 * check. Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: api/ctx.c api/errors.c api/version.c */
#include "include/modlights.h"
#include "api/ctx.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
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
