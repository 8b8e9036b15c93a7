/* t-board: csrc/api/board.c, grid.c, board_play.c, pattern.c, factored.c (modlights.h:
 * patterns, boards, big counts). On random grids (every named pattern, random offsets,
 * mixed palettes, locks, holes, wrap, sides 1..9) the dense tap matrix equals an
 * obvious count (for every cell and tap, the offsets that land there), and apply, press,
 * effect, positions and indices agree with it; graph boards from effects and from a
 * matrix agree with each other (equal, same hash); every refusal has Python's message;
 * factored counts match 64-bit products and known decimals. Exit status 0 when every
 * check holds (prints fails=N).
 * ml-test-sources: api/board.c api/grid.c api/board_play.c api/pattern.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c */
#include "include/modlights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)
#define MSG(ctx, text) CHECK(strcmp(ml_errmsg(ctx), text) == 0 || (printf("  got: %s\n", ml_errmsg(ctx)), 0))

static uint64_t rng = 12345;
static uint64_t next(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int64_t below(int64_t n) { return (int64_t)(next() % (uint64_t)n); }

/* ------------------------------------------------------------------ the oracle */
typedef struct {
    int64_t rows, cols;
    int n, wrap;
    int npal;
    size_t count[4];
    int64_t dr[4][12], dc[4][12];
    uint32_t *index;            /* mixed, or NULL */
    uint8_t *locked, *holes;
} desc;

static const size_t *tile_count(const desc *d, int64_t f, int *p)
{
    *p = d->index ? (int)d->index[f] : 0;
    return &d->count[*p];
}

/* A[i][j] of the description: the offsets of tap tile q that land on cell tile p */
static unsigned entry(const desc *d, int64_t p, int64_t q)
{
    int k;
    size_t cnt = *tile_count(d, q, &k);
    int64_t pr = p / d->cols, pc = p % d->cols, qr = q / d->cols, qc = q % d->cols;
    unsigned a = 0;
    for (size_t o = 0; o < cnt; o++) {
        int64_t rr = qr + d->dr[k][o], cc = qc + d->dc[k][o];
        if (d->wrap) {
            rr = ((rr % d->rows) + d->rows) % d->rows;
            cc = ((cc % d->cols) + d->cols) % d->cols;
        }
        a += rr == pr && cc == pc;
    }
    return a % (unsigned)d->n;
}

static ml_board *build(ml_ctx *ctx, const desc *d)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    CHECK(ml_grid_new(ctx, d->rows, d->cols, d->n, &g) == ML_OK);
    if (d->index) {
        for (int k = 0; k < d->npal; k++) {
            uint32_t at = 99;
            CHECK(ml_grid_palette_add_offsets(ctx, g, d->count[k], d->dr[k], d->dc[k], &at) == ML_OK);
            CHECK(at == (uint32_t)k);
        }
        CHECK(ml_grid_set_mixed(ctx, g, d->index) == ML_OK);
    } else {
        CHECK(ml_grid_set_offsets(ctx, g, d->count[0], d->dr[0], d->dc[0]) == ML_OK);
    }
    CHECK(ml_grid_set_wrap(ctx, g, d->wrap) == ML_OK);
    CHECK(ml_grid_set_locked(ctx, g, d->locked) == ML_OK);
    CHECK(ml_grid_set_holes(ctx, g, d->holes) == ML_OK);
    CHECK(ml_grid_build(ctx, g, &b) == ML_OK);
    ml_grid_free(g);
    return b;
}

