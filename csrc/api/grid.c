/* grid.c: the named patterns, the grid builder and ml_grid_build (modlights.h: patterns,
 * grid boards; Python's PATTERNS, Board.grid and modlights.model.patterns, with their
 * messages), and Python's repr() of a string for messages. The builder keeps what
 * it was told (a pattern or a palette with a tile index, wrap, masks of locked tiles and
 * holes); ml_grid_build checks what only the whole description can show (a tile both
 * locked and a hole) and makes the immutable board (api/board.h). */
#include "api/board.h"
#include "api/ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ named patterns */
typedef struct {
    const char *name;
    int count;
    int8_t dr[9], dc[9];
} named_pattern;

/* the tapped tile (0, 0) first, then Python's order */
static const named_pattern named[ML_PATTERN_COUNT] = {
    [ML_PATTERN_CROSS] = {"cross", 5, {0, -1, 1, 0, 0}, {0, 0, 0, -1, 1}},
    [ML_PATTERN_DIAGONAL] = {"diagonal", 5, {0, -1, -1, 1, 1}, {0, -1, 1, -1, 1}},
    [ML_PATTERN_SQUARE] = {"square", 9, {0, -1, -1, -1, 0, 0, 1, 1, 1},
                           {0, -1, 0, 1, -1, 1, -1, 0, 1}},
    [ML_PATTERN_HORIZONTAL] = {"horizontal", 3, {0, 0, 0}, {0, -1, 1}},
    [ML_PATTERN_VERTICAL] = {"vertical", 3, {0, -1, 1}, {0, 0, 0}},
    [ML_PATTERN_KNIGHT] = {"knight", 9, {0, -2, -2, -1, -1, 1, 1, 2, 2},
                           {0, -1, 1, -2, 2, -2, 2, -1, 1}},
};

/* Python's str.isspace for ASCII: what str.strip() removes */
static int py_space(unsigned char ch)
{
    return ch == ' ' || (ch >= '\t' && ch <= '\r') || (ch >= 0x1c && ch <= 0x1f);
}

int ml_pattern_lookup(ml_ctx *ctx, const char *name, int *id)
{
    ctx = ml__begin(ctx);
    if (!name)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_pattern_lookup", "name");
    if (!id)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_pattern_lookup", "id");
    size_t a = 0, b = strlen(name);
    while (a < b && py_space((unsigned char)name[a]))
        a++;
    while (b > a && py_space((unsigned char)name[b - 1]))
        b--;
    for (int k = 0; k < ML_PATTERN_COUNT; k++) {
        const char *p = named[k].name;
        size_t len = strlen(p), i = 0;
        if (len != b - a)
            continue;
        while (i < len) {
            unsigned char ch = (unsigned char)name[a + i];
            if (ch >= 'A' && ch <= 'Z')
                ch = (unsigned char)(ch - 'A' + 'a');
            if (ch != (unsigned char)p[i])
                break;
            i++;
        }
        if (i == len) {
            *id = k;
            return ML_OK;
        }
    }
    char quoted[256];
    return ml__fail(ctx, ML_M_PATTERN_UNKNOWN, ml__repr_str(name, quoted, sizeof quoted));
}

const char *ml_pattern_name(int id)
{
    return id >= 0 && id < ML_PATTERN_COUNT ? named[id].name : NULL;
}

size_t ml_pattern_offsets(int id, int32_t *dr, int32_t *dc, size_t cap)
{
    if (id < 0 || id >= ML_PATTERN_COUNT)
        return 0;
    const named_pattern *p = &named[id];
    for (size_t i = 0; i < (size_t)p->count && i < cap; i++) {
        if (dr)
            dr[i] = p->dr[i];
        if (dc)
            dc[i] = p->dc[i];
    }
    return (size_t)p->count;
}

