/* gf2_residual.c: the GF(2) residual systems of the chase (gf2.h, ml_res_gf2_*): solves
 * and kernels by one Four Russians echelon form, no factorisation kept. */
#include "dense/gf2.h"
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ GF(2) residual systems */
/* [M | R^T] packed (gf2.h), M: rows x cols packed with stride nw = ceil(cols/64). */
static ml_gf2_t *pack_aug(const uint64_t *M, size_t rows, size_t cols, const uint8_t *R,
                          size_t k) {
    ml_gf2_t *W = ml_gf2_new(rows, cols + k);
    if (!W) return NULL;
    const size_t nw = (cols + 63) / 64;
    for (size_t i = 0; i < rows; i++) {
        uint64_t *w = ml_gf2_row(W, i);
        if (nw) memcpy(w, M + i * nw, nw * sizeof(uint64_t));
        if (cols % 64 && nw) w[nw - 1] &= ((uint64_t)1 << (cols % 64)) - 1;
        for (size_t j = 0; j < k; j++)
            if (R[j * rows + i] & 1) w[(cols + j) / 64] |= (uint64_t)1 << ((cols + j) % 64);
    }
    return W;
}

/* z (packed, cols bits) from the echelon rows: z[piv[i]] = rhs_i ^ <row i, z>, bottom
 * up; free variables as already set in z. rhs_i: bit `col` of row i (or 0 if col ==
 * (size_t)-1). */
static void back_sub(const ml_gf2_t *W, size_t rank, const size_t *piv, size_t cols, size_t col,
                     uint64_t *z) {
    const size_t nw = (cols + 63) / 64;
    for (size_t ii = rank; ii-- > 0;) {
        const uint64_t *w = ml_gf2_row(W, ii);
        const size_t p0 = piv[ii] / 64;
        uint64_t acc = 0;
        for (size_t j = p0; j < nw; j++) acc ^= w[j] & z[j];
        unsigned bit = (unsigned)__builtin_parityll(acc);
        if (col != (size_t)-1) bit ^= (unsigned)((w[col / 64] >> (col % 64)) & 1u);
        z[p0] = (z[p0] & ~((uint64_t)1 << (piv[ii] % 64))) | ((uint64_t)bit << (piv[ii] % 64));
    }
}

size_t ml_res_gf2_solve(const uint64_t *M, size_t rows, size_t cols, const uint8_t *R, size_t k,
                        uint8_t *Z, uint8_t *ok) {
    ml_gf2_t *W = pack_aug(M, rows, cols, R, k);
    const size_t mx = rows < cols ? rows : cols;
    size_t *piv = malloc((mx + 1) * sizeof(size_t));
    const size_t nw = (cols + 63) / 64;
    uint64_t *z = calloc(nw + 1, sizeof(uint64_t));
    if (!W || !piv || !z) { ml_gf2_free(W); free(piv); free(z); return (size_t)-1; }
    size_t rank = ml_gf2_echelonize(W, 0, cols, piv);
    if (rank == (size_t)-1) { ml_gf2_free(W); free(piv); free(z); return rank; }
    /* the columns of M inside the last word are masked so that the right-hand side
     * bits sharing that word do not enter the dot products */
    const uint64_t last = cols % 64 ? ((uint64_t)1 << (cols % 64)) - 1 : ~(uint64_t)0;
    for (size_t j = 0; j < k; j++) {
        const size_t col = cols + j;
        int good = 1;
        for (size_t i = rank; i < rows && good; i++)
            good = !((ml_gf2_row(W, i)[col / 64] >> (col % 64)) & 1u);
        ok[j] = (uint8_t)good;
        uint8_t *zj = Z + j * cols;
        if (!good) { memset(zj, 0, cols); continue; }
        memset(z, 0, (nw + 1) * sizeof(uint64_t));
        for (size_t ii = rank; ii-- > 0;) {
            const uint64_t *w = ml_gf2_row(W, ii);
            const size_t p0 = piv[ii] / 64;
            uint64_t acc = 0;
            for (size_t q = p0; q + 1 < nw; q++) acc ^= w[q] & z[q];
            acc ^= w[nw - 1] & last & z[nw - 1];      /* p0 <= nw - 1 */
            unsigned bit = (unsigned)__builtin_parityll(acc) ^ (unsigned)((w[col / 64] >> (col % 64)) & 1u);
            z[p0] |= (uint64_t)bit << (piv[ii] % 64);
        }
        for (size_t c = 0; c < cols; c++) zj[c] = (uint8_t)((z[c / 64] >> (c % 64)) & 1u);
    }
    ml_gf2_free(W); free(piv); free(z);
    return rank;
}

size_t ml_res_gf2_kernel(const uint64_t *M, size_t rows, size_t cols, uint8_t **K) {
    return ml_res_gf2_kernel_first(M, rows, cols, (size_t)-1, K);
}

size_t ml_res_gf2_kernel_first(const uint64_t *M, size_t rows, size_t cols, size_t max,
                               uint8_t **K) {
    *K = NULL;
    ml_gf2_t *W = pack_aug(M, rows, cols, NULL, 0);
    const size_t mx = rows < cols ? rows : cols;
    size_t *piv = malloc((mx + 1) * sizeof(size_t));
    const size_t nw = (cols + 63) / 64;
    uint64_t *z = calloc(nw + 1, sizeof(uint64_t));
    uint8_t *isp = calloc(cols + 1, 1);
    if (!W || !piv || !z || !isp) goto oom;
    size_t rank = ml_gf2_echelonize(W, 0, cols, piv);
    if (rank == (size_t)-1) goto oom;
    size_t null = cols - rank;
    const size_t want = null < max ? null : max;
    if (cols && want > (SIZE_MAX - 1) / cols) goto oom;   /* want x cols bytes: no wrap */
    *K = malloc(want * cols + 1);
    if (!*K) goto oom;
    for (size_t i = 0; i < rank; i++) isp[piv[i]] = 1;
    size_t f = 0;
    for (size_t c = 0; c < cols && f < want; c++) {
        if (isp[c]) continue;
        memset(z, 0, (nw + 1) * sizeof(uint64_t));
        z[c / 64] = (uint64_t)1 << (c % 64);
        back_sub(W, rank, piv, cols, (size_t)-1, z);
        uint8_t *kv = *K + f * cols;
        for (size_t q = 0; q < cols; q++) kv[q] = (uint8_t)((z[q / 64] >> (q % 64)) & 1u);
        f++;
    }
    ml_gf2_free(W); free(piv); free(z); free(isp);
    return null;
oom:
    ml_gf2_free(W); free(piv); free(z); free(isp); free(*K); *K = NULL;
    return (size_t)-1;
}
