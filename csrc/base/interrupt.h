/* interrupt.h: stopping long native work early (Ctrl-C, ml_ctx_stop, a progress
 * callback) and reporting its progress.
 *
 * Long loops (coset walks, the chase's symbolic pass, the dense eliminations) call
 * ml_interrupt_poll() every so often; it returns nonzero once the work must stop, and
 * the loop then unwinds quickly, leaving its outputs memory-safe but meaningless (the
 * caller discards them). The loops know nothing else: what "must stop" means is decided
 * here, from three sources:
 *
 *  1. the process-wide stop flag: ml_interrupt_request() (ml_stop_all of the public
 *     API) or the hook, a function the embedding program registers (the Cython binding's
 *     takes the GIL on Python's main thread and runs PyErr_CheckSignals; the WebAssembly
 *     entry layer's reads a cancel flag). The hook runs at most every
 *     ML_INTERRUPT_POLL_NS nanoseconds per thread, so polling often is cheap: between
 *     hook calls a poll costs a few loads and one clock read;
 *  2. the scope of the public call in progress (ml_scope): the stop flag of its context
 *     (ml_ctx_stop) and, on the thread that made the call (the scope's owner) and at most
 *     every interval, its progress callback, which is told the figures the drivers last
 *     reported (ml_progress_report) and may ask to stop. Once any poll of a scope saw a
 *     stop, every poll of that scope answers stop (its worker threads included);
 *  3. nothing else: without a scope and a hook only ml_interrupt_request() stops work.
 *
 * Scopes are thread-local: ml_scope_enter makes one the calling thread's current scope
 * (nesting: the previous one comes back at ml_scope_leave). Worker threads started by
 * ml_thread_create inherit the scope of the thread that started them: their polls see the
 * stop flags, never the callback (they are not its owner), so no callback runs on a
 * library thread. The C core has no Python dependency.
 */
#ifndef ML_INTERRUPT_H
#define ML_INTERRUPT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* The hook: returns nonzero when the current work must stop. */
typedef int (*ml_interrupt_hook_t)(void);
/* A scope's progress callback (modlights.h's ml_progress_fn): nonzero stops the work. */
typedef int (*ml_scope_progress_t)(void *user, int phase, uint64_t done, uint64_t total);

#ifndef ML_INTERRUPT_POLL_NS
#define ML_INTERRUPT_POLL_NS 20000000L     /* 20 ms */
#endif

/* One public call in progress. Lives in the call's stack frame; filled by
 * ml_scope_enter; read by the polls of the owner and of its worker threads. */
typedef struct ml_scope {
    _Atomic int *stop;              /* the context's stop flag (NULL: none) */
    ml_scope_progress_t progress;   /* NULL: no callback */
    void *user;
    long long interval_ns;
    long long next_ns;              /* owner only: the callback's next time */
    const void *owner;              /* the owner thread's mark (see interrupt.c) */
    _Atomic int stopped;            /* a poll saw a stop: every later poll answers stop */
    _Atomic int saw_all;            /* ... and it was the process-wide flag */
    _Atomic int saw_ctx;            /* ... or the context's flag */
    _Atomic int phase;              /* the figures ml_progress_report stored last */
    _Atomic uint64_t done, total;
    struct ml_scope *prev;          /* the scope it nests in on the owner thread */
} ml_scope;

/* Install the hook (NULL: none). */
void ml_interrupt_set_hook(ml_interrupt_hook_t hook);
/* Nonzero once the work must stop (see above for the sources, in that order). */
int ml_interrupt_poll(void);
/* The process-wide flag alone: nonzero once a stop was requested. */
int ml_interrupt_pending(void);
/* Whether the work already had to stop: the process-wide flag, or a poll of the calling
 * thread's scope saw a stop (its context's flag, its callback). Asks no hook and no
 * callback: what a caller checks after a loop that may have broken off, to drop its
 * partial result (ml_interrupt_pending alone misses a context's stop). */
int ml_interrupt_stopped(void);
/* Request a stop of all work (any thread, or a signal handler: one atomic store). */
void ml_interrupt_request(void);
/* Clear the process-wide flag; returns its previous value (nonzero: the work was
 * interrupted). */
int ml_interrupt_take(void);

/* Make sc the calling thread's current scope (the previous one is kept in sc->prev):
 * stop is the context's flag (may be NULL), progress the callback (NULL: none), called
 * at most every interval_ms milliseconds (0: ML_INTERRUPT_POLL_NS) from the first
 * interval on. A stop already requested (the flag, the process-wide one) is seen by the
 * first poll. */
void ml_scope_enter(ml_scope *sc, _Atomic int *stop, ml_scope_progress_t progress,
                    void *user, unsigned interval_ms);
/* Undo ml_scope_enter (the previous scope is current again). Returns nonzero when a
 * poll of the scope saw a stop; then the flag it saw is cleared: the context's flag, or
 * the process-wide one once no other scope is in progress (another call stopped by it
 * sees it first). */
int ml_scope_leave(ml_scope *sc);
/* The calling thread's current scope (NULL: none). */
ml_scope *ml_scope_current(void);

/* Report progress: the figures the current scope's callback is told at its next time
 * (relaxed stores; any thread of the scope; nothing without a scope). */
void ml_progress_report(int phase, uint64_t done, uint64_t total);

/* pthread_create(t, NULL, fn, arg) whose thread inherits the calling thread's scope (its
 * polls see the scope's stop flags). Returns pthread_create's status (ENOMEM-like
 * EAGAIN when the small start record cannot be allocated). */
int ml_thread_create(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
