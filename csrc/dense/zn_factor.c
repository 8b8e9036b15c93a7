/* zn_factor.c: the factorisation U A Q = T over Z/p^eZ (zn.h): phase 1 (unit pivots,
 * band or bit-sliced), phase 2 (the residual block by valuation pivots), and the
 * determinant. */
#include "dense/zn.h"
#include "dense/zn_impl.h"
#include "dense/bitsliced.h"
#include "base/interrupt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Panel width (columns) and the active width above which panels are cache blocked. */
#ifndef ML_ZN_PANEL
#define ML_ZN_PANEL 64
#endif
#ifndef ML_ZN_BLOCK_MIN
#define ML_ZN_BLOCK_MIN 384
#endif

/* ------------------------------------------------------------------ factor */
/* first index s with a[s] >= x in the ascending a[0..n) */
static size_t lower_bound(const size_t *a, size_t n, size_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}
/* the sign of the column permutation [pivot columns, skipped columns] into lu->sign */
static void column_sign(ml_zn_lu_t *lu, size_t t)
{
    size_t ns = 0, k = 0, inv = 0;
    for (size_t col = 0; col < lu->r; col++) {
        if (k < t && lu->pc[k] == col) { inv += ns; k++; }
        else ns++;
    }
    if (inv & 1) lu->sign = -lu->sign;
}

/* Row extents (kept by set_dense / add_coo) into lo0 / hi0 (m each; empty rows
 * [r, 0)), then a stable counting sort of the rows by first non-zero into perm0, its
 * parity into sign. cnt: r + 2 zeros. 0, or -1 on allocation failure. */
static int sort_rows(ml_zn_lu_t *lu, size_t *lo0, size_t *hi0, size_t *cnt)
{
    const size_t m = lu->m, r = lu->r;
    for (size_t i = 0; i < m; i++) {
        size_t a = lu->lo0[i], b = lu->hi0[i];
        if (a >= b) { a = r; b = 0; }
        lo0[i] = a; hi0[i] = b;
        cnt[a + 1]++;
    }
    for (size_t c = 0; c <= r; c++) cnt[c + 1] += cnt[c];
    for (size_t i = 0; i < m; i++) lu->perm0[cnt[lo0[i]]++] = i;
    char *seen = xcalloc(m, 1);          /* parity of perm0 */
    if (!seen) return -1;
    for (size_t i = 0; i < m; i++) {
        if (seen[i]) continue;
        size_t len = 0;
        for (size_t j = i; !seen[j]; j = lu->perm0[j]) { seen[j] = 1; len++; }
        if (len % 2 == 0) lu->sign = -lu->sign;
    }
    free(seen);
    return 0;
}

/* The phase-1 records of a factorisation (kmax pivots at most, r columns) and a
 * multiplier pool of lcap bytes; 1 when an allocation failed (the caller's cleanup
 * frees whatever was allocated). */
static int alloc_records(ml_zn_lu_t *lu, size_t kmax, size_t lcap)
{
    const size_t r = lu->r;
    lu->pc = xmalloc(kmax * sizeof(size_t));
    lu->rlo = xmalloc(kmax * sizeof(size_t));
    lu->rhi = xmalloc(kmax * sizeof(size_t));
    lu->ipiv = xmalloc(kmax * sizeof(size_t));
    lu->lend = xmalloc(kmax * sizeof(size_t));
    lu->loff = xmalloc(kmax * sizeof(size_t));
    lu->uinv = xmalloc(kmax);
    lu->skip = xmalloc(r * sizeof(size_t));
    lu->lcap = lcap;
    lu->lpool = xmalloc(lcap);
    return !lu->pc || !lu->rlo || !lu->rhi || !lu->ipiv || !lu->lend || !lu->loff ||
           !lu->uinv || !lu->skip || !lu->lpool;
}

/* A blocked panel's deferred updates (phase1): the rows' multipliers mult (ML_ZN_PANEL a
 * physical row) on the panel's pivot rows k0 .. k1 - 1, applied to the columns [alo, c0)
 * and [c1, G) of rows i0 .. i1 - 1. */
