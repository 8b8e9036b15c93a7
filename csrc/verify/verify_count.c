/* verify_count.c: the group counts of an lp-tree (Python's search/verify/claims.py:
 * _branch_group, _count_max). A "branch-group" node lets the values of a set of taps T
 * sum into an interval, one child per interval of its splits; a leaf bounds those taps
 * together by the largest sum of their per-tap sums within the interval (a table over
 * the sums 0..(n-1)|T|). See verify_impl.h and docs/certificates.md. */
#include "verify/verify_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The n sums of tap j, sum_t S[j][t] ((a + t) mod n) for a = 0..n-1, into sums (n x LT
 * limbs). */
void mv_tap_sums(const uint32_t *Sj, int n, size_t LS, size_t LT, uint32_t *sums)
{
    memset(sums, 0, (size_t)n * LT * sizeof *sums);
    for (int a = 0; a < n; a++) {
        uint32_t *out = sums + (size_t)a * LT;
        for (int t = 0; t < n; t++) {
            uint32_t f = (uint32_t)((a + t) % n);
            if (!f)
                continue;
            uint64_t carry = 0;
            const uint32_t *x = Sj + (size_t)t * LS;
            for (size_t i = 0; i < LT; i++) {
                uint64_t y = (uint64_t)out[i] + (i < LS ? (uint64_t)x[i] * f : 0) + carry;
                out[i] = (uint32_t)y;
                carry = y >> 32;
            }
        }
    }
}

/* Fixed-width unsigned compare of x and y (L limbs each). */
int mv_limbs_cmp(const uint32_t *x, const uint32_t *y, size_t L)
{
    for (size_t i = L; i-- > 0;)
        if (x[i] != y[i])
            return x[i] > y[i] ? 1 : -1;
    return 0;
}

/* Python's _count_max for one group count: the largest sum over its taps of their
 * sums at values x with lo <= sum(x) <= hi, added to total; a table over the sums
 * 0..(n-1)|T| of LD-limb numbers (|T| sums of LT limbs fit in LT + 2 limbs). */
int mv_count_max(mv *v, const uint32_t *S, int n, size_t LS, size_t LT,
                     const group_count *g, mv_big *total)
{
    size_t LD = LT + 2, cells = (size_t)(n - 1) * (size_t)g->size + 1;
    uint32_t *best = calloc(cells * LD, sizeof *best), *nxt = calloc(cells * LD, sizeof *nxt);
    uint32_t *sums = calloc((size_t)n * LT, sizeof *sums), *c = calloc(LD, sizeof *c);
    uint8_t *ok = calloc(cells, 1), *nok = calloc(cells, 1);
    mv_big add = {0};
    if (!best || !nxt || !sums || !c || !ok || !nok) {
        mv_nomem(v);
        goto out;
    }
    ok[0] = 1;
    size_t reach = 1;   /* sums 0..reach-1 reachable so far */
    for (int64_t x = 0; x < g->size; x++) {
        mv_tap_sums(S + (size_t)g->taps[x] * (size_t)n * LS, n, LS, LT, sums);
        memset(nok, 0, cells);
        for (size_t s = 0; s < reach; s++) {
            if (!ok[s])
                continue;
            for (int a = 0; a < n; a++) {
                const uint32_t *b = best + s * LD, *y = sums + (size_t)a * LT;
                uint64_t carry = 0;
                for (size_t i = 0; i < LD; i++) {
                    uint64_t z = (uint64_t)b[i] + (i < LT ? y[i] : 0) + carry;
                    c[i] = (uint32_t)z;
                    carry = z >> 32;
                }
                uint32_t *to = nxt + (s + (size_t)a) * LD;
                if (!nok[s + (size_t)a] || mv_limbs_cmp(c, to, LD) > 0) {
                    memcpy(to, c, LD * sizeof *c);
                    nok[s + (size_t)a] = 1;
                }
            }
        }
        reach += (size_t)(n - 1);
        uint32_t *tb = best;
        best = nxt, nxt = tb;
        uint8_t *to = ok;
        ok = nok, nok = to;
        if (mv_poll(v))
            goto out;
    }
    int64_t pick = -1;
    for (int64_t s = g->lo; s <= g->hi; s++)
        if (ok[s] && (pick < 0 || mv_limbs_cmp(best + (size_t)s * LD, best + (size_t)pick * LD, LD) > 0))
            pick = s;
    if (pick >= 0) {
        add.d = best + (size_t)pick * LD, add.n = LD, add.cap = LD;
        while (add.n && !add.d[add.n - 1])
            add.n--;
        if (mv_big_add(total, &add))
            mv_nomem(v);
    }
out:
    free(best), free(nxt), free(sums), free(c), free(ok), free(nok);
    return v->rc;
}

