/* zn_kernels.c: the vector kernels of the Z/p^e factorisation (zn_impl.h). */
#include "dense/zn.h"
#include "dense/zn_impl.h"

#include <stdint.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ kernels
 * Written so gcc -O3 vectorises them; compiled twice (baseline and AVX2) and
 * chosen at run time. x mod q for 16-bit x: qa = (x*M)>>16 is floor(x/q) or one
 * less, so one conditional subtraction finishes. */
#define ML_AI static inline __attribute__((always_inline))

ML_AI void axpy16_body(uint16_t *restrict d, const uint16_t *restrict s, uint16_t a, size_t n)
{
    for (size_t j = 0; j < n; j++) d[j] = (uint16_t)(d[j] + a * s[j]);
}

ML_AI void reduce16_body(uint16_t *restrict x, size_t n, uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = x[j];
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        x[j] = r >= q ? (uint16_t)(r - q) : r;
    }
}

ML_AI void scale16_body(uint16_t *restrict x, size_t n, uint16_t u, uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = (uint16_t)(x[j] * u);
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        x[j] = r >= q ? (uint16_t)(r - q) : r;
    }
}

/* d += a0*s0 + a1*s1 + a2*s2 + a3*s3, unreduced (the caller bounds the sums) */
ML_AI void axpy16x4_body(uint16_t *restrict d, const uint16_t *s0, const uint16_t *s1,
                         const uint16_t *s2, const uint16_t *s3, uint16_t a0, uint16_t a1,
                         uint16_t a2, uint16_t a3, size_t n)
{
    for (size_t j = 0; j < n; j++)
        d[j] = (uint16_t)(d[j] + a0 * s0[j] + a1 * s1[j] + a2 * s2[j] + a3 * s3[j]);
}

/* acc += w * x in 16 bits (the caller bounds the sum) */
ML_AI void acc16_body(uint16_t *restrict acc, const uint8_t *restrict x, uint16_t w, size_t n)
{
    for (size_t j = 0; j < n; j++) acc[j] = (uint16_t)(acc[j] + w * x[j]);
}

/* d = (c - acc) mod q, c reduced (or NULL for 0), acc any 16-bit value */
ML_AI void finish16_body(uint8_t *restrict d, const uint8_t *restrict c, const uint16_t *restrict acc,
                         size_t n, uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = acc[j];
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        r = r >= q ? (uint16_t)(r - q) : r;                 /* acc mod q */
        uint16_t x = (uint16_t)((c ? c[j] : 0) + q - r);
        d[j] = (uint8_t)(x >= q ? x - q : x);
    }
}

/* the same for 32-bit sums: floor(2^32/q) approximates the quotient to within one */
ML_AI void finish32_body(uint8_t *restrict d, const uint8_t *restrict c, const uint32_t *restrict acc,
                         size_t n, uint32_t q, uint32_t M32)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t v = acc[j];
        uint32_t qa = (uint32_t)(((uint64_t)v * M32) >> 32);
        uint32_t r = v - qa * q;
        r = r >= q ? r - q : r;
        uint32_t x = (c ? c[j] : 0) + q - r;
        d[j] = (uint8_t)(x >= q ? x - q : x);
    }
}

/* sum w[j] * x[j] for reduced entries (n <= 65535 keeps it in 32 bits) */
ML_AI uint32_t dot16x8_body(const uint16_t *restrict w, const uint8_t *restrict x, size_t n)
{
    uint32_t s = 0;
    for (size_t j = 0; j < n; j++) s += (uint32_t)w[j] * x[j];
    return s;
}

/* d = (d + a*s) mod q on reduced uint8 vectors */
ML_AI void axpy8_body(uint8_t *restrict d, const uint8_t *restrict s, uint16_t a, size_t n,
                      uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = (uint16_t)(d[j] + a * s[j]);
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        d[j] = (uint8_t)(r >= q ? r - q : r);
    }
}

ML_AI void scale8_body(uint8_t *restrict x, size_t n, uint16_t u, uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = (uint16_t)(x[j] * u);
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        x[j] = (uint8_t)(r >= q ? r - q : r);
    }
}

/* acc += w * x (delayed reduction: products <= 254^2, up to 65536 terms fit) */
ML_AI void acc32_body(uint32_t *restrict acc, const uint8_t *restrict x, uint32_t w, size_t n)
{
    for (size_t j = 0; j < n; j++) acc[j] += w * x[j];
}

/* d += the 4 pairs of pivot rows P[t] (bytes, interleaved) times a[0..7] (zn_impl.h) */
ML_AI void axpy8p4_body(uint16_t *restrict d, const uint8_t *const *P, const uint8_t *a, size_t n)
{
    const uint8_t *restrict p0 = P[0], *restrict p1 = P[1], *restrict p2 = P[2], *restrict p3 = P[3];
    const uint16_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5], a6 = a[6],
                   a7 = a[7];
    for (size_t j = 0; j < n; j++)
        d[j] = (uint16_t)(d[j] + a0 * p0[2 * j] + a1 * p0[2 * j + 1] + a2 * p1[2 * j] +
                          a3 * p1[2 * j + 1] + a4 * p2[2 * j] + a5 * p2[2 * j + 1] +
                          a6 * p3[2 * j] + a7 * p3[2 * j + 1]);
}

