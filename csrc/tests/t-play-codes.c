/* t-play-codes: csrc/play/codes.c, puzzle codes. Without arguments: the code of the
 * documented example (Python's ml.generate(3, 3, states=3, seed=2).code), round trips of
 * random puzzles (every named pattern, offsets, mixed palettes with repeated and unused
 * entries, 2..255 states, locks, holes, wrap), every encode error, and every decode
 * error at least once, with the message Python gives; every prefix and one-character
 * change of valid codes decodes or fails cleanly (AddressSanitizer watches the buffers).
 *
 * With a file argument (tests/play/test_codes_native.py writes it from Python's encode
 * and decode on many random puzzles and broken codes): each case is two lines,
 *   D <hex of the code's UTF-8>        then  = <puzzle>  or  ! <message>
 *   E <puzzle>                          then  = <code>    or  ! <message>
 * where <puzzle> is "rows cols states wrap mixed P", P patterns "count dr dc ...",
 * "L" and "H" then "-" or a 0/1 per tile, "I" then "-" or each tile's palette entry,
 * "S" then each tile's start value. A decoded puzzle is printed with its palette in the
 * order tiles first use it. Prints every difference; exit status 0 when none.
 * ml-test-sources: play/codes.c play/codec.c play/pytext.c api/ctx.c api/errors.c base/interrupt.c */
#define ML_T_SEED 0x2545F4914F6CDD1DULL
#include "t-util.h"

#include "api/ctx.h"
#include "play/play.h"

#include <stdlib.h>
#include <string.h>

static uint64_t below(uint64_t n) { return rnd() % n; }

/* ------------------------------------------------------------------ puzzle text */
typedef struct {
    char *s;
    size_t len, cap;
} buf_t;

static void add(buf_t *b, const char *fmt, long long v)
{
    char tmp[32];
    int k = snprintf(tmp, sizeof tmp, fmt, v);
    if (b->len + (size_t)k + 1 > b->cap) {
        b->cap = 2 * (b->len + (size_t)k + 1);
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, tmp, (size_t)k + 1);
    b->len += (size_t)k;
}

static void adds(buf_t *b, const char *text)
{
    size_t k = strlen(text);
    if (b->len + k + 1 > b->cap) {
        b->cap = 2 * (b->len + k + 1);
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, text, k + 1);
    b->len += k;
}

/* The text of a puzzle (the file format's <puzzle>); malloc'd. */
static char *dump(const ml__code *c)
{
    buf_t b = {NULL, 0, 0};
    size_t tiles = (size_t)(c->rows * c->cols);
    add(&b, "%lld", c->rows);
    add(&b, " %lld", c->cols);
    add(&b, " %lld", c->states);
    add(&b, " %lld", c->wrap ? 1 : 0);
    add(&b, " %lld", c->mixed ? 1 : 0);
    add(&b, " %lld", (long long)c->n_palette);
    for (size_t p = 0; p < c->n_palette; p++) {
        add(&b, " %lld", (long long)c->palette[p].count);
        for (size_t i = 0; i < 2 * c->palette[p].count; i++)
            add(&b, " %lld", c->palette[p].offs[i]);
    }
    const uint8_t *m[2] = {c->locked, c->holes};
    for (int k = 0; k < 2; k++) {
        adds(&b, k ? " H " : " L ");
        int any = 0;
        for (size_t t = 0; m[k] && t < tiles; t++)
            any |= m[k][t];
        if (!any)
            adds(&b, "-");
        else
            for (size_t t = 0; t < tiles; t++)
                add(&b, "%lld", m[k][t] ? 1 : 0);
    }
    adds(&b, " I");
    if (!c->mixed)
        adds(&b, " -");
    else
        for (size_t t = 0; t < tiles; t++)
            add(&b, " %lld", c->index[t]);
    adds(&b, " S");
    for (size_t t = 0; t < tiles; t++)
        add(&b, " %lld", c->start[t]);
    b.s[b.len] = 0;
    return b.s;
}

