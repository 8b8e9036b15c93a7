/* canon.c: canonical kernel generators and coset representatives (contract in canon.h). */
#include "search/canon.h"

#include <stdlib.h>
#include <string.h>

#include "base/interrupt.h"
#include "base/modn.h"

/* The prime powers of n (at most 4 for n <= 255: 2*3*5*7 = 210). */
typedef struct {
    unsigned q[4], p[4], e[4], idem[4];
    int count;
} parts_t;

static void factor(unsigned n, parts_t *P)
{
    P->count = ml_prime_powers(n, P->q, P->p, P->e, P->idem);
}

int ml_canon_fits(size_t k, size_t L, unsigned n)
{
    if (n < 2 || n > 255) return 0;
    parts_t P;
    factor(n, &P);
    unsigned exps = 0;                  /* a p^e part's Howell form has up to e k rows */
    for (int j = 0; j < P.count; j++) exps += P.e[j];
    unsigned __int128 w = (unsigned __int128)k * k;
    w *= n == 2 ? (L + 63) / 64 : (uint64_t)L * exps;
    return w <= ML_CANON_MAX_WORK;
}

/* ------------------------------------------------------------------ GF(2) */
/* Reduced row echelon form of the k x L bit matrix G (bytes 0/1), written as bytes. */
static size_t basis_gf2(const uint8_t *G, size_t k, size_t L, uint8_t *out, uint32_t *orders)
{
    const size_t nw = (L + 63) / 64 ? (L + 63) / 64 : 1;
    uint64_t *R = calloc(k * nw + 1, sizeof(uint64_t));
    if (!R) return ML_CANON_ENOMEM;
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < L; j++)
            R[i * nw + j / 64] |= (uint64_t)(G[i * L + j] & 1) << (j % 64);
    size_t r = 0;
    for (size_t c = 0; c < L && r < k; c++) {
        if ((c & 63) == 0 && ml_interrupt_poll()) { free(R); return ML_CANON_INTERRUPTED; }
        const size_t w = c / 64;
        const uint64_t bit = (uint64_t)1 << (c % 64);
        size_t piv = r;
        while (piv < k && !(R[piv * nw + w] & bit)) piv++;
        if (piv == k) continue;
        if (piv != r)
            for (size_t t = 0; t < nw; t++) {
                uint64_t a = R[r * nw + t];
                R[r * nw + t] = R[piv * nw + t];
                R[piv * nw + t] = a;
            }
        const uint64_t *pr = R + r * nw;
        for (size_t i = 0; i < k; i++)
            if (i != r && (R[i * nw + w] & bit))
                for (size_t t = w; t < nw; t++) R[i * nw + t] ^= pr[t];
        r++;
    }
    for (size_t i = 0; i < r; i++) {
        for (size_t j = 0; j < L; j++) out[i * L + j] = (uint8_t)((R[i * nw + j / 64] >> (j % 64)) & 1);
        orders[i] = 2;
    }
    free(R);
    return r;
}

/* ------------------------------------------------------------------ Z/p^e */
/* p-valuation of a (0 < a < q = p^e). */
static unsigned val(unsigned a, unsigned p)
{
    unsigned v = 0;
    while (a % p == 0) { a /= p; v++; }
    return v;
}

static unsigned pw(unsigned p, unsigned v)
{
    unsigned r = 1;
    while (v--) r *= p;
    return r;
}

/* row a -= f * row b (mod q), from column `from` on. */
static void axpy(uint8_t *a, const uint8_t *b, unsigned f, unsigned q, size_t from, size_t L)
{
    f %= q;
    if (!f) return;
    const unsigned g = q - f;
    for (size_t j = from; j < L; j++)
        if (b[j]) a[j] = (uint8_t)((a[j] + g * b[j]) % q);
}

/* Scale row a so that a[c] = p^v (a[c] = p^v u, u a unit mod q). */
static void normalise(uint8_t *a, size_t c, unsigned p, unsigned q, size_t L)
{
    unsigned v = val(a[c], p), u = a[c] / pw(p, v);
    unsigned s = ml_inv_mod(u % q, q);
    if (s == 1) return;
    for (size_t j = 0; j < L; j++) a[j] = (uint8_t)(((unsigned)a[j] * s) % q);
}

static int zero_row(const uint8_t *a, size_t L)
{
    for (size_t j = 0; j < L; j++)
        if (a[j]) return 0;
    return 1;
}

/* The Howell form of the rows of G mod q (k x L) into Hw (room for cap = min(L, e k)
 * rows, as many as it can have); returns its row count, or ML_CANON_INTERRUPTED.
 * W: scratch of (k + 1) x L bytes. */