typedef struct {
    ml_zn_lu_t *lu;
    const zn_kernels_t *K;
    const uint8_t *mult;
    uint32_t *ub, *ubr;
    const size_t *locur;
    size_t k0, k1, c0, c1, alo, G;
    uint16_t q, M;
    uint32_t step;
    unsigned e;
    const uint8_t *pairs;   /* the pair way (zn_impl.h): pivot rows k0 + 2t, k0 + 2t + 1 on
                             * columns [c1, G) interleaved, row t at pairs + t pstride;
                             * NULL: the 16-bit rows */
    size_t pstride;
} zn_rest_t;

/* Row i (>= k1) of a panel's deferred updates by the pair way: the pivot pairs with a
 * non-zero multiplier, four a pass, reduced before a pass could overflow 16 bits (the
 * same bound as the 16-bit rows'; the same entries mod q). */
static uint32_t rest_row_pairs(const zn_rest_t *R, uint16_t *ri, const uint8_t *mi, uint32_t b)
{
    const size_t k0 = R->k0, k1 = R->k1, c1 = R->c1, G = R->G, np = (k1 - k0 + 1) / 2;
    const uint32_t step = R->step;
    size_t t = 0;
    while (t < np) {
        const uint8_t *P[4];
        uint8_t a[8];
        int ns = 0;
        uint32_t add = 0;
        while (t < np && ns < 4) {
            const size_t k = k0 + 2 * t;
            const uint8_t x0 = mi[k - k0], x1 = k + 1 < k1 ? mi[k + 1 - k0] : 0;
            if (x0 | x1) {
                P[ns] = R->pairs + t * R->pstride;
                a[2 * ns] = x0; a[2 * ns + 1] = x1;
                add += ((uint32_t)x0 + x1) * step;
                ns++;
            }
            t++;
        }
        if (!ns) break;
        for (int z = ns; z < 4; z++) { P[z] = P[0]; a[2 * z] = a[2 * z + 1] = 0; }
        if (b + add > 65535u) {
            R->K->reduce16(ri + c1, G - c1, R->q, R->M);
            b = step;
        }
        R->K->axpy8p4(ri + c1, P, a, G - c1);
        b += add;
    }
    return b;
}


/* Rows i0 .. i1 - 1 of a panel's deferred updates: a pivot row (i < k1) takes the earlier
 * pivots only and is then reduced and scaled (so the pivot rows go in order); any other
 * row reads the pivot rows only, so rows >= k1 are independent of each other. */
