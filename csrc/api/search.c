/* search.c: the split search of one coset (modlights.h, "Split searches"): the exhaustive
 * minimal search of x0 + ker A cut into sub-cubes that workers run anywhere, as
 * search/minimal.py's coset_min and _run_sub_cubes do over an executor.
 *
 * ml_solver_search takes the engine's particular solution, the kernel's generators
 * (canonical when the solver made them so, x0 then reduced to its coset's canonical
 * representative, as minimise does) and sorts the generators by their non-zero
 * entries (the sparsest inside, cheap Gray steps; ties by index). ml_search_split fixes
 * the top generators until their cells number at least `want` (minimal._split); task t
 * is the sub-cube whose fixed coefficients are the mixed-radix digits of t (the lowest
 * fixed generator the lowest digit), walked by search/coset_batch.h's sub-cube search.
 *
 * The merge rule is _run_sub_cubes': the best is the least (length, corner), x0 standing
 * with corner `tasks` until a task reports; a task below the best's corner gets the best
 * length + 1 as its bound, one above it the best length, so whatever order tasks finish
 * in, the answer is the one the single-process search gives for this split: of the
 * shortest elements, the first in its walk of the lowest corner that holds one. A best
 * of length 0 ends the search (nothing is shorter; the rest counts as pruned).
 *
 * Export format (all integers little-endian): "MLSEARCH", u32 format (1), u32 ML_VERSION,
 * u32 n, u64 n_taps L, u64 generators k, u64 inner, x0 (L bytes), orders (k x u32),
 * generators (k x L bytes). A worker's copy has no board: it runs tasks, and the driver
 * that made the search merges and finishes. A search handle is used by one thread at a
 * time (a worker thread imports its own copy).
 *
 * A GF(2) kernel that minimal.py searches by the transform (search/cube_plan.h:
 * nullity ML_CUBE_MIN_NULLITY or more) is split as minimal._cube_on_executor does: the
 * plan (with the board's symmetries) made once, a task a range of `per` consecutive
 * corners (ml_search_split: per = ceil(corners / want)), walked on one thread; the same
 * merge rule, so the answer is the first least element in the walk's order, the one
 * ml_solver_solve gives. Its export is format 2: format 1's fields (inner holding
 * `per`, the generators the plan's rebased ones, low first), then u32 m (low
 * generators), u32 ng, ng x (k - m) u64 sym_mat, ng u64 sym_shift.
 *
 * A handle may instead hold a many-coset search (search_many.c, ml_solver_search_many):
 * free, split, bound, export, import and done pass it on; run, merge and finish refuse
 * it (ML_M_SEARCH_KIND). */
#include "api/board.h"
#include "api/ctx.h"
#include "api/search_impl.h"
#include "api/solver_impl.h"
#include "base/interrupt.h"
#include "dense/pack.h"
#include "search/canon.h"
#include "search/coset_batch.h"
#include "search/cube_plan.h"
#include "search/symmetry.h"

#include <stdlib.h>
#include <string.h>

#define SEARCH_MAGIC 0x6d6c7371u      /* "mlsq" */
#define EXPORT_FORMAT 1u
#define EXPORT_CUBE 2u                /* format 2: the transform search's plan */
#define SIZE_LIMIT ((uint64_t)1 << 62)
#define MAX_TASKS ML__SEARCH_MAX_TASKS /* ml_search_split's `want` is clamped to it */
#define HEAD_BYTES (8 + 4 + 4 + 4 + 8 + 8 + 8)
#define MAX_KERNEL_BYTES ((uint64_t)1 << 30) /* solve.c's: a certificate's kernel at most */

