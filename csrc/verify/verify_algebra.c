/* verify_algebra.c: the checker's algebra (Python's search/verify/algebra.py): A x, the sorted
 * entries of A, elimination mod p^e with pivots of least p-valuation (a local Smith form
 * by row operations), the sizes of ker A and of the span of the generators, the kernel
 * checks, coordinates in the generators (solving H^T c = z mod every p^e, joined by the
 * Chinese remainder theorem) and the coset walk. Its own arithmetic: entries are bytes
 * mod q = p^e <= 255, products below 2^16. See verify_impl.h. */
#include "verify/verify_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mv_pp mv_prime_powers(int n)
{
    mv_pp out;
    memset(&out, 0, sizeof out);
    for (int p = 2; p * p <= n; p++)
        if (n % p == 0) {
            int e = 0, q = 1;
            while (n % p == 0)
                n /= p, e++, q *= p;
            out.p[out.count] = p, out.e[out.count] = e, out.q[out.count++] = q;
        }
    if (n > 1)
        out.p[out.count] = n, out.e[out.count] = 1, out.q[out.count++] = n;
    return out;
}

int mv_inv(int a, int q)
{
    int r0 = ((a % q) + q) % q, r1 = q, s0 = 1, s1 = 0;
    while (r1) {
        int t = r0 / r1, x = r0 - t * r1, y = s0 - t * s1;
        r0 = r1, r1 = x, s0 = s1, s1 = y;
    }
    return ((s0 % q) + q) % q;
}

