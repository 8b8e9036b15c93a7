/* t-solve_packed: csrc/api/solve_packed.c, ml_solver_solve_packed. On random GF(2) grids
 * (every named pattern and random offsets, 1..19 sides so rows end inside a byte, locks,
 * holes, wrap) solved by the dense engine, the packed taps are ml_solver_solve's taps
 * packed (np.packbits rows), bits past the last column ignored and never written, for
 * fill targets 0 and 1 and a packed tile target; unsolvable states are
 * ML_M_UNSOLVABLE. On the algebraic engines' boards (cross, vertical, diagonal, up to
 * 301 x 200) the packed taps, unpacked and applied, take the state to the target (or the
 * state is unsolvable: ML_M_UNSOLVABLE_PACKED from the algebraic engines, the unpacked
 * path's ML_M_UNSOLVABLE otherwise, and ml_solver_solvable agrees); the
 * horizontal pattern (Python: the tensor engine) is ML_ENOTIMPL; n = 3 and graph boards
 * are refused with Python's message; NULL arguments are ML_EMISUSE.
 * (tests/native/test_capi_solve_packed.py compares the taps with Python's.)
 * ml-test-sources: api/solve_packed.c api/solutions.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/board_json.c api/board_json_words.c api/json_fields.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#define ML_T_SEED 0x5017BAull
#include "include/modlights.h"
#include "tests/t-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

static ml_ctx *ctx;
static int compared, unsolvable, packed_ok;

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

static void dense_board(void)
{
    int64_t rows = rnd_range(1, 19), cols = rnd_range(1, 19);
    ml_grid *g = NULL;
    ml_board *b = NULL;
    if (ml_grid_new(ctx, rows, cols, 2, &g))
        return;
    if (rnd() % 4 == 0) {
        int64_t dr[3], dc[3];
        size_t k = (size_t)rnd_range(1, 3);
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
        ml_grid_lock(ctx, g, rnd_range(0, rows - 1), rnd_range(0, cols - 1));
        ml_grid_hole(ctx, g, rnd_range(0, rows - 1), rnd_range(0, cols - 1));
    }
    int rc = ml_grid_build(ctx, g, &b);
    ml_grid_free(g);
    ml_solver *s = NULL;
    if (rc || ml_solver_new(ctx, b, "dense", &s)) {
        ml_board_free(b);
        return;
    }
    size_t R = (size_t)rows, C = (size_t)cols, nb = (C + 7) / 8, tiles = R * C;
    uint8_t *st = malloc(tiles), *tg = malloc(tiles), *P = malloc(R * nb), *T = malloc(R * nb);
    uint8_t *out = malloc(R * nb + 1), *want = malloc(R * nb);
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < tiles; i++) {
            st[i] = rnd() & 1;
            tg[i] = rnd() & 1;
        }
        pack(st, R, C, P);
        pack(tg, R, C, T);
        if (C % 8)   /* bits past the last column are ignored */
            for (size_t r = 0; r < R; r++)
                P[r * nb + nb - 1] |= (uint8_t)((1u << (8 - C % 8)) - 1);
        ml_target t = round == 2 ? ml_target_tiles(tg) : ml_target_fill((unsigned)round);
        ml_result *res = NULL;
        int want_rc = ml_solver_solve(ctx, s, st, t, 0, ml_budget_default(), &res);
        out[R * nb] = 0xA5;
        int got_rc = ml_solver_solve_packed(ctx, s, P, round == 2 ? T : NULL, (unsigned)round,
                                            out);
        CHECK(got_rc == want_rc, "rc %d want %d: %s", got_rc, want_rc, ml_errmsg(ctx));
        CHECK(out[R * nb] == 0xA5, "wrote past the taps");
        if (!want_rc && !got_rc) {
            pack(ml_result_taps(res), R, C, want);
            CHECK(!memcmp(out, want, R * nb), "taps differ (%zux%zu)", R, C);
            compared++;
        } else if (want_rc == ML_EUNSOLVABLE) {
            CHECK(ml_errmsg_id(ctx) == ML_M_UNSOLVABLE, "%s", ml_errmsg(ctx));
            unsolvable++;
        }
        ml_result_free(res);
    }
    free(st);
    free(tg);
    free(P);
    free(T);
    free(out);
    free(want);
    ml_solver_free(s);
    ml_board_free(b);
}

