/* algebraic_odd.c: the engine "algebraic-sym-odd" (engines/algebraic.h): the symmetric
 * row recurrence of algebraic-sym on the boards where its next-row coefficient is
 * singular because the width is odd: C_1 = b P (no tap (-1, 0) mod p, b = the count of
 * (-1, +1) a unit), the diagonal on odd x odd boards.
 *
 * The rows X_r (w entries) satisfy C_{-1} X_{r-1} + C_0 X_r + C_1 X_{r+1} = B_r,
 * C_k = a_k I + b_k P (symchase.h's a[k], b[k]), P the w x w path adjacency. For odd w,
 * chi_P(0) = 0; when p does not divide m = (w + 1) / 2 the root 0 is simple and
 * K^w = ker P (+) im P, ker P spanned by k = (1, 0, -1, 0, 1, ...) and, P symmetric,
 * im P = k-perp (k^T k = m). Every C_k keeps both parts, so the system splits:
 * - component 0, X_r = xi_r k: C_k acts as a_k, a_1 = 0, so a[1] xi_r + a[0] xi_{r-1}
 *   = beta_r with beta_r = k^T B_r / m: lower bidiagonal, solved by substitution (a[1]
 *   a unit), or of nullity 1 (a[1] = 0, a[0] a unit: xi_{h-1} free, beta_0 = 0) or h
 *   (a[1] = a[0] = 0: beta = 0);
 * - component 1, the rows in V1 = im P: P is invertible there (P y = u by parity in
 *   O(w), the even positions fixed by k^T y = 0), so the chase X_{r+1} =
 *   C_1^-1 (B1_r - C_0 X_r - C_{-1} X_{r-1}) runs on V1 and, with q = chi_P / x (the
 *   characteristic polynomial of P on V1) and V1 = {f(P) e_1 : f mod q}, leaves
 *   X_h = c_2^-h G_h z + c as algebraic-sym's does mod chi: nullity deg gcd(G_h, q),
 *   solvable iff g | -c, kernel from the chases of (q / g) x^i.
 * X = xi k^T + X1; nullity and generators are the two components' (component 0's
 * first). The transposed board is worked on when only that orientation qualifies.
 *
 * When p divides m, 0 is a root of multiplicity e > 1 (engines/algebraic_fit.h) and the
 * split is K^w = ker P^e (+) im P^e; the board is covered only when a[1] (the centre) is
 * a unit. Component 0 is then the fold of each row (O(w)), its equations solved by
 * ml__fit_solve (unique: nullity 0) and lifted back; component 1 is as above with
 * V1 = im P^e, q = chi_P / x^e (q(0) != 0 checked), V1 = {(x^e f)(P) e_0 : f mod q},
 * and psolve's t read from the fold (ml__fit_tau; for e = 1 it is k^T y / m).
 *
 * O(h w) time and memory a solve (bytes, one tile a byte; e > 1: plus O(h L log L),
 * L < 2 w + 2); the algebra O(w) memory, made on first need. Allocations are checked (ML_ENOMEM), long loops poll the stop flag
 * (ML_EINTERRUPTED). */
#include "engines/algebraic.h"

#include "api/board.h"
#include "api/ctx.h"
#include "base/interrupt.h"
#include "engines/algebraic_fit.h"
#include "engines/algebraic_impl.h"
#include "poly/poly.h"
#include "structured/rowrec.h"
#include "structured/symchase.h"

#include <stdlib.h>
#include <string.h>

#define KERNEL_BYTES_MAX ((uint64_t)1 << 28)   /* as algebraic.c's */

typedef struct odd_eng {
    unsigned p;
    size_t rows, cols, h, w;
    int transposed;
    ml_symchase sc;          /* a[2] = 0, b[2] a unit */
    unsigned minv, binv;     /* 1 / ((w + 1) / 2), 1 / b[2] */
    uint64_t pm;             /* floor(2^42 / p) + 1: red() */
    int mode0;               /* component 0: 0 unique, 1 nullity 1, 2 nullity h */
    ml_fit fit;              /* component 0 = ker P^e; nil: e > 1 (then mode0 = 0) */
    int nil;
    ml_rowrec conv;          /* T = P: f <-> f(P) e_0 */
    int have_alg, have_s;
    px q, F, g, s;
} odd_eng;

