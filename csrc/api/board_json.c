/* board_json.c: boards as JSON (modlights.h: ml_board_from_json, ml_board_to_json).
 *
 * The one wire format of a board: what Python's Board.to_dict writes and
 * Board.from_dict reads (model/board_dict.py), with its rules and its messages
 * character for character, so that the web service, the npm package and C programs
 * accept and refuse the same documents:
 *
 *   grids:        {"rows", "cols", "states", "pattern", "locked", "holes", "wrap"}
 *   graph boards: {"effects", "states", "n_cells"}
 *
 * Reading checks each field in from_dict's order before anything large is allocated
 * (the size against max_tiles first), then builds through the grid builder and
 * ml_board_from_effects, whose own checks give Board.grid's and Board.from_effects'
 * messages. A message about a field is prefixed by the field's name unless it names
 * it already (validation.field_error). JSON values are Python's: ints (of any size: a
 * big one is refused with its digits), floats, bools (never ints here), strings, lists,
 * dicts (the last of a repeated key wins), null (None).
 *
 * Writing follows board_dict.board_to_dict and json.dumps(..., separators=(",", ":")). */
#include "api/board.h"
#include "api/ctx.h"
#include "api/board_json.h"
#include "api/board_json_impl.h"
#include "api/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

static const char *const grid_fields[] = {"rows",   "cols",  "states", "pattern",
                                          "locked", "holes", "wrap",   NULL};
static const char *const graph_fields[] = {"effects", "states", "n_cells", NULL};

/* ------------------------------------------------------------------ reading helpers */
typedef struct rd {
    ml_ctx *ctx;
    const ml_json *j;
    char text[ML_ERRMSG_MAX];   /* a value's repr for a message */
    char brief[248];            /* a short repr: 60 characters of at most 4 bytes */
    int words;                  /* the constructors' messages: no field prefixes */
    unsigned shared;            /* words: ML__SHARED_LOCKED / _HOLES masks beside the text */
} rd;

/* validation.field_error, except in the constructors' words (Board.grid, from_effects). */
static int field(rd *r, const char *what, int rc)
{
    return r->words ? rc : ml__json_field_error(r->ctx, what, rc);
}

static const ml_json_tok *tk(const rd *r, size_t i) { return &r->j->tok[i]; }
static int is_kind(const rd *r, size_t i, int kind) { return tk(r, i)->kind == kind; }
static int is_list(const rd *r, size_t i) { return is_kind(r, i, ML_JSON_LIST); }
/* validation.is_int: an int, bools excluded (JSON bools have their own kind) */
static int is_int(const rd *r, size_t i) { return is_kind(r, i, ML_JSON_INT); }
static size_t first_item(size_t i) { return i + 1; }
static size_t next(const rd *r, size_t i) { return ml__json_next(r->j, i); }

static const char *repr(rd *r, size_t i)
{
    ml__json_repr(r->j, i, r->text, sizeof r->text);
    return r->text;
}

static const char *short_repr(rd *r, size_t i)
{
    ml__json_short(r->j, i, r->brief, sizeof r->brief);
    return r->brief;
}

/* The digits of an int token (big or not), as Python prints the int. */
static const char *int_text(const rd *r, size_t i, char *buf, size_t cap)
{
    const ml_json_tok *t = tk(r, i);
    if (t->big) {
        size_t n = t->len < cap - 1 ? t->len : cap - 1;
        memcpy(buf, r->j->text + t->start, n);
        buf[n] = 0;
    } else {
        snprintf(buf, cap, "%lld", (long long)t->v.i);
    }
    return buf;
}

/* validation.as_int(v, what, lo, hi, expected, floats=False) for a JSON value. */
static int as_int(rd *r, size_t i, const char *what, int64_t lo, int64_t hi,
                  const char *expected, int64_t *out)
{
    const ml_json_tok *t = tk(r, i);
    char got[320];   /* a type name and a short repr (60 characters, 4 bytes each) */
    if (t->kind == ML_JSON_BOOL) {
        snprintf(got, sizeof got, "a bool (%s)", t->v.i ? "True" : "False");
        return ml__fail(r->ctx, ML_M_JSON_INT, what, expected, got);
    }
    if (t->kind != ML_JSON_INT) {
        snprintf(got, sizeof got, "%s %s", ml__json_type_name(r->j, i), short_repr(r, i));
        return ml__fail(r->ctx, ML_M_JSON_INT, what, expected, got);
    }
    if (t->big || t->v.i < lo || t->v.i > hi) {
        char text[512];
        snprintf(text, sizeof text, "%s must be from %lld to %lld, got %s", what, (long long)lo,
                 (long long)hi, short_repr(r, i));
        return ml__fail_text(r->ctx, ML_ERANGE, ML_M_INT_RANGE, text);
    }
    *out = t->v.i;
    return ML_OK;
}

