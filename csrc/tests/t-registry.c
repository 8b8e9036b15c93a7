/* t-registry: csrc/api/registry.c, registry_own.c, registry_tensor.c, registry_plan.c: the
 * library's engines in engines/registry.py's order with their flags; the plan of the
 * reference page's example (the 200 x 200 GF(2) cross) word for word; on random boards
 * (named and random patterns, mixed, locks, holes, wrap, n 2..255, graph boards, giant
 * grids) every method and both backends: a plan lists every other engine once, its
 * explain and JSON texts follow the snprintf convention (cap 0, cut buffers), the
 * reasons come from the covers of each engine; the refusals (NULL arguments, freed
 * handles, unknown method, backend, index) with their messages; the seam: a C engine
 * registered, chosen, refused, failing in a callback (with and without a message),
 * unregistered (release called once), names refused, and choices running in threads
 * while engines come and go, and the accessors read while other threads unregister (their
 * strings stay valid); a cost that is NaN, infinite or negative refused with Python's
 * message; a 5,000-byte reason kept whole in the plan, its text and JSON; an allocation
 * failing at each step of loading the library's engines reported (count -1, ML_ENOMEM),
 * never a table missing one. (tests/native/test_capi_registry.py compares every answer
 * with Python's.) Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#include "include/modlights.h"
#include "api/registry_impl.h"
#include "api/engine.h"
#include "tests/t-util.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MSG(ctx, want)                                                                   \
    CHECK(!strcmp(ml_errmsg(ctx), want), "got \"%s\"", ml_errmsg(ctx))

static const char *const OWN[] = {"dense-gf2",         "dense-zn",          "chase",
                                  "chase-light",       "chase-prefix",      "chase-row",
                                  "chase-rowsolve",    "algebraic-cross",   "algebraic-torus",
                                  "algebraic-torus2",  "algebraic-sym",     "algebraic-sym-odd",
                                  "lifted",            "tensor"};
#define NOWN 14
#define PREFIX(s, pre) (!strncmp((s), (pre), strlen(pre)))

static void test_engines(void)
{
    CHECK(ml_engine_count() == NOWN, "%d", ml_engine_count());
    for (int i = 0; i < NOWN; i++) {
        CHECK(!strcmp(ml_engine_name(i), OWN[i]), "%d %s", i, ml_engine_name(i));
        CHECK(ml_engine_index(OWN[i]) == i);
        CHECK(ml_engine_description(i) && strlen(ml_engine_description(i)) > 20);
        CHECK(ml_engine_auto(i) == !(i >= 3 && i <= 6), "%d", i);
        unsigned bk = ml_engine_backends(i);
        CHECK(bk == ((i >= 7 && i <= 11 && i != 9) ? 3u : 1u), "%d %u", i, bk);
        unsigned q = ml_engine_answers(i);
        int packed = (i >= 7 && i <= 10 && i != 9) || i == 13;
        unsigned want = packed ? (unsigned)(ML_Q_KERNEL_FITS | ML_Q_SOLVE_PACKED) : 0u;
        if (i <= 1)   /* the dense engines answer what the fallback answers for others */
            want = ML_Q_DET | ML_Q_INVERSE | ML_Q_PSEUDO_INVERSE;
        if (i == 7 || i == 13)   /* algebraic-cross and tensor answer det themselves */
            want |= ML_Q_DET;
        if (i == 9 || i == 11)   /* algebraic-torus2, algebraic-sym-odd: no packed path */
            want = ML_Q_KERNEL_FITS;
        CHECK(q == want, "%d", i);
    }
    CHECK(!strcmp(ml_engine_family(0), "dense") && !strcmp(ml_engine_family(6), "chase"));
    CHECK(!strcmp(ml_engine_family(9), "algebraic") && !strcmp(ml_engine_family(13), "tensor"));
    CHECK(ml_engine_name(NOWN) == NULL && ml_engine_name(-1) == NULL);
    CHECK(ml_engine_family(99) == NULL && ml_engine_description(99) == NULL);
    CHECK(ml_engine_index("reference") == -1 && ml_engine_index(NULL) == -1);
    CHECK(ml_engine_answers(99) == 0 && ml_engine_backends(99) == 0 && ml_engine_auto(99) == 0);
}

