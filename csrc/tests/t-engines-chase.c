/* t-engines-chase: csrc/engines/chase.c and chase_row.c through their vtables
 * (ml__chase_light_ops, ml__chase_prefix_ops, ml__chase_rowsolve_ops, ml__chase_row_ops,
 * ml__chase_choose_ops), without the solver, against the dense engines (engines/dense.c)
 * on the same boards: random grids (every named pattern, random offsets, mixed palettes, wrap, locks, holes, odd and even
 * sides, wider than tall so the chase runs on the transpose, n 2..9 and 12, 16, 101, 255):
 * build, then nullity and kernel_size equal the dense engine's, generators lie in ker A
 * with their orders (the product of the orders is |ker A|; a limit gives the first rows
 * of the same list; H = NULL gives the count alone), solve answers k right-hand sides at
 * once (solvable exactly where the dense engine says so, A X = R there, zero rows
 * elsewhere; A x + e_c with c the last cell, an equation past a prefix of the residual system,
 * among them); the residual limit refuses with limits.py's message. The same for
 * ml__chase_prefix_ops, and on tall boards with many locked tiles (a prefix taken); the
 * same for the row chase on every board and on boards with many holes (GF(3) rows
 * bit-sliced and as bytes), its two limits refusing with rowchase.py's messages; the
 * choosing entry takes each variant, the row chase included, and answers as it; the
 * residual system's cost model (bytes, work, the limits).
 * (tests/native/test_capi_chase.py checks the solver over it through Python.)
 * ml-test-sources: engines/dense.c engines/dense_gf2.c dense/gf2_batch.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0xC4A5Eull
#include "include/modlights.h"
#include "api/board.h"
#include "chase/rowchase.h"
#include "engines/chase.h"
#include "engines/chase_impl.h"
#include "engines/dense.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;

static ml_board *random_board(int n)
{
    ml_board *b = NULL;
    ml_grid *g = NULL;
    int64_t rows = rnd_range(1, 9), cols = rnd_range(1, 12);
    if (ml_grid_new(ctx, rows, cols, n, &g))
        return NULL;
    int kind = (int)(rnd() % 4);
    if (kind == 0) {   /* random offsets (repeats too) */
        int64_t dr[8], dc[8];
        size_t k = (size_t)rnd_range(0, 8);
        for (size_t i = 0; i < k; i++) {
            dr[i] = rnd_range(-2, 2);
            dc[i] = rnd_range(-2, 2);
        }
        ml_grid_set_offsets(ctx, g, k, dr, dc);
    } else if (kind == 1) {   /* a palette of two named patterns */
        uint32_t p0 = 0, p1 = 0;
        ml_grid_palette_add(ctx, g, (int)(rnd() % ML_PATTERN_COUNT), &p0);
        ml_grid_palette_add(ctx, g, (int)(rnd() % ML_PATTERN_COUNT), &p1);
        uint32_t *idx = malloc((size_t)(rows * cols) * sizeof *idx);
        for (int64_t f = 0; f < rows * cols; f++)
            idx[f] = rnd() % 3 ? p0 : p1;
        ml_grid_set_mixed(ctx, g, idx);
        free(idx);
    } else {
        ml_grid_set_pattern(ctx, g, (int)(rnd() % ML_PATTERN_COUNT));
    }
    ml_grid_set_wrap(ctx, g, rnd() % 4 == 0);
    if (rnd() % 2)
        for (int64_t f = 0; f < rows * cols; f++) {
            unsigned d = (unsigned)(rnd() % 10);
            if (d == 0)
                ml_grid_lock(ctx, g, f / cols, f % cols);
            else if (d == 1)
                ml_grid_hole(ctx, g, f / cols, f % cols);
        }
    if (ml_grid_build(ctx, g, &b))
        b = NULL;
    ml_grid_free(g);
    return b;
}

static void mul(const uint8_t *A, size_t m, size_t r, unsigned n, const uint8_t *x, uint8_t *y)
{
    for (size_t i = 0; i < m; i++) {
        unsigned acc = 0;
        for (size_t j = 0; j < r; j++)
            acc = (acc + (unsigned)A[i * r + j] * x[j]) % n;
        y[i] = (uint8_t)acc;
    }
}

