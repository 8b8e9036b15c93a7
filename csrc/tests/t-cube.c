/* t-cube: csrc/search/cube.c (the least weight over a GF(2) coset by Walsh-Hadamard
 * leaves, Gray walk over the high coefficients, corners, threads, symmetry skipping)
 * against plain enumeration of every element. Random problems: N taps, m low and kh
 * high generators (not necessarily independent), all corners or a subset of them; a
 * "symmetry" c -> c ^ e_i for a high generator i equal to a low one (leaves c and
 * c ^ e_i are the same sub-coset) must not change the answer. Also each leaf by
 * ml_cube_leaf_gf2, the bound, and bad arguments (-2). Exit status 0 when every check
 * holds (prints fails=N).
 * Run twice: the SIMD path this CPU has and the portable one (ml_simd_set).
 * ml-test-sources: search/cube.c base/cpu.c base/interrupt.c */
#include "search/cube.h"
#include "base/cpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x2545F4914F6CDD1Dull
#include "t-util.h"

#define MAXN 300
#define MAXK 16

static unsigned N, m, kh;
static uint8_t low[MAXK][MAXN], high[MAXK][MAXN], y0v[MAXN];

/* least weight over the leaves whose high mask satisfies (mask & fixed_mask) ==
 * fixed_val, by enumerating every element */
static int64_t brute(uint64_t fixed_mask, uint64_t fixed_val)
{
    int64_t best = -1;
    for (uint64_t h = 0; h < (1ull << kh); h++) {
        if ((h & fixed_mask) != fixed_val)
            continue;
        for (uint64_t l = 0; l < (1ull << m); l++) {
            int64_t w = 0;
            for (unsigned j = 0; j < N; j++) {
                unsigned v = y0v[j];
                for (unsigned i = 0; i < m; i++)
                    v ^= (l >> i & 1) & low[i][j];
                for (unsigned i = 0; i < kh; i++)
                    v ^= (h >> i & 1) & high[i][j];
                w += v;
            }
            if (best < 0 || w < best)
                best = w;
        }
    }
    return best;
}

static int64_t weight_of(uint64_t h, uint32_t l)
{
    int64_t w = 0;
    for (unsigned j = 0; j < N; j++) {
        unsigned v = y0v[j];
        for (unsigned i = 0; i < m; i++)
            v ^= (l >> i & 1) & low[i][j];
        for (unsigned i = 0; i < kh; i++)
            v ^= (h >> i & 1) & high[i][j];
        w += v;
    }
    return w;
}

