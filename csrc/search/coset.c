/* coset.c: Gray-code minimal-length search over x0 + ker(A). See coset.h.
 *
 * The pieces: coset.c (this file: the state the workers share, the budget and clock
 * checks, the threads), coset_gf2.c (the search over GF(2)), coset_zn.c (over Z/nZ);
 * what they share is in coset_impl.h. */
#include "search/coset.h"
#include "search/coset_impl.h"
#include "base/interrupt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_EVERY 4096u

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ml_coset__shared_init(shared_t *sh, int64_t best_len, uint64_t nchunks, uint64_t budget,
                           double seconds)
{
    pthread_mutex_init(&sh->lock, NULL);
    atomic_store(&sh->best_len, best_len);
    atomic_store(&sh->best_chunk, nchunks);
    atomic_store(&sh->examined, 0);
    atomic_store(&sh->pruned, 0);
    atomic_store(&sh->next_chunk, 0);
    atomic_store(&sh->stop, 0);
    sh->nchunks = nchunks;
    sh->check_every = budget && budget < CHECK_EVERY ? budget : CHECK_EVERY;
    sh->budget = budget;
    sh->deadline = seconds > 0 ? now_seconds() + seconds : 0.0;
}

/* Account `done` examined elements; returns 1 when the search must stop. */
int ml_coset__shared_tick(shared_t *sh, uint64_t done)
{
    uint64_t tot = atomic_fetch_add(&sh->examined, done) + done;
    if (sh->budget && tot >= sh->budget)
        atomic_store(&sh->stop, 1);
    if (sh->deadline > 0 && now_seconds() > sh->deadline)
        atomic_store(&sh->stop, 1);
    if (ml_interrupt_poll())           /* Ctrl-C: see interrupt.h */
        atomic_store(&sh->stop, 1);
    return atomic_load(&sh->stop);
}

typedef struct {
    void *(*fn)(void *);
    void *arg;
    _Atomic int *running;
} worker_t;

static void *worker_main(void *p)
{
    worker_t *W = (worker_t *)p;
    W->fn(W->arg);
    atomic_fetch_sub(W->running, 1);
    return NULL;
}

/* Run fn(arg) on `threads` threads (this one included). While the other threads
 * finish, this one keeps polling for an interrupt (only the calling thread can see
 * Ctrl-C; the workers stop when the flag is set). */
int ml_coset__run_threads(void *(*fn)(void *), void *arg, int threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    pthread_t tid[64];
    _Atomic int running = 0;
    worker_t W = {fn, arg, &running};
    int started = 0;
    for (int t = 1; t < threads; t++) {
        atomic_fetch_add(&running, 1);
        if (pthread_create(&tid[started], NULL, worker_main, &W) != 0) {
            atomic_fetch_sub(&running, 1);
            break;
        }
        started++;
    }
    fn(arg);
    while (atomic_load(&running) > 0) {
        struct timespec ts = {0, 2000000};
        ml_interrupt_poll();
        nanosleep(&ts, NULL);
    }
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    return started + 1;
}
