/* t-coset_batch: csrc/search/coset_batch.c (the least-length element of many cosets
 * x_b + ker A, and of one sub-cube of a coset) against plain enumeration of every
 * element in the test:
 *   - batch GF(2): random bases (k up to 12: the table path; k = 21: the Gray-code
 *     path of coset.c), r bits with garbage above bit r in X0 (ignored), row strides,
 *     boards over several grabs (m > 256), 1, 2 and 3 threads: len[i] the brute-force
 *     minimum, best[i] of that weight and in row i's coset, the same on every thread
 *     count; k > 62 refused (-1);
 *   - batch Z/n: n in 2..9, 12, 128, 129, 251, 255, generators of orders dividing n,
 *     table path (AVX2 and MODLIGHTS_SIMD=portable agree) and the Gray-code path;
 *     orders < 2 and overflowing products refused;
 *   - sub-cubes: every corner of small cosets (GF(2) and Z/n): below the bound the
 *     sub-cube's brute-force minimum and a member of it, else the bound and best
 *     untouched; the least over every corner is the coset's minimum; bound 0 prunes
 *     everything; L > k refused;
 *   - the stop flag: a stop requested before the call (process-wide, or a scope's
 *     context flag) leaves every board unwritten on both paths, and the flag is taken.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: search/coset_batch.c search/coset.c search/coset_gf2.c search/coset_zn.c base/interrupt.c */
#define _POSIX_C_SOURCE 200809L
#include "search/coset_batch.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ML_T_SEED 0xC05E7BA7C4ull
#include "t-util.h"

enum { MAXW = 4 };

/* ------------------------------------------------------------------ GF(2) oracle */
static int weight(const uint64_t *v, size_t nw)
{
    int s = 0;
    for (size_t q = 0; q < nw; q++) s += __builtin_popcountll(v[q]);
    return s;
}

/* the least weight of x0 + span(basis[0..k)), every combination in Gray-code order */
static int64_t brute_min_gf2(const uint64_t *x0, const uint64_t *basis, size_t k, size_t nw)
{
    uint64_t cur[MAXW];
    memcpy(cur, x0, nw * 8);
    int64_t best = weight(cur, nw);
    for (uint64_t c = 1; c < (1ull << k); c++) {
        const uint64_t *b = basis + (size_t)__builtin_ctzll(c) * nw;
        for (size_t q = 0; q < nw; q++) cur[q] ^= b[q];
        int w = weight(cur, nw);
        if (w < best) best = w;
    }
    return best;
}

/* 1 when v - x0 is in span(basis) (elimination on copies) */
static int member_gf2(const uint64_t *x0, const uint64_t *basis, size_t k, size_t nw,
                      const uint64_t *v)
{
    uint64_t B[64][MAXW], d[MAXW];
    for (size_t i = 0; i < k; i++) memcpy(B[i], basis + i * nw, nw * 8);
    for (size_t q = 0; q < nw; q++) d[q] = v[q] ^ x0[q];
    size_t rank = 0;
    for (size_t bit = 0; bit < 64 * nw && rank < k; bit++) {
        size_t q = bit / 64;
        uint64_t m = 1ull << (bit % 64);
        size_t p = rank;
        while (p < k && !(B[p][q] & m)) p++;
        if (p == k) continue;
        uint64_t t[MAXW];
        memcpy(t, B[p], sizeof t);
        memcpy(B[p], B[rank], sizeof t);
        memcpy(B[rank], t, sizeof t);
        for (size_t i = 0; i < k; i++)
            if (i != rank && (B[i][q] & m))
                for (size_t w = 0; w < nw; w++) B[i][w] ^= B[rank][w];
        if (d[q] & m)
            for (size_t w = 0; w < nw; w++) d[w] ^= B[rank][w];
        rank++;
    }
    for (size_t q = 0; q < nw; q++)
        if (d[q]) return 0;
    return 1;
}

