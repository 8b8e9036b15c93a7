/* board.c: board handles (modlights.h: boards): graph boards from effects or a matrix,
 * references, properties, equality and hash (Python's Board.from_effects,
 * Board.from_matrix, __eq__ and __hash__, with their messages), and the helpers of
 * api/board.h. Grids are built in api/grid.c; positions, masks and play in board_play.c. */
#include "api/board.h"
#include "api/ctx.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */
int ml__board_live(const ml_board *b) { return b && b->magic == ML_BOARD_MAGIC; }

uint64_t ml__board_tiles(const ml_board *b)
{
    return b->kind == ML_BOARD_GRID ? (uint64_t)b->rows * (uint64_t)b->cols : b->n_cells;
}

const ml__pattern *ml__board_tile(const ml_board *b, uint64_t f)
{
    return b->tile_pal ? &b->pal[b->tile_pal[f]] : &b->pal[0];
}

int ml__board_per_tile(ml_ctx *ctx, const ml_board *b, const char *what, int bytes_per_tile)
{
    if (!b->giant)
        return ML_OK;
    long long t = (long long)(b->rows * b->cols);
    double need = (double)t * bytes_per_tile / (double)((uint64_t)1 << 30);
    return ml__fail(ctx, ML_M_GIANT_PER_TILE, what, (long long)b->rows, (long long)b->cols, need,
                    bytes_per_tile, bytes_per_tile != 1 ? "s" : "", t, (long long)ML_MAX_TILES);
}

/* b is a grid some of whose tiles are no taps (locks or holes; kept masks mark some) */
static int sparse_taps(const ml_board *b)
{
    return b->kind == ML_BOARD_GRID && (b->locked || b->holes);
}

/* b is a grid some of whose tiles are no cells (holes) */
static int sparse_cells(const ml_board *b)
{
    return b->kind == ML_BOARD_GRID && b->holes;
}

/* grid tile f is a tap (no lock, no hole) */
static int is_tap(const ml_board *b, uint64_t f)
{
    return !(b->locked && b->locked[f]) && !(b->holes && b->holes[f]);
}

/* The flat positions of the taps (taps = 1) or the cells (taps = 0) of b as kept in
 * *slot: made (and published) on the first call, NULL when every tile is one (identity)
 * or they cannot be made. O(tiles) the first time, O(1) after. */
