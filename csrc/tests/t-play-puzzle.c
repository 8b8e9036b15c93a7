/* t-play-puzzle: csrc/play/puzzle.c, puzzle handles. Random grid puzzles (named and
 * random patterns, mixed palettes, locks, holes, wrap, 2..255 states; starts with bytes
 * past n, reduced as Python reduces them, zero at holes) give the same code through
 * ml_puzzle_code and ml_code_encode, read back from the code (with surrounding blanks)
 * and from their JSON to equal puzzles; a code and a board that disagree, a graph board,
 * and malformed documents are refused with a message of the table and no puzzle; every
 * prefix of a code is refused or read without a leak (ASan); the documented puzzle's
 * measured parts, solution and JSON (puzzle_measure.c), an unsolvable start refused. Python's messages and
 * codes themselves are compared by tests/native/test_capi_puzzle.py. Exit 0 when every
 * check holds.
 * ml-test-sources: play/puzzle.c play/puzzle_measure.c play/codes.c play/codec.c play/pytext.c api/board_json.c api/board_json_words.c api/json_fields.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c play/bands.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c api/registry_tensor.c api/registry_plan.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#include "include/modlights.h"
#include "t-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ml_board *random_grid(void)
{
    static const int ns[] = {2, 3, 4, 5, 7, 9, 16, 101, 255};
    int64_t rows = rnd_range(1, 9), cols = rnd_range(1, 9);
    ml_grid *g = NULL;
    if (ml_grid_new(NULL, rows, cols, ns[rnd_range(0, 8)], &g) != ML_OK)
        return NULL;
    int64_t dr[6], dc[6];
    size_t k = (size_t)rnd_range(0, 6);
    for (size_t i = 0; i < k; i++) {
        dr[i] = rnd_range(-2, 2);
        dc[i] = rnd_range(-2, 2);
    }
    int kind = (int)rnd_range(0, 2);
    if (kind == 0) {
        ml_grid_set_pattern(NULL, g, (int)rnd_range(0, ML_PATTERN_COUNT - 1));
    } else if (kind == 1) {
        ml_grid_set_offsets(NULL, g, k, dr, dc);
    } else {
        uint32_t a = 0, b = 0, c = 0, *index = malloc((size_t)(rows * cols) * sizeof *index);
        ml_grid_palette_add(NULL, g, (int)rnd_range(0, ML_PATTERN_COUNT - 1), &a);
        ml_grid_palette_add_offsets(NULL, g, k, dr, dc, &b);
        ml_grid_palette_add(NULL, g, ML_PATTERN_CROSS, &c);   /* maybe unused */
        for (int64_t f = 0; index && f < rows * cols; f++)
            index[f] = rnd() & 1 ? a : b;
        if (index)
            ml_grid_set_mixed(NULL, g, index);
        free(index);
    }
    ml_grid_set_wrap(NULL, g, (int)(rnd() & 1));
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            int64_t roll = rnd_range(0, 8);
            if (roll == 0)
                ml_grid_lock(NULL, g, r, c);
            else if (roll == 1 && (r || c))   /* (0, 0) stays a tile */
                ml_grid_hole(NULL, g, r, c);
        }
    ml_board *b = NULL;
    ml_grid_build(NULL, g, &b);
    ml_grid_free(g);
    return b;
}

/* {"board": ..., "start": [[...]], "code": "..."} of a puzzle (malloc'ed). */
static char *document(ml_puzzle *p, const char *code)
{
    const ml_board *b = ml_puzzle_board(p);
    size_t n = 0;
    ml_board_to_json(NULL, b, NULL, 0, &n);
    int64_t rows = ml_board_rows(b), cols = ml_board_cols(b);
    size_t cap = n + (size_t)(rows * cols) * 5 + strlen(code) + 64;
    char *doc = malloc(cap), *at = doc;
    if (!doc)
        return NULL;
    at += sprintf(at, "{\"board\":");
    ml_board_to_json(NULL, b, at, n + 1, &n);
    at += n;
    at += sprintf(at, ",\"start\":[");
    const uint8_t *s = ml_puzzle_start(p);
    for (int64_t r = 0; r < rows; r++) {
        at += sprintf(at, "%s[", r ? "," : "");
        for (int64_t c = 0; c < cols; c++)
            at += sprintf(at, "%s%u", c ? "," : "", s[r * cols + c]);
        at += sprintf(at, "]");
    }
    sprintf(at, "],\"code\":\"%s\"}", code);
    return doc;
}

