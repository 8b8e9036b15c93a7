/* solver_solve.c: solvability and a solution (modlights.h: solvers): ml_solver_solvable,
 * ml_solver_solve (a particular solution, the minimal search of solve.c with
 * ML_SOLVE_MINIMAL, the result) and the right-hand sides t - s every solving call of
 * the library makes (ml__solver_solve_rows). The engine is asked through solver.c
 * (ml__solver_solve_rhs); nothing here sees a solver's parts. */
#include "api/board.h"
#include "api/ctx.h"
#include "api/solver_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BEGIN(fn, outp) ML__SOLVER_BEGIN(fn, outp)
#define END(rc) ML__SOLVER_END(rc)

/* The tables of t - s mod n over the byte values, made once per call (a batch's
 * boards share them): no division per tile. */
typedef struct {
    uint8_t red[256]; /* v mod n */
    uint8_t neg[256]; /* -v mod n */
    uint8_t sub[256]; /* fill - v mod n */
} rhs_tables;

static void rhs_tables_make(const ml_board *b, ml_target target, rhs_tables *t)
{
    unsigned n = (unsigned)b->n, fill = target.fill % n;
    for (unsigned v = 0; v < 256; v++) {
        t->red[v] = (uint8_t)(v % n);
        t->neg[v] = (uint8_t)((n - t->red[v]) % n);
        t->sub[v] = (uint8_t)((fill + t->neg[v]) % n);
    }
}

/* t - s over the cells (mod n) into out (n_cells bytes), by the tables t of target; cf
 * the cells' tiles (ml__board_cells), NULL when the cells are the tiles. O(n_cells). */
static void rhs_into(const ml_board *b, const rhs_tables *t, const uint32_t *cf,
                     const uint8_t *state, ml_target target, uint8_t *out)
{
    unsigned n = (unsigned)b->n, fill = target.fill % n;
    const uint8_t *tt = target.tiles;
    if (!cf && !(n & (n - 1))) {   /* n a power of two: a mask, and the loops vectorise */
        uint8_t mask = (uint8_t)(n - 1);
        if (tt)
            for (uint64_t i = 0; i < b->n_cells; i++)
                out[i] = (uint8_t)(tt[i] - state[i]) & mask;
        else
            for (uint64_t i = 0; i < b->n_cells; i++)
                out[i] = (uint8_t)(fill - state[i]) & mask;
    } else if (!tt) {
        if (cf)
            for (uint64_t i = 0; i < b->n_cells; i++)
                out[i] = t->sub[state[cf[i]]];
        else
            for (uint64_t i = 0; i < b->n_cells; i++)
                out[i] = t->sub[state[i]];
    } else {
        for (uint64_t i = 0; i < b->n_cells; i++) {
            uint64_t f = cf ? cf[i] : i;
            unsigned v = (unsigned)t->red[tt[f]] + t->neg[state[f]];
            out[i] = (uint8_t)(v >= n ? v - n : v);
        }
    }
}

/* t - s over the cells (mod n): *rhs malloc'd, n_cells bytes. */
static int rhs_of(ml_ctx *ctx, const ml_board *b, const uint8_t *state, ml_target target,
                  uint8_t **rhs)
{
    int rc = ml__board_per_tile(ctx, b, "a byte state", 1);
    if (rc)
        return rc;
    const uint32_t *cf = NULL;
    if ((rc = ml__board_cells(ctx, b, "ml_solver_solve", &cf)))
        return rc;
    uint8_t *out = malloc(b->n_cells + 1);
    if (!out)
        return ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
    rhs_tables t;
    rhs_tables_make(b, target, &t);
    rhs_into(b, &t, cf, state, target, out);
    *rhs = out;
    return ML_OK;
}

/* x (n_taps bytes) with *ok, for one state. Over GF(2) with target 0 on a board whose
 * cells are its tiles, t - s is s itself (-s = s): the state is read in place (bytes
 * past 1 reduced first, as rhs_of does, only when some are). */
static int solve_one(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                     uint8_t *x, uint8_t *ok)
{
    const ml_board *b = ml__solver_board(s);
    if (b->n == 2 && ml__board_cells_are_tiles(b) && !target.tiles && !(target.fill & 1)) {
        int rc = ml__board_per_tile(ctx, b, "a byte state", 1);
        if (rc)
            return rc;
        uint8_t any = 0;
        for (uint64_t i = 0; i < b->n_cells; i++)
            any |= state[i];
        if (any < 2)
            return ml__solver_solve_rhs(ctx, s, 1, state, x, ok);
    }
    uint8_t *rhs = NULL;
    int rc = rhs_of(ctx, b, state, target, &rhs);
    if (!rc)
        rc = ml__solver_solve_rhs(ctx, s, 1, rhs, x, ok);
    free(rhs);
    return rc;
}

