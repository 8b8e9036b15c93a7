/* generate.c: ml_generate_opts_init and ml_generate (modlights.h: generate), Python's
 * ml.generate (play/puzzles.py: generate, _place, _changes_nothing, _sample_start),
 * drawing exactly as it draws from SplitMix64 (so the same settings and seed give the
 * same puzzle and code):
 *
 *  - the checks in Python's order (difficulty, rows, cols, the size, the counts, the
 *    tiles left), then the seed (ml_seed_random when not seeded);
 *  - _place: `locked + holes` tiles drawn by sample(free, k) over the free tiles (not
 *    fixed locked or holes, row-major), the first `locked` locked, the rest holes,
 *    retried up to 256 placements until the kernel is trivial when unique (one try when
 *    no tile is placed), after the nullity bound for n prime; the messages of Python;
 *  - with unique and neither counts nor fixed tiles given, a failure that names unique
 *    is followed by "lock as few tiles as make it unique": k = max(1, nullity) ..
 *    min(tiles - 1, k + 3) locked tiles, the first that works;
 *  - _sample_start: starts -A x for x of `length` unit taps drawn by randbelow(T) (a
 *    tile at n - 1 is skipped), the length drawn from the band times the adapted scale,
 *    at most 48 samples, each measured by _min_solve; the first in the band, else the
 *    closest.
 *
 * With opts->grid the board's shape, states, pattern (mixed too), wrap (or opts->wrap)
 * and fixed locked tiles and holes are the grid's; opts->rows, cols, states and pattern
 * are then not read. O(samples x the minimal solve) after O(placements x a solver). */
#include "api/board.h"
#include "api/ctx.h"
#include "base/interrupt.h"
#include "play/puzzle_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GENERATE_TILES 1024
#define MAX_SIDE 255
#define SAMPLE_TRIES 48
#define PLACEMENT_TRIES 256

typedef struct gen {
    ml_ctx *ctx;
    int64_t rows, cols;
    int states, wrap;
    const char *pattern;      /* a name, when tmpl is NULL */
    const ml_board *tmpl;     /* the grid's board: its palette and tile index */
    uint8_t *fixed_lock, *fixed_hole;   /* rows * cols each */
    uint64_t n_fixed_lock, n_fixed_hole;
    ml_prng g;
} gen;

/* A ValueError of Python (the statuses the bindings raise it for). */
static int value_error(int rc) { return rc > 0 && rc < ML_EINTERRUPTED; }

