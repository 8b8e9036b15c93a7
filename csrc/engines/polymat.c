/* polymat.c: 2 x 2 matrices over GF(p)[s] / (f) and their diagonal form (polymat.h);
 * the same operations in the same order as torus.py's _diagonalise, so the factors L,
 * V and the diagonal are Python's (every entry reduced mod f: canonical). */
#include "engines/polymat.h"

#include "poly/poly.h"

void ml__pm_init(pmat *m)
{
    for (int i = 0; i < 4; i++)
        ml__alg_px_init(&m->e[i]);
}

void ml__pm_clear(pmat *m)
{
    for (int i = 0; i < 4; i++)
        ml__alg_px_clear(&m->e[i]);
}

int ml__pm_const(unsigned p, pmat *m, int a, int b, int c, int d)
{
    int v[4] = {a, b, c, d}, rc = 0;
    for (int i = 0; i < 4 && !rc; i++) {
        uint8_t one = (uint8_t)(v[i] != 0);
        rc = ml__alg_px_set(p, &m->e[i], &one, 1);
    }
    return rc;
}

static void pm_swap(pmat *a, pmat *b)
{
    pmat t = *a;
    *a = *b;
    *b = t;
}

int ml__pm_mul(unsigned p, pmat *r, const pmat *X, const pmat *Y, const px *f)
{
    pmat T;
    px sq, u;
    ml__pm_init(&T);
    ml__alg_px_init(&sq);
    ml__alg_px_init(&u);
    int rc = ml__alg_mat_mul(p, T.e, X->e, Y->e, f, &sq, &u);
    if (!rc)
        pm_swap(r, &T);
    ml__pm_clear(&T);
    ml__alg_px_clear(&sq);
    ml__alg_px_clear(&u);
    return rc;
}

int ml__pm_xgcd(unsigned p, px *g, px *s, px *t, const px *a, const px *b)
{
    if (p == 2)
        return ml_gf2x_xgcd(&g->b, &s->b, t ? &t->b : NULL, &a->b, &b->b);
    return ml_gfpx_xgcd(&g->c, &s->c, t ? &t->c : NULL, &a->c, &b->c, p);
}

int ml__pm_exact_div(unsigned p, px *q, const px *a, const px *b)
{
    px r;
    ml__alg_px_init(&r);
    int rc = ml__alg_px_divrem(p, q, &r, a, b);
    if (!rc && ml__alg_px_deg(p, &r) >= 0)
        rc = 4;
    ml__alg_px_clear(&r);
    return rc;
}

#define Z(a) (ml__alg_px_deg(p, (a)) < 0)

/* X = S X (left) or X = X S (right) for S = [[0, 1], [1, 0]]: a swap of rows or columns */
static void swap_rows(pmat *X)
{
    px t = X->e[0];
    X->e[0] = X->e[2];
    X->e[2] = t;
    t = X->e[1];
    X->e[1] = X->e[3];
    X->e[3] = t;
}

static void swap_cols(pmat *X)
{
    px t = X->e[0];
    X->e[0] = X->e[1];
    X->e[1] = t;
    t = X->e[2];
    X->e[2] = X->e[3];
    X->e[3] = t;
}

/* U (or W) for a pair (a, c) to clear c: [[1, 0], [-q, 1]] when a | c, else the xgcd's
 * [[s, t], [-(c / g), a / g]]; the transposed layout for columns (right: [[1, -q], [0,
 * 1]] or [[s, -(b / g)], [t, a / g]]). */
static int euclid_step(unsigned p, pmat *U, const px *a, const px *c, int right, px *q,
                       px *r)
{
    int rc = ml__alg_px_divrem(p, q, r, c, a);
    if (rc)
        return rc;
    uint8_t one = 1;
    if (Z(r)) {
        ml__alg_px_neg(p, q);
        rc = ml__alg_px_set(p, &U->e[0], &one, 1);
        if (!rc)
            rc = ml__alg_px_set(p, &U->e[3], &one, 1);
        if (!rc)
            rc = ml__alg_px_set(p, &U->e[right ? 2 : 1], NULL, 0);
        if (!rc)
            rc = ml__alg_px_copy(p, &U->e[right ? 1 : 2], q);
        return rc;
    }
    px g;
    ml__alg_px_init(&g);
    rc = ml__pm_xgcd(p, &g, &U->e[0], &U->e[right ? 2 : 1], a, c);
    if (!rc)
        rc = ml__pm_exact_div(p, &U->e[right ? 1 : 2], c, &g);
    if (!rc)
        rc = ml__pm_exact_div(p, &U->e[3], a, &g);
    if (!rc)
        ml__alg_px_neg(p, &U->e[right ? 1 : 2]);
    ml__alg_px_clear(&g);
    return rc;
}

int ml__pm_diagonalise(unsigned p, size_t w, const px *f, pmat *M, pmat *L, pmat *V)
{
    pmat U;
    px q, r;
    ml__pm_init(&U);
    ml__alg_px_init(&q);
    ml__alg_px_init(&r);
    int rc = ml__pm_const(p, L, 1, 0, 0, 1);
    if (!rc)
        rc = ml__pm_const(p, V, 1, 0, 0, 1);
    int done = 0;
    for (size_t it = 0; it < 2 * w + 8 && !rc && !done; it++) {
        if (Z(&M->e[0])) {
            if (!Z(&M->e[2])) {
                swap_rows(M);
                swap_rows(L);
            } else if (!Z(&M->e[1])) {
                swap_cols(M);
                swap_cols(V);
            } else if (!Z(&M->e[3])) {
                /* first row and column zero: the other entry is the only invariant */
                swap_rows(M);
                swap_rows(L);
                swap_cols(M);
                swap_cols(V);
                continue;
            } else {
                done = 1;
                break;
            }
        }
        if (!Z(&M->e[2])) {   /* clear (1, 0) by row operations */
            rc = euclid_step(p, &U, &M->e[0], &M->e[2], 0, &q, &r);
            if (!rc)
                rc = ml__pm_mul(p, M, &U, M, f);
            if (!rc)
                rc = ml__pm_mul(p, L, &U, L, f);
            if (rc)
                break;
        }
        if (Z(&M->e[1])) {
            if (Z(&M->e[2]))
                done = 1;
            continue;
        }
        rc = euclid_step(p, &U, &M->e[0], &M->e[1], 1, &q, &r);   /* clear (0, 1) */
        if (!rc)
            rc = ml__pm_mul(p, M, M, &U, f);
        if (!rc)
            rc = ml__pm_mul(p, V, V, &U, f);
        if (!rc && Z(&M->e[2]))
            done = 1;
    }
    if (!rc && !done)
        rc = 4;   /* the diagonal form did not converge (a bug) */
    ml__pm_clear(&U);
    ml__alg_px_clear(&q);
    ml__alg_px_clear(&r);
    return rc;
}
