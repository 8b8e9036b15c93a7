/* gf3.c: bit-sliced dense row echelon over GF(3) and Z/4 (see gf3.h for the method). */
#include "gf3.h"
#include "cpu.h"
#include "interrupt.h"

#include <stdlib.h>
#include <string.h>

/* Words (per plane) of a Four Russians table row: a table of q^g rows is built per
 * column chunk of this many words so it stays in cache (729 x 2 x 16 words = 186 KB
 * for GF(3), 1024 x 2 x 8 words = 128 KB for Z/4). */
#ifndef ML_GF3_CHUNK
#define ML_GF3_CHUNK 16
#endif
/* Largest group of pivot rows combined in one table (3^g or 4^g rows). */
#ifndef ML_GF3_GMAX
#define ML_GF3_GMAX 6
#endif
#ifndef ML_Z4_GMAX
#define ML_Z4_GMAX 5
#endif

/* ------------------------------------------------------------------ word kernels
 * Written so gcc -O3 vectorises them; compiled twice (portable and AVX2) and chosen at
 * run time through csrc/cpu.h. */
#define ML_AI static inline __attribute__((always_inline))

/* GF(3), planes P = [x == 1], M = [x == 2] */
/* d += s */
ML_AI void add_body(uint64_t *restrict dP, uint64_t *restrict dM, const uint64_t *restrict sP,
                    const uint64_t *restrict sM, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t xp = dP[j], xm = dM[j], yp = sP[j], ym = sM[j];
        uint64_t t = (xp | ym) ^ (xm | yp);
        dP[j] = (xm | ym) ^ t;
        dM[j] = (xp | yp) ^ t;
    }
}

/* d -= s */
ML_AI void sub_body(uint64_t *restrict dP, uint64_t *restrict dM, const uint64_t *restrict sP,
                    const uint64_t *restrict sM, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t xp = dP[j], xm = dM[j], yp = sM[j], ym = sP[j];
        uint64_t t = (xp | ym) ^ (xm | yp);
        dP[j] = (xm | ym) ^ t;
        dM[j] = (xp | yp) ^ t;
    }
}

/* o = a + d s for d = 1 or 2 (= -1) */
ML_AI void add3_body(uint64_t *restrict oP, uint64_t *restrict oM, const uint64_t *restrict aP,
                     const uint64_t *restrict aM, const uint64_t *restrict sP,
                     const uint64_t *restrict sM, size_t n, int d)
{
    const uint64_t *restrict yP = d == 2 ? sM : sP, *restrict yM = d == 2 ? sP : sM;
    for (size_t j = 0; j < n; j++) {
        uint64_t xp = aP[j], xm = aM[j], yp = yP[j], ym = yM[j];
        uint64_t t = (xp | ym) ^ (xm | yp);
        oP[j] = (xm | ym) ^ t;
        oM[j] = (xp | yp) ^ t;
    }
}

/* One pivot of a panel on the rows below it, by position: the panel words xP/xM of
 * rows i < n lose x_i times the pivot's word (yp, ym), x_i their entry at bit b, which
 * is also stored in L[i] and T[i]. Branch-free so it vectorises. */
ML_AI void panel_body(uint64_t *restrict xP, uint64_t *restrict xM, uint64_t yp, uint64_t ym,
                      unsigned b, size_t n, uint8_t *restrict L, uint8_t *restrict T)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t xp = xP[i], xm = xM[i];
        uint64_t x1 = (xp >> b) & 1, x2 = (xm >> b) & 1;
        L[i] = T[i] = (uint8_t)(x1 | (x2 << 1));
        uint64_t s1 = (uint64_t)0 - x1, s2 = (uint64_t)0 - x2, keep = ~(s1 | s2);
        uint64_t ts = (xp | yp) ^ (xm | ym), ta = (xp | ym) ^ (xm | yp);
        xP[i] = (xp & keep) | (((xm | yp) ^ ts) & s1) | (((xm | ym) ^ ta) & s2);
        xM[i] = (xm & keep) | (((xp | ym) ^ ts) & s1) | (((xp | yp) ^ ta) & s2);
    }
}

