/* cube_plan.c: the GF(2) transform search's plan and driver (search/cube.py). See
 * cube_plan.h. Vectors of GF(2)^N are bit rows of nw = ceil(N / 64) words, tap j the
 * bit j, compared as integers (cube.py's Python ints). */
#include "search/cube_plan.h"
#include "base/interrupt.h"
#include "include/modlights.h"
#include "search/driver.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ bit rows */
static int vtop(const uint64_t *v, size_t nw)
{
    for (size_t w = nw; w-- > 0;)
        if (v[w])
            return (int)(w * 64 + 63 - (unsigned)__builtin_clzll(v[w]));
    return -1;
}

static uint64_t vpop(const uint64_t *v, size_t nw)
{
    uint64_t c = 0;
    for (size_t w = 0; w < nw; w++)
        c += (uint64_t)__builtin_popcountll(v[w]);
    return c;
}

static int vcmp(const uint64_t *a, const uint64_t *b, size_t nw)
{
    for (size_t w = nw; w-- > 0;)
        if (a[w] != b[w])
            return a[w] < b[w] ? -1 : 1;
    return 0;
}

static void vxor(uint64_t *a, const uint64_t *b, size_t nw)
{
    for (size_t w = 0; w < nw; w++)
        a[w] ^= b[w];
}

static int vbit(const uint64_t *v, size_t j) { return (int)(v[j >> 6] >> (j & 63) & 1); }

static void vpack(const uint8_t *row, size_t N, uint64_t *v, size_t nw)
{
    memset(v, 0, nw * 8);
    for (size_t j = 0; j < N; j++)
        if (row[j] & 1)
            v[j >> 6] |= (uint64_t)1 << (j & 63);
}

/* out = the image of v under the tap permutation t (out[t[j]] = v[j]). */
static void vperm(const uint64_t *v, const uint64_t *t, size_t N, uint64_t *out, size_t nw)
{
    memset(out, 0, nw * 8);
    for (size_t w = 0; w < nw; w++)
        for (uint64_t x = v[w]; x; x &= x - 1) {
            size_t j = w * 64 + (unsigned)__builtin_ctzll(x);
            if (j < N)
                out[t[j] >> 6] |= (uint64_t)1 << (t[j] & 63);
        }
}

/* ------------------------------------------------------------------ echelon
 * cube.py's _Echelon: rows reduced on their highest bits, each with the combination
 * (up to 128 bits) of the added vectors that makes it; piv[p]: the row of pivot p. */
typedef struct {
    size_t nw, cap, n;
    uint64_t *rows;   /* cap x nw */
    uint64_t *combo;  /* cap x 2 */
    size_t *pivot;    /* cap */
    int32_t *piv;     /* N, -1: none */
    uint64_t *tmp;    /* nw */
} ech_t;

static int ech_init(ech_t *E, size_t N, size_t nw, size_t cap)
{
    memset(E, 0, sizeof *E);
    E->nw = nw;
    E->cap = cap;
    E->rows = malloc((cap ? cap : 1) * nw * 8);
    E->combo = malloc((cap ? cap : 1) * 16);
    E->pivot = malloc((cap ? cap : 1) * sizeof *E->pivot);
    E->piv = malloc((N ? N : 1) * sizeof *E->piv);
    E->tmp = malloc(nw * 8);
    if (!E->rows || !E->combo || !E->pivot || !E->piv || !E->tmp)
        return ML_CUBE_ENOMEM;
    for (size_t j = 0; j < N; j++)
        E->piv[j] = -1;
    return ML_CUBE_OK;
}

static void ech_free(ech_t *E)
{
    free(E->rows);
    free(E->combo);
    free(E->pivot);
    free(E->piv);
    free(E->tmp);
}

/* v (and c, 2 words, may be NULL) reduced in place; returns v's top bit after (-1: 0). */
static int ech_reduce(const ech_t *E, uint64_t *v, uint64_t *c)
{
    for (;;) {
        int t = vtop(v, E->nw);
        if (t < 0 || E->piv[t] < 0)
            return t;
        size_t r = (size_t)E->piv[t];
        vxor(v, E->rows + r * E->nw, E->nw);
        if (c) {
            c[0] ^= E->combo[2 * r];
            c[1] ^= E->combo[2 * r + 1];
        }
    }
}

/* _Echelon.add(v, combo bit `bit`, < 0: none): 1 when added, 0 when v is in the span,
 * ML_CUBE_EINVAL when full. */
