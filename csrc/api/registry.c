/* registry.c: the engine table (modlights.h: engines and plans; engine.h).
 *
 * The library's own engines are registered at load (the first call that reads the
 * table), in engines/registry.py's order (_register_package_engines), with its names,
 * families, descriptions, answers, backends and auto flags; their covers and costs are
 * those of the Python package (registry_own.c), reasons character for character,
 * costs by the same constants and the same floating-point operations in the
 * same order, so every cost is the same double as Python's. Python's pure-NumPy
 * reference engine is not the library's: it registers through the seam. A foreign
 * engine registers an ml_engine_def (ml_engine_register); unregistering drops the
 * table's reference (engine.h). One mutex guards the table; callbacks never run under
 * it. */
#include "api/engine.h"
#include "api/board.h"
#include "api/ctx.h"
#include "api/registry_impl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ml__method_families[5] = {"dense", "chase", "algebraic", "lifted", "tensor"};

int ml__is_family(const char *s)
{
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, ml__method_families[i]))
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ the table */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static ml__engine **table;
static size_t count, room;

static void engine_release(ml__engine *e)
{
    if (!e || atomic_fetch_sub(&e->refs, 1) != 1)
        return;
    if (e->seam && e->def.release)
        e->def.release(e->def.user);
    free(e->name);
    free(e->description);
    free(e->family);
    free(e);
}

char *ml__registry_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Append e (the table's reference); 0 when out of memory. Under the lock. */
static int append(ml__engine *e)
{
    if (count == room) {
        size_t r = room ? 2 * room : 32;
        ml__engine **t = realloc(table, r * sizeof *t);
        if (!t)
            return 0;
        table = t;
        room = r;
    }
    table[count++] = e;
    return 1;
}

static void add_own(const ml__own_engine *o)
{
    ml__engine *e = calloc(1, sizeof *e);
    if (!e)
        return;
    atomic_init(&e->refs, 1);
    e->name = ml__registry_dup(o->name);
    e->description = ml__registry_dup(o->description);
    e->family = ml__registry_dup(o->family ? o->family : o->name);
    e->answers = o->answers;
    e->backends = o->backends ? o->backends : ML_BACKEND_NATIVE;
    e->auto_choose = o->auto_choose;
    e->variants = o->variants;
    e->own_covers = o->covers;
    e->own_cost = o->cost;
    e->own_ops = o->ops;
    if (!e->name || !e->description || !e->family || !append(e))
        engine_release(e);
}

static void load(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < ml__own_engine_count; i++)
        add_own(&ml__own_engines[i]);
    pthread_mutex_unlock(&lock);
}

static void ready(void) { pthread_once(&once, load); }

int ml__registry_snapshot(ml_ctx *ctx, ml__engine ***out, size_t *n)
{
    ready();
    pthread_mutex_lock(&lock);
    ml__engine **list = malloc((count ? count : 1) * sizeof *list);
    if (!list) {
        pthread_mutex_unlock(&lock);
        return ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
    }
    for (size_t i = 0; i < count; i++) {
        list[i] = table[i];
        atomic_fetch_add(&list[i]->refs, 1);
    }
    *n = count;
    pthread_mutex_unlock(&lock);
    *out = list;
    return ML_OK;
}

void ml__engine_put(ml__engine *e) { engine_release(e); }

void ml__registry_release(ml__engine **list, size_t n)
{
    if (!list)
        return;
    for (size_t i = 0; i < n; i++)
        engine_release(list[i]);
    free(list);
}

/* The engine at index (retained), or NULL. */
static ml__engine *at(int index)
{
    ready();
    ml__engine *e = NULL;
    pthread_mutex_lock(&lock);
    if (index >= 0 && (size_t)index < count) {
        e = table[index];
        atomic_fetch_add(&e->refs, 1);
    }
    pthread_mutex_unlock(&lock);
    return e;
}

/* The engine at index, not retained (the header's accessors: valid until it is
 * unregistered). */
static const ml__engine *peek(int index)
{
    ml__engine *e = at(index);
    if (e)
        engine_release(e);   /* the table keeps it alive */
    return e;
}

int ml_engine_count(void)
{
    ready();
    pthread_mutex_lock(&lock);
    int n = (int)count;
    pthread_mutex_unlock(&lock);
    return n;
}

const char *ml_engine_name(int index)
{
    const ml__engine *e = peek(index);
    return e ? e->name : NULL;
}

const char *ml_engine_family(int index)
{
    const ml__engine *e = peek(index);
    return e ? e->family : NULL;
}

const char *ml_engine_description(int index)
{
    const ml__engine *e = peek(index);
    return e ? e->description : NULL;
}

int ml_engine_index(const char *name)
{
    if (!name)
        return -1;
    ready();
    int found = -1;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count && found < 0; i++)
        if (!strcmp(table[i]->name, name))
            found = (int)i;
    pthread_mutex_unlock(&lock);
    return found;
}

unsigned ml_engine_answers(int index)
{
    const ml__engine *e = peek(index);
    return e ? e->answers : 0;
}

