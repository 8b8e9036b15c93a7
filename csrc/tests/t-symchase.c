/* t-symchase: csrc/structured/symchase.c (the light chase of uniform boards whose
 * pattern lies in the 3 x 3 box and is left-right symmetric) against the board's
 * equations and dense eliminations written here, over GF(p), p = 2, 3, 5, 7 and 251,
 * random counts, h and w 1..9 (odd and even), 1 x k, k x 1 and widths past a word
 * (63/64/65, 127..129, 200, 300, 1000):
 *   - ml_symchase_invertible against the determinant of C_1 = a[2] I + b[2] P (the
 *     continuant recurrence, and for w <= 100 a dense elimination here; b[2] = 0, w = 1
 *     and singular widths included); a singular C_1
 *     refused by every entry point (1), p != 2 by the packed ones (1);
 *   - the chase (bytes, z or NULL): x starts with z, and applying the pattern to the
 *     taps gives b on rows 0..h-2 and b - C_1 X_h on row h-1;
 *   - nullity and solvability (hw <= 81): dim ker A = w - rank of the map z -> X_h, b
 *     solvable (rank [A | b] = rank A) iff X_h(0) is in its image; tiny boards (p^w <=
 *     4096): every z enumerated, |ker A| = #{z : X_h(z) = 0}, a z with X_h = 0 solves;
 *   - the packed GF(2) chase (tc, z words, x NULL: the read-only pass, junk past column
 *     w of b): the byte chase of b ^ tc, zero past column w of x and X_h;
 *   - the packed row solve (rows across the 64-row poll, row strides with junk bytes
 *     between rows left untouched): C_1 y_new = y_old, zero past column w;
 *   - the stop (the packed chase polls every 16 rows, the row solve every 64): a stop
 *     requested before the call (process-wide, or a scope's context flag) leaves the
 *     last rows unwritten, and is taken.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: structured/symchase.c structured/packed.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c poly/poly.c poly/gfpx_fast.c base/cpu.c base/interrupt.c */
#include "structured/symchase.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x5C4A5E5EDull
#include "t-util.h"

static const unsigned PRIMES[] = {2, 3, 5, 7, 251};

/* (A x) over GF(p) on the h x w grid: tile (r, c) gets sum_k a[k] x[r-1+k][c]
 * + b[k] (x[r-1+k][c-1] + x[r-1+k][c+1]), outside the grid zero */
static void apply_A(const ml_symchase *P, const uint8_t *x, uint8_t *y)
{
    const long h = (long)P->h, w = (long)P->w;
#define XV(r, c) ((r) < 0 || (r) >= h || (c) < 0 || (c) >= w ? 0u : x[(r) * w + (c)])
    for (long r = 0; r < h; r++)
        for (long c = 0; c < w; c++) {
            unsigned long s = 0;
            for (long k = 0; k < 3; k++)
                s += (unsigned long)P->a[k] * XV(r - 1 + k, c)
                     + (unsigned long)P->b[k] * (XV(r - 1 + k, c - 1) + XV(r - 1 + k, c + 1));
            y[r * w + c] = (uint8_t)(s % P->p);
        }
#undef XV
}

/* whether C_1 (w x w) is invertible: its determinant by the continuant recurrence
 * D_k = a D_{k-1} - b^2 D_{k-2}, and for w <= 100 its rank by elimination here too */
static int c1_invertible(const ml_symchase *P)
{
    const size_t w = P->w;
    const unsigned p = P->p, a = P->a[2] % p, b2 = P->b[2] % p * (P->b[2] % p) % p;
    unsigned long d0 = 1, d1 = a;
    for (size_t k = 2; k <= w; k++) {
        unsigned long d2 = (a * d1 + (p - b2) * d0) % p;
        d0 = d1;
        d1 = d2;
    }
    int inv = d1 != 0;
    if (w <= 100) {
        uint8_t *C = calloc(w * w, 1);
        for (size_t i = 0; i < w; i++) {
            C[i * w + i] = (uint8_t)P->a[2];
            if (i) C[i * w + i - 1] = (uint8_t)P->b[2];
            if (i + 1 < w) C[i * w + i + 1] = (uint8_t)P->b[2];
        }
        CHECK((rank_p(C, w, w, p) == w) == inv, "w=%zu p=%u: rank of C_1 against its determinant", w, p);
        free(C);
    }
    return inv;
}