static int ech_add(ech_t *E, const uint64_t *v, int bit)
{
    uint64_t c[2] = {0, 0};
    if (bit >= 0)
        c[bit >> 6] = (uint64_t)1 << (bit & 63);
    memcpy(E->tmp, v, E->nw * 8);
    int t = ech_reduce(E, E->tmp, c);
    if (t < 0)
        return 0;
    if (E->n == E->cap)
        return ML_CUBE_EINVAL;
    memcpy(E->rows + E->n * E->nw, E->tmp, E->nw * 8);
    E->combo[2 * E->n] = c[0];
    E->combo[2 * E->n + 1] = c[1];
    E->pivot[E->n] = (size_t)t;
    E->piv[t] = (int32_t)E->n;
    E->n++;
    return 1;
}

/* Drop the rows added after the first n0. */
static void ech_truncate(ech_t *E, size_t n0)
{
    while (E->n > n0) {
        E->n--;
        E->piv[E->pivot[E->n]] = -1;
    }
}

/* ------------------------------------------------------------------ the plan */
/* Sort k rows (nw words each) by (weight, value): cube.py's key (the rows differ, so
 * the order is total). Insertion sort: k <= ML_CUBE_MAX_NULLITY. */
static int sort_rows(uint64_t *rows, size_t k, size_t nw)
{
    uint64_t *t = malloc(nw * 8);
    if (!t)
        return ML_CUBE_ENOMEM;
    for (size_t i = 1; i < k; i++) {
        memcpy(t, rows + i * nw, nw * 8);
        uint64_t pt = vpop(t, nw);
        size_t j = i;
        while (j > 0) {
            const uint64_t *u = rows + (j - 1) * nw;
            uint64_t pu = vpop(u, nw);
            if (pu < pt || (pu == pt && vcmp(u, t, nw) <= 0))
                break;
            memcpy(rows + j * nw, u, nw * 8);
            j--;
        }
        memcpy(rows + j * nw, t, nw * 8);
    }
    free(t);
    return ML_CUBE_OK;
}

/* _invariant_low: into low (rows, nw words each; *nlow) a basis of a subspace of
 * span(red) mapped into itself by every symmetry (nsym permutations in perms), of
 * dimension m_min..m_aim + 2, from orbit spans of the densest rows first; *nlow = 0
 * when none is found. The images to add are a stack of (added row, symmetry) pairs,
 * popped last first as cube.py's list. */
static int invariant_low(const uint64_t *red, size_t k, size_t N, size_t nw,
                         const uint64_t *const *perms, size_t nsym, int m_aim, int m_min,
                         uint64_t *low, size_t *nlow)
{
    int m_hi = m_aim + 2;
    size_t cap = (size_t)m_hi + 2;
    ech_t E;
    int rc = ech_init(&E, N, nw, cap);
    size_t *stk_a = malloc(((size_t)(m_hi + 2) * (nsym ? nsym : 1) + 1) * sizeof *stk_a);
    size_t *stk_g = malloc(((size_t)(m_hi + 2) * (nsym ? nsym : 1) + 1) * sizeof *stk_g);
    uint64_t *w = malloc(nw * 8);
    if (!rc && (!stk_a || !stk_g || !w))
        rc = ML_CUBE_ENOMEM;
    size_t nb = 0;
    for (size_t idx = k; !rc && idx-- > 0;) {
        if ((long)nb >= (long)m_aim - 1)
            break;
        const uint64_t *v = red + idx * nw;
        memcpy(w, v, nw * 8);
        if (ech_reduce(&E, w, NULL) < 0)
            continue;
        size_t n0 = E.n, added = 0, top = 0;
        int ok = 1;
        stk_a[top] = SIZE_MAX;   /* v itself */
        stk_g[top++] = 0;
        while (top && ok) {
            top--;
            if (stk_a[top] == SIZE_MAX)
                memcpy(w, v, nw * 8);
            else
                vperm(low + (nb + stk_a[top]) * nw, perms[stk_g[top]], N, w, nw);
            int got = ech_add(&E, w, -1);
            if (got < 0) {
                rc = got;
                break;
            }
            if (!got)
                continue;
            memcpy(low + (nb + added) * nw, w, nw * 8);
            added++;
            if ((long)(nb + added) > (long)m_hi) {
                ok = 0;
                break;
            }
            for (size_t g = 0; g < nsym; g++) {
                stk_a[top] = added - 1;
                stk_g[top++] = g;
            }
        }
        if (rc)
            break;
        if (ok)
            nb += added;
        else
            ech_truncate(&E, n0);
    }
    ech_free(&E);
    free(stk_a);
    free(stk_g);
    free(w);
    long need = m_min > 1 ? m_min : 1;
    if ((long)nb < need || (long)nb < (m_aim < 4 ? m_aim : 4))
        nb = 0;
    *nlow = nb;
    return rc;
}

