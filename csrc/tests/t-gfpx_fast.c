/* t-gfpx_fast: csrc/poly/gfpx_fast.c, GF(p)'s fast paths, against poly.c's base cases
 * (and a resultant by Euclid's formula written here), equal to the coefficient, for
 * every prime p up to 251, with the thresholds (poly.h) lowered to a few coefficients
 * in two trials of three and at their defaults in the third: the transform product (one
 * prime or both and the CRT, transforms limited to a few points so that long products
 * go by pieces; squares), Newton division and the series inverse (f g = 1 mod x^k),
 * the half-gcd's gcd and extended gcd (the same g, s, t as Euclid's, with t and
 * without) and resultant (both argument orders), on random inputs of lengths around
 * the thresholds, zero, constant and one-term inputs, and pairs with a planted common
 * factor; then at the default thresholds a 10^5-term product (two primes; coefficients
 * spot-checked), an extended gcd of degree 1700 with a common factor of degree 400 and
 * a resultant of degree 1500; a stop requested before a gcd, an extended gcd, a
 * resultant or a series inverse: 3 (outputs untouched), the stop taken.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: poly/gfpx_fast.c poly/poly.c base/interrupt.c base/cpu.c */
#include "poly/poly.h"
#include "base/interrupt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x6F9A11E5D0C3B2A1ull
#include "t-util.h"

static void gfp_random(ml_gfpx *a, size_t n, unsigned p)
{
    uint8_t c[4096];
    if (n > sizeof c)
        n = sizeof c;
    for (size_t i = 0; i < n; i++)
        c[i] = (uint8_t)(rnd() % p);
    ml_gfpx_set(a, c, n);
}

static int gfp_equal(const ml_gfpx *a, const ml_gfpx *b)
{
    return a->n == b->n && (a->n == 0 || !memcmp(a->c, b->c, a->n));
}

/* a random input of one of the shapes: zero, a constant, c x^k, dense of length n */
static void gfp_shape(ml_gfpx *a, size_t n, unsigned p)
{
    uint8_t c[4096] = {0};
    switch (rnd() % 8) {
    case 0:
        ml_gfpx_set(a, c, 0);
        return;
    case 1:
        c[0] = (uint8_t)(1 + rnd() % (p - 1));
        ml_gfpx_set(a, c, 1);
        return;
    case 2:
        n = n ? n : 1;
        c[n - 1] = (uint8_t)(1 + rnd() % (p - 1));
        ml_gfpx_set(a, c, n);
        return;
    default:
        gfp_random(a, n, p);
    }
}

static const unsigned PRIMES[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53,
    59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151,
    157, 163, 167, 173, 179, 181, 191, 193, 197, 199, 211, 223, 227, 229, 233, 239, 241, 251};
#define NPRIMES (sizeof PRIMES / sizeof *PRIMES)

/* length near one of the thresholds t (or small) */
static size_t near(size_t t)
{
    size_t v = t + rnd() % 9;
    v = v > 4 ? v - 4 : 0;
    return rnd() % 4 ? v : rnd() % (2 * t + 2);
}

static unsigned powmod_t(unsigned a, unsigned long e, unsigned p)
{
    unsigned long r = 1 % p, x = a % p;
    for (; e; e >>= 1, x = x * x % p)
        if (e & 1)
            r = r * x % p;
    return (unsigned)r;
}

/* Res(a, b) mod p by Euclid's formula step by step (long division; a, b != 0) */
static unsigned slow_resultant(const ml_gfpx *a0, const ml_gfpx *b0, unsigned p)
{
    ml_gfpx a, b, r;
    ml_gfpx_init(&a); ml_gfpx_init(&b); ml_gfpx_init(&r);
    ml_gfpx_copy(&a, a0);
    ml_gfpx_copy(&b, b0);
    unsigned long out = 1;
    unsigned res = 0;
    for (;;) {
        long m = ml_gfpx_deg(&a), n = ml_gfpx_deg(&b);
        if (n == 0) {
            res = (unsigned)(out * powmod_t(b.c[0], (unsigned long)m, p) % p);
            break;
        }
        ml_gfpx_divrem_basecase(NULL, &r, &a, &b, p);
        long k = ml_gfpx_deg(&r);
        if (k < 0)
            break;
        if ((m * n) % 2)
            out = (p - out) % p;
        out = out * powmod_t(b.c[n], (unsigned long)(m - k), p) % p;
        ml_gfpx t = a; a = b; b = r; r = t;
    }
    ml_gfpx_clear(&a); ml_gfpx_clear(&b); ml_gfpx_clear(&r);
    return res;
}

