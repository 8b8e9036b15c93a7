/* lifted_torus.c: the lifted engine's part over Z/q, q = p^k (k > 1), of a torus
 * singular mod p (lifted_torus.h).
 *
 * The board is worked as algebraic-torus2 works it over GF(p) (transposed, sheared,
 * flipped: ml__torus2_orient_mod), its rows chased over Z/q from the span S unknown
 * rows z (engines/torus2.h's core: the lead's count is a unit mod p, so mod q). A row is
 * an element of R = Z/q[s] / (f), f = s^w - 1; the chase leaves S residual rows M z + c
 * with M an S x S matrix over R (column j: the chase from z = e_j, b = 0) and c the
 * chase of b from z = 0: A x = b iff M z = -c.
 *
 * Mod p, algebraic-torus2's diagonal form L M V = diag(d_i) over GF(p)[s] / (f)
 * (polymatn.h); g_i = gcd(d_i, f), g = prod g_i. f = a b over GF(p) with b the largest
 * factor of f prime to g (every irreducible factor of a divides g, with its full
 * multiplicity in f: f = (s^w' - 1)^(p^j) is far from separable), lifted by Hensel to
 * f = A B over Z/q (lifted_alg.h's split), and R = R_A x R_B.
 *   - R_B: det M = unit x prod d_i is prime to b, so M is invertible over R_B; mod p its
 *     inverse is V diag(d_i^-1 mod b) L, and M z_B = e (mod B) is solved digit by digit:
 *     with r = e - M z_B = 0 mod p^t, y = M^-1 (r / p^t) mod (p, b), z_B += p^t y
 *     (k GF(p) solves, (k - 1) S^2 products mod B over Z/q).
 *   - R_A, a free Z/q-module of rank m = deg A: M on R_A^S is an S m x S m matrix over
 *     Z/q (columns M (s^j e_l) mod A), brought to Smith form U N V = diag(p^e_i)
 *     (lifted_alg.h's ml__zq_smith): solvable iff p^e_i | (U e_A)_i, then z_A = V
 *     ((U e_A)_i / p^e_i); the kernel is the images of V p^(k - e_i) e_i (e_i > 0, order
 *     p^e_i), 0 on R_B; the part's nullity (its count of generators) is the number of
 *     e_i > 0 and |ker| = p^(sum e_i).
 * z = the CRT combination of z_A and z_B (lifted_alg.h's ml__zq1_combine), then the
 * chase is replayed from z; a residual left is an internal error, never an answer.
 *
 * Cost: S + 1 chases of O(offsets h w) and algebraic-torus2's diagonal form over GF(p)
 * to build, the split (gcds and Hensel steps of degree w), S^2 reductions mod A and B,
 * the Smith form O((S m)^3) (declined past S m = ML__ZQ_TORUS_KMAX); a solve two chases,
 * k GF(p) solves (the logged operations' products), (k - 1) S^2 products mod B and
 * O((S m)^2). The chases poll for an interrupt every 16 rows, the gcds and the Smith
 * form at every step. */
#include "engines/lifted_torus.h"

#include "api/board.h"
#include "api/ctx.h"
#include "base/modn.h"
#include "engines/algebraic_impl.h"
#include "engines/lifted.h"
#include "engines/lifted_alg.h"
#include "engines/polymat.h"
#include "engines/polymatn.h"
#include "engines/torus2.h"

#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                             \
    do {                                                                                   \
        int rc_ = (x);                                                                     \
        if (rc_)                                                                           \
            return rc_;                                                                    \
    } while (0)

typedef struct zt_eng {
    ml__zq_part base;
    size_t h, w, S, m, K;
    ml__t2_core *core;
    pmn D;            /* M mod p, diagonalised */
    px bx;            /* b = B mod p */
    px *dinv;         /* S: d_i^-1 mod (b, p) */
    ml_gfpx *MB;      /* S x S: M's entries mod B over Z/q */
    ml__zq1 z;        /* f = A B */
    uint8_t *U, *V;   /* K x K */
    unsigned *e;      /* K */
} zt_eng;

