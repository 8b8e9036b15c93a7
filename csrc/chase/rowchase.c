/* rowchase.c: the symbolic chase with online elimination (see rowchase.h).
 *
 * Rows: GF(2) `lw` words of live-symbol bits then `cw` words of constant bits (bit j:
 * right-hand side j); GF(3) (ml_rowchase_bitsliced) two such planes, P = [x == 1] then
 * M = [x == 2] (records: each plane trimmed to the same length); other moduli `lw`
 * bytes then `k` constant bytes. A row is the affine
 * form value = sum row[c] * (symbol in column c) + constant. Columns are handed to
 * symbols as they appear (lowest free first) and freed when their symbol is
 * eliminated; the capacity grows (rows re-laid out) when every column is taken.
 *
 * Substitution is lazy: every ring slot keeps the number of eliminations applied to
 * it, and a slot is brought up to date (the records since, in order, each applied when
 * the slot holds its symbol) when it is read as a source. An elimination thus costs
 * its record plus one row operation per tap that holds its symbol, and the test "does
 * this slot hold it" is made on a row that is being read anyway (no pass over the
 * window of readable taps per elimination). Records are applied in the layout they
 * were made in: a column freed by an elimination is clear in every slot brought past
 * it, and a later symbol in that column enters an older slot only through a later
 * record. The pivot is the youngest symbol with a non-zero coefficient (a young symbol
 * is held by few taps: fewer row operations).
 *
 * The pieces: rowchase.c (this file: the run), rowchase_kernels.c (the row kernels,
 * portable and AVX2), rowchase_symbols.c (the results: counts, pending system, symbol
 * values by the records walked backwards); what they share is in rowchase_impl.h.
 */
#include "chase/rowchase.h"
#include "chase/rowchase_impl.h"
#include "base/interrupt.h"

#include <stdlib.h>
#include <string.h>

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The prime p when n = p^e (e >= 1), else 0. */
static int prime_of_power(int n) {
    if (n < 2) return 0;
    int p = n;
    for (int d = 2; d * d <= n; d++)
        if (n % d == 0) { p = d; break; }
    while (n % p == 0) n /= p;
    return n == 1 ? p : 0;
}

static int bitsliced = -1; /* -1: not read yet */

int ml_rowchase_bitsliced(void)
{
    if (bitsliced < 0) {
        const char *e = getenv("MODLIGHTS_BITSLICED");
        bitsliced = !(e && strcmp(e, "0") == 0);
    }
    return bitsliced;
}

void ml_rowchase_set_bitsliced(int on) { bitsliced = on != 0; }

/* ---- run-time state (freed when the run ends) */
typedef struct {
    const ml_chase *p;
    ml_rowchase *R;
    int n;                /* the modulus of the arithmetic: q = p^e dividing the plan's n */
    int pp;               /* its prime p */
    int reduce;           /* the plan's n is not q: coefficients are reduced mod q */
    float rn;
    uint8_t inv[256];     /* inverses of the units mod q */
    uint8_t unit[256];    /* 1 on the units mod q */
    size_t S;             /* elements a row: lw + cw */
    size_t nslots;
    uint8_t *ring;        /* nslots rows */
    uint8_t *eq;          /* one row */
    int32_t *acc;         /* S int32 (GF(p)) */
    int64_t *colsym;      /* cap: symbol in each column, -1 free */
    size_t used;          /* columns in use */
    size_t lowfree;       /* no free column below it */
    size_t max_bytes;
    size_t *version;      /* nslots: eliminations applied to each slot */
    int64_t t_now, reach; /* the tap being made; stencil: reads reach back (-1: lists) */
    int64_t nsym_now;     /* symbols made before it */
    uint8_t *pend;        /* npend rows: pending equations (Z/p^k, no unit coefficient) */
    size_t *pver;         /* npend: eliminations applied to each */
    size_t npend, pcap;
    const row_kernels *K; /* the row kernels of the SIMD path */
} run_ctx;

#define ROW(X, s) ((X)->ring + (size_t)(s) * (X)->S * (X)->R->es)

