/* t-bnb_zn: csrc/search/bnb_zn.c (the Z/n branch and bound) against the Gray-code
 * enumeration of search/coset_zn.c on random cosets: n 3..9, 16 and 251, prime powers and
 * composite n with generators of mixed orders (every order a divisor of n); the least
 * length must equal, the answer must be an element of the coset, every pruned prefix of
 * the proof must have a class bound (recomputed here by the formula, apart from the
 * search's code) >= the length, and the class bound of random nodes must be at most the
 * least length under them (enumerated). A budget and a Ctrl-C (ml_interrupt_request)
 * stop the search with an element of the coset. ml_bnb_zn_sparsify keeps the span (a
 * hash summed over every element) and the generators' orders and never adds non-zero
 * entries. Exit status 0 when every check holds.
 * ml-test-sources: search/bnb_zn.c search/driver.c search/coset.c search/coset_gf2.c search/coset_zn.c base/interrupt.c */
#define _POSIX_C_SOURCE 200809L
#include "base/interrupt.h"
#include "search/bnb_zn.h"
#include "search/coset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0xB0B2C0DE5EEDull
#include "t-util.h"

static unsigned gcd_t(unsigned a, unsigned b) { return b ? gcd_t(b, a % b) : a; }

/* The class bound by its definition (docs/certificates.md, bound "classes"): classes
 * compared pairwise, O(r^2 f + r n). */
static int64_t naive_bound(const uint8_t *y, const uint8_t *G, size_t f, size_t r, unsigned n)
{
    uint8_t *key = malloc(r * (f + 1)), *a = malloc(r + 1);
    int *cls = malloc((r + 1) * sizeof *cls);
    for (size_t j = 0; j < r; j++) {
        unsigned e = 0;
        for (size_t i = 0; i < f; i++) {
            key[j * (f + 1) + i] = G[i * r + j];
            if (!e)
                e = G[i * r + j];
        }
        a[j] = (uint8_t)(e ? (gcd_t(e, n) == 1 ? e : 1) : 0);
        if (e && gcd_t(e, n) == 1) {
            unsigned inv = 1;
            while ((inv * e) % n != 1)
                inv++;
            for (size_t i = 0; i < f; i++)
                key[j * (f + 1) + i] = (uint8_t)((key[j * (f + 1) + i] * inv) % n);
        }
        cls[j] = (int)j;
        for (size_t q = 0; q < j; q++)
            if (!memcmp(key + q * (f + 1), key + j * (f + 1), f)) {
                cls[j] = cls[q];
                break;
            }
    }
    int64_t total = 0;
    for (size_t g = 0; g < r; g++) {
        int64_t best = -1;
        int any = 0;
        for (unsigned s = 0; s < n; s++) {
            int64_t v = 0;
            for (size_t j = 0; j < r; j++)
                if (cls[j] == (int)g) {
                    any = 1;
                    v += (y[j] + a[j] * s) % n;
                }
            if (best < 0 || v < best)
                best = v;
        }
        if (any)
            total += best;
    }
    free(key), free(a), free(cls);
    return total;
}

/* The least length of y + span(G[0..f)) by plain enumeration (mixed radix). */
static int64_t enum_min(const uint8_t *y, const uint8_t *G, const uint32_t *ord, size_t f,
                        size_t r, unsigned n, const uint8_t *find, int *found)
{
    uint32_t c[64] = {0};
    uint8_t *cur = malloc(r + 1);
    int64_t best = -1;
    for (;;) {
        int64_t s = 0;
        for (size_t j = 0; j < r; j++) {
            unsigned v = y[j];
            for (size_t i = 0; i < f; i++)
                v += c[i] * G[i * r + j];
            cur[j] = (uint8_t)(v % n);
            s += cur[j];
        }
        if (best < 0 || s < best)
            best = s;
        if (find && !memcmp(cur, find, r))
            *found = 1;
        size_t i = 0;
        while (i < f && ++c[i] == ord[i])
            c[i++] = 0;
        if (i == f)
            break;
    }
    free(cur);
    return best;
}

static void random_coset(unsigned n, size_t k, size_t r, uint8_t *x0, uint8_t *G, uint32_t *ord,
                         int sparse)
{
    for (size_t j = 0; j < r; j++)
        x0[j] = (uint8_t)rnd_range(0, n - 1);
    for (size_t i = 0; i < k; i++) {
        unsigned o;
        do
            o = (unsigned)rnd_range(2, n);
        while (n % o);
        ord[i] = o;
        unsigned step = n / o;
        for (size_t j = 0; j < r; j++)
            G[i * r + j] = (uint8_t)(sparse && rnd_range(0, 2) ? 0 : step * rnd_range(0, o - 1));
    }
}

