/* t-engines-lifted-zq: the lifted engine's parts over Z/p^k singular mod p, through
 * lifted's vtable (ml__lifted_ops) without the solver, against the dense Z/n engine
 * (engines/dense.c) as the oracle (tests/engine-oracle.h: nullity, kernel size,
 * generators in ker A with their orders, solves of A x0 and of random right-hand sides,
 * ok exactly when the dense engine says so):
 * - lifted_odd.c ("lifted-zq-odd"): random left-right symmetric 3 x 3 patterns with no tap
 *   (-1, 0) and a unit centre (random counts of (0, 0), (-1, +-1), (0, +-1), (1, 0),
 *   (1, +-1); transposed half the time, so both orientations), odd widths 3..41, over
 *   n = 4, 8, 9, 16, 25, 27, 12, 18, 36, 100 (36, 100: two parts over Z/p^k): every
 *   board lifted builds is checked, those with a part "lifted-zq-odd" counted per n
 *   (each with a kernel over Z/n: singular mod p; some with two such parts), and the
 *   others nonsingular mod p (parts "lift") among them;
 * - its eligibility: ml__zq_odd_new declines (NULL engine, ML_OK) a torus, a locked or a
 *   holed board, even sides, a centre that is not a unit mod p, a tap (-1, 0), counts
 *   symmetric mod p but not mod p^k, k = 1; lifted refuses locks and holes;
 * - lifted_alg.c on whole boards: the cross on 3 x 80 .. 7 x 98 over Z/4 and Z/8 (deg B
 *   >= 64: rem_B's Barrett division), and the pattern (0, +1), (-1, 0) on 2 x 520
 *   over Z/4 (chi = x^w all in R_A: m = 520 > 512, declined to the choosing chase)
 *   next to 2 x 500 (m = 500, the algebra's).
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x0DD11F7ull
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "include/modlights.h"
#include "engines/lifted.h"
#include "engines/lifted_odd.h"
#include "api/registry_impl.h"
#include "tests/t-util.h"
#include "tests/engine-oracle.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;

static ml_board *grid(int64_t rows, int64_t cols, int n, size_t k, const int64_t *dr,
                      const int64_t *dc, int wrap)
{
    return eo_grid(ctx, rows, cols, n, k, dr, dc, wrap);
}

static int check_board(const ml_board *b)
{
    static const eo_spec spec = {&ml__lifted_ops, &ml__dense_zn_ops, 0, 3, 1};
    return eo_check(ctx, &spec, b);
}

/* How many parts of lifted's engine on b are named name (-1: lifted refused b) */
static int parts_named(const ml_board *b, const char *name)
{
    void *e = NULL;
    if (ml__lifted_ops.build(NULL, ctx, b, &e) != ML_OK || !e)
        return -1;
    int here = 0;
    for (int j = 0; ml__lifted_part(e, j); j++)
        here += strcmp(ml__lifted_part(e, j), name) == 0;
    ml__lifted_ops.destroy(NULL, e);
    return here;
}

/* A random symmetric 3 x 3 pattern with no (-1, 0), its centre count `centre` (0:
 * random 1..3); transposed when tr (no (0, -1) then) */
static size_t sym_pattern(int64_t *dr, int64_t *dc, int centre, int tr)
{
    size_t k = 0;
#define PUT(r, c, times)                                                                   \
    for (int t_ = 0; t_ < (times); t_++) {                                                 \
        dr[k] = tr ? (c) : (r);                                                            \
        dc[k++] = tr ? (r) : (c);                                                          \
    }
    int c0 = centre ? centre : (int)rnd_range(1, 3), b2 = (int)rnd_range(1, 2),
        b1 = (int)rnd_range(0, 1), a0 = (int)rnd_range(0, 1), b0 = (int)rnd_range(0, 2);
    PUT(0, 0, c0);
    PUT(-1, 1, b2);
    PUT(-1, -1, b2);
    PUT(0, 1, b1);
    PUT(0, -1, b1);
    PUT(1, 0, a0);
    PUT(1, 1, b0);
    PUT(1, -1, b0);
#undef PUT
    return k;
}

/* ml__zq_odd_new on b mod p^k declines (ML_OK, no engine) */
static void declines(ml_board *b, unsigned p, unsigned k, const char *what)
{
    void *e = NULL;
    CHECK(b != NULL, "%s", what);
    if (!b)
        return;
    int rc = ml__zq_odd_new(ctx, b, p, k, &e);
    CHECK(rc == ML_OK && !e, "%s: %d", what, rc);
    if (e)
        ml__zq_odd_ops.destroy(NULL, e);
    ml_board_free(b);
}

