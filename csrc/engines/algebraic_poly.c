/* algebraic_poly.c: the polynomial layer of engines/algebraic.c (algebraic_impl.h):
 * one code path for GF(2) (ml_gf2x) and GF(p) (ml_gfpx), the 2 x 2 matrix product over
 * GF(p)[x] / (m) (polymat.py's mat_mul), cross.py's _resultant. */
#include "engines/algebraic_impl.h"

#include "api/board.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ polynomials */
void ml__alg_px_init(px *a)
{
    ml_gf2x_init(&a->b);
    ml_gfpx_init(&a->c);
}
void ml__alg_px_clear(px *a)
{
    ml_gf2x_clear(&a->b);
    ml_gfpx_clear(&a->c);
}
px *ml__alg_px_vec(size_t n)
{
    px *v = malloc((n + 1) * sizeof *v);
    if (v)
        for (size_t i = 0; i < n; i++)
            ml__alg_px_init(&v[i]);
    return v;
}
void ml__alg_px_vec_free(px *v, size_t n)
{
    if (v)
        for (size_t i = 0; i < n; i++)
            ml__alg_px_clear(&v[i]);
    free(v);
}
long ml__alg_px_deg(unsigned p, const px *a)
{
    return p == 2 ? ml_gf2x_deg(&a->b) : ml_gfpx_deg(&a->c);
}
int ml__alg_px_mul(unsigned p, px *r, const px *a, const px *b)
{
    return p == 2 ? ml_gf2x_mul(&r->b, &a->b, &b->b) : ml_gfpx_mul(&r->c, &a->c, &b->c, p);
}
int ml__alg_px_divrem(unsigned p, px *q, px *r, const px *a, const px *b)
{
    return p == 2 ? ml_gf2x_divrem(q ? &q->b : NULL, &r->b, &a->b, &b->b)
                  : ml_gfpx_divrem(q ? &q->c : NULL, &r->c, &a->c, &b->c, p);
}
/* r = a b mod m (t: scratch, distinct from r, a, b) */
int ml__alg_px_mulmod(unsigned p, px *r, const px *a, const px *b, const px *m, px *t)
{
    int rc = ml__alg_px_mul(p, t, a, b);
    return rc ? rc : ml__alg_px_divrem(p, NULL, r, t, m);
}
/* a += b (b distinct from a) */
int ml__alg_px_add(unsigned p, px *a, const px *b)
{
    return p == 2 ? ml_gf2x_addshift(&a->b, &b->b, 0) : ml_gfpx_axpy(&a->c, 1, &b->c, 0, 1, p);
}
void ml__alg_px_neg(unsigned p, px *a)
{
    if (p != 2)
        ml_gfpx_scale(&a->c, p - 1, p);
}
/* a = sum c[i] x^i, i < n (c[i] < p) */
int ml__alg_px_set(unsigned p, px *a, const uint8_t *c, size_t n)
{
    if (p != 2)
        return ml_gfpx_set(&a->c, c, n);
    ml_gf2x_zero(&a->b);
    for (size_t i = 0; i < n; i++)
        if (c[i] & 1) {
            int rc = ml_gf2x_addmono(&a->b, i);
            if (rc)
                return rc;
        }
    return 0;
}
int ml__alg_px_copy(unsigned p, px *r, const px *a)
{
    return p == 2 ? ml_gf2x_copy(&r->b, &a->b) : ml_gfpx_copy(&r->c, &a->c);
}
/* r = a x^k (r distinct from a) */
int ml__alg_px_shift(unsigned p, px *r, const px *a, size_t k)
{
    if (p == 2) {
        ml_gf2x_zero(&r->b);
        return ml_gf2x_addshift(&r->b, &a->b, k);
    }
    if (r->c.n)   /* poly.h's invariant: entries at or past n are zero */
        memset(r->c.c, 0, r->c.n);
    r->c.n = 0;
    return ml_gfpx_axpy(&r->c, 0, &a->c, k, 1, p);
}