/* A puzzle from its text (into c, malloc'd arrays: ml__code_free); 0 when malformed. */
static int parse(const char *s, ml__code *c)
{
    memset(c, 0, sizeof *c);
    char *end;
    long long v[6];
    for (int i = 0; i < 6; i++) {
        v[i] = strtoll(s, &end, 10);
        if (end == s)
            return 0;
        s = end;
    }
    c->rows = v[0];
    c->cols = v[1];
    c->states = (int)v[2];
    c->wrap = (int)v[3];
    c->mixed = (int)v[4];
    c->n_palette = (size_t)v[5];
    if (c->rows < 1 || c->cols < 1 || c->rows * c->cols > 1 << 20 || v[5] < 1 || v[5] > 1 << 20)
        return 0;
    size_t tiles = (size_t)(c->rows * c->cols);
    c->palette = calloc(c->n_palette, sizeof *c->palette);
    for (size_t p = 0; p < c->n_palette; p++) {
        long long k = strtoll(s, &end, 10);
        if (end == s || k < 0 || k > 100000)
            return 0;
        s = end;
        c->palette[p].count = (size_t)k;
        c->palette[p].offs = malloc((2 * (size_t)k + 1) * sizeof(int64_t));
        for (long long i = 0; i < 2 * k; i++) {
            c->palette[p].offs[i] = strtoll(s, &end, 10);
            s = end;
        }
    }
    uint8_t **m[2] = {&c->locked, &c->holes};
    for (int k = 0; k < 2; k++) {
        while (*s == ' ')
            s++;
        if (*s++ != "LH"[k])
            return 0;
        while (*s == ' ')
            s++;
        if (*s == '-') {
            s++;
            continue;
        }
        *m[k] = malloc(tiles);
        for (size_t t = 0; t < tiles; t++)
            (*m[k])[t] = (uint8_t)(*s++ == '1');
    }
    while (*s == ' ')
        s++;
    if (*s++ != 'I')
        return 0;
    while (*s == ' ')
        s++;
    if (*s == '-') {
        s++;
    } else {
        c->index = malloc(tiles * sizeof *c->index);
        for (size_t t = 0; t < tiles; t++) {
            c->index[t] = (uint32_t)strtoll(s, &end, 10);
            s = end;
        }
    }
    while (*s == ' ')
        s++;
    if (*s++ != 'S')
        return 0;
    c->start = malloc(tiles);
    for (size_t t = 0; t < tiles; t++) {
        c->start[t] = (uint8_t)strtoll(s, &end, 10);
        if (end == s)
            return 0;
        s = end;
    }
    return 1;
}

/* "= <code>" or "! <message>" of encoding c; malloc'd. */
static char *encode_outcome(const ml__code *c)
{
    char *text = NULL, *out;
    size_t len = 0;
    if (ml__code_encode(NULL, c, &text, &len) == ML_OK) {
        out = malloc(len + 3);
        snprintf(out, len + 3, "= %s", text);
        free(text);
    } else {
        const char *msg = ml_errmsg(NULL);
        out = malloc(strlen(msg) + 3);
        snprintf(out, strlen(msg) + 3, "! %s", msg);
    }
    return out;
}

/* "= <puzzle>" or "! <message>" of decoding text[0..n); malloc'd. */
static char *decode_outcome(const char *text, size_t n)
{
    ml__code c;
    char *out;
    if (ml__code_decode(NULL, text, n, &c) == ML_OK) {
        char *d = dump(&c);
        out = malloc(strlen(d) + 3);
        snprintf(out, strlen(d) + 3, "= %s", d);
        free(d);
        ml__code_free(&c);
    } else {
        CHECK(c.palette == NULL && c.start == NULL && c.rows == 0);
        CHECK(ml_errcode(NULL) != ML_OK);
        const char *msg = ml_errmsg(NULL);
        out = malloc(strlen(msg) + 3);
        snprintf(out, strlen(msg) + 3, "! %s", msg);
    }
    return out;
}