static void zt_clear(ml__zq_part *part)
{
    zt_eng *e = (zt_eng *)part;
    if (e->core)
        ml__t2_core_free(e->core);
    ml__pmn_clear(&e->D);
    ml__alg_px_clear(&e->bx);
    ml__alg_px_vec_free(e->dinv, e->S);
    if (e->MB)
        for (size_t i = 0; i < e->S * e->S; i++)
            ml_gfpx_clear(&e->MB[i]);
    free(e->MB);
    ml__zq1_clear(&e->z);
    free(e->U);
    free(e->V);
    free(e->e);
}

static const ml__zq_part_ops zt_ops;

/* the first n coefficients of a polynomial over GF(p) (zeros past its degree) */
static void px_bytes(unsigned p, const px *a, uint8_t *out, size_t n)
{
    memset(out, 0, n);
    if (p == 2) {
        for (size_t i = 0; i < n && i / 64 < a->b.n; i++)
            out[i] = (uint8_t)(a->b.c[i / 64] >> (i % 64) & 1);
    } else {
        for (size_t i = 0; i < n && i < a->c.n; i++)
            out[i] = a->c.c[i];
    }
}

/* the first n coefficients of a (zeros past its degree) */
static void gfpx_bytes(const ml_gfpx *a, uint8_t *out, size_t n)
{
    size_t c = a->n < n ? a->n : n;
    if (c)
        memcpy(out, a->c, c);
    memset(out + c, 0, n - c);
}

/* ------------------------------------------------------------------ build */
/* M over Z/q (into Mq, S x S, each of w coefficients) by the chases from the unit rows */
static int chase_system(zt_eng *e, ml_gfpx *Mq)
{
    size_t S = e->S, w = e->w;
    uint8_t *z = calloc(S * w + 1, 1), *res = malloc(S * w + 1);
    int rc = z && res ? 0 : 2;
    for (size_t j = 0; j < S && !rc; j++) {
        z[j * w] = 1;
        rc = ml__t2_core_chase(e->core, NULL, z, NULL, res);
        z[j * w] = 0;
        for (size_t i = 0; i < S && !rc; i++)
            rc = ml_gfpx_set(&Mq[i * S + j], res + i * w, w);
    }
    free(z);
    free(res);
    return rc;
}

/* D = M mod p diagonalised; g = prod gcd(d_i, f) mod f over GF(p) (into g) */
static int diagonal_mod_p(zt_eng *e, const ml_gfpx *Mq, ml_gfpx *g)
{
    unsigned p = e->base.p;
    size_t S = e->S, w = e->w;
    uint8_t *buf = malloc(w + 2);
    px f, gi, ti;
    ml__alg_px_init(&f);
    ml__alg_px_init(&gi);
    ml__alg_px_init(&ti);
    ml_gfpx gp, fp;
    ml_gfpx_init(&gp);
    ml_gfpx_init(&fp);
    int rc = buf ? ml__pmn_init(&e->D, p, w, S) : 2;
    for (size_t i = 0; i < S * S && !rc; i++) {
        gfpx_bytes(&Mq[i], buf, w);
        for (size_t c = 0; c < w; c++)
            buf[c] = (uint8_t)(buf[c] % p);
        rc = ml__alg_px_set(p, &e->D.e[i], buf, w);
    }
    if (!rc)
        rc = ml__pmn_diagonalise(&e->D);
    if (!rc) {   /* f = s^w - 1, over GF(p) as px and as ml_gfpx */
        memset(buf, 0, w + 1);
        buf[0] = (uint8_t)(p - 1);
        buf[w] = 1;
        rc = ml__alg_px_set(p, &f, buf, w + 1);
        if (!rc)
            rc = ml_gfpx_set(&fp, buf, w + 1);
    }
    uint8_t one = 1;
    if (!rc)
        rc = ml_gfpx_set(g, &one, 1);
    for (size_t i = 0; i < S && !rc; i++) {
        const px *d = &e->D.e[i * S + i];
        if (ml__alg_px_deg(p, d) < 0)
            rc = ml__alg_px_copy(p, &gi, &f);
        else
            rc = ml__pm_xgcd(p, &gi, &ti, NULL, d, &f);
        if (!rc) {
            px_bytes(p, &gi, buf, w + 1);
            rc = ml_gfpx_set(&gp, buf, w + 1);
        }
        if (!rc)
            rc = ml_gfpx_mul(g, g, &gp, p);
        if (!rc && ml_gfpx_deg(g) >= (long)w)
            rc = ml_gfpx_divrem(NULL, g, g, &fp, p);
    }
    free(buf);
    ml__alg_px_clear(&f);
    ml__alg_px_clear(&gi);
    ml__alg_px_clear(&ti);
    ml_gfpx_clear(&gp);
    ml_gfpx_clear(&fp);
    return rc;
}

