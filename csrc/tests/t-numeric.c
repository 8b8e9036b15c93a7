/* t-numeric: csrc/chase/numeric.c (the chase replayed on numbers) against the tap matrix
 * A of random grid descriptions (chase-oracle.h), on every path it has: the general
 * per-tap way (wrap lists, mixed patterns, borders), the fixed-delta runs of a uniform
 * pattern (GF(2) and Z/n vectorised segments, boards wider than a 512-tap segment, a
 * forcing coefficient other than 1), the two-pass rows of patterns with taps in the
 * forced tap's own row (square, knight), locked tiles and holes inside such boards, a
 * 225-offset pattern (the periodic reduction of the Z/n accumulator), n in 2..9, 12, 16,
 * 251, 1 x k and k x 1 boards:
 *   - for random b and z: x = z at the symbols, 0 off the taps, < n; (A x)[c] = b[c] at
 *     every active tile that forces a tap; rho = b - A x at the residual tiles;
 *   - z = NULL is z = 0;
 *   - b = A x_true and z = x_true at the symbols give back x_true with rho = 0;
 *   - over a prime, M z = rho(0) solved here (plain elimination) gives a solution
 *     x = numeric(b, z) of A x = b, for every solvable b tried.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: chase/numeric.c chase/plan.c base/cpu.c base/interrupt.c */
#include "chase/chase.h"
#include "base/cpu.h"
#include <stdio.h>

#define ML_T_SEED 0x4E0E41Cull
#include "t-util.h"
#include "chase-oracle.h"

/* One solution z of M z = rhs mod the prime p (nres x nsym), or 0 when none. */
static int solve_p(const uint8_t *M, const uint8_t *rhs, size_t rows, size_t cols, unsigned p,
                   uint8_t *z)
{
    size_t W = cols + 1;
    uint8_t *a = malloc(rows * W + 1);
    size_t *pc = malloc((rows + 1) * sizeof(size_t));
    for (size_t i = 0; i < rows; i++) {
        memcpy(a + i * W, M + i * cols, cols);
        a[i * W + cols] = rhs[i];
    }
    size_t rank = 0;
    for (size_t c = 0; c < cols && rank < rows; c++) {
        size_t piv = rank;
        while (piv < rows && !a[piv * W + c]) piv++;
        if (piv == rows) continue;
        for (size_t j = 0; j < W; j++) {
            uint8_t t = a[piv * W + j]; a[piv * W + j] = a[rank * W + j]; a[rank * W + j] = t;
        }
        unsigned inv = 1;
        while (inv * a[rank * W + c] % p != 1) inv++;
        for (size_t j = 0; j < W; j++) a[rank * W + j] = (uint8_t)(a[rank * W + j] * inv % p);
        for (size_t i = 0; i < rows; i++) {
            if (i == rank || !a[i * W + c]) continue;
            unsigned f = a[i * W + c];
            for (size_t j = 0; j < W; j++)
                a[i * W + j] = (uint8_t)((a[i * W + j] + (p - f) * a[rank * W + j]) % p);
        }
        pc[rank++] = c;
    }
    int ok = 1;
    for (size_t i = rank; i < rows; i++) ok &= a[i * W + cols] == 0;
    memset(z, 0, cols);
    for (size_t i = 0; i < rank && ok; i++) z[pc[i]] = a[i * W + cols];
    free(a); free(pc);
    return ok;
}

static int n_cases, n_solved;

