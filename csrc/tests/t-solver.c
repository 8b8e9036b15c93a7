/* t-solver: csrc/api/solver.c and csrc/engines/dense.c: on random boards (every named
 * pattern and random offsets, n 2..9 and larger n, locks, holes, wrap, odd and even
 * sides, graph boards from effects and from matrices) the dense solver's answers are
 * checked against the tap matrix itself (ml_board_matrix): every kernel generator is in
 * ker A with its order exact, the orders multiply to |ker A|, the nullity and rank add
 * up to n_taps, a solvable state's solution takes it to the target (ml_board_apply),
 * ml_solver_solvable agrees with ml_solver_solve, A A^-1 = I, A G A = A, det is a unit
 * exactly when A is invertible; the lazy GF(2) rank agrees with the factorisation; a
 * seam engine answering only the core questions gets det / inverse / pseudo-inverse
 * from the dense fallback; the refusals with their messages (NULL arguments, freed
 * handles, chase on a graph board, an engine without C ops yet, det
 * and inverse of non-square or singular matrices). (tests/native/test_capi_solver.py
 * compares every answer with Python's Solver.) Exit status 0 when every check holds.
 * ml-test-sources: api/solver.c api/solver_solve.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/board_json.c api/board_json_words.c api/json_fields.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#define ML_T_SEED 0x50170E5ull
#include "include/modlights.h"
#include "engines/dense.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

#define MSG(ctx, want)                                                                   \
    CHECK(!strcmp(ml_errmsg(ctx), want), "got \"%s\"", ml_errmsg(ctx))
#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

static ml_ctx *ctx;

/* ------------------------------------------------------------------ random boards */
static ml_board *random_grid(int n)
{
    int64_t rows = rnd_range(1, 7), cols = rnd_range(1, 7);
    ml_grid *g = NULL;
    if (ml_grid_new(ctx, rows, cols, n, &g))
        return NULL;
    if (rnd() % 5 == 0) {
        int64_t dr[6], dc[6];
        size_t k = (size_t)rnd_range(1, 6);
        for (size_t i = 0; i < k; i++) {
            dr[i] = rnd_range(-2, 2);
            dc[i] = rnd_range(-2, 2);
        }
        ml_grid_set_offsets(ctx, g, k, dr, dc);
    } else {
        ml_grid_set_pattern(ctx, g, (int)(rnd() % ML_PATTERN_COUNT));
    }
    if (rnd() % 4 == 0)
        ml_grid_set_wrap(ctx, g, 1);
    if (rnd() % 3 == 0) {
        int locks = (int)rnd_range(0, 3), holes = (int)rnd_range(0, 3);
        for (int i = 0; i < locks; i++)
            ml_grid_lock(ctx, g, rnd_range(0, rows - 1), rnd_range(0, cols - 1));
        for (int i = 0; i < holes; i++)
            ml_grid_hole(ctx, g, rnd_range(0, rows - 1), rnd_range(0, cols - 1));
    }
    ml_board *b = NULL;
    if (ml_grid_build(ctx, g, &b))
        b = NULL;   /* a tile both locked and a hole: refused, try another */
    ml_grid_free(g);
    return b;
}

static ml_board *random_graph(int n)
{
    size_t m = (size_t)rnd_range(1, 12), r = (size_t)rnd_range(1, 12);
    ml_board *b = NULL;
    if (rnd() % 2) {
        uint8_t *a = malloc(m * r);
        for (size_t i = 0; i < m * r; i++)
            a[i] = rnd() % 3 ? 0 : (uint8_t)(rnd() % 256);
        ml_board_from_matrix(ctx, n, m, r, a, r, &b);
        free(a);
    } else {
        int64_t *indptr = malloc((r + 1) * sizeof *indptr), *cells = malloc(4 * r * sizeof *cells);
        indptr[0] = 0;
        size_t at = 0;
        for (size_t j = 0; j < r; j++) {
            int k = (int)rnd_range(0, 4);
            for (int t = 0; t < k; t++)
                cells[at++] = rnd_range(0, (int64_t)m - 1);
            indptr[j + 1] = (int64_t)at;
        }
        ml_board_from_effects(ctx, n, (int64_t)m, r, indptr, cells, &b);
        free(indptr);
        free(cells);
    }
    return b;
}

