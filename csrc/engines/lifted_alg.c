/* lifted_alg.c: one polynomial equation g y = c over (Z/p^k)[x] / (chi) (lifted_alg.h):
 * the split chi = A B by Hensel's lemma, g^-1 on R_B by Newton's iteration, the Smith
 * form of g on R_A. Every product over Z/q is poly.h's ml_gfpx_mul with the modulus q
 * (exact for any modulus: an integer convolution reduced mod q); divisions are by monic
 * polynomials (long division, or Barrett's with a series inverse for B). */
#include "engines/lifted_alg.h"

#include "base/interrupt.h"
#include "base/modn.h"

#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                             \
    do {                                                                                   \
        int rc_ = (x);                                                                     \
        if (rc_)                                                                           \
            return rc_;                                                                    \
    } while (0)

void ml__zq1_init(ml__zq1 *z)
{
    memset(z, 0, sizeof *z);
    ml_gfpx_init(&z->A);
    ml_gfpx_init(&z->B);
    ml_gfpx_init(&z->gB);
    ml_gfpx_init(&z->bA);
    ml_gfpx_init(&z->rB);
}

void ml__zq1_clear(ml__zq1 *z)
{
    ml_gfpx_clear(&z->A);
    ml_gfpx_clear(&z->B);
    ml_gfpx_clear(&z->gB);
    ml_gfpx_clear(&z->bA);
    ml_gfpx_clear(&z->rB);
    free(z->U);
    free(z->V);
    free(z->e);
    ml__zq1_init(z);
}

/* ------------------------------------------------------------ polynomials over Z/q */
/* r = a with every coefficient mod p (normalised) */
static int reduce(ml_gfpx *r, const ml_gfpx *a, unsigned p)
{
    TRY(ml_gfpx_fit(r, a->n + 1));
    for (size_t i = 0; i < a->n; i++)
        r->c[i] = (uint8_t)(a->c[i] % p);
    if (r->n > a->n)
        memset(r->c + a->n, 0, r->n - a->n);
    r->n = a->n;
    ml_gfpx_normalise(r);
    return 0;
}

/* a = a + k b x^s (mod q) */
static int addmul(ml_gfpx *a, const ml_gfpx *b, unsigned k, size_t s, unsigned q)
{
    size_t n = b->n + s > a->n ? b->n + s : a->n;
    TRY(ml_gfpx_fit(a, n + 1));
    if (a->n < n)
        memset(a->c + a->n, 0, n - a->n);
    for (size_t i = 0; i < b->n; i++)
        a->c[i + s] = (uint8_t)((a->c[i + s] + k * b->c[i]) % q);
    a->n = n;
    ml_gfpx_normalise(a);
    return 0;
}

/* a = a mod x^n */
static void trunc_to(ml_gfpx *a, size_t n)
{
    if (a->n > n) {
        memset(a->c + n, 0, a->n - n);
        a->n = n;
        ml_gfpx_normalise(a);
    }
}

static int set_const(ml_gfpx *a, unsigned c)
{
    uint8_t v = (uint8_t)c;
    return ml_gfpx_set(a, &v, 1);
}

int ml__zq_rem(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *m, unsigned q)
{
    size_t dm = m->n - 1, na = a->n;
    if (r != a)
        TRY(ml_gfpx_copy(r, a));
    if (na <= dm)
        return 0;
    ml_fastmod fq = ml_fastmod_make(q);
    uint8_t *c = r->c;
    for (size_t i = na - 1; i >= dm; i--) {
        unsigned lead = c[i];
        if (lead) {
            unsigned neg = q - lead;
            uint8_t *dst = c + i - dm;
            for (size_t j = 0; j < dm; j++)
                dst[j] = (uint8_t)ml_fastmod_red(fq, dst[j] + neg * m->c[j]);
            c[i] = 0;
        }
        if (i == dm)
            break;
    }
    r->n = dm;
    ml_gfpx_normalise(r);
    return 0;
}