unsigned ml_engine_backends(int index)
{
    const ml__engine *e = peek(index);
    return e ? e->backends : 0;
}

int ml_engine_auto(int index)
{
    const ml__engine *e = peek(index);
    return e ? e->auto_choose : 0;
}

/* ------------------------------------------------------------------ covers and cost */
int ml__engine_covers(ml_ctx *ctx, const ml__engine *e, const ml_board *b, int *covers,
                      char *why, size_t cap, size_t *len)
{
    char own[ML_WHY_MAX];
    char *text = own;
    own[0] = 0;
    int ok;
    if (!e->seam) {
        ok = e->own_covers(b, own, sizeof own);
    } else {
        char *seam = calloc(1, ML_ERRMSG_MAX);
        if (!seam)
            return ml__fail(ctx, ML_M_NOMEM, "ml_engine_covers");
        ctx = ml__ctx(ctx);
        ok = 0;
        int rc = e->def.covers(e->def.user, ctx, b, &ok, seam, ML_ERRMSG_MAX);
        if (rc != ML_OK) {
            free(seam);
            int st = rc > ML_OK && rc < ML_STATUS_COUNT ? rc : ML_ECALLBACK;
            if (ctx->status == ML_OK || !ctx->msg[0])
                ml__fail(ctx, ML_M_CALLBACK, e->name, "covers");
            ctx->status = st;
            return st;
        }
        seam[ML_ERRMSG_MAX - 1] = 0;
        ok = ok != 0;
        size_t n = ok ? 0 : strlen(seam);
        if (len)
            *len = n;
        if (cap) {
            size_t k = n < cap - 1 ? n : cap - 1;
            memcpy(why, seam, k);
            why[k] = 0;
        }
        *covers = ok;
        free(seam);
        return ML_OK;
    }
    size_t n = ok ? 0 : strlen(text);
    if (len)
        *len = n;
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(why, text, k);
        why[k] = 0;
    }
    *covers = ok;
    return ML_OK;
}

int ml__engine_cost(ml_ctx *ctx, const ml__engine *e, const ml_board *b, double *seconds)
{
    if (!e->seam) {
        *seconds = e->own_cost(b);
        return ML_OK;
    }
    ctx = ml__ctx(ctx);
    double s = 0;
    int rc = e->def.cost(e->def.user, ctx, b, &s);
    if (rc != ML_OK) {
        int st = rc > ML_OK && rc < ML_STATUS_COUNT ? rc : ML_ECALLBACK;
        if (ctx->status == ML_OK || !ctx->msg[0])
            ml__fail(ctx, ML_M_CALLBACK, e->name, "cost");
        ctx->status = st;
        return st;
    }
    *seconds = s;
    return ML_OK;
}

int ml_engine_covers(ml_ctx *ctx, int index, const ml_board *b, int *covers, char *why,
                     size_t cap, size_t *len)
{
    ctx = ml__begin(ctx);
    if (!covers)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_engine_covers", "covers");
    if (cap && !why)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_engine_covers", "why");
    if (!ml__board_live(b))
        return ml__fail(ctx, ML_M_DEAD_HANDLE, "ml_engine_covers", "board");
    ml__engine *e = at(index);
    if (!e)
        return ml__fail(ctx, ML_M_INT_RANGE, "index", 0LL, (long long)ml_engine_count() - 1,
                        (long long)index);
    int rc = ml__engine_covers(ctx, e, b, covers, why, cap, len);
    engine_release(e);
    return rc;
}

int ml_engine_cost(ml_ctx *ctx, int index, const ml_board *b, double *seconds)
{
    ctx = ml__begin(ctx);
    if (!seconds)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_engine_cost", "seconds");
    if (!ml__board_live(b))
        return ml__fail(ctx, ML_M_DEAD_HANDLE, "ml_engine_cost", "board");
    ml__engine *e = at(index);
    if (!e)
        return ml__fail(ctx, ML_M_INT_RANGE, "index", 0LL, (long long)ml_engine_count() - 1,
                        (long long)index);
    int rc = ml__engine_cost(ctx, e, b, seconds);
    engine_release(e);
    return rc;
}

/* ------------------------------------------------------------------ the seam */
static const char *const QUESTION_NAMES[] = {
    "solve", "generators", "nullity", "kernel_size", "det", "inverse", "pseudo_inverse",
    "kernel_fits", "solve_packed"};
#define ML_Q_ALL ((1u << 9) - 1)

/* Python's repr of a name into buf (cap >= 4 * strlen + 3) */
static char *repr_dup(const char *s)
{
    size_t cap = 4 * strlen(s) + 3;
    char *r = malloc(cap);
    if (r)
        ml__repr_str(s, r, cap);
    return r;
}

