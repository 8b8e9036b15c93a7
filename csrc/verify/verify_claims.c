/* verify_claims.c: "minimal" claims (Python's search/verify/claims.py: _check_minimal,
 * _check_tree, _groups, _prefix_bound, _classes, _class_bound, _symmetries, _lower_image):
 * x solves A x = b, sum(x) = L, and the proof covers x + ker A, by enumeration (every
 * coset element walked) or by a tree of pruned prefixes (a lower bound each) and leaves checked
 * directly, up to symmetries of A and b. See verify_impl.h. */
#include "verify/verify_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Python's _read_symmetry past the reading: cells (m) and taps (r, both read in range)
 * are permutations (seen: max(m, r) + 1 bytes of scratch) mapping A onto itself; fails
 * naming w. */
int mv_automorphism(mv *v, const char *w, mv_matrix *A, const int64_t *cells,
                    const int64_t *taps, uint8_t *seen)
{
    int64_t r = A->r;
    int perm = 1;
    memset(seen, 0, (size_t)A->m + 1);
    for (int64_t i = 0; i < A->m && perm; i++)
        perm = !seen[cells[i]]++;
    memset(seen, 0, (size_t)r + 1);
    for (int64_t j = 0; j < r && perm; j++)
        perm = !seen[taps[j]]++;
    if (!perm)
        return mv_fail(v, "%s is not a pair of permutations", w);
    uint64_t *keys;
    uint8_t *vals;
    int64_t nent;
    if (mv_entries(v, A, cells, taps, &keys, &vals, &nent))
        return v->rc;
    int same = nent == A->nent && !memcmp(keys, A->keys, (size_t)nent * sizeof *keys) &&
               !memcmp(vals, A->vals, (size_t)nent);
    free(keys), free(vals);
    if (!same)
        return mv_fail(v, "%s is not an automorphism of A", w);
    return ML_OK;
}

/* ---------------------------------------------------------------- a set of prefixes */
typedef struct pset {
    uint64_t *hash;         /* 0: empty slot */
    int64_t *at;            /* the prefix's place in vals */
    int32_t *len;
    int64_t slots, used;
    uint16_t *vals;         /* every prefix's coefficients, one after the other */
    int64_t nvals, capvals;
} pset;

static uint64_t hash_of(const uint16_t *c, int64_t len)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)len;
    for (int64_t i = 0; i < len; i++) {
        h ^= c[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ull;
    }
    return h | 1;
}

static int64_t pset_find(const pset *s, const uint16_t *c, int64_t len, uint64_t h)
{
    if (!s->slots)
        return -1;
    for (int64_t x = (int64_t)(h & (uint64_t)(s->slots - 1));; x = (x + 1) & (s->slots - 1)) {
        if (!s->hash[x])
            return -1 - x;
        if (s->hash[x] == h && s->len[x] == len &&
            (!len || !memcmp(s->vals + s->at[x], c, (size_t)len * sizeof *c)))
            return x;
    }
}

static int pset_has(const pset *s, const uint16_t *c, int64_t len)
{
    return s->used && pset_find(s, c, len, hash_of(c, len)) >= 0;
}