/* the 5 x 5 diagonal over Z/4 with a mask: locks (holes = 0) or holes */
static ml_board *masked(int holes)
{
    static const int64_t DR[] = {0, 1, 1, -1, -1}, DC[] = {0, 1, -1, 1, -1};
    ml_grid *g = NULL;
    ml_board *b = NULL;
    uint8_t mask[25] = {0};
    mask[7] = 1;
    if (ml_grid_new(ctx, 5, 5, 4, &g))
        return NULL;
    int rc = ml_grid_set_offsets(ctx, g, 5, DR, DC);
    if (!rc)
        rc = holes ? ml_grid_set_holes(ctx, g, mask) : ml_grid_set_locked(ctx, g, mask);
    if (!rc)
        rc = ml_grid_build(ctx, g, &b);
    ml_grid_free(g);
    return rc ? NULL : b;
}

static void eligibility(void)
{
    static const int64_t DR[] = {0, 1, 1, -1, -1}, DC[] = {0, 1, -1, 1, -1};
    /* the diagonal 5 x 5 over Z/4: taken */
    ml_board *b = grid(5, 5, 4, 5, DR, DC, 0);
    void *e = NULL;
    CHECK(b && ml__zq_odd_new(ctx, b, 2, 2, &e) == ML_OK && e, "the 5 x 5 diagonal mod 4");
    if (e)
        ml__zq_odd_ops.destroy(NULL, e);
    CHECK(b && parts_named(b, "lifted-zq-odd") == 1, "lifted's part of the 5 x 5 diagonal");
    ml_board_free(b);
    declines(grid(5, 5, 4, 5, DR, DC, 1), 2, 2, "a torus");
    declines(grid(6, 4, 4, 5, DR, DC, 0), 2, 2, "even sides");
    declines(grid(5, 5, 2, 5, DR, DC, 0), 2, 1, "k = 1");
    declines(grid(5, 5, 4, 4, DR + 1, DC + 1, 0), 2, 2, "no centre");
    static const int64_t C2R[] = {0, 0, 1, 1, -1, -1}, C2C[] = {0, 0, 1, -1, 1, -1};
    declines(grid(5, 5, 4, 6, C2R, C2C, 0), 2, 2, "a centre 2 mod 4");
    static const int64_t UR[] = {0, 1, 1, -1, -1, -1}, UC[] = {0, 1, -1, 1, -1, 0};
    declines(grid(5, 5, 4, 6, UR, UC, 0), 2, 2, "a tap (-1, 0)");
    /* (-1, +1) once, (-1, -1) three times: symmetric mod 2, not mod 4 */
    static const int64_t AR[] = {0, -1, -1, -1, -1}, AC[] = {0, 1, -1, -1, -1};
    declines(grid(5, 5, 4, 5, AR, AC, 0), 2, 2, "counts symmetric mod p only");
    declines(masked(0), 2, 2, "a locked board");
    declines(masked(1), 2, 2, "a holed board");
    for (int holes = 0; holes < 2; holes++) {   /* lifted refuses them (registry's covers) */
        b = masked(holes);
        e = NULL;
        CHECK(b && ml__lifted_ops.build(NULL, ctx, b, &e) == ML_EINTERNAL && !e,
              "lifted on a %s board", holes ? "holed" : "locked");
        ml_board_free(b);
    }
}

