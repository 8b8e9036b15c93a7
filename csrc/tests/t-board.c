/* t-board: csrc/api/board.c: graph boards from effects (CSC) and from a matrix (Python's
 * refusals: cells out of range, past int32, past MAX_TILES, a matrix too large),
 * references (retain / free), properties, NULL and dead handles; on random grids, boards
 * of one description are equal with one hash, and the graph boards of their effects and
 * of their matrix are equal (one hash) until one entry differs; a shared matrix is read in
 * place and released once (ml_board_share_matrix). Exit status 0 when every
 * check holds (prints fails=N).
 * ml-test-sources: api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c */
#include "include/modlights.h"
#include "tests/board-oracle.h"

static void test_board_messages(ml_ctx *ctx)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    CHECK(ml_grid_new(ctx, 3, 3, 3, &g) == ML_OK && ml_grid_set_pattern(ctx, g, ML_PATTERN_KNIGHT) == ML_OK);
    CHECK(ml_grid_lock(ctx, g, 0, 0) == ML_OK && ml_grid_lock(ctx, g, 1, 1) == ML_OK);
    CHECK(ml_grid_hole(ctx, g, 2, 2) == ML_OK && ml_grid_build(ctx, g, &b) == ML_OK);
    ml_grid_free(g);
    uint64_t j;
    size_t count = 0;
    CHECK(ml_board_kind(b) == ML_BOARD_GRID && ml_board_n_cells(b) == 8 && ml_board_n_taps(b) == 6);
    CHECK(ml_board_any_locked(b) && ml_board_any_holes(b) && !ml_board_is_mixed(b));
    CHECK(ml_board_retain(b) == b);
    ml_board_free(b);
    CHECK(ml_board_states(b) == 3);   /* one reference left */
    ml_board_free(b);

    /* graph boards */
    int64_t indptr[3] = {0, 2, 3}, cells[3] = {0, 0, 4};
    CHECK(ml_board_from_effects(ctx, 3, 2, 2, indptr, cells, &b) == ML_ERANGE);
    MSG(ctx, "cell index 4 out of range: cells are 0..1");
    cells[2] = (int64_t)1 << 40;
    CHECK(ml_board_from_effects(ctx, 3, -1, 2, indptr, cells, &b) == ML_ERANGE);
    MSG(ctx, "cell index 1099511627776 out of range: a board has at most 134217728 cells");
    cells[2] = (int64_t)1 << 28;
    CHECK(ml_board_from_effects(ctx, 3, -1, 2, indptr, cells, &b) == ML_ERANGE);
    MSG(ctx, "cell index 268435456 is too large: a board has at most 134217728 cells");
    cells[2] = 1;
    CHECK(ml_board_from_effects(ctx, 3, -1, 2, indptr, cells, &b) == ML_OK);
    CHECK(ml_board_kind(b) == ML_BOARD_GRAPH && ml_board_rows(b) == 2 && ml_board_cols(b) == 1);
    uint8_t A[4];
    CHECK(ml_board_matrix(ctx, b, A, 2) == ML_OK && A[0] == 2 && A[1] == 0 && A[2] == 0 && A[3] == 1);
    CHECK(ml_board_tap_index(ctx, b, 2, 0, &j) == ML_ERANGE);
    MSG(ctx, "tap 2 out of range: taps are 0..1");
    CHECK(ml_board_cell_index(ctx, b, 5, 0, &j) == ML_ERANGE);
    MSG(ctx, "cell 5 out of range: cells are 0..1");
    CHECK(ml_board_pattern(ctx, b, &count, NULL, NULL, 0) == ML_EINVAL);
    MSG(ctx, "ml_board_pattern needs a grid board (Board.grid)");
    uint8_t gs[2] = {1, 2}, gx[2] = {1, 2}, go[2];
    CHECK(ml_board_apply(ctx, b, gs, gx, go) == ML_OK && go[0] == 0 && go[1] == 1);
    ml_board_free(b);
    CHECK(ml_board_from_matrix(ctx, 2, (size_t)1 << 17, (size_t)1 << 16, A, 1, &b) == ML_ETOOLARGE);
    MSG(ctx, "matrix 131072x65536 is too large (at most 4294967296 entries)");
    /* dead handles and NULL */
    CHECK(ml_board_matrix(ctx, NULL, A, 1) == ML_EMISUSE);
    MSG(ctx, "ml_board_matrix: b must not be NULL");
    CHECK(ml_board_states(NULL) == 0 && ml_board_hash(NULL) == 0 && !ml_board_equal(NULL, NULL));
}

static int releases;
static void count_release(void *arg) { releases += arg == (void *)&releases; }

/* ml_board_share_matrix: a reduced matrix is read in place (never written, released
 * once, when the last reference goes), the board equal (one hash) to
 * ml_board_from_matrix's of the same entries; an unreduced one is copied reduced and
 * released before the call returns; a refused one is not released. */
static void test_shared_matrix(ml_ctx *ctx)
{
    for (int t = 0; t < 200; t++) {
        int n = 2 + (int)below(9);
        size_t m = 1 + (size_t)below(12), r = 1 + (size_t)below(12);
        uint8_t *a = malloc(m * r), *keep = malloc(m * r);
        int reduced = below(3) != 0;
        for (size_t i = 0; i < m * r; i++)
            a[i] = (uint8_t)(reduced ? below(n) : below(256));
        memcpy(keep, a, m * r);
        ml_board *s = NULL, *c = NULL;
        releases = 0;
        CHECK(ml_board_share_matrix(ctx, n, m, r, a, count_release, &releases, &s) == ML_OK);
        int in_place = 1;
        for (size_t i = 0; i < m * r; i++)
            in_place &= a[i] < n;
        CHECK(releases == !in_place);
        CHECK(ml_board_from_matrix(ctx, n, m, r, a, r, &c) == ML_OK);
        CHECK(ml_board_equal(s, c) && ml_board_hash(s) == ml_board_hash(c));
        uint8_t *A = malloc(m * r);
        CHECK(ml_board_matrix(ctx, s, A, r) == ML_OK);
        for (size_t i = 0; i < m * r; i++)
            CHECK(A[i] == keep[i] % n);
        ml_board *again = ml_board_retain(s);
        ml_board_free(s);
        CHECK(releases == !in_place);
        ml_board_free(again);
        CHECK(releases == 1);
        CHECK(!memcmp(a, keep, m * r));
        ml_board_free(c);
        free(A);
        free(a);
        free(keep);
    }
    uint8_t one = 1;
    ml_board *b = NULL;
    releases = 0;
    CHECK(ml_board_share_matrix(ctx, 1, 1, 1, &one, count_release, &releases, &b) != ML_OK
          && !b && releases == 0);
    CHECK(ml_board_share_matrix(ctx, 2, (size_t)1 << 17, (size_t)1 << 16, &one, count_release,
                                &releases, &b) == ML_ETOOLARGE && releases == 0);
    MSG(ctx, "matrix 131072x65536 is too large (at most 4294967296 entries)");
    CHECK(ml_board_share_matrix(ctx, 2, 2, 2, NULL, count_release, &releases, &b) == ML_EMISUSE
          && releases == 0);
    MSG(ctx, "ml_board_share_matrix: a must not be NULL");
}

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    test_board_messages(ctx);
    test_shared_matrix(ctx);
    test_random_grids(ctx, EQUAL);
    ml_ctx_free(ctx);
    printf("fails=%d\n", fails);
    return fails != 0;
}
