/* t-rowrec: csrc/structured/rowrec.c (the row-recurrence chase of uniform boards whose
 * pattern uses (0,0), (0,+1), (0,-1), (-1,0), (+1,0), and the polynomial isomorphism)
 * against the board's equations and dense algebra written here, over GF(p), p = 2, 3, 5,
 * 7 and 251, random counts (cu a unit), h and w 1..9 (odd and even), 1 x k, k x 1 and
 * widths past a word (63/64/65, 127..129, 200, 300):
 *   - the chase (bytes over GF(p), bytes and np.packbits over GF(2), tc, sb, z, x NULL,
 *     junk in the high bits of GF(2) bytes and past column w of packed rows): applying
 *     the pattern to the taps x gives b_eff on rows 0..h-2 and b_eff - cu X_h on row
 *     h-1, x starts with z; the packed, byte and read-only passes agree;
 *   - the torus chase (h >= 3, wrap in both directions, b NULL, x NULL): the torus's
 *     A x is b except cd r1 on row 0 and -cu r2 on row h-1, r1 = X_{h-1} - v; h < 3
 *     refused (1);
 *   - nullity and solvability (hw <= 81): dim ker A = w - rank of the map z -> X_h, and
 *     b is solvable (rank [A | b] = rank A, dense elimination of A here) iff X_h(0) is in
 *     that map's image; the same for the torus with (u, v) -> (r1, r2); tiny boards
 *     (p^w <= 4096): every z enumerated, |ker A| = #{z : X_h(z) = 0};
 *   - apply s + A x over GF(2) (bytes, packed, s NULL, out NULL, out aliasing s): the
 *     sum here and the count of tiles differing from tc;
 *   - the algebra (cr != 0): ml_rowrec_coeffs from the counts; chi_T monic of degree w
 *     with chi(T) e_0 = 0 (Krylov vectors of the tridiagonal T built here); F = P_h mod
 *     chi with F(T) e_0 = X_h of the homogeneous recurrence run here and of the chase
 *     from e_0; vec_to_poly / poly_to_vec against f(T) e_0; deg f >= w (1), chi of the
 *     wrong degree or not monic (1) refused;
 *   - GF(p)'s doubling (chi and F from ml_rowrec_doubling_w columns on): every other
 *     algebra check above runs with the doubling (and poly.h's fast paths) forced on
 *     by lowered thresholds; and doubling = step by step, coefficient for coefficient,
 *     on random counts, every prime up to 251 sampled, w 1..300 and h 1..2000 (F
 *     reduced mod chi many times when h > w);
 *   - the stop (charpoly and F poll every 256 steps, or every bit when doubling, the
 *     torus chase every 16 rows): a stop requested before the call (process-wide, or a
 *     scope's context flag) gives 3 with the output untouched / leaves the last tap rows
 *     unwritten, and is taken.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: structured/rowrec.c poly/poly.c poly/gfpx_fast.c base/interrupt.c base/cpu.c */
#include "structured/rowrec.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x50E5EC0DEull
#include "t-util.h"

static const unsigned PRIMES[] = {2, 3, 5, 7, 251};

/* (A x) over GF(p) on an h x w grid (bytes, values < p): tile (r, c) gets
 * d x[r][c] + cr x[r][c-1] + cl x[r][c+1] + cu x[r+1][c] + cd x[r-1][c]; torus: wrap */
static void apply_A(const ml_rowrec *P, const uint8_t *x, uint8_t *y, int torus)
{
    const long h = (long)P->h, w = (long)P->w;
    const unsigned p = P->p;
#define XV(r, c) (torus ? x[(((r) + h) % h) * w + ((c) + w) % w]                        \
                        : ((r) < 0 || (r) >= h || (c) < 0 || (c) >= w ? 0u : x[(r) * w + (c)]))
    for (long r = 0; r < h; r++)
        for (long c = 0; c < w; c++) {
            unsigned long s = (unsigned long)P->d * XV(r, c) + (unsigned long)P->cr * XV(r, c - 1)
                              + (unsigned long)P->cl * XV(r, c + 1)
                              + (unsigned long)P->cu * XV(r + 1, c)
                              + (unsigned long)P->cd * XV(r - 1, c);
            y[r * w + c] = (uint8_t)(s % p);
        }
#undef XV
}

static void random_board(ml_rowrec *P, size_t h, size_t w, unsigned p, int cyclic)
{
    P->h = h; P->w = w; P->p = p;
    P->d = (unsigned)(rnd() % p); P->cr = (unsigned)(rnd() % p);
    P->cl = (unsigned)(rnd() % p); P->cd = (unsigned)(rnd() % p);
    P->cu = 1 + (unsigned)(rnd() % (p - 1));
    if (cyclic && !P->cr) P->cr = 1 + (unsigned)(rnd() % (p - 1));
}

static int getbit(const uint64_t *v, size_t c) { return (int)((v[c / 64] >> (c % 64)) & 1); }

/* the GF(p) chase, or over GF(2) the byte chase, from z (w values; NULL: zero) with
 * b_eff given: x (h x w) and last (w values) */