/* Add (a no-op when there); 0, or -1 when out of memory. */
static int pset_add(pset *s, const uint16_t *c, int64_t len)
{
    if (2 * (s->used + 1) > s->slots) {
        pset old = *s;
        s->slots = old.slots ? 2 * old.slots : 64;
        s->hash = calloc((size_t)s->slots, sizeof *s->hash);
        s->at = malloc((size_t)s->slots * sizeof *s->at);
        s->len = malloc((size_t)s->slots * sizeof *s->len);
        if (!s->hash || !s->at || !s->len) {
            free(s->hash), free(s->at), free(s->len);
            *s = old;
            return -1;
        }
        for (int64_t x = 0; x < old.slots; x++)
            if (old.hash[x]) {
                const uint16_t *c0 = old.len[x] ? old.vals + old.at[x] : c;
                int64_t y = -1 - pset_find(s, c0, old.len[x], old.hash[x]);
                s->hash[y] = old.hash[x], s->at[y] = old.at[x], s->len[y] = old.len[x];
            }
        free(old.hash), free(old.at), free(old.len);
    }
    uint64_t h = hash_of(c, len);
    int64_t x = pset_find(s, c, len, h);
    if (x >= 0)
        return 0;
    if (s->nvals + len > s->capvals) {
        int64_t cap = 2 * (s->nvals + len) + 16;
        uint16_t *nv = realloc(s->vals, (size_t)cap * sizeof *nv);
        if (!nv)
            return -1;
        s->vals = nv, s->capvals = cap;
    }
    if (len)
        memcpy(s->vals + s->nvals, c, (size_t)len * sizeof *c);
    x = -1 - x;
    s->hash[x] = h, s->at[x] = s->nvals, s->len[x] = (int32_t)len;
    s->nvals += len;
    s->used++;
    return 0;
}

static void pset_free(pset *s)
{
    free(s->hash), free(s->at), free(s->len), free(s->vals);
}

/* ---------------------------------------------------------------- pruned prefixes */
/* Taps grouped by their column over the first `free` generators (HT: r x k, a tap's
 * column a row): group id per tap, the number of groups, the zero column's group or -1. */
typedef struct groups {
    int64_t *gid;
    int64_t G, zero;
    uint8_t *a;             /* bound "classes": a_j of each tap (NULL for "columns") */
} groups;

/* Columns x < y of cols (width bytes each), ties by index. */
static int col_less(const uint8_t *cols, int64_t width, int64_t x, int64_t y)
{
    int c = memcmp(cols + x * width, cols + y * width, (size_t)width);
    return c ? c < 0 : x < y;
}

/* Sort the indices in order[0..n) by their columns (a merge sort; tmp: n entries). */
static void sort_cols(int64_t *order, int64_t *tmp, int64_t n, const uint8_t *cols,
                      int64_t width)
{
    for (int64_t run = 1; run < n; run *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * run) {
            int64_t mid = lo + run < n ? lo + run : n, hi = lo + 2 * run < n ? lo + 2 * run : n;
            int64_t a = lo, b = mid, o = lo;
            while (a < mid || b < hi)
                tmp[o++] = b >= hi || (a < mid && col_less(cols, width, order[a], order[b]))
                               ? order[a++] : order[b++];
        }
        memcpy(order, tmp, (size_t)n * sizeof *order);
    }
}

static int make_groups(mv *v, const uint8_t *HT, int64_t r, int64_t k, int64_t free_, groups *g)
{
    g->gid = malloc(mv_sz(r) * sizeof *g->gid);
    int64_t *order = malloc(mv_sz(r) * sizeof *order), *tmp = malloc(mv_sz(r) * sizeof *tmp);
    uint8_t *cols = malloc(mv_sz(r * free_));
    if (!g->gid || !order || !tmp || !cols) {
        free(order), free(tmp), free(cols);
        return mv_nomem(v);
    }
    for (int64_t j = 0; j < r; j++) {
        order[j] = j;
        memcpy(cols + j * free_, HT + j * k, (size_t)free_);
    }
    sort_cols(order, tmp, r, cols, free_);
    g->G = 0, g->zero = -1;
    for (int64_t x = 0; x < r; x++) {
        int64_t j = order[x];
        if (x && memcmp(cols + j * free_, cols + order[x - 1] * free_, (size_t)free_))
            g->G++;
        if (!x)
            g->G = 1;
        g->gid[j] = g->G - 1;
        int zero = 1;
        for (int64_t i = 0; i < free_ && zero; i++)
            zero = cols[j * free_ + i] == 0;
        if (zero)
            g->zero = g->G - 1;
    }
    if (!r)
        g->G = 1, g->zero = 0;
    free(order), free(tmp), free(cols);
    return ML_OK;
}

/* sum over groups of min over s of sum_{j in group} ((y_j + s) mod n), s = 0 for the
 * zero column's group. */
