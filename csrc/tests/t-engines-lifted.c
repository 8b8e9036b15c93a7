/* t-engines-lifted: csrc/engines/lifted.c through its vtable (ml__lifted_ops), without
 * the solver, against the dense Z/n engine (engines/dense.c, ml__dense_zn_ops) as the
 * oracle: on random grids of the cross family (random counts of (0,0), (0,+-1), (+-1,0)
 * with a count of (-1, 0) prime to n, so every GF(p) engine covers them), on tori of that
 * family (sides 3..8: the torus's engine over GF(p)) and on the diagonal and a
 * symmetric 3 x 3 pattern without wrap (the symmetric patterns' engine, where it covers
 * every prime of n: ml__field_engine), and the diagonal and the knight on square tori
 * (algebraic-torus2 over each prime, sheared); n 4, 6, 8, 9,
 * 10, 12, 18, 25, 36, 100, 245; sides 1..8; a factor p^k, k > 1, singular mod p goes to
 * the choosing chase over Z/p^k, which never takes the row chase here: no holes, no
 * locks): nullity and kernel
 * size as the dense engine's; generators in ker A with their orders (h * order = 0 mod
 * n), as many as the nullity, the orders multiplying to |ker A|, a limit giving the
 * first rows, H = NULL the count alone; solve of A x0 (solvable, A X = b mod n by
 * substitution) and of random right-hand sides (ok exactly when the dense engine says
 * so, A X = b when ok, zero rows when not); kernel_fits. Boards it does not cover
 * (prime n, a knight's torus, a mixed grid) are refused with ML_EINTERNAL, never a crash.
 * (tests/native/test_capi_lifted.py compares with Python's engine.)
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x11F7EDull
#include "include/modlights.h"
#include "engines/lifted.h"
#include "engines/dense.h"
#include "api/registry_impl.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const int NS[] = {4, 6, 8, 9, 10, 12, 18, 25, 36, 100, 245};

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

static ml_board *grid(int64_t rows, int64_t cols, int n, size_t k, const int64_t *dr,
                      const int64_t *dc, int wrap)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    if (ml_grid_new(ctx, rows, cols, n, &g))
        return NULL;
    if (ml_grid_set_offsets(ctx, g, k, dr, dc) || ml_grid_set_wrap(ctx, g, wrap) ||
        ml_grid_build(ctx, g, &b))
        b = NULL;
    ml_grid_free(g);
    return b;
}

/* A random grid of the cross family whose count of (-1, 0) is a unit mod n. */
static ml_board *random_board(int n)
{
    static const int64_t R[] = {0, 0, 0, -1, 1}, C[] = {0, 1, -1, 0, 0};
    int64_t dr[32], dc[32];
    size_t k = 0;
    int up = 0;
    do
        up = (int)rnd_range(1, 5);
    while (gcd(up, n) != 1);
    for (int o = 0; o < 5; o++) {
        int times = o == 3 ? up : (int)rnd_range(0, 3);
        for (int t = 0; t < times; t++) {
            dr[k] = R[o];
            dc[k++] = C[o];
        }
    }
    int wrap = rnd_range(0, 2) == 0;
    if (!wrap)
        return grid(rnd_range(1, 8), rnd_range(1, 8), n, k, dr, dc, 0);
    return grid(rnd_range(3, 8), rnd_range(3, 8), n, k, dr, dc, 1);
}

/* The diagonal (with its centre) or the ring (the 3 x 3 box without its centre), no
 * wrap: left-right symmetric 3 x 3 patterns. */
static ml_board *symmetric_board(int n)
{
    static const int64_t DR[] = {0, 1, 1, -1, -1}, DC[] = {0, 1, -1, 1, -1};
    static const int64_t RR[] = {-1, -1, -1, 0, 0, 1, 1, 1}, RC[] = {-1, 0, 1, -1, 1, -1, 0, 1};
    int ring = rnd_range(0, 1);
    return grid(rnd_range(1, 8), rnd_range(1, 8), n, ring ? 8 : 5, ring ? RR : DR,
                ring ? RC : DC, 0);
}

/* The diagonal (sides 5..10) or the knight (sides 11..13, sheared spans up to 10) on a
 * square torus: algebraic-torus2 over each prime of n. */
static ml_board *named_torus(int n)
{
    static const int64_t DR[] = {0, 1, 1, -1, -1}, DC[] = {0, 1, -1, 1, -1};
    static const int64_t KR[] = {0, 1, 1, -1, -1, 2, 2, -2, -2},
                         KC[] = {0, 2, -2, 2, -2, 1, -1, 1, -1};
    int knight = rnd_range(0, 1);
    int64_t k = knight ? rnd_range(11, 13) : rnd_range(5, 10);
    return grid(k, k, n, knight ? 9 : 5, knight ? KR : DR, knight ? KC : DC, 1);
}

