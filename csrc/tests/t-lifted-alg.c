/* t-lifted-alg: engines/lifted_alg.c's one equation g y = c over (Z/p^k)[x] / (chi)
 * (ml__zq1) against brute force over every y of R: random monic chi and g of degree
 * w = 1..4 over q = 4, 8, 9, 16, 25, 27 (chi and g also built from a common factor mod
 * p, repeated factors, g = 0, g a unit), q^w at most 2^16: |ker| = p^klog, the p-torsion
 * of the kernel of size p^ngens (the generators' count minimal), every generator in the
 * kernel with its order exactly, the generators spanning the kernel (its size by
 * closure), and for random right-hand sides (half of them g y0) ok exactly when a
 * solution exists, g y = c when ok. ml__zq_rem against schoolbook remainders; the
 * Barrett path (quotients of 64 coefficients and more) on w = 200 against long division,
 * with poly.h's products by schoolbook and by the transform (one prime, two and the CRT).
 * ml-test-sources: engines/lifted_alg.c poly/poly.c poly/gfpx_fast.c base/interrupt.c base/cpu.c */
#define ML_T_SEED 0x2AD1C5ull
#include "engines/lifted_alg.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

static unsigned P, K, Q;
static size_t W;
static int seen_ker, seen_deep, seen_unsolvable, seen_split;   /* what the cases met */

/* r = a b mod (chi, q), vectors of W coefficients */
static void mul_r(const uint8_t *a, const uint8_t *b, const uint8_t *chi, uint8_t *r)
{
    unsigned t[16] = {0};
    for (size_t i = 0; i < W; i++)
        for (size_t j = 0; j < W; j++)
            t[i + j] = (t[i + j] + a[i] * b[j]) % Q;
    for (size_t i = 2 * W - 1; i-- > W;) {   /* x^W = -(chi - x^W) */
        unsigned c = t[i];
        t[i] = 0;
        for (size_t j = 0; j < W; j++)
            t[i - W + j] = (t[i - W + j] + (Q - c) * chi[j]) % Q;
    }
    for (size_t i = 0; i < W; i++)
        r[i] = (uint8_t)t[i];
}

static void to_poly(ml_gfpx *f, const uint8_t *v, size_t n) { CHECK(!ml_gfpx_set(f, v, n)); }
static void from_poly(const ml_gfpx *f, uint8_t *v)
{
    memset(v, 0, W);
    CHECK(f->n <= W, "degree below w");
    for (size_t i = 0; i < f->n && i < W; i++)
        v[i] = f->c[i];
}

static void index_vec(size_t ix, uint8_t *v)
{
    for (size_t i = 0; i < W; i++, ix /= Q)
        v[i] = (uint8_t)(ix % Q);
}
static size_t vec_index(const uint8_t *v)
{
    size_t ix = 0;
    for (size_t i = W; i-- > 0;)
        ix = ix * Q + v[i];
    return ix;
}

