/* lifted.c: the "lifted" engine (lifted.h): an engine over GF(p) for each prime p of a
 * composite n, lifted to Z/p^k and combined by CRT. The engine over GF(p) is the
 * registry's choice among the algebraic engines (ml__field_engine: the cross's, the
 * torus's, the symmetric patterns'), for the board read mod p.
 *
 * n = prod q_j, q_j = p_j^k_j (ascending p_j, ml_prime_powers). Every factor gets the
 * engine over GF(p_j) of the same grid (the pattern's offsets as given, tori too), then
 * a kind: "lift" when its nullity is 0 (A invertible mod p, so mod p^k), "field" when
 * k = 1 (that engine answers), else a part over Z/p^k: the algebra over Z/p^k
 * (engines/lifted_cross.h: one polynomial equation) when the engine over GF(p) is
 * algebraic-cross or algebraic-sym (no wrap) and it takes the board, on tori the torus
 * algebra over Z/p^k (engines/lifted_torus.h) when it takes the board, else the
 * choosing chase engine (ml__chase_choose_ops) of the same grid over Z/p^k (on
 * algebraic-sym-odd's boards first engines/lifted_odd.h's split over Z/p^k). An
 * invertible factor of a torus is the torus algebra's too when its torus2 orientation's
 * span S has S + 3 <= RATIO k, RATIO measured (registry_costs.h:
 * ML__LIFTED_TORUS_RATIO_2, _ODD; torus_algebra_first), a lift when it declines. A lift
 * part solves A x = b (mod p^k) digit by digit: with r = b, m = p^k, at step i the
 * GF(p) engine solves A y = r (mod p), x += p^i y, r = ((r - A y) mod m) / p (exact)
 * and m /= p: k GF(p) solves and k - 1 stencil products (wrapped on tori), O(k h w).
 * Solutions and kernel generators are combined with the CRT idempotents e_j (1 mod q_j,
 * 0 mod n / q_j): x = sum x_j e_j mod n, the i-th generators of the parts added up
 * (their orders multiplied); rows unsolvable in some part are zero. nullity is the most
 * over the non-lift parts, the kernel size their product. Every allocation is checked
 * ("out of memory in the lifted engine"). */
#include "engines/lifted.h"

#include "api/board.h"
#include "api/ctx.h"
#include "base/modn.h"
#include "api/registry_costs.h"
#include "api/registry_impl.h"
#include "engines/algebraic.h"
#include "engines/algebraic_impl.h"
#include "engines/chase.h"
#include "engines/lifted_cross.h"
#include "engines/lifted_torus.h"
#include "engines/torus2.h"
#include "engines/lifted_odd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LIFT, FIELD, CHASE };

typedef struct {
    unsigned p, k, q, idem;
    int kind;
    char why[96];               /* why this strategy (ml__lifted_parts_text) */
    const ml_engine_def *ops;   /* the engine over GF(p) (lift, field) or the choosing chase */
    void *eng;                  /* its engine over GF(p), or over Z/p^k (chase) */
    ml_board *board;            /* the board it was built over */
} lpart;

typedef struct {
    unsigned n;
    int wrap;                   /* a torus */
    size_t rows, cols, count;   /* the grid and its pattern's offsets */
    int32_t *dr, *dc;
    int nparts;
    lpart part[4];
} lift_eng;

static int nomem(ml_ctx *ctx) { return ml__fail(ctx, ML_M_NOMEM, "the lifted engine"); }

static void lift_destroy(void *user, void *engine)
{
    (void)user;
    lift_eng *e = engine;
    if (!e)
        return;
    for (int i = 0; i < e->nparts; i++) {
        if (e->part[i].eng)
            e->part[i].ops->destroy(NULL, e->part[i].eng);
        ml_board_free(e->part[i].board);
    }
    free(e->dr);
    free(e->dc);
    free(e);
}

