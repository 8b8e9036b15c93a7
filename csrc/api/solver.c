/* solver.c: solvers (modlights.h: solvers), the part of solver.py that asks one engine:
 * the structure (nullity, rank, kernel size, kernel generators, det, inverse,
 * pseudo-inverse) and the engine's particular solutions (ml__solver_solve_rhs). The
 * public solving calls are solver_solve.c's, the minimal search (ML_SOLVE_MINIMAL)
 * solve.c's over the canonical generators made here, the result accessors result.c's.
 *
 * ml_solver_new makes Solver.__init__'s own checks first (a chase method on a graph
 * board; a giant board no engine covers, with the covers of the engines that could),
 * then ml_plan_choose, then builds the plan's engine through its questions: a library
 * engine's C ops (engines/dense.h) or a seam engine's ml_engine_def callbacks. A library
 * engine without C ops yet is ML_ENOTIMPL naming it. As in Python the dense GF(2) engine
 * is built on first need: nullity, rank and kernel size alone come from one elimination
 * without the transform. A question the engine leaves NULL (a seam engine's det, ...)
 * is answered by the registry's fallback, the dense engine of the board's n, built on
 * first use and kept (registry.ask / fallback: det of a square A without a kernel over
 * GF(2), or with one over a prime n, needs none; DENSE_FALLBACK entries at most). */
#include "api/board.h"
#include "api/ctx.h"
#include "api/engine.h"
#include "engines/chase.h"
#include "engines/lifted.h"
#include "api/solver_impl.h"
#include "engines/dense.h"
#include "search/canon.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_SOLVER_MAGIC 0x6d6c736fu   /* "mlso" */
/* solver.py's MAX_KERNEL_BYTES; engines/base.py's DENSE_FALLBACK */
#define MAX_KERNEL_BYTES ((uint64_t)1 << 30)
#define DENSE_FALLBACK ((uint64_t)1 << 28)

struct ml_solver {
    uint32_t magic;
    _Atomic int busy;
    ml_board *b;
    ml_plan *plan;
    ml__engine *e;             /* the plan's engine (a reference kept) */
    const ml_engine_def *ops;  /* its questions: own C ops or the seam's definition */
    void *user;
    void *eng;                 /* built engine (NULL until built) */
    int lazy;                  /* dense-gf2: built on first need */
    int64_t rank_only;         /* its rank by one elimination (-1: not yet) */
    void *fb_eng;              /* the fallback's engine, built on first use */
    const ml_engine_def *fb_ops;
    /* the kernel's generators once asked for (Solver._gens): canonical where
     * ml_canon_fits allows, else the engine's */
    int have_gens;
    uint64_t ngens;
    uint8_t *gens;
    uint32_t *gen_orders;
    int canonical;             /* the generators are canon.h's */
};

static int solver_live(const ml_solver *s) { return s && s->magic == ML_SOLVER_MAGIC; }

/* A seam callback's status: its own message kept, else "the engine %s failed in %s". */
static int callback_rc(ml_ctx *ctx, const ml_solver *s, const ml_engine_def *ops, int rc,
                       const char *question)
{
    if (rc == ML_OK)
        return ML_OK;
    ctx = ml__ctx(ctx);
    int st = rc > ML_OK && rc < ML_STATUS_COUNT ? rc : ML_ECALLBACK;
    if (ctx->status == ML_OK || !ctx->msg[0])
        ml__fail(ctx, ML_M_CALLBACK, ops == s->ops ? s->e->name : ops->name, question);
    ctx->status = st;
    return st;
}

/* Take the solver for one call (ML_EMISUSE when another thread has it). */
static int take(ml_ctx *ctx, ml_solver *s, const char *fn)
{
    if (!solver_live(s))
        return ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "solver");
    int idle = 0;
    if (!atomic_compare_exchange_strong(&s->busy, &idle, 1))
        return ml__fail(ctx, ML_M_BUSY, fn, "solver");
    return ML_OK;
}
static void give(ml_solver *s) { atomic_store(&s->busy, 0); }