/* validation.check_mapping: a dict with only the allowed keys and the required ones. */
static int check_mapping(rd *r, size_t d, const char *what, const char *const *allowed,
                         const char *const *required)
{
    return ml__json_check_mapping(r->ctx, r->j, d, what, allowed, required);
}

/* ------------------------------------------------------------------ patterns */
/* patterns.parse_pattern of a name: the pattern's id, or its message. */
static int pattern_id(rd *r, size_t s, int *id)
{
    size_t n = tk(r, s)->count;
    char *name = malloc(n + 1);
    if (!name)
        return ml__fail(r->ctx, ML_M_NOMEM, "ml_board_from_json");
    ml__json_str(r->j, s, name, n + 1);
    int ok = memchr(name, 0, n) == NULL && ml_pattern_lookup(r->ctx, name, id) == ML_OK;
    free(name);
    return ok ? ML_OK : ml__fail(r->ctx, ML_M_PATTERN_UNKNOWN, repr(r, s));
}

/* board_dict._check_offsets_json: a name, or a list of [dr, dc] pairs of ints. */
static int check_offsets_json(rd *r, size_t e)
{
    if (is_kind(r, e, ML_JSON_STR))
        return ML_OK;
    if (!is_list(r, e))
        return ml__fail(r->ctx, ML_M_JSON_PATTERN_ENTRY, repr(r, e));
    for (size_t p = first_item(e); p < tk(r, e)->end; p = next(r, p)) {
        size_t a = first_item(p);
        if (!is_list(r, p) || tk(r, p)->count != 2 || !is_int(r, a) || !is_int(r, next(r, a)))
            return ml__fail(r->ctx, ML_M_JSON_OFFSETS, repr(r, p));
    }
    return ML_OK;
}

/* The offsets of a pair list checked (parse_pattern: at most ML_MAX_OFFSETS, none
 * reaching past ML_MAX_REACH), into dr / dc (the caller's, ML_MAX_OFFSETS each). */
static int pattern_offsets(rd *r, size_t e, int64_t *dr, int64_t *dc, size_t *count)
{
    if (tk(r, e)->count > ML_MAX_OFFSETS)
        return ml__fail(r->ctx, ML_M_TOO_MANY_ITEMS, "pattern", (long long)ML_MAX_OFFSETS);
    size_t k = 0;
    for (size_t p = first_item(e); p < tk(r, e)->end; p = next(r, p), k++) {
        size_t a = first_item(p), b = next(r, a);
        const ml_json_tok *ta = tk(r, a), *tb = tk(r, b);
        if (ta->big || tb->big || ta->v.i > ML_MAX_REACH || ta->v.i < -ML_MAX_REACH
            || tb->v.i > ML_MAX_REACH || tb->v.i < -ML_MAX_REACH) {
            char x[ML_ERRMSG_MAX / 2 - 64], y[ML_ERRMSG_MAX / 2 - 64], text[ML_ERRMSG_MAX];
            snprintf(text, sizeof text, "pattern offset (%s, %s) reaches further than %d tiles",
                     int_text(r, a, x, sizeof x), int_text(r, b, y, sizeof y), ML_MAX_REACH);
            return ml__fail_text(r->ctx, ML_ERANGE, ML_M_PATTERN_REACH, text);
        }
        dr[k] = ta->v.i;
        dc[k] = tb->v.i;
    }
    *count = k;
    return ML_OK;
}

/* patterns.is_mixed(v, rows, cols) for a JSON list v (board_json_words.c). */
static int is_mixed(const rd *r, size_t v, int64_t rows, int64_t cols)
{
    return ml__json_is_mixed(r->j, v, rows, cols);
}

/* One tile's pattern (a name or a checked pair list) into the palette. ids[] caches the
 * palette entry of each named pattern. */
static int palette_entry(rd *r, ml_grid *g, size_t e, int64_t *dr, int64_t *dc, uint32_t ids[],
                         uint32_t *index)
{
    if (is_kind(r, e, ML_JSON_STR)) {
        int id = 0, rc = pattern_id(r, e, &id);
        if (rc)
            return rc;
        if (ids[id] == UINT32_MAX && (rc = ml_grid_palette_add(r->ctx, g, id, &ids[id])))
            return rc;
        *index = ids[id];
        return ML_OK;
    }
    size_t count = 0;
    int rc = pattern_offsets(r, e, dr, dc, &count);
    return rc ? rc : ml_grid_palette_add_offsets(r->ctx, g, count, dr, dc, index);
}