static void random_desc(desc *d)
{
    memset(d, 0, sizeof *d);
    d->rows = 1 + below(9);
    d->cols = 1 + below(9);
    d->n = (int)(2 + below(below(4) ? 6 : 254));
    d->wrap = below(3) == 0;
    d->npal = below(3) == 0 ? 1 + (int)below(4) : 1;
    for (int k = 0; k < d->npal; k++) {
        if (below(2)) {     /* a named pattern */
            int32_t r32[16], c32[16];
            d->count[k] = ml_pattern_offsets((int)below(ML_PATTERN_COUNT), r32, c32, 16);
            for (size_t o = 0; o < d->count[k]; o++) {
                d->dr[k][o] = r32[o];
                d->dc[k][o] = c32[o];
            }
        } else {            /* random offsets, repeats and far ones included */
            d->count[k] = (size_t)below(12);
            for (size_t o = 0; o < d->count[k]; o++) {
                d->dr[k][o] = below(5) - 2 + (below(8) == 0 ? 9 : 0);
                d->dc[k][o] = below(5) - 2;
            }
        }
    }
    int64_t t = d->rows * d->cols;
    if (d->npal > 1 || below(4) == 0) {
        d->index = malloc((size_t)t * sizeof *d->index);
        for (int64_t f = 0; f < t; f++)
            d->index[f] = (uint32_t)below(d->npal);
    }
    if (below(2)) {
        d->locked = calloc((size_t)t, 1);
        d->holes = calloc((size_t)t, 1);
        for (int64_t f = 0; f < t; f++) {
            int64_t v = below(6);
            d->locked[f] = v == 0;
            d->holes[f] = v == 1;
        }
    }
}

static void free_desc(desc *d)
{
    free(d->index);
    free(d->locked);
    free(d->holes);
}

