/* c_api_texts.c: the fuzz target's texts and the rest (fuzz/c_api.c): JSON, puzzle codes,
 * plans and solvers, big counts, the puzzle layer, misuse. */
#include "c_api.h"

#include <time.h>

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

/* The certificate checker (ml_verify_json) on a text, on a context of its own whose
 * progress callback stops it after 200 ms: a status of its own (a verdict is ML_EINVAL
 * with ML_M_CERT_INVALID, ML_M_CERT_FORMAT or ML_M_JSON_SYNTAX), the summary
 * NUL-terminated within its buffer. Texts holding a number of 3 digits or more are not
 * checked: the checker has no work bound, and a declared board of 10^6 tiles needs a
 * dense matrix past the run's memory cap. */
static long long verify_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The progress callback of a check: stop it past its deadline (a declared kernel of
 * 2^40 coset elements is a valid certificate that takes days). */
static int verify_deadline(void *user, int phase, uint64_t done, uint64_t total)
{
    (void)phase, (void)done, (void)total;
    return verify_now_ms() > *(const long long *)user;
}

static void verify_text(const char *text, size_t len)
{
    for (size_t i = 0, run = 0; i < len; i++)
        if ((run = text[i] >= '0' && text[i] <= '9' ? run + 1 : 0) > 2)
            return;
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        abort();
    long long deadline = verify_now_ms() + 200;
    ml_ctx_set_progress(ctx, verify_deadline, &deadline, 5);
    ml_ctx *saved = g_ctx;
    int stopped = g_stopped;
    g_ctx = ctx, g_stopped = 1;     /* the deadline may stop it: ML_EINTERRUPTED allowed */
    char out[48];
    size_t n = 0;
    int rc = CALL(ml_verify_json, K_LONG, g_ctx, text, len, out, sizeof out, &n);
    if (rc == ML_OK)
        ASSERT(strlen(out) == (n < sizeof out ? n : sizeof out - 1));
    else if (rc == ML_EINVAL)
        ASSERT(ml_errmsg_id(g_ctx) == ML_M_CERT_INVALID || ml_errmsg_id(g_ctx) == ML_M_CERT_FORMAT ||
               ml_errmsg_id(g_ctx) == ML_M_JSON_SYNTAX);
    g_ctx = saved, g_stopped = stopped;
    ml_ctx_free(ctx);
}

/* Certificates that hold (small: a 1 x 3 Z/3 enumeration, a 1 x 2 GF(2) tree with a
 * symmetry, a 1 x 2 hardest lp-dual, 1 x 2 bounds with covering weights): the input's
 * text is spliced into one. */
static const char *const CERT_SEEDS[] = {
    "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"minimal\",\"board\":{\"rows\":1,"
    "\"cols\":3,\"states\":3},\"kernel\":{\"generators\":[],\"orders\":[]},\"rhs\":[1,2,1],"
    "\"taps\":[1,0,1],\"length\":2,\"proof\":{\"method\":\"enumeration\"}}",
    "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"minimal\",\"board\":{\"rows\":1,"
    "\"cols\":2,\"pattern\":\"horizontal\"},\"kernel\":{\"generators\":[[1,1]],\"orders\":[2]},"
    "\"rhs\":[1,1],\"taps\":[1,0],\"length\":1,\"proof\":{\"method\":\"tree\",\"leaf_dim\":0,"
    "\"pruned\":[],\"symmetries\":[{\"cells\":[1,0],\"taps\":[1,0]}]}}",
    "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"hardest\",\"board\":{\"rows\":1,"
    "\"cols\":2,\"pattern\":\"horizontal\"},\"kernel\":{\"generators\":[[1,1]],\"orders\":[2]},"
    "\"lower\":1,\"upper\":1,\"witness\":{\"rhs\":[1,1],\"taps\":[1,0],\"length\":1,\"proof\":"
    "{\"method\":\"enumeration\"}},\"upper_bound\":{\"method\":\"lp-dual\",\"elements\":[[0],[1]],"
    "\"weights\":[\"1/2\",\"1/2\"]}}",
    "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"bounds\",\"board\":{\"rows\":1,"
    "\"cols\":2,\"pattern\":\"horizontal\"},\"rhs\":[1,1],\"taps\":[1,0],\"lower\":1,\"upper\":1,"
    "\"lower_bound\":{\"method\":\"covering\",\"denominator\":2,\"weights\":[1,1]}}",
};

