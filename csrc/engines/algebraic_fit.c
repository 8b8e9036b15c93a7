/* algebraic_fit.c: the nilpotent part ker P^e of a row of odd width (engines/algebraic_fit.h).
 *
 * Why the fold is the projection: in GF(p)[s] / (s^(4m) - 1), 4m = 2 m' L, the factor
 * s^L + 1 ((s^2 + 1)^(p^k), p odd; (s + 1)^L, p = 2) is coprime to its cofactor (p does
 * not divide 4 m', resp. m'), and it holds exactly the roots with x = s + 1/s = 0. The
 * idempotent of that component is E = (1 / 2m') sum_{t < 2m'} (-1)^t s^(t L) (p odd; the
 * Frobenius image of the one for (s^2 + 1) mod s^(4m') - 1) and sum_{t < m'} s^(t L)
 * (p = 2): E V = lift(fold(V)). Its dimension is e.
 *
 * The component's solve: multiplying by the unit s turns x into s x = u = s^2 + 1 (p odd)
 * or u^2 = (s + 1)^2 (p = 2), and Q = GF(p)[s] / (u^e) (p odd: a free GF(p)[u] / (u^e)
 * module on 1, s; p = 2: u^L = 0). In u-adic coordinates every coefficient a + b s x of
 * the equations maps layer j to layers j and j + 1 (j + 2), so the layers are solved in
 * order, each by a forward substitution down the rows (a1 a unit). The coordinates: with
 * t = s^2 (p odd) the even and odd halves are polynomials in t of degree < e = p^k, and
 * t = u - 1 is a Taylor shift, in char p the Kronecker product of k shifts of length p
 * ((t^(p^d) + a)^i has no carries); p = 2: s = u + 1 on degree < L = 2^(k+2). */
#include "engines/algebraic_fit.h"

#include "base/interrupt.h"
#include "poly/poly.h"

#include <stdlib.h>
#include <string.h>

int ml__fit_init(ml_fit *f, unsigned p, size_t w)
{
    if (w % 2 == 0 || p < 2 || p > 251)
        return -1;
    size_t m = (w + 1) / 2, k = 0, pk = 1;
    while (m % p == 0) {
        m /= p;
        pk *= p;
        k++;
    }
    f->p = p;
    f->w = w;
    if (p == 2) {
        f->e = 2 * pk - 1;
        f->L = 4 * pk;
        f->sinv = 1;
    } else {
        f->e = pk;
        f->L = 2 * pk;
        f->sinv = ml_gfp_inv((unsigned)(2 * (m % p) % p), p);
    }
    return f->e > 1 && w >= ML_FIT_WIDTH_MAX ? -1 : 0;
}

/* The blocks of exponents j = i + 1 (i = 0..w-1) by L: block t, from j0 = t L, holds
 * j = j0 + r for r from lo(j0) = (j0 ? 0 : 1) to hi(j0) = min(L, w + 1 - j0) (excl.);
 * the entry of v is v[j0 + r - 1]. */
static inline size_t blk_lo(size_t j0) { return j0 ? 0 : 1; }
static inline size_t blk_hi(size_t j0, size_t L, size_t w) { return w + 1 - j0 < L ? w + 1 - j0 : L; }

/* v mod p for v < 2^32, p < 256 (M = floor(2^40 / p) + 1: the error v / 2^40 < 1 / p) */
static inline unsigned red32(uint32_t v, uint64_t M, unsigned p)
{
    return (unsigned)(v - (uint32_t)(((uint64_t)v * M) >> 40) * p);
}

void ml__fit_fold(const ml_fit *f, const uint8_t *v, uint8_t *c, uint32_t *acc)
{
    /* V's s^j goes to c[r] and its mirror -s^-j to c[L - r], both with the sign
     * (-1)^t (r = 0: they cancel): c[r] = A[r] + A[L - r], A the signed block sums;
     * c[L - r] = c[r] (V(1/s) = -V(s)) */
    size_t L = f->L, w = f->w;
    unsigned p = f->p;
    memset(acc, 0, L * sizeof *acc);
    for (size_t j0 = 0, t = 0; j0 < w + 1; j0 += L, t ^= 1) {
        uint32_t *restrict a = acc;
        const uint8_t *restrict vb = v + j0;   /* vb[r - 1] = v[j0 + r - 1] */
        size_t r = blk_lo(j0), hi = blk_hi(j0, L, w);
        if (t && p != 2)
            for (; r < hi; r++)
                a[r] += p - vb[r - 1];
        else
            for (; r < hi; r++)
                a[r] += vb[r - 1];
    }
    c[0] = 0;
    uint64_t M = ((uint64_t)1 << 40) / p + 1;
    for (size_t j = 1; j <= L / 2; j++)   /* the sums < 2^32 (w < 2^24) */
        c[j] = c[L - j] = (uint8_t)red32(acc[j] + acc[L - j], M, p);
}

