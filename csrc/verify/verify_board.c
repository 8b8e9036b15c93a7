/* verify_board.c: the board of a certificate, read from its board dict by the checker itself
 * (Python's search/verify/data.py: _read_board, _read_graph, _Board.coo) with the board
 * model's rules and messages but none of its code: the C board model (api/board.c) is
 * what the solver reads, so the checker does not use it. A grid {"rows", "cols",
 * "states", "pattern", "locked", "holes", "wrap"} or a graph board {"effects", "states",
 * "n_cells"}; A in coordinate form: tap (r, c) advances tile (r + dr, c + dc) for each
 * offset of its pattern (mod the sides on a torus; off the board or on a hole: no tile);
 * a graph board's tap j advances each cell effects[j] lists, once a time listed. Cells
 * are the tiles that are not holes, taps those neither holes nor locked, row-major.
 * O(tiles + offsets + entries). See verify_impl.h. */
#include "verify/verify_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TILES (INT64_C(1) << 27)
#define MAX_SIDE (INT64_C(1) << 20)
#define MAX_REACH 1024
#define MAX_OFFSETS 4096

static const int32_t P_CROSS[] = {0, 0, -1, 0, 1, 0, 0, -1, 0, 1};
static const int32_t P_DIAGONAL[] = {0, 0, -1, -1, -1, 1, 1, -1, 1, 1};
static const int32_t P_SQUARE[] = {0, 0, -1, -1, -1, 0, -1, 1, 0, -1, 0, 1, 1, -1, 1, 0, 1, 1};
static const int32_t P_HORIZONTAL[] = {0, 0, 0, -1, 0, 1};
static const int32_t P_VERTICAL[] = {0, 0, -1, 0, 1, 0};
static const int32_t P_KNIGHT[] = {0, 0, -2, -1, -2, 1, -1, -2, -1, 2, 1, -2, 1, 2, 2, -1, 2, 1};
static const struct {
    const char *name;
    const int32_t *off;
    int count;
} NAMED[] = {
    {"cross", P_CROSS, 5}, {"diagonal", P_DIAGONAL, 5}, {"square", P_SQUARE, 9},
    {"horizontal", P_HORIZONTAL, 3}, {"vertical", P_VERTICAL, 3}, {"knight", P_KNIGHT, 9},
};
#define N_NAMED 6

/* A pattern: offsets (dr, dc pairs) and their count. */
typedef struct pat {
    const int32_t *off;
    int count;
} pat;

typedef struct grid {
    int64_t rows, cols;
    int wrap;
    pat *palette;           /* N_NAMED named ones first, then each list entry read */
    int64_t npal, cappal;
    int32_t *tiles;         /* each tile's palette entry (NULL: palette[one] for all) */
    int64_t one;
    uint8_t *locked, *holes;
} grid;

static void grid_free(grid *g)
{
    for (int64_t i = N_NAMED; i < g->npal; i++)
        free((void *)g->palette[i].off);
    free(g->palette);
    free(g->tiles);
    free(g->locked);
    free(g->holes);
}

/* _short of the value: repr cut to 60 characters. */
static const char *short_of(const mv *v, size_t t, char *buf, size_t cap)
{
    if (t == MV_NONE)
        snprintf(buf, cap, "None");
    else
        ml__json_short(v->j, t, buf, cap);
    return buf;
}

static int board_int(mv *v, size_t t, const char *what, int64_t lo, int64_t hi,
                     const char *expected, int64_t *out)
{
    char s[128];
    if (t != MV_NONE && v->j->tok[t].kind == ML_JSON_BOOL)
        return mv_fail(v, "%s must be %s, got a bool (%s)", what, expected,
                       v->j->tok[t].v.i ? "True" : "False");
    if (!mv_is_int(v, t))
        return mv_fail(v, "%s must be %s, got %s %s", what, expected, mv_type(v, t),
                       short_of(v, t, s, sizeof s));
    mv_int a = mv_int_of(v, t);
    if (mv_int_cmp64(a, lo) < 0 || mv_int_cmp64(a, hi) > 0)
        return mv_fail(v, "%s must be from %" PRId64 " to %" PRId64 ", got %s", what, lo, hi,
                       short_of(v, t, s, sizeof s));
    *out = a.i;
    return ML_OK;
}

