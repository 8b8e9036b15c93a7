/* zn_solve.c: solves and kernel generators from a Z/p^e factorisation (zn.h). */
#include "dense/zn.h"
#include "dense/zn_impl.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ solving */
/* Phase-1 back substitution: xt (r x nb) holds the skipped columns' values and zeros
 * at the pivot columns; c (K1 x nb, or NULL for zero) the transformed right side. */
static int backsub1(const ml_zn_lu_t *lu, const uint8_t *c, uint8_t *xt, size_t nb)
{
    const zn_kernels_t *K = ml_zn__kernels();
    const unsigned q = lu->q;
    const size_t BLK = 2048;
    uint32_t *acc = xmalloc((nb < BLK ? nb : BLK) * sizeof(uint32_t));
    if (!acc) return -1;
    for (size_t k = lu->K1; k-- > 0;) {
        const uint16_t *w = lu->row[k];
        const size_t pcol = lu->pc[k], lo = lu->rlo[k], hi = lu->rhi[k];
        uint8_t *dst = xt + pcol * nb;
        if (nb == 1) {                 /* one right side: a dot product over the row */
            uint64_t s = 0;
            for (size_t j0 = lo; j0 < hi; j0 += 65535) {
                size_t j1 = hi - j0 < 65535 ? hi : j0 + 65535;
                s += K->dot16x8(w + j0, xt + j0, j1 - j0);
            }
            s -= (uint64_t)w[pcol] * xt[pcol];
            unsigned v = (c ? c[k] : 0) + q - (unsigned)(s % q);
            *dst = (uint8_t)(v >= q ? v - q : v);
            continue;
        }
        if ((uint64_t)(q - 1) * (q - 1) * (hi - lo) <= 65535u) {
            /* small q and a short row: the whole sum fits in 16 bits */
            uint16_t *a16 = (uint16_t *)acc;
            for (size_t b0 = 0; b0 < nb; b0 += 2 * BLK) {
                size_t bn = nb - b0 < 2 * BLK ? nb - b0 : 2 * BLK;
                memset(a16, 0, bn * sizeof(uint16_t));
                for (size_t j = lo; j < hi; j++) {
                    uint16_t wj = w[j];
                    if (!wj || j == pcol) continue;
                    K->acc16(a16, xt + j * nb + b0, wj, bn);
                }
                K->finish16(dst + b0, c ? c + k * nb + b0 : NULL, a16, bn, (uint16_t)q, lu->M);
            }
            continue;
        }
        for (size_t b0 = 0; b0 < nb; b0 += BLK) {
            size_t bn = nb - b0 < BLK ? nb - b0 : BLK;
            memset(acc, 0, bn * sizeof(uint32_t));
            size_t terms = 0;
            for (size_t j = lo; j < hi; j++) {
                uint32_t wj = w[j];
                if (!wj || j == pcol) continue;
                K->acc32(acc, xt + j * nb + b0, wj, bn);
                if (++terms == 65535) {
                    for (size_t b = 0; b < bn; b++) acc[b] %= q;
                    terms = 1;
                }
            }
            K->finish32(dst + b0, c ? c + k * nb + b0 : NULL, acc, bn, q,
                        (uint32_t)(((uint64_t)1 << 32) / q));
        }
    }
    free(acc);
    return 0;
}

/* Phase-2 back substitution over T2' (rows k < K2): y (r2 x nb) holds the divided
 * right side in rows < K2 and the free values in rows >= K2; solved in place. */
static void backsub2(const ml_zn_lu_t *lu, uint8_t *y, size_t nb, uint32_t *acc)
{
    const unsigned q = lu->q;
    const size_t r2 = lu->r2;
    const zn_kernels_t *K = ml_zn__kernels();
    for (size_t k = lu->K2; k-- > 0;) {
        const uint8_t *tk = lu->S + k * r2;
        memset(acc, 0, nb * sizeof(uint32_t));
        size_t terms = 0;
        for (size_t j = k + 1; j < r2; j++) {
            if (!tk[j]) continue;
            K->acc32(acc, y + j * nb, tk[j], nb);
            if (++terms == 65535) { for (size_t b = 0; b < nb; b++) acc[b] %= q; terms = 1; }
        }
        uint8_t *yk = y + k * nb;
        for (size_t b = 0; b < nb; b++) {
            unsigned v = yk[b] + q - acc[b] % q;
            yk[b] = (uint8_t)(v >= q ? v - q : v);
        }
    }
}