/* Python's _branch_group: reads a branch-group node (number pos), makes or narrows its
 * group count and enters its first child (the frame f). */
int mv_branch_group(mv *v, size_t nd, size_t bg, size_t pos, int64_t r, int n,
                        const int *fixed, int64_t *cnt_of, uint8_t *mark, group_count *cons,
                        int64_t *ncons, frame *f)
{
    static const char *const what = "upper_bound";
    char wn[200];
    size_t nt = 0, ns = 0, t;
    int64_t *T = malloc((mv_is_list(v, bg) ? mv_count(v, bg) : 0) * sizeof *T + 8), *cuts = NULL;
    memset(f, 0, sizeof *f);
    if (!T)
        return mv_nomem(v);
    snprintf(wn, sizeof wn, "%s node %zu branch-group", what, pos);
    if (mv_ints(v, bg, wn, -1, 0, r - 1, NULL, T, &nt))
        goto out;
    if (!nt) {
        mv_fail(v, "%s node %zu branch-group must list at least one tap", what, pos);
        goto out;
    }
    int twice = 0;
    for (size_t x = 0; x < nt; x++)
        twice |= mark[T[x]], mark[T[x]] = 1;
    for (size_t x = 0; x < nt; x++)
        mark[T[x]] = 0;
    if (twice) {
        mv_fail(v, "%s node %zu branch-group lists a tap twice", what, pos);
        goto out;
    }
    for (size_t x = 0; x < nt; x++)
        if (fixed[T[x]] >= 0) {
            mv_fail(v, "%s node %zu branches on tap %" PRId64 ", already fixed", what, pos,
                    T[x]);
            goto out;
        }
    int64_t g = cnt_of[T[0]], lo, hi;
    int same = 1;
    for (size_t x = 1; x < nt; x++)
        same &= cnt_of[T[x]] == g;
    if (!same || (g >= 0 && cons[g].size != (int64_t)nt)) {
        mv_fail(v, "%s node %zu branch-group is not a group count or free taps", what, pos);
        goto out;
    }
    if (g < 0)
        lo = 0, hi = (int64_t)(n - 1) * (int64_t)nt;
    else
        lo = cons[g].lo, hi = cons[g].hi;
    snprintf(wn, sizeof wn, "%s node %zu", what, pos);
    if (mv_field(v, nd, "splits", wn, &t))
        goto out;
    cuts = malloc((mv_is_list(v, t) ? mv_count(v, t) : 0) * sizeof *cuts + 8);
    if (!cuts) {
        mv_nomem(v);
        goto out;
    }
    snprintf(wn, sizeof wn, "%s node %zu splits", what, pos);
    if (mv_ints(v, t, wn, -1, lo + 1, hi, NULL, cuts, &ns))
        goto out;
    int up = ns > 0;
    for (size_t x = 1; x < ns; x++)
        up &= cuts[x - 1] < cuts[x];
    if (!up) {
        mv_fail(v, "%s node %zu splits must be a non-empty increasing list", what, pos);
        goto out;
    }
    f->edges = malloc((ns + 2) * sizeof *f->edges);
    if (!f->edges) {
        mv_nomem(v);
        goto out;
    }
    f->edges[0] = lo;
    memcpy(f->edges + 1, cuts, ns * sizeof *cuts);
    f->edges[ns + 1] = hi + 1;
    f->kind = 1, f->nedges = (int64_t)ns + 2, f->prev_lo = lo, f->prev_hi = hi;
    if (g < 0) {
        g = (*ncons)++;
        cons[g] = (group_count){.taps = T, .size = (int64_t)nt};
        for (size_t x = 0; x < nt; x++)
            cnt_of[T[x]] = g;
        T = NULL;
        f->fresh = 1;
    }
    f->j = g;
    cons[g].lo = lo, cons[g].hi = f->edges[1] - 1;
out:
    free(T), free(cuts);
    return v->rc;
}

