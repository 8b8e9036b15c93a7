/* c_api.c: a libFuzzer target on the C API of libmodlights (csrc/include/modlights.h).
 *
 * Each input is a little program: a header byte, then operations, each an opcode byte
 * and its arguments read from the following bytes (a read past the end gives 0). The
 * operations build grid boards through the builder (sizes small, zero, negative, at and
 * past ML_MAX_SIDE and ML_MAX_TILES, every named pattern by id and by name, custom
 * offsets within and past ML_MAX_REACH / ML_MAX_OFFSETS, mixed palettes, wrap, locks and
 * holes one at a time and as masks), graph boards (from effects and from a matrix,
 * valid or not), and then use them: every accessor, positions both ways, the dense
 * matrix, each tap's effect, apply, press, random states, masks, equality and hash,
 * factored counts, board JSON, puzzle codes, the registry and plans, solvers, and the
 * puzzle layer's pure functions (bands, stars, PRNG, dates).
 *
 * Invariants (a violation aborts, so libFuzzer saves the input):
 *  - every call returns an ml_status (0..ML_STATUS_COUNT-1), and the context says the
 *    same: ML_OK with an empty message and ML_M_NONE, or the status, a non-empty message
 *    that is its message id's template of the table filled in (checked by a matcher of
 *    the printf template), the id's status equal to the call's; never ML_EINTERNAL;
 *    ML_ENOTIMPL only from the functions of packages still under way; ML_EINTERRUPTED
 *    only from long calls after a stop was asked for; ML_EMISUSE exactly for NULL
 *    handles; out-parameters are left alone on failure;
 *  - no leak (every handle is freed at the end of an input; LeakSanitizer is on);
 *  - the board's properties agree with each other and with what was built (sizes, cell
 *    and tap counts from the masks, positions <-> indices both ways, the dense matrix
 *    equal to the effects and to the tile patterns applied by hand, apply = state + A x,
 *    press = apply of one tap, equal boards hash equal, a graph board from the effects
 *    equal to one from the matrix);
 *  - round trips: board JSON (to_json -> from_json gives an equal board, when
 *    implemented), puzzle codes (a board and start -> code -> decoded -> the same board
 *    and start; a decoded code re-encodes to its text), the JSON reader (what it reads
 *    writes back to a text that reads and writes the same);
 *  - sizes past the limits are refused before allocating: such calls get a 1-byte
 *    buffer (ASan reports any write past it) and the run caps memory
 *    (-malloc_limit_mb, -rss_limit_mb: fuzz/c_api.sh).
 *
 * The puzzle codes and the JSON reader are reached through their library-internal
 * functions (csrc/play/play.h, csrc/api/json.h: linked from the static library) until
 * the public functions that wrap them (ml_code_encode, ml_puzzle_from_code,
 * ml_board_from_json) are implemented; the target calls those public ones too.
 *
 * Build and run: fuzz/c_api.sh (libFuzzer); fuzz/c_api_replay.c is a main() that feeds
 * files to LLVMFuzzerTestOneInput without libFuzzer (tests/test_fuzz_c_api.py replays
 * fuzz/c_api_corpus/ with it). docs/development.md: "Fuzzing the C API". */
#include "include/modlights.h"
#include "api/json.h"
#include "play/play.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ limits of the target */
#define MAX_OPS 48          /* operations an input runs */
#define NB 6                /* board slots */
#define NG 3                /* grid builder slots */
#define SMALL_TILES 1024    /* boards whose per-tile arrays the target makes */
#define SMALL_DENSE 65536   /* dense matrices the target reads (entries) */