static int chase(const ml_rowrec *P, const uint8_t *beff, const uint8_t *z, uint8_t *x,
                 uint8_t *last)
{
    const size_t w = P->w;
    if (P->p != 2) return ml_rowrec_chase_gfp(P, beff, 0, 1, z, x, last);
    uint64_t zw[8] = {0}, lw[8] = {0};
    if (z) for (size_t c = 0; c < w; c++) zw[c / 64] |= (uint64_t)(z[c] & 1) << (c % 64);
    int rc = ml_rowrec_chase_gf2(P, 0, beff, 0, z ? zw : NULL, x, lw);
    for (size_t c = 0; c < w; c++) last[c] = (uint8_t)getbit(lw, c);
    return rc;
}

/* t_chase_enumerate's view of the chase and of A */
static void run_chase(const void *P, const uint8_t *b, const uint8_t *z, uint8_t *x, uint8_t *last)
{
    chase(P, b, z, x, last);
}

static int chase_solves(const void *vp, const uint8_t *x, const uint8_t *b)
{
    const ml_rowrec *P = vp;
    const size_t hw = P->h * P->w;
    uint8_t *ax = malloc(hw);
    if (!ax) return 0;
    apply_A(P, x, ax, 0);
    int ok = !memcmp(ax, b, hw);
    free(ax);
    return ok;
}

static int n_chase, n_rank, n_enum, n_torus, n_alg;

