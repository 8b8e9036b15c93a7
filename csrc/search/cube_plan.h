/* cube_plan.h: search/cube.py in C, the GF(2) transform search of a coset x0 + span(H)
 * past enumeration: the plan (the generators rebased into m low and kh = k - m high
 * ones, the board's symmetries that act on the leaves) and the search over it in
 * batches of corners by cube.h's Walsh-Hadamard leaves.
 *
 * The plan (cube.py's plan): H is brought to reduced echelon form (rows sorted by
 * weight, then as integers with tap j the bit j); the low generators are, when some
 * symmetries keep the coset (P x0 - x0 in span(H)), a basis of a subspace invariant
 * under them built from orbit spans (densest rows first, m_aim <= m <= m_aim + 2 with
 * m_aim = max(min(k, ML_CUBE_LOW_DIM), k - 63)), else (none kept, or no such subspace)
 * the m_aim densest rows and no symmetry; the high ones the rows that complete the
 * basis. Each symmetry used becomes an affine map of the high coefficients (the images
 * of the high generators and of the zero leaf, in the rebased basis). Every step is
 * cube.py's, in its order, so the plan (and everything after it) is the same.
 *
 * The search (cube.py's search): a corner fixes the top kh - inner high coefficients
 * (inner = min(kh, ML_CUBE_CORNER_LOG)) and covers 2^(inner + m) coset elements; the
 * corners are walked in order in calls of about ML_CUBE_CALL_SECONDS, each given the
 * best length so far as its bound, until `steps` elements' worth of whole corners, the
 * deadline, or a best of length 0. Proved (complete) when every corner was walked.
 * Progress (ML_PHASE_SEARCH, coset elements) is reported after every call; the stop
 * flag is polled inside them (base/interrupt.h). */
#ifndef ML_CUBE_PLAN_H
#define ML_CUBE_PLAN_H

#include "search/cube.h"

#include <stddef.h>
#include <stdint.h>

#define ML_CUBE_LOW_DIM 16        /* the leaf dimension aimed at */
#define ML_CUBE_CORNER_LOG 10     /* leaves per corner at most: 2^ML_CUBE_CORNER_LOG */
#define ML_CUBE_CALL_SECONDS 0.3  /* what one call of cube.h aims at */
#define ML_CUBE_MIN_NULLITY 22    /* minimal.py takes the transform from this nullity on */
#define ML_CUBE_MIN_STEPS ((uint64_t)1 << (ML_CUBE_LOW_DIM + 2 + ML_CUBE_CORNER_LOG))
#define ML_CUBE_MAX_NULLITY (63 + 24)

/* Status of the functions below. */
#define ML_CUBE_OK 0
#define ML_CUBE_ENOMEM (-1)
#define ML_CUBE_EINVAL (-2)       /* dependent rows, too many, a symmetry off the kernel */
#define ML_CUBE_STOPPED (-3)      /* the stop flag (base/interrupt.h) was seen */

typedef struct {
    size_t n_taps;                /* N */
    unsigned k, m, kh;            /* generators, low ones, high ones */
    uint8_t *x0;                  /* N: the coset's x0, entries 0/1 */
    uint8_t *gens;                /* k x N, 0/1: the m low generators, then the kh high */
    uint32_t *col;                /* N: low column of each tap (cube.h) */
    uint32_t *sup_start, *sup_idx;/* supports of the high generators (cube.h) */
    unsigned ng;                  /* symmetries used */
    uint64_t *sym_mat, *sym_shift;/* ng x kh, ng: their maps of the high coefficients */
    size_t *sym_used;             /* ng: their indices in the list given to the plan */
    ml_cube_gf2 P;                /* the problem of cube.h, pointing into the above */
} ml_cube_plan;

typedef struct {
    int64_t length;               /* of the best element (x0's weight when none shorter) */
    int complete;                 /* every corner walked (or length 0): proved */
    uint64_t covered;             /* coset elements in the corners walked */
    uint64_t examined;            /* elements in the leaves transformed */
    uint64_t skipped;             /* elements in the leaves skipped by symmetry */
    uint64_t total;               /* 2^k; counts saturate at UINT64_MAX */
} ml_cube_result;

/* Whether minimal.py's transform search takes a coset: GF(2), 0 < n_taps <=
 * ML_CUBE_MAX_TAPS, ML_CUBE_MIN_NULLITY <= k <= ML_CUBE_MAX_NULLITY (every order 2),
 * and a budget of at least min(ML_CUBE_MIN_STEPS, 2^k) elements (UINT64_MAX: none). */
int ml_cube_applies(unsigned n, size_t n_taps, size_t k, const uint32_t *orders,
                    uint64_t steps);

/* The plan of x0 + span(H): x0 (n_taps bytes) and H (k x n_taps bytes) taken mod 2, H
 * independent; sym_taps: nsym permutations of the taps (n_taps entries each, the image
 * of tap j) preserving A. *p filled (free with ml_cube_plan_free, also after a failure).
 * ML_CUBE_OK, ML_CUBE_ENOMEM, or ML_CUBE_EINVAL (H dependent or of more than
 * ML_CUBE_MAX_NULLITY rows, more than ML_CUBE_MAX_TAPS taps, a symmetry that is no
 * permutation or does not map span(H) into itself). O(k^2 N / 64) plus, with
 * symmetries, O((k + nsym) k N / 64). */
int ml_cube_plan_make(const uint8_t *x0, const uint8_t *H, size_t k, size_t n_taps,
                      const uint64_t *sym_taps, size_t nsym, ml_cube_plan *p);
void ml_cube_plan_free(ml_cube_plan *p);

/* A plan from its parts (a copy sent to a worker): x0 (n_taps bytes, 0/1), gens (k x
 * n_taps, 0/1, the m low ones first), ng maps (sym_mat ng x (k - m) words, sym_shift
 * ng words, each of k - m bits). ML_CUBE_EINVAL unless m <= ML_CUBE_MAX_LOW, k - m <=
 * 63, n_taps <= ML_CUBE_MAX_TAPS, ng <= ML_CUBE_MAX_MAPS and every entry and word is
 * in range (the generators' independence is not checked: a copy of a plan made by
 * ml_cube_plan_make has it). */
#define ML_CUBE_MAX_MAPS 4096
int ml_cube_plan_load(const uint8_t *x0, const uint8_t *gens, size_t k, size_t n_taps,
                      unsigned m, const uint64_t *sym_mat, const uint64_t *sym_shift,
                      size_t ng, ml_cube_plan *p);

/* The plan's corners: *inner = min(kh, ML_CUBE_CORNER_LOG) high coefficients inside
 * a corner, *corners = 2^(kh - inner) of them, each of 2^(*plog) coset elements. */
void ml_cube_plan_layout(const ml_cube_plan *p, unsigned *inner, uint64_t *corners,
                         unsigned *plog);

/* x0 + the generators whose coefficient is 1 (low bits, then high) into y (N bytes). */
void ml_cube_plan_element(const ml_cube_plan *p, uint64_t high, uint32_t low, uint8_t *y);

/* The least weight over the plan's coset within `steps` coset elements (UINT64_MAX:
 * none; whole corners only) and by deadline_ns (ml_driver_now_ns's clock; <= 0: none),
 * on `threads` threads: the best element into best (N bytes), *r filled. ML_CUBE_OK,
 * ML_CUBE_ENOMEM, ML_CUBE_EINVAL, or ML_CUBE_STOPPED (best then holds the best so far). */
int ml_cube_search(const ml_cube_plan *p, uint64_t steps, int64_t deadline_ns, int threads,
                   uint8_t *best, ml_cube_result *r);

#endif
