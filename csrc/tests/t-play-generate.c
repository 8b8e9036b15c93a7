/* t-play-generate: csrc/play/generate.c and daily.c. The documented puzzles (Python's
 * ml.generate(3, 3, states=3, seed=2).code, ml.generate(5, 5, states=3, locked=3,
 * seed=7) with min_taps 9, proved), the same puzzle twice for one seed, a trivial
 * kernel whenever unique, the automatic locks of the 5x5 cross, a mixed grid given as
 * settings, and Python's refusals (their messages), all without a leak (ASan); daily's
 * three puzzles of one date (tests/play/golden/daily.json) and its bad dates. Python's
 * puzzles themselves on many settings: tests/native/test_capi_puzzle.py. Exit 0 when
 * every check holds.
 * ml-test-sources: play/generate.c play/daily.c play/puzzle.c play/puzzle_measure.c play/codes.c play/codec.c play/pytext.c play/prng.c play/sha256.c play/date.c play/bands.c api/board_json.c api/board_json_words.c api/json_fields.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/solver.c api/solver_solve.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c api/registry_tensor.c api/registry_plan.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#include "include/modlights.h"
#include "t-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ml_puzzle *gen(ml_generate_opts *o, int status, const char *msg)
{
    ml_puzzle *p = NULL;
    ml_ctx *ctx = NULL;
    CHECK(ml_ctx_new(&ctx) == ML_OK);
    int rc = ml_generate(ctx, o, &p);
    CHECK(rc == status, "status %d, want %d: %s", rc, status, ml_errmsg(ctx));
    if (msg)
        CHECK(strcmp(ml_errmsg(ctx), msg) == 0, "%s", ml_errmsg(ctx));
    CHECK((rc == ML_OK) == (p != NULL));
    ml_ctx_free(ctx);
    return p;
}

static const char *code_of(ml_puzzle *p)
{
    const char *c = NULL;
    CHECK(ml_puzzle_code(NULL, p, &c) == ML_OK);
    return c ? c : "";
}

static int unique(ml_puzzle *p)
{
    ml_solver *s = NULL;
    int u = 0;
    CHECK(ml_solver_new(NULL, (ml_board *)ml_puzzle_board(p), NULL, &s) == ML_OK);
    CHECK(ml_solver_is_unique(NULL, s, &u) == ML_OK);
    ml_solver_free(s);
    return u;
}

static void generated(void)
{
    ml_generate_opts o;
    ml_generate_opts_init(&o);
    CHECK(o.size == sizeof o && o.rows == 5 && o.cols == 5 && o.states == 2 && o.unique == 1);
    CHECK(o.locked == -1 && o.holes == -1 && o.difficulty == ML_MEDIUM && !strcmp(o.pattern, "cross"));
    o.rows = o.cols = 3;
    o.states = 3;
    o.seed = 2;
    o.seeded = 1;
    ml_puzzle *p = gen(&o, ML_OK, NULL);
    CHECK(p && strcmp(code_of(p), "AQADAwMAaCFAvSnc5Q") == 0, "%s", code_of(p));
    ml_puzzle_free(p);

    ml_generate_opts_init(&o);
    o.states = 3;
    o.locked = 3;
    o.seed = 7;
    o.seeded = 1;
    p = gen(&o, ML_OK, NULL);
    ml_puzzle_stats st;
    CHECK(p && ml_puzzle_stats_get(NULL, p, &st) == ML_OK && st.min_taps == 9 && st.proven);
    CHECK(p && ml_board_any_locked(ml_puzzle_board(p)) && unique(p));
    ml_puzzle *q = gen(&o, ML_OK, NULL);
    CHECK(q && ml_puzzle_equal(p, q));
    ml_puzzle_free(q);
    ml_puzzle_free(p);

    /* the 5x5 cross has |ker A| = 4: unique=True with nothing given locks tiles */
    for (uint64_t seed = 0; seed < 6; seed++) {
        ml_generate_opts_init(&o);
        o.seed = seed;
        o.seeded = 1;
        o.difficulty = (int)(seed % 4);
        p = gen(&o, ML_OK, NULL);
        CHECK(p && unique(p) && ml_board_any_locked(ml_puzzle_board(p)));
        ml_puzzle_free(p);
    }
    /* a random seed, random-ish settings: any answer is a measured puzzle */
    ml_generate_opts_init(&o);
    o.unique = 0;
    o.holes = 2;
    o.wrap = 1;
    p = gen(&o, ML_OK, NULL);
    CHECK(p && ml_puzzle_stats_get(NULL, p, &st) == ML_OK);
    ml_puzzle_free(p);

    /* a grid given: its pattern, shape, states, masks */
    ml_grid *g = NULL;
    uint32_t a = 0, b = 0;
    CHECK(ml_grid_new(NULL, 4, 5, 3, &g) == ML_OK);
    CHECK(ml_grid_palette_add(NULL, g, ML_PATTERN_CROSS, &a) == ML_OK);
    CHECK(ml_grid_palette_add(NULL, g, ML_PATTERN_SQUARE, &b) == ML_OK);
    uint32_t index[20];
    for (int f = 0; f < 20; f++)
        index[f] = f % 3 ? a : b;
    CHECK(ml_grid_set_mixed(NULL, g, index) == ML_OK && ml_grid_lock(NULL, g, 1, 1) == ML_OK);
    ml_generate_opts_init(&o);
    o.grid = g;
    o.unique = 0;
    o.seeded = 1;
    o.seed = 99;
    p = gen(&o, ML_OK, NULL);
    CHECK(p && ml_board_rows(ml_puzzle_board(p)) == 4 && ml_board_is_mixed(ml_puzzle_board(p)));
    CHECK(p && ml_board_states(ml_puzzle_board(p)) == 3 && ml_board_any_locked(ml_puzzle_board(p)));
    ml_puzzle_free(p);
    CHECK(ml_grid_hole(NULL, g, 1, 1) == ML_OK);
    gen(&o, ML_EINVAL, "tile (1, 1) is both locked and a hole; a tile may be one or the other");
    ml_grid_free(g);

    /* Python's refusals (js/test/golden/errors.json) */
    ml_generate_opts_init(&o);
    o.rows = 0;
    gen(&o, ML_ERANGE, "rows must be >= 1, got 0");
    o.rows = o.cols = 40;
    gen(&o, ML_ETOOLARGE, "generate makes boards of up to 1024 tiles with sides up to 255, got 40x40");
    ml_generate_opts_init(&o);
    o.locked = 20;
    o.holes = 5;
    gen(&o, ML_EIMPOSSIBLE, "20 locked tiles and 5 holes leave no tile to tap on a 5x5 board");
    ml_generate_opts_init(&o);
    o.states = 1;
    gen(&o, ML_ERANGE, "states must be from 2 to 255, got 1");
    ml_generate_opts_init(&o);
    o.rows = o.cols = 4;
    o.locked = o.holes = 0;
    o.seeded = 1;
    o.seed = 1;
    gen(&o, ML_EIMPOSSIBLE, "unique=True is impossible: the 4x4 board with 2 states has |ker A| = 16 "
        "(several tap combinations change nothing, so solutions are never unique) and no locked "
        "tiles or holes were allowed to break that; allow some with locked=k or holes=k, or pass "
        "unique=False");
    ml_generate_opts_init(&o);
    o.pattern = "square";
    o.locked = 3;
    gen(&o, ML_EIMPOSSIBLE, "unique=True is impossible: the 5x5 board with 2 states has |ker A| = 512 "
        "(nullity 9) and each locked tile lowers the nullity by at most 1, so it needs at least 9 "
        "locked tiles, not 3; or pass unique=False");
    ml_generate_opts_init(&o);
    o.difficulty = 7;
    gen(&o, ML_EINVAL, "difficulty must be one of 'easy', 'medium', 'hard', 'expert', got 7");
    o.difficulty = ML_EASY;
    o.locked = -2;
    gen(&o, ML_ERANGE, "locked must be >= 0, got -2");
    o.size = 3;
    gen(&o, ML_ERANGE, NULL);
    gen(NULL, ML_EMISUSE, NULL);
    CHECK(ml_generate(NULL, &o, NULL) == ML_EMISUSE);
    ml_generate_opts_init(NULL);
}

