/* gf2_factor.c: the factorisation T A = E of a GF(2) matrix and what follows from it
 * (gf2.h: kernel, pseudo-inverse, determinant, the solve matrix and solves by dot
 * products), and the direct solve of a few right-hand sides without one. */
#include "dense/gf2.h"
#include "dense/gf2_impl.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>

/* ======================================================================== helpers */

/* dst bits [0, n) = src bits [off, off + n) (dst words past the copy zeroed up to
 * ceil(n/64)). */
static void copy_bits(uint64_t *dst, const uint64_t *src, size_t off, size_t n, size_t src_stride)
{
    size_t nw = (n + 63) / 64, w0 = off >> 6;
    int s = (int)(off & 63);
    for (size_t w = 0; w < nw; w++) {
        uint64_t v = src[w0 + w] >> s;
        if (s && w0 + w + 1 < src_stride) v |= src[w0 + w + 1] << (64 - s);
        dst[w] = v;
    }
    if (n & 63) dst[nw - 1] &= ((uint64_t)1 << (n & 63)) - 1;
}

/* ======================================================================== factorisation */

void ml_gf2_fact_free(ml_gf2_fact_t *F)
{
    if (!F) return;
    ml_gf2_free(F->W);
    free(F->piv);
    free(F);
}

ml_gf2_fact_t *ml_gf2_factor(const ml_gf2_t *A)
{
    size_t m = A->nrows, r = A->ncols;
    ml_gf2_fact_t *F = calloc(1, sizeof *F);
    if (!F) return NULL;
    F->m = m;
    F->r = r;
    F->W = ml_gf2_new(m, r + m);
    F->piv = malloc(((m < r ? m : r) + 1) * sizeof(size_t));
    if (!F->W || !F->piv) { ml_gf2_fact_free(F); return NULL; }
    for (size_t i = 0; i < m; i++) {
        memcpy(ml_gf2_row(F->W, i), ml_gf2_row(A, i), A->width * 8);
        ml_gf2_flip(F->W, i, r + i);
    }
    size_t rank = ml_gf2_echelonize(F->W, 1, r, F->piv);
    if (rank == (size_t)-1) { ml_gf2_fact_free(F); return NULL; }
    F->rank = rank;
    return F;
}

ml_gf2_t *ml_gf2_kernel(const ml_gf2_fact_t *F)
{
    return ml_gf2_kernel_rows(F, 0, F->r - F->rank);
}

ml_gf2_t *ml_gf2_kernel_rows(const ml_gf2_fact_t *F, size_t first, size_t count)
{
    size_t r = F->r, rank = F->rank, null = r - rank;
    if (first > null) first = null;
    if (count > null - first) count = null - first;
    ml_gf2_t *H = ml_gf2_new(count, r);
    if (!H) return NULL;
    size_t h = 0, i = 0, t_end = 0;
    for (size_t f = 0; f < r && h < first + count; f++) {
        if (i < rank && F->piv[i] == f) { i++; continue; }
        if (h >= first) {
            /* basis vector of free column f: e_f + the pivot columns left of it whose
             * rows have a 1 in column f */
            while (t_end < rank && F->piv[t_end] < f) t_end++;
            ml_gf2_flip(H, h - first, f);
            for (size_t t = 0; t < t_end; t++)
                if (ml_gf2_get(F->W, t, f)) ml_gf2_flip(H, h - first, F->piv[t]);
        }
        h++;
    }
    return H;
}

ml_gf2_t *ml_gf2_pinv(const ml_gf2_fact_t *F)
{
    ml_gf2_t *G = ml_gf2_new(F->r, F->m);
    if (!G) return NULL;
    for (size_t i = 0; i < F->rank; i++)
        copy_bits(ml_gf2_row(G, F->piv[i]), ml_gf2_row(F->W, i), F->r, F->m, F->W->stride);
    return G;
}

int ml_gf2_det(const ml_gf2_fact_t *F)
{
    if (F->m != F->r) return -1;
    return F->rank == F->m ? 1 : 0;
}

ml_gf2_t *ml_gf2_solve_matrix(const ml_gf2_fact_t *F)
{
    size_t m = F->m, r = F->r, rank = F->rank;
    ml_gf2_t *GL = ml_gf2_new(r + m - rank, m);
    if (!GL) return NULL;
    for (size_t i = 0; i < rank; i++)
        copy_bits(ml_gf2_row(GL, F->piv[i]), ml_gf2_row(F->W, i), r, m, F->W->stride);
    for (size_t i = rank; i < m; i++)
        copy_bits(ml_gf2_row(GL, r + i - rank), ml_gf2_row(F->W, i), r, m, F->W->stride);
    ml_gf2_t *S = ml_gf2_transpose(GL);
    ml_gf2_free(GL);
    return S;
}