/* ---- symmetry nodes (Python's _tree_symmetries, _symmetry_node) */

int mv_tree_symmetries(mv *v, size_t ub, mv_matrix *A, int64_t **inv, int64_t *nsym)
{
    static const char *const what = "upper_bound";
    int64_t r = A->r;
    *inv = NULL, *nsym = 0;
    size_t spec = mv_get(v, ub, "symmetries");
    if (spec == MV_NONE)
        return ML_OK;
    if (!mv_is_list(v, spec))
        return mv_fail(v, "%s symmetries must be a list", what);
    int64_t count = (int64_t)mv_count(v, spec);
    if (!count)
        return ML_OK;
    if (!A->keys && mv_entries(v, A, NULL, NULL, &A->keys, &A->vals, &A->nent))
        return v->rc;
    int64_t *cells = malloc(mv_sz(A->m) * sizeof *cells);
    int64_t *taps = malloc(mv_sz(r) * sizeof *taps);
    uint8_t *seen = malloc((size_t)(A->m > r ? A->m : r) + 1);
    int64_t *out = malloc(mv_sz(count * r) * sizeof *out);
    if (!cells || !taps || !seen || !out) {
        mv_nomem(v);
        goto out;
    }
    size_t s = spec + 1;
    char w[200], ww[260];
    for (int64_t idx = 0; idx < count; idx++, s = mv_next(v, s)) {
        snprintf(w, sizeof w, "%s symmetry %" PRId64, what, idx);
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
        for (int64_t j = 0; j < r; j++)
            out[idx * r + taps[j]] = j;
        if (mv_poll(v))
            goto out;
    }
    *inv = out, *nsym = count;
    out = NULL;
out:
    free(cells), free(taps), free(seen), free(out);
    return v->rc;
}

int mv_box_keep(mv *v, mv_box *b, const int *fixed, int64_t r, const group_count *cons,
                int64_t ncons)
{
    int64_t total = 0;
    for (int64_t g = 0; g < ncons; g++)
        total += cons[g].size;
    b->fixed = malloc(mv_sz(r) * sizeof *b->fixed);
    b->lo = malloc(mv_sz(ncons) * sizeof *b->lo);
    b->hi = malloc(mv_sz(ncons) * sizeof *b->hi);
    b->start = malloc(mv_sz(ncons + 1) * sizeof *b->start);
    b->taps = malloc(mv_sz(total) * sizeof *b->taps);
    if (!b->fixed || !b->lo || !b->hi || !b->start || !b->taps) {
        mv_box_free(b);
        return mv_nomem(v);
    }
    memcpy(b->fixed, fixed, (size_t)r * sizeof *fixed);
    b->ncons = ncons;
    int64_t at = 0;
    for (int64_t g = 0; g < ncons; g++) {
        b->lo[g] = cons[g].lo, b->hi[g] = cons[g].hi, b->start[g] = at;
        memcpy(b->taps + at, cons[g].taps, (size_t)cons[g].size * sizeof *b->taps);
        at += cons[g].size;
    }
    b->start[ncons] = at;
    return ML_OK;
}

