/* t-board_taps: csrc/api/board.c's taps of a grid with locks or holes: the runs of
 * consecutive taps (ml__tap_runs) against the taps read off the masks, on random grids
 * (sides 1..40, lock and hole densities 0..1, masks starting and ending on a lock or a
 * hole, adjacent locks and holes) and graph boards; the tap positions made on first need
 * (ml_board_tap_position, ml_board_tap_index) against the same, from one thread and
 * from eight at once on a fresh board; the masks a board shares with its builder (a lock
 * or a hole marked after a build, marked twice, a mask replaced, the builder freed first:
 * the board keeps what it was built with, its taps counted once); the caller's masks
 * read in place (ml_grid_share_locked / _holes: never written, released once by the
 * last user, copied when a byte is past 1). Exit status 0 when every check holds (prints
 * fails=N).
 * ml-test-sources: api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c */
#include "api/board.h"
#include "include/modlights.h"
#include "tests/board-oracle.h"

#include <pthread.h>

/* The flat positions of the taps of a rows x cols grid with masks l and h (NULL: none),
 * ascending, in out; their count. */
static uint64_t oracle_taps(uint64_t t, const uint8_t *l, const uint8_t *h, uint64_t *out)
{
    uint64_t r = 0;
    for (uint64_t f = 0; f < t; f++)
        if (!(l && l[f]) && !(h && h[f]))
            out[r++] = f;
    return r;
}

/* the runs of b cover exactly the taps want[0..r), in order, each run maximal */
static void check_runs(const ml_board *b, const uint64_t *want, uint64_t r)
{
    ml__tap_runs it;
    uint64_t j = 0, prev_end = UINT64_MAX;
    for (ml__tap_runs_init(&it, b); ml__tap_runs_next(&it);) {
        CHECK(it.len >= 1 && it.j == j && it.f != prev_end);
        for (uint64_t k = 0; k < it.len && j < r; k++, j++)
            CHECK(want[j] == it.f + k);
        prev_end = it.f + it.len;
    }
    CHECK(j == r && !ml__tap_runs_next(&it) && !ml__tap_runs_next(&it));
}

/* a random mask of t tiles with density pct % (or NULL for pct < 0), none where other
 * has one; the first or last tile marked now and then */
static uint8_t *random_mask(uint64_t t, int pct, const uint8_t *other)
{
    if (pct < 0)
        return NULL;
    uint8_t *m = calloc(t, 1);
    for (uint64_t f = 0; f < t; f++)
        m[f] = (uint8_t)(below(100) < pct);
    if (below(3) == 0)
        m[0] = 1;
    if (below(3) == 0)
        m[t - 1] = 1;
    for (uint64_t f = 0; other && f < t; f++)
        m[f] &= (uint8_t)!other[f];
    return m;
}

static void test_masked_grids(ml_ctx *ctx)
{
    static const int pcts[] = {-1, 0, 1, 10, 50, 90, 100};
    for (int round = 0; round < 400; round++) {
        int64_t rows = 1 + below(round < 200 ? 9 : 40), cols = 1 + below(round < 200 ? 9 : 40);
        uint64_t t = (uint64_t)(rows * cols);
        uint8_t *l = random_mask(t, pcts[below(7)], NULL);
        uint8_t *h = random_mask(t, pcts[below(7)], l);
        ml_grid *g = NULL;
        ml_board *b = NULL;
        CHECK(ml_grid_new(ctx, rows, cols, 2 + (int)below(3), &g) == ML_OK);
        CHECK(ml_grid_set_locked(ctx, g, l) == ML_OK && ml_grid_set_holes(ctx, g, h) == ML_OK);
        CHECK(ml_grid_build(ctx, g, &b) == ML_OK);
        ml_grid_free(g);
        if (!b)
            continue;
        uint64_t *want = malloc((t + 1) * sizeof *want);
        uint64_t r = oracle_taps(t, l, h, want);
        CHECK(ml_board_n_taps(b) == r);
        check_runs(b, want, r);
        /* the positions made on first need: by tap, and back by tile */
        for (uint64_t j = 0; j < r; j++) {
            int64_t pr = -1, pc = -1;
            CHECK(ml_board_tap_position(ctx, b, j, &pr, &pc) == ML_OK);
            CHECK((uint64_t)(pr * cols + pc) == want[j]);
        }
        for (uint64_t f = 0, j = 0; f < t; f++) {
            uint64_t got = 0;
            int rc = ml_board_tap_index(ctx, b, (int64_t)(f / (uint64_t)cols),
                                        (int64_t)(f % (uint64_t)cols), &got);
            if (j < r && want[j] == f) {
                CHECK(rc == ML_OK && got == j);
                j++;
            } else {
                CHECK(rc != ML_OK);
            }
        }
        check_runs(b, want, r);   /* the same once the positions are kept */
        free(want);
        free(l);
        free(h);
        ml_board_free(b);
    }
}

