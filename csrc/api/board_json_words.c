/* board_json_words.c: Board.grid's pattern argument and its locked / holes positions read
 * in the constructors' words (board_json_impl.h: ml__json_is_mixed, ml__pattern_words,
 * ml__marks_words), for the readers of grid documents that model/board.py (Board.grid)
 * and the WebAssembly layer (Board.grid, generate) write from their arguments' plain
 * values: patterns.parse_pattern's and parse_mixed's checks, order and messages, and
 * Board.grid's position checks, unlike from_dict's (board_json.c), which refuse floats,
 * check a mixed map's shape whole first and every position before marking any. */
#include "api/board_json_impl.h"
#include "api/ctx.h"
#include "api/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wr {
    ml_ctx *ctx;
    const ml_json *j;
    int64_t dr[ML_MAX_OFFSETS], dc[ML_MAX_OFFSETS];
    char brief[248];   /* a short repr: 60 characters of at most 4 bytes */
} wr;

static const ml_json_tok *tk(const wr *w, size_t i) { return &w->j->tok[i]; }
static int is_kind(const wr *w, size_t i, int kind) { return tk(w, i)->kind == kind; }
static size_t next(const wr *w, size_t i) { return ml__json_next(w->j, i); }

/* ------------------------------------------------------------------ mixed maps */
static const ml_json_tok *tok(const ml_json *j, size_t i) { return &j->tok[i]; }
static int jkind(const ml_json *j, size_t i, int kind) { return tok(j, i)->kind == kind; }
static int jlist(const ml_json *j, size_t i) { return jkind(j, i, ML_JSON_LIST); }
static size_t item1(size_t i) { return i + 1; }

/* patterns._is_scalar of a JSON value: int(v) works and v is not a str or a sized
 * container (ints, bools, finite floats). */
static int is_scalar(const ml_json *j, size_t i)
{
    const ml_json_tok *t = tok(j, i);
    if (t->kind == ML_JSON_FLOAT)
        return t->v.f == t->v.f && t->v.f - t->v.f == 0;   /* NaN, inf: int() fails */
    return t->kind == ML_JSON_INT || t->kind == ML_JSON_BOOL;
}

/* list(v) of a JSON value: a list's items or a dict's keys; 0 for the others (TypeError;
 * strings are handled by the callers). *count: their number, *first: the first. */
typedef struct key_span {
    const char *s;
    size_t n;
} key_span;