static void rest_rows(const zn_rest_t *R, size_t i0, size_t i1)
{
    ml_zn_lu_t *lu = R->lu;
    const zn_kernels_t *K = R->K;
    const size_t r = lu->r, PB = ML_ZN_PANEL, k0 = R->k0, k1 = R->k1, c0 = R->c0, c1 = R->c1;
    const size_t alo = R->alo, G = R->G;
    const uint16_t q = R->q, M = R->M;
    const uint32_t step = R->step;
    uint32_t *ub = R->ub;
        for (size_t i = i0; i < i1; i++) {
            uint16_t *ri = lu->row[i];
            const uint8_t *mi = R->mult + (size_t)(ri - lu->wbuf) / r * PB;
            size_t kend = i < k1 ? i : k1;            /* pivot row i: earlier pivots only */
            uint32_t b = R->ubr[i];
            if (i >= k1 && R->pairs) {
                b = rest_row_pairs(R, ri, mi, b);
                if (b > ub[i]) ub[i] = b;
                continue;
            }
            size_t k = k0;
            while (k < kend) {
                /* gather up to 4 pivots with non-zero multipliers */
                const uint16_t *s[4]; uint16_t a[4]; int ns = 0; uint32_t add = 0;
                while (k < kend && ns < 4) {
                    uint8_t ak = mi[k - k0];
                    if (ak) { s[ns] = lu->row[k]; a[ns] = ak; add += ak * step; ns++; }
                    k++;
                }
                if (!ns) break;
                if (b + add > 65535u) {
                    if (alo < c0) K->reduce16(ri + alo, c0 - alo, q, M);
                    if (c1 < G) K->reduce16(ri + c1, G - c1, q, M);
                    b = step;
                }
                if (b + add > 65535u) {                /* q large: one at a time */
                    for (int z = 0; z < ns; z++) {
                        if (b + a[z] * step > 65535u) {
                            if (alo < c0) K->reduce16(ri + alo, c0 - alo, q, M);
                            if (c1 < G) K->reduce16(ri + c1, G - c1, q, M);
                            b = step;
                        }
                        if (alo < c0) K->axpy16(ri + alo, s[z] + alo, a[z], c0 - alo);
                        if (c1 < G) K->axpy16(ri + c1, s[z] + c1, a[z], G - c1);
                        b += a[z] * step;
                    }
                    continue;
                }
                for (int z = ns; z < 4; z++) { s[z] = s[0]; a[z] = 0; }
                if (alo < c0) K->axpy16x4(ri + alo, s[0] + alo, s[1] + alo, s[2] + alo, s[3] + alo,
                                          a[0], a[1], a[2], a[3], c0 - alo);
                if (c1 < G) K->axpy16x4(ri + c1, s[0] + c1, s[1] + c1, s[2] + c1, s[3] + c1,
                                        a[0], a[1], a[2], a[3], G - c1);
                b += add;
            }
            if (i < k1) {
                /* pivot row: now current; reduce, scale, find its first non-zero */
                if (alo < c0) K->reduce16(ri + alo, c0 - alo, q, M);
                if (c1 < G) K->reduce16(ri + c1, G - c1, q, M);
                uint16_t ui = lu->uinv[i];
                if (ui != 1) {
                    if (alo < c0) K->scale16(ri + alo, c0 - alo, ui, q, M);
                    if (c1 < G) K->scale16(ri + c1, G - c1, ui, q, M);
                }
                ub[i] = step;
                size_t f = lu->pc[i];
                if (R->e > 1) {
                    f = R->locur[i] < f ? R->locur[i] : f;
                    while (f < lu->pc[i] && ri[f] == 0) f++;
                }
                lu->rlo[i] = f; lu->rhi[i] = G;
            } else {
                if (b > ub[i]) ub[i] = b;
            }
        }
}

typedef struct { const zn_rest_t *R; size_t i0, i1; } zn_rest_job;

static void *rest_worker(void *arg)
{
    zn_rest_job *J = arg;
    rest_rows(J->R, J->i0, J->i1);
    return NULL;
}

/* Rows i0 .. i1 - 1 (>= k1) over up to `threads` workers (the calling thread one of them),
 * contiguous shares, when the work pays for the threads; the same entries whatever the
 * count. A worker that cannot start leaves its share to the calling thread. */
#ifndef ML_ZN_THREAD_MIN
#define ML_ZN_THREAD_MIN (1u << 20)   /* row entries x pivots of a panel */
#endif
static void rest_rows_threaded(const zn_rest_t *R, size_t i0, size_t i1, int threads)
{
    const size_t cols = (R->c0 - R->alo) + (R->G > R->c1 ? R->G - R->c1 : 0);
    const size_t n = i1 > i0 ? i1 - i0 : 0;
    if (threads > ML_ZN_MAX_THREADS) threads = ML_ZN_MAX_THREADS;
    if (threads < 2 || n < 2 * (size_t)threads ||
        (double)n * (double)cols * (double)(R->k1 - R->k0) < (double)ML_ZN_THREAD_MIN) {
        rest_rows(R, i0, i1);
        return;
    }
    zn_rest_job jobs[ML_ZN_MAX_THREADS];
    pthread_t tid[ML_ZN_MAX_THREADS];
    int started[ML_ZN_MAX_THREADS] = {0};
    for (int j = 0; j < threads; j++) {
        jobs[j].R = R;
        jobs[j].i0 = i0 + n * (size_t)j / (size_t)threads;
        jobs[j].i1 = i0 + n * (size_t)(j + 1) / (size_t)threads;
    }
    for (int j = 1; j < threads; j++)
        started[j] = ml_thread_create(&tid[j], rest_worker, &jobs[j]) == 0;
    rest_worker(&jobs[0]);
    for (int j = 1; j < threads; j++) {
        if (started[j]) pthread_join(tid[j], NULL);
        else rest_worker(&jobs[j]);
    }
}

