/* symbolic.c: the chase run on symbols (GF(2): bit-packed words; Z/3, Z/4, Z/8: bit
 * planes; other n: bytes), one block of symbols a pass over the board; the residual rows
 * of the block into the residual matrix. */
#include "chase/chase_impl.h"
#include "base/bitslice.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include "base/modn.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ symbolic chase */
/* v = xor of m source vectors (m >= 0). */
ML_CLONES_AVX2
static void xor_many(uint64_t *restrict v, const uint64_t *const *src, int m, size_t len) {
    int i = 0;
    if (m == 0) { memset(v, 0, len * sizeof(uint64_t)); return; }
    if (m >= 4) {
        const uint64_t *restrict a = src[0], *restrict b = src[1], *restrict c = src[2],
                       *restrict d = src[3];
        for (size_t j = 0; j < len; j++) v[j] = a[j] ^ b[j] ^ c[j] ^ d[j];
        i = 4;
    } else if (m == 3) {
        const uint64_t *restrict a = src[0], *restrict b = src[1], *restrict c = src[2];
        for (size_t j = 0; j < len; j++) v[j] = a[j] ^ b[j] ^ c[j];
        return;
    } else if (m == 2) {
        const uint64_t *restrict a = src[0], *restrict b = src[1];
        for (size_t j = 0; j < len; j++) v[j] = a[j] ^ b[j];
        return;
    } else {
        memcpy(v, src[0], len * sizeof(uint64_t));
        return;
    }
    for (; i + 2 <= m; i += 2) {
        const uint64_t *restrict a = src[i], *restrict b = src[i + 1];
        for (size_t j = 0; j < len; j++) v[j] ^= a[j] ^ b[j];
    }
    for (; i < m; i++) {
        const uint64_t *restrict a = src[i];
        for (size_t j = 0; j < len; j++) v[j] ^= a[j];
    }
}

/* Interior run of the GF(2) symbolic chase: cnt taps from t0, each the xor of the
 * taps at fixed deltas, with bw words per tap. Slots of 4 or 8 words are 32-byte
 * aligned and handled as 256-bit vectors (GCC vector extension: one AVX2 register,
 * two SSE2 registers on the default path); on the AVX-512 path slots of 8 words as one
 * 512-bit vector (three-input xors in one vpternlogq). */
typedef uint64_t v4x64 __attribute__((vector_size(32)));
typedef uint64_t v8x64 __attribute__((vector_size(64)));

/* Taps from t0 on (at most cnt) whose slots, and the slots at t0 + dl[i], do not
 * wrap around the ring: they are consecutive in memory. */
static inline size_t ring_run(int64_t t0, size_t cnt, int64_t mask, const int64_t *dl, int nd) {
    size_t run = (size_t)(mask + 1 - (t0 & mask));
    for (int i = 0; i < nd; i++) {
        size_t r = (size_t)(mask + 1 - ((t0 + dl[i]) & mask));
        if (r < run) run = r;
    }
    return run < cnt ? run : cnt;
}

/* The vector part of gf2_run on VT (v4x64 or v8x64), nv of them a slot */
#define GF2_RUN_VEC(VT, nv)                                                                 \
    do {                                                                                    \
        const VT *sp[MAXC + 1];                                                             \
        while (cnt) {                                                                       \
            size_t run = ring_run(t0, cnt, mask, dl, nd);                                   \
            VT *v = (VT *)(V + (size_t)(t0 & mask) * bw);                                   \
            for (int q = 0; q < nd; q++) sp[q] = (const VT *)(V + (size_t)((t0 + dl[q]) & mask) * bw); \
            if (nd == 4) {                                                                  \
                const VT *a = sp[0], *b = sp[1], *c = sp[2], *d = sp[3];                    \
                if ((nv) == 1)                                                              \
                    for (size_t i = 0; i < run; i++) v[i] = a[i] ^ b[i] ^ c[i] ^ d[i];      \
                else if ((nv) == 2)                                                         \
                    for (size_t i = 0; i < 2 * run; i += 2) {                               \
                        v[i] = a[i] ^ b[i] ^ c[i] ^ d[i];                                   \
                        v[i + 1] = a[i + 1] ^ b[i + 1] ^ c[i + 1] ^ d[i + 1];               \
                    }                                                                       \
                else                                                                        \
                    for (size_t i = 0; i < (nv) * run; i++) v[i] = a[i] ^ b[i] ^ c[i] ^ d[i]; \
            } else if (nd == 8) {                                                           \
                /* knight, square (in order: a source may be a tap of this run) */          \
                const VT *a = sp[0], *b = sp[1], *c = sp[2], *d = sp[3], *e = sp[4],        \
                         *f = sp[5], *g = sp[6], *k = sp[7];                                \
                for (size_t i = 0; i < (nv) * run; i++)                                     \
                    v[i] = ((a[i] ^ b[i]) ^ (c[i] ^ d[i])) ^ ((e[i] ^ f[i]) ^ (g[i] ^ k[i])); \
            } else {                                                                        \
                /* in order: a source may be a tap of this run (same-row patterns) */       \
                for (size_t i = 0; i < (nv) * run; i++) {                                   \
                    VT acc = sp[0][i];                                                      \
                    for (int q = 1; q < nd; q++) acc ^= sp[q][i];                           \
                    v[i] = acc;                                                             \
                }                                                                           \
            }                                                                               \
            t0 += (int64_t)run; cnt -= run;                                                 \
        }                                                                                   \
    } while (0)