static int solve_block(const ml_zn_lu_t *lu, const uint8_t *bt, size_t nb, uint8_t *xt,
                       uint8_t *ok, int check)
{
    const zn_kernels_t *K = ml_zn__kernels();
    const size_t m = lu->m, r = lu->r, K1 = lu->K1, r2 = lu->r2, m2 = lu->m2;
    const uint16_t q = (uint16_t)lu->q, M = lu->M;
    memset(xt, 0, r * nb);
    for (size_t b = 0; b < nb; b++) ok[b] = 1;
    if (!nb) return 0;
    uint8_t *C = xmalloc(m * nb);
    uint8_t *tmp = xmalloc(nb);
    if (!C || !tmp) { free(C); free(tmp); return -1; }
    for (size_t i = 0; i < m; i++) {
        memcpy(C + i * nb, bt + lu->perm0[i] * nb, nb);
        K->scale8(C + i * nb, nb, 1, q, M);          /* reduce mod q */
    }
    /* forward, phase 1 (swaps interleaved, as recorded) */
    for (size_t k = 0; k < K1; k++) {
        uint8_t *ck = C + k * nb;
        if (lu->ipiv[k] != k) {
            uint8_t *cp = C + lu->ipiv[k] * nb;
            memcpy(tmp, ck, nb); memcpy(ck, cp, nb); memcpy(cp, tmp, nb);
        }
        if (lu->uinv[k] != 1) K->scale8(ck, nb, lu->uinv[k], q, M);
        const uint8_t *L = lu->lpool + lu->loff[k];
        if (nb == 1) {                 /* one right side: C[i] -= L[i] c_k, vectorised over i */
            if (*ck && lu->lend[k] > k + 1)
                K->axpy8(C + k + 1, L, (uint16_t)(q - *ck), lu->lend[k] - k - 1, q, M);
            continue;
        }
        for (size_t i = k + 1; i < lu->lend[k]; i++) {
            uint8_t l = L[i - k - 1];
            if (l) K->axpy8(C + i * nb, ck, (uint16_t)(q - l), nb, q, M);
        }
    }
    int rc = 0;
    if (check && m2) {
        uint8_t *C2 = C + K1 * nb;
        const size_t K2 = lu->K2;
        uint8_t *y = NULL;
        uint32_t *acc = NULL;
        if (K2) {
            /* forward, phase 2 (LAPACK style: all swaps first) */
            for (size_t k = 0; k < K2; k++) {
                size_t pi = lu->ipiv2[k];
                if (pi != k) {
                    memcpy(tmp, C2 + k * nb, nb); memcpy(C2 + k * nb, C2 + pi * nb, nb);
                    memcpy(C2 + pi * nb, tmp, nb);
                }
            }
            for (size_t k = 0; k < K2; k++) {
                uint8_t *ck = C2 + k * nb;
                if (lu->uinv2[k] != 1) K->scale8(ck, nb, lu->uinv2[k], q, M);
                for (size_t i = k + 1; i < m2; i++) {
                    uint8_t l = lu->S[i * r2 + k];
                    if (l) K->axpy8(C2 + i * nb, ck, (uint16_t)(q - l), nb, q, M);
                }
            }
        }
        for (size_t k = 0; k < m2; k++) {
            uint8_t *ck = C2 + k * nb;
            if (k < K2) {
                unsigned pv = ipow(lu->p, lu->v2[k]);
                for (size_t b = 0; b < nb; b++) {
                    if (ck[b] % pv) ok[b] = 0;
                    ck[b] = (uint8_t)(ck[b] / pv);
                }
            } else {
                for (size_t b = 0; b < nb; b++) if (ck[b]) ok[b] = 0;
            }
        }
        if (K2) {
            y = xcalloc(r2 * nb, 1);
            acc = xmalloc(nb * sizeof(uint32_t));
            if (!y || !acc) { free(y); free(acc); rc = -1; goto out; }
            memcpy(y, C2, K2 * nb);
            backsub2(lu, y, nb, acc);
            for (size_t l = 0; l < K2; l++)
                memcpy(xt + lu->skip[lu->cperm2[l]] * nb, y + l * nb, nb);
            free(y); free(acc);
        }
    }
    rc = backsub1(lu, C, xt, nb);
out:
    free(C); free(tmp);
    return rc;
}

