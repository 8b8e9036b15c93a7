/* t-engines-algebraic: csrc/engines/algebraic.c through its vtables
 * (ml__algebraic_cross_ops, ml__algebraic_sym_ops), without the solver, against the
 * dense engines (engines/dense.c) as the oracle: on random grid boards of each family
 * (random counts of (0,0), (0,+-1), (+-1,0) for the cross engine; left-right or up-down
 * symmetric 3 x 3 patterns for the symmetric one; n 2, 3, 5, 7, 101, 251; sides 1..10)
 * that the registry says the engine covers: nullity and kernel size as the dense
 * engine's; generators in ker A, of order p, independent (rank = nullity), a limit
 * giving the first rows of the same list, H = NULL the count alone; solve of several
 * right-hand sides (A x always solvable, random ones solvable exactly when the dense
 * engine says so, the answers A x = b, the unsolvable rows zero); det (cross) as the
 * dense engine's; kernel_fits; solve_packed (n = 2) on np.packbits rows with a fill
 * (solvable as the byte solve, A x = fill ^ s). The kernel basis limit refuses with
 * cross.py's message; a giant board gets its nullity from the algebra alone.
 * (tests/native/test_capi_algebraic.py compares with Python's engines.)
 * The engine-against-oracle checks are eo_check's (tests/engine-oracle.h).
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0xA16EB7Aull
#include "include/modlights.h"
#include "engines/algebraic.h"
#include "tests/t-util.h"
#include "tests/engine-oracle.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const unsigned NS[] = {2, 3, 5, 7, 101, 251};

/* A random board of the family: cross (sym = 0) or symmetric 3 x 3 (sym = 1). */
static ml_board *random_board(int sym)
{
    int64_t dr[32], dc[32];
    size_t k = 0;
    if (!sym) {
        static const int64_t R[5][2] = {{0, 0}, {0, 1}, {0, -1}, {-1, 0}, {1, 0}};
        for (int i = 0; i < 5; i++)
            for (int t = (int)rnd_range(0, 2); t > 0; t--, k++) {
                dr[k] = R[i][0];
                dc[k] = R[i][1];
            }
    } else {
        int up = rnd() % 2;   /* up-down symmetric: worked on transposed */
        for (int r = -1; r <= 1; r++) {
            for (int t = (int)rnd_range(0, 2); t > 0; t--, k++) {
                dr[k] = r;
                dc[k] = 0;
            }
            for (int t = (int)rnd_range(0, 2); t > 0; t--, k += 2) {
                dr[k] = dr[k + 1] = r;
                dc[k] = -1;
                dc[k + 1] = 1;
            }
        }
        for (size_t i = 0; i < k && up; i++) {
            int64_t x = dr[i];
            dr[i] = dc[i];
            dc[i] = x;
        }
    }
    if (!k) {
        dr[0] = dc[0] = 0;
        k = 1;
    }
    int n = (int)NS[rnd() % (rnd() % 4 ? 4 : 6)];
    return eo_grid(ctx, rnd_range(1, 10), rnd_range(1, 10), n, k, dr, dc, 0);
}

static void limits(void)
{
    /* vertical over GF(2) on 2 rows: nullity w; 2^14 x 2^15 bytes > 256 MiB */
    int64_t dr[3] = {0, -1, 1}, dc[3] = {0, 0, 0};
    ml_board *b = eo_grid(ctx, 2, 1 << 14, 2, 3, dr, dc, 0);
    eo_kernel_limit(ctx, &ml__algebraic_cross_ops, b, 1u << 14,
                    "the kernel basis has 16384 generators of 32768 taps: 0.50 GiB, more "
                    "than the 256 MiB allowed; nullity, kernel_size, solvable and solve do "
                    "not need it");
    ml_board_free(b);
    /* a giant board: the algebra alone (5 x 5 lights out: nullity 2 on 4 x 4 blocks...) */
    int64_t cr[5] = {0, 0, 0, -1, 1}, cc[5] = {0, 1, -1, 0, 0};
    b = eo_grid(ctx, 20000, 10007, 2, 5, cr, cc, 0);
    CHECK(b && ml_board_is_giant(b));
    void *e = NULL;
    uint64_t null = 0;
    CHECK(ml__algebraic_cross_ops.build(NULL, ctx, b, &e) == ML_OK);
    CHECK(ml__algebraic_cross_ops.nullity(NULL, ctx, e, &null) == ML_OK && null <= 10007);
    unsigned det = 7;
    CHECK(ml__algebraic_cross_ops.det(NULL, ctx, e, &det) == ML_OK && det == (null ? 0u : 1u));
    ml__algebraic_cross_ops.destroy(NULL, e);
    ml_board_free(b);
}

int main(void)
{
    ml_ctx_new(&ctx);
    const char *names[2] = {"algebraic-cross", "algebraic-sym"};
    const eo_spec spec[2] = {
        {&ml__algebraic_cross_ops, NULL, ML_Q_DET | ML_Q_SOLVE_PACKED, 4, 2},
        {&ml__algebraic_sym_ops, NULL, ML_Q_SOLVE_PACKED, 4, 2},
    };
    for (int which = 0; which < 2; which++) {
        int covered = 0, idx = ml_engine_index(names[which]);
        CHECK(idx >= 0);
        for (int it = 0; it < 300; it++) {
            ml_board *b = random_board(which);
            int cov = 0;
            char why[1024];
            CHECK(b != NULL);
            if (b && ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK &&
                cov) {
                eo_check(ctx, &spec[which], b);
                covered++;
            }
            ml_board_free(b);
        }
        CHECK(covered >= 100, "%s covered %d", names[which], covered);
    }
    limits();
    ml_ctx_free(ctx);
    return t_done();
}
