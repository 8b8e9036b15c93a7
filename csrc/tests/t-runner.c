/* t-runner: csrc/chase/runner.c (the symbolic chase's blocks shared among threads, the
 * left-right mirror, and its entry points ml_chase_matrix_gf2 / _zn / _zn_mode /
 * _gf2_rows / _zn_rows) against the residual matrix M computed from the numeric chase by
 * unit vectors (rho(z) = rho(0) - M z; the numeric chase checked against the tap matrix
 * A, chase-oracle.h) on random grid descriptions: n in 2..9, 12, 16, 251, wrap, holes,
 * locks, mixed patterns, uniform symmetric patterns (mirrored plans), 1 x k, k x 1:
 *   - 1, 2 and 3 threads (and 0, 40: clamped) give the oracle's M, byte for byte;
 *   - blocks: small ones (so a mirrored plan skips blocks and fills them from their
 *     mirror images), the defaults, and the MODLIGHTS_CHASE_BW / _BZ / _BP overrides;
 *     bit-sliced blocks of any number of symbols (rounded up to words);
 *   - packed (bit-sliced) and byte representations of Z/3, Z/4, Z/8 agree;
 *   - a prefix of the rows (no mirror there): those rows right, the rest untouched;
 *     rows > nres is nres; rows = 0 and nsym = 0 return 0 and write nothing;
 *   - named boards: the cross, the vertical line and two left-right symmetric custom
 *     patterns give mirrored plans on 5 x 150, 9 x 70, 3 x 201 (and 3 x 1100: every tap
 *     of the first row a symbol), the square and the knight do not, nor does a board
 *     with one locked tile; n = 2, 3, 4; blocks of 1, 2, 5 words, 1 and 2 threads;
 *   - wide boards past 512 symbols (cross, square, knight, diagonal with wrap, a custom
 *     pattern; locks, holes) over GF(2), Z/3, Z/4, Z/8 on every SIMD path: blocks of 1, 2,
 *     4, 8, 9 words (the 64-, 256- and 512-bit loops and the word loop), bit-sliced and
 *     bytes, the oracle's M;
 *   - the stop: a stop requested before the call (process-wide flag, a scope's context
 *     flag) returns 3 on 1 and 2 threads; a stop set by another thread 20 ms into a
 *     large run (1200 x 1200 over Z/7, several seconds) returns 3 promptly.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: chase/runner.c chase/symbolic.c chase/symbolic_lut.c chase/plan.c chase/numeric.c base/cpu.c base/interrupt.c */
#define _POSIX_C_SOURCE 200809L
#include "chase/chase.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define ML_T_SEED 0x2A4AE2ull
#include "t-util.h"
#include "chase-oracle.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* M of the representation: GF(2) words unpacked to bytes; rows x nsym. */
static int matrix(const ml_chase *P, int n, uint8_t *M, size_t rows, int threads, size_t block,
                  int packed)
{
    const size_t nsym = ml_chase_nsym(P), nres = ml_chase_nres(P), nw = (nsym + 63) / 64;
    if (n != 2) return ml_chase_matrix_zn_mode(P, M, rows, threads, block, packed);
    uint64_t *W = malloc((nres * nw + 1) * 8);
    memset(W, 0xA5, nres * nw * 8);
    int st = rows == nres && rnd() % 2 ? ml_chase_matrix_gf2(P, W, threads, block)
                                       : ml_chase_matrix_gf2_rows(P, W, rows, threads, block);
    size_t kr = rows < nres ? rows : nres;
    for (size_t k = 0; k < nres; k++)
        for (size_t s = 0; s < nsym; s++)
            M[k * nsym + s] = k < kr ? (uint8_t)((W[k * nw + s / 64] >> (s % 64)) & 1) : 0xA5;
    for (size_t i = kr * nw; i < nres * nw; i++)
        if (W[i] != 0xA5A5A5A5A5A5A5A5ull) M[0] ^= 0x80;    /* rows past `rows` written */
    free(W);
    return st;
}

static int n_cases, n_mirrored;

