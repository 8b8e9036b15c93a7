/* rowsolve_gf2.c: the symbolic row-solve chase over GF(2) (rowsolve.h,
 * ml_rowsolve_matrix): a column-interleaved ring of bw-word taps, one pass over the board
 * per block of 64 bw symbols, the row kernel compiled for the portable path, AVX2 and
 * AVX-512 and picked at run time (cpu.h). */
#include "chase/rowsolve.h"
#include "chase/rowsolve_impl.h"
#include "base/cpu.h"
#include "base/interrupt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    const int st = ml_rowsolve__run(p, M, stride, bw, per, cols, threads, rs_worker);
    if (!st && mir) rs_mirror_fill(p, M, stride, (int)cols);
    return st;
}
