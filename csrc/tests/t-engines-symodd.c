/* t-engines-symodd: algebraic-sym-odd (csrc/engines/algebraic_odd.c) through its vtable,
 * without the solver, against the dense engines (engines/dense.c) as the oracle: on
 * random left-right or up-down symmetric 3 x 3 patterns with no tap (-1, 0) (or (0, -1))
 * mod n (the diagonal among them), n 2, 3, 5, 7, 101, 251, odd and even sides 1..13,
 * the boards the registry says it covers: nullity and kernel size as the dense engine's;
 * generators in ker A, of order p, independent, a limit giving the first rows of the
 * same list; solve of several right-hand sides (A x solvable, random ones solvable
 * exactly when the dense engine says so, A x = b, the unsolvable rows zero);
 * kernel_fits. The covers refuse p dividing (w + 1) / 2 in both orientations and
 * the boards algebraic-sym's own reason refuses for other causes.
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x5E3D0DDull
#include "include/modlights.h"
#include "engines/algebraic.h"
#include "engines/dense.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const unsigned NS[] = {2, 3, 5, 7, 101, 251};

static ml_board *grid(int64_t rows, int64_t cols, int n, size_t k, const int64_t *dr,
                      const int64_t *dc)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    if (ml_grid_new(ctx, rows, cols, n, &g))
        return NULL;
    if (ml_grid_set_offsets(ctx, g, k, dr, dc) || ml_grid_build(ctx, g, &b))
        b = NULL;
    ml_grid_free(g);
    return b;
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

static void mul(const uint8_t *A, size_t m, size_t r, unsigned n, const uint8_t *x, uint8_t *y)
{
    for (size_t i = 0; i < m; i++) {
        unsigned acc = 0;
        for (size_t j = 0; j < r; j++)
            acc = (acc + (unsigned)A[i * r + j] * x[j]) % n;
        y[i] = (uint8_t)acc;
    }
}

/* rank of the k x r matrix H mod the prime p (destroys H) */
static size_t rank_mod(uint8_t *H, size_t k, size_t r, unsigned p)
{
    size_t rank = 0;
    for (size_t c = 0; c < r && rank < k; c++) {
        size_t piv = rank;
        while (piv < k && !H[piv * r + c])
            piv++;
        if (piv == k)
            continue;
        for (size_t j = 0; j < r; j++) {
            uint8_t t = H[piv * r + j];
            H[piv * r + j] = H[rank * r + j];
            H[rank * r + j] = t;
        }
        unsigned inv = inv_p(H[rank * r + c], p);
        for (size_t i = 0; i < k; i++)
            if (i != rank && H[i * r + c]) {
                unsigned f = H[i * r + c] * inv % p;
                for (size_t j = 0; j < r; j++)
                    H[i * r + j] = (uint8_t)((H[i * r + j] + (p - f) * H[rank * r + j]) % p);
            }
        rank++;
    }
    return rank;
}

