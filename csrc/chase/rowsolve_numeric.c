/* rowsolve_numeric.c: the numeric row-solve chase over GF(2) and Z/n (rowsolve.h,
 * ml_rowsolve_numeric). */
#include "chase/rowsolve.h"
#include "chase/rowsolve_impl.h"
#include "base/interrupt.h"
#include "base/modn.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ numeric chase */
/* Both chains of a row for a = 1, 8 taps a word: x[j] = t[j - 1] + x[j - 2] (odd j) and
 * x[j] = t[j + 1] + x[j + 2] (even j) are, with y = t with its byte pairs swapped, the
 * stride-2 prefix sums of y on the odd bytes and its suffix sums on the even bytes:
 * shifts by 16 and 32 bits within a word, the last pair carried to the next word. */
static void chains_a1(uint8_t *X, const uint8_t *T, int w) {
    const uint64_t M8 = 0x00FF00FF00FF00FFull, B2 = 0x0001000100010001ull;
    const int nw = w / 8, tail = nw * 8;
    uint64_t carry = 0;
    for (int i = 0; i < nw; i++) {
        uint64_t t, p;
        memcpy(&t, T + 8 * i, 8);
        p = ((t >> 8) & M8) | ((t & M8) << 8);
        p ^= p << 16;
        p ^= p << 32;
        p ^= carry;
        carry = (p >> 48) * B2;
        memcpy(X + 8 * i, &p, 8);          /* odd bytes final, even bytes below */
    }
    for (int j = tail + 1; j < w; j += 2) X[j] = T[j - 1] ^ X[j - 2];
    for (int j = w - 2; j >= tail; j -= 2) X[j] = T[j + 1] ^ (j + 2 < w ? X[j + 2] : 0);
    carry = tail < w ? (uint64_t)X[tail] * B2 : 0;
    for (int i = nw - 1; i >= 0; i--) {
        uint64_t t, s, x;
        memcpy(&t, T + 8 * i, 8);
        s = ((t >> 8) & M8) | ((t & M8) << 8);
        s ^= s >> 16;
        s ^= s >> 32;
        s ^= carry;
        carry = (s & 0xFFFFu) * B2;
        memcpy(&x, X + 8 * i, 8);
        x = (x & ~M8) | (s & M8);
        memcpy(X + 8 * i, &x, 8);
    }
}

/* GF(2): sums are xors of the low bits. */
static int rs_numeric_gf2(const ml_rowsolve *p, const uint8_t *b, const uint8_t *z, uint8_t *x,
                          uint8_t *rho) {
    const int h = p->h, w = p->w, D = p->D, a = p->a, nt = p->nt, ne = p->ne, mc = p->mc;
    const size_t len = (size_t)(w + 2 * mc);
    uint8_t *ring = calloc((size_t)(p->RR + 1) * len + 1, 1);
    uint8_t *T = malloc((size_t)w + 1);
    const uint8_t **S = malloc((size_t)(ne + 1) * sizeof(*S));
    if (!ring || !T || !S) { free(ring); free(T); free(S); return 2; }
    uint8_t *zero = ring + (size_t)p->RR * len + mc;
#define NROW(R) ((R) < 0 || (R) >= h ? zero : ring + (size_t)((R) & (p->RR - 1)) * len + mc)
    for (int R = 0; R < D && R < h; R++) {
        uint8_t *X = NROW(R);
        for (int c = 0; c < w; c++) X[c] = z ? (uint8_t)(z[(size_t)R * w + c] & 1u) : 0;
        memcpy(x + (size_t)R * w, X, (size_t)w);
    }
    int st = 0;
    for (int r = 0; r + D < h; r++) {
        if ((r & 255) == 0 && ml_interrupt_poll()) { st = 3; break; }
        const uint8_t *br = b + (size_t)r * w;
        for (int c = 0; c < w; c++) T[c] = br[c] & 1u;
        for (int i = 0; i < nt; i++) {
            const uint8_t *s = NROW((long)r + p->er[i]) + p->ec[i];
            for (int c = 0; c < w; c++) T[c] ^= s[c];
        }
        uint8_t *X = NROW(r + D);
        if (a == 1) {
            chains_a1(X, T, w);
            memcpy(x + (size_t)(r + D) * w, X, (size_t)w);
            continue;
        }
        for (int c0 = 0; c0 < w; c0 += 2 * a)
            for (int c = c0; c < c0 + a; c++) X[c + a] = T[c] ^ X[c - a];
        for (int c0 = w - a; c0 >= a; c0 -= 2 * a)
            for (int c = c0 + a - 1; c >= c0; c--) X[c - a] = T[c] ^ X[c + a];
        memcpy(x + (size_t)(r + D) * w, X, (size_t)w);
    }
    if (!st)
        for (int r = h - D > 0 ? h - D : 0; r < h; r++) {
            const uint8_t *br = b + (size_t)r * w;
            uint8_t *out = rho + (size_t)(r - (h - D)) * w;
            for (int c = 0; c < w; c++) out[c] = br[c] & 1u;
            for (int i = 0; i < ne; i++) {
                const uint8_t *s = NROW((long)r + p->er[i]) + p->ec[i];
                for (int c = 0; c < w; c++) out[c] ^= s[c];
            }
        }
#undef NROW
    free(ring); free(T); free(S);
    return st;
}

