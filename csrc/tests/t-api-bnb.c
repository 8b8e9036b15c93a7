/* t-api-bnb: csrc/api/solve_bnb.c (the Z/n branch and bound in ml_solver_solve's minimal
 * search) and csrc/api/solve_budget.c (budget checks, ml_board_default_steps): on random
 * boards, n 3..9 (every named pattern and random offsets, locks, holes, wrap, graph
 * boards), with MODLIGHTS_SEARCH=bnb (every Z/n coset to the branch and bound) the
 * answer is proved, solves the board, has the length of the whole-coset enumeration
 * (the same call without it, a count covering the coset) and its certificate holds for
 * ml_verify_json (the C checker, apart from the search); the 11 x 11 square board over
 * Z/3 (|ker A| = 3^21, past the default count) is proved by the default budget with a
 * "classes" tree; a count budget short of the 12 x 12 square torus's 3^44 proves
 * nothing and still solves; the default counts. Exit status 0 when every check holds.
 * ml-test-sources: api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/board_json.c api/board_json_words.c api/json_fields.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_odd.c engines/lifted_torus.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c verify/verify.c verify/verify_read.c verify/verify_board.c verify/verify_algebra.c verify/verify_claims.c verify/verify_upper.c verify/verify_count.c verify/verify_bounds.c verify/verify_big.c */
#define _POSIX_C_SOURCE 200809L
#define ML_T_SEED 0xB4B2A91ull
#include "include/modlights.h"
#include "tests/t-util.h"
#include "tests/t-boards.h"

#include <stdlib.h>
#include <string.h>

#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

static ml_ctx *ctx;
static double elements;   /* log2 of the cosets searched, summed */

/* The certificate of res, checked by ml_verify_json; 1 when it holds (and names the
 * "classes" bound when `classes`). */
static int certified(ml_result *res, int classes)
{
    size_t need = 0;
    if (ml_result_certificate(ctx, res, NULL, 0, &need) != ML_OK)
        return 0;
    char *buf = malloc(need + 1);
    int ok = buf && ml_result_certificate(ctx, res, buf, need + 1, &need) == ML_OK;
    if (ok && classes)
        ok = strstr(buf, "\"bound\":\"classes\"") != NULL;
    char summary[512];
    size_t len = 0;
    if (ok)
        ok = ml_verify_json(ctx, buf, need, summary, sizeof summary, &len) == ML_OK;
    free(buf);
    return ok;
}

/* Solve a random solvable state of b, minimal with a proof: *len and *proven. */
static int solve(ml_solver *s, const uint8_t *state, ml_budget bud, uint64_t *len, int *proven,
                 int classes)
{
    ml_result *res = NULL;
    int rc = ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL | ML_SOLVE_PROOF,
                             bud, &res);
    CHECK(rc == ML_OK, "%s", ml_errmsg(ctx));
    if (rc)
        return 0;
    const ml_board *b = ml_result_board(res);
    size_t tiles = (size_t)ml_board_size(b);
    uint8_t *out = malloc(tiles + 1);
    OK(ml_board_apply(ctx, b, state, ml_result_taps(res), out));
    int solved = 1;
    for (size_t f = 0; f < tiles; f++)
        solved &= out[f] == 0;
    CHECK(solved, "the answer does not solve the board");
    free(out);
    *len = ml_result_length(res);
    *proven = ml_result_proven_minimal(res);
    if (*proven)
        CHECK(certified(res, classes && *len > 0), "the certificate does not hold: %s",
              ml_errmsg(ctx));
    ml_result_free(res);
    return 1;
}

static void random_boards(int count)
{
    int done = 0;
    while (done < count) {
        int n = (int)rnd_range(3, 9);
        ml_board *b = t_random_board(ctx, n, 4);
        ml_solver *s = NULL;
        if (!b || ml_solver_new(ctx, b, "dense", &s)) {
            ml_board_free(b);
            continue;
        }
        ml_factored ks;
        uint64_t null = 0;
        OK(ml_solver_nullity(ctx, s, &null));
        OK(ml_solver_kernel_size(ctx, s, &ks));
        double lg = ml_factored_log2(&ks);
        size_t tiles = (size_t)ml_board_size(b);
        uint8_t *state = malloc(tiles + 1);
        if (null && lg <= 16 && !ml_board_random_state(ctx, b, rnd(), 1, state)) {
            uint64_t want = 0, got = 0;
            int pw = 0, pg = 0;
            unsetenv("MODLIGHTS_SEARCH");
            solve(s, state, ml_budget_steps(1u << 20), &want, &pw, 0);
            setenv("MODLIGHTS_SEARCH", "bnb", 1);
            solve(s, state, ml_budget_default(), &got, &pg, 1);
            unsetenv("MODLIGHTS_SEARCH");
            CHECK(pw && pg && want == got, "n=%d enumeration %llu (%d) bnb %llu (%d)", n,
                  (unsigned long long)want, pw, (unsigned long long)got, pg);
            done++;
            elements += lg;
        }
        free(state);
        ml_solver_free(s);
        ml_board_free(b);
    }
}

int main(void)
{
    OK(ml_ctx_new(&ctx));
    random_boards(60);
    printf("random boards: cosets of 2^%.0f elements in all (log2 summed)\n", elements);
    CHECK(elements > 60);
    /* past the default count: 3^21 proved by the default budget, a "classes" tree */
    ml_board *b = NULL;
    ml_solver *s = NULL;
    OK(ml_board_grid(ctx, 11, 11, 3, "square", &b));
    OK(ml_solver_new(ctx, b, NULL, &s));
    uint8_t state[144];
    OK(ml_board_random_state(ctx, b, 7, 1, state));
    uint64_t len = 0;
    int proven = 0;
    solve(s, state, ml_budget_default(), &len, &proven, 1);
    CHECK(proven && len > 0, "11 x 11 square Z/3: %llu proven %d", (unsigned long long)len, proven);
    CHECK(ml_board_default_steps(b) == ((uint64_t)1 << 30) / 121);
    ml_solver_free(s);
    ml_board_free(b);
    /* a count short of 3^44: not proved, solved */
    ml_grid *g = NULL;
    OK(ml_grid_new(ctx, 12, 12, 3, &g));
    OK(ml_grid_set_pattern_name(ctx, g, "square"));
    OK(ml_grid_set_wrap(ctx, g, 1));
    OK(ml_grid_build(ctx, g, &b));
    ml_grid_free(g);
    OK(ml_solver_new(ctx, b, NULL, &s));
    OK(ml_board_random_state(ctx, b, 8, 1, state));
    solve(s, state, ml_budget_steps(1000), &len, &proven, 0);
    CHECK(!proven, "3^44 proved within 1000 steps");
    ml_solver_free(s);
    ml_board_free(b);
    CHECK(ml_board_default_steps(NULL) == 256);
    ml_budget bad = ml_budget_default();   /* a negative deadline: refused */
    bad.kind = ML_BUDGET_SECONDS;
    bad.seconds = -1.0;
    ml_result *res = NULL;
    OK(ml_board_grid(ctx, 3, 3, 3, NULL, &b));
    OK(ml_solver_new(ctx, b, NULL, &s));
    memset(state, 0, 9);
    CHECK(ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL, bad, &res) ==
          ML_ERANGE && !res);
    CHECK(!strcmp(ml_errmsg(ctx), "budget seconds must be >= 0, got -1.0"), "%s", ml_errmsg(ctx));
    ml_solver_free(s);
    ml_board_free(b);
    ml_ctx_free(ctx);
    return t_done();
}
