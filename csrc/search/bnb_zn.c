/* bnb_zn.c: depth-first branch and bound over a Z/n coset with the class bound and the
 * "tree" proof (bnb_zn.h; the bound is docs/certificates.md's "classes"). */
#include "search/bnb_zn.h"

#include "base/interrupt.h"
#include "search/driver.h"

#include <stdlib.h>
#include <string.h>

static unsigned gcd_u(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The inverse of the unit e mod n (gcd(e, n) = 1). */
static unsigned inv_mod(unsigned e, unsigned n)
{
    for (unsigned v = 1; v < n; v++)
        if ((v * e) % n == 1)
            return v;
    return 1;
}

/* ------------------------------------------------------------------ classes */
/* The classes of one free count f: taps of the zero column, singleton classes (tap and
 * gcd(a, n)), and classes of two taps or more (CSR: start, tap, a). */
typedef struct {
    uint32_t nzero, nsingle, nmulti;
    uint32_t *zero;        /* nzero taps */
    uint32_t *single;      /* nsingle taps */
    uint8_t *single_g;     /* gcd(a_j, n) */
    uint32_t *mstart;      /* nmulti + 1 */
    uint32_t *mtap;
    uint8_t *ma;
} classes;

static void classes_free(classes *c)
{
    free(c->zero);
    free(c->single);
    free(c->single_g);
    free(c->mstart);
    free(c->mtap);
    free(c->ma);
    memset(c, 0, sizeof *c);
}

/* Merge sort of idx[0..cnt) by (key, index): no global state, stable. */
static int key_less(const uint8_t *key, size_t f, uint32_t x, uint32_t y)
{
    int c = f ? memcmp(key + (size_t)x * f, key + (size_t)y * f, f) : 0;
    return c ? c < 0 : x < y;
}

static void sort_keys(uint32_t *idx, uint32_t *tmp, size_t cnt, const uint8_t *key, size_t f)
{
    for (size_t run = 1; run < cnt; run *= 2) {
        for (size_t lo = 0; lo < cnt; lo += 2 * run) {
            size_t mid = lo + run < cnt ? lo + run : cnt;
            size_t hi = lo + 2 * run < cnt ? lo + 2 * run : cnt;
            size_t a = lo, b = mid, o = lo;
            while (a < mid || b < hi)
                tmp[o++] = b >= hi || (a < mid && key_less(key, f, idx[a], idx[b])) ? idx[a++]
                                                                                   : idx[b++];
        }
        memcpy(idx, tmp, cnt * sizeof *idx);
    }
}

/* The classes over the first f rows of gens (k x r). */
static int classes_make(const uint8_t *gens, size_t f, size_t r, unsigned n, classes *C)
{
    memset(C, 0, sizeof *C);
    uint8_t *key = malloc(r * (f ? f : 1) + 1);
    uint8_t *a = malloc(r + 1);
    uint32_t *idx = malloc((r + 1) * sizeof *idx), *tmp = malloc((r + 1) * sizeof *tmp);
    C->zero = malloc((r + 1) * sizeof *C->zero);
    C->single = malloc((r + 1) * sizeof *C->single);
    C->single_g = malloc(r + 1);
    C->mstart = malloc((r + 2) * sizeof *C->mstart);
    C->mtap = malloc((r + 1) * sizeof *C->mtap);
    C->ma = malloc(r + 1);
    int rc = ML_BNB_ENOMEM;
    if (!key || !a || !idx || !tmp || !C->zero || !C->single || !C->single_g || !C->mstart ||
        !C->mtap || !C->ma)
        goto out;
    size_t nz = 0;      /* taps with a non-zero column, in idx */
    for (size_t j = 0; j < r; j++) {
        uint8_t *u = key + j * f;
        unsigned e = 0;
        for (size_t i = 0; i < f; i++) {
            u[i] = gens[i * r + j];
            if (!e && u[i])
                e = u[i];
        }
        if (!e) {
            C->zero[C->nzero++] = (uint32_t)j;
            continue;
        }
        a[j] = 1;
        if (gcd_u(e, n) == 1) {
            unsigned v = inv_mod(e, n);
            for (size_t i = 0; i < f; i++)
                u[i] = (uint8_t)((u[i] * v) % n);
            a[j] = (uint8_t)e;
        }
        idx[nz++] = (uint32_t)j;
    }
    sort_keys(idx, tmp, nz, key, f);
    C->mstart[0] = 0;
    for (size_t s = 0; s < nz;) {
        size_t e = s + 1;
        while (e < nz && !memcmp(key + (size_t)idx[s] * f, key + (size_t)idx[e] * f, f))
            e++;
        if (e - s == 1) {
            C->single_g[C->nsingle] = (uint8_t)gcd_u(a[idx[s]], n);
            C->single[C->nsingle++] = idx[s];
        } else {
            uint32_t p = C->mstart[C->nmulti];
            for (size_t q = s; q < e; q++) {
                C->mtap[p] = idx[q];
                C->ma[p++] = a[idx[q]];
            }
            C->mstart[++C->nmulti] = p;
        }
        s = e;
    }
    rc = ML_BNB_OK;
out:
    free(key);
    free(a);
    free(idx);
    free(tmp);
    if (rc)
        classes_free(C);
    return rc;
}

/* The class bound of y over classes C; stops summing once it reaches `enough`. */
static int64_t classes_bound(const classes *C, const uint8_t *y, unsigned n, int64_t enough)
{
    int64_t t = 0;
    for (uint32_t q = 0; q < C->nzero; q++)
        t += y[C->zero[q]];
    for (uint32_t q = 0; q < C->nsingle; q++)
        t += y[C->single[q]] % C->single_g[q];
    if (t >= enough)
        return t;
    for (uint32_t g = 0; g < C->nmulti; g++) {
        int64_t best = -1;
        uint32_t a0 = C->mstart[g], a1 = C->mstart[g + 1];
        for (unsigned s = 0; s < n && best != 0; s++) {
            int64_t v = 0;
            for (uint32_t p = a0; p < a1; p++)
                v += (y[C->mtap[p]] + (unsigned)C->ma[p] * s) % n;
            if (best < 0 || v < best)
                best = v;
        }
        t += best;
        if (t >= enough)
            return t;
    }
    return t;
}

int64_t ml_bnb_zn_bound(const uint8_t *y, const uint8_t *gens, size_t f, size_t r, unsigned n)
{
    classes C;
    if (classes_make(gens, f, r, n, &C))
        return -1;
    int64_t b = classes_bound(&C, y, n, INT64_MAX);
    classes_free(&C);
    return b;
}

/* ------------------------------------------------------------------ sparsify */
int ml_bnb_zn_sparsify(uint8_t *gens, const uint32_t *orders, size_t k, size_t r, unsigned n)
{
    uint32_t maxo = 2;
    for (size_t i = 0; i < k; i++)
        maxo = orders[i] > maxo ? orders[i] : maxo;
    if ((double)k * (double)k * maxo * (double)r > (double)((uint64_t)1 << 28))
        return ML_BNB_OK;   /* too costly: the basis as it is */
    size_t *nnz = malloc((k + 1) * sizeof *nnz);
    uint8_t *h = malloc(r + 1);
    if (!nnz || !h) {
        free(nnz);
        free(h);
        return ML_BNB_ENOMEM;
    }
    for (size_t i = 0; i < k; i++) {
        nnz[i] = 0;
        for (size_t j = 0; j < r; j++)
            nnz[i] += gens[i * r + j] != 0;
    }
    int rc = ML_BNB_OK;
    for (int pass = 0, changed = 1; changed && pass < 8; pass++) {
        changed = 0;
        if (ml_interrupt_poll()) {
            rc = ML_BNB_INTERRUPTED;
            break;
        }
        for (size_t i = 0; i < k; i++)
            for (size_t a = 0; a < k; a++) {
                if (a == i)
                    continue;
                const uint8_t *g = gens + a * r;
                uint8_t *t = gens + i * r;
                for (uint32_t c = 1; c < orders[a]; c++) {
                    if (orders[i] % (orders[a] / gcd_u(c, orders[a])))
                        continue;   /* c h_a's order must divide h_i's */
                    size_t z = 0;
                    for (size_t j = 0; j < r && z < nnz[i]; j++) {
                        h[j] = (uint8_t)((t[j] + c * g[j]) % n);
                        z += h[j] != 0;
                    }
                    if (z < nnz[i] && z > 0) {   /* z = 0: not a basis; left alone */
                        for (size_t j = 0; j < r; j++)
                            t[j] = (uint8_t)((t[j] + c * g[j]) % n);
                        nnz[i] = z;
                        changed = 1;
                    }
                }
            }
    }
    free(nnz);
    free(h);
    return rc;
}

/* ------------------------------------------------------------------ order */
int ml_bnb_zn_order(const uint8_t *gens, size_t k, size_t r, uint32_t *perm)
{
    uint32_t *cnt = calloc(r + 1, sizeof *cnt);
    uint8_t *used = calloc(k + 1, 1);
    if (!cnt || !used) {
        free(cnt);
        free(used);
        return ML_BNB_ENOMEM;
    }
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < r; j++)
            cnt[j] += gens[i * r + j] != 0;
    for (size_t t = k; t-- > 0;) {
        size_t pick = k;
        uint64_t ps = 0, pn = 0;
        for (size_t i = 0; i < k; i++) {
            if (used[i])
                continue;
            uint64_t shared = 0, nnz = 0;
            for (size_t j = 0; j < r; j++)
                if (gens[i * r + j]) {
                    nnz++;
                    shared += cnt[j] > 1;
                }
            if (pick == k || shared > ps || (shared == ps && nnz > pn)) {
                pick = i;
                ps = shared;
                pn = nnz;
            }
        }
        used[pick] = 1;
        perm[t] = (uint32_t)pick;
        for (size_t j = 0; j < r; j++)
            cnt[j] -= gens[pick * r + j] != 0;
    }
    free(cnt);
    free(used);
    return ML_BNB_OK;
}