static void check_runner(co_desc *d)
{
    int err = -1;
    ml_chase *P = co_plan(d, &err);
    CHECK(P && err == 0, "%s: no plan (err %d)", d->what, err);
    if (!P) return;
    const size_t hw = co_hw(d), nsym = ml_chase_nsym(P), nres = ml_chase_nres(P);
    const int n = d->n;
    uint8_t *b = malloc(hw), *x = malloc(hw), *rho = malloc(nres + 1), *z = malloc(nsym + 1);
    for (size_t t = 0; t < hw; t++) b[t] = (uint8_t)(rnd() % (unsigned)n);
    for (size_t s = 0; s < nsym; s++) z[s] = (uint8_t)(rnd() % (unsigned)n);
    co_check_numeric(P, d, b, z, x, rho, "numeric");
    uint8_t *want = co_matrix_by_numeric(P, d, b), *M = malloc(nres * nsym + 8);
    const int mirrored = ml_chase_mirrored(P);
    n_cases++;
    n_mirrored += mirrored;
    char what[220];
    static const int threads[] = {1, 2, 3, 0, 40};
    for (int ti = 0; ti < 5; ti++) {
        if (ti >= 3 && rnd() % 4) continue;
        int th = threads[ti];
        size_t blocks[3] = {1, n == 2 || rnd() % 2 ? 2 : 5, 0};
        for (int bi = 0; bi < 3; bi++)
            for (int packed = 0; packed <= (n == 3 || n == 4 || n == 8); packed++) {
                size_t block = blocks[bi];
                if (packed && block)                   /* symbols, rounded up to words */
                    block = block * 64 + (rnd() % 2 ? 1 + rnd() % 63 : 0);
                /* all rows, or a prefix */
                size_t rows = nres > 1 && rnd() % 4 == 0 ? 1 + rnd() % (nres - 1) : nres;
                if (rnd() % 8 == 0) rows = nres + 1 + rnd() % 5;          /* clamped */
                size_t kr = rows < nres ? rows : nres;
                memset(M, 0xA5, nres * nsym);
                int st = matrix(P, n, M, rows, th, block, packed);
                snprintf(what, sizeof what, "%s mirrored=%d threads %d block %zu packed %d rows %zu/%zu",
                         d->what, mirrored, th, block, packed, rows, nres);
                CHECK(st == 0, "%s: status %d", what, st);
                CHECK(!memcmp(M, want, kr * nsym), "%s: M differs from the numeric chase's", what);
                int untouched = 1;
                for (size_t i = kr * nsym; i < nres * nsym; i++) untouched &= M[i] == 0xA5;
                CHECK(untouched, "%s: rows past the prefix written", what);
            }
    }
    /* the defaults overridden from the environment: one word / one symbol a block */
    if (nsym && nres) {
        setenv("MODLIGHTS_CHASE_BW", "1", 1);
        setenv("MODLIGHTS_CHASE_BZ", "3", 1);
        setenv("MODLIGHTS_CHASE_BP", "1", 1);
        memset(M, 0xA5, nres * nsym);
        int st = matrix(P, n, M, nres, 2, 0, 1);
        CHECK(st == 0 && !memcmp(M, want, nres * nsym), "%s: with MODLIGHTS_CHASE_B*: status %d or M differs",
              d->what, st);
        unsetenv("MODLIGHTS_CHASE_BW");
        unsetenv("MODLIGHTS_CHASE_BZ");
        unsetenv("MODLIGHTS_CHASE_BP");
        /* rows = 0: nothing written */
        memset(M, 0xA5, nres * nsym);
        CHECK(matrix(P, n, M, 0, 2, 0, 1) == 0);
        int untouched = 1;
        for (size_t i = 0; i < nres * nsym; i++) untouched &= M[i] == 0xA5;
        CHECK(untouched, "%s: rows = 0 wrote M", d->what);
        /* a stop requested before the call: 3, on 1 and 2 threads, both representations */
        for (int th = 1; th <= 2; th++) {
            ml_interrupt_request();
            st = matrix(P, n, M, nres, th, 1, 0);
            CHECK(st == 3, "%s: status %d after a stop (%d threads)", d->what, st, th);
            CHECK(ml_interrupt_take() == 1);
            _Atomic int stop = 1;
            ml_scope sc;
            ml_scope_enter(&sc, &stop, NULL, NULL, 0);
            st = matrix(P, n, M, nres, th, 1, 1);
            CHECK(ml_scope_leave(&sc) != 0 && st == 3, "%s: status %d after a context stop", d->what, st);
        }
    }
    free(b); free(x); free(rho); free(z); free(want); free(M);
    ml_chase_free(P);
}

