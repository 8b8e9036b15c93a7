/* t-exports: csrc/wasm/exports.c (the WebAssembly exports of the C API, built natively
 * here) against the header's functions they forward to. Random grid boards given as
 * JSON (named patterns, locks, holes, wrap, 2..40 states, some every tile a hole) give
 * the same board JSON and the same puzzle code through mlx_* as through ml_*; each code
 * decodes (mlx_puzzle_from_code, with blanks around it) to an equal board whose start
 * re-encodes to the code; bad codes and bad JSON return NULL with the status and
 * message of the failing call (mlx_errcode / mlx_errmsg / mlx_status_name); SplitMix64
 * (next, below, sample, seeds from bytes), the tap bands, difficulty and stars equal the
 * direct calls on random input; dates (valid, Unicode digits and blanks, bad days) read
 * by mlx_date_parse as by ml_date_parse, with the same status and message. Exit 0 when every check holds (prints fails=N).
 * ml-test-sources: wasm/exports.c play/puzzle.c play/codes.c play/codec.c play/pytext.c play/prng.c play/sha256.c play/bands.c play/date.c api/board_json.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c play/generate.c play/daily.c play/puzzle_measure.c api/solve.c api/result.c api/solver.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c api/registry_tensor.c api/registry_plan.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c engines/algebraic.c engines/algebraic_poly.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/numeric.c chase/runner.c engines/torus.c engines/lifted.c engines/polymat.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#include "include/modlights.h"
#include "t-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the forwarders (exports.c has no header: JavaScript is its caller) */
int32_t mlx_errcode(void);
const char *mlx_errmsg(void);
const char *mlx_status_name(int32_t status);
ml_board *mlx_board_from_json(const char *json, uint32_t len, int64_t max_tiles);
char *mlx_board_to_json(const ml_board *b);
void mlx_board_free(ml_board *b);
double mlx_board_size(const ml_board *b);
char *mlx_code_encode(const ml_board *b, const uint8_t *start);
ml_puzzle *mlx_puzzle_from_code(const char *code, uint32_t len);
void mlx_puzzle_free(ml_puzzle *p);
const ml_board *mlx_puzzle_board(const ml_puzzle *p);
const uint8_t *mlx_puzzle_start(const ml_puzzle *p);
const char *mlx_puzzle_code(ml_puzzle *p);
uint64_t mlx_prng_next(ml_prng *g);
uint64_t mlx_prng_below(ml_prng *g, uint64_t n);
int32_t mlx_prng_sample(ml_prng *g, uint64_t n, uint64_t k, uint64_t *out);
uint64_t mlx_seed_from_bytes(const void *data, uint32_t len);
void mlx_tap_bands(uint64_t n_taps, int32_t states, uint64_t *lo, uint64_t *hi);
int32_t mlx_difficulty_of(uint64_t min_taps, uint64_t n_taps, int32_t states);
void mlx_stars_limits(uint64_t min_taps, uint64_t *limits);
int32_t mlx_stars_for_taps(const uint64_t *limits, uint64_t taps);
int32_t mlx_date_parse(const char *text, int32_t *ymd);

static const char *PATTERNS[] = {"cross", "diagonal", "square", "horizontal", "vertical",
                                 "knight"};

/* A random grid board's JSON (Board.to_dict's fields) into buf. */
static void random_board(char *buf, size_t cap, int *rows, int *cols)
{
    int r = (int)rnd_range(1, 9), c = (int)rnd_range(1, 9), t = r * c;
    int all_holes = rnd() % 20 == 0;
    size_t n = (size_t)snprintf(buf, cap, "{\"rows\":%d,\"cols\":%d,\"states\":%d,"
                                "\"pattern\":\"%s\",\"wrap\":%s,\"locked\":[", r, c,
                                (int)rnd_range(2, 40), PATTERNS[rnd() % 6],
                                rnd() % 2 ? "true" : "false");
    char kind[81];
    for (int i = 0; i < t; i++)
        kind[i] = all_holes ? 'h' : rnd() % 6 == 0 ? 'l' : rnd() % 6 == 0 ? 'h' : '.';
    for (int want = 'l', k = 0; k < 2; k++, want = 'h') {
        int first = 1;
        for (int i = 0; i < t; i++)
            if (kind[i] == want) {
                n += (size_t)snprintf(buf + n, cap - n, "%s[%d,%d]", first ? "" : ",",
                                      i / c, i % c);
                first = 0;
            }
        n += (size_t)snprintf(buf + n, cap - n, k == 0 ? "],\"holes\":[" : "]}");
    }
    *rows = r;
    *cols = c;
}

