/* t-poly: csrc/poly/poly.c against schoolbook arithmetic written here bit by bit
 * (GF(2)) and coefficient by coefficient (GF(p)), on random polynomials: products
 * (Karatsuba forced on with a low threshold, and the base case), a = q b + r with
 * deg r < deg b, and the extended gcd (g = s a + t b, g divides a and b).
 * GF(p) inputs stay below gfpx_fast.c's thresholds (the base cases through the
 * dispatchers; the fast paths are t-gfpx_fast's).
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: poly/poly.c poly/gfpx_fast.c base/interrupt.c base/cpu.c */
#include "poly/poly.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t seed = 0xD1B54A32D192ED03ull;
static uint64_t rnd(void)   /* splitmix64 */
{
    uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf(__VA_ARGS__); printf("\n"); } } while (0)

/* ---- GF(2): plain bit arrays (one byte a coefficient) as the slow method */
static void gf2_random(ml_gf2x *a, size_t words)
{
    uint64_t w[64];
    for (size_t i = 0; i < words; i++)
        w[i] = rnd();
    if (words)
        w[words - 1] >>= rnd() % 64;                     /* a random degree */
    ml_gf2x_set(a, w, words);
}

static int gf2_bit(const ml_gf2x *a, size_t i)
{
    return i / 64 < a->n ? (int)(a->c[i / 64] >> (i % 64) & 1) : 0;
}

/* r == a * b, checked with the schoolbook product bit by bit */
static int gf2_is_product(const ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b)
{
    long da = ml_gf2x_deg(a), db = ml_gf2x_deg(b);
    if (da < 0 || db < 0)
        return ml_gf2x_deg(r) == -1;
    size_t len = (size_t)(da + db + 1);
    uint8_t *c = calloc(len, 1);
    for (long i = 0; i <= da; i++)
        if (gf2_bit(a, (size_t)i))
            for (long j = 0; j <= db; j++)
                c[i + j] ^= (uint8_t)gf2_bit(b, (size_t)j);
    int ok = ml_gf2x_deg(r) == da + db;
    for (size_t i = 0; ok && i < len; i++)
        ok = gf2_bit(r, i) == c[i];
    free(c);
    return ok;
}

static int gf2_equal(const ml_gf2x *a, const ml_gf2x *b)
{
    return a->n == b->n && (a->n == 0 || !memcmp(a->c, b->c, a->n * 8));
}

static void test_gf2(void)
{
    ml_gf2x a, b, r, k, q, rem, g, s, t, u, v;
    ml_gf2x *all[] = {&a, &b, &r, &k, &q, &rem, &g, &s, &t, &u, &v};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ml_gf2x_init(all[i]);
    size_t saved = ml_gf2x_karatsuba_words;
    for (int trial = 0; trial < 300; trial++) {
        gf2_random(&a, rnd() % 12);
        gf2_random(&b, rnd() % 12);
        ml_gf2x_karatsuba_words = 2 + rnd() % 3;         /* Karatsuba on small input */
        CHECK(ml_gf2x_mul(&r, &a, &b) == 0 && gf2_is_product(&r, &a, &b), "gf2 mul %d", trial);
        CHECK(ml_gf2x_mul_basecase(&k, &a, &b) == 0 && gf2_equal(&k, &r), "gf2 basecase %d", trial);
        if (ml_gf2x_deg(&b) >= 0) {                      /* a = q b + r, deg r < deg b */
            CHECK(ml_gf2x_divrem(&q, &rem, &a, &b) == 0, "gf2 divrem %d", trial);
            CHECK(ml_gf2x_deg(&rem) < ml_gf2x_deg(&b), "gf2 deg r %d", trial);
            ml_gf2x_mul_basecase(&u, &q, &b);
            ml_gf2x_addshift(&u, &rem, 0);
            CHECK(gf2_equal(&u, &a), "gf2 a = q b + r %d", trial);
        }
        CHECK(ml_gf2x_xgcd(&g, &s, &t, &a, &b) == 0, "gf2 xgcd %d", trial);
        ml_gf2x_mul_basecase(&u, &s, &a);                /* g = s a + t b */
        ml_gf2x_mul_basecase(&v, &t, &b);
        ml_gf2x_addshift(&u, &v, 0);
        CHECK(gf2_equal(&u, &g), "gf2 bezout %d", trial);
        if (ml_gf2x_deg(&g) >= 0) {                      /* g divides a and b */
            ml_gf2x_divrem(NULL, &rem, &a, &g);
            CHECK(ml_gf2x_deg(&rem) == -1, "gf2 g | a %d", trial);
            ml_gf2x_divrem(NULL, &rem, &b, &g);
            CHECK(ml_gf2x_deg(&rem) == -1, "gf2 g | b %d", trial);
        }
        ml_gf2x_gcd(&u, &a, &b);
        CHECK(gf2_equal(&u, &g), "gf2 gcd = xgcd %d", trial);
    }
    ml_gf2x_karatsuba_words = saved;
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ml_gf2x_clear(all[i]);
}