static void random_odd(void)
{
    static const int NZ[] = {4, 8, 9, 16, 25, 27, 12, 18, 36, 100};
    int per_n[10] = {0}, boards = 0, odd = 0, with_kernel = 0, lifts = 0, transposed = 0,
        two = 0;
    for (int it = 0; it < 5000 && odd < 240; it++) {
        int ni = it % 10, n = NZ[ni];
        int64_t dr[16], dc[16];
        int tr = (int)rnd_range(0, 1);
        size_t k = sym_pattern(dr, dc, it % 5 == 4 ? 1 : 0, tr);
        int64_t w = 2 * rnd_range(1, 20) + 1, h = rnd_range(1, w > 21 ? 8 : 20);
        ml_board *b = tr ? grid(w, h, n, k, dr, dc, 0) : grid(h, w, n, k, dr, dc, 0);
        CHECK(b != NULL);
        if (!b)
            continue;
        int here = parts_named(b, "lifted-zq-odd");
        if (here >= 0) {
            CHECK(check_board(b), "lifted on %lldx%lld n=%d", (long long)h, (long long)w, n);
            boards++;
        }
        if (here > 0) {
            odd++;
            two += here == 2;
            per_n[ni]++;
            transposed += tr;
            void *e = NULL;
            uint64_t null = 0;
            if (ml__lifted_ops.build(NULL, ctx, b, &e) == ML_OK &&
                ml__lifted_ops.nullity(NULL, ctx, e, &null) == ML_OK)
                with_kernel += null > 0;
            if (e)
                ml__lifted_ops.destroy(NULL, e);
        } else if (here == 0 && parts_named(b, "lift") > 0) {
            lifts++;   /* nonsingular mod p: the digit-by-digit lift */
        }
        ml_board_free(b);
    }
    printf("checked %d boards, %d with a part lifted-zq-odd (%d transposed, %d with a kernel; "
           "%d others with a part lifted digit by digit; per n:", boards, odd, transposed,
           with_kernel, lifts);
    int every = 1;
    for (int i = 0; i < 10; i++) {
        printf(" %d", per_n[i]);
        every &= per_n[i] >= 5;
    }
    printf("; %d with two such parts)\n", two);
    CHECK(odd >= 150 && every && transposed >= 30 && with_kernel == odd && lifts >= 50 &&
              two >= 3,
          "parts lifted-zq-odd: %d", odd);
}

static void whole_boards(void)
{
    /* the cross with deg B >= 64 (rem_B's Barrett division), singular mod 2 */
    static const int64_t XR[] = {0, 0, 0, -1, 1}, XC[] = {0, 1, -1, 0, 0};
    static const int64_t SIDES[][2] = {{3, 80}, {2, 83}, {4, 84}, {5, 95}, {7, 80}, {6, 98}};
    for (size_t i = 0; i < sizeof SIDES / sizeof *SIDES; i++) {
        int n = i % 2 ? 8 : 4;
        ml_board *b = grid(SIDES[i][0], SIDES[i][1], n, 5, XR, XC, 0);
        CHECK(b && parts_named(b, "lifted-zq-cross") == 1, "the cross %lldx%lld n=%d",
              (long long)SIDES[i][0], (long long)SIDES[i][1], n);
        CHECK(b && check_board(b));
        ml_board_free(b);
    }
    /* (0, +1), (-1, 0): T the nilpotent shift, chi = x^w, g = (-x)^h: R_A = all of R */
    static const int64_t NR[] = {0, -1}, NC[] = {1, 0};
    for (int64_t w = 500; w <= 520; w += 20) {
        ml_board *b = grid(2, w, 4, 2, NR, NC, 0);
        int zq = b ? parts_named(b, "lifted-zq-cross") : -1;
        CHECK(zq == (w <= 512), "2 x %lld: m = w %s 512", (long long)w,
              w <= 512 ? "<=" : ">");
        CHECK(b && check_board(b));
        ml_board_free(b);
    }
    /* the diagonal with Q of degree >= 64 (its own Barrett division) */
    static const int64_t DR[] = {0, 1, 1, -1, -1}, DC[] = {0, 1, -1, 1, -1};
    int seen = 0;
    for (int64_t w = 81; w < 120 && seen < 3; w += 2)
        for (int64_t h = 2; h < 8 && seen < 3; h++) {
            ml_board *b = grid(h, w, 4, 5, DR, DC, 0);
            if (b && parts_named(b, "lifted-zq-odd") == 1) {
                CHECK(check_board(b), "the diagonal %lldx%lld", (long long)h, (long long)w);
                seen++;
            }
            ml_board_free(b);
        }
    CHECK(seen == 3, "wide diagonals with a part lifted-zq-odd: %d", seen);
}

int main(void)
{
    CHECK(ml_ctx_new(&ctx) == ML_OK);
    /* the algebra over Z/p^k wherever it takes a part (lifted.c's MODLIGHTS_LIFTED_PARTS):
     * on these small boards the table's rules would give many parts to the chase or
     * the digit lift (tests/native/test_capi_lifted.py checks the rules) */
    setenv("MODLIGHTS_LIFTED_PARTS", "algebra", 1);
    eligibility();
    random_odd();
    whole_boards();
    ml_ctx_free(ctx);
    return t_done();
}
