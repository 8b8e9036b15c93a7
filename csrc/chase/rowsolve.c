/* rowsolve.c: the row-solve chase over GF(2) and Z/n (see rowsolve.h).
 *
 * The rows of taps a tile row reads live in a ring, padded with mc zero slots on both
 * sides (mc = the largest |ec|), so that no source needs a column check; rows off the
 * board read zero slots. GF(2): the ring is column-interleaved (span + 1 slots a
 * column, see ring_row); Z/n and the bit-sliced Z/3, Z/4: RR rows (a power of two >
 * the row span) one after the other and a shared zero row.
 * The symbolic chase runs one pass over the board per block of 64 bw symbols of one
 * symbol row (bw words a tap), the blocks shared by the threads; a tap costs the xor
 * of the sources of rows < r + D (the knight: 7) and of the tap before it in its
 * chain. The row kernel is compiled for the portable path, AVX2 and AVX-512 and
 * picked at run time (cpu.h). Z/n (further below) keeps a byte a symbol, Z/3 and Z/4
 * two bit-planes, the same ring and blocks. */
#include "chase/rowsolve.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include "base/modn.h"
#include "base/bitslice.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ml_rowsolve {
    int h, w, D, a, emin, mc, RR;
    int span;             /* rows a tile row reads: D - min(emin, 0) + 1 */
    int ne, nt;           /* offsets; the first nt have er < D (the sources of t) */
    int32_t *er, *ec;
    int mirrored;
    int n;                /* the modulus; 2 for the GF(2) plans */
    int32_t *cf;          /* coefficient of each offset mod n (1..n-1), order of er */
    int alpha, beta;      /* the pair's coefficients at (D, -a) and (D, +a) */
    int ainv, binv;       /* their inverses mod n */
};

size_t ml_rowsolve_nsym(const ml_rowsolve *p) { return (size_t)p->D * (size_t)p->w; }
int ml_rowsolve_mirrored(const ml_rowsolve *p) { return p->mirrored; }
int ml_rowsolve_n(const ml_rowsolve *p) { return p->n; }

void ml_rowsolve_free(ml_rowsolve *p) {
    if (!p) return;
    free(p->er); free(p->ec); free(p->cf); free(p);
}

/* The inverse of x mod n, 0 when x is not a unit. */
static int inv_mod(int x, int n) {
    for (int y = 1; y < n; y++)
        if ((x * y) % n == 1) return y;
    return 0;
}

int ml_rowsolve_eligible_zn(int h, int w, int n, int ne, const int32_t *er, const int32_t *ec,
                            const int32_t *cf) {
    if (h < 1 || w < 2 || n < 2 || n > 255 || ne < 2 || ne > ML_ROWSOLVE_MAX_OFFSETS || !er ||
        !ec) return 0;
    int D = er[0];
    for (int i = 0; i < ne; i++) {
        if (er[i] < -ML_ROWSOLVE_MAX_REACH || er[i] > ML_ROWSOLVE_MAX_REACH ||
            ec[i] < -ML_ROWSOLVE_MAX_REACH || ec[i] > ML_ROWSOLVE_MAX_REACH) return 0;
        if (cf && (cf[i] < 1 || cf[i] >= n)) return 0;
        if (er[i] > D) D = er[i];
        for (int j = 0; j < i; j++)
            if (er[j] == er[i] && ec[j] == ec[i]) return 0;
    }
    if (D < 1 || h <= D) return 0;
    int nlast = 0, lo = 0, hi = 0;
    for (int i = 0; i < ne; i++) {
        if (er[i] != D) continue;
        if (nlast == 0) lo = hi = ec[i];
        if (ec[i] < lo) lo = ec[i];
        if (ec[i] > hi) hi = ec[i];
        /* the chains divide by the pair's coefficients */
        if (cf && !inv_mod(cf[i], n)) return 0;
        nlast++;
    }
    if (nlast != 2 || lo != -hi || hi < 1) return 0;
    return w % (2 * hi) == 0;
}

int ml_rowsolve_eligible(int h, int w, int ne, const int32_t *er, const int32_t *ec) {
    return ml_rowsolve_eligible_zn(h, w, 2, ne, er, ec, NULL);
}

ml_rowsolve *ml_rowsolve_plan(int h, int w, int ne, const int32_t *er, const int32_t *ec,
                              int *err) {
    return ml_rowsolve_plan_zn(h, w, 2, ne, er, ec, NULL, err);
}

ml_rowsolve *ml_rowsolve_plan_zn(int h, int w, int n, int ne, const int32_t *er,
                                 const int32_t *ec, const int32_t *cf, int *err) {
    *err = 1;
    if (!ml_rowsolve_eligible_zn(h, w, n, ne, er, ec, cf)) return NULL;
    *err = 2;
    ml_rowsolve *p = calloc(1, sizeof(*p));
    if (!p) return NULL;
    p->er = malloc((size_t)ne * sizeof(int32_t));
    p->ec = malloc((size_t)ne * sizeof(int32_t));
    p->cf = malloc((size_t)ne * sizeof(int32_t));
    if (!p->er || !p->ec || !p->cf) { ml_rowsolve_free(p); return NULL; }
    p->h = h; p->w = w; p->ne = ne; p->n = n;
    int D = er[0], emin = er[0], mc = 0;
    for (int i = 0; i < ne; i++) {
        if (er[i] > D) D = er[i];
        if (er[i] < emin) emin = er[i];
        int m = ec[i] < 0 ? -ec[i] : ec[i];
        if (m > mc) mc = m;
    }
    p->D = D; p->emin = emin < 0 ? emin : 0; p->mc = mc;
    /* the sources of t first, the last-row pair after them */
    int k = 0;
    for (int i = 0; i < ne; i++)
        if (er[i] < D) { p->er[k] = er[i]; p->ec[k] = ec[i]; p->cf[k] = cf ? cf[i] : 1; k++; }
    p->nt = k;
    for (int i = 0; i < ne; i++)
        if (er[i] == D) {
            p->er[k] = er[i]; p->ec[k] = ec[i]; p->cf[k] = cf ? cf[i] : 1;
            p->a = ec[i] > 0 ? ec[i] : -ec[i];
            if (ec[i] < 0) p->alpha = p->cf[k];
            else p->beta = p->cf[k];
            k++;
        }
    p->ainv = inv_mod(p->alpha, n);
    p->binv = inv_mod(p->beta, n);
    int span = D - p->emin + 1, RR = 1;
    while (RR < span) RR *= 2;
    p->RR = RR;
    p->span = span;
    /* the mirror image of the row solve is the row solve of the mirrored pattern, so
     * the pattern must be its own mirror image, coefficients included */
    p->mirrored = 1;
    for (int i = 0; i < ne && p->mirrored; i++) {
        int found = 0;
        for (int j = 0; j < ne && !found; j++)
            found = p->er[j] == p->er[i] && p->ec[j] == -p->ec[i] && p->cf[j] == p->cf[i];
        p->mirrored = found;
    }
    *err = 0;
    return p;
}

/* ------------------------------------------------------------------ the ring */
/* The symbolic ring is column-interleaved: column c holds span + 1 slots of bw words
 * (span rows, the last slot always zero for rows off the board), so the taps a tile
 * reads lie within a few columns of one another in memory: one stream, not one per
 * row. Column 0 of board row R; column c is cs = (span + 1) bw words further. */
static inline uint64_t *ring_row(const ml_rowsolve *p, uint64_t *ring, long R, size_t bw) {
    const size_t cs = (size_t)(p->span + 1) * bw;
    uint64_t *col0 = ring + (size_t)p->mc * cs;
    if (R < 0 || R >= p->h) return col0 + (size_t)p->span * bw;
    return col0 + (size_t)(R % p->span) * bw;
}

/* The unrolled kernels' sources: s0..s7 = S[i] + off for i < NT (<= 8), the others
 * aliases of s0 that are never read. */
#define RS_SOURCES(T, off, NT)                                                            \
    T *restrict s0 = S[0] + (off);                                                        \
    T *restrict s1 = (NT) > 1 ? S[1] + (off) : s0;                                        \
    T *restrict s2 = (NT) > 2 ? S[2] + (off) : s0;                                        \
    T *restrict s3 = (NT) > 3 ? S[3] + (off) : s0;                                        \
    T *restrict s4 = (NT) > 4 ? S[4] + (off) : s0;                                        \
    T *restrict s5 = (NT) > 5 ? S[5] + (off) : s0;                                        \
    T *restrict s6 = (NT) > 6 ? S[6] + (off) : s0;                                        \
    T *restrict s7 = (NT) > 7 ? S[7] + (off) : s0;                                        \
    (void)s1; (void)s2; (void)s3; (void)s4; (void)s5; (void)s6; (void)s7

/* One row of the symbolic chase: X (row R, column 0) from the nt sources S (column 0
 * of their rows, the column offset folded in), both chains of the pair stencil. The
 * sources are summed first and the chain's tap last (one xor on the chain's path);
 * NT > 0: that many sources, unrolled (the knight: 7). */
