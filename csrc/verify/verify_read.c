/* verify_read.c: the certificate's JSON values as Python's checker reads them (data.py: _field,
 * _int, _ints) and the pieces of its messages (Python's type names and repr, from the
 * library's JSON reader). See verify_impl.h. */
#include "verify/verify_impl.h"
#include "base/interrupt.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cut s to `chars` UTF-8 characters (Python's str slicing). */
static void cut_chars(char *s, size_t chars)
{
    size_t seen = 0;
    for (size_t i = 0; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (seen == chars) {
                s[i] = '\0';
                return;
            }
            seen++;
        }
    }
}

static int vfail(mv *v, size_t chars, const char *fmt, va_list ap)
{
    if (v->rc == ML_OK) {
        vsnprintf(v->msg, sizeof v->msg, fmt, ap);
        if (chars)
            cut_chars(v->msg, chars);
        v->rc = ML_EINVAL;
    }
    return v->rc;
}

int mv_fail(mv *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(v, 0, fmt, ap);
    va_end(ap);
    return rc;
}

int mv_fail_cut(mv *v, size_t chars, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(v, chars, fmt, ap);
    va_end(ap);
    return rc;
}

int mv_nomem(mv *v)
{
    if (v->rc == ML_OK)
        v->rc = ML_ENOMEM;
    return v->rc;
}

int mv_poll(mv *v)
{
    if (v->rc == ML_OK && ml_interrupt_poll())
        v->rc = ML_EINTERRUPTED;
    return v->rc;
}

char *mv_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

/* ---------------------------------------------------------------- values */
const char *mv_type(const mv *v, size_t t)
{
    return t == MV_NONE ? "NoneType" : ml__json_type_name(v->j, t);
}

const char *mv_repr(const mv *v, size_t t, char *buf, size_t cap)
{
    if (t == MV_NONE)
        snprintf(buf, cap, "None");
    else
        ml__json_repr(v->j, t, buf, cap);
    return buf;
}

int mv_is_int(const mv *v, size_t t) { return t != MV_NONE && v->j->tok[t].kind == ML_JSON_INT; }
int mv_is_list(const mv *v, size_t t) { return t != MV_NONE && v->j->tok[t].kind == ML_JSON_LIST; }
int mv_is_dict(const mv *v, size_t t) { return t != MV_NONE && v->j->tok[t].kind == ML_JSON_DICT; }

int mv_is_str(const mv *v, size_t t, const char *s)
{
    return t != MV_NONE && v->j->tok[t].kind == ML_JSON_STR && ml__json_str_eq(v->j, t, s);
}

size_t mv_get(const mv *v, size_t d, const char *key)
{
    return mv_is_dict(v, d) ? ml__json_get(v->j, d, key) : MV_NONE;
}

size_t mv_first(const mv *v, size_t t) { return v->j->tok[t].count ? t + 1 : MV_NONE; }
size_t mv_next(const mv *v, size_t t) { return ml__json_next(v->j, t); }
size_t mv_count(const mv *v, size_t t) { return v->j->tok[t].count; }

mv_int mv_int_of(const mv *v, size_t t)
{
    const ml_json_tok *k = &v->j->tok[t];
    mv_int a = {k->v.i, k->big, 0, v->j->text + k->start, k->len};
    a.neg = a.big ? a.text[0] == '-' : a.i < 0;
    return a;
}

/* Compare two big texts of one sign (no leading zeros in JSON: longer is larger). */
static int cmp_text(mv_int a, mv_int b)
{
    if (a.len != b.len)
        return a.len < b.len ? -1 : 1;
    int c = memcmp(a.text, b.text, a.len);
    return c < 0 ? -1 : c > 0;
}

int mv_int_cmp(mv_int a, mv_int b)
{
    if (a.neg != b.neg)
        return a.neg ? -1 : 1;
    if (!a.big && !b.big)
        return a.i < b.i ? -1 : a.i > b.i;
    if (a.big && b.big)
        return a.neg ? -cmp_text(a, b) : cmp_text(a, b);
    /* one beyond int64: further from 0 */
    int s = a.big ? 1 : -1;
    return a.neg ? -s : s;
}

