/* verify_upper.c: the upper bound of a "hardest" claim (Python's search/verify/claims.py:
 * _weights, _dual_bound, _elements, _check_upper). For weights w_c >= 0 summing to 1
 * over kernel elements c, min_c sum(x + c) <= sum_j max_v sum_c w_c ((v + c_j) mod n)
 * for every x (an "lp-dual"); an "lp-tree" branches over taps (ker A mapping onto the
 * pinned taps lets them be 0) and bounds each closed leaf with its own weights. Weights
 * are exact rationals (verify_big.c): with D their least common denominator, W_c = D w_c are
 * integers and S[j][t] = sum of W_c over c with c_j = t is summed limb by limb. See
 * verify_impl.h. */
#include "verify/verify_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Weights (D, W_c = D w_c) of one leaf; W[c].n == 0 for elements without weight. */
typedef struct weights {
    mv_big D;
    mv_big *W;
    int64_t count;
} weights;

static void weights_free(weights *w)
{
    mv_big_free(&w->D);
    for (int64_t i = 0; w->W && i < w->count; i++)
        mv_big_free(&w->W[i]);
    free(w->W);
    memset(w, 0, sizeof *w);
}

/* Whether the string is a rational as Python's _RATIONAL reads it. */
static int is_rational(const char *s, size_t len, size_t *slash)
{
    size_t i = s[0] == '-', a = i;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    if (i == a || i - a > 4000)
        return 0;
    *slash = i;
    if (i == len)
        return 1;
    if (s[i] != '/')
        return 0;
    size_t b = ++i;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    return i == len && i > b && i - b <= 4000;
}

/* _rational and the sign check of one weight: num (>= 0) and den (> 0). */
static int rational(mv *v, size_t t, const char *what, int64_t i, mv_big *num, mv_big *den)
{
    char w[800], rep[MV_MSG / 2];
    snprintf(w, sizeof w, "%s weight %" PRId64, what, i);
    const char *s;
    size_t len, slash;
    char *text = NULL;
    if (mv_is_int(v, t)) {
        mv_int a = mv_int_of(v, t);
        s = a.text, len = a.len, slash = len;
    } else {
        size_t n = v->j->tok[t].kind == ML_JSON_STR ? ml__json_str(v->j, t, NULL, 0) : 0;
        text = n ? malloc(n + 1) : NULL;
        if (text)
            ml__json_str(v->j, t, text, n + 1);
        if (n && !text)
            return mv_nomem(v);
        if (!text || !is_rational(text, n, &slash)) {
            free(text);
            return mv_fail_cut(v, 200, "%s must be a rational written \"p/q\" or \"p\", got %s",
                               w, mv_repr(v, t, rep, sizeof rep));
        }
        s = text, len = n;
    }
    int neg = s[0] == '-';
    int rc = mv_big_from_dec(num, s + neg, slash - (size_t)neg) ||
             (slash < len ? mv_big_from_dec(den, s + slash + 1, len - slash - 1)
                          : mv_big_set_u64(den, 1));
    if (rc) {
        free(text);
        return mv_nomem(v);
    }
    if (!den->n) {
        free(text);
        return mv_fail(v, "%s has denominator 0", w);
    }
    if (neg && num->n) {
        mv_fail_cut(v, 300, "%s: weight %" PRId64 " is negative (%.*s)", what, i, (int)len, s);
        free(text);
        return v->rc;
    }
    free(text);
    return ML_OK;
}

/* Whether the keys at tokens a and b are the same string. */
static int same_key(mv *v, size_t a, size_t b, int *eq)
{
    size_t len = ml__json_str(v->j, b, NULL, 0);
    char *s = malloc(len + 1);
    if (!s)
        return mv_nomem(v);
    ml__json_str(v->j, b, s, len + 1);
    *eq = ml__json_str_eq(v->j, a, s);
    free(s);
    return ML_OK;
}

/* _weights: a list (one per element) or {"i": w} (a key twice: its first place, its last
 * value, as json.loads reads it); (D, W). */
