/* gfpx_fast.c: GF(p)[x] products, division and gcds for large degrees (poly.h).
 *
 * Products: a number-theoretic transform (radix 2, Montgomery arithmetic) modulo the
 * prime 998244353 = 119 2^23 + 1 when it exceeds min(na, nb) (p - 1)^2 (the largest
 * coefficient of the integer product), else also modulo 469762049 = 7 2^26 + 1 and the
 * integer coefficient (below their product) recovered by the Chinese remainder
 * theorem; then reduced mod p: O(n log n). Transforms of up to 2^23 points
 * (ml_gfpx_ntt_points); longer products are summed from pieces of half that length.
 * Division: the reversed quotient is rev(a) times the power-series inverse of rev(b)
 * (Newton iteration, each step two products): O(M(n)).
 * Gcd: the half-gcd (Thull-Yap form: recurse on the top halves, one Euclid step, recurse
 * on the top of what is left), whose matrix is the product of the Euclid quotient steps,
 * so the gcd and the cofactors are the classical algorithm's: O(M(n) log n).
 * Below the thresholds (poly.h) the classical routines of poly.c run. */
#include "poly/poly.h"
#include "base/interrupt.h"

#include <stdlib.h>
#include <string.h>

/* Measured on the shared 2-core box (loaded; random inputs, p = 3, one prime): the
 * transform product against schoolbook at 512 x 512 coefficients 74 / 67 us, 1024 x 1024
 * 167 / 243 us, 16384 x 16384 3.8 / 58 ms; the half-gcd of degree 20000 with a base case
 * of 256, 512, 1024, 2048 coefficients 0.22, 0.23, 0.26, 0.30 s (Euclid 0.57 s), Newton
 * division's threshold 128 or 512 within the noise. */
size_t ml_gfpx_mul_threshold = 512;
size_t ml_gfpx_div_threshold = 96;
size_t ml_gfpx_gcd_threshold = 192;
size_t ml_gfpx_ntt_points = (size_t)1 << 23;   /* 998244353 has roots of unity of order 2^23 */
int ml_gfpx_ntt_force_crt = 0;

/* ------------------------------------------------------------------ Montgomery */
typedef struct {
    uint32_t q;     /* the prime */
    uint32_t ni;    /* -q^-1 mod 2^32 */
    uint32_t r2;    /* 2^64 mod q */
    uint32_t g;     /* a generator of the multiplicative group */
} mont;

static const uint32_t NTT_PRIMES[2] = {998244353u, 469762049u};

static mont mont_make(uint32_t q)
{
    mont M;
    M.q = q;
    uint32_t inv = q;                        /* Newton: inv = q^-1 mod 2^32 */
    for (int i = 0; i < 5; i++)
        inv *= 2 - q * inv;
    M.ni = 0u - inv;
    uint64_t r = ((uint64_t)1 << 32) % q;
    M.r2 = (uint32_t)(r * r % q);
    M.g = 3;
    return M;
}

/* T R^-1 mod q for T < q 2^32 */
static inline uint32_t mred(uint64_t T, uint32_t q, uint32_t ni)
{
    uint32_t m = (uint32_t)T * ni;
    uint32_t t = (uint32_t)((T + (uint64_t)m * q) >> 32);
    return t >= q ? t - q : t;
}

static inline uint32_t mmul(uint32_t a, uint32_t b, const mont *M)
{
    return mred((uint64_t)a * b, M->q, M->ni);
}

static uint32_t powmod32(uint32_t b, uint64_t e, uint32_t q)
{
    uint64_t r = 1, x = b % q;
    while (e) {
        if (e & 1)
            r = r * x % q;
        x = x * x % q;
        e >>= 1;
    }
    return (uint32_t)r;
}

/* tw[len + j] = w_{2 len}^j and itw[len + j] = w_{2 len}^-j (Montgomery form) for
 * len = 1, 2, 4, .., n / 2, w_{2 len} the primitive (2 len)-th root: the top level by
 * powers (n / 2 products), itw's top level from tw's (w^-j = -w^(n/2 - j)), each lower
 * level every other entry of the one above (w_{2 len}^j = w_{4 len}^{2 j}) */
