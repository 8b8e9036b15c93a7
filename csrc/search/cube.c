/* cube.c: least weight over a GF(2) coset by Walsh-Hadamard leaves. See cube.h. */
#include "search/cube.h"
#include "base/cpu.h"
#include "base/interrupt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define ML_CUBE_AVX2 1
#endif

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ the transform */
/* Stages 0..3 (butterflies of span 1, 2, 4, 8) on blocks of 16, from D into T. */
static void wht_low4_plain(int16_t *T, const int16_t *D, size_t len)
{
    for (size_t b = 0; b < len; b += 16) {
        int16_t v[16];
        memcpy(v, D + b, sizeof v);
        for (unsigned h = 1; h < 16; h <<= 1)
            for (unsigned i = 0; i < 16; i += 2 * h)
                for (unsigned j = i; j < i + h; j++) {
                    int16_t a = v[j], c = v[j + h];
                    v[j] = (int16_t)(a + c);
                    v[j + h] = (int16_t)(a - c);
                }
        memcpy(T + b, v, sizeof v);
    }
}

#ifdef ML_CUBE_AVX2
__attribute__((target("avx2")))
/* Stages 0..3, and 4..6 too when len >= 128 (then returns 7, else 4), from D into T. */
static unsigned wht_low_avx2(int16_t *T, const int16_t *D, size_t len)
{
    const __m256i swap1 = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15,
                                           12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
                                           14, 15, 12, 13);
    const __m256i s1 = _mm256_setr_epi16(1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1,
                                         1, -1);
    const __m256i s2 = _mm256_setr_epi16(1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1, 1, 1,
                                         -1, -1);
    const __m256i s4 = _mm256_setr_epi16(1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1, -1, -1,
                                         -1, -1);
    const __m256i s8 = _mm256_setr_epi16(1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1,
                                         -1, -1);
    /* lane j of a span-h stage: x_j + x_{j^h} below, x_{j^h} - x_j above */
#define LOW4(x)                                                                         \
    do {                                                                                \
        x = _mm256_add_epi16(_mm256_sign_epi16(x, s1), _mm256_shuffle_epi8(x, swap1));  \
        x = _mm256_add_epi16(_mm256_sign_epi16(x, s2), _mm256_shuffle_epi32(x, 0xB1));  \
        x = _mm256_add_epi16(_mm256_sign_epi16(x, s4), _mm256_shuffle_epi32(x, 0x4E));  \
        x = _mm256_add_epi16(_mm256_sign_epi16(x, s8),                                  \
                             _mm256_permute2x128_si256(x, x, 1));                       \
    } while (0)
    if (len >= 128) {
        /* stages 0..6 in one pass: four within each vector, three across eight */
        for (size_t b = 0; b < len; b += 128) {
            __m256i v[8];
            for (int t = 0; t < 8; t++) {
                v[t] = _mm256_loadu_si256((const __m256i *)(D + b + 16 * t));
                LOW4(v[t]);
            }
            for (int h = 1; h < 8; h <<= 1)
                for (int t = 0; t < 8; t++)
                    if (!(t & h)) {
                        __m256i a = v[t], c = v[t + h];
                        v[t] = _mm256_add_epi16(a, c);
                        v[t + h] = _mm256_sub_epi16(a, c);
                    }
            for (int t = 0; t < 8; t++)
                _mm256_store_si256((__m256i *)(T + b + 16 * t), v[t]);
        }
        return 7;
    }
    for (size_t b = 0; b < len; b += 16) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(D + b));
        LOW4(x);
        _mm256_storeu_si256((__m256i *)(T + b), x);
    }
    return 4;
#undef LOW4
}
#endif

/* Stages lo..hi-1 in place on T[0 .. len) (len a multiple of 2^hi), plain C. */
static void wht_stages_plain(int16_t *T, size_t len, unsigned lo, unsigned hi)
{
    for (unsigned s = lo; s < hi; s++) {
        size_t h = (size_t)1 << s;
        for (size_t i = 0; i < len; i += 2 * h) {
            int16_t *p = T + i, *q = T + i + h;
            for (size_t j = 0; j < h; j++) {
                int16_t a = p[j], c = q[j];
                p[j] = (int16_t)(a + c);
                q[j] = (int16_t)(a - c);
            }
        }
    }
}

static int16_t max16_plain(const int16_t *T, size_t len)
{
    int16_t mx = T[0];
    for (size_t i = 1; i < len; i++)
        mx = T[i] > mx ? T[i] : mx;
    return mx;
}