static int status(ml_ctx *ctx, int rc, const char *what)
{
    return ml__alg_status(ctx, rc, "algebraic-sym-odd", what);
}

/* ------------------------------------------------------------------ rows */
static inline unsigned sub_mod(unsigned x, unsigned y, unsigned p)   /* x, y < p */
{
    unsigned t = x + p - y;
    return t >= p ? t - p : t;
}

static inline unsigned add_mod(unsigned x, unsigned y, unsigned p)   /* x, y < p */
{
    unsigned t = x + y;
    return t >= p ? t - p : t;
}

/* v mod p for v < 2^21 by a product and a shift (pm = floor(2^42 / p) + 1: the quotient
 * is off by less than 2^-21 < 1 / p, so exact) */
static inline unsigned red(unsigned v, uint64_t pm, unsigned p)
{
    return (unsigned)(v - ((uint64_t)v * pm >> 42) * p);
}

/* y in V1 = im P^e with P y = u (u in V1; w odd): the even equations give the odd
 * positions, the odd equations the even positions up to t k, t fixed by the projection
 * onto ker P^e (it lies in ker P = span k: P E y = E u = 0). */
static void psolve(const odd_eng *e, const uint8_t *restrict u, uint8_t *restrict y)
{
    size_t w = e->w;
    unsigned p = e->p, prev = 0, d = 0;
    for (size_t i = 1; i < w; i += 2) {
        prev = sub_mod(u[i - 1], prev, p);
        y[i] = (uint8_t)prev;
    }
    y[0] = 0;
    for (size_t j = 2; j < w; j += 2) {   /* delta: y_{2m} = delta_m + (-1)^m t */
        d = sub_mod(u[j - 1], d, p);
        y[j] = (uint8_t)d;
    }
    unsigned t = (p - ml__fit_tau(&e->fit, y)) % p, nt = (p - t) % p;
    for (size_t j = 0; j < w; j += 4) {
        y[j] = (uint8_t)sub_mod(y[j], nt, p);
        if (j + 2 < w)
            y[j + 2] = (uint8_t)sub_mod(y[j + 2], t, p);
    }
}

/* GF(2): psolve (signs vanish) and the row's v = B_r ^ C_0 X_r ^ C_-1 X_{r-1} with
 * masks, branch-free */
static void psolve2(const ml_fit *f, const uint8_t *restrict u, uint8_t *restrict y)
{
    size_t w = f->w;
    uint8_t prev = 0, d = 0, sum;
    for (size_t i = 1; i < w; i += 2) {
        prev ^= u[i - 1];
        y[i] = prev;
    }
    y[0] = 0;
    for (size_t j = 2; j < w; j += 2) {
        d ^= u[j - 1];
        y[j] = d;
    }
    sum = (uint8_t)ml__fit_tau(f, y);
    for (size_t j = 0; sum && j < w; j += 2)
        y[j] ^= sum;
}

static void row2(size_t w, const unsigned *a, const unsigned *b, const uint8_t *restrict br,
                 const uint8_t *restrict cur, const uint8_t *restrict prev,
                 uint8_t *restrict u)
{
    uint8_t a0 = (uint8_t)-(a[1] & 1), b0 = (uint8_t)-(b[1] & 1);
    uint8_t am = (uint8_t)-(a[0] & 1), bm = (uint8_t)-(b[0] & 1);
#define V2(c, sc, sp) \
    (uint8_t)((br[c] ^ (a0 & cur[c]) ^ (b0 & (sc)) ^ (am & prev[c]) ^ (bm & (sp))) & 1)
    if (w == 1) {
        u[0] = V2(0, 0, 0);
        return;
    }
    u[0] = V2(0, cur[1], prev[1]);
    for (size_t c = 1; c + 1 < w; c++)
        u[c] = V2(c, cur[c - 1] ^ cur[c + 1], prev[c - 1] ^ prev[c + 1]);
    u[w - 1] = V2(w - 1, cur[w - 2], prev[w - 2]);
#undef V2
}