static void check(const ml_engine_def *ops, ml_board *b)
{
    unsigned n = (unsigned)ml_board_states(b);
    size_t m = ml_board_n_cells(b), r = ml_board_n_taps(b);
    int64_t rows = ml_board_rows(b), cols = ml_board_cols(b);
    const ml_engine_def *dn = ml__dense_ops_for((int)n);
    uint8_t *A = malloc(m * r + 1);
    ml_board_matrix(ctx, b, A, r);
    void *e = NULL, *d = NULL;
    int rc = ops->build(NULL, ctx, b, &e);
    CHECK(rc == ML_OK && e, "%s", ml_errmsg(ctx));
    CHECK(dn->build(NULL, ctx, b, &d) == ML_OK);
    uint64_t null = 0, dnull = 0, k = 0;
    ml_factored ks, dks;
    CHECK(ops->nullity(NULL, ctx, e, &null) == ML_OK);
    CHECK(dn->nullity(NULL, ctx, d, &dnull) == ML_OK);
    CHECK(null == dnull, "%s %lldx%lld n=%u: %llu, dense %llu", ops->name, (long long)rows,
          (long long)cols, n, (unsigned long long)null, (unsigned long long)dnull);
    CHECK(ops->kernel_size(NULL, ctx, e, &ks) == ML_OK);
    CHECK(dn->kernel_size(NULL, ctx, d, &dks) == ML_OK);
    CHECK(ml_factored_log2(&ks) == ml_factored_log2(&dks));
    CHECK(ops->generators(NULL, ctx, e, UINT64_MAX, &k, NULL, NULL) == ML_OK && k == null);
    uint8_t *H = malloc(null * r + 1), *H2 = malloc(null * r + 1), *y = malloc(m + 1);
    uint32_t *o = malloc((null + 1) * sizeof *o);
    CHECK(ops->generators(NULL, ctx, e, null, &k, H, o) == ML_OK && k == null);
    for (uint64_t g = 0; g < null; g++) {
        mul(A, m, r, n, H + g * r, y);
        int zero = 1;
        for (size_t i = 0; i < m; i++)
            zero &= !y[i];
        CHECK(zero && o[g] == n, "generator %llu", (unsigned long long)g);
    }
    if (null) {
        uint64_t lim = (uint64_t)rnd_range(0, (int64_t)null - 1);
        CHECK(ops->generators(NULL, ctx, e, lim, &k, H2, o) == ML_OK && k == lim);
        CHECK(!lim || !memcmp(H, H2, lim * r));
        memcpy(H2, H, null * r);
        CHECK(rank_mod(H2, null, r, n) == null, "independent");
    }
    int fits = 0;
    CHECK(ops->kernel_fits(NULL, ctx, e, &fits) == ML_OK && fits);
    /* solve: 4 right-hand sides, the first two solvable by construction */
    size_t K = 4;
    uint8_t *R = malloc(K * m + 1), *X = malloc(K * r + 1), *DX = malloc(K * r + 1),
            ok[4], dok[4];
    uint8_t *x0 = malloc(r + 1);
    for (size_t i = 0; i < K; i++) {
        for (size_t j = 0; j < r; j++)
            x0[j] = (uint8_t)(rnd() % n);
        if (i < 2)
            mul(A, m, r, n, x0, R + i * m);
        else
            for (size_t j = 0; j < m; j++)
                R[i * m + j] = (uint8_t)(rnd() % n);
    }
    memset(X, 0xAB, K * r);
    CHECK(ops->solve(NULL, ctx, e, K, R, X, ok) == ML_OK);
    CHECK(dn->solve(NULL, ctx, d, K, R, DX, dok) == ML_OK);
    for (size_t i = 0; i < K; i++) {
        CHECK(!ok[i] == !dok[i] && (i >= 2 || ok[i]), "solvable %zu", i);
        mul(A, m, r, n, X + i * r, y);
        for (size_t j = 0; j < r && !ok[i]; j++)
            CHECK(!X[i * r + j]);
        CHECK(!ok[i] || !memcmp(y, R + i * m, m), "A x = b (%zu)", i);
    }
    if (ops->det) {
        unsigned det = 99, ddet = 98;
        CHECK(ops->det(NULL, ctx, e, &det) == ML_OK);
        CHECK(dn->det(NULL, ctx, d, &ddet) == ML_OK);
        CHECK(det == ddet, "det %u, dense %u (%lldx%lld n=%u)", det, ddet, (long long)rows,
              (long long)cols, n);
    }
    ops->destroy(NULL, e);
    dn->destroy(NULL, d);
    free(A);
    free(H);
    free(H2);
    free(y);
    free(o);
    free(R);
    free(X);
    free(DX);
    free(x0);
}

/* p | (w + 1) / 2 is refused (0 a multiple root of chi_P): the diagonal 5 x 5 mod 3,
 * 7 x 7 mod 2, 9 x 9 mod 5; 5 x 5 mod 2 and 9 x 9 mod 3 taken */
static void refusals(void)
{
    int64_t dr[5] = {0, -1, -1, 1, 1}, dc[5] = {0, -1, 1, -1, 1};
    int idx = ml_engine_index("algebraic-sym-odd");
    static const int C[5][3] = {{5, 3, 0}, {7, 2, 0}, {9, 5, 0}, {5, 2, 1}, {9, 3, 1}};
    for (int i = 0; i < 5; i++) {
        ml_board *b = grid(C[i][0], C[i][0], C[i][1], 5, dr, dc);
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
            check(&ml__algebraic_sym_odd_ops, b);
            covered++;
        }
        ml_board_free(b);
    }
    CHECK(covered >= 150, "covered %d", covered);
    refusals();
    ml_ctx_free(ctx);
    return t_done();
}