void ml_cube_plan_free(ml_cube_plan *p)
{
    if (!p)
        return;
    free(p->x0);
    free(p->gens);
    free(p->col);
    free(p->sup_start);
    free(p->sup_idx);
    free(p->sym_mat);
    free(p->sym_shift);
    free(p->sym_used);
    memset(p, 0, sizeof *p);
}

int ml_cube_applies(unsigned n, size_t n_taps, size_t k, const uint32_t *orders,
                    uint64_t steps)
{
    if (n != 2 || n_taps == 0 || n_taps > ML_CUBE_MAX_TAPS || k < ML_CUBE_MIN_NULLITY ||
        k > ML_CUBE_MAX_NULLITY)
        return 0;
    for (size_t i = 0; i < k; i++)
        if (orders[i] != 2)
            return 0;
    uint64_t size = k >= 64 ? UINT64_MAX : (uint64_t)1 << k;
    return steps == UINT64_MAX || steps >= (size < ML_CUBE_MIN_STEPS ? size : ML_CUBE_MIN_STEPS);
}

/* The plan's arrays from its rebased generators G (k x nw bit rows, low first). */
static int fill(ml_cube_plan *p, const uint64_t *G, size_t nw)
{
    size_t N = p->n_taps, k = p->k;
    p->gens = malloc(k * N + 1);
    p->col = calloc(N + 1, sizeof *p->col);
    p->sup_start = malloc((p->kh + 1) * sizeof *p->sup_start);
    size_t sup = 0;
    for (size_t i = p->m; i < k; i++)
        sup += vpop(G + i * nw, nw);
    p->sup_idx = malloc((sup + 1) * sizeof *p->sup_idx);
    if (!p->gens || !p->col || !p->sup_start || !p->sup_idx)
        return ML_CUBE_ENOMEM;
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < N; j++)
            p->gens[i * N + j] = (uint8_t)vbit(G + i * nw, j);
    for (unsigned i = 0; i < p->m; i++)
        for (size_t j = 0; j < N; j++)
            p->col[j] |= (uint32_t)vbit(G + i * nw, j) << i;
    size_t at = 0;
    for (unsigned i = 0; i < p->kh; i++) {
        p->sup_start[i] = (uint32_t)at;
        for (size_t j = 0; j < N; j++)
            if (vbit(G + (p->m + i) * nw, j))
                p->sup_idx[at++] = (uint32_t)j;
    }
    p->sup_start[p->kh] = (uint32_t)at;
    ml_cube_gf2 *P = &p->P;
    P->n_taps = N;
    P->m = p->m;
    P->kh = p->kh;
    P->col = p->col;
    P->y0 = p->x0;
    P->sup_start = p->sup_start;
    P->sup_idx = p->sup_idx;
    P->ng = p->ng;
    P->sym_mat = p->sym_mat;
    P->sym_shift = p->sym_shift;
    return ML_CUBE_OK;
}

/* The high part (bits m..k-1, shifted down) of a 128-bit combination. */
static uint64_t high_of(const uint64_t *c, unsigned m, unsigned kh)
{
    uint64_t v = m ? (c[0] >> m) | (m < 64 ? c[1] << (64 - m) : 0) : c[0];
    if (m >= 64)
        v = c[1] >> (m - 64);
    return kh >= 64 ? v : v & (((uint64_t)1 << kh) - 1);
}

/* The plan's steps after the checks; every buffer is freed by the caller. */
typedef struct {
    uint64_t *red, *G, *v, *x0v;
    const uint64_t **perms;
    size_t *keep;
    ech_t base, ech;
} plan_work;

