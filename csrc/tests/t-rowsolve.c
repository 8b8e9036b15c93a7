/* t-rowsolve: csrc/chase/rowsolve.c and its pieces (the row-solve chase) against the tap
 * matrix A itself, on random eligible patterns (a last-row pair (D, -a), (D, +a), other
 * offsets at random, some left-right symmetric), boards h x w with w a multiple of 2a,
 * n in 2..9, 12, 16, 31, 32, 33, 64, 101, 255 with random coefficients (the pair's units):
 *   - eligibility: a few broken patterns are refused, the random ones taken;
 *   - the numeric chase: x keeps the symbols z in rows 0..D-1, A x = b on every row but
 *     the last D, and rho = b - A x on those (A x computed here from the offsets);
 *   - the symbolic passes: rho(z) = rho(0) - M z for random z, with M from the GF(2)
 *     packed pass (n = 2), the Z/n byte pass and the bit-sliced Z/3, Z/4 pass, each with
 *     and without the mirror, one and three threads, several pass widths (so a pass
 *     spans several blocks and words);
 *   - named and chosen patterns: the knight and the diagonal (mirrored) for n = 2, 3, 5,
 *     7, 11, 16, 17 (the VBMI byte way's table below 128, both halves), 31, 32, 33 (the
 *     byte way, (taps + 1)(n - 1) < 256, and the 16-bit lanes past it), 64, 255 on 9 x 12, and on 11 x 140 with a third pattern (no mirror) over every
 *     pass width up to 16 words / 4096 bytes and 1, 2, 3 threads; more than 8 sources
 *     with coefficients whose sums overflow 16 bits (n = 7, 255); the pair alone (no
 *     sources) on five shapes for 15 moduli; the mirror only when every offset's mirror
 *     image has the same coefficient; symbols D x w and the pattern (0,0), (2, +-1),
 *     (-1, -3) not mirrored, its negation (last row (1, 3) no pair) not eligible;
 *   - the stop: a stop requested before a pass or a replay returns 3 on every pass; the
 *     calls after it are exact.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: chase/rowsolve.c chase/rowsolve_gf2.c chase/rowsolve_zn.c chase/rowsolve_sliced.c chase/rowsolve_numeric.c base/cpu.c base/interrupt.c */
#include "chase/rowsolve.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x0DDBA11ull
#include "t-util.h"

enum { MAXNE = 16 };

typedef struct {
    int h, w, n, ne, D;
    int32_t er[MAXNE], ec[MAXNE], cf[MAXNE];
} pat_t;

static int is_unit(int x, int n)
{
    for (int y = 1; y < n; y++)
        if ((x * y) % n == 1) return 1;
    return n == 1;
}

static int has(const pat_t *P, int r, int c)
{
    for (int i = 0; i < P->ne; i++)
        if (P->er[i] == r && P->ec[i] == c) return 1;
    return 0;
}

/* a random eligible pattern; sym: every offset with its mirror image, same coefficient */
static void random_pattern(pat_t *P, int n, int sym)
{
    memset(P, 0, sizeof(*P));
    P->n = n;
    P->D = (int)rnd_range(1, 3);
    int a = (int)rnd_range(1, 3);
    P->w = 2 * a * (int)rnd_range(1, 4);
    P->h = P->D + (int)rnd_range(1, 6);
    int u;
    do u = (int)rnd_range(1, n - 1); while (!is_unit(u, n));
    int v = u;
    if (!sym) do v = (int)rnd_range(1, n - 1); while (!is_unit(v, n));
    P->er[0] = P->D; P->ec[0] = -a; P->cf[0] = u;
    P->er[1] = P->D; P->ec[1] = a; P->cf[1] = v;
    P->ne = 2;
    int extra = (int)rnd_range(0, 5);
    for (int t = 0; t < extra && P->ne + 2 <= MAXNE; t++) {
        int r = (int)rnd_range(-2, P->D - 1), c = (int)rnd_range(-3, 3);
        if (has(P, r, c)) continue;
        int k = (int)rnd_range(1, n - 1);
        P->er[P->ne] = r; P->ec[P->ne] = c; P->cf[P->ne] = k; P->ne++;
        if (sym && c != 0 && !has(P, r, -c)) {
            P->er[P->ne] = r; P->ec[P->ne] = -c; P->cf[P->ne] = k; P->ne++;
        }
    }
}

