/* coset_batch.c: batch and sub-cube minimal-length searches. See coset_batch.h. */
#define _POSIX_C_SOURCE 200809L
#include "search/coset_batch.h"

#include "base/interrupt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__clang__)
#define ML_CLONES __attribute__((target_clones("avx2", "popcnt", "default")))
#else
#define ML_CLONES
#endif

/* Tables of every kernel element are used up to this many bytes (and 2^20 elements);
 * beyond, each board runs the Gray-code search of coset.c. */
#define TABLE_MAX_BYTES ((size_t)16 << 20)
#define TABLE_MAX_ELEMS ((uint64_t)1 << 20)
#define BOARDS_PER_GRAB 256u

/* ------------------------------------------------------------ a parallel for over boards */
typedef struct {
    _Atomic size_t next;
    _Atomic int failed;
    _Atomic int running;       /* worker threads (not the caller) still in pfor_worker */
    size_t m;
    int (*body)(void *ctx, size_t i0, size_t i1);   /* returns -1 on failure */
    void *ctx;
} pfor_t;

/* Grabs boards until none are left, a body failed or a stop was requested (Ctrl-C:
 * see interrupt.h; the bodies poll too, so a grab in progress ends early). */
static void pfor_loop(pfor_t *P)
{
    for (;;) {
        if (atomic_load(&P->failed) || ml_interrupt_poll())
            break;
        size_t i0 = atomic_fetch_add(&P->next, BOARDS_PER_GRAB);
        if (i0 >= P->m)
            break;
        size_t i1 = i0 + BOARDS_PER_GRAB < P->m ? i0 + BOARDS_PER_GRAB : P->m;
        if (P->body(P->ctx, i0, i1) < 0)
            atomic_store(&P->failed, 1);
    }
}

static void *pfor_worker(void *arg)
{
    pfor_t *P = arg;
    pfor_loop(P);
    atomic_fetch_sub(&P->running, 1);
    return NULL;
}

/* body(ctx, i0, i1) over [0, m) in grabs of BOARDS_PER_GRAB, on up to `threads`
 * threads (the caller's among them). While the other threads finish, the caller keeps
 * polling for an interrupt (only it can see Ctrl-C; the others stop on the flag).
 * Returns 0 or -1 when a body failed; after an interrupt (ml_interrupt_pending()) the
 * outputs are partial and meaningless. */
static int parallel_boards(size_t m, int threads, int (*body)(void *, size_t, size_t),
                           void *ctx)
{
    pfor_t P;
    atomic_store(&P.next, 0);
    atomic_store(&P.failed, 0);
    atomic_store(&P.running, 0);
    P.m = m;
    P.body = body;
    P.ctx = ctx;
    size_t grabs = (m + BOARDS_PER_GRAB - 1) / BOARDS_PER_GRAB;
    if (threads > 64)
        threads = 64;
    if ((size_t)threads > grabs)
        threads = (int)grabs;
    pthread_t tid[64];
    int started = 0;
    for (int t = 1; t < threads; t++) {
        atomic_fetch_add(&P.running, 1);
        if (ml_thread_create(&tid[started], pfor_worker, &P) != 0) {
            atomic_fetch_sub(&P.running, 1);
            break;
        }
        started++;
    }
    pfor_loop(&P);
    while (atomic_load(&P.running) > 0) {
        struct timespec ts = {0, 2000000};
        ml_interrupt_poll();
        nanosleep(&ts, NULL);
    }
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    return atomic_load(&P.failed) ? -1 : 0;
}

/* Table walks poll for an interrupt after about this many table elements (a clock read
 * each time, so not after every board of a small table). */
#define POLL_ELEMS ((uint64_t)1 << 16)

/* Account cnt more table elements walked; 1 when the walk must stop (Ctrl-C). */
static inline int table_tick(uint64_t *work, uint64_t cnt)
{
    *work += cnt;
    if (*work < POLL_ELEMS)
        return 0;
    *work = 0;
    return ml_interrupt_poll();
}

