/* t-solve: csrc/api/solve.c and csrc/api/result.c, ml_solver_solve with ML_SOLVE_MINIMAL
 * and the result's JSON: on random boards (every named pattern and random offsets, n
 * 2..9 and larger n, locks, holes, wrap, odd and even sides, graph boards from effects
 * and from matrices) a budget that covers the coset gives a proved answer whose length
 * is the least over the coset, enumerated here from ml_solver_kernel (|ker A| <= 4096),
 * and which takes the state to the target; a count of 1 on a larger kernel proves
 * nothing unless the length is 0 and the certificate is refused with the budget
 * message; 0 elements and 0.0 seconds descend only; ml_result_to_json and
 * ml_result_certificate make valid JSON (read back by the library's own reader through
 * ml_board_from_json for the certificate's board) of the snprintf convention; a stop
 * requested before the call (ml_ctx_stop) returns ML_EINTERRUPTED and leaves the solver
 * usable; bad budgets and NULL arguments are refused with Python's messages. The
 * batches: solvable_many agrees with ml_solver_solvable state by state, min_taps_many
 * with the single minimal solve under a covering budget (the same lengths, proved; -1
 * for the unsolvable), solve_many's minimal taps solve each state with those lengths,
 * and an unsolvable state is named ("1 of 3 boards are unsolvable: indices 1"). The
 * transform search and the sub-coset (check_cube).
 * (tests/native/test_capi_minimal.py compares every answer with Python's Solver.)
 * ml-test-sources: api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/board_json.c api/board_json_words.c api/json_fields.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#define ML_T_SEED 0x5017E5ull
#include "include/modlights.h"
#include "tests/t-util.h"
#include "tests/t-boards.h"

#include <stdlib.h>
#include <string.h>

#define MSG(ctx, want)                                                                   \
    CHECK(!strcmp(ml_errmsg(ctx), want), "got \"%s\"", ml_errmsg(ctx))
#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

static ml_ctx *ctx;
static int proved, unproved, enumerated;

static ml_board *random_board(int n) { return t_random_board(ctx, n, 4); }

/* The least length over x + span(H) (tap order), every combination enumerated. */
static uint64_t brute_min(const uint8_t *x, const uint8_t *H, const uint32_t *orders,
                          uint64_t k, size_t r, unsigned n)
{
    uint32_t c[64] = {0};
    uint64_t best = UINT64_MAX;
    for (;;) {
        uint64_t len = 0;
        for (size_t j = 0; j < r; j++) {
            unsigned v = x[j];
            for (uint64_t i = 0; i < k; i++)
                v += c[i] * H[i * r + j];
            len += v % n;
        }
        if (len < best)
            best = len;
        uint64_t i = 0;
        while (i < k && ++c[i] == orders[i])
            c[i++] = 0;
        if (i == k)
            return best;
    }
}

/* The JSON of a result: valid (the snprintf convention: a short buffer is cut and
 * NUL-terminated, the full length reported). */