/* (A x)[r, c] = sum_i cf_i x[r + er_i, c + ec_i] over the taps on the board, mod n */
static unsigned ax(const pat_t *P, const uint8_t *x, int r, int c)
{
    unsigned s = 0;
    for (int i = 0; i < P->ne; i++) {
        int rr = r + P->er[i], cc = c + P->ec[i];
        if (rr < 0 || rr >= P->h || cc < 0 || cc >= P->w) continue;
        s += (unsigned)P->cf[i] * x[rr * P->w + cc];
    }
    return s % (unsigned)P->n;
}

/* rho(z) by the numeric chase, checked against A; returns 0 when the chase failed */
static int numeric(const ml_rowsolve *S, const pat_t *P, const uint8_t *b, const uint8_t *z,
                   uint8_t *x, uint8_t *rho, const char *what)
{
    const int h = P->h, w = P->w, D = P->D;
    const unsigned n = (unsigned)P->n;
    int st = ml_rowsolve_numeric(S, b, z, x, rho);
    CHECK(st == 0, "%s: numeric status %d", what, st);
    if (st) return 0;
    for (int i = 0; i < D * w; i++)
        CHECK(x[i] == (z ? z[i] : 0), "%s: x[%d] is not the symbol", what, i);
    for (int i = 0; i < h * w; i++) CHECK(x[i] < n, "%s: x[%d] = %u >= n", what, i, x[i]);
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            unsigned want = (b[r * w + c] + n - ax(P, x, r, c)) % n;
            if (r < h - D)
                CHECK(want == 0, "%s: A x != b at (%d, %d)", what, r, c);
            else
                CHECK(rho[(r - h + D) * w + c] == want, "%s: rho at (%d, %d) is %u, b - A x %u",
                      what, r, c, rho[(r - h + D) * w + c], want);
        }
    return 1;
}

/* rho(z) == rho(0) - M z for a few random z; M: nres x nsym bytes */
static void check_matrix(const ml_rowsolve *S, const pat_t *P, const uint8_t *M,
                         const uint8_t *b, const char *what)
{
    const size_t nsym = ml_rowsolve_nsym(S), nres = (size_t)P->D * (size_t)P->w;
    const size_t cells = (size_t)P->h * (size_t)P->w;
    const unsigned n = (unsigned)P->n;
    uint8_t *x = malloc(cells), *rho0 = malloc(nres), *rho = malloc(nres), *z = malloc(nsym);
    if (numeric(S, P, b, NULL, x, rho0, what)) {
        for (int trial = 0; trial < 3; trial++) {
            for (size_t j = 0; j < nsym; j++) z[j] = (uint8_t)(rnd() % n);
            if (!numeric(S, P, b, z, x, rho, what)) break;
            for (size_t k = 0; k < nres; k++) {
                unsigned s = 0;
                for (size_t j = 0; j < nsym; j++) s = (s + (unsigned)M[k * nsym + j] * z[j]) % n;
                CHECK(rho[k] == (rho0[k] + n - s) % n, "%s: equation %zu: rho(z) != rho(0) - M z",
                      what, k);
            }
        }
    }
    free(x); free(rho0); free(rho); free(z);
}

/* Every pass of P's plan against the numeric chase (check_matrix) and one another.
 * mirror: the plan's mirrored flag wanted (-1: either); wide: 1 every pass width up to 16
 * words and 4096 bytes (ML_ROWSOLVE_MAX_BZ), 2 the same up to 256 bytes, with 1, 2 and 3
 * threads; 0 a few random widths, 1 and 3 threads. */