static void twiddles(uint32_t *tw, uint32_t *itw, size_t n, const mont *M)
{
    size_t h = n / 2;
    uint32_t w = powmod32(M->g, (M->q - 1) / n, M->q);
    uint32_t wm = mmul(w, M->r2, M), one = mmul(1, M->r2, M), cur = one;
    for (size_t j = 0; j < h; j++) {
        tw[h + j] = cur;
        cur = mmul(cur, wm, M);
    }
    itw[h] = one;
    for (size_t j = 1; j < h; j++)
        itw[h + j] = M->q - tw[n - j];
    for (size_t len = h / 2; len >= 1; len >>= 1)
        for (size_t k = 0; k < len; k++) {
            tw[len + k] = tw[2 * len + 2 * k];
            itw[len + k] = itw[2 * len + 2 * k];
        }
}

/* Decimation in frequency: natural order in, bit-reversed order out. */
static void ntt_dif(uint32_t *restrict a, size_t n, const uint32_t *restrict tw, const mont *M)
{
    uint32_t q = M->q, ni = M->ni;
    for (size_t len = n / 2; len >= 1; len >>= 1) {
        for (size_t i = 0; i < n; i += 2 * len) {
            uint32_t *x = a + i, *y = a + i + len;
            const uint32_t *w = tw + len;
            for (size_t j = 0; j < len; j++) {
                uint32_t u = x[j], v = y[j];
                uint32_t s = u + v, d = u + q - v;
                x[j] = s >= q ? s - q : s;
                y[j] = mred((uint64_t)d * w[j], q, ni);
            }
        }
    }
}

/* Decimation in time with the inverse roots: bit-reversed in, natural out (times n). */
static void ntt_dit(uint32_t *restrict a, size_t n, const uint32_t *restrict tw, const mont *M)
{
    uint32_t q = M->q, ni = M->ni;
    for (size_t len = 1; len < n; len <<= 1) {
        for (size_t i = 0; i < n; i += 2 * len) {
            uint32_t *x = a + i, *y = a + i + len;
            const uint32_t *w = tw + len;
            for (size_t j = 0; j < len; j++) {
                uint32_t u = x[j], v = mred((uint64_t)y[j] * w[j], q, ni);
                uint32_t s = u + v, d = u + q - v;
                x[j] = s >= q ? s - q : s;
                y[j] = d >= q ? d - q : d;
            }
        }
    }
}

/* out[0 .. na + nb - 1) = a b mod p (na, nb >= 1, na + nb - 1 <= 2^23); 0 or 2 */
static int ntt_product(uint8_t *out, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                       unsigned p)
{
    size_t nr = na + nb - 1, n = 1;
    while (n < nr)
        n <<= 1;
    if (n < 2)
        n = 2;
    int square = a == b && na == nb;
    uint32_t *buf = malloc((4 * n + nr) * sizeof(uint32_t));
    if (!buf)
        return 2;
    uint32_t *fa = buf, *fb = buf + n, *tw = buf + 2 * n, *itw = buf + 3 * n;
    uint32_t *r1 = buf + 4 * n;
    /* one prime when it exceeds every coefficient of the integer product */
    uint64_t bound = (uint64_t)(na < nb ? na : nb) * (p - 1) * (p - 1);
    int primes = bound < NTT_PRIMES[0] && !ml_gfpx_ntt_force_crt ? 1 : 2;
    for (int k = 0; k < primes; k++) {
        mont M = mont_make(NTT_PRIMES[k]);
        twiddles(tw, itw, n, &M);
        for (size_t i = 0; i < na; i++)
            fa[i] = a[i];
        memset(fa + na, 0, (n - na) * sizeof(uint32_t));
        ntt_dif(fa, n, tw, &M);
        if (!square) {
            for (size_t i = 0; i < nb; i++)
                fb[i] = b[i];
            memset(fb + nb, 0, (n - nb) * sizeof(uint32_t));
            ntt_dif(fb, n, tw, &M);
        }
        const uint32_t *g = square ? fa : fb;
        for (size_t i = 0; i < n; i++)
            fa[i] = mmul(fa[i], g[i], &M);
        ntt_dit(fa, n, itw, &M);
        /* fa = n a b R^-1: times n^-1 R^2 (Montgomery) gives a b */
        uint32_t s = powmod32((uint32_t)(n % M.q), M.q - 2, M.q);
        s = mmul(mmul(s, M.r2, &M), M.r2, &M);
        if (k == 0 && primes == 1) {
            for (size_t i = 0; i < nr; i++)
                out[i] = (uint8_t)(mmul(fa[i], s, &M) % p);
        } else if (k == 0) {
            for (size_t i = 0; i < nr; i++)
                r1[i] = mmul(fa[i], s, &M);
        } else {
            /* x = r1 + q1 k2, k2 = (r2 - r1) q1^-1 mod q2; x mod p */
            uint32_t q1 = NTT_PRIMES[0], q2 = M.q;
            uint32_t c = mmul(powmod32(q1 % q2, q2 - 2, q2), M.r2, &M);
            uint32_t q1p = q1 % p;
            for (size_t i = 0; i < nr; i++) {
                uint32_t r2 = mmul(fa[i], s, &M), x1 = r1[i] % q2;
                uint32_t k2 = mmul(r2 >= x1 ? r2 - x1 : r2 + q2 - x1, c, &M);
                out[i] = (uint8_t)((r1[i] % p + q1p * (k2 % p)) % p);
            }
        }
    }
    free(buf);
    return 0;
}

