/* board_play.c: reading a board's geometry and playing on it (modlights.h: boards,
 * "reading the geometry" and "playing"): patterns, masks, positions and indices, the
 * dense tap matrix, a tap's effect, apply and press (Python's Board.pattern,
 * offsets_at, locked / holes, tap_index, cell_index, taps, cells, matrix, affected,
 * apply and press, with their messages). Every function is O(1) or linear in what it
 * reads or writes: apply is O(entries of A) with no memory but its output (and a row of
 * scratch on a grid with one pattern). */
#include "api/board.h"
#include "api/ctx.h"

#include <stdlib.h>
#include <string.h>

/* ML_OK when b is a live board. */
static int live(ml_ctx *ctx, const char *fn, const ml_board *b)
{
    if (!b)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "b");
    if (b->magic != ML_BOARD_MAGIC)
        return ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "board");
    return ML_OK;
}

static int need(ml_ctx *ctx, const char *fn, const void *p, const char *what)
{
    return p ? ML_OK : ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, what);
}

/* the pattern out: count, then up to cap offsets */
static void put_pattern(const ml__pattern *p, size_t *count, int32_t *dr, int32_t *dc, size_t cap)
{
    *count = p->count;
    for (size_t i = 0; i < p->count && i < cap; i++) {
        if (dr)
            dr[i] = p->dr[i];
        if (dc)
            dc[i] = p->dc[i];
    }
}

/* ------------------------------------------------------------------ patterns */
int ml_board_pattern(ml_ctx *ctx, const ml_board *b, size_t *count, int32_t *dr, int32_t *dc,
                     size_t cap)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_pattern";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, count, "count");
    if (rc)
        return rc;
    if (b->kind != ML_BOARD_GRID)
        return ml__fail(ctx, ML_M_NOT_A_GRID, fn);
    if (b->mixed)
        return ml__fail(ctx, ML_M_NOT_UNIFORM, fn);
    put_pattern(&b->pal[0], count, dr, dc, cap);
    return ML_OK;
}

int ml_board_tile_pattern(ml_ctx *ctx, const ml_board *b, int64_t r, int64_t c, size_t *count,
                          int32_t *dr, int32_t *dc, size_t cap)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_tile_pattern";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, count, "count");
    if (rc)
        return rc;
    if (b->kind != ML_BOARD_GRID)
        return ml__fail(ctx, ML_M_NOT_A_GRID, fn);
    if (r < 0 || r >= b->rows || c < 0 || c >= b->cols)
        return ml__fail(ctx, ML_M_OFF_BOARD, "tile", (long long)r, (long long)c,
                        (long long)b->rows - 1, (long long)b->cols - 1);
    put_pattern(ml__board_tile(b, (uint64_t)(r * b->cols + c)), count, dr, dc, cap);
    return ML_OK;
}

/* ------------------------------------------------------------------ masks */
static int mask_out(ml_ctx *ctx, const char *fn, const ml_board *b, const uint8_t *mask,
                    const char *what, uint8_t *out)
{
    ctx = ml__begin(ctx);
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, out, "out");
    if (!rc)
        rc = ml__board_per_tile(ctx, b, what, 1);
    if (rc)
        return rc;
    uint64_t t = ml__board_tiles(b);
    if (mask)
        memcpy(out, mask, t);
    else
        memset(out, 0, t);
    return ML_OK;
}

int ml_board_locked_mask(ml_ctx *ctx, const ml_board *b, uint8_t *out)
{
    return mask_out(ctx, "ml_board_locked_mask", b, ml__board_live(b) ? b->locked : NULL,
                    "the locked mask", out);
}

int ml_board_holes_mask(ml_ctx *ctx, const ml_board *b, uint8_t *out)
{
    return mask_out(ctx, "ml_board_holes_mask", b, ml__board_live(b) ? b->holes : NULL,
                    "the holes mask", out);
}

/* ------------------------------------------------------------------ positions */
/* (r, c) on the board; what: "tap position" or "cell position". Graph boards: (i, 0)
 * with i below `count` (their cells or taps). */
