/* t-canon: csrc/search/canon.c (canonical generators of a submodule of (Z/n)^L and
 * canonical coset representatives) against enumeration: on random small modules over
 * n in {2..9, 12, 16, 27, 30, 36, 128, 210, 255} the generators span exactly the module
 * (every element listed) with the product of their orders equal to its size (a direct
 * sum), another generating set of the same module (combinations and repeats, shuffled)
 * gives the same generators, and every element of a coset reduces to one vector in it.
 * Also k = 0 and wide rows. Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: search/canon.c base/interrupt.c */
#include "search/canon.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x5EEDC0DEull
#include "t-util.h"

enum { MAXL = 6, MAXSET = 40000 };

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every element of span(G) with coefficients 0..ord[i]-1 (rows of L bytes, codes as
 * base-n numbers), sorted and unique; returns the count (or -1 past MAXSET). */
static long span_codes(const uint8_t *G, const uint32_t *ord, size_t k, size_t L, unsigned n,
                       uint64_t *out)
{
    uint64_t total = 1;
    for (size_t i = 0; i < k; i++) {
        total *= ord[i];
        if (total > MAXSET) return -1;
    }
    long m = 0;
    uint32_t c[16] = {0};
    for (uint64_t t = 0; t < total; t++) {
        uint64_t code = 0;
        for (size_t j = L; j-- > 0;) {
            unsigned v = 0;
            for (size_t i = 0; i < k; i++) v += c[i] * G[i * L + j];
            code = code * n + v % n;
        }
        out[m++] = code;
        for (size_t i = 0; i < k; i++) {          /* next coefficient vector */
            if (++c[i] < ord[i]) break;
            c[i] = 0;
        }
    }
    qsort(out, (size_t)m, sizeof *out, cmp_u64);
    long u = 0;
    for (long i = 0; i < m; i++)
        if (!u || out[u - 1] != out[i]) out[u++] = out[i];
    return u;
}

static unsigned ipow(unsigned n, size_t k)
{
    unsigned r = 1;
    while (k--) r *= n;
    return r;
}