/* ================================================================== GF(2) batch */
typedef struct {
    const uint64_t *X0;
    size_t xs, nw, k;
    uint64_t last_mask;        /* the bits of the last word that are taps */
    const uint64_t *table;     /* 2^k x nw: every kernel element, or NULL */
    const uint64_t *basis;
    int threads;               /* threads for the per-board search (no table) */
    int64_t *len;
    uint64_t *best;
    size_t bs;
} gf2_batch;

ML_CLONES
static int gf2_table_boards(void *arg, size_t i0, size_t i1)
{
    gf2_batch *B = arg;
    const size_t nw = B->nw;
    const uint64_t cnt = (uint64_t)1 << B->k;
    uint64_t x[64];
    uint64_t work = 0;
    for (size_t i = i0; i < i1; i++) {
        if (table_tick(&work, cnt))
            return 0;
        const uint64_t *row = B->X0 + i * B->xs;
        uint64_t bj = 0;
        int64_t bw = INT64_MAX;
        if (nw == 1) {
            uint64_t x1 = row[0] & B->last_mask;
            for (uint64_t j = 0; j < cnt; j++) {
                int64_t w = __builtin_popcountll(x1 ^ B->table[j]);
                if (w < bw) {
                    bw = w;
                    bj = j;
                }
            }
            if (B->best)
                B->best[i * B->bs] = x1 ^ B->table[bj];
        } else {
            for (size_t q = 0; q < nw; q++)
                x[q] = row[q];
            x[nw - 1] &= B->last_mask;
            for (uint64_t j = 0; j < cnt; j++) {
                const uint64_t *t = B->table + j * nw;
                int64_t w = 0;
                for (size_t q = 0; q < nw; q++)
                    w += __builtin_popcountll(x[q] ^ t[q]);
                if (w < bw) {
                    bw = w;
                    bj = j;
                }
            }
            if (B->best)
                for (size_t q = 0; q < nw; q++)
                    B->best[i * B->bs + q] = x[q] ^ B->table[bj * nw + q];
        }
        B->len[i] = bw;
    }
    return 0;
}

int ml_coset_min_gf2_many(const uint64_t *X0, size_t m, size_t xs, size_t r,
                          const uint64_t *basis, size_t k, int threads,
                          int64_t *len, uint64_t *best, size_t bs)
{
    size_t nw = r ? (r + 63) / 64 : 1;
    if (k > 62)
        return -1;
    gf2_batch B;
    B.X0 = X0;
    B.xs = xs;
    B.nw = nw;
    B.k = k;
    B.last_mask = r % 64 ? ((uint64_t)1 << (r % 64)) - 1 : ~(uint64_t)0;
    if (r == 0)
        B.last_mask = 0;
    B.basis = basis;
    B.threads = threads;
    B.len = len;
    B.best = best;
    B.bs = bs;
    uint64_t cnt = (uint64_t)1 << k;
    if (nw <= 64 && cnt <= TABLE_MAX_ELEMS && cnt * nw * sizeof(uint64_t) <= TABLE_MAX_BYTES) {
        uint64_t *T = malloc(cnt * nw * sizeof(uint64_t));
        if (!T)
            return -1;
        memset(T, 0, nw * sizeof(uint64_t));
        /* T[s] = T[s without its lowest bit] + basis[lowest bit of s] */
        for (uint64_t s = 1; s < cnt; s++) {
            const uint64_t *prev = T + (s & (s - 1)) * nw;
            const uint64_t *b = basis + (size_t)__builtin_ctzll(s) * nw;
            for (size_t q = 0; q < nw; q++)
                T[s * nw + q] = prev[q] ^ b[q];
        }
        B.table = T;
        int rc = parallel_boards(m, threads, gf2_table_boards, &B);
        free(T);
        return rc;
    }
    /* a large kernel: the threaded Gray-code search of coset.c, board after board */
    uint64_t *x = malloc(nw * sizeof(uint64_t));
    uint64_t *bx = malloc(nw * sizeof(uint64_t));
    int rc = 0;
    if (!x || !bx)
        rc = -1;
    for (size_t i = 0; i < m && rc == 0 && !ml_interrupt_poll(); i++) {
        memcpy(x, X0 + i * xs, nw * sizeof(uint64_t));
        x[nw - 1] &= B.last_mask;
        ml_coset_stats st;
        int64_t w = ml_coset_min_gf2(x, basis, k, nw, 0, 0.0, threads, bx, &st);
        if (w < 0) {
            rc = -1;
            break;
        }
        len[i] = w;
        if (best)
            memcpy(best + i * bs, bx, nw * sizeof(uint64_t));
    }
    free(x);
    free(bx);
    return rc;
}