char *ml__repr_str(const char *s, char *buf, size_t cap)
{
    if (cap == 0)
        return buf;
    int dq = strchr(s, '\'') && !strchr(s, '"');
    char q = dq ? '"' : '\'';
    size_t o = 0;
#define PUT(ch) do { if (o + 1 < cap) buf[o++] = (ch); } while (0)
    PUT(q);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char ch = *p;
        char esc[5] = {0};
        if (ch == (unsigned char)q || ch == '\\')
            esc[0] = '\\', esc[1] = (char)ch;
        else if (ch == '\n')
            memcpy(esc, "\\n", 3);
        else if (ch == '\r')
            memcpy(esc, "\\r", 3);
        else if (ch == '\t')
            memcpy(esc, "\\t", 3);
        else if (ch < 0x20 || ch == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", ch);
        if (esc[0])
            for (const char *e = esc; *e; e++)
                PUT(*e);
        else
            PUT((char)ch);
    }
    PUT(q);
#undef PUT
    buf[o] = 0;
    return buf;
}

/* ------------------------------------------------------------------ the builder */
/* A mask of the builder: rows * cols bytes 0 / 1 (NULL: none marked), and its ones. */
typedef struct {
    ml__mask *m;
    uint64_t ones;
} grid_mask;

struct ml_grid {
    uint32_t magic;
    int64_t rows, cols;
    int n, wrap;
    ml__pattern pattern;        /* the one pattern (when index is NULL) */
    uint32_t n_pal;
    ml__pattern *pal;           /* the palette of a mixed board */
    uint32_t *index;            /* mixed: the palette entry of every tile, else NULL */
    grid_mask locked, holes;
};

static void pattern_free(ml__pattern *p)
{
    free(p->dr);
    free(p->dc);
    p->dr = p->dc = NULL;
    p->count = 0;
}

/* A copy of offsets (int32, already checked). */
static int pattern_set(ml__pattern *p, size_t count, const int32_t *dr, const int32_t *dc)
{
    ml__pattern q = {count, NULL, NULL};
    if (count) {
        q.dr = malloc(count * sizeof *q.dr);
        q.dc = malloc(count * sizeof *q.dc);
        if (!q.dr || !q.dc) {
            pattern_free(&q);
            return -1;
        }
        memcpy(q.dr, dr, count * sizeof *dr);
        memcpy(q.dc, dc, count * sizeof *dc);
    }
    *p = q;
    return 0;
}

/* Offsets given by the caller, checked as Python's parse_pattern does (at most
 * ML_MAX_OFFSETS of them, none reaching past ML_MAX_REACH), into p. */
static int pattern_from(ml_ctx *ctx, const char *fn, ml__pattern *p, size_t count,
                        const int64_t *dr, const int64_t *dc)
{
    if (count > ML_MAX_OFFSETS)
        return ml__fail(ctx, ML_M_TOO_MANY_ITEMS, "pattern", (long long)ML_MAX_OFFSETS);
    if (count && (!dr || !dc))
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, dr ? "dc" : "dr");
    int32_t *a = count ? malloc(count * sizeof *a) : NULL;
    int32_t *b = count ? malloc(count * sizeof *b) : NULL;
    if (count && (!a || !b)) {
        free(a);
        free(b);
        return ml__fail(ctx, ML_M_NOMEM, fn);
    }
    for (size_t i = 0; i < count; i++) {
        if (dr[i] > ML_MAX_REACH || dr[i] < -ML_MAX_REACH || dc[i] > ML_MAX_REACH
            || dc[i] < -ML_MAX_REACH) {
            free(a);
            free(b);
            return ml__fail(ctx, ML_M_PATTERN_REACH, (long long)dr[i], (long long)dc[i],
                            ML_MAX_REACH);
        }
        a[i] = (int32_t)dr[i];
        b[i] = (int32_t)dc[i];
    }
    int bad = pattern_set(p, count, a, b);
    free(a);
    free(b);
    return bad ? ml__fail(ctx, ML_M_NOMEM, fn) : ML_OK;
}

static int pattern_named(ml_ctx *ctx, const char *fn, ml__pattern *p, int id)
{
    int32_t dr[16], dc[16];
    size_t count = ml_pattern_offsets(id, dr, dc, 16);
    if (count == 0)
        return ml__fail(ctx, ML_M_INT_RANGE, "pattern id", 0LL, (long long)ML_PATTERN_COUNT - 1,
                        (long long)id);
    return pattern_set(p, count, dr, dc) ? ml__fail(ctx, ML_M_NOMEM, fn) : ML_OK;
}