static void test_gfp_fast(void)
{
    ml_gfpx a, b, c, r, u, q1, r1, q2, r2, g1, s1, t1, g2, s2, t2;
    ml_gfpx *all[] = {&a, &b, &c, &r, &u, &q1, &r1, &q2, &r2, &g1, &s1, &t1, &g2, &s2, &t2};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ml_gfpx_init(all[i]);
    size_t sm = ml_gfpx_mul_threshold, sd = ml_gfpx_div_threshold;
    size_t sg = ml_gfpx_gcd_threshold, sp = ml_gfpx_ntt_points;
    int n_res = 0;
    for (int trial = 0; trial < 1080; trial++) {
        unsigned p = PRIMES[trial % NPRIMES];
        int lowered = trial % 3 != 0;   /* 2 of 3 trials: thresholds lowered */
        ml_gfpx_mul_threshold = lowered ? 1 + rnd() % 8 : sm;
        ml_gfpx_div_threshold = lowered ? 1 + rnd() % 12 : sd;
        ml_gfpx_gcd_threshold = lowered ? 2 + rnd() % 24 : sg;
        ml_gfpx_ntt_points = lowered && rnd() % 4 == 0 ? 4 + rnd() % 60 : sp;
        ml_gfpx_ntt_force_crt = (int)(rnd() % 2);        /* one prime or both (CRT) */
        size_t scale = lowered ? 24 : sg;
        /* products: transform = schoolbook */
        gfp_shape(&a, near(scale), p);
        gfp_shape(&b, near(scale), p);
        CHECK(ml_gfpx_mul_ntt(&r, &a, &b, p) == 0, "ntt mul %d", trial);
        ml_gfpx_mul_basecase(&u, &a, &b, p);
        CHECK(gfp_equal(&r, &u), "ntt = schoolbook p=%u na=%zu nb=%zu %d", p, a.n, b.n, trial);
        CHECK(ml_gfpx_mul_ntt(&r, &a, &a, p) == 0 && ml_gfpx_mul_basecase(&u, &a, &a, p) == 0
              && gfp_equal(&r, &u), "ntt square p=%u n=%zu %d", p, a.n, trial);
        /* division: Newton = long division */
        gfp_shape(&a, near(3 * scale), p);
        gfp_shape(&b, near(scale), p);
        if (b.n) {
            CHECK(ml_gfpx_divrem_newton(&q1, &r1, &a, &b, p) == 0, "newton %d", trial);
            ml_gfpx_divrem_basecase(&q2, &r2, &a, &b, p);
            CHECK(gfp_equal(&q1, &q2) && gfp_equal(&r1, &r2),
                  "newton = long division p=%u na=%zu nb=%zu %d", p, a.n, b.n, trial);
            CHECK(ml_gfpx_divrem(NULL, &r1, &a, &b, p) == 0 && gfp_equal(&r1, &r2),
                  "divrem remainder only p=%u %d", p, trial);
        }
        if (a.n && a.c[0]) {             /* a g = 1 mod x^k */
            size_t k = 1 + rnd() % (2 * scale);
            CHECK(ml_gfpx_inv_series(&g1, &a, k, p) == 0, "inv series %d", trial);
            ml_gfpx_mul_basecase(&u, &g1, &a, p);
            int ok = g1.n <= k && u.n >= 1 && u.c[0] == 1;
            for (size_t i = 1; ok && i < k && i < u.n; i++)
                ok = u.c[i] == 0;
            CHECK(ok, "inv series p=%u n=%zu k=%zu %d", p, a.n, k, trial);
        }
        /* gcds: half-gcd = Euclid, with a planted common factor half of the time */
        gfp_shape(&a, near(2 * scale), p);
        gfp_shape(&b, near(2 * scale), p);
        if (rnd() % 2) {
            gfp_random(&c, 1 + rnd() % scale, p);
            ml_gfpx_mul_basecase(&a, &a, &c, p);
            ml_gfpx_mul_basecase(&b, &b, &c, p);
        }
        CHECK(ml_gfpx_gcd(&g1, &a, &b, p) == 0, "gcd %d", trial);
        ml_gfpx_gcd_classical(&g2, &a, &b, p);
        CHECK(gfp_equal(&g1, &g2), "half-gcd = Euclid p=%u na=%zu nb=%zu %d", p, a.n, b.n,
              trial);
        CHECK(ml_gfpx_xgcd(&g1, &s1, &t1, &a, &b, p) == 0, "xgcd %d", trial);
        ml_gfpx_xgcd_classical(&g2, &s2, &t2, &a, &b, p);
        CHECK(gfp_equal(&g1, &g2) && gfp_equal(&s1, &s2) && gfp_equal(&t1, &t2),
              "fast xgcd = Euclid's p=%u na=%zu nb=%zu %d", p, a.n, b.n, trial);
        CHECK(ml_gfpx_xgcd(&g1, &s1, NULL, &a, &b, p) == 0 && gfp_equal(&g1, &g2)
              && gfp_equal(&s1, &s2), "fast xgcd without t p=%u %d", p, trial);
        /* the resultant from the half-gcd's log = Euclid's, step by step */
        unsigned res = 7;
        CHECK(ml_gfpx_resultant(&res, &a, &b, p) == 0, "resultant %d", trial);
        unsigned want = a.n && b.n ? slow_resultant(&a, &b, p) : 0;
        CHECK(res == want, "resultant %u != %u p=%u na=%zu nb=%zu %d", res, want, p, a.n, b.n,
              trial);
        if (a.n && b.n && g2.n == 1) {   /* coprime: often non-zero, and b's turn first */
            CHECK(ml_gfpx_resultant(&res, &b, &a, p) == 0 && res == slow_resultant(&b, &a, p),
                  "resultant (b, a) p=%u %d", p, trial);
            n_res += res != 0;
        }
    }
    CHECK(n_res > 100, "non-zero resultants: %d", n_res);
    /* one large case at the default thresholds: a 10^5-term product (two primes) and a gcd
     * of degree 1700 with a common factor of degree 400 */
    ml_gfpx_mul_threshold = sm;
    ml_gfpx_div_threshold = sd;
    ml_gfpx_gcd_threshold = sg;
    ml_gfpx_ntt_points = sp;
    ml_gfpx_ntt_force_crt = 0;
    {
        unsigned p = 251;
        uint8_t *x = malloc(100000), *y = malloc(100000);
        for (size_t i = 0; i < 100000; i++) {
            x[i] = (uint8_t)(rnd() % p);
            y[i] = (uint8_t)(rnd() % p);
        }
        x[99999] = y[99999] = 7;
        ml_gfpx_set(&a, x, 100000);
        ml_gfpx_set(&b, y, 100000);
        CHECK(ml_gfpx_mul(&r, &a, &b, p) == 0 && r.n == 199999, "big mul");
        /* spot checks of coefficients: r_k = sum a_i b_{k-i} */
        for (int k = 0; k < 20; k++) {
            size_t d = (size_t)(rnd() % 199999), lo = d > 99999 ? d - 99999 : 0;
            uint64_t sum = 0;
            for (size_t i = lo; i <= d && i < 100000; i++)
                sum += (uint64_t)x[i] * y[d - i];
            CHECK(r.c[d] == sum % p, "big mul coefficient %zu", d);
        }
        free(x);
        free(y);
        p = 3;
        gfp_random(&c, 401, p);
        gfp_random(&a, 1300, p);
        gfp_random(&b, 1290, p);
        ml_gfpx_mul(&a, &a, &c, p);
        ml_gfpx_mul(&b, &b, &c, p);
        CHECK(ml_gfpx_xgcd(&g1, &s1, &t1, &a, &b, p) == 0, "big xgcd");
        ml_gfpx_xgcd_classical(&g2, &s2, &t2, &a, &b, p);
        CHECK(ml_gfpx_deg(&g1) >= ml_gfpx_deg(&c) && gfp_equal(&g1, &g2) && gfp_equal(&s1, &s2)
              && gfp_equal(&t1, &t2), "big xgcd = Euclid's (deg %ld)", ml_gfpx_deg(&g1));
        unsigned res = 9;
        gfp_random(&a, 1500, 5);
        gfp_random(&b, 1400, 5);
        CHECK(ml_gfpx_resultant(&res, &a, &b, 5) == 0 && res == slow_resultant(&a, &b, 5),
              "big resultant");
    }
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ml_gfpx_clear(all[i]);
}

