/* c_api_boards.c: the fuzz target's boards (fuzz/c_api.c): the grid builder, graph boards,
 * and every question asked of a board, checked against the others and by hand. */
#include "c_api.h"

/* ------------------------------------------------------------------ the grid builder */
void op_grid_new(in_t *in)
{
    grid_slot *s = &grids[u8(in) % NG];
    int64_t rows = size_arg(in), cols = size_arg(in);
    int n = states_arg(in);
    ml_grid *g = (ml_grid *)&g_ctx;   /* a sentinel: must stay unwritten on failure */
    int rc = CALL(ml_grid_new, K_PLAIN, g_ctx, rows, cols, n, &g);
    int valid = rows >= 1 && rows <= ML_MAX_SIDE && cols >= 1 && cols <= ML_MAX_SIDE
                && n >= ML_MIN_STATES && n <= ML_MAX_STATES;
    if ((rc == ML_OK) != valid)
        FAIL("ml_grid_new(%lld, %lld, %d) returned %d", (long long)rows, (long long)cols, n, rc);
    if (rc) {
        ASSERT(g == (ml_grid *)&g_ctx);
        ASSERT(rc == ML_ERANGE);
        return;
    }
    grid_clear(s);
    s->g = g;
    s->rows = rows;
    s->cols = cols;
    s->n = n;
}

void op_grid_pattern(in_t *in)
{
    grid_slot *s = &grids[u8(in) % NG];
    if (!s->g) {
        CALL(ml_grid_set_pattern, K_MISUSE, g_ctx, NULL, 0);
        return;
    }
    uint8_t how = u8(in) % 4;
    int rc;
    if (how == 0) {
        int id = (int)(u8(in) % 9) - 1;
        rc = CALL(ml_grid_set_pattern, K_PLAIN, g_ctx, s->g, id);
        ASSERT((rc == ML_OK) == (id >= 0 && id < ML_PATTERN_COUNT));
    } else if (how == 1) {
        static const char *names[] = {"cross", "DIAGONAL", " square\t", "Horizontal", "vertical ",
                                      "knight", "", "crosss", "kni ght", "\x01", "'\"\\\n"};
        char buf[32];
        uint8_t k = u8(in);
        const char *name = k < 200 ? names[k % 11] : text_arg(in, buf, sizeof buf);
        rc = CALL(ml_grid_set_pattern_name, K_PLAIN, g_ctx, s->g, name);
        if (k < 200)
            ASSERT((rc == ML_OK) == (k % 11 < 6));
    } else {
        size_t count = u8(in) % 14;
        uint8_t big = u8(in);
        if (big >= 250)
            count = big == 250 ? ML_MAX_OFFSETS : big == 251 ? ML_MAX_OFFSETS + 1 : 0;
        int64_t *dr = calloc(count + 1, sizeof *dr), *dc = calloc(count + 1, sizeof *dc);
        int reach_ok = 1;
        for (size_t i = 0; i < count; i++) {
            if (i < 16) {
                dr[i] = offset_arg(in);
                dc[i] = offset_arg(in);
            } else {
                dr[i] = dr[i % 16];
                dc[i] = dc[i % 16];
            }
            reach_ok &= dr[i] >= -ML_MAX_REACH && dr[i] <= ML_MAX_REACH
                        && dc[i] >= -ML_MAX_REACH && dc[i] <= ML_MAX_REACH;
        }
        /* a NULL array: MISUSE once the count passed its check */
        int null_arg = count && count <= ML_MAX_OFFSETS && u8(in) == 7;
        if (how == 2) {
            rc = CALL(ml_grid_set_offsets, null_arg ? K_MISUSE : K_PLAIN, g_ctx, s->g, count,
                      null_arg ? NULL : dr, dc);
        } else {
            uint32_t index = 0xdeadbeef;
            rc = CALL(ml_grid_palette_add_offsets, null_arg ? K_MISUSE : K_PLAIN, g_ctx, s->g,
                      count, dr, null_arg ? NULL : dc, &index);
            if (rc == ML_OK) {
                ASSERT(index == s->n_pal);
                s->n_pal++;
            } else {
                ASSERT(index == 0xdeadbeef);
            }
        }
        if (!null_arg)
            ASSERT((rc == ML_OK) == (reach_ok && count <= ML_MAX_OFFSETS));
        free(dr);
        free(dc);
        if (how == 3)
            return;
    }
    if (rc == ML_OK)
        s->mixed = 0;
}

