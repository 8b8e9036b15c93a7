/* chase.c: generalised light chasing for grid boards (see chase.h).
 *
 * Two ways to list the taps affecting a tile:
 *  - stencil (no wrap): the candidates are tile - offset for the distinct offsets
 *    of the patterns, sorted so they come in row-major order; nothing per tile is
 *    stored. Symbolic vectors live in a ring of K slots (a power of two >= the flat
 *    span of the stencil + one row): a tap is never needed more than K - 1 taps
 *    after it is determined, even when residual tiles are evaluated once per row.
 *  - lists (wrap): per-tile lists (CSR) with merged coefficients, residual tiles
 *    ordered by last tap, slots from live ranges.
 *
 * The forcing code of every tap (forced by offset u / by tile t, a symbol, not a tap)
 * is kept by row, and a row equal to the row before it is stored once: a board
 * without locks keeps a handful of distinct rows whatever its height.
 *
 * The symbolic chase runs on blocks of symbols (GF(2): bw words of 64 symbols per
 * tap; Z/n: bw symbols as bytes), one pass over the board per block, so that the ring
 * (K x block) stays in the cache; the blocks are shared among threads. On the stencil
 * a block only touches the columns its symbols can reach (its "cone": each row's
 * support is the union of the supports of the rows its taps depend on, widened by
 * the column span of the pattern), and only the columns anyone reads are zeroed.
 */
#include "chase/chase.h"
#include "base/bitslice.h"
#include "base/cpu.h"
#include "dense/gf2.h"
#include "base/interrupt.h"
#include "base/modn.h"

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
    uint8_t *tap;         /* hw tappable mask, NULL: every tile */
    int64_t K, emin;      /* ring size, smallest flat offset */
    int simple;           /* uniform pattern, every tile tappable: interior fast path */
    int rlo, rhi, clo, chi; /* interior: every offset lands on the board */
    int nz;               /* offsets with a non-zero coefficient (uniform pattern) */
    int *zu;
    int uL, nd;           /* interior: the forcing offset and the other taps' deltas */
    int64_t *delta;       /* nd: tap t is forced from taps t + delta[i] */
    uint8_t *dcf;         /* nd: their coefficients */
    uint8_t *dnear;       /* nd: 1 when the delta points into the tap's own row */
    int nnear;            /* how many do (square, knight: the numeric replay's two passes) */
    int A, E;             /* row span and column span of the offsets */
    int32_t *rrlo, *rrhi; /* h: columns of each tap row that residual tiles read */
    int32_t *clx, *crx;   /* npool x (A + 1): a dependency in row R - d at column q makes
                           * taps of row R (pool row of R) in [q - clx, q + crx] depend on
                           * it; NO_DEP when no tap of the row depends on row R - d */
    int32_t *msym, *mres; /* left-right mirror images of symbols / residual rows, or NULL */
    /* lists */
    int64_t *cstart;      /* hw + 1 */
    int32_t *ctap;
    uint8_t *ccoef;
    int32_t *slot;        /* hw */
    /* both: forcing codes by row. >= 0 forced (offset index / forcing tile), -2 not a
     * tap, -3 - j the j-th symbol of its row (symbol symbase[r] + j), so rows that
     * differ only by which symbols they hold are stored once */
    int32_t *epool;       /* npool rows of w codes */
    size_t npool;
    int32_t *erid;        /* h: pool row of each board row */
    int64_t *symbase;     /* h: number of the first symbol of each row */
    size_t nsym, nres, peak;
    int64_t *symtile;     /* nsym */
    int64_t *restile;     /* nres, in event order */
    int64_t *resev;       /* nres: tap after which the residual can be evaluated (-1: first) */
    uint8_t inv[256];
};

#define MAXC 4096
#define EROW(p, r) ((p)->epool + (size_t)(p)->erid[r] * (size_t)(p)->w)

/* ------------------------------------------------------------------ helpers */
static unsigned gcd_u(unsigned a, unsigned b) {
    while (b) { unsigned t = a % b; a = b; b = t; }
    return a;
}


static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int64_t imin64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t imax64(int64_t a, int64_t b) { return a > b ? a : b; }

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
        if (p->tap && !p->tap[q]) continue;
        uint8_t m = p->cmod[(size_t)(p->pat_of ? p->pat_of[q] : 0) * nu + u];
        if (!m) continue;
        qs[k] = (int32_t)q; cf[k] = m; us[k] = u; k++;
    }
    return k;
}

/* The tile forcing tap t (code e >= 0). */
static inline int64_t forcer(const ml_chase *p, int32_t e, int64_t t, int r, int col,
                             int *rc, int *cc) {
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
size_t ml_chase_pool_rows(const ml_chase *p) { return p->npool; }
int ml_chase_mirrored(const ml_chase *p) { return p->msym != NULL; }

void ml_chase_symbols(const ml_chase *p, int64_t *out) {
    if (p->nsym) memcpy(out, p->symtile, p->nsym * sizeof(int64_t));
}
void ml_chase_residual_tiles(const ml_chase *p, int64_t *out) {
    if (p->nres) memcpy(out, p->restile, p->nres * sizeof(int64_t));
}

void ml_chase_free(ml_chase *p) {
    if (!p) return;
    free(p->zu); free(p->delta); free(p->dcf); free(p->dnear); free(p->udr); free(p->udc); free(p->duf); free(p->cmod); free(p->pat_of); free(p->tap);
    free(p->rrlo); free(p->rrhi); free(p->clx); free(p->crx); free(p->msym); free(p->mres);
    free(p->cstart); free(p->ctap); free(p->ccoef); free(p->slot);
    free(p->epool); free(p->erid); free(p->symbase); free(p->symtile); free(p->restile); free(p->resev);
    free(p);
}

/* ------------------------------------------------------------------ plan */
#define TAPPABLE(t) (tappable ? tappable[t] : 1)
#define ACTIVE(t) (active ? active[t] : 1)

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
            if (!ACTIVE(t)) continue;
            int k = 0;
            for (int u = 0; u < nu; u++) {
                long qr = ((long)r - udr[u]) % h, qc = ((long)c - udc[u]) % w;
                if (qr < 0) qr += h;
                if (qc < 0) qc += w;
                size_t q = (size_t)qr * w + (size_t)qc;
                if (!TAPPABLE(q)) continue;
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

/* Growable arrays of the plan. */
static int push_i64(int64_t **a, size_t *cap, size_t len, int64_t v) {
    if (len == *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        int64_t *b = realloc(*a, nc * sizeof(int64_t));
        if (!b) return 0;
        *a = b; *cap = nc;
    }
    (*a)[len] = v;
    return 1;
}

/* Number the symbols of a finished row of codes (-1 -> -3 - j, the row's j-th) and
 * store the row in the pool, or point to the last pool row when equal. Returns 0 on
 * out of memory. */
static int finish_row(ml_chase *p, int R, int32_t *row, size_t *symcap, size_t *poolcap) {
    const int w = p->w;
    p->symbase[R] = (int64_t)p->nsym;
    for (int c = 0; c < w; c++) {
        if (row[c] != -1) continue;
        if (!push_i64(&p->symtile, symcap, p->nsym, (int64_t)R * w + c)) return 0;
        row[c] = -3 - (int32_t)(p->nsym - (size_t)p->symbase[R]);
        p->nsym++;
    }
    if (p->npool && !memcmp(p->epool + (p->npool - 1) * (size_t)w, row, (size_t)w * sizeof(int32_t))) {
        p->erid[R] = (int32_t)(p->npool - 1);
        return 1;
    }
    if (p->npool == *poolcap) {
        size_t nc = *poolcap ? *poolcap * 2 : 8;
        int32_t *a = realloc(p->epool, nc * (size_t)w * sizeof(int32_t));
        if (!a) return 0;
        p->epool = a; *poolcap = nc;
    }
    memcpy(p->epool + p->npool * (size_t)w, row, (size_t)w * sizeof(int32_t));
    p->erid[R] = (int32_t)p->npool++;
    return 1;
}

static int64_t find_sorted(const int64_t *a, size_t n, int64_t v) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < v) lo = mid + 1; else hi = mid;
    }
    return lo < n && a[lo] == v ? (int64_t)lo : -1;
}

#define NO_DEP INT32_MIN

/* The column reach of dependencies per pool row (stencil): tap t forced by offset u
 * (tile t + duf[u]) reads taps t + duf[u] - duf[v], row d = udr[v] - udr[u] above it,
 * column shift udc[u] - udc[v]. Over the forcing offsets a row of codes uses (not the
 * pattern's whole column span E: the cross widens a cone by one column a row, not
 * two). Returns 0 only when out of memory. */
static int cone_reach(ml_chase *p) {
    const int w = p->w, nu = p->nu, A = p->A;
    const size_t np = p->npool ? p->npool : 1;
    p->clx = malloc(np * (size_t)(A + 1) * sizeof(int32_t));
    p->crx = malloc(np * (size_t)(A + 1) * sizeof(int32_t));
    uint8_t *used = calloc((size_t)nu + 1, 1);
    if (!p->clx || !p->crx || !used) { free(used); return 0; }
    for (size_t i = 0; i < np * (size_t)(A + 1); i++) p->clx[i] = p->crx[i] = NO_DEP;
    for (size_t i = 0; i < p->npool; i++) {
        const int32_t *e = p->epool + i * (size_t)w;
        int32_t *lx = p->clx + i * (size_t)(A + 1), *rx = p->crx + i * (size_t)(A + 1);
        memset(used, 0, (size_t)nu);
        for (int c = 0; c < w; c++)
            if (e[c] >= 0) used[e[c]] = 1;
        for (int u = 0; u < nu; u++) {
            if (!used[u]) continue;
            for (int v = 0; v < nu; v++) {
                int d = p->udr[v] - p->udr[u];
                if (v == u || d < 0 || d > A) continue;     /* d = 0: same row */
                int32_t sh = p->udc[u] - p->udc[v];     /* col(t) = col(q) - sh */
                if (lx[d] == NO_DEP || sh > lx[d]) lx[d] = sh;
                if (rx[d] == NO_DEP || -sh > rx[d]) rx[d] = -sh;
            }
        }
    }
    free(used);
    return 1;
}

