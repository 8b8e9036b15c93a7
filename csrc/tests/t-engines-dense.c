/* t-engines-dense: csrc/engines/dense.c through its vtables (ml__dense_gf2_ops,
 * ml__dense_zn_ops), without the solver: on random grids and graph boards (n 2..9 and
 * 12, 16, 30, 101, 210, 255, dense and effects graph boards) build, then nullity and
 * kernel_size agree (|ker A| = prod of the orders), generators are in ker A with their
 * orders (and a limit gives the first rows of the same list; H = NULL gives the count
 * alone), solve answers k right-hand sides at once (the solvable ones A x = b, the
 * unsolvable rows zeroed, b = A x always solvable), det is a unit iff inverse exists and
 * A A^-1 = I, A G A = A; both engines give the same answers on n = 2 boards (the Z/n
 * engine over q = 2); the GF(2) engine's solves agree whichever way each is taken
 * (gf2_paths); the size limits refuse with _gf2.pxi's and _zn.pxi's messages.
 * (t-solver covers the solver over them; tests/native/test_capi_solver.py Python's.)
 * ml-test-sources: engines/dense.c engines/dense_gf2.c dense/gf2_batch.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0xDE45Eull
#include "include/modlights.h"
#include "engines/dense.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;

static ml_board *random_board(int n)
{
    ml_board *b = NULL;
    if (rnd() % 2) {
        size_t m = (size_t)rnd_range(0, 10), r = (size_t)rnd_range(0, 10);
        uint8_t *a = malloc(m * r + 1);
        for (size_t i = 0; i < m * r; i++)
            a[i] = rnd() % 2 ? 0 : (uint8_t)(rnd() % 256);
        if (ml_board_from_matrix(ctx, n, m, r, a, r, &b))
            b = NULL;
        free(a);
        return b;
    }
    ml_grid *g = NULL;
    if (ml_grid_new(ctx, rnd_range(1, 8), rnd_range(1, 8), n, &g))
        return NULL;
    ml_grid_set_pattern(ctx, g, (int)(rnd() % ML_PATTERN_COUNT));
    ml_grid_set_wrap(ctx, g, rnd() % 3 == 0);
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

static void check(const ml_engine_def *ops, ml_board *b)
{
    unsigned n = (unsigned)ml_board_states(b);
    size_t m = ml_board_n_cells(b), r = ml_board_n_taps(b);
    uint8_t *A = malloc(m * r + 1);
    ml_board_matrix(ctx, b, A, r);
    void *e = NULL;
    int rc = ops->build(NULL, ctx, b, &e);
    CHECK(rc == ML_OK && e, "%s", ml_errmsg(ctx));
    if (rc) {
        free(A);
        return;
    }
    uint64_t null = 0, k = 0;
    ml_factored ks;
    CHECK(ops->nullity(NULL, ctx, e, &null) == ML_OK);
    CHECK(ops->kernel_size(NULL, ctx, e, &ks) == ML_OK);
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
        /* log2 of the order: its prime factors one at a time */
        unsigned v = o[g];
        for (unsigned p = 2; p <= v; p++)
            while (v % p == 0) {
                ml_factored one = {1, {p}, {1}};
                lg += ml_factored_log2(&one);
                v /= p;
            }
    }
    CHECK(lg - lk < 1e-6 && lk - lg < 1e-6, "orders give 2^%g, kernel size 2^%g", lg, lk);
    if (null > 1) {   /* a limit: the first rows of the same list */
        uint64_t lim = null - 1;
        CHECK(ops->generators(NULL, ctx, e, lim, &k, H2, o2) == ML_OK && k == lim);
        CHECK(!memcmp(H, H2, lim * r) && !memcmp(o, o2, lim * sizeof *o));
    }
    /* k right-hand sides at once: b = A x (solvable) and random ones */
    size_t kk = 5;
    uint8_t *R = malloc(kk * m + 1), *X = malloc(kk * r + 1), *ok = malloc(kk), *x = malloc(r + 1);
    for (size_t t = 0; t < kk; t++) {
        for (size_t j = 0; j < r; j++)
            x[j] = (uint8_t)(rnd() % n);
        if (t < 2)
            mul(A, m, r, n, x, R + t * m);
        else
            for (size_t i = 0; i < m; i++)
                R[t * m + i] = (uint8_t)(rnd() % n);
    }
    CHECK(ops->solve(NULL, ctx, e, kk, R, X, ok) == ML_OK);
    for (size_t t = 0; t < kk; t++) {
        if (t < 2)
            CHECK(ok[t], "A x not solvable");
        if (ok[t]) {
            mul(A, m, r, n, X + t * r, y);
            CHECK(!memcmp(y, R + t * m, m), "A X != R");
        } else {
            for (size_t j = 0; j < r; j++)
                CHECK(X[t * r + j] == 0);
            CHECK(null > 0 || m > r, "unsolvable with a trivial kernel and m <= r");
        }
    }
    /* det, inverse, pseudo-inverse */
    unsigned det = 0;
    rc = ops->det(NULL, ctx, e, &det);
    CHECK((rc == ML_OK) == (m == r));
    uint8_t *G = malloc(r * m + 1);
    int inv = ops->inverse(NULL, ctx, e, G) == ML_OK;
    if (m == r) {
        unsigned a = det, c = n;
        while (c) {
            unsigned t = a % c;
            a = c;
            c = t;
        }
        CHECK((a == 1) == inv, "det %u n %u inverse %d", det, n, inv);
    }
    if (inv)
        for (size_t j = 0; j < m; j++) {
            for (size_t i = 0; i < r; i++)
                x[i] = G[i * m + j];
            mul(A, m, r, n, x, y);
            for (size_t i = 0; i < m; i++)
                CHECK(y[i] == (i == j));
        }
    if (ops->pseudo_inverse(NULL, ctx, e, G) == ML_OK)
        for (size_t j = 0; j < r; j++) {
            uint8_t *col = malloc(m + 1), *gy = malloc(r + 1);
            for (size_t i = 0; i < m; i++)
                col[i] = A[i * r + j];
            mul(G, r, m, n, col, gy);
            mul(A, m, r, n, gy, y);
            CHECK(!memcmp(y, col, m), "A G A != A");
            free(col);
            free(gy);
        }
    ops->destroy(NULL, e);
    free(A);
    free(H);
    free(H2);
    free(o);
    free(o2);
    free(y);
    free(R);
    free(X);
    free(ok);
    free(x);
    free(G);
}

