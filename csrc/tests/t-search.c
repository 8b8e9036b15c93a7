/* t-search: csrc/api/search.c, the split search of one coset: on random boards (named
 * patterns and random offsets, n 2..9, locks, holes, wrap, graph boards from matrices)
 * the tasks of a split run in a random order through a worker's copy (ml_search_export /
 * ml_search_import), each with the bound ml_search_bound gives right before, merged:
 * the search is done, its answer takes the state to 0, is proved, has the length of
 * ml_solver_solve's covering minimal search, and examined + pruned covers the coset;
 * the export of an imported copy is the same bytes; mutated and cut exports are
 * refused (ML_EINVAL, the message) or imported as another valid search, never read
 * past; a task out of range or merged twice is ML_ERANGE; NULL arguments are refused.
 * GF(2) boards of nullity >= 22 (the transform search, tasks of corners): the same
 * element, examined and pruned as ml_solver_solve, their format-2 exports fuzzed too.
 * (tests/native/test_capi_search.py compares every answer with Python's executor.)
 * ml-test-sources: api/search.c api/search_many.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/board_json.c api/board_json_words.c api/json_fields.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c verify/verify.c verify/verify_read.c verify/verify_board.c verify/verify_algebra.c verify/verify_claims.c verify/verify_upper.c verify/verify_count.c verify/verify_bounds.c verify/verify_big.c */
#define ML_T_SEED 0x5EA2C4ull
#include "include/modlights.h"
#include "tests/t-util.h"
#include "tests/t-boards.h"

#include <stdlib.h>
#include <string.h>

#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

/* Kernels searched at most (the random boards'; the transform search's boards more). */
static uint64_t max_total = 1u << 16;
static int cubes;

static ml_ctx *ctx;
static int searched;
static int proofs;

static ml_board *random_board(int n) { return t_random_board(ctx, n, 5); }

/* Mutated and cut copies of an export: refused or imported, never read past. */
static void fuzz_import(const uint8_t *data, size_t len)
{
    uint8_t *copy = malloc(len + 1);
    for (int round = 0; round < 40; round++) {
        memcpy(copy, data, len);
        size_t cut = round % 4 == 0 ? (size_t)rnd_range(0, (int64_t)len) : len;
        if (len && round % 4)
            for (int i = 0; i < 1 + round % 3; i++)
                copy[rnd() % len] = (uint8_t)rnd();
        uint8_t *exact = malloc(cut + 1);   /* the bytes alone: ASan sees a read past them */
        memcpy(exact, copy, cut);
        ml_search *q = NULL;
        int rc = ml_search_import(ctx, exact, cut, &q);
        CHECK(rc == ML_OK || (rc == ML_EINVAL && strstr(ml_errmsg(ctx), "not a search")) ||
                  rc == ML_ENOMEM,
              "import rc %d: %s", rc, ml_errmsg(ctx));
        if (!rc) {
            uint64_t tasks = 0;
            OK(ml_search_split(ctx, q, 2, &tasks));
            ml_search_free(q);
        }
        free(exact);
    }
    free(copy);
}