static int on_board(ml_ctx *ctx, const ml_board *b, const char *what, int64_t r, int64_t c)
{
    int64_t rows = b->rows, cols = b->cols;
    if (r < 0 || r >= rows || c < 0 || c >= cols)
        return ml__fail(ctx, ML_M_OFF_BOARD, what, (long long)r, (long long)c,
                        (long long)rows - 1, (long long)cols - 1);
    return ML_OK;
}

int ml_board_tap_index(ml_ctx *ctx, const ml_board *b, int64_t r, int64_t c, uint64_t *j)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_tap_index";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, j, "j");
    if (rc)
        return rc;
    if (b->kind == ML_BOARD_GRAPH) {
        if (c != 0 || r < 0 || (uint64_t)r >= b->n_taps)
            return ml__fail(ctx, ML_M_TAP_RANGE, (long long)r, (long long)b->n_taps - 1);
        *j = (uint64_t)r;
        return ML_OK;
    }
    if ((rc = on_board(ctx, b, "tap position", r, c)))
        return rc;
    uint64_t f = (uint64_t)(r * b->cols + c);
    if (b->holes && b->holes[f])
        return ml__fail(ctx, ML_M_TAP_HOLE, (long long)r, (long long)c);
    if (b->locked && b->locked[f])
        return ml__fail(ctx, ML_M_TAP_LOCKED, (long long)r, (long long)c);
    *j = (uint64_t)ml__board_tap_of_flat(b, f);
    return ML_OK;
}

int ml_board_cell_index(ml_ctx *ctx, const ml_board *b, int64_t r, int64_t c, uint64_t *i)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_cell_index";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, i, "i");
    if (rc)
        return rc;
    if (b->kind == ML_BOARD_GRAPH) {
        if (c != 0 || r < 0 || (uint64_t)r >= b->n_cells)
            return ml__fail(ctx, ML_M_CELL_RANGE, (long long)r, (long long)b->n_cells - 1);
        *i = (uint64_t)r;
        return ML_OK;
    }
    if ((rc = on_board(ctx, b, "cell position", r, c)))
        return rc;
    uint64_t f = (uint64_t)(r * b->cols + c);
    if (b->holes && b->holes[f])
        return ml__fail(ctx, ML_M_CELL_HOLE, (long long)r, (long long)c);
    *i = (uint64_t)ml__board_cell_of_flat(b, f);
    return ML_OK;
}

static void position(const ml_board *b, uint64_t flat, int64_t *r, int64_t *c)
{
    if (b->kind == ML_BOARD_GRAPH) {
        *r = (int64_t)flat;
        *c = 0;
    } else {
        *r = (int64_t)(flat / (uint64_t)b->cols);
        *c = (int64_t)(flat % (uint64_t)b->cols);
    }
}

int ml_board_tap_position(ml_ctx *ctx, const ml_board *b, uint64_t j, int64_t *r, int64_t *c)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_tap_position";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, r, "r");
    if (!rc)
        rc = need(ctx, fn, c, "c");
    if (rc)
        return rc;
    if (j >= b->n_taps)
        return ml__fail(ctx, ML_M_TAP_RANGE, (long long)j, (long long)b->n_taps - 1);
    position(b, b->kind == ML_BOARD_GRID ? ml__board_tap_flat(b, j) : j, r, c);
    return ML_OK;
}

int ml_board_cell_position(ml_ctx *ctx, const ml_board *b, uint64_t i, int64_t *r, int64_t *c)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_cell_position";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, r, "r");
    if (!rc)
        rc = need(ctx, fn, c, "c");
    if (rc)
        return rc;
    if (i >= b->n_cells)
        return ml__fail(ctx, ML_M_CELL_RANGE, (long long)i, (long long)b->n_cells - 1);
    position(b, b->kind == ML_BOARD_GRID ? ml__board_cell_flat(b, i) : i, r, c);
    return ML_OK;
}

