/* solve.c: the minimal search of ml_solver_solve (ML_SOLVE_MINIMAL), the policy of
 * solver.py's Solver.solve(minimal=True), solver_budget.py's default budget and
 * search/minimal.py's minimise without an executor: the budget resolved (a count of
 * coset elements, a deadline, or the default: a coset of at most the default count
 * searched whole by that count, a larger one for DEFAULT_SECONDS), the particular
 * solution made the canonical representative of its coset, then
 *
 *  - a trivial kernel: the solution, proved;
 *  - a budget of 0 elements or no time: the greedy descent (search/driver.h), proved
 *    only when the solution has length 0;
 *  - otherwise the Gray-code walk of search/coset.h over the longest prefix of
 *    generators of fewer than 2^62 elements (one thread when a count budget is short of
 *    it, so the answer is the same on every machine; the context's threads, at most
 *    8 by default, for whole walks and deadlines), proved when it covered the coset (or
 *    found length 0), else descended greedily until the deadline (at least
 *    MIN_DESCENT_SECONDS after the search started).
 *
 * Not yet in C (ML_ENOTIMPL, saying so): the GF(2) transform search that minimal.py
 * takes for a kernel of nullity CUBE_MIN_NULLITY (22) or more (search/cube.py's plan
 * and the board's symmetries), and kernels past MAX_SEARCH_BYTES whose search holds a
 * sub-coset. */
#include "api/board.h"
#include "api/ctx.h"
#include "api/json.h"
#include "api/solver_impl.h"
#include "base/interrupt.h"
#include "dense/pack.h"
#include "search/canon.h"
#include "search/coset.h"
#include "search/driver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* solver.py / solver_budget.py / search/minimal.py / search/cube.py constants */
#define DEFAULT_SECONDS 1.0
#define DEFAULT_NATIVE_BUDGET ((uint64_t)1 << 24)
#define MAX_SEARCH_BYTES ((uint64_t)1 << 24)
#define MIN_DESCENT_SECONDS 0.05
#define CUBE_MIN_NULLITY 22
#define CUBE_MAX_TAPS 32767
#define CUBE_MAX_NULLITY (63 + 24)
#define CUBE_MIN_STEPS ((uint64_t)1 << (14 + 2 + 6))   /* LOW_DIM + 2 + CORNER_LOG */
#define SIZE_LIMIT ((uint64_t)1 << 62)
#define MAX_DEADLINE_SECONDS 1e12                        /* deadline_after's cap */
#define MAX_KERNEL_BYTES ((uint64_t)1 << 30)

int ml__check_budget(ml_ctx *ctx, ml_budget budget)
{
    if (budget.kind < ML_BUDGET_DEFAULT || budget.kind > ML_BUDGET_SECONDS)
        return ml__fail(ctx, ML_M_BUDGET_KIND, budget.kind);
    if (budget.kind == ML_BUDGET_SECONDS && !(budget.seconds >= 0)) {
        char num[64];
        ml__json_float_repr(budget.seconds, num, sizeof num);
        return ml__fail(ctx, ML_M_BUDGET_SECONDS, num);
    }
    return ML_OK;
}

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
 * none. _default_count: a coset step costs O(n_taps) (/ 64 over GF(2)), about 2^30
 * operations at most. */
static void resolve_budget(const ml_board *b, const ml_factored *ks, ml_budget budget,
                           uint64_t *steps, double *seconds)
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
    uint64_t per_step = b->n_taps / (b->n == 2 ? 64u : 1u);
    if (per_step < 1)
        per_step = 1;
    uint64_t count = ((uint64_t)1 << 30) / per_step;
    if (count > DEFAULT_NATIVE_BUDGET)
        count = DEFAULT_NATIVE_BUDGET;
    if (count < 256)
        count = 256;
    if (factored_sat(ks) <= count)
        *steps = count;
    else
        *seconds = DEFAULT_SECONDS;
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