static size_t howell(const uint8_t *G, size_t k, size_t L, unsigned p, unsigned e, unsigned q,
                     uint8_t *W, uint8_t *Hw, size_t cap, size_t *pcol)
{
    size_t nw = 0;                      /* work rows: zero before the current column */
    for (size_t i = 0; i < k; i++) {
        uint8_t *w = W + nw * L;
        for (size_t j = 0; j < L; j++) w[j] = (uint8_t)(G[i * L + j] % q);
        if (!zero_row(w, L)) nw++;
    }
    size_t h = 0;
    for (size_t c = 0; c < L && nw; c++) {
        if ((c & 63) == 0 && ml_interrupt_poll()) return ML_CANON_INTERRUPTED;
        size_t best = nw;
        unsigned bv = e;
        for (size_t i = 0; i < nw; i++) {
            unsigned a = W[i * L + c];
            if (a && val(a, p) < bv) { bv = val(a, p); best = i; }
        }
        if (best == nw) continue;
        if (h == cap) return ML_CANON_ENOMEM;   /* cannot happen: h <= min(L, e k) */
        uint8_t *hr = Hw + h * L;
        memcpy(hr, W + best * L, L);
        normalise(hr, c, p, q, L);
        pcol[h] = c;
        /* remove the pivot row from the work rows (the last one moves into its place) */
        nw--;
        if (best != nw) memcpy(W + best * L, W + nw * L, L);
        const unsigned d = pw(p, bv);
        for (size_t i = 0; i < nw; i++) {
            uint8_t *w = W + i * L;
            if (w[c]) axpy(w, hr, w[c] / d, q, c, L);
        }
        /* saturation: p^(e-v) times the pivot row is zero at c; it joins the work rows */
        uint8_t *s = W + nw * L;
        const unsigned m = pw(p, e - bv);
        int any = 0;
        for (size_t j = 0; j < L; j++) {
            s[j] = (uint8_t)(((unsigned)hr[j] * m) % q);
            any |= s[j];
        }
        if (any) nw++;
        /* zero rows leave the work set */
        for (size_t i = 0; i < nw;) {
            if (zero_row(W + i * L + c, L - c)) {
                nw--;
                if (i != nw) memcpy(W + i * L, W + nw * L, L);
            } else {
                i++;
            }
        }
        h++;
    }
    /* entries above each pivot reduced to 0 .. d - 1 */
    for (size_t i = 0; i < h; i++) {
        const size_t c = pcol[i];
        const unsigned d = Hw[i * L + c];
        for (size_t t = 0; t < i; t++) {
            uint8_t *a = Hw + t * L;
            if (a[c] >= d) axpy(a, Hw + i * L, a[c] / d, q, c, L);
        }
    }
    return h;
}

/* The least-valuation pivot of row a (mod q = p^e): its column, or L for a zero row;
 * *v receives the valuation. */
static size_t pivot_of(const uint8_t *a, size_t L, unsigned p, unsigned e, unsigned *v)
{
    size_t c = L;
    unsigned bv = e;
    for (size_t j = 0; j < L && bv; j++)
        if (a[j]) {
            unsigned t = val(a[j], p);
            if (t < bv) { bv = t; c = j; }
        }
    *v = bv;
    return c;
}

/* The direct-sum basis of the p-part into out (stride L) with orders; returns its size
 * or ML_CANON_ENOMEM / ML_CANON_INTERRUPTED. */
static size_t basis_part(const uint8_t *G, size_t k, size_t L, unsigned p, unsigned e,
                         uint8_t *out, uint32_t *orders)
{
    const unsigned q = pw(p, e);
    size_t cap = k * e < L ? k * e : L;
    uint8_t *W = malloc((k + 1) * L + 1), *Hw = malloc((cap + 1) * L + 1);
    size_t *pcol = malloc((cap + 1) * sizeof(size_t));
    if (!W || !Hw || !pcol) { free(W); free(Hw); free(pcol); return ML_CANON_ENOMEM; }
    size_t h = howell(G, k, L, p, e, q, W, Hw, cap, pcol);
    free(W);
    free(pcol);
    if (h == ML_CANON_INTERRUPTED || h == ML_CANON_ENOMEM) { free(Hw); return h; }
    /* rows of Hw [0, live) remain; the chosen one moves to out */
    size_t live = h, r = 0;
    while (live && r < k) {             /* r <= k: dim K/pK <= k */
        if (ml_interrupt_poll()) { free(Hw); return ML_CANON_INTERRUPTED; }
        size_t bc = L, bi = live;
        unsigned bv = e;
        for (size_t i = 0; i < live; i++) {
            unsigned v;
            size_t c = pivot_of(Hw + i * L, L, p, e, &v);
            if (c < L && (v < bv || (v == bv && c < bc))) { bv = v; bc = c; bi = i; }
        }
        if (bi == live) break;            /* only zero rows are left */
        uint8_t *g = out + r * L;
        memcpy(g, Hw + bi * L, L);
        normalise(g, bc, p, q, L);
        orders[r] = pw(p, e - bv);
        r++;
        /* remove the chosen row keeping the order of the others */
        memmove(Hw + bi * L, Hw + (bi + 1) * L, (live - bi - 1) * L);
        live--;
        const unsigned d = pw(p, bv);
        for (size_t i = 0; i < live;) {
            uint8_t *a = Hw + i * L;
            if (a[bc]) axpy(a, g, a[bc] / d, q, 0, L);
            if (zero_row(a, L)) {
                memmove(a, a + L, (live - i - 1) * L);
                live--;
            } else {
                i++;
            }
        }
    }
    free(Hw);
    return r;
}

