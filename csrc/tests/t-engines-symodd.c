/* t-engines-symodd: algebraic-sym-odd (csrc/engines/algebraic_odd.c) through its vtable,
 * without the solver, against the dense engines (engines/dense.c) as the oracle: on
 * random left-right or up-down symmetric 3 x 3 patterns with no tap (-1, 0) (or (0, -1))
 * mod n (the diagonal among them), n 2, 3, 5, 7, 101, 251, odd and even sides 1..13,
 * the boards the registry says it covers: nullity and kernel size as the dense engine's;
 * generators in ker A, of order p, independent, a limit giving the first rows of the
 * same list; solve of several right-hand sides (A x solvable, random ones solvable
 * exactly when the dense engine says so, A x = b, the unsolvable rows zero);
 * kernel_fits. The covers refuse p dividing (w + 1) / 2 in both orientations when the
 * centre's count is not a unit, and the boards algebraic-sym's own reason refuses for
 * other causes. p dividing (w + 1) / 2 (the Fitting decomposition, engines/algebraic_fit.c):
 * e against the ranks of P^e and P^(e-1), the fold's lift against ker P^e and im P^e
 * (P^e kills it, it fixes ker P^e, the fold kills im P^e), tau; then random patterns
 * with a unit centre on w = 3, 7, 15, 31 (GF(2)), 5, 17, 53 (GF(3)), 9, 19, 49 (GF(5)),
 * 13 (GF(7)), either orientation, against the dense engine as above.
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x5E3D0DDull
#include "include/modlights.h"
#include "engines/algebraic.h"
#include "engines/algebraic_fit.h"
#include "tests/t-util.h"
#include "tests/engine-oracle.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const unsigned NS[] = {2, 3, 5, 7, 101, 251};

static ml_board *grid(int64_t rows, int64_t cols, int n, size_t k, const int64_t *dr,
                      const int64_t *dc)
{
    return eo_grid(ctx, rows, cols, n, k, dr, dc, 0);
}

/* A random symmetric 3 x 3 pattern without (-1, 0) (up-down: without (0, -1)); the
 * diagonal one time in four. Sides 1..13. */
