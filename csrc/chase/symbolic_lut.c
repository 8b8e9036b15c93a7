/* symbolic_lut.c: the byte run of the Z/n light chase (symbolic.c) by a table, AVX-512
 * VBMI (chase_impl.h, ml_chase__lut_run). */
#include "chase/chase_impl.h"
#include "base/cpu.h"

#include <stdint.h>
#include <string.h>
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ML_LUT_X86 1
#include <immintrin.h>
#endif

int ml_chase__lut_supported(void)
{
#ifdef ML_LUT_X86
    __builtin_cpu_init();
    return ml_simd_get() >= ML_SIMD_AVX512 && __builtin_cpu_supports("avx512vbmi");
#else
    return 0;
#endif
}

void ml_chase__lut_fill(uint8_t lut[128], int n)
{
    for (int x = 0; x < 128; x++) lut[x] = (uint8_t)((n - x % n) % n);
}

#ifdef ML_LUT_X86
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
static void lut_run_vbmi(uint8_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                         const int64_t *dl, int nd, const uint8_t *lut)
{
    const __m512i lo = _mm512_loadu_si512((const void *)lut);
    const __m512i hi = _mm512_loadu_si512((const void *)(lut + 64));
    const uint8_t *src[ML_CHASE_LUT_MAXND];
    for (size_t i = 0; i < cnt; i++) {
        const int64_t t = t0 + (int64_t)i;
        uint8_t *v = V + (size_t)(t & mask) * bw;
        for (int q = 0; q < nd; q++) src[q] = V + (size_t)((t + dl[q]) & mask) * bw;
        for (size_t j = 0; j < bw; j += 64) {
            const __mmask64 m = bw - j >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (bw - j)) - 1);
            __m512i x = _mm512_setzero_si512();
            for (int q = 0; q < nd; q++)
                x = _mm512_add_epi8(x, _mm512_maskz_loadu_epi8(m, src[q] + j));
            _mm512_mask_storeu_epi8(v + j, m, _mm512_permutex2var_epi8(lo, x, hi));
        }
    }
}
#endif

void ml_chase__lut_run(uint8_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                       const int64_t *dl, int nd, const uint8_t *lut)
{
#ifdef ML_LUT_X86
    if (ml_chase__lut_supported()) {
        lut_run_vbmi(V, bw, mask, t0, cnt, dl, nd, lut);
        return;
    }
#endif
    for (size_t i = 0; i < cnt; i++) {   /* the same, a byte at a time */
        const int64_t t = t0 + (int64_t)i;
        uint8_t *v = V + (size_t)(t & mask) * bw;
        for (size_t j = 0; j < bw; j++) {
            unsigned x = 0;
            for (int q = 0; q < nd; q++) x += V[(size_t)((t + dl[q]) & mask) * bw + j];
            v[j] = lut[x & 127];
        }
    }
}
