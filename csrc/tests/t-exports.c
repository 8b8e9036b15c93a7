/* t-exports: csrc/wasm/exports.c (the WebAssembly export layer, built natively here)
 * against the header's functions it wraps. On random grid boards (named patterns, locks,
 * holes, wrap, 2..9 states and a large n) and random states, mlx_solver_solvable and
 * mlx_solver_solve (state and target bytes, or a NULL target with a fill value; a count
 * budget, a negative one for the default, one past ML_MAX_BUDGET) answer as
 * ml_solver_solvable / ml_solver_solve with the same target and budget: the same
 * solvability, taps, length, proof and counts, NULL with ML_EUNSOLVABLE where there is
 * no solution, and NULL with the status of a bad call (a NULL state). mlx_malloc(0) is
 * a block; mlx_free(NULL) does nothing. (The allocation counter and the stop hook exist
 * only in the WebAssembly build: the node tests check them.) Exit 0 when every check
 * holds (prints fails=N).
 * ml-test-sources: wasm/exports.c play/puzzle.c play/codes.c play/codec.c play/pytext.c play/prng.c play/sha256.c play/bands.c play/date.c api/board_json.c api/board_json_words.c api/json_fields.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c play/generate.c play/daily.c play/puzzle_measure.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c api/registry_tensor.c api/registry_plan.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#include "include/modlights.h"
#include "t-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the layer's functions (exports.c has no header: JavaScript is its caller) */
int32_t mlx_solver_solvable(ml_solver *s, const uint8_t *state, const uint8_t *target,
                            uint32_t fill);
ml_result *mlx_solver_solve(ml_solver *s, const uint8_t *state, const uint8_t *target,
                            uint32_t fill, int32_t minimal, double steps);
void *mlx_malloc(size_t bytes);
void mlx_free(void *p);
int32_t mlx_grid_from_json(const char *json, size_t len, ml_grid **out);
int32_t mlx_board_from_json(const char *json, size_t len, ml_board **out);

static const char *PATTERNS[] = {"cross", "square", "diagonal", "knight", "horizontal"};

/* A random grid board as Board.to_dict's JSON. */
static ml_board *random_board(int *n_out)
{
    int rows = (int)rnd_range(1, 7), cols = (int)rnd_range(1, 7);
    static const int NS[] = {2, 3, 4, 5, 6, 7, 8, 9, 251};
    int n = NS[rnd() % 9];
    char json[4096];
    int at = snprintf(json, sizeof json,
                      "{\"rows\":%d,\"cols\":%d,\"states\":%d,"
                      "\"pattern\":\"%s\",\"wrap\":%s,\"locked\":[", rows, cols, n,
                      PATTERNS[rnd() % 5], rnd() % 4 ? "false" : "true");
    int first = 1, hole_first = 1;
    char holes[2048];
    int hat = 0;
    holes[0] = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            uint64_t u = rnd() % 12;
            if (u == 0) {
                at += snprintf(json + at, sizeof json - at, "%s[%d,%d]", first ? "" : ",", r, c);
                first = 0;
            } else if (u == 1) {
                hat += snprintf(holes + hat, sizeof holes - hat, "%s[%d,%d]",
                                hole_first ? "" : ",", r, c);
                hole_first = 0;
            }
        }
    snprintf(json + at, sizeof json - at, "],\"holes\":[%s]}", holes);
    ml_board *b = NULL;
    if (ml_board_from_json(NULL, json, strlen(json), 0, &b)) {
        CHECK(0, "board %s: %s", json, ml_errmsg(NULL));
        return NULL;
    }
    /* the constructors' readers (Board.grid's words) make the same board */
    ml_board *w = NULL, *g_board = NULL;
    ml_grid *g = NULL;
    CHECK(mlx_board_from_json(json, strlen(json), &w) == ML_OK && ml_board_equal(b, w),
          "mlx_board_from_json %s", json);
    CHECK(mlx_grid_from_json(json, strlen(json), &g) == ML_OK &&
              ml_grid_build(NULL, g, &g_board) == ML_OK && ml_board_equal(b, g_board),
          "mlx_grid_from_json %s", json);
    ml_board_free(w);
    ml_board_free(g_board);
    ml_grid_free(g);
    *n_out = n;
    return b;
}

