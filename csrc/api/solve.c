/* solve.c: the minimal search of ml_solver_solve (ML_SOLVE_MINIMAL), the policy of
 * solver.py's Solver.solve(minimal=True), solver_budget.py's default budget and
 * search/minimal.py's minimise without an executor: the budget resolved (a count of
 * coset elements, a deadline, or the default: a coset of at most the default count
 * searched whole by that count, a larger one for DEFAULT_SECONDS), then
 *
 *  - an engine whose kernel does not fit (its kernel_fits says so): the solution as it
 *    is, not proved, no search;
 *  - the generators: all of them when nullity x n_taps fits MAX_SEARCH_BYTES (or they
 *    were made already; the particular solution then made the canonical representative
 *    of its coset), else the engine's first MAX_SEARCH_BYTES / n_taps (a sub-coset:
 *    nothing is proved but length 0);
 *  - a trivial kernel: the solution, proved;
 *  - a budget of 0 elements or no time: the greedy descent (search/driver.h), proved
 *    only when the solution has length 0;
 *  - where ml_cube_applies (GF(2), nullity >= 22, every generator held): the transform
 *    search of search/cube_plan.h with the board's symmetries, proved when every corner
 *    was walked (its proof the tree of the rebased generators), else descended;
 *  - otherwise the Gray-code walk of search/coset.h over the longest prefix of
 *    generators of fewer than 2^62 elements (one thread when a count budget is short of
 *    it, so the answer is the same on every machine; the context's threads, at most
 *    8 by default, for whole walks and deadlines), proved when it covered the coset (or
 *    found length 0), else descended greedily until the deadline (at least
 *    MIN_DESCENT_SECONDS after the search started).
 *
 * Long searches poll the stop flag (base/interrupt.h: ML_EINTERRUPTED) and report
 * ML_PHASE_SEARCH / ML_PHASE_DESCENT progress in coset elements. */
#include "api/board.h"
#include "api/ctx.h"
#include "api/engine.h"
#include "api/json.h"
#include "api/solver_impl.h"
#include "base/interrupt.h"
#include "dense/pack.h"
#include "search/canon.h"
#include "search/coset.h"
#include "search/coset_batch.h"
#include "search/cube_plan.h"
#include "search/driver.h"
#include "search/symmetry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the limits of api/solver_impl.h, and search/minimal.py's constants */
#define DEFAULT_SECONDS ML__DEFAULT_SECONDS
#define DEFAULT_NATIVE_BUDGET ML__DEFAULT_NATIVE_BUDGET
#define MAX_SEARCH_BYTES ML__MAX_SEARCH_BYTES
#define MIN_DESCENT_SECONDS 0.05
#define SIZE_LIMIT ((uint64_t)1 << 62)
#define MAX_DEADLINE_SECONDS 1e12                        /* deadline_after's cap */
#define MAX_KERNEL_BYTES ((uint64_t)1 << 30)

/* The value of f saturated at UINT64_MAX. */
static uint64_t factored_sat(const ml_factored *f)
{
    uint64_t v = 1;
    for (int i = 0; i < f->count; i++)
        for (uint64_t e = 0; e < f->exp[i]; e++) {
            if (v > UINT64_MAX / f->prime[i])
                return UINT64_MAX;
            v *= f->prime[i];
        }
    return v;
}

/* Solver._search_budget(None): (steps, seconds); steps UINT64_MAX or seconds < 0 mean
 * none; a deadline of DEFAULT_SECONDS a board for `boards` boards. _default_count: a
 * coset step costs O(n_taps) (/ 64 over GF(2)), about 2^30 operations at most. */
static void resolve_budget(const ml_board *b, const ml_factored *ks, ml_budget budget,
                           uint64_t boards, uint64_t *steps, double *seconds)
{
    *steps = UINT64_MAX;
    *seconds = -1.0;
    if (budget.kind == ML_BUDGET_STEPS) {
        *steps = budget.steps > ML_MAX_BUDGET ? ML_MAX_BUDGET : budget.steps;
        return;
    }
    if (budget.kind == ML_BUDGET_SECONDS) {
        *seconds = budget.seconds;
        return;
    }
    uint64_t count = ml_board_default_steps(b);
    if (factored_sat(ks) <= count)
        *steps = count;
    else
        *seconds = DEFAULT_SECONDS * (double)(boards ? boards : 1);
}

