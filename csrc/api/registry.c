/* registry.c: the engine table (modlights.h: engines and plans; engine.h).
 *
 * The library's own engines are registered at load (the first call that reads the
 * table), in engines/registry.py's order (_register_package_engines), with its names,
 * families, descriptions, answers, backends and auto flags; their covers and costs are
 * those of the Python package (registry_own.c), reasons character for character,
 * costs by the same constants and the same floating-point operations in the
 * same order, so every cost is the same double as Python's. Python's pure-NumPy
 * reference engine is not the library's: it registers through the seam, at its place
 * after the dense engines (ml__engine_register_before). A foreign engine registers an
 * ml_engine_def (ml_engine_register: at the end); unregistering drops the table's
 * reference (engine.h). One mutex guards the table; callbacks never run under
 * it.
 *
 * Names, families and descriptions are interned: one copy of each distinct string,
 * never freed while the library is loaded, so the pointers the accessors give stay
 * valid when another thread unregisters the engine (the arena grows only by strings
 * never seen before: registering the same engine again and again takes no more).
 * The library's engines are loaded by the first call that reads the table, whole or
 * not at all: an allocation failing there leaves the table empty and is reported
 * (ml_engine_count -1, ML_ENOMEM from the calls with a status), and the next call
 * tries again. */
#include "api/engine.h"
#include "api/board.h"
#include "api/ctx.h"
#include "api/json.h"
#include "api/registry_impl.h"

#include <math.h>
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
static ml__engine **table;
static size_t count, room;
static int loaded;   /* the library's engines are in the table (under the lock) */

/* The test-only fault injection (registry_impl.h): the n-th allocation of the table's
 * from now on fails (0: none). */
_Atomic long ml__registry_fail_alloc;

static void *table_alloc(void *p, size_t n)
{
    long k = atomic_load(&ml__registry_fail_alloc);
    while (k > 0 && !atomic_compare_exchange_weak(&ml__registry_fail_alloc, &k, k - 1))
        ;
    if (k == 1)
        return NULL;
    return realloc(p, n);
}

/* ------------------------------------------------------------------ interned strings */
typedef struct interned {
    struct interned *next;
    char s[];
} interned;
static interned *strings;   /* under the lock; freed never (see the top) */

/* The interned copy of s, NULL when out of memory. Under the lock. O(strings). */
static char *intern(const char *s)
{
    for (interned *i = strings; i; i = i->next)
        if (!strcmp(i->s, s))
            return i->s;
    size_t n = strlen(s) + 1;
    interned *i = table_alloc(NULL, sizeof *i + n);
    if (!i)
        return NULL;
    memcpy(i->s, s, n);
    i->next = strings;
    strings = i;
    return i->s;
}

static void engine_release(ml__engine *e)
{
    if (!e || atomic_fetch_sub(&e->refs, 1) != 1)
        return;
    if (e->seam && e->def.release)
        e->def.release(e->def.user);
    free(e);   /* its strings are interned */
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
        ml__engine **t = table_alloc(table, r * sizeof *t);
        if (!t)
            return 0;
        table = t;
        room = r;
    }
    table[count++] = e;
    return 1;
}

/* Append the library's engine o; 0 when out of memory. Under the lock. */
static int add_own(const ml__own_engine *o)
{
    ml__engine *e = table_alloc(NULL, sizeof *e);
    if (!e)
        return 0;
    memset(e, 0, sizeof *e);
    atomic_init(&e->refs, 1);
    e->name = intern(o->name);
    e->description = intern(o->description);
    e->family = intern(o->family ? o->family : o->name);
    e->answers = o->answers;
    e->backends = o->backends ? o->backends : ML_BACKEND_NATIVE;
    e->auto_choose = o->auto_choose;
    e->variants = o->variants;
    e->own_covers = o->covers;
    e->own_cost = o->cost;
    e->own_ops = o->ops;
    if (!e->name || !e->description || !e->family || !append(e)) {
        engine_release(e);
        return 0;
    }
    return 1;
}

/* Load the library's engines unless they are: all of them, or none (1 / 0). Under the
 * lock (nothing else is in the table before them: every caller loads first). */
static int load_locked(void)
{
    if (loaded)
        return 1;
    for (size_t i = 0; i < ml__own_engine_count; i++)
        if (!add_own(&ml__own_engines[i])) {
            while (count)
                engine_release(table[--count]);
            return 0;
        }
    loaded = 1;
    return 1;
}