/* Left-right mirror symmetry of a uniform stencil plan with every tile tappable: the
 * pattern is its own mirror image (same coefficients) and the forcing codes of
 * every row are mirror images of each other (offset u at column c <-> mirror offset
 * at column w - 1 - c, symbols <-> symbols). Then tap (r, w-1-c) is the mirror of tap
 * (r, c) as a function of the symbols, so the residual matrix satisfies
 * M[mres[k]][msym[s]] = M[k][s] and half of it need not be computed. Sets p->msym
 * and p->mres, or leaves them NULL. Returns 0 only when out of memory. */
static int find_mirror(ml_chase *p) {
    if (!p->stencil || p->tap || p->pat_of || p->nsym == 0 || p->w < 2) return 1;
    const int w = p->w, nu = p->nu;
    int mu[MAXC + 1];
    for (int u = 0; u < nu; u++) {
        mu[u] = -1;
        for (int v = 0; v < nu; v++)
            if (p->udr[v] == p->udr[u] && p->udc[v] == -p->udc[u] && p->cmod[v] == p->cmod[u])
                mu[u] = v;
        if (mu[u] < 0) return 1;
    }
    for (size_t i = 0; i < p->npool; i++) {
        const int32_t *e = p->epool + i * (size_t)w;
        for (int c = 0; c < w; c++) {
            int32_t a = e[c], b = e[w - 1 - c];
            if (a >= 0 ? b != mu[a] : (a == -2 ? b != -2 : b > -3)) return 1;
        }
    }
    int32_t *ms = malloc(p->nsym * sizeof(int32_t));
    int32_t *mr = malloc((p->nres + 1) * sizeof(int32_t));
    if (!ms || !mr) { free(ms); free(mr); return 0; }
    for (size_t s = 0; s < p->nsym; s++) {
        int64_t t = p->symtile[s], r = t / w, c = t % w;
        int64_t j = find_sorted(p->symtile, p->nsym, r * w + (w - 1 - c));
        if (j < 0) { free(ms); free(mr); return 1; }
        ms[s] = (int32_t)j;
    }
    /* residual tiles are in tile order on the stencil */
    for (size_t k = 0; k < p->nres; k++) {
        int64_t t = p->restile[k], r = t / w, c = t % w;
        int64_t j = find_sorted(p->restile, p->nres, r * w + (w - 1 - c));
        if (j < 0) { free(ms); free(mr); return 1; }
        mr[k] = (int32_t)j;
    }
    p->msym = ms;
    p->mres = mr;
    return 1;
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
    int all_tap = 1;
    if (tappable)
        for (size_t t = 0; t < hw && all_tap; t++) all_tap = tappable[t] != 0;
    if (all_tap) tappable = NULL;
    if (active) {
        int all = 1;
        for (size_t t = 0; t < hw && all; t++) all = active[t] != 0;
        if (all) active = NULL;
    }
    p->erid = malloc((size_t)h * sizeof(int32_t));
    p->symbase = malloc((size_t)h * sizeof(int64_t));
    if (!p->erid || !p->symbase) goto fail;
    size_t symcap = 0, poolcap = 0, rescap = 0, ntaps = 0, nactive = 0, nforced = 0;
    if (p->stencil && (tappable || active)) {
        /* rows with locked tiles or holes differ from the row before: room for every
         * row at once (pages untouched until used), trimmed after the pass */
        p->epool = malloc((size_t)h * (size_t)w * sizeof(int32_t));
        if (!p->epool) goto fail;
        poolcap = (size_t)h;
    }

    if (p->stencil) {
        /* keep the offsets that can land on the board; they are sorted descending by
         * (dr, dc) by the caller, so flat offsets are descending too */
        p->udr = malloc((size_t)(nu + 1) * sizeof(int32_t));
        p->udc = malloc((size_t)(nu + 1) * sizeof(int32_t));
        p->duf = malloc((size_t)(nu + 1) * sizeof(int64_t));
        p->cmod = malloc((size_t)npat * (size_t)(nu + 1));
        if (!p->udr || !p->udc || !p->duf || !p->cmod) goto fail;
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
        if (tappable) {
            p->tap = malloc(hw);
            if (!p->tap) goto fail;
            memcpy(p->tap, tappable, hw);
        }
        if (npat > 1) {
            p->pat_of = malloc(hw * sizeof(int32_t));
            if (!p->pat_of) goto fail;
            memcpy(p->pat_of, pat_of, hw * sizeof(int32_t));
        }
        /* Two offsets valid for the same tile come in ascending tap order, but the
         * flat offsets of the whole list need not be monotone: use max - min. */
        int64_t fmax = k ? p->duf[0] : 0, fmin = k ? p->duf[0] : 0;
        int mindr = k ? p->udr[0] : 0, maxdr = mindr, mindc = k ? p->udc[0] : 0, maxdc = mindc;
        for (int u = 1; u < k; u++) {
            if (p->duf[u] > fmax) fmax = p->duf[u];
            if (p->duf[u] < fmin) fmin = p->duf[u];
            mindr = imin(mindr, p->udr[u]); maxdr = imax(maxdr, p->udr[u]);
            mindc = imin(mindc, p->udc[u]); maxdc = imax(maxdc, p->udc[u]);
        }
        p->A = maxdr - mindr;
        p->E = maxdc - mindc;
        /* ring of a power of two >= fmax - fmin + w + 1 slots (slot = tap & (K - 1));
         * the extra row lets residual tiles be evaluated once per row */
        p->K = 1;
        while (p->K < fmax - fmin + 1 + w) p->K *= 2;
        p->emin = fmin;
        /* interior fast path */
        p->zu = malloc((size_t)(k + 1) * sizeof(int));
        if (!p->zu) goto fail;
        p->simple = !tappable && npat == 1;
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
        p->dnear = calloc((size_t)(p->nz + 1), 1);
        if (!p->delta || !p->dcf || !p->dnear) goto fail;
        p->uL = -1;
        p->nd = 0;
        /* a uniform pattern (locked tiles and holes allowed: their slots and taps are
         * kept zero, so the fixed deltas read zeros there) */
        if (npat == 1 && p->nz && p->inv[p->cmod[p->zu[p->nz - 1]]]) {
            p->uL = p->zu[p->nz - 1];
            p->nd = p->nz - 1;
            for (int i = 0; i < p->nd; i++) {
                p->delta[i] = p->duf[p->uL] - p->duf[p->zu[i]];
                p->dcf[i] = p->cmod[p->zu[i]];
                p->dnear[i] = p->udr[p->zu[i]] == p->udr[p->uL];
                p->nnear += p->dnear[i];
            }
        }

        /* forcing and residual tiles in one pass over the tiles, with a window of
         * tap rows [r - maxdr, r - mindr]: a tap row is finished once the tile row
         * maxdr below it is done */
        const int WN = p->A + 2;
        int32_t *win = malloc((size_t)WN * (size_t)w * sizeof(int32_t));
        if (!win) goto fail;
#define WROW(R) (win + (size_t)((R) % WN) * (size_t)w)
        int next_init = 0, next_fin = 0;
        size_t t = 0;
#define INIT_ROW(R)                                                                      \
        do {                                                                             \
            int32_t *row_ = WROW(R);                                                     \
            size_t t0_ = (size_t)(R) * w;                                                \
            for (int c_ = 0; c_ < w; c_++) row_[c_] = TAPPABLE(t0_ + c_) ? -1 : -2;      \
        } while (0)
        for (int r = 0; r < h; r++) {
            /* tap rows no tile from row r on can touch are finished */
            for (; next_fin < h && next_fin <= r - 1 - maxdr; next_fin++) {
                if (next_fin >= next_init) { INIT_ROW(next_fin); next_init = next_fin + 1; }
                if (!finish_row(p, next_fin, WROW(next_fin), &symcap, &poolcap)) { free(win); goto fail; }
            }
            for (; next_init < h && next_init <= r - mindr; next_init++) INIT_ROW(next_init);
            const int interior_row = p->uL >= 0 && r >= p->rlo && r < p->rhi;
            /* interior of a uniform board: the last tap of tile c is tgt[c], a unit,
             * when that tap is tappable (code -1 or >= 0; -2: a locked tile or a hole,
             * then the general way finds the last tap) */
            int32_t *tgt = interior_row ? WROW(r - p->udr[p->uL]) - p->udc[p->uL] : NULL;
            for (int c = 0; c < w; c++, t++) {
                int m;
                if (interior_row && c >= p->clo && c < p->chi && tgt[c] == -1 && ACTIVE(t)) {
                    /* a run of active interior tiles */
                    int cc = c;
                    const int32_t uL = p->uL;
                    while (cc < p->chi && tgt[cc] == -1 && ACTIVE(t + (size_t)(cc - c))) tgt[cc++] = uL;
                    nforced += (size_t)(cc - c);
                    nactive += (size_t)(cc - c);
                    t += (size_t)(cc - c - 1);
                    c = cc - 1;
                    continue;
                }
                if (!ACTIVE(t)) continue;
                nactive++;
                if (interior_row && c >= p->clo && c < p->chi && tgt[c] != -2) {
                    int32_t *e = tgt + c;
                    if (*e == -1) { *e = p->uL; nforced++; continue; }
                    m = p->nz;
                } else {
                    m = gather(p, (int64_t)t, r, c, qs, cf, us);
                    if (m) {
                        int32_t L = qs[m - 1];
                        int32_t *e = WROW(L / w) + (L % w);
                        if (*e == -1 && p->inv[cf[m - 1]]) { *e = us[m - 1]; nforced++; continue; }
                    }
                }
                int64_t ev = (int64_t)t - p->emin;
                if (ev >= (int64_t)hw) ev = (int64_t)hw - 1;
                if (!m) ev = -1;
                /* keep events non-decreasing in tile order */
                if (p->nres && ev < p->resev[p->nres - 1]) ev = p->resev[p->nres - 1];
                size_t c2 = rescap;
                if (!push_i64(&p->restile, &rescap, p->nres, (int64_t)t)) { free(win); goto fail; }
                if (rescap != c2) {
                    int64_t *a = realloc(p->resev, rescap * sizeof(int64_t));
                    if (!a) { free(win); goto fail; }
                    p->resev = a;
                }
                p->resev[p->nres++] = ev;
            }
        }
        for (; next_fin < h; next_fin++) {
            if (next_fin >= next_init) { INIT_ROW(next_fin); next_init = next_fin + 1; }
            if (!finish_row(p, next_fin, WROW(next_fin), &symcap, &poolcap)) { free(win); goto fail; }
        }
#undef WROW
#undef INIT_ROW
        free(win);
        if (poolcap > p->npool) {
            int32_t *a = realloc(p->epool, (p->npool ? p->npool : 1) * (size_t)w * sizeof(int32_t));
            if (a) p->epool = a;
        }
        if (!tappable) ntaps = hw;
        else for (size_t q = 0; q < hw; q++) ntaps += tappable[q] ? 1 : 0;
        if (!cone_reach(p)) goto fail;
        /* the columns of each tap row read by residual tiles */
        p->rrlo = malloc((size_t)h * sizeof(int32_t));
        p->rrhi = malloc((size_t)h * sizeof(int32_t));
        if (!p->rrlo || !p->rrhi) goto fail;
        for (int r = 0; r < h; r++) { p->rrlo[r] = w; p->rrhi[r] = 0; }
        for (size_t i = 0; i < p->nres; i++) {
            int rr = (int)(p->restile[i] / w), cc = (int)(p->restile[i] % w);
            int a = imax(0, cc - maxdc), b = imin(w, cc - mindc + 1);
            for (int R = imax(0, rr - maxdr); R <= imin(h - 1, rr - mindr); R++) {
                if (a < p->rrlo[R]) p->rrlo[R] = a;
                if (b > p->rrhi[R]) p->rrhi[R] = b;
            }
        }
        p->peak = (size_t)p->K;
        if (!find_mirror(p)) goto fail;
    } else {
        int e = build_lists(p, active, tappable, nu, udr, udc, npat, cnt, pat_of);
        if (e) goto fail;
        int32_t *enc = p->epool = malloc(hw * sizeof(int32_t) + 1);
        if (!enc) goto fail;
        p->npool = (size_t)h;
        for (int r = 0; r < h; r++) p->erid[r] = r;
        for (size_t q = 0; q < hw; q++) { enc[q] = TAPPABLE(q) ? -1 : -2; ntaps += TAPPABLE(q) ? 1 : 0; }
        for (size_t q = 0; q < hw; q++) {
            if (!ACTIVE(q)) continue;
            nactive++;
            int64_t a = p->cstart[q], b = p->cstart[q + 1];
            if (a == b) continue;
            int32_t L = p->ctap[b - 1];
            if (enc[L] == -1 && p->inv[p->ccoef[b - 1]]) { enc[L] = (int32_t)q; nforced++; }
        }
        for (size_t q = 0; q < hw; q++) {
            if (q % (size_t)w == 0) p->symbase[q / (size_t)w] = (int64_t)p->nsym;
            if (enc[q] == -1) {
                if (!push_i64(&p->symtile, &symcap, p->nsym, (int64_t)q)) goto fail;
                enc[q] = -3 - (int32_t)(p->nsym++ - (size_t)p->symbase[q / (size_t)w]);
            }
        }
        p->nres = nactive - nforced;
        p->restile = malloc((p->nres + 1) * sizeof(int64_t));
        p->resev = malloc((p->nres + 1) * sizeof(int64_t));
        if (!p->restile || !p->resev) goto fail;
        /* residual tiles ordered by last tap (counting sort) */
        int64_t *cntk = calloc(hw + 2, sizeof(int64_t));
        if (!cntk) goto fail;
        for (size_t q = 0; q < hw; q++) {
            if (!ACTIVE(q)) continue;
            int64_t a = p->cstart[q], b = p->cstart[q + 1];
            if (a < b && enc[p->ctap[b - 1]] == (int32_t)q) continue;
            size_t key = a == b ? 0 : (size_t)p->ctap[b - 1] + 1;
            cntk[key + 1]++;
        }
        for (size_t k = 0; k < hw + 1; k++) cntk[k + 1] += cntk[k];
        for (size_t q = 0; q < hw; q++) {
            if (!ACTIVE(q)) continue;
            int64_t a = p->cstart[q], b = p->cstart[q + 1];
            if (a < b && enc[p->ctap[b - 1]] == (int32_t)q) continue;
            size_t key = a == b ? 0 : (size_t)p->ctap[b - 1] + 1;
            int64_t pos = cntk[key]++;
            p->restile[pos] = (int64_t)q;
            p->resev[pos] = (int64_t)key - 1;
        }
        free(cntk);

        /* live ranges -> slots */
        int64_t *lastuse = malloc(hw * sizeof(int64_t));
        p->slot = malloc(hw * sizeof(int32_t));
        if (!lastuse || !p->slot) { free(lastuse); goto fail; }
        for (size_t q = 0; q < hw; q++) lastuse[q] = (int64_t)q;
        for (size_t q = 0; q < hw; q++) {
            int64_t a = p->cstart[q], b = p->cstart[q + 1];
            if (a == b) continue;
            int64_t L = p->ctap[b - 1];
            for (int64_t e2 = a; e2 < b; e2++)
                if (lastuse[p->ctap[e2]] < L) lastuse[p->ctap[e2]] = L;
        }
        int64_t *fs = calloc(hw + 1, sizeof(int64_t));
        int32_t *ft = malloc((ntaps + 1) * sizeof(int32_t));
        int32_t *stack = malloc((ntaps + 1) * sizeof(int32_t));
        if (!fs || !ft || !stack) { free(fs); free(ft); free(stack); free(lastuse); goto fail; }
        for (size_t q = 0; q < hw; q++) if (TAPPABLE(q)) fs[lastuse[q] + 1]++;
        for (size_t k = 0; k < hw; k++) fs[k + 1] += fs[k];
        for (size_t q = 0; q < hw; q++) if (TAPPABLE(q)) ft[fs[lastuse[q]]++] = (int32_t)q;
        size_t top = 0, used = 0;
        int64_t gstart = 0;
        for (size_t q = 0; q < hw; q++) {
            p->slot[q] = TAPPABLE(q) ? (top ? stack[--top] : (int32_t)used++) : -1;
            for (int64_t e2 = gstart; e2 < fs[q]; e2++) stack[top++] = p->slot[ft[e2]];
            gstart = fs[q];
        }
        p->peak = used;
        free(fs); free(ft); free(stack); free(lastuse);
    }
    if (p->nsym + nforced != ntaps || p->nres + nforced != nactive) goto fail;
    if (!p->symtile) { p->symtile = malloc(sizeof(int64_t)); if (!p->symtile) goto fail; }
    if (!p->restile) {
        p->restile = malloc(sizeof(int64_t));
        p->resev = malloc(sizeof(int64_t));
        if (!p->restile || !p->resev) goto fail;
    }
    *err = 0;
    return p;
fail:
    ml_chase_free(p);
    return NULL;
}
#undef TAPPABLE
#undef ACTIVE

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

