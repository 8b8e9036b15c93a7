/* json.c: the strict JSON reader and the writer of the C API (see json.h). */
#include "api/json.h"
#include "api/ctx.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

/* ======================================================================== the reader */
typedef struct reader {
    ml_json *j;
    const unsigned char *s;
    size_t n, pos;
    const char *reason;  /* the syntax error, at err_pos */
    size_t err_pos;
    int nomem;
} reader;

static int fail_at(reader *r, const char *reason, size_t pos)
{
    r->reason = reason;
    r->err_pos = pos;
    return -1;
}

static void skip_ws(reader *r)
{
    while (r->pos < r->n) {
        unsigned char c = r->s[r->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        r->pos++;
    }
}

/* A new token (index), or NONE when out of memory. */
static size_t new_tok(reader *r, int kind, size_t start)
{
    ml_json *j = r->j;
    if (j->ntok == j->cap) {
        size_t cap = j->cap ? 2 * j->cap : 64;
        if (cap > SIZE_MAX / sizeof *j->tok) {
            r->nomem = 1;
            return NONE;
        }
        ml_json_tok *t = realloc(j->tok, cap * sizeof *t);
        if (!t) {
            r->nomem = 1;
            return NONE;
        }
        j->tok = t;
        j->cap = cap;
    }
    ml_json_tok *t = &j->tok[j->ntok];
    memset(t, 0, sizeof *t);
    t->kind = (uint8_t)kind;
    t->start = start;
    t->end = j->ntok + 1;
    return j->ntok++;
}

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The 4 hex digits at p (n bytes left), or -1. */
static long hex4(const unsigned char *p, size_t n)
{
    if (n < 4)
        return -1;
    long v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hexval(p[k]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Bytes of the UTF-8 sequence at p (n left), 0 when it is not valid UTF-8 (overlong
 * forms, encoded surrogates and code points past U+10FFFF are refused). */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t k;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        k = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        k = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        k = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n < k || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t t = 2; t < k; t++)
        if (p[t] < 0x80 || p[t] > 0xBF)
            return 0;
    return k;
}

static size_t utf8_bytes(long cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

/* A string starting at the quote at r->pos: its token (its decoded length in count). */
static int read_str(reader *r, size_t *out)
{
    size_t q = r->pos, p = q + 1, dlen = 0;
    int esc = 0;
    const unsigned char *s = r->s;
    for (;;) {
        if (p >= r->n)
            return fail_at(r, "Unterminated string starting at", q);
        unsigned char c = s[p];
        if (c == '"')
            break;
        if (c < 0x20)
            return fail_at(r, "Invalid control character at", p);
        if (c == '\\') {
            esc = 1;
            if (p + 1 >= r->n)
                return fail_at(r, "Unterminated string starting at", q);
            unsigned char e = s[p + 1];
            if (e == 'u') {
                long cp = hex4(s + p + 2, r->n - p - 2);
                if (cp < 0)
                    return fail_at(r, "Invalid \\uXXXX escape", p + 1);
                p += 6;
                if (cp >= 0xD800 && cp <= 0xDBFF && p + 1 < r->n && s[p] == '\\' &&
                    s[p + 1] == 'u') {
                    long lo = hex4(s + p + 2, r->n - p - 2);
                    if (lo < 0)
                        return fail_at(r, "Invalid \\uXXXX escape", p + 1);
                    if (lo >= 0xDC00 && lo <= 0xDFFF) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        p += 6;
                    }
                }
                dlen += utf8_bytes(cp);  /* a lone surrogate: 3 bytes (surrogatepass) */
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || e == 0)
                return fail_at(r, "Invalid \\escape", p);
            p += 2;
            dlen++;
            continue;
        }
        size_t k = utf8_len(s + p, r->n - p);
        if (!k)
            return fail_at(r, "invalid UTF-8", p);
        p += k;
        dlen += k;
    }
    size_t i = new_tok(r, ML_JSON_STR, q + 1);
    if (i == NONE)
        return -1;
    r->j->tok[i].len = p - q - 1;
    r->j->tok[i].count = dlen;
    r->j->tok[i].esc = (uint8_t)esc;
    r->pos = p + 1;
    *out = i;
    return 0;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* A number at r->pos (Python's NUMBER_RE: -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?), or
 * -Infinity. */
static int read_number(reader *r, size_t *out)
{
    const unsigned char *s = r->s;
    size_t b = r->pos, p = b;
    if (p < r->n && s[p] == '-')
        p++;
    if (p >= r->n || !is_digit(s[p])) {
        if (r->n - b >= 9 && memcmp(s + b, "-Infinity", 9) == 0) {
            size_t i = new_tok(r, ML_JSON_FLOAT, b);
            if (i == NONE)
                return -1;
            r->j->tok[i].v.f = -INFINITY;
            r->j->tok[i].len = 9;
            r->pos = b + 9;
            *out = i;
            return 0;
        }
        return fail_at(r, "Expecting value", b);
    }
    if (s[p] == '0')
        p++;
    else
        while (p < r->n && is_digit(s[p]))
            p++;
    int is_float = 0;
    if (p + 1 < r->n && s[p] == '.' && is_digit(s[p + 1])) {
        is_float = 1;
        p += 2;
        while (p < r->n && is_digit(s[p]))
            p++;
    }
    if (p < r->n && (s[p] == 'e' || s[p] == 'E')) {
        size_t e = p + 1;
        if (e < r->n && (s[e] == '+' || s[e] == '-'))
            e++;
        if (e < r->n && is_digit(s[e])) {
            is_float = 1;
            p = e;
            while (p < r->n && is_digit(s[p]))
                p++;
        }
    }
    size_t i = new_tok(r, is_float ? ML_JSON_FLOAT : ML_JSON_INT, b);
    if (i == NONE)
        return -1;
    ml_json_tok *t = &r->j->tok[i];
    t->len = p - b;
    if (is_float) {
        char small[128], *tmp = small;
        if (t->len >= sizeof small && !(tmp = malloc(t->len + 1))) {
            r->nomem = 1;
            return -1;
        }
        memcpy(tmp, s + b, t->len);
        tmp[t->len] = 0;
        t->v.f = strtod(tmp, NULL);  /* correctly rounded, as Python's float() */
        if (tmp != small)
            free(tmp);
    } else {
        int neg = s[b] == '-';
        uint64_t v = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        for (size_t k = b + (size_t)neg; k < p; k++) {
            unsigned d = s[k] - '0';
            if (v > (limit - d) / 10) {
                t->big = 1;
                break;
            }
            v = v * 10 + d;
        }
        if (!t->big)
            t->v.i = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    }
    r->pos = p;
    *out = i;
    return 0;
}

static int literal(reader *r, const char *word, int kind, int64_t iv, double fv, size_t *out)
{
    size_t k = strlen(word);
    if (r->n - r->pos < k || memcmp(r->s + r->pos, word, k) != 0)
        return fail_at(r, "Expecting value", r->pos);
    size_t i = new_tok(r, kind, r->pos);
    if (i == NONE)
        return -1;
    r->j->tok[i].len = k;
    if (kind == ML_JSON_FLOAT)
        r->j->tok[i].v.f = fv;
    else
        r->j->tok[i].v.i = iv;
    r->pos += k;
    *out = i;
    return 0;
}

/* A scalar at r->pos, or the opening of a container (its token; the caller pushes it). */
static int read_value(reader *r, size_t *out)
{
    if (r->pos >= r->n)
        return fail_at(r, "Expecting value", r->pos);
    unsigned char c = r->s[r->pos];
    switch (c) {
    case '"':
        return read_str(r, out);
    case '{':
    case '[': {
        size_t i = new_tok(r, c == '{' ? ML_JSON_DICT : ML_JSON_LIST, r->pos);
        if (i == NONE)
            return -1;
        r->pos++;
        *out = i;
        return 0;
    }
    case 'n':
        return literal(r, "null", ML_JSON_NULL, 0, 0, out);
    case 't':
        return literal(r, "true", ML_JSON_BOOL, 1, 0, out);
    case 'f':
        return literal(r, "false", ML_JSON_BOOL, 0, 0, out);
    case 'N':
        return literal(r, "NaN", ML_JSON_FLOAT, 0, NAN, out);
    case 'I':
        return literal(r, "Infinity", ML_JSON_FLOAT, 0, INFINITY, out);
    default:
        if (c == '-' || is_digit(c))
            return read_number(r, out);
        return fail_at(r, "Expecting value", r->pos);
    }
}

/* A dict's key and its colon, at r->pos (after '{' or ','; blanks skipped). */
static int read_key(reader *r)
{
    if (r->pos >= r->n || r->s[r->pos] != '"')
        return fail_at(r, "Expecting property name enclosed in double quotes", r->pos);
    size_t k;
    if (read_str(r, &k))
        return -1;
    skip_ws(r);
    if (r->pos >= r->n || r->s[r->pos] != ':')
        return fail_at(r, "Expecting ':' delimiter", r->pos);
    r->pos++;
    skip_ws(r);
    return 0;
}

static int parse(reader *r, size_t *stack, int max_depth)
{
    int depth = 0;
    if (r->n >= 3 && memcmp(r->s, "\xEF\xBB\xBF", 3) == 0)
        r->pos = 3;  /* a byte order mark, as json.loads skips on bytes */
    skip_ws(r);
    for (;;) {
        /* a value at r->pos (blanks skipped) */
        size_t v;
        if (read_value(r, &v))
            return -1;
        ml_json_tok *t = &r->j->tok[v];
        if (depth > 0)
            r->j->tok[stack[depth - 1]].count++;
        if (t->kind == ML_JSON_LIST || t->kind == ML_JSON_DICT) {
            if (depth == max_depth)
                return fail_at(r, "nesting too deep", t->start);
            stack[depth++] = v;
            skip_ws(r);
            if (t->kind == ML_JSON_DICT) {
                if (r->pos < r->n && r->s[r->pos] == '}')
                    goto close;
                if (read_key(r))
                    return -1;
            } else {
                if (r->pos < r->n && r->s[r->pos] == ']')
                    goto close;
            }
            continue;
        }
        /* after a value: a delimiter, or the end of containers */
        for (;;) {
            if (depth == 0) {
                skip_ws(r);
                if (r->pos != r->n)
                    return fail_at(r, "Extra data", r->pos);
                return 0;
            }
            skip_ws(r);
            ml_json_tok *top = &r->j->tok[stack[depth - 1]];
            unsigned char closer = top->kind == ML_JSON_DICT ? '}' : ']';
            if (r->pos < r->n && r->s[r->pos] == ',') {
                r->pos++;
                skip_ws(r);
                if (top->kind == ML_JSON_DICT && read_key(r))
                    return -1;
                break;  /* the next item */
            }
            if (r->pos >= r->n || r->s[r->pos] != closer)
                return fail_at(r, "Expecting ',' delimiter", r->pos);
        close:
            top = &r->j->tok[stack[depth - 1]];
            r->pos++;
            top->len = r->pos - top->start;
            top->end = r->j->ntok;
            depth--;
        }
    }
}

int ml__json_parse(ml_ctx *ctx, ml_json *j, const char *text, size_t len, const char *what,
                   int max_depth)
{
    memset(j, 0, sizeof *j);
    j->text = text;
    j->len = len;
    if (max_depth <= 0)
        max_depth = ML_JSON_MAX_DEPTH;
    size_t *stack = malloc((size_t)max_depth * sizeof *stack);
    if (!stack)
        return ml__fail(ctx, ML_M_NOMEM, "the JSON reader");
    reader r = {j, (const unsigned char *)(text ? text : ""), text ? len : 0, 0, NULL, 0, 0};
    int rc = parse(&r, stack, max_depth);
    free(stack);
    if (rc == 0)
        return ML_OK;
    ml__json_free(j);
    j->text = text;
    j->len = len;
    if (r.nomem)
        return ml__fail(ctx, ML_M_NOMEM, "the JSON reader");
    char reason[64];
    const char *why = r.reason;
    if (strcmp(why, "nesting too deep") == 0) {
        snprintf(reason, sizeof reason, "nesting deeper than %d levels", max_depth);
        why = reason;
    }
    return ml__fail(ctx, ML_M_JSON_SYNTAX, what ? what : "document", why,
                    (unsigned long long)r.err_pos);
}

void ml__json_free(ml_json *j)
{
    free(j->tok);
    j->tok = NULL;
    j->ntok = j->cap = 0;
}

size_t ml__json_item(const ml_json *j, size_t i, size_t k)
{
    if (i >= j->ntok || (j->tok[i].kind != ML_JSON_LIST && j->tok[i].kind != ML_JSON_DICT) ||
        k >= j->tok[i].count)
        return NONE;
    int dict = j->tok[i].kind == ML_JSON_DICT;
    size_t t = i + 1;
    for (size_t m = 0; m < k; m++)
        t = dict ? j->tok[j->tok[t].end].end : j->tok[t].end;
    return t;
}

size_t ml__json_get(const ml_json *j, size_t i, const char *key)
{
    if (i >= j->ntok || j->tok[i].kind != ML_JSON_DICT)
        return NONE;
    size_t found = NONE, t = i + 1;
    for (size_t m = 0; m < j->tok[i].count; m++) {
        size_t v = j->tok[t].end;
        if (ml__json_str_eq(j, t, key))
            found = v;
        t = j->tok[v].end;
    }
    return found;
}

/* Decode the string at token i, calling put(byte) for each byte of its UTF-8. */
#define DECODE_STR(j, i, PUT)                                                              \
    do {                                                                                   \
        const unsigned char *s_ = (const unsigned char *)(j)->text + (j)->tok[i].start;   \
        size_t n_ = (j)->tok[i].len;                                                       \
        for (size_t p_ = 0; p_ < n_;) {                                                    \
            unsigned char c_ = s_[p_];                                                     \
            if (c_ != '\\') {                                                              \
                PUT(c_);                                                                   \
                p_++;                                                                      \
                continue;                                                                  \
            }                                                                              \
            unsigned char e_ = s_[p_ + 1];                                                 \
            if (e_ != 'u') {                                                               \
                PUT(e_ == 'b' ? '\b' : e_ == 'f' ? '\f' : e_ == 'n' ? '\n' : e_ == 'r' ? '\r' \
                    : e_ == 't' ? '\t' : e_);                                              \
                p_ += 2;                                                                   \
                continue;                                                                  \
            }                                                                              \
            long cp_ = hex4(s_ + p_ + 2, 4);                                               \
            p_ += 6;                                                                       \
            if (cp_ >= 0xD800 && cp_ <= 0xDBFF && p_ + 5 < n_ + 0 && s_[p_] == '\\' &&    \
                s_[p_ + 1] == 'u') {                                                       \
                long lo_ = hex4(s_ + p_ + 2, 4);                                           \
                if (lo_ >= 0xDC00 && lo_ <= 0xDFFF) {                                      \
                    cp_ = 0x10000 + ((cp_ - 0xD800) << 10) + (lo_ - 0xDC00);               \
                    p_ += 6;                                                               \
                }                                                                          \
            }                                                                              \
            unsigned char u_[4];                                                           \
            size_t k_ = put_utf8(cp_, u_);                                                 \
            for (size_t q_ = 0; q_ < k_; q_++)                                             \
                PUT(u_[q_]);                                                               \
        }                                                                                  \
    } while (0)

static size_t put_utf8(long cp, unsigned char *u)
{
    if (cp < 0x80) {
        u[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        u[0] = (unsigned char)(0xC0 | (cp >> 6));
        u[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        u[0] = (unsigned char)(0xE0 | (cp >> 12));
        u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    u[0] = (unsigned char)(0xF0 | (cp >> 18));
    u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    u[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

int ml__json_str_eq(const ml_json *j, size_t i, const char *s)
{
    if (i >= j->ntok || j->tok[i].kind != ML_JSON_STR)
        return 0;
    size_t n = strlen(s);
    if (j->tok[i].count != n)
        return 0;
    if (!j->tok[i].esc)
        return memcmp(j->text + j->tok[i].start, s, n) == 0;
    size_t at = 0;
    int same = 1;
#define EQ_PUT(b)                                                                          \
    do {                                                                                   \
        if ((unsigned char)s[at++] != (unsigned char)(b))                                  \
            same = 0;                                                                      \
    } while (0)
    DECODE_STR(j, i, EQ_PUT);
#undef EQ_PUT
    return same;
}

size_t ml__json_str(const ml_json *j, size_t i, char *buf, size_t cap)
{
    if (i >= j->ntok || j->tok[i].kind != ML_JSON_STR) {
        if (cap)
            buf[0] = 0;
        return 0;
    }
    size_t at = 0;
#define BUF_PUT(b)                                                                         \
    do {                                                                                   \
        if (at + 1 < cap)                                                                  \
            buf[at] = (char)(b);                                                           \
        at++;                                                                              \
    } while (0)
    DECODE_STR(j, i, BUF_PUT);
#undef BUF_PUT
    if (cap)
        buf[at < cap ? at : cap - 1] = 0;
    return at;
}

const char *ml__json_type_name(const ml_json *j, size_t i)
{
    static const char *const names[] = {"NoneType", "bool", "int", "float", "str", "list", "dict"};
    return i < j->ntok && j->tok[i].kind <= ML_JSON_DICT ? names[j->tok[i].kind] : "NoneType";
}

/* ======================================================================== output */
typedef struct out {
    char *buf;
    size_t cap, len;
} out;

static void put(out *o, char c)
{
    if (o->len + 1 < o->cap)
        o->buf[o->len] = c;
    o->len++;
}

static void puts_n(out *o, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        put(o, s[k]);
}

static void puts_z(out *o, const char *s) { puts_n(o, s, strlen(s)); }

static size_t done(out *o)
{
    if (o->cap)
        o->buf[o->len < o->cap ? o->len : o->cap - 1] = 0;
    return o->len;
}

/* Python's repr of a float: the shortest %.{p}e that reads back as d, laid out as
 * float_repr_style 'short' does (fixed for 1e-4 <= |d| < 1e16, else d.ddde+XX). */
static void float_repr(out *o, double d)
{
    if (isnan(d)) {
        puts_z(o, "nan");
        return;
    }
    if (isinf(d)) {
        puts_z(o, d < 0 ? "-inf" : "inf");
        return;
    }
    char e[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, d);
        if (strtod(e, NULL) == d)
            break;
    }
    /* e: [-]D[.DDD]e[+-]XX */
    char digits[24];
    size_t nd = 0;
    const char *c = e;
    int neg = 0;
    if (*c == '-') {
        neg = 1;
        c++;
    }
    for (; *c && *c != 'e'; c++)
        if (*c != '.')
            digits[nd++] = *c;
    int x = atoi(c + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    if (neg)
        put(o, '-');
    if (x >= -4 && x < 16) {
        if (x < 0) {
            puts_z(o, "0.");
            for (int k = 0; k < -x - 1; k++)
                put(o, '0');
            puts_n(o, digits, nd);
        } else {
            for (int k = 0; k <= x; k++)
                put(o, (size_t)k < nd ? digits[k] : '0');
            put(o, '.');
            if ((size_t)x + 1 < nd)
                puts_n(o, digits + x + 1, nd - (size_t)x - 1);
            else
                put(o, '0');
        }
        return;
    }
    put(o, digits[0]);
    if (nd > 1) {
        put(o, '.');
        puts_n(o, digits + 1, nd - 1);
    }
    char ex[16];
    snprintf(ex, sizeof ex, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
    puts_z(o, ex);
}

size_t ml__json_float_repr(double d, char *buf, size_t cap)
{
    out o = {buf, cap, 0};
    float_repr(&o, d);
    return done(&o);
}

/* The code point of the UTF-8 (or 3-byte surrogate) sequence at s (n left; the reader
 * checked it), and its length in *k. */
static long code_point(const unsigned char *s, size_t n, size_t *k)
{
    unsigned char c = s[0];
    if (c < 0x80 || n < 2) {
        *k = 1;
        return c;
    }
    if (c < 0xE0) {
        *k = 2;
        return ((long)(c & 0x1F) << 6) | (s[1] & 0x3F);
    }
    if (c < 0xF0 || n < 4) {
        *k = n < 3 ? n : 3;
        return n < 3 ? c : ((long)(c & 0x0F) << 12) | ((long)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    }
    *k = 4;
    return ((long)(c & 0x07) << 18) | ((long)(s[1] & 0x3F) << 12) | ((long)(s[2] & 0x3F) << 6) |
           (s[3] & 0x3F);
}

/* Whether str.isprintable() holds for the code point (see json.h for how far). */
static int printable(long cp)
{
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD)
        return 0;
    if ((cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
        (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return 1;
}

/* Python's repr of a str given as UTF-8 bytes. */
static void str_repr(out *o, const unsigned char *s, size_t n)
{
    int single = 0, dbl = 0;
    for (size_t p = 0; p < n; p++) {
        single |= s[p] == '\'';
        dbl |= s[p] == '"';
    }
    char q = single && !dbl ? '"' : '\'';
    put(o, q);
    for (size_t p = 0; p < n;) {
        size_t k;
        long cp = code_point(s + p, n - p, &k);
        if (cp == q || cp == '\\') {
            put(o, '\\');
            put(o, (char)cp);
        } else if (cp == '\t')
            puts_z(o, "\\t");
        else if (cp == '\n')
            puts_z(o, "\\n");
        else if (cp == '\r')
            puts_z(o, "\\r");
        else if (printable(cp))
            puts_n(o, (const char *)s + p, k);
        else {
            char h[12];
            snprintf(h, sizeof h, cp < 0x100 ? "\\x%02lx" : cp < 0x10000 ? "\\u%04lx" : "\\U%08lx",
                     cp);
            puts_z(o, h);
        }
        p += k;
    }
    put(o, q);
}

/* repr of the value at token i (recursing over containers: the reader bounded the
 * depth). */
static void value_repr(out *o, const ml_json *j, size_t i)
{
    const ml_json_tok *t = &j->tok[i];
    char num[32];
    switch (t->kind) {
    case ML_JSON_NULL:
        puts_z(o, "None");
        return;
    case ML_JSON_BOOL:
        puts_z(o, t->v.i ? "True" : "False");
        return;
    case ML_JSON_INT:
        if (t->big) {
            size_t skip = 0;  /* "-0..." cannot be big */
            puts_n(o, j->text + t->start + skip, t->len - skip);
        } else {
            snprintf(num, sizeof num, "%lld", (long long)t->v.i);
            puts_z(o, num);
        }
        return;
    case ML_JSON_FLOAT:
        float_repr(o, t->v.f);
        return;
    case ML_JSON_STR: {
        if (!t->esc) {
            str_repr(o, (const unsigned char *)j->text + t->start, t->len);
            return;
        }
        char small[256], *b = small;
        if (t->count >= sizeof small && !(b = malloc(t->count + 1))) {
            puts_z(o, "'...'");
            return;
        }
        ml__json_str(j, i, b, t->count + 1);
        str_repr(o, (const unsigned char *)b, t->count);
        if (b != small)
            free(b);
        return;
    }
    default: {
        int dict = t->kind == ML_JSON_DICT;
        put(o, dict ? '{' : '[');
        size_t c = i + 1;
        for (size_t m = 0; m < t->count; m++) {
            if (m)
                puts_z(o, ", ");
            value_repr(o, j, c);
            c = j->tok[c].end;
            if (dict) {
                puts_z(o, ": ");
                value_repr(o, j, c);
                c = j->tok[c].end;
            }
        }
        put(o, dict ? '}' : ']');
    }
    }
}

size_t ml__json_repr(const ml_json *j, size_t i, char *buf, size_t cap)
{
    out o = {buf, cap, 0};
    if (i < j->ntok)
        value_repr(&o, j, i);
    return done(&o);
}

size_t ml__json_short(const ml_json *j, size_t i, char *buf, size_t cap)
{
    /* the first 61 characters of the repr decide (60 kept, or 57 and "..."); a
     * character is a code point: count UTF-8 lead bytes */
    char head[61 * 4 + 1];
    out o = {head, sizeof head, 0};
    if (i < j->ntok)
        value_repr(&o, j, i);
    size_t have = o.len < sizeof head ? o.len : sizeof head - 1;
    head[have] = 0;
    size_t chars = 0, cut57 = 0, end60 = have;
    for (size_t p = 0; p < have; p++) {
        if (((unsigned char)head[p] & 0xC0) == 0x80)
            continue;
        if (chars == 57)
            cut57 = p;
        if (chars == 60) {
            end60 = p;
            break;
        }
        chars++;
    }
    int longer = end60 < have || (o.len > have);  /* more than 60 characters */
    out r = {buf, cap, 0};
    if (!longer)
        puts_n(&r, head, have);
    else {
        puts_n(&r, head, cut57);
        puts_z(&r, "...");
    }
    /* repr has no newline of its own (containers print on one line; str escapes it) */
    return done(&r);
}

/* ======================================================================== the writer */
void ml__jw_init(ml_jw *w, char *buf, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->buf = buf;
    w->cap = cap;
}

static void wput(ml_jw *w, char c)
{
    if (w->len + 1 < w->cap)
        w->buf[w->len] = c;
    w->len++;
}

static void wputs(ml_jw *w, const char *s)
{
    for (; *s; s++)
        wput(w, *s);
}

/* Before a value: the comma, the state of the level. */
static void before_value(ml_jw *w)
{
    int d = w->depth;
    if (d == 0) {
        if (w->items[0])
            w->bad = 1;  /* a second top-level value */
        w->items[0] = 1;
        return;
    }
    if (w->dict[d]) {
        if (w->items[d] != 2)
            w->bad = 1;  /* a value without its key */
        w->items[d] = 1;
        return;
    }
    if (w->items[d])
        wput(w, ',');
    w->items[d] = 1;
}

static void open_container(ml_jw *w, int dict)
{
    before_value(w);
    wput(w, dict ? '{' : '[');
    if (w->depth == ML_JSON_MAX_DEPTH) {
        w->bad = 1;
        return;
    }
    w->depth++;
    w->items[w->depth] = 0;
    w->dict[w->depth] = (unsigned char)dict;
}

static void close_container(ml_jw *w, int dict)
{
    if (w->depth == 0 || w->dict[w->depth] != dict || (dict && w->items[w->depth] == 2))
        w->bad = 1;
    wput(w, dict ? '}' : ']');
    if (w->depth > 0)
        w->depth--;
}

void ml__jw_list(ml_jw *w) { open_container(w, 0); }
void ml__jw_end_list(ml_jw *w) { close_container(w, 0); }
void ml__jw_dict(ml_jw *w) { open_container(w, 1); }
void ml__jw_end_dict(ml_jw *w) { close_container(w, 1); }

static void write_str(ml_jw *w, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    wput(w, '"');
    for (size_t p = 0; p < n;) {
        unsigned char c = u[p];
        char h[32];
        if (c >= 0x20 && c < 0x7F) {
            if (c == '"' || c == '\\')
                wput(w, '\\');
            wput(w, (char)c);
            p++;
            continue;
        }
        const char *e = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                      : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
        if (e) {
            wputs(w, e);
            p++;
            continue;
        }
        size_t k;
        long cp = code_point(u + p, n - p, &k);
        if (cp >= 0x10000) {
            long v = cp - 0x10000;
            snprintf(h, sizeof h, "\\u%04lx\\u%04lx", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
        } else
            snprintf(h, sizeof h, "\\u%04lx", cp);
        wputs(w, h);
        p += k;
    }
    wput(w, '"');
}

void ml__jw_key(ml_jw *w, const char *s, size_t n)
{
    int d = w->depth;
    if (d == 0 || !w->dict[d] || w->items[d] == 2) {
        w->bad = 1;
        return;
    }
    if (w->items[d])
        wput(w, ',');
    write_str(w, s, n);
    wput(w, ':');
    w->items[d] = 2;
}

void ml__jw_null(ml_jw *w)
{
    before_value(w);
    wputs(w, "null");
}

void ml__jw_bool(ml_jw *w, int v)
{
    before_value(w);
    wputs(w, v ? "true" : "false");
}

void ml__jw_int(ml_jw *w, int64_t v)
{
    char num[32];
    before_value(w);
    snprintf(num, sizeof num, "%lld", (long long)v);
    wputs(w, num);
}

void ml__jw_uint(ml_jw *w, uint64_t v)
{
    char num[32];
    before_value(w);
    snprintf(num, sizeof num, "%llu", (unsigned long long)v);
    wputs(w, num);
}

void ml__jw_float(ml_jw *w, double v)
{
    before_value(w);
    if (isnan(v)) {
        wputs(w, "NaN");
        return;
    }
    if (isinf(v)) {
        wputs(w, v < 0 ? "-Infinity" : "Infinity");
        return;
    }
    char num[40];
    ml__json_float_repr(v, num, sizeof num);
    wputs(w, num);
}

void ml__jw_str(ml_jw *w, const char *s, size_t n)
{
    before_value(w);
    write_str(w, s, n);
}

/* A parsed string token written as JSON (decoded, then escaped as json.dumps does). */
static void jw_tok_str(ml_jw *w, const ml_json *j, size_t i)
{
    const ml_json_tok *t = &j->tok[i];
    if (!t->esc) {
        write_str(w, j->text + t->start, t->len);
        return;
    }
    char small[256], *b = small;
    if (t->count >= sizeof small && !(b = malloc(t->count + 1))) {
        w->bad = 1;
        return;
    }
    ml__json_str(j, i, b, t->count + 1);
    write_str(w, b, t->count);
    if (b != small)
        free(b);
}

void ml__jw_value(ml_jw *w, const ml_json *j, size_t i)
{
    if (i >= j->ntok) {
        w->bad = 1;
        return;
    }
    const ml_json_tok *t = &j->tok[i];
    switch (t->kind) {
    case ML_JSON_NULL:
        ml__jw_null(w);
        return;
    case ML_JSON_BOOL:
        ml__jw_bool(w, (int)t->v.i);
        return;
    case ML_JSON_INT:
        if (t->big) {
            before_value(w);
            for (size_t k = 0; k < t->len; k++)
                wput(w, j->text[t->start + k]);
        } else
            ml__jw_int(w, t->v.i);
        return;
    case ML_JSON_FLOAT:
        ml__jw_float(w, t->v.f);
        return;
    case ML_JSON_STR:
        before_value(w);
        jw_tok_str(w, j, i);
        return;
    default: {
        int dict = t->kind == ML_JSON_DICT;
        open_container(w, dict);
        size_t c = i + 1;
        for (size_t m = 0; m < t->count; m++) {
            if (dict) {
                if (w->items[w->depth])
                    wput(w, ',');
                jw_tok_str(w, j, c);
                wput(w, ':');
                w->items[w->depth] = 2;
                c = j->tok[c].end;
            }
            ml__jw_value(w, j, c);
            c = j->tok[c].end;
        }
        close_container(w, dict);
    }
    }
}

size_t ml__jw_finish(ml_jw *w)
{
    if (w->cap)
        w->buf[w->len < w->cap ? w->len : w->cap - 1] = 0;
    if (w->bad || w->depth != 0 || !w->items[0])
        return NONE;
    return w->len;
}