static void random_board(ml_symchase *P, size_t h, size_t w, unsigned p)
{
    P->h = h; P->w = w; P->p = p;
    for (int k = 0; k < 3; k++) {
        P->a[k] = (unsigned)(rnd() % p);
        P->b[k] = (unsigned)(rnd() % p);
    }
    if (rnd() % 4 == 0) P->b[2] = 0;
    if (rnd() % 3 == 0 && !P->a[2] && !P->b[2]) P->a[2] = 1;
}

static int getbit(const uint64_t *v, size_t c) { return (int)((v[c / 64] >> (c % 64)) & 1); }

/* a packed row (ceil(w / 8) bytes) from w 0/1 bytes, junk past column w */
static void pack(const uint8_t *v, size_t w, uint8_t *out, int junk)
{
    const size_t nb = (w + 7) / 8;
    for (size_t k = 0; k < nb; k++) {
        uint8_t b = junk ? (uint8_t)rnd() : 0;
        for (size_t j = 0; j < 8 && 8 * k + j < w; j++) {
            uint8_t m = (uint8_t)(0x80u >> j);
            b = (uint8_t)((b & ~m) | (v[8 * k + j] & 1 ? m : 0));
        }
        out[k] = b;
    }
}

/* 1 when the packed row equals the w 0/1 bytes v and is zero past column w */
static int packed_is(const uint8_t *row, const uint8_t *v, size_t w)
{
    int ok = 1;
    for (size_t c = 0; c < 8 * ((w + 7) / 8); c++) {
        int bit = (row[c / 8] >> (7 - c % 8)) & 1;
        ok &= c < w ? bit == v[c] : bit == 0;
    }
    return ok;
}

static int n_runs, n_singular, n_rank, n_enum, n_packed, n_rows;

/* t_chase_enumerate's view of the chase and of A */
static void run_chase(const void *P, const uint8_t *b, const uint8_t *z, uint8_t *x, uint8_t *last)
{
    ml_symchase_run(P, b, z, x, last);
}

static int chase_solves(const void *vp, const uint8_t *x, const uint8_t *b)
{
    const ml_symchase *P = vp;
    const size_t hw = P->h * P->w;
    uint8_t *ax = malloc(hw);
    if (!ax) return 0;
    apply_A(P, x, ax);
    int ok = !memcmp(ax, b, hw);
    free(ax);
    return ok;
}

