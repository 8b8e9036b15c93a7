/* gf2_kernels.c: the row kernels of the GF(2) matrix code (gf2_impl.h): a row XOR, a
 * row XOR of up to eight rows, and the table lookups of the Four Russians passes, each
 * compiled for the portable path, AVX2 and AVX-512 and picked at run time (cpu.h). */
#include "dense/gf2.h"
#include "dense/gf2_impl.h"
#include "base/cpu.h"
#include <stddef.h>
#include <stdint.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define ML_X86 1
#include <immintrin.h>
#endif

static void xor1_portable(uint64_t *restrict dst, const uint64_t *restrict src, size_t n)
{
    for (size_t i = 0; i < n; i++) dst[i] ^= src[i];
}

static void xorn_portable(uint64_t *restrict dst, const uint64_t *const *src, int ns, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t a = dst[i];
        for (int s = 0; s < ns; s++) a ^= src[s][i];
        dst[i] = a;
    }
}

#ifdef ML_X86
__attribute__((target("avx2")))
static void xor1_avx2(uint64_t *restrict dst, const uint64_t *restrict src, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(dst + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(dst + i + 4));
        a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(src + i)));
        b = _mm256_xor_si256(b, _mm256_loadu_si256((const __m256i *)(src + i + 4)));
        _mm256_storeu_si256((__m256i *)(dst + i), a);
        _mm256_storeu_si256((__m256i *)(dst + i + 4), b);
    }
    for (; i + 4 <= n; i += 4) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(dst + i));
        a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(src + i)));
        _mm256_storeu_si256((__m256i *)(dst + i), a);
    }
    for (; i < n; i++) dst[i] ^= src[i];
}

__attribute__((target("avx2")))
static void xorn_avx2(uint64_t *restrict dst, const uint64_t *const *src, int ns, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(dst + i));
        for (int s = 0; s < ns; s++)
            a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(src[s] + i)));
        _mm256_storeu_si256((__m256i *)(dst + i), a);
    }
    for (; i < n; i++) {
        uint64_t a = dst[i];
        for (int s = 0; s < ns; s++) a ^= src[s][i];
        dst[i] = a;
    }
}

__attribute__((target("avx512f")))
static void xor1_avx512(uint64_t *restrict dst, const uint64_t *restrict src, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512i a = _mm512_loadu_si512((const void *)(dst + i));
        a = _mm512_xor_si512(a, _mm512_loadu_si512((const void *)(src + i)));
        _mm512_storeu_si512((void *)(dst + i), a);
    }
    for (; i < n; i++) dst[i] ^= src[i];
}

__attribute__((target("avx512f")))
static void xorn_avx512(uint64_t *restrict dst, const uint64_t *const *src, int ns, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512i a = _mm512_loadu_si512((const void *)(dst + i));
        for (int s = 0; s < ns; s++)
            a = _mm512_xor_si512(a, _mm512_loadu_si512((const void *)(src[s] + i)));
        _mm512_storeu_si512((void *)(dst + i), a);
    }
    for (; i < n; i++) {
        uint64_t a = dst[i];
        for (int s = 0; s < ns; s++) a ^= src[s][i];
        dst[i] = a;
    }
}
#endif

static void tabrows_portable(uint64_t *base, size_t stride, const size_t *rows,
                             const uint64_t *idx, size_t nr, const uint64_t *tab, int k,
                             int ntab, size_t n, size_t ts)
{
    uint64_t mask = ((uint64_t)1 << k) - 1;
    /* fixed widths: the row segment stays in registers through the lookups */
#define ML_TABROWS_FIXED(N)                                                     \
    for (size_t t = 0; t < nr; t++) {                                           \
        uint64_t x = idx[t], a[N];                                              \
        uint64_t *d = base + rows[t] * stride;                                  \
        const uint64_t *T = tab;                                                \
        for (int i = 0; i < N; i++) a[i] = d[i];                                \
        for (int g = 0; g < ntab; g++, x >>= k, T += 256 * N) {                 \
            const uint64_t *e = T + (x & mask) * N;                             \
            for (int i = 0; i < N; i++) a[i] ^= e[i];                           \
        }                                                                       \
        for (int i = 0; i < N; i++) d[i] = a[i];                                \
    }
    if (n == 8) { ML_TABROWS_FIXED(8) return; }
    if (n == 16) { ML_TABROWS_FIXED(16) return; }
#undef ML_TABROWS_FIXED
    const uint64_t *src[8];
    for (size_t t = 0; t < nr; t++) {
        uint64_t x = idx[t];
        for (int g = 0; g < ntab; g++, x >>= k)
            src[g] = tab + ((size_t)g * 256 + (x & mask)) * ts;
        xorn_portable(base + rows[t] * stride, src, ntab, n);
    }
}

