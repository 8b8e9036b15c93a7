/* t-engines-tensor: csrc/engines/tensor.c through its vtable (ml__tensor_ops), without
 * the solver, against the board's dense tap matrix (built here from the pattern: a tap at
 * (i, j) adds its count to (i + dr, j + dc), wrapped on a torus) on random product
 * patterns (square, horizontal, vertical, random products of row and column offsets),
 * n prime, prime power and composite, sides 1..8, tori and not, that the registry's
 * covers accepts: nullity = h w - rank A over a prime; generators in ker A, as many as
 * the nullity, independent, with their orders; solve of A x (solvable, A X = b) and of
 * random right-hand sides (ok exactly when rank [A | b] = rank A over a prime; A X = b
 * whenever ok); det as the dense determinant (Smith forms per prime power, CRT);
 * kernel_fits; solve_packed (n = 2) on np.packbits rows with a fill: solvable as the
 * byte solve, A x = fill ^ s; over GF(2) the solve (8 columns a byte) against
 * ml__tensor_solve_bytes (the byte chases): the same ok and answer, on these boards and
 * on larger ones (strips, singular factors, an identity factor, tori). The generators'
 * orders multiply to |ker A| (per prime of n, the dense Smith form's log_p |ker A|), ring
 * parts (engines/ring.c) included. A stop requested before a solve fails it with
 * ML_EINTERRUPTED and "native work was interrupted".
 * (tests/native/test_capi_tensor.py compares with Python's engine.)
 * ml-test-sources: engines/algebraic.c engines/algebraic_poly.c engines/algebraic_odd.c engines/algebraic_fit.c structured/rowrec.c engines/dense.c engines/dense_gf2.c dense/gf2_batch.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c api/registry.c api/registry_own.c engines/tensor.c engines/band.c engines/ring.c engines/smith.c structured/band.c engines/chase.c engines/chase_layout.c chase/plan.c chase/symbolic.c chase/symbolic_lut.c chase/numeric.c chase/runner.c api/registry_tensor.c api/registry_plan.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c base/cpu.c chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c structured/symchase.c structured/packed.c poly/poly.c poly/gfpx_fast.c engines/torus.c engines/torus2.c engines/polymatn.c engines/lifted.c engines/lifted_cross.c engines/lifted_torus.c engines/lifted_odd.c engines/lifted_alg.c engines/polymat.c engines/chase_row.c chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c */
#define ML_T_SEED 0x7E450Bull
#include "include/modlights.h"
#include "api/registry_impl.h"
#include "base/interrupt.h"
#include "base/modn.h"
#include "engines/smith.h"
#include "engines/tensor.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

static ml_ctx *ctx;
static const unsigned NS[] = {2, 3, 4, 5, 6, 7, 9, 12, 101};
static int n_same, n_pk, n_refused, n_stopped;

