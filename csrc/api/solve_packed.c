/* solve_packed.c: ml_solver_solve_packed (Solver.solve_packed, solver_batch.py): a GF(2)
 * grid board's states as np.packbits rows (rows x ceil(cols / 8) bytes, the most
 * significant bit first; bits past the last column ignored), the taps in the same layout.
 * The engine is registry.packed_answerer's: the plan's own when it answers solve_packed
 * (native backend) and packs along the board's rows; when it packs through bit transposes
 * (the cross engine when (-1, 0) is not a unit: horizontal patterns) the cheapest other
 * engine covering the board that answers solve_packed, else the own one. An engine
 * without a packed path: the states unpacked, solved as ml_solver_solve without the
 * search and packed again (giant boards: ML_M_PACKED_GIANT). Where Python would take
 * an engine that has no C questions yet (the tensor engine) this is ML_ENOTIMPL naming
 * it. O(rows * cols) besides the engine's solve. */
#include "api/board.h"
#include "api/ctx.h"
#include "api/engine.h"
#include "api/solver_impl.h"
#include "api/solver_engine.h"
#include "structured/symchase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long count(const ml__pattern *pt, int t, long dr, long dc)
{
    long k = 0;
    for (size_t i = 0; i < pt->count; i++)
        k += (t ? pt->dc[i] : pt->dr[i]) == dr && (t ? pt->dr[i] : pt->dc[i]) == dc;
    return k;
}

/* Whether the own library engine solves along the rows (1), through transposes (0), or
 * its orientation is not known here (-1): algebraic.c's cross_build / sym_build; the
 * tensor engine chases its packed rows itself (TensorEngine.transposed is False). */
int ml__packed_along_rows(const ml__engine *e, const ml_board *b)
{
    if (e->seam || !strcmp(e->name, "tensor"))
        return 1;
    const ml__pattern *pt = &b->pal[0];
    if (!strcmp(e->name, "algebraic-cross"))   /* transposed when (-1, 0) is even */
        return count(pt, 0, -1, 0) % 2 != 0;
    if (!strcmp(e->name, "algebraic-sym")) {   /* the first symmetric, invertible one */
        for (int t = 0; t < 2; t++) {
            int symmetric = 1;
            for (long dr = -1; dr <= 1; dr++)
                symmetric &= count(pt, t, dr, 1) % 2 == count(pt, t, dr, -1) % 2;
            if (!symmetric)
                continue;
            ml_symchase P = {.h = t ? (size_t)b->cols : (size_t)b->rows,
                             .w = t ? (size_t)b->rows : (size_t)b->cols,
                             .p = 2};
            for (int k = 0; k < 3; k++) {
                P.a[k] = (unsigned)(count(pt, t, 1 - k, 0) % 2);
                P.b[k] = (unsigned)(count(pt, t, 1 - k, 1) % 2);
            }
            if (ml_symchase_invertible(&P))
                return t == 0;
        }
    }
    return -1;
}

/* The name (interned) of the cheapest other engine that covers b and answers
 * solve_packed, or NULL. */
static int other_packer(ml_ctx *ctx, const ml__engine *own, const ml_board *b,
                        const char **out)
{
    ml__engine **list = NULL;
    size_t count = 0;
    *out = NULL;
    int rc = ml__registry_snapshot(ctx, &list, &count);
    double best = 0;
    for (size_t i = 0; i < count && !rc; i++) {
        const ml__engine *e = list[i];
        if (e == own || !strcmp(e->name, own->name) || !(e->answers & ML_Q_SOLVE_PACKED))
            continue;
        int covers = 0;
        char why[8];
        size_t len = 0;
        rc = ml__engine_covers(ctx, e, b, &covers, why, sizeof why, &len);
        double cost = 0;
        if (!rc && covers)
            rc = ml__engine_cost(ctx, e, b, &cost);
        if (!rc && covers && (!*out || cost < best)) {
            *out = e->name;
            best = cost;
        }
    }
    if (!rc || count)
        ml__registry_release(list, count);
    return rc;
}