static inline unsigned get_el(const run_ctx *X, const uint8_t *v, size_t c) {
    if (X->R->gf2) return (unsigned)((((const uint64_t *)v)[c >> 6] >> (c & 63)) & 1);
    if (X->R->gf3) return gf3_get(X->R, v, c);
    return v[c];
}
static inline void clear_el(const run_ctx *X, uint8_t *v, size_t c) {
    if (X->R->gf2) ((uint64_t *)v)[c >> 6] &= ~((uint64_t)1 << (c & 63));
    else if (X->R->gf3) gf3_set(X->R, v, c, 0);
    else v[c] = 0;
}

/* Copy row o (laid out for olw column words) into v (for lw). */
static void relayout_row(const ml_rowchase *R, uint8_t *v, const uint8_t *o, size_t lw) {
    const size_t es = R->es;
    if (!R->gf3) {
        memcpy(v, o, R->lw * es);
        memcpy(v + lw * es, o + R->lw * es, R->cw * es);
        return;
    }
    const size_t H = lw + R->cw, oH = R->lw + R->cw;
    for (int pl = 0; pl < 2; pl++) {
        memcpy(v + pl * H * es, o + pl * oH * es, R->lw * es);
        memcpy(v + (pl * H + lw) * es, o + (pl * oH + R->lw) * es, R->cw * es);
    }
}

/* Re-lay the ring out for a capacity of at least `need` columns. Returns 0, 2 (out of
 * memory) or 4 (over max_bytes). */
static int grow(run_ctx *X, size_t need) {
    ml_rowchase *R = X->R;
    size_t cap = R->cap + R->cap / 4 + 64;
    if (cap < need) cap = need;
    cap = (cap + 63) / 64 * 64;
    size_t lw = R->gf2 || R->gf3 ? cap / 64 : cap;
    size_t S = R->gf3 ? 2 * (lw + R->cw) : lw + R->cw;
    size_t bytes = X->nslots * S * R->es;
    if (bytes / R->es / S != X->nslots ||
        bytes + R->dlen + (3 + X->pcap) * S * R->es > X->max_bytes) return 4;
    uint8_t *ring = calloc(X->nslots * S, R->es);
    uint8_t *eq = calloc(S, R->es);
    int32_t *acc = malloc(S * sizeof(int32_t));
    int64_t *colsym = malloc(cap * sizeof(int64_t));
    if (!ring || !eq || !acc || !colsym) { free(ring); free(eq); free(acc); free(colsym); return 2; }
    for (size_t s = 0; s < X->nslots && X->ring; s++)
        relayout_row(R, ring + s * S * R->es, X->ring + s * X->S * R->es, lw);
    if (X->pcap) {
        uint8_t *pend = calloc(X->pcap * S, R->es);
        if (!pend) { free(ring); free(eq); free(acc); free(colsym); return 2; }
        for (size_t i = 0; i < X->npend; i++)
            relayout_row(R, pend + i * S * R->es, X->pend + i * X->S * R->es, lw);
        free(X->pend);
        X->pend = pend;
    }
    for (size_t c = 0; c < cap; c++) colsym[c] = c < R->cap ? X->colsym[c] : -1;
    free(X->ring); free(X->eq); free(X->acc); free(X->colsym);
    X->ring = ring; X->eq = eq; X->acc = acc; X->colsym = colsym;
    R->cap = cap; R->lw = lw; X->S = S;
    return 0;
}

static int reserve_record(ml_rowchase *R) {
    if (R->nel == R->elcap) {
        size_t nc = R->elcap ? 2 * R->elcap : 1024;
        int32_t *a = realloc(R->rcol, nc * sizeof(int32_t));
        if (!a) return 2;
        R->rcol = a;
        int64_t *b = realloc(R->rbefore, nc * sizeof(int64_t));
        if (!b) return 2;
        R->rbefore = b;
        size_t *c = realloc(R->roff, nc * sizeof(size_t));
        if (!c) return 2;
        R->roff = c;
        uint32_t *d = realloc(R->rlen, nc * sizeof(uint32_t));
        if (!d) return 2;
        R->rlen = d;
        R->elcap = nc;
    }
    return 0;
}

