/* pack.h: packing uint8 tile rows into bit rows (GF(2)) and back. */
#ifndef ML_PACK_H
#define ML_PACK_H
#include <stddef.h>
#include <stdint.h>

/* Words of 64 bits needed for `cols` bits. */
static inline size_t ml_words(size_t cols) { return (cols + 63) / 64; }

/* Pack the low bit of each entry of a rows x cols uint8 matrix (row stride
 * `src_stride` bytes) into rows of 64-bit words (row stride `dst_stride`
 * words, dst_stride >= ml_words(cols)). Bit j of row i is bit (j % 64) of word
 * j / 64. Padding bits are cleared. */
void ml_pack_bits(const uint8_t *src, size_t rows, size_t cols, size_t src_stride,
                  uint64_t *dst, size_t dst_stride);

/* Inverse of ml_pack_bits: writes 0/1 bytes. */
void ml_unpack_bits(const uint64_t *src, size_t rows, size_t cols, size_t src_stride,
                    uint8_t *dst, size_t dst_stride);

#endif