/* Whether an engine over GF(p) covers b for every prime p of n (lifted covers it). */
static int every_prime_covered(const ml_board *b)
{
    int n = ml_board_states(b);
    for (int p = 2; p <= n; p++) {
        int prime = 1;
        for (int d = 2; d * d <= p; d++)
            prime &= p % d != 0;
        if (prime && n % p == 0 && !ml__field_engine(b, p, NULL, 0))
            return 0;
    }
    return 1;
}

/* y = A x mod n (by ml_board_apply from zero) */
static void apply(const ml_board *b, const uint8_t *x, uint8_t *y, size_t m)
{
    uint8_t *zero = calloc(m + 1, 1);
    CHECK(zero && ml_board_apply(ctx, b, zero, x, y) == ML_OK);
    free(zero);
}

static uint64_t log_size(const ml_factored *f, int p)
{
    for (int i = 0; i < f->count; i++)
        if ((int)f->prime[i] == p)
            return f->exp[i];
    return 0;
}

static int check_board(ml_board *b)
{
    const ml_engine_def *L = &ml__lifted_ops, *D = &ml__dense_zn_ops;
    int n = ml_board_states(b);
    size_t m = (size_t)ml_board_size(b);
    void *e = NULL, *d = NULL;
    int rc = L->build(NULL, ctx, b, &e);
    CHECK(rc == ML_OK, "build: %s", ml_errmsg(ctx));
    CHECK(D->build(NULL, ctx, b, &d) == ML_OK, "dense: %s", ml_errmsg(ctx));
    if (rc || !d) {
        if (e)
            L->destroy(NULL, e);
        return 0;
    }
    uint64_t null = 0, dnull = 0, k = 0;
    ml_factored ks, dks;
    CHECK(L->nullity(NULL, ctx, e, &null) == ML_OK);
    CHECK(D->nullity(NULL, ctx, d, &dnull) == ML_OK);
    CHECK(null == dnull, "nullity %llu, dense %llu (n %d, %lldx%lld)", (unsigned long long)null,
          (unsigned long long)dnull, n, (long long)ml_board_rows(b), (long long)ml_board_cols(b));
    CHECK(L->kernel_size(NULL, ctx, e, &ks) == ML_OK);
    CHECK(D->kernel_size(NULL, ctx, d, &dks) == ML_OK);
    for (int p = 2; p <= n; p++)
        CHECK(log_size(&ks, p) == log_size(&dks, p), "kernel size at %d", p);
    int fits = 0;
    CHECK(L->kernel_fits(NULL, ctx, e, &fits) == ML_OK && fits);
    /* generators */
    CHECK(L->generators(NULL, ctx, e, UINT64_MAX, &k, NULL, NULL) == ML_OK && k == null);
    uint8_t *H = calloc((size_t)null * m + 1, 1), *H2 = calloc(m + 1, 1);
    uint32_t *ord = calloc((size_t)null + 1, sizeof *ord), ord2 = 0;
    uint8_t *y = malloc(m + 1), *x = malloc(m + 1), *X = malloc(3 * m + 1), *R = malloc(3 * m + 1);
    uint8_t ok[3], dok[3];
    CHECK(H && H2 && ord && y && x && X && R);
    CHECK(L->generators(NULL, ctx, e, null, &k, H, ord) == ML_OK && k == null);
    uint64_t val[256] = {0};   /* the orders' p-adic valuations, summed */
    for (uint64_t g = 0; g < k; g++) {
        apply(b, H + g * m, y, m);
        int zero = 1, killed = 1;
        for (size_t t = 0; t < m; t++) {
            zero &= y[t] == 0;
            killed &= (H[g * m + t] * ord[g]) % (unsigned)n == 0;
        }
        CHECK(zero && killed && ord[g] > 1 && n % (int)ord[g] == 0, "generator %llu",
              (unsigned long long)g);
        for (unsigned o = ord[g], p = 2; o > 1 && p < 256; p++)
            for (; o % p == 0; o /= p)
                val[p]++;
    }
    for (int p = 2; p < 256; p++)
        CHECK(val[p] == log_size(&ks, p), "orders multiply to |ker A| (at %d)", p);
    if (null) {
        CHECK(L->generators(NULL, ctx, e, 1, &k, H2, &ord2) == ML_OK && k == 1);
        CHECK(memcmp(H2, H, m) == 0 && ord2 == ord[0], "limit 1: the first generator");
    }
    /* solve: A x0, then two random right-hand sides */
    for (size_t t = 0; t < m; t++)
        x[t] = (uint8_t)rnd_range(0, n - 1);
    apply(b, x, R, m);
    for (size_t t = m; t < 3 * m; t++)
        R[t] = (uint8_t)rnd_range(0, n - 1);
    CHECK(D->solve(NULL, ctx, d, 3, R, X, dok) == ML_OK);
    CHECK(L->solve(NULL, ctx, e, 3, R, X, ok) == ML_OK);
    CHECK(ok[0], "A x0 solvable");
    for (int i = 0; i < 3; i++) {
        CHECK(ok[i] == dok[i], "row %d solvable as the dense engine", i);
        if (ok[i]) {
            apply(b, X + i * m, y, m);
            CHECK(memcmp(y, R + i * m, m) == 0, "A X = b, row %d", i);
        } else {
            int zero = 1;
            for (size_t t = 0; t < m; t++)
                zero &= X[i * m + t] == 0;
            CHECK(zero, "unsolvable row %d zero", i);
        }
    }
    free(H);
    free(H2);
    free(ord);
    free(y);
    free(x);
    free(X);
    free(R);
    L->destroy(NULL, e);
    D->destroy(NULL, d);
    return 1;
}

