/* torus.c: the "algebraic-torus" engine (torus.h): cross.py's AlgebraicEngine on tori
 * of the cross family over torus.py's TorusSystem.
 *
 * The board is chased down its rows, or transposed when the count of (-1, 0) is not a
 * unit mod p or it has fewer than 3 rows. A row is an element of R = GF(p)[s] / (f),
 * f = s^w - 1; with u = X_0 and v = X_{-1} as unknowns the chase
 * (ml_rowrec_chase_torus_gfp) leaves the residuals X_{h-1} - v and X_h - u, which read
 * M (u, v) + c with M a 2 x 2 matrix over R (the chases from (1, 0) and (0, 1)).
 * polymat.c diagonalises M: L M V = diag(d1, d2); with g_i = gcd(d_i, f) = t_i d_i + ...:
 * nullity = deg g_1 + deg g_2; b is solvable iff g_i | e_i (e = -L c), then z_i =
 * t_i (e_i / g_i) mod f, (u, v) = V z and the chase is replayed; the kernel is spanned
 * by the chases from V (f / g_1 s^j, 0) and V (0, f / g_2 s^j), j < deg g_i.
 *
 * The system (two chases of O(h w) time, O(w) memory, a few extended gcds) is made on
 * first need, as in Python. Every allocation is checked (ML_ENOMEM "out of memory in
 * the algebraic engine"); a stop while the chases or gcds run is ML_EINTERRUPTED. */
#include "engines/torus.h"

#include "api/board.h"
#include "api/ctx.h"
#include "engines/algebraic_impl.h"
#include "engines/polymat.h"
#include "base/interrupt.h"
#include "base/modn.h"
#include "structured/rowrec.h"

#include <stdlib.h>
#include <string.h>

/* cross.py's KERNEL_BYTES_MAX (256 MiB of generators x taps) */
#define KERNEL_BYTES_MAX ((uint64_t)1 << 28)

typedef struct tor_eng {
    unsigned p;
    size_t rows, cols;   /* the board's */
    size_t h, w;         /* the chase's orientation */
    int transposed, built;
    ml_rowrec rec;
    px f, g[2], t[2];
    pmat L, V;
    uint64_t nullity;
} tor_eng;

/* A C module's status as the library's: 2 out of memory, 3 stopped, else a bug. */
static int status(ml_ctx *ctx, int rc, const char *what)
{
    return ml__alg_status(ctx, rc, "the torus algebra", what);
}

/* a mod f (t: scratch distinct from a) */
static int reduce(const tor_eng *e, px *a, px *t)
{
    if (ml__alg_px_deg(e->p, a) < (long)e->w)
        return 0;
    int rc = ml__alg_px_divrem(e->p, NULL, t, a, &e->f);
    return rc ? rc : ml__alg_px_copy(e->p, a, t);
}

/* the w coefficients of a (degree < w) */
static void coeffs(const tor_eng *e, const px *a, uint8_t *out)
{
    memset(out, 0, e->w);
    if (e->p == 2) {
        for (size_t i = 0; i < e->w && i / 64 < a->b.n; i++)
            out[i] = (uint8_t)(a->b.c[i / 64] >> (i % 64) & 1);
    } else {
        for (size_t i = 0; i < e->w && i < a->c.n; i++)
            out[i] = a->c.c[i];
    }
}

/* out_i = (V[i][0] z0 + V[i][1] z1) mod f as rows of w bytes (u, then v) */
static int apply_V(const tor_eng *e, const px z[2], uint8_t *u, uint8_t *v)
{
    px a, b, t;
    ml__alg_px_init(&a);
    ml__alg_px_init(&b);
    ml__alg_px_init(&t);
    int rc = 0;
    for (int i = 0; i < 2 && !rc; i++) {
        rc = ml__alg_px_mulmod(e->p, &a, &e->V.e[2 * i], &z[0], &e->f, &t);
        if (!rc)
            rc = ml__alg_px_mulmod(e->p, &b, &e->V.e[2 * i + 1], &z[1], &e->f, &t);
        if (!rc)
            rc = ml__alg_px_add(e->p, &a, &b);
        if (!rc)
            coeffs(e, &a, i ? v : u);
    }
    ml__alg_px_clear(&a);
    ml__alg_px_clear(&b);
    ml__alg_px_clear(&t);
    return rc;
}