/* R_B: b = B mod p, d_i^-1 mod (b, p), M's entries mod B */
static int part_B(zt_eng *e, const ml_gfpx *Mq)
{
    unsigned p = e->base.p;
    size_t S = e->S, db = e->z.B.n - 1;
    uint8_t *buf = malloc(db + 2);
    px r, g;
    ml__alg_px_init(&r);
    ml__alg_px_init(&g);
    e->dinv = ml__alg_px_vec(S);
    e->MB = calloc(S * S + 1, sizeof *e->MB);
    int rc = buf && e->dinv && e->MB ? 0 : 2;
    if (!rc) {
        for (size_t i = 0; i <= db; i++)
            buf[i] = (uint8_t)(e->z.B.c[i] % p);
        rc = ml__alg_px_set(p, &e->bx, buf, db + 1);
    }
    for (size_t i = 0; i < S && !rc; i++) {
        rc = ml__alg_px_divrem(p, NULL, &r, &e->D.e[i * S + i], &e->bx);
        if (!rc)
            rc = ml__pm_xgcd(p, &g, &e->dinv[i], NULL, &r, &e->bx);
        if (!rc && ml__alg_px_deg(p, &g) != 0)
            rc = 4;   /* never: b is prime to every g_i */
    }
    for (size_t i = 0; i < S * S && e->MB && !rc; i++) {
        ml_gfpx_init(&e->MB[i]);
        rc = ml__zq1_rem_B(&e->z, &e->MB[i], &Mq[i]);
    }
    free(buf);
    ml__alg_px_clear(&r);
    ml__alg_px_clear(&g);
    return rc;
}

/* R_A: the K x K matrix of M on R_A^S (row i m + r, column l m + j: coefficient r of
 * M_il s^j mod A), brought to Smith form */
static int part_A(zt_eng *e, const ml_gfpx *Mq)
{
    size_t S = e->S, m = e->m, K = e->K;
    unsigned q = e->base.q;
    const ml_gfpx *A = &e->z.A;
    uint8_t *N = calloc(K * K + 1, 1);
    e->U = malloc(K * K + 1);
    e->V = malloc(K * K + 1);
    e->e = calloc(K + 1, sizeof *e->e);
    ml_gfpx t;
    ml_gfpx_init(&t);
    int rc = N && e->U && e->V && e->e ? 0 : 2;
    for (size_t i = 0; i < S && !rc; i++)
        for (size_t l = 0; l < S && !rc; l++) {
            rc = ml__zq_rem(&t, &Mq[i * S + l], A, q);
            for (size_t j = 0; j < m && !rc; j++) {
                for (size_t r = 0; r < t.n; r++)
                    N[(i * m + r) * K + l * m + j] = t.c[r];
                rc = ml_gfpx_fit(&t, m + 2);   /* t = s t mod A */
                if (rc)
                    break;
                if (t.n) {
                    memmove(t.c + 1, t.c, t.n);
                    t.c[0] = 0;
                    t.n++;
                }
                rc = ml__zq_rem(&t, &t, A, q);
            }
        }
    if (!rc)
        rc = ml__zq_smith(e->base.p, e->base.k, K, N, e->U, e->V, e->e);
    for (size_t i = 0; i < K && !rc; i++) {
        e->base.ngens += e->e[i] > 0;
        e->base.klog += e->e[i];
    }
    free(N);
    ml_gfpx_clear(&t);
    return rc;
}

