/* t-board_play: csrc/api/board_play.c: on random grids (every named pattern, random
 * offsets, mixed palettes, locks, holes, wrap, sides 1..9, n 2..255) tap and cell
 * positions and indices both ways, each tap's effect, apply (state + A x, 0 at holes, in
 * place too) and press agree with the oracle's tap matrix, masks with the description;
 * refusals with Python's messages (cannot tap a locked tile or a hole, off the board,
 * index ranges, per-tile work on a giant grid, its dense matrix, the pattern of a mixed
 * board); the coordinate form (ml__board_coo: its pairs summed mod n are the oracle's
 * matrix, a short buffer gets the count and its first pairs, a giant grid refused).
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c */
#include "include/modlights.h"
#include "api/board.h"
#include "tests/board-oracle.h"

static void test_play_messages(ml_ctx *ctx)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    CHECK(ml_grid_new(ctx, 3, 3, 3, &g) == ML_OK && ml_grid_set_pattern(ctx, g, ML_PATTERN_KNIGHT) == ML_OK);
    CHECK(ml_grid_lock(ctx, g, 0, 0) == ML_OK && ml_grid_lock(ctx, g, 1, 1) == ML_OK);
    CHECK(ml_grid_hole(ctx, g, 2, 2) == ML_OK && ml_grid_build(ctx, g, &b) == ML_OK);
    ml_grid_free(g);
    int64_t far_r[2] = {0, 1025}, far_c[2] = {0, 0};
    uint8_t s[9] = {0}, out[9], x[9] = {0};
    uint64_t j;
    CHECK(ml_board_press(ctx, b, s, 0, 0, 1, out) == ML_EINVAL);
    MSG(ctx, "cannot tap (0, 0): it is locked");
    CHECK(ml_board_press(ctx, b, s, 2, 2, 1, out) == ML_EINVAL);
    MSG(ctx, "cannot tap (2, 2): it is a hole");
    CHECK(ml_board_press(ctx, b, s, 3, 0, 1, out) == ML_ERANGE);
    MSG(ctx, "tap position (3, 0) is off the board: rows 0..2, cols 0..2");
    CHECK(ml_board_cell_index(ctx, b, 2, 2, &j) == ML_EINVAL);
    MSG(ctx, "(2, 2) is a hole, not a tile");
    CHECK(ml_board_cell_index(ctx, b, 0, 0, &j) == ML_OK && j == 0);
    CHECK(ml_board_tap_position(ctx, b, 6, &far_r[0], &far_c[0]) == ML_ERANGE);
    MSG(ctx, "tap 6 out of range: taps are 0..5");     /* (0, 0) and (1, 1) locked */
    CHECK(ml_board_cell_position(ctx, b, 8, &far_r[0], &far_c[0]) == ML_ERANGE);
    MSG(ctx, "cell 8 out of range: cells are 0..7");
    x[0] = 3;              /* = 0 mod 3 on a locked tile: allowed */
    CHECK(ml_board_apply(ctx, b, s, x, out) == ML_OK);
    x[0] = 1;
    CHECK(ml_board_apply(ctx, b, s, x, out) == ML_EINVAL);
    MSG(ctx, "cannot tap (0, 0): it is locked");
    size_t count = 0;
    int32_t dr[16], dc[16];
    CHECK(ml_board_pattern(ctx, b, &count, dr, dc, 16) == ML_OK && count == 9);
    CHECK(dr[1] == -2 && dc[1] == -1);
    CHECK(ml_board_tile_pattern(ctx, b, 1, 1, &count, dr, dc, 0) == ML_OK && count == 9);
    CHECK(ml_board_tile_pattern(ctx, b, 1, 3, &count, dr, dc, 0) == ML_ERANGE);
    ml_board_free(b);

    /* giant boards: per-tile work is refused with Python's message */
    CHECK(ml_grid_new(ctx, 1 << 20, 1 << 20, 2, &g) == ML_OK);
    CHECK(ml_grid_build(ctx, g, &b) == ML_OK && ml_board_is_giant(b));
    ml_grid_free(g);
    CHECK(ml_board_tap_index(ctx, b, 5, 7, &j) == ML_OK && j == 5 * ((uint64_t)1 << 20) + 7);
    CHECK(ml_board_locked_mask(ctx, b, out) == ML_ETOOLARGE);
    {
        const char *want = "the locked mask of this 1048576x1048576 board would need 1024.0 GiB "
                           "(1 byte a tile, 1099511627776 tiles, more than MAX_TILES = "
                           "134217728); a board this large";
        CHECK(strncmp(ml_errmsg(ctx), want, strlen(want)) == 0 || (printf("  got: %s\n", ml_errmsg(ctx)), 0));
    }
    CHECK(ml_board_apply(ctx, b, s, x, out) == ML_ETOOLARGE);
    CHECK(strncmp(ml_errmsg(ctx), "a byte state of this", 20) == 0);
    CHECK(ml_board_matrix(ctx, b, out, 1) == ML_ETOOLARGE);
    MSG(ctx, "the dense matrix would have 1099511627776x1099511627776 entries, more than "
             "4294967296; use the structured solvers for boards this large");
    ml_board_free(b);

    /* mixed boards have no one pattern */
    CHECK(ml_grid_new(ctx, 1, 2, 2, &g) == ML_OK);
    uint32_t at = 0, mix[2] = {1, 0};
    CHECK(ml_grid_palette_add(ctx, g, ML_PATTERN_CROSS, &at) == ML_OK && at == 0);
    CHECK(ml_grid_palette_add(ctx, g, ML_PATTERN_HORIZONTAL, &at) == ML_OK && at == 1);
    CHECK(ml_grid_set_mixed(ctx, g, mix) == ML_OK && ml_grid_build(ctx, g, &b) == ML_OK);
    ml_grid_free(g);
    CHECK(ml_board_pattern(ctx, b, &count, NULL, NULL, 0) == ML_EINVAL);
    MSG(ctx, "ml_board_pattern needs a grid board with one pattern on every tile; this one is "
             "mixed (read each tile's pattern with ml_board_tile_pattern)");
    CHECK(ml_board_tile_pattern(ctx, b, 0, 0, &count, NULL, NULL, 0) == ML_OK && count == 3);
    ml_board_free(b);
}