/* _board_mod: the same uniform grid (a torus too) over Z/p (the offsets as given) */
static int board_mod(ml_ctx *ctx, const ml_board *b, unsigned p, ml_board **out)
{
    const ml__pattern *pt = &b->pal[0];
    size_t m = pt->count;
    int64_t *dr = malloc((m + 1) * sizeof *dr), *dc = malloc((m + 1) * sizeof *dc);
    if (!dr || !dc) {
        free(dr);
        free(dc);
        return nomem(ctx);
    }
    for (size_t i = 0; i < m; i++) {
        dr[i] = pt->dr[i];
        dc[i] = pt->dc[i];
    }
    ml_grid *g = NULL;
    int rc = ml_grid_new(ctx, b->rows, b->cols, (int)p, &g);
    if (!rc)
        rc = ml_grid_set_offsets(ctx, g, m, dr, dc);
    if (!rc && b->wrap)
        rc = ml_grid_set_wrap(ctx, g, 1);
    if (!rc)
        rc = ml_grid_build(ctx, g, out);
    ml_grid_free(g);
    free(dr);
    free(dc);
    return rc;
}

/* MODLIGHTS_LIFTED_PARTS, for bench engine-costs (which times both strategies) and the
 * tests of the algebra on small boards: "algebra" (1) the algebra over Z/p^k for every
 * part it takes (a torus invertible mod p, a singular part of rank up to 512), "plain"
 * (-1) none (digit by digit, the chase); unset or anything else (0): the table's rules. */
static int forced(void)
{
    const char *s = getenv("MODLIGHTS_LIFTED_PARTS");
    return !s ? 0 : !strcmp(s, "algebra") ? 1 : !strcmp(s, "plain") ? -1 : 0;
}

size_t ml__lifted_zq_mmax(size_t w, int sym)
{
    int f = forced();
    double m = (double)w * (sym ? ML__LIFTED_ZQ_RHO_SYM : ML__LIFTED_ZQ_RHO_CROSS);
    return f > 0 ? ML__LIFTED_ZQ_MMAX : f < 0 ? 0 : m < ML__LIFTED_ZQ_MMAX ? (size_t)m
                                                                            : ML__LIFTED_ZQ_MMAX;
}

/* Whether a part over Z/p^k (k > 1) of a torus, invertible mod p, is solved by the torus
 * algebra (lifted_torus.h: span + 1 chases over Z/q to build, two a solve) rather than
 * digit by digit (k solves over GF(p), k - 1 stencil products): when the board has a
 * torus2 orientation mod p (its span in *span) and span + 3 <= RATIO k, RATIO a digit
 * step's time over a chase's (registry_costs.h: ML__LIFTED_TORUS_RATIO_2 for p = 2,
 * _ODD else, measured by bench engine-costs), or as MODLIGHTS_LIFTED_PARTS forces. The
 * rule's text in why (cap bytes). */
static int torus_algebra_first(const ml_board *b, unsigned p, unsigned k, char *why,
                               size_t cap)
{
    ml__t2_orient o;
    if (ml__torus2_orient_mod(b, p, &o) != 1) {
        snprintf(why, cap, "invertible mod %u: digit by digit (no torus2 orientation)", p);
        return 0;
    }
    int f = forced();
    double ratio = p == 2 ? ML__LIFTED_TORUS_RATIO_2 : ML__LIFTED_TORUS_RATIO_ODD;
    int alg = f ? f > 0 : (double)(o.span + 3) <= ratio * (double)k;
    if (f)
        snprintf(why, cap, "invertible mod %u: %s (MODLIGHTS_LIFTED_PARTS)", p,
                 alg ? "the torus algebra" : "digit by digit");
    else
        snprintf(why, cap, "invertible mod %u: %s (span %zu + 3 %s %g x k = %u)", p,
                 alg ? "the torus algebra" : "digit by digit", o.span, alg ? "<=" : ">",
                 ratio, k);
    return alg;
}

/* the why of a singular part the algebra over Z/p^k took, of rank m, rows of length w
 * (sym: the symmetric patterns' rule) */
static void why_rank(lpart *t, size_t m, size_t w, int sym)
{
    if (forced())
        snprintf(t->why, sizeof t->why,
                 "singular mod %u: the algebra over Z/%u (rank m %zu, w %zu; "
                 "MODLIGHTS_LIFTED_PARTS)", t->p, t->q, m, w);
    else
        snprintf(t->why, sizeof t->why,
                 "singular mod %u: the algebra over Z/%u (rank m %zu <= %g w, w %zu)", t->p,
                 t->q, m, sym ? ML__LIFTED_ZQ_RHO_SYM : ML__LIFTED_ZQ_RHO_CROSS, w);
}

