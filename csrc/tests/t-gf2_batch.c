/* t-gf2_batch: csrc/dense/gf2_batch.c (many right-hand sides, 64 boards to a word) on
 * every SIMD path this CPU supports (ml_simd_set), against per-bit loops written here:
 * pack_u8_cols is the transposed low bits (any byte values, strides > m); unpack gives
 * ok = all check rows zero and x = the solution rows (0 when unsolvable); solve_bytes_small
 * equals the product S^T b computed bit by bit, and refuses sizes that do not fit (-1,
 * nothing written). k and m across 1..9, 63/64/65, 127/128/129.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c base/cpu.c base/interrupt.c */
#include "dense/gf2_batch.h"
#include "base/cpu.h"
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0xBA7C4E5ull
#include "t-util.h"

static const size_t sizes[] = {1, 2, 3, 5, 7, 8, 9, 63, 64, 65, 127, 128, 129};
#define NS (sizeof sizes / sizeof *sizes)

static void check_pack(size_t k, size_t m, int path)
{
    size_t st = m + (size_t)rnd_range(0, 5);
    uint8_t *src = malloc(k * st + 1);
    for (size_t i = 0; i < k * st + 1; i++) src[i] = (uint8_t)rnd();
    ml_gf2_t *B = ml_gf2_pack_u8_cols(src, k, m, st);
    CHECK(B != NULL);
    if (B) {
        CHECK(B->nrows == m && B->ncols == k);
        int bad = 0;
        for (size_t j = 0; j < m; j++)
            for (size_t i = 0; i < k; i++) bad += ml_gf2_get(B, j, i) != (src[i * st + j] & 1);
        CHECK(bad == 0, "pack k=%zu m=%zu path %s: %d wrong", k, m, ml_simd_name(path), bad);
    }
    ml_gf2_free(B);
    free(src);
}

static void check_unpack(size_t k, size_t r, size_t nchk, int path)
{
    ml_gf2_t *Y = ml_gf2_new(r + nchk, k);
    for (size_t i = 0; i < r + nchk; i++)
        for (size_t j = 0; j < k; j++)
            if (rnd() % (i < r ? 2 : 9 * (r + nchk)) == 0) ml_gf2_flip(Y, i, j);
    uint8_t *x = malloc(k * r + 1), *ok = malloc(k + 1);
    memset(x, 0x55, k * r + 1);
    memset(ok, 0x55, k + 1);
    ml_gf2_unpack_solutions_cols(Y, r, x, ok);
    int bad = 0;
    for (size_t j = 0; j < k; j++) {
        int good = 1;
        for (size_t i = r; i < r + nchk; i++) good &= !ml_gf2_get(Y, i, j);
        bad += ok[j] != good;
        for (size_t i = 0; i < r; i++) bad += x[j * r + i] != (good ? ml_gf2_get(Y, i, j) : 0);
    }
    bad += x[k * r] != 0x55;
    bad += ok[k] != 0x55;
    CHECK(bad == 0, "unpack k=%zu r=%zu checks=%zu path %s: %d wrong", k, r, nchk, ml_simd_name(path), bad);
    ml_gf2_free(Y);
    free(x); free(ok);
}

static void check_small(size_t m, size_t q, size_t r, size_t k)
{
    ml_gf2_t *S = ml_gf2_new(m, q);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < q; j++)
            if (rnd() & 1) ml_gf2_flip(S, i, j);
    size_t st = m + (size_t)rnd_range(0, 3);
    uint8_t *src = malloc(k * st + 1), *x = malloc(k * r + 1), *ok = malloc(k + 1);
    for (size_t i = 0; i < k * st + 1; i++) src[i] = (uint8_t)rnd();
    /* some boards solvable: b = 0 makes every check zero */
    for (size_t i = 0; i < k; i += 3) for (size_t j = 0; j < m; j++) src[i * st + j] &= 0xFE;
    memset(x, 0x55, k * r + 1);
    memset(ok, 0x55, k + 1);
    int rc = ml_gf2_solve_bytes_small(S, r, src, k, st, x, ok);
    CHECK(rc == 0, "small m=%zu q=%zu r=%zu k=%zu: rc %d", m, q, r, k, rc);
    int bad = 0;
    for (size_t b = 0; b < k; b++) {
        uint64_t y = 0;   /* y = S^T b bit by bit */
        for (size_t j = 0; j < q; j++) {
            int v = 0;
            for (size_t i = 0; i < m; i++) v ^= ml_gf2_get(S, i, j) & (src[b * st + i] & 1);
            y |= (uint64_t)v << j;
        }
        int good = r >= 64 ? 1 : (y >> r) == 0;
        bad += ok[b] != good;
        for (size_t i = 0; i < r; i++) bad += x[b * r + i] != (good ? (int)((y >> i) & 1) : 0);
    }
    bad += x[k * r] != 0x55;
    CHECK(bad == 0, "small m=%zu q=%zu r=%zu k=%zu: %d wrong", m, q, r, k, bad);
    ml_gf2_free(S);
    free(src); free(x); free(ok);
}

int main(void)
{
    for (int p = 0; p < ML_SIMD_COUNT; p++) {
        if (ml_simd_set(p) != 0) continue;
        for (size_t a = 0; a < NS; a++)
            for (size_t b = 0; b < NS; b++) check_pack(sizes[a], sizes[b], p);
        for (int rep = 0; rep < 30; rep++)
            check_pack((size_t)rnd_range(1, 400), (size_t)rnd_range(1, 300), p);
        for (size_t a = 0; a < NS; a++)
            for (size_t b = 0; b < NS; b += 2) {
                check_unpack(sizes[a], sizes[b], 0, p);
                check_unpack(sizes[a], sizes[b], (size_t)rnd_range(1, 9), p);
            }
        for (size_t a = 0; a < NS; a++)
            for (int rep = 0; rep < 10; rep++) {
                size_t m = (size_t)rnd_range(1, 64), q = (size_t)rnd_range(1, 64);
                check_small(m, q, (size_t)rnd_range(0, (int64_t)q), sizes[a]);
            }
        check_small(64, 64, 64, 129);
        check_small(64, 64, 0, 65);
        check_small(1, 1, 1, 1);
    }
    /* refusals: more than 64 rows or columns, r > q: -1 and nothing written */
    {
        const size_t bad[][3] = {{65, 10, 5}, {10, 65, 5}, {10, 10, 11}};
        for (size_t i = 0; i < 3; i++) {
            ml_gf2_t *S = ml_gf2_new(bad[i][0], bad[i][1]);
            uint8_t src[200] = {1}, x[400], ok[4];
            memset(x, 0x55, sizeof x);
            memset(ok, 0x55, sizeof ok);
            int rc = ml_gf2_solve_bytes_small(S, bad[i][2], src, 2, 66, x, ok);
            CHECK(rc == -1, "refusal %zu: rc %d", i, rc);
            CHECK(x[0] == 0x55 && ok[0] == 0x55, "refusal %zu wrote", i);
            ml_gf2_free(S);
        }
    }
    return t_done();
}
