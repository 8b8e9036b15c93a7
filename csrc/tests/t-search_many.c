/* t-search_many: csrc/api/search_many.c, the split search of many cosets: on random
 * boards (named patterns and random offsets, n 2..9, locks, holes, wrap, graph boards
 * from matrices) 0..40 states (about 3 in 4 solvable) are searched by
 * ml_solver_search_many, split at random, the tasks run in a random order on a worker's
 * copy (ml_search_export / ml_search_import; some runs lengths only) and merged; each
 * state's length equals a direct walk over every tap vector (n^n_taps <= 2^14: the
 * fewest taps taking the state to 0, -1 when none does), its taps sum to it and solve
 * the board, every row is proved, the lengths equal ml_solver_min_taps_many's and the
 * taps ml_solver_solve_many(ML_SOLVE_MINIMAL)'s byte for byte; before the last merge
 * the rows of unmerged tasks are not proved. An imported copy exports the same bytes;
 * mutated and cut exports are refused (ML_EINVAL, the message) or imported as another
 * valid search, never read past; a task out of range or merged twice is ML_ERANGE;
 * one-coset calls on a many-coset search and the reverse are ML_EINVAL; NULL arguments
 * are refused; a stopped context interrupts a run (ML_EINTERRUPTED).
 * ml-test-sources: api/search.c api/search_many.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/board_json.c api/board_json_words.c api/json_fields.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#define ML_T_SEED 0x5EA2C5ull
#include "include/modlights.h"
#include "tests/t-util.h"
#include "tests/t-boards.h"

#include <stdlib.h>
#include <string.h>

#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))
#define WALK_MAX ((uint64_t)1 << 14)

static ml_ctx *ctx;
static int searched, rows_checked, unsolvable_rows;

/* Mutated and cut copies of an export: refused or imported (then a task run), never
 * read past. */
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
        uint64_t rows = 0;
        if (!rc && ml_search_task_rows(ctx, q, 0, &rows) == ML_OK && rows < 4096) {
            int64_t *len_ = malloc((rows + 1) * sizeof *len_);
            OK(ml_search_run_rows(ctx, q, 0, len_, NULL));
            free(len_);
        }
        ml_search_free(q);
        free(exact);
    }
    free(copy);
}

/* The direct walk: the fewest taps (sum of the tap counts) taking each of k states
 * (tiles each) to 0 over every tap vector, -1 when none does; A: cells x r. */
static void walk(const uint8_t *A, size_t cells, size_t r, unsigned n, const size_t *tile,
                 size_t tiles, size_t k, const uint8_t *states, int64_t *best)
{
    uint8_t *x = calloc(r + 1, 1), *y = malloc(cells + 1);
    for (size_t s = 0; s < k; s++) {
        for (size_t i = 0; i < cells; i++)
            y[i] = states[s * tiles + tile[i]];
        memset(x, 0, r);
        int64_t len = 0, zero_cells = 0, got = -1;
        for (size_t i = 0; i < cells; i++)
            zero_cells += y[i] == 0;
        for (;;) {
            if (zero_cells == (int64_t)cells && (got < 0 || len < got))
                got = len;
            size_t j = 0;   /* the mixed-radix counter: digit j advances, lower ones wrap */
            for (; j < r; j++) {
                x[j] = (uint8_t)((x[j] + 1) % n);
                len += x[j] ? 1 : -(int64_t)(n - 1);
                for (size_t i = 0; i < cells; i++) {
                    uint8_t a = A[i * r + j];
                    if (!a)
                        continue;
                    zero_cells -= y[i] == 0;
                    y[i] = (uint8_t)((y[i] + a) % n);
                    zero_cells += y[i] == 0;
                }
                if (x[j])
                    break;
            }
            if (j == r)
                break;
        }
        best[s] = got;
    }
    free(x);
    free(y);
}

static void shuffle(uint64_t *order, uint64_t tasks)
{
    for (uint64_t t = 0; t < tasks; t++)
        order[t] = t;
    for (uint64_t t = tasks; t > 1; t--) {
        uint64_t j = rnd() % t, v = order[t - 1];
        order[t - 1] = order[j];
        order[j] = v;
    }
}