/* the reference page's example, word for word */
static void test_example_plan(ml_ctx *ctx)
{
    ml_board *b = NULL;
    ml_plan *p = NULL;
    CHECK(ml_board_grid(ctx, 200, 200, 2, "cross", &b) == ML_OK);
    CHECK(ml_plan_choose(ctx, b, NULL, NULL, &p) == ML_OK);
    CHECK(!strcmp(ml_plan_engine(p), "algebraic-cross"));
    CHECK(!strcmp(ml_plan_family(p), "algebraic") && ml_plan_variant(p) == NULL);
    CHECK(!strcmp(ml_plan_method(p), "auto") && !strcmp(ml_plan_backend(p), "native"));
    CHECK(!strcmp(ml_plan_reason(p),
                  "the cheapest engine that covers the board (0.0003249 s estimated)"));
    CHECK(ml_plan_rejected_count(p) == NOWN - 1);
    const char *name = NULL, *why = NULL;
    CHECK(ml_plan_rejected(p, 0, &name, &why) == ML_OK);  /* cheaper, so asked: refuses */
    CHECK(!strcmp(name, "tensor") && !strncmp(why, "the pattern's offset counts must factor", 39));
    CHECK(ml_plan_rejected(p, 2, &name, &why) == ML_OK);
    CHECK(!strcmp(name, "lifted") &&
          !strcmp(why, "costs more (0.0004028 s against 0.0003249 s for algebraic-cross, estimated)"));
    CHECK(ml_plan_rejected(p, NOWN - 1, &name, &why) == ML_ERANGE);
    MSG(NULL, "i must be from 0 to 12, got 13");
    /* text: the snprintf convention */
    size_t len = 0, len2 = 0;
    CHECK(ml_plan_explain(ctx, p, NULL, 0, &len) == ML_OK && len > 100);
    char *t = malloc(len + 1);
    CHECK(ml_plan_explain(ctx, p, t, len + 1, &len2) == ML_OK && len2 == len);
    CHECK(strlen(t) == len && !strncmp(t, "engine: algebraic-cross (method 'auto', backend "
                                          "'native'): the cheapest", 70));
    char cut[10];
    CHECK(ml_plan_explain(ctx, p, cut, sizeof cut, &len2) == ML_OK && len2 == len);
    CHECK(!strcmp(cut, "engine: a"));
    free(t);
    CHECK(ml_plan_to_json(ctx, p, NULL, 0, &len) == ML_OK);
    t = malloc(len + 1);
    CHECK(ml_plan_to_json(ctx, p, t, len + 1, &len2) == ML_OK && len2 == len);
    CHECK(PREFIX(t, "{\"engine\":\"algebraic-cross\",\"family\":\"algebraic\",\"variant\":null,"
                    "\"reason\":"));
    CHECK(strstr(t, ",\"cost\":0.00032485279800000005}") != NULL, "%s", t + len - 40);
    free(t);
    ml_plan_free(p);
    ml_board_free(b);
}

static void test_refusals(ml_ctx *ctx)
{
    ml_board *b = NULL;
    ml_plan *p = NULL;
    CHECK(ml_board_grid(ctx, 3, 3, 2, NULL, &b) == ML_OK);
    CHECK(ml_plan_choose(ctx, b, "nope", NULL, &p) == ML_EINVAL && p == NULL);
    MSG(ctx, "unknown method 'nope': use one of ('auto', 'dense', 'chase', 'algebraic', "
             "'lifted', 'tensor', 'dense-gf2', 'dense-zn', 'chase-light', 'chase-prefix', "
             "'chase-row', 'chase-rowsolve', 'algebraic-cross', 'algebraic-torus', "
             "'algebraic-torus2', 'algebraic-sym', 'algebraic-sym-odd')");
    CHECK(ml_plan_choose(ctx, b, "auto", "gpu", &p) == ML_EINVAL);
    MSG(ctx, "unknown backend 'gpu': use one of ('native', 'reference')");
    CHECK(ml_plan_choose(ctx, b, "tensor", "reference", &p) == ML_ENOTCOVERED);
    MSG(ctx, "method='tensor' does not cover this board: tensor: backend must be native, not "
             "'reference'; use method='auto' or another of ('auto', 'dense', 'chase', "
             "'algebraic', 'lifted', 'tensor', 'dense-gf2', 'dense-zn', 'chase-light', "
             "'chase-prefix', 'chase-row', 'chase-rowsolve', 'algebraic-cross', "
             "'algebraic-torus', 'algebraic-torus2', 'algebraic-sym', 'algebraic-sym-odd')");
    CHECK(ml_plan_choose(ctx, b, NULL, NULL, NULL) == ML_EMISUSE);
    CHECK(ml_plan_choose(ctx, NULL, NULL, NULL, &p) == ML_EMISUSE);
    int covers = 0;
    double s = 0;
    CHECK(ml_engine_covers(ctx, 99, b, &covers, NULL, 0, NULL) == ML_ERANGE);
    MSG(ctx, "index must be from 0 to 13, got 99");
    CHECK(ml_engine_covers(ctx, 0, NULL, &covers, NULL, 0, NULL) == ML_EMISUSE);
    CHECK(ml_engine_covers(ctx, 0, b, NULL, NULL, 0, NULL) == ML_EMISUSE);
    CHECK(ml_engine_cost(ctx, -1, b, &s) == ML_ERANGE);
    CHECK(ml_engine_cost(ctx, 0, b, NULL) == ML_EMISUSE);
    CHECK(ml_plan_explain(ctx, NULL, NULL, 0, NULL) == ML_EMISUSE);
    CHECK(ml_plan_to_json(ctx, NULL, NULL, 0, NULL) == ML_EMISUSE);
    CHECK(ml_plan_rejected(NULL, 0, NULL, NULL) == ML_EMISUSE);
    CHECK(ml_plan_engine(NULL) == NULL && ml_plan_cost(NULL) == 0 &&
          ml_plan_rejected_count(NULL) == 0 && ml_plan_reason(NULL) == NULL);
    ml_plan_free(NULL);
    /* a graph board and the chase */
    const int64_t indptr[] = {0, 2, 3}, cells[] = {0, 1, 1};
    ml_board *g = NULL;
    CHECK(ml_board_from_effects(ctx, 2, -1, 2, indptr, cells, &g) == ML_OK);
    CHECK(ml_plan_choose(ctx, g, "chase-rowsolve", NULL, &p) == ML_ENOTCOVERED);
    CHECK(strstr(ml_errmsg(ctx), "chase-rowsolve: the chase works on grid boards only "
                                 "(Board.grid); graph boards go dense;") != NULL);
    CHECK(ml_plan_choose(ctx, g, "dense", NULL, &p) == ML_OK);
    CHECK(!strcmp(ml_plan_engine(p), "dense-gf2") && ml_plan_rejected_count(p) == NOWN - 1);
    ml_plan_free(p);
    ml_board_free(g);
    ml_board_free(b);
}