void op_grid_palette(in_t *in)
{
    grid_slot *s = &grids[u8(in) % NG];
    if (!s->g)
        return;
    int id = (int)(u8(in) % 8) - 1;
    uint32_t index = 0xdeadbeef;
    int rc = CALL(ml_grid_palette_add, K_PLAIN, g_ctx, s->g, id, &index);
    ASSERT((rc == ML_OK) == (id >= 0 && id < ML_PATTERN_COUNT));
    if (rc == ML_OK) {
        ASSERT(index == s->n_pal);
        s->n_pal++;
    } else {
        ASSERT(index == 0xdeadbeef);
    }
}

void op_grid_mixed(in_t *in)
{
    grid_slot *s = &grids[u8(in) % NG];
    if (!s->g)
        return;
    int64_t t = grid_tiles(s);
    uint32_t one = 0;
    if (t > ML_MAX_TILES) { /* refused before the index is read: one entry suffices */
        ASSERT(CALL(ml_grid_set_mixed, K_PLAIN, g_ctx, s->g, &one) == ML_ETOOLARGE);
        return;
    }
    if (t > SMALL_TILES)
        return;
    uint32_t *index = malloc((size_t)t * sizeof *index);
    uint32_t pal = s->n_pal + (u8(in) == 3);   /* now and then an entry past the palette */
    int in_range = 1;
    for (int64_t f = 0; f < t; f++) {
        index[f] = pal ? u8(in) % pal : 0;
        in_range &= index[f] < s->n_pal;
    }
    int rc = CALL(ml_grid_set_mixed, K_PLAIN, g_ctx, s->g, index);
    ASSERT((rc == ML_OK) == in_range);
    if (rc == ML_OK)
        s->mixed = 1;
    free(index);
}

void op_grid_wrap(in_t *in)
{
    grid_slot *s = &grids[u8(in) % NG];
    if (!s->g) {
        CALL(ml_grid_set_wrap, K_MISUSE, g_ctx, NULL, 1);
        return;
    }
    CALL(ml_grid_set_wrap, K_PLAIN, g_ctx, s->g, (int)(int8_t)u8(in));
}

void op_grid_mark(in_t *in)
{
    grid_slot *s = &grids[u8(in) % NG];
    if (!s->g)
        return;
    int hole = u8(in) & 1;
    int64_t r = pos_arg(in, s->rows), c = pos_arg(in, s->cols);
    int on = r >= 0 && r < s->rows && c >= 0 && c < s->cols;
    int64_t t = grid_tiles(s);
    if (on && t > SMALL_TILES && t <= ML_MAX_TILES)
        return; /* a mask of t bytes: allowed, but not what this target spends memory on */
    int rc = hole ? CALL(ml_grid_hole, K_PLAIN, g_ctx, s->g, r, c)
                  : CALL(ml_grid_lock, K_PLAIN, g_ctx, s->g, r, c);
    if (!on) {
        ASSERT(rc == ML_ERANGE);
        return;
    }
    if (t > ML_MAX_TILES) {
        ASSERT(rc == ML_ETOOLARGE);
        return;
    }
    ASSERT(rc == ML_OK);
    uint8_t **m = hole ? &s->holes : &s->locked;
    if (!*m)
        *m = calloc((size_t)t, 1);
    (*m)[r * s->cols + c] = 1;
}

void op_grid_masks(in_t *in)
{
    grid_slot *s = &grids[u8(in) % NG];
    if (!s->g)
        return;
    int hole = u8(in) & 1;
    uint8_t how = u8(in) % 4;
    int64_t t = grid_tiles(s);
    uint8_t **m = hole ? &s->holes : &s->locked;
    int rc;
    if (how == 0) { /* NULL: none */
        rc = hole ? CALL(ml_grid_set_holes, K_PLAIN, g_ctx, s->g, NULL)
                  : CALL(ml_grid_set_locked, K_PLAIN, g_ctx, s->g, NULL);
        ASSERT(rc == ML_OK);
        free(*m);
        *m = NULL;
        return;
    }
    if (t > ML_MAX_TILES) {
        uint8_t one = 1;
        rc = hole ? CALL(ml_grid_set_holes, K_PLAIN, g_ctx, s->g, &one)
                  : CALL(ml_grid_set_locked, K_PLAIN, g_ctx, s->g, &one);
        ASSERT(rc == ML_ETOOLARGE);
        return;
    }
    if (t > SMALL_TILES)
        return;
    uint8_t *mask = malloc((size_t)t), density = u8(in);
    int any = 0;
    for (int64_t f = 0; f < t; f++) {
        uint8_t v = u8(in);
        mask[f] = v < density ? (uint8_t)(v | 1) : 0;   /* any nonzero byte marks */
        any |= mask[f] != 0;
    }
    rc = hole ? CALL(ml_grid_set_holes, K_PLAIN, g_ctx, s->g, mask)
              : CALL(ml_grid_set_locked, K_PLAIN, g_ctx, s->g, mask);
    ASSERT(rc == ML_OK);
    free(*m);
    *m = NULL;
    if (any) {
        *m = malloc((size_t)t);
        for (int64_t f = 0; f < t; f++)
            (*m)[f] = mask[f] != 0;
    }
    free(mask);
}

