/* t-engines-lifted: csrc/engines/lifted.c through its vtable (ml__lifted_ops), without
 * the solver, against the dense Z/n engine (engines/dense.c, ml__dense_zn_ops) as the
 * oracle: on random grids of the cross family (random counts of (0,0), (0,+-1), (+-1,0)
 * with a count of (-1, 0) prime to n, so every GF(p) engine covers them), on tori of that
 * family (sides 3..8: the torus's engine over GF(p)) and on the diagonal and a
 * symmetric 3 x 3 pattern without wrap (the symmetric patterns' engine, where it covers
 * every prime of n: ml__field_engine), and the diagonal and the knight on square tori
 * (algebraic-torus2 over each prime, sheared); n 4, 6, 8, 9,
 * 10, 12, 18, 25, 36, 100, 245; sides 1..8; a factor p^k, k > 1, singular mod p goes to
 * the algebra over Z/p^k on the cross family and the symmetric patterns without wrap
 * (lifted_cross.c), else the
 * choosing chase over Z/p^k, which never takes the row chase here: no holes, no
 * locks); and cross-family grids singular mod p over n = 4, 8, 9, 12, 16, 18, 25, 27,
 * sides 1..24 (odd and even), and the diagonal and the ring there (the symmetric chase over
 * Z/p^k), every part over Z/p^k met by the algebra: nullity and kernel
 * size as the dense engine's; generators in ker A with their orders (h * order = 0 mod
 * n), as many as the nullity, the orders multiplying to |ker A|, a limit giving the
 * first rows, H = NULL the count alone; solve of A x0 (solvable, A X = b mod n by
 * substitution) and of random right-hand sides (ok exactly when the dense engine says
 * so, A X = b when ok, zero rows when not); kernel_fits. Boards it does not cover
 * (prime n, a knight's torus, a mixed grid) are refused with ML_EINTERNAL, never a crash.
 * (tests/native/test_capi_lifted.py compares with Python's engine.)
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x11F7EDull
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "include/modlights.h"
#include "engines/lifted.h"
#include "api/registry_impl.h"
#include "tests/t-util.h"
#include "tests/engine-oracle.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const int NS[] = {4, 6, 8, 9, 10, 12, 18, 25, 36, 100, 245};

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

static ml_board *grid(int64_t rows, int64_t cols, int n, size_t k, const int64_t *dr,
                      const int64_t *dc, int wrap)
{
    return eo_grid(ctx, rows, cols, n, k, dr, dc, wrap);
}

/* A random grid of the cross family whose count of (-1, 0) is a unit mod n, rows x cols
 * (0: random sides, a torus half the time). */
static ml_board *cross_family(int64_t rows, int64_t cols, int n, int any)
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
    if (!any)
        return grid(rows, cols, n, k, dr, dc, 0);
    int wrap = rnd_range(0, 2) == 0;
    if (!wrap)
        return grid(rnd_range(1, 8), rnd_range(1, 8), n, k, dr, dc, 0);
    return grid(rnd_range(3, 8), rnd_range(3, 8), n, k, dr, dc, 1);
}

static ml_board *random_board(int n) { return cross_family(0, 0, n, 1); }

/* The diagonal (with its centre) or the ring (the 3 x 3 box without its centre), no
 * wrap: left-right symmetric 3 x 3 patterns. */
/* The diagonal, the ring, or a pattern whose next-row coefficient C_1 is a scalar unit
 * (taps (-1, 0) and (1, +-1), none at (-1, +-1): lifted_cross's c1_solve by a scalar) */
static ml_board *symmetric_sides(int64_t rows, int64_t cols, int n)
{
    static const int64_t DR[] = {0, 1, 1, -1, -1}, DC[] = {0, 1, -1, 1, -1};
    static const int64_t RR[] = {-1, -1, -1, 0, 0, 1, 1, 1}, RC[] = {-1, 0, 1, -1, 1, -1, 0, 1};
    static const int64_t SR[] = {0, 0, 0, -1, 1, 1}, SC[] = {0, 1, -1, 0, 1, -1};
    switch (rnd_range(0, 2)) {
    case 0:
        return grid(rows, cols, n, 5, DR, DC, 0);
    case 1:
        return grid(rows, cols, n, 8, RR, RC, 0);
    default:
        return grid(rows, cols, n, 6, SR, SC, 0);
    }
}

static ml_board *symmetric_board(int n)
{
    return symmetric_sides(rnd_range(1, 8), rnd_range(1, 8), n);
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

/* The engine against the dense Z/n engine (tests/engine-oracle.h): A x0 and two
 * random right-hand sides; 0 when either build failed. */
static int check_board(ml_board *b)
{
    static const eo_spec spec = {&ml__lifted_ops, &ml__dense_zn_ops, 0, 3, 1};
    return eo_check(ctx, &spec, b);
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
    /* the algebra over Z/p^k wherever it takes a part (lifted.c's MODLIGHTS_LIFTED_PARTS):
     * on these small boards the table's rules would give many parts to the chase or
     * the digit lift (tests/native/test_capi_lifted.py checks the rules) */
    setenv("MODLIGHTS_LIFTED_PARTS", "algebra", 1);
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
    /* the parts over Z/p^k singular mod p of the cross family: the algebra's */
    static const int NZ[] = {4, 8, 9, 12, 16, 18, 25, 27};
    int zq = 0, zq_odd = 0, zq_even = 0, zq_boards = 0, zq_sym = 0;
    for (int it = 0; it < 4000 && zq_boards < 150; it++) {
        int n = NZ[it % 8];
        int64_t rows = rnd_range(1, 24), cols = rnd_range(1, 24);
        if (it % 2)   /* even sides as often as odd ones */
            rows += rows & 1, cols += cols & 1;
        int symm = it % 3 == 2;   /* the diagonal or the ring: the symmetric chase */
        ml_board *big = symm ? symmetric_sides(rows, cols, n) : cross_family(rows, cols, n, 0);
        void *e = NULL;
        if (!big || ml__lifted_ops.build(NULL, ctx, big, &e) != ML_OK) {
            CHECK(big != NULL);
            ml_board_free(big);
            continue;
        }
        int here = 0;
        for (int j = 0; ml__lifted_part(e, j); j++)
            here += strcmp(ml__lifted_part(e, j), "lifted-zq-cross") == 0;
        ml__lifted_ops.destroy(NULL, e);
        if (here) {
            CHECK(check_board(big), "a board with a part over Z/p^k");
            zq += here;
            zq_boards++;
            zq_sym += symm;
            zq_odd += (int)((rows & 1) || (cols & 1));
            zq_even += (int)(!(rows & 1) && !(cols & 1));
        }
        ml_board_free(big);
    }
    printf("checked %d boards with %d parts over Z/p^k by the algebra (%d with an odd side, "
           "%d even, %d symmetric patterns)\n", zq_boards, zq, zq_odd, zq_even, zq_sym);
    CHECK(zq_boards >= 100 && zq_odd >= 20 && zq_even >= 20 && zq_sym >= 20,
          "boards with algebra parts");
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