ml_gf2_t *ml_gf2_solve_dot(const ml_gf2_fact_t *F, const ml_gf2_t *B)
{
    size_t m = F->m, r = F->r, rank = F->rank;
    const ml_gf2_t *W = F->W;
    if (B->ncols != m) return NULL;
    ml_gf2_t *Y = ml_gf2_new(B->nrows, r + m - rank);
    uint64_t *bw = ml_gf2__zalloc(W->stride + 1);
    if (!Y || !bw) { ml_gf2_free(Y); free(bw); return NULL; }
    size_t t0 = r >> 6, t1 = W->width;   /* the words holding T */
    for (size_t k = 0; k < B->nrows; k++) {
        const uint64_t *b = ml_gf2_row(B, k);
        /* b moved to columns [r, r + m) of W's frame */
        memset(bw, 0, W->stride * 8);
        for (size_t j = 0; j < B->width; j++) {
            size_t bit = r + 64 * j;
            bw[bit >> 6] |= b[j] << (bit & 63);
            if ((bit & 63) && (bit >> 6) + 1 < W->stride)
                bw[(bit >> 6) + 1] |= b[j] >> (64 - (bit & 63));
        }
        uint64_t *y = ml_gf2_row(Y, k);
        for (size_t i = 0; i < m; i++) {
            const uint64_t *t = ml_gf2_row(W, i);
            uint64_t acc = 0;
            for (size_t w = t0; w < t1; w++) acc ^= t[w] & bw[w];
            if (__builtin_parityll(acc)) {
                size_t col = i < rank ? F->piv[i] : r + i - rank;
                y[col >> 6] |= (uint64_t)1 << (col & 63);
            }
        }
    }
    free(bw);
    return Y;
}

ml_gf2_t *ml_gf2_solve_direct(const ml_gf2_t *A, const ml_gf2_t *B, size_t *rank)
{
    size_t m = A->nrows, r = A->ncols, k = B->nrows;
    if (B->ncols != m) return NULL;
    /* W = [A | B^T]: the right-hand sides ride along as the last k columns */
    ml_gf2_t *Bt = ml_gf2_transpose(B);
    ml_gf2_t *W = Bt ? ml_gf2_new(m, r + k) : NULL;
    ml_gf2_t *Y = W ? ml_gf2_new(k, r + 1) : NULL;
    size_t *piv = Y ? malloc(((m < r ? m : r) + 1) * sizeof(size_t)) : NULL;
    uint64_t *x = piv ? ml_gf2__zalloc(W->stride) : NULL;
    if (!x) {
        ml_gf2_free(Bt); ml_gf2_free(W); ml_gf2_free(Y); free(piv);
        return NULL;
    }
    size_t rw = (r + 63) >> 6, sh = r & 63;
    for (size_t i = 0; i < m; i++) {
        uint64_t *w = ml_gf2_row(W, i);
        const uint64_t *b = ml_gf2_row(Bt, i);
        memcpy(w, ml_gf2_row(A, i), A->width * 8);
        for (size_t j = 0; j < Bt->width; j++) {      /* b's words shifted to bit r */
            size_t at = (r >> 6) + j;
            w[at] |= b[j] << sh;
            if (sh && at + 1 < W->width) w[at + 1] |= b[j] >> (64 - sh);
        }
    }
    ml_gf2_free(Bt);
    size_t rk = ml_gf2_echelonize(W, 0, r, piv);
    if (rk == (size_t)-1 || ml_interrupt_stopped()) {
        ml_gf2_free(W); ml_gf2_free(Y); free(piv); free(x);
        return NULL;
    }
    /* rows rk.. are zero left of column r: right-hand side q is solvable iff their
     * bits at column r + q are all 0; then back substitution through the echelon
     * rows (x only has bits at pivot columns right of the current one, so the dot
     * product of row i with x is the sum over those columns) */
    for (size_t q = 0; q < k; q++) {
        size_t col = r + q, cw = col >> 6;
        uint64_t bit = (uint64_t)1 << (col & 63);
        uint64_t *y = ml_gf2_row(Y, q);
        int bad = 0;
        for (size_t i = rk; i < m && !bad; i++) bad = (ml_gf2_row(W, i)[cw] & bit) != 0;
        if (bad) { y[r >> 6] |= (uint64_t)1 << sh; continue; }
        memset(x, 0, W->stride * 8);
        for (size_t i = rk; i-- > 0;) {
            const uint64_t *w = ml_gf2_row(W, i);
            uint64_t acc = (w[cw] & bit) ? 1u : 0u;
            for (size_t t = piv[i] >> 6; t < rw; t++) acc ^= (uint64_t)__builtin_parityll(w[t] & x[t]);
            if (acc) x[piv[i] >> 6] |= (uint64_t)1 << (piv[i] & 63);
        }
        memcpy(y, x, rw * 8);
    }
    if (rank) *rank = rk;
    ml_gf2_free(W); free(piv); free(x);
    return Y;
}

void ml_gf2_solve_ok(const ml_gf2_t *Y, size_t r, uint8_t *ok)
{
    size_t w0 = r >> 6;
    uint64_t first = ~(uint64_t)0 << (r & 63);
    for (size_t i = 0; i < Y->nrows; i++) {
        const uint64_t *y = ml_gf2_row(Y, i);
        uint64_t acc = 0;
        if (w0 < Y->width) {
            acc = y[w0] & first;
            for (size_t w = w0 + 1; w < Y->width; w++) acc |= y[w];
        }
        ok[i] = acc == 0;
    }
}