static int push_record(run_ctx *X, size_t col, const uint8_t *rec) {
    ml_rowchase *R = X->R;
    const size_t es = R->es;
    size_t len = R->lw;
    const size_t H = plane_words(R);
    if (R->gf2) { const uint64_t *r = (const uint64_t *)rec; while (len && !r[len - 1]) len--; }
    else if (R->gf3) {
        const uint64_t *r = (const uint64_t *)rec;
        while (len && !(r[len - 1] | r[H + len - 1])) len--;
    } else while (len && !rec[len - 1]) len--;
    if (reserve_record(R)) return 2;
    /* GF(3): the planes one after the other, each len + cw words */
    size_t need = (len + R->cw) * es * (R->gf3 ? 2 : 1);
    /* allocated at the first record, empty ones too: R->data is never NULL when a
     * record's offset is added to it (NULL + 0 is undefined) */
    if (!R->data || R->dlen + need > R->dcap) {
        size_t nc = R->dcap ? 2 * R->dcap : 1 << 16;
        while (nc < R->dlen + need) nc *= 2;
        const size_t rows = (X->nslots + X->pcap) * X->S * es;
        if (nc + rows > X->max_bytes) {
            nc = R->dlen + need > 64 ? R->dlen + need : 64;
            if (nc + rows > X->max_bytes) return 4;
        }
        uint8_t *a = realloc(R->data, nc);
        if (!a) return 2;
        R->data = a; R->dcap = nc;
    }
    uint8_t *d = R->data + R->dlen;
    if (need) {
        memcpy(d, rec, len * es);
        memcpy(d + len * es, rec + R->lw * es, R->cw * es);
        if (R->gf3) {
            memcpy(d + (len + R->cw) * es, rec + H * es, len * es);
            memcpy(d + (2 * len + R->cw) * es, rec + (H + R->lw) * es, R->cw * es);
        }
    }
    R->rcol[R->nel] = (int32_t)col;
    R->roff[R->nel] = R->dlen;
    R->rlen[R->nel] = (uint32_t)len;
    R->dlen += need;
    R->nel++;
    return 0;
}

/* Bring row v (eliminations applied: *version) up to date: the records made since,
 * in order. */
static void update_row(run_ctx *X, uint8_t *v, size_t *version) {
    ml_rowchase *R = X->R;
    size_t i = *version;
    const size_t nel = R->nel;
    if (i == nel) return;
    const int32_t *rcol = R->rcol;
    if (R->gf2) {
        uint64_t *vv = (uint64_t *)v;
        for (; i < nel; i++) {
            /* four tests at a time, one branch (a hit changes the row: the tests after
             * it are made again, one by one) */
            while (i + 4 <= nel) {
                const int32_t a = rcol[i], b = rcol[i + 1], c = rcol[i + 2], d = rcol[i + 3];
                uint64_t hit = ((vv[a >> 6] >> (a & 63)) | (vv[b >> 6] >> (b & 63)) |
                                (vv[c >> 6] >> (c & 63)) | (vv[d >> 6] >> (d & 63))) & 1;
                if (hit) break;
                i += 4;
            }
            if (i == nel) break;
            const int32_t q = rcol[i];
            const uint64_t bit = (uint64_t)1 << (q & 63);
            if (!(vv[q >> 6] & bit) || R->rlen[i] == RETIRED) continue;
            const uint64_t *rec = (const uint64_t *)(R->data + R->roff[i]);
            const size_t len = R->rlen[i];
            X->K->axpy_gf2(vv, rec, len);
            X->K->axpy_gf2(vv + R->lw, rec + len, R->cw);
            vv[q >> 6] &= ~bit;
        }
    } else if (R->gf3) {
        uint64_t *vp = (uint64_t *)v, *vm = vp + plane_words(R);
        for (; i < nel; i++) {
            while (i + 4 <= nel) {                 /* as GF(2), on P | M */
                const int32_t a = rcol[i], b = rcol[i + 1], c = rcol[i + 2], d = rcol[i + 3];
                uint64_t hit = (((vp[a >> 6] | vm[a >> 6]) >> (a & 63)) |
                                ((vp[b >> 6] | vm[b >> 6]) >> (b & 63)) |
                                ((vp[c >> 6] | vm[c >> 6]) >> (c & 63)) |
                                ((vp[d >> 6] | vm[d >> 6]) >> (d & 63))) & 1;
                if (hit) break;
                i += 4;
            }
            if (i == nel) break;
            const int32_t q = rcol[i];
            const uint64_t bit = (uint64_t)1 << (q & 63);
            if (!((vp[q >> 6] | vm[q >> 6]) & bit) || R->rlen[i] == RETIRED) continue;
            const size_t len = R->rlen[i];
            const uint64_t *rp = (const uint64_t *)(R->data + R->roff[i]);
            const uint64_t *rm = rp + len + R->cw;
            if (vm[q >> 6] & bit) { const uint64_t *t = rp; rp = rm; rm = t; }  /* a = 2 */
            X->K->axpy_gf3(vp, vm, rp, rm, len);
            X->K->axpy_gf3(vp + R->lw, vm + R->lw, rp + len, rm + len, R->cw);
            vp[q >> 6] &= ~bit;
            vm[q >> 6] &= ~bit;
        }
    } else {
        for (; i < nel; i++) {
            while (i + 4 <= nel && !(v[rcol[i]] | v[rcol[i + 1]] | v[rcol[i + 2]] | v[rcol[i + 3]]))
                i += 4;
            if (i == nel) break;
            const int32_t q = rcol[i];
            const int32_t a = v[q];
            if (!a || R->rlen[i] == RETIRED) continue;
            const uint8_t *rec = R->data + R->roff[i];
            const size_t len = R->rlen[i];
            X->K->axpy_zn(v, rec, a, len, X->n, X->rn);
            X->K->axpy_zn(v + R->lw, rec + len, a, R->cw, X->n, X->rn);
            v[q] = 0;
        }
    }
    *version = nel;
}