/* ------------------------------------------------------------------ the matrix */
struct column_out {
    uint8_t *out;       /* column j's first entry */
    size_t ld;
    unsigned n;
};

static void add_entry(void *arg, uint64_t cell, unsigned times)
{
    struct column_out *o = arg;
    uint8_t *e = o->out + cell * o->ld;
    *e = (uint8_t)((*e + times) % o->n);
}

int ml_board_matrix(ml_ctx *ctx, const ml_board *b, uint8_t *out, size_t ld)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    const char *fn = "ml_board_matrix";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, out, "out");
    if (!rc && (b->n_cells > ML_MAX_DENSE || b->n_taps > ML_MAX_DENSE
                || (b->n_taps && b->n_cells > ML_MAX_DENSE / b->n_taps)))
        rc = ml__fail(ctx, ML_M_DENSE_TOO_LARGE, (unsigned long long)b->n_cells,
                      (unsigned long long)b->n_taps, (unsigned long long)ML_MAX_DENSE);
    if (!rc && b->n_cells > 1 && ld < b->n_taps)
        rc = ml__fail(ctx, ML_M_INT_MIN, "ld", (long long)b->n_taps, (long long)ld);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    for (uint64_t i = 0; i < b->n_cells; i++)
        memset(out + i * ld, 0, b->n_taps);
    struct column_out o = {out, ld, (unsigned)b->n};
    for (uint64_t j = 0; j < b->n_taps; j++) {
        if ((j & 4095) == 4095 && ml_interrupt_poll())
            return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_INTERRUPTED));
        o.out = out + j;
        ml__board_each_effect(b, j, add_entry, &o);
    }
    return ml__leave(ctx, &sc, ML_OK);
}

struct effect_out {
    int64_t *cells;
    size_t cap, count;
};

static void list_entry(void *arg, uint64_t cell, unsigned times)
{
    struct effect_out *o = arg;
    for (unsigned k = 0; k < times; k++, o->count++)
        if (o->count < o->cap)
            o->cells[o->count] = (int64_t)cell;
}

int ml_board_effect(ml_ctx *ctx, const ml_board *b, uint64_t j, size_t *count, int64_t *cells,
                    size_t cap)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_effect";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, count, "count");
    if (!rc && cap)
        rc = need(ctx, fn, cells, "cells");
    if (rc)
        return rc;
    if (j >= b->n_taps)
        return ml__fail(ctx, ML_M_TAP_RANGE, (long long)j, (long long)b->n_taps - 1);
    struct effect_out o = {cells, cap, 0};
    ml__board_each_effect(b, j, list_entry, &o);
    *count = o.count;
    return ML_OK;
}

struct coo_out {
    int64_t *ci, *tj;
    size_t cap, count;
    int64_t j;
};

static void coo_entry(void *arg, uint64_t cell, unsigned times)
{
    struct coo_out *o = arg;
    for (unsigned k = 0; k < times; k++, o->count++)
        if (o->count < o->cap) {
            o->ci[o->count] = (int64_t)cell;
            o->tj[o->count] = o->j;
        }
}

/* ml__board_coo of a grid: ml__board_each_effect's walk with the cell of each tile read
 * from a map made once (4 bytes a tile, holes -1) instead of a search a cell. */