#define RS_T(VT, NT, c, j, t)                                                             \
    do {                                                                                  \
        const long o_ = (long)(c) * (long)cs;                                             \
        if ((NT) > 0) {                                                                   \
            VT u0 = ((const VT *)(s0 + o_))[j], u1 = (NT) > 1 ? ((const VT *)(s1 + o_))[j] : (VT){0}; \
            VT u2 = (NT) > 2 ? ((const VT *)(s2 + o_))[j] : (VT){0};                      \
            VT u3 = (NT) > 3 ? ((const VT *)(s3 + o_))[j] : (VT){0};                      \
            VT u4 = (NT) > 4 ? ((const VT *)(s4 + o_))[j] : (VT){0};                      \
            VT u5 = (NT) > 5 ? ((const VT *)(s5 + o_))[j] : (VT){0};                      \
            VT u6 = (NT) > 6 ? ((const VT *)(s6 + o_))[j] : (VT){0};                      \
            VT u7 = (NT) > 7 ? ((const VT *)(s7 + o_))[j] : (VT){0};                      \
            t = ((u0 ^ u1) ^ (u2 ^ u3)) ^ ((u4 ^ u5) ^ (u6 ^ u7));                        \
        } else {                                                                          \
            t = ((const VT *)(S[0] + o_))[j];                                             \
            for (int i = 1; i < nt; i++) t ^= ((const VT *)(S[i] + o_))[j];               \
        }                                                                                 \
    } while (0)

#define RS_ROW_BODY(VT, nv, NT)                                                           \
    do {                                                                                  \
        RS_SOURCES(const uint64_t, 0, NT);                                                \
        for (int c0 = 0; c0 < w; c0 += 2 * a)                                             \
            for (int c = c0; c < c0 + a; c++) {                                           \
                const VT *prev = (const VT *)(X + (long)(c - a) * (long)cs);              \
                VT *out = (VT *)(X + (size_t)(c + a) * cs);                               \
                for (size_t j = 0; j < (nv); j++) {                                       \
                    VT t;                                                                 \
                    RS_T(VT, NT, c, j, t);                                                \
                    out[j] = t ^ prev[j];                                                 \
                }                                                                         \
            }                                                                             \
        for (int c0 = w - a; c0 >= a; c0 -= 2 * a)                                        \
            for (int c = c0 + a - 1; c >= c0; c--) {                                      \
                const VT *prev = (const VT *)(X + (size_t)(c + a) * cs);                  \
                VT *out = (VT *)(X + (size_t)(c - a) * cs);                               \
                for (size_t j = 0; j < (nv); j++) {                                       \
                    VT t;                                                                 \
                    RS_T(VT, NT, c, j, t);                                                \
                    out[j] = t ^ prev[j];                                                 \
                }                                                                         \
            }                                                                             \
    } while (0)

/* a = 1: one chain a direction, its last tap carried in registers (nv of VT a tap),
 * not re-read from memory (a store-to-load round trip on every step otherwise) */
#define RS_ROW_A1(VT, NV, NT)                                                             \
    do {                                                                                  \
        RS_SOURCES(const uint64_t, 0, NT);                                                \
        VT prev[NV];                                                                      \
        for (int j = 0; j < (NV); j++) prev[j] = (VT){0};                                 \
        for (int c = 0; c < w; c += 2) {                                                  \
            VT *out = (VT *)(X + (size_t)(c + 1) * cs);                                   \
            for (int j = 0; j < (NV); j++) {                                              \
                VT t;                                                                     \
                RS_T(VT, NT, c, j, t);                                                    \
                prev[j] ^= t;                                                             \
                out[j] = prev[j];                                                         \
            }                                                                             \
        }                                                                                 \
        for (int j = 0; j < (NV); j++) prev[j] = (VT){0};                                 \
        for (int c = w - 1; c >= 1; c -= 2) {                                             \
            VT *out = (VT *)(X + (size_t)(c - 1) * cs);                                   \
            for (int j = 0; j < (NV); j++) {                                              \
                VT t;                                                                     \
                RS_T(VT, NT, c, j, t);                                                    \
                prev[j] ^= t;                                                             \
                out[j] = prev[j];                                                         \
            }                                                                             \
        }                                                                                 \
    } while (0)

#define RS_ROW_NT(VT, nv)                                                                 \
    do {                                                                                  \
        if (a == 1 && (nv) == 1) {                                                        \
            switch (nt) {                                                                 \
            case 3: RS_ROW_A1(VT, 1, 3); return;                                          \
            case 5: RS_ROW_A1(VT, 1, 5); return;                                          \
            case 7: RS_ROW_A1(VT, 1, 7); return;                                          \
            default: break;                                                               \
            }                                                                             \
        }                                                                                 \
        if (a == 1 && (nv) == 2) {                                                        \
            switch (nt) {                                                                 \
            case 3: RS_ROW_A1(VT, 2, 3); return;                                          \
            case 5: RS_ROW_A1(VT, 2, 5); return;                                          \
            case 7: RS_ROW_A1(VT, 2, 7); return;                                          \
            default: break;                                                               \
            }                                                                             \
        }                                                                                 \
        switch (nt) {                                                                     \
        case 1: RS_ROW_BODY(VT, nv, 1); break;                                            \
        case 2: RS_ROW_BODY(VT, nv, 2); break;                                            \
        case 3: RS_ROW_BODY(VT, nv, 3); break;                                            \
        case 4: RS_ROW_BODY(VT, nv, 4); break;                                            \
        case 5: RS_ROW_BODY(VT, nv, 5); break;                                            \
        case 6: RS_ROW_BODY(VT, nv, 6); break;                                            \
        case 7: RS_ROW_BODY(VT, nv, 7); break;                                            \
        case 8: RS_ROW_BODY(VT, nv, 8); break;                                            \
        default: RS_ROW_BODY(VT, nv, 0); break;                                           \
        }                                                                                 \
    } while (0)

typedef uint64_t rs_v4 __attribute__((vector_size(32)));
typedef uint64_t rs_v8 __attribute__((vector_size(64)));

static inline __attribute__((always_inline)) void
rs_row_body(uint64_t *X, const uint64_t *const *S, int nt, int w, int a, size_t bw, size_t cs,
            int wide) {
    if (nt == 0) {                                              /* t = 0 */
        for (int c = 0; c < w; c++) memset(X + (size_t)c * cs, 0, bw * sizeof(uint64_t));
        return;
    }
    if (wide && bw % 8 == 0) { RS_ROW_NT(rs_v8, bw / 8); return; }
    if (bw % 4 == 0) { RS_ROW_NT(rs_v4, bw / 4); return; }
    RS_ROW_NT(uint64_t, bw);
}

static void rs_row_portable(uint64_t *X, const uint64_t *const *S, int nt, int w, int a,
                            size_t bw, size_t cs) {
    rs_row_body(X, S, nt, w, a, bw, cs, 0);
}
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("avx2")))
static void rs_row_avx2(uint64_t *X, const uint64_t *const *S, int nt, int w, int a, size_t bw,
                        size_t cs) {
    rs_row_body(X, S, nt, w, a, bw, cs, 0);
}
__attribute__((target("avx512f,avx512vl")))
static void rs_row_avx512(uint64_t *X, const uint64_t *const *S, int nt, int w, int a,
                          size_t bw, size_t cs) {
    rs_row_body(X, S, nt, w, a, bw, cs, 1);
}
#endif

typedef void (*rs_row_fn)(uint64_t *, const uint64_t *const *, int, int, int, size_t, size_t);

static rs_row_fn rs_row_pick(void) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    const int path = ml_simd_get();
    if (path >= ML_SIMD_AVX512) return rs_row_avx512;
    if (path >= ML_SIMD_AVX2) return rs_row_avx2;
#endif
    return rs_row_portable;
}

/* ------------------------------------------------------------------ symbolic chase */
/* A worker's share of a symbolic pass (GF(2), Z/n bytes, Z/3 / Z/4 bit-sliced): the
 * blocks come from a shared counter. M: the residual matrix (uint64_t words for GF(2),
 * bytes otherwise; stride: words a row of the GF(2) one); width: a tap's storage (bw
 * words, or bz bytes). */
typedef struct {
    const ml_rowsolve *p;
    void *M;
    size_t stride, width, nblk_row, nblocks;
    int *next;
    int status;
} rs_job;

/* One symbolic pass: D ceil(cols / per) blocks (per symbols a block) over min(threads,
 * blocks) workers, the calling thread one of them. Returns 0 or a worker's status. */
static int rs_run(const ml_rowsolve *p, void *M, size_t stride, size_t width, size_t per,
                  size_t cols, int threads, void *(*worker)(void *)) {
    const size_t nblk_row = (cols + per - 1) / per;
    const size_t nblocks = nblk_row * (size_t)p->D;
    if (threads < 1) threads = 1;
    if (threads > 16) threads = 16;
    if ((size_t)threads > nblocks) threads = (int)nblocks;
    rs_job jobs[16];
    pthread_t tid[16];
    int started[16] = {0};
    int next = 0;
    for (int i = 0; i < threads; i++) {
        jobs[i].p = p; jobs[i].M = M; jobs[i].stride = stride; jobs[i].width = width;
        jobs[i].nblk_row = nblk_row; jobs[i].nblocks = nblocks; jobs[i].next = &next;
        jobs[i].status = 0;
    }
    for (int i = 1; i < threads; i++)
        started[i] = ml_thread_create(&tid[i], worker, &jobs[i]) == 0;
    worker(&jobs[0]);
    int st = jobs[0].status;
    for (int i = 1; i < threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        if (jobs[i].status) st = jobs[i].status;
    }
    return st;
}

