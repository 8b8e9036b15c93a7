/* t-symbolic: csrc/chase/symbolic.c (the chase run on symbols: the residual matrix M,
 * one block of symbols a pass) driven directly through its worker (ml_chase_sym_worker,
 * one thread, every block), against M computed from the numeric chase by unit vectors
 * (rho(z) = rho(0) - M z; the numeric chase itself checked against the tap matrix A, as
 * in t-numeric) on random grid descriptions (chase-oracle.h): n in 2..9, 12, 16, 251,
 * wrap (lists) and stencil, holes, locked tiles, mixed patterns, uniform patterns (the
 * fixed-delta runs), 1 x k and k x 1, boards with several words of symbols:
 *   - GF(2) bit-packed words, blocks of 1, 2, 3, 4, 8 words (the 256- and 512-bit
 *     vector runs and the scalar xor);
 *   - Z/3, Z/4, Z/8 bit-sliced planes, blocks of 1, 2, 4 words; and bytes (the uint8
 *     fast path of all-one coefficients and the general accumulator) for every n,
 *     blocks of 1, 7, 32, 256 symbols;
 *   - every SIMD path the CPU has (portable, AVX2, AVX-512);
 *   - the knight with every count 1 for n = 5 .. 17 (byte sums up to 8 (n - 1): the table
 *     run over both halves of its table, and past it);
 *   - a prefix of the rows (kmax < nres): those rows right, the rest untouched;
 *   - the stop flag: a stop requested before the run gives status 3 at once.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: chase/symbolic.c chase/symbolic_lut.c chase/plan.c chase/numeric.c base/cpu.c base/interrupt.c */
#include "chase/chase_impl.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include <stdio.h>

#define ML_T_SEED 0x5B0B1Cull
#include "t-util.h"
#include "chase-oracle.h"

enum { BYTES = 0, GF2 = 1, PACKED = 2 };

/* Run the worker over every block of the chosen representation; M as ml_chase_matrix_*
 * would fill it (GF(2): kmax rows of nw words; else kmax rows of nsym bytes). */
static int run_worker(const ml_chase *P, int mode, size_t bw, size_t kmax, void *M)
{
    const size_t nsym = ml_chase_nsym(P);
    sym_job J;
    memset(&J, 0, sizeof J);
    J.p = P;
    J.M = M;
    J.kmax = kmax;
    J.bw = bw;
    if (mode == GF2) {
        J.total = J.stride = (nsym + 63) / 64;
    } else if (mode == PACKED) {
        J.total = (nsym + 63) / 64;
        J.stride = nsym;
        J.np = packed_planes(P->n);
    } else {
        J.total = J.stride = nsym;
    }
    size_t nblocks = (J.total + bw - 1) / bw;
    size_t *list = malloc((nblocks + 1) * sizeof(size_t));
    for (size_t b = 0; b < nblocks; b++) list[b] = b;
    int next = 0;
    J.nblocks = nblocks;
    J.list = list;
    J.next = &next;
    J.status = -1;
    ml_chase_sym_worker(&J);
    CHECK(next >= (int)nblocks || J.status != 0, "the worker left blocks (%d of %zu)", next, nblocks);
    free(list);
    return J.status;
}

static int n_cases, n_packed, n_gf2, n_prefix;

