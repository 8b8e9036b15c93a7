/* chase_row.c: the chase's row-chase variant "chase-row" (engines/chase.h), rowchase.py's
 * RowChaseSystem over the row-state chase of chase/rowchase.h: no residual matrix is
 * built, so boards with many holes or locks (or a tall residual system) fit.
 *
 * n = prod q_j (q_j = p_j^e_j, p_j ascending) is chased once a factor, mod q_j, on the
 * light chase's plan mod n (every forcing coefficient is a unit mod n, so mod q_j).
 * Build: RowChaseSystem's limits (records: ML_M_ROWCHASE_RECORDS; live rows and work:
 * ML_M_ROWCHASE_LIVE). A factor's first run is its kernel run (its records and pending
 * system give the kernel whatever its right-hand sides): the first solve's, or one
 * without right-hand sides when the kernel is asked first (kernel_parts). Over Z/p^e
 * equations without a unit coefficient are left pending: their system over the free
 * symbols is checked against the residual limit and factored by the Z/q engine
 * (dense/zn.h, valuation pivots), as _Part.take makes a ZnEngine of it.
 *
 * nullity: the most over the factors (free symbols, or the pending system's generators);
 * |ker A|: the product (q^free, or the pending system's kernel). generators: the i-th
 * generators of the factors over the free symbols (unit vectors, or the pending
 * system's), pushed through each factor's records, combined by the CRT idempotents
 * (x = sum x_j e_j mod n) and replayed numerically with b = 0; their orders multiply.
 * solve: right-hand sides ROWCHASE_BATCH at a time (64 for q = 2, 3, else 16), one run a
 * factor with them: consistency checks, the pending system solved for the free
 * symbols, symbol values by the records, CRT, one numeric replay mod n (which must
 * leave no residual: ML_EINTERNAL otherwise).
 *
 * Errors: ML_ENOMEM "out of memory in the chase engine"; ML_EINTERRUPTED when a run
 * or the generator loop is stopped (ml_interrupt_*); ML_ETOOLARGE with the row chase's
 * messages. Cost: a run is O(h w x pattern x live width / word) plus the records. */
#include "engines/chase.h"
#include "engines/chase_impl.h"

#include "api/board.h"
#include "api/ctx.h"
#include "base/interrupt.h"
#include "base/modn.h"
#include "chase/rowchase.h"
#include "dense/zn.h"

#include <stdlib.h>
#include <string.h>

/* limits.py's MAX_RESIDUAL_BYTES and MAX_RESIDUAL_WORK, which engine.py passes to
 * RowChaseSystem as max_bytes and max_work */
#define ROW_MAX_BYTES ((uint64_t)1 << 30)
#define ROW_MAX_WORK ((uint64_t)1 << 38)
/* rowchase.py's ROWCHASE_BATCH (q = 2, 3) and ROWCHASE_BATCH_DEFAULT */
#define ROW_BATCH_BITS 64
#define ROW_BATCH_BYTES 16

typedef unsigned __int128 u128;

typedef struct row_part {
    unsigned q, p, e, idem;
    ml_rowchase *run;   /* the kernel run (no right-hand sides) */
    size_t nfree, npend;
    ml_zn_lu_t *pend;   /* its pending system over the free symbols (npend and nfree > 0) */
} row_part;

typedef struct row_eng {
    const ml_board *b;
    ml_chase *plan;
    int own, transposed, n, h, w, nparts;
    size_t hw, m, r, nsym, nres;
    row_part part[4];
} row_eng;

static int nomem(ml_ctx *ctx) { return ml__fail(ctx, ML_M_NOMEM, "the chase engine"); }

/* rowchase.py's _row_bytes: bytes of a row of `width` live symbols mod q */
static uint64_t row_bytes(uint64_t width, unsigned q)
{
    return q <= 3 ? (width + 63) / 64 * 8 * (q - 1) : width;
}

static double mib(u128 bytes) { return (double)bytes / 1048576.0; }

/* RowChaseSystem.__init__'s checks: the records' estimate, then the live rows and the
 * work a factor by the live width's lower bound. */