/* wide: 512-bit vectors where a slot holds whole ones (the AVX-512 path) */
static inline __attribute__((always_inline)) void
gf2_run_body(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt, const int64_t *dl,
             int nd, int wide) {
    if (wide && bw % 8 == 0 && nd >= 1) {
        GF2_RUN_VEC(v8x64, bw / 8);
        return;
    }
    if (bw % 4 == 0 && nd >= 1) {
        GF2_RUN_VEC(v4x64, bw / 4);
        return;
    }
    const uint64_t *src[MAXC + 1];
    for (size_t i = 0; i < cnt; i++) {
        const int64_t t = t0 + (int64_t)i;
        for (int q = 0; q < nd; q++) src[q] = V + (size_t)((t + dl[q]) & mask) * bw;
        xor_many(V + (size_t)(t & mask) * bw, src, nd, bw);
    }
}

static void gf2_run_portable(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                             const int64_t *dl, int nd) {
    gf2_run_body(V, bw, mask, t0, cnt, dl, nd, 0);
}
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("avx2")))
static void gf2_run_avx2(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                         const int64_t *dl, int nd) {
    gf2_run_body(V, bw, mask, t0, cnt, dl, nd, 0);
}
__attribute__((target("avx512f,avx512vl")))
static void gf2_run_avx512(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                           const int64_t *dl, int nd) {
    gf2_run_body(V, bw, mask, t0, cnt, dl, nd, 1);
}
#endif

/* The GF(2) interior run on the SIMD path of csrc/base/cpu.h (MODLIGHTS_SIMD, ml_simd_set) */
static void gf2_run(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                    const int64_t *dl, int nd) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    const int path = ml_simd_get();
    if (path >= ML_SIMD_AVX512) { gf2_run_avx512(V, bw, mask, t0, cnt, dl, nd); return; }
    if (path >= ML_SIMD_AVX2) { gf2_run_avx2(V, bw, mask, t0, cnt, dl, nd); return; }
#endif
    gf2_run_portable(V, bw, mask, t0, cnt, dl, nd);
}

ML_CLONES_AVX2
static void acc_add(int32_t *restrict acc, const uint8_t *restrict u, int32_t a, size_t len) {
    if (a == 1) for (size_t i = 0; i < len; i++) acc[i] += u[i];
    else for (size_t i = 0; i < len; i++) acc[i] += a * u[i];
}

ML_CLONES_AVX2
static void acc_reduce(int32_t *restrict acc, size_t len, int32_t n, float rn) {
    for (size_t i = 0; i < len; i++) acc[i] = ml_fmod_n(acc[i], n, rn);
}

ML_CLONES_AVX2
static void acc_store(uint8_t *restrict v, const int32_t *restrict acc, int32_t mul, size_t len,
                      int32_t n, float rn) {
    if (mul == 1) for (size_t i = 0; i < len; i++) v[i] = (uint8_t)ml_fmod_n(acc[i], n, rn);
    else for (size_t i = 0; i < len; i++) v[i] = (uint8_t)ml_fmod_n(ml_fmod_n(acc[i], n, rn) * mul, n, rn);
}

/* v = mul * (sum of cf[i] src[i]) mod n over len bytes (acc: len int32 scratch). */
static void zn_comb(uint8_t *v, const uint8_t *const *src, const uint8_t *cf, int m,
                    int32_t mul, size_t len, int32_t *acc, int32_t n, float rn) {
    memset(acc, 0, len * sizeof(int32_t));
    for (int i = 0; i < m; i++) {
        acc_add(acc, src[i], cf[i], len);
        if (i % 200 == 199) acc_reduce(acc, len, n, rn);
    }
    acc_store(v, acc, mul, len, n, rn);
}

/* Interior run of the Z/n symbolic chase when every coefficient is 1 and nd (n - 1)
 * fits a byte: v = -(sum of nd sources) mod n, reduced by subtracting n 2^i (subs,
 * descending, ns of them). */
