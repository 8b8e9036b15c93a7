/* chase.c: generalised light chasing for grid boards (see chase.h).
 *
 * Two ways to list the taps affecting a tile:
 *  - stencil (no wrap): the candidates are tile - offset for the distinct offsets
 *    of the patterns, sorted so they come in row-major order; nothing per tile is
 *    stored beyond one int32 code per tile. Symbolic vectors live in a ring of
 *    K = (largest - smallest flat offset + 1) slots: a tap is never needed more
 *    than K - 1 events after it is determined. Residual tiles are evaluated at
 *    event E(c) = c - (smallest flat offset) (clamped), i.e. in tile order.
 *  - lists (wrap): per-tile lists (CSR) with merged coefficients, residual tiles
 *    ordered by last tap, slots from live ranges.
 */
#include "chase.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ml_chase {
    int h, w, n, wrap, stencil;
    size_t hw;
    /* stencil */
    int nu;
    int32_t *udr, *udc;   /* offsets, descending (dr, dc) */
    int64_t *duf;         /* flat offsets dr * w + dc, descending */
    uint8_t *cmod;        /* npat x nu coefficients mod n */
    int32_t *pat_of;      /* hw or NULL */
    uint8_t *tap;         /* hw tappable mask */
    int64_t K, emin;      /* ring size, smallest flat offset */
    int simple;           /* uniform pattern, every tile tappable: interior fast path */
    int rlo, rhi, clo, chi; /* interior: every offset lands on the board */
    int nz;               /* offsets with a non-zero coefficient (uniform pattern) */
    int *zu;
    int uL, nd;           /* interior: the forcing offset and the other taps' deltas */
    int64_t *delta;       /* nd: tap t is forced from taps t + delta[i] */
    uint8_t *dcf;         /* nd: their coefficients */
    /* lists */
    int64_t *cstart;      /* hw + 1 */
    int32_t *ctap;
    uint8_t *ccoef;
    int32_t *slot;        /* hw */
    /* both */
    int32_t *enc;         /* hw: >= 0 forced (offset index / forcing tile), -2 not a tap,
                             -3 - s symbol s */
    size_t nsym, nres, peak;
    int64_t *symtile;     /* nsym */
    int64_t *restile;     /* nres, in event order */
    int64_t *resev;       /* nres: event after which the residual is evaluated (-1: first) */
    uint8_t inv[256];
};

#define MAXC 4096

/* ------------------------------------------------------------------ helpers */
static unsigned gcd_u(unsigned a, unsigned b) {
    while (b) { unsigned t = a % b; a = b; b = t; }
    return a;
}

/* x mod n for 0 <= x < 2^24, by a float reciprocal (vectorisable). */
static inline int32_t fmod_n(int32_t x, int32_t n, float rn) {
    int32_t q = (int32_t)((float)x * rn);
    int32_t r = x - q * n;
    r += (r >> 31) & n;
    r -= n & -(int32_t)(r >= n);
    return r;
}

/* The taps affecting tile c = (r, col), ascending: qs, coefficients cf (non-zero mod
 * n) and, in stencil mode, the offset index us. Returns how many. */
static inline int gather(const ml_chase *p, int64_t c, int r, int col, int32_t *qs,
                         uint8_t *cf, int *us) {
    if (!p->stencil) {
        int64_t a = p->cstart[c], b = p->cstart[c + 1];
        int k = 0;
        for (int64_t e = a; e < b; e++, k++) { qs[k] = p->ctap[e]; cf[k] = p->ccoef[e]; us[k] = 0; }
        return k;
    }
    if (p->simple && r >= p->rlo && r < p->rhi && col >= p->clo && col < p->chi) {
        const int nz = p->nz;
        const int *zu = p->zu;
        const int64_t *duf = p->duf;
        const uint8_t *cm = p->cmod;
        for (int i = 0; i < nz; i++) {
            int u = zu[i];
            qs[i] = (int32_t)(c - duf[u]); us[i] = u; cf[i] = cm[u];
        }
        return nz;
    }
    const int h = p->h, w = p->w, nu = p->nu;
    int k = 0;
    for (int u = 0; u < nu; u++) {
        int qr = r - p->udr[u], qc = col - p->udc[u];
        if ((unsigned)qr >= (unsigned)h || (unsigned)qc >= (unsigned)w) continue;
        int64_t q = c - p->duf[u];
        if (!p->tap[q]) continue;
        uint8_t m = p->cmod[(size_t)(p->pat_of ? p->pat_of[q] : 0) * nu + u];
        if (!m) continue;
        qs[k] = (int32_t)q; cf[k] = m; us[k] = u; k++;
    }
    return k;
}

/* The tile forcing tap t (enc[t] >= 0). */
static inline int64_t forcer(const ml_chase *p, int64_t t, int r, int col, int *rc, int *cc) {
    int32_t e = p->enc[t];
    if (p->stencil) {
        *rc = r + p->udr[e]; *cc = col + p->udc[e];
        return t + p->duf[e];
    }
    *rc = (int)(e / p->w); *cc = (int)(e % p->w);
    return e;
}

size_t ml_chase_nsym(const ml_chase *p) { return p->nsym; }
size_t ml_chase_nres(const ml_chase *p) { return p->nres; }
size_t ml_chase_peak_live(const ml_chase *p) { return p->peak; }
int ml_chase_is_stencil(const ml_chase *p) { return p->stencil; }

void ml_chase_symbols(const ml_chase *p, int64_t *out) {
    if (p->nsym) memcpy(out, p->symtile, p->nsym * sizeof(int64_t));
}
void ml_chase_residual_tiles(const ml_chase *p, int64_t *out) {
    if (p->nres) memcpy(out, p->restile, p->nres * sizeof(int64_t));
}

void ml_chase_free(ml_chase *p) {
    if (!p) return;
    free(p->zu); free(p->delta); free(p->dcf); free(p->udr); free(p->udc); free(p->duf); free(p->cmod); free(p->pat_of); free(p->tap);
    free(p->cstart); free(p->ctap); free(p->ccoef); free(p->slot);
    free(p->enc); free(p->symtile); free(p->restile); free(p->resev);
    free(p);
}