static int grid_coo(ml_ctx *ctx, const ml_board *b, const uint32_t *tf, const uint32_t *cf,
                    struct coo_out *o, size_t *nnz)
{
    uint64_t tiles = (uint64_t)b->rows * (uint64_t)b->cols;
    int32_t *cell_of = NULL;
    if (cf) {
        if (!(cell_of = malloc(tiles * sizeof *cell_of)))
            return ml__fail(ctx, ML_M_NOMEM, "ml__board_coo");
        for (uint64_t f = 0; f < tiles; f++)
            cell_of[f] = -1;
        for (uint64_t i = 0; i < b->n_cells; i++)
            cell_of[cf[i]] = (int32_t)i;
    }
    for (uint64_t j = 0; j < b->n_taps; j++) {
        if ((j & 4095) == 4095 && ml_interrupt_poll()) {
            free(cell_of);
            return ml__fail(ctx, ML_M_INTERRUPTED);
        }
        uint64_t f = tf ? tf[j] : j;
        int64_t r = (int64_t)(f / (uint64_t)b->cols), c = (int64_t)(f % (uint64_t)b->cols);
        const ml__pattern *p = ml__board_tile(b, f);
        o->j = (int64_t)j;
        for (size_t k = 0; k < p->count; k++) {
            int64_t rr = r + p->dr[k], cc = c + p->dc[k];
            if (b->wrap) {
                rr %= b->rows;
                cc %= b->cols;
                rr += rr < 0 ? b->rows : 0;
                cc += cc < 0 ? b->cols : 0;
            } else if (rr < 0 || rr >= b->rows || cc < 0 || cc >= b->cols) {
                continue;
            }
            int64_t i = (int64_t)(rr * b->cols + cc);
            if (cell_of && (i = cell_of[i]) < 0)
                continue;
            coo_entry(o, (uint64_t)i, 1);
        }
    }
    free(cell_of);
    *nnz = o->count;
    return ML_OK;
}

int ml__board_coo(ml_ctx *ctx, const ml_board *b, int64_t *ci, int64_t *tj, size_t cap,
                  size_t *nnz)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    const char *fn = "ml__board_coo";
    const uint32_t *tf = NULL, *cf = NULL;
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, nnz, "nnz");
    if (!rc && cap)
        rc = need(ctx, fn, ci && tj ? (void *)ci : NULL, ci ? "tj" : "ci");
    /* Python's rule: 16 bytes an entry, the pattern's entries a tile */
    if (!rc && b->giant)
        rc = ml__board_per_tile(ctx, b, "the coordinate form of A",
                                16 * (int)(b->pal[0].count ? b->pal[0].count : 1));
    if (!rc)   /* the positions made once: each_effect's lookups are then O(1) or O(log) */
        rc = ml__board_taps(ctx, b, fn, &tf);
    if (!rc)
        rc = ml__board_cells(ctx, b, fn, &cf);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    struct coo_out o = {ci, tj, cap, 0, 0};
    if (b->kind == ML_BOARD_GRID)
        return ml__leave(ctx, &sc, grid_coo(ctx, b, tf, cf, &o, nnz));
    for (uint64_t j = 0; j < b->n_taps; j++) {
        if ((j & 4095) == 4095 && ml_interrupt_poll())
            return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_INTERRUPTED));
        o.j = (int64_t)j;
        ml__board_each_effect(b, j, coo_entry, &o);
    }
    *nnz = o.count;
    return ml__leave(ctx, &sc, ML_OK);
}

/* ------------------------------------------------------------------ playing */
struct add_out {
    uint8_t *out;       /* board-shaped (grids) or over the cells (graph boards) */
    const ml_board *b;
    unsigned x, n;
};

static void add_taps(void *arg, uint64_t cell, unsigned times)
{
    struct add_out *o = arg;
    uint64_t at = o->b->kind == ML_BOARD_GRID ? ml__board_cell_flat(o->b, cell) : cell;
    o->out[at] = (uint8_t)((o->out[at] + times * o->x) % o->n);
}

/* out = state mod n (0 at holes); out may be state. A table of residues: no division. */
static void copy_state(const ml_board *b, const uint8_t *state, uint8_t *out)
{
    uint64_t t = ml__board_tiles(b);
    uint8_t mod[256];
    for (unsigned v = 0; v < 256; v++)
        mod[v] = (uint8_t)(v % (unsigned)b->n);
    for (uint64_t f = 0; f < t; f++)
        out[f] = mod[state[f]];
    if (b->holes)
        for (uint64_t f = 0; f < t; f++)
            if (b->holes[f])
                out[f] = 0;
}