static int phase1(ml_zn_lu_t *lu)
{
    const size_t m = lu->m, r = lu->r;
    const uint16_t q = (uint16_t)lu->q, p = (uint16_t)lu->p, M = lu->M;
    const zn_kernels_t *K = ml_zn__kernels();
    size_t kmax = m < r ? m : r;
    size_t *lo0 = xmalloc(m * sizeof(size_t)), *hi0 = xmalloc(m * sizeof(size_t));
    size_t *cnt = xcalloc(r + 2, sizeof(size_t));
    size_t *los = xmalloc(m * sizeof(size_t)), *his = xmalloc(m * sizeof(size_t));
    size_t *locur = xmalloc(m * sizeof(size_t));
    uint32_t *ub = xmalloc(m * sizeof(uint32_t)), *ubr = xmalloc(m * sizeof(uint32_t));
    uint8_t *mult = xmalloc(m * ML_ZN_PANEL);
    /* the pair way (zn_impl.h) for fields with q <= ML_ZN_PAIR_QMAX: the panel's pivot
     * rows interleaved in bytes, ML_ZN_PANEL / 2 pairs of r columns (NULL: not taken) */
    uint8_t *pairs = lu->e == 1 && lu->q <= ML_ZN_PAIR_QMAX && r >= ML_ZN_BLOCK_MIN
                         ? malloc(((size_t)ML_ZN_PANEL + 1) / 2 * 2 * r + 64) : NULL;
    size_t *spj = xmalloc(r * sizeof(size_t));
    uint16_t *spv = xmalloc(r * sizeof(uint16_t));
    const unsigned e = lu->e;
    int rc = -1;
    if (alloc_records(lu, kmax, 4096)) goto done;
    if (!ubr || !mult || !spj || !spv || !lo0 || !hi0 || !cnt || !los || !his || !locur || !ub)
        goto done;

    if (sort_rows(lu, lo0, hi0, cnt)) goto done;
    for (size_t i = 0; i < m; i++) {
        size_t o = lu->perm0[i];
        lu->row[i] = lu->wbuf + o * r;
        los[i] = lo0[o]; his[i] = hi0[o]; locur[i] = lo0[o];
        ub[i] = q - 1u; ubr[i] = q - 1u;
    }

    /* Panels of PB columns. A panel is "blocked" when the active width G - c0 is large
     * (dense matrices, wide bands): row operations then touch only the panel's columns,
     * the multipliers are kept per physical row, and the rest of every row (columns
     * >= c1, and for rings the skipped columns < c0) is updated once per panel with
     * up to 4 pivot rows per pass: each row is read and written once per panel instead
     * of once per pivot (cache blocking), with the sums kept unreduced in uint16. */
    const size_t PB = ML_ZN_PANEL;
    const uint32_t step = (uint32_t)(q - 1u);
    size_t t = 0, c = 0, E = 0, G = 0, r2 = 0;
    while (c < r && t < m) {
        if (ml_interrupt_poll()) goto done;      /* Ctrl-C: rc = -1, the caller drops lu */
        const size_t c0 = c, c1 = c0 + PB < r ? c0 + PB : r, k0 = t;
        while (E < m && los[E] <= c) { if (his[E] > G) G = his[E]; E++; }
        const int blocked = G > c0 + ML_ZN_BLOCK_MIN;
        if (blocked)
            for (size_t i = t; i < E; i++) {
                memset(mult + (size_t)(lu->row[i] - lu->wbuf) / r * PB, 0, PB);
                ubr[i] = ub[i];
            }
        while (c < c1 && t < m) {
            while (E < m && los[E] <= c) {
                if (his[E] > G) G = his[E];
                if (blocked) {
                    memset(mult + (size_t)(lu->row[E] - lu->wbuf) / r * PB, 0, PB);
                    ubr[E] = ub[E];
                }
                E++;
            }
            const size_t hiop = blocked ? c1 : G;     /* row operations stop here */
            size_t piv = SIZE_MAX;
            for (size_t i = t; i < E; i++) {
                uint16_t x = (uint16_t)(lu->row[i][c] % q);
                lu->row[i][c] = x;
                if (x % p) { piv = i; break; }
            }
            if (piv == SIZE_MAX) { lu->skip[r2++] = c++; continue; }
            if (piv != t) {
                uint16_t *tp = lu->row[t]; lu->row[t] = lu->row[piv]; lu->row[piv] = tp;
                uint32_t tu = ub[t]; ub[t] = ub[piv]; ub[piv] = tu;
                tu = ubr[t]; ubr[t] = ubr[piv]; ubr[piv] = tu;
                size_t tl = locur[t]; locur[t] = locur[piv]; locur[piv] = tl;
                lu->sign = -lu->sign;
            }
            lu->ipiv[t] = piv;
            uint16_t *pr = lu->row[t];
            /* first column of the pivot row that row operations must cover */
            size_t f = locur[t] < c ? locur[t] : c;
            size_t nsp = 0;                           /* sparse skipped entries (rings) */
            int sparse = 0;
            uint16_t u, ui;
            if (e == 1) f = c;                        /* field: everything left of c is zero */
            if (e > 1 && !blocked) {
                /* left of c a row can be non-zero only at skipped columns */
                size_t s0 = lower_bound(lu->skip, r2, locur[t]);
                u = (uint16_t)(pr[c] % q);
                ui = (uint16_t)ml_zn_inv(u, q);
                f = c;
                for (size_t s = s0; s < r2; s++) {
                    size_t j = lu->skip[s];
                    uint16_t v = (uint16_t)((uint32_t)(pr[j] % q) * ui % q);
                    pr[j] = v;
                    if (v) { if (!nsp) f = j; spj[nsp] = j; spv[nsp] = v; nsp++; }
                }
                K->reduce16(pr + c, hiop - c, q, M);
                if (ui != 1) K->scale16(pr + c, hiop - c, ui, q, M);
                sparse = nsp * 8 < c - f;
            } else {
                if (blocked && f < c0) f = c0;        /* columns < c0 wait for the panel end */
                while (f < c && pr[f] % q == 0) { pr[f] = 0; f++; }
                K->reduce16(pr + f, hiop - f, q, M);
                u = pr[c];
                ui = (uint16_t)ml_zn_inv(u, q);
                if (ui != 1) K->scale16(pr + f, hiop - f, ui, q, M);
            }
            const size_t fop = sparse ? c : f;        /* contiguous part of row operations */
            lu->detu = lu->detu * u % q;
            lu->pc[t] = c; lu->rlo[t] = f; lu->rhi[t] = G; lu->uinv[t] = (uint8_t)ui;
            size_t nl = E - t - 1;
            if (lu->llen + nl > lu->lcap) {
                size_t nc = lu->lcap * 2;
                while (nc < lu->llen + nl) nc *= 2;
                uint8_t *np = realloc(lu->lpool, nc);
                if (!np) goto done;
                lu->lpool = np; lu->lcap = nc;
            }
            lu->loff[t] = lu->llen; lu->lend[t] = E;
            uint8_t *L = lu->lpool + lu->llen;
            lu->llen += nl;
            for (size_t i = t + 1; i < E; i++) {
                uint16_t *ri = lu->row[i];
                uint16_t x = (uint16_t)(ri[c] % q);
                L[i - t - 1] = (uint8_t)x;
                if (!x) { ri[c] = 0; continue; }
                uint16_t a = (uint16_t)(q - x);
                if (ub[i] + (uint32_t)a * step > 65535u) {
                    size_t lo = locur[i];
                    if (blocked && lo < c0) lo = c0;
                    if (e == 1 && lo < c) lo = c;
                    if (e > 1 && !blocked && lo < c) {
                        size_t s0 = lower_bound(lu->skip, r2, lo);
                        if ((r2 - s0) * 4 < c - lo) {
                            for (size_t s = s0; s < r2; s++) ri[lu->skip[s]] %= q;
                            lo = c;
                        }
                    }
                    if (lo < hiop) K->reduce16(ri + lo, hiop - lo, q, M);
                    ub[i] = step;
                }
                K->axpy16(ri + fop, pr + fop, a, hiop - fop);
                if (sparse)
                    for (size_t z = 0; z < nsp; z++) ri[spj[z]] = (uint16_t)(ri[spj[z]] + a * spv[z]);
                ri[c] = 0;
                ub[i] += (uint32_t)a * step;
                if (blocked) mult[(size_t)(ri - lu->wbuf) / r * PB + (t - k0)] = (uint8_t)a;
                if (locur[t] < locur[i]) locur[i] = locur[t];
                if (f < locur[i]) locur[i] = f;
            }
            t++; c++;
        }
        if (!blocked) continue;
        /* ---- the rest of each row: [alo, c0) (rings) and [c1, G): the panel's pivot
         * rows in order (each reads the earlier ones), then the others, independent of
         * each other, over up to lu->threads workers */
        const size_t k1 = t;
        size_t alo = c0;
        if (e > 1)
            for (size_t k = k0; k < E; k++) if (locur[k] < alo) alo = locur[k];
        zn_rest_t R = {lu, K, mult, ub, ubr, locur, k0, k1, c0, c1, alo, G, q, M, step, e,
                       NULL, 0};
        rest_rows(&R, k0, k1);
        if (pairs && alo == c0 && c1 < G) {
            /* the pair way: the panel's pivot rows (now reduced) as byte pairs */
            const size_t len = G - c1;
            for (size_t k = k0; k < k1; k += 2) {
                uint8_t *o = pairs + (k - k0) / 2 * 2 * len;
                const uint16_t *x = lu->row[k] + c1, *y = k + 1 < k1 ? lu->row[k + 1] + c1 : NULL;
                for (size_t j = 0; j < len; j++) {
                    o[2 * j] = (uint8_t)x[j];
                    o[2 * j + 1] = y ? (uint8_t)y[j] : 0;
                }
            }
            R.pairs = pairs;
            R.pstride = 2 * len;
        }
        rest_rows_threaded(&R, k1, E, lu->threads);
    }
    while (c < r) lu->skip[r2++] = c++;
    lu->K1 = t;
    lu->r2 = r2;
    lu->m2 = m - t;
    /* residual rows reduced in full (entries outside [locur, G) are zero) */
    for (size_t i = t; i < m; i++)
        if (locur[i] < G) K->reduce16(lu->row[i] + locur[i], G - locur[i], q, M);
    column_sign(lu, t);
    rc = 0;
done:
    free(lo0); free(hi0); free(cnt); free(los); free(his); free(locur); free(ub); free(ubr); free(mult); free(pairs); free(spj); free(spv);
    return rc;
}