/* tests/play/golden/daily.json's first days, and datetime's reasons */
static void daily(void)
{
    static const struct {
        int y, m, d;
        const char *codes[3];
    } days[] = {
        {1999, 12, 31, {"AQIFBQIACEAAOIFfQCVxq-E", "AQIFBQMAoAAAygzQDILSgM2URQY",
                        "AQYGBgMAAAAIACAAACBAVFiAaqkBBGaQyzTz7Q"}},
        {2024, 2, 29, {"AQIFBQIAgAEABAUYAM-puqo", "AQIFBQMAAGBACArIxUIsQEfIhC0",
                       "AQYGBgMAAAgAAQAQBAAAAGIGmBGGiKCANaHi1A"}},
    };
    for (size_t i = 0; i < sizeof days / sizeof days[0]; i++) {
        ml_puzzle *out[3] = {NULL, NULL, NULL};
        CHECK(ml_daily(NULL, days[i].y, days[i].m, days[i].d, out) == ML_OK);
        for (int k = 0; k < 3; k++) {
            CHECK(out[k] && strcmp(code_of(out[k]), days[i].codes[k]) == 0, "%s", code_of(out[k]));
            ml_puzzle_free(out[k]);
        }
    }
    ml_puzzle *out[3];
    CHECK(ml_daily(NULL, 2026, 13, 1, out) == ML_ERANGE && out[0] == NULL);
    CHECK(strcmp(ml_errmsg(NULL), "bad date '2026-13-01': month must be in 1..12") == 0);
    CHECK(ml_daily(NULL, 2026, 2, 30, out) == ML_ERANGE);
    CHECK(strcmp(ml_errmsg(NULL), "bad date '2026-02-30': day is out of range for month") == 0);
    CHECK(ml_daily(NULL, 0, 1, 1, out) == ML_ERANGE);
    CHECK(strcmp(ml_errmsg(NULL), "bad date '0000-01-01': year 0 is out of range") == 0, "%s", ml_errmsg(NULL));
    CHECK(ml_daily(NULL, 2026, 1, 1, NULL) == ML_EMISUSE);
}

int main(void)
{
    generated();
    daily();
    return t_done();
}