static void check_pattern(const pat_t *P, int mirror_want, int wide)
{
    char what[160];
    snprintf(what, sizeof what, "h=%d w=%d n=%d D=%d ne=%d mirror=%d", P->h, P->w, P->n, P->D,
             P->ne, mirror_want);
    CHECK(ml_rowsolve_eligible_zn(P->h, P->w, P->n, P->ne, P->er, P->ec, P->cf), "%s: not eligible",
          what);
    int err = 0;
    ml_rowsolve *S = P->n == 2 ? ml_rowsolve_plan(P->h, P->w, P->ne, P->er, P->ec, &err)
                               : ml_rowsolve_plan_zn(P->h, P->w, P->n, P->ne, P->er, P->ec, P->cf, &err);
    CHECK(S != NULL, "%s: no plan (err %d)", what, err);
    if (!S) return;
    const size_t nsym = ml_rowsolve_nsym(S), nres = (size_t)P->D * (size_t)P->w;
    const size_t cells = (size_t)P->h * (size_t)P->w;
    CHECK(nsym == nres, "%s: %zu symbols, %zu equations", what, nsym, nres);
    CHECK(ml_rowsolve_n(S) == P->n, "%s: n", what);
    if (mirror_want >= 0)
        CHECK(ml_rowsolve_mirrored(S) == mirror_want, "%s: mirrored %d", what,
              ml_rowsolve_mirrored(S));
    uint8_t *b = malloc(cells), *M = malloc(nres * nsym + 1), *ref = malloc(nres * nsym + 1);
    for (size_t i = 0; i < cells; i++) b[i] = (uint8_t)(rnd() % (unsigned)P->n);
    int have_ref = 0;
    static const size_t wide_bz[] = {0, 1, 3, 64, 256, ML_ROWSOLVE_MAX_BZ}, wide_bw[] = {1, 2, 4, 8, 16};
    const int step = wide ? 1 : 2;
    for (int mirror = 0; mirror < 2; mirror++)
        for (int threads = 1; threads <= 3; threads += step) {
            /* Z/n bytes, any n */
            size_t bzs[6] = {1 + rnd() % 7, 0};
            size_t nbz = 2;
            if (wide) {
                memcpy(bzs, wide_bz, sizeof wide_bz);
                nbz = wide == 1 ? 6 : 5;
            }
            for (size_t q = 0; q < nbz; q++) {
                memset(M, 0xAA, nres * nsym);
                int st = ml_rowsolve_matrix_zn(S, M, threads, bzs[q], mirror);
                CHECK(st == 0, "%s: matrix_zn status %d", what, st);
                if (st) continue;
                if (!have_ref) {
                    memcpy(ref, M, nres * nsym);
                    check_matrix(S, P, M, b, what);
                    have_ref = 1;
                } else {
                    CHECK(!memcmp(ref, M, nres * nsym),
                          "%s: matrix_zn (bz %zu, mirror %d, %d threads) differs", what, bzs[q],
                          mirror, threads);
                }
            }
            size_t bws[5] = {1 + rnd() % 2};
            size_t nbw = 1;
            if (wide) {
                memcpy(bws, wide_bw, sizeof wide_bw);
                nbw = 5;
            }
            for (size_t q = 0; q < nbw; q++) {
                /* GF(2) packed */
                if (P->n == 2) {
                    size_t stride = (nsym + 63) / 64;
                    uint64_t *W = calloc(nres * stride + 1, sizeof(uint64_t));
                    int st = ml_rowsolve_matrix(S, W, threads, bws[q], mirror);
                    CHECK(st == 0, "%s: matrix status %d", what, st);
                    for (size_t k = 0; !st && k < nres; k++)
                        for (size_t j = 0; j < nsym; j++)
                            M[k * nsym + j] = (uint8_t)((W[k * stride + j / 64] >> (j % 64)) & 1);
                    if (!st && have_ref)
                        CHECK(!memcmp(ref, M, nres * nsym),
                              "%s: GF(2) matrix (bw %zu, mirror %d, %d threads) differs", what,
                              bws[q], mirror, threads);
                    free(W);
                }
                /* Z/3, Z/4 bit-sliced; any other n is refused */
                memset(M, 0xAA, nres * nsym);
                int st = ml_rowsolve_matrix_sliced(S, M, threads, bws[q], mirror);
                if (P->n == 3 || P->n == 4) {
                    CHECK(st == 0, "%s: matrix_sliced status %d", what, st);
                    if (!st && have_ref)
                        CHECK(!memcmp(ref, M, nres * nsym),
                              "%s: sliced matrix (bw %zu, mirror %d) differs", what, bws[q], mirror);
                } else {
                    CHECK(st == 1, "%s: matrix_sliced for n = %d: status %d", what, P->n, st);
                }
            }
        }
    free(b); free(M); free(ref);
    ml_rowsolve_free(S);
}

/* P from offsets seen from the tile (er, ec) with coefficients cf (NULL: all 1) */
static void make_pattern(pat_t *P, int h, int w, int n, int ne, const int32_t *er,
                         const int32_t *ec, const int32_t *cf)
{
    memset(P, 0, sizeof(*P));
    P->h = h; P->w = w; P->n = n; P->ne = ne;
    for (int i = 0; i < ne; i++) {
        P->er[i] = er[i]; P->ec[i] = ec[i]; P->cf[i] = cf ? cf[i] : 1;
        if (er[i] > P->D) P->D = er[i];
    }
}

/* The knight and the diagonal (symmetric: mirrored) over small and large n, the byte
 * and the 16-bit ways; wide boards over every pass width; many sources; the pair alone;
 * the mirror and its coefficients. */