static int prefix_bound(mv *v, const uint8_t *y, int64_t r, const groups *g, int n, int64_t *out)
{
    int64_t *cnt = calloc((size_t)(g->G * n), sizeof *cnt);
    if (!cnt)
        return mv_nomem(v);
    for (int64_t j = 0; j < r; j++)
        cnt[g->gid[j] * n + y[j]]++;
    int64_t total = 0;
    for (int64_t x = 0; x < g->G; x++) {
        int64_t best = -1;
        for (int s = 0; s < (x == g->zero ? 1 : n); s++) {
            int64_t t = 0;
            for (int a = 0; a < n; a++)
                t += cnt[x * n + a] * ((a + s) % n);
            if (best < 0 || t < best)
                best = t;
        }
        total += best;
    }
    free(cnt);
    *out = total;
    return ML_OK;
}

/* Bound "classes": taps grouped by their column u over the first `free` generators up to
 * a unit: e the first non-zero entry of u, the key is e^-1 u and a_j = e when gcd(e, n)
 * = 1, else u and a_j = 1; a zero column has the key 0 and a_j = 0. */
static int make_classes(mv *v, const uint8_t *HT, int64_t r, int64_t k, int64_t free_, int n,
                        groups *g)
{
    g->gid = malloc(mv_sz(r) * sizeof *g->gid);
    g->a = malloc(mv_sz(r));
    int64_t *order = malloc(mv_sz(r) * sizeof *order), *tmp = malloc(mv_sz(r) * sizeof *tmp);
    uint8_t *cols = malloc(mv_sz(r * free_));
    if (!g->gid || !g->a || !order || !tmp || !cols) {
        free(order), free(tmp), free(cols);
        return mv_nomem(v);
    }
    for (int64_t j = 0; j < r; j++) {
        uint8_t *u = cols + j * free_;
        int e = 0;
        order[j] = j;
        for (int64_t i = 0; i < free_; i++) {
            u[i] = HT[j * k + i];
            if (!e)
                e = u[i];
        }
        int g0 = e, g1 = n;     /* gcd(e, n) */
        while (g1) {
            int t = g0 % g1;
            g0 = g1, g1 = t;
        }
        g->a[j] = (uint8_t)(e ? (g0 == 1 ? e : 1) : 0);
        if (e && g0 == 1) {
            int inv = mv_inv(e, n);
            for (int64_t i = 0; i < free_; i++)
                u[i] = (uint8_t)((u[i] * inv) % n);
        }
    }
    sort_cols(order, tmp, r, cols, free_);
    g->G = r ? 0 : 1, g->zero = -1;
    for (int64_t x = 0; x < r; x++) {
        int64_t j = order[x];
        if (!x || memcmp(cols + j * free_, cols + order[x - 1] * free_, (size_t)free_))
            g->G++;
        g->gid[j] = g->G - 1;
    }
    free(order), free(tmp), free(cols);
    return ML_OK;
}

/* sum over classes of min over s in 0..n-1 of sum_{j in class} ((y_j + a_j s) mod n). */
static int class_bound(mv *v, const uint8_t *y, int64_t r, const groups *g, int n, int64_t *out)
{
    int64_t *T = calloc((size_t)(g->G * n), sizeof *T);
    if (!T)
        return mv_nomem(v);
    for (int64_t j = 0; j < r; j++)
        for (int s = 0; s < n; s++)
            T[g->gid[j] * n + s] += (y[j] + g->a[j] * s) % n;
    int64_t total = 0;
    for (int64_t x = 0; x < g->G; x++) {
        int64_t best = T[x * n];
        for (int s = 1; s < n; s++)
            best = T[x * n + s] < best ? T[x * n + s] : best;
        total += best;
    }
    free(T);
    *out = total;
    return ML_OK;
}

/* ---------------------------------------------------------------- symmetries */
/* How a symmetry acts on leaves: c (coefficients m..k-1) -> d + c T mod the orders. */
typedef struct sym {
    int64_t *d, *T;         /* depth, depth x depth */
} sym;

