/* chase-oracle.h: what the tests of the chase (t-plan.c, t-numeric.c, t-symbolic.c,
 * t-runner.c, t-rowchase.c) share: random grid descriptions in ml_chase_plan's terms
 * (h x w, n, wrap, holes, locked tiles, one or several patterns over distinct offsets
 * sorted descending, counts per pattern), their tap matrix A computed here the obvious
 * way (for every tap, the offsets that land on a tile), A x, a plain elimination mod a
 * prime, and checks of the numeric chase against A. Include after t-util.h (CHECK,
 * rnd); static functions, one test file each.
 *
 * A[c][q] = sum over offsets u of the pattern of tap q with q + (udr[u], udc[u]) = c
 * (mod h, w with wrap; on the board without) of cnt[pattern][u], mod n; zero when q is
 * not tappable (locked, a hole) or c not active (a hole). */
#ifndef ML_TESTS_CHASE_ORACLE_H
#define ML_TESTS_CHASE_ORACLE_H

#include "chase/chase.h"

#include <stdlib.h>
#include <string.h>

enum { CO_MAXU = 256, CO_MAXPAT = 3 };

typedef struct {
    int h, w, n, wrap;
    int nu, npat;
    int32_t udr[CO_MAXU], udc[CO_MAXU];
    int32_t cnt[CO_MAXPAT * CO_MAXU];  /* cnt[pat * nu + u] */
    int32_t *pat_of;                   /* hw, or NULL (npat == 1) */
    uint8_t *active, *tappable;        /* hw, or NULL: every tile */
    char what[160];                    /* a one-line description for failure notes */
} co_desc;

static inline int co_act(const co_desc *d, size_t t) { return d->active ? d->active[t] : 1; }
static inline int co_tap(const co_desc *d, size_t t) { return d->tappable ? d->tappable[t] : 1; }
static inline size_t co_hw(const co_desc *d) { return (size_t)d->h * (size_t)d->w; }

static inline int co_is_unit(unsigned a, unsigned n)
{
    unsigned x = a % n, y = n;
    while (y) { unsigned t = x % y; x = y; y = t; }
    return x == 1;
}

/* Named patterns (their offsets; every count 1): the cross, the plus without its
 * centre, the 3 x 3 square, the knight, the X; 0..4. */
static inline int co_named(int which, int32_t *dr, int32_t *dc)
{
    static const int8_t P[5][10][2] = {
        {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}},
        {{1, 0}, {-1, 0}, {0, 1}, {0, -1}},
        {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 0}, {0, 1}, {1, -1}, {1, 0}, {1, 1}},
        {{0, 0}, {1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}},
        {{0, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}},
    };
    static const int len[5] = {5, 4, 9, 9, 5};
    for (int i = 0; i < len[which]; i++) { dr[i] = P[which][i][0]; dc[i] = P[which][i][1]; }
    return len[which];
}

/* Sort the offsets descending by (dr, dc) with their counts (ml_chase_plan wants them
 * so; the offsets are distinct). */
static inline void co_sort(co_desc *d)
{
    for (int i = 1; i < d->nu; i++)
        for (int j = i; j > 0; j--) {
            int before = d->udr[j - 1] > d->udr[j] ||
                         (d->udr[j - 1] == d->udr[j] && d->udc[j - 1] > d->udc[j]);
            if (before) break;
            int32_t t = d->udr[j]; d->udr[j] = d->udr[j - 1]; d->udr[j - 1] = t;
            t = d->udc[j]; d->udc[j] = d->udc[j - 1]; d->udc[j - 1] = t;
            for (int p = 0; p < d->npat; p++) {
                t = d->cnt[p * d->nu + j];
                d->cnt[p * d->nu + j] = d->cnt[p * d->nu + j - 1];
                d->cnt[p * d->nu + j - 1] = t;
            }
        }
}

/* A random description. kind: 0 anything; 1 a uniform pattern, no holes or locks, no
 * wrap (the interior fast paths, the mirror when the pattern is symmetric); 2 as 0
 * without wrap. h, w as given when > 0. */
