/* pack.c: uint8 rows <-> rows of 64-bit words (GF(2)), the one packer of the C core
 * (dense/gf2.c packs its matrices with it). */
#include "dense/pack.h"
#include <string.h>

void ml_pack_bits(const uint8_t *src, size_t rows, size_t cols, size_t src_stride,
                  uint64_t *dst, size_t dst_stride)
{
    const uint64_t lsb = 0x0101010101010101ull, magic = 0x0102040810204080ull;
    for (size_t i = 0; i < rows; i++) {
        const uint8_t *s = src + i * src_stride;
        uint64_t *d = dst + i * dst_stride;
        size_t j = 0;
        memset(d, 0, dst_stride * sizeof(uint64_t));
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        for (; j + 8 <= cols; j += 8) {
            uint64_t x;
            memcpy(&x, s + j, 8);              /* little-endian: byte t -> bits 8t.. */
            /* gather the low bit of byte t into bit 56 + t (no carries) */
            uint64_t b = (((x & lsb) * magic) >> 56) & 0xff;
            d[j >> 6] |= b << (j & 63);
        }
#endif
        for (; j < cols; j++)
            d[j >> 6] |= (uint64_t)(s[j] & 1u) << (j & 63);
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