/* Solves of 7 right-hand sides at once (two of them A x, two A x + e_c with c the last
 * cell, whose equation a prefix of the residual system leaves to the replay's check, and
 * a random cell), then one: solvable exactly where the dense engine says so, A X = R
 * there, zero rows elsewhere. */
static void check_solves(const ml_engine_def *ops, void *e, const ml_engine_def *dops, void *d,
                         const uint8_t *A, size_t m, size_t r, unsigned n)
{
    size_t kk = 7;
    uint8_t *R = malloc(kk * m + 1), *X = malloc(kk * r + 1), *ok = malloc(kk),
            *dX = malloc(kk * r + 1), *dok = malloc(kk), *x = malloc(r + 1), *y = malloc(m + 1);
    for (size_t t = 0; t < kk; t++) {
        for (size_t j = 0; j < r; j++)
            x[j] = (uint8_t)(rnd() % n);
        if (t < 4) {
            mul(A, m, r, n, x, R + t * m);
            if (t >= 2 && m) {
                size_t c = t == 2 ? m - 1 : (size_t)(rnd() % m);
                R[t * m + c] = (uint8_t)((R[t * m + c] + 1) % n);
            }
        } else
            for (size_t i = 0; i < m; i++)
                R[t * m + i] = (uint8_t)(rnd() % n);
    }
    CHECK(ops->solve(NULL, ctx, e, kk, R, X, ok) == ML_OK);
    CHECK(dops->solve(NULL, ctx, d, kk, R, dX, dok) == ML_OK);
    for (size_t t = 0; t < kk; t++) {
        CHECK(!ok[t] == !dok[t], "solvable %d, dense %d", ok[t], dok[t]);
        if (ok[t]) {
            mul(A, m, r, n, X + t * r, y);
            CHECK(!memcmp(y, R + t * m, m), "A X != R");
        } else {
            for (size_t j = 0; j < r; j++)
                CHECK(X[t * r + j] == 0);
        }
    }
    CHECK(ops->solve(NULL, ctx, e, 1, R, X, ok) == ML_OK && ok[0]);   /* one at a time */
    free(R);
    free(X);
    free(ok);
    free(dX);
    free(dok);
    free(x);
    free(y);
}

