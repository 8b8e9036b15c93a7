/* lifted_cross.c: the lifted engine's part over Z/p^k, k > 1, of a cross-family grid
 * or a symmetric 3 x 3 pattern without wrap singular mod p (lifted_cross.h): the row
 * chase over Z/q and one polynomial equation (engines/lifted_alg.h) instead of the
 * chase's dense residual.
 *
 * In the orientation taken (the rows, else the columns: the first where the counts of
 * (-1, 0) and (0, +1) are units mod p), with counts d, cr, cl, cu, cd of (0,0), (0,+1),
 * (0,-1), (-1,0), (+1,0) mod q, the chase from X_0 = z is
 *     X_{r+1} = T X_r + mu X_{r-1} + cu^-1 b_r,  (T v)_c = t0 v_c + s v_{c-1} + r v_{c+1},
 * t0 = -d / cu, s = -cr / cu, r = -cl / cu, mu = -cd / cu (all mod q), and A x = b iff
 * the virtual row X_h = F(T) z + c vanishes (c: the chase from z = 0). s is a unit, so
 * e_0 is a cyclic vector of T over Z/q: with Q_0 = 1, Q_1 = x - t0, Q_{j+1} = (x - t0)
 * Q_j - r s Q_{j-1}, e_j = s^-j Q_j(T) e_0 and chi = Q_w (monic: the Krylov matrix is
 * triangular with units s^j on its diagonal), so f -> f(T) e_0 is an isomorphism of
 * R = (Z/q)[x] / (chi) onto the rows (Z/q)^w carrying multiplication by x to T. F(T) z
 * = -c becomes g y = gamma in R with g(T) e_0 = F(T) e_0 (the chase of z = e_0, b = 0),
 * z = y(T) e_0, gamma(T) e_0 = -c; the kernel of A is the chases of the kernel of g.
 * Conversions: f from v by Clenshaw's recurrence over the Q_j, v from f by Horner's
 * rule with T on vectors, O(w^2) each; the chase O(h w).
 * The symmetric 3 x 3 patterns (sym, for algebraic-sym's boards; symchase.h's
 * C_{-1} X_{r-1} + C_0 X_r + C_1 X_{r+1} = b_r, C_k = a_k + b_k P, P the path adjacency)
 * the same way with T = P (t0 = 0, s = r = 1): every C_k is a polynomial in P, so the
 * chase's X_h = F z + c has F in Z/q[P] (C_1^-1 too: a unit of that commutative ring),
 * and C_1^-1 on a row is the shooting of symchase.c over Z/q (b_1 a unit mod p; or C_1 =
 * a_1 a unit), O(w). Counts must be left-right symmetric mod q, not only mod p.
 * Declined (the choosing chase takes the part) when no orientation fits or R_A's rank
 * m exceeds ml__lifted_zq_mmax(w, sym) (lifted.h: the Smith form on R_A is O(m^3), the
 * chase's residual w unknowns; the measured ratio of the cost table). */
#include "engines/lifted_cross.h"

#include "api/board.h"
#include "api/ctx.h"
#include "base/interrupt.h"
#include "base/modn.h"
#include "engines/algebraic_impl.h"
#include "engines/lifted.h"
#include "engines/lifted_alg.h"

#include <stdlib.h>
#include <string.h>


typedef struct zc_eng {
    ml__zq_part base;
    size_t h, w;
    int t;                         /* 1: the columns */
    unsigned ib, t0, s, r, mu;     /* cu^-1 and the chase's coefficients, mod q */
    unsigned sinv, rs;             /* s^-1, r s */
    int sym;                       /* the symmetric chase: C_k = a[k] + b[k] P, T = P */
    unsigned a[3], b[3];           /* of X_{r-1}, X_r, X_{r+1} (symchase.h's), mod q */
    unsigned c1, c2, cv, dinv;     /* C_1^-1's shooting: y_{i+1} = cv v_i + c1 y_i + c2 y_{i-1} */
    uint8_t *alpha;                /* its homogeneous solution (w bytes; NULL: C_1 scalar) */
    ml__zq1 z;
} zc_eng;