/* o[i] = o[i] + x[i] mod n for i < len (o[i], x[i] < n) */
static void add_span(uint8_t *restrict o, const uint8_t *restrict x, int64_t len, unsigned n)
{
    if (n == 2) {
        for (int64_t i = 0; i < len; i++)
            o[i] ^= x[i];
        return;
    }
    for (int64_t i = 0; i < len; i++) {
        unsigned v = (unsigned)o[i] + x[i];
        o[i] = (uint8_t)(v >= n ? v - n : v);
    }
}

/* out += A x on a grid with one pattern (masks allowed; a tap on a locked tile was
 * refused before): each source row's taps reduced mod n (0 at holes) into xrow, then
 * added, shifted by every offset, to the rows they reach (two spans a row on a torus);
 * the holes of out zeroed last (they are no cells). O(tiles x offsets), cols bytes of
 * xrow. */
static int add_stencil(const ml_board *b, const uint8_t *taps, uint8_t *out, uint8_t *xrow)
{
    const ml__pattern *p = &b->pal[0];
    int64_t rows = b->rows, cols = b->cols;
    unsigned n = (unsigned)b->n;
    uint8_t mod[256];
    for (unsigned v = 0; v < 256; v++)
        mod[v] = (uint8_t)(v % n);
    for (int64_t r = 0; r < rows; r++) {
        if ((r & 63) == 63 && ml_interrupt_poll())
            return ML_EINTERRUPTED;
        const uint8_t *tr = taps + r * cols, *hr = b->holes ? b->holes + r * cols : NULL;
        unsigned any = 0;
        for (int64_t c = 0; c < cols; c++) {
            uint8_t v = hr && hr[c] ? 0 : mod[tr[c]];
            xrow[c] = v;
            any |= v;
        }
        if (!any)
            continue;
        for (size_t k = 0; k < p->count; k++) {
            int64_t rr = r + p->dr[k], dc = p->dc[k];
            if (b->wrap) {
                rr %= rows;
                rr += rr < 0 ? rows : 0;
                int64_t d = dc % cols;
                d += d < 0 ? cols : 0;
                uint8_t *orow = out + rr * cols;
                add_span(orow + d, xrow, cols - d, n);      /* c -> c + d */
                add_span(orow, xrow + (cols - d), d, n);   /* c -> c + d - cols */
            } else {
                if (rr < 0 || rr >= rows || dc >= cols || dc <= -cols)
                    continue;
                int64_t c0 = dc < 0 ? -dc : 0, c1 = dc > 0 ? cols - dc : cols;
                add_span(out + rr * cols + c0 + dc, xrow + c0, c1 - c0, n);
            }
        }
    }
    if (b->holes) {
        uint64_t t = ml__board_tiles(b);
        for (uint64_t f = 0; f < t; f++)
            if (b->holes[f])
                out[f] = 0;
    }
    return ML_OK;
}

/* out += A x over the taps j with x(j) = taps[j] mod n != 0: grids with one pattern by
 * add_stencil (xrow: cols bytes), the others tap by tap. ML_EINTERRUPTED when stopped. */
static int add_product(const ml_board *b, const uint8_t *taps, uint8_t *out, uint8_t *xrow)
{
    unsigned n = (unsigned)b->n;
    struct add_out o = {out, b, 0, n};
    if (b->kind == ML_BOARD_GRID && !b->mixed)
        return add_stencil(b, taps, out, xrow);
    for (uint64_t j = 0; j < b->n_taps; j++) {
        if ((j & 4095) == 4095 && ml_interrupt_poll())
            return ML_EINTERRUPTED;
        uint64_t at = b->kind == ML_BOARD_GRID ? ml__board_tap_flat(b, j) : j;
        o.x = taps[at] % n;
        if (o.x)
            ml__board_each_effect(b, j, add_taps, &o);
    }
    return ML_OK;
}

