/* engine-oracle.h: what the tests of the algebraic engines share (t-engines-algebraic,
 * t-engines-symodd, t-engines-torus, t-engines-torus2, t-engines-lifted): a grid board
 * from offsets, the check of an engine through its vtable against the dense engines
 * (engines/dense.c) on the same board, and the check of the kernel basis limit.
 * Include after t-util.h (CHECK, rnd, rank_p); static functions, one test file each.
 *
 * eo_check(ctx, spec, b) builds the engine spec->ops and the oracle on b and checks,
 * with A = ml_board_matrix(b) mod n (n = ml_board_states(b), any n up to 255):
 *   - nullity as the oracle's; kernel_size as the oracle's (log2 and the exponent of
 *     every prime); kernel_fits says it fits;
 *   - generators: H = NULL gives the count alone (= nullity); the full list has nullity
 *     rows, each in ker A (A h = 0 mod n) with an order o > 1 dividing n and o h = 0
 *     mod n, the orders multiplying to |ker A| (prime by prime); for a prime n the rows
 *     independent (rank mod n = nullity); a limit of 1 and a random limit below the
 *     nullity give the first rows of the same list with the same orders;
 *   - solve of spec->rhs right-hand sides at once, the first spec->made of them A x0 for
 *     random x0, the rest random: each solvable exactly as the oracle says (the first
 *     spec->made always), A x = b for the solvable ones, a zero row for the others;
 *   - det as the oracle's when spec->answers has ML_Q_DET, else ops->det NULL;
 *   - solve_packed when spec->answers has ML_Q_SOLVE_PACKED (else NULL), for n = 2: on
 *     np.packbits rows of right-hand side 0 and spec->made with a random fill, solvable
 *     as the oracle says for fill ^ s, and A x = fill ^ s.
 * Random draws, in order: the random limit (when the nullity is not 0), then per
 * right-hand side the r digits of x0 and, past spec->made, the m digits of b; then the
 * fill (packed, n = 2). Returns 1 when both engines were built (the checks made), 0
 * when either build failed (counted as a failure). */
#ifndef ML_TESTS_ENGINE_ORACLE_H
#define ML_TESTS_ENGINE_ORACLE_H

#include "include/modlights.h"
#include "engines/dense.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const ml_engine_def *ops;      /* the engine under test */
    const ml_engine_def *oracle;   /* NULL: ml__dense_ops_for(n) */
    unsigned answers;              /* ML_Q_DET | ML_Q_SOLVE_PACKED: what it answers besides */
    size_t rhs, made;              /* right-hand sides solved; the first `made` are A x0 */
} eo_spec;

/* The rows x cols grid mod n of the k offsets (dr, dc), wrapped when wrap; NULL when the
 * library refuses it. */
__attribute__((unused))
static ml_board *eo_grid(ml_ctx *ctx, int64_t rows, int64_t cols, int n, size_t k,
                         const int64_t *dr, const int64_t *dc, int wrap)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    if (ml_grid_new(ctx, rows, cols, n, &g))
        return NULL;
    if (ml_grid_set_offsets(ctx, g, k, dr, dc) || ml_grid_set_wrap(ctx, g, wrap) ||
        ml_grid_build(ctx, g, &b))
        b = NULL;
    ml_grid_free(g);
    return b;
}

/* y = A x mod n for the m x r matrix A */
__attribute__((unused))
static void eo_mul(const uint8_t *A, size_t m, size_t r, unsigned n, const uint8_t *x,
                   uint8_t *y)
{
    for (size_t i = 0; i < m; i++) {
        unsigned acc = 0;
        for (size_t j = 0; j < r; j++)
            acc = (acc + (unsigned)A[i * r + j] * x[j]) % n;
        y[i] = (uint8_t)acc;
    }
}

/* The exponent of p in f (0 when p is not among its primes). */
__attribute__((unused))
static uint64_t eo_exp(const ml_factored *f, unsigned p)
{
    for (int i = 0; i < f->count; i++)
        if (f->prime[i] == p)
            return f->exp[i];
    return 0;
}

__attribute__((unused))
static int eo_is_prime(unsigned p)
{
    if (p < 2)
        return 0;
    for (unsigned d = 2; d * d <= p; d++)
        if (p % d == 0)
            return 0;
    return 1;
}