static void zc_clear(ml__zq_part *part)
{
    zc_eng *e = (zc_eng *)part;
    ml__zq1_clear(&e->z);
    free(e->alpha);
}

static const ml__zq_part_ops zc_ops;

/* the chase from X_0 = z (NULL: zero) with right-hand side b (NULL: zero; h x w bytes in
 * the orientation, read mod q): the taps to x (NULL: not written), X_h to last; rows:
 * 3 w bytes of scratch. Returns 0 or 3 (stopped). */
/* y = C_1^-1 v (C_1 = a[2] + b[2] P over Z/q, invertible mod p), by shooting: y_0 = u,
 * the first w - 1 equations give y_i = alpha_i u + beta_i (beta into y), the last fixes
 * u = dinv (v_{w-1} - b beta_{w-2} - a beta_{w-1}). O(w). */
static void c1_solve(const zc_eng *e, const uint8_t *v, uint8_t *y)
{
    size_t w = e->w;
    unsigned q = e->base.q;
    ml_fastmod fq = ml_fastmod_make(q);
    if (!e->alpha) {   /* C_1 = a[2], a unit */
        for (size_t c = 0; c < w; c++)
            y[c] = (uint8_t)ml_fastmod_red(fq, e->cv * v[c]);
        return;
    }
    unsigned a = e->a[2], b = e->b[2];
    y[0] = 0;
    if (!(q & (q - 1)) && w > 1) {   /* q divides 256: bytes wrap, one mask */
        uint8_t m8 = (uint8_t)(q - 1), cv = (uint8_t)e->cv, c1 = (uint8_t)e->c1,
                c2 = (uint8_t)e->c2, u8;
        y[1] = (uint8_t)(cv * v[0] & m8);
        for (size_t i = 1; i + 1 < w; i++)
            y[i + 1] = (uint8_t)((cv * v[i] + c1 * y[i] + c2 * y[i - 1]) & m8);
        u8 = (uint8_t)(e->dinv * (unsigned)(v[w - 1] + (q - a) * y[w - 1] +
                                            (q - b) * y[w - 2]) & m8);
        for (size_t c = 0; c < w; c++)
            y[c] = (uint8_t)((y[c] + u8 * e->alpha[c]) & m8);
        return;
    }
    if (w > 1)
        y[1] = (uint8_t)ml_fastmod_red(fq, e->cv * v[0]);
    for (size_t i = 1; i + 1 < w; i++)
        y[i + 1] = (uint8_t)ml_fastmod_red(fq, e->cv * v[i] + e->c1 * y[i] + e->c2 * y[i - 1]);
    uint32_t last = v[w - 1] + (q - a) * y[w - 1] + (w > 1 ? (q - b) * y[w - 2] : 0);
    unsigned u = ml_fastmod_red(fq, e->dinv * ml_fastmod_red(fq, last));
    for (size_t c = 0; c < w; c++)
        y[c] = (uint8_t)ml_fastmod_red(fq, y[c] + u * e->alpha[c]);
}