static void check_json(const ml_result *res, int cert, int want_rc)
{
    size_t need = 0;
    int rc = cert ? ml_result_certificate(ctx, res, NULL, 0, &need)
                  : ml_result_to_json(ctx, res, NULL, 0, &need);
    CHECK(rc == want_rc, "rc %d want %d: %s", rc, want_rc, ml_errmsg(ctx));
    if (rc)
        return;
    char *buf = malloc(need + 1), small[8];
    size_t got = 0;
    OK(cert ? ml_result_certificate(ctx, res, buf, need + 1, &got)
            : ml_result_to_json(ctx, res, buf, need + 1, &got));
    CHECK(got == need && strlen(buf) == need);
    OK(cert ? ml_result_certificate(ctx, res, small, sizeof small, &got)
            : ml_result_to_json(ctx, res, small, sizeof small, &got));
    CHECK(got == need && strlen(small) == (need < 7 ? need : 7) && !strncmp(small, buf, 7));
    CHECK(buf[0] == '{' && buf[need - 1] == '}');
    if (cert) {
        CHECK(strstr(buf, "\"kind\":\"minimal\"") != NULL);
        /* the certificate's board reads back as the result's board */
        const char *at = strstr(buf, "\"board\":");
        const char *end = strstr(buf, ",\"kernel\":");
        CHECK(at && end && end > at);
        if (at && end) {
            ml_board *back = NULL;
            at += 8;
            OK(ml_board_from_json(ctx, at, (size_t)(end - at), 0, &back));
            CHECK(back && ml_board_equal(back, ml_result_board(res)));
            ml_board_free(back);
        }
    } else {
        char want[64];
        snprintf(want, sizeof want, "\"length\":%llu,",
                 (unsigned long long)ml_result_length(res));
        CHECK(strstr(buf, want) != NULL, "%s in %s", want, buf);
    }
    free(buf);
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
    int64_t cols = ml_board_cols(b);
    uint64_t null = 0;
    OK(ml_solver_nullity(ctx, s, &null));
    uint8_t *H = malloc(null * r + 1), *state = malloc(tiles + 1), *out = malloc(tiles + 1);
    uint8_t *xr = malloc(tsize + 1), *x = malloc(r + 1);
    uint32_t *orders = malloc((null + 1) * sizeof *orders);
    size_t *flat = malloc((r + 1) * sizeof *flat);
    OK(ml_solver_kernel(ctx, s, H, orders));
    uint64_t total = 1;
    for (uint64_t i = 0; i < null; i++)
        total = total > 1u << 20 ? total : total * orders[i];
    for (size_t j = 0; j < r; j++) {
        int64_t rr = 0, cc = 0;
        OK(ml_board_tap_position(ctx, b, j, &rr, &cc));
        flat[j] = (size_t)(rr * cols + cc);
    }
    /* a solvable state: -A y for random taps y */
    memset(xr, 0, tsize + 1);
    for (size_t j = 0; j < r; j++)
        xr[flat[j]] = (uint8_t)(rnd() % n);
    memset(state, 0, tiles + 1);
    OK(ml_board_apply(ctx, b, state, xr, out));
    for (size_t f = 0; f < tiles; f++)
        state[f] = (uint8_t)((n - out[f]) % n);
    static const int kinds[] = {ML_BUDGET_DEFAULT, ML_BUDGET_STEPS, ML_BUDGET_STEPS,
                                ML_BUDGET_STEPS, ML_BUDGET_SECONDS, ML_BUDGET_SECONDS};
    static const uint64_t steps[] = {0, 1 << 20, 1, 0, 0, 0};
    static const double secs[] = {0, 0, 0, 0, 0.0, 5.0};
    for (int t = 0; t < 6; t++) {
        if ((t == 0 || t == 5) && total > (1u << 20))
            continue;   /* a deadline that would run out */
        ml_budget bud = ml_budget_default();
        bud.kind = kinds[t];
        bud.steps = steps[t];
        bud.seconds = secs[t];
        ml_result *res = NULL;
        int rc = ml_solver_solve(ctx, s, state, ml_target_fill(0),
                                 ML_SOLVE_MINIMAL | ML_SOLVE_PROOF, bud, &res);
        CHECK(rc == ML_OK, "budget %d: %s", t, ml_errmsg(ctx));
        if (rc)
            continue;
        const uint8_t *taps = ml_result_taps(res);
        OK(ml_board_apply(ctx, b, state, taps, out));
        int solved = 1;
        for (size_t f = 0; f < tiles; f++)
            solved &= out[f] == 0;
        CHECK(solved, "the minimal answer does not solve the board");
        uint64_t len = 0;
        for (size_t f = 0; f < tsize; f++)
            len += taps[f];
        CHECK(len == ml_result_length(res));
        for (size_t j = 0; j < r; j++)
            x[j] = taps[flat[j]];
        int proven = ml_result_proven_minimal(res);
        int covers = t <= 1;
        if (total <= 4096) {
            uint64_t least = brute_min(x, H, orders, null, r, n);
            enumerated++;
            CHECK(!proven || least == len, "proved %llu, least %llu", (unsigned long long)len,
                  (unsigned long long)least);
            if (covers && total <= (1u << 20))
                CHECK(proven && least == len);
        }
        proved += proven;
        unproved += !proven;
        if (t == 2 && total > 1 && !proven) {   /* one element of a larger coset */
            char want[256];
            size_t need = 0;
            ml_factored ks;
            ml_result_kernel_size(res, &ks);
            char dec[64];
            ml_factored_decimal(ctx, &ks, dec, sizeof dec, &need);
            snprintf(want, sizeof want,
                     "no certificate: this solution is not proved minimal (the search's "
                     "budget ran out after %llu of %s coset elements; raise budget)",
                     (unsigned long long)ml_result_examined(res), dec);
            check_json(res, 1, ML_EUNAVAILABLE);
            MSG(ctx, want);
        }
        if ((t == 3 || t == 4) && len && total > 1)
            CHECK(!proven && ml_result_examined(res) == 0);
        check_json(res, 0, ML_OK);
        if (proven)
            check_json(res, 1, ML_OK);
        ml_result_free(res);
    }
    /* the batches: [state, a random state, state] */
    {
        uint8_t *S = malloc(3 * tiles + 1), ok[3], okm[3], proven[3];
        uint8_t *T = malloc(3 * tsize + 1);
        int64_t lengths[3];
        memcpy(S, state, tiles);
        memcpy(S + 2 * tiles, state, tiles);
        for (size_t f = 0; f < tiles; f++)
            S[tiles + f] = (uint8_t)(rnd() % n);
        OK(ml_solver_solvable_many(ctx, s, 3, S, ml_target_fill(0), ok));
        for (int i = 0; i < 3; i++) {
            int one = 0;
            OK(ml_solver_solvable(ctx, s, S + i * tiles, ml_target_fill(0), &one));
            CHECK(ok[i] == one && (i == 1 || one));
        }
        ml_budget cover = ml_budget_steps(total > (1u << 20) ? 1 : 1u << 20);
        OK(ml_solver_min_taps_many(ctx, s, 3, S, ml_target_fill(0), cover, lengths, proven));
        for (int i = 0; i < 3; i++) {
            if (!ok[i]) {
                CHECK(lengths[i] == -1 && proven[i] == 1);
                continue;
            }
            ml_result *res = NULL;
            OK(ml_solver_solve(ctx, s, S + i * tiles, ml_target_fill(0), ML_SOLVE_MINIMAL, cover,
                               &res));
            if (res) {
                CHECK(lengths[i] == (int64_t)ml_result_length(res) &&
                      proven[i] == ml_result_proven_minimal(res),
                      "%lld %llu", (long long)lengths[i],
                      (unsigned long long)ml_result_length(res));
            }
            ml_result_free(res);
        }
        int rc = ml_solver_solve_many(ctx, s, 3, S, ml_target_fill(0), ML_SOLVE_MINIMAL, cover, T,
                                      okm);
        CHECK(rc == (ok[1] ? ML_OK : ML_EUNSOLVABLE), "%d: %s", rc, ml_errmsg(ctx));
        if (!ok[1])
            MSG(ctx, "1 of 3 boards are unsolvable: indices 1");
        CHECK(!memcmp(okm, ok, 3));
        if (!ok[1])   /* the solvable ones alone */
            memcpy(S + tiles, S, tiles);
        OK(ml_solver_solve_many(ctx, s, 3, S, ml_target_fill(0), ML_SOLVE_MINIMAL, cover, T,
                                NULL));
        for (int i = 0; i < 3; i++) {
            uint64_t len = 0;
            for (size_t f = 0; f < tsize; f++)
                len += T[i * tsize + f];
            OK(ml_board_apply(ctx, b, S + i * tiles, T + i * tsize, out));
            int solved = 1;
            for (size_t f = 0; f < tiles; f++)
                solved &= out[f] == 0;
            CHECK(solved && (i == 1 || (int64_t)len == lengths[i]));
        }
        free(S);
        free(T);
    }
    free(H);
    free(state);
    free(out);
    free(xr);
    free(x);
    free(orders);
    free(flat);
    ml_solver_free(s);
}