void check_board(ml_board *b);

void op_grid_build(in_t *in)
{
    int gi = u8(in) % NG, slot = u8(in) % NB;
    grid_slot *s = &grids[gi];
    if (!s->g) {
        ml_board *b = NULL;
        CALL(ml_grid_build, K_MISUSE, g_ctx, NULL, &b);
        ASSERT(b == NULL);
        return;
    }
    int64_t t = grid_tiles(s);
    int both = 0;
    uint64_t holes = 0, locked = 0;
    for (int64_t f = 0; (s->locked || s->holes) && f < t; f++) {
        both |= s->locked && s->holes && s->locked[f] && s->holes[f];
        holes += s->holes && s->holes[f];
        locked += s->locked && s->locked[f];
    }
    ml_board *b = (ml_board *)&g_ctx;
    int rc = CALL(ml_grid_build, K_PLAIN, g_ctx, s->g, &b);
    if (both) {
        ASSERT(rc == ML_EINVAL && b == (ml_board *)&g_ctx);
        return;
    }
    ASSERT(rc == ML_OK);
    ASSERT(ml_board_kind(b) == ML_BOARD_GRID && ml_board_states(b) == s->n);
    ASSERT(ml_board_rows(b) == s->rows && ml_board_cols(b) == s->cols);
    ASSERT(ml_board_is_giant(b) == (t > ML_MAX_TILES));
    ASSERT(ml_board_is_mixed(b) == s->mixed);
    ASSERT(ml_board_any_locked(b) == (locked > 0) && ml_board_any_holes(b) == (holes > 0));
    ASSERT(ml_board_n_cells(b) == (uint64_t)t - holes);
    ASSERT(ml_board_n_taps(b) == (uint64_t)t - holes - locked);
    if (s->locked || s->holes) {
        uint8_t *m = malloc((size_t)t);
        ASSERT(CALL(ml_board_locked_mask, K_PLAIN, g_ctx, b, m) == ML_OK);
        for (int64_t f = 0; f < t; f++)
            ASSERT(m[f] == (s->locked ? s->locked[f] : 0));
        ASSERT(CALL(ml_board_holes_mask, K_PLAIN, g_ctx, b, m) == ML_OK);
        for (int64_t f = 0; f < t; f++)
            ASSERT(m[f] == (s->holes ? s->holes[f] : 0));
        free(m);
    }
    /* the same description built twice: equal boards, equal hashes */
    ml_board *b2 = NULL;
    ASSERT(CALL(ml_grid_build, K_PLAIN, g_ctx, s->g, &b2) == ML_OK);
    ASSERT(ml_board_equal(b, b2) && ml_board_hash(b) == ml_board_hash(b2));
    ml_board_free(b2);
    put_board(slot, b);
}

void op_board_grid(in_t *in)
{
    int slot = u8(in) % NB;
    int64_t rows = size_arg(in), cols = size_arg(in);
    int n = states_arg(in);
    uint8_t k = u8(in);
    int id = k % 8 < ML_PATTERN_COUNT ? (int)(k % 8) : -1;
    const char *name = id >= 0 ? ml_pattern_name(id) : k % 8 == 6 ? NULL : "no such pattern";
    ml_board *b = (ml_board *)&g_ctx;
    int rc = CALL(ml_board_grid, K_PLAIN, g_ctx, rows, cols, n, name, &b);
    int valid = rows >= 1 && rows <= ML_MAX_SIDE && cols >= 1 && cols <= ML_MAX_SIDE
                && n >= ML_MIN_STATES && n <= ML_MAX_STATES && (id >= 0 || name == NULL);
    if ((rc == ML_OK) != valid)
        FAIL("ml_board_grid(%lld, %lld, %d, %s) returned %d", (long long)rows, (long long)cols,
             n, name ? name : "NULL", rc);
    if (rc) {
        ASSERT(b == (ml_board *)&g_ctx);
        return;
    }
    ASSERT(ml_board_is_giant(b) == (rows * cols > ML_MAX_TILES));
    /* the same board through the builder and the pattern's id */
    ml_grid *g = NULL;
    ml_board *b2 = NULL;
    ASSERT(CALL(ml_grid_new, K_PLAIN, g_ctx, rows, cols, n, &g) == ML_OK);
    ASSERT(CALL(ml_grid_set_pattern, K_PLAIN, g_ctx, g, id >= 0 ? id : ML_PATTERN_CROSS) == ML_OK);
    ASSERT(CALL(ml_grid_build, K_PLAIN, g_ctx, g, &b2) == ML_OK);
    ASSERT(ml_board_equal(b, b2) && ml_board_hash(b) == ml_board_hash(b2));
    ml_grid_free(g);
    ml_board_free(b2);
    put_board(slot, b);
}