static int lift_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    unsigned q[4], p[4], ex[4], idem[4];
    int np = b->kind == ML_BOARD_GRID && b->n >= 2 ? ml_prime_powers((unsigned)b->n, q, p, ex, idem) : 0;
    if (!np || (np == 1 && ex[0] == 1) || b->mixed || b->locked || b->holes || b->giant ||
        b->rows < 1 || b->cols < 1)
        return ml__fail(ctx, ML_M_INTERNAL, "lifted",
                        "the board is not covered (the registry's covers)");
    const ml__pattern *pt = &b->pal[0];
    lift_eng *e = calloc(1, sizeof *e);
    if (!e)
        return nomem(ctx);
    e->n = (unsigned)b->n;
    e->wrap = b->wrap;
    e->rows = (size_t)b->rows;
    e->cols = (size_t)b->cols;
    e->count = pt->count;
    e->dr = malloc((pt->count + 1) * sizeof *e->dr);
    e->dc = malloc((pt->count + 1) * sizeof *e->dc);
    if (!e->dr || !e->dc) {
        lift_destroy(NULL, e);
        return nomem(ctx);
    }
    if (pt->count) {
        memcpy(e->dr, pt->dr, pt->count * sizeof *e->dr);
        memcpy(e->dc, pt->dc, pt->count * sizeof *e->dc);
    }
    int rc = ML_OK;
    for (int j = 0; j < np && !rc; j++) {
        lpart *t = &e->part[j];
        const ml_engine_def *field = ml__field_engine(b, (int)p[j], NULL, 0);
        *t = (lpart){p[j], ex[j], q[j], idem[j], LIFT, "", field, NULL, NULL};
        e->nparts = j + 1;
        if (!field) {
            rc = ml__fail(ctx, ML_M_INTERNAL, "lifted",
                          "the board is not covered (the registry's covers)");
            break;
        }
        rc = board_mod(ctx, b, p[j], &t->board);
        if (!rc)
            rc = field->build(NULL, ctx, t->board, &t->eng);
        if (rc)
            break;
        uint64_t null = 0;
        rc = field->nullity(NULL, ctx, t->eng, &null);
        if (rc)
            break;
        if (!null)
            snprintf(t->why, sizeof t->why, "invertible mod %u: digit by digit", p[j]);
        if (!null && b->wrap && ex[j] > 1 &&
            torus_algebra_first(b, p[j], ex[j], t->why, sizeof t->why)) {
            void *zq = NULL;   /* the torus algebra (declined: the lift) */
            rc = ml__zq_torus_new(ctx, b, p[j], ex[j], &zq);
            if (!rc && !zq)
                snprintf(t->why, sizeof t->why,
                         "invertible mod %u: digit by digit (the torus algebra declines)",
                         p[j]);
            if (!rc && zq) {
                field->destroy(NULL, t->eng);
                t->eng = zq;
                ml_board_free(t->board);
                t->board = NULL;
                t->kind = CHASE;
                t->ops = &ml__zq_torus_ops;
            }
        } else if (!null) {
            t->kind = LIFT;
        } else if (ex[j] == 1) {
            t->kind = FIELD;
            snprintf(t->why, sizeof t->why, "singular mod %u: the engine over GF(%u)", p[j],
                     p[j]);
        } else {   /* the algebra over Z/p^k (the cross's), else the choosing chase */
            snprintf(t->why, sizeof t->why, "singular mod %u: the algebra over Z/%u", p[j],
                     q[j]);
            t->kind = CHASE;
            field->destroy(NULL, t->eng);
            t->eng = NULL;
            ml_board_free(t->board);
            t->board = NULL;
            if (b->wrap) {   /* the torus algebra over Z/p^k */
                rc = ml__zq_torus_new(ctx, b, p[j], ex[j], &t->eng);
                if (rc || t->eng) {
                    t->ops = &ml__zq_torus_ops;
                    continue;
                }
            }
            if (field == &ml__algebraic_sym_odd_ops && !b->wrap) {   /* lifted_odd.h */
                rc = ml__zq_odd_new(ctx, b, p[j], ex[j], &t->eng);
                if (rc || t->eng) {
                    t->ops = &ml__zq_odd_ops;
                    if (t->eng)
                        {
                        size_t m = 0, w = 0;
                        ml__zq_odd_rank(t->eng, &m, &w);
                        why_rank(t, m, w, 1);
                    }
                    continue;
                }
            }
            int sym = field == &ml__algebraic_sym_ops;
            if ((sym || field == &ml__algebraic_cross_ops) && !b->wrap) {
                rc = ml__zq_cross_new(ctx, b, p[j], ex[j], sym, &t->eng);
                if (rc || t->eng) {
                    t->ops = &ml__zq_cross_ops;
                    if (t->eng)
                        {
                        size_t m = 0, w = 0;
                        ml__zq_cross_rank(t->eng, &m, &w);
                        why_rank(t, m, w, sym);
                    }
                    continue;
                }
            }
            t->ops = &ml__chase_choose_ops;
            snprintf(t->why, sizeof t->why,
                     "singular mod %u: the chase over Z/%u (%s)", p[j], q[j],
                     forced() < 0 ? "MODLIGHTS_LIFTED_PARTS"
                     : b->wrap    ? "no algebra over Z/p^k takes it"
                                  : "no algebra over Z/p^k takes it, or its rank m > RHO w");
            rc = board_mod(ctx, b, q[j], &t->board);
            if (!rc)
                rc = t->ops->build(NULL, ctx, t->board, &t->eng);
        }
    }
    if (rc) {
        lift_destroy(NULL, e);
        return rc;
    }
    *engine = e;
    return ML_OK;
}

