/* packed.c: GF(2) grid states as np.packbits rows; see packed.h. */
#include "structured/packed.h"

#include <stdlib.h>

#include "dense/gf2.h"
#include "base/interrupt.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define ML_X86 1
#include "base/cpu.h"
#endif

void ml_packed_load_row(const uint8_t *src, size_t w, uint64_t *dst)
{
    size_t nb = (w + 7) / 8, nfull = nb / 8, nw = (w + 63) / 64;
    for (size_t i = 0; i < nfull; i++) dst[i] = ml_load_be(src + 8 * i);
    if (nfull < nw) {
        uint8_t tmp[8] = {0};
        memcpy(tmp, src + 8 * nfull, nb - 8 * nfull);
        dst[nfull] = ml_load_be(tmp);
    }
    dst[nw - 1] &= ml_packed_tail_mask(w);
}

void ml_packed_store_row(const uint64_t *src, size_t w, uint8_t *dst)
{
    size_t nb = (w + 7) / 8, nfull = nb / 8, nw = (w + 63) / 64;
    for (size_t i = 0; i < nfull; i++) ml_store_be(dst + 8 * i, src[i]);
    if (nfull < nw) {
        uint8_t tmp[8];
        ml_store_be(tmp, src[nfull]);
        memcpy(dst + 8 * nfull, tmp, nb - 8 * nfull);
    }
}

/* Eight bytes (one column each, little-endian loads: column 8k + t in byte t) <-> one
 * packed byte (column 8k + t in bit 7 - t). Packing: the bits 8t of x & PK_LSB times
 * PK_FROM land at 63 - t, the 64 products at distinct positions (8t - 9u takes each value
 * once), so nothing carries into the top byte. Unpacking: byte t of b * PK_LSB & PK_TO keeps
 * bit 7 - t of b; adding 0x7F to each byte (at most 0x80: no carry) moves "not zero"
 * into its bit 7. */
#define PK_LSB 0x0101010101010101ull
#define PK_FROM 0x8040201008040201ull
#define PK_TO 0x0102040810204080ull

static inline uint64_t le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

void ml_packed_from_bytes(const uint8_t *src, size_t sstride, size_t rows, size_t cols,
                          uint8_t *dst, size_t dstride)
{
    size_t full = cols / 8;
    for (size_t i = 0; i < rows; i++) {
        const uint8_t *s = src + i * sstride;
        uint8_t *d = dst + i * dstride;
        for (size_t k = 0; k < full; k++)
            d[k] = (uint8_t)(((le64(s + 8 * k) & PK_LSB) * PK_FROM) >> 56);
        if (cols % 8) {
            unsigned v = 0;
            for (size_t j = 8 * full; j < cols; j++)
                v |= (s[j] & 1u) << (7 - j % 8);
            d[full] = (uint8_t)v;
        }
    }
}

void ml_packed_to_bytes(const uint8_t *src, size_t sstride, size_t rows, size_t cols,
                        uint8_t *dst, size_t dstride)
{
    size_t full = cols / 8;
    for (size_t i = 0; i < rows; i++) {
        const uint8_t *s = src + i * sstride;
        uint8_t *d = dst + i * dstride;
        for (size_t k = 0; k < full; k++) {
            uint64_t v = ((((s[k] * PK_LSB) & PK_TO) + 0x7F7F7F7F7F7F7F7Full) >> 7) & PK_LSB;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            v = __builtin_bswap64(v);
#endif
            memcpy(d + 8 * k, &v, 8);
        }
        for (size_t j = 8 * full; j < cols; j++)
            d[j] = (uint8_t)((s[full] >> (7 - j % 8)) & 1u);
    }
}

#undef PK_LSB
#undef PK_FROM
#undef PK_TO

/* ------------------------------------------------------------------ transposes */

/* 8 bytes of a row from byte offset o (len < 8: the row ends there), as an MSB-first
 * word */