static int phase2(ml_zn_lu_t *lu)
{
    const size_t m2 = lu->m2, r2 = lu->r2;
    const unsigned q = lu->q, p = lu->p, e = lu->e;
    size_t kmax = m2 < r2 ? m2 : r2;
    const zn_kernels_t *K = ml_zn__kernels();
    lu->K2 = 0;
    lu->cperm2 = xmalloc(r2 * sizeof(size_t));
    lu->ipiv2 = xmalloc(kmax * sizeof(size_t));
    lu->uinv2 = xmalloc(kmax);
    lu->v2 = xmalloc(kmax);
    if (!lu->cperm2 || !lu->ipiv2 || !lu->uinv2 || !lu->v2) return -1;
    for (size_t j = 0; j < r2; j++) lu->cperm2[j] = j;
    if (e == 1 || !m2 || !r2) return 0;     /* field: the residual block is zero */
    uint8_t *S = lu->S = xmalloc(m2 * r2);
    if (!S) return -1;
    int any = 0;
    for (size_t i = 0; i < m2; i++) {
        const uint16_t *w = lu->row[lu->K1 + i];
        for (size_t j = 0; j < r2; j++) {
            S[i * r2 + j] = (uint8_t)(w[lu->skip[j]] % q);
            any |= S[i * r2 + j];
        }
    }
    if (!any) return 0;
    unsigned vmin = 1;
    size_t k;
    for (k = 0; k < kmax; k++) {
        if (ml_interrupt_poll()) return -1;      /* Ctrl-C: the caller drops lu */
        unsigned best = e;
        size_t bi = 0, bj = 0;
        for (size_t i = k; i < m2 && best > vmin; i++)
            for (size_t j = k; j < r2; j++) {
                unsigned x = S[i * r2 + j];
                if (!x) continue;
                unsigned v = valuation(x, p, e);
                if (v < best) { best = v; bi = i; bj = j; if (v <= vmin) break; }
            }
        if (best >= e) break;
        vmin = best;
        if (bi != k) {
            for (size_t j = 0; j < r2; j++) {
                uint8_t tmp = S[k * r2 + j]; S[k * r2 + j] = S[bi * r2 + j]; S[bi * r2 + j] = tmp;
            }
            lu->sign = -lu->sign;
        }
        lu->ipiv2[k] = bi;
        if (bj != k) {
            for (size_t i = 0; i < m2; i++) {
                uint8_t tmp = S[i * r2 + k]; S[i * r2 + k] = S[i * r2 + bj]; S[i * r2 + bj] = tmp;
            }
            size_t tc = lu->cperm2[k]; lu->cperm2[k] = lu->cperm2[bj]; lu->cperm2[bj] = tc;
            lu->sign = -lu->sign;
        }
        unsigned pv = ipow(p, best);
        unsigned u = S[k * r2 + k] / pv;
        unsigned ui = ml_zn_inv(u, q);
        lu->detu = lu->detu * u % q;
        lu->uinv2[k] = (uint8_t)ui;
        lu->v2[k] = (uint8_t)best;
        uint8_t *rk = S + k * r2;
        for (size_t j = k; j < r2; j++) rk[j] = (uint8_t)(rk[j] * ui % q);
        for (size_t i = k + 1; i < m2; i++) {
            uint8_t *ri = S + i * r2;
            unsigned tm = ri[k] / pv;
            ri[k] = (uint8_t)tm;                 /* the multiplier, stored as L */
            if (!tm) continue;
            if (k + 1 < r2) K->axpy8(ri + k + 1, rk + k + 1, (uint16_t)(q - tm), r2 - k - 1,
                                     (uint16_t)q, lu->M);
        }
    }
    lu->K2 = k;
    /* T2' = D^-1 T2: divide each pivot row by its p^v (exact) */
    for (size_t kk = 0; kk < lu->K2; kk++) {
        unsigned pv = ipow(p, lu->v2[kk]);
        uint8_t *rk = S + kk * r2;
        rk[kk] = 1;
        for (size_t j = kk + 1; j < r2; j++) rk[j] = (uint8_t)(rk[j] / pv);
    }
    return 0;
}

