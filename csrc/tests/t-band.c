/* t-band: csrc/structured/band.c (the 1-D band chase and the tiled transpose) against
 * plain per-entry loops written here: random step lists (refs to earlier rows, skipped
 * negative refs, in-place updates B = Y), n = 2 (the XOR path), n in 3..9 and 251, with
 * and without the reduction table, widths k across the 8-byte word boundary, and
 * transposes across the 64-byte tile edges (63/64/65, 127/128/129) with negative strides.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: structured/band.c */
#include "structured/band.h"
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0xBA4DC4A5Eull
#include "t-util.h"

/* The oracle: step by step, entry by entry, in 64-bit arithmetic. */
static void oracle(const uint8_t *B, size_t bstride, uint8_t *Y, size_t ystride, size_t k,
                   const int64_t *brow, const int64_t *yrow, const int64_t *refs,
                   const uint32_t *coefs, size_t m, size_t nsteps, unsigned n, unsigned inv)
{
    for (size_t t = 0; t < nsteps; t++)
        for (size_t x = 0; x < k; x++) {
            uint64_t s = (uint64_t)inv * B[brow[t] * (int64_t)bstride + (int64_t)x];
            for (size_t q = 0; q < m; q++)
                if (refs[t * m + q] >= 0)
                    s += (uint64_t)coefs[t * m + q] * Y[refs[t * m + q] * (int64_t)ystride + (int64_t)x];
            Y[yrow[t] * (int64_t)ystride + (int64_t)x] = (uint8_t)(s % n);
        }
}

static void one_chase(unsigned n, size_t k, int inplace, int uselut)
{
    size_t rows = (size_t)rnd_range(1, 12), m = (size_t)rnd_range(0, 4);
    size_t nsteps = (size_t)rnd_range(0, 2 * rows);
    size_t ystride = k + (size_t)rnd_range(0, 9), bstride = k + (size_t)rnd_range(0, 9);
    uint8_t *Y = malloc(rows * ystride + 1), *Y2 = malloc(rows * ystride + 1);
    uint8_t *B = malloc(rows * bstride + 1);
    int64_t *brow = malloc((nsteps + 1) * sizeof *brow), *yrow = malloc((nsteps + 1) * sizeof *yrow);
    int64_t *refs = malloc((nsteps * m + 1) * sizeof *refs);
    uint32_t *coefs = malloc((nsteps * m + 1) * sizeof *coefs);
    uint32_t *acc = malloc((k + 1) * sizeof *acc);
    unsigned inv = n == 2 ? (unsigned)(rnd() & 1) : (unsigned)rnd_range(0, n - 1);
    for (size_t i = 0; i < rows * ystride; i++) Y[i] = (uint8_t)(rnd() % n);
    for (size_t i = 0; i < rows * bstride; i++) B[i] = (uint8_t)(rnd() % n);
    for (size_t t = 0; t < nsteps; t++) {
        yrow[t] = (int64_t)rnd_range(0, (int64_t)rows - 1);
        brow[t] = inplace ? yrow[t] : (int64_t)rnd_range(0, (int64_t)rows - 1);
        for (size_t q = 0; q < m; q++) {
            int64_t r = (int64_t)rnd_range(-1, (int64_t)rows - 1);
            if (r == yrow[t]) r = -1 - (int64_t)(rnd() % 3);   /* never the row written */
            refs[t * m + q] = r;
            coefs[t * m + q] = n == 2 ? (uint32_t)(rnd() & 1) : (uint32_t)rnd_range(0, n - 1);
        }
    }
    /* lut: v -> v mod n below lutlen (sometimes shorter than the largest sum) */
    size_t lutlen = (size_t)rnd_range(1, (int64_t)((m + 1) * (n - 1) + 2));
    uint8_t *lut = malloc(lutlen);
    for (size_t v = 0; v < lutlen; v++) lut[v] = (uint8_t)(v % n);
    memcpy(Y2, Y, rows * ystride);
    const uint8_t *Bp = inplace ? Y : B;
    size_t bs = inplace ? ystride : bstride;
    ml_band_chase(Bp, (ptrdiff_t)bs, Y, (ptrdiff_t)ystride, k, brow, yrow, refs, coefs, m,
                  nsteps, n, inv, acc, uselut ? lut : NULL, uselut ? lutlen : 0);
    oracle(inplace ? Y2 : B, bs, Y2, ystride, k, brow, yrow, refs, coefs, m, nsteps, n, inv);
    int bad = 0;
    for (size_t r = 0; r < rows; r++)
        bad += memcmp(Y + r * ystride, Y2 + r * ystride, k) != 0;
    CHECK(bad == 0, "n=%u k=%zu rows=%zu m=%zu steps=%zu inv=%u inplace=%d lut=%d", n, k,
          rows, m, nsteps, inv, inplace, uselut);
    free(Y); free(Y2); free(B); free(brow); free(yrow); free(refs); free(coefs); free(acc);
    free(lut);
}

static void one_transpose(size_t rows, size_t cols)
{
    size_t as = cols + (size_t)rnd_range(0, 5), ts = rows + (size_t)rnd_range(0, 5);
    uint8_t *A = malloc(rows * as + 1), *T = malloc(cols * ts + 1);
    for (size_t i = 0; i < rows * as; i++) A[i] = (uint8_t)rnd();
    memset(T, 0xAB, cols * ts + 1);
    int neg = (int)(rnd() & 1);   /* negative strides: rows read bottom-up, written likewise */
    if (neg && rows && cols)
        ml_band_transpose(A + (rows - 1) * as, -(ptrdiff_t)as, T + (cols - 1) * ts,
                          -(ptrdiff_t)ts, rows, cols);
    else
        ml_band_transpose(A, (ptrdiff_t)as, T, (ptrdiff_t)ts, rows, cols);
    int bad = 0;
    for (size_t j = 0; j < cols; j++) {
        for (size_t i = 0; i < rows; i++) {
            size_t ai = neg ? rows - 1 - i : i, tj = neg ? cols - 1 - j : j;
            bad += T[tj * ts + i] != A[ai * as + j];
        }
        for (size_t i = rows; i < ts; i++) bad += T[j * ts + i] != 0xAB;   /* padding kept */
    }
    CHECK(bad == 0, "transpose %zux%zu neg=%d: %d wrong", rows, cols, neg, bad);
    free(A); free(T);
}

int main(void)
{
    const unsigned ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 251};
    const size_t ks[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 129};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof ks / sizeof *ks; b++)
            for (int rep = 0; rep < 12; rep++)
                one_chase(ns[a], ks[b], rep & 1, (rep >> 1) & 1);
    for (int rep = 0; rep < 300; rep++)
        one_chase((unsigned)rnd_range(2, 255), (size_t)rnd_range(0, 40), (int)(rnd() & 1),
                  (int)(rnd() & 1));
    const size_t sz[] = {0, 1, 2, 63, 64, 65, 127, 128, 129};
    for (size_t a = 0; a < sizeof sz / sizeof *sz; a++)
        for (size_t b = 0; b < sizeof sz / sizeof *sz; b++)
            one_transpose(sz[a], sz[b]);
    for (int rep = 0; rep < 30; rep++)
        one_transpose((size_t)rnd_range(1, 200), (size_t)rnd_range(1, 200));
    return t_done();
}