static int is_prime(unsigned n)
{
    for (unsigned d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return n >= 2;
}

static unsigned dense_det(const uint8_t *A, int64_t N, unsigned n)
{
    unsigned q[4], p[4], e[4], idem[4];
    int np = ml_prime_powers(n, q, p, e, idem);
    uint64_t *M = malloc((size_t)(N * N) * sizeof *M), d = 0;
    for (int64_t i = 0; i < N * N; i++)
        M[i] = A[i];
    for (int i = 0; i < np; i++) {
        ml__smith sm;
        uint64_t di = 0;
        CHECK(!ml__smith_init(&sm, M, (int)N, (int)N, p[i], (int)e[i]));
        CHECK(!ml__smith_det(&sm, &di));
        ml__smith_free(&sm);
        d = (d + di * idem[i]) % n;
    }
    free(M);
    return (unsigned)d;
}

static void apply(const uint8_t *A, size_t N, unsigned n, const uint8_t *x, uint8_t *y)
{
    for (size_t i = 0; i < N; i++) {
        unsigned v = 0;
        for (size_t j = 0; j < N; j++)
            v = (v + A[i * N + j] * (unsigned)x[j]) % n;
        y[i] = (uint8_t)v;
    }
}

/* GF(2): the engine's solve (8 columns a byte) against ml__tensor_solve_bytes (the byte
 * chases and transposes), the same ok and, when ok, the same answer x */
static int n_bytes_same;
static void same_as_bytes(void *e, size_t N, const uint8_t *s, const uint8_t *x, uint8_t ok)
{
    uint8_t *xb = malloc(N + 1), okb = 0;
    CHECK(!ml__tensor_solve_bytes(ctx, e, 1, s, xb, &okb));
    CHECK(okb == ok, "solvable: packed route %d, byte chases %d", ok, okb);
    if (ok && okb) {
        size_t i = 0;
        while (i < N && x[i] == xb[i])
            i++;
        CHECK(i == N, "the packed route's answer differs from the byte chases' at %zu", i);
        n_bytes_same++;
    }
    free(xb);
}

static void one(int64_t h, int64_t w, unsigned n, int wrap, size_t k, const int64_t *dr,
                const int64_t *dc)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    CHECK(!ml_grid_new(ctx, h, w, (int)n, &g));
    CHECK(!ml_grid_set_offsets(ctx, g, k, dr, dc));
    CHECK(!ml_grid_set_wrap(ctx, g, wrap));
    CHECK(!ml_grid_build(ctx, g, &b));
    ml_grid_free(g);
    char why[1024];
    if (!b || !ml__tensor_covers(b, why, sizeof why)) {
        n_refused++;
        ml_board_free(b);
        return;
    }
    const ml_engine_def *o = &ml__tensor_ops;
    void *e = NULL;
    int rc = o->build(NULL, ctx, b, &e);
    CHECK(!rc, "build %d: %s", rc, ml_errmsg(ctx));
    n_same++;
    size_t N = (size_t)(h * w);
    uint8_t *A = calloc(N * N, 1);
    for (int64_t i = 0; i < h; i++)
        for (int64_t j = 0; j < w; j++)
            for (size_t t = 0; t < k; t++) {
                int64_t r = i + dr[t], c = j + dc[t];
                if (wrap) {
                    r = ((r % h) + h) % h;
                    c = ((c % w) + w) % w;
                } else if (r < 0 || r >= h || c < 0 || c >= w) {
                    continue;
                }
                uint8_t *a = &A[(size_t)(r * w + c) * N + (size_t)(i * w + j)];
                *a = (uint8_t)((*a + 1) % n);
            }
    uint64_t null = 0, cnt = 0;
    CHECK(!o->nullity(NULL, ctx, e, &null));
    size_t rk = 0;
    if (is_prime(n)) {
        uint8_t *Ac = malloc(N * N);
        memcpy(Ac, A, N * N);
        rk = rank_p(Ac, N, N, n);
        free(Ac);
        CHECK(null == N - rk, "nullity %llu rank %zu", (unsigned long long)null, rk);
    }
    unsigned det = 0;
    CHECK(!o->det(NULL, ctx, e, &det));
    CHECK(det == dense_det(A, (int64_t)N, n), "det");
    int fits = 0;
    CHECK(!o->kernel_fits(NULL, ctx, e, &fits) && fits);
    CHECK(!o->generators(NULL, ctx, e, ~0ull, &cnt, NULL, NULL) && cnt == null);
    uint8_t *H = malloc(cnt * N + 1), *y = malloc(N), *x = malloc(N), *s = malloc(N);
    uint32_t *ord = malloc((cnt + 1) * sizeof *ord);
    CHECK(!o->generators(NULL, ctx, e, cnt, &cnt, H, ord));
    for (uint64_t a = 0; a < cnt; a++) {
        apply(A, N, n, H + a * N, y);
        for (size_t i = 0; i < N; i++)
            CHECK(!y[i], "generator %llu not in ker A", (unsigned long long)a);
        CHECK(ord[a] > 1 && n % ord[a] == 0);
    }
    if (is_prime(n) && cnt)
        CHECK(rank_p(H, (size_t)cnt, N, n) == cnt);
    {   /* the orders multiply to |ker A| */
        unsigned q[4], p[4], ex[4], idem[4];
        int np = ml_prime_powers(n, q, p, ex, idem);
        uint64_t *M = malloc(N * N * sizeof *M);
        for (size_t i = 0; i < N * N; i++)
            M[i] = A[i];
        for (int i = 0; i < np; i++) {
            ml__smith sm;
            CHECK(!ml__smith_init(&sm, M, (int)N, (int)N, p[i], (int)ex[i]));
            int want = ml__smith_kernel_log(&sm), got = 0;
            ml__smith_free(&sm);
            for (uint64_t a = 0; a < cnt; a++)
                for (uint32_t o2 = ord[a]; o2 % p[i] == 0; o2 /= p[i])
                    got++;
            CHECK(got == want, "log_%u |ker A| %d, orders give %d (n=%u)", p[i], want, got, n);
            n_pk += ex[i] > 1 && want > 0;
        }
        free(M);
    }
    for (int t = 0; t < 4; t++) {
        for (size_t i = 0; i < N; i++)
            x[i] = (uint8_t)(rnd() % n);
        if (t == 0)
            apply(A, N, n, x, s);
        else
            memcpy(s, x, N);
        uint8_t ok = 0;
        CHECK(!o->solve(NULL, ctx, e, 1, s, x, &ok));
        if (t == 0)
            CHECK(ok, "A x not solvable");
        if (n == 2)   /* the packed route's answer is the byte chases' */
            same_as_bytes(e, N, s, x, ok);
        if (ok) {
            apply(A, N, n, x, y);
            CHECK(!memcmp(y, s, N), "A X != b");
        }
        if (is_prime(n)) {
            uint8_t *Ab = malloc(N * (N + 1));
            for (size_t i = 0; i < N; i++) {
                memcpy(Ab + i * (N + 1), A + i * N, N);
                Ab[i * (N + 1) + N] = s[i];
            }
            CHECK(ok == (rank_p(Ab, N, N + 1, n) == rk));
            free(Ab);
        }
        if (n == 2) {   /* the packed solve of fill ^ s */
            size_t nb = ((size_t)w + 7) / 8;
            unsigned fill = (unsigned)(rnd() & 1);
            uint8_t *P = calloc((size_t)h * nb, 1), *Q = calloc((size_t)h * nb + 1, 1);
            for (int64_t i = 0; i < h; i++)
                for (int64_t j = 0; j < w; j++) {
                    P[(size_t)i * nb + (size_t)j / 8] |=
                        (uint8_t)(s[i * w + j] << (7 - j % 8));
                    s[i * w + j] ^= (uint8_t)fill;
                }
            uint8_t ok2 = 0;
            int solv = 0;
            CHECK(!o->solve(NULL, ctx, e, 1, s, x, &ok2));
            CHECK(!o->solve_packed(NULL, ctx, e, P, fill, Q, &solv));
            CHECK(solv == ok2, "packed solvable %d byte %d", solv, ok2);
            if (solv) {
                for (int64_t i = 0; i < h; i++)
                    for (int64_t j = 0; j < w; j++)
                        x[i * w + j] = (Q[(size_t)i * nb + (size_t)j / 8] >> (7 - j % 8)) & 1;
                apply(A, N, n, x, y);
                CHECK(!memcmp(y, s, N), "packed A X != fill ^ b");
            }
            free(P);
            free(Q);
        }
    }
    if (n_same % 25 == 1) {   /* a stop requested: the solve fails, the engine stays usable */
        uint8_t ok = 0;
        memset(s, 0, N);
        ml_interrupt_request();
        int st = o->solve(NULL, ctx, e, 1, s, x, &ok);
        int took = ml_interrupt_take();
        if (st == ML_EINTERRUPTED) {   /* (factors without a chase step have no poll) */
            n_stopped++;
            CHECK(took && !strcmp(ml_errmsg(ctx), "native work was interrupted"), "%s",
                  ml_errmsg(ctx));
        } else {
            CHECK(st == ML_OK, "st=%d", st);
        }
        CHECK(!o->solve(NULL, ctx, e, 1, s, x, &ok) && ok);
    }
    free(H);
    free(y);
    free(x);
    free(s);
    free(ord);
    free(A);
    o->destroy(NULL, e);
    ml_board_free(b);
}

