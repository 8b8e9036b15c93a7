/* dense.c: the dense engines' questions (engines/dense.h), over dense/gf2.c (n = 2, in
 * the piece dense_gf2.c) and dense/zn.c (n >= 3, one factorisation per prime power of n,
 * combined by CRT); what the pieces share is in engines/dense_impl.h.
 *
 * dense-zn is ZnEngine (native/_zn.pxi): at most MAX_ENTRIES = 2^28 entries (its
 * message); for each q = p^e || n a ml_zn_lu filled from the board's effects (or its
 * dense matrix) and factored; answers combined with the idempotents
 * idem_q = (n/q) * ((n/q)^-1 mod q) mod n, generators row by row (a part with fewer
 * generators adds zero rows of order 1), exactly as ZnEngine.generators does, so the
 * same rows and orders come out.
 *
 * Every allocation is checked (ML_ENOMEM "out of memory in <what>"); the factorisations
 * poll for stops (the caller's scope turns their failure into ML_EINTERRUPTED). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE   /* sched_getaffinity */
#endif
#include "engines/dense.h"
#include "engines/dense_impl.h"

#include "api/board.h"
#include "api/ctx.h"
#include "api/registry_impl.h"
#include "dense/zn.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sched.h>
#endif

int ml__engine_threads(ml_ctx *ctx)
{
    ctx = ml__ctx(ctx);
    if (ctx && ctx->threads > 0)
        return ctx->threads;
    int k = 1;
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        k = CPU_COUNT(&set);
#endif
    return k < 1 ? 1 : (k > 8 ? 8 : k);
}

/* ================================================================== Z/n */
typedef struct zn_eng {
    unsigned n;
    size_t m, r;
    int parts;
    unsigned q[ML_MAX_PRIMES], idem[ML_MAX_PRIMES];
    ml_zn_lu_t *lu[ML_MAX_PRIMES];
} zn_eng;

static void zn_destroy(void *user, void *engine)
{
    (void)user;
    zn_eng *e = engine;
    if (!e)
        return;
    for (int i = 0; i < e->parts; i++)
        ml_zn_lu_free(e->lu[i]);
    free(e);
}

/* One tap's effects, gathered for ml_zn_lu_add_coo. */
typedef struct coo_buf {
    int64_t *ci, *tj;
    size_t len, room;
    int64_t j;
    int oom;
} coo_buf;

static void coo_effect(void *arg, uint64_t cell, unsigned times)
{
    coo_buf *c = arg;
    for (unsigned t = 0; t < times && !c->oom; t++) {
        if (c->len == c->room) {
            size_t room = c->room ? 2 * c->room : 64;
            int64_t *ci = realloc(c->ci, room * sizeof *ci);
            if (ci)
                c->ci = ci;
            int64_t *tj = ci ? realloc(c->tj, room * sizeof *tj) : NULL;
            if (!tj) {
                c->oom = 1;
                return;
            }
            c->tj = tj;
            c->room = room;
        }
        c->ci[c->len] = (int64_t)cell;
        c->tj[c->len] = c->j;
        c->len++;
    }
}

/* Fill lu with A (b's effects): 0, or -1 when out of memory. */
static int zn_fill(ml_zn_lu_t *lu, const ml_board *b)
{
    if (b->dense) {
        if (b->n_cells && b->n_taps)
            ml_zn_lu_set_dense(lu, b->dense, (size_t)b->n_taps);
        return 0;
    }
    coo_buf c = {0};
    for (uint64_t j = 0; j < b->n_taps && !c.oom; j++) {
        c.len = 0;
        c.j = (int64_t)j;
        ml__board_each_effect(b, j, coo_effect, &c);
        if (!c.oom && c.len)
            ml_zn_lu_add_coo(lu, c.ci, c.tj, c.len);
    }
    free(c.ci);
    free(c.tj);
    return c.oom ? -1 : 0;
}

static int zn_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    uint64_t m = b->n_cells, r = b->n_taps;
    if (r && m > ZN_MAX_ENTRIES / r)   /* m * r > ZN_MAX_ENTRIES, without the product */
        return ml__fail(ctx, ML_M_ZN_TOO_LARGE, (unsigned long long)m, (unsigned long long)r,
                        (unsigned long long)ZN_MAX_ENTRIES);
    zn_eng *e = calloc(1, sizeof *e);
    if (!e)
        return nomem(ctx, "the Z/n engine");
    e->n = (unsigned)b->n;
    e->m = (size_t)m;
    e->r = (size_t)r;
    int p[ML_MAX_PRIMES], pk[ML_MAX_PRIMES];
    int parts = ml__primes_of(b->n, p, pk);
    for (int i = 0; i < parts; i++) {
        unsigned q = (unsigned)pk[i], rest = e->n / q;
        e->q[i] = q;
        e->idem[i] = rest > 1 ? rest * ml_zn_inv(rest % q, q) % e->n : 1u;
        e->lu[i] = ml_zn_lu_new(e->m, e->r, q);
        e->parts = i + 1;
        if (e->lu[i])
            ml_zn_lu_set_threads(e->lu[i], ml__engine_threads(ctx));
        if (!e->lu[i] || zn_fill(e->lu[i], b) || ml_zn_lu_factor(e->lu[i])) {
            zn_destroy(NULL, e);
            return nomem(ctx, "the Z/n engine");
        }
    }
    *engine = e;
    return ML_OK;
}