static void packed_board(int64_t rows, int64_t cols, const char *pattern, int want_rc)
{
    ml_board *b = NULL;
    ml_solver *s = NULL;
    OK(ml_board_grid(ctx, rows, cols, 2, pattern, &b));
    OK(ml_solver_new(ctx, b, "auto", &s));
    if (!s) {
        ml_board_free(b);
        return;
    }
    size_t R = (size_t)rows, C = (size_t)cols, nb = (C + 7) / 8, tiles = R * C;
    uint8_t *st = malloc(tiles), *x = malloc(tiles), *after = malloc(tiles);
    uint8_t *P = malloc(R * nb), *out = malloc(R * nb);
    for (int fill = 0; fill < 2; fill++) {
        for (size_t i = 0; i < tiles; i++)
            st[i] = rnd() & 1;
        pack(st, R, C, P);
        int ok = -1;
        OK(ml_solver_solvable(ctx, s, st, ml_target_fill((unsigned)fill), &ok));
        int rc = ml_solver_solve_packed(ctx, s, P, NULL, (unsigned)fill, out);
        if (want_rc) {
            CHECK(rc == want_rc, "%s: rc %d: %s", pattern, rc, ml_errmsg(ctx));
            continue;
        }
        CHECK(rc == (ok ? ML_OK : ML_EUNSOLVABLE), "%s %lldx%lld: rc %d: %s", pattern,
              (long long)rows, (long long)cols, rc, ml_errmsg(ctx));
        if (rc == ML_EUNSOLVABLE) {   /* an engine's own packed solve, or the unpacked path */
            const char *eng = ml_plan_engine(ml_solver_plan(s));
            int packs = (ml_engine_answers(ml_engine_index(eng)) & ML_Q_SOLVE_PACKED) != 0;
            CHECK(ml_errmsg_id(ctx) == (packs ? ML_M_UNSOLVABLE_PACKED : ML_M_UNSOLVABLE),
                  "%s: %s", eng, ml_errmsg(ctx));
        }
        if (rc)
            continue;
        unpack(out, R, C, x);
        OK(ml_board_apply(ctx, b, st, x, after));
        size_t bad = 0;
        for (size_t i = 0; i < tiles; i++)
            bad += after[i] != (unsigned)fill;
        CHECK(!bad, "%s: %zu tiles off the target", pattern, bad);
        packed_ok++;
    }
    free(st);
    free(x);
    free(after);
    free(P);
    free(out);
    ml_solver_free(s);
    ml_board_free(b);
}

static void refusals(void)
{
    ml_board *b = NULL;
    ml_solver *s = NULL;
    uint8_t P[3] = {0}, out[3];
    OK(ml_board_grid(ctx, 3, 3, 3, "cross", &b));
    OK(ml_solver_new(ctx, b, "dense", &s));
    CHECK(ml_solver_solve_packed(ctx, s, P, NULL, 0, out) == ML_EINVAL);
    CHECK(!strcmp(ml_errmsg(ctx), "solve_packed needs a grid board with n = 2 (bit-packed "
                                  "states), this one has n = 3"), "%s", ml_errmsg(ctx));
    ml_solver_free(s);
    ml_board_free(b);
    uint8_t eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    OK(ml_board_from_matrix(ctx, 2, 3, 3, eye, 3, &b));
    OK(ml_solver_new(ctx, b, "dense", &s));
    CHECK(ml_solver_solve_packed(ctx, s, P, NULL, 0, out) == ML_EINVAL);
    CHECK(!strcmp(ml_errmsg(ctx), "solve_packed needs a grid board with n = 2 (bit-packed "
                                  "states), this one has n = 2 and is a graph board"),
          "%s", ml_errmsg(ctx));
    CHECK(ml_solver_solve_packed(ctx, s, NULL, NULL, 0, out) == ML_EMISUSE);
    CHECK(ml_solver_solve_packed(ctx, s, P, NULL, 0, NULL) == ML_EMISUSE);
    CHECK(ml_solver_solve_packed(ctx, NULL, P, NULL, 0, out) == ML_EMISUSE);
    ml_solver_free(s);
    ml_board_free(b);
}

int main(void)
{
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    refusals();
    for (int i = 0; i < 300; i++)
        dense_board();
    static const int64_t sizes[][2] = {{1, 1}, {5, 5}, {16, 20}, {17, 33}, {64, 64},
                                       {200, 300}, {301, 200}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        packed_board(sizes[i][0], sizes[i][1], "cross", 0);
        packed_board(sizes[i][0], sizes[i][1], "vertical", 0);
    }
    packed_board(200, 300, "diagonal", 0);
    packed_board(301, 200, "diagonal", 0);
    packed_board(200, 300, "horizontal", 0);   /* the tensor engine's packed solve */
    printf("dense compared %d, unsolvable %d, packed solved %d\n", compared, unsolvable,
           packed_ok);
    CHECK(compared > 300 && unsolvable > 10 && packed_ok > 10);
    ml_ctx_free(ctx);
    return t_done();
}