static void one(unsigned n, size_t k, size_t r, int sparse)
{
    uint8_t *x0 = malloc(r), *G = malloc(k * r + 1), *best = malloc(r), *eb = malloc(r),
            *y = malloc(r);
    uint32_t ord[64];
    random_coset(n, k, r, x0, G, ord, sparse);
    ml_coset_stats cs;
    int64_t want = ml_coset_min_zn(x0, G, ord, k, r, n, 0, 0.0, 1, eb, &cs);
    int64_t len = -1;
    ml_bnb_stats st;
    ml_bnb_proof P;
    int rc = ml_bnb_zn_min(x0, G, ord, k, r, n, 0, 0, best, &len, &P, &st);
    CHECK(rc == ML_BNB_OK && st.complete && cs.complete, "n=%u k=%zu r=%zu rc=%d", n, k, r, rc);
    CHECK(len == want, "n=%u k=%zu r=%zu bnb %lld enumeration %lld", n, k, r, (long long)len,
          (long long)want);
    int64_t s = 0;
    for (size_t j = 0; j < r; j++)
        s += best[j];
    int found = 0;
    enum_min(x0, G, ord, k, r, n, best, &found);
    CHECK(s == len && found, "n=%u k=%zu the answer is not an element of length %lld", n, k,
          (long long)len);
    /* every pruned prefix (relative to best) has a bound >= len, and is sound */
    for (uint64_t q = 0; rc == ML_BNB_OK && q < P.nwords;) {
        uint32_t d = P.words[q++];
        memcpy(y, best, r);
        for (uint32_t t = 0; t < d; t++, q++) {
            size_t i = k - 1 - t;
            for (size_t j = 0; j < r; j++)
                y[j] = (uint8_t)((y[j] + P.words[q] * G[i * r + j]) % n);
        }
        int64_t b = naive_bound(y, G, k - d, r, n);
        CHECK(b >= len, "n=%u pruned prefix of %u entries has bound %lld < %lld", n, d,
              (long long)b, (long long)len);
        CHECK(ml_bnb_zn_bound(y, G, k - d, r, n) == b, "n=%u the search's bound differs", n);
    }
    /* random nodes: bound <= the least length under them */
    for (int t = 0; t < 3; t++) {
        size_t f = (size_t)rnd_range(0, (int64_t)k);
        memcpy(y, x0, r);
        for (size_t i = f; i < k; i++) {
            uint32_t c = (uint32_t)rnd_range(0, ord[i] - 1);
            for (size_t j = 0; j < r; j++)
                y[j] = (uint8_t)((y[j] + c * G[i * r + j]) % n);
        }
        int64_t b = ml_bnb_zn_bound(y, G, f, r, n);
        int64_t m = enum_min(y, G, ord, f, r, n, NULL, NULL);
        CHECK(b == naive_bound(y, G, f, r, n) && b <= m, "n=%u f=%zu bound %lld min %lld", n, f,
              (long long)b, (long long)m);
    }
    if (rc == ML_BNB_OK)
        ml_bnb_proof_free(&P);
    free(x0), free(G), free(best), free(eb), free(y);
}

/* The sum of a hash of every element of span(G) (each listed once: a basis), and whether
 * each generator's additive order is ord[i]. */
static uint64_t span_hash(const uint8_t *G, const uint32_t *ord, size_t k, size_t r, unsigned n,
                          int *orders_ok)
{
    uint32_t c[64] = {0};
    uint64_t sum = 0;
    *orders_ok = 1;
    for (size_t i = 0; i < k; i++) {
        unsigned o = 1;
        for (int again = 1; again; o++) {
            again = 0;
            for (size_t j = 0; j < r; j++)
                again |= (o * G[i * r + j]) % n != 0;
            if (!again)
                break;
        }
        *orders_ok &= o == ord[i];
    }
    for (;;) {
        uint64_t h = 0x9E3779B97F4A7C15ull;
        for (size_t j = 0; j < r; j++) {
            unsigned v = 0;
            for (size_t i = 0; i < k; i++)
                v += c[i] * G[i * r + j];
            h = (h ^ (v % n)) * 0x100000001B3ull;
            h ^= h >> 29;
        }
        sum += h * 0xBF58476D1CE4E5B9ull;
        size_t i = 0;
        while (i < k && ++c[i] == ord[i])
            c[i++] = 0;
        if (i == k)
            return sum;
    }
}

