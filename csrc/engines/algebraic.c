/* algebraic.c: the polynomial engines' questions (engines/algebraic.h), the orchestration
 * of cross.py's AlgebraicEngine (grids without wrap) and sym.py's SymAlgebraicEngine over
 * poly/poly.c (ml_gf2x, ml_gfpx), structured/rowrec.c (the row recurrence's chase and
 * the conversions f <-> f(T) e_0) and structured/symchase.c (the symmetric chase).
 *
 * The board is chased down its rows, or transposed (cross: the count of (-1, 0) is
 * not a unit mod p; sym: the first orientation with symmetric counts and an invertible
 * C_1). The chase from X_0 = z leaves the virtual row X_h = F z + c; with chi the
 * characteristic polynomial of the row operator and g = gcd(F, chi) = s F + t chi:
 * nullity = deg g; solvable iff g | -c, then z = s (-c / g) mod chi and the chase is
 * replayed from z; the kernel is spanned by the chases from (chi / g) x^i, i < deg g.
 * Cross: F = P_h(T) (rowrec.c; "mirrored" when T has only a super-diagonal, "scalar"
 * when it is diagonal: F = F(t0) a number). Sym: F = C_1^-h G_h, G_h the (0, 0) entry
 * of [[-C_0, -C_{-1} C_1], [1, 0]]^h over GF(p)[x] / (chi_P), s scaled by C_1^h.
 * det (cross) = (-cu)^(h w) Res(chi, F) (F(t0)^w when scalar); 0 with a kernel.
 *
 * Nothing of h x w size is made at build: the algebra is O(w) memory, made on first
 * need, so giant boards get nullity, kernel size and det. Every allocation is checked
 * (ML_ENOMEM "out of memory in the algebraic engine"); a stop requested while the
 * polynomial work runs is ML_EINTERRUPTED. */
#include "engines/algebraic.h"

#include "api/board.h"
#include "api/ctx.h"
#include "engines/algebraic_impl.h"
#include "poly/poly.h"
#include "structured/packed.h"
#include "structured/rowrec.h"
#include "structured/symchase.h"

#include <stdlib.h>
#include <string.h>

/* cross.py's KERNEL_BYTES_MAX (256 MiB of generators x taps) */
#define KERNEL_BYTES_MAX ((uint64_t)1 << 28)

enum { CYCLIC, MIRRORED, SCALAR };

typedef struct alg_eng {
    int sym;
    unsigned p;
    size_t rows, cols;   /* the board's */
    size_t h, w;         /* the chase's orientation */
    int transposed, mode;
    ml_rowrec rec;       /* cross: the chase */
    ml_rowrec conv;      /* the conversions (cross mirrored: sub- and super-diagonal swapped) */
    ml_symchase sc;      /* sym: the chase */
    unsigned cu, t0, mu, fscalar;
    int have_alg, have_g, have_s, have_fscalar;
    px chi, F, g, s, tmp;
} alg_eng;

/* f with f(T) e_0 = v, and v = f(T) e_0, by the conversions' recurrence */
static int vec_to_poly(const alg_eng *e, const uint8_t *v, px *f, uint64_t *wb)
{
    if (e->p != 2)
        return ml_rowrec_vec_to_poly_gfp(&e->conv, v, &f->c);
    ml__alg_to_words(v, e->w, wb);
    return ml_rowrec_vec_to_poly_gf2(&e->conv, wb, &f->b);
}
static int poly_to_vec(const alg_eng *e, const px *f, uint8_t *v, uint64_t *wb)
{
    if (e->p != 2)
        return ml_rowrec_poly_to_vec_gfp(&e->conv, &f->c, v);
    int rc = ml_rowrec_poly_to_vec_gf2(&e->conv, &f->b, wb);
    if (!rc)
        ml__alg_from_words(wb, e->w, v);
    return rc;
}

/* A C module's status as the library's: 2 out of memory, 3 stopped, else a bug. */
static int status(ml_ctx *ctx, int rc, const char *what)
{
    return ml__alg_status(ctx, rc, "the algebraic engine", what);
}

/* ------------------------------------------------------------------ the algebra */
/* F(t0) for a diagonal T: P_{i+1} = t0 P_i + mu P_{i-1} mod p */
static unsigned scalar_F(alg_eng *e)
{
    if (!e->have_fscalar) {
        unsigned p = e->p, a = 0, b = 1;
        for (size_t i = 0; i < e->h; i++) {
            unsigned nb = (e->t0 * b + e->mu * a) % p;
            a = b;
            b = nb;
        }
        e->fscalar = b;
        e->have_fscalar = 1;
    }
    return e->fscalar;
}