/* the symmetric chase's rows: next = C_1^-1 (b_r - C_0 cur - C_{-1} prev), tmp: w bytes */
static void sym_step(const zc_eng *e, const uint8_t *br, const uint8_t *prev,
                     const uint8_t *cur, uint8_t *next, uint8_t *tmp)
{
    size_t w = e->w;
    unsigned q = e->base.q;
    ml_fastmod fq = ml_fastmod_make(q);
    unsigned a1 = q - e->a[1], b1 = q - e->b[1], a0 = q - e->a[0], b0 = q - e->b[0];
    if (!(q & (q - 1)) && w > 2) {   /* q divides 256: bytes wrap; the middle branch-free */
        uint8_t m8 = (uint8_t)(q - 1), A1 = (uint8_t)a1, B1 = (uint8_t)b1, A0 = (uint8_t)a0,
                B0 = (uint8_t)b0;
        if (br)
            for (size_t c = 1; c + 1 < w; c++)
                tmp[c] = (uint8_t)((uint8_t)(A1 * cur[c] + A0 * prev[c] + br[c] +
                                             B1 * (uint8_t)(cur[c - 1] + cur[c + 1]) +
                                             B0 * (uint8_t)(prev[c - 1] + prev[c + 1])) & m8);
        else
            for (size_t c = 1; c + 1 < w; c++)
                tmp[c] = (uint8_t)((uint8_t)(A1 * cur[c] + A0 * prev[c] +
                                             B1 * (uint8_t)(cur[c - 1] + cur[c + 1]) +
                                             B0 * (uint8_t)(prev[c - 1] + prev[c + 1])) & m8);
        size_t c = 0, z = w - 1;
        tmp[c] = (uint8_t)((A1 * cur[c] + A0 * prev[c] + (br ? br[c] : 0) + B1 * cur[c + 1] +
                            B0 * prev[c + 1]) & m8);
        tmp[z] = (uint8_t)((A1 * cur[z] + A0 * prev[z] + (br ? br[z] : 0) + B1 * cur[z - 1] +
                            B0 * prev[z - 1]) & m8);
        c1_solve(e, tmp, next);
        return;
    }
    for (size_t c = 0; c < w; c++) {   /* < 7 * 255 * 255 < 2^24 */
        uint32_t x = a1 * cur[c] + a0 * prev[c] + (br ? br[c] : 0);
        if (c)
            x += b1 * cur[c - 1] + b0 * prev[c - 1];
        if (c + 1 < w)
            x += b1 * cur[c + 1] + b0 * prev[c + 1];
        tmp[c] = (uint8_t)ml_fastmod_red(fq, x);
    }
    c1_solve(e, tmp, next);
}

static int chase(const zc_eng *e, const uint8_t *b, const uint8_t *z, uint8_t *x,
                 uint8_t *last, uint8_t *rows)
{
    size_t w = e->w;
    uint8_t *prev = rows, *cur = rows + w, *next = rows + 2 * w, *tmp = rows + 3 * w;
    ml_fastmod fq = ml_fastmod_make(e->base.q);
    unsigned ib = e->ib, t0 = e->t0, s = e->s, r = e->r, mu = e->mu;
    int pow2 = !(e->base.q & (e->base.q - 1));
    memset(prev, 0, w);
    if (z)
        memcpy(cur, z, w);
    else
        memset(cur, 0, w);
    for (size_t i = 0; i < e->h; i++) {
        if ((i & 63) == 63 && ml_interrupt_poll())
            return 3;
        if (x)
            memcpy(x + i * w, cur, w);
        /* the sums stay below 5 * 255 * 255 < 2^24; the middle columns branch-free */
        const uint8_t *br = b ? b + i * w : NULL;
        if (e->sym) {
            sym_step(e, br, prev, cur, next, tmp);
        } else if (pow2) {   /* q divides 256: bytes wrap, one mask */
            uint8_t m8 = (uint8_t)(e->base.q - 1), t8 = (uint8_t)t0, u8 = (uint8_t)mu,
                    s8 = (uint8_t)s, r8 = (uint8_t)r, i8 = (uint8_t)ib;
            if (br)
                for (size_t c = 1; c + 1 < w; c++)
                    next[c] = (uint8_t)((uint8_t)(t8 * cur[c] + u8 * prev[c] + s8 * cur[c - 1] +
                                                  r8 * cur[c + 1] + i8 * br[c]) & m8);
            else
                for (size_t c = 1; c + 1 < w; c++)
                    next[c] = (uint8_t)((uint8_t)(t8 * cur[c] + u8 * prev[c] + s8 * cur[c - 1] +
                                                  r8 * cur[c + 1]) & m8);
        } else if (br)
            for (size_t c = 1; c + 1 < w; c++)
                next[c] = (uint8_t)ml_fastmod_red(fq, t0 * cur[c] + mu * prev[c] +
                                                          s * cur[c - 1] + r * cur[c + 1] +
                                                          ib * br[c]);
        else
            for (size_t c = 1; c + 1 < w; c++)
                next[c] = (uint8_t)ml_fastmod_red(fq, t0 * cur[c] + mu * prev[c] +
                                                          s * cur[c - 1] + r * cur[c + 1]);
        for (size_t c = 0; !e->sym && c < w; c += w - 1 > 0 ? w - 1 : 1) {   /* the edges */
            uint32_t a = t0 * cur[c] + mu * prev[c];
            if (c)
                a += s * cur[c - 1];
            if (c + 1 < w)
                a += r * cur[c + 1];
            if (br)
                a += ib * br[c];
            next[c] = (uint8_t)ml_fastmod_red(fq, a);
        }
        uint8_t *tmp = prev;
        prev = cur;
        cur = next;
        next = tmp;
    }
    memcpy(last, cur, w);
    return 0;
}