/* nsym = 0 (every tap forced: the single-offset pattern {(0, 0)} with a unit count) */
static void check_no_symbols(void)
{
    int32_t dr[1] = {0}, dc[1] = {0}, cnt[1] = {2};
    int err;
    ml_chase *P = ml_chase_plan(3, 4, 5, 0, NULL, NULL, 1, dr, dc, 1, cnt, NULL, &err);
    CHECK(P && ml_chase_nsym(P) == 0 && ml_chase_nres(P) == 0, "no symbols: nsym %zu",
          P ? ml_chase_nsym(P) : 99);
    uint8_t M[4] = {7, 7, 7, 7};
    uint64_t W[1] = {7};
    CHECK(ml_chase_matrix_zn(P, M, 2, 0) == 0 && M[0] == 7);
    CHECK(ml_chase_matrix_gf2(P, W, 2, 0) == 0 && W[0] == 7);
    ml_chase_free(P);
}

/* A stop set by another thread while a large run is in progress */
typedef struct { _Atomic int *flag; double delay; } stopper_t;

static void *stopper(void *arg)
{
    stopper_t *S = arg;
    struct timespec ts = {0, (long)(S->delay * 1e9)};
    nanosleep(&ts, NULL);
    if (S->flag) atomic_store(S->flag, 1);
    else ml_interrupt_request();
    return NULL;
}

static void check_stop_midway(void)
{
    const int h = 1200, w = 1200;
    int32_t dr[5] = {1, 0, 0, 0, -1}, dc[5] = {0, 1, 0, -1, 0}, cnt[5] = {1, 1, 1, 1, 1};
    int err;
    ml_chase *P = ml_chase_plan(h, w, 7, 0, NULL, NULL, 5, dr, dc, 1, cnt, NULL, &err);
    CHECK(P != NULL);
    if (!P) return;
    const size_t nsym = ml_chase_nsym(P), nres = ml_chase_nres(P);
    uint8_t *M = malloc(nsym * nres);
    for (int how = 0; how < 2; how++) {
        _Atomic int stop = 0;
        ml_scope sc;
        if (how) ml_scope_enter(&sc, &stop, NULL, NULL, 0);
        stopper_t S = {how ? &stop : NULL, 0.02};
        pthread_t t;
        pthread_create(&t, NULL, stopper, &S);
        double t0 = now_s();
        /* blocks of 8 symbols: 150 passes over 1.44 M taps, seconds when not stopped */
        int st = ml_chase_matrix_zn_mode(P, M, nres, 2, 8, 0);
        double secs = now_s() - t0;
        pthread_join(t, NULL);
        if (how) CHECK(ml_scope_leave(&sc) != 0, "the scope saw no stop");
        else CHECK(ml_interrupt_take() == 1);
        CHECK(st == 3, "stop midway (how %d): status %d after %.3f s", how, st, secs);
        CHECK(secs < 1.5, "stop midway (how %d): %.3f s", how, secs);
    }
    free(M);
    ml_chase_free(P);
}

/* A uniform board of the given offsets (tap -> tile; counts 1), locks / 100 locked
 * tiles and holes / 100 holes. */
