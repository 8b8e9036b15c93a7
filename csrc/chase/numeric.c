/* numeric.c: the chase replayed on numbers (ml_chase_numeric, see chase.h): tap values
 * and the residual from a board and values of the symbols. */
#include "chase/chase_impl.h"
#include "base/cpu.h"
#include "base/modn.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ numeric chase */
/* One tap of the numeric chase, the general way. */
static inline void num_tap(const ml_chase *p, int32_t e, size_t t, int r, int col,
                           const uint8_t *b, const uint8_t *z, uint8_t *x, int32_t *qs,
                           uint8_t *cf, int *us) {
    const uint32_t n = (uint32_t)p->n;
    if (e >= 0) {
        int rc, cc;
        int64_t c = forcer(p, e, (int64_t)t, r, col, &rc, &cc);
        int k = gather(p, c, rc, cc, qs, cf, us);
        if (n == 2) {
            unsigned v = b[c];
            for (int i = 0; i < k - 1; i++) v ^= x[qs[i]];
            x[t] = (uint8_t)(v & 1);
        } else {
            uint32_t acc = 0;
            for (int i = 0; i < k - 1; i++) acc += (uint32_t)cf[i] * x[qs[i]];
            uint32_t v = (b[c] + n * 65536u - acc % n) % n;
            x[t] = (uint8_t)((v * p->inv[cf[k - 1]]) % n);
        }
    } else if (e <= -3) {
        x[t] = z ? z[p->symbase[r] + (-3 - e)] : 0;
    } else {
        x[t] = 0;
    }
}

/* GF(2): xo[j] = (bb[j] ^ xor of src[i][j]) & 1 for a run of taps with no
 * dependencies inside the run (every delta <= -len). */
ML_CLONES_AVX2
static void gf2_seg(uint8_t *restrict xo, const uint8_t *restrict bb, const uint8_t *const *src,
                    int nd, size_t len) {
    if (nd == 4) {
        const uint8_t *restrict a = src[0], *restrict b = src[1], *restrict c = src[2],
                      *restrict d = src[3];
        for (size_t j = 0; j < len; j++) xo[j] = (uint8_t)((bb[j] ^ a[j] ^ b[j] ^ c[j] ^ d[j]) & 1);
        return;
    }
    for (size_t j = 0; j < len; j++) xo[j] = bb[j];
    for (int i = 0; i < nd; i++) {
        const uint8_t *restrict a = src[i];
        for (size_t j = 0; j < len; j++) xo[j] ^= a[j];
    }
    for (size_t j = 0; j < len; j++) xo[j] &= 1;
}

/* Z/n: xo[j] = invL * (bb[j] + sum ncf[i] src[i][j]) mod n, ncf[i] = n - (coefficient
 * i), for a run of len <= ZSEG taps with no dependencies inside the run (as gf2_seg). */
#define ZSEG 512
ML_CLONES_AVX2
static void zn_seg(uint8_t *restrict xo, const uint8_t *restrict bb, const uint8_t *const *src,
                   const uint8_t *ncf, int nd, size_t len, int32_t n, int32_t invL, float rn) {
    int32_t acc[ZSEG];
    for (size_t j = 0; j < len; j++) acc[j] = bb[j];
    for (int i = 0; i < nd; i++) {
        const uint8_t *restrict a = src[i];
        const int32_t c = ncf[i];
        for (size_t j = 0; j < len; j++) acc[j] += c * a[j];
        if (i % 200 == 199)                  /* 200 x 254^2 + 255 < 2^24 (ml_fmod_n) */
            for (size_t j = 0; j < len; j++) acc[j] = ml_fmod_n(acc[j], n, rn);
    }
    if (invL == 1) for (size_t j = 0; j < len; j++) xo[j] = (uint8_t)ml_fmod_n(acc[j], n, rn);
    else
        for (size_t j = 0; j < len; j++)
            xo[j] = (uint8_t)ml_fmod_n(ml_fmod_n(acc[j], n, rn) * invL, n, rn);
}

/* The fixed-delta taps [c0, c1) of row r when some deltas point into the tap's own row
 * (square, knight: a recurrence along the row) in two passes a run of ZSEG taps: y = b
 * + the taps of the rows above, vectorised (gf2_seg / zn_seg); then the recurrence,
 * a tap at a time. t: the flat index of tap (r, c0). */