static void refused(ml_board *b, const char *what)
{
    void *e = NULL;
    CHECK(b != NULL, "%s", what);
    if (!b)
        return;
    int rc = ml__lifted_ops.build(NULL, ctx, b, &e);
    CHECK(rc == ML_EINTERNAL && !e, "%s: %d %s", what, rc, ml_errmsg(ctx));
    ml_board_free(b);
}

int main(void)
{
    CHECK(ml_ctx_new(&ctx) == ML_OK);
    int done = 0, failed = 0, tori = 0, sym = 0, knights = 0;
    for (int it = 0; it < 400; it++) {
        int n = NS[rnd_range(0, (int)(sizeof NS / sizeof *NS) - 1)];
        int symmetric = it % 4 == 3, named = it % 8 == 5;
        ml_board *b = symmetric ? symmetric_board(n) : named ? named_torus(n) : random_board(n);
        CHECK(b != NULL);
        if (!b)
            continue;
        if (!every_prime_covered(b)) {
            CHECK(symmetric || named, "the cross family is covered at every prime");
            refused(b, "a symmetric pattern some prime of n does not cover");
            continue;
        }
        if (check_board(b)) {
            done++;
            tori += ml_board_wrap(b);
            sym += symmetric;
            knights += named && ml_board_rows(b) > 10;
        } else {
            failed++;
        }
        ml_board_free(b);
    }
    printf("checked %d boards (%d tori, %d knights' tori, %d symmetric)\n", done, tori, knights,
           sym);
    CHECK(done >= 300 && tori >= 80 && knights >= 10 && sym >= 40 && !failed,
          "checked %d (%d tori, %d knights, %d sym), failed %d", done, tori, knights, sym, failed);
    /* the 4 x 4 cross over 6: GF(2) singular (a field part with a kernel), GF(3) a lift */
    static const int64_t dr[] = {0, 0, 0, -1, 1}, dc[] = {0, 1, -1, 0, 0};
    ml_board *b = grid(4, 4, 6, 5, dr, dc, 0);
    CHECK(b && check_board(b));
    uint64_t null = 0;
    void *e = NULL;
    CHECK(ml__lifted_ops.build(NULL, ctx, b, &e) == ML_OK);
    CHECK(e && ml__lifted_ops.nullity(NULL, ctx, e, &null) == ML_OK && null == 4);
    ml__lifted_ops.destroy(NULL, e);
    ml__lifted_ops.destroy(NULL, NULL);
    ml_board_free(b);
    /* 4 x 4 over 12: GF(2) singular and k = 2 (the chase over Z/4), GF(3) a lift */
    b = grid(4, 4, 12, 5, dr, dc, 0);
    CHECK(b && check_board(b));
    ml_board_free(b);
    /* boards it does not cover */
    refused(grid(4, 4, 5, 5, dr, dc, 0), "prime n");
    static const int64_t kr[] = {1, 1, -1, -1, 2, 2, -2, -2}, kc[] = {2, -2, 2, -2, 1, -1, 1, -1};
    refused(grid(6, 6, 6, 8, kr, kc, 1), "a knight's torus");
    ml_board *mixed = NULL;
    ml_grid *g = NULL;
    uint32_t ix[2], idx[4] = {0, 1, 0, 1};
    CHECK(ml_grid_new(ctx, 2, 2, 6, &g) == ML_OK);
    CHECK(ml_grid_palette_add(ctx, g, ML_PATTERN_CROSS, &ix[0]) == ML_OK);
    CHECK(ml_grid_palette_add(ctx, g, ML_PATTERN_VERTICAL, &ix[1]) == ML_OK);
    CHECK(ml_grid_set_mixed(ctx, g, idx) == ML_OK && ml_grid_build(ctx, g, &mixed) == ML_OK);
    ml_grid_free(g);
    refused(mixed, "a mixed grid");
    ml_ctx_free(ctx);
    return t_done();
}