/* The chase of B1 (rows in V1) from X_0 = z (NULL: zero): taps to x (h x w), X_h to
 * last; u: w bytes of scratch, zero: w zero bytes. Returns 0, or 3 when stopped. */
static int chase(const odd_eng *e, const uint8_t *B, const uint8_t *z, uint8_t *x,
                 uint8_t *last, uint8_t *u, const uint8_t *zero)
{
    size_t w = e->w, h = e->h;
    unsigned p = e->p, bi = e->binv;
    uint64_t pm = e->pm;
    const unsigned *a = e->sc.a, *b = e->sc.b;
    /* v = (B_r - C_0 X_r - C_-1 X_r-1) / b[2], the coefficients scaled by 1 / b[2] */
    unsigned na0 = (p - a[1]) % p * bi % p, nb0 = (p - b[1]) % p * bi % p,
             nam = (p - a[0]) % p * bi % p, nbm = (p - b[0]) % p * bi % p;
    if (z)
        memcpy(x, z, w);
    else
        memset(x, 0, w);
    for (size_t r = 0; r < h; r++) {
        const uint8_t *restrict br = B + r * w, *restrict cur = x + r * w,
                                *restrict prev = r ? x + (r - 1) * w : zero;
        uint8_t *nxt = r + 1 < h ? x + (r + 1) * w : last;
        if (p == 2) {
            row2(w, a, b, br, cur, prev, u);
            psolve2(&e->fit, u, nxt);
            if ((r & 63) == 63 && ml_interrupt_poll())
                return 3;
            continue;
        }
#define V(c, sc, sp) \
    red(bi * br[c] + na0 * cur[c] + nb0 * (sc) + nam * prev[c] + nbm * (sp), pm, p)
        if (w == 1) {
            u[0] = (uint8_t)V(0, 0u, 0u);
        } else {
            u[0] = (uint8_t)V(0, (unsigned)cur[1], (unsigned)prev[1]);
            for (size_t c = 1; c + 1 < w; c++)
                u[c] = (uint8_t)V(c, (unsigned)cur[c - 1] + cur[c + 1],
                                  (unsigned)prev[c - 1] + prev[c + 1]);
            u[w - 1] = (uint8_t)V(w - 1, (unsigned)cur[w - 2], (unsigned)prev[w - 2]);
        }
#undef V
        psolve(e, u, nxt);
        if ((r & 63) == 63 && ml_interrupt_poll())
            return 3;
    }
    return 0;
}

/* beta_r = k^T B_r / m and B_r -= beta_r k, in place (rows of w bytes < p) */
static void split(const odd_eng *e, uint8_t *B, uint8_t *beta)
{
    unsigned p = e->p;
    for (size_t r = 0; r < e->h; r++) {
        uint8_t *row = B + r * e->w;
        unsigned s = 0;
        for (size_t j = 0; j < e->w; j += 2)
            s = (j & 2) ? sub_mod(s, row[j], p) : add_mod(s, row[j], p);
        unsigned bt = s * e->minv % p, nb = (p - bt) % p;
        beta[r] = (uint8_t)bt;
        for (size_t j = 0; j < e->w; j += 2)
            row[j] = (uint8_t)add_mod(row[j], (j & 2) ? bt : nb, p);
    }
}

/* component 0: xi with a[1] xi_r + a[0] xi_{r-1} = beta_r; 0 when there is none */
static int solve0(const odd_eng *e, const uint8_t *beta, uint8_t *xi)
{
    size_t h = e->h;
    unsigned p = e->p, a1 = e->sc.a[1], a0 = e->sc.a[0];
    memset(xi, 0, h);
    if (e->mode0 == 0) {
        unsigned inv = ml_gfp_inv(a1, p), prev = 0;
        for (size_t r = 0; r < h; r++) {
            prev = (beta[r] + (p - a0) * prev) % p * inv % p;
            xi[r] = (uint8_t)prev;
        }
        return 1;
    }
    if (e->mode0 == 2) {
        for (size_t r = 0; r < h; r++)
            if (beta[r])
                return 0;
        return 1;
    }
    if (beta[0])
        return 0;
    unsigned inv = ml_gfp_inv(a0, p);
    for (size_t r = 1; r < h; r++)
        xi[r - 1] = (uint8_t)(beta[r] * inv % p);
    return 1;
}