static double now_s(void) { return (double)ml_driver_now_ns() * 1e-9; }

/* minimal.descend: the greedy descent of x until deadline (seconds on now_s's clock,
 * < 0: none). ML_OK, or ML_EINTERRUPTED when a poll saw a stop. */
static int descend(ml_ctx *ctx, const uint8_t *H, uint64_t k, size_t L,
                   const uint32_t *orders, unsigned n, uint8_t *x, double deadline)
{
    int64_t dl = 0;
    if (deadline >= 0) {
        double left = deadline - now_s();
        if (left <= 0)
            return ML_OK;
        double ns = left * 1e9;
        dl = ml_driver_now_ns() + (ns < 1 ? 1 : ns > 4e18 ? (int64_t)4e18 : (int64_t)ns);
    }
    if (ml_driver_descend(H, (size_t)k, L, orders, n, x, dl) == ML_DRIVER_INTERRUPTED)
        return ml__fail(ctx, ML_M_INTERRUPTED);
    return ML_OK;
}

static int threads_of(const ml_ctx *ctx)
{
    if (ctx->threads > 0)
        return ctx->threads;
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : c > 8 ? 8 : (int)c;
}

static int any_nonzero(const uint8_t *x, size_t L)
{
    for (size_t j = 0; j < L; j++)
        if (x[j])
            return 1;
    return 0;
}

/* _coset.coset_min over the first k generators (prod(orders[:k]) < 2^62): best into x. */
static int coset_walk(ml_ctx *ctx, const uint8_t *H, const uint32_t *orders, size_t k,
                      size_t L, unsigned n, uint64_t budget, double seconds, int threads,
                      uint8_t *x, ml_coset_stats *st)
{
    int64_t length;
    if (n == 2) {
        size_t nw = ml_words(L) ? ml_words(L) : 1;
        uint64_t *xp = calloc(nw, 8), *gp = calloc((k ? k : 1) * nw, 8), *bp = calloc(nw, 8);
        if (!xp || !gp || !bp) {
            free(xp);
            free(gp);
            free(bp);
            return ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
        }
        if (L) {
            ml_pack_bits(x, 1, L, L, xp, nw);
            if (k)
                ml_pack_bits(H, k, L, L, gp, nw);
        }
        length = ml_coset_min_gf2(xp, gp, k, nw, budget, seconds, threads, bp, st);
        if (length >= 0 && L)
            ml_unpack_bits(bp, 1, L, nw, x, L);
        free(xp);
        free(gp);
        free(bp);
    } else {
        if (L == 0) {
            memset(st, 0, sizeof *st);
            st->examined = 1;
            st->complete = 1;
            return ML_OK;
        }
        uint8_t *best = malloc(L);
        uint8_t zero[1] = {0};
        uint32_t zo[1] = {0};
        if (!best)
            return ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
        length = ml_coset_min_zn(x, k ? H : zero, k ? orders : zo, k, L, n, budget, seconds,
                                 threads, best, st);
        if (length >= 0)
            memcpy(x, best, L);
        free(best);
    }
    if (ml_interrupt_poll())
        return ml__fail(ctx, ML_M_INTERRUPTED);
    if (length < 0)
        return ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
    return ML_OK;
}

/* The proof of a transform search: the rebased generators, the leaf dimension and the
 * symmetries used (their cells and taps). */
typedef struct {
    ml_cube_plan plan;
    uint64_t nsym;
    uint64_t *cells, *taps;    /* nsym x n_cells, nsym x n_taps */
} cube_proof;

/* The search's figures (a result's, or one board's of a batch). */
typedef struct {
    int proven, proof;
    uint64_t examined, pruned;
    uint64_t total;            /* prod(orders), saturated */
    cube_proof *cube;          /* ML__PROOF_CUBE's (owned; stats_free) */
    ml_bnb_proof *bnb;         /* ML__PROOF_BNB's (owned; stats_free) */
} stats;

static void cube_proof_free(cube_proof *cp)
{
    if (cp) {
        ml_cube_plan_free(&cp->plan);
        free(cp->cells);
        free(cp->taps);
        free(cp);
    }
}

