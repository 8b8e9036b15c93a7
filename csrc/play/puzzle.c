/* puzzle.c: puzzle handles (modlights.h: puzzles): a grid board and a start state, made
 * from a board, a puzzle code or JSON, with their code and equality (Python's Puzzle,
 * Puzzle.from_code, Puzzle.from_dict, Puzzle.code and ==, play/puzzles.py), and
 * ml_code_encode. The measured parts (stats, solution, to_json) are puzzle_measure.c's.
 *
 * A puzzle (play/puzzle_impl.h) keeps a reference to its board and its own copy of the
 * start (reduced mod n, zero at holes, as Board.coerce_state leaves it); its code is
 * made on first use (or kept from the code it was read from, which decode checked is
 * canonical). Not to be used by two threads at once (ml_puzzle_code fills the code in). */
#include "api/board.h"
#include "api/board_json.h"
#include "api/ctx.h"
#include "api/json.h"
#include "play/play.h"
#include "play/puzzle_impl.h"

#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

static int live(const ml_puzzle *p) { return p && p->magic == ML_PUZZLE_MAGIC; }

int ml__puzzle_live(const ml_puzzle *p) { return live(p); }

/* ------------------------------------------------------------------ board <-> code */
/* The plain description of a grid board and a start, for ml__code_encode: the palette
 * borrowed as int64 copies (c->palette[k].offs malloc'ed), masks and index borrowed. */
static int describe(ml_ctx *ctx, const ml_board *b, const uint8_t *start, ml__code *c)
{
    memset(c, 0, sizeof *c);
    c->rows = b->rows;
    c->cols = b->cols;
    c->states = b->n;
    c->wrap = b->wrap;
    c->mixed = b->mixed;
    c->n_palette = b->n_pal;
    c->palette = calloc(b->n_pal ? b->n_pal : 1, sizeof *c->palette);
    if (!c->palette)
        return ml__fail(ctx, ML_M_NOMEM, "ml_code_encode");
    for (uint32_t k = 0; k < b->n_pal; k++) {
        const ml__pattern *p = &b->pal[k];
        c->palette[k].count = p->count;
        c->palette[k].offs = malloc((p->count ? p->count : 1) * 2 * sizeof(int64_t));
        if (!c->palette[k].offs)
            return ml__fail(ctx, ML_M_NOMEM, "ml_code_encode");
        for (size_t i = 0; i < p->count; i++) {
            c->palette[k].offs[2 * i] = p->dr[i];
            c->palette[k].offs[2 * i + 1] = p->dc[i];
        }
    }
    c->index = b->tile_pal;
    c->locked = b->locked;
    c->holes = b->holes;
    c->start = (uint8_t *)start;
    return ML_OK;
}

static void undescribe(ml__code *c)
{
    for (size_t k = 0; c->palette && k < c->n_palette; k++)
        free(c->palette[k].offs);
    free(c->palette);
    memset(c, 0, sizeof *c);
}

/* encode(board, start): the code text (malloc'ed) of a grid board and a start already
 * reduced. Python's order: a graph board, the sides, then the rest (ml__code_encode). */
static int encode(ml_ctx *ctx, const ml_board *b, const uint8_t *start, char **text, size_t *len)
{
    if (b->kind != ML_BOARD_GRID)
        return ml__fail(ctx, ML_M_CODE_GRID_ONLY);
    if (b->rows > ML__CODE_MAX_SIDE || b->cols > ML__CODE_MAX_SIDE)
        return ml__fail(ctx, ML_M_CODE_SIDE, ML__CODE_MAX_SIDE, ML__CODE_MAX_SIDE,
                        (long long)b->rows, (long long)b->cols);
    ml__code c;
    int rc = describe(ctx, b, start, &c);
    if (!rc)
        rc = ml__code_encode(ctx, &c, text, len);
    undescribe(&c);
    return rc;
}

/* Board.coerce_state of bytes: a copy reduced mod n, zero at holes. */
static uint8_t *reduced(const ml_board *b, const uint8_t *start)
{
    size_t t = (size_t)(b->rows * b->cols);
    uint8_t *s = malloc(t ? t : 1);
    for (size_t f = 0; s && f < t; f++)
        s[f] = b->holes && b->holes[f] ? 0 : (uint8_t)(start[f] % b->n);
    return s;
}