/* w bytes (0/1) <-> ceil(w / 64) words */
void ml__alg_to_words(const uint8_t *v, size_t w, uint64_t *out)
{
    memset(out, 0, ((w + 63) / 64) * sizeof *out);
    for (size_t i = 0; i < w; i++)
        if (v[i] & 1)
            out[i / 64] |= 1ull << (i % 64);
}
void ml__alg_from_words(const uint64_t *v, size_t w, uint8_t *out)
{
    for (size_t i = 0; i < w; i++)
        out[i] = (uint8_t)(v[i / 64] >> (i % 64) & 1);
}

void ml__alg_reverse(uint8_t *v, size_t w)
{
    for (size_t i = 0; i < w / 2; i++) {
        uint8_t t = v[i];
        v[i] = v[w - 1 - i];
        v[w - 1 - i] = t;
    }
}

unsigned ml__alg_powmod(unsigned a, uint64_t e, unsigned p)
{
    uint64_t r = 1 % p, x = a % p;
    while (e) {
        if (e & 1)
            r = r * x % p;
        x = x * x % p;
        e >>= 1;
    }
    return (unsigned)r;
}

/* T = X Y for 2 x 2 matrices over GF(p)[x] / (m) (row-major; sq, u: scratch) */
int ml__alg_mat_mul(unsigned p, px *T, const px *X, const px *Y, const px *m, px *sq, px *u)
{
    int rc = 0;
    for (int i = 0; i < 2 && !rc; i++)
        for (int j = 0; j < 2 && !rc; j++) {
            rc = ml__alg_px_mulmod(p, &T[2 * i + j], &X[2 * i], &Y[j], m, sq);
            if (!rc)
                rc = ml__alg_px_mulmod(p, u, &X[2 * i + 1], &Y[2 + j], m, sq);
            if (!rc)
                rc = ml__alg_px_add(p, &T[2 * i + j], u);
        }
    return rc;
}

/* Res(a, b) over GF(p) by Euclid (cross.py's _resultant; GF(p) > 2 over the half-gcd's
 * remainder sequence, ml_gfpx_resultant) */
int ml__alg_resultant(unsigned p, const px *a0, const px *b0, unsigned *res)
{
    if (p != 2 && a0->c.n)
        return ml_gfpx_resultant(res, &a0->c, &b0->c, p);
    px a, b, r;
    ml__alg_px_init(&a);
    ml__alg_px_init(&b);
    ml__alg_px_init(&r);
    uint64_t out = 1;
    int rc = ml__alg_px_copy(p, &a, a0);
    if (!rc)
        rc = ml__alg_px_copy(p, &b, b0);
    *res = 0;
    while (!rc) {
        long m = ml__alg_px_deg(p, &a), n = ml__alg_px_deg(p, &b);
        if (n < 0)
            break;
        if (n == 0) {
            *res = (unsigned)(out * ml__alg_powmod(b.c.c[0], (uint64_t)m, p) % p);
            break;
        }
        rc = ml__alg_px_divrem(p, NULL, &r, &a, &b);
        long k = rc ? 0 : ml__alg_px_deg(p, &r);
        if (rc || k < 0)
            break;
        if ((m * n) % 2)
            out = (p - out) % p;
        out = out * ml__alg_powmod(b.c.c[n], (uint64_t)(m - k), p) % p;
        px t = a;
        a = b;
        b = r;
        r = t;
    }
    ml__alg_px_clear(&a);
    ml__alg_px_clear(&b);
    ml__alg_px_clear(&r);
    return rc;
}


long ml__alg_count(const struct ml__pattern *pt, int t, long dr, long dc)
{
    long k = 0;
    if (t) {
        long x = dr;
        dr = dc;
        dc = x;
    }
    for (size_t i = 0; i < pt->count; i++)
        k += pt->dr[i] == dr && pt->dc[i] == dc;
    return k;
}

/* F = G_h mod m: the (0, 0) entry of [[-c_1, -c_0 c_2], [1, 0]]^h over GF(p)[x] / (m),
 * c_k = a[k] + b[k] x (the symmetric chase's coefficients, symchase.h): the chase from
 * X_0 = z leaves X_h = c_2^-h G_h z + (a part free of z). O(log h) products mod m. */