static uint64_t nullity0(const odd_eng *e)
{
    return e->mode0 == 0 ? 0 : e->mode0 == 1 ? 1 : e->h;
}

/* ------------------------------------------------------------------ the algebra */
/* x^e (e: the multiplicity of the root 0 of chi) */
static int xe(const odd_eng *e, px *x)
{
    uint8_t one = 1;
    px u;
    ml__alg_px_init(&u);
    int rc = ml__alg_px_set(e->p, &u, &one, 1);
    if (!rc)
        rc = ml__alg_px_shift(e->p, x, &u, e->fit.e);
    ml__alg_px_clear(&u);
    return rc;
}

/* f mod q <-> v = (x^e f)(P) e_0 in V1 = im P^e; wb: ceil(w / 64) words */
static int poly_to_vec(const odd_eng *e, const px *f, uint8_t *v, uint64_t *wb)
{
    px xf;
    ml__alg_px_init(&xf);
    int rc = ml__alg_px_shift(e->p, &xf, f, e->fit.e);
    if (!rc && e->p != 2)
        rc = ml_rowrec_poly_to_vec_gfp(&e->conv, &xf.c, v);
    else if (!rc) {
        rc = ml_rowrec_poly_to_vec_gf2(&e->conv, &xf.b, wb);
        if (!rc)
            ml__alg_from_words(wb, e->w, v);
    }
    ml__alg_px_clear(&xf);
    return rc;
}

static int vec_to_poly(const odd_eng *e, const uint8_t *v, px *f, uint64_t *wb)
{
    px cp, r, x;
    ml__alg_px_init(&cp);
    ml__alg_px_init(&r);
    ml__alg_px_init(&x);
    int rc;
    if (e->p != 2) {
        rc = ml_rowrec_vec_to_poly_gfp(&e->conv, v, &cp.c);
    } else {
        ml__alg_to_words(v, e->w, wb);
        rc = ml_rowrec_vec_to_poly_gf2(&e->conv, wb, &cp.b);
    }
    if (!rc)
        rc = xe(e, &x);
    if (!rc)   /* x^e divides cp for v in V1: f = cp / x^e exactly */
        rc = ml__alg_px_divrem(e->p, f, &r, &cp, &x);
    if (!rc && ml__alg_px_deg(e->p, &r) >= 0)
        rc = 1;
    ml__alg_px_clear(&cp);
    ml__alg_px_clear(&r);
    ml__alg_px_clear(&x);
    return rc;
}

/* q = chi / x^e (q(0) != 0 checked), F = G_h mod q, g = gcd(F, q) (s: also the Bezout
 * factor, scaled) */
static int algebra(ml_ctx *ctx, odd_eng *e, int want_s)
{
    unsigned p = e->p;
    int rc = 0;
    if (!e->have_alg) {
        px chi, x, r;
        ml__alg_px_init(&chi);
        ml__alg_px_init(&x);
        ml__alg_px_init(&r);
        rc = p == 2 ? ml_rowrec_charpoly_gf2(&e->conv, &chi.b)
                    : ml_rowrec_charpoly_gfp(&e->conv, &chi.c);
        if (!rc)
            rc = xe(e, &x);
        if (!rc)
            rc = ml__alg_px_divrem(p, &e->q, &r, &chi, &x);
        if (!rc && ml__alg_px_deg(p, &r) >= 0)
            rc = 1;   /* never: x^e divides chi (algebraic_fit.h) */
        uint8_t q0 = 0;
        if (!rc && ml__alg_px_deg(p, &e->q) >= 0)
            q0 = p == 2 ? (uint8_t)(e->q.b.c[0] & 1) : e->q.c.c[0];
        if (!rc && !q0)
            rc = 1;   /* never: e is the multiplicity of 0 */
        if (!rc)
            rc = ml__alg_sym_G(p, e->sc.a, e->sc.b, e->h, &e->q, &e->F);
        if (!rc)
            rc = p == 2 ? ml_gf2x_gcd(&e->g.b, &e->F.b, &e->q.b)
                        : ml_gfpx_gcd(&e->g.c, &e->F.c, &e->q.c, p);
        ml__alg_px_clear(&chi);
        ml__alg_px_clear(&x);
        ml__alg_px_clear(&r);
        if (rc)
            return status(ctx, rc, "the characteristic polynomial");
        e->have_alg = 1;
    }
    if (want_s && !e->have_s) {
        rc = p == 2 ? ml_gf2x_xgcd(&e->g.b, &e->s.b, NULL, &e->F.b, &e->q.b)
                    : ml_gfpx_xgcd(&e->g.c, &e->s.c, NULL, &e->F.c, &e->q.c, p);
        if (!rc)
            rc = ml__alg_sym_scale(p, 0, e->sc.b[2], e->h, &e->q, &e->s);
        if (rc)
            return status(ctx, rc, "the extended gcd");
        e->have_s = 1;
    }
    return ML_OK;
}