/* Phase 1 over GF(3), Z/4 or Z/8 by the bit-sliced dense elimination of csrc/dense/bitsliced.c: the
 * same records as phase1 from the same row order (so the same factorisation), every
 * row band the whole width. */
static int phase1_bitsliced(ml_zn_lu_t *lu)
{
    const size_t m = lu->m, r = lu->r, kmax = m < r ? m : r;
    size_t *rows = xmalloc(m * sizeof(size_t)), *lo0 = xmalloc(m * sizeof(size_t));
    size_t *hi0 = xmalloc(m * sizeof(size_t)), *cnt = xcalloc(r + 2, sizeof(size_t));
    int rc = -1;
    if (alloc_records(lu, kmax, ml_gf3_loff(m, kmax))) goto done;
    if (!rows || !lo0 || !hi0 || !cnt) goto done;
    if (sort_rows(lu, lo0, hi0, cnt)) goto done;
    memcpy(rows, lu->perm0, m * sizeof(size_t));
    long k1 = ml_bitsliced_echelon(lu->q, m, r, lu->wbuf, r, lu->pc, lu->ipiv, lu->uinv,
                                   lu->lpool, rows);
    if (k1 < 0) goto done;
    const size_t t = (size_t)k1;
    lu->llen = ml_gf3_loff(m, t);
    for (size_t i = 0; i < m; i++) lu->row[i] = lu->wbuf + rows[i] * r;
    for (size_t k = 0; k < t; k++) {
        size_t f = lu->pc[k];
        if (lu->e > 1) {                          /* skipped columns left of the pivot */
            f = 0;
            while (f < lu->pc[k] && !lu->row[k][f]) f++;
        }
        lu->rlo[k] = f; lu->rhi[k] = r;
        lu->lend[k] = m; lu->loff[k] = ml_gf3_loff(m, k);
        lu->detu = lu->detu * lu->uinv[k] % lu->q;   /* the pivot is its own inverse */
        if (lu->ipiv[k] != k) lu->sign = -lu->sign;
    }
    size_t r2 = 0;
    for (size_t c = 0, k = 0; c < r; c++) {
        if (k < t && lu->pc[k] == c) k++;
        else lu->skip[r2++] = c;
    }
    lu->K1 = t; lu->r2 = r2; lu->m2 = m - t;
    column_sign(lu, t);
    rc = 0;
done:
    free(rows); free(lo0); free(hi0); free(cnt);
    return rc;
}