/* a stop requested before the call: 3, the outputs untouched, the stop taken */
static void test_stop(void)
{
    ml_gfpx a, b, g, s, q, r;
    ml_gfpx *all[] = {&a, &b, &g, &s, &q, &r};
    for (size_t i = 0; i < 6; i++)
        ml_gfpx_init(all[i]);
    gfp_random(&a, 3000, 7);
    gfp_random(&b, 2900, 7);
    static const uint8_t mark[2] = {5, 1};
    ml_gfpx_set(&g, mark, 2);
    ml_gfpx_set(&s, mark, 2);
    ml_interrupt_request();
    CHECK(ml_gfpx_gcd(&g, &a, &b, 7) == 3 && g.n == 2 && g.c[0] == 5, "stopped gcd");
    CHECK(ml_interrupt_take() == 1, "the stop was not taken (gcd)");
    ml_interrupt_request();
    CHECK(ml_gfpx_xgcd(&g, &s, NULL, &a, &b, 7) == 3 && g.n == 2 && s.n == 2, "stopped xgcd");
    CHECK(ml_interrupt_take() == 1, "the stop was not taken (xgcd)");
    unsigned res = 0;
    ml_interrupt_request();
    CHECK(ml_gfpx_resultant(&res, &a, &b, 7) == 3, "stopped resultant");
    CHECK(ml_interrupt_take() == 1, "the stop was not taken (resultant)");
    ml_interrupt_request();
    CHECK(ml_gfpx_inv_series(&q, &a, 2000, 7) == 3 || a.c[0] == 0, "stopped series inverse");
    ml_interrupt_take();
    CHECK(ml_gfpx_gcd(&g, &a, &b, 7) == 0, "gcd after the stop");
    for (size_t i = 0; i < 6; i++)
        ml_gfpx_clear(all[i]);
}

int main(void)
{
    test_gfp_fast();
    test_stop();
    return t_done();
}