/* ------------------------------------------------------------------ graph boards */
void op_effects(in_t *in)
{
    int slot = u8(in) % NB;
    int n = states_arg(in);
    size_t n_taps = u8(in) % 10;
    uint8_t flags = u8(in);
    int64_t n_cells = flags & 1 ? -1 : (flags & 2 ? size_arg(in) : (int64_t)(u8(in) % 12));
    int64_t *indptr = calloc(n_taps + 1, sizeof *indptr);
    /* room for indptr[n_taps] raised by up to 127 below (cells 0: the caller's array
     * must hold indptr[n_taps] entries) */
    int64_t *cells = calloc(n_taps * 6 + 128, sizeof *cells);
    int64_t nnz = 0;
    for (size_t j = 0; j < n_taps; j++) {
        int len = u8(in) % 7;
        for (int k = 0; k < len; k++) {
            uint8_t v = u8(in);
            cells[nnz++] = v < 250 ? v % 12
                           : v == 250 ? -1
                           : v == 251 ? (int64_t)INT32_MAX + 1
                           : v == 252 ? ML_MAX_TILES
                           : v == 253 ? INT64_MIN
                                      : (int64_t)u64(in);
        }
        indptr[j + 1] = nnz;
    }
    if (flags & 4 && n_taps) /* a broken indptr: decreasing, or not starting at 0 */
        indptr[u8(in) % (n_taps + 1)] += (int8_t)u8(in);
    if (flags & 8) { /* more taps than allowed: refused before indptr is read past [0] */
        ml_board *b = NULL;
        ASSERT(CALL(ml_board_from_effects, K_PLAIN, g_ctx, n < 2 || n > 255 ? 2 : n, -1,
                    (size_t)ML_MAX_TILES + 1, indptr, cells, &b) == ML_ETOOLARGE);
    }
    ml_board *b = (ml_board *)&g_ctx;
    /* NULL cells: MISUSE once the states and indptr passed their checks */
    int null_cells = (flags & 16) && !(flags & 4) && n >= 2 && n <= 255 && indptr[n_taps] > 0;
    int rc = CALL(ml_board_from_effects, null_cells ? K_MISUSE : K_PLAIN, g_ctx, n, n_cells,
                  n_taps, indptr, null_cells ? NULL : cells, &b);
    if (rc) {
        ASSERT(b == (ml_board *)&g_ctx);
    } else {
        ASSERT(ml_board_kind(b) == ML_BOARD_GRAPH && ml_board_n_taps(b) == n_taps);
        ASSERT(ml_board_cols(b) == 1 && (uint64_t)ml_board_rows(b) == ml_board_n_cells(b));
        /* every listed cell is a cell; the effects come back as given */
        for (size_t j = 0; j < n_taps; j++) {
            int64_t got[8];
            size_t count = 99;
            ASSERT(CALL(ml_board_effect, K_PLAIN, g_ctx, b, j, &count, got, 8) == ML_OK);
            ASSERT(count == (size_t)(indptr[j + 1] - indptr[j]));
            for (size_t k = 0; k < count && k < 8; k++)
                ASSERT(got[k] == cells[indptr[j] + (int64_t)k]);
        }
        put_board(slot, b);
    }
    free(indptr);
    free(cells);
}