void ml__fit_lift(const ml_fit *f, const uint8_t *c, uint8_t *v, int sub, uint8_t *d)
{
    size_t L = f->L, w = f->w;
    unsigned p = f->p;
    if (p == 2) {
        for (size_t j0 = 0; j0 < w + 1; j0 += L) {
            uint8_t *restrict vb = v + j0;
            const uint8_t *restrict x = c;
            for (size_t r = blk_lo(j0), hi = blk_hi(j0, L, w); r < hi; r++)
                vb[r - 1] ^= x[r];
        }
        return;
    }
    uint8_t *nd = d + L;   /* d = c / (2m'), nd = -d; block t adds (-1)^t d (sub: -) */
    uint64_t M = ((uint64_t)1 << 40) / p + 1;
    for (size_t j = 0; j < L; j++) {
        d[j] = (uint8_t)red32(c[j] * f->sinv, M, p);
        nd[j] = (uint8_t)(d[j] ? p - d[j] : 0);
    }
    for (size_t j0 = 0, t = 0; j0 < w + 1; j0 += L, t ^= 1) {
        const uint8_t *restrict x = t != (size_t)sub ? nd : d;
        uint8_t *restrict vb = v + j0;
        for (size_t r = blk_lo(j0), hi = blk_hi(j0, L, w); r < hi; r++) {
            unsigned y = (unsigned)vb[r - 1] + x[r];
            vb[r - 1] = (uint8_t)(y >= p ? y - p : y);
        }
    }
}

unsigned ml__fit_tau(const ml_fit *f, const uint8_t *y)
{
    size_t L = f->L, w = f->w;
    unsigned p = f->p, t = 0;
    uint64_t s = 0;   /* up to 2 (w / L + 1) p: past 2^32 on rows of 2^24 tiles */
    for (size_t i = 0; i < w; i += L, t ^= 1)   /* i + 1 = t L + 1 */
        s += t ? p - y[i] : y[i];
    t = 0;
    for (size_t i = L - 2; i < w; i += L, t ^= 1)   /* i + 1 = t L + L - 1: c[1]'s mirror */
        s += t ? p - y[i] : y[i];
    if (p == 2)
        return (unsigned)(s & 1);
    return (unsigned)((uint64_t)(s % p) * f->sinv % p);
}

/* f(t) -> f(t + a) (a = 1 or p - 1) for deg f < n, n a power of p, in place on the rows
 * of g (n rows of hp bytes, one polynomial per column); 0, or 3 when stopped (polled
 * between levels) */
static int taylor(uint8_t *g, size_t n, size_t hp, unsigned p, unsigned a)
{
    for (size_t st = 1; st < n; st *= p) {
        if (ml_interrupt_poll())
            return 3;
        for (size_t base = 0; base < n; base += p * st)
            for (size_t i = 0; i + 1 < p; i++)
                for (size_t j = p - 1; j-- > i;) {
                    uint8_t *restrict lo = g + (base + j * st) * hp;
                    const uint8_t *restrict hi = lo + st * hp;
                    size_t len = st * hp;
                    if (p == 2) {
                        for (size_t l = 0; l < len; l++)
                            lo[l] ^= hi[l];
                    } else if (a == 1) {
                        for (size_t l = 0; l < len; l++) {
                            unsigned x = (unsigned)lo[l] + hi[l];
                            lo[l] = (uint8_t)(x >= p ? x - p : x);
                        }
                    } else {
                        for (size_t l = 0; l < len; l++) {
                            unsigned x = (unsigned)lo[l] + p - hi[l];
                            lo[l] = (uint8_t)(x >= p ? x - p : x);
                        }
                    }
                }
    }
    return 0;
}

/* T (rows of hp, column r + 1 for row r of C) = s c in t-coefficients (p odd: the even
 * half at rows 0..e-1, the odd half at e..2e-1), then the Taylor shift to u = t + 1
 * (p = 2: u = s + 1) */
static int to_u(const ml_fit *f, const uint8_t *C, size_t h, uint8_t *T)
{
    size_t L = f->L, e = f->e, hp = h + 2;
    unsigned p = f->p;
    for (size_t r = 0; r < h; r++) {
        const uint8_t *c = C + r * L;
        uint8_t *col = T + r + 1;
        if (p == 2) {
            col[0] = c[L - 1];
            for (size_t j = 1; j < L; j++)
                col[j * hp] = c[j - 1];
            continue;
        }
        col[0] = (uint8_t)((p - c[L - 1]) % p);   /* s^L = -1 */
        for (size_t i = 1; i < e; i++)
            col[i * hp] = c[2 * i - 1];
        for (size_t i = 0; i < e; i++)
            col[(e + i) * hp] = c[2 * i];
    }
    if (p == 2)
        return taylor(T, L, hp, 2, 1);
    int rc = taylor(T, e, hp, p, p - 1);
    return rc ? rc : taylor(T + e * hp, e, hp, p, p - 1);
}