static const uint32_t *flat_array(const ml_board *b, uint32_t *_Atomic *slot, int taps)
{
    uint32_t *tf = atomic_load_explicit(slot, memory_order_acquire);
    if (tf || !(taps ? sparse_taps(b) : sparse_cells(b)))
        return tf;
    size_t t = (size_t)ml__board_tiles(b), r = (size_t)(taps ? b->n_taps : b->n_cells);
    if (!(tf = malloc((r ? r : 1) * sizeof *tf)))
        return NULL;
    const uint8_t *h = b->holes, *l = taps ? b->locked : NULL, *one = h ? h : l;
    if (h && l)   /* written without branches; j < r keeps the last write in bounds */
        for (size_t f = 0, j = 0; f < t && j < r; f++) {
            tf[j] = (uint32_t)f;
            j += !(h[f] | l[f]);
        }
    else
        for (size_t f = 0, j = 0; f < t && j < r; f++) {
            tf[j] = (uint32_t)f;
            j += !one[f];
        }
    uint32_t *first = NULL;   /* another thread's copy, when it published first */
    if (!atomic_compare_exchange_strong_explicit(slot, &first, tf, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(tf);
        tf = first;
    }
    return tf;
}

static const uint32_t *tap_array(const ml_board *b)
{
    return flat_array(b, &((ml_board *)b)->tap_flat, 1);   /* a cache (board.h) */
}

int ml__board_cells_are_tiles(const ml_board *b) { return !sparse_cells(b); }

const uint8_t *ml__board_mask(const ml_board *b, int holes)
{
    if (!ml__board_live(b) || b->kind != ML_BOARD_GRID)
        return NULL;
    return holes ? b->holes : b->locked;
}

const uint32_t *ml__board_cell_positions(const ml_board *b)
{
    return flat_array(b, &((ml_board *)b)->cell_flat, 0);   /* a cache (board.h) */
}

uint64_t ml__board_cell_flat(const ml_board *b, uint64_t i)
{
    const uint32_t *cf = ml__board_cell_positions(b);
    if (cf || !sparse_cells(b))
        return cf ? cf[i] : i;
    uint64_t f = 0;   /* no memory for the positions: the (i+1)-th cell by a scan */
    for (uint64_t k = 0;; f++)
        if (!b->holes[f] && k++ == i)
            return f;
}

int ml__board_cells(ml_ctx *ctx, const ml_board *b, const char *fn, const uint32_t **cf)
{
    *cf = ml__board_cell_positions(b);
    if (!*cf && sparse_cells(b))
        return ml__fail(ctx, ML_M_NOMEM, fn);
    return ML_OK;
}

int ml__board_taps(ml_ctx *ctx, const ml_board *b, const char *fn, const uint32_t **tf)
{
    *tf = tap_array(b);
    if (!*tf && sparse_taps(b))
        return ml__fail(ctx, ML_M_NOMEM, fn);
    return ML_OK;
}

/* the first 1 of mask m in [f, t), or t */
static uint64_t next_one(const uint8_t *m, uint64_t f, uint64_t t)
{
    const uint8_t *p = m && f < t ? memchr(m + f, 1, (size_t)(t - f)) : NULL;
    return p ? (uint64_t)(p - m) : t;
}

void ml__tap_runs_init(ml__tap_runs *it, const ml_board *b)
{
    int grid = b->kind == ML_BOARD_GRID;
    it->l = grid ? b->locked : NULL;
    it->h = grid ? b->holes : NULL;
    it->t = sparse_taps(b) ? ml__board_tiles(b) : b->n_taps;
    it->nl = next_one(it->l, 0, it->t);
    it->nh = next_one(it->h, 0, it->t);
    it->f = it->j = it->len = 0;
}

int ml__tap_runs_next(ml__tap_runs *it)
{
    uint64_t f = it->f + it->len;   /* past the last run: skip the locks and holes there */
    it->j += it->len;
    for (; f < it->t; f++) {
        if (it->nl < f)
            it->nl = next_one(it->l, f, it->t);
        if (it->nh < f)
            it->nh = next_one(it->h, f, it->t);
        if (f != it->nl && f != it->nh)
            break;
    }
    if (f >= it->t) {
        it->f = it->t;
        it->len = 0;
        return 0;
    }
    uint64_t e = it->nl < it->nh ? it->nl : it->nh;
    it->f = f;
    it->len = e - f;
    return 1;
}

uint64_t ml__board_tap_flat(const ml_board *b, uint64_t j)
{
    const uint32_t *tf = tap_array(b);
    if (tf || !sparse_taps(b))
        return tf ? tf[j] : j;
    uint64_t f = 0;   /* no memory for the positions: the (j+1)-th tap by a scan */
    for (uint64_t k = 0;; f++)
        if (is_tap(b, f) && k++ == j)
            return f;
}

/* the index of f in the ascending array a[0..n), or -1 */
static int64_t find(const uint32_t *a, uint64_t n, uint64_t f)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (a[mid] < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && a[lo] == f ? (int64_t)lo : -1;
}

int64_t ml__board_cell_of_flat(const ml_board *b, uint64_t f)
{
    if (!sparse_cells(b))
        return (int64_t)f;
    if (b->holes[f])
        return -1;
    const uint32_t *cf = ml__board_cell_positions(b);
    if (cf)
        return find(cf, b->n_cells, f);
    int64_t i = 0;   /* no memory for the positions: the cells before f by a scan */
    for (uint64_t g = 0; g < f; g++)
        i += !b->holes[g];
    return i;
}

int64_t ml__board_tap_of_flat(const ml_board *b, uint64_t f)
{
    if (!sparse_taps(b))
        return (int64_t)f;
    if (!is_tap(b, f))
        return -1;
    const uint32_t *tf = tap_array(b);
    if (tf)
        return find(tf, b->n_taps, f);
    int64_t j = 0;   /* no memory for the positions: the taps before f by a scan */
    for (uint64_t g = 0; g < f; g++)
        j += is_tap(b, g);
    return j;
}

void ml__board_each_effect(const ml_board *b, uint64_t j,
                           void (*fn)(void *arg, uint64_t cell, unsigned times), void *arg)
{
    if (b->indptr) {
        for (int64_t k = b->indptr[j]; k < b->indptr[j + 1]; k++)
            fn(arg, (uint64_t)b->cells[k], 1);
        return;
    }
    if (b->dense) {
        for (uint64_t i = 0; i < b->n_cells; i++)
            if (b->dense[i * b->n_taps + j])
                fn(arg, i, b->dense[i * b->n_taps + j]);
        return;
    }
    uint64_t f = ml__board_tap_flat(b, j);
    int64_t r = (int64_t)(f / (uint64_t)b->cols), c = (int64_t)(f % (uint64_t)b->cols);
    const ml__pattern *p = ml__board_tile(b, f);
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
        int64_t i = ml__board_cell_of_flat(b, (uint64_t)(rr * b->cols + cc));
        if (i >= 0)
            fn(arg, (uint64_t)i, 1);
    }
}