/* ---- GF(p) */
static void gfp_random(ml_gfpx *a, size_t n, unsigned p)
{
    uint8_t c[300];
    for (size_t i = 0; i < n; i++)
        c[i] = (uint8_t)(rnd() % p);
    ml_gfpx_set(a, c, n);
}

static int gfp_equal(const ml_gfpx *a, const ml_gfpx *b)
{
    return a->n == b->n && (a->n == 0 || !memcmp(a->c, b->c, a->n));
}

/* r = a * b + c (mod p), schoolbook, into r (normalised) */
static void gfp_slow_muladd(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b,
                            const ml_gfpx *c, unsigned p)
{
    size_t len = a->n + b->n + c->n + 1;
    uint8_t *x = calloc(len, 1);
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++)
            x[i + j] = (uint8_t)((x[i + j] + a->c[i] * b->c[j]) % p);
    for (size_t i = 0; i < c->n; i++)
        x[i] = (uint8_t)((x[i] + c->c[i]) % p);
    ml_gfpx_set(r, x, len);
    free(x);
}

static void test_gfp(void)
{
    static const unsigned primes[] = {2, 3, 5, 7, 13, 251};
    ml_gfpx a, b, r, q, rem, g, s, t, u, v, zero;
    ml_gfpx *all[] = {&a, &b, &r, &q, &rem, &g, &s, &t, &u, &v, &zero};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ml_gfpx_init(all[i]);
    for (int trial = 0; trial < 300; trial++) {
        unsigned p = primes[rnd() % 6];
        gfp_random(&a, rnd() % 120, p);
        gfp_random(&b, rnd() % 120, p);
        CHECK(ml_gfpx_mul(&r, &a, &b, p) == 0, "gfp mul %d", trial);
        gfp_slow_muladd(&u, &a, &b, &zero, p);
        CHECK(gfp_equal(&r, &u), "gfp mul = schoolbook p=%u %d", p, trial);
        if (ml_gfpx_deg(&b) >= 0) {
            CHECK(ml_gfpx_divrem(&q, &rem, &a, &b, p) == 0, "gfp divrem %d", trial);
            CHECK(ml_gfpx_deg(&rem) < ml_gfpx_deg(&b), "gfp deg r %d", trial);
            gfp_slow_muladd(&u, &q, &b, &rem, p);
            CHECK(gfp_equal(&u, &a), "gfp a = q b + r p=%u %d", p, trial);
        }
        CHECK(ml_gfpx_xgcd(&g, &s, &t, &a, &b, p) == 0, "gfp xgcd %d", trial);
        gfp_slow_muladd(&v, &t, &b, &zero, p);           /* g = s a + t b */
        gfp_slow_muladd(&u, &s, &a, &v, p);
        CHECK(gfp_equal(&u, &g), "gfp bezout p=%u %d", p, trial);
        CHECK(g.n == 0 || g.c[g.n - 1] == 1, "gfp g monic %d", trial);
        if (ml_gfpx_deg(&g) >= 0) {
            ml_gfpx_divrem(&q, &rem, &a, &g, p);
            CHECK(ml_gfpx_deg(&rem) == -1, "gfp g | a %d", trial);
            ml_gfpx_divrem(&q, &rem, &b, &g, p);
            CHECK(ml_gfpx_deg(&rem) == -1, "gfp g | b %d", trial);
        }
        ml_gfpx_gcd(&u, &a, &b, p);
        CHECK(gfp_equal(&u, &g), "gfp gcd = xgcd %d", trial);
    }
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ml_gfpx_clear(all[i]);
}

int main(void)
{
    test_gf2();
    test_gfp();
    printf("fails=%d\n", fails);
    return fails != 0;
}
