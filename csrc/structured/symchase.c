/* symchase.c: see symchase.h. */
#include "structured/symchase.h"

#include <stdlib.h>
#include <string.h>

#include "base/interrupt.h"
#include "structured/packed.h"
#include "poly/poly.h"

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

/* ------------------------------------------------------------------ GF(2), packed */

/* Prefix XOR with stride m inside an MSB-first word: column j gets the XOR of columns
 * j, j - m, j - 2m, ... of the word. */
static inline uint64_t prefix_stride(uint64_t x, unsigned m)
{
    for (unsigned s = m; s < 64; s <<= 1) x ^= x >> s;
    return x;
}

static inline unsigned col_bit(const uint64_t *v, size_t c)
{
    return (unsigned)(v[c / 64] >> (63 - c % 64)) & 1;
}

/* The coefficients of one packed GF(2) row step (masks all-ones or zero). */
typedef struct {
    uint64_t a0, b0, am, bm, fill, mask;
    unsigned m, k;            /* C_1 = I (m = 0), else 1 / (1 + k x + x^2) has stride m */
    uint64_t spread[8];       /* the carry of the previous word's last m columns */
    const uint64_t *alpha;    /* the homogeneous solution (y_0 = 1), MSB-first */
} sym_packed_row;

/* nxt = C_1^-1 (b ^ fill ^ C_0 cur ^ C_-1 prev) over GF(2) on MSB-first words (cur and
 * prev with zero guard words at [-1] and [nw]). C_1 y = v is the shooting recurrence
 * y_{i+1} = v_i + k y_i + y_{i-1} from y_0 = u: as power series
 * y = (x v + u) / (1 + k x + x^2) = (x v + u) (1 + k x) / (1 + x^m) with m = 2 (k = 0)
 * or 3 (k = 1, (1 + x)(1 + x + x^2) = 1 + x^3), so y for u = 0 (beta) is a prefix XOR
 * with stride m of x v + k x^2 v: a few shifts a word, the carry between words one
 * table look-up; the last equation then fixes u (beta_{w-2} + k beta_{w-1} = v_{w-1}
 * + u D, D = 1 when C_1 is invertible) and y = beta + u alpha. */
static inline __attribute__((always_inline)) void
sym_row_packed(const sym_packed_row *R, unsigned m, int chase, size_t w, size_t nw,
               const uint8_t *br, const uint64_t *cur, const uint64_t *prev, uint64_t *nxt)
{
    size_t nb = (w + 7) / 8, nfull = nb / 8;
    uint64_t btail = 0;
    if (nfull < nw) {
        uint8_t tmp[8] = {0};
        memcpy(tmp, br + 8 * nfull, nb - 8 * nfull);
        btail = ml_load_be(tmp);
    }
    uint64_t v = 0, vprev = 0, bprev = 0;
    unsigned low = (1u << m) - 1;
    for (size_t i = 0; i < nw; i++) {
        uint64_t bw = i < nfull ? ml_load_be(br + 8 * i) : btail;
        v = bw ^ R->fill;
        if (chase) {                     /* else C_0 = C_-1 = 0: the row solve alone */
            uint64_t c = cur[i], p = prev[i];
            uint64_t pc = ((c >> 1) | ((cur - 1)[i] << 63)) ^ ((c << 1) | (cur[i + 1] >> 63));
            uint64_t pp = ((p >> 1) | ((prev - 1)[i] << 63)) ^ ((p << 1) | (prev[i + 1] >> 63));
            v ^= (c & R->a0) ^ (pc & R->b0) ^ (p & R->am) ^ (pp & R->bm);
        }
        if (!m) {
            nxt[i] = v;
            continue;
        }
        uint64_t W = (v >> 1) | (vprev << 63);
        if (R->k) W ^= (v >> 2) | (vprev << 62);
        vprev = v;
        bprev = prefix_stride(W, m) ^ R->spread[bprev & low];
        nxt[i] = bprev;
    }
    nxt[nw - 1] &= R->mask;
    if (!m) return;
    unsigned u = (unsigned)(v >> (63 - (w - 1) % 64)) & 1;          /* v_{w-1} */
    if (w >= 2) u ^= col_bit(nxt, w - 2);
    u ^= R->k & col_bit(nxt, w - 1);
    if (u)
        for (size_t i = 0; i < nw; i++) nxt[i] ^= R->alpha[i];
}

/* R for the chase of P with b_eff = tc ^ b; alpha: room for ceil(w / 64) words (zeroed).
 * Returns 0, or 2 when out of memory. */
static int sym_packed_init(const ml_symchase *P, unsigned tc, sym_packed_row *R,
                           uint64_t *alpha)
{
    size_t w = P->w;
    memset(R, 0, sizeof *R);
    R->a0 = (P->a[1] & 1) ? ~0ull : 0;
    R->b0 = (P->b[1] & 1) ? ~0ull : 0;
    R->am = (P->a[0] & 1) ? ~0ull : 0;
    R->bm = (P->b[0] & 1) ? ~0ull : 0;
    R->fill = (tc & 1) ? ~0ull : 0;
    R->mask = ml_packed_tail_mask(w);
    R->k = P->a[2] & 1;
    R->m = (P->b[2] & 1) ? (R->k ? 3 : 2) : 0;
    for (unsigned c = 0; R->m && c < (1u << R->m); c++)
        R->spread[c] = prefix_stride((uint64_t)c << (64 - R->m), R->m);
    R->alpha = alpha;
    if (!R->m) return 0;
    uint8_t *ab = malloc(w);
    if (!ab) return 2;
    shoot_alpha(w, 2, R->k, ab);
    for (size_t c = 0; c < w; c++) alpha[c / 64] |= (uint64_t)(ab[c] & 1) << (63 - c % 64);
    free(ab);
    return 0;
}