static int nullity_u(ml_ctx *ctx, odd_eng *e, uint64_t *null)
{
    *null = nullity0(e);
    if (e->w == e->fit.e)   /* V1 = 0 */
        return ML_OK;
    int rc = algebra(ctx, e, 0);
    if (!rc)
        *null += (uint64_t)ml__alg_px_deg(e->p, &e->g);
    return rc;
}

/* z in V1 with F z = -c (c: X_h of the chase from 0), *ok = 0 when there is none */
static int residual_z(ml_ctx *ctx, odd_eng *e, const uint8_t *c, uint8_t *z, int *ok,
                      uint64_t *wb)
{
    unsigned p = e->p;
    size_t w = e->w;
    int rc = algebra(ctx, e, 1);
    if (rc)
        return rc;
    for (size_t i = 0; i < w; i++)
        z[i] = (uint8_t)((p - c[i]) % p);
    *ok = 1;
    px cp, qq, r;
    ml__alg_px_init(&cp);
    ml__alg_px_init(&qq);
    ml__alg_px_init(&r);
    rc = vec_to_poly(e, z, &cp, wb);
    if (!rc)
        rc = ml__alg_px_divrem(p, &qq, &r, &cp, &e->g);
    if (!rc && ml__alg_px_deg(p, &r) >= 0)
        *ok = 0;
    else if (!rc)
        rc = ml__alg_px_mulmod(p, &cp, &e->s, &qq, &e->q, &r);
    if (!rc && *ok)
        rc = poly_to_vec(e, &cp, z, wb);
    ml__alg_px_clear(&cp);
    ml__alg_px_clear(&qq);
    ml__alg_px_clear(&r);
    return status(ctx, rc, "the residual");
}

/* ------------------------------------------------------------------ the engine */
int ml__sym_odd_orientation(const ml_board *b, unsigned p, ml_symchase *out)
{
    if (b->kind != ML_BOARD_GRID || b->mixed || b->locked || b->holes || b->wrap ||
        p < 2 || p > 251 || b->rows < 1 || b->cols < 1)
        return -1;
    for (unsigned d = 2; d * d <= p; d++)
        if (p % d == 0)
            return -1;
    const ml__pattern *pt = &b->pal[0];
    for (size_t i = 0; i < pt->count; i++)
        if (pt->dr[i] < -1 || pt->dr[i] > 1 || pt->dc[i] < -1 || pt->dc[i] > 1)
            return -1;
    for (int t = 0; t < 2; t++) {
        int symmetric = 1;
        for (long dr = -1; dr <= 1; dr++)
            symmetric &= ml__alg_count(pt, t, dr, 1) % p == ml__alg_count(pt, t, dr, -1) % p;
        ml_symchase P = {.h = t ? (size_t)b->cols : (size_t)b->rows,
                         .w = t ? (size_t)b->rows : (size_t)b->cols,
                         .p = p};
        for (int k = 0; k < 3; k++) {   /* the coefficient of X_{r-1+k}: rows +1, 0, -1 */
            P.a[k] = (unsigned)(ml__alg_count(pt, t, 1 - k, 0) % p);
            P.b[k] = (unsigned)(ml__alg_count(pt, t, 1 - k, 1) % p);
        }
        ml_fit f;
        if (symmetric && P.w % 2 && !P.a[2] && P.b[2] && !ml__fit_init(&f, p, P.w) &&
            (f.e == 1 || P.a[1])) {
            if (out)
                *out = P;
            return t;
        }
    }
    return -1;
}