/* A larger GF(2) board (several strips of the packed solve): solve_packed against the
 * byte solve and the pattern applied directly (a tap flips each offset's tile). */
static void packed_big(int64_t h, int64_t w, int wrap, size_t k, const int64_t *dr,
                       const int64_t *dc)
{
    ml_grid *g = NULL;
    ml_board *b = NULL;
    CHECK(!ml_grid_new(ctx, h, w, 2, &g) && !ml_grid_set_offsets(ctx, g, k, dr, dc) &&
          !ml_grid_set_wrap(ctx, g, wrap) && !ml_grid_build(ctx, g, &b));
    ml_grid_free(g);
    void *e = NULL;
    CHECK(!ml__tensor_ops.build(NULL, ctx, b, &e));
    size_t N = (size_t)(h * w), nb = ((size_t)w + 7) / 8;
    uint8_t *x = malloc(N), *s = calloc(N, 1), *X = malloc(N), *P = calloc((size_t)h * nb, 1);
    uint8_t *Q = malloc((size_t)h * nb), ok = 0;
    for (int t = 0; t < 2; t++) {
        memset(s, 0, N);
        for (size_t i = 0; i < N; i++)   /* s = A x for a random x: solvable */
            x[i] = (uint8_t)(rnd() & 1);
        for (int64_t i = 0; i < h; i++)
            for (int64_t j = 0; j < w; j++)
                if (x[i * w + j])
                    for (size_t q = 0; q < k; q++) {
                        int64_t r = i + dr[q], c = j + dc[q];
                        if (wrap) {
                            r = (r % h + h) % h;
                            c = (c % w + w) % w;
                        } else if (r < 0 || r >= h || c < 0 || c >= w) {
                            continue;
                        }
                        s[r * w + c] ^= 1;
                    }
        unsigned fill = (unsigned)t;   /* packed = s ^ fill: the taps of s */
        memset(P, 0, (size_t)h * nb);
        for (int64_t i = 0; i < h; i++)
            for (int64_t j = 0; j < w; j++)
                P[(size_t)i * nb + (size_t)j / 8] |= (uint8_t)((s[i * w + j] ^ fill) << (7 - j % 8));
        int solv = 0;
        CHECK(!ml__tensor_ops.solve_packed(NULL, ctx, e, P, fill, Q, &solv) && solv);
        CHECK(!ml__tensor_ops.solve(NULL, ctx, e, 1, s, X, &ok) && ok);
        same_as_bytes(e, N, s, X, ok);
        for (int64_t i = 0; i < h; i++)
            for (int64_t j = 0; j < w; j++)
                CHECK(X[i * w + j] == ((Q[(size_t)i * nb + (size_t)j / 8] >> (7 - j % 8)) & 1),
                      "packed and byte solves differ at (%lld, %lld)", (long long)i, (long long)j);
    }
    for (int t = 0; t < 2; t++) {   /* random right-hand sides: unsolvable when A is singular */
        for (size_t i = 0; i < N; i++)
            s[i] = (uint8_t)(rnd() & 1);
        if (t)   /* one tile off an image: solvable exactly when that tile's column is */
            s[rnd() % N] ^= 1;
        CHECK(!ml__tensor_ops.solve(NULL, ctx, e, 1, s, X, &ok));
        same_as_bytes(e, N, s, X, ok);
    }
    free(x);
    free(s);
    free(X);
    free(P);
    free(Q);
    ml__tensor_ops.destroy(NULL, e);
    ml_board_free(b);
}

