/* t-cube_plan: csrc/search/cube_plan.c (search/cube.py's plan and search over cube.c's
 * Walsh-Hadamard leaves) against an exhaustive Gray walk of every coset element, on
 * random small kernels (N <= 64 taps, k <= 21 independent generators over GF(2)):
 * without symmetries, and with a cyclic group of tap rotations (c blocks of N / c taps,
 * j -> j + N / c) whose kernel is built from orbits (span(H) invariant) and a state x0
 * that is block-periodic (the group keeps the coset) or random (it may not). Checks:
 * the plan's generators span span(H) with m + kh = k and m within its range; a whole
 * search's length is the least over the coset, its element in the coset with that
 * weight, examined + skipped = 2^k (skipped 0 without symmetries), complete; counts
 * that stop part-way cover whole corners only and never claim a proof; the element is
 * the same on 1 and 3 threads; a passed deadline and the stop flag stop it; dependent
 * rows, too many and bad symmetries are refused; ml_cube_applies as minimal._use_cube.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: search/cube_plan.c search/cube.c search/driver.c base/cpu.c base/interrupt.c */
#include "search/cube_plan.h"
#include "base/interrupt.h"
#include "search/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0xC0BE5EA7C4ull
#include "t-util.h"

static unsigned N, K;
static uint64_t Hrow[32], X0;
static uint8_t Hb[32 * 64], x0b[64];
static uint64_t perms[4 * 64];   /* nsym x N */
static unsigned nsym;
static unsigned with_sym, with_high, skipping;   /* what the problems exercised */

static uint64_t mask_of(const uint8_t *v)
{
    uint64_t x = 0;
    for (unsigned j = 0; j < N; j++)
        x |= (uint64_t)(v[j] & 1) << j;
    return x;
}

/* Insert v into a reduced basis (pivots: lowest set bit); 1 when independent. */
static int insert(uint64_t *basis, unsigned *nb, uint64_t v)
{
    for (unsigned i = 0; i < *nb; i++)
        if (v & (basis[i] & -basis[i]))
            v ^= basis[i];
    if (!v)
        return 0;
    for (unsigned i = 0; i < *nb; i++)
        if (basis[i] & (v & -v))
            basis[i] ^= v;
    basis[(*nb)++] = v;
    return 1;
}

static int in_span(uint64_t v)
{
    uint64_t b[64];
    unsigned nb = 0;
    for (unsigned i = 0; i < K; i++)
        insert(b, &nb, Hrow[i]);
    return !insert(b, &nb, v);
}

static uint64_t rotate(uint64_t v, unsigned h)
{
    uint64_t out = 0;
    for (unsigned j = 0; j < N; j++)
        if (v >> j & 1)
            out |= (uint64_t)1 << ((j + h) % N);
    return out;
}

static int64_t brute(void)
{
    uint64_t y = X0;
    int64_t best = __builtin_popcountll(y);
    for (uint64_t t = 1; t < ((uint64_t)1 << K); t++) {
        y ^= Hrow[__builtin_ctzll(t)];
        int64_t w = __builtin_popcountll(y);
        if (w < best)
            best = w;
    }
    return best;
}

/* A random problem: symmetric (c blocks) or not; x0 periodic or random. */
static void make_problem(unsigned maxk, int sym, int periodic)
{
    unsigned c = sym ? 2 + (unsigned)(rnd() % 3) : 1;
    unsigned h = 1 + (unsigned)(rnd() % (64 / c));
    N = sym ? c * h : 1 + (unsigned)(rnd() % 64);
    unsigned want = maxk > 16 ? maxk - 4 + (unsigned)(rnd() % 5) : (unsigned)(rnd() % (maxk + 1));
    if (want > N)
        want = N;
    uint64_t basis[64];
    unsigned nb = 0;
    K = 0;
    for (int tries = 0; K + c <= want && tries < 400; tries++) {
        uint64_t v = rnd() & (N == 64 ? ~0ull : ((1ull << N) - 1));
        if (rnd() % 2)
            v &= rnd();
        for (unsigned r = 0; r < c; r++, v = rotate(v, h))   /* a whole orbit: invariant */
            if (insert(basis, &nb, v))
                Hrow[K++] = v;
    }
    X0 = rnd() & (N == 64 ? ~0ull : ((1ull << N) - 1));
    if (sym && periodic) {
        uint64_t p = X0 & ((1ull << h) - 1);
        X0 = 0;
        for (unsigned r = 0; r < c; r++)
            X0 |= p << (r * h);
    }
    for (unsigned i = 0; i < K; i++)
        for (unsigned j = 0; j < N; j++)
            Hb[i * N + j] = (uint8_t)(Hrow[i] >> j & 1);
    for (unsigned j = 0; j < N; j++)
        x0b[j] = (uint8_t)((X0 >> j & 1) | (rnd() % 2 ? 2 : 0));   /* taken mod 2 */
    nsym = sym ? c - 1 : 0;
    for (unsigned g = 0; g < nsym; g++)
        for (unsigned j = 0; j < N; j++)
            perms[g * N + j] = (j + (g + 1) * h) % N;
}

