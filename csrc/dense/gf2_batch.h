/* gf2_batch.h: many right-hand sides of one GF(2) system, 64 to a word.
 *
 * A stack of k states (k x m bytes, one board a row) is packed transposed: the
 * m x k bit matrix B^T, bit (j, i) = low bit of byte j of board i, so one word holds
 * one cell of 64 boards. A solve is then the product Y^T = S^T B^T with the stored
 * solve matrix S (gf2.h, ml_gf2_solve_matrix): a few long rows instead of k rows of
 * one word each (each padded to a 64-byte row). Bytes become bits through the low
 * bits of the block's bytes read as one contiguous stream (SIMD movemask under the
 * run-time path of cpu.h, a multiply trick otherwise), then 64 x 64 bit transposes;
 * unpacking runs the same steps backwards. */
#ifndef ML_GF2_BATCH_H
#define ML_GF2_BATCH_H
#include "dense/gf2.h"

/* The m x k matrix B^T of the low bits of a k x m byte array (row stride src_stride
 * >= m bytes). NULL when out of memory. */
ml_gf2_t *ml_gf2_pack_u8_cols(const uint8_t *src, size_t k, size_t m, size_t src_stride);

/* From Yt = S^T B^T (rows [0, r): the solutions, rows [r, Yt->nrows): the
 * consistency checks, all zero iff solvable; Yt->ncols = k): ok[i] = 1 iff board i is
 * solvable, x (k x r bytes, row stride r) its solution as 0/1 bytes, all 0 when
 * unsolvable. */
void ml_gf2_unpack_solutions_cols(const ml_gf2_t *Yt, size_t r, uint8_t *x, uint8_t *ok);

/* The same answers (x, ok) for a board of at most 64 cells whose solve matrix S
 * (m x q, q <= 64: solutions in columns [0, r), checks right of them) fits a word a
 * row, without transposes: each board's m bits, read from the stream of its block's
 * low bits, index ceil(m / 8) tables of the 256 combinations of 8 rows of S (Four
 * Russians), one word out per board. Returns 0; -1 when the sizes do not fit, -2
 * when out of memory (nothing written then). */
int ml_gf2_solve_bytes_small(const ml_gf2_t *S, size_t r, const uint8_t *src, size_t k,
                             size_t src_stride, uint8_t *x, uint8_t *ok);

#endif
