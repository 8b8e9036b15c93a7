/* t-rowchase: csrc/chase/rowchase.c and its pieces (the symbolic chase with online
 * elimination) against the tap matrix A of random grid descriptions (chase-oracle.h):
 * n = q prime (2, 3, 5, 7, 251), q a prime power (4, 8, 9, 16: pending equations), and
 * q a prime-power factor of a composite n (6, 12), wrap, holes, locks, mixed patterns,
 * 1 x k and k x 1, 0 to 3 right-hand sides (solvable ones A x_true and random ones):
 *   - over a prime: ok[j] = (rank [A | b_j] = rank A) and nfree = taps - rank A (plain
 *     elimination here), no pending equations;
 *   - tiny boards (q^taps <= 2^16): every x enumerated: b_j solvable mod q exactly when
 *     ok[j] and some free values u solve the pending system (a u + c_j = 0, u
 *     enumerated), and |ker A mod q| = #{u : a u = 0};
 *   - symbol values from random (or pending-solving) free values: x = numeric(b_j, z)
 *     solves A x = b_j mod q; the homogeneous ones (j < 0) give kernel vectors, two
 *     different u two different x;
 *   - counts: eliminated - retired + free = nsym, checks + eliminated - retired +
 *     pending = nres, free symbols ascending, min_width <= width;
 *   - GF(3) bit-sliced and bytes, and every SIMD path of the row kernels, give the same
 *     free symbols, flags and symbol values;
 *   - rows that each leave a free symbol (the horizontal pattern on 8 columns, singular
 *     mod 2, 3, 4, 7, 9; a few holes, no wrap): symbols retired, the checks above hold;
 *   - patterns whose equations have no unit coefficient mod p^e (Z/4, Z/8, Z/9, Z/12;
 *     wrap or not): pending equations, the checks above hold;
 *   - refusals: q not a prime power (err 1), q not dividing n (1), composite n with
 *     q = 0 (1), right-hand sides without b (1), max_bytes too small (4: GF(3) rows
 *     bit-sliced and as bytes, Z/4 with pending equations, the Z/4 factor of Z/12; the
 *     same runs taken with a larger budget), a stop requested before the run (3).
 * (The row chase runs on the calling thread alone: no thread count to compare.)
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: chase/rowchase.c chase/rowchase_kernels.c chase/rowchase_symbols.c chase/plan.c chase/numeric.c base/cpu.c base/interrupt.c */
#include "chase/rowchase.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include <stdio.h>

#define ML_T_SEED 0x0C4A5E5ull
#include "t-util.h"
#include "chase-oracle.h"

enum { KMAX = 3 };

static int64_t ipow(int64_t a, int64_t e)
{
    int64_t r = 1;
    while (e-- > 0) {
        r *= a;
        if (r > (1 << 20)) return 1 << 21;
    }
    return r;
}

/* 1 when A x = b mod q at every active tile (x: hw values, read at taps) */
static int solves(const co_desc *d, const uint8_t *x, const uint8_t *b, unsigned q)
{
    const size_t hw = co_hw(d);
    uint8_t *ax = malloc(hw);
    co_ax(d, x, ax);
    int ok = 1;
    for (size_t c = 0; c < hw; c++) ok &= !co_act(d, c) || ax[c] % q == b[c] % q;
    free(ax);
    return ok;
}

/* increment a mixed counter of len digits mod q; 0 when it wrapped to all zeros */
static int next_vec(uint8_t *v, size_t len, unsigned q)
{
    for (size_t i = 0; i < len; i++) {
        if (++v[i] < q) return 1;
        v[i] = 0;
    }
    return 0;
}

/* does a u + c_j = 0 (mod q) hold (j < 0: c = 0)? */
static int pend_ok(const uint8_t *a, const uint8_t *c, size_t npend, size_t nfree, size_t k,
                   long j, const uint8_t *u, unsigned q)
{
    for (size_t i = 0; i < npend; i++) {
        unsigned s = j >= 0 ? c[i * k + (size_t)j] : 0;
        for (size_t f = 0; f < nfree; f++) s += (unsigned)a[i * nfree + f] * u[f];
        if (s % q) return 0;
    }
    return 1;
}

