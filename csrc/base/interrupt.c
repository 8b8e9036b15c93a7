/* interrupt.c: the process-wide stop flag. See interrupt.h. */
#define _POSIX_C_SOURCE 200809L
#include "base/interrupt.h"

#include <stdatomic.h>
#include <time.h>

static _Atomic int flag;
static _Atomic(ml_interrupt_hook_t) hook;
static _Thread_local long long last_poll_ns;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void ml_interrupt_set_hook(ml_interrupt_hook_t h) { atomic_store(&hook, h); }

int ml_interrupt_pending(void) { return atomic_load_explicit(&flag, memory_order_relaxed); }

void ml_interrupt_request(void) { atomic_store(&flag, 1); }

int ml_interrupt_take(void) { return atomic_exchange(&flag, 0); }

int ml_interrupt_poll(void)
{
    if (atomic_load_explicit(&flag, memory_order_relaxed))
        return 1;
    ml_interrupt_hook_t h = atomic_load_explicit(&hook, memory_order_relaxed);
    if (!h)
        return 0;
    long long t = now_ns();
    if (t - last_poll_ns < ML_INTERRUPT_POLL_NS)
        return 0;
    last_poll_ns = t;
    if (h()) {
        atomic_store(&flag, 1);
        return 1;
    }
    return 0;
}
