/* t-solver_life: csrc/api/solver.c's lifetimes, concurrency and size arithmetic, through
 * seam engines: an engine unregistered while a solver uses it stays alive (its release
 * runs once, when the last solver lets it go, on every path of ml_solver_new including
 * failed builds); a second thread (or a callback re-entering the solver) gets ML_EMISUSE
 * "the solver is in use" while the first call runs, and the solver works again after;
 * on giant boards (2^32 tiles: n_cells * n_taps = 2^64 wraps to 0 in 64 bits) the dense
 * fallback is refused with check_fallback_size's message and the kernel with
 * _generators' message, and the dense engines' own size checks refuse such a board
 * with _gf2.pxi / _zn.pxi's messages, instead of comparing wrapped products; a stop
 * requested before a solver's first question (of each question, on every engine in C)
 * leaves the solver answering as a fresh one: no partial factorisation or rank is kept.
 * Exit status 0 when every check holds.
 * ml-test-sources: api/solver.c api/solver_solve.c search/canon.c api/registry.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry_own.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/solve.c api/solve_bnb.c api/solve_budget.c search/bnb_zn.c api/result.c api/board_json.c api/board_json_words.c api/json_fields.c search/coset.c search/coset_batch.c search/coset_gf2.c search/coset_zn.c search/driver.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c search/cube_plan.c search/cube.c search/symmetry.c */
#define ML_T_SEED 0x11FE5ull
#include "include/modlights.h"
#include "api/ctx.h"
#include "engines/dense.h"
#include "tests/t-util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG(ctx, want)                                                                   \
    CHECK(!strcmp(ml_errmsg(ctx), want), "got \"%s\" want \"%s\"", ml_errmsg(ctx), want)
#define OK(call) CHECK((call) == ML_OK, "%s: %s", #call, ml_errmsg(ctx))

static ml_ctx *ctx;

/* ------------------------------------------------------------------ a toy engine
 * Covers every board; its state is a small struct; nullity and kernel size are what the
 * test sets; every other question is left to the solver's fallback. */
typedef struct toy {
    _Atomic int releases, builds, destroys;
    uint64_t nullity;
    int fail_build;
    /* blocking nullity: the callback waits until go is set (entered says it runs) */
    int block;
    _Atomic int entered, go;
    ml_solver *self;   /* a callback re-entering its own solver */
    int reenter_rc;
    char reenter_msg[256];
    int ks_count;       /* nonzero: kernel_size answers this count (a broken engine) */
    uint32_t ks_prime;  /* nonzero: ... and this prime */
} toy;

static int toy_covers(void *u, ml_ctx *c, const ml_board *b, int *covers, char *why,
                      size_t cap)
{
    (void)u, (void)c, (void)b, (void)why, (void)cap;
    *covers = 1;
    return ML_OK;
}
static int toy_cost(void *u, ml_ctx *c, const ml_board *b, double *sec)
{
    (void)u, (void)c, (void)b;
    *sec = 1e12;   /* never the cheapest: only chosen by name */
    return ML_OK;
}
static int toy_build(void *u, ml_ctx *c, const ml_board *b, void **eng)
{
    (void)b;
    toy *t = u;
    if (t->fail_build)
        return ml_ctx_fail(c, ML_EINVAL, "the toy refuses to build");
    t->builds++;
    *eng = malloc(16);
    return *eng ? ML_OK : ML_ENOMEM;
}
static void toy_destroy(void *u, void *eng)
{
    toy *t = u;
    t->destroys++;
    free(eng);
}
static void toy_release(void *u)
{
    toy *t = u;
    t->releases++;
}
static int toy_nullity(void *u, ml_ctx *c, void *e, uint64_t *v)
{
    (void)c, (void)e;
    toy *t = u;
    if (t->block) {
        atomic_store(&t->entered, 1);
        while (!atomic_load(&t->go))
            ;
    }
    if (t->self) {
        uint64_t rk = 0;
        t->reenter_rc = ml_solver_rank(NULL, t->self, &rk);
        snprintf(t->reenter_msg, sizeof t->reenter_msg, "%s", ml_errmsg(NULL));
    }
    *v = t->nullity;
    return ML_OK;
}
static int toy_ks(void *u, ml_ctx *c, void *e, ml_factored *f)
{
    (void)c, (void)e;
    toy *t = u;
    memset(f, 0, sizeof *f);
    if (t->nullity) {
        f->count = 1;
        f->prime[0] = 3;
        f->exp[0] = t->nullity;
    }
    if (t->ks_count)
        f->count = t->ks_count;
    if (t->ks_prime)
        f->prime[0] = t->ks_prime;
    return ML_OK;
}
static int toy_solve(void *u, ml_ctx *c, void *e, size_t k, const uint8_t *R, uint8_t *X,
                     uint8_t *ok)
{
    (void)u, (void)c, (void)e, (void)k, (void)R, (void)X, (void)ok;
    return ml_ctx_fail(c, ML_EINVAL, "the toy does not solve");
}
static int toy_gens(void *u, ml_ctx *c, void *e, uint64_t limit, uint64_t *k, uint8_t *H,
                    uint32_t *o)
{
    (void)u, (void)c, (void)e, (void)limit, (void)H, (void)o;
    *k = 0;
    return ML_OK;
}

