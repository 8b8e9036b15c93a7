/* example-minimal: the fewest taps for a state within a budget of coset elements (the
 * same answer on every machine), and whether that minimum is proved. */
#include <modlights.h>
#include <stdio.h>

static int report(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_budget budget,
                  const char *what)
{
    ml_result *r = NULL;
    if (ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL, budget, &r)) {
        fprintf(stderr, "%s: %s\n", what, ml_errmsg(ctx));
        return -1;
    }
    printf("%s: %llu taps, %s (%llu coset elements examined)\n", what,
           (unsigned long long)ml_result_length(r),
           ml_result_proven_minimal(r) ? "proved minimal" : "not proved minimal",
           (unsigned long long)ml_result_examined(r));
    int proven = ml_result_proven_minimal(r);
    ml_result_free(r);
    return proven;
}

int main(void)
{
    ml_ctx *ctx = NULL;
    ml_board *b = NULL;
    ml_solver *s = NULL;
    uint8_t state[9 * 9];
    int rc = 1;
    if (ml_ctx_new(&ctx) || ml_board_grid(ctx, 9, 9, 2, "cross", &b)
        || ml_solver_new(ctx, b, "auto", &s)
        || ml_board_random_state(ctx, b, 7, 1, state)) {
        fprintf(stderr, "%s\n", ml_errmsg(ctx));
        goto done;
    }
    ml_factored ks;
    uint64_t size = 0;
    if (ml_solver_kernel_size(ctx, s, &ks) || ml_factored_u64(ctx, &ks, &size))
        goto done;
    printf("9x9 cross, n = 2: |ker A| = %llu solutions per solvable state\n",
           (unsigned long long)size);
    /* a budget of 16 elements cannot cover the coset: the best found, not proved */
    int small = report(ctx, s, state, ml_budget_steps(16), "budget 16");
    /* the whole coset: proved */
    int whole = report(ctx, s, state, ml_budget_steps(size), "budget |ker A|");
    rc = !(small == 0 && whole == 1);
done:
    ml_solver_free(s);
    ml_board_free(b);
    ml_ctx_free(ctx);
    return rc;
}
