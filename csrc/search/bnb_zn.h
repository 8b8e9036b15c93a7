/* bnb_zn.h: the least-length element of a coset x0 + span(H) over Z/nZ by depth-first
 * branch and bound, with the "tree" proof of docs/certificates.md (bound "classes").
 *
 * The k generators are first put in a search order (ml_bnb_zn_order): the search fixes
 * the coefficient of the last one first, so the generators whose taps the others share
 * most are put last (fixed first) and the ones left free below are as disjoint as the
 * basis allows. A node fixes c_{k-1}..c_{k-d} (y = x0 + sum of the fixed multiples) and
 * is bounded by the class bound over the f = k - d free generators h_0..h_{f-1}: tap j's
 * column u_j over them is 0 (class zero, a_j = 0) or has a first non-zero entry e; with
 * gcd(e, n) = 1 the class key is e^-1 u_j and a_j = e, else the key is u_j and a_j = 1.
 * The free part adds a_j s_g to every tap j of class g (s_g = key . c), so
 *     bound = sum over classes g of min over s in 0..n-1 of sum_{j in g} ((y_j + a_j s) mod n)
 * is at most the length of every element below the node. A child whose bound reaches the
 * best length so far is pruned (its prefix recorded); a node with m free generators (a
 * leaf) is walked whole (a reflected Gray code, prod(orders[0..m)) elements). Children
 * are visited in increasing order of their bounds (ties: the smaller coefficient).
 *
 * Single-threaded and deterministic: the same arguments give the same answer, proof and
 * statistics everywhere. The budget counts nodes plus walked elements; the deadline
 * (CLOCK_MONOTONIC ns, ml_driver_now_ns) and ml_interrupt_poll are checked every
 * min(4096, 2^22 / (r n)) of them (at least every one; well within a second). */
#ifndef ML_BNB_ZN_H
#define ML_BNB_ZN_H
#include <stddef.h>
#include <stdint.h>

#define ML_BNB_OK 0
#define ML_BNB_STOPPED 1      /* budget or deadline: best holds the best found */
#define ML_BNB_INTERRUPTED 2  /* ml_interrupt_poll said stop: best holds the best found */
#define ML_BNB_ENOMEM 3
#define ML_BNB_EINVAL 4       /* arguments out of range (see ml_bnb_zn_min) */
#define ML_BNB_TOO_BIG 5      /* finished, best is least, but the proof passed
                               * ML_BNB_MAX_PROOF words (the search went on without it) */

/* Limits: generators (ml_bnb_zn_min refuses more), proof words (prefix entries plus one
 * a prefix), leaf elements. */
#define ML_BNB_MAX_GENS 1024
#define ML_BNB_MAX_PROOF ((uint64_t)1 << 25)
#define ML_BNB_LEAF_ELEMENTS 32

typedef struct {
    uint64_t nodes;     /* nodes bounded */
    uint64_t examined;  /* elements of walked leaves */
    uint64_t leaves;    /* leaves walked */
    int complete;       /* 1: the tree was finished; the best is least */
} ml_bnb_stats;

/* The proof of a finished search (malloc'd; ml_bnb_proof_free). The generators in
 * search order and the prefixes of the pruned nodes relative to the answer x (the
 * certificate's "taps"): words[] holds for each prefix its length d then c_{k-1} ..
 * c_{k-d}. */
typedef struct {
    size_t k, r;
    unsigned m;         /* leaf_dim */
    uint8_t *gens;      /* k x r, search order */
    uint32_t *orders;   /* k */
    uint32_t *words;
    uint64_t nwords, npruned, cap;
} ml_bnb_proof;

void ml_bnb_proof_free(ml_bnb_proof *p);

/* Fewer non-zero taps in the basis (the class bound is exact where the free generators'
 * taps are disjoint): while a pass changes something (at most 8 passes), h_i += c h_a
 * when that has fewer non-zero entries and the order of c h_a divides o_i (an
 * automorphism of the direct sum of the Z/o_i: the generators still generate the same
 * group, each of the same order). In place; skipped when k^2 max(o) r > 2^28. 0,
 * ML_BNB_ENOMEM or ML_BNB_INTERRUPTED (polled between passes). O(k^2 max(o) r) a pass. */
int ml_bnb_zn_sparsify(uint8_t *gens, const uint32_t *orders, size_t k, size_t r, unsigned n);

/* The search order of k generators (gens: k x r, entries < n): perm[t] = the index in
 * gens of the t-th generator of the search (t = k - 1 is fixed first). Greedy from the
 * top: the next one fixed is the free generator with the most taps that another free
 * generator also touches, then the most non-zero taps, then the least index. 0, or
 * ML_BNB_ENOMEM. O(k x total non-zeros). */
int ml_bnb_zn_order(const uint8_t *gens, size_t k, size_t r, uint32_t *perm);

/* The class bound of y (r entries < n) over the first f generators of gens (k x r, any
 * k >= f): the reference the search and its tests use. -1 when memory runs out. */
int64_t ml_bnb_zn_bound(const uint8_t *y, const uint8_t *gens, size_t f, size_t r, unsigned n);

/* Branch and bound over x0 + span(gens) (x0: r entries < n, the root and the first
 * incumbent: pass a greedy descent's answer; gens: k x r entries < n, generator i of
 * additive order orders[i] >= 2 dividing n, listed in search order (ml_bnb_zn_order);
 * 2 <= n <= 255 (n = 2 has the transform search); k <= ML_BNB_MAX_GENS). best (r bytes):
 * on return the least element found (x0 when none is shorter). budget: nodes plus
 * walked elements (0: none); deadline_ns: <= 0 none. proof (may be NULL): filled when
 * the search finishes (ML_BNB_OK): the prefixes relative to best. Returns ML_BNB_*;
 * *len the length of best (also when stopped). Memory O((k + 1) r) bytes plus the
 * classes of every free count, O((k - m + 1) r) words. */
int ml_bnb_zn_min(const uint8_t *x0, const uint8_t *gens, const uint32_t *orders, size_t k,
                  size_t r, unsigned n, uint64_t budget, int64_t deadline_ns, uint8_t *best,
                  int64_t *len, ml_bnb_proof *proof, ml_bnb_stats *st);

#endif
