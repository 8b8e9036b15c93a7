/* t-zn: csrc/dense/zn.c (FLINT style: each routine against a slower method on random
 * input); the blocked variant uses tiny panels so the cache-blocked path runs on small
 * input; with threads = 3 (a second round) the panel updates run in parallel shares
 * (the blocked variant from any size) and every answer (solutions, generators, orders,
 * determinant) must equal the one-thread factorisation's byte for byte. Exit status 0
 * when every check passes.
 * ml-test-sources: dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c base/cpu.c base/interrupt.c
 * ml-test-variant: blocked -DML_ZN_PANEL=3 -DML_ZN_BLOCK_MIN=2 -DML_ZN_THREAD_MIN=1 */
#include "dense/zn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; if (failures < 20) { \
    fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); \
    fprintf(stderr, "\n"); } } } while (0)

/* y = A x mod q (A m x r) */
static void matvec(const uint8_t *a, size_t m, size_t r, const unsigned *x, unsigned q, unsigned *y)
{
    for (size_t i = 0; i < m; i++) {
        unsigned long s = 0;
        for (size_t j = 0; j < r; j++) s += (unsigned long)a[i * r + j] * x[j];
        y[i] = (unsigned)(s % q);
    }
}

/* det by cofactor expansion (n <= 6) */
static long det_slow(const long *a, size_t n, long q)
{
    if (n == 0) return 1 % q;
    if (n == 1) return ((a[0] % q) + q) % q;
    long d = 0;
    long *sub = malloc((n - 1) * (n - 1) * sizeof(long));
    for (size_t c = 0; c < n; c++) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0, jj = 0; j < n; j++)
                if (j != c) sub[(i - 1) * (n - 1) + jj++] = a[i * n + j];
        long t = a[c] * det_slow(sub, n - 1, q) % q;
        d = (c % 2 ? d - t : d + t) % q;
    }
    free(sub);
    return (d % q + q) % q;
}

/* how phase 1 runs (csrc/dense/zn.h); BITSLICED applies to q = 3, 4 and 8 only */
static int method = ML_ZN_AUTO;
static int threads = 1;

/* The factorisation of a (m x r) over Z/q with the method of this round and nth workers. */
static ml_zn_lu_t *factor(const uint8_t *a, unsigned q, size_t m, size_t r, int nth)
{
    ml_zn_lu_t *lu = ml_zn_lu_new(m, r, q);
    CHECK(lu != NULL, "alloc");
    if (!lu) return NULL;
    CHECK(ml_zn_lu_set_method(lu, q == 3 || q == 4 || q == 8 ? method : ML_ZN_AUTO) == 0,
          "set_method");
    CHECK(ml_zn_lu_set_threads(lu, nth) == 0, "set_threads");
    ml_zn_lu_set_dense(lu, a, r);
    CHECK(ml_zn_lu_factor(lu) == 0, "factor");
    CHECK(ml_zn_lu_set_threads(lu, 1) == -1, "set_threads after factoring accepted");
    return lu;
}

/* lu (threads workers) against the one-thread factorisation of a: the same solutions of
 * the columns bt (nb of them), generators, orders, ranks and determinant */
static void same_as_one_thread(const ml_zn_lu_t *lu, const uint8_t *a, unsigned q, size_t m,
                               size_t r, const uint8_t *bt, size_t nb)
{
    ml_zn_lu_t *one = factor(a, q, m, r, 1);
    if (!one) return;
    CHECK(ml_zn_lu_rank(one) == ml_zn_lu_rank(lu) && ml_zn_lu_unit_rank(one) == ml_zn_lu_unit_rank(lu)
              && ml_zn_lu_det(one) == ml_zn_lu_det(lu), "threads: ranks or det (q=%u %zux%zu)", q, m, r);
    uint8_t *x1 = calloc(r * nb + 1, 1), *x3 = calloc(r * nb + 1, 1), ok1[8], ok3[8];
    CHECK(ml_zn_lu_solve(one, bt, nb, x1, ok1, 1) == 0 && ml_zn_lu_solve(lu, bt, nb, x3, ok3, 1) == 0,
          "threads: solve rc");
    CHECK(!memcmp(x1, x3, r * nb) && !memcmp(ok1, ok3, nb), "threads: solutions (q=%u %zux%zu)", q, m, r);
    size_t ng = ml_zn_lu_ngens(one);
    CHECK(ng == ml_zn_lu_ngens(lu), "threads: generator count");
    if (ng == ml_zn_lu_ngens(lu)) {
        uint8_t *h1 = calloc(ng * r + 1, 1), *h3 = calloc(ng * r + 1, 1);
        unsigned *o1 = calloc(ng + 1, sizeof(unsigned)), *o3 = calloc(ng + 1, sizeof(unsigned));
        CHECK(ml_zn_lu_generators(one, h1, o1) == 0 && ml_zn_lu_generators(lu, h3, o3) == 0,
              "threads: generators rc");
        CHECK(!memcmp(h1, h3, ng * r) && !memcmp(o1, o3, ng * sizeof(unsigned)),
              "threads: generators (q=%u %zux%zu)", q, m, r);
        free(h1); free(h3); free(o1); free(o3);
    }
    free(x1); free(x3);
    ml_zn_lu_free(one);
}