static int make(const uint8_t *x0, const uint8_t *H, size_t k, size_t N,
                const uint64_t *sym_taps, size_t nsym, ml_cube_plan *p, plan_work *W)
{
    size_t nw = (N + 63) / 64;
    W->red = malloc((k + 1) * nw * 8);
    W->G = malloc((k + 3) * nw * 8);
    W->v = malloc(nw * 8);
    W->x0v = malloc(nw * 8);
    W->perms = malloc((nsym + 1) * sizeof *W->perms);
    W->keep = malloc((nsym + 1) * sizeof *W->keep);
    p->x0 = malloc(N);
    if (!W->red || !W->G || !W->v || !W->x0v || !W->perms || !W->keep || !p->x0)
        return ML_CUBE_ENOMEM;
    int rc = ech_init(&W->base, N, nw, k);
    if (rc)
        return rc;
    for (size_t j = 0; j < N; j++)
        p->x0[j] = x0[j] & 1;
    vpack(p->x0, N, W->x0v, nw);
    /* the rows of H must be independent; red: the base's rows by weight */
    for (size_t i = 0; i < k; i++) {
        vpack(H + i * N, N, W->v, nw);
        if (ech_add(&W->base, W->v, -1) != 1)
            return ML_CUBE_EINVAL;
    }
    memcpy(W->red, W->base.rows, k * nw * 8);
    if (sort_rows(W->red, k, nw))
        return ML_CUBE_ENOMEM;
    /* _full_reduce against the sorted rows in that order (each row's top bit is its
     * own pivot, no other row's), then sorted again */
    memcpy(W->G, W->red, k * nw * 8);
    for (size_t i = 0; i < k; i++) {
        uint64_t *v = W->red + i * nw;
        int own = vtop(v, nw);
        for (size_t r = 0; r < k; r++) {
            const uint64_t *row = W->G + r * nw;
            int pr = vtop(row, nw);
            if (pr != own && vbit(v, (size_t)pr))
                vxor(v, row, nw);
        }
    }
    if (sort_rows(W->red, k, nw))
        return ML_CUBE_ENOMEM;
    int m_aim = (int)(k < ML_CUBE_LOW_DIM ? k : ML_CUBE_LOW_DIM);
    int m_min = k > 63 ? (int)k - 63 : 0;
    if (m_aim < m_min)
        m_aim = m_min;
    /* the symmetries that keep the coset: P x0 - x0 in span(H) */
    size_t nkeep = 0;
    for (size_t g = 0; g < nsym; g++) {
        const uint64_t *t = sym_taps + g * N;
        for (size_t j = 0; j < N; j++)
            if (t[j] >= N)
                return ML_CUBE_EINVAL;
        vperm(W->x0v, t, N, W->v, nw);
        vxor(W->v, W->x0v, nw);
        if (ech_reduce(&W->base, W->v, NULL) < 0) {
            W->perms[nkeep] = t;
            W->keep[nkeep++] = g;
        }
    }
    size_t mm = 0;
    if (nkeep) {   /* the low generators into G */
        rc = invariant_low(W->red, k, N, nw, W->perms, nkeep, m_aim, m_min, W->G, &mm);
        if (rc)
            return rc;
        if (!mm)
            nkeep = 0;
    }
    if (!nkeep) {   /* the m_aim densest rows */
        mm = (size_t)m_aim;
        memcpy(W->G, W->red + (k - mm) * nw, mm * nw * 8);
    }
    if (mm > ML_CUBE_MAX_LOW || k - mm > 63)
        return ML_CUBE_EINVAL;
    rc = ech_init(&W->ech, N, nw, k + 3);
    for (size_t i = 0; !rc && i < mm; i++)
        if (ech_add(&W->ech, W->G + i * nw, (int)i) != 1)
            rc = ML_CUBE_EINVAL;
    size_t ng = mm;
    for (size_t i = 0; !rc && i < k; i++) {
        int got = ech_add(&W->ech, W->red + i * nw, (int)ng);
        if (got < 0)
            rc = got;
        else if (got)
            memcpy(W->G + ng++ * nw, W->red + i * nw, nw * 8);
    }
    if (rc)
        return rc;
    if (ng != k)
        return ML_CUBE_EINVAL;
    p->n_taps = N;
    p->k = (unsigned)k;
    p->m = (unsigned)mm;
    p->kh = (unsigned)(k - mm);
    p->ng = (unsigned)nkeep;
    p->sym_mat = calloc(nkeep * p->kh + 1, 8);
    p->sym_shift = calloc(nkeep + 1, 8);
    p->sym_used = malloc((nkeep + 1) * sizeof *p->sym_used);
    if (!p->sym_mat || !p->sym_shift || !p->sym_used)
        return ML_CUBE_ENOMEM;
    for (size_t g = 0; g < nkeep; g++) {
        p->sym_used[g] = W->keep[g];
        for (unsigned i = 0; i < p->kh; i++) {
            uint64_t c[2] = {0, 0};
            vperm(W->G + (mm + i) * nw, W->perms[g], N, W->v, nw);
            if (ech_reduce(&W->ech, W->v, c) >= 0)
                return ML_CUBE_EINVAL;   /* not in span(H) */
            p->sym_mat[g * p->kh + i] = high_of(c, p->m, p->kh);
        }
        uint64_t c[2] = {0, 0};
        vperm(W->x0v, W->perms[g], N, W->v, nw);
        vxor(W->v, W->x0v, nw);
        ech_reduce(&W->ech, W->v, c);
        p->sym_shift[g] = high_of(c, p->m, p->kh);
    }
    return fill(p, W->G, nw);
}

