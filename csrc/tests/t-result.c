/* t-result: csrc/api/result.c, ml_result_to_json and ml_result_certificate on boards
 * small enough to work out by hand (a 1 x 1 board, a 1 x 2 graph board whose kernel has
 * one generator, a grid with a lock and a hole): the exact text, json.dumps(...,
 * separators=(",", ":")) of Python's Solution.to_dict() / certificate() for them (as
 * tests/native/test_capi_minimal.py checks on random boards against Python itself), the
 * tree proof of a length-0 answer, and a result freed or NULL refused.
 * ml-test-sources: api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/board_json.c api/board_json_words.c api/json_fields.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#include "include/modlights.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

static ml_ctx *ctx;

static void expect(const ml_result *r, int cert, const char *want)
{
    char buf[1024];
    size_t len = 0;
    int rc = cert ? ml_result_certificate(ctx, r, buf, sizeof buf, &len)
                  : ml_result_to_json(ctx, r, buf, sizeof buf, &len);
    CHECK(rc == ML_OK, "%s", ml_errmsg(ctx));
    CHECK(len == strlen(want) && !strcmp(buf, want), "got %s\nwant %s", buf, want);
}

static ml_result *solve(ml_board *b, const uint8_t *state, unsigned flags)
{
    ml_solver *s = NULL;
    ml_result *r = NULL;
    OK(ml_solver_new(ctx, b, "dense", &s));
    OK(ml_solver_solve(ctx, s, state, ml_target_fill(0), flags, ml_budget_default(), &r));
    ml_solver_free(s);   /* the result keeps its board */
    return r;
}

int main(void)
{
    if (ml_ctx_new(&ctx))
        return 1;
    /* 1 x 1, n = 3, state 1: two taps */
    ml_grid *g = NULL;
    ml_board *b = NULL;
    OK(ml_grid_new(ctx, 1, 1, 3, &g));
    OK(ml_grid_build(ctx, g, &b));
    ml_grid_free(g);
    uint8_t one[1] = {1};
    ml_result *r = solve(b, one, ML_SOLVE_MINIMAL | ML_SOLVE_PROOF);
    expect(r, 0, "{\"taps\":[[2]],\"length\":2,\"proven_minimal\":true,\"moves\":[[0,0],[0,0]],"
                 "\"kernel_size\":1}");
    expect(r, 1, "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"minimal\","
                 "\"board\":{\"rows\":1,\"cols\":1,\"states\":3,\"pattern\":\"cross\","
                 "\"locked\":[],\"holes\":[],\"wrap\":false},\"kernel\":{\"generators\":[],"
                 "\"orders\":[]},\"rhs\":[2],\"taps\":[2],\"length\":2,"
                 "\"proof\":{\"method\":\"enumeration\"}}");
    ml_result_free(r);
    ml_board_free(b);
    /* a graph board: 1 cell, 2 taps both advancing it, n = 2: kernel {00, 11} */
    uint8_t a[2] = {1, 1};
    OK(ml_board_from_matrix(ctx, 2, 1, 2, a, 2, &b));
    r = solve(b, one, ML_SOLVE_MINIMAL | ML_SOLVE_PROOF);
    CHECK(ml_result_length(r) == 1 && ml_result_proven_minimal(r));
    const uint8_t *t = ml_result_taps(r);
    char want[512];
    snprintf(want, sizeof want,
             "{\"taps\":[%d,%d],\"length\":1,\"proven_minimal\":true,\"moves\":[%d],"
             "\"kernel_size\":2}", t[0], t[1], t[0] ? 0 : 1);
    expect(r, 0, want);
    ml_result_free(r);
    uint8_t zero[1] = {0};
    r = solve(b, zero, ML_SOLVE_MINIMAL | ML_SOLVE_PROOF);   /* length 0: the tree proof */
    expect(r, 1, "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"minimal\","
                 "\"board\":{\"effects\":[[0],[0]],\"states\":2,\"n_cells\":1},"
                 "\"kernel\":{\"generators\":[[1,1]],\"orders\":[2]},\"rhs\":[0],"
                 "\"taps\":[0,0],\"length\":0,"
                 "\"proof\":{\"method\":\"tree\",\"leaf_dim\":0,\"pruned\":[[]]}}");
    ml_result_free(r);
    ml_board_free(b);
    /* 2 x 2 with (0, 0) locked and (1, 1) a hole, n = 2 */
    OK(ml_grid_new(ctx, 2, 2, 2, &g));
    OK(ml_grid_lock(ctx, g, 0, 0));
    OK(ml_grid_hole(ctx, g, 1, 1));
    OK(ml_grid_build(ctx, g, &b));
    ml_grid_free(g);
    uint8_t st[4] = {0};
    OK(ml_board_press(ctx, b, st, 0, 1, 1, st));
    r = solve(b, st, 0);
    CHECK(ml_result_length(r) == 1);
    char j[512];
    size_t len = 0;
    OK(ml_result_to_json(ctx, r, j, sizeof j, &len));
    CHECK(strstr(j, "\"taps\":[[0,1],[0,0]]") && strstr(j, "\"moves\":[[0,1]]"), "%s", j);
    /* without a search: a certificate only for a trivial kernel (Solution(..., ks == 1)) */
    CHECK(ml_result_certificate(ctx, r, j, sizeof j, &len) ==
          (ml_result_proven_minimal(r) ? ML_OK : ML_EUNAVAILABLE));
    ml_result_free(r);
    ml_board_free(b);
    CHECK(ml_result_certificate(ctx, NULL, j, sizeof j, &len) == ML_EMISUSE);
    CHECK(!strcmp(ml_errmsg(ctx), "ml_result_certificate: r must not be NULL"));
    ml_ctx_free(ctx);
    return t_done();
}