/* g = f^-1 mod x^n over Z/q (f(0) = 1), Newton: g <- g (2 - f g) */
static int inv_series(ml_gfpx *g, const ml_gfpx *f, size_t n, unsigned q)
{
    ml_gfpx t, ft;
    ml_gfpx_init(&t);
    ml_gfpx_init(&ft);
    int rc = set_const(g, 1);
    for (size_t l = 1; !rc && l < n;) {
        size_t l2 = 2 * l < n ? 2 * l : n;
        rc = ml_gfpx_copy(&ft, f);
        if (!rc) {
            trunc_to(&ft, l2);
            rc = ml_gfpx_mul(&t, &ft, g, q);
        }
        if (!rc) {
            trunc_to(&t, l2);
            for (size_t i = 0; i < t.n; i++)   /* t = 2 - t */
                t.c[i] = (uint8_t)((q - t.c[i]) % q);
            rc = ml_gfpx_fit(&t, 1);
        }
        if (!rc) {
            if (!t.n)
                t.c[0] = 0;
            t.c[0] = (uint8_t)((t.c[0] + 2) % q);
            t.n = t.n ? t.n : 1;
            ml_gfpx_normalise(&t);
            rc = ml_gfpx_mul(g, g, &t, q);
        }
        if (!rc)
            trunc_to(g, l2);
        l = l2;
    }
    ml_gfpx_clear(&t);
    ml_gfpx_clear(&ft);
    return rc;
}

/* r = a mod B (Barrett's division with z->rB when the quotient fits, else long) */
int ml__zq1_rem_B(const ml__zq1 *z, ml_gfpx *r, const ml_gfpx *a)
{
    size_t db = z->B.n - 1;
    if (a->n <= db)
        return r == a ? 0 : ml_gfpx_copy(r, a);
    size_t nq = a->n - db;
    if (nq < 64 || nq > z->w)   /* short quotients, and past the series' precision */
        return ml__zq_rem(r, a, &z->B, z->q);
    unsigned q = z->q;
    ml_gfpx ar, qt, t;
    ml_gfpx_init(&ar);
    ml_gfpx_init(&qt);
    ml_gfpx_init(&t);
    int rc = ml_gfpx_fit(&ar, nq);
    if (!rc) {   /* rev(a) mod x^nq */
        for (size_t i = 0; i < nq; i++)
            ar.c[i] = a->c[a->n - 1 - i];
        ar.n = nq;
        ml_gfpx_normalise(&ar);
        rc = ml_gfpx_mul(&t, &ar, &z->rB, q);
    }
    if (!rc) {
        trunc_to(&t, nq);
        rc = ml_gfpx_fit(&qt, nq);
    }
    if (!rc) {   /* the quotient: rev of t over nq coefficients */
        memset(qt.c, 0, nq);
        for (size_t i = 0; i < t.n; i++)
            qt.c[nq - 1 - i] = t.c[i];
        qt.n = nq;
        ml_gfpx_normalise(&qt);
        rc = ml_gfpx_mul(&t, &qt, &z->B, q);
    }
    if (!rc) {   /* r = (a - quotient B) mod x^db */
        uint8_t *keep = malloc(db + 1);
        if (!keep)
            rc = 2;
        for (size_t i = 0; !rc && i < db; i++) {
            unsigned ai = i < a->n ? a->c[i] : 0, ti = i < t.n ? t.c[i] : 0;
            keep[i] = (uint8_t)((ai + q - ti) % q);
        }
        if (!rc)
            rc = ml_gfpx_set(r, keep, db);
        free(keep);
    }
    ml_gfpx_clear(&ar);
    ml_gfpx_clear(&qt);
    ml_gfpx_clear(&t);
    return rc;
}

/* r = a b mod m over Z/q (m = B: Barrett; else long division) */
static int mulmod(const ml__zq1 *z, ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b,
                  const ml_gfpx *m)
{
    TRY(ml_gfpx_mul(r, a, b, z->q));
    return m == &z->B ? ml__zq1_rem_B(z, r, r) : ml__zq_rem(r, r, m, z->q);
}

/* v = a^-1 mod m over Z/q from v = a^-1 mod (m, p), Newton: v <- v (2 - a v), each
 * step doubling the digits */