static void one_case(const uint8_t *chi, const uint8_t *g)
{
    size_t N = 1;
    for (size_t i = 0; i < W; i++)
        N *= Q;
    uint8_t *img = malloc(N * W), *inker = calloc(N, 1), *span = calloc(N, 1), y[8], r[8];
    size_t *queue = malloc(N * sizeof *queue);
    CHECK(img && inker && span && queue);
    size_t nker = 0, ntor = 0;
    for (size_t ix = 0; ix < N; ix++) {
        index_vec(ix, y);
        mul_r(g, y, chi, img + ix * W);
        int zero = 1, tor = 1;
        for (size_t i = 0; i < W; i++) {
            zero &= img[ix * W + i] == 0;
            tor &= (y[i] * P) % Q == 0;
        }
        inker[ix] = (uint8_t)zero;
        nker += zero;
        ntor += zero && tor;
    }
    ml__zq1 z;
    ml__zq1_init(&z);
    ml_gfpx fc, fg, fy, fr;
    ml_gfpx_init(&fc);
    ml_gfpx_init(&fg);
    ml_gfpx_init(&fy);
    ml_gfpx_init(&fr);
    uint8_t chim[8];
    memcpy(chim, chi, W);
    chim[W] = 1;
    to_poly(&fc, chim, W + 1);
    to_poly(&fg, g, W);
    int rc = ml__zq1_build(&z, P, K, &fc, &fg, 64);
    CHECK(rc == 0, "build %d", rc);
    size_t pk = 1, pt = 1;
    for (uint64_t i = 0; i < z.klog; i++)
        pk *= P;
    for (size_t i = 0; i < z.ngens; i++)
        pt *= P;
    CHECK(pk == nker, "|ker| p^%llu, brute force %zu (q %u, w %zu)", (unsigned long long)z.klog,
          nker, Q, W);
    CHECK(pt == ntor, "p-torsion p^%zu, brute force %zu", z.ngens, ntor);
    seen_ker += nker > 1;
    seen_deep += z.klog > z.ngens;   /* a generator of order p^2 or more */
    seen_split += z.m > 0 && z.m < W;
    /* generators: in the kernel, orders exact, spanning it */
    size_t head = 0, tail = 0;
    span[0] = 1;
    queue[tail++] = 0;
    uint8_t gens[64][8];
    size_t ng = z.ngens < 64 ? z.ngens : 64;
    for (size_t i = 0; i < ng; i++) {
        unsigned ord = 0;
        CHECK(ml__zq1_generator(&z, i, &fy, &ord) == 0);
        from_poly(&fy, gens[i]);
        CHECK(inker[vec_index(gens[i])], "generator %zu in the kernel", i);
        for (unsigned o = 1; o <= ord; o++) {   /* o h = 0 first at o = ord */
            int zero = 1;
            for (size_t t = 0; t < W; t++)
                zero &= gens[i][t] * o % Q == 0;
            CHECK(zero == (o == ord), "order %u of generator %zu", ord, i);
        }
    }
    while (head < tail) {   /* the span: closure under adding generators */
        index_vec(queue[head++], y);
        for (size_t i = 0; i < ng; i++) {
            for (size_t t = 0; t < W; t++)
                r[t] = (uint8_t)((y[t] + gens[i][t]) % Q);
            size_t ix = vec_index(r);
            if (!span[ix]) {
                span[ix] = 1;
                queue[tail++] = ix;
            }
        }
    }
    CHECK(tail == nker, "the generators span %zu of %zu", tail, nker);
    /* solves */
    for (int s = 0; s < 8; s++) {
        uint8_t c[8];
        if (s % 2)
            memcpy(c, img + (size_t)rnd_range(0, (int64_t)N - 1) * W, W);
        else
            for (size_t i = 0; i < W; i++)
                c[i] = (uint8_t)rnd_range(0, Q - 1);
        int exists = 0;
        for (size_t ix = 0; ix < N && !exists; ix++)
            exists = memcmp(img + ix * W, c, W) == 0;
        int ok = -1;
        to_poly(&fr, c, W);
        CHECK(ml__zq1_solve(&z, &fr, &fy, &ok) == 0);
        CHECK(ok == exists, "solvable %d, brute force %d", ok, exists);
        seen_unsolvable += !exists;
        if (ok == 1) {
            from_poly(&fy, y);
            mul_r(g, y, chi, r);
            CHECK(memcmp(r, c, W) == 0, "g y = c");
        }
    }
    ml__zq1_clear(&z);
    ml_gfpx_clear(&fc);
    ml_gfpx_clear(&fg);
    ml_gfpx_clear(&fy);
    ml_gfpx_clear(&fr);
    free(img);
    free(inker);
    free(span);
    free(queue);
}

