/* chase.c: the light chase's questions (engines/chase.h), over chase/ (plan, symbolic,
 * numeric) and the residual solvers of dense/ (gf2.c's ml_res_gf2_*, the dense Z/n
 * engine of engines/dense.c).
 *
 * build: the plan of the board (engines/chase_layout.c's ml__chase_light_plan:
 * engine.py's build_plan / _tables: the distinct offsets
 * of the patterns used, sorted descending, a count per pattern and offset, patterns
 * numbered by first appearance in row-major order; masks only for boards with locks or
 * holes), along the columns instead (transpose_board: tile (r, c) -> (c, r), offset
 * (dr, dc) -> (dc, dr)) when the board is wider than tall and that gives fewer symbols
 * (_light_plan); then check_residual_size's limit and message before the residual
 * matrix is allocated; then the residual matrix (packed bits for n = 2, bytes else) and
 * its elimination. solve: numeric replays with z = 0, one residual solve for every
 * right-hand side left with a residual, replays with the symbols found (ChaseEngine.solve).
 * generators: ker M pushed through the chase with b = 0 (ChaseEngine.generators).
 *
 * Every allocation is checked (ML_ENOMEM "out of memory in the chase engine"); the
 * symbolic chase polls for stops (ML_EINTERRUPTED). Sizes are checked in 64 bits (the
 * residual limit caps nres x nsym at 2^33 bits / 2^30 bytes). */
#include "engines/chase.h"
#include "engines/chase_impl.h"

#include "api/board.h"
#include "api/ctx.h"
#include "api/registry_impl.h"
#include "chase/chase.h"
#include "chase/rowsolve.h"
#include "dense/gf2.h"
#include "engines/dense.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int nomem(ml_ctx *ctx) { return ml__fail(ctx, ML_M_NOMEM, "the chase engine"); }

/* Workers of the symbolic chase (ml__engine_threads); the matrix is the same whatever
 * the count. */
static int chase_threads(ml_ctx *ctx) { return ml__engine_threads(ctx); }

typedef struct chase_eng {
    const ml_board *b;
    int n, transposed;
    size_t hw, m, r, nsym, nres;
    size_t rows_solved;   /* residual equations in the system solved (prefix: fewer) */
    ml_chase *plan;
    ml_rowsolve *rs;   /* the row-solve chase's plan instead (chase-rowsolve) */
    uint64_t *M;    /* n = 2: nres x nw words (+ 1) */
    size_t nw, rank;
    int ranked;     /* n = 2: rank known (the first residual solve's, or gf2_rank's) */
    uint8_t *work;  /* hw + 1 bytes from the plan's build, or NULL: the solves' taps */
    ml_board *rb;   /* n > 2: the residual matrix as a board, and its dense Z/n engine */
    void *zn;
    void *row;   /* the choosing entry's row chase (engines/chase_row.c), which answers */
    const char *variant, *why;   /* the choosing entry's variant and its reason */
} chase_eng;

/* ------------------------------------------------------------------ limits */
/* limits.py's check_residual_size: ML_ETOOLARGE with its message, else ML_OK */
int ml__chase_check_residual_size(ml_ctx *ctx, uint64_t nres, uint64_t nsym, int n)
{
    ml__residual_size z;
    if (ml__chase_residual_fits(nres, nsym, n, &z))
        return ML_OK;
    return ml__fail(ctx, ML_M_CHASE_RESIDUAL, (unsigned long long)nres,
                    (unsigned long long)nsym, n, z.mib, z.work_log2, z.max_mib, z.max_work_log2);
}

static int chase_status(ml_ctx *ctx, int st)
{
    if (st == 0)
        return ML_OK;
    if (st == 3)
        return ml__fail(ctx, ML_M_INTERRUPTED);
    return nomem(ctx);
}

/* ------------------------------------------------------------------ build */
static void residual_free(chase_eng *e);

static void light_destroy(void *user, void *engine)
{
    (void)user;
    chase_eng *e = engine;
    if (!e)
        return;
    residual_free(e);
    if (e->row)
        ml__chase_row_ops.destroy(NULL, e->row);
    ml_chase_free(e->plan);
    ml_rowsolve_free(e->rs);
    free(e->work);
    free(e);
}