/* chi and F */
static int algebra(ml_ctx *ctx, alg_eng *e)
{
    if (e->have_alg)
        return ML_OK;
    unsigned p = e->p;
    int rc = p == 2 ? ml_rowrec_charpoly_gf2(&e->conv, &e->chi.b)
                    : ml_rowrec_charpoly_gfp(&e->conv, &e->chi.c);
    if (!rc && e->sym)
        rc = ml__alg_sym_G(p, e->sc.a, e->sc.b, e->h, &e->chi, &e->F);
    else if (!rc)
        rc = p == 2 ? ml_rowrec_F_gf2(&e->conv, &e->chi.b, &e->F.b)
                    : ml_rowrec_F_gfp(&e->conv, &e->chi.c, &e->F.c);
    if (rc)
        return status(ctx, rc, "the characteristic polynomial");
    e->have_alg = 1;
    return ML_OK;
}

/* g = gcd(F, chi) */
static int gcd_g(ml_ctx *ctx, alg_eng *e)
{
    if (e->have_g)
        return ML_OK;
    int rc = algebra(ctx, e);
    if (rc)
        return rc;
    unsigned p = e->p;
    rc = p == 2 ? ml_gf2x_gcd(&e->g.b, &e->F.b, &e->chi.b)
                : ml_gfpx_gcd(&e->g.c, &e->F.c, &e->chi.c, p);
    if (rc)
        return status(ctx, rc, "gcd");
    e->have_g = 1;
    return ML_OK;
}

/* g = s F + t chi; sym: s scaled by C_1^h mod chi */
static int xgcd_s(ml_ctx *ctx, alg_eng *e)
{
    if (e->have_s)
        return ML_OK;
    int rc = algebra(ctx, e);
    if (rc)
        return rc;
    unsigned p = e->p;
    rc = p == 2 ? ml_gf2x_xgcd(&e->g.b, &e->s.b, NULL, &e->F.b, &e->chi.b)
                : ml_gfpx_xgcd(&e->g.c, &e->s.c, NULL, &e->F.c, &e->chi.c, p);
    if (!rc && e->sym)   /* s C_1^h mod chi */
        rc = ml__alg_sym_scale(p, e->sc.a[2], e->sc.b[2], e->h, &e->chi, &e->s);
    if (rc)
        return status(ctx, rc, "the extended gcd");
    e->have_g = e->have_s = 1;
    return ML_OK;
}

static int nullity_u(ml_ctx *ctx, alg_eng *e, uint64_t *null)
{
    if (!e->sym && e->mode == SCALAR) {
        *null = scalar_F(e) ? 0 : e->w;
        return ML_OK;
    }
    int rc = gcd_g(ctx, e);
    if (!rc)
        *null = (uint64_t)ml__alg_px_deg(e->p, &e->g);
    return rc;
}

/* z (w bytes) with F z = -c, *ok = 0 when there is none; wb: ceil(w / 64) words */
static int residual_z(ml_ctx *ctx, alg_eng *e, const uint8_t *c, uint8_t *z, int *ok,
                      uint64_t *wb)
{
    unsigned p = e->p;
    size_t w = e->w;
    for (size_t i = 0; i < w; i++)
        z[i] = (uint8_t)((p - c[i]) % p);
    *ok = 1;
    if (!e->sym && e->mode == SCALAR) {
        unsigned f = scalar_F(e);
        if (!f) {
            for (size_t i = 0; i < w; i++)
                *ok &= !c[i];
            memset(z, 0, w);
            return ML_OK;
        }
        unsigned inv = ml_gfp_inv(f, p);
        for (size_t i = 0; i < w; i++)
            z[i] = (uint8_t)(z[i] * inv % p);
        return ML_OK;
    }
    int rc = xgcd_s(ctx, e);
    if (rc)
        return rc;
    int mirrored = !e->sym && e->mode == MIRRORED;
    if (mirrored)
        ml__alg_reverse(z, w);
    px cp, q, r;
    ml__alg_px_init(&cp);
    ml__alg_px_init(&q);
    ml__alg_px_init(&r);
    rc = vec_to_poly(e, z, &cp, wb);
    if (!rc)
        rc = ml__alg_px_divrem(p, &q, &r, &cp, &e->g);
    if (!rc && ml__alg_px_deg(p, &r) >= 0)
        *ok = 0;
    else if (!rc)
        rc = ml__alg_px_mulmod(p, &cp, &e->s, &q, &e->chi, &r);
    if (!rc && *ok)
        rc = poly_to_vec(e, &cp, z, wb);
    if (!rc && *ok && mirrored)
        ml__alg_reverse(z, w);
    ml__alg_px_clear(&cp);
    ml__alg_px_clear(&q);
    ml__alg_px_clear(&r);
    return status(ctx, rc, "the residual");
}