/* ------------------------------------------------------------------ the checks */
static uint64_t ipow_sat(uint64_t p, uint64_t e)
{
    uint64_t v = 1;
    while (e--) {
        if (v > UINT64_MAX / p)
            return 0;
        v *= p;
    }
    return v;
}

/* y = A x mod n (A: m x r) */
static void mul(const uint8_t *A, size_t m, size_t r, int n, const uint8_t *x, uint8_t *y)
{
    for (size_t i = 0; i < m; i++) {
        unsigned acc = 0;
        for (size_t j = 0; j < r; j++)
            acc = (acc + (unsigned)A[i * r + j] * x[j]) % (unsigned)n;
        y[i] = (uint8_t)acc;
    }
}

static int allzero(const uint8_t *v, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (v[i])
            return 0;
    return 1;
}

static void check_board(ml_board *b, const char *method)
{
    int n = ml_board_states(b);
    size_t m = ml_board_n_cells(b), r = ml_board_n_taps(b);
    uint8_t *A = malloc(m * r + 1);
    OK(ml_board_matrix(ctx, b, A, r));
    ml_solver *s = NULL;
    int rc = ml_solver_new(ctx, b, method, &s);
    CHECK(rc == ML_OK, "%s", ml_errmsg(ctx));
    if (rc) {
        free(A);
        return;
    }
    CHECK(!strcmp(ml_plan_engine(ml_solver_plan(s)), n == 2 ? "dense-gf2" : "dense-zn"));
    CHECK(ml_solver_board(s) == b);
    uint64_t null = 0, rank = 0;
    OK(ml_solver_nullity(ctx, s, &null));   /* GF(2): the rank-only path first */
    OK(ml_solver_rank(ctx, s, &rank));
    CHECK(null + rank == r);
    ml_factored ks;
    OK(ml_solver_kernel_size(ctx, s, &ks));
    uint64_t size = 1;
    for (int i = 0; i < ks.count; i++)
        size = ipow_sat(ks.prime[i], ks.exp[i]) * size;
    /* kernel generators: in ker A, each of the order given, orders multiply to |ker A| */
    uint8_t *H = malloc(null * r + 1), *y = malloc(m + 1), *x = malloc(r + 1);
    uint32_t *orders = malloc((null + 1) * sizeof *orders);
    OK(ml_solver_kernel(ctx, s, H, orders));
    uint64_t prod = 1;
    for (uint64_t g = 0; g < null; g++) {
        const uint8_t *h = H + g * r;
        mul(A, m, r, n, h, y);
        CHECK(allzero(y, m), "generator %llu not in ker A", (unsigned long long)g);
        uint32_t o = orders[g];
        CHECK(o >= 2 && n % (int)o == 0, "order %u", o);
        for (size_t j = 0; j < r; j++)
            x[j] = (uint8_t)((unsigned)h[j] * o % (unsigned)n);
        CHECK(allzero(x, r));
        for (uint32_t p = 2; p <= o; p++)
            if (o % p == 0) {
                int prime = 1;
                for (uint32_t d = 2; d * d <= p; d++)
                    prime &= p % d != 0;
                if (!prime)
                    continue;
                for (size_t j = 0; j < r; j++)
                    x[j] = (uint8_t)((unsigned)h[j] * (o / p) % (unsigned)n);
                CHECK(!allzero(x, r), "generator %llu has order below %u",
                      (unsigned long long)g, o);
            }
        prod *= o;
    }
    if (size)
        CHECK(prod == size, "orders give %llu, kernel size %llu", (unsigned long long)prod,
              (unsigned long long)size);
    uint64_t null2 = 0;
    OK(ml_solver_nullity(ctx, s, &null2));   /* now from the built engine */
    CHECK(null2 == null);
    int unique = -1, inv = -1;
    OK(ml_solver_is_unique(ctx, s, &unique));
    OK(ml_solver_is_invertible(ctx, s, &inv));
    CHECK(unique == (ks.count == 0));
    CHECK(inv == (unique && m == r));
    /* solving: solvable states reach the target; solvable() agrees with solve() */
    uint64_t tiles = ml_board_size(b), tsize = ml_board_taps_size(b);
    uint8_t *state = malloc(tiles + 1), *out = malloc(tiles + 1), *target = malloc(tiles + 1);
    for (int trial = 0; trial < 4; trial++) {
        OK(ml_board_random_state(ctx, b, rnd(), trial < 2, state));
        for (uint64_t f = 0; f < tiles; f++)
            state[f] = (uint8_t)(state[f] + (trial & 1 ? 0 : n * (rnd() % 2)));   /* >= n */
        int use_tiles = trial == 3;
        for (uint64_t f = 0; f < tiles; f++)
            target[f] = (uint8_t)(rnd() % 256);
        unsigned fill = (unsigned)(rnd() % 300);
        ml_target t = use_tiles ? ml_target_tiles(target) : ml_target_fill(fill);
        if (use_tiles) {   /* a reachable target: state + A x */
            for (size_t j = 0; j < r; j++)
                x[j] = (uint8_t)(rnd() % (unsigned)n);
        }
        int solvable = -1;
        OK(ml_solver_solvable(ctx, s, state, t, &solvable));
        ml_result *res = NULL;
        rc = ml_solver_solve(ctx, s, state, t, 0, ml_budget_default(), &res);
        CHECK((rc == ML_OK) == (solvable == 1), "rc %d solvable %d", rc, solvable);
        if (trial < 2 && fill == 0 && !use_tiles)
            CHECK(solvable == 1);   /* -A x from random taps */
        if (rc == ML_OK) {
            CHECK(ml_result_board(res) == b);
            const uint8_t *taps = ml_result_taps(res);
            uint64_t len = 0;
            for (uint64_t f = 0; f < tsize; f++)
                len += taps[f];
            CHECK(len == ml_result_length(res));
            CHECK(ml_result_moves(res, NULL, NULL, 0) == len);
            ml_factored rk;
            ml_result_kernel_size(res, &rk);
            int triv = 1;   /* Solution(..., ks == 1, ...) without a search */
            for (int i = 0; i < rk.count; i++)
                triv = triv && !rk.exp[i];
            CHECK(ml_result_proven_minimal(res) == triv);
            CHECK(!memcmp(&rk, &ks, sizeof rk));
            OK(ml_board_apply(ctx, b, state, taps, out));
            for (uint64_t i = 0; i < m; i++) {
                int64_t rr, cc;
                ml_board_cell_position(ctx, b, i, &rr, &cc);
                uint64_t f = (uint64_t)(rr * ml_board_cols(b) + cc);
                unsigned want = use_tiles ? target[f] % (unsigned)n : fill % (unsigned)n;
                CHECK(out[f] == want, "cell %llu: %u, want %u", (unsigned long long)i, out[f],
                      want);
            }
            ml_result_free(res);
        } else {
            CHECK(rc == ML_EUNSOLVABLE && res == NULL);
            MSG(ctx, "no combination of taps takes this board to the target (the start and "
                     "the target differ by a pattern that taps cannot make)");
            CHECK(!unique || m != r, "an invertible A solves everything");
        }
    }
    /* det, inverse, pseudo-inverse */
    unsigned det = 99;
    rc = ml_solver_det(ctx, s, &det);
    if (m != r) {
        CHECK(rc == ML_EUNAVAILABLE);
        char want[128];
        snprintf(want, sizeof want, "det needs a square tap matrix, this one is %zux%zu", m, r);
        MSG(ctx, want);
    } else {
        CHECK(rc == ML_OK);
        unsigned a = det, bb = (unsigned)n;
        while (bb) {
            unsigned t2 = a % bb;
            a = bb;
            bb = t2;
        }
        CHECK((a == 1) == (inv == 1), "det %u n %d invertible %d", det, n, inv);
    }
    uint8_t *G = malloc(r * m + 1), *AG = malloc(m * m + 1);
    rc = ml_solver_inverse(ctx, s, G);
    CHECK((rc == ML_OK) == (inv == 1), "%s", ml_errmsg(ctx));
    if (rc == ML_OK)
        for (size_t j = 0; j < m; j++) {   /* A G e_j = e_j */
            for (size_t i = 0; i < r; i++)
                x[i] = G[i * m + j];
            mul(A, m, r, n, x, y);
            for (size_t i = 0; i < m; i++)
                CHECK(y[i] == (i == j), "A A^-1 != I");
        }
    rc = ml_solver_pseudo_inverse(ctx, s, G);
    if (n == 2 || n == 3 || n == 5 || n == 7 || n == 6)   /* squarefree: always exists */
        CHECK(rc == ML_OK, "%s", ml_errmsg(ctx));
    if (rc == ML_OK)
        for (size_t j = 0; j < r; j++) {   /* A G A e_j = A e_j */
            uint8_t *col = malloc(m + 1), *gy = malloc(r + 1), *agy = malloc(m + 1);
            for (size_t i = 0; i < m; i++)
                col[i] = A[i * r + j];
            for (size_t i = 0; i < r; i++) {
                unsigned acc = 0;
                for (size_t k = 0; k < m; k++)
                    acc = (acc + (unsigned)G[i * m + k] * col[k]) % (unsigned)n;
                gy[i] = (uint8_t)acc;
            }
            mul(A, m, r, n, gy, agy);
            CHECK(!memcmp(agy, col, m), "A G A != A");
            free(col);
            free(gy);
            free(agy);
        }
    else
        CHECK(rc == ML_EUNAVAILABLE && !strncmp(ml_errmsg(ctx), "no generalised inverse", 22));
    (void)AG;
    free(G);
    free(AG);
    free(state);
    free(out);
    free(target);
    free(H);
    free(y);
    free(x);
    free(orders);
    free(A);
    ml_solver_free(s);
}