#ifdef ML_CUBE_AVX2
#define BF(a, b)                                                                      \
    do {                                                                              \
        __m256i t_ = _mm256_add_epi16(a, b);                                          \
        b = _mm256_sub_epi16(a, b);                                                   \
        a = t_;                                                                       \
    } while (0)

/* Stages s .. s+r-1 (r = 1, 2 or 3, 2^s >= 16 elements) in one pass over T; with
 * vmax, also the lane-wise max of everything stored, folded into *vmax. */
#define ST(off, v)                                                                    \
    do {                                                                              \
        _mm256_store_si256((__m256i *)(T + j + (off)), v);                            \
        if (vmax)                                                                     \
            mx = _mm256_max_epi16(mx, v);                                             \
    } while (0)
#define LD(off) _mm256_load_si256((const __m256i *)(T + j + (off)))
__attribute__((target("avx2"), always_inline))
static inline void wht_pass_avx2_body(int16_t *T, size_t len, unsigned s, unsigned r,
                                      __m256i *vmax)
{
    size_t h = (size_t)1 << s;
    __m256i mx = vmax ? *vmax : _mm256_setzero_si256();
    if (r == 3) {
        for (size_t i = 0; i < len; i += 8 * h)
            for (size_t j = i; j < i + h; j += 16) {
                __m256i v0 = LD(0), v1 = LD(h), v2 = LD(2 * h), v3 = LD(3 * h);
                __m256i v4 = LD(4 * h), v5 = LD(5 * h), v6 = LD(6 * h), v7 = LD(7 * h);
                BF(v0, v1); BF(v2, v3); BF(v4, v5); BF(v6, v7);
                BF(v0, v2); BF(v1, v3); BF(v4, v6); BF(v5, v7);
                BF(v0, v4); BF(v1, v5); BF(v2, v6); BF(v3, v7);
                ST(0, v0); ST(h, v1); ST(2 * h, v2); ST(3 * h, v3);
                ST(4 * h, v4); ST(5 * h, v5); ST(6 * h, v6); ST(7 * h, v7);
            }
    } else if (r == 2) {
        for (size_t i = 0; i < len; i += 4 * h)
            for (size_t j = i; j < i + h; j += 16) {
                __m256i v0 = LD(0), v1 = LD(h), v2 = LD(2 * h), v3 = LD(3 * h);
                BF(v0, v1); BF(v2, v3);
                BF(v0, v2); BF(v1, v3);
                ST(0, v0); ST(h, v1); ST(2 * h, v2); ST(3 * h, v3);
            }
    } else {
        for (size_t i = 0; i < len; i += 2 * h)
            for (size_t j = i; j < i + h; j += 16) {
                __m256i v0 = LD(0), v1 = LD(h);
                BF(v0, v1);
                ST(0, v0); ST(h, v1);
            }
    }
    if (vmax)
        *vmax = mx;
}
#undef ST
#undef LD

__attribute__((target("avx2")))
static void wht_pass_avx2(int16_t *T, size_t len, unsigned s, unsigned r)
{
    wht_pass_avx2_body(T, len, s, r, NULL);
}

__attribute__((target("avx2")))
static void wht_pass_max_avx2(int16_t *T, size_t len, unsigned s, unsigned r, __m256i *vmax)
{
    wht_pass_avx2_body(T, len, s, r, vmax);
}

/* Stages lo..hi-1 (lo >= 4) in passes of up to three; with vmax the last pass also
 * folds the max of T into *vmax (lo < hi). */
__attribute__((target("avx2")))
static void wht_stages_avx2(int16_t *T, size_t len, unsigned lo, unsigned hi, __m256i *vmax)
{
    while (lo < hi) {
        unsigned r = hi - lo >= 3 ? 3 : hi - lo;
        if (vmax && lo + r == hi)
            wht_pass_max_avx2(T, len, lo, r, vmax);
        else
            wht_pass_avx2(T, len, lo, r);
        lo += r;
    }
}

__attribute__((target("avx2")))
static int16_t hmax16_avx2(__m256i a)
{
    int16_t v[16];
    _mm256_storeu_si256((__m256i *)v, a);
    int16_t mx = v[0];
    for (int i = 1; i < 16; i++)
        mx = v[i] > mx ? v[i] : mx;
    return mx;
}

