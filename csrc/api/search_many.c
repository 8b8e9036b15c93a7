/* search_many.c: the split search of many cosets of one kernel (modlights.h, "many-coset
 * searches"): solver_batch.py's min_taps_many / solve_many(minimal=True) over an
 * executor, i.e. search/minimal.py's min_lengths_many cutting the rows into tasks.
 *
 * ml_solver_search_many takes the engine's particular solutions of the k states, keeps
 * the m solvable ones (an unsolvable state answers -1, proved, zero taps), reduces them
 * to their cosets' canonical representatives when the solver's generators are
 * canonical (as minimal.min_many does) and keeps the generators in the solver's order.
 * Task t of T is rows [start(t), start(t + 1)) of the m, start(t) = t floor(m / T) +
 * min(t, m mod T) (balanced; T at most max(m, 1)); a task runs search/coset_batch.h's
 * batch search on one thread (min_lengths_many's executor tasks: threads=1), whose
 * answer for a row depends on that row and the kernel alone, so the lengths and the
 * least-length elements are the same whatever the split and the order tasks finish in.
 * No bounds, no counts (min_lengths_many gives none).
 *
 * Export format 3 (little-endian): "MLSEARCH", u32 format (3), u32 ML_VERSION, u32 n,
 * u64 n_taps L, u64 generators g, u64 tasks T, u64 rows m, orders (g x u32),
 * generators (g x L bytes), the representatives (m x max(L, 1) bytes: a row of a board
 * without taps is one zero byte, so the bytes bound m). A worker's copy has no board: it
 * runs tasks; the driver merges and answers. */
#include "api/board.h"
#include "api/ctx.h"
#include "api/search_impl.h"
#include "api/solver_impl.h"
#include "base/interrupt.h"
#include "dense/pack.h"
#include "search/canon.h"
#include "search/coset_batch.h"

#include <stdlib.h>
#include <string.h>

#define SIZE_LIMIT ((uint64_t)1 << 62)
#define HEAD_BYTES (8 + 4 + 4 + 4 + 8 + 8 + 8 + 8)

struct ml_many {
    ml_board *b;          /* NULL in a worker's copy */
    unsigned n;
    size_t L, g, m;       /* taps, generators, solvable rows */
    size_t k;             /* the states given (driver) */
    uint8_t *ok;          /* k: solvable (driver) */
    uint8_t *X, *H;       /* m x L representatives; g x L generators */
    uint32_t *orders;
    uint64_t *Hw;         /* GF(2) packed generators, made by the first run */
    uint64_t tasks, left, notaps;
    uint8_t *merged;      /* a byte a task: 0, 1 merged, 2 merged without taps */
    int64_t *len;         /* m: the rows' lengths (the representatives' until merged) */
    uint8_t *best;        /* m x L */
};

void ml__many_free(ml_many *m)
{
    if (!m)
        return;
    ml_board_free(m->b);
    free(m->ok);
    free(m->X);
    free(m->H);
    free(m->orders);
    free(m->Hw);
    free(m->merged);
    free(m->len);
    free(m->best);
    free(m);
}

uint64_t ml__many_tasks(const ml_many *m) { return m->tasks; }

int ml__many_done(const ml_many *m) { return m->left == 0; }

static uint64_t start(const ml_many *m, uint64_t t)
{
    uint64_t base = m->m / m->tasks, rem = m->m % m->tasks;
    return t * base + (t < rem ? t : rem);
}

/* T tasks (clamped to 1..max(m, 1)); every row back to its representative. */
static int set_tasks(ml_ctx *ctx, ml_many *m, uint64_t want, const char *fn)
{
    uint64_t most = m->m > 1 ? m->m : 1;
    if (most > ML__SEARCH_MAX_TASKS)
        most = ML__SEARCH_MAX_TASKS;
    want = want < 1 ? 1 : want > most ? most : want;
    uint8_t *mg = calloc(want, 1);
    if (!mg)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    free(m->merged);
    m->merged = mg;
    m->tasks = m->left = want;
    m->notaps = 0;
    if (m->L)
        memcpy(m->best, m->X, m->m * m->L);
    for (size_t i = 0; i < m->m; i++) {
        int64_t t = 0;
        for (size_t j = 0; j < m->L; j++)
            t += m->X[i * m->L + j];
        m->len[i] = t;
    }
    return ML_OK;
}

int ml__many_split(ml_ctx *ctx, ml_many *m, uint64_t want, uint64_t *tasks)
{
    int rc = set_tasks(ctx, m, want, "ml_search_split");
    if (!rc)
        *tasks = m->tasks;
    return rc;
}