/* ML_OK when g is a live builder. */
static int live(ml_ctx *ctx, const char *fn, const ml_grid *g)
{
    if (!g)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "g");
    if (g->magic != ML_GRID_MAGIC)
        return ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "grid builder");
    return ML_OK;
}

static int64_t tiles(const ml_grid *g) { return g->rows * g->cols; }

/* Past ML_MAX_TILES a grid is uniform: no mixed map, locks or holes (before allocating). */
static int uniform_only(ml_ctx *ctx, const ml_grid *g)
{
    if (tiles(g) <= ML_MAX_TILES)
        return ML_OK;
    return ml__fail(ctx, ML_M_BOARD_TOO_LARGE, (long long)g->rows, (long long)g->cols,
                    (long long)tiles(g), (long long)ML_MAX_TILES);
}

int ml_grid_new(ml_ctx *ctx, int64_t rows, int64_t cols, int states, ml_grid **out)
{
    ctx = ml__begin(ctx);
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_grid_new", "out");
    if (rows < 1 || rows > ML_MAX_SIDE)
        return ml__fail(ctx, ML_M_INT_RANGE, "rows", 1LL, (long long)ML_MAX_SIDE, (long long)rows);
    if (cols < 1 || cols > ML_MAX_SIDE)
        return ml__fail(ctx, ML_M_INT_RANGE, "cols", 1LL, (long long)ML_MAX_SIDE, (long long)cols);
    if (states < ML_MIN_STATES || states > ML_MAX_STATES)
        return ml__fail(ctx, ML_M_INT_RANGE, "states", (long long)ML_MIN_STATES,
                        (long long)ML_MAX_STATES, (long long)states);
    ml_grid *g = calloc(1, sizeof *g);
    if (!g)
        return ml__fail(ctx, ML_M_NOMEM, "ml_grid_new");
    g->rows = rows;
    g->cols = cols;
    g->n = states;
    if (pattern_named(ctx, "ml_grid_new", &g->pattern, ML_PATTERN_CROSS)) {
        free(g);
        return ML_ENOMEM;
    }
    g->magic = ML_GRID_MAGIC;
    *out = g;
    return ML_OK;
}

void ml_grid_free(ml_grid *g)
{
    if (!g || g->magic != ML_GRID_MAGIC)
        return;
    g->magic = 0;
    pattern_free(&g->pattern);
    for (uint32_t i = 0; i < g->n_pal; i++)
        pattern_free(&g->pal[i]);
    free(g->pal);
    free(g->index);
    ml__mask_release(g->locked.m);
    ml__mask_release(g->holes.m);
    free(g);
}

/* The grid becomes uniform with pattern p (taken). */
static void set_uniform(ml_grid *g, ml__pattern p)
{
    pattern_free(&g->pattern);
    g->pattern = p;
    free(g->index);
    g->index = NULL;
}

int ml_grid_set_pattern(ml_ctx *ctx, ml_grid *g, int pattern_id)
{
    ctx = ml__begin(ctx);
    int rc = live(ctx, "ml_grid_set_pattern", g);
    ml__pattern p = {0, NULL, NULL};
    if (!rc)
        rc = pattern_named(ctx, "ml_grid_set_pattern", &p, pattern_id);
    if (!rc)
        set_uniform(g, p);
    return rc;
}

int ml_grid_set_pattern_name(ml_ctx *ctx, ml_grid *g, const char *name)
{
    ctx = ml__begin(ctx);
    int id = 0, rc = live(ctx, "ml_grid_set_pattern_name", g);
    if (!rc)
        rc = ml_pattern_lookup(ctx, name, &id);
    return rc ? rc : ml_grid_set_pattern(ctx, g, id);
}

int ml_grid_set_offsets(ml_ctx *ctx, ml_grid *g, size_t count, const int64_t *dr,
                        const int64_t *dc)
{
    ctx = ml__begin(ctx);
    int rc = live(ctx, "ml_grid_set_offsets", g);
    ml__pattern p = {0, NULL, NULL};
    if (!rc)
        rc = pattern_from(ctx, "ml_grid_set_offsets", &p, count, dr, dc);
    if (!rc)
        set_uniform(g, p);
    return rc;
}