/* f (deg < w) with f(T) e_0 = v: Clenshaw over the Q_j, a_j = v_j s^-j:
 * b_j = a_j + (x - t0) b_{j+1} - r s b_{j+2}, f = b_0 */
static int vec_to_poly(const zc_eng *e, const uint8_t *v, ml_gfpx *f)
{
    size_t w = e->w;
    unsigned q = e->base.q, nt0 = (q - e->t0) % q, nrs = (q - e->rs) % q;
    uint8_t *b1 = calloc(w + 1, 1), *b2 = calloc(w + 1, 1);
    uint8_t *pw = malloc(w + 1);
    if (!b1 || !b2 || !pw) {
        free(b1);
        free(b2);
        free(pw);
        return 2;
    }
    ml_fastmod fq = ml_fastmod_make(q);
    pw[0] = 1;
    for (size_t j = 1; j < w; j++)
        pw[j] = (uint8_t)(pw[j - 1] * e->sinv % q);
    int rc = 0;
    for (size_t j = w; j-- > 0;) {
        if ((j & 255) == 0 && ml_interrupt_poll()) {
            rc = 3;
            break;
        }
        size_t top = w - j;   /* b_j has at most w - j coefficients */
        /* b2 <- b_j, in place (b2[i] read at i only), from b1 = b_{j+1}, b2 = b_{j+2} */
        for (size_t i = top; i-- > 0;) {
            uint32_t a = nt0 * b1[i] + nrs * b2[i] + (i ? b1[i - 1] : 0);
            b2[i] = (uint8_t)ml_fastmod_red(fq, a);
        }
        b2[0] = (uint8_t)((b2[0] + v[j] * pw[j]) % q);
        uint8_t *tmp = b1;
        b1 = b2;
        b2 = tmp;
    }
    if (!rc)
        rc = ml_gfpx_set(f, b1, w);
    free(b1);
    free(b2);
    free(pw);
    return rc;
}

/* v = f(T) e_0 (deg f < w), Horner: v <- T v + f_i e_0 */
static int poly_to_vec(const zc_eng *e, const ml_gfpx *f, uint8_t *v, uint8_t *tmp)
{
    size_t w = e->w;
    ml_fastmod fq = ml_fastmod_make(e->base.q);
    int pow2 = !(e->base.q & (e->base.q - 1));
    memset(v, 0, w);
    for (size_t i = f->n; i-- > 0;) {
        if ((i & 255) == 0 && ml_interrupt_poll())
            return 3;
        size_t sup = f->n - i < w ? f->n - i : w;   /* v is zero from sup - 1 on */
        if (pow2 && sup > 2) {   /* q divides 256: bytes wrap, one mask */
            uint8_t m8 = (uint8_t)(e->base.q - 1), t8 = (uint8_t)e->t0, s8 = (uint8_t)e->s,
                    r8 = (uint8_t)e->r;
            tmp[0] = (uint8_t)((uint8_t)(t8 * v[0] + r8 * v[1]) & m8);
            for (size_t c = 1; c + 1 < sup; c++)
                tmp[c] = (uint8_t)((uint8_t)(t8 * v[c] + s8 * v[c - 1] + r8 * v[c + 1]) & m8);
            size_t c = sup - 1;
            uint32_t a = e->t0 * v[c] + e->s * v[c - 1] + (c + 1 < w ? e->r * v[c + 1] : 0);
            tmp[c] = (uint8_t)(a & m8);
            memcpy(v, tmp, sup);
            v[0] = (uint8_t)((v[0] + f->c[i]) & m8);
            continue;
        }
        for (size_t c = 0; c < sup; c++) {
            uint32_t a = e->t0 * v[c];
            if (c)
                a += e->s * v[c - 1];
            if (c + 1 < w)
                a += e->r * v[c + 1];
            tmp[c] = (uint8_t)ml_fastmod_red(fq, a);
        }
        memcpy(v, tmp, sup);
        v[0] = (uint8_t)((v[0] + f->c[i]) % e->base.q);
    }
    return 0;
}