static void random_basis_gf2(uint64_t *basis, size_t k, size_t nw, size_t r)
{
    for (size_t i = 0; i < k; i++)
        for (size_t q = 0; q < nw; q++) {
            uint64_t mask = 64 * (q + 1) <= r ? ~0ull : (1ull << (r % 64)) - 1;
            /* sparse-ish rows so minima differ from the trivial ones */
            basis[i * nw + q] = rnd() & (rnd() | rnd()) & mask;
        }
}

static void test_batch_gf2(void)
{
    for (int trial = 0; trial < 40; trial++) {
        size_t nw = 1 + rnd() % 3, r = 64 * (nw - 1) + 1 + rnd() % 64;
        size_t k = trial % 20 == 9 ? 21 : rnd() % 13;
        size_t m = k == 21 ? 2 : (trial % 4 == 0 ? 300 + rnd() % 300 : 1 + rnd() % 40);
        size_t xs = nw + rnd() % 2, bs = nw + rnd() % 3;
        uint64_t *basis = malloc((k + 1) * nw * 8), *X0 = malloc(m * xs * 8);
        random_basis_gf2(basis, k, nw, r);
        for (size_t i = 0; i < m * xs; i++) X0[i] = rnd();   /* bits r.. are garbage */
        int64_t *len[3];
        uint64_t *best[3];
        for (int t = 0; t < 3; t++) {
            len[t] = malloc(m * sizeof(int64_t));
            best[t] = malloc(m * bs * 8);
            for (size_t i = 0; i < m; i++) len[t][i] = -7;
            memset(best[t], 0xEE, m * bs * 8);
            int rc = ml_coset_min_gf2_many(X0, m, xs, r, basis, k, t + 1, len[t], best[t], bs);
            CHECK(rc == 0, "gf2 many: rc %d (k=%zu)", rc, k);
        }
        for (size_t i = 0; i < m; i++) {
            uint64_t x[MAXW];
            memcpy(x, X0 + i * xs, nw * 8);
            if (r % 64) x[nw - 1] &= (1ull << (r % 64)) - 1;
            /* the oracle for every board of small m, a sample of large ones */
            if (m <= 40 || i % 17 == 0) {
                int64_t want = brute_min_gf2(x, basis, k, nw);
                CHECK(len[0][i] == want, "gf2 k=%zu nw=%zu r=%zu board %zu: len %lld, want %lld",
                      k, nw, r, i, (long long)len[0][i], (long long)want);
            }
            const uint64_t *b = best[0] + i * bs;
            CHECK(weight(b, nw) == len[0][i], "gf2 board %zu: best has weight %d, len %lld", i,
                  weight(b, nw), (long long)len[0][i]);
            CHECK(member_gf2(x, basis, k, nw, b), "gf2 k=%zu board %zu: best is not in the coset",
                  k, i);
            for (int t = 1; t < 3; t++) {
                CHECK(len[t][i] == len[0][i], "gf2 board %zu: %d threads give len %lld, 1: %lld",
                      i, t + 1, (long long)len[t][i], (long long)len[0][i]);
                CHECK(!memcmp(best[t] + i * bs, b, nw * 8), "gf2 board %zu: %d threads, other best",
                      i, t + 1);
            }
        }
        /* best NULL: lengths only */
        int64_t *l2 = malloc(m * sizeof(int64_t));
        CHECK(ml_coset_min_gf2_many(X0, m, xs, r, basis, k, 2, l2, NULL, 0) == 0);
        CHECK(!memcmp(l2, len[0], m * sizeof(int64_t)), "gf2: lengths differ without best");
        free(l2);
        for (int t = 0; t < 3; t++) { free(len[t]); free(best[t]); }
        free(basis); free(X0);
    }
    /* r = 0: every length 0; k > 62 refused */
    uint64_t x = 0x1234, bz[63] = {0};
    int64_t l = -7;
    CHECK(ml_coset_min_gf2_many(&x, 1, 1, 0, bz, 2, 1, &l, NULL, 0) == 0 && l == 0,
          "r = 0: len %lld", (long long)l);
    CHECK(ml_coset_min_gf2_many(&x, 1, 1, 10, bz, 63, 1, &l, NULL, 0) == -1, "k = 63 taken");
}

