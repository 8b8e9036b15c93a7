/* t-bitsliced: csrc/dense/bitsliced.c (the bit-sliced unit-pivot row echelon over GF(3),
 * Z/4 and Z/8, phase 1 of csrc/dense/zn.c) against the same elimination done entry by
 * entry here on whole rows (the first row in the current order with a unit at the
 * column, swapped in, scaled by the pivot, which is its own inverse, every row below
 * losing its entry times the pivot row), from a random initial row order:
 *   - every output equals the oracle's: K1, pc, ipiv, uinv (u * u = 1 mod q), the
 *     multipliers at ml_gf3_loff(m, k), the final row order and the reduced matrix
 *     (residual rows zero over GF(3)); entries past column r of a row (stride > r) are
 *     left alone; the output arrays are allocated at exactly their documented sizes;
 *   - matrices: uniform, low rank (skipped columns), a third of the columns even (over
 *     the rings: columns without a unit, skipped, their entries carried through later
 *     row operations, across panels), zero columns, repeated rows; m and r 1..9, 1 x k
 *     and k x 1, and up to 200 x 200 (several 64-column panels and Four Russians
 *     groups); the variant uses tiny table chunks and groups so the chunked table loops
 *     run on small matrices;
 *   - every SIMD path this CPU has (ml_simd_set): the same outputs;
 *   - ml_gf3_loff(m, k) = sum_{j<k} (m - 1 - j);
 *   - refusals and edges: q = 2, 5, 9, 16 (-1), m = 0 or r = 0 (0, nothing written);
 *   - the stop: a stop requested before the call (process-wide, or a scope's context
 *     flag) gives -2, and is taken.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: dense/bitsliced.c base/cpu.c base/interrupt.c
 * ml-test-variant: tiny -DML_GF3_CHUNK=2 -DML_GF3_GMAX=2 -DML_Z4_GMAX=2 -DML_Z8_GMAX=2 */
#include "dense/bitsliced.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0xB175C1CEDull
#include "t-util.h"

/* the oracle: phase 1 entry by entry on whole rows; same outputs as the module */
static long oracle(unsigned q, size_t m, size_t r, uint16_t *a, size_t stride, size_t *pc,
                   size_t *ipiv, uint8_t *uinv, uint8_t *lpool, size_t *rows)
{
    size_t t = 0, off = 0;
    for (size_t c = 0; c < r && t < m; c++) {
        size_t piv = t;
        while (piv < m && !(q == 3 ? a[rows[piv] * stride + c] % 3 != 0
                                   : a[rows[piv] * stride + c] % 2 == 1))
            piv++;
        if (piv == m) continue;                     /* no unit: a skipped column */
        size_t th = rows[t];
        rows[t] = rows[piv];
        rows[piv] = th;
        ipiv[t] = piv;
        uint16_t *pr = a + rows[t] * stride;
        unsigned u = pr[c], ui = 0;
        for (unsigned v = 1; v < q; v++)
            if (u * v % q == 1) ui = v;
        CHECK(ui == u, "q=%u: the unit %u is not its own inverse", q, u);
        uinv[t] = (uint8_t)ui;
        for (size_t j = 0; j < r; j++) pr[j] = (uint16_t)(pr[j] * ui % q);
        pc[t] = c;
        for (size_t i = t + 1; i < m; i++) {
            uint16_t *ri = a + rows[i] * stride;
            unsigned x = ri[c];
            lpool[off + i - t - 1] = (uint8_t)x;
            for (size_t j = 0; j < r; j++) ri[j] = (uint16_t)((ri[j] + (q - x) * pr[j]) % q);
        }
        off += m - 1 - t;
        t++;
    }
    return (long)t;
}

/* a random m x r matrix over Z/q of one of several kinds, at stride (junk beyond r) */
static uint16_t *random_matrix(unsigned q, size_t m, size_t r, size_t stride, int kind)
{
    uint16_t *a = malloc(m * stride * sizeof(uint16_t) + 2);
    for (size_t i = 0; i < m * stride; i++) a[i] = (uint16_t)(0xBEEF + i);   /* junk */
    size_t k = (size_t)rnd_range(0, (int64_t)(m < r ? m : r));
    uint16_t *B = malloc((m * k + 1) * sizeof(uint16_t)), *C = malloc((k * r + 1) * sizeof(uint16_t));
    for (size_t i = 0; i < m * k; i++) B[i] = (uint16_t)(rnd() % q);
    for (size_t i = 0; i < k * r; i++) C[i] = (uint16_t)(rnd() % q);
    uint8_t *even = malloc(r);                      /* columns without a unit (kind 2) */
    for (size_t j = 0; j < r; j++) even[j] = rnd() % 3 == 0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < r; j++) {
            unsigned v = 0;
            switch (kind) {
            case 0: v = (unsigned)(rnd() % q); break;                      /* uniform */
            case 1:                                                      /* rank <= k */
                for (size_t l = 0; l < k; l++) v += (unsigned)B[i * k + l] * C[l * r + j];
                v %= q;
                break;
            case 2: v = (unsigned)(rnd() % q) * (even[j] ? 2u : 1u) % q; break;   /* even columns */
            default: v = rnd() % 3 ? 0 : (unsigned)(rnd() % q); break;      /* sparse */
            }
            a[i * stride + j] = (uint16_t)v;
        }
    if (kind == 3) {                                 /* zero columns, repeated rows */
        for (size_t i = 0; i < m; i++) a[i * stride + rnd() % r] = 0;
        if (m > 1) {
            size_t i = (size_t)(rnd() % m), j = (size_t)(rnd() % m);
            memcpy(a + i * stride, a + j * stride, r * sizeof(uint16_t));
        }
    }
    free(B);
    free(C);
    free(even);
    return a;
}