static int build(zt_eng *e, const ml_board *b, const ml__t2_orient *o, int *declined)
{
    unsigned p = e->base.p, q = e->base.q;
    *declined = 0;
    int rc = ml__t2_core_new(b, q, p, o, &e->core);
    if (rc == 1)
        *declined = 1;
    if (rc)
        return rc == 1 ? 0 : rc;
    ml__t2_core_dims(e->core, &e->h, &e->w, &e->S);
    if (!e->S) {   /* a single offset: no system (the lift's) */
        *declined = 1;
        return 0;
    }
    size_t S = e->S, w = e->w;
    ml_gfpx *Mq = calloc(S * S + 1, sizeof *Mq);
    ml_gfpx g, f;
    ml_gfpx_init(&g);
    ml_gfpx_init(&f);
    uint8_t *fc = calloc(w + 2, 1);
    rc = Mq && fc ? 0 : 2;
    for (size_t i = 0; Mq && i < S * S; i++)
        ml_gfpx_init(&Mq[i]);
    if (!rc)
        rc = chase_system(e, Mq);
    if (!rc)
        rc = diagonal_mod_p(e, Mq, &g);
    if (!rc) {   /* f = s^w - 1 over Z/q, split as A B */
        fc[0] = (uint8_t)(q - 1);
        fc[w] = 1;
        rc = ml_gfpx_set(&f, fc, w + 1);
    }
    if (!rc) {
        rc = ml__zq1_build(&e->z, p, e->base.k, &f, &g, ML__ZQ_TORUS_KMAX / S);
        if (rc == 1)
            *declined = 1;
    }
    if (!rc) {
        e->m = e->z.m;
        e->K = S * e->m;
        if (e->K > ML__ZQ_TORUS_KMAX)
            *declined = 1;
    }
    if (!rc && !*declined && e->z.B.n > 1)
        rc = part_B(e, Mq);
    if (!rc && !*declined)
        rc = part_A(e, Mq);
    for (size_t i = 0; Mq && i < S * S; i++)
        ml_gfpx_clear(&Mq[i]);
    free(Mq);
    free(fc);
    ml_gfpx_clear(&g);
    ml_gfpx_clear(&f);
    return rc == 1 ? 0 : rc;
}

int ml__zq_torus_new(ml_ctx *ctx, const ml_board *b, unsigned p, unsigned k, void **engine)
{
    *engine = NULL;
    if (b->kind != ML_BOARD_GRID || !b->wrap || b->mixed || b->locked || b->holes || k < 2)
        return ML_OK;
    ml__t2_orient o;
    int found = ml__torus2_orient_mod(b, p, &o);
    if (found < 0)
        return ml__fail(ctx, ML_M_NOMEM, "the lifted engine");
    if (!found)
        return ML_OK;
    zt_eng *e = calloc(1, sizeof *e);
    if (!e)
        return ml__zq_part_fail(ctx, NULL, 2);
    ml__zq_part_init(&e->base, &zt_ops, b, p, k);
    ml__alg_px_init(&e->bx);
    ml__zq1_init(&e->z);
    int declined = 0;
    int rc = build(e, b, &o, &declined);
    if (rc)
        rc = ml__zq_part_fail(ctx, &e->base, rc);
    if (rc || declined) {
        ml__zq_part_destroy(NULL, e);
        return rc;
    }
    *engine = e;
    return ML_OK;
}

