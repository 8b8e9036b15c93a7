/* lifted_odd.c: the lifted engine's part over Z/q, q = p^k (k > 1), of algebraic-sym-odd's
 * boards (lifted_odd.h): the rows X_r (w entries, w = 2m - 1 odd) satisfy
 *     C_{-1} X_{r-1} + C_0 X_r + C_1 X_{r+1} = B_r,  C_k = a[k] + b[k] P  (mod q),
 * symchase.h's a[k], b[k], P the path adjacency, with a[2] = 0 (C_1 = b[2] P singular)
 * and the centre a[1] a unit mod p.
 *
 * The split. A row v is the Laurent polynomial V(s) = sum v_i (s^(i+1) - s^-(i+1)) in
 * Z/q[s] / (s^(4m) - 1), P multiplication by x = s + 1/s. Over Z, with 4m = N L:
 * s^(4m) - 1 has the factor s^L - eps holding exactly the roots where x is 0 mod p
 * (p = 2: L = 2^(v+2), eps = 1, the cyclotomic factors of 2-power order; p odd: L =
 * 2 p^v, eps = -1, those of order 4 p^j; p^v exactly dividing m), coprime mod p to its
 * cofactor; its CRT idempotent is E = (1/N) sum_{t<N} eps^t s^(tL) (N = 4m / L prime to
 * p). So the rows split as K (+) V1, P-invariant: the K-part of v is lift(fold(v)),
 * fold(v) = V mod (s^L - eps) (c_r = A_r - eps A_(L-r), A_r = sum_t eps^t v_(tL+r-1);
 * L bytes, O(w)), lift(c)_i = eps^t c_r / N for i + 1 = t L + r (O(w)). In one
 * variable, chi_w = A0 Q over Z/q with A0 = the polynomial in x of (s^L - eps) / (s^2 - 1)
 * (p = 2: sum of V_j over odd j < L/2) or of s^L + 1 (p odd: V_(L/2)), V_j(s + 1/s) =
 * s^j + s^-j, so A0 = x^e mod p (e = deg A0 the multiplicity of the root 0, checked) and
 * Q(0) a unit mod p (checked): V1 = im A0(P) = {(A0 f)(P) e_0 : f mod Q}.
 * - On K every row is a fold c_r in S = Z/q[s] / (s^L - eps) and the equations are
 *   M c = beta, M = A + x B, A the lower bidiagonal a[1] c_r + a[0] c_(r-1) (a[1] a unit:
 *   A invertible), B the tridiagonal of the b[k]. x is nilpotent in S (x^J = 0, J
 *   computed): c <- A^-1 (beta - x B c) from c = 0 is exact after J steps (the error is
 *   multiplied by -x A^-1 B, x commuting with A and B), checked by one more step
 *   (a fixed point is a solution). Unique: K adds nothing to the kernel. O(J h L).
 * - On V1, P is invertible: P y = u by parity (the odd positions from the even
 *   equations, the even ones up to t k, k = (1, 0, -1, 0, ...) spanning ker P, t from
 *   one fold coordinate rk where fold(k) is a unit: y in V1 iff its fold vanishes), so
 *   the chase X_(r+1) = C_1^-1 (B1_r - C_0 X_r - C_-1 X_(r-1)) runs on V1 and leaves
 *   X_h = F(P) z + c, F in Z/q[x] / (Q). With z = (A0 y)(P) e_0: g y = gamma in
 *   Z/q[x] / (Q), g = F mod Q from the chase of A0(P) e_0 (its polynomial is A0 g),
 *   A0 gamma the polynomial of -c: lifted_alg.h's equation (Hensel split, Smith form of
 *   R_A); ker A = the chases of ker g.
 * Conversions f <-> f(P) e_0 by Clenshaw's and Horner's rules, O(w^2); chases O(h w).
 * A solve that leaves X_h != 0 or a K-step that moves is an internal error, never an
 * answer. Declined (the choosing chase takes the part) when no orientation fits, J L >
 * 2 w + 256, or R_A's rank exceeds ml__lifted_zq_mmax(w, 1) (lifted.h: the measured ratio of
 * the cost table, at most 512). */
#include "engines/lifted_odd.h"

#include "api/board.h"
#include "api/ctx.h"
#include "base/interrupt.h"
#include "base/modn.h"
#include "engines/algebraic_impl.h"
#include "engines/lifted.h"
#include "engines/lifted_alg.h"

