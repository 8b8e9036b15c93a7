/* t-board_json: csrc/api/board_json.c (ml_board_from_json, ml_board_to_json).
 * Random boards built through the grid builder and the graph constructors (named and
 * random patterns, mixed maps, locks, holes, wrap, n 2..255; effects with repeats and
 * empty taps; dense matrices) write a text that reads back to an equal board
 * (ml_board_equal) and writes the same text again; the snprintf convention (the length
 * with a small buffer, NUL-terminated, never past cap); every refusal sets a message
 * of the table and no board; a document cut at every byte is refused or read without
 * a leak (ASan). Python's messages themselves are compared character for character by
 * tests/native/test_capi_board_json.py. Exit 0 when every check holds.
 * ml-test-sources: api/board_json.c api/board_json_words.c api/json_fields.c api/json.c api/json_repr.c api/json_write.c api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c */
#include "include/modlights.h"
#include "api/board.h"
#include "api/board_json.h"
#include "t-util.h"

#include <stdlib.h>
#include <string.h>

/* The board's text (malloc'ed), sized by a first call. */
static char *text_of(const ml_board *b)
{
    size_t n = 0;
    if (ml_board_to_json(NULL, b, NULL, 0, &n) != ML_OK)
        return NULL;
    char *s = malloc(n + 1);
    size_t m = 0;
    if (s && ml_board_to_json(NULL, b, s, n + 1, &m) == ML_OK && m == n && strlen(s) == n)
        return s;
    free(s);
    return NULL;
}

static ml_board *random_grid(void)
{
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 16, 101, 255};
    int64_t rows = rnd_range(1, 7), cols = rnd_range(1, 7);
    ml_grid *g = NULL;
    if (ml_grid_new(NULL, rows, cols, ns[rnd_range(0, 10)], &g) != ML_OK)
        return NULL;
    int64_t dr[8], dc[8];
    size_t k = (size_t)rnd_range(0, 8);
    for (size_t i = 0; i < k; i++) {
        dr[i] = rnd_range(-3, 3);
        dc[i] = rnd_range(-3, 3);
    }
    int kind = (int)rnd_range(0, 2);
    if (kind == 0) {
        ml_grid_set_pattern(NULL, g, (int)rnd_range(0, ML_PATTERN_COUNT - 1));
    } else if (kind == 1) {
        ml_grid_set_offsets(NULL, g, k, dr, dc);
    } else {
        uint32_t a = 0, b = 0, *index = malloc((size_t)(rows * cols) * sizeof *index);
        ml_grid_palette_add(NULL, g, (int)rnd_range(0, ML_PATTERN_COUNT - 1), &a);
        ml_grid_palette_add_offsets(NULL, g, k, dr, dc, &b);
        for (int64_t f = 0; index && f < rows * cols; f++)
            index[f] = rnd() & 1 ? a : b;
        if (index)
            ml_grid_set_mixed(NULL, g, index);
        free(index);
    }
    ml_grid_set_wrap(NULL, g, (int)(rnd() & 1));
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            int64_t roll = rnd_range(0, 9);
            if (roll == 0)
                ml_grid_lock(NULL, g, r, c);
            else if (roll == 1)
                ml_grid_hole(NULL, g, r, c);
        }
    ml_board *b = NULL;
    ml_grid_build(NULL, g, &b);
    ml_grid_free(g);
    return b;
}

static ml_board *random_graph(void)
{
    ml_board *b = NULL;
    if (rnd() & 1) {
        size_t taps = (size_t)rnd_range(0, 5), k = 0;
        int64_t indptr[6] = {0}, cells[5 * 4];
        for (size_t j = 0; j < taps; j++) {
            int64_t len = rnd_range(0, 4);
            for (int64_t i = 0; i < len; i++)
                cells[k++] = rnd_range(0, 6);
            indptr[j + 1] = (int64_t)k;
        }
        ml_board_from_effects(NULL, (int)rnd_range(2, 255), rnd() & 1 ? -1 : 7, taps, indptr,
                              cells, &b);
    } else {
        uint8_t a[4 * 5];
        for (size_t i = 0; i < sizeof a; i++)
            a[i] = (uint8_t)rnd_range(0, 3);
        ml_board_from_matrix(NULL, 4, (size_t)rnd_range(0, 4), 5, a, 5, &b);
    }
    return b;
}

