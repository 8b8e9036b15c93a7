/* coset_batch.h: the minimal-length search of coset.h for many cosets of one kernel,
 * and over one sub-cube of a coset (the unit of work an executor task runs).
 *
 * Batch: the boards of one Solver share ker A, so x_b + ker A is searched for every
 * board b with the generators prepared once. Small kernels are expanded into a table
 * of every kernel element (2^d vectors over GF(2), prod(orders) over Z/n) once per
 * batch, and each board takes min length(x_b + K_j) over the table (GF(2): one XOR and
 * popcount a word); larger kernels run the Gray-code search of coset.h per board.
 * Boards are shared by worker threads. Every board's coset is searched exhaustively.
 *
 * Sub-cube: the coefficients of generators [L, k) are fixed by a corner index (mixed
 * radix, generator L the lowest digit); the 2^L (prod of the inner orders) elements
 * of that sub-cube are walked in Gray-code order from the corner. Only elements
 * strictly shorter than `bound` are reported, and the whole sub-cube is skipped when
 * the coordinates no inner generator touches already reach the bound.
 */
#ifndef ML_COSET_BATCH_H
#define ML_COSET_BATCH_H
#include <stddef.h>
#include <stdint.h>

#include "search/coset.h"

/* GF(2). X0: m rows of the particular solutions, row i at X0 + i * xs, r bits (bits
 * r.. of each row are ignored); basis: k rows of nw = ceil(r / 64) words (stride nw),
 * k <= 62. Writes len[i] (the least weight of row i's coset) and, when best is not
 * NULL, a least-weight element into best + i * bs (nw words). Returns 0, or -1 when
 * out of memory or k > 62. */
int ml_coset_min_gf2_many(const uint64_t *X0, size_t m, size_t xs, size_t r,
                          const uint64_t *basis, size_t k, int threads,
                          int64_t *len, uint64_t *best, size_t bs);

/* Z/nZ, 2 <= n <= 255. X0: m rows of r bytes (stride xs) in 0..n-1; gens: k rows of
 * r bytes (stride r) with additive orders orders[i] (prod < 2^62). As above, best rows
 * (r bytes) at best + i * bs when best is not NULL. Returns 0 or -1. */
int ml_coset_min_zn_many(const uint8_t *X0, size_t m, size_t xs, const uint8_t *gens,
                         const uint32_t *orders, size_t k, size_t r, unsigned n,
                         int threads, int64_t *len, uint8_t *best, size_t bs);

/* GF(2) sub-cube: x0 (nw words), basis k x nw, inner generators [0, L) (L <= 62),
 * corner bits for generators [L, k). Returns the least weight found below bound
 * (best holds that element) or bound when none is shorter (best untouched);
 * st->examined / st->pruned count elements, st->complete is 1. -1: out of memory. */
int64_t ml_coset_sub_gf2(const uint64_t *x0, const uint64_t *basis, size_t k, size_t nw,
                         size_t L, uint64_t corner, int64_t bound,
                         uint64_t *best, ml_coset_stats *st);

/* Z/nZ sub-cube: as above with generators of orders orders[i]; corner is the mixed-
 * radix index of the coefficients of generators [L, k) (generator L lowest). */
int64_t ml_coset_sub_zn(const uint8_t *x0, const uint8_t *gens, const uint32_t *orders,
                        size_t k, size_t r, unsigned n, size_t L, uint64_t corner,
                        int64_t bound, uint8_t *best, ml_coset_stats *st);

#endif