static void check_board(ml_board *b)
{
    ml_solver *s = NULL;
    if (ml_solver_new(ctx, b, "dense", &s)) {
        CHECK(0, "ml_solver_new: %s", ml_errmsg(ctx));
        return;
    }
    unsigned n = (unsigned)ml_board_states(b);
    size_t r = (size_t)ml_board_n_taps(b), tiles = (size_t)ml_board_size(b);
    size_t tsize = (size_t)ml_board_taps_size(b);
    ml_factored ks;
    uint64_t total = 0, null = 0;
    OK(ml_solver_nullity(ctx, s, &null));
    OK(ml_solver_kernel_size(ctx, s, &ks));
    if (ml_factored_u64(ctx, &ks, &total) || total > max_total) {
        ml_solver_free(s);
        return;
    }
    uint8_t *state = calloc(tiles + 1, 1), *out = malloc(tiles + 1);
    uint8_t *y = calloc(tsize + 1, 1), *best = malloc(r + 1);
    int64_t cols = ml_board_cols(b);
    for (size_t j = 0; j < r; j++) {   /* a solvable state: -A y for random taps y */
        int64_t rr = 0, cc = 0;
        OK(ml_board_tap_position(ctx, b, j, &rr, &cc));
        y[(size_t)(rr * cols + cc)] = (uint8_t)(rnd() % n);
    }
    uint8_t *zero = calloc(tiles + 1, 1);
    OK(ml_board_apply(ctx, b, zero, y, out));
    for (size_t f = 0; f < tiles; f++)
        state[f] = (uint8_t)((n - out[f]) % n);
    ml_search *q = NULL;
    OK(ml_solver_search(ctx, s, state, ml_target_fill(0), &q));
    if (q) {
        uint64_t tasks = 0;
        OK(ml_search_split(ctx, q, (uint64_t)rnd_range(1, 12), &tasks));
        size_t len = 0;
        OK(ml_search_export(ctx, q, NULL, 0, &len));
        uint8_t *data = malloc(len + 1);
        OK(ml_search_export(ctx, q, data, len, &len));
        ml_search *w = NULL;
        OK(ml_search_import(ctx, data, len, &w));
        size_t len2 = 0;
        uint8_t *data2 = malloc(len + 1);
        OK(ml_search_export(ctx, w, data2, len, &len2));
        CHECK(len2 == len && !memcmp(data, data2, len), "an imported copy exports the same");
        /* the tasks in a random order */
        uint64_t *order = malloc((tasks + 1) * sizeof *order);
        for (uint64_t t = 0; t < tasks; t++)
            order[t] = t;
        for (uint64_t t = tasks; t > 1; t--) {
            uint64_t j = rnd() % t, v = order[t - 1];
            order[t - 1] = order[j];
            order[j] = v;
        }
        for (uint64_t i = 0; i < tasks && !ml_search_done(q); i++) {
            int64_t bound = 0;
            ml_task_result res;
            OK(ml_search_bound(ctx, q, order[i], &bound));
            OK(ml_search_run(ctx, w, order[i], bound, &res, best));
            CHECK(res.complete && (!res.found || res.length < bound));
            OK(ml_search_merge(ctx, q, order[i], &res, best));
            CHECK(ml_search_merge(ctx, q, order[i], &res, best) == ML_ERANGE);
        }
        CHECK(ml_search_done(q));
        int64_t bound = 0;
        CHECK(ml_search_bound(ctx, q, tasks, &bound) == ML_ERANGE);
        CHECK(strstr(ml_errmsg(ctx), "out of range: the search has") != NULL);
        ml_result *res = NULL, *ref = NULL;
        CHECK(ml_search_finish(ctx, w, &res) == ML_EMISUSE);
        OK(ml_search_finish(ctx, q, &res));
        OK(ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL,
                           ml_budget_steps(total), &ref));
        if (res && ref) {
            CHECK(ml_result_proven_minimal(res) && ml_result_proven_minimal(ref));
            CHECK(ml_result_length(res) == ml_result_length(ref), "length %llu, solve %llu",
                  (unsigned long long)ml_result_length(res),
                  (unsigned long long)ml_result_length(ref));
            CHECK(ml_result_examined(res) + ml_result_pruned(res) == total ||
                  (null >= 22 && !ml_result_length(res)));
            if (n == 2 && null >= 22) {   /* the transform search: as ml_solver_solve */
                CHECK(!memcmp(ml_result_taps(res), ml_result_taps(ref), tsize) &&
                          ml_result_examined(res) == ml_result_examined(ref) &&
                          ml_result_pruned(res) == ml_result_pruned(ref),
                      "cube split: examined %llu / %llu, pruned %llu / %llu",
                      (unsigned long long)ml_result_examined(res),
                      (unsigned long long)ml_result_examined(ref),
                      (unsigned long long)ml_result_pruned(res),
                      (unsigned long long)ml_result_pruned(ref));
                cubes++;
            }
            /* the proof kept: a certificate the checker accepts (total > 1), the same as
             * ml_solver_solve's for the transform search */
            size_t clen = 0, vlen = 0;
            char summary[512];
            if (total > 1) {
                OK(ml_result_certificate(ctx, res, NULL, 0, &clen));
                char *cert = malloc(clen + 1);
                OK(ml_result_certificate(ctx, res, cert, clen + 1, &clen));
                OK(ml_verify_json(ctx, cert, clen, summary, sizeof summary, &vlen));
                if (n == 2 && null >= 22) {
                    ml_result *pr = NULL;
                    size_t plen = 0;
                    OK(ml_solver_solve(ctx, s, state, ml_target_fill(0),
                                       ML_SOLVE_MINIMAL | ML_SOLVE_PROOF,
                                       ml_budget_steps(total), &pr));
                    OK(ml_result_certificate(ctx, pr, NULL, 0, &plen));
                    char *pc = malloc(plen + 1);
                    OK(ml_result_certificate(ctx, pr, pc, plen + 1, &plen));
                    CHECK(plen == clen && !memcmp(pc, cert, clen),
                          "cube split: the certificate differs from ml_solver_solve's");
                    free(pc);
                    ml_result_free(pr);
                }
                free(cert);
                proofs++;
            }
            uint64_t sum = 0;
            for (size_t f = 0; f < tsize; f++)
                sum += ml_result_taps(res)[f];
            CHECK(sum == ml_result_length(res), "taps sum to %llu, length %llu",
                  (unsigned long long)sum, (unsigned long long)ml_result_length(res));
            OK(ml_board_apply(ctx, b, state, ml_result_taps(res), out));
            int solved = 1;
            for (size_t f = 0; f < tiles; f++)
                solved &= out[f] == 0;
            CHECK(solved, "the split search's answer does not solve the board");
            searched++;
        }
        ml_result_free(res);
        ml_result_free(ref);
        fuzz_import(data, len);
        free(order);
        free(data);
        free(data2);
        ml_search_free(w);
        ml_search_free(q);
    }
    free(zero);
    free(state);
    free(out);
    free(y);
    free(best);
    ml_solver_free(s);
}