#include <stdlib.h>
#include <string.h>

#define WMAX ((size_t)1 << 24)      /* the fold's sums fit 32 bits */

typedef struct zo_eng {
    ml__zq_part base;
    size_t h, w;
    int t;                          /* 1: the columns */
    unsigned a[3], b[3];            /* of X_{r-1}, X_r, X_{r+1}, mod q; a[2] = 0 */
    unsigned binv, a1inv;           /* 1 / b[2], 1 / a[1] mod q */
    int eps;                        /* 1 (p = 2) or -1 */
    size_t L, J;                    /* the fold's length, x^J = 0 in S */
    unsigned ninv;                  /* 1 / N mod q */
    size_t rk;                      /* fold(k)[rk] a unit mod p */
    unsigned kinv;                  /* -1 / fold(k)[rk] mod q */
    ml_gfpx A0;                     /* chi_w = A0 Q */
    size_t dq;                      /* deg Q (0: V1 = 0) */
    ml__zq1 z;
} zo_eng;

static void zo_clear(ml__zq_part *part)
{
    zo_eng *e = (zo_eng *)part;
    ml__zq1_clear(&e->z);
    ml_gfpx_clear(&e->A0);
}

static const ml__zq_part_ops zo_ops;

static inline unsigned addq(unsigned x, unsigned y, unsigned q)   /* x, y < q */
{
    unsigned s = x + y;
    return s >= q ? s - q : s;
}

static inline unsigned subq(unsigned x, unsigned y, unsigned q)   /* x, y < q */
{
    unsigned s = x + q - y;
    return s >= q ? s - q : s;
}

/* ------------------------------------------------------------------ the fold */
/* c (L bytes) = fold(v) (v: w bytes < q); acc: L words */
static void fold(const zo_eng *e, const uint8_t *v, uint8_t *c, uint32_t *acc)
{
    size_t L = e->L, w = e->w;
    unsigned q = e->base.q;
    memset(acc, 0, L * sizeof *acc);
    int neg = 0;
    for (size_t j0 = 0; j0 < w + 1; j0 += L) {
        const uint8_t *vb = v + j0;   /* vb[r - 1] = v[j0 + r - 1] */
        size_t r = j0 ? 0 : 1, hi = w + 1 - j0 < L ? w + 1 - j0 : L;
        if (neg)
            for (; r < hi; r++)
                acc[r] += q - vb[r - 1];
        else
            for (; r < hi; r++)
                acc[r] += vb[r - 1];
        neg ^= e->eps < 0;
    }
    c[0] = 0;
    for (size_t r = 1; r < L; r++) {
        unsigned x = acc[r] % q, y = acc[L - r] % q;
        c[r] = (uint8_t)(e->eps > 0 ? subq(x, y, q) : addq(x, y, q));
    }
}

/* v += lift(c) (sub: v -= lift(c)), v: w bytes < q; d: 2 L bytes */
static void lift(const zo_eng *e, const uint8_t *c, uint8_t *v, int sub, uint8_t *d)
{
    size_t L = e->L, w = e->w;
    unsigned q = e->base.q;
    uint8_t *nd = d + L;
    for (size_t r = 0; r < L; r++) {
        d[r] = (uint8_t)(c[r] * e->ninv % q);
        nd[r] = (uint8_t)((q - d[r]) % q);
    }
    int neg = sub;
    for (size_t j0 = 0; j0 < w + 1; j0 += L) {
        const uint8_t *x = neg ? nd : d;
        uint8_t *vb = v + j0;
        for (size_t r = j0 ? 0 : 1, hi = w + 1 - j0 < L ? w + 1 - j0 : L; r < hi; r++)
            vb[r - 1] = (uint8_t)addq(vb[r - 1], x[r], q);
        neg ^= e->eps < 0;
    }
}

/* fold(y)[r] alone (1 <= r < L), O(w / L) */
static unsigned coord(const zo_eng *e, const uint8_t *y, size_t r)
{
    size_t L = e->L, w = e->w;
    unsigned q = e->base.q;
    uint64_t s = 0;
    int neg = 0;   /* A_r: signs eps^t */
    for (size_t j = r; j <= w; j += L, neg ^= e->eps < 0)
        s += neg ? q - y[j - 1] : y[j - 1];
    neg = e->eps > 0;   /* - eps A_(L-r): signs -eps^(t+1) */
    for (size_t j = L - r; j <= w; j += L, neg ^= e->eps < 0)
        s += neg ? q - y[j - 1] : y[j - 1];
    return (unsigned)(s % q);
}