static void stats_free(stats *st)
{
    cube_proof_free(st->cube);
    st->cube = NULL;
    ml_bnb_proof_free(st->bnb);
    free(st->bnb);
    st->bnb = NULL;
}

/* An engine's callback failed: its status, with ML_M_CALLBACK when it left no message. */
static int engine_failed(ml_ctx *ctx, const struct ml__engine *e, const char *question)
{
    ctx = ml__ctx(ctx);
    return ctx->status != ML_OK ? ctx->status : ml__fail(ctx, ML_M_CALLBACK, e->name, question);
}

/* Kernel.searchable: the plan's own engine's kernel_fits when it answers it, else 1. */
static int searchable(ml_ctx *ctx, ml_solver *s, int *ok)
{
    const struct ml__engine *e;
    const ml_engine_def *ops;
    void *user, *eng;
    *ok = 1;
    int rc = ml__solver_own(ctx, s, &e, &ops, &user, &eng);
    if (rc || !ops->kernel_fits)
        return rc;
    int fits = 1;
    rc = ops->kernel_fits(user, ctx, eng, &fits);
    if (rc)
        return engine_failed(ctx, e, "kernel_fits");
    *ok = fits != 0;
    return ML_OK;
}

/* Solver._search_generators past MAX_SEARCH_BYTES: the engine's first `limit`
 * generators (malloc'd into *H, *orders; the caller frees), a sub-coset. */
static int first_generators(ml_ctx *ctx, ml_solver *s, uint64_t limit, size_t L,
                            uint8_t **H, uint32_t **orders, uint64_t *k, const char *fn)
{
    const struct ml__engine *e;
    const ml_engine_def *ops;
    void *user, *eng;
    int rc = ml__solver_own(ctx, s, &e, &ops, &user, &eng);
    if (rc)
        return rc;
    *H = malloc(limit * L + 1);
    *orders = malloc(limit * sizeof **orders + 1);
    if (!*H || !*orders)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    if (ops->generators) {
        rc = ops->generators(user, ctx, eng, limit, k, *H, *orders);
        if (rc)
            return engine_failed(ctx, e, "generators");
        return *k > limit ? ml__fail(ctx, ML_M_INTERNAL, fn, "too many generators") : ML_OK;
    }
    const uint8_t *G;   /* an engine without generators: the fallback's, a prefix */
    const uint32_t *go;
    uint64_t all;
    int canonical;
    rc = ml__solver_generators(ctx, s, &G, &go, &all, &canonical);
    if (rc)
        return rc;
    *k = all < limit ? all : limit;
    if (*k && L)
        memcpy(*H, G, (size_t)(*k * L));
    memcpy(*orders, go, (size_t)*k * sizeof *go);
    return ML_OK;
}

/* minimal._cube_minimum without an executor: the transform search of x0 + span(H)
 * (every generator, all of order 2) within steps / by deadline_search, descended until
 * deadline when unfinished; x replaced by the answer, st filled (its proof kept). */
