/* bitsliced.c: bit-sliced dense row echelon over GF(3), Z/4 and Z/8 (see bitsliced.h for the
 * method). */
#include "dense/bitsliced.h"
#include "base/bitslice.h"
#include "base/cpu.h"
#include "base/interrupt.h"

#include <stdlib.h>
#include <string.h>

/* Words (per plane) of a Four Russians table row: a table of q^g rows is built per
 * column chunk of this many words so it stays in cache (GF(3): 729 x 2 x 16 words =
 * 186 KB; Z/4: 1024 x 2 x 8 words = 128 KB; Z/8: 512 x 3 x 8 words = 96 KB). */
#ifndef ML_GF3_CHUNK
#define ML_GF3_CHUNK 16
#endif
/* Largest group of pivot rows combined in one table (q^g rows). */
#ifndef ML_GF3_GMAX
#define ML_GF3_GMAX 6
#endif
#ifndef ML_Z4_GMAX
#define ML_Z4_GMAX 5
#endif
#ifndef ML_Z8_GMAX
#define ML_Z8_GMAX 3
#endif

/* ------------------------------------------------------------------ word kernels
 * A row is its planes, plane k at row + k * stride. Written so gcc -O3 vectorises
 * them; compiled twice (portable and AVX2) and chosen at run time through csrc/base/cpu.h.
 * Every kernel has one body per ring: sub (d -= s), axpy (d += c s, c = 1 .. q-1),
 * add3 (o = a + s, o apart from a and s), scale (d = c d, c a unit) and panel (one
 * pivot of a panel on the rows below it, see panel_gf3). */
#define ML_AI static inline __attribute__((always_inline))

/* ---- GF(3), planes P = [x == 1], M = [x == 2]: x + y is
 *      t = (xP | yM) ^ (xM | yP), P = (xM | yM) ^ t, M = (xP | yP) ^ t; -y swaps yP, yM */
ML_AI void add_gf3_word(uint64_t xp, uint64_t xm, uint64_t yp, uint64_t ym, uint64_t *op,
                        uint64_t *om)
{
    ML_GF3_ADD(xp, xm, yp, ym, *op, *om);
}

/* d += y (in place) and o = a + y (apart); y given as its planes (swapped: -y) */
ML_AI void ip_gf3(uint64_t *restrict dP, uint64_t *restrict dM, const uint64_t *restrict yP,
                  const uint64_t *restrict yM, size_t n)
{
    for (size_t j = 0; j < n; j++) add_gf3_word(dP[j], dM[j], yP[j], yM[j], &dP[j], &dM[j]);
}

ML_AI void o_gf3(uint64_t *restrict oP, uint64_t *restrict oM, const uint64_t *restrict aP,
                 const uint64_t *restrict aM, const uint64_t *restrict yP,
                 const uint64_t *restrict yM, size_t n)
{
    for (size_t j = 0; j < n; j++) add_gf3_word(aP[j], aM[j], yP[j], yM[j], &oP[j], &oM[j]);
}

ML_AI void sub_gf3(uint64_t *d, size_t ds, const uint64_t *s, size_t ss, size_t n)
{
    ip_gf3(d, d + ds, s + ss, s, n);
}

ML_AI void axpy_gf3(uint64_t *d, size_t ds, const uint64_t *s, size_t ss, size_t n, unsigned c)
{
    if (c == 1) ip_gf3(d, d + ds, s, s + ss, n);
    else ip_gf3(d, d + ds, s + ss, s, n);
}

ML_AI void add3_gf3(uint64_t *o, size_t os, const uint64_t *a, size_t as, const uint64_t *s,
                    size_t ss, size_t n)
{
    o_gf3(o, o + os, a, a + as, s, s + ss, n);
}

ML_AI void scale_gf3(uint64_t *d, size_t ds, size_t n, unsigned c)
{
    for (size_t j = 0; j < n; j++) { uint64_t t = d[j]; d[j] = d[ds + j]; d[ds + j] = t; }
}

/* One pivot of a panel on the rows below it, by position: the panel words x (planes at
 * stride xs) of rows i < n lose x_i times the pivot's word y, x_i their entry at bit b,
 * which is also stored in L[i] and T[i]. Branch-free so it vectorises. */