static void check_symbolic(co_desc *d)
{
    int err = -1;
    ml_chase *P = co_plan(d, &err);
    CHECK(P && err == 0, "%s: no plan (err %d)", d->what, err);
    if (!P) return;
    const size_t hw = co_hw(d), nsym = ml_chase_nsym(P), nres = ml_chase_nres(P);
    if (nsym == 0 || nres == 0) { ml_chase_free(P); return; }
    n_cases++;
    uint8_t *b = malloc(hw), *x = malloc(hw), *rho = malloc(nres + 1), *z = malloc(nsym + 1);
    for (size_t t = 0; t < hw; t++) b[t] = (uint8_t)(rnd() % (unsigned)d->n);
    /* the oracle: the numeric chase (checked against A) by unit vectors */
    for (size_t s = 0; s < nsym; s++) z[s] = (uint8_t)(rnd() % (unsigned)d->n);
    co_check_numeric(P, d, b, z, x, rho, "numeric");
    uint8_t *want = co_matrix_by_numeric(P, d, b);
    uint8_t *M = malloc(nres * nsym + 8);
    const size_t nw = (nsym + 63) / 64;
    uint64_t *W = malloc((nres * nw + 1) * 8);
    /* a prefix of the rows, or all of them */
    const size_t kmax = nres > 1 && rnd() % 3 == 0 ? 1 + rnd() % (nres - 1) : nres;
    n_prefix += kmax < nres;
    char what[200];
    if (d->n == 2) {
        static const size_t bws[] = {1, 2, 3, 4, 8};
        n_gf2++;
        for (int i = 0; i < 5; i++) {
            memset(W, 0xA5, nres * nw * 8);
            int st = run_worker(P, GF2, bws[i], kmax, W);
            snprintf(what, sizeof what, "%s GF(2) bw %zu kmax %zu/%zu", d->what, bws[i], kmax, nres);
            CHECK(st == 0, "%s: status %d", what, st);
            int ok = 1;
            for (size_t k = 0; k < kmax; k++)
                for (size_t s = 0; s < nsym; s++)
                    ok &= (uint8_t)((W[k * nw + s / 64] >> (s % 64)) & 1) == want[k * nsym + s];
            CHECK(ok, "%s: M differs from the numeric chase's", what);
            int untouched = 1;
            for (size_t i2 = kmax * nw; i2 < nres * nw; i2++) untouched &= W[i2] == 0xA5A5A5A5A5A5A5A5ull;
            CHECK(untouched, "%s: rows past kmax written", what);
        }
    } else {
        if (packed_planes(d->n)) {
            static const size_t bws[] = {1, 2, 4};
            n_packed++;
            for (int i = 0; i < 3; i++) {
                memset(M, 0xA5, nres * nsym);
                int st = run_worker(P, PACKED, bws[i], kmax, M);
                snprintf(what, sizeof what, "%s packed bw %zu kmax %zu/%zu", d->what, bws[i], kmax, nres);
                CHECK(st == 0, "%s: status %d", what, st);
                CHECK(!memcmp(M, want, kmax * nsym), "%s: M differs from the numeric chase's", what);
                int untouched = 1;
                for (size_t i2 = kmax * nsym; i2 < nres * nsym; i2++) untouched &= M[i2] == 0xA5;
                CHECK(untouched, "%s: rows past kmax written", what);
            }
        }
        static const size_t bzs[] = {1, 7, 32, 256};
        for (int i = 0; i < 4; i++) {
            memset(M, 0xA5, nres * nsym);
            int st = run_worker(P, BYTES, bzs[i], kmax, M);
            snprintf(what, sizeof what, "%s bytes bw %zu kmax %zu/%zu", d->what, bzs[i], kmax, nres);
            CHECK(st == 0, "%s: status %d", what, st);
            CHECK(!memcmp(M, want, kmax * nsym), "%s: M differs from the numeric chase's", what);
            int untouched = 1;
            for (size_t i2 = kmax * nsym; i2 < nres * nsym; i2++) untouched &= M[i2] == 0xA5;
            CHECK(untouched, "%s: rows past kmax written", what);
        }
    }
    /* a stop requested before: status 3 from the first block on */
    ml_interrupt_request();
    int st = d->n == 2 ? run_worker(P, GF2, 1, nres, W) : run_worker(P, BYTES, 1, nres, M);
    CHECK(st == 3, "%s: status %d after a stop", d->what, st);
    CHECK(ml_interrupt_take() == 1);
    free(b); free(x); free(rho); free(z); free(want); free(M); free(W);
    ml_chase_free(P);
}

/* The knight, every count 1, on an h x w grid mod n: the byte runs of sums up to 8 (n - 1)
 * (the table run of symbolic_lut.c below 128, both of its 64-entry halves for n > 9) */
static void knight_case(int h, int w, int n)
{
    co_desc d;
    memset(&d, 0, sizeof d);
    d.h = h; d.w = w; d.n = n; d.npat = 1;
    int32_t dr[10], dc[10];
    d.nu = co_named(3, dr, dc);
    for (int u = 0; u < d.nu; u++) { d.udr[u] = dr[u]; d.udc[u] = dc[u]; d.cnt[u] = 1; }
    co_sort(&d);
    snprintf(d.what, sizeof d.what, "knight %dx%d n=%d", h, w, n);
    check_symbolic(&d);
    co_free(&d);
}

int main(void)
{
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 251};
    int simds[3] = {ML_SIMD_PORTABLE, ML_SIMD_AVX2, ML_SIMD_AVX512};
    for (int s = 0; s < 3; s++) {
        if (!ml_cpu_supports(simds[s]) || ml_simd_set(simds[s]) != 0) continue;
        for (int trial = 0; trial < 180; trial++) {
            co_desc d;
            int h = 0, w = 0, n = ns[trial % 11], kind = trial % 3 == 0 ? 1 : trial % 3 == 1 ? 2 : 0;
            if (trial % 4 == 3 && n != 2) n = (int[]){3, 4, 8}[trial % 3];   /* more bit-sliced */
            if (trial % 7 == 5) n = 2;
            switch (trial % 10) {
            case 0: h = 1; w = (int)rnd_range(1, 30); break;
            case 1: w = 1; h = (int)rnd_range(1, 30); break;
            case 2: h = (int)rnd_range(4, 8); w = (int)rnd_range(65, 200); break;  /* words */
            case 3: h = (int)rnd_range(8, 16); w = (int)rnd_range(8, 24); break;
            default: break;
            }
            co_random(&d, h, w, n, kind);
            check_symbolic(&d);
            co_free(&d);
        }
        static const int kn[] = {5, 7, 9, 11, 13, 16, 17};
        for (int i = 0; i < 7; i++)
            knight_case((int)rnd_range(5, 14), (int)rnd_range(5, 40), kn[i]);
    }
    printf("cases %d (GF(2) %d, bit-sliced %d, row prefixes %d)\n", n_cases, n_gf2, n_packed, n_prefix);
    CHECK(n_gf2 > 50 && n_packed > 50 && n_prefix > 50);
    return t_done();
}