static int cube_minimum(ml_ctx *ctx, ml_solver *s, const uint8_t *H, const uint32_t *orders,
                        uint64_t k, size_t L, uint8_t *x, uint64_t steps,
                        double deadline_search, double deadline, stats *st, const char *fn)
{
    const ml_board *b = ml_solver_board(s);
    ml_syms syms;
    memset(&syms, 0, sizeof syms);
    int rc = ml_symmetries(ctx, b, NULL, &syms);
    cube_proof *cp = rc ? NULL : calloc(1, sizeof *cp);
    uint8_t *best = rc ? NULL : malloc(L);
    if (!rc && (!cp || !best))
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    int got = rc ? ML_CUBE_OK
                 : ml_cube_plan_make(x, H, (size_t)k, L, syms.taps, (size_t)syms.k, &cp->plan);
    ml_cube_result cr;
    memset(&cr, 0, sizeof cr);
    if (!rc && !got) {
        int64_t dl = 0;   /* the deadline on ml_driver_now_ns's clock (0: none) */
        if (deadline_search >= 0) {
            double ns = (deadline_search - now_s()) * 1e9;
            dl = ml_driver_now_ns() + (ns < 1 ? 1 : ns > 4e18 ? (int64_t)4e18 : (int64_t)ns);
        }
        got = ml_cube_search(&cp->plan, steps, dl, threads_of(ctx), best, &cr);
    }
    if (!rc && got)
        rc = got == ML_CUBE_STOPPED ? ml__fail(ctx, ML_M_INTERRUPTED)
             : got == ML_CUBE_ENOMEM ? ml__fail(ctx, ML_M_NOMEM, fn)
             : ml__fail(ctx, ML_M_INTERNAL, fn, "the transform search refused its plan");
    if (!rc) {
        memcpy(x, best, L);
        st->examined = cr.examined;
        st->pruned = cr.skipped;
        st->proven = cr.complete;
        if (!cr.complete) {
            ml_progress_report(ML_PHASE_DESCENT, cr.covered, st->total);
            rc = descend(ctx, H, k, L, orders, 2, x, deadline);
        } else if (any_nonzero(x, L)) {
            uint64_t ng = cp->plan.ng, nc = b->n_cells;
            cp->nsym = ng;
            cp->cells = malloc(ng * nc * sizeof *cp->cells + 1);
            cp->taps = malloc(ng * L * sizeof *cp->taps + 1);
            if (!cp->cells || !cp->taps)
                rc = ml__fail(ctx, ML_M_NOMEM, fn);
            for (uint64_t g = 0; !rc && g < ng; g++) {
                size_t u = cp->plan.sym_used[g];
                memcpy(cp->cells + g * nc, syms.cells + u * nc, nc * sizeof *cp->cells);
                memcpy(cp->taps + g * L, syms.taps + u * L, L * sizeof *cp->taps);
            }
            if (!rc) {
                st->cube = cp;
                cp = NULL;
            }
        }
    }
    cube_proof_free(cp);
    free(best);
    ml_syms_free(&syms);
    return rc;
}

/* minimal.minimise without a progress callback: x (n_taps bytes) replaced by the least-
 * length element found within steps (UINT64_MAX: none) or by deadline (seconds on
 * now_s's clock, < 0: none); the descent of an unfinished search stops by the deadline
 * or `descent` seconds from now, whichever is later. */