/* A search of m rows X (m x L), g generators H with orders, copied; one task. */
static int make(ml_ctx *ctx, unsigned n, size_t L, size_t g, size_t rows, const uint8_t *X,
                const uint8_t *H, const uint32_t *orders, ml_many **out, const char *fn)
{
    ml_many *m = calloc(1, sizeof *m);
    if (!m)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    m->n = n;
    m->L = L;
    m->g = g;
    m->m = rows;
    int big = (g && L > SIZE_MAX / g) || (rows && L > SIZE_MAX / 2 / rows);
    m->X = big ? NULL : malloc(rows * L + 1);
    m->best = big ? NULL : malloc(rows * L + 1);
    m->H = big ? NULL : malloc(g * L + 1);
    m->orders = malloc((g + 1) * sizeof *m->orders);
    m->len = rows > SIZE_MAX / 16 ? NULL : malloc((rows + 1) * sizeof *m->len);
    if (!m->X || !m->best || !m->H || !m->orders || !m->len) {
        ml__many_free(m);
        return ml__fail(ctx, ML_M_NOMEM, fn);
    }
    if (rows && L)
        memcpy(m->X, X, rows * L);
    if (g && L)
        memcpy(m->H, H, g * L);
    if (g)
        memcpy(m->orders, orders, g * sizeof *orders);
    int rc = set_tasks(ctx, m, 1, fn);
    if (rc) {
        ml__many_free(m);
        return rc;
    }
    *out = m;
    return ML_OK;
}

int ml_solver_search_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                          ml_target target, ml_search **out)
{
    const char *fn = "ml_solver_search_many";
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    if (!out)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "out"));
    *out = NULL;
    int rc = ml__solver_take(ctx, s, fn);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    if (!states && k)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "states");
    const ml_board *b = ml_solver_board(s);
    size_t L = (size_t)b->n_taps;
    unsigned n = (unsigned)b->n;
    uint8_t *X = !rc && (!k || L <= SIZE_MAX / k) ? malloc(k * L + 1) : NULL;
    uint8_t *ok = malloc(k + 1);
    if (!rc && (!X || !ok))
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    if (!rc) {
        memset(ok, 0, k);
        rc = ml__solver_solve_rows(ctx, s, k, states, target, X, ok);
    }
    const uint8_t *H = NULL;
    const uint32_t *orders = NULL;
    uint64_t g = 0;
    int canonical = 0;
    if (!rc)
        rc = ml__search_generators(ctx, s, &H, &orders, &g, &canonical);
    size_t rows = 0;
    for (size_t i = 0; !rc && i < k; i++) {   /* the solvable rows, in order */
        ok[i] = ok[i] != 0;
        if (ok[i] && rows != i && L)
            memcpy(X + rows * L, X + i * L, L);
        rows += ok[i];
    }
    if (!rc && canonical && g && L && rows && ml_canon_reduce(H, (size_t)g, L, n, X, rows))
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    ml_many *m = NULL;
    if (!rc)
        rc = make(ctx, n, L, (size_t)g, rows, X, H, orders, &m, fn);
    if (!rc) {
        m->b = ml_board_retain((ml_board *)b);
        m->k = k;
        m->ok = ok;
        ok = NULL;
        rc = ml__search_wrap(ctx, m, out);
    }
    free(X);
    free(ok);
    ml__solver_give(s);
    return ml__leave(ctx, &sc, rc);
}

/* -- export / import (search_impl.h's put / get: little-endian integers) */

size_t ml__many_export_size(const ml_many *m)
{
    return HEAD_BYTES + 4 * m->g + m->g * m->L + m->m * (m->L ? m->L : 1);
}

void ml__many_export(const ml_many *m, uint8_t *p)
{
    memcpy(p, "MLSEARCH", 8);
    p = put(p + 8, ML__SEARCH_EXPORT_MANY, 4);
    p = put(p, ML_VERSION, 4);
    p = put(p, m->n, 4);
    p = put(p, m->L, 8);
    p = put(p, m->g, 8);
    p = put(p, m->tasks, 8);
    p = put(p, m->m, 8);
    for (size_t i = 0; i < m->g; i++)
        p = put(p, m->orders[i], 4);
    if (m->g && m->L)
        memcpy(p, m->H, m->g * m->L);
    p += m->g * m->L;
    if (m->m && m->L)
        memcpy(p, m->X, m->m * m->L);
    else if (m->m)   /* a board without taps: a zero byte a row */
        memset(p, 0, m->m);
}