static int read_weights(mv *v, size_t spec, const char *what, int64_t count, weights *out)
{
    memset(out, 0, sizeof *out);
    out->count = count;
    size_t np = mv_is_dict(v, spec) ? mv_count(v, spec) : mv_is_list(v, spec) ? mv_count(v, spec) : 0;
    out->W = calloc(mv_sz(count), sizeof *out->W);
    mv_big *dens = calloc(mv_sz(count), sizeof *dens);
    uint8_t *has = calloc(mv_sz(count), 1);
    int64_t *head = malloc(mv_sz(count) * sizeof *head);
    int64_t *idx = malloc((np ? np : 1) * sizeof *idx), *chain = malloc((np ? np : 1) * sizeof *chain);
    size_t *tok = malloc((np ? np : 1) * sizeof *tok);
    mv_big g = {0}, sum = {0}, t = {0};
    if (!out->W || !dens || !has || !head || !idx || !chain || !tok) {
        mv_nomem(v);
        goto out;
    }
    size_t nitems = 0;
    if (mv_is_list(v, spec)) {
        if ((int64_t)np != count) {
            mv_fail(v, "%s has %zu weights for %" PRId64 " elements", what, np, count);
            goto out;
        }
        size_t e = spec + 1;
        for (size_t i = 0; i < np; i++, e = mv_next(v, e))
            idx[nitems] = (int64_t)i, tok[nitems++] = e;
    } else if (mv_is_dict(v, spec)) {
        size_t k = spec + 1;
        for (int64_t i = 0; i < count; i++)
            head[i] = -1;
        for (size_t x = 0; x < np; x++, k = mv_next(v, mv_next(v, k))) {
            size_t len = ml__json_str(v->j, k, NULL, 0), z = 0;
            char key[24];
            int digits = len > 0 && v->j->tok[k].len > 0;
            if (len < sizeof key)
                ml__json_str(v->j, k, key, sizeof key);
            else        /* a long key: all digits only with leading zeros (checked below) */
                digits = 0;
            for (size_t c = 0; c < len && digits; c++)
                digits = key[c] >= '0' && key[c] <= '9';
            while (digits && z + 1 < len && key[z] == '0')
                z++;
            int64_t i = -1;
            if (digits && len - z <= 18) {
                i = 0;
                for (size_t c = z; c < len; c++)
                    i = i * 10 + (key[c] - '0');
            }
            if (len >= sizeof key) {    /* the same test on the long key */
                char *big = malloc(len + 1);
                if (!big) {
                    mv_nomem(v);
                    goto out;
                }
                ml__json_str(v->j, k, big, len + 1);
                int ok = 1;
                for (size_t c = 0; c < len && ok; c++)
                    ok = big[c] >= '0' && big[c] <= '9';
                while (ok && z + 1 < len && big[z] == '0')
                    z++;
                if (ok && len - z <= 18)
                    for (i = 0; z < len; z++)
                        i = i * 10 + (big[z] - '0');
                free(big);
            }
            if (i < 0 || i >= count) {
                char rep[MV_MSG / 2];
                mv_fail_cut(v, 300, "%s: %s is not an element index (0..%" PRId64 ")", what,
                            mv_repr(v, k, rep, sizeof rep), count - 1);
                goto out;
            }
            idx[x] = i, tok[x] = k, chain[x] = -1;
            if (head[i] < 0) {
                head[i] = (int64_t)x;
            } else {
                int64_t y = head[i];
                while (chain[y] >= 0)
                    y = chain[y];
                chain[y] = (int64_t)x;
            }
        }
        /* distinct keys in order, each with the value of its last place */
        for (size_t x = 0; x < np; x++) {
            int first = 1;
            size_t val = mv_next(v, tok[x]);
            for (int64_t y = head[idx[x]]; y >= 0; y = chain[y]) {
                int eq = 0;
                if ((size_t)y == x || same_key(v, tok[x], tok[y], &eq))
                    continue;
                if (v->rc)
                    goto out;
                if (eq && (size_t)y < x)
                    first = 0;
                else if (eq)
                    val = mv_next(v, tok[y]);
            }
            if (first)
                idx[nitems] = idx[x], tok[nitems++] = val;
        }
    } else {
        mv_fail(v, "%s must be a list or an object of weights", what);
        goto out;
    }
    for (size_t a = 0; a < nitems; a++) {
        int64_t i = idx[a];
        mv_big_free(&out->W[i]);
        mv_big_free(&dens[i]);
        if (rational(v, tok[a], what, i, &out->W[i], &dens[i]))
            goto out;
        has[i] = 1;
    }
    /* D = lcm of the denominators; W_i = num_i * (D / den_i) */
    if (mv_big_set_u64(&out->D, 1)) {
        mv_nomem(v);
        goto out;
    }
    for (int64_t i = 0; i < count; i++) {
        if (!has[i])
            continue;
        if (mv_big_gcd(&g, &out->D, &dens[i]) || mv_big_divmod(&out->D, &g, &t, NULL) ||
            mv_big_mul(&out->D, &t, &dens[i])) {
            mv_nomem(v);
            goto out;
        }
        if (mv_poll(v))
            goto out;
    }
    for (int64_t i = 0; i < count; i++) {
        if (!has[i] || !out->W[i].n)
            continue;
        if (mv_big_divmod(&out->D, &dens[i], &t, NULL) || mv_big_mul(&out->W[i], &out->W[i], &t) ||
            mv_big_add(&sum, &out->W[i])) {
            mv_nomem(v);
            goto out;
        }
    }
    if (mv_big_cmp(&sum, &out->D)) {
        char *f = mv_big_frac(&sum, &out->D);
        if (!f) {
            mv_nomem(v);
            goto out;
        }
        mv_fail_cut(v, 300, "%s: the weights sum to %s, not 1", what, f);
        free(f);
    }
out:
    for (int64_t i = 0; dens && i < count; i++)
        mv_big_free(&dens[i]);
    free(dens), free(has), free(head), free(idx), free(chain), free(tok);
    mv_big_free(&g), mv_big_free(&sum), mv_big_free(&t);
    if (v->rc)
        weights_free(out);
    return v->rc;
}