static void check(const ml_engine_def *ops, ml_board *b)
{
    const ml_engine_def *dops = ml__dense_ops_for(ml_board_states(b));
    unsigned n = (unsigned)ml_board_states(b);
    size_t m = ml_board_n_cells(b), r = ml_board_n_taps(b);
    uint8_t *A = malloc(m * r + 1);
    ml_board_matrix(ctx, b, A, r);
    void *e = NULL, *d = NULL;
    int rc = ops->build(NULL, ctx, b, &e);
    CHECK(rc == ML_OK && e, "%s", ml_errmsg(ctx));
    CHECK(dops->build(NULL, ctx, b, &d) == ML_OK && d, "%s", ml_errmsg(ctx));
    if (!e || !d) {
        if (e)
            ops->destroy(NULL, e);
        if (d)
            dops->destroy(NULL, d);
        free(A);
        return;
    }
    /* solves before any kernel question too: the row chase's first run is then its
     * kernel run, made with right-hand sides */
    int solve_first = (int)(rnd() % 2);
    if (solve_first)
        check_solves(ops, e, dops, d, A, m, r, n);
    uint64_t null = 0, dnull = 0, k = 0;
    ml_factored ks, dks;
    CHECK(ops->nullity(NULL, ctx, e, &null) == ML_OK);
    CHECK(dops->nullity(NULL, ctx, d, &dnull) == ML_OK);
    CHECK(null == dnull, "nullity %llu, dense %llu", (unsigned long long)null,
          (unsigned long long)dnull);
    CHECK(ops->kernel_size(NULL, ctx, e, &ks) == ML_OK);
    CHECK(dops->kernel_size(NULL, ctx, d, &dks) == ML_OK);
    CHECK(ml_factored_log2(&ks) == ml_factored_log2(&dks), "kernel 2^%g, dense 2^%g",
          ml_factored_log2(&ks), ml_factored_log2(&dks));
    CHECK(ops->generators(NULL, ctx, e, UINT64_MAX, &k, NULL, NULL) == ML_OK && k == null);
    uint8_t *H = malloc(null * r + 1), *H2 = malloc(null * r + 1), *y = malloc(m + 1);
    uint32_t *o = malloc((null + 1) * sizeof *o), *o2 = malloc((null + 1) * sizeof *o2);
    CHECK(ops->generators(NULL, ctx, e, null, &k, H, o) == ML_OK && k == null);
    double lg = 0, lk = ml_factored_log2(&ks);
    for (uint64_t g = 0; g < null; g++) {
        mul(A, m, r, n, H + g * r, y);
        for (size_t i = 0; i < m; i++)
            CHECK(y[i] == 0, "generator %llu not in ker A", (unsigned long long)g);
        int zero = 1;
        for (size_t j = 0; j < r; j++)
            zero &= (H[g * r + j] * o[g]) % n == 0;
        CHECK(zero && o[g] > 1 && n % o[g] == 0, "order %u", o[g]);
        unsigned v = o[g];
        for (unsigned p = 2; p <= v; p++)
            while (v % p == 0) {
                ml_factored one = {1, {p}, {1}};
                lg += ml_factored_log2(&one);
                v /= p;
            }
    }
    CHECK(lg - lk < 1e-6 && lk - lg < 1e-6, "orders give 2^%g, kernel size 2^%g", lg, lk);
    if (null > 1) {
        uint64_t lim = null - 1;
        CHECK(ops->generators(NULL, ctx, e, lim, &k, H2, o2) == ML_OK && k == lim);
        CHECK(!memcmp(H, H2, lim * r) && !memcmp(o, o2, lim * sizeof *o));
    }
    if (!solve_first)
        check_solves(ops, e, dops, d, A, m, r, n);
    ops->destroy(NULL, e);
    dops->destroy(NULL, d);
    free(A);
    free(H);
    free(H2);
    free(o);
    free(o2);
    free(y);
}

/* The residual system's cost model (limits.py's residual_cost, now only in C): its
 * bytes and the log2 of its elimination's work, and which systems fit the limits. */
static void residual_cost_model(void)
{
    ml__residual_size z;
    CHECK(ml__chase_residual_fits(10000, 10000, 2, &z));   /* the 10000^2 cross board */
    CHECK(z.mib * 1048576.0 == 3.0 * 10000 * 157 * 8, "%g MiB", z.mib);
    CHECK(z.work_log2 == ml__chase_bit_length((unsigned __int128)10000 * 10000 * 10000 / 64) - 1
              && z.work_log2 == 33, "2^%d", z.work_log2);
    CHECK(z.max_mib == 1024.0 && z.max_work_log2 == 38);
    CHECK(ml__chase_residual_fits(3000, 3000, 6, &z));
    ml__chase_residual_fits(100, 200, 6, &z);   /* 6 = 2 x 3: two parts */
    CHECK(z.mib * 1048576.0 == 100.0 * 200 * 7, "%g MiB", z.mib);
    CHECK(!ml__chase_residual_fits(65025, 65025, 2, &z) && z.work_log2 == 41);
    CHECK(ml__chase_check_residual_size(ctx, 65025, 65025, 2) == ML_ETOOLARGE &&
          strstr(ml_errmsg(ctx), "65025 equations x 65025 unknowns mod 2"), "%s", ml_errmsg(ctx));
    CHECK(ml__chase_check_residual_size(ctx, 10000, 10000, 2) == ML_OK);
}

/* The choosing entry: the variant it took checked as the others (against the dense
 * engine); counts[0..3] light, prefix, rowsolve, row. */