/* The two results are the same answer. */
static void same_result(const ml_result *a, const ml_result *b, size_t taps, const char *what)
{
    CHECK(!memcmp(ml_result_taps(a), ml_result_taps(b), taps), "%s: taps", what);
    CHECK(ml_result_length(a) == ml_result_length(b), "%s: length", what);
    CHECK(ml_result_proven_minimal(a) == ml_result_proven_minimal(b), "%s: proof", what);
    CHECK(ml_result_examined(a) == ml_result_examined(b), "%s: examined", what);
    CHECK(ml_result_pruned(a) == ml_result_pruned(b), "%s: pruned", what);
}

static void check_board(void)
{
    int n = 2;
    ml_board *b = random_board(&n);
    if (!b)
        return;
    ml_solver *s = NULL;
    if (ml_solver_new(NULL, b, NULL, &s)) {
        CHECK(0, "solver: %s", ml_errmsg(NULL));
        ml_board_free(b);
        return;
    }
    size_t size = ml_board_size(b), taps = ml_board_taps_size(b);
    uint8_t *state = malloc(size + 1), *target = malloc(size + 1);
    for (int round = 0; round < 4; round++) {
        for (size_t i = 0; i < size; i++) {
            state[i] = (uint8_t)(rnd() % 256);      /* any byte: the library reduces mod n */
            target[i] = (uint8_t)(rnd() % n);
        }
        unsigned fill = (unsigned)(rnd() % n);
        int use_tiles = round & 1;
        ml_target tg = use_tiles ? ml_target_tiles(target) : ml_target_fill(fill);
        int want = -1;
        CHECK(!ml_solver_solvable(NULL, s, state, tg, &want), "%s", ml_errmsg(NULL));
        int32_t got = mlx_solver_solvable(s, state, use_tiles ? target : NULL, fill);
        CHECK(got == want, "solvable %d, the header's %d", got, want);
        /* budgets: a count, the default (negative), one past ML_MAX_BUDGET */
        double steps[] = {(double)(rnd() % 64), -1.0, 1e19};
        ml_budget budgets[] = {ml_budget_steps((uint64_t)steps[0]), ml_budget_default(),
                               ml_budget_steps(ML_MAX_BUDGET)};
        for (int k = 0; k < 3; k++) {
            int minimal = (int)(rnd() % 2);
            ml_result *want_r = NULL;
            int rc = ml_solver_solve(NULL, s, state, tg, minimal ? ML_SOLVE_MINIMAL : 0u,
                                     budgets[k], &want_r);
            ml_result *got_r = mlx_solver_solve(s, state, use_tiles ? target : NULL, fill,
                                                minimal, steps[k]);
            if (rc) {
                CHECK(!got_r && ml_errcode(NULL) == rc, "failure %d, the layer's %d", rc,
                      ml_errcode(NULL));
                CHECK(rc != ML_EUNSOLVABLE || !want, "unsolvable but solvable");
            } else {
                CHECK(got_r != NULL, "no result: %s", ml_errmsg(NULL));
                if (got_r)
                    same_result(got_r, want_r, taps, k == 0 ? "count" : k == 1 ? "default" : "max");
            }
            ml_result_free(want_r);
            ml_result_free(got_r);
        }
    }
    CHECK(mlx_solver_solve(s, NULL, NULL, 0, 1, -1.0) == NULL &&
          ml_errcode(NULL) == ML_EMISUSE, "NULL state: %d", ml_errcode(NULL));
    CHECK(mlx_solver_solvable(s, NULL, NULL, 0) == -1, "NULL state refused by solvable");
    free(state);
    free(target);
    ml_solver_free(s);
    ml_board_free(b);
}

int main(void)
{
    for (int i = 0; i < 150; i++)
        check_board();
    void *p = mlx_malloc(0);
    CHECK(p != NULL, "mlx_malloc(0) is a block");
    mlx_free(p);
    mlx_free(NULL);
    /* their refusals, in the constructors' words (no field prefix) */
    ml_board *b = NULL;
    ml_grid *g = NULL;
    const char *bad = "{\"rows\":2,\"cols\":2,\"states\":2,\"pattern\":\"nope\"}";
    CHECK(mlx_board_from_json(bad, strlen(bad), &b) == ML_EINVAL && !b &&
              !strncmp(ml_errmsg(NULL), "unknown pattern 'nope'", 22),
          "mlx_board_from_json refuses: %s", ml_errmsg(NULL));
    CHECK(mlx_grid_from_json(bad, strlen(bad), &g) == ML_EINVAL && !g,
          "mlx_grid_from_json refuses: %s", ml_errmsg(NULL));
    return t_done();
}