/* ------------------------------------------------------------------ K */
/* y = x u in S (x = s + 1/s, s^L = eps) */
static void xmul(const zo_eng *e, const uint8_t *u, uint8_t *y)
{
    size_t L = e->L;
    unsigned q = e->base.q;
    for (size_t i = 0; i < L; i++) {
        unsigned lo = i ? u[i - 1] : (e->eps > 0 ? u[L - 1] : (q - u[L - 1]) % q);
        unsigned hi = i + 1 < L ? u[i + 1] : (e->eps > 0 ? u[0] : (q - u[0]) % q);
        y[i] = (uint8_t)addq(lo, hi, q);
    }
}

/* J with x^J = 0 in S, or 0 when it exceeds jmax */
static size_t nil_index(const zo_eng *e, size_t jmax, uint8_t *u, uint8_t *y)
{
    memset(u, 0, e->L);
    u[0] = 1;
    for (size_t j = 1; j <= jmax; j++) {
        xmul(e, u, y);
        memcpy(u, y, e->L);
        int any = 0;
        for (size_t i = 0; i < e->L; i++)
            any |= u[i];
        if (!any)
            return j;
    }
    return 0;
}

/* M c = beta in place on C (h x L folds): J steps of c <- A^-1 (beta - x B c) and one
 * more that must not move. 0, 2 out of memory, 3 stopped, 4 the check failed. */
static int ksolve(const zo_eng *e, uint8_t *C)
{
    size_t h = e->h, L = e->L, hl = h * L;
    unsigned q = e->base.q, a0 = e->a[0], ai = e->a1inv;
    uint8_t *beta = malloc(hl + 1), *nxt = malloc(hl + 1), *y = malloc(2 * L + 1);
    int rc = !beta || !nxt || !y ? 2 : 0;
    if (!rc) {
        memcpy(beta, C, hl);
        memset(C, 0, hl);
    }
    ml_fastmod fq = ml_fastmod_make(q);
    for (size_t it = 0; !rc && it <= e->J; it++) {
        if (ml_interrupt_poll()) {
            rc = 3;
            break;
        }
        for (size_t r = 0; r < h; r++) {
            const uint8_t *cm = r ? C + (r - 1) * L : NULL, *c0 = C + r * L,
                          *cp = r + 1 < h ? C + (r + 1) * L : NULL, *br = beta + r * L;
            const uint8_t *nm = r ? nxt + (r - 1) * L : NULL;
            uint8_t *u = y, *xu = y + L, *out = nxt + r * L;
            for (size_t i = 0; i < L; i++)   /* < 3 * 255 * 255 */
                u[i] = (uint8_t)ml_fastmod_red(fq, e->b[1] * c0[i] + (cm ? e->b[0] * cm[i] : 0) +
                                                       (cp ? e->b[2] * cp[i] : 0));
            xmul(e, u, xu);
            for (size_t i = 0; i < L; i++) {
                unsigned v = subq(br[i], xu[i], q);
                if (nm)
                    v = subq(v, (unsigned)ml_fastmod_red(fq, a0 * nm[i]), q);
                out[i] = (uint8_t)ml_fastmod_red(fq, v * ai);
            }
        }
        if (it == e->J && memcmp(C, nxt, hl))
            rc = 4;   /* never: x^J = 0 */
        memcpy(C, nxt, hl);
    }
    free(beta);
    free(nxt);
    free(y);
    return rc;
}