/* ------------------------------------------------------------------ chasing */
/* The chase of B (h x w bytes) from X_0 = z (NULL: zero): taps to x (GF(2) cross: NULL
 * for a read-only pass), the virtual row to last (w bytes). */
static int chase(ml_ctx *ctx, alg_eng *e, const uint8_t *B, const uint8_t *z, uint8_t *x,
                 uint8_t *last, uint64_t *zw, uint64_t *lw)
{
    int rc;
    if (e->sym) {
        rc = ml_symchase_run(&e->sc, B, z, x, last);
    } else if (e->p == 2) {
        if (z)
            ml__alg_to_words(z, e->w, zw);
        rc = ml_rowrec_chase_gf2(&e->rec, 0, B, 0, z ? zw : NULL, x, lw);
        if (!rc)
            ml__alg_from_words(lw, e->w, last);
    } else {
        rc = ml_rowrec_chase_gfp(&e->rec, B, 0, 1, z, x, last);
    }
    return status(ctx, rc, "the chase");
}

/* out (cols x rows) = the transpose of in (rows x cols), bytes */
static void transpose(const uint8_t *in, size_t rows, size_t cols, uint8_t *out)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            out[c * rows + r] = in[r * cols + c];
}

/* ------------------------------------------------------------------ the questions */
static void alg_destroy(void *user, void *engine)
{
    (void)user;
    alg_eng *e = engine;
    if (!e)
        return;
    ml__alg_px_clear(&e->chi);
    ml__alg_px_clear(&e->F);
    ml__alg_px_clear(&e->g);
    ml__alg_px_clear(&e->s);
    ml__alg_px_clear(&e->tmp);
    free(e);
}

static int covered(const ml_board *b)
{
    if (b->kind != ML_BOARD_GRID || b->mixed || b->locked || b->holes || b->wrap ||
        b->n < 2 || b->n > 251 || b->rows < 1 || b->cols < 1)
        return 0;
    for (int d = 2; d * d <= b->n; d++)
        if (b->n % d == 0)
            return 0;
    return 1;
}

static alg_eng *eng_new(const ml_board *b, int sym)
{
    alg_eng *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->sym = sym;
    e->p = (unsigned)b->n;
    e->rows = (size_t)b->rows;
    e->cols = (size_t)b->cols;
    ml__alg_px_init(&e->chi);
    ml__alg_px_init(&e->F);
    ml__alg_px_init(&e->g);
    ml__alg_px_init(&e->s);
    ml__alg_px_init(&e->tmp);
    return e;
}

static int not_covered(ml_ctx *ctx, const char *name)
{
    return ml__fail(ctx, ML_M_INTERNAL, name, "the board is not covered (the registry's covers)");
}

static int cross_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    if (!covered(b))
        return not_covered(ctx, "algebraic-cross");
    const ml__pattern *pt = &b->pal[0];
    unsigned p = (unsigned)b->n;
    int t = ml__alg_count(pt, 0, -1, 0) % (long)p == 0;
    unsigned d = (unsigned)(ml__alg_count(pt, t, 0, 0) % p), cr = (unsigned)(ml__alg_count(pt, t, 0, 1) % p),
             cl = (unsigned)(ml__alg_count(pt, t, 0, -1) % p), cu = (unsigned)(ml__alg_count(pt, t, -1, 0) % p),
             cd = (unsigned)(ml__alg_count(pt, t, 1, 0) % p);
    for (size_t i = 0; i < pt->count; i++) {   /* algebraic_reason's offsets */
        long dr = pt->dr[i], dc = pt->dc[i];
        if (!((dr == 0 && dc >= -1 && dc <= 1) || (dc == 0 && (dr == 1 || dr == -1))))
            return not_covered(ctx, "algebraic-cross");
    }
    if (!cu)
        return not_covered(ctx, "algebraic-cross");
    alg_eng *e = eng_new(b, 0);
    if (!e)
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    e->transposed = t;
    e->h = t ? e->cols : e->rows;
    e->w = t ? e->rows : e->cols;
    e->rec = (ml_rowrec){e->h, e->w, p, d, cr, cl, cu, cd};
    if (e->w > 1 && cr) {
        e->mode = CYCLIC;
        e->conv = e->rec;
    } else if (e->w > 1 && cl) {
        e->mode = MIRRORED;
        e->conv = (ml_rowrec){e->h, e->w, p, d, cl, cr, cu, cd};
    } else {
        e->mode = SCALAR;
    }
    unsigned inv = ml_gfp_inv(cu, p);
    e->t0 = (p - d) * inv % p;
    e->mu = (p - cd) * inv % p;
    e->cu = cu;
    *engine = e;
    return ML_OK;
}