/* The chase with b = 0 over GF(2), rows as words (torus.py's _chase_gf2: shifts and XORs
 * of whole rows): the same taps and residuals as ml_rowrec_chase_torus_gfp, O(h w / 64)
 * word operations when x is NULL (the system's two chases on giant boards). */
static int chase0_gf2(const tor_eng *e, const uint8_t *u, const uint8_t *v, uint8_t *x,
                      uint8_t *r1, uint8_t *r2)
{
    size_t w = e->w, h = e->h, W = (w + 63) / 64;
    const ml_rowrec *P = &e->rec;
    uint64_t top = (w % 64) ? ((uint64_t)1 << (w % 64)) - 1 : ~(uint64_t)0;
    uint64_t *buf = calloc(5 * W, sizeof *buf);
    if (!buf)
        return 2;
    uint64_t *prev = buf, *cur = buf + W, *nxt = buf + 2 * W, *iu = buf + 3 * W,
             *last = buf + 4 * W;
    ml__alg_to_words(v, w, prev);
    ml__alg_to_words(u, w, cur);
    memcpy(iu, cur, W * sizeof *iu);
    for (size_t r = 0; r < h; r++) {
        if (x)
            ml__alg_from_words(cur, w, x + r * w);
        uint64_t hi = cur[(w - 1) / 64] >> ((w - 1) % 64) & 1, lo = cur[0] & 1;
        for (size_t i = 0; i < W; i++) {
            uint64_t t = P->cd & 1 ? prev[i] : 0;
            if (P->d & 1)
                t ^= cur[i];
            if (P->cr & 1)   /* bit c gets bit c - 1, column 0 the last one */
                t ^= cur[i] << 1 | (i ? cur[i - 1] >> 63 : hi);
            if (P->cl & 1)   /* bit c gets bit c + 1, column w - 1 the first one */
                t ^= cur[i] >> 1 | (i + 1 < W ? cur[i + 1] << 63 : lo << ((w - 1) % 64));
            nxt[i] = t;
        }
        nxt[W - 1] &= top;
        uint64_t *o = prev;
        prev = cur;
        cur = nxt;
        nxt = o;
        if (r + 2 == h)
            memcpy(last, cur, W * sizeof *last);
        if ((r & 15) == 15 && ml_interrupt_poll()) {
            free(buf);
            return 3;
        }
    }
    ml__alg_from_words(last, w, r1);
    ml__alg_from_words(cur, w, r2);
    for (size_t c = 0; c < w; c++) {
        r1[c] ^= v[c];
        r2[c] ^= u[c];
    }
    free(buf);
    return 0;
}

/* The chase of b = 0 from (u, v): words over GF(2), bytes otherwise */
static int chase0(const tor_eng *e, const uint8_t *u, const uint8_t *v, uint8_t *x, uint8_t *r1,
                  uint8_t *r2)
{
    if (e->p == 2)
        return chase0_gf2(e, u, v, x, r1, r2);
    return ml_rowrec_chase_torus_gfp(&e->rec, NULL, u, v, x, r1, r2);
}

/* TorusSystem.__init__: M from two chases, its diagonal form, g_i and t_i */
static int build_system(ml_ctx *ctx, tor_eng *e)
{
    if (e->built)
        return ML_OK;
    unsigned p = e->p;
    size_t w = e->w;
    uint8_t *buf = calloc(6 * w + 1, 1);
    if (!buf)
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    uint8_t *e0 = buf, *zero = buf + w, *r = buf + 2 * w;   /* r: 4 residual rows */
    e0[0] = 1;
    int rc = chase0(e, e0, zero, NULL, r, r + w);
    if (!rc)
        rc = chase0(e, zero, e0, NULL, r + 2 * w, r + 3 * w);
    pmat M;
    px t, d;
    ml__pm_init(&M);
    ml__alg_px_init(&t);
    ml__alg_px_init(&d);
    /* M = [[col_u[0], col_v[0]], [col_u[1], col_v[1]]] */
    static const int at[4] = {0, 2, 1, 3};
    for (int i = 0; i < 4 && !rc; i++)
        rc = ml__alg_px_set(p, &M.e[i], r + (size_t)at[i] * w, w);
    if (!rc)
        rc = ml__pm_diagonalise(p, w, &e->f, &M, &e->L, &e->V);
    e->nullity = 0;
    for (int i = 0; i < 2 && !rc; i++) {
        const px *di = &M.e[3 * i];
        if (ml__alg_px_deg(p, di) < 0) {
            rc = ml__alg_px_copy(p, &e->g[i], &e->f);
            if (!rc)
                rc = ml__alg_px_set(p, &e->t[i], NULL, 0);
        } else {
            rc = ml__pm_xgcd(p, &e->g[i], &e->t[i], NULL, di, &e->f);
            if (!rc)
                rc = reduce(e, &e->t[i], &t);
        }
        if (!rc)
            e->nullity += (uint64_t)ml__alg_px_deg(p, &e->g[i]);
    }
    ml__pm_clear(&M);
    ml__alg_px_clear(&t);
    ml__alg_px_clear(&d);
    free(buf);
    if (!rc)
        e->built = 1;
    return status(ctx, rc, rc == 4 ? "the diagonal form" : "the chase");
}

