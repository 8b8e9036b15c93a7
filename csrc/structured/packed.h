/* packed.h: GF(2) grid states as np.packbits rows, worked on without unpacking.
 *
 * Layout: a rows x cols bit matrix is rows of ceil(cols / 8) bytes, column 8k + j in
 * bit 7 - j of byte k (np.packbits(state, axis=1)); bits past column cols are ignored
 * on input and written as 0. Eight bytes read big-endian are an "MSB-first" word:
 * column 64 i + j of the row at bit 63 - j of word i, so neighbouring columns are one
 * shift apart (towards higher columns: >> 1).
 *
 * - ml_packed_load_row / ml_packed_store_row: a packed row <-> MSB-first words;
 * - ml_packed_from_bytes / ml_packed_to_bytes: one byte a tile (0 / 1) <-> packed rows;
 * - ml_packed_transpose: the transpose of a bit matrix (or of a strip of rows), in
 *   64 x 64 blocks (ml_gf2_transpose64; its AVX2 clone where the CPU has it);
 * - ml_packed_apply: s + A x for a uniform pattern (any offsets, tori too), streamed a
 *   row at a time, counting the tiles that differ from a constant target.
 */
#ifndef ML_PACKED_H
#define ML_PACKED_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t ml_load_be(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

static inline void ml_store_be(uint8_t *p, uint64_t v)
{
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
}

static inline uint64_t ml_rev_bits_in_bytes(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    return ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
}

/* LSB-first word <-> MSB-first word (bit j <-> bit 63 - j). */
static inline uint64_t ml_rev64(uint64_t x) { return ml_rev_bits_in_bytes(__builtin_bswap64(x)); }

/* The valid bits of the last MSB-first word of a row of w columns. */
static inline uint64_t ml_packed_tail_mask(size_t w)
{
    return (w % 64) ? ~0ull << (64 - w % 64) : ~0ull;
}

/* Row of w columns (ceil(w / 8) bytes) -> ceil(w / 64) MSB-first words, bits past
 * column w cleared. */
void ml_packed_load_row(const uint8_t *src, size_t w, uint64_t *dst);
/* ceil(w / 64) MSB-first words -> ceil(w / 8) bytes (the inverse of load_row; the
 * words' bits past column w must be 0). */
void ml_packed_store_row(const uint64_t *src, size_t w, uint8_t *dst);

/* Rows of one byte a tile -> packed rows: src is rows x cols bytes (row i at src + i *
 * sstride; bit 0 of each byte read, the rest ignored), dst rows of ceil(cols / 8) bytes
 * (row i at dst + i * dstride; bits past column cols written 0). O(rows cols). */
void ml_packed_from_bytes(const uint8_t *src, size_t sstride, size_t rows, size_t cols,
                          uint8_t *dst, size_t dstride);
/* The inverse: packed rows (row i at src + i * sstride, bits past column cols ignored)
 * -> rows x cols bytes 0 / 1 (row i at dst + i * dstride). O(rows cols). */
void ml_packed_to_bytes(const uint8_t *src, size_t sstride, size_t rows, size_t cols,
                        uint8_t *dst, size_t dstride);

/* T = A^T: A is rows x cols bits (row i at A + i * astride, ceil(cols / 8) bytes read),
 * T is cols x rows bits (row j at T + j * tstride; ceil(rows / 8) bytes written a row,
 * bits past column rows 0). Bits of A past column cols are ignored. */
void ml_packed_transpose(const uint8_t *A, size_t astride, size_t rows, size_t cols,
                         uint8_t *T, size_t tstride);

/* s + A x over GF(2) for an h x w grid board with one pattern: tapping (r, c) flips
 * (r + dr[k], c + dc[k]) for the noff offsets (each listed once: the offsets of odd
 * count); wrap: indices mod h and w (dr in 0..h-1, dc in 0..w-1), else offsets that
 * leave the board flip nothing. s NULL means zero; out (NULL: not written; may be s)
 * gets s + A x. Returns the number of tiles where s + A x differs from tc (0 / 1);
 * (size_t)-1 when out of memory. */
size_t ml_packed_apply(size_t h, size_t w, int wrap, size_t noff, const int64_t *dr,
                       const int64_t *dc, const uint8_t *s, unsigned tc, const uint8_t *x,
                       uint8_t *out);

#endif
