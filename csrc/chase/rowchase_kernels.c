/* rowchase_kernels.c: the row kernels of the row-state chase (rowchase_impl.h): GF(2)
 * XORs, GF(3) bit-sliced sums, byte arithmetic mod n, each inlined into one function table
 * per SIMD path (portable and AVX2, chosen at run time through cpu.h). */
#include "chase/rowchase.h"
#include "chase/rowchase_impl.h"
#include "base/modn.h"
#include "base/bitslice.h"
#include "base/cpu.h"

#include <stdint.h>
#include <string.h>

/* Row kernels: inlined into one function table per SIMD path (the end of this section). */
#define ML_AI static inline __attribute__((always_inline))

/* GF(3): (vp, vm) += (rp, rm) over len words (bitslice.h; -r: pass (rm, rp)). */
ML_AI void axpy_gf3(uint64_t *restrict vp, uint64_t *restrict vm, const uint64_t *restrict rp,
                     const uint64_t *restrict rm, size_t len) {
    for (size_t j = 0; j < len; j++) ML_GF3_ADD(vp[j], vm[j], rp[j], rm[j], vp[j], vm[j]);
}
/* GF(3): v = (vp, vm) = a + b or a - b (sub) over len words of each plane. */
ML_AI void add2_gf3(uint64_t *restrict vp, uint64_t *restrict vm, const uint64_t *restrict ap,
                     const uint64_t *restrict am, const uint64_t *restrict bp,
                     const uint64_t *restrict bm, size_t len) {
    for (size_t j = 0; j < len; j++) ML_GF3_ADD(ap[j], am[j], bp[j], bm[j], vp[j], vm[j]);
}

/* GF(3): v = mul * sum cf[i] src[i] (whole rows: both planes, columns and constants). */
ML_AI void comb_gf3(const ml_rowchase *R, uint8_t *v, const uint8_t *const *src,
                     const uint8_t *cf, int m, unsigned mul) {
    const size_t H = plane_words(R);
    uint64_t *vp = (uint64_t *)v, *vm = vp + H;
    const uint64_t *p0 = NULL, *m0 = NULL;
    int got = 0;
    for (int i = 0; i < m; i++) {
        const unsigned c = (mul * cf[i]) % 3;
        if (!c) continue;
        /* -source: its planes exchanged */
        const uint64_t *sp = (const uint64_t *)src[i] + (c == 2 ? H : 0);
        const uint64_t *sm = (const uint64_t *)src[i] + (c == 2 ? 0 : H);
        if (got == 0) { p0 = sp; m0 = sm; }
        else if (got == 1) add2_gf3(vp, vm, p0, m0, sp, sm, H);
        else axpy_gf3(vp, vm, sp, sm, H);
        got++;
    }
    if (got == 0) memset(v, 0, 2 * H * sizeof(uint64_t));
    else if (got == 1) {
        memcpy(vp, p0, H * sizeof(uint64_t));
        memcpy(vm, m0, H * sizeof(uint64_t));
    }
}

/* GF(2): v = xor of m rows. */
ML_AI void xor_rows(uint64_t *restrict v, const uint64_t *const *src, int m, size_t len) {
    if (m == 0) { memset(v, 0, len * sizeof(uint64_t)); return; }
    const uint64_t *restrict a = src[0];
    if (m == 1) { memcpy(v, a, len * sizeof(uint64_t)); return; }
    int i = 2;
    const uint64_t *restrict b = src[1];
    if (m >= 4) {
        const uint64_t *restrict c = src[2], *restrict d = src[3];
        for (size_t j = 0; j < len; j++) v[j] = a[j] ^ b[j] ^ c[j] ^ d[j];
        i = 4;
    } else {
        for (size_t j = 0; j < len; j++) v[j] = a[j] ^ b[j];
    }
    for (; i < m; i++) {
        const uint64_t *restrict c = src[i];
        for (size_t j = 0; j < len; j++) v[j] ^= c[j];
    }
}