/* board_dict._pattern_input, then the pattern set on g (parse_pattern / parse_mixed's
 * order and messages; unprefixed: the caller prefixes "pattern"). */
static int set_pattern(rd *r, ml_grid *g, size_t v, int64_t rows, int64_t cols)
{
    if (v == NONE)
        return ML_OK;   /* "cross", the builder's default */
    if (r->words)   /* Board.grid's pattern argument: its own words and order */
        return ml__pattern_words(r->ctx, r->j, v, is_list(r, v) && is_mixed(r, v, rows, cols),
                                 cols, g);
    if (is_kind(r, v, ML_JSON_STR)) {
        int id = 0, rc = pattern_id(r, v, &id);
        return rc ? rc : ml_grid_set_pattern(r->ctx, g, id);
    }
    if (!is_list(r, v))
        return ml__fail(r->ctx, ML_M_JSON_PATTERN_TYPE, (long long)rows, (long long)cols,
                        ml__json_type_name(r->j, v));
    int64_t *dr = malloc(ML_MAX_OFFSETS * sizeof *dr), *dc = malloc(ML_MAX_OFFSETS * sizeof *dc);
    uint32_t *index = NULL;
    int rc = dr && dc ? ML_OK : ml__fail(r->ctx, ML_M_NOMEM, "ml_board_from_json");
    if (!rc && is_mixed(r, v, rows, cols)) {
        for (size_t row = first_item(v); !rc && row < tk(r, v)->end; row = next(r, row)) {
            if (!is_list(r, row)) {
                rc = ml__fail(r->ctx, ML_M_JSON_MIXED_ROW, (long long)rows, (long long)cols,
                              ml__json_type_name(r->j, row));
                break;
            }
            for (size_t e = first_item(row); !rc && e < tk(r, row)->end; e = next(r, e))
                rc = check_offsets_json(r, e);
        }
        /* parse_mixed: row by row, the row's length, then its entries; checked whole
         * before the tiles' index is allocated (a short document must not ask for
         * rows x cols entries it does not hold) */
        int64_t yy = 0;
        for (size_t row = first_item(v); !rc && row < tk(r, v)->end; row = next(r, row), yy++) {
            if ((int64_t)tk(r, row)->count != cols) {
                rc = ml__fail(r->ctx, ML_M_MIXED_ROW_LENGTH, (long long)yy,
                              (long long)tk(r, row)->count, (long long)cols);
                break;
            }
            for (size_t e = first_item(row); !rc && e < tk(r, row)->end; e = next(r, e)) {
                int id = 0;
                size_t count = 0;
                rc = is_kind(r, e, ML_JSON_STR) ? pattern_id(r, e, &id)
                                                : pattern_offsets(r, e, dr, dc, &count);
            }
        }
        uint32_t ids[ML_PATTERN_COUNT];
        for (int k = 0; k < ML_PATTERN_COUNT; k++)
            ids[k] = UINT32_MAX;
        if (!rc && !(index = malloc((size_t)(rows * cols) * sizeof *index)))
            rc = ml__fail(r->ctx, ML_M_NOMEM, "ml_board_from_json");
        int64_t y = 0;
        for (size_t row = first_item(v); !rc && row < tk(r, v)->end; row = next(r, row), y++) {
            if ((int64_t)tk(r, row)->count != cols) {
                rc = ml__fail(r->ctx, ML_M_MIXED_ROW_LENGTH, (long long)y,
                              (long long)tk(r, row)->count, (long long)cols);
                break;
            }
            int64_t x = 0;
            for (size_t e = first_item(row); !rc && e < tk(r, row)->end; e = next(r, e), x++)
                rc = palette_entry(r, g, e, dr, dc, ids, &index[y * cols + x]);
        }
        if (!rc)
            rc = ml_grid_set_mixed(r->ctx, g, index);
    } else if (!rc) {
        size_t v0 = first_item(v);   /* from_dict's rule (Board.grid: the offsets' message) */
        if (tk(r, v)->count && is_list(r, v0))
            for (size_t x = first_item(v0); x < tk(r, v0)->end; x = next(r, x))
                if (is_kind(r, x, ML_JSON_STR) || is_list(r, x)) {
                    rc = ml__fail(r->ctx, ML_M_JSON_MIXED_SHAPE, (long long)rows, (long long)cols);
                    break;
                }
        if (!rc)
            rc = check_offsets_json(r, v);
        size_t count = 0;
        if (!rc)
            rc = pattern_offsets(r, v, dr, dc, &count);
        if (!rc)
            rc = ml_grid_set_offsets(r->ctx, g, count, dr, dc);
    }
    free(dr);
    free(dc);
    free(index);
    return rc;
}