static inline __attribute__((always_inline)) void
zn_run_small_body(uint8_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                  const int64_t *dl, int nd, uint8_t n, const uint8_t *subs, int ns) {
    const uint8_t *src[MAXC + 1];
    for (size_t i = 0; i < cnt; i++) {
        const int64_t t = t0 + (int64_t)i;
        uint8_t *restrict v = V + (size_t)(t & mask) * bw;
        if (nd == 4 && ns == 2) {
            const uint8_t *restrict a = V + (size_t)((t + dl[0]) & mask) * bw;
            const uint8_t *restrict b = V + (size_t)((t + dl[1]) & mask) * bw;
            const uint8_t *restrict c = V + (size_t)((t + dl[2]) & mask) * bw;
            const uint8_t *restrict d = V + (size_t)((t + dl[3]) & mask) * bw;
            const uint8_t s0 = subs[0], s1 = subs[1];
            for (size_t j = 0; j < bw; j++) {
                uint8_t x = (uint8_t)(a[j] + b[j] + c[j] + d[j]), y;
                y = (uint8_t)(x - s0); x = x < y ? x : y;
                y = (uint8_t)(x - s1); x = x < y ? x : y;
                x = (uint8_t)(n - x);
                y = (uint8_t)(x - n); v[j] = x < y ? x : y;
            }
            continue;
        }
        for (int q = 0; q < nd; q++) src[q] = V + (size_t)((t + dl[q]) & mask) * bw;
        if (nd == 0) memset(v, 0, bw);
        else {
            memcpy(v, src[0], bw);
            for (int q = 1; q < nd; q++)
                for (size_t j = 0; j < bw; j++) v[j] = (uint8_t)(v[j] + src[q][j]);
        }
        for (int s = 0; s < ns; s++) {
            const uint8_t dd = subs[s];
            for (size_t j = 0; j < bw; j++) {
                uint8_t x = v[j], y = (uint8_t)(x - dd);
                v[j] = x < y ? x : y;
            }
        }
        for (size_t j = 0; j < bw; j++) {
            uint8_t x = (uint8_t)(n - v[j]), y = (uint8_t)(x - n);
            v[j] = x < y ? x : y;
        }
    }
}

#define ZN_RUN_SMALL_ARGS                                                                   \
    uint8_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt, const int64_t *dl, int nd,  \
        uint8_t n, const uint8_t *subs, int ns
static void zn_run_small_portable(ZN_RUN_SMALL_ARGS) {
    zn_run_small_body(V, bw, mask, t0, cnt, dl, nd, n, subs, ns);
}
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("avx2"))) static void zn_run_small_avx2(ZN_RUN_SMALL_ARGS) {
    zn_run_small_body(V, bw, mask, t0, cnt, dl, nd, n, subs, ns);
}
__attribute__((target("avx512f,avx512bw,avx512vl"))) static void zn_run_small_avx512(ZN_RUN_SMALL_ARGS) {
    zn_run_small_body(V, bw, mask, t0, cnt, dl, nd, n, subs, ns);
}
#endif

/* The byte run on the SIMD path of csrc/base/cpu.h */
static void zn_run_small(ZN_RUN_SMALL_ARGS) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    const int path = ml_simd_get();
    if (path >= ML_SIMD_AVX512) { zn_run_small_avx512(V, bw, mask, t0, cnt, dl, nd, n, subs, ns); return; }
    if (path >= ML_SIMD_AVX2) { zn_run_small_avx2(V, bw, mask, t0, cnt, dl, nd, n, subs, ns); return; }
#endif
    zn_run_small_portable(V, bw, mask, t0, cnt, dl, nd, n, subs, ns);
}
#undef ZN_RUN_SMALL_ARGS

/* ---- Z/3, Z/4 and Z/8 bit-sliced (bitslice.h): a slot is np planes of bw words (plane k
 * at slot + k bw), 64 symbols a word, bit s of plane k = bit k of the entry (GF(3): the
 * planes P = [x == 1], M = [x == 2]). A combination sum c_i src_i is summed in registers
 * (256-bit vectors, 512-bit on the AVX-512 path) a word group at a time: GF(3) 7 word
 * operations per source and 64 symbols (c_i = 2: the source's planes exchanged), Z/4 4,
 * Z/8 the ripple carry of bitslice.h. The loops are compiled for the portable path, AVX2
 * and AVX-512 and chosen at run time (csrc/base/cpu.h: MODLIGHTS_SIMD, ml_simd_set). */
#define ML_AI static inline __attribute__((always_inline))

/* acc (planes a0, a1, a2) += c y, y at s[0], s[nv], s[2 nv] (VT units), q a constant */
#define PK_ACC(VT, q, c, s, nv, a0, a1, a2)                                                 \
    do {                                                                                    \
        VT y0_ = (s)[0], y1_ = (s)[nv];                                                     \
        if ((q) == 3) {                                                                     \
            if ((c) == 1) ML_GF3_ADD(a0, a1, y0_, y1_, a0, a1);                             \
            else ML_GF3_ADD(a0, a1, y1_, y0_, a0, a1);                                      \
        } else if ((q) == 4) {                                                              \
            if ((c) == 1) ML_Z4_ADD(a0, a1, y0_, y1_);                                      \
            else if ((c) == 3) ML_Z4_SUB(a0, a1, y0_, y1_);                                 \
            else ML_Z4_ADD2(a0, a1, y0_);                                                   \
        } else {                                                                            \
            VT y2_ = (s)[2 * (nv)], t0_, t1_, t2_;                                          \
            ML_Z8_MULC(c, y0_, y1_, y2_, t0_, t1_, t2_);                                    \
            ML_Z8_ADD(a0, a1, a2, t0_, t1_, t2_);                                           \
        }                                                                                   \
    } while (0)