/* ------------------------------------------------------------------ the chase */
static void check_chase(const ml_rowrec *P)
{
    const size_t h = P->h, w = P->w, hw = h * w, nw = (w + 63) / 64, nb = (w + 7) / 8;
    const unsigned p = P->p;
    char what[160];
    snprintf(what, sizeof what, "%zux%zu p=%u d=%u cr=%u cl=%u cu=%u cd=%u", h, w, p, P->d,
             P->cr, P->cl, P->cu, P->cd);
    uint8_t *b = malloc(hw), *beff = malloc(hw), *x = malloc(hw), *ax = malloc(hw);
    uint8_t *z = malloc(w), *last = malloc(w);
    const unsigned tc = (unsigned)(rnd() % p), sb = (unsigned)(rnd() % p);
    const int withz = (int)(rnd() % 3);
    for (size_t c = 0; c < w; c++) z[c] = (uint8_t)(rnd() % p);
    n_chase++;
    if (p == 2) {
        /* bytes: junk above the low bit */
        for (size_t i = 0; i < hw; i++) {
            b[i] = (uint8_t)rnd();
            beff[i] = (uint8_t)((b[i] ^ tc) & 1);
        }
        uint64_t *zw = calloc(nw, 8), *lw = calloc(nw, 8), *lw2 = calloc(nw, 8);
        for (size_t c = 0; c < w; c++) zw[c / 64] |= (uint64_t)z[c] << (c % 64);
        memset(x, 0xAA, hw);
        CHECK(ml_rowrec_chase_gf2(P, 0, b, tc, withz ? zw : NULL, x, lw) == 0, "%s", what);
        for (size_t c = 0; c < w; c++) last[c] = (uint8_t)getbit(lw, c);
        int bin = 1;
        for (size_t i = 0; i < hw; i++) bin &= x[i] <= 1;
        CHECK(bin, "%s: GF(2) taps not 0/1", what);
        CHECK(ml_rowrec_chase_gf2(P, 0, b, tc, withz ? zw : NULL, NULL, lw2) == 0);
        CHECK(!memcmp(lw, lw2, nw * 8), "%s: read-only pass, other X_h", what);
        /* packed: the same bits, junk past column w */
        uint8_t *bp = malloc(h * nb), *xp = malloc(h * nb);
        for (size_t r = 0; r < h; r++)
            for (size_t k = 0; k < nb; k++) {
                uint8_t v = (uint8_t)rnd();
                for (size_t j = 0; j < 8 && 8 * k + j < w; j++) {
                    v &= (uint8_t)~(0x80u >> j);
                    v |= (uint8_t)((b[r * w + 8 * k + j] & 1) << (7 - j));
                }
                bp[r * nb + k] = v;
            }
        memset(xp, 0x55, h * nb);
        memset(lw2, 0xFF, nw * 8);
        CHECK(ml_rowrec_chase_gf2(P, 1, bp, tc, withz ? zw : NULL, xp, lw2) == 0);
        int same = !memcmp(lw, lw2, nw * 8);
        for (size_t r = 0; r < h; r++)
            for (size_t k = 0; k < nb; k++)
                for (size_t j = 0; j < 8; j++) {
                    int got = (xp[r * nb + k] >> (7 - j)) & 1;
                    same &= 8 * k + j < w ? got == x[r * w + 8 * k + j] : got == 0;
                }
        CHECK(same, "%s: packed chase differs from the byte chase (or junk past w)", what);
        memset(lw2, 0xFF, nw * 8);
        CHECK(ml_rowrec_chase_gf2(P, 1, bp, tc, withz ? zw : NULL, NULL, lw2) == 0);
        CHECK(!memcmp(lw, lw2, nw * 8), "%s: packed read-only pass, other X_h", what);
        free(bp); free(xp); free(zw); free(lw); free(lw2);
    } else {
        for (size_t i = 0; i < hw; i++) {
            b[i] = (uint8_t)(rnd() % p);
            beff[i] = (uint8_t)((tc + sb * b[i]) % p);
        }
        memset(x, 0xAA, hw);
        CHECK(ml_rowrec_chase_gfp(P, b, tc, sb, withz ? z : NULL, x, last) == 0, "%s", what);
        int inr = 1;
        for (size_t i = 0; i < hw; i++) inr &= x[i] < p;
        for (size_t c = 0; c < w; c++) inr &= last[c] < p;
        CHECK(inr, "%s: values >= p", what);
    }
    /* the oracle: the equations of the board */
    int ok = 1;
    for (size_t c = 0; c < w; c++) ok &= x[c] == (withz ? z[c] : 0);
    CHECK(ok, "%s: first row is not z", what);
    apply_A(P, x, ax, 0);
    ok = 1;
    for (size_t r = 0; r < h; r++)
        for (size_t c = 0; c < w; c++) {
            unsigned want = beff[r * w + c];
            if (r + 1 == h) want = (want + (p - P->cu) * last[c]) % p;
            ok &= ax[r * w + c] == want;
        }
    CHECK(ok, "%s: A x is not b_eff (row h-1: b_eff - cu X_h)", what);
    if (p != 2 && rnd() % 2) {         /* GF(2) through the GF(p) chase: the same taps */
        ml_rowrec Q = *P;
        Q.p = 2; Q.d &= 1; Q.cr &= 1; Q.cl &= 1; Q.cd &= 1; Q.cu = 1;
        uint8_t *b2 = malloc(hw), *x2 = malloc(hw), *x3 = malloc(hw), *l2 = malloc(w), *l3 = malloc(w);
        for (size_t i = 0; i < hw; i++) b2[i] = (uint8_t)(b[i] & 1);
        CHECK(ml_rowrec_chase_gfp(&Q, b2, 1, 1, NULL, x2, l2) == 0);
        uint64_t lw[8];
        CHECK(ml_rowrec_chase_gf2(&Q, 0, b2, 1, NULL, x3, lw) == 0);
        for (size_t c = 0; c < w; c++) l3[c] = (uint8_t)getbit(lw, c);
        CHECK(!memcmp(x2, x3, hw) && !memcmp(l2, l3, w), "%s: GF(2) by chase_gfp differs", what);
        free(b2); free(x2); free(x3); free(l2); free(l3);
    }
    /* nullity and solvability: dense elimination of A against the chase's map z -> X_h */
    if (hw <= 81 && w <= 64) {
        n_rank++;
        uint8_t *A = malloc(hw * (hw + 1)), *e = calloc(hw, 1), *col = malloc(hw);
        for (size_t j = 0; j < hw; j++) {
            e[j] = 1;
            apply_A(P, e, col, 0);
            e[j] = 0;
            for (size_t i = 0; i < hw; i++) A[i * (hw + 1) + j] = col[i];
        }
        for (size_t i = 0; i < hw; i++) A[i * (hw + 1) + hw] = beff[i];
        uint8_t *A2 = malloc(hw * hw);
        for (size_t i = 0; i < hw; i++) memcpy(A2 + i * hw, A + i * (hw + 1), hw);
        size_t ra = rank_p(A2, hw, hw, p), rab = rank_p(A, hw, hw + 1, p);
        /* M: w x (w + 1), column j = X_h(e_j) with b = 0, the last X_h(0) with b_eff */
        uint8_t *M = malloc(w * (w + 1)), *zero = calloc(hw, 1), *ez = calloc(w, 1);
        for (size_t j = 0; j < w; j++) {
            ez[j] = 1;
            chase(P, zero, ez, x, last);
            ez[j] = 0;
            for (size_t c = 0; c < w; c++) M[c * (w + 1) + j] = last[c];
        }
        chase(P, beff, NULL, x, last);
        for (size_t c = 0; c < w; c++) M[c * (w + 1) + w] = last[c];
        uint8_t *M2 = malloc(w * w);
        for (size_t c = 0; c < w; c++) memcpy(M2 + c * w, M + c * (w + 1), w);
        size_t rm = rank_p(M2, w, w, p), rmb = rank_p(M, w, w + 1, p);
        CHECK(hw - ra == w - rm, "%s: dim ker A %zu, chase nullity %zu", what, hw - ra, w - rm);
        CHECK((ra == rab) == (rm == rmb), "%s: solvable %d, chase says %d", what, ra == rab,
              rm == rmb);
        n_enum += t_chase_enumerate(what, P, run_chase, chase_solves, w, p, hw - ra, ra == rab,
                                    zero, beff, ez, x, last);
        free(A); free(A2); free(e); free(col); free(M); free(M2); free(zero); free(ez);
    }
    free(b); free(beff); free(x); free(ax); free(z); free(last);
}