/* The residual system of the first `rows` equations, eliminated (_residual_engine). */
static void residual_free(chase_eng *e)
{
    if (e->zn)
        ml__dense_zn_ops.destroy(NULL, e->zn);
    ml_board_free(e->rb);
    free(e->M);
    e->zn = NULL;
    e->rb = NULL;
    e->M = NULL;
}

static int residual_engine(ml_ctx *ctx, chase_eng *e, size_t rows)
{
    size_t nsym = e->nsym;
    int th = chase_threads(ctx);
    residual_free(e);
    e->rows_solved = rows;
    if (e->n == 2) {   /* its rank on first need (gf2_rank; a solve finds it too) */
        e->nw = (nsym + 63) / 64;
        e->ranked = 0;
        e->M = calloc(rows * e->nw + 1, sizeof *e->M);
        if (!e->M)
            return nomem(ctx);
        return chase_status(ctx, e->rs ? ml_rowsolve_matrix(e->rs, e->M, th, 0, 1)
                                       : ml_chase_matrix_gf2_rows(e->plan, e->M, rows, th, 0));
    }
    uint8_t *Mz = malloc(rows * nsym + 1);
    if (!Mz)
        return nomem(ctx);
    /* n = 3, 4: the bit-sliced symbolic pass (ml_rowsolve_matrix_sliced answers 1 for
     * any other n, which takes the byte one); the same matrix either way */
    int st = 1;
    if (e->rs && (e->n == 3 || e->n == 4))
        st = ml_rowsolve_matrix_sliced(e->rs, Mz, th, 0, 1);
    if (st == 1)
        st = e->rs ? ml_rowsolve_matrix_zn(e->rs, Mz, th, 0, 1)
                   : ml_chase_matrix_zn_mode(e->plan, Mz, rows, th, 0, 1);
    int rc = chase_status(ctx, st);
    if (rc == ML_OK)
        rc = ml_board_from_matrix(ctx, e->n, rows, nsym, Mz, nsym, &e->rb);
    free(Mz);
    if (rc == ML_OK)
        rc = ml__dense_zn_ops.build(NULL, ctx, e->rb, &e->zn);
    return rc;
}

/* n = 2: the rank of the residual system in *rank, by one elimination the first time
 * (Python's Gf2Residual.rank); ML_ENOMEM when it cannot be made. */
static int gf2_rank(ml_ctx *ctx, chase_eng *e, size_t *rank)
{
    if (!e->ranked) {
        uint8_t zr[1] = {0}, zz[1] = {0}, zo[1] = {0};
        size_t rk = ml_res_gf2_solve(e->M, e->rows_solved, e->nsym, zr, 0, zz, zo);
        if (rk == (size_t)-1)
            return nomem(ctx);
        e->rank = rk;
        e->ranked = 1;
    }
    *rank = e->rank;
    return ML_OK;
}

/* _prefix_residual: a prefix of a tall residual system (PREFIX_RATIO x symbols
 * equations, then PREFIX_GROWTH times as many, while at most half the system) that
 * leaves no kernel; *found = 0 when none does (nothing kept then). */
#define PREFIX_RATIO 1.25
#define PREFIX_GROWTH 2