int ml_cube_plan_make(const uint8_t *x0, const uint8_t *H, size_t k, size_t n_taps,
                      const uint64_t *sym_taps, size_t nsym, ml_cube_plan *p)
{
    memset(p, 0, sizeof *p);
    if (!x0 || (k && !H) || (nsym && !sym_taps) || k > ML_CUBE_MAX_NULLITY ||
        n_taps > ML_CUBE_MAX_TAPS)
        return ML_CUBE_EINVAL;
    plan_work W;
    memset(&W, 0, sizeof W);
    int rc = make(x0, H, k, n_taps, sym_taps, nsym, p, &W);
    free(W.red);
    free(W.G);
    free(W.v);
    free(W.x0v);
    free(W.perms);
    free(W.keep);
    ech_free(&W.base);
    ech_free(&W.ech);
    if (rc)
        ml_cube_plan_free(p);
    return rc;
}

int ml_cube_plan_load(const uint8_t *x0, const uint8_t *gens, size_t k, size_t n_taps,
                      unsigned m, const uint64_t *sym_mat, const uint64_t *sym_shift,
                      size_t ng, ml_cube_plan *p)
{
    memset(p, 0, sizeof *p);
    if (!x0 || (k && !gens) || (ng && (!sym_mat || !sym_shift)) || m > ML_CUBE_MAX_LOW ||
        m > k || k - m > 63 || n_taps > ML_CUBE_MAX_TAPS || ng > ML_CUBE_MAX_MAPS)
        return ML_CUBE_EINVAL;
    unsigned kh = (unsigned)(k - m);
    uint64_t over = kh >= 64 ? 0 : ~(((uint64_t)1 << kh) - 1);
    for (size_t j = 0; j < n_taps; j++)
        if (x0[j] > 1)
            return ML_CUBE_EINVAL;
    for (size_t j = 0; j < k * n_taps; j++)
        if (gens[j] > 1)
            return ML_CUBE_EINVAL;
    for (size_t g = 0; g < ng; g++) {
        if (sym_shift[g] & over)
            return ML_CUBE_EINVAL;
        for (unsigned i = 0; i < kh; i++)
            if (sym_mat[g * kh + i] & over)
                return ML_CUBE_EINVAL;
    }
    size_t nw = (n_taps + 63) / 64;
    uint64_t *G = malloc((k + 1) * (nw ? nw : 1) * 8);
    p->x0 = malloc(n_taps + 1);
    p->sym_mat = malloc(ng * kh * 8 + 8);
    p->sym_shift = malloc(ng * 8 + 8);
    p->sym_used = calloc(ng + 1, sizeof *p->sym_used);
    int rc = G && p->x0 && p->sym_mat && p->sym_shift && p->sym_used ? ML_CUBE_OK
                                                                       : ML_CUBE_ENOMEM;
    if (!rc) {
        memcpy(p->x0, x0, n_taps);
        if (ng) {
            memcpy(p->sym_mat, sym_mat, ng * kh * 8);
            memcpy(p->sym_shift, sym_shift, ng * 8);
        }
        for (size_t g = 0; g < ng; g++)
            p->sym_used[g] = g;
        for (size_t i = 0; i < k; i++)
            vpack(gens + i * n_taps, n_taps, G + i * nw, nw);
        p->n_taps = n_taps;
        p->k = (unsigned)k;
        p->m = m;
        p->kh = kh;
        p->ng = (unsigned)ng;
        rc = fill(p, G, nw);
    }
    free(G);
    if (rc)
        ml_cube_plan_free(p);
    return rc;
}