__attribute__((target("avx2")))
static int16_t max16_avx2(const int16_t *T, size_t len)
{
    __m256i a = _mm256_load_si256((const __m256i *)T);
    for (size_t i = 16; i < len; i += 16)
        a = _mm256_max_epi16(a, _mm256_load_si256((const __m256i *)(T + i)));
    int16_t v[16];
    _mm256_storeu_si256((__m256i *)v, a);
    int16_t mx = v[0];
    for (int i = 1; i < 16; i++)
        mx = v[i] > mx ? v[i] : mx;
    return mx;
}
#endif

/* Elements per cache block: the stages below BLOCK_LOG run block by block. */
#define BLOCK_LOG 13

#ifdef ML_CUBE_AVX2
/* wht_max on the AVX2 path (m >= 4). */
__attribute__((target("avx2")))
static int16_t wht_max_avx2(int16_t *T, const int16_t *D, unsigned m)
{
    size_t len = (size_t)1 << m;
    unsigned inner = m < BLOCK_LOG ? m : BLOCK_LOG;
    size_t blk = (size_t)1 << inner;
    unsigned lo = wht_low_avx2(T, D, len);
    if (lo >= m)                       /* m < 7: every stage done */
        return max16_avx2(T, len);
    __m256i vmax = _mm256_set1_epi16(INT16_MIN);
    if (inner >= m) {                  /* one block: its last pass finds the max */
        wht_stages_avx2(T, len, lo, m, &vmax);
    } else {
        if (lo < inner)
            for (size_t b = 0; b < len; b += blk)
                wht_stages_avx2(T + b, blk, lo, inner, NULL);
        wht_stages_avx2(T, len, inner > lo ? inner : lo, m, &vmax);
    }
    return hmax16_avx2(vmax);
}
#endif

/* T = WHT(D) over 2^m entries (T 32-byte aligned); returns max T. */
static int16_t wht_max(int16_t *T, const int16_t *D, unsigned m, int avx2)
{
    size_t len = (size_t)1 << m;
    unsigned inner = m < BLOCK_LOG ? m : BLOCK_LOG;
    size_t blk = (size_t)1 << inner;
#ifdef ML_CUBE_AVX2
    if (avx2 && m >= 4)
        return wht_max_avx2(T, D, m);
#endif
    (void)avx2;
    if (m < 4) {
        memcpy(T, D, len * sizeof(int16_t));
        wht_stages_plain(T, len, 0, m);
        return max16_plain(T, len);
    }
    wht_low4_plain(T, D, len);
    for (size_t b = 0; b < len; b += blk)
        wht_stages_plain(T + b, blk, 4, inner);
    wht_stages_plain(T, len, inner, m);
    return max16_plain(T, len);
}

/* ------------------------------------------------------------------ shared state */
typedef struct {
    const ml_cube_gf2 *P;
    unsigned top;
    const uint64_t *corners;
    size_t ncorners;
    _Atomic size_t next;
    _Atomic int64_t best;
    _Atomic uint64_t leaves, skipped, done;
    _Atomic int stop;
    _Atomic int failed;
    _Atomic int running;        /* worker threads besides the calling one */
    double deadline;
    int avx2;
    pthread_mutex_t lock;
    int have;                   /* a best below the bound was recorded (under lock) */
    size_t best_q;              /* its corner's index and leaf step (under lock) */
    uint64_t best_t;
    uint64_t best_high;
    uint32_t best_low;
} job_t;

typedef struct {
    int16_t *D, *T;
    int8_t *s;
    uint64_t *img;
    void *mem;
} work_t;

static int work_alloc(work_t *w, const ml_cube_gf2 *P)
{
    size_t len = (size_t)1 << P->m;
    size_t bytes = 2 * len * sizeof(int16_t) + 64 + P->n_taps + 8
                   + (size_t)(P->ng + 1) * sizeof(uint64_t);
    w->mem = malloc(bytes);
    if (!w->mem)
        return -1;
    uintptr_t a = ((uintptr_t)w->mem + 31) & ~(uintptr_t)31;
    w->D = (int16_t *)a;
    w->T = w->D + len;
    w->img = (uint64_t *)(w->T + len);
    w->s = (int8_t *)(w->img + P->ng + 1);
    return 0;
}

