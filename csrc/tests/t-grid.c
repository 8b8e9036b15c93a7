/* t-grid: csrc/api/grid.c: the named patterns (lookup with case
 * and blanks, names, offsets), the grid builder's refusals with Python's messages
 * (states, sides, unknown pattern with repr quoting, reach, too many offsets, off-board
 * locks and holes, palette entries, a tile both locked and a hole, locks on a giant
 * grid), and random grids (named and random offsets, repeats, mixed palettes, wrap,
 * locks and holes, sides 1..9, n 2..255) whose tap matrix is the oracle's count. Exit
 * status 0 when every check holds (prints fails=N).
 * ml-test-sources: api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c */
#include "include/modlights.h"
#include "tests/board-oracle.h"

static void test_grid_messages(ml_ctx *ctx)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    CHECK(ml_grid_new(ctx, 2, 2, 256, &g) == ML_ERANGE);
    MSG(ctx, "states must be from 2 to 255, got 256");
    CHECK(ml_grid_new(ctx, 0, 2, 2, &g) == ML_ERANGE);
    MSG(ctx, "rows must be from 1 to 1048576, got 0");
    CHECK(ml_grid_new(ctx, 3, 3, 3, &g) == ML_OK);
    CHECK(ml_grid_set_pattern_name(ctx, g, "nope") == ML_EINVAL);
    MSG(ctx, "unknown pattern 'nope': use one of 'cross', 'diagonal', 'square', 'horizontal', "
             "'vertical', 'knight', or a sequence of (dr, dc) offsets");
    CHECK(ml_grid_set_pattern_name(ctx, g, "it's") == ML_EINVAL);
    CHECK(strstr(ml_errmsg(ctx), "unknown pattern \"it's\":") != NULL);
    CHECK(ml_grid_set_pattern_name(ctx, g, "  KNIGHT\t") == ML_OK);
    int64_t far_r[2] = {0, 1025}, far_c[2] = {0, 0};
    CHECK(ml_grid_set_offsets(ctx, g, 2, far_r, far_c) == ML_ERANGE);
    MSG(ctx, "pattern offset (1025, 0) reaches further than 1024 tiles");
    CHECK(ml_grid_set_offsets(ctx, g, 4097, far_r, far_c) == ML_ETOOLARGE);
    MSG(ctx, "pattern has more than 4096 items");
    CHECK(ml_grid_lock(ctx, g, 3, 0) == ML_ERANGE);
    MSG(ctx, "locked (3, 0) is off the board: rows 0..2, cols 0..2");
    CHECK(ml_grid_hole(ctx, g, 0, -1) == ML_ERANGE);
    MSG(ctx, "holes (0, -1) is off the board: rows 0..2, cols 0..2");
    uint32_t idx[9] = {0};
    CHECK(ml_grid_set_mixed(ctx, g, idx) == ML_ERANGE);
    MSG(ctx, "tile (0, 0) uses palette entry 0, the palette has 0");
    CHECK(ml_grid_lock(ctx, g, 1, 1) == ML_OK && ml_grid_hole(ctx, g, 1, 1) == ML_OK);
    CHECK(ml_grid_build(ctx, g, &b) == ML_EINVAL);
    MSG(ctx, "tile (1, 1) is both locked and a hole; a tile may be one or the other");
    CHECK(ml_grid_set_holes(ctx, g, NULL) == ML_OK && ml_grid_lock(ctx, g, 0, 0) == ML_OK);
    CHECK(ml_grid_hole(ctx, g, 2, 2) == ML_OK);
    CHECK(ml_grid_build(ctx, g, &b) == ML_OK);
    ml_grid_free(g);
    ml_board_free(b);

    /* giant boards: uniform only, described by shape and pattern */
    CHECK(ml_grid_new(ctx, 1 << 20, 1 << 20, 2, &g) == ML_OK);
    CHECK(ml_grid_lock(ctx, g, 0, 0) == ML_ETOOLARGE);
    MSG(ctx, "board too large: 1048576x1048576 = 1099511627776 tiles; more than 134217728 "
             "tiles are allowed only for uniform boards (one pattern, no locked tiles or holes)");
    CHECK(ml_grid_build(ctx, g, &b) == ML_OK && ml_board_is_giant(b));
    ml_grid_free(g);
    ml_board_free(b);

    CHECK(ml_grid_new(ctx, 1, 2, 2, &g) == ML_OK);
    uint32_t at = 0, mix[2] = {1, 0};
    CHECK(ml_grid_palette_add(ctx, g, ML_PATTERN_CROSS, &at) == ML_OK && at == 0);
    CHECK(ml_grid_palette_add(ctx, g, ML_PATTERN_HORIZONTAL, &at) == ML_OK && at == 1);
    CHECK(ml_grid_set_mixed(ctx, g, mix) == ML_OK && ml_grid_build(ctx, g, &b) == ML_OK);
    CHECK(ml_board_is_mixed(b));
    ml_grid_free(g);
    ml_board_free(b);
}

static void test_patterns(ml_ctx *ctx)
{
    for (int id = 0; id < ML_PATTERN_COUNT; id++) {
        int back = -1;
        CHECK(ml_pattern_lookup(ctx, ml_pattern_name(id), &back) == ML_OK && back == id);
        int32_t dr[9], dc[9];
        size_t k = ml_pattern_offsets(id, dr, dc, 9);
        CHECK(k >= 3 && k <= 9 && dr[0] == 0 && dc[0] == 0);
    }
    CHECK(ml_pattern_name(ML_PATTERN_COUNT) == NULL && ml_pattern_offsets(-1, NULL, NULL, 0) == 0);
    CHECK(ml_pattern_offsets(ML_PATTERN_KNIGHT, NULL, NULL, 0) == 9);
}

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    test_patterns(ctx);
    test_grid_messages(ctx);
    test_random_grids(ctx, 0);
    ml_ctx_free(ctx);
    printf("fails=%d\n", fails);
    return fails != 0;
}