static void odd_destroy(void *user, void *engine)
{
    (void)user;
    odd_eng *e = engine;
    if (!e)
        return;
    ml__alg_px_clear(&e->q);
    ml__alg_px_clear(&e->F);
    ml__alg_px_clear(&e->g);
    ml__alg_px_clear(&e->s);
    free(e);
}

static int odd_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    ml_symchase P;
    int t = ml__sym_odd_orientation(b, (unsigned)b->n, &P);
    if (t < 0)
        return ml__fail(ctx, ML_M_INTERNAL, "algebraic-sym-odd",
                        "the board is not covered (the registry's covers)");
    odd_eng *e = calloc(1, sizeof *e);
    if (!e)
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    e->p = P.p;
    e->rows = (size_t)b->rows;
    e->cols = (size_t)b->cols;
    e->transposed = t;
    e->h = P.h;
    e->w = P.w;
    e->sc = P;
    if (ml__fit_init(&e->fit, P.p, P.w)) {   /* never: the orientation's */
        free(e);
        return ml__fail(ctx, ML_M_INTERNAL, "algebraic-sym-odd", "the width");
    }
    e->nil = e->fit.e > 1;
    e->minv = e->nil ? 0 : ml_gfp_inv((unsigned)(((P.w + 1) / 2) % P.p), P.p);
    e->binv = ml_gfp_inv(P.b[2], P.p);
    e->pm = ((uint64_t)1 << 42) / P.p + 1;
    e->mode0 = P.a[1] ? 0 : P.a[0] ? 1 : 2;   /* nil: a[1] != 0 (the orientation's) */
    e->conv = (ml_rowrec){P.h, P.w, P.p, 0, P.p - 1, P.p - 1, 1, 0};
    ml__alg_px_init(&e->q);
    ml__alg_px_init(&e->F);
    ml__alg_px_init(&e->g);
    ml__alg_px_init(&e->s);
    *engine = e;
    return ML_OK;
}

static int odd_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    return nullity_u(ctx, engine, nullity);
}

static int odd_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    (void)user;
    odd_eng *e = engine;
    uint64_t null = 0;
    int rc = nullity_u(ctx, e, &null);
    if (rc)
        return rc;
    ml__alg_prime_size(e->p, null, size);
    return ML_OK;
}

static int odd_kernel_fits(void *user, ml_ctx *ctx, void *engine, int *fits)
{
    (void)user;
    odd_eng *e = engine;
    uint64_t null = 0, hw = (uint64_t)e->h * e->w;
    int rc = nullity_u(ctx, e, &null);
    if (!rc)
        *fits = !null || !hw || null <= KERNEL_BYTES_MAX / hw;
    return rc;
}

/* Scratch of one engine call: the grid B, the taps x, rows of w, beta and xi (h); nil:
 * the folds C (h x L), acc and d (2 L). */
typedef struct work {
    uint8_t *B, *x, *z, *last, *u, *zero, *beta, *xi, *C, *d;
    uint64_t *wb;
    uint32_t *acc;
} work;

static void work_free(work *k)
{
    free(k->B);
    free(k->x);
    free(k->z);
    free(k->last);
    free(k->u);
    free(k->zero);
    free(k->beta);
    free(k->xi);
    free(k->wb);
    free(k->C);
    free(k->d);
    free(k->acc);
}