/* ------------------------------------------------------------------ random boards */
static ml_board *random_board(ml_ctx *ctx)
{
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 101, 255};
    int n = ns[rnd_range(0, 12)];
    ml_board *b = NULL;
    if (rnd_range(0, 9) == 0) {   /* a graph board */
        int64_t indptr[6] = {0}, cells[15];
        size_t taps = (size_t)rnd_range(1, 5), k = 0;
        for (size_t j = 0; j < taps; j++) {
            int64_t m = rnd_range(0, 3);
            for (int64_t i = 0; i < m; i++)
                cells[k++] = rnd_range(0, 4);
            indptr[j + 1] = (int64_t)k;
        }
        return ml_board_from_effects(ctx, n, 5, taps, indptr, cells, &b) == ML_OK ? b : NULL;
    }
    int64_t rows = rnd_range(1, 9), cols = rnd_range(1, 9);
    if (rnd_range(0, 20) == 0) {
        rows = rnd_range(12000, 20000);
        cols = rnd_range(12000, 20000);
    }
    ml_grid *g = NULL;
    if (ml_grid_new(ctx, rows, cols, n, &g) != ML_OK)
        return NULL;
    int giant = rows * cols > ML_MAX_TILES;
    if (rnd_range(0, 1)) {
        ml_grid_set_pattern(ctx, g, (int)rnd_range(0, ML_PATTERN_COUNT - 1));
    } else {
        int64_t dr[9], dc[9];
        size_t k = (size_t)rnd_range(0, 9);
        for (size_t i = 0; i < k; i++) {
            dr[i] = rnd_range(-3, 3);
            dc[i] = rnd_range(-3, 3);
        }
        ml_grid_set_offsets(ctx, g, k, dr, dc);
    }
    ml_grid_set_wrap(ctx, g, rnd_range(0, 3) == 0);
    if (!giant && rnd_range(0, 3) == 0) {
        uint8_t *mask = calloc((size_t)(rows * cols), 1);
        for (int64_t i = 0; i < rows * cols; i++)
            mask[i] = rnd_range(0, 5) == 0;
        ml_grid_set_locked(ctx, g, mask);
        free(mask);
    }
    if (!giant && rnd_range(0, 4) == 0) {
        uint32_t at[2], *index = malloc((size_t)(rows * cols) * sizeof *index);
        ml_grid_palette_add(ctx, g, ML_PATTERN_KNIGHT, &at[0]);
        ml_grid_palette_add(ctx, g, ML_PATTERN_CROSS, &at[1]);
        for (int64_t i = 0; i < rows * cols; i++)
            index[i] = at[rnd_range(0, 1)];
        ml_grid_set_mixed(ctx, g, index);
        free(index);
    }
    int rc = ml_grid_build(ctx, g, &b);
    ml_grid_free(g);
    return rc == ML_OK ? b : NULL;
}

