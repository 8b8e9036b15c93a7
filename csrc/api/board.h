/* board.h: what a board holds, for the modules of csrc/api (modlights.h: boards).
 *
 * A board is immutable once built and reference counted (ml_board_retain / _free): every
 * field below is written by its constructor and only read afterwards, so any number of
 * threads read a board at once without a lock; the exceptions are cell_flat and
 * tap_flat, caches made on first need and published once by an atomic compare-and-swap
 * (ml__board_cells, ml__board_taps).
 * What it costs:
 *  - a uniform grid without locks or holes: O(1) (shape and pattern; giant boards, past
 *    ML_MAX_TILES tiles, are allowed only in this form);
 *  - locks or holes: their masks (a byte a tile, read in place when shared), and the
 *    flat positions of the cells (4 bytes each, with holes) and of the taps (4 bytes
 *    each), each made when first needed (the chase engines never need the taps');
 *  - mixed grids: a palette index a tile (4 bytes);
 *  - graph boards: their tap matrix, as CSC (ml_board_from_effects: indptr and the cells
 *    as given) or dense (ml_board_from_matrix: one byte an entry, reduced mod n).
 *
 * Internal helpers (ml__board_*) are what the other modules of csrc/api build on. */
#ifndef ML_API_BOARD_H
#define ML_API_BOARD_H

#include "include/modlights.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define ML_BOARD_MAGIC 0x6d6c6264u   /* "mlbd": a live board */
#define ML_GRID_MAGIC 0x6d6c6764u    /* "mlgd": a live grid builder */

/* One pattern: its offsets as given (repeats and order kept). */
typedef struct ml__pattern {
    size_t count;
    int32_t *dr, *dc;       /* count each (NULL when count is 0) */
} ml__pattern;

struct ml_board {
    uint32_t magic;
    _Atomic long refs;
    int kind;               /* ML_BOARD_GRID or ML_BOARD_GRAPH */
    int n;                  /* states */
    int64_t rows, cols;     /* graph boards: n_cells, 1 */
    int wrap, giant, mixed;
    uint64_t n_cells, n_taps;
    /* grids: the palette (one entry for a uniform grid) and, when mixed, the entry of
     * every tile (rows * cols, row-major) */
    uint32_t n_pal;
    ml__pattern *pal;
    uint32_t *tile_pal;
    /* grids with locks / holes: masks (rows * cols bytes, 0 or 1) or NULL when none: the
     * bytes of the counted masks locked_m / holes_m (shared with the grid builder) */
    uint8_t *locked, *holes;
    struct ml__mask *locked_m, *holes_m;
    /* grids with holes: the flat positions of the cells (n_cells), ascending, made on
     * first need and kept (read it through ml__board_cells); NULL before that and for
     * every other board */
    uint32_t *_Atomic cell_flat;
    /* grids with locks or holes: the flat positions of the taps (n_taps), ascending, made
     * on first need and kept (read it through ml__board_taps); NULL before that and for
     * every other board */
    uint32_t *_Atomic tap_flat;
    /* graph boards: CSC (indptr: n_taps + 1, cells: indptr[n_taps]) or dense (n_cells x
     * n_taps, entries mod n); exactly one of them */
    int64_t *indptr, *cells;
    uint8_t *dense;
    /* a dense matrix read in place (ml_board_share_matrix): never freed here, released
     * by dense_release(dense_arg) (when not NULL) as the board goes */
    int dense_borrowed;
    void (*dense_release)(void *arg);
    void *dense_arg;
};

/* b is a live board (checked by its magic). */
int ml__board_live(const ml_board *b);
/* The pattern of the grid tile at flat position f. */
const ml__pattern *ml__board_tile(const ml_board *b, uint64_t f);
/* Tiles of a grid (rows * cols), cells of a graph board: the bytes of a state. */
uint64_t ml__board_tiles(const ml_board *b);
/* ML_ETOOLARGE with ML_M_GIANT_PER_TILE for a giant board: `what` would need
 * bytes_per_tile bytes a tile (Python's Board._per_tile); ML_OK otherwise. */
int ml__board_per_tile(ml_ctx *ctx, const ml_board *b, const char *what, int bytes_per_tile);
/* The cells tap j advances, with repeats, in the order of its pattern's offsets (grids)
 * or as given (graph boards; dense ones: ascending, cell i listed A[i, j] times): calls
 * fn(arg, cell, times) for each run (times = 1 except on dense boards). j < n_taps. */
void ml__board_each_effect(const ml_board *b, uint64_t j,
                           void (*fn)(void *arg, uint64_t cell, unsigned times), void *arg);
/* The flat grid position of cell i / tap j (identity without locks or holes). The cell
 * and tap positions are made on first need (see ml__board_cells, ml__board_taps); should
 * that allocation fail, ml__board_cell_flat, ml__board_tap_flat, the *_of_flat functions
 * and ml__board_each_effect find the position by a scan of the masks (O(tiles) a call):
 * callers that loop take ml__board_cells / ml__board_taps first, which report the
 * failure. */
