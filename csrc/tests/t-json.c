/* t-json: csrc/api/json.c and its pieces (json_repr.c, json_write.c), the JSON reader
 * and writer of the C API. The reader's tokens on documents of every kind of value;
 * syntax errors with Python's json.loads reasons and offsets (the table below was
 * printed by Python 3.11's json module); Python's repr of values and floats and
 * json.dumps' text (printed by Python too); and, on random input: random documents
 * written, read back and written again give the same text and the same values; every
 * strict prefix of a container document is refused; random bytes and mutated documents
 * are read or refused cleanly (ASan and UBSan in .ci/sanitize), and what is read writes
 * back to a text that reads the same.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: api/json.c api/json_repr.c api/json_write.c api/json_fields.c api/ctx.c api/errors.c base/interrupt.c api/version.c */
#include "include/modlights.h"
#include "api/json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static unsigned below(unsigned n) { return (unsigned)(next_u64() % n); }

static int parse(ml_json *j, const char *text, int depth)
{
    return ml__json_parse(NULL, j, text, strlen(text), "doc", depth);
}

/* ------------------------------------------------------------------ tokens */
static void test_tokens(void)
{
    ml_json j;
    const char *doc = " {\"a\": [1, -2.5e1, \"x\\n\", true, null, false], \"b\": {}, \"c\": []} ";
    CHECK(parse(&j, doc, 0) == ML_OK);
    CHECK(j.ntok == 13);
    CHECK(j.tok[0].kind == ML_JSON_DICT && j.tok[0].count == 3 && j.tok[0].end == 13);
    CHECK(j.tok[0].start == 1 && j.tok[0].len == strlen(doc) - 2);
    CHECK(ml__json_str_eq(&j, 1, "a") && j.tok[2].kind == ML_JSON_LIST && j.tok[2].count == 6);
    CHECK(j.tok[2].end == 9);
    CHECK(j.tok[3].kind == ML_JSON_INT && j.tok[3].v.i == 1);
    CHECK(j.tok[4].kind == ML_JSON_FLOAT && j.tok[4].v.f == -25.0);
    CHECK(j.tok[5].kind == ML_JSON_STR && j.tok[5].esc && j.tok[5].count == 2);
    CHECK(ml__json_str_eq(&j, 5, "x\n") && !ml__json_str_eq(&j, 5, "x") &&
          !ml__json_str_eq(&j, 5, "x\\n"));
    CHECK(j.tok[6].kind == ML_JSON_BOOL && j.tok[6].v.i == 1);
    CHECK(j.tok[7].kind == ML_JSON_NULL && j.tok[8].kind == ML_JSON_BOOL && j.tok[8].v.i == 0);
    CHECK(ml__json_get(&j, 0, "b") == 10 && j.tok[10].kind == ML_JSON_DICT && j.tok[10].count == 0);
    CHECK(ml__json_get(&j, 0, "c") == 12 && ml__json_get(&j, 0, "d") == (size_t)-1);
    CHECK(ml__json_get(&j, 2, "a") == (size_t)-1);  /* not a dict */
    CHECK(ml__json_item(&j, 2, 0) == 3 && ml__json_item(&j, 2, 5) == 8);
    CHECK(ml__json_item(&j, 2, 6) == (size_t)-1 && ml__json_item(&j, 0, 2) == 11);
    CHECK(ml__json_item(&j, 0, 1) == 9 && ml__json_str_eq(&j, 11, "c"));
    CHECK(ml__json_next(&j, 2) == 9 && ml__json_next(&j, 3) == 4);
    const char *names[] = {"dict", "str", "list", "int", "float", "str", "bool", "NoneType", "bool"};
    for (size_t i = 0; i < 9; i++)
        CHECK(strcmp(ml__json_type_name(&j, i), names[i]) == 0);
    char buf[16];
    CHECK(ml__json_str(&j, 5, buf, sizeof buf) == 2 && strcmp(buf, "x\n") == 0);
    CHECK(ml__json_str(&j, 3, buf, sizeof buf) == 0 && buf[0] == 0);  /* not a string */
    ml__json_free(&j);

    /* a key twice: the last value (Python's dict) */
    CHECK(parse(&j, "{\"k\":1,\"j\":2,\"k\":3}", 0) == ML_OK);
    size_t v = ml__json_get(&j, 0, "k");
    CHECK(v != (size_t)-1 && j.tok[v].v.i == 3 && j.tok[0].count == 3);
    ml__json_free(&j);

    /* ints: the int64 range, beyond it the text; -0 is 0 */
    CHECK(parse(&j, "[9223372036854775807,-9223372036854775808,9223372036854775808,"
                    "-9223372036854775809,-0,123456789012345678901234567890]", 0) == ML_OK);
    CHECK(j.tok[1].v.i == INT64_MAX && !j.tok[1].big && j.tok[2].v.i == INT64_MIN && !j.tok[2].big);
    CHECK(j.tok[3].big && j.tok[4].big && !j.tok[5].big && j.tok[5].v.i == 0 && j.tok[6].big);
    for (size_t i = 1; i <= 6; i++)
        CHECK(j.tok[i].kind == ML_JSON_INT && strcmp(ml__json_type_name(&j, i), "int") == 0);
    ml__json_free(&j);

    /* what json.loads accepts beyond RFC 8259: NaN, Infinity, -Infinity; a byte order
     * mark (bytes input); lone surrogates (kept as 3 bytes) */
    CHECK(parse(&j, "\xEF\xBB\xBF [NaN, Infinity, -Infinity, 1E400, \"\\ud800\\u0041\"]", 0) == ML_OK);
    CHECK(isnan(j.tok[1].v.f) && j.tok[2].v.f == INFINITY && j.tok[3].v.f == -INFINITY);
    CHECK(j.tok[4].v.f == INFINITY && j.tok[5].count == 4);
    CHECK(ml__json_str_eq(&j, 5, "\xED\xA0\x80" "A"));
    ml__json_free(&j);

    /* escapes: every short one, \u of 1, 2 and 3 UTF-8 bytes, a surrogate pair */
    CHECK(parse(&j, "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20AC\\ud83d\\ude00\"", 0) == ML_OK);
    CHECK(ml__json_str_eq(&j, 0, "\"\\/\b\f\n\r\tA\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));
    CHECK(j.tok[0].count == 8 + 1 + 2 + 3 + 4);
    ml__json_free(&j);
    /* raw UTF-8 is kept; bad UTF-8 is refused */
    CHECK(parse(&j, "\"\xC3\xA9\xF0\x9F\x98\x80\"", 0) == ML_OK && j.tok[0].count == 6 && !j.tok[0].esc);
    ml__json_free(&j);
    const char *bad_utf8[] = {"\"\xC3\"", "\"\xC0\xAF\"", "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"",
                              "\"\xFF\"", "\"\x80\""};
    for (size_t k = 0; k < sizeof bad_utf8 / sizeof *bad_utf8; k++) {
        CHECK(parse(&j, bad_utf8[k], 0) == ML_EINVAL);
        CHECK(strcmp(ml_errmsg(NULL), "doc is not valid JSON: invalid UTF-8 at byte 1") == 0);
    }
}

/* ------------------------------------------------------------------ syntax errors */
/* text, Python's reason and position (json.JSONDecodeError .msg, .pos; Python 3.11) */
static const struct {
    const char *text, *reason;
    unsigned pos;
} SYNTAX[] = {
    {"", "Expecting value", 0},
    {" ", "Expecting value", 1},
    {"[1,]", "Expecting value", 3},
    {"{\"a\":1,}", "Expecting property name enclosed in double quotes", 7},
    {"[1 2]", "Expecting ',' delimiter", 3},
    {"{\"a\" 1}", "Expecting ':' delimiter", 5},
    {"{1:2}", "Expecting property name enclosed in double quotes", 1},
    {"{\"a\":1 \"b\"}", "Expecting ',' delimiter", 7},
    {"\"abc", "Unterminated string starting at", 0},
    {"\"a\\x\"", "Invalid \\escape", 2},
    {"\"\\u12G4\"", "Invalid \\uXXXX escape", 2},
    {"\"a\x01\"", "Invalid control character at", 2},
    {"tru", "Expecting value", 0},
    {"nul", "Expecting value", 0},
    {"-", "Expecting value", 0},
    {"01", "Extra data", 1},
    {"1.", "Extra data", 1},
    {"1e", "Extra data", 1},
    {"[", "Expecting value", 1},
    {"{", "Expecting property name enclosed in double quotes", 1},
    {"{\"a\":", "Expecting value", 5},
    {"[1,2", "Expecting ',' delimiter", 4},
    {"1 2", "Extra data", 2},
    {"[-]", "Expecting value", 1},
    {".5", "Expecting value", 0},
    {"+1", "Expecting value", 0},
    {"-NaN", "Expecting value", 0},
    {"[1]]", "Extra data", 3},
};

static void test_syntax(void)
{
    char want[256];
    for (size_t k = 0; k < sizeof SYNTAX / sizeof *SYNTAX; k++) {
        ml_json j;
        int rc = parse(&j, SYNTAX[k].text, 0);
        snprintf(want, sizeof want, "doc is not valid JSON: %s at byte %u", SYNTAX[k].reason,
                 SYNTAX[k].pos);
        CHECK(rc == ML_EINVAL && j.tok == NULL && j.ntok == 0);
        CHECK(ml_errcode(NULL) == ML_EINVAL && ml_errmsg_id(NULL) == ML_M_JSON_SYNTAX);
        if (strcmp(ml_errmsg(NULL), want) != 0) {
            printf("FAIL %s: got \"%s\", want \"%s\"\n", SYNTAX[k].text, ml_errmsg(NULL), want);
            fails++;
        }
    }
    /* a NUL byte inside the text is a control character, not an end */
    ml_json j;
    CHECK(ml__json_parse(NULL, &j, "\"a\0b\"", 5, "doc", 0) == ML_EINVAL);
    CHECK(strcmp(ml_errmsg(NULL), "doc is not valid JSON: Invalid control character at at byte 2") == 0);
    /* NULL text of length 0 */
    CHECK(ml__json_parse(NULL, &j, NULL, 0, "doc", 0) == ML_EINVAL);

    /* nesting: max_depth levels are read, one more is refused */
    char deep[64];
    for (int d = 1; d <= 6; d++) {
        memset(deep, '[', (size_t)d);
        memset(deep + d, ']', (size_t)d);
        deep[2 * d] = 0;
        int rc = parse(&j, deep, 5);
        CHECK(d <= 5 ? rc == ML_OK : rc == ML_EINVAL);
        if (rc == ML_OK) {
            CHECK(j.ntok == (size_t)d && j.tok[0].end == (size_t)d);
            ml__json_free(&j);
        } else
            CHECK(strcmp(ml_errmsg(NULL), "doc is not valid JSON: nesting deeper than 5 levels "
                                          "at byte 5") == 0);
    }
    /* the default bound */
    size_t n = 2 * ML_JSON_MAX_DEPTH + 2;
    char *big = malloc(n + 1);
    memset(big, '[', n / 2);
    memset(big + n / 2, ']', n / 2);
    big[n] = 0;
    CHECK(parse(&j, big, 0) == ML_EINVAL);
    big[n / 2 - 1] = ' ', big[n / 2] = ' ';
    CHECK(parse(&j, big, 0) == ML_OK && j.ntok == ML_JSON_MAX_DEPTH);
    ml__json_free(&j);
    free(big);
}

/* ------------------------------------------------------------------ repr and dumps */
static void check_repr(const char *doc, const char *want)
{
    ml_json j;
    char buf[512];
    CHECK(parse(&j, doc, 0) == ML_OK);
    size_t n = ml__json_repr(&j, 0, buf, sizeof buf);
    if (strcmp(buf, want) != 0 || n != strlen(want)) {
        printf("FAIL repr %s: got %s, want %s\n", doc, buf, want);
        fails++;
    }
    ml__json_free(&j);
}

static void check_float(double d, const char *want)
{
    char buf[64];
    size_t n = ml__json_float_repr(d, buf, sizeof buf);
    if (strcmp(buf, want) != 0 || n != strlen(want)) {
        printf("FAIL float repr %.17g: got %s, want %s\n", d, buf, want);
        fails++;
    }
}

static void test_repr(void)
{
    /* printed by Python: repr(json.loads(doc)) */
    check_repr("[0, \"a\", {\"a\": 1, \"b\": [true, null]}, 1.0, 1180591620717411303424]",
               "[0, 'a', {'a': 1, 'b': [True, None]}, 1.0, 1180591620717411303424]");
    check_repr("\"a'b\"", "\"a'b\"");
    check_repr("\"a\\\"b\"", "'a\"b'");
    check_repr("\"a'b\\\"c\"", "'a\\'b\"c'");
    check_repr("\"\\u00a0\\u00ad\\u009f\\u2028\\u00e9\\u007f\\t\"", "'\\xa0\\xad\\x9f\\u2028\xC3\xA9\\x7f\\t'");
    check_repr("\"back\\\\slash\\n\\r\\u0001\"", "'back\\\\slash\\n\\r\\x01'");
    check_repr("\"\\ud800\"", "'\\ud800'");
    check_repr("[-0, -0.0, 1e16, 2.5e-05]", "[0, -0.0, 1e+16, 2.5e-05]");
    check_repr("{}", "{}");
    check_repr("[[], [[]]]", "[[], [[]]]");
    check_repr("NaN", "nan");
    check_repr("-Infinity", "-inf");
    /* a key twice: json.loads keeps the first place and the last value */
    check_repr("{\"a\": 1, \"b\": 2, \"a\": 3}", "{'a': 3, 'b': 2}");
    check_repr("{\"k\": 1, \"\\u006b\": [2], \"x\": {\"y\": 1, \"y\": null}, \"k\": \"z\"}",
               "{'k': 'z', 'x': {'y': None}}");
    check_repr("[{\"a\": 1, \"a\": 2, \"a\": 3}, {\"\\u0000\": 1, \"\": 2, \"\\u0000\": 3}]",
               "[{'a': 3}, {'\\x00': 3, '': 2}]");
    check_repr("{\"b\": 1, \"a\": 2, \"b\": 3, \"a\": 4, \"c\": 5}",
               "{'b': 3, 'a': 4, 'c': 5}");

    /* repr(v) for floats, printed by Python */
    check_float(1e16, "1e+16");
    check_float(1e15, "1000000000000000.0");
    check_float(123.0, "123.0");
    check_float(1.5e-5, "1.5e-05");
    check_float(0.0001, "0.0001");
    check_float(0.1, "0.1");
    check_float(-0.0, "-0.0");
    check_float(0.0, "0.0");
    check_float(1e300, "1e+300");
    check_float(5e-324, "5e-324");
    check_float(2.5, "2.5");
    check_float(1.0 / 3.0, "0.3333333333333333");
    check_float(1e22, "1e+22");
    check_float(123456789012345680.0, "1.2345678901234568e+17");
    check_float(-1.5, "-1.5");
    check_float(1.7976931348623157e308, "1.7976931348623157e+308");
    check_float(INFINITY, "inf");
    check_float(NAN, "nan");

    /* the shortest repr reads back exactly, on random doubles of every exponent */
    for (int k = 0; k < 20000; k++) {
        uint64_t bits = next_u64();
        double d;
        memcpy(&d, &bits, sizeof d);
        if (!isfinite(d))
            continue;
        char buf[64], e17[64];
        ml__json_float_repr(d, buf, sizeof buf);
        CHECK(strtod(buf, NULL) == d);
        /* no more significant digits than %.17g needs */
        snprintf(e17, sizeof e17, "%.17g", d);
        size_t sig = 0, sig17 = 0;
        for (const char *c = buf; *c && *c != 'e'; c++)
            sig += *c >= '1' && *c <= '9';
        for (const char *c = e17; *c && *c != 'e'; c++)
            sig17 += *c >= '1' && *c <= '9';
        CHECK(sig <= sig17);
    }

    /* the short form: one line, at most 60 characters, "..." past them */
    ml_json j;
    char buf[128];
    CHECK(parse(&j, "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24]", 0) == ML_OK);
    size_t n = ml__json_short(&j, 0, buf, sizeof buf);
    CHECK(n == 60 && strcmp(buf, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 1...") == 0);
    ml__json_free(&j);
    CHECK(parse(&j, "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,100]", 0) == ML_OK);
    n = ml__json_short(&j, 0, buf, sizeof buf);  /* exactly 60: kept */
    CHECK(n == 60 && strcmp(buf, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 100]") == 0);
    ml__json_free(&j);
    /* characters, not bytes: 70 two-byte letters cut after 57 of them */
    char doc[256] = "\"";
    for (int k = 0; k < 70; k++)
        strcat(doc, "\xC3\xA9");
    strcat(doc, "\"");
    CHECK(parse(&j, doc, 0) == ML_OK);
    n = ml__json_short(&j, 0, buf, sizeof buf);
    CHECK(n == 1 + 56 * 2 + 3 && memcmp(buf, "'\xC3\xA9", 3) == 0 && strcmp(buf + n - 3, "...") == 0);
    ml__json_free(&j);
}

static void test_writer(void)
{
    /* json.dumps(v, separators=(",", ":")), printed by Python */
    char buf[256];
    ml_jw w;
    ml__jw_init(&w, buf, sizeof buf);
    ml__jw_list(&w);
    const char s[] = "a\xC3\xA9\xF0\x9F\x98\x80\x7f\x01\"\\/\n\t\b\f\r";
    ml__jw_str(&w, s, sizeof s - 1);
    ml__jw_dict(&w);
    ml__jw_key(&w, "k", 1);
    ml__jw_list(&w);
    ml__jw_bool(&w, 1);
    ml__jw_bool(&w, 0);
    ml__jw_null(&w);
    ml__jw_int(&w, -5);
    ml__jw_uint(&w, UINT64_MAX);
    ml__jw_float(&w, 0.1);
    ml__jw_float(&w, -INFINITY);
    ml__jw_float(&w, NAN);
    ml__jw_end_list(&w);
    ml__jw_key(&w, "e", 1);
    ml__jw_dict(&w);
    ml__jw_end_dict(&w);
    ml__jw_end_dict(&w);
    ml__jw_end_list(&w);
    const char *want = "[\"a\\u00e9\\ud83d\\ude00\\u007f\\u0001\\\"\\\\/\\n\\t\\b\\f\\r\",{\"k\":[true,"
                       "false,null,-5,18446744073709551615,0.1,-Infinity,NaN],\"e\":{}}]";
    size_t n = ml__jw_finish(&w);
    CHECK(n == strlen(want) && strcmp(buf, want) == 0);

    /* snprintf's convention: the same length, a prefix written */
    for (size_t cap = 0; cap < 12; cap++) {
        char small[12];
        memset(small, 'x', sizeof small);
        ml__jw_init(&w, small, cap);
        ml__jw_list(&w);
        ml__jw_int(&w, 12345);
        ml__jw_str(&w, "abc", 3);
        ml__jw_end_list(&w);
        CHECK(ml__jw_finish(&w) == 13);
        if (cap)
            CHECK(strlen(small) == cap - 1 && memcmp(small, "[12345,\"abc\"]", cap - 1) == 0);
        else
            CHECK(small[0] == 'x');
    }

    /* misuse is reported, never written past the buffer */
    ml__jw_init(&w, buf, sizeof buf);
    ml__jw_dict(&w);
    ml__jw_int(&w, 1);  /* a value without its key */
    ml__jw_end_dict(&w);
    CHECK(ml__jw_finish(&w) == (size_t)-1);
    ml__jw_init(&w, buf, sizeof buf);
    ml__jw_list(&w);
    CHECK(ml__jw_finish(&w) == (size_t)-1);  /* open */
    ml__jw_init(&w, buf, sizeof buf);
    ml__jw_int(&w, 1);
    ml__jw_int(&w, 2);
    CHECK(ml__jw_finish(&w) == (size_t)-1);  /* two values */
    ml__jw_init(&w, buf, sizeof buf);
    CHECK(ml__jw_finish(&w) == (size_t)-1);  /* none */
    ml__jw_init(&w, buf, sizeof buf);
    ml__jw_list(&w);
    ml__jw_end_dict(&w);
    CHECK(ml__jw_finish(&w) == (size_t)-1);  /* unmatched */
    ml__jw_init(&w, buf, sizeof buf);
    ml__jw_key(&w, "k", 1);  /* a key outside a dict */
    ml__jw_int(&w, 1);
    CHECK(ml__jw_finish(&w) == (size_t)-1);
    ml__jw_init(&w, buf, sizeof buf);
    for (int d = 0; d < ML_JSON_MAX_DEPTH + 3; d++)
        ml__jw_list(&w);
    for (int d = 0; d < ML_JSON_MAX_DEPTH + 3; d++)
        ml__jw_end_list(&w);
    CHECK(ml__jw_finish(&w) == (size_t)-1);  /* too deep */
}

/* ------------------------------------------------------------------ random documents */
static void random_str(ml_jw *w, int key)
{
    static const char *const parts[] = {"a", "cross", "\"", "\\", "\n", "\x01", "\x7f", "\xC3\xA9",
                                        "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "'", " ", "/", "\t"};
    char s[64];
    size_t n = 0;
    for (unsigned k = below(6); k > 0; k--) {
        const char *p = parts[below(sizeof parts / sizeof *parts)];
        memcpy(s + n, p, strlen(p));
        n += strlen(p);
    }
    if (key)
        ml__jw_key(w, s, n);
    else
        ml__jw_str(w, s, n);
}

static void random_value(ml_jw *w, int depth)
{
    unsigned k = below(depth > 4 ? 6 : 8);
    switch (k) {
    case 0:
        ml__jw_null(w);
        break;
    case 1:
        ml__jw_bool(w, (int)below(2));
        break;
    case 2: {
        int64_t v = (int64_t)next_u64();
        ml__jw_int(w, below(3) ? v % 1000 : v);
        break;
    }
    case 3: {
        uint64_t bits = next_u64();
        double d;
        memcpy(&d, &bits, sizeof d);
        ml__jw_float(w, isfinite(d) && below(2) ? d : (double)(int)below(1000) / 8.0);
        break;
    }
    case 4:
        ml__jw_uint(w, next_u64());
        break;
    case 5:
        random_str(w, 0);
        break;
    case 6:
        ml__jw_list(w);
        for (unsigned m = below(5); m > 0; m--)
            random_value(w, depth + 1);
        ml__jw_end_list(w);
        break;
    default:
        ml__jw_dict(w);
        for (unsigned m = below(4); m > 0; m--) {
            random_str(w, 1);
            random_value(w, depth + 1);
        }
        ml__jw_end_dict(w);
    }
}

/* Write the document at j back (ml__jw_value) into a new buffer; its length. */
static char *rewrite(const ml_json *j, size_t *len)
{
    ml_jw w;
    ml__jw_init(&w, NULL, 0);
    ml__jw_value(&w, j, 0);
    size_t n = ml__jw_finish(&w);
    CHECK(n != (size_t)-1);
    char *out = malloc(n + 1);
    ml__jw_init(&w, out, n + 1);
    ml__jw_value(&w, j, 0);
    CHECK(ml__jw_finish(&w) == n);
    *len = n;
    return out;
}

static void test_random_documents(void)
{
    static char text[1 << 16];
    for (int round = 0; round < 3000; round++) {
        ml_jw w;
        ml__jw_init(&w, text, sizeof text);
        if (below(2)) {
            ml__jw_list(&w);
            for (unsigned m = below(6) + 1; m > 0; m--)
                random_value(&w, 1);
            ml__jw_end_list(&w);
        } else
            random_value(&w, 0);
        size_t n = ml__jw_finish(&w);
        CHECK(n != (size_t)-1 && n < sizeof text);
        ml_json j;
        CHECK(ml__json_parse(NULL, &j, text, n, "doc", 0) == ML_OK);
        if (j.ntok == 0)
            continue;
        CHECK(j.tok[0].end == j.ntok);
        if (j.tok[0].kind == ML_JSON_STR)  /* a string's span is inside its quotes */
            CHECK(j.tok[0].start == 1 && j.tok[0].len == n - 2);
        else
            CHECK(j.tok[0].start == 0 && j.tok[0].len == n);
        size_t n2;
        char *again = rewrite(&j, &n2);
        CHECK(n2 == n && memcmp(again, text, n) == 0);  /* written, read, written: the same */
        free(again);
        /* every strict prefix of a container document is refused */
        if (j.tok[0].kind == ML_JSON_LIST || j.tok[0].kind == ML_JSON_DICT)
            for (size_t p = 0; p < n; p += 1 + below(7)) {
                ml_json k;
                CHECK(ml__json_parse(NULL, &k, text, p, "doc", 0) == ML_EINVAL);
            }
        ml__json_free(&j);
    }
}

/* Random bytes and mutated documents: read or refused, never past the text; what is
 * read writes to a text that reads back to the same text. */
static void test_mutations(void)
{
    static const char *const seeds[] = {
        "{\"rows\":3,\"cols\":4,\"states\":3,\"pattern\":\"cross\",\"locked\":[[0,0]],\"holes\":[],"
        "\"wrap\":false}",
        "{\"effects\":[[0,1],[1],[]],\"states\":4,\"n_cells\":3}",
        "[\"\\u00e9\\ud83d\\ude00\",-1.5e-3,true,null,{\"a\":[1,2,{\"b\":\"c\"}]},1e400,-0]",
    };
    static const char alphabet[] = "{}[]\",:0123456789-+.eE \\u\x01\x80\xC3\xA9tfnNI";
    char buf[512];
    for (int round = 0; round < 60000; round++) {
        size_t n;
        if (round % 4 == 0) {  /* random bytes */
            n = below(40);
            for (size_t k = 0; k < n; k++)
                buf[k] = (char)(below(3) ? alphabet[below(sizeof alphabet - 1)] : (char)below(256));
        } else {
            const char *s = seeds[below(3)];
            n = strlen(s);
            memcpy(buf, s, n);
            for (unsigned m = below(3) + 1; m > 0; m--) {
                size_t at = below((unsigned)n + 1);
                unsigned op = below(3);
                if (op == 0 && at < n)  /* change a byte */
                    buf[at] = alphabet[below(sizeof alphabet - 1)];
                else if (op == 1 && at < n) {  /* remove a byte */
                    memmove(buf + at, buf + at + 1, n - at - 1);
                    n--;
                } else if (n + 1 < sizeof buf) {  /* insert a byte */
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = alphabet[below(sizeof alphabet - 1)];
                    n++;
                }
            }
        }
        /* the text as its own allocation: ASan sees a read past its end */
        char *text = malloc(n ? n : 1);
        memcpy(text, buf, n);
        ml_json j;
        int rc = ml__json_parse(NULL, &j, text, n, "doc", 8);
        CHECK(rc == ML_OK || (rc == ML_EINVAL && ml_errmsg_id(NULL) == ML_M_JSON_SYNTAX));
        if (rc == ML_OK) {
            CHECK(j.ntok > 0 && j.tok[0].end == j.ntok);
            char r[64];
            ml__json_repr(&j, 0, r, sizeof r);
            ml__json_short(&j, 0, r, sizeof r);
            size_t n1, n2;
            char *once = rewrite(&j, &n1);
            ml_json k;
            CHECK(ml__json_parse(NULL, &k, once, n1, "doc", 8) == ML_OK);
            char *twice = rewrite(&k, &n2);
            CHECK(n1 == n2 && memcmp(once, twice, n1) == 0);
            free(once);
            free(twice);
            ml__json_free(&k);
            ml__json_free(&j);
        }
        free(text);
    }
}

/* ------------------------------------------------------------------ fields */
/* ml__json_check_mapping and ml__json_field_error: validation.check_mapping's and
 * field_error's messages. */
static void test_fields(void)
{
    static const char *const allowed[] = {"rows", "cols", "wrap", NULL};
    static const char *const required[] = {"rows", "cols", NULL};
    static const struct {
        const char *doc, *msg;   /* msg NULL: accepted */
    } cases[] = {
        {"{\"rows\": 1, \"cols\": 2}", NULL},
        {"{\"cols\": 2, \"wrap\": true, \"rows\": 1}", NULL},
        {"[1]", "board must be a dict (JSON object), got list"},
        {"{\"rows\": 1, \"cols\": 2, \"walls\": 3}",
         "board has unknown field 'walls'; allowed fields: rows, cols, wrap"},
        {"{\"rows\": 1}", "board needs the field 'cols' (required: rows, cols; a graph board "
                          "has effects and states)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ml_json j;
        CHECK(parse(&j, cases[k].doc, 0) == ML_OK);
        int rc = ml__json_check_mapping(NULL, &j, 0, "board", allowed, required);
        CHECK(cases[k].msg ? rc == ML_EINVAL : rc == ML_OK);
        if (cases[k].msg && strcmp(ml_errmsg(NULL), cases[k].msg) != 0) {
            printf("FAIL %s: got \"%s\", want \"%s\"\n", cases[k].doc, ml_errmsg(NULL),
                   cases[k].msg);
            fails++;
        }
        ml__json_free(&j);
    }
    /* a field's failure prefixed by its name, unless its message names it first */
    ml_ctx_fail(NULL, ML_ERANGE, "out of range");
    CHECK(ml__json_field_error(NULL, "rows", ML_ERANGE) == ML_ERANGE);
    CHECK(strcmp(ml_errmsg(NULL), "rows: out of range") == 0 && ml_errcode(NULL) == ML_ERANGE);
    ml_ctx_fail(NULL, ML_EINVAL, "rows must be an int");
    CHECK(ml__json_field_error(NULL, "rows", ML_EINVAL) == ML_EINVAL);
    CHECK(strcmp(ml_errmsg(NULL), "rows must be an int") == 0);
    CHECK(ml__json_field_error(NULL, "rows", ML_OK) == ML_OK);
}

int main(void)
{
    test_fields();
    test_tokens();
    test_syntax();
    test_repr();
    test_writer();
    test_random_documents();
    test_mutations();
    printf("fails=%d\n", fails);
    return fails != 0;
}