static void check_chosen(void)
{
    static const int32_t kr[9] = {0, 1, 2, -1, -2, 1, 2, -1, -2}, kc[9] = {0, 2, 1, 2, 1, -2, -1, -2, -1};
    static const int32_t dr[5] = {0, 1, 1, -1, -1}, dc[5] = {0, 1, -1, 1, -1};
    /* board pattern [(-2, -1), (-2, 1), (0, 0), (1, 3)] seen from the tile */
    static const int32_t xr[4] = {2, 2, 0, -1}, xc[4] = {1, -1, 0, -3};
    static const int knight_n[] = {2, 3, 5, 7, 11, 16, 17, 31, 32, 33, 64, 255};
    pat_t P;
    for (size_t i = 0; i < sizeof knight_n / sizeof knight_n[0]; i++) {
        make_pattern(&P, 9, 12, knight_n[i], 9, kr, kc, NULL);
        check_pattern(&P, 1, 1);
        make_pattern(&P, 9, 12, knight_n[i], 5, dr, dc, NULL);
        check_pattern(&P, 1, 1);
    }
    static const int wide_n[] = {2, 3, 5};
    for (size_t i = 0; i < sizeof wide_n / sizeof wide_n[0]; i++) {
        make_pattern(&P, 11, 140, wide_n[i], 9, kr, kc, NULL);
        check_pattern(&P, 1, 2);
        make_pattern(&P, 11, 140, wide_n[i], 5, dr, dc, NULL);
        check_pattern(&P, 1, 2);
        make_pattern(&P, 11, 140, wide_n[i], 4, xr, xc, NULL);
        check_pattern(&P, 0, 2);
    }
    /* more than 8 sources, coefficients summing past 16 bits (the pair 2 and 4: units
     * mod 7 and 255) */
    static const int32_t mr[12] = {2, 2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0},
                         mc[12] = {-1, 1, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2};
    static const int many[][2] = {{7, 1}, {7, 3}, {255, 1}, {255, 200}, {255, 254}};
    for (size_t i = 0; i < sizeof many / sizeof many[0]; i++) {
        int n = many[i][0], m = many[i][1];
        int32_t cf[12] = {2, 4, m, 1, m, n - 1, m, m, 1, m, n - 1, m};
        make_pattern(&P, 7, 10, n, 12, mr, mc, cf);
        check_pattern(&P, 0, 0);
    }
    /* the pair alone: the chains have no sources */
    static const int alone_n[] = {2, 3, 4, 5, 6, 7, 8, 9, 11, 16, 25, 27, 30, 101, 255};
    static const int shapes[][4] = {{1, 1, 5, 6}, {1, 1, 40, 40}, {2, 1, 7, 4}, {1, 2, 6, 8},
                                    {3, 2, 9, 12}};
    for (size_t i = 0; i < sizeof alone_n / sizeof alone_n[0]; i++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            int D = shapes[s][0], a = shapes[s][1];
            int32_t pr[2] = {D, D}, pc[2] = {-a, a};
            make_pattern(&P, shapes[s][2], shapes[s][3], alone_n[i], 2, pr, pc, NULL);
            check_pattern(&P, 1, 0);
        }
    /* the mirror needs equal coefficients at mirror images */
    static const int32_t er[5] = {2, 2, 0, 0, 0}, ec[5] = {-1, 1, -1, 0, 1};
    static const int32_t cfs[3][5] = {{2, 2, 3, 1, 3}, {2, 3, 3, 1, 3}, {2, 2, 3, 1, 4}};
    for (int i = 0; i < 3; i++) {
        make_pattern(&P, 6, 8, 5, 5, er, ec, cfs[i]);
        check_pattern(&P, i == 0, 0);
    }
    /* (0, 0), (2, +-1), (-1, -3): eligible, no mirror image, 2 x 6 symbols; negated, the
     * last row (1, 3) is no pair */
    static const int32_t fr[4] = {0, 2, 2, -1}, fc[4] = {0, 1, -1, -3};
    int32_t gr[4], gc[4];
    for (int i = 0; i < 4; i++) { gr[i] = -fr[i]; gc[i] = -fc[i]; }
    CHECK(!ml_rowsolve_eligible(6, 6, 4, gr, gc), "the last row (1, 3) taken as a pair");
    make_pattern(&P, 6, 6, 2, 4, fr, fc, NULL);
    check_pattern(&P, 0, 0);
}