static inline void or_bits(uint64_t *row, size_t pos, uint64_t v) {
    if (!v) return;
    size_t wi = pos / 64;
    unsigned sh = (unsigned)(pos % 64);
    __atomic_fetch_or(row + wi, v << sh, __ATOMIC_RELAXED);
    if (sh && (v >> (64 - sh)))
        __atomic_fetch_or(row + wi + 1, v >> (64 - sh), __ATOMIC_RELAXED);
}

/* One block: the symbols j0 .. j0 + nb - 1 of symbol row r0. Returns 0 or 3. */
static int rs_block(const rs_job *J, uint64_t *ring, const uint64_t **S, rs_row_fn row_fn,
                    int r0, int j0, int nb) {
    const ml_rowsolve *p = J->p;
    const int h = p->h, w = p->w, D = p->D, a = p->a, nt = p->nt, ne = p->ne;
    const size_t bw = J->width, cs = (size_t)(p->span + 1) * bw;
    /* rows 0..D-1: the unit vectors of the block's symbols (margins stay zero) */
    for (int R = 0; R < D && R < h; R++) {
        uint64_t *X = ring_row(p, ring, R, bw);
        for (int c = 0; c < w; c++) memset(X + (size_t)c * cs, 0, bw * sizeof(uint64_t));
        if (R == r0)
            for (int i = 0; i < nb; i++)
                X[(size_t)(j0 + i) * cs + (size_t)i / 64] |= (uint64_t)1 << (i % 64);
    }
    for (int r = 0; r + D < h; r++) {
        if ((r & 63) == 0 && ml_interrupt_poll()) return 3;
        for (int i = 0; i < nt; i++)
            S[i] = ring_row(p, ring, (long)r + p->er[i], bw) + (long)p->ec[i] * (long)cs;
        row_fn(ring_row(p, ring, (long)r + D, bw), S, nt, w, a, bw, cs);
    }
    /* residual rows: every offset */
    const size_t s0 = (size_t)r0 * (size_t)w + (size_t)j0;
    const size_t nwb = ((size_t)nb + 63) / 64;
    uint64_t acc[64];
    for (int r = h - D; r < h; r++) {
        if (r < 0) continue;
        for (int i = 0; i < ne; i++)
            S[i] = ring_row(p, ring, (long)r + p->er[i], bw) + (long)p->ec[i] * (long)cs;
        for (int c = 0; c < w; c++) {
            uint64_t *row = (uint64_t *)J->M + ((size_t)(r - (h - D)) * (size_t)w + (size_t)c) * J->stride;
            for (size_t q = 0; q < nwb; q++) {
                uint64_t v = 0;
                for (int i = 0; i < ne; i++) v ^= S[i][(long)c * (long)cs + (long)q];
                acc[q] = v;
            }
            for (size_t q = 0; q < nwb; q++) or_bits(row, s0 + 64 * q, acc[q]);
        }
    }
    return 0;
}

/* Words of a thread's symbolic ring: w + 2 mc columns of span + 1 slots of bw words. */
static size_t ring_words(const ml_rowsolve *p, size_t bw) {
    return (size_t)(p->w + 2 * p->mc) * (size_t)(p->span + 1) * bw;
}

static void *rs_worker(void *arg) {
    rs_job *J = arg;
    const ml_rowsolve *p = J->p;
    const size_t bw = J->width, words = ring_words(p, bw);
    const size_t per = 64 * bw;
    uint64_t *ring = aligned_alloc(64, (words * sizeof(uint64_t) + 63) / 64 * 64);
    const uint64_t **S = malloc((size_t)(p->ne + 1) * sizeof(*S));
    J->status = 0;
    if (!ring || !S) { J->status = 2; goto done; }
    /* margins and the zero slots are never written: zero once */
    memset(ring, 0, words * sizeof(uint64_t));
    rs_row_fn row_fn = rs_row_pick();
    for (;;) {
        if (ml_interrupt_poll()) { J->status = 3; break; }
        size_t i = (size_t)__atomic_fetch_add(J->next, 1, __ATOMIC_RELAXED);
        if (i >= J->nblocks) break;
        int r0 = (int)(i / J->nblk_row);
        size_t j0 = (i % J->nblk_row) * per;
        int nb = (int)((size_t)p->w - j0 < per ? (size_t)p->w - j0 : per);
        if (rs_block(J, ring, S, row_fn, r0, (int)j0, nb)) { J->status = 3; break; }
    }
done:
    free(ring); free(S);
    return NULL;
}

static inline uint64_t rev64(uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(x);
}

/* bits pos .. pos + L - 1 of a row (L <= 64), low bit first */
static inline uint64_t get_bits(const uint64_t *row, size_t pos, unsigned L) {
    size_t wi = pos / 64;
    unsigned sh = (unsigned)(pos % 64);
    uint64_t v = row[wi] >> sh;
    if (sh && sh + L > 64) v |= row[wi + 1] << (64 - sh);
    return L == 64 ? v : v & (((uint64_t)1 << L) - 1);
}

static inline void set_bits(uint64_t *row, size_t pos, unsigned L, uint64_t v) {
    size_t wi = pos / 64;
    unsigned sh = (unsigned)(pos % 64);
    uint64_t m = L == 64 ? ~(uint64_t)0 : (((uint64_t)1 << L) - 1);
    row[wi] = (row[wi] & ~(m << sh)) | (v << sh);
    if (sh && sh + L > 64) {
        unsigned hi = 64 - sh;
        row[wi + 1] = (row[wi + 1] & ~(m >> hi)) | (v >> hi);
    }
}

/* M[k][r0 w + c] = M[k'][r0 w + w - 1 - c] for the columns c >= half of every symbol
 * row, k' the mirror image of equation k. */
static void rs_mirror_fill(const ml_rowsolve *p, uint64_t *M, size_t stride, int half) {
    const int w = p->w, D = p->D;
    const size_t nres = (size_t)D * (size_t)w;
    for (size_t k = 0; k < nres; k++) {
        size_t rr = k / (size_t)w, cc = k % (size_t)w;
        const uint64_t *src = M + (rr * (size_t)w + (size_t)w - 1 - cc) * stride;
        uint64_t *dst = M + k * stride;
        for (int r0 = 0; r0 < D; r0++) {
            const size_t base = (size_t)r0 * (size_t)w;
            for (int c = half; c < w; c += 64) {
                unsigned L = (unsigned)(w - c < 64 ? w - c : 64);
                /* source columns w - 1 - c - (L - 1) .. w - 1 - c, reversed */
                size_t sp = base + (size_t)(w - c) - L;
                uint64_t v = rev64(get_bits(src, sp, L)) >> (64 - L);
                set_bits(dst, base + (size_t)c, L, v);
            }
        }
    }
}

int ml_rowsolve_matrix(const ml_rowsolve *p, uint64_t *M, int threads, size_t bw, int mirror) {
    if (!bw) bw = 8;
    if (bw > 64) bw = 64;
    const size_t per = 64 * bw;
    const size_t stride = (ml_rowsolve_nsym(p) + 63) / 64;
    const int mir = mirror && p->mirrored;
    /* with the mirror image: the symbols of columns < ceil(w / 2) of each symbol row */
    const size_t cols = mir ? (size_t)(p->w + 1) / 2 : (size_t)p->w;
    const int st = rs_run(p, M, stride, bw, per, cols, threads, rs_worker);
    if (!st && mir) rs_mirror_fill(p, M, stride, (int)cols);
    return st;
}

/* ------------------------------------------------------------------ Z/n symbolic chase */
/* A tap is bz bytes: its coefficients on the bz symbols of the block, each < n. The
 * linear part of the chains of rowsolve.h: with u = alpha (the chain's tap before it) +
 * the sum of the tap's sources times their coefficients, the tap is -beta^-1 u
 * upwards, and -alpha^-1 u (u with beta) downwards, mod n.
 *
 * Two ways of summing, both with the reduction delayed:
 *  - bytes, when every source coefficient and both of the pair are 1 and
 *    (nt + 1)(n - 1) < 256 (the knight for n <= 32): u is summed in bytes (32 symbols
 *    an AVX2 operation), reduced by subtracting n 2^k wherever that does not wrap (a
 *    min of unsigned bytes) and negated;
 *  - 16-bit lanes otherwise: terms c x < n^2 summed, reduced before a term that could
 *    overflow, then multiplied by -beta^-1 (or -alpha^-1) and reduced again (a
 *    negation when that is -1). When the whole sum fits 16 bits (the knight up to
 *    n = 91 with unit coefficients) and nt <= 8, it is one unrolled pass over the
 *    lanes, not a pass a source.
 * The residual rows (D rows a pass) take the general 16-bit way with every offset. */

