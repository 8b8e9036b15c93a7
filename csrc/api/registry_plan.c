/* registry_plan.c: ml_plan_choose and the plan (modlights.h: engines and plans), as
 * engines/registry.py's choose and Plan: the method and backend checks with their
 * messages, the rule that backend "reference" turns "auto" and "dense" into the engine
 * named "reference" (when one is registered: Python's reference engine comes through
 * the seam), the candidates priced in order and sorted by (cost, registration index),
 * covers asked from the cheapest up, the reasons, the engines passed over in Python's
 * order and with its texts; Plan.explain() and Plan.to_dict() as JSON. */
#include "api/engine.h"
#include "api/registry_impl.h"
#include "api/board.h"
#include "api/ctx.h"
#include "api/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_PLAN_MAGIC 0x6d6c706cu   /* "mlpl": a live plan */

struct ml_plan {
    uint32_t magic;
    char *engine, *family, *reason, *variant, *method, *backend;
    double cost;
    size_t nrej, rej_room;
    char **rej_name, **rej_why;
};

static int live(const ml_plan *p) { return p && p->magic == ML_PLAN_MAGIC; }

void ml_plan_free(ml_plan *p)
{
    if (!live(p))
        return;
    p->magic = 0;
    free(p->engine);
    free(p->family);
    free(p->reason);
    free(p->variant);
    free(p->method);
    free(p->backend);
    for (size_t i = 0; i < p->nrej; i++) {
        free(p->rej_name[i]);
        free(p->rej_why[i]);
    }
    free(p->rej_name);
    free(p->rej_why);
    free(p);
}

/* ------------------------------------------------------------------ text helpers */
/* A growing string; ok = 0 once an allocation failed. */
typedef struct { char *s; size_t len, room; int ok; } sbuf;

