/* t-coset: csrc/search/coset.c (the least-length element of x0 + ker A by a Gray-code walk,
 * threads and sub-cube pruning) against plain enumeration of every element, GF(2) and
 * Z/n, one and several threads; with a budget the answer must still be an element of the
 * coset, and `complete` may say 1 only when it is the least; and test_paths' cases (the
 * chunked walk, wide vectors, Z/255, ties across threads, both SIMD paths). Exit status
 * 0 when every check holds (prints fails=N).
 * ml-test-sources: search/coset.c search/coset_gf2.c search/coset_zn.c base/interrupt.c */
#define _POSIX_C_SOURCE 200809L
#include "search/coset.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x9E3779B97F4A7C15ull
#include "t-util.h"

static int popcount_words(const uint64_t *v, size_t nw)
{
    int s = 0;
    for (size_t i = 0; i < nw; i++)
        s += __builtin_popcountll(v[i]);
    return s;
}

/* 1 when v = x0 + (some combination of basis rows), by enumerating every combination */
static int64_t brute_gf2(const uint64_t *x0, const uint64_t *B, size_t k, size_t nw,
                         const uint64_t *v, int *member)
{
    int64_t best = -1;
    uint64_t *e = malloc(nw * sizeof(uint64_t));
    *member = 0;
    for (uint64_t c = 0; c < (1ull << k); c++) {
        memcpy(e, x0, nw * sizeof(uint64_t));
        for (size_t i = 0; i < k; i++)
            if (c >> i & 1)
                for (size_t w = 0; w < nw; w++)
                    e[w] ^= B[i * nw + w];
        int len = popcount_words(e, nw);
        if (best < 0 || len < best)
            best = len;
        if (!memcmp(e, v, nw * sizeof(uint64_t)))
            *member = 1;
    }
    free(e);
    return best;
}

static int64_t brute_zn(const uint8_t *x0, const uint8_t *G, const uint32_t *ord, size_t k,
                        size_t r, unsigned n, const uint8_t *v, int *member)
{
    int64_t best = -1;
    uint32_t c[8] = {0};
    *member = 0;
    for (;;) {
        int64_t len = 0;
        int same = 1;
        for (size_t j = 0; j < r; j++) {
            unsigned e = x0[j];
            for (size_t i = 0; i < k; i++)
                e = (e + c[i] * G[i * r + j]) % n;
            len += e;
            same &= e == v[j];
        }
        if (best < 0 || len < best)
            best = len;
        *member |= same;
        size_t i = 0;                                   /* next combination */
        while (i < k && ++c[i] == ord[i])
            c[i++] = 0;
        if (i == k)
            break;
    }
    return best;
}

/* Least weight over x0 + span(B) by a Gray-code walk (one XOR a step), and whether v is
 * an element: the oracle for k = 20. */
static int64_t gray_gf2(const uint64_t *x0, const uint64_t *B, size_t k, size_t nw,
                        const uint64_t *v, int *member)
{
    uint64_t *e = malloc(nw * sizeof(uint64_t));
    memcpy(e, x0, nw * sizeof(uint64_t));
    int64_t best = popcount_words(e, nw);
    *member = !memcmp(e, v, nw * sizeof(uint64_t));
    for (uint64_t c = 1; c < (1ull << k); c++) {
        size_t i = (size_t)__builtin_ctzll(c);
        for (size_t w = 0; w < nw; w++)
            e[w] ^= B[i * nw + w];
        int64_t len = popcount_words(e, nw);
        if (len < best)
            best = len;
        *member |= !memcmp(e, v, nw * sizeof(uint64_t));
    }
    free(e);
    return best;
}

/* The paths the random trials do not reach, on the AVX2 walk (where the CPU has it) and
 * on MODLIGHTS_SIMD=portable (the walks read it on every call): k = 20 > 18, the chunked
 * multi-threaded walk with the sub-cube bound (examined + pruned = 2^k); 9000 taps, more
 * than 31 AVX2 vectors (the walk counts in several blocks); Z/255 with r up to 150;
 * short vectors, so many elements tie: 2, 3 and 4 threads return the element one thread
 * returns (the first of the lowest chunk), GF(2) k = 20 and Z/3 k = 11. */
