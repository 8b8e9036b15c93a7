/* rowrec.c: row-recurrence chase and the polynomial isomorphism; see rowrec.h. */
#include "structured/rowrec.h"
#include "base/interrupt.h"

#include <stdlib.h>
#include <string.h>

#include "structured/packed.h"
#include "base/modn.h"

static inline unsigned neg_mod(unsigned a, unsigned p) { return (p - a % p) % p; }

void ml_rowrec_coeffs(const ml_rowrec *P, unsigned *t0, unsigned *s, unsigned *r,
                      unsigned *mu)
{
    unsigned p = P->p, inv = ml_gfp_inv(P->cu, p);
    *t0 = neg_mod(P->d, p) * inv % p;
    *s = neg_mod(P->cr, p) * inv % p;
    *r = neg_mod(P->cl, p) * inv % p;
    *mu = neg_mod(P->cd, p) * inv % p;
}

/* ------------------------------------------------------------------ GF(2) rows */

static inline uint64_t top_mask(size_t w)
{
    return (w % 64) ? ((uint64_t)1 << (w % 64)) - 1 : ~(uint64_t)0;
}

/* Row of w tiles -> nw words (bit c of word c / 64). */
static void load_row(int packed, const uint8_t *src, size_t w, uint64_t *dst)
{
    size_t nw = (w + 63) / 64;
    if (packed) {
        size_t nb = (w + 7) / 8;
        for (size_t i = 0; i < nw; i++) {
            size_t len = nb - 8 * i < 8 ? nb - 8 * i : 8;
            uint64_t v = 0;
            memcpy(&v, src + 8 * i, len);
            dst[i] = ml_rev_bits_in_bytes(v);
        }
    } else {
        for (size_t i = 0; i < nw; i++) {
            size_t base = 64 * i, len = w - base < 64 ? w - base : 64;
            uint64_t v = 0;
            if (len == 64) {
                for (int k = 0; k < 8; k++) {
                    uint64_t t;
                    memcpy(&t, src + base + 8 * k, 8);
                    t &= 0x0101010101010101ull;
                    v |= ((t * 0x0102040810204080ull) >> 56) << (8 * k);
                }
            } else {
                for (size_t k = 0; k < len; k++) v |= (uint64_t)(src[base + k] & 1) << k;
            }
            dst[i] = v;
        }
    }
    dst[nw - 1] &= top_mask(w);
}

static uint64_t spread_table[256];   /* byte -> 8 bytes of 0/1 (bit k -> byte k) */

static void init_spread(void)
{
    if (spread_table[255]) return;
    for (unsigned v = 0; v < 256; v++) {
        uint64_t t = 0;
        for (int k = 0; k < 8; k++) t |= (uint64_t)((v >> k) & 1) << (8 * k);
        spread_table[v] = t;
    }
}

/* nw words -> row of w tiles (the inverse of load_row). */
static void store_row(int packed, const uint64_t *src, size_t w, uint8_t *dst)
{
    size_t nw = (w + 63) / 64;
    if (packed) {
        size_t nb = (w + 7) / 8;
        for (size_t i = 0; i < nw; i++) {
            uint64_t v = ml_rev_bits_in_bytes(src[i]);
            size_t len = nb - 8 * i < 8 ? nb - 8 * i : 8;
            memcpy(dst + 8 * i, &v, len);
        }
    } else {
        for (size_t i = 0; i < nw; i++) {
            size_t base = 64 * i, len = w - base < 64 ? w - base : 64;
            uint64_t v = src[i];
            if (len == 64) {
                for (int k = 0; k < 8; k++)
                    memcpy(dst + base + 8 * k, &spread_table[(v >> (8 * k)) & 255], 8);
            } else {
                for (size_t k = 0; k < len; k++) dst[base + k] = (uint8_t)((v >> k) & 1);
            }
        }
    }
}

/* out ^= B v over GF(2): d v ^ cr (v shifted right a column) ^ cl (shifted left);
 * LSB-first words, branch-free over the interior words. */