/* chi = Q_w */
static int charpoly(const zc_eng *e, ml_gfpx *chi)
{
    size_t w = e->w;
    unsigned q = e->base.q, nt0 = (q - e->t0) % q, nrs = (q - e->rs) % q;
    uint8_t *a = calloc(w + 2, 1), *b = calloc(w + 2, 1);   /* Q_{j-1}, Q_j */
    if (!a || !b) {
        free(a);
        free(b);
        return 2;
    }
    ml_fastmod fq = ml_fastmod_make(q);
    b[0] = 1;
    for (size_t j = 0; j < w; j++) {   /* a <- Q_{j+1} = x Q_j - t0 Q_j - r s Q_{j-1} */
        if ((j & 255) == 255 && ml_interrupt_poll()) {
            free(a);
            free(b);
            return 3;
        }
        for (size_t i = j + 2; i-- > 0;) {
            uint32_t x = nt0 * b[i] + nrs * a[i] + (i ? b[i - 1] : 0);
            a[i] = (uint8_t)ml_fastmod_red(fq, x);
        }
        uint8_t *t = a;
        a = b;
        b = t;
    }
    int rc = ml_gfpx_set(chi, b, w + 1);
    free(a);
    free(b);
    return rc;
}

/* Whether orientation t fits (units cu and cr mod p, no other offset); fills e's
 * coefficients */
static int orient(zc_eng *e, const ml__pattern *pt, int t)
{
    unsigned q = e->base.q, p = e->base.p;
    long d = ml__alg_count(pt, t, 0, 0), cr = ml__alg_count(pt, t, 0, 1),
         cl = ml__alg_count(pt, t, 0, -1), cu = ml__alg_count(pt, t, -1, 0),
         cd = ml__alg_count(pt, t, 1, 0);
    if ((size_t)(d + cr + cl + cu + cd) != pt->count || cu % (long)p == 0 ||
        cr % (long)p == 0)
        return 0;
    unsigned inv = ml_inv_mod((unsigned)(cu % (long)q), q);
    unsigned neg = q - inv;   /* -cu^-1 */
    e->t = t;
    e->ib = inv;
    e->t0 = (unsigned)(d % (long)q) * neg % q;
    e->s = (unsigned)(cr % (long)q) * neg % q;
    e->r = (unsigned)(cl % (long)q) * neg % q;
    e->mu = (unsigned)(cd % (long)q) * neg % q;
    e->sinv = ml_inv_mod(e->s, q);
    e->rs = e->r * e->s % q;
    return 1;
}

/* Whether orientation t fits the symmetric chase (the pattern in the 3 x 3 box, counts
 * of (k, +1) and (k, -1) equal mod q, C_1 = a[2] + b[2] P invertible mod p with b[2] a
 * unit mod p or zero mod q); fills e's coefficients and the shooting's alpha */