static void toy_register(const char *name, toy *t)
{
    ml_engine_def def;
    memset(&def, 0, sizeof def);
    def.size = sizeof def;
    def.name = name;
    def.description = "a toy for the solver's lifetimes";
    def.user = t;
    def.covers = toy_covers;
    def.cost = toy_cost;
    def.build = toy_build;
    def.destroy = toy_destroy;
    def.solve = toy_solve;
    def.nullity = toy_nullity;
    def.kernel_size = toy_ks;
    def.generators = toy_gens;
    def.release = toy_release;
    OK(ml_engine_register(ctx, &def));
}

/* ------------------------------------------------------------------ lifetimes */
static void unregistered_while_used(void)
{
    static toy t;
    memset(&t, 0, sizeof t);
    t.nullity = 1;
    toy_register("toy-life", &t);
    ml_board *b = NULL;
    OK(ml_board_grid(ctx, 3, 3, 3, NULL, &b));
    ml_solver *s1 = NULL, *s2 = NULL;
    OK(ml_solver_new(ctx, b, "toy-life", &s1));
    OK(ml_solver_new(ctx, b, "toy-life", &s2));
    OK(ml_engine_unregister(ctx, "toy-life"));
    CHECK(t.releases == 0, "released while two solvers hold it: %d", t.releases);
    uint64_t v = 0;
    OK(ml_solver_nullity(ctx, s1, &v));
    CHECK(v == 1);
    ml_solver_free(s1);
    CHECK(t.releases == 0, "released while a solver holds it: %d", t.releases);
    OK(ml_solver_rank(ctx, s2, &v));
    CHECK(v == 8);
    ml_solver_free(s2);
    CHECK(t.releases == 1 && t.builds == 2 && t.destroys == 2, "%d releases %d/%d",
          t.releases, t.builds, t.destroys);
    /* a plan kept past the unregistering: the solver refuses it, the engine is gone */
    memset(&t, 0, sizeof t);
    toy_register("toy-life", &t);
    ml_plan *p = NULL;
    OK(ml_plan_choose(ctx, b, "toy-life", NULL, &p));
    OK(ml_engine_unregister(ctx, "toy-life"));
    CHECK(t.releases == 1);
    CHECK(ml_solver_new_plan(ctx, b, p, &s1) == ML_EINVAL && !s1);
    CHECK(strstr(ml_errmsg(ctx), "it was unregistered since the plan was made") != NULL, "%s",
          ml_errmsg(ctx));
    ml_plan_free(p);
    /* a failed build gives its reference back: release runs at unregistering */
    memset(&t, 0, sizeof t);
    t.fail_build = 1;
    toy_register("toy-life", &t);
    CHECK(ml_solver_new(ctx, b, "toy-life", &s1) == ML_EINVAL && !s1);
    MSG(ctx, "the toy refuses to build");
    OK(ml_engine_unregister(ctx, "toy-life"));
    CHECK(t.releases == 1 && t.builds == 0 && t.destroys == 0, "%d releases", t.releases);
    ml_board_free(b);
}