static void check_boards(void)
{
    char json[4096];
    for (int iter = 0; iter < 400; iter++) {
        int rows, cols;
        random_board(json, sizeof json, &rows, &cols);
        ml_board *want = NULL;
        int rc = ml_board_from_json(NULL, json, strlen(json), 0, &want);
        ml_board *b = mlx_board_from_json(json, (uint32_t)strlen(json), 0);
        CHECK(!rc && b && ml_board_equal(b, want), "%s", json);
        if (!b || rc) {
            ml_board_free(want);
            mlx_board_free(b);
            continue;
        }
        char direct[4096];
        size_t len;
        CHECK(!ml_board_to_json(NULL, want, direct, sizeof direct, &len));
        char *text = mlx_board_to_json(b);
        CHECK(text && !strcmp(text, direct), "%s", json);
        free(text);
        CHECK(mlx_board_size(b) == (double)rows * cols);

        uint8_t start[81];
        for (int i = 0; i < rows * cols; i++)
            start[i] = (uint8_t)rnd();
        char code_direct[512];
        rc = ml_code_encode(NULL, want, start, code_direct, sizeof code_direct, &len);
        char *code = mlx_code_encode(b, start);
        CHECK(!rc == !!code, "%s", json);
        if (!code) {           /* every tile a hole: the same failure */
            CHECK(mlx_errcode() == rc && mlx_errmsg()[0], "%s", json);
        } else {
            CHECK(!strcmp(code, code_direct), "%s", json);
            char padded[600];
            int plen = snprintf(padded, sizeof padded, " \n%s\t ", code);
            ml_puzzle *p = mlx_puzzle_from_code(padded, (uint32_t)plen);
            CHECK(p != NULL, "%s: %s", code, mlx_errmsg());
            if (p) {
                CHECK(ml_board_equal(mlx_puzzle_board(p), want));
                char *again = mlx_code_encode(mlx_puzzle_board(p), mlx_puzzle_start(p));
                CHECK(again && !strcmp(again, code));
                free(again);
                const char *kept = mlx_puzzle_code(p);
                CHECK(kept && !strcmp(kept, code));
            }
            mlx_puzzle_free(p);
        }
        free(code);
        ml_board_free(want);
        mlx_board_free(b);
    }
}

static void check_failures(void)
{
    static const char *codes[] = {"", "   ", "!!!!", "A", "AAAAAAAAAAAAAAAA", "AQAFBQIA"};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
        ml_puzzle *want = NULL;
        int rc = ml_puzzle_from_code(NULL, codes[i], strlen(codes[i]), &want);
        char msg[512];
        snprintf(msg, sizeof msg, "%s", ml_errmsg(NULL));
        ml_puzzle *p = mlx_puzzle_from_code(codes[i], (uint32_t)strlen(codes[i]));
        CHECK(rc == ML_ECODE && !p && !want, "'%s'", codes[i]);
        CHECK(mlx_errcode() == ML_ECODE && !strcmp(mlx_errmsg(), msg), "'%s'", codes[i]);
        CHECK(!strcmp(mlx_status_name(mlx_errcode()), "INVALID_PUZZLE_CODE"));
        mlx_puzzle_free(p);
    }
    static const char *docs[] = {"{", "[]", "{\"rows\":0,\"cols\":3}", "{\"rows\":3}"};
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        CHECK(!mlx_board_from_json(docs[i], (uint32_t)strlen(docs[i]), 0), "%s", docs[i]);
        CHECK(mlx_errcode() != ML_OK && mlx_errmsg()[0], "%s", docs[i]);
    }
    /* max_tiles is passed on */
    const char *big = "{\"rows\":10,\"cols\":10}";
    CHECK(!mlx_board_from_json(big, (uint32_t)strlen(big), 99));
    CHECK(mlx_errcode() == ML_ETOOLARGE, "%d %s", mlx_errcode(), mlx_errmsg());
}