static void round_trip(ml_board *b)
{
    CHECK(b != NULL);
    if (!b)
        return;
    int64_t t = ml_board_rows(b) * ml_board_cols(b);
    uint8_t *start = malloc((size_t)t);
    for (int64_t f = 0; f < t; f++)
        start[f] = (uint8_t)rnd_range(0, 255);
    ml_puzzle *p = NULL, *q = NULL, *j = NULL;
    const char *code = NULL;
    CHECK(ml_puzzle_new(NULL, b, start, &p) == ML_OK, "%s", ml_errmsg(NULL));
    ml_board_free(b);   /* the puzzle keeps its own reference */
    if (!p) {
        free(start);
        return;
    }
    int n = ml_board_states(ml_puzzle_board(p));
    uint8_t *holes = malloc((size_t)t);
    CHECK(holes && ml_board_holes_mask(NULL, ml_puzzle_board(p), holes) == ML_OK);
    for (int64_t f = 0; holes && f < t; f++)
        CHECK(ml_puzzle_start(p)[f] == (holes[f] ? 0 : start[f] % n));
    free(holes);
    CHECK(ml_puzzle_code(NULL, p, &code) == ML_OK, "%s", ml_errmsg(NULL));
    char buf[4096];
    size_t len = 0;
    CHECK(ml_code_encode(NULL, ml_puzzle_board(p), start, buf, sizeof buf, &len) == ML_OK);
    CHECK(code && strcmp(buf, code) == 0 && len == strlen(code));
    char spaced[4200];
    snprintf(spaced, sizeof spaced, " \t%s\n", code ? code : "");
    CHECK(ml_puzzle_from_code(NULL, spaced, strlen(spaced), &q) == ML_OK, "%s", ml_errmsg(NULL));
    CHECK(ml_puzzle_equal(p, q) == 1);
    const char *again = NULL;
    CHECK(q && ml_puzzle_code(NULL, q, &again) == ML_OK && strcmp(again, code) == 0);
    char *doc = code ? document(p, code) : NULL;
    CHECK(doc && ml_puzzle_from_json(NULL, doc, strlen(doc), 0, &j) == ML_OK, "%s: %s",
          doc ? doc : "?", ml_errmsg(NULL));
    CHECK(ml_puzzle_equal(p, j) == 1);
    /* every prefix of the code: refused (only the whole code reads), nothing leaked */
    for (size_t cut = 0; code && cut < strlen(code); cut += 1 + cut / 8) {
        ml_puzzle *x = NULL;
        CHECK(ml_puzzle_from_code(NULL, code, cut, &x) == ML_ECODE && x == NULL);
    }
    free(doc);
    free(start);
    ml_puzzle_free(j);
    ml_puzzle_free(q);
    ml_puzzle_free(p);
}

/* The measured parts of the documented puzzle (Python: min_taps 5, proven, medium, stars
 * {3: 5, 2: 7, 1: 10}, 6 tiles touched, score 5 / 15), its JSON read back to an equal
 * puzzle, its solution solving it; a puzzle whose start no taps solve refused. */
static void measured(void)
{
    const char *ex = "AQADAwMAaCFAvSnc5Q";
    ml_puzzle *p = NULL, *q = NULL;
    ml_puzzle_stats st;
    CHECK(ml_puzzle_from_code(NULL, ex, strlen(ex), &p) == ML_OK);
    CHECK(ml_puzzle_stats_get(NULL, p, &st) == ML_OK);
    CHECK(st.min_taps == 5 && st.proven && st.difficulty == ML_MEDIUM && st.touched == 6);
    CHECK(st.stars[0] == 5 && st.stars[1] == 7 && st.stars[2] == 10);
    CHECK(st.score > 0.33333 && st.score < 0.33334, "score %g", st.score);
    const ml_result *r = NULL;
    CHECK(ml_puzzle_solution(NULL, p, &r) == ML_OK && r && ml_result_length(r) == 5);
    uint8_t after[9];
    CHECK(ml_board_apply(NULL, ml_puzzle_board(p), ml_puzzle_start(p), ml_result_taps(r), after) == ML_OK);
    for (int i = 0; i < 9; i++)
        CHECK(after[i] == 0);
    size_t n = 0;
    CHECK(ml_puzzle_to_json(NULL, p, NULL, 0, &n) == ML_OK && n > 0);
    char *text = malloc(n + 1), small[8];
    CHECK(text && ml_puzzle_to_json(NULL, p, text, n + 1, &n) == ML_OK && strlen(text) == n);
    CHECK(ml_puzzle_to_json(NULL, p, small, sizeof small, NULL) == ML_OK && strlen(small) == 7);
    CHECK(strstr(text, "\"stars\":{\"3\":5,\"2\":7,\"1\":10},\"min_taps\":5,\"proven\":true,"
                       "\"difficulty\":\"medium\"}") != NULL, "%s", text);
    CHECK(ml_puzzle_from_json(NULL, text, n, 0, &q) == ML_OK && ml_puzzle_equal(p, q));
    free(text);
    ml_puzzle_free(q);
    ml_puzzle_free(p);

    /* 1x2 horizontal Z/2 board, one tile locked: taps change both tiles equally */
    ml_grid *g = NULL;
    ml_board *b = NULL;
    uint8_t start[2] = {1, 0};
    CHECK(ml_grid_new(NULL, 1, 2, 2, &g) == ML_OK && ml_grid_set_pattern(NULL, g, ML_PATTERN_HORIZONTAL) == ML_OK);
    CHECK(ml_grid_lock(NULL, g, 0, 1) == ML_OK && ml_grid_build(NULL, g, &b) == ML_OK);
    CHECK(ml_puzzle_new(NULL, b, start, &p) == ML_OK);
    CHECK(ml_puzzle_stats_get(NULL, p, &st) == ML_EUNSOLVABLE);
    CHECK(ml_puzzle_to_json(NULL, p, NULL, 0, &n) == ML_EUNSOLVABLE);
    ml_puzzle_free(p);
    ml_board_free(b);
    ml_grid_free(g);

    CHECK(ml_puzzle_stats_get(NULL, NULL, &st) == ML_EMISUSE);
    CHECK(ml_puzzle_solution(NULL, NULL, &r) == ML_EMISUSE);
    CHECK(ml_puzzle_to_json(NULL, NULL, NULL, 0, &n) == ML_EMISUSE);
}