struct ml_search {
    uint32_t magic;
    ml_board *b;                /* NULL in a worker's copy */
    ml_factored ks;
    unsigned n;
    size_t L, k, inner;
    uint8_t *x0, *H;            /* L bytes; k x L bytes, sorted */
    uint32_t *orders;
    uint64_t tasks;             /* prod(orders[inner:]) */
    uint8_t *merged;            /* a byte a task */
    uint64_t left;              /* tasks not merged yet */
    uint8_t *best;              /* L bytes */
    int64_t best_len;
    uint64_t best_corner, examined, pruned;
    uint64_t *x0w, *Hw;         /* GF(2) bit rows, made by the first run */
    int cube;                   /* the transform search: tasks are ranges of corners */
    ml_cube_plan plan;
    uint64_t corners, per;      /* the plan's corners; corners per task */
    ml_many *many;              /* a many-coset search (then the fields above are unused) */
    uint64_t nsym;              /* the driver's: the plan's symmetries, for the proof: */
    uint64_t *sym_cells, *sym_taps; /* their images of cells and taps (as ml_result's) */
};

int ml__search_valid(const ml_search *q) { return q && q->magic == SEARCH_MAGIC; }

ml_many *ml__search_many(const ml_search *q) { return ml__search_valid(q) ? q->many : NULL; }

int ml__search_wrap(ml_ctx *ctx, ml_many *m, ml_search **out)
{
    ml_search *q = calloc(1, sizeof *q);
    if (!q) {
        ml__many_free(m);
        return ml__fail(ctx, ML_M_NOMEM, "ml_solver_search_many");
    }
    q->magic = SEARCH_MAGIC;
    q->many = m;
    *out = q;
    return ML_OK;
}

/* ML_M_SEARCH_KIND unless q is a one-coset search (fn: the call refusing it). */
static int one_coset(ml_ctx *ctx, const ml_search *q, const char *fn, const char *instead)
{
    return q->many ? ml__fail(ctx, ML_M_SEARCH_KIND, fn, "many-coset", instead) : ML_OK;
}

static int checked(ml_ctx *ctx, const ml_search *q, const char *fn)
{
    if (!q || q->magic != SEARCH_MAGIC)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "search");
    return ML_OK;
}

void ml_search_free(ml_search *q)
{
    if (!q || q->magic != SEARCH_MAGIC)
        return;
    q->magic = 0;
    ml__many_free(q->many);
    ml_board_free(q->b);
    free(q->x0);
    free(q->H);
    free(q->orders);
    free(q->merged);
    free(q->best);
    free(q->x0w);
    free(q->Hw);
    ml_cube_plan_free(&q->plan);
    free(q->sym_cells);
    free(q->sym_taps);
    free(q);
}

/* q's task table for `inner` inner generators; the best reset to x0. */
static int set_split(ml_ctx *ctx, ml_search *q, size_t inner)
{
    uint64_t cells = 1;
    for (size_t i = inner; i < q->k && !q->cube; i++)
        cells *= q->orders[i];   /* prod(orders) < 2^62: no overflow */
    if (q->cube) {               /* inner: corners per task */
        q->per = inner ? inner : 1;
        cells = q->corners / q->per + (q->corners % q->per != 0);
    }
    uint8_t *m = calloc(cells, 1);
    if (!m)
        return ml__fail(ctx, ML_M_NOMEM, "ml_search_split");
    free(q->merged);
    q->merged = m;
    q->inner = inner;
    q->tasks = q->left = cells;
    memcpy(q->best, q->x0, q->L);
    q->best_len = 0;
    for (size_t j = 0; j < q->L; j++)
        q->best_len += q->x0[j];
    q->best_corner = cells;
    q->examined = q->pruned = 0;
    return ML_OK;
}

