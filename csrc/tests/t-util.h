/* t-util.h: what the C tests share (csrc/tests/README.md): a seeded random source, a
 * failure counter with CHECK, the exit status, and two oracles of arithmetic mod a prime
 * (inv_p, rank_p). Header only, included by a test as
 * "t-util.h"; not part of any build but the tests' (GNU C11, as they are built).
 *
 *   #define ML_T_SEED 0x5EEDC0DEull   (optional, before the include: the test's seed)
 *   #include "t-util.h"
 *   ... CHECK(x == y, "x=%d y=%d", x, y); CHECK(ok); ...
 *   return t_done();                   (prints fails=N; 0 when every check held)
 */
#ifndef ML_T_UTIL_H
#define ML_T_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef ML_T_SEED
#define ML_T_SEED 0x9E3779B97F4A7C15ull
#endif

/* The state of rnd(): a test may reset it (seed = ...) to replay a sequence. */
static uint64_t seed __attribute__((unused)) = ML_T_SEED;

/* The next 64 random bits (splitmix64: not linear over GF(2), unlike xorshift, so it
 * does not make structured matrices by accident). Deterministic: the same sequence at
 * every run from the same seed. */
static inline uint64_t rnd(void)
{
    uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform integer in lo..hi (hi - lo < 2^32; the modulo bias is negligible there). */
static inline int64_t rnd_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

/* Failed checks so far (CHECK counts them; a test may count its own too). */
static int fails __attribute__((unused)) = 0;

/* The rest of a CHECK's line: "-" and an optional printf-style note (the "-" keeps the
 * format non-empty when there is none), then a newline. */
__attribute__((format(printf, 1, 2), unused))
static void t_note(const char *fmt, ...)
{
    if (fmt[1]) {
        va_list ap;
        va_start(ap, fmt);
        printf(": ");
        vprintf(fmt + 1, ap);
        va_end(ap);
    }
    printf("\n");
}

/* CHECK(cond) or CHECK(cond, "format", args...): when cond is false, count a failure
 * and print "FAIL file:line: cond" and the note (the first 50 failures only, so a broken
 * routine does not flood the log). The note, when given, starts with a string literal. */
#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            if (fails++ < 50) {                                                           \
                printf("FAIL %s:%d: %s", __FILE__, __LINE__, #cond);                      \
                t_note("-" __VA_ARGS__);                                                  \
            }                                                                             \
        }                                                                                 \
    } while (0)

/* The inverse of a mod the prime p, by trying every candidate (an oracle independent of
 * the library's ml_gfp_inv); 0 when a = 0 mod p. */
static unsigned __attribute__((unused)) inv_p(unsigned a, unsigned p)
{
    for (unsigned x = 1; x < p; x++)
        if (a % p * x % p == 1) return x;
    return 0;
}

/* The rank of the rows x cols matrix M (bytes < p) mod the prime p, by plain Gauss-Jordan
 * elimination; M is destroyed. O(rows cols min(rows, cols)). */
static size_t __attribute__((unused)) rank_p(uint8_t *M, size_t rows, size_t cols, unsigned p)
{
    size_t rk = 0;
    for (size_t c = 0; c < cols && rk < rows; c++) {
        size_t piv = rk;
        while (piv < rows && M[piv * cols + c] == 0) piv++;
        if (piv == rows) continue;
        for (size_t j = 0; j < cols; j++) {
            uint8_t t = M[piv * cols + j];
            M[piv * cols + j] = M[rk * cols + j];
            M[rk * cols + j] = t;
        }
        unsigned iv = inv_p(M[rk * cols + c], p);
        for (size_t j = 0; j < cols; j++) M[rk * cols + j] = (uint8_t)(M[rk * cols + j] * iv % p);
        for (size_t i = 0; i < rows; i++) {
            unsigned f = M[i * cols + c];
            if (i == rk || !f) continue;
            for (size_t j = 0; j < cols; j++)
                M[i * cols + j] = (uint8_t)((M[i * cols + j] + (p - f) * M[rk * cols + j]) % p);
        }
        rk++;
    }
    return rk;
}

/* The tiny chase check of the structured tests (t-rowrec.c, t-symchase.c): every start
 * z of w digits mod p, when p^w <= 4096, is run through the chase `run` from b = 0 and
 * from b. The z whose last-row residual is zero from 0 must number |ker A| =
 * p^nullity, and the first z that zeroes b's residual must give taps x with A x = b
 * (`solves`), found exactly when the board is solvable. `run` and `solves` get `P`, the
 * test's own board; zero is h w zero cells, ez (w), x (h w) and last (w) are scratch.
 * Returns 1 when the starts were enumerated, 0 when p^w is too large. */
typedef void (*t_chase_run)(const void *P, const uint8_t *b, const uint8_t *z, uint8_t *x,
                            uint8_t *last);
typedef int (*t_chase_solves)(const void *P, const uint8_t *x, const uint8_t *b);
__attribute__((unused))
static int t_chase_enumerate(const char *what, const void *P, t_chase_run run,
                             t_chase_solves solves, size_t w, unsigned p, size_t nullity,
                             int solvable, const uint8_t *zero, const uint8_t *b, uint8_t *ez,
                             uint8_t *x, uint8_t *last)
{
    size_t pw = 1;
    for (size_t c = 0; c < w && pw <= 4096; c++) pw *= p;
    if (pw > 4096)
        return 0;
    size_t nker = 0, kerA = 1;
    int found = 0;
    for (size_t i = 0; i < nullity; i++) kerA *= p;
    for (size_t k = 0; k < pw; k++) {
        size_t v = k;
        for (size_t c = 0; c < w; c++, v /= p) ez[c] = (uint8_t)(v % p);
        run(P, zero, ez, x, last);
        int z0 = 1;
        for (size_t c = 0; c < w; c++) z0 &= last[c] == 0;
        nker += (size_t)z0;
        run(P, b, ez, x, last);
        int z1 = 1;
        for (size_t c = 0; c < w; c++) z1 &= last[c] == 0;
        if (z1 && !found) {           /* a solution: tap and apply */
            found = 1;
            CHECK(solves(P, x, b), "%s: X_h = 0 but A x != b", what);
        }
    }
    CHECK(nker == kerA, "%s: |ker A| = %zu, z with X_h = 0: %zu", what, kerA, nker);
    CHECK(found == solvable, "%s: solvable %d, some z solves %d", what, solvable, found);
    return 1;
}

/* Print "fails=N" and give the exit status: 0 when no check failed. */
__attribute__((unused))
static int t_done(void)
{
    printf("fails=%d\n", fails);
    fflush(stdout);
    return fails != 0;
}

#endif
