/* plan.c: the plan of a light chase (see chase.h), and what rowchase.c reads of it.
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
#include "chase/chase_impl.h"
#include "base/interrupt.h"

#include <stdlib.h>
#include <string.h>

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

/* The span of the stencil's offsets (rows dr, columns dc). */
typedef struct { int mindr, maxdr, mindc, maxdc; } plan_span;

/* Counts and capacities kept while a plan is built. */
typedef struct {
    size_t symcap, poolcap, rescap;   /* capacities of symtile, epool (rows), restile */
    size_t ntaps, nactive, nforced;   /* tappable tiles, active tiles, forced taps */
} plan_count;

/* p->inv[a]: the inverse of a mod n, 0 for a non-unit. */
static void plan_inverses(ml_chase *p) {
    const int n = p->n;
    for (int a = 1; a < n; a++)
        if (gcd_u((unsigned)a, (unsigned)n) == 1)
            for (int b = 1; b < n; b++)
                if ((a * b) % n == 1) { p->inv[a] = (uint8_t)b; break; }
}

/* Stencil step 1: the offsets that can land on the board (flat offsets, coefficients mod
 * n per pattern), their span, the ring size K, and the interior fast path of a uniform
 * pattern (the forcing offset uL and the other taps' deltas). 1 when done, 0 on failure
 * (*err set: 1 bad offsets, 2 out of memory). */
static int plan_offsets(ml_chase *p, const uint8_t *tappable, int nu, const int32_t *udr,
                        const int32_t *udc, int npat, const int32_t *cnt,
                        const int32_t *pat_of, plan_span *sp, int *err) {
    const int h = p->h, w = p->w, n = p->n;
    const size_t hw = p->hw;
    /* keep the offsets that can land on the board; they are sorted descending by
     * (dr, dc) by the caller, so flat offsets are descending too */
    p->udr = malloc((size_t)(nu + 1) * sizeof(int32_t));
    p->udc = malloc((size_t)(nu + 1) * sizeof(int32_t));
    p->duf = malloc((size_t)(nu + 1) * sizeof(int64_t));
    p->cmod = malloc((size_t)npat * (size_t)(nu + 1));
    if (!p->udr || !p->udc || !p->duf || !p->cmod) return 0;
    int k = 0;
    for (int u = 0; u < nu; u++) {
        if (udr[u] <= -h || udr[u] >= h || udc[u] <= -w || udc[u] >= w) continue;
        if (u > 0 && (udr[u] > udr[u - 1] || (udr[u] == udr[u - 1] && udc[u] >= udc[u - 1]))) {
            *err = 1;
            return 0;
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
        if (!p->tap) return 0;
        memcpy(p->tap, tappable, hw);
    }
    if (npat > 1) {
        p->pat_of = malloc(hw * sizeof(int32_t));
        if (!p->pat_of) return 0;
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
    sp->mindr = mindr; sp->maxdr = maxdr; sp->mindc = mindc; sp->maxdc = maxdc;
    p->A = maxdr - mindr;
    p->E = maxdc - mindc;
    /* ring of a power of two >= fmax - fmin + w + 1 slots (slot = tap & (K - 1));
     * the extra row lets residual tiles be evaluated once per row */
    p->K = 1;
    while (p->K < fmax - fmin + 1 + w) p->K *= 2;
    p->emin = fmin;
    /* interior fast path */
    p->zu = malloc((size_t)(k + 1) * sizeof(int));
    if (!p->zu) return 0;
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
    if (!p->delta || !p->dcf || !p->dnear) return 0;
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
    return 1;
}

/* Stencil step 2: forcing and residual tiles in one pass over the tiles, with a window of
 * tap rows; finished tap rows go to the row pool (finish_row). 1 when done, 0 when out
 * of memory. */
static int plan_stencil_pass(ml_chase *p, const uint8_t *active, const uint8_t *tappable,
                             const plan_span *sp, plan_count *pc) {
    const int h = p->h, w = p->w;
    const size_t hw = p->hw;
    int32_t qs[MAXC + 1];
    uint8_t cf[MAXC + 1];
    int us[MAXC + 1];
    /* forcing and residual tiles in one pass over the tiles, with a window of
     * tap rows [r - sp->maxdr, r - sp->mindr]: a tap row is finished once the tile row
     * sp->maxdr below it is done */
    const int WN = p->A + 2;
    int32_t *win = malloc((size_t)WN * (size_t)w * sizeof(int32_t));
    if (!win) return 0;
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
        for (; next_fin < h && next_fin <= r - 1 - sp->maxdr; next_fin++) {
            if (next_fin >= next_init) { INIT_ROW(next_fin); next_init = next_fin + 1; }
            if (!finish_row(p, next_fin, WROW(next_fin), &pc->symcap, &pc->poolcap)) { free(win); return 0; }
        }
        for (; next_init < h && next_init <= r - sp->mindr; next_init++) INIT_ROW(next_init);
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
                pc->nforced += (size_t)(cc - c);
                pc->nactive += (size_t)(cc - c);
                t += (size_t)(cc - c - 1);
                c = cc - 1;
                continue;
            }
            if (!ACTIVE(t)) continue;
            pc->nactive++;
            if (interior_row && c >= p->clo && c < p->chi && tgt[c] != -2) {
                int32_t *e = tgt + c;
                if (*e == -1) { *e = p->uL; pc->nforced++; continue; }
                m = p->nz;
            } else {
                m = gather(p, (int64_t)t, r, c, qs, cf, us);
                if (m) {
                    int32_t L = qs[m - 1];
                    int32_t *e = WROW(L / w) + (L % w);
                    if (*e == -1 && p->inv[cf[m - 1]]) { *e = us[m - 1]; pc->nforced++; continue; }
                }
            }
            int64_t ev = (int64_t)t - p->emin;
            if (ev >= (int64_t)hw) ev = (int64_t)hw - 1;
            if (!m) ev = -1;
            /* keep events non-decreasing in tile order */
            if (p->nres && ev < p->resev[p->nres - 1]) ev = p->resev[p->nres - 1];
            size_t c2 = pc->rescap;
            if (!push_i64(&p->restile, &pc->rescap, p->nres, (int64_t)t)) { free(win); return 0; }
            if (pc->rescap != c2) {
                int64_t *a = realloc(p->resev, pc->rescap * sizeof(int64_t));
                if (!a) { free(win); return 0; }
                p->resev = a;
            }
            p->resev[p->nres++] = ev;
        }
    }
    for (; next_fin < h; next_fin++) {
        if (next_fin >= next_init) { INIT_ROW(next_fin); next_init = next_fin + 1; }
        if (!finish_row(p, next_fin, WROW(next_fin), &pc->symcap, &pc->poolcap)) { free(win); return 0; }
    }