static int is_prime(int n)
{
    if (n < 2)
        return 0;
    for (int d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

/* Board.grid(rows, cols, states, pattern, locked=lock, holes=hole, wrap=wrap); lock and
 * hole may be NULL (none). */
static int board_of(gen *G, const uint8_t *lock, const uint8_t *hole, ml_board **out)
{
    ml_ctx *ctx = G->ctx;
    ml_grid *g = NULL;
    int rc = ml_grid_new(ctx, G->rows, G->cols, G->states, &g);
    if (!rc && !G->tmpl)
        rc = ml_grid_set_pattern_name(ctx, g, G->pattern);
    const ml_board *t = G->tmpl;
    uint32_t *map = NULL;
    if (!rc && t && !t->mixed) {
        int64_t *dr = malloc((t->pal[0].count + 1) * sizeof *dr), *dc = malloc((t->pal[0].count + 1) * sizeof *dc);
        if (!dr || !dc)
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_generate");
        for (size_t i = 0; !rc && i < t->pal[0].count; i++) {
            dr[i] = t->pal[0].dr[i];
            dc[i] = t->pal[0].dc[i];
        }
        if (!rc)
            rc = ml_grid_set_offsets(ctx, g, t->pal[0].count, dr, dc);
        free(dr);
        free(dc);
    } else if (!rc && t) {
        map = malloc((t->n_pal + 1) * sizeof *map);
        if (!map)
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_generate");
        for (uint32_t k = 0; !rc && k < t->n_pal; k++) {
            const ml__pattern *p = &t->pal[k];
            int64_t *dr = malloc((p->count + 1) * sizeof *dr), *dc = malloc((p->count + 1) * sizeof *dc);
            if (!dr || !dc)
                rc = ml__fail(ctx, ML_M_NOMEM, "ml_generate");
            for (size_t i = 0; !rc && i < p->count; i++) {
                dr[i] = p->dr[i];
                dc[i] = p->dc[i];
            }
            if (!rc)
                rc = ml_grid_palette_add_offsets(ctx, g, p->count, dr, dc, &map[k]);
            free(dr);
            free(dc);
        }
        size_t tiles = (size_t)(G->rows * G->cols);
        uint32_t *index = rc ? NULL : malloc(tiles * sizeof *index);
        if (!rc && !index)
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_generate");
        for (size_t f = 0; !rc && f < tiles; f++)
            index[f] = map[t->tile_pal[f]];
        if (!rc)
            rc = ml_grid_set_mixed(ctx, g, index);
        free(index);
    }
    free(map);
    if (!rc)
        rc = ml_grid_set_wrap(ctx, g, G->wrap);
    if (!rc && lock)
        rc = ml_grid_set_locked(ctx, g, lock);
    if (!rc && hole)
        rc = ml_grid_set_holes(ctx, g, hole);
    if (!rc)
        rc = ml_grid_build(ctx, g, out);
    ml_grid_free(g);
    return rc;
}

/* |ker A| saturated at UINT64_MAX, and its log2 to order saturated values. */
static uint64_t ks_sat(const ml_factored *f)
{
    uint64_t v = 1;
    for (int i = 0; i < f->count; i++)
        for (uint64_t e = 0; e < f->exp[i]; e++) {
            if (v > UINT64_MAX / f->prime[i])
                return UINT64_MAX;
            v *= f->prime[i];
        }
    return v;
}

static int ks_less(const ml_factored *a, const ml_factored *b)
{
    uint64_t x = ks_sat(a), y = ks_sat(b);
    if (x != UINT64_MAX || y != UINT64_MAX)
        return x < y;
    return ml_factored_log2(a) < ml_factored_log2(b);
}

static void ks_text(const ml_factored *f, char *buf, size_t cap)
{
    if (ml_factored_decimal(NULL, f, buf, cap, NULL) != ML_OK)
        snprintf(buf, cap, "?");
}

/* The solver of the board without placed tiles (Python's `full`). */
static int full_solver(gen *G, ml_board **b, ml_solver **s)
{
    int rc = board_of(G, NULL, NULL, b);
    if (!rc)
        rc = ml_solver_new(G->ctx, *b, "auto", s);
    return rc;
}

/* _place: *board and *solver with `locked` / `holes` more tiles drawn. */
static int place(gen *G, int64_t locked, int64_t holes, int unique, ml_board **board,
                 ml_solver **solver)
{
    ml_ctx *ctx = G->ctx;
    size_t tiles = (size_t)(G->rows * G->cols);
    int tries = locked + holes == 0 ? 1 : PLACEMENT_TRIES;
    int rc = ML_OK;
    if (unique && holes == 0 && G->n_fixed_hole == 0 && locked > 0) {
        ml_board *fb = NULL;
        ml_solver *fs = NULL;
        uint64_t null = 0;
        ml_factored ks;
        rc = full_solver(G, &fb, &fs);
        if (!rc)
            rc = ml_solver_nullity(ctx, fs, &null);
        if (!rc)
            rc = ml_solver_kernel_size(ctx, fs, &ks);
        uint64_t total = (uint64_t)locked + G->n_fixed_lock;
        if (!rc && is_prime(G->states) && null > total) {
            char k[64];
            ks_text(&ks, k, sizeof k);
            rc = ml__fail(ctx, ML_M_UNIQUE_NULLITY, (long long)G->rows, (long long)G->cols,
                          G->states, k, (unsigned long long)null, (unsigned long long)null,
                          (long long)total);
        }
        ml_solver_free(fs);
        ml_board_free(fb);
        if (rc)
            return rc;
    }
    uint64_t *freeidx = malloc((tiles + 1) * sizeof *freeidx);
    uint64_t *chosen = malloc((tiles + 1) * sizeof *chosen);
    uint8_t *lock = malloc(tiles), *hole = malloc(tiles);
    if (!freeidx || !chosen || !lock || !hole)
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_generate");
    uint64_t nfree = 0;
    for (size_t f = 0; !rc && f < tiles; f++)
        if (!G->fixed_lock[f] && !G->fixed_hole[f])
            freeidx[nfree++] = f;
    ml_board *best_b = NULL;
    ml_solver *best_s = NULL;
    ml_factored best_k;
    int done = 0;
    for (int t = 0; !rc && !done && t < tries; t++) {
        rc = ml_prng_sample(ctx, &G->g, nfree, (uint64_t)(locked + holes), chosen);
        if (rc)
            break;
        memcpy(lock, G->fixed_lock, tiles);
        memcpy(hole, G->fixed_hole, tiles);
        for (int64_t i = 0; i < locked + holes; i++)
            (i < locked ? lock : hole)[freeidx[chosen[i]]] = 1;
        ml_board *b = NULL;
        ml_solver *s = NULL;
        ml_factored ks;
        if ((rc = board_of(G, lock, hole, &b)))
            break;
        if (b->n_taps == 0) {
            ml_board_free(b);
            continue;
        }
        rc = ml_solver_new(ctx, b, "auto", &s);
        if (!rc)
            rc = ml_solver_kernel_size(ctx, s, &ks);
        if (!rc && (!unique || ks.count == 0)) {
            *board = b;
            *solver = s;
            done = 1;
        } else if (!rc && (!best_b || ks_less(&ks, &best_k))) {
            ml_solver_free(best_s);
            ml_board_free(best_b);
            best_b = b;
            best_s = s;
            best_k = ks;
        } else {
            ml_solver_free(s);
            ml_board_free(b);
        }
    }
    free(freeidx);
    free(chosen);
    free(lock);
    free(hole);
    ml_solver_free(best_s);
    ml_board_free(best_b);
    if (rc || done)
        return rc;
    if (!best_b)
        return ml__fail(ctx, ML_M_GENERATE_NO_TAPPABLE, (long long)G->rows, (long long)G->cols,
                        G->states);
    char k[64];
    ks_text(&best_k, k, sizeof k);
    if (locked + holes == 0)
        return ml__fail(ctx, ML_M_UNIQUE_NONE_ALLOWED, (long long)G->rows, (long long)G->cols,
                        G->states, k,
                        G->n_fixed_lock || G->n_fixed_hole
                            ? "no further locked tiles or holes were allowed"
                            : "no locked tiles or holes were allowed");
    return ml__fail(ctx, ML_M_UNIQUE_PLACEMENTS, tries, (long long)locked, (long long)holes,
                    (long long)G->rows, (long long)G->cols, G->states, k);
}

/* -------------------------------------------------------------- _changes_nothing */
typedef struct acc {
    uint32_t *count;
    uint64_t *touched;
    size_t nt;
} acc;

static void add_effect(void *arg, uint64_t cell, unsigned times)
{
    acc *a = arg;
    if (a->count[cell] == 0)
        a->touched[a->nt++] = cell;
    a->count[cell] += times;
}

/* A = 0 mod n: every (cell, tap) entry a multiple of n. *out 1 when so. */
static int changes_nothing(ml_ctx *ctx, const ml_board *b, int *out)
{
    acc a = {calloc(b->n_cells + 1, sizeof(uint32_t)), NULL, 0};
    size_t most = 0;
    for (uint64_t j = 0; j < b->n_taps; j++) {
        const ml__pattern *p = ml__board_tile(b, ml__board_tap_flat(b, j));
        most = p->count > most ? p->count : most;
    }
    a.touched = malloc((most + 1) * sizeof *a.touched);
    if (!a.count || !a.touched) {
        free(a.count);
        free(a.touched);
        return ml__fail(ctx, ML_M_NOMEM, "ml_generate");
    }
    *out = 1;
    for (uint64_t j = 0; j < b->n_taps && *out; j++) {
        a.nt = 0;
        ml__board_each_effect(b, j, add_effect, &a);
        for (size_t i = 0; i < a.nt; i++) {
            if (a.count[a.touched[i]] % (uint32_t)b->n)
                *out = 0;
            a.count[a.touched[i]] = 0;
        }
    }
    free(a.count);
    free(a.touched);
    return ML_OK;
}

/* -------------------------------------------------------------- _sample_start */
static int sample_start(gen *G, ml_board *b, ml_solver *s, int difficulty, ml_puzzle **out)
{
    ml_ctx *ctx = G->ctx;
    uint64_t T = b->n_taps, n = (uint64_t)b->n;
    int none = 0;
    int rc = changes_nothing(ctx, b, &none);
    if (rc)
        return rc;
    if (none)
        return ml__fail(ctx, ML_M_GENERATE_CHANGES_NOTHING, (long long)b->rows,
                        (long long)b->cols, b->n, b->n);
    uint64_t los[4], his[4];
    ml_tap_bands(T, b->n, los, his);
    uint64_t lo = los[difficulty], hi = his[difficulty];
    uint64_t most = T * (n - 1), half = (most + 1) / 2;
    uint64_t cap = most < (hi > half ? hi : half) ? most : (hi > half ? hi : half);
    size_t tiles = (size_t)(b->rows * b->cols);
    uint8_t *x = malloc(T + 1), *taps = calloc(tiles, 1), *zero = calloc(tiles, 1);
    uint8_t *start = malloc(tiles), *best_start = malloc(tiles);
    ml_result *best_r = NULL;
    uint64_t best_dist = 0, scale = 100;
    if (!x || !taps || !zero || !start || !best_start)
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_generate");
    for (int attempt = 0; !rc && attempt < SAMPLE_TRIES; attempt++) {
        ml_progress_report(ML_PHASE_GENERATE, (uint64_t)attempt, SAMPLE_TRIES);
        uint64_t want = lo + ml_prng_below(&G->g, hi - lo + 1);
        uint64_t length = (want * scale + 50) / 100;
        length = length < cap ? length : cap;
        length = length > 1 ? length : 1;
        memset(x, 0, T);
        for (uint64_t placed = 0; placed < length;) {
            uint64_t j = ml_prng_below(&G->g, T);
            if (x[j] < n - 1) {
                x[j]++;
                placed++;
            }
        }
        ml__tap_runs it;
        for (ml__tap_runs_init(&it, b); ml__tap_runs_next(&it);)
            memcpy(taps + it.f, x + it.j, (size_t)it.len);
        if ((rc = ml_board_apply(ctx, b, zero, taps, start)))
            break;
        int any = 0;
        for (size_t f = 0; f < tiles; f++) {
            start[f] = (uint8_t)((n - start[f]) % n);
            any |= start[f] != 0;
        }
        if (!any)
            continue;
        ml_result *r = NULL;
        if ((rc = ml__puzzle_min_solve(ctx, s, start, &r)))
            break;
        uint64_t m = ml_result_length(r);
        if (lo <= m && m <= hi) {
            ml_result_free(best_r);
            best_r = r;
            memcpy(best_start, start, tiles);
            best_dist = 0;
            break;
        }
        if (m < lo)
            scale = scale * 5 / 4 < 400 ? scale * 5 / 4 : 400;
        else
            scale = scale * 4 / 5 > 1 ? scale * 4 / 5 : 1;
        uint64_t dist = m < lo ? lo - m : m - hi;
        if (!best_r || dist < best_dist) {
            ml_result_free(best_r);
            best_r = r;
            best_dist = dist;
            memcpy(best_start, start, tiles);
        } else
            ml_result_free(r);
    }
    if (!rc && !best_r)
        rc = ml__fail(ctx, ML_M_GENERATE_NO_START);
    if (!rc && !(rc = ml__puzzle_make(ctx, b, best_start, out))) {
        ml__puzzle_set_measured(*out, best_r);
        best_r = NULL;
    }
    ml_result_free(best_r);
    free(x);
    free(taps);
    free(zero);
    free(start);
    free(best_start);
    return rc;
}

/* -------------------------------------------------------------- generate */
void ml_generate_opts_init(ml_generate_opts *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->size = sizeof *opts;
    opts->rows = opts->cols = 5;
    opts->states = 2;
    opts->pattern = "cross";
    opts->grid = NULL;
    opts->difficulty = ML_MEDIUM;
    opts->locked = opts->holes = -1;
    opts->wrap = 0;
    opts->unique = 1;
}

/* The rest of generate once the settings are read into G. */
static int generate(gen *G, const ml_generate_opts *o, ml_puzzle **out)
{
    ml_ctx *ctx = G->ctx;
    int64_t locked = o->locked < 0 ? 0 : o->locked, holes = o->holes < 0 ? 0 : o->holes;
    int auto_locks = o->unique && o->locked < 0 && o->holes < 0 && !G->n_fixed_lock && !G->n_fixed_hole;
    uint64_t free_tiles = (uint64_t)(G->rows * G->cols) - G->n_fixed_lock - G->n_fixed_hole;
    if ((uint64_t)locked >= free_tiles || (uint64_t)holes >= free_tiles - (uint64_t)locked)
        return ml__fail(ctx, ML_M_GENERATE_NO_TILE_LEFT, (long long)locked, (long long)holes,
                        (long long)G->rows, (long long)G->cols);
    uint64_t seed = o->seed;
    int rc = o->seeded ? ML_OK : ml_seed_random(ctx, &seed);
    if (rc)
        return rc;
    ml_prng_seed(&G->g, seed);
    ml_board *b = NULL;
    ml_solver *s = NULL;
    rc = place(G, locked, holes, o->unique != 0, &b, &s);
    if (rc && auto_locks && value_error(rc) && strstr(ml_errmsg(ctx), "unique")) {
        char first[ML_ERRMSG_MAX];
        snprintf(first, sizeof first, "%s", ml_errmsg(ctx));
        ml_board *fb = NULL;
        ml_solver *fs = NULL;
        uint64_t null = 0;
        rc = full_solver(G, &fb, &fs);
        if (!rc)
            rc = ml_solver_nullity(ctx, fs, &null);
        ml_solver_free(fs);
        ml_board_free(fb);
        if (rc)
            return rc;
        uint64_t lo = null > 1 ? null : 1, tiles = (uint64_t)(G->rows * G->cols);
        uint64_t top = tiles - 1 < lo + 3 ? tiles - 1 : lo + 3;
        rc = ML_EIMPOSSIBLE;
        for (uint64_t k = lo; k <= top; k++) {
            rc = place(G, (int64_t)k, 0, 1, &b, &s);
            if (!rc || !value_error(rc))
                break;
        }
        if (value_error(rc))
            rc = ml__fail(ctx, ML_M_UNIQUE_AUTO_LOCKS, first, (unsigned long long)lo,
                          (unsigned long long)(lo + 3));
    }
    if (!rc)
        rc = sample_start(G, b, s, o->difficulty, out);
    ml_solver_free(s);
    ml_board_free(b);
    return rc;
}

int ml_generate(ml_ctx *ctx, const ml_generate_opts *opts, ml_puzzle **out)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_generate";
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out");
    *out = NULL;
    if (!opts)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "opts");
    const ml_generate_opts *o = opts;
    if (o->size != sizeof *o)
        return ml__fail(ctx, ML_M_INT_RANGE, "ml_generate_opts.size", (long long)sizeof *o,
                        (long long)sizeof *o, (long long)o->size);
    if (o->difficulty < 0 || o->difficulty >= ML_DIFFICULTY_COUNT) {
        char d[32];
        snprintf(d, sizeof d, "%d", o->difficulty);
        return ml__fail(ctx, ML_M_DIFFICULTY, d);
    }
    gen G;
    memset(&G, 0, sizeof G);
    G.ctx = ctx;
    ml_board *tmpl = NULL;
    if (o->grid) {
        int rc = ml_grid_build(ctx, o->grid, &tmpl);
        if (rc)
            return rc;
        G.rows = tmpl->rows;
        G.cols = tmpl->cols;
        G.states = tmpl->n;
        G.wrap = tmpl->wrap || o->wrap;
        G.tmpl = tmpl;
    } else {
        G.rows = o->rows;
        G.cols = o->cols;
        G.states = o->states;
        G.wrap = o->wrap != 0;
        G.pattern = o->pattern ? o->pattern : "cross";
    }
    int rc = ML_OK;
    if (G.rows < 1)
        rc = ml__fail(ctx, ML_M_INT_MIN, "rows", 1LL, (long long)G.rows);
    else if (G.cols < 1)
        rc = ml__fail(ctx, ML_M_INT_MIN, "cols", 1LL, (long long)G.cols);
    else if (G.rows > MAX_SIDE || G.cols > MAX_SIDE || G.rows * G.cols > MAX_GENERATE_TILES)
        rc = ml__fail(ctx, ML_M_GENERATE_SIZE, MAX_GENERATE_TILES, MAX_SIDE, (long long)G.rows,
                      (long long)G.cols);
    else if (o->locked < -1)
        rc = ml__fail(ctx, ML_M_INT_MIN, "locked", 0LL, (long long)o->locked);
    else if (o->holes < -1)
        rc = ml__fail(ctx, ML_M_INT_MIN, "holes", 0LL, (long long)o->holes);
    size_t tiles = rc ? 0 : (size_t)(G.rows * G.cols);
    if (!rc) {
        G.fixed_lock = calloc(tiles, 1);
        G.fixed_hole = calloc(tiles, 1);
        if (!G.fixed_lock || !G.fixed_hole)
            rc = ml__fail(ctx, ML_M_NOMEM, fn);
    }
    for (size_t f = 0; !rc && tmpl && f < tiles; f++) {
        G.fixed_lock[f] = tmpl->locked && tmpl->locked[f];
        G.fixed_hole[f] = tmpl->holes && tmpl->holes[f];
        G.n_fixed_lock += G.fixed_lock[f];
        G.n_fixed_hole += G.fixed_hole[f];
    }
    if (!rc)
        rc = generate(&G, o, out);
    free(G.fixed_lock);
    free(G.fixed_hole);
    ml_board_free(tmpl);
    return rc;
}