#define ML_DEFINE_KERNELS(SUF, ATTR)                                                        \
    ATTR static void axpy16_##SUF(uint16_t *d, const uint16_t *s, uint16_t a, size_t n)     \
    { axpy16_body(d, s, a, n); }                                                            \
    ATTR static void reduce16_##SUF(uint16_t *x, size_t n, uint16_t q, uint16_t M)          \
    { reduce16_body(x, n, q, M); }                                                          \
    ATTR static void scale16_##SUF(uint16_t *x, size_t n, uint16_t u, uint16_t q, uint16_t M) \
    { scale16_body(x, n, u, q, M); }                                                        \
    ATTR static void axpy8_##SUF(uint8_t *d, const uint8_t *s, uint16_t a, size_t n,        \
                                 uint16_t q, uint16_t M)                                    \
    { axpy8_body(d, s, a, n, q, M); }                                                       \
    ATTR static void scale8_##SUF(uint8_t *x, size_t n, uint16_t u, uint16_t q, uint16_t M) \
    { scale8_body(x, n, u, q, M); }                                                         \
    ATTR static void acc32_##SUF(uint32_t *acc, const uint8_t *x, uint32_t w, size_t n)     \
    { acc32_body(acc, x, w, n); }                                                           \
    ATTR static void axpy16x4_##SUF(uint16_t *d, const uint16_t *s0, const uint16_t *s1,    \
                                    const uint16_t *s2, const uint16_t *s3, uint16_t a0,    \
                                    uint16_t a1, uint16_t a2, uint16_t a3, size_t n)        \
    { axpy16x4_body(d, s0, s1, s2, s3, a0, a1, a2, a3, n); }                                \
    ATTR static uint32_t dot16x8_##SUF(const uint16_t *w, const uint8_t *x, size_t n)       \
    { return dot16x8_body(w, x, n); }                                                       \
    ATTR static void acc16_##SUF(uint16_t *acc, const uint8_t *x, uint16_t w, size_t n)     \
    { acc16_body(acc, x, w, n); }                                                           \
    ATTR static void finish16_##SUF(uint8_t *d, const uint8_t *c, const uint16_t *acc,      \
                                    size_t n, uint16_t q, uint16_t M)                       \
    { finish16_body(d, c, acc, n, q, M); }                                                  \
    ATTR static void finish32_##SUF(uint8_t *d, const uint8_t *c, const uint32_t *acc,      \
                                    size_t n, uint32_t q, uint32_t M32)                     \
    { finish32_body(d, c, acc, n, q, M32); }                                                \
    static const zn_kernels_t zn_kernels_##SUF = {                                          \
        axpy16_##SUF, reduce16_##SUF, scale16_##SUF, axpy8_##SUF, scale8_##SUF, acc32_##SUF, \
        axpy16x4_##SUF, dot16x8_##SUF, acc16_##SUF, finish16_##SUF, finish32_##SUF,         \
        PAIR };

static void axpy8p4_base(uint16_t *d, const uint8_t *const *P, const uint8_t *a, size_t n)
{ axpy8p4_body(d, P, a, n); }
#define PAIR axpy8p4_base
ML_DEFINE_KERNELS(base, )
#undef PAIR
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ML_HAVE_AVX2_PATH 1
#include <immintrin.h>
/* AVX2: one vpmaddubsw a pair and 16 entries (the pair's two products summed in a
 * 16-bit lane, exact: at most 2 (q - 1)^2 < 2^15), the rest as axpy8p4_body */
__attribute__((target("avx2")))
static void axpy8p4_avx2(uint16_t *d, const uint8_t *const *P, const uint8_t *a, size_t n)
{
    const __m256i m0 = _mm256_set1_epi16((short)(a[0] | a[1] << 8));
    const __m256i m1 = _mm256_set1_epi16((short)(a[2] | a[3] << 8));
    const __m256i m2 = _mm256_set1_epi16((short)(a[4] | a[5] << 8));
    const __m256i m3 = _mm256_set1_epi16((short)(a[6] | a[7] << 8));
    const uint8_t *p0 = P[0], *p1 = P[1], *p2 = P[2], *p3 = P[3];
    size_t j = 0;
    for (; j + 16 <= n; j += 16) {
        __m256i x0 = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(p0 + 2 * j)), m0);
        __m256i x1 = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(p1 + 2 * j)), m1);
        __m256i x2 = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(p2 + 2 * j)), m2);
        __m256i x3 = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(p3 + 2 * j)), m3);
        __m256i s = _mm256_add_epi16(_mm256_add_epi16(x0, x1), _mm256_add_epi16(x2, x3));
        __m256i dv = _mm256_loadu_si256((const __m256i *)(d + j));
        _mm256_storeu_si256((__m256i *)(d + j), _mm256_add_epi16(dv, s));
    }
    if (j < n) {
        const uint8_t *Q[4] = {p0 + 2 * j, p1 + 2 * j, p2 + 2 * j, p3 + 2 * j};
        axpy8p4_body(d + j, Q, a, n - j);
    }
}
#define PAIR axpy8p4_avx2
ML_DEFINE_KERNELS(avx2, __attribute__((target("avx2"))))
#undef PAIR
#endif

/* The kernel table for this CPU (AVX2 unless MODLIGHTS_NO_SIMD is set); chosen once,
 * threads racing here all store the same pointer. */
const zn_kernels_t *ml_zn__kernels(void)
{
    static const zn_kernels_t *chosen = NULL;
    const zn_kernels_t *k = __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
    if (!k) {
        k = &zn_kernels_base;
#ifdef ML_HAVE_AVX2_PATH
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2") && !getenv("MODLIGHTS_NO_SIMD"))
            k = &zn_kernels_avx2;
#endif
        __atomic_store_n(&chosen, k, __ATOMIC_RELEASE);
    }
    return k;
}