int ml__many_import(ml_ctx *ctx, const uint8_t *buf, size_t len, ml_many **out)
{
    const char *fn = "ml_search_import";
    *out = NULL;
    const uint8_t *p = buf + 8;
    uint64_t format = len >= HEAD_BYTES ? get(&p, 4) : 0, version = 0, n = 0, L = 0, g = 0;
    uint64_t tasks = 0, rows = 0;
    if (len >= HEAD_BYTES) {
        version = get(&p, 4);
        n = get(&p, 4);
        L = get(&p, 8);
        g = get(&p, 8);
        tasks = get(&p, 8);
        rows = get(&p, 8);
    }
    /* every size checked against the bytes there are before anything is allocated */
    uint64_t rest = len >= HEAD_BYTES ? len - HEAD_BYTES : 0;
    int fits = len >= HEAD_BYTES && format == ML__SEARCH_EXPORT_MANY && version == ML_VERSION &&
               n >= 2 && n <= 255 && g <= 64 && 4 * g <= rest && L <= ((uint64_t)1 << 40);
    uint64_t stride = L ? L : 1;   /* a row's bytes */
    if (fits) {
        uint64_t body = rest - 4 * g;   /* g L + rows stride bytes */
        fits = (L == 0 || g <= body / L) && rows <= (body - g * L) / stride &&
               body == g * L + rows * stride;
    }
    uint64_t most = rows > 1 ? rows : 1;
    fits = fits && tasks >= 1 && tasks <= most && tasks <= ML__SEARCH_MAX_TASKS;
    /* the pointers made once the sizes fit the bytes */
    const uint8_t *ord = p, *H = fits ? ord + 4 * g : p, *X = fits ? H + g * L : p;
    uint32_t orders[64];
    uint64_t size = 1;
    for (uint64_t i = 0; fits && i < g; i++) {
        const uint8_t *o = ord + 4 * i;
        orders[i] = (uint32_t)get(&o, 4);
        fits = orders[i] >= 2 && orders[i] <= n && n % orders[i] == 0 &&
               size < SIZE_LIMIT / orders[i];
        size *= fits ? orders[i] : 1;
    }
    for (uint64_t j = 0; fits && j < g * L; j++)
        fits = H[j] < n;
    for (uint64_t j = 0; fits && j < rows * stride; j++)
        fits = L ? X[j] < n : X[j] == 0;
    if (!fits)
        return ml__fail(ctx, ML_M_SEARCH_EXPORT, ML_VERSION_STRING, (unsigned)format,
                        (unsigned)version);
    int rc = make(ctx, (unsigned)n, (size_t)L, (size_t)g, (size_t)rows, X, H, orders, out, fn);
    if (!rc) {
        rc = set_tasks(ctx, *out, tasks, fn);
        if (rc) {
            ml__many_free(*out);
            *out = NULL;
        }
    }
    return rc;
}

/* -- tasks */
/* q's many-coset search, or the failure (fn: the call; NULL argument or one coset). */
static ml_many *many_of(ml_ctx *ctx, const ml_search *q, const char *fn, int *rc)
{
    ml_many *m = ml__search_many(q);
    if (!m)
        *rc = !ml__search_valid(q) ? ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "search")
                                   : ml__fail(ctx, ML_M_SEARCH_KIND, fn, "one-coset",
                                              "ml_search_run, ml_search_merge and "
                                              "ml_search_finish");
    return m;
}

static int task_ok(ml_ctx *ctx, const ml_many *m, uint64_t t)
{
    return t < m->tasks ? ML_OK
                        : ml__fail(ctx, ML_M_SEARCH_TASK, (unsigned long long)t,
                                   (unsigned long long)m->tasks);
}

int ml_search_task_rows(ml_ctx *ctx, const ml_search *q, uint64_t t, uint64_t *rows)
{
    const char *fn = "ml_search_task_rows";
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = ML_OK;
    ml_many *m = many_of(ctx, q, fn, &rc);
    if (!rc && !rows)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "rows");
    if (!rc)
        rc = task_ok(ctx, m, t);
    if (!rc)
        *rows = start(m, t + 1) - start(m, t);
    return ml__leave(ctx, &sc, rc);
}

/* search/coset_batch.h's batch over rows [a, a + c) of m, one thread: minimal.py's
 * _rows_task (solve.c's min_many). Returns 0, -1 out of memory. */
static int batch(ml_many *m, size_t a, size_t c, int64_t *lengths, uint8_t *taps)
{
    size_t L = m->L, g = m->g;
    const uint8_t *X = m->X + a * L;
    if (!L) {
        memset(lengths, 0, c * sizeof *lengths);
        return 0;
    }
    if (m->n == 2 && g) {   /* packed words */
        size_t nw = ml_words(L) ? ml_words(L) : 1;
        if (!m->Hw) {
            m->Hw = calloc(g * nw, 8);
            if (!m->Hw)
                return -1;
            ml_pack_bits(m->H, g, L, L, m->Hw, nw);
        }
        uint64_t *xp = calloc(c * nw + 1, 8), *bp = taps ? calloc(c * nw + 1, 8) : NULL;
        int got = !xp || (taps && !bp) ? -1 : 0;
        if (!got) {
            ml_pack_bits(X, c, L, L, xp, nw);
            got = ml_coset_min_gf2_many(xp, c, nw, L, m->Hw, g, 1, lengths, bp, nw);
        }
        if (!got && taps)
            ml_unpack_bits(bp, c, L, nw, taps, L);
        free(xp);
        free(bp);
        return got;
    }
    uint8_t zero[1] = {0};
    uint32_t zo[1] = {0};
    return ml_coset_min_zn_many(X, c, L, g ? m->H : zero, g ? m->orders : zo, g, L, m->n, 1,
                                lengths, taps, L);
}

