/* t-errors: csrc/api/errors.c, the status names and the message table of modlights.h.
 * Every status has a distinct name and a description; every message id has a distinct
 * name that says what it is (ML_M_ an error raised with a status other than ML_OK, ML_R_
 * a plan's reason with ML_OK), and a template that is a printf format of the supported
 * conversions only (d u lld llu s x with flags 02, f with .0 .1 .2, g with .4, %%), each
 * formatted here with an argument of its type. Exit status 0 when every check holds.
 * ml-test-sources: api/errors.c */
#include "include/modlights.h"

#include <stdio.h>
#include <string.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

/* The conversions of a template, formatted one by one with a value of their type; 0 when
 * the template holds something else (an unknown conversion, a stray %). */
static int check_template(const char *t, int *nconv)
{
    static const char *const ok[] = {"%d", "%u", "%lld", "%llu", "%s", "%02x", "%.0f", "%.1f",
                                     "%.2f", "%.4g", "%%"};
    char out[256];
    *nconv = 0;
    for (const char *p = t; (p = strchr(p, '%')) != NULL;) {
        size_t k = 0, len = 0;
        for (k = 0; k < sizeof ok / sizeof *ok; k++) {
            len = strlen(ok[k]);
            if (strncmp(p, ok[k], len) == 0)
                break;
        }
        if (k == sizeof ok / sizeof *ok) {
            printf("bad conversion at \"%.12s\" in \"%s\"\n", p, t);
            return 0;
        }
        char last = ok[k][len - 1];
        if (last == '%')
            snprintf(out, sizeof out, "%%");
        else if (last == 's')
            snprintf(out, sizeof out, ok[k], "text");
        else if (last == 'f' || last == 'g')
            snprintf(out, sizeof out, ok[k], 1.5);
        else if (strcmp(ok[k], "%lld") == 0)
            snprintf(out, sizeof out, ok[k], -3LL);
        else if (strcmp(ok[k], "%llu") == 0)
            snprintf(out, sizeof out, ok[k], 3ULL);
        else if (last == 'd')
            snprintf(out, sizeof out, ok[k], -3);
        else
            snprintf(out, sizeof out, ok[k], 3u);
        if (last != '%')
            (*nconv)++;
        p += len;
    }
    return 1;
}

int main(void)
{
    /* statuses */
    for (int s = 0; s < ML_STATUS_COUNT; s++) {
        CHECK(strcmp(ml_status_name(s), "UNKNOWN") != 0);
        CHECK(ml_strerror(s)[0] != 0);
        for (int u = 0; u < s; u++)
            CHECK(strcmp(ml_status_name(s), ml_status_name(u)) != 0);
    }
    CHECK(strcmp(ml_status_name(ML_OK), "OK") == 0);
    CHECK(strcmp(ml_status_name(ML_EUNSOLVABLE), "UNSOLVABLE") == 0);
    CHECK(strcmp(ml_status_name(-1), "UNKNOWN") == 0);
    CHECK(strcmp(ml_status_name(ML_STATUS_COUNT), "UNKNOWN") == 0);

    /* messages */
    int errors = 0, reasons = 0;
    for (int id = 0; id < ML_MSG_COUNT; id++) {
        const char *name = ml_msg_name(id), *t = ml_msg_template(id);
        int st = ml_msg_status(id), nconv = 0;
        CHECK(st >= 0 && st < ML_STATUS_COUNT);
        if (id == ML_M_NONE) {
            CHECK(strcmp(name, "ML_M_NONE") == 0 && st == ML_OK && t[0] == 0);
            continue;
        }
        if (strncmp(name, "ML_M_", 5) == 0) {
            errors++;
            if (st == ML_OK)
                printf("error message %s has status ML_OK\n", name);
            CHECK(st != ML_OK);
        } else {
            reasons++;
            if (strncmp(name, "ML_R_", 5) != 0 || st != ML_OK)
                printf("%s: a reason must be named ML_R_ and have status ML_OK\n", name);
            CHECK(strncmp(name, "ML_R_", 5) == 0 && st == ML_OK);
        }
        CHECK(t[0] != 0);
        CHECK(strchr(t, '\n') == NULL);          /* one line */
        CHECK(check_template(t, &nconv));
        for (int u = 0; u < id; u++)
            if (strcmp(name, ml_msg_name(u)) == 0) {
                printf("duplicate message name %s\n", name);
                fails++;
            }
    }
    CHECK(errors > 100 && reasons > 40);
    CHECK(ml_msg_status(ML_M_UNSOLVABLE) == ML_EUNSOLVABLE);
    CHECK(ml_msg_status(ML_M_CODE_CHECKSUM) == ML_ECODE);
    CHECK(ml_msg_status(ML_M_NOT_IMPLEMENTED) == ML_ENOTIMPL);
    CHECK(strcmp(ml_msg_name(ML_M_UNSOLVABLE), "ML_M_UNSOLVABLE") == 0);
    CHECK(ml_msg_status(-1) == -1 && ml_msg_status(ML_MSG_COUNT) == -1);
    CHECK(ml_msg_template(ML_MSG_COUNT)[0] == 0 && ml_msg_name(-5)[0] == 0);
    /* a template formats to Python's text */
    char buf[512];
    snprintf(buf, sizeof buf, ml_msg_template(ML_M_INT_RANGE), "states", 2LL, 255LL, 256LL);
    CHECK(strcmp(buf, "states must be from 2 to 255, got 256") == 0);
    snprintf(buf, sizeof buf, ml_msg_template(ML_M_OFF_BOARD), "tap position", 3LL, 1LL, 2LL,
             2LL);
    CHECK(strcmp(buf, "tap position (3, 1) is off the board: rows 0..2, cols 0..2") == 0);
    printf("messages: %d errors, %d reasons; fails=%d\n", errors, reasons, fails);
    return fails != 0;
}