/* ------------------------------------------------------------------ the plan, for rowchase.c */
void ml_chase_geometry(const ml_chase *p, int *h, int *w, int *n) { *h = p->h; *w = p->w; *n = p->n; }
const int32_t *ml_chase_codes(const ml_chase *p, int r) { return EROW(p, r); }
int64_t ml_chase_forcing_tile(const ml_chase *p, int32_t e, int64_t t) {
    int rc, cc;
    return forcer(p, e, t, (int)(t / p->w), (int)(t % p->w), &rc, &cc);
}
int ml_chase_taps_of(const ml_chase *p, int64_t c, int32_t *qs, uint8_t *cf) {
    int us[MAXC + 1];
    return gather(p, c, (int)(c / p->w), (int)(c % p->w), qs, cf, us);
}
int ml_chase_max_taps(const ml_chase *p) { return MAXC + 1; }
void ml_chase_residual_events(const ml_chase *p, int64_t *out) {
    if (p->nres) memcpy(out, p->resev, p->nres * sizeof(int64_t));
}
size_t ml_chase_slot(const ml_chase *p, int64_t q) { return slot_of(p, q); }
size_t ml_chase_slots(const ml_chase *p) { return p->stencil ? (size_t)p->K : p->peak; }
int64_t ml_chase_reach(const ml_chase *p) {
    if (!p->stencil) return (int64_t)p->hw;
    int64_t fmax = 0, fmin = 0;
    for (int u = 0; u < p->nu; u++) {
        if (!u || p->duf[u] > fmax) fmax = p->duf[u];
        if (!u || p->duf[u] < fmin) fmin = p->duf[u];
    }
    return fmax - fmin;
}

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

/* Z/n: xo[j] = invL * (bb[j] + sum ncf[i] src[i][j]) mod n, ncf[i] = n - (coefficient
 * i), for a run of len <= ZSEG taps with no dependencies inside the run (as gf2_seg). */
#define ZSEG 512
__attribute__((target_clones("avx2", "default")))
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

/* ------------------------------------------------------------------ symbolic chase */
/* v = xor of m source vectors (m >= 0). */
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

/* Interior run of the GF(2) symbolic chase: cnt taps from t0, each the xor of the
 * taps at fixed deltas, with bw words per tap. Slots of 4 or 8 words are 32-byte
 * aligned and handled as 256-bit vectors (GCC vector extension: one AVX2 register,
 * two SSE2 registers on the default path); on the AVX-512 path slots of 8 words as one
 * 512-bit vector (three-input xors in one vpternlogq). */
typedef uint64_t v4x64 __attribute__((vector_size(32)));
typedef uint64_t v8x64 __attribute__((vector_size(64)));

/* Taps from t0 on (at most cnt) whose slots, and the slots at t0 + dl[i], do not
 * wrap around the ring: they are consecutive in memory. */