/* ------------------------------------------------------------------ a seam engine */
static int toy_covers(void *u, ml_ctx *c, const ml_board *b, int *covers, char *why,
                      size_t cap)
{
    (void)u;
    (void)c;
    *covers = ml_board_n_cells(b) <= 64;
    if (!*covers && cap)
        snprintf(why, cap, "too large for the toy");
    return ML_OK;
}
static int toy_cost(void *u, ml_ctx *c, const ml_board *b, double *sec)
{
    (void)u;
    (void)c;
    (void)b;
    *sec = 1e9;
    return ML_OK;
}
static int toy_builds, toy_destroys;
static int toy_build(void *u, ml_ctx *c, const ml_board *b, void **eng)
{
    (void)u;
    toy_builds++;
    return ml__dense_ops_for(ml_board_states(b))->build(NULL, c, b, eng);
}
static int toy_n;   /* the board's n (one board at a time here) */
static void toy_destroy(void *u, void *eng)
{
    (void)u;
    toy_destroys++;
    ml__dense_ops_for(toy_n)->destroy(NULL, eng);
}
static int toy_solve(void *u, ml_ctx *c, void *e, size_t k, const uint8_t *R, uint8_t *X,
                     uint8_t *ok)
{
    (void)u;
    return ml__dense_ops_for(toy_n)->solve(NULL, c, e, k, R, X, ok);
}
static int toy_nullity(void *u, ml_ctx *c, void *e, uint64_t *v)
{
    (void)u;
    return ml__dense_ops_for(toy_n)->nullity(NULL, c, e, v);
}
static int toy_ks(void *u, ml_ctx *c, void *e, ml_factored *f)
{
    (void)u;
    return ml__dense_ops_for(toy_n)->kernel_size(NULL, c, e, f);
}
static int toy_gens(void *u, ml_ctx *c, void *e, uint64_t limit, uint64_t *k, uint8_t *H,
                    uint32_t *o)
{
    (void)u;
    return ml__dense_ops_for(toy_n)->generators(NULL, c, e, limit, k, H, o);
}
static int toy_fail_det(void *u, ml_ctx *c, void *e, unsigned *d)
{
    (void)u;
    (void)c;
    (void)e;
    (void)d;
    return ML_ECALLBACK;   /* no message: the solver names the engine and question */
}