/* ------------------------------------------------------------------ random grids */
static void test_random_grids(ml_ctx *ctx)
{
    for (int trial = 0; trial < 400; trial++) {
        desc d;
        random_desc(&d);
        ml_board *b = build(ctx, &d);
        if (!b) {
            free_desc(&d);
            continue;
        }
        int64_t t = d.rows * d.cols;
        /* cells and taps: the tiles that are not holes / not holes or locked, row-major */
        int64_t cell[81], tap[81], m = 0, r = 0;
        for (int64_t f = 0; f < t; f++) {
            if (d.holes && d.holes[f])
                continue;
            cell[m++] = f;
            if (!(d.locked && d.locked[f]))
                tap[r++] = f;
        }
        CHECK(ml_board_n_cells(b) == (uint64_t)m && ml_board_n_taps(b) == (uint64_t)r);
        CHECK(ml_board_size(b) == (uint64_t)t && ml_board_taps_size(b) == (uint64_t)t);
        CHECK(ml_board_is_mixed(b) == (d.index != NULL) && ml_board_wrap(b) == d.wrap);
        uint8_t A[81 * 81];
        CHECK(ml_board_matrix(ctx, b, A, 81) == ML_OK);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < r; j++)
                if (A[i * 81 + j] != entry(&d, cell[i], tap[j])) {
                    printf("FAIL trial %d: A[%lld][%lld]\n", trial, (long long)i, (long long)j);
                    fails++;
                    i = m;
                    break;
                }
        /* positions and indices, both ways */
        for (int64_t j = 0; j < r; j++) {
            int64_t pr = -1, pc = -1;
            uint64_t back = 999;
            CHECK(ml_board_tap_position(ctx, b, (uint64_t)j, &pr, &pc) == ML_OK);
            CHECK(pr * d.cols + pc == tap[j]);
            CHECK(ml_board_tap_index(ctx, b, pr, pc, &back) == ML_OK && back == (uint64_t)j);
        }
        for (int64_t i = 0; i < m; i++) {
            int64_t pr = -1, pc = -1;
            uint64_t back = 999;
            CHECK(ml_board_cell_position(ctx, b, (uint64_t)i, &pr, &pc) == ML_OK);
            CHECK(pr * d.cols + pc == cell[i]);
            CHECK(ml_board_cell_index(ctx, b, pr, pc, &back) == ML_OK && back == (uint64_t)i);
        }
        /* effect j: the column of A as a list of cells with repeats */
        for (int64_t j = 0; j < r; j++) {
            int64_t cells[200];
            size_t k = 0;
            CHECK(ml_board_effect(ctx, b, (uint64_t)j, &k, cells, 200) == ML_OK);
            unsigned count[81] = {0};
            for (size_t e = 0; e < k && e < 200; e++)
                count[cells[e]]++;
            for (int64_t i = 0; i < m; i++)
                CHECK(count[i] % (unsigned)d.n == A[i * 81 + j]);
        }
        /* apply: state + A x, board-shaped, 0 at holes; press = apply of one tap */
        uint8_t s[81], x[81], out[81];
        for (int64_t f = 0; f < t; f++) {
            s[f] = (uint8_t)below(256);
            x[f] = (d.locked && d.locked[f]) ? (uint8_t)(d.n * below(2)) : (uint8_t)below(256);
        }
        CHECK(ml_board_apply(ctx, b, s, x, out) == ML_OK);
        for (int64_t i = 0; i < m; i++) {
            unsigned v = s[cell[i]] % (unsigned)d.n;
            for (int64_t j = 0; j < r; j++)
                v += A[i * 81 + j] * (x[tap[j]] % (unsigned)d.n);
            CHECK(out[cell[i]] == v % (unsigned)d.n);
        }
        for (int64_t f = 0; f < t; f++)
            if (d.holes && d.holes[f])
                CHECK(out[f] == 0);
        memcpy(out, s, sizeof s);    /* out may be state */
        CHECK(ml_board_apply(ctx, b, out, x, out) == ML_OK);
        uint8_t again[81];
        CHECK(ml_board_apply(ctx, b, s, x, again) == ML_OK && memcmp(out, again, (size_t)t) == 0);
        if (r > 0) {
            int64_t j = below(r), times = below(1000) - 500;
            memset(x, 0, sizeof x);
            x[tap[j]] = (uint8_t)(((times % d.n) + d.n) % d.n);
            CHECK(ml_board_apply(ctx, b, s, x, again) == ML_OK);
            CHECK(ml_board_press(ctx, b, s, tap[j] / d.cols, tap[j] % d.cols, times, out) == ML_OK);
            CHECK(memcmp(out, again, (size_t)t) == 0);
        }
        /* masks */
        uint8_t mask[81];
        CHECK(ml_board_locked_mask(ctx, b, mask) == ML_OK);
        for (int64_t f = 0; f < t; f++)
            CHECK(mask[f] == (d.locked ? d.locked[f] : 0));
        CHECK(ml_board_holes_mask(ctx, b, mask) == ML_OK);
        for (int64_t f = 0; f < t; f++)
            CHECK(mask[f] == (d.holes ? d.holes[f] : 0));
        /* the same description builds an equal board with the same hash; a graph board of
         * its effects equals the graph board of its matrix */
        ml_board *b2 = build(ctx, &d);
        CHECK(ml_board_equal(b, b2) && ml_board_hash(b) == ml_board_hash(b2));
        int64_t indptr[82], cells[81 * 120];
        indptr[0] = 0;
        for (int64_t j = 0; j < r; j++) {
            size_t k = 0;
            ml_board_effect(ctx, b, (uint64_t)j, &k, cells + indptr[j], 120);
            indptr[j + 1] = indptr[j] + (int64_t)k;
        }
        ml_board *ge = NULL, *gm = NULL;
        CHECK(ml_board_from_effects(ctx, d.n, m, (size_t)r, indptr, cells, &ge) == ML_OK);
        CHECK(ml_board_from_matrix(ctx, d.n, (size_t)m, (size_t)r, A, 81, &gm) == ML_OK);
        CHECK(ml_board_equal(ge, gm) && ml_board_hash(ge) == ml_board_hash(gm));
        CHECK(!ml_board_equal(ge, b));
        uint8_t A2[81 * 81];
        CHECK(ml_board_matrix(ctx, ge, A2, 81) == ML_OK);
        for (int64_t i = 0; i < m; i++)
            CHECK(memcmp(A + i * 81, A2 + i * 81, (size_t)r) == 0);
        if (r > 0 && m > 0) {   /* one unit more in one entry: no longer equal */
            A[0] = (uint8_t)((A[0] + 1) % d.n);
            ml_board *gm2 = NULL;
            CHECK(ml_board_from_matrix(ctx, d.n, (size_t)m, (size_t)r, A, 81, &gm2) == ML_OK);
            CHECK(!ml_board_equal(ge, gm2));
            ml_board_free(gm2);
        }
        ml_board_free(ge);
        ml_board_free(gm);
        ml_board_free(b2);
        ml_board_free(b);
        free_desc(&d);
    }
}

/* ------------------------------------------------------------------ messages */
static void test_messages(ml_ctx *ctx)
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
    MSG(ctx, "tile (1, 3) is off the board: rows 0..2, cols 0..2");
    CHECK(ml_board_retain(b) == b);
    ml_board_free(b);
    CHECK(ml_board_states(b) == 3);   /* one reference left */
    ml_board_free(b);

    /* giant boards: uniform only, described by shape and pattern */
    CHECK(ml_grid_new(ctx, 1 << 20, 1 << 20, 2, &g) == ML_OK);
    CHECK(ml_grid_lock(ctx, g, 0, 0) == ML_ETOOLARGE);
    MSG(ctx, "board too large: 1048576x1048576 = 1099511627776 tiles; more than 134217728 "
             "tiles are allowed only for uniform boards (one pattern, no locked tiles or holes)");
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