static int newton_inverse(const ml__zq1 *z, ml_gfpx *v, const ml_gfpx *a, const ml_gfpx *m)
{
    ml_gfpx t;
    ml_gfpx_init(&t);
    int rc = 0;
    for (unsigned digits = 1; !rc && digits < z->k; digits *= 2) {
        rc = mulmod(z, &t, a, v, m);
        for (size_t i = 0; !rc && i < t.n; i++)
            t.c[i] = (uint8_t)((z->q - t.c[i]) % z->q);
        if (!rc) {
            ml_gfpx_normalise(&t);
            uint8_t two = 2;
            ml_gfpx c2;
            ml_gfpx_init(&c2);
            rc = ml_gfpx_set(&c2, &two, 1);
            if (!rc)
                rc = addmul(&t, &c2, 1, 0, z->q);
            ml_gfpx_clear(&c2);
        }
        if (!rc)
            rc = mulmod(z, v, v, &t, m);
    }
    ml_gfpx_clear(&t);
    return rc;
}

/* ------------------------------------------------------------ the split chi = A B */
/* a (monic, the part of chi mod p over the primes of d) and b = chi / a mod p */
static int split_mod_p(unsigned p, const ml_gfpx *chi, const ml_gfpx *g, ml_gfpx *a, ml_gfpx *b)
{
    ml_gfpx cp, gp, d, t, qt, rr;
    ml_gfpx_init(&cp);
    ml_gfpx_init(&gp);
    ml_gfpx_init(&d);
    ml_gfpx_init(&t);
    ml_gfpx_init(&qt);
    ml_gfpx_init(&rr);
    int rc = reduce(&cp, chi, p);
    if (!rc)
        rc = reduce(&gp, g, p);
    if (!rc)
        rc = ml_gfpx_gcd(&d, &gp, &cp, p);
    if (!rc)
        rc = ml_gfpx_copy(b, &cp);
    while (!rc && d.n > 1) {   /* b /= gcd(b, d) while it has a common factor */
        rc = ml_gfpx_gcd(&t, b, &d, p);
        if (rc || t.n <= 1)
            break;
        rc = ml_gfpx_divrem(&qt, &rr, b, &t, p);
        if (!rc)
            rc = ml_gfpx_copy(b, &qt);
    }
    if (!rc)
        rc = ml_gfpx_divrem(a, &rr, &cp, b, p);
    if (!rc && (rr.n || !a->n))
        rc = 4;   /* never: b divides chi */
    ml_gfpx_clear(&cp);
    ml_gfpx_clear(&gp);
    ml_gfpx_clear(&d);
    ml_gfpx_clear(&t);
    ml_gfpx_clear(&qt);
    ml_gfpx_clear(&rr);
    return rc;
}

/* chi = A B over Z/q from chi = a b mod p (a, b monic coprime, both of degree >= 1),
 * t with t b = 1 mod (a, p); linear Hensel steps: e = (chi - A B) / p^i mod p,
 * alpha = t e mod a, beta = (e - alpha b) / a, A += p^i alpha, B += p^i beta. */
