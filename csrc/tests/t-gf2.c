/* t-gf2: csrc/dense/gf2.c against naive O(n^3) routines, on every SIMD path this CPU
 * supports; -DML_CHUNK=2 (the chunk2 variant) runs the column-chunked table loops on small
 * matrices. Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c base/cpu.c base/interrupt.c
 * ml-test-variant: chunk2 -DML_CHUNK=2 */
#include "dense/gf2.h"
#include "base/cpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 88172645463325252ull
#include "t-util.h"

static ml_gf2_t *randm(size_t m, size_t n, int percent)
{
    ml_gf2_t *A = ml_gf2_new(m, n);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            if ((int)(rnd() % 100) < percent) ml_gf2_flip(A, i, j);
    return A;
}
/* rank <= 3 (a product through 3 columns) when lowrank and m, n > 2, else random
 * with the given density */
static ml_gf2_t *randm_kind(size_t m, size_t n, int lowrank, int percent)
{
    if (lowrank && m > 2 && n > 2) {
        ml_gf2_t *U = randm(m, 3, 50), *V = randm(3, n, 50);
        ml_gf2_t *A = ml_gf2_mul(U, V);
        ml_gf2_free(U); ml_gf2_free(V);
        return A;
    }
    return randm(m, n, percent);
}
static ml_gf2_t *mul_naive(const ml_gf2_t *A, const ml_gf2_t *B)
{
    ml_gf2_t *C = ml_gf2_new(A->nrows, B->ncols);
    for (size_t i = 0; i < A->nrows; i++)
        for (size_t k = 0; k < A->ncols; k++)
            if (ml_gf2_get(A, i, k))
                for (size_t j = 0; j < B->ncols; j++)
                    if (ml_gf2_get(B, k, j)) ml_gf2_flip(C, i, j);
    return C;
}
static int is_zero(const ml_gf2_t *A)
{
    for (size_t i = 0; i < A->nrows; i++)
        for (size_t w = 0; w < A->width; w++)
            if (ml_gf2_row(A, i)[w]) return 0;
    return 1;
}