static int minimise(ml_ctx *ctx, ml_solver *s, uint8_t *x, uint64_t steps, double deadline,
                    double descent, stats *st, const char *fn)
{
    const ml_board *b = ml_solver_board(s);
    size_t L = (size_t)b->n_taps;
    unsigned n = (unsigned)b->n;
    double t0 = now_s();
    double deadline_search = deadline;
    if (deadline >= 0 && deadline < t0 + descent)
        deadline = t0 + descent;
    int no_time = deadline_search >= 0 && deadline_search - t0 <= 0;
    memset(st, 0, sizeof *st);
    int ok = 1;
    int rc = searchable(ctx, s, &ok);
    if (rc || !ok)
        return rc;   /* no basis to search: x as it is, not proved */
    uint64_t null = 0;
    rc = ml__solver_nullity(ctx, s, &null);
    if (rc)
        return rc;
    const uint8_t *H;
    const uint32_t *orders;
    uint64_t k;
    uint8_t *Hsub = NULL;       /* a sub-coset's generators (owned) */
    uint32_t *osub = NULL;
    int every = ml__solver_has_generators(s) || null * (L ? L : 1) <= MAX_SEARCH_BYTES;
    if (every) {
        int canonical;
        rc = ml__solver_generators(ctx, s, &H, &orders, &k, &canonical);
        if (rc)
            return rc;
        if (canonical && k && L && ml_canon_reduce(H, (size_t)k, L, n, x, 1) != 0)
            return ml__fail(ctx, ML_M_NOMEM, fn);
    } else {
        uint64_t limit = MAX_SEARCH_BYTES / (L ? L : 1);
        rc = first_generators(ctx, s, limit ? limit : 1, L, &Hsub, &osub, &k, fn);
        H = Hsub;
        orders = osub;
    }
    uint64_t total = 1;   /* prod(orders), saturated */
    for (uint64_t i = 0; !rc && i < k; i++)
        total = total > UINT64_MAX / orders[i] ? UINT64_MAX : total * orders[i];
    st->total = total;
    if (!rc)
        ml_progress_report(ML_PHASE_SEARCH, 0, total);
    if (rc) {
    } else if (total == 1 && every) {
        st->proven = 1;
        st->examined = 1;
    } else if (steps == 0 || no_time) {
        int zero = !any_nonzero(x, L);
        ml_progress_report(ML_PHASE_DESCENT, 0, total);
        rc = descend(ctx, H, k, L, orders, n, x, deadline);
        st->proven = zero;
    } else if (every && ml_cube_applies(n, L, (size_t)k, orders, steps)) {
        rc = cube_minimum(ctx, s, H, orders, k, L, x, steps, deadline_search, deadline, st,
                          fn);
    } else if (every && ml__bnb_applies(n, L, k, total, steps, ml_board_default_steps(b))) {
        rc = ml__bnb_minimum(ctx, H, orders, k, L, n, x, steps, deadline_search, deadline,
                             &st->bnb, &st->examined, &st->proven);
        st->pruned = st->proven ? total - st->examined : 0;
    } else {
        size_t kp = 0;
        uint64_t size = 1;
        while (kp < k && orders[kp] <= (SIZE_LIMIT - 1) / size) {   /* size * o < 2^62 */
            size *= orders[kp];
            kp++;
        }
        double left = 0.0;
        if (deadline_search >= 0) {
            left = deadline_search - now_s();
            if (left < 1e-6)
                left = 1e-6;
        }
        uint64_t walk_budget = steps == UINT64_MAX ? 0 : steps;
        int partial = steps != UINT64_MAX && steps != 0 && steps < size;
        ml_coset_stats cs;
        memset(&cs, 0, sizeof cs);
        rc = coset_walk(ctx, H, orders, kp, L, n, walk_budget, left,
                        partial ? 1 : threads_of(ctx), x, &cs);
        if (!rc) {
            st->examined = cs.examined;
            st->pruned = cs.pruned;
            /* a sub-coset proves nothing, except that length 0 is always least */
            st->proven = (cs.complete && kp == k && every) || !any_nonzero(x, L);
            ml_progress_report(ML_PHASE_SEARCH, st->proven ? total : cs.examined, total);
            if (!st->proven) {
                ml_progress_report(ML_PHASE_DESCENT, cs.examined, total);
                rc = descend(ctx, H, k, L, orders, n, x, deadline);
            }
        }
    }
    free(Hsub);
    free(osub);
    if (rc) {
        stats_free(st);
        return rc;
    }
    if (st->proven)
        st->proof = !any_nonzero(x, L) ? ML__PROOF_TREE0
                    : st->cube ? ML__PROOF_CUBE : st->bnb ? ML__PROOF_BNB
                    : ML__PROOF_ENUMERATION;
    return ML_OK;
}

/* deadline_after(seconds) on now_s's clock (< 0: none). */
static double deadline_after(double seconds)
{
    if (seconds < 0)
        return -1;
    return now_s() + (seconds < MAX_DEADLINE_SECONDS ? seconds : MAX_DEADLINE_SECONDS);
}