static int run(void)
{
    int fails = 0;
    static uint32_t col[MAXN], sup_start[MAXK + 1], sup_idx[MAXK * MAXN];
    static uint64_t corners[1 << MAXK], sym_mat[2 * MAXK], sym_shift[2];
    for (int trial = 0; trial < 300; trial++) {
        N = 1 + (unsigned)(rnd() % (trial < 100 || trial >= 280 ? 40 : MAXN));
        m = (unsigned)(rnd() % 9);
        kh = (unsigned)(rnd() % 7);
        if (trial >= 280) {            /* transforms past one cache block */
            m = 13 + (unsigned)(rnd() % 3);
            kh = (unsigned)(rnd() % 2);
        }
        int sym = kh > 0 && m > 0 && rnd() % 2;
        unsigned dup = sym ? (unsigned)(rnd() % kh) : 0;
        /* a second map when kh >= 3: swap two equal high generators a, b (leaves c and
         * c with bits a, b swapped are the same sub-coset; it has fixed leaves) */
        int swap = sym && kh >= 3 && rnd() % 2;
        unsigned sa = 0, sb = 0;
        if (swap) {
            do sa = (unsigned)(rnd() % kh); while (sa == dup);
            do sb = (unsigned)(rnd() % kh); while (sb == sa || sb == dup);
        }
        for (unsigned j = 0; j < N; j++) {
            y0v[j] = rnd() & 1;
            for (unsigned i = 0; i < m; i++)
                low[i][j] = (rnd() % 3) == 0;
            for (unsigned i = 0; i < kh; i++)
                high[i][j] = (rnd() % 3) == 0;
        }
        if (sym)
            memcpy(high[dup], low[rnd() % m], N);
        if (swap)
            memcpy(high[sb], high[sa], N);
        uint32_t p = 0;
        for (unsigned i = 0; i < kh; i++) {
            sup_start[i] = p;
            for (unsigned j = 0; j < N; j++)
                if (high[i][j])
                    sup_idx[p++] = j;
        }
        sup_start[kh] = p;
        for (unsigned j = 0; j < N; j++) {
            col[j] = 0;
            for (unsigned i = 0; i < m; i++)
                col[j] |= (uint32_t)low[i][j] << i;
        }
        for (unsigned i = 0; i < kh; i++) {
            sym_mat[i] = 1ull << i;           /* c -> c ^ e_dup */
            sym_mat[kh + i] = 1ull << (i == sa ? sb : i == sb ? sa : i);
        }
        sym_shift[0] = 1ull << dup;
        sym_shift[1] = 0;
        ml_cube_gf2 P = {N, m, kh, col, y0v, sup_start, sup_idx, (unsigned)(sym + swap),
                         sym_mat, sym_shift};
        unsigned top = kh ? (unsigned)(rnd() % (kh + 1)) : 0;
        size_t nc = (size_t)1 << top;
        for (size_t q = 0; q < nc; q++)
            corners[q] = (uint64_t)q << (kh - top);
        int threads = 1 + (int)(rnd() % 3);
        int64_t want = brute(0, 0);
        uint64_t bh = 0;
        uint32_t bl = 0;
        ml_cube_stats st;
        int64_t got = ml_cube_min_gf2(&P, top, corners, nc, 1 << 30, 0.0, threads, &bh, &bl,
                                      &st);
        if (got != want || weight_of(bh, bl) != got || !st.complete ||
            st.leaves + st.skipped != (1ull << kh) || (!sym && st.skipped)) {
            fails++;
            printf("min N=%u m=%u kh=%u top=%u sym=%d: got %lld want %lld (element %lld) "
                   "leaves %llu skipped %llu complete %d\n", N, m, kh, top, sym,
                   (long long)got, (long long)want, (long long)weight_of(bh, bl),
                   (unsigned long long)st.leaves, (unsigned long long)st.skipped,
                   st.complete);
        }
        /* a bound at the minimum: nothing below it */
        got = ml_cube_min_gf2(&P, top, corners, nc, want, 0.0, threads, &bh, &bl, &st);
        if (got != want || !st.complete) {
            fails++;
            printf("bound N=%u: got %lld want %lld\n", N, (long long)got, (long long)want);
        }
        /* one corner alone (no symmetry): the least over its leaves */
        if (top > 0) {
            P.ng = 0;
            uint64_t c = corners[rnd() % nc];
            uint64_t fm = ((1ull << kh) - 1) & ~((1ull << (kh - top)) - 1);
            int64_t w1 = brute(fm, c);
            got = ml_cube_min_gf2(&P, top, &c, 1, 1 << 30, 0.0, 1, &bh, &bl, &st);
            if (got != w1 || weight_of(bh, bl) != got || (bh & fm) != c) {
                fails++;
                printf("corner N=%u: got %lld want %lld\n", N, (long long)got,
                       (long long)w1);
            }
            /* a corner with a bit below the fixed ones is refused */
            if (top < kh) {
                uint64_t bad = c | 1;
                if (ml_cube_min_gf2(&P, top, &bad, 1, 1 << 30, 0.0, 1, &bh, &bl, &st) != -2) {
                    fails++;
                    printf("bad corner accepted\n");
                }
            }
        }
        /* every leaf by the transform */
        uint64_t h = kh ? rnd() % (1ull << kh) : 0;
        uint32_t arg;
        int64_t lw = ml_cube_leaf_gf2(&P, h, &arg);
        int64_t lb = brute(kh ? (1ull << kh) - 1 : 0, h);
        if (lw != lb || weight_of(h, arg) != lw) {
            fails++;
            printf("leaf N=%u m=%u: got %lld want %lld\n", N, m, (long long)lw,
                   (long long)lb);
        }
        /* bad arguments */
        P.m = ML_CUBE_MAX_LOW + 1;
        if (ml_cube_leaf_gf2(&P, 0, &arg) != -2)
            fails++;
    }
    return fails;
}

int main(void)
{
    int fails = run();
    if (ml_cpu_best() != ML_SIMD_PORTABLE) {
        ml_simd_set(ML_SIMD_PORTABLE);
        fails += run();
    }
    printf("fails=%d\n", fails);
    return fails != 0;
}