/* ================================================================== Z/n batch */
typedef struct {
    const uint8_t *X0;
    size_t xs, r;
    unsigned n;
    const uint8_t *table;      /* cnt rows of ts bytes (r used, zero padding), aligned */
    size_t ts;
    uint64_t cnt;
    int64_t *len;
    uint8_t *best;
    size_t bs;
} zn_batch;

/* board i's least-length element is x + table row bj: write it out */
static void zn_write_best(const zn_batch *B, size_t i, const uint8_t *x, uint64_t bj)
{
    const uint8_t *t = B->table + bj * B->ts;
    uint8_t *o = B->best + i * B->bs;
    for (size_t q = 0; q < B->r; q++) {
        unsigned v = (unsigned)x[q] + t[q];
        o[q] = (uint8_t)(v >= B->n ? v - B->n : v);
    }
}

/* sum over q of (x[q] + t[q]) mod n */
static inline __attribute__((always_inline)) int64_t zn_len_sum(const uint8_t *x, const uint8_t *t, size_t r, unsigned n)
{
    unsigned s = 0;
    if (n <= 128) {
        /* v < 2n <= 256: min(v, v - n) wraps above v exactly when v < n */
        const uint8_t nn = (uint8_t)n;
        for (size_t q = 0; q < r; q++) {
            uint8_t v = (uint8_t)(x[q] + t[q]);
            uint8_t u = (uint8_t)(v - nn);
            s += u < v ? u : v;
        }
        return s;
    }
    int64_t w = 0;
    for (size_t q = 0; q < r; q++) {
        unsigned v = (unsigned)x[q] + t[q];
        w += v >= n ? v - n : v;
    }
    return w;
}

ML_CLONES
static int zn_table_boards(void *arg, size_t i0, size_t i1)
{
    zn_batch *B = arg;
    const size_t r = B->r;
    uint64_t work = 0;
    for (size_t i = i0; i < i1; i++) {
        if (table_tick(&work, B->cnt))
            return 0;
        const uint8_t *x = B->X0 + i * B->xs;
        uint64_t bj = 0;
        int64_t bw = INT64_MAX;
        for (uint64_t j = 0; j < B->cnt; j++) {
            int64_t w = zn_len_sum(x, B->table + j * B->ts, r, B->n);
            if (w < bw) {
                bw = w;
                bj = j;
            }
        }
        B->len[i] = bw;
        if (B->best)
            zn_write_best(B, i, x, bj);
    }
    return 0;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define ML_HAVE_AVX2_TABLE 1
/* The same on 256-bit vectors (n <= 128): add a table row bytewise, reduce with
 * min(v, v - n), sum the bytes with SAD; padding bytes are 0 on both sides. */
__attribute__((target("avx2")))
static int zn_table_boards_avx2(void *arg, size_t i0, size_t i1)
{
    zn_batch *B = arg;
    const size_t nv = B->ts / 32;
    const __m256i nn = _mm256_set1_epi8((char)B->n);
    const __m256i zero = _mm256_setzero_si256();
    __m256i *xb = aligned_alloc(32, B->ts);
    if (!xb)
        return -1;
    memset(xb, 0, B->ts);
    uint64_t work = 0;
    for (size_t i = i0; i < i1; i++) {
        if (table_tick(&work, B->cnt))
            break;
        const uint8_t *x = B->X0 + i * B->xs;
        memcpy(xb, x, B->r);
        uint64_t bj = 0;
        int64_t bw = INT64_MAX;
        for (uint64_t j = 0; j < B->cnt; j++) {
            const __m256i *t = (const __m256i *)(B->table + j * B->ts);
            __m256i acc = zero;
            for (size_t q = 0; q < nv; q++) {
                __m256i v = _mm256_add_epi8(_mm256_load_si256(xb + q), _mm256_load_si256(t + q));
                v = _mm256_min_epu8(v, _mm256_sub_epi8(v, nn));
                acc = _mm256_add_epi64(acc, _mm256_sad_epu8(v, zero));
            }
            __m128i h = _mm_add_epi64(_mm256_castsi256_si128(acc),
                                      _mm256_extracti128_si256(acc, 1));
            int64_t w = _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1);
            if (w < bw) {
                bw = w;
                bj = j;
            }
        }
        B->len[i] = bw;
        if (B->best)
            zn_write_best(B, i, x, bj);
    }
    free(xb);
    return 0;
}
#endif