/* ------------------------------------------------------------------ failing */
#define FAIL(...)                                                                        \
    do {                                                                                 \
        fprintf(stderr, "c_api fuzz: invariant violated at %s:%d: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                                    \
        fprintf(stderr, "\n");                                                           \
        abort();                                                                         \
    } while (0)
#define ASSERT(c)                                                                        \
    do {                                                                                 \
        if (!(c))                                                                        \
            FAIL("%s", #c);                                                              \
    } while (0)

/* ------------------------------------------------------------------ the input */
typedef struct {
    const uint8_t *d;
    size_t n, at;
} in_t;

static uint8_t u8(in_t *in) { return in->at < in->n ? in->d[in->at++] : 0; }
static uint16_t u16(in_t *in) { return (uint16_t)(u8(in) | u8(in) << 8); }
static uint32_t u32(in_t *in) { return (uint32_t)u16(in) | (uint32_t)u16(in) << 16; }
static uint64_t u64(in_t *in) { return (uint64_t)u32(in) | (uint64_t)u32(in) << 32; }
static int more(const in_t *in) { return in->at < in->n; }

/* A side or count: small mostly, else an edge of the limits or any 64-bit value. */
static int64_t size_arg(in_t *in)
{
    uint8_t k = u8(in);
    if (k < 200)
        return 1 + k % 12;
    switch (k % 14) {
    case 0: return 0;
    case 1: return -1;
    case 2: return INT64_MIN;
    case 3: return INT64_MAX;
    case 4: return ML_MAX_SIDE;
    case 5: return ML_MAX_SIDE + 1;
    case 6: return (int64_t)1 << 14;    /* 2^14 x 2^14 > ML_MAX_TILES */
    case 7: return (int64_t)1 << 13;
    case 8: return (int64_t)u16(in);
    case 9: return 255;
    case 10: return 256;
    case 11: return (int64_t)u64(in);
    case 12: return 1;
    default: return 40 + u8(in) % 60;
    }
}

static int states_arg(in_t *in)
{
    uint8_t k = u8(in);
    if (k < 240)
        return 2 + k % 12 == 13 ? 255 : 2 + k % 12;
    switch (k % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 256;
    case 3: return -1;
    case 4: return INT32_MAX;
    case 5: return 255;
    case 6: return 2 + u8(in) % 254;
    default: return INT32_MIN;
    }
}

static int64_t offset_arg(in_t *in)
{
    uint8_t k = u8(in);
    if (k < 240)
        return (int64_t)(k % 9) - 4;
    switch (k % 8) {
    case 0: return ML_MAX_REACH;
    case 1: return -ML_MAX_REACH;
    case 2: return ML_MAX_REACH + 1;
    case 3: return INT64_MIN;
    case 4: return 127;
    case 5: return -129;
    case 6: return (int8_t)u8(in);
    default: return (int64_t)u64(in);
    }
}

/* A position on a rows x cols board, now and then off it. */
static int64_t pos_arg(in_t *in, int64_t side)
{
    uint8_t k = u8(in);
    if (k < 240)
        return side > 0 ? (int64_t)((uint64_t)u16(in) % (uint64_t)side) : 0;
    switch (k % 5) {
    case 0: return -1;
    case 1: return side;
    case 2: return INT64_MAX;
    case 3: return INT64_MIN;
    default: return side - 1;
    }
}

/* NUL-terminated text from the input (at most cap - 1 bytes). */
static const char *text_arg(in_t *in, char *buf, size_t cap)
{
    size_t n = u8(in) % cap, i = 0;
    for (; i < n && more(in); i++)
        buf[i] = (char)u8(in);
    buf[i] = 0;
    return buf;
}

/* ------------------------------------------------------------------ the message table */
static long match_budget;

/* Whether msg matches the printf template t (conversions as ML_MESSAGES uses them); a
 * message cut at the slot's size ("..." at the end) matches a prefix. */
static int match(const char *t, const char *m, int cut)
{
    if (--match_budget < 0)
        return 1; /* pathological backtracking: give up, no verdict */
    for (;;) {
        if (cut && *m == 0)
            return 1;
        if (*t == 0)
            return *m == 0;
        if (*t != '%') {
            if (*t != *m)
                return 0;
            t++, m++;
            continue;
        }
        if (t[1] == '%') {
            if (*m != '%')
                return 0;
            t += 2, m++;
            continue;
        }
        const char *c = t + 1;
        while (*c && strchr("-+ #0123456789.", *c))
            c++;
        while (*c == 'l' || *c == 'z' || *c == 'h')
            c++;
        char conv = *c;
        const char *rest = c + 1;
        if (conv == 's') {
            for (const char *e = m;; e++) {
                if ((*rest == 0 || *rest == '%' || *e == *rest || (cut && *e == 0))
                    && match(rest, e, cut))
                    return 1;
                if (*e == 0)
                    return 0;
            }
        }
        const char *ok = conv == 'd' ? "-0123456789"
                         : conv == 'u' ? "0123456789"
                         : conv == 'x' ? "0123456789abcdef"
                                       : "-+0123456789.einfa";
        size_t k = 0;
        while (m[k] && strchr(ok, m[k]))
            k++;
        if (k == 0)
            return cut && *m == 0;
        for (size_t e = k; e >= 1; e--)
            if (match(rest, m + e, cut))
                return 1;
        return 0;
    }
}

/* ------------------------------------------------------------------ the checks of a call */
enum {
    K_PLAIN = 0,       /* implemented, short */
    K_LONG = 1,        /* implemented, polls for stops */
    K_PENDING = 2,     /* a package under way: ML_ENOTIMPL allowed */
    K_MISUSE = 4       /* a NULL handle was passed on purpose: ML_EMISUSE expected */
};

static ml_ctx *g_ctx;      /* this input's context (NULL: the thread's default) */
static int g_stopped;      /* ml_ctx_stop was called during this input */
static int g_interrupted;  /* some call returned ML_EINTERRUPTED */

static int check(const char *fn, int rc, int kind)
{
    if (rc < 0 || rc >= ML_STATUS_COUNT)
        FAIL("%s returned %d, not an ml_status", fn, rc);
    int code = ml_errcode(g_ctx), id = ml_errmsg_id(g_ctx);
    const char *msg = ml_errmsg(g_ctx);
    if (!msg)
        FAIL("%s: ml_errmsg is NULL", fn);
    if (code != rc)
        FAIL("%s returned %d (%s) but the context says %d", fn, rc, ml_status_name(rc), code);
    if (rc == ML_OK) {
        if (id != ML_M_NONE || msg[0])
            FAIL("%s succeeded but the context holds message %d '%s'", fn, id, msg);
        if (kind & K_MISUSE)
            FAIL("%s succeeded on a NULL handle", fn);
        return rc;
    }
    if (!msg[0])
        FAIL("%s failed with %s and an empty message", fn, ml_status_name(rc));
    if (id <= ML_M_NONE || id >= ML_MSG_COUNT)
        FAIL("%s failed with message id %d (not in the table): '%s'", fn, id, msg);
    if (ml_msg_status(id) != rc)
        FAIL("%s returned %s with %s, a message of status %s: '%s'", fn, ml_status_name(rc),
             ml_msg_name(id), ml_status_name(ml_msg_status(id)), msg);
    size_t len = strlen(msg);
    /* a message longer than the slot (4096 bytes with its NUL) is cut, ending in "..." */
    int cut = len >= 4095 && strcmp(msg + len - 3, "...") == 0;
    char body[8192];
    snprintf(body, sizeof body, "%.*s", (int)(cut ? len - 3 : len), msg);
    match_budget = 200000;
    if (!match(ml_msg_template(id), cut ? body : msg, cut))
        FAIL("%s: the message '%s' is not its template %s '%s'", fn, msg, ml_msg_name(id),
             ml_msg_template(id));
    if (rc == ML_EINTERNAL)
        FAIL("%s: internal error '%s'", fn, msg);
    if (rc == ML_ENOTIMPL && (kind & K_PENDING))
        return rc; /* a package under way */
    if (rc == ML_ENOTIMPL && !(kind & K_PENDING))
        FAIL("%s is implemented but returned ML_ENOTIMPL: '%s'", fn, msg);
    if (rc == ML_EINTERRUPTED) {
        if (!(kind & K_LONG) || !g_stopped)
            FAIL("%s interrupted without a stop asked for (kind %d)", fn, kind);
        g_interrupted = 1;
    }
    if ((kind & K_MISUSE) && rc != ML_EMISUSE)
        FAIL("%s on a NULL handle returned %s, not MISUSE: '%s'", fn, ml_status_name(rc), msg);
    if (!(kind & K_MISUSE) && rc == ML_EMISUSE)
        FAIL("%s: MISUSE without a NULL handle: '%s'", fn, msg);
    return rc;
}

#define CALL(fn, kind, ...) check(#fn, fn(__VA_ARGS__), kind)

/* The library-internal functions (ml__*) do not clear the error slot as public calls do:
 * a public call that succeeds clears it first. */
static void clear_slot(void)
{
    if (ml_ctx_set_threads(g_ctx, 0) != ML_OK)
        abort();
}
#define CALL_INTERNAL(fn, kind, ...) (clear_slot(), check(#fn, fn(__VA_ARGS__), kind))

/* snprintf convention: *len is the full length, the buffer holds a NUL-terminated prefix */
static void check_text(const char *fn, const char *buf, size_t cap, size_t len)
{
    if (cap == 0)
        return;
    size_t want = len < cap - 1 ? len : cap - 1;
    if (strlen(buf) != want)
        FAIL("%s: %zu bytes written of %zu with cap %zu", fn, strlen(buf), len, cap);
}

/* ------------------------------------------------------------------ the state of an input */
typedef struct {
    ml_grid *g;
    int64_t rows, cols;
    int n;
    uint8_t *locked, *holes;    /* shadow masks (small grids), NULL: none marked */
    int mixed;                  /* set_mixed took effect and no pattern replaced it */
    uint32_t n_pal;
} grid_slot;

static ml_board *boards[NB];
static grid_slot grids[NG];

static void put_board(int slot, ml_board *b)
{
    ml_board_free(boards[slot]);
    boards[slot] = b;
}

static void grid_clear(grid_slot *s)
{
    ml_grid_free(s->g);
    free(s->locked);
    free(s->holes);
    memset(s, 0, sizeof *s);
}

static int64_t grid_tiles(const grid_slot *s) { return s->rows * s->cols; }

/* ------------------------------------------------------------------ the grid builder */
static void op_grid_new(in_t *in)
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

static void op_grid_pattern(in_t *in)
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

static void op_grid_palette(in_t *in)
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

static void op_grid_mixed(in_t *in)
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

static void op_grid_wrap(in_t *in)
{
    grid_slot *s = &grids[u8(in) % NG];
    if (!s->g) {
        CALL(ml_grid_set_wrap, K_MISUSE, g_ctx, NULL, 1);
        return;
    }
    CALL(ml_grid_set_wrap, K_PLAIN, g_ctx, s->g, (int)(int8_t)u8(in));
}

static void op_grid_mark(in_t *in)
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

static void op_grid_masks(in_t *in)
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

static void check_board(ml_board *b);

static void op_grid_build(in_t *in)
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

static void op_board_grid(in_t *in)
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
static void op_effects(in_t *in)
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

static void op_matrix_board(in_t *in)
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
static void check_board(ml_board *b)
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
static void use_board(in_t *in, ml_board *b)
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

/* ------------------------------------------------------------------ JSON */
/* Read text with the library's reader; what it reads writes back to a text that reads and
 * writes the same (json.dumps(json.loads(t)) is a fixed point). */
static void json_reread(const char *text, size_t len, int depth)
{
    ml_json j;
    memset(&j, 0, sizeof j);
    int rc = CALL_INTERNAL(ml__json_parse, K_PLAIN, g_ctx, &j, text, len, "doc", depth);
    if (rc) {
        ASSERT(rc == ML_EINVAL && ml_errmsg_id(g_ctx) == ML_M_JSON_SYNTAX);
        return;
    }
    ASSERT(j.ntok >= 1 && j.tok[0].end == j.ntok);
    char small[24];
    for (size_t i = 0; i < j.ntok && i < 64; i++) {
        size_t full = ml__json_repr(&j, i, small, sizeof small);
        check_text("ml__json_repr", small, sizeof small, full);
        size_t s = ml__json_short(&j, i, small, sizeof small);
        check_text("ml__json_short", small, sizeof small, s);
        ASSERT(ml__json_type_name(&j, i) != NULL);
        if (j.tok[i].kind == ML_JSON_STR) {
            size_t sl = ml__json_str(&j, i, small, sizeof small);
            ASSERT(sl == j.tok[i].count);
        }
        ASSERT(j.tok[i].end > i && j.tok[i].end <= j.ntok);
    }
    ml_jw w;
    ml__jw_init(&w, NULL, 0);
    ml__jw_value(&w, &j, 0);
    size_t n1 = ml__jw_finish(&w);
    ASSERT(n1 != (size_t)-1);
    char *t1 = malloc(n1 + 1);
    ml__jw_init(&w, t1, n1 + 1);
    ml__jw_value(&w, &j, 0);
    ASSERT(ml__jw_finish(&w) == n1 && strlen(t1) == n1);
    ml__json_free(&j);
    memset(&j, 0, sizeof j);
    rc = CALL_INTERNAL(ml__json_parse, K_PLAIN, g_ctx, &j, t1, n1, "doc", depth);
    if (rc)
        FAIL("the reader refuses what the writer wrote: '%s' (%s)", t1, ml_errmsg(g_ctx));
    ml__jw_init(&w, NULL, 0);
    ml__jw_value(&w, &j, 0);
    size_t n2 = ml__jw_finish(&w);
    char *t2 = malloc(n2 + 1);
    ml__jw_init(&w, t2, n2 + 1);
    ml__jw_value(&w, &j, 0);
    ml__jw_finish(&w);
    if (n1 != n2 || memcmp(t1, t2, n1) != 0)
        FAIL("written, read and written again differs: '%s' then '%s'", t1, t2);
    ml__json_free(&j);
    free(t1);
    free(t2);
}

static void op_json_text(in_t *in)
{
    size_t len = u16(in) % 512;
    if (len > in->n - in->at)
        len = in->n - in->at;
    const char *text = (const char *)in->d + in->at;
    in->at += len;
    int depth = (int)(u8(in) % 70) - 2;
    json_reread(text, len, depth);
    /* the public reader of boards (and puzzles), where implemented */
    ml_board *b = NULL;
    int rc = CALL(ml_board_from_json, K_PENDING, g_ctx, text, len, (int64_t)(int8_t)u8(in), &b);
    if (rc == ML_OK) {
        check_board(b);
        ml_board_free(b);
    }
    ml_puzzle *p = NULL;
    rc = CALL(ml_puzzle_from_json, K_PENDING, g_ctx, text, len, 0, &p);
    ml_puzzle_free(p);
}

static void board_json_round_trip(ml_board *b)
{
    size_t len = 0;
    int rc = CALL(ml_board_to_json, K_PENDING, g_ctx, b, NULL, 0, &len);
    if (rc)
        return;
    char *buf = malloc(len + 1);
    size_t len2 = 0;
    ASSERT(CALL(ml_board_to_json, K_PLAIN, g_ctx, b, buf, len + 1, &len2) == ML_OK && len2 == len);
    ASSERT(strlen(buf) == len);
    json_reread(buf, len, 0);
    ml_board *back = NULL;
    /* a giant board's text (past ML_MAX_TILES tiles) is read only with a larger max_tiles,
     * as Python's Board.from_dict(..., max_tiles=...) */
    int giant = ml_board_is_giant(b);
    if (giant) {
        rc = CALL(ml_board_from_json, K_PLAIN, g_ctx, buf, len, 0, &back);
        ASSERT(rc == ML_ETOOLARGE && back == NULL);
    }
    rc = CALL(ml_board_from_json, K_PLAIN, g_ctx, buf, len, giant ? INT64_MAX : 0, &back);
    if (rc)
        FAIL("ml_board_from_json refuses ml_board_to_json's '%s': %s", buf, ml_errmsg(g_ctx));
    if (!ml_board_equal(b, back) || ml_board_hash(b) != ml_board_hash(back))
        FAIL("the board of '%s' is not the board written", buf);
    ml_board_free(back);
    free(buf);
}

/* ------------------------------------------------------------------ puzzle codes */
/* The board of a decoded code, through the public builder. */
static ml_board *board_of_code(const ml__code *c)
{
    ml_grid *g = NULL;
    ASSERT(CALL(ml_grid_new, K_PLAIN, g_ctx, c->rows, c->cols, c->states, &g) == ML_OK);
    ASSERT(CALL(ml_grid_set_wrap, K_PLAIN, g_ctx, g, c->wrap) == ML_OK);
    for (size_t e = 0; e < c->n_palette; e++) {
        const ml__code_pattern *p = &c->palette[e];
        int64_t dr[256], dc[256];
        for (size_t k = 0; k < p->count; k++) {
            dr[k] = p->offs[2 * k];
            dc[k] = p->offs[2 * k + 1];
        }
        if (c->mixed) {
            uint32_t idx = 0;
            ASSERT(CALL(ml_grid_palette_add_offsets, K_PLAIN, g_ctx, g, p->count, dr, dc, &idx)
                   == ML_OK && idx == e);
        } else {
            ASSERT(CALL(ml_grid_set_offsets, K_PLAIN, g_ctx, g, p->count, dr, dc) == ML_OK);
        }
    }
    if (c->mixed)
        ASSERT(CALL(ml_grid_set_mixed, K_PLAIN, g_ctx, g, c->index) == ML_OK);
    if (c->locked)
        ASSERT(CALL(ml_grid_set_locked, K_PLAIN, g_ctx, g, c->locked) == ML_OK);
    if (c->holes)
        ASSERT(CALL(ml_grid_set_holes, K_PLAIN, g_ctx, g, c->holes) == ML_OK);
    ml_board *b = NULL;
    int rc = CALL(ml_grid_build, K_PLAIN, g_ctx, g, &b);
    ml_grid_free(g);
    return rc ? NULL : b;
}

/* The code description of a grid board and a start, through the public accessors
 * (each tile's pattern its own palette entry on a mixed board: encode merges them).
 * Returns 0 when the board is not small or a pattern is too long to hold. */
static int code_of_board(ml_board *b, const uint8_t *start, ml__code *c)
{
    memset(c, 0, sizeof *c);
    int64_t rows = ml_board_rows(b), cols = ml_board_cols(b), t = rows * cols;
    c->rows = rows;
    c->cols = cols;
    c->states = ml_board_states(b);
    c->wrap = ml_board_wrap(b);
    c->mixed = ml_board_is_mixed(b);
    c->n_palette = c->mixed ? (size_t)t : 1;
    c->palette = calloc(c->n_palette, sizeof *c->palette);
    int32_t dr[300], dc[300];
    for (size_t e = 0; e < c->n_palette; e++) {
        size_t count = 0;
        ASSERT(CALL(ml_board_tile_pattern, K_PLAIN, g_ctx, b, (int64_t)e / cols,
                    (int64_t)e % cols, &count, dr, dc, 300) == ML_OK);
        if (count > 300) {
            c->n_palette = e;
            ml__code_free(c);
            return 0;
        }
        c->palette[e].count = count;
        c->palette[e].offs = malloc((2 * count + 1) * sizeof(int64_t));
        for (size_t k = 0; k < count; k++) {
            c->palette[e].offs[2 * k] = dr[k];
            c->palette[e].offs[2 * k + 1] = dc[k];
        }
    }
    if (c->mixed) {
        c->index = malloc((size_t)t * sizeof *c->index);
        for (int64_t f = 0; f < t; f++)
            c->index[f] = (uint32_t)f;
    }
    c->start = malloc((size_t)t);
    memcpy(c->start, start, (size_t)t);
    if (ml_board_any_locked(b)) {
        c->locked = malloc((size_t)t);
        ASSERT(CALL(ml_board_locked_mask, K_PLAIN, g_ctx, b, c->locked) == ML_OK);
    }
    if (ml_board_any_holes(b)) {
        c->holes = malloc((size_t)t);
        ASSERT(CALL(ml_board_holes_mask, K_PLAIN, g_ctx, b, c->holes) == ML_OK);
    }
    return 1;
}

static void code_round_trip(in_t *in, ml_board *b)
{
    if (ml_board_kind(b) != ML_BOARD_GRID || ml_board_size(b) > SMALL_TILES)
        return;
    uint64_t size = ml_board_size(b);
    unsigned n = (unsigned)ml_board_states(b);
    uint8_t *start = malloc(size + 1), *holes = malloc(size + 1);
    ASSERT(CALL(ml_board_holes_mask, K_PLAIN, g_ctx, b, holes) == ML_OK);
    for (uint64_t f = 0; f < size; f++)
        start[f] = holes[f] ? 0 : (uint8_t)(u8(in) % n);
    /* the public functions, where implemented */
    size_t len = 0;
    char small[8];
    int rc = CALL(ml_code_encode, K_PENDING, g_ctx, b, start, small, sizeof small, &len);
    if (rc == ML_OK) {
        check_text("ml_code_encode", small, sizeof small, len);
        char *text = malloc(len + 1);
        ASSERT(CALL(ml_code_encode, K_PLAIN, g_ctx, b, start, text, len + 1, &len) == ML_OK);
        ml_puzzle *p = NULL;
        if (CALL(ml_puzzle_from_code, K_PENDING, g_ctx, text, len, &p) == ML_OK) {
            ASSERT(ml_board_equal(ml_puzzle_board(p), b));
            ASSERT(memcmp(ml_puzzle_start(p), start, size) == 0);
            const char *again = NULL;
            if (CALL(ml_puzzle_code, K_PENDING, g_ctx, p, &again) == ML_OK)
                ASSERT(strcmp(again, text) == 0);
        }
        ml_puzzle_free(p);
        free(text);
    }
    /* the code layer of csrc/play */
    ml__code c;
    if (code_of_board(b, start, &c)) {
        char *text = NULL;
        size_t tl = 0;
        rc = CALL_INTERNAL(ml__code_encode, K_PLAIN, g_ctx, &c, &text, &tl);
        if (rc == ML_OK) {
            ml__code d;
            rc = CALL_INTERNAL(ml__code_decode, K_PLAIN, g_ctx, text, tl, &d);
            if (rc)
                FAIL("the code '%s' of a board does not decode: %s", text, ml_errmsg(g_ctx));
            ml_board *back = board_of_code(&d);
            ASSERT(back && ml_board_equal(back, b));
            ASSERT(memcmp(d.start, start, size) == 0);
            ml_board_free(back);
            ml__code_free(&d);
        } else {
            ASSERT(text == NULL);
        }
        free(text);
        ml__code_free(&c);
    }
    free(start);
    free(holes);
}

static void op_code_text(in_t *in)
{
    size_t len = u16(in) % 256;
    if (len > in->n - in->at)
        len = in->n - in->at;
    const char *text = (const char *)in->d + in->at;
    in->at += len;
    ml__code c;
    int rc = CALL_INTERNAL(ml__code_decode, K_PLAIN, g_ctx, text, len, &c);
    if (rc == ML_OK) {
        /* a code decodes to a board the public builder makes, which encodes back to it */
        ml_board *b = board_of_code(&c);
        ASSERT(b != NULL);
        ml__code again;
        ASSERT(code_of_board(b, c.start, &again));
        char *t2 = NULL;
        size_t l2 = 0;
        ASSERT(CALL_INTERNAL(ml__code_encode, K_PLAIN, g_ctx, &again, &t2, &l2) == ML_OK);
        size_t a = 0, e = 0;
        ml__py_strip(text, len, &a, &e);
        if (l2 != e - a || memcmp(t2, text + a, l2) != 0)
            FAIL("a code re-encodes from its board to another: '%.*s' -> '%s'", (int)(e - a),
                 text + a, t2);
        free(t2);
        ml__code_free(&again);
        check_board(b);
        ml_board_free(b);
        ml__code_free(&c);
    } else {
        ASSERT(c.palette == NULL && c.start == NULL);
    }
    ml_puzzle *p = NULL;
    rc = CALL(ml_puzzle_from_code, K_PENDING, g_ctx, text, len, &p);
    ml_puzzle_free(p);
}

/* ------------------------------------------------------------------ plans and solvers */
static void op_plan(in_t *in)
{
    ml_board *b = boards[u8(in) % NB];
    static const char *methods[] = {NULL, "auto", "dense", "chase", "algebraic", "lifted",
                                    "tensor", "dense-gf2", "dense-zn", "no-such", ""};
    static const char *backends[] = {NULL, "native", "reference", "gpu"};
    char buf[24];
    uint8_t k = u8(in);
    const char *method = k < 220 ? methods[k % 11] : text_arg(in, buf, sizeof buf);
    const char *backend = backends[u8(in) % 4];
    if (!b)
        method = backend = NULL; /* a NULL board with valid arguments: MISUSE */
    int count = ml_engine_count();
    ASSERT(count >= 0);
    for (int i = -1; i <= count; i++) {
        const char *name = ml_engine_name(i);
        ASSERT((name != NULL) == (i >= 0 && i < count));
        if (!name)
            continue;
        ASSERT(ml_engine_index(name) == i && ml_engine_family(i) && ml_engine_description(i));
        if (!b)
            continue;
        int covers = -1;
        char why[64];
        size_t wl = 0;
        if (CALL(ml_engine_covers, K_PENDING | K_LONG, g_ctx, i, b, &covers, why, sizeof why, &wl)
            == ML_OK)
            ASSERT(covers == 0 || covers == 1);
        double secs = -1;
        if (CALL(ml_engine_cost, K_PENDING | K_LONG, g_ctx, i, b, &secs) == ML_OK)
            ASSERT(secs >= 0);
    }
    ml_plan *p = (ml_plan *)&g_ctx;
    int rc = CALL(ml_plan_choose, (b ? 0 : K_MISUSE) | K_PENDING | K_LONG, g_ctx, b, method,
                  backend, &p);
    if (rc) {
        ASSERT(p == (ml_plan *)&g_ctx);
        return;
    }
    ASSERT(ml_plan_engine(p) && ml_plan_family(p) && ml_plan_reason(p));
    ASSERT(ml_plan_method(p) && ml_plan_backend(p));
    ASSERT(ml_plan_cost(p) >= 0);
    size_t nr = ml_plan_rejected_count(p);
    for (size_t i = 0; i <= nr; i++) {
        const char *name = NULL, *reason = NULL;
        ml_ctx *keep = g_ctx;   /* no context argument: the thread's default one */
        g_ctx = NULL;
        rc = CALL(ml_plan_rejected, K_PENDING, p, i, &name, &reason);
        g_ctx = keep;
        if (rc == ML_ENOTIMPL)
            break;
        ASSERT((rc == ML_OK) == (i < nr));
        if (rc == ML_OK)
            ASSERT(name && reason);
    }
    char small[16];
    size_t len = 0;
    if (CALL(ml_plan_explain, K_PENDING, g_ctx, p, small, sizeof small, &len) == ML_OK)
        check_text("ml_plan_explain", small, sizeof small, len);
    if (CALL(ml_plan_to_json, K_PENDING, g_ctx, p, NULL, 0, &len) == ML_OK) {
        char *json = malloc(len + 1);
        ASSERT(CALL(ml_plan_to_json, K_PLAIN, g_ctx, p, json, len + 1, &len) == ML_OK);
        json_reread(json, len, 0);
        free(json);
    }
    /* a solver by this plan, on small boards */
    if (ml_board_n_taps(b) <= 64 && ml_board_size(b) <= 64) {
        ml_solver *s = NULL;
        rc = CALL(ml_solver_new_plan, K_PENDING | K_LONG, g_ctx, b, p, &s);
        if (rc == ML_OK) {
            uint64_t nul = 0, rank = 0;
            if (CALL(ml_solver_nullity, K_PENDING | K_LONG, g_ctx, s, &nul) == ML_OK
                && CALL(ml_solver_rank, K_PENDING | K_LONG, g_ctx, s, &rank) == ML_OK)
                ASSERT(nul + rank == ml_board_n_taps(b));
            uint64_t size = ml_board_size(b);
            uint8_t st[64], out[64];
            for (uint64_t f = 0; f < size; f++)
                st[f] = u8(in);
            ml_result *r = NULL;
            rc = CALL(ml_solver_solve, K_PENDING | K_LONG, g_ctx, s, st, ml_target_fill(0), 0,
                      ml_budget_default(), &r);
            if (rc == ML_OK) {
                if (CALL(ml_board_apply, K_LONG, g_ctx, b, st, ml_result_taps(r), out) == ML_OK)
                    for (uint64_t f = 0; f < size; f++)
                        ASSERT(out[f] == 0);
            } else {
                ASSERT(rc == ML_EUNSOLVABLE || rc == ML_ETOOLARGE || rc == ML_ENOTIMPL
                       || rc == ML_EINTERRUPTED || rc == ML_EUNAVAILABLE);
            }
            ml_result_free(r);
            ml_solver_free(s);
        }
    }
    ml_plan_free(p);
}

/* ------------------------------------------------------------------ counts and the puzzle layer */
static void op_factored(in_t *in)
{
    static const uint32_t primes[] = {2, 3, 5, 7, 11, 13, 251, 4, 0, 256};
    ml_factored f;
    memset(&f, 0, sizeof f);
    f.count = (int)(u8(in) % 7) - 1;
    for (int i = 0; i < ML_MAX_PRIMES; i++) {
        f.prime[i] = primes[u8(in) % 10];
        uint8_t k = u8(in);
        f.exp[i] = k < 200 ? k % 70 : k < 250 ? u16(in) : u64(in);
    }
    uint64_t v = 0xfeed;
    int rc = CALL(ml_factored_u64, K_PLAIN, g_ctx, &f, &v);
    ASSERT(rc == ML_OK || v == 0xfeed);
    double l2 = ml_factored_log2(&f);
    ASSERT(!(l2 < 0) && !isnan(l2));
    if (rc == ML_EINVAL)
        return;
    if (l2 > 20000 && l2 < 3.4e8)
        return; /* allowed but slow (digits^2): not what this target spends time on */
    size_t len = 0;
    char small[12];
    int rd = CALL(ml_factored_decimal, K_LONG, g_ctx, &f, small, sizeof small, &len);
    if (rd == ML_OK) {
        check_text("ml_factored_decimal", small, sizeof small, len);
        char *full = malloc(len + 1);
        size_t len2 = 0;
        if (CALL(ml_factored_decimal, K_LONG, g_ctx, &f, full, len + 1, &len2) == ML_OK) {
            ASSERT(len2 == len && strlen(full) == len && (len == 1 || full[0] != '0'));
            if (rc == ML_OK) {
                char want[24];
                snprintf(want, sizeof want, "%llu", (unsigned long long)v);
                if (strcmp(want, full) != 0)
                    FAIL("ml_factored_decimal '%s', ml_factored_u64 %s", full, want);
            }
        }
        free(full);
    } else {
        ASSERT(rd == ML_ETOOLARGE || rd == ML_EINTERRUPTED);
    }
}

static void op_play(in_t *in)
{
    uint8_t k = u8(in) % 6;
    if (k == 0) {
        uint64_t nt = u8(in) < 200 ? u16(in) : u64(in), lo[4], hi[4];
        int states = states_arg(in);
        if (states < 2 || states > 255)
            return;
        ml_tap_bands(nt, states, lo, hi);
        for (int d = 0; d < 4; d++) {
            ASSERT(lo[d] <= hi[d] + 1);
            uint64_t m = lo[d] + (hi[d] - lo[d]) / 2;
            if (lo[d] <= hi[d])
                ASSERT(ml_difficulty_of(m, nt, states) == d);
        }
    } else if (k == 1) {
        uint64_t m = u8(in) < 200 ? u16(in) : u64(in), lim[3];
        ml_stars_limits(m, lim);
        ASSERT(lim[0] <= lim[1] && lim[1] <= lim[2] && lim[0] >= m);
        ASSERT(ml_stars_for_taps(lim, m) == 3);
        if (lim[2] < UINT64_MAX)
            ASSERT(ml_stars_for_taps(lim, lim[2] + 1) == 0);
    } else if (k == 2) {
        ml_prng g;
        ml_prng_seed(&g, u64(in));
        uint64_t n = u8(in) < 128 ? u16(in) % 300 : u64(in), kk = u16(in) % 64;
        uint64_t out[64];
        int rc = CALL(ml_prng_sample, K_PLAIN, g_ctx, &g, n, kk, out);
        ASSERT((rc == ML_OK) == (kk <= n));
        for (uint64_t i = 0; rc == ML_OK && i < kk; i++) {
            ASSERT(out[i] < n);
            for (uint64_t j = 0; j < i; j++)
                ASSERT(out[i] != out[j]);
        }
        ASSERT(ml_prng_below(&g, 0) == 0);
    } else if (k == 3) {
        char buf[40];
        int y = -1, m = -1, d = -1;
        int rc = CALL(ml_date_parse, K_PLAIN, g_ctx, text_arg(in, buf, sizeof buf), &y, &m, &d);
        if (rc == ML_OK)
            ASSERT(m >= 1 && m <= 12 && d >= 1 && d <= 31);
        else
            ASSERT(y == -1 && m == -1 && d == -1);
    } else if (k == 4) {
        char buf[24];
        int d = -1;
        int rc = CALL(ml_difficulty_lookup, K_PLAIN, g_ctx, text_arg(in, buf, sizeof buf), &d);
        ASSERT(rc != ML_OK || (d >= 0 && d < ML_DIFFICULTY_COUNT));
        char b2[32];
        size_t n = u8(in) % 31;
        for (size_t i = 0; i < n; i++)
            b2[i] = (char)u8(in);
        (void)ml_seed_from_bytes(b2, n);
    } else {
        char buf[24];
        int id = -1;
        int rc = CALL(ml_pattern_lookup, K_PLAIN, g_ctx, text_arg(in, buf, sizeof buf), &id);
        if (rc == ML_OK) {
            ASSERT(id >= 0 && id < ML_PATTERN_COUNT && ml_pattern_name(id));
            int32_t dr[9], dc[9];
            ASSERT(ml_pattern_offsets(id, dr, dc, 9) >= 3 && dr[0] == 0 && dc[0] == 0);
        } else {
            ASSERT(id == -1 && rc == ML_EINVAL);
        }
        int s = (int)(int8_t)u8(in);
        ASSERT(ml_status_name(s) && ml_strerror(s));
        ASSERT(ml_msg_template(s * 3) && ml_msg_name(s * 3));
    }
}

static void op_misuse(in_t *in)
{
    uint8_t buf[4] = {0};
    size_t count = 0;
    uint64_t j = 0;
    int64_t r = 0, c = 0;
    switch (u8(in) % 8) {
    case 0: CALL(ml_board_apply, K_MISUSE | K_LONG, g_ctx, NULL, buf, buf, buf); break;
    case 1: CALL(ml_board_pattern, K_MISUSE, g_ctx, NULL, &count, NULL, NULL, 0); break;
    case 2: CALL(ml_board_tap_index, K_MISUSE, g_ctx, NULL, 0, 0, &j); break;
    case 3: CALL(ml_board_cell_position, K_MISUSE, g_ctx, NULL, 0, &r, &c); break;
    case 4: CALL(ml_board_effect, K_MISUSE, g_ctx, NULL, 0, &count, NULL, 0); break;
    case 5: CALL(ml_board_random_state, K_MISUSE | K_LONG, g_ctx, NULL, 1, 1, buf); break;
    case 6: CALL(ml_grid_lock, K_MISUSE, g_ctx, NULL, 0, 0); break;
    default: {
        ml_board *b = boards[u8(in) % NB];
        if (b)
            CALL(ml_board_apply, K_MISUSE | K_LONG, g_ctx, b, NULL, buf, buf);
    }
    }
    ASSERT(ml_board_kind(NULL) == 0 && ml_board_size(NULL) == 0 && !ml_board_equal(NULL, NULL));
}

/* ------------------------------------------------------------------ the entry point */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in_t in = {data, size, 0};
    uint8_t head = u8(&in);
    ml_ctx *own = NULL;
    if (ml_ctx_new(&own) != ML_OK)
        abort();
    g_ctx = head & 1 ? NULL : own;
    g_stopped = g_interrupted = 0;
    for (int op = 0; op < MAX_OPS && more(&in); op++) {
        uint8_t code = u8(&in);
        switch (code % 20) {
        case 0: op_grid_new(&in); break;
        case 1: op_grid_pattern(&in); break;
        case 2: op_grid_palette(&in); break;
        case 3: op_grid_mixed(&in); break;
        case 4: op_grid_wrap(&in); break;
        case 5: op_grid_mark(&in); break;
        case 6: op_grid_masks(&in); break;
        case 7: op_grid_build(&in); break;
        case 8: op_board_grid(&in); break;
        case 9: op_effects(&in); break;
        case 10: op_matrix_board(&in); break;
        case 11: case 12: {
            ml_board *b = boards[u8(&in) % NB];
            if (b) {
                check_board(b);
                use_board(&in, b);
            }
            break;
        }
        case 13: {
            ml_board *b = boards[u8(&in) % NB];
            if (b) {
                board_json_round_trip(b);
                code_round_trip(&in, b);
            }
            break;
        }
        case 14: op_json_text(&in); break;
        case 15: op_code_text(&in); break;
        case 16: op_plan(&in); break;
        case 17: op_factored(&in); break;
        case 18: op_play(&in); break;
        default:
            if (code == 19 && g_ctx) { /* a stop on this input's own context */
                ml_ctx_stop(g_ctx);
                g_stopped = 1;
            } else {
                op_misuse(&in);
            }
        }
    }
    for (int i = 0; i < NB; i++)
        put_board(i, NULL);
    for (int i = 0; i < NG; i++)
        grid_clear(&grids[i]);
    ml_ctx_free(own);
    return 0;
}