static void seam(void)
{
    ml_engine_def def;
    memset(&def, 0, sizeof def);
    def.size = sizeof def;
    def.name = "toy-dense";
    def.description = "the dense ops through the seam";
    def.covers = toy_covers;
    def.cost = toy_cost;
    def.build = toy_build;
    def.destroy = toy_destroy;
    def.solve = toy_solve;
    def.nullity = toy_nullity;
    def.kernel_size = toy_ks;
    def.generators = toy_gens;
    OK(ml_engine_register(ctx, &def));
    for (int t = 0; t < 40; t++) {
        int n = (int)rnd_range(2, 9);
        ml_board *b = random_graph(n);
        if (!b)
            continue;
        toy_n = n;
        ml_solver *s = NULL, *d = NULL;
        OK(ml_solver_new(ctx, b, "toy-dense", &s));
        OK(ml_solver_new(ctx, b, "dense", &d));
        if (!s || !d) {
            ml_solver_free(s);
            ml_solver_free(d);
            ml_board_free(b);
            continue;
        }
        CHECK(!strcmp(ml_plan_engine(ml_solver_plan(s)), "toy-dense"));
        size_t m = ml_board_n_cells(b), r = ml_board_n_taps(b);
        unsigned d1 = 0, d2 = 0;
        int r1 = ml_solver_det(ctx, s, &d1), r2 = ml_solver_det(ctx, d, &d2);
        CHECK(r1 == r2 && (r1 || d1 == d2), "det %u %u", d1, d2);
        uint8_t *G1 = malloc(r * m + 1), *G2 = malloc(r * m + 1);
        r1 = ml_solver_inverse(ctx, s, G1);
        r2 = ml_solver_inverse(ctx, d, G2);
        CHECK(r1 == r2 && (r1 || !memcmp(G1, G2, r * m)));
        r1 = ml_solver_pseudo_inverse(ctx, s, G1);
        r2 = ml_solver_pseudo_inverse(ctx, d, G2);
        CHECK(r1 == r2 && (r1 || !memcmp(G1, G2, r * m)));
        free(G1);
        free(G2);
        ml_solver_free(s);
        ml_solver_free(d);
        ml_board_free(b);
    }
    CHECK(toy_builds == toy_destroys && toy_builds > 0, "%d builds %d destroys", toy_builds,
          toy_destroys);
    /* a callback failing without a message */
    def.name = "toy-fail";
    def.det = toy_fail_det;
    OK(ml_engine_register(ctx, &def));
    ml_board *b = NULL;
    uint8_t one = 1;
    OK(ml_board_from_matrix(ctx, 3, 1, 1, &one, 1, &b));
    toy_n = 3;
    ml_solver *s = NULL;
    OK(ml_solver_new(ctx, b, "toy-fail", &s));
    unsigned det = 0;
    CHECK(ml_solver_det(ctx, s, &det) == ML_ECALLBACK);
    MSG(ctx, "the engine toy-fail failed in det without a message");
    ml_solver_free(s);
    ml_board_free(b);
    OK(ml_engine_unregister(ctx, "toy-fail"));
    OK(ml_engine_unregister(ctx, "toy-dense"));
}

