/* rowsolve_zn.c: the symbolic row-solve chase over Z/n, a byte a symbol (rowsolve.h,
 * ml_rowsolve_matrix_zn). */
#include "chase/rowsolve.h"
#include "chase/rowsolve_impl.h"
#include "base/cpu.h"
#include "base/interrupt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#endif

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
 *    min of unsigned bytes) and negated; on AVX-512 VBMI, when the sums stay below 128
 *    (the knight for n <= 16), -u mod n is read from a 128-byte table by one byte
 *    permutation instead, and the knight's row (256-symbol taps) carries the sources
 *    two neighbouring taps share in registers along its chains (rz_row_knight);
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
    int lut7;                     /* byte way with (nt + 1)(n - 1) < 128: lut read */
    uint8_t lut[128];             /* lut7: lut[x] = -x mod n */
    int knight;                   /* lut7, a = 1 and the knight's seven sources: */
    int kn[7];                    /* their indices: (-2, -1), (-2, 1), (-1, -2), (-1, 2),
                                   * (0, 0), (1, -2), (1, 2) */
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

/* The byte way when its sums stay below 128 (lut7: the knight for n <= 16), AVX-512 VBMI:
 * a tap is the byte sum of pv and the nt sources, then -x mod n read from the 128-byte
 * table by one two-table byte permutation (vpermt2b) instead of the subtract-min steps
 * and the negation; 64 symbols a vector, the last vector of a tap masked. */
#define RZ_VBMI_ATTR __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi"), always_inline))
static inline RZ_VBMI_ATTR void rz_tap_vbmi(uint8_t *restrict v, const uint8_t *restrict pv,
                                            const uint8_t *const *S, long o, int nt, size_t bz,
                                            __m512i lo, __m512i hi) {
    size_t j = 0;
    if (nt == 7) {
        RS_SOURCES(const uint8_t, o, 7);
        for (; j + 64 <= bz; j += 64) {
            __m512i x = _mm512_add_epi8(_mm512_loadu_si512((const void *)(pv + j)),
                                        _mm512_loadu_si512((const void *)(s0 + j)));
            __m512i y = _mm512_add_epi8(_mm512_loadu_si512((const void *)(s1 + j)),
                                        _mm512_loadu_si512((const void *)(s2 + j)));
            __m512i z = _mm512_add_epi8(_mm512_loadu_si512((const void *)(s3 + j)),
                                        _mm512_loadu_si512((const void *)(s4 + j)));
            __m512i u = _mm512_add_epi8(_mm512_loadu_si512((const void *)(s5 + j)),
                                        _mm512_loadu_si512((const void *)(s6 + j)));
            x = _mm512_add_epi8(_mm512_add_epi8(x, y), _mm512_add_epi8(z, u));
            _mm512_storeu_si512((void *)(v + j), _mm512_permutex2var_epi8(lo, x, hi));
        }
    }
    for (; j < bz; j += 64) {
        const __mmask64 m = bz - j >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (bz - j)) - 1);
        __m512i x = _mm512_maskz_loadu_epi8(m, pv + j);
        for (int i = 0; i < nt; i++)
            x = _mm512_add_epi8(x, _mm512_maskz_loadu_epi8(m, S[i] + o + (long)j));
        _mm512_mask_storeu_epi8(v + j, m, _mm512_permutex2var_epi8(lo, x, hi));
    }
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
static void rz_row_vbmi(uint8_t *X, const uint8_t *const *S, const rz_ctx *K, size_t bz,
                        uint16_t *acc) {
    (void)acc;
    const int w = K->w, a = K->a, nt = K->nt;
    const __m512i lo = _mm512_loadu_si512((const void *)K->lut);
    const __m512i hi = _mm512_loadu_si512((const void *)(K->lut + 64));
    for (int c0 = 0; c0 < w; c0 += 2 * a)
        for (int c = c0; c < c0 + a; c++)
            rz_tap_vbmi(X + (size_t)(c + a) * bz, X + (long)(c - a) * (long)bz, S,
                        (long)c * (long)bz, nt, bz, lo, hi);
    for (int c0 = w - a; c0 >= a; c0 -= 2 * a)
        for (int c = c0 + a - 1; c >= c0; c--)
            rz_tap_vbmi(X + (size_t)(c - a) * bz, X + (size_t)(c + a) * bz, S,
                        (long)c * (long)bz, nt, bz, lo, hi);
}

/* The knight (K->knight) with 256-symbol taps: both chains step two columns, so of the
 * seven sources a tap reads, row r - 2's right one is the next tap's left one, and rows
 * r - 1 and r + 1 read the same columns c -+ 2: their sum E[c] serves the taps at c - 2
 * and c + 2. Carried in registers along the chain (with the chain's last tap): four
 * loads a tap (row r - 2's new column, E's new column from two rows, the centre)
 * instead of eight. The same sums as rz_tap_vbmi, so the same taps. */