size_t ml_canon_basis(const uint8_t *G, size_t k, size_t L, unsigned n, uint8_t *out,
                      uint32_t *orders)
{
    if (k == 0 || L == 0) return 0;
    if (n == 2) return basis_gf2(G, k, L, out, orders);
    parts_t P;
    factor(n, &P);
    if (P.count == 1) return basis_part(G, k, L, P.p[0], P.e[0], out, orders);
    uint8_t *part = malloc(k * L + 1);
    uint32_t *po = malloc((k + 1) * sizeof(uint32_t));
    if (!part || !po) { free(part); free(po); return ML_CANON_ENOMEM; }
    memset(out, 0, k * L);
    for (size_t i = 0; i < k; i++) orders[i] = 1;
    size_t r = 0;
    for (int j = 0; j < P.count; j++) {
        size_t rj = basis_part(G, k, L, P.p[j], P.e[j], part, po);
        if (rj == ML_CANON_ENOMEM || rj == ML_CANON_INTERRUPTED) {
            free(part); free(po);
            return rj;
        }
        for (size_t i = 0; i < rj; i++) {
            uint8_t *o = out + i * L;
            for (size_t t = 0; t < L; t++)
                o[t] = (uint8_t)((o[t] + (unsigned)part[i * L + t] * P.idem[j]) % n);
            orders[i] *= po[i];
        }
        if (rj > r) r = rj;
    }
    free(part);
    free(po);
    return r;
}

int ml_canon_reduce(const uint8_t *H, size_t r, size_t L, unsigned n, uint8_t *X, size_t m)
{
    if (r == 0 || L == 0 || m == 0) return 0;
    if (n == 2) {
        size_t *pc = malloc(r * sizeof(size_t));
        if (!pc) return -1;
        for (size_t i = 0; i < r; i++) {
            pc[i] = L;
            for (size_t j = 0; j < L; j++)
                if (H[i * L + j] & 1) { pc[i] = j; break; }
        }
        for (size_t t = 0; t < m; t++) {
            uint8_t *x = X + t * L;
            for (size_t i = 0; i < r; i++)
                if (pc[i] < L && x[pc[i]])
                    for (size_t j = pc[i]; j < L; j++) x[j] ^= H[i * L + j];
        }
        free(pc);
        return 0;
    }
    parts_t P;
    factor(n, &P);
    uint8_t *g = malloc(L), *xj = malloc(L), *acc = malloc(L);
    if (!g || !xj || !acc) { free(g); free(xj); free(acc); return -1; }
    for (size_t t = 0; t < m; t++) {
        uint8_t *x = X + t * L;
        memset(acc, 0, L);
        for (int j = 0; j < P.count; j++) {
            const unsigned q = P.q[j], p = P.p[j], e = P.e[j];
            for (size_t c = 0; c < L; c++) xj[c] = (uint8_t)(x[c] % q);
            for (size_t i = 0; i < r; i++) {
                for (size_t c = 0; c < L; c++) g[c] = (uint8_t)(H[i * L + c] % q);
                unsigned v;
                size_t c = pivot_of(g, L, p, e, &v);
                if (c == L) continue;
                axpy(xj, g, xj[c] / pw(p, v), q, 0, L);
            }
            for (size_t c = 0; c < L; c++)
                acc[c] = (uint8_t)((acc[c] + (unsigned)xj[c] * P.idem[j]) % n);
        }
        memcpy(x, acc, L);
    }
    free(g); free(xj); free(acc);
    return 0;
}