/* out (na + nb - 1 coefficients, zeroed here) = a b mod p, any lengths >= 1 */
static int ntt_mul_any(uint8_t *out, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                       unsigned p)
{
    size_t top = ml_gfpx_ntt_points;
    if (top > ((size_t)1 << 23) || top < 4)
        top = (size_t)1 << 23;
    const size_t half = top / 2;
    if (na + nb - 1 <= top)
        return ntt_product(out, a, na, b, nb, p);
    memset(out, 0, na + nb - 1);
    uint8_t *piece = malloc(2 * half);
    if (!piece)
        return 2;
    for (size_t i = 0; i < na; i += half)
        for (size_t j = 0; j < nb; j += half) {
            size_t la = na - i < half ? na - i : half, lb = nb - j < half ? nb - j : half;
            int rc = ntt_product(piece, a + i, la, b + j, lb, p);
            if (rc) {
                free(piece);
                return rc;
            }
            for (size_t k = 0; k + 1 < la + lb; k++)
                out[i + j + k] = (uint8_t)((out[i + j + k] + piece[k]) % p);
            if (ml_interrupt_poll()) {
                free(piece);
                return 3;
            }
        }
    free(piece);
    return 0;
}

int ml_gfpx_mul_ntt(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b, unsigned p)
{
    if (!a->n || !b->n) {
        if (r->n)
            memset(r->c, 0, r->n);
        r->n = 0;
        return 0;
    }
    size_t nr = a->n + b->n - 1;
    uint8_t *out = malloc(nr);
    if (!out)
        return 2;
    int rc = ntt_mul_any(out, a->c, a->n, b->c, b->n, p);
    if (!rc)
        rc = ml_gfpx_set(r, out, nr);
    free(out);
    return rc;
}

int ml_gfpx_mul(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b, unsigned p)
{
    size_t small = a->n < b->n ? a->n : b->n;
    if (small < ml_gfpx_mul_threshold)
        return ml_gfpx_mul_basecase(r, a, b, p);
    return ml_gfpx_mul_ntt(r, a, b, p);
}

/* ------------------------------------------------------------------ helpers */
/* r = a mod x^k (r may be a) */
static int trunc_to(ml_gfpx *r, const ml_gfpx *a, size_t k)
{
    return ml_gfpx_set(r, a->c, a->n < k ? a->n : k);
}

/* r = a div x^k (r may be a) */
static int shift_down(ml_gfpx *r, const ml_gfpx *a, size_t k)
{
    if (a->n <= k)
        return ml_gfpx_set(r, a->c, 0);
    return ml_gfpx_set(r, a->c + k, a->n - k);
}

/* r = the first n coefficients of a, reversed (r distinct from a) */
static int reversed(ml_gfpx *r, const ml_gfpx *a, size_t n)
{
    if (ml_gfpx_fit(r, n))
        return 2;
    if (r->n > n)
        memset(r->c + n, 0, r->n - n);
    for (size_t i = 0; i < n; i++) {
        size_t j = n - 1 - i;
        r->c[i] = j < a->n ? a->c[j] : 0;
    }
    r->n = n;
    ml_gfpx_normalise(r);
    return 0;
}

/* a -= b (mod p) */
static int sub_in(ml_gfpx *a, const ml_gfpx *b, unsigned p)
{
    return ml_gfpx_axpy(a, 1, b, 0, p - 1, p);
}