/* ------------------------------------------------------------------ the torus */
static void check_torus(const ml_rowrec *P)
{
    const size_t h = P->h, w = P->w, hw = h * w;
    const unsigned p = P->p;
    char what[160];
    snprintf(what, sizeof what, "torus %zux%zu p=%u d=%u cr=%u cl=%u cu=%u cd=%u", h, w, p,
             P->d, P->cr, P->cl, P->cu, P->cd);
    n_torus++;
    uint8_t *b = malloc(hw), *x = malloc(hw), *ax = malloc(hw), *u = malloc(w), *v = malloc(w);
    uint8_t *r1 = malloc(w), *r2 = malloc(w), *s1 = malloc(w), *s2 = malloc(w);
    const int withb = (int)(rnd() % 4 != 0);
    for (size_t i = 0; i < hw; i++) b[i] = withb ? (uint8_t)(rnd() % p) : 0;
    for (size_t c = 0; c < w; c++) { u[c] = (uint8_t)(rnd() % p); v[c] = (uint8_t)(rnd() % p); }
    CHECK(ml_rowrec_chase_torus_gfp(P, withb ? b : NULL, u, v, x, r1, r2) == 0, "%s", what);
    CHECK(!memcmp(x, u, w), "%s: first row is not u", what);
    int ok = 1;
    for (size_t c = 0; c < w; c++) ok &= r1[c] == (x[(h - 1) * w + c] + p - v[c]) % p;
    CHECK(ok, "%s: r1 is not X_{h-1} - v", what);
    apply_A(P, x, ax, 1);
    ok = 1;
    for (size_t r = 0; r < h; r++)
        for (size_t c = 0; c < w; c++) {
            unsigned want = b[r * w + c];
            if (r == 0) want = (want + P->cd * r1[c]) % p;
            if (r + 1 == h) want = (want + (p - P->cu) * r2[c]) % p;
            ok &= ax[r * w + c] == want;
        }
    CHECK(ok, "%s: torus A x is not b (+ cd r1 on row 0, - cu r2 on row h-1)", what);
    CHECK(ml_rowrec_chase_torus_gfp(P, withb ? b : NULL, u, v, NULL, s1, s2) == 0);
    CHECK(!memcmp(r1, s1, w) && !memcmp(r2, s2, w), "%s: x NULL, other residuals", what);
    if (hw <= 81) {
        n_rank++;
        const size_t W2 = 2 * w;
        uint8_t *A = malloc(hw * (hw + 1)), *A2 = malloc(hw * hw), *e = calloc(hw, 1), *col = malloc(hw);
        for (size_t j = 0; j < hw; j++) {
            e[j] = 1;
            apply_A(P, e, col, 1);
            e[j] = 0;
            for (size_t i = 0; i < hw; i++) A[i * (hw + 1) + j] = A2[i * hw + j] = col[i];
        }
        for (size_t i = 0; i < hw; i++) A[i * (hw + 1) + hw] = b[i];
        size_t ra = rank_p(A2, hw, hw, p), rab = rank_p(A, hw, hw + 1, p);
        uint8_t *M = malloc(W2 * (W2 + 1)), *M2 = malloc(W2 * W2), *zr = calloc(w, 1);
        for (size_t j = 0; j < W2; j++) {
            memset(u, 0, w); memset(v, 0, w);
            if (j < w) u[j] = 1; else v[j - w] = 1;
            ml_rowrec_chase_torus_gfp(P, NULL, u, v, NULL, r1, r2);
            for (size_t c = 0; c < w; c++) {
                M[c * (W2 + 1) + j] = M2[c * W2 + j] = r1[c];
                M[(w + c) * (W2 + 1) + j] = M2[(w + c) * W2 + j] = r2[c];
            }
        }
        ml_rowrec_chase_torus_gfp(P, b, zr, zr, NULL, r1, r2);
        for (size_t c = 0; c < w; c++) {
            M[c * (W2 + 1) + W2] = r1[c];
            M[(w + c) * (W2 + 1) + W2] = r2[c];
        }
        size_t rm = rank_p(M2, W2, W2, p), rmb = rank_p(M, W2, W2 + 1, p);
        CHECK(hw - ra == W2 - rm, "%s: dim ker A %zu, chase nullity %zu", what, hw - ra, W2 - rm);
        CHECK((ra == rab) == (rm == rmb), "%s: solvable %d, chase says %d", what, ra == rab,
              rm == rmb);
        free(A); free(A2); free(e); free(col); free(M); free(M2); free(zr);
    }
    free(b); free(x); free(ax); free(u); free(v); free(r1); free(r2); free(s1); free(s2);
}

/* ------------------------------------------------------------------ apply over GF(2) */
static void check_apply(const ml_rowrec *P)
{
    const size_t h = P->h, w = P->w, hw = h * w, nb = (w + 7) / 8;
    char what[160];
    snprintf(what, sizeof what, "apply %zux%zu d=%u cr=%u cl=%u cu=%u cd=%u", h, w, P->d,
             P->cr, P->cl, P->cu, P->cd);
    uint8_t *x = malloc(hw), *s = malloc(hw), *ax = malloc(hw), *want = malloc(hw), *out = malloc(hw);
    uint8_t *x01 = malloc(hw);
    const unsigned tc = (unsigned)(rnd() % 2);
    const int withs = (int)(rnd() % 3 != 0);
    for (size_t i = 0; i < hw; i++) {
        x[i] = (uint8_t)rnd();                     /* junk above the low bit */
        s[i] = (uint8_t)rnd();
        x01[i] = x[i] & 1;
    }
    apply_A(P, x01, ax, 0);
    size_t bad = 0;
    for (size_t i = 0; i < hw; i++) {
        want[i] = (uint8_t)((ax[i] + (withs ? s[i] : 0)) & 1);
        bad += want[i] != tc;
    }
    memset(out, 0xAA, hw);
    CHECK(ml_rowrec_apply_gf2(P, 0, withs ? s : NULL, tc, x, out) == bad, "%s: count", what);
    CHECK(!memcmp(out, want, hw), "%s: s + A x (bytes)", what);
    CHECK(ml_rowrec_apply_gf2(P, 0, withs ? s : NULL, tc, x, NULL) == bad, "%s: count, out NULL", what);
    /* packed, junk past column w */
    uint8_t *xp = malloc(h * nb), *sp = malloc(h * nb), *op = malloc(h * nb);
    for (size_t r = 0; r < h; r++)
        for (size_t k = 0; k < nb; k++) {
            uint8_t vx = (uint8_t)rnd(), vs = (uint8_t)rnd();
            for (size_t j = 0; j < 8 && 8 * k + j < w; j++) {
                uint8_t m = (uint8_t)(0x80u >> j);
                vx = (uint8_t)((vx & ~m) | ((x01[r * w + 8 * k + j]) ? m : 0));
                vs = (uint8_t)((vs & ~m) | ((s[r * w + 8 * k + j] & 1) ? m : 0));
            }
            xp[r * nb + k] = vx;
            sp[r * nb + k] = vs;
        }
    memset(op, 0xAA, h * nb);
    CHECK(ml_rowrec_apply_gf2(P, 1, withs ? sp : NULL, tc, xp, op) == bad, "%s: packed count", what);
    int same = 1;
    for (size_t r = 0; r < h; r++)
        for (size_t k = 0; k < nb; k++)
            for (size_t j = 0; j < 8; j++) {
                int got = (op[r * nb + k] >> (7 - j)) & 1;
                same &= 8 * k + j < w ? got == want[r * w + 8 * k + j] : got == 0;
            }
    CHECK(same, "%s: s + A x (packed, or junk past w)", what);
    if (withs) {                                   /* out aliasing s */
        CHECK(ml_rowrec_apply_gf2(P, 1, sp, tc, xp, sp) == bad && !memcmp(sp, op, h * nb),
              "%s: packed, out = s", what);
        CHECK(ml_rowrec_apply_gf2(P, 0, s, tc, x, s) == bad && !memcmp(s, want, hw),
              "%s: bytes, out = s", what);
    }
    free(x); free(s); free(ax); free(want); free(out); free(x01); free(xp); free(sp); free(op);
}