#define RZ_MAXS 16   /* subtraction steps: n 2^k <= 65535 */

typedef struct {
    int n, nt, w, a;
    int bytes;                    /* the byte way (see above) */
    int fit16;                    /* 16 bits: the whole sum fits, nt <= 8 */
    const int32_t *cf;            /* the nt source coefficients */
    uint16_t up_cp, up_m;         /* upwards: alpha, -beta^-1 mod n */
    uint16_t dn_cp, dn_m;         /* downwards: beta, -alpha^-1 mod n */
    uint8_t sub8[8];              /* byte way: the steps reducing u <= (nt + 1)(n - 1) */
    int ns8;
    uint16_t sub16[RZ_MAXS];      /* fit16: the steps reducing the whole sum */
    int ns16;
    uint16_t subm[RZ_MAXS];       /* fit16: the steps reducing m x <= (n - 1)^2 */
    int nsm;
} rz_ctx;

/* The steps n 2^k, k from the largest with n 2^k <= bound down to 0, that reduce any
 * 0 <= x <= bound mod n (x -= d wherever that does not wrap). Returns their count. */
static int rz_subs(int n, long bound, uint16_t *d) {
    if ((long)n > bound) return 0;
    int k = 0;
    while (((long)n << (k + 1)) <= bound) k++;
    for (int i = 0; i <= k; i++) d[i] = (uint16_t)(n << (k - i));
    return k + 1;
}

static inline __attribute__((always_inline)) void
rz_red16(uint16_t *restrict acc, size_t len, const uint16_t *d, int k) {
    for (int s = 0; s < k; s++) {
        const uint16_t dd = d[s];
        for (size_t j = 0; j < len; j++) {
            uint16_t x = acc[j], y = (uint16_t)(x - dd);
            acc[j] = x < y ? x : y;
        }
    }
}

/* out[j] = m (cp pv[j] + sum_i cf[i] S[i][o + j]) mod n for j < len, in 16-bit lanes
 * (pv NULL: no chain term; acc: len lanes of scratch). */
static inline __attribute__((always_inline)) void
rz_tap16(uint8_t *restrict out, const uint8_t *restrict pv, uint16_t cp, uint16_t m,
         const uint8_t *const *S, long o, const int32_t *cf, int ns, size_t len, int n,
         uint16_t *restrict acc) {
    uint16_t d[RZ_MAXS];
    long bound = 0;
    if (pv) {
        for (size_t j = 0; j < len; j++) acc[j] = (uint16_t)(cp * pv[j]);
        bound = (long)cp * (n - 1);
    } else {
        memset(acc, 0, len * sizeof(uint16_t));
    }
    for (int i = 0; i < ns; i++) {
        const uint16_t c = (uint16_t)cf[i];
        const uint8_t *restrict s = S[i] + o;
        if (bound + (long)c * (n - 1) > 65535) {       /* the term could overflow */
            rz_red16(acc, len, d, rz_subs(n, bound, d));
            bound = n - 1;
        }
        for (size_t j = 0; j < len; j++) acc[j] = (uint16_t)(acc[j] + c * s[j]);
        bound += (long)c * (n - 1);
    }
    rz_red16(acc, len, d, rz_subs(n, bound, d));
    if (m != 1) {
        for (size_t j = 0; j < len; j++) acc[j] = (uint16_t)(acc[j] * m);
        rz_red16(acc, len, d, rz_subs(n, (long)m * (n - 1), d));
    }
    for (size_t j = 0; j < len; j++) out[j] = (uint8_t)acc[j];
}

/* fit16: acc = cp pv + sum_i cf[i] S[i] at offset o in one pass, NT (<= 8) sources */
#define RZ_SUM16(NT)                                                                        \
    do {                                                                                    \
        RS_SOURCES(const uint8_t, o, NT);                                                   \
        const int32_t *k_ = K->cf;                                                          \
        const uint16_t k0 = (uint16_t)k_[0], k1 = (NT) > 1 ? (uint16_t)k_[1] : 0;           \
        const uint16_t k2 = (NT) > 2 ? (uint16_t)k_[2] : 0, k3 = (NT) > 3 ? (uint16_t)k_[3] : 0; \
        const uint16_t k4 = (NT) > 4 ? (uint16_t)k_[4] : 0, k5 = (NT) > 5 ? (uint16_t)k_[5] : 0; \
        const uint16_t k6 = (NT) > 6 ? (uint16_t)k_[6] : 0, k7 = (NT) > 7 ? (uint16_t)k_[7] : 0; \
        (void)k1; (void)k2; (void)k3; (void)k4; (void)k5; (void)k6; (void)k7;               \
        for (size_t j = 0; j < bz; j++) {                                                   \
            uint16_t u = (uint16_t)(cp * pv[j] + k0 * s0[j]);                               \
            if ((NT) > 1) u = (uint16_t)(u + k1 * s1[j]);                                   \
            if ((NT) > 2) u = (uint16_t)(u + k2 * s2[j]);                                   \
            if ((NT) > 3) u = (uint16_t)(u + k3 * s3[j]);                                   \
            if ((NT) > 4) u = (uint16_t)(u + k4 * s4[j]);                                   \
            if ((NT) > 5) u = (uint16_t)(u + k5 * s5[j]);                                   \
            if ((NT) > 6) u = (uint16_t)(u + k6 * s6[j]);                                   \
            if ((NT) > 7) u = (uint16_t)(u + k7 * s7[j]);                                   \
            acc[j] = u;                                                                     \
        }                                                                                   \
    } while (0)

/* fit16: one chain tap, the sum in one pass, reduced, times m (a negation for -1) */
static inline __attribute__((always_inline)) void
rz_tap16_fit(uint8_t *restrict v, const uint8_t *restrict pv, uint16_t cp, uint16_t m,
             const uint8_t *const *S, long o, const rz_ctx *K, size_t bz,
             uint16_t *restrict acc) {
    switch (K->nt) {
    case 1: RZ_SUM16(1); break;
    case 2: RZ_SUM16(2); break;
    case 3: RZ_SUM16(3); break;
    case 4: RZ_SUM16(4); break;
    case 5: RZ_SUM16(5); break;
    case 6: RZ_SUM16(6); break;
    case 7: RZ_SUM16(7); break;
    default: RZ_SUM16(8); break;
    }
    rz_red16(acc, bz, K->sub16, K->ns16);
    const uint16_t n = (uint16_t)K->n;
    if (m == n - 1) {
        for (size_t j = 0; j < bz; j++) {
            uint16_t x = (uint16_t)(n - acc[j]), y = (uint16_t)(x - n);
            v[j] = (uint8_t)(x < y ? x : y);
        }
        return;
    }
    if (m != 1) {
        for (size_t j = 0; j < bz; j++) acc[j] = (uint16_t)(acc[j] * m);
        rz_red16(acc, bz, K->subm, K->nsm);
    }
    for (size_t j = 0; j < bz; j++) v[j] = (uint8_t)acc[j];
}

/* Byte way, v = pv + the NT sources at offset o (NT <= 8 unrolled; 0: nt of them). */
#define RZ_SUM8(NT)                                                                         \
    do {                                                                                    \
        RS_SOURCES(const uint8_t, o, NT);                                                   \
        if ((NT) > 0) {                                                                     \
            for (size_t j = 0; j < bz; j++) {                                               \
                uint8_t u = (uint8_t)(pv[j] + s0[j]);                                       \
                if ((NT) > 1) u = (uint8_t)(u + s1[j]);                                     \
                if ((NT) > 2) u = (uint8_t)(u + s2[j]);                                     \
                if ((NT) > 3) u = (uint8_t)(u + s3[j]);                                     \
                if ((NT) > 4) u = (uint8_t)(u + s4[j]);                                     \
                if ((NT) > 5) u = (uint8_t)(u + s5[j]);                                     \
                if ((NT) > 6) u = (uint8_t)(u + s6[j]);                                     \
                if ((NT) > 7) u = (uint8_t)(u + s7[j]);                                     \
                v[j] = u;                                                                   \
            }                                                                               \
        } else {                                                                            \
            for (size_t j = 0; j < bz; j++) v[j] = (uint8_t)(pv[j] + s0[j]);                \
            for (int i = 1; i < K->nt; i++) {                                               \
                const uint8_t *restrict si = S[i] + o;                                      \
                for (size_t j = 0; j < bz; j++) v[j] = (uint8_t)(v[j] + si[j]);             \
            }                                                                               \
        }                                                                                   \
    } while (0)

/* Byte way: -x mod n for a byte x <= (nt + 1)(n - 1): ns subtract-min steps d[] (x -=
 * d wherever that does not wrap), then the negation. Always inlined with a constant
 * ns, so the steps unroll inside the callers' vectorised loops. */
static inline __attribute__((always_inline)) uint8_t
rz_negmod8(uint8_t x, const uint8_t *d, int ns, uint8_t n8) {
    for (int k = 0; k < ns; k++) {
        uint8_t y = (uint8_t)(x - d[k]);
        x = x < y ? x : y;
    }
    x = (uint8_t)(n8 - x);
    uint8_t y = (uint8_t)(x - n8);
    return x < y ? x : y;
}