int ml_gfpx_inv_series(ml_gfpx *g, const ml_gfpx *f, size_t k, unsigned p)
{
    if (!f->n || !f->c[0])
        return 1;
    uint8_t g0 = (uint8_t)ml_gfp_inv(f->c[0], p);
    ml_gfpx G, t, u;
    ml_gfpx_init(&G);
    ml_gfpx_init(&t);
    ml_gfpx_init(&u);
    int rc = ml_gfpx_set(&G, &g0, 1);
    for (size_t l = 1; l < k && !rc;) {
        size_t l2 = 2 * l < k ? 2 * l : k;
        /* G <- G - G ((f G mod x^l2) - 1): the low l terms of f G are 1, 0, .., 0 */
        rc = trunc_to(&t, f, l2);
        if (!rc)
            rc = ml_gfpx_mul(&t, &t, &G, p);
        if (!rc)
            rc = trunc_to(&t, &t, l2);
        if (!rc)
            rc = shift_down(&t, &t, l);
        if (!rc)
            rc = ml_gfpx_mul(&u, &t, &G, p);
        if (!rc)
            rc = trunc_to(&u, &u, l2 - l);
        if (!rc)
            rc = ml_gfpx_axpy(&G, 1, &u, l, p - 1, p);
        l = l2;
        if (!rc && ml_interrupt_poll())
            rc = 3;
    }
    if (!rc)
        rc = trunc_to(&G, &G, k);
    if (!rc) {
        ml_gfpx_clear(g);
        *g = G;
        ml_gfpx_init(&G);
    }
    ml_gfpx_clear(&G);
    ml_gfpx_clear(&t);
    ml_gfpx_clear(&u);
    return rc;
}

int ml_gfpx_divrem_newton(ml_gfpx *q, ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b,
                          unsigned p)
{
    if (!b->n)
        return 1;
    size_t db = b->n - 1;
    if (a->n <= db) {
        if (q) {
            if (q->n)
                memset(q->c, 0, q->n);
            q->n = 0;
        }
        return ml_gfpx_copy(r, a);
    }
    size_t k = a->n - db;                 /* quotient length */
    ml_gfpx ra, rb, inv, Q, t;
    ml_gfpx *all[5] = {&ra, &rb, &inv, &Q, &t};
    for (int i = 0; i < 5; i++)
        ml_gfpx_init(all[i]);
    int rc = reversed(&rb, b, b->n);
    if (!rc)
        rc = ml_gfpx_inv_series(&inv, &rb, k, p);
    if (!rc)
        rc = reversed(&ra, a, a->n);
    if (!rc)
        rc = trunc_to(&ra, &ra, k);
    if (!rc)
        rc = ml_gfpx_mul(&Q, &ra, &inv, p);
    if (!rc)
        rc = trunc_to(&Q, &Q, k);
    if (!rc) {
        rc = reversed(&t, &Q, k);          /* the quotient */
        ml_gfpx x = Q; Q = t; t = x;
    }
    if (!rc)
        rc = ml_gfpx_mul(&t, &Q, b, p);
    if (!rc) {                             /* r = (a - q b) mod x^db */
        rc = trunc_to(&t, &t, db);
        if (!rc)
            rc = trunc_to(&ra, a, db);
        if (!rc)
            rc = sub_in(&ra, &t, p);
    }
    if (!rc && q)
        rc = ml_gfpx_copy(q, &Q);
    if (!rc)
        rc = ml_gfpx_copy(r, &ra);
    for (int i = 0; i < 5; i++)
        ml_gfpx_clear(all[i]);
    return rc;
}

int ml_gfpx_divrem(ml_gfpx *q, ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b, unsigned p)
{
    size_t t = ml_gfpx_div_threshold;
    if (b->n && b->n > t && a->n >= b->n && a->n - b->n + 1 > t)
        return ml_gfpx_divrem_newton(q, r, a, b, p);
    return ml_gfpx_divrem_basecase(q, r, a, b, p);
}

/* ------------------------------------------------------------------ half-gcd */
/* 2 x 2 matrices over GF(p)[x]: (a', b') = M (a, b) is a' = m[0] a + m[1] b,
 * b' = m[2] a + m[3] b. */
typedef struct { ml_gfpx m[4]; } pmat;