/* ------------------------------------------------------------------ the algebra */
typedef struct {
    size_t w;
    unsigned p, t0, s, r, mu;
    uint8_t *K;              /* (w + 1) x w: the Krylov vectors T^j e_0 */
} krylov;

static void T_apply(const krylov *Kr, const uint8_t *v, uint8_t *out)
{
    const size_t w = Kr->w;
    for (size_t c = 0; c < w; c++) {
        unsigned long a = (unsigned long)Kr->t0 * v[c];
        if (c) a += (unsigned long)Kr->s * v[c - 1];
        if (c + 1 < w) a += (unsigned long)Kr->r * v[c + 1];
        out[c] = (uint8_t)(a % Kr->p);
    }
}

/* sum_k f_k T^k e_0 (deg f <= w) */
static void eval_f(const krylov *Kr, const uint8_t *f, size_t nf, uint8_t *out)
{
    const size_t w = Kr->w;
    unsigned long *acc = calloc(w, sizeof(unsigned long));
    for (size_t k = 0; k < nf; k++)
        if (f[k])
            for (size_t c = 0; c < w; c++) acc[c] = (acc[c] + (unsigned long)f[k] * Kr->K[k * w + c]) % Kr->p;
    for (size_t c = 0; c < w; c++) out[c] = (uint8_t)acc[c];
    free(acc);
}

/* coefficients 0..len-1 of a polynomial as bytes */
static void coeffs_gf2(const ml_gf2x *f, uint8_t *out, size_t len)
{
    for (size_t k = 0; k < len; k++)
        out[k] = (uint8_t)(k / 64 < f->n ? (f->c[k / 64] >> (k % 64)) & 1 : 0);
}

static void coeffs_gfp(const ml_gfpx *f, uint8_t *out, size_t len)
{
    for (size_t k = 0; k < len; k++) out[k] = k < f->n ? f->c[k] : 0;
}