/* A search over x0 (L bytes), H (k x L) and orders, copied; sorted when `sort`. */
static int make(ml_ctx *ctx, unsigned n, size_t L, size_t k, const uint8_t *x0,
                const uint8_t *H, const uint32_t *orders, int sort, ml_search **out)
{
    ml_search *q = calloc(1, sizeof *q);
    if (!q)
        return ml__fail(ctx, ML_M_NOMEM, "ml_solver_search");
    q->magic = SEARCH_MAGIC;
    q->n = n;
    q->L = L;
    q->k = k;
    q->x0 = malloc(L + 1);
    q->best = malloc(L + 1);
    q->H = k && L > SIZE_MAX / k ? NULL : malloc(k * L + 1);
    q->orders = malloc((k + 1) * sizeof *q->orders);
    size_t *idx = malloc((k + 1) * sizeof *idx), *nz = malloc((k + 1) * sizeof *nz);
    if (!q->x0 || !q->best || !q->H || !q->orders || !idx || !nz) {
        free(idx);
        free(nz);
        ml_search_free(q);
        return ml__fail(ctx, ML_M_NOMEM, "ml_solver_search");
    }
    memcpy(q->x0, x0, L);
    for (size_t i = 0; i < k; i++) {
        idx[i] = i;
        nz[i] = 0;
        for (size_t j = 0; j < L; j++)
            nz[i] += H[i * L + j] != 0;
    }
    /* sorted by (non-zero entries, index): insertion sort, stable, k < 63 usually */
    for (size_t i = 1; sort && i < k; i++)
        for (size_t j = i; j > 0 && nz[idx[j]] < nz[idx[j - 1]]; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    for (size_t i = 0; i < k; i++) {
        memcpy(q->H + i * L, H + idx[i] * L, L);
        q->orders[i] = orders[idx[i]];
    }
    free(idx);
    free(nz);
    int rc = set_split(ctx, q, k);
    if (rc) {
        ml_search_free(q);
        return rc;
    }
    *out = q;
    return ML_OK;
}

/* q (made over the plan's x0 and rebased generators) turned into the transform
 * search of plan p (taken over), one task of every corner. */
static int as_cube(ml_ctx *ctx, ml_search *q, ml_cube_plan *p)
{
    unsigned inner, plog;
    q->cube = 1;
    q->plan = *p;
    memset(p, 0, sizeof *p);
    ml_cube_plan_layout(&q->plan, &inner, &q->corners, &plog);
    return set_split(ctx, q, (size_t)q->corners);
}

/* The transform search of x + span(H) (GF(2), canonical x) with the board's symmetries. */
static int make_cube(ml_ctx *ctx, const ml_board *b, const uint8_t *x, const uint8_t *H,
                     size_t k, size_t L, ml_search **out)
{
    const char *fn = "ml_solver_search";
    ml_syms syms;
    memset(&syms, 0, sizeof syms);
    ml_cube_plan plan;
    memset(&plan, 0, sizeof plan);
    int rc = ml_symmetries(ctx, b, NULL, &syms);
    int got = rc ? ML_CUBE_OK : ml_cube_plan_make(x, H, k, L, syms.taps, (size_t)syms.k, &plan);
    /* the symmetries the plan uses, kept for the proof (as solve.c's cube_minimum) */
    uint64_t ng = rc || got ? 0 : plan.ng, nc = b->n_cells;
    uint64_t *cells = malloc(ng * nc * sizeof *cells + 1), *taps = malloc(ng * L * sizeof *taps + 1);
    if (!rc && (!cells || !taps))
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    for (uint64_t g = 0; !rc && g < ng; g++) {
        size_t u = plan.sym_used[g];
        memcpy(cells + g * nc, syms.cells + u * nc, nc * sizeof *cells);
        memcpy(taps + g * L, syms.taps + u * L, L * sizeof *taps);
    }
    ml_syms_free(&syms);
    if (!rc && got)
        rc = got == ML_CUBE_ENOMEM ? ml__fail(ctx, ML_M_NOMEM, fn)
                                   : ml__fail(ctx, ML_M_INTERNAL, fn,
                                              "the transform search refused its plan");
    uint32_t *two = rc ? NULL : malloc((k + 1) * sizeof *two);
    if (!rc && !two)
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    for (size_t i = 0; !rc && i < k; i++)
        two[i] = 2;
    if (!rc)
        rc = make(ctx, 2, L, k, plan.x0, plan.gens, two, 0, out);
    if (!rc) {
        rc = as_cube(ctx, *out, &plan);
        if (rc) {
            ml_search_free(*out);
            *out = NULL;
        } else {
            (*out)->nsym = ng;
            (*out)->sym_cells = cells;
            (*out)->sym_taps = taps;
            cells = taps = NULL;
        }
    }
    free(cells);
    free(taps);
    free(two);
    ml_cube_plan_free(&plan);
    return rc;
}

int ml_solver_search(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                     ml_search **out)
{
    const char *fn = "ml_solver_search";
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    if (!out)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out"));
    *out = NULL;
    int rc = ml__solver_take(ctx, s, fn);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    if (!state)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "state");
    const ml_board *b = ml_solver_board(s);
    size_t L = (size_t)b->n_taps;
    unsigned n = (unsigned)b->n;
    uint8_t *x = rc ? NULL : malloc(L + 1), ok = 0;
    if (!rc && !x)
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    if (!rc)
        rc = ml__solver_solve_rows(ctx, s, 1, state, target, x, &ok);
    if (!rc && !ok)
        rc = ml__fail(ctx, ML_M_UNSOLVABLE);
    ml_factored ks;
    if (!rc)
        rc = ml__solver_kernel_size(ctx, s, &ks);
    const uint8_t *H = NULL;
    const uint32_t *orders = NULL;
    uint64_t k = 0;
    int canonical = 0;
    if (!rc)
        rc = ml__search_generators(ctx, s, &H, &orders, &k, &canonical);
    if (!rc && canonical && k && L && ml_canon_reduce(H, (size_t)k, L, n, x, 1) != 0)
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    ml_search *q = NULL;
    if (!rc && ml_cube_applies(n, L, (size_t)k, orders, UINT64_MAX))
        rc = make_cube(ctx, b, x, H, (size_t)k, L, &q);
    else if (!rc)
        rc = make(ctx, n, L, (size_t)k, x, H, orders, 1, &q);
    if (!rc) {
        q->b = ml_board_retain((ml_board *)b);
        q->ks = ks;
        *out = q;
    }
    free(x);
    ml__solver_give(s);
    return ml__leave(ctx, &sc, rc);
}