static int sym_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    if (!covered(b))
        return not_covered(ctx, "algebraic-sym");
    const ml__pattern *pt = &b->pal[0];
    unsigned p = (unsigned)b->n;
    for (int t = 0; t < 2; t++) {   /* sym.py's _orientation */
        int symmetric = 1;
        for (long dr = -1; dr <= 1; dr++)
            symmetric &= ml__alg_count(pt, t, dr, 1) % p == ml__alg_count(pt, t, dr, -1) % p;
        if (!symmetric)
            continue;
        ml_symchase P = {.h = t ? (size_t)b->cols : (size_t)b->rows,
                         .w = t ? (size_t)b->rows : (size_t)b->cols,
                         .p = p};
        for (int k = 0; k < 3; k++) {   /* the coefficient of X_{r-1+k}: rows +1, 0, -1 */
            P.a[k] = (unsigned)(ml__alg_count(pt, t, 1 - k, 0) % p);
            P.b[k] = (unsigned)(ml__alg_count(pt, t, 1 - k, 1) % p);
        }
        if (!ml_symchase_invertible(&P))
            continue;
        alg_eng *e = eng_new(b, 1);
        if (!e)
            return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
        e->transposed = t;
        e->h = P.h;
        e->w = P.w;
        e->sc = P;
        /* T = P (the path adjacency): the conversions of GF(p)[x] / (chi_P) */
        e->conv = (ml_rowrec){P.h, P.w, p, 0, p - 1, p - 1, 1, 0};
        e->mode = CYCLIC;
        *engine = e;
        return ML_OK;
    }
    return not_covered(ctx, "algebraic-sym");
}

static int alg_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    return nullity_u(ctx, engine, nullity);
}

static int alg_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    (void)user;
    alg_eng *e = engine;
    uint64_t null = 0;
    int rc = nullity_u(ctx, e, &null);
    if (rc)
        return rc;
    ml__alg_prime_size(e->p, null, size);
    return ML_OK;
}

/* Scratch of one solve: the grid B, the taps x, rows z / last, their words. */
typedef struct work {
    uint8_t *B, *x, *z, *last;
    uint64_t *zw, *lw;
} work;

static void work_free(work *k)
{
    free(k->B);
    free(k->x);
    free(k->z);
    free(k->last);
    free(k->zw);
    free(k->lw);
}

static int work_new(ml_ctx *ctx, const alg_eng *e, work *k, int grids)
{
    size_t hw = e->h * e->w, words = (e->w + 63) / 64 + 1;
    memset(k, 0, sizeof *k);
    if (grids) {
        k->B = calloc(hw + 1, 1);
        k->x = calloc(hw + 1, 1);
    }
    k->z = calloc(e->w + 1, 1);
    k->last = calloc(e->w + 1, 1);
    k->zw = calloc(words, sizeof *k->zw);
    k->lw = calloc(words, sizeof *k->lw);
    if ((grids && (!k->B || !k->x)) || !k->z || !k->last || !k->zw || !k->lw) {
        work_free(k);
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    }
    return ML_OK;
}