/* ------------------------------------------------------------------ the questions */
static void tor_destroy(void *user, void *engine)
{
    (void)user;
    tor_eng *e = engine;
    if (!e)
        return;
    ml__alg_px_clear(&e->f);
    for (int i = 0; i < 2; i++) {
        ml__alg_px_clear(&e->g[i]);
        ml__alg_px_clear(&e->t[i]);
    }
    ml__pm_clear(&e->L);
    ml__pm_clear(&e->V);
    free(e);
}

static int not_covered(ml_ctx *ctx)
{
    return ml__fail(ctx, ML_M_INTERNAL, "algebraic-torus",
                    "the board is not covered (the registry's covers)");
}

static int tor_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    if (b->kind != ML_BOARD_GRID || b->mixed || b->locked || b->holes || !b->wrap ||
        b->n < 2 || b->n > 251 || b->rows < 1 || b->cols < 1)
        return not_covered(ctx);
    for (int q = 2; q * q <= b->n; q++)
        if (b->n % q == 0)
            return not_covered(ctx);
    const ml__pattern *pt = &b->pal[0];
    unsigned p = (unsigned)b->n;
    for (size_t i = 0; i < pt->count; i++) {   /* algebraic_reason's offsets */
        long dr = pt->dr[i], dc = pt->dc[i];
        if (!((dr == 0 && dc >= -1 && dc <= 1) || (dc == 0 && (dr == 1 || dr == -1))))
            return not_covered(ctx);
    }
    int t = ml__alg_count(pt, 0, -1, 0) % (long)p == 0 || b->rows < 3;
    size_t h = (size_t)(t ? b->cols : b->rows), w = (size_t)(t ? b->rows : b->cols);
    unsigned d = (unsigned)(ml__alg_count(pt, t, 0, 0) % p), cr = (unsigned)(ml__alg_count(pt, t, 0, 1) % p),
             cl = (unsigned)(ml__alg_count(pt, t, 0, -1) % p), cu = (unsigned)(ml__alg_count(pt, t, -1, 0) % p),
             cd = (unsigned)(ml__alg_count(pt, t, 1, 0) % p);
    if (!cu || h < 3)
        return not_covered(ctx);
    tor_eng *e = calloc(1, sizeof *e);
    if (!e)
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    e->p = p;
    e->rows = (size_t)b->rows;
    e->cols = (size_t)b->cols;
    e->transposed = t;
    e->h = h;
    e->w = w;
    e->rec = (ml_rowrec){h, w, p, d, cr, cl, cu, cd};
    ml__alg_px_init(&e->f);
    for (int i = 0; i < 2; i++) {
        ml__alg_px_init(&e->g[i]);
        ml__alg_px_init(&e->t[i]);
    }
    ml__pm_init(&e->L);
    ml__pm_init(&e->V);
    uint8_t *fc = calloc(w + 1, 1);   /* f = s^w - 1 */
    int rc = fc ? 0 : 2;
    if (fc) {
        fc[0] = (uint8_t)(p - 1);
        fc[w] = 1;
        rc = ml__alg_px_set(p, &e->f, fc, w + 1);
        free(fc);
    }
    if (rc) {
        tor_destroy(NULL, e);
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    }
    *engine = e;
    return ML_OK;
}

static int tor_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    tor_eng *e = engine;
    int rc = build_system(ctx, e);
    if (!rc)
        *nullity = e->nullity;
    return rc;
}