/* ------------------------------------------------------------------ shared masks */
ml__mask *ml__mask_new(size_t t)
{
    ml__mask *m = malloc(sizeof *m + (t ? t : 1));
    if (!m)
        return NULL;
    atomic_init(&m->refs, 1);
    m->own = 1;
    m->bytes = (uint8_t *)(m + 1);
    m->release = NULL;
    m->arg = NULL;
    return m;
}

ml__mask *ml__mask_borrow(const uint8_t *bytes, void (*release)(void *arg), void *arg)
{
    ml__mask *m = malloc(sizeof *m);
    if (!m)
        return NULL;
    atomic_init(&m->refs, 1);
    m->own = 0;
    m->bytes = (uint8_t *)(uintptr_t)bytes;   /* read only: own = 0 */
    m->release = release;
    m->arg = arg;
    return m;
}

ml__mask *ml__mask_retain(ml__mask *m)
{
    if (m)
        atomic_fetch_add(&m->refs, 1);
    return m;
}

void ml__mask_release(ml__mask *m)
{
    if (!m || atomic_fetch_sub(&m->refs, 1) != 1)
        return;
    if (m->release)
        m->release(m->arg);
    free(m);
}

void ml__board_destroy(ml_board *b)
{
    if (!b)
        return;
    b->magic = 0;
    for (uint32_t i = 0; b->pal && i < b->n_pal; i++) {
        free(b->pal[i].dr);
        free(b->pal[i].dc);
    }
    free(b->pal);
    free(b->tile_pal);
    ml__mask_release(b->locked_m);
    ml__mask_release(b->holes_m);
    free(atomic_load_explicit(&b->cell_flat, memory_order_acquire));
    free(atomic_load_explicit(&b->tap_flat, memory_order_acquire));
    free(b->indptr);
    free(b->cells);
    if (!b->dense_borrowed)
        free(b->dense);
    else if (b->dense_release)
        b->dense_release(b->dense_arg);
    free(b);
}

/* ------------------------------------------------------------------ graph boards */
static int check_states(ml_ctx *ctx, int states)
{
    if (states < ML_MIN_STATES || states > ML_MAX_STATES)
        return ml__fail(ctx, ML_M_INT_RANGE, "states", (long long)ML_MIN_STATES,
                        (long long)ML_MAX_STATES, (long long)states);
    return ML_OK;
}