/* The least weight over x + span(H) over GF(2) (r <= 128 taps), by a Gray walk. */
static uint64_t gray_min(const uint8_t *x, const uint8_t *H, uint64_t k, size_t r)
{
    uint64_t y[2] = {0, 0}, h[64][2];
    memset(h, 0, sizeof h);
    for (size_t j = 0; j < r; j++) {
        y[j >> 6] |= (uint64_t)(x[j] & 1) << (j & 63);
        for (uint64_t i = 0; i < k; i++)
            h[i][j >> 6] |= (uint64_t)(H[i * r + j] & 1) << (j & 63);
    }
    uint64_t best = (uint64_t)(__builtin_popcountll(y[0]) + __builtin_popcountll(y[1]));
    for (uint64_t t = 1; t < ((uint64_t)1 << k); t++) {
        unsigned i = (unsigned)__builtin_ctzll(t);
        y[0] ^= h[i][0];
        y[1] ^= h[i][1];
        uint64_t w = (uint64_t)(__builtin_popcountll(y[0]) + __builtin_popcountll(y[1]));
        best = w < best ? w : best;
    }
    return best;
}

/* The transform search (GF(2), nullity >= 22): 5 x 22 boards (vertical and square
 * patterns, nullity 22, 110 taps, their mirror symmetries), a random and the all-ones
 * state: proved, the least weight of a Gray walk, the certificate's proof a tree over
 * 16 or more low generators (with the symmetries for the symmetric state). The
 * sub-coset: a 40 x 4200 graph board (nullity 4160: past MAX_SEARCH_BYTES) whose answer
 * solves the state, not proved, its certificate refused. */