static int n_cases, n_rank_def, n_wide, n_simd;

static void check_one(unsigned q, size_t m, size_t r, int kind)
{
    const size_t stride = r + (size_t)(rnd() % 3), kmax = m < r ? m : r;
    const size_t nl = ml_gf3_loff(m, kmax);
    char what[120];
    snprintf(what, sizeof what, "q=%u %zux%zu stride %zu kind %d", q, m, r, stride, kind);
    uint16_t *a0 = random_matrix(q, m, r, stride, kind);
    const size_t bytes = m * stride * sizeof(uint16_t);
    uint16_t *ao = malloc(bytes + 2);
    size_t *rows0 = malloc(m * sizeof(size_t)), *rowso = malloc(m * sizeof(size_t));
    size_t *pco = malloc(kmax * sizeof(size_t) + 1), *ipivo = malloc(kmax * sizeof(size_t) + 1);
    uint8_t *uinvo = malloc(kmax + 1), *lo = malloc(nl + 1);
    for (size_t i = 0; i < m; i++) rows0[i] = i;
    for (size_t i = m; i-- > 1;) {                  /* a random initial order */
        size_t j = (size_t)(rnd() % (i + 1)), t = rows0[i];
        rows0[i] = rows0[j];
        rows0[j] = t;
    }
    memcpy(ao, a0, bytes);
    memcpy(rowso, rows0, m * sizeof(size_t));
    const long ko = oracle(q, m, r, ao, stride, pco, ipivo, uinvo, lo, rowso);
    n_cases++;
    n_rank_def += (size_t)ko < kmax;
    n_wide += m > 64 || r > 64;
    static const int simds[] = {ML_SIMD_PORTABLE, ML_SIMD_AVX2, ML_SIMD_AVX512};
    for (int s = 0; s < 3; s++) {
        if (!ml_cpu_supports(simds[s]) || ml_simd_set(simds[s]) != 0) continue;
        n_simd += s > 0;
        /* exact sizes, so a write past them is an ASan report */
        uint16_t *a = malloc(bytes + 2);
        size_t *rows = malloc(m * sizeof(size_t));
        size_t *pc = malloc(kmax ? kmax * sizeof(size_t) : 1), *ipiv = malloc(kmax ? kmax * sizeof(size_t) : 1);
        uint8_t *uinv = malloc(kmax ? kmax : 1), *lp = malloc(nl ? nl : 1);
        memcpy(a, a0, bytes);
        memcpy(rows, rows0, m * sizeof(size_t));
        const long k = ml_bitsliced_echelon(q, m, r, a, stride, pc, ipiv, uinv, lp, rows);
        CHECK(k == ko, "%s simd %d: K1 %ld, oracle %ld", what, s, k, ko);
        if (k == ko) {
            const size_t K = (size_t)k;
            CHECK(!memcmp(pc, pco, K * sizeof(size_t)), "%s simd %d: pivot columns", what, s);
            CHECK(!memcmp(ipiv, ipivo, K * sizeof(size_t)), "%s simd %d: row swaps", what, s);
            CHECK(!memcmp(uinv, uinvo, K), "%s simd %d: pivot inverses", what, s);
            CHECK(!memcmp(lp, lo, ml_gf3_loff(m, K)), "%s simd %d: multipliers", what, s);
            CHECK(!memcmp(rows, rowso, m * sizeof(size_t)), "%s simd %d: row order", what, s);
            CHECK(!memcmp(a, ao, bytes), "%s simd %d: the reduced matrix (or junk past r)", what, s);
            if (q == 3) {
                int zero = 1;
                for (size_t i = K; i < m; i++)
                    for (size_t j = 0; j < r; j++) zero &= a[rows[i] * stride + j] == 0;
                CHECK(zero, "%s simd %d: residual rows not zero over GF(3)", what, s);
            }
        }
        free(a); free(rows); free(pc); free(ipiv); free(uinv); free(lp);
    }
    ml_simd_set(ML_SIMD_PORTABLE);
    for (int s = 2; s >= 0; s--)
        if (ml_cpu_supports(simds[s]) && ml_simd_set(simds[s]) == 0) break;
    free(a0); free(ao); free(rows0); free(rowso); free(pco); free(ipivo); free(uinvo); free(lo);
}