static void check_board(ml_board *b)
{
    unsigned n = (unsigned)ml_board_states(b);
    size_t r = (size_t)ml_board_n_taps(b), tiles = (size_t)ml_board_size(b);
    size_t cells = (size_t)ml_board_n_cells(b), tsize = (size_t)ml_board_taps_size(b);
    uint64_t space = 1;
    for (size_t j = 0; j < r && space <= WALK_MAX; j++)
        space *= n;
    ml_solver *s = NULL;
    if (space > WALK_MAX || ml_solver_new(ctx, b, "dense", &s)) {
        ml_solver_free(s);
        return;
    }
    int64_t cols = ml_board_cols(b);
    uint8_t *A = malloc(cells * r + 1);
    size_t *tile = malloc((cells + 1) * sizeof *tile);
    OK(ml_board_matrix(ctx, b, A, r));
    for (size_t i = 0; i < cells; i++) {
        int64_t rr = 0, cc = 0;
        OK(ml_board_cell_position(ctx, b, i, &rr, &cc));
        tile[i] = (size_t)(rr * cols + cc);
    }
    size_t k = (size_t)rnd_range(0, 40);
    uint8_t *states = calloc(k * tiles + 1, 1), *y = malloc(tsize + 1);
    uint8_t *zero = calloc(tiles + 1, 1), *out = malloc(tiles + 1);
    for (size_t i = 0; i < k; i++) {
        uint8_t *st = states + i * tiles;
        if (rnd() % 4) {   /* solvable: -A y for random taps y */
            memset(y, 0, tsize);
            for (size_t j = 0; j < r; j++) {
                int64_t rr = 0, cc = 0;
                OK(ml_board_tap_position(ctx, b, j, &rr, &cc));
                y[(size_t)(rr * cols + cc)] = (uint8_t)(rnd() % n);
            }
            OK(ml_board_apply(ctx, b, zero, y, out));
            for (size_t c = 0; c < cells; c++)
                st[tile[c]] = (uint8_t)((n - out[tile[c]]) % n);
        } else {
            for (size_t c = 0; c < cells; c++)
                st[tile[c]] = (uint8_t)(rnd() % n);
        }
    }
    int64_t *want = malloc((k + 1) * sizeof *want), *got = malloc((k + 1) * sizeof *got);
    int64_t *ref = malloc((k + 1) * sizeof *ref);
    walk(A, cells, r, n, tile, tiles, k, states, want);
    ml_search *q = NULL, *w = NULL;
    OK(ml_solver_search_many(ctx, s, k, states, ml_target_fill(0), &q));
    uint64_t tasks = 0;
    size_t len = 0, len2 = 0;
    OK(ml_search_split(ctx, q, (uint64_t)rnd_range(0, 50), &tasks));
    OK(ml_search_export(ctx, q, NULL, 0, &len));
    uint8_t *data = malloc(len + 1), *data2 = malloc(len + 1);
    OK(ml_search_export(ctx, q, data, len, &len));
    OK(ml_search_import(ctx, data, len, &w));
    OK(ml_search_export(ctx, w, data2, len, &len2));
    CHECK(len2 == len && !memcmp(data, data2, len), "an imported copy exports the same");
    int with_taps = rnd() % 4 != 0;
    uint64_t *order = malloc((tasks + 1) * sizeof *order);
    shuffle(order, tasks);
    uint8_t *proven = malloc(k + 1), *taps = malloc(k * tsize + 1);
    uint8_t *rtaps = calloc(k * tsize + 1, 1), *ok = malloc(k + 1);
    int64_t *rl = malloc((k + 1) * sizeof *rl);
    uint8_t *rb = malloc((k + 1) * r + 1);
    for (uint64_t i = 0; i < tasks; i++) {
        uint64_t rows = 0;
        OK(ml_search_task_rows(ctx, w, order[i], &rows));
        CHECK(rows <= k);
        OK(ml_search_run_rows(ctx, w, order[i], rl, with_taps ? rb : NULL));
        if (i + 1 == tasks && tasks > 1 && rows) {   /* the rows not merged yet: unproved */
            OK(ml_search_proven(ctx, q, proven));
            size_t unproved = 0;
            for (size_t j = 0; j < k; j++)
                unproved += !proven[j];
            CHECK(unproved == rows, "%zu rows unproved before the last merge, %llu left",
                  unproved, (unsigned long long)rows);
            CHECK(!ml_search_done(q));
        }
        OK(ml_search_merge_rows(ctx, q, order[i], rl, with_taps ? rb : NULL));
        CHECK(ml_search_merge_rows(ctx, q, order[i], rl, NULL) == ML_ERANGE);
    }
    CHECK(ml_search_done(q));
    OK(ml_search_lengths(ctx, q, got, NULL));
    OK(ml_search_proven(ctx, q, proven));
    OK(ml_solver_min_taps_many(ctx, s, k, states, ml_target_fill(0), ml_budget_default(), ref,
                               ok));
    for (size_t i = 0; i < k; i++) {
        CHECK(got[i] == want[i], "row %zu: length %lld, direct walk %lld", i,
              (long long)got[i], (long long)want[i]);
        CHECK(ref[i] == want[i] && proven[i] && ok[i]);
        rows_checked++;
        unsolvable_rows += want[i] < 0;
    }
    if (!with_taps) {
        size_t solvable = 0;
        for (size_t i = 0; i < k; i++)
            solvable += want[i] >= 0;
        int rc = ml_search_lengths(ctx, q, got, taps);   /* taps merged without: refused */
        CHECK(solvable ? rc == ML_EUNAVAILABLE && ml_errmsg_id(ctx) == ML_M_SEARCH_NO_TAPS
                       : rc == ML_OK,
              "lengths only: rc %d, %s", rc, ml_errmsg(ctx));
    } else {
        OK(ml_search_lengths(ctx, q, got, taps));
        size_t m = 0;
        for (size_t i = 0; i < k; i++) {   /* the solvable states, for solve_many */
            if (want[i] < 0) {
                for (size_t f = 0; f < tsize; f++)
                    CHECK(taps[i * tsize + f] == 0, "row %zu unsolvable, taps written", i);
                continue;
            }
            uint64_t sum = 0;
            for (size_t f = 0; f < tsize; f++)
                sum += taps[i * tsize + f];
            CHECK((int64_t)sum == want[i], "row %zu: taps sum to %llu, length %lld", i,
                  (unsigned long long)sum, (long long)want[i]);
            OK(ml_board_apply(ctx, b, states + i * tiles, taps + i * tsize, out));
            int solved = 1;
            for (size_t f = 0; f < tiles; f++)
                solved &= out[f] == 0;
            CHECK(solved, "row %zu: the answer does not solve the board", i);
            if (m != i)
                memmove(states + m * tiles, states + i * tiles, tiles);
            memmove(taps + m * tsize, taps + i * tsize, tsize);
            m++;
        }
        OK(ml_solver_solve_many(ctx, s, m, states, ml_target_fill(0), ML_SOLVE_MINIMAL,
                                ml_budget_default(), rtaps, ok));
        CHECK(!m || !memcmp(taps, rtaps, m * tsize), "taps differ from solve_many's");
    }
    /* misuse: a worker's copy answers nothing; one-coset calls refuse it */
    CHECK(ml_search_lengths(ctx, w, got, NULL) == ML_EMISUSE);
    CHECK(ml_search_proven(ctx, w, proven) == ML_EMISUSE);
    ml_task_result res;
    ml_result *fin = NULL;
    CHECK(ml_search_run(ctx, w, 0, 5, &res, rb) == ML_EINVAL &&
          ml_errmsg_id(ctx) == ML_M_SEARCH_KIND);
    CHECK(ml_search_merge(ctx, q, 0, &res, rb) == ML_EINVAL);
    CHECK(ml_search_finish(ctx, q, &fin) == ML_EINVAL && !fin);
    int64_t bound = 0;
    OK(ml_search_bound(ctx, q, 0, &bound));
    CHECK(bound == (int64_t)1 << 62);
    CHECK(ml_search_run_rows(ctx, w, tasks, rl, NULL) == ML_ERANGE);
    CHECK(ml_search_task_rows(ctx, w, 0, NULL) == ML_EMISUSE);
    fuzz_import(data, len);
    searched++;
    ml_search_free(w);
    ml_search_free(q);
    free(order);
    free(data);
    free(data2);
    free(proven);
    free(taps);
    free(rtaps);
    free(ok);
    free(rl);
    free(rb);
    free(want);
    free(got);
    free(ref);
    free(states);
    free(y);
    free(zero);
    free(out);
    free(A);
    free(tile);
    ml_solver_free(s);
}