static int symmetries(mv *v, size_t spec, const char *what, const uint8_t *x, const uint8_t *b,
                      mv_matrix *A, const mv_kernel *K, int64_t m, sym *out, int64_t *count)
{
    int64_t k = K->k, r = A->r, depth = k - m;
    int n = A->n;
    *count = 0;
    if (!mv_is_list(v, spec))
        return mv_fail(v, "%s symmetries must be a list", what);
    if (!A->keys && mv_entries(v, A, NULL, NULL, &A->keys, &A->vals, &A->nent))
        return v->rc;
    int64_t *cells = malloc(mv_sz(A->m) * sizeof *cells);
    int64_t *taps = malloc(mv_sz(r) * sizeof *taps);
    uint8_t *seen = malloc((size_t)(A->m > r ? A->m : r) + 1);
    uint8_t *Z = malloc(mv_sz(r * (k + 1)));
    int64_t *C = malloc(mv_sz((k + 1) * k) * sizeof *C);
    if (!cells || !taps || !seen || !Z || !C) {
        mv_nomem(v);
        goto out;
    }
    size_t s = spec + 1;
    char w[700], ww[800];
    for (int64_t idx = 0; idx < (int64_t)mv_count(v, spec); idx++, s = mv_next(v, s)) {
        snprintf(w, sizeof w, "%.600s symmetry %" PRId64, what, idx);
        size_t tc, tt;
        if (mv_field(v, s, "cells", w, &tc))
            goto out;
        snprintf(ww, sizeof ww, "%s cells", w);
        if (mv_ints(v, tc, ww, A->m, 0, A->m - 1, NULL, cells, NULL) ||
            mv_field(v, s, "taps", w, &tt))
            goto out;
        snprintf(ww, sizeof ww, "%s taps", w);
        if (mv_ints(v, tt, ww, r, 0, r - 1, NULL, taps, NULL))
            goto out;
        if (mv_automorphism(v, w, A, cells, taps, seen))
            goto out;
        for (int64_t i = 0; i < A->m; i++)
            if (b[cells[i]] != b[i]) {
                mv_fail(v, "%s does not preserve the rhs", w);
                goto out;
            }
        /* the columns (tau x - x) and tau h_i; (tau v)[tau j] = v[j] */
        int64_t t = k + 1;
        for (int64_t j = 0; j < r; j++) {
            Z[taps[j] * t] = (uint8_t)((x[j] + n - x[taps[j]]) % n);
            for (int64_t i = 0; i < k; i++)
                Z[taps[j] * t + 1 + i] = K->H[i * r + j];
        }
        if (mv_coords(v, K, Z, t, C)) {
            if (v->rc == ML_EINVAL) {
                v->rc = ML_OK;
                mv_fail(v, "%s does not map the coset onto itself", w);
            }
            goto out;
        }
        for (int64_t c = 1; c <= m && k; c++)
            for (int64_t i = m; i < k; i++)
                if (C[c * k + i]) {
                    mv_fail(v, "%s does not map span(h_0..h_%" PRId64 ") into itself", w, m - 1);
                    goto out;
                }
        sym *sy = &out[idx];
        sy->d = malloc(mv_sz(depth) * sizeof *sy->d);
        sy->T = malloc(mv_sz(depth * depth) * sizeof *sy->T);
        if (!sy->d || !sy->T) {
            free(sy->d), free(sy->T);
            mv_nomem(v);
            goto out;
        }
        for (int64_t i = 0; i < depth; i++) {
            sy->d[i] = C[m + i];
            for (int64_t a = 0; a < depth; a++)
                sy->T[a * depth + i] = C[(m + 1 + a) * k + m + i];
        }
        (*count)++;
    }
out:
    free(cells), free(taps), free(seen), free(Z), free(C);
    return v->rc;
}

/* Whether a symmetry maps leaf P = (c_{k-1}, ..., c_m) to a lexicographically smaller
 * leaf (compared as (c_{k-1}, ..., c_m)). */
