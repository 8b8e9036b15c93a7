/* polymatn.c: k x k matrices over GF(p)[s] / (s^w - 1) and their diagonal form
 * (polymatn.h). */
#include "engines/polymatn.h"

#include "engines/polymat.h"

#include "base/interrupt.h"
#include "poly/poly.h"

#include <stdlib.h>
#include <string.h>

#define Z(a) (ml__alg_px_deg(m->p, (a)) < 0)
#define E(r, c) (&m->e[(size_t)(r) * m->k + (c)])

/* ------------------------------------------------------------------ the ring */
/* a = a mod s^w - 1 for a of any degree: coefficients at i >= w added at i - w */
static int fold(unsigned p, size_t w, px *a)
{
    if (p != 2) {
        ml_gfpx *c = &a->c;
        if (c->n <= w)
            return 0;
        for (size_t i = c->n; i-- > w;) {
            unsigned v = c->c[i - w] + c->c[i];
            c->c[i - w] = (uint8_t)(v >= p ? v - p : v);
            c->c[i] = 0;
        }
        c->n = w;
        ml_gfpx_normalise(c);
        return 0;
    }
    ml_gf2x *b = &a->b;
    size_t W = (w + 63) / 64;
    while (ml_gf2x_deg(b) >= (long)w) {
        size_t n = b->n, nh = n * 64 - w, H = (nh + 63) / 64, q = w / 64;
        unsigned sh = (unsigned)(w % 64);
        uint64_t *hi = calloc(H + 1, sizeof *hi);
        if (!hi)
            return 2;
        for (size_t j = 0; j < H; j++) {
            uint64_t lo = q + j < n ? b->c[q + j] >> sh : 0;
            uint64_t up = sh && q + j + 1 < n ? b->c[q + j + 1] << (64 - sh) : 0;
            hi[j] = lo | up;
        }
        if (sh)
            b->c[W - 1] &= ((uint64_t)1 << sh) - 1;
        for (size_t j = W; j < n; j++)
            b->c[j] = 0;
        b->n = W < n ? W : n;
        for (size_t j = 0; j < H; j++) {
            if (j < b->n) {
                b->c[j] ^= hi[j];
            } else if (hi[j]) {   /* cannot happen for a product of reduced entries */
                free(hi);
                return 4;
            }
        }
        free(hi);
        ml_gf2x_normalise(b);
    }
    return 0;
}

int ml__pmn_reduce(unsigned p, size_t w, px *a) { return fold(p, w, a); }

/* x mod p for x < 2^16 (a 32-bit Barrett step: q is x / p or one more) */
static inline uint8_t red16(uint32_t x, uint32_t M, uint32_t p)
{
    uint32_t q = (x * M) >> 16;
    int32_t r = (int32_t)x - (int32_t)(q * p);
    return (uint8_t)(r + (int32_t)((uint32_t)(r >> 31) & p));
}

/* r = a b mod s^w - 1 over GF(p), p > 2 with (p - 1)^2 < 2^15: the cyclic product
 * straight into w 16-bit sums (two runs a coefficient of a), reduced every K rows */
