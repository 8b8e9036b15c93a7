/* json_repr.c: Python's repr of JSON values and floats, for messages (json.h:
 * ml__json_repr, ml__json_short, ml__json_float_repr). A piece of json.c. */
#include "api/json.h"
#include "api/json_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A dict's key, decoded (points into the text when it holds no escapes). */
typedef struct dkey {
    const char *s;
    size_t n, m, value;   /* bytes; the pair's place; its value's token */
    char *own;            /* malloc'ed when decoded */
} dkey;

static int dkey_cmp(const void *x, const void *y)
{
    const dkey *a = x, *b = y;
    size_t n = a->n < b->n ? a->n : b->n;
    int c = memcmp(a->s, b->s, n);
    if (c)
        return c;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    return a->m < b->m ? -1 : a->m > b->m;
}

/* What json.loads makes of the dict at token i, for its repr: for pair m, the value
 * token to show (the last value of its key: Python's dict keeps the first key's place
 * and the last value), or NONE when the key came earlier. NULL when no key repeats, or
 * when out of memory (every pair is then shown). O(pairs log pairs). */
static size_t *dict_values(const ml_json *j, size_t i)
{
    size_t k = j->tok[i].count;
    if (k < 2)
        return NULL;
    dkey *keys = calloc(k, sizeof *keys);
    size_t *shown = malloc(k * sizeof *shown);
    int ok = keys && shown, repeated = 0;
    size_t c = i + 1;
    for (size_t m = 0; ok && m < k; m++) {
        const ml_json_tok *kt = &j->tok[c];
        keys[m].m = m;
        keys[m].value = kt->end;
        keys[m].n = kt->count;
        if (!kt->esc) {
            keys[m].s = j->text + kt->start;
        } else if ((keys[m].own = malloc(kt->count + 1))) {
            ml__json_str(j, c, keys[m].own, kt->count + 1);
            keys[m].s = keys[m].own;
        } else {
            ok = 0;
        }
        c = j->tok[kt->end].end;
    }
    if (ok) {
        qsort(keys, k, sizeof *keys, dkey_cmp);
        for (size_t g = 0; g < k;) {   /* a group of equal keys, in document order */
            size_t h = g + 1;
            while (h < k && keys[h].n == keys[g].n && !memcmp(keys[h].s, keys[g].s, keys[g].n))
                h++;
            repeated |= h - g > 1;
            shown[keys[g].m] = keys[h - 1].value;
            for (size_t q = g + 1; q < h; q++)
                shown[keys[q].m] = NONE;
            g = h;
        }
    }
    for (size_t m = 0; keys && m < k; m++)
        free(keys[m].own);
    free(keys);
    if (!ok || !repeated) {
        free(shown);
        return NULL;
    }
    return shown;
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
        size_t *shown = dict ? dict_values(j, i) : NULL;
        put(o, dict ? '{' : '[');
        size_t c = i + 1;
        int first = 1;
        for (size_t m = 0; m < t->count; m++) {
            size_t key = c;
            if (dict)
                c = j->tok[c].end;   /* the value */
            size_t show = shown ? shown[m] : c;
            if (show != NONE) {
                if (!first)
                    puts_z(o, ", ");
                first = 0;
                value_repr(o, j, key);
                if (dict) {
                    puts_z(o, ": ");
                    value_repr(o, j, show);
                }
            }
            c = j->tok[c].end;
        }
        free(shown);
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