/* ------------------------------------------------------------------ making */
static int build(ml_ctx *ctx, ml_solver *s)
{
    if (s->eng)
        return ML_OK;
    void *eng = NULL;
    int rc = s->ops->build(s->user, ctx, s->b, &eng);
    rc = callback_rc(ctx, s, s->ops, rc, "build");
    if (rc == ML_OK && !eng && s->ops->destroy == NULL)
        eng = s;   /* an engine with no state of its own: any non-NULL token */
    if (rc == ML_OK)
        s->eng = eng ? eng : (void *)s;
    if (rc == ML_OK && s->ops == &ml__chase_choose_ops) {   /* registry.resolve */
        const char *why = NULL, *variant = ml__chase_variant(s->eng, &why);
        if (variant && ml__plan_resolve(s->plan, variant, why))
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_solver_new");
    }
    if (rc == ML_OK && s->ops == &ml__lifted_ops) {   /* the plan names the parts */
        char text[640];
        ml__lifted_parts_text(s->eng, text, sizeof text);
        if (ml__plan_note(s->plan, text))
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_solver_new");
    }
    return rc;
}

static void engine_destroy(const ml_engine_def *ops, void *user, void *eng, const ml_solver *s)
{
    if (eng && eng != (const void *)s && ops->destroy)
        ops->destroy(user, eng);
}

void ml_solver_free(ml_solver *s)
{
    if (!solver_live(s))
        return;
    s->magic = 0;
    engine_destroy(s->ops, s->user, s->eng, s);
    if (s->fb_ops)
        engine_destroy(s->fb_ops, NULL, s->fb_eng, s);
    if (s->e)
        ml__engine_put(s->e);
    free(s->gens);
    free(s->gen_orders);
    ml_plan_free(s->plan);
    ml_board_free(s->b);
    free(s);
}

int ml_solver_new_plan(ml_ctx *ctx, ml_board *b, const ml_plan *plan, ml_solver **out)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    const char *fn = "ml_solver_new_plan";
    if (!out)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out"));
    *out = NULL;
    if (!ml__board_live(b))
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "board"));
    const char *name = ml_plan_engine(plan);
    if (!name)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "plan"));
    ml_solver *s = calloc(1, sizeof *s);
    if (!s)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, fn));
    s->magic = ML_SOLVER_MAGIC;
    s->rank_only = -1;
    s->b = ml_board_retain(b);
    s->plan = ml__plan_dup(plan);
    if (!s->plan) {
        ml_solver_free(s);
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, fn));
    }
    /* the plan's engine, kept while the solver lives */
    ml__engine **list = NULL;
    size_t count = 0;
    int rc = ml__registry_snapshot(ctx, &list, &count);
    if (rc) {
        ml_solver_free(s);
        return ml__leave(ctx, &sc, rc);
    }
    for (size_t i = 0; i < count && !s->e; i++)
        if (!strcmp(list[i]->name, name)) {
            s->e = list[i];
            atomic_fetch_add(&s->e->refs, 1);
        }
    ml__registry_release(list, count);
    if (!s->e) {
        char r[256];
        ml__repr_str(name, r, sizeof r);
        rc = ml__fail(ctx, ML_M_ENGINE_UNKNOWN, r, "it was unregistered since the plan was made");
        ml_solver_free(s);
        return ml__leave(ctx, &sc, rc);
    }
    if (s->e->seam) {
        s->ops = &s->e->def;
        s->user = s->e->def.user;
    } else {
        s->ops = s->e->own_ops;
    }
    if (!s->ops || !s->ops->build) {
        char what[160];
        snprintf(what, sizeof what, "solving with the %s engine (ml_solver_new)", name);
        rc = ml__fail(ctx, ML_M_NOT_IMPLEMENTED, what, ML_VERSION_STRING);
        ml_solver_free(s);
        return ml__leave(ctx, &sc, rc);
    }
    s->lazy = !s->e->seam && !strcmp(name, "dense-gf2");
    rc = s->lazy ? ML_OK : build(ctx, s);
    if (rc) {
        ml_solver_free(s);
        return ml__leave(ctx, &sc, rc);
    }
    *out = s;
    return ml__leave(ctx, &sc, ML_OK);
}

static int starts_with(const char *s, const char *pre) { return !strncmp(s, pre, strlen(pre)); }

/* Solver.__init__'s message for a giant board no engine covers (ML_M_GIANT_NOT_COVERED),
 * from the failure ml_plan_choose left on ctx. */
