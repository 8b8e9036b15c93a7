/* t-engines-zqtorus: the lifted engine's part over Z/p^k of tori singular mod p
 * (engines/lifted_torus.c: torus2's chase over Z/q, the residual system split by
 * Hensel into an invertible part solved digit by digit and a Smith form over Z/q)
 * through lifted's vtable (ml__lifted_ops), against the dense Z/n engine
 * (engines/dense.c) as the oracle (tests/engine-oracle.h's eo_check: nullity, kernel
 * size, generators in ker A with their orders multiplying to |ker A|, solve of A x0 and
 * of random right-hand sides, solvable exactly when the dense engine says so). Tori of
 * the cross, the diagonal, the knight and random patterns of reach 1..3 (random counts,
 * the centre or not), sides 2..13 even and odd, n = 4, 8, 9, 16, 25, 27 and composites
 * 12, 36, 100 (the CRT with the other parts); every board whose lifted engine has a
 * "lifted-zq-torus" part is checked (at least 150 of them: 100 singular mod p, 20
 * invertible mod p where the algebra is taken before the lift), 60 others too (lift and
 * field parts, parts declined to the chase). The Smith form over Z/p^k (lifted_alg.h's ml__zq_smith)
 * is checked on random matrices: U M V = diag(p^e_i) with U, V invertible mod p.
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x2A70Bull
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "include/modlights.h"
#include "engines/lifted.h"
#include "engines/lifted_alg.h"
#include "api/registry_impl.h"
#include "base/modn.h"
#include "tests/t-util.h"
#include "tests/engine-oracle.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;

/* A torus of a named pattern or of a random one of reach 1..3; sides 2..13. */
static ml_board *random_torus(int n, int *kind)
{
    static const int64_t CR[] = {0, 0, 0, -1, 1}, CC[] = {0, 1, -1, 0, 0};
    static const int64_t DR[] = {0, 1, 1, -1, -1}, DC[] = {0, 1, -1, 1, -1};
    static const int64_t KR[] = {0, 1, 1, -1, -1, 2, 2, -2, -2},
                         KC[] = {0, 2, -2, 2, -2, 1, -1, 1, -1};
    int64_t rows = rnd_range(2, 13), cols = rnd_range(2, 13);
    *kind = (int)rnd_range(0, 3);
    if (*kind == 0)
        return eo_grid(ctx, rows, cols, n, 5, CR, CC, 1);
    if (*kind == 1)
        return eo_grid(ctx, rows, rows, n, 5, DR, DC, 1);   /* square: the shear maps */
    if (*kind == 2)
        return eo_grid(ctx, rows, rows, n, 9, KR, KC, 1);
    int64_t dr[24], dc[24];
    size_t k = 0;
    int reach = (int)rnd_range(1, 3);
    int offsets = (int)rnd_range(2, 5);
    if (rnd_range(0, 1))
        dr[k] = 0, dc[k++] = 0;
    for (int o = 0; o < offsets; o++) {
        int64_t r = rnd_range(-reach, reach), c = rnd_range(-reach, reach);
        int times = (int)rnd_range(1, 3);
        for (int t = 0; t < times && k < 24; t++)
            dr[k] = r, dc[k++] = c;
    }
    return eo_grid(ctx, rows, cols, n, k, dr, dc, 1);
}

static int check_board(ml_board *b)
{
    static const eo_spec spec = {&ml__lifted_ops, &ml__dense_zn_ops, 0, 3, 1};
    return eo_check(ctx, &spec, b);
}