/* Byte way, v = -v mod n for v <= (nt + 1)(n - 1): NS steps (<= 8) then the negation */
#define RZ_NEG8(NS)                                                                         \
    do {                                                                                    \
        const uint8_t d_[8] = {K->sub8[0], K->sub8[1], K->sub8[2], K->sub8[3],              \
                               K->sub8[4], K->sub8[5], K->sub8[6], K->sub8[7]};             \
        const uint8_t n8 = (uint8_t)K->n;                                                   \
        for (size_t j = 0; j < bz; j++) v[j] = rz_negmod8(v[j], d_, (NS), n8);              \
    } while (0)

/* Byte way in one pass for the common source counts (NT: the diagonal 3, the knight
 * 7): v = -(pv + the NT sources) mod n, NS (<= 8) reduction steps, nothing stored
 * between the sum and the negation. */
#define RZ_FUSED8(NT, NS)                                                                   \
    do {                                                                                    \
        RS_SOURCES(const uint8_t, o, NT);                                                   \
        const uint8_t d_[8] = {K->sub8[0], K->sub8[1], K->sub8[2], K->sub8[3],              \
                               K->sub8[4], K->sub8[5], K->sub8[6], K->sub8[7]};             \
        const uint8_t n8 = (uint8_t)K->n;                                                   \
        for (size_t j = 0; j < bz; j++) {                                                   \
            uint8_t x = (uint8_t)(pv[j] + s0[j]);                                           \
            if ((NT) > 1) x = (uint8_t)(x + s1[j]);                                         \
            if ((NT) > 2) x = (uint8_t)(x + s2[j]);                                         \
            if ((NT) > 3) x = (uint8_t)(x + s3[j]);                                         \
            if ((NT) > 4) x = (uint8_t)(x + s4[j]);                                         \
            if ((NT) > 5) x = (uint8_t)(x + s5[j]);                                         \
            if ((NT) > 6) x = (uint8_t)(x + s6[j]);                                         \
            v[j] = rz_negmod8(x, d_, (NS), n8);                                             \
        }                                                                                   \
    } while (0)

#define RZ_FUSED8_NS(NT)                                                                    \
    do {                                                                                    \
        switch (K->ns8) {                                                                   \
        case 1: RZ_FUSED8(NT, 1); return;                                                   \
        case 2: RZ_FUSED8(NT, 2); return;                                                   \
        case 3: RZ_FUSED8(NT, 3); return;                                                   \
        case 4: RZ_FUSED8(NT, 4); return;                                                   \
        case 5: RZ_FUSED8(NT, 5); return;                                                   \
        case 6: RZ_FUSED8(NT, 6); return;                                                   \
        case 7: RZ_FUSED8(NT, 7); return;                                                   \
        default: break;                                                                     \
        }                                                                                   \
    } while (0)

/* One tap v of a chain: pv its chain's tap before it, S the sources (column 0), o the
 * column's offset in bytes; cp, m the chain's coefficient and multiplier. */
static inline __attribute__((always_inline)) void
rz_tap(uint8_t *restrict v, const uint8_t *restrict pv, uint16_t cp, uint16_t m,
       const uint8_t *const *S, long o, const rz_ctx *K, size_t bz, uint16_t *acc) {
    if (K->fit16) {
        rz_tap16_fit(v, pv, cp, m, S, o, K, bz, acc);
        return;
    }
    if (!K->bytes) {
        rz_tap16(v, pv, cp, m, S, o, K->cf, K->nt, bz, K->n, acc);
        return;
    }
    if (K->nt == 7) RZ_FUSED8_NS(7);
    if (K->nt == 3) RZ_FUSED8_NS(3);
    switch (K->nt) {
    case 1: RZ_SUM8(1); break;
    case 2: RZ_SUM8(2); break;
    case 3: RZ_SUM8(3); break;
    case 4: RZ_SUM8(4); break;
    case 5: RZ_SUM8(5); break;
    case 6: RZ_SUM8(6); break;
    case 7: RZ_SUM8(7); break;
    case 8: RZ_SUM8(8); break;
    default: RZ_SUM8(0); break;
    }
    switch (K->ns8) {
    case 0: RZ_NEG8(0); break;
    case 1: RZ_NEG8(1); break;
    case 2: RZ_NEG8(2); break;
    case 3: RZ_NEG8(3); break;
    case 4: RZ_NEG8(4); break;
    case 5: RZ_NEG8(5); break;
    case 6: RZ_NEG8(6); break;
    case 7: RZ_NEG8(7); break;
    default: RZ_NEG8(8); break;
    }
}

/* One row of the Z/n symbolic chase: X (row R, column 0) from the nt sources S (column 0
 * of their rows, the column offset folded in), both chains. */
static inline __attribute__((always_inline)) void
rz_row_body(uint8_t *X, const uint8_t *const *S, const rz_ctx *K, size_t bz, uint16_t *acc) {
    const int w = K->w, a = K->a;
    for (int c0 = 0; c0 < w; c0 += 2 * a)
        for (int c = c0; c < c0 + a; c++)
            rz_tap(X + (size_t)(c + a) * bz, X + (long)(c - a) * (long)bz, K->up_cp, K->up_m,
                   S, (long)c * (long)bz, K, bz, acc);
    for (int c0 = w - a; c0 >= a; c0 -= 2 * a)
        for (int c = c0 + a - 1; c >= c0; c--)
            rz_tap(X + (size_t)(c - a) * bz, X + (size_t)(c + a) * bz, K->dn_cp, K->dn_m,
                   S, (long)c * (long)bz, K, bz, acc);
}

static void rz_row_portable(uint8_t *X, const uint8_t *const *S, const rz_ctx *K, size_t bz,
                            uint16_t *acc) {
    rz_row_body(X, S, K, bz, acc);
}
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("avx2")))
static void rz_row_avx2(uint8_t *X, const uint8_t *const *S, const rz_ctx *K, size_t bz,
                        uint16_t *acc) {
    rz_row_body(X, S, K, bz, acc);
}
__attribute__((target("avx512f,avx512bw,avx512vl")))
static void rz_row_avx512(uint8_t *X, const uint8_t *const *S, const rz_ctx *K, size_t bz,
                          uint16_t *acc) {
    rz_row_body(X, S, K, bz, acc);
}
#endif

typedef void (*rz_row_fn)(uint8_t *, const uint8_t *const *, const rz_ctx *, size_t, uint16_t *);

static rz_row_fn rz_row_pick(void) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    const int path = ml_simd_get();
    if (path >= ML_SIMD_AVX512) return rz_row_avx512;
    if (path >= ML_SIMD_AVX2) return rz_row_avx2;
#endif
    return rz_row_portable;
}

/* The constants of the chains of a plan (see above). */
static void rz_ctx_init(const ml_rowsolve *p, rz_ctx *K) {
    const int n = p->n;
    memset(K, 0, sizeof(*K));
    K->n = n; K->nt = p->nt; K->w = p->w; K->a = p->a; K->cf = p->cf;
    K->up_cp = (uint16_t)p->alpha; K->up_m = (uint16_t)((n - p->binv) % n);
    K->dn_cp = (uint16_t)p->beta; K->dn_m = (uint16_t)((n - p->ainv) % n);
    /* the byte and fit16 ways read source S[0] whatever nt is (fit16: S[0..7] when
     * nt = 0); a pattern whose only taps on a tile are the pair (no centre: nt = 0)
     * takes the general 16-bit way (rz_tap16), which reads nt sources */
    if (p->nt < 1) return;
    int ones = p->alpha == 1 && p->beta == 1;
    for (int i = 0; i < p->nt; i++) ones = ones && p->cf[i] == 1;
    const long bound = (long)(p->nt + 1) * (n - 1);
    if (ones && bound < 256) {
        uint16_t d[RZ_MAXS];
        K->ns8 = rz_subs(n, bound, d);      /* <= 8: n 2^k <= 255 with n >= 2 */
        for (int s = 0; s < K->ns8; s++) K->sub8[s] = (uint8_t)d[s];
        K->bytes = 1;
        return;
    }
    long sum = p->alpha > p->beta ? p->alpha : p->beta;
    for (int i = 0; i < p->nt; i++) sum += p->cf[i];
    if (p->nt <= 8 && sum * (n - 1) <= 65535) {
        K->ns16 = rz_subs(n, sum * (n - 1), K->sub16);
        K->nsm = rz_subs(n, (long)(n - 1) * (n - 1), K->subm);
        K->fit16 = 1;
    }
}

/* Column 0 of board row R (slots of bz bytes), or the zero row off the board. */
static inline uint8_t *rz_ring_row(const ml_rowsolve *p, uint8_t *ring, uint8_t *zero, long R,
                                   size_t bz) {
    if (R < 0 || R >= p->h) return zero + (size_t)p->mc * bz;
    size_t len = (size_t)(p->w + 2 * p->mc) * bz;
    return ring + (size_t)(R & (p->RR - 1)) * len + (size_t)p->mc * bz;
}