/* Take the lock with the library's engines loaded: 1, or 0 (and the lock not held)
 * when loading them ran out of memory. */
static int lock_loaded(void)
{
    pthread_mutex_lock(&lock);
    if (load_locked())
        return 1;
    pthread_mutex_unlock(&lock);
    return 0;
}

int ml__registry_snapshot(ml_ctx *ctx, ml__engine ***out, size_t *n)
{
    if (!lock_loaded())
        return ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
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
static ml__engine *at(int index, int *n)
{
    *n = -1;
    if (!lock_loaded())
        return NULL;
    ml__engine *e = NULL;
    if (index >= 0 && (size_t)index < count) {
        e = table[index];
        atomic_fetch_add(&e->refs, 1);
    }
    *n = (int)count;
    pthread_mutex_unlock(&lock);
    return e;
}

int ml_engine_count(void)
{
    if (!lock_loaded())
        return -1;
    int n = (int)count;
    pthread_mutex_unlock(&lock);
    return n;
}

/* The accessors: a field of the engine at index, read under the lock (the engine may
 * go as soon as it is released; its strings are interned and stay). */
#define FIELD(type, field, none)                                                               {                                                                                              if (!lock_loaded())                                                                            return none;                                                                           type v = index >= 0 && (size_t)index < count ? table[index]->field : none;                 pthread_mutex_unlock(&lock);                                                               return v;                                                                              }

const char *ml_engine_name(int index) FIELD(const char *, name, NULL)
const char *ml_engine_family(int index) FIELD(const char *, family, NULL)
const char *ml_engine_description(int index) FIELD(const char *, description, NULL)
unsigned ml_engine_answers(int index) FIELD(unsigned, answers, 0)
unsigned ml_engine_backends(int index) FIELD(unsigned, backends, 0)
int ml_engine_auto(int index) FIELD(int, auto_choose, 0)
#undef FIELD

int ml_engine_index(const char *name)
{
    if (!name || !lock_loaded())
        return -1;
    int found = -1;
    for (size_t i = 0; i < count && found < 0; i++)
        if (!strcmp(table[i]->name, name))
            found = (int)i;
    pthread_mutex_unlock(&lock);
    return found;
}

/* ------------------------------------------------------------------ covers and cost */
/* Largest buffer a seam engine's reason is asked into (the first is ML_ERRMSG_MAX). */
#define ML_SEAM_WHY_MAX ((size_t)1 << 24)

int ml__engine_reason(ml_ctx *ctx, const ml__engine *e, const ml_board *b, int *covers,
                      char **why)
{
    *why = NULL;
    if (!e->seam) {
        char own[ML_WHY_MAX];
        own[0] = 0;
        int ok = e->own_covers(b, own, sizeof own) != 0;
        if (!ok && !(*why = ml__registry_dup(own)))
            return ml__fail(ctx, ML_M_NOMEM, "ml_engine_covers");
        *covers = ok;
        return ML_OK;
    }
    ctx = ml__ctx(ctx);
    /* the snprintf convention: a reason that fills the buffer may have been cut, so it
     * is asked again into a larger one */
    for (size_t cap = ML_ERRMSG_MAX;; cap *= 8) {
        char *seam = calloc(1, cap);
        if (!seam)
            return ml__fail(ctx, ML_M_NOMEM, "ml_engine_covers");
        int ok = 0;
        int rc = e->def.covers(e->def.user, ctx, b, &ok, seam, cap);
        if (rc != ML_OK) {
            free(seam);
            int st = rc > ML_OK && rc < ML_STATUS_COUNT ? rc : ML_ECALLBACK;
            if (ctx->status == ML_OK || !ctx->msg[0])
                ml__fail(ctx, ML_M_CALLBACK, e->name, "covers");
            ctx->status = st;
            return st;
        }
        if (ok) {
            free(seam);
            *covers = 1;
            return ML_OK;
        }
        seam[cap - 1] = 0;
        if (strlen(seam) + 1 < cap || cap >= ML_SEAM_WHY_MAX) {
            *covers = 0;
            *why = seam;
            return ML_OK;
        }
        free(seam);
    }
}

int ml__engine_covers(ml_ctx *ctx, const ml__engine *e, const ml_board *b, int *covers,
                      char *why, size_t cap, size_t *len)
{
    char *text = NULL;
    int ok = 0;
    int rc = ml__engine_reason(ctx, e, b, &ok, &text);
    if (rc != ML_OK)
        return rc;
    size_t n = ok ? 0 : strlen(text);
    if (len)
        *len = n;
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        if (k)
            memcpy(why, text, k);
        why[k] = 0;
    }
    *covers = ok;
    free(text);
    return ML_OK;
}