/* ------------------------------------------------------------------ patterns, counts */
static void test_patterns_and_counts(ml_ctx *ctx)
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

    ml_factored f = {2, {2, 3}, {10, 4}};
    uint64_t v = 0;
    CHECK(ml_factored_u64(ctx, &f, &v) == ML_OK && v == 1024 * 81);
    CHECK(ml_factored_log2(&f) > 16.3 && ml_factored_log2(&f) < 16.4);
    char buf[128];
    size_t len = 0;
    CHECK(ml_factored_decimal(ctx, &f, buf, sizeof buf, &len) == ML_OK && strcmp(buf, "82944") == 0);
    CHECK(len == 5);
    ml_factored big = {1, {2}, {64}};
    CHECK(ml_factored_u64(ctx, &big, &v) == ML_ERANGE);
    MSG(ctx, "the count is about 2^64.0, more than 64 bits hold (read it with ml_factored_decimal "
             "or ml_factored_log2)");
    CHECK(ml_factored_log2(&big) == 64.0);
    CHECK(ml_factored_decimal(ctx, &big, buf, sizeof buf, &len) == ML_OK);
    CHECK(strcmp(buf, "18446744073709551616") == 0 && len == 20);
    CHECK(ml_factored_decimal(ctx, &big, buf, 5, &len) == ML_OK && strcmp(buf, "1844") == 0 && len == 20);
    ml_factored p3 = {2, {3, 7}, {50, 1}};   /* 3^50 * 7 */
    CHECK(ml_factored_decimal(ctx, &p3, buf, sizeof buf, &len) == ML_OK);
    CHECK(strcmp(buf, "5025285913842968121391743") == 0 || (printf("  got %s\n", buf), 0));
    ml_factored one = {0, {0}, {0}};
    CHECK(ml_factored_u64(ctx, &one, &v) == ML_OK && v == 1 && ml_factored_log2(&one) == 0.0);
    CHECK(ml_factored_decimal(ctx, &one, buf, sizeof buf, &len) == ML_OK && strcmp(buf, "1") == 0);
    for (int trial = 0; trial < 200; trial++) {   /* against 64-bit products */
        static const uint32_t primes[] = {2, 3, 5, 7, 11, 13, 251};
        ml_factored r = {0, {0}, {0}};
        uint64_t want = 1;
        int k = (int)below(5);
        for (int i = 0; i < k; i++) {
            uint32_t p = primes[(i * 3 + trial) % 7];
            int dup = 0;
            for (int q = 0; q < r.count; q++)
                dup |= r.prime[q] == p;
            if (dup)
                continue;
            uint64_t e = (uint64_t)below(5);
            r.prime[r.count] = p;
            r.exp[r.count++] = e;
            for (uint64_t z = 0; z < e; z++)
                want *= p;
        }
        char want_s[32];
        snprintf(want_s, sizeof want_s, "%llu", (unsigned long long)want);
        CHECK(ml_factored_u64(ctx, &r, &v) == ML_OK && v == want);
        CHECK(ml_factored_decimal(ctx, &r, buf, sizeof buf, &len) == ML_OK && strcmp(buf, want_s) == 0);
    }
    ml_factored bad = {2, {4, 3}, {1, 1}};
    CHECK(ml_factored_u64(ctx, &bad, &v) == ML_EINVAL);
    MSG(ctx, "ml_factored_u64: not a factored count (count 2: 0 to 4 distinct primes from 2 to 255, each once)");
    ml_factored huge = {1, {2}, {(uint64_t)1 << 40}};
    CHECK(ml_factored_decimal(ctx, &huge, buf, sizeof buf, &len) == ML_ETOOLARGE);
}

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    test_patterns_and_counts(ctx);
    test_messages(ctx);
    test_random_grids(ctx);
    ml_ctx_free(ctx);
    printf("fails=%d\n", fails);
    return fails != 0;
}