int ml_engine_register(ml_ctx *ctx, const ml_engine_def *def)
{
    ctx = ml__begin(ctx);
    if (!def)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_engine_register", "def");
    if (def->size != sizeof *def)
        return ml__fail(ctx, ML_M_INT_RANGE, "ml_engine_def.size", (long long)sizeof *def,
                        (long long)sizeof *def, (long long)def->size);
    const char *name = def->name;
    int reserved = !name || !*name || !strcmp(name, "auto") ||
                   (ml__is_family(name) && strcmp(name, "chase") && strcmp(name, "lifted") &&
                    strcmp(name, "tensor"));
    if (reserved) {
        char *r = name ? repr_dup(name) : NULL;
        int rc = ml__fail(ctx, ML_M_ENGINE_NAME,
                          "['algebraic', 'chase', 'dense', 'lifted', 'tensor']",
                          r ? r : name ? "''" : "None");
        free(r);
        return rc;
    }
    /* Python's order: a name registered already before the other arguments (checked
     * again when appending, against a registration made meanwhile) */
    ready();
    pthread_mutex_lock(&lock);
    int known = 0;
    for (size_t i = 0; i < count && !known; i++)
        known = !strcmp(table[i]->name, name);
    pthread_mutex_unlock(&lock);
    if (known) {
        char *r = repr_dup(name);
        int rc = ml__fail(ctx, ML_M_ENGINE_TAKEN, r ? r : name);
        free(r);
        return rc;
    }
    if (!def->covers || !def->cost)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_engine_register",
                        !def->covers ? "def->covers" : "def->cost");
    if (def->answers & ~ML_Q_ALL) {
        char bad[64], all[256];
        snprintf(bad, sizeof bad, "[%u]", def->answers & ~ML_Q_ALL);
        size_t at = (size_t)snprintf(all, sizeof all, "(");
        for (int i = 0; i < 9; i++)
            at += (size_t)snprintf(all + at, sizeof all - at, "%s'%s'", i ? ", " : "",
                                   QUESTION_NAMES[i]);
        snprintf(all + at, sizeof all - at, ")");
        return ml__fail(ctx, ML_M_ENGINE_QUESTIONS, bad, all);
    }
    unsigned backends = def->backends ? def->backends : ML_BACKEND_NATIVE;
    if (backends & ~(unsigned)(ML_BACKEND_NATIVE | ML_BACKEND_REFERENCE)) {
        char got[32];
        snprintf(got, sizeof got, "%u", def->backends);
        return ml__fail(ctx, ML_M_ENGINE_BACKENDS, "('native', 'reference')", got);
    }
    ml__engine *e = calloc(1, sizeof *e);
    if (!e)
        return ml__fail(ctx, ML_M_NOMEM, "ml_engine_register");
    atomic_init(&e->refs, 1);
    e->name = ml__registry_dup(name);
    e->description = ml__registry_dup(def->description ? def->description : "");
    e->family = ml__registry_dup(def->family ? def->family : name);
    e->answers = def->answers;
    e->backends = backends;
    e->auto_choose = def->auto_choose != 0;
    e->def = *def;
    if (!e->name || !e->description || !e->family) {
        free(e->name);
        free(e->description);
        free(e->family);
        free(e);
        return ml__fail(ctx, ML_M_NOMEM, "ml_engine_register");
    }
    e->def.name = e->name;
    e->def.description = e->description;
    e->def.family = e->family;
    e->seam = 1;   /* from here on, the last reference calls release */
    ready();
    pthread_mutex_lock(&lock);
    int taken = 0;
    for (size_t i = 0; i < count && !taken; i++)
        taken = !strcmp(table[i]->name, name);
    int ok = !taken && append(e);
    pthread_mutex_unlock(&lock);
    if (ok)
        return ML_OK;
    int rc;
    if (taken) {
        char *r = repr_dup(name);
        rc = ml__fail(ctx, ML_M_ENGINE_TAKEN, r ? r : name);
        free(r);
    } else {
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_engine_register");
    }
    e->seam = 0;   /* never registered: the caller keeps its user data */
    engine_release(e);
    return rc;
}

int ml_engine_unregister(ml_ctx *ctx, const char *name)
{
    ctx = ml__begin(ctx);
    if (!name)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_engine_unregister", "name");
    ready();
    pthread_mutex_lock(&lock);
    ml__engine *gone = NULL;
    for (size_t i = 0; i < count; i++)
        if (!strcmp(table[i]->name, name)) {
            gone = table[i];
            memmove(table + i, table + i + 1, (count - i - 1) * sizeof *table);
            count--;
            break;
        }
    char *names = NULL;
    if (!gone) {   /* ', '.join of the registered names */
        size_t n = 1;
        for (size_t i = 0; i < count; i++)
            n += strlen(table[i]->name) + 2;
        names = malloc(n);
        if (names) {
            names[0] = 0;
            for (size_t i = 0; i < count; i++) {
                if (i)
                    strcat(names, ", ");
                strcat(names, table[i]->name);
            }
        }
    }
    pthread_mutex_unlock(&lock);
    if (gone) {
        engine_release(gone);
        return ML_OK;
    }
    char *r = repr_dup(name);
    int rc = r && names ? ml__fail(ctx, ML_M_ENGINE_UNKNOWN, r, names)
                        : ml__fail(ctx, ML_M_NOMEM, "ml_engine_unregister");
    free(r);
    free(names);
    return rc;
}
