/* solver_engine.c: a solver's own engine asked directly (api/solver_engine.h): the
 * questions of the registry's Engine protocol (engines/base.py) for a binding whose
 * Solver facade drives the engine itself. Each call takes the solver, opens a scope,
 * builds the engine (ml__solver_own) and asks its C questions; the engine's own limits
 * and messages apply. */
#include "api/solver_engine.h"

#include "api/board.h"
#include "api/ctx.h"
#include "api/engine.h"
#include "api/solver_impl.h"

#include <stddef.h>
#include <string.h>

/* The structured engines' cap on a kernel basis (engines/algebraic.c, torus.c,
 * tensor.c: KERNEL_BYTES_MAX), named in their refusal. */
#define ENGINE_KERNEL_BYTES_MAX ((uint64_t)1 << 28)

/* A question's status: the engine's message kept, else "the engine %s failed in %s". */
static int asked(ml_ctx *ctx, const ml__engine *e, int rc, const char *question)
{
    if (rc == ML_OK)
        return ML_OK;
    ml_ctx *c = ml__ctx(ctx);
    int st = rc > ML_OK && rc < ML_STATUS_COUNT ? rc : ML_ECALLBACK;
    if (c->status == ML_OK || !c->msg[0])
        ml__fail(ctx, ML_M_CALLBACK, e->name, question);
    c->status = st;
    return st;
}

/* The frame of every question: the solver taken, a scope, the engine built. */
#define BEGIN(fn)                                                                        \
    ML__SOLVER_ENTER(fn)                                                                 \
    const ml__engine *e = NULL;                                                          \
    const ml_engine_def *ops = NULL;                                                     \
    void *user = NULL, *eng = NULL;                                                      \
    rc = ml__solver_own(ctx, s, &e, &ops, &user, &eng);
#define END(rc) ML__SOLVER_END(rc)

static int not_alone(ml_ctx *ctx, const ml__engine *e)
{
    return ml__fail(ctx, ML_M_NOT_ALONE, e->name);
}

int ml__solver_engine_solve(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *R,
                            uint8_t *X, uint8_t *ok)
{
    BEGIN("ml__solver_engine_solve");
    if (!rc && k && (!R || !X || !ok))
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml__solver_engine_solve", !R ? "R" : !X ? "X" : "ok");
    if (!rc && k && !ops->solve)
        rc = not_alone(ctx, e);
    if (!rc && k)
        rc = asked(ctx, e, ops->solve(user, ctx, eng, k, R, X, ok), "solve");
    END(rc);
}

int ml__solver_engine_generators(ml_ctx *ctx, ml_solver *s, uint64_t limit, uint64_t *k,
                                 uint8_t *H, uint32_t *orders)
{
    BEGIN("ml__solver_engine_generators");
    if (!rc && (!k || (H && !orders)))
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml__solver_engine_generators",
                      !k ? "k" : "orders");
    if (!rc && (!ops->generators || !ops->nullity))
        rc = not_alone(ctx, e);
    uint64_t null = 0;
    if (!rc)
        rc = asked(ctx, e, ops->nullity(user, ctx, eng, &null), "nullity");
    if (!rc) {
        uint64_t want = limit < null ? limit : null;
        *k = want;
        /* asking for the count of all of them: the engine's refusal when its basis does
         * not fit (its kernel_fits), before the caller allocates the rows */
        int fits = 1;
        if (!H && want && want == null && ops->kernel_fits)
            rc = asked(ctx, e, ops->kernel_fits(user, ctx, eng, &fits), "kernel_fits");
        if (!rc && !fits) {
            uint64_t hw = ml_board_n_taps(ml_solver_board(s));
            double gib = (double)want * (double)hw / (1024.0 * 1024.0 * 1024.0);
            rc = ml__fail(ctx, ML_M_KERNEL_BASIS_TOO_LARGE, (unsigned long long)want,
                          (unsigned long long)hw, gib, (double)ENGINE_KERNEL_BYTES_MAX /
                                                           (1024.0 * 1024.0));
        }
        if (!rc && H && want)
            rc = asked(ctx, e, ops->generators(user, ctx, eng, want, k, H, orders),
                       "generators");
        if (!rc && *k > want)
            rc = ml__fail(ctx, ML_M_INTERNAL, "ml__solver_engine_generators",
                          "the engine gave more generators than asked for");
    }
    END(rc);
}

int ml__solver_engine_kernel_fits(ml_ctx *ctx, ml_solver *s, int *fits)
{
    BEGIN("ml__solver_engine_kernel_fits");
    if (!rc && !fits)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml__solver_engine_kernel_fits", "fits");
    if (!rc) {
        *fits = 1;
        if (ops->kernel_fits)
            rc = asked(ctx, e, ops->kernel_fits(user, ctx, eng, fits), "kernel_fits");
    }
    END(rc);
}

/* Whether the own engine packs b's states (n = 2, a grid, solve_packed defined). */
static int packs_of(const ml__engine *e, const ml_engine_def *ops, const ml_board *b)
{
    return ops->solve_packed && (e->answers & ML_Q_SOLVE_PACKED) && b->n == 2 &&
           b->kind == ML_BOARD_GRID;
}

int ml__solver_engine_packed(ml_ctx *ctx, ml_solver *s, int *packs, int *transposed)
{
    BEGIN("ml__solver_engine_packed");
    if (!rc && (!packs || !transposed))
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml__solver_engine_packed",
                      !packs ? "packs" : "transposed");
    if (!rc) {
        const ml_board *b = ml_solver_board(s);
        *packs = packs_of(e, ops, b);
        *transposed = *packs && ml__packed_along_rows(e, b) == 0;
    }
    END(rc);
}

int ml__solver_engine_solve_packed(ml_ctx *ctx, ml_solver *s, const uint8_t *packed,
                                   unsigned fill, uint8_t *out, int *solvable)
{
    BEGIN("ml__solver_engine_solve_packed");
    if (!rc && (!packed || !out || !solvable))
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml__solver_engine_solve_packed",
                      !packed ? "packed" : !out ? "out" : "solvable");
    const ml_board *b = ml_solver_board(s);
    if (!rc && (b->n != 2 || b->kind != ML_BOARD_GRID))   /* solve_packed.c's refusal */
        rc = ml__fail(ctx, ML_M_PACKED_NEEDS_GF2_GRID, (int)b->n,
                      b->kind == ML_BOARD_GRID ? "" : " and is a graph board");
    if (!rc && !packs_of(e, ops, b))
        rc = not_alone(ctx, e);
    if (!rc) {
        *solvable = 0;
        rc = asked(ctx, e, ops->solve_packed(user, ctx, eng, packed, fill & 1u, out, solvable),
                   "solve_packed");
    }
    END(rc);
}