/* ------------------------------------------------------------------ locked tiles, holes */
/* board_dict._mask_input: null, a rows x cols nested list of bools, or [r, c] pairs of
 * ints (at most a tile's worth). *mask_form tells which. */
static int check_mask(rd *r, size_t v, const char *what, int64_t rows, int64_t cols,
                      int *mask_form)
{
    *mask_form = 0;
    if (v == NONE || is_kind(r, v, ML_JSON_NULL))
        return ML_OK;
    if (!is_list(r, v))
        return ml__fail(r->ctx, ML_M_JSON_MASK_TYPE, what, (long long)rows, (long long)cols,
                        ml__json_type_name(r->j, v));
    size_t v0 = first_item(v);
    if (tk(r, v)->count && is_list(r, v0) && tk(r, v0)->count
        && is_kind(r, first_item(v0), ML_JSON_BOOL)) {
        int ok = (int64_t)tk(r, v)->count == rows;
        for (size_t row = v0; ok && row < tk(r, v)->end; row = next(r, row)) {
            ok = is_list(r, row) && (int64_t)tk(r, row)->count == cols;
            for (size_t x = first_item(row); ok && x < tk(r, row)->end; x = next(r, x))
                ok = is_kind(r, x, ML_JSON_BOOL);
        }
        if (!ok)
            return ml__fail(r->ctx, ML_M_JSON_MASK_SHAPE, what, (long long)rows, (long long)cols);
        *mask_form = 1;
        return ML_OK;
    }
    if (r->words)
        return ML_OK;   /* positions: checked one by one as they are marked */
    if ((int64_t)tk(r, v)->count > rows * cols)
        return ml__fail(r->ctx, ML_M_JSON_MASK_COUNT, what, (unsigned long long)tk(r, v)->count,
                        (long long)(rows * cols));
    for (size_t p = v0; p < tk(r, v)->end; p = next(r, p)) {
        size_t a = first_item(p);
        if (!is_list(r, p) || tk(r, p)->count != 2 || !is_int(r, a) || !is_int(r, next(r, a)))
            return ml__fail(r->ctx, ML_M_JSON_MASK_ENTRY, what, repr(r, p));
    }
    return ML_OK;
}

/* Board.grid's marks: a mask as a whole, or each position (off the board: its message,
 * the digits of a big index as Python prints them). */
static int set_marks(rd *r, ml_grid *g, size_t v, const char *what, int mask_form, int64_t rows,
                     int64_t cols)
{
    if (v == NONE || is_kind(r, v, ML_JSON_NULL))
        return ML_OK;
    int holes = strcmp(what, "holes") == 0, rc = ML_OK;
    if (mask_form) {
        uint8_t *m = malloc((size_t)(rows * cols));
        if (!m)
            return ml__fail(r->ctx, ML_M_NOMEM, "ml_board_from_json");
        size_t f = 0;
        for (size_t row = first_item(v); row < tk(r, v)->end; row = next(r, row))
            for (size_t x = first_item(row); x < tk(r, row)->end; x = next(r, x))
                m[f++] = (uint8_t)tk(r, x)->v.i;
        rc = holes ? ml_grid_set_holes(r->ctx, g, m) : ml_grid_set_locked(r->ctx, g, m);
        free(m);
        return rc;
    }
    if (r->words)   /* Board.grid's positions: its checks, order and messages */
        return ml__marks_words(r->ctx, r->j, v, holes, rows, cols, g);
    for (size_t p = first_item(v); !rc && p < tk(r, v)->end; p = next(r, p)) {
        size_t a = first_item(p), b = next(r, a);
        if (tk(r, a)->big || tk(r, b)->big) {
            char x[ML_ERRMSG_MAX / 2 - 64], y[ML_ERRMSG_MAX / 2 - 64], text[ML_ERRMSG_MAX];
            snprintf(text, sizeof text, "%s (%s, %s) is off the board: rows 0..%lld, cols 0..%lld",
                     what, int_text(r, a, x, sizeof x), int_text(r, b, y, sizeof y),
                     (long long)rows - 1, (long long)cols - 1);
            return ml__fail_text(r->ctx, ML_ERANGE, ML_M_OFF_BOARD, text);
        }
        rc = holes ? ml_grid_hole(r->ctx, g, tk(r, a)->v.i, tk(r, b)->v.i)
                   : ml_grid_lock(r->ctx, g, tk(r, a)->v.i, tk(r, b)->v.i);
    }
    return rc;
}