ML_AI void panel_gf3(uint64_t *restrict x, size_t xs, const uint64_t *y, unsigned b, size_t n,
                     uint8_t *restrict L, uint8_t *restrict T)
{
    const uint64_t yp = y[0], ym = y[1];
    uint64_t *restrict xP = x, *restrict xM = x + xs;
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

/* ---- Z/4, planes L = bit 0, H = bit 1: x + y is L = xL ^ yL, H = xH ^ yH ^ carry,
 *      carry = xL & yL (x + y), yL & ~xL (x - y); x + 2y is H ^= yL */
/* d += c s (in place) */
ML_AI void ip_z4(uint64_t *restrict dL, uint64_t *restrict dH, const uint64_t *restrict sL,
                 const uint64_t *restrict sH, size_t n, unsigned c)
{
    if (c == 2) {
        for (size_t j = 0; j < n; j++) dH[j] ^= sL[j];
        return;
    }
    if (c == 3)                                      /* subtract: the carry from ~d */
        for (size_t j = 0; j < n; j++) ML_Z4_SUB(dL[j], dH[j], sL[j], sH[j]);
    else
        for (size_t j = 0; j < n; j++) ML_Z4_ADD(dL[j], dH[j], sL[j], sH[j]);
}

/* o = a + c s (apart) */
ML_AI void o_z4(uint64_t *restrict oL, uint64_t *restrict oH, const uint64_t *restrict aL,
                const uint64_t *restrict aH, const uint64_t *restrict sL,
                const uint64_t *restrict sH, size_t n, unsigned c)
{
    if (c == 2) {
        for (size_t j = 0; j < n; j++) { oL[j] = aL[j]; oH[j] = aH[j] ^ sL[j]; }
        return;
    }
    const uint64_t nm = c == 3 ? ~(uint64_t)0 : 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t xl = aL[j], yl = sL[j];
        oH[j] = aH[j] ^ sH[j] ^ (yl & (xl ^ nm));
        oL[j] = xl ^ yl;
    }
}

ML_AI void sub_z4(uint64_t *d, size_t ds, const uint64_t *s, size_t ss, size_t n)
{
    ip_z4(d, d + ds, s, s + ss, n, 3);
}

ML_AI void axpy_z4(uint64_t *d, size_t ds, const uint64_t *s, size_t ss, size_t n, unsigned c)
{
    ip_z4(d, d + ds, s, s + ss, n, c);
}

ML_AI void add3_z4(uint64_t *o, size_t os, const uint64_t *a, size_t as, const uint64_t *s,
                   size_t ss, size_t n)
{
    o_z4(o, o + os, a, a + as, s, s + ss, n, 1);
}

ML_AI void scale_z4(uint64_t *d, size_t ds, size_t n, unsigned c)   /* c = 3 = -1 */
{
    for (size_t j = 0; j < n; j++) d[ds + j] ^= d[j];
}

/* x = 1: row - pivot, 3: row + pivot, 2: row + 2 pivot */
ML_AI void panel_z4(uint64_t *restrict x, size_t xs, const uint64_t *y, unsigned b, size_t n,
                    uint8_t *restrict L, uint8_t *restrict T)
{
    const uint64_t yl = y[0], yh = y[1];
    uint64_t *restrict xL = x, *restrict xH = x + xs;
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

/* ---- Z/8, planes bit 0, 1, 2: ripple-carry addition; c y from shifted copies of y */
/* (t0, t1, t2) = c (y0, y1, y2) for a constant c in 1..7 */
ML_AI void mulc_z8(unsigned c, uint64_t y0, uint64_t y1, uint64_t y2, uint64_t *t0,
                   uint64_t *t1, uint64_t *t2)
{
    ML_Z8_MULC(c, y0, y1, y2, *t0, *t1, *t2);   /* bitslice.h */
}

/* d += c s (in place) */
ML_AI void ip_z8(uint64_t *restrict d0, uint64_t *restrict d1, uint64_t *restrict d2,
                 const uint64_t *restrict s0, const uint64_t *restrict s1,
                 const uint64_t *restrict s2, size_t n, unsigned c)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t x0 = d0[j], x1 = d1[j], x2 = d2[j], t0, t1, t2;
        mulc_z8(c, s0[j], s1[j], s2[j], &t0, &t1, &t2);
        ML_Z8_ADD(x0, x1, x2, t0, t1, t2);
        d0[j] = x0; d1[j] = x1; d2[j] = x2;
    }
}