static int nullity_of(ml_ctx *ctx, const lift_eng *e, uint64_t *nullity)
{
    uint64_t k = 0;
    for (int j = 0; j < e->nparts; j++) {
        if (e->part[j].kind == LIFT)
            continue;
        uint64_t x = 0;
        int rc = e->part[j].ops->nullity(NULL, ctx, e->part[j].eng, &x);
        if (rc)
            return rc;
        k = x > k ? x : k;
    }
    *nullity = k;
    return ML_OK;
}

static int lift_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    return nullity_of(ctx, engine, nullity);
}

static int lift_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    (void)user;
    lift_eng *e = engine;
    memset(size, 0, sizeof *size);
    for (int j = 0; j < e->nparts; j++) {
        if (e->part[j].kind == LIFT)
            continue;
        ml_factored f;
        int rc = e->part[j].ops->kernel_size(NULL, ctx, e->part[j].eng, &f);
        if (rc)
            return rc;
        for (int i = 0; i < f.count; i++) {   /* distinct primes: one a part */
            size->prime[size->count] = f.prime[i];
            size->exp[size->count++] = f.exp[i];
        }
    }
    return ML_OK;
}

static int lift_kernel_fits(void *user, ml_ctx *ctx, void *engine, int *fits)
{
    (void)user;
    lift_eng *e = engine;
    *fits = 1;
    for (int j = 0; j < e->nparts && *fits; j++) {
        if (e->part[j].kind != FIELD)
            continue;
        int rc = e->part[j].ops->kernel_fits(NULL, ctx, e->part[j].eng, fits);
        if (rc)
            return rc;
    }
    return ML_OK;
}

/* out = in mod q, n bytes (a mask when q is a power of two: the loop vectorises) */
static void reduce_bytes(const uint8_t *in, uint8_t *out, size_t n, unsigned q)
{
    if (!(q & (q - 1))) {
        uint8_t mask = (uint8_t)(q - 1);
        for (size_t z = 0; z < n; z++)
            out[z] = in[z] & mask;
        return;
    }
    ml_fastmod fq = ml_fastmod_make(q);
    for (size_t z = 0; z < n; z++)
        out[z] = (uint8_t)ml_fastmod_red(fq, in[z]);
}

/* x mod m in [0, m) for any sign */
static size_t wrap_mod(int64_t x, size_t m)
{
    int64_t r = x % (int64_t)m;
    return (size_t)(r < 0 ? r + (int64_t)m : r);
}

/* ay = A y mod m (y: taps, rows x cols; the tap at (r, c) advances (r + dr, c + dc),
 * indices mod rows and cols on a torus); acc: rows x cols scratch */