static ml_board *random_board(void)
{
    int64_t dr[32], dc[32];
    size_t k = 0;
    int up = rnd() % 2;
    if (rnd() % 4 == 0) {
        static const int64_t D[5][2] = {{0, 0}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
        for (int i = 0; i < 5; i++, k++) {
            dr[k] = D[i][0];
            dc[k] = D[i][1];
        }
    } else {
        for (int r = -1; r <= 1; r++) {
            for (int t = r == -1 ? 0 : (int)rnd_range(0, 2); t > 0; t--, k++) {
                dr[k] = r;
                dc[k] = 0;
            }
            for (int t = (int)rnd_range(r == -1 ? 1 : 0, 2); t > 0; t--, k += 2) {
                dr[k] = dr[k + 1] = r;
                dc[k] = -1;
                dc[k + 1] = 1;
            }
        }
    }
    for (size_t i = 0; i < k && up; i++) {
        int64_t x = dr[i];
        dr[i] = dc[i];
        dc[i] = x;
    }
    int n = (int)NS[rnd() % (rnd() % 4 ? 4 : 6)];
    return grid(rnd_range(1, 13), rnd_range(1, 13), n, k, dr, dc);
}

/* the engine against the dense oracle: neither det nor solve_packed */
static const eo_spec spec = {&ml__algebraic_sym_odd_ops, NULL, 0, 4, 2};

/* y = P x (w entries mod p) */
static void pmul(size_t w, unsigned p, const uint8_t *x, uint8_t *y)
{
    for (size_t i = 0; i < w; i++)
        y[i] = (uint8_t)(((i ? x[i - 1] : 0u) + (i + 1 < w ? x[i + 1] : 0u)) % p);
}

/* P^j as a w x w matrix (rows: P^j e_c as columns, symmetric) */
static void ppow(size_t w, unsigned p, size_t j, uint8_t *M, uint8_t *t)
{
    for (size_t c = 0; c < w; c++) {
        memset(M + c * w, 0, w);
        M[c * w + c] = 1;
        for (size_t k = 0; k < j; k++) {
            pmul(w, p, M + c * w, t);
            memcpy(M + c * w, t, w);
        }
    }
}

/* The Fitting decomposition's pieces against linear algebra, on width w over GF(p) */
static void fitting(size_t w, unsigned p)
{
    ml_fit f;
    CHECK(ml__fit_init(&f, p, w) == 0);
    size_t L = f.L, e = f.e;
    uint8_t *M = malloc(w * w + 1), *t = malloc(w + 1), *v = malloc(w + 1),
            *z = malloc(w + 1), *c = malloc(L + 1), *c2 = malloc(L + 1), *d = malloc(2 * L + 1);
    uint32_t *acc = malloc((2 * L + 1) * sizeof *acc);
    ppow(w, p, e, M, t);
    CHECK(rank_p(M, w, w, p) == w - e, "rank P^e, w %zu p %u e %zu", w, p, e);
    ppow(w, p, e - 1, M, t);
    CHECK(rank_p(M, w, w, p) == w - e + 1, "rank P^(e-1), w %zu p %u", w, p);
    for (int it = 0; it < 20; it++) {
        for (size_t i = 0; i < w; i++)
            v[i] = (uint8_t)(rnd() % p);
        ml__fit_fold(&f, v, c, acc);
        memset(z, 0, w);
        ml__fit_lift(&f, c, z, 0, d);   /* z = E v: P^e z = 0 */
        memcpy(t, z, w);
        for (size_t k = 0; k < e; k++) {
            pmul(w, p, t, M);
            memcpy(t, M, w);
        }
        int zero = 1;
        for (size_t i = 0; i < w; i++)
            zero &= !t[i];
        CHECK(zero, "P^e E v, w %zu p %u", w, p);
        ml__fit_fold(&f, z, c2, acc);   /* E fixes ker P^e: fold(E v) = fold(v) */
        CHECK(!memcmp(c, c2, L), "fold E v, w %zu p %u", w, p);
        memcpy(t, v, w);   /* fold(P^e v) = 0 and lift(fold) of v - E v is 0 */
        for (size_t k = 0; k < e; k++) {
            pmul(w, p, t, M);
            memcpy(t, M, w);
        }
        ml__fit_fold(&f, t, c2, acc);
        zero = 1;
        for (size_t j = 0; j < L; j++)
            zero &= !c2[j];
        CHECK(zero, "fold P^e v, w %zu p %u", w, p);
        ml__fit_lift(&f, c, v, 1, d);   /* v - E v: fold 0 */
        ml__fit_fold(&f, v, c2, acc);
        zero = 1;
        for (size_t j = 0; j < L; j++)
            zero &= !c2[j];
        CHECK(zero, "fold (v - E v), w %zu p %u", w, p);
        unsigned tk = (unsigned)(rnd() % p);   /* tau(y + tk k) = tau(y) + tk, y in im P^e */
        for (size_t i = 0; i < w; i += 2)
            v[i] = (uint8_t)((v[i] + ((i & 2) ? p - tk : tk)) % p);
        CHECK(ml__fit_tau(&f, v) == tk, "tau, w %zu p %u", w, p);
    }
    free(M);
    free(t);
    free(v);
    free(z);
    free(c);
    free(c2);
    free(d);
    free(acc);
}

/* Random symmetric patterns with a unit centre (no (-1, 0), a unit (-1, +-1)) on the
 * widths where p divides (w + 1) / 2, h 1..13, in either orientation; the covered ones
 * checked, the patterns without a centre refused when the other side does not qualify */
static int fitting_boards(void)
{
    static const struct {
        unsigned p;
        int w;
    } W[] = {{2, 3}, {2, 7}, {2, 15}, {2, 31}, {3, 5}, {3, 17}, {3, 53}, {5, 9}, {5, 19},
             {5, 49}, {7, 13}};
    int idx = ml_engine_index("algebraic-sym-odd"), seen = 0;
    for (size_t i = 0; i < sizeof W / sizeof W[0]; i++) {
        fitting((size_t)W[i].w, W[i].p);
        for (int it = 0; it < (W[i].w > 40 ? 4 : 14); it++) {
            int64_t dr[32], dc[32];
            size_t k = 0;
            unsigned p = W[i].p;
            int centre = (int)rnd_range(0, 2), up = rnd() % 2, b2 = 0;
            for (int r = -1; r <= 1; r++) {
                int pairs = (int)rnd_range(r == -1 ? 1 : 0, 2);
                b2 = r == -1 ? pairs : b2;
                for (int j = 0; j < pairs; j++, k += 2) {
                    dr[k] = dr[k + 1] = r;
                    dc[k] = -1;
                    dc[k + 1] = 1;
                }
            }
            for (int j = 0; j < centre; j++, k++)
                dr[k] = dc[k] = 0;
            if (rnd() % 2) {   /* (+1, 0) */
                dr[k] = 1;
                dc[k++] = 0;
            }
            for (size_t j = 0; j < k && up; j++) {
                int64_t x = dr[j];
                dr[j] = dc[j];
                dc[j] = x;
            }
            int64_t h = rnd_range(1, 13), w = W[i].w;
            ml_board *b = up ? grid(w, h, (int)p, k, dr, dc) : grid(h, w, (int)p, k, dr, dc);
            int cov = -1;
            char why[1024] = "";
            CHECK(b && ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK);
            if (centre % p && b2 % p) {
                CHECK(cov == 1, "w %lld p %u: %s", (long long)w, p, why);
            }
            if (cov == 1) {
                eo_check(ctx, &spec, b);
                seen++;
            }
            ml_board_free(b);
        }
    }
    return seen;
}

/* p | (w + 1) / 2 (0 a multiple root of chi_P) without a unit centre is refused: the
 * diagonal's four corners 5 x 5 mod 3, 7 x 7 mod 2, 9 x 9 mod 5; 5 x 5 mod 2 and
 * 9 x 9 mod 3 taken */
static void refusals(void)
{
    int64_t dr[5] = {-1, -1, 1, 1, 0}, dc[5] = {-1, 1, -1, 1, 0};
    int idx = ml_engine_index("algebraic-sym-odd");
    static const int C[5][3] = {{5, 3, 0}, {7, 2, 0}, {9, 5, 0}, {5, 2, 1}, {9, 3, 1}};
    for (int i = 0; i < 5; i++) {
        ml_board *b = grid(C[i][0], C[i][0], C[i][1], 4, dr, dc);   /* no centre */
        int cov = -1;
        char why[1024] = "";
        CHECK(ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK);
        CHECK(cov == C[i][2], "%d x %d mod %d: %d (%s)", C[i][0], C[i][0], C[i][1], cov, why);
        CHECK(cov || strstr(why, "(w + 1) / 2"), "%s", why);
        ml_board_free(b);
    }
    /* the cross (a tap (-1, 0)) and a torus are not */
    int64_t cr[5] = {0, 0, 0, -1, 1}, cc[5] = {0, 1, -1, 0, 0};
    ml_board *b = grid(5, 5, 3, 5, cr, cc);
    int cov = -1;
    char why[1024] = "";
    CHECK(ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK && !cov);
    ml_board_free(b);
}

int main(void)
{
    ml_ctx_new(&ctx);
    int covered = 0, idx = ml_engine_index("algebraic-sym-odd");
    CHECK(idx >= 0);
    for (int it = 0; it < 600; it++) {
        ml_board *b = random_board();
        int cov = 0;
        char why[1024];
        CHECK(b != NULL);
        if (b && ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK && cov) {
            eo_check(ctx, &spec, b);
            covered++;
        }
        ml_board_free(b);
    }
    CHECK(covered >= 150, "covered %d", covered);
    refusals();
    int fit = fitting_boards();
    CHECK(fit >= 40, "fitting boards %d", fit);
    ml_ctx_free(ctx);
    return t_done();
}
