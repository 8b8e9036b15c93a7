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
#include "c_api.h"

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

ml_ctx *g_ctx;      /* this input's context (NULL: the thread's default) */
int g_stopped;      /* ml_ctx_stop was called during this input */
int g_interrupted;  /* some call returned ML_EINTERRUPTED */

int check(const char *fn, int rc, int kind)
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


/* The library-internal functions (ml__*) do not clear the error slot as public calls do:
 * a public call that succeeds clears it first. */
void clear_slot(void)
{
    if (ml_ctx_set_threads(g_ctx, 0) != ML_OK)
        abort();
}

/* snprintf convention: *len is the full length, the buffer holds a NUL-terminated prefix */
void check_text(const char *fn, const char *buf, size_t cap, size_t len)
{
    if (cap == 0)
        return;
    size_t want = len < cap - 1 ? len : cap - 1;
    if (strlen(buf) != want)
        FAIL("%s: %zu bytes written of %zu with cap %zu", fn, strlen(buf), len, cap);
}

/* ------------------------------------------------------------------ the state of an input */

ml_board *boards[NB];
grid_slot grids[NG];

void put_board(int slot, ml_board *b)
{
    ml_board_free(boards[slot]);
    boards[slot] = b;
}

void grid_clear(grid_slot *s)
{
    ml_grid_free(s->g);
    free(s->locked);
    free(s->holes);
    memset(s, 0, sizeof *s);
}

int64_t grid_tiles(const grid_slot *s) { return s->rows * s->cols; }

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
