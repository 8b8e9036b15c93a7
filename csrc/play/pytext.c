/* pytext.c: Python's str rules that messages and parsers need to answer as Python does:
 * reading a str handed over as UTF-8, repr(), strip() and re's \d. The Unicode tables
 * (pytext_data.h) are written by gen_pytext.py from Python's unicodedata. See play.h. */
#include "play/play.h"

#include <stdio.h>
#include <string.h>

#include "play/pytext_data.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A continuation byte 10xxxxxx. */
static int cont(unsigned char b) { return (b & 0xc0) == 0x80; }

uint32_t ml__utf8_next(const char *text, size_t n, size_t *i)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t k = *i;
    unsigned char b = s[k];
    if (b < 0x80) {
        *i = k + 1;
        return b;
    }
    if (b == 0xc0 && k + 1 < n && s[k + 1] == 0x80) {  /* modified UTF-8's NUL */
        *i = k + 2;
        return 0;
    }
    if (b >= 0xc2 && b <= 0xdf && k + 1 < n && cont(s[k + 1])) {
        *i = k + 2;
        return (uint32_t)(b & 0x1f) << 6 | (s[k + 1] & 0x3f);
    }
    if (b >= 0xe0 && b <= 0xef && k + 2 < n && cont(s[k + 1]) && cont(s[k + 2])) {
        uint32_t cp = (uint32_t)(b & 0x0f) << 12 | (uint32_t)(s[k + 1] & 0x3f) << 6
                      | (s[k + 2] & 0x3f);
        if (cp >= 0x800) {  /* surrogates included: "surrogatepass" */
            *i = k + 3;
            return cp;
        }
    }
    if (b >= 0xf0 && b <= 0xf4 && k + 3 < n && cont(s[k + 1]) && cont(s[k + 2])
        && cont(s[k + 3])) {
        uint32_t cp = (uint32_t)(b & 0x07) << 18 | (uint32_t)(s[k + 1] & 0x3f) << 12
                      | (uint32_t)(s[k + 2] & 0x3f) << 6 | (s[k + 3] & 0x3f);
        if (cp >= 0x10000 && cp <= 0x10ffff) {
            *i = k + 4;
            return cp;
        }
    }
    *i = k + 1;  /* "surrogateescape": the byte alone */
    return 0xdc00 + b;
}

int ml__py_isprintable(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 0x20 && cp < 0x7f;
    size_t lo = 0, hi = COUNT(ml_pytext_hidden);  /* the first range ending at or after cp */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ml_pytext_hidden[mid][1] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return !(lo < COUNT(ml_pytext_hidden) && ml_pytext_hidden[lo][0] <= cp);
}

int ml__py_isspace(uint32_t cp)
{
    if (cp < 0x80)
        return cp == ' ' || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f);
    for (size_t i = 0; i < COUNT(ml_pytext_spaces); i++)
        if (ml_pytext_spaces[i] == cp)
            return 1;
    return 0;
}

int ml__py_decimal(uint32_t cp)
{
    if (cp >= '0' && cp <= '9')
        return (int)(cp - '0');
    for (size_t i = 0; i < COUNT(ml_pytext_zeros); i++)
        if (cp >= ml_pytext_zeros[i] && cp < ml_pytext_zeros[i] + 10)
            return (int)(cp - ml_pytext_zeros[i]);
    return -1;
}

void ml__py_strip(const char *s, size_t n, size_t *a, size_t *b)
{
    size_t i = 0, first = n, end = n;
    while (i < n) {
        size_t at = i;
        if (!ml__py_isspace(ml__utf8_next(s, n, &i))) {
            if (first == n)
                first = at;
            end = i;
        }
    }
    *a = first == n ? n : first;
    *b = first == n ? n : end;
}

/* The output of ml__py_repr: snprintf's convention over buf[0..cap). */
typedef struct {
    char *buf;
    size_t cap, len;
} out_t;

static void put(out_t *o, const char *p, size_t k)
{
    if (o->len < o->cap) {
        size_t room = o->cap - 1 - o->len;
        memcpy(o->buf + o->len, p, k < room ? k : room);
    }
    o->len += k;
}

/* cp as UTF-8 (a printable code point: never a surrogate). */
static void put_utf8(out_t *o, uint32_t cp)
{
    char u[4];
    size_t k;
    if (cp < 0x800) {
        u[0] = (char)(0xc0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3f));
        k = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12);
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        k = 3;
    } else {
        u[0] = (char)(0xf0 | cp >> 18);
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        k = 4;
    }
    put(o, u, k);
}

size_t ml__py_repr(const char *s, size_t n, char *buf, size_t cap)
{
    out_t o = {buf, cap, 0};
    int squote = 0, dquote = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp = ml__utf8_next(s, n, &i);
        squote |= cp == '\'';
        dquote |= cp == '"';
    }
    char q = squote && !dquote ? '"' : '\'';
    put(&o, &q, 1);
    for (size_t i = 0; i < n;) {
        uint32_t cp = ml__utf8_next(s, n, &i);
        char e[12];
        if (cp == (uint32_t)q || cp == '\\') {
            e[0] = '\\';
            e[1] = (char)cp;
            put(&o, e, 2);
        } else if (cp == '\t') {
            put(&o, "\\t", 2);
        } else if (cp == '\n') {
            put(&o, "\\n", 2);
        } else if (cp == '\r') {
            put(&o, "\\r", 2);
        } else if (cp < 0x80 && ml__py_isprintable(cp)) {
            e[0] = (char)cp;
            put(&o, e, 1);
        } else if (ml__py_isprintable(cp)) {
            put_utf8(&o, cp);
        } else if (cp <= 0xff) {
            snprintf(e, sizeof e, "\\x%02x", (unsigned)cp);
            put(&o, e, 4);
        } else if (cp <= 0xffff) {
            snprintf(e, sizeof e, "\\u%04x", (unsigned)cp);
            put(&o, e, 6);
        } else {
            snprintf(e, sizeof e, "\\U%08x", (unsigned)cp);
            put(&o, e, 10);
        }
    }
    put(&o, &q, 1);
    if (cap)
        buf[o.len < cap ? o.len : cap - 1] = 0;
    return o.len;
}