/* ------------------------------------------------------------------ Z/n oracle */
/* the least length of x0 + sum c_i g_i, 0 <= c_i < ord_i (mixed-radix counter) */
static int64_t brute_min_zn(const uint8_t *x0, const uint8_t *G, const uint32_t *ord, size_t k,
                            size_t r, unsigned n)
{
    uint32_t c[32] = {0};
    uint8_t cur[64];
    memcpy(cur, x0, r);
    int64_t best = -1;
    for (;;) {
        int64_t s = 0;
        for (size_t j = 0; j < r; j++) s += cur[j];
        if (best < 0 || s < best) best = s;
        size_t i = 0;
        for (; i < k; i++) {
            for (size_t j = 0; j < r; j++) cur[j] = (uint8_t)((cur[j] + G[i * r + j]) % n);
            if (++c[i] < ord[i]) break;
            c[i] = 0;           /* ord_i g_i = 0: cur is back where it was in this digit */
        }
        if (i == k) break;
    }
    return best;
}

/* 1 when v is x0 + sum c_i g_i for some c (enumeration; small cosets only) */
static int member_zn(const uint8_t *x0, const uint8_t *G, const uint32_t *ord, size_t k,
                     size_t r, unsigned n, const uint8_t *v)
{
    uint32_t c[32] = {0};
    uint8_t cur[64];
    memcpy(cur, x0, r);
    for (;;) {
        if (!memcmp(cur, v, r)) return 1;
        size_t i = 0;
        for (; i < k; i++) {
            for (size_t j = 0; j < r; j++) cur[j] = (uint8_t)((cur[j] + G[i * r + j]) % n);
            if (++c[i] < ord[i]) break;
            c[i] = 0;
        }
        if (i == k) return 0;
    }
}

/* generator i of order exactly ord[i] (a divisor of n, >= 2) */
static void random_gens_zn(uint8_t *G, uint32_t *ord, size_t k, size_t r, unsigned n,
                           int prime_order)
{
    for (size_t i = 0; i < k; i++) {
        unsigned o;
        if (prime_order) o = n;
        else do o = 2 + (unsigned)(rnd() % (n - 1)); while (n % o);
        ord[i] = o;
        for (size_t j = 0; j < r; j++)
            G[i * r + j] = rnd() % 3 ? 0 : (uint8_t)((rnd() % o) * (n / o));
        G[i * r + rnd() % r] = (uint8_t)(n / o);
    }
}

static int64_t cosize(const uint32_t *ord, size_t k)
{
    int64_t c = 1;
    for (size_t i = 0; i < k; i++) c *= ord[i];
    return c;
}

