/* driver.h: the minimal-search drivers over a kernel's generators (the policy layer of
 * modlights.search.minimal, shared by the Python extension and the WebAssembly core).
 *
 * So far the greedy descent, the answer of a search that ran out of budget or time:
 * given a solution x of A x = b and generators h_1..h_k of ker A with additive orders
 * o_1..o_k (every x + sum c_i h_i is a solution), repeatedly, for each generator in
 * order, add the multiple c h_i (1 <= c < o_i) that makes x shortest (the sum of its
 * entries, each in 0..n-1), the least such c on ties, when that is shorter than x; stop
 * when a whole pass changes nothing. The result is a local minimum: no single
 * generator's multiple shortens it. Deterministic: the same x, generators and orders give
 * the same result everywhere. */
#ifndef ML_SEARCH_DRIVER_H
#define ML_SEARCH_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/* Returned by ml_driver_descend. */
#define ML_DRIVER_OK 0
#define ML_DRIVER_STOPPED 1      /* the deadline passed: x is the best so far */
#define ML_DRIVER_INTERRUPTED 2  /* ml_interrupt_poll said stop: x is the best so far */

/* The descent of x (L entries in 0..n-1, improved in place) over the k generators H (k
 * rows of L entries in 0..n-1, row-major) of orders orders[0..k) (each divides n; one
 * past n is taken as n, so a wrong order never loops past n multiples). deadline_ns: a
 * CLOCK_MONOTONIC time in nanoseconds checked before each generator (<= 0: none); the
 * interrupt flag is polled there too. O(passes x sum(o_i) x L); each pass that changes x
 * shortens it, so at most sum(x) passes. */
int ml_driver_descend(const uint8_t *H, size_t k, size_t L, const uint32_t *orders, unsigned n,
                      uint8_t *x, int64_t deadline_ns);

/* The CLOCK_MONOTONIC time in nanoseconds (the clock of deadline_ns). */
int64_t ml_driver_now_ns(void);

#endif
