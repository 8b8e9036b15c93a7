/* solve_budget.c: the minimal search's budget checks and default count (solve.c's
 * policy; modlights.h: ml_board_default_steps). */
#include "api/board.h"
#include "api/ctx.h"
#include "api/json.h"
#include "api/solver_impl.h"

#include <stdint.h>

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

uint64_t ml_board_default_steps(const ml_board *b)
{
    if (!b)
        return 256;
    uint64_t per_step = b->n_taps / (b->n == 2 ? 64u : 1u);
    if (per_step < 1)
        per_step = 1;
    uint64_t count = ((uint64_t)1 << 30) / per_step;
    if (count > ML__DEFAULT_NATIVE_BUDGET)
        count = ML__DEFAULT_NATIVE_BUDGET;
    return count < 256 ? 256 : count;
}