/* ------------------------------------------------------------------ plan */
static int build_lists(ml_chase *p, const uint8_t *active, const uint8_t *tappable,
                       int nu, const int32_t *udr, const int32_t *udc, int npat,
                       const int32_t *cnt, const int32_t *pat_of) {
    const int h = p->h, w = p->w, n = p->n;
    const size_t hw = p->hw;
    size_t cap = hw * (size_t)(nu < 5 ? 5 : (nu > 16 ? 16 : nu)) + 16;
    p->cstart = malloc((hw + 1) * sizeof(int64_t));
    p->ctap = malloc(cap * sizeof(int32_t));
    p->ccoef = malloc(cap);
    int32_t *tq = malloc((size_t)(nu + 1) * sizeof(int32_t));
    int32_t *tc = malloc((size_t)(nu + 1) * sizeof(int32_t));
    if (!p->cstart || !p->ctap || !p->ccoef || !tq || !tc) { free(tq); free(tc); return 2; }
    size_t nnz = 0;
    for (int r = 0; r < h; r++) {
        for (int c = 0; c < w; c++) {
            size_t t = (size_t)r * w + c;
            p->cstart[t] = (int64_t)nnz;
            if (!active[t]) continue;
            int k = 0;
            for (int u = 0; u < nu; u++) {
                long qr = ((long)r - udr[u]) % h, qc = ((long)c - udc[u]) % w;
                if (qr < 0) qr += h;
                if (qc < 0) qc += w;
                size_t q = (size_t)qr * w + (size_t)qc;
                if (!tappable[q]) continue;
                int32_t m = cnt[(size_t)(npat > 1 ? pat_of[q] : 0) * nu + u];
                if (m <= 0) continue;
                tq[k] = (int32_t)q; tc[k] = m; k++;
            }
            /* insertion sort by q, then merge equal taps */
            for (int i = 1; i < k; i++) {
                int32_t a = tq[i], b = tc[i];
                int j = i;
                while (j > 0 && tq[j - 1] > a) { tq[j] = tq[j - 1]; tc[j] = tc[j - 1]; j--; }
                tq[j] = a; tc[j] = b;
            }
            if (nnz + (size_t)k > cap) {
                size_t nc = cap * 2 + (size_t)k;
                int32_t *a = realloc(p->ctap, nc * sizeof(int32_t));
                if (!a) { free(tq); free(tc); return 2; }
                p->ctap = a;
                uint8_t *b = realloc(p->ccoef, nc);
                if (!b) { free(tq); free(tc); return 2; }
                p->ccoef = b;
                cap = nc;
            }
            for (int i = 0; i < k;) {
                int j = i;
                int64_t m = 0;
                while (j < k && tq[j] == tq[i]) m += tc[j++];
                m %= n;
                if (m) { p->ctap[nnz] = tq[i]; p->ccoef[nnz] = (uint8_t)m; nnz++; }
                i = j;
            }
        }
    }
    p->cstart[hw] = (int64_t)nnz;
    free(tq); free(tc);
    return 0;
}