static inline size_t ring_run(int64_t t0, size_t cnt, int64_t mask, const int64_t *dl, int nd) {
    size_t run = (size_t)(mask + 1 - (t0 & mask));
    for (int i = 0; i < nd; i++) {
        size_t r = (size_t)(mask + 1 - ((t0 + dl[i]) & mask));
        if (r < run) run = r;
    }
    return run < cnt ? run : cnt;
}

/* The vector part of gf2_run on VT (v4x64 or v8x64), nv of them a slot */
#define GF2_RUN_VEC(VT, nv)                                                                 \
    do {                                                                                    \
        const VT *sp[MAXC + 1];                                                             \
        while (cnt) {                                                                       \
            size_t run = ring_run(t0, cnt, mask, dl, nd);                                   \
            VT *v = (VT *)(V + (size_t)(t0 & mask) * bw);                                   \
            for (int q = 0; q < nd; q++) sp[q] = (const VT *)(V + (size_t)((t0 + dl[q]) & mask) * bw); \
            if (nd == 4) {                                                                  \
                const VT *a = sp[0], *b = sp[1], *c = sp[2], *d = sp[3];                    \
                if ((nv) == 1)                                                              \
                    for (size_t i = 0; i < run; i++) v[i] = a[i] ^ b[i] ^ c[i] ^ d[i];      \
                else if ((nv) == 2)                                                         \
                    for (size_t i = 0; i < 2 * run; i += 2) {                               \
                        v[i] = a[i] ^ b[i] ^ c[i] ^ d[i];                                   \
                        v[i + 1] = a[i + 1] ^ b[i + 1] ^ c[i + 1] ^ d[i + 1];               \
                    }                                                                       \
                else                                                                        \
                    for (size_t i = 0; i < (nv) * run; i++) v[i] = a[i] ^ b[i] ^ c[i] ^ d[i]; \
            } else if (nd == 8) {                                                           \
                /* knight, square (in order: a source may be a tap of this run) */          \
                const VT *a = sp[0], *b = sp[1], *c = sp[2], *d = sp[3], *e = sp[4],        \
                         *f = sp[5], *g = sp[6], *k = sp[7];                                \
                for (size_t i = 0; i < (nv) * run; i++)                                     \
                    v[i] = ((a[i] ^ b[i]) ^ (c[i] ^ d[i])) ^ ((e[i] ^ f[i]) ^ (g[i] ^ k[i])); \
            } else {                                                                        \
                /* in order: a source may be a tap of this run (same-row patterns) */       \
                for (size_t i = 0; i < (nv) * run; i++) {                                   \
                    VT acc = sp[0][i];                                                      \
                    for (int q = 1; q < nd; q++) acc ^= sp[q][i];                           \
                    v[i] = acc;                                                             \
                }                                                                           \
            }                                                                               \
            t0 += (int64_t)run; cnt -= run;                                                 \
        }                                                                                   \
    } while (0)

/* wide: 512-bit vectors where a slot holds whole ones (the AVX-512 path) */
static inline __attribute__((always_inline)) void
gf2_run_body(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt, const int64_t *dl,
             int nd, int wide) {
    if (wide && bw % 8 == 0 && nd >= 1) {
        GF2_RUN_VEC(v8x64, bw / 8);
        return;
    }
    if (bw % 4 == 0 && nd >= 1) {
        GF2_RUN_VEC(v4x64, bw / 4);
        return;
    }
    const uint64_t *src[MAXC + 1];
    for (size_t i = 0; i < cnt; i++) {
        const int64_t t = t0 + (int64_t)i;
        for (int q = 0; q < nd; q++) src[q] = V + (size_t)((t + dl[q]) & mask) * bw;
        xor_many(V + (size_t)(t & mask) * bw, src, nd, bw);
    }
}

static void gf2_run_portable(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                             const int64_t *dl, int nd) {
    gf2_run_body(V, bw, mask, t0, cnt, dl, nd, 0);
}
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("avx2")))
static void gf2_run_avx2(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                         const int64_t *dl, int nd) {
    gf2_run_body(V, bw, mask, t0, cnt, dl, nd, 0);
}
__attribute__((target("avx512f,avx512vl")))
static void gf2_run_avx512(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                           const int64_t *dl, int nd) {
    gf2_run_body(V, bw, mask, t0, cnt, dl, nd, 1);
}
#endif

/* The GF(2) interior run on the SIMD path of csrc/base/cpu.h (MODLIGHTS_SIMD, ml_simd_set) */
static void gf2_run(uint64_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                    const int64_t *dl, int nd) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    const int path = ml_simd_get();
    if (path >= ML_SIMD_AVX512) { gf2_run_avx512(V, bw, mask, t0, cnt, dl, nd); return; }
    if (path >= ML_SIMD_AVX2) { gf2_run_avx2(V, bw, mask, t0, cnt, dl, nd); return; }
#endif
    gf2_run_portable(V, bw, mask, t0, cnt, dl, nd);
}

__attribute__((target_clones("avx2", "default")))
static void acc_add(int32_t *restrict acc, const uint8_t *restrict u, int32_t a, size_t len) {
    if (a == 1) for (size_t i = 0; i < len; i++) acc[i] += u[i];
    else for (size_t i = 0; i < len; i++) acc[i] += a * u[i];
}

__attribute__((target_clones("avx2", "default")))
static void acc_reduce(int32_t *restrict acc, size_t len, int32_t n, float rn) {
    for (size_t i = 0; i < len; i++) acc[i] = ml_fmod_n(acc[i], n, rn);
}

__attribute__((target_clones("avx2", "default")))
static void acc_store(uint8_t *restrict v, const int32_t *restrict acc, int32_t mul, size_t len,
                      int32_t n, float rn) {
    if (mul == 1) for (size_t i = 0; i < len; i++) v[i] = (uint8_t)ml_fmod_n(acc[i], n, rn);
    else for (size_t i = 0; i < len; i++) v[i] = (uint8_t)ml_fmod_n(ml_fmod_n(acc[i], n, rn) * mul, n, rn);
}

/* v = mul * (sum of cf[i] src[i]) mod n over len bytes (acc: len int32 scratch). */
static void zn_comb(uint8_t *v, const uint8_t *const *src, const uint8_t *cf, int m,
                    int32_t mul, size_t len, int32_t *acc, int32_t n, float rn) {
    memset(acc, 0, len * sizeof(int32_t));
    for (int i = 0; i < m; i++) {
        acc_add(acc, src[i], cf[i], len);
        if (i % 200 == 199) acc_reduce(acc, len, n, rn);
    }
    acc_store(v, acc, mul, len, n, rn);
}

/* Interior run of the Z/n symbolic chase when every coefficient is 1 and nd (n - 1)
 * fits a byte: v = -(sum of nd sources) mod n, reduced by subtracting n 2^i (subs,
 * descending, ns of them). */
static inline __attribute__((always_inline)) void
zn_run_small_body(uint8_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                  const int64_t *dl, int nd, uint8_t n, const uint8_t *subs, int ns) {
    const uint8_t *src[MAXC + 1];
    for (size_t i = 0; i < cnt; i++) {
        const int64_t t = t0 + (int64_t)i;
        uint8_t *restrict v = V + (size_t)(t & mask) * bw;
        if (nd == 4 && ns == 2) {
            const uint8_t *restrict a = V + (size_t)((t + dl[0]) & mask) * bw;
            const uint8_t *restrict b = V + (size_t)((t + dl[1]) & mask) * bw;
            const uint8_t *restrict c = V + (size_t)((t + dl[2]) & mask) * bw;
            const uint8_t *restrict d = V + (size_t)((t + dl[3]) & mask) * bw;
            const uint8_t s0 = subs[0], s1 = subs[1];
            for (size_t j = 0; j < bw; j++) {
                uint8_t x = (uint8_t)(a[j] + b[j] + c[j] + d[j]), y;
                y = (uint8_t)(x - s0); x = x < y ? x : y;
                y = (uint8_t)(x - s1); x = x < y ? x : y;
                x = (uint8_t)(n - x);
                y = (uint8_t)(x - n); v[j] = x < y ? x : y;
            }
            continue;
        }
        for (int q = 0; q < nd; q++) src[q] = V + (size_t)((t + dl[q]) & mask) * bw;
        if (nd == 0) memset(v, 0, bw);
        else {
            memcpy(v, src[0], bw);
            for (int q = 1; q < nd; q++)
                for (size_t j = 0; j < bw; j++) v[j] = (uint8_t)(v[j] + src[q][j]);
        }
        for (int s = 0; s < ns; s++) {
            const uint8_t dd = subs[s];
            for (size_t j = 0; j < bw; j++) {
                uint8_t x = v[j], y = (uint8_t)(x - dd);
                v[j] = x < y ? x : y;
            }
        }
        for (size_t j = 0; j < bw; j++) {
            uint8_t x = (uint8_t)(n - v[j]), y = (uint8_t)(x - n);
            v[j] = x < y ? x : y;
        }
    }
}

#define ZN_RUN_SMALL_ARGS                                                                   \
    uint8_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt, const int64_t *dl, int nd,  \
        uint8_t n, const uint8_t *subs, int ns
static void zn_run_small_portable(ZN_RUN_SMALL_ARGS) {
    zn_run_small_body(V, bw, mask, t0, cnt, dl, nd, n, subs, ns);
}
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("avx2"))) static void zn_run_small_avx2(ZN_RUN_SMALL_ARGS) {
    zn_run_small_body(V, bw, mask, t0, cnt, dl, nd, n, subs, ns);
}
__attribute__((target("avx512f,avx512bw,avx512vl"))) static void zn_run_small_avx512(ZN_RUN_SMALL_ARGS) {
    zn_run_small_body(V, bw, mask, t0, cnt, dl, nd, n, subs, ns);
}
#endif

/* The byte run on the SIMD path of csrc/base/cpu.h */
static void zn_run_small(ZN_RUN_SMALL_ARGS) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    const int path = ml_simd_get();
    if (path >= ML_SIMD_AVX512) { zn_run_small_avx512(V, bw, mask, t0, cnt, dl, nd, n, subs, ns); return; }
    if (path >= ML_SIMD_AVX2) { zn_run_small_avx2(V, bw, mask, t0, cnt, dl, nd, n, subs, ns); return; }