static inline uint64_t load_part(const uint8_t *p, size_t len)
{
    if (len >= 8) return ml_load_be(p);
    uint8_t tmp[8] = {0};
    memcpy(tmp, p, len);
    return ml_load_be(tmp);
}

static inline void store_part(uint8_t *p, size_t len, uint64_t v)
{
    if (len >= 8) {
        ml_store_be(p, v);
        return;
    }
    uint8_t tmp[8];
    ml_store_be(tmp, v);
    memcpy(p, tmp, len);
}

/* Tiles of 512 rows x 512 columns, taken 64 rows at a time: each row of A gives one
 * cache line (8 words, 8 blocks), each of the 512 rows of T written gets 8 bytes per
 * 64 rows and stays in cache until its line is full. With the rows fed in reverse
 * order (blk[u][63 - t] = row t), the 64 x 64 transpose of MSB-first words gives
 * MSB-first words: column c of block u is blk[u][63 - c], row t at bit 63 - t. */
static inline __attribute__((always_inline)) void
transpose_body(const uint8_t *A, size_t astride, size_t rows, size_t cols, uint8_t *T,
               size_t tstride)
{
    size_t nba = (cols + 7) / 8, nbt = (rows + 7) / 8;
    uint64_t blk[8][64];
    for (size_t i0 = 0; i0 < rows; i0 += 512) {
        size_t i1 = rows - i0 < 512 ? rows : i0 + 512;
        for (size_t j0 = 0; j0 < cols; j0 += 512) {
            if (ml_interrupt_poll()) return;     /* Ctrl-C: the caller checks the flag */
            size_t nu = (cols - j0 + 63) / 64 < 8 ? (cols - j0 + 63) / 64 : 8;
            for (size_t b0 = i0; b0 < i1; b0 += 64) {
                size_t nr = i1 - b0 < 64 ? i1 - b0 : 64;
                for (size_t t = 0; t < 64; t++) {
                    const uint8_t *row = A + (b0 + t) * astride;
                    for (size_t u = 0; u < nu; u++) {
                        size_t o = j0 / 8 + 8 * u, len = nba - o < 8 ? nba - o : 8;
                        blk[u][63 - t] = t < nr ? load_part(row + o, len) : 0;
                    }
                    /* the rows of a strip are far apart: fetch the next tile's line
                     * of this row while the 511 others are worked on */
                    if (t < nr && j0 + 512 < cols) __builtin_prefetch(row + j0 / 8 + 64);
                }
                size_t ob = b0 / 8, olen = nbt - ob < 8 ? nbt - ob : 8;
                for (size_t u = 0; u < nu; u++) {
                    size_t c0 = j0 + 64 * u, nc = cols - c0 < 64 ? cols - c0 : 64;
                    if (nc < 64) {                 /* bits past column cols: ignored */
                        uint64_t cmask = ~0ull << (64 - nc);
                        for (size_t t = 0; t < 64; t++) blk[u][t] &= cmask;
                    }
                    ml_gf2_transpose64(blk[u]);
                    for (size_t c = 0; c < nc; c++) {
                        uint8_t *q = T + (c0 + c) * tstride + ob;
                        store_part(q, olen, blk[u][63 - c]);
                        /* likewise the line of this row of T the next 512 rows fill */
                        if (b0 == i0 && i0 + 512 < rows) __builtin_prefetch(q + 64, 1);
                    }
                }
            }
        }
    }
}

#ifdef ML_X86
__attribute__((target("avx2")))
static void transpose_avx2(const uint8_t *A, size_t astride, size_t rows, size_t cols,
                           uint8_t *T, size_t tstride)
{
    transpose_body(A, astride, rows, cols, T, tstride);
}
#endif

static void transpose_portable(const uint8_t *A, size_t astride, size_t rows, size_t cols,
                               uint8_t *T, size_t tstride)
{
    transpose_body(A, astride, rows, cols, T, tstride);
}