/* The bound of one set of weights, as total / D: sum over taps fixed of
 * sum_c W_c ((v_j + c_j) mod n) plus over the others of its max over v; fixed[j] < 0:
 * free. The taps of a group count (cnt_of[j] >= 0, an index into cons) count together
 * (count_max) instead. */
static int dual_bound(mv *v, const uint8_t *V, int64_t E, int64_t r, int n, const weights *w,
                      const int *fixed, const int64_t *cnt_of, const group_count *cons,
                      int64_t ncons, mv_big *total)
{
    size_t LW = 1;
    for (int64_t c = 0; c < E; c++)
        if (w->W[c].n > LW)
            LW = w->W[c].n;
    size_t LS = LW + 3, LT = LS + 1;
    uint32_t *S = calloc((size_t)(r * n) * LS + 1, sizeof *S);
    uint32_t *sums = calloc((size_t)n * LT, sizeof *sums), *best = calloc(LT, sizeof *best);
    mv_big add = {0};
    total->n = 0;
    if (!S || !sums || !best) {
        mv_nomem(v);
        goto out;
    }
    for (int64_t c = 0; c < E; c++) {
        const mv_big *W = &w->W[c];
        if (!W->n)
            continue;
        for (int64_t j = 0; j < r; j++) {
            uint32_t *s = S + ((size_t)j * n + V[c * r + j]) * LS;
            uint64_t carry = 0;
            size_t i = 0;
            for (; i < W->n; i++) {
                uint64_t x = (uint64_t)s[i] + W->d[i] + carry;
                s[i] = (uint32_t)x;
                carry = x >> 32;
            }
            for (; carry && i < LS; i++) {
                uint64_t x = (uint64_t)s[i] + carry;
                s[i] = (uint32_t)x;
                carry = x >> 32;
            }
        }
        if ((c & 0xFF) == 0 && mv_poll(v))
            goto out;
    }
    for (int64_t g = 0; g < ncons; g++)
        if (mv_count_max(v, S, n, LS, LT, &cons[g], total))
            goto out;
    for (int64_t j = 0; j < r; j++) {
        if (cnt_of && cnt_of[j] >= 0)
            continue;
        mv_tap_sums(S + (size_t)j * n * LS, n, LS, LT, sums);
        int pick = fixed[j] >= 0 ? fixed[j] : 0;
        for (int a = 1; a < n && fixed[j] < 0; a++)
            if (mv_limbs_cmp(sums + (size_t)a * LT, sums + (size_t)pick * LT, LT) > 0)
                pick = a;
        memcpy(best, sums + (size_t)pick * LT, LT * sizeof *best);
        add.d = best, add.n = LT, add.cap = LT;
        while (add.n && !add.d[add.n - 1])
            add.n--;
        if (mv_big_add(total, &add)) {
            mv_nomem(v);
            goto out;
        }
        if ((j & 0xFF) == 0 && mv_poll(v))
            goto out;
    }
out:
    free(S), free(sums), free(best);
    return v->rc;
}

