/* band.c: the 1-D band chase of the tensor engine; see band.h. */
#include "structured/band.h"

#include <string.h>

static void band_xor(uint8_t *restrict y, const uint8_t *restrict src, size_t k)
{
    size_t x = 0;
    for (; x + 8 <= k; x += 8) {          /* a word at a time (unaligned-safe copies) */
        uint64_t a, b;
        memcpy(&a, y + x, 8);
        memcpy(&b, src + x, 8);
        a ^= b;
        memcpy(y + x, &a, 8);
    }
    for (; x < k; x++)
        y[x] ^= src[x];
}

void ml_band_chase(const uint8_t *B, ptrdiff_t bstride, uint8_t *Y, ptrdiff_t ystride,
                   size_t k, const int64_t *brow, const int64_t *yrow, const int64_t *refs,
                   const uint32_t *coefs, size_t m, size_t nsteps, unsigned n, unsigned inv,
                   uint32_t *acc, const uint8_t *lut, size_t lutlen)
{
    for (size_t t = 0; t < nsteps; t++) {
        uint8_t *y = Y + yrow[t] * ystride;
        const uint8_t *b = B + brow[t] * bstride;
        const int64_t *rt = refs + t * m;
        const uint32_t *ct = coefs + t * m;
        if (n == 2) {                      /* inv and every coefficient 0 or 1 */
            if (inv)
                memmove(y, b, k);
            else
                memset(y, 0, k);
            for (size_t q = 0; q < m; q++)
                if (rt[q] >= 0 && ct[q])
                    band_xor(y, Y + rt[q] * ystride, k);
            continue;
        }
        for (size_t x = 0; x < k; x++)
            acc[x] = inv * (uint32_t)b[x];
        for (size_t q = 0; q < m; q++) {
            if (rt[q] < 0)
                continue;
            const uint8_t *src = Y + rt[q] * ystride;
            uint32_t c = ct[q];
            if (c == 1)
                for (size_t x = 0; x < k; x++)
                    acc[x] += src[x];
            else
                for (size_t x = 0; x < k; x++)
                    acc[x] += c * (uint32_t)src[x];
        }
        if (lut != NULL)
            for (size_t x = 0; x < k; x++)
                y[x] = acc[x] < lutlen ? lut[acc[x]] : (uint8_t)(acc[x] % n);
        else
            for (size_t x = 0; x < k; x++)
                y[x] = (uint8_t)(acc[x] % n);
    }
}

/* Tiles of TILE x TILE bytes: both the rows read and the rows written stay in cache
 * while a tile is copied (a plain strided copy touches a new cache line per byte). */
#define TILE 64

void ml_band_transpose(const uint8_t *A, ptrdiff_t astride, uint8_t *T, ptrdiff_t tstride,
                       size_t rows, size_t cols)
{
    for (size_t i0 = 0; i0 < rows; i0 += TILE) {
        size_t i1 = rows - i0 < TILE ? rows : i0 + TILE;
        for (size_t j0 = 0; j0 < cols; j0 += TILE) {
            size_t j1 = cols - j0 < TILE ? cols : j0 + TILE;
            for (size_t j = j0; j < j1; j++) {
                uint8_t *t = T + (ptrdiff_t)j * tstride;
                for (size_t i = i0; i < i1; i++)
                    t[i] = A[(ptrdiff_t)i * astride + (ptrdiff_t)j];
            }
        }
    }
}