/* One row (chase: with C_0 cur and C_-1 prev; else the row solve alone, cur and prev
 * unused), the stride and the kind constants in each call (shifts unrolled). */
static void sym_row_step(const sym_packed_row *R, int chase, size_t w, size_t nw,
                         const uint8_t *br, const uint64_t *cur, const uint64_t *prev,
                         uint64_t *nxt)
{
    if (chase) {
        if (R->m == 2) sym_row_packed(R, 2, 1, w, nw, br, cur, prev, nxt);
        else if (R->m == 3) sym_row_packed(R, 3, 1, w, nw, br, cur, prev, nxt);
        else sym_row_packed(R, 0, 1, w, nw, br, cur, prev, nxt);
    } else {
        if (R->m == 2) sym_row_packed(R, 2, 0, w, nw, br, cur, prev, nxt);
        else if (R->m == 3) sym_row_packed(R, 3, 0, w, nw, br, cur, prev, nxt);
        else sym_row_packed(R, 0, 0, w, nw, br, cur, prev, nxt);
    }
}

int ml_symchase_run_packed(const ml_symchase *P, const uint8_t *b, unsigned tc,
                           const uint64_t *z, uint8_t *x, uint64_t *last)
{
    if (P->p != 2 || !ml_symchase_invertible(P)) return 1;
    size_t w = P->w, h = P->h, nw = (w + 63) / 64, nb = (w + 7) / 8;
    uint64_t *buf = calloc(4 * (nw + 2), sizeof(uint64_t));
    if (!buf) return 2;
    uint64_t *prev = buf + 1, *cur = buf + nw + 3, *nxt = buf + 2 * nw + 5;
    sym_packed_row R;
    if (sym_packed_init(P, tc, &R, buf + 3 * nw + 6)) {
        free(buf);
        return 2;
    }
    if (z)
        for (size_t i = 0; i < nw; i++) cur[i] = ml_rev64(z[i]);
    cur[nw - 1] &= R.mask;
    for (size_t r = 0; r < h; r++) {
        if (x) ml_packed_store_row(cur, w, x + r * nb);
        sym_row_step(&R, 1, w, nw, b + r * nb, cur, prev, nxt);
        uint64_t *t = prev;
        prev = cur;
        cur = nxt;
        nxt = t;
        if ((r & 15) == 15 && ml_interrupt_poll()) break;
    }
    for (size_t i = 0; i < nw; i++) last[i] = ml_rev64(cur[i]);
    free(buf);
    return 0;
}

struct ml_symchase_rows {
    sym_packed_row R;
    size_t w, nw;
    uint64_t *buf;                   /* zero row, next row, alpha */
};

ml_symchase_rows *ml_symchase_rows_new(const ml_symchase *P, int *why)
{
    *why = 1;
    if (P->p != 2 || !ml_symchase_invertible(P)) return NULL;
    *why = 2;
    ml_symchase_rows *S = calloc(1, sizeof *S);
    if (!S) return NULL;
    S->w = P->w;
    S->nw = (P->w + 63) / 64;
    ml_symchase C1 = {1, P->w, 2, {0, 0, P->a[2]}, {0, 0, P->b[2]}};    /* C_0 = C_-1 = 0 */
    S->buf = calloc(3 * S->nw + 2, sizeof(uint64_t));
    if (!S->buf || sym_packed_init(&C1, 0, &S->R, S->buf + 2 * S->nw + 2)) {
        ml_symchase_rows_free(S);
        return NULL;
    }
    *why = 0;
    return S;
}

int ml_symchase_rows_run(ml_symchase_rows *S, uint8_t *y, size_t rows, size_t stride)
{
    uint64_t *zero = S->buf + 1, *nxt = S->buf + S->nw + 2;
    for (size_t r = 0; r < rows; r++) {
        uint8_t *row = y + r * stride;
        sym_row_step(&S->R, 0, S->w, S->nw, row, zero, zero, nxt);
        ml_packed_store_row(nxt, S->w, row);
        if ((r & 63) == 63 && ml_interrupt_poll()) return 1;
    }
    return 0;
}

void ml_symchase_rows_free(ml_symchase_rows *S)
{
    if (!S) return;
    free(S->buf);
    free(S);
}

int ml_symchase_solve_rows_packed(const ml_symchase *P, uint8_t *y, size_t rows,
                                  size_t stride)
{
    int why;
    ml_symchase_rows *S = ml_symchase_rows_new(P, &why);
    if (!S) return why;
    ml_symchase_rows_run(S, y, rows, stride);
    ml_symchase_rows_free(S);
    return 0;
}