/* a (monic, degree da) times b (monic, degree db) mod q into r (monic) */
static void mul_monic(const uint8_t *a, size_t da, const uint8_t *b, size_t db, uint8_t *r)
{
    memset(r, 0, da + db + 1);
    for (size_t i = 0; i <= da; i++)
        for (size_t j = 0; j <= db; j++)
            r[i + j] = (uint8_t)((r[i + j] + a[i] * b[j]) % Q);
}

static void rem_checks(void)
{
    /* ml__zq_rem and the build's Barrett path on larger w: g y = c round trips */
    for (int it = 0; it < 6; it++) {
        static const unsigned PK[][2] = {{2, 2}, {3, 2}, {2, 3}, {5, 2}, {3, 3}, {2, 4}};
        P = PK[it][0];
        K = PK[it][1];
        Q = 1;
        for (unsigned i = 0; i < K; i++)
            Q *= P;
        size_t w = 200;
        uint8_t chi[260], a[520];
        for (size_t i = 0; i < w; i++)
            chi[i] = (uint8_t)rnd_range(0, Q - 1);
        chi[w] = 1;
        chi[0] = (uint8_t)(chi[0] - chi[0] % P);   /* x | chi mod p: g = x meets it */
        ml_gfpx fc, fg, fy, fr, t;
        ml_gfpx_init(&fc);
        ml_gfpx_init(&fg);
        ml_gfpx_init(&fy);
        ml_gfpx_init(&fr);
        ml_gfpx_init(&t);
        CHECK(!ml_gfpx_set(&fc, chi, w + 1));
        for (size_t i = 0; i < 2 * w; i++)
            a[i] = (uint8_t)rnd_range(0, Q - 1);
        CHECK(!ml_gfpx_set(&fr, a, 2 * w));
        CHECK(!ml__zq_rem(&t, &fr, &fc, Q));
        /* t = a - quotient chi: (a - t) divisible by chi, checked by long division of
         * a - t by hand */
        uint8_t d[520];
        for (size_t i = 0; i < 2 * w; i++)
            d[i] = (uint8_t)((a[i] + Q - (i < t.n ? t.c[i] : 0)) % Q);
        for (size_t i = 2 * w; i-- > w;) {
            unsigned c = d[i];
            for (size_t j = 0; j <= w; j++)
                d[i - w + j] = (uint8_t)((d[i - w + j] + (Q - c) * chi[j]) % Q);
        }
        int zero = t.n <= w;
        for (size_t i = 0; i < w; i++)
            zero &= d[i] == 0;
        CHECK(zero, "ml__zq_rem: a = quotient chi + remainder (q %u)", Q);
        /* g = x + p h: solve and check g y = c by products */
        uint8_t g[260] = {0};
        for (size_t i = 0; i < w; i++)
            g[i] = (uint8_t)(P * rnd_range(0, Q / P - 1) % Q);
        g[1] = (uint8_t)((g[1] + 1) % Q);
        CHECK(!ml_gfpx_set(&fg, g, w));
        ml__zq1 z;
        ml__zq1_init(&z);
        CHECK(ml__zq1_build(&z, P, K, &fc, &fg, 64) == 0, "build w = 200");
        for (size_t i = 0; i < w; i++)
            a[i] = (uint8_t)rnd_range(0, Q - 1);
        CHECK(!ml_gfpx_set(&fy, a, w));
        CHECK(!ml_gfpx_mul(&t, &fg, &fy, Q) && !ml__zq_rem(&fr, &t, &fc, Q));   /* c = g y0 */
        int ok = 0;
        CHECK(ml__zq1_solve(&z, &fr, &fy, &ok) == 0 && ok, "g y0 solvable (q %u)", Q);
        CHECK(!ml_gfpx_mul(&t, &fg, &fy, Q) && !ml__zq_rem(&t, &t, &fc, Q));
        CHECK(t.n == fr.n && (!t.n || memcmp(t.c, fr.c, t.n) == 0), "g y = c at w = 200");
        for (size_t i = 0; i < z.ngens; i++) {
            unsigned ord = 0;
            CHECK(ml__zq1_generator(&z, i, &fy, &ord) == 0);
            CHECK(!ml_gfpx_mul(&t, &fg, &fy, Q) && !ml__zq_rem(&t, &t, &fc, Q) && !t.n,
                  "generator %zu in the kernel at w = 200", i);
        }
        CHECK(ml__zq1_build(&z, P, K, &fc, &fg, 0) == (z.m > 0 ? 1 : 0), "declined past mmax");
        ml__zq1_clear(&z);
        ml_gfpx_clear(&fc);
        ml_gfpx_clear(&fg);
        ml_gfpx_clear(&fy);
        ml_gfpx_clear(&fr);
        ml_gfpx_clear(&t);
    }
}