/* T (u-adic coordinates of xi) -> C (s-coordinates of xi); T is overwritten. 0 or 3. */
static int from_u(const ml_fit *f, uint8_t *T, size_t h, uint8_t *C)
{
    size_t L = f->L, e = f->e, hp = h + 2;
    unsigned p = f->p;
    int rc = p == 2 ? taylor(T, L, hp, 2, 1) : taylor(T, e, hp, p, 1);
    if (!rc && p != 2)
        rc = taylor(T + e * hp, e, hp, p, 1);
    if (rc)
        return rc;
    for (size_t r = 0; r < h; r++) {
        uint8_t *c = C + r * L;
        const uint8_t *col = T + r + 1;
        if (p == 2) {
            for (size_t j = 0; j < L; j++)
                c[j] = col[j * hp];
            continue;
        }
        for (size_t i = 0; i < e; i++) {
            c[2 * i] = col[i * hp];
            c[2 * i + 1] = col[(e + i) * hp];
        }
    }
    return 0;
}

static inline unsigned red(unsigned v, uint64_t pm, unsigned p)   /* v < 2^21 */
{
    return (unsigned)(v - ((uint64_t)v * pm >> 42) * p);
}

/* the layers, in place on T (rows of h + 2, entries 1..h; 0 and h + 1 stay zero) */
static int layers(const ml_fit *f, const unsigned a[3], const unsigned b[3], size_t h,
                  uint8_t *T, const uint8_t *zero)
{
    size_t hp = h + 2, L = f->L, e = f->e;
    unsigned p = f->p;
    if (p == 2) {   /* a1 = 1: xi_j = g_j + xi_{j-1} + a0 (xi_{r-1, j} + xi_{r-1, j-1}) + .. */
        uint8_t a0 = (uint8_t)-(a[0] & 1), b0 = (uint8_t)-(b[0] & 1),
                b1 = (uint8_t)-(b[1] & 1), b2 = (uint8_t)-(b[2] & 1);
        for (size_t j = 0; j < L; j++) {
            uint8_t *x = T + j * hp;
            const uint8_t *x1 = j ? x - hp : zero, *x2 = j > 1 ? x - 2 * hp : zero;
            for (size_t r = 1; r <= h; r++)
                x[r] = (uint8_t)((x[r] ^ x1[r] ^ (a0 & (x[r - 1] ^ x1[r - 1])) ^
                                  (b0 & x2[r - 1]) ^ (b1 & x2[r]) ^ (b2 & x2[r + 1])) & 1);
            if ((j & 15) == 15 && ml_interrupt_poll())
                return 3;
        }
        return 0;
    }
    unsigned ia = ml_gfp_inv(a[1], p);
    uint64_t pm = ((uint64_t)1 << 42) / p + 1;
    unsigned cA0 = a[0] * ia % p, cB0 = b[0] * ia % p, cB1 = b[1] * ia % p,
             cB2 = b[2] * ia % p, nA0 = p - cA0, nB0 = p - cB0, nB1 = p - cB1, nB2 = p - cB2;
    for (size_t j = 0; j < e; j++) {
        uint8_t *al = T + j * hp, *be = T + (e + j) * hp;
        const uint8_t *pa = j ? al - hp : zero, *pb = j ? be - hp : zero;
        for (size_t r = 1; r <= h; r++) {
            /* a1 beta = a0 (pb[r-1] - beta[r-1]) + b0 pa[r-1] + a1 pb[r] + b1 pa[r]
             *           + b2 pa[r+1] - g_alpha;
             * a1 alpha = g_beta - a0 alpha[r-1] - b0 pb[r-1] - b1 pb[r] - b2 pb[r+1] */
            unsigned bt = red(cA0 * (p - be[r - 1] + pb[r - 1]) + cB0 * pa[r - 1] + pb[r] +
                                  cB1 * pa[r] + cB2 * pa[r + 1] + ia * (p - al[r]),
                              pm, p);
            unsigned at = red(ia * be[r] + nA0 * al[r - 1] + nB0 * pb[r - 1] + nB1 * pb[r] +
                                  nB2 * pb[r + 1],
                              pm, p);
            al[r] = (uint8_t)at;
            be[r] = (uint8_t)bt;
        }
        if ((j & 15) == 15 && ml_interrupt_poll())
            return 3;
    }
    return 0;
}

int ml__fit_solve(const ml_fit *f, const unsigned a[3], const unsigned b[3], size_t h,
                  uint8_t *C)
{
    size_t L = f->L, hp = h + 2;
    uint8_t *T = calloc(L * hp + 1, 1), *zero = calloc(hp + 1, 1);
    int rc = (!T || !zero) ? 2 : 0;
    if (!rc)
        rc = to_u(f, C, h, T);
    if (!rc)
        rc = layers(f, a, b, h, T, zero);
    if (!rc)
        rc = from_u(f, T, h, C);
    free(T);
    free(zero);
    return rc;
}