/* ------------------------------------------------------------------ V1 */
/* y in V1 with P y = u (u in V1) */
static void psolve(const zo_eng *e, const uint8_t *restrict u, uint8_t *restrict y)
{
    size_t w = e->w;
    unsigned q = e->base.q, prev = 0, d = 0;
    if (!(q & (q - 1))) {   /* q divides 256: bytes wrap, one mask */
        uint8_t m8 = (uint8_t)(q - 1), pv = 0, dv = 0;
        for (size_t i = 1; i < w; i += 2)
            y[i] = pv = (uint8_t)((u[i - 1] - pv) & m8);
        y[0] = 0;
        for (size_t j = 2; j < w; j += 2)
            y[j] = dv = (uint8_t)((u[j - 1] - dv) & m8);
    } else {
        for (size_t i = 1; i < w; i += 2) {
            prev = subq(u[i - 1], prev, q);
            y[i] = (uint8_t)prev;
        }
        y[0] = 0;
        for (size_t j = 2; j < w; j += 2) {
            d = subq(u[j - 1], d, q);
            y[j] = (uint8_t)d;
        }
    }
    unsigned t = coord(e, y, e->rk) * e->kinv % q, nt = (q - t) % q;
    for (size_t j = 0; t && j < w; j += 4) {
        y[j] = (uint8_t)addq(y[j], t, q);
        if (j + 2 < w)
            y[j + 2] = (uint8_t)addq(y[j + 2], nt, q);
    }
}

/* The chase on V1 of B (h x w, rows in V1; NULL: zero) from X_0 = z (NULL: zero): the
 * taps to x (h x w; NULL: not kept), X_h to last; s: 5 w bytes of scratch. 0 or 3. */
static int chase(const zo_eng *e, const uint8_t *B, const uint8_t *z, uint8_t *x,
                 uint8_t *last, uint8_t *s)
{
    size_t w = e->w, h = e->h;
    unsigned q = e->base.q, bi = e->binv;
    unsigned na1 = (q - e->a[1]) * bi % q, nb1 = (q - e->b[1]) % q * bi % q,
             na0 = (q - e->a[0]) % q * bi % q, nb0 = (q - e->b[0]) % q * bi % q;
    uint8_t *zero = s, *u = s + w, *rot[3] = {s + 2 * w, s + 3 * w, s + 4 * w};
    memset(zero, 0, w);
    uint8_t *first = x ? x : rot[0];
    if (z)
        memcpy(first, z, w);
    else
        memset(first, 0, w);
    const uint8_t *prev = zero, *cur = first;
    ml_fastmod fq = ml_fastmod_make(q);
    int pow2 = !(q & (q - 1));
    for (size_t r = 0; r < h; r++) {
        if ((r & 63) == 63 && ml_interrupt_poll())
            return 3;
        const uint8_t *br = B ? B + r * w : zero;
        uint8_t *next = r + 1 == h ? last : x ? x + (r + 1) * w : rot[(r + 1) % 3];
#define U(c, sc, sp) \
    ml_fastmod_red(fq, bi * br[c] + na1 * cur[c] + nb1 * (sc) + na0 * prev[c] + nb0 * (sp))
        if (pow2 && w > 2) {   /* q divides 256: bytes wrap, the middle branch-free */
            uint8_t m8 = (uint8_t)(q - 1), BI = (uint8_t)bi, A1 = (uint8_t)na1,
                    B1 = (uint8_t)nb1, A0 = (uint8_t)na0, B0 = (uint8_t)nb0;
            for (size_t c = 1; c + 1 < w; c++)
                u[c] = (uint8_t)((uint8_t)(BI * br[c] + A1 * cur[c] + A0 * prev[c] +
                                           B1 * (uint8_t)(cur[c - 1] + cur[c + 1]) +
                                           B0 * (uint8_t)(prev[c - 1] + prev[c + 1])) & m8);
            u[0] = (uint8_t)U(0, (unsigned)cur[1], (unsigned)prev[1]);
            u[w - 1] = (uint8_t)U(w - 1, (unsigned)cur[w - 2], (unsigned)prev[w - 2]);
        } else if (w == 1) {
            u[0] = (uint8_t)U(0, 0u, 0u);
        } else {
            u[0] = (uint8_t)U(0, (unsigned)cur[1], (unsigned)prev[1]);
            for (size_t c = 1; c + 1 < w; c++)
                u[c] = (uint8_t)U(c, (unsigned)cur[c - 1] + cur[c + 1],
                                  (unsigned)prev[c - 1] + prev[c + 1]);
            u[w - 1] = (uint8_t)U(w - 1, (unsigned)cur[w - 2], (unsigned)prev[w - 2]);
        }
#undef U
        psolve(e, u, next);
        prev = cur;
        cur = next;
    }
    return 0;
}

