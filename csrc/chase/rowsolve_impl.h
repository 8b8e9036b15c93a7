/* rowsolve_impl.h: what the pieces of the row-solve chase share (rowsolve.c,
 * rowsolve_gf2.c, rowsolve_zn.c, rowsolve_sliced.c, rowsolve_numeric.c; see rowsolve.c).
 * Internal to csrc/chase/ (not installed, not part of any API). */
#ifndef ML_ROWSOLVE_IMPL_H
#define ML_ROWSOLVE_IMPL_H
#include "chase/rowsolve.h"

#include <stddef.h>
#include <stdint.h>

struct ml_rowsolve {
    int h, w, D, a, emin, mc, RR;
    int span;             /* rows a tile row reads: D - min(emin, 0) + 1 */
    int ne, nt;           /* offsets; the first nt have er < D (the sources of t) */
    int32_t *er, *ec;
    int mirrored;
    int n;                /* the modulus; 2 for the GF(2) plans */
    int32_t *cf;          /* coefficient of each offset mod n (1..n-1), order of er */
    int alpha, beta;      /* the pair's coefficients at (D, -a) and (D, +a) */
    int ainv, binv;       /* their inverses mod n */
};

/* A worker's share of a symbolic pass (GF(2), Z/n bytes, Z/3 / Z/4 bit-sliced): the
 * blocks come from a shared counter. M: the residual matrix (uint64_t words for GF(2),
 * bytes otherwise; stride: words a row of the GF(2) one); width: a tap's storage (bw
 * words, or bz bytes). */
typedef struct {
    const ml_rowsolve *p;
    void *M;
    size_t stride, width, nblk_row, nblocks;
    int *next;
    int status;
} rs_job;

/* One symbolic pass: D ceil(cols / per) blocks (per symbols a block) over min(threads,
 * blocks) workers, the calling thread one of them. Returns 0 or a worker's status
 * (rowsolve.c). */
int ml_rowsolve__run(const ml_rowsolve *p, void *M, size_t stride, size_t width, size_t per,
                     size_t cols, int threads, void *(*worker)(void *));

/* M[k][r0 w + c] = M[k'][r0 w + w - 1 - c] for the columns c >= half of every symbol
 * row of a byte matrix (n_res x n_sym), k' the mirror image of equation k (the columns
 * < half were chased; rowsolve_zn.c). */
void ml_rowsolve__mirror_fill_bytes(const ml_rowsolve *p, uint8_t *M, int half);

/* The unrolled kernels' sources: s0..s7 = S[i] + off for i < NT (<= 8), the others
 * aliases of s0 that are never read. */
#define RS_SOURCES(T, off, NT)                                                            \
    T *restrict s0 = S[0] + (off);                                                        \
    T *restrict s1 = (NT) > 1 ? S[1] + (off) : s0;                                        \
    T *restrict s2 = (NT) > 2 ? S[2] + (off) : s0;                                        \
    T *restrict s3 = (NT) > 3 ? S[3] + (off) : s0;                                        \
    T *restrict s4 = (NT) > 4 ? S[4] + (off) : s0;                                        \
    T *restrict s5 = (NT) > 5 ? S[5] + (off) : s0;                                        \
    T *restrict s6 = (NT) > 6 ? S[6] + (off) : s0;                                        \
    T *restrict s7 = (NT) > 7 ? S[7] + (off) : s0;                                        \
    (void)s1; (void)s2; (void)s3; (void)s4; (void)s5; (void)s6; (void)s7

typedef uint64_t rs_v4 __attribute__((vector_size(32)));
typedef uint64_t rs_v8 __attribute__((vector_size(64)));

#endif