/* _check_fields: d a dict with only allowed keys and every required one. */
static int check_fields(mv *v, size_t d, const char *what, const char *const *allowed,
                        int nallowed, const char *const *required, int nrequired)
{
    if (!mv_is_dict(v, d))
        return mv_fail(v, "%s must be a dict (JSON object), got %s", what, mv_type(v, d));
    char all[128] = "", req[128] = "";
    for (int a = 0; a < nallowed; a++)
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", a ? ", " : "", allowed[a]);
    for (int a = 0; a < nrequired; a++)
        snprintf(req + strlen(req), sizeof req - strlen(req), "%s%s", a ? ", " : "",
                 required[a]);
    size_t key = mv_first(v, d);
    for (size_t i = 0; i < mv_count(v, d); i++, key = mv_next(v, mv_next(v, key))) {
        int ok = 0;
        for (int a = 0; a < nallowed && !ok; a++)
            ok = ml__json_str_eq(v->j, key, allowed[a]);
        if (!ok) {
            char r[MV_MSG / 2];
            return mv_fail(v, "%s has unknown field %s; allowed fields: %s", what,
                           mv_repr(v, key, r, sizeof r), all);
        }
    }
    for (int a = 0; a < nrequired; a++)
        if (mv_get(v, d, required[a]) == MV_NONE)
            return mv_fail(v, "%s needs the field '%s' (required: %s%s)", what, required[a],
                           req, strcmp(what, "board") ? "" : "; a graph board has effects and states");
    return ML_OK;
}

/* _in_field: the message prefixed by the field it is about, unless it names it. */
static int in_field(mv *v, const char *what)
{
    if (v->rc == ML_EINVAL && strncmp(v->msg, what, strlen(what))) {
        char old[MV_MSG];
        memcpy(old, v->msg, sizeof old);
        snprintf(v->msg, sizeof v->msg, "%s: %.4080s", what, old);
    }
    return v->rc;
}

/* ---------------------------------------------------------------- patterns */
static int is_str(const mv *v, size_t t) { return t != MV_NONE && v->j->tok[t].kind == ML_JSON_STR; }

/* _is_scalar: int(v) works and v is no string or container (ints, bools, finite floats). */
static int is_scalar(const mv *v, size_t t)
{
    int k = v->j->tok[t].kind;
    if (k == ML_JSON_FLOAT) {
        double f = v->j->tok[t].v.f;
        return f == f && f - f == 0;
    }
    return k == ML_JSON_INT || k == ML_JSON_BOOL;
}

/* _is_mixed: rows entries, the first a list (or dict) of cols entries whose first is a
 * name or a list of pairs. */
static int is_mixed(const mv *v, size_t t, int64_t rows, int64_t cols)
{
    if ((int64_t)mv_count(v, t) != rows || is_str(v, t + 1))
        return 0;
    size_t row = t + 1;
    int k = v->j->tok[row].kind;
    if ((k != ML_JSON_LIST && k != ML_JSON_DICT) || (int64_t)mv_count(v, row) != cols)
        return 0;
    size_t first = row + 1;
    if (is_str(v, first))
        return 1;
    k = v->j->tok[first].kind;
    if (k != ML_JSON_LIST && k != ML_JSON_DICT)
        return 0;
    return mv_count(v, first) == 0 || !is_scalar(v, first + 1);
}

/* _check_entry: a name, or a list of [dr, dc] pairs of ints. */
static int check_entry(mv *v, size_t e)
{
    char r[MV_MSG / 2];
    if (is_str(v, e))
        return ML_OK;
    if (!mv_is_list(v, e))
        return mv_fail(v, "a pattern is a name or a list of [dr, dc] pairs, got %s",
                       mv_repr(v, e, r, sizeof r));
    size_t p = e + 1;
    for (size_t i = 0; i < mv_count(v, e); i++, p = mv_next(v, p))
        if (!mv_is_list(v, p) || mv_count(v, p) != 2 || !mv_is_int(v, p + 1) ||
            !mv_is_int(v, mv_next(v, p + 1)))
            return mv_fail(v, "pattern offsets must be [dr, dc] pairs of ints, got %s",
                           mv_repr(v, p, r, sizeof r));
    return ML_OK;
}