static void check_algebra(const ml_rowrec *P)
{
    const size_t w = P->w, h = P->h, nw = (w + 63) / 64;
    const unsigned p = P->p, ic = inv_p(P->cu, p);
    char what[160];
    snprintf(what, sizeof what, "algebra %zux%zu p=%u d=%u cr=%u cl=%u cu=%u cd=%u", h, w, p,
             P->d, P->cr, P->cl, P->cu, P->cd);
    n_alg++;
    krylov Kr = {w, p, (p - P->d) % p * ic % p, (p - P->cr) % p * ic % p,
                 (p - P->cl) % p * ic % p, (p - P->cd) % p * ic % p, NULL};
    unsigned t0, s, r, mu;
    ml_rowrec_coeffs(P, &t0, &s, &r, &mu);
    CHECK(t0 == Kr.t0 && s == Kr.s && r == Kr.r && mu == Kr.mu, "%s: coeffs", what);
    Kr.K = calloc((w + 1) * w, 1);
    Kr.K[0] = 1;
    for (size_t j = 0; j < w; j++) T_apply(&Kr, Kr.K + j * w, Kr.K + (j + 1) * w);
    uint8_t *c = malloc(w + 1), *vec = malloc(w), *vec2 = malloc(w), *f = malloc(w + 1);
    /* X_h of X_{r+1} = T X_r + mu X_{r-1} from X_0 = e_0 */
    uint8_t *xa = calloc(w, 1), *xb = calloc(w, 1), *xn = malloc(w), *Xh;
    xb[0] = 1;
    for (size_t i = 0; i < h; i++) {
        T_apply(&Kr, xb, xn);
        for (size_t k = 0; k < w; k++) xn[k] = (uint8_t)((xn[k] + mu * xa[k]) % p);
        uint8_t *t = xa; xa = xb; xb = xn; xn = t;
    }
    Xh = xb;
    /* and by the chase from e_0 (b = 0) */
    uint8_t *zero = calloc(h * w, 1), *e0 = calloc(w, 1), *xs = malloc(h * w), *lastc = malloc(w);
    e0[0] = 1;
    chase(P, zero, e0, xs, lastc);
    CHECK(!memcmp(lastc, Xh, w), "%s: the chase's X_h from e_0 is not P_h(T) e_0", what);
    if (p == 2) {
        ml_gf2x chi, F, g, bad;
        ml_gf2x_init(&chi); ml_gf2x_init(&F); ml_gf2x_init(&g); ml_gf2x_init(&bad);
        CHECK(ml_rowrec_charpoly_gf2(P, &chi) == 0);
        CHECK(ml_gf2x_deg(&chi) == (long)w, "%s: deg chi %ld", what, ml_gf2x_deg(&chi));
        coeffs_gf2(&chi, c, w + 1);
        eval_f(&Kr, c, w + 1, vec);
        int z = 1;
        for (size_t k = 0; k < w; k++) z &= vec[k] == 0;
        CHECK(z, "%s: chi(T) e_0 != 0", what);
        CHECK(ml_rowrec_F_gf2(P, &chi, &F) == 0);
        CHECK(ml_gf2x_deg(&F) < (long)w, "%s: deg F %ld", what, ml_gf2x_deg(&F));
        coeffs_gf2(&F, f, w);
        eval_f(&Kr, f, w, vec);
        CHECK(!memcmp(vec, Xh, w), "%s: F(T) e_0 != X_h", what);
        /* vec_to_poly / poly_to_vec */
        uint64_t *vw = calloc(nw, 8), *vw2 = calloc(nw, 8);
        for (size_t k = 0; k < w; k++) {
            vec2[k] = (uint8_t)(rnd() & 1);
            vw[k / 64] |= (uint64_t)vec2[k] << (k % 64);
        }
        CHECK(ml_rowrec_vec_to_poly_gf2(P, vw, &g) == 0);
        CHECK(ml_gf2x_deg(&g) < (long)w, "%s: deg vec_to_poly %ld", what, ml_gf2x_deg(&g));
        coeffs_gf2(&g, f, w);
        eval_f(&Kr, f, w, vec);
        CHECK(!memcmp(vec, vec2, w), "%s: vec_to_poly(v)(T) e_0 != v", what);
        for (size_t k = 0; k < nw; k++) vw[k] = rnd();
        if (w % 64) vw[nw - 1] &= ((uint64_t)1 << (w % 64)) - 1;
        if (rnd() % 3 == 0) vw[(w - 1) / 64] |= (uint64_t)1 << ((w - 1) % 64);   /* deg w - 1 */
        ml_gf2x_set(&g, vw, nw);
        CHECK(ml_rowrec_poly_to_vec_gf2(P, &g, vw2) == 0);
        coeffs_gf2(&g, f, w);
        eval_f(&Kr, f, w, vec);
        int same = 1;
        for (size_t k = 0; k < w; k++) same &= (uint8_t)getbit(vw2, k) == vec[k];
        for (size_t k = w; k < 64 * nw; k++) same &= !getbit(vw2, k);
        CHECK(same, "%s: poly_to_vec(f) != f(T) e_0", what);
        /* refusals: deg f >= w, chi of another degree */
        ml_gf2x_zero(&bad);
        ml_gf2x_addmono(&bad, w);
        CHECK(ml_rowrec_poly_to_vec_gf2(P, &bad, vw2) == 1, "%s: deg f = w accepted", what);
        ml_gf2x_addmono(&bad, w + 1);
        CHECK(ml_rowrec_F_gf2(P, &bad, &F) == 1, "%s: chi of degree w + 1 accepted", what);
        free(vw); free(vw2);
        ml_gf2x_clear(&chi); ml_gf2x_clear(&F); ml_gf2x_clear(&g); ml_gf2x_clear(&bad);
    } else {
        ml_gfpx chi, F, g, bad;
        ml_gfpx_init(&chi); ml_gfpx_init(&F); ml_gfpx_init(&g); ml_gfpx_init(&bad);
        CHECK(ml_rowrec_charpoly_gfp(P, &chi) == 0);
        CHECK(ml_gfpx_deg(&chi) == (long)w && chi.c[w] == 1, "%s: chi not monic of degree w",
              what);
        coeffs_gfp(&chi, c, w + 1);
        eval_f(&Kr, c, w + 1, vec);
        int z = 1;
        for (size_t k = 0; k < w; k++) z &= vec[k] == 0;
        CHECK(z, "%s: chi(T) e_0 != 0", what);
        CHECK(ml_rowrec_F_gfp(P, &chi, &F) == 0);
        CHECK(ml_gfpx_deg(&F) < (long)w, "%s: deg F %ld", what, ml_gfpx_deg(&F));
        coeffs_gfp(&F, f, w);
        eval_f(&Kr, f, w, vec);
        CHECK(!memcmp(vec, Xh, w), "%s: F(T) e_0 != X_h", what);
        for (size_t k = 0; k < w; k++) vec2[k] = (uint8_t)(rnd() % p);
        CHECK(ml_rowrec_vec_to_poly_gfp(P, vec2, &g) == 0);
        CHECK(ml_gfpx_deg(&g) < (long)w, "%s: deg vec_to_poly %ld", what, ml_gfpx_deg(&g));
        coeffs_gfp(&g, f, w);
        eval_f(&Kr, f, w, vec);
        CHECK(!memcmp(vec, vec2, w), "%s: vec_to_poly(v)(T) e_0 != v", what);
        for (size_t k = 0; k < w; k++) f[k] = (uint8_t)(rnd() % p);
        if (rnd() % 3 == 0) f[w - 1] = 1;
        ml_gfpx_set(&g, f, w);
        memset(vec2, 0xEE, w);
        CHECK(ml_rowrec_poly_to_vec_gfp(P, &g, vec2) == 0);
        eval_f(&Kr, f, w, vec);
        CHECK(!memcmp(vec, vec2, w), "%s: poly_to_vec(f) != f(T) e_0", what);
        /* refusals: deg f >= w, chi not monic, chi of another degree */
        for (size_t k = 0; k <= w; k++) c[k] = (uint8_t)(k == w ? 1 : rnd() % p);
        ml_gfpx_set(&bad, c, w + 1);
        CHECK(ml_rowrec_poly_to_vec_gfp(P, &bad, vec2) == 1, "%s: deg f = w accepted", what);
        c[w] = (uint8_t)(2 + rnd() % (p - 2));
        ml_gfpx_set(&bad, c, w + 1);
        CHECK(ml_rowrec_F_gfp(P, &bad, &F) == 1, "%s: chi not monic accepted", what);
        ml_gfpx_set(&bad, c, w);
        if (ml_gfpx_deg(&bad) != (long)w)
            CHECK(ml_rowrec_F_gfp(P, &bad, &F) == 1, "%s: chi of degree < w accepted", what);
        ml_gfpx_clear(&chi); ml_gfpx_clear(&F); ml_gfpx_clear(&g); ml_gfpx_clear(&bad);
    }
    free(Kr.K); free(c); free(vec); free(vec2); free(f); free(xa); free(xb); free(xn);
    free(zero); free(e0); free(xs); free(lastc);
}