/* ------------------------------------------------------------------ solve */
/* y = M^-1 c mod (p, b): c, y S polynomials over GF(p) as px (in place) */
static int solve_mod_p(const zt_eng *e, px *v)
{
    unsigned p = e->base.p;
    px r, t;
    ml__alg_px_init(&r);
    ml__alg_px_init(&t);
    int rc = ml__pmn_apply_L(&e->D, v);
    for (size_t i = 0; i < e->S && !rc; i++) {
        rc = ml__alg_px_divrem(p, NULL, &r, &v[i], &e->bx);
        if (!rc)
            rc = ml__alg_px_mulmod(p, &v[i], &r, &e->dinv[i], &e->bx, &t);
    }
    if (!rc)
        rc = ml__pmn_apply_V(&e->D, v);
    for (size_t i = 0; i < e->S && !rc; i++) {
        rc = ml__alg_px_divrem(p, NULL, &r, &v[i], &e->bx);
        if (!rc)
            rc = ml__alg_px_copy(p, &v[i], &r);
    }
    ml__alg_px_clear(&r);
    ml__alg_px_clear(&t);
    return rc;
}

/* zB (S polynomials mod B over Z/q) with M zB = c mod B, c: S polynomials of degree < w
 * over Z/q; digit by digit */
static int solve_B(const zt_eng *e, const ml_gfpx *c, ml_gfpx *zB)
{
    unsigned p = e->base.p, q = e->base.q, pt = 1;
    size_t S = e->S, db = e->z.B.n - 1;
    uint8_t *r = calloc(S * db + 1, 1), *zb = calloc(S * db + 1, 1), *buf = malloc(db + 1);
    px *v = ml__alg_px_vec(S);
    ml_gfpx t, y, acc;
    ml_gfpx_init(&t);
    ml_gfpx_init(&y);
    ml_gfpx_init(&acc);
    int rc = r && zb && buf && v ? 0 : 2;
    for (size_t i = 0; i < S && !rc; i++) {   /* r = c mod B */
        rc = ml__zq1_rem_B(&e->z, &t, &c[i]);
        if (!rc)
            gfpx_bytes(&t, r + i * db, db);
    }
    for (unsigned d = 0; d < e->base.k && !rc; d++, pt *= p) {
        for (size_t i = 0; i < S && !rc; i++) {   /* (r / p^d) mod p */
            for (size_t j = 0; j < db; j++)
                buf[j] = (uint8_t)(r[i * db + j] / pt % p);
            rc = ml__alg_px_set(p, &v[i], buf, db);
        }
        if (!rc)
            rc = solve_mod_p(e, v);
        for (size_t i = 0; i < S && !rc; i++) {   /* zB += p^d y */
            px_bytes(p, &v[i], buf, db);
            for (size_t j = 0; j < db; j++)
                zb[i * db + j] = (uint8_t)((zb[i * db + j] + pt * buf[j]) % q);
        }
        for (size_t i = 0; i < S && !rc && d + 1 < e->base.k; i++) {   /* r -= p^d M y */
            memset(buf, 0, db);
            rc = ml_gfpx_set(&acc, NULL, 0);
            for (size_t l = 0; l < S && !rc; l++) {
                uint8_t *yl = malloc(db + 1);
                if (!yl) {
                    rc = 2;
                    break;
                }
                px_bytes(p, &v[l], yl, db);
                rc = ml_gfpx_set(&y, yl, db);
                free(yl);
                if (!rc)
                    rc = ml_gfpx_mul(&t, &e->MB[i * S + l], &y, q);
                if (!rc)
                    rc = ml__zq1_rem_B(&e->z, &t, &t);
                for (size_t j = 0; !rc && j < t.n; j++)
                    buf[j] = (uint8_t)((buf[j] + t.c[j]) % q);
            }
            for (size_t j = 0; j < db && !rc; j++)
                r[i * db + j] = (uint8_t)((r[i * db + j] + q - pt * buf[j] % q) % q);
        }
    }
    for (size_t i = 0; i < S && !rc; i++)
        rc = ml_gfpx_set(&zB[i], zb + i * db, db);
    free(r);
    free(zb);
    free(buf);
    ml__alg_px_vec_free(v, S);
    ml_gfpx_clear(&t);
    ml_gfpx_clear(&y);
    ml_gfpx_clear(&acc);
    return rc;
}

