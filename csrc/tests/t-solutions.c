/* t-solutions: csrc/api/solutions.c, ml_solver_solutions / ml_solutions_next /
 * ml_solutions_free. On random boards (every named pattern and random offsets, n 2..9
 * and 16, locks, holes, wrap, odd and even sides, graph boards from matrices) with
 * |ker A| <= 4096: a solvable state has exactly |ker A| solutions, all distinct, each
 * taking the state where ml_solver_solve's taps take it, the least length among them
 * ml_solver_solve's proved minimal length; the iterator outlives its solver; after the
 * last, *done = 1 on every further call; an unsolvable state has none; NULL arguments
 * are refused with Python's messages. (tests/native/test_capi_solutions.py compares
 * the sequence with Python's Solver.solutions.)
 * ml-test-sources: api/solutions.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/board_json.c api/board_json_words.c api/json_fields.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#define ML_T_SEED 0x5017A7ull
#include "include/modlights.h"
#include "tests/t-util.h"
#include "tests/t-boards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

static ml_ctx *ctx;
static size_t g_size;
static uint64_t enumerated, boards;

static ml_board *random_board(int n) { return t_random_board(ctx, n, 5); }

static int cmp_taps(const void *a, const void *b) { return memcmp(a, b, g_size); }

static void check_board(ml_board *b)
{
    ml_solver *s = NULL;
    if (ml_solver_new(ctx, b, "dense", &s))
        return;
    ml_factored f;
    OK(ml_solver_kernel_size(ctx, s, &f));
    uint64_t ks = 1;
    for (int i = 0; i < f.count && ks <= 4096; i++)
        for (uint64_t e = 0; e < f.exp[i] && ks <= 4096; e++)
            ks *= f.prime[i];
    if (ks > 4096) {
        ml_solver_free(s);
        return;
    }
    boards++;
    uint64_t tiles = ml_board_size(b), size = ml_board_taps_size(b);
    uint8_t *st = malloc(tiles + 1), *reach = malloc(tiles + 1), *after = malloc(tiles + 1);
    uint8_t *all = malloc((ks + 1) * (size + 1)), *tp = malloc(size + 1);
    OK(ml_board_random_state(ctx, b, rnd(), 1, st));
    ml_result *res = NULL;
    OK(ml_solver_solve(ctx, s, st, ml_target_fill(0), ML_SOLVE_MINIMAL, ml_budget_default(),
                       &res));
    if (!res)
        goto out;
    CHECK(ml_result_proven_minimal(res));
    OK(ml_board_apply(ctx, b, st, ml_result_taps(res), reach));
    ml_solutions *it = NULL;
    OK(ml_solver_solutions(ctx, s, st, ml_target_fill(0), &it));
    if (rnd() % 2) {   /* the iterator outlives its solver */
        ml_solver_free(s);
        s = NULL;
    }
    uint64_t got = 0, best = UINT64_MAX;
    int done = 0;
    for (;;) {
        OK(ml_solutions_next(ctx, it, tp, &done));
        if (done)
            break;
        CHECK(got < ks, "more than |ker A| = %llu solutions", (unsigned long long)ks);
        if (got >= ks)
            break;
        memcpy(all + got * size, tp, size);
        OK(ml_board_apply(ctx, b, st, tp, after));
        CHECK(!memcmp(after, reach, tiles), "a solution lands elsewhere");
        uint64_t len = 0;
        for (uint64_t j = 0; j < size; j++)
            len += tp[j];
        best = len < best ? len : best;
        got++;
    }
    CHECK(got == ks, "%llu solutions, |ker A| = %llu", (unsigned long long)got,
          (unsigned long long)ks);
    CHECK(best == ml_result_length(res), "least %llu, minimal %llu", (unsigned long long)best,
          (unsigned long long)ml_result_length(res));
    g_size = size;
    if (size && got > 1) {
        qsort(all, got, size, cmp_taps);
        for (uint64_t i = 1; i < got; i++)
            CHECK(memcmp(all + (i - 1) * size, all + i * size, size), "a repeated solution");
    }
    done = 0;
    OK(ml_solutions_next(ctx, it, tp, &done));
    CHECK(done == 1);
    OK(ml_solutions_next(ctx, it, NULL, &done));   /* taps unused after the last */
    CHECK(done == 1);
    enumerated += got;
    ml_solutions_free(it);
    ml_result_free(res);
    /* an unsolvable state (when the image is not everything) has no solutions */
    if (s) {
        int ok = 1;
        for (int tries = 0; tries < 8 && ok; tries++) {
            OK(ml_board_random_state(ctx, b, rnd(), 0, st));
            OK(ml_solver_solvable(ctx, s, st, ml_target_fill(0), &ok));
        }
        if (!ok) {
            it = NULL;
            OK(ml_solver_solutions(ctx, s, st, ml_target_fill(0), &it));
            done = 0;
            OK(ml_solutions_next(ctx, it, tp, &done));
            CHECK(done == 1, "an unsolvable state has a solution");
            ml_solutions_free(it);
        }
    }