/* Bring slot sl up to date. */
static inline void update(run_ctx *X, size_t sl) {
    update_row(X, ROW(X, sl), &X->version[sl]);
}

/* The row of slot sl, up to date. */
static inline uint8_t *row_of(run_ctx *X, size_t sl) {
    update(X, sl);
    return ROW(X, sl);
}

/* Retire the live columns no readable tap holds: no later tap or equation can bring
 * them back (taps and equations are sums of readable taps), so their symbols are free.
 * Logged as records of length RETIRED (the symbol in roff). Uses X->eq as scratch. */
static int retire_dead(run_ctx *X) {
    ml_rowchase *R = X->R;
    const size_t lb = R->lw * R->es;
    uint8_t *mask = X->eq;
    memset(mask, 0, lb);
    size_t s0 = 0, s1 = X->nslots;
    if (X->reach >= 0) {                      /* the taps before this one within reach */
        s0 = (size_t)(X->t_now - X->reach > 0 ? X->t_now - X->reach : 0);
        s1 = (size_t)X->t_now;
    }
    for (size_t s = s0; s < s1; s++) {
        size_t sl = X->reach >= 0 ? ml_chase_slot(X->p, (int64_t)s) : s;
        if (X->reach < 0 && sl == ml_chase_slot(X->p, X->t_now)) continue;
        const uint8_t *v = row_of(X, sl);
        for (size_t j = 0; j < lb; j++) mask[j] |= v[j];
        if (R->gf3)                               /* plane M too */
            for (size_t j = 0; j < lb; j++) mask[j] |= v[plane_words(R) * R->es + j];
    }
    for (size_t i = 0; i < X->npend; i++) {    /* pending equations hold theirs */
        uint8_t *v = X->pend + i * X->S * R->es;
        update_row(X, v, &X->pver[i]);
        for (size_t j = 0; j < lb; j++) mask[j] |= v[j];
    }
    for (size_t c = 0; c < R->cap; c++) {
        if (X->colsym[c] < 0) continue;
        unsigned held = R->gf2 || R->gf3
                            ? (unsigned)((((const uint64_t *)mask)[c >> 6] >> (c & 63)) & 1)
                            : mask[c];
        if (held) continue;
        if (reserve_record(R)) return 2;
        R->rcol[R->nel] = (int32_t)c;
        R->roff[R->nel] = (size_t)X->colsym[c];
        R->rlen[R->nel] = RETIRED;
        R->rbefore[R->nel] = X->nsym_now;
        R->nel++;
        R->nretired++;
        X->colsym[c] = -1;
        X->used--;
        if (c < X->lowfree) X->lowfree = c;
    }
    return 0;
}

/* A free column (lowest first); when none is, the dead columns are retired, and the
 * capacity grows unless that freed a quarter of it. Returns the column or -1 with
 * *err set. */
