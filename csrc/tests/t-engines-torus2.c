/* t-engines-torus2: csrc/engines/torus2.c (over polymatn.c) through its vtable
 * (ml__algebraic_torus2_ops), without the solver, against the dense engines
 * (engines/dense.c) as the oracle: on random tori of any pattern (the named ones:
 * cross, diagonal, square, horizontal, vertical, knight, and random offsets within 3
 * with repeats, so counts that vanish mod p) with n 2, 3, 5, 7, 11, 101, 251, sides
 * 1..14 (square sides to 13 for the shears), that the registry says the engine covers:
 * nullity and kernel size as the dense engine's; generators in ker A, of order p,
 * independent (rank = nullity), a limit giving the first rows of the same list, H =
 * NULL the count alone; solve of several right-hand sides (A x always solvable, random
 * ones solvable exactly when the dense engine says so, the answers A x = b, the
 * unsolvable rows zero); kernel_fits. The diagonal and the knight covered through a
 * shear; composite n and boards without a lead refused; a stop requested while the
 * system is made returns ML_EINTERRUPTED. (tests/native/test_capi_torus2.py compares
 * through the solver.)
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x70C052ull
#include "include/modlights.h"
#include "engines/torus2.h"
#include "engines/dense.h"
#include "base/interrupt.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const unsigned NS[] = {2, 3, 5, 7, 11, 101, 251};

static ml_board *grid(int64_t rows, int64_t cols, int n, size_t k, const int64_t *dr,
                      const int64_t *dc)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    if (ml_grid_new(ctx, rows, cols, n, &g))
        return NULL;
    if (ml_grid_set_offsets(ctx, g, k, dr, dc) || ml_grid_set_wrap(ctx, g, 1) ||
        ml_grid_build(ctx, g, &b))
        b = NULL;
    ml_grid_free(g);
    return b;
}

/* the named patterns, (0, 0) first */
static const int64_t NAMED[6][9][2] = {
    {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}},
    {{0, 0}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}},
    {{0, 0}, {-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}},
    {{0, 0}, {0, -1}, {0, 1}},
    {{0, 0}, {-1, 0}, {1, 0}},
    {{0, 0}, {-2, -1}, {-2, 1}, {-1, -2}, {-1, 2}, {1, -2}, {1, 2}, {2, -1}, {2, 1}},
};
static const size_t NAMED_K[6] = {5, 5, 9, 3, 3, 9};

/* A random torus: a named pattern (half the time) or 1..6 random offsets within 3. */
static ml_board *random_board(void)
{
    int64_t dr[16], dc[16];
    size_t k;
    int named = (int)rnd_range(-6, 5);
    if (named >= 0) {
        k = NAMED_K[named];
        for (size_t i = 0; i < k; i++) {
            dr[i] = NAMED[named][i][0];
            dc[i] = NAMED[named][i][1];
        }
    } else {
        k = (size_t)rnd_range(1, 6);
        for (size_t i = 0; i < k; i++) {
            dr[i] = rnd_range(-3, 3);
            dc[i] = rnd_range(-3, 3);
        }
    }
    int n = (int)NS[rnd() % (rnd() % 4 ? 5 : 7)];
    int64_t rows = rnd_range(1, 14), cols = rnd() % 3 ? rnd_range(1, 14) : rows;
    if (named == 5 || rnd() % 4 == 0)
        cols = rows = rnd_range(9, 13);
    return grid(rows, cols, n, k, dr, dc);
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
    CHECK(!ops->det && !ops->solve_packed);
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

static void refusals_and_stops(void)
{
    const ml_engine_def *T = &ml__algebraic_torus2_ops;
    void *e = NULL;
    /* composite n, and a board no orientation gives a lead: refused as the caller's bug */
    int64_t dr[9], dc[9];
    for (size_t i = 0; i < 9; i++) {
        dr[i] = NAMED[5][i][0];
        dc[i] = NAMED[5][i][1];
    }
    ml_board *b = grid(12, 12, 4, 9, dr, dc);
    CHECK(b && T->build(NULL, ctx, b, &e) == ML_EINTERNAL && !e);
    ml_board_free(b);
    b = grid(7, 9, 2, 9, dr, dc);   /* 7 rows, 9 columns: no shear, the span 10 too long */
    ml__t2_orient o;
    CHECK(b && ml__torus2_orient(b, &o) == 0);
    CHECK(T->build(NULL, ctx, b, &e) == ML_EINTERNAL && !e);
    ml_board_free(b);
    /* the knight on 12 x 12 over GF(3): the shear a = 2, span 10 */
    b = grid(12, 12, 3, 9, dr, dc);
    CHECK(b && ml__torus2_orient(b, &o) == 1 && o.span == 10 && (o.a == 2 || o.a == -2),
          "span %zu a %ld", o.span, o.a);
    /* a stop requested before the system is made */
    CHECK(T->build(NULL, ctx, b, &e) == ML_OK);
    uint64_t null = 0;
    ml_interrupt_request();
    int rc = T->nullity(NULL, ctx, e, &null);
    ml_interrupt_take();
    CHECK(rc == ML_EINTERRUPTED, "rc %d", rc);
    CHECK(T->nullity(NULL, ctx, e, &null) == ML_OK);
    T->destroy(NULL, e);
    ml_board_free(b);
}

int main(void)
{
    ml_ctx_new(&ctx);
    int covered = 0, idx = ml_engine_index("algebraic-torus2");
    int shear = 0;
    CHECK(idx >= 0);
    for (int it = 0; it < 300; it++) {
        ml_board *b = random_board();
        int cov = 0;
        char why[1024];
        CHECK(b != NULL);
        if (b && ml_engine_covers(ctx, idx, b, &cov, why, sizeof why, NULL) == ML_OK && cov) {
            ml__t2_orient o;
            CHECK(ml__torus2_orient(b, &o) == 1);
            shear += o.a != 0;
            check(&ml__algebraic_torus2_ops, b);
            covered++;
        }
        ml_board_free(b);
    }
    CHECK(covered >= 120 && shear >= 20, "algebraic-torus2 covered %d, %d sheared", covered,
          shear);
    refusals_and_stops();
    ml_ctx_free(ctx);
    return t_done();
}