static int hensel(ml__zq1 *z, const ml_gfpx *chi, const ml_gfpx *a, const ml_gfpx *b,
                  const ml_gfpx *t)
{
    unsigned p = z->p, q = z->q, pi = 1;
    ml_gfpx ab, e, al, be, rr;
    ml_gfpx_init(&ab);
    ml_gfpx_init(&e);
    ml_gfpx_init(&al);
    ml_gfpx_init(&be);
    ml_gfpx_init(&rr);
    int rc = ml_gfpx_copy(&z->A, a);
    if (!rc)
        rc = ml_gfpx_copy(&z->B, b);
    for (unsigned i = 1; !rc && i < z->k; i++) {
        pi *= p;
        rc = ml_gfpx_mul(&ab, &z->A, &z->B, q);
        if (!rc)
            rc = ml_gfpx_fit(&e, chi->n + 1);
        if (!rc) {   /* e = (chi - A B) / p^i mod p */
            size_t n = chi->n > ab.n ? chi->n : ab.n;
            rc = ml_gfpx_fit(&e, n + 1);
            for (size_t j = 0; !rc && j < n; j++) {
                unsigned x = ((j < chi->n ? chi->c[j] : 0) + q - (j < ab.n ? ab.c[j] : 0)) % q;
                if (x % pi)
                    rc = 4;   /* never: A B = chi mod p^i */
                e.c[j] = (uint8_t)(x / pi % p);
            }
            if (!rc) {
                if (e.n > n)
                    memset(e.c + n, 0, e.n - n);
                e.n = n;
                ml_gfpx_normalise(&e);
            }
        }
        if (!rc)
            rc = ml_gfpx_divrem(NULL, &al, &e, a, p);
        if (!rc)
            rc = ml_gfpx_mul(&al, &al, t, p);
        if (!rc)
            rc = ml_gfpx_divrem(NULL, &al, &al, a, p);
        if (!rc)
            rc = ml_gfpx_mul(&rr, &al, b, p);
        if (!rc) {   /* e - alpha b */
            for (size_t j = 0; j < rr.n; j++)
                rr.c[j] = (uint8_t)((p - rr.c[j]) % p);
            ml_gfpx_normalise(&rr);
            rc = addmul(&rr, &e, 1, 0, p);
        }
        if (!rc)
            rc = ml_gfpx_divrem(&be, &e, &rr, a, p);
        if (!rc && e.n)
            rc = 4;   /* never: a divides e - alpha b */
        if (!rc)
            rc = addmul(&z->A, &al, pi, 0, q);
        if (!rc)
            rc = addmul(&z->B, &be, pi, 0, q);
    }
    ml_gfpx_clear(&ab);
    ml_gfpx_clear(&e);
    ml_gfpx_clear(&al);
    ml_gfpx_clear(&be);
    ml_gfpx_clear(&rr);
    return rc;
}

/* ------------------------------------------------------------ Smith form on R_A */
static unsigned val_of(unsigned x, unsigned p, unsigned k)
{
    if (!x)
        return k;
    unsigned v = 0;
    while (x % p == 0) {
        x /= p;
        v++;
    }
    return v;
}

/* dst[j] = dst[j] + f src[j] mod q for j < n (q a power of two: bytes that wrap, masked) */
static void axpy_q(uint8_t *restrict dst, const uint8_t *restrict src, unsigned f, size_t n,
                   unsigned q)
{
    if (!(q & (q - 1))) {
        uint8_t mask = (uint8_t)(q - 1), ff = (uint8_t)f;
        for (size_t j = 0; j < n; j++)
            dst[j] = (uint8_t)((dst[j] + ff * src[j]) & mask);
        return;
    }
    ml_fastmod fq = ml_fastmod_make(q);
    for (size_t j = 0; j < n; j++)
        dst[j] = (uint8_t)ml_fastmod_red(fq, dst[j] + f * src[j]);
}