static int prefix_residual(ml_ctx *ctx, chase_eng *e, int *found)
{
    *found = 0;
    size_t nsym = e->nsym, nres = e->nres;
    size_t rows = (size_t)(PREFIX_RATIO * (double)nsym);
    if (!nsym || rows > nres / 2)
        return ML_OK;
    int64_t *sym = malloc(nsym * sizeof *sym), *tiles = malloc(nres * sizeof *tiles);
    if (!sym || !tiles) {
        free(sym);
        free(tiles);
        return nomem(ctx);
    }
    ml_chase_symbols(e->plan, sym);
    ml_chase_residual_tiles(e->plan, tiles);
    int64_t last_symbol = sym[nsym - 1];   /* symbols are in tile order */
    /* (max(|udr|, |udc|) over the board's offsets + 1) x the plan's width */
    int64_t span = 0;
    const ml_board *b = e->b;
    uint8_t *used = calloc(b->n_pal + 1, 1);
    if (!used) {
        free(sym);
        free(tiles);
        return nomem(ctx);
    }
    used[0] = 1;
    if (b->mixed) {   /* only the patterns some tile uses (_tables) */
        used[0] = 0;
        for (size_t f = 0; f < e->hw; f++)
            used[b->tile_pal[f]] = 1;
    }
    for (uint32_t k = 0; k < b->n_pal; k++)
        for (size_t i = 0; used[k] && i < b->pal[k].count; i++) {
            int64_t a = e->b->pal[k].dr[i], c = e->b->pal[k].dc[i];
            a = a < 0 ? -a : a;
            c = c < 0 ? -c : c;
            span = a > span ? a : span;
            span = c > span ? c : span;
        }
    free(used);
    int h = 0, w = 0, n = 0;
    ml_chase_geometry(e->plan, &h, &w, &n);
    int64_t reach = (span + 1) * (int64_t)w;
    int rc = ML_OK;
    while (rows <= nres / 2) {
        int64_t most = tiles[0];
        for (size_t i = 1; i < rows; i++)
            most = tiles[i] > most ? tiles[i] : most;
        if (!e->b->wrap && last_symbol > most + reach) {
            rows = rows * PREFIX_GROWTH;
            continue;
        }
        rc = ml__chase_check_residual_size(ctx, rows, nsym, e->n);
        if (rc == ML_OK)
            rc = residual_engine(ctx, e, rows);
        if (rc)
            break;
        uint64_t null = 0;
        size_t rank = 0;
        if (e->n == 2 && (rc = gf2_rank(ctx, e, &rank)) == ML_OK)
            null = nsym - rank;
        else if (e->n != 2)
            rc = ml__dense_zn_ops.nullity(NULL, ctx, e->zn, &null);
        if (rc)
            break;
        if (!null) {
            *found = 1;
            break;
        }
        residual_free(e);
        rows = rows * PREFIX_GROWTH;
    }
    free(sym);
    free(tiles);
    return rc;
}

/* A new engine of grid board b (nothing built yet); NULL with *rc set on failure. */
static chase_eng *eng_new(ml_ctx *ctx, const ml_board *b, int *rc)
{
    if (b->kind != ML_BOARD_GRID || b->giant) {
        *rc = ml__fail_text(ctx, ML_EINVAL, ML_M_INTERNAL,
                            "the chase engine needs a grid board of at most ML_MAX_TILES "
                            "tiles");
        return NULL;
    }
    chase_eng *e = calloc(1, sizeof *e);
    if (!e) {
        *rc = nomem(ctx);
        return NULL;
    }
    e->b = b;
    e->n = b->n;
    e->hw = (size_t)b->rows * (size_t)b->cols;
    e->m = (size_t)b->n_cells;
    e->r = (size_t)b->n_taps;
    return e;
}

/* ChaseEngine(variant="light") (prefix = 0) or ChaseEngine(variant="prefix") */
static int chase_build(ml_ctx *ctx, const ml_board *b, void **engine, int prefix)
{
    int rc = ML_OK;
    chase_eng *e = eng_new(ctx, b, &rc);
    if (!e)
        return rc;
    e->plan = ml__chase_light_plan(ctx, b, &e->transposed, &rc, &e->work);
    int found = 0;
    if (rc == ML_OK) {
        e->nsym = ml_chase_nsym(e->plan);
        e->nres = ml_chase_nres(e->plan);
        if (prefix)
            rc = prefix_residual(ctx, e, &found);
    }
    if (rc == ML_OK && !found)
        rc = ml__chase_check_residual_size(ctx, e->nres, e->nsym, e->n);
    if (rc == ML_OK && !found)
        rc = residual_engine(ctx, e, e->nres);
    if (rc) {
        light_destroy(NULL, e);
        return rc;
    }
    *engine = e;
    return ML_OK;
}

/* ChaseEngine(variant="rowsolve"): the row-solve plan, its whole residual system */
static int rowsolve_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    int rc = ML_OK;
    chase_eng *e = eng_new(ctx, b, &rc);
    if (!e)
        return rc;
    e->rs = ml__chase_rowsolve_plan(ctx, b, &e->transposed, &rc);
    if (rc == ML_OK && !e->rs)   /* the registry's covers refuses such boards first */
        rc = ml__fail(ctx, ML_M_INTERNAL, "the chase engine",
                      "the row-solve chase does not take this board");
    if (rc == ML_OK) {
        e->nsym = e->nres = ml_rowsolve_nsym(e->rs);
        rc = residual_engine(ctx, e, e->nres);
    }
    if (rc) {
        light_destroy(NULL, e);
        return rc;
    }
    *engine = e;
    return ML_OK;
}