/* np.packbits of the rows x cols bytes s (bit 0 of each), rows of (cols + 7) / 8 bytes */
__attribute__((unused))
static void eo_pack(const uint8_t *s, size_t rows, size_t cols, uint8_t *out)
{
    size_t nb = (cols + 7) / 8;
    memset(out, 0, rows * nb);
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            if (s[i * cols + j] & 1)
                out[i * nb + j / 8] |= (uint8_t)(0x80 >> (j % 8));
}

/* The generators' checks (see the top): H is the full list (null rows of r taps), o its
 * orders, ks the engine's kernel size. */
__attribute__((unused))
static void eo_generators(ml_ctx *ctx, const eo_spec *s, void *e, const char *what,
                          const uint8_t *A, size_t m, size_t r, unsigned n, uint64_t null,
                          const uint8_t *H, const uint32_t *o, const ml_factored *ks)
{
    const ml_engine_def *ops = s->ops;
    uint8_t *y = malloc(m + 1), *H2 = malloc(null * r + 1);
    uint32_t *o2 = malloc((null + 1) * sizeof *o2);
    uint64_t val[256] = {0};   /* the orders' p-adic valuations, summed */
    uint64_t k = 0;
    CHECK(y && H2 && o2, "%s: out of memory", what);
    if (!y || !H2 || !o2)
        goto done;
    for (uint64_t g = 0; g < null; g++) {
        eo_mul(A, m, r, n, H + g * r, y);
        int zero = 1, killed = 1;
        for (size_t i = 0; i < m; i++)
            zero &= !y[i];
        for (size_t j = 0; j < r; j++)
            killed &= (unsigned)H[g * r + j] * o[g] % n == 0;
        CHECK(zero && killed && o[g] > 1 && n % o[g] == 0, "%s: generator %llu (order %u)",
              what, (unsigned long long)g, (unsigned)o[g]);
        for (unsigned v = o[g], p = 2; v > 1 && p < 256; p++)
            for (; v % p == 0; v /= p)
                val[p]++;
    }
    for (unsigned p = 2; p < 256; p++)
        CHECK(val[p] == eo_exp(ks, p), "%s: orders multiply to |ker A| (at %u)", what, p);
    if (null) {
        uint64_t lim = (uint64_t)rnd_range(0, (int64_t)null - 1);
        CHECK(ops->generators(NULL, ctx, e, lim, &k, H2, o2) == ML_OK && k == lim, "%s", what);
        CHECK(!lim || (!memcmp(H, H2, lim * r) && !memcmp(o, o2, lim * sizeof *o)),
              "%s: limit %llu: the first rows", what, (unsigned long long)lim);
        CHECK(ops->generators(NULL, ctx, e, 1, &k, H2, o2) == ML_OK && k == 1, "%s", what);
        CHECK(!memcmp(H, H2, r) && o2[0] == o[0], "%s: limit 1: the first generator", what);
        if (eo_is_prime(n)) {
            memcpy(H2, H, null * r);
            CHECK(rank_p(H2, null, r, n) == null, "%s: independent", what);
        }
    }
done:
    free(y);
    free(H2);
    free(o2);
}

/* solve_packed on right-hand sides 0 and s->made of R (see the top); x0 and y scratch of
 * r and m bytes. */