/* One block: the symbols j0 .. j0 + nb - 1 of symbol row r0. Returns 0 or 3. */
static int rz_block(const rs_job *J, const rz_ctx *K, uint8_t *ring, uint8_t *zero,
                    const uint8_t **S, uint16_t *acc, rz_row_fn row_fn, int r0, int j0, int nb) {
    const ml_rowsolve *p = J->p;
    const int h = p->h, w = p->w, D = p->D, nt = p->nt, ne = p->ne;
    const size_t bz = J->width, len = (size_t)(w + 2 * p->mc) * bz;
    const size_t nsym = ml_rowsolve_nsym(p);
    /* rows 0..D-1: the unit vectors of the block's symbols (margins stay zero) */
    for (int R = 0; R < D && R < h; R++) {
        uint8_t *X = rz_ring_row(p, ring, zero, R, bz);
        memset(X - (size_t)p->mc * bz, 0, len);
        if (R == r0)
            for (int i = 0; i < nb; i++) X[(size_t)(j0 + i) * bz + (size_t)i] = 1;
    }
    for (int r = 0; r + D < h; r++) {
        /* a row is w bz (nt + 1) byte terms: poll more often than the GF(2) chase */
        if ((r & 7) == 0 && ml_interrupt_poll()) return 3;
        for (int i = 0; i < nt; i++)
            S[i] = rz_ring_row(p, ring, zero, (long)r + p->er[i], bz) + (long)p->ec[i] * (long)bz;
        row_fn(rz_ring_row(p, ring, zero, (long)r + D, bz), S, K, bz, acc);
    }
    /* residual rows: every offset, written straight into M */
    const size_t s0 = (size_t)r0 * (size_t)w + (size_t)j0;
    for (int r = h - D; r < h; r++) {
        if (r < 0) continue;
        for (int i = 0; i < ne; i++)
            S[i] = rz_ring_row(p, ring, zero, (long)r + p->er[i], bz) + (long)p->ec[i] * (long)bz;
        for (int c = 0; c < w; c++) {
            uint8_t *row = (uint8_t *)J->M + ((size_t)(r - (h - D)) * (size_t)w + (size_t)c) * nsym;
            rz_tap16(row + s0, NULL, 0, 1, S, (long)c * (long)bz, p->cf, ne, (size_t)nb,
                     p->n, acc);
        }
    }
    return 0;
}

static void *rz_worker(void *arg) {
    rs_job *J = arg;
    const ml_rowsolve *p = J->p;
    const size_t bz = J->width, len = (size_t)(p->w + 2 * p->mc) * bz;
    const size_t ring_bytes = ((size_t)(p->RR + 1) * len + 63) / 64 * 64;
    uint8_t *ring = aligned_alloc(64, ring_bytes);
    const uint8_t **S = malloc((size_t)(p->ne + 1) * sizeof(*S));
    uint16_t *acc = malloc((bz + 1) * sizeof(uint16_t));
    rz_ctx K;
    J->status = 0;
    if (!ring || !S || !acc) { J->status = 2; goto done; }
    /* margins are never written: zero once */
    memset(ring, 0, ring_bytes);
    uint8_t *zero = ring + (size_t)p->RR * len;
    rz_ctx_init(p, &K);
    rz_row_fn row_fn = rz_row_pick();
    for (;;) {
        if (ml_interrupt_poll()) { J->status = 3; break; }
        size_t i = (size_t)__atomic_fetch_add(J->next, 1, __ATOMIC_RELAXED);
        if (i >= J->nblocks) break;
        int r0 = (int)(i / J->nblk_row);
        size_t j0 = (i % J->nblk_row) * bz;
        int nb = (int)((size_t)p->w - j0 < bz ? (size_t)p->w - j0 : bz);
        if (rz_block(J, &K, ring, zero, S, acc, row_fn, r0, (int)j0, nb)) {
            J->status = 3;
            break;
        }
    }
done:
    free(ring); free(S); free(acc);
    return NULL;
}

/* M[k][r0 w + c] = M[k'][r0 w + w - 1 - c] for the columns c >= half of every symbol
 * row, k' the mirror image of equation k (the columns < half were chased). */
static void rz_mirror_fill(const ml_rowsolve *p, uint8_t *M, int half) {
    const int w = p->w, D = p->D;
    const size_t nsym = ml_rowsolve_nsym(p);
    for (size_t k = 0; k < nsym; k++) {
        size_t rr = k / (size_t)w, cc = k % (size_t)w;
        const uint8_t *src = M + (rr * (size_t)w + (size_t)w - 1 - cc) * nsym;
        uint8_t *dst = M + k * nsym;
        for (int r0 = 0; r0 < D; r0++) {
            const size_t base = (size_t)r0 * (size_t)w;
            for (int c = half; c < w; c++) dst[base + (size_t)c] = src[base + (size_t)(w - 1 - c)];
        }
    }
}

int ml_rowsolve_matrix_zn(const ml_rowsolve *p, uint8_t *M, int threads, size_t bz, int mirror) {
    if (!bz) bz = 256;
    if (bz > ML_ROWSOLVE_MAX_BZ) bz = ML_ROWSOLVE_MAX_BZ;
    /* the ring of a thread: (RR + 1) rows of (w + 2 mc) bz bytes */
    const size_t len_cols = (size_t)p->w + 2 * (size_t)p->mc;
    if (len_cols > SIZE_MAX / bz / ((size_t)p->RR + 1) - 64) return 2;
    const int mir = mirror && p->mirrored;
    const size_t cols = mir ? (size_t)(p->w + 1) / 2 : (size_t)p->w;
    const int st = rs_run(p, M, 0, bz, bz, cols, threads, rz_worker);
    if (!st && mir) rz_mirror_fill(p, M, (int)cols);
    return st;
}

/* ------------------------------------------------------------------ Z/3, Z/4 bit-sliced */
/* Z/3 and Z/4 symbolic chases bit-sliced (bitslice.h): a tap is two planes of bw words,
 * 64 symbols a word (Z/3: P = [x == 1] then M = [x == 2]; Z/4: the low bit then the
 * high bit), so a tap of 512 symbols is 128 bytes instead of 512, and a source costs
 * the 7 word operations of ML_GF3_ADD (Z/3; a coefficient 2 = -1: the source's planes
 * exchanged) or the 4 of ML_Z4_ADD / SUB (Z/4: coefficients 1, 3 = -1; 2: ML_Z4_ADD2)
 * per 64 symbols. The chain tap is -beta^-1 u (u = alpha prev + the sources): -1
 * negates u (Z/3: exchanges the planes, Z/4: h ^= l), -beta^-1 = 1 keeps it; alpha =
 * -1 negates prev. The residual rows are written as bytes, l + 2 h either way (what the
 * Z/n residual engine reads). */

typedef struct {
    int q, nt, w, a;                     /* q: the modulus, 3 or 4 */
    size_t po[ML_ROWSOLVE_MAX_OFFSETS], mo[ML_ROWSOLVE_MAX_OFFSETS];   /* Z/3 planes */
    uint8_t op[ML_ROWSOLVE_MAX_OFFSETS]; /* Z/4: 1 add, 3 subtract, 2 add twice */
    int up_csw, up_msw, dn_csw, dn_msw;  /* negate prev / the result */
} r3_ctx;

/* One chain tap: out = m (c prev + sum of the sources at column c), VT vectors. */
#define R3_TAP(VT)                                                                          \
    do {                                                                                    \
        const size_t nv = bw * sizeof(uint64_t) / sizeof(VT);                               \
        const size_t wv = sizeof(VT) / 8;                                                   \
        const VT *pp = (const VT *)(X + pc * sl), *pm = pp + nv;                            \
        VT *op = (VT *)(X + oc * sl), *om = op + nv;                                        \
        if (K->q == 3) {                                                                    \
            if (csw) { const VT *t_ = pp; pp = pm; pm = t_; }                               \
            if (msw) { VT *t_ = op; op = om; om = t_; }                                     \
            for (size_t j = 0; j < nv; j++) {                                               \
                VT up = pp[j], um = pm[j];                                                  \
                for (int i = 0; i < K->nt; i++) {                                           \
                    const VT *s_ = (const VT *)(S[i] + c * sl);                             \
                    VT yp = s_[K->po[i] / wv + j];                                          \
                    VT ym = s_[K->mo[i] / wv + j];                                          \
                    ML_GF3_ADD(up, um, yp, ym, up, um);                                     \
                }                                                                           \
                op[j] = up;                                                                 \
                om[j] = um;                                                                 \
            }                                                                               \
        } else {                                                                            \
            for (size_t j = 0; j < nv; j++) {                                               \
                VT ul = pp[j], uh = pm[j];                                                  \
                if (csw) uh ^= ul;                                                          \
                for (int i = 0; i < K->nt; i++) {                                           \
                    const VT *s_ = (const VT *)(S[i] + c * sl);                             \
                    VT yl = s_[j], yh = s_[nv + j];                                         \
                    if (K->op[i] == 1) ML_Z4_ADD(ul, uh, yl, yh);                           \
                    else if (K->op[i] == 3) ML_Z4_SUB(ul, uh, yl, yh);                      \
                    else ML_Z4_ADD2(ul, uh, yl);                                            \
                }                                                                           \
                if (msw) uh ^= ul;                                                          \
                op[j] = ul;                                                                 \
                om[j] = uh;                                                                 \
            }                                                                               \
        }                                                                                   \
    } while (0)