ml_chase *ml_chase_plan(int h, int w, int n, int wrap, const uint8_t *active,
                        const uint8_t *tappable, int nu, const int32_t *udr,
                        const int32_t *udc, int npat, const int32_t *cnt,
                        const int32_t *pat_of, int *err) {
    *err = 1;
    if (h < 1 || w < 1 || n < 2 || n > 255 || nu < 0 || nu > MAXC || npat < 1) return NULL;
    if (npat > 1 && !pat_of) return NULL;
    *err = 2;
    ml_chase *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->h = h; p->w = w; p->n = n; p->wrap = wrap;
    p->stencil = !wrap;
    p->uL = -1;
    const size_t hw = (size_t)h * (size_t)w;
    p->hw = hw;
    for (int a = 1; a < n; a++)
        if (gcd_u((unsigned)a, (unsigned)n) == 1)
            for (int b = 1; b < n; b++)
                if ((a * b) % n == 1) { p->inv[a] = (uint8_t)b; break; }
    int32_t qs[MAXC + 1];
    uint8_t cf[MAXC + 1];
    int us[MAXC + 1];

    if (p->stencil) {
        /* keep the offsets that can land on the board; they are sorted descending by
         * (dr, dc) by the caller, so flat offsets are descending too */
        p->udr = malloc((size_t)(nu + 1) * sizeof(int32_t));
        p->udc = malloc((size_t)(nu + 1) * sizeof(int32_t));
        p->duf = malloc((size_t)(nu + 1) * sizeof(int64_t));
        p->cmod = malloc((size_t)npat * (size_t)(nu + 1));
        p->tap = malloc(hw);
        if (!p->udr || !p->udc || !p->duf || !p->cmod || !p->tap) goto fail;
        int k = 0;
        for (int u = 0; u < nu; u++) {
            if (udr[u] <= -h || udr[u] >= h || udc[u] <= -w || udc[u] >= w) continue;
            if (u > 0 && (udr[u] > udr[u - 1] || (udr[u] == udr[u - 1] && udc[u] >= udc[u - 1]))) {
                *err = 1;
                goto fail;
            }
            p->udr[k] = udr[u]; p->udc[k] = udc[u];
            p->duf[k] = (int64_t)udr[u] * w + udc[u];
            for (int a = 0; a < npat; a++)
                p->cmod[(size_t)a * (size_t)(nu + 1) + (size_t)k] = (uint8_t)(cnt[(size_t)a * nu + u] % n);
            k++;
        }
        /* re-pack cmod with row stride k */
        for (int a = 0; a < npat; a++)
            memmove(p->cmod + (size_t)a * (size_t)k, p->cmod + (size_t)a * (size_t)(nu + 1), (size_t)k);
        p->nu = k;
        memcpy(p->tap, tappable, hw);
        if (npat > 1) {
            p->pat_of = malloc(hw * sizeof(int32_t));
            if (!p->pat_of) goto fail;
            memcpy(p->pat_of, pat_of, hw * sizeof(int32_t));
        }
        /* Two offsets valid for the same tile come in ascending tap order, but the
         * flat offsets of the whole list need not be monotone: use max - min. */
        int64_t fmax = k ? p->duf[0] : 0, fmin = k ? p->duf[0] : 0;
        for (int u = 1; u < k; u++) {
            if (p->duf[u] > fmax) fmax = p->duf[u];
            if (p->duf[u] < fmin) fmin = p->duf[u];
        }
        /* ring of a power of two >= fmax - fmin + 1 slots (slot = tap & (K - 1)) */
        p->K = 1;
        while (p->K < fmax - fmin + 1) p->K *= 2;
        p->emin = fmin;
        /* interior fast path */
        p->zu = malloc((size_t)(k + 1) * sizeof(int));
        if (!p->zu) goto fail;
        int all = 1;
        for (size_t t = 0; t < hw && all; t++) all = tappable[t] != 0;
        p->simple = all && npat == 1;
        p->rlo = 0; p->rhi = h; p->clo = 0; p->chi = w;
        p->nz = 0;
        for (int u = 0; u < k; u++) {
            if (p->udr[u] > p->rlo) p->rlo = p->udr[u];
            if (h + p->udr[u] < p->rhi) p->rhi = h + p->udr[u];
            if (p->udc[u] > p->clo) p->clo = p->udc[u];
            if (w + p->udc[u] < p->chi) p->chi = w + p->udc[u];
            if (p->cmod[u]) p->zu[p->nz++] = u;
        }
        p->delta = malloc((size_t)(p->nz + 1) * sizeof(int64_t));
        p->dcf = malloc((size_t)(p->nz + 1));
        if (!p->delta || !p->dcf) goto fail;
        p->uL = -1;
        p->nd = 0;
        if (p->simple && p->nz && p->inv[p->cmod[p->zu[p->nz - 1]]]) {
            p->uL = p->zu[p->nz - 1];
            p->nd = p->nz - 1;
            for (int i = 0; i < p->nd; i++) {
                p->delta[i] = p->duf[p->uL] - p->duf[p->zu[i]];
                p->dcf[i] = p->cmod[p->zu[i]];
            }
        }
    } else {
        int e = build_lists(p, active, tappable, nu, udr, udc, npat, cnt, pat_of);
        if (e) goto fail;
    }

    p->enc = malloc(hw * sizeof(int32_t));
    if (!p->enc) goto fail;
    for (size_t t = 0; t < hw; t++) p->enc[t] = tappable[t] ? -1 : -2;

    /* forcing tiles (stencil mode: residual tiles in the same pass) */
    size_t nforced = 0, nactive = 0, ntaps = 0, rcap = (size_t)w * 4 + 64, nr = 0;
    if (p->stencil) {
        p->restile = malloc(rcap * sizeof(int64_t));
        p->resev = malloc(rcap * sizeof(int64_t));
        if (!p->restile || !p->resev) goto fail;
        size_t t = 0;
        for (int r = 0; r < h; r++)
            for (int c = 0; c < w; c++, t++) {
                ntaps += tappable[t] ? 1 : 0;
                if (!active[t]) continue;
                nactive++;
                int m;
                if (p->uL >= 0 && r >= p->rlo && r < p->rhi && c >= p->clo && c < p->chi) {
                    /* interior of a simple board: the last tap is t - duf[uL], a unit */
                    int64_t L = (int64_t)t - p->duf[p->uL];
                    if (p->enc[L] == -1) { p->enc[L] = p->uL; nforced++; continue; }
                    m = p->nz;
                } else {
                    m = gather(p, (int64_t)t, r, c, qs, cf, us);
                }
                if (m && !(p->uL >= 0 && r >= p->rlo && r < p->rhi && c >= p->clo && c < p->chi)) {
                    int32_t L = qs[m - 1];
                    if (p->enc[L] == -1 && p->inv[cf[m - 1]]) {
                        p->enc[L] = us[m - 1];
                        nforced++;
                        continue;
                    }
                }
                int64_t ev = (int64_t)t - p->emin;
                if (ev >= (int64_t)hw) ev = (int64_t)hw - 1;
                if (!m) ev = -1;
                /* keep events non-decreasing in tile order */
                if (nr && ev < p->resev[nr - 1]) ev = p->resev[nr - 1];
                if (nr == rcap) {
                    rcap *= 2;
                    int64_t *a = realloc(p->restile, rcap * sizeof(int64_t));
                    if (!a) goto fail;
                    p->restile = a;
                    a = realloc(p->resev, rcap * sizeof(int64_t));
                    if (!a) goto fail;
                    p->resev = a;
                }
                p->restile[nr] = (int64_t)t;
                p->resev[nr] = ev;
                nr++;
            }
    } else {
        size_t t = 0;
        for (int r = 0; r < h; r++)
            for (int c = 0; c < w; c++, t++) {
                ntaps += tappable[t] ? 1 : 0;
                if (!active[t]) continue;
                nactive++;
                int k = gather(p, (int64_t)t, r, c, qs, cf, us);
                if (!k) continue;
                int32_t L = qs[k - 1];
                if (p->enc[L] == -1 && p->inv[cf[k - 1]]) {
                    p->enc[L] = p->stencil ? us[k - 1] : (int32_t)t;
                    nforced++;
                }
            }
    }
    p->nsym = ntaps - nforced;
    p->nres = nactive - nforced;
    p->symtile = malloc((p->nsym + 1) * sizeof(int64_t));
    if (!p->symtile) goto fail;
    if (!p->stencil) {
        p->restile = malloc((p->nres + 1) * sizeof(int64_t));
        p->resev = malloc((p->nres + 1) * sizeof(int64_t));
        if (!p->restile || !p->resev) goto fail;
    }
    {
        size_t s = 0;
        for (size_t t = 0; t < hw; t++)
            if (p->enc[t] == -1) { p->enc[t] = -3 - (int32_t)s; p->symtile[s++] = (int64_t)t; }
    }

    /* residual tiles and the events at which they are evaluated */
    if (p->stencil) {
        p->peak = (size_t)p->K;
    } else {
        int64_t *cntk = calloc(hw + 2, sizeof(int64_t));
        if (!cntk) goto fail;
        for (size_t t = 0; t < hw; t++) {
            if (!active[t]) continue;
            int64_t a = p->cstart[t], b = p->cstart[t + 1];
            if (a < b && p->enc[p->ctap[b - 1]] == (int32_t)t) continue;
            size_t key = a == b ? 0 : (size_t)p->ctap[b - 1] + 1;
            cntk[key + 1]++;
        }
        for (size_t k = 0; k < hw + 1; k++) cntk[k + 1] += cntk[k];
        for (size_t t = 0; t < hw; t++) {
            if (!active[t]) continue;
            int64_t a = p->cstart[t], b = p->cstart[t + 1];
            if (a < b && p->enc[p->ctap[b - 1]] == (int32_t)t) continue;
            size_t key = a == b ? 0 : (size_t)p->ctap[b - 1] + 1;
            int64_t pos = cntk[key]++;
            p->restile[pos] = (int64_t)t;
            p->resev[pos] = (int64_t)key - 1;
        }
        free(cntk);

        /* live ranges -> slots */
        int64_t *lastuse = malloc(hw * sizeof(int64_t));
        p->slot = malloc(hw * sizeof(int32_t));
        if (!lastuse || !p->slot) { free(lastuse); goto fail; }
        for (size_t t = 0; t < hw; t++) lastuse[t] = (int64_t)t;
        for (size_t t = 0; t < hw; t++) {
            int64_t a = p->cstart[t], b = p->cstart[t + 1];
            if (a == b) continue;
            int64_t L = p->ctap[b - 1];
            for (int64_t e = a; e < b; e++)
                if (lastuse[p->ctap[e]] < L) lastuse[p->ctap[e]] = L;
        }
        int64_t *fs = calloc(hw + 1, sizeof(int64_t));
        int32_t *ft = malloc((ntaps + 1) * sizeof(int32_t));
        int32_t *stack = malloc((ntaps + 1) * sizeof(int32_t));
        if (!fs || !ft || !stack) { free(fs); free(ft); free(stack); free(lastuse); goto fail; }
        for (size_t t = 0; t < hw; t++) if (tappable[t]) fs[lastuse[t] + 1]++;
        for (size_t k = 0; k < hw; k++) fs[k + 1] += fs[k];
        for (size_t t = 0; t < hw; t++) if (tappable[t]) ft[fs[lastuse[t]]++] = (int32_t)t;
        size_t top = 0, used = 0;
        int64_t gstart = 0;
        for (size_t t = 0; t < hw; t++) {
            p->slot[t] = tappable[t] ? (top ? stack[--top] : (int32_t)used++) : -1;
            for (int64_t e = gstart; e < fs[t]; e++) stack[top++] = p->slot[ft[e]];
            gstart = fs[t];
        }
        p->peak = used;
        free(fs); free(ft); free(stack); free(lastuse);
    }
    *err = 0;
    return p;
fail:
    ml_chase_free(p);
    return NULL;
}