uint64_t ml__board_cell_flat(const ml_board *b, uint64_t i);
uint64_t ml__board_tap_flat(const ml_board *b, uint64_t j);
/* The flat positions of the taps of b, ascending, in *tf: NULL when every tile is a tap
 * (identity: graph boards, grids without locks or holes). Made on the first call for a
 * grid with locks or holes (O(tiles), 4 bytes a tap) and kept with the board; any number
 * of threads may call it at once (each may build, one copy is kept, the others freed).
 * ML_ENOMEM (message naming fn) when they cannot be made. */
int ml__board_taps(ml_ctx *ctx, const ml_board *b, const char *fn, const uint32_t **tf);
/* The flat positions of the cells of b, ascending, as ml__board_taps: NULL in *cf when
 * every tile is a cell (graph boards, grids without holes); ML_ENOMEM when they cannot
 * be made. ml__board_cell_positions: the same array, or NULL (identity, or no memory: a
 * caller that cannot fail tells them apart by b->holes). */
int ml__board_cells(ml_ctx *ctx, const ml_board *b, const char *fn, const uint32_t **cf);
/* Whether every tile of b is a cell (graph boards, grids without holes): its states are
 * then read over the cells as they are, without cell positions. O(1). */
int ml__board_cells_are_tiles(const ml_board *b);
const uint32_t *ml__board_cell_positions(const ml_board *b);
/* A in coordinate form (board_play.c; Python's Board.coo): for each tap j in order, the
 * cells of its effect as ml__board_each_effect gives them, a cell once a unit, as the
 * pairs (ci[k], tj[k]); at most cap pairs written, their number in *nnz (cap 0, ci / tj
 * NULL: the count alone). A giant board is refused (ML_M_GIANT_PER_TILE, 16 bytes an
 * entry); the positions of the cells and taps are made first (ML_ENOMEM). O(entries of
 * A); polls the stop flag. */
int ml__board_coo(ml_ctx *ctx, const ml_board *b, int64_t *ci, int64_t *tj, size_t cap,
                  size_t *nnz);
/* The locked (holes: 0) or holes (1) mask of a grid board, rows * cols bytes 0 / 1 that
 * live as long as b (read in place: the Python Board's own masks); NULL when no tile is
 * locked / a hole, for graph boards and dead handles. O(1). */
const uint8_t *ml__board_mask(const ml_board *b, int holes);
/* The cell index of flat grid position f, or -1 for a hole; the tap index, or -1 for a
 * hole or a locked tile. */
int64_t ml__board_cell_of_flat(const ml_board *b, uint64_t f);
int64_t ml__board_tap_of_flat(const ml_board *b, uint64_t f);
/* The runs of consecutive taps of a board, ascending: tap j .. j + len - 1 at flat
 * positions f .. f + len - 1 (graph boards and grids without locks or holes: one run, f =
 * j = 0). For the loops over every tap in order, without the tap positions: O(tiles / 16
 * + runs) by memchr over the 0 / 1 masks. Usage:
 *     ml__tap_runs it;
 *     for (ml__tap_runs_init(&it, b); ml__tap_runs_next(&it);) ... it.f, it.j, it.len */
typedef struct {
    const uint8_t *l, *h;            /* the masks (NULL: none) */
    uint64_t t, nl, nh;              /* tiles; the next lock / hole at or after f (t: none) */
    uint64_t f, j, len;              /* the current run */
} ml__tap_runs;
void ml__tap_runs_init(ml__tap_runs *it, const ml_board *b);
/* The next run in it->f, it->j, it->len (len >= 1): 1, or 0 when there is none. */
int ml__tap_runs_next(ml__tap_runs *it);
/* A mask shared by a grid builder and the boards it built, counted (one reference when
 * made; NULL when there is no memory): bytes (t, 0 or 1) of the library's own
 * (ml__mask_new; own = 1, writable while it has one reference only) or the caller's
 * (ml__mask_borrow: never written, release(arg) when the last reference goes). */
typedef struct ml__mask {
    _Atomic long refs;
    int own;
    uint8_t *bytes;
    void (*release)(void *arg);
    void *arg;
} ml__mask;
ml__mask *ml__mask_new(size_t t);
ml__mask *ml__mask_borrow(const uint8_t *bytes, void (*release)(void *arg), void *arg);
ml__mask *ml__mask_retain(ml__mask *m);
/* Drop a reference (NULL: nothing); the last frees it (or releases the caller's). */
void ml__mask_release(ml__mask *m);
/* Free a board whatever its references (its constructors' failure paths). */
void ml__board_destroy(ml_board *b);

/* Python's repr() of a string (single quotes unless it has one and no double quote;
 * backslash escapes for quotes, \\, \n, \r, \t and other control bytes), cut to at most
 * cap - 1 bytes. Returns buf. */
char *ml__repr_str(const char *s, char *buf, size_t cap);

#endif