static inline void co_random(co_desc *d, int h, int w, int n, int kind)
{
    memset(d, 0, sizeof *d);
    d->h = h > 0 ? h : (int)rnd_range(1, 8);
    d->w = w > 0 ? w : (int)rnd_range(1, 8);
    d->n = n;
    d->wrap = kind == 0 && rnd() % 3 == 0;
    d->npat = kind == 1 ? 1 : (rnd() % 4 == 0 ? (int)rnd_range(2, CO_MAXPAT) : 1);
    int named = (int)(rnd() % 3);
    if (named) {                                    /* a named pattern, maybe scaled */
        int32_t dr[10], dc[10];
        d->nu = co_named((int)(rnd() % 5), dr, dc);
        for (int u = 0; u < d->nu; u++) { d->udr[u] = dr[u]; d->udc[u] = dc[u]; }
    } else {                                        /* random distinct offsets */
        int sym = kind == 1 && rnd() % 2;
        for (int dr = 3; dr >= -3; dr--)
            for (int dc = 3; dc >= -3; dc--) {
                if (d->nu >= CO_MAXU) break;
                int far = dr < -2 || dr > 2 || dc < -2 || dc > 2;
                if (sym && dc < 0) continue;
                if ((dr == 0 && dc == 0) || rnd() % (far ? 12 : 4) == 0) {
                    d->udr[d->nu] = dr; d->udc[d->nu] = dc; d->nu++;
                    if (sym && dc > 0) { d->udr[d->nu] = dr; d->udc[d->nu] = -dc; d->nu++; }
                }
            }
    }
    for (int p = 0; p < d->npat; p++)
        for (int u = 0; u < d->nu; u++) {
            int32_t c;
            if (named == 2) c = 1;                                /* every count 1 */
            else if (n > 16) c = (int32_t)rnd_range(0, 2 * n);    /* any coefficient */
            else c = rnd() % 5 == 0 ? 0 : (int32_t)rnd_range(1, 2 * n);
            d->cnt[p * d->nu + u] = c;
        }
    if (kind == 1 && !named) {      /* symmetric counts: mirror image offsets alike */
        for (int u = 0; u < d->nu; u++)
            for (int v = 0; v < d->nu; v++)
                if (d->udr[v] == d->udr[u] && d->udc[v] == -d->udc[u] && d->udc[u] > 0)
                    d->cnt[v] = d->cnt[u];
    }
    co_sort(d);
    const size_t hw = co_hw(d);
    if (d->npat > 1) {
        d->pat_of = malloc(hw * sizeof(int32_t));
        for (size_t t = 0; t < hw; t++) d->pat_of[t] = (int32_t)(rnd() % (uint64_t)d->npat);
    }
    if (kind != 1 && rnd() % 2) {
        d->active = malloc(hw);
        d->tappable = malloc(hw);
        int holes = (int)(rnd() % 3), locks = (int)(rnd() % 3);
        for (size_t t = 0; t < hw; t++) {
            d->active[t] = rnd() % 8 >= (unsigned)holes;
            d->tappable[t] = d->active[t] && rnd() % 8 >= (unsigned)locks;
        }
    }
    snprintf(d->what, sizeof d->what, "%dx%d n=%d wrap=%d nu=%d npat=%d masks=%d", d->h, d->w,
             d->n, d->wrap, d->nu, d->npat, d->active != NULL);
}

static inline void co_free(co_desc *d)
{
    free(d->pat_of);
    free(d->active);
    free(d->tappable);
    d->pat_of = NULL;
    d->active = d->tappable = NULL;
}

static inline ml_chase *co_plan(const co_desc *d, int *err)
{
    return ml_chase_plan(d->h, d->w, d->n, d->wrap, d->active, d->tappable, d->nu, d->udr,
                         d->udc, d->npat, d->cnt, d->pat_of, err);
}

/* The tile tap q's offset u lands on, or -1 (off the board without wrap). */
static inline int64_t co_land(const co_desc *d, size_t q, int u)
{
    int64_t r = (int64_t)(q / (size_t)d->w) + d->udr[u], c = (int64_t)(q % (size_t)d->w) + d->udc[u];
    if (d->wrap) {
        r = ((r % d->h) + d->h) % d->h;
        c = ((c % d->w) + d->w) % d->w;
    } else if (r < 0 || r >= d->h || c < 0 || c >= d->w) {
        return -1;
    }
    return r * d->w + c;
}

/* out[c] = (A x)[c] mod n for every tile (0 at holes), x: hw values (read at taps). */
static inline void co_ax(const co_desc *d, const uint8_t *x, uint8_t *out)
{
    const size_t hw = co_hw(d);
    uint64_t *acc = calloc(hw, sizeof(uint64_t));
    for (size_t q = 0; q < hw; q++) {
        if (!co_tap(d, q) || !x[q]) continue;
        const int32_t *cn = d->cnt + (size_t)(d->pat_of ? d->pat_of[q] : 0) * (size_t)d->nu;
        for (int u = 0; u < d->nu; u++) {
            int64_t c = co_land(d, q, u);
            if (c >= 0 && co_act(d, (size_t)c)) acc[c] += (uint64_t)cn[u] * x[q];
        }
    }
    for (size_t c = 0; c < hw; c++) out[c] = (uint8_t)(acc[c] % (uint64_t)d->n);
    free(acc);
}

/* The dense A, hw x hw bytes (row c, column q). */
static inline uint8_t *co_dense(const co_desc *d)
{
    const size_t hw = co_hw(d);
    uint32_t *acc = calloc(hw * hw, sizeof(uint32_t));
    uint8_t *A = malloc(hw * hw + 1);
    for (size_t q = 0; q < hw; q++) {
        if (!co_tap(d, q)) continue;
        const int32_t *cn = d->cnt + (size_t)(d->pat_of ? d->pat_of[q] : 0) * (size_t)d->nu;
        for (int u = 0; u < d->nu; u++) {
            int64_t c = co_land(d, q, u);
            if (c >= 0 && co_act(d, (size_t)c)) acc[(size_t)c * hw + q] += (uint32_t)cn[u];
        }
    }
    for (size_t i = 0; i < hw * hw; i++) A[i] = (uint8_t)(acc[i] % (uint32_t)d->n);
    free(acc);
    return A;
}