int mv_int_cmp64(mv_int a, int64_t b)
{
    mv_int x = {b, 0, b < 0, NULL, 0};
    return mv_int_cmp(a, x);
}

const char *mv_int_text(mv_int a, char *buf, size_t cap)
{
    if (a.big)
        snprintf(buf, cap, "%.*s", (int)(a.len < cap ? a.len : cap - 1), a.text);
    else
        snprintf(buf, cap, "%" PRId64, a.i);
    return buf;
}

/* ---------------------------------------------------------------- Python's readers */
int mv_field(mv *v, size_t d, const char *key, const char *what, size_t *out)
{
    if (!mv_is_dict(v, d))
        return mv_fail(v, "%s must be a JSON object, got %s", what, mv_type(v, d));
    size_t t = ml__json_get(v->j, d, key);
    if (t == MV_NONE)
        return mv_fail(v, "%s has no field '%s'", what, key);
    *out = t;
    return ML_OK;
}

int mv_int_in(mv *v, size_t t, const char *what, int64_t lo, int64_t hi, int has_hi,
              mv_int *out)
{
    if (!mv_is_int(v, t))
        return mv_fail(v, "%s must be an integer, got %s", what, mv_type(v, t));
    mv_int a = mv_int_of(v, t);
    if (mv_int_cmp64(a, lo) < 0 || (has_hi && mv_int_cmp64(a, hi) > 0)) {
        char val[200];
        mv_int_text(a, val, sizeof val);
        if (has_hi)
            return mv_fail(v, "%s must be in %" PRId64 "..%" PRId64 ", got %s", what, lo, hi,
                           val);
        return mv_fail(v, "%s must be >= %" PRId64 ", got %s", what, lo, val);
    }
    *out = a;
    return ML_OK;
}

int mv_ints(mv *v, size_t t, const char *what, int64_t length, int64_t lo, int64_t hi,
            uint8_t *out8, int64_t *out64, size_t *count)
{
    if (!mv_is_list(v, t))
        return mv_fail(v, "%s must be a list of integers, got %s", what, mv_type(v, t));
    size_t len = mv_count(v, t);
    if (length >= 0 && (int64_t)len != length)
        return mv_fail(v, "%s has %zu entries, expected %" PRId64, what, len, length);
    size_t i = 0;
    for (size_t e = t + 1; i < len; e = mv_next(v, e), i++)
        if (!mv_is_int(v, e))
            return mv_fail(v, "%s must hold integers only, found %s", what, mv_type(v, e));
    i = 0;
    for (size_t e = len ? t + 1 : MV_NONE; i < len; e = mv_next(v, e), i++) {
        mv_int a = mv_int_of(v, e);
        if (mv_int_cmp64(a, lo) < 0 || mv_int_cmp64(a, hi) > 0) {
            char val[200];
            return mv_fail(v, "%s[%zu] = %s is outside %" PRId64 "..%" PRId64, what, i,
                           mv_int_text(a, val, sizeof val), lo, hi);
        }
        if (out8)
            out8[i] = (uint8_t)a.i;
        if (out64)
            out64[i] = a.i;
    }
    if (count)
        *count = len;
    return ML_OK;
}

int mv_lower_upper(mv *v, size_t cert, mv_int *L, mv_int *U, char *lt, char *ut, size_t cap)
{
    size_t t;
    if (mv_field(v, cert, "lower", "certificate", &t) || mv_int_in(v, t, "lower", 0, 0, 0, L) ||
        mv_field(v, cert, "upper", "certificate", &t) || mv_int_in(v, t, "upper", 0, 0, 0, U))
        return v->rc;
    mv_int_text(*L, lt, cap);
    mv_int_text(*U, ut, cap);
    if (mv_int_cmp(*L, *U) > 0)
        return mv_fail(v, "lower %s > upper %s", lt, ut);
    return ML_OK;
}

void mv_value_text(mv_int L, mv_int U, const char *lt, const char *ut, char *out, size_t cap)
{
    if (mv_int_cmp(L, U))
        snprintf(out, cap, "between %s and %s", lt, ut);
    else
        snprintf(out, cap, "exactly %s", lt);
}