static void test_batch_zn(void)
{
    static const unsigned ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 128, 129, 251, 255};
    for (int trial = 0; trial < 52; trial++) {
        unsigned n = ns[trial % 13];
        size_t r = 1 + rnd() % 40, k = rnd() % 5;
        int gray = trial == 1 || trial == 27;   /* n = 3, 3^13 > 2^20: the Gray-code path */
        if (n > 100) k = rnd() % 3;
        if (gray) { k = 13; r = 1 + rnd() % 6; }
        uint8_t *G = malloc((k + 1) * r);
        uint32_t ord[32];
        random_gens_zn(G, ord, k, r, n, gray);
        size_t m = gray ? 2 : (trial % 5 == 0 ? 260 + rnd() % 300 : 1 + rnd() % 30);
        size_t xs = r + rnd() % 3, bs = r + rnd() % 3;
        uint8_t *X0 = malloc(m * xs), *best = malloc(m * bs), *best2 = malloc(m * bs);
        for (size_t i = 0; i < m * xs; i++) X0[i] = (uint8_t)(rnd() % n);
        int64_t *len = malloc(m * 8), *len2 = malloc(m * 8);
        int threads = 1 + (int)(rnd() % 3);
        int rc = ml_coset_min_zn_many(X0, m, xs, G, ord, k, r, n, threads, len, best, bs);
        CHECK(rc == 0, "zn many n=%u k=%zu: rc %d", n, k, rc);
        /* the other SIMD path of the table walk (portable), another thread count */
        setenv("MODLIGHTS_SIMD", "portable", 1);
        rc = ml_coset_min_zn_many(X0, m, xs, G, ord, k, r, n, 4 - threads, len2, best2, bs);
        unsetenv("MODLIGHTS_SIMD");
        CHECK(rc == 0);
        int64_t size = cosize(ord, k);
        for (size_t i = 0; i < m; i++) {
            const uint8_t *x = X0 + i * xs, *b = best + i * bs;
            if (m <= 30 || i % 23 == 0) {
                int64_t want = brute_min_zn(x, G, ord, k, r, n);
                CHECK(len[i] == want, "zn n=%u k=%zu r=%zu board %zu: len %lld, want %lld", n, k,
                      r, i, (long long)len[i], (long long)want);
            }
            int64_t s = 0;
            for (size_t j = 0; j < r; j++) s += b[j];
            CHECK(s == len[i], "zn n=%u board %zu: best has length %lld, len %lld", n, i,
                  (long long)s, (long long)len[i]);
            if (size <= 4096)
                CHECK(member_zn(x, G, ord, k, r, n, b), "zn n=%u k=%zu board %zu: best not in coset",
                      n, k, i);
            CHECK(len2[i] == len[i] && !memcmp(best2 + i * bs, b, r),
                  "zn n=%u board %zu: portable / other threads differ", n, i);
        }
        free(G); free(X0); free(best); free(best2); free(len); free(len2);
    }
    /* refusals: an order < 2, a product of orders over 2^62 */
    uint8_t x[4] = {1, 2, 3, 0}, g[4 * 8] = {0};
    uint32_t bad[2] = {3, 1}, huge[8] = {255, 255, 255, 255, 255, 255, 255, 255};
    int64_t l = -7;
    CHECK(ml_coset_min_zn_many(x, 1, 4, g, bad, 2, 4, 9, 1, &l, NULL, 0) == -1, "order 1 taken");
    CHECK(ml_coset_min_zn_many(x, 1, 4, g, huge, 8, 4, 255, 1, &l, NULL, 0) == -1,
          "255^8 > 2^62 taken");
    CHECK(l == -7, "a refused call wrote len");
}

/* ------------------------------------------------------------------ sub-cubes */
static void test_sub_gf2(void)
{
    for (int trial = 0; trial < 60; trial++) {
        size_t nw = 1 + rnd() % 2, r = 64 * (nw - 1) + 1 + rnd() % 64, k = rnd() % 9;
        size_t L = rnd() % (k + 1);
        uint64_t basis[12 * MAXW], x0[MAXW];
        random_basis_gf2(basis, k, nw, r);
        for (size_t q = 0; q < nw; q++)
            x0[q] = rnd() & (64 * (q + 1) <= r ? ~0ull : (1ull << (r % 64)) - 1);
        int64_t global = brute_min_gf2(x0, basis, k, nw), least = INT64_MAX;
        for (uint64_t corner = 0; corner < (1ull << (k - L)); corner++) {
            /* the corner's start and the sub-cube's minimum, here */
            uint64_t c0[MAXW];
            memcpy(c0, x0, sizeof c0);
            for (size_t t = 0; L + t < k; t++)
                if (corner >> t & 1)
                    for (size_t q = 0; q < nw; q++) c0[q] ^= basis[(L + t) * nw + q];
            int64_t want = brute_min_gf2(c0, basis, L, nw);
            int64_t bound = trial % 3 == 0 ? INT64_MAX : (int64_t)rnd_range(0, 70);
            uint64_t best[MAXW];
            memset(best, 0xEE, sizeof best);
            ml_coset_stats st;
            int64_t got = ml_coset_sub_gf2(x0, basis, k, nw, L, corner, bound, best, &st);
            CHECK(st.complete == 1);
            if (want < bound) {
                CHECK(got == want, "sub gf2 k=%zu L=%zu corner %llu: %lld, want %lld", k, L,
                      (unsigned long long)corner, (long long)got, (long long)want);
                CHECK(weight(best, nw) == want && member_gf2(c0, basis, L, nw, best),
                      "sub gf2 k=%zu L=%zu: best is not a least element of the sub-cube", k, L);
            } else {
                CHECK(got == bound, "sub gf2: %lld, want the bound %lld", (long long)got,
                      (long long)bound);
                CHECK(best[0] == 0xEEEEEEEEEEEEEEEEull, "sub gf2: best written above the bound");
            }
            if (bound == INT64_MAX && got < least) least = got;
        }
        if (trial % 3 == 0)
            CHECK(least == global, "sub gf2: least over the corners %lld, coset %lld",
                  (long long)least, (long long)global);
        /* bound 0: nothing is shorter, the whole sub-cube pruned */
        ml_coset_stats st;
        uint64_t best[MAXW];
        CHECK(ml_coset_sub_gf2(x0, basis, k, nw, L, 0, 0, best, &st) == 0 &&
              st.pruned == (1ull << L) && st.examined == 0);
        CHECK(ml_coset_sub_gf2(x0, basis, k, nw, k + 1, 0, 99, best, &st) == -1, "L > k taken");
    }
}