int main(void)
{
    static const unsigned PK[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {5, 2}, {3, 3}};
    int cases = 0;
    for (int it = 0; it < 600; it++) {
        int c = it % 6;
        P = PK[c][0];
        K = PK[c][1];
        Q = 1;
        for (unsigned i = 0; i < K; i++)
            Q *= P;
        size_t wmax = 1;
        while (wmax < 4) {   /* q^w <= 2^16 */
            size_t n = 1;
            for (size_t i = 0; i <= wmax; i++)
                n *= Q;
            if (n > 65536)
                break;
            wmax++;
        }
        W = (size_t)rnd_range(1, (int64_t)wmax);
        uint8_t chi[8] = {0}, g[8] = {0};
        int kind = (int)rnd_range(0, 4);
        if (kind == 0 || W < 2) {   /* random */
            for (size_t i = 0; i < W; i++) {
                chi[i] = (uint8_t)rnd_range(0, Q - 1);
                g[i] = (uint8_t)rnd_range(0, Q - 1);
            }
            if (rnd_range(0, 3) == 0)
                memset(g, 0, sizeof g);
        } else {   /* chi = u v (u repeated sometimes), g = u h + p e */
            uint8_t u[4] = {0}, v[8] = {0}, full[8];
            size_t du = (size_t)rnd_range(1, (int64_t)W - 1), dv = W - du;
            for (size_t i = 0; i < du; i++)
                u[i] = (uint8_t)rnd_range(0, Q - 1);
            u[du] = 1;
            if (kind == 1 && dv >= du) {   /* v = u w' */
                uint8_t rest[8] = {0};
                for (size_t i = 0; i < dv - du; i++)
                    rest[i] = (uint8_t)rnd_range(0, Q - 1);
                rest[dv - du] = 1;
                mul_monic(u, du, rest, dv - du, v);
            } else {
                for (size_t i = 0; i < dv; i++)
                    v[i] = (uint8_t)rnd_range(0, Q - 1);
                v[dv] = 1;
            }
            mul_monic(u, du, v, dv, full);
            memcpy(chi, full, W);
            uint8_t h[8] = {0}, gu[8];
            size_t dh = W - du - 1;
            for (size_t i = 0; i <= dh; i++)
                h[i] = (uint8_t)rnd_range(0, Q - 1);
            mul_monic(u, du, h, dh, gu);   /* u h, degree < W (h need not be monic) */
            for (size_t i = 0; i < W; i++)
                g[i] = (uint8_t)((gu[i] + (kind == 3 ? P * rnd_range(0, Q / P - 1) : 0)) % Q);
        }
        one_case(chi, g);
        cases++;
    }
    rem_checks();
    ml_gfpx_mul_threshold = 4;   /* the transform's products over Z/p^k, one prime and two */
    rem_checks();
    ml_gfpx_ntt_force_crt = 1;
    rem_checks();
    printf("checked %d equations by brute force: %d with a kernel, %d with orders p^2 or "
           "more, %d split (0 < m < w), %d unsolvable right-hand sides\n", cases, seen_ker,
           seen_deep, seen_split, seen_unsolvable);
    CHECK(seen_ker >= 200 && seen_deep >= 50 && seen_split >= 50 && seen_unsolvable >= 200);
    return t_done();
}