static void check_plan(ml_ctx *ctx, const ml_board *b, const char *method, const char *backend)
{
    ml_plan *p = NULL;
    int rc = ml_plan_choose(ctx, b, method, backend, &p);
    if (rc != ML_OK) {
        CHECK(rc == ML_ENOTCOVERED && p == NULL, "%d %s", rc, ml_errmsg(ctx));
        CHECK(strstr(ml_errmsg(ctx), "does not cover this board: ") != NULL);
        return;
    }
    /* every other engine listed once, none twice, the plan's engine not at all */
    size_t k = ml_plan_rejected_count(p);
    CHECK(k == (size_t)ml_engine_count() - 1, "%zu", k);
    for (size_t i = 0; i < k; i++) {
        const char *name, *why;
        CHECK(ml_plan_rejected(p, i, &name, &why) == ML_OK && *why);
        CHECK(strcmp(name, ml_plan_engine(p)) != 0);
        for (size_t j = 0; j < i; j++) {
            const char *other;
            ml_plan_rejected(p, j, &other, NULL);
            CHECK(strcmp(name, other) != 0);
        }
    }
    int i = ml_engine_index(ml_plan_engine(p)), covers = 0;
    double cost = -1;
    CHECK(ml_engine_covers(ctx, i, b, &covers, NULL, 0, NULL) == ML_OK && covers);
    CHECK(ml_engine_cost(ctx, i, b, &cost) == ML_OK && cost == ml_plan_cost(p));
    size_t len = 0, len2 = 0;
    CHECK(ml_plan_explain(ctx, p, NULL, 0, &len) == ML_OK);
    char *t = malloc(len + 1);
    CHECK(ml_plan_explain(ctx, p, t, len + 1, &len2) == ML_OK && len2 == len && strlen(t) == len);
    free(t);
    CHECK(ml_plan_to_json(ctx, p, NULL, 0, &len) == ML_OK);
    t = malloc(len + 1);
    CHECK(ml_plan_to_json(ctx, p, t, len / 2 + 1, &len2) == ML_OK && len2 == len &&
          strlen(t) == len / 2);
    free(t);
    ml_plan_free(p);
}

static void test_random_boards(ml_ctx *ctx)
{
    static const char *const methods[] = {"auto", "dense", "chase", "algebraic", "lifted",
                                          "tensor", NULL};
    for (int round = 0; round < 300; round++) {
        ml_board *b = random_board(ctx);
        CHECK(b != NULL, "%s", ml_errmsg(ctx));
        if (!b)
            continue;
        for (int m = 0; methods[m]; m++) {
            check_plan(ctx, b, methods[m], "native");
            check_plan(ctx, b, methods[m], "reference");
        }
        for (int i = 0; i < ml_engine_count(); i++) {
            check_plan(ctx, b, ml_engine_name(i), "native");
            int covers = 0;
            size_t len = 0;
            char why[8];
            CHECK(ml_engine_covers(ctx, i, b, &covers, why, sizeof why, &len) == ML_OK);
            CHECK(covers ? len == 0 && !why[0] : len > 0 && strlen(why) == (len < 7 ? len : 7));
        }
        ml_board_free(b);
    }
}

/* ------------------------------------------------------------------ the seam */
typedef struct { int releases, covers_calls, fail; } toy_user;

static int toy_covers(void *user, ml_ctx *ctx, const ml_board *b, int *covers, char *why,
                      size_t cap)
{
    toy_user *u = user;
    u->covers_calls++;
    if (u->fail == 1)
        return ml_ctx_fail(ctx, ML_EINVAL, "the toy is broken");
    if (u->fail == 2)
        return ML_ECALLBACK;
    *covers = ml_board_rows(b) <= 3;
    if (!*covers)
        snprintf(why, cap, "three rows at most, this board has %lld", (long long)ml_board_rows(b));
    return ML_OK;
}

static int toy_cost(void *user, ml_ctx *ctx, const ml_board *b, double *s)
{
    (void)user;
    (void)ctx;
    (void)b;
    *s = 1e-15;
    return ML_OK;
}

static void toy_release(void *user) { ((toy_user *)user)->releases++; }

static ml_engine_def toy_def(toy_user *u, const char *name)
{
    ml_engine_def d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    d.name = name;
    d.description = "every tap vector tried";
    d.auto_choose = 1;
    d.user = u;
    d.covers = toy_covers;
    d.cost = toy_cost;
    d.release = toy_release;
    return d;
}