/* Board.grid's _no_tiles negated: a mask (even one marking nothing) or some positions. */
static int marks_some(const rd *r, size_t v)
{
    return v != NONE && !is_kind(r, v, ML_JSON_NULL) && tk(r, v)->count != 0;
}

/* Board.grid past ML_MAX_TILES tiles: a uniform board only (one pattern, nothing locked,
 * no holes; a mask beside the document counts as marking tiles). */
static int giant_refused(const rd *r, size_t locked, size_t holes, size_t pattern, int64_t rows,
                         int64_t cols)
{
    if (rows * cols <= ML_MAX_TILES)
        return ML_OK;
    if (marks_some(r, locked) || marks_some(r, holes) || r->shared
        || (pattern != NONE && is_list(r, pattern) && is_mixed(r, pattern, rows, cols)))
        return ml__fail(r->ctx, ML_M_BOARD_TOO_LARGE, (long long)rows, (long long)cols,
                        (long long)(rows * cols), (long long)ML_MAX_TILES);
    return ML_OK;
}

/* ------------------------------------------------------------------ the two kinds */
/* The grid a board document describes (not built), freed by the caller. */
static int grid_describe(rd *r, size_t d, int64_t limit, ml_grid **out)
{
    int rc = check_mapping(r, d, "board", grid_fields, (const char *const[]){"rows", "cols", NULL});
    int64_t rows = 0, cols = 0, states = 2;
    if (!rc)
        rc = as_int(r, ml__json_get(r->j, d, "rows"), "rows", 1, ML_MAX_SIDE, "a positive int", &rows);
    if (!rc)
        rc = as_int(r, ml__json_get(r->j, d, "cols"), "cols", 1, ML_MAX_SIDE, "a positive int", &cols);
    if (rc)
        return rc;
    if (rows * cols > limit)
        return ml__fail(r->ctx, ML_M_JSON_TOO_LARGE, (long long)rows, (long long)cols,
                        (long long)(rows * cols), (long long)limit);
    size_t locked = ml__json_get(r->j, d, "locked"), holes = ml__json_get(r->j, d, "holes");
    /* Board.grid refuses a giant board with marks before reading states */
    if (r->words && (rc = giant_refused(r, locked, holes, ml__json_get(r->j, d, "pattern"), rows,
                                        cols)))
        return rc;
    size_t s = ml__json_get(r->j, d, "states");
    if (s != NONE && (rc = as_int(r, s, "states", ML_MIN_STATES, ML_MAX_STATES,
                                  "an int from 2 to 255", &states)))
        return field(r, "states", rc);
    size_t w = ml__json_get(r->j, d, "wrap");
    if (w != NONE && !is_kind(r, w, ML_JSON_BOOL))
        return ml__fail(r->ctx, ML_M_JSON_WRAP, repr(r, w));
    ml_grid *g = NULL;
    if ((rc = ml_grid_new(r->ctx, rows, cols, (int)states, &g)))
        return rc;
    int lock_form = 0, hole_form = 0;
    rc = field(r, "pattern", set_pattern(r, g, ml__json_get(r->j, d, "pattern"), rows, cols));
    if (!rc)
        rc = field(r, "locked", check_mask(r, locked, "locked", rows, cols, &lock_form));
    if (!rc)
        rc = field(r, "holes", check_mask(r, holes, "holes", rows, cols, &hole_form));
    /* Board.grid: past ML_MAX_TILES tiles (max_tiles above it) uniform boards only */
    if (!rc && rows * cols > ML_MAX_TILES
        && (marks_some(r, locked) || marks_some(r, holes)))
        rc = giant_refused(r, locked, holes, NONE, rows, cols);
    if (!rc && w != NONE)
        rc = ml_grid_set_wrap(r->ctx, g, (int)tk(r, w)->v.i);
    if (!rc)
        rc = set_marks(r, g, locked, "locked", lock_form, rows, cols);
    if (!rc)
        rc = set_marks(r, g, holes, "holes", hole_form, rows, cols);
    if (rc)
        ml_grid_free(g);
    else
        *out = g;
    return rc;
}