static void pmat_init(pmat *M)
{
    for (int i = 0; i < 4; i++)
        ml_gfpx_init(&M->m[i]);
}
static void pmat_clear(pmat *M)
{
    for (int i = 0; i < 4; i++)
        ml_gfpx_clear(&M->m[i]);
}
static int pmat_identity(pmat *M)
{
    static const uint8_t one = 1;
    int rc = 0;
    for (int i = 0; i < 4 && !rc; i++)
        rc = ml_gfpx_set(&M->m[i], &one, i == 0 || i == 3);
    return rc;
}

/* (x, y) = M (x, y) (t1, t2: scratch) */
static int pmat_apply(const pmat *M, ml_gfpx *x, ml_gfpx *y, ml_gfpx *t1, ml_gfpx *t2,
                      unsigned p)
{
    int rc = ml_gfpx_mul(t1, &M->m[0], x, p);
    if (!rc)
        rc = ml_gfpx_mul(t2, &M->m[1], y, p);
    if (!rc)
        rc = ml_gfpx_axpy(t1, 1, t2, 0, 1, p);          /* t1 = new x */
    if (!rc)
        rc = ml_gfpx_mul(t2, &M->m[2], x, p);
    if (!rc)
        rc = ml_gfpx_mul(x, &M->m[3], y, p);             /* x is free now */
    if (!rc)
        rc = ml_gfpx_axpy(t2, 1, x, 0, 1, p);           /* t2 = new y */
    if (!rc) {
        ml_gfpx s = *x; *x = *t1; *t1 = s;
        s = *y; *y = *t2; *t2 = s;
    }
    return rc;
}

/* M = A M (columns of M transformed by A) */
static int pmat_lmul(const pmat *A, pmat *M, ml_gfpx *t1, ml_gfpx *t2, unsigned p)
{
    int rc = pmat_apply(A, &M->m[0], &M->m[2], t1, t2, p);
    if (!rc)
        rc = pmat_apply(A, &M->m[1], &M->m[3], t1, t2, p);
    return rc;
}

/* The divisors of the remainder sequence in order (for the resultant): the degree of
 * each as a polynomial of the whole sequence (a truncated one's plus its shift) and its
 * leading coefficient. */
typedef struct {
    long *deg;
    uint8_t *lc;
    size_t n, alloc;
} steplog;

static int log_push(steplog *L, long deg, unsigned lc)
{
    if (!L)
        return 0;
    if (L->n == L->alloc) {
        size_t want = L->alloc ? 2 * L->alloc : 64;
        long *d = realloc(L->deg, want * sizeof *d);
        if (!d)
            return 2;
        L->deg = d;
        uint8_t *c = realloc(L->lc, want);
        if (!c)
            return 2;
        L->lc = c;
        L->alloc = want;
    }
    L->deg[L->n] = deg;
    L->lc[L->n++] = (uint8_t)lc;
    return 0;
}

/* One Euclid step: (a, b) = (b, a mod b), rows of M likewise: M = [[0, 1], [1, -q]] M.
 * When col1 is 0 only column 0 of M is kept (m[1], m[3] untouched). b is logged to L
 * (when given) as a divisor of degree deg b + shift. */
static int euclid_step(ml_gfpx *a, ml_gfpx *b, pmat *M, int col1, ml_gfpx *q, ml_gfpx *t,
                       unsigned p, steplog *L, size_t shift)
{
    int rc = log_push(L, (long)(b->n - 1 + shift), b->c[b->n - 1]);
    if (!rc)
        rc = ml_gfpx_divrem(q, t, a, b, p);
    if (rc)
        return rc;
    ml_gfpx s = *a; *a = *b; *b = *t; *t = s;
    for (int c = 0; c < (col1 ? 2 : 1) && !rc; c++) {
        /* (m0, m2) -> (m2, m0 - q m2) */
        ml_gfpx *top = &M->m[c], *bot = &M->m[2 + c];
        rc = ml_gfpx_mul(t, q, bot, p);
        if (!rc)
            rc = sub_in(top, t, p);
        if (!rc) {
            s = *top; *top = *bot; *bot = s;
        }
    }
    return rc;
}

/* M with M (a, b) = (c, d), deg c >= m > deg d, m = ceil(deg a / 2) measured as
 * n / 2 for n = a's length (the Euclid steps while b has more than m coefficients);
 * deg a > deg b. a and b are consumed (scratch). Its divisors go to L (a and b are the
 * sequence's polynomials divided by x^shift). */