/* The GF(2) engine answers a sequence of solves as Gf2Engine does, whichever way each
 * takes: the first two of fewer than 64 right-hand sides by direct elimination (before
 * any factorisation; the rank comes with them), then by dot products with the
 * factorisation, then through the solve matrix for a batch of 70 (Four Russians tables
 * when m <= 64, 64 boards a word otherwise) and for a few again: every answer is the
 * same particular solution (free columns 0) with the same solvability, and nullity
 * before anything (one forward elimination) equals nullity after. */
static void gf2_paths(ml_board *b)
{
    const ml_engine_def *ops = &ml__dense_gf2_ops;
    size_t m = (size_t)ml_board_n_cells(b), r = (size_t)ml_board_n_taps(b);
    uint8_t *A = malloc(m * r + 1);
    ml_board_matrix(ctx, b, A, r);
    void *e1 = NULL, *e2 = NULL;
    CHECK(ops->build(NULL, ctx, b, &e1) == ML_OK && ops->build(NULL, ctx, b, &e2) == ML_OK);
    uint64_t null1 = 0, null2 = 0;
    CHECK(ops->nullity(NULL, ctx, e1, &null1) == ML_OK);   /* rank alone: no factoring */
    size_t K = 70;
    uint8_t *R = malloc(K * m + 1), *x = malloc(r + 1), *y = malloc(m + 1);
    for (size_t t = 0; t < K; t++) {
        for (size_t j = 0; j < r; j++)
            x[j] = (uint8_t)(rnd() % 2);
        if (t % 3)
            mul(A, m, r, 2, x, R + t * m);
        else
            for (size_t i = 0; i < m; i++)
                R[t * m + i] = (uint8_t)(rnd() % 2);
    }
    /* the reference answers: one right-hand side a call through e2's sequence */
    static const size_t calls[] = {1, 3, 1, 70, 2};
    uint8_t *X0 = malloc(K * r + 1), *ok0 = malloc(K), *X = malloc(K * r + 1), *ok = malloc(K);
    for (size_t t = 0; t < K; t++) {
        CHECK(ops->solve(NULL, ctx, e2, 1, R + t * m, X0 + t * r, ok0 + t) == ML_OK);
        if (ok0[t]) {
            mul(A, m, r, 2, X0 + t * r, y);
            CHECK(!memcmp(y, R + t * m, m), "A x != b");
        } else {
            for (size_t j = 0; j < r; j++)
                CHECK(X0[t * r + j] == 0);
        }
        if (t % 3)
            CHECK(ok0[t], "A x not solvable");
    }
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        size_t k = calls[c];
        CHECK(ops->solve(NULL, ctx, e1, k, R, X, ok) == ML_OK);
        CHECK(!memcmp(ok, ok0, k) && !memcmp(X, X0, k * r), "call %zu (k = %zu) differs", c, k);
    }
    CHECK(ops->nullity(NULL, ctx, e1, &null2) == ML_OK && null1 == null2);
    ops->destroy(NULL, e1);
    ops->destroy(NULL, e2);
    free(A);
    free(R);
    free(x);
    free(y);
    free(X0);
    free(ok0);
    free(X);
    free(ok);
}