static int grid_from(rd *r, size_t d, int64_t limit, ml_board **out)
{
    ml_grid *g = NULL;
    int rc = grid_describe(r, d, limit, &g);
    if (!rc)
        rc = ml_grid_build(r->ctx, g, out);
    ml_grid_free(g);
    return rc;
}

/* Python's abs comparison of two int tokens: 1 when |a| > |b|. */
static int abs_greater(const rd *r, size_t a, size_t b)
{
    char x[ML_ERRMSG_MAX / 2], y[ML_ERRMSG_MAX / 2];
    const char *p = int_text(r, a, x, sizeof x), *q = int_text(r, b, y, sizeof y);
    p += *p == '-';
    q += *q == '-';
    size_t lp = strlen(p), lq = strlen(q);
    return lp != lq ? lp > lq : strcmp(p, q) > 0;
}

/* board._effect_cells's checks of one tap's list: every entry an int, every int within
 * int32 (else its largest by size). */
static int check_effect(rd *r, size_t e, size_t jtap)
{
    size_t big = NONE;
    for (size_t c = first_item(e); c < tk(r, e)->end; c = next(r, c))
        if (!is_int(r, c))
            return ml__fail(r->ctx, ML_M_JSON_EFFECT_ENTRY, (unsigned long long)jtap, repr(r, c));
    for (size_t c = first_item(e); c < tk(r, e)->end; c = next(r, c)) {
        const ml_json_tok *t = tk(r, c);
        if (t->big || t->v.i > INT32_MAX || t->v.i < INT32_MIN)
            big = c;
    }
    if (big == NONE)
        return ML_OK;
    for (size_t c = first_item(e); c < tk(r, e)->end; c = next(r, c))
        if (abs_greater(r, c, big) || (c < big && !abs_greater(r, big, c)))
            big = c;   /* the first of the largest, as Python's max */
    char digits[ML_ERRMSG_MAX / 2], text[ML_ERRMSG_MAX];
    snprintf(text, sizeof text, "cell index %s out of range: a board has at most %lld cells",
             int_text(r, big, digits, sizeof digits), (long long)ML_MAX_TILES);
    return ml__fail_text(r->ctx, ML_ERANGE, ML_M_CELL_INDEX_MAX, text);
}

static int graph_from(rd *r, size_t d, int64_t limit, ml_board **out)
{
    int rc = check_mapping(r, d, "graph board", graph_fields,
                           (const char *const[]){"effects", "states", NULL});
    int64_t states = 0, n_cells = -1;
    size_t st = ml__json_get(r->j, d, "states"), nc = ml__json_get(r->j, d, "n_cells");
    /* Board.from_effects reads states first, n_cells after the effects' entries */
    if (rc || (r->words && (rc = as_int(r, st, "states", ML_MIN_STATES, ML_MAX_STATES,
                                        "an int from 2 to 255", &states))))
        return rc;
    size_t eff = ml__json_get(r->j, d, "effects");
    if (!is_list(r, eff))
        return ml__fail(r->ctx, ML_M_JSON_EFFECTS_TYPE, ml__json_type_name(r->j, eff));
    uint64_t taps = tk(r, eff)->count, total = 0, jtap = 0;
    for (size_t e = first_item(eff); e < tk(r, eff)->end; e = next(r, e), jtap++) {
        if (!is_list(r, e))
            return ml__fail(r->ctx, ML_M_JSON_EFFECT_TYPE, (unsigned long long)jtap,
                            ml__json_type_name(r->j, e));
        total += tk(r, e)->count;
    }
    if (taps > (uint64_t)limit || total > (uint64_t)limit)
        return ml__fail(r->ctx, ML_M_JSON_GRAPH_TOO_LARGE, (unsigned long long)taps,
                        (unsigned long long)total, (long long)limit);
    if (!r->words && (rc = as_int(r, st, "states", ML_MIN_STATES, ML_MAX_STATES,
                                  "an int from 2 to 255", &states)))
        return field(r, "states", rc);
    if (!r->words && nc != NONE && !is_kind(r, nc, ML_JSON_NULL)) {
        const ml_json_tok *t = tk(r, nc);
        if (!is_int(r, nc) || t->big || t->v.i < 0 || t->v.i > limit)
            return ml__fail(r->ctx, ML_M_JSON_N_CELLS, (long long)limit, repr(r, nc));
        n_cells = t->v.i;
    }
    /* Board.from_effects: the lists read (at most ML_MAX_TILES), their entries checked
     * list by list, then built (the index checks are ml_board_from_effects') */
    if (taps > (uint64_t)ML_MAX_TILES)
        return ml__fail(r->ctx, ML_M_TOO_MANY_ITEMS, "effects (one list a tap)",
                        (long long)ML_MAX_TILES);
    jtap = 0;
    for (size_t e = first_item(eff); e < tk(r, eff)->end; e = next(r, e), jtap++)
        if ((rc = check_effect(r, e, jtap)))
            return field(r, "effects", rc);
    if (r->words && nc != NONE && !is_kind(r, nc, ML_JSON_NULL)
        && (rc = as_int(r, nc, "n_cells", 0, ML_MAX_TILES, "a non-negative int", &n_cells)))
        return rc;
    int64_t *indptr = malloc((taps + 1) * sizeof *indptr);
    int64_t *cells = malloc((total ? total : 1) * sizeof *cells);
    if (!indptr || !cells) {
        free(indptr);
        free(cells);
        return ml__fail(r->ctx, ML_M_NOMEM, "ml_board_from_json");
    }
    size_t k = 0;
    jtap = 0;
    indptr[0] = 0;
    for (size_t e = first_item(eff); e < tk(r, eff)->end; e = next(r, e)) {
        for (size_t c = first_item(e); c < tk(r, e)->end; c = next(r, c))
            cells[k++] = tk(r, c)->v.i;
        indptr[++jtap] = (int64_t)k;
    }
    rc = ml_board_from_effects(r->ctx, (int)states, n_cells, (size_t)taps, indptr, cells, out);
    free(indptr);
    free(cells);
    return field(r, "effects", rc);
}