/* ------------------------------------------------------------------ one thread at a time */
typedef struct call {
    ml_solver *s;
    int rc;
    uint64_t v;
} call;

static void *nullity_thread(void *arg)
{
    call *c = arg;
    ml_ctx *own = NULL;
    if (ml_ctx_new(&own))
        return NULL;
    c->rc = ml_solver_nullity(own, c->s, &c->v);
    ml_ctx_free(own);
    return NULL;
}

static void busy(void)
{
    static toy t;
    memset(&t, 0, sizeof t);
    t.nullity = 2;
    t.block = 1;
    toy_register("toy-busy", &t);
    ml_board *b = NULL;
    OK(ml_board_grid(ctx, 3, 3, 3, NULL, &b));
    ml_solver *s = NULL;
    OK(ml_solver_new(ctx, b, "toy-busy", &s));
    call c = {s, -1, 0};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, nullity_thread, &c) == 0);
    while (!atomic_load(&t.entered))
        ;
    uint64_t v = 0;
    CHECK(ml_solver_rank(ctx, s, &v) == ML_EMISUSE);
    MSG(ctx, "ml_solver_rank: the solver is in use by another call (one thread at a time)");
    atomic_store(&t.go, 1);
    pthread_join(th, NULL);
    CHECK(c.rc == ML_OK && c.v == 2, "rc %d v %llu", c.rc, (unsigned long long)c.v);
    t.block = 0;
    OK(ml_solver_rank(ctx, s, &v));   /* given back after the call */
    CHECK(v == 7);
    /* a callback re-entering its own solver */
    t.self = s;
    OK(ml_solver_nullity(ctx, s, &v));
    CHECK(t.reenter_rc == ML_EMISUSE, "%d", t.reenter_rc);
    CHECK(!strcmp(t.reenter_msg,
                  "ml_solver_rank: the solver is in use by another call (one thread at a time)"),
          "%s", t.reenter_msg);
    t.self = NULL;
    ml_solver_free(s);
    OK(ml_engine_unregister(ctx, "toy-busy"));
    CHECK(t.releases == 1);
    ml_board_free(b);
}

/* ------------------------------------------------------------------ broken answers */
/* A kernel size that is not a factored count (a count past ML_MAX_PRIMES: its primes
 * would be read past the struct's arrays; a prime that is not one) is the engine's
 * failure, not read. */
static void broken_kernel_size(void)
{
    static toy t;
    memset(&t, 0, sizeof t);
    toy_register("toy-broken", &t);
    ml_board *b = NULL;
    OK(ml_board_grid(ctx, 3, 3, 3, NULL, &b));
    ml_solver *s = NULL;
    OK(ml_solver_new(ctx, b, "toy-broken", &s));
    static const struct {
        int count;
        uint32_t prime;
        int bad_count;
    } cases[] = {{7, 0, 7}, {-1, 0, -1}, {1, 4, 1}, {2, 3, 2}};   /* {3, 3}: twice */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t.nullity = i == 0 ? 0 : 1;   /* exp[0] = 0: is_unique would read exp[4..6] */
        t.ks_count = cases[i].count;
        t.ks_prime = cases[i].prime;
        if (cases[i].count == 2)
            t.ks_prime = 0;   /* prime[1] is 0 after the memset: not a prime */
        char want[256];
        snprintf(want, sizeof want,
                 "the engine toy-broken's kernel_size: not a factored count (count %d: 0 to "
                 "4 distinct primes from 2 to 255, each once)",
                 cases[i].bad_count);
        int unique = 0;
        CHECK(ml_solver_is_unique(ctx, s, &unique) == ML_ECALLBACK, "case %zu: %s", i,
              ml_errmsg(ctx));
        MSG(ctx, want);
        ml_factored f;
        CHECK(ml_solver_kernel_size(ctx, s, &f) == ML_ECALLBACK, "case %zu", i);
        MSG(ctx, want);
        CHECK(ml_errcode(ctx) == ML_ECALLBACK);
    }
    t.ks_count = 0;
    t.ks_prime = 0;
    int unique = 1;
    OK(ml_solver_is_unique(ctx, s, &unique));   /* a sound answer again */
    CHECK(unique == 0);
    ml_solver_free(s);
    OK(ml_engine_unregister(ctx, "toy-broken"));
    ml_board_free(b);
}