void op_matrix_board(in_t *in)
{
    int slot = u8(in) % NB;
    int n = states_arg(in);
    size_t rows = u8(in) % 10, cols = u8(in) % 10, lda = cols + u8(in) % 3;
    uint8_t flags = u8(in);
    if (flags & 1) { /* past ML_MAX_DENSE / ML_MAX_TILES: refused before a is read */
        uint8_t one = 1;
        size_t r = flags & 2 ? (size_t)ML_MAX_TILES + 1 : (size_t)1 << 16;
        size_t c = flags & 2 ? 1 : ((size_t)1 << 16) + 1;
        ml_board *b = NULL;
        int rc = CALL(ml_board_from_matrix, K_PLAIN, g_ctx, n, r, c, &one, c, &b);
        ASSERT(rc == ML_ETOOLARGE || rc == ML_ERANGE);
        ASSERT(b == NULL);
        return;
    }
    if (flags & 4 && rows > 1 && cols > 0)
        lda = cols - 1; /* refused (lda >= n_taps) before a is read */
    uint8_t *a = malloc(rows * lda + 1);
    for (size_t i = 0; i < rows * lda + 1; i++)
        a[i] = u8(in);
    ml_board *b = (ml_board *)&g_ctx;
    int rc = CALL(ml_board_from_matrix, K_PLAIN, g_ctx, n, rows, cols, a, lda, &b);
    if (rc) {
        ASSERT(b == (ml_board *)&g_ctx);
    } else {
        ASSERT(ml_board_n_cells(b) == rows && ml_board_n_taps(b) == cols);
        uint8_t *m = malloc(rows * cols + 1);
        ASSERT(CALL(ml_board_matrix, K_LONG, g_ctx, b, m, cols) == ML_OK || g_stopped);
        for (size_t i = 0; i < rows && !g_interrupted; i++)
            for (size_t j = 0; j < cols; j++)
                ASSERT(m[i * cols + j] == a[i * lda + j] % n);
        free(m);
        put_board(slot, b);
    }
    free(a);
}

/* ------------------------------------------------------------------ using a board */
/* The dense matrix from the tile patterns and the masks, as modlights.h describes the
 * board (an oracle of ml_board_matrix for grids). */
static void grid_matrix_by_hand(ml_board *b, uint8_t *want)
{
    int64_t rows = ml_board_rows(b), cols = ml_board_cols(b);
    uint64_t nc = ml_board_n_cells(b), nt = ml_board_n_taps(b);
    unsigned n = (unsigned)ml_board_states(b);
    uint8_t *holes = malloc((size_t)(rows * cols));
    ASSERT(CALL(ml_board_holes_mask, K_PLAIN, g_ctx, b, holes) == ML_OK);
    memset(want, 0, nc * nt);
    int32_t dr[64], dc[64];
    for (uint64_t j = 0; j < nt; j++) {
        int64_t r = -1, c = -1;
        ASSERT(CALL(ml_board_tap_position, K_PLAIN, g_ctx, b, j, &r, &c) == ML_OK);
        size_t count = 0;
        ASSERT(CALL(ml_board_tile_pattern, K_PLAIN, g_ctx, b, r, c, &count, dr, dc, 64) == ML_OK);
        int32_t *pr = dr, *pc = dc;
        if (count > 64) {
            pr = malloc(count * sizeof *pr);
            pc = malloc(count * sizeof *pc);
            size_t again = 0;
            ASSERT(CALL(ml_board_tile_pattern, K_PLAIN, g_ctx, b, r, c, &again, pr, pc, count)
                   == ML_OK);
            ASSERT(again == count);
        }
        for (size_t k = 0; k < count; k++) {
            int64_t rr = r + pr[k], cc = c + pc[k];
            if (ml_board_wrap(b)) {
                rr = ((rr % rows) + rows) % rows;
                cc = ((cc % cols) + cols) % cols;
            } else if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) {
                continue;
            }
            if (holes[rr * cols + cc])
                continue;
            uint64_t i = 0;
            ASSERT(CALL(ml_board_cell_index, K_PLAIN, g_ctx, b, rr, cc, &i) == ML_OK);
            want[i * nt + j] = (uint8_t)((want[i * nt + j] + 1) % n);
        }
        if (pr != dr) {
            free(pr);
            free(pc);
        }
    }
    free(holes);
}