/* Rank of the rows x cols matrix M (stride ld, any bytes) mod the prime p: t-util.h's
 * rank_p on a reduced copy. */
static inline size_t co_rank_p(const uint8_t *M, size_t rows, size_t cols, size_t ld, unsigned p)
{
    uint8_t *a = malloc(rows * cols + 1);
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            a[i * cols + j] = (uint8_t)(M[i * ld + j] % p);
    size_t rank = rank_p(a, rows, cols, p);
    free(a);
    return rank;
}

static inline int co_is_prime(int n)
{
    for (int d = 2; d * d <= n; d++)
        if (n % d == 0) return 0;
    return n >= 2;
}

/* Run the numeric chase and check it against A: x is 0 off the taps and z at the
 * symbols, below n; every active tile that is not a residual tile has (A x)[c] = b[c];
 * rho[k] = b - A x at residual tile k. x, rho: room for hw / nres. Returns the number of
 * failed checks (each also counted by CHECK). */
static inline int co_check_numeric(const ml_chase *P, const co_desc *d, const uint8_t *b,
                                   const uint8_t *z, uint8_t *x, uint8_t *rho, const char *what)
{
    const int before = fails;
    const size_t hw = co_hw(d), nsym = ml_chase_nsym(P), nres = ml_chase_nres(P);
    const unsigned n = (unsigned)d->n;
    int64_t *sym = malloc((nsym + 1) * sizeof(int64_t)), *res = malloc((nres + 1) * sizeof(int64_t));
    uint8_t *ax = malloc(hw), *isres = calloc(hw, 1);
    ml_chase_symbols(P, sym);
    ml_chase_residual_tiles(P, res);
    memset(x, 0xCC, hw);
    ml_chase_numeric(P, b, z, x, rho);
    for (size_t s = 0; s < nsym; s++)
        CHECK(x[sym[s]] == (z ? z[s] : 0), "%s %s: x at symbol %zu is %u", d->what, what, s,
              x[sym[s]]);
    for (size_t t = 0; t < hw; t++) {
        CHECK(x[t] < n, "%s %s: x[%zu] = %u", d->what, what, t, x[t]);
        if (!co_tap(d, t)) CHECK(x[t] == 0, "%s %s: x[%zu] = %u off the taps", d->what, what, t, x[t]);
    }
    co_ax(d, x, ax);
    for (size_t k = 0; k < nres; k++) {
        size_t c = (size_t)res[k];
        isres[c] = 1;
        CHECK(rho[k] == (b[c] % n + n - ax[c]) % n, "%s %s: rho[%zu] = %u, b - A x = %u", d->what,
              what, k, rho[k], (b[c] % n + n - ax[c]) % n);
    }
    for (size_t c = 0; c < hw; c++)
        if (co_act(d, c) && !isres[c])
            CHECK(ax[c] == b[c] % n, "%s %s: (A x)[%zu] = %u, b = %u at a forcing tile", d->what,
                  what, c, ax[c], b[c]);
    free(sym); free(res); free(ax); free(isres);
    return fails - before;
}

/* The residual matrix by the numeric chase alone: M[k][s] = rho(0)[k] - rho(e_s)[k]
 * (rho is affine in z), nres x nsym bytes. b: any right-hand side. */
static inline uint8_t *co_matrix_by_numeric(const ml_chase *P, const co_desc *d, const uint8_t *b)
{
    const size_t hw = co_hw(d), nsym = ml_chase_nsym(P), nres = ml_chase_nres(P);
    const unsigned n = (unsigned)d->n;
    uint8_t *M = malloc(nres * nsym + 1), *x = malloc(hw), *rho0 = malloc(nres + 1),
            *rho = malloc(nres + 1), *z = calloc(nsym + 1, 1);
    ml_chase_numeric(P, b, NULL, x, rho0);
    for (size_t s = 0; s < nsym; s++) {
        z[s] = 1;
        ml_chase_numeric(P, b, z, x, rho);
        z[s] = 0;
        for (size_t k = 0; k < nres; k++) M[k * nsym + s] = (uint8_t)((rho0[k] + n - rho[k]) % n);
    }
    free(x); free(rho0); free(rho); free(z);
    return M;
}

/* A random right-hand side A x_true (x_true random on the taps, returned in xt), with
 * random values at holes (ignored there). */
static inline void co_solvable(const co_desc *d, uint8_t *b, uint8_t *xt)
{
    const size_t hw = co_hw(d);
    for (size_t t = 0; t < hw; t++) xt[t] = co_tap(d, t) ? (uint8_t)(rnd() % (unsigned)d->n) : 0;
    co_ax(d, xt, b);
    for (size_t t = 0; t < hw; t++)
        if (!co_act(d, t)) b[t] = (uint8_t)(rnd() % (unsigned)d->n);
}

#endif