static int orient_sym(zc_eng *e, const ml__pattern *pt, int t)
{
    unsigned q = e->base.q, p = e->base.p;
    long all = 0;
    for (int k = 0; k < 3; k++) {   /* a[k], b[k]: the row offset 1 - k */
        long dr = 1 - k, a = ml__alg_count(pt, t, dr, 0), r = ml__alg_count(pt, t, dr, 1),
             l = ml__alg_count(pt, t, dr, -1);
        if ((r - l) % (long)q)
            return 0;
        all += a + r + l;
        e->a[k] = (unsigned)(a % (long)q);
        e->b[k] = (unsigned)(r % (long)q);
    }
    if ((size_t)all != pt->count)
        return 0;
    unsigned a = e->a[2], b = e->b[2];
    size_t w = t ? e->base.rows : e->base.cols;
    free(e->alpha);
    e->alpha = NULL;
    if (!b) {
        if (a % p == 0)
            return 0;
        e->cv = ml_inv_mod(a, q);
    } else {
        if (b % p == 0)
            return 0;
        unsigned bi = ml_inv_mod(b, q);
        e->cv = bi;
        e->c1 = (q - a) * bi % q;
        e->c2 = q - 1;
        e->alpha = malloc(w + 1);
        if (!e->alpha)
            return -1;
        e->alpha[0] = 1;
        if (w > 1)
            e->alpha[1] = (uint8_t)e->c1;
        for (size_t i = 1; i + 1 < w; i++)
            e->alpha[i + 1] = (uint8_t)((e->c1 * e->alpha[i] + e->c2 * e->alpha[i - 1]) % q);
        unsigned d = (a * e->alpha[w - 1] + (w > 1 ? b * e->alpha[w - 2] : 0)) % q;
        if (d % p == 0) {
            free(e->alpha);
            e->alpha = NULL;
            return 0;
        }
        e->dinv = ml_inv_mod(d, q);
    }
    e->sym = 1;
    e->t = t;
    e->t0 = 0;   /* T = P */
    e->s = e->r = e->sinv = e->rs = 1;
    return 1;
}

int ml__zq_cross_new(ml_ctx *ctx, const ml_board *b, unsigned p, unsigned k, int sym,
                     void **engine)
{
    *engine = NULL;
    const ml__pattern *pt = &b->pal[0];
    if (b->kind != ML_BOARD_GRID || b->wrap || b->mixed || b->locked || b->holes ||
        b->giant || b->rows < 1 || b->cols < 1)
        return ML_OK;
    zc_eng *e = calloc(1, sizeof *e);
    if (!e)
        return ml__zq_part_fail(ctx, NULL, 2);
    ml__zq_part_init(&e->base, &zc_ops, b, p, k);
    ml__zq1_init(&e->z);
    int fit = orient(e, pt, 0) || orient(e, pt, 1);
    if (!fit && sym) {
        fit = orient_sym(e, pt, 0);
        if (!fit)
            fit = orient_sym(e, pt, 1);
    }
    if (fit <= 0) {
        ml__zq_part_destroy(NULL, e);
        return fit < 0 ? ml__zq_part_fail(ctx, NULL, 2) : ML_OK;
    }
    e->h = e->t ? e->base.cols : e->base.rows;
    e->w = e->t ? e->base.rows : e->base.cols;
    size_t w = e->w;
    ml_gfpx chi, g;
    ml_gfpx_init(&chi);
    ml_gfpx_init(&g);
    uint8_t *buf = malloc(6 * w + 1);
    int rc = buf ? charpoly(e, &chi) : 2;
    if (!rc) {   /* g(T) e_0 = the chase of e_0 */
        uint8_t *z = buf + 4 * w, *last = buf + 5 * w;
        memset(z, 0, w);
        z[0] = 1;
        rc = chase(e, NULL, z, NULL, last, buf);
        if (!rc)
            rc = vec_to_poly(e, last, &g);
    }
    if (!rc)
        rc = ml__zq1_build(&e->z, p, k, &chi, &g, ml__lifted_zq_mmax(w, e->sym));
    ml_gfpx_clear(&chi);
    ml_gfpx_clear(&g);
    free(buf);
    if (rc == 1 || rc == 4) {   /* declined: R_A too large, or an identity of the algebra
                                   broken: the choosing chase takes the part */
        ml__zq_part_destroy(NULL, e);
        return ML_OK;
    }
    if (rc) {
        ml__zq_part_destroy(NULL, e);
        return ml__zq_part_fail(ctx, NULL, rc);
    }
    e->base.ngens = e->z.ngens;
    e->base.klog = e->z.klog;
    *engine = e;
    return ML_OK;
}