static void op_verify(in_t *in, const char *text, size_t len)
{
    verify_text(text, len);
    const char *seed = CERT_SEEDS[u8(in) % (sizeof CERT_SEEDS / sizeof CERT_SEEDS[0])];
    size_t sl = strlen(seed), at = u16(in) % (sl + 1), cut = u8(in) % 12;
    if (cut > sl - at)
        cut = sl - at;
    char *t = malloc(sl + len + 1);
    if (!t)
        return;
    memcpy(t, seed, at);
    memcpy(t + at, text, len);
    memcpy(t + at + len, seed + at + cut, sl - at - cut);
    verify_text(t, sl - cut + len);
    free(t);
}

void op_json_text(in_t *in)
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
    op_verify(in, text, len);
}

void board_json_round_trip(ml_board *b)
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

void code_round_trip(in_t *in, ml_board *b)
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

void op_code_text(in_t *in)
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
/* A many-coset split search of 1..3 states of b (its kernel at most 4096 elements):
 * split, exported, the bytes (maybe with a byte or two changed by the input) read back
 * by ml_search_import (refused with the table's message, or a search), every task run
 * on the copy; unchanged bytes: the tasks merged and each solvable state's taps solve
 * it with the length given. */
static void many_search(in_t *in, ml_board *b, ml_solver *s)
{
    ml_factored ks;
    uint64_t total = 0;
    if (ml_solver_kernel_size(g_ctx, s, &ks) != ML_OK || ml_factored_u64(g_ctx, &ks, &total)
        || total > 4096)
        return;
    size_t k = 1 + u8(in) % 3, size = (size_t)ml_board_size(b);
    size_t tsize = (size_t)ml_board_taps_size(b), L = (size_t)ml_board_n_taps(b);
    uint8_t st[3 * 64], taps[3 * 64], rows_taps[3 * 64], out[64];
    for (size_t f = 0; f < k * size; f++)
        st[f] = u8(in);
    ml_search *q = NULL, *w = NULL;
    if (CALL(ml_solver_search_many, K_LONG, g_ctx, s, k, st, ml_target_fill(0), &q) != ML_OK)
        return;
    uint64_t tasks = 0;
    size_t len = 0;
    CALL(ml_search_split, K_PLAIN, g_ctx, q, u8(in) % 5, &tasks);
    CALL(ml_search_export, K_PLAIN, g_ctx, q, NULL, 0, &len);
    uint8_t *data = malloc(len + 1);
    ASSERT(data != NULL);
    CALL(ml_search_export, K_PLAIN, g_ctx, q, data, len, &len);
    int changed = 0;
    for (int i = u8(in) % 3; i > 0 && len; i--, changed = 1)
        data[u16(in) % len] ^= (uint8_t)(1 + u8(in) % 255);
    size_t cut = changed && u8(in) % 2 ? u16(in) % (len + 1) : len;
    int rc = CALL(ml_search_import, K_PLAIN, g_ctx, data, cut, &w);
    ASSERT(rc == ML_OK || rc == ML_EINVAL);
    int64_t lengths[3];
    if (rc == ML_OK)   /* the copy's tasks (a changed export: until one is out of range) */
        for (uint64_t t = 0; t < 8; t++) {
            uint64_t rows = 0;
            if (CALL(ml_search_task_rows, K_PLAIN, g_ctx, w, t, &rows) != ML_OK || rows > 3)
                break;
            int got = CALL(ml_search_run_rows, K_LONG, g_ctx, w, t, lengths,
                           rows * L <= sizeof rows_taps ? rows_taps : NULL);
            if (!changed && got == ML_OK)
                CALL(ml_search_merge_rows, K_PLAIN, g_ctx, q, t, lengths,
                     rows * L <= sizeof rows_taps ? rows_taps : NULL);
        }
    if (!changed && rc == ML_OK && ml_search_done(q) &&
        CALL(ml_search_lengths, K_PLAIN, g_ctx, q, lengths, taps) == ML_OK)
        for (size_t i = 0; i < k; i++) {
            if (lengths[i] < 0)
                continue;
            int64_t sum = 0;
            for (size_t f = 0; f < tsize; f++)
                sum += taps[i * tsize + f];
            ASSERT(sum == lengths[i]);
            if (CALL(ml_board_apply, K_LONG, g_ctx, b, st + i * size, taps + i * tsize, out) ==
                ML_OK)
                for (size_t f = 0; f < size; f++)
                    ASSERT(out[f] == 0);
        }
    free(data);
    ml_search_free(w);
    ml_search_free(q);
}

void op_plan(in_t *in)
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
            many_search(in, b, s);
            ml_solver_free(s);
        }
    }
    ml_plan_free(p);
}

/* ------------------------------------------------------------------ counts and the puzzle layer */
void op_factored(in_t *in)
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

void op_play(in_t *in)
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

void op_misuse(in_t *in)
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
