/* t-engines-band: the 1-D band factor (engines/band.c) against the dense matrix
 * F[i, j] = sum of the counts c(d) with i - j = d (mod the side on a torus), mod n, on
 * random bands (offsets -4..4, counts 0..2n, sides 1..24, n prime, prime power and
 * composite, tori and not):
 *   G is a generalised inverse (F G F = F: apply_ginv to F's own columns, all solvable),
 *   random right-hand sides solvable (ok) exactly when F G b = b, and over a prime
 *   exactly when rank [F | b] = rank F; the nullity over a prime is L - rank F; the
 *   kernel basis lies in ker F, has that rank and is the identity on its pivots; det F
 *   as the dense determinant (Smith forms of F, engines/smith.c, per prime power, CRT);
 *   a ring factor (n = p^k, singular mod p) has no G (ML_EINVAL); a zero band is refused.
 * (tests/native/test_capi_tensor.py compares the engine built on it with Python's.)
 * A stop requested before a chase (base/interrupt.h) makes apply_ginv return ML_EINTERRUPTED.
 * ml-test-sources: engines/band.c engines/smith.c structured/band.c api/errors.c base/interrupt.c */
#define ML_T_SEED 0xBA4DFAC7ull
#include "include/modlights.h"
#include "engines/band.h"
#include "base/interrupt.h"
#include "base/modn.h"
#include "tests/t-util.h"

#include <stdlib.h>
#include <string.h>

static int n_refused, n_ring, n_singular, n_reversed;
static const unsigned NS[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 25, 27, 101, 255};