static void check_problem(int sym)
{
    ml_cube_plan p;
    int rc = ml_cube_plan_make(x0b, Hb, K, N, perms, nsym, &p);
    CHECK(rc == ML_CUBE_OK, "plan rc %d N=%u K=%u sym=%d", rc, N, K, sym);
    if (rc)
        return;
    unsigned m_aim = K < 16 ? K : 16;
    CHECK(p.k == K && p.m + p.kh == K && p.m <= m_aim + 2 && p.kh <= 63, "k %u m %u kh %u",
          p.k, p.m, p.kh);
    CHECK(p.ng <= nsym && (sym || p.ng == 0), "ng %u", p.ng);
    with_sym += p.ng > 0;
    with_high += p.kh > 0;
    uint64_t span[64];
    unsigned nb = 0;
    for (unsigned i = 0; i < K; i++) {
        uint64_t g = mask_of(p.gens + (size_t)i * N);
        CHECK(in_span(g), "generator %u outside span(H)", i);
        insert(span, &nb, g);
    }
    CHECK(nb == K, "the plan's generators have rank %u of %u", nb, K);
    int64_t want = brute();
    uint8_t best[64], best3[64];
    ml_cube_result r, r3;
    rc = ml_cube_search(&p, UINT64_MAX, 0, 1, best, &r);
    uint64_t bm = mask_of(best);
    CHECK(rc == ML_CUBE_OK && r.complete && r.length == want &&
              __builtin_popcountll(bm) == want && in_span(bm ^ X0),
          "whole search N=%u K=%u m=%u ng=%u: rc %d length %lld want %lld complete %d", N, K,
          p.m, p.ng, rc, (long long)r.length, (long long)want, r.complete);
    if (want > 0 && __builtin_popcountll(X0) > want)
        CHECK(r.examined + r.skipped == (1ull << K) && r.covered == (1ull << K) &&
                  (p.ng || !r.skipped),
              "counts examined %llu skipped %llu covered %llu of 2^%u",
              (unsigned long long)r.examined, (unsigned long long)r.skipped,
              (unsigned long long)r.covered, K);
    skipping += r.skipped > 0;
    rc = ml_cube_search(&p, UINT64_MAX, 0, 3, best3, &r3);
    CHECK(rc == ML_CUBE_OK && !memcmp(best, best3, N) && r3.examined == r.examined &&
              r3.skipped == r.skipped,
          "3 threads: another element or other counts");
    /* a count short of the coset: whole corners, no proof unless length 0 */
    unsigned inner = p.kh < ML_CUBE_CORNER_LOG ? p.kh : ML_CUBE_CORNER_LOG;
    unsigned plog = inner + p.m;
    uint64_t steps = rnd() % ((1ull << K) + 1);
    rc = ml_cube_search(&p, steps, 0, 2, best3, &r3);
    uint64_t corners = (uint64_t)1 << (p.kh - inner), lim = steps >> plog;
    if (lim > corners)
        lim = corners;
    bm = mask_of(best3);
    CHECK(rc == ML_CUBE_OK && r3.length >= want && __builtin_popcountll(bm) == r3.length &&
              in_span(bm ^ X0),
          "count %llu: rc %d length %lld", (unsigned long long)steps, rc, (long long)r3.length);
    if (r3.length > 0)
        CHECK(r3.covered == lim << plog && r3.complete == (lim == corners),
              "count %llu: covered %llu of %llu corners of 2^%u, complete %d",
              (unsigned long long)steps, (unsigned long long)r3.covered,
              (unsigned long long)lim, plog, r3.complete);
    /* a deadline already passed: nothing walked (unless x0 has length 0) */
    rc = ml_cube_search(&p, UINT64_MAX, ml_driver_now_ns() - 1000, 1, best3, &r3);
    CHECK(rc == ML_CUBE_OK && (r3.length == 0 || (!r3.complete && r3.covered == 0 &&
                                                   !memcmp(best3, p.x0, N))),
          "passed deadline: complete %d covered %llu", r3.complete,
          (unsigned long long)r3.covered);
    /* element(): x0 plus the generators chosen */
    uint64_t hi = rnd() & (p.kh >= 64 ? ~0ull : ((1ull << p.kh) - 1));
    uint32_t lo = (uint32_t)(rnd() & ((1ull << p.m) - 1));
    ml_cube_plan_element(&p, hi, lo, best3);
    uint64_t e = X0;
    for (unsigned i = 0; i < K; i++)
        if (i < p.m ? lo >> i & 1 : hi >> (i - p.m) & 1)
            e ^= mask_of(p.gens + (size_t)i * N);
    CHECK(mask_of(best3) == e, "element");
    ml_cube_plan_free(&p);
}

