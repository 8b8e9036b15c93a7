/* ctx.c: contexts, their error slot, stop flag, progress callback and thread budget
 * (modlights.h: contexts). See ctx.h. */
#include "api/ctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The default context of each thread (ctx = NULL): static thread-local storage, so
 * nothing to free at thread exit. */
static _Thread_local ml_ctx default_ctx;

ml_ctx *ml__ctx(ml_ctx *ctx) { return ctx ? ctx : &default_ctx; }

ml_ctx *ml__begin(ml_ctx *ctx)
{
    ctx = ml__ctx(ctx);
    ctx->status = ML_OK;
    ctx->msg_id = ML_M_NONE;
    ctx->msg[0] = 0;
    return ctx;
}

/* End a message cut at ML_ERRMSG_MAX with "...". */
static void mark_cut(ml_ctx *ctx, int n)
{
    if (n >= ML_ERRMSG_MAX)
        memcpy(ctx->msg + ML_ERRMSG_MAX - 4, "...", 4);
}

int ml__fail(ml_ctx *ctx, int id, ...)
{
    ctx = ml__ctx(ctx);
    int status = ml_msg_status(id);
    if (status <= ML_OK) {               /* a reason or an unknown id: a bug */
        status = ML_EINTERNAL;
        snprintf(ctx->msg, sizeof ctx->msg, "internal error in ml__fail: message id %d "
                 "is not an error (a bug: please report it)", id);
        ctx->status = status;
        ctx->msg_id = ML_M_INTERNAL;
        return status;
    }
    va_list ap;
    va_start(ap, id);
    int n = vsnprintf(ctx->msg, sizeof ctx->msg, ml_msg_template(id), ap);
    va_end(ap);
    if (n < 0)
        ctx->msg[0] = 0;
    mark_cut(ctx, n);
    ctx->status = status;
    ctx->msg_id = id;
    return status;
}

int ml__fail_text(ml_ctx *ctx, int status, int id, const char *text)
{
    ctx = ml__ctx(ctx);
    int n = snprintf(ctx->msg, sizeof ctx->msg, "%s", text ? text : "");
    mark_cut(ctx, n);
    ctx->status = status;
    ctx->msg_id = id;
    return status;
}

int ml__not_implemented(ml_ctx *ctx, const char *name)
{
    return ml__fail(ctx, ML_M_NOT_IMPLEMENTED, name, ML_VERSION_STRING);
}

int ml__stop_all_pending(void) { return ml_interrupt_pending(); }

ml_ctx *ml__enter(ml_ctx *ctx, ml_scope *sc)
{
    ctx = ml__begin(ctx);
    ml_scope_enter(sc, &ctx->stop, ctx->progress, ctx->progress_user, ctx->progress_ms);
    return ctx;
}

int ml__leave(ml_ctx *ctx, ml_scope *sc, int rc)
{
    ctx = ml__ctx(ctx);
    if (ml_scope_leave(sc) && rc != ML_OK)
        rc = ml__fail(ctx, ML_M_INTERRUPTED);
    return rc;
}

/* ------------------------------------------------------------------ public */
int ml_ctx_new(ml_ctx **out)
{
    if (!out)
        return ml__fail(ml__begin(NULL), ML_M_NULL_ARGUMENT, "ml_ctx_new", "out");
    ml_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return ml__fail(ml__begin(NULL), ML_M_NOMEM, "ml_ctx_new");
    *out = ctx;
    return ML_OK;
}

void ml_ctx_free(ml_ctx *ctx)
{
    if (ctx != &default_ctx)
        free(ctx);
}

int ml_errcode(const ml_ctx *ctx) { return ctx ? ctx->status : default_ctx.status; }

int ml_errmsg_id(const ml_ctx *ctx) { return ctx ? ctx->msg_id : default_ctx.msg_id; }

const char *ml_errmsg(const ml_ctx *ctx) { return ctx ? ctx->msg : default_ctx.msg; }

void ml_ctx_stop(ml_ctx *ctx) { atomic_store(&ml__ctx(ctx)->stop, 1); }

void ml_stop_all(void) { ml_interrupt_request(); }

void ml_ctx_set_progress(ml_ctx *ctx, ml_progress_fn fn, void *user, unsigned interval_ms)
{
    ctx = ml__ctx(ctx);
    ctx->progress = fn;
    ctx->progress_user = user;
    ctx->progress_ms = interval_ms;
}

int ml_ctx_set_threads(ml_ctx *ctx, int threads)
{
    ctx = ml__begin(ctx);
    if (threads < 0)
        return ml__fail(ctx, ML_M_INT_MIN, "threads", 0LL, (long long)threads);
    ctx->threads = threads;
    return ML_OK;
}

int ml_ctx_fail(ml_ctx *ctx, int status, const char *message)
{
    if (status <= ML_OK || status >= ML_STATUS_COUNT)
        status = ML_ECALLBACK;
    return ml__fail_text(ctx, status, ML_M_NONE, message);
}