/* v = sum_{i < m} c[i] src[i] (c[i] in 1..q-1), nv VT units a plane */
#define PK_COMB(VT, q, v, src, c, m, nv)                                                    \
    do {                                                                                    \
        for (size_t j_ = 0; j_ < (nv); j_++) {                                              \
            VT a0_ = {0}, a1_ = {0}, a2_ = {0};                                             \
            for (int i_ = 0; i_ < (m); i_++)                                                \
                PK_ACC(VT, q, (c)[i_], (const VT *)(src)[i_] + j_, nv, a0_, a1_, a2_);      \
            (v)[j_] = a0_; (v)[(nv) + j_] = a1_;                                            \
            if ((q) == 8) (v)[2 * (nv) + j_] = a2_;                                         \
        }                                                                                   \
    } while (0)

/* (a0, a1, a2) = cu (a0, a1, a2), cu in 1..q-1 */
#define PK_SCALE(VT, q, cu, a0, a1, a2)                                                     \
    do {                                                                                    \
        if ((q) == 3) {                                                                     \
            if ((cu) == 2) { VT x_ = a0; a0 = a1; a1 = x_; }                                \
        } else if ((q) == 4) {                                                              \
            if ((cu) == 3) a1 ^= a0;                                                        \
            else if ((cu) == 2) { a1 = a0; a0 ^= a0; }                                      \
        } else if ((cu) != 1) {                                                             \
            VT t0_, t1_, t2_;                                                               \
            ML_Z8_MULC(cu, a0, a1, a2, t0_, t1_, t2_);                                      \
            a0 = t0_; a1 = t1_; a2 = t2_;                                                   \
        }                                                                                   \
    } while (0)

/* v = cu sum_{i < m} src[i] (m >= 1, cu in 1..q-1): the sources added, then one product */
#define PK_COMB_UNIFORM(VT, q, v, src, cu, m, nv)                                           \
    do {                                                                                    \
        for (size_t j_ = 0; j_ < (nv); j_++) {                                              \
            const VT *s0_ = (const VT *)(src)[0] + j_;                                      \
            VT a0_ = s0_[0], a1_ = s0_[nv], a2_ = {0};                                      \
            if ((q) == 8) a2_ = s0_[2 * (nv)];                                              \
            for (int i_ = 1; i_ < (m); i_++)                                                \
                PK_ACC(VT, q, 1, (const VT *)(src)[i_] + j_, nv, a0_, a1_, a2_);            \
            PK_SCALE(VT, q, cu, a0_, a1_, a2_);                                             \
            (v)[j_] = a0_; (v)[(nv) + j_] = a1_;                                            \
            if ((q) == 8) (v)[2 * (nv) + j_] = a2_;                                         \
        }                                                                                   \
    } while (0)

/* A stretch of `run` consecutive slots from v, sources from base[0 .. ND) (consecutive
 * too), ND and NV constants (the cross: 4 sources, the knight and the square: 8; one
 * 512-bit or two 256-bit vectors a plane): pointers kept in registers, no per-tap set-up */
#define PK_RUN_FIXED(VT, q, ND, NV, v, base, run, sw, cu)                                    \
    do {                                                                                    \
        const VT *sp_[ND];                                                                  \
        VT *vv_ = (VT *)(v);                                                                \
        const size_t sv_ = (sw) / (sizeof(VT) / 8);                                         \
        for (int k_ = 0; k_ < (ND); k_++) sp_[k_] = (const VT *)(base)[k_];                 \
        for (size_t i_ = 0; i_ < (run); i_++) {                                             \
            for (size_t j_ = 0; j_ < (NV); j_++) {                                          \
                VT a0_ = sp_[0][j_], a1_ = sp_[0][(NV) + j_], a2_ = {0};                    \
                if ((q) == 8) a2_ = sp_[0][2 * (NV) + j_];                                  \
                for (int k_ = 1; k_ < (ND); k_++)                                           \
                    PK_ACC(VT, q, 1, sp_[k_] + j_, NV, a0_, a1_, a2_);                      \
                PK_SCALE(VT, q, cu, a0_, a1_, a2_);                                         \
                vv_[j_] = a0_; vv_[(NV) + j_] = a1_;                                        \
                if ((q) == 8) vv_[2 * (NV) + j_] = a2_;                                     \
            }                                                                               \
            vv_ += sv_;                                                                     \
            for (int k_ = 0; k_ < (ND); k_++) sp_[k_] += sv_;                               \
        }                                                                                   \
    } while (0)

/* v = sum c[i] src[i] over slots of bw words a plane, the widest vectors bw allows;
 * cu != 0: every c[i] is cu (m >= 1) */
ML_AI void pk_comb_body(unsigned q, uint64_t *v, const uint64_t *const *src, const uint8_t *c,
                        int m, size_t bw, int wide, unsigned cu)
{
#define PK_W(Q, VT, NV)                                                                     \
    if (cu) PK_COMB_UNIFORM(VT, Q, (VT *)v, src, cu, m, NV);                                \
    else PK_COMB(VT, Q, (VT *)v, src, c, m, NV);
#define PK_Q(Q)                                                                             \
    if (wide && bw % 8 == 0) { PK_W(Q, v8x64, bw / 8) }                                     \
    else if (bw % 4 == 0) { PK_W(Q, v4x64, bw / 4) }                                        \
    else { PK_W(Q, uint64_t, bw) }
    if (q == 3) { PK_Q(3) }
    else if (q == 4) { PK_Q(4) }
    else { PK_Q(8) }
#undef PK_Q
#undef PK_W
}