static void test_seam(ml_ctx *ctx)
{
    toy_user u = {0, 0, 0};
    ml_engine_def d = toy_def(&u, "toy-brute");
    CHECK(ml_engine_register(ctx, &d) == ML_OK);
    CHECK(ml_engine_count() == NOWN + 1 && ml_engine_index("toy-brute") == NOWN);
    CHECK(!strcmp(ml_engine_family(NOWN), "toy-brute"));
    CHECK(ml_engine_register(ctx, &d) == ML_EINVAL);
    MSG(ctx, "engine 'toy-brute' is registered already (unregister it first)");
    ml_board *small = NULL, *big = NULL;
    ml_plan *p = NULL;
    ml_board_grid(ctx, 3, 3, 2, NULL, &small);
    ml_board_grid(ctx, 5, 5, 3, NULL, &big);
    CHECK(ml_plan_choose(ctx, small, NULL, NULL, &p) == ML_OK);
    CHECK(!strcmp(ml_plan_engine(p), "toy-brute") && !strcmp(ml_plan_family(p), "toy-brute"));
    ml_plan_free(p);
    CHECK(ml_plan_choose(ctx, big, NULL, NULL, &p) == ML_OK);
    const char *name, *why;
    CHECK(ml_plan_rejected(p, 0, &name, &why) == ML_OK && !strcmp(name, "toy-brute") &&
          !strcmp(why, "three rows at most, this board has 5"));
    ml_plan_free(p);
    CHECK(ml_plan_choose(ctx, big, "toy-brute", NULL, &p) == ML_ENOTCOVERED);
    CHECK(PREFIX(ml_errmsg(ctx), "method='toy-brute' does not cover this board: toy-brute: "
                                 "three rows at most, this board has 5; use"));
    u.fail = 1;
    p = NULL;
    CHECK(ml_plan_choose(ctx, small, NULL, NULL, &p) == ML_EINVAL && p == NULL);
    MSG(ctx, "the toy is broken");
    u.fail = 2;
    CHECK(ml_plan_choose(ctx, small, NULL, NULL, &p) == ML_ECALLBACK);
    MSG(ctx, "the engine toy-brute failed in covers without a message");
    u.fail = 0;
    CHECK(u.releases == 0);
    CHECK(ml_engine_unregister(ctx, "toy-brute") == ML_OK && u.releases == 1);
    CHECK(ml_engine_count() == NOWN && ml_engine_index("toy-brute") == -1);
    CHECK(ml_engine_unregister(ctx, "toy-brute") == ML_EINVAL);
    CHECK(PREFIX(ml_errmsg(ctx), "no engine 'toy-brute' is registered: dense-gf2, dense-zn, "
                                 "chase, "));
    /* names refused */
    const char *bad[] = {"auto", "dense", "algebraic", "", NULL};
    for (int i = 0; i < 5; i++) {
        d = toy_def(&u, bad[i]);
        CHECK(ml_engine_register(ctx, &d) == ML_EINVAL);
        CHECK(PREFIX(ml_errmsg(ctx), "an engine name must be a new non-empty string other "
                                     "than 'auto' and the family names ['algebraic', 'chase', "
                                     "'dense', 'lifted', 'tensor'], got "), "%s",
              ml_errmsg(ctx));
    }
    d = toy_def(&u, "chase");
    CHECK(ml_engine_register(ctx, &d) == ML_EINVAL);
    MSG(ctx, "engine 'chase' is registered already (unregister it first)");
    d.answers = 1u << 12;   /* Python's order: the name taken before the questions */
    CHECK(ml_engine_register(ctx, &d) == ML_EINVAL);
    MSG(ctx, "engine 'chase' is registered already (unregister it first)");
    d = toy_def(&u, "x");
    d.size = 8;
    CHECK(ml_engine_register(ctx, &d) == ML_ERANGE);
    d = toy_def(&u, "x");
    d.covers = NULL;
    CHECK(ml_engine_register(ctx, &d) == ML_EMISUSE);
    d = toy_def(&u, "x");
    d.backends = 4;
    CHECK(ml_engine_register(ctx, &d) == ML_EINVAL);
    CHECK(ml_engine_register(ctx, NULL) == ML_EMISUSE);
    CHECK(u.releases == 1 && ml_engine_count() == NOWN);
    /* the library's own engine unregistered is gone from the plans */
    ml_board_free(small);
    ml_board_free(big);
}

/* ml__engine_register_before: a binding's engine at its place in the table (Python's
 * reference engine before the chase): listed there, passed over there in the plans'
 * "not asked for" order, and a tie in cost goes to it over the engines after it. */