static int giant_not_covered(ml_ctx *ctx, const ml_board *b)
{
    ctx = ml__ctx(ctx);
    char *orig = malloc(ML_ERRMSG_MAX), *why[3];
    static const char *const names[3] = {"algebraic-cross", "algebraic-sym", "tensor"};
    int ok = orig != NULL;
    for (int i = 0; i < 3; i++) {
        why[i] = malloc(ML_WHY_MAX);
        ok = ok && why[i];
    }
    int rc;
    if (!ok) {   /* no room to say more: the choice's own failure stays on ctx */
        rc = ctx->status;
    } else {
        snprintf(orig, ML_ERRMSG_MAX, "%s", ctx->msg);
        int st = ctx->status, id = ctx->msg_id;
        rc = ML_OK;
        for (int i = 0; i < 3 && rc == ML_OK; i++) {
            int covers = 0;
            rc = ml_engine_covers(ctx, ml_engine_index(names[i]), b, &covers, why[i],
                                  ML_WHY_MAX, NULL);
            if (rc == ML_OK && covers)
                snprintf(why[i], ML_WHY_MAX, "covers it");
        }
        if (rc == ML_OK)
            rc = ml__fail(ctx, ML_M_GIANT_NOT_COVERED, (long long)ML_MAX_TILES, why[0], why[1],
                          why[2], orig);
        else {   /* cannot say more than the choice did */
            ctx->status = st;
            ctx->msg_id = id;
            snprintf(ctx->msg, sizeof ctx->msg, "%s", orig);
            rc = st;
        }
    }
    free(orig);
    for (int i = 0; i < 3; i++)
        free(why[i]);
    return rc;
}

int ml_solver_new(ml_ctx *ctx, ml_board *b, const char *method, ml_solver **out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_solver_new";
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out");
    *out = NULL;
    if (!ml__board_live(b))
        return ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "board");
    if (!method)
        method = "auto";
    /* Solver's own check, after the method is known to exist (Python's order) */
    if (starts_with(method, "chase") && b->kind != ML_BOARD_GRID &&
        (!strcmp(method, "chase") || ml_engine_index(method) >= 0)) {
        char r[160];
        ml__repr_str(method, r, sizeof r);
        return ml__fail(ctx, ML_M_CHASE_GRAPH, r);
    }
    ml_plan *plan = NULL;
    int rc = ml_plan_choose(ctx, b, method, "native", &plan);
    if (rc) {
        if (b->giant && ml_errmsg_id(ctx) != ML_M_METHOD_UNKNOWN)
            return giant_not_covered(ctx, b);
        return rc;
    }
    rc = ml_solver_new_plan(ctx, b, plan, out);
    ml_plan_free(plan);
    return rc;
}

const ml_board *ml_solver_board(const ml_solver *s) { return solver_live(s) ? s->b : NULL; }
const ml_plan *ml_solver_plan(const ml_solver *s) { return solver_live(s) ? s->plan : NULL; }

/* ------------------------------------------------------------------ structure */
/* The engine's answer to a core question, or the fallback's when it leaves it NULL. */
static int fallback(ml_ctx *ctx, ml_solver *s)
{
    if (s->fb_eng)
        return ML_OK;
    const ml_board *b = s->b;
    /* n_cells * n_taps > DENSE_FALLBACK without the product (2^80 on giant boards) */
    if (b->n_taps && b->n_cells > DENSE_FALLBACK / b->n_taps)
        return ml__fail(ctx, ML_M_DENSE_FALLBACK_LIMIT, ml_plan_family(s->plan),
                        (unsigned long long)b->n_cells, (unsigned long long)b->n_taps,
                        (unsigned long long)DENSE_FALLBACK);
    const ml_engine_def *ops = ml__dense_ops_for(b->n);
    void *eng = NULL;
    int rc = ops->build(NULL, ctx, b, &eng);
    if (rc == ML_OK) {
        s->fb_ops = ops;
        s->fb_eng = eng;
    }
    return rc;
}

/* Which engine answers a question: the solver's own (built) when its ops define it
 * (field at offset off), else the fallback. */