/* every accessor, and what they must agree on */
void check_board(ml_board *b)
{
    int kind = ml_board_kind(b), n = ml_board_states(b);
    ASSERT(kind == ML_BOARD_GRID || kind == ML_BOARD_GRAPH);
    ASSERT(n >= ML_MIN_STATES && n <= ML_MAX_STATES);
    int64_t rows = ml_board_rows(b), cols = ml_board_cols(b);
    uint64_t size = ml_board_size(b), tsize = ml_board_taps_size(b);
    uint64_t nc = ml_board_n_cells(b), nt = ml_board_n_taps(b);
    ASSERT(ml_board_retain(b) == b);
    ml_board_free(b);
    ASSERT(ml_board_equal(b, b));
    if (kind == ML_BOARD_GRID) {
        ASSERT(rows >= 1 && cols >= 1 && size == (uint64_t)(rows * cols) && tsize == size);
        ASSERT(nt <= nc && nc <= size);
        ASSERT(ml_board_is_giant(b) == (size > (uint64_t)ML_MAX_TILES));
    } else {
        ASSERT((uint64_t)rows == nc && cols == 1 && size == nc && tsize == nt);
        ASSERT(!ml_board_is_giant(b) && !ml_board_wrap(b) && !ml_board_is_mixed(b));
        ASSERT(!ml_board_any_locked(b) && !ml_board_any_holes(b));
    }
    /* the pattern: uniform grids only */
    size_t count = 12345;
    int32_t dr[16], dc[16];
    int rc = CALL(ml_board_pattern, K_PLAIN, g_ctx, b, &count, dr, dc, 16);
    ASSERT(rc == (kind == ML_BOARD_GRID && !ml_board_is_mixed(b) ? ML_OK : ML_EINVAL));
    ASSERT(rc != ML_OK || count <= ML_MAX_OFFSETS);
    ASSERT(rc == ML_OK || count == 12345);
    /* positions: first and last of each, and past the end */
    uint64_t probe[4] = {0, nt ? nt - 1 : 0, nt, nt / 2};
    for (int k = 0; k < 4; k++) {
        int64_t r = -7, c = -7;
        rc = CALL(ml_board_tap_position, K_PLAIN, g_ctx, b, probe[k], &r, &c);
        ASSERT((rc == ML_OK) == (probe[k] < nt));
        if (rc == ML_OK) {
            uint64_t j = UINT64_MAX;
            ASSERT(CALL(ml_board_tap_index, K_PLAIN, g_ctx, b, r, c, &j) == ML_OK && j == probe[k]);
        } else {
            ASSERT(r == -7 && c == -7);
        }
    }
    uint64_t cprobe[4] = {0, nc ? nc - 1 : 0, nc, nc / 3};
    for (int k = 0; k < 4; k++) {
        int64_t r = -7, c = -7;
        rc = CALL(ml_board_cell_position, K_PLAIN, g_ctx, b, cprobe[k], &r, &c);
        ASSERT((rc == ML_OK) == (cprobe[k] < nc));
        if (rc == ML_OK) {
            uint64_t i = UINT64_MAX;
            ASSERT(CALL(ml_board_cell_index, K_PLAIN, g_ctx, b, r, c, &i) == ML_OK && i == cprobe[k]);
        }
    }
    /* per-tile work on a giant board is refused before the 1-byte buffer is touched */
    uint8_t one[1] = {0};
    if (ml_board_is_giant(b)) {
        ASSERT(CALL(ml_board_locked_mask, K_PLAIN, g_ctx, b, one) == ML_ETOOLARGE);
        ASSERT(CALL(ml_board_holes_mask, K_PLAIN, g_ctx, b, one) == ML_ETOOLARGE);
        ASSERT(CALL(ml_board_apply, K_LONG, g_ctx, b, one, one, one) == ML_ETOOLARGE
               || g_stopped);
        ASSERT(CALL(ml_board_press, K_PLAIN, g_ctx, b, one, 0, 0, 1, one) == ML_ETOOLARGE);
        ASSERT(CALL(ml_board_random_state, K_LONG, g_ctx, b, 1, 1, one) == ML_ETOOLARGE
               || g_stopped);
    }
    if (nt && nc > (uint64_t)ML_MAX_DENSE / nt) {
        rc = CALL(ml_board_matrix, K_LONG, g_ctx, b, one, (size_t)nt);
        ASSERT(rc == ML_ETOOLARGE || (g_stopped && rc == ML_EINTERRUPTED));
    }
    if (nt) {
        size_t cnt = 0;
        ASSERT(CALL(ml_board_effect, K_PLAIN, g_ctx, b, nt - 1, &cnt, NULL, 0) == ML_OK);
    }
}

