/* verify_bounds.c: the "bounds" claim (Python's search/verify/claims.py: _check_bounds):
 * x solves A x = b with sum(x) = upper, and covering weights over the cells to change
 * prove every solution has at least `lower` taps. No kernel: the covering bound holds
 * for every solution of A y = b. The same weights make a hardest certificate's witness
 * (_check_covering_witness). See verify_impl.h and docs/certificates.md. */
#include "verify/verify_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest common denominator (Python's COVER_DEN_MAX): a column sum of weights is
 * then at most 2^31 x 2^27 cells, far below 2^63. */
#define MV_COVER_DEN_MAX ((int64_t)1 << 31)

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int mv_covering(mv *v, size_t d, const char *what, const uint8_t *b, const mv_matrix *A,
                mv_int L, int64_t *bound)
{
    int64_t m = A->m, r = A->r;
    char rep[MV_MSG / 2], where[64], lt[200];
    size_t t, lb;
    mv_int D;
    snprintf(where, sizeof where, "%slower_bound", what);
    int64_t *w = malloc(mv_sz(m) * sizeof *w), *col = calloc(mv_sz(r), sizeof *col);
    uint64_t *keys = NULL;
    uint8_t *vals = NULL;
    int64_t count = 0;
    if (!w || !col) {
        mv_nomem(v);
        goto out;
    }
    if (mv_field(v, d, "lower_bound", *what ? "witness" : "certificate", &lb) ||
        mv_field(v, lb, "method", where, &t))
        goto out;
    if (!mv_is_str(v, t, "covering")) {
        mv_fail_cut(v, 300, "%s method %s is unknown: use 'covering'", where,
                    mv_repr(v, t, rep, sizeof rep));
        goto out;
    }
    char wd[96], ww[96];
    snprintf(wd, sizeof wd, "%s denominator", where);
    snprintf(ww, sizeof ww, "%s weights", where);
    if (mv_field(v, lb, "denominator", where, &t) ||
        mv_int_in(v, t, wd, 1, MV_COVER_DEN_MAX, 1, &D) ||
        mv_field(v, lb, "weights", where, &t) || mv_ints(v, t, ww, m, 0, D.i, NULL, w, NULL))
        goto out;
    for (int64_t i = 0; i < m; i++)
        if (w[i] && !b[i]) {
            mv_fail(v, "%s: cell %" PRId64 " has weight %" PRId64 " but needs no change", where,
                    i, w[i]);
            goto out;
        }
    if (mv_entries(v, A, NULL, NULL, &keys, &vals, &count))
        goto out;
    uint64_t rr = r > 0 ? (uint64_t)r : 1;
    for (int64_t e = 0; e < count; e++)
        col[keys[e] % rr] += w[keys[e] / rr];
    for (int64_t j = 0; j < r; j++)
        if (col[j] > D.i) {
            int64_t g = gcd64(col[j], D.i);
            if (D.i / g == 1)
                mv_fail_cut(v, 300, "%s: the cells of tap %" PRId64 " weigh %" PRId64 " > 1",
                            where, j, col[j] / g);
            else
                mv_fail_cut(v, 300, "%s: the cells of tap %" PRId64 " weigh %" PRId64
                            "/%" PRId64 " > 1", where, j, col[j] / g, D.i / g);
            goto out;
        }
    int64_t sum = 0;
    for (int64_t i = 0; i < m; i++)
        sum += w[i];
    *bound = sum / D.i + (sum % D.i != 0);
    if (mv_int_cmp64(L, *bound) > 0)
        mv_fail(v, "lower %s exceeds the %scovering bound %" PRId64 " (weights %" PRId64
                "/%" PRId64 ")", mv_int_text(L, lt, sizeof lt), what, *bound, sum, D.i);
out:
    free(w);
    free(col);
    free(keys);
    free(vals);
    return v->rc;
}

int mv_check_covering_witness(mv *v, size_t d, mv_int L, mv_matrix *A, char **how)
{
    int n = A->n;
    int64_t m = A->m, r = A->r;
    uint8_t *b = malloc(mv_sz(m)), *x = malloc(mv_sz(r)), *ax = malloc(mv_sz(m));
    size_t t;
    int64_t bound = 0;
    if (!b || !x || !ax) {
        mv_nomem(v);
        goto out;
    }
    if (mv_field(v, d, "rhs", "witness", &t) ||
        mv_ints(v, t, "witness rhs", m, 0, n - 1, b, NULL, NULL) ||
        mv_field(v, d, "taps", "witness", &t) ||
        mv_ints(v, t, "witness taps", r, 0, n - 1, x, NULL, NULL))
        goto out;
    mv_apply(A, x, ax);
    for (int64_t i = 0; i < m; i++)
        if (ax[i] != b[i]) {
            mv_fail(v, "witness taps do not solve the board: A x != rhs at cell %" PRId64, i);
            goto out;
        }
    if (mv_covering(v, d, "witness ", b, A, L, &bound))
        goto out;
    *how = mv_printf("a board of covering bound %" PRId64, bound);
    if (!*how)
        mv_nomem(v);
out:
    free(b);
    free(x);
    free(ax);
    return v->rc;
}

int mv_check_bounds(mv *v, size_t cert, mv_matrix *A, char **out)
{
    int n = A->n;
    int64_t m = A->m, r = A->r;
    uint8_t *b = malloc(mv_sz(m)), *x = malloc(mv_sz(r)), *ax = malloc(mv_sz(m));
    size_t t;
    mv_int L, U;
    char lt[200], ut[200];
    if (!b || !x || !ax) {
        mv_nomem(v);
        goto out;
    }
    if (mv_field(v, cert, "rhs", "certificate", &t) || mv_ints(v, t, "rhs", m, 0, n - 1, b, NULL, NULL) ||
        mv_field(v, cert, "taps", "certificate", &t) || mv_ints(v, t, "taps", r, 0, n - 1, x, NULL, NULL) ||
        mv_lower_upper(v, cert, &L, &U, lt, ut, sizeof lt))
        goto out;
    int64_t sx = 0;
    for (int64_t j = 0; j < r; j++)
        sx += x[j];
    if (mv_int_cmp64(U, sx)) {
        mv_fail(v, "upper %s is not the sum of the taps (%" PRId64 ")", ut, sx);
        goto out;
    }
    mv_apply(A, x, ax);
    for (int64_t i = 0; i < m; i++)
        if (ax[i] != b[i]) {
            mv_fail(v, "taps do not solve the board: A x != rhs at cell %" PRId64, i);
            goto out;
        }
    int64_t bound = 0;
    if (mv_covering(v, cert, "", b, A, L, &bound))
        goto out;
    char value[420];
    mv_value_text(L, U, lt, ut, value, sizeof value);
    *out = mv_printf("the fewest taps are %s (covering bound %" PRId64 "; the taps give %s)", value,
                     bound, ut);
    if (!*out)
        mv_nomem(v);
out:
    free(b);
    free(x);
    free(ax);
    return v->rc;
}