/* X (k x r, row-major) from the parts' solutions of the k columns of bt (m x k): the
 * columns solvable in every part set ok; check = 0: G b (no consistency test). */
static int zn_solve_cols(ml_ctx *ctx, zn_eng *e, size_t k, const uint8_t *RT, uint8_t *X,
                         uint8_t *ok, int check)
{
    size_t m = e->m, r = e->r;
    for (size_t j = 0; j < k; j++)
        ok[j] = 1;
    if (!k)
        return ML_OK;
    if (!r) {   /* _LocalLU.solve_t: solvable iff the right-hand side is zero */
        for (size_t i = 0; i < m && check; i++)
            for (size_t j = 0; j < k; j++)
                if (RT[i * k + j])
                    ok[j] = 0;
        return ML_OK;
    }
    uint8_t *bt = malloc(m * k + 1), *xt = malloc(r * k), *okp = malloc(k);
    uint16_t *acc = e->parts > 1 ? calloc(r * k, sizeof *acc) : NULL;
    int rc = ML_OK;
    if (!bt || !xt || !okp || (e->parts > 1 && !acc)) {
        rc = nomem(ctx, "the Z/n engine");
        goto done;
    }
    for (int pi = 0; pi < e->parts; pi++) {
        unsigned q = e->q[pi];
        for (size_t t = 0; t < m * k; t++)
            bt[t] = (uint8_t)(RT[t] % q);
        memset(xt, 0, r * k);
        memset(okp, 1, k);
        if (ml_zn_lu_solve(e->lu[pi], m ? bt : NULL, k, xt, okp, check)) {
            rc = nomem(ctx, "the Z/n engine");
            goto done;
        }
        for (size_t j = 0; j < k; j++)
            ok[j] &= okp[j] ? 1 : 0;
        if (e->parts == 1) {
            for (size_t i = 0; i < r; i++)
                for (size_t j = 0; j < k; j++)
                    X[j * r + i] = xt[i * k + j];
        } else {
            for (size_t i = 0; i < r; i++)
                for (size_t j = 0; j < k; j++)
                    acc[j * r + i] =
                        (uint16_t)((acc[j * r + i] + (unsigned)xt[i * k + j] * e->idem[pi]) %
                                   e->n);
        }
    }
    if (e->parts > 1)
        for (size_t t = 0; t < r * k; t++)
            X[t] = (uint8_t)acc[t];
done:
    free(bt);
    free(xt);
    free(okp);
    free(acc);
    return rc;
}

static int zn_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                    uint8_t *X, uint8_t *ok)
{
    (void)user;
    zn_eng *e = engine;
    size_t m = e->m, r = e->r;
    uint8_t *RT = calloc(m * k + 1, 1);
    if (!RT)
        return nomem(ctx, "the Z/n engine");
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < m; i++)
            RT[i * k + j] = (uint8_t)(R[j * m + i] % e->n);
    int rc = zn_solve_cols(ctx, e, k, RT, X, ok, 1);
    free(RT);
    if (rc == ML_OK)
        for (size_t j = 0; j < k; j++)
            if (!ok[j])
                memset(X + j * r, 0, r);
    return rc;
}

static int zn_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    (void)ctx;
    zn_eng *e = engine;
    uint64_t best = 0;
    for (int i = 0; i < e->parts; i++) {
        uint64_t g = ml_zn_lu_ngens(e->lu[i]);
        if (g > best)
            best = g;
    }
    *nullity = best;
    return ML_OK;
}

static int zn_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    (void)user;
    (void)ctx;
    zn_eng *e = engine;
    uint32_t p[ML_MAX_PRIMES];
    uint64_t ex[ML_MAX_PRIMES];
    for (int i = 0; i < e->parts; i++) {
        p[i] = ml_zn_lu_p(e->lu[i]);
        ex[i] = ml_zn_lu_kernel_log(e->lu[i]);
    }
    factored_of(size, p, ex, e->parts);
    return ML_OK;
}