static int hgcd(pmat *M, ml_gfpx *a, ml_gfpx *b, unsigned p, steplog *L, size_t shift)
{
    size_t n = a->n, m = n / 2;
    int rc = pmat_identity(M);
    if (rc || b->n <= m)
        return rc;
    if (ml_interrupt_poll())
        return 3;
    ml_gfpx q, t, a0, b0;
    ml_gfpx_init(&q);
    ml_gfpx_init(&t);
    ml_gfpx_init(&a0);
    ml_gfpx_init(&b0);
    pmat S;
    pmat_init(&S);
    if (n < ml_gfpx_gcd_threshold) {     /* the classical steps */
        unsigned steps = 0;
        while (!rc && b->n > m) {
            rc = euclid_step(a, b, M, 1, &q, &t, p, L, shift);
            if (!rc && (++steps & 63) == 0 && ml_interrupt_poll())
                rc = 3;
        }
        goto done;
    }
    rc = shift_down(&a0, a, m);
    if (!rc)
        rc = shift_down(&b0, b, m);
    if (!rc)
        rc = hgcd(M, &a0, &b0, p, L, shift + m);
    if (!rc)
        rc = pmat_apply(M, a, b, &a0, &b0, p);
    if (rc || b->n <= m)
        goto done;
    rc = euclid_step(a, b, M, 1, &q, &t, p, L, shift);
    if (rc || b->n <= m)
        goto done;
    {
        size_t l = a->n - 1, j = l < 2 * m ? 2 * m - l : 0;
        rc = shift_down(&a0, a, j);
        if (!rc)
            rc = shift_down(&b0, b, j);
        if (!rc)
            rc = hgcd(&S, &a0, &b0, p, L, shift + j);
        if (!rc)
            rc = pmat_lmul(&S, M, &q, &t, p);
    }
done:
    ml_gfpx_clear(&q);
    ml_gfpx_clear(&t);
    ml_gfpx_clear(&a0);
    ml_gfpx_clear(&b0);
    pmat_clear(&S);
    return rc;
}

/* (A, B) = (B, A mod B); with C, C = [[0, 1], [1, -q]] C (column 1 only when col1) */
static int step_any(ml_gfpx *A, ml_gfpx *B, pmat *C, int col1, ml_gfpx *q, ml_gfpx *t,
                    unsigned p, steplog *L)
{
    if (C)
        return euclid_step(A, B, C, col1, q, t, p, L, 0);
    int rc = log_push(L, (long)B->n - 1, B->c[B->n - 1]);
    if (!rc)
        rc = ml_gfpx_divrem(NULL, t, A, B, p);
    if (!rc) {
        ml_gfpx s = *A; *A = *B; *B = *t; *t = s;
    }
    return rc;
}

/* The gcd by half-gcd steps: A = the gcd (not monic) and, with C, A = C->m[0] a +
 * C->m[1] b (C->m[1] only when col1); the divisors to L (when given). */
static int fast_euclid(ml_gfpx *A, pmat *C, int col1, const ml_gfpx *a, const ml_gfpx *b,
                       unsigned p, steplog *L)
{
    ml_gfpx B, q, t, x, y;
    ml_gfpx *all[5] = {&B, &q, &t, &x, &y};
    for (int i = 0; i < 5; i++)
        ml_gfpx_init(all[i]);
    pmat M;
    pmat_init(&M);
    int rc = ml_gfpx_copy(A, a);
    if (!rc)
        rc = ml_gfpx_copy(&B, b);
    if (!rc && C)
        rc = pmat_identity(C);
    if (!rc && A->n < B.n) {               /* (a, b) -> (b, a): the step with q = 0 */
        rc = log_push(L, (long)B.n - 1, B.c[B.n - 1]);
        ml_gfpx s = *A; *A = B; B = s;
        if (C)
            for (int c = 0; c < 2; c++) {
                s = C->m[c]; C->m[c] = C->m[2 + c]; C->m[2 + c] = s;
            }
    }
    if (!rc && B.n && A->n == B.n)         /* deg A > deg B from here on */
        rc = step_any(A, &B, C, col1, &q, &t, p, L);
    unsigned steps = 0;
    while (!rc && B.n) {
        if ((++steps & 63) == 0 && ml_interrupt_poll()) {
            rc = 3;
            break;
        }
        if (A->n >= ml_gfpx_gcd_threshold) {   /* a half-gcd, then one step */
            rc = ml_gfpx_copy(&x, A);
            if (!rc)
                rc = ml_gfpx_copy(&y, &B);
            if (!rc)
                rc = hgcd(&M, &x, &y, p, L, 0);
            if (!rc)
                rc = pmat_apply(&M, A, &B, &x, &y, p);
            if (!rc && C)
                rc = pmat_apply(&M, &C->m[0], &C->m[2], &x, &y, p);
            if (!rc && C && col1)
                rc = pmat_apply(&M, &C->m[1], &C->m[3], &x, &y, p);
            if (rc || !B.n)
                break;
        }
        rc = step_any(A, &B, C, col1, &q, &t, p, L);
    }
    for (int i = 0; i < 5; i++)
        ml_gfpx_clear(all[i]);
    pmat_clear(&M);
    return rc;
}