static inline void xor_B(uint64_t *out, const uint64_t *v, size_t nw, unsigned d, unsigned cr,
                         unsigned cl)
{
    uint64_t dm = d ? ~0ull : 0, rm = cr ? ~0ull : 0, lm = cl ? ~0ull : 0;
    for (size_t i = 0; i < nw; i++) {
        uint64_t lo = i ? v[i - 1] : 0, hi = i + 1 < nw ? v[i + 1] : 0;
        out[i] ^= (v[i] & dm) ^ (((v[i] << 1) | (lo >> 63)) & rm)      /* tile c: tap c - 1 */
                  ^ (((v[i] >> 1) | (hi << 63)) & lm);                   /* tile c: tap c + 1 */
    }
}

/* The chase on np.packbits rows without converting them: 8 bytes read big-endian are
 * a word with column j at bit 63 - j (MSB first), so neighbouring columns are one
 * shift away (directions mirrored). Row buffers carry a zero guard word at each end
 * (no branches in the loop). z / last in LSB-first words as elsewhere. */
static int chase_packed_msb(const ml_rowrec *P, const uint8_t *b, unsigned tc,
                            const uint64_t *z, uint8_t *x, uint64_t *last)
{
    size_t w = P->w, h = P->h, nw = (w + 63) / 64, nb = (w + 7) / 8, nfull = nb / 8;
    size_t tail = nb - 8 * nfull;
    uint64_t dm = (P->d & 1) ? ~0ull : 0, rm = (P->cr & 1) ? ~0ull : 0;
    uint64_t lm = (P->cl & 1) ? ~0ull : 0, pm = (P->cd & 1) ? ~0ull : 0;
    uint64_t fill = (tc & 1) ? ~0ull : 0;
    uint64_t mask = (w % 64) ? ~0ull << (64 - w % 64) : ~0ull;
    uint64_t *buf = calloc(3 * (nw + 2), sizeof(uint64_t));
    if (!buf) return 2;
    uint64_t *prev = buf + 1, *cur = buf + nw + 3, *nxt = buf + 2 * nw + 5;
    if (z)
        for (size_t i = 0; i < nw; i++) cur[i] = ml_rev64(z[i]);
    cur[nw - 1] &= mask;
    for (size_t r = 0; r < h; r++) {
        const uint8_t *restrict br = b + r * nb;
        const uint64_t *restrict cu = cur, *restrict pv = prev;
        uint64_t *restrict nx = nxt;
        if (x) {
            uint8_t *restrict xr = x + r * nb;
            for (size_t i = 0; i < nfull; i++) {
                uint64_t c = cu[i];
                nx[i] = ml_load_be(br + 8 * i) ^ fill ^ (c & dm)
                        ^ (((c >> 1) | ((cu - 1)[i] << 63)) & rm)
                        ^ (((c << 1) | (cu[i + 1] >> 63)) & lm) ^ (pv[i] & pm);
                ml_store_be(xr + 8 * i, c);
            }
        } else {
            for (size_t i = 0; i < nfull; i++) {
                uint64_t c = cu[i];
                nx[i] = ml_load_be(br + 8 * i) ^ fill ^ (c & dm)
                        ^ (((c >> 1) | ((cu - 1)[i] << 63)) & rm)
                        ^ (((c << 1) | (cu[i + 1] >> 63)) & lm) ^ (pv[i] & pm);
            }
        }
        uint8_t *xr = x ? x + r * nb : NULL;
        if (tail) {
            size_t i = nfull;
            uint8_t tmp[8] = {0};
            memcpy(tmp, br + 8 * i, tail);
            uint64_t c = cur[i];
            nxt[i] = ml_load_be(tmp) ^ fill ^ (c & dm) ^ (((c >> 1) | ((cur - 1)[i] << 63)) & rm)
                     ^ (((c << 1) | (cur[i + 1] >> 63)) & lm) ^ (prev[i] & pm);
            if (x) {
                ml_store_be(tmp, c);
                memcpy(xr + 8 * i, tmp, tail);
            }
        }
        nxt[nw - 1] &= mask;
        uint64_t *t = prev;
        prev = cur;
        cur = nxt;
        nxt = t;
    }
    for (size_t i = 0; i < nw; i++) last[i] = ml_rev64(cur[i]);
    free(buf);
    return 0;
}