int ml_search_run_rows(ml_ctx *ctx, ml_search *q, uint64_t t, int64_t *lengths, uint8_t *taps)
{
    const char *fn = "ml_search_run_rows";
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = ML_OK;
    ml_many *m = many_of(ctx, q, fn, &rc);
    if (!rc)
        rc = task_ok(ctx, m, t);
    uint64_t a = rc ? 0 : start(m, t), c = rc ? 0 : start(m, t + 1) - a;
    if (!rc && c && !lengths)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "lengths");
    if (rc || !c)
        return ml__leave(ctx, &sc, rc);
    int got = batch(m, (size_t)a, (size_t)c, lengths, taps);
    if (ml_interrupt_stopped())
        rc = ml__fail(ctx, ML_M_INTERRUPTED);
    else if (got)
        rc = ml__fail(ctx, ML_M_NOMEM, fn);
    return ml__leave(ctx, &sc, rc);
}

int ml_search_merge_rows(ml_ctx *ctx, ml_search *q, uint64_t t, const int64_t *lengths,
                         const uint8_t *taps)
{
    const char *fn = "ml_search_merge_rows";
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = ML_OK;
    ml_many *m = many_of(ctx, q, fn, &rc);
    if (!rc)
        rc = task_ok(ctx, m, t);
    if (!rc && m->merged[t])
        rc = ml__fail(ctx, ML_M_SEARCH_TASK, (unsigned long long)t,
                      (unsigned long long)m->tasks);
    uint64_t a = rc ? 0 : start(m, t), c = rc ? 0 : start(m, t + 1) - a;
    if (!rc && c && !lengths)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "lengths");
    if (rc)
        return ml__leave(ctx, &sc, rc);
    m->merged[t] = taps || !c ? 1 : 2;
    m->notaps += m->merged[t] == 2;
    m->left--;
    if (c)
        memcpy(m->len + a, lengths, c * sizeof *lengths);
    if (c && taps && m->L)
        memcpy(m->best + a * m->L, taps, c * m->L);
    return ml__leave(ctx, &sc, ML_OK);
}

/* The driver's search (not a worker's copy), or the failure. */
static ml_many *driver(ml_ctx *ctx, const ml_search *q, const char *fn, int *rc)
{
    ml_many *m = many_of(ctx, q, fn, rc);
    if (m && !m->b) {
        *rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn,
                       "the search made by ml_solver_search_many (not an imported copy)");
        return NULL;
    }
    return m;
}

int ml_search_lengths(ml_ctx *ctx, ml_search *q, int64_t *lengths, uint8_t *taps)
{
    const char *fn = "ml_search_lengths";
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = ML_OK;
    ml_many *m = driver(ctx, q, fn, &rc);
    if (!rc && m->k && !lengths)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "lengths");
    if (!rc && taps && m->notaps)
        rc = ml__fail(ctx, ML_M_SEARCH_NO_TAPS, (unsigned long long)m->notaps);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    size_t tsize = (size_t)ml_board_taps_size(m->b), L = m->L;
    if (taps && m->k)
        memset(taps, 0, m->k * tsize);
    for (size_t i = 0, r = 0; i < m->k; i++) {
        lengths[i] = m->ok[i] ? m->len[r] : -1;
        ml__tap_runs it;
        for (ml__tap_runs_init(&it, m->b); taps && m->ok[i] && ml__tap_runs_next(&it);)
            memcpy(taps + i * tsize + it.f, m->best + r * L + it.j, (size_t)it.len);
        r += m->ok[i];
    }
    return ml__leave(ctx, &sc, ML_OK);
}

int ml_search_proven(ml_ctx *ctx, const ml_search *q, uint8_t *proven)
{
    const char *fn = "ml_search_proven";
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = ML_OK;
    ml_many *m = driver(ctx, q, fn, &rc);
    if (!rc && m->k && !proven)
        rc = ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "proven");
    if (rc)
        return ml__leave(ctx, &sc, rc);
    for (size_t i = 0, r = 0, t = 0; i < m->k; i++) {
        while (m->ok[i] && t + 1 < m->tasks && start(m, t + 1) <= r)
            t++;
        proven[i] = !m->ok[i] || m->merged[t] != 0;
        r += m->ok[i];
    }
    return ml__leave(ctx, &sc, ML_OK);
}
