/* ctx.h: what a context holds, for the modules of csrc/api (modlights.h: contexts).
 *
 * The error slot is written by ml__fail (a message of the table, formatted) or
 * ml__fail_text (a message given as text); ml__begin clears it at the start of every
 * public call. ml__ctx resolves NULL to the calling thread's default context.
 *
 * A public call that runs long (one whose loops poll ml_interrupt_poll) opens a scope:
 *
 *     ml_scope sc;
 *     ctx = ml__enter(ctx, &sc);          (clears the error; sc is the thread's scope)
 *     int rc = ...the work...;            (its loops poll; its threads inherit sc)
 *     return ml__leave(ctx, &sc, rc);     (ML_EINTERRUPTED if a poll saw a stop)
 *
 * so its polls see ml_stop_all, ml_ctx_stop(ctx) and ctx's progress callback
 * (base/interrupt.h says how). */
#ifndef ML_API_CTX_H
#define ML_API_CTX_H

#include "include/modlights.h"
#include "base/interrupt.h"

#include <stdatomic.h>

/* Longest message kept (a longer one is cut, ending in "..."). */
#define ML_ERRMSG_MAX 4096

struct ml_ctx {
    int status;                 /* ml_status of the last failure, ML_OK after a success */
    int msg_id;                 /* its ml_msg */
    char msg[ML_ERRMSG_MAX];
    _Atomic int stop;           /* ml_ctx_stop: the running (or next long) call stops */
    ml_progress_fn progress;
    void *progress_user;
    unsigned progress_ms;       /* 0: the default interval */
    int threads;                /* 0: every CPU */
};

/* ctx, or the calling thread's default context when ctx is NULL (never NULL: the
 * default one is static thread-local storage). */
ml_ctx *ml__ctx(ml_ctx *ctx);
/* Clear the error slot of a public call's context; returns the context to use. */
ml_ctx *ml__begin(ml_ctx *ctx);
/* Record the failure of message `id` (its status, its template formatted with the
 * arguments) on ctx and return the status. */
int ml__fail(ml_ctx *ctx, int id, ...);
/* Record a failure given as text (status and message) and return the status. */
int ml__fail_text(ml_ctx *ctx, int status, int id, const char *text);
/* ML_ENOTIMPL for the public function `name` (modlights.h: "Status of this release"). */
int ml__not_implemented(ml_ctx *ctx, const char *name);
/* Nonzero once a process-wide stop was requested (ml_stop_all). */
int ml__stop_all_pending(void);
/* Begin a long public call on ctx (NULL: the default context): clear its error slot
 * (ml__begin) and make sc the calling thread's scope, over ctx's stop flag and progress
 * callback. A stop requested before (ml_ctx_stop, ml_stop_all) stops its first poll.
 * Returns the context to use. */
ml_ctx *ml__enter(ml_ctx *ctx, ml_scope *sc);
/* End it: the scope closes (the stop flag it saw is cleared, base/interrupt.h), and when
 * a poll saw a stop a failing rc becomes ML_EINTERRUPTED ("native work was interrupted":
 * an interrupted loop's meaningless failure, an allocation stopped, is not reported as
 * such); a call that finished all the same keeps ML_OK. Returns the status. */
int ml__leave(ml_ctx *ctx, ml_scope *sc, int rc);

#endif