/* D and the signs for the leaf `high` from scratch. */
static void leaf_setup(const ml_cube_gf2 *P, uint64_t high, work_t *w)
{
    size_t N = P->n_taps, len = (size_t)1 << P->m;
    for (size_t j = 0; j < N; j++)
        w->s[j] = (int8_t)(P->y0[j] & 1);
    for (unsigned i = 0; i < P->kh; i++)
        if (high >> i & 1)
            for (uint32_t p = P->sup_start[i]; p < P->sup_start[i + 1]; p++)
                w->s[P->sup_idx[p]] ^= 1;
    memset(w->D, 0, len * sizeof(int16_t));
    for (size_t j = 0; j < N; j++) {
        w->s[j] = (int8_t)(1 - 2 * w->s[j]);
        w->D[P->col[j]] = (int16_t)(w->D[P->col[j]] + w->s[j]);
    }
}

static uint64_t sym_image(const ml_cube_gf2 *P, unsigned g, uint64_t high)
{
    uint64_t v = P->sym_shift[g];
    for (unsigned i = 0; i < P->kh; i++)
        if (high >> i & 1)
            v ^= P->sym_mat[(size_t)g * P->kh + i];
    return v;
}

/* Record leaf (q, t) (corner index, step of its walk) of least weight w when it beats
 * the best so far: a smaller weight, or the same one at an earlier (q, t), so that the
 * element reported is the first of least weight in the walk's order whatever the
 * threads' timing (the one a single thread reports). */
static void offer(job_t *J, int64_t w, size_t q, uint64_t t, uint64_t high, const int16_t *T,
                  int16_t mx)
{
    if (w > atomic_load(&J->best))
        return;
    size_t len = (size_t)1 << J->P->m, arg = 0;
    while (arg < len && T[arg] != mx)
        arg++;
    pthread_mutex_lock(&J->lock);
    int64_t b = atomic_load(&J->best);
    if (w < b || (w == b && J->have && (q < J->best_q || (q == J->best_q && t < J->best_t)))) {
        atomic_store(&J->best, w);
        J->have = 1;
        J->best_q = q;
        J->best_t = t;
        J->best_high = high;
        J->best_low = (uint32_t)arg;
    }
    pthread_mutex_unlock(&J->lock);
}

static int must_stop(job_t *J)
{
    if (atomic_load_explicit(&J->stop, memory_order_relaxed))
        return 1;
    if ((J->deadline > 0 && now_seconds() > J->deadline) || ml_interrupt_poll()) {
        atomic_store(&J->stop, 1);
        return 1;
    }
    return 0;
}

/* Walk the leaves below one corner; returns 1 when stopped early. */
static int walk_corner(job_t *J, work_t *w, size_t q)
{
    uint64_t corner = J->corners[q];
    const ml_cube_gf2 *P = J->P;
    unsigned inner = P->kh - J->top, ng = P->ng;
    int64_t N = (int64_t)P->n_taps;
    uint64_t c = corner, leaves = 0, skipped = 0;
    leaf_setup(P, c, w);
    for (unsigned g = 0; g < ng; g++)
        w->img[g] = sym_image(P, g, c);
    uint64_t count = inner >= 64 ? 0 : (uint64_t)1 << inner;
    int stopped = 0;
    for (uint64_t t = 0; t < count; t++) {
        if (t) {
            unsigned i = (unsigned)__builtin_ctzll(t);
            c ^= (uint64_t)1 << i;
            for (uint32_t p = P->sup_start[i]; p < P->sup_start[i + 1]; p++) {
                uint32_t j = P->sup_idx[p];
                int16_t *d = w->D + P->col[j];
                *d = (int16_t)(*d - 2 * w->s[j]);
                w->s[j] = (int8_t)-w->s[j];
            }
            for (unsigned g = 0; g < ng; g++)
                w->img[g] ^= P->sym_mat[(size_t)g * P->kh + i];
        }
        int least = 1;
        for (unsigned g = 0; g < ng; g++)
            if (w->img[g] < c) {
                least = 0;
                break;
            }
        if (!least) {
            skipped++;
            continue;
        }
        int16_t mx = wht_max(w->T, w->D, P->m, J->avx2);
        int64_t wt = (N - mx) / 2;
        leaves++;
        if (wt <= atomic_load_explicit(&J->best, memory_order_relaxed))
            offer(J, wt, q, t, c, w->T, mx);
        if ((leaves & 15) == 0 && must_stop(J)) {
            stopped = 1;
            break;
        }
    }
    atomic_fetch_add(&J->leaves, leaves);
    atomic_fetch_add(&J->skipped, skipped);
    return stopped;
}

static void *worker(void *arg);