int ml_gfpx_gcd(ml_gfpx *g, const ml_gfpx *a, const ml_gfpx *b, unsigned p)
{
    size_t small = a->n < b->n ? a->n : b->n;
    if (small < ml_gfpx_gcd_threshold)
        return ml_gfpx_gcd_classical(g, a, b, p);
    ml_gfpx A;
    ml_gfpx_init(&A);
    int rc = fast_euclid(&A, NULL, 0, a, b, p, NULL);
    if (!rc) {
        ml_gfpx_make_monic(&A, p);
        ml_gfpx_clear(g);
        *g = A;
        ml_gfpx_init(&A);
    }
    ml_gfpx_clear(&A);
    return rc;
}

int ml_gfpx_xgcd(ml_gfpx *g, ml_gfpx *s, ml_gfpx *t, const ml_gfpx *a, const ml_gfpx *b,
                 unsigned p)
{
    size_t small = a->n < b->n ? a->n : b->n;
    if (small < ml_gfpx_gcd_threshold)
        return ml_gfpx_xgcd_classical(g, s, t, a, b, p);
    ml_gfpx A;
    ml_gfpx_init(&A);
    pmat C;
    pmat_init(&C);
    int rc = fast_euclid(&A, &C, t != NULL, a, b, p, NULL);
    if (!rc && A.n) {
        unsigned inv = ml_gfp_inv(A.c[A.n - 1], p);
        ml_gfpx_scale(&A, inv, p);
        ml_gfpx_scale(&C.m[0], inv, p);
        ml_gfpx_scale(&C.m[1], inv, p);
    }
    if (!rc) {
        ml_gfpx_clear(g);
        *g = A;
        ml_gfpx_init(&A);
        ml_gfpx_clear(s);
        *s = C.m[0];
        ml_gfpx_init(&C.m[0]);
        if (t) {
            ml_gfpx_clear(t);
            *t = C.m[1];
            ml_gfpx_init(&C.m[1]);
        }
    }
    ml_gfpx_clear(&A);
    pmat_clear(&C);
    return rc;
}

int ml_gfpx_resultant(unsigned *res, const ml_gfpx *a, const ml_gfpx *b, unsigned p)
{
    *res = 0;
    if (!a->n || !b->n)
        return 0;
    steplog L = {NULL, NULL, 0, 0};
    ml_gfpx A;
    ml_gfpx_init(&A);
    int rc = fast_euclid(&A, NULL, 0, a, b, p, &L);
    /* Euclid's resultant over the divisors r_1, r_2, .. (r_0 = a): with m = deg r_{i-1},
     * n = deg r_i, k = deg r_{i+1}: (-1)^(m n) lc(r_i)^(m - k) a step; lc(r_i)^m when
     * n = 0; 0 when r_{i+1} = 0 with n > 0 */
    uint64_t out = 1;
    long m = (long)a->n - 1;
    for (size_t i = 0; !rc && i < L.n; i++) {
        long n = L.deg[i], k = i + 1 < L.n ? L.deg[i + 1] : -1;
        uint64_t l = L.lc[i], e = (uint64_t)(n == 0 ? m : m - k), x = 1;
        if (n != 0 && k < 0)
            break;                            /* a common factor: 0 */
        if (n != 0 && (m * n) % 2)
            out = (p - out) % p;
        while (e) {                           /* out *= l^e */
            if (e & 1)
                x = x * l % p;
            l = l * l % p;
            e >>= 1;
        }
        out = out * x % p;
        if (n == 0) {
            *res = (unsigned)out;
            break;
        }
        m = n;
    }
    free(L.deg);
    free(L.lc);
    ml_gfpx_clear(&A);
    return rc;
}