static void check_chase(const ml_symchase *P)
{
    const size_t h = P->h, w = P->w, hw = h * w, nw = (w + 63) / 64, nb = (w + 7) / 8;
    const unsigned p = P->p;
    char what[180];
    snprintf(what, sizeof what, "%zux%zu p=%u a=%u,%u,%u b=%u,%u,%u", h, w, p, P->a[0], P->a[1],
             P->a[2], P->b[0], P->b[1], P->b[2]);
    const int inv = c1_invertible(P);
    CHECK(ml_symchase_invertible(P) == inv, "%s: invertible %d, rank of C_1 says %d", what,
          ml_symchase_invertible(P), inv);
    uint8_t *b = malloc(hw), *x = malloc(hw), *ax = malloc(hw), *z = malloc(w), *last = malloc(w);
    for (size_t i = 0; i < hw; i++) b[i] = (uint8_t)(rnd() % p);
    for (size_t c = 0; c < w; c++) z[c] = (uint8_t)(rnd() % p);
    const int withz = (int)(rnd() % 3);
    if (!inv) {
        n_singular++;
        CHECK(ml_symchase_run(P, b, withz ? z : NULL, x, last) == 1, "%s: singular C_1 run", what);
        if (p == 2) {
            uint64_t lw[32];
            uint8_t *bp = calloc(h * nb, 1);
            CHECK(ml_symchase_run_packed(P, bp, 0, NULL, NULL, lw) == 1, "%s: singular, packed", what);
            CHECK(ml_symchase_solve_rows_packed(P, bp, h, nb) == 1, "%s: singular, rows", what);
            free(bp);
        }
        free(b); free(x); free(ax); free(z); free(last);
        return;
    }
    n_runs++;
    memset(x, 0xAA, hw);
    CHECK(ml_symchase_run(P, b, withz ? z : NULL, x, last) == 0, "%s", what);
    int ok = 1;
    for (size_t c = 0; c < w; c++) ok &= x[c] == (withz ? z[c] : 0);
    for (size_t i = 0; i < hw; i++) ok &= x[i] < p;
    CHECK(ok, "%s: first row is not z, or values >= p", what);
    /* the oracle: the board's equations; row h-1 misses C_1 X_h */
    uint8_t *cx = malloc(w);
    for (size_t c = 0; c < w; c++) {
        unsigned long s = (unsigned long)P->a[2] * last[c];
        if (c) s += (unsigned long)P->b[2] * last[c - 1];
        if (c + 1 < w) s += (unsigned long)P->b[2] * last[c + 1];
        cx[c] = (uint8_t)(s % p);
    }
    apply_A(P, x, ax);
    ok = 1;
    for (size_t r = 0; r < h; r++)
        for (size_t c = 0; c < w; c++) {
            unsigned want = b[r * w + c];
            if (r + 1 == h) want = (want + p - cx[c]) % p;
            ok &= ax[r * w + c] == want;
        }
    CHECK(ok, "%s: A x is not b (row h-1: b - C_1 X_h)", what);
    free(cx);
    /* the packed GF(2) chase */
    if (p == 2) {
        n_packed++;
        const unsigned tc = (unsigned)(rnd() % 2);
        uint8_t *beff = malloc(hw), *bp = malloc(h * nb + 1), *xp = malloc(h * nb + 1);
        uint8_t *xb = malloc(hw), *lb = malloc(w);
        uint64_t *zw = calloc(nw, 8), *lw = calloc(nw, 8), *lw2 = calloc(nw, 8);
        for (size_t i = 0; i < hw; i++) beff[i] = (uint8_t)(b[i] ^ tc);
        for (size_t r = 0; r < h; r++) pack(b + r * w, w, bp + r * nb, 1);
        for (size_t c = 0; c < w; c++) zw[c / 64] |= (uint64_t)z[c] << (c % 64);
        CHECK(ml_symchase_run(P, beff, withz ? z : NULL, xb, lb) == 0);
        memset(xp, 0x5A, h * nb + 1);
        memset(lw, 0xFF, nw * 8);
        CHECK(ml_symchase_run_packed(P, bp, tc, withz ? zw : NULL, xp, lw) == 0, "%s: packed", what);
        ok = xp[h * nb] == 0x5A;
        for (size_t r = 0; r < h; r++) ok &= packed_is(xp + r * nb, xb + r * w, w);
        for (size_t c = 0; c < 64 * nw; c++) ok &= getbit(lw, c) == (c < w ? lb[c] : 0);
        CHECK(ok, "%s: the packed chase differs from the byte chase of b ^ tc", what);
        memset(lw2, 0xFF, nw * 8);
        CHECK(ml_symchase_run_packed(P, bp, tc, withz ? zw : NULL, NULL, lw2) == 0);
        CHECK(!memcmp(lw, lw2, nw * 8), "%s: the read-only pass, other X_h", what);
        free(beff); free(bp); free(xp); free(xb); free(lb); free(zw); free(lw); free(lw2);
    } else {
        uint64_t lw[32];
        CHECK(ml_symchase_run_packed(P, b, 0, NULL, NULL, lw) == 1, "%s: packed with p != 2", what);
        CHECK(ml_symchase_solve_rows_packed(P, b, 1, nb) == 1, "%s: rows with p != 2", what);
    }
    /* nullity and solvability: a dense elimination of A against the map z -> X_h */
    if (hw <= 81) {
        n_rank++;
        uint8_t *A = malloc(hw * (hw + 1)), *A2 = malloc(hw * hw), *e = calloc(hw, 1), *col = malloc(hw);
        for (size_t j = 0; j < hw; j++) {
            e[j] = 1;
            apply_A(P, e, col);
            e[j] = 0;
            for (size_t i = 0; i < hw; i++) A[i * (hw + 1) + j] = A2[i * hw + j] = col[i];
        }
        for (size_t i = 0; i < hw; i++) A[i * (hw + 1) + hw] = b[i];
        size_t ra = rank_p(A2, hw, hw, p), rab = rank_p(A, hw, hw + 1, p);
        uint8_t *M = malloc(w * (w + 1)), *M2 = malloc(w * w), *zero = calloc(hw, 1), *ez = calloc(w, 1);
        for (size_t j = 0; j < w; j++) {
            ez[j] = 1;
            ml_symchase_run(P, zero, ez, x, last);
            ez[j] = 0;
            for (size_t c = 0; c < w; c++) M[c * (w + 1) + j] = M2[c * w + j] = last[c];
        }
        ml_symchase_run(P, b, NULL, x, last);
        for (size_t c = 0; c < w; c++) M[c * (w + 1) + w] = last[c];
        size_t rm = rank_p(M2, w, w, p), rmb = rank_p(M, w, w + 1, p);
        CHECK(hw - ra == w - rm, "%s: dim ker A %zu, chase nullity %zu", what, hw - ra, w - rm);
        CHECK((ra == rab) == (rm == rmb), "%s: solvable %d, chase says %d", what, ra == rab, rm == rmb);
        n_enum += t_chase_enumerate(what, P, run_chase, chase_solves, w, p, hw - ra, ra == rab,
                                    zero, b, ez, x, last);
        free(A); free(A2); free(e); free(col); free(M); free(M2); free(zero); free(ez);
    }
    free(b); free(x); free(ax); free(z); free(last);
}