static int check_limits(ml_ctx *ctx, const row_eng *e)
{
    uint64_t elims = e->nsym < e->nres ? e->nsym : e->nres;
    u128 need = 0;
    for (int j = 0; j < e->nparts; j++)
        need += (u128)elims * row_bytes((uint64_t)e->w, e->part[j].q) / 2;
    if (need > ROW_MAX_BYTES)
        return ml__fail(ctx, ML_M_ROWCHASE_RECORDS, mib(need), (unsigned long long)elims,
                        (unsigned long long)e->w, e->n, mib(ROW_MAX_BYTES));
    size_t width = ml_rowchase_min_width(e->plan);
    if (width == (size_t)-1)
        return nomem(ctx);
    uint64_t slots = ml_chase_slots(e->plan);
    for (int j = 0; j < e->nparts; j++) {
        unsigned q = e->part[j].q;
        uint64_t row = row_bytes(width, q);
        u128 work = (u128)e->h * (u128)e->w * (q <= 3 ? row / 8 : row / 16);
        u128 bytes = (u128)slots * row;
        if (bytes > ROW_MAX_BYTES || work > ROW_MAX_WORK)
            return ml__fail(ctx, ML_M_ROWCHASE_LIVE, (unsigned long long)width,
                            (unsigned long long)slots, mib(bytes),
                            ml__chase_bit_length(work ? work : 1) - 1, mib(ROW_MAX_BYTES),
                            ml__chase_bit_length(ROW_MAX_WORK) - 1);
    }
    return ML_OK;
}

/* One run of the plan mod q over k right-hand sides B (k x hw, plan layout). */
static int run(ml_ctx *ctx, const row_eng *e, unsigned q, const uint8_t *B, size_t k,
               ml_rowchase **out)
{
    int err = 0;
    *out = ml_rowchase_run(e->plan, (int)q, k ? B : NULL, k, (size_t)ROW_MAX_BYTES, &err);
    if (*out)
        return ML_OK;
    switch (err) {
    case 2:
        return nomem(ctx);
    case 3:
        return ml__fail(ctx, ML_M_INTERRUPTED);
    case 4:
        return ml__fail(ctx, ML_M_ROWCHASE_BYTES, mib(ROW_MAX_BYTES));
    default:
        return ml__fail(ctx, ML_M_INTERNAL, "the chase engine",
                        "the row chase refused its plan's modulus");
    }
}

/* _Part.take: keep `r` (owned from here on) as part t's kernel run, the part's first
 * run with or without right-hand sides (its records and pending system do not depend
 * on them), and factor its pending system by the Z/q engine. On an error (a pending
 * system past the residual limit, no memory) t is left without a run and r stays the
 * caller's. */
static int keep(ml_ctx *ctx, row_part *t, ml_rowchase *r)
{
    size_t nfree = ml_rowchase_nfree(r), npend = ml_rowchase_npending(r);
    int rc = ML_OK;
    ml_zn_lu_t *lu = NULL;
    if (npend)
        rc = ml__chase_check_residual_size(ctx, npend, nfree, (int)t->q);
    if (rc == ML_OK && npend && nfree) {   /* no free symbol: the pending are checks */
        uint8_t *a = malloc(npend * nfree + 1);
        lu = ml_zn_lu_new(npend, nfree, t->q);
        if (a && lu) {
            ml_rowchase_pending(r, a, NULL);
            ml_zn_lu_set_dense(lu, a, nfree);
        }
        if (!a || !lu || ml_zn_lu_factor(lu))
            rc = nomem(ctx);
        free(a);
    }
    if (rc) {
        ml_zn_lu_free(lu);
        return rc;
    }
    t->run = r;
    t->nfree = nfree;
    t->npend = npend;
    t->pend = lu;
    return ML_OK;
}

/* Every part with its kernel run: a run without right-hand sides for a part that no
 * solve has run yet (RowChaseSystem._kernel_parts). */
static int kernel_parts(ml_ctx *ctx, row_eng *e)
{
    for (int j = 0; j < e->nparts; j++) {
        row_part *t = &e->part[j];
        if (t->run)
            continue;
        ml_rowchase *r = NULL;
        int rc = run(ctx, e, t->q, NULL, 0, &r);
        if (rc == ML_OK && (rc = keep(ctx, t, r)) != ML_OK)
            ml_rowchase_free(r);
        if (rc)
            return rc;
    }
    return ML_OK;
}

static void row_destroy(void *user, void *engine)
{
    (void)user;
    row_eng *e = engine;
    if (!e)
        return;
    for (int j = 0; j < e->nparts; j++) {
        ml_rowchase_free(e->part[j].run);
        ml_zn_lu_free(e->part[j].pend);
    }
    if (e->own)
        ml_chase_free(e->plan);
    free(e);
}