static long take_column(run_ctx *X, int *err) {
    ml_rowchase *R = X->R;
    if (X->used == R->cap) {
        int e = retire_dead(X);
        if (!e && R->cap - X->used < R->cap / 4) e = grow(X, R->cap + 1);
        if (e) { *err = e; return -1; }
    }
    for (size_t c = X->lowfree; c < R->cap; c++)
        if (X->colsym[c] < 0) {
            X->used++;
            X->lowfree = c + 1;
            if (X->used > R->width) R->width = X->used;
            return (long)c;
        }
    *err = 2;
    return -1;
}

/* Keep the equation X->eq (up to date) as a pending one: Z/p^k, every coefficient
 * divisible by p. Its coefficients stay divisible by p under later substitutions (a
 * multiple of p times a record), so it is carried to the end, caught up on the records
 * like a tap (over live symbols only) and holding its symbols live; the pending
 * equations left are the small residual system solved with valuation pivots
 * (csrc/dense/zn.c) by the caller. Returns 0, 2 or 4 (over max_bytes). */
static int push_pending(run_ctx *X) {
    ml_rowchase *R = X->R;
    const size_t rb = X->S * R->es;
    if (X->npend == X->pcap) {
        size_t nc = X->pcap ? 2 * X->pcap : 16;
        if ((X->nslots + nc) * rb + R->dlen > X->max_bytes) {
            nc = X->pcap + 1;
            if ((X->nslots + nc) * rb + R->dlen > X->max_bytes) return 4;
        }
        uint8_t *pend = realloc(X->pend, nc * rb);
        if (!pend) return 2;
        X->pend = pend;
        size_t *pver = realloc(X->pver, nc * sizeof(size_t));
        if (!pver) return 2;
        X->pver = pver;
        X->pcap = nc;
    }
    memcpy(X->pend + X->npend * rb, X->eq, rb);
    X->pver[X->npend++] = R->nel;
    return 0;
}

/* Residual equation of tile c (the row X->eq, value = 0 wanted): eliminate its
 * youngest symbol with a unit coefficient, keep it pending (Z/p^k: non-zero
 * coefficients, none a unit), or check its constants. */
static int use_equation(run_ctx *X, int64_t nsym_now) {
    ml_rowchase *R = X->R;
    uint8_t *eq = X->eq;
    long q = -1;
    int64_t best = -1;
    if (R->gf2 || R->gf3) {
        const uint64_t *e = (const uint64_t *)eq;
        const size_t H = plane_words(R);
        for (size_t i = 0; i < R->lw; i++) {
            uint64_t word = e[i] | (R->gf3 ? e[H + i] : 0);
            while (word) {
                size_t c = i * 64 + (size_t)__builtin_ctzll(word);
                word &= word - 1;
                if (X->colsym[c] > best) { best = X->colsym[c]; q = (long)c; }
            }
        }
    } else if (X->pp == X->n) {
        for (size_t c = 0; c < R->lw; c++)
            if (eq[c] && X->colsym[c] > best) { best = X->colsym[c]; q = (long)c; }
    } else {                                     /* Z/p^k: a unit coefficient */
        int any = 0;
        for (size_t c = 0; c < R->lw; c++) {
            any |= eq[c];
            if (X->unit[eq[c]] && X->colsym[c] > best) { best = X->colsym[c]; q = (long)c; }
        }
        if (q < 0 && any) return push_pending(X);
    }
    if (q < 0) {                                 /* no live symbol: a check */
        R->nchecks++;
        for (size_t j = 0; j < R->k; j++) {
            unsigned v = R->gf2 ? (unsigned)((((const uint64_t *)eq)[R->lw + j / 64] >> (j % 64)) & 1)
                       : R->gf3 ? gf3_get(R, eq, R->lw * 64 + j) : eq[R->lw + j];
            if (v) R->ok[j] = 0;
        }
        return 0;
    }
    /* record: symbol q = -(1/a) (eq - a q) */
    unsigned a = get_el(X, eq, (size_t)q);
    clear_el(X, eq, (size_t)q);
    if (R->gf3) {                                /* a = 1: negate (exchange the planes) */
        if (a == 1) {
            uint64_t *e = (uint64_t *)eq;
            const size_t H = plane_words(R);
            for (size_t j = 0; j < H; j++) { uint64_t t = e[j]; e[j] = e[H + j]; e[H + j] = t; }
        }
    } else if (!R->gf2) {
        uint8_t mul = (uint8_t)((X->n - X->inv[a]) % X->n);
        if (mul == X->n - 1) X->K->neg_mod(eq, X->S, (uint8_t)X->n);
        else if (mul != 1) {                     /* eq = mul * eq, in place */
            uint8_t *acc = (uint8_t *)X->acc;
            memset(acc, 0, X->S);
            X->K->axpy_zn(acc, eq, mul, X->S, X->n, X->rn);
            memcpy(eq, acc, X->S);
        }
    }
    int e = push_record(X, (size_t)q, eq);
    if (e) return e;
    R->rbefore[R->nel - 1] = nsym_now;
    X->colsym[q] = -1;
    X->used--;
    if ((size_t)q < X->lowfree) X->lowfree = (size_t)q;
    return 0;
}