/* ------------------------------------------------------------------ the search */
typedef struct {
    size_t k, r, m;
    unsigned n;
    const uint8_t *G;
    const uint32_t *ord;
    const uint32_t *sp_start, *sp_idx;   /* supports of the generators */
    const uint8_t *sp_val;
    classes *C;                /* C[f - m] for f = m..k */
    uint8_t *ys;               /* (k + 1) x r: ys[f] the node with f free */
    int64_t *cb;               /* (k + 1) x maxo: children's bounds */
    uint32_t *co;              /* (k + 1) x maxo: children's order */
    uint32_t maxo;
    uint32_t *path;            /* k: path[i] the coefficient of generator i (i >= f) */
    uint32_t *cstar;           /* k: the coefficients of best */
    uint32_t *dig;             /* m: leaf walk digits */
    int8_t *dir;
    uint8_t *best;
    int64_t best_len;
    uint64_t budget, work, next_poll, poll_every;   /* poll about every 2^22 tap steps */
    int64_t deadline_ns;
    ml_bnb_proof *proof;
    int overflow;              /* the proof passed ML_BNB_MAX_PROOF words: none kept */
    ml_bnb_stats *st;
} bnb;

/* Account `w` units of work; returns ML_BNB_* when the search must stop. */
static int tick(bnb *B, uint64_t w)
{
    B->work += w;
    if (B->budget && B->work >= B->budget)
        return ML_BNB_STOPPED;
    if (B->work < B->next_poll)
        return ML_BNB_OK;
    B->next_poll = B->work + B->poll_every;
    if (ml_interrupt_poll())
        return ML_BNB_INTERRUPTED;
    if (B->deadline_ns > 0 && ml_driver_now_ns() >= B->deadline_ns)
        return ML_BNB_STOPPED;
    return ML_BNB_OK;
}