__attribute__((noinline))
static void near_run(const ml_chase *p, const int32_t *er, int r, int c0, int c1, size_t t,
                     const uint8_t *b, const uint8_t *z, uint8_t *x) {
    const uint32_t n = (uint32_t)p->n;
    const int uL = p->uL, nd = p->nd;
    const int64_t *dl = p->delta;
    const int64_t dL = p->duf[uL];
    const uint32_t invL = p->inv[p->cmod[uL]];
    const float rn = 1.0f / (float)n;
    int32_t qs[MAXC + 1];
    uint8_t cf[MAXC + 1];
    int us[MAXC + 1];
    const uint8_t *src[MAXC + 1];
    int ifar[MAXC + 1], inear[MAXC + 1], nfar = 0, nnear = 0;
    uint8_t ncf[MAXC + 1], ncf_far[MAXC + 1], y[ZSEG];
    for (int i = 0; i < nd; i++) {
        ncf[i] = (uint8_t)((n - p->dcf[i]) % n);
        if (p->dnear[i]) inear[nnear++] = i;
        else { ncf_far[nfar] = ncf[i]; ifar[nfar++] = i; }
    }
    for (int col = c0; col < c1;) {
        const int len = c1 - col < ZSEG ? c1 - col : ZSEG;
        for (int k = 0; k < nfar; k++) src[k] = x + (int64_t)t + dl[ifar[k]];
        if (n == 2) gf2_seg(y, b + (int64_t)t + dL, src, nfar, (size_t)len);
        else zn_seg(y, b + (int64_t)t + dL, src, ncf_far, nfar, (size_t)len, (int32_t)n, 1, rn);
        for (int j = 0; j < len; j++, t++) {
            if (er[col + j] != uL) {
                num_tap(p, er[col + j], t, r, col + j, b, z, x, qs, cf, us);
                continue;
            }
            if (n == 2) {
                unsigned v = y[j];
                for (int k = 0; k < nnear; k++) v ^= x[(int64_t)t + dl[inear[k]]];
                x[t] = (uint8_t)(v & 1);
            } else {
                uint32_t acc = y[j];
                for (int k = 0; k < nnear; k++)
                    acc += (uint32_t)ncf[inear[k]] * x[(int64_t)t + dl[inear[k]]];
                x[t] = (uint8_t)((acc % n) * invL % n);
            }
        }
        col += len;
    }
}

void ml_chase_numeric(const ml_chase *p, const uint8_t *b, const uint8_t *z,
                      uint8_t *x, uint8_t *rho) {
    const int h = p->h, w = p->w;
    const uint32_t n = (uint32_t)p->n;
    int32_t qs[MAXC + 1];
    uint8_t cf[MAXC + 1];
    int us[MAXC + 1];
    const uint8_t *src[MAXC + 1];
    size_t t = 0;
    const int uL = p->uL, nd = p->nd;
    const int64_t *dl = p->delta;
    const int64_t dL = uL >= 0 ? p->duf[uL] : 0;
    const uint8_t *dcf = p->dcf;
    const uint32_t invL = uL >= 0 ? p->inv[p->cmod[uL]] : 0;
    /* runs of taps computed at once: at most -max(delta) long (Z/n: and ZSEG) */
    int64_t vchunk = 0;
    uint8_t ncf[MAXC + 1];
    const float rn = 1.0f / (float)n;
    if (uL >= 0) {
        int64_t mx = -1;
        for (int i = 0; i < nd; i++) if (dl[i] > mx || i == 0) mx = dl[i];
        vchunk = nd ? (mx < 0 ? -mx : 0) : 1 << 20;
        if (n > 2 && vchunk > ZSEG) vchunk = ZSEG;
        for (int i = 0; i < nd; i++) ncf[i] = (uint8_t)((n - dcf[i]) % n);
    }
    for (int r = 0; r < h; r++) {
        const int32_t *er = EROW(p, r);
        int c0, c1;
        fast_cols(p, r, &c0, &c1);
        if (p->nnear && c0 < c1) {
            int col = 0;
            for (; col < c0; col++, t++) num_tap(p, er[col], t, r, col, b, z, x, qs, cf, us);
            near_run(p, er, r, c0, c1, t, b, z, x);
            t += (size_t)(c1 - c0);
            for (col = c1; col < w; col++, t++) num_tap(p, er[col], t, r, col, b, z, x, qs, cf, us);
            continue;
        }
        if (vchunk > 0 && c0 < c1) {
            int col = 0;
            for (; col < c0; col++, t++) num_tap(p, er[col], t, r, col, b, z, x, qs, cf, us);
            while (col < c1) {
                int64_t len = c1 - col < vchunk ? c1 - col : vchunk;
                for (int i = 0; i < nd; i++) src[i] = x + (int64_t)t + dl[i];
                if (n == 2) gf2_seg(x + t, b + (int64_t)t + dL, src, nd, (size_t)len);
                else zn_seg(x + t, b + (int64_t)t + dL, src, ncf, nd, (size_t)len, (int32_t)n,
                            (int32_t)invL, rn);
                for (int64_t i = 0; i < len; i++)
                    if (er[col + i] != uL)
                        num_tap(p, er[col + i], t + (size_t)i, r, col + (int)i, b, z, x, qs, cf, us);
                col += (int)len; t += (size_t)len;
            }
            for (; col < w; col++, t++) num_tap(p, er[col], t, r, col, b, z, x, qs, cf, us);
            continue;
        }
        for (int col = 0; col < w; col++, t++) {
            int32_t e = er[col];
            if (e == uL && col >= c0 && col < c1) {
                if (n == 2) {
                    unsigned v = b[t + dL];
                    for (int i = 0; i < nd; i++) v ^= x[t + dl[i]];
                    x[t] = (uint8_t)(v & 1);
                } else {
                    uint32_t acc = 0;
                    for (int i = 0; i < nd; i++) acc += (uint32_t)dcf[i] * x[t + dl[i]];
                    uint32_t v = (b[t + dL] + n * 65536u - acc % n) % n;
                    x[t] = (uint8_t)((v * invL) % n);
                }
            } else {
                num_tap(p, e, t, r, col, b, z, x, qs, cf, us);
            }
        }
    }
    for (size_t k = 0; k < p->nres; k++) {
        int64_t c = p->restile[k];
        int m = gather(p, c, (int)(c / w), (int)(c % w), qs, cf, us);
        uint32_t acc = 0;
        for (int i = 0; i < m; i++) acc += (uint32_t)cf[i] * x[qs[i]];
        rho[k] = (uint8_t)((b[c] + n - acc % n) % n);
    }
}