/* ------------------------------------------------------------------ doubling */
static void check_doubling(void)
{
    static const unsigned primes[] = {3, 5, 7, 11, 13, 17, 31, 61, 101, 127, 211, 241, 251};
    size_t saved = ml_rowrec_doubling_w, sm = ml_gfpx_mul_threshold;
    size_t sd = ml_gfpx_div_threshold;
    ml_gfpx c1, c2, f1, f2;
    ml_gfpx_init(&c1); ml_gfpx_init(&c2); ml_gfpx_init(&f1); ml_gfpx_init(&f2);
    int n = 0;
    for (int trial = 0; trial < 120; trial++) {
        const unsigned p = primes[trial % 13];
        size_t w = (size_t)rnd_range(1, trial % 4 ? 40 : 300);
        size_t h = (size_t)rnd_range(1, trial % 3 ? 3 * (long)w : 2000);
        ml_rowrec P;
        random_board(&P, h, w, p, 1);
        if (!P.cr)
            continue;
        ml_gfpx_mul_threshold = trial % 2 ? 2 + rnd() % 30 : sm;
        ml_gfpx_div_threshold = trial % 2 ? 1 + rnd() % 30 : sd;
        ml_rowrec_doubling_w = (size_t)-1;              /* step by step */
        int ok = ml_rowrec_charpoly_gfp(&P, &c1) == 0 && ml_rowrec_F_gfp(&P, &c1, &f1) == 0;
        ml_rowrec_doubling_w = 1;                        /* doubling */
        ok &= ml_rowrec_charpoly_gfp(&P, &c2) == 0 && ml_rowrec_F_gfp(&P, &c2, &f2) == 0;
        CHECK(ok && c1.n == c2.n && !memcmp(c1.c, c2.c, c1.n) && f1.n == f2.n
              && (!f1.n || !memcmp(f1.c, f2.c, f1.n)),
              "doubling != steps: p=%u h=%zu w=%zu", p, h, w);
        n++;
    }
    CHECK(n > 80, "doubling: %d boards", n);
    ml_rowrec_doubling_w = saved;
    ml_gfpx_mul_threshold = sm;
    ml_gfpx_div_threshold = sd;
    ml_gfpx_clear(&c1); ml_gfpx_clear(&c2); ml_gfpx_clear(&f1); ml_gfpx_clear(&f2);
}