/* zA (S x m coefficients) with M zA = c mod A, *ok; c: S polynomials over Z/q */
static int solve_A(const zt_eng *e, const ml_gfpx *c, uint8_t *zA, int *ok)
{
    size_t S = e->S, m = e->m, K = e->K;
    unsigned q = e->base.q, p = e->base.p;
    uint8_t *cA = calloc(K + 1, 1);
    uint32_t *u = calloc(K + 1, sizeof *u);
    ml_gfpx t;
    ml_gfpx_init(&t);
    int rc = cA && u ? 0 : 2;
    *ok = 1;
    for (size_t i = 0; i < S && !rc; i++) {
        rc = ml__zq_rem(&t, &c[i], &e->z.A, q);
        if (!rc)
            gfpx_bytes(&t, cA + i * m, m);
    }
    for (size_t i = 0; i < K && !rc; i++) {   /* u = U cA, then u_i / p^e_i */
        uint32_t s = 0;
        for (size_t j = 0; j < K; j++)
            s += (uint32_t)e->U[i * K + j] * cA[j];
        s %= q;
        unsigned pe = 1;
        for (unsigned x = 0; x < e->e[i]; x++)
            pe *= p;
        if (s % pe)
            *ok = 0;
        u[i] = e->e[i] >= e->base.k ? 0 : s / pe;
    }
    for (size_t i = 0; i < K && !rc && *ok; i++) {   /* zA = V u */
        uint32_t s = 0;
        for (size_t j = 0; j < K; j++)
            s += (uint32_t)e->V[i * K + j] * u[j];
        zA[i] = (uint8_t)(s % q);
    }
    free(cA);
    free(u);
    ml_gfpx_clear(&t);
    return rc;
}

/* the S rows z (S x w) from zA (S x m) and zB (S polynomials mod B; NULL: zero) */
static int rows_of(const zt_eng *e, const uint8_t *zA, const ml_gfpx *zB, uint8_t *z)
{
    ml_gfpx y, zero;
    ml_gfpx_init(&y);
    ml_gfpx_init(&zero);
    int rc = 0;
    for (size_t i = 0; i < e->S && !rc; i++) {
        rc = ml__zq1_combine(&e->z, zA + i * e->m, zB ? &zB[i] : &zero, &y);
        if (!rc)
            gfpx_bytes(&y, z + i * e->w, e->w);
    }
    ml_gfpx_clear(&y);
    ml_gfpx_clear(&zero);
    return rc;
}