int ml_code_encode(ml_ctx *ctx, const ml_board *b, const uint8_t *start, char *buf, size_t cap,
                   size_t *len)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_code_encode";
    if (!ml__board_live(b))
        return b ? ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "board") : ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "b");
    if (!buf && cap)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "buf");
    if (b->kind != ML_BOARD_GRID)
        return ml__fail(ctx, ML_M_CODE_GRID_ONLY);
    if (b->rows > ML__CODE_MAX_SIDE || b->cols > ML__CODE_MAX_SIDE)
        return ml__fail(ctx, ML_M_CODE_SIDE, ML__CODE_MAX_SIDE, ML__CODE_MAX_SIDE,
                        (long long)b->rows, (long long)b->cols);
    if (!start)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "start");
    uint8_t *s = reduced(b, start);
    if (!s)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    char *text = NULL;
    size_t n = 0;
    int rc = encode(ctx, b, s, &text, &n);
    free(s);
    if (rc)
        return rc;
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(buf, text, k);
        buf[k] = 0;
    }
    if (len)
        *len = n;
    free(text);
    return ML_OK;
}

/* The board a decoded code describes (Python's decode builds it with Board.grid). */
static int board_of(ml_ctx *ctx, const ml__code *c, ml_board **out)
{
    ml_grid *g = NULL;
    int rc = ml_grid_new(ctx, c->rows, c->cols, c->states, &g);
    int64_t *dr = NULL, *dc = NULL;
    uint32_t *map = NULL;
    if (!rc && !(map = malloc((c->n_palette ? c->n_palette : 1) * sizeof *map)))
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_puzzle_from_code");
    for (size_t k = 0; !rc && k < c->n_palette; k++) {
        size_t m = c->palette[k].count;
        free(dr);
        free(dc);
        dr = malloc((m ? m : 1) * sizeof *dr);
        dc = malloc((m ? m : 1) * sizeof *dc);
        if (!dr || !dc) {
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_puzzle_from_code");
            break;
        }
        for (size_t i = 0; i < m; i++) {
            dr[i] = c->palette[k].offs[2 * i];
            dc[i] = c->palette[k].offs[2 * i + 1];
        }
        rc = c->mixed ? ml_grid_palette_add_offsets(ctx, g, m, dr, dc, &map[k])
                      : ml_grid_set_offsets(ctx, g, m, dr, dc);
    }
    if (!rc && c->mixed) {
        size_t t = (size_t)(c->rows * c->cols);
        uint32_t *index = malloc(t * sizeof *index);
        if (!index)
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_puzzle_from_code");
        for (size_t f = 0; index && f < t; f++)
            index[f] = map[c->index[f]];
        if (!rc)
            rc = ml_grid_set_mixed(ctx, g, index);
        free(index);
    }
    if (!rc)
        rc = ml_grid_set_wrap(ctx, g, c->wrap);
    if (!rc && c->locked)
        rc = ml_grid_set_locked(ctx, g, c->locked);
    if (!rc && c->holes)
        rc = ml_grid_set_holes(ctx, g, c->holes);
    if (!rc)
        rc = ml_grid_build(ctx, g, out);
    free(dr);
    free(dc);
    free(map);
    ml_grid_free(g);
    return rc;
}

/* ------------------------------------------------------------------ handles */
/* Puzzle(board, start) with a reference to b and a reduced copy of start. */
static int make(ml_ctx *ctx, ml_board *b, const uint8_t *start, ml_puzzle **out)
{
    if (b->kind != ML_BOARD_GRID)
        return ml__fail(ctx, ML_M_PUZZLE_GRID);
    int rc = ml__board_per_tile(ctx, b, "a byte start", 1);
    if (rc)
        return rc;
    if (!start)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_puzzle_new", "start");
    ml_puzzle *p = calloc(1, sizeof *p);
    if (!p || !(p->start = reduced(b, start))) {
        free(p);
        return ml__fail(ctx, ML_M_NOMEM, "ml_puzzle_new");
    }
    p->board = ml_board_retain(b);
    p->magic = ML_PUZZLE_MAGIC;
    *out = p;
    return ML_OK;
}

int ml__puzzle_make(ml_ctx *ctx, ml_board *b, const uint8_t *start, ml_puzzle **out)
{
    return make(ctx, b, start, out);
}

int ml_puzzle_new(ml_ctx *ctx, ml_board *b, const uint8_t *start, ml_puzzle **out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_puzzle_new";
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out");
    *out = NULL;
    if (!ml__board_live(b))
        return b ? ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "board") : ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "b");
    return make(ctx, b, start, out);
}

