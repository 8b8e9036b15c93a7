/* coset_zn.c: the least-length element of x0 + ker A over Z/nZ (coset.h,
 * ml_coset_min_zn): a reflected mixed-radix Gray-code walk over the generators, bytewise
 * on 256-bit vectors where the CPU has AVX2 (n <= 128). */
#include "search/coset.h"
#include "search/coset_impl.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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
    return pending ? ml_coset__shared_tick(&J->sh, pending) : 0;
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
    return pending ? ml_coset__shared_tick(&J->sh, pending) : 0;
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
    ml_coset__shared_init(&J.sh, len0, nchunks, budget, seconds);
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
    ml_coset__run_threads(zn_worker, &J, nchunks > 1 ? threads : 1);

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
