/* example-plan: which engine answers a board, why, and why every other one was passed
 * over; then a method that does not cover the board. */
#include <modlights.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    ml_board *b = NULL, *graph = NULL;
    ml_plan *p = NULL;
    int rc = 1;
    /* ctx = NULL: the calling thread's default context */
    if (ml_board_grid(NULL, 200, 200, 2, "cross", &b) || ml_plan_choose(NULL, b, "auto", NULL, &p)) {
        fprintf(stderr, "%s\n", ml_errmsg(NULL));
        goto done;
    }
    printf("engine %s (family %s): %s\n", ml_plan_engine(p), ml_plan_family(p),
           ml_plan_reason(p));
    for (size_t i = 0; i < ml_plan_rejected_count(p); i++) {
        const char *name, *why;
        if (ml_plan_rejected(p, i, &name, &why) == ML_OK)
            printf("  not %s: %s\n", name, why);
    }
    /* the same as one text, as Solver.plan.explain() prints it */
    char text[8192];
    size_t len = 0;
    if (ml_plan_explain(NULL, p, text, sizeof text, &len) || len >= sizeof text)
        goto done;
    printf("%s\n", text);

    /* the chase takes grid boards only: a graph board is refused, with the reasons */
    const int64_t indptr[] = {0, 2, 3}, cells[] = {0, 1, 1};
    if (ml_board_from_effects(NULL, 2, -1, 2, indptr, cells, &graph))
        goto done;
    ml_plan *q = NULL;
    if (ml_plan_choose(NULL, graph, "chase", NULL, &q) != ML_ENOTCOVERED) {
        ml_plan_free(q);
        fprintf(stderr, "method 'chase' should not cover a graph board\n");
        goto done;
    }
    printf("method 'chase' on a graph board: %s\n", ml_errmsg(NULL));
    rc = strcmp(ml_plan_engine(p), "algebraic-cross") != 0;   /* the 200 x 200 cross: algebraic */
done:
    ml_plan_free(p);
    ml_board_free(graph);
    ml_board_free(b);
    return rc;
}
