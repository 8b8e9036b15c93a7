/* t-symbolic_lut: csrc/chase/symbolic_lut.c (the light chase's byte runs by a table)
 * against a plain computation, v = -(sum of the nd sources) mod n, on random rings of
 * slots: n in 2..16 and nd with nd (n - 1) < 128 (nd 0..127), slot widths bw 1..200 (the
 * masked last vector and several vectors a slot), runs of 1..40 taps at any offset of
 * the ring (its wrap), deltas at random distinct slots; on every SIMD path the CPU has
 * (portable: the byte-at-a-time loop; AVX-512 with VBMI: the permutation), the
 * lut_supported answer checked against the path. Exit status 0 when every check holds
 * (prints fails=N).
 * ml-test-sources: chase/symbolic_lut.c base/cpu.c */
#include "chase/chase_impl.h"
#include "base/cpu.h"

#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x1A7B0C5ull
#include "t-util.h"

static void one(int n, int nd, size_t bw)
{
    const int64_t slots = 64, mask = slots - 1;
    uint8_t *V = malloc((size_t)slots * bw + 64), *W = malloc((size_t)slots * bw + 64);
    int64_t dl[ML_CHASE_LUT_MAXND];
    uint8_t lut[128];
    ml_chase__lut_fill(lut, n);
    for (int x = 0; x < 128; x++) CHECK(lut[x] == (n - x % n) % n, "lut n=%d x=%d", n, x);
    for (size_t k = 0; k < (size_t)slots * bw; k++) V[k] = (uint8_t)(rnd() % (unsigned)n);
    /* sources: nd slots at distinct deltas ahead of the run (never its own slots) */
    const size_t cnt = (size_t)rnd_range(1, 40);
    for (int q = 0; q < nd; q++) dl[q] = (int64_t)cnt + (int64_t)(rnd() % (uint64_t)(slots - cnt - 1));
    const int64_t t0 = (int64_t)(rnd() % (uint64_t)slots);
    memcpy(W, V, (size_t)slots * bw);
    /* the plain way on W, tap by tap in order (a run reads only slots it does not write) */
    for (size_t i = 0; i < cnt; i++) {
        const int64_t t = t0 + (int64_t)i;
        for (size_t j = 0; j < bw; j++) {
            unsigned s = 0;
            for (int q = 0; q < nd; q++) s += W[(size_t)((t + dl[q]) & mask) * bw + j];
            W[(size_t)(t & mask) * bw + j] = (uint8_t)((n - s % (unsigned)n) % (unsigned)n);
        }
    }
    ml_chase__lut_run(V, bw, mask, t0, cnt, dl, nd, lut);
    CHECK(memcmp(V, W, (size_t)slots * bw) == 0, "run n=%d nd=%d bw=%zu cnt=%zu t0=%lld", n,
          nd, bw, cnt, (long long)t0);
    free(V);
    free(W);
}

int main(void)
{
    int simds[3] = {ML_SIMD_PORTABLE, ML_SIMD_AVX2, ML_SIMD_AVX512}, paths = 0;
    for (int s = 0; s < 3; s++) {
        if (!ml_cpu_supports(simds[s]) || ml_simd_set(simds[s]) != 0) continue;
        paths++;
        if (simds[s] < ML_SIMD_AVX512) CHECK(!ml_chase__lut_supported(), "lut on path %d", s);
        for (int n = 2; n <= 16; n++)
            for (int trial = 0; trial < 12; trial++) {
                int ndmax = 127 / (n - 1);
                if (ndmax > ML_CHASE_LUT_MAXND) ndmax = ML_CHASE_LUT_MAXND;
                int nd = trial < 4 ? trial : (int)rnd_range(0, ndmax);
                if (trial == 11) nd = ndmax;               /* sums up to 127: the top half */
                if (nd > 60) nd = 60;                      /* distinct deltas in 64 slots */
                size_t bw = trial % 3 == 0 ? (size_t)rnd_range(1, 63)
                                           : (size_t)(64 * rnd_range(1, 3) + rnd_range(0, 8));
                one(n, nd, bw);
            }
    }
    CHECK(paths >= 1, "no SIMD path");
    return t_done();
}