static void check_edges(void)
{
    /* ml_gf3_loff */
    for (size_t m = 1; m < 40; m++) {
        size_t s = 0;
        for (size_t k = 0; k <= m; k++) {
            CHECK(ml_gf3_loff(m, k) == s, "loff(%zu, %zu) = %zu, sum %zu", m, k, ml_gf3_loff(m, k), s);
            if (k < m) s += m - 1 - k;
        }
    }
    uint16_t a[12];
    size_t pc[3], ipiv[3], rows[4];
    uint8_t uinv[3], lp[8];
    static const unsigned badq[] = {0, 1, 2, 5, 6, 7, 9, 16};
    for (size_t i = 0; i < sizeof badq / sizeof badq[0]; i++) {
        for (size_t j = 0; j < 12; j++) a[j] = (uint16_t)(j % 2);
        for (size_t j = 0; j < 4; j++) rows[j] = j;
        CHECK(ml_bitsliced_echelon(badq[i], 4, 3, a, 3, pc, ipiv, uinv, lp, rows) == -1,
              "q = %u accepted", badq[i]);
    }
    /* m = 0 or r = 0: nothing to do, nothing written */
    for (size_t j = 0; j < 12; j++) a[j] = 1;
    memset(pc, 0x77, sizeof pc);
    CHECK(ml_bitsliced_echelon(3, 0, 3, a, 3, pc, ipiv, uinv, lp, rows) == 0);
    CHECK(ml_bitsliced_echelon(4, 4, 0, a, 3, pc, ipiv, uinv, lp, rows) == 0);
    int untouched = pc[0] == pc[1];
    for (size_t j = 0; j < 12; j++) untouched &= a[j] == 1;
    CHECK(untouched, "m = 0 / r = 0 wrote something");
    /* the stop: a stop requested before the call */
    for (int how = 0; how < 2; how++)
        for (unsigned qi = 0; qi < 3; qi++) {
            const unsigned q = qi == 0 ? 3 : qi == 1 ? 4 : 8;
            const size_t m = 100, r = 100;
            uint16_t *b = random_matrix(q, m, r, r, 0);
            size_t *rw = malloc(m * sizeof(size_t)), *pcs = malloc(m * sizeof(size_t)),
                   *ips = malloc(m * sizeof(size_t));
            uint8_t *ui = malloc(m), *l = malloc(ml_gf3_loff(m, m));
            for (size_t i = 0; i < m; i++) rw[i] = i;
            _Atomic int stop = 1;
            ml_scope sc;
            if (how) ml_scope_enter(&sc, &stop, NULL, NULL, 0);
            else ml_interrupt_request();
            long k = ml_bitsliced_echelon(q, m, r, b, r, pcs, ips, ui, l, rw);
            if (how) CHECK(ml_scope_leave(&sc) != 0, "the scope saw no stop");
            else CHECK(ml_interrupt_take() == 1, "the stop was not taken");
            CHECK(k == -2, "stop (%s), q = %u: %ld, want -2", how ? "scope" : "process", q, k);
            /* and without a stop it runs */
            for (size_t i = 0; i < m; i++) rw[i] = i;
            k = ml_bitsliced_echelon(q, m, r, b, r, pcs, ips, ui, l, rw);
            CHECK(k > 0, "q = %u after the stop: %ld", q, k);
            free(b); free(rw); free(pcs); free(ips); free(ui); free(l);
        }
}

int main(void)
{
    static const unsigned Q[] = {3, 4, 8};
    check_edges();
    for (int trial = 0; trial < 900; trial++) {
        const unsigned q = Q[trial % 3];
        size_t m = (size_t)rnd_range(1, 9), r = (size_t)rnd_range(1, 9);
        if (trial % 7 == 0) m = 1;
        if (trial % 11 == 0) r = 1;
        if (trial % 13 == 0) { m = (size_t)rnd_range(1, 140); r = (size_t)rnd_range(1, 140); }
        if (trial % 29 == 0) { m = (size_t)rnd_range(60, 200); r = (size_t)rnd_range(60, 200); }
        check_one(q, m, r, (trial / 3) % 4);
    }
    printf("cases %d (rank deficient %d, wider than a word %d, on other SIMD paths %d)\n",
           n_cases, n_rank_def, n_wide, n_simd);
    CHECK(n_rank_def > 200 && n_wide > 30);
    return t_done();
}