/* random states: the same for the same seed, values below n, 0 at holes; solvable ones
 * are -A x for the taps drawn in order (Python's SplitMix64.randbelow), so adding A x
 * back gives zeros */
static uint64_t py_below(uint64_t *s, unsigned n)
{
    uint64_t limit = ~(uint64_t)0 - (((~(uint64_t)0 % n) + 1) % n);
    for (;;) {
        uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        if (z <= limit)
            return z % n;
    }
}

static void test_random_states(ml_ctx *ctx)
{
    for (int trial = 0; trial < 200; trial++) {
        desc d;
        random_desc(&d);
        ml_board *b = build(ctx, &d);
        int64_t t = d.rows * d.cols;
        uint8_t s1[81], s2[81], x[81] = {0}, back[81];
        uint64_t seed = next();
        CHECK(ml_board_random_state(ctx, b, seed, 1, s1) == ML_OK);
        CHECK(ml_board_random_state(ctx, b, seed, 1, s2) == ML_OK && memcmp(s1, s2, (size_t)t) == 0);
        uint64_t s = seed;
        for (uint64_t j = 0; j < ml_board_n_taps(b); j++) {
            int64_t r, c;
            ml_board_tap_position(ctx, b, j, &r, &c);
            x[r * d.cols + c] = (uint8_t)py_below(&s, (unsigned)d.n);
        }
        CHECK(ml_board_apply(ctx, b, s1, x, back) == ML_OK);
        for (int64_t f = 0; f < t; f++)
            CHECK(back[f] == 0 && s1[f] < d.n && (!d.holes || !d.holes[f] || s1[f] == 0));
        CHECK(ml_board_random_state(ctx, b, seed, 0, s2) == ML_OK);
        s = seed;
        for (uint64_t i = 0; i < ml_board_n_cells(b); i++) {
            int64_t r, c;
            ml_board_cell_position(ctx, b, i, &r, &c);
            CHECK(s2[r * d.cols + c] == py_below(&s, (unsigned)d.n));
        }
        ml_board_free(b);
        free_desc(&d);
    }
}