static ml_board *graph_new(int n, uint64_t m, uint64_t r)
{
    ml_board *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    atomic_init(&b->refs, 1);
    b->kind = ML_BOARD_GRAPH;
    b->n = n;
    b->rows = (int64_t)m;
    b->cols = 1;
    b->n_cells = m;
    b->n_taps = r;
    b->magic = ML_BOARD_MAGIC;
    return b;
}

int ml_board_from_effects(ml_ctx *ctx, int states, int64_t n_cells, size_t n_taps,
                          const int64_t *indptr, const int64_t *cells, ml_board **out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_from_effects";
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out");
    int rc = check_states(ctx, states);
    if (rc)
        return rc;
    if (n_taps > (size_t)ML_MAX_TILES)
        return ml__fail(ctx, ML_M_TOO_MANY_ITEMS, "effects (one list a tap)", (long long)ML_MAX_TILES);
    if (!indptr)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "indptr");
    if (indptr[0] != 0)
        return ml__fail(ctx, ML_M_INT_RANGE, "indptr[0]", 0LL, 0LL, (long long)indptr[0]);
    for (size_t j = 0; j < n_taps; j++)
        if (indptr[j + 1] < indptr[j]) {
            char what[48];
            snprintf(what, sizeof what, "indptr[%zu]", j + 1);
            return ml__fail(ctx, ML_M_INT_MIN, what, (long long)indptr[j], (long long)indptr[j + 1]);
        }
    uint64_t nnz = (uint64_t)indptr[n_taps];
    if (nnz && !cells)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "cells");
    /* Python's order: a tap's list with an entry past int32 names its largest (by size)
     * entry; then the largest index against n_cells; then the first out of range */
    for (size_t j = 0; j < n_taps; j++) {
        int64_t big = 0;
        int over = 0;
        for (int64_t k = indptr[j]; k < indptr[j + 1]; k++) {
            int64_t v = cells[k];
            over |= v > INT32_MAX || v < INT32_MIN;
            uint64_t av = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
            uint64_t ab = big < 0 ? (uint64_t)0 - (uint64_t)big : (uint64_t)big;
            if (k == indptr[j] || av > ab)
                big = v;
        }
        if (over)
            return ml__fail(ctx, ML_M_CELL_INDEX_MAX, (long long)big, (long long)ML_MAX_TILES);
    }
    int64_t hi = 0;   /* one more than the largest cell, as Python's (below 1 when every
                       * listed cell is negative: then "cells are 0..hi - 1" names it) */
    for (uint64_t k = 0; k < nnz; k++)
        if (k == 0 || cells[k] + 1 > hi)
            hi = cells[k] + 1;
    int64_t m = n_cells;
    if (n_cells < 0) {
        if (hi > ML_MAX_TILES)
            return ml__fail(ctx, ML_M_CELL_INDEX_TOO_LARGE, (long long)(hi - 1), (long long)ML_MAX_TILES);
        m = hi;
    } else if (n_cells > ML_MAX_TILES) {
        return ml__fail(ctx, ML_M_INT_RANGE, "n_cells", 0LL, (long long)ML_MAX_TILES, (long long)n_cells);
    }
    for (uint64_t k = 0; k < nnz; k++)
        if (cells[k] < 0 || cells[k] >= m)
            return ml__fail(ctx, ML_M_CELL_INDEX_RANGE, (long long)cells[k], (long long)(m - 1));
    ml_board *b = graph_new(states, (uint64_t)m, n_taps);
    if (b) {
        b->indptr = malloc((n_taps + 1) * sizeof *b->indptr);
        b->cells = malloc((nnz ? nnz : 1) * sizeof *b->cells);
    }
    if (!b || !b->indptr || !b->cells) {
        ml__board_destroy(b);
        return ml__fail(ctx, ML_M_NOMEM, fn);
    }
    memcpy(b->indptr, indptr, (n_taps + 1) * sizeof *indptr);
    if (nnz)
        memcpy(b->cells, cells, nnz * sizeof *cells);
    *out = b;
    return ML_OK;
}