int ml_rowrec_chase_gf2(const ml_rowrec *P, int packed, const uint8_t *b, unsigned tc,
                        const uint64_t *z, uint8_t *x, uint64_t *last)
{
    if (packed) return chase_packed_msb(P, b, tc, z, x, last);
    size_t w = P->w, h = P->h, nw = (w + 63) / 64;
    unsigned d = P->d & 1, cr = P->cr & 1, cl = P->cl & 1, cd = P->cd & 1;
    uint64_t *buf = calloc(3 * nw, sizeof(uint64_t));
    if (!buf) return 2;
    init_spread();
    uint64_t *prev = buf, *cur = buf + nw, *nxt = buf + 2 * nw, mask = top_mask(w);
    uint64_t fill = (tc & 1) ? ~(uint64_t)0 : 0;
    if (z) memcpy(cur, z, nw * sizeof(uint64_t));
    cur[nw - 1] &= mask;
    for (size_t r = 0; r < h; r++) {
        if (x) store_row(0, cur, w, x + r * w);
        load_row(0, b + r * w, w, nxt);
        if (fill) for (size_t i = 0; i < nw; i++) nxt[i] ^= fill;
        xor_B(nxt, cur, nw, d, cr, cl);
        if (cd) for (size_t i = 0; i < nw; i++) nxt[i] ^= prev[i];
        nxt[nw - 1] &= mask;
        uint64_t *t = prev;
        prev = cur;
        cur = nxt;
        nxt = t;
    }
    memcpy(last, cur, nw * sizeof(uint64_t));
    free(buf);
    return 0;
}

size_t ml_rowrec_apply_gf2(const ml_rowrec *P, int packed, const uint8_t *s, unsigned tc,
                           const uint8_t *x, uint8_t *out)
{
    size_t w = P->w, h = P->h, nw = (w + 63) / 64;
    size_t rb = packed ? (w + 7) / 8 : w;
    unsigned d = P->d & 1, cr = P->cr & 1, cl = P->cl & 1, cu = P->cu & 1, cd = P->cd & 1;
    uint64_t *buf = calloc(4 * nw, sizeof(uint64_t));
    if (!buf) return (size_t)-1;
    init_spread();
    uint64_t *xp = buf, *xc = buf + nw, *xn = buf + 2 * nw, *acc = buf + 3 * nw;
    uint64_t mask = top_mask(w), fill = (tc & 1) ? ~(uint64_t)0 : 0;
    size_t bad = 0;
    load_row(packed, x, w, xc);
    for (size_t r = 0; r < h; r++) {
        if (r + 1 < h) load_row(packed, x + (r + 1) * rb, w, xn);
        else memset(xn, 0, nw * sizeof(uint64_t));
        if (s) load_row(packed, s + r * rb, w, acc);
        else memset(acc, 0, nw * sizeof(uint64_t));
        xor_B(acc, xc, nw, d, cr, cl);
        for (size_t i = 0; i < nw; i++) acc[i] ^= (cd ? xp[i] : 0) ^ (cu ? xn[i] : 0);
        acc[nw - 1] &= mask;
        if (out) store_row(packed, acc, w, out + r * rb);
        for (size_t i = 0; i < nw; i++)
            bad += (size_t)__builtin_popcountll((acc[i] ^ fill) & (i + 1 < nw ? ~0ull : mask));
        uint64_t *t = xp;
        xp = xc;
        xc = xn;
        xn = t;
    }
    free(buf);
    return bad;
}

/* ------------------------------------------------------------------ GF(p) rows */

