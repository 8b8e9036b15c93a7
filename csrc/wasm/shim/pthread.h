/* pthread.h for the WebAssembly build (wasi-libc without threads).
 *
 * The module runs on one thread: pthread_create always fails (EAGAIN), and every
 * caller in csrc/ then does the whole job on the calling thread (each one checks the
 * result and runs the work itself: chase/runner.c, chase/rowsolve.c, search/coset.c,
 * search/coset_batch.c, search/cube.c). Mutexes have nothing to exclude; pthread_once
 * runs its function on the first call. Only this
 * build puts csrc/wasm/shim on the include path. */
#ifndef ML_WASM_PTHREAD_SHIM_H
#define ML_WASM_PTHREAD_SHIM_H
#include <errno.h>

typedef unsigned long pthread_t;
typedef struct { int unused; } pthread_mutex_t;
typedef struct { int unused; } pthread_mutexattr_t;
typedef struct { int unused; } pthread_attr_t;
typedef int pthread_once_t;
#define PTHREAD_MUTEX_INITIALIZER {0}
#define PTHREAD_ONCE_INIT 0

static inline int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *),
                                 void *arg)
{
    (void)t; (void)a; (void)fn; (void)arg;
    return EAGAIN;
}
static inline int pthread_join(pthread_t t, void **ret)
{
    (void)t; (void)ret;
    return ESRCH;
}
static inline int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
    (void)m; (void)a;
    return 0;
}
static inline int pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_lock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_unlock(pthread_mutex_t *m) { (void)m; return 0; }
/* One thread: the first call runs fn, later ones nothing (api/registry.c loads its
 * engines this way). */
static inline int pthread_once(pthread_once_t *once, void (*fn)(void))
{
    if (!*once) {
        *once = 1;
        fn();
    }
    return 0;
}

#endif