/* _elements: kernel elements by their coefficients, V (E x r) = a H mod n. */
static int elements(mv *v, size_t spec, const char *what, const mv_kernel *K, uint8_t **V,
                    int64_t *count)
{
    int64_t k = K->k, r = K->r;
    if (!mv_is_list(v, spec) || !mv_count(v, spec))
        return mv_fail(v, "%s elements must be a non-empty list of coefficient lists", what);
    int64_t E = (int64_t)mv_count(v, spec);
    size_t row = spec + 1;
    for (int64_t e = 0; e < E; e++, row = mv_next(v, row)) {
        int ok = mv_is_list(v, row) && (int64_t)mv_count(v, row) == k;
        size_t c = row + 1;
        for (int64_t i = 0; ok && i < k; i++, c = mv_next(v, c))
            ok = mv_is_int(v, c);
        if (!ok)
            return mv_fail(v, "%s element %" PRId64 " must be a list of %" PRId64 " integers",
                           what, e, k);
    }
    row = spec + 1;
    for (int64_t e = 0; e < E; e++, row = mv_next(v, row)) {
        size_t c = row + 1;
        for (int64_t i = 0; i < k; i++, c = mv_next(v, c)) {
            mv_int a = mv_int_of(v, c);
            if (mv_int_cmp64(a, 0) < 0 || mv_int_cmp64(a, K->orders[i] - 1) > 0)
                return mv_fail(v, "%s element %" PRId64 ": coefficient %" PRId64 " is not in "
                               "0..%d (below its order)", what, e, i, K->orders[i] - 1);
        }
    }
    uint8_t *out = malloc(mv_sz(E * r));
    int64_t *acc = malloc(mv_sz(r) * sizeof *acc);
    if (!out || !acc) {
        free(out), free(acc);
        return mv_nomem(v);
    }
    row = spec + 1;
    for (int64_t e = 0; e < E; e++, row = mv_next(v, row)) {
        memset(acc, 0, (size_t)r * sizeof *acc);
        size_t c = row + 1;
        for (int64_t i = 0; i < k; i++, c = mv_next(v, c)) {
            int64_t a = mv_int_of(v, c).i;
            for (int64_t j = 0; a && j < r; j++)
                acc[j] += a * K->H[i * r + j];
        }
        for (int64_t j = 0; j < r; j++)
            out[e * r + j] = (uint8_t)(acc[j] % K->n);
        if ((e & 0xFF) == 0 && mv_poll(v))
            break;
    }
    free(acc);
    if (v->rc) {
        free(out);
        return v->rc;
    }
    *V = out;
    *count = E;
    return ML_OK;
}