/* GF(p): v = mul * sum cf[i] src[i] mod n over len bytes (acc: len int32), any n. */
ML_AI void comb_rows_acc(uint8_t *restrict v, const uint8_t *const *src, const uint8_t *cf, int m,
                      int32_t mul, size_t len, int32_t *restrict acc, int32_t n, float rn) {
    for (size_t j = 0; j < len; j++) acc[j] = 0;
    for (int i = 0; i < m; i++) {
        const uint8_t *restrict a = src[i];
        const int32_t c = cf[i];
        for (size_t j = 0; j < len; j++) acc[j] += c * a[j];
        if (i % 200 == 199)                  /* 200 x 254^2 + 255 < 2^24 */
            for (size_t j = 0; j < len; j++) acc[j] = ml_fmod_n(acc[j], n, rn);
    }
    for (size_t j = 0; j < len; j++) v[j] = (uint8_t)ml_fmod_n(ml_fmod_n(acc[j], n, rn) * mul, n, rn);
}

/* GF(p), p < 128 (a + b fits a byte): v = v + a, v = a + b, v = v - a, v = -v mod p;
 * the reduction is an unsigned min (x - p wraps above x unless x >= p). */
ML_AI uint8_t min_u8(uint8_t a, uint8_t b) { return a < b ? a : b; }
ML_AI void add_mod(uint8_t *restrict v, const uint8_t *restrict a, size_t len, uint8_t p) {
    for (size_t j = 0; j < len; j++) {
        uint8_t x = (uint8_t)(v[j] + a[j]);
        v[j] = min_u8(x, (uint8_t)(x - p));
    }
}
ML_AI void add2_mod(uint8_t *restrict v, const uint8_t *restrict a, const uint8_t *restrict b,
                     size_t len, uint8_t p) {
    for (size_t j = 0; j < len; j++) {
        uint8_t x = (uint8_t)(a[j] + b[j]);
        v[j] = min_u8(x, (uint8_t)(x - p));
    }
}
ML_AI void sub_mod(uint8_t *restrict v, const uint8_t *restrict a, size_t len, uint8_t p) {
    for (size_t j = 0; j < len; j++) {
        uint8_t x = (uint8_t)(v[j] - a[j]);
        v[j] = min_u8(x, (uint8_t)(x + p));
    }
}
ML_AI void neg_mod(uint8_t *restrict v, size_t len, uint8_t p) {
    for (size_t j = 0; j < len; j++) {
        uint8_t y = (uint8_t)(p - v[j]);
        v[j] = min_u8(y, (uint8_t)(y - p));
    }
}

/* GF(p): v = mul * sum cf[i] src[i] mod n over len bytes (acc: len int32): byte adds
 * when every coefficient is 1 and mul is +-1 (the cross, any count-1 pattern). */
ML_AI void comb_rows(uint8_t *v, const uint8_t *const *src, const uint8_t *cf, int m,
                      int32_t mul, size_t len, int32_t *acc, int32_t n, float rn) {
    int ones = n < 128 && (mul == 1 || mul == n - 1);
    for (int i = 0; i < m && ones; i++) ones = cf[i] == 1;
    if (!ones) { comb_rows_acc(v, src, cf, m, mul, len, acc, n, rn); return; }
    if (m == 0) { memset(v, 0, len); return; }
    if (m == 1) memcpy(v, src[0], len);
    else add2_mod(v, src[0], src[1], len, (uint8_t)n);
    for (int i = 2; i < m; i++) add_mod(v, src[i], len, (uint8_t)n);
    if (mul != 1) neg_mod(v, len, (uint8_t)n);
}

/* v += a * r over len elements (GF(2): a = 1, xor). */
ML_AI void axpy_gf2(uint64_t *restrict v, const uint64_t *restrict r, size_t len) {
    for (size_t j = 0; j < len; j++) v[j] ^= r[j];
}
ML_AI void axpy_zn_any(uint8_t *restrict v, const uint8_t *restrict r, int32_t a, size_t len,
                        int32_t n, float rn) {
    for (size_t j = 0; j < len; j++) v[j] = (uint8_t)ml_fmod_n(v[j] + a * r[j], n, rn);
}
/* n < 128: v + a r < 2^14 in 16-bit lanes, reduced by ml_barrett16 (base/modn.h). */
ML_AI void axpy_zn_u16(uint8_t *restrict v, const uint8_t *restrict r, uint16_t a, size_t len,
                        uint16_t n) {
    const uint32_t m = 65536u / n;
    for (size_t j = 0; j < len; j++) v[j] = (uint8_t)ml_barrett16((uint16_t)(v[j] + a * r[j]), n, m);
}
/* n a power of two: byte arithmetic wraps mod 256, a multiple of n. */
ML_AI void axpy_pow2(uint8_t *restrict v, const uint8_t *restrict r, uint8_t a, size_t len,
                      uint8_t mask) {
    for (size_t j = 0; j < len; j++) v[j] = (uint8_t)(v[j] + a * r[j]) & mask;
}
/* n <= 16: v + a r <= n^2 - n < 256, so the quotient by m = 256 / n (rounded down; short
 * by at most one) stays in 16-bit lanes (16-bit multiplies only). */