/* x (board layout) = the chase of y(T) e_0 with right-hand side bo (oriented, or NULL);
 * *zero: whether X_h vanished */
static int replay(const zc_eng *e, const ml_gfpx *y, const uint8_t *bo, uint8_t *xo,
                  uint8_t *x, uint8_t *buf, int *zero)
{
    size_t w = e->w;
    uint8_t *z = buf + 4 * w, *last = buf + 5 * w;
    int rc = poly_to_vec(e, y, z, buf);
    if (!rc)
        rc = chase(e, bo, z, e->t ? xo : x, last, buf);
    *zero = 1;
    for (size_t c = 0; !rc && c < w; c++)
        *zero &= !last[c];
    if (!rc && e->t)
        ml__zq_part_orient(1, e->base.cols, e->base.rows, xo, x);
    return rc;
}

/* The scratch of a solve or a generator. */
typedef struct zc_work {
    uint8_t *bo, *xo, *buf;   /* the board oriented, its taps, the chase's 6 w bytes */
    ml_gfpx gam, y;
} zc_work;

static void zc_scratch_free(void *scratch)
{
    zc_work *k = scratch;
    if (!k)
        return;
    free(k->bo);
    free(k->xo);
    free(k->buf);
    ml_gfpx_clear(&k->gam);
    ml_gfpx_clear(&k->y);
    free(k);
}

static int zc_scratch_new(const ml__zq_part *part, void **scratch)
{
    const zc_eng *e = (const zc_eng *)part;
    size_t hw = e->base.rows * e->base.cols;
    zc_work *k = calloc(1, sizeof *k);
    *scratch = k;
    if (!k)
        return 2;
    ml_gfpx_init(&k->gam);
    ml_gfpx_init(&k->y);
    k->bo = malloc(hw + 1);
    k->xo = malloc(hw + 1);
    k->buf = malloc(6 * e->w + 1);
    return !k->bo || !k->xo || !k->buf ? 2 : 0;
}

static int zc_solve(const ml__zq_part *part, void *scratch, const uint8_t *r, uint8_t *x,
                    int *ok)
{
    const zc_eng *e = (const zc_eng *)part;
    zc_work *k = scratch;
    size_t w = e->w;
    uint8_t *last = k->buf + 5 * w;
    ml__zq_part_orient(e->t, e->base.rows, e->base.cols, r, k->bo);
    int rc = chase(e, k->bo, NULL, NULL, last, k->buf);
    for (size_t c = 0; !rc && c < w; c++)   /* gamma(T) e_0 = -c */
        last[c] = (uint8_t)((e->base.q - last[c]) % e->base.q);
    if (!rc)
        rc = vec_to_poly(e, last, &k->gam);
    int good = 0, zero = 0;
    if (!rc)
        rc = ml__zq1_solve(&e->z, &k->gam, &k->y, &good);
    if (!rc && good) {
        rc = replay(e, &k->y, k->bo, k->xo, x, k->buf, &zero);
        if (!rc && !zero)
            rc = 4;   /* never: g y = gamma */
    }
    *ok = good;
    return rc;
}

static int zc_generator(const ml__zq_part *part, void *scratch, uint64_t i, uint8_t *h,
                        unsigned *order)
{
    const zc_eng *e = (const zc_eng *)part;
    zc_work *k = scratch;
    int zero = 0;
    int rc = ml__zq1_generator(&e->z, (size_t)i, &k->y, order);
    if (!rc)
        rc = replay(e, &k->y, NULL, k->xo, h, k->buf, &zero);
    if (!rc && !zero)
        rc = 4;   /* never: g y = 0 */
    return rc;
}

static const ml__zq_part_ops zc_ops = {
    zc_scratch_new, zc_scratch_free, zc_solve, zc_generator, zc_clear,
    "the algebra over Z/p^k broke an identity",
};

const ml_engine_def ml__zq_cross_ops = ML__ZQ_PART_DEF("lifted-zq-cross");

void ml__zq_cross_rank(const void *engine, size_t *m, size_t *w)
{
    const zc_eng *e = engine;
    *m = e->z.m;
    *w = e->w;
}