/* The checks of a dense matrix's board (fn names the caller in messages). */
static int matrix_checks(ml_ctx *ctx, const char *fn, int states, size_t n_cells,
                         size_t n_taps, const uint8_t *a, ml_board **out)
{
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out");
    int rc = check_states(ctx, states);
    if (rc)
        return rc;
    if (n_cells > (size_t)ML_MAX_TILES || n_taps > (size_t)ML_MAX_TILES
        || (uint64_t)n_cells * n_taps > ML_MAX_DENSE)
        return ml__fail(ctx, ML_M_MATRIX_TOO_LARGE, (unsigned long long)n_cells,
                        (unsigned long long)n_taps, (unsigned long long)ML_MAX_DENSE);
    if (n_cells && n_taps && !a)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "a");
    return ML_OK;
}

int ml_board_share_matrix(ml_ctx *ctx, int states, size_t n_cells, size_t n_taps,
                          const uint8_t *a, void (*release)(void *arg), void *arg,
                          ml_board **out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_share_matrix";
    int rc = matrix_checks(ctx, fn, states, n_cells, n_taps, a, out);
    if (rc)
        return rc;
    size_t size = n_cells * n_taps;
    uint8_t top = 0;   /* the largest entry: one pass the compiler vectorises */
    for (size_t i = 0; i < size; i++)
        top = a[i] > top ? a[i] : top;
    if (size && top >= (unsigned)states) {   /* not reduced: a reduced copy instead */
        rc = ml_board_from_matrix(ctx, states, n_cells, n_taps, a, n_taps, out);
        if (!rc && release)
            release(arg);
        return rc;
    }
    ml_board *b = graph_new(states, n_cells, n_taps);
    if (!b)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    b->dense = (uint8_t *)(size ? a : (const uint8_t *)"");
    b->dense_borrowed = 1;
    b->dense_release = release;
    b->dense_arg = arg;
    *out = b;
    return ML_OK;
}

int ml_board_from_matrix(ml_ctx *ctx, int states, size_t n_cells, size_t n_taps,
                         const uint8_t *a, size_t lda, ml_board **out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_board_from_matrix";
    int rc = matrix_checks(ctx, fn, states, n_cells, n_taps, a, out);
    if (rc)
        return rc;
    size_t size = n_cells * n_taps;
    if (n_cells > 1 && lda < n_taps)
        return ml__fail(ctx, ML_M_INT_MIN, "lda", (long long)n_taps, (long long)lda);
    ml_board *b = graph_new(states, n_cells, n_taps);
    if (b)
        b->dense = malloc(size ? size : 1);
    if (!b || !b->dense) {
        ml__board_destroy(b);
        return ml__fail(ctx, ML_M_NOMEM, fn);
    }
    uint8_t red[256];   /* v mod states by a table: no division an entry */
    for (unsigned v = 0; v < 256; v++)
        red[v] = (uint8_t)(v % (unsigned)states);
    for (size_t i = 0; i < n_cells; i++) {
        const uint8_t *src = a + i * lda;
        uint8_t *dst = b->dense + i * n_taps;
        for (size_t j = 0; j < n_taps; j++)
            dst[j] = red[src[j]];
    }
    *out = b;
    return ML_OK;
}

/* ------------------------------------------------------------------ references */
ml_board *ml_board_retain(ml_board *b)
{
    if (ml__board_live(b))
        atomic_fetch_add(&b->refs, 1);
    return b;
}

void ml_board_free(ml_board *b)
{
    if (ml__board_live(b) && atomic_fetch_sub(&b->refs, 1) == 1)
        ml__board_destroy(b);
}

