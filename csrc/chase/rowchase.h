/* rowchase.h: the symbolic chase with online elimination (row-state chase).
 *
 * The plan of chase.h (forcing codes, symbols, residual tiles and their events) is
 * walked once, tap by tap in row-major order. Every tap still readable (the ring of
 * the plan) holds its affine form over the *live* symbols: a row of columns (GF(2):
 * bit-packed words; GF(3): two bit planes, csrc/base/bitslice.h; other moduli: bytes) plus
 * one constant column per right-hand side. A
 * residual equation is used the moment it appears:
 *
 *   - it has a non-zero coefficient on a live symbol: that symbol is eliminated
 *     (the youngest one: its column is non-zero on the fewest readable taps), i.e.
 *     substituted in every readable tap, and its column is freed for a later symbol;
 *     the elimination record (symbol = affine form of the symbols live then) is kept;
 *   - it has none: a consistency check (a non-zero constant: that right-hand side is
 *     unsolvable; with no right-hand side it adds nothing).
 *
 * So the live symbols stay about one row wide however many holes or locked tiles the
 * board has, and no residual matrix is ever built. When every column is taken, the
 * symbols no readable tap holds any more are retired (free: nothing later can bring
 * them back) and their columns reused. The retired symbols and those still live at
 * the end are free: |ker A| = p^free. Symbol values for the numeric replay (ml_chase_numeric)
 * follow from free-symbol values by the records, walked backwards.
 *
 * Over a ring Z/p^e (the plan's n or a prime-power factor q of it: composite n run
 * once a factor, the parts combined by CRT by the caller) an equation eliminates its
 * youngest symbol with a *unit* coefficient; one whose coefficients are all non-zero
 * multiples of p is kept pending: caught up lazily on the records like a tap (so it
 * stays over live symbols, and holds them live), carried to the end (substitutions
 * only add multiples of p to its coefficients: none becomes a unit) and handed out as
 * a small residual system over the free symbols (ml_rowchase_pending), which the
 * caller solves with valuation pivots (csrc/dense/zn.c). Then |ker A| = q^retired x
 * |ker of the pending system| and the free symbols' values must solve it. */
#ifndef ML_ROWCHASE_H
#define ML_ROWCHASE_H
#include <stddef.h>
#include <stdint.h>

#include "chase/chase.h"

typedef struct ml_rowchase ml_rowchase;

/* 1: GF(3) rows bit-sliced (two planes of bits, csrc/base/bitslice.h; the default), 0: bytes,
 * when the environment has MODLIGHTS_BITSLICED=0 (for before / after measurements). Read once,
 * at the first call. */
int ml_rowchase_bitsliced(void);
/* Set it for this process (the C tests compare both representations; the Python module
 * does not bind it: the environment variable is the switch). */
void ml_rowchase_set_bitsliced(int on);

/* Run the chase of plan p mod q (a prime power dividing the plan's n; 0: the plan's
 * n, then a prime power). b: k right-hand sides, k x (h*w) bytes (values < the plan's
 * n, ignored at holes; NULL when k == 0). max_bytes: most memory the live rows, the
 * pending equations and the records may take. Returns NULL and sets *err: 1 bad
 * arguments (q not a prime power dividing n), 2 out of memory, 3 interrupted
 * (interrupt.h), 4 over max_bytes. */
ml_rowchase *ml_rowchase_run(const ml_chase *p, int q, const uint8_t *b, size_t k,
                             size_t max_bytes, int *err);
void ml_rowchase_free(ml_rowchase *R);
/* A lower bound on the live symbols' width, before running: the most symbols made
 * by a tap minus the equations met by then (each eliminates one at most); (size_t)-1
 * when out of memory. */
size_t ml_rowchase_min_width(const ml_chase *p);

/* Free symbols (live at the end or retired), symbols eliminated, consistency checks,
 * symbols retired (a column no readable tap held any more: free, its column reused),
 * the widest row of live symbols (columns), bytes of the records. */
size_t ml_rowchase_nfree(const ml_rowchase *R);
size_t ml_rowchase_neliminated(const ml_rowchase *R);
size_t ml_rowchase_nchecks(const ml_rowchase *R);
size_t ml_rowchase_nretired(const ml_rowchase *R);
size_t ml_rowchase_width(const ml_rowchase *R);
size_t ml_rowchase_record_bytes(const ml_rowchase *R);
/* Pending equations left at the end (0 over a prime) and the system they make:
 * a[npend x nfree] coefficients on the free symbols (order of ml_rowchase_free_symbols),
 * c[npend x k] constants (c NULL: not asked); the free symbols u must give
 * a u + c_j = 0 (mod q). */
size_t ml_rowchase_npending(const ml_rowchase *R);
void ml_rowchase_pending(const ml_rowchase *R, uint8_t *a, uint8_t *c);
/* ok[j] = 1 when right-hand side j passed every consistency check (k entries). */
void ml_rowchase_ok(const ml_rowchase *R, uint8_t *ok);
/* The free symbols (nfree symbol numbers, ascending). */
void ml_rowchase_free_symbols(const ml_rowchase *R, int64_t *out);
/* Symbol values z[nsym] from the free symbols' values u[nfree] (in the order of
 * ml_rowchase_free_symbols; NULL: zeros) and right-hand side j (j < k), or the
 * homogeneous system (j < 0: kernel vectors). Returns 0, 2 on out of memory. */
int ml_rowchase_symbols(const ml_rowchase *R, long j, const uint8_t *u, uint8_t *z);

#endif
