/* gf3.c: bit-sliced dense row echelon over GF(3) (see gf3.h for the method). */
#include "gf3.h"
#include "cpu.h"
#include "interrupt.h"

#include <stdlib.h>
#include <string.h>

/* Words (per plane) of a Four Russians table row: a table of 3^g rows is built per
 * column chunk of this many words so it stays in cache (729 x 2 x 16 words = 186 KB). */
#ifndef ML_GF3_CHUNK
#define ML_GF3_CHUNK 16
#endif
/* Largest group of pivot rows combined in one table (3^g rows). */
#ifndef ML_GF3_GMAX
#define ML_GF3_GMAX 6
#endif

/* ------------------------------------------------------------------ word kernels
 * Written so gcc -O3 vectorises them; compiled twice (portable and AVX2) and chosen at
 * run time through csrc/cpu.h. */
#define ML_AI static inline __attribute__((always_inline))

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

/* o = a + s (sign = 0) or o = a - s (sign = 1) */
ML_AI void add3_body(uint64_t *restrict oP, uint64_t *restrict oM, const uint64_t *restrict aP,
                     const uint64_t *restrict aM, const uint64_t *restrict sP,
                     const uint64_t *restrict sM, size_t n, int sign)
{
    const uint64_t *restrict yP = sign ? sM : sP, *restrict yM = sign ? sP : sM;
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

typedef void (*panel_fn)(uint64_t *, uint64_t *, uint64_t, uint64_t, unsigned, size_t,
                         uint8_t *, uint8_t *);
typedef void (*rowop_fn)(uint64_t *, uint64_t *, const uint64_t *, const uint64_t *, size_t);
typedef void (*rowop3_fn)(uint64_t *, uint64_t *, const uint64_t *, const uint64_t *,
                          const uint64_t *, const uint64_t *, size_t, int);
typedef struct { rowop_fn add, sub; rowop3_fn add3; panel_fn panel; } gf3_kernels_t;

#define ML_GF3_KERNELS(SUF, ATTR)                                                            \
    ATTR static void add_##SUF(uint64_t *dP, uint64_t *dM, const uint64_t *sP,              \
                               const uint64_t *sM, size_t n)                                \
    { add_body(dP, dM, sP, sM, n); }                                                         \
    ATTR static void sub_##SUF(uint64_t *dP, uint64_t *dM, const uint64_t *sP,              \
                               const uint64_t *sM, size_t n)                                \
    { sub_body(dP, dM, sP, sM, n); }                                                         \
    ATTR static void add3_##SUF(uint64_t *oP, uint64_t *oM, const uint64_t *aP,             \
                                const uint64_t *aM, const uint64_t *sP, const uint64_t *sM, \
                                size_t n, int sign)                                          \
    { add3_body(oP, oM, aP, aM, sP, sM, n, sign); }                                          \
    ATTR static void panel_##SUF(uint64_t *xP, uint64_t *xM, uint64_t yp, uint64_t ym,       \
                                 unsigned b, size_t n, uint8_t *L, uint8_t *T)               \
    { panel_body(xP, xM, yp, ym, b, n, L, T); }                                              \
    static const gf3_kernels_t gf3_kernels_##SUF = {add_##SUF, sub_##SUF, add3_##SUF,        \
                                                    panel_##SUF};

ML_GF3_KERNELS(portable, )
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ML_GF3_AVX2 1
ML_GF3_KERNELS(avx2, __attribute__((target("avx2"))))
#endif

static const gf3_kernels_t *gf3_k(void)
{
#ifdef ML_GF3_AVX2
    if (ml_simd_get() >= ML_SIMD_AVX2) return &gf3_kernels_avx2;
#endif
    return &gf3_kernels_portable;
}

void ml_gf3_add(uint64_t *dP, uint64_t *dM, const uint64_t *sP, const uint64_t *sM, size_t n)
{
    gf3_k()->add(dP, dM, sP, sM, n);
}

