/* t-symmetry: csrc/search/symmetry.c, ml_symmetries. On random grids (every named
 * pattern and random offsets, n 2..9, locks, holes, wrap, square and oblong sides) each
 * symmetry returned keeps the dense tap matrix entry by entry (A[cells[i], taps[j]] =
 * A[i, j], read from ml_board_matrix) and the right-hand side when one is given, and
 * permutes the cells and the taps; on boards without wrap every dihedral map that keeps
 * A (checked densely here, independently) is returned; known counts: the 5 x 5 cross 7,
 * 4 x 6 cross 3, a corner lock on the 5 x 5 cross 1, the 3 x 3 cross torus 71, the 20 x
 * 20 cross torus 31 (half-side translations), graph boards 0.
 * ml-test-sources: search/symmetry.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/board_json.c api/board_json_words.c api/json_fields.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c */
#define ML_T_SEED 0x5017C7ull
#include "include/modlights.h"
#include "search/symmetry.h"
#include "tests/t-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

static ml_ctx *ctx;
static uint64_t found;

static int is_perm(const uint64_t *p, uint64_t k)
{
    uint8_t *seen = calloc(k + 1, 1);
    int ok = 1;
    for (uint64_t i = 0; i < k && ok; i++) {
        ok = p[i] < k && !seen[p[i]];
        if (ok)
            seen[p[i]] = 1;
    }
    free(seen);
    return ok;
}

/* Whether dihedral map f keeps A (dense), computed here from positions. */
static int dense_keeps(const ml_board *b, const uint8_t *M, int f)
{
    int64_t R = ml_board_rows(b) - 1, C = ml_board_cols(b) - 1;
    uint64_t nc = ml_board_n_cells(b), nt = ml_board_n_taps(b);
    uint64_t *pc = malloc(nc * sizeof *pc), *pt = malloc((nt + 1) * sizeof *pt);
    int ok = 1;
    for (int side = 0; side < 2 && ok; side++) {
        uint64_t k = side ? nt : nc;
        for (uint64_t i = 0; i < k && ok; i++) {
            int64_t r, c, r2, c2;
            uint64_t idx = 0;
            if (side)
                ml_board_tap_position(ctx, b, i, &r, &c);
            else
                ml_board_cell_position(ctx, b, i, &r, &c);
            int64_t m[8][2] = {{r, c}, {R - r, C - c}, {R - r, c}, {r, C - c},
                               {c, r}, {C - c, R - r}, {c, R - r}, {C - c, r}};
            r2 = m[f][0];
            c2 = m[f][1];
            if (r2 < 0 || r2 > R || c2 < 0 || c2 > C) {
                ok = 0;
                break;
            }
            int rc = side ? ml_board_tap_index(ctx, b, r2, c2, &idx)
                          : ml_board_cell_index(ctx, b, r2, c2, &idx);
            ok = rc == ML_OK;
            if (ok)
                (side ? pt : pc)[i] = idx;
        }
    }
    for (uint64_t i = 0; i < nc && ok; i++)
        for (uint64_t j = 0; j < nt && ok; j++)
            ok = M[pc[i] * nt + pt[j]] == M[i * nt + j];
    free(pc);
    free(pt);
    return ok;
}