typedef struct {
    size_t nfree, npend;
    uint8_t ok[KMAX];
    int64_t *free_syms;
    uint8_t *z;            /* symbol values for right-hand side 0 (or the kernel) at u0 */
} run_summary;

static int n_cases, n_brute, n_pending, n_rank;

static void check_rowchase(co_desc *d, int q)
{
    int err = -1;
    ml_chase *P = co_plan(d, &err);
    CHECK(P && err == 0, "%s: no plan (err %d)", d->what, err);
    if (!P) return;
    n_cases++;
    const size_t hw = co_hw(d), nsym = ml_chase_nsym(P), nres = ml_chase_nres(P);
    const unsigned uq = (unsigned)q;
    const size_t k = (size_t)(rnd() % (KMAX + 1));
    uint8_t *b = malloc(KMAX * hw + 1), *xt = malloc(hw);
    for (size_t j = 0; j < k; j++) {
        if (rnd() % 2) co_solvable(d, b + j * hw, xt);
        else for (size_t t = 0; t < hw; t++) b[j * hw + t] = (uint8_t)(rnd() % (unsigned)d->n);
    }
    char what[220];
    snprintf(what, sizeof what, "%s q=%d k=%zu", d->what, q, k);
    ml_rowchase *R = ml_rowchase_run(P, q == d->n && rnd() % 2 ? 0 : q, k ? b : NULL, k,
                                     (size_t)1 << 30, &err);
    CHECK(R && err == 0, "%s: no run (err %d)", what, err);
    if (!R) { free(b); free(xt); ml_chase_free(P); return; }
    const size_t nfree = ml_rowchase_nfree(R), npend = ml_rowchase_npending(R);
    const size_t nel = ml_rowchase_neliminated(R), nret = ml_rowchase_nretired(R);
    CHECK(nel - nret + nfree == nsym, "%s: eliminated %zu - retired %zu + free %zu != nsym %zu",
          what, nel, nret, nfree, nsym);
    CHECK(ml_rowchase_nchecks(R) + nel - nret + npend == nres,
          "%s: checks %zu + eliminated + pending %zu != nres %zu", what, ml_rowchase_nchecks(R),
          npend, nres);
    CHECK(ml_rowchase_min_width(P) <= ml_rowchase_width(R), "%s: min width %zu > width %zu", what,
          ml_rowchase_min_width(P), ml_rowchase_width(R));
    int64_t *fs = malloc((nfree + 1) * sizeof(int64_t));
    ml_rowchase_free_symbols(R, fs);
    for (size_t f = 0; f < nfree; f++)
        CHECK(fs[f] >= 0 && (size_t)fs[f] < nsym && (f == 0 || fs[f] > fs[f - 1]),
              "%s: free symbols not ascending symbol numbers", what);
    uint8_t ok[KMAX + 1] = {0};
    ml_rowchase_ok(R, ok);
    uint8_t *pa = malloc(npend * nfree + 1), *pc = malloc(npend * k + 1);
    ml_rowchase_pending(R, pa, pc);
    if (co_is_prime(q)) CHECK(npend == 0, "%s: %zu pending equations over a prime", what, npend);
    n_pending += npend > 0;
    /* the oracle: ranks over a prime */
    if (co_is_prime(q) && hw <= 200) {
        n_rank++;
        uint8_t *A = co_dense(d), *Ab = malloc(hw * (hw + 1));
        size_t ntaps = 0;
        for (size_t t = 0; t < hw; t++) ntaps += co_tap(d, t);
        size_t ra = co_rank_p(A, hw, hw, hw, uq);
        CHECK(nfree == ntaps - ra, "%s: nfree %zu, dim ker A %zu", what, nfree, ntaps - ra);
        for (size_t j = 0; j < k; j++) {
            for (size_t c = 0; c < hw; c++) {
                memcpy(Ab + c * (hw + 1), A + c * hw, hw);
                Ab[c * (hw + 1) + hw] = co_act(d, c) ? b[j * hw + c] : 0;
            }
            int solvable = co_rank_p(Ab, hw, hw + 1, hw + 1, uq) == ra;
            CHECK(ok[j] == solvable, "%s: ok[%zu] = %u, solvable %d", what, j, ok[j], solvable);
        }
        free(A); free(Ab);
    }
    /* the oracle: every x of a tiny board */
    size_t ntaps = 0;
    for (size_t t = 0; t < hw; t++) ntaps += co_tap(d, t);
    if (ipow(q, (int64_t)ntaps) <= 1 << 16 && ipow(q, (int64_t)nfree) <= 1 << 16) {
        n_brute++;
        int64_t kernel = 0, solvable[KMAX] = {0};
        uint8_t *x = calloc(hw, 1), *v = calloc(ntaps + 1, 1), *zero = calloc(hw, 1);
        do {
            size_t i = 0;
            for (size_t t = 0; t < hw; t++) if (co_tap(d, t)) x[t] = v[i++];
            kernel += solves(d, x, zero, uq);
            for (size_t j = 0; j < k; j++) solvable[j] |= solves(d, x, b + j * hw, uq);
        } while (next_vec(v, ntaps, uq));
        /* the free values solving the pending system, per right-hand side */
        uint8_t *u = calloc(nfree + 1, 1);
        int64_t ker_u = 0, have[KMAX] = {0};
        do {
            ker_u += pend_ok(pa, pc, npend, nfree, k, -1, u, uq);
            for (size_t j = 0; j < k; j++) have[j] |= pend_ok(pa, pc, npend, nfree, k, (long)j, u, uq);
        } while (next_vec(u, nfree, uq));
        CHECK(kernel == ker_u, "%s: |ker A| = %lld, free values solving the pending system %lld",
              what, (long long)kernel, (long long)ker_u);
        for (size_t j = 0; j < k; j++)
            CHECK(solvable[j] == (ok[j] && have[j]), "%s: b_%zu solvable %lld, ok %u, pending solvable %lld",
                  what, j, (long long)solvable[j], ok[j], (long long)have[j]);
        free(x); free(v); free(zero); free(u);
    }
    /* symbol values: solutions and kernel vectors */
    uint8_t *u = malloc(nfree + 1), *z = malloc(nsym + 1), *x = malloc(hw), *x2 = malloc(hw),
            *rho = malloc(nres + 1), *zero = calloc(hw, 1);
    for (long j = -1; j < (long)k; j++) {
        if (j >= 0 && !ok[j]) continue;
        /* free values solving the pending system (random ones when there is none) */
        int found = 0;
        for (int tries = 0; tries < 200 && !found; tries++) {
            for (size_t f = 0; f < nfree; f++) u[f] = tries ? (uint8_t)(rnd() % uq) : 0;
            found = pend_ok(pa, pc, npend, nfree, k, j, u, uq);
        }
        if (!found) continue;
        CHECK(ml_rowchase_symbols(R, j, u, z) == 0);
        const uint8_t *bj = j >= 0 ? b + (size_t)j * hw : zero;
        ml_chase_numeric(P, bj, z, x, rho);
        CHECK(solves(d, x, bj, uq), "%s: the symbols of rhs %ld do not solve A x = b mod q", what, j);
        if (j < 0 && nfree && npend == 0) {
            /* another kernel vector from other free values: another x */
            size_t f = (size_t)(rnd() % nfree);
            u[f] = (uint8_t)((u[f] + 1) % uq);
            CHECK(ml_rowchase_symbols(R, -1, u, z) == 0);
            ml_chase_numeric(P, zero, z, x2, rho);
            CHECK(solves(d, x2, zero, uq) && memcmp(x, x2, hw), "%s: kernel vectors of two u", what);
        }
    }
    /* u = NULL is u = 0 */
    if (npend == 0) {
        memset(u, 0, nfree + 1);
        uint8_t *z2 = malloc(nsym + 1);
        CHECK(ml_rowchase_symbols(R, k ? 0 : -1, u, z) == 0 && ml_rowchase_symbols(R, k ? 0 : -1, NULL, z2) == 0);
        CHECK(!memcmp(z, z2, nsym), "%s: u = NULL differs from u = 0", what);
        free(z2);
    }
    /* the other representations and SIMD paths: the same results */
    if (q == 3 || rnd() % 4 == 0) {
        for (size_t f = 0; f < nfree; f++) u[f] = (uint8_t)(rnd() % uq);
        uint8_t *zref = malloc(nsym + 1), *z2 = malloc(nsym + 1);
        ml_rowchase_symbols(R, -1, u, zref);
        int simds[3] = {ML_SIMD_PORTABLE, ML_SIMD_AVX2, ML_SIMD_AVX512};
        for (int bs = 0; bs < 2; bs++)
            for (int s = 0; s < 3; s++) {
                if (!ml_cpu_supports(simds[s]) || ml_simd_set(simds[s]) != 0) continue;
                ml_rowchase_set_bitsliced(bs);
                ml_rowchase *R2 = ml_rowchase_run(P, q, k ? b : NULL, k, (size_t)1 << 30, &err);
                CHECK(R2 != NULL, "%s: no run (bitsliced %d, simd %d)", what, bs, s);
                if (!R2) continue;
                uint8_t ok2[KMAX + 1] = {0};
                ml_rowchase_ok(R2, ok2);
                int64_t *fs2 = malloc((nfree + 1) * sizeof(int64_t));
                CHECK(ml_rowchase_nfree(R2) == nfree, "%s: nfree (bitsliced %d, simd %d)", what, bs, s);
                if (ml_rowchase_nfree(R2) == nfree) {
                    ml_rowchase_free_symbols(R2, fs2);
                    ml_rowchase_symbols(R2, -1, u, z2);
                    CHECK(!memcmp(fs, fs2, nfree * sizeof(int64_t)) && !memcmp(ok, ok2, k) &&
                              !memcmp(z2, zref, nsym),
                          "%s: bitsliced %d, simd %d: other results", what, bs, s);
                }
                free(fs2);
                ml_rowchase_free(R2);
            }
        ml_rowchase_set_bitsliced(1);
        ml_simd_set(ML_SIMD_PORTABLE);
        for (int s = 2; s >= 0; s--)
            if (ml_cpu_supports(simds[s]) && ml_simd_set(simds[s]) == 0) break;
        free(zref); free(z2);
    }
    /* a stop requested before the run: NULL, err 3 */
    ml_interrupt_request();
    ml_rowchase *R3 = ml_rowchase_run(P, q, k ? b : NULL, k, (size_t)1 << 30, &err);
    CHECK(R3 == NULL && err == 3, "%s: after a stop: err %d", what, err);
    CHECK(ml_interrupt_take() == 1);
    ml_rowchase_free(R3);
    free(u); free(z); free(x); free(x2); free(rho); free(zero); free(pa); free(pc); free(fs);
    free(b); free(xt);
    ml_rowchase_free(R);
    ml_chase_free(P);
}