static int key_cmp(const void *a, const void *b)
{
    const key_span *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* The distinct keys of the dict at d (len(dict): a key given twice counts once).
 * O(pairs log pairs); the pairs when memory runs out (the caller then compares a count
 * that can only be too large, as Python never sees). */
static size_t distinct_keys(const ml_json *j, size_t d)
{
    size_t p = tok(j, d)->count, total = 0, k, i = 0, distinct = p;
    if (p < 2)
        return p;
    for (k = item1(d); k < tok(j, d)->end; k = ml__json_next(j, ml__json_next(j, k)))
        total += tok(j, k)->count + 1;
    char *buf = malloc(total);
    key_span *a = malloc(p * sizeof *a);
    if (buf && a) {
        char *at = buf;
        for (k = item1(d); k < tok(j, d)->end; k = ml__json_next(j, ml__json_next(j, k)), i++) {
            a[i].s = at;
            a[i].n = ml__json_str(j, k, at, tok(j, k)->count + 1);
            at += a[i].n + 1;
        }
        qsort(a, p, sizeof *a, key_cmp);
        distinct = 1;
        for (i = 1; i < p; i++)
            distinct += key_cmp(&a[i - 1], &a[i]) != 0;
    }
    free(buf);
    free(a);
    return distinct;
}

static int iterable(const ml_json *j, size_t i, size_t *count, size_t *first)
{
    if (!jlist(j, i) && !jkind(j, i, ML_JSON_DICT))
        return 0;
    *count = jlist(j, i) ? tok(j, i)->count : distinct_keys(j, i);
    *first = item1(i);   /* a dict's first key: its first place counts */
    return 1;
}

int ml__json_is_mixed(const ml_json *j, size_t v, int64_t rows, int64_t cols)
{
    if ((int64_t)tok(j, v)->count != rows || rows == 0)
        return 0;
    size_t first = item1(v), n, inner;
    if (jkind(j, first, ML_JSON_STR) || !iterable(j, first, &n, &inner))
        return 0;
    if ((int64_t)n != cols || cols == 0)
        return 0;
    size_t cell = inner, sub;   /* a dict's first key is a string: a name */
    if (jkind(j, cell, ML_JSON_STR))
        return 1;
    if (!iterable(j, cell, &n, &sub))
        return 0;
    return n == 0 || !is_scalar(j, sub);
}

/* patterns.parse_pattern of a name: the pattern's id, or its message. */
static int name_id(wr *w, size_t s, int *id)
{
    size_t n = tk(w, s)->count;
    char *name = malloc(n + 1), text[ML_ERRMSG_MAX];
    if (!name)
        return ml__fail(w->ctx, ML_M_NOMEM, "ml__pattern_words");
    ml__json_str(w->j, s, name, n + 1);
    int ok = memchr(name, 0, n) == NULL && ml_pattern_lookup(w->ctx, name, id) == ML_OK;
    free(name);
    if (ok)
        return ML_OK;
    ml__json_repr(w->j, s, text, sizeof text);
    return ml__fail(w->ctx, ML_M_PATTERN_UNKNOWN, text);
}

/* One offset component (validation.as_int with floats): an int, or a finite integral
 * float; *big: 1 for an int past int64, 2 for a float past +-9e18 (printed by digits). */
static int component(const wr *w, size_t i, int64_t *v, int *big)
{
    const ml_json_tok *t = tk(w, i);
    *big = 0;
    *v = 0;
    if (t->kind == ML_JSON_INT) {
        if (t->big)
            *big = 1;
        else
            *v = t->v.i;
        return 1;
    }
    double f = t->v.f;
    if (t->kind != ML_JSON_FLOAT || f != f || f - f != 0)
        return 0;   /* not a number, NaN or an infinity */
    if (f > 9e18 || f < -9e18) {
        *big = 2;   /* integral at this size */
        return 1;
    }
    *v = (int64_t)f;
    return (double)*v == f;
}

/* The digits of a component `component` accepted, as Python prints the int. */
static const char *digits(const wr *w, size_t i, int64_t v, int big, char *buf, size_t cap)
{
    const ml_json_tok *t = tk(w, i);
    if (big == 2) {
        snprintf(buf, cap, "%.0f", t->v.f);
    } else if (big) {
        size_t n = t->len < cap - 1 ? t->len : cap - 1;
        memcpy(buf, w->j->text + t->start, n);
        buf[n] = 0;
    } else {
        snprintf(buf, cap, "%lld", (long long)v);
    }
    return buf;
}

/* patterns.parse_pattern of a value that is not a name, in its order: the value's kind,
 * at most ML_MAX_OFFSETS items, then pair by pair its shape and ints, then its reach.
 * The offsets into w->dr / w->dc, *count of them. */
static int offsets(wr *w, size_t e, size_t *count)
{
    if (!is_kind(w, e, ML_JSON_LIST))
        return ml__fail(w->ctx, ML_M_JSON_WORDS_PATTERN_TYPE, ml__json_type_name(w->j, e));
    if (tk(w, e)->count > ML_MAX_OFFSETS)
        return ml__fail(w->ctx, ML_M_TOO_MANY_ITEMS, "pattern", (long long)ML_MAX_OFFSETS);
    size_t k = 0;
    for (size_t p = e + 1; p < tk(w, e)->end; p = next(w, p), k++) {
        size_t a = p + 1, b = is_kind(w, p, ML_JSON_LIST) && tk(w, p)->count ? next(w, a) : a;
        int64_t x = 0, y = 0;
        int bx = 0, by = 0;
        if (!is_kind(w, p, ML_JSON_LIST) || tk(w, p)->count != 2 || !component(w, a, &x, &bx)
            || !component(w, b, &y, &by)) {
            ml__json_short(w->j, p, w->brief, sizeof w->brief);
            return ml__fail(w->ctx, ML_M_JSON_WORDS_OFFSETS_ENTRY, w->brief);
        }
        if (bx || by || x > ML_MAX_REACH || x < -ML_MAX_REACH || y > ML_MAX_REACH
            || y < -ML_MAX_REACH) {
            char sx[ML_ERRMSG_MAX / 2 - 64], sy[ML_ERRMSG_MAX / 2 - 64], text[ML_ERRMSG_MAX];
            snprintf(text, sizeof text, "pattern offset (%s, %s) reaches further than %d tiles",
                     digits(w, a, x, bx, sx, sizeof sx), digits(w, b, y, by, sy, sizeof sy),
                     ML_MAX_REACH);
            return ml__fail_text(w->ctx, ML_ERANGE, ML_M_PATTERN_REACH, text);
        }
        w->dr[k] = x;
        w->dc[k] = y;
    }
    *count = k;
    return ML_OK;
}

/* parse_mixed's checks, row by row: the row's kind, its length, its entries. */
static int check_mixed(wr *w, size_t v, int64_t cols)
{
    int64_t y = 0, rows = (int64_t)tk(w, v)->count;
    for (size_t row = v + 1; row < tk(w, v)->end; row = next(w, row), y++) {
        if (is_kind(w, row, ML_JSON_STR))
            return ml__fail(w->ctx, ML_M_JSON_WORDS_ROW_TYPE, (long long)y, (long long)cols);
        if (!is_kind(w, row, ML_JSON_LIST))
            return ml__fail(w->ctx, ML_M_JSON_MIXED_ROW, (long long)rows, (long long)cols,
                            ml__json_type_name(w->j, row));
        if ((int64_t)tk(w, row)->count != cols)
            return ml__fail(w->ctx, ML_M_MIXED_ROW_LENGTH, (long long)y,
                            (long long)tk(w, row)->count, (long long)cols);
        for (size_t e = row + 1; e < tk(w, row)->end; e = next(w, e)) {
            int id = 0, rc;
            size_t count = 0;
            if ((rc = is_kind(w, e, ML_JSON_STR) ? name_id(w, e, &id) : offsets(w, e, &count)))
                return rc;
        }
    }
    return ML_OK;
}

/* The mixed map, checked, as a palette and a palette index a tile. */
static int set_mixed(wr *w, size_t v, int64_t cols, ml_grid *g)
{
    int rc = check_mixed(w, v, cols);
    if (rc)
        return rc;
    uint32_t ids[ML_PATTERN_COUNT];
    for (int k = 0; k < ML_PATTERN_COUNT; k++)
        ids[k] = UINT32_MAX;
    uint32_t *index = malloc((tk(w, v)->count * (size_t)cols) * sizeof *index), *at = index;
    if (!index)
        return ml__fail(w->ctx, ML_M_NOMEM, "ml__pattern_words");
    for (size_t row = v + 1; !rc && row < tk(w, v)->end; row = next(w, row))
        for (size_t e = row + 1; !rc && e < tk(w, row)->end; e = next(w, e), at++) {
            int id = 0;
            size_t count = 0;
            if (!is_kind(w, e, ML_JSON_STR)) {
                if (!(rc = offsets(w, e, &count)))
                    rc = ml_grid_palette_add_offsets(w->ctx, g, count, w->dr, w->dc, at);
            } else if (!(rc = name_id(w, e, &id))) {
                if (ids[id] == UINT32_MAX)
                    rc = ml_grid_palette_add(w->ctx, g, id, &ids[id]);
                *at = ids[id];
            }
        }
    if (!rc)
        rc = ml_grid_set_mixed(w->ctx, g, index);
    free(index);
    return rc;
}

int ml__pattern_words(ml_ctx *ctx, const ml_json *j, size_t v, int mixed, int64_t cols,
                      ml_grid *g)
{
    wr *w = malloc(sizeof *w);
    if (!w)
        return ml__fail(ctx, ML_M_NOMEM, "ml__pattern_words");
    w->ctx = ctx;
    w->j = j;
    int rc, id = 0;
    size_t count = 0;
    if (is_kind(w, v, ML_JSON_STR)) {
        if (!(rc = name_id(w, v, &id)))
            rc = ml_grid_set_pattern(ctx, g, id);
    } else if (mixed)
        rc = set_mixed(w, v, cols, g);
    else if (!(rc = offsets(w, v, &count)))
        rc = ml_grid_set_offsets(ctx, g, count, w->dr, w->dc);
    free(w);
    return rc;
}

/* One position item at p checked and marked (ml__marks_words). */
static int mark_words(wr *w, size_t p, int holes, int64_t rows, int64_t cols, ml_grid *g)
{
    const char *what = holes ? "holes" : "locked";
    size_t a = p + 1, b = is_kind(w, p, ML_JSON_LIST) && tk(w, p)->count ? next(w, a) : a;
    int64_t r = 0, c = 0;
    int br = 0, bc = 0;
    if (!is_kind(w, p, ML_JSON_LIST) || tk(w, p)->count != 2 || !component(w, a, &r, &br)
        || !component(w, b, &c, &bc)) {
        ml__json_short(w->j, p, w->brief, sizeof w->brief);
        return ml__fail(w->ctx, ML_M_JSON_WORDS_POSITION_ENTRY, what, w->brief);
    }
    if (br || bc) {   /* past int64: off the board, shown by its digits */
        char sr[ML_ERRMSG_MAX / 2 - 64], sc[ML_ERRMSG_MAX / 2 - 64], text[ML_ERRMSG_MAX];
        snprintf(text, sizeof text, "%s (%s, %s) is off the board: rows 0..%lld, cols 0..%lld",
                 what, digits(w, a, r, br, sr, sizeof sr), digits(w, b, c, bc, sc, sizeof sc),
                 (long long)rows - 1, (long long)cols - 1);
        return ml__fail_text(w->ctx, ML_ERANGE, ML_M_OFF_BOARD, text);
    }
    return holes ? ml_grid_hole(w->ctx, g, r, c) : ml_grid_lock(w->ctx, g, r, c);
}

int ml__marks_words(ml_ctx *ctx, const ml_json *j, size_t v, int holes, int64_t rows,
                    int64_t cols, ml_grid *g)
{
    wr *w = malloc(sizeof *w);
    if (!w)
        return ml__fail(ctx, ML_M_NOMEM, "ml__marks_words");
    w->ctx = ctx;
    w->j = j;
    int rc = ML_OK;
    for (size_t p = v + 1; !rc && p < tk(w, v)->end; p = next(w, p))
        rc = mark_words(w, p, holes, rows, cols, g);
    free(w);
    return rc;
}