int ml__solve_minimal(ml_ctx *ctx, ml_solver *s, uint8_t *x, const ml_factored *ks,
                      ml_budget budget, unsigned flags, ml_result *r)
{
    ctx = ml__ctx(ctx);
    const ml_board *b = ml_solver_board(s);
    size_t L = (size_t)b->n_taps;
    unsigned n = (unsigned)b->n;
    uint64_t steps;
    double seconds;
    resolve_budget(b, ks, budget, &steps, &seconds);
    double t0 = now_s();
    /* minimise: the deadline of the search, and of the descent (at least
     * MIN_DESCENT_SECONDS from now) */
    double deadline_search = -1, deadline = -1;
    if (seconds >= 0) {
        deadline_search = t0 + (seconds < MAX_DEADLINE_SECONDS ? seconds : MAX_DEADLINE_SECONDS);
        deadline = deadline_search > t0 + MIN_DESCENT_SECONDS ? deadline_search
                                                               : t0 + MIN_DESCENT_SECONDS;
    }
    int no_time = seconds >= 0 && deadline_search - now_s() <= 0;
    r->searched = 1;
    uint64_t null = 0;
    int rc = ml__solver_nullity(ctx, s, &null);
    if (rc)
        return rc;
    if (!ml__solver_has_generators(s) && null * (L ? L : 1) > MAX_SEARCH_BYTES)
        return ml__not_implemented(
            ctx, "ml_solver_solve with ML_SOLVE_MINIMAL on a kernel of more than "
                 "MAX_SEARCH_BYTES (2^24) bytes (its search holds a sub-coset)");
    const uint8_t *H;
    const uint32_t *orders;
    uint64_t k;
    int canonical;
    rc = ml__solver_generators(ctx, s, &H, &orders, &k, &canonical);
    if (rc)
        return rc;
    if (canonical && k && L && ml_canon_reduce(H, (size_t)k, L, n, x, 1) != 0)
        return ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
    uint64_t total = 1;   /* prod(orders), saturated */
    for (uint64_t i = 0; i < k; i++)
        total = total > UINT64_MAX / orders[i] ? UINT64_MAX : total * orders[i];
    r->examined = r->pruned = 0;
    r->proof = ML__PROOF_NONE;
    ml_progress_report(ML_PHASE_SEARCH, 0, total);
    if (total == 1) {
        r->proven = 1;
        r->examined = 1;
    } else if (steps == 0 || no_time) {
        int zero = !any_nonzero(x, L);
        ml_progress_report(ML_PHASE_DESCENT, 0, total);
        rc = descend(ctx, H, k, L, orders, n, x, deadline);
        r->proven = zero;
    } else if (n == 2 && k >= CUBE_MIN_NULLITY && L > 0 && L <= CUBE_MAX_TAPS &&
               k <= CUBE_MAX_NULLITY &&
               (steps == UINT64_MAX || steps >= (total < CUBE_MIN_STEPS ? total : CUBE_MIN_STEPS))) {
        return ml__not_implemented(
            ctx, "ml_solver_solve with ML_SOLVE_MINIMAL on a GF(2) kernel of nullity 22 or "
                 "more (the transform search of search/cube.py)");
    } else {
        size_t kp = 0;
        uint64_t size = 1;
        while (kp < k && size * orders[kp] < SIZE_LIMIT) {
            size *= orders[kp];
            kp++;
        }
        double left = 0.0;
        if (seconds >= 0) {
            left = deadline_search - now_s();
            if (left < 1e-6)
                left = 1e-6;
        }
        uint64_t walk_budget = steps == UINT64_MAX ? 0 : steps;
        int partial = steps != UINT64_MAX && steps != 0 && steps < size;
        ml_coset_stats st;
        memset(&st, 0, sizeof st);
        rc = coset_walk(ctx, H, orders, kp, L, n, walk_budget, left,
                        partial ? 1 : threads_of(ctx), x, &st);
        if (rc)
            return rc;
        r->examined = st.examined;
        r->pruned = st.pruned;
        r->proven = (st.complete && kp == k) || !any_nonzero(x, L);
        ml_progress_report(ML_PHASE_SEARCH, r->proven ? total : st.examined, total);
        if (!r->proven) {
            ml_progress_report(ML_PHASE_DESCENT, st.examined, total);
            rc = descend(ctx, H, k, L, orders, n, x, deadline);
        }
    }
    if (rc)
        return rc;
    if (r->proven)
        r->proof = any_nonzero(x, L) ? ML__PROOF_ENUMERATION : ML__PROOF_TREE0;
    r->kept = (flags & ML_SOLVE_PROOF) != 0;
    /* the certificate's kernel only when it fits the dense limit (Solver.solve) */
    if (r->kept && r->proven && total > 1 && null * (L ? L : 1) <= MAX_KERNEL_BYTES && k) {
        r->gens = malloc((size_t)(k * L) + 1);
        r->gen_orders = malloc((size_t)k * sizeof *r->gen_orders);
        if (!r->gens || !r->gen_orders)
            return ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
        if (L)
            memcpy(r->gens, H, (size_t)(k * L));
        memcpy(r->gen_orders, orders, (size_t)k * sizeof *orders);
        r->ngens = k;
    }
    r->seconds = now_s() - t0;
    return ML_OK;
}