/* Append p (taken) to the palette; its index in *index. */
static int palette_push(ml_ctx *ctx, const char *fn, ml_grid *g, ml__pattern *p, uint32_t *index)
{
    if (g->n_pal >= UINT32_MAX - 1) {
        pattern_free(p);
        return ml__fail(ctx, ML_M_TOO_MANY_ITEMS, "the palette", (long long)g->n_pal);
    }
    ml__pattern *pal = realloc(g->pal, (g->n_pal + 1) * sizeof *pal);
    if (!pal) {
        pattern_free(p);
        return ml__fail(ctx, ML_M_NOMEM, fn);
    }
    g->pal = pal;
    pal[g->n_pal] = *p;
    *index = g->n_pal++;
    return ML_OK;
}

int ml_grid_palette_add(ml_ctx *ctx, ml_grid *g, int pattern_id, uint32_t *index)
{
    ctx = ml__begin(ctx);
    int rc = live(ctx, "ml_grid_palette_add", g);
    if (!rc && !index)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_grid_palette_add", "index");
    ml__pattern p = {0, NULL, NULL};
    if (!rc)
        rc = pattern_named(ctx, "ml_grid_palette_add", &p, pattern_id);
    return rc ? rc : palette_push(ctx, "ml_grid_palette_add", g, &p, index);
}

int ml_grid_palette_add_offsets(ml_ctx *ctx, ml_grid *g, size_t count, const int64_t *dr,
                                const int64_t *dc, uint32_t *index)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_grid_palette_add_offsets";
    int rc = live(ctx, fn, g);
    if (!rc && !index)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "index");
    ml__pattern p = {0, NULL, NULL};
    if (!rc)
        rc = pattern_from(ctx, fn, &p, count, dr, dc);
    return rc ? rc : palette_push(ctx, fn, g, &p, index);
}

int ml_grid_set_mixed(ml_ctx *ctx, ml_grid *g, const uint32_t *index)
{
    ctx = ml__begin(ctx);
    int rc = live(ctx, "ml_grid_set_mixed", g);
    if (!rc && !index)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_grid_set_mixed", "index");
    if (!rc)
        rc = uniform_only(ctx, g);
    if (rc)
        return rc;
    size_t t = (size_t)tiles(g);
    for (size_t f = 0; f < t; f++)
        if (index[f] >= g->n_pal)
            return ml__fail(ctx, ML_M_PALETTE_INDEX, (long long)(f / (size_t)g->cols),
                            (long long)(f % (size_t)g->cols), (long long)index[f],
                            (long long)g->n_pal);
    uint32_t *copy = malloc(t * sizeof *copy);
    if (!copy)
        return ml__fail(ctx, ML_M_NOMEM, "ml_grid_set_mixed");
    memcpy(copy, index, t * sizeof *copy);
    free(g->index);
    g->index = copy;
    return ML_OK;
}

int ml_grid_set_wrap(ml_ctx *ctx, ml_grid *g, int wrap)
{
    ctx = ml__begin(ctx);
    int rc = live(ctx, "ml_grid_set_wrap", g);
    if (!rc)
        g->wrap = wrap != 0;
    return rc;
}

/* *gm replaced by m (taken): the one it held dropped. */
static void put_mask(grid_mask *gm, ml__mask *m, uint64_t ones)
{
    ml__mask_release(gm->m);
    gm->m = m;
    gm->ones = m ? ones : 0;
}

/* Mark (r, c) in *gm (made on first use; copied first when a board shares it or its
 * bytes are the caller's). what: "locked" or "holes". */
static int mark(ml_ctx *ctx, const char *fn, ml_grid *g, grid_mask *gm, const char *what,
                int64_t r, int64_t c)
{
    int rc = live(ctx, fn, g);
    if (rc)
        return rc;
    if (r < 0 || r >= g->rows || c < 0 || c >= g->cols)
        return ml__fail(ctx, ML_M_OFF_BOARD, what, (long long)r, (long long)c,
                        (long long)g->rows - 1, (long long)g->cols - 1);
    if ((rc = uniform_only(ctx, g)))
        return rc;
    size_t t = (size_t)tiles(g);
    if (!gm->m || !gm->m->own || atomic_load(&gm->m->refs) > 1) {
        ml__mask *m = ml__mask_new(t);
        if (!m)
            return ml__fail(ctx, ML_M_NOMEM, fn);
        if (gm->m)
            memcpy(m->bytes, gm->m->bytes, t);
        else
            memset(m->bytes, 0, t);
        put_mask(gm, m, gm->ones);
    }
    uint8_t *at = &gm->m->bytes[r * g->cols + c];
    gm->ones += !*at;
    *at = 1;
    return ML_OK;
}