int ml_search_split(ml_ctx *ctx, ml_search *q, uint64_t want, uint64_t *tasks)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = checked(ctx, q, "ml_search_split");
    if (!rc && !tasks)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_search_split", "tasks");
    if (!rc && q->many) {
        rc = ml__many_split(ctx, q->many, want, tasks);
        return ml__leave(ctx, &sc, rc);
    }
    if (!rc && q->cube) {   /* ranges of ceil(corners / want) corners */
        want = want < 1 ? 1 : want > MAX_TASKS ? MAX_TASKS : want;
        rc = set_split(ctx, q, (size_t)(q->corners / want + (q->corners % want != 0)));
    } else if (!rc) {
        want = want < 1 ? 1 : want > MAX_TASKS ? MAX_TASKS : want;
        size_t inner = q->k;
        uint64_t cells = 1;
        while (inner > 0 && cells < want)
            cells *= q->orders[--inner];
        rc = set_split(ctx, q, inner);
    }
    if (!rc)
        *tasks = q->tasks;
    return ml__leave(ctx, &sc, rc);
}

static int task_ok(ml_ctx *ctx, const ml_search *q, uint64_t t)
{
    uint64_t tasks = q->many ? ml__many_tasks(q->many) : q->tasks;
    return t < tasks ? ML_OK
                     : ml__fail(ctx, ML_M_SEARCH_TASK, (unsigned long long)t,
                                (unsigned long long)tasks);
}

int ml_search_bound(ml_ctx *ctx, const ml_search *q, uint64_t t, int64_t *bound)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = checked(ctx, q, "ml_search_bound");
    if (!rc && !bound)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_search_bound", "bound");
    if (!rc)
        rc = task_ok(ctx, q, t);
    if (!rc)   /* a many-coset search's tasks take no bound */
        *bound = q->many ? (int64_t)1 << 62
                 : t < q->best_corner ? q->best_len + 1 : q->best_len;
    return ml__leave(ctx, &sc, rc);
}

int ml__search_generators(ml_ctx *ctx, ml_solver *s, const uint8_t **H,
                          const uint32_t **orders, uint64_t *k, int *canonical)
{
    int rc = ml__solver_generators(ctx, s, H, orders, k, canonical);
    uint64_t size = 1;
    for (uint64_t i = 0; !rc && i < *k; i++) {
        if (size >= SIZE_LIMIT / (*orders)[i])
            return ml__fail(ctx, ML_M_COSET_TOO_LARGE);
        size *= (*orders)[i];
    }
    return rc;
}

/* -- export / import (search_impl.h's put / get: little-endian integers) */