/* ------------------------------------------------------------------ giant boards */
static void giant(void)
{
    static toy t;
    memset(&t, 0, sizeof t);
    toy_register("toy-giant", &t);
    for (int n = 2; n <= 3; n++) {
        ml_board *b = NULL;
        OK(ml_board_grid(ctx, 65536, 65536, n, NULL, &b));   /* 2^32 cells and taps */
        CHECK(ml_board_is_giant(b));
        ml_solver *s = NULL;
        OK(ml_solver_new(ctx, b, "toy-giant", &s));
        /* Python: check_fallback_size(board, plan.family) before any fallback */
        char want[512];
        snprintf(want, sizeof want,
                 "not available with method='toy-giant' on a board this large (4294967296 x "
                 "4294967296 tap matrix, more than 268435456 entries); use method='dense' on "
                 "a smaller board");
        t.nullity = 0;
        unsigned det = 0;
        if (n == 2) {   /* over GF(2) a trivial kernel is det 1: no fallback needed */
            OK(ml_solver_det(ctx, s, &det));
            CHECK(det == 1);
        } else {
            CHECK(ml_solver_det(ctx, s, &det) == ML_ETOOLARGE, "det: %s", ml_errmsg(ctx));
            MSG(ctx, want);
        }
        uint8_t one = 0;
        CHECK(ml_solver_inverse(ctx, s, &one) == ML_ETOOLARGE);
        MSG(ctx, want);
        CHECK(ml_solver_pseudo_inverse(ctx, s, &one) == ML_ETOOLARGE);
        MSG(ctx, want);
        /* Solver._generators: nullity * n_taps bytes (2^64 here) over the cap, whatever H */
        t.nullity = (uint64_t)1 << 32;
        uint32_t orders[1];
        CHECK(ml_solver_kernel(ctx, s, NULL, orders) == ML_ETOOLARGE, "kernel n=%d: %s", n,
              ml_errmsg(ctx));
        /* (its byte count, 2^64, is past what %llu prints: only the start is Python's) */
        CHECK(!strncmp(ml_errmsg(ctx), "the kernel has 4294967296 generators of 4294967296 "
                       "taps: ", 56), "%s", ml_errmsg(ctx));
        ml_solver_free(s);
        /* the dense engines' own checks (_gf2.pxi, _zn.pxi) on the same board */
        void *eng = NULL;
        int rc = ml__dense_ops_for(n)->build(NULL, ctx, b, &eng);
        CHECK(rc == (n == 2 ? ML_ERANGE : ML_ETOOLARGE) && !eng, "dense build n=%d: %d %s", n, rc, ml_errmsg(ctx));
        if (n == 2)
            MSG(ctx, "m must be from 0 to 268435456, got 4294967296");   /* _check_shape */
        else
            MSG(ctx, "the tap matrix 4294967296x4294967296 is too large for the dense native "
                     "Z/n engine (at most 268435456 entries)");
        if (eng)
            ml__dense_ops_for(n)->destroy(NULL, eng);
        ml_board_free(b);
    }
    OK(ml_engine_unregister(ctx, "toy-giant"));
}

/* ------------------------------------------------------------------ a stop first
 * ml_ctx_stop before a solver's very first question (solve, nullity, kernel, minimal
 * solve): the call returns ML_OK or ML_EINTERRUPTED, and afterwards the solver solves a
 * solvable state (checked by applying the taps) and gives a fresh solver's nullity. */