/* y += c h_i (mod n) over the support of h_i. */
static void add_gen(const bnb *B, uint8_t *y, size_t i, uint32_t c)
{
    unsigned n = B->n;
    for (uint32_t p = B->sp_start[i]; p < B->sp_start[i + 1]; p++) {
        uint32_t j = B->sp_idx[p];
        y[j] = (uint8_t)((y[j] + c * B->sp_val[p]) % n);
    }
}

static int64_t length_of(const uint8_t *y, size_t r)
{
    int64_t s = 0;
    for (size_t j = 0; j < r; j++)
        s += y[j];
    return s;
}

/* Record the prefix of the node path[k-1..f] plus c for generator f - 1 ... as the
 * coefficients of generators k-1 .. i (i the last fixed). */
static int record(bnb *B, size_t i)
{
    ml_bnb_proof *P = B->proof;
    if (!P)
        return ML_BNB_OK;
    uint64_t d = B->k - i, need = P->nwords + d + 1;
    if (B->overflow || need > ML_BNB_MAX_PROOF) {   /* no proof: the search goes on */
        B->overflow = 1;
        return ML_BNB_OK;
    }
    if (need > P->cap) {
        uint64_t cap = P->cap ? P->cap : 1024;
        while (cap < need)
            cap *= 2;
        uint32_t *w = realloc(P->words, cap * sizeof *w);
        if (!w)
            return ML_BNB_ENOMEM;
        P->words = w;
        P->cap = cap;
    }
    P->words[P->nwords++] = (uint32_t)d;
    for (size_t t = B->k; t-- > i;)
        P->words[P->nwords++] = B->path[t];
    P->npruned++;
    return ML_BNB_OK;
}