static int tor_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    tor_eng *e = engine;
    uint64_t null = 0;
    int rc = tor_nullity(user, ctx, e, &null);
    if (rc)
        return rc;
    ml__alg_prime_size(e->p, null, size);
    return ML_OK;
}

/* out (cols x rows) = the transpose of in (rows x cols), bytes */
static void transpose(const uint8_t *in, size_t rows, size_t cols, uint8_t *out)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            out[c * rows + r] = in[r * cols + c];
}

/* TorusSystem.solve on B (h x w, values < p): the taps in x, *ok; rows: 4 w bytes */
static int solve_grid(ml_ctx *ctx, tor_eng *e, const uint8_t *B, uint8_t *x, uint8_t *rows,
                      int *ok)
{
    unsigned p = e->p;
    size_t w = e->w;
    uint8_t *c1 = rows, *c2 = rows + w, *zero = rows + 2 * w, *u = rows + 2 * w,
            *v = rows + 3 * w;
    memset(zero, 0, w);
    int rc = status(ctx, ml_rowrec_chase_torus_gfp(&e->rec, B, zero, zero, NULL, c1, c2),
                    "the chase");
    *ok = 1;
    if (rc)
        return rc;
    if (!ml__alg_any(c1, w) && !ml__alg_any(c2, w))
        return status(ctx, ml_rowrec_chase_torus_gfp(&e->rec, B, zero, zero, x, c1, c2),
                      "the chase");
    px c[2], z[2], a, q, r, t;
    for (int i = 0; i < 2; i++) {
        ml__alg_px_init(&c[i]);
        ml__alg_px_init(&z[i]);
    }
    ml__alg_px_init(&a);
    ml__alg_px_init(&q);
    ml__alg_px_init(&r);
    ml__alg_px_init(&t);
    int st = ml__alg_px_set(p, &c[0], c1, w);
    if (!st)
        st = ml__alg_px_set(p, &c[1], c2, w);
    for (int i = 0; i < 2 && !st && *ok; i++) {
        /* e_i = -(L[i][0] c0 + L[i][1] c1) mod f; g_i | e_i, z_i = t_i (e_i / g_i) mod f */
        st = ml__alg_px_mulmod(p, &a, &e->L.e[2 * i], &c[0], &e->f, &t);
        if (!st)
            st = ml__alg_px_mulmod(p, &r, &e->L.e[2 * i + 1], &c[1], &e->f, &t);
        if (!st)
            st = ml__alg_px_add(p, &a, &r);
        if (!st) {
            ml__alg_px_neg(p, &a);
            st = ml__alg_px_divrem(p, &q, &r, &a, &e->g[i]);
        }
        if (!st && ml__alg_px_deg(p, &r) >= 0)
            *ok = 0;
        if (!st && *ok)
            st = ml__alg_px_mulmod(p, &z[i], &e->t[i], &q, &e->f, &t);
    }
    if (!st && *ok)
        st = apply_V(e, z, u, v);
    if (!st && *ok)
        st = ml_rowrec_chase_torus_gfp(&e->rec, B, u, v, x, c1, c2);
    for (int i = 0; i < 2; i++) {
        ml__alg_px_clear(&c[i]);
        ml__alg_px_clear(&z[i]);
    }
    ml__alg_px_clear(&a);
    ml__alg_px_clear(&q);
    ml__alg_px_clear(&r);
    ml__alg_px_clear(&t);
    rc = status(ctx, st, "the solve");
    if (!rc && *ok && (ml__alg_any(c1, w) || ml__alg_any(c2, w)))   /* never: M (u, v) = -c */
        rc = ml__fail(ctx, ML_M_INTERNAL, "the torus algebra", "the replay left a residual");
    return rc;
}

static int tor_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                     uint8_t *X, uint8_t *ok)
{
    (void)user;
    tor_eng *e = engine;
    size_t m = e->rows * e->cols;
    if (!k)
        return ML_OK;
    int rc = build_system(ctx, e);
    if (rc)
        return rc;
    ml_fastmod fp = ml_fastmod_make(e->p);
    uint8_t *B = malloc(m + 1), *x = malloc(m + 1), *rows = malloc(4 * e->w + 1);
    if (!B || !x || !rows)
        rc = ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    for (size_t i = 0; i < k && !rc; i++) {
        const uint8_t *r = R + i * m;
        if (e->transposed)
            transpose(r, e->rows, e->cols, B);
        else
            memcpy(B, r, m);
        for (size_t j = 0; j < m; j++)
            B[j] = (uint8_t)ml_fastmod_red(fp, B[j]);
        int good = 0;
        rc = solve_grid(ctx, e, B, x, rows, &good);
        ok[i] = !rc && good;
        if (rc || !good)
            memset(X + i * m, 0, m);
        else if (e->transposed)
            transpose(x, e->h, e->w, X + i * m);
        else
            memcpy(X + i * m, x, m);
    }
    free(B);
    free(x);
    free(rows);
    return rc;
}