static void test_paths(void)
{
    for (int portable = 0; portable < 2; portable++) {
        if (portable)
            setenv("MODLIGHTS_SIMD", "portable", 1);
        else
            unsetenv("MODLIGHTS_SIMD");
        ml_coset_stats st;
        int member;
        {                                               /* chunked: k = 20, 90 taps */
            enum { K = 20, NW = 2 };
            uint64_t x0[NW], B[K * NW], best[NW];
            for (size_t w = 0; w < NW; w++) {
                uint64_t mask = w ? (1ull << 26) - 1 : ~0ull;
                x0[w] = rnd() & mask;
                for (size_t i = 0; i < K; i++)
                    B[i * NW + w] = rnd() & rnd() & rnd() & mask;
            }
            for (int threads = 1; threads <= 2; threads++) {
                int64_t got = ml_coset_min_gf2(x0, B, K, NW, 0, 0.0, threads, best, &st);
                int64_t want = gray_gf2(x0, B, K, NW, best, &member);
                CHECK(got == want && member && popcount_words(best, NW) == got &&
                          st.complete && st.examined + st.pruned == 1ull << K,
                      "chunked portable=%d threads=%d: got %lld want %lld member %d "
                      "examined+pruned %llu", portable, threads, (long long)got,
                      (long long)want, member,
                      (unsigned long long)(st.examined + st.pruned));
            }
        }
        {                                               /* wide: 9000 taps, k = 10 */
            enum { K = 10, NW = 141 };
            uint64_t *x0 = malloc(NW * 8), *B = malloc(K * NW * 8), *best = malloc(NW * 8);
            for (size_t w = 0; w < NW; w++) {
                uint64_t mask = w + 1 < NW ? ~0ull : (1ull << 40) - 1;
                x0[w] = rnd() & mask;
                for (size_t i = 0; i < K; i++)
                    B[i * NW + w] = rnd() & mask;
            }
            int64_t got = ml_coset_min_gf2(x0, B, K, NW, 0, 0.0, 2, best, &st);
            int64_t want = brute_gf2(x0, B, K, NW, best, &member);
            CHECK(got == want && member && popcount_words(best, NW) == got && st.complete,
                  "wide portable=%d: got %lld want %lld member %d", portable,
                  (long long)got, (long long)want, member);
            free(x0); free(B); free(best);
        }
        for (int trial = 0; trial < 10; trial++) {      /* Z/255, r up to 150 */
            static const uint32_t divs[] = {3, 5, 15, 17};
            size_t r = 1 + rnd() % 150, k = rnd() % 4;
            uint8_t *x0 = malloc(r), *G = malloc((k + 1) * r), *best = malloc(r);
            uint32_t ord[4];
            for (size_t j = 0; j < r; j++)
                x0[j] = (uint8_t)(rnd() % 255);
            for (size_t i = 0; i < k; i++) {
                unsigned o = divs[rnd() % 4];
                ord[i] = o;
                for (size_t j = 0; j < r; j++)
                    G[i * r + j] = (uint8_t)((rnd() % o) * (255 / o) * (rnd() % 2));
                G[i * r + rnd() % r] = (uint8_t)(255 / o);
            }
            int64_t got = ml_coset_min_zn(x0, G, ord, k, r, 255, 0, 0.0, 1 + trial % 3,
                                          best, &st);
            int64_t want = brute_zn(x0, G, ord, k, r, 255, best, &member), len = 0;
            for (size_t j = 0; j < r; j++)
                len += best[j];
            CHECK(got == want && member && len == got && st.complete,
                  "z255 portable=%d k=%zu r=%zu: got %lld want %lld member %d", portable, k,
                  r, (long long)got, (long long)want, member);
            free(x0); free(G); free(best);
        }
    }
    unsetenv("MODLIGHTS_SIMD");
    for (int t = 0; t < 12; t++) {                      /* ties: the same element */
        ml_coset_stats st;
        if (t % 2 == 0) {
            enum { K = 20 };
            uint64_t x0 = rnd() & 0xFFFFF, B[K], one, many;
            for (size_t i = 0; i < K; i++)
                B[i] = rnd() & 0xFFFFF;
            int64_t l1 = ml_coset_min_gf2(&x0, B, K, 1, 0, 0.0, 1, &one, &st);
            for (int threads = 2; threads <= 4; threads++) {
                int64_t l = ml_coset_min_gf2(&x0, B, K, 1, 0, 0.0, threads, &many, &st);
                CHECK(l == l1 && many == one, "ties gf2 t=%d threads=%d", t, threads);
            }
        } else {
            enum { K = 11, R = 14 };
            uint8_t x0[R], G[K * R], one[R], many[R];
            uint32_t ord[K];
            for (size_t j = 0; j < R; j++)
                x0[j] = (uint8_t)(rnd() % 3);
            for (size_t i = 0; i < K; i++) {
                ord[i] = 3;
                for (size_t j = 0; j < R; j++)
                    G[i * R + j] = (uint8_t)(rnd() % 3);
            }
            int64_t l1 = ml_coset_min_zn(x0, G, ord, K, R, 3, 0, 0.0, 1, one, &st);
            for (int threads = 2; threads <= 4; threads++) {
                int64_t l = ml_coset_min_zn(x0, G, ord, K, R, 3, 0, 0.0, threads, many, &st);
                CHECK(l == l1 && !memcmp(one, many, R), "ties z3 t=%d threads=%d", t,
                      threads);
            }
        }
    }
}