static int sparser;   /* bases ml_bnb_zn_sparsify made sparser */

/* ml_bnb_zn_sparsify keeps the span and the orders, never adds non-zero taps. */
static void sparsify(unsigned n, size_t k, size_t r)
{
    r = r < k ? k : r;
    uint8_t *x0 = malloc(r), *G = malloc(k * r + 1), *S = malloc(k * r + 1);
    uint32_t ord[64];
    random_coset(n, k, r, x0, G, ord, 1);
    for (size_t i = 0; i < k; i++)   /* a basis: tap i is h_i's own, n / o_i there */
        for (size_t a = 0; a < k; a++)
            G[a * r + i] = (uint8_t)(a == i ? n / ord[i] : 0);
    for (size_t i = 0; i < k; i++) {   /* and some overlap to take away: h_i += h_a */
        size_t a = (size_t)rnd_range(0, (int64_t)k - 1);
        if (a != i && ord[i] % ord[a] == 0 && rnd_range(0, 1))
            for (size_t j = 0; j < r; j++)
                G[i * r + j] = (uint8_t)((G[i * r + j] + G[a * r + j]) % n);
    }
    memcpy(S, G, k * r);
    CHECK(ml_bnb_zn_sparsify(S, ord, k, r, n) == ML_BNB_OK);
    int ok_g = 0, ok_s = 0;
    uint64_t hg = span_hash(G, ord, k, r, n, &ok_g), hs = span_hash(S, ord, k, r, n, &ok_s);
    size_t zg = 0, zs = 0;
    for (size_t q = 0; q < k * r; q++)
        zg += G[q] != 0, zs += S[q] != 0;
    CHECK(hg == hs && ok_s == ok_g && zs <= zg, "n=%u k=%zu span %d orders %d/%d nnz %zu -> %zu",
          n, k, hg == hs, ok_g, ok_s, zg, zs);
    sparser += zs < zg;
    free(x0), free(G), free(S);
}

/* A budget and an interrupt stop a search of 9^24 elements with an element of the coset
 * no longer than x0. */
static void stops(void)
{
    unsigned n = 9;
    size_t k = 24, r = 40;
    uint8_t *x0 = malloc(r), *G = malloc(k * r), *best = malloc(r);
    uint32_t ord[24];
    random_coset(n, k, r, x0, G, ord, 0);
    int64_t l0 = 0, len = 0;
    for (size_t j = 0; j < r; j++)
        l0 += x0[j];
    ml_bnb_stats st;
    ml_bnb_proof P;
    int rc = ml_bnb_zn_min(x0, G, ord, k, r, n, 5000, 0, best, &len, &P, &st);
    CHECK(rc == ML_BNB_STOPPED && !st.complete && len <= l0 && P.words == NULL, "budget rc=%d", rc);
    if (rc == ML_BNB_OK)
        ml_bnb_proof_free(&P);
    ml_interrupt_request();
    rc = ml_bnb_zn_min(x0, G, ord, k, r, n, 0, 0, best, &len, &P, &st);
    CHECK(rc == ML_BNB_INTERRUPTED && !st.complete && st.nodes <= 8192, "interrupt rc=%d nodes=%llu",
          rc, (unsigned long long)st.nodes);
    if (rc == ML_BNB_OK)
        ml_bnb_proof_free(&P);
    ml_interrupt_take();
    CHECK(ml_bnb_zn_min(x0, G, ord, 2000, r, n, 0, 0, best, &len, NULL, &st) == ML_BNB_EINVAL);
    free(x0), free(G), free(best);
}

int main(void)
{
    static const unsigned ns[] = {3, 4, 5, 6, 7, 8, 9, 16, 251};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (int t = 0; t < 12; t++) {
            unsigned n = ns[a];
            size_t kmax = 1;   /* n^kmax <= 65536: enumerations stay quick under ASan */
            for (uint64_t e = (uint64_t)n * n; e <= 65536; e *= n)
                kmax++;
            size_t k = (size_t)rnd_range(1, (int64_t)kmax);
            size_t r = (size_t)rnd_range(1, 24);
            one(n, k, r, t & 1);
            sparsify(n, k, r);
        }
    CHECK(sparser >= 20, "only %d bases made sparser", sparser);
    stops();
    return t_done();
}
