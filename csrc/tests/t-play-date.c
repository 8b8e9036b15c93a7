/* t-play-date: csrc/play/date.c (ml_date_parse) and csrc/play/pytext.c (Python's str
 * rules). Dates: the golden cases of js/test/golden/errors.json and Python's messages for
 * more (written down from Python 3.11's daily()), every day of years 1, 1900, 2000,
 * 2023, 2024, 2100, 9999 against a calendar built by counting days forward, every
 * month and day number 00..99 of a leap and a common year. Python's repr(): its quoting
 * and escapes, the snprintf convention, the reading of invalid UTF-8 ("surrogateescape"),
 * modified UTF-8's NUL and encoded surrogates; strip(): Python's whitespace.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: play/date.c play/pytext.c api/ctx.c api/errors.c base/interrupt.c */
#include "include/modlights.h"
#include "play/play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

/* ml_date_parse(text) fails with this message (NULL: succeeds with y, m, d). */
static void date_is(ml_ctx *ctx, const char *text, const char *msg, int y, int m, int d)
{
    int yy = -1, mm = -1, dd = -1;
    int rc = ml_date_parse(ctx, text, &yy, &mm, &dd);
    if (msg == NULL) {
        if (rc != ML_OK || yy != y || mm != m || dd != d) {
            printf("FAIL date %s: rc %d (%s), %d-%d-%d\n", text, rc, ml_errmsg(ctx), yy, mm, dd);
            fails++;
        }
        return;
    }
    int want = strncmp(msg, "bad date", 8) == 0 ? ML_ERANGE : ML_EINVAL;
    if (rc != want || strcmp(ml_errmsg(ctx), msg) != 0 || yy != -1 || mm != -1 || dd != -1) {
        printf("FAIL date %s: rc %d, \"%s\"\n  want \"%s\"\n", text, rc, ml_errmsg(ctx), msg);
        fails++;
    }
    CHECK(ml_errmsg_id(ctx) == (want == ML_ERANGE ? ML_M_DATE_BAD : ML_M_DATE_FORMAT));
}

static int repr_is(const char *s, size_t n, const char *want)
{
    char buf[256];
    size_t len = ml__py_repr(s, n, buf, sizeof buf);
    if (strcmp(buf, want) != 0 || len != strlen(want)) {
        printf("FAIL repr: %s, want %s\n", buf, want);
        return 0;
    }
    return 1;
}

static int is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    const char *F = "date must be an ISO date 'YYYY-MM-DD', got ";

    /* ---- Python's answers (errors.json's daily cases first) */
    char w[512];