static int cmul16(unsigned p, size_t w, px *r, const px *a, const px *b)
{
    const ml_gfpx *A = &a->c, *Bp = &b->c;
    size_t na = A->n, nb = Bp->n;
    if (!na || !nb) {
        if (r->c.n)
            memset(r->c.c, 0, r->c.n);
        r->c.n = 0;
        return 0;
    }
    uint32_t sq = (p - 1) * (p - 1), K = (0xFFFFu - sq) / sq, M = 65536 / p + 1, pending = 0;
    uint16_t *acc = calloc(w, sizeof *acc);
    if (!acc)
        return 2;
    const uint8_t *bc = Bp->c;
    for (size_t i = 0; i < na; i++) {
        uint16_t ai = A->c[i];
        if (!ai)
            continue;
        size_t n1 = nb < w - i ? nb : w - i;
        uint16_t *restrict d1 = acc + i;
        for (size_t j = 0; j < n1; j++)
            d1[j] = (uint16_t)(d1[j] + ai * bc[j]);
        const uint8_t *restrict b2 = bc + n1;   /* j = n1 + k >= w - i: acc[k] */
        for (size_t k = 0; k + n1 < nb; k++)
            acc[k] = (uint16_t)(acc[k] + ai * b2[k]);
        if (++pending == K) {
            for (size_t j = 0; j < w; j++)
                acc[j] = red16(acc[j], M, p);
            pending = 1;   /* each sum is below p <= sq again */
        }
    }
    size_t old = r->c.n;
    if (ml_gfpx_fit(&r->c, w)) {
        free(acc);
        return 2;
    }
    if (old > w)
        memset(r->c.c + w, 0, old - w);
    for (size_t j = 0; j < w; j++)
        r->c.c[j] = red16(acc[j], M, p);
    r->c.n = w;
    ml_gfpx_normalise(&r->c);
    free(acc);
    return 0;
}

/* below this degree the 16-bit schoolbook product; from it poly.c's (NTT products for
 * large degrees): equal at 500 - 2000, 5000^2 knight over Z/3 built in 1.2-1.4 s
 * against 1.8 s with the schoolbook */
#define CMUL16_MAX_W 1024
int ml__pmn_mul(unsigned p, size_t w, px *r, const px *a, const px *b)
{
    if (p != 2 && (p - 1) * (p - 1) < 0x8000 && a->c.n <= w && b->c.n <= w && w < CMUL16_MAX_W)
        return cmul16(p, w, r, a, b);
    int rc = ml__alg_px_mul(p, r, a, b);
    return rc ? rc : fold(p, w, r);
}

/* a = a + q b mod s^w - 1 (t: scratch distinct from the others) */
static int addmul(unsigned p, size_t w, px *a, const px *q, const px *b, px *t)
{
    int rc = ml__pmn_mul(p, w, t, q, b);
    return rc ? rc : ml__alg_px_add(p, a, t);
}

/* (x, y) <- (u0 x + u1 y, u2 x + u3 y) (t: 3 scratch) */
static int two(unsigned p, size_t w, px *x, px *y, const px u[4], px t[3])
{
    int rc = ml__pmn_mul(p, w, &t[0], &u[0], x);
    if (!rc)
        rc = addmul(p, w, &t[0], &u[1], y, &t[2]);
    if (!rc)
        rc = ml__pmn_mul(p, w, &t[1], &u[2], x);
    if (!rc)
        rc = addmul(p, w, &t[1], &u[3], y, &t[2]);
    if (!rc) {
        px s = *x;
        *x = t[0];
        t[0] = s;
        s = *y;
        *y = t[1];
        t[1] = s;
    }
    return rc;
}

static void swap_px(px *a, px *b)
{
    px t = *a;
    *a = *b;
    *b = t;
}

/* ------------------------------------------------------------------ the matrix */
int ml__pmn_init(pmn *m, unsigned p, size_t w, size_t k)
{
    memset(m, 0, sizeof *m);
    m->p = p;
    m->w = w;
    m->k = k;
    m->e = calloc(k * k + 1, sizeof *m->e);
    if (!m->e)
        return 2;
    for (size_t i = 0; i < k * k; i++)
        ml__alg_px_init(&m->e[i]);
    return 0;
}

void ml__pmn_clear(pmn *m)
{
    if (m->e)
        for (size_t i = 0; i < m->k * m->k; i++)
            ml__alg_px_clear(&m->e[i]);
    for (size_t o = 0; o < m->nops; o++)
        for (int i = 0; i < 4; i++)
            ml__alg_px_clear(&m->ops[o].u[i]);
    free(m->e);
    free(m->ops);
    memset(m, 0, sizeof *m);
}