int ml__solve_minimal(ml_ctx *ctx, ml_solver *s, uint8_t *x, const ml_factored *ks,
                      ml_budget budget, unsigned flags, ml_result *r)
{
    ctx = ml__ctx(ctx);
    const ml_board *b = ml_solver_board(s);
    size_t L = (size_t)b->n_taps;
    uint64_t steps;
    double seconds;
    resolve_budget(b, ks, budget, 1, &steps, &seconds);
    double t0 = now_s();
    r->searched = 1;
    stats st;
    int rc = minimise(ctx, s, x, steps, deadline_after(seconds), MIN_DESCENT_SECONDS, &st,
                      "ml_solver_solve");
    if (rc)
        return rc;
    r->proven = st.proven;
    r->proof = st.proof;
    r->examined = st.examined;
    r->pruned = st.pruned;
    r->kept = (flags & ML_SOLVE_PROOF) != 0;
    /* the certificate's kernel only when it fits the dense limit (Solver.solve); a
     * transform search's proof names its own (rebased) generators */
    uint64_t null = 0, k = 0;
    const uint8_t *H = NULL;
    const uint32_t *orders = NULL;
    int canonical;
    if (r->kept && r->proven && st.total > 1) {
        rc = ml__solver_nullity(ctx, s, &null);
        if (!rc && null * (L ? L : 1) <= MAX_KERNEL_BYTES && st.cube)
            H = st.cube->plan.gens, k = st.cube->plan.k;
        else if (!rc && null * (L ? L : 1) <= MAX_KERNEL_BYTES && st.bnb)
            H = st.bnb->gens, orders = st.bnb->orders, k = st.bnb->k;
        else if (!rc && null * (L ? L : 1) <= MAX_KERNEL_BYTES)
            rc = ml__solver_generators(ctx, s, &H, &orders, &k, &canonical);
    }
    if (!rc && k) {
        r->gens = malloc((size_t)(k * L) + 1);
        r->gen_orders = malloc((size_t)k * sizeof *r->gen_orders);
        if (!r->gens || !r->gen_orders)
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
    }
    if (!rc && k) {
        if (L)
            memcpy(r->gens, H, (size_t)(k * L));
        for (uint64_t i = 0; i < k; i++)
            r->gen_orders[i] = orders ? orders[i] : 2;
        r->ngens = k;
        if (st.cube) {   /* the symmetries move to the result */
            r->leaf_dim = st.cube->plan.m;
            r->nsyms = st.cube->nsym;
            r->sym_cells = st.cube->cells;
            r->sym_taps = st.cube->taps;
            st.cube->cells = NULL;
            st.cube->taps = NULL;
        } else if (st.bnb && r->proof == ML__PROOF_BNB) {   /* the prefixes move too */
            r->leaf_dim = st.bnb->m;
            r->prefixes = st.bnb->words;
            r->npruned_words = st.bnb->nwords;
            st.bnb->words = NULL;
        }
    }
    stats_free(&st);
    r->seconds = now_s() - t0;
    return rc;
}

/* ------------------------------------------------------------------ batches
 * solver_batch.py: k states of one board from one factorisation. A budget that covers
 * the whole coset (minimal.exhaustive: a trivial kernel, or a count of at least |ker A|
 * and below 2^62, no seconds) searches every board in one batch call of
 * search/coset_batch.h; any other is each board's minimise (no clean-up time of its
 * own) by the deadline shared out evenly over the boards left. */

static int exhaustive(uint64_t ks, uint64_t steps, double seconds)
{
    if (ks == 1)
        return 1;
    return seconds < 0 && steps != UINT64_MAX && steps > 0 && ks <= steps && ks < SIZE_LIMIT;
}

/* minimal.min_many over the m rows of X (n_taps bytes each): lengths (may be NULL) and,
 * with taps, the least-length rows in place. */
static int min_many(ml_ctx *ctx, ml_solver *s, uint8_t *X, size_t m, int64_t *lengths,
                    int taps, const char *fn)
{
    const ml_board *b = ml_solver_board(s);
    size_t L = (size_t)b->n_taps;
    unsigned n = (unsigned)b->n;
    const uint8_t *H;
    const uint32_t *orders;
    uint64_t k;
    int canonical;
    int rc = ml__solver_generators(ctx, s, &H, &orders, &k, &canonical);
    if (rc)
        return rc;
    if (canonical && k && L && ml_canon_reduce(H, (size_t)k, L, n, X, m) != 0)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    if (!m)
        return ML_OK;
    int64_t *len = malloc(m * sizeof *len);
    if (!len)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    int threads = threads_of(ctx), got = 0;
    if (n == 2 && k) {   /* coset_min_many: packed words */
        size_t nw = ml_words(L) ? ml_words(L) : 1;
        uint64_t *xp = calloc(m * nw, 8), *gp = calloc(k * nw, 8);
        uint64_t *bp = taps ? calloc(m * nw, 8) : NULL;
        if (!xp || !gp || (taps && !bp)) {
            got = -2;
        } else {
            if (L) {
                ml_pack_bits(X, m, L, L, xp, nw);
                ml_pack_bits(H, k, L, L, gp, nw);
            }
            got = ml_coset_min_gf2_many(xp, m, nw, L, gp, k, threads, len, bp, nw);
            if (got == 0 && taps && L)
                ml_unpack_bits(bp, m, L, nw, X, L);
        }
        free(xp);
        free(gp);
        free(bp);
    } else if (L) {
        uint8_t *best = taps ? malloc(m * L) : NULL;
        uint8_t zero[1] = {0};
        uint32_t zo[1] = {0};
        if (taps && !best)
            got = -2;
        else
            got = ml_coset_min_zn_many(X, m, L, k ? H : zero, k ? orders : zo, k, L, n,
                                       threads, len, best, L);
        if (got == 0 && taps)
            memcpy(X, best, m * L);
        free(best);
    } else {
        memset(len, 0, m * sizeof *len);
    }
    if (got == 0 && ml_interrupt_poll())
        rc = ml__fail(ctx, ML_M_INTERRUPTED);
    else if (got != 0)
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    if (!rc && lengths)
        memcpy(lengths, len, m * sizeof *len);
    free(len);
    return rc;
}