void ml_gf3_sub(uint64_t *dP, uint64_t *dM, const uint64_t *sP, const uint64_t *sM, size_t n)
{
    gf3_k()->sub(dP, dM, sP, sM, n);
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

/* row (n entries 0..2) -> the two planes (the rest of the row stays zero) */
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
        for (; b < nb; b++) {
            p |= (uint64_t)(s[b] == 1) << b;
            q |= (uint64_t)(s[b] == 2) << b;
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

/* Group size g for Four Russians over R rows: least (3^g + R) / g, table build plus one
 * row operation per row, per pivot. */
static int group_size(size_t R, size_t npiv)
{
    int best = 1;
    double bc = 3.0 + (double)R;
    size_t p3 = 3;
    for (int g = 2; g <= ML_GF3_GMAX && (size_t)g <= npiv; g++) {
        p3 *= 3;
        double c = ((double)p3 + (double)R) / g;
        if (c < bc) { bc = c; best = g; }
    }
    return best;
}

/* ------------------------------------------------------------------ echelon */
long ml_gf3_echelon(size_t m, size_t r, uint16_t *a, size_t stride, size_t *pc, size_t *ipiv,
                    uint8_t *uinv, uint8_t *lpool, size_t *rows)
{
    for (size_t i = 0; i < m; i++) rows[i] = i;
    if (!m || !r) return 0;
    const gf3_kernels_t *K = gf3_k();
    const size_t Wr = (r + 63) / 64, W = (Wr + 3) & ~(size_t)3;   /* words per plane */
    const size_t RS = 2 * W;                                        /* words per row */
    const size_t CH = ML_GF3_CHUNK;
    size_t tabrows = 1;
    for (int g = 0; g < ML_GF3_GMAX; g++) tabrows *= 3;
    if (m > SIZE_MAX / 8 / RS) return -1;
    uint64_t *data = aligned_alloc(32, m * RS * 8);
    uint64_t *T = aligned_alloc(32, tabrows * 2 * CH * 8);
    const size_t PW = r < 64 ? r : 64;              /* most pivots in a panel */
    uint8_t *mult = malloc(m * PW);                 /* panel multipliers: step x position */
    uint64_t *pp = malloc(m * 8), *pm = malloc(m * 8);   /* panel word, by position */
    uint16_t *idx = malloc(m * PW * sizeof(uint16_t));  /* table index, by row and group */
    long rc = -1;
    if (!data || !T || !mult || !pp || !pm || !idx) goto done;
    for (size_t i = 0; i < m; i++) {
        uint64_t *row = data + i * RS;
        memset(row, 0, RS * 8);
        pack_row(a + i * stride, r, row, row + W);
    }

    size_t t = 0;
    for (size_t w = 0; w < Wr && t < m; w++) {
        if (ml_interrupt_poll()) { rc = -2; goto done; }
        const size_t k0 = t, bmax = r - w * 64 < 64 ? r - w * 64 : 64;
        for (size_t i = t; i < m; i++) {
            const uint64_t *row = data + rows[i] * RS;
            pp[i] = row[w]; pm[i] = row[W + w];
        }
        /* ---- the panel: pivots and eliminations on this word only */
        for (size_t b = 0; b < bmax && t < m; b++) {
            const uint64_t bit = (uint64_t)1 << b;
            size_t piv = t;
            while (piv < m && !((pp[piv] | pm[piv]) & bit)) piv++;
            if (piv == m) continue;                  /* no pivot: a skipped column */
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
            uint8_t u = (pm[t] & bit) ? 2 : 1;
            if (u == 2) { uint64_t tw = pp[t]; pp[t] = pm[t]; pm[t] = tw; }
            uinv[t] = u;                              /* 2^-1 = 2 in GF(3) */
            pc[t] = w * 64 + b;
            K->panel(pp + t + 1, pm + t + 1, pp[t], pm[t], (unsigned)b, m - t - 1,
                     lpool + ml_gf3_loff(m, t), mult + col * m + t + 1);
            t++;
        }
        for (size_t i = k0; i < m; i++) {
            uint64_t *row = data + rows[i] * RS;
            row[w] = pp[i]; row[W + w] = pm[i];
        }
        const size_t k1 = t, npiv = k1 - k0;
        if (!npiv || w + 1 >= Wr) continue;
        /* ---- the rest of the rows, words [w0, Wr) */
        const size_t w0 = w + 1;
        /* the panel's pivot rows, in order: earlier pivots of the panel, then the scaling */
        for (size_t j = k0; j < k1; j++) {
            uint64_t *rj = data + rows[j] * RS;
            for (size_t l = k0; l < j; l++) {
                const uint64_t *ul = data + rows[l] * RS;
                const uint8_t x = mult[(l - k0) * m + j];
                if (x == 1) K->sub(rj + w0, rj + W + w0, ul + w0, ul + W + w0, Wr - w0);
                else if (x == 2) K->add(rj + w0, rj + W + w0, ul + w0, ul + W + w0, Wr - w0);
            }
            if (uinv[j] == 2)
                for (size_t x = w0; x < Wr; x++) {
                    uint64_t tmp = rj[x]; rj[x] = rj[W + x]; rj[W + x] = tmp;
                }
        }
        const size_t R = m - k1;
        if (!R) continue;
        /* every other row: Four Russians, one table of 3^g combinations per group */
        const int g = group_size(R, npiv);
        const size_t ng = (npiv + (size_t)g - 1) / (size_t)g;
        size_t nonzero = 0;
        for (size_t i = k1; i < m; i++) {
            uint16_t *ix = idx + (i - k1) * ng;
            for (size_t gi = 0; gi < ng; gi++) {
                size_t l0 = gi * (size_t)g, l1 = l0 + (size_t)g < npiv ? l0 + (size_t)g : npiv;
                unsigned s = 0;
                for (size_t l = l1; l-- > l0;) s = s * 3 + mult[l * m + i];
                ix[gi] = (uint16_t)s;
                nonzero |= s;
            }
        }
        if (!nonzero) continue;
        for (size_t c0 = w0; c0 < Wr; c0 += CH) {
            const size_t cw = Wr - c0 < CH ? Wr - c0 : CH;
            for (size_t gi = 0; gi < ng; gi++) {
                if (ml_interrupt_poll()) { rc = -2; goto done; }
                size_t l0 = gi * (size_t)g, l1 = l0 + (size_t)g < npiv ? l0 + (size_t)g : npiv;
                /* T[e] = sum_j digit_j(e) * U_{k0 + l0 + j}, base-3 digits of e */
                memset(T, 0, 2 * CH * 8);
                size_t p3 = 1;
                for (size_t l = l0; l < l1; l++) {
                    const uint64_t *u = data + rows[k0 + l] * RS;
                    for (size_t e = 0; e < p3; e++) {
                        const uint64_t *te = T + e * 2 * CH;
                        uint64_t *t1 = T + (p3 + e) * 2 * CH, *t2 = T + (2 * p3 + e) * 2 * CH;
                        K->add3(t1, t1 + CH, te, te + CH, u + c0, u + W + c0, cw, 0);
                        K->add3(t2, t2 + CH, te, te + CH, u + c0, u + W + c0, cw, 1);
                    }
                    p3 *= 3;
                }
                for (size_t i = k1; i < m; i++) {
                    const size_t e = idx[(i - k1) * ng + gi];
                    if (!e) continue;
                    uint64_t *ri = data + rows[i] * RS;
                    const uint64_t *te = T + e * 2 * CH;
                    K->sub(ri + c0, ri + W + c0, te, te + CH, cw);
                }
            }
        }
    }
    for (size_t i = 0; i < m; i++) {
        uint16_t *dst = a + rows[i] * stride;
        if (i < t) {
            const uint64_t *row = data + rows[i] * RS;
            unpack_row(row, row + W, r, dst);
        } else {
            memset(dst, 0, r * sizeof(uint16_t));
        }
    }
    rc = (long)t;
done:
    free(data); free(T); free(mult); free(pp); free(pm); free(idx);
    return rc;
}