/* ------------------------------------------------------------------ properties */
int ml_board_kind(const ml_board *b) { return ml__board_live(b) ? b->kind : 0; }
int ml_board_states(const ml_board *b) { return ml__board_live(b) ? b->n : 0; }
int64_t ml_board_rows(const ml_board *b) { return ml__board_live(b) ? b->rows : 0; }
int64_t ml_board_cols(const ml_board *b) { return ml__board_live(b) ? b->cols : 0; }
uint64_t ml_board_n_cells(const ml_board *b) { return ml__board_live(b) ? b->n_cells : 0; }
uint64_t ml_board_n_taps(const ml_board *b) { return ml__board_live(b) ? b->n_taps : 0; }
uint64_t ml_board_size(const ml_board *b) { return ml__board_live(b) ? ml__board_tiles(b) : 0; }

uint64_t ml_board_taps_size(const ml_board *b)
{
    if (!ml__board_live(b))
        return 0;
    return b->kind == ML_BOARD_GRID ? ml__board_tiles(b) : b->n_taps;
}

int ml_board_wrap(const ml_board *b) { return ml__board_live(b) ? b->wrap : 0; }
int ml_board_is_mixed(const ml_board *b) { return ml__board_live(b) ? b->mixed : 0; }
int ml_board_is_giant(const ml_board *b) { return ml__board_live(b) ? b->giant : 0; }
int ml_board_any_locked(const ml_board *b) { return ml__board_live(b) && b->locked; }
int ml_board_any_holes(const ml_board *b) { return ml__board_live(b) && b->holes; }

/* ------------------------------------------------------------------ equality and hash */
static int pattern_eq(const ml__pattern *p, const ml__pattern *q)
{
    return p->count == q->count
           && (p->count == 0 || (memcmp(p->dr, q->dr, p->count * sizeof *p->dr) == 0
                                 && memcmp(p->dc, q->dc, p->count * sizeof *p->dc) == 0));
}

static int mask_eq(const uint8_t *a, const uint8_t *b, uint64_t t)
{
    if (!a || !b)
        return a == b;
    return memcmp(a, b, t) == 0;
}

/* One column of a graph board's A mod n, canonical: ascending cells with nonzero counts
 * (cells: scratch of the column's length, at least n_cells for dense boards). */
typedef struct {
    int64_t *cell;
    uint8_t *val;
    uint64_t k;
} column;

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void canon_column(const ml_board *b, uint64_t j, column *col)
{
    col->k = 0;
    if (b->dense) {
        for (uint64_t i = 0; i < b->n_cells; i++)
            if (b->dense[i * b->n_taps + j]) {
                col->cell[col->k] = (int64_t)i;
                col->val[col->k++] = b->dense[i * b->n_taps + j];
            }
        return;
    }
    int64_t lo = b->indptr[j], len = b->indptr[j + 1] - lo;
    int64_t *tmp = col->cell;         /* sorted in place, then compacted */
    memcpy(tmp, b->cells + lo, (size_t)len * sizeof *tmp);
    qsort(tmp, (size_t)len, sizeof *tmp, cmp_i64);
    for (int64_t s = 0; s < len;) {
        int64_t e = s;
        while (e < len && tmp[e] == tmp[s])
            e++;
        unsigned v = (unsigned)((e - s) % b->n);
        if (v) {
            tmp[col->k] = tmp[s];
            col->val[col->k++] = (uint8_t)v;
        }
        s = e;
    }
}

static uint64_t max_column(const ml_board *b)
{
    if (b->dense)
        return b->n_cells;
    uint64_t m = 0;
    for (uint64_t j = 0; j < b->n_taps; j++)
        if ((uint64_t)(b->indptr[j + 1] - b->indptr[j]) > m)
            m = (uint64_t)(b->indptr[j + 1] - b->indptr[j]);
    return m;
}