#define FMT(s) (snprintf(w, sizeof w, "%s%s", F, s), w)
    date_is(ctx, "2026/11/22", FMT("'2026/11/22'"), 0, 0, 0);
    date_is(ctx, "2026-13-01", "bad date '2026-13-01': month must be in 1..12", 0, 0, 0);
    date_is(ctx, "2026-02-30", "bad date '2026-02-30': day is out of range for month", 0, 0, 0);
    date_is(ctx, "yesterday", FMT("'yesterday'"), 0, 0, 0);
    date_is(ctx, "0000-01-01", "bad date '0000-01-01': year 0 is out of range", 0, 0, 0);
    date_is(ctx, "0000-13-45", "bad date '0000-13-45': year 0 is out of range", 0, 0, 0);
    date_is(ctx, "2026-00-10", "bad date '2026-00-10': month must be in 1..12", 0, 0, 0);
    date_is(ctx, "2026-02-00", "bad date '2026-02-00': day is out of range for month", 0, 0, 0);
    date_is(ctx, "2100-02-29", "bad date '2100-02-29': day is out of range for month", 0, 0, 0);
    date_is(ctx, "2024-02-29", NULL, 2024, 2, 29);
    date_is(ctx, "2026-11-22", NULL, 2026, 11, 22);
    date_is(ctx, "0001-01-01", NULL, 1, 1, 1);
    date_is(ctx, "9999-12-31", NULL, 9999, 12, 31);
    /* stripped of Python's whitespace (ASCII, U+00A0, U+3000, U+001C..U+001F) */
    date_is(ctx, " 2026-11-22\n", NULL, 2026, 11, 22);
    date_is(ctx, "\xc2\xa0" "2026-11-22\xe3\x80\x80", NULL, 2026, 11, 22);
    date_is(ctx, "\x1c" "2026-11-22\x1f\t\v\f\r", NULL, 2026, 11, 22);
    date_is(ctx, "\xe2\x80\x8b" "2026-11-22", FMT("'\\u200b2026-11-22'"), 0, 0, 0);
    date_is(ctx, "2026-13-01 ", "bad date '2026-13-01 ': month must be in 1..12", 0, 0, 0);
    /* other decimal digits match \d, and datetime refuses them */
    date_is(ctx, "\xef\xbc\x92\xef\xbc\x90\xef\xbc\x92\xef\xbc\x96-\xef\xbc\x91\xef\xbc\x91-"
                 "\xef\xbc\x92\xef\xbc\x92",
            "bad date '\xef\xbc\x92\xef\xbc\x90\xef\xbc\x92\xef\xbc\x96-\xef\xbc\x91\xef\xbc\x91-"
            "\xef\xbc\x92\xef\xbc\x92': Invalid isoformat string: '\xef\xbc\x92\xef\xbc\x90"
            "\xef\xbc\x92\xef\xbc\x96-\xef\xbc\x91\xef\xbc\x91-\xef\xbc\x92\xef\xbc\x92'", 0, 0, 0);
    date_is(ctx, " 2026-11-2\xd9\xa2",
            "bad date ' 2026-11-2\xd9\xa2': Invalid isoformat string: '2026-11-2\xd9\xa2'", 0, 0, 0);
    date_is(ctx, "\xf0\x9d\x9f\x8e" "026-01-01",  /* U+1D7CE MATHEMATICAL BOLD DIGIT ZERO */
            "bad date '\xf0\x9d\x9f\x8e" "026-01-01': Invalid isoformat string: '\xf0\x9d\x9f\x8e"
            "026-01-01'", 0, 0, 0);
    date_is(ctx, "2026-11-22x", FMT("'2026-11-22x'"), 0, 0, 0);
    date_is(ctx, "it's", FMT("\"it's\""), 0, 0, 0);
    date_is(ctx, "a\"b'c", FMT("'a\"b\\'c'"), 0, 0, 0);
    date_is(ctx, "tab\there", FMT("'tab\\there'"), 0, 0, 0);
    date_is(ctx, "\xc0\x80", FMT("'\\x00'"), 0, 0, 0);
    date_is(ctx, "\x7f\xc2\x85\xe2\x80\x8b\xf0\x9f\x98\x80\xf3\xa0\x80\x81",
            FMT("'\\x7f\\x85\\u200b\xf0\x9f\x98\x80\\U000e0001'"), 0, 0, 0);
    date_is(ctx, "\xff", FMT("'\\udcff'"), 0, 0, 0);
    date_is(ctx, "\xed\xa0\x80", FMT("'\\ud800'"), 0, 0, 0);
    date_is(ctx, "", FMT("''"), 0, 0, 0);
    date_is(ctx, "   ", FMT("'   '"), 0, 0, 0);
    date_is(ctx, "2026-1-22", FMT("'2026-1-22'"), 0, 0, 0);
    date_is(ctx, "20261122", FMT("'20261122'"), 0, 0, 0);
    date_is(ctx, "2026-11-22T00:00", FMT("'2026-11-22T00:00'"), 0, 0, 0);
    date_is(ctx, "\xe2\x80\xa8", FMT("'\\u2028'"), 0, 0, 0);
    date_is(ctx, "2026-11-22\xe2\x80", FMT("'2026-11-22\\udce2\\udc80'"), 0, 0, 0);
    /* a long text: the message is cut at the context's limit, ending in "..." */
    {
        char *big = malloc(10001);
        memset(big, 'x', 10000);
        big[10000] = 0;
        int y, m, d;
        CHECK(ml_date_parse(ctx, big, &y, &m, &d) == ML_EINVAL);
        CHECK(strncmp(ml_errmsg(ctx), F, strlen(F)) == 0);
        size_t len = strlen(ml_errmsg(ctx));
        CHECK(len > 4000 && len < 4096 && strcmp(ml_errmsg(ctx) + len - 3, "...") == 0);
        free(big);
    }
    /* NULL arguments */
    {
        int y;
        CHECK(ml_date_parse(ctx, NULL, &y, &y, &y) == ML_EMISUSE);
        CHECK(strcmp(ml_errmsg(ctx), "ml_date_parse: text must not be NULL") == 0);
        CHECK(ml_date_parse(ctx, "2026-11-22", &y, NULL, &y) == ML_EMISUSE);
        CHECK(strcmp(ml_errmsg(ctx), "ml_date_parse: month must not be NULL") == 0);
        CHECK(ml_date_parse(NULL, "2026-11-22", &y, &y, &y) == ML_OK && ml_errcode(NULL) == ML_OK);
    }

    /* ---- the calendar: a day is valid iff counting days from Jan 1 reaches it */
    {
        static const int years[] = {1, 4, 100, 400, 1900, 2000, 2023, 2024, 2100, 9999};
        for (size_t i = 0; i < sizeof years / sizeof years[0]; i++) {
            int y = years[i];
            int valid[13][100] = {{0}};
            int m = 1, d = 1;
            for (int k = 0; k < (is_leap(y) ? 366 : 365); k++) {  /* walk the year */
                valid[m][d] = 1;
                int len = m == 2 ? (is_leap(y) ? 29 : 28)
                          : (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
                if (++d > len) {
                    d = 1;
                    m++;
                }
            }
            for (int mm = 0; mm < 100; mm++)
                for (int dd = 0; dd < 100; dd++) {
                    char t[40], want[96];
                    snprintf(t, sizeof t, "%04d-%02d-%02d", y, mm, dd);
                    if (mm >= 1 && mm <= 12 && valid[mm][dd]) {
                        date_is(ctx, t, NULL, y, mm, dd);
                        continue;
                    }
                    snprintf(want, sizeof want, "bad date '%s': %s", t,
                             mm < 1 || mm > 12 ? "month must be in 1..12"
                                               : "day is out of range for month");
                    date_is(ctx, t, want, 0, 0, 0);
                }
        }
    }

    /* ---- repr: quoting and escapes */
    CHECK(repr_is("", 0, "''"));
    CHECK(repr_is("abc", 3, "'abc'"));
    CHECK(repr_is("it's", 4, "\"it's\""));
    CHECK(repr_is("say \"hi\"", 8, "'say \"hi\"'"));
    CHECK(repr_is("'\"", 2, "'\\'\"'"));
    CHECK(repr_is("a\\b", 3, "'a\\\\b'"));
    CHECK(repr_is("\t\n\r\x01\x1f\x7f", 6, "'\\t\\n\\r\\x01\\x1f\\x7f'"));
    CHECK(repr_is("x\0y", 3, "'x\\x00y'"));  /* a NUL inside the length */
    CHECK(repr_is("\xc3\xa9\xe6\x97\xa5", 5, "'\xc3\xa9\xe6\x97\xa5'"));         /* printable */
    CHECK(repr_is("\xc2\xa0\xc2\xad\xcd\xb8", 6, "'\\xa0\\xad\\u0378'"));          /* Zs, Cf, Cn */
    CHECK(repr_is("\xef\xbf\xbf\xf4\x8f\xbf\xbf", 7, "'\\uffff\\U0010ffff'"));
    CHECK(repr_is("\xf0\x9f\x98\x80", 4, "'\xf0\x9f\x98\x80'"));
    /* invalid UTF-8, one byte at a time; overlong forms and past U+10FFFF too */
    CHECK(repr_is("\x80\xc3", 2, "'\\udc80\\udcc3'"));
    CHECK(repr_is("\xe0\x80\x80", 3, "'\\udce0\\udc80\\udc80'"));
    CHECK(repr_is("\xf4\x90\x80\x80", 4, "'\\udcf4\\udc90\\udc80\\udc80'"));
    CHECK(repr_is("\xc1\xbf", 2, "'\\udcc1\\udcbf'"));
    CHECK(repr_is("\xed\xbf\xbf", 3, "'\\udfff'"));  /* an encoded surrogate */
    /* snprintf's convention */
    {
        char small[5];
        CHECK(ml__py_repr("abcdef", 6, small, sizeof small) == 8 && strcmp(small, "'abc") == 0);
        CHECK(ml__py_repr("\xc3\xa9\xc3\xa9", 4, small, sizeof small) == 6);
        CHECK(ml__py_repr("abc", 3, NULL, 0) == 5);
        char one[1] = {'z'};
        CHECK(ml__py_repr("abc", 3, one, 1) == 5 && one[0] == 0);
    }
    /* ---- strip, isspace, decimal */
    {
        size_t a, b;
        const char *s = "\xe3\x80\x80 x y\xc2\x85";
        ml__py_strip(s, strlen(s), &a, &b);
        CHECK(a == 4 && b == 7);
        ml__py_strip(" \t ", 3, &a, &b);
        CHECK(a == b);
        CHECK(ml__py_isspace(0x1c) && ml__py_isspace(0x85) && ml__py_isspace(0x202f));
        CHECK(!ml__py_isspace(0x200b) && !ml__py_isspace(0) && !ml__py_isspace('x'));
        CHECK(ml__py_decimal('7') == 7 && ml__py_decimal(0x0669) == 9 && ml__py_decimal(0xff10) == 0);
        CHECK(ml__py_decimal(0x1fbf9) == 9 && ml__py_decimal(0x1fbfa) == -1);
        CHECK(ml__py_decimal(0xb2) == -1 && ml__py_decimal('a') == -1);  /* superscript 2: No */
        CHECK(ml__py_isprintable(' ') && !ml__py_isprintable(0x7f) && ml__py_isprintable(0xa1));
        CHECK(!ml__py_isprintable(0xd800) && !ml__py_isprintable(0x10ffff));
    }
    ml_ctx_free(ctx);
    printf("fails=%d\n", fails);
    return fails != 0;
}