out:
    ml_solver_free(s);
    free(st);
    free(reach);
    free(after);
    free(all);
    free(tp);
}

static void check_errors(void)
{
    ml_board *b = NULL;
    OK(ml_board_grid(ctx, 3, 3, 2, "cross", &b));
    ml_solver *s = NULL;
    OK(ml_solver_new(ctx, b, "dense", &s));
    uint8_t st[9] = {0}, tp[9];
    ml_solutions *it = NULL;
    CHECK(ml_solver_solutions(ctx, s, st, ml_target_fill(0), NULL) == ML_EMISUSE);
    CHECK(!strcmp(ml_errmsg(ctx), "ml_solver_solutions: out must not be NULL"), "%s",
          ml_errmsg(ctx));
    CHECK(ml_solver_solutions(ctx, s, NULL, ml_target_fill(0), &it) == ML_EMISUSE && !it);
    CHECK(!strcmp(ml_errmsg(ctx), "ml_solver_solutions: state must not be NULL"), "%s",
          ml_errmsg(ctx));
    CHECK(ml_solver_solutions(ctx, NULL, st, ml_target_fill(0), &it) == ML_EMISUSE && !it);
    OK(ml_solver_solutions(ctx, s, st, ml_target_fill(0), &it));
    int done = 0;
    CHECK(ml_solutions_next(ctx, it, tp, NULL) == ML_EMISUSE);
    CHECK(ml_solutions_next(ctx, it, NULL, &done) == ML_EMISUSE);
    CHECK(!strcmp(ml_errmsg(ctx), "ml_solutions_next: taps must not be NULL"), "%s",
          ml_errmsg(ctx));
    CHECK(ml_solutions_next(ctx, NULL, tp, &done) == ML_EMISUSE);
    OK(ml_solutions_next(ctx, it, tp, &done));   /* 3 x 3 cross: one solution, zero */
    CHECK(!done && !memchr(tp, 1, 9));
    OK(ml_solutions_next(ctx, it, tp, &done));
    CHECK(done);
    ml_solutions_free(it);
    ml_solutions_free(NULL);
    ml_solver_free(s);
    ml_board_free(b);
}

int main(void)
{
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    check_errors();
    static const int ns[] = {2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 16};
    for (int i = 0; i < 400; i++) {
        ml_board *b = random_board(ns[rnd() % (sizeof ns / sizeof *ns)]);
        if (b)
            check_board(b);
        ml_board_free(b);
    }
    printf("boards %llu, solutions enumerated %llu\n", (unsigned long long)boards,
           (unsigned long long)enumerated);
    CHECK(boards > 200 && enumerated > boards);
    ml_ctx_free(ctx);
    return t_done();
}