static void one_case(unsigned n)
{
    size_t L = 1 + rnd() % MAXL, k = rnd() % 5;
    while (k && ipow(n, k) > 20000) k--;
    uint8_t G[5 * MAXL], H[5 * MAXL], G2[12 * MAXL];
    uint32_t ord[5], ord2[12], full[12];
    unsigned d = 1;
    if (rnd() % 2) {                              /* torsion: a divisor times the rows */
        unsigned divs[64], nd = 0;
        for (unsigned t = 1; t < n; t++)
            if (n % t == 0) divs[nd++] = t;
        d = divs[rnd() % nd];
    }
    for (size_t i = 0; i < k * L; i++) G[i] = (uint8_t)((rnd() % n) * d % n);
    size_t r = ml_canon_basis(G, k, L, n, H, ord);
    CHECK(r <= k, "n=%u: %zu generators from %zu rows", n, r, k);
    if (r > k) return;
    static uint64_t A[MAXSET], B[MAXSET];
    for (size_t i = 0; i < k; i++) full[i] = n;
    long sa = span_codes(G, full, k, L, n, A), sb = span_codes(H, ord, r, L, n, B);
    uint64_t prod = 1;
    for (size_t i = 0; i < r; i++) {
        CHECK(ord[i] >= 2 && n % ord[i] == 0, "n=%u: order %u", n, ord[i]);
        prod *= ord[i];
        for (unsigned m = 1; m <= ord[i]; m++) {  /* ord[i] is h_i's additive order */
            int zero = 1;
            for (size_t j = 0; j < L; j++) zero &= (m * H[i * L + j]) % n == 0;
            CHECK(zero == (m == ord[i]), "n=%u: generator %zu has order != %u", n, i, ord[i]);
        }
    }
    CHECK(sa >= 0 && sa == sb && (uint64_t)sa == prod && !memcmp(A, B, (size_t)sa * 8),
          "n=%u k=%zu L=%zu: span differs (%ld / %ld elements, orders' product %llu)",
          n, k, L, sa, sb, (unsigned long long)prod);
    /* another generating set: combinations of the rows, then the rows, shuffled */
    size_t k2 = k ? 2 * k + 2 : 0;
    for (size_t i = 0; i < k2; i++) {
        uint8_t *row = G2 + i * L;
        if (i < k + 2) {
            unsigned c[5];
            for (size_t t = 0; t < k; t++) c[t] = (unsigned)(rnd() % n);
            for (size_t j = 0; j < L; j++) {
                unsigned v = 0;
                for (size_t t = 0; t < k; t++) v += c[t] * G[t * L + j];
                row[j] = (uint8_t)(v % n);
            }
        } else {
            memcpy(row, G + (i - k - 2) * L, L);
        }
    }
    for (size_t i = k2; i > 1; i--) {
        size_t j = rnd() % i;
        uint8_t tmp[MAXL];
        memcpy(tmp, G2 + (i - 1) * L, L);
        memcpy(G2 + (i - 1) * L, G2 + j * L, L);
        memcpy(G2 + j * L, tmp, L);
    }
    uint8_t H2big[12 * MAXL];
    size_t r2 = ml_canon_basis(G2, k2, L, n, H2big, ord2);
    CHECK(r2 == r && !memcmp(H, H2big, r * L) && !memcmp(ord, ord2, r * sizeof(uint32_t)),
          "n=%u k=%zu L=%zu: another generating set gives other generators", n, k, L);
    /* cosets: x and x + (a combination of G) reduce to one vector, in the coset */
    uint8_t x[MAXL], y[MAXL];
    for (size_t j = 0; j < L; j++) x[j] = (uint8_t)(rnd() % n);
    unsigned cy[5];
    for (size_t t = 0; t < k; t++) cy[t] = (unsigned)(rnd() % n);
    for (size_t j = 0; j < L; j++) {
        unsigned v = x[j];
        for (size_t t = 0; t < k; t++) v += cy[t] * G[t * L + j];
        y[j] = (uint8_t)(v % n);
    }
    uint8_t x0[MAXL];
    memcpy(x0, x, L);
    CHECK(ml_canon_reduce(H, r, L, n, x, 1) == 0, "reduce failed");
    CHECK(ml_canon_reduce(H, r, L, n, y, 1) == 0, "reduce failed");
    CHECK(!memcmp(x, y, L), "n=%u k=%zu L=%zu: one coset, two representatives", n, k, L);
    if (sa > 0) {                                 /* x - x0 is in the module */
        uint64_t code = 0;
        for (size_t j = L; j-- > 0;) code = code * n + (x[j] + n - x0[j]) % n;
        int found = 0;
        for (long i = 0; i < sa; i++) found |= A[i] == code;
        CHECK(found, "n=%u: the representative left the coset", n);
    }
}

int main(void)
{
    static const unsigned moduli[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 27, 30, 36, 128, 210, 255};
    for (size_t m = 0; m < sizeof moduli / sizeof *moduli; m++)
        for (int t = 0; t < 100; t++) one_case(moduli[m]);
    /* no generators; zero rows; a wide GF(2) and Z/6 module with a known rank */
    uint8_t z[8] = {0}, out[8];
    uint32_t o[2];
    CHECK(ml_canon_basis(z, 0, 8, 2, out, o) == 0, "k = 0");
    CHECK(ml_canon_basis(z, 1, 8, 6, out, o) == 0, "a zero row");
    const size_t W = 1000, K = 70;
    uint8_t *G = malloc(K * W), *H = malloc(K * W);
    uint32_t *ord = malloc(K * sizeof(uint32_t));
    for (unsigned n = 2; n <= 6; n += 4) {
        for (size_t i = 0; i < K * W; i++) G[i] = (uint8_t)(rnd() % n);
        for (size_t j = 0; j < W; j++) G[69 * W + j] = (uint8_t)((G[j] + G[W + j]) % n);
        size_t r = ml_canon_basis(G, K, W, n, H, ord);
        CHECK(r == 69, "wide n=%u: %zu generators, expected 69", n, r);
        int all = 1;
        for (size_t i = 0; i < r; i++) all &= ord[i] == n;
        CHECK(all, "wide n=%u: orders", n);
    }
    free(G); free(H); free(ord);
    return t_done();
}