int ml__chase_row_new(ml_ctx *ctx, const ml_board *b, ml_chase *plan, int transposed, int own,
                      void **engine)
{
    row_eng *e = calloc(1, sizeof *e);
    if (!e) {
        if (own)
            ml_chase_free(plan);
        return nomem(ctx);
    }
    e->b = b;
    e->plan = plan;
    e->own = own;
    e->transposed = transposed;
    ml_chase_geometry(plan, &e->h, &e->w, &e->n);
    e->hw = (size_t)e->h * (size_t)e->w;
    e->m = (size_t)b->n_cells;
    e->r = (size_t)b->n_taps;
    e->nsym = ml_chase_nsym(plan);
    e->nres = ml_chase_nres(plan);
    unsigned q[4], p[4], ex[4], idem[4];
    int np = ml_prime_powers((unsigned)e->n, q, p, ex, idem);
    for (int j = 0; j < np; j++)
        e->part[j] = (row_part){q[j], p[j], ex[j], idem[j], NULL, 0, 0, NULL};
    e->nparts = np;
    int rc = check_limits(ctx, e);   /* the kernel runs: on first use (kernel_parts) */
    if (rc) {
        row_destroy(NULL, e);
        return rc;
    }
    *engine = e;
    return ML_OK;
}

/* ChaseEngine(variant="row"): the row chase forced, on the light chase's plan */
static int row_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    if (b->kind != ML_BOARD_GRID || b->giant)
        return ml__fail_text(ctx, ML_EINVAL, ML_M_INTERNAL,
                             "the chase engine needs a grid board of at most ML_MAX_TILES "
                             "tiles");
    int rc = ML_OK, t = 0;
    ml_chase *plan = ml__chase_light_plan(ctx, b, &t, &rc, NULL);
    if (!plan)
        return rc;
    return ml__chase_row_new(ctx, b, plan, t, 1, engine);
}

/* ------------------------------------------------------------------ questions */
static uint64_t part_nullity(const row_part *t)
{
    if (!t->npend)
        return t->nfree;
    return t->pend ? ml_zn_lu_ngens(t->pend) : 0;
}

static int row_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    row_eng *e = engine;
    int rc = kernel_parts(ctx, e);
    if (rc)
        return rc;
    uint64_t k = 0;
    for (int j = 0; j < e->nparts; j++) {
        uint64_t x = part_nullity(&e->part[j]);
        k = x > k ? x : k;
    }
    *nullity = k;
    return ML_OK;
}

static int row_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    (void)user;
    row_eng *e = engine;
    int rc = kernel_parts(ctx, e);
    if (rc)
        return rc;
    memset(size, 0, sizeof *size);
    for (int j = 0; j < e->nparts; j++) {
        const row_part *t = &e->part[j];
        uint64_t x = !t->npend ? (uint64_t)t->e * t->nfree
                               : (t->pend ? ml_zn_lu_kernel_log(t->pend) : 0);
        if (x) {
            size->prime[size->count] = t->p;
            size->exp[size->count] = x;
            size->count++;
        }
    }
    return ML_OK;
}

/* x (plan layout) -> over the board's taps */
static void tap_vec(const row_eng *e, const uint8_t *x, uint8_t *out)
{
    ml__chase_from_plan(e->b, e->transposed, x, out);
}

static int any(const uint8_t *v, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (v[i])
            return 1;
    return 0;
}

/* The numeric replay mod n with symbol values z (and b, plan layout): taps x, then the
 * check that it leaves no residual (RowChaseSystem's internal error otherwise). */
static int replay(ml_ctx *ctx, const row_eng *e, const uint8_t *bg, const uint8_t *z,
                  uint8_t *x, uint8_t *rho, const char *what)
{
    ml_chase_numeric(e->plan, bg, z, x, rho);
    if (e->nres && any(rho, e->nres))
        return ml__fail(ctx, ML_M_INTERNAL, "the chase engine", what);
    return ML_OK;
}

/* z += zq * idem (mod n), over the nsym symbols */
static void crt_add(const row_eng *e, const row_part *t, uint8_t *z, const uint8_t *zq)
{
    for (size_t s = 0; s < e->nsym; s++)
        z[s] = (uint8_t)(((unsigned)z[s] + (unsigned)zq[s] * t->idem) % (unsigned)e->n);
}

