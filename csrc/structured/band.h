/* band.h: the 1-D band chase of the tensor engine (src/modlights/engines/tensor.py).
 *
 * A banded (or circulant) factor F of a product pattern is solved column-parallel:
 * step t sets row yrow[t] of Y (k entries mod n) from row brow[t] of B and up to m
 * earlier rows of Y,
 *     Y[yrow[t]] = inv * B[brow[t]] + sum_q coefs[t][q] * Y[refs[t][q]]   (mod n),
 * entries refs[t][q] < 0 skipped. B may be Y itself (brow[t] = yrow[t]: an update in
 * place). Every coefficient is already reduced (< n); the
 * wider accumulator acc (k entries) holds the sum before the one reduction, through
 * lut (lut[v] = v mod n, lutlen entries) for the sums below lutlen, by % for the others.
 * A step must not read the row it writes (refs[t][q] != yrow[t]), and every sum
 * (inv + sum_q coefs[t][q]) (n - 1) must fit in 32 bits. Over GF(2) (n = 2) the update
 * is a row copy (inv = 1; zero rows when inv = 0) and row XORs (coefficients 1).
 */
#ifndef ML_BAND_H
#define ML_BAND_H
#include <stddef.h>
#include <stdint.h>

void ml_band_chase(const uint8_t *B, ptrdiff_t bstride, uint8_t *Y, ptrdiff_t ystride,
                   size_t k, const int64_t *brow, const int64_t *yrow, const int64_t *refs,
                   const uint32_t *coefs, size_t m, size_t nsteps, unsigned n, unsigned inv,
                   uint32_t *acc, const uint8_t *lut, size_t lutlen);

/* T = A^T for a rows x cols byte matrix A (row strides may be negative), copied in
 * cache-sized tiles. */
void ml_band_transpose(const uint8_t *A, ptrdiff_t astride, uint8_t *T, ptrdiff_t tstride,
                       size_t rows, size_t cols);

#endif