static int lower_image(const sym *syms, int64_t nsym, const uint16_t *P, const int *orders,
                       int64_t m, int64_t depth, int64_t *img)
{
    for (int64_t s = 0; s < nsym; s++) {
        for (int64_t i = 0; i < depth; i++) {
            int64_t acc = syms[s].d[i];
            for (int64_t a = 0; a < depth; a++)         /* c_{m+a} = P[depth - 1 - a] */
                acc += (int64_t)P[depth - 1 - a] * syms[s].T[a * depth + i];
            img[i] = acc % orders[m + i];
        }
        for (int64_t x = 0; x < depth; x++) {
            int64_t a = img[depth - 1 - x];
            if (a != P[x]) {
                if (a < P[x])
                    return 1;
                break;
            }
        }
    }
    return 0;
}

/* "[1, 0, 2]" into buf. */
static const char *list_text(const uint16_t *P, int64_t len, char *buf, size_t cap)
{
    size_t at = (size_t)snprintf(buf, cap, "[");
    for (int64_t i = 0; i < len && at < cap; i++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%u", i ? ", " : "", P[i]);
    if (at < cap)
        snprintf(buf + at, cap - at, "]");
    return buf;
}

/* ---------------------------------------------------------------- the tree proof */
static int check_tree(mv *v, size_t proof, const char *what, const uint8_t *x,
                      const uint8_t *b, int64_t L, mv_matrix *A, const mv_kernel *K, char **how)
{
    int64_t k = K->k, r = A->r;
    int n = A->n;
    const uint8_t *H = K->H;
    const int *orders = K->orders;
    char w[700], buf[MV_MSG / 2];
    size_t t;
    mv_int mi;
    snprintf(w, sizeof w, "%.600s leaf_dim", what);
    if (mv_field(v, proof, "leaf_dim", what, &t) || mv_int_in(v, t, w, 0, k, 1, &mi))
        return v->rc;
    int64_t m = mi.i, depth = k - m;
    size_t pruned = mv_get(v, proof, "pruned");
    if (pruned != MV_NONE && !mv_is_list(v, pruned))
        return mv_fail(v, "%s pruned must be a list of prefixes", what);
    size_t kind = mv_get(v, proof, "bound");
    int classes = kind != MV_NONE && mv_is_str(v, kind, "classes");
    if (kind != MV_NONE && !classes && !mv_is_str(v, kind, "columns")) {
        char rep[MV_MSG / 2];
        return mv_fail_cut(v, 300, "%s bound must be 'columns' or 'classes', got %s", what,
                           mv_repr(v, kind, rep, sizeof rep));
    }
    pset ps;
    memset(&ps, 0, sizeof ps);
    groups *gs = calloc((size_t)(k + 1), sizeof *gs);
    uint8_t *HT = malloc(mv_sz(r * k)), *y = malloc(mv_sz(r));
    uint16_t *P = malloc((size_t)(depth + 1) * sizeof *P);
    int64_t *img = malloc((size_t)(depth + 1) * sizeof *img);
    sym *syms = NULL;
    int64_t nsym = 0, checked = 0, skipped = 0;
    if (!gs || !HT || !y || !P || !img) {
        mv_nomem(v);
        goto out;
    }
    for (int64_t i = 0; i < k; i++)
        for (int64_t j = 0; j < r; j++)
            HT[j * k + i] = H[i * r + j];
    size_t np = pruned == MV_NONE ? 0 : mv_count(v, pruned), pp = pruned + 1;
    for (size_t idx = 0; idx < np; idx++, pp = mv_next(v, pp)) {
        if (!mv_is_list(v, pp) || (int64_t)mv_count(v, pp) > depth) {
            mv_fail(v, "%s pruned prefix %zu must be a list of at most %" PRId64
                    " coefficients", what, idx, depth);
            goto out;
        }
        memcpy(y, x, (size_t)r);
        int64_t len = (int64_t)mv_count(v, pp);
        size_t c = pp + 1;
        for (int64_t e = 0; e < len; e++, c = mv_next(v, c)) {
            int64_t i = k - 1 - e;
            snprintf(buf, sizeof buf, "%s pruned prefix %zu entry %" PRId64, what, idx, e);
            if (mv_int_in(v, c, buf, 0, orders[i] - 1, 1, &mi))
                goto out;
            P[e] = (uint16_t)mi.i;
            for (int64_t j = 0; j < r; j++)
                y[j] = (uint8_t)((y[j] + mi.i * H[i * r + j]) % n);
        }
        int64_t free_ = k - len, bound = 0;
        if (!gs[free_].gid && (classes ? make_classes(v, HT, r, k, free_, n, &gs[free_])
                                       : make_groups(v, HT, r, k, free_, &gs[free_])))
            goto out;
        if (classes ? class_bound(v, y, r, &gs[free_], n, &bound)
                    : prefix_bound(v, y, r, &gs[free_], n, &bound))
            goto out;
        if (bound < L) {
            mv_fail(v, "%s: pruned prefix %s has bound %" PRId64 " < length %" PRId64, what,
                    mv_repr(v, pp, buf, sizeof buf), bound, L);
            goto out;
        }
        if (pset_add(&ps, P, len)) {
            mv_nomem(v);
            goto out;
        }
        if (mv_poll(v))
            goto out;
    }
    size_t spec = mv_get(v, proof, "symmetries");
    if (spec != MV_NONE) {
        if (mv_is_list(v, spec)) {
            syms = calloc(mv_count(v, spec) + 1, sizeof *syms);
            if (!syms) {
                mv_nomem(v);
                goto out;
            }
        }
        if (symmetries(v, spec, what, x, b, A, K, m, syms, &nsym))
            goto out;
    }
    if (L == 0) {       /* every length is >= 0: nothing to walk */
        *how = mv_printf("tree of %" PRId64 " pruned prefixes (length 0)", ps.used);
        if (!*how)
            mv_nomem(v);
        goto out;
    }
    /* depth first over the prefixes not pruned, children in increasing order; y is x
     * plus the fixed part (adding h_i once more past c = o_i - 1 brings it back) */
    memcpy(y, x, (size_t)r);
    int64_t l = 0;              /* the node's prefix length */
    int entering = 1;
    uint64_t nodes = 0;
    for (;;) {
        if (entering) {
            if ((++nodes & 0xFFF) == 0 && mv_poll(v))
                goto out;
            int skip = ps.used && pset_has(&ps, P, l);
            if (!skip && l == depth) {
                if (nsym && lower_image(syms, nsym, P, orders, m, depth, img)) {
                    skipped++;
                } else {
                    int64_t low = 0;
                    if (mv_coset_min(v, y, H, orders, m, r, n, &low))
                        goto out;
                    if (low < L) {
                        mv_fail(v, "%s: leaf %s has an element of length %" PRId64 " < %"
                                PRId64, what, list_text(P, l, buf, sizeof buf), low, L);
                        goto out;
                    }
                    checked++;
                }
            }
            if (!skip && l < depth) {
                P[l++] = 0;             /* the first child: c = 0, y unchanged */
                continue;
            }
            entering = 0;
        }
        /* the next sibling of the node at length l, or up */
        if (l == 0)
            break;
        int64_t i = k - 1 - (l - 1);
        const uint8_t *h = H + i * r;
        for (int64_t j = 0; j < r; j++)
            if (h[j])
                y[j] = (uint8_t)((y[j] + h[j]) % n);
        if (++P[l - 1] < orders[i]) {
            entering = 1;
            continue;
        }
        l--;                            /* y is back to the parent's */
    }
    *how = mv_printf("tree: %" PRId64 " pruned prefixes, %" PRId64 " leaves checked, %" PRId64
                     " mapped by symmetries", ps.used, checked, skipped);
    if (!*how)
        mv_nomem(v);
out:
    for (int64_t i = 0; gs && i <= k; i++)
        free(gs[i].gid), free(gs[i].a);
    free(gs);
    for (int64_t s = 0; syms && s < nsym; s++)
        free(syms[s].d), free(syms[s].T);
    free(syms), free(HT), free(y), free(P), free(img);
    pset_free(&ps);
    return v->rc;
}

/* ---------------------------------------------------------------- "minimal" claims */
int mv_check_minimal(mv *v, size_t d, const char *what, mv_matrix *A, const mv_kernel *K0,
                     char **how)
{
    int n = A->n;
    int64_t m = A->m, r = A->r;
    char w[700];
    uint8_t *b = malloc(mv_sz(m)), *x = malloc(mv_sz(r));
    uint8_t *ax = malloc(mv_sz(m));
    mv_kernel own;
    memset(&own, 0, sizeof own);
    const mv_kernel *K = K0;
    size_t t;
    mv_int L;
    if (!b || !x || !ax) {
        mv_nomem(v);
        goto out;
    }
    if (mv_field(v, d, "rhs", what, &t))
        goto out;
    snprintf(w, sizeof w, "%srhs", what);
    if (mv_ints(v, t, w, m, 0, n - 1, b, NULL, NULL) || mv_field(v, d, "taps", what, &t))
        goto out;
    snprintf(w, sizeof w, "%staps", what);
    if (mv_ints(v, t, w, r, 0, n - 1, x, NULL, NULL) || mv_field(v, d, "length", what, &t))
        goto out;
    snprintf(w, sizeof w, "%slength", what);
    if (mv_int_in(v, t, w, 0, 0, 0, &L))
        goto out;
    int64_t sx = 0;
    for (int64_t j = 0; j < r; j++)
        sx += x[j];
    if (mv_int_cmp64(L, sx)) {
        char lt[200];
        mv_fail(v, "%slength %s is not the sum of the taps (%" PRId64 ")", what,
                mv_int_text(L, lt, sizeof lt), sx);
        goto out;
    }
    mv_apply(A, x, ax);
    for (int64_t i = 0; i < m; i++)
        if (ax[i] != b[i]) {
            mv_fail(v, "%staps do not solve the board: A x != rhs at cell %" PRId64, what, i);
            goto out;
        }
    size_t proof, method;
    if (mv_field(v, d, "proof", what, &proof))
        goto out;
    snprintf(w, sizeof w, "%sproof", what);
    if (mv_field(v, proof, "method", w, &method))
        goto out;
    if (mv_get(v, proof, "generators") != MV_NONE) {
        /* a proof may carry its own (reordered) generators: checked as a kernel */
        snprintf(w, sizeof w, "%sproof kernel", what);
        if (mv_check_kernel(v, proof, A, w, &own))
            goto out;
        K = &own;
    }
    if (mv_is_str(v, method, "enumeration")) {
        if (L.i > 0) {
            int64_t low = 0;
            if (mv_coset_min(v, x, K->H, K->orders, K->k, r, n, &low))
                goto out;
            if (low < L.i) {
                mv_fail(v, "%senumeration: the coset has an element of length %" PRId64
                        " < %" PRId64, what, low, L.i);
                goto out;
            }
        }
        mv_big total = {0};
        char *text = NULL;
        int ok = !mv_big_set_u64(&total, 1);
        for (int64_t i = 0; i < K->k && ok; i++)
            ok = !mv_big_mul_small(&total, (uint32_t)K->orders[i]);
        if (ok)
            text = mv_big_to_dec(&total);
        mv_big_free(&total);
        *how = text ? mv_printf("enumeration of %s solutions", text) : NULL;
        free(text);
        if (!*how)
            mv_nomem(v);
        goto out;
    }
    if (mv_is_str(v, method, "tree")) {
        snprintf(w, sizeof w, "%sproof", what);
        check_tree(v, proof, w, x, b, L.i, A, K, how);
        goto out;
    }
    char rep[MV_MSG / 2];
    mv_fail_cut(v, 300, "%sproof method %s is unknown: use 'enumeration' or 'tree'", what,
                mv_repr(v, method, rep, sizeof rep));
out:
    free(b), free(x), free(ax);
    mv_kernel_free(&own);
    return v->rc;
}