static inline size_t slot_of(const ml_chase *p, int64_t q) {
    return p->stencil ? (size_t)(q & (p->K - 1)) : (size_t)p->slot[q];
}

/* Columns [*c0, *c1) of row r whose taps, when forced with the interior offset
 * uL, are forced by an interior tile (fixed deltas). Empty when not simple. */
static inline void fast_cols(const ml_chase *p, int r, int *c0, int *c1) {
    *c0 = *c1 = 0;
    if (!p->stencil || p->uL < 0) return;
    int rc = r + p->udr[p->uL];
    if (rc < p->rlo || rc >= p->rhi) return;
    int a = p->clo - p->udc[p->uL], b = p->chi - p->udc[p->uL];
    if (a < 0) a = 0;
    if (b > p->w) b = p->w;
    if (a < b) { *c0 = a; *c1 = b; }
}

/* ------------------------------------------------------------------ numeric chase */
/* One tap of the numeric chase, the general way. */
static inline void num_tap(const ml_chase *p, size_t t, int r, int col, const uint8_t *b,
                           const uint8_t *z, uint8_t *x, int32_t *qs, uint8_t *cf, int *us) {
    const uint32_t n = (uint32_t)p->n;
    int32_t e = p->enc[t];
    if (e >= 0) {
        int rc, cc;
        int64_t c = forcer(p, (int64_t)t, r, col, &rc, &cc);
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
        x[t] = z ? z[-3 - e] : 0;
    } else {
        x[t] = 0;
    }
}

/* GF(2): xo[j] = (bb[j] ^ xor of src[i][j]) & 1 for a run of taps with no
 * dependencies inside the run (every delta <= -len). */
