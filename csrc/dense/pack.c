#include "dense/pack.h"
#include <string.h>

void ml_pack_bits(const uint8_t *src, size_t rows, size_t cols, size_t src_stride,
                  uint64_t *dst, size_t dst_stride)
{
    size_t nw = ml_words(cols);
    for (size_t i = 0; i < rows; i++) {
        const uint8_t *s = src + i * src_stride;
        uint64_t *d = dst + i * dst_stride;
        memset(d, 0, dst_stride * sizeof(uint64_t));
        for (size_t w = 0; w < nw; w++) {
            size_t base = w * 64;
            size_t end = base + 64 < cols ? base + 64 : cols;
            uint64_t word = 0;
            for (size_t j = base; j < end; j++)
                word |= (uint64_t)(s[j] & 1u) << (j - base);
            d[w] = word;
        }
    }
}

void ml_unpack_bits(const uint64_t *src, size_t rows, size_t cols, size_t src_stride,
                    uint8_t *dst, size_t dst_stride)
{
    for (size_t i = 0; i < rows; i++) {
        const uint64_t *s = src + i * src_stride;
        uint8_t *d = dst + i * dst_stride;
        for (size_t j = 0; j < cols; j++)
            d[j] = (uint8_t)((s[j / 64] >> (j % 64)) & 1u);
    }
}