static void check_refusals(void)
{
    int32_t dr[5] = {1, 0, 0, 0, -1}, dc[5] = {0, 1, 0, -1, 0}, cnt[5] = {1, 1, 1, 1, 1};
    int err;
    ml_chase *P12 = ml_chase_plan(5, 5, 12, 0, NULL, NULL, 5, dr, dc, 1, cnt, NULL, &err);
    ml_chase *P3 = ml_chase_plan(40, 40, 3, 0, NULL, NULL, 5, dr, dc, 1, cnt, NULL, &err);
    uint8_t b[1600] = {0};
    struct { ml_chase *P; int q; const uint8_t *b; size_t k, max; int err; const char *why; } bad[] = {
        {P12, 6, NULL, 0, 1u << 30, 1, "q = 6 is no prime power"},
        {P12, 5, NULL, 0, 1u << 30, 1, "q = 5 does not divide 12"},
        {P12, 0, NULL, 0, 1u << 30, 1, "q = 0 and n = 12"},
        {P12, 8, NULL, 0, 1u << 30, 1, "q = 8 does not divide 12"},
        {P3, 0, NULL, 2, 1u << 30, 1, "k = 2 without b"},
        {P3, 0, b, 1, 64, 4, "max_bytes = 64"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = -1;
        ml_rowchase *R = ml_rowchase_run(bad[i].P, bad[i].q, bad[i].b, bad[i].k, bad[i].max, &err);
        CHECK(R == NULL && err == bad[i].err, "%s: err %d, want %d", bad[i].why, err, bad[i].err);
        ml_rowchase_free(R);
    }
    /* max_bytes too small on 80 x 80 boards with 5 % holes: GF(3) bit-sliced and bytes,
     * Z/4 with every coefficient 2 (pending equations), the Z/4 factor of Z/12; the same
     * runs fit a larger budget */
    static const struct { int n, q, two; } budget[] = {{3, 3, 0}, {3, 3, 0}, {4, 4, 1}, {12, 4, 0}};
    for (int i = 0; i < 4; i++) {
        co_desc d;
        memset(&d, 0, sizeof d);
        d.h = d.w = 80;
        d.n = budget[i].n;
        d.npat = 1;
        if (budget[i].two) {   /* (0, 0) and (1, 0), twice each */
            d.nu = 2;
            d.udr[0] = 1; d.udr[1] = 0;
            d.cnt[0] = d.cnt[1] = 2;
        } else {               /* the cross */
            d.nu = 5;
            for (int u = 0; u < 5; u++) { d.udr[u] = dr[u]; d.udc[u] = dc[u]; d.cnt[u] = 1; }
        }
        d.active = malloc(6400);
        d.tappable = malloc(6400);
        for (int t = 0; t < 6400; t++) d.active[t] = d.tappable[t] = rnd() % 20 != 0;
        ml_chase *P = co_plan(&d, &err);
        CHECK(P != NULL, "budget case %d: no plan", i);
        ml_rowchase_set_bitsliced(i != 1);
        err = -1;
        ml_rowchase *R = P ? ml_rowchase_run(P, budget[i].q, NULL, 0, 4096, &err) : NULL;
        CHECK(R == NULL && err == 4, "budget case %d: max_bytes 4096 taken (err %d)", i, err);
        ml_rowchase_free(R);
        err = -1;
        R = P ? ml_rowchase_run(P, budget[i].q, NULL, 0, (size_t)1 << 28, &err) : NULL;
        CHECK(R && err == 0, "budget case %d: 256 MiB refused (err %d)", i, err);
        ml_rowchase_free(R);
        ml_rowchase_set_bitsliced(1);
        ml_chase_free(P);
        co_free(&d);
    }
    /* the same plans taken with a good q */
    ml_rowchase *R = ml_rowchase_run(P12, 4, b, 1, 1u << 30, &err);
    CHECK(R && err == 0, "q = 4 of n = 12 refused (err %d)", err);
    ml_rowchase_free(R);
    R = ml_rowchase_run(P12, 3, b, 1, 1u << 30, &err);
    CHECK(R && err == 0, "q = 3 of n = 12 refused (err %d)", err);
    ml_rowchase_free(R);
    ml_chase_free(P12);
    ml_chase_free(P3);
}

/* A board of the given offsets (tap -> tile) and counts, a fraction holes / 100 of
 * holes and locks / 100 of locked tiles. */
static void desc_of(co_desc *d, int h, int w, int n, int wrap, int nu, const int32_t *dr,
                    const int32_t *dc, const int32_t *cnt, int holes, int locks)
{
    memset(d, 0, sizeof *d);
    d->h = h; d->w = w; d->n = n; d->wrap = wrap; d->nu = nu; d->npat = 1;
    for (int u = 0; u < nu; u++) { d->udr[u] = dr[u]; d->udc[u] = dc[u]; d->cnt[u] = cnt[u]; }
    co_sort(d);
    const size_t hw = co_hw(d);
    d->active = malloc(hw);
    d->tappable = malloc(hw);
    for (size_t t = 0; t < hw; t++) {
        d->active[t] = (int)(rnd() % 100) >= holes;
        d->tappable[t] = d->active[t] && (int)(rnd() % 100) >= locks;
    }
    snprintf(d->what, sizeof d->what, "%dx%d n=%d wrap=%d nu=%d holes=%d%% locks=%d%%", h, w, n,
             wrap, nu, holes, locks);
}

/* Rows that each leave a free symbol: the horizontal pattern on 8 columns (the path of
 * 8 tiles is singular mod 2, 3, 4, 7, 9), no wrap: free columns retired. Pending
 * equations: patterns whose coefficients are multiples of p mod p^e. */
static void check_retired_and_pending(void)
{
    static const int32_t hr[3] = {0, 0, 0}, hc[3] = {1, 0, -1}, ones[3] = {1, 1, 1};
    static const int hn[] = {2, 3, 7, 4, 9};
    for (size_t i = 0; i < sizeof hn / sizeof hn[0]; i++) {
        co_desc d;
        desc_of(&d, 120, 8, hn[i], 0, 3, hr, hc, ones, 2, 0);
        int err = -1;
        ml_chase *P = co_plan(&d, &err);
        ml_rowchase *R = P ? ml_rowchase_run(P, hn[i], NULL, 0, (size_t)1 << 30, &err) : NULL;
        CHECK(R != NULL, "%s: no run (err %d)", d.what, err);
        if (R) {
            CHECK(ml_rowchase_nretired(R) > 0, "%s: nothing retired", d.what);
            CHECK(ml_rowchase_nfree(R) > 10, "%s: %zu free symbols", d.what, ml_rowchase_nfree(R));
        }
        ml_rowchase_free(R);
        ml_chase_free(P);
        check_rowchase(&d, hn[i]);
        co_free(&d);
    }
    /* Python's test patterns: offsets with multiplicities */
    static const struct { int n, nu; int32_t dr[5], dc[5], cnt[5]; int q[2]; } pend[] = {
        {4, 3, {0, 1, 0}, {0, 0, 1}, {2, 2, 2}, {4, 0}},                       /* every coefficient 2 */
        {8, 5, {0, 1, 0, 0, -1}, {0, 0, 1, -1, 0}, {1, 2, 1, 2, 1}, {8, 0}},
        {9, 3, {0, 1, 0}, {0, 0, 1}, {3, 1, 3}, {9, 0}},
        {12, 3, {0, 1, 0}, {0, 0, 1}, {2, 2, 2}, {4, 3}},
    };
    for (size_t i = 0; i < sizeof pend / sizeof pend[0]; i++) {
        size_t npend = 0;   /* over both boards, with and without wrap */
        for (int wrap = 0; wrap < 2; wrap++) {
            co_desc d;
            desc_of(&d, 7, 8, pend[i].n, wrap, pend[i].nu, pend[i].dr, pend[i].dc, pend[i].cnt,
                    10, 5);
            int err = -1;
            ml_chase *P = co_plan(&d, &err);
            for (int j = 0; j < 2 && P && pend[i].q[j]; j++) {
                ml_rowchase *R = ml_rowchase_run(P, pend[i].q[j], NULL, 0, (size_t)1 << 30, &err);
                CHECK(R != NULL, "%s: no run mod %d (err %d)", d.what, pend[i].q[j], err);
                if (R) npend += ml_rowchase_npending(R);
                ml_rowchase_free(R);
                check_rowchase(&d, pend[i].q[j]);
            }
            ml_chase_free(P);
            co_free(&d);
        }
        CHECK(npend > 0, "n = %d, pattern %zu: no pending equation", pend[i].n, i);
    }
}

int main(void)
{
    /* (n, q): primes, prime powers, prime-power factors of composite n */
    static const int nq[][2] = {{2, 2}, {3, 3}, {5, 5}, {7, 7}, {251, 251}, {4, 4}, {8, 8},
                                {9, 9}, {16, 16}, {6, 2}, {6, 3}, {12, 4}, {12, 3}};
    const int NQ = (int)(sizeof nq / sizeof nq[0]);
    check_refusals();
    check_retired_and_pending();
    for (int trial = 0; trial < 390; trial++) {
        co_desc d;
        int h = 0, w = 0, kind = trial % 3 == 0 ? 1 : trial % 3 == 1 ? 2 : 0;
        const int *p = nq[trial % NQ];
        switch (trial % 9) {
        case 0: h = 1; w = (int)rnd_range(1, 14); break;
        case 1: w = 1; h = (int)rnd_range(1, 14); break;
        case 2: h = (int)rnd_range(1, 3); w = (int)rnd_range(1, 4); break;   /* tiny */
        case 3: h = (int)rnd_range(1, 3); w = (int)rnd_range(1, 3); break;   /* tiny */
        case 4: if (trial % 18 == 4) { h = (int)rnd_range(9, 12); w = (int)rnd_range(9, 12); } break;
        default: break;
        }
        co_random(&d, h, w, p[0], kind);
        check_rowchase(&d, p[1]);
        co_free(&d);
    }
    printf("cases %d (ranks %d, enumerated %d, with pending equations %d)\n", n_cases, n_rank,
           n_brute, n_pending);
    CHECK(n_rank > 100 && n_brute > 60 && n_pending > 10);
    return t_done();
}