/* The palette entry of a checked pattern entry: a named one, or its pairs appended. */
static int offsets(mv *v, size_t e, grid *g, int64_t *index)
{
    if (is_str(v, e)) {
        char name[64];
        size_t len = ml__json_str(v->j, e, NULL, 0);
        if (len < sizeof name) {
            ml__json_str(v->j, e, name, sizeof name);
            char *s = name, *end = name + len;
            while (s < end && (*s == ' ' || (*s >= '\t' && *s <= '\r') || (*s >= 0x1c && *s <= 0x1f)))
                s++;
            while (end > s && (end[-1] == ' ' || (end[-1] >= '\t' && end[-1] <= '\r') ||
                               (end[-1] >= 0x1c && end[-1] <= 0x1f)))
                end--;
            *end = '\0';
            for (char *c = s; *c; c++)
                if (*c >= 'A' && *c <= 'Z')
                    *c = (char)(*c - 'A' + 'a');
            for (int i = 0; i < N_NAMED; i++)
                if (!strcmp(s, NAMED[i].name)) {
                    *index = i;
                    return ML_OK;
                }
        }
        char r[MV_MSG / 2];
        return mv_fail(v, "unknown pattern %s: use one of 'cross', 'diagonal', 'square', "
                       "'horizontal', 'vertical', 'knight', or a sequence of (dr, dc) offsets",
                       mv_repr(v, e, r, sizeof r));
    }
    size_t count = mv_count(v, e);
    if (count > MAX_OFFSETS)
        return mv_fail(v, "pattern has more than %d items", MAX_OFFSETS);
    int32_t *off = malloc(2 * (count ? count : 1) * sizeof *off);
    if (!off)
        return mv_nomem(v);
    size_t p = e + 1;
    for (size_t i = 0; i < count; i++, p = mv_next(v, p)) {
        mv_int dr = mv_int_of(v, p + 1), dc = mv_int_of(v, mv_next(v, p + 1));
        if (mv_int_cmp64(dr, -MAX_REACH) < 0 || mv_int_cmp64(dr, MAX_REACH) > 0 ||
            mv_int_cmp64(dc, -MAX_REACH) < 0 || mv_int_cmp64(dc, MAX_REACH) > 0) {
            char a[200], b[200];
            free(off);
            return mv_fail(v, "pattern offset (%s, %s) reaches further than %d tiles",
                           mv_int_text(dr, a, sizeof a), mv_int_text(dc, b, sizeof b),
                           MAX_REACH);
        }
        off[2 * i] = (int32_t)dr.i;
        off[2 * i + 1] = (int32_t)dc.i;
    }
    if (g->npal == g->cappal) {
        int64_t cap = g->cappal * 2;
        pat *np = realloc(g->palette, (size_t)cap * sizeof *np);
        if (!np) {
            free(off);
            return mv_nomem(v);
        }
        g->palette = np;
        g->cappal = cap;
    }
    g->palette[g->npal].off = off;
    g->palette[g->npal].count = (int)count;
    *index = g->npal++;
    return ML_OK;
}