static int board_from_value(ml_ctx *ctx, const ml_json *j, size_t i, int64_t max_tiles, int words,
                            ml_board **out);

static int board_from_text(ml_ctx *ctx, const char *json, size_t len, int64_t max_tiles,
                           int words, ml_board **out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_from_json";
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out");
    *out = NULL;
    if (!json && len)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "json");
    ml_json j;
    int rc = ml__json_parse(ctx, &j, json ? json : "", len, "board", 0);
    if (rc)
        return rc;
    rc = board_from_value(ctx, &j, 0, max_tiles, words, out);
    ml__json_free(&j);
    return rc;
}

int ml_board_from_json(ml_ctx *ctx, const char *json, size_t len, int64_t max_tiles,
                       ml_board **out)
{
    return board_from_text(ctx, json, len, max_tiles, 0, out);
}

int ml__board_from_json_words(ml_ctx *ctx, const char *json, size_t len, ml_board **out)
{
    /* grids: sides up to ML_MAX_SIDE whatever the tiles (Board.grid keeps giant uniform
     * boards); graph boards: from_effects' own limits */
    return board_from_text(ctx, json, len, (int64_t)ML_MAX_SIDE * ML_MAX_SIDE, 1, out);
}

int ml__board_from_json_value(ml_ctx *ctx, const ml_json *j, size_t i, int64_t max_tiles,
                              ml_board **out)
{
    return board_from_value(ctx, j, i, max_tiles, 0, out);
}

static int board_from_value(ml_ctx *ctx, const ml_json *j, size_t i, int64_t max_tiles, int words,
                            ml_board **out)
{
    rd *r = malloc(sizeof *r);
    if (!r)
        return ml__fail(ctx, ML_M_NOMEM, "ml_board_from_json");
    *r = (rd){.ctx = ctx, .j = j, .words = words};   /* every other field zero (shared) */
    int64_t limit = max_tiles <= 0 ? ML_MAX_TILES : max_tiles;
    int rc;
    if (is_kind(r, i, ML_JSON_DICT) && ml__json_get(j, i, "effects") != NONE)
        rc = graph_from(r, i, limit, out);
    else
        rc = grid_from(r, i, limit, out);
    free(r);
    return rc;
}

int ml__grid_from_json(ml_ctx *ctx, const char *json, size_t len, ml_grid **out)
{
    return ml__grid_from_json_shared(ctx, json, len, 0, out);
}