static int tor_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                          uint8_t *H, uint32_t *orders)
{
    tor_eng *e = engine;
    uint64_t null = 0, hw = (uint64_t)e->h * e->w;
    int rc = tor_nullity(user, ctx, e, &null);
    if (rc)
        return rc;
    uint64_t count = limit < null ? limit : null;
    *k = count;
    if (!H || !count)
        return ML_OK;
    if (hw && count > KERNEL_BYTES_MAX / hw) {   /* _generator_count */
        unsigned __int128 bytes = (unsigned __int128)count * hw;
        return ml__fail(ctx, ML_M_KERNEL_BASIS_TOO_LARGE, (unsigned long long)count,
                        (unsigned long long)hw, (double)bytes / (1024.0 * 1024.0 * 1024.0),
                        (double)KERNEL_BYTES_MAX / (1024.0 * 1024.0));
    }
    unsigned p = e->p;
    size_t w = e->w;
    uint8_t *x = malloc(hw + 1), *rows = malloc(4 * w + 1);
    px base, z[2], mono, t;
    ml__alg_px_init(&base);
    ml__alg_px_init(&mono);
    ml__alg_px_init(&t);
    ml__alg_px_init(&z[0]);
    ml__alg_px_init(&z[1]);
    int st = x && rows ? 0 : 2;
    uint64_t n = 0;
    /* kernel_starts: V (f / g_i s^j) in slot i, j < deg g_i */
    for (int i = 0; i < 2 && !st && n < count; i++) {
        long dg = ml__alg_px_deg(p, &e->g[i]);
        st = ml__pm_exact_div(p, &base, &e->f, &e->g[i]);
        for (long j = 0; j < dg && !st && n < count; j++, n++) {
            st = ml__alg_px_shift(p, &mono, &base, (size_t)j);
            if (!st)
                st = reduce(e, &mono, &t);
            if (!st)
                st = ml__alg_px_copy(p, &z[i], &mono);
            if (!st)
                st = ml__alg_px_set(p, &z[1 - i], NULL, 0);
            if (!st)
                st = apply_V(e, z, rows, rows + w);
            if (!st)
                st = chase0(e, rows, rows + w, x, rows + 2 * w, rows + 3 * w);
            if (!st && ml__alg_any(rows + 2 * w, 2 * w))
                st = 5;
            if (!st && e->transposed)
                transpose(x, e->h, w, H + n * hw);
            else if (!st)
                memcpy(H + n * hw, x, (size_t)hw);
            if (!st && orders)
                orders[n] = p;
        }
    }
    ml__alg_px_clear(&base);
    ml__alg_px_clear(&mono);
    ml__alg_px_clear(&t);
    ml__alg_px_clear(&z[0]);
    ml__alg_px_clear(&z[1]);
    free(x);
    free(rows);
    if (st == 5)
        return ml__fail(ctx, ML_M_INTERNAL, "the torus algebra",
                        "a kernel vector left a residual");
    return status(ctx, st, "the kernel");
}

static int tor_kernel_fits(void *user, ml_ctx *ctx, void *engine, int *fits)
{
    tor_eng *e = engine;
    uint64_t null = 0, hw = (uint64_t)e->h * e->w;
    int rc = tor_nullity(user, ctx, e, &null);
    if (!rc)
        *fits = !null || !hw || null <= KERNEL_BYTES_MAX / hw;
    return rc;
}

const ml_engine_def ml__algebraic_torus_ops = {
    .size = sizeof(ml_engine_def),
    .name = "algebraic-torus",
    .build = tor_build,
    .destroy = tor_destroy,
    .solve = tor_solve,
    .nullity = tor_nullity,
    .kernel_size = tor_kernel_size,
    .generators = tor_generators,
    .kernel_fits = tor_kernel_fits,
};