/* a new entry of the log (its polynomials zero), NULL when out of memory */
static pmn_op *log_op(pmn *m, int kind, size_t i, size_t j)
{
    if (m->nops == m->capops) {
        size_t cap = m->capops ? 2 * m->capops : 16;
        pmn_op *n = realloc(m->ops, cap * sizeof *n);
        if (!n)
            return NULL;
        m->ops = n;
        m->capops = cap;
    }
    pmn_op *o = &m->ops[m->nops++];
    o->kind = kind;
    o->i = (unsigned)i;
    o->j = (unsigned)j;
    for (int t = 0; t < 4; t++)
        ml__alg_px_init(&o->u[t]);
    return o;
}

/* The Euclid step clearing c against the pivot a (row or column j against i = k):
 * logs ROWADD / COLADD (u0 = -(c / a)) when a | c, else ROW2 / COL2 with the xgcd's
 * [[s, t], [-(c / g), a / g]]; *op the logged entry. */
static int euclid(pmn *m, int row, size_t k, size_t j, const px *a, const px *c, px *q,
                  px *r, pmn_op **op)
{
    unsigned p = m->p;
    int rc = ml__alg_px_divrem(p, q, r, c, a);
    if (rc)
        return rc;
    if (Z(r)) {
        pmn_op *o = log_op(m, row ? PMN_ROWADD : PMN_COLADD, k, j);
        if (!o)
            return 2;
        ml__alg_px_neg(p, q);
        *op = o;
        return ml__alg_px_copy(p, &o->u[0], q);
    }
    pmn_op *o = log_op(m, row ? PMN_ROW2 : PMN_COL2, k, j);
    if (!o)
        return 2;
    *op = o;
    px g;
    ml__alg_px_init(&g);
    rc = ml__pm_xgcd(p, &g, &o->u[0], &o->u[1], a, c);
    if (!rc)
        rc = ml__alg_px_divrem(p, &o->u[2], r, c, &g);
    if (!rc && !Z(r))
        rc = 4;
    if (!rc)
        rc = ml__alg_px_divrem(p, &o->u[3], r, a, &g);
    if (!rc && !Z(r))
        rc = 4;
    if (!rc)
        ml__alg_px_neg(p, &o->u[2]);
    for (int t = 0; t < 2 && !rc; t++)   /* s, t of the xgcd: below w already; be sure */
        rc = fold(p, m->w, &o->u[t]);
    ml__alg_px_clear(&g);
    return rc;
}

/* apply the logged op o to the matrix (its rows / columns from k on) */
static int apply_op(pmn *m, const pmn_op *o, size_t k, px t[3])
{
    unsigned p = m->p;
    size_t K = m->k, i = o->i, j = o->j;
    int rc = 0;
    for (size_t x = k; x < K && !rc; x++) {
        int row = o->kind == PMN_ROW2 || o->kind == PMN_ROWADD;
        px *a = row ? E(i, x) : E(x, i), *b = row ? E(j, x) : E(x, j);
        if (o->kind == PMN_ROW2 || o->kind == PMN_COL2)
            rc = two(p, m->w, a, b, o->u, t);
        else if (!Z(a))
            rc = addmul(p, m->w, b, &o->u[0], a, &t[0]);
    }
    return rc;
}

static int swap_lines(pmn *m, int row, size_t i, size_t j)
{
    if (i == j)
        return 0;
    if (!log_op(m, row ? PMN_ROWSWAP : PMN_COLSWAP, i, j))
        return 2;
    for (size_t x = 0; x < m->k; x++) {
        if (row)
            swap_px(E(i, x), E(j, x));
        else
            swap_px(E(x, i), E(x, j));
    }
    return 0;
}