int ml_rowrec_chase_gfp(const ml_rowrec *P, const uint8_t *b, unsigned tc, unsigned sb,
                        const uint8_t *z, uint8_t *x, uint8_t *last)
{
    size_t w = P->w, h = P->h;
    unsigned p = P->p, inv = ml_gfp_inv(P->cu, p);
    ml_fastmod F = ml_fastmod_make(p);
    /* X_{r+1} = inv (tc + sb b - d X_r - cr X_r[c-1] - cl X_r[c+1] - cd X_{r-1}) */
    uint32_t kb = sb % p * inv % p, k0 = tc % p * inv % p;
    uint32_t kd = neg_mod(P->d, p) * inv % p, kr = neg_mod(P->cr, p) * inv % p;
    uint32_t kl = neg_mod(P->cl, p) * inv % p, kp = neg_mod(P->cd, p) * inv % p;
    uint8_t *zero = calloc(w, 1);
    if (!zero) return 2;
    if (z) memcpy(x, z, w);
    else memset(x, 0, w);
    for (size_t r = 0; r < h; r++) {
        const uint8_t *restrict cur = x + r * w, *restrict prev = r ? x + (r - 1) * w : zero;
        const uint8_t *restrict br = b + r * w;
        uint8_t *restrict nxt = r + 1 < h ? x + (r + 1) * w : last;
        if (w == 1) {
            nxt[0] = (uint8_t)ml_fastmod_red(F, k0 + kb * br[0] + kd * cur[0] + kp * prev[0]);
            continue;
        }
        nxt[0] = (uint8_t)ml_fastmod_red(F, k0 + kb * br[0] + kd * cur[0] + kl * cur[1]
                                             + kp * prev[0]);
        for (size_t c = 1; c + 1 < w; c++)           /* interior: no branches */
            nxt[c] = (uint8_t)ml_fastmod_red(F, k0 + kb * br[c] + kd * cur[c] + kr * cur[c - 1]
                                                 + kl * cur[c + 1] + kp * prev[c]);
        nxt[w - 1] = (uint8_t)ml_fastmod_red(F, k0 + kb * br[w - 1] + kd * cur[w - 1]
                                                 + kr * cur[w - 2] + kp * prev[w - 1]);
    }
    free(zero);
    return 0;
}

int ml_rowrec_chase_torus_gfp(const ml_rowrec *P, const uint8_t *b, const uint8_t *u,
                              const uint8_t *v, uint8_t *x, uint8_t *r1, uint8_t *r2)
{
    size_t w = P->w, h = P->h;
    unsigned p = P->p, inv = ml_gfp_inv(P->cu, p);
    ml_fastmod F = ml_fastmod_make(p);
    /* X_{r+1} = inv (b_r - d X_r - cr X_r[c-1] - cl X_r[c+1] - cd X_{r-1}), columns mod w */
    uint32_t kd = neg_mod(P->d, p) * inv % p, kr = neg_mod(P->cr, p) * inv % p;
    uint32_t kl = neg_mod(P->cl, p) * inv % p, kp = neg_mod(P->cd, p) * inv % p;
    uint32_t kb = inv;
    if (h < 3 || w == 0) return 1;
    /* rows in x, or (x NULL) in a ring of three rows; one more for the virtual row X_h */
    uint8_t *buf = malloc((x ? 1 : 4) * w);
    if (!buf) return 2;
    uint8_t *virt = buf + (x ? 0 : 3 * w);
#define TORUS_ROW(r) (x ? x + (r) * w : buf + ((r) % 3) * w)
    memcpy(TORUS_ROW(0), u, w);
    for (size_t r = 0; r < h; r++) {
        const uint8_t *restrict cur = TORUS_ROW(r), *restrict prev = r ? TORUS_ROW(r - 1) : v;
        const uint8_t *restrict br = b ? b + r * w : NULL;
        uint8_t *restrict nxt = r + 1 < h ? TORUS_ROW(r + 1) : virt;
        if (p == 2 && w > 1) {   /* GF(2): every k is 0 or 1, every value a bit: masks */
            uint8_t md = (uint8_t)(0u - kd), mr = (uint8_t)(0u - kr), ml = (uint8_t)(0u - kl);
            uint8_t mp = (uint8_t)(0u - kp);
            nxt[0] = (uint8_t)((md & cur[0]) ^ (mr & cur[w - 1]) ^ (ml & cur[1]) ^ (mp & prev[0]));
            nxt[w - 1] = (uint8_t)((md & cur[w - 1]) ^ (mr & cur[w - 2]) ^ (ml & cur[0]) ^
                                   (mp & prev[w - 1]));
            for (size_t c = 1; c + 1 < w; c++)
                nxt[c] = (uint8_t)((md & cur[c]) ^ (mr & cur[c - 1]) ^ (ml & cur[c + 1]) ^
                                   (mp & prev[c]));
            if (br)   /* kb = inv = 1 */
                for (size_t c = 0; c < w; c++)
                    nxt[c] ^= (uint8_t)(br[c] & 1u);
        } else {
        /* the two wrapping columns, then the interior without branches */
        for (size_t c = 0; c < w; c = c ? w : (w > 1 ? w - 1 : w)) {
            size_t cm = c ? c - 1 : w - 1, cp = c + 1 < w ? c + 1 : 0;
            uint32_t acc = kd * cur[c] + kr * cur[cm] + kl * cur[cp] + kp * prev[c];
            if (br) acc += kb * br[c];
            nxt[c] = (uint8_t)ml_fastmod_red(F, acc);
        }
        if (br)
            for (size_t c = 1; c + 1 < w; c++)
                nxt[c] = (uint8_t)ml_fastmod_red(F, kb * br[c] + kd * cur[c] + kr * cur[c - 1]
                                                 + kl * cur[c + 1] + kp * prev[c]);
        else
            for (size_t c = 1; c + 1 < w; c++)
                nxt[c] = (uint8_t)ml_fastmod_red(F, kd * cur[c] + kr * cur[c - 1]
                                                 + kl * cur[c + 1] + kp * prev[c]);
        }
        if ((r & 15) == 15 && ml_interrupt_poll()) {   /* Ctrl-C: the residuals untouched */
            free(buf);
            return 3;
        }
    }
    const uint8_t *xl = TORUS_ROW(h - 1);
#undef TORUS_ROW
    for (size_t c = 0; c < w; c++) {
        r1[c] = (uint8_t)((xl[c] + p - v[c]) % p);
        r2[c] = (uint8_t)((virt[c] + p - u[c]) % p);
    }
    free(buf);
    return 0;
}

