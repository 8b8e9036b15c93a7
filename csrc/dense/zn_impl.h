/* zn_impl.h: what the pieces of the Z/p^e factorisation share (zn.c, zn_kernels.c,
 * zn_factor.c, zn_solve.c; see zn.c). Internal to csrc/dense/ (not installed, not part of
 * any API). */
#ifndef ML_ZN_IMPL_H
#define ML_ZN_IMPL_H
#include "dense/zn.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Most workers of phase 1's panel updates (ml_zn_lu_set_threads). */
#define ML_ZN_MAX_THREADS 16

struct ml_zn_lu {
    size_t m, r;
    unsigned q, p, e;
    uint16_t M;              /* floor(65536 / q): approximate quotient for reduction */
    uint16_t *wbuf;          /* m x r working matrix, uint16, delayed reduction */
    uint16_t **row;          /* row pointers (row swaps are pointer swaps) */
    size_t *perm0;           /* sorted row i is original row perm0[i] */
    size_t *lo0, *hi0;       /* bounds on each original row's non-zero columns [lo, hi) */
    int factored;
    int method;              /* ML_ZN_AUTO / BAND / BITSLICED: asked for, then used */
    int threads;             /* workers of phase 1's panel updates (< 2: one) */
    /* phase 1: unit pivots, one per step k < K1 */
    size_t K1;
    size_t *pc, *rlo, *rhi, *ipiv, *lend, *loff;
    uint8_t *uinv;
    uint8_t *lpool;          /* multipliers of step k: rows k+1 .. lend[k]-1 */
    size_t llen, lcap;
    /* skipped (non-pivot) columns, ascending */
    size_t r2;
    size_t *skip;
    /* phase 2: residual block S (m2 x r2) over the maximal ideal, full pivoting */
    size_t m2, K2;
    uint8_t *S;              /* L below the diagonal, T2' (divided) on and above */
    size_t *ipiv2, *cperm2;
    uint8_t *uinv2, *v2;
    /* det A = sign * detu * prod p^v2 (square, full rank) */
    unsigned detu;
    int sign;
};

static inline unsigned ipow(unsigned p, unsigned k)
{
    unsigned x = 1;
    while (k--) x *= p;
    return x;
}

static inline unsigned valuation(unsigned x, unsigned p, unsigned e)
{
    unsigned v = 0;
    if (!x) return e;
    while (x % p == 0) { x /= p; v++; }
    return v;
}

static inline void *xcalloc(size_t n, size_t sz) { return calloc(n ? n : 1, sz); }
static inline void *xmalloc(size_t n) { return malloc(n ? n : 1); }

/* The vector kernels (zn_kernels.c): 16-bit lanes with delayed reduction mod q, the
 * quotient approximated with M = floor(65536 / q). */
typedef struct {
    void (*axpy16)(uint16_t *, const uint16_t *, uint16_t, size_t);
    void (*reduce16)(uint16_t *, size_t, uint16_t, uint16_t);
    void (*scale16)(uint16_t *, size_t, uint16_t, uint16_t, uint16_t);
    void (*axpy8)(uint8_t *, const uint8_t *, uint16_t, size_t, uint16_t, uint16_t);
    void (*scale8)(uint8_t *, size_t, uint16_t, uint16_t, uint16_t);
    void (*acc32)(uint32_t *, const uint8_t *, uint32_t, size_t);
    void (*axpy16x4)(uint16_t *, const uint16_t *, const uint16_t *, const uint16_t *,
                     const uint16_t *, uint16_t, uint16_t, uint16_t, uint16_t, size_t);
    uint32_t (*dot16x8)(const uint16_t *, const uint8_t *, size_t);
    void (*acc16)(uint16_t *, const uint8_t *, uint16_t, size_t);
    void (*finish16)(uint8_t *, const uint8_t *, const uint16_t *, size_t, uint16_t, uint16_t);
    void (*finish32)(uint8_t *, const uint8_t *, const uint32_t *, size_t, uint32_t, uint32_t);
    /* d[j] += sum over the 4 pairs t of a[2t] P[t][2j] + a[2t+1] P[t][2j+1], unreduced:
     * byte pairs of pivot rows (< q) times byte multipliers (<= 127), in 16 bits */
    void (*axpy8p4)(uint16_t *, const uint8_t *const *, const uint8_t *, size_t);
} zn_kernels_t;

/* The pair way of the panel updates (zn_factor.c): fields with q <= ML_ZN_PAIR_QMAX, so
 * 8 (q - 1)^2 + (q - 1) <= 65535 (eight products and a reduced entry fit 16 bits) and a
 * pair of products (q - 1)^2 + (q - 1)^2 fits a signed 16-bit lane (vpmaddubsw). */
#define ML_ZN_PAIR_QMAX 89

/* The kernel table for this CPU (AVX2 unless MODLIGHTS_NO_SIMD is set; zn_kernels.c). */
const zn_kernels_t *ml_zn__kernels(void);

#endif
