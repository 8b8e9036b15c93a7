/* gf2_batch.c: see gf2_batch.h. */
#include "dense/gf2_batch.h"
#include "base/cpu.h"
#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define ML_X86 1
#include <immintrin.h>
#endif

/* ======================================================================== bytes <-> bits */
/* dst word w bit b = low bit of src[64 w + b] for the n bytes of src; the last
 * word's bits past n are 0 (dst holds ceil(n / 64) words). */
typedef void (*bits_fn)(const uint8_t *src, size_t n, uint64_t *dst);
/* dst[j] = bit j of the bit stream src, as a 0/1 byte, for j < n. */
typedef void (*unbits_fn)(const uint64_t *src, size_t n, uint8_t *dst);

static const uint64_t LSB = 0x0101010101010101ull;

/* the low bits of 8 bytes (little-endian word x) as 8 bits */
static inline uint64_t low_bits8(uint64_t x)
{
    return (((x & LSB) * 0x0102040810204080ull) >> 56) & 0xff;
}

/* 8 bits as 8 0/1 bytes (bit t -> byte t) */
static inline uint64_t spread8(uint64_t b)
{
    uint64_t x = (b * LSB) & 0x8040201008040201ull;          /* byte t keeps bit t */
    return ((x + 0x7f7f7f7f7f7f7f7full) >> 7) & LSB;          /* nonzero -> 1 */
}

static void bits_tail(const uint8_t *src, size_t j, size_t n, uint64_t *dst)
{
    for (; j + 8 <= n; j += 8) {
        uint64_t x;
        memcpy(&x, src + j, 8);
        dst[j >> 6] |= low_bits8(x) << (j & 63);
    }
    for (; j < n; j++) dst[j >> 6] |= (uint64_t)(src[j] & 1u) << (j & 63);
}

static void bits_portable(const uint8_t *src, size_t n, uint64_t *dst)
{
    memset(dst, 0, (n + 63) / 64 * 8);
    bits_tail(src, 0, n, dst);
}

static void unbits_tail(const uint64_t *src, size_t j, size_t n, uint8_t *dst)
{
    for (; j + 8 <= n; j += 8) {
        uint64_t y = spread8((src[j >> 6] >> (j & 63)) & 0xff);
        memcpy(dst + j, &y, 8);
    }
    for (; j < n; j++) dst[j] = (uint8_t)((src[j >> 6] >> (j & 63)) & 1u);
}

static void unbits_portable(const uint64_t *src, size_t n, uint8_t *dst)
{
    unbits_tail(src, 0, n, dst);
}

#ifdef ML_X86
__attribute__((target("avx2")))
static void bits_avx2(const uint8_t *src, size_t n, uint64_t *dst)
{
    size_t j = 0;
    for (; j + 64 <= n; j += 64) {
        /* bit 0 of each byte to bit 7 (16-bit shifts: the byte above only gains
         * bits below its own bit 7), then one bit per byte */
        __m256i a = _mm256_slli_epi16(_mm256_loadu_si256((const __m256i *)(src + j)), 7);
        __m256i b = _mm256_slli_epi16(_mm256_loadu_si256((const __m256i *)(src + j + 32)), 7);
        dst[j >> 6] = (uint64_t)(uint32_t)_mm256_movemask_epi8(a)
                      | (uint64_t)(uint32_t)_mm256_movemask_epi8(b) << 32;
    }
    if (j < n) {
        dst[j >> 6] = 0;
        bits_tail(src, j, n, dst);
    }
}

__attribute__((target("avx2")))
static void unbits_avx2(const uint64_t *src, size_t n, uint8_t *dst)
{
    const __m256i pick = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                          2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ull);
    const __m256i one = _mm256_set1_epi8(1);
    size_t j = 0;
    for (; j + 32 <= n; j += 32) {
        uint32_t w = (uint32_t)(src[j >> 6] >> (j & 63));
        __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32((int)w), pick);
        v = _mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit);
        _mm256_storeu_si256((__m256i *)(dst + j), _mm256_and_si256(v, one));
    }
    unbits_tail(src, j, n, dst);
}

__attribute__((target("avx2")))
static void transpose64_avx2(uint64_t a[64]) { ml_gf2_transpose64(a); }
#endif

static void transpose64_portable(uint64_t a[64]) { ml_gf2_transpose64(a); }

typedef void (*transpose_fn)(uint64_t a[64]);

static transpose_fn transpose_impl(void)
{
#ifdef ML_X86
    if (ml_simd_get() >= ML_SIMD_AVX2) return transpose64_avx2;
#endif
    return transpose64_portable;
}

static bits_fn bits_impl(void)
{
#ifdef ML_X86
    if (ml_simd_get() >= ML_SIMD_AVX2) return bits_avx2;
#endif
    return bits_portable;
}

static unbits_fn unbits_impl(void)
{
#ifdef ML_X86
    if (ml_simd_get() >= ML_SIMD_AVX2) return unbits_avx2;
#endif
    return unbits_portable;
}

/* ======================================================================== packing */

/* n <= 64 bits of the stream s from bit o (s holds a word past the last one read) */
static inline uint64_t stream_bits(const uint64_t *s, size_t o, size_t n)
{
    size_t w = o >> 6;
    int sh = (int)(o & 63);
    uint64_t v = s[w] >> sh;
    if (sh) v |= s[w + 1] << (64 - sh);
    return n >= 64 ? v : v & (((uint64_t)1 << n) - 1);
}

/* OR n <= 64 bits v (no bits past n) into the stream s at bit o */
static inline void stream_put(uint64_t *s, size_t o, uint64_t v)
{
    size_t w = o >> 6;
    int sh = (int)(o & 63);
    s[w] |= v << sh;
    if (sh) s[w + 1] |= v >> (64 - sh);
}