static int answerer(ml_ctx *ctx, ml_solver *s, size_t off, const ml_engine_def **ops,
                    void **user, void **eng)
{
    int rc = build(ctx, s);
    if (rc)
        return rc;
    void *fnp = NULL;
    memcpy(&fnp, (const char *)s->ops + off, sizeof fnp);
    if (fnp) {
        *ops = s->ops;
        *user = s->user;
        *eng = s->eng;
        return ML_OK;
    }
    rc = fallback(ctx, s);
    if (rc)
        return rc;
    *ops = s->fb_ops;
    *user = NULL;
    *eng = s->fb_eng;
    return ML_OK;
}

#define ANSWERER(ctx, s, field, ops, user, eng)                                          \
    answerer(ctx, s, offsetof(ml_engine_def, field), ops, user, eng)

static int nullity_of(ml_ctx *ctx, ml_solver *s, uint64_t *out)
{
    if (s->have_gens) {   /* Solver.nullity: len(self._gens[1]) once made */
        *out = s->ngens;
        return ML_OK;
    }
    if (s->lazy && !s->eng) {
        if (s->rank_only < 0) {
            uint64_t rk = 0;
            int rc = ml__dense_gf2_rank(ctx, s->b, &rk);
            if (rc)
                return rc;
            s->rank_only = (int64_t)rk;
        }
        *out = s->b->n_taps - (uint64_t)s->rank_only;
        return ML_OK;
    }
    const ml_engine_def *ops;
    void *user, *eng;
    int rc = ANSWERER(ctx, s, nullity, &ops, &user, &eng);
    if (rc)
        return rc;
    return callback_rc(ctx, s, ops, ops->nullity(user, ctx, eng, out), "nullity");
}

/* An engine's kernel size checked before anyone reads it: 0..ML_MAX_PRIMES distinct
 * primes up to 255 (a seam engine's count past the arrays would be read past them),
 * else ML_ECALLBACK naming the engine. */
static int factored_sound(ml_ctx *ctx, const ml_solver *s, const ml_engine_def *ops,
                          const ml_factored *f)
{
    int ok = f->count >= 0 && f->count <= ML_MAX_PRIMES;
    for (int i = 0; ok && i < f->count; i++) {
        uint32_t p = f->prime[i];
        ok = p >= 2 && p <= 255;
        for (uint32_t d = 2; ok && d * d <= p; d++)
            ok = p % d != 0;
        for (int k = 0; ok && k < i; k++)
            ok = f->prime[k] != p;
    }
    if (ok)
        return ML_OK;
    char what[160];
    snprintf(what, sizeof what, "the engine %s's kernel_size",
             ops == s->ops ? s->e->name : ops->name);
    ml__fail(ctx, ML_M_FACTORED_INVALID, what, f->count, ML_MAX_PRIMES);
    ml__ctx(ctx)->status = ML_ECALLBACK;
    return ML_ECALLBACK;
}

static int kernel_size_of(ml_ctx *ctx, ml_solver *s, ml_factored *out)
{
    if (s->lazy && !s->eng) {
        uint64_t null = 0;
        int rc = nullity_of(ctx, s, &null);
        if (rc)
            return rc;
        memset(out, 0, sizeof *out);
        if (null) {
            out->count = 1;
            out->prime[0] = 2;
            out->exp[0] = null;
        }
        return ML_OK;
    }
    const ml_engine_def *ops;
    void *user, *eng;
    int rc = ANSWERER(ctx, s, kernel_size, &ops, &user, &eng);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    rc = callback_rc(ctx, s, ops, ops->kernel_size(user, ctx, eng, out), "kernel_size");
    return rc ? rc : factored_sound(ctx, s, ops, out);
}

static int trivial(const ml_factored *f) { return ml__factored_trivial(f); }

/* The frame of every solver question: checks, the solver taken, a scope. */
#define BEGIN(fn, outp) ML__SOLVER_BEGIN(fn, outp)
#define END(rc) ML__SOLVER_END(rc)

int ml_solver_nullity(ml_ctx *ctx, ml_solver *s, uint64_t *out)
{
    BEGIN("ml_solver_nullity", out);
    rc = nullity_of(ctx, s, out);
    END(rc);
}

int ml_solver_rank(ml_ctx *ctx, ml_solver *s, uint64_t *out)
{
    BEGIN("ml_solver_rank", out);
    uint64_t null = 0;
    rc = nullity_of(ctx, s, &null);
    if (!rc)
        *out = s->b->n_taps - null;
    END(rc);
}

