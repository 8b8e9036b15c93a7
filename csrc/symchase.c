/* symchase.c: see symchase.h. */
#include "symchase.h"

#include <stdlib.h>
#include <string.h>

#include "poly.h"

/* The shooting coefficients of C_1 y = v for b1 != 0: with k = a1 / b1,
 * y_{i+1} = v_i / b1 - k y_i - y_{i-1}; alpha (w entries) is y for u = 1, v = 0, and
 * the last equation reads D u = v_{w-1} / b1 - beta_{w-2} - k beta_{w-1} with
 * D = alpha_{w-2} + k alpha_{w-1}. Returns D (0: C_1 singular). */
static unsigned shoot_alpha(size_t w, unsigned p, unsigned k, uint8_t *alpha)
{
    unsigned prev = 0, cur = 1;                    /* alpha_{i-1}, alpha_i */
    for (size_t i = 0; i < w; i++) {
        if (alpha) alpha[i] = (uint8_t)cur;
        if (i + 1 < w) {
            unsigned nx = ((p - k) * cur + (p - 1) * prev) % p;
            prev = cur;
            cur = nx;
        }
    }
    return (prev + k * cur) % p;                   /* alpha_{w-2} + k alpha_{w-1} */
}

int ml_symchase_invertible(const ml_symchase *P)
{
    unsigned p = P->p, a1 = P->a[2] % p, b1 = P->b[2] % p;
    if (b1 == 0 || P->w == 1) return a1 != 0;
    unsigned k = a1 * ml_gfp_inv(b1, p) % p;
    return shoot_alpha(P->w, p, k, NULL) != 0;
}

/* GF(2): b1 = 1, k = a1. */
static void row_gf2(size_t w, const uint8_t *restrict br, const uint8_t *restrict cur,
                    const uint8_t *restrict prev, const unsigned *a, const unsigned *b,
                    const uint8_t *restrict alpha, uint8_t *restrict nxt)
{
    uint8_t a0 = (uint8_t)-(a[1] & 1), b0 = (uint8_t)-(b[1] & 1);
    uint8_t am = (uint8_t)-(a[0] & 1), bm = (uint8_t)-(b[0] & 1);
    uint8_t k = (uint8_t)-(a[2] & 1);
    /* v_c = b - C_0 cur - C_{-1} prev, then beta (in nxt) by the shooting recurrence */
#define V(c) (uint8_t)((br[c] ^ (a0 & cur[c]) ^ (am & prev[c]) ^ \
        (b0 & (((c) ? cur[(c) - 1] : 0) ^ ((c) + 1 < w ? cur[(c) + 1] : 0))) ^ \
        (bm & (((c) ? prev[(c) - 1] : 0) ^ ((c) + 1 < w ? prev[(c) + 1] : 0)))) & 1)
    if (!(b[2] & 1)) {                              /* C_1 = I */
        for (size_t c = 0; c < w; c++) nxt[c] = V(c);
        return;
    }
    uint8_t bm1 = 0, b0v = 0;                       /* beta_{i-1}, beta_i */
    nxt[0] = 0;
    size_t c = 0;
    for (; c + 1 < w; c++) {
        uint8_t nx = V(c) ^ (k & b0v) ^ bm1;
        bm1 = b0v;
        b0v = nx;
        nxt[c + 1] = nx;
    }
    uint8_t u = (uint8_t)((V(w - 1) ^ bm1 ^ (k & b0v)) & 1);   /* D = 1 */
    if (u)
        for (c = 0; c < w; c++) nxt[c] ^= alpha[c];
#undef V
}

static void row_gfp(size_t w, unsigned p, const uint8_t *restrict br,
                    const uint8_t *restrict cur, const uint8_t *restrict prev,
                    const unsigned *a, const unsigned *b, unsigned binv, unsigned k,
                    unsigned dinv, const uint8_t *restrict alpha, uint8_t *restrict nxt)
{
    unsigned na0 = (p - a[1]) % p, nb0 = (p - b[1]) % p;
    unsigned nam = (p - a[0]) % p, nbm = (p - b[0]) % p;
    unsigned nk = (p - k) % p;
#define V(c) ((br[c] + na0 * cur[c] + nam * prev[c] + \
        nb0 * (((c) ? cur[(c) - 1] : 0u) + ((c) + 1 < w ? cur[(c) + 1] : 0u)) + \
        nbm * (((c) ? prev[(c) - 1] : 0u) + ((c) + 1 < w ? prev[(c) + 1] : 0u))) % p)
    if (b[2] == 0) {                                /* C_1 = a1 I, binv = 1 / a1 */
        for (size_t c = 0; c < w; c++) nxt[c] = (uint8_t)(V(c) * binv % p);
        return;
    }
    unsigned bm1 = 0, b0v = 0;
    nxt[0] = 0;
    for (size_t c = 0; c + 1 < w; c++) {
        unsigned nx = (binv * V(c) + nk * b0v + (p - 1) * bm1) % p;
        bm1 = b0v;
        b0v = nx;
        nxt[c + 1] = (uint8_t)nx;
    }
    unsigned u = (binv * V(w - 1) + (p - 1) * bm1 + nk * b0v) % p * dinv % p;
    if (u)
        for (size_t c = 0; c < w; c++) nxt[c] = (uint8_t)((nxt[c] + u * alpha[c]) % p);
#undef V
}

int ml_symchase_run(const ml_symchase *P, const uint8_t *b, const uint8_t *z, uint8_t *x,
                    uint8_t *last)
{
    size_t w = P->w, h = P->h;
    unsigned p = P->p;
    unsigned a[3], bb[3];
    for (int i = 0; i < 3; i++) {
        a[i] = P->a[i] % p;
        bb[i] = P->b[i] % p;
    }
    if (!ml_symchase_invertible(P)) return 1;
    unsigned binv = 0, k = 0, dinv = 0;
    if (bb[2]) {
        binv = ml_gfp_inv(bb[2], p);
        k = a[2] * binv % p;
    } else {
        binv = ml_gfp_inv(a[2], p);
    }
    uint8_t *buf = calloc(2 * w, 1);
    if (!buf) return 2;
    uint8_t *zero = buf, *alpha = buf + w;
    if (bb[2]) dinv = ml_gfp_inv(shoot_alpha(w, p, k, alpha), p);
    if (z) memcpy(x, z, w);
    else memset(x, 0, w);
    for (size_t r = 0; r < h; r++) {
        const uint8_t *cur = x + r * w, *prev = r ? x + (r - 1) * w : zero;
        uint8_t *nxt = r + 1 < h ? x + (r + 1) * w : last;
        if (p == 2)
            row_gf2(w, b + r * w, cur, prev, a, bb, alpha, nxt);
        else
            row_gfp(w, p, b + r * w, cur, prev, a, bb, binv, k, dinv, alpha, nxt);
    }
    free(buf);
    return 0;
}