/* Whether the bit-sliced elimination (q = 3, 4, 8) beats the band elimination: its work is
 * about m r min(m, r) / 64 word operations against the band's sum of squared row extents
 * in uint16 entries (measured: the crossover is near a ratio of ML_ZN_GF3_RATIO). */
#ifndef ML_ZN_GF3_RATIO
#define ML_ZN_GF3_RATIO 24.0
#endif
static int bitsliced_pays(const ml_zn_lu_t *lu)
{
    const size_t m = lu->m, r = lu->r;
    if (m < 32 || r < 32) return 0;            /* thin: rows of one padded word or less */
    double band = 0;
    for (size_t i = 0; i < m; i++)
        if (lu->hi0[i] > lu->lo0[i]) {
            double x = (double)(lu->hi0[i] - lu->lo0[i]);
            band += x * x;
        }
    double dense = (double)m * (double)r * (double)(m < r ? m : r);
    return band * ML_ZN_GF3_RATIO >= dense;
}

int ml_zn_lu_set_method(ml_zn_lu_t *lu, int method)
{
    if (lu->factored || method < ML_ZN_AUTO || method > ML_ZN_BITSLICED) return -1;
    if (method == ML_ZN_BITSLICED && lu->q != 3 && lu->q != 4 && lu->q != 8) return -1;
    lu->method = method;
    return 0;
}