static int work_new(ml_ctx *ctx, const odd_eng *e, work *k)
{
    size_t hw = e->h * e->w;
    memset(k, 0, sizeof *k);
    k->B = calloc(hw + 1, 1);
    k->x = calloc(hw + 1, 1);
    k->z = calloc(e->w + 1, 1);
    k->last = calloc(e->w + 1, 1);
    k->u = calloc(e->w + 1, 1);
    k->zero = calloc(e->w + 1, 1);
    k->beta = calloc(e->h + 1, 1);
    k->xi = calloc(e->h + 1, 1);
    k->wb = calloc((e->w + 63) / 64 + 1, sizeof *k->wb);
    size_t L = e->nil ? e->fit.L : 0;
    k->C = calloc(e->h * L + 1, 1);
    k->d = calloc(2 * L + 1, 1);
    k->acc = calloc(2 * L + 1, sizeof *k->acc);
    if (!k->B || !k->x || !k->z || !k->last || !k->u || !k->zero || !k->beta || !k->xi ||
        !k->wb || !k->C || !k->d || !k->acc) {
        work_free(k);
        memset(k, 0, sizeof *k);
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    }
    return ML_OK;
}

/* out (h x w, chase orientation) -> the board's orientation at X */
static void store(const odd_eng *e, const uint8_t *x, uint8_t *X)
{
    if (!e->transposed) {
        memcpy(X, x, e->h * e->w);
        return;
    }
    for (size_t r = 0; r < e->h; r++)
        for (size_t c = 0; c < e->w; c++)
            X[c * e->h + r] = x[r * e->w + c];
}

/* A x = B (wk->B: h x w, values < p, overwritten): the taps in wk->x, *ok */
static int solve_grid(ml_ctx *ctx, odd_eng *e, work *wk, int *ok)
{
    size_t w = e->w, h = e->h;
    unsigned p = e->p;
    int rc = ML_OK;
    if (e->nil) {   /* component 0 = ker P^e: the folds, solved in place */
        size_t L = e->fit.L;
        for (size_t r = 0; r < h; r++) {
            ml__fit_fold(&e->fit, wk->B + r * w, wk->C + r * L, wk->acc);
            ml__fit_lift(&e->fit, wk->C + r * L, wk->B + r * w, 1, wk->d);
        }
        rc = status(ctx, ml__fit_solve(&e->fit, e->sc.a, e->sc.b, h, wk->C), "ker P^e");
        *ok = 1;
    } else {
        split(e, wk->B, wk->beta);
        *ok = solve0(e, wk->beta, wk->xi);
    }
    if (rc || !*ok)
        return rc;
    rc = status(ctx, chase(e, wk->B, NULL, wk->x, wk->last, wk->u, wk->zero), "the chase");
    if (!rc && ml__alg_any(wk->last, w)) {
        rc = residual_z(ctx, e, wk->last, wk->z, ok, wk->wb);
        if (!rc && *ok)
            rc = status(ctx, chase(e, wk->B, wk->z, wk->x, wk->last, wk->u, wk->zero), "the chase");
        if (!rc && *ok && ml__alg_any(wk->last, w))   /* never: F z = -c by construction */
            rc = ml__fail(ctx, ML_M_INTERNAL, "algebraic-sym-odd", "the replay left a residual");
    }
    for (size_t r = 0; e->nil && !rc && *ok && r < h; r++)   /* X = X1 + lift(xi) */
        ml__fit_lift(&e->fit, wk->C + r * e->fit.L, wk->x + r * w, 0, wk->d);
    for (size_t r = 0; !e->nil && !rc && *ok && r < h; r++) {   /* X = X1 + xi k^T */
        unsigned t = wk->xi[r], nt = (p - t) % p;
        uint8_t *row = wk->x + r * w;
        for (size_t j = 0; t && j < w; j += 2)
            row[j] = (uint8_t)add_mod(row[j], (j & 2) ? nt : t, p);
    }
    return rc;
}

static inline uint8_t low(uint8_t v, unsigned p) { return v < p ? v : (uint8_t)(v % p); }