static int light_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    return chase_build(ctx, b, engine, 0);
}

static int prefix_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    return chase_build(ctx, b, engine, 1);
}

/* ------------------------------------------------------------------ the choice */
/* engine.py's ROWSOLVE_COMPARE_TILES, rowchase.py's ROWCHASE_MIN_RATIO and
 * ROWCHASE_TALL_ENTRIES */
#define ROWSOLVE_COMPARE_TILES ((uint64_t)1 << 20)
#define ROWCHASE_MIN_RATIO 5
#define ROWCHASE_TALL_ENTRIES ((uint64_t)1 << 28)

/* engine.py's _light_symbols_bound: a lower bound on the light chase's symbols of a
 * uniform board without wrap larger than its pattern. */
static uint64_t light_symbols_bound(const ml_board *b)
{
    int64_t D = 0, Dc = 0;
    for (size_t i = 0; i < b->pal[0].count; i++) {
        D = -(int64_t)b->pal[0].dr[i] > D ? -(int64_t)b->pal[0].dr[i] : D;
        Dc = -(int64_t)b->pal[0].dc[i] > Dc ? -(int64_t)b->pal[0].dc[i] : Dc;
    }
    uint64_t along = (uint64_t)D * (uint64_t)b->cols, across = (uint64_t)Dc * (uint64_t)b->rows;
    return b->cols > b->rows && across < along ? across : along;
}

/* rowchase.py's use_rowchase (forced None): a board with holes or locked tiles and more
 * than ROWCHASE_MIN_RATIO symbols a column, or (tall: the residual equations when no
 * prefix leaves a trivial kernel) more than ROWCHASE_TALL_ENTRIES residual entries. */
static int use_rowchase(const chase_eng *e, uint64_t tall)
{
    if (!e->b->locked && !e->b->holes)
        return 0;
    int h = 0, w = 0, n = 0;
    ml_chase_geometry(e->plan, &h, &w, &n);
    return e->nsym > (uint64_t)ROWCHASE_MIN_RATIO * (uint64_t)(w > 1 ? w : 1) ||
           tall * e->nsym > ROWCHASE_TALL_ENTRIES;
}

/* The row chase on the engine's plan (borrowed), answering for it, taken because why. */
static int row_chase(ml_ctx *ctx, chase_eng *e, const char *why)
{
    int rc = ml__chase_row_new(ctx, e->b, e->plan, e->transposed, 0, &e->row);
    if (rc == ML_OK) {
        e->variant = "chase-row";
        e->why = why;
    }
    return rc;
}

/* ChaseEngine(variant=None): the variant with the fewest symbols, as its __init__: the
 * row-solve chase when eligible and (on boards past ROWSOLVE_COMPARE_TILES tiles whose
 * row-solve symbols are within the light bound) without comparing, else when it has
 * fewer symbols than the light chase; the row chase (engines/chase_row.c, answering for
 * the engine) for many holes; a prefix of a tall residual system that leaves no kernel;
 * the row chase for a tall system none of whose prefixes does; else the light chase's
 * whole system. The variant taken and why: ml__chase_variant. */