/* ------------------------------------------------------------------ the file */
static int hexval(int ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

static char *read_line(FILE *f)
{
    size_t cap = 256, len = 0;
    char *s = malloc(cap);
    int ch;
    while ((ch = fgetc(f)) != EOF && ch != '\n') {
        if (len + 2 > cap)
            s = realloc(s, cap *= 2);
        s[len++] = (char)ch;
    }
    if (ch == EOF && len == 0) {
        free(s);
        return NULL;
    }
    s[len] = 0;
    return s;
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("cannot open %s\n", path);
        return 1;
    }
    int cases = 0, diffs = 0;
    char *q;
    while ((q = read_line(f))) {
        char *want = read_line(f);
        if (!want) {
            printf("case %d: no expected line\n", cases);
            free(q);
            diffs++;
            break;
        }
        char *got = NULL;
        if (q[0] == 'D' && q[1] == ' ') {
            size_t n = strlen(q + 2) / 2;
            char *text = malloc(n + 1);
            for (size_t i = 0; i < n; i++)
                text[i] = (char)(hexval(q[2 + 2 * i]) << 4 | hexval(q[3 + 2 * i]));
            got = decode_outcome(text, n);
            free(text);
        } else if (q[0] == 'E' && q[1] == ' ') {
            ml__code c;
            if (parse(q + 2, &c))
                got = encode_outcome(&c);
            ml__code_free(&c);
        }
        if (!got || strcmp(got, want) != 0) {
            if (diffs < 20)
                printf("case %d: %.300s\n  Python: %.300s\n  C:      %.300s\n", cases, q, want,
                       got ? got : "(malformed case)");
            diffs++;
        }
        free(got);
        free(q);
        free(want);
        cases++;
    }
    fclose(f);
    printf("%d cases, %d differ\n", cases, diffs);
    return diffs != 0 || cases == 0;
}

/* ------------------------------------------------------------------ built-in checks */
static void expect_encode_fail(const ml__code *c, int id)
{
    char *text = NULL;
    size_t len;
    int rc = ml__code_encode(NULL, c, &text, &len);
    CHECK(rc != ML_OK && text == NULL);
    if (ml_errmsg_id(NULL) != id) {
        printf("  encode: wanted message %d, got %d: %s\n", id, ml_errmsg_id(NULL), ml_errmsg(NULL));
        fails++;
    }
}

static void expect_decode(const char *code, const char *msg)
{
    char *got = decode_outcome(code, strlen(code));
    char want[512];
    snprintf(want, sizeof want, "! %s", msg);
    if (strcmp(got, want) != 0) {
        printf("FAIL decode %s\n  wanted %s\n  got    %s\n", code, want, got);
        fails++;
    }
    free(got);
}

/* The code of a body (the header and data before the CRC): CRC and base64url added. */
static void code_of(const uint8_t *body, size_t n, char *out)
{
    uint8_t buf[600];
    memcpy(buf, body, n);
    uint32_t crc = ml__crc32(body, n);
    for (int i = 0; i < 4; i++)
        buf[n + i] = (uint8_t)(crc >> (24 - 8 * i));
    ml__b64url_encode(buf, n + 4, out);
}

static void random_puzzle(ml__code *c)
{
    memset(c, 0, sizeof *c);
    c->rows = 1 + (int64_t)below(below(4) ? 9 : 40);
    c->cols = 1 + (int64_t)below(below(4) ? 9 : 40);
    c->states = below(3) ? 2 + (int)below(8) : 2 + (int)below(254);
    c->wrap = (int)below(2);
    c->mixed = below(3) == 0;
    c->n_palette = c->mixed ? 1 + below(below(5) ? 6 : 300) : 1;
    c->palette = calloc(c->n_palette, sizeof *c->palette);
    for (size_t p = 0; p < c->n_palette; p++) {
        ml__code_pattern *pp = &c->palette[p];
        if (below(2)) { /* a named one, or a repeat */
            const int8_t *o = ml__code_named((int)below(ML__CODE_NAMED), &pp->count);
            pp->offs = malloc(2 * pp->count * sizeof *pp->offs);
            for (size_t i = 0; i < 2 * pp->count; i++)
                pp->offs[i] = o[i];
        } else {
            pp->count = below(12);
            pp->offs = malloc((2 * pp->count + 1) * sizeof *pp->offs);
            int wide = below(4) == 0; /* -128..127, else -2..2 */
            for (size_t i = 0; i < 2 * pp->count; i++)
                pp->offs[i] = (int64_t)below(wide ? 256 : 5) - (wide ? 128 : 2);
        }
    }
    size_t tiles = (size_t)(c->rows * c->cols);
    if (c->mixed) {
        c->index = malloc(tiles * sizeof *c->index);
        for (size_t t = 0; t < tiles; t++)
            c->index[t] = (uint32_t)below(c->n_palette);
    }
    int lk = below(3) == 0, hl = below(3) == 0;
    c->locked = lk ? calloc(tiles, 1) : NULL;
    c->holes = hl ? calloc(tiles, 1) : NULL;
    c->start = malloc(tiles);
    for (size_t t = 0; t < tiles; t++) {
        c->start[t] = (uint8_t)below((uint64_t)c->states);
        int r = (int)below(5);
        if (lk && r == 0)
            c->locked[t] = 1;
        else if (hl && r == 1)
            c->holes[t] = 1;
    }
}