void ml_packed_transpose(const uint8_t *A, size_t astride, size_t rows, size_t cols,
                         uint8_t *T, size_t tstride)
{
    if (!rows || !cols) return;
#ifdef ML_X86
    if (ml_simd_get() >= ML_SIMD_AVX2) {
        transpose_avx2(A, astride, rows, cols, T, tstride);
        return;
    }
#endif
    transpose_portable(A, astride, rows, cols, T, tstride);
}

/* ------------------------------------------------------------------ s + A x */

/* acc column c ^= src column c - k, for the columns of the nw words (src bits past the
 * row are 0; bits shifted past the last word are dropped) */
static void xor_shifted(uint64_t *acc, const uint64_t *src, size_t nw, int64_t k)
{
    if (k >= 0) {
        size_t q = (size_t)k / 64;
        unsigned r = (unsigned)(k % 64);
        if (q >= nw) return;
        if (r == 0) {
            for (size_t i = q; i < nw; i++) acc[i] ^= src[i - q];
            return;
        }
        acc[q] ^= src[0] >> r;
        for (size_t i = q + 1; i < nw; i++)
            acc[i] ^= (src[i - q] >> r) | (src[i - q - 1] << (64 - r));
    } else {
        uint64_t mk = (uint64_t)0 - (uint64_t)k;
        if (mk / 64 >= nw) return;
        size_t q = (size_t)(mk / 64);
        unsigned r = (unsigned)(mk % 64);
        if (r == 0) {
            for (size_t i = 0; i + q < nw; i++) acc[i] ^= src[i + q];
            return;
        }
        for (size_t i = 0; i + q + 1 < nw; i++)
            acc[i] ^= (src[i + q] << r) | (src[i + q + 1] >> (64 - r));
        acc[nw - 1 - q] ^= src[nw - 1] << r;
    }
}

size_t ml_packed_apply(size_t h, size_t w, int wrap, size_t noff, const int64_t *dr,
                       const int64_t *dc, const uint8_t *s, unsigned tc, const uint8_t *x,
                       uint8_t *out)
{
    if (w == 0) return 0;                          /* no tiles (and no words to load) */
    size_t nw = (w + 63) / 64, nb = (w + 7) / 8;
    uint64_t *buf = calloc(2 * nw, sizeof(uint64_t));
    if (!buf) return (size_t)-1;
    uint64_t *acc = buf, *src = buf + nw, mask = ml_packed_tail_mask(w);
    uint64_t fill = (tc & 1) ? ~0ull : 0;
    size_t bad = 0;
    for (size_t i = 0; i < h; i++) {
        if (s) ml_packed_load_row(s + i * nb, w, acc);
        else memset(acc, 0, nw * sizeof(uint64_t));
        size_t loaded = (size_t)-1;                /* the row in src */
        for (size_t k = 0; k < noff; k++) {
            size_t j;
            if (wrap) {
                j = i >= (size_t)dr[k] ? i - (size_t)dr[k] : i + h - (size_t)dr[k];
            } else {
                int64_t jj = (int64_t)i - dr[k];
                if (jj < 0 || jj >= (int64_t)h) continue;
                j = (size_t)jj;
            }
            if (j != loaded) {
                ml_packed_load_row(x + j * nb, w, src);
                loaded = j;
            }
            xor_shifted(acc, src, nw, dc[k]);
            if (wrap && dc[k]) xor_shifted(acc, src, nw, dc[k] - (int64_t)w);
        }
        acc[nw - 1] &= mask;
        if (out) ml_packed_store_row(acc, w, out + i * nb);
        for (size_t q = 0; q + 1 < nw; q++) bad += (size_t)__builtin_popcountll(acc[q] ^ fill);
        bad += (size_t)__builtin_popcountll((acc[nw - 1] ^ fill) & mask);
        if ((i & 63) == 63 && ml_interrupt_poll()) break;
    }
    free(buf);
    return bad;
}