static void check_matrix(const ml_gf2_t *A)
{
    size_t m = A->nrows, n = A->ncols;
    /* naive and M4RI elimination agree (pivots; the reduced form is unique) */
    for (int full = 0; full < 2; full++) {
        ml_gf2_t *P = ml_gf2_copy(A), *Q = ml_gf2_copy(A);
        size_t *p1 = malloc((m + 1) * sizeof(size_t)), *p2 = malloc((m + 1) * sizeof(size_t));
        size_t r1 = ml_gf2_echelonize_naive(P, full, n, p1);
        size_t r2 = ml_gf2_echelonize_m4ri(Q, full, n, p2);
        CHECK(r1 == r2 && !memcmp(p1, p2, r1 * sizeof(size_t)), "rank/pivots %zux%zu full=%d", m, n, full);
        if (full) CHECK(ml_gf2_equal(P, Q), "rref %zux%zu", m, n);
        ml_gf2_free(P); ml_gf2_free(Q); free(p1); free(p2);
    }
    /* factorisation: T A = E */
    ml_gf2_fact_t *F = ml_gf2_factor(A);
    ml_gf2_t *T = ml_gf2_new(m, m), *E = ml_gf2_new(m, n);
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < m; j++) if (ml_gf2_get(F->W, i, n + j)) ml_gf2_flip(T, i, j);
        for (size_t j = 0; j < n; j++) if (ml_gf2_get(F->W, i, j)) ml_gf2_flip(E, i, j);
    }
    ml_gf2_t *TA = ml_gf2_mul(T, A), *TA2 = mul_naive(T, A);
    CHECK(ml_gf2_equal(TA, E) && ml_gf2_equal(TA2, E), "T A != E %zux%zu", m, n);
    CHECK(ml_gf2_rank(T) == m, "T singular %zux%zu", m, n);
    /* kernel */
    ml_gf2_t *H = ml_gf2_kernel(F), *Ht = ml_gf2_transpose(H), *AH = ml_gf2_mul(A, Ht);
    CHECK(is_zero(AH), "A H^T != 0 %zux%zu", m, n);
    CHECK(H->nrows == n - F->rank && ml_gf2_rank(H) == H->nrows, "kernel rank %zux%zu", m, n);
    /* pseudo-inverse */
    ml_gf2_t *G = ml_gf2_pinv(F), *AG = ml_gf2_mul(A, G), *AGA = ml_gf2_mul(AG, A);
    CHECK(ml_gf2_equal(AGA, A), "A G A != A %zux%zu", m, n);
    /* transpose */
    ml_gf2_t *At = ml_gf2_transpose(A), *Att = ml_gf2_transpose(At);
    CHECK(ml_gf2_equal(A, Att), "transpose twice %zux%zu", m, n);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            if (ml_gf2_get(A, i, j) != ml_gf2_get(At, j, i)) { CHECK(0, "transpose bit"); i = m; break; }
    /* solve: solvable right-hand sides B = (A X^T)^T, by product and by dot products */
    ml_gf2_t *X = randm(70, n, 50), *Xt = ml_gf2_transpose(X), *Bt = ml_gf2_mul(A, Xt);
    ml_gf2_t *B = ml_gf2_transpose(Bt), *S = ml_gf2_solve_matrix(F), *Y = ml_gf2_mul(B, S);
    ml_gf2_t *Yn = mul_naive(B, S), *Yd = ml_gf2_solve_dot(F, B);
    CHECK(ml_gf2_equal(Y, Yn), "M4RM product %zux%zu", m, n);
    CHECK(ml_gf2_equal(Y, Yd), "solve_dot %zux%zu", m, n);
    uint8_t ok[70];
    ml_gf2_solve_ok(Y, n, ok);
    for (int i = 0; i < 70; i++) if (!ok[i]) { CHECK(0, "solvable flagged %zux%zu", m, n); break; }
    ml_gf2_t *Xs = ml_gf2_new(70, n);
    for (int i = 0; i < 70; i++) for (size_t j = 0; j < n; j++) if (ml_gf2_get(Y, i, j)) ml_gf2_flip(Xs, i, j);
    ml_gf2_t *Xst = ml_gf2_transpose(Xs), *AX = ml_gf2_mul(A, Xst);
    CHECK(ml_gf2_equal(AX, Bt), "A x != b %zux%zu", m, n);
    /* random right-hand sides: both routes agree */
    ml_gf2_t *R = randm(5, m, 50), *Y1 = ml_gf2_mul(R, S), *Y2 = ml_gf2_solve_dot(F, R);
    CHECK(ml_gf2_equal(Y1, Y2), "solve routes differ %zux%zu", m, n);
    ml_gf2_t *all[] = {T, E, TA, TA2, H, Ht, AH, G, AG, AGA, At, Att, X, Xt, Bt, B, S, Y, Yn, Yd,
                       Xs, Xst, AX, R, Y1, Y2};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) ml_gf2_free(all[i]);
    ml_gf2_fact_free(F);
}

/* The blocked forward elimination (panels of `panel` words, strips of `strip` words)
 * against the naive one: rank, pivots, the reduced form, and for full = 0 an echelon
 * form with the same row space (its reduced form is the same). */
static void check_blocked(const ml_gf2_t *A, size_t pivot_cols, size_t panel, size_t strip,
                          size_t dense_rows)
{
    size_t m = A->nrows, n = A->ncols;
    for (int full = 0; full < 2; full++) {
        ml_gf2_t *P = ml_gf2_copy(A), *Q = ml_gf2_copy(A);
        size_t *p1 = malloc((m + 1) * sizeof(size_t)), *p2 = malloc((m + 1) * sizeof(size_t));
        size_t r1 = ml_gf2_echelonize_naive(P, full, pivot_cols, p1);
        size_t r2 = ml_gf2_echelonize_blocked(Q, full, pivot_cols, p2, panel, strip, dense_rows);
        CHECK(r1 == r2 && !memcmp(p1, p2, r1 * sizeof(size_t)),
              "blocked rank/pivots %zux%zu pc=%zu full=%d panel=%zu strip=%zu dense=%zu", m,
              n, pivot_cols, full, panel, strip, dense_rows);
        if (!full) {
            for (size_t i = r2; i < m; i++)
                for (size_t j = 0; j < pivot_cols; j++)
                    if (ml_gf2_get(Q, i, j)) { CHECK(0, "blocked: bits below the rank"); i = m; break; }
            for (size_t i = 0; i < r2 && r1 == r2; i++)
                for (size_t j = 0; j <= p2[i]; j++)
                    if (ml_gf2_get(Q, i, j) != (j == p2[i])) { CHECK(0, "blocked: not echelon"); i = m; break; }
            ml_gf2_echelonize_naive(P, 1, pivot_cols, NULL);
            ml_gf2_echelonize_naive(Q, 1, pivot_cols, NULL);
        }
        CHECK(ml_gf2_equal(P, Q), "blocked rref %zux%zu pc=%zu full=%d panel=%zu strip=%zu", m,
              n, pivot_cols, full, panel, strip);
        ml_gf2_free(P); ml_gf2_free(Q); free(p1); free(p2);
    }
}