static inline __attribute__((always_inline)) void
r3_tap(uint64_t *X, long oc, long pc, int csw, int msw, const uint64_t *const *S, long c,
       const r3_ctx *K, size_t bw, int wide) {
    const long sl = 2 * (long)bw;
    if (wide && bw % 8 == 0) { R3_TAP(rs_v8); return; }
    if (bw % 4 == 0) { R3_TAP(rs_v4); return; }
    R3_TAP(uint64_t);
}

static inline __attribute__((always_inline)) void
r3_row_body(uint64_t *X, const uint64_t *const *S, const r3_ctx *K, size_t bw, int wide) {
    const int w = K->w, a = K->a;
    for (int c0 = 0; c0 < w; c0 += 2 * a)
        for (int c = c0; c < c0 + a; c++)
            r3_tap(X, c + a, c - a, K->up_csw, K->up_msw, S, c, K, bw, wide);
    for (int c0 = w - a; c0 >= a; c0 -= 2 * a)
        for (int c = c0 + a - 1; c >= c0; c--)
            r3_tap(X, c - a, c + a, K->dn_csw, K->dn_msw, S, c, K, bw, wide);
}

static void r3_row_portable(uint64_t *X, const uint64_t *const *S, const r3_ctx *K,
                            size_t bw) {
    r3_row_body(X, S, K, bw, 0);
}
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("avx2")))
static void r3_row_avx2(uint64_t *X, const uint64_t *const *S, const r3_ctx *K, size_t bw) {
    r3_row_body(X, S, K, bw, 0);
}
__attribute__((target("avx512f,avx512vl")))
static void r3_row_avx512(uint64_t *X, const uint64_t *const *S, const r3_ctx *K, size_t bw) {
    r3_row_body(X, S, K, bw, 1);
}
#endif

typedef void (*r3_row_fn)(uint64_t *, const uint64_t *const *, const r3_ctx *, size_t);

static r3_row_fn r3_row_pick(void) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    const int path = ml_simd_get();
    if (path >= ML_SIMD_AVX512) return r3_row_avx512;
    if (path >= ML_SIMD_AVX2) return r3_row_avx2;
#endif
    return r3_row_portable;
}

/* Column 0 of board row R (slots of 2 bw words, rows one after the other), or the zero
 * row off the board. */
static inline uint64_t *r3_ring_row(const ml_rowsolve *p, uint64_t *ring, uint64_t *zero,
                                    long R, size_t bw) {
    const size_t sl = 2 * bw;
    if (R < 0 || R >= p->h) return zero + (size_t)p->mc * sl;
    size_t len = (size_t)(p->w + 2 * p->mc) * sl;
    return ring + (size_t)(R & (p->RR - 1)) * len + (size_t)p->mc * sl;
}

/* One block: the symbols j0 .. j0 + nb - 1 of symbol row r0. Returns 0 or 3. */
static int r3_block(const rs_job *J, const r3_ctx *K, uint64_t *ring, uint64_t *zero,
                    const uint64_t **S, r3_row_fn row_fn, int r0, int j0, int nb) {
    const ml_rowsolve *p = J->p;
    const int h = p->h, w = p->w, D = p->D, nt = p->nt, ne = p->ne;
    const size_t bw = J->width, sl = 2 * bw, len = (size_t)(w + 2 * p->mc) * sl;
    const size_t nsym = ml_rowsolve_nsym(p);
    for (int R = 0; R < D && R < h; R++) {
        uint64_t *X = r3_ring_row(p, ring, zero, R, bw);
        memset(X - (size_t)p->mc * sl, 0, len * sizeof(uint64_t));
        if (R == r0)                                  /* unit vectors: the P plane */
            for (int i = 0; i < nb; i++)
                X[(size_t)(j0 + i) * sl + (size_t)i / 64] |= (uint64_t)1 << (i % 64);
    }
    for (int r = 0; r + D < h; r++) {
        if ((r & 31) == 0 && ml_interrupt_poll()) return 3;
        for (int i = 0; i < nt; i++)
            S[i] = r3_ring_row(p, ring, zero, (long)r + p->er[i], bw) + (long)p->ec[i] * (long)sl;
        row_fn(r3_ring_row(p, ring, zero, (long)r + D, bw), S, K, bw);
    }
    /* residual rows: every offset, written as bytes l + 2 h */
    const size_t s0 = (size_t)r0 * (size_t)w + (size_t)j0;
    const size_t nwb = ((size_t)nb + 63) / 64;
    for (int r = h - D; r < h; r++) {
        if (r < 0) continue;
        for (int i = 0; i < ne; i++)
            S[i] = r3_ring_row(p, ring, zero, (long)r + p->er[i], bw) + (long)p->ec[i] * (long)sl;
        for (int c = 0; c < w; c++) {
            uint8_t *row = (uint8_t *)J->M + ((size_t)(r - (h - D)) * (size_t)w + (size_t)c) * nsym + s0;
            for (size_t q = 0; q < nwb; q++) {
                uint64_t up = 0, um = 0;
                for (int i = 0; i < ne; i++) {
                    const uint64_t *s_ = S[i] + (long)c * (long)sl;
                    uint64_t yp = s_[q], ym = s_[bw + q];
                    if (p->n == 4) {                  /* (up, um) = (low, high) */
                        if (p->cf[i] == 1) ML_Z4_ADD(up, um, yp, ym);
                        else if (p->cf[i] == 3) ML_Z4_SUB(up, um, yp, ym);
                        else ML_Z4_ADD2(up, um, yp);
                        continue;
                    }
                    if (p->cf[i] == 2) { uint64_t t_ = yp; yp = ym; ym = t_; }
                    ML_GF3_ADD(up, um, yp, ym, up, um);
                }
                const size_t lim = (size_t)nb - 64 * q < 64 ? (size_t)nb - 64 * q : 64;
                for (size_t t = 0; t < lim; t++)
                    row[64 * q + t] = (uint8_t)(((up >> t) & 1u) | (((um >> t) & 1u) << 1));
            }
        }
    }
    return 0;
}

static void *r3_worker(void *arg) {
    rs_job *J = arg;
    const ml_rowsolve *p = J->p;
    const size_t bw = J->width, len = (size_t)(p->w + 2 * p->mc) * 2 * bw;
    const size_t ring_bytes = ((size_t)(p->RR + 1) * len * sizeof(uint64_t) + 63) / 64 * 64;
    uint64_t *ring = aligned_alloc(64, ring_bytes);
    const uint64_t **S = malloc((size_t)(p->ne + 1) * sizeof(*S));
    r3_ctx *K = malloc(sizeof(*K));
    J->status = 0;
    if (!ring || !S || !K) { J->status = 2; goto done; }
    memset(ring, 0, ring_bytes);
    uint64_t *zero = ring + (size_t)p->RR * len;
    K->q = p->n; K->nt = p->nt; K->w = p->w; K->a = p->a;
    for (int i = 0; i < p->nt; i++) {
        K->po[i] = p->n == 3 && p->cf[i] == 2 ? bw : 0;
        K->mo[i] = p->n == 3 && p->cf[i] == 2 ? 0 : bw;
        K->op[i] = (uint8_t)p->cf[i];
    }
    /* upwards u = alpha prev + ...: alpha = -1 negates prev; the tap -beta^-1 u: -1
     * (beta^-1 = 1) negates u */
    K->up_csw = p->alpha == p->n - 1; K->up_msw = p->binv == 1;
    K->dn_csw = p->beta == p->n - 1; K->dn_msw = p->ainv == 1;
    r3_row_fn row_fn = r3_row_pick();
    const size_t per = 64 * bw;
    for (;;) {
        if (ml_interrupt_poll()) { J->status = 3; break; }
        size_t i = (size_t)__atomic_fetch_add(J->next, 1, __ATOMIC_RELAXED);
        if (i >= J->nblocks) break;
        int r0 = (int)(i / J->nblk_row);
        size_t j0 = (i % J->nblk_row) * per;
        int nb = (int)((size_t)p->w - j0 < per ? (size_t)p->w - j0 : per);
        if (r3_block(J, K, ring, zero, S, row_fn, r0, (int)j0, nb)) { J->status = 3; break; }
    }
done:
    free(ring); free(S); free(K);
    return NULL;
}

int ml_rowsolve_matrix_sliced(const ml_rowsolve *p, uint8_t *M, int threads, size_t bw,
                              int mirror) {
    if (p->n != 3 && p->n != 4) return 1;
    if (!bw) bw = 8;
    if (bw > 64) bw = 64;
    /* the ring of a thread: (RR + 1) rows of (w + 2 mc) slots of 2 bw words */
    const size_t len_cols = (size_t)p->w + 2 * (size_t)p->mc;
    if (len_cols > SIZE_MAX / (16 * bw) / ((size_t)p->RR + 1) - 64) return 2;
    const size_t per = 64 * bw;
    const int mir = mirror && p->mirrored;
    const size_t cols = mir ? (size_t)(p->w + 1) / 2 : (size_t)p->w;
    const int st = rs_run(p, M, 0, bw, per, cols, threads, r3_worker);
    if (!st && mir) rz_mirror_fill(p, M, (int)cols);
    return st;
}

