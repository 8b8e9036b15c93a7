/* smith.c: small dense Smith normal forms over Z/p^e with both transforms (smith.h).
 *
 * LocalSmith of src/modlights/engines/reference.py step for step: at step k the pivot is
 * the first entry (row-major) of least p-adic valuation in M[k:, k:]; it is swapped to
 * (k, k), its row is scaled by the inverse of its unit part (so M[k][k] = p^v), the rows
 * below lose multiples of row k (exact: their valuations in column k are >= v), and the
 * columns right of k lose multiples of column k, done on V alone (row k is the only one
 * with entries there in column k). Every row operation is done on U too, so U A V = M.
 * Arithmetic mod q < 2^63 with unsigned __int128 products. */
#include "engines/smith.h"

#include "include/modlights.h"

#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

static inline uint64_t mulmod(uint64_t a, uint64_t b, uint64_t q)
{
    return (uint64_t)((u128)a * b % q);
}

/* (a - b) mod q for a, b in [0, q). */
static inline uint64_t submod(uint64_t a, uint64_t b, uint64_t q)
{
    return a >= b ? a - b : a + (q - b);
}

/* The inverse of the unit a mod q (extended Euclid); 0 when a is not a unit. */
static uint64_t inv_mod(uint64_t a, uint64_t q)
{
    /* the Bezout coefficient of a kept mod q (no signed 128-bit division: the
     * WebAssembly build has no __modti3) */
    uint64_t r0 = q, r1 = a % q, t0 = 0, t1 = 1 % q;
    while (r1) {
        uint64_t qq = r0 / r1, tmp = r0 - qq * r1;
        r0 = r1;
        r1 = tmp;
        tmp = submod(t0, mulmod(qq % q, t1, q), q);
        t0 = t1;
        t1 = tmp;
    }
    return r0 == 1 ? t0 : 0;
}

/* The p-adic valuation of x in Z/p^e (e for x = 0). */
static int val(uint64_t x, uint64_t p, int e)
{
    if (x == 0) return e;
    int v = 0;
    while (x % p == 0) {
        x /= p;
        v++;
    }
    return v;
}

void ml__smith_free(ml__smith *s)
{
    if (!s) return;
    free(s->U);
    free(s->V);
    free(s->v);
    s->U = s->V = NULL;
    s->v = NULL;
}

int ml__smith_init(ml__smith *s, const uint64_t *a, int m, int r, uint64_t p, int e)
{
    memset(s, 0, sizeof *s);
    if (m < 0 || r < 0 || p < 2 || e < 1) return ML_EINVAL;
    uint64_t q = 1;
    for (int i = 0; i < e; i++) {
        if (q > (((uint64_t)1 << 63) - 1) / p) return ML_EINVAL;
        q *= p;
    }
    s->m = m;
    s->r = r;
    s->p = p;
    s->e = e;
    s->q = q;
    size_t mm = (size_t)m, rr = (size_t)r;
    uint64_t *M = malloc((mm * rr + 1) * sizeof *M);
    s->U = calloc(mm * mm + 1, sizeof *s->U);
    s->V = calloc(rr * rr + 1, sizeof *s->V);
    s->v = malloc((rr ? rr : 1) * sizeof *s->v);
    if (!M || !s->U || !s->V || !s->v) {
        free(M);
        ml__smith_free(s);
        return ML_ENOMEM;
    }
    for (size_t i = 0; i < mm * rr; i++) M[i] = a[i] % q;
    for (size_t i = 0; i < mm; i++) s->U[i * mm + i] = 1 % q;
    for (size_t i = 0; i < rr; i++) s->V[i * rr + i] = 1 % q;
    uint64_t det_u = 1 % q;
    int neg_v = 0;
    int kmax = m < r ? m : r, K = 0;
    for (int k = 0; k < kmax; k++) {
        int bi = -1, bj = -1, bv = e;
        for (int i = k; i < m && bv > 0; i++)
            for (int j = k; j < r; j++) {
                int vv = val(M[(size_t)i * rr + j], p, e);
                if (vv < bv) {
                    bv = vv;
                    bi = i;
                    bj = j;
                    if (vv == 0) break;
                }
            }
        if (bi < 0) break; /* M[k:, k:] = 0 */
        if (bi != k) {
            for (size_t j = 0; j < rr; j++) {
                uint64_t t = M[(size_t)k * rr + j];
                M[(size_t)k * rr + j] = M[(size_t)bi * rr + j];
                M[(size_t)bi * rr + j] = t;
            }
            for (size_t j = 0; j < mm; j++) {
                uint64_t t = s->U[(size_t)k * mm + j];
                s->U[(size_t)k * mm + j] = s->U[(size_t)bi * mm + j];
                s->U[(size_t)bi * mm + j] = t;
            }
            det_u = det_u ? q - det_u : 0;
        }
        if (bj != k) {
            for (size_t i = 0; i < mm; i++) {
                uint64_t t = M[i * rr + k];
                M[i * rr + k] = M[i * rr + bj];
                M[i * rr + bj] = t;
            }
            for (size_t i = 0; i < rr; i++) {
                uint64_t t = s->V[i * rr + k];
                s->V[i * rr + k] = s->V[i * rr + bj];
                s->V[i * rr + bj] = t;
            }
            neg_v ^= 1;
        }
        uint64_t pv = 1;
        for (int i = 0; i < bv; i++) pv *= p;
        uint64_t *Mk = M + (size_t)k * rr, *Uk = s->U + (size_t)k * mm;
        uint64_t uinv = inv_mod(Mk[k] / pv, q);
        for (size_t j = 0; j < rr; j++) Mk[j] = mulmod(Mk[j], uinv, q);
        for (size_t j = 0; j < mm; j++) Uk[j] = mulmod(Uk[j], uinv, q);
        det_u = mulmod(det_u, uinv, q);
        for (int i = k + 1; i < m; i++) {
            uint64_t *Mi = M + (size_t)i * rr, *Ui = s->U + (size_t)i * mm;
            uint64_t t = Mi[k] / pv;
            if (!t) continue;
            for (size_t j = 0; j < rr; j++) Mi[j] = submod(Mi[j], mulmod(t, Mk[j], q), q);
            for (size_t j = 0; j < mm; j++) Ui[j] = submod(Ui[j], mulmod(t, Uk[j], q), q);
        }
        for (int j = k + 1; j < r; j++) {
            uint64_t t = Mk[j] / pv;
            Mk[j] = 0;
            if (!t) continue;
            for (size_t i = 0; i < rr; i++)
                s->V[i * rr + j] = submod(s->V[i * rr + j], mulmod(s->V[i * rr + k], t, q), q);
        }
        s->v[k] = bv;
        K = k + 1;
    }
    for (int k = K; k < r; k++) s->v[k] = e;
    s->rank = K;
    s->det_u = det_u;
    s->det_v = neg_v ? (q - 1) % q : 1 % q;
    free(M);
    return 0;
}

