/* json_write.c: the JSON writer of the C API (json.h: ml__jw_*), json.dumps' text with
 * separators=(",", ":"). A piece of json.c. */
#include "api/json.h"
#include "api/json_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
