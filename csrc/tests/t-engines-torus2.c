/* t-engines-torus2: csrc/engines/torus2.c (over polymatn.c) through its vtable
 * (ml__algebraic_torus2_ops), without the solver, against the dense engines
 * (engines/dense.c) as the oracle: on random tori of any pattern (the named ones:
 * cross, diagonal, square, horizontal, vertical, knight, and random offsets within 3
 * with repeats, so counts that vanish mod p) with n 2, 3, 5, 7, 11, 101, 251, sides
 * 1..14 (square sides to 13 for the shears), that the registry says the engine covers:
 * nullity and kernel size as the dense engine's; generators in ker A, of order p,
 * independent (rank = nullity), a limit giving the first rows of the same list, H =
 * NULL the count alone; solve of several right-hand sides (A x always solvable, random
 * ones solvable exactly when the dense engine says so, the answers A x = b, the
 * unsolvable rows zero); kernel_fits. The diagonal and the knight covered through a
 * shear; composite n and boards without a lead refused; a stop requested while the
 * system is made returns ML_EINTERRUPTED. (tests/native/test_capi_torus2.py compares
 * through the solver.)
 * The engine-against-oracle checks are eo_check's (tests/engine-oracle.h).
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x70C052ull
#include "include/modlights.h"
#include "engines/torus2.h"
#include "base/interrupt.h"
#include "tests/t-util.h"
#include "tests/engine-oracle.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const unsigned NS[] = {2, 3, 5, 7, 11, 101, 251};

/* the named patterns, (0, 0) first */
static const int64_t NAMED[6][9][2] = {
    {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}},
    {{0, 0}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}},
    {{0, 0}, {-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}},
    {{0, 0}, {0, -1}, {0, 1}},
    {{0, 0}, {-1, 0}, {1, 0}},
    {{0, 0}, {-2, -1}, {-2, 1}, {-1, -2}, {-1, 2}, {1, -2}, {1, 2}, {2, -1}, {2, 1}},
};
static const size_t NAMED_K[6] = {5, 5, 9, 3, 3, 9};

/* A random torus: a named pattern (half the time) or 1..6 random offsets within 3. */
static ml_board *random_board(void)
{
    int64_t dr[16], dc[16];
    size_t k;
    int named = (int)rnd_range(-6, 5);
    if (named >= 0) {
        k = NAMED_K[named];
        for (size_t i = 0; i < k; i++) {
            dr[i] = NAMED[named][i][0];
            dc[i] = NAMED[named][i][1];
        }
    } else {
        k = (size_t)rnd_range(1, 6);
        for (size_t i = 0; i < k; i++) {
            dr[i] = rnd_range(-3, 3);
            dc[i] = rnd_range(-3, 3);
        }
    }
    int n = (int)NS[rnd() % (rnd() % 4 ? 5 : 7)];
    int64_t rows = rnd_range(1, 14), cols = rnd() % 3 ? rnd_range(1, 14) : rows;
    if (named == 5 || rnd() % 4 == 0)
        cols = rows = rnd_range(9, 13);
    return eo_grid(ctx, rows, cols, n, k, dr, dc, 1);
}

static void refusals_and_stops(void)
{
    const ml_engine_def *T = &ml__algebraic_torus2_ops;
    void *e = NULL;
    /* composite n, and a board no orientation gives a lead: refused as the caller's bug */
    int64_t dr[9], dc[9];
    for (size_t i = 0; i < 9; i++) {
        dr[i] = NAMED[5][i][0];
        dc[i] = NAMED[5][i][1];
    }
    ml_board *b = eo_grid(ctx, 12, 12, 4, 9, dr, dc, 1);
    CHECK(b && T->build(NULL, ctx, b, &e) == ML_EINTERNAL && !e);
    ml_board_free(b);
    /* 7 rows, 9 columns: no shear, the span 10 too long */
    b = eo_grid(ctx, 7, 9, 2, 9, dr, dc, 1);
    ml__t2_orient o;
    CHECK(b && ml__torus2_orient(b, &o) == 0);
    CHECK(T->build(NULL, ctx, b, &e) == ML_EINTERNAL && !e);
    ml_board_free(b);
    /* the knight on 12 x 12 over GF(3): the shear a = 2, span 10 */
    b = eo_grid(ctx, 12, 12, 3, 9, dr, dc, 1);
    CHECK(b && ml__torus2_orient(b, &o) == 1 && o.span == 10 && (o.a == 2 || o.a == -2),
          "span %zu a %ld", o.span, o.a);
    /* a stop requested before the system is made */
    CHECK(T->build(NULL, ctx, b, &e) == ML_OK);
    uint64_t null = 0;
    ml_interrupt_request();
    int rc = T->nullity(NULL, ctx, e, &null);
    ml_interrupt_take();
    CHECK(rc == ML_EINTERRUPTED, "rc %d", rc);
    CHECK(T->nullity(NULL, ctx, e, &null) == ML_OK);
    T->destroy(NULL, e);
    ml_board_free(b);
}

/* the engine against the dense oracle: neither det nor solve_packed */
static const eo_spec spec = {&ml__algebraic_torus2_ops, NULL, 0, 4, 2};

int main(void)
{
    ml_ctx_new(&ctx);
    int covered = 0, idx = ml_engine_index("algebraic-torus2");
    int shear = 0;
    CHECK(idx >= 0);
    for (int it = 0; it < 300; it++) {
        ml_board *b = random_board();
        int cov = 0;
        char why[1024];
        CHECK(b != NULL);
        if (b && ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK && cov) {
            ml__t2_orient o;
            CHECK(ml__torus2_orient(b, &o) == 1);
            shear += o.a != 0;
            eo_check(ctx, &spec, b);
            covered++;
        }
        ml_board_free(b);
    }
    CHECK(covered >= 120 && shear >= 20, "algebraic-torus2 covered %d, %d sheared", covered,
          shear);
    refusals_and_stops();
    ml_ctx_free(ctx);
    return t_done();
}