/* Solve on the worked board B (h x w, values < q): the taps in x, *ok */
static int solve_work(const zt_eng *e, const uint8_t *B, uint8_t *x, int *ok)
{
    size_t S = e->S, w = e->w;
    unsigned q = e->base.q;
    uint8_t *z = calloc(S * w + 1, 1), *res = malloc(S * w + 1), *zA = calloc(e->K + 1, 1);
    ml_gfpx *c = calloc(S + 1, sizeof *c), *zB = calloc(S + 1, sizeof *zB);
    for (size_t i = 0; c && zB && i < S; i++) {
        ml_gfpx_init(&c[i]);
        ml_gfpx_init(&zB[i]);
    }
    *ok = 1;
    int rc = z && res && zA && c && zB ? ml__t2_core_chase(e->core, B, z, NULL, res) : 2;
    if (!rc && ml__alg_any(res, S * w)) {
        for (size_t i = 0; i < S * w; i++)   /* M z = -c */
            res[i] = (uint8_t)((q - res[i]) % q);
        for (size_t i = 0; i < S && !rc; i++)
            rc = ml_gfpx_set(&c[i], res + i * w, w);
        if (!rc)
            rc = solve_A(e, c, zA, ok);
        if (!rc && *ok && e->z.B.n > 1)
            rc = solve_B(e, c, zB);
        if (!rc && *ok)
            rc = rows_of(e, zA, zB, z);
    }
    if (!rc && *ok)
        rc = ml__t2_core_chase(e->core, B, z, x, res);
    if (!rc && *ok && ml__alg_any(res, S * w))
        rc = 4;   /* never: M z = -c */
    for (size_t i = 0; c && zB && i < S; i++) {
        ml_gfpx_clear(&c[i]);
        ml_gfpx_clear(&zB[i]);
    }
    free(c);
    free(zB);
    free(z);
    free(res);
    free(zA);
    return rc;
}

/* The scratch of a solve (B, x: the worked board and its taps) or a generator (zA, z,
 * res, x). */
typedef struct zt_work {
    uint8_t *B, *x, *zA, *z, *res;
} zt_work;

static void zt_scratch_free(void *scratch)
{
    zt_work *k = scratch;
    if (!k)
        return;
    free(k->B);
    free(k->x);
    free(k->zA);
    free(k->z);
    free(k->res);
    free(k);
}

static int zt_scratch_new(const ml__zq_part *part, void **scratch)
{
    const zt_eng *e = (const zt_eng *)part;
    size_t hw = e->base.rows * e->base.cols, sw = e->S * e->w;
    zt_work *k = calloc(1, sizeof *k);
    *scratch = k;
    if (!k)
        return 2;
    k->B = malloc(hw + 1);
    k->x = malloc(hw + 1);
    k->zA = malloc(e->K + 1);
    k->z = malloc(sw + 1);
    k->res = malloc(sw + 1);
    return !k->B || !k->x || !k->zA || !k->z || !k->res ? 2 : 0;
}

static int zt_solve(const ml__zq_part *part, void *scratch, const uint8_t *r, uint8_t *x,
                    int *ok)
{
    const zt_eng *e = (const zt_eng *)part;
    zt_work *k = scratch;
    ml__t2_core_map(e->core, r, k->B, 1);
    int rc = solve_work(e, k->B, k->x, ok);
    if (!rc && *ok)
        ml__t2_core_map(e->core, k->x, x, 0);
    return rc;
}

/* ------------------------------------------------------------------ the kernel */
/* The i-th generator: the image of V p^(k - e_j) e_j, j the i-th index with e_j > 0, of
 * order p^e_j */
static int zt_generator(const ml__zq_part *part, void *scratch, uint64_t i, uint8_t *h,
                        unsigned *order)
{
    const zt_eng *e = (const zt_eng *)part;
    zt_work *k = scratch;
    int rc = ml__zq_smith_kernel(e->base.p, e->base.k, e->K, e->V, e->e, (size_t)i, k->zA,
                                 order);
    if (!rc)
        rc = rows_of(e, k->zA, NULL, k->z);
    if (!rc)
        rc = ml__t2_core_chase(e->core, NULL, k->z, k->x, k->res);
    if (!rc && ml__alg_any(k->res, e->S * e->w))
        rc = 4;   /* never: a kernel vector of M */
    if (!rc)
        ml__t2_core_map(e->core, k->x, h, 0);
    return rc;
}

static const ml__zq_part_ops zt_ops = {
    zt_scratch_new, zt_scratch_free, zt_solve, zt_generator, zt_clear,
    "the torus algebra over Z/p^k broke an identity",
};

const ml_engine_def ml__zq_torus_ops = ML__ZQ_PART_DEF("lifted-zq-torus");