__attribute__((unused))
static void eo_packed(ml_ctx *ctx, const eo_spec *s, void *e, const ml_engine_def *dn,
                      void *d, const char *what, const uint8_t *A, const uint8_t *R,
                      size_t rows, size_t cols, uint8_t *x0, uint8_t *y)
{
    size_t m = rows * cols, nb = (cols + 7) / 8;
    uint8_t *P = malloc(rows * nb + 1), *out = malloc(rows * nb + 1), *ax = malloc(m + 1),
            *DX = malloc(m + 1);
    unsigned fill = (unsigned)(rnd() % 2);
    CHECK(P && out && ax && DX, "%s: out of memory", what);
    for (int t = 0; t < 2 && P && out && ax && DX; t++) {
        const uint8_t *b = R + (t ? s->made : 0) * m;   /* a solvable one, a random one */
        eo_pack(b, rows, cols, P);
        int solvable = -1;
        CHECK(s->ops->solve_packed(NULL, ctx, e, P, fill, out, &solvable) == ML_OK, "%s",
              what);
        for (size_t j = 0; j < m; j++)
            y[j] = (uint8_t)(b[j] ^ fill);
        uint8_t dk = 0;
        CHECK(dn->solve(NULL, ctx, d, 1, y, DX, &dk) == ML_OK);
        CHECK(solvable == !!dk, "%s: packed solvable %d, dense %d", what, solvable, dk);
        if (solvable == 1) {
            for (size_t i = 0; i < rows; i++)
                for (size_t j = 0; j < cols; j++)
                    x0[i * cols + j] = out[i * nb + j / 8] >> (7 - j % 8) & 1;
            eo_mul(A, m, m, 2, x0, ax);
            CHECK(!memcmp(ax, y, m), "%s: packed A x = fill ^ s", what);
        }
    }
    free(P);
    free(out);
    free(ax);
    free(DX);
}