int ml_puzzle_from_code(ml_ctx *ctx, const char *code, size_t len, ml_puzzle **out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_puzzle_from_code";
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out");
    *out = NULL;
    if (!code && len)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "code");
    ml__code c;
    int rc = ml__code_decode(ctx, code ? code : "", len, &c);
    if (rc)
        return rc;
    ml_board *b = NULL;
    rc = board_of(ctx, &c, &b);
    if (!rc)
        rc = make(ctx, b, c.start, out);
    ml_board_free(b);
    ml__code_free(&c);
    if (rc)
        return rc;
    /* the code as given, stripped (decode checked it is the canonical one) */
    size_t a = 0, z = len;
    ml__py_strip(code, len, &a, &z);
    if (((*out)->code = malloc(z - a + 1))) {
        memcpy((*out)->code, code + a, z - a);
        (*out)->code[z - a] = 0;
        (*out)->code_len = z - a;
    }
    return ML_OK;
}

void ml_puzzle_free(ml_puzzle *p)
{
    if (!live(p))
        return;
    p->magic = 0;
    ml_board_free(p->board);
    free(p->start);
    free(p->code);
    ml_result_free(p->sol);
    free(p);
}

const ml_board *ml_puzzle_board(const ml_puzzle *p) { return live(p) ? p->board : NULL; }

const uint8_t *ml_puzzle_start(const ml_puzzle *p) { return live(p) ? p->start : NULL; }

int ml_puzzle_code(ml_ctx *ctx, ml_puzzle *p, const char **code)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_puzzle_code";
    if (!live(p))
        return p ? ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "puzzle") : ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "p");
    if (!code)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "code");
    if (!p->code) {
        int rc = encode(ctx, p->board, p->start, &p->code, &p->code_len);
        if (rc)
            return rc;
    }
    *code = p->code;
    return ML_OK;
}

int ml_puzzle_equal(const ml_puzzle *a, const ml_puzzle *b)
{
    if (!live(a) || !live(b))
        return 0;
    if (a == b)
        return 1;
    return ml_board_equal(a->board, b->board) == 1
           && memcmp(a->start, b->start, (size_t)(a->board->rows * a->board->cols)) == 0;
}

/* ------------------------------------------------------------------ JSON */
static const char *const puzzle_fields[] = {"board", "start", "code", "stars", "min_taps",
                                            "proven", "difficulty", NULL};

typedef struct rd {
    ml_ctx *ctx;
    const ml_json *j;
    char text[ML_ERRMSG_MAX];
} rd;

static const char *repr(rd *r, size_t i)
{
    ml__json_repr(r->j, i, r->text, sizeof r->text);
    return r->text;
}

static int kind(const rd *r, size_t i) { return r->j->tok[i].kind; }

/* puzzles._check_derived: the derived fields, when given, well typed. */
static int check_derived(rd *r, size_t d)
{
    const ml_json *j = r->j;
    size_t s = ml__json_get(j, d, "stars");
    if (s != NONE) {
        static const char *const keys[] = {"3", "2", "1"};
        int ok = kind(r, s) == ML_JSON_DICT;
        for (size_t k = s + 1; ok && k < j->tok[s].end; k = ml__json_next(j, ml__json_next(j, k)))
            ok = ml__json_str_eq(j, k, "3") || ml__json_str_eq(j, k, "2") || ml__json_str_eq(j, k, "1");
        for (int k = 0; ok && k < 3; k++) {
            size_t v = ml__json_get(j, s, keys[k]);
            ok = v != NONE && kind(r, v) == ML_JSON_INT;
        }
        if (!ok)
            return ml__fail(r->ctx, ML_M_PUZZLE_STARS);
    }
    size_t m = ml__json_get(j, d, "min_taps");
    if (m != NONE && !(kind(r, m) == ML_JSON_INT && (j->tok[m].big ? j->text[j->tok[m].start] != '-'
                                                                   : j->tok[m].v.i >= 0)))
        return ml__fail(r->ctx, ML_M_PUZZLE_MIN_TAPS, repr(r, m));
    size_t p = ml__json_get(j, d, "proven");
    if (p != NONE && kind(r, p) != ML_JSON_BOOL)
        return ml__fail(r->ctx, ML_M_PUZZLE_PROVEN, repr(r, p));
    size_t f = ml__json_get(j, d, "difficulty");
    if (f != NONE) {
        int known = 0;
        for (int k = 0; !known && ml_difficulty_name(k); k++)
            known = kind(r, f) == ML_JSON_STR && ml__json_str_eq(j, f, ml_difficulty_name(k));
        if (!known)
            return ml__fail(r->ctx, ML_M_PUZZLE_DIFFICULTY, repr(r, f));
    }
    return ML_OK;
}