/* The taps of a plan tile with their coefficients mod q (the plan's n is a multiple
 * of q): the ones that vanish are dropped, the order kept. Returns their number. */
static int reduce_taps(const run_ctx *X, int m, int32_t *qs, uint8_t *cf) {
    if (!X->reduce) return m;
    int k = 0;
    for (int i = 0; i < m; i++) {
        const uint8_t c = (uint8_t)(cf[i] % X->n);
        if (c) { qs[k] = qs[i]; cf[k++] = c; }
    }
    return k;
}

/* The equation of residual tile c into X->eq: sum of its taps' rows minus b. */
static void equation(run_ctx *X, int64_t c, const uint8_t *b, size_t hw, int32_t *qs,
                     uint8_t *cf, const void **src) {
    ml_rowchase *R = X->R;
    int m = reduce_taps(X, ml_chase_taps_of(X->p, c, qs, cf), qs, cf);
    for (int i = 0; i < m; i++) src[i] = row_of(X, ml_chase_slot(X->p, qs[i]));
    if (R->gf2) {
        uint64_t *v = (uint64_t *)X->eq;
        X->K->xor_rows(v, (const uint64_t *const *)src, m, X->S);
        for (size_t j = 0; j < R->k; j++)
            v[R->lw + j / 64] ^= (uint64_t)(b[j * hw + (size_t)c] & 1) << (j % 64);
    } else if (R->gf3) {
        X->K->comb_gf3(R, X->eq, (const uint8_t *const *)src, cf, m, 1);
        for (size_t j = 0; j < R->k; j++) {
            const size_t e = R->lw * 64 + j;
            gf3_set(R, X->eq, e, (gf3_get(R, X->eq, e) + 3 - b[j * hw + (size_t)c] % 3) % 3);
        }
    } else {
        X->K->comb_rows(X->eq, (const uint8_t *const *)src, cf, m, 1, X->S, X->acc, X->n, X->rn);
        for (size_t j = 0; j < R->k; j++) {
            uint8_t *e = X->eq + R->lw + j;
            *e = (uint8_t)((*e + X->n - b[j * hw + (size_t)c] % X->n) % X->n);
        }
    }
}