static void round_trip(ml_board *b)
{
    CHECK(b != NULL);
    if (!b)
        return;
    char *s = text_of(b);
    CHECK(s != NULL);
    ml_board *back = NULL;
    int rc = s ? ml_board_from_json(NULL, s, strlen(s), 0, &back) : -1;
    CHECK(rc == ML_OK, "%s: %s", s ? s : "?", ml_errmsg(NULL));
    if (rc == ML_OK) {
        CHECK(ml_board_equal(b, back) == 1, "%s", s);
        CHECK(ml_board_hash(b) == ml_board_hash(back));
        char *again = text_of(back);
        CHECK(again && strcmp(again, s) == 0, "%s", s);
        free(again);
    }
    ml_board_free(back);
    free(s);
    ml_board_free(b);
}

/* A refusal: status rc, a message, the board pointer cleared. */
static void refused(const char *doc, int64_t max_tiles, int status, const char *start)
{
    ml_ctx *ctx = NULL;
    ml_ctx_new(&ctx);
    ml_board *b = (ml_board *)&b;   /* not NULL: the call must clear it */
    int rc = ml_board_from_json(ctx, doc, strlen(doc), max_tiles, &b);
    CHECK(rc == status, "%s: %d %s", doc, rc, ml_errmsg(ctx));
    CHECK(b == NULL, "%s", doc);
    CHECK(ml_errcode(ctx) == rc && strncmp(ml_errmsg(ctx), start, strlen(start)) == 0, "%s: %s",
          doc, ml_errmsg(ctx));
    CHECK(ml_msg_status(ml_errmsg_id(ctx)) == rc || ml_errmsg_id(ctx) == ML_M_JSON_FIELD,
          "%s", doc);
    ml_ctx_free(ctx);
}

/* The constructors' words for Board.grid's positions and Board.from_effects' order
 * (model/board_args.py writes these documents): each document refused with the message
 * that starts with the expected text, and no board. */
