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