#undef WROW
#undef INIT_ROW
    free(win);
    return 1;
}

/* Stencil step 3: the columns of each tap row that residual tiles read. 1 when done, 0
 * when out of memory. */
static int plan_residual_reads(ml_chase *p, const plan_span *sp) {
    const int h = p->h, w = p->w;
    /* the columns of each tap row read by residual tiles */
    p->rrlo = malloc((size_t)h * sizeof(int32_t));
    p->rrhi = malloc((size_t)h * sizeof(int32_t));
    if (!p->rrlo || !p->rrhi) return 0;
    for (int r = 0; r < h; r++) { p->rrlo[r] = w; p->rrhi[r] = 0; }
    for (size_t i = 0; i < p->nres; i++) {
        int rr = (int)(p->restile[i] / w), cc = (int)(p->restile[i] % w);
        int a = imax(0, cc - sp->maxdc), b = imin(w, cc - sp->mindc + 1);
        for (int R = imax(0, rr - sp->maxdr); R <= imin(h - 1, rr - sp->mindr); R++) {
            if (a < p->rrlo[R]) p->rrlo[R] = a;
            if (b > p->rrhi[R]) p->rrhi[R] = b;
        }
    }
    return 1;
}

/* Lists step 1 (wrap): the forcing tap of every tile (its last tap when that is free
 * and its coefficient a unit) and the symbols (the taps nothing forces), by row. 1 when
 * done, 0 when out of memory. */
static int plan_lists_forcing(ml_chase *p, const uint8_t *active, const uint8_t *tappable,
                              plan_count *pc) {
    const int h = p->h, w = p->w;
    const size_t hw = p->hw;
    int32_t *enc = p->epool = malloc(hw * sizeof(int32_t) + 1);
    if (!enc) return 0;
    p->npool = (size_t)h;
    for (int r = 0; r < h; r++) p->erid[r] = r;
    for (size_t q = 0; q < hw; q++) { enc[q] = TAPPABLE(q) ? -1 : -2; pc->ntaps += TAPPABLE(q) ? 1 : 0; }
    for (size_t q = 0; q < hw; q++) {
        if (!ACTIVE(q)) continue;
        pc->nactive++;
        int64_t a = p->cstart[q], b = p->cstart[q + 1];
        if (a == b) continue;
        int32_t L = p->ctap[b - 1];
        if (enc[L] == -1 && p->inv[p->ccoef[b - 1]]) { enc[L] = (int32_t)q; pc->nforced++; }
    }
    for (size_t q = 0; q < hw; q++) {
        if (q % (size_t)w == 0) p->symbase[q / (size_t)w] = (int64_t)p->nsym;
        if (enc[q] == -1) {
            if (!push_i64(&p->symtile, &pc->symcap, p->nsym, (int64_t)q)) return 0;
            enc[q] = -3 - (int32_t)(p->nsym++ - (size_t)p->symbase[q / (size_t)w]);
        }
    }
    return 1;
}