/* the common coefficient of c[0 .. m), 0 when they differ or m = 0 */
static inline unsigned uniform_coef(const uint8_t *c, int m) {
    for (int i = 1; i < m; i++)
        if (c[i] != c[0]) return 0;
    return m ? c[0] : 0;
}

/* The interior run: cnt taps from t0, tap t = sum c[i] (tap t + dl[i]), in order (a
 * source may be a tap of the run), a stretch of consecutive slots at a time (ring_run) */
ML_AI void pk_run_body(unsigned q, uint64_t *V, size_t bw, int64_t mask, int64_t t0,
                       size_t cnt, const int64_t *dl, const uint8_t *c, int nd, int wide)
{
    const size_t sw = (size_t)(q == 8 ? 3 : 2) * bw;
    const uint64_t *base[MAXC + 1], *src[MAXC + 1];
    const unsigned cu = uniform_coef(c, nd);
    while (cnt) {
        const size_t run = ring_run(t0, cnt, mask, dl, nd);
        uint64_t *v = V + (size_t)(t0 & mask) * sw;
        for (int k = 0; k < nd; k++) base[k] = V + (size_t)((t0 + dl[k]) & mask) * sw;
        if (cu && bw == 8 && (nd == 4 || nd == 8)) {
#define PK_FIXED(Q)                                                                         \
            if (wide) {                                                                     \
                if (nd == 4) PK_RUN_FIXED(v8x64, Q, 4, 1, v, base, run, sw, cu);            \
                else PK_RUN_FIXED(v8x64, Q, 8, 1, v, base, run, sw, cu);                    \
            } else {                                                                        \
                if (nd == 4) PK_RUN_FIXED(v4x64, Q, 4, 2, v, base, run, sw, cu);            \
                else PK_RUN_FIXED(v4x64, Q, 8, 2, v, base, run, sw, cu);                    \
            }
            if (q == 3) { PK_FIXED(3) }
            else if (q == 4) { PK_FIXED(4) }
            else { PK_FIXED(8) }
#undef PK_FIXED
            t0 += (int64_t)run; cnt -= run;
            continue;
        }
        for (size_t i = 0; i < run; i++, v += sw) {
            for (int k = 0; k < nd; k++) src[k] = base[k] + i * sw;
            pk_comb_body(q, v, src, c, nd, bw, wide, cu);
        }
        t0 += (int64_t)run; cnt -= run;
    }
}

#define ML_PK_KERNELS(SUF, ATTR, WIDE)                                                      \
    ATTR static void pk_comb_##SUF(unsigned q, uint64_t *v, const uint64_t *const *src,     \
                                   const uint8_t *c, int m, size_t bw)                      \
    { pk_comb_body(q, v, src, c, m, bw, WIDE, uniform_coef(c, m)); }                                            \
    ATTR static void pk_run_##SUF(unsigned q, uint64_t *V, size_t bw, int64_t mask,         \
                                  int64_t t0, size_t cnt, const int64_t *dl,                \
                                  const uint8_t *c, int nd)                                 \
    { pk_run_body(q, V, bw, mask, t0, cnt, dl, c, nd, WIDE); }

ML_PK_KERNELS(portable, , 0)
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ML_CHASE_X86 1
ML_PK_KERNELS(avx2, __attribute__((target("avx2"))), 0)
ML_PK_KERNELS(avx512, __attribute__((target("avx512f,avx512vl"))), 1)
#endif

typedef void (*pk_comb_fn)(unsigned, uint64_t *, const uint64_t *const *, const uint8_t *, int,
                           size_t);
typedef void (*pk_run_fn)(unsigned, uint64_t *, size_t, int64_t, int64_t, size_t,
                          const int64_t *, const uint8_t *, int);

/* 0..255 -> its 8 bits, one a byte (the low bit of each) */
static inline uint64_t spread8(uint64_t b) {
    b = (b | (b << 28)) & 0x0000000F0000000Full;
    b = (b | (b << 14)) & 0x0003000300030003ull;
    return (b | (b << 7)) & 0x0101010101010101ull;
}

/* Entries [0, len) of a packed vector (np planes of bw words) as bytes */
static void pk_unpack(const uint64_t *v, size_t bw, int np, size_t len, uint8_t *out) {
    size_t s = 0;
    for (; s + 8 <= len; s += 8) {
        uint64_t o = 0;
        for (int k = 0; k < np; k++) o |= spread8((v[k * bw + s / 64] >> (s % 64)) & 0xFF) << k;
        memcpy(out + s, &o, 8);
    }
    for (; s < len; s++) {
        unsigned x = 0;
        for (int k = 0; k < np; k++) x |= (unsigned)((v[k * bw + s / 64] >> (s % 64)) & 1) << k;
        out[s] = (uint8_t)x;
    }
}