void mv_box_free(mv_box *b)
{
    free(b->fixed), free(b->lo), free(b->hi), free(b->start), free(b->taps);
    memset(b, 0, sizeof *b);
}

/* Whether inv maps the current box (fixed, cnt_of, cons) into the box b: every tap
 * fixed in b is the image of a tap fixed here to the same value; for every count T' of
 * b, the taps inv(T') are fixed, free or whole counts here with sums within its
 * interval. mark (r zero bytes) and seen (one per count here, zero) are left zero. */
static int maps_into(const int64_t *inv, const mv_box *b, int64_t r, int n, const int *fixed,
                     const int64_t *cnt_of, const group_count *cons, uint8_t *mark,
                     uint8_t *seen)
{
    for (int64_t j = 0; j < r; j++)
        if (b->fixed[j] >= 0 && fixed[inv[j]] != b->fixed[j])
            return 0;
    int ok = 1;
    for (int64_t g = 0; g < b->ncons && ok; g++) {
        const int64_t *T = b->taps + b->start[g];
        int64_t size = b->start[g + 1] - b->start[g], low = 0, high = 0;
        for (int64_t x = 0; x < size; x++)
            mark[inv[T[x]]] = 1;
        for (int64_t x = 0; x < size && ok; x++) {
            int64_t j = inv[T[x]];
            if (fixed[j] >= 0) {
                low += fixed[j], high += fixed[j];
            } else if (cnt_of[j] >= 0) {
                int64_t c = cnt_of[j];
                if (seen[c])
                    continue;
                seen[c] = 1;
                for (int64_t y = 0; y < cons[c].size && ok; y++)
                    ok = mark[cons[c].taps[y]];
                low += cons[c].lo, high += cons[c].hi;
            } else {
                high += n - 1;
            }
        }
        for (int64_t x = 0; x < size; x++) {
            int64_t j = inv[T[x]];
            mark[j] = 0;
            if (cnt_of[j] >= 0)
                seen[cnt_of[j]] = 0;
        }
        ok = ok && b->lo[g] <= low && high <= b->hi[g];
    }
    return ok;
}

int mv_symmetry_node(mv *v, size_t nd, size_t pos, const int64_t *inv, int64_t nsym,
                     const mv_box *boxes, const uint8_t *closed, size_t count, int64_t r,
                     int n, const int *fixed, const int64_t *cnt_of, const group_count *cons)
{
    char wn[200], ws[260], val[200];
    snprintf(wn, sizeof wn, "upper_bound node %zu", pos);
    if (!nsym)
        return mv_fail(v, "%s uses a symmetry but the tree lists none", wn);
    size_t t;
    mv_int s, to;
    snprintf(ws, sizeof ws, "%s symmetry", wn);
    if (mv_field(v, nd, "symmetry", wn, &t) || mv_int_in(v, t, ws, 0, nsym - 1, 1, &s) ||
        mv_field(v, nd, "to", wn, &t))
        return v->rc;
    snprintf(ws, sizeof ws, "%s to", wn);
    if (mv_int_in(v, t, ws, 0, 0, 0, &to))
        return v->rc;
    if (to.big || to.i >= (int64_t)count || !closed[to.i])
        return mv_fail(v, "%s maps to node %s, whose subtree does not end before it", wn,
                       mv_int_text(to, val, sizeof val));
    uint8_t *mark = calloc(mv_sz(r), 1), *seen = calloc(mv_sz(r), 1);
    if (!mark || !seen) {
        free(mark), free(seen);
        return mv_nomem(v);
    }
    int ok = maps_into(inv + s.i * r, &boxes[to.i], r, n, fixed, cnt_of, cons, mark, seen);
    free(mark), free(seen);
    if (!ok)
        return mv_fail(v, "%s: symmetry %" PRId64 " does not map it into node %" PRId64, wn,
                       s.i, to.i);
    return ML_OK;
}