static int odd_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                     uint8_t *X, uint8_t *ok)
{
    (void)user;
    odd_eng *e = engine;
    size_t m = e->rows * e->cols;
    if (!k)
        return ML_OK;
    work wk;
    int rc = work_new(ctx, e, &wk);
    if (rc)
        return rc;
    for (size_t i = 0; i < k && !rc; i++) {
        const uint8_t *r = R + i * m;
        if (e->transposed) {
            for (size_t a = 0; a < e->rows; a++)
                for (size_t c = 0; c < e->cols; c++)
                    wk.B[c * e->rows + a] = low(r[a * e->cols + c], e->p);
        } else {   /* a copy, reduced only when some entry is >= p */
            uint8_t *restrict B = wk.B, mx = 0;
            const uint8_t *restrict src = r;
            unsigned p = e->p;
            for (size_t t = 0; t < m; t++) {
                B[t] = src[t];
                mx = src[t] > mx ? src[t] : mx;
            }
            for (size_t t = 0; mx >= p && t < m; t++)
                B[t] = low(B[t], p);
        }
        int good = 0;
        rc = solve_grid(ctx, e, &wk, &good);
        ok[i] = !rc && good;
        if (rc || !good)
            memset(X + i * m, 0, m);
        else
            store(e, wk.x, X + i * m);
    }
    work_free(&wk);
    return rc;
}

static int odd_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                          uint8_t *H, uint32_t *orders)
{
    (void)user;
    odd_eng *e = engine;
    uint64_t null = 0, hw = (uint64_t)e->h * e->w, n0 = nullity0(e);
    int rc = nullity_u(ctx, e, &null);
    if (rc)
        return rc;
    uint64_t count = limit < null ? limit : null;
    *k = count;
    if (!H || !count)
        return ML_OK;
    if (hw && count > KERNEL_BYTES_MAX / hw) {
        unsigned __int128 bytes = (unsigned __int128)count * hw;
        return ml__fail(ctx, ML_M_KERNEL_BASIS_TOO_LARGE, (unsigned long long)count,
                        (unsigned long long)hw, (double)bytes / (1024.0 * 1024.0 * 1024.0),
                        (double)KERNEL_BYTES_MAX / (1024.0 * 1024.0));
    }
    work wk;
    rc = work_new(ctx, e, &wk);
    if (rc)
        return rc;
    unsigned p = e->p;
    px base, xi;
    ml__alg_px_init(&base);
    ml__alg_px_init(&xi);
    if (count > n0)
        rc = status(ctx, ml__alg_px_divrem(p, &base, &xi, &e->q, &e->g), "the kernel");
    for (uint64_t i = 0; i < count && !rc; i++) {
        if (i < n0) {   /* component 0: row (h - 1, or i) = k */
            size_t r = e->mode0 == 1 ? e->h - 1 : (size_t)i;
            memset(wk.x, 0, (size_t)hw);
            for (size_t j = 0; j < e->w; j += 2)
                wk.x[r * e->w + j] = (uint8_t)((j & 2) ? p - 1 : 1);
        } else {        /* component 1: the chase from (q / g) x^(i - n0) */
            memset(wk.B, 0, (size_t)hw);
            rc = status(ctx, ml__alg_px_shift(p, &xi, &base, (size_t)(i - n0)), "the kernel");
            if (!rc)
                rc = status(ctx, poly_to_vec(e, &xi, wk.z, wk.wb), "the kernel");
            if (!rc)
                rc = status(ctx, chase(e, wk.B, wk.z, wk.x, wk.last, wk.u, wk.zero), "the kernel");
            if (!rc && ml__alg_any(wk.last, e->w))
                rc = ml__fail(ctx, ML_M_INTERNAL, "algebraic-sym-odd",
                              "a kernel vector left a residual");
        }
        if (!rc)
            store(e, wk.x, H + i * hw);
        if (orders)
            orders[i] = p;
    }
    ml__alg_px_clear(&base);
    ml__alg_px_clear(&xi);
    work_free(&wk);
    return rc;
}

const ml_engine_def ml__algebraic_sym_odd_ops = {
    .size = sizeof(ml_engine_def),
    .name = "algebraic-sym-odd",
    .build = odd_build,
    .destroy = odd_destroy,
    .solve = odd_solve,
    .nullity = odd_nullity,
    .kernel_size = odd_kernel_size,
    .generators = odd_generators,
    .kernel_fits = odd_kernel_fits,
};