int main(void)
{
    if (ml_ctx_new(&ctx))
        return 1;
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 30, 101, 210, 255};
    int boards = 0;
    for (int t = 0; t < 300; t++) {
        int n = ns[rnd() % (sizeof ns / sizeof ns[0])];
        ml_board *b = random_board(n);
        if (!b)
            continue;
        check(ml__dense_ops_for(n), b);
        if (n == 2) {
            check(&ml__dense_zn_ops, b);   /* q = 2 through the Z/n engine */
            gf2_paths(b);
        }
        ml_board_free(b);
        boards++;
    }
    CHECK(boards > 250, "%d boards", boards);
    for (int t = 0; t < 12; t++) {   /* past 64 cells: batches 64 boards a word */
        ml_grid *g = NULL;
        ml_board *b = NULL;
        if (ml_grid_new(ctx, rnd_range(9, 16), rnd_range(9, 16), 2, &g) == ML_OK) {
            ml_grid_set_pattern(ctx, g, (int)(rnd() % ML_PATTERN_COUNT));
            ml_grid_set_wrap(ctx, g, rnd() % 3 == 0);
            if (ml_grid_build(ctx, g, &b) == ML_OK) {
                gf2_paths(b);
                ml_board_free(b);
            }
            ml_grid_free(g);
        }
    }
    CHECK(ml__dense_ops_for(2) == &ml__dense_gf2_ops && ml__dense_ops_for(3) == &ml__dense_zn_ops);
    /* the limits, checked before anything is allocated */
    ml_board *big = NULL;
    void *e = NULL;
    uint64_t rank = 0;
    if (ml_board_grid(ctx, 140000, 1000, 2, NULL, &big) == ML_OK) {
        CHECK(ml__dense_gf2_ops.build(NULL, ctx, big, &e) == ML_ETOOLARGE && !e);
        CHECK(!strcmp(ml_errmsg(ctx), "a 140000000x140000000 tap matrix is too large for the "
                                      "dense GF(2) engine: [A | I] would take "
                                      "4563480.6 GiB (at most 2 GiB)"),
              "%s", ml_errmsg(ctx));
        CHECK(ml__dense_gf2_rank(ctx, big, &rank) == ML_ETOOLARGE);
        CHECK(!strcmp(ml_errmsg(ctx), "a 140000000x140000000 tap matrix is too large for the "
                                      "dense GF(2) rank: 2281740.3 GiB packed (at most 2 GiB)"),
              "%s", ml_errmsg(ctx));
        CHECK(ml__dense_zn_ops.build(NULL, ctx, big, &e) == ML_ETOOLARGE && !e);
        CHECK(!strcmp(ml_errmsg(ctx), "the tap matrix 140000000x140000000 is too large for the "
                                      "dense native Z/n engine (at most 268435456 entries)"),
              "%s", ml_errmsg(ctx));
        ml_board_free(big);
    } else {
        CHECK(0, "%s", ml_errmsg(ctx));
    }
    {
        ml_board *b = NULL;
        CHECK(ml_board_grid(ctx, 5, 5, 2, NULL, &b) == ML_OK);
        CHECK(ml__dense_gf2_rank(ctx, b, &rank) == ML_OK && rank == 23);
        ml_board_free(b);
    }
    ml_ctx_free(ctx);
    printf("%d boards\n", boards);
    return t_done();
}