int ml__smith_kernel_log(const ml__smith *s)
{
    int t = 0;
    for (int j = 0; j < s->r; j++) t += s->v[j];
    return t;
}

int ml__smith_generators(const ml__smith *s, uint64_t *gens, int *logs)
{
    int r = s->r, c = 0;
    /* argsort(-v, stable): v descending, ties by column; v runs 0..e */
    for (int want = s->e; want >= 1; want--)
        for (int j = 0; j < r; j++) {
            if (s->v[j] != want) continue;
            uint64_t f = 1;
            for (int i = 0; i < s->e - want; i++) f *= s->p;
            for (int i = 0; i < r; i++)
                gens[(size_t)c * r + i] = mulmod(s->V[(size_t)i * r + j], f, s->q);
            logs[c++] = want;
        }
    return c;
}

int ml__smith_solve(const ml__smith *s, const uint64_t *B, int k, uint64_t *X, uint8_t *ok)
{
    int m = s->m, r = s->r, K = s->rank;
    uint64_t q = s->q;
    uint64_t *Y = calloc((size_t)(r ? r : 1) * (size_t)(k ? k : 1), sizeof *Y);
    if (!Y) return ML_ENOMEM;
    for (int c = 0; c < k; c++) ok[c] = 1;
    for (int i = 0; i < m; i++) {
        uint64_t pv = 1;
        if (i < K)
            for (int t = 0; t < s->v[i]; t++) pv *= s->p;
        for (int c = 0; c < k; c++) {
            uint64_t x = 0; /* (U B)[i][c] */
            for (int l = 0; l < m; l++)
                x = (x + mulmod(s->U[(size_t)i * m + l], B[(size_t)l * k + c] % q, q)) % q;
            if (i < K) {
                if (x % pv) ok[c] = 0;
                else Y[(size_t)i * k + c] = x / pv;
            } else if (x) {
                ok[c] = 0;
            }
        }
    }
    for (int i = 0; i < r; i++)
        for (int c = 0; c < k; c++) {
            uint64_t x = 0;
            for (int l = 0; l < K; l++)
                x = (x + mulmod(s->V[(size_t)i * r + l], Y[(size_t)l * k + c], q)) % q;
            X[(size_t)i * k + c] = x;
        }
    free(Y);
    return 0;
}

int ml__smith_det(const ml__smith *s, uint64_t *det)
{
    if (s->m != s->r) return ML_EINVAL;
    if (s->rank < s->m) {
        *det = 0;
        return 0;
    }
    uint64_t d = 1 % s->q;
    for (int j = 0; j < s->r; j++)
        for (int t = 0; t < s->v[j]; t++) d = mulmod(d, s->p, s->q);
    d = mulmod(d, inv_mod(s->det_u, s->q), s->q);
    *det = mulmod(d, s->det_v, s->q);
    return 0;
}

/* out = V D' U with D' = diag(1 x rank, 0...) (r x m). */
static void vdu(const ml__smith *s, uint64_t *out)
{
    int m = s->m, r = s->r, K = s->rank;
    for (int i = 0; i < r; i++)
        for (int j = 0; j < m; j++) {
            uint64_t x = 0;
            for (int l = 0; l < K; l++)
                x = (x + mulmod(s->V[(size_t)i * r + l], s->U[(size_t)l * m + j], s->q)) % s->q;
            out[(size_t)i * m + j] = x;
        }
}

int ml__smith_inverse(const ml__smith *s, uint64_t *out)
{
    if (s->m != s->r || s->rank < s->m) return 0;
    for (int j = 0; j < s->r; j++)
        if (s->v[j]) return 0;
    vdu(s, out);
    return 1;
}

int ml__smith_pseudo_inverse(const ml__smith *s, uint64_t *out)
{
    for (int j = 0; j < s->rank; j++)
        if (s->v[j]) return 0;
    vdu(s, out);
    return 1;
}