#endif
    zn_run_small_portable(V, bw, mask, t0, cnt, dl, nd, n, subs, ns);
}
#undef ZN_RUN_SMALL_ARGS

/* ---- Z/3, Z/4 and Z/8 bit-sliced (bitslice.h): a slot is np planes of bw words (plane k
 * at slot + k bw), 64 symbols a word, bit s of plane k = bit k of the entry (GF(3): the
 * planes P = [x == 1], M = [x == 2]). A combination sum c_i src_i is summed in registers
 * (256-bit vectors, 512-bit on the AVX-512 path) a word group at a time: GF(3) 7 word
 * operations per source and 64 symbols (c_i = 2: the source's planes exchanged), Z/4 4,
 * Z/8 the ripple carry of bitslice.h. The loops are compiled for the portable path, AVX2
 * and AVX-512 and chosen at run time (csrc/base/cpu.h: MODLIGHTS_SIMD, ml_simd_set). */
#define ML_AI static inline __attribute__((always_inline))

/* 2 planes for Z/3 and Z/4, 3 for Z/8, 0: the byte path */
static inline int packed_planes(int n) { return n == 3 || n == 4 ? 2 : n == 8 ? 3 : 0; }

/* acc (planes a0, a1, a2) += c y, y at s[0], s[nv], s[2 nv] (VT units), q a constant */
#define PK_ACC(VT, q, c, s, nv, a0, a1, a2)                                                 \
    do {                                                                                    \
        VT y0_ = (s)[0], y1_ = (s)[nv];                                                     \
        if ((q) == 3) {                                                                     \
            if ((c) == 1) ML_GF3_ADD(a0, a1, y0_, y1_, a0, a1);                             \
            else ML_GF3_ADD(a0, a1, y1_, y0_, a0, a1);                                      \
        } else if ((q) == 4) {                                                              \
            if ((c) == 1) ML_Z4_ADD(a0, a1, y0_, y1_);                                      \
            else if ((c) == 3) ML_Z4_SUB(a0, a1, y0_, y1_);                                 \
            else ML_Z4_ADD2(a0, a1, y0_);                                                   \
        } else {                                                                            \
            VT y2_ = (s)[2 * (nv)], t0_, t1_, t2_;                                          \
            ML_Z8_MULC(c, y0_, y1_, y2_, t0_, t1_, t2_);                                    \
            ML_Z8_ADD(a0, a1, a2, t0_, t1_, t2_);                                           \
        }                                                                                   \
    } while (0)

/* v = sum_{i < m} c[i] src[i] (c[i] in 1..q-1), nv VT units a plane */
#define PK_COMB(VT, q, v, src, c, m, nv)                                                    \
    do {                                                                                    \
        for (size_t j_ = 0; j_ < (nv); j_++) {                                              \
            VT a0_ = {0}, a1_ = {0}, a2_ = {0};                                             \
            for (int i_ = 0; i_ < (m); i_++)                                                \
                PK_ACC(VT, q, (c)[i_], (const VT *)(src)[i_] + j_, nv, a0_, a1_, a2_);      \
            (v)[j_] = a0_; (v)[(nv) + j_] = a1_;                                            \
            if ((q) == 8) (v)[2 * (nv) + j_] = a2_;                                         \
        }                                                                                   \
    } while (0)

/* (a0, a1, a2) = cu (a0, a1, a2), cu in 1..q-1 */
#define PK_SCALE(VT, q, cu, a0, a1, a2)                                                     \
    do {                                                                                    \
        if ((q) == 3) {                                                                     \
            if ((cu) == 2) { VT x_ = a0; a0 = a1; a1 = x_; }                                \
        } else if ((q) == 4) {                                                              \
            if ((cu) == 3) a1 ^= a0;                                                        \
            else if ((cu) == 2) { a1 = a0; a0 ^= a0; }                                      \
        } else if ((cu) != 1) {                                                             \
            VT t0_, t1_, t2_;                                                               \
            ML_Z8_MULC(cu, a0, a1, a2, t0_, t1_, t2_);                                      \
            a0 = t0_; a1 = t1_; a2 = t2_;                                                   \
        }                                                                                   \
    } while (0)

/* v = cu sum_{i < m} src[i] (m >= 1, cu in 1..q-1): the sources added, then one product */
#define PK_COMB_UNIFORM(VT, q, v, src, cu, m, nv)                                           \
    do {                                                                                    \
        for (size_t j_ = 0; j_ < (nv); j_++) {                                              \
            const VT *s0_ = (const VT *)(src)[0] + j_;                                      \
            VT a0_ = s0_[0], a1_ = s0_[nv], a2_ = {0};                                      \
            if ((q) == 8) a2_ = s0_[2 * (nv)];                                              \
            for (int i_ = 1; i_ < (m); i_++)                                                \
                PK_ACC(VT, q, 1, (const VT *)(src)[i_] + j_, nv, a0_, a1_, a2_);            \
            PK_SCALE(VT, q, cu, a0_, a1_, a2_);                                             \
            (v)[j_] = a0_; (v)[(nv) + j_] = a1_;                                            \
            if ((q) == 8) (v)[2 * (nv) + j_] = a2_;                                         \
        }                                                                                   \
    } while (0)

/* A stretch of `run` consecutive slots from v, sources from base[0 .. ND) (consecutive
 * too), ND and NV constants (the cross: 4 sources, the knight and the square: 8; one
 * 512-bit or two 256-bit vectors a plane): pointers kept in registers, no per-tap set-up */
#define PK_RUN_FIXED(VT, q, ND, NV, v, base, run, sw, cu)                                    \
    do {                                                                                    \
        const VT *sp_[ND];                                                                  \
        VT *vv_ = (VT *)(v);                                                                \
        const size_t sv_ = (sw) / (sizeof(VT) / 8);                                         \
        for (int k_ = 0; k_ < (ND); k_++) sp_[k_] = (const VT *)(base)[k_];                 \
        for (size_t i_ = 0; i_ < (run); i_++) {                                             \
            for (size_t j_ = 0; j_ < (NV); j_++) {                                          \
                VT a0_ = sp_[0][j_], a1_ = sp_[0][(NV) + j_], a2_ = {0};                    \
                if ((q) == 8) a2_ = sp_[0][2 * (NV) + j_];                                  \
                for (int k_ = 1; k_ < (ND); k_++)                                           \
                    PK_ACC(VT, q, 1, sp_[k_] + j_, NV, a0_, a1_, a2_);                      \
                PK_SCALE(VT, q, cu, a0_, a1_, a2_);                                         \
                vv_[j_] = a0_; vv_[(NV) + j_] = a1_;                                        \
                if ((q) == 8) vv_[2 * (NV) + j_] = a2_;                                     \
            }                                                                               \
            vv_ += sv_;                                                                     \
            for (int k_ = 0; k_ < (ND); k_++) sp_[k_] += sv_;                               \
        }                                                                                   \
    } while (0)

/* v = sum c[i] src[i] over slots of bw words a plane, the widest vectors bw allows;
 * cu != 0: every c[i] is cu (m >= 1) */
ML_AI void pk_comb_body(unsigned q, uint64_t *v, const uint64_t *const *src, const uint8_t *c,
                        int m, size_t bw, int wide, unsigned cu)
{
#define PK_W(Q, VT, NV)                                                                     \
    if (cu) PK_COMB_UNIFORM(VT, Q, (VT *)v, src, cu, m, NV);                                \
    else PK_COMB(VT, Q, (VT *)v, src, c, m, NV);
#define PK_Q(Q)                                                                             \
    if (wide && bw % 8 == 0) { PK_W(Q, v8x64, bw / 8) }                                     \
    else if (bw % 4 == 0) { PK_W(Q, v4x64, bw / 4) }                                        \
    else { PK_W(Q, uint64_t, bw) }
    if (q == 3) { PK_Q(3) }
    else if (q == 4) { PK_Q(4) }
    else { PK_Q(8) }
#undef PK_Q
#undef PK_W
}

/* the common coefficient of c[0 .. m), 0 when they differ or m = 0 */
static inline unsigned uniform_coef(const uint8_t *c, int m) {
    for (int i = 1; i < m; i++)
        if (c[i] != c[0]) return 0;
    return m ? c[0] : 0;
}

/* The interior run: cnt taps from t0, tap t = sum c[i] (tap t + dl[i]), in order (a
 * source may be a tap of the run), a stretch of consecutive slots at a time (ring_run) */
ML_AI void pk_run_body(unsigned q, uint64_t *V, size_t bw, int64_t mask, int64_t t0,
                       size_t cnt, const int64_t *dl, const uint8_t *c, int nd, int wide)
{
    const size_t sw = (size_t)(q == 8 ? 3 : 2) * bw;
    const uint64_t *base[MAXC + 1], *src[MAXC + 1];
    const unsigned cu = uniform_coef(c, nd);
    while (cnt) {
        const size_t run = ring_run(t0, cnt, mask, dl, nd);
        uint64_t *v = V + (size_t)(t0 & mask) * sw;
        for (int k = 0; k < nd; k++) base[k] = V + (size_t)((t0 + dl[k]) & mask) * sw;
        if (cu && bw == 8 && (nd == 4 || nd == 8)) {
#define PK_FIXED(Q)                                                                         \
            if (wide) {                                                                     \
                if (nd == 4) PK_RUN_FIXED(v8x64, Q, 4, 1, v, base, run, sw, cu);            \
                else PK_RUN_FIXED(v8x64, Q, 8, 1, v, base, run, sw, cu);                    \
            } else {                                                                        \
                if (nd == 4) PK_RUN_FIXED(v4x64, Q, 4, 2, v, base, run, sw, cu);            \
                else PK_RUN_FIXED(v4x64, Q, 8, 2, v, base, run, sw, cu);                    \
            }
            if (q == 3) { PK_FIXED(3) }
            else if (q == 4) { PK_FIXED(4) }
            else { PK_FIXED(8) }
#undef PK_FIXED
            t0 += (int64_t)run; cnt -= run;
            continue;
        }
        for (size_t i = 0; i < run; i++, v += sw) {
            for (int k = 0; k < nd; k++) src[k] = base[k] + i * sw;
            pk_comb_body(q, v, src, c, nd, bw, wide, cu);
        }
        t0 += (int64_t)run; cnt -= run;
    }
}

