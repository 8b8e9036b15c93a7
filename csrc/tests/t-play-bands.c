/* t-play-bands: csrc/play/bands.c, the difficulty names, tap bands, difficulty_of and
 * stars of play/puzzles.py. Bands against Python's tap_bands (small boards and 2^64 - 1
 * taps) and against a slow obvious version (the least k with q^2 k^2 >= p^2 x found by
 * counting up: every board of up to 1500 taps, n up to 12 and 255); exactness of the
 * integer square roots at 128-bit sizes checked from their definition; difficulty_of
 * and the stars against their rules written out. Exit status 0 when every check holds.
 * ml-test-sources: play/bands.c play/pytext.c api/ctx.c api/errors.c base/interrupt.c */
#include "include/modlights.h"

#include <stdio.h>
#include <string.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

typedef unsigned __int128 u128;

/* The least k with q^2 k^2 >= p^2 x, counting up (x small). */
static uint64_t slow_ceil(uint64_t x, uint64_t p, uint64_t q)
{
    uint64_t k = 0;
    while (q * q * k * k < p * p * x)
        k++;
    return k;
}

/* The largest k with q^2 k^2 <= p^2 x. */
static uint64_t slow_floor(uint64_t x, uint64_t p, uint64_t q)
{
    uint64_t k = 0;
    while (q * q * (k + 1) * (k + 1) <= p * p * x)
        k++;
    return k;
}

static void slow_bands(uint64_t T, int n, uint64_t lo[4], uint64_t hi[4])
{
    uint64_t x = T * (uint64_t)(n - 1);
    static const uint64_t u[4][2] = {{1, 1}, {8, 5}, {12, 5}, {18, 5}};
    lo[0] = 3;
    for (int i = 1; i < 4; i++) {
        uint64_t c = slow_ceil(x, u[i - 1][0], u[i - 1][1]);
        lo[i] = c > lo[i - 1] + 1 ? c : lo[i - 1] + 1;
        hi[i - 1] = lo[i] - 1;
    }
    uint64_t top = slow_floor(x, 18, 5);
    hi[3] = top > lo[3] ? top : lo[3];
}

