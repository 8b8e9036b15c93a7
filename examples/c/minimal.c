/* example-minimal: the fewest taps for a state within a budget of coset elements (a
 * count: the same answer on every machine), and whether that minimum is proved. The
 * state is what tapping both diagonals of the 9 x 9 board makes (17 taps). */
#include <modlights.h>
#include <stdio.h>
#include <string.h>

/* Solve within the budget: the length, and whether it is proved (-1 on failure). */
static int report(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_budget budget,
                  const char *what, uint64_t *length)
{
    ml_result *r = NULL;
    if (ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL, budget, &r)) {
        fprintf(stderr, "%s: %s\n", what, ml_errmsg(ctx));
        return -1;
    }
    int proven = ml_result_proven_minimal(r);
    *length = ml_result_length(r);
    printf("%s: %llu taps, %s (%llu coset elements examined)\n", what,
           (unsigned long long)*length, proven ? "proved minimal" : "not proved minimal",
           (unsigned long long)ml_result_examined(r));
    ml_result_free(r);
    return proven;
}

int main(void)
{
    ml_ctx *ctx = NULL;
    ml_board *b = NULL;
    ml_solver *s = NULL;
    uint8_t zero[81], taps[81], state[81];
    int rc = 1;
    memset(zero, 0, sizeof zero);
    memset(taps, 0, sizeof taps);
    for (int i = 0; i < 9; i++)
        taps[9 * i + i] = taps[9 * i + 8 - i] = 1;
    if (ml_ctx_new(&ctx) || ml_board_grid(ctx, 9, 9, 2, "cross", &b)
        || ml_board_apply(ctx, b, zero, taps, state) || ml_solver_new(ctx, b, "auto", &s)) {
        fprintf(stderr, "%s\n", ml_errmsg(ctx));
        goto done;
    }
    ml_factored ks;
    uint64_t size = 0, short_len = 0, whole_len = 0;
    if (ml_solver_kernel_size(ctx, s, &ks) || ml_factored_u64(ctx, &ks, &size))
        goto done;
    printf("9x9 cross, n = 2: |ker A| = %llu solutions for each solvable state\n",
           (unsigned long long)size);
    /* 16 elements cannot cover the coset: the best found (then improved greedily) */
    int small = report(ctx, s, state, ml_budget_steps(16), "budget 16", &short_len);
    /* the whole coset: the minimum, proved */
    int whole = report(ctx, s, state, ml_budget_steps(size), "budget |ker A|", &whole_len);
    /* Python: ml.Solver(b).solve(state, budget=16) -> 17 taps, proven_minimal False;
     * budget=256 -> 17 taps, True */
    rc = !(size == 256 && small == 0 && whole == 1 && short_len == 17 && whole_len == 17);
done:
    ml_solver_free(s);
    ml_board_free(b);
    ml_ctx_free(ctx);
    return rc;
}