static void check_choice(ml_board *b, int counts[4])
{
    void *e = NULL;
    int rc = ml__chase_choose_ops.build(NULL, ctx, b, &e);
    CHECK(rc == ML_OK && e, "%s", ml_errmsg(ctx));
    if (!e)
        return;
    const char *why = NULL, *v = ml__chase_variant(e, &why);
    CHECK(v && why && *why, "no variant named");
    if (v)
        counts[!strcmp(v, "chase-prefix")     ? 1
               : !strcmp(v, "chase-rowsolve") ? 2
               : !strcmp(v, "chase-row")      ? 3
                                              : 0]++;
    ml__chase_choose_ops.destroy(NULL, e);
    check(&ml__chase_choose_ops, b);
}

/* y (over the cells) = A x (x over the taps) of a grid board, by ml_board_apply */
static void apply_taps(const ml_board *b, const uint8_t *x, uint8_t *y)
{
    size_t t = (size_t)ml_board_rows(b) * (size_t)ml_board_cols(b);
    size_t m = ml_board_n_cells(b), r = ml_board_n_taps(b);
    uint8_t *tiles = calloc(t, 1), *zero = calloc(t, 1), *out = malloc(t);
    for (size_t j = 0; j < r; j++)
        tiles[ml__board_tap_flat(b, j)] = x[j];
    CHECK(ml_board_apply(ctx, b, zero, tiles, out) == ML_OK, "%s", ml_errmsg(ctx));
    for (size_t i = 0; i < m; i++)
        y[i] = out[ml__board_cell_flat(b, i)];
    free(tiles);
    free(zero);
    free(out);
}

/* A tall residual system none of whose prefixes leaves no kernel (engine.py's
 * ROWCHASE_TALL_ENTRIES): a 450 x 1200 board over GF(2) with 12 % locked tiles and 0.8 %
 * holes, its pattern reaching 3 columns (so the chase runs along the rows): the choosing
 * entry takes the row chase for it, whose solutions of A x and kernel vectors are
 * checked by applying them (A is too large for the dense engine). */
static void tall_row(void)
{
    static const int64_t dr[] = {0, 1, -1, 0, 0}, dc[] = {0, 0, 0, -3, 3};
    const int64_t rows = 450, cols = 1200;
    ml_grid *g = NULL;
    ml_board *b = NULL;
    void *e = NULL;
    CHECK(ml_grid_new(ctx, rows, cols, 2, &g) == ML_OK);
    CHECK(ml_grid_set_offsets(ctx, g, 5, dr, dc) == ML_OK);
    for (int64_t f = 0; f < rows * cols; f++) {
        unsigned d = (unsigned)(rnd() % 1000);
        if (d < 8)
            ml_grid_hole(ctx, g, f / cols, f % cols);
        else if (d < 128)
            ml_grid_lock(ctx, g, f / cols, f % cols);
    }
    CHECK(ml_grid_build(ctx, g, &b) == ML_OK);
    ml_grid_free(g);
    CHECK(ml__chase_choose_ops.build(NULL, ctx, b, &e) == ML_OK && e, "%s", ml_errmsg(ctx));
    if (!e) {
        ml_board_free(b);
        return;
    }
    const char *why = NULL, *v = ml__chase_variant(e, &why);
    CHECK(v && !strcmp(v, "chase-row") && why &&
              !strcmp(why, "a tall residual system no prefix of which leaves a trivial kernel"),
          "%s: %s", v ? v : "-", why ? why : "-");
    size_t m = ml_board_n_cells(b), r = ml_board_n_taps(b);
    uint8_t *x = malloc(r), *R = calloc(2 * m, 1), *X = malloc(2 * r), *y = malloc(m);
    uint8_t ok[2] = {0, 0};
    for (size_t j = 0; j < r; j++)
        x[j] = (uint8_t)(rnd() % 2);
    apply_taps(b, x, R);   /* R[0] = A x; R[1] = 0 */
    CHECK(ml__chase_choose_ops.solve(NULL, ctx, e, 2, R, X, ok) == ML_OK && ok[0] && ok[1]);
    for (int i = 0; i < 2; i++) {
        apply_taps(b, X + i * r, y);
        CHECK(!memcmp(y, R + i * m, m), "A X != R, row %d", i);
    }
    uint64_t null = 0, k = 0;
    CHECK(ml__chase_choose_ops.nullity(NULL, ctx, e, &null) == ML_OK);
    uint8_t *H = malloc(3 * r);
    uint32_t o[3];
    CHECK(ml__chase_choose_ops.generators(NULL, ctx, e, 3, &k, H, o) == ML_OK &&
          k == (null < 3 ? null : 3));
    for (uint64_t i = 0; i < k; i++) {
        apply_taps(b, H + i * r, y);
        CHECK(!memchr(y, 1, m), "not in ker A");
    }
    ml__chase_choose_ops.destroy(NULL, e);
    ml_board_free(b);
    free(x);
    free(R);
    free(X);
    free(y);
    free(H);
}