static void stencil(const lift_eng *e, const uint8_t *y, unsigned m, uint32_t *acc,
                    uint8_t *ay)
{
    /* a row of A y at a time: cell (r, c) gets tap (r - dr, c - dc) of every offset, over
     * the columns where both are on the board (contiguous, branch-free inner loops; on a
     * torus two runs, the columns before and after the seam) */
    size_t h = e->rows, w = e->cols;
    ml_fastmod fm = ml_fastmod_make(m);   /* acc < count * 255 < 2^24 */
    for (size_t r = 0; r < h; r++) {
        memset(acc, 0, w * sizeof *acc);
        for (size_t k = 0; k < e->count; k++) {
            int64_t sr = (int64_t)r - e->dr[k], dc = e->dc[k];
            if (e->wrap) {
                const uint8_t *yr = y + wrap_mod(sr, h) * w;
                size_t s = wrap_mod(-dc, w);   /* acc[c] += yr[(c + s) mod w] */
                for (size_t c = 0; c < w - s; c++)
                    acc[c] += yr[c + s];
                for (size_t c = w - s; c < w; c++)
                    acc[c] += yr[c + s - w];
                continue;
            }
            if (sr < 0 || sr >= (int64_t)h || dc >= (int64_t)w || -dc >= (int64_t)w)
                continue;
            const uint8_t *yr = y + (size_t)sr * w;
            size_t c0 = dc > 0 ? (size_t)dc : 0, c1 = dc < 0 ? w - (size_t)(-dc) : w;
            for (size_t c = c0; c < c1; c++)
                acc[c] += yr[(int64_t)c - dc];
        }
        uint8_t *out = ay + r * w;
        for (size_t c = 0; c < w; c++)
            out[c] = (uint8_t)ml_fastmod_red(fm, acc[c]);
    }
}

/* Scratch of one solve. */
typedef struct work {
    uint8_t *r, *y, *ay, *bq, *xq;
    uint32_t *acc;
    uint16_t *sum;
} work;

static void work_free(work *k)
{
    free(k->r);
    free(k->y);
    free(k->ay);
    free(k->bq);
    free(k->xq);
    free(k->acc);
    free(k->sum);
}

/* _solve_prime_power: x (< p^k) with A x = rhs (mod p^k), A invertible mod p; rhs any
 * bytes (read mod p^k: every digit step reduces) */
static int solve_pp(ml_ctx *ctx, const lift_eng *e, const lpart *t, const uint8_t *rhs,
                    uint8_t *x, work *k)
{
    size_t hw = e->rows * e->cols;
    unsigned p = t->p, m = t->q, scale = 1;
    ml_fastmod fp = ml_fastmod_make(p);
    memcpy(k->r, rhs, hw);
    memset(x, 0, hw);
    for (unsigned i = 0; i < t->k; i++) {
        int red = m != p || i == 0;   /* the first digit: rhs may hold any byte */
        if (red)
            reduce_bytes(k->r, k->ay, hw, p);
        uint8_t good = 0;
        int rc = t->ops->solve(NULL, ctx, t->eng, 1, red ? k->ay : k->r, k->y, &good);
        if (rc)
            return rc;
        if (!good)   /* never: A is invertible mod p */
            return ml__fail(ctx, ML_M_INTERNAL, "the lifted engine",
                            "the GF(p) engine found no solution of an invertible system");
        for (size_t z = 0; z < hw; z++)
            x[z] = (uint8_t)(x[z] + k->y[z] * scale);   /* digits: below p^k <= 255 */
        if (i + 1 < t->k) {
            stencil(e, k->y, m, k->acc, k->ay);
            ml_fastmod fm = ml_fastmod_make(m);
            for (size_t z = 0; z < hw; z++) {   /* ((r - A y) mod m) / p, exact */
                uint32_t d = ml_fastmod_red(fm, (uint32_t)k->r[z] + m - k->ay[z]);
                k->r[z] = (uint8_t)(((uint64_t)d * fp.m) >> 32);   /* d / p (d < 2^24) */
            }
        }
        m /= p;
        scale *= p;
    }
    return ML_OK;
}