/* AVX2 table walks unless the CPU lacks it or MODLIGHTS_SIMD=portable (as coset.c) */
static int zn_use_avx2(unsigned n)
{
#ifdef ML_HAVE_AVX2_TABLE
    const char *env = getenv("MODLIGHTS_SIMD");
    __builtin_cpu_init();
    return n <= 128 && !(env && strcmp(env, "portable") == 0) &&
           __builtin_cpu_supports("avx2");
#else
    (void)n;
    return 0;
#endif
}

int ml_coset_min_zn_many(const uint8_t *X0, size_t m, size_t xs, const uint8_t *gens,
                         const uint32_t *orders, size_t k, size_t r, unsigned n,
                         int threads, int64_t *len, uint8_t *best, size_t bs)
{
    uint64_t cnt = 1;
    for (size_t i = 0; i < k; i++) {
        if (orders[i] < 2 || cnt > (UINT64_C(1) << 62) / orders[i])
            return -1;
        cnt *= orders[i];
    }
    size_t ts = (r + 31) & ~(size_t)31;
    if (ts == 0)
        ts = 32;
    if (cnt <= TABLE_MAX_ELEMS && cnt * ts <= TABLE_MAX_BYTES) {
        uint8_t *T = aligned_alloc(32, cnt * ts);
        if (!T)
            return -1;
        memset(T, 0, cnt * ts);
        /* the table grows generator by generator: T[c * have + j] = T[j] + c g_i */
        uint64_t have = 1;
        for (size_t i = 0; i < k; i++) {
            const uint8_t *g = gens + i * r;
            for (uint32_t c = 1; c < orders[i]; c++)
                for (uint64_t j = 0; j < have; j++) {
                    const uint8_t *src = T + ((c - 1) * have + j) * ts;
                    uint8_t *dst = T + (c * have + j) * ts;
                    for (size_t q = 0; q < r; q++) {
                        unsigned v = (unsigned)src[q] + g[q] % n;
                        dst[q] = (uint8_t)(v >= n ? v - n : v);
                    }
                }
            have *= orders[i];
        }
        zn_batch B = {X0, xs, r, n, T, ts, cnt, len, best, bs};
        int rc;
#ifdef ML_HAVE_AVX2_TABLE
        if (zn_use_avx2(n))
            rc = parallel_boards(m, threads, zn_table_boards_avx2, &B);
        else
#endif
            rc = parallel_boards(m, threads, zn_table_boards, &B);
        free(T);
        return rc;
    }
    uint8_t *bx = malloc(r ? r : 1);
    if (!bx)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < m && !ml_interrupt_poll(); i++) {
        ml_coset_stats st;
        int64_t w = ml_coset_min_zn(X0 + i * xs, gens, orders, k, r, n, 0, 0.0, threads,
                                    bx, &st);
        if (w < 0) {
            rc = -1;
            break;
        }
        len[i] = w;
        if (best)
            memcpy(best + i * bs, bx, r);
    }
    free(bx);
    return rc;
}