static size_t export_size(const ml_search *q)
{
    size_t n = HEAD_BYTES + q->L + 4 * q->k + q->k * q->L;
    if (q->cube)
        n += 8 + 8 * (size_t)q->plan.ng * (q->plan.kh + 1);
    return n;
}

int ml_search_export(ml_ctx *ctx, const ml_search *q, uint8_t *buf, size_t cap, size_t *len)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = checked(ctx, q, "ml_search_export");
    if (!rc && !len)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_search_export", "len");
    if (rc)
        return ml__leave(ctx, &sc, rc);
    size_t need = q->many ? ml__many_export_size(q->many) : export_size(q);
    *len = need;
    if (buf && cap >= need && q->many)
        ml__many_export(q->many, buf);
    else if (buf && cap >= need) {
        uint8_t *p = buf;
        memcpy(p, "MLSEARCH", 8);
        p = put(p + 8, q->cube ? EXPORT_CUBE : EXPORT_FORMAT, 4);
        p = put(p, ML_VERSION, 4);
        p = put(p, q->n, 4);
        p = put(p, q->L, 8);
        p = put(p, q->k, 8);
        p = put(p, q->inner, 8);
        memcpy(p, q->x0, q->L);
        p += q->L;
        for (size_t i = 0; i < q->k; i++)
            p = put(p, q->orders[i], 4);
        if (q->k && q->L)
            memcpy(p, q->H, q->k * q->L);
        p += q->k * q->L;
        if (q->cube) {
            const ml_cube_plan *c = &q->plan;
            p = put(p, c->m, 4);
            p = put(p, c->ng, 4);
            for (size_t i = 0; i < (size_t)c->ng * c->kh; i++)
                p = put(p, c->sym_mat[i], 8);
            for (size_t g = 0; g < c->ng; g++)
                p = put(p, c->sym_shift[g], 8);
        }
    }
    return ml__leave(ctx, &sc, ML_OK);
}

static int bad_export(ml_ctx *ctx, uint64_t format, uint64_t version)
{
    return ml__fail(ctx, ML_M_SEARCH_EXPORT, ML_VERSION_STRING, (unsigned)format,
                    (unsigned)version);
}