static int lift_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                      uint8_t *X, uint8_t *ok)
{
    (void)user;
    lift_eng *e = engine;
    size_t hw = e->rows * e->cols;
    ml_fastmod fn = ml_fastmod_make(e->n);
    work wk = {
        malloc(hw + 1), malloc(hw + 1), malloc(hw + 1), malloc(hw + 1), malloc(hw + 1),
        malloc((hw + 1) * sizeof(uint32_t)), malloc((hw + 1) * sizeof(uint16_t)),
    };
    int rc = ML_OK;
    if (!wk.r || !wk.y || !wk.ay || !wk.bq || !wk.xq || !wk.acc || !wk.sum)
        rc = nomem(ctx);
    int one = e->nparts == 1;   /* n = p^k: the part's answer is X's row, no CRT */
    for (size_t i = 0; i < k && !rc; i++) {
        const uint8_t *B = R + i * hw;
        uint8_t *Xi = X + i * hw, good = 1;
        if (!one)
            memset(wk.sum, 0, hw * sizeof *wk.sum);
        for (int j = 0; j < e->nparts && !rc; j++) {
            const lpart *t = &e->part[j];
            uint8_t *xq = one ? Xi : wk.xq;
            const uint8_t *bq = B;   /* solve_pp reduces a lone part's bytes itself */
            if (!one || t->kind != LIFT) {
                reduce_bytes(B, wk.bq, hw, t->q);
                bq = wk.bq;
            }
            if (t->kind == LIFT) {
                rc = solve_pp(ctx, e, t, bq, xq, &wk);
            } else {
                uint8_t okq = 0;
                rc = t->ops->solve(NULL, ctx, t->eng, 1, bq, xq, &okq);
                good = good && okq;
            }
            for (size_t z = 0; z < hw && !rc && !one; z++)   /* sum < n, xq < q, idem < n */
                wk.sum[z] = (uint16_t)ml_fastmod_red(fn, wk.sum[z] + (unsigned)xq[z] *
                                                             t->idem);
        }
        uint8_t oki = (uint8_t)(!rc && good);
        ok[i] = oki;
        if (!oki)
            memset(Xi, 0, hw);
        else if (!one)
            for (size_t z = 0; z < hw; z++)
                Xi[z] = (uint8_t)wk.sum[z];
    }
    work_free(&wk);
    return rc;
}

static int lift_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                           uint8_t *H, uint32_t *orders)
{
    (void)user;
    lift_eng *e = engine;
    uint64_t null = 0, hw = (uint64_t)e->rows * e->cols;
    int rc = nullity_of(ctx, e, &null);
    if (rc)
        return rc;
    uint64_t count = limit < null ? limit : null;
    *k = count;
    if (!H || !count)
        return ML_OK;
    memset(H, 0, (size_t)(count * hw));
    for (uint64_t g = 0; orders && g < count; g++)
        orders[g] = 1;
    for (int j = 0; j < e->nparts && !rc; j++) {
        const lpart *t = &e->part[j];
        if (t->kind == LIFT)
            continue;
        uint64_t kq = 0;
        rc = t->ops->generators(NULL, ctx, t->eng, count, &kq, NULL, NULL);
        if (rc || !kq)
            continue;
        uint8_t *G = malloc((size_t)(kq * hw) + 1);
        uint32_t *ord = malloc((size_t)kq * sizeof *ord + 1);
        if (!G || !ord)
            rc = nomem(ctx);
        if (!rc)
            rc = t->ops->generators(NULL, ctx, t->eng, count, &kq, G, ord);
        for (uint64_t x = 0; !rc && x < kq * hw; x++)
            H[x] = (uint8_t)((H[x] + (unsigned)G[x] * t->idem) % e->n);
        for (uint64_t g = 0; !rc && orders && g < kq; g++)
            orders[g] *= ord[g];
        free(G);
        free(ord);
    }
    return rc;
}

/* ------------------------------------------------------------------ a part over Z/p^k */
void ml__zq_part_init(ml__zq_part *e, const ml__zq_part_ops *ops, const ml_board *b,
                      unsigned p, unsigned k)
{
    *e = (ml__zq_part){ops, p, k, 1, (size_t)b->rows, (size_t)b->cols, 0, 0};
    for (unsigned i = 0; i < k; i++)
        e->q *= p;
}