/* the packed row solve: C_1 y_new = y_old (GF(2)) */
static void check_rows(size_t w, size_t rows)
{
    ml_symchase P;
    random_board(&P, (size_t)rnd_range(1, 5), w, 2);
    const int inv = c1_invertible(&P);
    const size_t nb = (w + 7) / 8, stride = nb + (size_t)(rnd() % 3);
    char what[120];
    snprintf(what, sizeof what, "rows w=%zu rows=%zu stride=%zu a2=%u b2=%u", w, rows, stride,
             P.a[2], P.b[2]);
    uint8_t *y = malloc(rows * stride + 1), *y0 = malloc(rows * stride + 1), *v = malloc(w), *u = malloc(w);
    for (size_t i = 0; i < rows * stride + 1; i++) y[i] = (uint8_t)rnd();
    memcpy(y0, y, rows * stride + 1);
    int rc = ml_symchase_solve_rows_packed(&P, y, rows, stride);
    if (!inv) {
        CHECK(rc == 1 && !memcmp(y, y0, rows * stride + 1), "%s: singular: rc %d", what, rc);
        free(y); free(y0); free(v); free(u);
        return;
    }
    n_rows++;
    CHECK(rc == 0, "%s: rc %d", what, rc);
    int ok = y[rows * stride] == y0[rows * stride];
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *row = y + r * stride, *row0 = y0 + r * stride;
        for (size_t c = 0; c < w; c++) v[c] = (row[c / 8] >> (7 - c % 8)) & 1;
        for (size_t c = w; c < 8 * nb; c++) ok &= !((row[c / 8] >> (7 - c % 8)) & 1);
        for (size_t k = nb; k < stride; k++) ok &= row[k] == row0[k];        /* between rows */
        for (size_t c = 0; c < w; c++) {
            unsigned s = (P.a[2] & v[c]) ^ (c ? P.b[2] & v[c - 1] : 0) ^
                         (c + 1 < w ? P.b[2] & v[c + 1] : 0);
            u[c] = (uint8_t)(s & 1);
        }
        ok &= packed_is(row, v, w) && 1;
        for (size_t c = 0; c < w; c++) ok &= u[c] == ((row0[c / 8] >> (7 - c % 8)) & 1);
    }
    CHECK(ok, "%s: C_1 y_new != y_old (or junk written)", what);
    free(y); free(y0); free(v); free(u);
}