/* ------------------------------------------------------------------ the algebra, GF(2) */

int ml_rowrec_charpoly_gf2(const ml_rowrec *P, ml_gf2x *chi)
{
    /* Q_{j+1} = (x + t0) Q_j + (r s) Q_{j-1}, Q_0 = 1 */
    unsigned t0, s, r, mu;
    ml_rowrec_coeffs(P, &t0, &s, &r, &mu);
    size_t w = P->w, nw = w / 64 + 1;
    uint64_t *buf = calloc(2 * nw + 2, sizeof(uint64_t));
    if (!buf) return 2;
    uint64_t *a = buf, *q = buf + nw + 1;            /* a = Q_{j-1}, q = Q_j */
    q[0] = 1;
    unsigned rs = r & s & 1;
    for (size_t j = 0; j < w; j++) {
        if ((j & 255) == 255 && ml_interrupt_poll()) {   /* Ctrl-C (interrupt.h) */
            free(buf);
            return 3;
        }
        size_t used = (j + 1) / 64 + 1;               /* deg Q_{j+1} = j + 1 */
        /* a = x q + t0 q + rs a (in place, words from the top down) */
        for (size_t i = used; i-- > 0;) {
            uint64_t v = (q[i] << 1) | (i ? q[i - 1] >> 63 : 0);
            if (t0 & 1) v ^= q[i];
            a[i] = v ^ (rs ? a[i] : 0);
        }
        uint64_t *t = a;
        a = q;
        q = t;
    }
    int rc = ml_gf2x_set(chi, q, nw);
    free(buf);
    return rc;
}

int ml_rowrec_F_gf2(const ml_rowrec *P, const ml_gf2x *chi, ml_gf2x *F)
{
    unsigned t0, s, r, mu;
    ml_rowrec_coeffs(P, &t0, &s, &r, &mu);
    size_t w = P->w, nw = w / 64 + 1;
    if (ml_gf2x_deg(chi) != (long)w) return 1;
    uint64_t *buf = calloc(2 * nw + 2, sizeof(uint64_t));
    if (!buf) return 2;
    uint64_t *a = buf, *q = buf + nw + 1;            /* a = P_{i-1}, q = P_i */
    q[0] = 1;
    const uint64_t *cw = chi->c;
    for (size_t i = 0; i < P->h; i++) {
        if ((i & 255) == 255 && ml_interrupt_poll()) {
            free(buf);
            return 3;
        }
        size_t deg = i + 1 < w ? i + 1 : w;          /* deg of x P_i before reduction */
        size_t used = deg / 64 + 1;
        for (size_t k = used; k-- > 0;) {
            uint64_t v = (q[k] << 1) | (k ? q[k - 1] >> 63 : 0);
            a[k] = v ^ ((mu & 1) ? a[k] : 0);
        }
        if ((a[w / 64] >> (w % 64)) & 1)               /* x^w term: add chi */
            for (size_t k = 0; k < used; k++) a[k] ^= cw[k];
        uint64_t *t = a;
        a = q;
        q = t;
    }
    int rc = ml_gf2x_set(F, q, nw);
    free(buf);
    return rc;
}

