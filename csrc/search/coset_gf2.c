/* coset_gf2.c: the least-weight element of x0 + ker A over GF(2) (coset.h,
 * ml_coset_min_gf2): the basis sorted sparsest first, the sparse Gray-code walk, or the
 * same walk on 256-bit vectors where the CPU has AVX2. */
#include "search/coset.h"
#include "search/coset_impl.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The hot loops are compiled for several targets and picked at load time by the
 * CPU (GCC/Clang function multi-versioning); no -march flag is needed. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__clang__)
#define ML_CLONES __attribute__((target_clones("avx2", "popcnt", "default")))
#else
#define ML_CLONES
#endif

static inline int popcnt64(uint64_t x) { return __builtin_popcountll(x); }

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
    return pending ? ml_coset__shared_tick(&J->sh, pending) : 0;
}

#ifdef ML_HAVE_AVX2_WALK
/* The same walk with every step done on 256-bit vectors: XOR the generator in and
 * recount the whole vector with a nibble-table popcount (no per-word popcount). */
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
    return pending ? ml_coset__shared_tick(&J->sh, pending) : 0;
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
    ml_coset__shared_init(&J.sh, w0, (uint64_t)1 << T, budget, seconds);
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
    ml_coset__run_threads(gf2_worker, &J, T ? threads : 1);

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