#define ML_PK_KERNELS(SUF, ATTR, WIDE)                                                      \
    ATTR static void pk_comb_##SUF(unsigned q, uint64_t *v, const uint64_t *const *src,     \
                                   const uint8_t *c, int m, size_t bw)                      \
    { pk_comb_body(q, v, src, c, m, bw, WIDE, uniform_coef(c, m)); }                                            \
    ATTR static void pk_run_##SUF(unsigned q, uint64_t *V, size_t bw, int64_t mask,         \
                                  int64_t t0, size_t cnt, const int64_t *dl,                \
                                  const uint8_t *c, int nd)                                 \
    { pk_run_body(q, V, bw, mask, t0, cnt, dl, c, nd, WIDE); }

ML_PK_KERNELS(portable, , 0)
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ML_CHASE_X86 1
ML_PK_KERNELS(avx2, __attribute__((target("avx2"))), 0)
ML_PK_KERNELS(avx512, __attribute__((target("avx512f,avx512vl"))), 1)
#endif

typedef void (*pk_comb_fn)(unsigned, uint64_t *, const uint64_t *const *, const uint8_t *, int,
                           size_t);
typedef void (*pk_run_fn)(unsigned, uint64_t *, size_t, int64_t, int64_t, size_t,
                          const int64_t *, const uint8_t *, int);

/* 0..255 -> its 8 bits, one a byte (the low bit of each) */
static inline uint64_t spread8(uint64_t b) {
    b = (b | (b << 28)) & 0x0000000F0000000Full;
    b = (b | (b << 14)) & 0x0003000300030003ull;
    return (b | (b << 7)) & 0x0101010101010101ull;
}

/* Entries [0, len) of a packed vector (np planes of bw words) as bytes */
static void pk_unpack(const uint64_t *v, size_t bw, int np, size_t len, uint8_t *out) {
    size_t s = 0;
    for (; s + 8 <= len; s += 8) {
        uint64_t o = 0;
        for (int k = 0; k < np; k++) o |= spread8((v[k * bw + s / 64] >> (s % 64)) & 0xFF) << k;
        memcpy(out + s, &o, 8);
    }
    for (; s < len; s++) {
        unsigned x = 0;
        for (int k = 0; k < np; k++) x |= (unsigned)((v[k * bw + s / 64] >> (s % 64)) & 1) << k;
        out[s] = (uint8_t)x;
    }
}

/* One worker of the symbolic chase: blocks taken from a shared counter. */
typedef struct {
    const ml_chase *p;
    void *M;             /* residual matrix */
    size_t stride;       /* words (GF(2)) / bytes (Z/n) per row of M */
    size_t total;        /* words (GF(2), packed Z/n: a plane) / symbols (bytes) */
    size_t bw;           /* words (a plane) / symbols per block */
    int np;              /* Z/3, Z/4, Z/8 bit-sliced: planes (2, 3); 0: GF(2) or bytes */
    size_t kmax;         /* residual rows to compute: the first kmax (<= nres) */
    size_t nblocks;      /* blocks to run: list[0 .. nblocks) */
    const size_t *list;
    int *next;           /* shared counter into list */
    int status;
} sym_job;

typedef struct {
    const ml_chase *p;
    const sym_job *J;
    int gf2;
    int np;              /* bit-sliced Z/n: planes a slot (2, 3), 0 otherwise */
    size_t bw;           /* elements per slot (a plane): words (GF(2), packed) or bytes */
    void *V;             /* ring: K (stencil) or peak (lists) slots */
    int32_t *lo, *hi, *wlo, *whi;   /* stencil: per row, computed and written columns */
    size_t s0, s1;       /* symbols of the block */
    size_t e0, en;       /* elements of M written by the block: [e0, e0 + en) */
    /* Z/n */
    int32_t *acc;
    int small, nsubs;
    uint8_t subs[16];
    int32_t mnegL;
    float rn;
    const void **src;
    /* packed Z/n: the kernels of the SIMD path, the run's coefficients (dcf times
     * the forcing multiplier), a residual row before it becomes bytes */
    pk_comb_fn pcomb;
    pk_run_fn prun;
    uint8_t pkc[MAXC + 1];
    uint64_t *ptmp;
    int32_t qs[MAXC + 1];
    uint8_t cf[MAXC + 1];
    int us[MAXC + 1];
} sym_ctx;

/* The cone of the block's symbols (stencil): lo/hi the columns of each row whose
 * taps can depend on them, wlo/whi the columns anyone reads (zeroed if not in
 * lo/hi). Empty intervals have lo >= hi. */
static void cone(sym_ctx *X) {
    const ml_chase *p = X->p;
    const int h = p->h, w = p->w, A = p->A, E = p->E;
    int32_t *lo = X->lo, *hi = X->hi, *wlo = X->wlo, *whi = X->whi;
    for (int r = 0; r < h; r++) { lo[r] = w; hi[r] = 0; }
    for (size_t s = X->s0; s < X->s1; s++) {
        int r = (int)(p->symtile[s] / w), c = (int)(p->symtile[s] % w);
        if (c < lo[r]) lo[r] = c;
        if (c + 1 > hi[r]) hi[r] = c + 1;
    }
    for (int r = 0; r < h; r++) {
        int l = lo[r], u = hi[r];
        const int32_t *lx = p->clx + (size_t)p->erid[r] * (size_t)(A + 1);
        const int32_t *rx = p->crx + (size_t)p->erid[r] * (size_t)(A + 1);
        for (int d = 1; d <= A && d <= r; d++)
            if (lo[r - d] < hi[r - d] && lx[d] != NO_DEP) {
                l = imin(l, (int)imax64((int64_t)lo[r - d] - lx[d], -1));
                u = imax(u, (int)imin64((int64_t)hi[r - d] + rx[d], (int64_t)w + 1));
            }
        l = imax(l, 0); u = imin(u, w);
        /* a tap reading a tap of its own row (to its left): the rest of the row */
        if (l < u && lx[0] != NO_DEP) u = w;
        lo[r] = l; hi[r] = u;
    }
    for (int r = h - 1; r >= 0; r--) {
        int l = w, u = 0;
        if (lo[r] < hi[r]) { l = lo[r] - E; u = hi[r] + E; }
        for (int q = r + 1; q <= r + A && q < h; q++)
            if (lo[q] < hi[q]) { l = imin(l, lo[q] - E); u = imax(u, hi[q] + E); }
        if (p->rrlo[r] < p->rrhi[r]) { l = imin(l, p->rrlo[r]); u = imax(u, p->rrhi[r]); }
        wlo[r] = imax(l, 0); whi[r] = imin(u, w);
    }
}

/* Bytes of a slot of the ring. */
static inline size_t slot_bytes(const sym_ctx *X) {
    return X->bw * (X->gf2 ? sizeof(uint64_t) : X->np ? (size_t)X->np * sizeof(uint64_t) : 1);
}

/* Compute taps r * w + [a, b) of the block (every one of them). */
static void sym_cols(sym_ctx *X, int r, int a, int b) {
    const ml_chase *p = X->p;
    const int w = p->w, uL = p->uL;
    const size_t bw = X->bw;
    const int64_t mask = p->K - 1;
    const int32_t *er = EROW(p, r);
    int c0, c1;
    fast_cols(p, r, &c0, &c1);
    int col = a;
    while (col < b) {
        int32_t e = er[col];
        int64_t t = (int64_t)r * w + col;
        if (uL >= 0 && e == uL && col >= c0 && col < c1) {
            /* the run of taps forced by uL (a compare a tap: no per-row table, which
             * a board with locks would need for every row) */
            const int lim = imin(b, c1);
            int end = col + 1;
            while (end < lim && er[end] == uL) end++;
            if (X->gf2)
                gf2_run(X->V, bw, mask, t, (size_t)(end - col), p->delta, p->nd);
            else if (X->np)
                X->prun((unsigned)p->n, X->V, bw, mask, t, (size_t)(end - col), p->delta,
                        X->pkc, p->nd);
            else if (X->small)
                zn_run_small(X->V, bw, mask, t, (size_t)(end - col), p->delta, p->nd,
                             (uint8_t)p->n, X->subs, X->nsubs);
            else {
                uint8_t *V = X->V;
                for (int64_t q = t; q < t + (end - col); q++) {
                    for (int i = 0; i < p->nd; i++) X->src[i] = V + (size_t)((q + p->delta[i]) & mask) * bw;
                    zn_comb(V + (size_t)(q & mask) * bw, (const uint8_t *const *)X->src, p->dcf,
                            p->nd, X->mnegL, bw, X->acc, p->n, X->rn);
                }
            }
            col = end;
            continue;
        }
        if (e != -2) {
            size_t sl = slot_of(p, t);
            if (e >= 0) {
                int rc, cc;
                int64_t c = forcer(p, e, t, r, col, &rc, &cc);
                int m = gather(p, c, rc, cc, X->qs, X->cf, X->us) - 1;
                if (X->gf2) {
                    uint64_t *V = X->V;
                    for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * bw;
                    xor_many(V + sl * bw, (const uint64_t *const *)X->src, m, bw);
                } else if (X->np) {
                    uint64_t *V = X->V;
                    const size_t sw = (size_t)X->np * bw;
                    for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * sw;
                    /* x_p = -inv(a_p) * sum: the multiplier folded into the coefficients */
                    const unsigned mneg = (unsigned)(p->n - p->inv[X->cf[m]]) % (unsigned)p->n;
                    for (int i = 0; i < m; i++) X->cf[i] = (uint8_t)(X->cf[i] * mneg % (unsigned)p->n);
                    X->pcomb((unsigned)p->n, V + sl * sw, (const uint64_t *const *)X->src, X->cf,
                             m, bw);
                } else {
                    uint8_t *V = X->V;
                    for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * bw;
                    /* x_p = inv(a_p) * (-sum) */
                    int32_t mneg = (p->n - p->inv[X->cf[m]]) % p->n;
                    zn_comb(V + sl * bw, (const uint8_t *const *)X->src, X->cf, m, mneg, bw,
                            X->acc, p->n, X->rn);
                }
            } else {
                size_t s = (size_t)(p->symbase[r] + (-3 - e));
                if (X->gf2 || X->np) {       /* packed: the bit of plane 0 (value 1) */
                    uint64_t *v = (uint64_t *)X->V + sl * bw * (size_t)(X->np ? X->np : 1);
                    memset(v, 0, slot_bytes(X));
                    if (s >= X->s0 && s < X->s1) v[s / 64 - X->e0] = (uint64_t)1 << (s % 64);
                } else {
                    uint8_t *v = (uint8_t *)X->V + sl * bw;
                    memset(v, 0, bw);
                    if (s >= X->s0 && s < X->s1) v[s - X->s0] = 1;
                }
            }
        } else if (uL >= 0) {
            /* a locked tile or a hole: the fixed deltas of its neighbours read a zero */
            const size_t sz = slot_bytes(X);
            memset((uint8_t *)X->V + slot_of(p, t) * sz, 0, sz);
        }
        col++;
    }
}

