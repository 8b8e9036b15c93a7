/* coset_impl.h: what the pieces of the coset search share (coset.c, coset_gf2.c,
 * coset_zn.c; see coset.c). Internal to csrc/search/ (not installed, not part of any
 * API). */
#ifndef ML_COSET_IMPL_H
#define ML_COSET_IMPL_H
#include "search/coset.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ shared state */
typedef struct {
    pthread_mutex_t lock;
    _Atomic int64_t best_len;
    _Atomic uint64_t best_chunk; /* the chunk of the best element (nchunks: x0, none yet) */
    _Atomic uint64_t examined;
    _Atomic uint64_t pruned;
    _Atomic uint64_t next_chunk;
    _Atomic int stop;          /* budget or deadline reached */
    uint64_t nchunks;
    uint64_t check_every;      /* elements between budget / clock checks */
    uint64_t budget;           /* 0 = none */
    double deadline;           /* <= 0 = none */
} shared_t;

/* A fresh shared state: best length best_len (x0's, in chunk nchunks: none yet),
 * nchunks chunks, a budget (elements, 0: none) and a clock limit (seconds, <= 0: none)
 * (coset.c). */
void ml_coset__shared_init(shared_t *sh, int64_t best_len, uint64_t nchunks, uint64_t budget,
                           double seconds);
/* Account `done` examined elements; returns 1 when the search must stop (coset.c). */
int ml_coset__shared_tick(shared_t *sh, uint64_t done);
/* Run fn(arg) on `threads` threads (this one included; coset.c); returns how many ran. */
int ml_coset__run_threads(void *(*fn)(void *), void *arg, int threads);

/* Whether an element of length w in chunk c beats the best so far: shorter, or as short
 * and in a lower chunk. Of equally short elements the search keeps the one of the lowest
 * chunk (the first of its walk), so its answer does not depend on which thread walks
 * which chunk when. Lock-free: the best only decreases (length, then chunk), so a stale
 * read lets more through, never less; offers check again under the lock. */
static inline int better(shared_t *sh, int64_t w, uint64_t c)
{
    int64_t b = atomic_load(&sh->best_len);
    return w < b || (w == b && c < atomic_load(&sh->best_chunk));
}

/* Whether a chunk c whose elements are all at least `fixed` long can be skipped. */
static inline int chunk_beaten(shared_t *sh, int64_t fixed, uint64_t c)
{
    int64_t b = atomic_load(&sh->best_len);
    return fixed > b || (fixed == b && c > atomic_load(&sh->best_chunk));
}

/* Count one examined element; every check_every of them, account them and say
 * whether the search must stop. */
static inline int walk_tick(shared_t *sh, uint64_t *pending)
{
    if (__builtin_expect(++*pending < sh->check_every, 1))
        return 0;
    uint64_t done = *pending;
    *pending = 0;
    return ml_coset__shared_tick(sh, done);
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define ML_HAVE_AVX2_WALK 1
/* The sum of the four 64-bit lanes of v. */
__attribute__((target("avx2"), always_inline))
static inline int64_t hsum_epi64(__m256i v)
{
    __m128i h = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1);
}
#endif

#endif
