/* t-polymat: csrc/engines/polymat.c, 2 x 2 matrices over R = GF(p)[s] / (s^w - 1) and
 * their diagonal form, against schoolbook arithmetic on coefficient arrays: on random
 * matrices (p 2, 3, 5, 251; w 1..12; entries random, sparse, zero rows or columns, all
 * zero, the (0, 0) entry zero) the product is the naive product mod s^w - 1 (aliasing
 * the output to either factor too); the xgcd's g = s a + t b divides a and b; exact
 * division returns 4 on a remainder; the diagonal form has L M V = D with D diagonal,
 * det L and det V units of R (their gcd with s^w - 1 is 1).
 * ml-test-sources: engines/polymat.c engines/algebraic_poly.c poly/poly.c poly/gfpx_fast.c base/interrupt.c base/cpu.c */
#define ML_T_SEED 0x9017A7ull
#include "engines/polymat.h"
#include "tests/t-util.h"

#include <string.h>

static const unsigned PS[] = {2, 3, 5, 251};

/* c (w coefficients) of a mod s^w - 1, naively */
static void fold(unsigned p, const px *a, size_t w, unsigned *c)
{
    memset(c, 0, w * sizeof *c);
    long d = ml__alg_px_deg(p, a);
    for (long i = 0; i <= d; i++) {
        unsigned v = p == 2 ? (unsigned)(a->b.c[i / 64] >> (i % 64) & 1) : a->c.c[i];
        c[(size_t)i % w] = (c[(size_t)i % w] + v) % p;
    }
}

static void rand_px(unsigned p, px *a, size_t w, int kind)
{
    uint8_t c[16] = {0};
    for (size_t i = 0; i < w; i++)
        c[i] = kind == 0 ? 0 : kind == 1 ? (uint8_t)(rnd() % 4 == 0 ? rnd() % p : 0)
                                         : (uint8_t)(rnd() % p);
    CHECK(ml__alg_px_set(p, a, c, w) == 0);
}

static void set_f(unsigned p, px *f, size_t w)
{
    uint8_t c[17] = {0};
    c[0] = (uint8_t)(p - 1);
    c[w] = 1;
    CHECK(ml__alg_px_set(p, f, c, w + 1) == 0);
}

/* naive 2 x 2 product mod s^w - 1, coefficient arrays */
static void naive(unsigned p, size_t w, const pmat *X, const pmat *Y, unsigned out[4][16])
{
    unsigned a[4][16], b[4][16];
    for (int i = 0; i < 4; i++) {
        fold(p, &X->e[i], w, a[i]);
        fold(p, &Y->e[i], w, b[i]);
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            unsigned *o = out[2 * i + j];
            memset(o, 0, 16 * sizeof *o);
            for (int k = 0; k < 2; k++)
                for (size_t u = 0; u < w; u++)
                    for (size_t v = 0; v < w; v++)
                        o[(u + v) % w] = (o[(u + v) % w] + a[2 * i + k][u] * b[2 * k + j][v]) % p;
        }
}

static int same(unsigned p, size_t w, const pmat *M, unsigned want[4][16])
{
    unsigned c[16];
    for (int i = 0; i < 4; i++) {
        if (ml__alg_px_deg(p, &M->e[i]) >= (long)w)
            return 0;   /* entries are reduced */
        fold(p, &M->e[i], w, c);
        if (memcmp(c, want[i], w * sizeof *c))
            return 0;
    }
    return 1;
}

/* whether a is a unit mod f: gcd(a, f) = 1 */
static int unit(unsigned p, const px *a, const px *f)
{
    px g, s;
    ml__alg_px_init(&g);
    ml__alg_px_init(&s);
    int ok = ml__pm_xgcd(p, &g, &s, NULL, a, f) == 0 && ml__alg_px_deg(p, &g) == 0;
    ml__alg_px_clear(&g);
    ml__alg_px_clear(&s);
    return ok;
}

static void det(unsigned p, const pmat *X, const px *f, px *d)
{
    px t, u;
    ml__alg_px_init(&t);
    ml__alg_px_init(&u);
    CHECK(ml__alg_px_mulmod(p, d, &X->e[0], &X->e[3], f, &t) == 0);
    CHECK(ml__alg_px_mulmod(p, &u, &X->e[1], &X->e[2], f, &t) == 0);
    ml__alg_px_neg(p, &u);
    CHECK(ml__alg_px_add(p, d, &u) == 0);
    ml__alg_px_clear(&t);
    ml__alg_px_clear(&u);
}

