/* registry_tensor.c: the tensor engine's covers (engines/tensor/engine.py tensor_reason:
 * factor_pattern, _parts; engines/tensor/band.py BandFactor's refusals), a piece of the
 * registry module (registry_impl.h).
 *
 * A 1-D factor is refused as BandFactor refuses it: a band zero mod n, neither end a
 * unit, more than MAX_SYMBOLS symbols, or (n with two or more primes) a residual matrix
 * M of its chase that is singular mod n. M is made here by BandFactor's chase of the
 * zero right-hand side with the symbols set to the identity (the same schedule: the
 * values y[s..L-1] forced in order, the residual equations read last), keeping a window
 * of band-width rows, then eliminated mod each prime of n. */
#include "api/registry_impl.h"
#include "api/board.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SYMBOLS 64

static int why_fmt(char *why, size_t cap, int id, ...)
{
    va_list ap;
    va_start(ap, id);
    vsnprintf(why, cap, ml_msg_template(id), ap);
    va_end(ap);
    return 0;
}

static long gcdl(long a, long b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static long pymod(long a, long m)
{
    long r = a % m;
    return r < 0 ? r + m : r;
}

static long inv_mod(long a, long n)
{
    for (long x = 1; x < n; x++)
        if (a * x % n == 1)
            return x;
    return 0;
}

/* ------------------------------------------------------------------ factor_pattern */
typedef struct { long dr, dc, k; } ent;

static int ent_cmp(const void *x, const void *y)
{
    const ent *a = x, *b = y;
    if (a->dr != b->dr)
        return a->dr < b->dr ? -1 : 1;
    if (a->dc != b->dc)
        return a->dc < b->dc ? -1 : 1;
    return 0;
}

static int long_cmp(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return a < b ? -1 : a > b;
}

static long lookup(const ent *e, size_t m, long dr, long dc)
{
    ent key = {dr, dc, 0};
    const ent *f = bsearch(&key, e, m, sizeof *e, ent_cmp);
    return f ? f->k : 0;
}

/* one factor: keys and counts */
typedef struct { long *d, *c; size_t m; } fac1;

/* sorted unique values of v (n of them): their count, in place */
static size_t uniq(long *v, size_t n)
{
    qsort(v, n, sizeof *v, long_cmp);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || v[k - 1] != v[i])
            v[k++] = v[i];
    return k;
}

/* factor_pattern: 1 and (a, b) filled (malloc'd), or 0 (none; or out of memory: -1) */
static int factor_pattern(const ml__pattern *p, fac1 *a, fac1 *b)
{
    size_t n = p->count;
    if (!n)
        return 0;
    ent *e = malloc(n * sizeof *e);
    long *drs = malloc(n * sizeof *drs), *dcs = malloc(n * sizeof *dcs);
    long *first = NULL;
    int rc = -1;
    if (!e || !drs || !dcs)
        goto done;
    for (size_t i = 0; i < n; i++) {
        e[i] = (ent){p->dr[i], p->dc[i], 1};
        drs[i] = p->dr[i];
        dcs[i] = p->dc[i];
    }
    qsort(e, n, sizeof *e, ent_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && !ent_cmp(&e[m - 1], &e[i]))
            e[m - 1].k++;
        else
            e[m++] = e[i];
    }
    size_t nr = uniq(drs, n), nc = uniq(dcs, n);
    first = malloc(nc * sizeof *first);
    a->d = malloc(nr * sizeof(long));
    a->c = malloc(nr * sizeof(long));
    b->d = malloc(nc * sizeof(long));
    b->c = malloc(nc * sizeof(long));
    if (!first || !a->d || !a->c || !b->d || !b->c)
        goto done;
    long g = 0;
    for (size_t j = 0; j < nc; j++) {
        first[j] = lookup(e, m, drs[0], dcs[j]);
        g = gcdl(g, first[j]);
    }
    size_t jn = nc;
    for (size_t j = 0; j < nc; j++) {
        first[j] /= g;   /* u */
        if (jn == nc && first[j])
            jn = j;
    }
    rc = 0;
    for (size_t i = 0; i < nr; i++) {
        long rj = lookup(e, m, drs[i], dcs[jn]);
        long k = rj / first[jn];
        if (rj % first[jn])
            goto done;
        for (size_t j = 0; j < nc; j++)
            if (lookup(e, m, drs[i], dcs[j]) != k * first[j])
                goto done;
        a->d[i] = drs[i];
        a->c[i] = k;
    }
    a->m = nr;
    b->m = 0;
    for (size_t j = 0; j < nc; j++)
        if (first[j]) {
            b->d[b->m] = dcs[j];
            b->c[b->m] = first[j];
            b->m++;
        }
    rc = 1;
done:
    free(e);
    free(drs);
    free(dcs);
    free(first);
    return rc;
}

