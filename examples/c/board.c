/* example-board: build a 5 x 5 board with 3 states, the cross pattern, a locked tile and
 * a hole; tap it once; and see the message a bad tap gets. */
#include <modlights.h>
#include <stdio.h>
#include <string.h>

static int fail(ml_ctx *ctx)
{
    fprintf(stderr, "error [%s]: %s\n", ml_status_name(ml_errcode(ctx)), ml_errmsg(ctx));
    return 1;
}

int main(void)
{
    ml_ctx *ctx = NULL;
    ml_grid *g = NULL;
    ml_board *b = NULL;
    int rc = 1;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    if (ml_grid_new(ctx, 5, 5, 3, &g) || ml_grid_set_pattern_name(ctx, g, "cross")
        || ml_grid_lock(ctx, g, 0, 0) || ml_grid_hole(ctx, g, 4, 4) || ml_grid_build(ctx, g, &b)) {
        rc = fail(ctx);
        goto done;
    }
    printf("%lldx%lld board, n = %d: %llu cells x %llu taps\n", (long long)ml_board_rows(b),
           (long long)ml_board_cols(b), ml_board_states(b),
           (unsigned long long)ml_board_n_cells(b), (unsigned long long)ml_board_n_taps(b));

    uint8_t state[25], after[25];
    memset(state, 0, sizeof state);
    if (ml_board_press(ctx, b, state, 2, 2, 1, after)) {   /* tap the centre once */
        rc = fail(ctx);
        goto done;
    }
    for (int r = 0; r < 5; r++)
        printf("%d %d %d %d %d\n", after[5 * r], after[5 * r + 1], after[5 * r + 2],
               after[5 * r + 3], after[5 * r + 4]);

    /* bad input is a status and a message that says what is allowed */
    if (ml_board_press(ctx, b, state, 0, 0, 1, after) != ML_EINVAL
        || strcmp(ml_errmsg(ctx), "cannot tap (0, 0): it is locked") != 0) {
        fprintf(stderr, "tapping a locked tile was not refused as it should be\n");
        goto done;
    }
    printf("tap (0, 0): %s\n", ml_errmsg(ctx));
    rc = 0;
done:
    ml_board_free(b);
    ml_grid_free(g);
    ml_ctx_free(ctx);
    return rc;
}
