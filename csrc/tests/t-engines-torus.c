/* t-engines-torus: csrc/engines/torus.c (over polymat.c) through its vtable
 * (ml__algebraic_torus_ops), without the solver, against the dense engines
 * (engines/dense.c) as the oracle: on random tori of the cross family (random counts of
 * (0,0), (0,+-1), (+-1,0); n 2, 3, 5, 7, 101, 251; sides 1..10, so boards worked on
 * transposed and every singular case of the diagonal form) that the registry says the
 * engine covers: nullity and kernel size as the dense engine's; generators in ker A, of
 * order p, independent (rank = nullity), a limit giving the first rows of the same list,
 * H = NULL the count alone; solve of several right-hand sides (A x always solvable,
 * random ones solvable exactly when the dense engine says so, the answers A x = b, the
 * unsolvable rows zero); kernel_fits. The kernel basis limit refuses with cross.py's
 * message. (tests/native/test_capi_torus.py compares with Python's engine.)
 * The engine-against-oracle checks are eo_check's (tests/engine-oracle.h).
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x70C05ull
#include "include/modlights.h"
#include "engines/torus.h"
#include "tests/t-util.h"
#include "tests/engine-oracle.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const unsigned NS[] = {2, 3, 5, 7, 101, 251};

/* A random torus of the cross family. */
static ml_board *random_board(void)
{
    int64_t dr[32], dc[32];
    size_t k = 0;
    static const int64_t R[5][2] = {{0, 0}, {0, 1}, {0, -1}, {-1, 0}, {1, 0}};
    for (int i = 0; i < 5; i++)
        for (int t = (int)rnd_range(0, 2); t > 0; t--, k++) {
            dr[k] = R[i][0];
            dc[k] = R[i][1];
        }
    if (!k) {
        dr[0] = dc[0] = 0;
        k = 1;
    }
    int n = (int)NS[rnd() % (rnd() % 4 ? 4 : 6)];
    return eo_grid(ctx, rnd_range(1, 10), rnd_range(1, 10), n, k, dr, dc, 1);
}

static void limits(void)
{
    /* the vertical pair over GF(2) on 4 rows: nullity 2 w; 2^14 x 2^15 bytes > 256 MiB */
    int64_t dr[2] = {-1, 1}, dc[2] = {0, 0};
    ml_board *b = eo_grid(ctx, 4, 1 << 13, 2, 2, dr, dc, 1);
    const ml_engine_def *T = &ml__algebraic_torus_ops;
    eo_kernel_limit(ctx, T, b, 1u << 14,
                    "the kernel basis has 16384 generators of 32768 taps: 0.50 GiB, more "
                    "than the 256 MiB allowed; nullity, kernel_size, solvable and solve do "
                    "not need it");
    ml_board_free(b);
    /* a board the registry does not cover: refused as a bug of the caller */
    b = eo_grid(ctx, 4, 4, 4, 2, dr, dc, 1);
    void *e = NULL;
    CHECK(T->build(NULL, ctx, b, &e) == ML_EINTERNAL && !e);
    ml_board_free(b);
}

/* the engine against the dense oracle: neither det nor solve_packed */
static const eo_spec spec = {&ml__algebraic_torus_ops, NULL, 0, 4, 2};

int main(void)
{
    ml_ctx_new(&ctx);
    int covered = 0, idx = ml_engine_index("algebraic-torus");
    CHECK(idx >= 0);
    for (int it = 0; it < 400; it++) {
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
    CHECK(covered >= 150, "algebraic-torus covered %d", covered);
    limits();
    ml_ctx_free(ctx);
    return t_done();
}