static void test_graph_boards(ml_ctx *ctx)
{
    int64_t indptr[4] = {0, 1, 3, 3}, cells[3] = {0, 1, 2};
    ml_board *b = NULL;
    CHECK(ml_board_from_effects(ctx, 2, 5, 3, indptr, cells, &b) == ML_OK);
    uint64_t want[3] = {0, 1, 2};
    check_runs(b, want, 3);
    ml_board_free(b);
    CHECK(ml_board_from_effects(ctx, 2, 5, 0, indptr, cells, &b) == ML_OK);
    check_runs(b, want, 0);
    ml_board_free(b);
}

/* eight threads ask a fresh board for every tap's position at once */
typedef struct {
    const ml_board *b;
    const uint64_t *want;
    uint64_t r;
    int64_t cols;
    int bad;
    pthread_barrier_t *go;
} reader;

static void *read_taps(void *arg)
{
    reader *rd = arg;
    ml_ctx *ctx = NULL;
    rd->bad = ml_ctx_new(&ctx) != ML_OK;
    pthread_barrier_wait(rd->go);
    for (uint64_t j = 0; !rd->bad && j < rd->r; j++) {
        int64_t pr = -1, pc = -1;
        rd->bad = ml_board_tap_position(ctx, rd->b, j, &pr, &pc) != ML_OK
                  || (uint64_t)(pr * rd->cols + pc) != rd->want[j];
    }
    ml_ctx_free(ctx);
    return NULL;
}

static void test_threads(ml_ctx *ctx)
{
    enum { THREADS = 8 };
    int64_t rows = 300, cols = 301;
    uint64_t t = (uint64_t)(rows * cols);
    for (int round = 0; round < 4; round++) {
        uint8_t *l = random_mask(t, 5, NULL), *h = random_mask(t, round, l);
        ml_grid *g = NULL;
        ml_board *b = NULL;
        CHECK(ml_grid_new(ctx, rows, cols, 2, &g) == ML_OK);
        CHECK(ml_grid_set_locked(ctx, g, l) == ML_OK && ml_grid_set_holes(ctx, g, h) == ML_OK);
        CHECK(ml_grid_build(ctx, g, &b) == ML_OK);
        ml_grid_free(g);
        uint64_t *want = malloc(t * sizeof *want), r = oracle_taps(t, l, h, want);
        pthread_barrier_t go;
        pthread_barrier_init(&go, NULL, THREADS);
        pthread_t th[THREADS];
        reader rd[THREADS];
        for (int i = 0; i < THREADS; i++) {
            rd[i] = (reader){b, want, r, cols, 0, &go};
            CHECK(pthread_create(&th[i], NULL, read_taps, &rd[i]) == 0);
        }
        for (int i = 0; i < THREADS; i++) {
            pthread_join(th[i], NULL);
            CHECK(!rd[i].bad);
        }
        pthread_barrier_destroy(&go);
        free(want);
        free(l);
        free(h);
        ml_board_free(b);
    }
}

/* the locked mask of b equals want (t tiles) */
static void check_locked(ml_ctx *ctx, const ml_board *b, const uint8_t *want, uint64_t t)
{
    uint8_t *got = malloc(t);
    CHECK(ml_board_locked_mask(ctx, b, got) == ML_OK && memcmp(got, want, t) == 0);
    free(got);
}

static void test_shared_masks(ml_ctx *ctx)
{
    enum { T = 12 };
    uint8_t m1[T] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7}, w1[T] = {0, 1, [11] = 1};
    uint8_t w2[T] = {0, 1, 0, 0, 0, 1, [11] = 1}, w3[T] = {[3] = 1};
    ml_grid *g = NULL;
    ml_board *b1 = NULL, *b2 = NULL, *b3 = NULL, *b4 = NULL;
    CHECK(ml_grid_new(ctx, 3, 4, 2, &g) == ML_OK && ml_grid_set_locked(ctx, g, m1) == ML_OK);
    CHECK(ml_grid_build(ctx, g, &b1) == ML_OK);
    CHECK(ml_grid_lock(ctx, g, 1, 1) == ML_OK && ml_grid_lock(ctx, g, 0, 1) == ML_OK);
    CHECK(ml_grid_lock(ctx, g, 1, 1) == ML_OK && ml_grid_build(ctx, g, &b2) == ML_OK);
    CHECK(ml_grid_set_locked(ctx, g, NULL) == ML_OK && ml_grid_lock(ctx, g, 0, 3) == ML_OK);
    CHECK(ml_grid_build(ctx, g, &b3) == ML_OK);
    CHECK(ml_grid_hole(ctx, g, 2, 0) == ML_OK && ml_grid_build(ctx, g, &b4) == ML_OK);
    ml_grid_free(g);   /* the boards keep their masks */
    check_locked(ctx, b1, w1, T);
    check_locked(ctx, b2, w2, T);
    check_locked(ctx, b3, w3, T);
    check_locked(ctx, b4, w3, T);
    CHECK(ml_board_n_taps(b1) == 10 && ml_board_n_taps(b2) == 9 && ml_board_n_taps(b3) == 11);
    CHECK(!ml_board_any_holes(b3) && ml_board_any_holes(b4) && ml_board_n_taps(b4) == 10);
    CHECK(ml_board_equal(b3, b3) && !ml_board_equal(b1, b2));
    ml_board_free(b1);
    ml_board_free(b2);
    ml_board_free(b3);
    ml_board_free(b4);
}