static void stopped_first(void)
{
    static const struct { const char *method, *pattern; int rows, cols, n; } cases[] = {
        {"dense-gf2", "cross", 6, 6, 2},       {"dense-gf2", "knight", 9, 7, 2},
        {"dense-zn", "cross", 5, 5, 6},        {"dense-zn", "square", 6, 5, 4},
        {"algebraic-cross", "cross", 8, 8, 3}, {"algebraic-cross", "cross", 9, 9, 2},
        {"algebraic-sym", "diagonal", 8, 8, 2}, {"chase-light", "cross", 7, 7, 5},
        {"chase-light", "square", 8, 6, 2},   {"chase-rowsolve", "knight", 8, 8, 2},
        {"chase-rowsolve", "knight", 7, 8, 3},
    };
    int ran = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ml_board *b = NULL;
        OK(ml_board_grid(ctx, cases[i].rows, cases[i].cols, cases[i].n, cases[i].pattern, &b));
        if (!b)
            continue;
        size_t cells = (size_t)cases[i].rows * (size_t)cases[i].cols;
        uint8_t *x = calloc(cells, 1), *st = calloc(cells, 1), *out = calloc(cells, 1);
        for (size_t j = 0; j < cells; j++) x[j] = (uint8_t)(rnd() % (uint64_t)cases[i].n);
        OK(ml_board_apply(ctx, b, st, x, st));   /* st = A x: solvable to st - A t = 0 */
        for (size_t j = 0; j < cells; j++) st[j] = (uint8_t)((cases[i].n - st[j]) % cases[i].n);
        ml_solver *fresh = NULL;
        uint64_t want = 0;
        OK(ml_solver_new(ctx, b, cases[i].method, &fresh));
        if (fresh)
            OK(ml_solver_nullity(ctx, fresh, &want));
        for (int q = 0; q < 4 && fresh; q++) {
            ml_solver *s = NULL;
            OK(ml_solver_new(ctx, b, cases[i].method, &s));
            if (!s)
                continue;
            ml_ctx_stop(ctx);
            ml_result *r = NULL;
            uint64_t null = 0;
            int rc;
            if (q == 0)
                rc = ml_solver_solve(ctx, s, st, ml_target_fill(0), 0, ml_budget_default(), &r);
            else if (q == 1)
                rc = ml_solver_nullity(ctx, s, &null);
            else if (q == 2) {
                uint8_t *H = malloc(want * cells + 1);
                uint32_t *o = malloc(want * sizeof *o + 4);
                rc = ml_solver_kernel(ctx, s, H, o);
                free(H);
                free(o);
            } else
                rc = ml_solver_solve(ctx, s, st, ml_target_fill(0), ML_SOLVE_MINIMAL,
                                     ml_budget_default(), &r);
            CHECK(rc == ML_OK || rc == ML_EINTERRUPTED, "%s %s %dx%d n=%d q=%d: status %d %s",
                  cases[i].method, cases[i].pattern, cases[i].rows, cases[i].cols, cases[i].n,
                  q, rc, ml_errmsg(ctx));
            if (rc != ML_EINTERRUPTED)   /* nothing polled: the stop stays for the next */
                atomic_store(&ctx->stop, 0);   /* call on ctx; this test's next is clean */
            ml_result_free(r);
            r = NULL;
            rc = ml_solver_solve(ctx, s, st, ml_target_fill(0), 0, ml_budget_default(), &r);
            CHECK(rc == ML_OK, "%s %s %dx%d n=%d q=%d: after the stop: %d %s", cases[i].method,
                  cases[i].pattern, cases[i].rows, cases[i].cols, cases[i].n, q, rc,
                  ml_errmsg(ctx));
            if (r) {
                OK(ml_board_apply(ctx, b, st, ml_result_taps(r), out));
                int zero = 1;
                for (size_t j = 0; j < cells; j++) zero &= out[j] == 0;
                CHECK(zero, "%s q=%d: the taps after the stop do not solve", cases[i].method, q);
                ran++;
            }
            ml_result_free(r);
            OK(ml_solver_nullity(ctx, s, &null));
            CHECK(null == want, "%s q=%d: nullity %llu after the stop, fresh %llu",
                  cases[i].method, q, (unsigned long long)null, (unsigned long long)want);
            ml_solver_free(s);
        }
        ml_solver_free(fresh);
        free(x);
        free(st);
        free(out);
        ml_board_free(b);
    }
    CHECK(ran == 44, "stopped first: %d solver runs checked of 44", ran);
}

int main(void)
{
    if (ml_ctx_new(&ctx))
        return 1;
    unregistered_while_used();
    busy();
    broken_kernel_size();
    giant();
    stopped_first();
    ml_ctx_free(ctx);
    return t_done();
}