static void fixed_desc(co_desc *d, int h, int w, int n, int wrap, int nu, const int8_t (*off)[2],
                       int locks, int holes)
{
    memset(d, 0, sizeof *d);
    d->h = h; d->w = w; d->n = n; d->wrap = wrap; d->nu = nu; d->npat = 1;
    for (int u = 0; u < nu; u++) { d->udr[u] = off[u][0]; d->udc[u] = off[u][1]; d->cnt[u] = 1; }
    co_sort(d);
    if (locks || holes) {
        const size_t hw = co_hw(d);
        d->active = malloc(hw);
        d->tappable = malloc(hw);
        for (size_t t = 0; t < hw; t++) {
            d->active[t] = (int)(rnd() % 100) >= holes;
            d->tappable[t] = d->active[t] && (int)(rnd() % 100) >= locks;
        }
    }
    snprintf(d->what, sizeof d->what, "%dx%d n=%d wrap=%d nu=%d locks=%d%% holes=%d%%", h, w, n,
             wrap, nu, locks, holes);
}

/* The plan of d: mirrored as mirror_want says (-1: either), its M the oracle's for every
 * block of words[] (GF(2) and bit-sliced: words; bytes: 7 x words symbols), packed and
 * bytes, on 1 and 2 threads; when simd, on every SIMD path the CPU has, 1 or 2 threads
 * by turns, blocks of 64 x words symbols as bytes too. */
static void check_fixed(co_desc *d, int mirror_want, const size_t *words, int nwords, int simd)
{
    int err = -1;
    ml_chase *P = co_plan(d, &err);
    CHECK(P && err == 0, "%s: no plan (err %d)", d->what, err);
    if (!P) return;
    if (mirror_want >= 0)
        CHECK(ml_chase_mirrored(P) == mirror_want, "%s: mirrored %d", d->what, ml_chase_mirrored(P));
    const size_t hw = co_hw(d), nsym = ml_chase_nsym(P), nres = ml_chase_nres(P);
    const int n = d->n;
    uint8_t *b = calloc(hw, 1), *want = co_matrix_by_numeric(P, d, b), *M = malloc(nres * nsym + 8);
    int paths[3] = {ML_SIMD_PORTABLE, ML_SIMD_AVX2, ML_SIMD_AVX512};
    for (int s = simd ? 0 : 2; s < 3; s++) {
        if (simd && (!ml_cpu_supports(paths[s]) || ml_simd_set(paths[s]) != 0)) continue;
        for (int wi = 0; wi < nwords; wi++)
            for (int th = simd ? 1 + (wi + s) % 2 : 1; th <= 2; th++)
                for (int packed = 0; packed <= (n == 3 || n == 4 || n == 8); packed++) {
                    size_t block = n == 2 ? words[wi] : (packed || simd ? 64 : 7) * words[wi];
                    memset(M, 0xA5, nres * nsym);
                    int st = matrix(P, n, M, nres, th, block, packed);
                    CHECK(st == 0 && !memcmp(M, want, nres * nsym),
                          "%s: simd %d, %d threads, block %zu, packed %d: status %d or M differs",
                          d->what, s, th, block, packed, st);
                }
    }
    if (simd) {   /* back to the best path */
        for (int s = 2; s >= 0; s--)
            if (ml_cpu_supports(paths[s]) && ml_simd_set(paths[s]) == 0) break;
    }
    free(b); free(want); free(M);
    ml_chase_free(P);
}