static void one_case(unsigned q, size_t m, size_t r, int kind)
{
    uint8_t *a = malloc(m * r + 1);
    for (size_t k = 0; k < m * r; k++) {
        unsigned v = rnd(q);
        if (kind == 1 && rnd(4)) v = 0;                      /* sparse */
        if (kind == 2) v = (v / 2) * 2 % q;                  /* many non-units for even q */
        if (kind == 3) v = (rnd(3) ? 0 : v) * (q % 3 == 0 ? 3 : 1) % q;
        a[k] = (uint8_t)v;
    }
    ml_zn_lu_t *lu = factor(a, q, m, r, threads);
    if (!lu) { free(a); return; }
    unsigned p = ml_zn_lu_p(lu);
    /* solve: columns A x0 (always solvable) */
    size_t nb = 4;
    unsigned *x0 = malloc((r + 1) * sizeof(unsigned)), *y = malloc((m + 1) * sizeof(unsigned));
    uint8_t *bt = calloc(m * nb + 1, 1), *xt = calloc(r * nb + 1, 1), ok[4];
    for (size_t b = 0; b < nb; b++) {
        for (size_t j = 0; j < r; j++) x0[j] = rnd(q);
        matvec(a, m, r, x0, q, y);
        for (size_t i = 0; i < m; i++) bt[i * nb + b] = (uint8_t)y[i];
    }
    CHECK(ml_zn_lu_solve(lu, bt, nb, xt, ok, 1) == 0, "solve rc");
    if (threads > 1) same_as_one_thread(lu, a, q, m, r, bt, nb);
    for (size_t b = 0; b < nb; b++) {
        CHECK(ok[b], "image vector reported unsolvable (q=%u %zux%zu)", q, m, r);
        for (size_t j = 0; j < r; j++) x0[j] = xt[j * nb + b];
        matvec(a, m, r, x0, q, y);
        for (size_t i = 0; i < m; i++) CHECK(y[i] == bt[i * nb + b], "residual (q=%u)", q);
    }
    /* one right side at a time (the nb == 1 paths): same verdicts, valid solutions */
    for (size_t b = 0; b < nb; b++) {
        uint8_t *b1 = calloc(m + 1, 1), *x1 = calloc(r + 1, 1), ok1;
        for (size_t i = 0; i < m; i++) b1[i] = (uint8_t)((bt[i * nb + b] + (b == 3 ? rnd(2) : 0)) % q);
        CHECK(ml_zn_lu_solve(lu, b1, 1, x1, &ok1, 1) == 0, "solve1 rc");
        for (size_t j = 0; j < r; j++) x0[j] = x1[j];
        matvec(a, m, r, x0, q, y);
        int same = 1;
        for (size_t i = 0; i < m; i++) same &= y[i] == b1[i];
        CHECK(ok1 == same || (!ok1 && !same), "nb=1 verdict (q=%u %zux%zu)", q, m, r);
        if (b < 3) CHECK(ok1 && same, "nb=1 image vector (q=%u %zux%zu)", q, m, r);
        free(b1); free(x1);
    }
    /* generators: in the kernel, exact orders, product = p^kernel_log */
    size_t ng = ml_zn_lu_ngens(lu);
    uint8_t *h = calloc(ng * r + 1, 1);
    unsigned *ord = calloc(ng + 1, sizeof(unsigned));
    CHECK(ml_zn_lu_generators(lu, h, ord) == 0, "generators rc");
    size_t logsum = 0;
    for (size_t g = 0; g < ng; g++) {
        unsigned o = ord[g];
        for (unsigned t = o; t > 1; t /= p) logsum++;
        for (size_t j = 0; j < r; j++) x0[j] = h[g * r + j];
        matvec(a, m, r, x0, q, y);
        for (size_t i = 0; i < m; i++) CHECK(y[i] == 0, "generator not in kernel (q=%u)", q);
        int nz = 0, z = 1;
        for (size_t j = 0; j < r; j++) {
            if (h[g * r + j] * (o / p) % q) nz = 1;
            if (h[g * r + j] * o % q) z = 0;
        }
        CHECK(z && (o == 1 || nz), "generator order (q=%u, o=%u)", q, o);
        if (g) CHECK(ord[g] <= ord[g - 1], "orders not descending");
    }
    CHECK(logsum == ml_zn_lu_kernel_log(lu), "kernel_log vs orders");
    /* brute-force |ker A| on tiny cases */
    size_t total = 1;
    for (size_t j = 0; j < r && total <= 4096; j++) total *= q;
    if (total <= 4096) {
        size_t cnt = 0;
        for (size_t idx = 0; idx < total; idx++) {
            size_t t = idx;
            for (size_t j = 0; j < r; j++) { x0[j] = (unsigned)(t % q); t /= q; }
            matvec(a, m, r, x0, q, y);
            int zero = 1;
            for (size_t i = 0; i < m; i++) if (y[i]) zero = 0;
            cnt += zero;
        }
        size_t ks = 1;
        for (size_t k = 0; k < ml_zn_lu_kernel_log(lu); k++) ks *= p;
        CHECK(cnt == ks, "|ker| brute %zu vs %zu (q=%u %zux%zu)", cnt, ks, q, m, r);
    }
    /* det vs cofactor expansion */
    if (m == r && m <= 6) {
        long *al = malloc((m * m + 1) * sizeof(long));
        for (size_t k = 0; k < m * m; k++) al[k] = a[k];
        CHECK((long)ml_zn_lu_det(lu) == det_slow(al, m, q), "det (q=%u n=%zu)", q, m);
        free(al);
    }
    /* pseudo-inverse where it exists: A G A = A, G columns = solve(e_i, check=0) */
    if (ml_zn_lu_rank(lu) == ml_zn_lu_unit_rank(lu) && m && r) {
        uint8_t *eye = calloc(m * m, 1), *gt = calloc(r * m, 1), *okm = calloc(m, 1);
        for (size_t i = 0; i < m; i++) eye[i * m + i] = 1;
        CHECK(ml_zn_lu_solve(lu, eye, m, gt, okm, 0) == 0, "pinv rc");
        /* A (G A) == A */
        for (size_t c = 0; c < r; c++) {
            unsigned *ga = calloc(r, sizeof(unsigned)), *col = calloc(m, sizeof(unsigned));
            for (size_t i = 0; i < m; i++) col[i] = a[i * r + c];
            for (size_t j = 0; j < r; j++) {
                unsigned long s = 0;
                for (size_t i = 0; i < m; i++) s += (unsigned long)gt[j * m + i] * col[i];
                ga[j] = (unsigned)(s % q);
            }
            matvec(a, m, r, ga, q, y);
            for (size_t i = 0; i < m; i++) CHECK(y[i] == col[i], "A G A != A (q=%u)", q);
            free(ga); free(col);
        }
        free(eye); free(gt); free(okm);
    }
    free(a); free(x0); free(y); free(bt); free(xt); free(h); free(ord);
    ml_zn_lu_free(lu);
}

