/* daily.c: ml_daily (modlights.h), Python's ml.daily(date) (play/puzzles.py): the day's
 * three puzzles of scheme v2, drawn by ml_generate with seeds from SplitMix64 seeded
 * with "modlights-daily-v2:YYYY-MM-DD" (its first 8 SHA-256 bytes, as seed_from), in
 * order: easy (5x5, 2 states, cross, 2 locked), medium (5x5, 3 states, cross, 3 locked),
 * hard (6x6, 3 states, cross, 2 locked, 2 holes). A date datetime.date(year, month, day)
 * refuses is refused with datetime's reason ("bad date '2026-02-30': day is out of range
 * for month"; the text is the ISO form of the numbers given). */
#include "api/ctx.h"
#include "play/play.h"

#include <stdio.h>
#include <string.h>

#define DAILY_SCHEME "modlights-daily-v2"

static const struct {
    int difficulty, rows, cols, states, locked, holes;
} daily_v2[3] = {
    {ML_EASY, 5, 5, 2, 2, 0},
    {ML_MEDIUM, 5, 5, 3, 3, 0},
    {ML_HARD, 6, 6, 3, 2, 2},
};

static int leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int ml_daily(ml_ctx *ctx, int year, int month, int day, ml_puzzle *out[3])
{
    ctx = ml__begin(ctx);
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_daily", "out");
    out[0] = out[1] = out[2] = NULL;
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    char iso[64], reason[64] = "";
    snprintf(iso, sizeof iso, "%04d-%02d-%02d", year, month, day);
    if (year < 1 || year > 9999)
        snprintf(reason, sizeof reason, "year %d is out of range", year);
    else if (month < 1 || month > 12)
        snprintf(reason, sizeof reason, "month must be in 1..12");
    else if (day < 1 || day > (month == 2 && leap(year) ? 29 : days[month - 1]))
        snprintf(reason, sizeof reason, "day is out of range for month");
    if (reason[0]) {
        char r[80];
        ml__py_repr(iso, strlen(iso), r, sizeof r);
        return ml__fail(ctx, ML_M_DATE_BAD, r, reason);
    }
    char text[64];
    int n = snprintf(text, sizeof text, "%s:%s", DAILY_SCHEME, iso);
    ml_prng g;
    ml_prng_seed(&g, ml_seed_from_bytes(text, (size_t)n));
    for (int k = 0; k < 3; k++) {
        ml_generate_opts o;
        ml_generate_opts_init(&o);
        o.difficulty = daily_v2[k].difficulty;
        o.rows = daily_v2[k].rows;
        o.cols = daily_v2[k].cols;
        o.states = daily_v2[k].states;
        o.locked = daily_v2[k].locked;
        o.holes = daily_v2[k].holes;
        o.seed = ml_prng_next(&g);
        o.seeded = 1;
        int rc = ml_generate(ctx, &o, &out[k]);
        if (rc) {
            for (int i = 0; i < 3; i++) {
                ml_puzzle_free(out[i]);
                out[i] = NULL;
            }
            return rc;
        }
    }
    return ML_OK;
}