int ml_search_import(ml_ctx *ctx, const uint8_t *buf, size_t len, ml_search **out)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    if (!out || (!buf && len))
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_search_import",
                                            !out ? "out" : "buf"));
    *out = NULL;
    if (len < HEAD_BYTES || memcmp(buf, "MLSEARCH", 8) != 0)
        return ml__leave(ctx, &sc, bad_export(ctx, 0, 0));
    const uint8_t *p = buf + 8;
    uint64_t format = get(&p, 4), version = get(&p, 4), n = get(&p, 4);
    if (format == ML__SEARCH_EXPORT_MANY) {
        ml_many *m = NULL;
        int rc = ml__many_import(ctx, buf, len, &m);
        if (!rc)
            rc = ml__search_wrap(ctx, m, out);
        return ml__leave(ctx, &sc, rc);
    }
    uint64_t L = get(&p, 8), k = get(&p, 8), inner = get(&p, 8);
    /* every size checked against the bytes there are before anything is allocated */
    int cube = format == EXPORT_CUBE;
    int fits = (format == EXPORT_FORMAT || cube) && version == ML_VERSION && n >= 2 &&
               n <= 255 && (cube ? n == 2 && inner >= 1 : inner <= k) && k <= len && L <= len;
    uint64_t m = 0, ng = 0, body = 0;
    if (fits) {
        uint64_t rest = len - HEAD_BYTES;
        fits = L <= rest && 4 * k <= rest - L && (L == 0 || k <= (rest - L - 4 * k) / L);
        body = fits ? L + 4 * k + k * L : 0;
        if (fits && !cube)
            fits = body == rest;
        if (fits && cube) {   /* m, ng, then ng x (k - m + 1) words */
            fits = rest - body >= 8 && k <= ML_CUBE_MAX_NULLITY && L <= ML_CUBE_MAX_TAPS;
            if (fits) {
                const uint8_t *e = p + body;
                m = get(&e, 4);
                ng = get(&e, 4);
                fits = m <= k && m <= ML_CUBE_MAX_LOW && k - m <= 63 && ng <= ML_CUBE_MAX_MAPS &&
                       rest - body - 8 == 8 * ng * (k - m + 1);
            }
            if (fits) {   /* at most MAX_TASKS tasks of `inner` corners */
                uint64_t kh = k - m, in = kh < ML_CUBE_CORNER_LOG ? kh : ML_CUBE_CORNER_LOG;
                uint64_t corners = (uint64_t)1 << (kh - in);
                fits = corners / inner + (corners % inner != 0) <= MAX_TASKS;
            }
        }
    }
    if (!fits)
        return ml__leave(ctx, &sc, bad_export(ctx, format, version));
    const uint8_t *x0 = p, *ord = p + L, *H = ord + 4 * k;
    uint32_t *orders = malloc((k + 1) * sizeof *orders);
    uint64_t *words = cube ? malloc((ng * (k - m + 1) + 1) * sizeof *words) : NULL;
    if (!orders || (cube && !words)) {
        free(orders);
        free(words);
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, "ml_search_import"));
    }
    uint64_t size = 1;
    int ok = 1;
    for (uint64_t i = 0; i < k && ok; i++) {
        const uint8_t *o = ord + 4 * i;
        orders[i] = (uint32_t)get(&o, 4);
        ok = orders[i] >= 2 && orders[i] <= n && n % orders[i] == 0 &&
             size < SIZE_LIMIT / orders[i];
        size *= ok ? orders[i] : 1;
    }
    for (uint64_t j = 0; j < L && ok; j++)
        ok = x0[j] < n;
    for (uint64_t j = 0; j < k * L && ok; j++)
        ok = H[j] < n;
    const uint8_t *e = p + body + 8;
    for (uint64_t i = 0; cube && i < ng * (k - m + 1); i++)
        words[i] = get(&e, 8);
    ml_cube_plan plan;
    memset(&plan, 0, sizeof plan);
    int got = ok && cube ? ml_cube_plan_load(x0, H, (size_t)k, (size_t)L, (unsigned)m, words,
                                             words + ng * (k - m), (size_t)ng, &plan)
                         : ML_CUBE_OK;
    if (got == ML_CUBE_EINVAL)
        ok = 0;
    int rc = !ok ? bad_export(ctx, format, version)
             : got ? ml__fail(ctx, ML_M_NOMEM, "ml_search_import")
                   : make(ctx, (unsigned)n, (size_t)L, (size_t)k, x0, H, orders, 0, out);
    free(orders);
    free(words);
    if (!rc && cube)
        rc = as_cube(ctx, *out, &plan);
    if (!rc)
        rc = set_split(ctx, *out, (size_t)inner);
    if (rc && *out) {
        ml_search_free(*out);
        *out = NULL;
    }
    ml_cube_plan_free(&plan);
    return ml__leave(ctx, &sc, rc);
}

/* -- tasks */
static int packed(ml_ctx *ctx, ml_search *q)
{
    if (q->x0w)
        return ML_OK;
    size_t nw = ml_words(q->L) ? ml_words(q->L) : 1;
    q->x0w = calloc(nw, sizeof *q->x0w);
    q->Hw = calloc((q->k ? q->k : 1) * nw, sizeof *q->Hw);
    if (!q->x0w || !q->Hw) {
        free(q->x0w);
        free(q->Hw);
        q->x0w = q->Hw = NULL;
        return ml__fail(ctx, ML_M_NOMEM, "ml_search_run");
    }
    ml_pack_bits(q->x0, 1, q->L, q->L, q->x0w, nw);
    if (q->k)
        ml_pack_bits(q->H, q->k, q->L, q->L, q->Hw, nw);
    return ML_OK;
}

