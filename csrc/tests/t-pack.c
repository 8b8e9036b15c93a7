/* t-pack: csrc/dense/pack.c (uint8 rows <-> 64-bit words) against the bit-by-bit
 * definition, on random matrices of random shapes and strides; the padding bits must be
 * cleared and the round trip exact. Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: dense/pack.c */
#include "dense/pack.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t seed = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void)   /* splitmix64 */
{
    uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int main(void)
{
    int fails = 0;
    for (int trial = 0; trial < 400; trial++) {
        size_t rows = rnd() % 9, cols = rnd() % 200;
        size_t sstride = cols + rnd() % 5, nw = ml_words(cols), dstride = nw + rnd() % 3;
        uint8_t *src = malloc(rows * sstride + 1), *back = malloc(rows * sstride + 1);
        uint64_t *dst = malloc((rows * dstride + 1) * sizeof(uint64_t));
        for (size_t i = 0; i < rows * sstride; i++)
            src[i] = (uint8_t)rnd();                    /* only the low bit counts */
        for (size_t i = 0; i < rows * dstride; i++)
            dst[i] = rnd();                             /* garbage: padding must be cleared */
        ml_pack_bits(src, rows, cols, sstride, dst, dstride);
        for (size_t i = 0; i < rows; i++) {
            for (size_t w = 0; w < nw; w++) {
                uint64_t want = 0;                      /* the definition, bit by bit */
                for (size_t b = 0; b < 64 && 64 * w + b < cols; b++)
                    want |= (uint64_t)(src[i * sstride + 64 * w + b] & 1) << b;
                if (dst[i * dstride + w] != want) {
                    fails++;
                    printf("pack %zux%zu row %zu word %zu\n", rows, cols, i, w);
                }
            }
        }
        memset(back, 7, rows * sstride + 1);
        ml_unpack_bits(dst, rows, cols, dstride, back, sstride);
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < cols; j++)
                if (back[i * sstride + j] != (src[i * sstride + j] & 1)) {
                    fails++;
                    printf("unpack %zux%zu at %zu,%zu\n", rows, cols, i, j);
                    j = cols;
                }
        free(src); free(back); free(dst);
    }
    printf("fails=%d\n", fails);
    return fails != 0;
}