static void check_cube(void)
{
    static const char *pats[] = {"vertical", "square"};
    int symmetric = 0;
    for (int p = 0; p < 2; p++) {
        ml_board *b = NULL;
        ml_solver *s = NULL;
        OK(ml_board_grid(ctx, 5, 22, 2, pats[p], &b));
        OK(ml_solver_new(ctx, b, "dense", &s));
        uint64_t k = 0;
        OK(ml_solver_nullity(ctx, s, &k));
        CHECK(k == 22, "nullity %llu", (unsigned long long)k);
        uint8_t H[22 * 110], state[110], out[110], y[110];
        uint32_t orders[22];
        OK(ml_solver_kernel(ctx, s, H, orders));
        for (int v = 0; v < 2; v++) {
            int solvable = 0;
            memset(state, 1, sizeof state);
            OK(ml_solver_solvable(ctx, s, state, ml_target_fill(0), &solvable));
            if (v == 0 || !solvable) {   /* A y for random y */
                for (int j = 0; j < 110; j++)
                    y[j] = (uint8_t)(rnd() & 1);
                memset(out, 0, sizeof out);
                OK(ml_board_apply(ctx, b, out, y, state));
            }
            ml_result *res = NULL;
            OK(ml_solver_solve(ctx, s, state, ml_target_fill(0),
                               ML_SOLVE_MINIMAL | ML_SOLVE_PROOF, ml_budget_steps(1u << 28),
                               &res));
            if (!res)
                continue;
            const uint8_t *x = ml_result_taps(res);
            OK(ml_board_apply(ctx, b, state, x, out));
            int solved = 1;
            for (int f = 0; f < 110; f++)
                solved &= out[f] == 0;
            uint64_t least = gray_min(x, H, k, 110);
            CHECK(solved && ml_result_proven_minimal(res) && ml_result_length(res) == least,
                  "%s: length %llu least %llu", pats[p],
                  (unsigned long long)ml_result_length(res), (unsigned long long)least);
            CHECK(ml_result_examined(res) + ml_result_pruned(res) == (1u << 22));
            check_json(res, 1, ML_OK);
            size_t need = 0;
            OK(ml_result_certificate(ctx, res, NULL, 0, &need));
            char *cert = malloc(need + 1);
            OK(ml_result_certificate(ctx, res, cert, need + 1, &need));
            CHECK(least == 0 || (strstr(cert, "\"method\":\"tree\",\"leaf_dim\":1") &&
                                 strstr(cert, "\"pruned\":[]")), "%.200s", cert);
            symmetric += strstr(cert, "\"symmetries\":[{\"cells\":[") != NULL;
            free(cert);
            ml_result_free(res);
        }
        ml_solver_free(s);
        ml_board_free(b);
    }
    CHECK(symmetric >= 1, "no certificate used the symmetries");
    /* the sub-coset */
    size_t m = 40, r = 4200;
    uint8_t *a = malloc(m * r), *y = malloc(r), *zero = calloc(m, 1), *state = malloc(m);
    uint8_t *out = malloc(m);
    for (size_t i = 0; i < m * r; i++)
        a[i] = rnd() % 20 == 0;
    for (size_t j = 0; j < r; j++)
        y[j] = (uint8_t)(rnd() & 1);
    ml_board *b = NULL;
    ml_solver *s = NULL;
    OK(ml_board_from_matrix(ctx, 2, m, r, a, r, &b));
    OK(ml_solver_new(ctx, b, "dense", &s));
    OK(ml_board_apply(ctx, b, zero, y, state));
    ml_result *res = NULL;
    OK(ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL | ML_SOLVE_PROOF,
                       ml_budget_steps(1000), &res));
    if (res) {
        OK(ml_board_apply(ctx, b, state, ml_result_taps(res), out));
        int solved = 1;
        for (size_t f = 0; f < m; f++)
            solved &= out[f] == 0;
        CHECK(solved && !ml_result_proven_minimal(res) && ml_result_examined(res) == 1000,
              "sub-coset: solved %d proven %d examined %llu", solved,
              ml_result_proven_minimal(res), (unsigned long long)ml_result_examined(res));
        check_json(res, 1, ML_EUNAVAILABLE);
    }
    ml_result_free(res);
    ml_solver_free(s);
    ml_board_free(b);
    free(a);
    free(y);
    free(zero);
    free(state);
    free(out);
}