/* Zero the slots of taps r * w + [a, b). */
static void sym_zero(sym_ctx *X, int r, int a, int b) {
    const ml_chase *p = X->p;
    const size_t sz = slot_bytes(X);
    for (int64_t t = (int64_t)r * p->w + a; t < (int64_t)r * p->w + b; t++)
        memset((uint8_t *)X->V + slot_of(p, t) * sz, 0, sz);
}

/* Residual row k of M, the block's elements. */
static void sym_event(sym_ctx *X, size_t k) {
    const ml_chase *p = X->p;
    const int w = p->w;
    const size_t bw = X->bw;
    int64_t c = p->restile[k];
    int m = p->resev[k] < 0 ? 0 : gather(p, c, (int)(c / w), (int)(c % w), X->qs, X->cf, X->us);
    if (X->gf2) {
        uint64_t *V = X->V;
        for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * bw;
        xor_many((uint64_t *)X->J->M + k * X->J->stride + X->e0, (const uint64_t *const *)X->src,
                 m, X->en);
    } else if (X->np) {
        uint64_t *V = X->V;
        const size_t sw = (size_t)X->np * bw;
        for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * sw;
        X->pcomb((unsigned)p->n, X->ptmp, (const uint64_t *const *)X->src, X->cf, m, bw);
        pk_unpack(X->ptmp, bw, X->np, X->s1 - X->s0,
                  (uint8_t *)X->J->M + k * X->J->stride + X->s0);
    } else {
        uint8_t *V = X->V;
        for (int i = 0; i < m; i++) X->src[i] = V + slot_of(p, X->qs[i]) * bw;
        zn_comb((uint8_t *)X->J->M + k * X->J->stride + X->e0, (const uint8_t *const *)X->src,
                X->cf, m, 1, X->en, X->acc, p->n, X->rn);
    }
}

static void sym_block(sym_ctx *X, size_t blk) {
    const ml_chase *p = X->p;
    const sym_job *J = X->J;
    const int h = p->h, w = p->w;
    const size_t nres = J->kmax;        /* the pass stops after the last row asked for */
    X->e0 = blk * X->bw;
    X->en = J->total - X->e0 < X->bw ? J->total - X->e0 : X->bw;
    if (X->gf2 || X->np) {
        X->s0 = X->e0 * 64;
        X->s1 = (X->e0 + X->en) * 64;
        if (X->s1 > p->nsym) X->s1 = p->nsym;
    } else {
        X->s0 = X->e0;
        X->s1 = X->e0 + X->en;
    }
    size_t k = 0;
    while (k < nres && p->resev[k] < 0) sym_event(X, k++);
    if (p->stencil) {
        cone(X);
        for (int r = 0; r < h; r++) {
            if (ml_interrupt_poll()) return;     /* Ctrl-C: sym_worker sees it too */
            int a = X->wlo[r], b = X->whi[r];
            if (a < b) {
                int lo = X->lo[r], hi = X->hi[r];
                if (lo >= hi) sym_zero(X, r, a, b);
                else {
                    sym_zero(X, r, a, imin(lo, b));
                    sym_zero(X, r, imax(hi, a), b);
                    sym_cols(X, r, lo, hi);
                }
            }
            const int64_t end = (int64_t)(r + 1) * w;
            while (k < nres && p->resev[k] < end) sym_event(X, k++);
            if (k >= nres) return;
        }
        return;
    }
    /* lists: slots are freed right after their last use, so residual tiles are
     * evaluated right after their last tap */
    for (int r = 0; r < h; r++) {
        if (ml_interrupt_poll()) return;         /* Ctrl-C: sym_worker sees it too */
        int col = 0;
        const int64_t base = (int64_t)r * w;
        while (col < w) {
            int end = w;
            if (k < nres && p->resev[k] < base + w) end = (int)(p->resev[k] - base) + 1;
            if (end > col) { sym_cols(X, r, col, end); col = end; }
            while (k < nres && p->resev[k] < base + col) sym_event(X, k++);
        }
        if (k >= nres) return;
    }
}

static void *sym_worker(void *arg) {
    sym_job *J = arg;
    const ml_chase *p = J->p;
    sym_ctx *X = calloc(1, sizeof *X);
    if (!X) { J->status = 2; return NULL; }
    X->p = p;
    X->J = J;
    X->gf2 = p->n == 2;
    X->np = J->np;
    X->bw = J->bw;
    const size_t esz = slot_bytes(X) / X->bw;
    const size_t slots = p->stencil ? (size_t)p->K : p->peak + 1;
    size_t vbytes = (slots * X->bw * esz + 63) / 64 * 64;
    X->V = aligned_alloc(64, vbytes ? vbytes : 64);
    X->src = malloc((MAXC + 1) * sizeof(void *));
    X->acc = malloc((X->bw + 1) * sizeof(int32_t));
    X->ptmp = aligned_alloc(64, ((size_t)(X->np ? X->np : 1) * X->bw * 8 + 63) / 64 * 64);
    if (p->stencil) {
        X->lo = malloc((size_t)p->h * 4 * sizeof(int32_t));
        if (X->lo) { X->hi = X->lo + p->h; X->wlo = X->hi + p->h; X->whi = X->wlo + p->h; }
    }
    if (!X->V || !X->src || !X->acc || !X->ptmp || (p->stencil && !X->lo)) {
        J->status = 2;
        goto done;
    }
    if (!X->gf2) {
        const int32_t n = p->n, uL = p->uL, nd = p->nd;
        X->rn = 1.0f / (float)n;
        X->mnegL = uL >= 0 ? (n - p->inv[p->cmod[uL]]) % n : 0;
        /* uint8 fast path: every coefficient 1 (so the forcing multiplier is -1) */
        int small = uL >= 0 && p->cmod[uL] == 1 && nd * (n - 1) <= 255;
        for (int i = 0; i < nd && small; i++) small = p->dcf[i] == 1;
        if (small) {
            int c = 0;
            while ((1 << c) < nd) c++;
            for (int i = c - 1; i >= 0; i--) {
                if (n * (1 << i) > 255) { small = 0; break; }
                X->subs[X->nsubs++] = (uint8_t)(n * (1 << i));
            }
        }
        X->small = small && !X->np;
        for (int i = 0; i < nd; i++) X->pkc[i] = (uint8_t)(p->dcf[i] * X->mnegL % n);
#ifdef ML_CHASE_X86
        const int path = ml_simd_get();
        X->pcomb = path >= ML_SIMD_AVX512 ? pk_comb_avx512 : path >= ML_SIMD_AVX2 ? pk_comb_avx2
                                                                                : pk_comb_portable;
        X->prun = path >= ML_SIMD_AVX512 ? pk_run_avx512 : path >= ML_SIMD_AVX2 ? pk_run_avx2
                                                                             : pk_run_portable;
#else
        X->pcomb = pk_comb_portable;
        X->prun = pk_run_portable;
#endif
    }
    J->status = 0;
    for (;;) {
        /* Ctrl-C (interrupt.h): a block is one pass over the board, at most ~0.2 s */
        if (ml_interrupt_poll()) { J->status = 3; break; }
        size_t i = (size_t)__atomic_fetch_add(J->next, 1, __ATOMIC_RELAXED);
        if (i >= J->nblocks) break;
        sym_block(X, J->list[i]);
    }
done:
    free(X->V); free(X->src); free(X->acc); free(X->ptmp); free(X->lo); free(X);
    return NULL;
}

static size_t env_size(const char *name, size_t dflt) {
    const char *s = getenv(name);
    if (!s || !*s) return dflt;
    long v = strtol(s, NULL, 10);
    return v > 0 ? (size_t)v : dflt;
}