static int read_pattern(mv *v, size_t t, grid *g)
{
    int64_t rows = g->rows, cols = g->cols;
    if (is_str(v, t))
        return offsets(v, t, g, &g->one);
    if (!mv_is_list(v, t))
        return mv_fail(v, "pattern must be a name, a list of [dr, dc] pairs or a %" PRId64
                       "x%" PRId64 " nested list of those, got %s", rows, cols, mv_type(v, t));
    if (is_mixed(v, t, rows, cols)) {
        size_t row = t + 1;
        for (int64_t r = 0; r < rows; r++, row = mv_next(v, row)) {
            if (!mv_is_list(v, row))
                return mv_fail(v, "a mixed pattern is %" PRId64 " lists of %" PRId64
                               " entries, got a %s row", rows, cols, mv_type(v, row));
            size_t e = row + 1;
            for (size_t c = 0; c < mv_count(v, row); c++, e = mv_next(v, e))
                if (check_entry(v, e))
                    return v->rc;
        }
        g->tiles = malloc((size_t)(rows * cols) * sizeof *g->tiles);
        if (!g->tiles)
            return mv_nomem(v);
        row = t + 1;
        for (int64_t r = 0; r < rows; r++, row = mv_next(v, row)) {
            if ((int64_t)mv_count(v, row) != cols)
                return mv_fail(v, "mixed pattern row %" PRId64 " has %zu entries, the board "
                               "has %" PRId64 " columns", r, mv_count(v, row), cols);
            size_t e = row + 1;
            for (int64_t c = 0; c < cols; c++, e = mv_next(v, e)) {
                int64_t idx;
                if (offsets(v, e, g, &idx))
                    return v->rc;
                g->tiles[r * cols + c] = (int32_t)idx;
            }
        }
        return ML_OK;
    }
    size_t first = t + 1;
    if (mv_count(v, t) && mv_is_list(v, first)) {
        size_t x = first + 1;
        for (size_t i = 0; i < mv_count(v, first); i++, x = mv_next(v, x))
            if (is_str(v, x) || mv_is_list(v, x))
                return mv_fail(v, "a mixed pattern must be %" PRId64 " lists of %" PRId64
                               " entries (names or lists of [dr, dc] pairs), one per tile",
                               rows, cols);
    }
    if (check_entry(v, t))
        return v->rc;
    return offsets(v, t, g, &g->one);
}

/* ---------------------------------------------------------------- locked tiles, holes */
/* _read_positions then (later) _mask_of: the mask (NULL: no tile marked). Positions are
 * checked to be on the board by mask_of, after both fields are read. */
static int read_positions(mv *v, size_t t, const char *what, const grid *g)
{
    int64_t rows = g->rows, cols = g->cols;
    char r[MV_MSG / 2];
    if (t == MV_NONE || v->j->tok[t].kind == ML_JSON_NULL)
        return ML_OK;
    if (!mv_is_list(v, t))
        return mv_fail(v, "%s must be a list of [row, col] pairs or a %" PRId64 "x%" PRId64
                       " nested list of booleans, got %s", what, rows, cols, mv_type(v, t));
    size_t n = mv_count(v, t), first = t + 1;
    if (n && mv_is_list(v, first) && mv_count(v, first) &&
        v->j->tok[first + 1].kind == ML_JSON_BOOL) {
        int ok = (int64_t)n == rows;
        size_t row = first;
        for (size_t i = 0; ok && i < n; i++, row = mv_next(v, row)) {
            ok = mv_is_list(v, row) && (int64_t)mv_count(v, row) == cols;
            size_t x = row + 1;
            for (size_t c = 0; ok && c < mv_count(v, row); c++, x = mv_next(v, x))
                ok = v->j->tok[x].kind == ML_JSON_BOOL;
        }
        if (!ok)
            return mv_fail(v, "%s as a mask must be %" PRId64 " rows of %" PRId64 " booleans",
                           what, rows, cols);
        return ML_OK;
    }
    if ((int64_t)n > rows * cols)
        return mv_fail(v, "%s lists %zu positions, the board has %" PRId64 " tiles", what, n,
                       rows * cols);
    size_t p = first;
    for (size_t i = 0; i < n; i++, p = mv_next(v, p))
        if (!mv_is_list(v, p) || mv_count(v, p) != 2 || !mv_is_int(v, p + 1) ||
            !mv_is_int(v, mv_next(v, p + 1)))
            return mv_fail(v, "%s entries must be [row, col] pairs of ints, got %s", what,
                           mv_repr(v, p, r, sizeof r));
    return ML_OK;
}