/* A GF(2) board of nullity 21 (past coset_batch's table): a stopped context
 * interrupts a run; the next run answers. */
static void check_stop(void)
{
    uint8_t a[3 * 24];
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = (uint8_t)(rnd() % 2);
    ml_board *b = NULL;
    ml_solver *s = NULL;
    ml_search *q = NULL;
    OK(ml_board_from_matrix(ctx, 2, 3, 24, a, 24, &b));
    OK(ml_solver_new(ctx, b, "dense", &s));
    uint8_t st[3] = {0, 0, 0};
    OK(ml_solver_search_many(ctx, s, 1, st, ml_target_fill(0), &q));
    int64_t l = -2;
    ml_ctx_stop(ctx);
    CHECK(ml_search_run_rows(ctx, q, 0, &l, NULL) == ML_EINTERRUPTED, "%s", ml_errmsg(ctx));
    OK(ml_search_run_rows(ctx, q, 0, &l, NULL));
    CHECK(l == 0);
    ml_search_free(q);
    ml_solver_free(s);
    ml_board_free(b);
}

int main(void)
{
    if (ml_ctx_new(&ctx))
        return 1;
    for (int i = 0; i < 300; i++) {
        static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9};
        ml_board *b = t_random_board(ctx, ns[rnd() % 8], 5);
        if (b)
            check_board(b);
        ml_board_free(b);
    }
    CHECK(searched > 80, "only %d boards searched", searched);
    CHECK(unsolvable_rows > 20, "only %d unsolvable rows", unsolvable_rows);
    check_stop();
    /* NULL arguments */
    ml_search *q = NULL;
    CHECK(ml_solver_search_many(ctx, NULL, 0, NULL, ml_target_fill(0), &q) == ML_EMISUSE);
    CHECK(ml_solver_search_many(ctx, NULL, 0, NULL, ml_target_fill(0), NULL) == ML_EMISUSE);
    CHECK(ml_search_lengths(ctx, NULL, NULL, NULL) == ML_EMISUSE);
    CHECK(ml_search_proven(ctx, NULL, NULL) == ML_EMISUSE);
    CHECK(ml_search_run_rows(ctx, NULL, 0, NULL, NULL) == ML_EMISUSE);
    CHECK(ml_search_merge_rows(ctx, NULL, 0, NULL, NULL) == ML_EMISUSE);
    printf("%d boards searched, %d rows (%d unsolvable)\n", searched, rows_checked,
           unsolvable_rows);
    ml_ctx_free(ctx);
    return t_done();
}
