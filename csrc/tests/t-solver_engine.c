/* t-solver_engine: csrc/api/solver_engine.c, a solver's own engine asked directly (the
 * Engine protocol of Python's adapter, src/modlights/engines/native.py). On random grids
 * of every structured engine (algebraic-cross, algebraic-sym, algebraic-sym-odd,
 * algebraic-torus, lifted, tensor; n 2, 3, 4, 5, 6, 9; sides 1..12 and a few larger): the engine's solutions of k
 * right-hand sides at once satisfy A X = R (ml_board_apply as the oracle) exactly where
 * ml_solver_solvable says R is solvable, with images A x0 always solvable; its
 * generators (nullity of them, ml_solver_nullity's count) are in ker A with h * order =
 * 0, a limit gives the first rows and H = NULL the count alone; kernel_fits is 1 on small
 * boards; the packed layout (packs for GF(2) boards of the packing engines, through
 * transposes for a horizontal cross board, along the rows for the tensor engine, not for
 * tori nor algebraic-sym-odd) and the packed solve's taps, unpacked and applied, reach fill ^ state; NULL
 * arguments are ML_EMISUSE and a torus's packed solve ML_EUNAVAILABLE.
 * ml-test-sources: api/solver_engine.c api/solve_packed.c api/solutions.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/board_json.c api/board_json_words.c api/json_fields.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#define ML_T_SEED 0x5E6E11ull
#include "include/modlights.h"
#include "api/solver_engine.h"
#include "tests/t-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

static ml_ctx *ctx;
static int solved, unsolvable, gens, packed;

static const char *const ENGINES[] = {"algebraic-cross", "algebraic-sym", "algebraic-torus",
                                      "lifted", "tensor", "algebraic-sym-odd"};
static const char *const PATTERNS[] = {"cross", "vertical", "horizontal", "diagonal", "square"};
static const int NS[] = {2, 3, 4, 5, 6, 9};

static void pack(const uint8_t *x, size_t rows, size_t cols, uint8_t *out)
{
    size_t nb = (cols + 7) / 8;
    memset(out, 0, rows * nb);
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            if (x[r * cols + c] & 1)
                out[r * nb + c / 8] |= (uint8_t)(0x80u >> (c % 8));
}

static void unpack(const uint8_t *p, size_t rows, size_t cols, uint8_t *x)
{
    size_t nb = (cols + 7) / 8;
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            x[r * cols + c] = (p[r * nb + c / 8] >> (7 - c % 8)) & 1;
}

/* The engine's solve of k right-hand sides (the first ones images), checked. */
static void solves(ml_solver *s, const ml_board *b, unsigned n, size_t hw)
{
    size_t k = 4;
    uint8_t *R = malloc(k * hw + 1), *X = malloc(k * hw + 1), *ok = malloc(k);
    uint8_t *x0 = malloc(hw + 1), *zero = calloc(hw + 1, 1), *ax = malloc(hw + 1);
    uint8_t *neg = malloc(hw + 1);
    for (size_t i = 0; i < k; i++) {
        uint8_t *Ri = R + i * hw;
        if (i < 2) {   /* an image: solvable */
            for (size_t z = 0; z < hw; z++)
                x0[z] = (uint8_t)(rnd() % n);
            OK(ml_board_apply(ctx, b, zero, x0, Ri));
        } else {
            for (size_t z = 0; z < hw; z++)
                Ri[z] = (uint8_t)(rnd() % n);
        }
    }
    OK(ml__solver_engine_solve(ctx, s, k, R, X, ok));
    for (size_t i = 0; i < k; i++) {
        const uint8_t *Ri = R + i * hw;
        for (size_t z = 0; z < hw; z++)   /* state -R, target 0: rhs R */
            neg[z] = (uint8_t)((n - Ri[z]) % n);
        int want = -1;
        OK(ml_solver_solvable(ctx, s, neg, ml_target_fill(0), &want));
        CHECK(ok[i] == (uint8_t)want, "ok %d, solvable %d", ok[i], want);
        CHECK(i >= 2 || ok[i], "an image is unsolvable");
        if (!ok[i]) {
            unsolvable++;
            continue;
        }
        OK(ml_board_apply(ctx, b, zero, X + i * hw, ax));
        CHECK(!memcmp(ax, Ri, hw), "A X != R (row %zu)", i);
        solved++;
    }
    free(R);
    free(X);
    free(ok);
    free(x0);
    free(zero);
    free(ax);
    free(neg);
}

