/* cube.h: least weight over a GF(2) coset x0 + ker A by Walsh-Hadamard leaves.
 *
 * The k kernel generators are split into m low ones h_0..h_{m-1} and kh = k - m high
 * ones h_m..h_{k-1}. A leaf fixes the high coefficients (a kh-bit mask c, bit i for
 * the coefficient of h_{m+i}) and is the sub-coset y + span(h_0..h_{m-1}) with
 * y = x0 + sum_i c_i h_{m+i}. With u_j in GF(2)^m the low column of tap j and
 * D[u] = sum_{j: u_j = u} (-1)^{y_j}, the weight of y + sum_{low} c_i h_i is
 * (N - W[c_low]) / 2 where W is the Walsh-Hadamard transform of D; the least weight
 * of a leaf is (N - max W) / 2 in m 2^m additions (int16 lanes; AVX2 when the CPU has
 * it, chosen at run time). Leaves are walked in Gray-code order over the high
 * coefficients, D updated at the taps of the flipped generator.
 *
 * Symmetries (optional): ng affine maps of the high coefficients, c -> shift_g ^
 * sum_{i: c_i = 1} mat_g[i], each mapping every leaf onto a leaf with the same least
 * weight (a permutation of the taps preserving A and b that maps span(h_0..h_{m-1})
 * into itself). A leaf c with some image g(c) < c (as integers) is skipped: the
 * strictly decreasing chain of images ends at a leaf that is walked, and each has
 * the same minimum. The maps need not form a group.
 *
 * Work is given as corners: a corner fixes the top `top` high coefficients (its bits
 * kh-top..kh-1; the others are 0) and covers the 2^(kh-top) leaves below it. Threads
 * take corners in turn. Complexity per leaf: |supp h| for the update plus, for a leaf
 * that is walked, m 2^m additions.
 */
#ifndef ML_CUBE_H
#define ML_CUBE_H
#include <stddef.h>
#include <stdint.h>

/* Limits: n_taps <= ML_CUBE_MAX_TAPS (int16 transform), m <= ML_CUBE_MAX_LOW,
 * kh <= 63. */
#define ML_CUBE_MAX_TAPS 32767
#define ML_CUBE_MAX_LOW 26

typedef struct {
    size_t n_taps;              /* N */
    unsigned m;                 /* low generators */
    unsigned kh;                /* high generators */
    const uint32_t *col;        /* N: low column of tap j (bit i: h_i[j]), < 2^m */
    const uint8_t *y0;          /* N: x0, entries 0/1 */
    const uint32_t *sup_start;  /* kh + 1: high generator i has the taps */
    const uint32_t *sup_idx;    /*   sup_idx[sup_start[i] .. sup_start[i+1]) (< N) */
    unsigned ng;                /* symmetries (0: none) */
    const uint64_t *sym_mat;    /* ng x kh: image of high unit vector i under map g */
    const uint64_t *sym_shift;  /* ng: image of the zero leaf under map g */
} ml_cube_gf2;

typedef struct {
    uint64_t leaves;            /* leaves whose least weight was computed */
    uint64_t skipped;           /* leaves skipped: not the least of their orbit */
    uint64_t corners;           /* corners finished */
    int complete;               /* 1: every corner was finished */
} ml_cube_stats;

/* Least weight over the leaves under the given corners (each a kh-bit mask whose
 * bits below kh - top are 0), threads worker threads (>= 1), stopping after
 * `seconds` (<= 0: no limit) or on an interrupt (base/interrupt.h).
 * bound: only weights < bound are reported. Returns the least weight found below
 * bound (then *best_high / *best_low hold the high mask and the low coefficients
 * of an element of that weight: of the leaves of that weight, the first in the order
 * of `corners` and of each corner's Gray walk, the first low index of its transform's
 * maximum, whatever the threads' timing) or bound when none was found; -1 when memory runs
 * out, -2 for arguments out of range. st->complete is 1 when every corner was
 * walked (the result is then the least weight over them, or none is < bound). */
int64_t ml_cube_min_gf2(const ml_cube_gf2 *P, unsigned top, const uint64_t *corners,
                        size_t ncorners, int64_t bound, double seconds, int threads,
                        uint64_t *best_high, uint32_t *best_low, ml_cube_stats *st);

/* The least weight of one leaf by the transform (the reference for tests):
 * (N - max W) / 2, *arg the low coefficients reaching it. */
int64_t ml_cube_leaf_gf2(const ml_cube_gf2 *P, uint64_t high, uint32_t *arg);

#endif