/* Whether a decoded puzzle is c (its palette made canonical, holes' start values 0). */
static int same_puzzle(const ml__code *c, const ml__code *d)
{
    size_t tiles = (size_t)(c->rows * c->cols);
    if (c->rows != d->rows || c->cols != d->cols || c->states != d->states
        || !c->wrap != !d->wrap || c->mixed != d->mixed)
        return 0;
    for (size_t t = 0; t < tiles; t++) {
        int ch = c->holes && c->holes[t], dh = d->holes && d->holes[t];
        int cl = c->locked && c->locked[t], dl = d->locked && d->locked[t];
        if (ch != dh || cl != dl || (!ch && c->start[t] != d->start[t]) || (ch && d->start[t]))
            return 0;
        const ml__code_pattern *a = &c->palette[c->mixed ? c->index[t] : 0];
        const ml__code_pattern *b = &d->palette[d->mixed ? d->index[t] : 0];
        if (a->count != b->count
            || (a->count && memcmp(a->offs, b->offs, 2 * a->count * sizeof *a->offs)))
            return 0;
    }
    return 1;
}

static void round_trips(void)
{
    int ok = 0, refused = 0;
    for (int k = 0; k < 3000; k++) {
        ml__code c;
        random_puzzle(&c);
        char *text = NULL;
        size_t len = 0;
        if (ml__code_encode(NULL, &c, &text, &len) != ML_OK) {
            int id = ml_errmsg_id(NULL);
            if (id != ML_M_CODE_ALL_HOLES && id != ML_M_CODE_PALETTE)
                printf("  refused: %s\n", ml_errmsg(NULL));
            CHECK(id == ML_M_CODE_ALL_HOLES || id == ML_M_CODE_PALETTE);
            refused++;
            ml__code_free(&c);
            continue;
        }
        CHECK(strlen(text) == len);
        ml__code d;
        int rc = ml__code_decode(NULL, text, len, &d);
        if (rc != ML_OK)
            printf("  %s: %s\n", text, ml_errmsg(NULL));
        CHECK(rc == ML_OK);
        if (rc == ML_OK) {
            CHECK(same_puzzle(&c, &d));
            char *again = NULL;
            size_t again_len = 0;
            CHECK(ml__code_encode(NULL, &d, &again, &again_len) == ML_OK);
            CHECK(again && strcmp(again, text) == 0);
            free(again);
            ml__code_free(&d);
            ok++;
        }
        /* every prefix and some one-character changes: decoded or refused, no overrun */
        for (size_t cut = 0; cut < len && cut < 64; cut++) {
            char *p = malloc(cut ? cut : 1);
            memcpy(p, text, cut);
            CHECK(ml__code_decode(NULL, p, cut, &d) != ML_OK);
            free(p);
        }
        for (int j = 0; j < 8; j++) {
            char *p = malloc(len);
            memcpy(p, text, len);
            p[below(len)] = "ABCxyz019-_=+/ \xc3"[below(17)];
            if (ml__code_decode(NULL, p, len, &d) == ML_OK)
                ml__code_free(&d);
            free(p);
        }
        free(text);
        ml__code_free(&c);
    }
    printf("round trips: %d, refused: %d\n", ok, refused);
    CHECK(ok > 2000);
}