typedef struct {
    const ml_chase *p;
    const sym_job *J;
    int gf2;
    int np;              /* bit-sliced Z/n: planes a slot (2, 3), 0 otherwise */
    size_t bw;           /* elements per slot (a plane): words (GF(2), packed) or bytes */
    void *V;             /* ring: K (stencil) or peak (lists) slots */
    int32_t *lo, *hi, *wlo, *whi;   /* stencil: per row, computed and written columns */
    size_t s0, s1;       /* symbols of the block */
    size_t e0, en;       /* elements of M written by the block: [e0, e0 + en) */
    /* Z/n */
    int32_t *acc;
    int small, nsubs;
    uint8_t subs[16];
    int lut7;            /* small with nd (n - 1) < 128 on a VBMI CPU: ml_chase__lut_run */
    uint8_t lut[128];
    int32_t mnegL;
    float rn;
    const void **src;
    /* packed Z/n: the kernels of the SIMD path, the run's coefficients (dcf times
     * the forcing multiplier), a residual row before it becomes bytes */
    pk_comb_fn pcomb;
    pk_run_fn prun;
    uint8_t pkc[MAXC + 1];
    uint64_t *ptmp;
    int32_t qs[MAXC + 1];
    uint8_t cf[MAXC + 1];
    int us[MAXC + 1];
} sym_ctx;

/* The cone of the block's symbols (stencil): lo/hi the columns of each row whose
 * taps can depend on them, wlo/whi the columns anyone reads (zeroed if not in
 * lo/hi). Empty intervals have lo >= hi. */
static void cone(sym_ctx *X) {
    const ml_chase *p = X->p;
    const int h = p->h, w = p->w, A = p->A, E = p->E;
    int32_t *lo = X->lo, *hi = X->hi, *wlo = X->wlo, *whi = X->whi;
    for (int r = 0; r < h; r++) { lo[r] = w; hi[r] = 0; }
    for (size_t s = X->s0; s < X->s1; s++) {
        int r = (int)(p->symtile[s] / w), c = (int)(p->symtile[s] % w);
        if (c < lo[r]) lo[r] = c;
        if (c + 1 > hi[r]) hi[r] = c + 1;
    }
    for (int r = 0; r < h; r++) {
        int l = lo[r], u = hi[r];
        const int32_t *lx = p->clx + (size_t)p->erid[r] * (size_t)(A + 1);
        const int32_t *rx = p->crx + (size_t)p->erid[r] * (size_t)(A + 1);
        for (int d = 1; d <= A && d <= r; d++)
            if (lo[r - d] < hi[r - d] && lx[d] != NO_DEP) {
                l = imin(l, (int)imax64((int64_t)lo[r - d] - lx[d], -1));
                u = imax(u, (int)imin64((int64_t)hi[r - d] + rx[d], (int64_t)w + 1));
            }
        l = imax(l, 0); u = imin(u, w);
        /* a tap reading a tap of its own row (to its left): the rest of the row */
        if (l < u && lx[0] != NO_DEP) u = w;
        lo[r] = l; hi[r] = u;
    }
    for (int r = h - 1; r >= 0; r--) {
        int l = w, u = 0;
        if (lo[r] < hi[r]) { l = lo[r] - E; u = hi[r] + E; }
        for (int q = r + 1; q <= r + A && q < h; q++)
            if (lo[q] < hi[q]) { l = imin(l, lo[q] - E); u = imax(u, hi[q] + E); }
        if (p->rrlo[r] < p->rrhi[r]) { l = imin(l, p->rrlo[r]); u = imax(u, p->rrhi[r]); }
        wlo[r] = imax(l, 0); whi[r] = imin(u, w);
    }
}

/* Bytes of a slot of the ring. */
static inline size_t slot_bytes(const sym_ctx *X) {
    return X->bw * (X->gf2 ? sizeof(uint64_t) : X->np ? (size_t)X->np * sizeof(uint64_t) : 1);
}

