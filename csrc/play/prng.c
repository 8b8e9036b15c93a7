/* prng.c: SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014; the constants of Vigna's splitmix64.c), the generator every
 * draw that must be the same on every machine comes from (generate, daily), and the
 * seeds it starts from. Python's modlights.play.prng.SplitMix64 wraps these functions;
 * each draw here is the one Python's randbelow and sample made before (see
 * csrc/tests/t-play-prng.c and tests/play/test_play_native.py). */
#if defined(_WIN32)
#define _CRT_RAND_S /* rand_s: the system's cryptographic generator */
#endif
#include "api/ctx.h"
#include "play/play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__APPLE__)
#include <sys/random.h>
#elif !defined(_WIN32)
#include <unistd.h>
#endif

#ifndef ML_PRNG_SAMPLE_DENSE_MAX
/* ml_prng_sample keeps an array of the n items when n is at most this (or at most
 * 2 k); above, only the swapped positions, in a hash table of O(k) entries. */
#define ML_PRNG_SAMPLE_DENSE_MAX ((uint64_t)1 << 16)
#endif

#define GAMMA 0x9E3779B97F4A7C15ULL

void ml_prng_seed(ml_prng *g, uint64_t seed)
{
    if (g)
        g->state = seed;
}

uint64_t ml_prng_next(ml_prng *g)
{
    if (!g)
        return 0;
    uint64_t z = (g->state += GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t ml_prng_below(ml_prng *g, uint64_t n)
{
    /* Python: n == 1 gives 0 without a draw; otherwise draws v until v < 2^64 - (2^64 mod n) */
    if (!g || n <= 1)
        return 0;
    uint64_t rem = (0 - n) % n;  /* 2^64 mod n */
    for (;;) {
        uint64_t v = ml_prng_next(g);
        if (rem == 0 || v < 0 - rem)
            return v % n;
    }
}

uint64_t ml_seed_from_bytes(const void *data, size_t len)
{
    if (!data && len)
        return 0;
    uint8_t d[32];
    ml__sha256(data, len, d);
    uint64_t s = 0;
    for (int i = 0; i < 8; i++)
        s = s << 8 | d[i];
    return s;
}

int ml_seed_random(ml_ctx *ctx, uint64_t *seed)
{
    ctx = ml__begin(ctx);
    if (!seed)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_seed_random", "seed");
    uint8_t b[8];
    int ok;
#if defined(_WIN32)
    unsigned w0, w1;
    ok = rand_s(&w0) == 0 && rand_s(&w1) == 0;
    for (int i = 0; ok && i < 4; i++) {
        b[i] = (uint8_t)(w0 >> (8 * i));
        b[4 + i] = (uint8_t)(w1 >> (8 * i));
    }
#else
    ok = getentropy(b, sizeof b) == 0;   /* WebAssembly: WASI's random_get */
#if !defined(__wasi__)
    if (!ok) {  /* a kernel without getrandom(2): the device */
        FILE *f = fopen("/dev/urandom", "rb");
        if (f) {
            ok = fread(b, 1, sizeof b, f) == sizeof b;
            fclose(f);
        }
    }
#endif
#endif
    if (!ok)
        return ml__fail(ctx, ML_M_INTERNAL, "ml_seed_random",
                        "the operating system gave no random bytes");
    uint64_t s = 0;
    for (int i = 0; i < 8; i++)
        s = s << 8 | b[i];
    *seed = s;
    return ML_OK;
}

/* ---------------------------------------------------------------- sampling
 * Python's sample: items = list(range(n)); for i < k: j = i + randbelow(n - i), swap
 * items[i] and items[j]; the first k items. Past ML_PRNG_SAMPLE_DENSE_MAX the list is
 * virtual: items[p] is p unless p was swapped, and only swapped positions are stored. */

typedef struct {
    uint64_t *keys, *vals; /* keys[i] == EMPTY: a free slot */
    size_t mask;
} swaps_t;

#define EMPTY UINT64_MAX /* never a position: positions are below n <= UINT64_MAX */

static uint64_t *slot(swaps_t *t, uint64_t p)
{
    size_t h = (size_t)((p * 0x9E3779B97F4A7C15ULL) >> 17) & t->mask;
    while (t->keys[h] != EMPTY && t->keys[h] != p)
        h = (h + 1) & t->mask;
    return &t->keys[h];
}

static uint64_t get(swaps_t *t, uint64_t p)
{
    uint64_t *k = slot(t, p);
    return *k == EMPTY ? p : t->vals[k - t->keys];
}

static void set(swaps_t *t, uint64_t p, uint64_t v)
{
    uint64_t *k = slot(t, p);
    *k = p;
    t->vals[k - t->keys] = v;
}

int ml_prng_sample(ml_ctx *ctx, ml_prng *g, uint64_t n, uint64_t k, uint64_t *out)
{
    ctx = ml__begin(ctx);
    if (!g)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_prng_sample", "g");
    if (k > n)
        return ml__fail(ctx, ML_M_SAMPLE, (unsigned long long)k, (unsigned long long)n);
    if (k == 0)
        return ML_OK;
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_prng_sample", "out");
    if (n <= ML_PRNG_SAMPLE_DENSE_MAX || n / 2 <= k) {
        if (n > SIZE_MAX / sizeof(uint64_t))
            return ml__fail(ctx, ML_M_NOMEM, "ml_prng_sample");
        uint64_t *items = malloc((size_t)n * sizeof *items);
        if (!items)
            return ml__fail(ctx, ML_M_NOMEM, "ml_prng_sample");
        for (uint64_t i = 0; i < n; i++)
            items[i] = i;
        for (uint64_t i = 0; i < k; i++) {
            uint64_t j = i + ml_prng_below(g, n - i), t = items[i];
            items[i] = items[j];
            items[j] = t;
            out[i] = items[i];
        }
        free(items);
        return ML_OK;
    }
    /* at most k positions are stored: a table of at least 4 k slots (a load <= 1/4) */
    size_t slots = 16;
    while (slots / 4 < k) {
        if (slots > SIZE_MAX / 2 / sizeof(uint64_t))
            return ml__fail(ctx, ML_M_NOMEM, "ml_prng_sample");
        slots *= 2;
    }
    swaps_t t = {malloc(slots * sizeof(uint64_t)), malloc(slots * sizeof(uint64_t)), slots - 1};
    if (!t.keys || !t.vals) {
        free(t.keys);
        free(t.vals);
        return ml__fail(ctx, ML_M_NOMEM, "ml_prng_sample");
    }
    memset(t.keys, 0xff, slots * sizeof(uint64_t));
    for (uint64_t i = 0; i < k; i++) {
        uint64_t j = i + ml_prng_below(g, n - i);
        uint64_t vi = get(&t, i), vj = get(&t, j);
        set(&t, j, vi);
        out[i] = vj;  /* position i is never read again */
    }
    free(t.keys);
    free(t.vals);
    return ML_OK;
}