static void *helper(void *arg)
{
    job_t *J = (job_t *)arg;
    worker(arg);
    atomic_fetch_sub(&J->running, 1);
    return NULL;
}

static void *worker(void *arg)
{
    job_t *J = (job_t *)arg;
    work_t w;
    if (work_alloc(&w, J->P)) {
        atomic_store(&J->failed, 1);
        atomic_store(&J->stop, 1);
        return NULL;
    }
    for (;;) {
        if (must_stop(J))
            break;
        size_t q = atomic_fetch_add(&J->next, 1);
        if (q >= J->ncorners)
            break;
        if (walk_corner(J, &w, q))
            break;
        atomic_fetch_add(&J->done, 1);
    }
    free(w.mem);
    return NULL;
}

static int check_problem(const ml_cube_gf2 *P)
{
    if (!P || P->n_taps > ML_CUBE_MAX_TAPS || P->m > ML_CUBE_MAX_LOW || P->kh > 63)
        return -1;
    uint32_t lim = (uint32_t)1 << P->m;
    for (size_t j = 0; j < P->n_taps; j++)
        if (P->col[j] >= lim)
            return -1;
    for (unsigned i = 0; i < P->kh; i++)
        if (P->sup_start[i] > P->sup_start[i + 1])
            return -1;
    for (uint32_t p = P->sup_start[0]; p < P->sup_start[P->kh]; p++)
        if (P->sup_idx[p] >= P->n_taps)
            return -1;
    return 0;
}

int64_t ml_cube_min_gf2(const ml_cube_gf2 *P, unsigned top, const uint64_t *corners,
                        size_t ncorners, int64_t bound, double seconds, int threads,
                        uint64_t *best_high, uint32_t *best_low, ml_cube_stats *st)
{
    memset(st, 0, sizeof *st);
    if (check_problem(P) || top > P->kh)
        return -2;
    uint64_t below = P->kh - top >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (P->kh - top)) - 1;
    uint64_t above = P->kh >= 64 ? 0 : ~(((uint64_t)1 << P->kh) - 1);
    for (size_t q = 0; q < ncorners; q++)
        if (corners[q] & (below | above))
            return -2;
    job_t J;
    memset(&J, 0, sizeof J);
    J.P = P;
    J.top = top;
    J.corners = corners;
    J.ncorners = ncorners;
    atomic_store(&J.best, bound);
    J.deadline = seconds > 0 ? now_seconds() + seconds : 0.0;
    J.avx2 = ml_simd_get() >= ML_SIMD_AVX2;     /* the process-wide SIMD choice */
    pthread_mutex_init(&J.lock, NULL);
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    if ((size_t)threads > ncorners)
        threads = ncorners ? (int)ncorners : 1;
    pthread_t tid[64];
    int started = 0;
    for (int t = 1; t < threads; t++) {
        atomic_fetch_add(&J.running, 1);
        if (ml_thread_create(&tid[started], helper, &J) != 0) {
            atomic_fetch_sub(&J.running, 1);
            break;
        }
        started++;
    }
    worker(&J);
    /* the calling thread keeps polling for Ctrl-C while the others finish (only it
     * can see the signal) */
    while (atomic_load(&J.running) > 0) {
        struct timespec ts = {0, 2000000};
        must_stop(&J);
        nanosleep(&ts, NULL);
    }
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&J.lock);
    st->leaves = atomic_load(&J.leaves);
    st->skipped = atomic_load(&J.skipped);
    st->corners = atomic_load(&J.done);
    st->complete = st->corners == ncorners && !atomic_load(&J.failed);
    if (atomic_load(&J.failed))
        return -1;
    int64_t b = atomic_load(&J.best);
    if (b < bound) {
        *best_high = J.best_high;
        *best_low = J.best_low;
    }
    return b;
}

int64_t ml_cube_leaf_gf2(const ml_cube_gf2 *P, uint64_t high, uint32_t *arg)
{
    if (check_problem(P) || (P->kh < 64 && high >> P->kh))
        return -2;
    work_t w;
    if (work_alloc(&w, P))
        return -1;
    leaf_setup(P, high, &w);
    int avx2 = ml_simd_get() >= ML_SIMD_AVX2;
    int16_t mx = wht_max(w.T, w.D, P->m, avx2);
    size_t len = (size_t)1 << P->m, a = 0;
    while (a < len && w.T[a] != mx)
        a++;
    *arg = (uint32_t)a;
    free(w.mem);
    return ((int64_t)P->n_taps - mx) / 2;
}