static void test_sub_zn(void)
{
    static const unsigned ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 251};
    for (int trial = 0; trial < 60; trial++) {
        unsigned n = ns[trial % 10];
        size_t r = 1 + rnd() % 20, k = rnd() % (n > 100 ? 3 : 4), L = rnd() % (k + 1);
        uint8_t G[8 * 20], x0[20];
        uint32_t ord[8];
        random_gens_zn(G, ord, k, r, n, 0);
        for (size_t j = 0; j < r; j++) x0[j] = (uint8_t)(rnd() % n);
        int64_t global = brute_min_zn(x0, G, ord, k, r, n), least = INT64_MAX;
        uint64_t corners = (uint64_t)cosize(ord + L, k - L), inner = (uint64_t)cosize(ord, L);
        for (uint64_t corner = 0; corner < corners; corner++) {
            uint8_t c0[20];
            memcpy(c0, x0, r);
            uint64_t rest = corner;
            for (size_t t = L; t < k; t++) {
                unsigned c = (unsigned)(rest % ord[t]);
                rest /= ord[t];
                for (size_t j = 0; j < r; j++) c0[j] = (uint8_t)((c0[j] + c * G[t * r + j]) % n);
            }
            int64_t want = brute_min_zn(c0, G, ord, L, r, n);
            int64_t bound = trial % 3 == 0 ? INT64_MAX : (int64_t)rnd_range(0, 60 * (n < 20 ? 1 : 20));
            uint8_t best[20];
            memset(best, 0xEE, sizeof best);
            ml_coset_stats st;
            int64_t got = ml_coset_sub_zn(x0, G, ord, k, r, n, L, corner, bound, best, &st);
            CHECK(st.complete == 1);
            if (want < bound) {
                int64_t s = 0;
                for (size_t j = 0; j < r; j++) s += best[j];
                CHECK(got == want && s == want, "sub zn n=%u k=%zu L=%zu: %lld (best %lld), want %lld",
                      n, k, L, (long long)got, (long long)s, (long long)want);
                if (inner <= 4096)
                    CHECK(member_zn(c0, G, ord, L, r, n, best), "sub zn: best not in the sub-cube");
            } else {
                CHECK(got == bound && best[0] == 0xEE, "sub zn: %lld, want the bound %lld untouched",
                      (long long)got, (long long)bound);
            }
            if (bound == INT64_MAX && got < least) least = got;
        }
        if (trial % 3 == 0)
            CHECK(least == global, "sub zn n=%u: least over the corners %lld, coset %lld", n,
                  (long long)least, (long long)global);
        ml_coset_stats st;
        uint8_t best[20];
        CHECK(ml_coset_sub_zn(x0, G, ord, k, r, n, L, 0, 0, best, &st) == 0 &&
              st.pruned == inner && st.examined == 0);
        CHECK(ml_coset_sub_zn(x0, G, ord, k, r, n, k + 1, 0, 99, best, &st) == -1, "L > k taken");
    }
}