ml_rowchase *ml_rowchase_run(const ml_chase *p, int q, const uint8_t *b, size_t k,
                             size_t max_bytes, int *err) {
    *err = 1;
    /* the plan's geometry: n, h, w from the residual-free accessors */
    const size_t nsym = ml_chase_nsym(p), nres = ml_chase_nres(p);
    ml_rowchase *R = calloc(1, sizeof *R);
    run_ctx X;
    memset(&X, 0, sizeof X);
    int64_t *resev = NULL, *restile = NULL;
    int32_t *qs = NULL;
    uint8_t *cf = NULL;
    const void **src = NULL;
    if (!R) { *err = 2; return NULL; }
    int h, w, pn;
    ml_chase_geometry(p, &h, &w, &pn);
    const int n = q ? q : pn;
    if (!prime_of_power(n) || pn % n || (k && !b)) goto fail;
    *err = 2;
    const size_t hw = (size_t)h * (size_t)w;
    R->n = n; R->gf2 = n == 2; R->gf3 = n == 3 && ml_rowchase_bitsliced(); R->nsym = nsym; R->k = k;
    R->es = R->gf2 || R->gf3 ? sizeof(uint64_t) : 1;
    R->cw = R->gf2 || R->gf3 ? (k + 63) / 64 : k;
    R->ok = malloc(k + 1);
    R->symcol = malloc((nsym + 1) * sizeof(int32_t));
    resev = malloc((nres + 1) * sizeof(int64_t));
    restile = malloc((nres + 1) * sizeof(int64_t));
    const int mt = ml_chase_max_taps(p);
    X.reach = ml_chase_is_stencil(p) ? ml_chase_reach(p) : -1;
    qs = malloc((size_t)mt * sizeof(int32_t));
    cf = malloc((size_t)mt);
    src = malloc((size_t)mt * sizeof(void *));
    if (!R->ok || !R->symcol || !resev || !restile || !qs || !cf || !src) goto fail;
    memset(R->ok, 1, k + 1);
    ml_chase_residual_events(p, resev);
    ml_chase_residual_tiles(p, restile);
    X.p = p; X.R = R; X.n = n; X.rn = 1.0f / (float)n; X.max_bytes = max_bytes;
    X.K = ml_rowchase__kernels();
    X.pp = prime_of_power(n);
    X.reduce = n != pn;
    for (int a = 1; a < n; a++) X.unit[a] = (uint8_t)(a % X.pp != 0);
    for (int a = 1; a < n; a++)
        for (int c = 1; c < n && a % X.pp; c++)
            if ((a * c) % n == 1) { X.inv[a] = (uint8_t)c; break; }
    X.nslots = ml_chase_slots(p);
    X.version = calloc(X.nslots + 1, sizeof(size_t));
    if (!X.version) goto fail;
    {
        int e = grow(&X, 64);
        if (e) { *err = e; goto fail; }
    }
    size_t ev = 0;
    int64_t sym = 0;
    while (ev < nres && resev[ev] < 0) {
        equation(&X, restile[ev], b, hw, qs, cf, src);
        int e = use_equation(&X, sym);
        if (e) { *err = e; goto fail; }
        ev++;
    }
    for (int r = 0; r < h; r++) {
        if (ml_interrupt_poll()) { *err = 3; goto fail; }
        const int32_t *er = ml_chase_codes(p, r);
        for (int col = 0; col < w; col++) {
            const int64_t t = (int64_t)r * w + col;
            const int32_t e = er[col];
            X.t_now = t;
            X.nsym_now = sym;
            if (e == -2 && X.reach >= 0) {        /* not a tap: a zero row, up to date */
                const size_t sl = ml_chase_slot(p, t);
                memset(ROW(&X, sl), 0, X.S * R->es);
                X.version[sl] = R->nel;
            } else if (e != -2) {
                const size_t sl = ml_chase_slot(p, t);
                X.version[sl] = R->nel;           /* written from up-to-date sources */
                uint8_t *v = ROW(&X, sl);
                if (e >= 0) {
                    int64_t c = ml_chase_forcing_tile(p, e, t);
                    /* the last is t (a unit mod n, so mod q) */
                    int m = reduce_taps(&X, ml_chase_taps_of(p, c, qs, cf), qs, cf) - 1;
                    for (int i = 0; i < m; i++) src[i] = row_of(&X, ml_chase_slot(p, qs[i]));
                    if (R->gf2) {
                        uint64_t *vv = (uint64_t *)v;
                        X.K->xor_rows(vv, (const uint64_t *const *)src, m, X.S);
                        for (size_t j = 0; j < k; j++)
                            vv[R->lw + j / 64] ^= (uint64_t)(b[j * hw + (size_t)c] & 1) << (j % 64);
                    } else if (R->gf3) {
                        const unsigned il = X.inv[cf[m]];
                        X.K->comb_gf3(R, v, (const uint8_t *const *)src, cf, m, 3 - il);
                        for (size_t j = 0; j < k; j++) {
                            const size_t e2 = R->lw * 64 + j;
                            gf3_set(R, v, e2, (gf3_get(R, v, e2) + il * (b[j * hw + (size_t)c] % 3)) % 3);
                        }
                    } else {
                        const int32_t il = X.inv[cf[m]];
                        X.K->comb_rows(v, (const uint8_t *const *)src, cf, m, (n - il) % n, X.S, X.acc,
                                  n, X.rn);
                        for (size_t j = 0; j < k; j++) {
                            uint8_t *cv = v + R->lw + j;
                            *cv = (uint8_t)((*cv + il * (b[j * hw + (size_t)c] % n)) % n);
                        }
                    }
                } else {                             /* a new symbol: a column of its own */
                    long q = take_column(&X, err);
                    if (q < 0) goto fail;
                    v = ROW(&X, sl);                    /* the ring may have moved */
                    memset(v, 0, X.S * R->es);
                    if (R->gf2 || R->gf3) ((uint64_t *)v)[q >> 6] |= (uint64_t)1 << (q & 63);
                    else v[q] = 1;
                    X.colsym[q] = sym;
                    R->symcol[sym++] = (int32_t)q;
                }
            }
            while (ev < nres && resev[ev] <= t) {
                equation(&X, restile[ev], b, hw, qs, cf, src);
                int er2 = use_equation(&X, sym);
                if (er2) { *err = er2; goto fail; }
                ev++;
            }
        }
    }
    if ((size_t)sym != nsym || ev != nres) { *err = 1; goto fail; }
    R->nfree = X.used + R->nretired;
    R->freesym = malloc((R->nfree + 1) * sizeof(int64_t));
    if (!R->freesym) goto fail;
    {
        size_t i = 0;
        R->endsym = malloc((X.used + 1) * sizeof(int64_t));
        if (!R->endsym) goto fail;
        for (size_t c = 0; c < R->cap; c++)
            if (X.colsym[c] >= 0) R->endsym[R->nend++] = R->freesym[i++] = X.colsym[c];
        for (size_t e = 0; e < R->nel; e++)
            if (R->rlen[e] == RETIRED) R->freesym[i++] = (int64_t)R->roff[e];
        qsort(R->freesym, i, sizeof(int64_t), cmp_i64);
    }
    /* the pending equations, up to date, over the free symbols (only symbols live at
     * the end are left in them) */
    R->npend = X.npend;
    if (X.npend && R->nfree > (max_bytes - R->dlen) / X.npend) { *err = 4; goto fail; }
    R->pmat = calloc(X.npend * R->nfree + 1, 1);
    R->pconst = calloc(X.npend * k + 1, 1);
    if (!R->pmat || !R->pconst) goto fail;
    for (size_t i = 0; i < X.npend; i++) {
        uint8_t *v = X.pend + i * X.S;
        update_row(&X, v, &X.pver[i]);
        for (size_t c = 0; c < R->cap; c++)
            if (X.colsym[c] >= 0 && v[c])
                R->pmat[i * R->nfree + ml_rowchase__free_index(R, X.colsym[c])] = v[c];
        if (k) memcpy(R->pconst + i * k, v + R->lw, k);
    }
    free(X.ring); free(X.eq); free(X.acc); free(X.colsym); free(X.version);
    free(X.pend); free(X.pver);
    free(resev); free(restile); free(qs); free(cf); free(src);
    *err = 0;
    return R;
fail:
    free(X.ring); free(X.eq); free(X.acc); free(X.colsym); free(X.version);
    free(X.pend); free(X.pver);
    free(resev); free(restile); free(qs); free(cf); free(src);
    ml_rowchase_free(R);
    return NULL;
}

size_t ml_rowchase_min_width(const ml_chase *p) {
    const size_t nres = ml_chase_nres(p);
    int h, w, n;
    ml_chase_geometry(p, &h, &w, &n);
    int64_t *resev = malloc((nres + 1) * sizeof(int64_t));
    if (!resev) return (size_t)-1;
    ml_chase_residual_events(p, resev);
    size_t ev = 0, sym = 0, best = 0;
    while (ev < nres && resev[ev] < 0) ev++;
    for (int r = 0; r < h; r++) {
        const int32_t *er = ml_chase_codes(p, r);
        for (int col = 0; col < w; col++) {
            const int64_t t = (int64_t)r * w + col;
            if (er[col] <= -3) sym++;
            if (sym > ev && sym - ev > best) best = sym - ev;
            while (ev < nres && resev[ev] <= t) ev++;
        }
    }
    free(resev);
    return best;
}