/* ------------------------------------------------------------------ BandFactor */
/* "[a, b, c]": Python's repr of a sorted list of ints */
static void list_repr(const long *d, size_t m, char *buf, size_t cap)
{
    size_t at = 0;
    at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, "[");
    for (size_t i = 0; i < m; i++)
        at += (size_t)snprintf(buf + (at < cap ? at : cap), at < cap ? cap - at : 0, "%s%ld",
                               i ? ", " : "", d[i]);
    snprintf(buf + (at < cap ? at : cap), at < cap ? cap - at : 0, "]");
}

/* whether the s x s matrix M (entries mod n) is invertible mod p */
static int invertible_mod(const long *M, long s, long p)
{
    long *A = malloc((size_t)(s * s) * sizeof *A);
    if (!A)
        return 1;
    for (long i = 0; i < s * s; i++)
        A[i] = M[i] % p;
    int ok = 1;
    for (long c = 0; c < s && ok; c++) {
        long r = c;
        while (r < s && !A[r * s + c])
            r++;
        if (r == s) {
            ok = 0;
            break;
        }
        for (long k = 0; k < s; k++) {
            long t = A[r * s + k];
            A[r * s + k] = A[c * s + k];
            A[c * s + k] = t;
        }
        long iv = inv_mod(A[c * s + c], p);
        for (long i = c + 1; i < s; i++) {
            long f = A[i * s + c] * iv % p;
            if (!f)
                continue;
            for (long k = c; k < s; k++)
                A[i * s + k] = pymod(A[i * s + k] - f * A[c * s + k], p);
        }
    }
    free(A);
    return ok;
}

/* The residual matrix of the chase is invertible mod every prime of n (band sorted by
 * key, pivot d[0] a unit; s symbols, 0 < s <= MAX_SYMBOLS). -1: out of memory. */
static int residual_invertible(const long *d, const long *c, size_t m, long L, int n, int wrap,
                               long s)
{
    long dmin = d[0], R = d[m - 1] - d[0] + 1;
    if (!wrap && dmin >= 0)
        return 0;   /* the residual equations 0..dmin-1 read nothing: zero rows */
    long inv = inv_mod(c[0], n);
    long *ring = calloc((size_t)(R * s), sizeof *ring), *M = calloc((size_t)(s * s), sizeof *M);
    long *acc = malloc((size_t)s * sizeof *acc);
    int ok = -1;
    if (!ring || !M || !acc)
        goto done;
    /* y[j]: the identity row of symbol j < s, else the ring's row */
#define Y(j, k) ((j) < s ? (long)((j) == (k)) : ring[((j) % R) * s + (k)])
    for (long j = s; j < L; j++) {
        long i = wrap ? pymod(j + dmin, L) : j + dmin;
        memset(acc, 0, (size_t)s * sizeof *acc);
        for (size_t q = 1; q < m; q++) {
            long at = i - d[q];
            if (wrap)
                at = pymod(at, L);
            else if (at < 0 || at >= L)
                continue;
            for (long k = 0; k < s; k++)
                acc[k] = (acc[k] + c[q] * Y(at, k)) % n;
        }
        for (long k = 0; k < s; k++)
            ring[(j % R) * s + k] = (n - acc[k]) % n * inv % n;
    }
    for (long r = 0; r < s; r++) {
        long i = wrap ? pymod(r + dmin, L) : L - s + r;
        for (size_t q = 0; q < m; q++) {
            long at = i - d[q];
            if (wrap)
                at = pymod(at, L);
            else if (at < 0 || at >= L)
                continue;
            for (long k = 0; k < s; k++)
                M[r * s + k] = (M[r * s + k] + c[q] * Y(at, k)) % n;
        }
    }
#undef Y
    int p[8], pk[8];
    int np = ml__primes_of(n, p, pk);
    ok = 1;
    for (int t = 0; t < np && ok; t++)
        ok = invertible_mod(M, s, p[t]);
done:
    free(ring);
    free(M);
    free(acc);
    return ok;
}

/* BandFactor(coeffs, length, n, wrap)'s refusal: 1 when it takes the factor, else 0 and
 * why */