int main(void)
{
    if (ml_ctx_new(&ctx))
        return 1;
    for (int i = 0; i < 400; i++) {
        static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9};
        ml_board *b = random_board(ns[rnd() % 8]);
        if (b)
            check_board(b);
        ml_board_free(b);
    }
    CHECK(searched > 100, "only %d boards searched", searched);
    /* the transform search (GF(2), nullity >= 22): ranges of corners */
    max_total = (uint64_t)1 << 24;
    static const struct { const char *pat; int64_t r, c; int wrap; } cube[] = {
        {"vertical", 5, 22, 0}, {"square", 5, 24, 0}, {"cross", 30, 30, 1}};
    for (int i = 0; i < 3; i++) {
        ml_grid *g = NULL;
        ml_board *b = NULL;
        OK(ml_grid_new(ctx, cube[i].r, cube[i].c, 2, &g));
        OK(ml_grid_set_pattern_name(ctx, g, cube[i].pat));
        OK(ml_grid_set_wrap(ctx, g, cube[i].wrap));
        OK(ml_grid_build(ctx, g, &b));
        ml_grid_free(g);
        for (int k = 0; b && k < 2; k++)
            check_board(b);
        ml_board_free(b);
    }
    CHECK(cubes == 6, "%d transform searches split", cubes);
    CHECK(proofs > 100, "only %d certificates checked", proofs);
    /* NULL arguments */
    CHECK(ml_search_split(ctx, NULL, 1, NULL) == ML_EMISUSE);
    CHECK(ml_search_import(ctx, NULL, 0, NULL) == ML_EMISUSE);
    CHECK(ml_search_done(NULL) == 0);
    ml_search_free(NULL);
    printf("%d boards searched\n", searched);
    ml_ctx_free(ctx);
    return t_done();
}
