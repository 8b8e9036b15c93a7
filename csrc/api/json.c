/* json.c: the strict JSON reader of the C API (see json.h): the tokens, the access to
 * them and the decoding of strings. Its pieces: json_repr.c (Python's repr of values)
 * and json_write.c (the writer); json_impl.h holds what they share. */
#include "api/json.h"
#include "api/ctx.h"
#include "api/json_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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