/* the caller's masks read in place (ml_grid_share_*): released once, by the last user */
static int released[3];
static void note_release(void *arg) { released[*(int *)arg]++; }

static void test_borrowed_masks(ml_ctx *ctx)
{
    enum { T = 12 };
    static int ids[3] = {0, 1, 2};
    uint8_t lk[T] = {0, 1, [7] = 1}, ho[T] = {[10] = 1}, odd[T] = {[1] = 2, [3] = 1};
    uint8_t w_odd[T] = {[1] = 1, [3] = 1}, w_more[T] = {0, 1, [4] = 1, [7] = 1};
    ml_grid *g = NULL;
    ml_board *b1 = NULL, *b2 = NULL, *b3 = NULL;
    uint8_t alone[T] = {[5] = 1};   /* a mark before any build copies it too */
    CHECK(ml_grid_new(ctx, 3, 4, 2, &g) == ML_OK);
    CHECK(ml_grid_share_locked(ctx, g, alone, NULL, NULL) == ML_OK);
    CHECK(ml_grid_lock(ctx, g, 0, 0) == ML_OK && alone[0] == 0);
    ml_grid_free(g);
    CHECK(ml_grid_new(ctx, 3, 4, 2, &g) == ML_OK);
    CHECK(ml_grid_share_locked(ctx, g, NULL, note_release, &ids[0]) != ML_OK && !released[0]);
    CHECK(ml_grid_share_locked(ctx, g, lk, note_release, &ids[0]) == ML_OK);
    CHECK(ml_grid_share_holes(ctx, g, ho, note_release, &ids[1]) == ML_OK);
    CHECK(ml_grid_build(ctx, g, &b1) == ML_OK);
    CHECK(ml_board_n_taps(b1) == 9 && ml_board_n_cells(b1) == 11);
    check_locked(ctx, b1, lk, T);
    /* a mark copies the caller's mask: lk itself is never written */
    CHECK(ml_grid_lock(ctx, g, 1, 0) == ML_OK && lk[4] == 0);
    CHECK(ml_grid_build(ctx, g, &b2) == ML_OK && ml_board_n_taps(b2) == 8);
    check_locked(ctx, b2, w_more, T);
    CHECK(released[0] == 0);   /* b1 still reads lk */
    /* bytes past 1: a 0 / 1 copy, the caller's released at once */
    CHECK(ml_grid_share_holes(ctx, g, odd, note_release, &ids[2]) == ML_OK);
    CHECK(released[2] == 1 && released[1] == 0);   /* ho: b1, b2 */
    CHECK(ml_grid_share_locked(ctx, g, lk, NULL, NULL) == ML_OK);
    CHECK(ml_grid_build(ctx, g, &b3) == ML_EINVAL);   /* (0, 1) locked and a hole */
    CHECK(ml_grid_set_locked(ctx, g, NULL) == ML_OK && ml_grid_build(ctx, g, &b3) == ML_OK);
    uint8_t got[T];
    CHECK(ml_board_holes_mask(ctx, b3, got) == ML_OK && memcmp(got, w_odd, T) == 0);
    ml_grid_free(g);
    ml_board_free(b2);
    CHECK(released[0] == 0 && released[1] == 0);
    ml_board_free(b1);
    CHECK(released[0] == 1 && released[1] == 1 && released[2] == 1);
    ml_board_free(b3);
    CHECK(released[0] == 1 && released[1] == 1 && released[2] == 1);
}

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    test_masked_grids(ctx);
    test_graph_boards(ctx);
    test_threads(ctx);
    test_shared_masks(ctx);
    test_borrowed_masks(ctx);
    ml_ctx_free(ctx);
    printf("fails=%d\n", fails);
    return fails != 0;
}
