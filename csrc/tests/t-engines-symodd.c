/* t-engines-symodd: algebraic-sym-odd (csrc/engines/algebraic_odd.c) through its vtable,
 * without the solver, against the dense engines (engines/dense.c) as the oracle: on
 * random left-right or up-down symmetric 3 x 3 patterns with no tap (-1, 0) (or (0, -1))
 * mod n (the diagonal among them), n 2, 3, 5, 7, 101, 251, odd and even sides 1..13,
 * the boards the registry says it covers: nullity and kernel size as the dense engine's;
 * generators in ker A, of order p, independent, a limit giving the first rows of the
 * same list; solve of several right-hand sides (A x solvable, random ones solvable
 * exactly when the dense engine says so, A x = b, the unsolvable rows zero);
 * kernel_fits. The covers refuse p dividing (w + 1) / 2 in both orientations and
 * the boards algebraic-sym's own reason refuses for other causes.
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x5E3D0DDull
#include "include/modlights.h"
#include "engines/algebraic.h"
#include "tests/t-util.h"
#include "tests/engine-oracle.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const unsigned NS[] = {2, 3, 5, 7, 101, 251};

static ml_board *grid(int64_t rows, int64_t cols, int n, size_t k, const int64_t *dr,
                      const int64_t *dc)
{
    return eo_grid(ctx, rows, cols, n, k, dr, dc, 0);
}

/* A random symmetric 3 x 3 pattern without (-1, 0) (up-down: without (0, -1)); the
 * diagonal one time in four. Sides 1..13. */
static ml_board *random_board(void)
{
    int64_t dr[32], dc[32];
    size_t k = 0;
    int up = rnd() % 2;
    if (rnd() % 4 == 0) {
        static const int64_t D[5][2] = {{0, 0}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
        for (int i = 0; i < 5; i++, k++) {
            dr[k] = D[i][0];
            dc[k] = D[i][1];
        }
    } else {
        for (int r = -1; r <= 1; r++) {
            for (int t = r == -1 ? 0 : (int)rnd_range(0, 2); t > 0; t--, k++) {
                dr[k] = r;
                dc[k] = 0;
            }
            for (int t = (int)rnd_range(r == -1 ? 1 : 0, 2); t > 0; t--, k += 2) {
                dr[k] = dr[k + 1] = r;
                dc[k] = -1;
                dc[k + 1] = 1;
            }
        }
    }
    for (size_t i = 0; i < k && up; i++) {
        int64_t x = dr[i];
        dr[i] = dc[i];
        dc[i] = x;
    }
    int n = (int)NS[rnd() % (rnd() % 4 ? 4 : 6)];
    return grid(rnd_range(1, 13), rnd_range(1, 13), n, k, dr, dc);
}

/* p | (w + 1) / 2 is refused (0 a multiple root of chi_P): the diagonal 5 x 5 mod 3,
 * 7 x 7 mod 2, 9 x 9 mod 5; 5 x 5 mod 2 and 9 x 9 mod 3 taken */
static void refusals(void)
{
    int64_t dr[5] = {0, -1, -1, 1, 1}, dc[5] = {0, -1, 1, -1, 1};
    int idx = ml_engine_index("algebraic-sym-odd");
    static const int C[5][3] = {{5, 3, 0}, {7, 2, 0}, {9, 5, 0}, {5, 2, 1}, {9, 3, 1}};
    for (int i = 0; i < 5; i++) {
        ml_board *b = grid(C[i][0], C[i][0], C[i][1], 5, dr, dc);
        int cov = -1;
        char why[1024] = "";
        CHECK(ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK);
        CHECK(cov == C[i][2], "%d x %d mod %d: %d (%s)", C[i][0], C[i][0], C[i][1], cov, why);
        CHECK(cov || strstr(why, "(w + 1) / 2"), "%s", why);
        ml_board_free(b);
    }
    /* the cross (a tap (-1, 0)) and a torus are not */
    int64_t cr[5] = {0, 0, 0, -1, 1}, cc[5] = {0, 1, -1, 0, 0};
    ml_board *b = grid(5, 5, 3, 5, cr, cc);
    int cov = -1;
    char why[1024] = "";
    CHECK(ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK && !cov);
    ml_board_free(b);
}

/* the engine against the dense oracle: neither det nor solve_packed */
static const eo_spec spec = {&ml__algebraic_sym_odd_ops, NULL, 0, 4, 2};

int main(void)
{
    ml_ctx_new(&ctx);
    int covered = 0, idx = ml_engine_index("algebraic-sym-odd");
    CHECK(idx >= 0);
    for (int it = 0; it < 600; it++) {
        ml_board *b = random_board();
        int cov = 0;
        char why[1024];
        CHECK(b != NULL);
        if (b && ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK && cov) {
            eo_check(ctx, &spec, b);
            covered++;
        }
        ml_board_free(b);
    }
    CHECK(covered >= 150, "covered %d", covered);
    refusals();
    ml_ctx_free(ctx);
    return t_done();
}
