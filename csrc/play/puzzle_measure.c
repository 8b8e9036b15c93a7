/* puzzle_measure.c: a puzzle's measured parts (modlights.h: ml_puzzle_stats_get,
 * ml_puzzle_solution, ml_puzzle_to_json), as play/puzzles.py's Puzzle computes them:
 * the minimal solve by _min_solve's budget rule (a count of GENERATE_BUDGET coset
 * elements when |ker A| is at most that, else the greedy descent alone: the same answer
 * on every machine), then min_taps, proven, touched, the difficulty band, the star
 * limits and the score; and Puzzle.to_dict() written as json.dumps(..., separators=(",",
 * ":")) would. Measured on first use and kept (the solver is freed once it answered). */
#include "api/board.h"
#include "api/ctx.h"
#include "api/json.h"
#include "play/puzzle_impl.h"

#include <stdlib.h>
#include <string.h>

#define GENERATE_BUDGET ((uint64_t)1 << 18)   /* puzzles.GENERATE_BUDGET */

/* |ker A| <= GENERATE_BUDGET (f's value, without overflow). */
static int within_budget(const ml_factored *f)
{
    uint64_t v = 1;
    for (int i = 0; i < f->count; i++)
        for (uint64_t e = 0; e < f->exp[i]; e++) {
            v *= f->prime[i];
            if (v > GENERATE_BUDGET)
                return 0;
        }
    return 1;
}

int ml__puzzle_min_solve(ml_ctx *ctx, ml_solver *s, const uint8_t *start, ml_result **out)
{
    ml_factored ks;
    int rc = ml_solver_kernel_size(ctx, s, &ks);
    if (rc)
        return rc;
    uint64_t steps = within_budget(&ks) ? GENERATE_BUDGET : 0;
    return ml_solver_solve(ctx, s, start, ml_target_fill(0), ML_SOLVE_MINIMAL,
                           ml_budget_steps(steps), out);
}

void ml__puzzle_set_measured(ml_puzzle *p, ml_result *r)
{
    const ml_board *b = p->board;
    ml_puzzle_stats *st = &p->stats;
    memset(st, 0, sizeof *st);
    st->min_taps = ml_result_length(r);
    st->proven = ml_result_proven_minimal(r) != 0;
    st->difficulty = ml_difficulty_of(st->min_taps, b->n_taps, b->n);
    ml_stars_limits(st->min_taps, st->stars);
    size_t t = (size_t)(b->rows * b->cols);
    for (size_t f = 0; f < t; f++)
        st->touched += p->start[f] != 0;   /* holes are 0 */
    uint64_t lo[4], hi[4];
    ml_tap_bands(b->n_taps, b->n, lo, hi);
    double score = (double)st->min_taps / (double)hi[ML_EXPERT];   /* hi > 0: a band */
    st->score = score < 1.0 ? score : 1.0;
    ml_result_free(p->sol);
    p->sol = r;
}

/* The measured parts, measured now when they are not yet. */
static int measure(ml_ctx *ctx, ml_puzzle *p)
{
    if (p->sol)
        return ML_OK;
    ml_solver *s = NULL;
    ml_result *r = NULL;
    int rc = ml_solver_new(ctx, p->board, "auto", &s);
    if (!rc)
        rc = ml__puzzle_min_solve(ctx, s, p->start, &r);
    ml_solver_free(s);
    if (rc)
        return rc;
    ml__puzzle_set_measured(p, r);
    return ML_OK;
}

static int check(ml_ctx *ctx, const ml_puzzle *p, const void *out, const char *fn,
                 const char *what)
{
    if (!ml__puzzle_live(p))
        return p ? ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "puzzle") : ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "p");
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, what);
    return ML_OK;
}

int ml_puzzle_stats_get(ml_ctx *ctx, ml_puzzle *p, ml_puzzle_stats *out)
{
    ctx = ml__begin(ctx);
    int rc = check(ctx, p, out, "ml_puzzle_stats_get", "out");
    if (!rc)
        rc = measure(ctx, p);
    if (!rc)
        *out = p->stats;
    return rc;
}

int ml_puzzle_solution(ml_ctx *ctx, ml_puzzle *p, const ml_result **out)
{
    ctx = ml__begin(ctx);
    int rc = check(ctx, p, out, "ml_puzzle_solution", "out");
    if (!rc)
        rc = measure(ctx, p);
    if (!rc)
        *out = p->sol;
    return rc;
}

static void key(ml_jw *w, const char *k) { ml__jw_key(w, k, strlen(k)); }

/* The board's JSON (ml_board_to_json) copied into w. */
static int board_value(ml_ctx *ctx, ml_jw *w, const ml_board *b)
{
    size_t n = 0;
    int rc = ml_board_to_json(ctx, b, NULL, 0, &n);
    char *text = rc ? NULL : malloc(n + 1);
    if (!rc && !text)
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_puzzle_to_json");
    if (!rc)
        rc = ml_board_to_json(ctx, b, text, n + 1, &n);
    ml_json j;
    if (!rc && !(rc = ml__json_parse(ctx, &j, text, n, "board", 0))) {
        ml__jw_value(w, &j, 0);
        ml__json_free(&j);
    }
    free(text);
    return rc;
}

int ml_puzzle_to_json(ml_ctx *ctx, ml_puzzle *p, char *buf, size_t cap, size_t *len)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_puzzle_to_json";
    if (!ml__puzzle_live(p))
        return p ? ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "puzzle") : ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "p");
    if (!buf && cap)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "buf");
    const char *code = NULL;
    int rc = ml_puzzle_code(ctx, p, &code);
    if (!rc)
        rc = measure(ctx, p);
    ml_jw *w = rc ? NULL : malloc(sizeof *w);
    if (!rc && !w)
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    if (rc)
        return rc;
    const ml_board *b = p->board;
    const ml_puzzle_stats *st = &p->stats;
    ml__jw_init(w, buf, cap);
    ml__jw_dict(w);
    key(w, "board");
    rc = board_value(ctx, w, b);
    key(w, "start");
    ml__jw_list(w);
    for (int64_t r = 0; r < b->rows; r++) {
        ml__jw_list(w);
        for (int64_t c = 0; c < b->cols; c++)
            ml__jw_uint(w, p->start[r * b->cols + c]);
        ml__jw_end_list(w);
    }
    ml__jw_end_list(w);
    key(w, "code");
    ml__jw_str(w, code, strlen(code));
    key(w, "stars");
    ml__jw_dict(w);
    static const char *const stars[3] = {"3", "2", "1"};
    for (int k = 0; k < 3; k++) {
        key(w, stars[k]);
        ml__jw_uint(w, st->stars[k]);
    }
    ml__jw_end_dict(w);
    key(w, "min_taps");
    ml__jw_uint(w, st->min_taps);
    key(w, "proven");
    ml__jw_bool(w, st->proven);
    key(w, "difficulty");
    const char *d = ml_difficulty_name(st->difficulty);
    ml__jw_str(w, d, strlen(d));
    ml__jw_end_dict(w);
    size_t n = ml__jw_finish(w);
    free(w);
    if (rc)
        return rc;
    if (n == (size_t)-1)
        return ml__fail(ctx, ML_M_INTERNAL, fn, "the JSON writer was misused");
    if (len)
        *len = n;
    return ML_OK;
}
