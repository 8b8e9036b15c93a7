/* t-entry: csrc/wasm/entry.c (the WebAssembly entry layer, built natively here) against
 * brute force on small random boards: grid boards (random patterns, mixed patterns,
 * locked tiles, holes, wrap) and graph boards, n in 2..12. For each board the tap matrix
 * A is built here from the same description; |ker A| (from ml_w_kernel_factors) and
 * the nullity bounds are checked by counting the x with A x = 0, every returned solution
 * by A x = b, solvability by enumeration, and a proved minimal length by the least
 * length over every solution. Bad arguments must return NULL with ML_W_EINVAL, never
 * crash. Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: wasm/entry.c base/interrupt.c base/cpu.c chase/plan.c chase/symbolic.c chase/numeric.c chase/runner.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c dense/pack.c search/coset.c search/coset_gf2.c search/coset_zn.c search/canon.c search/driver.c */
#include "wasm/entry.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x5DEECE66DULL
#include "t-util.h"

static int rint_(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

/* the board: A is m x L over Z/n (rows: cells as the b vector, columns: the x vector) */
typedef struct { int n, m, L; int *A; uint8_t *tap; const uint8_t *active; } board_t;

static void apply(const board_t *B, const uint8_t *x, int *out)
{
    for (int i = 0; i < B->m; i++) {
        long s = 0;
        for (int j = 0; j < B->L; j++) s += (long)B->A[i * B->L + j] * x[j];
        out[i] = (int)(s % B->n);
    }
}

/* enumerate every x over the taps (n^taps <= 2^16): kernel count, solvability of b,
 * least length over the solutions (-1: none) */
static void brute(const board_t *B, const uint8_t *b, long *kernel, long *minlen)
{
    int taps[64], nt = 0;
    for (int j = 0; j < B->L; j++) if (B->tap[j]) taps[nt++] = j;
    uint8_t x[64] = {0};
    int *y = malloc(sizeof(int) * (B->m + 1));
    *kernel = 0; *minlen = -1;
    for (;;) {
        apply(B, x, y);
        int zero = 1, hit = 1;
        long len = 0;
        for (int i = 0; i < B->m; i++) { if (y[i]) zero = 0; if (y[i] != b[i]) hit = 0; }
        for (int j = 0; j < B->L; j++) len += x[j];
        if (zero) (*kernel)++;
        if (hit && (*minlen < 0 || len < *minlen)) *minlen = len;
        int k = 0;
        while (k < nt && ++x[taps[k]] == B->n) { x[taps[k]] = 0; k++; }
        if (k == nt) break;
    }
    free(y);
}

static long ipow(long a, int e) { long r = 1; while (e--) r *= a; return r; }

static void check_solver(ml_w *s, const board_t *B, const char *what)
{
    int32_t sz[6], pe[16];
    ml_w_sizes(s, sz);
    CHECK(sz[0] == B->m && sz[1] == B->L, "%s: sizes", what);
    int np = ml_w_kernel_factors(s, pe);
    long ks = 1;
    for (int i = 0; i < np; i++) ks *= ipow(pe[2 * i], pe[2 * i + 1]);
    uint8_t *b = calloc(B->m + 1, 1), *x = calloc(B->L + 1, 1), *x0 = calloc(B->L + 1, 1);
    int *y = calloc(B->m + 1, sizeof(int));
    for (int trial = 0; trial < 4; trial++) {
        if (trial % 2 == 0) {                         /* b = A x0: solvable */
            for (int j = 0; j < B->L; j++) x0[j] = B->tap[j] ? (uint8_t)rint_(0, B->n - 1) : 0;
            apply(B, x0, y);
            for (int i = 0; i < B->m; i++) b[i] = (uint8_t)y[i];
        } else {
            for (int i = 0; i < B->m; i++) b[i] = (uint8_t)rint_(0, B->n - 1);
        }
        if (B->active)                                /* holes: b is ignored there */
            for (int i = 0; i < B->m; i++) if (!B->active[i]) b[i] = 0;
        long kernel, minlen;
        brute(B, b, &kernel, &minlen);
        if (trial == 0) CHECK(kernel == ks, "%s: |ker A| %ld, entry says %ld", what, kernel, ks);
        CHECK(sz[3] >= 0 && (ks == 1) == (sz[3] == 0), "%s: nullity %d with |ker| %ld", what, sz[3], ks);
        int rc = ml_w_solve(s, b, x);
        CHECK(rc == (minlen >= 0 ? ML_W_OK : ML_W_UNSOLVABLE), "%s: solve rc %d, brute %ld", what, rc, minlen);
        if (rc == ML_W_OK) {
            apply(B, x, y);
            for (int i = 0; i < B->m; i++) CHECK(y[i] == b[i], "%s: A x != b at %d", what, i);
            for (int j = 0; j < B->L; j++) CHECK(B->tap[j] || !x[j], "%s: x at a non-tap", what);
        }
        double out[3];
        for (int bi = 0; bi < 3; bi++) {
            double budget = bi == 0 ? 1e9 : bi == 1 ? 0 : 3;
            rc = ml_w_minimal(s, b, budget, x, out);
            CHECK(rc == (minlen >= 0 ? ML_W_OK : ML_W_UNSOLVABLE), "%s: minimal rc %d", what, rc);
            if (rc != ML_W_OK) continue;
            apply(B, x, y);
            long len = 0;
            for (int j = 0; j < B->L; j++) len += x[j];
            for (int i = 0; i < B->m; i++) CHECK(y[i] == b[i], "%s: minimal A x != b", what);
            CHECK(len >= minlen, "%s: shorter than the least", what);
            if (out[0] == 1) CHECK(len == minlen, "%s: proved %ld, least %ld", what, len, minlen);
            if (bi == 0) CHECK(out[0] == 1, "%s: a full budget must prove", what);
        }
    }
    free(b); free(x); free(x0); free(y);
}

static void grid_case(void)
{
    int h = rint_(1, 4), w = rint_(1, 4), n = rint_(2, 12), wrap = rint_(0, 3) == 0;
    if (h * w > 8) n = rint_(2, 3);
    int hw = h * w;
    /* offsets: distinct, strictly descending, as ml_chase_plan wants */
    int nu = 0, udr[25], udc[25];
    for (int dr = 2; dr >= -2; dr--)
        for (int dc = 2; dc >= -2; dc--)
            if ((dr == 0 && dc == 0) || rint_(0, 3) == 0) { udr[nu] = dr; udc[nu] = dc; nu++; }
    int npat = rint_(0, 2) == 0 ? 2 : 1;
    int32_t *cnt = calloc((size_t)npat * nu, sizeof(int32_t)), *pat_of = malloc(sizeof(int32_t) * hw);
    for (int p = 0; p < npat; p++)
        for (int u = 0; u < nu; u++) cnt[p * nu + u] = rint_(0, 2) ? rint_(0, 2) : 1;
    for (int t = 0; t < hw; t++) pat_of[t] = npat > 1 ? rint_(0, 1) : 0;
    uint8_t *active = malloc(hw), *tappable = malloc(hw);
    int masks = rint_(0, 1);
    for (int t = 0; t < hw; t++) {
        active[t] = masks ? rint_(0, 5) != 0 : 1;
        tappable[t] = active[t] && (masks ? rint_(0, 4) != 0 : 1);
    }
    int ntaps = 0;
    for (int t = 0; t < hw; t++) ntaps += tappable[t];
    long space = ipow(n, ntaps);
    if (ntaps > 16 || space > 65536) { free(cnt); free(pat_of); free(active); free(tappable); return; }
    board_t B = {n, hw, hw, calloc((size_t)hw * hw, sizeof(int)), tappable, active};
    for (int q = 0; q < hw; q++) {
        if (!tappable[q]) continue;
        int qr = q / w, qc = q % w, p = pat_of[q];
        for (int u = 0; u < nu; u++) {
            int r = qr + udr[u], c = qc + udc[u];
            if (wrap) { r = ((r % h) + h) % h; c = ((c % w) + w) % w; }
            else if (r < 0 || r >= h || c < 0 || c >= w) continue;
            if (!active[r * w + c]) continue;
            B.A[(r * w + c) * hw + q] = (B.A[(r * w + c) * hw + q] + cnt[p * nu + u]) % n;
        }
    }
    int32_t code = 99;
    ml_w *s = ml_w_grid(h, w, n, wrap, masks ? active : NULL, masks ? tappable : NULL, nu, udr, udc,
                        npat, cnt, npat > 1 ? pat_of : NULL, &code);
    CHECK(s && code == ML_W_OK, "grid %dx%d n=%d: %s", h, w, n, ml_w_error());
    if (s) {
        char what[64];
        snprintf(what, sizeof what, "grid %dx%d n=%d wrap=%d", h, w, n, wrap);
        check_solver(s, &B, what);
        ml_w_dispose(s);
    }
    free(B.A); free(cnt); free(pat_of); free(active); free(tappable);
}

static void graph_case(void)
{
    int n = rint_(2, 12), m = rint_(0, 6), r = rint_(0, 6);
    long space = ipow(n, r);
    while (space > 65536) { r--; space = ipow(n, r); }
    int32_t indptr[8] = {0}, cells[64];
    int nnz = 0;
    board_t B = {n, m, r, calloc((size_t)(m + 1) * (r + 1), sizeof(int)), NULL, NULL};
    uint8_t tap[8];
    for (int j = 0; j < r; j++) {
        tap[j] = 1;
        int e = m ? rint_(0, 4) : 0;
        for (int t = 0; t < e; t++) {
            cells[nnz] = rint_(0, m - 1);
            B.A[cells[nnz] * r + j] = (B.A[cells[nnz] * r + j] + 1) % n;
            nnz++;
        }
        indptr[j + 1] = nnz;
    }
    B.tap = tap;
    int32_t code = 99;
    ml_w *s = ml_w_graph(n, m, r, indptr, cells, &code);
    CHECK(s && code == ML_W_OK, "graph m=%d r=%d n=%d: %s", m, r, n, ml_w_error());
    if (s) { check_solver(s, &B, "graph"); ml_w_dispose(s); }
    free(B.A);
}

static void bad_input(void)
{
    int32_t code = 0, udr[2] = {0, 1}, udc[2] = {0, 0}, cnt[2] = {1, 1}, indptr[3] = {0, 2, 1};
    int32_t cells[2] = {0, 5};
    CHECK(!ml_w_grid(0, 3, 2, 0, NULL, NULL, 1, udr, udc, 1, cnt, NULL, &code) && code == ML_W_EINVAL, "h = 0");
    CHECK(!ml_w_grid(3, 3, 256, 0, NULL, NULL, 1, udr, udc, 1, cnt, NULL, &code) && code == ML_W_EINVAL, "n = 256");
    CHECK(!ml_w_grid(3, 3, 2, 0, NULL, NULL, 2, udc, udr, 1, cnt, NULL, &code) && code == ML_W_EINVAL,
          "offsets not descending");
    CHECK(!ml_w_grid(3, 3, 2, 0, NULL, NULL, 2, udr, udc, 2, cnt, NULL, &code) && code == ML_W_EINVAL,
          "two patterns without pat_of");
    CHECK(!ml_w_graph(2, 3, 2, indptr, cells, &code) && code == ML_W_EINVAL, "indptr decreasing");
    indptr[2] = 2;
    CHECK(!ml_w_graph(2, 3, 2, indptr, cells, &code) && code == ML_W_EINVAL, "cell out of range");
    CHECK(!ml_w_graph(1, 3, 2, indptr, cells, &code) && code == ML_W_EINVAL, "n = 1");
    /* a residual system past the limits: the empty-pattern 200 x 200 board (every tap a
     * symbol) is refused before anything large is allocated */
    int32_t zero[1] = {0}, one[1] = {0};
    ml_w *s = ml_w_grid(200, 200, 2, 0, NULL, NULL, 1, zero, zero, 1, one, NULL, &code);
    CHECK(!s && code == ML_W_ELIMIT && strstr(ml_w_error(), "too large for its pattern"),
          "residual limit: code %d %s", code, ml_w_error());
    ml_w_dispose(s);
}

/* Kernels larger than the search holds: the first generators only, every size checked
 * before allocation (on wasm32 the products nsym x nsym and null x nsym wrapped a 32-bit
 * size_t: 65536 taps on no cells, 65537 taps on one cell). Also handles that are NULL or
 * disposed, and missing output buffers, are refused. */
static void big_kernels_and_handles(void)
{
    for (int32_t m = 0; m <= 1; m++) {
        const int32_t r = m ? 65537 : 65536;
        int32_t *indptr = malloc(sizeof(int32_t) * (size_t)(r + 1));
        int32_t *cells = calloc((size_t)r + 1, sizeof(int32_t));
        for (int32_t j = 0; j <= r; j++) indptr[j] = m ? j : 0;
        int32_t code = 0;
        ml_w *s = ml_w_graph(2, m, r, indptr, cells, &code);
        CHECK(s != NULL, "graph %d cells x %d taps: code %d %s", m, r, code, ml_w_error());
        if (s) {
            uint8_t b[1] = {(uint8_t)m}, *x = calloc((size_t)r, 1);
            double out[3];
            int32_t rc = ml_w_minimal(s, b, 1000, x, out);
            uint64_t len = 0;
            for (int32_t j = 0; j < r; j++) len += x[j];
            CHECK(rc == ML_W_OK && len == (uint64_t)m && out[0] == (m ? 0 : 1),
                  "minimal on %d x %d: rc %d length %llu proved %g %s", m, r, rc,
                  (unsigned long long)len, out[0], ml_w_error());
            CHECK(ml_w_minimal(s, b, 10, NULL, out) == ML_W_EINVAL, "NULL x refused");
            CHECK(ml_w_solve(s, b, NULL) == ML_W_EINVAL, "NULL x refused by solve");
            ml_w_dispose(s);
            free(x);
        }
        free(indptr);
        free(cells);
    }
    uint8_t b[1] = {0}, x[1];
    double out[3];
    int32_t sizes[6] = {1, 1, 1, 1, 1, 1}, pe[2] = {0, 0};
    CHECK(ml_w_solve(NULL, b, x) == ML_W_EINVAL, "NULL solver refused by solve");
    CHECK(ml_w_minimal(NULL, b, 10, x, out) == ML_W_EINVAL, "NULL solver refused by minimal");
    CHECK(ml_w_kernel_factors(NULL, pe) == 0, "NULL solver: no kernel factors");
    {
        int32_t code = 0, ip[2] = {0, 1}, c1[1] = {0};
        ml_w *s = ml_w_graph(2, 1, 1, ip, c1, &code);
        CHECK(s && ml_w_solve(s, NULL, x) == ML_W_EINVAL, "NULL right-hand side refused");
        ml_w_dispose(s);
    }
    ml_w_sizes(NULL, sizes);
    CHECK(sizes[0] == 0 && sizes[5] == 0, "NULL solver: sizes zero");
    ml_w_dispose(NULL);
}

int main(void)
{
    bad_input();
    big_kernels_and_handles();
    for (int i = 0; i < 400; i++) grid_case();
    for (int i = 0; i < 200; i++) graph_case();
    return t_done();
}
