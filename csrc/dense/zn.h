/* zn.h: matrices over Z/qZ, q = p^e a prime power <= 255 (a field when e = 1).
 *
 * One factorisation serves every query (FLINT nmod_mat / LAPACK getrf style):
 *
 *   U A Q = T,   T = [ T11 T12 ]    U: row swaps, unit scalings, unit-lower eliminations
 *                    [  0  T2  ]    Q: column permutation
 *
 * Phase 1 is row echelon with unit pivots only, column by column, exploiting the band
 * (profile) structure of board matrices: the active rows at column c are those whose
 * first non-zero is <= c, and row operations touch only columns up to the largest
 * last-non-zero of the rows seen so far. Entries live in uint16 with delayed modular
 * reduction (a row is reduced only when its bound would overflow). Columns with no unit
 * are skipped; for a field their residual entries are all zero, for a ring the pivot
 * rows' entries there are carried as a short sparse list so row operations stay in the
 * band. Where the active width is large (dense matrices) the columns are processed in
 * panels: row operations touch the panel only, and the rest of each row is updated once
 * per panel, four pivot rows per pass (cache blocking).
 * Phase 2 (rings only): the residual block S (non-pivot rows x skipped columns) has all
 * entries in pZ/qZ; it is factored densely with full pivoting on the p-adic valuation,
 * so each pivot is p^v and divides everything right of and below it (exact division,
 * never by a non-unit). The result is equivalent to the Smith form over Z/p^e:
 * T = D T' with D = diag(1,..,1, p^v_1, ..., 0, ..) and T' unit upper triangular.
 *
 * Composite n is split by CRT into prime powers by the caller (one factorisation each).
 */
#ifndef ML_ZN_H
#define ML_ZN_H
#include <stddef.h>
#include <stdint.h>

typedef struct ml_zn_lu ml_zn_lu_t;

/* A new zero m x r matrix over Z/qZ; q must be a prime power in 2..255.
 * NULL on a bad q or allocation failure. */
ml_zn_lu_t *ml_zn_lu_new(size_t m, size_t r, unsigned q);
void ml_zn_lu_free(ml_zn_lu_t *lu);

/* Fill before factoring. set_dense replaces the matrix by A (m x r, row stride `stride` bytes), reduced
 * mod q; add_coo adds 1 at each (ci[k], tj[k]) (indices must be in range). */
void ml_zn_lu_set_dense(ml_zn_lu_t *lu, const uint8_t *a, size_t stride);
void ml_zn_lu_add_coo(ml_zn_lu_t *lu, const int64_t *ci, const int64_t *tj, size_t nnz);

/* How phase 1 runs: AUTO picks (BITSLICED for q = 3, 4 or 8 when the matrix is dense
 * enough, else BAND); BAND is the profile elimination above; BITSLICED the dense
 * bit-sliced elimination of csrc/dense/bitsliced.c (q = 3, 4 or 8 only): the same pivots from the
 * same row order, so the same factorisation and answers. set_method before
 * factoring: 0, or -1 when the method is unknown, not for this q, or too late;
 * ml_zn_lu_method is the method asked for, after factoring the one used. */
enum { ML_ZN_AUTO = 0, ML_ZN_BAND = 1, ML_ZN_BITSLICED = 2 };
int ml_zn_lu_set_method(ml_zn_lu_t *lu, int method);
int ml_zn_lu_method(const ml_zn_lu_t *lu);
/* Workers of the band elimination's cache-blocked panel updates (1 by default, at most 16;
 * the calling thread one of them): the rows below a panel's pivots are updated in
 * parallel shares, so the factorisation is the same whatever the count. Before factoring:
 * 0, or -1 when too late. */
int ml_zn_lu_set_threads(ml_zn_lu_t *lu, int threads);

/* Factor (once). 0 on success, -1 on allocation failure. */
int ml_zn_lu_factor(ml_zn_lu_t *lu);

unsigned ml_zn_lu_p(const ml_zn_lu_t *lu);
unsigned ml_zn_lu_e(const ml_zn_lu_t *lu);
size_t ml_zn_lu_unit_rank(const ml_zn_lu_t *lu);   /* phase-1 pivots (unit invariants) */
size_t ml_zn_lu_rank(const ml_zn_lu_t *lu);        /* non-zero invariants */
/* |ker A| = p^kernel_log. */
size_t ml_zn_lu_kernel_log(const ml_zn_lu_t *lu);
/* Number of kernel generators (cyclic summands) = r - unit_rank. */
size_t ml_zn_lu_ngens(const ml_zn_lu_t *lu);
/* Kernel generators as rows of H (ngens x r, row stride r) and their orders
 * (each a power of p), largest order first; ker A is their direct sum. 0 / -1 (memory). */
int ml_zn_lu_generators(const ml_zn_lu_t *lu, uint8_t *h, unsigned *orders);
/* Generators [first, first + count) of that list only (clipped to it): h is count x r,
 * orders count entries. Memory O((r + count) * count): a bounded part of a huge kernel. */
int ml_zn_lu_generators_range(const ml_zn_lu_t *lu, size_t first, size_t count, uint8_t *h,
                              unsigned *orders);
/* Solve A X = B for nb right-hand sides stored as COLUMNS: bt is m x nb (row stride nb),
 * xt is r x nb. ok[j] = 1 when column j is solvable (then xt's column j solves it).
 * check = 0 skips the consistency test and the non-unit invariants (pseudo-inverse
 * application G b). 0 / -1 (memory). */
int ml_zn_lu_solve(const ml_zn_lu_t *lu, const uint8_t *bt, size_t nb, uint8_t *xt,
                   uint8_t *ok, int check);
/* det A mod q (square only; the caller checks). */
unsigned ml_zn_lu_det(const ml_zn_lu_t *lu);

/* Helpers exposed for tests. */
unsigned ml_zn_inv(unsigned a, unsigned q);        /* a^-1 mod q, 0 when not a unit */

#endif