/* ------------------------------------------------------------------ one variable */
/* f (deg < w) with f(P) e_0 = v: Clenshaw, b_j = v_j + x b_{j+1} - b_{j+2}, f = b_0 */
static int vec_to_poly(const zo_eng *e, const uint8_t *v, ml_gfpx *f)
{
    size_t w = e->w;
    unsigned q = e->base.q;
    uint8_t *b1 = calloc(w + 1, 1), *b2 = calloc(w + 1, 1);
    int rc = !b1 || !b2 ? 2 : 0;
    for (size_t j = w; !rc && j-- > 0;) {
        if ((j & 255) == 0 && ml_interrupt_poll()) {
            rc = 3;
            break;
        }
        for (size_t i = w - j; i-- > 1;)   /* b2 <- x b1 - b2, in place */
            b2[i] = (uint8_t)subq(b1[i - 1], b2[i], q);
        b2[0] = (uint8_t)addq(subq(0, b2[0], q), v[j], q);
        uint8_t *t = b1;
        b1 = b2;
        b2 = t;
    }
    if (!rc)
        rc = ml_gfpx_set(f, b1, w);
    free(b1);
    free(b2);
    return rc;
}

/* v = f(P) e_0 (deg f < w), Horner: v <- P v + f_i e_0; tmp: w bytes */
static int poly_to_vec(const zo_eng *e, const ml_gfpx *f, uint8_t *v, uint8_t *tmp)
{
    size_t w = e->w;
    unsigned q = e->base.q;
    memset(v, 0, w);
    for (size_t i = f->n; i-- > 0;) {
        if ((i & 255) == 0 && ml_interrupt_poll())
            return 3;
        size_t sup = f->n - i < w ? f->n - i : w;   /* v is zero from sup - 1 on */
        for (size_t c = 0; c < sup; c++)
            tmp[c] = (uint8_t)addq(c ? v[c - 1] : 0, c + 1 < w ? v[c + 1] : 0, q);
        memcpy(v, tmp, sup);
        v[0] = (uint8_t)addq(v[0], f->c[i], q);
    }
    return 0;
}

/* quo = a / m over Z/q, m monic; 4 when the remainder is not zero */
static int divexact(ml_gfpx *quo, const ml_gfpx *a, const ml_gfpx *m, unsigned q)
{
    size_t dm = m->n - 1;
    if (a->n <= dm) {
        quo->n = 0;
        return a->n ? 4 : 0;
    }
    size_t nq = a->n - dm;
    uint8_t *r = malloc(a->n + 1), *c = malloc(nq + 1);
    int rc = !r || !c ? 2 : 0;
    ml_fastmod fq = ml_fastmod_make(q);
    if (!rc) {
        memcpy(r, a->c, a->n);
        for (size_t i = nq; i-- > 0;) {
            unsigned lead = r[i + dm], neg = (q - lead) % q;
            c[i] = (uint8_t)lead;
            for (size_t j = 0; lead && j < dm; j++)
                r[i + j] = (uint8_t)ml_fastmod_red(fq, r[i + j] + neg * m->c[j]);
            r[i + dm] = 0;
        }
        for (size_t j = 0; j < dm; j++)
            rc |= r[j] ? 4 : 0;
    }
    if (!rc)
        rc = ml_gfpx_set(quo, c, nq);
    free(r);
    free(c);
    return rc;
}

/* chi_w = U_w (Q_{j+1} = x Q_j - Q_{j-1}) and A0 (the header's) */
static int charpolys(const zo_eng *e, ml_gfpx *chi, ml_gfpx *A0)
{
    size_t w = e->w, n = (w > e->L ? w : e->L) + 2, half = e->L / 2;
    unsigned q = e->base.q;
    uint8_t *a = calloc(n, 1), *b = calloc(n, 1), *s = calloc(n, 1);
    int rc = !a || !b || !s ? 2 : 0;
    if (!rc) {   /* U: a = Q_{j-1}, b = Q_j */
        b[0] = 1;
        for (size_t j = 0; j < w && !rc; j++) {
            if ((j & 255) == 255 && ml_interrupt_poll())
                rc = 3;
            for (size_t i = j + 2; i-- > 0;)
                a[i] = (uint8_t)subq(i ? b[i - 1] : 0, a[i], q);
            uint8_t *t = a;
            a = b;
            b = t;
        }
        if (!rc)
            rc = ml_gfpx_set(chi, b, w + 1);
    }
    if (!rc) {   /* V: a = V_{j-1}, b = V_j from V_0 = 2, V_1 = x; s = A0 */
        memset(a, 0, n);
        memset(b, 0, n);
        a[0] = (uint8_t)(2 % q);
        b[1] = 1;
        if (e->base.p == 2)
            s[1] = 1;
        for (size_t j = 1; j < half && !rc; j++) {   /* b <- V_{j+1} */
            for (size_t i = j + 2; i-- > 0;)
                a[i] = (uint8_t)subq(i ? b[i - 1] : 0, a[i], q);
            uint8_t *t = a;
            a = b;
            b = t;
            for (size_t i = 0; e->base.p == 2 && (j + 1) % 2 && j + 1 < half && i <= j + 1; i++)
                s[i] = (uint8_t)addq(s[i], b[i], q);
        }
        rc = ml_gfpx_set(A0, e->base.p == 2 ? s : b, half + 1);
    }
    free(a);
    free(b);
    free(s);
    return rc;
}