/* ------------------------------------------------------------------ the stop */
static void check_stop(void)
{
    for (int how = 0; how < 2; how++)
        for (unsigned pi = 0; pi < 3; pi++) {
            ml_rowrec_doubling_w = pi == 2 ? 1 : (size_t)-1;   /* p = 7: steps, then doubling */
            const unsigned p = pi ? 7 : 2;
            ml_rowrec P;
            random_board(&P, 300, 300, p, 1);
            const char *path = pi == 2 ? "doubling" : "steps";
            _Atomic int stop = 1;
            ml_scope sc;
            int rc1, rc2, rc3;
            if (how) ml_scope_enter(&sc, &stop, NULL, NULL, 0);
            else ml_interrupt_request();
            if (p == 2) {
                ml_gf2x chi, F;
                ml_gf2x_init(&chi); ml_gf2x_init(&F);
                ml_gf2x_addmono(&chi, 3);
                ml_gf2x_addmono(&F, 5);
                rc1 = ml_rowrec_charpoly_gf2(&P, &chi);
                CHECK(ml_gf2x_deg(&chi) == 3, "stopped charpoly wrote its output");
                ml_gf2x_zero(&chi);
                ml_gf2x_addmono(&chi, 300);
                rc2 = ml_rowrec_F_gf2(&P, &chi, &F);
                CHECK(ml_gf2x_deg(&F) == 5, "stopped F wrote its output");
                ml_gf2x_clear(&chi); ml_gf2x_clear(&F);
            } else {
                ml_gfpx chi, F;
                uint8_t one[301] = {0};
                ml_gfpx_init(&chi); ml_gfpx_init(&F);
                one[3] = 1;
                ml_gfpx_set(&chi, one, 4);
                ml_gfpx_set(&F, one, 4);
                rc1 = ml_rowrec_charpoly_gfp(&P, &chi);
                CHECK(ml_gfpx_deg(&chi) == 3, "stopped charpoly wrote its output");
                one[3] = 0; one[300] = 1;
                ml_gfpx_set(&chi, one, 301);
                rc2 = ml_rowrec_F_gfp(&P, &chi, &F);
                CHECK(ml_gfpx_deg(&F) == 3, "stopped F wrote its output");
                ml_gfpx_clear(&chi); ml_gfpx_clear(&F);
            }
            /* the torus chase stops between rows: its last rows stay unwritten */
            ml_rowrec Q = P;
            Q.h = 64; Q.w = 5;
            uint8_t x[64 * 5], u[5] = {1, 2, 3, 4, 5}, v[5] = {0}, r1[5], r2[5];
            memset(x, 0xEE, sizeof x);
            memset(r1, 0xEE, sizeof r1);
            memset(r2, 0xEE, sizeof r2);
            rc3 = ml_rowrec_chase_torus_gfp(&Q, NULL, u, v, x, r1, r2);
            if (how) CHECK(ml_scope_leave(&sc) != 0, "the scope saw no stop");
            else CHECK(ml_interrupt_take() == 1, "the stop was not taken");
            CHECK(rc1 == 3 && rc2 == 3, "stop (%s, p=%u, %s): charpoly %d, F %d, want 3",
                  how ? "scope" : "process", p, path, rc1, rc2);
            CHECK(rc3 == 3 && x[63 * 5] == 0xEE && r1[0] == 0xEE && r2[0] == 0xEE,
                  "stop (%s, p=%u): torus %d (want 3), last row or residuals written",
                  how ? "scope" : "process", p, rc3);
        }
    /* without a stop, the same calls finish */
    ml_rowrec P;
    random_board(&P, 300, 300, 2, 1);
    ml_gf2x chi, F;
    ml_gf2x_init(&chi); ml_gf2x_init(&F);
    CHECK(ml_rowrec_charpoly_gf2(&P, &chi) == 0 && ml_rowrec_F_gf2(&P, &chi, &F) == 0);
    ml_gf2x_clear(&chi); ml_gf2x_clear(&F);
    /* the torus needs 3 rows */
    uint8_t x[10], u[5] = {0}, r1[5], r2[5];
    random_board(&P, 2, 5, 3, 0);
    CHECK(ml_rowrec_chase_torus_gfp(&P, NULL, u, u, x, r1, r2) == 1, "torus h = 2 accepted");
    P.h = 1;
    CHECK(ml_rowrec_chase_torus_gfp(&P, NULL, u, u, x, r1, r2) == 1, "torus h = 1 accepted");
}

int main(void)
{
    static const size_t wide[] = {63, 64, 65, 127, 128, 129, 200, 300};
    const size_t dw = ml_rowrec_doubling_w, dm = ml_gfpx_mul_threshold;
    const size_t dd = ml_gfpx_div_threshold;
    for (int trial = 0; trial < 900; trial++) {
        const unsigned p = PRIMES[trial % 5];
        size_t h = (size_t)rnd_range(1, 9), w = (size_t)rnd_range(1, 9);
        if (trial % 11 == 0) h = 1;
        if (trial % 13 == 0) w = 1;
        if (trial % 17 == 0) { w = wide[rnd() % 8]; h = (size_t)rnd_range(1, 12); }
        if (trial % 19 == 0) { h = wide[rnd() % 8]; }
        ml_rowrec P;
        random_board(&P, h, w, p, trial % 2);
        check_chase(&P);
        if (p == 2) check_apply(&P);
        if (h >= 3 && (h <= 40 || trial % 3 == 0)) check_torus(&P);
        if (P.cr && w <= 300) check_algebra(&P);
        if (P.cr && w <= 300 && p != 2 && trial % 2) {   /* again, doubling and fast paths */
            ml_rowrec_doubling_w = 1;
            ml_gfpx_mul_threshold = 2 + rnd() % 12;
            ml_gfpx_div_threshold = 1 + rnd() % 12;
            check_algebra(&P);
            ml_rowrec_doubling_w = dw;
            ml_gfpx_mul_threshold = dm;
            ml_gfpx_div_threshold = dd;
        }
    }
    check_doubling();
    check_stop();
    ml_rowrec_doubling_w = dw;
    printf("chases %d (dense ranks %d, enumerated %d), tori %d, algebra %d\n", n_chase, n_rank,
           n_enum, n_torus, n_alg);
    CHECK(n_rank > 300 && n_enum > 100 && n_torus > 300 && n_alg > 300);
    return t_done();
}
