/* coset.c: Gray-code minimal-length search over x0 + ker(A). See coset.h. */
#include "search/coset.h"
#include "base/interrupt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_EVERY 4096u

/* The hot loops are compiled for several targets and picked at load time by the
 * CPU (GCC/Clang function multi-versioning); no -march flag is needed. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__clang__)
#define ML_CLONES __attribute__((target_clones("avx2", "popcnt", "default")))
#else
#define ML_CLONES
#endif

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int popcnt64(uint64_t x) { return __builtin_popcountll(x); }

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

static void shared_init(shared_t *sh, int64_t best_len, uint64_t nchunks, uint64_t budget,
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

/* Account `done` examined elements; returns 1 when the search must stop. */
static int shared_tick(shared_t *sh, uint64_t done)
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

/* Count one examined element; every check_every of them, account them and say
 * whether the search must stop. */
static inline int walk_tick(shared_t *sh, uint64_t *pending)
{
    if (__builtin_expect(++*pending < sh->check_every, 1))
        return 0;
    uint64_t done = *pending;
    *pending = 0;
    return shared_tick(sh, done);
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
static int run_threads(void *(*fn)(void *), void *arg, int threads)
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
        if (ml_thread_create(&tid[started], worker_main, &W) != 0) {
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

/* ================================================================== GF(2) */
typedef struct {
    shared_t sh;
    size_t k, nw, L;           /* L: inner (Gray-enumerated) coefficients */
    const uint64_t *x0;
    const uint64_t *basis;     /* k x nw, sorted: sparsest first */
    const uint32_t *sp_start;  /* sparse word lists: basis i owns [sp_start[i], sp_start[i+1]) */
    const uint32_t *sp_idx;
    const uint64_t *sp_val;
    const uint64_t *fixed_mask; /* words where no inner vector is non-zero */
    const uint64_t *basis4;    /* the basis again, rows padded to nw4 words, 32-byte aligned */
    size_t nw4;
    int use_avx2;
    uint64_t *best;            /* nw words, guarded by sh.lock */
} gf2_job;

static void gf2_offer(gf2_job *J, const uint64_t *cur, int64_t w, uint64_t chunk)
{
    if (!better(&J->sh, w, chunk))
        return;
    pthread_mutex_lock(&J->sh.lock);
    if (better(&J->sh, w, chunk)) {
        memcpy(J->best, cur, J->nw * sizeof(uint64_t));
        atomic_store(&J->sh.best_len, w);
        atomic_store(&J->sh.best_chunk, chunk);
    }
    pthread_mutex_unlock(&J->sh.lock);
}

/* Gray-code walk over the 2^L inner elements of one chunk starting at cur. */
ML_CLONES
static int gf2_walk(gf2_job *J, uint64_t *cur, int64_t w, uint64_t inner, uint64_t chunk)
{
    const size_t nw = J->nw;
    uint64_t pending = 1;
    for (uint64_t s = 1; s < inner; s++) {
        unsigned i = (unsigned)__builtin_ctzll(s);
        uint32_t p0 = J->sp_start[i], p1 = J->sp_start[i + 1];
        if (2 * (size_t)(p1 - p0) > nw) {
            /* dense vector: recount every word (one popcount a word, no indices) */
            const uint64_t *b = J->basis + (size_t)i * nw;
            int64_t nwgt = 0;
            for (size_t q = 0; q < nw; q++) {
                uint64_t v = cur[q] ^ b[q];
                cur[q] = v;
                nwgt += __builtin_popcountll(v);
            }
            w = nwgt;
        } else {
            /* sparse vector: update the changed words only */
            for (uint32_t p = p0; p < p1; p++) {
                uint64_t old = cur[J->sp_idx[p]];
                uint64_t nv = old ^ J->sp_val[p];
                w += __builtin_popcountll(nv) - __builtin_popcountll(old);
                cur[J->sp_idx[p]] = nv;
            }
        }
        if (w <= atomic_load_explicit(&J->sh.best_len, memory_order_relaxed))
            gf2_offer(J, cur, w, chunk);
        if (walk_tick(&J->sh, &pending))
            return 1;
    }
    return pending ? shared_tick(&J->sh, pending) : 0;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define ML_HAVE_AVX2_WALK 1
/* The same walk with every step done on 256-bit vectors: XOR the generator in and
 * recount the whole vector with a nibble-table popcount (no per-word popcount). */
/* The sum of the four 64-bit lanes of v. */
__attribute__((target("avx2"), always_inline))
static inline int64_t hsum_epi64(__m256i v)
{
    __m128i h = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1);
}
/* cv[q] ^= b[q] for q < cnt (at most 31 vectors); returns the popcount of the new
 * cv[0..cnt) as four 64-bit lanes (nibble-table popcount, SAD). */
__attribute__((target("avx2"), always_inline))
static inline __m256i xor_count(__m256i *cv, const __m256i *b, size_t cnt)
{
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                         0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    __m256i acc8 = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (size_t q = 0; q < cnt; q++) {
        __m256i v = _mm256_xor_si256(_mm256_load_si256(cv + q), _mm256_load_si256(b + q));
        _mm256_store_si256(cv + q, v);
        __m256i lo = _mm256_and_si256(v, low);
        __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
        acc8 = _mm256_add_epi8(acc8, _mm256_add_epi8(_mm256_shuffle_epi8(lut, lo),
                                                     _mm256_shuffle_epi8(lut, hi)));
    }
    return _mm256_sad_epu8(acc8, _mm256_setzero_si256());
}

__attribute__((target("avx2")))
static int gf2_walk_avx2(gf2_job *J, uint64_t *cur, uint64_t inner, uint64_t chunk)
{
    const size_t nv = J->nw4 / 4;
    __m256i *cv = (__m256i *)cur;
    uint64_t pending = 1;
    for (uint64_t s = 1; s < inner; s++) {
        unsigned i = (unsigned)__builtin_ctzll(s);
        const __m256i *b = (const __m256i *)(J->basis4 + (size_t)i * J->nw4);
        /* a byte of the block accumulator holds at most 8 * 31 = 248: blocks of 31
         * vectors; up to 7936 taps that is a single block */
        __m256i acc64;
        if (nv <= 31) {
            acc64 = xor_count(cv, b, nv);
        } else {
            acc64 = _mm256_setzero_si256();
            for (size_t q0 = 0; q0 < nv; q0 += 31)
                acc64 = _mm256_add_epi64(acc64, xor_count(cv + q0, b + q0,
                                                          nv - q0 < 31 ? nv - q0 : 31));
        }
        int64_t w = hsum_epi64(acc64);
        if (__builtin_expect(w <= atomic_load_explicit(&J->sh.best_len, memory_order_relaxed), 0))
            gf2_offer(J, cur, w, chunk);
        if (walk_tick(&J->sh, &pending))
            return 1;
    }
    return pending ? shared_tick(&J->sh, pending) : 0;
}
#endif

static void *gf2_worker(void *arg)
{
    gf2_job *J = (gf2_job *)arg;
    size_t nw = J->nw, L = J->L, k = J->k;
    uint64_t *cur = aligned_alloc(32, (J->nw4 ? J->nw4 : 4) * sizeof(uint64_t));
    if (!cur) {
        atomic_store(&J->sh.stop, 1);
        return NULL;
    }
    memset(cur, 0, (J->nw4 ? J->nw4 : 4) * sizeof(uint64_t));
    uint64_t inner = (uint64_t)1 << L;
    for (;;) {
        if (atomic_load(&J->sh.stop))
            break;
        uint64_t c = atomic_fetch_add(&J->sh.next_chunk, 1);
        if (c >= J->sh.nchunks)
            break;
        /* start of the chunk: x0 + the top coefficients given by c */
        memcpy(cur, J->x0, nw * sizeof(uint64_t));
        for (size_t t = 0; L + t < k; t++)
            if ((c >> t) & 1) {
                const uint64_t *b = J->basis + (L + t) * nw;
                for (size_t w = 0; w < nw; w++)
                    cur[w] ^= b[w];
            }
        /* sub-cube bound: the words no inner vector touches are fixed */
        int64_t fixed = 0, w = 0;
        for (size_t i = 0; i < nw; i++) {
            fixed += popcnt64(cur[i] & J->fixed_mask[i]);
            w += popcnt64(cur[i]);
        }
        if (chunk_beaten(&J->sh, fixed, c)) {
            atomic_fetch_add(&J->sh.pruned, inner);
            continue;
        }
        gf2_offer(J, cur, w, c);
#ifdef ML_HAVE_AVX2_WALK
        if (J->use_avx2) {
            if (gf2_walk_avx2(J, cur, inner, c))
                break;
            continue;
        }
#endif
        if (gf2_walk(J, cur, w, inner, c))
            break;
    }
    free(cur);
    return NULL;
}

static size_t weight_words(const uint64_t *v, size_t nw, int *bits)
{
    size_t nz = 0;
    int b = 0;
    for (size_t i = 0; i < nw; i++) {
        nz += v[i] != 0;
        b += popcnt64(v[i]);
    }
    if (bits)
        *bits = b;
    return nz;
}

/* Make the basis sparser without changing its span: replace b_i by b_i + b_j while
 * that lowers its weight. Cheaper inner steps follow. */
static void gf2_sparsify(uint64_t *B, size_t k, size_t nw, uint64_t *tmp)
{
    for (int pass = 0; pass < 4; pass++) {
        int changed = 0;
        for (size_t i = 0; i < k; i++) {
            int wi;
            weight_words(B + i * nw, nw, &wi);
            for (size_t j = 0; j < k; j++) {
                if (i == j)
                    continue;
                int wt = 0;
                for (size_t w = 0; w < nw; w++) {
                    tmp[w] = B[i * nw + w] ^ B[j * nw + w];
                    wt += popcnt64(tmp[w]);
                }
                if (wt < wi) {
                    memcpy(B + i * nw, tmp, nw * sizeof(uint64_t));
                    wi = wt;
                    changed = 1;
                }
            }
        }
        if (!changed)
            break;
    }
}

typedef struct { size_t nzw; int bits; size_t idx; } order_t;

static int order_cmp(const void *a, const void *b)
{
    const order_t *x = a, *y = b;
    if (x->nzw != y->nzw)
        return x->nzw < y->nzw ? -1 : 1;
    if (x->bits != y->bits)
        return x->bits < y->bits ? -1 : 1;
    return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

int64_t ml_coset_min_gf2(const uint64_t *x0, const uint64_t *basis, size_t k, size_t nw,
                         uint64_t budget, double seconds, int threads,
                         uint64_t *best, ml_coset_stats *st)
{
    int64_t w0 = 0;
    for (size_t i = 0; i < nw; i++)
        w0 += popcnt64(x0[i]);
    memcpy(best, x0, nw * sizeof(uint64_t));
    st->examined = 0;
    st->pruned = 0;
    st->complete = 0;
    if (k == 0 || w0 == 0) {
        st->examined = 1;
        st->complete = 1;
        return w0;
    }
    if (k > 62)
        return -1;

    uint64_t *B = malloc(k * nw * sizeof(uint64_t));
    uint64_t *S = malloc(k * nw * sizeof(uint64_t));
    uint64_t *tmp = malloc(nw * sizeof(uint64_t));
    order_t *ord = malloc(k * sizeof(order_t));
    uint32_t *sp_start = malloc((k + 1) * sizeof(uint32_t));
    uint32_t *sp_idx = malloc(k * nw * sizeof(uint32_t));
    uint64_t *sp_val = malloc(k * nw * sizeof(uint64_t));
    uint64_t *fixed = malloc(nw * sizeof(uint64_t));
    uint64_t *basis4 = NULL;
    int64_t result = -1;
    if (!B || !S || !tmp || !ord || !sp_start || !sp_idx || !sp_val || !fixed)
        goto done;
    memcpy(B, basis, k * nw * sizeof(uint64_t));
    gf2_sparsify(B, k, nw, tmp);
    for (size_t i = 0; i < k; i++) {
        ord[i].nzw = weight_words(B + i * nw, nw, &ord[i].bits);
        ord[i].idx = i;
    }
    qsort(ord, k, sizeof(order_t), order_cmp);
    for (size_t i = 0; i < k; i++)
        memcpy(S + i * nw, B + ord[i].idx * nw, nw * sizeof(uint64_t));

    uint32_t p = 0;
    for (size_t i = 0; i < k; i++) {
        sp_start[i] = p;
        for (size_t w = 0; w < nw; w++)
            if (S[i * nw + w]) {
                sp_idx[p] = (uint32_t)w;
                sp_val[p] = S[i * nw + w];
                p++;
            }
    }
    sp_start[k] = p;

    /* Split: top T coefficients index the chunks, the low L are Gray-enumerated. */
    size_t T = 0;
    if (k > 18)
        T = k - 16 < 12 ? k - 16 : 12;
    size_t L = k - T;
    for (size_t w = 0; w < nw; w++)
        fixed[w] = ~(uint64_t)0;
    for (size_t i = 0; i < L; i++)
        for (size_t w = 0; w < nw; w++)
            fixed[w] &= ~S[i * nw + w];

    size_t nw4 = (nw + 3) & ~(size_t)3;
    basis4 = aligned_alloc(32, (k && nw4 ? k * nw4 : 4) * sizeof(uint64_t));
    if (!basis4)
        goto done;
    memset(basis4, 0, k * nw4 * sizeof(uint64_t));
    for (size_t i = 0; i < k; i++)
        memcpy(basis4 + i * nw4, S + i * nw, nw * sizeof(uint64_t));

    gf2_job J;
    J.basis4 = basis4;
    J.nw4 = nw4;
    J.use_avx2 = 0;
#ifdef ML_HAVE_AVX2_WALK
    {
        const char *env = getenv("MODLIGHTS_SIMD");
        int forced_off = env && (strcmp(env, "portable") == 0);
        __builtin_cpu_init();
        J.use_avx2 = !forced_off && __builtin_cpu_supports("avx2");
    }
#endif
    shared_init(&J.sh, w0, (uint64_t)1 << T, budget, seconds);
    /* account (and poll for Ctrl-C) at least every 2^20 words of work */
    if (J.sh.check_every * nw > (UINT64_C(1) << 20))
        J.sh.check_every = (UINT64_C(1) << 20) / nw ? (UINT64_C(1) << 20) / nw : 1;
    J.k = k;
    J.nw = nw;
    J.L = L;
    J.x0 = x0;
    J.basis = S;
    J.sp_start = sp_start;
    J.sp_idx = sp_idx;
    J.sp_val = sp_val;
    J.fixed_mask = fixed;
    J.best = best;
    run_threads(gf2_worker, &J, T ? threads : 1);

    st->examined = atomic_load(&J.sh.examined);
    st->pruned = atomic_load(&J.sh.pruned);
    result = atomic_load(&J.sh.best_len);
    {
        uint64_t total = (uint64_t)1 << k;
        st->complete = st->examined + st->pruned >= total || result == 0;
    }
    pthread_mutex_destroy(&J.sh.lock);
done:
    free(B);
    free(S);
    free(tmp);
    free(ord);
    free(sp_start);
    free(sp_idx);
    free(sp_val);
    free(fixed);
    free(basis4);
    return result;
}

/* ================================================================== Z/nZ */
typedef struct {
    shared_t sh;
    size_t k, r, L;            /* generators 0..L-1 are Gray-enumerated; L..k-1 split chunks */
    unsigned n;
    const uint8_t *x0;
    const uint8_t *gens;       /* k x r, sorted: sparsest first */
    const uint32_t *orders;
    const uint32_t *sp_start;
    const uint32_t *sp_idx;
    const uint8_t *sp_val;     /* +g (mod n) */
    const uint8_t *sp_neg;     /* -g (mod n) */
    const uint8_t *fixed;      /* 1 where no inner generator is non-zero */
    const uint8_t *gpos;       /* +g and -g, rows padded to r32 bytes, 32-byte aligned */
    const uint8_t *gneg;
    size_t r32;
    int use_avx2;              /* n <= 128 and the CPU has AVX2 */
    uint8_t *best;
} zn_job;

static void zn_offer(zn_job *J, const uint8_t *cur, int64_t len, uint64_t chunk)
{
    if (!better(&J->sh, len, chunk))
        return;
    pthread_mutex_lock(&J->sh.lock);
    if (better(&J->sh, len, chunk)) {
        memcpy(J->best, cur, J->r);
        atomic_store(&J->sh.best_len, len);
        atomic_store(&J->sh.best_chunk, chunk);
    }
    pthread_mutex_unlock(&J->sh.lock);
}

/* Reflected mixed-radix Gray code: move the lowest digit that can move; returns the
 * generator moved (its direction in dir[i]) or L when the walk is over. */
static inline size_t zn_next(size_t L, const uint32_t *orders, uint32_t *dig, int8_t *dir)
{
    size_t i = 0;
    while (i < L) {
        int64_t nd = (int64_t)dig[i] + dir[i];
        if (nd >= 0 && nd < (int64_t)orders[i]) {
            dig[i] = (uint32_t)nd;
            return i;
        }
        dir[i] = (int8_t)-dir[i];
        i++;
    }
    return L;
}

/* The Gray walk over the inner generators of one chunk, starting at cur (length len):
 * the changed coordinates only. Returns 1 when the search must stop. */
static int zn_walk(zn_job *J, uint8_t *cur, int64_t len, uint32_t *dig, int8_t *dir,
                   uint64_t chunk)
{
    const unsigned n = J->n;
    uint64_t pending = 1;
    size_t i;
    while ((i = zn_next(J->L, J->orders, dig, dir)) < J->L) {
        const uint8_t *val = dir[i] > 0 ? J->sp_val : J->sp_neg;
        for (uint32_t p = J->sp_start[i]; p < J->sp_start[i + 1]; p++) {
            uint32_t j = J->sp_idx[p];
            unsigned old = cur[j];
            unsigned nv = old + val[p];
            if (nv >= n)
                nv -= n;
            len += (int64_t)nv - (int64_t)old;
            cur[j] = (uint8_t)nv;
        }
        if (len <= atomic_load_explicit(&J->sh.best_len, memory_order_relaxed))
            zn_offer(J, cur, len, chunk);
        if (walk_tick(&J->sh, &pending))
            return 1;
    }
    return pending ? shared_tick(&J->sh, pending) : 0;
}

#ifdef ML_HAVE_AVX2_WALK
/* The same walk on 256-bit vectors (n <= 128): add +-g bytewise, reduce with
 * min(v, v - n) (v - n wraps above v when v < n), sum the bytes with SAD. */
__attribute__((target("avx2")))
static int zn_walk_avx2(zn_job *J, uint8_t *cur, uint32_t *dig, int8_t *dir, uint64_t chunk)
{
    const size_t nv = J->r32 / 32;
    const __m256i nn = _mm256_set1_epi8((char)J->n);
    const __m256i zero = _mm256_setzero_si256();
    __m256i *cv = (__m256i *)cur;
    uint64_t pending = 1;
    size_t i;
    while ((i = zn_next(J->L, J->orders, dig, dir)) < J->L) {
        const __m256i *g = (const __m256i *)((dir[i] > 0 ? J->gpos : J->gneg) + i * J->r32);
        __m256i acc = zero;
        for (size_t q = 0; q < nv; q++) {
            __m256i v = _mm256_add_epi8(_mm256_load_si256(cv + q), _mm256_load_si256(g + q));
            v = _mm256_min_epu8(v, _mm256_sub_epi8(v, nn));
            _mm256_store_si256(cv + q, v);
            acc = _mm256_add_epi64(acc, _mm256_sad_epu8(v, zero));
        }
        int64_t len = hsum_epi64(acc);
        if (len <= atomic_load_explicit(&J->sh.best_len, memory_order_relaxed))
            zn_offer(J, cur, len, chunk);
        if (walk_tick(&J->sh, &pending))
            return 1;
    }
    return pending ? shared_tick(&J->sh, pending) : 0;
}
#endif

static void *zn_worker(void *arg)
{
    zn_job *J = (zn_job *)arg;
    size_t r = J->r, L = J->L, k = J->k;
    unsigned n = J->n;
    uint8_t *cur = aligned_alloc(32, J->r32 ? J->r32 : 32);
    if (cur)
        memset(cur, 0, J->r32 ? J->r32 : 32);
    uint32_t *dig = calloc(L ? L : 1, sizeof(uint32_t));
    int8_t *dir = malloc(L ? L : 1);
    if (!cur || !dig || !dir) {
        atomic_store(&J->sh.stop, 1);
        free(cur);
        free(dig);
        free(dir);
        return NULL;
    }
    uint64_t inner = 1;
    for (size_t i = 0; i < L; i++)
        inner *= J->orders[i];
    for (;;) {
        if (atomic_load(&J->sh.stop))
            break;
        uint64_t c = atomic_fetch_add(&J->sh.next_chunk, 1);
        if (c >= J->sh.nchunks)
            break;
        memcpy(cur, J->x0, r);
        uint64_t rest = c;
        for (size_t t = L; t < k; t++) {
            uint32_t coef = (uint32_t)(rest % J->orders[t]);
            rest /= J->orders[t];
            if (!coef)
                continue;
            const uint8_t *g = J->gens + t * r;
            for (size_t j = 0; j < r; j++)
                cur[j] = (uint8_t)((cur[j] + coef * (unsigned)g[j]) % n);
        }
        int64_t fixed = 0, len = 0;
        for (size_t j = 0; j < r; j++) {
            len += cur[j];
            if (J->fixed[j])
                fixed += cur[j];
        }
        if (chunk_beaten(&J->sh, fixed, c)) {
            atomic_fetch_add(&J->sh.pruned, inner);
            continue;
        }
        zn_offer(J, cur, len, c);
        for (size_t i = 0; i < L; i++) {
            dig[i] = 0;
            dir[i] = 1;
        }
        int stop;
#ifdef ML_HAVE_AVX2_WALK
        if (J->use_avx2)
            stop = zn_walk_avx2(J, cur, dig, dir, c);
        else
#endif
            stop = zn_walk(J, cur, len, dig, dir, c);
        if (stop || atomic_load(&J->sh.stop))
            break;
    }
    free(cur);
    free(dig);
    free(dir);
    return NULL;
}

typedef struct { size_t nnz; size_t idx; } zorder_t;

static int zorder_cmp(const void *a, const void *b)
{
    const zorder_t *x = a, *y = b;
    if (x->nnz != y->nnz)
        return x->nnz < y->nnz ? -1 : 1;
    return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

int64_t ml_coset_min_zn(const uint8_t *x0, const uint8_t *gens, const uint32_t *orders,
                        size_t k, size_t r, unsigned n,
                        uint64_t budget, double seconds, int threads,
                        uint8_t *best, ml_coset_stats *st)
{
    int64_t len0 = 0;
    for (size_t j = 0; j < r; j++)
        len0 += x0[j];
    memcpy(best, x0, r);
    st->examined = 0;
    st->pruned = 0;
    st->complete = 0;
    if (k == 0 || len0 == 0) {
        st->examined = 1;
        st->complete = 1;
        return len0;
    }
    uint64_t total = 1;
    for (size_t i = 0; i < k; i++) {
        if (orders[i] < 2 || total > (UINT64_C(1) << 62) / orders[i])
            return -1;
        total *= orders[i];
    }
    uint8_t *G = malloc(k * r);
    uint32_t *ordv = malloc(k * sizeof(uint32_t));
    zorder_t *ord = malloc(k * sizeof(zorder_t));
    uint32_t *sp_start = malloc((k + 1) * sizeof(uint32_t));
    uint32_t *sp_idx = malloc(k * r * sizeof(uint32_t) + 4);
    uint8_t *sp_val = malloc(k * r + 1);
    uint8_t *sp_neg = malloc(k * r + 1);
    uint8_t *fixed = malloc(r + 1);
    uint8_t *gpos = NULL, *gneg = NULL;
    int64_t result = -1;
    if (!G || !ordv || !ord || !sp_start || !sp_idx || !sp_val || !sp_neg || !fixed)
        goto done;
    for (size_t i = 0; i < k; i++) {
        size_t nnz = 0;
        for (size_t j = 0; j < r; j++)
            nnz += gens[i * r + j] != 0;
        ord[i].nnz = nnz;
        ord[i].idx = i;
    }
    qsort(ord, k, sizeof(zorder_t), zorder_cmp);
    for (size_t i = 0; i < k; i++) {
        memcpy(G + i * r, gens + ord[i].idx * r, r);
        ordv[i] = orders[ord[i].idx];
    }
    uint32_t p = 0;
    for (size_t i = 0; i < k; i++) {
        sp_start[i] = p;
        for (size_t j = 0; j < r; j++) {
            unsigned g = G[i * r + j] % n;
            if (g) {
                sp_idx[p] = (uint32_t)j;
                sp_val[p] = (uint8_t)g;
                sp_neg[p] = (uint8_t)(n - g);
                p++;
            }
        }
    }
    sp_start[k] = p;

    /* chunks: the top generators, while the inner part stays >= 2^14 elements */
    size_t L = k;
    uint64_t nchunks = 1, inner = total;
    while (L > 1 && inner / ordv[L - 1] >= (1u << 14) && nchunks * ordv[L - 1] <= 4096) {
        L--;
        inner /= ordv[L];
        nchunks *= ordv[L];
    }
    for (size_t j = 0; j < r; j++)
        fixed[j] = 1;
    for (size_t i = 0; i < L; i++)
        for (uint32_t q = sp_start[i]; q < sp_start[i + 1]; q++)
            fixed[sp_idx[q]] = 0;

    size_t r32 = (r + 31) & ~(size_t)31;
    gpos = aligned_alloc(32, k && r32 ? k * r32 : 32);
    gneg = aligned_alloc(32, k && r32 ? k * r32 : 32);
    if (!gpos || !gneg)
        goto done;
    memset(gpos, 0, k * r32);
    memset(gneg, 0, k * r32);
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < r; j++) {
            unsigned g = G[i * r + j] % n;
            gpos[i * r32 + j] = (uint8_t)g;
            gneg[i * r32 + j] = (uint8_t)(g ? n - g : 0);
        }

    zn_job J;
    J.gpos = gpos;
    J.gneg = gneg;
    J.r32 = r32;
    J.use_avx2 = 0;
#ifdef ML_HAVE_AVX2_WALK
    {
        const char *env = getenv("MODLIGHTS_SIMD");
        int forced_off = env && (strcmp(env, "portable") == 0);
        __builtin_cpu_init();
        J.use_avx2 = !forced_off && n <= 128 && __builtin_cpu_supports("avx2");
    }
#endif
    shared_init(&J.sh, len0, nchunks, budget, seconds);
    /* account (and poll for Ctrl-C) at least every 2^22 bytes of work */
    if (J.sh.check_every * r > (UINT64_C(1) << 22))
        J.sh.check_every = (UINT64_C(1) << 22) / r ? (UINT64_C(1) << 22) / r : 1;
    J.k = k;
    J.r = r;
    J.L = L;
    J.n = n;
    J.x0 = x0;
    J.gens = G;
    J.orders = ordv;
    J.sp_start = sp_start;
    J.sp_idx = sp_idx;
    J.sp_val = sp_val;
    J.sp_neg = sp_neg;
    J.fixed = fixed;
    J.best = best;
    run_threads(zn_worker, &J, nchunks > 1 ? threads : 1);

    st->examined = atomic_load(&J.sh.examined);
    st->pruned = atomic_load(&J.sh.pruned);
    result = atomic_load(&J.sh.best_len);
    st->complete = st->examined + st->pruned >= total || result == 0;
    pthread_mutex_destroy(&J.sh.lock);
done:
    free(G);
    free(ordv);
    free(ord);
    free(sp_start);
    free(sp_idx);
    free(sp_val);
    free(sp_neg);
    free(fixed);
    free(gpos);
    free(gneg);
    return result;
}