/* The walk of a leaf (m free generators) from y (its copy is walked). */
static int walk_leaf(bnb *B, const uint8_t *y0)
{
    size_t r = B->r, m = B->m;
    uint8_t *cur = B->ys;   /* the slot of free count 0, unused above the leaves when m > 0
                             * (when m = 0 it is y0 itself, which the walk leaves alone) */
    if (cur != y0)
        memcpy(cur, y0, r);
    int64_t len = length_of(cur, r);
    B->st->leaves++;
    for (size_t i = 0; i < m; i++) {
        B->dig[i] = 0;
        B->dir[i] = 1;
    }
    for (;;) {
        B->st->examined++;
        if (len < B->best_len) {
            B->best_len = len;
            memcpy(B->best, cur, r);
            for (size_t i = 0; i < m; i++)
                B->path[i] = B->dig[i];
            memcpy(B->cstar, B->path, B->k * sizeof *B->cstar);
        }
        int rc = tick(B, 1);
        if (rc)
            return rc;
        size_t i = 0;
        while (i < m) {
            int64_t nd = (int64_t)B->dig[i] + B->dir[i];
            if (nd >= 0 && nd < (int64_t)B->ord[i]) {
                B->dig[i] = (uint32_t)nd;
                break;
            }
            B->dir[i] = (int8_t)-B->dir[i];
            i++;
        }
        if (i == m)
            return ML_BNB_OK;
        unsigned n = B->n;
        for (uint32_t p = B->sp_start[i]; p < B->sp_start[i + 1]; p++) {
            uint32_t j = B->sp_idx[p];
            unsigned old = cur[j];
            unsigned v = B->dir[i] > 0 ? old + B->sp_val[p] : old + n - B->sp_val[p];
            if (v >= n)
                v -= n;
            len += (int64_t)v - (int64_t)old;
            cur[j] = (uint8_t)v;
        }
    }
}