static int mask_of(mv *v, size_t t, const char *what, const grid *g, uint8_t **out)
{
    int64_t rows = g->rows, cols = g->cols;
    *out = NULL;
    if (t == MV_NONE || !mv_is_list(v, t) || !mv_count(v, t))
        return ML_OK;
    uint8_t *mask = calloc((size_t)(rows * cols), 1);
    if (!mask)
        return mv_nomem(v);
    int any = 0;
    size_t p = t + 1;
    int bools = mv_is_list(v, p) && mv_count(v, p) && v->j->tok[p + 1].kind == ML_JSON_BOOL;
    for (size_t i = 0; i < mv_count(v, t); i++, p = mv_next(v, p)) {
        if (bools) {
            size_t x = p + 1;
            for (int64_t c = 0; c < cols; c++, x = mv_next(v, x))
                if (v->j->tok[x].v.i)
                    mask[(int64_t)i * cols + c] = 1, any = 1;
            continue;
        }
        mv_int a = mv_int_of(v, p + 1), b = mv_int_of(v, mv_next(v, p + 1));
        if (mv_int_cmp64(a, 0) < 0 || mv_int_cmp64(a, rows - 1) > 0 || mv_int_cmp64(b, 0) < 0 ||
            mv_int_cmp64(b, cols - 1) > 0) {
            char x[200], y[200];
            free(mask);
            return mv_fail(v, "%s (%s, %s) is off the board: rows 0..%" PRId64 ", cols 0..%"
                           PRId64, what, mv_int_text(a, x, sizeof x), mv_int_text(b, y, sizeof y),
                           rows - 1, cols - 1);
        }
        mask[a.i * cols + b.i] = 1;
        any = 1;
    }
    if (!any)
        free(mask);
    else
        *out = mask;
    return ML_OK;
}

/* ---------------------------------------------------------------- A */
static int coo_alloc(mv *v, mv_matrix *A, int64_t nnz)
{
    A->nnz = nnz;
    A->ci = malloc(mv_sz(nnz) * sizeof *A->ci);
    A->tj = malloc(mv_sz(nnz) * sizeof *A->tj);
    return A->ci && A->tj ? ML_OK : mv_nomem(v);
}

static int grid_coo(mv *v, const grid *g, mv_matrix *A)
{
    int64_t rows = g->rows, cols = g->cols, size = rows * cols;
    int32_t *cell_of = malloc((size_t)size * sizeof *cell_of);
    if (!cell_of)
        return mv_nomem(v);
    int64_t m = 0, r = 0, nnz = 0;
    for (int64_t t = 0; t < size; t++) {
        cell_of[t] = g->holes && g->holes[t] ? -1 : (int32_t)m++;
        if (cell_of[t] >= 0 && !(g->locked && g->locked[t]))
            nnz += g->palette[g->tiles ? g->tiles[t] : g->one].count, r++;
    }
    A->m = m;
    A->r = r;
    if (coo_alloc(v, A, nnz)) {
        free(cell_of);
        return v->rc;
    }
    int64_t k = 0, j = 0;
    for (int64_t t = 0; t < size; t++) {
        if (cell_of[t] < 0 || (g->locked && g->locked[t]))
            continue;
        const pat *pt = &g->palette[g->tiles ? g->tiles[t] : g->one];
        int64_t tr = t / cols, tc = t % cols;
        for (int o = 0; o < pt->count; o++) {
            int64_t rr = tr + pt->off[2 * o], cc = tc + pt->off[2 * o + 1];
            if (g->wrap) {
                rr = ((rr % rows) + rows) % rows;
                cc = ((cc % cols) + cols) % cols;
            } else if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) {
                continue;
            }
            int32_t c = cell_of[rr * cols + cc];
            if (c >= 0) {
                A->ci[k] = c;
                A->tj[k++] = (int32_t)j;
            }
        }
        j++;
    }
    A->nnz = k;
    free(cell_of);
    return ML_OK;
}

/* |a| > |b| for ints of the document. */
static int abs_greater(mv_int a, mv_int b)
{
    if (a.big != b.big)
        return a.big;
    if (a.big) {
        size_t la = a.len - (size_t)a.neg, lb = b.len - (size_t)b.neg;
        return la != lb ? la > lb : memcmp(a.text + a.neg, b.text + b.neg, la) > 0;
    }
    uint64_t x = a.neg ? 0 - (uint64_t)a.i : (uint64_t)a.i;
    uint64_t y = b.neg ? 0 - (uint64_t)b.i : (uint64_t)b.i;
    return x > y;
}