int ml__solver_solve_rows(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                          ml_target target, uint8_t *X, uint8_t *ok)
{
    if (k == 1)
        return solve_one(ctx, s, states, target, X, ok);
    const ml_board *b = ml__solver_board(s);
    uint64_t m = b->n_cells, tiles = ml_board_size(b);
    uint8_t *R = k && m > SIZE_MAX / k ? NULL : malloc(k * m + 1);
    if (!R)
        return ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve_many");
    int rc = ml__board_per_tile(ctx, b, "a byte state", 1);
    if (!rc && ml__board_cells_are_tiles(b) && tiles == m && !target.tiles) {
        /* cells are the tiles, one fill: the k boards as one run of k * m bytes */
        unsigned n = (unsigned)b->n, fill = target.fill % n;
        const size_t km = k * m;
        if (n == 2 && !fill) {   /* over GF(2) t - s is s: read in place when all < 2 */
            uint8_t any = 0;
            for (size_t i = 0; i < km; i++)
                any |= states[i];
            if (any < 2) {
                free(R);
                return ml__solver_solve_rhs(ctx, s, k, states, X, ok);
            }
        }
        if (!(n & (n - 1))) {
            uint8_t mask = (uint8_t)(n - 1);
            for (size_t i = 0; i < km; i++)
                R[i] = (uint8_t)(fill - states[i]) & mask;
        } else {
            rhs_tables t;
            rhs_tables_make(b, target, &t);
            for (size_t i = 0; i < km; i++)
                R[i] = t.sub[states[i]];
        }
    } else if (!rc) {   /* the tables once, each board's t - s straight into its row of R */
        const uint32_t *cf = NULL;
        rc = ml__board_cells(ctx, b, "ml_solver_solve_many", &cf);
        rhs_tables t;
        rhs_tables_make(b, target, &t);
        for (size_t i = 0; i < k && !rc; i++)
            rhs_into(b, &t, cf, states + i * tiles, target, R + i * m);
    }
    if (!rc)
        rc = ml__solver_solve_rhs(ctx, s, k, R, X, ok);
    free(R);
    return rc;
}

int ml_solver_solvable(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                       int *out)
{
    BEGIN("ml_solver_solvable", out);
    if (!state) {
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_solver_solvable", "state");
        END(rc);
    }
    uint8_t *x = malloc(ml__solver_board(s)->n_taps + 1), ok = 0;
    rc = x ? solve_one(ctx, s, state, target, x, &ok)
           : ml__fail(ctx, ML_M_NOMEM, "ml_solver_solvable");
    if (!rc)
        *out = ok != 0;
    free(x);
    END(rc);
}

/* The sum of n bytes: 32-bit sums of blocks of 2^24 (at most 255 * 2^24 < 2^32), which
 * compilers vectorise (a 64-bit sum a byte does not, in WebAssembly). */
static uint64_t byte_sum(const uint8_t *x, uint64_t n)
{
    uint64_t total = 0;
    for (uint64_t i = 0; i < n;) {
        uint64_t m = n - i < ((uint64_t)1 << 24) ? n - i : (uint64_t)1 << 24;
        uint32_t acc = 0;
        for (uint64_t j = 0; j < m; j++)
            acc += x[i + j];
        total += acc;
        i += m;
    }
    return total;
}

int ml_solver_solve(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                    unsigned flags, ml_budget budget, ml_result **out)
{
    BEGIN("ml_solver_solve", out);
    *out = NULL;
    if (!state) {
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_solver_solve", "state");
        END(rc);
    }
    rc = ml__check_budget(ctx, budget);
    if (rc) {
        END(rc);
    }
    const ml_board *b = ml__solver_board(s);
    ml_result *r = calloc(1, sizeof *r);
    uint64_t size = ml_board_taps_size(b);
    /* every tile a tap (or a graph board): the taps are x itself, solved in place */
    int direct = size == b->n_taps;
    if (r)   /* every byte written below unless some tiles are no taps */
        r->taps = !direct ? calloc(size + 1, 1) : malloc(size + 1);
    uint8_t *x = direct ? (r ? r->taps : NULL) : malloc(b->n_taps + 1), ok = 0;
    rc = x && r && r->taps ? solve_one(ctx, s, state, target, x, &ok)
                           : ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
    if (!rc && !ok)
        rc = ml__fail(ctx, ML_M_UNSOLVABLE);
    if (!rc)
        rc = ml__solver_kernel_size(ctx, s, &r->kernel_size);
    if (!rc)   /* Solution(..., ks == 1, ...) without a search */
        r->proven = ml__factored_trivial(&r->kernel_size);
    if (!rc && (flags & ML_SOLVE_MINIMAL))
        rc = ml__solve_minimal(ctx, s, x, &r->kernel_size, budget, flags, r);
    if (!rc) {
        ml__tap_runs it;
        if (!direct)
            for (ml__tap_runs_init(&it, b); ml__tap_runs_next(&it);)
                memcpy(r->taps + it.f, x + it.j, (size_t)it.len);
        r->length += byte_sum(x, b->n_taps);
        r->magic = ML__RESULT_MAGIC;
        r->b = ml_board_retain(ml__solver_board(s));
        *out = r;
    } else if (r) {
        free(r->taps);
        ml__result_release(r);
        free(r);
    }
    if (!direct)
        free(x);
    END(rc);
}