static void words_refused(void)
{
    static const char *const cases[][2] = {
        {"{\"rows\":3,\"cols\":3,\"locked\":[[0,0,0]]}",
         "locked must be a (row, col) pair of ints, got [0, 0, 0]"},
        {"{\"rows\":3,\"cols\":3,\"holes\":[[0,true]]}",
         "holes must be a (row, col) pair of ints, got [0, True]"},
        {"{\"rows\":3,\"cols\":3,\"holes\":[[0,0.5]]}",
         "holes must be a (row, col) pair of ints, got [0, 0.5]"},
        {"{\"rows\":3,\"cols\":3,\"locked\":[5]}", "locked must be a (row, col) pair of ints, got 5"},
        {"{\"rows\":3,\"cols\":3,\"locked\":[[0,\"a\"]]}",
         "locked must be a (row, col) pair of ints, got [0, 'a']"},
        {"{\"rows\":3,\"cols\":3,\"locked\":[[3,0]]}",
         "locked (3, 0) is off the board: rows 0..2, cols 0..2"},
        {"{\"rows\":3,\"cols\":3,\"locked\":[[0,-1.0]]}",
         "locked (0, -1) is off the board: rows 0..2, cols 0..2"},
        {"{\"rows\":3,\"cols\":3,\"holes\":[[0,99999999999999999999]]}",
         "holes (0, 99999999999999999999) is off the board: rows 0..2, cols 0..2"},
        {"{\"rows\":3,\"cols\":3,\"holes\":[[1e19,0]]}",
         "holes (10000000000000000000, 0) is off the board"},
        /* item by item, in the argument's order; locked before holes */
        {"{\"rows\":3,\"cols\":3,\"locked\":[[9,9],[0,0,0]]}", "locked (9, 9) is off"},
        {"{\"rows\":3,\"cols\":3,\"locked\":[[0,0,0],[9,9]]}", "locked must be a (row, col)"},
        {"{\"rows\":3,\"cols\":3,\"locked\":[[0,0],[9,9]],\"holes\":[[0,0,0]]}",
         "locked (9, 9) is off"},
        {"{\"rows\":3,\"cols\":3,\"locked\":[[1,1]],\"holes\":[[1,1]]}",
         "tile (1, 1) is both locked and a hole"},
        {"{\"rows\":3,\"cols\":3,\"pattern\":\"plus\",\"locked\":[[9,9]]}", "unknown pattern"},
        /* a giant board with marks is refused before its states are read */
        {"{\"rows\":12000,\"cols\":12000,\"states\":1,\"locked\":[[0,0]]}",
         "board too large: 12000x12000"},
        {"{\"rows\":12000,\"cols\":12000,\"states\":1}", "states must be from 2 to 255"},
        /* from_effects: states first, the entries list by list, then n_cells */
        {"{\"effects\":5,\"states\":1}", "states must be from 2 to 255, got 1"},
        {"{\"effects\":[[\"a\"]],\"states\":2,\"n_cells\":-1}", "effects[0] holds 'a'"},
        {"{\"effects\":[[0],[4294967296]],\"states\":2,\"n_cells\":-1}",
         "cell index 4294967296 out of range: a board has at most"},
        {"{\"effects\":[[0]],\"states\":2,\"n_cells\":-1}",
         "n_cells must be from 0 to 134217728, got -1"},
        {"{\"effects\":[[0]],\"states\":2,\"n_cells\":1.5}",
         "n_cells must be a non-negative int, got float 1.5"},
        {"{\"effects\":[[0]],\"states\":2,\"n_cells\":true}",
         "n_cells must be a non-negative int, got a bool (True)"},
        {"{\"effects\":[[0,5]],\"states\":2,\"n_cells\":3}",
         "cell index 5 out of range: cells are 0..2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ml_board *b = (ml_board *)cases;   /* set to NULL on failure */
        CHECK(ml__board_from_json_words(NULL, cases[i][0], strlen(cases[i][0]), &b) != ML_OK && !b);
        CHECK(strncmp(ml_errmsg(NULL), cases[i][1], strlen(cases[i][1])) == 0, "%s: %s",
              cases[i][0], ml_errmsg(NULL));
    }
    /* a mask beside the document counts as marks (giant boards refused at once) */
    const char *giant = "{\"rows\":12000,\"cols\":12000,\"states\":1}";
    ml_grid *g = (ml_grid *)cases;
    CHECK(ml__grid_from_json_shared(NULL, giant, strlen(giant), ML__SHARED_HOLES, &g) != ML_OK && !g);
    CHECK(strncmp(ml_errmsg(NULL), "board too large", 15) == 0, "%s", ml_errmsg(NULL));
}

/* Positions in the constructors' words build the board from_json builds (integral floats
 * and repeats taken, no count limit), and ml__board_mask reads its masks in place: the
 * builder's bytes for positions, the caller's own for a shared mask. */
static void words_positions(void)
{
    const char *w = "{\"rows\":3,\"cols\":4,\"states\":3,\"locked\":[[0,0],[0,0.0],[2,1],"
                    "[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0]],"
                    "\"holes\":[[1.0,3]]}";
    const char *j = "{\"rows\":3,\"cols\":4,\"states\":3,\"locked\":[[0,0],[2,1]],"
                    "\"holes\":[[1,3]]}";
    ml_board *a = NULL, *b = NULL;
    CHECK(ml__board_from_json_words(NULL, w, strlen(w), &a) == ML_OK, "%s", ml_errmsg(NULL));
    CHECK(ml_board_from_json(NULL, j, strlen(j), 0, &b) == ML_OK && ml_board_equal(a, b));
    const uint8_t *lm = ml__board_mask(a, 0), *hm = ml__board_mask(a, 1);
    CHECK(lm && hm && lm[0] && lm[9] && hm[7] && !lm[7] && !hm[0]);
    int ones = 0;
    for (int f = 0; lm && hm && f < 12; f++)
        ones += lm[f] + hm[f];
    CHECK(ones == 3);
    ml_board_free(a);
    ml_board_free(b);
    const char *none = "{\"rows\":2,\"cols\":2}";
    CHECK(ml__board_from_json_words(NULL, none, strlen(none), &a) == ML_OK);
    CHECK(!ml__board_mask(a, 0) && !ml__board_mask(a, 1) && !ml__board_mask(NULL, 0));
    ml_board_free(a);
    /* a shared holes mask: the board reads the caller's bytes */
    static uint8_t holes[6] = {0, 1, 0, 0, 0, 1};
    const char *s = "{\"rows\":2,\"cols\":3,\"locked\":[[0,0]]}";
    ml_grid *g = NULL;
    CHECK(ml__grid_from_json_shared(NULL, s, strlen(s), ML__SHARED_HOLES, &g) == ML_OK);
    CHECK(ml_grid_share_holes(NULL, g, holes, NULL, NULL) == ML_OK);
    CHECK(ml_grid_build(NULL, g, &a) == ML_OK);
    ml_grid_free(g);
    CHECK(ml__board_mask(a, 1) == holes && ml_board_n_cells(a) == 4 && ml_board_n_taps(a) == 3);
    ml_board_free(a);
}

int main(void)
{
    for (int t = 0; t < 400; t++)
        round_trip(random_grid());
    for (int t = 0; t < 200; t++)
        round_trip(random_graph());

    /* a giant uniform grid: O(1) text */
    ml_board *giant = NULL;
    CHECK(ml_board_grid(NULL, 1 << 20, 1 << 20, 3, "square", &giant) == ML_OK);
    char *s = giant ? text_of(giant) : NULL;
    CHECK(s && strcmp(s, "{\"rows\":1048576,\"cols\":1048576,\"states\":3,\"pattern\":\"square\","
                         "\"locked\":[],\"holes\":[],\"wrap\":false}") == 0, "%s", s ? s : "?");
    ml_board *back = NULL;
    CHECK(s && ml_board_from_json(NULL, s, strlen(s), 0, &back) == ML_ETOOLARGE);
    CHECK(s && ml_board_from_json(NULL, s, strlen(s), (int64_t)1 << 40, &back) == ML_OK);
    CHECK(back && ml_board_equal(giant, back) == 1);
    ml_board_free(back);

    /* the snprintf convention */
    char small[8];
    memset(small, 'x', sizeof small);
    size_t n = 0;
    CHECK(ml_board_to_json(NULL, giant, small, sizeof small, &n) == ML_OK);
    CHECK(s && n == strlen(s) && small[7] == 0 && memcmp(small, s, 7) == 0);
    free(s);

    /* refusals */
    refused("", 0, ML_EINVAL, "board is not valid JSON: Expecting value at byte 0");
    refused("[]", 0, ML_EINVAL, "board must be a dict (JSON object), got list");
    refused("{\"rows\":3}", 0, ML_EINVAL, "board needs the field 'cols'");
    refused("{\"rows\":0,\"cols\":3}", 0, ML_ERANGE, "rows must be from 1 to 1048576, got 0");
    refused("{\"rows\":30,\"cols\":30}", 100, ML_ETOOLARGE, "board too large: 30x30 = 900 tiles");
    refused("{\"rows\":3,\"cols\":3,\"pattern\":\"plus\"}", 0, ML_EINVAL, "pattern: unknown pattern 'plus'");
    refused("{\"rows\":3,\"cols\":3,\"locked\":[[3,0]]}", 0, ML_ERANGE, "locked (3, 0) is off the board");
    refused("{\"rows\":2,\"cols\":2,\"locked\":[[1,1]],\"holes\":[[1,1]]}", 0, ML_EINVAL,
            "tile (1, 1) is both locked and a hole");
    refused("{\"effects\":[[0],[1.5]],\"states\":2}", 0, ML_EINVAL, "effects[1] holds 1.5");
    refused("{\"effects\":[[4]],\"states\":2,\"n_cells\":2}", 0, ML_ERANGE,
            "effects: cell index 4 out of range: cells are 0..1");
    CHECK(ml_board_from_json(NULL, "{}", 2, 0, NULL) == ML_EMISUSE);

    /* ml__grid_from_json: the described grid builds the board ml_board_from_json reads;
     * Board.grid's messages carry no field prefix; sides past the tile limit are kept */
    const char *gd = "{\"rows\":3,\"cols\":2,\"states\":5,\"pattern\":[[\"cross\",[[0,1]]],"
                     "[\"knight\",\"square\"],[[],[[1,-1],[0,0]]]],\"locked\":[[0,0]],"
                     "\"holes\":[[false,false],[true,false],[false,true]],\"wrap\":true}";
    ml_grid *gg = NULL;
    ml_board *gb = NULL, *jb = NULL;
    CHECK(ml__grid_from_json(NULL, gd, strlen(gd), &gg) == ML_OK && gg);
    CHECK(ml_grid_build(NULL, gg, &gb) == ML_OK);
    CHECK(ml_board_from_json(NULL, gd, strlen(gd), 0, &jb) == ML_OK);
    CHECK(ml_board_equal(gb, jb), "the grid's board and the document's differ");
    ml_grid_free(gg);
    ml_board_free(gb);
    ml_board_free(jb);
    static const char *const bad[][2] = {
        {"{\"rows\":3,\"cols\":3,\"pattern\":\"plus\"}", "unknown pattern 'plus'"},
        {"{\"rows\":12000,\"cols\":12000,\"pattern\":\"nope\",\"locked\":null,\"holes\":null}",
         "unknown pattern 'nope'"},
        {"{\"rows\":2,\"cols\":2,\"pattern\":[[\"cross\",\"plus\"],[\"cross\",\"cross\"]]}",
         "unknown pattern 'plus'"},
        {"{\"rows\":2,\"cols\":2,\"pattern\":[[\"cross\",\"cross\",\"cross\"],[\"cross\",\"cross\"]]}",
         "pattern offsets must be (dr, dc) pairs of ints, got ['cross', 'cross', 'cross']"},
        /* Board.grid's words and order (model/board.py hands its pattern argument over) */
        {"{\"rows\":3,\"cols\":3,\"pattern\":5}",
         "pattern must be a name ('cross', 'diagonal', 'square', 'horizontal', 'vertical', "
         "'knight') or a sequence of (dr, dc) offsets, got int"},
        {"{\"rows\":3,\"cols\":3,\"pattern\":null}", "pattern must be a name ('cross'"},
        {"{\"rows\":3,\"cols\":3,\"pattern\":[[0,0.5]]}",
         "pattern offsets must be (dr, dc) pairs of ints, got [0, 0.5]"},
        {"{\"rows\":3,\"cols\":3,\"pattern\":[[0,true]]}",
         "pattern offsets must be (dr, dc) pairs of ints, got [0, True]"},
        {"{\"rows\":3,\"cols\":3,\"pattern\":[[0,1e300]]}",
         "pattern offset (0, 1000000000000000052504760255204420"},
        {"{\"rows\":3,\"cols\":3,\"pattern\":[[0,99999999999999999999]]}",
         "pattern offset (0, 99999999999999999999) reaches further than"},
        {"{\"rows\":3,\"cols\":3,\"pattern\":[[0,0],[0,0,1],[1025,0]]}",
         "pattern offsets must be (dr, dc) pairs of ints, got [0, 0, 1]"},
        {"{\"rows\":3,\"cols\":3,\"pattern\":[[0,0],[1025,0],[0,0,1]]}",
         "pattern offset (1025, 0) reaches further than 1024 tiles"},
        {"{\"rows\":2,\"cols\":2,\"pattern\":[[\"cross\",\"cross\"],\"ab\"]}",
         "mixed pattern row 1 must be a list of 2 patterns, got a string"},
        {"{\"rows\":2,\"cols\":2,\"pattern\":[[\"cross\",5],[\"cross\"]]}",
         "pattern must be a name ('cross'"},
        {"{\"rows\":2,\"cols\":2,\"pattern\":[[\"cross\",\"cross\"],[\"nope\"]]}",
         "mixed pattern row 1 has 1 entries, the board has 2 columns"},
        {"{\"rows\":2,\"cols\":2,\"pattern\":[[\"cross\",\"cross\"],7]}",
         "a mixed pattern is 2 lists of 2 entries, got a int row"},
        {"{\"rows\":3,\"cols\":3,\"locked\":5}", "locked must be a list"},
        {"{\"rows\":3,\"cols\":3,\"states\":1}", "states must be from 2 to 255, got 1"},
        {"{\"rows\":12000,\"cols\":12000,\"holes\":[[1,1]]}", "board too large: 12000x12000"},
        {"[]", "board must be a dict"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        gg = (ml_grid *)&gd;   /* set to NULL on failure */
        CHECK(ml__grid_from_json(NULL, bad[i][0], strlen(bad[i][0]), &gg) != ML_OK && !gg);
        CHECK(strncmp(ml_errmsg(NULL), bad[i][1], strlen(bad[i][1])) == 0, "%s: %s", bad[i][0],
              ml_errmsg(NULL));
    }
    /* integral floats are offsets in Board.grid's words (validation.as_int), not in
     * from_dict's */
    const char *fd = "{\"rows\":3,\"cols\":3,\"pattern\":[[0,0],[1.0,-2.0]]}";
    CHECK(ml__grid_from_json(NULL, fd, strlen(fd), &gg) == ML_OK);
    CHECK(ml_grid_build(NULL, gg, &gb) == ML_OK);
    const char *fi = "{\"rows\":3,\"cols\":3,\"pattern\":[[0,0],[1,-2]]}";
    CHECK(ml_board_from_json(NULL, fi, strlen(fi), 0, &jb) == ML_OK && ml_board_equal(gb, jb));
    ml_board_free(jb);
    CHECK(ml_board_from_json(NULL, fd, strlen(fd), 0, &jb) != ML_OK && !jb);
    ml_grid_free(gg);
    ml_board_free(gb);
    const char *giant_doc = "{\"rows\":12000,\"cols\":12000}";
    CHECK(ml__grid_from_json(NULL, giant_doc, strlen(giant_doc), &gg) == ML_OK);
    ml_grid_free(gg);
    CHECK(ml__grid_from_json(NULL, "{}", 2, NULL) == ML_EMISUSE);
    /* ml__board_from_json_words: the constructors' messages, boards as from_json's */
    CHECK(ml__board_from_json_words(NULL, gd, strlen(gd), &gb) == ML_OK);
    CHECK(ml_board_from_json(NULL, gd, strlen(gd), 0, &jb) == ML_OK && ml_board_equal(gb, jb));
    ml_board_free(gb);
    ml_board_free(jb);
    CHECK(ml__board_from_json_words(NULL, giant_doc, strlen(giant_doc), &gb) == ML_OK);
    CHECK(ml_board_is_giant(gb));
    ml_board_free(gb);
    /* JavaScript's documents: null marks are no marks (a giant uniform board is kept) */
    const char *giant_nulls = "{\"rows\":12000,\"cols\":12000,\"locked\":null,\"holes\":null}";
    CHECK(ml__board_from_json_words(NULL, giant_nulls, strlen(giant_nulls), &gb) == ML_OK,
          "%s", ml_errmsg(NULL));
    CHECK(gb && ml_board_is_giant(gb));
    ml_board_free(gb);
    static const char *const words[][2] = {
        {"{\"rows\":3,\"cols\":3,\"pattern\":\"plus\"}", "unknown pattern 'plus'"},
        {"{\"rows\":12000,\"cols\":12000,\"pattern\":\"nope\",\"locked\":null,\"holes\":null}",
         "unknown pattern 'nope'"},
        {"{\"effects\":[[0,1],[5]],\"states\":2,\"n_cells\":3}", "cell index 5 out of range"},
        {"{\"effects\":[[0,1],[\"a\"]],\"states\":2}", "effects[1] holds 'a'"},
        {"{\"effects\":[[0]],\"states\":1}", "states must be from 2 to 255, got 1"},
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        gb = (ml_board *)&gd;   /* set to NULL on failure */
        CHECK(ml__board_from_json_words(NULL, words[i][0], strlen(words[i][0]), &gb) != ML_OK && !gb);
        CHECK(strncmp(ml_errmsg(NULL), words[i][1], strlen(words[i][1])) == 0, "%s: %s",
              words[i][0], ml_errmsg(NULL));
    }
    refused("{\"effects\":[[0,1],[5]],\"states\":2,\"n_cells\":3}", 0, ML_ERANGE,
            "effects: cell index 5 out of range");
    for (size_t cut = 0; cut < strlen(gd); cut++) {
        gg = NULL;
        CHECK(ml__grid_from_json(NULL, gd, cut, &gg) != ML_OK && !gg, "cut %zu", cut);
    }
    CHECK(ml_board_to_json(NULL, NULL, NULL, 0, &n) == ML_EMISUSE);

    /* a document cut at every byte: refused (or, at its end, read), nothing leaked */
    const char *doc = "{\"rows\":3,\"cols\":2,\"states\":5,\"pattern\":[[\"cross\",[[0,1]]],"
                      "[\"knight\",\"square\"],[[],[[1,-1],[0,0]]]],\"locked\":[[0,0]],"
                      "\"holes\":[[false,false],[true,false],[false,true]],\"wrap\":true}";
    for (size_t cut = 0; cut <= strlen(doc); cut++) {
        ml_board *b = NULL;
        int rc = ml_board_from_json(NULL, doc, cut, 0, &b);
        CHECK((rc == ML_OK) == (cut == strlen(doc)), "cut %zu: %s", cut, ml_errmsg(NULL));
        if (rc == ML_OK)
            round_trip(b);
    }
    ml_board_free(giant);
    words_refused();
    words_positions();
    return t_done();
}