/* puzzles._start_input: a board-shaped nested list of ints in 0..n-1, into s. */
static int start_input(rd *r, size_t v, const ml_board *b, uint8_t *s)
{
    const ml_json *j = r->j;
    int ok = kind(r, v) == ML_JSON_LIST && (int64_t)j->tok[v].count == b->rows;
    for (size_t row = v + 1; ok && row < j->tok[v].end; row = ml__json_next(j, row))
        ok = kind(r, row) == ML_JSON_LIST && (int64_t)j->tok[row].count == b->cols;
    if (!ok)
        return ml__fail(r->ctx, ML_M_PUZZLE_START_SHAPE, (long long)b->rows, (long long)b->cols);
    size_t f = 0;
    for (size_t row = v + 1; row < j->tok[v].end; row = ml__json_next(j, row))
        for (size_t x = row + 1; x < j->tok[row].end; x = ml__json_next(j, x), f++) {
            const ml_json_tok *t = &j->tok[x];
            if (t->kind != ML_JSON_INT || t->big || t->v.i < 0 || t->v.i >= b->n)
                return ml__fail(r->ctx, ML_M_PUZZLE_START_VALUE, b->n - 1, repr(r, x));
            s[f] = (uint8_t)t->v.i;
        }
    return ML_OK;
}

/* Puzzle.from_code of the code field (a string), its failure prefixed "code: ". */
static int from_code_field(rd *r, size_t c, ml_puzzle **out)
{
    size_t n = r->j->tok[c].count;
    char *text = malloc(n + 1);
    if (!text)
        return ml__fail(r->ctx, ML_M_NOMEM, "ml_puzzle_from_json");
    ml__json_str(r->j, c, text, n + 1);
    int rc = ml_puzzle_from_code(r->ctx, text, n, out);
    free(text);
    return ml__json_field_error(r->ctx, "code", rc);
}

static int puzzle_from(rd *r, size_t d, int64_t max_tiles, ml_puzzle **out)
{
    const ml_json *j = r->j;
    int rc = ml__json_check_mapping(r->ctx, j, d, "puzzle", puzzle_fields,
                                    (const char *const[]){NULL});
    if (rc)
        return rc;
    size_t board = ml__json_get(j, d, "board"), start = ml__json_get(j, d, "start");
    size_t code = ml__json_get(j, d, "code");
    if (board == NONE && code == NONE)
        return ml__fail(r->ctx, ML_M_PUZZLE_NEEDS);
    if ((rc = check_derived(r, d)))
        return rc;
    ml_puzzle *coded = NULL;
    if (code != NONE) {
        if (kind(r, code) != ML_JSON_STR)
            return ml__fail(r->ctx, ML_M_PUZZLE_CODE_TYPE, ml__json_type_name(j, code));
        if ((rc = from_code_field(r, code, &coded)))
            return rc;
    }
    if (board == NONE) {
        if (start != NONE) {
            ml_puzzle_free(coded);
            return ml__fail(r->ctx, ML_M_PUZZLE_NO_BOARD);
        }
        *out = coded;
        return ML_OK;
    }
    ml_board *b = NULL;
    uint8_t *s = NULL;
    if (start == NONE)
        rc = ml__fail(r->ctx, ML_M_PUZZLE_NO_START);
    if (!rc)
        rc = ml__json_field_error(r->ctx, "board", ml__board_from_json_value(r->ctx, j, board, max_tiles, &b));
    if (!rc && b->kind != ML_BOARD_GRID)
        rc = ml__fail(r->ctx, ML_M_PUZZLE_GRAPH);
    if (!rc && b->giant)   /* no start can list its tiles; Python refuses its shape */
        rc = ml__fail(r->ctx, ML_M_PUZZLE_START_SHAPE, (long long)b->rows, (long long)b->cols);
    if (!rc && !(s = malloc((size_t)(b->rows * b->cols))))
        rc = ml__fail(r->ctx, ML_M_NOMEM, "ml_puzzle_from_json");
    if (!rc)
        rc = start_input(r, start, b, s);
    if (!rc)
        rc = make(r->ctx, b, s, out);
    if (!rc && coded && !ml_puzzle_equal(coded, *out)) {
        ml_puzzle_free(*out);
        *out = NULL;
        rc = ml__fail(r->ctx, ML_M_PUZZLE_DISAGREE);
    }
    free(s);
    ml_board_free(b);
    ml_puzzle_free(coded);
    return rc;
}

int ml_puzzle_from_json(ml_ctx *ctx, const char *json, size_t len, int64_t max_tiles,
                        ml_puzzle **out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_puzzle_from_json";
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out");
    *out = NULL;
    if (!json && len)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "json");
    ml_json j;
    int rc = ml__json_parse(ctx, &j, json ? json : "", len, "puzzle", 0);
    if (rc)
        return rc;
    rd *r = malloc(sizeof *r);
    if (!r)
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    else {
        r->ctx = ctx;
        r->j = &j;
        rc = puzzle_from(r, 0, max_tiles, out);
    }
    free(r);
    ml__json_free(&j);
    return rc;
}