void mv_apply(const mv_matrix *A, const uint8_t *x, uint8_t *acc)
{
    int64_t *s = calloc(mv_sz(A->m), sizeof *s);
    if (!s) {                           /* the slow way, without the scratch row */
        memset(acc, 0, (size_t)A->m);
        for (int64_t k = 0; k < A->nnz; k++)
            acc[A->ci[k]] = (uint8_t)((acc[A->ci[k]] + x[A->tj[k]]) % A->n);
        return;
    }
    for (int64_t k = 0; k < A->nnz; k++)
        s[A->ci[k]] += x[A->tj[k]];
    for (int64_t i = 0; i < A->m; i++)
        acc[i] = (uint8_t)(s[i] % A->n);
    free(s);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int mv_entries(mv *v, const mv_matrix *A, const int64_t *cells, const int64_t *taps,
               uint64_t **keys, uint8_t **vals, int64_t *count)
{
    uint64_t *k = malloc(mv_sz(A->nnz) * sizeof *k);
    uint8_t *c = malloc(mv_sz(A->nnz));
    if (!k || !c) {
        free(k);
        free(c);
        return mv_nomem(v);
    }
    for (int64_t e = 0; e < A->nnz; e++) {
        uint64_t i = (uint64_t)(cells ? cells[A->ci[e]] : A->ci[e]);
        uint64_t j = (uint64_t)(taps ? taps[A->tj[e]] : A->tj[e]);
        k[e] = i * (uint64_t)A->r + j;
    }
    qsort(k, (size_t)A->nnz, sizeof *k, cmp_u64);
    int64_t out = 0;
    for (int64_t e = 0; e < A->nnz;) {
        int64_t f = e;
        while (f < A->nnz && k[f] == k[e])
            f++;
        int val = (int)((f - e) % A->n);
        if (val) {
            k[out] = k[e];
            c[out++] = (uint8_t)val;
        }
        e = f;
    }
    *keys = k;
    *vals = c;
    *count = out;
    return ML_OK;
}

/* ---------------------------------------------------------------- elimination mod p^e */
int mv_eliminate(mv *v, uint8_t *M, int64_t a, int64_t b, int p, int e, uint8_t *Z,
                 int64_t t, mv_piv *piv, int64_t *npiv)
{
    int q = 1;
    for (int i = 0; i < e; i++)
        q *= p;
    uint8_t *left = malloc(mv_sz(a)), *done = calloc(mv_sz(b), 1);
    if (!left || !done) {
        free(left);
        free(done);
        return mv_nomem(v);
    }
    memset(left, 1, (size_t)a);
    int64_t np = 0;
    for (int lv = 0, pv = 1; lv < e; lv++, pv *= p)
        for (int64_t j = 0; j < b; j++) {
            if (done[j])
                continue;
            int64_t i = -1;
            for (int64_t r = 0; r < a && i < 0; r++)
                if (left[r] && (M[r * b + j] / pv) % p)
                    i = r;
            if (i < 0)
                continue;
            if (mv_poll(v))
                goto out;
            int inv = mv_inv(M[i * b + j] / pv, q);
            /* with e = 1 the pivot row is zero left of j (columns passed are cleared or
             * zero in every remaining row): its update starts at j */
            int64_t from = e == 1 ? j : 0;
            const uint8_t *pr = M + i * b, *pz = Z ? Z + i * t : NULL;
            for (int64_t r = 0; r < a; r++) {
                uint8_t *row = M + r * b;
                if (r == i || !left[r] || !row[j])
                    continue;
                int f = (row[j] / pv) * inv % q;
                for (int64_t c = from; c < b; c++)
                    if (pr[c])
                        row[c] = (uint8_t)(((int)row[c] - f * pr[c] % q + q) % q);
                if (Z) {
                    uint8_t *zr = Z + r * t;
                    for (int64_t c = 0; c < t; c++)
                        zr[c] = (uint8_t)(((int)zr[c] - f * pz[c] % q + q) % q);
                }
            }
            left[i] = 0;
            done[j] = 1;
            piv[np].i = i, piv[np].j = j, piv[np++].v = lv;
        }
out:
    free(left);
    free(done);
    *npiv = np;
    return v->rc;
}

/* The rank of A mod 2, rows packed 64 columns a word; O(m r min(m, r) / 64). */
static int rank_gf2(mv *v, const mv_matrix *A, int64_t *rank)
{
    int64_t m = A->m, r = A->r, w = (r + 63) / 64;
    uint64_t *P = calloc(mv_sz(m * w), sizeof *P);
    uint8_t *left = malloc(mv_sz(m));
    if (!P || !left) {
        free(P);
        free(left);
        return mv_nomem(v);
    }
    memset(left, 1, (size_t)m);
    for (int64_t e = 0; e < A->nent; e++)
        if (A->vals[e] & 1) {
            uint64_t i = A->keys[e] / (uint64_t)r, j = A->keys[e] % (uint64_t)r;
            P[i * (uint64_t)w + j / 64] |= UINT64_C(1) << (j % 64);
        }
    int64_t rk = 0;
    for (int64_t j = 0; j < r; j++) {
        int64_t word = j / 64;
        uint64_t bit = UINT64_C(1) << (j % 64);
        int64_t i = -1;
        for (int64_t s = 0; s < m && i < 0; s++)
            if (left[s] && (P[s * w + word] & bit))
                i = s;
        if (i < 0)
            continue;
        if (mv_poll(v))
            break;
        const uint64_t *pr = P + i * w;
        for (int64_t s = 0; s < m; s++) {
            uint64_t *row = P + s * w;
            if (s != i && left[s] && (row[word] & bit))
                for (int64_t c = word; c < w; c++)
                    row[c] ^= pr[c];
        }
        left[i] = 0;
        rk++;
    }
    free(P);
    free(left);
    *rank = rk;
    return v->rc;
}

/* log_p |{x in (Z/p^e)^r : A x = 0}|. */
static int log_kernel(mv *v, mv_matrix *A, int p, int e, int q, int64_t *out)
{
    if (!A->keys && mv_entries(v, A, NULL, NULL, &A->keys, &A->vals, &A->nent))
        return v->rc;
    if (q == 2) {
        int64_t rank = 0;
        if (rank_gf2(v, A, &rank))
            return v->rc;
        *out = A->r - rank;
        return ML_OK;
    }
    uint8_t *D = calloc(mv_sz(A->m * A->r), 1);
    int64_t lim = A->m < A->r ? A->m : A->r;
    mv_piv *piv = malloc(mv_sz(lim) * sizeof *piv);
    if (!D || !piv) {
        free(D);
        free(piv);
        return mv_nomem(v);
    }
    for (int64_t k = 0; k < A->nent; k++)
        D[A->keys[k]] = (uint8_t)(A->vals[k] % q);
    int64_t np = 0;
    if (!mv_eliminate(v, D, A->m, A->r, p, e, NULL, 0, piv, &np)) {
        int64_t s = e * (A->r - np);
        for (int64_t k = 0; k < np; k++)
            s += piv[k].v;
        *out = s;
    }
    free(D);
    free(piv);
    return v->rc;
}

/* log_p of the size of the subgroup of (Z/p^e)^r the rows of H generate. */
static int log_span(mv *v, const uint8_t *H, int64_t k, int64_t r, int p, int e, int q,
                    int64_t *out)
{
    *out = 0;
    if (!k)
        return ML_OK;
    uint8_t *M = malloc(mv_sz(k * r));
    int64_t lim = k < r ? k : r;
    mv_piv *piv = malloc(mv_sz(lim) * sizeof *piv);
    if (!M || !piv) {
        free(M);
        free(piv);
        return mv_nomem(v);
    }
    for (int64_t x = 0; x < k * r; x++)
        M[x] = (uint8_t)(H[x] % q);
    int64_t np = 0;
    if (!mv_eliminate(v, M, k, r, p, e, NULL, 0, piv, &np))
        for (int64_t x = 0; x < np; x++)
            *out += e - piv[x].v;
    free(M);
    free(piv);
    return v->rc;
}

/* ---------------------------------------------------------------- the kernel */
void mv_kernel_free(mv_kernel *K)
{
    free(K->H);
    free(K->orders);
    memset(K, 0, sizeof *K);
}

int mv_check_kernel(mv *v, size_t kd, mv_matrix *A, const char *what, mv_kernel *K)
{
    int n = A->n;
    int64_t r = A->r;
    memset(K, 0, sizeof *K);
    size_t gens, ords;
    if (mv_field(v, kd, "generators", what, &gens) || mv_field(v, kd, "orders", what, &ords))
        return v->rc;
    if (!mv_is_list(v, gens) || !mv_is_list(v, ords))
        return mv_fail(v, "%s: generators and orders must be lists", what);
    int64_t k = (int64_t)mv_count(v, gens);
    if ((size_t)k != mv_count(v, ords))
        return mv_fail(v, "%s: %" PRId64 " generators but %zu orders", what, k,
                       mv_count(v, ords));
    K->n = n, K->k = k, K->r = r;
    K->H = malloc(mv_sz(k * r));
    K->orders = malloc(mv_sz(k) * sizeof *K->orders);
    uint8_t *ah = malloc(mv_sz(A->m));
    if (!K->H || !K->orders || !ah) {
        free(ah);
        return mv_nomem(v);
    }
    char w[600];
    size_t g = gens + 1;
    for (int64_t i = 0; i < k; i++, g = mv_next(v, g)) {
        snprintf(w, sizeof w, "%s generator %" PRId64, what, i);
        if (mv_ints(v, g, w, r, 0, n - 1, K->H + i * r, NULL, NULL))
            goto fail;
    }
    size_t o = ords + 1;
    for (int64_t i = 0; i < k; i++, o = mv_next(v, o)) {
        mv_int x;
        snprintf(w, sizeof w, "%s order %" PRId64, what, i);
        if (mv_int_in(v, o, w, 1, n, 1, &x))
            goto fail;
        K->orders[i] = (int)x.i;
    }
    for (int64_t i = 0; i < k; i++) {
        const uint8_t *h = K->H + i * r;
        mv_apply(A, h, ah);
        for (int64_t c = 0; c < A->m; c++)
            if (ah[c]) {
                mv_fail(v, "%s generator %" PRId64 " is not in ker A (A h != 0 at cell %" PRId64
                        ")", what, i, c);
                goto fail;
            }
        /* o is the additive order: o h = 0 and (o / p) h != 0 for each prime p | o */
        int ord = K->orders[i], bad = n % ord != 0;
        for (int64_t j = 0; j < r && !bad; j++)
            bad = (ord * h[j]) % n != 0;
        mv_pp po = mv_prime_powers(ord);
        for (int s = 0; s < po.count && !bad; s++) {
            int any = 0;
            for (int64_t j = 0; j < r && !any; j++)
                any = ((ord / po.p[s]) * h[j]) % n != 0;
            bad = !any;
        }
        if (bad) {
            mv_fail(v, "%s order %" PRId64 " is wrong: %d is not the additive order of "
                    "generator %" PRId64, what, i, ord, i);
            goto fail;
        }
    }
    free(ah);
    ah = NULL;
    mv_pp pp = mv_prime_powers(n);
    for (int s = 0; s < pp.count; s++) {
        int p = pp.p[s], e = pp.e[s], q = pp.q[s];
        int64_t ker = 0, span = 0, claimed = 0;
        if (log_kernel(v, A, p, e, q, &ker) || log_span(v, K->H, k, r, p, e, q, &span))
            goto fail;
        for (int64_t i = 0; i < k; i++)
            for (int x = K->orders[i]; x % p == 0; x /= p)
                claimed++;
        if (span != claimed) {
            mv_fail(v, "%s: the generators generate %d^%" PRId64 " elements mod %d, the "
                    "product of their orders has %d^%" PRId64 " (they are not independent)",
                    what, p, span, q, p, claimed);
            goto fail;
        }
        if (ker != span) {
            mv_fail(v, "%s is incomplete: ker A has %d^%" PRId64 " elements mod %d, the "
                    "generators generate %d^%" PRId64, what, p, ker, q, p, span);
            goto fail;
        }
    }
    return ML_OK;
fail:
    free(ah);
    mv_kernel_free(K);
    return v->rc;
}

/* X (b x t) with M X = Z mod p^e (M: a x b, Z: a x t; both changed), or *none. */
static int solve(mv *v, uint8_t *M, int64_t a, int64_t b, uint8_t *Z, int64_t t, int p, int e,
                 int q, int64_t *X, int *none)
{
    int64_t lim = a < b ? a : b;
    mv_piv *piv = malloc(mv_sz(lim) * sizeof *piv);
    uint8_t *isp = calloc(mv_sz(a), 1);
    if (!piv || !isp) {
        free(piv);
        free(isp);
        return mv_nomem(v);
    }
    int64_t np = 0;
    *none = 0;
    if (mv_eliminate(v, M, a, b, p, e, Z, t, piv, &np))
        goto out;
    for (int64_t x = 0; x < np; x++)
        isp[piv[x].i] = 1;
    for (int64_t i = 0; i < a && !*none; i++)
        for (int64_t s = 0; s < t && !isp[i]; s++)
            if (Z[i * t + s])
                *none = 1;
    memset(X, 0, (size_t)(b * t) * sizeof *X);
    for (int64_t x = np - 1; x >= 0 && !*none; x--) {
        int64_t i = piv[x].i, j = piv[x].j;
        int pv = 1;
        for (int y = 0; y < piv[x].v; y++)
            pv *= p;
        int inv = mv_inv(M[i * b + j] / pv, q);
        for (int64_t s = 0; s < t && !*none; s++) {
            int64_t acc = 0;
            for (int64_t c = 0; c < b; c++)
                acc += (int64_t)M[i * b + c] * X[c * t + s];
            int64_t R = (((int64_t)Z[i * t + s] - acc) % q + q) % q;
            if (R % pv)
                *none = 1;
            else
                X[j * t + s] = (R / pv) * inv % q;
        }
    }
out:
    free(piv);
    free(isp);
    return v->rc;
}

int mv_coords(mv *v, const mv_kernel *K, const uint8_t *Z, int64_t t, int64_t *C)
{
    int64_t k = K->k, r = K->r;
    int n = K->n;
    static const char *const span = "a vector is not in the span of the kernel generators";
    uint8_t *M = malloc(mv_sz(r * k)), *Zq = malloc(mv_sz(r * t));
    int64_t *X = malloc(mv_sz(k * t) * sizeof *X);
    int64_t *mod = malloc(mv_sz(k * t) * sizeof *mod);
    if (!M || !Zq || !X || !mod) {
        mv_nomem(v);
        goto out;
    }
    for (int64_t x = 0; x < k * t; x++)
        C[x] = 0, mod[x] = 1;
    mv_pp pp = mv_prime_powers(n);
    for (int s = 0; s < pp.count; s++) {
        int p = pp.p[s], e = pp.e[s], q = pp.q[s], none = 0;
        for (int64_t j = 0; j < r; j++)
            for (int64_t i = 0; i < k; i++)
                M[j * k + i] = (uint8_t)(K->H[i * r + j] % q);
        for (int64_t x = 0; x < r * t; x++)
            Zq[x] = (uint8_t)(Z[x] % q);
        if (k) {
            if (solve(v, M, r, k, Zq, t, p, e, q, X, &none))
                goto out;
        } else {
            for (int64_t x = 0; x < r * t && !none; x++)
                none = Zq[x] != 0;
        }
        if (none) {
            mv_fail(v, "%s", span);
            goto out;
        }
        /* c_i matters mod the p-part pp of o_i: joined with the other primes' (CRT) */
        for (int64_t i = 0; i < k; i++) {
            int64_t ppart = 1;
            while (K->orders[i] % (ppart * p) == 0)
                ppart *= p;
            for (int64_t c = 0; c < t; c++) {
                int64_t *x = &C[c * k + i], m0 = mod[c * k + i];
                int64_t res = X[i * t + c] % ppart;
                int64_t tt = ((res - *x) % ppart + ppart) % ppart * mv_inv((int)(m0 % ppart), (int)ppart) % ppart;
                if (ppart == 1)
                    tt = 0;
                *x += m0 * tt;
                mod[c * k + i] = m0 * ppart;
            }
        }
    }
    for (int64_t c = 0; c < t; c++)
        for (int64_t j = 0; j < r; j++) {
            int64_t acc = 0;
            for (int64_t i = 0; i < k; i++)
                acc += C[c * k + i] * K->H[i * r + j];
            if ((acc - Z[j * t + c]) % n) {
                mv_fail(v, "%s", span);
                goto out;
            }
        }
out:
    free(M);
    free(Zq);
    free(X);
    free(mod);
    return v->rc;
}

/* ---------------------------------------------------------------- the coset walk */
/* The largest transform (Python's WHT_DIM) and the fewest generators it is used for
 * (below, the Gray-code walk's 2^k popcounts of r bits cost less). */
#define MV_WHT_DIM 20
#define MV_WHT_MIN 8

/* n = 2 through a Walsh-Hadamard transform (Python's _Walk): the first d = min(k2,
 * MV_WHT_DIM) generators of order 2 are the inner block, read at once; the others are
 * walked in Gray-code order. With u_j tap j's column over the inner block and z the
 * current outer shift, sum(z + c.H_inner) = |z| + (W - F(c)) / 2 with w_u = the sum over
 * the taps of column u of (1 - 2 z_j), W = sum w_u and F the transform of w.
 * O(2^(k2-d) (r + d 2^d)). */
static int coset_min_wht(mv *v, const uint8_t *y, const uint8_t *H, const int *orders,
                         int64_t k, int64_t r, int64_t k2, int64_t *out)
{
    int64_t d = k2 < MV_WHT_DIM ? k2 : MV_WHT_DIM, outer = k2 - d;
    size_t N = (size_t)1 << d;
    uint32_t *u = calloc(mv_sz(r), sizeof *u);
    int32_t *w = malloc(N * sizeof *w);
    uint8_t *z = malloc(mv_sz(r));
    const uint8_t **og = malloc((size_t)(outer + 1) * sizeof *og);
    if (!u || !w || !z || !og) {
        free(u), free(w), free(z), free(og);
        return mv_nomem(v);
    }
    for (int64_t i = 0, a = 0; i < k; i++) {
        if (orders[i] != 2)
            continue;
        if (a < d) {
            for (int64_t j = 0; j < r; j++)
                u[j] |= (uint32_t)(H[i * r + j] & 1) << a;
        } else {
            og[a - d] = H + i * r;
        }
        a++;
    }
    for (int64_t j = 0; j < r; j++)
        z[j] = y[j] & 1;
    int64_t best = INT64_MAX;
    for (uint64_t t = 0; t < (UINT64_C(1) << outer); t++) {
        if (t) {
            const uint8_t *h = og[__builtin_ctzll(t)];
            for (int64_t j = 0; j < r; j++)
                z[j] ^= h[j] & 1;
        }
        memset(w, 0, N * sizeof *w);
        int64_t ones = 0, W = 0;
        for (int64_t j = 0; j < r; j++) {
            ones += z[j];
            w[u[j]] += 1 - 2 * (int32_t)z[j];
        }
        for (size_t x = 0; x < N; x++)
            W += w[x];
        /* in place; every partial sum is at most r in size */
        for (size_t h = 1; h < N; h <<= 1)
            for (size_t b = 0; b < N; b += 2 * h)
                for (size_t x = b; x < b + h; x++) {
                    int32_t p = w[x], q = w[x + h];
                    w[x] = p + q;
                    w[x + h] = p - q;
                }
        int32_t F = w[0];
        for (size_t x = 1; x < N; x++)
            if (w[x] > F)
                F = w[x];
        int64_t val = ones + (W - F) / 2;
        if (val < best)
            best = val;
        if (mv_poll(v))
            break;
    }
    free(u), free(w), free(z), free(og);
    *out = best;
    return v->rc;
}

/* n = 2: taps packed 64 a word, the coset walked in Gray-code order (one generator
 * added a step, the length a popcount). -1 when there are too many generators for it
 * (the generic walk answers). */
MV_CLONES_POPCNT static int coset_min_gf2(mv *v, const uint8_t *y, const uint8_t *H, const int *orders,
                         int64_t k, int64_t r, int64_t *out)
{
    int64_t W = (r + 63) / 64, k2 = 0;
    for (int64_t i = 0; i < k; i++)
        k2 += orders[i] == 2;
    if (k2 >= MV_WHT_MIN && k2 - MV_WHT_DIM <= 62)
        return coset_min_wht(v, y, H, orders, k, r, k2, out);
    if (k2 > 62)
        return -1;
    uint64_t *z = calloc((size_t)(W + 1), sizeof *z), *g = calloc(mv_sz(k2 * W), sizeof *g);
    if (!z || !g) {
        free(z), free(g);
        return mv_nomem(v);
    }
    for (int64_t j = 0; j < r; j++)
        z[j / 64] |= (uint64_t)(y[j] & 1) << (j % 64);
    for (int64_t i = 0, a = 0; i < k; i++) {
        if (orders[i] != 2)
            continue;           /* order 1: the zero vector */
        for (int64_t j = 0; j < r; j++)
            g[a * W + j / 64] |= (uint64_t)(H[i * r + j] & 1) << (j % 64);
        a++;
    }
    int64_t best = 0;
    for (int64_t w = 0; w < W; w++)
        best += __builtin_popcountll(z[w]);
    for (uint64_t t = 1; t < (UINT64_C(1) << k2); t++) {
        const uint64_t *h = g + (int64_t)__builtin_ctzll(t) * W;
        int64_t len = 0;
        for (int64_t w = 0; w < W; w++) {
            z[w] ^= h[w];
            len += __builtin_popcountll(z[w]);
        }
        if (len < best)
            best = len;
        if ((t & 0xFFF) == 0 && mv_poll(v))
            break;
    }
    free(z), free(g);
    *out = best;
    return v->rc;
}

int mv_coset_min(mv *v, const uint8_t *y, const uint8_t *H, const int *orders, int64_t k,
                 int64_t r, int n, int64_t *out)
{
    if (n == 2) {
        int rc = coset_min_gf2(v, y, H, orders, k, r, out);
        if (rc != -1)
            return rc;
    }
    uint8_t *z = malloc(mv_sz(r));
    int64_t *start = malloc((size_t)(k + 1) * sizeof *start);
    int64_t nz = 0;
    for (int64_t x = 0; x < k * r; x++)
        nz += H[x] != 0;
    int32_t *idx = malloc(mv_sz(nz) * sizeof *idx);
    uint8_t *add = malloc(mv_sz(nz));
    int *counts = calloc(mv_sz(k), sizeof *counts);
    if (!z || !start || !idx || !add || !counts) {
        mv_nomem(v);
        goto out;
    }
    /* each generator's nonzero taps, so that a step costs its nonzeros */
    nz = 0;
    for (int64_t i = 0; i < k; i++) {
        start[i] = nz;
        for (int64_t j = 0; j < r; j++)
            if (H[i * r + j])
                idx[nz] = (int32_t)j, add[nz++] = H[i * r + j];
    }
    start[k] = nz;
    memcpy(z, y, (size_t)r);
    int64_t len = 0;
    for (int64_t j = 0; j < r; j++)
        len += z[j];
    int64_t best = len;
    /* an odometer over the coefficients: adding h_i the o_i-th time brings it back */
    for (uint64_t steps = 0;; steps++) {
        int64_t i = 0;
        while (i < k) {
            for (int64_t x = start[i]; x < start[i + 1]; x++) {
                int old = z[idx[x]], nw = old + add[x];
                if (nw >= n)
                    nw -= n;
                z[idx[x]] = (uint8_t)nw;
                len += nw - old;
            }
            if (++counts[i] < orders[i])
                break;
            counts[i] = 0;
            i++;
        }
        if (i == k)
            break;
        if (len < best)
            best = len;
        if ((steps & 0xFFF) == 0 && mv_poll(v))
            break;
    }
    *out = best;
out:
    free(z);
    free(start);
    free(idx);
    free(add);
    free(counts);
    return v->rc;
}