/* a stop requested before the call: the packed chase and the row solve leave their last
 * rows unwritten */
static void check_stop(void)
{
    for (int how = 0; how < 2; how++) {
        ml_symchase P = {64, 70, 2, {1, 1, 1}, {1, 1, 1}};    /* C_1 = I + P: 70 % 3 != 2 */
        CHECK(ml_symchase_invertible(&P));
        const size_t nb = 9;
        uint8_t *b = calloc(64 * nb, 1), *x = malloc(64 * nb), *y = malloc(200 * nb), *y0 = malloc(200 * nb);
        uint64_t last[2];
        memset(x, 0xEE, 64 * nb);
        for (size_t i = 0; i < 200 * nb; i++) y[i] = y0[i] = (uint8_t)rnd();
        _Atomic int stop = 1;
        ml_scope sc;
        if (how) ml_scope_enter(&sc, &stop, NULL, NULL, 0);
        else ml_interrupt_request();
        int rc1 = ml_symchase_run_packed(&P, b, 1, NULL, x, last);
        int rc2 = ml_symchase_solve_rows_packed(&P, y, 200, nb);
        if (how) CHECK(ml_scope_leave(&sc) != 0, "the scope saw no stop");
        else CHECK(ml_interrupt_take() == 1, "the stop was not taken");
        CHECK(rc1 == 0 && x[63 * nb] == 0xEE, "stop (%s): packed chase %d, last row written",
              how ? "scope" : "process", rc1);
        CHECK(rc2 == 0 && !memcmp(y + 199 * nb, y0 + 199 * nb, nb),
              "stop (%s): row solve %d, last row written", how ? "scope" : "process", rc2);
        /* and without a stop every row is written */
        CHECK(ml_symchase_run_packed(&P, b, 1, NULL, x, last) == 0 && x[63 * nb] != 0xEE);
        CHECK(ml_symchase_solve_rows_packed(&P, y, 200, nb) == 0 &&
              memcmp(y + 199 * nb, y0 + 199 * nb, nb));
        free(b); free(x); free(y); free(y0);
    }
}

int main(void)
{
    static const size_t wide[] = {63, 64, 65, 127, 128, 129, 200, 300, 1000};
    for (int trial = 0; trial < 1200; trial++) {
        const unsigned p = PRIMES[trial % 5];
        size_t h = (size_t)rnd_range(1, 9), w = (size_t)rnd_range(1, 9);
        if (trial % 11 == 0) h = 1;
        if (trial % 13 == 0) w = 1;
        if (trial % 17 == 0) { w = wide[rnd() % 9]; h = (size_t)rnd_range(1, 12); }
        if (trial % 19 == 0) h = wide[rnd() % 9];
        ml_symchase P;
        random_board(&P, h, w, p);
        check_chase(&P);
    }
    for (int trial = 0; trial < 300; trial++) {
        size_t w = trial % 3 ? (size_t)rnd_range(1, 20) : wide[rnd() % 9];
        check_rows(w, (size_t)rnd_range(1, trial % 5 ? 8 : 150));
    }
    check_stop();
    printf("runs %d (singular %d, dense ranks %d, enumerated %d, packed %d), row solves %d\n",
           n_runs, n_singular, n_rank, n_enum, n_packed, n_rows);
    CHECK(n_runs > 700 && n_singular > 50 && n_rank > 500 && n_enum > 200 && n_packed > 120 &&
          n_rows > 150);
    return t_done();
}