/* _share: the deadline of the next of `left` boards sharing deadline evenly. */
static double share(double deadline, size_t left)
{
    if (deadline < 0)
        return -1;
    double now = now_s(), rest = deadline - now;
    return now + (rest > 0 ? rest : 0) / (double)(left ? left : 1);
}

static uint64_t row_length(const uint8_t *x, size_t L)
{
    uint64_t t = 0;
    for (size_t j = 0; j < L; j++)
        t += x[j];
    return t;
}

/* The particular solutions X (k x n_taps, malloc'd) and ok of k states. */
static int particular(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                      ml_target target, uint8_t **X, uint8_t *ok, const char *fn)
{
    size_t L = (size_t)ml_board_n_taps(ml_solver_board(s));
    *X = k && L > SIZE_MAX / k ? NULL : malloc(k * L + 1);
    if (!*X)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    memset(ok, 0, k);
    return ml__solver_solve_rows(ctx, s, k, states, target, *X, ok);
}

#define BATCH_BEGIN(fn)                                                                  \
    ML__SOLVER_ENTER(fn)                                                                 \
    if (!states && k)                                                                    \
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "states");
#define BATCH_END() ML__SOLVER_END(rc)

int ml_solver_solvable_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                            ml_target target, uint8_t *ok)
{
    const char *fn = "ml_solver_solvable_many";
    BATCH_BEGIN(fn);
    if (!rc && !ok && k)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "ok");
    uint8_t *X = NULL;
    if (!rc)
        rc = particular(ctx, s, k, states, target, &X, ok, fn);
    for (size_t i = 0; !rc && i < k; i++)
        ok[i] = ok[i] != 0;
    free(X);
    BATCH_END();
}

int ml_solver_min_taps_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                            ml_target target, ml_budget budget, int64_t *lengths,
                            uint8_t *proven)
{
    const char *fn = "ml_solver_min_taps_many";
    BATCH_BEGIN(fn);
    if (!rc && k && (!lengths || !proven))
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, !lengths ? "lengths" : "proven");
    if (!rc)
        rc = ml__check_budget(ctx, budget);
    const ml_board *b = ml_solver_board(s);
    size_t L = (size_t)b->n_taps;
    uint8_t *X = NULL, *ok = malloc(k + 1);
    size_t *rows = malloc((k + 1) * sizeof *rows), nrows = 0;
    if (!rc && (!ok || !rows))
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    double deadline0 = budget.kind == ML_BUDGET_SECONDS ? deadline_after(budget.seconds) : -1;
    if (!rc)
        rc = particular(ctx, s, k, states, target, &X, ok, fn);
    ml_factored ks;
    if (!rc)
        rc = ml__solver_kernel_size(ctx, s, &ks);
    for (size_t i = 0; !rc && i < k; i++) {
        lengths[i] = -1;
        proven[i] = 1;
        if (ok[i])
            rows[nrows++] = i;
    }
    if (!rc) {
        uint64_t steps;
        double seconds;
        resolve_budget(b, &ks, budget, nrows, &steps, &seconds);
        double deadline = budget.kind == ML_BUDGET_DEFAULT ? deadline_after(seconds) : deadline0;
        for (size_t j = 0; j < nrows && L; j++)   /* the solvable rows, in order */
            if (rows[j] != j)
                memcpy(X + j * L, X + rows[j] * L, L);
        if (exhaustive(factored_sat(&ks), steps, seconds)) {
            int64_t *len = malloc((nrows + 1) * sizeof *len);
            rc = len ? min_many(ctx, s, X, nrows, len, 0, fn) : ml__fail(ctx, ML_M_NOMEM, fn);
            for (size_t j = 0; !rc && j < nrows; j++)
                lengths[rows[j]] = len[j];
            free(len);
        } else {
            for (size_t j = 0; !rc && j < nrows; j++) {
                stats st;
                rc = minimise(ctx, s, X + j * L, steps, share(deadline, nrows - j), 0.0, &st,
                              fn);
                stats_free(&st);
                lengths[rows[j]] = (int64_t)row_length(X + j * L, L);
                proven[rows[j]] = (uint8_t)st.proven;
                ml_progress_report(ML_PHASE_BATCH, rows[j] + 1, k);
            }
        }
    }
    free(X);
    free(ok);
    free(rows);
    BATCH_END();
}

