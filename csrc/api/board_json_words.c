/* board_json_words.c: Board.grid's pattern argument read in the constructors' words
 * (board_json_impl.h: ml__pattern_words), for the readers of grid documents that model/board.py
 * (Board.grid) and the WebAssembly layer (Board.grid, generate) write from their
 * arguments' plain values: patterns.parse_pattern's and parse_mixed's checks, order and
 * messages, unlike from_dict's (board_json.c), which refuse floats and check a mixed
 * map's shape whole first. */
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