int ml_solver_kernel_size(ml_ctx *ctx, ml_solver *s, ml_factored *out)
{
    BEGIN("ml_solver_kernel_size", out);
    rc = kernel_size_of(ctx, s, out);
    END(rc);
}

int ml_solver_is_unique(ml_ctx *ctx, ml_solver *s, int *out)
{
    BEGIN("ml_solver_is_unique", out);
    ml_factored f;
    rc = kernel_size_of(ctx, s, &f);
    if (!rc)
        *out = trivial(&f);
    END(rc);
}

int ml_solver_is_invertible(ml_ctx *ctx, ml_solver *s, int *out)
{
    BEGIN("ml_solver_is_invertible", out);
    ml_factored f;
    rc = kernel_size_of(ctx, s, &f);
    if (!rc)
        *out = s->b->n_cells == s->b->n_taps && trivial(&f);
    END(rc);
}

/* Solver._generators: the engine's generators, made canonical (search/canon.h) when
 * within ml_canon_fits (the engine's kept when its work space does not fit), kept. */
static int generators(ml_ctx *ctx, ml_solver *s)
{
    if (s->have_gens)
        return ML_OK;
    uint64_t null = 0, r = s->b->n_taps;
    int rc = nullity_of(ctx, s, &null);
    if (!rc && r && null > MAX_KERNEL_BYTES / r) {   /* null * r would pass the cap */
        uint64_t nbytes = null > UINT64_MAX / r ? UINT64_MAX : null * r;
        return ml__fail(ctx, ML_M_KERNEL_TOO_LARGE, (unsigned long long)null,
                        (unsigned long long)r, (unsigned long long)nbytes,
                        (double)nbytes / (1024.0 * 1024.0 * 1024.0),
                        (unsigned long long)(MAX_KERNEL_BYTES >> 30));
    }
    const ml_engine_def *ops = NULL;
    void *user = NULL, *eng = NULL;
    if (!rc)
        rc = ANSWERER(ctx, s, generators, &ops, &user, &eng);
    if (rc)
        return rc;
    uint8_t *H = malloc(null * r + 1);
    uint32_t *orders = malloc((null + 1) * sizeof *orders);
    if (!H || !orders) {
        free(H);
        free(orders);
        return ml__fail(ctx, ML_M_NOMEM, "ml_solver_kernel");
    }
    uint64_t k = 0;
    if (null)
        rc = callback_rc(ctx, s, ops, ops->generators(user, ctx, eng, null, &k, H, orders),
                         "generators");
    if (!rc && k != null)
        rc = ml__fail(ctx, ML_M_INTERNAL, "ml_solver_kernel",
                      "the engine gave another count of generators than its nullity");
    if (!rc && k && r && ml_canon_fits((size_t)k, (size_t)r, (unsigned)s->b->n)) {
        uint8_t *C = malloc(k * r);
        uint32_t *co = malloc(k * sizeof *co);
        size_t got = C && co ? ml_canon_basis(H, (size_t)k, (size_t)r, (unsigned)s->b->n, C, co)
                             : ML_CANON_ENOMEM;
        if (got == ML_CANON_INTERRUPTED) {
            rc = ml__fail(ctx, ML_M_INTERRUPTED);
        } else if (got != ML_CANON_ENOMEM) {   /* else: the engine's generators */
            s->canonical = 1;
            free(H);
            free(orders);
            H = C;
            orders = co;
            C = NULL;
            co = NULL;
            k = got;
        }
        free(C);
        free(co);
    }
    if (rc) {
        free(H);
        free(orders);
        return rc;
    }
    s->gens = H;
    s->gen_orders = orders;
    s->ngens = k;
    s->have_gens = 1;
    return ML_OK;
}

int ml__solver_generators(ml_ctx *ctx, ml_solver *s, const uint8_t **H,
                          const uint32_t **orders, uint64_t *k, int *canonical)
{
    int rc = generators(ctx, s);
    if (rc)
        return rc;
    *H = s->gens;
    *orders = s->gen_orders;
    *k = s->ngens;
    *canonical = s->canonical;
    return ML_OK;
}

int ml__solver_nullity(ml_ctx *ctx, ml_solver *s, uint64_t *out)
{
    return nullity_of(ctx, s, out);
}

int ml__solver_has_generators(const ml_solver *s) { return s->have_gens; }