static int choose_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    int rc = ML_OK;
    chase_eng *e = eng_new(ctx, b, &rc);
    if (!e)
        return rc;
    int t = 0;
    ml_rowsolve *rs = ml__chase_rowsolve_plan(ctx, b, &t, &rc);
    if (rs) {
        uint64_t rsym = ml_rowsolve_nsym(rs);
        if (e->hw <= ROWSOLVE_COMPARE_TILES || rsym > light_symbols_bound(b)) {
            int lt = 0;
            ml_chase *light = ml__chase_light_plan(ctx, b, &lt, &rc, &e->work);
            if (light && ml_chase_nsym(light) < rsym) {
                ml_rowsolve_free(rs);
                rs = NULL;
                e->plan = light;
                e->transposed = lt;
            } else {
                ml_chase_free(light);
            }
        }
    }
    if (rc == ML_OK && rs) {
        e->rs = rs;
        e->transposed = t;
        e->nsym = e->nres = ml_rowsolve_nsym(rs);
        e->variant = "chase-rowsolve";
        e->why = "its pattern ends in a pair of unit taps: the row-solve chase has the "
                 "fewest symbols";
        rc = residual_engine(ctx, e, e->nres);
    } else if (rc == ML_OK) {
        ml_rowsolve_free(rs);
        if (!e->plan)
            e->plan = ml__chase_light_plan(ctx, b, &e->transposed, &rc, &e->work);
        int found = 0, row = 0;
        if (rc == ML_OK) {
            e->nsym = ml_chase_nsym(e->plan);
            e->nres = ml_chase_nres(e->plan);
            row = use_rowchase(e, 0);
            if (row)   /* "more than {ROWCHASE_MIN_RATIO} symbols a column" */
                rc = row_chase(ctx, e, "more than 5 symbols a column (holes or locks)");
        }
        if (rc == ML_OK && !row)
            rc = prefix_residual(ctx, e, &found);
        if (rc == ML_OK && !row && found) {
            e->variant = "chase-prefix";
            e->why = "a prefix of its tall residual system leaves no kernel";
        } else if (rc == ML_OK && !row && use_rowchase(e, e->nres)) {
            rc = row_chase(ctx, e, "a tall residual system no prefix of which leaves a "
                                   "trivial kernel");
        } else if (rc == ML_OK && !row) {
            rc = ml__chase_check_residual_size(ctx, e->nres, e->nsym, e->n);
            if (rc == ML_OK)
                rc = residual_engine(ctx, e, e->nres);
            e->variant = "chase-light";
            e->why = "the residual system of the light chase, eliminated whole";
        }
    } else {
        ml_rowsolve_free(rs);
    }
    if (rc) {
        light_destroy(NULL, e);
        return rc;
    }
    *engine = e;
    return ML_OK;
}

const char *ml__chase_variant(const void *engine, const char **why)
{
    const chase_eng *e = (const chase_eng *)engine;
    *why = e->why;
    return e->variant;
}

/* ------------------------------------------------------------------ questions */
/* The numeric replay of the engine's plan (plan.numeric(b, z)). */
static int replay(ml_ctx *ctx, const chase_eng *e, const uint8_t *bg, const uint8_t *z,
                  uint8_t *x, uint8_t *rho)
{
    if (e->rs)
        return chase_status(ctx, ml_rowsolve_numeric(e->rs, bg, z, x, rho));
    ml_chase_numeric(e->plan, bg, z, x, rho);
    return ML_OK;
}

/* _b_grid: right-hand side over the cells -> a byte a tile in the plan's layout: rhs
 * itself when every tile is a cell and the plan runs along the rows (read in place),
 * else bg filled (ml__chase_to_plan). O(tiles). */
static const uint8_t *b_grid(const chase_eng *e, const uint8_t *rhs, uint8_t *bg)
{
    if (e->m == e->hw && !e->transposed)   /* every tile a cell, in order (bg unused) */
        return rhs;
    ml__chase_to_plan(e->b, e->transposed, rhs, bg);
    return bg;
}

/* Whether a replay may write its taps straight into the answer's row (every tile a tap,
 * the plan along the rows: tap_vec is the identity). */
static int taps_in_place(const chase_eng *e) { return e->r == e->hw && !e->transposed; }

/* _tap_vec: a replay's taps (plan layout) -> over the board's taps (out; x == out when
 * taps_in_place). O(tiles). */
static void tap_vec(const chase_eng *e, const uint8_t *x, uint8_t *out)
{
    if (x != out)
        ml__chase_from_plan(e->b, e->transposed, x, out);
}

static int any(const uint8_t *v, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (v[i])
            return 1;
    return 0;
}