__attribute__((unused))
static int eo_check(ml_ctx *ctx, const eo_spec *s, const ml_board *b)
{
    const ml_engine_def *ops = s->ops;
    unsigned n = (unsigned)ml_board_states(b);
    size_t m = ml_board_n_cells(b), r = ml_board_n_taps(b), K = s->rhs;
    int64_t rows = ml_board_rows(b), cols = ml_board_cols(b);
    const ml_engine_def *dn = s->oracle ? s->oracle : ml__dense_ops_for((int)n);
    char what[160];
    snprintf(what, sizeof what, "%s %lldx%lld%s n=%u", ops->name, (long long)rows,
             (long long)cols, ml_board_wrap(b) ? " wrap" : "", n);
    void *e = NULL, *d = NULL;
    int rc = ops->build(NULL, ctx, b, &e);
    CHECK(rc == ML_OK && e, "%s: build: %s", what, ml_errmsg(ctx));
    int drc = dn->build(NULL, ctx, b, &d);
    CHECK(drc == ML_OK && d, "%s: dense: %s", what, ml_errmsg(ctx));
    if (rc || !e || drc || !d) {
        if (e)
            ops->destroy(NULL, e);
        if (d)
            dn->destroy(NULL, d);
        return 0;
    }
    uint64_t null = 0, dnull = 0, k = 0;
    ml_factored ks, dks;
    CHECK(ops->nullity(NULL, ctx, e, &null) == ML_OK, "%s", what);
    CHECK(dn->nullity(NULL, ctx, d, &dnull) == ML_OK);
    CHECK(null == dnull, "%s: nullity %llu, dense %llu", what, (unsigned long long)null,
          (unsigned long long)dnull);
    CHECK(ops->kernel_size(NULL, ctx, e, &ks) == ML_OK, "%s", what);
    CHECK(dn->kernel_size(NULL, ctx, d, &dks) == ML_OK);
    CHECK(ml_factored_log2(&ks) == ml_factored_log2(&dks), "%s: kernel size", what);
    for (unsigned p = 2; p <= n; p++)
        CHECK(eo_exp(&ks, p) == eo_exp(&dks, p), "%s: kernel size at %u", what, p);
    int fits = 0;
    CHECK(ops->kernel_fits(NULL, ctx, e, &fits) == ML_OK && fits, "%s: kernel_fits", what);
    /* generators: the count alone, then the full list */
    CHECK(ops->generators(NULL, ctx, e, UINT64_MAX, &k, NULL, NULL) == ML_OK && k == null,
          "%s: generators count %llu", what, (unsigned long long)k);
    uint8_t *A = malloc(m * r + 1), *H = malloc(null * r + 1), *y = malloc(m + 1),
            *x0 = malloc(r + 1), *R = malloc(K * m + 1), *X = malloc(K * r + 1),
            *DX = malloc(K * r + 1), *ok = malloc(K + 1), *dok = malloc(K + 1);
    uint32_t *o = malloc((null + 1) * sizeof *o);
    CHECK(A && H && y && x0 && R && X && DX && ok && dok && o, "%s: out of memory", what);
    if (!A || !H || !y || !x0 || !R || !X || !DX || !ok || !dok || !o)
        goto done;
    CHECK(ml_board_matrix(ctx, b, A, r) == ML_OK);
    CHECK(ops->generators(NULL, ctx, e, null, &k, H, o) == ML_OK && k == null, "%s", what);
    eo_generators(ctx, s, e, what, A, m, r, n, null, H, o, &ks);
    /* solve: K right-hand sides, the first s->made solvable by construction */
    for (size_t i = 0; i < K; i++) {
        for (size_t j = 0; j < r; j++)
            x0[j] = (uint8_t)(rnd() % n);
        if (i < s->made)
            eo_mul(A, m, r, n, x0, R + i * m);
        else
            for (size_t j = 0; j < m; j++)
                R[i * m + j] = (uint8_t)(rnd() % n);
    }
    memset(X, 0xAB, K * r);
    CHECK(ops->solve(NULL, ctx, e, K, R, X, ok) == ML_OK, "%s: solve", what);
    CHECK(dn->solve(NULL, ctx, d, K, R, DX, dok) == ML_OK);
    for (size_t i = 0; i < K; i++) {
        CHECK(ok[i] == dok[i] && (i >= s->made || ok[i]), "%s: solvable %zu: %d, dense %d",
              what, i, ok[i], dok[i]);
        if (ok[i]) {
            eo_mul(A, m, r, n, X + i * r, y);
            CHECK(!memcmp(y, R + i * m, m), "%s: A x = b (%zu)", what, i);
        } else {
            int zero = 1;
            for (size_t j = 0; j < r; j++)
                zero &= !X[i * r + j];
            CHECK(zero, "%s: unsolvable row %zu zero", what, i);
        }
    }
    if (s->answers & ML_Q_DET) {
        unsigned det = 99, ddet = 98;
        CHECK(ops->det && ops->det(NULL, ctx, e, &det) == ML_OK, "%s: det", what);
        CHECK(dn->det(NULL, ctx, d, &ddet) == ML_OK);
        CHECK(det == ddet, "%s: det %u, dense %u", what, det, ddet);
    } else {
        CHECK(!ops->det, "%s: a det it does not answer", what);
    }
    if (!(s->answers & ML_Q_SOLVE_PACKED))
        CHECK(!ops->solve_packed, "%s: a solve_packed it does not answer", what);
    else if (n == 2) {   /* packed boards: every cell a tap, a random side to solve */
        int full = m == r && m == (size_t)(rows * cols) && s->made < K;
        CHECK(full, "%s: packed: %zu cells, %zu taps, made %zu of %zu", what, m, r, s->made,
              K);
        if (full)
            eo_packed(ctx, s, e, dn, d, what, A, R, (size_t)rows, (size_t)cols, x0, y);
    }
done:
    ops->destroy(NULL, e);
    dn->destroy(NULL, d);
    free(A);
    free(H);
    free(y);
    free(x0);
    free(R);
    free(X);
    free(DX);
    free(ok);
    free(dok);
    free(o);
    return 1;
}

/* The kernel basis over the limit: b's nullity is `null`, kernel_fits says it does not
 * fit and generators refuses the full list with ML_ETOOLARGE and the message `msg`. */
__attribute__((unused))
static void eo_kernel_limit(ml_ctx *ctx, const ml_engine_def *ops, const ml_board *b,
                            uint64_t null, const char *msg)
{
    void *e = NULL;
    uint64_t got = 0, k = 0;
    CHECK(b && ops->build(NULL, ctx, b, &e) == ML_OK, "%s", ops->name);
    if (!e)
        return;
    CHECK(ops->nullity(NULL, ctx, e, &got) == ML_OK && got == null, "%s: nullity %llu",
          ops->name, (unsigned long long)got);
    uint8_t dummy = 0;
    uint32_t o = 0;
    int fits = 1;
    CHECK(ops->kernel_fits(NULL, ctx, e, &fits) == ML_OK && !fits, "%s", ops->name);
    CHECK(ops->generators(NULL, ctx, e, got, &k, &dummy, &o) == ML_ETOOLARGE, "%s", ops->name);
    CHECK(!strcmp(ml_errmsg(ctx), msg), "%s", ml_errmsg(ctx));
    ops->destroy(NULL, e);
}

#endif
