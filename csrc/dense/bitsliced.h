/* bitsliced.h: bit-sliced dense row echelon over GF(3), Z/4 and Z/8.
 *
 * An entry x in {0, 1, 2} of GF(3) is two bits in two bit-planes, P = [x == 1] and
 * M = [x == 2], 64 entries per pair of words. Negation swaps the planes; x + y and
 * x - y take 7 word operations (4 OR, 3 XOR) per 64 entries:
 *
 *   x + y:  t = (xP | yM) ^ (xM | yP);  P = (xM | yM) ^ t;  M = (xP | yP) ^ t
 *   x - y:  the same with yP and yM exchanged.
 *
 * An entry of Z/4 is its two bits, L and H, with the carry: x + y is L = xL ^ yL,
 * H = xH ^ yH ^ (xL & yL) (x - y: the carry is yL & ~xL; x + 2y: H ^= yL); an entry of
 * Z/8 its three bits, added with a ripple carry, c y built from shifted copies of y.
 * The units are the odd entries, so the same elimination runs the ring's unit-pivot
 * phase; the columns without a unit are skipped and their entries carried, as
 * csrc/dense/zn.c does.
 *
 * The elimination is right-looking and blocked by 64-column panels (one word): inside a
 * panel the pivots are found and every row below is reduced on the panel's word only,
 * recording the multipliers; then the rest of every row is updated once per panel:
 * the panel's pivot rows in order, and every other row through Method of Four Russians
 * tables (all q^g combinations of g pivot rows, one table row subtracted per row and
 * group), built per column chunk so a table stays in cache. Row swaps are recorded
 * LAPACK style (interleaved with the steps), exactly as csrc/dense/zn.c records its phase 1,
 * so zn.c serves every query (solve, kernel, det, inverse) from this factorisation.
 * The word loops are compiled for a portable path and for AVX2 (target attributes, no
 * -march=native), chosen at run time through csrc/base/cpu.h. Ctrl-C is polled per panel
 * and per table (csrc/base/interrupt.h). */
#ifndef ML_BITSLICED_H
#define ML_BITSLICED_H
#include <stddef.h>
#include <stdint.h>

/* Offset in `lpool` of the multipliers of step k for an m-row matrix:
 * sum_{j<k} (m - 1 - j). Step k has m - 1 - k of them (rows k+1 .. m-1). */
size_t ml_gf3_loff(size_t m, size_t k);

/* Phase 1 of csrc/dense/zn.c (unit pivots, column by column, the first row in the current
 * order with a unit) on the m x r matrix a over Z/qZ, q = 3, 4 or 8 (row i at a + i *
 * stride, entries 0..q-1 as uint16; this is the working matrix of csrc/dense/zn.c). rows:
 * on entry the initial order (position i holds original row rows[i]), on return the
 * final one. For each step k < K1 it records the pivot column pc[k], the row swap
 * ipiv[k] (positions k <-> ipiv[k] >= k, done before the step), the pivot's inverse
 * uinv[k] (the pivot itself: every unit of these rings is its own inverse; the pivot
 * row is scaled by it) and the multipliers L of the rows
 * at positions k+1 .. m-1 at lpool + ml_gf3_loff(m, k) (row i loses L * pivot row).
 * Columns without a unit below the pivots are skipped; over Z/4 and Z/8 their (even)
 * entries take part in every later row operation. On return a holds the reduced rows:
 * U at rows[0 .. K1) (1 at pc[k], zero at earlier pivot columns; over the rings possibly
 * non-zero at skipped columns left of pc[k]) and the residual rows at rows[K1 .. m)
 * (zero for GF(3); over the rings non-zero only at skipped columns).
 * Arrays: pc, ipiv, uinv min(m, r) entries, lpool ml_gf3_loff(m, min(m, r)) bytes,
 * rows m entries. Returns K1, -1 on allocation failure or a bad q, -2 when interrupted. */
long ml_bitsliced_echelon(unsigned q, size_t m, size_t r, uint16_t *a, size_t stride,
                          size_t *pc, size_t *ipiv, uint8_t *uinv, uint8_t *lpool,
                          size_t *rows);

#endif
