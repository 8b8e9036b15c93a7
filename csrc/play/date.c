/* date.c: ml_date_parse, the dates of ml_daily as Python's daily() reads a str: the text
 * stripped of Python's whitespace must match \d{4}-\d{2}-\d{2} (re's \d: any decimal
 * digit), else ML_M_DATE_FORMAT; then datetime.date.fromisoformat decides: ASCII digits
 * only ("Invalid isoformat string: '...'" otherwise), year 1..9999, month 1..12, a day
 * of that month (ML_M_DATE_BAD with datetime's reason). Messages show the text as
 * Python's repr() does. */
#include "api/ctx.h"
#include "play/play.h"

#include <stdlib.h>
#include <string.h>

/* Longest repr() kept in a message (a message is cut at ML_ERRMSG_MAX anyway). */
#define REPR_MAX ML_ERRMSG_MAX

static int leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int days_in(int y, int m)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* Whether s[a..b) is \d{4}-\d{2}-\d{2} (exactly ten code points); *ascii: every digit
 * one of 0-9; v[]: the digits' values. */
static int iso_shape(const char *s, size_t a, size_t b, int *ascii, int v[8])
{
    static const char shape[] = "dddd-dd-dd";
    size_t i = a;
    int k = 0;
    *ascii = 1;
    for (int pos = 0; pos < 10; pos++) {
        if (i >= b)
            return 0;
        uint32_t cp = ml__utf8_next(s, b, &i);
        if (shape[pos] == '-') {
            if (cp != '-')
                return 0;
            continue;
        }
        int d = ml__py_decimal(cp);
        if (d < 0)
            return 0;
        *ascii &= cp < 0x80;
        v[k++] = d;
    }
    return i == b;
}

/* repr() of s[a..b) into a buffer (cut past REPR_MAX bytes: the message is cut there). */
static char *repr_of(const char *s, size_t a, size_t b)
{
    char *r = malloc(REPR_MAX);
    if (r)
        ml__py_repr(s + a, b - a, r, REPR_MAX);
    return r;
}

int ml_date_parse(ml_ctx *ctx, const char *text, int *year, int *month, int *day)
{
    ctx = ml__begin(ctx);
    if (!text)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_date_parse", "text");
    if (!year || !month || !day)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_date_parse",
                        !year ? "year" : !month ? "month" : "day");
    size_t n = strlen(text), a, b;
    ml__py_strip(text, n, &a, &b);
    int ascii, v[8];
    if (!iso_shape(text, a, b, &ascii, v)) {
        char *r = repr_of(text, 0, n);
        if (!r)
            return ml__fail(ctx, ML_M_NOMEM, "ml_date_parse");
        int rc = ml__fail(ctx, ML_M_DATE_FORMAT, r);
        free(r);
        return rc;
    }
    int y = v[0] * 1000 + v[1] * 100 + v[2] * 10 + v[3];
    int m = v[4] * 10 + v[5], d = v[6] * 10 + v[7];
    /* datetime's reasons, in its order: the text, the year, the month, the day */
    char reason[32];
    char *stripped = NULL;
    if (!ascii) {
        stripped = repr_of(text, a, b);
        if (!stripped)
            return ml__fail(ctx, ML_M_NOMEM, "ml_date_parse");
    } else if (y < 1) {
        strcpy(reason, "year 0 is out of range");
    } else if (m < 1 || m > 12) {
        strcpy(reason, "month must be in 1..12");
    } else if (d < 1 || d > days_in(y, m)) {
        strcpy(reason, "day is out of range for month");
    } else {
        *year = y;
        *month = m;
        *day = d;
        return ML_OK;
    }
    char *r = repr_of(text, 0, n);
    char *why = NULL;
    if (r && stripped) {
        size_t k = strlen(stripped) + 32;
        why = malloc(k);
        if (why) {
            memcpy(why, "Invalid isoformat string: ", 26);
            memcpy(why + 26, stripped, strlen(stripped) + 1);
        }
    }
    int rc = !r || (stripped && !why) ? ml__fail(ctx, ML_M_NOMEM, "ml_date_parse")
                                      : ml__fail(ctx, ML_M_DATE_BAD, r, why ? why : reason);
    free(r);
    free(stripped);
    free(why);
    return rc;
}