/* Z/n: a sum of terms < n^2 in int32, reduced by ml_fmod_n (< 2^24) every 200 terms. */
static int rz_numeric(const ml_rowsolve *p, const uint8_t *b, const uint8_t *z, uint8_t *x,
                      uint8_t *rho) {
    const int h = p->h, w = p->w, D = p->D, a = p->a, nt = p->nt, ne = p->ne, mc = p->mc;
    const int32_t n = p->n;
    const float rn = 1.0f / (float)n;
    const size_t len = (size_t)(w + 2 * mc);
    uint8_t *ring = calloc((size_t)(p->RR + 1) * len + 1, 1);
    int32_t *T = malloc(((size_t)w + 1) * sizeof(int32_t));
    if (!ring || !T) { free(ring); free(T); return 2; }
    uint8_t *zero = ring + (size_t)p->RR * len + mc;
#define NROW(R) ((R) < 0 || (R) >= h ? zero : ring + (size_t)((R) & (p->RR - 1)) * len + mc)
    for (int R = 0; R < D && R < h; R++) {
        uint8_t *X = NROW(R);
        for (int c = 0; c < w; c++) X[c] = z ? z[(size_t)R * w + c] : 0;
        memcpy(x + (size_t)R * w, X, (size_t)w);
    }
    /* T = b - (the sources of the first `m` offsets) mod n */
#define RZ_T(r, m)                                                                          \
    do {                                                                                    \
        const uint8_t *br_ = b + (size_t)(r) * w;                                           \
        for (int c = 0; c < w; c++) T[c] = br_[c];                                          \
        for (int i = 0; i < (m); i++) {                                                     \
            const uint8_t *s_ = NROW((long)(r) + p->er[i]) + p->ec[i];                      \
            const int32_t k_ = n - p->cf[i];                                                \
            for (int c = 0; c < w; c++) T[c] += k_ * s_[c];                                 \
            if (i % 200 == 199) for (int c = 0; c < w; c++) T[c] = ml_fmod_n(T[c], n, rn);  \
        }                                                                                   \
        for (int c = 0; c < w; c++) T[c] = ml_fmod_n(T[c], n, rn);                          \
    } while (0)
    const int32_t na = n - p->alpha, nb = n - p->beta, ai = p->ainv, bi = p->binv;
    int st = 0;
    for (int r = 0; r + D < h; r++) {
        if ((r & 255) == 0 && ml_interrupt_poll()) { st = 3; break; }
        RZ_T(r, nt);
        uint8_t *X = NROW(r + D);
        /* alpha x[c - a] + beta x[c + a] = T[c], the chains of rowsolve.h */
        for (int c0 = 0; c0 < w; c0 += 2 * a)
            for (int c = c0; c < c0 + a; c++)
                X[c + a] = (uint8_t)ml_fmod_n(ml_fmod_n(T[c] + na * X[c - a], n, rn) * bi, n, rn);
        for (int c0 = w - a; c0 >= a; c0 -= 2 * a)
            for (int c = c0 + a - 1; c >= c0; c--)
                X[c - a] = (uint8_t)ml_fmod_n(ml_fmod_n(T[c] + nb * X[c + a], n, rn) * ai, n, rn);
        memcpy(x + (size_t)(r + D) * w, X, (size_t)w);
    }
    if (!st)
        for (int r = h - D > 0 ? h - D : 0; r < h; r++) {
            RZ_T(r, ne);
            uint8_t *out = rho + (size_t)(r - (h - D)) * w;
            for (int c = 0; c < w; c++) out[c] = (uint8_t)T[c];
        }
#undef RZ_T
#undef NROW
    free(ring); free(T);
    return st;
}

int ml_rowsolve_numeric(const ml_rowsolve *p, const uint8_t *b, const uint8_t *z, uint8_t *x,
                        uint8_t *rho) {
    return p->n == 2 ? rs_numeric_gf2(p, b, z, x, rho) : rz_numeric(p, b, z, x, rho);
}
