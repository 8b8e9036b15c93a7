/* interrupt.c: the stop flags, the scopes of public calls and the progress callback.
 * See interrupt.h. */
#define _POSIX_C_SOURCE 200809L
#include "base/interrupt.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

static _Atomic int flag;
static _Atomic(ml_interrupt_hook_t) hook;
static _Thread_local long long last_poll_ns;

/* The calling thread's current scope, and a byte whose address names the thread (a
 * scope's owner is the thread whose mark it holds; a live thread's mark is unique). */
static _Thread_local ml_scope *current;
static _Thread_local char mark;
/* Scopes in progress in the process (the process-wide flag is cleared by the last one
 * that saw it). */
static _Atomic int active;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void ml_interrupt_set_hook(ml_interrupt_hook_t h) { atomic_store(&hook, h); }

int ml_interrupt_pending(void) { return atomic_load_explicit(&flag, memory_order_relaxed); }

void ml_interrupt_request(void) { atomic_store(&flag, 1); }

int ml_interrupt_stopped(void)
{
    ml_scope *sc = current;
    return atomic_load_explicit(&flag, memory_order_relaxed) ||
           (sc && atomic_load_explicit(&sc->stopped, memory_order_relaxed));
}

int ml_interrupt_take(void) { return atomic_exchange(&flag, 0); }

/* A poll of sc saw a stop (which: saw, a flag of sc or NULL): every later poll of sc
 * answers stop too. */
static int stop_seen(ml_scope *sc, _Atomic int *saw)
{
    if (sc) {
        if (saw)
            atomic_store_explicit(saw, 1, memory_order_relaxed);
        atomic_store_explicit(&sc->stopped, 1, memory_order_relaxed);
    }
    return 1;
}

int ml_interrupt_poll(void)
{
    ml_scope *sc = current;
    if (atomic_load_explicit(&flag, memory_order_relaxed))
        return stop_seen(sc, sc ? &sc->saw_all : NULL);
    long long t = -1;
    if (sc) {
        if (atomic_load_explicit(&sc->stopped, memory_order_relaxed))
            return 1;
        if (sc->stop && atomic_load_explicit(sc->stop, memory_order_relaxed))
            return stop_seen(sc, &sc->saw_ctx);
        if (sc->progress && sc->owner == &mark) {
            t = now_ns();
            if (t >= sc->next_ns) {
                sc->next_ns = t + sc->interval_ns;
                int phase = atomic_load_explicit(&sc->phase, memory_order_relaxed);
                uint64_t done = atomic_load_explicit(&sc->done, memory_order_relaxed);
                uint64_t total = atomic_load_explicit(&sc->total, memory_order_relaxed);
                if (sc->progress(sc->user, phase, done, total))
                    return stop_seen(sc, NULL);
            }
        }
    }
    ml_interrupt_hook_t h = atomic_load_explicit(&hook, memory_order_relaxed);
    if (!h)
        return 0;
    if (t < 0)
        t = now_ns();
    if (t - last_poll_ns < ML_INTERRUPT_POLL_NS)
        return 0;
    last_poll_ns = t;
    if (h()) {
        atomic_store(&flag, 1);
        return stop_seen(sc, sc ? &sc->saw_all : NULL);
    }
    return 0;
}

void ml_scope_enter(ml_scope *sc, _Atomic int *stop, ml_scope_progress_t progress,
                    void *user, unsigned interval_ms)
{
    sc->stop = stop;
    sc->progress = progress;
    sc->user = user;
    sc->interval_ns = interval_ms ? (long long)interval_ms * 1000000LL : ML_INTERRUPT_POLL_NS;
    sc->next_ns = progress ? now_ns() + sc->interval_ns : 0;
    sc->owner = &mark;
    atomic_init(&sc->stopped, 0);
    atomic_init(&sc->saw_all, 0);
    atomic_init(&sc->saw_ctx, 0);
    atomic_init(&sc->phase, 0);
    atomic_init(&sc->done, 0);
    atomic_init(&sc->total, 0);
    sc->prev = current;
    atomic_fetch_add(&active, 1);
    current = sc;
}

int ml_scope_leave(ml_scope *sc)
{
    current = sc->prev;
    int others = atomic_fetch_sub(&active, 1) - 1;
    if (!atomic_load(&sc->stopped))
        return 0;
    if (atomic_load(&sc->saw_ctx) && sc->stop)
        atomic_store(sc->stop, 0);
    if (atomic_load(&sc->saw_all) && others == 0)
        atomic_store(&flag, 0);
    return 1;
}

ml_scope *ml_scope_current(void) { return current; }

void ml_progress_report(int phase, uint64_t done, uint64_t total)
{
    ml_scope *sc = current;
    if (!sc)
        return;
    atomic_store_explicit(&sc->phase, phase, memory_order_relaxed);
    atomic_store_explicit(&sc->done, done, memory_order_relaxed);
    atomic_store_explicit(&sc->total, total, memory_order_relaxed);
}

/* ------------------------------------------------------------------ threads */
struct start {
    void *(*fn)(void *);
    void *arg;
    ml_scope *scope;
};

static void *start_in_scope(void *p)
{
    struct start s = *(struct start *)p;
    free(p);
    current = s.scope;     /* not its owner: this thread's mark is another */
    return s.fn(s.arg);
}

int ml_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
    ml_scope *sc = current;
    if (!sc)
        return pthread_create(t, NULL, fn, arg);
    struct start *s = malloc(sizeof *s);
    if (!s)
        return EAGAIN;
    s->fn = fn;
    s->arg = arg;
    s->scope = sc;
    int rc = pthread_create(t, NULL, start_in_scope, s);
    if (rc != 0)
        free(s);
    return rc;
}