int ml_rowrec_vec_to_poly_gf2(const ml_rowrec *P, const uint64_t *v, ml_gf2x *f)
{
    /* Clenshaw: b_j = v_j + (x + t0) b_{j+1} + r b_{j+2} (s = 1), f = b_0 */
    unsigned t0, s, r, mu;
    ml_rowrec_coeffs(P, &t0, &s, &r, &mu);
    size_t w = P->w, nw = w / 64 + 1;
    uint64_t *buf = calloc(2 * nw + 2, sizeof(uint64_t));
    if (!buf) return 2;
    uint64_t *b1 = buf, *b2 = buf + nw + 1;          /* b1 = b_{j+1}, b2 = b_{j+2} */
    for (size_t j = w; j-- > 0;) {
        size_t used = (w - j) / 64 + 1;               /* deg b_j <= w - 1 - j */
        for (size_t k = used; k-- > 0;) {
            uint64_t t = (b1[k] << 1) | (k ? b1[k - 1] >> 63 : 0);
            if (t0 & 1) t ^= b1[k];
            b2[k] = t ^ ((r & 1) ? b2[k] : 0);
        }
        b2[0] ^= (v[j / 64] >> (j % 64)) & 1;
        uint64_t *t = b1;
        b1 = b2;
        b2 = t;
    }
    int rc = ml_gf2x_set(f, b1, nw);
    free(buf);
    return rc;
}

