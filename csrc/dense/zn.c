/* zn.c: factorisation of matrices over Z/p^eZ (see zn.h for the method): the arithmetic
 * and the life cycle of a factorisation (new, fill, free, the ranks and counts).
 *
 * The pieces: zn.c (this file), zn_kernels.c (the vector kernels, portable and AVX2),
 * zn_factor.c (phases 1 and 2 of the factorisation, the determinant), zn_solve.c
 * (solves and kernel generators); what they share is in zn_impl.h. */
#include "dense/zn.h"
#include "dense/zn_impl.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ arithmetic */
unsigned ml_zn_inv(unsigned a, unsigned q)
{
    /* extended Euclid on small ints */
    int t = 0, nt = 1, rr = (int)q, nr = (int)(a % q);
    while (nr) {
        int quo = rr / nr, tmp;
        tmp = t - quo * nt; t = nt; nt = tmp;
        tmp = rr - quo * nr; rr = nr; nr = tmp;
    }
    if (rr != 1) return 0;
    if (t < 0) t += (int)q;
    return (unsigned)t;
}

/* ------------------------------------------------------------------ life cycle */

ml_zn_lu_t *ml_zn_lu_new(size_t m, size_t r, unsigned q)
{
    unsigned p = 0, e = 0, x;
    if (q < 2 || q > 255) return NULL;
    for (unsigned d = 2; d <= q; d++)
        if (q % d == 0) { p = d; break; }
    for (x = q; x % p == 0; x /= p) e++;
    if (x != 1) return NULL;                     /* not a prime power */
    if (r && m > SIZE_MAX / 2 / r) return NULL;
    ml_zn_lu_t *lu = calloc(1, sizeof *lu);
    if (!lu) return NULL;
    lu->m = m; lu->r = r; lu->q = q; lu->p = p; lu->e = e;
    lu->M = (uint16_t)(65536u / q);
    lu->wbuf = xcalloc(m * r, sizeof(uint16_t));
    lu->row = xcalloc(m, sizeof(uint16_t *));
    lu->perm0 = xcalloc(m, sizeof(size_t));
    lu->lo0 = xmalloc(m * sizeof(size_t));
    lu->hi0 = xcalloc(m, sizeof(size_t));
    if (!lu->wbuf || !lu->row || !lu->perm0 || !lu->lo0 || !lu->hi0) {
        ml_zn_lu_free(lu);
        return NULL;
    }
    for (size_t i = 0; i < m; i++) lu->lo0[i] = r;
    lu->detu = 1 % q;
    lu->sign = 1;
    return lu;
}

void ml_zn_lu_free(ml_zn_lu_t *lu)
{
    if (!lu) return;
    free(lu->wbuf); free(lu->row); free(lu->perm0); free(lu->lo0); free(lu->hi0);
    free(lu->pc); free(lu->rlo); free(lu->rhi); free(lu->ipiv); free(lu->lend); free(lu->loff);
    free(lu->uinv); free(lu->lpool); free(lu->skip);
    free(lu->S); free(lu->ipiv2); free(lu->cperm2); free(lu->uinv2); free(lu->v2);
    free(lu);
}

void ml_zn_lu_set_dense(ml_zn_lu_t *lu, const uint8_t *a, size_t stride)
{
    const zn_kernels_t *K = ml_zn__kernels();
    const size_t r = lu->r;
    for (size_t i = 0; i < lu->m; i++) {
        const uint8_t *src = a + i * stride;
        uint16_t *dst = lu->wbuf + i * r;
        for (size_t j = 0; j < r; j++) dst[j] = src[j];
        K->reduce16(dst, r, (uint16_t)lu->q, lu->M);
        size_t lo = 0, hi = r;
        while (lo < r && !dst[lo]) lo++;
        while (hi > lo && !dst[hi - 1]) hi--;
        lu->lo0[i] = lo; lu->hi0[i] = hi;
    }
}

void ml_zn_lu_add_coo(ml_zn_lu_t *lu, const int64_t *ci, const int64_t *tj, size_t nnz)
{
    for (size_t k = 0; k < nnz; k++) {
        size_t i = (size_t)ci[k], j = (size_t)tj[k];
        uint16_t *w = lu->wbuf + i * lu->r + j;
        uint16_t v = (uint16_t)(*w + 1);
        *w = v == lu->q ? 0 : v;
        if (j < lu->lo0[i]) lu->lo0[i] = j;       /* conservative: entries may cancel */
        if (j + 1 > lu->hi0[i]) lu->hi0[i] = j + 1;
    }
}

unsigned ml_zn_lu_p(const ml_zn_lu_t *lu) { return lu->p; }
unsigned ml_zn_lu_e(const ml_zn_lu_t *lu) { return lu->e; }
size_t ml_zn_lu_unit_rank(const ml_zn_lu_t *lu) { return lu->K1; }
size_t ml_zn_lu_rank(const ml_zn_lu_t *lu) { return lu->K1 + lu->K2; }
size_t ml_zn_lu_ngens(const ml_zn_lu_t *lu) { return lu->r - lu->K1; }

size_t ml_zn_lu_kernel_log(const ml_zn_lu_t *lu)
{
    size_t s = (lu->r2 - lu->K2) * lu->e;
    for (size_t k = 0; k < lu->K2; k++) s += lu->v2[k];
    return s;
}