/* apply, press, random states, the matrix, effects and masks of a small board */
void use_board(in_t *in, ml_board *b)
{
    uint64_t size = ml_board_size(b), tsize = ml_board_taps_size(b);
    uint64_t nc = ml_board_n_cells(b), nt = ml_board_n_taps(b);
    int kind = ml_board_kind(b);
    unsigned n = (unsigned)ml_board_states(b);
    if (size > SMALL_TILES || tsize > SMALL_TILES || nc * nt > SMALL_DENSE)
        return;
    size_t pad = u8(in) % 3, ld = (size_t)nt + pad;
    uint8_t *M = malloc(nc * ld + 1);
    memset(M, 0xAA, nc * ld + 1);
    int rc = CALL(ml_board_matrix, K_LONG, g_ctx, b, M, ld);
    if (rc) {
        ASSERT(rc == ML_EINTERRUPTED);
        free(M);
        return;
    }
    for (uint64_t i = 0; i < nc; i++)
        for (size_t p = 0; p < pad; p++)
            ASSERT(M[i * ld + nt + p] == 0xAA);   /* ld's padding untouched */
    ASSERT(M[nc * ld] == 0xAA);
    /* the matrix by hand from the tile patterns (grids), and from the effects */
    uint8_t *want = malloc(nc * nt + 1);
    if (kind == ML_BOARD_GRID) {
        grid_matrix_by_hand(b, want);
        for (uint64_t i = 0; i < nc; i++)
            for (uint64_t j = 0; j < nt; j++)
                if (M[i * ld + j] != want[i * nt + j])
                    FAIL("A[%llu, %llu] = %u, by the tile patterns %u", (unsigned long long)i,
                         (unsigned long long)j, M[i * ld + j], want[i * nt + j]);
    }
    memset(want, 0, nc * nt + 1);
    int64_t *eff = NULL;
    size_t eff_cap = 0, total = 0;
    for (uint64_t j = 0; j < nt; j++) {
        size_t count = 0;
        ASSERT(CALL(ml_board_effect, K_PLAIN, g_ctx, b, j, &count, eff, eff_cap) == ML_OK);
        if (count > eff_cap) {
            eff_cap = count;
            eff = realloc(eff, eff_cap * sizeof *eff);
            ASSERT(CALL(ml_board_effect, K_PLAIN, g_ctx, b, j, &count, eff, eff_cap) == ML_OK);
        }
        total += count;
        for (size_t k = 0; k < count; k++) {
            ASSERT(eff[k] >= 0 && (uint64_t)eff[k] < nc);
            want[(uint64_t)eff[k] * nt + j] = (uint8_t)((want[(uint64_t)eff[k] * nt + j] + 1) % n);
        }
    }
    for (uint64_t i = 0; i < nc; i++)
        for (uint64_t j = 0; j < nt; j++)
            ASSERT(M[i * ld + j] == want[i * nt + j]);
    /* a graph board with these effects, and one with this matrix: equal to each other */
    if (total <= 1 << 16) {
        int64_t *indptr = calloc(nt + 1, sizeof *indptr), *cells = malloc((total + 1) * sizeof *cells);
        size_t at = 0;
        for (uint64_t j = 0; j < nt; j++) {
            size_t count = 0;
            ASSERT(CALL(ml_board_effect, K_PLAIN, g_ctx, b, j, &count, cells + at, total - at)
                   == ML_OK);
            at += count;
            indptr[j + 1] = (int64_t)at;
        }
        ml_board *ge = NULL, *gm = NULL;
        ASSERT(CALL(ml_board_from_effects, K_PLAIN, g_ctx, (int)n, (int64_t)nc, (size_t)nt, indptr,
                    cells, &ge) == ML_OK);
        ASSERT(CALL(ml_board_from_matrix, K_PLAIN, g_ctx, (int)n, (size_t)nc, (size_t)nt, M, ld,
                    &gm) == ML_OK);
        ASSERT(ml_board_equal(ge, gm) && ml_board_hash(ge) == ml_board_hash(gm));
        ASSERT(ml_board_equal(b, ge) == (kind == ML_BOARD_GRAPH));
        free(indptr);
        free(cells);
        ml_board_free(ge);
        ml_board_free(gm);
    }
    free(eff);
    free(want);

    /* masks */
    uint8_t *locked = malloc(size + 1), *holes = malloc(size + 1);
    ASSERT(CALL(ml_board_locked_mask, K_PLAIN, g_ctx, b, locked) == ML_OK);
    ASSERT(CALL(ml_board_holes_mask, K_PLAIN, g_ctx, b, holes) == ML_OK);
    uint64_t nl = 0, nh = 0;
    for (uint64_t f = 0; f < size; f++) {
        ASSERT(locked[f] <= 1 && holes[f] <= 1 && !(locked[f] && holes[f]));
        nl += locked[f];
        nh += holes[f];
    }
    ASSERT(nc == size - nh && nt == (kind == ML_BOARD_GRID ? nc - nl : nt));
    ASSERT(ml_board_any_locked(b) == (nl > 0) && ml_board_any_holes(b) == (nh > 0));

    /* apply: state + A taps, by hand from the matrix */
    uint8_t *state = malloc(size + 1), *taps = malloc(tsize + 1), *out = malloc(size + 1);
    uint8_t *exp = malloc(size + 1);
    for (uint64_t f = 0; f < size; f++)
        state[f] = u8(in);
    int tap_locked = 0;
    for (uint64_t f = 0; f < tsize; f++) {
        taps[f] = u8(in);
        if (kind == ML_BOARD_GRID && locked[f] && taps[f] % n) {
            if (u8(in) != 1)
                taps[f] = (uint8_t)(n * (taps[f] / n)) ; /* a multiple of n: allowed */
            else
                tap_locked = 1;
        }
    }
    for (uint64_t i = 0; i < nc; i++) {
        int64_t r = 0, c = 0;
        ASSERT(CALL(ml_board_cell_position, K_PLAIN, g_ctx, b, i, &r, &c) == ML_OK);
        uint64_t f = kind == ML_BOARD_GRID ? (uint64_t)(r * ml_board_cols(b) + c) : i;
        unsigned v = state[f] % n;
        for (uint64_t j = 0; j < nt; j++) {
            int64_t tr = 0, tc = 0;
            ASSERT(CALL(ml_board_tap_position, K_PLAIN, g_ctx, b, j, &tr, &tc) == ML_OK);
            uint64_t tf = kind == ML_BOARD_GRID ? (uint64_t)(tr * ml_board_cols(b) + tc) : j;
            v = (v + (unsigned)M[i * ld + j] * (taps[tf] % n)) % n;
        }
        exp[f] = (uint8_t)v;
    }
    for (uint64_t f = 0; f < size; f++)
        if (holes[f])
            exp[f] = 0;
    memset(out, 0x55, size + 1);
    rc = CALL(ml_board_apply, K_LONG, g_ctx, b, state, taps, out);
    if (tap_locked) {
        ASSERT(rc == ML_EINVAL || rc == ML_EINTERRUPTED);
        ASSERT(out[0] == 0x55 || size == 0);
    } else if (rc == ML_OK) {
        ASSERT(memcmp(out, exp, size) == 0);
        ASSERT(out[size] == 0x55);
        /* in place */
        memcpy(out, state, size);
        if (CALL(ml_board_apply, K_LONG, g_ctx, b, out, taps, out) == ML_OK)
            ASSERT(memcmp(out, exp, size) == 0);
    } else {
        ASSERT(rc == ML_EINTERRUPTED);
    }
    /* press: the state after one tap `times` times = apply of that tap alone */
    if (nt) {
        uint64_t j = u16(in) % nt;
        int64_t r = 0, c = 0, times = (int64_t)u64(in);
        if (u8(in) < 128)
            times = (int8_t)times;
        ASSERT(CALL(ml_board_tap_position, K_PLAIN, g_ctx, b, j, &r, &c) == ML_OK);
        ASSERT(CALL(ml_board_press, K_PLAIN, g_ctx, b, state, r, c, times, out) == ML_OK);
        memset(taps, 0, tsize);
        int64_t x = times % (int64_t)n;
        taps[kind == ML_BOARD_GRID ? (uint64_t)(r * ml_board_cols(b) + c) : j] =
            (uint8_t)(x < 0 ? x + n : x);
        if (CALL(ml_board_apply, K_LONG, g_ctx, b, state, taps, exp) == ML_OK)
            ASSERT(memcmp(out, exp, size) == 0);
    }
    /* press off the board, on a hole, on a locked tile: refused, out untouched */
    {
        int64_t r = pos_arg(in, ml_board_rows(b)), c = pos_arg(in, ml_board_cols(b));
        uint64_t j = 0;
        int ri = CALL(ml_board_tap_index, K_PLAIN, g_ctx, b, r, c, &j);
        memset(out, 0x55, size + 1);
        rc = CALL(ml_board_press, K_PLAIN, g_ctx, b, state, r, c, 1, out);
        ASSERT(rc == ri);
        if (rc)
            ASSERT(size == 0 || out[0] == 0x55);
    }
    /* random states: values below n, 0 at holes, the same for the same seed */
    uint64_t seed = u64(in);
    int solvable = u8(in) & 1;
    rc = CALL(ml_board_random_state, K_LONG, g_ctx, b, seed, solvable, out);
    if (rc == ML_OK) {
        for (uint64_t f = 0; f < size; f++)
            ASSERT(out[f] < n && !(holes[f] && out[f]));
        if (CALL(ml_board_random_state, K_LONG, g_ctx, b, seed, solvable, exp) == ML_OK)
            ASSERT(memcmp(out, exp, size) == 0);
    }
    free(state);
    free(taps);
    free(out);
    free(exp);
    free(locked);
    free(holes);
    free(M);
}