static int column_alloc(column *c, uint64_t len)
{
    c->cell = malloc((len ? len : 1) * sizeof *c->cell);
    c->val = malloc(len ? len : 1);
    return c->cell && c->val;
}

static void column_free(column *c)
{
    free(c->cell);
    free(c->val);
}

static int graph_eq(const ml_board *a, const ml_board *b)
{
    column ca = {0}, cb = {0};
    int eq = column_alloc(&ca, max_column(a)) && column_alloc(&cb, max_column(b));
    for (uint64_t j = 0; eq && j < a->n_taps; j++) {
        canon_column(a, j, &ca);
        canon_column(b, j, &cb);
        eq = ca.k == cb.k && memcmp(ca.cell, cb.cell, ca.k * sizeof *ca.cell) == 0
             && memcmp(ca.val, cb.val, ca.k) == 0;
    }
    column_free(&ca);
    column_free(&cb);
    return eq;
}

int ml_board_equal(const ml_board *a, const ml_board *b)
{
    if (!ml__board_live(a) || !ml__board_live(b))
        return 0;
    if (a == b)
        return 1;
    if (a->kind != b->kind || a->n != b->n || a->rows != b->rows || a->cols != b->cols
        || a->n_taps != b->n_taps)
        return 0;
    if (a->kind == ML_BOARD_GRAPH)
        return graph_eq(a, b);
    uint64_t t = ml__board_tiles(a);
    if (a->wrap != b->wrap || a->mixed != b->mixed || !mask_eq(a->locked, b->locked, t)
        || !mask_eq(a->holes, b->holes, t))
        return 0;
    if (!a->mixed)
        return pattern_eq(&a->pal[0], &b->pal[0]);
    for (uint64_t f = 0; f < t; f++)
        if (!pattern_eq(ml__board_tile(a, f), ml__board_tile(b, f)))
            return 0;
    return 1;
}

/* FNV-1a, 64 bits */
static uint64_t mix(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t mix_u64(uint64_t h, uint64_t v) { return mix(h, &v, sizeof v); }

static uint64_t mix_pattern(uint64_t h, const ml__pattern *p)
{
    h = mix_u64(h, p->count);
    if (p->count) {
        h = mix(h, p->dr, p->count * sizeof *p->dr);
        h = mix(h, p->dc, p->count * sizeof *p->dc);
    }
    return h;
}

uint64_t ml_board_hash(const ml_board *b)
{
    if (!ml__board_live(b))
        return 0;
    uint64_t h = 0xcbf29ce484222325ull;
    h = mix_u64(h, (uint64_t)b->kind);
    h = mix_u64(h, (uint64_t)b->n);
    h = mix_u64(h, (uint64_t)b->rows);
    h = mix_u64(h, (uint64_t)b->cols);
    h = mix_u64(h, b->n_taps);
    if (b->kind == ML_BOARD_GRAPH) {
        column c = {0};
        if (column_alloc(&c, max_column(b)))
            for (uint64_t j = 0; j < b->n_taps; j++) {
                canon_column(b, j, &c);
                h = mix_u64(h, c.k);
                h = mix(h, c.cell, c.k * sizeof *c.cell);
                h = mix(h, c.val, c.k);
            }
        column_free(&c);
        return h;
    }
    uint64_t t = ml__board_tiles(b);
    h = mix_u64(h, (uint64_t)b->wrap * 2 + (uint64_t)b->mixed);
    if (!b->mixed)
        h = mix_pattern(h, &b->pal[0]);
    else
        for (uint64_t f = 0; f < t; f++)
            h = mix_pattern(h, ml__board_tile(b, f));
    h = mix_u64(h, b->locked ? 1 : 0);
    if (b->locked)
        h = mix(h, b->locked, t);
    h = mix_u64(h, b->holes ? 1 : 0);
    if (b->holes)
        h = mix(h, b->holes, t);
    return h;
}