static void errors(void)
{
    /* the documented example: ml.generate(3, 3, states=3, seed=2).code */
    int64_t cross[10] = {0, 0, -1, 0, 1, 0, 0, -1, 0, 1};
    ml__code_pattern pat = {5, cross};
    uint8_t start[9] = {1, 2, 2, 0, 0, 2, 0, 1, 1};
    ml__code c = {3, 3, 3, 0, 0, 1, &pat, NULL, NULL, NULL, start};
    char *text = NULL;
    size_t len = 0;
    CHECK(ml__code_encode(NULL, &c, &text, &len) == ML_OK);
    CHECK(text && strcmp(text, "AQADAwMAaCFAvSnc5Q") == 0);
    free(text);
    ml__code d;
    CHECK(ml__code_decode(NULL, " AQADAwMAaCFAvSnc5Q\n", 20, &d) == ML_OK && same_puzzle(&c, &d));
    ml__code_free(&d);

    /* encode's refusals */
    c.rows = 256;
    expect_encode_fail(&c, ML_M_CODE_SIDE);
    CHECK(strcmp(ml_errmsg(NULL), "a puzzle code holds boards up to 255x255, got 256x3") == 0);
    c.rows = 3;
    uint8_t all[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    c.holes = all;
    expect_encode_fail(&c, ML_M_CODE_ALL_HOLES);
    c.holes = NULL;
    int64_t far[4] = {0, 0, 3, -129};
    ml__code_pattern farp = {2, far};
    c.palette = &farp;
    expect_encode_fail(&c, ML_M_CODE_OFFSET_RANGE);
    CHECK(strcmp(ml_errmsg(NULL), "a puzzle code holds offsets in -128..127, got (3, -129)") == 0);
    int64_t many[2 * 256] = {0};
    ml__code_pattern manyp = {256, many};
    c.palette = &manyp;
    expect_encode_fail(&c, ML_M_CODE_OFFSET_COUNT);
    CHECK(strcmp(ml_errmsg(NULL), "a puzzle code holds patterns of up to 255 offsets, got 256") == 0);
    c.palette = &pat;
    c.states = 256;
    expect_encode_fail(&c, ML_M_NONE);
    CHECK(strcmp(ml_errmsg(NULL), "bytes must be in range(0, 256)") == 0);
    /* 16 x 17 tiles, each its own pattern: 272 distinct */
    ml__code m = {16, 17, 2, 0, 1, 272, NULL, NULL, NULL, NULL, NULL};
    m.palette = calloc(272, sizeof *m.palette);
    m.index = malloc(272 * sizeof *m.index);
    m.start = calloc(272, 1);
    for (size_t p = 0; p < 272; p++) {
        m.palette[p].count = 1;
        m.palette[p].offs = malloc(2 * sizeof(int64_t));
        m.palette[p].offs[0] = (int64_t)p / 17 - 8;
        m.palette[p].offs[1] = (int64_t)p % 17 - 8;
        m.index[p] = (uint32_t)p;
    }
    expect_encode_fail(&m, ML_M_CODE_PALETTE);
    CHECK(strcmp(ml_errmsg(NULL), "a puzzle code holds mixed boards of up to 255 distinct patterns, got 272") == 0);
    ml__code_free(&m);

    /* decode's refusals, in Python's order */
    expect_decode(" \t\n", "empty puzzle code");
    expect_decode("AQA$", "puzzle code has a character '$' that is not base64url (A-Z a-z 0-9 - _)");
    expect_decode("AQ\xc3\xa9", "puzzle code has a character '\xc3\xa9' that is not base64url (A-Z a-z 0-9 - _)");
    expect_decode("AQ\xe2\x80\x8b", "puzzle code has a character '\\u200b' that is not base64url (A-Z a-z 0-9 - _)");
    expect_decode("AQADA", "puzzle code has an impossible length (truncated or garbled)");
    expect_decode("AQADAwMA", "puzzle code too short (6 bytes): truncated or not a code");
    expect_decode("AQADAwMAaCFAvSnc5R", "puzzle code is not canonical (a mistyped character, or not written by modlights): a valid code re-encodes to itself");
    expect_decode("AQADAwMAaCFAvSnc5A", "puzzle code checksum mismatch: the code is mistyped, truncated or corrupted");
    char big[ML__CODE_MAX_CHARS + 2];
    memset(big, 'A', sizeof big - 1);
    big[sizeof big - 1] = 0;
    expect_decode(big, "puzzle code too long: 120001 characters, at most 120000");
    struct { uint8_t body[24]; size_t n; const char *msg; } bodies[] = {
        {{2, 0, 3, 3, 3, 0}, 6, "unsupported puzzle code version 2 (this modlights reads version 1)"},
        {{1, 0x20, 3, 3, 3, 0}, 6, "puzzle code has unknown flags 0x20"},
        {{1, 0x18, 3, 3, 3, 0}, 6, "puzzle code has an unknown pattern kind 3"},
        {{1, 0, 0, 3, 3, 0}, 6, "puzzle code declares a 0x3 board (sides are 1..255)"},
        {{1, 0, 3, 3, 1, 0}, 6, "puzzle code declares 1 states (2..255 allowed)"},
        {{1, 0x10, 3, 3, 2, 0}, 6, "puzzle code declares a mixed board with an empty palette"},
        {{1, 0x10, 3, 3, 2, 1}, 6, "puzzle code is truncated (ends before the palette entry)"},
        {{1, 0x10, 3, 3, 2, 1, 2}, 7, "puzzle code palette entry 0 has unknown kind 2"},
        {{1, 0x10, 3, 3, 2, 2, 0}, 7, "puzzle code is truncated (ends before the palette entry 0 id)"},
        {{1, 0x10, 3, 3, 2, 2, 0, 1, 1}, 9, "puzzle code is truncated (ends before the palette entry 1 offset count)"},
        {{1, 0x10, 3, 3, 2, 1, 1, 3, 0, 0}, 10, "puzzle code is truncated (declares 3 offsets in the palette entry 0)"},
        {{1, 0, 3, 3, 2, 6}, 6, "puzzle code names pattern id 6; known ids are 0..5"},
        {{1, 8, 3, 3, 2, 2, 0, 0}, 8, "puzzle code is truncated (declares 2 offsets in the pattern)"},
        {{1, 2, 9, 9, 2, 0, 0}, 7, "puzzle code is truncated: a 9x9 board needs more data than the 1 bytes left"},
        {{1, 0, 3, 3, 2, 0, 0}, 7, "puzzle code length does not match its 3x3 board with 2 states (truncated or padded)"},
        {{1, 0x10, 2, 1, 2, 3, 0, 0, 0, 1, 0, 2, 0xc0}, 13, "puzzle code uses palette entry 3, the palette has 3"},
        {{1, 0x10, 2, 1, 2, 3, 0, 0, 0, 1, 0, 2}, 12, "puzzle code is truncated: a 2x1 board needs more data than the 0 bytes left"},
        {{1, 2, 2, 1, 2, 0, 0}, 7, "puzzle code declares locked tiles but marks none"},
        {{1, 4, 2, 1, 2, 0, 0}, 7, "puzzle code declares holes but marks none"},
        {{1, 4, 2, 1, 2, 0, 0xc0}, 7, "puzzle code makes every tile a hole"},
        {{1, 6, 2, 1, 2, 0, 0x50}, 7, "puzzle code marks tile (1, 0) both locked and a hole"},
        {{1, 4, 2, 1, 2, 0, 0x40, 0}, 8, "puzzle code length does not match its board (truncated or padded)"},
        {{1, 0, 2, 1, 2, 0, 0x20}, 7, "puzzle code has non-zero padding bits (garbled)"},
        {{1, 0, 2, 1, 3, 0, 0xc0}, 7, "puzzle code has a tile value 3, out of range for 3 states"},
        {{1, 8, 1, 1, 2, 5, 0, 0, 0xff, 0, 1, 0, 0, 0xff, 0, 1, 0}, 17, "puzzle code is not canonical (a mistyped character, or not written by modlights): a valid code re-encodes to itself"},
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        char code[64];
        code_of(bodies[i].body, bodies[i].n, code);
        expect_decode(code, bodies[i].msg);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return run_file(argv[1]);
    errors();
    round_trips();
    return t_done();
}