/* Lists step 2: the residual tiles (those that force no tap) ordered by their last tap
 * (counting sort), with the tap after which each can be evaluated. 1 when done, 0 when
 * out of memory. */
static int plan_lists_residuals(ml_chase *p, const uint8_t *active, plan_count *pc) {
    const size_t hw = p->hw;
    const int32_t *enc = p->epool;
    p->nres = pc->nactive - pc->nforced;
    p->restile = malloc((p->nres + 1) * sizeof(int64_t));
    p->resev = malloc((p->nres + 1) * sizeof(int64_t));
    if (!p->restile || !p->resev) return 0;
    /* residual tiles ordered by last tap (counting sort) */
    int64_t *cntk = calloc(hw + 2, sizeof(int64_t));
    if (!cntk) return 0;
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
    return 1;
}

/* Lists step 3: live ranges of the taps -> ring slots (a slot is reused once its tap
 * is last read); p->peak slots. 1 when done, 0 when out of memory. */
static int plan_lists_slots(ml_chase *p, const uint8_t *tappable, const plan_count *pc) {
    const size_t hw = p->hw;
    /* live ranges -> slots */
    int64_t *lastuse = malloc(hw * sizeof(int64_t));
    p->slot = malloc(hw * sizeof(int32_t));
    if (!lastuse || !p->slot) { free(lastuse); return 0; }
    for (size_t q = 0; q < hw; q++) lastuse[q] = (int64_t)q;
    for (size_t q = 0; q < hw; q++) {
        int64_t a = p->cstart[q], b = p->cstart[q + 1];
        if (a == b) continue;
        int64_t L = p->ctap[b - 1];
        for (int64_t e2 = a; e2 < b; e2++)
            if (lastuse[p->ctap[e2]] < L) lastuse[p->ctap[e2]] = L;
    }
    int64_t *fs = calloc(hw + 1, sizeof(int64_t));
    int32_t *ft = malloc((pc->ntaps + 1) * sizeof(int32_t));
    int32_t *stack = malloc((pc->ntaps + 1) * sizeof(int32_t));
    if (!fs || !ft || !stack) { free(fs); free(ft); free(stack); free(lastuse); return 0; }
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
    plan_inverses(p);
    plan_count pc = {0};
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
    if (p->stencil && (tappable || active)) {
        /* rows with locked tiles or holes differ from the row before: room for every
         * row at once (pages untouched until used), trimmed after the pass */
        p->epool = malloc((size_t)h * (size_t)w * sizeof(int32_t));
        if (!p->epool) goto fail;
        pc.poolcap = (size_t)h;
    }

    if (p->stencil) {
        plan_span sp;
        if (!plan_offsets(p, tappable, nu, udr, udc, npat, cnt, pat_of, &sp, err)) goto fail;
        if (!plan_stencil_pass(p, active, tappable, &sp, &pc)) goto fail;
        if (pc.poolcap > p->npool) {
            int32_t *a = realloc(p->epool, (p->npool ? p->npool : 1) * (size_t)w * sizeof(int32_t));
            if (a) p->epool = a;
        }
        if (!tappable) pc.ntaps = hw;
        else for (size_t q = 0; q < hw; q++) pc.ntaps += tappable[q] ? 1 : 0;
        if (!cone_reach(p)) goto fail;
        if (!plan_residual_reads(p, &sp)) goto fail;
        p->peak = (size_t)p->K;
        if (!find_mirror(p)) goto fail;
    } else {
        int e = build_lists(p, active, tappable, nu, udr, udc, npat, cnt, pat_of);
        if (e) goto fail;
        if (!plan_lists_forcing(p, active, tappable, &pc)) goto fail;
        if (!plan_lists_residuals(p, active, &pc)) goto fail;
        if (!plan_lists_slots(p, tappable, &pc)) goto fail;
    }
    if (p->nsym + pc.nforced != pc.ntaps || p->nres + pc.nforced != pc.nactive) goto fail;
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