int ml__solver_own(ml_ctx *ctx, ml_solver *s, const ml__engine **e,
                   const ml_engine_def **ops, void **user, void **eng)
{
    int rc = build(ctx, s);
    *e = s->e;
    *ops = s->ops;
    *user = s->user;
    *eng = s->eng;
    return rc;
}

int ml__solver_kernel_size(ml_ctx *ctx, ml_solver *s, ml_factored *out)
{
    return kernel_size_of(ctx, s, out);
}

int ml_solver_kernel(ml_ctx *ctx, ml_solver *s, uint8_t *H, uint32_t *orders)
{
    BEGIN("ml_solver_kernel", orders);
    uint64_t null = 0, r = s->b->n_taps;
    rc = nullity_of(ctx, s, &null);
    if (!rc && null && r && null <= MAX_KERNEL_BYTES / r && !H)   /* else: too large */
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_solver_kernel", "H");
    if (!rc)
        rc = generators(ctx, s);
    if (!rc) {
        if (s->ngens && r)
            memcpy(H, s->gens, s->ngens * r);
        memcpy(orders, s->gen_orders, s->ngens * sizeof *orders);
    }
    END(rc);
}

/* registry.ask: det, inverse, pseudo_inverse by the engine or the fallback. */
int ml_solver_det(ml_ctx *ctx, ml_solver *s, unsigned *out)
{
    BEGIN("ml_solver_det", out);
    const ml_board *b = s->b;
    rc = build(ctx, s);
    if (!rc && !s->ops->det) {
        if (b->n_cells != b->n_taps) {
            rc = ml__fail(ctx, ML_M_DET_SQUARE, (unsigned long long)b->n_cells,
                          (unsigned long long)b->n_taps);
            END(rc);
        }
        ml_factored f;
        rc = kernel_size_of(ctx, s, &f);
        int prime = 1;
        for (int d = 2; d * d <= b->n; d++)
            if (b->n % d == 0)
                prime = 0;
        if (!rc && b->n == 2 && b->n_taps) {
            *out = trivial(&f) ? 1u : 0u;
            END(rc);
        }
        if (!rc && !trivial(&f) && prime) {
            *out = 0;
            END(rc);
        }
    }
    const ml_engine_def *ops;
    void *user, *eng;
    if (!rc)
        rc = ANSWERER(ctx, s, det, &ops, &user, &eng);
    if (!rc)
        rc = callback_rc(ctx, s, ops, ops->det(user, ctx, eng, out), "det");
    END(rc);
}

int ml_solver_inverse(ml_ctx *ctx, ml_solver *s, uint8_t *out)
{
    BEGIN("ml_solver_inverse", out);
    const ml_engine_def *ops;
    void *user, *eng;
    rc = ANSWERER(ctx, s, inverse, &ops, &user, &eng);
    if (!rc)
        rc = callback_rc(ctx, s, ops, ops->inverse(user, ctx, eng, out), "inverse");
    END(rc);
}

int ml_solver_pseudo_inverse(ml_ctx *ctx, ml_solver *s, uint8_t *out)
{
    BEGIN("ml_solver_pseudo_inverse", out);
    const ml_engine_def *ops;
    void *user, *eng;
    rc = ANSWERER(ctx, s, pseudo_inverse, &ops, &user, &eng);
    if (!rc)
        rc = callback_rc(ctx, s, ops, ops->pseudo_inverse(user, ctx, eng, out),
                         "pseudo_inverse");
    END(rc);
}

/* ------------------------------------------------------------------ solving */
/* (solver_solve.c has the public solving calls; these are the solver's parts they use.) */
int ml__solver_solve_rhs(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *R, uint8_t *X,
                         uint8_t *ok)
{
    const ml_engine_def *ops;
    void *user, *eng;
    int rc = ANSWERER(ctx, s, solve, &ops, &user, &eng);
    if (!rc && k)
        rc = callback_rc(ctx, s, ops, ops->solve(user, ctx, eng, k, R, X, ok), "solve");
    return rc;
}

ml_board *ml__solver_board(const ml_solver *s) { return s->b; }

int ml__solver_take(ml_ctx *ctx, ml_solver *s, const char *fn) { return take(ctx, s, fn); }
void ml__solver_give(ml_solver *s) { give(s); }