void ml_cube_plan_layout(const ml_cube_plan *p, unsigned *inner, uint64_t *corners,
                         unsigned *plog)
{
    *inner = p->kh < ML_CUBE_CORNER_LOG ? p->kh : ML_CUBE_CORNER_LOG;
    *corners = (uint64_t)1 << (p->kh - *inner);
    *plog = *inner + p->m;
}

void ml_cube_plan_element(const ml_cube_plan *p, uint64_t high, uint32_t low, uint8_t *y)
{
    size_t N = p->n_taps;
    memcpy(y, p->x0, N);
    for (unsigned i = 0; i < p->k; i++) {
        int on = i < p->m ? (int)(low >> i & 1) : (int)(high >> (i - p->m) & 1);
        if (on)
            for (size_t j = 0; j < N; j++)
                y[j] ^= p->gens[(size_t)i * N + j];
    }
}

/* ------------------------------------------------------------------ the search */
static uint64_t sat_shl(uint64_t v, unsigned s)
{
    if (!v)
        return 0;
    if (s >= 64 || v > (UINT64_MAX >> s))
        return UINT64_MAX;
    return v << s;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

int ml_cube_search(const ml_cube_plan *p, uint64_t steps, int64_t deadline_ns, int threads,
                   uint8_t *best, ml_cube_result *r)
{
    memset(r, 0, sizeof *r);
    size_t N = p->n_taps;
    unsigned inner = p->kh < ML_CUBE_CORNER_LOG ? p->kh : ML_CUBE_CORNER_LOG;
    unsigned plog = inner + p->m;   /* per corner: 2^plog elements */
    uint64_t n_corners = (uint64_t)1 << (p->kh - inner);
    r->total = sat_shl(1, p->k);
    memcpy(best, p->x0, N);
    int64_t best_len = 0;
    for (size_t j = 0; j < N; j++)
        best_len += best[j];
    uint64_t limit = n_corners;
    if (steps != UINT64_MAX && (steps >> plog) < limit)
        limit = steps >> plog;
    ml_progress_report(ML_PHASE_SEARCH, 0, r->total);
    uint64_t done = 0, batch = 1, cap = 0, *corners = NULL;
    int rc = ML_CUBE_OK;
    while (done < limit && best_len > 0) {
        uint64_t b = limit - done < batch ? limit : done + batch;
        double left = 0.0;
        if (deadline_ns > 0) {
            left = (double)(deadline_ns - ml_driver_now_ns()) * 1e-9;
            if (left <= 0)
                break;
        }
        if (b - done > cap) {
            free(corners);
            cap = b - done;
            corners = malloc(cap * sizeof *corners);
            if (!corners) {
                rc = ML_CUBE_ENOMEM;
                break;
            }
        }
        for (uint64_t q = done; q < b; q++)
            corners[q - done] = q << inner;
        int64_t t0 = ml_driver_now_ns();
        uint64_t hi = 0;
        uint32_t lo = 0;
        ml_cube_stats st;
        int64_t len = ml_cube_min_gf2(&p->P, p->kh - inner, corners, (size_t)(b - done),
                                      best_len, left, threads, &hi, &lo, &st);
        double dt = (double)(ml_driver_now_ns() - t0) * 1e-9;
        if (len < 0) {
            rc = len == -1 ? ML_CUBE_ENOMEM : ML_CUBE_EINVAL;
            break;
        }
        r->examined = sat_add(r->examined, sat_shl(st.leaves, p->m));
        r->skipped = sat_add(r->skipped, sat_shl(st.skipped, p->m));
        if (len < best_len) {
            ml_cube_plan_element(p, hi, lo, best);
            best_len = len;
        }
        if (!st.complete) {   /* stopped: the corners it finished are not a prefix */
            if (ml_interrupt_stopped())
                rc = ML_CUBE_STOPPED;
            break;
        }
        done = b;
        ml_progress_report(ML_PHASE_SEARCH, sat_shl(done, plog), r->total);
        double per = dt / (double)(st.corners ? st.corners : 1);
        double nb = ML_CUBE_CALL_SECONDS / (per > 1e-7 ? per : 1e-7);
        batch = nb >= (double)(1 << 20) ? (uint64_t)1 << 20 : nb < 1 ? 1 : (uint64_t)nb;
    }
    free(corners);
    r->length = best_len;
    r->complete = done >= n_corners || best_len == 0;
    r->covered = sat_shl(done < n_corners ? done : n_corners, plog);
    return rc;
}