/* RowPolynomialEngine._solve_grid on B (h x w, values < p): the taps in x, *ok */
static int solve_grid(ml_ctx *ctx, alg_eng *e, const uint8_t *B, uint8_t *x, work *k, int *ok)
{
    size_t w = e->w;
    int gf2_cross = !e->sym && e->p == 2;
    int rc = chase(ctx, e, B, NULL, gf2_cross ? NULL : x, k->last, k->zw, k->lw);
    if (rc)
        return rc;
    *ok = 1;
    if (!ml__alg_any(k->last, w))
        return gf2_cross ? chase(ctx, e, B, NULL, x, k->last, k->zw, k->lw) : ML_OK;
    rc = residual_z(ctx, e, k->last, k->z, ok, k->zw);
    if (rc || !*ok)
        return rc;
    rc = chase(ctx, e, B, k->z, x, k->last, k->zw, k->lw);
    if (!rc && ml__alg_any(k->last, w))   /* never: F z = -c by construction */
        rc = ml__fail(ctx, ML_M_INTERNAL, "the algebraic engine", "the replay left a residual");
    return rc;
}

static int alg_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                     uint8_t *X, uint8_t *ok)
{
    (void)user;
    alg_eng *e = engine;
    size_t m = e->rows * e->cols;
    if (!k)
        return ML_OK;
    work wk;
    int rc = work_new(ctx, e, &wk, e->transposed);
    if (rc)
        return rc;
    for (size_t i = 0; i < k && !rc; i++) {
        const uint8_t *r = R + i * m, *B = r;
        uint8_t *x = e->transposed ? wk.x : X + i * m, top = 0;
        for (size_t t = 0; t < m; t++)
            top = r[t] > top ? r[t] : top;
        if (!wk.B && top >= e->p && !(wk.B = malloc(m + 1)))
            rc = ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
        if (!rc && (e->transposed || top >= e->p)) {   /* a copy, turned or reduced */
            if (e->transposed)
                transpose(r, e->rows, e->cols, wk.B);
            else
                memcpy(wk.B, r, m);
            for (size_t t = 0; t < m && top >= e->p; t++)
                wk.B[t] = (uint8_t)(wk.B[t] % e->p);
            B = wk.B;
        }
        int good = 0;
        if (!rc)
            rc = solve_grid(ctx, e, B, x, &wk, &good);
        ok[i] = !rc && good;
        if (rc || !good)
            memset(X + i * m, 0, m);
        else if (e->transposed)
            transpose(wk.x, e->h, e->w, X + i * m);
    }
    work_free(&wk);
    return rc;
}

static int alg_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                          uint8_t *H, uint32_t *orders)
{
    (void)user;
    alg_eng *e = engine;
    uint64_t null = 0, hw = (uint64_t)e->h * e->w;
    int rc = nullity_u(ctx, e, &null);
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
    work wk;
    rc = work_new(ctx, e, &wk, 1);
    if (rc)
        return rc;
    unsigned p = e->p;
    px base, xi;
    ml__alg_px_init(&base);
    ml__alg_px_init(&xi);
    if (e->sym || e->mode != SCALAR)
        rc = status(ctx, ml__alg_px_divrem(p, &base, &xi, &e->chi, &e->g), "the kernel");
    for (uint64_t i = 0; i < count && !rc; i++) {
        if (!e->sym && e->mode == SCALAR) {
            memset(wk.z, 0, e->w);
            wk.z[i] = 1;
        } else {
            rc = status(ctx, ml__alg_px_shift(p, &xi, &base, (size_t)i), "the kernel");
            if (!rc)
                rc = status(ctx, poly_to_vec(e, &xi, wk.z, wk.zw), "the kernel");
            if (!rc && !e->sym && e->mode == MIRRORED)
                ml__alg_reverse(wk.z, e->w);
        }
        if (!rc)
            rc = chase(ctx, e, wk.B, wk.z, wk.x, wk.last, wk.zw, wk.lw);
        if (!rc && ml__alg_any(wk.last, e->w))
            rc = ml__fail(ctx, ML_M_INTERNAL, "the algebraic engine",
                          "a kernel vector left a residual");
        if (!rc && e->transposed)
            transpose(wk.x, e->h, e->w, H + i * hw);
        else if (!rc)
            memcpy(H + i * hw, wk.x, (size_t)hw);
        if (orders)
            orders[i] = p;
    }
    ml__alg_px_clear(&base);
    ml__alg_px_clear(&xi);
    work_free(&wk);
    return rc;
}