/* floor(total / D) into fl; whether fl > U (U >= 0). */
static int floor_over(mv *v, const mv_big *total, const mv_big *D, mv_int U, mv_big *fl,
                      int *over)
{
    mv_big u = {0};
    int rc = mv_big_divmod(total, D, fl, NULL) ||
             (U.big ? mv_big_from_dec(&u, U.text, U.len) : mv_big_set_u64(&u, (uint64_t)U.i));
    if (rc) {
        mv_big_free(&u);
        return mv_nomem(v);
    }
    *over = mv_big_cmp(fl, &u) > 0;
    mv_big_free(&u);
    return ML_OK;
}

int mv_check_upper(mv *v, size_t ub, mv_int U, mv_matrix *A, const mv_kernel *K, char **how)
{
    static const char *const what = "upper_bound";
    int n = A->n;
    int64_t r = A->r, E = 0;
    uint8_t *V = NULL, *M = NULL;
    int64_t *pinned = NULL;
    int *fixed = NULL;
    frame *stack = NULL;
    int64_t depth = 0, cap = 0, ncons = 0, *cnt_of = NULL;
    uint8_t *mark = NULL;
    group_count *cons = NULL;
    mv_piv *piv = NULL;
    int64_t *inv = NULL, nsym = 0, mapped = 0;
    uint8_t *target = NULL, *closed = NULL;
    mv_box *boxes = NULL;
    size_t count = 0;
    weights w;
    memset(&w, 0, sizeof w);
    mv_big total = {0}, fl = {0}, worst = {0};
    char *a = NULL, *b = NULL, *c = NULL, ut[200];
    size_t method, t;
    int over = 0;
    if (mv_field(v, ub, "method", what, &method) || mv_field(v, ub, "elements", what, &t) ||
        elements(v, t, what, K, &V, &E))
        goto out;
    fixed = malloc(mv_sz(r) * sizeof *fixed);
    if (!fixed) {
        mv_nomem(v);
        goto out;
    }
    for (int64_t j = 0; j < r; j++)
        fixed[j] = -1;
    if (mv_is_str(v, method, "lp-dual")) {
        if (mv_field(v, ub, "weights", what, &t) || read_weights(v, t, "lp-dual", E, &w) ||
            dual_bound(v, V, E, r, n, &w, fixed, NULL, NULL, 0, &total) ||
            floor_over(v, &total, &w.D, U, &fl, &over))
            goto out;
        a = mv_big_to_dec(&fl);
        if (!a) {
            mv_nomem(v);
            goto out;
        }
        if (over) {
            mv_fail(v, "lp-dual: floor(bound) %s > upper %s", a, mv_int_text(U, ut, sizeof ut));
            goto out;
        }
        b = mv_big_frac(&total, &w.D);
        *how = b ? mv_printf("LP dual over %" PRId64 " kernel elements, bound %s (floor %s)", E,
                             b, a) : NULL;
        if (!*how)
            mv_nomem(v);
        goto out;
    }
    if (!mv_is_str(v, method, "lp-tree")) {
        char rep[MV_MSG / 2];
        mv_fail_cut(v, 300, "%s method %s is unknown: use 'lp-dual' or 'lp-tree'", what,
                    mv_repr(v, method, rep, sizeof rep));
        goto out;
    }
    size_t np = 0;
    if (mv_field(v, ub, "pinned", what, &t))
        goto out;
    pinned = malloc((mv_is_list(v, t) ? mv_count(v, t) : 0) * sizeof *pinned + 8);
    if (!pinned) {
        mv_nomem(v);
        goto out;
    }
    if (mv_ints(v, t, "upper_bound pinned", -1, 0, r - 1, NULL, pinned, &np))
        goto out;
    for (size_t x = 0; x < np; x++) {
        if (fixed[pinned[x]] == 0) {
            mv_fail(v, "%s: pinned lists a tap twice", what);
            goto out;
        }
        fixed[pinned[x]] = 0;
    }
    /* ker A maps onto the pinned taps: the generators there have full rank mod each p */
    mv_pp pp = mv_prime_powers(n);
    M = malloc((size_t)K->k * np + 1);
    piv = malloc(((size_t)K->k < np ? (size_t)K->k : np) * sizeof *piv + sizeof *piv);
    if (!M || !piv) {
        mv_nomem(v);
        goto out;
    }
    for (int s = 0; s < pp.count; s++) {
        int64_t rank = 0;
        if (np) {
            for (int64_t i = 0; i < K->k; i++)
                for (size_t x = 0; x < np; x++)
                    M[(size_t)i * np + x] = (uint8_t)(K->H[i * r + pinned[x]] % pp.p[s]);
            if (mv_eliminate(v, M, K->k, (int64_t)np, pp.p[s], 1, NULL, 0, piv, &rank))
                goto out;
        }
        if (rank != (int64_t)np) {
            mv_fail(v, "%s: ker A does not map onto the pinned taps (rank %" PRId64 " < %zu mod "
                    "%d)", what, rank, np, pp.p[s]);
            goto out;
        }
    }
    size_t nodes;
    if (mv_field(v, ub, "nodes", what, &nodes))
        goto out;
    if (!mv_is_list(v, nodes)) {
        mv_fail(v, "%s nodes must be a list", what);
        goto out;
    }
    count = mv_count(v, nodes);
    size_t pos = 0, node = nodes + 1;
    if (mv_tree_symmetries(v, ub, A, &inv, &nsym))
        goto out;
    cnt_of = malloc(mv_sz(r) * sizeof *cnt_of);
    mark = calloc(mv_sz(r), 1);
    cons = calloc(mv_sz(r), sizeof *cons);
    target = calloc(count + 1, 1);
    closed = calloc(count + 1, 1);
    boxes = calloc(count + 1, sizeof *boxes);
    if (!cnt_of || !mark || !cons || !target || !closed || !boxes) {
        mv_nomem(v);
        goto out;
    }
    /* the nodes symmetry nodes name: their boxes are kept when met */
    for (size_t x = 0, nd = nodes + 1; x < count; x++, nd = mv_next(v, nd)) {
        size_t to = mv_get(v, nd, "to");
        if (mv_get(v, nd, "symmetry") != MV_NONE && to != MV_NONE && mv_is_int(v, to)) {
            mv_int a = mv_int_of(v, to);
            if (!a.big && a.i >= 0 && a.i < (int64_t)count)
                target[a.i] = 1;
        }
    }
    for (int64_t j = 0; j < r; j++)
        cnt_of[j] = -1;
    int64_t leaves = 0;
    char wn[200];
    for (;;) {
        if (pos >= count) {
            mv_fail(v, "%s: the tree ends early (after %zu nodes)", what, pos);
            goto out;
        }
        size_t nd = node;
        node = mv_next(v, node);
        pos++;
        if (target[pos - 1] && mv_box_keep(v, &boxes[pos - 1], fixed, r, cons, ncons))
            goto out;
        if (depth == cap) {
            frame *grown = realloc(stack, (size_t)(cap = 2 * cap + 16) * sizeof *stack);
            if (!grown) {
                mv_nomem(v);
                goto out;
            }
            stack = grown;
        }
        size_t br = mv_get(v, nd, "branch");
        if (br != MV_NONE) {
            mv_int j;
            snprintf(wn, sizeof wn, "%s node %zu branch", what, pos - 1);
            if (mv_int_in(v, br, wn, 0, r - 1, 1, &j))
                goto out;
            if (fixed[j.i] >= 0) {
                mv_fail(v, "%s node %zu branches on tap %" PRId64 ", already fixed", what,
                        pos - 1, j.i);
                goto out;
            }
            if (cnt_of[j.i] >= 0) {
                mv_fail(v, "%s node %zu branches on tap %" PRId64 ", in a group count", what,
                        pos - 1, j.i);
                goto out;
            }
            stack[depth++] = (frame){.kind = 0, .j = j.i, .start = pos - 1};
            fixed[j.i] = 0;
            continue;
        }
        size_t bg = mv_get(v, nd, "branch-group");
        if (bg != MV_NONE) {
            if (mv_branch_group(v, nd, bg, pos - 1, r, n, fixed, cnt_of, mark, cons, &ncons,
                             &stack[depth]))
                goto out;
            stack[depth++].start = pos - 1;
            continue;
        }
        if (mv_get(v, nd, "symmetry") != MV_NONE) {
            if (mv_symmetry_node(v, nd, pos - 1, inv, nsym, boxes, closed, count, r, n, fixed,
                                 cnt_of, cons))
                goto out;
            mapped++;
            goto unwind;
        }
        snprintf(wn, sizeof wn, "%s node %zu", what, pos - 1);
        weights_free(&w);
        if (mv_field(v, nd, "weights", wn, &t) || read_weights(v, t, wn, E, &w) ||
            dual_bound(v, V, E, r, n, &w, fixed, cnt_of, cons, ncons, &total) ||
            floor_over(v, &total, &w.D, U, &fl, &over))
            goto out;
        if (over) {
            free(a);
            a = mv_big_to_dec(&fl);
            if (a)
                mv_fail(v, "lp-tree: node %zu has floor(bound) %s > upper %s", pos - 1, a,
                        mv_int_text(U, ut, sizeof ut));
            else
                mv_nomem(v);
            goto out;
        }
        if (!leaves || mv_big_cmp(&fl, &worst) > 0)
            if (mv_big_copy(&worst, &fl)) {
                mv_nomem(v);
                goto out;
            }
        leaves++;
    unwind:
        closed[pos - 1] = 1;
        while (depth) {
            frame *f = &stack[depth - 1];
            if (f->kind == 0 && f->value < n - 1) {
                fixed[f->j] = (int)++f->value;
                break;
            }
            if (f->kind == 1 && f->value < f->nedges - 2) {
                f->value++;
                cons[f->j].lo = f->edges[f->value];
                cons[f->j].hi = f->edges[f->value + 1] - 1;
                break;
            }
            depth--;
            closed[f->start] = 1;
            if (f->kind == 0) {
                fixed[f->j] = -1;
            } else if (f->fresh) {
                for (int64_t x = 0; x < cons[f->j].size; x++)
                    cnt_of[cons[f->j].taps[x]] = -1;
                free(cons[f->j].taps);
                cons[f->j].taps = NULL;
                ncons--;
            } else {
                cons[f->j].lo = f->prev_lo, cons[f->j].hi = f->prev_hi;
            }
            free(f->edges);
        }
        if (!depth)
            break;
    }
    if (pos != count) {
        mv_fail(v, "%s: %zu nodes after the end of the tree", what, count - pos);
        goto out;
    }
    c = mv_big_to_dec(&worst);
    if (c && mapped)
        *how = mv_printf("LP tree of %" PRId64 " closed leaves, largest bound %s, %" PRId64
                         " mapped by symmetries", leaves, c, mapped);
    else
        *how = c ? mv_printf("LP tree of %" PRId64 " closed leaves, largest bound %s", leaves,
                             c) : NULL;
    if (!*how)
        mv_nomem(v);
out:
    for (int64_t d = 0; d < depth; d++)
        free(stack[d].edges);
    for (int64_t g = 0; cons && g < ncons; g++)
        free(cons[g].taps);
    free(V), free(M), free(pinned), free(fixed), free(stack), free(piv);
    free(cnt_of), free(mark), free(cons);
    for (size_t x = 0; boxes && x < count; x++)
        mv_box_free(&boxes[x]);
    free(boxes), free(target), free(closed), free(inv);
    free(a), free(b), free(c);
    weights_free(&w);
    mv_big_free(&total), mv_big_free(&fl), mv_big_free(&worst);
    return v->rc;
}