int main(void)
{
    CHECK(!ml_ctx_new(&ctx));
    for (int it = 0; it < 400; it++) {
        unsigned n = NS[rnd() % (sizeof NS / sizeof *NS)];
        int64_t h = rnd_range(1, 8), w = rnd_range(1, 8);
        int wrap = (rnd() % 3) == 0;
        int64_t dr[36], dc[36];
        size_t k = 0;
        int kind = (int)(rnd() % 4);
        int64_t rs[3] = {-1, 0, 1}, cs[3] = {-1, 0, 1};
        size_t nr = 3, nc = 3;
        if (kind == 1)
            nr = 1, rs[0] = 0;   /* horizontal */
        else if (kind == 2)
            nc = 1, cs[0] = 0;   /* vertical */
        else if (kind == 3) {    /* random offsets, some twice */
            nr = (size_t)rnd_range(1, 2);
            nc = (size_t)rnd_range(1, 2);
            for (size_t i = 0; i < 3; i++) {
                rs[i] = rnd_range(-2, 2) * 3 + (int64_t)i - 1;
                cs[i] = rnd_range(-2, 2) * 3 + (int64_t)i - 1;
            }
        }
        for (size_t i = 0; i < nr; i++)
            for (size_t j = 0; j < nc; j++) {
                dr[k] = rs[i];
                dc[k++] = cs[j];
            }
        one(h, w, n, wrap, k, dr, dc);
    }
    {   /* square (3 x 3) and a torus, tall enough for three strips */
        int64_t dr[9], dc[9];
        for (int i = 0; i < 9; i++) {
            dr[i] = i / 3 - 1;
            dc[i] = i % 3 - 1;
        }
        packed_big(1100, 70, 0, 9, dr, dc);   /* 70 = 1 mod 3: invertible */
        packed_big(1030, 37, 1, 9, dr, dc);
        int64_t hr[3] = {0, 0, 0}, hc[3] = {-1, 0, 1};
        packed_big(1500, 13, 0, 3, hr, hc);   /* horizontal: R the identity */
        packed_big(1100, 71, 0, 9, dr, dc);   /* 1100, 71 = 2 mod 3: R and C singular */
        int64_t vr[3] = {-1, 0, 1}, vc[3] = {0, 0, 0};
        packed_big(600, 77, 1, 3, vr, vc);    /* vertical on a torus: C the identity */
    }
    printf("built=%d (a kernel mod p^k, k > 1: %d) refused=%d; GF(2) answers as the byte "
           "chases' %d\n", n_same, n_pk, n_refused, n_bytes_same);
    CHECK(n_same > 150 && n_pk > 20 && n_stopped > 5 && n_bytes_same > 50, "stopped %d",
          n_stopped);
    printf("stopped=%d\n", n_stopped);
    ml_ctx_free(ctx);
    return t_done();
}