static void test_register_before(ml_ctx *ctx)
{
    toy_user u = {0, 0, 0};
    ml_engine_def d = toy_def(&u, "toy-placed");
    d.auto_choose = 0;
    CHECK(ml__engine_register_before(ctx, &d, "chase") == ML_OK);
    CHECK(ml_engine_count() == NOWN + 1 && ml_engine_index("toy-placed") == 2);
    CHECK(!strcmp(ml_engine_name(1), "dense-zn") && !strcmp(ml_engine_name(3), "chase"));
    CHECK(ml__engine_register_before(ctx, &d, "chase") == ML_EINVAL);
    MSG(ctx, "engine 'toy-placed' is registered already (unregister it first)");
    ml_board *b = NULL;
    ml_plan *p = NULL;
    ml_board_grid(ctx, 3, 3, 2, NULL, &b);
    CHECK(ml_plan_choose(ctx, b, "dense", NULL, &p) == ML_OK);
    const char *name = NULL, *why = NULL;
    size_t k = ml_plan_rejected_count(p);   /* dense-zn, then the others in table order */
    CHECK(k == NOWN && ml_plan_rejected(p, 1, &name, &why) == ML_OK &&
          !strcmp(name, "toy-placed") && !strcmp(why, "a variant, chosen only by its name"),
          "%s", name ? name : "");
    CHECK(ml_plan_rejected(p, 2, &name, &why) == ML_OK && !strcmp(name, "chase"));
    ml_plan_free(p);
    CHECK(ml_engine_unregister(ctx, "toy-placed") == ML_OK && u.releases == 1);
    /* a name that is not registered (or none): at the end */
    d = toy_def(&u, "toy-last");
    CHECK(ml__engine_register_before(ctx, &d, "no-such-engine") == ML_OK);
    CHECK(ml_engine_index("toy-last") == NOWN);
    CHECK(ml_engine_unregister(ctx, "toy-last") == ML_OK);
    CHECK(ml__engine_register_before(ctx, &d, NULL) == ML_OK);
    CHECK(ml_engine_index("toy-last") == NOWN);
    /* before the first engine: a tie in cost (1e-15 both) goes to the earlier one */
    toy_user v = {0, 0, 0};
    ml_engine_def e = toy_def(&v, "toy-first");
    CHECK(ml__engine_register_before(ctx, &e, "dense-gf2") == ML_OK);
    CHECK(ml_engine_index("toy-first") == 0 && ml_engine_index("toy-last") == NOWN + 1);
    CHECK(ml_plan_choose(ctx, b, NULL, NULL, &p) == ML_OK);
    CHECK(!strcmp(ml_plan_engine(p), "toy-first"), "%s", ml_plan_engine(p));
    ml_plan_free(p);
    CHECK(ml_engine_unregister(ctx, "toy-first") == ML_OK);
    CHECK(ml_engine_unregister(ctx, "toy-last") == ML_OK);
    CHECK(u.releases == 3 && v.releases == 1 && ml_engine_count() == NOWN);
    ml_board_free(b);
}

/* ------------------------------------------------------------------ costs and reasons */
typedef struct { double cost; size_t why; } odd_user;

static int odd_covers(void *user, ml_ctx *ctx, const ml_board *b, int *covers, char *why,
                      size_t cap)
{
    (void)ctx;
    (void)b;
    const odd_user *u = user;
    *covers = u->why == 0;
    if (u->why && cap) {   /* snprintf convention: at most cap - 1 bytes and a NUL */
        size_t k = u->why < cap - 1 ? u->why : cap - 1;
        for (size_t i = 0; i < k; i++)
            why[i] = (char)('a' + i % 26);
        why[k] = 0;
    }
    return ML_OK;
}

static int odd_cost(void *user, ml_ctx *ctx, const ml_board *b, double *s)
{
    (void)ctx;
    (void)b;
    *s = ((const odd_user *)user)->cost;
    return ML_OK;
}

static ml_engine_def odd_def(odd_user *u, const char *name)
{
    ml_engine_def d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    d.name = name;
    d.description = "a test's engine";
    d.auto_choose = 1;
    d.user = u;
    d.covers = odd_covers;
    d.cost = odd_cost;
    return d;
}

/* Python's registry refuses a cost that is not a finite number >= 0 (engines/registry.py
 * _cost), with this message */
static void test_bad_costs(ml_ctx *ctx)
{
    ml_board *b = NULL;
    CHECK(ml_board_grid(ctx, 4, 4, 2, NULL, &b) == ML_OK);
    const double bad[] = {NAN, INFINITY, -INFINITY, -1.0, -1e-300};
    const char *repr[] = {"nan", "inf", "-inf", "-1.0", "-1e-300"};
    for (int k = 0; k < 5; k++) {
        odd_user u = {bad[k], 0};
        ml_engine_def d = odd_def(&u, "odd-cost");
        CHECK(ml_engine_register(ctx, &d) == ML_OK);
        char want[256];
        snprintf(want, sizeof want, "the engine odd-cost estimated a cost of %s s for this "
                                    "board; a cost must be a finite number of seconds >= 0",
                 repr[k]);
        ml_plan *p = NULL;
        CHECK(ml_plan_choose(ctx, b, NULL, NULL, &p) == ML_EINVAL && p == NULL, "%d", k);
        MSG(ctx, want);
        CHECK(ml_errmsg_id(ctx) == ML_M_ENGINE_COST);
        CHECK(ml_plan_choose(ctx, b, "odd-cost", NULL, &p) == ML_EINVAL && p == NULL);
        MSG(ctx, want);
        double s = 7;
        int i = ml_engine_index("odd-cost");
        CHECK(ml_engine_cost(ctx, i, b, &s) == ML_EINVAL && s == 7);
        MSG(ctx, want);
        /* a plan not asking it (by name) is not refused */
        CHECK(ml_plan_choose(ctx, b, "dense-gf2", NULL, &p) == ML_OK);
        ml_plan_free(p);
        CHECK(ml_engine_unregister(ctx, "odd-cost") == ML_OK);
    }
    odd_user zero = {0.0, 0};   /* 0 and -0.0 are costs */
    ml_engine_def d = odd_def(&zero, "odd-cost");
    CHECK(ml_engine_register(ctx, &d) == ML_OK);
    ml_plan *p = NULL;
    CHECK(ml_plan_choose(ctx, b, NULL, NULL, &p) == ML_OK && !strcmp(ml_plan_engine(p), "odd-cost"));
    ml_plan_free(p);
    zero.cost = -0.0;
    CHECK(ml_plan_choose(ctx, b, NULL, NULL, &p) == ML_OK && !strcmp(ml_plan_engine(p), "odd-cost"));
    ml_plan_free(p);
    CHECK(ml_engine_unregister(ctx, "odd-cost") == ML_OK);
    ml_board_free(b);
}