int main(void)
{
    for (int t = 0; t < 400; t++) {
        int sym = t % 3 != 0 || t >= 300;
        make_problem(t < 300 ? 14 : 21, sym, t % 2 == 0 || t >= 300);
        check_problem(sym);
    }
    printf("problems with symmetries used %u, leaves skipped %u, high generators %u\n",
           with_sym, skipping, with_high);
    CHECK(with_sym > 50 && skipping > 20 && with_high > 10, "too few problems exercise it");
    /* the stop flag: ML_CUBE_STOPPED */
    make_problem(20, 0, 0);
    while (K < 18 || !X0)
        make_problem(20, 0, 0);
    ml_cube_plan p;
    CHECK(ml_cube_plan_make(x0b, Hb, K, N, NULL, 0, &p) == ML_CUBE_OK);
    uint8_t best[64];
    ml_cube_result r;
    ml_interrupt_request();
    int rc = ml_cube_search(&p, UINT64_MAX, 0, 2, best, &r);
    CHECK(ml_interrupt_take() && rc == ML_CUBE_STOPPED && !r.complete, "stop: rc %d", rc);
    ml_cube_plan_free(&p);
    /* refusals: dependent rows, too many rows or taps, a symmetry off the taps */
    memcpy(Hb + (size_t)(K - 1) * N, Hb, N);
    CHECK(ml_cube_plan_make(x0b, Hb, K, N, NULL, 0, &p) == ML_CUBE_EINVAL, "dependent");
    CHECK(ml_cube_plan_make(x0b, Hb, ML_CUBE_MAX_NULLITY + 1, N, NULL, 0, &p) ==
              ML_CUBE_EINVAL, "too many rows");
    CHECK(ml_cube_plan_make(x0b, Hb, 1, ML_CUBE_MAX_TAPS + 1, NULL, 0, &p) == ML_CUBE_EINVAL,
          "too many taps");
    make_problem(10, 1, 1);
    while (!nsym)
        make_problem(10, 1, 1);
    perms[0] = N;
    CHECK(ml_cube_plan_make(x0b, Hb, K, N, perms, nsym, &p) == ML_CUBE_EINVAL, "bad symmetry");
    /* minimal._use_cube */
    uint32_t two[90], mixed[90];
    for (int i = 0; i < 90; i++)
        two[i] = mixed[i] = 2;
    mixed[5] = 4;
    CHECK(ml_cube_applies(2, 100, 22, two, UINT64_MAX), "applies");
    CHECK(!ml_cube_applies(2, 100, 21, two, UINT64_MAX), "nullity 21");
    CHECK(!ml_cube_applies(3, 100, 22, two, UINT64_MAX), "n 3");
    CHECK(!ml_cube_applies(2, 100, 22, mixed, UINT64_MAX), "an order 4");
    CHECK(!ml_cube_applies(2, ML_CUBE_MAX_TAPS + 1, 22, two, UINT64_MAX), "taps");
    CHECK(!ml_cube_applies(2, 100, ML_CUBE_MAX_NULLITY + 1, two, UINT64_MAX), "nullity 88");
    CHECK(ml_cube_applies(2, 100, 22, two, 1u << 22) && !ml_cube_applies(2, 100, 22, two,
                                                                          (1u << 22) - 1),
          "a count of the whole coset");
    CHECK(ml_cube_applies(2, 100, 40, two, ML_CUBE_MIN_STEPS) &&
              !ml_cube_applies(2, 100, 40, two, ML_CUBE_MIN_STEPS - 1),
          "ML_CUBE_MIN_STEPS");
    return t_done();
}