static void check_named_boards(void)
{
    static const int8_t cross[5][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int8_t vertical[3][2] = {{0, 0}, {-1, 0}, {1, 0}};
    static const int8_t square[9][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 0},
                                        {0, 1}, {1, -1}, {1, 0}, {1, 1}};
    static const int8_t knight[9][2] = {{0, 0}, {1, 2}, {2, 1}, {-1, 2}, {-2, 1},
                                        {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
    static const int8_t diag[5][2] = {{0, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    static const int8_t sym1[5][2] = {{0, 0}, {1, 0}, {0, -2}, {0, 2}, {-1, 0}};
    static const int8_t sym2[4][2] = {{0, 0}, {1, 1}, {1, -1}, {-1, 0}};
    static const int8_t custom[4][2] = {{0, 0}, {1, 0}, {1, 2}, {-2, -1}};
    static const struct { const int8_t (*off)[2]; int nu, mirrored; } named[] = {
        {cross, 5, 1}, {vertical, 3, 1}, {square, 9, 0}, {knight, 9, 0}, {sym1, 5, 1}, {sym2, 4, 1},
    };
    static const int shapes[3][2] = {{5, 150}, {9, 70}, {3, 201}};
    static const size_t words[3] = {1, 2, 5};
    co_desc d;
    for (int i = 0; i < 6; i++)
        for (int n = 2; n <= 4; n++) {
            int sh = (i + n) % 3;   /* each pattern on two of the shapes */
            for (int k = 0; k < 2; k++, sh = (sh + 1) % 3) {
                fixed_desc(&d, shapes[sh][0], shapes[sh][1], n, 0, named[i].nu, named[i].off, 0, 0);
                check_fixed(&d, named[i].mirrored, words, 3, 0);
                co_free(&d);
            }
            /* one locked tile breaks the symmetry; M stays the oracle's */
            fixed_desc(&d, 5, 150, n, 0, named[i].nu, named[i].off, 0, 0);
            d.active = malloc(750);
            d.tappable = malloc(750);
            memset(d.active, 1, 750);
            memset(d.tappable, 1, 750);
            d.tappable[2 * 150 + 1] = 0;
            check_fixed(&d, 0, words, 1, 0);
            co_free(&d);
        }
    for (int n = 3; n <= 4; n++) {   /* every tap of the first row a symbol */
        fixed_desc(&d, 3, 1100, n, 0, 5, cross, 0, 0);
        int err = -1;
        ml_chase *P = co_plan(&d, &err);
        CHECK(P && ml_chase_mirrored(P) && ml_chase_nsym(P) == 1100, "3 x 1100 cross");
        ml_chase_free(P);
        check_fixed(&d, 1, words + 2, 1, 0);
        co_free(&d);
    }
    /* past 512 symbols: several blocks of every width */
    static const struct { int h, w, nu, locks, holes, wrap; const int8_t (*off)[2]; } wide[] = {
        {4, 700, 5, 0, 0, 0, cross},  {5, 600, 5, 2, 0, 0, cross}, {6, 530, 9, 0, 1, 0, square},
        {5, 520, 9, 1, 0, 0, knight}, {4, 540, 5, 0, 0, 1, diag},  {4, 600, 4, 0, 0, 0, custom},
    };
    static const size_t wide_words[5] = {1, 2, 4, 8, 9};
    static const int wide_n[4] = {2, 3, 4, 8};
    for (int i = 0; i < 6; i++) {   /* each board over one of the moduli */
        fixed_desc(&d, wide[i].h, wide[i].w, wide_n[i % 4], wide[i].wrap, wide[i].nu, wide[i].off,
                   wide[i].locks, wide[i].holes);
        int err = -1;
        ml_chase *P = co_plan(&d, &err);
        CHECK(P && ml_chase_nsym(P) > 512, "%s: %zu symbols", d.what, P ? ml_chase_nsym(P) : 0);
        ml_chase_free(P);
        check_fixed(&d, -1, wide_words, 5, 1);
        co_free(&d);
    }
}

int main(void)
{
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 251};
    check_no_symbols();
    for (int trial = 0; trial < 240; trial++) {
        co_desc d;
        int h = 0, w = 0, n = ns[trial % 11], kind = trial % 2 == 0 ? 1 : trial % 4 == 1 ? 2 : 0;
        switch (trial % 8) {
        case 0: h = 1; w = (int)rnd_range(1, 30); break;
        case 1: w = 1; h = (int)rnd_range(1, 30); break;
        case 2: h = (int)rnd_range(4, 8); w = (int)rnd_range(65, 160); break;
        default: break;
        }
        co_random(&d, h, w, n, kind);
        check_runner(&d);
        co_free(&d);
    }
    check_named_boards();
    check_stop_midway();
    printf("cases %d, mirrored %d\n", n_cases, n_mirrored);
    CHECK(n_mirrored > 20);
    return t_done();
}