__attribute__((target_clones("avx2", "default")))
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
    /* runs of taps computed at once (GF(2)): at most -max(delta) long */
    int64_t vchunk = 0;
    if (n == 2 && uL >= 0) {
        int64_t mx = -1;
        for (int i = 0; i < nd; i++) if (dl[i] > mx || i == 0) mx = dl[i];
        vchunk = nd ? (mx < 0 ? -mx : 0) : 1 << 20;
    }
    for (int r = 0; r < h; r++) {
        int c0, c1;
        fast_cols(p, r, &c0, &c1);
        if (vchunk > 0 && c0 < c1) {
            int col = 0;
            for (; col < c0; col++, t++) num_tap(p, t, r, col, b, z, x, qs, cf, us);
            while (col < c1) {
                int64_t len = c1 - col < vchunk ? c1 - col : vchunk;
                for (int i = 0; i < nd; i++) src[i] = x + (int64_t)t + dl[i];
                gf2_seg(x + t, b + (int64_t)t + dL, src, nd, (size_t)len);
                for (int64_t i = 0; i < len; i++)
                    if (p->enc[t + (size_t)i] != uL)
                        num_tap(p, t + (size_t)i, r, col + (int)i, b, z, x, qs, cf, us);
                col += (int)len; t += (size_t)len;
            }
            for (; col < w; col++, t++) num_tap(p, t, r, col, b, z, x, qs, cf, us);
            continue;
        }
        for (int col = 0; col < w; col++, t++) {
            int32_t e = p->enc[t];
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
                num_tap(p, t, r, col, b, z, x, qs, cf, us);
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

/* ------------------------------------------------------------------ symbolic chase */
typedef struct {
    const ml_chase *p;
    size_t lo, hi;       /* word (GF(2)) or symbol (Z/n) range of this worker */
    size_t stride;       /* words / bytes per row of M */
    void *M;             /* residual matrix */
    int status;
} sym_job;

/* v = xor of m source vectors (m >= 0), a few sources per pass over v. */
__attribute__((target_clones("avx2", "default")))
static void xor_many(uint64_t *restrict v, const uint64_t *const *src, int m, size_t len) {
    int i = 0;
    if (m == 0) { memset(v, 0, len * sizeof(uint64_t)); return; }
    if (m >= 4) {
        const uint64_t *restrict a = src[0], *restrict b = src[1], *restrict c = src[2],
                       *restrict d = src[3];
        for (size_t j = 0; j < len; j++) v[j] = a[j] ^ b[j] ^ c[j] ^ d[j];
        i = 4;
    } else if (m == 3) {
        const uint64_t *restrict a = src[0], *restrict b = src[1], *restrict c = src[2];
        for (size_t j = 0; j < len; j++) v[j] = a[j] ^ b[j] ^ c[j];
        return;
    } else if (m == 2) {
        const uint64_t *restrict a = src[0], *restrict b = src[1];
        for (size_t j = 0; j < len; j++) v[j] = a[j] ^ b[j];
        return;
    } else {
        memcpy(v, src[0], len * sizeof(uint64_t));
        return;
    }
    for (; i + 2 <= m; i += 2) {
        const uint64_t *restrict a = src[i], *restrict b = src[i + 1];
        for (size_t j = 0; j < len; j++) v[j] ^= a[j] ^ b[j];
    }
    for (; i < m; i++) {
        const uint64_t *restrict a = src[i];
        for (size_t j = 0; j < len; j++) v[j] ^= a[j];
    }
}

/* Interior run of the GF(2) symbolic chase: taps t0, t0 + 1, ... (at most cnt) while
 * they are forced through the interior offset. Returns how many were done. */
__attribute__((target_clones("avx2", "default")))
static size_t gf2_sym_run(uint64_t *V, size_t len, int64_t mask, const int32_t *enc, int uL,
                          int64_t t0, size_t cnt, const int64_t *dl, int nd,
                          const uint64_t **src) {
    size_t i = 0;
    if (nd == 4) {
        const int64_t d0 = dl[0], d1 = dl[1], d2 = dl[2], d3 = dl[3];
        for (; i < cnt; i++) {
            const int64_t t = t0 + (int64_t)i;
            if (enc[t] != uL) break;
            uint64_t *restrict v = V + (size_t)(t & mask) * len;
            const uint64_t *restrict a = V + (size_t)((t + d0) & mask) * len;
            const uint64_t *restrict b = V + (size_t)((t + d1) & mask) * len;
            const uint64_t *restrict c = V + (size_t)((t + d2) & mask) * len;
            const uint64_t *restrict d = V + (size_t)((t + d3) & mask) * len;
            for (size_t j = 0; j < len; j++) v[j] = a[j] ^ b[j] ^ c[j] ^ d[j];
        }
        return i;
    }
    for (; i < cnt; i++) {
        const int64_t t = t0 + (int64_t)i;
        if (enc[t] != uL) break;
        for (int q = 0; q < nd; q++) src[q] = V + (size_t)((t + dl[q]) & mask) * len;
        xor_many(V + (size_t)(t & mask) * len, src, nd, len);
    }
    return i;
}

static void *sym_gf2_run(void *arg) {
    sym_job *J = arg;
    const ml_chase *p = J->p;
    const size_t lo = J->lo, hi = J->hi, len = hi - lo, nw = J->stride;
    const int h = p->h, w = p->w;
    uint64_t *M = J->M;
    uint64_t *V = calloc((p->peak + 1) * (len ? len : 1), sizeof(uint64_t));
    const uint64_t **src = malloc((MAXC + 1) * sizeof(uint64_t *));
    if (!V || !src) { free(V); free(src); J->status = 2; return NULL; }
    int32_t qs[MAXC + 1];
    uint8_t cf[MAXC + 1];
    int us[MAXC + 1];
    size_t k = 0;
    const size_t nres = p->nres;
    while (k < nres && p->resev[k] < 0) { memset(M + k * nw + lo, 0, len * sizeof(uint64_t)); k++; }
    size_t t = 0;
    const int uL = p->uL, nd = p->nd;
    const int64_t *dl = p->delta;
    const int64_t mask = p->K - 1;
#define GF2_EVENTS(tt)                                                                   \
    while (k < nres && p->resev[k] == (int64_t)(tt)) {                                   \
        int64_t c_ = p->restile[k];                                                      \
        int m_ = gather(p, c_, (int)(c_ / w), (int)(c_ % w), qs, cf, us);                \
        for (int i_ = 0; i_ < m_; i_++) src[i_] = V + slot_of(p, qs[i_]) * len;          \
        xor_many(M + k * nw + lo, src, m_, len);                                         \
        k++;                                                                             \
    }
    for (int r = 0; r < h; r++) {
        int c0, c1;
        fast_cols(p, r, &c0, &c1);
        int col = 0;
        while (col < w) {
            int32_t e = p->enc[t];
            if (e == uL && col >= c0 && col < c1) {
                int64_t lim = (int64_t)t - col + c1;
                if (k < nres && p->resev[k] + 1 < lim) lim = p->resev[k] + 1;
                size_t done = gf2_sym_run(V, len, mask, p->enc, uL, (int64_t)t,
                                          (size_t)(lim - (int64_t)t), dl, nd, src);
                t += done; col += (int)done;
                GF2_EVENTS(t - 1)
                continue;
            }
            if (e != -2) {
                uint64_t *v = V + slot_of(p, (int64_t)t) * len;
                if (e >= 0) {
                    int rc, cc;
                    int64_t c = forcer(p, (int64_t)t, r, col, &rc, &cc);
                    int m = gather(p, c, rc, cc, qs, cf, us) - 1;
                    for (int i = 0; i < m; i++) src[i] = V + slot_of(p, qs[i]) * len;
                    xor_many(v, src, m, len);
                } else {
                    memset(v, 0, len * sizeof(uint64_t));
                    size_t s = (size_t)(-3 - e);
                    if (s / 64 >= lo && s / 64 < hi) v[s / 64 - lo] = (uint64_t)1 << (s % 64);
                }
            }
            GF2_EVENTS(t)
            col++; t++;
        }
    }
#undef GF2_EVENTS
    free(V); free(src);
    J->status = 0;
    return NULL;
}

__attribute__((target_clones("avx2", "default")))
static void acc_add(int32_t *restrict acc, const uint8_t *restrict u, int32_t a, size_t len) {
    if (a == 1) for (size_t i = 0; i < len; i++) acc[i] += u[i];
    else for (size_t i = 0; i < len; i++) acc[i] += a * u[i];
}

__attribute__((target_clones("avx2", "default")))
static void acc_reduce(int32_t *restrict acc, size_t len, int32_t n, float rn) {
    for (size_t i = 0; i < len; i++) acc[i] = fmod_n(acc[i], n, rn);
}

__attribute__((target_clones("avx2", "default")))
static void acc_store(uint8_t *restrict v, const int32_t *restrict acc, int32_t mul, size_t len,
                      int32_t n, float rn) {
    if (mul == 1) for (size_t i = 0; i < len; i++) v[i] = (uint8_t)fmod_n(acc[i], n, rn);
    else for (size_t i = 0; i < len; i++) v[i] = (uint8_t)fmod_n(fmod_n(acc[i], n, rn) * mul, n, rn);
}

/* v = -(sum of m vectors) mod n in uint8 lanes; needs m (n - 1) <= 255 and the
 * reduction steps d = n 2^i (d <= 255) listed in subs (descending, ns of them). */
__attribute__((target_clones("avx2", "default")))
static void zn_negsum(uint8_t *restrict v, const uint8_t *const *src, int m, size_t len,
                      uint8_t n, const uint8_t *subs, int ns) {
    if (m == 4 && ns == 2) {
        /* one fused pass: sum, two reduction steps, negation */
        const uint8_t *restrict a = src[0], *restrict b = src[1], *restrict c = src[2],
                      *restrict d = src[3];
        const uint8_t s0 = subs[0], s1 = subs[1];
        for (size_t j = 0; j < len; j++) {
            uint8_t x = (uint8_t)(a[j] + b[j] + c[j] + d[j]), y;
            y = (uint8_t)(x - s0); x = x < y ? x : y;
            y = (uint8_t)(x - s1); x = x < y ? x : y;
            x = (uint8_t)(n - x);
            y = (uint8_t)(x - n); v[j] = x < y ? x : y;
        }
        return;
    }
    if (m >= 4) {
        const uint8_t *restrict a = src[0], *restrict b = src[1], *restrict c = src[2],
                      *restrict d = src[3];
        for (size_t j = 0; j < len; j++) v[j] = (uint8_t)(a[j] + b[j] + c[j] + d[j]);
        for (int i = 4; i < m; i++) {
            const uint8_t *restrict e = src[i];
            for (size_t j = 0; j < len; j++) v[j] = (uint8_t)(v[j] + e[j]);
        }
    } else if (m > 0) {
        memcpy(v, src[0], len);
        for (int i = 1; i < m; i++) {
            const uint8_t *restrict e = src[i];
            for (size_t j = 0; j < len; j++) v[j] = (uint8_t)(v[j] + e[j]);
        }
    } else {
        memset(v, 0, len);
    }
    for (int i = 0; i < ns; i++) {
        const uint8_t d = subs[i];
        for (size_t j = 0; j < len; j++) {
            uint8_t x = v[j], y = (uint8_t)(x - d);
            v[j] = x < y ? x : y;
        }
    }
    for (size_t j = 0; j < len; j++) {
        uint8_t x = (uint8_t)(n - v[j]), y = (uint8_t)(x - n);
        v[j] = x < y ? x : y;
    }
}

static void *sym_zn_run(void *arg) {
    sym_job *J = arg;
    const ml_chase *p = J->p;
    const size_t lo = J->lo, hi = J->hi, len = hi - lo, ns = J->stride;
    const int h = p->h, w = p->w;
    const int32_t n = p->n;
    const float rn = 1.0f / (float)n;
    uint8_t *M = J->M;
    uint8_t *V = calloc((p->peak + 1) * (len ? len : 1), 1);
    int32_t *acc = malloc((len ? len : 1) * sizeof(int32_t));
    if (!V || !acc) { free(V); free(acc); J->status = 2; return NULL; }
    int32_t qs[MAXC + 1];
    uint8_t cf[MAXC + 1];
    int us[MAXC + 1];
    size_t k = 0;
    while (k < p->nres && p->resev[k] < 0) { memset(M + k * ns + lo, 0, len); k++; }
    size_t t = 0;
    const int uL = p->uL, nd = p->nd;
    const int64_t *dl = p->delta;
    const int64_t mask = p->K - 1;
    const int32_t mnegL = uL >= 0 ? (n - p->inv[p->cmod[uL]]) % n : 0;
    /* uint8 fast path: every coefficient 1 (so the forcing multiplier is -1) */
    int small = uL >= 0 && p->cmod[uL] == 1 && nd * (n - 1) <= 255;
    for (int i = 0; i < nd && small; i++) small = p->dcf[i] == 1;
    uint8_t subs[16];
    int nsubs = 0;
    if (small) {
        int c = 0;
        while ((1 << c) < nd) c++;
        for (int i = c - 1; i >= 0; i--) {
            if (n * (1 << i) > 255) { small = 0; break; }
            subs[nsubs++] = (uint8_t)(n * (1 << i));
        }
    }
    const uint8_t **src = malloc((size_t)(nd + 1) * sizeof(uint8_t *));
    if (!src) { free(V); free(acc); J->status = 2; return NULL; }
    for (int r = 0; r < h; r++) {
        int c0, c1;
        fast_cols(p, r, &c0, &c1);
        for (int col = 0; col < w; col++, t++) {
            int32_t e = p->enc[t];
            if (e == uL && col >= c0 && col < c1) {
                uint8_t *v = V + (size_t)((int64_t)t & mask) * len;
                if (small) {
                    for (int i = 0; i < nd; i++) src[i] = V + (size_t)(((int64_t)t + dl[i]) & mask) * len;
                    zn_negsum(v, src, nd, len, (uint8_t)n, subs, nsubs);
                    goto events;
                }
                memset(acc, 0, len * sizeof(int32_t));
                for (int i = 0; i < nd; i++) {
                    acc_add(acc, V + (size_t)(((int64_t)t + dl[i]) & mask) * len, p->dcf[i], len);
                    if (i % 200 == 199) acc_reduce(acc, len, n, rn);
                }
                acc_store(v, acc, mnegL, len, n, rn);
            } else if (e != -2) {
                uint8_t *v = V + slot_of(p, (int64_t)t) * len;
                if (e >= 0) {
                    int rc, cc;
                    int64_t c = forcer(p, (int64_t)t, r, col, &rc, &cc);
                    int m = gather(p, c, rc, cc, qs, cf, us);
                    memset(acc, 0, len * sizeof(int32_t));
                    for (int i = 0; i < m - 1; i++) {
                        acc_add(acc, V + slot_of(p, qs[i]) * len, cf[i], len);
                        if (i % 200 == 199) acc_reduce(acc, len, n, rn);
                    }
                    /* x_p = inv(a_p) * (-sum) */
                    const int32_t mneg = (n - p->inv[cf[m - 1]]) % n;
                    acc_store(v, acc, mneg, len, n, rn);
                } else {
                    memset(v, 0, len);
                    size_t s = (size_t)(-3 - e);
                    if (s >= lo && s < hi) v[s - lo] = 1;
                }
            }
        events:
            while (k < p->nres && p->resev[k] == (int64_t)t) {
                int64_t c = p->restile[k];
                int m = gather(p, c, (int)(c / w), (int)(c % w), qs, cf, us);
                memset(acc, 0, len * sizeof(int32_t));
                for (int i = 0; i < m; i++) {
                    acc_add(acc, V + slot_of(p, qs[i]) * len, cf[i], len);
                    if (i % 200 == 199) acc_reduce(acc, len, n, rn);
                }
                acc_store(M + k * ns + lo, acc, 1, len, n, rn);
                k++;
            }
        }
    }
    free(V); free(acc); free(src);
    J->status = 0;
    return NULL;
}

static int run_jobs(const ml_chase *p, void *M, size_t total, size_t stride, int threads,
                    size_t grain, void *(*fn)(void *)) {
    if (threads < 1) threads = 1;
    if (threads > 16) threads = 16;
    if ((size_t)threads > total / grain) threads = (int)(total / grain);
    if (threads < 1) threads = 1;
    sym_job jobs[16];
    pthread_t tid[16];
    int started[16] = {0};
    for (int i = 0; i < threads; i++) {
        jobs[i].p = p;
        jobs[i].lo = total * (size_t)i / (size_t)threads;
        jobs[i].hi = total * (size_t)(i + 1) / (size_t)threads;
        jobs[i].stride = stride;
        jobs[i].M = M;
        jobs[i].status = 0;
    }
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, fn, &jobs[i]) == 0;
    fn(&jobs[0]);
    int st = jobs[0].status;
    for (int i = 1; i < threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        else fn(&jobs[i]);
        if (jobs[i].status) st = jobs[i].status;
    }
    return st;
}

int ml_chase_matrix_gf2(const ml_chase *p, uint64_t *M, int threads) {
    size_t nw = (p->nsym + 63) / 64;
    if (nw == 0 || p->nres == 0) return 0;
    return run_jobs(p, M, nw, nw, threads, 4, sym_gf2_run);
}

int ml_chase_matrix_zn(const ml_chase *p, uint8_t *M, int threads) {
    if (p->nsym == 0 || p->nres == 0) return 0;
    return run_jobs(p, M, p->nsym, p->nsym, threads, 256, sym_zn_run);
}

/* ------------------------------------------------------------------ residual solver */
struct ml_res {
    size_t rows, cols, rank, nw, rw;
    unsigned p;
    uint64_t *U;       /* GF(2): rows x nw */
    uint8_t *U8;       /* Z/p: rows x cols (pivot rows normalised to 1) */
    size_t *swap;      /* rank: row swapped with row k at step k */
    size_t *pivcol;    /* rank */
    uint64_t *Lb;      /* GF(2): rank x rw bits: rows i > k that got row k added */
    uint8_t *L8;       /* Z/p: rank x rows: multiplier f with row_i -= f row_k */
    uint8_t *pinv;     /* Z/p: rank: the inverse the pivot row was scaled by */
    size_t ndef;       /* Z/n: columns without a unit pivot (the remainder block) */
    size_t *defcol;
};

void ml_res_free(ml_res *f) {
    if (!f) return;
    free(f->U); free(f->U8); free(f->swap); free(f->pivcol); free(f->Lb); free(f->L8);
    free(f->pinv); free(f->defcol); free(f);
}

size_t ml_res_rank(const ml_res *f) { return f->rank; }

ml_res *ml_res_factor_gf2(const uint64_t *M, size_t rows, size_t cols, int threads) {
    ml_res *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->rows = rows; f->cols = cols; f->p = 2;
    f->nw = (cols + 63) / 64;
    f->rw = (rows + 63) / 64;
    size_t mx = rows < cols ? rows : cols;
    f->U = malloc((rows * f->nw + 1) * sizeof(uint64_t));
    f->swap = malloc((mx + 1) * sizeof(size_t));
    f->pivcol = malloc((mx + 1) * sizeof(size_t));
    f->Lb = calloc(mx * f->rw + 1, sizeof(uint64_t));
    if (!f->U || !f->swap || !f->pivcol || !f->Lb) { ml_res_free(f); return NULL; }
    if (rows != 0 && f->nw != 0) memcpy(f->U, M, rows * f->nw * sizeof(uint64_t));
    const size_t nw = f->nw;
    uint64_t *U = f->U;
    size_t k = 0;
    for (size_t col = 0; col < cols && k < rows; col++) {
        size_t wd = col / 64;
        uint64_t bit = (uint64_t)1 << (col % 64);
        size_t piv = rows;
        for (size_t i = k; i < rows; i++)
            if (U[i * nw + wd] & bit) { piv = i; break; }
        if (piv == rows) continue;
        if (piv != k) {
            for (size_t j = wd; j < nw; j++) {
                uint64_t t = U[k * nw + j]; U[k * nw + j] = U[piv * nw + j]; U[piv * nw + j] = t;
            }
        }
        f->swap[k] = piv;
        f->pivcol[k] = col;
        const uint64_t *pk = U + k * nw;
        uint64_t *Lk = f->Lb + k * f->rw;
        for (size_t i = k + 1; i < rows; i++) {
            uint64_t *ri = U + i * nw;
            if (ri[wd] & bit) {
                for (size_t j = wd; j < nw; j++) ri[j] ^= pk[j];
                Lk[i / 64] |= (uint64_t)1 << (i % 64);
            }
        }
        k++;
    }
    f->rank = k;
    (void)threads;
    return f;
}

/* ri = (ri + m rk) mod n over len entries (uint16 Barrett: q = x * M >> 16 is
 * floor(x / n) or one more, for x < 2^16). */
__attribute__((target_clones("avx2", "default")))
static void zn_rowop(uint8_t *restrict ri, const uint8_t *restrict rk, uint16_t m, size_t len,
                     uint16_t n, uint16_t M) {
    for (size_t j = 0; j < len; j++) {
        uint16_t x = (uint16_t)(ri[j] + m * rk[j]);
        uint16_t q = (uint16_t)(((uint32_t)x * M) >> 16);
        uint16_t r = (uint16_t)(x - q * n);
        uint16_t r2 = (uint16_t)(r + n);
        ri[j] = (uint8_t)(r < r2 ? r : r2);
    }
}

ml_res *ml_res_factor_zn(const uint8_t *M, size_t rows, size_t cols, unsigned n) {
    ml_res *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->rows = rows; f->cols = cols; f->p = n;
    size_t mx = rows < cols ? rows : cols;
    f->U8 = malloc(rows * cols + 1);
    f->swap = malloc((mx + 1) * sizeof(size_t));
    f->pivcol = malloc((mx + 1) * sizeof(size_t));
    f->L8 = calloc(mx * rows + 1, 1);
    f->pinv = malloc(mx + 1);
    f->defcol = malloc((cols + 1) * sizeof(size_t));
    if (!f->U8 || !f->swap || !f->pivcol || !f->L8 || !f->pinv || !f->defcol) {
        ml_res_free(f);
        return NULL;
    }
    if (rows != 0 && cols != 0) memcpy(f->U8, M, rows * cols);
    uint8_t inv[256] = {0};
    for (unsigned a = 1; a < n; a++)
        for (unsigned b = 1; b < n; b++)
            if ((a * b) % n == 1) { inv[a] = (uint8_t)b; break; }
    const uint16_t N = (uint16_t)n;
    const uint16_t BM = (uint16_t)((65536u + n - 1) / n);   /* n >= 2: fits */
    uint8_t *U = f->U8;
    size_t k = 0, j0 = cols;
    for (size_t col = 0; col < cols; col++) {
        size_t piv = rows;
        if (k < rows)
            for (size_t i = k; i < rows; i++)
                if (inv[U[i * cols + col]]) { piv = i; break; }
        if (piv == rows) {
            f->defcol[f->ndef++] = col;
            if (j0 == cols) j0 = col;
            continue;
        }
        size_t js = j0 < col ? j0 : col;
        if (piv != k) {
            for (size_t j = js; j < cols; j++) {
                uint8_t t = U[k * cols + j]; U[k * cols + j] = U[piv * cols + j]; U[piv * cols + j] = t;
            }
        }
        f->swap[k] = piv;
        f->pivcol[k] = col;
        uint8_t *pk = U + k * cols;
        const unsigned iv = inv[pk[col]];
        f->pinv[k] = (uint8_t)iv;
        if (iv != 1)
            for (size_t j = js; j < cols; j++) pk[j] = (uint8_t)((pk[j] * iv) % n);
        uint8_t *Lk = f->L8 + k * rows;
        for (size_t i = k + 1; i < rows; i++) {
            uint8_t *ri = U + i * cols;
            unsigned fi = ri[col];
            if (!fi) continue;
            Lk[i] = (uint8_t)fi;
            zn_rowop(ri + js, pk + js, (uint16_t)(n - fi), cols - js, N, BM);
        }
        k++;
    }
    f->rank = k;
    return f;
}

size_t ml_res_ndef(const ml_res *f) { return f->ndef; }

void ml_res_deferred(const ml_res *f, int64_t *out) {
    for (size_t i = 0; i < f->ndef; i++) out[i] = (int64_t)f->defcol[i];
}

void ml_res_block(const ml_res *f, uint8_t *B) {
    for (size_t i = f->rank; i < f->rows; i++)
        for (size_t d = 0; d < f->ndef; d++)
            B[(i - f->rank) * f->ndef + d] = f->U8[i * f->cols + f->defcol[d]];
}

void ml_res_forward(const ml_res *f, const uint8_t *rhs, uint8_t *y) {
    const size_t rows = f->rows;
    const unsigned n = f->p;
    if (rows) memcpy(y, rhs, rows);
    for (size_t k = 0; k < f->rank; k++) {
        size_t s = f->swap[k];
        if (s != k) { uint8_t t = y[k]; y[k] = y[s]; y[s] = t; }
        y[k] = (uint8_t)((y[k] * (unsigned)f->pinv[k]) % n);
        unsigned yk = y[k];
        if (!yk) continue;
        const uint8_t *Lk = f->L8 + k * rows;
        for (size_t i = k + 1; i < rows; i++)
            if (Lk[i]) y[i] = (uint8_t)((y[i] + (n - Lk[i]) * yk) % n);
    }
}

void ml_res_back(const ml_res *f, const uint8_t *y, const uint8_t *ydef, uint8_t *z) {
    const size_t cols = f->cols;
    const unsigned n = f->p;
    memset(z, 0, cols);
    for (size_t d = 0; d < f->ndef; d++) z[f->defcol[d]] = ydef ? ydef[d] : 0;
    for (size_t kk = f->rank; kk-- > 0;) {
        const uint8_t *row = f->U8 + kk * cols;
        size_t pc = f->pivcol[kk];
        uint64_t acc = 0;
        for (size_t j = 0; j < cols; j++) acc += (uint32_t)row[j] * z[j];
        acc %= n;
        z[pc] = (uint8_t)(((y ? y[kk] : 0) + n - acc) % n);
    }
}

/* Back substitution: z (cols) from the transformed rhs y (rank entries used). */
static void back_gf2(const ml_res *f, const uint8_t *y, uint64_t *zw) {
    const size_t nw = f->nw;
    for (size_t kk = f->rank; kk-- > 0;) {
        const uint64_t *row = f->U + kk * nw;
        size_t wd = f->pivcol[kk] / 64;
        uint64_t acc = 0;
        for (size_t j = wd; j < nw; j++) acc ^= row[j] & zw[j];
        unsigned v = (y ? y[kk] : 0) ^ (unsigned)(__builtin_popcountll(acc) & 1);
        if (v) zw[wd] |= (uint64_t)1 << (f->pivcol[kk] % 64);
    }
}

int ml_res_solve(const ml_res *f, const uint8_t *rhs, uint8_t *z) {
    const size_t rows = f->rows, cols = f->cols;
    uint8_t *y = malloc(rows + 1);
    if (!y) return -1;
    if (rows) memcpy(y, rhs, rows);
    memset(z, 0, cols);
    int ok = 1;
    if (f->p == 2) {
        for (size_t k = 0; k < f->rank; k++) {
            size_t s = f->swap[k];
            if (s != k) { uint8_t t = y[k]; y[k] = y[s]; y[s] = t; }
            if (y[k] & 1) {
                const uint64_t *Lk = f->Lb + k * f->rw;
                for (size_t wd = (k + 1) / 64; wd < f->rw; wd++) {
                    uint64_t m = Lk[wd];
                    while (m) {
                        int b = __builtin_ctzll(m);
                        y[wd * 64 + (size_t)b] ^= 1;
                        m &= m - 1;
                    }
                }
            }
        }
        for (size_t i = f->rank; i < rows; i++) if (y[i] & 1) { ok = 0; break; }
        if (ok) {
            uint64_t *zw = calloc(f->nw + 1, sizeof(uint64_t));
            if (!zw) { free(y); return -1; }
            back_gf2(f, y, zw);
            for (size_t j = 0; j < cols; j++) z[j] = (uint8_t)((zw[j / 64] >> (j % 64)) & 1);
            free(zw);
        }
    }
    free(y);
    return ok;
}

void ml_res_kernel(const ml_res *f, uint8_t *K) {
    const size_t cols = f->cols;
    uint8_t *isp = calloc(cols + 1, 1);
    if (!isp) return;
    for (size_t k = 0; k < f->rank; k++) isp[f->pivcol[k]] = 1;
    size_t out = 0;
    uint64_t *zw = f->p == 2 ? calloc(f->nw + 1, sizeof(uint64_t)) : NULL;
    for (size_t j = 0; j < cols; j++) {
        if (isp[j]) continue;
        uint8_t *z = K + out * cols;
        memset(z, 0, cols);
        if (f->p == 2) {
            memset(zw, 0, (f->nw + 1) * sizeof(uint64_t));
            zw[j / 64] |= (uint64_t)1 << (j % 64);
            back_gf2(f, NULL, zw);
            for (size_t i = 0; i < cols; i++) z[i] = (uint8_t)((zw[i / 64] >> (i % 64)) & 1);
        }
        out++;
    }
    free(zw);
    free(isp);
}