int ml_search_run(ml_ctx *ctx, ml_search *q, uint64_t t, int64_t bound, ml_task_result *res,
                  uint8_t *best)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = checked(ctx, q, "ml_search_run");
    if (!rc)
        rc = one_coset(ctx, q, "ml_search_run", "ml_search_run_rows");
    if (!rc && (!res || !best))
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_search_run", !res ? "res" : "best");
    if (!rc)
        rc = task_ok(ctx, q, t);
    if (!rc && q->n == 2 && !q->cube)
        rc = packed(ctx, q);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    memset(res, 0, sizeof *res);
    if (bound > ((int64_t)1 << 62))
        bound = (int64_t)1 << 62;
    if (q->cube) {   /* corners [t per, (t + 1) per) on one thread */
        const ml_cube_plan *c = &q->plan;
        unsigned inner, plog;
        uint64_t corners;
        ml_cube_plan_layout(c, &inner, &corners, &plog);
        uint64_t a = t * q->per, e = corners - a < q->per ? corners : a + q->per;
        uint64_t *cs = malloc((size_t)(e - a) * sizeof *cs + 8);
        if (!cs)
            return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, "ml_search_run"));
        for (uint64_t i = a; i < e; i++)
            cs[i - a] = i << inner;
        uint64_t hi = 0;
        uint32_t lo = 0;
        ml_cube_stats st;
        int64_t length = ml_cube_min_gf2(&c->P, c->kh - inner, cs, (size_t)(e - a), bound, 0.0,
                                         1, &hi, &lo, &st);
        free(cs);
        if (ml_interrupt_stopped())
            return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_INTERRUPTED));
        if (length < 0)
            return ml__leave(ctx, &sc, length == -1 ? ml__fail(ctx, ML_M_NOMEM, "ml_search_run")
                                       : ml__fail(ctx, ML_M_INTERNAL, "ml_search_run",
                                                  "the transform search refused its task"));
        res->found = length < bound;
        if (res->found)
            ml_cube_plan_element(c, hi, lo, best);
        res->complete = st.complete;
        res->length = res->found ? length : bound;
        res->examined = st.leaves << c->m;
        res->pruned = st.skipped << c->m;
        return ml__leave(ctx, &sc, ML_OK);
    }
    ml_coset_stats st;
    memset(&st, 0, sizeof st);
    int64_t length;
    if (q->n == 2) {
        size_t nw = ml_words(q->L) ? ml_words(q->L) : 1;
        uint64_t *bw = calloc(nw, sizeof *bw);
        if (!bw)
            return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, "ml_search_run"));
        length = ml_coset_sub_gf2(q->x0w, q->Hw, q->k, nw, q->inner, t, bound, bw, &st);
        if (length >= 0 && length < bound)
            ml_unpack_bits(bw, 1, q->L, nw, best, q->L);
        free(bw);
    } else {
        static const uint32_t one = 2;
        uint8_t zero = 0;
        length = ml_coset_sub_zn(q->L ? q->x0 : &zero, q->k && q->L ? q->H : &zero,
                                 q->k ? q->orders : &one, q->k, q->L, q->n, q->inner, t,
                                 bound, best, &st);
    }
    if (ml_interrupt_stopped())
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_INTERRUPTED));
    if (length < 0)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, "ml_search_run"));
    res->found = length < bound;
    res->complete = st.complete;
    res->length = res->found ? length : bound;
    res->examined = st.examined;
    res->pruned = st.pruned;
    return ml__leave(ctx, &sc, ML_OK);
}

int ml_search_merge(ml_ctx *ctx, ml_search *q, uint64_t t, const ml_task_result *res,
                    const uint8_t *best)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = checked(ctx, q, "ml_search_merge");
    if (!rc)
        rc = one_coset(ctx, q, "ml_search_merge", "ml_search_merge_rows");
    if (!rc && (!res || (res->found && !best)))
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_search_merge", !res ? "res" : "best");
    if (!rc)
        rc = task_ok(ctx, q, t);
    if (!rc && q->merged[t])
        rc = ml__fail(ctx, ML_M_SEARCH_TASK, (unsigned long long)t,
                      (unsigned long long)q->tasks);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    q->merged[t] = 1;
    q->left--;
    q->examined += res->examined;
    q->pruned += res->pruned;
    if (res->found && res->length >= 0 &&
        (res->length < q->best_len || (res->length == q->best_len && t < q->best_corner))) {
        memcpy(q->best, best, q->L);
        q->best_len = res->length;
        q->best_corner = t;
    }
    return ml__leave(ctx, &sc, ML_OK);
}