#ifdef ML_X86
__attribute__((target("avx2")))
static void tabrows_avx2(uint64_t *base, size_t stride, const size_t *rows,
                         const uint64_t *idx, size_t nr, const uint64_t *tab, int k,
                         int ntab, size_t n, size_t ts)
{
    uint64_t mask = ((uint64_t)1 << k) - 1;
    if (n == 8) {
        for (size_t t = 0; t < nr; t++) {
            uint64_t x = idx[t];
            uint64_t *d = base + rows[t] * stride;
            __m256i a0 = _mm256_loadu_si256((const __m256i *)d);
            __m256i a1 = _mm256_loadu_si256((const __m256i *)(d + 4));
            const uint64_t *T = tab;
            for (int g = 0; g < ntab; g++, x >>= k, T += 256 * 8) {
                const uint64_t *e = T + (x & mask) * 8;
                a0 = _mm256_xor_si256(a0, _mm256_loadu_si256((const __m256i *)e));
                a1 = _mm256_xor_si256(a1, _mm256_loadu_si256((const __m256i *)(e + 4)));
            }
            _mm256_storeu_si256((__m256i *)d, a0);
            _mm256_storeu_si256((__m256i *)(d + 4), a1);
        }
        return;
    }
    if (n == 16) {
        for (size_t t = 0; t < nr; t++) {
            uint64_t x = idx[t];
            uint64_t *d = base + rows[t] * stride;
            __m256i a0 = _mm256_loadu_si256((const __m256i *)d);
            __m256i a1 = _mm256_loadu_si256((const __m256i *)(d + 4));
            __m256i a2 = _mm256_loadu_si256((const __m256i *)(d + 8));
            __m256i a3 = _mm256_loadu_si256((const __m256i *)(d + 12));
            const uint64_t *T = tab;
            for (int g = 0; g < ntab; g++, x >>= k, T += 256 * 16) {
                const uint64_t *e = T + (x & mask) * 16;
                a0 = _mm256_xor_si256(a0, _mm256_loadu_si256((const __m256i *)e));
                a1 = _mm256_xor_si256(a1, _mm256_loadu_si256((const __m256i *)(e + 4)));
                a2 = _mm256_xor_si256(a2, _mm256_loadu_si256((const __m256i *)(e + 8)));
                a3 = _mm256_xor_si256(a3, _mm256_loadu_si256((const __m256i *)(e + 12)));
            }
            _mm256_storeu_si256((__m256i *)d, a0);
            _mm256_storeu_si256((__m256i *)(d + 4), a1);
            _mm256_storeu_si256((__m256i *)(d + 8), a2);
            _mm256_storeu_si256((__m256i *)(d + 12), a3);
        }
        return;
    }
    const uint64_t *src[8];
    for (size_t t = 0; t < nr; t++) {
        uint64_t x = idx[t];
        for (int g = 0; g < ntab; g++, x >>= k)
            src[g] = tab + ((size_t)g * 256 + (x & mask)) * ts;
        xorn_avx2(base + rows[t] * stride, src, ntab, n);
    }
}

__attribute__((target("avx512f")))
static void tabrows_avx512(uint64_t *base, size_t stride, const size_t *rows,
                           const uint64_t *idx, size_t nr, const uint64_t *tab, int k,
                           int ntab, size_t n, size_t ts)
{
    uint64_t mask = ((uint64_t)1 << k) - 1;
    if (n == 8 || n == 16) {
        int two = n == 16;
        for (size_t t = 0; t < nr; t++) {
            uint64_t x = idx[t];
            uint64_t *d = base + rows[t] * stride;
            __m512i a0 = _mm512_loadu_si512((const void *)d);
            __m512i a1 = two ? _mm512_loadu_si512((const void *)(d + 8)) : _mm512_setzero_si512();
            const uint64_t *T = tab;
            for (int g = 0; g < ntab; g++, x >>= k, T += 256 * n) {
                const uint64_t *e = T + (x & mask) * n;
                a0 = _mm512_xor_si512(a0, _mm512_loadu_si512((const void *)e));
                if (two) a1 = _mm512_xor_si512(a1, _mm512_loadu_si512((const void *)(e + 8)));
            }
            _mm512_storeu_si512((void *)d, a0);
            if (two) _mm512_storeu_si512((void *)(d + 8), a1);
        }
        return;
    }
    const uint64_t *src[8];
    for (size_t t = 0; t < nr; t++) {
        uint64_t x = idx[t];
        for (int g = 0; g < ntab; g++, x >>= k)
            src[g] = tab + ((size_t)g * 256 + (x & mask)) * ts;
        xorn_avx512(base + rows[t] * stride, src, ntab, n);
    }
}
#endif

static xor1_fn xor1_impl[ML_SIMD_COUNT] = {xor1_portable,
#ifdef ML_X86
                                           xor1_avx2, xor1_avx512
#else
                                           xor1_portable, xor1_portable
#endif
};
static xorn_fn xorn_impl[ML_SIMD_COUNT] = {xorn_portable,
#ifdef ML_X86
                                           xorn_avx2, xorn_avx512
#else
                                           xorn_portable, xorn_portable
#endif
};

static tabrows_fn tabrows_impl[ML_SIMD_COUNT] = {tabrows_portable,
#ifdef ML_X86
                                                 tabrows_avx2, tabrows_avx512
#else
                                                 tabrows_portable, tabrows_portable
#endif
};

ml_gf2_kernels_t ml_gf2__kernels(void)
{
    int p = ml_simd_get();
    ml_gf2_kernels_t k = {xor1_impl[p], xorn_impl[p], tabrows_impl[p]};
    return k;
}

int ml_gf2_simd(void) { return ml_simd_get(); }