static int row_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                          uint8_t *H, uint32_t *orders)
{
    const row_eng *e = engine;
    uint64_t null = 0;
    int rc = row_nullity(user, ctx, engine, &null);
    if (rc)
        return rc;
    uint64_t count = limit < null ? limit : null;
    *k = count;
    if (!H || !count)
        return ML_OK;
    size_t nsym = e->nsym;
    uint8_t *U[4] = {NULL, NULL, NULL, NULL};
    unsigned *ord[4] = {NULL, NULL, NULL, NULL};
    uint64_t g[4] = {0, 0, 0, 0};
    uint8_t *z = malloc(nsym + 1), *zq = malloc(nsym + 1), *u = NULL;
    uint8_t *zero = calloc(e->hw + 1, 1), *x = malloc(e->hw + 1), *rho = malloc(e->nres + 1);
    size_t umax = 0;
    if (!z || !zq || !zero || !x || !rho)
        goto oom;
    for (int j = 0; j < e->nparts; j++) {   /* _Part.free_generators */
        const row_part *t = &e->part[j];
        uint64_t nj = part_nullity(t);
        g[j] = count < nj ? count : nj;
        umax = t->nfree > umax ? t->nfree : umax;
        if (!t->pend || !g[j])
            continue;
        U[j] = malloc((size_t)g[j] * t->nfree + 1);
        ord[j] = malloc((size_t)g[j] * sizeof *ord[j]);
        if (!U[j] || !ord[j] || ml_zn_lu_generators_range(t->pend, 0, (size_t)g[j], U[j], ord[j]))
            goto oom;
    }
    u = calloc(umax + 1, 1);
    if (!u)
        goto oom;
    for (uint64_t i = 0; i < count && rc == ML_OK; i++) {
        if (ml_interrupt_poll()) {
            rc = ml__fail(ctx, ML_M_INTERRUPTED);
            break;
        }
        memset(z, 0, nsym);
        uint32_t o = 1;
        for (int j = 0; j < e->nparts; j++) {
            const row_part *t = &e->part[j];
            if (i >= g[j])
                continue;
            const uint8_t *ui = u;
            if (t->pend) {
                ui = U[j] + (size_t)i * t->nfree;
                o *= ord[j][i];
            } else {   /* the unit vector of free symbol i */
                memset(u, 0, t->nfree);
                u[i] = 1;
                o *= t->q;
            }
            if (ml_rowchase_symbols(t->run, -1, ui, zq))
                goto oom;
            crt_add(e, t, z, zq);
        }
        rc = replay(ctx, e, zero, z, x, rho,
                    "the row chase: a kernel vector fails the replay");
        if (rc == ML_OK)
            tap_vec(e, x, H + i * e->r);
        if (orders)
            orders[i] = o;
    }
    goto done;
oom:
    rc = nomem(ctx);
done:
    for (int j = 0; j < 4; j++) {
        free(U[j]);
        free(ord[j]);
    }
    free(z);
    free(zq);
    free(u);
    free(zero);
    free(x);
    free(rho);
    return rc;
}

/* Working memory of a solve batch of at most `step` right-hand sides. */
typedef struct batch {
    uint8_t *B, *Z, *good, *okr, *zq, *x, *rho, *a, *c, *bt, *xt, *okp, *u;
    size_t step, pa, pc, fr;   /* the pending buffers' capacities (pend_fit) */
} batch;

static void batch_free(batch *w)
{
    uint8_t **f[] = {&w->B,  &w->Z,  &w->good, &w->okr, &w->zq,  &w->x, &w->rho,
                     &w->a,  &w->c,  &w->bt,   &w->xt,  &w->okp, &w->u};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        free(*f[i]);
        *f[i] = NULL;
    }
}

static int batch_new(const row_eng *e, size_t step, batch *w)
{
    memset(w, 0, sizeof *w);
    w->step = step;
    w->B = malloc(step * e->hw + 1);
    w->Z = malloc(step * e->nsym + 1);
    w->good = malloc(step + 1);
    w->okr = malloc(step + 1);
    w->zq = malloc(e->nsym + 1);
    w->x = malloc(e->hw + 1);
    w->rho = malloc(e->nres + 1);
    w->okp = malloc(step + 1);
    return w->B && w->Z && w->good && w->okr && w->zq && w->x && w->rho && w->okp;
}

/* The pending system's buffers grown to part t's sizes (its kernel run known); 0 when
 * out of memory. */
static int pend_fit(batch *w, const row_part *t)
{
    size_t pa = t->npend * t->nfree, step = w->step;
    uint8_t *p;
    if (!w->a || pa > w->pa) {
        if (!(p = realloc(w->a, pa + 1)))
            return 0;
        w->a = p;
        w->pa = pa;
    }
    if (!w->c || t->npend > w->pc) {
        if (!(p = realloc(w->c, t->npend * step + 1)))
            return 0;
        w->c = p;
        if (!(p = realloc(w->bt, t->npend * step + 1)))
            return 0;
        w->bt = p;
        w->pc = t->npend;
    }
    if (!w->xt || t->nfree > w->fr) {
        if (!(p = realloc(w->xt, t->nfree * step + 1)))
            return 0;
        w->xt = p;
        if (!(p = realloc(w->u, t->nfree + 1)))
            return 0;
        w->u = p;
        w->fr = t->nfree;
    }
    return 1;
}