int ml__zq_part_fail(ml_ctx *ctx, const ml__zq_part *e, int rc)
{
    if (rc == 2)
        return nomem(ctx);
    if (rc == 3)
        return ml__fail(ctx, ML_M_INTERRUPTED);
    return ml__fail(ctx, ML_M_INTERNAL, "the lifted engine",
                    e ? e->ops->broke : "the algebra over Z/p^k broke an identity");
}

void ml__zq_part_destroy(void *user, void *engine)
{
    (void)user;
    ml__zq_part *e = engine;
    if (!e)
        return;
    e->ops->clear(e);
    free(e);
}

int ml__zq_part_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                      uint8_t *X, uint8_t *ok)
{
    (void)user;
    const ml__zq_part *e = engine;
    size_t hw = e->rows * e->cols;
    void *scratch = NULL;
    uint8_t *r = malloc(hw + 1);
    int rc = e->ops->scratch_new(e, &scratch);
    rc = rc ? rc : r ? 0 : 2;
    for (size_t i = 0; i < k && !rc; i++) {
        int good = 0;
        reduce_bytes(R + i * hw, r, hw, e->q);
        rc = e->ops->solve(e, scratch, r, X + i * hw, &good);
        ok[i] = (uint8_t)(!rc && good);
        if (!ok[i])
            memset(X + i * hw, 0, hw);
    }
    e->ops->scratch_free(scratch);
    free(r);
    return rc ? ml__zq_part_fail(ctx, e, rc) : ML_OK;
}

void ml__zq_part_orient(int t, size_t r, size_t c, const uint8_t *in, uint8_t *out)
{
    if (!t) {
        memcpy(out, in, r * c);
        return;
    }
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < c; j++)
            out[j * r + i] = in[i * c + j];
}

int ml__zq_part_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    (void)ctx;
    *nullity = ((const ml__zq_part *)engine)->ngens;
    return ML_OK;
}

int ml__zq_part_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    (void)user;
    (void)ctx;
    const ml__zq_part *e = engine;
    ml__alg_prime_size(e->p, e->klog, size);
    return ML_OK;
}

int ml__zq_part_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit,
                           uint64_t *k, uint8_t *H, uint32_t *orders)
{
    (void)user;
    const ml__zq_part *e = engine;
    uint64_t count = limit < e->ngens ? limit : e->ngens, hw = (uint64_t)e->rows * e->cols;
    *k = count;
    if (!H || !count)
        return ML_OK;
    void *scratch = NULL;
    int rc = e->ops->scratch_new(e, &scratch);
    for (uint64_t i = 0; i < count && !rc; i++) {
        unsigned order = 1;
        rc = e->ops->generator(e, scratch, i, H + i * hw, &order);
        if (!rc && orders)
            orders[i] = order;
    }
    e->ops->scratch_free(scratch);
    return rc ? ml__zq_part_fail(ctx, e, rc) : ML_OK;
}

const char *ml__lifted_part(const void *engine, int j)
{
    const lift_eng *e = engine;
    if (j < 0 || j >= e->nparts)
        return NULL;
    return e->part[j].kind == LIFT ? "lift" : e->part[j].ops->name;
}

int ml__lifted_parts_text(const void *engine, char *buf, size_t cap)
{
    const lift_eng *e = engine;
    size_t len = 0;
    if (cap)
        buf[0] = 0;
    for (int j = 0; j < e->nparts; j++) {
        const lpart *t = &e->part[j];
        int w = snprintf(buf + len, len < cap ? cap - len : 0, "%sZ/%u %s%s (%s)",
                         j ? ", " : "", t->q, t->kind == LIFT ? "lift over " : "",
                         t->ops->name, t->why);
        len += w > 0 ? (size_t)w : 0;
    }
    return (int)len;
}

const ml_engine_def ml__lifted_ops = {
    .size = sizeof(ml_engine_def),
    .name = "lifted",
    .build = lift_build,
    .destroy = lift_destroy,
    .solve = lift_solve,
    .nullity = lift_nullity,
    .kernel_size = lift_kernel_size,
    .generators = lift_generators,
    .kernel_fits = lift_kernel_fits,
};