int ml_zn_lu_method(const ml_zn_lu_t *lu) { return lu->method; }

int ml_zn_lu_set_threads(ml_zn_lu_t *lu, int threads)
{
    if (lu->factored) return -1;
    lu->threads = threads < 1 ? 1 : (threads > ML_ZN_MAX_THREADS ? ML_ZN_MAX_THREADS : threads);
    return 0;
}

int ml_zn_lu_factor(ml_zn_lu_t *lu)
{
    if (lu->factored) return 0;
    if (lu->method == ML_ZN_AUTO)
        lu->method = (lu->q == 3 || lu->q == 4 || lu->q == 8) && bitsliced_pays(lu)
                         ? ML_ZN_BITSLICED : ML_ZN_BAND;
    if ((lu->method == ML_ZN_BITSLICED ? phase1_bitsliced(lu) : phase1(lu)) || phase2(lu))
        return -1;
    lu->factored = 1;
    return 0;
}

unsigned ml_zn_lu_det(const ml_zn_lu_t *lu)
{
    const unsigned q = lu->q;
    if (lu->m != lu->r) return 0;
    if (lu->K1 + lu->K2 < lu->m) return 0;
    unsigned d = lu->detu % q;
    for (size_t k = 0; k < lu->K2; k++) d = d * ipow(lu->p, lu->v2[k]) % q;
    if (lu->sign < 0) d = (q - d) % q;
    return d;
}