ML_AI void axpy_zn_small(uint8_t *restrict v, const uint8_t *restrict r, uint16_t a,
                          size_t len, uint16_t n) {
    const uint16_t m = (uint16_t)(256u / n);
    for (size_t j = 0; j < len; j++) v[j] = (uint8_t)ml_barrett8((uint16_t)(v[j] + a * r[j]), n, m);
}
ML_AI void axpy_zn(uint8_t *v, const uint8_t *r, int32_t a, size_t len, int32_t n, float rn) {
    if (!(n & (n - 1)) && n > 2) axpy_pow2(v, r, (uint8_t)a, len, (uint8_t)(n - 1));
    else if (n <= 16 && a != 1 && a != n - 1) axpy_zn_small(v, r, (uint16_t)a, len, (uint16_t)n);
    else if (n < 128 && a == 1) add_mod(v, r, len, (uint8_t)n);
    else if (n < 128 && a == n - 1) sub_mod(v, r, len, (uint8_t)n);
    else if (n < 128) axpy_zn_u16(v, r, (uint16_t)a, len, (uint16_t)n);
    else axpy_zn_any(v, r, a, len, n, rn);
}

#define ML_ROW_KERNELS(SUF, ATTR)                                                           \
    ATTR static void axpy_gf2_##SUF(uint64_t *v, const uint64_t *r, size_t len)             \
    { axpy_gf2(v, r, len); }                                                                \
    ATTR static void axpy_gf3_##SUF(uint64_t *vp, uint64_t *vm, const uint64_t *rp,         \
                                    const uint64_t *rm, size_t len)                         \
    { axpy_gf3(vp, vm, rp, rm, len); }                                                      \
    ATTR static void axpy_zn_##SUF(uint8_t *v, const uint8_t *r, int32_t a, size_t len,     \
                                   int32_t n, float rn)                                     \
    { axpy_zn(v, r, a, len, n, rn); }                                                       \
    ATTR static void neg_mod_##SUF(uint8_t *v, size_t len, uint8_t p)                       \
    { neg_mod(v, len, p); }                                                                 \
    ATTR static void xor_rows_##SUF(uint64_t *v, const uint64_t *const *src, int m,         \
                                    size_t len)                                             \
    { xor_rows(v, src, m, len); }                                                           \
    ATTR static void comb_gf3_##SUF(const ml_rowchase *R, uint8_t *v,                       \
                                    const uint8_t *const *src, const uint8_t *cf, int m,    \
                                    unsigned mul)                                           \
    { comb_gf3(R, v, src, cf, m, mul); }                                                    \
    ATTR static void comb_rows_##SUF(uint8_t *v, const uint8_t *const *src,                 \
                                     const uint8_t *cf, int m, int32_t mul, size_t len,     \
                                     int32_t *acc, int32_t n, float rn)                     \
    { comb_rows(v, src, cf, m, mul, len, acc, n, rn); }                                     \
    static const row_kernels row_kernels_##SUF = {                                          \
        axpy_gf2_##SUF, axpy_gf3_##SUF, axpy_zn_##SUF, neg_mod_##SUF,                       \
        xor_rows_##SUF, comb_gf3_##SUF, comb_rows_##SUF};

ML_ROW_KERNELS(portable, )
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ML_ROWCHASE_X86 1
ML_ROW_KERNELS(avx2, __attribute__((target("avx2"))))
#endif

/* The kernels of the SIMD path in use. AVX-512 runs the AVX2 kernels: compiled for
 * avx512f/bw/vl they did not pay (2000^2, 1% holes, medians of 3: GF(2) 0.40 s on both,
 * GF(3) 0.76-0.93 s against 0.63-0.65 s for AVX2; shared 2-core machine). */
const row_kernels *ml_rowchase__kernels(void) {
#ifdef ML_ROWCHASE_X86
    if (ml_simd_get() >= ML_SIMD_AVX2) return &row_kernels_avx2;
#endif
    return &row_kernels_portable;
}