static void sb_add(sbuf *b, const char *t, size_t n)
{
    if (!b->ok)
        return;
    if (b->len + n + 1 > b->room) {
        size_t r = b->room ? b->room : 256;
        while (r < b->len + n + 1)
            r *= 2;
        char *s = realloc(b->s, r);
        if (!s) {
            b->ok = 0;
            return;
        }
        b->s = s;
        b->room = r;
    }
    memcpy(b->s + b->len, t, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void sb_str(sbuf *b, const char *t) { sb_add(b, t, strlen(t)); }

static void sb_fmt(sbuf *b, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        sb_add(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->ok = 0;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_add(b, big, (size_t)n);
    free(big);
}

/* Python's repr of a string */
static void sb_repr(sbuf *b, const char *s)
{
    size_t cap = 4 * strlen(s) + 3;
    char *r = malloc(cap);
    if (!r) {
        b->ok = 0;
        return;
    }
    ml__repr_str(s, r, cap);
    sb_str(b, r);
    free(r);
}

/* the plan's text of a reason template */
static char *reason_of(int id, ...)
{
    va_list ap;
    va_start(ap, id);
    int n = vsnprintf(NULL, 0, ml_msg_template(id), ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s)
        return NULL;
    va_start(ap, id);
    vsnprintf(s, (size_t)n + 1, ml_msg_template(id), ap);
    va_end(ap);
    return s;
}

/* methods(): ('auto', the families, the other registered names) */
static void methods_repr(sbuf *b, ml__engine **list, size_t count)
{
    sb_str(b, "('auto'");
    for (int i = 0; i < 5; i++) {
        sb_str(b, ", ");
        sb_repr(b, ml__method_families[i]);
    }
    for (size_t i = 0; i < count; i++) {
        if (!strcmp(list[i]->name, "auto") || ml__is_family(list[i]->name))
            continue;
        sb_str(b, ", ");
        sb_repr(b, list[i]->name);
    }
    sb_str(b, ")");
}

/* ------------------------------------------------------------------ choose */
static int reject(ml_plan *p, const char *name, char *why)
{
    if (!why)
        return 0;
    if (p->nrej == p->rej_room) {
        size_t r = p->rej_room ? 2 * p->rej_room : 16;
        char **a = realloc(p->rej_name, r * sizeof *a);
        if (a)
            p->rej_name = a;
        char **w = realloc(p->rej_why, r * sizeof *w);
        if (w)
            p->rej_why = w;
        if (!a || !w) {
            free(why);
            return 0;
        }
        p->rej_room = r;
    }
    char *n = ml__registry_dup(name);
    if (!n) {
        free(why);
        return 0;
    }
    p->rej_name[p->nrej] = n;
    p->rej_why[p->nrej] = why;
    p->nrej++;
    return 1;
}

static int rejected_has(const ml_plan *p, const char *name)
{
    for (size_t i = 0; i < p->nrej; i++)
        if (!strcmp(p->rej_name[i], name))
            return 1;
    return 0;
}

typedef struct { double cost; size_t i; ml__engine *e; } priced;

static int priced_cmp(const void *x, const void *y)
{
    const priced *a = x, *b = y;
    if (a->cost < b->cost)
        return -1;
    if (a->cost > b->cost)
        return 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

int ml_plan_choose(ml_ctx *ctx, const ml_board *b, const char *method, const char *backend,
                   ml_plan **out)
{
    ctx = ml__begin(ctx);
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_plan_choose", "out");
    if (!ml__board_live(b))
        return ml__fail(ctx, ML_M_DEAD_HANDLE, "ml_plan_choose", "board");
    method = method ? method : "auto";
    backend = backend ? backend : "native";
    sbuf t = {0, 0, 0, 1}, u = {0, 0, 0, 1};
    int rc = ML_OK;
    ml__engine **list = NULL;
    size_t count = 0;
    priced *pr = NULL;
    size_t *cands = NULL;
    ml_plan *p = NULL;
    if (strcmp(backend, "native") && strcmp(backend, "reference")) {
        sb_repr(&t, backend);
        rc = t.ok ? ml__fail(ctx, ML_M_BACKEND_UNKNOWN, t.s, "('native', 'reference')")
                  : ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
        goto done;
    }
    rc = ml__registry_snapshot(ctx, &list, &count);
    if (rc)
        goto done;
    int known = !strcmp(method, "auto") || ml__is_family(method), has_reference = 0;
    for (size_t i = 0; i < count; i++) {
        known |= !strcmp(list[i]->name, method);
        has_reference |= !strcmp(list[i]->name, "reference");
    }
    if (!known) {
        sb_repr(&t, method);
        methods_repr(&u, list, count);
        rc = t.ok && u.ok ? ml__fail(ctx, ML_M_METHOD_UNKNOWN, t.s, u.s)
                          : ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
        goto done;
    }
    if (!strcmp(backend, "reference") && has_reference &&
        (!strcmp(method, "auto") || !strcmp(method, "dense")))
        method = "reference";   /* the pure-NumPy engine answers everything */
    unsigned bit = strcmp(backend, "native") ? ML_BACKEND_REFERENCE : ML_BACKEND_NATIVE;
    p = calloc(1, sizeof *p);
    pr = malloc((count ? count : 1) * sizeof *pr);
    cands = malloc((count ? count : 1) * sizeof *cands);
    if (!p || !pr || !cands) {
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
        goto done;
    }
    p->magic = ML_PLAN_MAGIC;
    /* _candidates */
    size_t nc = 0;
    int is_auto = !strcmp(method, "auto"), fam = ml__is_family(method);
    for (size_t i = 0; i < count; i++) {
        ml__engine *e = list[i];
        if (is_auto ? e->auto_choose
                    : fam ? (e->auto_choose && !strcmp(e->family, method))
                          : !strcmp(e->name, method))
            cands[nc++] = i;
    }
    size_t np = 0;
    for (size_t k = 0; k < nc; k++) {
        ml__engine *e = list[cands[k]];
        if (!(e->backends & bit)) {
            sbuf w = {0, 0, 0, 1};
            sb_str(&w, "backend must be ");
            if (e->backends & ML_BACKEND_NATIVE)
                sb_str(&w, (e->backends & ML_BACKEND_REFERENCE) ? "native or reference"
                                                                : "native");
            else
                sb_str(&w, "reference");
            sb_str(&w, ", not ");
            sb_repr(&w, backend);
            if (!w.ok || !reject(p, e->name, w.s)) {
                free(w.s);
                rc = ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
                goto done;
            }
            continue;
        }
        double c = 0;
        rc = ml__engine_cost(ctx, e, b, &c);
        if (rc)
            goto done;
        pr[np++] = (priced){c, k, e};
    }
    qsort(pr, np, sizeof *pr, priced_cmp);
    const priced *best = NULL;
    for (size_t k = 0; k < np; k++) {
        ml__engine *e = pr[k].e;
        char *text;
        if (best) {
            text = reason_of(ML_R_COSTS_MORE, pr[k].cost, best->cost, best->e->name);
        } else {
            int covers = 0;
            rc = ml__engine_reason(ctx, e, b, &covers, &text);   /* whole, however long */
            if (rc)
                goto done;
            if (covers) {
                best = &pr[k];
                continue;
            }
        }
        if (!reject(p, e->name, text)) {
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
            goto done;
        }
    }
    if (!best) {
        for (size_t i = 0; i < p->nrej; i++) {
            sb_fmt(&u, "%s%s: %s", i ? "; " : "", p->rej_name[i], p->rej_why[i]);
        }
        if (!p->nrej)
            sb_str(&u, "");
        sb_repr(&t, method);
        sbuf m = {0, 0, 0, 1};
        methods_repr(&m, list, count);
        rc = t.ok && u.ok && m.ok ? ml__fail(ctx, ML_M_METHOD_NOT_COVERED, t.s, u.s, m.s)
                                  : ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
        free(m.s);
        goto done;
    }
    p->cost = best->cost;
    p->reason = nc == 1 ? reason_of(ML_R_BY_NAME)
                : p->nrej ? reason_of(ML_R_CHEAPEST, best->cost)
                          : reason_of(ML_R_ONLY);
    sb_repr(&t, method);
    for (size_t i = 0; i < count && t.ok; i++) {
        ml__engine *o = list[i];
        int cand = 0;
        for (size_t k = 0; k < nc && !cand; k++)
            cand = cands[k] == i;
        if (o == best->e || cand || rejected_has(p, o->name))
            continue;
        char *text = o->auto_choose ? reason_of(ML_R_NOT_ASKED, t.s) : reason_of(ML_R_VARIANT_ONLY);
        if (!reject(p, o->name, text)) {
            rc = ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
            goto done;
        }
    }
    p->engine = ml__registry_dup(best->e->name);
    p->family = ml__registry_dup(best->e->family);
    p->method = ml__registry_dup(method);
    p->backend = ml__registry_dup(backend);
    if (!t.ok || !p->reason || !p->engine || !p->family || !p->method || !p->backend) {
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_plan_choose");
        goto done;
    }
    *out = p;
    p = NULL;
done:
    ml_plan_free(p);
    free(pr);
    free(cands);
    free(t.s);
    free(u.s);
    ml__registry_release(list, count);
    return rc;
}

/* ------------------------------------------------------------------ copying a plan */
static int dup_field(char **dst, const char *src)
{
    *dst = src ? ml__registry_dup(src) : NULL;
    return !src || *dst;
}

/* registry.resolve: the plan naming the variant a built engine took (engine and variant
 * `name`, the reason followed by "; variant <name>: <why>"); the plan unchanged when it
 * already names it. ML_ENOMEM (the plan unchanged) when out of memory. */
int ml__plan_resolve(ml_plan *p, const char *name, const char *why)
{
    if (!live(p) || !name || !strcmp(p->engine, name))
        return ML_OK;
    size_t len = strlen(p->reason) + strlen(name) + strlen(why) + 16;
    char *reason = malloc(len), *engine = NULL, *variant = NULL;
    if (!reason || !dup_field(&engine, name) || !dup_field(&variant, name)) {
        free(reason);
        free(engine);
        free(variant);
        return ML_ENOMEM;
    }
    snprintf(reason, len, "%s; variant %s: %s", p->reason, name, why);
    free(p->engine);
    free(p->variant);
    free(p->reason);
    p->engine = engine;
    p->variant = variant;
    p->reason = reason;
    return ML_OK;
}

int ml__plan_note(ml_plan *p, const char *text)
{
    if (!live(p) || !text || !text[0])
        return ML_OK;
    size_t len = strlen(p->reason) + strlen(text) + 16;
    char *reason = malloc(len);
    if (!reason)
        return ML_ENOMEM;
    snprintf(reason, len, "%s; parts: %s", p->reason, text);
    free(p->reason);
    p->reason = reason;
    return ML_OK;
}

ml_plan *ml__plan_dup(const ml_plan *p)
{
    if (!live(p))
        return NULL;
    ml_plan *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->magic = ML_PLAN_MAGIC;
    c->cost = p->cost;
    int ok = dup_field(&c->engine, p->engine) && dup_field(&c->family, p->family) &&
             dup_field(&c->reason, p->reason) && dup_field(&c->variant, p->variant) &&
             dup_field(&c->method, p->method) && dup_field(&c->backend, p->backend);
    if (ok && p->nrej) {
        c->rej_name = calloc(p->nrej, sizeof *c->rej_name);
        c->rej_why = calloc(p->nrej, sizeof *c->rej_why);
        ok = c->rej_name && c->rej_why;
        if (ok)
            c->rej_room = p->nrej;
        for (size_t i = 0; ok && i < p->nrej; i++) {
            ok = dup_field(&c->rej_name[i], p->rej_name[i]) &&
                 dup_field(&c->rej_why[i], p->rej_why[i]);
            c->nrej = i + 1;
        }
    }
    if (!ok) {
        if (!c->rej_name || !c->rej_why) {
            free(c->rej_name);
            free(c->rej_why);
            c->rej_name = c->rej_why = NULL;
            c->nrej = 0;
        }
        ml_plan_free(c);
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------------ reading a plan */
const char *ml_plan_engine(const ml_plan *p) { return live(p) ? p->engine : NULL; }
const char *ml_plan_family(const ml_plan *p) { return live(p) ? p->family : NULL; }
const char *ml_plan_reason(const ml_plan *p) { return live(p) ? p->reason : NULL; }
const char *ml_plan_variant(const ml_plan *p) { return live(p) ? p->variant : NULL; }
const char *ml_plan_method(const ml_plan *p) { return live(p) ? p->method : NULL; }
const char *ml_plan_backend(const ml_plan *p) { return live(p) ? p->backend : NULL; }
double ml_plan_cost(const ml_plan *p) { return live(p) ? p->cost : 0.0; }
size_t ml_plan_rejected_count(const ml_plan *p) { return live(p) ? p->nrej : 0; }

int ml_plan_rejected(const ml_plan *p, size_t i, const char **name, const char **reason)
{
    ml_ctx *ctx = ml__begin(NULL);
    if (!live(p))
        return ml__fail(ctx, ML_M_DEAD_HANDLE, "ml_plan_rejected", "plan");
    if (i >= p->nrej)
        return ml__fail(ctx, ML_M_INT_RANGE, "i", 0LL, (long long)p->nrej - 1, (long long)i);
    if (name)
        *name = p->rej_name[i];
    if (reason)
        *reason = p->rej_why[i];
    return ML_OK;
}

/* the text into the caller's buffer (snprintf convention) */
static int give(ml_ctx *ctx, const sbuf *s, char *buf, size_t cap, size_t *len, const char *fn)
{
    if (!s->ok)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    if (len)
        *len = s->len;
    if (cap) {
        size_t k = s->len < cap - 1 ? s->len : cap - 1;
        memcpy(buf, s->s, k);
        buf[k] = 0;
    }
    return ML_OK;
}

int ml_plan_explain(ml_ctx *ctx, const ml_plan *p, char *buf, size_t cap, size_t *len)
{
    ctx = ml__begin(ctx);
    if (!live(p))
        return ml__fail(ctx, ML_M_DEAD_HANDLE, "ml_plan_explain", "plan");
    if (cap && !buf)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_plan_explain", "buf");
    sbuf s = {0, 0, 0, 1};
    sb_str(&s, "engine: ");
    sb_str(&s, p->engine);
    sb_str(&s, " (method ");
    sb_repr(&s, p->method);
    sb_str(&s, ", backend ");
    sb_repr(&s, p->backend);
    sb_str(&s, "): ");
    sb_str(&s, p->reason);
    for (size_t i = 0; i < p->nrej; i++) {
        sb_str(&s, "\n  not ");
        sb_str(&s, p->rej_name[i]);
        sb_str(&s, ": ");
        sb_str(&s, p->rej_why[i]);
    }
    int rc = give(ctx, &s, buf, cap, len, "ml_plan_explain");
    free(s.s);
    return rc;
}

int ml_plan_to_json(ml_ctx *ctx, const ml_plan *p, char *buf, size_t cap, size_t *len)
{
    ctx = ml__begin(ctx);
    if (!live(p))
        return ml__fail(ctx, ML_M_DEAD_HANDLE, "ml_plan_to_json", "plan");
    if (cap && !buf)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_plan_to_json", "buf");
    ml_jw w;
    ml__jw_init(&w, buf, cap);
#define KEY(k) ml__jw_key(&w, k, sizeof k - 1)
#define STR(v) ml__jw_str(&w, v, strlen(v))
    ml__jw_dict(&w);
    KEY("engine");
    STR(p->engine);
    KEY("family");
    STR(p->family);
    KEY("variant");
    if (p->variant)
        STR(p->variant);
    else
        ml__jw_null(&w);
    KEY("reason");
    STR(p->reason);
    KEY("rejected");
    ml__jw_dict(&w);
    for (size_t i = 0; i < p->nrej; i++) {
        ml__jw_key(&w, p->rej_name[i], strlen(p->rej_name[i]));
        STR(p->rej_why[i]);
    }
    ml__jw_end_dict(&w);
    KEY("cost");
    ml__jw_float(&w, p->cost);
    ml__jw_end_dict(&w);
#undef KEY
#undef STR
    size_t n = ml__jw_finish(&w);
    if (n == (size_t)-1)
        return ml__fail(ctx, ML_M_INTERNAL, "ml_plan_to_json", "unbalanced JSON");
    if (len)
        *len = n;
    return ML_OK;
}