/* Compute taps r * w + [a, b) of the block (every one of them). */
static void sym_cols(sym_ctx *X, int r, int a, int b) {
    const ml_chase *p = X->p;
    const int w = p->w, uL = p->uL;
    const size_t bw = X->bw;
    const int64_t mask = p->K - 1;
    const int32_t *er = EROW(p, r);
    int c0, c1;
    fast_cols(p, r, &c0, &c1);
    int col = a;
    while (col < b) {
        int32_t e = er[col];
        int64_t t = (int64_t)r * w + col;
        if (uL >= 0 && e == uL && col >= c0 && col < c1) {
            /* the run of taps forced by uL (a compare a tap: no per-row table, which
             * a board with locks would need for every row) */
            const int lim = imin(b, c1);
            int end = col + 1;
            while (end < lim && er[end] == uL) end++;
            if (X->gf2)
                gf2_run(X->V, bw, mask, t, (size_t)(end - col), p->delta, p->nd);
            else if (X->np)
                X->prun((unsigned)p->n, X->V, bw, mask, t, (size_t)(end - col), p->delta,
                        X->pkc, p->nd);
            else if (X->lut7)
                ml_chase__lut_run(X->V, bw, mask, t, (size_t)(end - col), p->delta, p->nd,
                                  X->lut);
            else if (X->small)
                zn_run_small(X->V, bw, mask, t, (size_t)(end - col), p->delta, p->nd,
                             (uint8_t)p->n, X->subs, X->nsubs);
            else {
                uint8_t *V = X->V;
                for (int64_t q = t; q < t + (end - col); q++) {
                    for (int i = 0; i < p->nd; i++) X->src[i] = V + (size_t)((q + p->delta[i]) & mask) * bw;
                    zn_comb(V + (size_t)(q & mask) * bw, (const uint8_t *const *)X->src, p->dcf,
                            p->nd, X->mnegL, bw, X->acc, p->n, X->rn);
                }
            }
            col = end;
            continue;
        }
        if (e != -2) {
            size_t sl = slot_of(p, t);
            if (e >= 0) {
                int rc, cc;
                int64_t c = forcer(p, e, t, r, col, &rc, &cc);
                int m = gather(p, c, rc, cc, X->qs, X->cf, X->us) - 1;
                if (X->gf2) {
                    uint64_t *V = X->V;
                    for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * bw;
                    xor_many(V + sl * bw, (const uint64_t *const *)X->src, m, bw);
                } else if (X->np) {
                    uint64_t *V = X->V;
                    const size_t sw = (size_t)X->np * bw;
                    for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * sw;
                    /* x_p = -inv(a_p) * sum: the multiplier folded into the coefficients */
                    const unsigned mneg = (unsigned)(p->n - p->inv[X->cf[m]]) % (unsigned)p->n;
                    for (int i = 0; i < m; i++) X->cf[i] = (uint8_t)(X->cf[i] * mneg % (unsigned)p->n);
                    X->pcomb((unsigned)p->n, V + sl * sw, (const uint64_t *const *)X->src, X->cf,
                             m, bw);
                } else {
                    uint8_t *V = X->V;
                    for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * bw;
                    /* x_p = inv(a_p) * (-sum) */
                    int32_t mneg = (p->n - p->inv[X->cf[m]]) % p->n;
                    zn_comb(V + sl * bw, (const uint8_t *const *)X->src, X->cf, m, mneg, bw,
                            X->acc, p->n, X->rn);
                }
            } else {
                size_t s = (size_t)(p->symbase[r] + (-3 - e));
                if (X->gf2 || X->np) {       /* packed: the bit of plane 0 (value 1) */
                    uint64_t *v = (uint64_t *)X->V + sl * bw * (size_t)(X->np ? X->np : 1);
                    memset(v, 0, slot_bytes(X));
                    if (s >= X->s0 && s < X->s1) v[s / 64 - X->e0] = (uint64_t)1 << (s % 64);
                } else {
                    uint8_t *v = (uint8_t *)X->V + sl * bw;
                    memset(v, 0, bw);
                    if (s >= X->s0 && s < X->s1) v[s - X->s0] = 1;
                }
            }
        } else if (uL >= 0) {
            /* a locked tile or a hole: the fixed deltas of its neighbours read a zero */
            const size_t sz = slot_bytes(X);
            memset((uint8_t *)X->V + slot_of(p, t) * sz, 0, sz);
        }
        col++;
    }
}

/* Zero the slots of taps r * w + [a, b). */
static void sym_zero(sym_ctx *X, int r, int a, int b) {
    const ml_chase *p = X->p;
    const size_t sz = slot_bytes(X);
    for (int64_t t = (int64_t)r * p->w + a; t < (int64_t)r * p->w + b; t++)
        memset((uint8_t *)X->V + slot_of(p, t) * sz, 0, sz);
}

/* Residual row k of M, the block's elements. */
static void sym_event(sym_ctx *X, size_t k) {
    const ml_chase *p = X->p;
    const int w = p->w;
    const size_t bw = X->bw;
    int64_t c = p->restile[k];
    int m = p->resev[k] < 0 ? 0 : gather(p, c, (int)(c / w), (int)(c % w), X->qs, X->cf, X->us);
    if (X->gf2) {
        uint64_t *V = X->V;
        for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * bw;
        xor_many((uint64_t *)X->J->M + k * X->J->stride + X->e0, (const uint64_t *const *)X->src,
                 m, X->en);
    } else if (X->np) {
        uint64_t *V = X->V;
        const size_t sw = (size_t)X->np * bw;
        for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * sw;
        X->pcomb((unsigned)p->n, X->ptmp, (const uint64_t *const *)X->src, X->cf, m, bw);
        pk_unpack(X->ptmp, bw, X->np, X->s1 - X->s0,
                  (uint8_t *)X->J->M + k * X->J->stride + X->s0);
    } else {
        uint8_t *V = X->V;
        for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * bw;
        zn_comb((uint8_t *)X->J->M + k * X->J->stride + X->e0, (const uint8_t *const *)X->src,
                X->cf, m, 1, X->en, X->acc, p->n, X->rn);
    }
}