int ml_board_apply(ml_ctx *ctx, const ml_board *b, const uint8_t *state, const uint8_t *taps,
                   uint8_t *out)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    const char *fn = "ml_board_apply";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, state, "state");
    if (!rc)
        rc = need(ctx, fn, taps, "taps");
    if (!rc)
        rc = need(ctx, fn, out, "out");
    if (!rc)
        rc = ml__board_per_tile(ctx, b, "a byte state", 1);
    if (!rc && b->locked) {
        uint64_t t = ml__board_tiles(b);
        for (uint64_t f = 0; f < t; f++)
            if (b->locked[f] && taps[f] % b->n) {
                rc = ml__fail(ctx, ML_M_TAP_LOCKED, (long long)(f / (uint64_t)b->cols),
                              (long long)(f % (uint64_t)b->cols));
                break;
            }
    }
    if (rc)
        return ml__leave(ctx, &sc, rc);
    uint8_t *xrow = NULL;
    if (b->kind == ML_BOARD_GRID && !b->mixed && !(xrow = malloc((size_t)b->cols)))
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, fn));
    copy_state(b, state, out);
    if (add_product(b, taps, out, xrow))
        rc = ml__fail(ctx, ML_M_INTERRUPTED);
    free(xrow);
    return ml__leave(ctx, &sc, rc);
}

int ml_board_press(ml_ctx *ctx, const ml_board *b, const uint8_t *state, int64_t r, int64_t c,
                   int64_t times, uint8_t *out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_press";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, state, "state");
    if (!rc)
        rc = need(ctx, fn, out, "out");
    if (!rc)
        rc = ml__board_per_tile(ctx, b, "a byte state", 1);
    uint64_t j = 0;
    if (!rc)
        rc = ml_board_tap_index(ctx, b, r, c, &j);
    if (rc)
        return rc;
    copy_state(b, state, out);
    int64_t x = times % b->n;
    struct add_out o = {out, b, (unsigned)(x < 0 ? x + b->n : x), (unsigned)b->n};
    if (o.x)
        ml__board_each_effect(b, j, add_taps, &o);
    return ML_OK;
}

/* ------------------------------------------------------------------ random states */
/* SplitMix64 as Python's modlights.play.prng.SplitMix64 (next_u64, randbelow). */
static uint64_t split_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned split_below(uint64_t *s, unsigned n)
{
    uint64_t limit = UINT64_MAX - (((UINT64_MAX % n) + 1) % n);   /* 2^64 - 2^64 mod n, - 1 */
    for (;;) {
        uint64_t v = split_next(s);
        if (v <= limit)
            return (unsigned)(v % n);
    }
}

int ml_board_random_state(ml_ctx *ctx, const ml_board *b, uint64_t seed, int solvable,
                          uint8_t *out)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    const char *fn = "ml_board_random_state";
    int rc = live(ctx, fn, b);
    if (!rc)
        rc = need(ctx, fn, out, "out");
    if (!rc)
        rc = ml__board_per_tile(ctx, b, "a random byte state", 1);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    uint64_t t = ml__board_tiles(b);
    unsigned n = (unsigned)b->n;
    memset(out, 0, t);
    if (!solvable) {
        /* a value a cell, in the order of the cells */
        for (uint64_t i = 0; i < b->n_cells; i++)
            out[b->kind == ML_BOARD_GRID ? ml__board_cell_flat(b, i) : i] =
                (uint8_t)split_below(&seed, n);
        return ml__leave(ctx, &sc, ML_OK);
    }
    /* -A x for x a count a tap, in the order of the taps: A x accumulated, then negated */
    struct add_out o = {out, b, 0, n};
    for (uint64_t j = 0; j < b->n_taps; j++) {
        if ((j & 4095) == 4095 && ml_interrupt_poll())
            return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_INTERRUPTED));
        o.x = split_below(&seed, n);
        if (o.x)
            ml__board_each_effect(b, j, add_taps, &o);
    }
    for (uint64_t f = 0; f < t; f++)
        out[f] = (uint8_t)((n - out[f]) % n);
    return ml__leave(ctx, &sc, ML_OK);
}