static int is_prime(unsigned n)
{
    for (unsigned d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return n >= 2;
}

/* y = F x (x, y columns of L entries) */
static void mul(const uint8_t *F, int64_t L, unsigned n, const uint8_t *x, uint8_t *y)
{
    for (int64_t i = 0; i < L; i++) {
        unsigned v = 0;
        for (int64_t j = 0; j < L; j++)
            v = (v + F[i * L + j] * (unsigned)x[j]) % n;
        y[i] = (uint8_t)v;
    }
}

static unsigned dense_det(const uint8_t *F, int64_t L, unsigned n)
{
    unsigned q[4], p[4], e[4], idem[4];
    int np = ml_prime_powers(n, q, p, e, idem);
    uint64_t *A = malloc((size_t)(L * L) * sizeof *A);
    for (int64_t i = 0; i < L * L; i++)
        A[i] = F[i];
    uint64_t d = 0;
    for (int i = 0; i < np; i++) {
        ml__smith sm;
        uint64_t di = 0;
        CHECK(!ml__smith_init(&sm, A, (int)L, (int)L, p[i], (int)e[i]));
        CHECK(!ml__smith_det(&sm, &di));
        ml__smith_free(&sm);
        d = (d + di * idem[i]) % n;
    }
    free(A);
    return (unsigned)d;
}

static void one(int64_t L, unsigned n, int wrap, size_t m, const int64_t *d, const int64_t *c)
{
    ml__band f;
    char why[512];
    int rc = ml__band_init(&f, d, c, m, L, n, wrap, why, sizeof why);
    CHECK(rc == 0 || rc == 1, "rc=%d", rc);
    if (rc) {
        n_refused++;
        return;
    }
    n_ring += f.ring;
    n_singular += f.nullity > 0 && !f.ring;
    n_reversed += f.reversed;
    uint8_t *F = calloc((size_t)(L * L), 1);
    for (int64_t i = 0; i < L; i++)
        for (int64_t j = 0; j < L; j++)
            for (size_t q = 0; q < m; q++) {
                int64_t off = i - j;
                int hit = wrap ? ((off - d[q]) % L == 0) : off == d[q];
                if (hit)
                    F[i * L + j] = (uint8_t)((F[i * L + j] + c[q]) % n);
            }
    unsigned det = 0;
    CHECK(!ml__band_det(&f, &det));
    CHECK(det == dense_det(F, L, n), "det %u vs %u L=%lld n=%u wrap=%d", det,
          dense_det(F, L, n), (long long)L, n, wrap);
    size_t k = (size_t)L + 5;
    uint8_t *B = malloc((size_t)L * k), *Y = malloc((size_t)L * k), *ok = malloc(k);
    uint8_t *x = malloc((size_t)L), *y = malloc((size_t)L), *b = malloc((size_t)L);
    int all = 0;
    if (f.ring) {
        CHECK(ml__band_apply_ginv(&f, B, (ptrdiff_t)k, k, Y, (ptrdiff_t)k, ok, &all) ==
              ML_EINVAL);
        goto done;
    }
    for (int64_t i = 0; i < L; i++)
        for (size_t j = 0; j < k; j++)
            B[i * (ptrdiff_t)k + (ptrdiff_t)j] =
                j < (size_t)L ? F[i * L + (int64_t)j] : (uint8_t)(rnd() % n);
    CHECK(!ml__band_apply_ginv(&f, B, (ptrdiff_t)k, k, Y, (ptrdiff_t)k, ok, &all));
    size_t rk = 0;
    if (is_prime(n)) {
        uint8_t *Fc = malloc((size_t)(L * L));
        memcpy(Fc, F, (size_t)(L * L));
        rk = rank_p(Fc, (size_t)L, (size_t)L, n);
        free(Fc);
        CHECK((int64_t)rk == L - f.nullity, "nullity %d rank %zu L %lld", f.nullity, rk,
              (long long)L);
    }
    int every = 1;
    for (size_t j = 0; j < k; j++) {
        for (int64_t i = 0; i < L; i++) {
            x[i] = Y[i * (ptrdiff_t)k + (ptrdiff_t)j];
            b[i] = B[i * (ptrdiff_t)k + (ptrdiff_t)j];
        }
        mul(F, L, n, x, y);
        int solved = !memcmp(y, b, (size_t)L);
        CHECK(ok[j] == solved, "ok %d solved %d col %zu L=%lld n=%u", ok[j], solved, j,
              (long long)L, n);
        if (j < (size_t)L)
            CHECK(solved, "F G F != F at column %zu (L=%lld n=%u wrap=%d)", j, (long long)L, n,
                  wrap);
        if (is_prime(n) && j >= (size_t)L) {
            uint8_t *Fb = malloc((size_t)(L * (L + 1)));
            for (int64_t i = 0; i < L; i++) {
                memcpy(Fb + i * (L + 1), F + i * L, (size_t)L);
                Fb[i * (L + 1) + L] = b[i];
            }
            CHECK(ok[j] == (rank_p(Fb, (size_t)L, (size_t)L + 1, n) == rk));
            free(Fb);
        }
        every &= solved;
    }
    CHECK(all == every);
    if (is_prime(n) && f.nullity) {
        size_t g = (size_t)f.nullity;
        uint8_t *U = malloc(g * (size_t)L);
        int64_t *pos = malloc(g * sizeof *pos);
        CHECK(!ml__band_kernel_basis(&f, U, pos));
        for (size_t a = 0; a < g; a++) {
            mul(F, L, n, U + a * (size_t)L, y);
            for (int64_t i = 0; i < L; i++)
                CHECK(!y[i], "kernel row %zu not in ker F", a);
            for (size_t a2 = 0; a2 < g; a2++)
                CHECK(U[a2 * (size_t)L + (size_t)pos[a]] == (a == a2), "pivot");
        }
        CHECK(rank_p(U, g, (size_t)L, n) == g);
        free(U);
        free(pos);
    }
done:
    free(F);
    free(B);
    free(Y);
    free(ok);
    free(x);
    free(y);
    free(b);
    ml__band_free(&f);
}

int main(void)
{
    int runs = 0;
    for (int it = 0; it < 3000; it++) {
        unsigned n = NS[rnd() % (sizeof NS / sizeof *NS)];
        int64_t L = rnd_range(1, 24);
        int wrap = (int)(rnd() & 1);
        size_t m = (size_t)rnd_range(1, 4);
        int64_t d[4], c[4];
        for (size_t q = 0; q < m; q++) {
            int dup;
            do {
                d[q] = rnd_range(-4, 4);
                dup = 0;
                for (size_t r = 0; r < q; r++)
                    dup |= d[r] == d[q];
            } while (dup);
            c[q] = rnd_range(0, 2 * (int64_t)n);
        }
        one(L, n, wrap, m, d, c);
        runs++;
    }
    /* the square pattern's factor I + P over GF(2), on sides around 64 and a large one */
    int64_t d3[3] = {-1, 0, 1}, c3[3] = {1, 1, 1};
    for (int64_t L = 60; L < 70; L++)
        for (int wrap = 0; wrap < 2; wrap++)
            one(L, 2, wrap, 3, d3, c3);
    /* refusals: a zero band; more than 64 symbols */
    ml__band f;
    char why[512];
    int64_t dz[1] = {0}, cz[1] = {6};
    CHECK(ml__band_init(&f, dz, cz, 1, 5, 3, 0, why, sizeof why) == 1);
    CHECK(strstr(why, "multiples of n = 3") != NULL, "%s", why);
    int64_t dw[2] = {-70, 0}, cw[2] = {1, 1};
    CHECK(ml__band_init(&f, dw, cw, 2, 100, 2, 0, why, sizeof why) == 1);
    CHECK(strstr(why, "needs 70 symbols") != NULL, "%s", why);
    {   /* a stop requested: the chase returns ML_EINTERRUPTED, then works again */
        int64_t d2[2] = {-1, 0}, c2[2] = {1, 1};
        uint8_t B[6] = {1, 0, 1, 1, 0, 1}, Y[6], ok[1];
        int all = 0;
        CHECK(!ml__band_init(&f, d2, c2, 2, 6, 3, 0, why, sizeof why));
        ml_interrupt_request();
        CHECK(ml__band_apply_ginv(&f, B, 1, 1, Y, 1, ok, &all) == ML_EINTERRUPTED);
        CHECK(ml_interrupt_take());
        CHECK(!ml__band_apply_ginv(&f, B, 1, 1, Y, 1, ok, &all) && all);
        ml__band_free(&f);
    }
    printf("runs=%d refused=%d ring=%d singular=%d reversed=%d\n", runs, n_refused, n_ring,
           n_singular, n_reversed);
    CHECK(n_ring > 50 && n_singular > 100 && n_reversed > 100);
    return t_done();
}