/* ml__board_coo on random grids: the pairs, summed mod n, are the oracle's tap matrix;
 * the count alone with cap 0; a short buffer gets the first pairs. */
static void test_coo(ml_ctx *ctx)
{
    static int64_t ci[81 * 48], tj[81 * 48], ci2[81 * 48], tj2[81 * 48];
    static unsigned sum[81][81];
    for (int trial = 0; trial < 300; trial++) {
        desc d;
        random_desc(&d);
        ml_board *b = build(ctx, &d);
        size_t nnz = 0, count = 0, some = 0;
        CHECK(ml__board_coo(ctx, b, NULL, NULL, 0, &count) == ML_OK);
        CHECK(ml__board_coo(ctx, b, ci, tj, sizeof ci / sizeof *ci, &nnz) == ML_OK && nnz == count);
        uint64_t m = ml_board_n_cells(b), r = ml_board_n_taps(b);
        memset(sum, 0, sizeof sum);
        for (size_t k = 0; k < nnz; k++) {
            CHECK(ci[k] >= 0 && (uint64_t)ci[k] < m && tj[k] >= 0 && (uint64_t)tj[k] < r);
            sum[ci[k]][tj[k]]++;
        }
        for (uint64_t i = 0; i < m; i++)
            for (uint64_t j = 0; j < r; j++) {
                int64_t pr, pc, qr, qc;
                ml_board_cell_position(ctx, b, i, &pr, &pc);
                ml_board_tap_position(ctx, b, j, &qr, &qc);
                CHECK(sum[i][j] % (unsigned)d.n == entry(&d, pr * d.cols + pc, qr * d.cols + qc));
            }
        size_t cap = nnz / 2;
        CHECK(ml__board_coo(ctx, b, ci2, tj2, cap, &some) == ML_OK && some == nnz);
        CHECK(!memcmp(ci, ci2, cap * sizeof *ci) && !memcmp(tj, tj2, cap * sizeof *tj));
        CHECK(ml__board_coo(ctx, b, NULL, tj2, 1, &some) == ML_EMISUSE);
        ml_board_free(b);
        free_desc(&d);
    }
    /* graph boards: the effects as listed; a giant grid: refused with its per-tile words */
    int64_t indptr[3] = {0, 3, 3}, cells[3] = {1, 0, 1};
    ml_board *g = NULL;
    size_t nnz = 0;
    CHECK(ml_board_from_effects(ctx, 3, -1, 2, indptr, cells, &g) == ML_OK);
    CHECK(ml__board_coo(ctx, g, ci, tj, 8, &nnz) == ML_OK && nnz == 3 && ci[0] == 1 && ci[1] == 0
          && ci[2] == 1 && tj[0] == 0 && tj[2] == 0);
    ml_board_free(g);
    CHECK(ml_board_grid(ctx, 100000, 100000, 2, "knight", &g) == ML_OK);
    CHECK(ml__board_coo(ctx, g, NULL, NULL, 0, &nnz) == ML_ETOOLARGE);
    CHECK(strncmp(ml_errmsg(ctx), "the coordinate form of A of this 100000x100000 board would "
                  "need 1341.1 GiB (144 bytes a tile,", 90) == 0);
    ml_board_free(g);
}

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    test_play_messages(ctx);
    test_random_grids(ctx, PLAY);
    test_random_states(ctx);
    test_coo(ctx);
    ml_ctx_free(ctx);
    printf("fails=%d\n", fails);
    return fails != 0;
}