/* Z/4, planes L = bit 0, H = bit 1 (two's complement: -s = (sL, sH ^ sL)) */
/* d += s */
ML_AI void add4_body(uint64_t *restrict dL, uint64_t *restrict dH, const uint64_t *restrict sL,
                     const uint64_t *restrict sH, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t xl = dL[j], yl = sL[j];
        dH[j] ^= sH[j] ^ (xl & yl);
        dL[j] = xl ^ yl;
    }
}

/* d -= s */
ML_AI void sub4_body(uint64_t *restrict dL, uint64_t *restrict dH, const uint64_t *restrict sL,
                     const uint64_t *restrict sH, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t xl = dL[j], yl = sL[j];
        dH[j] ^= sH[j] ^ (yl & ~xl);
        dL[j] = xl ^ yl;
    }
}

/* o = a + d s for d = 1, 2, 3 (= -1) */
ML_AI void add43_body(uint64_t *restrict oL, uint64_t *restrict oH, const uint64_t *restrict aL,
                      const uint64_t *restrict aH, const uint64_t *restrict sL,
                      const uint64_t *restrict sH, size_t n, int d)
{
    if (d == 2) {
        for (size_t j = 0; j < n; j++) { oL[j] = aL[j]; oH[j] = aH[j] ^ sL[j]; }
        return;
    }
    const uint64_t nm = d == 3 ? ~(uint64_t)0 : 0;   /* subtract: carry from ~a */
    for (size_t j = 0; j < n; j++) {
        uint64_t xl = aL[j], yl = sL[j];
        oH[j] = aH[j] ^ sH[j] ^ (yl & (xl ^ nm));
        oL[j] = xl ^ yl;
    }
}

/* the Z/4 panel step: x_i in 0..3; x = 1: row - pivot, 3: row + pivot, 2: row + 2 pivot */
ML_AI void panel4_body(uint64_t *restrict xL, uint64_t *restrict xH, uint64_t yl, uint64_t yh,
                       unsigned b, size_t n, uint8_t *restrict L, uint8_t *restrict T)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t xl = xL[i], xh = xH[i];
        uint64_t x1 = (xl >> b) & 1, x2 = (xh >> b) & 1;
        L[i] = T[i] = (uint8_t)(x1 | (x2 << 1));
        uint64_t odd = (uint64_t)0 - x1, two = (uint64_t)0 - (x2 & ~x1 & 1);
        uint64_t neg = (uint64_t)0 - (x1 & x2);        /* x = 3: add, carry from a */
        uint64_t carry = yl & (xl ^ ~neg);              /* x = 1: subtract, carry from ~a */
        xL[i] = xl ^ (yl & odd);
        xH[i] = xh ^ (((yh ^ carry) & odd) | (yl & two));
    }
}

typedef void (*panel_fn)(uint64_t *, uint64_t *, uint64_t, uint64_t, unsigned, size_t,
                         uint8_t *, uint8_t *);
typedef void (*rowop_fn)(uint64_t *, uint64_t *, const uint64_t *, const uint64_t *, size_t);
typedef void (*rowop3_fn)(uint64_t *, uint64_t *, const uint64_t *, const uint64_t *,
                          const uint64_t *, const uint64_t *, size_t, int);
typedef struct { rowop_fn add, sub; rowop3_fn add3; panel_fn panel; } gf3_kernels_t;