static int cross_det(void *user, ml_ctx *ctx, void *engine, unsigned *det)
{
    (void)user;
    alg_eng *e = engine;
    uint64_t null = 0;
    int rc = nullity_u(ctx, e, &null);
    if (rc)
        return rc;
    unsigned p = e->p, res = 0;
    if (null) {
        *det = 0;
        return ML_OK;
    }
    if (p == 2) {
        *det = 1;
        return ML_OK;
    }
    if (e->mode == SCALAR) {
        res = ml__alg_powmod(scalar_F(e), e->w, p);
    } else {
        rc = status(ctx, ml__alg_resultant(p, &e->chi, &e->F, &res), "the resultant");
        if (rc)
            return rc;
    }
    /* (p - cu)^(h w): h w reduced mod p - 1 (p - cu is a unit) */
    uint64_t ex = (uint64_t)(e->h % (p - 1)) * (e->w % (p - 1)) % (p - 1);
    *det = (unsigned)((uint64_t)ml__alg_powmod(p - e->cu, ex, p) * res % p);
    return ML_OK;
}

static int alg_kernel_fits(void *user, ml_ctx *ctx, void *engine, int *fits)
{
    (void)user;
    alg_eng *e = engine;
    uint64_t null = 0, hw = (uint64_t)e->h * e->w;
    int rc = nullity_u(ctx, e, &null);
    if (!rc)
        *fits = !null || !hw || null <= KERNEL_BYTES_MAX / hw;
    return rc;
}

/* GF(2), np.packbits rows: the taps of fill ^ packed (board orientation) */
static int alg_solve_packed(void *user, ml_ctx *ctx, void *engine, const uint8_t *packed,
                            unsigned fill, uint8_t *out, int *solvable)
{
    (void)user;
    alg_eng *e = engine;
    if (e->p != 2)
        return ml__fail(ctx, ML_M_PACKED_NEEDS_GF2_GRID, (int)e->p, "");
    size_t h = e->h, w = e->w, nb = (w + 7) / 8;
    uint8_t *B = (uint8_t *)packed, *X = out;
    work wk;
    int rc = work_new(ctx, e, &wk, 0);
    if (rc)
        return rc;
    if (e->transposed) {
        B = malloc(h * nb + 1);
        X = calloc(h * nb + 1, 1);
        if (!B || !X) {
            rc = ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
            goto done;
        }
        ml_packed_transpose(packed, (e->cols + 7) / 8, e->rows, e->cols, B, nb);
    }
    unsigned tc = fill & 1;
#define RUN(zp, xp)                                                                      \
    (e->sym ? ml_symchase_run_packed(&e->sc, B, tc, zp, xp, wk.lw)                       \
            : ml_rowrec_chase_gf2(&e->rec, 1, B, tc, zp, xp, wk.lw))
    rc = status(ctx, RUN(NULL, NULL), "the packed chase");
    int ok = 1;
    if (!rc) {
        ml__alg_from_words(wk.lw, w, wk.last);
        if (ml__alg_any(wk.last, w))
            rc = residual_z(ctx, e, wk.last, wk.z, &ok, wk.zw);
        if (!rc && ok) {
            ml__alg_to_words(wk.z, w, wk.zw);
            rc = status(ctx, RUN(wk.zw, X), "the packed chase");
            ml__alg_from_words(wk.lw, w, wk.last);
            if (!rc && ml__alg_any(wk.last, w))
                rc = ml__fail(ctx, ML_M_INTERNAL, "the algebraic engine",
                              "the replay left a residual");
        }
    }
#undef RUN
    *solvable = !rc && ok;
    if (!rc && ok && e->transposed)
        ml_packed_transpose(X, nb, h, w, out, (e->cols + 7) / 8);
done:
    if (e->transposed) {
        free(B);
        free(X);
    }
    work_free(&wk);
    return rc;
}

const ml_engine_def ml__algebraic_cross_ops = {
    .size = sizeof(ml_engine_def),
    .name = "algebraic-cross",
    .build = cross_build,
    .destroy = alg_destroy,
    .solve = alg_solve,
    .nullity = alg_nullity,
    .kernel_size = alg_kernel_size,
    .generators = alg_generators,
    .det = cross_det,
    .kernel_fits = alg_kernel_fits,
    .solve_packed = alg_solve_packed,
};

const ml_engine_def ml__algebraic_sym_ops = {
    .size = sizeof(ml_engine_def),
    .name = "algebraic-sym",
    .build = sym_build,
    .destroy = alg_destroy,
    .solve = alg_solve,
    .nullity = alg_nullity,
    .kernel_size = alg_kernel_size,
    .generators = alg_generators,
    .kernel_fits = alg_kernel_fits,
    .solve_packed = alg_solve_packed,
};