static int band_factor(const fac1 *f, long L, int n, int wrap, char *why, size_t cap)
{
    size_t m = f->m;
    long *d = malloc((m ? m : 1) * sizeof *d), *c = malloc((m ? m : 1) * sizeof *c);
    int ok = 1;
    if (!d || !c)
        goto done;   /* out of memory: taken (the engine says so when built) */
    size_t k = 0;
    if (!wrap) {
        for (size_t i = 0; i < m; i++)
            if ((f->d[i] < 0 ? -f->d[i] : f->d[i]) < L && f->c[i] % n) {
                d[k] = f->d[i];
                c[k] = f->c[i] % n;
                k++;
            }
    } else {
        for (size_t i = 0; i < m; i++) {   /* cyc: offsets mod L, counts summed mod n */
            long key = pymod(f->d[i], L);
            size_t j = 0;
            while (j < k && d[j] != key)
                j++;
            if (j == k) {
                d[k] = key;
                c[k++] = 0;
            }
            c[j] = (c[j] + f->c[i]) % n;
        }
        size_t z = 0;
        for (size_t i = 0; i < k; i++)
            if (c[i]) {
                d[z] = d[i];
                c[z++] = c[i];
            }
        k = z;
    }
    /* sort by key */
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && d[j - 1] > d[j]; j--) {
            long t = d[j]; d[j] = d[j - 1]; d[j - 1] = t;
            t = c[j]; c[j] = c[j - 1]; c[j - 1] = t;
        }
    if (!k) {
        ok = why_fmt(why, cap, ML_R_TENSOR_ZERO, n);
        goto done;
    }
    if (wrap) {   /* the window after the largest cyclic gap, nearest offset 0 */
        long bestg = -1;
        size_t bi = 0;
        for (size_t i = 0; i < k; i++) {
            long g = pymod(d[(i + 1) % k] - d[i], L);
            if (!g)
                g = L;
            if (g >= bestg) {
                bestg = g;
                bi = i;
            }
        }
        long start = d[(bi + 1) % k];
        long shift = start > L / 2 ? -L : 0;
        for (size_t i = 0; i < k; i++)
            d[i] = pymod(d[i] - start, L) + start + shift;
        for (size_t i = 1; i < k; i++)
            for (size_t j = i; j > 0 && d[j - 1] > d[j]; j--) {
                long t = d[j]; d[j] = d[j - 1]; d[j - 1] = t;
                t = c[j]; c[j] = c[j - 1]; c[j - 1] = t;
            }
    }
    if (gcdl(c[0], n) != 1) {   /* reversed: the pivot is c(dmax) */
        if (gcdl(c[k - 1], n) != 1) {
            char list[ML_WHY_MAX / 2];
            list_repr(d, k, list, sizeof list);
            ok = why_fmt(why, cap, ML_R_TENSOR_NO_UNIT_END, list, n);
            goto done;
        }
        for (size_t i = 0; i < k / 2; i++) {
            long t = d[i]; d[i] = d[k - 1 - i]; d[k - 1 - i] = t;
            t = c[i]; c[i] = c[k - 1 - i]; c[k - 1 - i] = t;
        }
        for (size_t i = 0; i < k; i++)
            d[i] = -d[i];
    }
    long dmin = d[0], dmax = d[k - 1];
    long s = wrap ? dmax - dmin : (dmin < 0 ? -dmin : dmin);
    if (s > L)
        s = L;
    if (s > MAX_SYMBOLS) {
        ok = why_fmt(why, cap, ML_R_TENSOR_SYMBOLS, (long long)dmin, (long long)dmax,
                     (long long)s, (long long)L, MAX_SYMBOLS);
        goto done;
    }
    int p[8], pk[8];
    if (s > 0 && ml__primes_of(n, p, pk) > 1 && residual_invertible(d, c, k, L, n, wrap, s) == 0) {
        char list[ML_WHY_MAX / 2];
        list_repr(d, k, list, sizeof list);
        ok = why_fmt(why, cap, ML_R_TENSOR_SINGULAR, list, (long long)L, n);
    }
done:
    free(d);
    free(c);
    return ok;
}

/* _factors: the rows' factor, then the columns' */
static int factors(const ml_board *b, const fac1 *fa, const fac1 *fb, int q, char *why, size_t cap)
{
    return band_factor(fa, b->rows, q, b->wrap, why, cap) &&
           band_factor(fb, b->cols, q, b->wrap, why, cap);
}

int ml__tensor_covers(const ml_board *b, char *why, size_t cap)
{
    if (b->kind != ML_BOARD_GRID)
        return why_fmt(why, cap, ML_R_GRID_ONLY);
    if (b->mixed)
        return why_fmt(why, cap, ML_R_ONE_PATTERN);
    if (b->locked || b->holes)
        return why_fmt(why, cap, ML_R_NO_LOCKS_HOLES);
    fac1 fa = {0}, fb = {0};
    int ok = 1;
    int got = factor_pattern(&b->pal[0], &fa, &fb);
    if (got == 0) {
        ok = why_fmt(why, cap, ML_R_TENSOR_FACTORS);
    } else if (got > 0) {
        int n = b->n;
        char inner[ML_WHY_MAX];
        if (!factors(b, &fa, &fb, n, inner, sizeof inner)) {
            int p[8], pk[8];
            int np = ml__primes_of(n, p, pk);
            if (np == 1) {
                ok = 0;
                snprintf(why, cap, "%s", inner);
            } else {
                for (int i = 0; i < np && ok; i++)
                    if (!factors(b, &fa, &fb, pk[i], inner, sizeof inner))
                        ok = why_fmt(why, cap, ML_R_OVER_RING_FACTOR, pk[i], n, inner);
            }
        }
    }
    free(fa.d);
    free(fa.c);
    free(fb.d);
    free(fb.c);
    return ok;
}
