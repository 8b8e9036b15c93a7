/* rowsolve_sliced.c: the symbolic row-solve chase over Z/3 and Z/4 bit-sliced
 * (rowsolve.h, ml_rowsolve_matrix_sliced; bitslice.h). */
#include "chase/rowsolve.h"
#include "chase/rowsolve_impl.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include "base/bitslice.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    const int st = ml_rowsolve__run(p, M, 0, bw, per, cols, threads, r3_worker);
    if (!st && mir) ml_rowsolve__mirror_fill_bytes(p, M, (int)cols);
    return st;
}