int ml_grid_lock(ml_ctx *ctx, ml_grid *g, int64_t r, int64_t c)
{
    ctx = ml__begin(ctx);
    return mark(ctx, "ml_grid_lock", g, g ? &g->locked : NULL, "locked", r, c);
}

int ml_grid_hole(ml_ctx *ctx, ml_grid *g, int64_t r, int64_t c)
{
    ctx = ml__begin(ctx);
    return mark(ctx, "ml_grid_hole", g, g ? &g->holes : NULL, "holes", r, c);
}

/* Replace *gm by a copy of m (nonzero: marked; NULL or no mark: none). */
static int set_mask(ml_ctx *ctx, const char *fn, ml_grid *g, grid_mask *gm, const uint8_t *m)
{
    int rc = live(ctx, fn, g);
    if (rc)
        return rc;
    if (!m) {
        put_mask(gm, NULL, 0);
        return ML_OK;
    }
    if ((rc = uniform_only(ctx, g)))
        return rc;
    size_t t = (size_t)tiles(g);
    ml__mask *copy = ml__mask_new(t);
    if (!copy)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    uint64_t k = 0;
    for (size_t f = 0; f < t; f++) {
        copy->bytes[f] = m[f] != 0;
        k += copy->bytes[f];
    }
    put_mask(gm, copy, k);
    return ML_OK;
}

int ml_grid_set_locked(ml_ctx *ctx, ml_grid *g, const uint8_t *mask)
{
    ctx = ml__begin(ctx);
    return set_mask(ctx, "ml_grid_set_locked", g, g ? &g->locked : NULL, mask);
}

int ml_grid_set_holes(ml_ctx *ctx, ml_grid *g, const uint8_t *mask)
{
    ctx = ml__begin(ctx);
    return set_mask(ctx, "ml_grid_set_holes", g, g ? &g->holes : NULL, mask);
}

/* *gm read from the caller's m in place (release(arg) when no longer read), or a copy
 * when some byte is neither 0 nor 1 (release(arg) at once). */
static int share_mask(ml_ctx *ctx, const char *fn, ml_grid *g, grid_mask *gm, const uint8_t *m,
                      void (*release)(void *arg), void *arg)
{
    int rc = live(ctx, fn, g);
    if (!rc && !m)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "mask");
    if (!rc)
        rc = uniform_only(ctx, g);
    if (rc)
        return rc;
    size_t t = (size_t)tiles(g);
    uint64_t k = 0;
    unsigned over = 0;
    for (size_t f0 = 0; f0 < t; f0 += (size_t)1 << 20) {   /* the ones, and any byte past 1 */
        size_t f1 = t - f0 < ((size_t)1 << 20) ? t : f0 + ((size_t)1 << 20);
        uint32_t k32 = 0;   /* 32-bit lanes within a block of 2^20 bytes: vectorised */
        uint8_t o8 = 0;
        for (size_t f = f0; f < f1; f++) {
            k32 += m[f];
            o8 |= m[f];
        }
        k += k32;
        over |= o8 >> 1;
    }
    if (over) {   /* not a 0 / 1 mask: a copy that is */
        rc = set_mask(ctx, fn, g, gm, m);
        if (!rc && release)
            release(arg);
        return rc;
    }
    ml__mask *s = ml__mask_borrow(m, release, arg);
    if (!s)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    put_mask(gm, s, k);
    return ML_OK;
}

int ml_grid_share_locked(ml_ctx *ctx, ml_grid *g, const uint8_t *mask,
                         void (*release)(void *arg), void *arg)
{
    ctx = ml__begin(ctx);
    return share_mask(ctx, "ml_grid_share_locked", g, g ? &g->locked : NULL, mask, release, arg);
}