static void check(ml_board *b, int rhs_too, int64_t want)
{
    uint64_t nc = ml_board_n_cells(b), nt = ml_board_n_taps(b);
    unsigned n = (unsigned)ml_board_states(b);
    uint8_t *M = calloc(nc * nt + 1, 1), *rhs = malloc(nc + 1);
    OK(ml_board_matrix(ctx, b, M, nt));
    for (uint64_t i = 0; i < nc; i++)
        rhs[i] = (uint8_t)(rnd() % 2 ? 0 : rnd() % n);
    ml_syms S;
    OK(ml_symmetries(ctx, b, rhs_too ? rhs : NULL, &S));
    if (want >= 0)
        CHECK((int64_t)S.k == want, "%llu symmetries, want %lld", (unsigned long long)S.k,
              (long long)want);
    for (uint64_t s = 0; s < S.k; s++) {
        const uint64_t *pc = S.cells + s * nc, *pt = S.taps + s * nt;
        CHECK(is_perm(pc, nc) && (!nt || is_perm(pt, nt)));
        size_t bad = 0;
        for (uint64_t i = 0; i < nc; i++) {
            for (uint64_t j = 0; j < nt; j++)
                bad += M[pc[i] * nt + pt[j]] != M[i * nt + j];
            if (rhs_too)
                bad += rhs[pc[i]] != rhs[i];
        }
        CHECK(!bad, "symmetry %llu breaks %zu entries", (unsigned long long)s, bad);
    }
    if (!rhs_too && ml_board_kind(b) == ML_BOARD_GRID && !ml_board_wrap(b) && nc) {
        int nd = ml_board_rows(b) == ml_board_cols(b) ? 8 : 4;
        uint64_t brute = 0;
        for (int f = 1; f < nd; f++)
            brute += (uint64_t)dense_keeps(b, M, f);
        CHECK(brute == S.k, "brute force %llu, found %llu", (unsigned long long)brute,
              (unsigned long long)S.k);
    }
    found += S.k;
    ml_syms_free(&S);
    free(M);
    free(rhs);
}

static ml_board *grid(int64_t rows, int64_t cols, int n, const char *pat, int wrap, int lock)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    OK(ml_grid_new(ctx, rows, cols, n, &g));
    if (pat) {
        OK(ml_grid_set_pattern_name(ctx, g, pat));
    } else if (rnd() % 4 == 0) {
        int64_t dr[3], dc[3];
        size_t k = (size_t)rnd_range(1, 3);
        for (size_t i = 0; i < k; i++) {
            dr[i] = rnd_range(-1, 1);
            dc[i] = rnd_range(-1, 1);
        }
        ml_grid_set_offsets(ctx, g, k, dr, dc);
    } else {
        ml_grid_set_pattern(ctx, g, (int)(rnd() % ML_PATTERN_COUNT));
    }
    if (wrap)
        ml_grid_set_wrap(ctx, g, 1);
    if (lock == 1)
        ml_grid_lock(ctx, g, 0, 0);
    else if (lock == 2) {
        ml_grid_lock(ctx, g, rnd_range(0, rows - 1), rnd_range(0, cols - 1));
        ml_grid_hole(ctx, g, rnd_range(0, rows - 1), rnd_range(0, cols - 1));
    }
    if (ml_grid_build(ctx, g, &b))
        b = NULL;
    ml_grid_free(g);
    return b;
}

int main(void)
{
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    struct { int64_t r, c; int wrap, lock; int64_t want; } known[] = {
        {5, 5, 0, 0, 7}, {4, 6, 0, 0, 3}, {5, 5, 0, 1, 1}, {3, 3, 1, 0, 71}, {20, 20, 1, 0, 31}};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        ml_board *b = grid(known[i].r, known[i].c, 2, "cross", known[i].wrap, known[i].lock);
        if (b)
            check(b, 0, known[i].want);
        ml_board_free(b);
    }
    uint8_t eye[4] = {1, 0, 0, 1};
    ml_board *g = NULL;
    OK(ml_board_from_matrix(ctx, 2, 2, 2, eye, 2, &g));
    check(g, 0, 0);
    ml_board_free(g);
    for (int i = 0; i < 400; i++) {
        int64_t rows = rnd_range(1, 7), cols = rnd() % 2 ? rows : rnd_range(1, 7);
        ml_board *b = grid(rows, cols, (int)rnd_range(2, 9), NULL, rnd() % 4 == 0,
                           rnd() % 3 == 0 ? 2 : 0);
        if (b)
            check(b, (int)(rnd() % 2), -1);
        ml_board_free(b);
    }
    printf("symmetries found %llu\n", (unsigned long long)found);
    CHECK(found > 400);
    ml_ctx_free(ctx);
    return t_done();
}