static void check_prng_and_bands(void)
{
    for (int iter = 0; iter < 2000; iter++) {
        ml_prng a = {rnd()}, b = a;
        CHECK(mlx_prng_next(&a) == ml_prng_next(&b) && a.state == b.state);
        uint64_t n = rnd() >> (rnd() % 64);
        CHECK(mlx_prng_below(&a, n) == ml_prng_below(&b, n) && a.state == b.state);
        uint64_t m = (uint64_t)rnd_range(0, 30), k = m ? rnd() % (m + 1) : 0;
        uint64_t x[31], y[31];
        CHECK(mlx_prng_sample(&a, m, k, x) == ml_prng_sample(NULL, &b, m, k, y));
        CHECK(!memcmp(x, y, k * sizeof *x) && a.state == b.state);
        uint8_t bytes[40];
        size_t len = (size_t)rnd_range(0, 40);
        for (size_t i = 0; i < len; i++)
            bytes[i] = (uint8_t)rnd();
        CHECK(mlx_seed_from_bytes(bytes, (uint32_t)len) == ml_seed_from_bytes(bytes, len));

        uint64_t taps = rnd() >> (rnd() % 64), lo[4], hi[4], lo2[4], hi2[4];
        int states = (int)rnd_range(2, 255);
        mlx_tap_bands(taps, states, lo, hi);
        ml_tap_bands(taps, states, lo2, hi2);
        CHECK(!memcmp(lo, lo2, sizeof lo) && !memcmp(hi, hi2, sizeof hi));
        uint64_t mt = rnd() % (hi[3] + 3);
        CHECK(mlx_difficulty_of(mt, taps, states) == ml_difficulty_of(mt, taps, states));
        uint64_t lim[3], lim2[3];
        mlx_stars_limits(mt, lim);
        ml_stars_limits(mt, lim2);
        CHECK(!memcmp(lim, lim2, sizeof lim));
        uint64_t t = rnd() % (lim[2] + 3);
        CHECK(mlx_stars_for_taps(lim, t) == ml_stars_for_taps(lim, t));
    }
}

static void check_dates(void)
{
    static const char *texts[] = {"2026-11-22", " 2024-02-29\n", "2026-02-29", "0000-01-01",
                                  "2026-13-01", "2026-1-22", "", "\xef\xbc\x92\xef\xbc\x90"
                                  "\xef\xbc\x92\xef\xbc\x96-11-22", "\x1c" "2026-11-22"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        int y = 0, m = 0, d = 0;
        int32_t ymd[3] = {0, 0, 0};
        int rc = ml_date_parse(NULL, texts[i], &y, &m, &d);
        char msg[512];
        snprintf(msg, sizeof msg, "%s", rc ? ml_errmsg(NULL) : "");
        CHECK(mlx_date_parse(texts[i], ymd) == rc, "'%s'", texts[i]);
        if (rc)
            CHECK(mlx_errcode() == rc && !strcmp(mlx_errmsg(), msg), "'%s'", texts[i]);
        else
            CHECK(ymd[0] == y && ymd[1] == m && ymd[2] == d, "'%s'", texts[i]);
    }
}

int main(void)
{
    check_dates();
    check_boards();
    check_failures();
    check_prng_and_bands();
    return t_done();
}