/* Unpack (bits ^ fill), solve without the search, pack the taps. */
static int unpacked(ml_ctx *ctx, ml_solver *s, const uint8_t *arr, unsigned tc, uint8_t *out)
{
    const ml_board *b = ml_solver_board(s);
    size_t rows = (size_t)b->rows, cols = (size_t)b->cols, nb = (cols + 7) / 8;
    uint8_t *st = malloc(rows * cols + 1), *x = malloc(b->n_taps + 1), *taps = calloc(rows * cols + 1, 1);
    uint8_t ok = 0;
    int rc = st && x && taps ? ML_OK : ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve_packed");
    if (!rc) {
        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < cols; c++)
                st[r * cols + c] = (arr[r * nb + c / 8] >> (7 - c % 8)) & 1;
        rc = ml__solver_solve_rows(ctx, s, 1, st, ml_target_fill(tc), x, &ok);
    }
    if (!rc && !ok)
        rc = ml__fail(ctx, ML_M_UNSOLVABLE);
    if (!rc) {
        ml__tap_runs it;
        for (ml__tap_runs_init(&it, b); ml__tap_runs_next(&it);)
            memcpy(taps + it.f, x + it.j, (size_t)it.len);
        memset(out, 0, rows * nb);
        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < cols; c++)
                if (taps[r * cols + c] & 1)
                    out[r * nb + c / 8] |= (uint8_t)(0x80u >> (c % 8));
    }
    free(st);
    free(x);
    free(taps);
    return rc;
}

static int solve_packed(ml_ctx *ctx, ml_solver *s, const uint8_t *packed,
                        const uint8_t *target_packed, unsigned fill, uint8_t *out)
{
    const ml_board *b = ml_solver_board(s);
    int grid = b->kind == ML_BOARD_GRID;
    if (b->n != 2 || !grid)
        return ml__fail(ctx, ML_M_PACKED_NEEDS_GF2_GRID, (int)b->n,
                        grid ? "" : " and is a graph board");
    size_t rows = (size_t)b->rows, nb = ((size_t)b->cols + 7) / 8;
    uint8_t *arr = NULL;
    unsigned tc = fill & 1;
    if (target_packed) {   /* t - s = t ^ s over GF(2) */
        arr = malloc(rows * nb + 1);
        if (!arr)
            return ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve_packed");
        for (size_t i = 0; i < rows * nb; i++)
            arr[i] = packed[i] ^ target_packed[i];
        tc = 0;
    }
    const uint8_t *in = arr ? arr : packed;
    const ml__engine *e = NULL;
    const ml_engine_def *ops = NULL;
    void *user = NULL, *eng = NULL;
    int rc = ml__solver_own(ctx, s, &e, &ops, &user, &eng);
    const ml_plan *plan = ml_solver_plan(s);
    int packs = !rc && (e->answers & ML_Q_SOLVE_PACKED) && ops->solve_packed
                && !strcmp(ml_plan_backend(plan), "native");
    if (!rc && packs && ml__packed_along_rows(e, b) != 1) {
        const char *other = NULL;
        rc = other_packer(ctx, e, b, &other);
        if (!rc && other) {
            char what[160];
            snprintf(what, sizeof what, "ml_solver_solve_packed through the %s engine",
                     other);
            rc = ml__not_implemented(ctx, what);
        }
    }
    if (!rc && packs) {
        int solvable = 0;
        rc = ops->solve_packed(user, ctx, eng, in, tc, out, &solvable);
        if (rc)
            rc = ctx->status != ML_OK ? ctx->status : ml__fail(ctx, ML_M_CALLBACK, e->name, "solve_packed");
        else if (!solvable)
            rc = ml__fail(ctx, ML_M_UNSOLVABLE_PACKED);
    } else if (!rc && ml_board_is_giant(b)) {
        char method[80];
        snprintf(method, sizeof method, "'%s'", ml_plan_family(plan));
        rc = ml__fail(ctx, ML_M_PACKED_GIANT, (long long)ML_MAX_TILES, method);
    } else if (!rc) {
        rc = unpacked(ctx, s, in, tc, out);
    }
    free(arr);
    return rc;
}

int ml_solver_solve_packed(ml_ctx *ctx, ml_solver *s, const uint8_t *packed,
                           const uint8_t *target_packed, unsigned fill, uint8_t *out)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    if (!packed || !out)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_solver_solve_packed",
                                            packed ? "out" : "packed"));
    int rc = ml__solver_take(ctx, s, "ml_solver_solve_packed");
    if (rc)
        return ml__leave(ctx, &sc, rc);
    rc = solve_packed(ctx, s, packed, target_packed, fill, out);
    ml__solver_give(s);
    return ml__leave(ctx, &sc, rc);
}