static void one(unsigned p, size_t w)
{
    pmat M, M0, L, V, T;
    px f, d, g, s, t, q;
    ml__pm_init(&M);
    ml__pm_init(&M0);
    ml__pm_init(&L);
    ml__pm_init(&V);
    ml__pm_init(&T);
    ml__alg_px_init(&f);
    ml__alg_px_init(&d);
    ml__alg_px_init(&g);
    ml__alg_px_init(&s);
    ml__alg_px_init(&t);
    ml__alg_px_init(&q);
    set_f(p, &f, w);
    int shape = (int)(rnd() % 6);
    for (int i = 0; i < 4; i++) {
        int kind = shape == 0 ? 0 : shape == 1 ? 1 : 2;
        if ((shape == 3 && i < 2) || (shape == 4 && i % 2 == 0) || (shape == 5 && i == 0))
            kind = 0;   /* a zero row, a zero column, a zero (0, 0) entry */
        rand_px(p, &M.e[i], w, kind);
        CHECK(ml__alg_px_copy(p, &M0.e[i], &M.e[i]) == 0);
        rand_px(p, &T.e[i], w, 2);
    }
    /* products, aliasing either factor */
    unsigned want[4][16];
    naive(p, w, &M, &T, want);
    CHECK(ml__pm_mul(p, &L, &M, &T, &f) == 0 && same(p, w, &L, want), "product");
    CHECK(ml__pm_mul(p, &L, &L, &L, &f) == 0);
    naive(p, w, &M, &T, want);
    CHECK(ml__pm_mul(p, &V, &M, &T, &f) == 0);
    CHECK(ml__pm_mul(p, &V, &V, &T, &f) == 0);
    unsigned want2[4][16];
    pmat MT;
    ml__pm_init(&MT);
    CHECK(ml__pm_mul(p, &MT, &M, &T, &f) == 0);
    naive(p, w, &MT, &T, want2);
    CHECK(same(p, w, &V, want2), "product aliased");
    ml__pm_clear(&MT);
    /* xgcd and exact division */
    if (ml__alg_px_deg(p, &M.e[0]) >= 0 || ml__alg_px_deg(p, &M.e[1]) >= 0) {
        CHECK(ml__pm_xgcd(p, &g, &s, &t, &M.e[0], &M.e[1]) == 0);
        CHECK(ml__alg_px_mul(p, &d, &s, &M.e[0]) == 0 && ml__alg_px_mul(p, &q, &t, &M.e[1]) == 0);
        CHECK(ml__alg_px_add(p, &d, &q) == 0);
        ml__alg_px_neg(p, &d);
        CHECK(ml__alg_px_add(p, &d, &g) == 0 && ml__alg_px_deg(p, &d) < 0, "s a + t b = g");
        CHECK(ml__pm_exact_div(p, &q, &M.e[0], &g) == 0 && ml__pm_exact_div(p, &q, &M.e[1], &g) == 0);
        if (ml__alg_px_deg(p, &g) > 0) {   /* g + 1 divides neither... unless g + 1 | a */
            uint8_t c1 = 1;
            CHECK(ml__alg_px_set(p, &t, &c1, 1) == 0 && ml__alg_px_add(p, &t, &g) == 0);
            CHECK(ml__alg_px_divrem(p, NULL, &s, &g, &t) == 0);
            CHECK(ml__pm_exact_div(p, &q, &g, &t) == (ml__alg_px_deg(p, &s) >= 0 ? 4 : 0));
        }
    }
    /* the diagonal form */
    CHECK(ml__pm_diagonalise(p, w, &f, &M, &L, &V) == 0, "diagonalise p=%u w=%zu", p, w);
    CHECK(ml__alg_px_deg(p, &M.e[1]) < 0 && ml__alg_px_deg(p, &M.e[2]) < 0, "diagonal");
    CHECK(ml__pm_mul(p, &T, &L, &M0, &f) == 0 && ml__pm_mul(p, &T, &T, &V, &f) == 0);
    unsigned dw[4][16];
    for (int i = 0; i < 4; i++)
        fold(p, &M.e[i], w, dw[i]);
    CHECK(same(p, w, &T, dw), "L M V = D (p=%u w=%zu shape %d)", p, w, shape);
    det(p, &L, &f, &d);
    CHECK(unit(p, &d, &f), "det L a unit");
    det(p, &V, &f, &d);
    CHECK(unit(p, &d, &f), "det V a unit");
    ml__pm_clear(&M);
    ml__pm_clear(&M0);
    ml__pm_clear(&L);
    ml__pm_clear(&V);
    ml__pm_clear(&T);
    ml__alg_px_clear(&f);
    ml__alg_px_clear(&d);
    ml__alg_px_clear(&g);
    ml__alg_px_clear(&s);
    ml__alg_px_clear(&t);
    ml__alg_px_clear(&q);
}

int main(void)
{
    for (int it = 0; it < 3000; it++)
        one(PS[rnd() % 4], (size_t)rnd_range(1, 12));
    return t_done();
}