/* ------------------------------------------------------------------ the stop flag */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 600 boards, r = 60 bits; k = 16: the table path, k = 21: the Gray-code path (coset.c a
 * board; about 2 ms a board at -O2 even when it stops at its first poll, 2^20 words in) */
static const size_t SM = 600, SR = 60;

static size_t written(const int64_t *len, size_t m)
{
    size_t done = 0;
    for (size_t i = 0; i < m; i++) done += len[i] != -7;
    return done;
}

/* A stop requested before the call (the process-wide flag): no board is written on
 * either path, the call returns at once and leaves the flag for its caller. */
static void test_stop_flag(const uint64_t *basis, const uint64_t *X0, int64_t *len)
{
    for (size_t k = 16; k <= 21; k += 5) {
        for (size_t i = 0; i < SM; i++) len[i] = -7;
        ml_interrupt_request();
        double t0 = now_s();
        ml_coset_min_gf2_many(X0, SM, 1, SR, basis, k, 2, len, NULL, 0);
        double secs = now_s() - t0;
        CHECK(ml_interrupt_take() == 1, "the flag was not left for the caller");
        CHECK(written(len, SM) == 0, "stop flag, k=%zu: %zu boards written", k, written(len, SM));
        CHECK(secs < 0.5, "stop flag, k=%zu: %.3f s", k, secs);
    }
    /* Z/n, the table path */
    uint8_t G[4 * 8], *Z0 = malloc(SM * 8);
    uint32_t ord[4];
    random_gens_zn(G, ord, 4, 8, 7, 1);
    for (size_t i = 0; i < SM * 8; i++) Z0[i] = (uint8_t)(rnd() % 7);
    for (size_t i = 0; i < SM; i++) len[i] = -7;
    ml_interrupt_request();
    ml_coset_min_zn_many(Z0, SM, 8, G, ord, 4, 8, 7, 2, len, NULL, 0);
    CHECK(ml_interrupt_take() == 1);
    CHECK(written(len, SM) == 0, "zn stop: %zu boards written", written(len, SM));
    /* not stopped: every board */
    CHECK(ml_coset_min_zn_many(Z0, SM, 8, G, ord, 4, 8, 7, 2, len, NULL, 0) == 0);
    CHECK(written(len, SM) == SM);
    free(Z0);
}

/* A scope's stop flag (a context's ml_ctx_stop) set before the call: the table path
 * writes no board; the Gray-code path must stop between boards too, not start every
 * remaining board's search (600 x 2 ms) only to stop it at its first poll. */
static void test_stop_scope_between_boards(const uint64_t *basis, const uint64_t *X0,
                                           int64_t *len)
{
    for (size_t k = 16; k <= 21; k += 5) {
        for (size_t i = 0; i < SM; i++) len[i] = -7;
        _Atomic int stop = 1;
        ml_scope sc;
        ml_scope_enter(&sc, &stop, NULL, NULL, 0);
        double t0 = now_s();
        ml_coset_min_gf2_many(X0, SM, 1, SR, basis, k, 2, len, NULL, 0);
        double secs = now_s() - t0;
        CHECK(ml_scope_leave(&sc) != 0, "the scope saw no stop (k=%zu)", k);
        CHECK(written(len, SM) <= 1, "scope stop, k=%zu: %zu boards written", k,
              written(len, SM));
        CHECK(secs < 0.5, "scope stop, k=%zu: %.3f s", k, secs);
    }
}

static void test_stop(void)
{
    uint64_t basis[21], *X0 = malloc(SM * 8);
    int64_t *len = malloc(SM * 8);
    random_basis_gf2(basis, 21, 1, SR);
    for (size_t i = 0; i < SM; i++) X0[i] = rnd();
    test_stop_flag(basis, X0, len);
    test_stop_scope_between_boards(basis, X0, len);
    free(X0);
    free(len);
}

int main(void)
{
    test_batch_gf2();
    test_batch_zn();
    test_sub_gf2();
    test_sub_zn();
    test_stop();
    return t_done();
}