static int bands_are(uint64_t T, int n, const uint64_t want[8])
{
    uint64_t lo[4], hi[4];
    ml_tap_bands(T, n, lo, hi);
    for (int d = 0; d < 4; d++)
        if (lo[d] != want[2 * d] || hi[d] != want[2 * d + 1]) {
            printf("bands(%llu, %d)[%d] = (%llu, %llu), want (%llu, %llu)\n",
                   (unsigned long long)T, n, d, (unsigned long long)lo[d],
                   (unsigned long long)hi[d], (unsigned long long)want[2 * d],
                   (unsigned long long)want[2 * d + 1]);
            return 0;
        }
    return 1;
}

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;

    /* ---- names */
    static const char *names[4] = {"easy", "medium", "hard", "expert"};
    for (int d = 0; d < 4; d++) {
        int got = -1;
        CHECK(strcmp(ml_difficulty_name(d), names[d]) == 0);
        CHECK(ml_difficulty_lookup(ctx, names[d], &got) == ML_OK && got == d);
    }
    CHECK(ml_difficulty_name(-1) == NULL && ml_difficulty_name(4) == NULL);
    int d = 7;
    CHECK(ml_difficulty_lookup(ctx, "impossible", &d) == ML_EINVAL && d == 7);
    CHECK(ml_errmsg_id(ctx) == ML_M_DIFFICULTY);
    CHECK(strcmp(ml_errmsg(ctx), "difficulty must be one of 'easy', 'medium', 'hard', "
                                 "'expert', got 'impossible'") == 0);
    CHECK(ml_difficulty_lookup(ctx, "it's", &d) == ML_EINVAL);
    CHECK(strcmp(ml_errmsg(ctx), "difficulty must be one of 'easy', 'medium', 'hard', "
                                 "'expert', got \"it's\"") == 0);
    CHECK(ml_difficulty_lookup(ctx, "Easy", &d) == ML_EINVAL);
    CHECK(ml_difficulty_lookup(ctx, "easy ", &d) == ML_EINVAL);
    CHECK(ml_difficulty_lookup(ctx, "", &d) == ML_EINVAL);
    CHECK(strcmp(ml_errmsg(ctx), "difficulty must be one of 'easy', 'medium', 'hard', "
                                 "'expert', got ''") == 0);
    CHECK(ml_difficulty_lookup(ctx, "easy\xc0\x80", &d) == ML_EINVAL);  /* "easy\0" */
    CHECK(strcmp(ml_errmsg(ctx), "difficulty must be one of 'easy', 'medium', 'hard', "
                                 "'expert', got 'easy\\x00'") == 0);
    CHECK(ml_difficulty_lookup(ctx, NULL, &d) == ML_EMISUSE);
    CHECK(strcmp(ml_errmsg(ctx), "ml_difficulty_lookup: name must not be NULL") == 0);
    CHECK(ml_difficulty_lookup(ctx, "easy", NULL) == ML_EMISUSE);
    CHECK(ml_difficulty_lookup(ctx, "easy", &d) == ML_OK && ml_errcode(ctx) == ML_OK);

    /* ---- bands: Python's tap_bands */
    {
        static const struct { uint64_t T; int n; uint64_t b[8]; } py[] = {
            {UINT64_MAX, 255, {3, 68450514933ULL, 68450514934ULL, 109520823894ULL,
                               109520823895ULL, 164281235841ULL, 164281235842ULL,
                               246421853762ULL}},
            {1ULL << 40, 2, {3, 1048575, 1048576, 1677721, 1677722, 2516582, 2516583, 3774873}},
            {1000000000000ULL, 7, {3, 2449489, 2449490, 3919183, 3919184, 5878775, 5878776,
                                   8818163}},
            {UINT64_MAX, 2147483647, {3, 199032864673748ULL, 199032864673749ULL,
                                      318452583477997ULL, 318452583477998ULL,
                                      477678875216996ULL, 477678875216997ULL,
                                      716518312825494ULL}},
            {25, 2, {3, 4, 5, 7, 8, 11, 12, 18}},
            {0, 2, {3, 3, 4, 4, 5, 5, 6, 6}},
            {1, 2, {3, 3, 4, 4, 5, 5, 6, 6}},
            {36, 3, {3, 8, 9, 13, 14, 20, 21, 30}},
            {144, 9, {3, 33, 34, 54, 55, 81, 82, 122}},
            {1024, 255, {3, 509, 510, 815, 816, 1223, 1224, 1835}},
        };
        for (size_t i = 0; i < sizeof py / sizeof py[0]; i++)
            CHECK(bands_are(py[i].T, py[i].n, py[i].b));
        /* one state (x = 0) and fewer: the bands of an empty board */
        static const uint64_t empty[8] = {3, 3, 4, 4, 5, 5, 6, 6};
        CHECK(bands_are(1000, 1, empty) && bands_are(1000, 0, empty) && bands_are(9, -5, empty));
    }
    /* ---- bands against the slow version: every T up to 1500, n 2..12 and 255 */
    for (int n = 2; n <= 13; n++) {
        int states = n == 13 ? 255 : n;
        for (uint64_t T = 0; T <= (states == 255 ? 300 : 1500); T++) {
            uint64_t lo[4], hi[4], slo[4], shi[4];
            ml_tap_bands(T, states, lo, hi);
            slow_bands(T, states, slo, shi);
            if (memcmp(lo, slo, sizeof lo) || memcmp(hi, shi, sizeof hi)) {
                printf("bands(%llu, %d) differ from the slow version\n", (unsigned long long)T,
                       states);
                fails++;
            }
            /* they partition 3..top: each band non-empty, each starting after the last */
            for (int i = 0; i < 4; i++) {
                CHECK(lo[i] <= hi[i]);
                if (i)
                    CHECK(lo[i] == hi[i - 1] + 1);
            }
            /* difficulty_of: the last band whose low end m reaches */
            for (uint64_t m = 0; m <= hi[3] + 2; m += 1 + m / 50) {
                int want = 0;
                for (int i = 0; i < 4; i++)
                    if (m >= lo[i])
                        want = i;
                CHECK(ml_difficulty_of(m, T, states) == want);
            }
        }
    }
    /* ---- the square roots at 128-bit sizes: lo[1] = ceil(sqrt(x)), hi[3] = floor(18/5 sqrt(x)) */
    {
        uint64_t r = 12345;
        for (int rep = 0; rep < 20000; rep++) {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            uint64_t T = r >> (r % 64);
            int states = 2 + (int)((r >> 20) % 254);
            if (rep % 3 == 0)
                states = 2 + (int)((r >> 7) % 2147483645);
            u128 x = (u128)T * (unsigned)(states - 1);
            uint64_t lo[4], hi[4];
            ml_tap_bands(T, states, lo, hi);
            uint64_t c = lo[1];
            if (c > 4) {  /* not raised: ceil(sqrt(x)) exactly */
                CHECK((u128)c * c >= x && (u128)(c - 1) * (c - 1) < x);
            }
            uint64_t t = hi[3];
            if (t > lo[3]) {  /* not raised: the largest t with 25 t^2 <= 324 x */
                CHECK((u128)25 * t * t <= (u128)324 * x);
                CHECK((u128)25 * (t + 1) * (t + 1) > (u128)324 * x);
            }
            CHECK(lo[0] == 3 && lo[1] < lo[2] && lo[2] < lo[3] && lo[3] <= hi[3]);
        }
        uint64_t lo[4];
        ml_tap_bands(10, 2, lo, NULL);  /* either output may be NULL */
        CHECK(lo[1] == 4);
        ml_tap_bands(10, 2, NULL, NULL);
    }

    /* ---- stars: {3: m, 2: m + max(2, ceil(m / 4)), 1: m + max(5, m)} */
    {
        uint64_t s[3];
        ml_stars_limits(5, s);
        CHECK(s[0] == 5 && s[1] == 7 && s[2] == 10);
        ml_stars_limits(0, s);
        CHECK(s[0] == 0 && s[1] == 2 && s[2] == 5);
        ml_stars_limits(9, s);
        CHECK(s[0] == 9 && s[1] == 12 && s[2] == 18);
        for (uint64_t m = 0; m < 1500; m++) {
            ml_stars_limits(m, s);
            uint64_t q = (m + 3) / 4;
            CHECK(s[0] == m && s[1] == m + (q > 2 ? q : 2) && s[2] == m + (m > 5 ? m : 5));
            for (uint64_t taps = 0; taps <= s[2] + 3; taps++) {
                int want = taps <= m ? 3 : taps <= s[1] ? 2 : taps <= s[2] ? 1 : 0;
                CHECK(ml_stars_for_taps(s, taps) == want);
            }
        }
        ml_stars_limits(UINT64_MAX - 3, s);  /* saturated, not wrapped */
        CHECK(s[0] == UINT64_MAX - 3 && s[1] == UINT64_MAX && s[2] == UINT64_MAX);
        ml_stars_limits(UINT64_MAX / 2 + 1, s);
        CHECK(s[2] == UINT64_MAX && s[1] == UINT64_MAX / 2 + 1 + (UINT64_MAX / 2 + 1) / 4);
        CHECK(ml_stars_for_taps(s, UINT64_MAX) == 1);
        ml_stars_limits(3, NULL);
        CHECK(ml_stars_for_taps(NULL, 0) == 0);
    }
    ml_ctx_free(ctx);
    printf("fails=%d\n", fails);
    return fails != 0;
}