int main(void)
{
    test_paths();
    for (int trial = 0; trial < 120; trial++) {          /* GF(2) */
        size_t nw = 1 + rnd() % 3, k = rnd() % 11;
        uint64_t *x0 = malloc(nw * 8), *B = malloc((k + 1) * nw * 8), *best = malloc(nw * 8);
        size_t bits = 64 * (nw - 1) + 1 + rnd() % 64;    /* the last word partly used */
        for (size_t w = 0; w < nw; w++) {
            uint64_t mask = (64 * (w + 1) <= bits) ? ~0ull : ((1ull << (bits % 64)) - 1);
            x0[w] = rnd() & mask;
            for (size_t i = 0; i < k; i++)
                B[i * nw + w] = rnd() & rnd() & mask;
        }
        int threads = 1 + (int)(rnd() % 3);
        ml_coset_stats st;
        int64_t got = ml_coset_min_gf2(x0, B, k, nw, 0, 0.0, threads, best, &st);
        int member;
        int64_t want = brute_gf2(x0, B, k, nw, best, &member);
        if (got != want || !member || popcount_words(best, nw) != got || !st.complete) {
            fails++;
            printf("gf2 k=%zu nw=%zu threads=%d: got %lld want %lld member %d\n", k, nw,
                   threads, (long long)got, (long long)want, member);
        }
        if (k >= 4) {                                    /* a budget: a member, not proved */
            got = ml_coset_min_gf2(x0, B, k, nw, 3, 0.0, 1, best, &st);
            brute_gf2(x0, B, k, nw, best, &member);
            if (!member || got < want || popcount_words(best, nw) != got ||
                (st.complete && got != want)) {
                fails++;
                printf("gf2 budget k=%zu: got %lld member %d complete %d\n", k,
                       (long long)got, member, st.complete);
            }
        }
        free(x0); free(B); free(best);
    }
    for (int trial = 0; trial < 120; trial++) {          /* Z/n */
        unsigned n = 2 + (unsigned)(rnd() % 11);
        size_t r = 1 + rnd() % 12, k = rnd() % 4;
        uint8_t *x0 = malloc(r), *G = malloc((k + 1) * r), *best = malloc(r);
        uint32_t ord[8];
        for (size_t j = 0; j < r; j++)
            x0[j] = (uint8_t)(rnd() % n);
        for (size_t i = 0; i < k; i++) {
            /* generator of order o dividing n: multiples of n / o */
            unsigned o;
            do o = 2 + (unsigned)(rnd() % (n - 1)); while (n % o);
            ord[i] = o;
            for (size_t j = 0; j < r; j++)
                G[i * r + j] = (uint8_t)((rnd() % o) * (n / o));
            G[i * r + rnd() % r] = (uint8_t)(n / o);     /* order exactly o */
        }
        int threads = 1 + (int)(rnd() % 3);
        ml_coset_stats st;
        int64_t got = ml_coset_min_zn(x0, G, ord, k, r, n, 0, 0.0, threads, best, &st);
        int member;
        int64_t want = brute_zn(x0, G, ord, k, r, n, best, &member);
        int64_t len = 0;
        for (size_t j = 0; j < r; j++)
            len += best[j];
        if (got != want || !member || len != got || !st.complete) {
            fails++;
            printf("zn n=%u k=%zu r=%zu: got %lld want %lld member %d\n", n, k, r,
                   (long long)got, (long long)want, member);
        }
        free(x0); free(G); free(best);
    }
    return t_done();
}