/* The node with f free generators, y = ys[f] (not pruned). */
static int dfs(bnb *B, size_t f)
{
    size_t r = B->r;
    const uint8_t *y = B->ys + f * r;
    if (f == B->m)
        return walk_leaf(B, y);
    size_t i = f - 1;
    uint32_t o = B->ord[i];
    uint8_t *yc = B->ys + i * r;
    int64_t *cb = B->cb + f * B->maxo;
    uint32_t *co = B->co + f * B->maxo;
    const classes *C = &B->C[i - B->m];
    memcpy(yc, y, r);
    for (uint32_t c = 0; c < o; c++) {
        if (c)
            add_gen(B, yc, i, 1);
        cb[c] = classes_bound(C, yc, B->n, B->best_len);
        co[c] = c;
        B->st->nodes++;
        int rc = tick(B, 1);
        if (rc)
            return rc;
    }
    for (uint32_t a = 1; a < o; a++) {   /* insertion sort by (bound, c) */
        uint32_t c = co[a];
        uint32_t b = a;
        while (b > 0 && cb[co[b - 1]] > cb[c]) {
            co[b] = co[b - 1];
            b--;
        }
        co[b] = c;
    }
    for (uint32_t a = 0; a < o; a++) {
        uint32_t c = co[a];
        B->path[i] = c;
        if (cb[c] >= B->best_len) {
            int rc = record(B, i);
            if (rc)
                return rc;
            continue;
        }
        memcpy(yc, y, r);
        if (c)
            add_gen(B, yc, i, c);
        int rc = dfs(B, i);
        if (rc)
            return rc;
    }
    return ML_BNB_OK;
}

void ml_bnb_proof_free(ml_bnb_proof *p)
{
    if (!p)
        return;
    free(p->gens);
    free(p->orders);
    free(p->words);
    memset(p, 0, sizeof *p);
}