/* o = a + c s (apart) */
ML_AI void o_z8(uint64_t *restrict o0, uint64_t *restrict o1, uint64_t *restrict o2,
                const uint64_t *restrict a0, const uint64_t *restrict a1,
                const uint64_t *restrict a2, const uint64_t *restrict s0,
                const uint64_t *restrict s1, const uint64_t *restrict s2, size_t n, unsigned c)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t x0 = a0[j], x1 = a1[j], x2 = a2[j], t0, t1, t2;
        mulc_z8(c, s0[j], s1[j], s2[j], &t0, &t1, &t2);
        ML_Z8_ADD(x0, x1, x2, t0, t1, t2);
        o0[j] = x0; o1[j] = x1; o2[j] = x2;
    }
}

ML_AI void sub_z8(uint64_t *d, size_t ds, const uint64_t *s, size_t ss, size_t n)
{
    ip_z8(d, d + ds, d + 2 * ds, s, s + ss, s + 2 * ss, n, 7);
}

ML_AI void axpy_z8(uint64_t *d, size_t ds, const uint64_t *s, size_t ss, size_t n, unsigned c)
{
    switch (c) {                 /* one loop per constant: no switch inside the loop */
#define ML_Z8_CASE(C) case C: ip_z8(d, d + ds, d + 2 * ds, s, s + ss, s + 2 * ss, n, C); break;
    ML_Z8_CASE(1) ML_Z8_CASE(2) ML_Z8_CASE(3) ML_Z8_CASE(4) ML_Z8_CASE(5) ML_Z8_CASE(6)
    default: ip_z8(d, d + ds, d + 2 * ds, s, s + ss, s + 2 * ss, n, 7); break;
#undef ML_Z8_CASE
    }
}

ML_AI void add3_z8(uint64_t *o, size_t os, const uint64_t *a, size_t as, const uint64_t *s,
                   size_t ss, size_t n)
{
    o_z8(o, o + os, o + 2 * os, a, a + as, a + 2 * as, s, s + ss, s + 2 * ss, n, 1);
}

ML_AI void scale_z8(uint64_t *d, size_t ds, size_t n, unsigned c)
{
    for (size_t j = 0; j < n; j++) {     /* rare (pivot rows only): the switch may stay */
        uint64_t t0, t1, t2;
        mulc_z8(c, d[j], d[ds + j], d[2 * ds + j], &t0, &t1, &t2);
        d[j] = t0; d[ds + j] = t1; d[2 * ds + j] = t2;
    }
}

/* row -= x_i pivot, x_i in 0..7: row + (x0 (-p) + x1 (-2p) + x2 (-4p)) */
ML_AI void panel_z8(uint64_t *restrict x, size_t xs, const uint64_t *y, unsigned b, size_t n,
                    uint8_t *restrict L, uint8_t *restrict T)
{
    uint64_t n0, n1, n2;                                /* -p */
    mulc_z8(7, y[0], y[1], y[2], &n0, &n1, &n2);
    uint64_t *restrict X0 = x, *restrict X1 = x + xs, *restrict X2 = x + 2 * xs;
    for (size_t i = 0; i < n; i++) {
        uint64_t x0 = X0[i], x1 = X1[i], x2 = X2[i];
        uint64_t e0 = (x0 >> b) & 1, e1 = (x1 >> b) & 1, e2 = (x2 >> b) & 1;
        L[i] = T[i] = (uint8_t)(e0 | (e1 << 1) | (e2 << 2));
        uint64_t m0 = (uint64_t)0 - e0, m1 = (uint64_t)0 - e1, m2 = (uint64_t)0 - e2;
        /* t = x (-p) = m0 (-p) + m1 (-2p) + m2 (-4p); -2p = (0, n0, n1), -4p = (0, 0, n0) */
        uint64_t t0 = n0 & m0, t1 = n1 & m0, t2 = n2 & m0;
        uint64_t u1 = n0 & m1, u2 = n1 & m1;              /* + (0, u1, u2) */
        t2 ^= u2 ^ (t1 & u1);
        t1 ^= u1;
        t2 ^= n0 & m2;                                    /* + (0, 0, n0 m2) */
        ML_Z8_ADD(x0, x1, x2, t0, t1, t2);
        X0[i] = x0; X1[i] = x1; X2[i] = x2;
    }
}

/* ---- the kernel tables */
typedef void (*sub_fn)(uint64_t *, size_t, const uint64_t *, size_t, size_t);
typedef void (*axpy_fn)(uint64_t *, size_t, const uint64_t *, size_t, size_t, unsigned);
typedef void (*add3_fn)(uint64_t *, size_t, const uint64_t *, size_t, const uint64_t *, size_t,
                        size_t);