int ml_search_done(const ml_search *q)
{
    if (!ml__search_valid(q))
        return 0;
    return q->many ? ml__many_done(q->many) : q->left == 0 || q->best_len == 0;
}

int ml_search_finish(ml_ctx *ctx, ml_search *q, ml_result **out)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = checked(ctx, q, "ml_search_finish");
    if (!rc)
        rc = one_coset(ctx, q, "ml_search_finish", "ml_search_lengths and ml_search_proven");
    if (!rc && !out)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_search_finish", "out");
    if (!rc && !q->b)   /* a worker's copy has no board to answer for */
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_search_finish",
                      "the search made by ml_solver_search (not an imported copy)");
    if (rc)
        return ml__leave(ctx, &sc, rc);
    *out = NULL;
    int done = ml_search_done(q);
    uint64_t total = 1;   /* < 2^62 */
    for (size_t i = 0; i < q->k; i++)
        total *= q->orders[i];
    ml_result *r = calloc(1, sizeof *r);
    uint64_t size = ml_board_taps_size(q->b);
    if (r)
        r->taps = calloc(size + 1, 1);
    if (!r || !r->taps) {
        free(r);
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, "ml_search_finish"));
    }
    ml__tap_runs it;
    for (ml__tap_runs_init(&it, q->b); ml__tap_runs_next(&it);)
        memcpy(r->taps + it.f, q->best + it.j, (size_t)it.len);
    r->magic = ML__RESULT_MAGIC;
    r->b = ml_board_retain(q->b);
    r->length = (uint64_t)q->best_len;
    r->kernel_size = q->ks;
    r->searched = 1;
    r->proven = done;
    r->examined = q->examined;
    /* a best of length 0 ends the search: the rest of the coset counts as pruned (the
     * transform search's: the leaves skipped by symmetry only, as _cube_on_executor) */
    r->pruned = done && q->best_len == 0 && q->left && !q->cube ? total - q->examined
                                                                : q->pruned;
    r->proof = !done ? ML__PROOF_NONE
               : q->best_len == 0 ? ML__PROOF_TREE0
               : q->cube ? ML__PROOF_CUBE : ML__PROOF_ENUMERATION;
    /* the proof kept as ml_solver_solve's with ML_SOLVE_PROOF: the searched generators
     * (the transform search's rebased ones and the symmetries it used) when they fit
     * the certificate's limit (MAX_KERNEL_BYTES, Solver.solve's) */
    r->kept = done && total > 1;
    int rc2 = ML_OK;
    if (r->kept && q->k && (uint64_t)q->k * (q->L ? q->L : 1) <= MAX_KERNEL_BYTES) {
        r->gens = malloc(q->k * q->L + 1);
        r->gen_orders = malloc(q->k * sizeof *r->gen_orders);
        int cube = q->cube && q->best_len > 0;
        uint64_t nc = q->b->n_cells;
        if (cube && q->nsym) {
            r->sym_cells = malloc(q->nsym * nc * sizeof *r->sym_cells + 1);
            r->sym_taps = malloc(q->nsym * q->L * sizeof *r->sym_taps + 1);
        }
        if (!r->gens || !r->gen_orders || (cube && q->nsym && (!r->sym_cells || !r->sym_taps)))
            rc2 = ml__fail(ctx, ML_M_NOMEM, "ml_search_finish");
        if (!rc2) {
            if (q->L)
                memcpy(r->gens, q->H, q->k * q->L);
            memcpy(r->gen_orders, q->orders, q->k * sizeof *r->gen_orders);
            r->ngens = q->k;
        }
        if (!rc2 && cube) {
            r->leaf_dim = q->plan.m;
            r->nsyms = q->nsym;
            if (q->nsym) {
                memcpy(r->sym_cells, q->sym_cells, q->nsym * nc * sizeof *r->sym_cells);
                memcpy(r->sym_taps, q->sym_taps, q->nsym * q->L * sizeof *r->sym_taps);
            }
        }
    }
    if (rc2) {
        ml_result_free(r);
        return ml__leave(ctx, &sc, rc2);
    }
    *out = r;
    return ml__leave(ctx, &sc, ML_OK);
}