int main(void)
{
    static const unsigned qs[] = {2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32, 49, 64, 81, 121, 125,
                                  128, 243, 251};
    CHECK(ml_zn_inv(2, 4) == 0 && ml_zn_inv(3, 4) == 3 && ml_zn_inv(2, 9) == 5, "inv");
    CHECK(ml_zn_lu_new(3, 3, 6) == NULL && ml_zn_lu_new(3, 3, 256) == NULL, "bad q accepted");
    {
        ml_zn_lu_t *lu = ml_zn_lu_new(3, 3, 5);
        CHECK(ml_zn_lu_set_method(lu, ML_ZN_BITSLICED) == -1, "bitsliced accepted for q=5");
        CHECK(ml_zn_lu_set_method(lu, 7) == -1, "unknown method accepted");
        ml_zn_lu_free(lu);
    }
    for (size_t qi = 0; qi < sizeof qs / sizeof *qs; qi++)
        for (int trial = 0; trial < 120; trial++) {
            size_t m = rnd(trial < 100 ? 7 : 40), r = rnd(trial < 100 ? 7 : 40);
            one_case(qs[qi], m, r, trial % 4);
        }
    /* again with three workers: the same answers as one */
    threads = 3;
    for (size_t qi = 0; qi < sizeof qs / sizeof *qs; qi++)
        for (int trial = 0; trial < 60; trial++) {
            size_t m = rnd(trial < 30 ? 9 : 60), r = rnd(trial < 30 ? 9 : 60);
            one_case(qs[qi], m, r, trial % 4);
        }
    /* square and wide matrices past the default panel sizes (blocked, threaded) */
    for (int trial = 0; trial < 4; trial++)
        one_case(trial < 2 ? 5 : 49, 420 + rnd(80), 420 + rnd(80), trial % 2);
    threads = 1;
    /* GF(3), Z/4 and Z/8 again through the bit-sliced elimination, up to three
     * panels wide */
    method = ML_ZN_BITSLICED;
    static const unsigned bq[] = {3, 4, 8};
    for (size_t qi = 0; qi < 3; qi++)
        for (int trial = 0; trial < 300; trial++) {
            size_t m = rnd(trial < 200 ? 9 : 150), r = rnd(trial < 200 ? 9 : 150);
            one_case(bq[qi], m, r, trial % 4);
        }
    if (failures) { fprintf(stderr, "%d failures\n", failures); return 1; }
    printf("test_zn: all passed\n");
    return 0;
}