static void check_numeric(co_desc *d)
{
    int err = -1;
    ml_chase *P = co_plan(d, &err);
    CHECK(P && err == 0, "%s: no plan (err %d)", d->what, err);
    if (!P) return;
    n_cases++;
    const size_t hw = co_hw(d), nsym = ml_chase_nsym(P), nres = ml_chase_nres(P);
    const unsigned n = (unsigned)d->n;
    uint8_t *b = malloc(hw), *z = malloc(nsym + 1), *x = malloc(hw), *x2 = malloc(hw),
            *rho = malloc(nres + 1), *rho2 = malloc(nres + 1), *xt = malloc(hw);
    int64_t *sym = malloc((nsym + 1) * sizeof(int64_t));
    ml_chase_symbols(P, sym);
    for (int rep = 0; rep < 2; rep++) {
        for (size_t t = 0; t < hw; t++) b[t] = (uint8_t)(rnd() % n);
        for (size_t s = 0; s < nsym; s++) z[s] = (uint8_t)(rnd() % n);
        co_check_numeric(P, d, b, z, x, rho, "random z");
        /* z = NULL is z = 0 */
        memset(z, 0, nsym + 1);
        co_check_numeric(P, d, b, z, x, rho, "z = 0");
        ml_chase_numeric(P, b, NULL, x2, rho2);
        CHECK(!memcmp(x, x2, hw) && !memcmp(rho, rho2, nres), "%s: z = NULL differs from z = 0",
              d->what);
    }
    /* a known solution replays */
    co_solvable(d, b, xt);
    for (size_t s = 0; s < nsym; s++) z[s] = xt[sym[s]];
    if (!co_check_numeric(P, d, b, z, x, rho, "replay")) {
        int same = 1;
        for (size_t t = 0; t < hw; t++) same &= !co_tap(d, t) || x[t] == xt[t];
        CHECK(same, "%s: the replay of x_true differs", d->what);
        for (size_t k = 0; k < nres; k++) CHECK(rho[k] == 0, "%s: replay rho[%zu] = %u", d->what, k, rho[k]);
    }
    /* over a prime: M z = rho(0) solves A x = b (b solvable: the z found must work) */
    if (co_is_prime(d->n) && nsym * nres <= 4096 * 4) {
        uint8_t *M = co_matrix_by_numeric(P, d, b);
        ml_chase_numeric(P, b, NULL, x, rho);
        CHECK(solve_p(M, rho, nres, nsym, n, z), "%s: M z = rho(0) unsolvable for b = A x", d->what);
        ml_chase_numeric(P, b, z, x, rho);
        uint8_t *ax = malloc(hw);
        co_ax(d, x, ax);
        int ok = 1;
        for (size_t c = 0; c < hw; c++) ok &= !co_act(d, c) || ax[c] == b[c];
        for (size_t k = 0; k < nres; k++) ok &= rho[k] == 0;
        CHECK(ok, "%s: x from M z = rho(0) does not solve A x = b", d->what);
        n_solved += ok;
        free(ax);
        free(M);
    }
    free(b); free(z); free(x); free(x2); free(rho); free(rho2); free(xt); free(sym);
    ml_chase_free(P);
}

/* A uniform pattern of every offset in [-7, 7]^2 (225 of them), random counts, the
 * forcing offset (-7, -7) a unit: Z/n runs over more than 200 sources. */
static void wide_pattern(co_desc *d, int h, int w, int n)
{
    memset(d, 0, sizeof *d);
    d->h = h; d->w = w; d->n = n; d->npat = 1;
    for (int dr = 7; dr >= -7; dr--)
        for (int dc = 7; dc >= -7; dc--) {
            d->udr[d->nu] = dr; d->udc[d->nu] = dc;
            d->cnt[d->nu] = (int32_t)rnd_range(0, 3 * n);
            d->nu++;
        }
    d->cnt[d->nu - 1] = 1 + (int32_t)(rnd() % 2) * (n - 2);   /* 1 or n - 1 */
    snprintf(d->what, sizeof d->what, "%dx%d n=%d 225 offsets", h, w, n);
}

int main(void)
{
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 251};
    int simds[3] = {ML_SIMD_PORTABLE, ML_SIMD_AVX2, ML_SIMD_AVX512};
    for (int s = 0; s < 3; s++) {
        if (!ml_cpu_supports(simds[s]) || ml_simd_set(simds[s]) != 0) continue;
        for (int trial = 0; trial < 330; trial++) {
            co_desc d;
            int h = 0, w = 0, n = ns[trial % 11], kind = trial % 3 == 0 ? 1 : trial % 3 == 1 ? 2 : 0;
            switch (trial % 10) {
            case 0: h = 1; w = (int)rnd_range(1, 30); break;
            case 1: w = 1; h = (int)rnd_range(1, 30); break;
            case 2: h = (int)rnd_range(3, 6); w = (int)rnd_range(513, 1100); break;  /* segments */
            case 3: h = (int)rnd_range(8, 20); w = (int)rnd_range(8, 40); break;
            default: break;
            }
            co_random(&d, h, w, n, kind);
            check_numeric(&d);
            co_free(&d);
        }
        for (int i = 0; i < 4; i++) {
            co_desc d;
            wide_pattern(&d, 20 + i, 30 + 5 * i, i % 2 ? 251 : 7);
            check_numeric(&d);
        }
    }
    printf("cases %d, solved through M %d\n", n_cases, n_solved);
    CHECK(n_solved > 150);
    return t_done();
}