static void check_refusals(void)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    OK(ml_grid_new(ctx, 5, 5, 2, &g));
    OK(ml_grid_build(ctx, g, &b));
    ml_grid_free(g);
    ml_solver *s = NULL;
    OK(ml_solver_new(ctx, b, NULL, &s));
    uint8_t state[25] = {0};
    OK(ml_board_press(ctx, b, state, 2, 2, 1, state));
    OK(ml_board_press(ctx, b, state, 0, 1, 1, state));
    ml_result *res = NULL;
    CHECK(ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL,
                          ml_budget_seconds(-1.5), &res) == ML_ERANGE && !res);
    MSG(ctx, "budget seconds must be >= 0, got -1.5");
    ml_budget bad = ml_budget_default();
    bad.kind = 9;
    CHECK(ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL, bad, &res) ==
          ML_EINVAL);
    MSG(ctx, "budget kind must be ML_BUDGET_DEFAULT, ML_BUDGET_STEPS or ML_BUDGET_SECONDS, "
             "got 9");
    /* a stop requested before the call stops it; the solver stays usable (its engine
     * built first: an interrupted first build of the lazy dense GF(2) engine leaves the
     * solver answering "unsolvable", solver.c's matter, reported) */
    int solvable = 0;
    OK(ml_solver_solvable(ctx, s, state, ml_target_fill(0), &solvable));
    CHECK(solvable);
    ml_ctx_stop(ctx);
    CHECK(ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL,
                          ml_budget_steps(1000), &res) == ML_EINTERRUPTED && !res);
    int rc = ml_solver_solve(ctx, s, state, ml_target_fill(0), ML_SOLVE_MINIMAL,
                             ml_budget_steps(1000), &res);
    CHECK(rc == ML_OK, "rc %d: %s", rc, ml_errmsg(ctx));
    CHECK(res && ml_result_proven_minimal(res) && ml_result_examined(res) >= 1, "%p %d %llu %llu", (void *)res, res ? ml_result_proven_minimal(res) : -1, res ? (unsigned long long)ml_result_examined(res) : 0ull, res ? (unsigned long long)ml_result_length(res) : 0ull);
    /* no proof kept without ML_SOLVE_PROOF; none for a solve without a search */
    check_json(res, 1, ML_EUNAVAILABLE);
    MSG(ctx, "no certificate: the search proved this solution minimal but kept no proof");
    ml_result_free(res);
    OK(ml_solver_solve(ctx, s, state, ml_target_fill(0), 0, ml_budget_default(), &res));
    check_json(res, 1, ML_EUNAVAILABLE);
    MSG(ctx, "no certificate: this solution is not proved minimal (solve(minimal=False) does "
             "not search for the fewest taps; use solve(minimal=True))");
    CHECK(ml_result_to_json(ctx, NULL, NULL, 0, NULL) == ML_EMISUSE);
    MSG(ctx, "ml_result_to_json: r must not be NULL");
    char buf[4];
    CHECK(ml_result_to_json(ctx, res, NULL, 4, NULL) == ML_EMISUSE);
    CHECK(ml_result_to_json(ctx, res, buf, 0, NULL) == ML_OK);
    ml_result_free(res);
    ml_solver_free(s);
    ml_board_free(b);
}

int main(void)
{
    if (ml_ctx_new(&ctx))
        return 1;
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 16, 101};
    int boards = 0;
    for (int t = 0; t < 150; t++) {
        int n = ns[rnd() % (sizeof ns / sizeof ns[0])];
        ml_board *b = random_board(n);
        if (!b)
            continue;
        check_board(b);
        ml_board_free(b);
        boards++;
    }
    check_refusals();
    check_cube();
    CHECK(boards > 100 && enumerated > 300 && proved > 300 && unproved > 20,
          "%d boards, %d enumerated, %d proved, %d not", boards, enumerated, proved, unproved);
    ml_ctx_free(ctx);
    return t_done();
}