/* The engine's generators, all and the first one, checked. */
static void generators(ml_solver *s, const ml_board *b, unsigned n, size_t hw)
{
    uint64_t null = 0, k = 0;
    OK(ml_solver_nullity(ctx, s, &null));
    OK(ml__solver_engine_generators(ctx, s, UINT64_MAX, &k, NULL, NULL));
    CHECK(k == null, "count %llu, nullity %llu", (unsigned long long)k,
          (unsigned long long)null);
    if (!null || null * hw > (1u << 22))
        return;
    uint8_t *H = malloc(null * hw), *H1 = malloc(hw), *zero = calloc(hw + 1, 1);
    uint8_t *ax = malloc(hw + 1);
    uint32_t *ord = malloc(null * sizeof *ord), o1 = 0;
    OK(ml__solver_engine_generators(ctx, s, UINT64_MAX, &k, H, ord));
    CHECK(k == null, "%llu generators", (unsigned long long)k);
    for (uint64_t g = 0; g < k && g < null; g++) {
        const uint8_t *h = H + g * hw;
        OK(ml_board_apply(ctx, b, zero, h, ax));
        int in_ker = 1, nonzero = 0, killed = 1;
        for (size_t z = 0; z < hw; z++) {
            in_ker &= ax[z] == 0;
            nonzero |= h[z] != 0;
            killed &= (unsigned)h[z] * ord[g] % n == 0;
        }
        CHECK(in_ker && nonzero && killed && ord[g] > 1 && n % ord[g] == 0,
              "generator %llu: in ker %d, nonzero %d, order %u", (unsigned long long)g,
              in_ker, nonzero, ord[g]);
        gens++;
    }
    uint64_t one = 0;
    OK(ml__solver_engine_generators(ctx, s, 1, &one, H1, &o1));
    CHECK(one == 1 && !memcmp(H1, H, hw) && o1 == ord[0], "the first generator differs");
    free(H);
    free(H1);
    free(zero);
    free(ax);
    free(ord);
}

/* The packed layout and solve of a GF(2) board. */
static void packed_solve(ml_solver *s, const char *engine, const char *pattern, size_t rows,
                         size_t cols)
{
    int packs = -1, transposed = -1;
    OK(ml__solver_engine_packed(ctx, s, &packs, &transposed));
    /* the torus and algebraic-sym-odd have no packed solve of their own */
    int torus = !strcmp(engine, "algebraic-torus") || !strcmp(engine, "algebraic-sym-odd");
    CHECK(packs == !torus, "%s: packs %d", engine, packs);
    if (!strcmp(engine, "tensor"))
        CHECK(!transposed, "the tensor engine packs along its rows");
    if (!strcmp(engine, "algebraic-cross"))
        CHECK(transposed == !strcmp(pattern, "horizontal"), "%s %s: transposed %d", engine,
              pattern, transposed);
    size_t nb = (cols + 7) / 8, hw = rows * cols;
    uint8_t *st = malloc(hw + 1), *x = malloc(hw + 1), *after = malloc(hw + 1);
    uint8_t *P = malloc(rows * nb + 1), *out = malloc(rows * nb + 1);
    for (unsigned fill = 0; fill < 2; fill++) {
        for (size_t z = 0; z < hw; z++)
            st[z] = rnd() & 1;
        pack(st, rows, cols, P);
        int solvable = -1;
        int rc = ml__solver_engine_solve_packed(ctx, s, P, fill, out, &solvable);
        if (torus) {
            CHECK(rc == ML_EUNAVAILABLE, "%s packs: rc %d", engine, rc);
            continue;
        }
        OK(rc);
        int want = -1;   /* state fill ^ P, target 0 */
        for (size_t z = 0; z < hw; z++)
            after[z] = (uint8_t)(st[z] ^ fill);
        OK(ml_solver_solvable(ctx, s, after, ml_target_fill(0), &want));
        CHECK(solvable == want, "packed solvable %d, solvable %d", solvable, want);
        if (!solvable)
            continue;
        unpack(out, rows, cols, x);
        OK(ml_board_apply(ctx, ml_solver_board(s), st, x, after));
        int reached = 1;
        for (size_t z = 0; z < hw; z++)
            reached &= after[z] == fill;
        CHECK(reached, "%s %s %zux%zu: the packed taps miss the target", engine, pattern,
              rows, cols);
        packed++;
    }
    free(st);
    free(x);
    free(after);
    free(P);
    free(out);
}