static int read_graph(mv *v, size_t d, mv_matrix *A)
{
    static const char *const allowed[] = {"effects", "states", "n_cells"};
    if (check_fields(v, d, "graph board", allowed, 3, allowed, 2))
        return v->rc;
    size_t eff = mv_get(v, d, "effects");
    if (!mv_is_list(v, eff))
        return mv_fail(v, "effects must be a list of lists of cell indices, got %s",
                       mv_type(v, eff));
    int64_t ntaps = (int64_t)mv_count(v, eff), total = 0;
    size_t e = eff + 1;
    for (int64_t j = 0; j < ntaps; j++, e = mv_next(v, e)) {
        if (!mv_is_list(v, e))
            return mv_fail(v, "effects[%" PRId64 "] must be a list of cell indices, got %s", j,
                           mv_type(v, e));
        total += (int64_t)mv_count(v, e);
    }
    if (ntaps > MAX_TILES || total > MAX_TILES)
        return mv_fail(v, "graph board too large: %" PRId64 " taps and %" PRId64 " effect "
                       "entries, at most %" PRId64 " of each allowed", ntaps, total, MAX_TILES);
    int64_t n;
    if (board_int(v, mv_get(v, d, "states"), "states", 2, 255, "an int from 2 to 255", &n))
        return v->rc;
    A->n = (int)n;
    size_t nc = mv_get(v, d, "n_cells");
    int has_nc = nc != MV_NONE && v->j->tok[nc].kind != ML_JSON_NULL;
    if (has_nc && (!mv_is_int(v, nc) || mv_int_cmp64(mv_int_of(v, nc), 0) < 0 ||
                   mv_int_cmp64(mv_int_of(v, nc), MAX_TILES) > 0)) {
        char r[MV_MSG / 2];
        return mv_fail(v, "n_cells must be an int from 0 to %" PRId64 ", got %s", MAX_TILES,
                       mv_repr(v, nc, r, sizeof r));
    }
    /* _effect_cells: the first list with a non-int, or an index beyond 32 bits */
    e = eff + 1;
    int64_t hi = 0;
    for (int64_t j = 0; j < ntaps; j++, e = mv_next(v, e)) {
        size_t c = e + 1, big = MV_NONE;
        for (size_t i = 0; i < mv_count(v, e); i++, c = mv_next(v, c))
            if (!mv_is_int(v, c)) {
                char r[MV_MSG / 2];
                return mv_fail(v, "effects[%" PRId64 "] holds %s; cell indices must be ints", j,
                               mv_repr(v, c, r, sizeof r));
            }
        c = e + 1;
        for (size_t i = 0; i < mv_count(v, e); i++, c = mv_next(v, c)) {
            mv_int a = mv_int_of(v, c);
            if (mv_int_cmp64(a, INT32_MIN) < 0 || mv_int_cmp64(a, INT32_MAX) > 0)
                big = c;
            else if (a.i + 1 > hi)
                hi = a.i + 1;
        }
        if (big != MV_NONE) {
            mv_int best = mv_int_of(v, e + 1);
            c = e + 1;
            for (size_t i = 0; i < mv_count(v, e); i++, c = mv_next(v, c))
                if (abs_greater(mv_int_of(v, c), best))
                    best = mv_int_of(v, c);
            char t[200];
            return mv_fail(v, "effects: cell index %s out of range: a board has at most %"
                           PRId64 " cells", mv_int_text(best, t, sizeof t), MAX_TILES);
        }
    }
    if (!has_nc && hi > MAX_TILES)
        return mv_fail(v, "effects: cell index %" PRId64 " is too large: a board has at most %"
                       PRId64 " cells", hi - 1, MAX_TILES);
    int64_t m = has_nc ? mv_int_of(v, nc).i : hi;
    A->m = m;
    A->r = ntaps;
    if (coo_alloc(v, A, total))
        return v->rc;
    int64_t k = 0;
    e = eff + 1;
    for (int64_t j = 0; j < ntaps; j++, e = mv_next(v, e)) {
        size_t c = e + 1;
        for (size_t i = 0; i < mv_count(v, e); i++, c = mv_next(v, c), k++) {
            int64_t x = mv_int_of(v, c).i;
            if (x < 0 || x >= m)
                return mv_fail(v, "effects: cell index %" PRId64 " out of range: cells are "
                               "0..%" PRId64, x, m - 1);
            A->ci[k] = (int32_t)x;
            A->tj[k] = (int32_t)j;
        }
    }
    return ML_OK;
}