typedef void (*scale_fn)(uint64_t *, size_t, size_t, unsigned);
typedef void (*panel_fn)(uint64_t *, size_t, const uint64_t *, unsigned, size_t, uint8_t *,
                         uint8_t *);
typedef struct { sub_fn sub; axpy_fn axpy; add3_fn add3; scale_fn scale; panel_fn panel; } bs_kernels_t;

#define ML_BS_KERNELS(R, SUF, ATTR)                                                          \
    ATTR static void sub_##R##_##SUF(uint64_t *d, size_t ds, const uint64_t *s, size_t ss,   \
                                     size_t n)                                               \
    { sub_##R(d, ds, s, ss, n); }                                                            \
    ATTR static void axpy_##R##_##SUF(uint64_t *d, size_t ds, const uint64_t *s, size_t ss,  \
                                      size_t n, unsigned c)                                  \
    { axpy_##R(d, ds, s, ss, n, c); }                                                        \
    ATTR static void add3_##R##_##SUF(uint64_t *o, size_t os, const uint64_t *a, size_t as,  \
                                      const uint64_t *s, size_t ss, size_t n)                \
    { add3_##R(o, os, a, as, s, ss, n); }                                                    \
    ATTR static void scale_##R##_##SUF(uint64_t *d, size_t ds, size_t n, unsigned c)         \
    { scale_##R(d, ds, n, c); }                                                              \
    ATTR static void panel_##R##_##SUF(uint64_t *x, size_t xs, const uint64_t *y, unsigned b, \
                                       size_t n, uint8_t *L, uint8_t *T)                     \
    { panel_##R(x, xs, y, b, n, L, T); }                                                     \
    static const bs_kernels_t kernels_##R##_##SUF = {                                        \
        sub_##R##_##SUF, axpy_##R##_##SUF, add3_##R##_##SUF, scale_##R##_##SUF,              \
        panel_##R##_##SUF};

ML_BS_KERNELS(gf3, portable, )
ML_BS_KERNELS(z4, portable, )
ML_BS_KERNELS(z8, portable, )
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ML_BS_AVX2 1
ML_BS_KERNELS(gf3, avx2, __attribute__((target("avx2"))))
ML_BS_KERNELS(z4, avx2, __attribute__((target("avx2"))))
ML_BS_KERNELS(z8, avx2, __attribute__((target("avx2"))))
#endif

/* the kernels for q (3, 4 or 8) on this CPU's SIMD path */
static const bs_kernels_t *kernels_for(unsigned q)
{
#ifdef ML_BS_AVX2
    if (ml_simd_get() >= ML_SIMD_AVX2)
        return q == 3 ? &kernels_gf3_avx2 : q == 4 ? &kernels_z4_avx2 : &kernels_z8_avx2;
#endif
    return q == 3 ? &kernels_gf3_portable : q == 4 ? &kernels_z4_portable : &kernels_z8_portable;
}

size_t ml_gf3_loff(size_t m, size_t k)
{
    return k ? k * (m - 1) - k * (k - 1) / 2 : 0;
}

/* ------------------------------------------------------------------ packing */
/* Four uint16 entries in one 64-bit word (little endian): bit k of each gathered into
 * 4 bits by one multiplication (the partial products land on distinct bits, so nothing
 * carries into bits 48..51), and the inverse spread. */
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

/* row (n entries 0..q-1) -> np planes of bits 0, 1, (2) at stride ps (GF(3): the planes
 * P = [x == 1] and M = [x == 2]); the rest of the row stays zero */
static void pack_row(const uint16_t *src, size_t n, uint64_t *row, size_t ps, int np)
{
    for (size_t w = 0; w * 64 < n; w++) {
        size_t nb = n - w * 64 < 64 ? n - w * 64 : 64;
        const uint16_t *s = src + w * 64;
        for (int k = 0; k < np; k++) {
            uint64_t p = 0;
            size_t b = 0;
#ifdef ML_GF3_SWAR
            for (; b + 4 <= nb; b += 4) {
                uint64_t v;
                memcpy(&v, s + b, 8);
                p |= (uint64_t)gather4(v >> k) << b;
            }
#endif
            for (; b < nb; b++) p |= (uint64_t)((s[b] >> k) & 1) << b;
            row[k * ps + w] = p;
        }
    }
}

static void unpack_row(const uint64_t *row, size_t ps, int np, size_t n, uint16_t *dst)
{
    for (size_t w = 0; w * 64 < n; w++) {
        size_t nb = n - w * 64 < 64 ? n - w * 64 : 64, b = 0;
        uint16_t *d = dst + w * 64;
#ifdef ML_GF3_SWAR
        for (; b + 4 <= nb; b += 4) {
            uint64_t v = 0;
            for (int k = 0; k < np; k++)
                v |= spread4((unsigned)(row[k * ps + w] >> b) & 0xF) << k;
            memcpy(d + b, &v, 8);
        }
#endif
        for (; b < nb; b++) {
            uint16_t v = 0;
            for (int k = 0; k < np; k++) v |= (uint16_t)(((row[k * ps + w] >> b) & 1) << k);
            d[b] = v;
        }
    }
}

/* Group size g for Four Russians over R rows: least (q^g + R) / g, table build plus one
 * row operation per row, per pivot. */
static int group_size(unsigned q, size_t R, size_t npiv)
{
    const int gmax = q == 3 ? ML_GF3_GMAX : q == 4 ? ML_Z4_GMAX : ML_Z8_GMAX;
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

/* Work space of one elimination */
typedef struct {
    unsigned q;
    int np;                  /* planes */
    const bs_kernels_t *K;
    size_t m, W, RS, CH;     /* rows, words per plane, words per row, table chunk */
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
    const bs_kernels_t *K = B->K;
    const size_t m = B->m, W = B->W, RS = B->RS, CH = B->CH, TS = (size_t)B->np * CH;
    const size_t npiv = k1 - k0;
    const unsigned q = B->q;
    for (size_t j = k0; j < k1; j++) {
        uint64_t *rj = B->data + B->rows[j] * RS;
        for (size_t l = k0; l < j; l++) {
            const uint64_t *ul = B->data + B->rows[l] * RS;
            const uint8_t x = B->mult[(l - k0) * m + j];
            if (x) K->axpy(rj + c0, W, ul + c0, W, c1 - c0, q - x);   /* row -= x u */
        }
        if (B->uinv[j] != 1) K->scale(rj + c0, W, c1 - c0, B->uinv[j]);
    }
    if (k1 >= m || !ng) return 0;
    uint64_t *T = B->T;
    for (size_t s0 = c0; s0 < c1; s0 += CH) {
        const size_t cw = c1 - s0 < CH ? c1 - s0 : CH;
        for (size_t gi = 0; gi < ng; gi++) {
            if (ml_interrupt_poll()) return -2;
            size_t l0 = gi * (size_t)g, l1 = l0 + (size_t)g < npiv ? l0 + (size_t)g : npiv;
            /* T[e] = sum_j digit_j(e) * U_{k0 + l0 + j}, base-q digits of e; each
             * entry is an earlier one plus U: T[d q^j + e] = T[(d-1) q^j + e] + U_j */
            memset(T, 0, TS * 8);
            size_t pq = 1;
            for (size_t l = l0; l < l1; l++) {
                const uint64_t *u = B->data + B->rows[k0 + l] * RS;
                for (size_t e = pq; e < q * pq; e++)
                    K->add3(T + e * TS, CH, T + (e - pq) * TS, CH, u + s0, W, cw);
                pq *= q;
            }
            for (size_t i = k1; i < m; i++) {
                const size_t e = B->idx[(i - k1) * ng + gi];
                if (e) K->sub(B->data + B->rows[i] * RS + s0, W, T + e * TS, CH, cw);
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ echelon */
long ml_bitsliced_echelon(unsigned q, size_t m, size_t r, uint16_t *a, size_t stride,
                          size_t *pc, size_t *ipiv, uint8_t *uinv, uint8_t *lpool, size_t *rows)
{
    if (q != 3 && q != 4 && q != 8) return -1;
    if (!m || !r) return 0;
    bs_t B = {0};
    const int np = q == 8 ? 3 : 2;
    const size_t Wr = (r + 63) / 64, W = (Wr + 3) & ~(size_t)3;   /* words per plane */
    const size_t RS = (size_t)np * W;                               /* words per row */
    B.q = q; B.np = np; B.K = kernels_for(q); B.m = m; B.rows = rows; B.uinv = uinv;
    B.W = W; B.RS = RS;
    B.CH = q == 3 ? ML_GF3_CHUNK : ML_GF3_CHUNK / 2;
    const int gmax = q == 3 ? ML_GF3_GMAX : q == 4 ? ML_Z4_GMAX : ML_Z8_GMAX;
    size_t tabrows = 1;
    for (int g = 0; g < gmax; g++) tabrows *= q;
    if (m > SIZE_MAX / 8 / RS) return -1;
    const size_t PW = r < 64 ? r : 64;              /* most pivots in a panel */
    B.data = aligned_alloc(32, m * RS * 8);
    B.T = aligned_alloc(32, tabrows * (size_t)np * B.CH * 8);
    B.mult = malloc(m * PW);                        /* panel multipliers: step x position */
    uint64_t *pw = malloc((size_t)np * m * 8);      /* panel word by position, plane stride m */
    B.idx = malloc(m * PW * sizeof(uint16_t));      /* table index, by row and group */
    size_t *skipw = malloc(Wr * sizeof(size_t));    /* rings: earlier words with skipped columns */
    uint8_t *mult = B.mult;
    uint64_t *data = B.data;
    long rc = -1;
    if (!data || !B.T || !mult || !pw || !B.idx || !skipw) goto done;
    for (size_t i = 0; i < m; i++) {
        uint64_t *row = data + i * RS;
        memset(row, 0, RS * 8);
        pack_row(a + i * stride, r, row, W, np);
    }
    size_t nsw = 0;
    size_t t = 0;
    for (size_t w = 0; w < Wr && t < m; w++) {
        if (ml_interrupt_poll()) { rc = -2; goto done; }
        const size_t k0 = t, bmax = r - w * 64 < 64 ? r - w * 64 : 64;
        for (size_t i = t; i < m; i++) {
            const uint64_t *row = data + rows[i] * RS;
            for (int k = 0; k < np; k++) pw[k * m + i] = row[k * W + w];
        }
        /* ---- the panel: pivots and eliminations on this word only */
        int skipped = 0;
        for (size_t b = 0; b < bmax; b++) {
            const uint64_t bit = (uint64_t)1 << b;
            size_t piv = t;
            if (q == 3) while (piv < m && !((pw[piv] | pw[m + piv]) & bit)) piv++;  /* x != 0 */
            else while (piv < m && !(pw[piv] & bit)) piv++;                  /* a unit: odd */
            if (piv >= m) { skipped = 1; continue; }  /* no pivot: a skipped column */
            const size_t col = t - k0;
            if (piv != t) {
                size_t th = rows[piv]; rows[piv] = rows[t]; rows[t] = th;
                for (int k = 0; k < np; k++) {
                    uint64_t tw = pw[k * m + piv]; pw[k * m + piv] = pw[k * m + t];
                    pw[k * m + t] = tw;
                }
                for (size_t l = 0; l < col; l++) {
                    uint8_t tm = mult[l * m + piv]; mult[l * m + piv] = mult[l * m + t];
                    mult[l * m + t] = tm;
                }
            }
            ipiv[t] = piv;
            unsigned u = 0;                           /* the pivot; a unit, its own inverse */
            for (int k = 0; k < np; k++) u |= (unsigned)((pw[k * m + t] >> b) & 1) << k;
            if (u != 1) B.K->scale(pw + t, m, 1, u);
            uinv[t] = (uint8_t)u;
            pc[t] = w * 64 + b;
            uint64_t y[3];
            for (int k = 0; k < np; k++) y[k] = pw[k * m + t];
            B.K->panel(pw + t + 1, m, y, (unsigned)b, m - t - 1, lpool + ml_gf3_loff(m, t),
                       mult + col * m + t + 1);
            t++;
            if (t == m) {                             /* the rest of the panel is skipped */
                skipped |= b + 1 < bmax;
                break;
            }
        }
        for (size_t i = k0; i < m; i++) {
            uint64_t *row = data + rows[i] * RS;
            for (int k = 0; k < np; k++) row[k * W + w] = pw[k * m + i];
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
            /* rings: words with skipped columns left of this panel carry entries too */
            for (size_t z = 0; z < nsw; z++)
                if ((rc = update_words(&B, k0, k1, skipw[z], skipw[z] + 1, g, ng))) goto done;
            if (w + 1 < Wr && (rc = update_words(&B, k0, k1, w + 1, Wr, g, ng))) goto done;
            rc = -1;
        }
        if (q != 3 && skipped) skipw[nsw++] = w;
    }
    for (size_t i = 0; i < m; i++)
        unpack_row(data + rows[i] * RS, W, np, r, a + rows[i] * stride);
    rc = (long)t;
done:
    free(data); free(B.T); free(mult); free(pw); free(B.idx); free(skipw);
    return rc;
}