#define ML_GF3_KERNELS(SUF, ATTR, PRE)                                                      \
    ATTR static void add_##SUF(uint64_t *dP, uint64_t *dM, const uint64_t *sP,              \
                               const uint64_t *sM, size_t n)                                \
    { PRE##add_body(dP, dM, sP, sM, n); }                                                    \
    ATTR static void sub_##SUF(uint64_t *dP, uint64_t *dM, const uint64_t *sP,              \
                               const uint64_t *sM, size_t n)                                \
    { PRE##sub_body(dP, dM, sP, sM, n); }                                                    \
    ATTR static void add3_##SUF(uint64_t *oP, uint64_t *oM, const uint64_t *aP,             \
                                const uint64_t *aM, const uint64_t *sP, const uint64_t *sM, \
                                size_t n, int d)                                             \
    { PRE##add3_body(oP, oM, aP, aM, sP, sM, n, d); }                                        \
    ATTR static void panel_##SUF(uint64_t *xP, uint64_t *xM, uint64_t yp, uint64_t ym,       \
                                 unsigned b, size_t n, uint8_t *L, uint8_t *T)               \
    { PRE##panel_body(xP, xM, yp, ym, b, n, L, T); }                                         \
    static const gf3_kernels_t kernels_##SUF = {add_##SUF, sub_##SUF, add3_##SUF,            \
                                                panel_##SUF};

/* the Z/4 bodies under the names the macro pastes */
#define z4add_body add4_body
#define z4sub_body sub4_body
#define z4add3_body add43_body
#define z4panel_body panel4_body

ML_GF3_KERNELS(gf3_portable, , )
ML_GF3_KERNELS(z4_portable, , z4)
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ML_GF3_AVX2 1
ML_GF3_KERNELS(gf3_avx2, __attribute__((target("avx2"))), )
ML_GF3_KERNELS(z4_avx2, __attribute__((target("avx2"))), z4)
#endif

/* the kernels for q (3 or 4) on this CPU's SIMD path */
static const gf3_kernels_t *kernels_for(unsigned q)
{
#ifdef ML_GF3_AVX2
    if (ml_simd_get() >= ML_SIMD_AVX2) return q == 4 ? &kernels_z4_avx2 : &kernels_gf3_avx2;
#endif
    return q == 4 ? &kernels_z4_portable : &kernels_gf3_portable;
}

void ml_gf3_add(uint64_t *dP, uint64_t *dM, const uint64_t *sP, const uint64_t *sM, size_t n)
{
    kernels_for(3)->add(dP, dM, sP, sM, n);
}

void ml_gf3_sub(uint64_t *dP, uint64_t *dM, const uint64_t *sP, const uint64_t *sM, size_t n)
{
    kernels_for(3)->sub(dP, dM, sP, sM, n);
}

size_t ml_gf3_loff(size_t m, size_t k)
{
    return k ? k * (m - 1) - k * (k - 1) / 2 : 0;
}

/* ------------------------------------------------------------------ packing */
/* Four uint16 entries in one 64-bit word (little endian): bit k of each (0 for P, 1
 * for M) gathered into 4 bits by one multiplication (the partial products land on
 * distinct bits, so nothing carries into bits 48..51), and the inverse spread. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ML_GF3_SWAR 1
static inline unsigned gather4(uint64_t v)
{
    return (unsigned)(((v & 0x0001000100010001ull) * 0x0001000200040008ull) >> 48) & 0xF;
}
static inline uint64_t spread4(unsigned nib)
{
    return ((uint64_t)nib * 0x0000200040008001ull) & 0x0001000100010001ull;
}
#endif

/* row (n entries 0..3) -> the two planes of bits 0 and 1 (GF(3): P = [x == 1] and
 * M = [x == 2]); the rest of the row stays zero */
static void pack_row(const uint16_t *src, size_t n, uint64_t *P, uint64_t *M)
{
    for (size_t w = 0; w * 64 < n; w++) {
        size_t nb = n - w * 64 < 64 ? n - w * 64 : 64, b = 0;
        const uint16_t *s = src + w * 64;
        uint64_t p = 0, q = 0;
#ifdef ML_GF3_SWAR
        for (; b + 4 <= nb; b += 4) {
            uint64_t v;
            memcpy(&v, s + b, 8);
            p |= (uint64_t)gather4(v) << b;
            q |= (uint64_t)gather4(v >> 1) << b;
        }
#endif
        for (; b < nb; b++) {                        /* bits 0 and 1 of the entry */
            p |= (uint64_t)(s[b] & 1) << b;
            q |= (uint64_t)((s[b] >> 1) & 1) << b;
        }
        P[w] = p; M[w] = q;
    }
}

static void unpack_row(const uint64_t *P, const uint64_t *M, size_t n, uint16_t *dst)
{
    for (size_t w = 0; w * 64 < n; w++) {
        size_t nb = n - w * 64 < 64 ? n - w * 64 : 64, b = 0;
        uint64_t p = P[w], q = M[w];
        uint16_t *d = dst + w * 64;
#ifdef ML_GF3_SWAR
        for (; b + 4 <= nb; b += 4) {
            uint64_t v = spread4((unsigned)(p >> b) & 0xF) | spread4((unsigned)(q >> b) & 0xF) << 1;
            memcpy(d + b, &v, 8);
        }
#endif
        for (; b < nb; b++)
            d[b] = (uint16_t)(((p >> b) & 1) | (((q >> b) & 1) << 1));
    }
}

/* Group size g for Four Russians over R rows: least (q^g + R) / g, table build plus one
 * row operation per row, per pivot. */
static int group_size(unsigned q, size_t R, size_t npiv)
{
    const int gmax = q == 4 ? ML_Z4_GMAX : ML_GF3_GMAX;
    int best = 1;
    double bc = (double)q + (double)R;
    size_t pq = q;
    for (int g = 2; g <= gmax && (size_t)g <= npiv; g++) {
        pq *= q;
        double c = ((double)pq + (double)R) / g;
        if (c < bc) { bc = c; best = g; }
    }
    return best;
}

/* row = u * row on words [w0, w1) of both planes, u = -1 (2 in GF(3), 3 in Z/4) */
static void negate_words(unsigned q, uint64_t *row, size_t W, size_t w0, size_t w1)
{
    for (size_t x = w0; x < w1; x++) {
        if (q == 4) { row[W + x] ^= row[x]; continue; }
        uint64_t tmp = row[x]; row[x] = row[W + x]; row[W + x] = tmp;
    }
}

/* Work space of one elimination */
typedef struct {
    unsigned q;
    const gf3_kernels_t *K;
    size_t m, W, RS, CH;
    uint64_t *data, *T;
    uint8_t *mult;
    uint16_t *idx;
    size_t *rows;
    const uint8_t *uinv;
} bs_t;

/* The rest of the rows on words [c0, c1) after the panel of pivots k0 .. k1-1: the
 * panel's pivot rows in order (earlier pivots of the panel, then the scaling), then every
 * row below through Four Russians tables (idx: ng group indices per row). 0, or -2 when
 * interrupted. */
static int update_words(const bs_t *B, size_t k0, size_t k1, size_t c0, size_t c1, int g,
                        size_t ng)
{
    const gf3_kernels_t *K = B->K;
    const size_t m = B->m, W = B->W, RS = B->RS, CH = B->CH, npiv = k1 - k0;
    const unsigned q = B->q;
    for (size_t j = k0; j < k1; j++) {
        uint64_t *rj = B->data + B->rows[j] * RS;
        for (size_t l = k0; l < j; l++) {
            const uint64_t *ul = B->data + B->rows[l] * RS;
            const uint8_t x = B->mult[(l - k0) * m + j];
            if (!x) continue;
            if (x == 1) K->sub(rj + c0, rj + W + c0, ul + c0, ul + W + c0, c1 - c0);
            else K->add3(rj + c0, rj + W + c0, rj + c0, rj + W + c0, ul + c0, ul + W + c0,
                         c1 - c0, (int)(q - x));        /* row - x u = row + (q - x) u */
        }
        if (B->uinv[j] != 1) negate_words(q, rj, W, c0, c1);
    }
    if (k1 >= m || !ng) return 0;
    uint64_t *T = B->T;
    for (size_t s0 = c0; s0 < c1; s0 += CH) {
        const size_t cw = c1 - s0 < CH ? c1 - s0 : CH;
        for (size_t gi = 0; gi < ng; gi++) {
            if (ml_interrupt_poll()) return -2;
            size_t l0 = gi * (size_t)g, l1 = l0 + (size_t)g < npiv ? l0 + (size_t)g : npiv;
            /* T[e] = sum_j digit_j(e) * U_{k0 + l0 + j}, base-q digits of e */
            memset(T, 0, 2 * CH * 8);
            size_t pq = 1;
            for (size_t l = l0; l < l1; l++) {
                const uint64_t *u = B->data + B->rows[k0 + l] * RS;
                for (unsigned d = 1; d < q; d++)
                    for (size_t e = 0; e < pq; e++) {
                        const uint64_t *te = T + e * 2 * CH;
                        uint64_t *to = T + (d * pq + e) * 2 * CH;
                        K->add3(to, to + CH, te, te + CH, u + s0, u + W + s0, cw, (int)d);
                    }
                pq *= q;
            }
            for (size_t i = k1; i < m; i++) {
                const size_t e = B->idx[(i - k1) * ng + gi];
                if (!e) continue;
                uint64_t *ri = B->data + B->rows[i] * RS;
                const uint64_t *te = T + e * 2 * CH;
                K->sub(ri + s0, ri + W + s0, te, te + CH, cw);
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ echelon */
long ml_bitsliced_echelon(unsigned q, size_t m, size_t r, uint16_t *a, size_t stride,
                          size_t *pc, size_t *ipiv, uint8_t *uinv, uint8_t *lpool, size_t *rows)
{
    if (q != 3 && q != 4) return -1;
    if (!m || !r) return 0;
    bs_t B = {0};
    B.q = q; B.K = kernels_for(q); B.m = m; B.rows = rows; B.uinv = uinv;
    const size_t Wr = (r + 63) / 64, W = (Wr + 3) & ~(size_t)3;   /* words per plane */
    const size_t RS = 2 * W;                                        /* words per row */
    B.W = W; B.RS = RS;
    B.CH = q == 4 ? ML_GF3_CHUNK / 2 : ML_GF3_CHUNK;
    const int gmax = q == 4 ? ML_Z4_GMAX : ML_GF3_GMAX;
    size_t tabrows = 1;
    for (int g = 0; g < gmax; g++) tabrows *= q;
    if (m > SIZE_MAX / 8 / RS) return -1;
    const size_t PW = r < 64 ? r : 64;              /* most pivots in a panel */
    B.data = aligned_alloc(32, m * RS * 8);
    B.T = aligned_alloc(32, tabrows * 2 * B.CH * 8);
    B.mult = malloc(m * PW);                        /* panel multipliers: step x position */
    uint64_t *pp = malloc(m * 8), *pm = malloc(m * 8);   /* panel word, by position */
    B.idx = malloc(m * PW * sizeof(uint16_t));      /* table index, by row and group */
    size_t *skipw = malloc(Wr * sizeof(size_t));    /* Z/4: earlier words with skipped columns */
    uint8_t *mult = B.mult;
    uint64_t *data = B.data;
    long rc = -1;
    if (!data || !B.T || !mult || !pp || !pm || !B.idx || !skipw) goto done;
    for (size_t i = 0; i < m; i++) {
        uint64_t *row = data + i * RS;
        memset(row, 0, RS * 8);
        pack_row(a + i * stride, r, row, row + W);
    }
    size_t nsw = 0;
    size_t t = 0;
    for (size_t w = 0; w < Wr && t < m; w++) {
        if (ml_interrupt_poll()) { rc = -2; goto done; }
        const size_t k0 = t, bmax = r - w * 64 < 64 ? r - w * 64 : 64;
        for (size_t i = t; i < m; i++) {
            const uint64_t *row = data + rows[i] * RS;
            pp[i] = row[w]; pm[i] = row[W + w];
        }
        /* ---- the panel: pivots and eliminations on this word only */
        int skipped = 0;
        for (size_t b = 0; b < bmax; b++) {
            const uint64_t bit = (uint64_t)1 << b;
            size_t piv = t;
            if (q == 4) while (piv < m && !(pp[piv] & bit)) piv++;         /* a unit: odd */
            else while (piv < m && !((pp[piv] | pm[piv]) & bit)) piv++;    /* non-zero */
            if (piv >= m) { skipped = 1; continue; }  /* no pivot: a skipped column */
            const size_t col = t - k0;
            if (piv != t) {
                size_t th = rows[piv]; rows[piv] = rows[t]; rows[t] = th;
                uint64_t tw = pp[piv]; pp[piv] = pp[t]; pp[t] = tw;
                tw = pm[piv]; pm[piv] = pm[t]; pm[t] = tw;
                for (size_t l = 0; l < col; l++) {
                    uint8_t tm = mult[l * m + piv]; mult[l * m + piv] = mult[l * m + t];
                    mult[l * m + t] = tm;
                }
            }
            ipiv[t] = piv;
            uint8_t u = (pm[t] & bit) ? (uint8_t)(q - 1) : 1;   /* -1 is its own inverse */
            if (u != 1) {                             /* negate the pivot's word */
                if (q == 4) pm[t] ^= pp[t];
                else { uint64_t tw = pp[t]; pp[t] = pm[t]; pm[t] = tw; }
            }
            uinv[t] = u;
            pc[t] = w * 64 + b;
            B.K->panel(pp + t + 1, pm + t + 1, pp[t], pm[t], (unsigned)b, m - t - 1,
                       lpool + ml_gf3_loff(m, t), mult + col * m + t + 1);
            t++;
            if (t == m) {                             /* the rest of the panel is skipped */
                skipped |= b + 1 < bmax;
                break;
            }
        }
        for (size_t i = k0; i < m; i++) {
            uint64_t *row = data + rows[i] * RS;
            row[w] = pp[i]; row[W + w] = pm[i];
        }
        const size_t k1 = t, npiv = k1 - k0;
        if (npiv) {
            /* group indices of the rows below (Four Russians) */
            const size_t R = m - k1;
            const int g = R ? group_size(q, R, npiv) : 1;
            size_t ng = R ? (npiv + (size_t)g - 1) / (size_t)g : 0, nonzero = 0;
            for (size_t i = k1; i < m; i++) {
                uint16_t *ix = B.idx + (i - k1) * ng;
                for (size_t gi = 0; gi < ng; gi++) {
                    size_t l0 = gi * (size_t)g, l1 = l0 + (size_t)g < npiv ? l0 + (size_t)g : npiv;
                    unsigned s = 0;
                    for (size_t l = l1; l-- > l0;) s = s * q + mult[l * m + i];
                    ix[gi] = (uint16_t)s;
                    nonzero |= s;
                }
            }
            if (!nonzero) ng = 0;
            /* Z/4: words with skipped columns left of this panel carry entries too */
            for (size_t z = 0; z < nsw; z++)
                if ((rc = update_words(&B, k0, k1, skipw[z], skipw[z] + 1, g, ng))) goto done;
            if (w + 1 < Wr && (rc = update_words(&B, k0, k1, w + 1, Wr, g, ng))) goto done;
            rc = -1;
        }
        if (q == 4 && skipped) skipw[nsw++] = w;
    }
    for (size_t i = 0; i < m; i++) {
        const uint64_t *row = data + rows[i] * RS;
        unpack_row(row, row + W, r, a + rows[i] * stride);
    }
    rc = (long)t;
done:
    free(data); free(B.T); free(mult); free(pp); free(pm); free(B.idx); free(skipw);
    return rc;
}