static void board(const char *engine, const char *pattern, int64_t rows, int64_t cols,
                  unsigned n, int wrap)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    ml_solver *s = NULL;
    OK(ml_grid_new(ctx, rows, cols, (int)n, &g));
    OK(ml_grid_set_pattern_name(ctx, g, pattern));
    OK(ml_grid_set_wrap(ctx, g, wrap));
    OK(ml_grid_build(ctx, g, &b));
    ml_grid_free(g);
    if (!b || ml_solver_new(ctx, b, engine, &s) != ML_OK) {   /* not covered */
        ml_board_free(b);
        return;
    }
    size_t hw = (size_t)(rows * cols);
    solves(s, b, n, hw);
    generators(s, b, n, hw);
    int fits = 0;
    OK(ml__solver_engine_kernel_fits(ctx, s, &fits));
    CHECK(fits, "%s: a small board's kernel does not fit", engine);
    if (n == 2)
        packed_solve(s, engine, pattern, (size_t)rows, (size_t)cols);
    ml_solver_free(s);
    ml_board_free(b);
}

static void refusals(void)
{
    ml_board *b = NULL;
    ml_solver *s = NULL;
    OK(ml_board_grid(ctx, 5, 6, 2, "cross", &b));
    OK(ml_solver_new(ctx, b, "algebraic-cross", &s));
    uint8_t R[30] = {0}, X[30], ok = 0, P[5] = {0}, out[5];
    uint64_t k = 0;
    int v = 0;
    CHECK(ml__solver_engine_solve(ctx, s, 1, NULL, X, &ok) == ML_EMISUSE);
    CHECK(ml__solver_engine_solve(ctx, s, 1, R, NULL, &ok) == ML_EMISUSE);
    CHECK(ml__solver_engine_solve(ctx, s, 0, NULL, NULL, NULL) == ML_OK, "k = 0: nothing");
    CHECK(ml__solver_engine_generators(ctx, s, 1, NULL, NULL, NULL) == ML_EMISUSE);
    CHECK(ml__solver_engine_kernel_fits(ctx, s, NULL) == ML_EMISUSE);
    CHECK(ml__solver_engine_packed(ctx, s, &v, NULL) == ML_EMISUSE);
    CHECK(ml__solver_engine_solve_packed(ctx, s, P, 0, out, NULL) == ML_EMISUSE);
    CHECK(ml__solver_engine_generators(ctx, NULL, 1, &k, NULL, NULL) == ML_EMISUSE,
          "a NULL solver");
    ml_solver_free(s);
    ml_board_free(b);
}

int main(void)
{
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    refusals();
    for (int i = 0; i < 400; i++) {
        const char *e = ENGINES[rnd() % 6], *p = PATTERNS[rnd() % 5];
        unsigned n = (unsigned)NS[rnd() % 6];
        board(e, p, rnd_range(1, 12), rnd_range(1, 12), n, !strcmp(e, "algebraic-torus") ||
              (!strcmp(e, "tensor") && rnd() % 2));
    }
    board("algebraic-cross", "cross", 64, 70, 2, 0);
    board("algebraic-cross", "horizontal", 40, 33, 2, 0);
    board("algebraic-sym", "diagonal", 50, 61, 2, 0);
    board("algebraic-sym-odd", "diagonal", 51, 61, 3, 0);
    board("algebraic-sym-odd", "diagonal", 45, 41, 2, 0);
    board("algebraic-torus", "cross", 30, 30, 2, 1);
    board("tensor", "square", 64, 65, 2, 0);
    board("tensor", "square", 40, 41, 3, 1);
    board("lifted", "cross", 60, 50, 4, 0);
    printf("solved %d, unsolvable %d, generators %d, packed %d\n", solved, unsolvable, gens,
           packed);
    CHECK(solved > 300 && unsolvable > 20 && gens > 50 && packed > 20);
    ml_ctx_free(ctx);
    return t_done();
}