/* U M V = diag(p^e_i) on random m x m matrices over Z/p^k (low-rank ones too) */
static void check_smith(void)
{
    static const unsigned P[] = {2, 2, 2, 3, 3, 5}, K[] = {2, 3, 4, 2, 3, 2};
    for (int it = 0; it < 60; it++) {
        unsigned p = P[it % 6], k = K[it % 6], q = 1;
        for (unsigned i = 0; i < k; i++)
            q *= p;
        size_t m = (size_t)rnd_range(1, 24);
        uint8_t *M = malloc(m * m), *M0 = malloc(m * m), *U = malloc(m * m), *V = malloc(m * m);
        unsigned *e = malloc(m * sizeof *e);
        uint32_t *T = malloc(m * m * sizeof *T);
        int scale = (int)rnd_range(0, 2);   /* multiples of p^scale: valuations above 0 */
        for (size_t i = 0; i < m * m; i++) {
            unsigned x = (unsigned)rnd_range(0, (int64_t)q - 1);
            for (int s = 0; s < scale; s++)
                x = x * p % q;
            M[i] = M0[i] = (uint8_t)(rnd_range(0, 3) ? x : 0);
        }
        CHECK(ml__zq_smith(p, k, m, M, U, V, e) == 0);
        for (size_t i = 0; i < m; i++)   /* T = U M0 */
            for (size_t j = 0; j < m; j++) {
                unsigned s = 0;
                for (size_t l = 0; l < m; l++)
                    s = (s + (unsigned)U[i * m + l] * M0[l * m + j]) % q;
                T[i * m + j] = s;
            }
        int good = 1;
        for (size_t i = 0; i < m; i++)   /* (U M0) V */
            for (size_t j = 0; j < m; j++) {
                unsigned s = 0;
                for (size_t l = 0; l < m; l++)
                    s = (s + T[i * m + l] * V[l * m + j]) % q;
                unsigned want = 0;
                if (i == j && e[i] < k) {
                    want = 1;
                    for (unsigned x = 0; x < e[i]; x++)
                        want *= p;
                }
                good &= s == want;
            }
        CHECK(good, "U M V = diag(p^e) over Z/%u, m = %zu", q, m);
        /* U and V invertible mod p: their determinants mod p (Gauss over GF(p)) */
        for (int which = 0; which < 2; which++) {
            uint8_t *X = which ? V : U;
            unsigned rank = 0;
            for (size_t i = 0; i < m * m; i++)
                T[i] = X[i] % p;
            for (size_t c = 0; c < m; c++) {
                size_t r = rank;
                while (r < m && !T[r * m + c])
                    r++;
                if (r == m)
                    continue;
                for (size_t j = 0; j < m; j++) {
                    uint32_t t = T[r * m + j];
                    T[r * m + j] = T[rank * m + j];
                    T[rank * m + j] = t;
                }
                unsigned inv = ml_inv_mod(T[rank * m + c], p);
                for (size_t i = 0; i < m; i++) {
                    if (i == rank || !T[i * m + c])
                        continue;
                    unsigned f = T[i * m + c] * inv % p;
                    for (size_t j = 0; j < m; j++)
                        T[i * m + j] = (T[i * m + j] + (p - f) * T[rank * m + j]) % p;
                }
                rank++;
            }
            CHECK(rank == m, "%s invertible mod p", which ? "V" : "U");
        }
        free(M);
        free(M0);
        free(U);
        free(V);
        free(e);
        free(T);
    }
}

int main(void)
{
    CHECK(ml_ctx_new(&ctx) == ML_OK);
    /* the algebra over Z/p^k wherever it takes a part (lifted.c's MODLIGHTS_LIFTED_PARTS):
     * on these small boards the table's rules would give many parts to the chase or
     * the digit lift (tests/native/test_capi_lifted.py checks the rules) */
    setenv("MODLIGHTS_LIFTED_PARTS", "algebra", 1);
    check_smith();
    static const int NS[] = {4, 8, 9, 16, 25, 27, 12, 36, 100};
    int parts = 0, others = 0, failed = 0, odd = 0, even = 0, kinds[4] = {0}, singular = 0;
    for (int it = 0; it < 8000 && (parts < 160 || kinds[3] < 30); it++) {
        int n = NS[it % 9], kind = 0;
        ml_board *b = random_torus(n, &kind);
        if (!b)
            continue;
        void *e = NULL;
        if (ml__lifted_ops.build(NULL, ctx, b, &e) != ML_OK) {   /* not covered */
            ml_board_free(b);
            continue;
        }
        int here = 0;
        for (int j = 0; ml__lifted_part(e, j); j++)
            here += strcmp(ml__lifted_part(e, j), "lifted-zq-torus") == 0;
        uint64_t null = 0;
        CHECK(ml__lifted_ops.nullity(NULL, ctx, e, &null) == ML_OK);
        ml__lifted_ops.destroy(NULL, e);
        if (here || others < 60) {
            int ok = check_board(b);
            failed += !ok;
            if (here && ok) {
                parts++;
                kinds[kind]++;
                singular += null > 0;
                odd += (int)((ml_board_rows(b) & 1) || (ml_board_cols(b) & 1));
                even += (int)(!(ml_board_rows(b) & 1) && !(ml_board_cols(b) & 1));
            } else if (ok) {
                others++;
            }
        }
        ml_board_free(b);
    }
    printf("checked %d boards with a part over Z/p^k on a torus (%d singular mod p, %d with "
           "an odd side, %d even; cross %d, diagonal %d, knight %d, random reach 1..3 %d), %d "
           "others\n", parts, singular, odd, even, kinds[0], kinds[1], kinds[2], kinds[3],
           others);
    CHECK(!failed, "failed %d", failed);
    CHECK(parts >= 150 && singular >= 100 && parts - singular >= 20 && odd >= 20 && even >= 20 && kinds[0] >= 10 && kinds[1] >= 10 &&
              kinds[2] >= 5 && kinds[3] >= 30 && others >= 40,
          "coverage");
    ml_ctx_free(ctx);
    return t_done();
}