#define RZ_KV 4   /* vectors a tap: bz = 256 */
#define RZ_LD(ptr, o, v) _mm512_loadu_si512((const void *)((ptr) + (o) + 64 * (v)))
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
static void rz_row_knight(uint8_t *X, const uint8_t *const *S, const rz_ctx *K, size_t bz,
                          uint16_t *acc) {
    (void)acc;
    const int w = K->w;
    const __m512i lo = _mm512_loadu_si512((const void *)K->lut);
    const __m512i hi = _mm512_loadu_si512((const void *)(K->lut + 64));
    const uint8_t *A0 = S[K->kn[0]], *A1 = S[K->kn[1]], *B0 = S[K->kn[2]], *B1 = S[K->kn[3]];
    const uint8_t *C = S[K->kn[4]], *D0 = S[K->kn[5]], *D1 = S[K->kn[6]];
    __m512i pv[RZ_KV], ap[RZ_KV], e0[RZ_KV], e1[RZ_KV];
    /* upwards: c = 0, 2, .., w - 2 writes X[c + 1] from X[c - 1] */
    {
        const long o = 0;
        for (int v = 0; v < RZ_KV; v++) {
            pv[v] = RZ_LD(X, -(long)bz, v);                                   /* X[-1] */
            ap[v] = RZ_LD(A0, o, v);                                          /* A[c - 1] */
            e0[v] = _mm512_add_epi8(RZ_LD(B0, o, v), RZ_LD(D0, o, v));        /* E[c - 2] */
            e1[v] = _mm512_add_epi8(RZ_LD(B0, o + 2 * (long)bz, v),
                                    RZ_LD(D0, o + 2 * (long)bz, v));          /* E[c] */
        }
        for (int c = 0; c < w; c += 2) {
            const long oc = (long)c * (long)bz;
            uint8_t *out = X + (size_t)(c + 1) * bz;
            for (int v = 0; v < RZ_KV; v++) {
                const __m512i an = RZ_LD(A1, oc, v);                         /* A[c + 1] */
                const __m512i en = _mm512_add_epi8(RZ_LD(B1, oc, v), RZ_LD(D1, oc, v));
                __m512i x = _mm512_add_epi8(_mm512_add_epi8(pv[v], ap[v]),
                                            _mm512_add_epi8(an, RZ_LD(C, oc, v)));
                x = _mm512_add_epi8(x, _mm512_add_epi8(e0[v], en));
                x = _mm512_permutex2var_epi8(lo, x, hi);
                _mm512_storeu_si512((void *)(out + 64 * v), x);
                pv[v] = x; ap[v] = an; e0[v] = e1[v]; e1[v] = en;
            }
        }
    }
    /* downwards: c = w - 1, w - 3, .., 1 writes X[c - 1] from X[c + 1] */
    {
        const long o = (long)(w - 1) * (long)bz;
        for (int v = 0; v < RZ_KV; v++) {
            pv[v] = RZ_LD(X, (long)w * (long)bz, v);                          /* X[w] */
            ap[v] = RZ_LD(A1, o, v);                                          /* A[c + 1] */
            e0[v] = _mm512_add_epi8(RZ_LD(B1, o, v), RZ_LD(D1, o, v));        /* E[c + 2] */
            e1[v] = _mm512_add_epi8(RZ_LD(B1, o - 2 * (long)bz, v),
                                    RZ_LD(D1, o - 2 * (long)bz, v));          /* E[c] */
        }
        for (int c = w - 1; c >= 1; c -= 2) {
            const long oc = (long)c * (long)bz;
            uint8_t *out = X + (size_t)(c - 1) * bz;
            for (int v = 0; v < RZ_KV; v++) {
                const __m512i an = RZ_LD(A0, oc, v);                         /* A[c - 1] */
                const __m512i en = _mm512_add_epi8(RZ_LD(B0, oc, v), RZ_LD(D0, oc, v));
                __m512i x = _mm512_add_epi8(_mm512_add_epi8(pv[v], ap[v]),
                                            _mm512_add_epi8(an, RZ_LD(C, oc, v)));
                x = _mm512_add_epi8(x, _mm512_add_epi8(e0[v], en));
                x = _mm512_permutex2var_epi8(lo, x, hi);
                _mm512_storeu_si512((void *)(out + 64 * v), x);
                pv[v] = x; ap[v] = an; e0[v] = e1[v]; e1[v] = en;
            }
        }
    }
}
#undef RZ_LD
#undef RZ_KV
#endif

typedef void (*rz_row_fn)(uint8_t *, const uint8_t *const *, const rz_ctx *, size_t, uint16_t *);

static rz_row_fn rz_row_pick(const rz_ctx *K, size_t bz) {
    (void)K; (void)bz;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    const int path = ml_simd_get();
    if (path >= ML_SIMD_AVX512 && K->lut7 && __builtin_cpu_supports("avx512vbmi"))
        return K->knight && bz == 256 ? rz_row_knight : rz_row_vbmi;
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
        K->lut7 = bound < 128;
        for (int x = 0; x < 128; x++) K->lut[x] = (uint8_t)((n - x % n) % n);
        static const int8_t KR[7] = {-2, -2, -1, -1, 0, 1, 1}, KC[7] = {-1, 1, -2, 2, 0, -2, 2};
        int found = 0;
        for (int k = 0; k < 7 && p->nt == 7; k++)
            for (int i = 0; i < 7; i++)
                if (p->er[i] == KR[k] && p->ec[i] == KC[k]) { K->kn[k] = i; found++; }
        K->knight = K->lut7 && p->a == 1 && p->nt == 7 && found == 7;
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
    rz_row_fn row_fn = rz_row_pick(&K, bz);
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
void ml_rowsolve__mirror_fill_bytes(const ml_rowsolve *p, uint8_t *M, int half) {
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
    const int st = ml_rowsolve__run(p, M, 0, bz, bz, cols, threads, rz_worker);
    if (!st && mir) ml_rowsolve__mirror_fill_bytes(p, M, (int)cols);
    return st;
}
