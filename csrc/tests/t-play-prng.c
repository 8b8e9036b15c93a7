/* t-play-prng: csrc/play/prng.c, SplitMix64 and its seeds. Checked against Vigna's
 * reference outputs, Python's values (js/test/golden/prng.json: seed_from of ints and
 * text, randbelow, sample), and slow obvious versions on random input: randbelow by
 * rejection in 128-bit arithmetic (2^64 - 2^64 mod n as Python computes it), sample as
 * Python's list swap loop (a real list, or a list of swaps for huge n). The variant
 * "sparse" keeps no array of the n items past n = 0 (the hash-table path everywhere).
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: play/prng.c play/sha256.c api/ctx.c api/errors.c base/interrupt.c
 * ml-test-variant: sparse -DML_PRNG_SAMPLE_DENSE_MAX=0 */
#include "include/modlights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

typedef unsigned __int128 u128;

/* ---------------------------------------------------------------- obvious versions */
static uint64_t slow_next(uint64_t *s)
{
    *s += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Python's randbelow: n == 1 -> 0 (no draw); limit = 2^64 - (2^64 % n); draw until v < limit */
static uint64_t slow_below(uint64_t *s, uint64_t n)
{
    if (n == 1)
        return 0;
    u128 two64 = (u128)1 << 64, limit = two64 - two64 % n;
    for (;;) {
        uint64_t v = slow_next(s);
        if ((u128)v < limit)
            return v % n;
    }
}

/* Python's sample(range(n), k): the list itself (n small enough to hold). */
static void slow_sample_list(uint64_t *s, uint64_t n, uint64_t k, uint64_t *out)
{
    uint64_t *items = malloc((n + 1) * sizeof *items);
    for (uint64_t i = 0; i < n; i++)
        items[i] = i;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t j = i + slow_below(s, n - i), t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
    memcpy(out, items, k * sizeof *out);
    free(items);
}

/* The same with a list of (position, value) swaps (any n, small k). */
static void slow_sample_swaps(uint64_t *s, uint64_t n, uint64_t k, uint64_t *out)
{
    uint64_t *pos = malloc((2 * k + 1) * sizeof *pos), *val = malloc((2 * k + 1) * sizeof *val);
    size_t m = 0;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t j = i + slow_below(s, n - i);
        uint64_t vi = i, vj = j;
        size_t fi = m, fj = m;
        for (size_t t = 0; t < m; t++) {
            if (pos[t] == i) { vi = val[t]; fi = t; }
            if (pos[t] == j) { vj = val[t]; fj = t; }
        }
        if (fi == m) { pos[m] = i; fi = m++; }
        if (fj == m) { pos[m] = j; fj = m++; }
        val[fi] = vj;
        val[fj] = vi;
        out[i] = vj;
    }
    free(pos);
    free(val);
}

static uint64_t rnd(uint64_t *s) { return slow_next(s); }

/* ---------------------------------------------------------------- crafted states */
/* x from y = x ^ (x >> k) (k >= 1). */
static uint64_t unxorshift(uint64_t y, int k)
{
    uint64_t x = y;
    for (int i = 0; i < 64 / k + 1; i++)
        x = y ^ (x >> k);
    return x;
}

/* The inverse of an odd c modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t c)
{
    uint64_t x = c;
    for (int i = 0; i < 6; i++)
        x *= 2 - c * x;
    return x;
}

/* The state whose next output is v (SplitMix64's mix is a bijection). */
static uint64_t state_before(uint64_t v)
{
    uint64_t z = unxorshift(v, 31) * inverse(0x94D049BB133111EBULL);
    z = unxorshift(z, 27) * inverse(0xBF58476D1CE4E5B9ULL);
    return unxorshift(z, 30) - 0x9E3779B97F4A7C15ULL;
}

/* randbelow at the edge of its rejection: the last value kept, 2^64 - (2^64 mod n) - 1,
 * is used (one draw); the first value refused, 2^64 - (2^64 mod n), and the largest
 * output are drawn again (exactly Python's limit, not one off). */