/* Z (kp x nsym), ok (kp) for M z = rho over the kp rows of rhos (kp x rows_solved). */
static int res_solve_many(ml_ctx *ctx, chase_eng *e, size_t kp, const uint8_t *rhos,
                          uint8_t *Z, uint8_t *ok)
{
    if (e->n == 2) {
        size_t rk = ml_res_gf2_solve(e->M, e->rows_solved, e->nsym, rhos, kp, Z, ok);
        if (rk == (size_t)-1)
            return nomem(ctx);
        e->rank = rk;   /* the elimination of [M | rhos] gives the rank too */
        e->ranked = 1;
        return ML_OK;
    }
    return ml__dense_zn_ops.solve(NULL, ctx, e->zn, kp, rhos, Z, ok);
}

/* ChaseEngine.solve: replays with z = 0 (their residuals kept), one residual solve for
 * every right-hand side left with a residual, replays with the symbols found. The
 * right-hand sides are read in place and the taps written in place where the layouts
 * allow (b_grid, taps_in_place). O(k x (tiles x pattern) + the residual solve). */
static int light_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                       uint8_t *X, uint8_t *ok)
{
    (void)user;
    chase_eng *e = engine;
    if (e->row)
        return ml__chase_row_ops.solve(NULL, ctx, e->row, k, R, X, ok);
    size_t hw = e->hw, nres = e->nres, nsym = e->nsym;
    size_t used = e->rows_solved;   /* the prefix of rho the system solved reads */
    int direct = taps_in_place(e), in_place = e->m == hw && !e->transposed;   /* b_grid */
    /* x: the engine's work space when it has one (solves run one at a time: the solver's) */
    uint8_t *bg = in_place ? NULL : malloc(hw + 1), *own = NULL;
    uint8_t *x = direct ? NULL : e->work ? e->work : (own = malloc(hw + 1));
    uint8_t *rho = malloc(nres + 1);
    size_t *pend = malloc((k + 1) * sizeof *pend);
    uint8_t *rhos = NULL, *Z = NULL, *okz = NULL;
    int rc = ML_OK;
    if ((!in_place && !bg) || (!direct && !x) || !rho || !pend
        || k > (SIZE_MAX - 1) / (used + 1)) {
        rc = nomem(ctx);
        goto done;
    }
    /* first replays (z = 0): the right-hand sides left with a residual, which is kept */
    size_t kp = 0;
    for (size_t i = 0; i < k; i++) {
        uint8_t *xi = direct ? X + i * e->r : x;
        ok[i] = 0;
        rc = replay(ctx, e, b_grid(e, R + i * e->m, bg), NULL, xi, rho);
        if (rc)
            goto done;
        if (nres && any(rho, nres)) {
            if (!rhos && !(rhos = malloc((k - i) * used + 1))) {
                rc = nomem(ctx);
                goto done;
            }
            memcpy(rhos + kp * used, rho, used);
            pend[kp++] = i;
        } else {
            tap_vec(e, xi, X + i * e->r);
            ok[i] = 1;
        }
    }
    if (!kp)
        goto done;
    Z = calloc(kp * nsym + 1, 1);
    okz = calloc(kp + 1, 1);
    if (!Z || !okz) {
        rc = nomem(ctx);
        goto done;
    }
    rc = res_solve_many(ctx, e, kp, rhos, Z, okz);
    for (size_t j = 0; j < kp && rc == ML_OK; j++) {
        size_t i = pend[j];
        if (!okz[j])
            continue;
        uint8_t *xi = direct ? X + i * e->r : x;
        rc = replay(ctx, e, b_grid(e, R + i * e->m, bg), Z + j * nsym, xi, rho);
        if (rc)
            break;
        if (e->rows_solved < nres && any(rho, nres))
            continue;   /* _replay_solves: the prefix's only candidate fails the rest */
        tap_vec(e, xi, X + i * e->r);
        ok[i] = 1;
    }
done:
    for (size_t i = 0; i < k && rc == ML_OK; i++)
        if (!ok[i] && e->r)
            memset(X + i * e->r, 0, e->r);
    free(bg);
    free(own);
    free(rho);
    free(pend);
    free(rhos);
    free(Z);
    free(okz);
    return rc;
}

static int light_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    chase_eng *e = engine;
    if (e->row)
        return ml__chase_row_ops.nullity(NULL, ctx, e->row, nullity);
    if (e->n == 2) {
        size_t rank = 0;
        int rc = gf2_rank(ctx, e, &rank);
        *nullity = rc ? 0 : e->nsym - rank;
        return rc;
    }
    return ml__dense_zn_ops.nullity(NULL, ctx, e->zn, nullity);
}