/* a seam engine's reason, however long, is kept whole in the plan, its text and JSON */
static void test_long_reason(ml_ctx *ctx)
{
    ml_board *b = NULL;
    CHECK(ml_board_grid(ctx, 4, 4, 2, NULL, &b) == ML_OK);
    const size_t sizes[] = {5000, 4095, 4096, 40000};
    for (int k = 0; k < 4; k++) {
        size_t n = sizes[k];
        odd_user u = {1e-12, n};   /* the cheapest: asked first */
        ml_engine_def d = odd_def(&u, "long-why");
        CHECK(ml_engine_register(ctx, &d) == ML_OK);
        char *want = malloc(n + 1);
        for (size_t i = 0; i < n; i++)
            want[i] = (char)('a' + i % 26);
        want[n] = 0;
        ml_plan *p = NULL;
        CHECK(ml_plan_choose(ctx, b, NULL, NULL, &p) == ML_OK);
        const char *name = NULL, *why = NULL;
        CHECK(ml_plan_rejected(p, 0, &name, &why) == ML_OK && !strcmp(name, "long-why"));
        CHECK(why && strlen(why) == n && !strcmp(why, want), "%zu: %zu", n, why ? strlen(why) : 0);
        size_t len = 0;
        CHECK(ml_plan_explain(ctx, p, NULL, 0, &len) == ML_OK);
        char *t = malloc(len + 1);
        CHECK(ml_plan_explain(ctx, p, t, len + 1, &len) == ML_OK && strstr(t, want));
        free(t);
        CHECK(ml_plan_to_json(ctx, p, NULL, 0, &len) == ML_OK);
        t = malloc(len + 1);
        CHECK(ml_plan_to_json(ctx, p, t, len + 1, &len) == ML_OK && strstr(t, want));
        free(t);
        ml_plan_free(p);
        int covers = 1;
        len = 0;
        char small[16];
        int i = ml_engine_index("long-why");
        CHECK(ml_engine_covers(ctx, i, b, &covers, small, sizeof small, &len) == ML_OK);
        CHECK(!covers && len == n && strlen(small) == 15 && !strncmp(small, want, 15));
        CHECK(ml_engine_unregister(ctx, "long-why") == ML_OK);
        free(want);
    }
    ml_board_free(b);
}

/* ------------------------------------------------------------------ loading */
/* An allocation failing at any step of loading the library's engines is reported (count
 * -1, ML_ENOMEM), never a table missing an engine; the next call loads them all. Runs
 * first (before anything loads the table). */
static void test_load_out_of_memory(void)
{
    ml_ctx *ctx = NULL;
    CHECK(ml_ctx_new(&ctx) == ML_OK);
    ml_board *b = NULL;
    CHECK(ml_board_grid(ctx, 3, 3, 2, NULL, &b) == ML_OK);
    int steps = 0;
    for (long k = 1; k < 1000; k++) {
        ml__registry_fail_alloc = k;
        int n = ml_engine_count();
        ml__registry_fail_alloc = 0;
        if (n >= 0) {
            CHECK(n == NOWN, "failing allocation %ld: %d engines", k, n);
            break;
        }
        steps++;
        /* every call refuses while the load fails (the hook failing its first
         * allocation), and none sees a part of the table */
        ml_plan *p = NULL;
        ml__registry_fail_alloc = 1;
        CHECK(ml_plan_choose(ctx, b, NULL, NULL, &p) == ML_ENOMEM && p == NULL);
        MSG(ctx, "out of memory in ml_plan_choose");
        ml__registry_fail_alloc = 1;
        CHECK(ml_engine_name(0) == NULL);
        ml__registry_fail_alloc = 1;
        CHECK(ml_engine_index("dense-gf2") == -1);
        ml__registry_fail_alloc = 1;
        int covers = 0;
        CHECK(ml_engine_covers(ctx, 0, b, &covers, NULL, 0, NULL) == ML_ENOMEM);
        ml__registry_fail_alloc = 2;
        toy_user u = {0, 0, 0};
        ml_engine_def d = toy_def(&u, "toy-early");
        CHECK(ml_engine_register(ctx, &d) == ML_ENOMEM);
        ml__registry_fail_alloc = 1;
        CHECK(ml_engine_unregister(ctx, "chase") == ML_ENOMEM);
        ml__registry_fail_alloc = 0;
    }
    CHECK(steps >= NOWN, "%d", steps);   /* an engine a step at least */
    ml__registry_fail_alloc = 0;
    test_engines();   /* whole, in order */
    ml_board_free(b);
    ml_ctx_free(ctx);
}