static void rejection_edges(void)
{
    const uint64_t ns[] = {3, 5, 7, 10, 1000, (1ULL << 32) + 1, (1ULL << 63) + 1,
                           3 * (1ULL << 62) + 7, UINT64_MAX, UINT64_MAX - 1};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint64_t n = ns[i], rem = (uint64_t)(((u128)1 << 64) % n), limit = 0 - rem;
        ml_prng g;
        uint64_t s;
        CHECK(rem != 0);
        ml_prng_seed(&g, state_before(limit - 1));
        CHECK(ml_prng_next(&g) == limit - 1); /* the crafting itself */
        ml_prng_seed(&g, state_before(limit - 1));
        s = g.state;
        CHECK(ml_prng_below(&g, n) == (limit - 1) % n);
        CHECK(g.state == s + 0x9E3779B97F4A7C15ULL); /* one draw */
        for (int k = 0; k < 2; k++) {
            uint64_t v = k ? UINT64_MAX : limit;
            ml_prng_seed(&g, state_before(v));
            s = g.state;
            uint64_t want = slow_below(&s, n);
            CHECK(ml_prng_below(&g, n) == want && g.state == s);
            CHECK(g.state != state_before(v) + 0x9E3779B97F4A7C15ULL); /* drew again */
        }
    }
}

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    ml_prng g;
    rejection_edges();

    /* Vigna's splitmix64.c, seed 1234567 */
    ml_prng_seed(&g, 1234567);
    CHECK(ml_prng_next(&g) == 6457827717110365317ULL);
    CHECK(ml_prng_next(&g) == 3203168211198807973ULL);
    CHECK(ml_prng_next(&g) == 9817491932198370423ULL);
    CHECK(g.state == 1234567 + 3 * 0x9E3779B97F4A7C15ULL);

    /* Python's seed_from of text: the first 8 bytes of SHA-256, big-endian (prng.json) */
    CHECK(ml_seed_from_bytes("", 0) == 16406829232824261652ULL);
    CHECK(ml_seed_from_bytes(NULL, 0) == 16406829232824261652ULL);
    CHECK(ml_seed_from_bytes(NULL, 3) == 0);
    CHECK(ml_seed_from_bytes("abc", 3) == 13436514500253700074ULL);
    CHECK(ml_seed_from_bytes("modlights-daily-v2:2026-11-26", 29) == 9971770961284438246ULL);
    CHECK(ml_seed_from_bytes("\xc3\xa9 \xc3\xbc \xe6\x97\xa5\xe6\x9c\xac", 12)
          == 8574029628707500135ULL);
    char xs[200];
    memset(xs, 'x', sizeof xs);
    CHECK(ml_seed_from_bytes(xs, sizeof xs) == 12259011758085210944ULL);

    /* Python's draws (prng.json): seed 1234567 after 4 outputs, randbelow of these n */
    {
        static const uint64_t ns[8] = {1, 2, 3, 7, 10, 255, 1000, (1ULL << 40) + 3};
        static const uint64_t want[8] = {0, 1, 0, 5, 7, 219, 876, 832951912248ULL};
        static const uint64_t sample[7] = {16, 2, 4, 10, 1, 6, 17};
        ml_prng_seed(&g, 1234567);
        for (int i = 0; i < 4; i++)
            ml_prng_next(&g);
        for (int i = 0; i < 8; i++)
            CHECK(ml_prng_below(&g, ns[i]) == want[i]);
        for (int i = 0; i < 3; i++)  /* random() draws one output each */
            ml_prng_next(&g);
        uint64_t out[7];
        CHECK(ml_prng_sample(ctx, &g, 20, 7, out) == ML_OK);
        CHECK(memcmp(out, sample, sizeof out) == 0);
    }

    /* randbelow against the obvious version, rejection-heavy n included */
    {
        uint64_t r = 42;
        static const uint64_t fixed[] = {1, 2, 3, 5, 6, 7, 64, 1000, 1ULL << 32, (1ULL << 32) + 1,
                                         (1ULL << 63) - 1, 1ULL << 63, (1ULL << 63) + 1,
                                         (3ULL << 62) + 7, UINT64_MAX - 1, UINT64_MAX};
        for (int rep = 0; rep < 20000; rep++) {
            uint64_t n = rep < 16 * 50 ? fixed[rep % 16] : rnd(&r) >> (rnd(&r) % 64);
            if (n == 0)
                n = 1;
            uint64_t seed = rnd(&r), s = seed;
            ml_prng_seed(&g, seed);
            for (int t = 0; t < 5; t++) {
                uint64_t a = ml_prng_below(&g, n), b = slow_below(&s, n);
                if (a != b || g.state != s) {
                    printf("below(%llu) seed %llu: %llu, want %llu\n", (unsigned long long)n,
                           (unsigned long long)seed, (unsigned long long)a, (unsigned long long)b);
                    fails++;
                    break;
                }
                CHECK(a < n);
            }
        }
        ml_prng_seed(&g, 9);
        CHECK(ml_prng_below(&g, 0) == 0 && ml_prng_below(&g, 1) == 0 && g.state == 9);
    }

    /* sample against the obvious version: small and huge n, k from 0 to n */
    {
        uint64_t r = 7;
        for (int rep = 0; rep < 3000; rep++) {
            uint64_t n, k;
            switch (rep % 4) {
            case 0: n = rnd(&r) % 40; k = n ? rnd(&r) % (n + 1) : 0; break;
            case 1: n = 1 + rnd(&r) % 5000; k = rnd(&r) % (n + 1); break;
            case 2: n = 70000 + rnd(&r) % 100000; k = rnd(&r) % 50; break;
            default: n = rnd(&r) >> (rnd(&r) % 20); k = rnd(&r) % 20; break;
            }
            if (k > n)
                k = n;
            uint64_t *a = malloc((k + 1) * sizeof *a), *b = malloc((k + 1) * sizeof *b);
            uint64_t seed = rnd(&r), s = seed;
            ml_prng_seed(&g, seed);
            int rc = ml_prng_sample(ctx, &g, n, k, a);
            if (n <= 1000000)
                slow_sample_list(&s, n, k, b);
            else
                slow_sample_swaps(&s, n, k, b);
            CHECK(rc == ML_OK);
            if (memcmp(a, b, k * sizeof *a) != 0 || g.state != s) {
                printf("sample(%llu, %llu) seed %llu differs\n", (unsigned long long)n,
                       (unsigned long long)k, (unsigned long long)seed);
                fails++;
            }
            for (uint64_t i = 0; i < k; i++) {  /* distinct, in range */
                CHECK(a[i] < n);
                for (uint64_t j = 0; j < i && j < 64; j++)
                    CHECK(a[i] != a[j]);
            }
            free(a);
            free(b);
        }
        /* every item once: sample(n, n) is a permutation */
        uint64_t perm[300];
        int seen[300] = {0};
        ml_prng_seed(&g, 5);
        CHECK(ml_prng_sample(ctx, &g, 300, 300, perm) == ML_OK);
        for (int i = 0; i < 300; i++)
            seen[perm[i]]++;
        for (int i = 0; i < 300; i++)
            CHECK(seen[i] == 1);
    }

    /* errors: Python's message, NULLs */
    {
        uint64_t out[4];
        ml_prng_seed(&g, 3);
        CHECK(ml_prng_sample(ctx, &g, 3, 5, out) == ML_ERANGE);
        CHECK(ml_errmsg_id(ctx) == ML_M_SAMPLE);
        CHECK(strcmp(ml_errmsg(ctx), "cannot sample 5 of 3 items") == 0);
        CHECK(g.state == 3);
        CHECK(ml_prng_sample(ctx, &g, 0, 0, NULL) == ML_OK && ml_errcode(ctx) == ML_OK);
        CHECK(ml_prng_sample(ctx, &g, 10, 0, NULL) == ML_OK && g.state == 3);
        CHECK(ml_prng_sample(ctx, &g, 10, 2, NULL) == ML_EMISUSE);
        CHECK(strcmp(ml_errmsg(ctx), "ml_prng_sample: out must not be NULL") == 0);
        CHECK(ml_prng_sample(ctx, NULL, 10, 2, out) == ML_EMISUSE);
        CHECK(strcmp(ml_errmsg(ctx), "ml_prng_sample: g must not be NULL") == 0);
        CHECK(ml_prng_sample(NULL, &g, 1, 2, out) == ML_ERANGE && ml_errcode(NULL) == ML_ERANGE);
        /* a list of 2^64 - 1 items is never made */
        CHECK(ml_prng_sample(ctx, &g, UINT64_MAX, 4, out) == ML_OK);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < i; j++)
                CHECK(out[i] != out[j]);
        /* half of a huge list: refused before allocating (no list or table that large) */
        int rc = ml_prng_sample(ctx, &g, UINT64_MAX, UINT64_MAX / 2, out);
        CHECK(rc == ML_ENOMEM && ml_errmsg_id(ctx) == ML_M_NOMEM);
        CHECK(strcmp(ml_errmsg(ctx), "out of memory in ml_prng_sample") == 0);
        CHECK(ml_prng_next(NULL) == 0 && ml_prng_below(NULL, 5) == 0);
        ml_prng_seed(NULL, 1);
    }

    /* fresh seeds from the system */
    {
        uint64_t a = 0, b = 0;
        CHECK(ml_seed_random(ctx, &a) == ML_OK && ml_seed_random(ctx, &b) == ML_OK);
        CHECK(a != b);  /* 2^-64 */
        CHECK(ml_seed_random(ctx, NULL) == ML_EMISUSE);
        CHECK(strcmp(ml_errmsg(ctx), "ml_seed_random: seed must not be NULL") == 0);
    }

    ml_ctx_free(ctx);
    printf("fails=%d\n", fails);
    return fails != 0;
}