/* ------------------------------------------------------------------ refusals */
static void refusals(void)
{
    ml_board *b = NULL, *g = NULL;
    OK(ml_board_grid(ctx, 4, 4, 2, NULL, &b));
    ml_solver *s = NULL;
    CHECK(ml_solver_new(ctx, b, "dense", NULL) == ML_EMISUSE);
    MSG(ctx, "ml_solver_new: out must not be NULL");
    CHECK(ml_solver_new(ctx, NULL, "dense", &s) == ML_EMISUSE && !s);
    MSG(ctx, "ml_solver_new: not a live board (freed, or never made)");
    CHECK(ml_solver_new(ctx, b, "nope", &s) == ML_EINVAL && !s);
    CHECK(!strncmp(ml_errmsg(ctx), "unknown method 'nope': use one of", 33), "%s",
          ml_errmsg(ctx));
    /* every engine of the library has its C questions: the row chase too */
    OK(ml_solver_new(ctx, b, "chase-row", &s));
    CHECK(!strcmp(ml_plan_engine(ml_solver_plan(s)), "chase-row"));
    ml_solver_free(s);
    s = NULL;
    /* the choosing entry names the variant it took, with Python's reason */
    OK(ml_solver_new(ctx, b, "chase", &s));
    CHECK(!strcmp(ml_plan_engine(ml_solver_plan(s)), "chase-light") &&
              !strcmp(ml_plan_variant(ml_solver_plan(s)), "chase-light"),
          "%s", ml_plan_engine(ml_solver_plan(s)));
    CHECK(strstr(ml_plan_reason(ml_solver_plan(s)), "; variant chase-light: the residual "
                                                    "system of the light chase, eliminated "
                                                    "whole") != NULL,
          "%s", ml_plan_reason(ml_solver_plan(s)));
    ml_solver_free(s);
    s = NULL;
    uint8_t a[4] = {1, 1, 0, 1};
    OK(ml_board_from_matrix(ctx, 2, 2, 2, a, 2, &g));
    CHECK(ml_solver_new(ctx, g, "chase-light", &s) == ML_EINVAL && !s);
    MSG(ctx, "method='chase-light' needs a grid board (Board.grid); use method='dense' or "
             "'auto' for graph boards");
    OK(ml_solver_new(ctx, b, NULL, &s));
    uint64_t v = 0;
    CHECK(ml_solver_nullity(ctx, s, NULL) == ML_EMISUSE);
    MSG(ctx, "ml_solver_nullity: out must not be NULL");
    OK(ml_solver_nullity(ctx, s, &v));
    CHECK(v == 4);
    uint8_t state[16] = {0}, inv[256];
    ml_result *res = NULL;
    OK(ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL,
                       ml_budget_default(), &res));   /* t-solve.c tests the search */
    CHECK(ml_result_length(res) == 0 && ml_result_proven_minimal(res));
    ml_result_free(res);
    res = NULL;
    CHECK(ml_solver_solve(ctx, s, NULL, ml_target_fill(0), 0, ml_budget_default(), &res) ==
          ML_EMISUSE);
    MSG(ctx, "ml_solver_solve: state must not be NULL");
    ml_budget bad = ml_budget_default();
    bad.kind = 7;
    CHECK(ml_solver_solve(ctx, s, state, ml_target_fill(0), 0, bad, &res) == ML_EINVAL);
    CHECK(ml_solver_inverse(ctx, s, inv) == ML_EUNAVAILABLE);
    MSG(ctx, "the tap matrix is not invertible mod 2: det = 0 (rank 12 of 16)");
    ml_solver_free(s);
    uint64_t fake[16] = {0};   /* not a solver: its magic is not there */
    CHECK(ml_solver_nullity(ctx, (ml_solver *)fake, &v) == ML_EMISUSE);
    MSG(ctx, "ml_solver_nullity: not a live solver (freed, or never made)");
    CHECK(ml_solver_board((ml_solver *)fake) == NULL && ml_solver_plan((ml_solver *)fake) == NULL);
    ml_solver_free(NULL);
    ml_result_free(NULL);
    CHECK(ml_result_taps(NULL) == NULL && ml_result_length(NULL) == 0);
    /* Z/n messages */
    uint8_t z[4] = {2, 0, 0, 1};
    ml_board *zb = NULL;
    OK(ml_board_from_matrix(ctx, 4, 2, 2, z, 2, &zb));
    OK(ml_solver_new(ctx, zb, "dense", &s));
    unsigned det = 0;
    OK(ml_solver_det(ctx, s, &det));
    CHECK(det == 2);
    CHECK(ml_solver_inverse(ctx, s, inv) == ML_EUNAVAILABLE);
    MSG(ctx, "the tap matrix is not invertible mod 4: det = 2, which is not a unit (gcd(det, "
             "n) = 2)");
    CHECK(ml_solver_pseudo_inverse(ctx, s, inv) == ML_EUNAVAILABLE);
    MSG(ctx, "no generalised inverse (G with A G A = A) exists mod 4: mod 4 the tap matrix has 1 "
             "Smith invariant(s) that are neither units nor zero; over Z/n a matrix has one "
             "only when every invariant is a unit or zero (always true for squarefree n)");
    ml_solver_free(s);
    uint8_t wide[2] = {1, 2};
    ml_board *wb = NULL;
    OK(ml_board_from_matrix(ctx, 7, 1, 2, wide, 2, &wb));
    OK(ml_solver_new(ctx, wb, "dense", &s));
    CHECK(ml_solver_det(ctx, s, &det) == ML_EUNAVAILABLE);
    MSG(ctx, "det needs a square tap matrix, this one is 1x2");
    CHECK(ml_solver_inverse(ctx, s, inv) == ML_EUNAVAILABLE);
    MSG(ctx, "inverse needs a square tap matrix, this one is 1x2");
    ml_solver_free(s);
    /* the plan outlives the board's other handles; a plan made elsewhere */
    ml_plan *p = NULL;
    OK(ml_plan_choose(ctx, zb, "dense", NULL, &p));
    OK(ml_solver_new_plan(ctx, zb, p, &s));
    ml_plan_free(p);
    CHECK(!strcmp(ml_plan_engine(ml_solver_plan(s)), "dense-zn"));
    CHECK(!strcmp(ml_plan_method(ml_solver_plan(s)), "dense"));
    ml_board_free(zb);   /* the solver keeps its own reference */
    OK(ml_solver_nullity(ctx, s, &v));
    CHECK(v == 1);
    ml_solver_free(s);
    /* too large for the dense engines: the messages of _gf2.pxi / _zn.pxi */
    ml_board *big = NULL;
    OK(ml_board_grid(ctx, 400, 400, 2, NULL, &big));
    OK(ml_solver_new(ctx, big, "dense", &s));   /* lazy: nothing built yet */
    CHECK(ml_solver_det(ctx, s, &det) == ML_ETOOLARGE);
    MSG(ctx, "a 160000x160000 tap matrix is too large for the dense GF(2) engine: [A | I] "
             "would take 6.0 GiB (at most 2 GiB)");
    ml_solver_free(s);
    ml_board_free(big);
    OK(ml_board_grid(ctx, 200, 200, 3, NULL, &big));
    CHECK(ml_solver_new(ctx, big, "dense", &s) == ML_ETOOLARGE && !s);
    MSG(ctx, "the tap matrix 40000x40000 is too large for the dense native Z/n engine (at "
             "most 268435456 entries)");
    ml_board_free(big);
    ml_board_free(wb);
    ml_board_free(g);
    ml_board_free(b);
}

int main(void)
{
    if (ml_ctx_new(&ctx))
        return 1;
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 30, 101, 210, 255};
    int boards = 0;
    for (int t = 0; t < 400; t++) {
        int n = ns[rnd() % (sizeof ns / sizeof ns[0])];
        ml_board *b = rnd() % 3 ? random_grid(n) : random_graph(n);
        if (!b)
            continue;
        check_board(b, rnd() % 2 ? "dense" : (n == 2 ? "dense-gf2" : "dense-zn"));
        ml_board_free(b);
        boards++;
    }
    CHECK(boards > 300, "%d boards", boards);
    seam();
    refusals();
    ml_ctx_free(ctx);
    printf("%d boards\n", boards);
    return t_done();
}