int ml__zq_smith(unsigned p, unsigned k, size_t m, uint8_t *M, uint8_t *U, uint8_t *V,
                 unsigned *e)
{
    unsigned q = 1;
    for (unsigned i = 0; i < k; i++)
        q *= p;
    memset(U, 0, m * m);
    memset(V, 0, m * m);
    for (size_t i = 0; i < m; i++) {
        U[i * m + i] = 1;
        V[i * m + i] = 1;
    }
    uint8_t *col = malloc(m + 1);
    if (!col)
        return 2;
    for (size_t t = 0; t < m; t++) {
        if (ml_interrupt_poll()) {
            free(col);
            return 3;
        }
        size_t bi = t, bj = t;
        unsigned best = k + 1;
        for (size_t i = t; i < m && best; i++)
            for (size_t j = t; j < m && best; j++) {
                unsigned v = val_of(M[i * m + j], p, k);
                if (v < best) {
                    best = v;
                    bi = i;
                    bj = j;
                }
            }
        if (best >= k) {
            for (size_t s = t; s < m; s++)
                e[s] = k;
            break;
        }
        e[t] = best;
        for (size_t j = 0; bi != t && j < m; j++) {   /* rows t <-> bi */
            uint8_t x = M[t * m + j];
            M[t * m + j] = M[bi * m + j];
            M[bi * m + j] = x;
            x = U[t * m + j];
            U[t * m + j] = U[bi * m + j];
            U[bi * m + j] = x;
        }
        for (size_t i = 0; bj != t && i < m; i++) {   /* columns t <-> bj */
            uint8_t x = M[i * m + t];
            M[i * m + t] = M[i * m + bj];
            M[i * m + bj] = x;
            x = V[i * m + t];
            V[i * m + t] = V[i * m + bj];
            V[i * m + bj] = x;
        }
        unsigned pv = 1;
        for (unsigned s = 0; s < best; s++)
            pv *= p;
        unsigned inv = ml_inv_mod(M[t * m + t] / pv, q);   /* the unit part */
        for (size_t j = 0; j < m; j++) {
            M[t * m + j] = (uint8_t)(M[t * m + j] * inv % q);
            U[t * m + j] = (uint8_t)(U[t * m + j] * inv % q);
        }
        /* rows below: M[i][t] is a multiple of p^v; rows t.. are zero left of column t */
        for (size_t i = t + 1; i < m; i++) {
            unsigned f = M[i * m + t] / pv;
            if (!f)
                continue;
            axpy_q(M + i * m + t, M + t * m + t, q - f, m - t, q);
            axpy_q(U + i * m, U + t * m, q - f, m, q);
        }
        /* columns right: only row t is non-zero; V's columns as rows of its transpose */
        for (size_t i = 0; i < m; i++)
            col[i] = V[i * m + t];
        for (size_t j = t + 1; j < m; j++) {
            unsigned f = M[t * m + j] / pv;
            if (!f)
                continue;
            M[t * m + j] = 0;
            unsigned nf = q - f;
            if (!(q & (q - 1))) {
                uint8_t mask = (uint8_t)(q - 1), ff = (uint8_t)nf;
                for (size_t i = 0; i < m; i++)
                    V[i * m + j] = (uint8_t)((V[i * m + j] + ff * col[i]) & mask);
            } else {
                for (size_t i = 0; i < m; i++)
                    V[i * m + j] = (uint8_t)((V[i * m + j] + nf * col[i]) % q);
            }
        }
    }
    free(col);
    return 0;
}

/* U M V = diag(p^e_i) on R_A (ml__zq_smith), the count and the sum of the e_i */
static int smith(ml__zq1 *z, uint8_t *M)
{
    TRY(ml__zq_smith(z->p, z->k, z->m, M, z->U, z->V, z->e));
    for (size_t i = 0; i < z->m; i++) {
        z->ngens += z->e[i] > 0;
        z->klog += z->e[i];
    }
    return 0;
}