static int zn_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                         uint8_t *H, uint32_t *orders)
{
    zn_eng *e = engine;
    uint64_t null = 0;
    zn_nullity(user, ctx, engine, &null);
    uint64_t count = limit < null ? limit : null;
    *k = count;
    if (!H || !count)
        return ML_OK;
    size_t r = e->r;
    if (e->parts == 1) {
        unsigned *o = malloc(count * sizeof *o);
        if (!o || ml_zn_lu_generators_range(e->lu[0], 0, (size_t)count, H, o)) {
            free(o);
            return nomem(ctx, "computing kernel generators");
        }
        for (uint64_t i = 0; i < count && orders; i++)
            orders[i] = o[i];
        free(o);
        return ML_OK;
    }
    uint16_t *acc = calloc((size_t)count * r + 1, sizeof *acc);
    uint8_t *h = malloc((size_t)count * r + 1);
    unsigned *o = malloc(count * sizeof *o);
    int rc = ML_OK;
    if (!acc || !h || !o) {
        rc = nomem(ctx, "computing kernel generators");
        goto done;
    }
    for (uint64_t i = 0; i < count; i++)
        if (orders)
            orders[i] = 1;
    for (int pi = 0; pi < e->parts; pi++) {
        size_t g = ml_zn_lu_ngens(e->lu[pi]);
        if (g > count)
            g = (size_t)count;
        if (!g)
            continue;
        if (ml_zn_lu_generators_range(e->lu[pi], 0, g, h, o)) {
            rc = nomem(ctx, "computing kernel generators");
            goto done;
        }
        for (size_t t = 0; t < g * r; t++)
            acc[t] = (uint16_t)((acc[t] + (unsigned)h[t] * e->idem[pi]) % e->n);
        for (size_t i = 0; i < g && orders; i++)
            orders[i] *= o[i];
    }
    for (size_t t = 0; t < (size_t)count * r; t++)
        H[t] = (uint8_t)acc[t];
done:
    free(acc);
    free(h);
    free(o);
    return rc;
}

static int zn_det(void *user, ml_ctx *ctx, void *engine, unsigned *det)
{
    (void)user;
    zn_eng *e = engine;
    if (e->m != e->r)
        return ml__fail(ctx, ML_M_DET_SQUARE, (unsigned long long)e->m,
                        (unsigned long long)e->r);
    unsigned d = 0;
    for (int i = 0; i < e->parts; i++)
        d = e->parts == 1 ? ml_zn_lu_det(e->lu[i])
                          : (d + ml_zn_lu_det(e->lu[i]) * e->idem[i]) % e->n;
    *det = d;
    return ML_OK;
}

static unsigned gcd_u(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* G b for the identity's columns: out (r x m) = the parts' G combined. */
static int zn_identity_solve(ml_ctx *ctx, zn_eng *e, uint8_t *out)
{
    size_t m = e->m, r = e->r;
    if (!m || !r)
        return ML_OK;
    uint8_t *I = calloc(m * m, 1), *X = malloc(m * r), *ok = malloc(m);
    int rc = ML_OK;
    if (!I || !X || !ok) {
        rc = nomem(ctx, "the Z/n engine");
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        I[i * m + i] = 1;
    rc = zn_solve_cols(ctx, e, m, I, X, ok, 0);   /* X: m x r, row j = G e_j */
    if (rc == ML_OK)
        for (size_t i = 0; i < r; i++)
            for (size_t j = 0; j < m; j++)
                out[i * m + j] = X[j * r + i];
done:
    free(I);
    free(X);
    free(ok);
    return rc;
}

static int zn_inverse(void *user, ml_ctx *ctx, void *engine, uint8_t *out)
{
    zn_eng *e = engine;
    if (e->m != e->r)
        return ml__fail(ctx, ML_M_INVERSE_SQUARE, (unsigned long long)e->m,
                        (unsigned long long)e->r);
    for (int i = 0; i < e->parts; i++)
        if (ml_zn_lu_unit_rank(e->lu[i]) < e->m) {
            unsigned d = 0;
            zn_det(user, ctx, engine, &d);
            return ml__fail(ctx, ML_M_SINGULAR, (int)e->n, d, gcd_u(d, e->n));
        }
    return zn_identity_solve(ctx, e, out);
}

static int zn_pseudo_inverse(void *user, ml_ctx *ctx, void *engine, uint8_t *out)
{
    (void)user;
    zn_eng *e = engine;
    for (int i = 0; i < e->parts; i++) {
        size_t rk = ml_zn_lu_rank(e->lu[i]), ur = ml_zn_lu_unit_rank(e->lu[i]);
        if (rk > ur)
            return ml__fail(ctx, ML_M_NO_PSEUDO_INVERSE, (int)e->n, e->q[i],
                            (unsigned long long)(rk - ur));
    }
    if (e->r && e->m)
        memset(out, 0, e->r * e->m);
    return zn_identity_solve(ctx, e, out);
}

const ml_engine_def ml__dense_zn_ops = {
    .size = sizeof(ml_engine_def),
    .name = "dense-zn",
    .build = zn_build,
    .destroy = zn_destroy,
    .solve = zn_solve,
    .nullity = zn_nullity,
    .kernel_size = zn_kernel_size,
    .generators = zn_generators,
    .det = zn_det,
    .inverse = zn_inverse,
    .pseudo_inverse = zn_pseudo_inverse,
};

const ml_engine_def *ml__dense_ops_for(int n)
{
    return n == 2 ? &ml__dense_gf2_ops : &ml__dense_zn_ops;
}