static void refused(const char *doc, int status, const char *start)
{
    ml_ctx *ctx = NULL;
    ml_ctx_new(&ctx);
    ml_puzzle *p = (ml_puzzle *)&p;
    int rc = ml_puzzle_from_json(ctx, doc, strlen(doc), 0, &p);
    CHECK(rc == status && p == NULL, "%s: %d %s", doc, rc, ml_errmsg(ctx));
    CHECK(strncmp(ml_errmsg(ctx), start, strlen(start)) == 0, "%s: %s", doc, ml_errmsg(ctx));
    ml_ctx_free(ctx);
}

int main(void)
{
    for (int t = 0; t < 300; t++)
        round_trip(random_grid());

    /* the documented example: Python's ml.generate(3, 3, states=3, seed=2).code */
    ml_puzzle *p = NULL;
    const char *code = NULL;
    const char *ex = "AQADAwMAaCFAvSnc5Q";
    CHECK(ml_puzzle_from_code(NULL, ex, strlen(ex), &p) == ML_OK);
    CHECK(p && ml_puzzle_code(NULL, p, &code) == ML_OK && strcmp(code, ex) == 0);
    ml_puzzle_free(p);
    measured();

    refused("[]", ML_EINVAL, "puzzle must be a dict (JSON object), got list");
    refused("{}", ML_EINVAL, "puzzle needs 'board' and 'start', or 'code'");
    refused("{\"code\":\"AQADAwMAaCFAvSnc5Z\"}", ML_ECODE, "code: puzzle code ");
    refused("{\"code\":\"AQADAwMAaCFBvSnc5Q\"}", ML_ECODE, "code: puzzle code checksum mismatch");
    refused("{\"code\":\"AQADAwMAaCFAvSnc5Q\",\"start\":[[0]]}", ML_EINVAL,
            "puzzle has 'start' but no 'board'");
    refused("{\"code\":\"AQADAwMAaCFAvSnc5Q\",\"proven\":1}", ML_EINVAL, "proven must be true or false, got 1");
    refused("{\"board\":{\"effects\":[[0]],\"states\":2},\"start\":[0]}", ML_EINVAL,
            "board: puzzles are grid boards");
    refused("{\"board\":{\"rows\":2,\"cols\":2},\"start\":[[0,1],[1,2]]}", ML_ERANGE,
            "start values must be ints from 0 to 1, got 2");
    refused("{\"board\":{\"rows\":3,\"cols\":3,\"states\":3},\"start\":[[0,0,0],[0,0,0],[0,0,0]],"
            "\"code\":\"AQADAwMAaCFAvSnc5Q\"}",
            ML_EINVAL, "code and board/start describe different puzzles");

    ml_board *graph = NULL;
    int64_t indptr[2] = {0, 1}, cells[1] = {0};
    uint8_t zero[4] = {0};
    CHECK(ml_board_from_effects(NULL, 2, -1, 1, indptr, cells, &graph) == ML_OK);
    CHECK(ml_puzzle_new(NULL, graph, zero, &p) == ML_EINVAL && p == NULL);
    CHECK(ml_code_encode(NULL, graph, zero, NULL, 0, NULL) == ML_EINVAL);
    ml_board_free(graph);
    CHECK(ml_puzzle_new(NULL, NULL, zero, &p) == ML_EMISUSE);
    CHECK(ml_puzzle_code(NULL, NULL, &code) == ML_EMISUSE);
    CHECK(ml_puzzle_equal(NULL, NULL) == 0 && ml_puzzle_board(NULL) == NULL);
    ml_puzzle_free(NULL);
    return t_done();
}