/* _Part.free_values and the symbols of one part's run R over the kc right-hand sides
 * of the batch: good[j] &= solvable mod q; Z[j] += its symbol values x idem. */
static int solve_part(ml_ctx *ctx, const row_eng *e, const row_part *t, ml_rowchase *R,
                      size_t kc, batch *w)
{
    ml_rowchase_ok(R, w->okr);
    for (size_t j = 0; j < kc; j++)
        w->good[j] &= w->okr[j] ? 1 : 0;
    if (t->npend) {   /* the pending system: A u = -C (mod q) */
        ml_rowchase_pending(R, w->a, w->c);
        for (size_t s = 0; s < t->npend * kc; s++)
            w->bt[s] = (uint8_t)((t->q - w->c[s] % t->q) % t->q);
        memset(w->okp, 1, kc);
        if (t->pend) {
            if (ml_zn_lu_solve(t->pend, w->bt, kc, w->xt, w->okp, 1))
                return nomem(ctx);
        } else {   /* no free symbol: solvable where the constants vanish */
            for (size_t s = 0; s < t->npend * kc; s++)
                if (w->bt[s])
                    w->okp[s % kc] = 0;
        }
        for (size_t j = 0; j < kc; j++)
            w->good[j] &= w->okp[j] ? 1 : 0;
    }
    for (size_t j = 0; j < kc; j++) {
        if (!w->good[j])
            continue;
        const uint8_t *u = NULL;
        if (t->pend) {
            for (size_t i = 0; i < t->nfree; i++)
                w->u[i] = w->xt[i * kc + j];
            u = w->u;
        }
        if (ml_rowchase_symbols(R, (long)j, u, w->zq))
            return nomem(ctx);
        crt_add(e, t, w->Z + j * e->nsym, w->zq);
    }
    return ML_OK;
}

static int row_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                     uint8_t *X, uint8_t *ok)
{
    (void)user;
    row_eng *e = engine;
    size_t step = ROW_BATCH_BITS;
    for (int j = 0; j < e->nparts; j++)
        if (e->part[j].q > 3)
            step = ROW_BATCH_BYTES;
    step = k < step ? (k ? k : 1) : step;
    batch w;
    int rc = ML_OK;
    if (!batch_new(e, step, &w)) {
        batch_free(&w);
        return nomem(ctx);
    }
    for (size_t a = 0; a < k && rc == ML_OK; a += step) {
        size_t kc = k - a < step ? k - a : step;
        for (size_t j = 0; j < kc; j++)   /* _b_grid */
            ml__chase_to_plan(e->b, e->transposed, R + (a + j) * e->m, w.B + j * e->hw);
        memset(w.good, 1, kc);
        memset(w.Z, 0, kc * e->nsym);
        for (int p = 0; p < e->nparts && rc == ML_OK; p++) {
            row_part *t = &e->part[p];
            ml_rowchase *run_p = NULL;
            rc = run(ctx, e, t->q, w.B, kc, &run_p);
            if (rc == ML_OK && !t->run)   /* the part's first run: its kernel run too */
                rc = keep(ctx, t, run_p);
            if (rc == ML_OK && !pend_fit(&w, t))
                rc = nomem(ctx);
            if (rc == ML_OK)
                rc = solve_part(ctx, e, t, run_p, kc, &w);
            if (run_p != t->run)
                ml_rowchase_free(run_p);
        }
        for (size_t j = 0; j < kc && rc == ML_OK; j++) {
            ok[a + j] = w.good[j];
            if (!w.good[j])
                continue;
            rc = replay(ctx, e, w.B + j * e->hw, w.Z + j * e->nsym, w.x, w.rho,
                        "the row chase: a solution fails the replay");
            if (rc == ML_OK)
                tap_vec(e, w.x, X + (a + j) * e->r);
        }
    }
    for (size_t i = 0; i < k && rc == ML_OK; i++)
        if (!ok[i] && e->r)
            memset(X + i * e->r, 0, e->r);
    batch_free(&w);
    return rc;
}

const ml_engine_def ml__chase_row_ops = {
    .size = sizeof(ml_engine_def),
    .name = "chase-row",
    .build = row_build,
    .destroy = row_destroy,
    .solve = row_solve,
    .nullity = row_nullity,
    .kernel_size = row_kernel_size,
    .generators = row_generators,
};