static void blocked_tests(void)
{
    const size_t ms[] = {1, 63, 64, 65, 129, 200, 300};
    const size_t ns[] = {1, 64, 129, 191, 192, 193, 320, 449, 577, 1217};
    const size_t ps[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 3}, {3, 2}, {4, 8}, {1, 16}, {3, 16}};
    for (size_t a = 0; a < sizeof ms / sizeof *ms; a++)
        for (size_t b = 0; b < sizeof ns / sizeof *ns; b++)
            for (int kind = 0; kind < 6; kind++) {
                size_t m = ms[a], n = ns[b];
                ml_gf2_t *A = randm_kind(m, n, kind == 2, kind == 1 ? 3 : 50);
                if (kind == 3)                                  /* zero columns: */
                    for (size_t i = 0; i < m; i++)              /* unaligned passes */
                        for (size_t j = 5; j < n; j += 37)
                            if (ml_gf2_get(A, i, j)) ml_gf2_flip(A, i, j);
                if (kind == 5)              /* light passes first, then dense ones */
                    for (size_t i = 0; i < m; i++)
                        for (size_t j = 0; j < n && j < 128; j++)
                            if (ml_gf2_get(A, i, j) != (i == j)) ml_gf2_flip(A, i, j);
                if (kind == 4)                                  /* repeated rows */
                    for (size_t i = m / 2; i < m; i++)
                        for (size_t j = 0; j < n; j++)
                            if (ml_gf2_get(A, i, j) != ml_gf2_get(A, i - m / 2, j))
                                ml_gf2_flip(A, i, j);
                for (size_t t = 0; t < sizeof ps / sizeof *ps; t++) {
                    /* dense_rows 0: every table pass deferred; m / 2: some applied at once */
                    check_blocked(A, n, ps[t][0], ps[t][1], 0);
                    check_blocked(A, n / 2, ps[t][0], ps[t][1], 0);  /* columns ride along */
                    check_blocked(A, n, ps[t][0], ps[t][1], m / 2);
                    check_blocked(A, n / 2, ps[t][0], ps[t][1], m / 2);
                }
                ml_gf2_free(A);
            }
}

int main(void)
{
    const size_t sizes[] = {0, 1, 2, 5, 63, 64, 65, 127, 128, 129, 257};
    const int ns = (int)(sizeof sizes / sizeof *sizes);
    for (int path = 0; path < ML_SIMD_COUNT; path++) {
        if (ml_simd_set(path)) continue;
        printf("path %s\n", ml_simd_name(path));
        for (int a = 0; a < ns; a++)
            for (int b = 0; b < ns; b += 2)
                for (int kind = 0; kind < 3; kind++) {
                    size_t m = sizes[a], n = sizes[b];
                    ml_gf2_t *A = randm_kind(m, n, kind == 2, kind == 0 ? 50 : 3);
                    check_matrix(A);
                    ml_gf2_free(A);
                }
        blocked_tests();
    }
    /* packing */
    uint8_t buf[3 * 77];
    for (int i = 0; i < 3 * 77; i++) buf[i] = (uint8_t)(rnd() & 3);
    ml_gf2_t *P = ml_gf2_new(3, 77);
    ml_gf2_pack_u8(P, buf, 77);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 77; j++)
            if (ml_gf2_get(P, i, j) != (buf[i * 77 + j] & 1)) { CHECK(0, "pack"); i = 3; break; }
    ml_gf2_free(P);
    return t_done();
}