int main(void)
{
    if (ml_ctx_new(&ctx))
        return 1;
    static const int ns[] = {2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 101, 255};
    int boards = 0, counts[4] = {0, 0, 0, 0};
    for (int t = 0; t < 400; t++) {
        ml_board *b = random_board(ns[rnd() % (sizeof ns / sizeof ns[0])]);
        if (!b)
            continue;
        check(&ml__chase_light_ops, b);
        check(&ml__chase_prefix_ops, b);
        check(&ml__chase_row_ops, b);
        check_choice(b, counts);
        ml_board_free(b);
        boards++;
    }
    CHECK(boards > 300, "%d boards", boards);
    /* tall boards with many locked tiles: a prefix of the residual system leaves no
     * kernel (the replay checks the other equations) */
    for (int t = 0; t < 60; t++) {
        ml_grid *g = NULL;
        ml_board *b = NULL;
        int64_t rows = rnd_range(12, 30), cols = rnd_range(2, 6);
        if (ml_grid_new(ctx, rows, cols, ns[rnd() % 10], &g))
            continue;
        for (int64_t f = 0; f < rows * cols; f++)
            if (rnd() % 3 == 0)
                ml_grid_lock(ctx, g, f / cols, f % cols);
        if (ml_grid_build(ctx, g, &b) == ML_OK) {
            check(&ml__chase_prefix_ops, b);
            check(&ml__chase_row_ops, b);
            check_choice(b, counts);
            ml_board_free(b);
            boards++;
        }
        ml_grid_free(g);
    }
    /* the row-solve chase: knight and diagonal boards (pairs of unit taps on widths
     * that are multiples of 2a), along the rows or the columns */
    int rowsolved = 0;
    for (int t = 0; t < 80; t++) {
        ml_board *b = NULL;
        const char *name = t % 2 ? "knight" : "diagonal";
        if (ml_board_grid(ctx, rnd_range(2, 12), rnd_range(2, 12), ns[rnd() % 14], name, &b))
            continue;
        void *e = NULL;
        if (ml__chase_rowsolve_ops.build(NULL, ctx, b, &e) == ML_OK) {
            ml__chase_rowsolve_ops.destroy(NULL, e);
            check(&ml__chase_rowsolve_ops, b);
            check_choice(b, counts);
            rowsolved++;
        } else {
            CHECK(ml_errcode(ctx) == ML_EINTERNAL, "%s", ml_errmsg(ctx));
        }
        ml_board_free(b);
    }
    CHECK(rowsolved > 30, "%d row-solve boards", rowsolved);
    /* many holes: more than ROWCHASE_MIN_RATIO symbols a column, the row chase (GF(3)
     * rows bit-sliced, then as bytes) */
    for (int t = 0; t < 120; t++) {
        ml_grid *hg = NULL;
        ml_board *b = NULL;
        int64_t rows = rnd_range(16, 60), cols = rnd_range(2, 12);
        if (ml_grid_new(ctx, rows, cols, ns[rnd() % 14], &hg))
            continue;
        if (rnd() % 2)
            ml_grid_set_pattern(ctx, hg, (int)(rnd() % ML_PATTERN_COUNT));
        ml_grid_set_wrap(ctx, hg, rnd() % 5 == 0);
        unsigned holes = (unsigned)rnd_range(3, 6);   /* of 10 */
        for (int64_t f = 0; f < rows * cols; f++) {
            unsigned d = (unsigned)(rnd() % 10);
            if (d < holes)
                ml_grid_hole(ctx, hg, f / cols, f % cols);
            else if (d == holes && t % 3 == 0)
                ml_grid_lock(ctx, hg, f / cols, f % cols);
        }
        if (ml_grid_build(ctx, hg, &b) == ML_OK) {
            ml_rowchase_set_bitsliced(t % 4 != 3);
            check_choice(b, counts);
            check(&ml__chase_row_ops, b);
            ml_rowchase_set_bitsliced(1);
            ml_board_free(b);
        }
        ml_grid_free(hg);
    }
    CHECK(counts[0] > 50 && counts[1] > 10 && counts[2] > 10 && counts[3] > 40,
          "variants taken: light %d, prefix %d, rowsolve %d, row %d", counts[0], counts[1],
          counts[2], counts[3]);
    /* the residual limit, before the residual matrix is allocated: an empty pattern
     * forces nothing (every tap a symbol, every tile an equation) */
    ml_grid *g = NULL;
    ml_board *big = NULL;
    void *e = NULL;
    CHECK(ml_grid_new(ctx, 255, 255, 2, &g) == ML_OK);
    CHECK(ml_grid_set_offsets(ctx, g, 0, NULL, NULL) == ML_OK);
    CHECK(ml_grid_build(ctx, g, &big) == ML_OK);
    CHECK(ml__chase_light_ops.build(NULL, ctx, big, &e) == ML_ETOOLARGE && !e);
    CHECK(!strcmp(ml_errmsg(ctx),
                  "this board is too large for its pattern: the chase leaves a residual "
                  "system of 65025 equations x 65025 unknowns mod 2 (1514 MiB, about 2^41 "
                  "operations to eliminate; at most 1024 MiB and 2^38); the pattern forces "
                  "too few taps (use a smaller board or a pattern that reaches the next "
                  "row)"),
          "%s", ml_errmsg(ctx));
    ml_board_free(big);
    ml_grid_free(g);
    tall_row();
    residual_cost_model();
    /* the row chase's limits (rowchase.py): the elimination records of an empty pattern
     * (every tap a symbol, every tile an equation), the live rows of taps 30 rows up */
    static const struct {
        int64_t rows, cols, np;
        int64_t dr[2], dc[2];
        const char *msg;
    } big_row[] = {
        {1320, 1320, 0, {0, 0}, {0, 0},
         "this board is too large for the row chase: about 1097 MiB of elimination records "
         "(1742399 eliminations of rows of at least 1320 symbols mod 5; at most 1024 MiB); "
         "use a smaller board or fewer holes"},
        {40, 1700, 2, {0, -30}, {0, 0},
         "this board is too large for the row chase: at least 16999 symbols are live at once "
         "(65536 rows of them: 1062 MiB, about 2^26 operations; at most 1024 MiB and 2^38); "
         "the pattern forces too few taps (use a smaller board or a pattern that reaches the "
         "next row)"},
    };
    for (size_t i = 0; i < sizeof big_row / sizeof big_row[0]; i++) {
        g = NULL;
        big = NULL;
        e = NULL;
        CHECK(ml_grid_new(ctx, big_row[i].rows, big_row[i].cols, 5, &g) == ML_OK);
        CHECK(ml_grid_set_offsets(ctx, g, (size_t)big_row[i].np, big_row[i].dr,
                                  big_row[i].dc) == ML_OK);
        CHECK(ml_grid_hole(ctx, g, 0, 0) == ML_OK && ml_grid_build(ctx, g, &big) == ML_OK);
        CHECK(ml__chase_row_ops.build(NULL, ctx, big, &e) == ML_ETOOLARGE && !e);
        CHECK(!strcmp(ml_errmsg(ctx), big_row[i].msg), "%s", ml_errmsg(ctx));
        ml_board_free(big);
        ml_grid_free(g);
    }
    ml_ctx_free(ctx);
    printf("%d boards, %d row-solve; choosing: light %d, prefix %d, rowsolve %d, row %d\n",
           boards, rowsolved, counts[0], counts[1], counts[2], counts[3]);
    return t_done();
}