/* ------------------------------------------------------------------ numeric chase */
/* Both chains of a row for a = 1, 8 taps a word: x[j] = t[j - 1] + x[j - 2] (odd j) and
 * x[j] = t[j + 1] + x[j + 2] (even j) are, with y = t with its byte pairs swapped, the
 * stride-2 prefix sums of y on the odd bytes and its suffix sums on the even bytes:
 * shifts by 16 and 32 bits within a word, the last pair carried to the next word. */
static void chains_a1(uint8_t *X, const uint8_t *T, int w) {
    const uint64_t M8 = 0x00FF00FF00FF00FFull, B2 = 0x0001000100010001ull;
    const int nw = w / 8, tail = nw * 8;
    uint64_t carry = 0;
    for (int i = 0; i < nw; i++) {
        uint64_t t, p;
        memcpy(&t, T + 8 * i, 8);
        p = ((t >> 8) & M8) | ((t & M8) << 8);
        p ^= p << 16;
        p ^= p << 32;
        p ^= carry;
        carry = (p >> 48) * B2;
        memcpy(X + 8 * i, &p, 8);          /* odd bytes final, even bytes below */
    }
    for (int j = tail + 1; j < w; j += 2) X[j] = T[j - 1] ^ X[j - 2];
    for (int j = w - 2; j >= tail; j -= 2) X[j] = T[j + 1] ^ (j + 2 < w ? X[j + 2] : 0);
    carry = tail < w ? (uint64_t)X[tail] * B2 : 0;
    for (int i = nw - 1; i >= 0; i--) {
        uint64_t t, s, x;
        memcpy(&t, T + 8 * i, 8);
        s = ((t >> 8) & M8) | ((t & M8) << 8);
        s ^= s >> 16;
        s ^= s >> 32;
        s ^= carry;
        carry = (s & 0xFFFFu) * B2;
        memcpy(&x, X + 8 * i, 8);
        x = (x & ~M8) | (s & M8);
        memcpy(X + 8 * i, &x, 8);
    }
}

/* GF(2): sums are xors of the low bits. */
static int rs_numeric_gf2(const ml_rowsolve *p, const uint8_t *b, const uint8_t *z, uint8_t *x,
                          uint8_t *rho) {
    const int h = p->h, w = p->w, D = p->D, a = p->a, nt = p->nt, ne = p->ne, mc = p->mc;
    const size_t len = (size_t)(w + 2 * mc);
    uint8_t *ring = calloc((size_t)(p->RR + 1) * len + 1, 1);
    uint8_t *T = malloc((size_t)w + 1);
    const uint8_t **S = malloc((size_t)(ne + 1) * sizeof(*S));
    if (!ring || !T || !S) { free(ring); free(T); free(S); return 2; }
    uint8_t *zero = ring + (size_t)p->RR * len + mc;
#define NROW(R) ((R) < 0 || (R) >= h ? zero : ring + (size_t)((R) & (p->RR - 1)) * len + mc)
    for (int R = 0; R < D && R < h; R++) {
        uint8_t *X = NROW(R);
        for (int c = 0; c < w; c++) X[c] = z ? (uint8_t)(z[(size_t)R * w + c] & 1u) : 0;
        memcpy(x + (size_t)R * w, X, (size_t)w);
    }
    int st = 0;
    for (int r = 0; r + D < h; r++) {
        if ((r & 255) == 0 && ml_interrupt_poll()) { st = 3; break; }
        const uint8_t *br = b + (size_t)r * w;
        for (int c = 0; c < w; c++) T[c] = br[c] & 1u;
        for (int i = 0; i < nt; i++) {
            const uint8_t *s = NROW((long)r + p->er[i]) + p->ec[i];
            for (int c = 0; c < w; c++) T[c] ^= s[c];
        }
        uint8_t *X = NROW(r + D);
        if (a == 1) {
            chains_a1(X, T, w);
            memcpy(x + (size_t)(r + D) * w, X, (size_t)w);
            continue;
        }
        for (int c0 = 0; c0 < w; c0 += 2 * a)
            for (int c = c0; c < c0 + a; c++) X[c + a] = T[c] ^ X[c - a];
        for (int c0 = w - a; c0 >= a; c0 -= 2 * a)
            for (int c = c0 + a - 1; c >= c0; c--) X[c - a] = T[c] ^ X[c + a];
        memcpy(x + (size_t)(r + D) * w, X, (size_t)w);
    }
    if (!st)
        for (int r = h - D > 0 ? h - D : 0; r < h; r++) {
            const uint8_t *br = b + (size_t)r * w;
            uint8_t *out = rho + (size_t)(r - (h - D)) * w;
            for (int c = 0; c < w; c++) out[c] = br[c] & 1u;
            for (int i = 0; i < ne; i++) {
                const uint8_t *s = NROW((long)r + p->er[i]) + p->ec[i];
                for (int c = 0; c < w; c++) out[c] ^= s[c];
            }
        }
#undef NROW
    free(ring); free(T); free(S);
    return st;
}


/* Z/n: a sum of terms < n^2 in int32, reduced by ml_fmod_n (< 2^24) every 200 terms. */
static int rz_numeric(const ml_rowsolve *p, const uint8_t *b, const uint8_t *z, uint8_t *x,
                      uint8_t *rho) {
    const int h = p->h, w = p->w, D = p->D, a = p->a, nt = p->nt, ne = p->ne, mc = p->mc;
    const int32_t n = p->n;
    const float rn = 1.0f / (float)n;
    const size_t len = (size_t)(w + 2 * mc);
    uint8_t *ring = calloc((size_t)(p->RR + 1) * len + 1, 1);
    int32_t *T = malloc(((size_t)w + 1) * sizeof(int32_t));
    if (!ring || !T) { free(ring); free(T); return 2; }
    uint8_t *zero = ring + (size_t)p->RR * len + mc;
#define NROW(R) ((R) < 0 || (R) >= h ? zero : ring + (size_t)((R) & (p->RR - 1)) * len + mc)
    for (int R = 0; R < D && R < h; R++) {
        uint8_t *X = NROW(R);
        for (int c = 0; c < w; c++) X[c] = z ? z[(size_t)R * w + c] : 0;
        memcpy(x + (size_t)R * w, X, (size_t)w);
    }
    /* T = b - (the sources of the first `m` offsets) mod n */
#define RZ_T(r, m)                                                                          \
    do {                                                                                    \
        const uint8_t *br_ = b + (size_t)(r) * w;                                           \
        for (int c = 0; c < w; c++) T[c] = br_[c];                                          \
        for (int i = 0; i < (m); i++) {                                                     \
            const uint8_t *s_ = NROW((long)(r) + p->er[i]) + p->ec[i];                      \
            const int32_t k_ = n - p->cf[i];                                                \
            for (int c = 0; c < w; c++) T[c] += k_ * s_[c];                                 \
            if (i % 200 == 199) for (int c = 0; c < w; c++) T[c] = ml_fmod_n(T[c], n, rn);  \
        }                                                                                   \
        for (int c = 0; c < w; c++) T[c] = ml_fmod_n(T[c], n, rn);                          \
    } while (0)
    const int32_t na = n - p->alpha, nb = n - p->beta, ai = p->ainv, bi = p->binv;
    int st = 0;
    for (int r = 0; r + D < h; r++) {
        if ((r & 255) == 0 && ml_interrupt_poll()) { st = 3; break; }
        RZ_T(r, nt);
        uint8_t *X = NROW(r + D);
        /* alpha x[c - a] + beta x[c + a] = T[c], the chains of rowsolve.h */
        for (int c0 = 0; c0 < w; c0 += 2 * a)
            for (int c = c0; c < c0 + a; c++)
                X[c + a] = (uint8_t)ml_fmod_n(ml_fmod_n(T[c] + na * X[c - a], n, rn) * bi, n, rn);
        for (int c0 = w - a; c0 >= a; c0 -= 2 * a)
            for (int c = c0 + a - 1; c >= c0; c--)
                X[c - a] = (uint8_t)ml_fmod_n(ml_fmod_n(T[c] + nb * X[c + a], n, rn) * ai, n, rn);
        memcpy(x + (size_t)(r + D) * w, X, (size_t)w);
    }
    if (!st)
        for (int r = h - D > 0 ? h - D : 0; r < h; r++) {
            RZ_T(r, ne);
            uint8_t *out = rho + (size_t)(r - (h - D)) * w;
            for (int c = 0; c < w; c++) out[c] = (uint8_t)T[c];
        }
#undef RZ_T
#undef NROW
    free(ring); free(T);
    return st;
}

int ml_rowsolve_numeric(const ml_rowsolve *p, const uint8_t *b, const uint8_t *z, uint8_t *x,
                        uint8_t *rho) {
    return p->n == 2 ? rs_numeric_gf2(p, b, z, x, rho) : rz_numeric(p, b, z, x, rho);
}