ml_gf2_t *ml_gf2_pack_u8_cols(const uint8_t *src, size_t k, size_t m, size_t src_stride)
{
    ml_gf2_t *M = ml_gf2_new(m, k);
    if (!M || k == 0 || m == 0) return M;
    /* a block of 64 boards spans at most 64 * src_stride bytes */
    uint64_t *s = malloc((src_stride + 2) * sizeof(uint64_t));
    if (!s) { ml_gf2_free(M); return NULL; }
    bits_fn bits = bits_impl();
    transpose_fn transpose64 = transpose_impl();
    uint64_t blk[64];
    for (size_t b0 = 0; b0 < k; b0 += 64) {
        size_t nb = k - b0 < 64 ? k - b0 : 64;
        size_t nbytes = (nb - 1) * src_stride + m;
        bits(src + b0 * src_stride, nbytes, s);
        s[(nbytes + 63) / 64] = 0;
        for (size_t c0 = 0; c0 < m; c0 += 64) {
            size_t nc = m - c0 < 64 ? m - c0 : 64;
            for (size_t t = 0; t < 64; t++)
                blk[t] = t < nb ? stream_bits(s, t * src_stride + c0, nc) : 0;
            transpose64(blk);                /* blk[c]: cell c0 + c of 64 boards */
            for (size_t c = 0; c < nc; c++) ml_gf2_row(M, c0 + c)[b0 >> 6] = blk[c];
        }
    }
    free(s);
    return M;
}

void ml_gf2_unpack_solutions_cols(const ml_gf2_t *Yt, size_t r, uint8_t *x, uint8_t *ok)
{
    size_t k = Yt->ncols;
    unbits_fn unbits = unbits_impl();
    transpose_fn transpose64 = transpose_impl();
    uint64_t blk[64], s[65];   /* the solutions of 64 boards, 64 cells of each */
    for (size_t b0 = 0; b0 < k; b0 += 64) {
        size_t nb = k - b0 < 64 ? k - b0 : 64, w = b0 >> 6;
        uint64_t bad = 0;
        for (size_t i = r; i < Yt->nrows; i++) bad |= ml_gf2_row(Yt, i)[w];
        uint64_t good = ~bad;
        unbits(&good, nb, ok + b0);
        /* 64 cells at a time: transposed back to one word a board, then laid out
         * as the boards' bytes are (board t's cell c0 + c at bit t * r + c0 + c) */
        for (size_t c0 = 0; c0 < r; c0 += 64) {
            size_t nc = r - c0 < 64 ? r - c0 : 64;
            for (size_t c = 0; c < 64; c++) blk[c] = c < nc ? ml_gf2_row(Yt, c0 + c)[w] & good : 0;
            transpose64(blk);                /* blk[t]: board t's cells c0.. */
            if (r <= 64) {                          /* all of a board in one word */
                memset(s, 0, sizeof s);
                for (size_t t = 0; t < nb; t++) stream_put(s, t * r, blk[t]);
                unbits(s, nb * r, x + b0 * r);
            } else {
                for (size_t t = 0; t < nb; t++) unbits(&blk[t], nc, x + (b0 + t) * r + c0);
            }
        }
    }
}

int ml_gf2_solve_bytes_small(const ml_gf2_t *S, size_t r, const uint8_t *src, size_t k,
                             size_t src_stride, uint8_t *x, uint8_t *ok)
{
    size_t m = S->nrows, q = S->ncols;
    if (m > 64 || q > 64 || r > q || src_stride < m) return -1;
    int ntab = (int)((m + 7) / 8);
    uint64_t *tab = malloc((size_t)(ntab ? ntab : 1) * 256 * sizeof(uint64_t));
    uint64_t *s = malloc((src_stride + 2) * sizeof(uint64_t));
    if (!tab || !s) { free(tab); free(s); return -2; }
    /* table g, entry v: the XOR of the rows 8 g + (bits of v) of S (Gray-code order:
     * each entry one XOR from an earlier one) */
    for (int g = 0; g < ntab; g++) {
        uint64_t *T = tab + (size_t)g * 256;
        size_t kg = m - 8 * (size_t)g < 8 ? m - 8 * (size_t)g : 8;
        T[0] = 0;
        for (unsigned v = 1; v < 256; v++)
            T[v] = v >> kg ? 0 : T[v & (v - 1)] ^ ml_gf2_row(S, 8 * (size_t)g + (size_t)__builtin_ctz(v))[0];
    }
    uint64_t sol = r >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << r) - 1;
    bits_fn bits = bits_impl();
    unbits_fn unbits = unbits_impl();
    uint64_t out[65];          /* the solutions of 64 boards, r <= 64 bits each */
    for (size_t b0 = 0; b0 < k; b0 += 64) {
        size_t nb = k - b0 < 64 ? k - b0 : 64;
        size_t nbytes = (nb - 1) * src_stride + m;
        uint64_t good = 0;
        if (m) {
            bits(src + b0 * src_stride, nbytes, s);
            s[(nbytes + 63) / 64] = 0;
        }
        memset(out, 0, sizeof out);
        for (size_t t = 0; t < nb; t++) {
            uint64_t b = m ? stream_bits(s, t * src_stride, m) : 0, y = 0;
            for (int g = 0; g < ntab; g++, b >>= 8) y ^= tab[(size_t)g * 256 + (b & 255)];
            if (y & ~sol) continue;          /* a consistency check fails: unsolvable */
            good |= (uint64_t)1 << t;
            if (r) stream_put(out, t * r, y);
        }
        unbits(&good, nb, ok + b0);
        if (r) unbits(out, nb * r, x + b0 * r);
    }
    free(tab);
    free(s);
    return 0;
}