/* Many right sides are solved in column blocks of ML_ZN_RHS_BLOCK so the rows each
 * step touches stay in cache. */
#ifndef ML_ZN_RHS_BLOCK
#define ML_ZN_RHS_BLOCK 1024
#endif
int ml_zn_lu_solve(const ml_zn_lu_t *lu, const uint8_t *bt, size_t nb, uint8_t *xt,
                   uint8_t *ok, int check)
{
    const size_t CB = ML_ZN_RHS_BLOCK, m = lu->m, r = lu->r;
    if (nb <= CB) return solve_block(lu, bt, nb, xt, ok, check);
    uint8_t *bc = xmalloc(m * CB), *xc = xmalloc(r * CB);
    int rc = 0;
    if (!bc || !xc) { rc = -1; goto out; }
    for (size_t b0 = 0; b0 < nb && !rc; b0 += CB) {
        size_t cb = nb - b0 < CB ? nb - b0 : CB;
        for (size_t i = 0; i < m; i++) memcpy(bc + i * cb, bt + i * nb + b0, cb);
        rc = solve_block(lu, bc, cb, xc, ok + b0, check);
        for (size_t j = 0; j < r; j++) memcpy(xt + j * nb + b0, xc + j * cb, cb);
    }
out:
    free(bc); free(xc);
    return rc;
}

int ml_zn_lu_generators(const ml_zn_lu_t *lu, uint8_t *h, unsigned *orders)
{
    return ml_zn_lu_generators_range(lu, 0, lu->r2, h, orders);
}

int ml_zn_lu_generators_range(const ml_zn_lu_t *lu, size_t first, size_t count, uint8_t *h,
                              unsigned *orders)
{
    const size_t r = lu->r, r2 = lu->r2, K2 = lu->K2, ng = r2;
    const unsigned p = lu->p, e = lu->e;
    if (first > ng) first = ng;
    if (count > ng - first) count = ng - first;
    if (!count) return 0;
    /* order of positions: non-pivot skipped (v = e) first, then phase-2 pivots by v desc */
    size_t *pos = xmalloc(ng * sizeof(size_t));
    uint8_t *y = xcalloc(r2 * count, 1);
    uint8_t *xt = xcalloc(r * count, 1);
    uint32_t *acc = xmalloc(count * sizeof(uint32_t));
    int rc = -1;
    if (!pos || !y || !xt || !acc) goto done;
    size_t g = 0;
    for (size_t l = K2; l < r2; l++) pos[g++] = l;
    for (unsigned v = e; v >= 1; v--)
        for (size_t l = 0; l < K2; l++)
            if (lu->v2[l] == v) pos[g++] = l;
    for (size_t gi = 0; gi < count; gi++) {
        size_t l = pos[first + gi];
        unsigned v = l < K2 ? lu->v2[l] : e;
        y[l * count + gi] = (uint8_t)ipow(p, e - v);
        orders[gi] = ipow(p, v);
    }
    backsub2(lu, y, count, acc);
    for (size_t l = 0; l < r2; l++)
        memcpy(xt + lu->skip[lu->cperm2[l]] * count, y + l * count, count);
    if (backsub1(lu, NULL, xt, count)) goto done;
    for (size_t j = 0; j < r; j++)
        for (size_t gi = 0; gi < count; gi++) h[gi * r + j] = xt[j * count + gi];
    rc = 0;
done:
    free(pos); free(y); free(xt); free(acc);
    return rc;
}
