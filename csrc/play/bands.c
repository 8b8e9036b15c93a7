/* bands.c: difficulty names, the tap bands of each difficulty and the stars, as
 * play/puzzles.py defines them (its module docstring), in integers only so that every
 * binding computes the same numbers.
 *
 * With T tappable tiles and n states, x = T (n - 1) and u = sqrt(x); the bands' lower
 * bounds are FLOOR (3), ceil(u), ceil(8 u / 5), ceil(12 u / 5), each raised to one more
 * than the previous one where they would meet; expert's top is floor(18 u / 5) (at least
 * its lower bound). Stars: {3: m, 2: m + max(2, ceil(m / 4)), 1: m + max(5, m)}. */
#include "api/ctx.h"
#include "play/play.h"

#include <string.h>

typedef unsigned __int128 u128;

#define TAP_FLOOR 3

static const char *const names[ML_DIFFICULTY_COUNT] = {"easy", "medium", "hard", "expert"};

const char *ml_difficulty_name(int difficulty)
{
    return difficulty >= 0 && difficulty < ML_DIFFICULTY_COUNT ? names[difficulty] : NULL;
}

int ml_difficulty_lookup(ml_ctx *ctx, const char *name, int *difficulty)
{
    ctx = ml__begin(ctx);
    if (!name)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_difficulty_lookup", "name");
    if (!difficulty)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_difficulty_lookup", "difficulty");
    for (int d = 0; d < ML_DIFFICULTY_COUNT; d++)
        if (strcmp(name, names[d]) == 0) {
            *difficulty = d;
            return ML_OK;
        }
    char r[ML_ERRMSG_MAX];
    ml__py_repr(name, strlen(name), r, sizeof r);
    return ml__fail(ctx, ML_M_DIFFICULTY, r);
}

/* floor(sqrt(v)), exactly (digit by digit: no floating point; v < 2^106 here). */
static uint64_t isqrt(u128 v)
{
    u128 res = 0, bit = (u128)1 << 126;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= res + bit) {
            v -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return (uint64_t)res;
}

/* The least k >= 0 with k * k >= v. */
static uint64_t ceil_sqrt(u128 v)
{
    uint64_t k = isqrt(v);
    return (u128)k * k == v ? k : k + 1;
}

void ml_tap_bands(uint64_t n_taps, int states, uint64_t lo[4], uint64_t hi[4])
{
    static const unsigned units[4][2] = {{1, 1}, {8, 5}, {12, 5}, {18, 5}};
    /* x < 2^64 * 2^31; p^2 x < 2^104 */
    u128 x = states > 1 ? (u128)n_taps * (unsigned)(states - 1) : 0;
    uint64_t los[4] = {TAP_FLOOR, 0, 0, 0};
    for (int i = 0; i < 3; i++) {
        unsigned p = units[i][0], q = units[i][1];
        u128 num = (u128)(p * p) * x, den = q * q;
        uint64_t c = ceil_sqrt((num + den - 1) / den);
        los[i + 1] = c > los[i] + 1 ? c : los[i] + 1;
    }
    unsigned p = units[3][0], q = units[3][1];
    uint64_t top = isqrt((u128)(p * p) * x / (q * q));
    if (top < los[3])
        top = los[3];
    for (int i = 0; i < 4; i++) {
        if (lo)
            lo[i] = los[i];
        if (hi)
            hi[i] = i < 3 ? los[i + 1] - 1 : top;
    }
}

int ml_difficulty_of(uint64_t min_taps, uint64_t n_taps, int states)
{
    uint64_t lo[4];
    ml_tap_bands(n_taps, states, lo, NULL);
    int out = ML_EASY;
    for (int d = 0; d < ML_DIFFICULTY_COUNT; d++)
        if (min_taps >= lo[d])
            out = d;
    return out;
}

/* a + b, or UINT64_MAX past it. */
static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

void ml_stars_limits(uint64_t min_taps, uint64_t limits[3])
{
    if (!limits)
        return;
    uint64_t m = min_taps, quarter = m / 4 + (m % 4 != 0);
    limits[0] = m;
    limits[1] = add_sat(m, quarter > 2 ? quarter : 2);
    limits[2] = add_sat(m, m > 5 ? m : 5);
}

int ml_stars_for_taps(const uint64_t limits[3], uint64_t taps)
{
    if (!limits)
        return 0;
    for (int s = 3; s >= 1; s--)
        if (taps <= limits[3 - s])
            return s;
    return 0;
}