int ml__pmn_diagonalise(pmn *m)
{
    unsigned p = m->p;
    size_t K = m->k;
    px q, r, t[3];
    ml__alg_px_init(&q);
    ml__alg_px_init(&r);
    for (int i = 0; i < 3; i++)
        ml__alg_px_init(&t[i]);
    int rc = 0;
    for (size_t k = 0; k < K && !rc; k++) {
        /* the entry of least degree of the trailing block to the pivot */
        long best = -1;
        size_t bi = k, bj = k;
        for (size_t i = k; i < K; i++)
            for (size_t j = k; j < K; j++) {
                long d = ml__alg_px_deg(p, E(i, j));
                if (d >= 0 && (best < 0 || d < best)) {
                    best = d;
                    bi = i;
                    bj = j;
                }
            }
        if (best < 0)
            break;   /* the rest is zero */
        rc = swap_lines(m, 1, k, bi);
        if (!rc)
            rc = swap_lines(m, 0, k, bj);
        /* each xgcd step lowers the pivot's degree: at most w + 1 rounds clear it */
        size_t rounds = 0;
        for (int dirty = 1; dirty && !rc;) {
            if (++rounds > 2 * (m->w + 2)) {
                rc = 4;
                break;
            }
            dirty = 0;
            for (int row = 1; row >= 0 && !rc; row--)
                for (size_t j = k + 1; j < K && !rc; j++) {
                    px *c = row ? E(j, k) : E(k, j);
                    if (Z(c))
                        continue;
                    pmn_op *o = NULL;
                    px a;
                    ml__alg_px_init(&a);
                    rc = ml__alg_px_copy(p, &a, E(k, k));
                    if (!rc)
                        rc = euclid(m, row, k, j, &a, c, &q, &r, &o);
                    ml__alg_px_clear(&a);
                    if (!rc)
                        rc = apply_op(m, o, k, t);
                    if (!rc && ml_interrupt_poll())
                        rc = 3;
                }
            for (size_t j = k + 1; j < K && !rc; j++)
                dirty |= !Z(E(j, k)) || !Z(E(k, j));
        }
    }
    ml__alg_px_clear(&q);
    ml__alg_px_clear(&r);
    for (int i = 0; i < 3; i++)
        ml__alg_px_clear(&t[i]);
    return rc;
}

/* v <- op v: rows (L) with u as logged, columns (V) with u transposed */
static int apply_vec(const pmn *m, const pmn_op *o, px *v, px t[3])
{
    unsigned p = m->p;
    px *a = &v[o->i], *b = &v[o->j];
    switch (o->kind) {
    case PMN_ROWSWAP:
    case PMN_COLSWAP:
        swap_px(a, b);
        return 0;
    case PMN_ROWADD:   /* v_j += u0 v_i */
        return Z(a) ? 0 : addmul(p, m->w, b, &o->u[0], a, &t[0]);
    case PMN_COLADD:   /* v_i += u0 v_j */
        return Z(b) ? 0 : addmul(p, m->w, a, &o->u[0], b, &t[0]);
    case PMN_ROW2:
        return two(p, m->w, a, b, o->u, t);
    default: {   /* PMN_COL2: (v_i, v_j) <- (u0 v_i + u2 v_j, u1 v_i + u3 v_j) */
        px ut[4] = {o->u[0], o->u[2], o->u[1], o->u[3]};
        return two(p, m->w, a, b, ut, t);
    }
    }
}

static int replay(const pmn *m, px *v, int rows)
{
    px t[3];
    for (int i = 0; i < 3; i++)
        ml__alg_px_init(&t[i]);
    int rc = 0;
    for (size_t n = 0; n < m->nops && !rc; n++) {
        const pmn_op *o = &m->ops[rows ? n : m->nops - 1 - n];
        int is_row = o->kind == PMN_ROW2 || o->kind == PMN_ROWADD || o->kind == PMN_ROWSWAP;
        if (is_row == rows)
            rc = apply_vec(m, o, v, t);
        if (!rc && (n & 63) == 63 && ml_interrupt_poll())
            rc = 3;
    }
    for (int i = 0; i < 3; i++)
        ml__alg_px_clear(&t[i]);
    return rc;
}

int ml__pmn_apply_L(const pmn *m, px *v) { return replay(m, v, 1); }
int ml__pmn_apply_V(const pmn *m, px *v) { return replay(m, v, 0); }