int ml__grid_from_json_shared(ml_ctx *ctx, const char *json, size_t len, unsigned shared,
                              ml_grid **out)
{
    ctx = ml__begin(ctx);
    if (!out || (!json && len))
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml__grid_from_json", out ? "json" : "out");
    *out = NULL;
    ml_json j;
    int rc = ml__json_parse(ctx, &j, json ? json : "", len, "board", 0);
    if (rc)
        return rc;
    rd *r = malloc(sizeof *r);
    if (!r)
        rc = ml__fail(ctx, ML_M_NOMEM, "ml__grid_from_json");
    if (r) {
        *r = (rd){.ctx = ctx, .j = &j, .words = 1, .shared = shared};
        rc = grid_describe(r, 0, (int64_t)ML_MAX_SIDE * ML_MAX_SIDE, out);
    }
    free(r);
    ml__json_free(&j);
    return rc;
}

/* ------------------------------------------------------------------ writing */
/* A pattern: its name when it is exactly a named pattern's offsets, else [dr, dc] pairs. */
static void write_pattern(ml_jw *w, const ml__pattern *p)
{
    int32_t dr[16], dc[16];
    for (int id = 0; id < ML_PATTERN_COUNT; id++) {
        size_t n = ml_pattern_offsets(id, dr, dc, 16);
        if (n <= 16 && n == p->count && !memcmp(dr, p->dr, n * sizeof *dr) && !memcmp(dc, p->dc, n * sizeof *dc)) {
            const char *name = ml_pattern_name(id);
            ml__jw_str(w, name, strlen(name));
            return;
        }
    }
    ml__jw_list(w);
    for (size_t k = 0; k < p->count; k++) {
        ml__jw_list(w);
        ml__jw_int(w, p->dr[k]);
        ml__jw_int(w, p->dc[k]);
        ml__jw_end_list(w);
    }
    ml__jw_end_list(w);
}

static void write_marks(ml_jw *w, const ml_board *b, const uint8_t *mask)
{
    ml__jw_list(w);
    uint64_t t = (uint64_t)b->rows * (uint64_t)b->cols;
    for (uint64_t f = 0; mask && f < t; f++)
        if (mask[f]) {
            ml__jw_list(w);
            ml__jw_int(w, (int64_t)(f / (uint64_t)b->cols));
            ml__jw_int(w, (int64_t)(f % (uint64_t)b->cols));
            ml__jw_end_list(w);
        }
    ml__jw_end_list(w);
}

static void key(ml_jw *w, const char *k) { ml__jw_key(w, k, strlen(k)); }

static void effect_cell(void *arg, uint64_t cell, unsigned times)
{
    for (unsigned k = 0; k < times; k++)
        ml__jw_uint((ml_jw *)arg, cell);
}

int ml_board_to_json(ml_ctx *ctx, const ml_board *b, char *buf, size_t cap, size_t *len)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_to_json";
    if (!ml__board_live(b))
        return b ? ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "board") : ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "b");
    if (!buf && cap)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "buf");
    ml_jw *w = malloc(sizeof *w);
    if (!w)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    ml__jw_init(w, buf, cap);
    ml__jw_dict(w);
    if (b->kind == ML_BOARD_GRAPH) {
        key(w, "effects");
        ml__jw_list(w);
        for (uint64_t j = 0; j < b->n_taps; j++) {
            ml__jw_list(w);
            ml__board_each_effect(b, j, effect_cell, w);
            ml__jw_end_list(w);
        }
        ml__jw_end_list(w);
        key(w, "states");
        ml__jw_int(w, b->n);
        key(w, "n_cells");
        ml__jw_uint(w, b->n_cells);
    } else {
        key(w, "rows");
        ml__jw_int(w, b->rows);
        key(w, "cols");
        ml__jw_int(w, b->cols);
        key(w, "states");
        ml__jw_int(w, b->n);
        key(w, "pattern");
        if (b->mixed) {
            ml__jw_list(w);
            for (int64_t y = 0; y < b->rows; y++) {
                ml__jw_list(w);
                for (int64_t x = 0; x < b->cols; x++)
                    write_pattern(w, ml__board_tile(b, (uint64_t)(y * b->cols + x)));
                ml__jw_end_list(w);
            }
            ml__jw_end_list(w);
        } else {
            write_pattern(w, &b->pal[0]);
        }
        key(w, "locked");
        write_marks(w, b, b->locked);
        key(w, "holes");
        write_marks(w, b, b->holes);
        key(w, "wrap");
        ml__jw_bool(w, b->wrap);
    }
    ml__jw_end_dict(w);
    size_t n = ml__jw_finish(w);
    free(w);
    if (n == (size_t)-1)
        return ml__fail(ctx, ML_M_INTERNAL, fn, "the JSON writer was misused");
    if (len)
        *len = n;
    return ML_OK;
}