/* ------------------------------------------------------------ build */
static int build_parts(ml__zq1 *z, const ml_gfpx *chi, const ml_gfpx *g, size_t mmax,
                       ml_gfpx *a, ml_gfpx *b, ml_gfpx *t, ml_gfpx *u, ml_gfpx *v)
{
    unsigned p = z->p, q = z->q;
    TRY(split_mod_p(p, chi, g, a, b));
    z->m = (size_t)(a->n - 1);
    if (z->m > mmax)
        return 1;
    if (b->n == 1) {   /* every factor of chi meets g: A = chi, B = 1 */
        TRY(ml_gfpx_copy(&z->A, chi));
        TRY(set_const(&z->B, 1));
        TRY(set_const(&z->bA, 1));
    } else if (a->n == 1) {   /* g is a unit: A = 1, B = chi */
        TRY(set_const(&z->A, 1));
        TRY(ml_gfpx_copy(&z->B, chi));
    } else {
        TRY(ml_gfpx_xgcd(u, v, t, a, b, p));   /* 1 = v a + t b */
        if (u->n != 1)
            return 4;   /* never: a and b are coprime */
        TRY(hensel(z, chi, a, b, t));
    }
    /* B^-1 mod A */
    if (b->n > 1 && a->n > 1) {
        TRY(ml__zq_rem(u, &z->B, &z->A, q));
        TRY(ml_gfpx_divrem(NULL, &z->bA, t, a, p));
        TRY(newton_inverse(z, &z->bA, u, &z->A));
    }
    /* g^-1 mod B, and Barrett's series for B */
    if (z->B.n > 1) {
        size_t db = z->B.n - 1;
        TRY(ml_gfpx_fit(u, db + 1));
        for (size_t i = 0; i <= db; i++)
            u->c[i] = z->B.c[db - i];
        u->n = db + 1;
        ml_gfpx_normalise(u);
        TRY(inv_series(&z->rB, u, z->w, q));
        TRY(ml__zq1_rem_B(z, u, g));                     /* u = g mod B */
        TRY(reduce(v, u, p));                    /* g^-1 mod (b, p) */
        TRY(ml_gfpx_xgcd(t, &z->gB, NULL, v, b, p));
        if (t->n != 1)
            return 4;   /* never: g is prime to b */
        TRY(newton_inverse(z, &z->gB, u, &z->B));
    }
    /* multiplication by g on R_A: column j = x^j g mod A */
    size_t m = z->m;
    if (!m)
        return 0;
    z->U = calloc(m * m, 1);
    z->V = calloc(m * m, 1);
    z->e = calloc(m, sizeof *z->e);
    uint8_t *M = calloc(m * m, 1);
    int rc = !z->U || !z->V || !z->e || !M ? 2 : 0;
    if (!rc)
        rc = ml__zq_rem(u, g, &z->A, q);
    for (size_t j = 0; !rc && j < m; j++) {
        for (size_t i = 0; i < u->n; i++)
            M[i * m + j] = u->c[i];
        rc = ml_gfpx_fit(u, m + 2);   /* u = x u mod A */
        if (rc)
            break;
        if (u->n)
            memmove(u->c + 1, u->c, u->n);
        u->c[0] = 0;
        u->n = u->n ? u->n + 1 : 0;
        rc = ml__zq_rem(u, u, &z->A, q);
    }
    if (!rc)
        rc = smith(z, M);
    free(M);
    return rc;
}

int ml__zq1_build(ml__zq1 *z, unsigned p, unsigned k, const ml_gfpx *chi, const ml_gfpx *g,
                  size_t mmax)
{
    ml__zq1_clear(z);
    if (mmax > ML__ZQ1_MMAX)
        mmax = ML__ZQ1_MMAX;
    unsigned q = 1;
    for (unsigned i = 0; i < k; i++)
        q *= p;
    z->p = p;
    z->k = k;
    z->q = q;
    z->w = chi->n - 1;
    ml_gfpx a, b, t, u, v;
    ml_gfpx_init(&a);
    ml_gfpx_init(&b);
    ml_gfpx_init(&t);
    ml_gfpx_init(&u);
    ml_gfpx_init(&v);
    int rc = build_parts(z, chi, g, mmax, &a, &b, &t, &u, &v);
    ml_gfpx_clear(&a);
    ml_gfpx_clear(&b);
    ml_gfpx_clear(&t);
    ml_gfpx_clear(&u);
    ml_gfpx_clear(&v);
    return rc;
}

/* ------------------------------------------------------------ solve, generators */
/* y = yB + B ((yA - yB) B^-1 mod A) (yA: m coefficients, yB mod B) */
int ml__zq1_combine(const ml__zq1 *z, const uint8_t *yA, const ml_gfpx *yB, ml_gfpx *y)
{
    unsigned q = z->q;
    ml_gfpx d, t;
    ml_gfpx_init(&d);
    ml_gfpx_init(&t);
    int rc = z->m ? ml__zq_rem(&d, yB, &z->A, q) : 0;
    for (size_t i = 0; !rc && i < d.n; i++)   /* d = yA - (yB mod A) */
        d.c[i] = (uint8_t)((q - d.c[i]) % q);
    if (!rc && z->m) {
        ml_gfpx_normalise(&d);
        rc = ml_gfpx_set(&t, yA, z->m);
        if (!rc)
            rc = addmul(&d, &t, 1, 0, q);
        if (!rc)
            rc = mulmod(z, &t, &d, &z->bA, &z->A);
        if (!rc)
            rc = ml_gfpx_mul(&d, &t, &z->B, q);
    } else if (!rc) {
        ml_gfpx_normalise(&d);
    }
    if (!rc)
        rc = ml_gfpx_copy(y, &d);
    if (!rc && yB->n)
        rc = addmul(y, yB, 1, 0, q);
    ml_gfpx_clear(&d);
    ml_gfpx_clear(&t);
    return rc;
}