int ml__alg_sym_G(unsigned p, const unsigned a[3], const unsigned b[3], uint64_t h,
                  const px *mod, px *F)
{
    px c[3], m[4], r[4], t[4], sq, u;
    ml__alg_px_init(&sq);
    ml__alg_px_init(&u);
    for (int i = 0; i < 4; i++) {
        ml__alg_px_init(&m[i]);
        ml__alg_px_init(&r[i]);
        ml__alg_px_init(&t[i]);
    }
    for (int k = 0; k < 3; k++)
        ml__alg_px_init(&c[k]);
    int rc = 0;
    for (int k = 0; k < 3 && !rc; k++) {
        uint8_t co[2] = {(uint8_t)a[k], (uint8_t)b[k]};
        rc = ml__alg_px_set(p, &c[k], co, 2);
    }
    uint8_t one = 1;
    /* base = [[-c1 mod m, -(c0 c2 mod m)], [1 mod m, 0]]; r = identity */
    if (!rc)
        rc = ml__alg_px_divrem(p, NULL, &m[0], &c[1], mod);
    if (!rc)
        rc = ml__alg_px_mulmod(p, &m[1], &c[0], &c[2], mod, &sq);
    ml__alg_px_neg(p, &m[0]);
    ml__alg_px_neg(p, &m[1]);
    if (!rc)
        rc = ml__alg_px_set(p, &u, &one, 1);
    if (!rc)
        rc = ml__alg_px_divrem(p, NULL, &m[2], &u, mod);
    if (!rc)
        rc = ml__alg_px_set(p, &r[0], &one, 1);
    if (!rc)
        rc = ml__alg_px_set(p, &r[3], &one, 1);
    for (uint64_t x = h; x && !rc;) {
        if (x & 1) {
            rc = ml__alg_mat_mul(p, t, r, m, mod, &sq, &u);
            for (int i = 0; i < 4 && !rc; i++)
                rc = ml__alg_px_copy(p, &r[i], &t[i]);
        }
        x >>= 1;
        if (x && !rc) {
            rc = ml__alg_mat_mul(p, t, m, m, mod, &sq, &u);
            for (int i = 0; i < 4 && !rc; i++)
                rc = ml__alg_px_copy(p, &m[i], &t[i]);
        }
    }
    if (!rc)   /* reduced once more: a modulus of degree 0 leaves r[0] = 1 unreduced */
        rc = ml__alg_px_divrem(p, NULL, F, &r[0], mod);
    ml__alg_px_clear(&sq);
    ml__alg_px_clear(&u);
    for (int i = 0; i < 4; i++) {
        ml__alg_px_clear(&m[i]);
        ml__alg_px_clear(&r[i]);
        ml__alg_px_clear(&t[i]);
    }
    for (int k = 0; k < 3; k++)
        ml__alg_px_clear(&c[k]);
    return rc;
}

/* s = s (a2 + b2 x)^h mod m, the power by repeated squaring. */
int ml__alg_sym_scale(unsigned p, unsigned a2, unsigned b2, uint64_t h, const px *mod, px *s)
{
    px a, r, sq;
    ml__alg_px_init(&a);
    ml__alg_px_init(&r);
    ml__alg_px_init(&sq);
    uint8_t co[2] = {(uint8_t)a2, (uint8_t)b2}, one = 1;
    int rc = ml__alg_px_set(p, &a, co, 2);
    if (!rc)
        rc = ml__alg_px_set(p, &r, &one, 1);
    for (uint64_t x = h; x && !rc; x >>= 1) {
        if (x & 1)
            rc = ml__alg_px_mulmod(p, &r, &r, &a, mod, &sq);
        if (!rc && x >> 1)
            rc = ml__alg_px_mulmod(p, &a, &a, &a, mod, &sq);
    }
    if (!rc)
        rc = ml__alg_px_mulmod(p, s, s, &r, mod, &sq);
    ml__alg_px_clear(&a);
    ml__alg_px_clear(&r);
    ml__alg_px_clear(&sq);
    return rc;
}