/* ------------------------------------------------------------------ build */
/* Whether orientation t fits (the header's conditions); fills the counts and the fold */
static int orient(zo_eng *e, const ml__pattern *pt, int t)
{
    unsigned q = e->base.q, p = e->base.p;
    size_t w = t ? e->base.rows : e->base.cols;
    if (w % 2 == 0 || w >= WMAX)
        return 0;
    long all = 0;
    for (int k = 0; k < 3; k++) {   /* a[k], b[k]: the row offset 1 - k */
        long dr = 1 - k, a = ml__alg_count(pt, t, dr, 0), r = ml__alg_count(pt, t, dr, 1),
             l = ml__alg_count(pt, t, dr, -1);
        if ((r - l) % (long)q)
            return 0;
        all += a + r + l;
        e->a[k] = (unsigned)(a % (long)q);
        e->b[k] = (unsigned)(r % (long)q);
    }
    if ((size_t)all != pt->count || e->a[2] || e->b[2] % p == 0 || e->a[1] % p == 0)
        return 0;
    e->t = t;
    e->w = w;
    e->h = t ? e->base.cols : e->base.rows;
    e->binv = ml_inv_mod(e->b[2], q);
    e->a1inv = ml_inv_mod(e->a[1], q);
    size_t m = (w + 1) / 2, pv = 1;
    while (m % p == 0) {
        m /= p;
        pv *= p;
    }
    e->eps = p == 2 ? 1 : -1;
    e->L = p == 2 ? 4 * pv : 2 * pv;
    e->ninv = ml_inv_mod((unsigned)((2 * (w + 1) / e->L) % q), q);
    return 1;
}

/* rk, kinv (fold(k)), J; 0 when declined, 2 out of memory */
static int fold_setup(zo_eng *e)
{
    size_t w = e->w, L = e->L;
    unsigned q = e->base.q;
    uint8_t *k = calloc(w + 2 * L + 1, 1);
    uint32_t *acc = calloc(L + 1, sizeof *acc);
    if (!k || !acc) {
        free(k);
        free(acc);
        return 2;
    }
    for (size_t j = 0; j < w; j += 2)
        k[j] = (uint8_t)(j & 2 ? q - 1 : 1);
    uint8_t *c = k + w;
    fold(e, k, c, acc);
    int fit = 0;
    for (size_t r = 1; r < L && !fit; r++)
        if (c[r] % e->base.p) {
            e->rk = r;
            e->kinv = (q - ml_inv_mod(c[r], q)) % q;
            fit = 1;
        }
    if (fit)
        e->J = nil_index(e, (2 * w + 256) / L, c, c + L);
    free(k);
    free(acc);
    return fit && e->J;
}

/* A0, Q = chi / A0 (checks), g from the chase of A0(P) e_0, the algebra over Z/q[x]/(Q).
 * 0, 1 declined, 2, 3, 4 */