int ml_grid_share_holes(ml_ctx *ctx, ml_grid *g, const uint8_t *mask,
                        void (*release)(void *arg), void *arg)
{
    ctx = ml__begin(ctx);
    return share_mask(ctx, "ml_grid_share_holes", g, g ? &g->holes : NULL, mask, release, arg);
}

/* The builder's mask, shared (a reference), when it marks some tile, else NULL. */
static ml__mask *kept_mask(const grid_mask *gm)
{
    return gm->ones ? ml__mask_retain(gm->m) : NULL;
}

int ml_grid_build(ml_ctx *ctx, const ml_grid *g, ml_board **out)
{
    ctx = ml__begin(ctx);
    int rc = live(ctx, "ml_grid_build", g);
    if (rc)
        return rc;
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_grid_build", "out");
    size_t t = (size_t)tiles(g);
    const uint8_t *gl = g->locked.ones ? g->locked.m->bytes : NULL;
    const uint8_t *gh = g->holes.ones ? g->holes.m->bytes : NULL;
    uint8_t both = 0;   /* a tile both locked and a hole: found by a vectorised pass */
    for (size_t f = 0; gl && gh && f < t; f++)
        both |= gl[f] & gh[f];
    for (size_t f = 0; both && f < t; f++)
        if (gl[f] && gh[f])
            return ml__fail(ctx, ML_M_LOCKED_AND_HOLE, (long long)(f / (size_t)g->cols),
                            (long long)(f % (size_t)g->cols));
    ml_board *b = calloc(1, sizeof *b);
    if (!b)
        return ml__fail(ctx, ML_M_NOMEM, "ml_grid_build");
    atomic_init(&b->refs, 1);
    b->kind = ML_BOARD_GRID;
    b->n = g->n;
    b->rows = g->rows;
    b->cols = g->cols;
    b->wrap = g->wrap;
    b->giant = tiles(g) > ML_MAX_TILES;
    b->mixed = g->index != NULL;
    int fail = 0;
    const ml__pattern *src = b->mixed ? g->pal : &g->pattern;
    b->n_pal = b->mixed ? g->n_pal : 1;
    b->pal = calloc(b->n_pal ? b->n_pal : 1, sizeof *b->pal);
    fail = !b->pal;
    for (uint32_t i = 0; !fail && i < b->n_pal; i++)
        fail = pattern_set(&b->pal[i], src[i].count, src[i].dr, src[i].dc) != 0;
    if (!fail && b->mixed) {
        b->tile_pal = malloc(t * sizeof *b->tile_pal);
        if (!(fail = !b->tile_pal))
            memcpy(b->tile_pal, g->index, t * sizeof *b->tile_pal);
    }
    if (!fail) {
        b->locked_m = kept_mask(&g->locked);
        b->holes_m = kept_mask(&g->holes);
        b->locked = b->locked_m ? b->locked_m->bytes : NULL;
        b->holes = b->holes_m ? b->holes_m->bytes : NULL;
    }
    /* no tile is both (checked above): the locked tiles are the locked mask's ones */
    uint64_t n_holes = b->holes ? g->holes.ones : 0, n_locked = b->locked ? g->locked.ones : 0;
    b->n_cells = (uint64_t)t - n_holes;
    b->n_taps = (uint64_t)t - n_holes - n_locked;
    /* the flat positions of the cells and the taps are made on first need
     * (ml__board_cells, ml__board_taps) */
    b->magic = ML_BOARD_MAGIC;
    if (fail) {
        ml__board_destroy(b);
        return ml__fail(ctx, ML_M_NOMEM, "ml_grid_build");
    }
    *out = b;
    return ML_OK;
}

int ml_board_grid(ml_ctx *ctx, int64_t rows, int64_t cols, int states, const char *pattern,
                  ml_board **out)
{
    ctx = ml__begin(ctx);
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_board_grid", "out");
    ml_grid *g = NULL;
    int rc = ml_grid_new(ctx, rows, cols, states, &g);
    if (!rc && pattern)
        rc = ml_grid_set_pattern_name(ctx, g, pattern);
    if (!rc)
        rc = ml_grid_build(ctx, g, out);
    ml_grid_free(g);
    return rc;
}