int ml_solver_solve_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                         ml_target target, unsigned flags, ml_budget budget, uint8_t *taps,
                         uint8_t *ok)
{
    const char *fn = "ml_solver_solve_many";
    BATCH_BEGIN(fn);
    int minimal = (flags & ML_SOLVE_MINIMAL) != 0;
    if (!rc && !taps && k)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "taps");
    if (!rc && minimal)
        rc = ml__check_budget(ctx, budget);
    const ml_board *b = ml_solver_board(s);
    size_t L = (size_t)b->n_taps, tsize = (size_t)ml_board_taps_size(b);
    uint8_t *X = NULL, *okv = malloc(k + 1);
    if (!rc && !okv)
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    double deadline0 = budget.kind == ML_BUDGET_SECONDS ? deadline_after(budget.seconds) : -1;
    if (!rc)
        rc = particular(ctx, s, k, states, target, &X, okv, fn);
    if (!rc && ok)
        for (size_t i = 0; i < k; i++)
            ok[i] = okv[i] != 0;
    size_t bad = 0;
    for (size_t i = 0; !rc && i < k; i++)
        bad += !okv[i];
    if (!rc && bad) {   /* "3 of 10 boards are unsolvable: indices 1, 4, 7" (20 at most) */
        char idx[400];
        size_t at = 0, shown = 0;
        idx[0] = 0;
        for (size_t i = 0; i < k && shown < 20; i++)
            if (!okv[i]) {
                at += (size_t)snprintf(idx + at, sizeof idx - at, "%s%zu", shown ? ", " : "", i);
                shown++;
            }
        if (bad > 20)
            snprintf(idx + at, sizeof idx - at, " ...");
        rc = ml__fail(ctx, ML_M_UNSOLVABLE_MANY, (unsigned long long)bad, (unsigned long long)k,
                      idx);
    }
    if (!rc && minimal && k) {
        ml_factored ks;
        rc = ml__solver_kernel_size(ctx, s, &ks);
        uint64_t steps;
        double seconds;
        resolve_budget(b, &ks, budget, k, &steps, &seconds);
        double deadline = budget.kind == ML_BUDGET_DEFAULT ? deadline_after(seconds) : deadline0;
        if (!rc && exhaustive(factored_sat(&ks), steps, seconds)) {
            if (factored_sat(&ks) != 1)   /* a trivial kernel: X as it is */
                rc = min_many(ctx, s, X, k, NULL, 1, fn);
        } else {
            for (size_t j = 0; !rc && j < k; j++) {
                stats st;
                rc = minimise(ctx, s, X + j * L, steps, share(deadline, k - j), 0.0, &st, fn);
                stats_free(&st);
                ml_progress_report(ML_PHASE_BATCH, j + 1, k);
            }
        }
    }
    if (!rc) {
        ml__tap_runs it;
        ml__tap_runs_init(&it, b);
        if (ml__tap_runs_next(&it) && it.f == 0 && it.len == tsize && tsize == L) {
            memcpy(taps, X, k * L);   /* every tile a tap: one run, the rows as they are */
        } else {
            memset(taps, 0, k * tsize);
            for (size_t i = 0; i < k; i++)
                for (ml__tap_runs_init(&it, b); ml__tap_runs_next(&it);)
                    memcpy(taps + i * tsize + it.f, X + i * L + it.j, (size_t)it.len);
        }
    }
    free(X);
    free(okv);
    BATCH_END();
}