/* A cost must be a finite number of seconds >= 0 (engines/registry.py _cost). */
static int check_cost(ml_ctx *ctx, const ml__engine *e, double s)
{
    if (isfinite(s) && s >= 0)
        return ML_OK;
    char r[40];
    ml__json_float_repr(s, r, sizeof r);
    return ml__fail(ctx, ML_M_ENGINE_COST, e->name, r);
}

int ml__engine_cost(ml_ctx *ctx, const ml__engine *e, const ml_board *b, double *seconds)
{
    if (!e->seam) {
        double s = e->own_cost(b);
        int rc = check_cost(ctx, e, s);
        if (rc == ML_OK)
            *seconds = s;
        return rc;
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
    rc = check_cost(ctx, e, s);
    if (rc == ML_OK)
        *seconds = s;
    return rc;
}

/* No engine at index: out of range (n engines), or the library's engines could not be
 * loaded (n -1). */
static int out_of_table(ml_ctx *ctx, int index, int n, const char *fn)
{
    if (n < 0)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    return ml__fail(ctx, ML_M_INT_RANGE, "index", 0LL, (long long)n - 1, (long long)index);
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
    int n = 0;
    ml__engine *e = at(index, &n);
    if (!e)
        return out_of_table(ctx, index, n, "ml_engine_covers");
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
    int n = 0;
    ml__engine *e = at(index, &n);
    if (!e)
        return out_of_table(ctx, index, n, "ml_engine_cost");
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

/* Append e (the table's reference) before the engine named `before` (at the end when
 * before is NULL or names none); 0 when out of memory. Under the lock. */
static int insert_before(ml__engine *e, const char *before)
{
    if (!append(e))
        return 0;
    size_t at = count - 1;
    for (size_t i = 0; before && i + 1 < count; i++)
        if (!strcmp(table[i]->name, before)) {
            at = i;
            break;
        }
    memmove(table + at + 1, table + at, (count - 1 - at) * sizeof *table);
    table[at] = e;
    return 1;
}

static int register_def(ml_ctx *ctx, const ml_engine_def *def, const char *before);

int ml_engine_register(ml_ctx *ctx, const ml_engine_def *def)
{
    return register_def(ctx, def, NULL);
}

int ml__engine_register_before(ml_ctx *ctx, const ml_engine_def *def, const char *before)
{
    return register_def(ctx, def, before);
}

static int register_def(ml_ctx *ctx, const ml_engine_def *def, const char *before)
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
    if (!lock_loaded())
        return ml__fail(ctx, ML_M_NOMEM, "ml_engine_register");
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
    ml__engine *e = table_alloc(NULL, sizeof *e);
    if (!e)
        return ml__fail(ctx, ML_M_NOMEM, "ml_engine_register");
    memset(e, 0, sizeof *e);
    atomic_init(&e->refs, 1);
    e->answers = def->answers;
    e->backends = backends;
    e->auto_choose = def->auto_choose != 0;
    e->def = *def;
    e->seam = 1;   /* once in the table, the last reference calls release */
    if (!lock_loaded()) {
        free(e);
        return ml__fail(ctx, ML_M_NOMEM, "ml_engine_register");
    }
    int taken = 0;
    for (size_t i = 0; i < count && !taken; i++)
        taken = !strcmp(table[i]->name, name);
    int ok = 0;
    if (!taken) {
        e->name = intern(name);
        e->description = intern(def->description ? def->description : "");
        e->family = intern(def->family ? def->family : name);
        e->def.name = e->name;
        e->def.description = e->description;
        e->def.family = e->family;
        ok = e->name && e->description && e->family && insert_before(e, before);
    }
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
    free(e);   /* never registered: the caller keeps its user data */
    return rc;
}

int ml_engine_unregister(ml_ctx *ctx, const char *name)
{
    ctx = ml__begin(ctx);
    if (!name)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_engine_unregister", "name");
    if (!lock_loaded())
        return ml__fail(ctx, ML_M_NOMEM, "ml_engine_unregister");
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