static int run_jobs(const ml_chase *p, void *M, size_t kmax, size_t total, size_t stride,
                    size_t bw, int threads, int np) {
    /* the mirror image of a row of a prefix may lie outside it */
    const int32_t *msym = kmax == p->nres ? p->msym : NULL;
    if (threads < 1) threads = 1;
    if (threads > 16) threads = 16;
    size_t nblocks = (total + bw - 1) / bw;
    /* with a mirror symmetry only the blocks holding a symbol s <= msym[s] are run */
    size_t *list = malloc((nblocks + 1) * sizeof(size_t));
    if (!list) return 2;
    size_t nrun = 0;
    const size_t per = p->n == 2 || np ? bw * 64 : bw;    /* symbols per block */
    for (size_t b = 0; b < nblocks; b++) {
        int need = 1;
        if (msym) {
            need = 0;
            size_t s1 = (b + 1) * per < p->nsym ? (b + 1) * per : p->nsym;
            for (size_t s = b * per; s < s1 && !need; s++) need = (size_t)msym[s] >= s;
        }
        if (need) list[nrun++] = b;
    }
    if ((size_t)threads > nrun) threads = (int)nrun;
    if (threads < 1) threads = 1;
    sym_job jobs[16];
    pthread_t tid[16];
    int started[16] = {0};
    int next = 0;
    for (int i = 0; i < threads; i++) {
        jobs[i].p = p;
        jobs[i].M = M;
        jobs[i].stride = stride;
        jobs[i].total = total;
        jobs[i].bw = bw;
        jobs[i].np = np;
        jobs[i].kmax = kmax;
        jobs[i].nblocks = nrun;
        jobs[i].list = list;
        jobs[i].next = &next;
        jobs[i].status = 0;
    }
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, sym_worker, &jobs[i]) == 0;
    sym_worker(&jobs[0]);
    int st = jobs[0].status;
    for (int i = 1; i < threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        if (jobs[i].status) st = jobs[i].status;
    }
    /* the skipped blocks from their mirror images */
    if (!st && msym) {
        size_t li = 0;
        for (size_t b = 0; b < nblocks; b++) {
            if (li < nrun && list[li] == b) { li++; continue; }
            size_t s1 = (b + 1) * per < p->nsym ? (b + 1) * per : p->nsym;
            for (size_t k = 0; k < p->nres; k++) {
                size_t k2 = (size_t)p->mres[k];
                if (p->n == 2) {
                    uint64_t *row = (uint64_t *)M + k * stride;
                    const uint64_t *src = (const uint64_t *)M + k2 * stride;
                    for (size_t s = b * per; s < s1; s++) {
                        size_t q = (size_t)msym[s];
                        uint64_t bit = (src[q / 64] >> (q % 64)) & 1u;
                        row[s / 64] = (row[s / 64] & ~((uint64_t)1 << (s % 64))) | (bit << (s % 64));
                    }
                } else {
                    uint8_t *row = (uint8_t *)M + k * stride;
                    const uint8_t *src = (const uint8_t *)M + k2 * stride;
                    for (size_t s = b * per; s < s1; s++) row[s] = src[msym[s]];
                }
            }
        }
    }
    free(list);
    return st;
}

/* Default blocks (measured on 2-core AVX2 machine, cross boards): GF(2) 8 words (512
 * symbols, two AVX2 registers a tap: 10000^2 symbolic chase 1.55 s vs 1.65 s with 4
 * words and 1.9 s with 16), Z/n 256 symbols (3000^2 over Z/3: 0.56 s vs 1.13 s with
 * 64, 0.64 s with 512); MODLIGHTS_CHASE_BW / MODLIGHTS_CHASE_BZ override them. */
int ml_chase_matrix_gf2_rows(const ml_chase *p, uint64_t *M, size_t rows, int threads,
                             size_t block) {
    size_t nw = (p->nsym + 63) / 64;
    if (rows > p->nres) rows = p->nres;
    if (nw == 0 || rows == 0) return 0;
    if (!block) block = env_size("MODLIGHTS_CHASE_BW", 8);
    return run_jobs(p, M, rows, nw, nw, block, threads, 0);
}

int ml_chase_matrix_zn_mode(const ml_chase *p, uint8_t *M, size_t rows, int threads,
                            size_t block, int packed) {
    if (rows > p->nres) rows = p->nres;
    if (p->nsym == 0 || rows == 0) return 0;
    const int np = packed ? packed_planes(p->n) : 0;
    if (np) {
        const size_t bw = block ? (block + 63) / 64 : env_size("MODLIGHTS_CHASE_BP", 8);
        return run_jobs(p, M, rows, (p->nsym + 63) / 64, p->nsym, bw, threads, np);
    }
    if (!block) block = env_size("MODLIGHTS_CHASE_BZ", 256);
    return run_jobs(p, M, rows, p->nsym, p->nsym, block, threads, 0);
}

int ml_chase_matrix_zn_rows(const ml_chase *p, uint8_t *M, size_t rows, int threads,
                            size_t block) {
    return ml_chase_matrix_zn_mode(p, M, rows, threads, block, 1);
}

int ml_chase_matrix_gf2(const ml_chase *p, uint64_t *M, int threads, size_t block) {
    return ml_chase_matrix_gf2_rows(p, M, p->nres, threads, block);
}

int ml_chase_matrix_zn(const ml_chase *p, uint8_t *M, int threads, size_t block) {
    return ml_chase_matrix_zn_rows(p, M, p->nres, threads, block);
}

/* ------------------------------------------------------------------ GF(2) by echelon form */
/* [M | R^T] packed (gf2.h), M: rows x cols packed with stride nw = ceil(cols/64). */
static ml_gf2_t *pack_aug(const uint64_t *M, size_t rows, size_t cols, const uint8_t *R,
                          size_t k) {
    ml_gf2_t *W = ml_gf2_new(rows, cols + k);
    if (!W) return NULL;
    const size_t nw = (cols + 63) / 64;
    for (size_t i = 0; i < rows; i++) {
        uint64_t *w = ml_gf2_row(W, i);
        if (nw) memcpy(w, M + i * nw, nw * sizeof(uint64_t));
        if (cols % 64 && nw) w[nw - 1] &= ((uint64_t)1 << (cols % 64)) - 1;
        for (size_t j = 0; j < k; j++)
            if (R[j * rows + i] & 1) w[(cols + j) / 64] |= (uint64_t)1 << ((cols + j) % 64);
    }
    return W;
}

/* z (packed, cols bits) from the echelon rows: z[piv[i]] = rhs_i ^ <row i, z>, bottom
 * up; free variables as already set in z. rhs_i: bit `col` of row i (or 0 if col ==
 * (size_t)-1). */
static void back_sub(const ml_gf2_t *W, size_t rank, const size_t *piv, size_t cols, size_t col,
                     uint64_t *z) {
    const size_t nw = (cols + 63) / 64;
    for (size_t ii = rank; ii-- > 0;) {
        const uint64_t *w = ml_gf2_row(W, ii);
        const size_t p0 = piv[ii] / 64;
        uint64_t acc = 0;
        for (size_t j = p0; j < nw; j++) acc ^= w[j] & z[j];
        unsigned bit = (unsigned)__builtin_parityll(acc);
        if (col != (size_t)-1) bit ^= (unsigned)((w[col / 64] >> (col % 64)) & 1u);
        z[p0] = (z[p0] & ~((uint64_t)1 << (piv[ii] % 64))) | ((uint64_t)bit << (piv[ii] % 64));
    }
}

size_t ml_res_gf2_solve(const uint64_t *M, size_t rows, size_t cols, const uint8_t *R, size_t k,
                        uint8_t *Z, uint8_t *ok) {
    ml_gf2_t *W = pack_aug(M, rows, cols, R, k);
    const size_t mx = rows < cols ? rows : cols;
    size_t *piv = malloc((mx + 1) * sizeof(size_t));
    const size_t nw = (cols + 63) / 64;
    uint64_t *z = calloc(nw + 1, sizeof(uint64_t));
    if (!W || !piv || !z) { ml_gf2_free(W); free(piv); free(z); return (size_t)-1; }
    size_t rank = ml_gf2_echelonize(W, 0, cols, piv);
    if (rank == (size_t)-1) { ml_gf2_free(W); free(piv); free(z); return rank; }
    /* the columns of M inside the last word are masked so that the right-hand side
     * bits sharing that word do not enter the dot products */
    const uint64_t last = cols % 64 ? ((uint64_t)1 << (cols % 64)) - 1 : ~(uint64_t)0;
    for (size_t j = 0; j < k; j++) {
        const size_t col = cols + j;
        int good = 1;
        for (size_t i = rank; i < rows && good; i++)
            good = !((ml_gf2_row(W, i)[col / 64] >> (col % 64)) & 1u);
        ok[j] = (uint8_t)good;
        uint8_t *zj = Z + j * cols;
        if (!good) { memset(zj, 0, cols); continue; }
        memset(z, 0, (nw + 1) * sizeof(uint64_t));
        for (size_t ii = rank; ii-- > 0;) {
            const uint64_t *w = ml_gf2_row(W, ii);
            const size_t p0 = piv[ii] / 64;
            uint64_t acc = 0;
            for (size_t q = p0; q + 1 < nw; q++) acc ^= w[q] & z[q];
            acc ^= w[nw - 1] & last & z[nw - 1];      /* p0 <= nw - 1 */
            unsigned bit = (unsigned)__builtin_parityll(acc) ^ (unsigned)((w[col / 64] >> (col % 64)) & 1u);
            z[p0] |= (uint64_t)bit << (piv[ii] % 64);
        }
        for (size_t c = 0; c < cols; c++) zj[c] = (uint8_t)((z[c / 64] >> (c % 64)) & 1u);
    }
    ml_gf2_free(W); free(piv); free(z);
    return rank;
}

size_t ml_res_gf2_kernel(const uint64_t *M, size_t rows, size_t cols, uint8_t **K) {
    *K = NULL;
    ml_gf2_t *W = pack_aug(M, rows, cols, NULL, 0);
    const size_t mx = rows < cols ? rows : cols;
    size_t *piv = malloc((mx + 1) * sizeof(size_t));
    const size_t nw = (cols + 63) / 64;
    uint64_t *z = calloc(nw + 1, sizeof(uint64_t));
    uint8_t *isp = calloc(cols + 1, 1);
    if (!W || !piv || !z || !isp) goto oom;
    size_t rank = ml_gf2_echelonize(W, 0, cols, piv);
    if (rank == (size_t)-1) goto oom;
    size_t null = cols - rank;
    *K = malloc(null * cols + 1);
    if (!*K) goto oom;
    for (size_t i = 0; i < rank; i++) isp[piv[i]] = 1;
    size_t f = 0;
    for (size_t c = 0; c < cols; c++) {
        if (isp[c]) continue;
        memset(z, 0, (nw + 1) * sizeof(uint64_t));
        z[c / 64] = (uint64_t)1 << (c % 64);
        back_sub(W, rank, piv, cols, (size_t)-1, z);
        uint8_t *kv = *K + f * cols;
        for (size_t q = 0; q < cols; q++) kv[q] = (uint8_t)((z[q / 64] >> (q % 64)) & 1u);
        f++;
    }
    ml_gf2_free(W); free(piv); free(z); free(isp);
    return null;
oom:
    ml_gf2_free(W); free(piv); free(z); free(isp); free(*K); *K = NULL;
    return (size_t)-1;
}