/* ================================================================== sub-cubes */
int64_t ml_coset_sub_gf2(const uint64_t *x0, const uint64_t *basis, size_t k, size_t nw,
                         size_t L, uint64_t corner, int64_t bound,
                         uint64_t *best, ml_coset_stats *st)
{
    st->examined = 0;
    st->pruned = 0;
    st->complete = 1;
    if (L > k || L > 62)
        return -1;
    uint64_t *cur = malloc(2 * nw * sizeof(uint64_t));
    if (!cur)
        return -1;
    uint64_t *bx = cur + nw;
    memcpy(cur, x0, nw * sizeof(uint64_t));
    for (size_t t = 0; L + t < k; t++)
        if ((corner >> t) & 1)
            for (size_t q = 0; q < nw; q++)
                cur[q] ^= basis[(L + t) * nw + q];
    /* the words no inner generator touches keep their weight over the whole sub-cube */
    int64_t fixed = 0;
    for (size_t q = 0; q < nw; q++) {
        uint64_t touched = 0;
        for (size_t i = 0; i < L; i++)
            touched |= basis[i * nw + q];
        fixed += __builtin_popcountll(cur[q] & ~touched);
    }
    int64_t result = bound;
    if (fixed >= bound) {
        st->pruned = (uint64_t)1 << L;
    } else {
        int64_t w = ml_coset_min_gf2(cur, basis, L, nw, 0, 0.0, 1, bx, st);
        if (w < 0) {
            free(cur);
            return -1;
        }
        if (w < bound) {
            memcpy(best, bx, nw * sizeof(uint64_t));
            result = w;
        }
        /* the rest was skipped soundly (coset.c's bound, or a zero-weight element) */
        st->pruned = ((uint64_t)1 << L) - (st->examined < ((uint64_t)1 << L) ?
                                           st->examined : ((uint64_t)1 << L));
        st->complete = 1;
    }
    free(cur);
    return result;
}

int64_t ml_coset_sub_zn(const uint8_t *x0, const uint8_t *gens, const uint32_t *orders,
                        size_t k, size_t r, unsigned n, size_t L, uint64_t corner,
                        int64_t bound, uint8_t *best, ml_coset_stats *st)
{
    st->examined = 0;
    st->pruned = 0;
    st->complete = 1;
    if (L > k)
        return -1;
    uint64_t inner = 1;
    for (size_t i = 0; i < L; i++) {
        if (orders[i] < 2 || inner > (UINT64_C(1) << 62) / orders[i])
            return -1;
        inner *= orders[i];
    }
    uint8_t *cur = malloc(2 * (r ? r : 1));
    uint8_t *touched = calloc(r ? r : 1, 1);
    if (!cur || !touched) {
        free(cur);
        free(touched);
        return -1;
    }
    uint8_t *bx = cur + (r ? r : 1);
    memcpy(cur, x0, r);
    uint64_t rest = corner;
    for (size_t t = L; t < k; t++) {
        unsigned c = (unsigned)(rest % orders[t]);
        rest /= orders[t];
        for (size_t q = 0; c && q < r; q++)
            cur[q] = (uint8_t)((cur[q] + c * (unsigned)gens[t * r + q]) % n);
    }
    int64_t fixed = 0;
    for (size_t i = 0; i < L; i++)
        for (size_t q = 0; q < r; q++)
            touched[q] |= gens[i * r + q] % n != 0;
    for (size_t q = 0; q < r; q++)
        if (!touched[q])
            fixed += cur[q];
    int64_t result = bound;
    if (fixed >= bound) {
        st->pruned = inner;
    } else {
        int64_t w = ml_coset_min_zn(cur, gens, orders, L, r, n, 0, 0.0, 1, bx, st);
        if (w < 0) {
            free(cur);
            free(touched);
            return -1;
        }
        if (w < bound) {
            memcpy(best, bx, r);
            result = w;
        }
        st->pruned = inner - (st->examined < inner ? st->examined : inner);
        st->complete = 1;
    }
    free(cur);
    free(touched);
    return result;
}
