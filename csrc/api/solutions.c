/* solutions.c: every solution of a state, one at a time (modlights.h: ml_solver_solutions;
 * Solver.solutions): x0 + sum c_i h_i mod n over the coefficient tuples c of the kernel's
 * generators h_i (the solver's, canonical where they fit: Solver._generators), in
 * itertools.product order (the last generator's coefficient varies fastest), so the
 * sequence is Python's element for element. None when the state cannot reach the target;
 * one (x0) when the kernel is trivial. The iterator copies what it needs (the particular
 * solution, the generators, the board retained): the solver stays free for other calls
 * and may be freed first. Each ml_solutions_next is O(k + n_taps) for k generators. */
#include "api/board.h"
#include "api/ctx.h"
#include "api/solver_impl.h"

#include <stdlib.h>
#include <string.h>

#define ML_SOLUTIONS_MAGIC 0x6d6c736eu   /* "mlsn" */

struct ml_solutions {
    uint32_t magic;
    ml_board *b;
    uint64_t r;          /* n_taps */
    unsigned n;
    uint64_t k;          /* generators */
    uint8_t *x0;         /* r bytes */
    uint8_t *H;          /* k x r bytes */
    uint32_t *orders;    /* k */
    uint32_t *c;         /* k: the coefficients of the next element */
    int done;
};

static int live(const ml_solutions *it) { return it && it->magic == ML_SOLUTIONS_MAGIC; }

void ml_solutions_free(ml_solutions *it)
{
    if (!live(it))
        return;
    it->magic = 0;
    ml_board_free(it->b);
    free(it->x0);
    free(it->H);
    free(it->orders);
    free(it->c);
    free(it);
}

int ml_solver_solutions(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                        ml_solutions **out)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    if (!out)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_solver_solutions", "out"));
    *out = NULL;
    int rc = ml__solver_take(ctx, s, "ml_solver_solutions");
    if (rc)
        return ml__leave(ctx, &sc, rc);
    if (!state) {
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_solver_solutions", "state");
        ml__solver_give(s);
        return ml__leave(ctx, &sc, rc);
    }
    const ml_board *b = ml_solver_board(s);
    uint64_t r = b->n_taps;
    ml_solutions *it = calloc(1, sizeof *it);
    uint8_t ok = 0;
    if (it)
        it->x0 = malloc(r + 1);
    rc = it && it->x0 ? ml__solver_solve_rows(ctx, s, 1, state, target, it->x0, &ok)
                      : ml__fail(ctx, ML_M_NOMEM, "ml_solver_solutions");
    if (!rc && ok) {
        const uint8_t *H = NULL;
        const uint32_t *orders = NULL;
        uint64_t k = 0;
        int canonical = 0;
        rc = ml__solver_generators(ctx, s, &H, &orders, &k, &canonical);
        if (!rc) {
            it->k = k;
            it->H = malloc(k * r + 1);
            it->orders = malloc((k + 1) * sizeof *it->orders);
            it->c = calloc(k + 1, sizeof *it->c);
            if (!it->H || !it->orders || !it->c)
                rc = ml__fail(ctx, ML_M_NOMEM, "ml_solver_solutions");
        }
        if (!rc) {
            if (k && r)
                memcpy(it->H, H, k * r);
            if (k)
                memcpy(it->orders, orders, k * sizeof *orders);
        }
    }
    if (!rc) {
        it->done = !ok;
        it->r = r;
        it->n = (unsigned)b->n;
        it->b = ml_board_retain((ml_board *)b);
        it->magic = ML_SOLUTIONS_MAGIC;
        *out = it;
    } else if (it) {
        free(it->x0);
        free(it->H);
        free(it->orders);
        free(it->c);
        free(it);
    }
    ml__solver_give(s);
    return ml__leave(ctx, &sc, rc);
}

int ml_solutions_next(ml_ctx *ctx, ml_solutions *it, uint8_t *taps, int *done)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    if (!live(it))
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_DEAD_HANDLE, "ml_solutions_next",
                                            "solutions iterator"));
    if (!done)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_solutions_next", "done"));
    if (it->done) {
        *done = 1;
        return ml__leave(ctx, &sc, ML_OK);
    }
    if (!taps)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_solutions_next", "taps"));
    const ml_board *b = it->b;
    uint64_t r = it->r, size = ml_board_taps_size(b);
    unsigned n = it->n;
    memset(taps, 0, size);
    ml__tap_runs run;
    for (ml__tap_runs_init(&run, b); ml__tap_runs_next(&run);)
        for (uint64_t j = run.j; j < run.j + run.len; j++) {
            unsigned v = it->x0[j];
            for (uint64_t i = 0; i < it->k; i++)
                if (it->c[i])
                    v = (v + (unsigned)((uint64_t)it->c[i] * it->H[i * r + j] % n)) % n;
            taps[run.f + (j - run.j)] = (uint8_t)v;
        }
    *done = 0;
    /* the next coefficients: an odometer, the last generator fastest */
    uint64_t i = it->k;
    int carry = 1;
    while (i > 0 && carry) {
        i--;
        if (++it->c[i] < it->orders[i])
            carry = 0;
        else
            it->c[i] = 0;
    }
    it->done = carry;   /* wrapped round (or no generators): that was the last */
    return ml__leave(ctx, &sc, ML_OK);
}