int ml__zq1_solve(const ml__zq1 *z, const ml_gfpx *c, ml_gfpx *y, int *ok)
{
    size_t m = z->m;
    unsigned q = z->q;
    ml_gfpx cA, yB;
    ml_gfpx_init(&cA);
    ml_gfpx_init(&yB);
    uint8_t *yA = calloc(m + 1, 1);
    uint32_t *u = calloc(m + 1, sizeof *u);
    int rc = !yA || !u ? 2 : 0;
    *ok = 1;
    if (!rc && m)
        rc = ml__zq_rem(&cA, c, &z->A, q);
    for (size_t i = 0; !rc && i < m; i++) {   /* u = U cA, then z_i = u_i / p^e_i */
        uint32_t s = 0;
        for (size_t j = 0; j < cA.n; j++)
            s += (uint32_t)z->U[i * m + j] * cA.c[j];
        s %= q;
        unsigned pe = 1;
        for (unsigned k = 0; k < z->e[i]; k++)
            pe *= z->p;
        if (s % pe)
            *ok = 0;
        u[i] = z->e[i] >= z->k ? 0 : s / pe;
    }
    for (size_t i = 0; !rc && *ok && i < m; i++) {   /* yA = V z */
        uint32_t s = 0;
        for (size_t j = 0; j < m; j++)
            s += (uint32_t)z->V[i * m + j] * u[j];
        yA[i] = (uint8_t)(s % q);
    }
    if (!rc && *ok && z->B.n > 1) {   /* yB = g^-1 c mod B */
        rc = ml__zq1_rem_B(z, &yB, c);
        if (!rc)
            rc = mulmod(z, &yB, &yB, &z->gB, &z->B);
    }
    if (!rc && *ok)
        rc = ml__zq1_combine(z, yA, &yB, y);
    if (!rc && !*ok)
        ml_gfpx_set(y, NULL, 0);
    ml_gfpx_clear(&cA);
    ml_gfpx_clear(&yB);
    free(yA);
    free(u);
    return rc;
}

int ml__zq_smith_kernel(unsigned p, unsigned k, size_t m, const uint8_t *V,
                        const unsigned *e, size_t i, uint8_t *y, unsigned *order)
{
    size_t idx = 0, seen = 0;
    for (idx = 0; idx < m; idx++)
        if (e[idx] && seen++ == i)
            break;
    if (idx >= m)
        return 4;
    unsigned scale = 1, ord = 1, q = 1;
    for (unsigned s = 0; s < k; s++)
        q *= p;
    for (unsigned s = e[idx]; s < k; s++)
        scale *= p;
    for (unsigned s = 0; s < e[idx]; s++)
        ord *= p;
    *order = ord;
    for (size_t r = 0; r < m; r++)
        y[r] = (uint8_t)(V[r * m + idx] * scale % q);
    return 0;
}

int ml__zq1_generator(const ml__zq1 *z, size_t i, ml_gfpx *y, unsigned *order)
{
    size_t m = z->m;
    uint8_t *yA = malloc(m + 1);
    if (!yA)
        return 2;
    ml_gfpx zero;
    ml_gfpx_init(&zero);
    int rc = ml__zq_smith_kernel(z->p, z->k, m, z->V, z->e, i, yA, order);
    if (!rc)
        rc = ml__zq1_combine(z, yA, &zero, y);
    ml_gfpx_clear(&zero);
    free(yA);
    return rc;
}