int mv_board(mv *v, size_t d, mv_matrix *A)
{
    memset(A, 0, sizeof *A);
    if (mv_is_dict(v, d) && mv_get(v, d, "effects") != MV_NONE)
        return read_graph(v, d, A);
    static const char *const allowed[] = {"rows", "cols", "states", "pattern", "locked",
                                          "holes", "wrap"};
    if (check_fields(v, d, "board", allowed, 7, allowed, 2))
        return v->rc;
    grid g;
    memset(&g, 0, sizeof g);
    int64_t n;
    if (board_int(v, mv_get(v, d, "rows"), "rows", 1, MAX_SIDE, "a positive int", &g.rows) ||
        board_int(v, mv_get(v, d, "cols"), "cols", 1, MAX_SIDE, "a positive int", &g.cols))
        return v->rc;
    if (g.rows * g.cols > MAX_TILES)
        return mv_fail(v, "board too large: %" PRId64 "x%" PRId64 " = %" PRId64 " tiles, at "
                       "most %" PRId64 " allowed", g.rows, g.cols, g.rows * g.cols, MAX_TILES);
    size_t st = mv_get(v, d, "states");
    if (st == MV_NONE)
        n = 2;
    else if (board_int(v, st, "states", 2, 255, "an int from 2 to 255", &n))
        return v->rc;
    A->n = (int)n;
    size_t w = mv_get(v, d, "wrap");
    if (w != MV_NONE && v->j->tok[w].kind != ML_JSON_BOOL) {
        char r[MV_MSG / 2];
        return mv_fail(v, "wrap must be true or false, got %s", mv_repr(v, w, r, sizeof r));
    }
    g.wrap = w != MV_NONE && v->j->tok[w].v.i;
    g.cappal = N_NAMED + 4;
    g.palette = malloc((size_t)g.cappal * sizeof *g.palette);
    if (!g.palette)
        return mv_nomem(v);
    for (int i = 0; i < N_NAMED; i++) {
        g.palette[i].off = NAMED[i].off;
        g.palette[i].count = NAMED[i].count;
    }
    g.npal = N_NAMED;
    size_t pt = mv_get(v, d, "pattern");
    int rc = pt == MV_NONE ? (g.one = 0, ML_OK) : read_pattern(v, pt, &g);
    if (rc) {
        in_field(v, "pattern");
        grid_free(&g);
        return v->rc;
    }
    size_t lk = mv_get(v, d, "locked"), ho = mv_get(v, d, "holes");
    if (read_positions(v, lk, "locked", &g) ? in_field(v, "locked") : 0) {
        grid_free(&g);
        return v->rc;
    }
    if (read_positions(v, ho, "holes", &g) ? in_field(v, "holes") : 0) {
        grid_free(&g);
        return v->rc;
    }
    if (mask_of(v, lk, "locked", &g, &g.locked) || mask_of(v, ho, "holes", &g, &g.holes)) {
        grid_free(&g);
        return v->rc;
    }
    if (g.locked && g.holes)
        for (int64_t t = 0; t < g.rows * g.cols; t++)
            if (g.locked[t] && g.holes[t]) {
                grid_free(&g);
                return mv_fail(v, "tile (%" PRId64 ", %" PRId64 ") is both locked and a hole; "
                               "a tile may be one or the other", t / g.cols, t % g.cols);
            }
    rc = grid_coo(v, &g, A);
    grid_free(&g);
    return rc;
}

void mv_matrix_free(mv_matrix *A)
{
    free(A->ci);
    free(A->tj);
    free(A->keys);
    free(A->vals);
    memset(A, 0, sizeof *A);
}