/* A stop requested before a pass or a replay: 3; the next calls exact. */
static void check_stop(void)
{
    static const int32_t kr[9] = {0, 1, 2, -1, -2, 1, 2, -1, -2}, kc[9] = {0, 2, 1, 2, 1, -2, -1, -2, -1};
    for (int n = 2; n <= 5; n++) {
        int err = 0;
        ml_rowsolve *S = ml_rowsolve_plan_zn(12, 16, n, 9, kr, kc, NULL, &err);
        CHECK(S != NULL, "n = %d: no plan", n);
        if (!S) continue;
        const size_t nsym = ml_rowsolve_nsym(S);
        uint8_t *M = calloc(nsym * nsym + 1, 1), *b = calloc(12 * 16, 1), *x = malloc(12 * 16),
                *rho = malloc(nsym);
        uint64_t *W = calloc(nsym * ((nsym + 63) / 64) + 1, sizeof(uint64_t));
        for (int threads = 1; threads <= 2; threads++) {
            ml_interrupt_request();
            CHECK(ml_rowsolve_matrix_zn(S, M, threads, 0, 1) == 3, "n = %d: matrix_zn ran on", n);
            ml_interrupt_take();
            if (n == 2) {
                ml_interrupt_request();
                CHECK(ml_rowsolve_matrix(S, W, threads, 0, 1) == 3, "matrix ran on");
                ml_interrupt_take();
            }
            if (n == 3 || n == 4) {
                ml_interrupt_request();
                CHECK(ml_rowsolve_matrix_sliced(S, M, threads, 0, 1) == 3, "n = %d: sliced ran on", n);
                ml_interrupt_take();
            }
        }
        ml_interrupt_request();
        CHECK(ml_rowsolve_numeric(S, b, NULL, x, rho) == 3, "n = %d: the replay ran on", n);
        ml_interrupt_take();
        free(M); free(b); free(x); free(rho); free(W);
        ml_rowsolve_free(S);
        pat_t P;
        make_pattern(&P, 12, 16, n, 9, kr, kc, NULL);
        check_pattern(&P, 1, 0);   /* exact after the stops */
    }
}

static void check_refusals(void)
{
    int32_t er[3] = {1, 1, 0}, ec[3] = {-1, 1, 0}, cf[3] = {1, 1, 1};
    int err = 0;
    CHECK(ml_rowsolve_eligible(3, 4, 3, er, ec), "the diagonal pair on 3 x 4");
    CHECK(!ml_rowsolve_eligible(3, 5, 3, er, ec), "w = 5 is not a multiple of 2a = 2");
    CHECK(!ml_rowsolve_eligible(1, 4, 3, er, ec), "h = 1 <= D");
    CHECK(ml_rowsolve_plan(1, 4, 3, er, ec, &err) == NULL && err == 1, "no plan for h <= D");
    int32_t er2[3] = {1, 1, 1}, ec2[3] = {-1, 1, 0};
    CHECK(!ml_rowsolve_eligible(3, 4, 3, er2, ec2), "three taps in the last row");
    int32_t er3[3] = {1, 1, 0}, ec3[3] = {-1, 2, 0};
    CHECK(!ml_rowsolve_eligible(3, 4, 3, er3, ec3), "an unbalanced pair");
    int32_t er4[3] = {1, 1, 1}, ec4[3] = {-1, 1, 1};
    CHECK(!ml_rowsolve_eligible(3, 4, 3, er4, ec4), "a repeated offset");
    cf[0] = 2;
    CHECK(!ml_rowsolve_eligible_zn(3, 4, 4, 3, er, ec, cf), "coefficient 2 is no unit mod 4");
    CHECK(ml_rowsolve_eligible_zn(3, 4, 5, 3, er, ec, cf), "coefficient 2 is a unit mod 5");
    cf[0] = 5;
    CHECK(!ml_rowsolve_eligible_zn(3, 4, 5, 3, er, ec, cf), "coefficient 5 >= n");
    CHECK(!ml_rowsolve_eligible_zn(3, 4, 256, 3, er, ec, NULL), "n = 256");
}

int main(void)
{
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 31, 32, 33, 64, 101, 255};
    check_refusals();
    check_stop();
    check_chosen();
    int simds[3] = {ML_SIMD_PORTABLE, ML_SIMD_AVX2, ML_SIMD_AVX512};
    for (int s = 0; s < 3; s++) {
        if (!ml_cpu_supports(simds[s]) || ml_simd_set(simds[s]) != 0) continue;
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
            for (int t = 0; t < 12; t++) {
                pat_t P;
                int sym = t % 3 == 0;
                random_pattern(&P, ns[k], sym);
                check_pattern(&P, sym ? 1 : -1, 0);
            }
    }
    return t_done();
}