int ml_bnb_zn_min(const uint8_t *x0, const uint8_t *gens, const uint32_t *orders, size_t k,
                  size_t r, unsigned n, uint64_t budget, int64_t deadline_ns, uint8_t *best,
                  int64_t *len, ml_bnb_proof *proof, ml_bnb_stats *st)
{
    memset(st, 0, sizeof *st);
    if (proof)
        memset(proof, 0, sizeof *proof);
    memcpy(best, x0, r);
    *len = length_of(x0, r);
    if (n < 2 || n > 255 || k > ML_BNB_MAX_GENS)
        return ML_BNB_EINVAL;
    uint32_t maxo = 1;
    for (size_t i = 0; i < k; i++) {
        if (orders[i] < 2 || orders[i] > n || n % orders[i])
            return ML_BNB_EINVAL;
        if (orders[i] > maxo)
            maxo = orders[i];
    }
    for (size_t q = 0; q < k * r; q++)
        if (gens[q] >= n)
            return ML_BNB_EINVAL;
    /* leaves: the longest prefix of at most ML_BNB_LEAF_ELEMENTS elements */
    size_t m = 0;
    uint64_t leaf = 1;
    while (m < k && leaf * orders[m] <= ML_BNB_LEAF_ELEMENTS)
        leaf *= orders[m++];
    bnb B;
    memset(&B, 0, sizeof B);
    B.k = k, B.r = r, B.m = m, B.n = n, B.G = gens, B.ord = orders, B.maxo = maxo;
    B.best = best, B.best_len = *len, B.budget = budget, B.deadline_ns = deadline_ns;
    B.poll_every = ((uint64_t)1 << 22) / ((uint64_t)r * n + 1);
    B.poll_every = B.poll_every < 1 ? 1 : B.poll_every > 4096 ? 4096 : B.poll_every;
    B.next_poll = B.poll_every, B.proof = proof, B.st = st;
    size_t nnz = 0;
    for (size_t q = 0; q < k * r; q++)
        nnz += gens[q] != 0;
    uint32_t *sp_start = malloc((k + 1) * sizeof *sp_start);
    uint32_t *sp_idx = malloc((nnz + 1) * sizeof *sp_idx);
    uint8_t *sp_val = malloc(nnz + 1);
    B.C = calloc(k - m + 1, sizeof *B.C);
    B.ys = malloc((k + 1) * r + 1);
    B.cb = malloc((k + 1) * maxo * sizeof *B.cb);
    B.co = malloc((k + 1) * maxo * sizeof *B.co);
    B.path = calloc(k + 1, sizeof *B.path);
    B.cstar = calloc(k + 1, sizeof *B.cstar);
    B.dig = calloc(m + 1, sizeof *B.dig);
    B.dir = calloc(m + 1, 1);
    int rc = ML_BNB_ENOMEM;
    size_t built = 0;
    if (!sp_start || !sp_idx || !sp_val || !B.C || !B.ys || !B.cb || !B.co || !B.path ||
        !B.cstar || !B.dig || !B.dir)
        goto out;
    uint32_t p = 0;
    for (size_t i = 0; i < k; i++) {
        sp_start[i] = p;
        for (size_t j = 0; j < r; j++)
            if (gens[i * r + j]) {
                sp_idx[p] = (uint32_t)j;
                sp_val[p++] = gens[i * r + j];
            }
    }
    sp_start[k] = p;
    B.sp_start = sp_start, B.sp_idx = sp_idx, B.sp_val = sp_val;
    for (size_t f = m; f <= k; f++) {
        if (classes_make(gens, f, r, n, &B.C[f - m]))
            goto out;
        built++;
        if (ml_interrupt_poll()) {   /* O(r f log r) each: polled between them */
            rc = ML_BNB_INTERRUPTED;
            goto out;
        }
        if (deadline_ns > 0 && ml_driver_now_ns() >= deadline_ns) {
            rc = ML_BNB_STOPPED;
            goto out;
        }
    }
    memcpy(B.ys + k * r, x0, r);
    if (classes_bound(&B.C[k - m], x0, n, B.best_len) >= B.best_len) {
        rc = record(&B, k);   /* the root: the empty prefix */
        st->nodes = 1;
    } else {
        rc = dfs(&B, k);
    }
    *len = B.best_len;
    if (rc == ML_BNB_OK && B.overflow) {
        rc = ML_BNB_TOO_BIG;   /* finished: best is least, but there is no proof */
        st->complete = 1;
    }
    if (rc == ML_BNB_OK) {
        st->complete = 1;
        if (proof) {   /* the prefixes relative to best, and the generators */
            proof->k = k, proof->r = r, proof->m = (unsigned)m;
            proof->gens = malloc(k * r + 1);
            proof->orders = malloc((k + 1) * sizeof *proof->orders);
            if (!proof->gens || !proof->orders) {
                rc = ML_BNB_ENOMEM;
                goto out;
            }
            memcpy(proof->gens, gens, k * r);
            memcpy(proof->orders, orders, k * sizeof *orders);
            for (uint64_t q = 0; q < proof->nwords;) {
                uint32_t d = proof->words[q++];
                for (uint32_t t = 0; t < d; t++, q++) {
                    size_t i = k - 1 - t;
                    uint32_t c = proof->words[q];
                    proof->words[q] = (c + orders[i] - B.cstar[i] % orders[i]) % orders[i];
                }
            }
        }
    }
out:
    if (rc && rc != ML_BNB_TOO_BIG)
        st->complete = 0;
    if (rc && proof)
        ml_bnb_proof_free(proof);
    for (size_t f = 0; B.C && f < built; f++)
        classes_free(&B.C[f]);
    free(B.C);
    free(sp_start);
    free(sp_idx);
    free(sp_val);
    free(B.ys);
    free(B.cb);
    free(B.co);
    free(B.path);
    free(B.cstar);
    free(B.dig);
    free(B.dir);
    return rc;
}