int ml_rowrec_poly_to_vec_gf2(const ml_rowrec *P, const ml_gf2x *f, uint64_t *v)
{
    /* Horner: v = T v + f_k e_0 from the top coefficient down; T v = t0 v + s (v moved
     * a row down) + r (v moved a row up) */
    unsigned t0, s, r, mu;
    ml_rowrec_coeffs(P, &t0, &s, &r, &mu);
    size_t w = P->w, nw = (w + 63) / 64;
    long df = ml_gf2x_deg(f);
    if (df >= (long)w) return 1;
    memset(v, 0, nw * sizeof(uint64_t));
    uint64_t mask = top_mask(w);
    for (long k = df; k >= 0; k--) {
        size_t support = (size_t)(df - k) + 1;        /* entries 0..df-k can be non-zero */
        size_t used = support / 64 + 1;
        if (used > nw) used = nw;
        uint64_t prevw = 0;                           /* old v[i - 1] */
        for (size_t i = 0; i < used; i++) {
            uint64_t old = v[i], hi = i + 1 < nw ? v[i + 1] : 0, t = 0;
            if (t0 & 1) t ^= old;
            if (s & 1) t ^= (old << 1) | (prevw >> 63);
            if (r & 1) t ^= (old >> 1) | (hi << 63);
            v[i] = t;
            prevw = old;
        }
        v[nw - 1] &= mask;
        v[0] ^= (f->c[k / 64] >> (k % 64)) & 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ the algebra, GF(p) */

/* GF(p) work rows carry one zero guard entry before index 0 (row[-1] == 0). */

size_t ml_rowrec_doubling_w = 384;

/* out = (Q_n mod m) for Q_{j+1} = (x + c) Q_j + e Q_{j-1}, Q_0 = 1, Q_{-1} = 0 (m NULL:
 * no reduction; else monic of degree >= 1), over the bits of n from the top by
 *     Q_{2k} = Q_k^2 + e Q_{k-1}^2,   Q_{2k-1} = Q_{k-1} (2 Q_k - (x + c) Q_{k-1})
 * (the top row of [[x + c, e], [1, 0]]^k squared) and Q_{k+1} = (x + c) Q_k + e Q_{k-1}.
 * O(M(d) log n) for d = deg m (or n). Polls for a stop at every bit (3). */
static int recurrence_doubling(unsigned c, unsigned e, uint64_t n, const ml_gfpx *m,
                               unsigned p, ml_gfpx *out)
{
    static const uint8_t one = 1;
    ml_gfpx A, B, t1, t2;
    ml_gfpx *all[4] = {&A, &B, &t1, &t2};
    for (int i = 0; i < 4; i++)
        ml_gfpx_init(all[i]);
    int rc = ml_gfpx_set(&A, &one, 1), bit = 63;
    while (bit >= 0 && !(n >> bit & 1))
        bit--;
    for (; bit >= 0 && !rc; bit--) {
        if (ml_interrupt_poll()) {
            rc = 3;
            break;
        }
        /* (A, B) = (Q_k, Q_{k-1}) -> (Q_{2k}, Q_{2k-1}) */
        rc = ml_gfpx_copy(&t2, &B);                        /* t2 = (x + c) B */
        if (!rc)
            rc = ml_gfpx_axpy(&t2, c, &B, 1, 1, p);
        if (!rc)
            rc = ml_gfpx_axpy(&t2, p - 1, &A, 0, 2, p);    /* t2 = 2 A - (x + c) B */
        if (!rc)
            rc = ml_gfpx_mul(&t2, &t2, &B, p);             /* Q_{2k-1} */
        if (!rc)
            rc = ml_gfpx_mul(&t1, &B, &B, p);
        if (!rc)
            rc = ml_gfpx_mul(&A, &A, &A, p);
        if (!rc)
            rc = ml_gfpx_axpy(&A, 1, &t1, 0, e, p);        /* Q_{2k} */
        if (!rc) {
            ml_gfpx x = B; B = t2; t2 = x;
        }
        if (!rc && (n >> bit & 1)) {                        /* (Q_{k+1}, Q_k) */
            rc = ml_gfpx_copy(&t1, &A);
            if (!rc)
                rc = ml_gfpx_axpy(&t1, c, &A, 1, 1, p);
            if (!rc)
                rc = ml_gfpx_axpy(&t1, 1, &B, 0, e, p);
            if (!rc) {
                ml_gfpx x = B; B = A; A = t1; t1 = x;
            }
        }
        if (!rc && m && A.n >= m->n)
            rc = ml_gfpx_divrem(NULL, &A, &A, m, p);
        if (!rc && m && B.n >= m->n)
            rc = ml_gfpx_divrem(NULL, &B, &B, m, p);
    }
    if (!rc) {
        ml_gfpx_clear(out);
        *out = A;
        ml_gfpx_init(&A);
    }
    for (int i = 0; i < 4; i++)
        ml_gfpx_clear(all[i]);
    return rc;
}

int ml_rowrec_charpoly_gfp(const ml_rowrec *P, ml_gfpx *chi)
{
    unsigned t0, s, r, mu, p = P->p;
    ml_rowrec_coeffs(P, &t0, &s, &r, &mu);
    ml_fastmod F = ml_fastmod_make(p);
    size_t w = P->w;
    uint32_t nt = neg_mod(t0, p), nrs = neg_mod(r * s % p, p);
    if (w >= ml_rowrec_doubling_w) {
        ml_gfpx q;
        ml_gfpx_init(&q);
        int rc = recurrence_doubling(nt, nrs, w, NULL, p, &q);
        if (!rc) {
            ml_gfpx_clear(chi);
            *chi = q;
        } else {
            ml_gfpx_clear(&q);
        }
        return rc;
    }
    uint8_t *buf = calloc(2 * (w + 3), 1);
    if (!buf) return 2;
    uint8_t *a = buf + 1, *q = buf + w + 4;
    q[0] = 1;
    for (size_t j = 0; j < w; j++) {
        if ((j & 255) == 255 && ml_interrupt_poll()) {
            free(buf);
            return 3;
        }
        /* a = x q - t0 q - r s a, degrees up to j + 1 */
        uint8_t *restrict A = a;
        const uint8_t *restrict Q = q;
        const uint8_t *Qm = q - 1;          /* x q: Q shifted up (q[-1] is a zero slot) */
        for (size_t i = 0; i < j + 2; i++)
            A[i] = (uint8_t)ml_fastmod_red(F, Qm[i] + nt * Q[i] + nrs * A[i]);
        uint8_t *t = a;
        a = q;
        q = t;
    }
    int rc = ml_gfpx_set(chi, q, w + 1);
    free(buf);
    return rc;
}

int ml_rowrec_F_gfp(const ml_rowrec *P, const ml_gfpx *chi, ml_gfpx *Fp)
{
    unsigned t0, s, r, mu, p = P->p;
    ml_rowrec_coeffs(P, &t0, &s, &r, &mu);
    ml_fastmod F = ml_fastmod_make(p);
    size_t w = P->w;
    if (ml_gfpx_deg(chi) != (long)w || chi->c[w] != 1) return 1;
    if (w >= ml_rowrec_doubling_w) {
        ml_gfpx f;
        ml_gfpx_init(&f);
        int rc = recurrence_doubling(0, mu, P->h, chi, p, &f);
        if (!rc) {
            ml_gfpx_clear(Fp);
            *Fp = f;
        } else {
            ml_gfpx_clear(&f);
        }
        return rc;
    }
    uint8_t *buf = calloc(2 * (w + 3), 1);
    if (!buf) return 2;
    uint8_t *a = buf + 1, *q = buf + w + 4;
    q[0] = 1;
    for (size_t i = 0; i < P->h; i++) {
        if ((i & 255) == 255 && ml_interrupt_poll()) {
            free(buf);
            return 3;
        }
        size_t top = i + 1 < w ? i + 1 : w;           /* deg of x P_i */
        uint8_t *restrict A = a;
        const uint8_t *restrict Q = q;
        for (size_t k = 0; k <= top; k++) A[k] = (uint8_t)ml_fastmod_red(F, (Q - 1)[k] + mu * A[k]);
        if (top == w && a[w]) {                        /* subtract a_w chi */
            uint32_t c = p - a[w];
            const uint8_t *restrict C = chi->c;
            for (size_t k = 0; k < w; k++) A[k] = (uint8_t)ml_fastmod_red(F, A[k] + c * C[k]);
            a[w] = 0;
        }
        uint8_t *t = a;
        a = q;
        q = t;
    }
    int rc = ml_gfpx_set(Fp, q, w + 1);
    free(buf);
    return rc;
}

int ml_rowrec_vec_to_poly_gfp(const ml_rowrec *P, const uint8_t *v, ml_gfpx *f)
{
    /* Clenshaw with alpha = (x - t0) / s, gamma = r / s: b_j = v_j + alpha b_{j+1}
     * - gamma b_{j+2} */
    unsigned t0, s, r, mu, p = P->p;
    ml_rowrec_coeffs(P, &t0, &s, &r, &mu);
    ml_fastmod F = ml_fastmod_make(p);
    size_t w = P->w;
    uint8_t *buf = calloc(2 * (w + 3), 1);
    if (!buf) return 2;
    uint8_t *b1 = buf + 1, *b2 = buf + w + 4;
    uint32_t si = ml_gfp_inv(s, p), ct = neg_mod(t0, p) * si % p;
    uint32_t cg = neg_mod(r, p) * si % p;
    for (size_t j = w; j-- > 0;) {
        size_t deg = w - 1 - j;
        uint8_t *restrict B2 = b2;
        const uint8_t *restrict B1 = b1;
        for (size_t k = 0; k <= deg; k++)
            B2[k] = (uint8_t)ml_fastmod_red(F, si * (B1 - 1)[k] + ct * B1[k] + cg * B2[k]);
        b2[0] = (uint8_t)((b2[0] + v[j]) % p);
        uint8_t *t = b1;
        b1 = b2;
        b2 = t;
    }
    int rc = ml_gfpx_set(f, b1, w);
    free(buf);
    return rc;
}

int ml_rowrec_poly_to_vec_gfp(const ml_rowrec *P, const ml_gfpx *f, uint8_t *v)
{
    /* Horner with T applied out of place: u = T v (guards on both sides), v <-> u */
    unsigned t0, s, r, mu, p = P->p;
    ml_rowrec_coeffs(P, &t0, &s, &r, &mu);
    ml_fastmod F = ml_fastmod_make(p);
    size_t w = P->w;
    long df = ml_gfpx_deg(f);
    if (df >= (long)w) return 1;
    uint8_t *buf = calloc(2 * (w + 2), 1);
    if (!buf) return 2;
    uint8_t *a = buf + 1, *u = buf + w + 3;
    for (long k = df; k >= 0; k--) {
        size_t support = (size_t)(df - k) + 1;
        size_t used = support < w ? support : w;
        uint8_t *restrict U = u;
        const uint8_t *restrict A = a;
        for (size_t i = 0; i < used; i++)
            U[i] = (uint8_t)ml_fastmod_red(F, t0 * A[i] + s * (A - 1)[i] + r * A[i + 1]);
        U[0] = (uint8_t)((U[0] + f->c[k]) % p);
        uint8_t *t = a;
        a = u;
        u = t;
    }
    memcpy(v, a, w);
    free(buf);
    return 0;
}