static int algebra(zo_eng *e)
{
    size_t w = e->w;
    ml_gfpx chi, Q, f, g;
    ml_gfpx_init(&chi);
    ml_gfpx_init(&Q);
    ml_gfpx_init(&f);
    ml_gfpx_init(&g);
    uint8_t *buf = malloc(7 * w + 1);
    int rc = buf ? charpolys(e, &chi, &e->A0) : 2;
    size_t de = e->A0.n ? e->A0.n - 1 : 0;
    for (size_t i = 0; !rc && i < de; i++)   /* A0 = x^e mod p */
        rc = e->A0.c[i] % e->base.p ? 1 : 0;
    if (!rc && (de == 0 || de > w))
        rc = 1;
    if (!rc)
        rc = divexact(&Q, &chi, &e->A0, e->base.q);
    if (rc == 4)
        rc = 1;
    e->dq = rc ? 0 : Q.n - 1;
    if (!rc && e->dq && Q.c[0] % e->base.p == 0)
        rc = 1;
    if (!rc && e->dq) {   /* g: the chase of A0(P) e_0 is (A0 g)(P) e_0 */
        uint8_t *z = buf + 5 * w, *last = buf + 6 * w;
        rc = poly_to_vec(e, &e->A0, z, buf);
        if (!rc)
            rc = chase(e, NULL, z, NULL, last, buf);
        if (!rc)
            rc = vec_to_poly(e, last, &f);
        if (!rc)
            rc = divexact(&g, &f, &e->A0, e->base.q);
        if (!rc)
            rc = ml__zq1_build(&e->z, e->base.p, e->base.k, &Q, &g, ml__lifted_zq_mmax(e->w, 1));
    }
    ml_gfpx_clear(&chi);
    ml_gfpx_clear(&Q);
    ml_gfpx_clear(&f);
    ml_gfpx_clear(&g);
    free(buf);
    return rc;
}

int ml__zq_odd_new(ml_ctx *ctx, const ml_board *b, unsigned p, unsigned k, void **engine)
{
    *engine = NULL;
    const ml__pattern *pt = &b->pal[0];
    if (b->kind != ML_BOARD_GRID || b->wrap || b->mixed || b->locked || b->holes ||
        b->giant || b->rows < 1 || b->cols < 1 || k < 2)
        return ML_OK;
    for (size_t i = 0; i < pt->count; i++)
        if (pt->dr[i] < -1 || pt->dr[i] > 1 || pt->dc[i] < -1 || pt->dc[i] > 1)
            return ML_OK;
    zo_eng *e = calloc(1, sizeof *e);
    if (!e)
        return ml__zq_part_fail(ctx, NULL, 2);
    ml__zq_part_init(&e->base, &zo_ops, b, p, k);
    ml__zq1_init(&e->z);
    ml_gfpx_init(&e->A0);
    int rc = 1;
    for (int t = 0; t < 2 && rc == 1; t++)
        if (orient(e, pt, t)) {
            rc = fold_setup(e);
            rc = rc == 2 ? 2 : rc ? algebra(e) : 1;
        }
    if (rc == 1 || rc == 4) {   /* declined: the choosing chase takes the part */
        ml__zq_part_destroy(NULL, e);
        return ML_OK;
    }
    if (rc) {
        ml__zq_part_destroy(NULL, e);
        return ml__zq_part_fail(ctx, NULL, rc);
    }
    e->base.ngens = e->z.ngens;
    e->base.klog = e->z.klog;
    *engine = e;
    return ML_OK;
}

/* ------------------------------------------------------------------ solve */
typedef struct work {
    uint8_t *bo, *xo, *C, *buf, *d;
    uint32_t *acc;
} work;

static void work_free(void *scratch)
{
    work *k = scratch;
    if (!k)
        return;
    free(k->bo);
    free(k->xo);
    free(k->C);
    free(k->buf);
    free(k->d);
    free(k->acc);
    free(k);
}

static int work_new(const ml__zq_part *part, void **scratch)
{
    const zo_eng *e = (const zo_eng *)part;
    size_t hw = e->base.rows * e->base.cols;
    work *k = calloc(1, sizeof *k);
    *scratch = k;
    if (!k)
        return 2;
    k->bo = malloc(hw + 1);
    k->xo = malloc(hw + 1);
    k->C = malloc(e->h * e->L + 1);
    k->buf = malloc(8 * e->w + 1);
    k->d = malloc(2 * e->L + 1);
    k->acc = malloc((e->L + 1) * sizeof *k->acc);
    return !k->bo || !k->xo || !k->C || !k->buf || !k->d || !k->acc ? 2 : 0;
}

