/* board-oracle.h: what the tests of the boards package share (t-board.c, t-grid.c,
 * t-board_play.c): the check macros, a SplitMix64 stream, random grid descriptions and an
 * obvious count of their tap matrices (for every cell and tap, the offsets that land
 * there), and the random-grid test. Included by one test file each: static functions. */
#ifndef ML_TESTS_BOARD_ORACLE_H
#define ML_TESTS_BOARD_ORACLE_H

#include "include/modlights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)
#define MSG(ctx, text) CHECK(strcmp(ml_errmsg(ctx), text) == 0 || (printf("  got: %s\n", ml_errmsg(ctx)), 0))

static uint64_t rng = 12345;
static inline uint64_t next(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline int64_t below(int64_t n) { return (int64_t)(next() % (uint64_t)n); }

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

static inline const size_t *tile_count(const desc *d, int64_t f, int *p)
{
    *p = d->index ? (int)d->index[f] : 0;
    return &d->count[*p];
}

/* A[i][j] of the description: the offsets of tap tile q that land on cell tile p */
static inline unsigned entry(const desc *d, int64_t p, int64_t q)
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

static inline ml_board *build(ml_ctx *ctx, const desc *d)
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

static inline void random_desc(desc *d)
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

static inline void free_desc(desc *d)
{
    free(d->index);
    free(d->locked);
    free(d->holes);
}

/* ------------------------------------------------------------------ random grids */
enum { PLAY = 1, EQUAL = 2 };

/* Random grids (the oracle's descriptions): their matrix against the oracle's count;
 * PLAY: positions, indices, effects, apply, press, masks; EQUAL: equality and hash, graph
 * boards of the same effects and matrix. */
static inline void test_random_grids(ml_ctx *ctx, unsigned parts)
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
        if (parts & PLAY) {
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
        }
        if (parts & EQUAL) {
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
        }
        ml_board_free(b);
        free_desc(&d);
    }
}

#endif
