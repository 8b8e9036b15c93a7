/* coset.h: minimal-length search over a coset x0 + ker(A).
 *
 * The solutions of A x = b form the coset x0 + ker A. Its element of least
 * physical length (sum of tap counts in 0..n-1) is found by enumerating the
 * coset in Gray-code order: each step adds (or subtracts) one kernel generator
 * and updates the length incrementally, touching only the coordinates (GF(2):
 * the 64-bit words) where that generator is non-zero.
 *
 * The space is cut into chunks by its top coefficients; chunks are shared by
 * worker threads, and a chunk whose fixed part already reaches the best length
 * found is skipped (a sound sub-cube bound). A budget (elements) and a deadline
 * (seconds) stop the search early; `complete` then says 0 and the best element
 * found so far is returned. Of equally short elements a complete search returns the
 * first, in its walk, of the lowest chunk that holds one, on any number of threads.
 */
#ifndef ML_COSET_H
#define ML_COSET_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t examined;   /* coset elements whose length was computed */
    uint64_t pruned;     /* coset elements skipped by the sub-cube bound */
    int complete;        /* 1: every element was examined or soundly pruned */
} ml_coset_stats;

/* GF(2). x0: nw words; basis: k rows of nw words (row stride nw), k <= 62.
 * On return best (nw words) holds a least-weight element found; returns its weight.
 * budget: max elements to examine (0 = no limit); seconds: wall-clock limit
 * (<= 0 = none); threads: worker threads (>= 1). */
int64_t ml_coset_min_gf2(const uint64_t *x0, const uint64_t *basis, size_t k, size_t nw,
                         uint64_t budget, double seconds, int threads,
                         uint64_t *best, ml_coset_stats *st);

/* Z/nZ, 2 <= n <= 255. x0: r bytes in 0..n-1; gens: k rows of r bytes (stride r),
 * generator i of additive order orders[i] (>= 2), the coset being
 * { x0 + sum c_i gens_i : 0 <= c_i < orders[i] } with every element listed once.
 * Requires prod(orders) < 2^63. Returns the least length found, best (r bytes). */
int64_t ml_coset_min_zn(const uint8_t *x0, const uint8_t *gens, const uint32_t *orders,
                        size_t k, size_t r, unsigned n,
                        uint64_t budget, double seconds, int threads,
                        uint8_t *best, ml_coset_stats *st);

#endif