static void sym_block(sym_ctx *X, size_t blk) {
    const ml_chase *p = X->p;
    const sym_job *J = X->J;
    const int h = p->h, w = p->w;
    const size_t nres = J->kmax;        /* the pass stops after the last row asked for */
    X->e0 = blk * X->bw;
    X->en = J->total - X->e0 < X->bw ? J->total - X->e0 : X->bw;
    if (X->gf2 || X->np) {
        X->s0 = X->e0 * 64;
        X->s1 = (X->e0 + X->en) * 64;
        if (X->s1 > p->nsym) X->s1 = p->nsym;
    } else {
        X->s0 = X->e0;
        X->s1 = X->e0 + X->en;
    }
    size_t k = 0;
    while (k < nres && p->resev[k] < 0) sym_event(X, k++);
    if (p->stencil) {
        cone(X);
        for (int r = 0; r < h; r++) {
            if (ml_interrupt_poll()) return;     /* Ctrl-C: sym_worker sees it too */
            int a = X->wlo[r], b = X->whi[r];
            if (a < b) {
                int lo = X->lo[r], hi = X->hi[r];
                if (lo >= hi) sym_zero(X, r, a, b);
                else {
                    sym_zero(X, r, a, imin(lo, b));
                    sym_zero(X, r, imax(hi, a), b);
                    sym_cols(X, r, lo, hi);
                }
            }
            const int64_t end = (int64_t)(r + 1) * w;
            while (k < nres && p->resev[k] < end) sym_event(X, k++);
            if (k >= nres) return;
        }
        return;
    }
    /* lists: slots are freed right after their last use, so residual tiles are
     * evaluated right after their last tap */
    for (int r = 0; r < h; r++) {
        if (ml_interrupt_poll()) return;         /* Ctrl-C: sym_worker sees it too */
        int col = 0;
        const int64_t base = (int64_t)r * w;
        while (col < w) {
            int end = w;
            if (k < nres && p->resev[k] < base + w) end = (int)(p->resev[k] - base) + 1;
            if (end > col) { sym_cols(X, r, col, end); col = end; }
            while (k < nres && p->resev[k] < base + col) sym_event(X, k++);
        }
        if (k >= nres) return;
    }
}

void *ml_chase_sym_worker(void *arg) {
    sym_job *J = arg;
    const ml_chase *p = J->p;
    sym_ctx *X = calloc(1, sizeof *X);
    if (!X) { J->status = 2; return NULL; }
    X->p = p;
    X->J = J;
    X->gf2 = p->n == 2;
    X->np = J->np;
    X->bw = J->bw;
    const size_t esz = slot_bytes(X) / X->bw;
    const size_t slots = p->stencil ? (size_t)p->K : p->peak + 1;
    size_t vbytes = (slots * X->bw * esz + 63) / 64 * 64;
    X->V = aligned_alloc(64, vbytes ? vbytes : 64);
    X->src = malloc((MAXC + 1) * sizeof(void *));
    X->acc = malloc((X->bw + 1) * sizeof(int32_t));
    X->ptmp = aligned_alloc(64, ((size_t)(X->np ? X->np : 1) * X->bw * 8 + 63) / 64 * 64);
    if (p->stencil) {
        X->lo = malloc((size_t)p->h * 4 * sizeof(int32_t));
        if (X->lo) { X->hi = X->lo + p->h; X->wlo = X->hi + p->h; X->whi = X->wlo + p->h; }
    }
    if (!X->V || !X->src || !X->acc || !X->ptmp || (p->stencil && !X->lo)) {
        J->status = 2;
        goto done;
    }
    if (!X->gf2) {
        const int32_t n = p->n, uL = p->uL, nd = p->nd;
        X->rn = 1.0f / (float)n;
        X->mnegL = uL >= 0 ? (n - p->inv[p->cmod[uL]]) % n : 0;
        /* uint8 fast path: every coefficient 1 (so the forcing multiplier is -1) */
        int small = uL >= 0 && p->cmod[uL] == 1 && nd * (n - 1) <= 255;
        for (int i = 0; i < nd && small; i++) small = p->dcf[i] == 1;
        if (small) {
            int c = 0;
            while ((1 << c) < nd) c++;
            for (int i = c - 1; i >= 0; i--) {
                if (n * (1 << i) > 255) { small = 0; break; }
                X->subs[X->nsubs++] = (uint8_t)(n * (1 << i));
            }
        }
        X->small = small && !X->np;
        X->lut7 = X->small && nd * (n - 1) < 128 && ml_chase__lut_supported();
        if (X->lut7) ml_chase__lut_fill(X->lut, n);
        for (int i = 0; i < nd; i++) X->pkc[i] = (uint8_t)(p->dcf[i] * X->mnegL % n);
#ifdef ML_CHASE_X86
        const int path = ml_simd_get();
        X->pcomb = path >= ML_SIMD_AVX512 ? pk_comb_avx512 : path >= ML_SIMD_AVX2 ? pk_comb_avx2
                                                                                : pk_comb_portable;
        X->prun = path >= ML_SIMD_AVX512 ? pk_run_avx512 : path >= ML_SIMD_AVX2 ? pk_run_avx2
                                                                             : pk_run_portable;
#else
        X->pcomb = pk_comb_portable;
        X->prun = pk_run_portable;
#endif
    }
    J->status = 0;
    for (;;) {
        /* Ctrl-C (interrupt.h): a block is one pass over the board, at most ~0.2 s */
        if (ml_interrupt_poll()) { J->status = 3; break; }
        size_t i = (size_t)__atomic_fetch_add(J->next, 1, __ATOMIC_RELAXED);
        if (i >= J->nblocks) break;
        sym_block(X, J->list[i]);
    }
done:
    free(X->V); free(X->src); free(X->acc); free(X->ptmp); free(X->lo); free(X);
    return NULL;
}