/* ------------------------------------------------------------------ threads */
static void *chooser(void *arg)
{
    (void)arg;
    ml_ctx *ctx = NULL;
    ml_ctx_new(&ctx);
    ml_board *b = NULL;
    ml_board_grid(ctx, 7, 7, 6, "square", &b);
    for (int i = 0; i < 200; i++) {
        ml_plan *p = NULL;
        if (ml_plan_choose(ctx, b, "auto", NULL, &p) == ML_OK) {
            size_t len = 0;
            ml_plan_explain(ctx, p, NULL, 0, &len);
            ml_plan_free(p);
        }
    }
    ml_board_free(b);
    ml_ctx_free(ctx);
    return NULL;
}

static void test_threads(ml_ctx *ctx)
{
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, chooser, NULL);
    toy_user u = {0, 0, 0};
    for (int i = 0; i < 100; i++) {
        ml_engine_def d = toy_def(&u, "toy-thread");
        CHECK(ml_engine_register(ctx, &d) == ML_OK);
        CHECK(ml_engine_unregister(ctx, "toy-thread") == ML_OK);
    }
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    CHECK(u.releases == 100, "%d", u.releases);
}

/* readers of the accessors while other threads register and unregister engines: every
 * string read stays valid (ASan reports a use after free otherwise) and is one a
 * registered engine had */
static _Atomic int churning;

static void *reader(void *arg)
{
    (void)arg;
    long seen = 0;
    while (atomic_load(&churning)) {
        int n = ml_engine_count();
        for (int i = 0; i <= n; i++) {
            const char *name = ml_engine_name(i), *fam = ml_engine_family(i),
                       *desc = ml_engine_description(i);
            if (name && fam && desc) {
                seen++;
                int own = 0;
                for (int k = 0; k < NOWN && !own; k++)
                    own = !strcmp(name, OWN[k]);
                CHECK(own || PREFIX(name, "churn-"), "%s", name);
                CHECK(strlen(fam) > 3 && strlen(desc) > 3);
            }
        }
    }
    return (void *)seen;
}

static void *churner(void *arg)
{
    long me = (long)arg;
    ml_ctx *ctx = NULL;
    ml_ctx_new(&ctx);
    toy_user u = {0, 0, 0};
    for (int i = 0; i < 2000; i++) {
        char *name = malloc(32), *desc = malloc(64);   /* freed once registered: copied */
        snprintf(name, 32, "churn-%ld-%d", me, i % 50);
        snprintf(desc, 64, "a churning engine, number %d of thread %ld", i % 50, me);
        ml_engine_def d = toy_def(&u, name);
        d.description = desc;
        d.family = name;
        CHECK(ml_engine_register(ctx, &d) == ML_OK);
        free(name);
        free(desc);
        snprintf(name = malloc(32), 32, "churn-%ld-%d", me, i % 50);
        CHECK(ml_engine_unregister(ctx, name) == ML_OK);
        free(name);
    }
    ml_ctx_free(ctx);
    CHECK(u.releases == 2000, "%d", u.releases);
    return NULL;
}

static void test_readers(ml_ctx *ctx)
{
    (void)ctx;
    pthread_t r[2], w[2];
    atomic_store(&churning, 1);
    for (long i = 0; i < 2; i++)
        pthread_create(&r[i], NULL, reader, NULL);
    for (long i = 0; i < 2; i++)
        pthread_create(&w[i], NULL, churner, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], NULL);
    atomic_store(&churning, 0);
    long seen = 0;
    for (int i = 0; i < 2; i++) {
        void *v = NULL;
        pthread_join(r[i], &v);
        seen += (long)v;
    }
    CHECK(seen > 1000, "%ld", seen);
    CHECK(ml_engine_count() == NOWN);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    test_load_out_of_memory();
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    test_engines();
    test_example_plan(ctx);
    test_refusals(ctx);
    test_random_boards(ctx);
    test_seam(ctx);
    test_register_before(ctx);
    test_threads(ctx);
    test_readers(ctx);
    test_bad_costs(ctx);
    test_long_reason(ctx);
    test_engines();   /* as at the start */
    ml_ctx_free(ctx);
    return t_done();
}