static int light_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    chase_eng *e = engine;
    if (e->row)
        return ml__chase_row_ops.kernel_size(NULL, ctx, e->row, size);
    if (e->n == 2) {
        size_t rank = 0;
        int rc = gf2_rank(ctx, e, &rank);
        memset(size, 0, sizeof *size);
        if (!rc && e->nsym > rank) {
            size->prime[0] = 2;
            size->exp[0] = e->nsym - rank;
            size->count = 1;
        }
        (void)user;
        return rc;
    }
    return ml__dense_zn_ops.kernel_size(NULL, ctx, e->zn, size);
}

static int light_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit,
                            uint64_t *k, uint8_t *H, uint32_t *orders)
{
    (void)user;
    chase_eng *e = engine;
    if (e->row)
        return ml__chase_row_ops.generators(NULL, ctx, e->row, limit, k, H, orders);
    size_t nsym = e->nsym;
    uint64_t count = 0;
    uint8_t *Hs = NULL;
    uint32_t *ord = NULL;
    int rc = ML_OK;
    if (e->n == 2) {
        size_t rank = 0;
        if ((rc = gf2_rank(ctx, e, &rank)))
            return rc;
        uint64_t null = e->nsym - rank;
        count = limit < null ? limit : null;
        if (H && count) {
            size_t got =
                ml_res_gf2_kernel_first(e->M, e->rows_solved, nsym, (size_t)count, &Hs);
            if (got == (size_t)-1)
                return nomem(ctx);
        }
    } else {
        rc = ml__dense_zn_ops.generators(NULL, ctx, e->zn, limit, &count, NULL, NULL);
        if (rc == ML_OK && H && count) {
            Hs = malloc(count * nsym + 1);
            ord = malloc(count * sizeof *ord);
            if (!Hs || !ord)
                rc = nomem(ctx);
            else
                rc = ml__dense_zn_ops.generators(NULL, ctx, e->zn, count, &count, Hs, ord);
        }
    }
    *k = count;
    if (rc || !H || !count)
        goto done;
    uint8_t *zero = calloc(e->hw + 1, 1), *x = malloc(e->hw + 1),
            *rho = malloc(e->nres + 1);
    if (!zero || !x || !rho) {
        rc = nomem(ctx);
    } else {
        for (uint64_t i = 0; i < count && rc == ML_OK; i++) {   /* through the chase */
            rc = replay(ctx, e, zero, Hs + i * nsym, x, rho);
            tap_vec(e, x, H + i * e->r);
            if (orders)
                orders[i] = e->n == 2 ? 2u : ord[i];
        }
    }
    free(zero);
    free(x);
    free(rho);
done:
    free(Hs);
    free(ord);
    return rc;
}

const ml_engine_def ml__chase_light_ops = {
    .size = sizeof(ml_engine_def),
    .name = "chase-light",
    .build = light_build,
    .destroy = light_destroy,
    .solve = light_solve,
    .nullity = light_nullity,
    .kernel_size = light_kernel_size,
    .generators = light_generators,
};

const ml_engine_def ml__chase_prefix_ops = {
    .size = sizeof(ml_engine_def),
    .name = "chase-prefix",
    .build = prefix_build,
    .destroy = light_destroy,
    .solve = light_solve,
    .nullity = light_nullity,
    .kernel_size = light_kernel_size,
    .generators = light_generators,
};

const ml_engine_def ml__chase_choose_ops = {
    .size = sizeof(ml_engine_def),
    .name = "chase",
    .build = choose_build,
    .destroy = light_destroy,
    .solve = light_solve,
    .nullity = light_nullity,
    .kernel_size = light_kernel_size,
    .generators = light_generators,
};

const ml_engine_def ml__chase_rowsolve_ops = {
    .size = sizeof(ml_engine_def),
    .name = "chase-rowsolve",
    .build = rowsolve_build,
    .destroy = light_destroy,
    .solve = light_solve,
    .nullity = light_nullity,
    .kernel_size = light_kernel_size,
    .generators = light_generators,
};