/* z = (A0 y)(P) e_0, then the chase of B from z into xo; 4 when X_h != 0 */
static int replay(const zo_eng *e, const ml_gfpx *y, const uint8_t *B, uint8_t *xo,
                  uint8_t *buf)
{
    size_t w = e->w;
    uint8_t *z = buf + 5 * w, *last = buf + 6 * w;
    ml_gfpx ay;
    ml_gfpx_init(&ay);
    int rc = ml_gfpx_mul(&ay, &e->A0, y, e->base.q);
    if (!rc && ay.n > w)
        rc = 4;
    if (!rc)
        rc = poly_to_vec(e, &ay, z, buf);
    if (!rc)
        rc = chase(e, B, z, xo, last, buf);
    for (size_t c = 0; !rc && c < w; c++)
        rc = last[c] ? 4 : 0;
    ml_gfpx_clear(&ay);
    return rc;
}

/* A x = B (wk->bo, oriented, bytes < q; overwritten): the taps in wk->xo, *ok */
static int solve_grid(const zo_eng *e, work *wk, int *ok)
{
    size_t w = e->w, h = e->h, L = e->L;
    for (size_t r = 0; r < h; r++) {   /* B = lift(fold(B)) + B1 */
        fold(e, wk->bo + r * w, wk->C + r * L, wk->acc);
        lift(e, wk->C + r * L, wk->bo + r * w, 1, wk->d);
    }
    int rc = ksolve(e, wk->C);
    *ok = 1;
    if (!rc && e->dq) {
        uint8_t *last = wk->buf + 6 * w;
        rc = chase(e, wk->bo, NULL, wk->xo, last, wk->buf);
        int any = 0;
        for (size_t c = 0; !rc && c < w; c++)
            any |= last[c];
        if (!rc && any) {   /* A0 gamma = the polynomial of -c */
            ml_gfpx f, gam, y;
            ml_gfpx_init(&f);
            ml_gfpx_init(&gam);
            ml_gfpx_init(&y);
            for (size_t c = 0; c < w; c++)
                last[c] = (uint8_t)((e->base.q - last[c]) % e->base.q);
            rc = vec_to_poly(e, last, &f);
            if (!rc)
                rc = divexact(&gam, &f, &e->A0, e->base.q);
            if (!rc)
                rc = ml__zq1_solve(&e->z, &gam, &y, ok);
            if (!rc && *ok)
                rc = replay(e, &y, wk->bo, wk->xo, wk->buf);
            ml_gfpx_clear(&f);
            ml_gfpx_clear(&gam);
            ml_gfpx_clear(&y);
        }
    } else if (!rc) {
        memset(wk->xo, 0, h * w);
    }
    for (size_t r = 0; !rc && *ok && r < h; r++)   /* X = X1 + lift(xi) */
        lift(e, wk->C + r * L, wk->xo + r * w, 0, wk->d);
    return rc;
}

static int zo_solve(const ml__zq_part *part, void *scratch, const uint8_t *r, uint8_t *x,
                    int *ok)
{
    const zo_eng *e = (const zo_eng *)part;
    work *wk = scratch;
    ml__zq_part_orient(e->t, e->base.rows, e->base.cols, r, wk->bo);
    int rc = solve_grid(e, wk, ok);
    if (!rc && *ok)
        ml__zq_part_orient(e->t, e->h, e->w, wk->xo, x);
    return rc;
}

static int zo_generator(const ml__zq_part *part, void *scratch, uint64_t i, uint8_t *h,
                        unsigned *order)
{
    const zo_eng *e = (const zo_eng *)part;
    work *wk = scratch;
    ml_gfpx y;
    ml_gfpx_init(&y);
    int rc = ml__zq1_generator(&e->z, (size_t)i, &y, order);
    if (!rc)
        rc = replay(e, &y, NULL, wk->xo, wk->buf);
    if (!rc)
        ml__zq_part_orient(e->t, e->h, e->w, wk->xo, h);
    ml_gfpx_clear(&y);
    return rc;
}

static const ml__zq_part_ops zo_ops = {
    work_new, work_free, zo_solve, zo_generator, zo_clear,
    "the algebra over Z/p^k broke an identity",
};

const ml_engine_def ml__zq_odd_ops = ML__ZQ_PART_DEF("lifted-zq-odd");

void ml__zq_odd_rank(const void *engine, size_t *m, size_t *w)
{
    const zo_eng *e = engine;
    *m = e->z.m;
    *w = e->w;
}
