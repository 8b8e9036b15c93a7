/* chase.c: generalised light chasing for grid boards (see chase.h). */
#include "chase.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ml_chase {
    int h, w, n, wrap;
    size_t hw;
    int64_t *cstart;   /* hw + 1: affecting taps of tile c are ctap[cstart[c]..cstart[c+1]) */
    int32_t *ctap;     /* flat tile index of the tap, ascending within a tile */
    uint8_t *ccoef;    /* coefficient mod n, non-zero */
    int32_t *force;    /* hw: forcing tile of tap p, -1 symbol, -2 not a tap */
    int32_t *symof;    /* hw: symbol index of tap p or -1 */
    int32_t *slot;     /* hw: slot holding tap p's symbolic vector while it is live */
    size_t nsym, nres, peak;
    int64_t *symtile;  /* nsym */
    int64_t *restile;  /* nres, in event order (by last tap, then tile) */
    int64_t *resstart; /* hw + 2: residual tiles with last tap p-1 .. (index p+1; 0: none) */
    uint8_t inv[256];  /* inverse of units mod n, 0 for non-units */
};

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

size_t ml_chase_nsym(const ml_chase *p) { return p->nsym; }
size_t ml_chase_nres(const ml_chase *p) { return p->nres; }
size_t ml_chase_peak_live(const ml_chase *p) { return p->peak; }

void ml_chase_symbols(const ml_chase *p, int64_t *out) {
    if (p->nsym) memcpy(out, p->symtile, p->nsym * sizeof(int64_t));
}
void ml_chase_residual_tiles(const ml_chase *p, int64_t *out) {
    if (p->nres) memcpy(out, p->restile, p->nres * sizeof(int64_t));
}

void ml_chase_free(ml_chase *p) {
    if (!p) return;
    free(p->cstart); free(p->ctap); free(p->ccoef); free(p->force); free(p->symof);
    free(p->slot); free(p->symtile); free(p->restile); free(p->resstart);
    free(p);
}

/* ------------------------------------------------------------------ plan */
ml_chase *ml_chase_plan(int h, int w, int n, int wrap, const uint8_t *active,
                        const uint8_t *tappable, int nu, const int32_t *udr,
                        const int32_t *udc, int npat, const int32_t *cnt,
                        const int32_t *pat_of, int *err) {
    *err = 1;
    if (h < 1 || w < 1 || n < 2 || n > 255 || nu < 0 || npat < 1) return NULL;
    if (npat > 1 && !pat_of) return NULL;
    *err = 2;
    ml_chase *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->h = h; p->w = w; p->n = n; p->wrap = wrap;
    size_t hw = (size_t)h * (size_t)w;
    p->hw = hw;
    for (int a = 1; a < n; a++)
        if (gcd_u((unsigned)a, (unsigned)n) == 1)
            for (int b = 1; b < n; b++)
                if ((a * b) % n == 1) { p->inv[a] = (uint8_t)b; break; }

    size_t cap = hw * (size_t)(nu < 5 ? 5 : (nu > 16 ? 16 : nu)) + 16;
    p->cstart = malloc((hw + 1) * sizeof(int64_t));
    p->ctap = malloc(cap * sizeof(int32_t));
    p->ccoef = malloc(cap);
    p->force = malloc(hw * sizeof(int32_t));
    p->symof = malloc(hw * sizeof(int32_t));
    p->slot = malloc(hw * sizeof(int32_t));
    int64_t *lastuse = malloc(hw * sizeof(int64_t));
    int32_t *tmpq = malloc((size_t)(nu + 1) * sizeof(int32_t));
    int32_t *tmpc = malloc((size_t)(nu + 1) * sizeof(int32_t));
    if (!p->cstart || !p->ctap || !p->ccoef || !p->force || !p->symof || !p->slot ||
        !lastuse || !tmpq || !tmpc)
        goto fail;

    /* 1. the affecting taps of every active tile, ascending, merged, mod n */
    size_t nnz = 0;
    for (int r = 0; r < h; r++) {
        for (int c = 0; c < w; c++) {
            size_t t = (size_t)r * w + c;
            p->cstart[t] = (int64_t)nnz;
            if (!active[t]) continue;
            int k = 0;
            for (int u = 0; u < nu; u++) {
                long qr = (long)r - udr[u], qc = (long)c - udc[u];
                if (wrap) {
                    qr %= h; if (qr < 0) qr += h;
                    qc %= w; if (qc < 0) qc += w;
                } else if (qr < 0 || qr >= h || qc < 0 || qc >= w) {
                    continue;
                }
                size_t q = (size_t)qr * w + (size_t)qc;
                if (!tappable[q]) continue;
                int32_t m = cnt[(size_t)(npat > 1 ? pat_of[q] : 0) * nu + u];
                if (m <= 0) continue;
                /* insert sorted by q, merging */
                int i = k;
                while (i > 0 && tmpq[i - 1] > (int32_t)q) i--;
                if (i > 0 && tmpq[i - 1] == (int32_t)q) { tmpc[i - 1] += m; continue; }
                memmove(tmpq + i + 1, tmpq + i, (size_t)(k - i) * sizeof(int32_t));
                memmove(tmpc + i + 1, tmpc + i, (size_t)(k - i) * sizeof(int32_t));
                tmpq[i] = (int32_t)q; tmpc[i] = m; k++;
            }
            if (nnz + (size_t)k > cap) {
                size_t nc = cap * 2 + (size_t)k;
                int32_t *a = realloc(p->ctap, nc * sizeof(int32_t));
                if (!a) goto fail;
                p->ctap = a;
                uint8_t *b = realloc(p->ccoef, nc);
                if (!b) goto fail;
                p->ccoef = b;
                cap = nc;
            }
            for (int i = 0; i < k; i++) {
                int32_t m = tmpc[i] % n;
                if (!m) continue;
                p->ctap[nnz] = tmpq[i];
                p->ccoef[nnz] = (uint8_t)m;
                nnz++;
            }
        }
    }
    p->cstart[hw] = (int64_t)nnz;

    /* 2. forcing tiles */
    for (size_t t = 0; t < hw; t++) { p->force[t] = tappable[t] ? -1 : -2; p->symof[t] = -1; }
    size_t nforced = 0, nactive = 0;
    for (size_t t = 0; t < hw; t++) {
        if (!active[t]) continue;
        nactive++;
        int64_t a = p->cstart[t], b = p->cstart[t + 1];
        if (a == b) continue;
        int32_t L = p->ctap[b - 1];
        if (p->force[L] == -1 && p->inv[p->ccoef[b - 1]]) { p->force[L] = (int32_t)t; nforced++; }
    }
    size_t ntaps = 0;
    for (size_t t = 0; t < hw; t++) ntaps += tappable[t] ? 1 : 0;
    p->nsym = ntaps - nforced;
    p->nres = nactive - nforced;
    p->symtile = malloc((p->nsym + 1) * sizeof(int64_t));
    p->restile = malloc((p->nres + 1) * sizeof(int64_t));
    p->resstart = calloc(hw + 2, sizeof(int64_t));
    if (!p->symtile || !p->restile || !p->resstart) goto fail;
    size_t s = 0;
    for (size_t t = 0; t < hw; t++)
        if (p->force[t] == -1) { p->symof[t] = (int32_t)s; p->symtile[s++] = (int64_t)t; }

    /* 3. residual tiles grouped by last tap (counting sort; index 0 = no tap) */
    for (size_t t = 0; t < hw; t++) {
        if (!active[t]) continue;
        int64_t a = p->cstart[t], b = p->cstart[t + 1];
        if (a < b && p->force[p->ctap[b - 1]] == (int32_t)t) continue;
        size_t key = a == b ? 0 : (size_t)p->ctap[b - 1] + 1;
        p->resstart[key + 1]++;
    }
    for (size_t k = 0; k < hw + 1; k++) p->resstart[k + 1] += p->resstart[k];
    {
        int64_t *fill = malloc((hw + 1) * sizeof(int64_t));
        if (!fill) goto fail;
        memcpy(fill, p->resstart, (hw + 1) * sizeof(int64_t));
        for (size_t t = 0; t < hw; t++) {
            if (!active[t]) continue;
            int64_t a = p->cstart[t], b = p->cstart[t + 1];
            if (a < b && p->force[p->ctap[b - 1]] == (int32_t)t) continue;
            size_t key = a == b ? 0 : (size_t)p->ctap[b - 1] + 1;
            p->restile[fill[key]++] = (int64_t)t;
        }
        free(fill);
    }

    /* 4. live ranges -> slots: tap q is needed until the event of the last tile
     * using it (event = that tile's last tap). */
    for (size_t t = 0; t < hw; t++) lastuse[t] = (int64_t)t;
    for (size_t t = 0; t < hw; t++) {
        int64_t a = p->cstart[t], b = p->cstart[t + 1];
        if (a == b) continue;
        int64_t L = p->ctap[b - 1];
        for (int64_t e = a; e < b; e++)
            if (lastuse[p->ctap[e]] < L) lastuse[p->ctap[e]] = L;
    }
    {
        /* taps grouped by lastuse (counting sort), then simulate a free stack */
        int64_t *fs = calloc(hw + 1, sizeof(int64_t));
        int32_t *ft = malloc((ntaps + 1) * sizeof(int32_t));
        int32_t *stack = malloc((ntaps + 1) * sizeof(int32_t));
        if (!fs || !ft || !stack) { free(fs); free(ft); free(stack); goto fail; }
        for (size_t t = 0; t < hw; t++) if (tappable[t]) fs[lastuse[t] + 1]++;
        for (size_t k = 0; k < hw; k++) fs[k + 1] += fs[k];
        for (size_t t = 0; t < hw; t++) if (tappable[t]) ft[fs[lastuse[t]]++] = (int32_t)t;
        /* fs[k] is now the end of group k; group k starts at fs[k-1] (0 for k=0) */
        size_t top = 0, used = 0;
        int64_t gstart = 0;
        for (size_t t = 0; t < hw; t++) {
            if (tappable[t]) {
                p->slot[t] = top ? stack[--top] : (int32_t)used++;
            } else {
                p->slot[t] = -1;
            }
            for (int64_t e = gstart; e < fs[t]; e++) stack[top++] = p->slot[ft[e]];
            gstart = fs[t];
        }
        p->peak = used;
        free(fs); free(ft); free(stack);
    }
    free(lastuse); free(tmpq); free(tmpc);
    *err = 0;
    return p;
fail:
    free(lastuse); free(tmpq); free(tmpc);
    ml_chase_free(p);
    return NULL;
}

/* ------------------------------------------------------------------ numeric chase */
void ml_chase_numeric(const ml_chase *p, const uint8_t *b, const uint8_t *z,
                      uint8_t *x, uint8_t *rho) {
    const size_t hw = p->hw;
    const int n = p->n;
    const int64_t *cs = p->cstart;
    const int32_t *ct = p->ctap;
    const uint8_t *cc = p->ccoef;
    if (n == 2) {
        for (size_t t = 0; t < hw; t++) {
            int32_t f = p->force[t];
            if (f >= 0) {
                unsigned v = b[f];
                for (int64_t e = cs[f]; e < cs[f + 1] - 1; e++) v ^= x[ct[e]];
                x[t] = (uint8_t)(v & 1);
            } else if (f == -1) {
                x[t] = z ? (uint8_t)(z[p->symof[t]] & 1) : 0;
            } else {
                x[t] = 0;
            }
        }
        for (size_t k = 0; k < p->nres; k++) {
            int64_t c = p->restile[k];
            unsigned v = b[c];
            for (int64_t e = cs[c]; e < cs[c + 1]; e++) v ^= x[ct[e]];
            rho[k] = (uint8_t)(v & 1);
        }
        return;
    }
    for (size_t t = 0; t < hw; t++) {
        int32_t f = p->force[t];
        if (f >= 0) {
            /* a_p x_p = b - sum a_t x_t */
            uint32_t acc = 0;
            int64_t e = cs[f], last = cs[f + 1] - 1;
            for (; e < last; e++) acc += (uint32_t)cc[e] * x[ct[e]];
            uint32_t v = (b[f] + (uint32_t)n * 65536u - acc % (uint32_t)n) % (uint32_t)n;
            x[t] = (uint8_t)((v * p->inv[cc[last]]) % (uint32_t)n);
        } else if (f == -1) {
            x[t] = z ? z[p->symof[t]] : 0;
        } else {
            x[t] = 0;
        }
    }
    for (size_t k = 0; k < p->nres; k++) {
        int64_t c = p->restile[k];
        uint32_t acc = 0;
        for (int64_t e = cs[c]; e < cs[c + 1]; e++) acc += (uint32_t)cc[e] * x[ct[e]];
        rho[k] = (uint8_t)((b[c] + (uint32_t)n - acc % (uint32_t)n) % (uint32_t)n);
    }
}

/* ------------------------------------------------------------------ symbolic chase */
typedef struct {
    const ml_chase *p;
    size_t lo, hi;       /* word (GF(2)) or symbol (Z/n) range of this worker */
    size_t stride;       /* words / bytes per vector */
    void *M;             /* residual matrix */
    int status;
} sym_job;

static void *sym_gf2_run(void *arg) {
    sym_job *J = arg;
    const ml_chase *p = J->p;
    const size_t lo = J->lo, hi = J->hi, len = hi - lo, nw = J->stride;
    uint64_t *M = J->M;
    uint64_t *V = calloc((p->peak + 1) * (len ? len : 1), sizeof(uint64_t));
    if (!V) { J->status = 2; return NULL; }
    const int64_t *cs = p->cstart;
    const int32_t *ct = p->ctap;
    const uint8_t *cc = p->ccoef;
    size_t k = 0;
    /* residual tiles with no tap: zero rows */
    for (int64_t e = p->resstart[0]; e < p->resstart[1]; e++, k++)
        memset(M + k * nw + lo, 0, len * sizeof(uint64_t));
    for (size_t t = 0; t < p->hw; t++) {
        int32_t f = p->force[t];
        if (f != -2) {
            uint64_t *v = V + (size_t)p->slot[t] * len;
            if (f >= 0) {
                memset(v, 0, len * sizeof(uint64_t));
                for (int64_t e = cs[f]; e < cs[f + 1] - 1; e++) {
                    if (!(cc[e] & 1)) continue;
                    const uint64_t *u = V + (size_t)p->slot[ct[e]] * len;
                    for (size_t i = 0; i < len; i++) v[i] ^= u[i];
                }
            } else {
                memset(v, 0, len * sizeof(uint64_t));
                size_t s = (size_t)p->symof[t];
                if (s / 64 >= lo && s / 64 < hi) v[s / 64 - lo] = (uint64_t)1 << (s % 64);
            }
        }
        for (int64_t r = p->resstart[t + 1]; r < p->resstart[t + 2]; r++, k++) {
            int64_t c = p->restile[r];
            uint64_t *row = M + k * nw + lo;
            memset(row, 0, len * sizeof(uint64_t));
            for (int64_t e = cs[c]; e < cs[c + 1]; e++) {
                if (!(cc[e] & 1)) continue;
                const uint64_t *u = V + (size_t)p->slot[ct[e]] * len;
                for (size_t i = 0; i < len; i++) row[i] ^= u[i];
            }
        }
    }
    free(V);
    J->status = 0;
    return NULL;
}

static void *sym_zn_run(void *arg) {
    sym_job *J = arg;
    const ml_chase *p = J->p;
    const size_t lo = J->lo, hi = J->hi, len = hi - lo, ns = J->stride;
    const int32_t n = p->n;
    const float rn = 1.0f / (float)n;
    uint8_t *M = J->M;
    uint8_t *V = calloc((p->peak + 1) * (len ? len : 1), 1);
    int32_t *acc = malloc((len ? len : 1) * sizeof(int32_t));
    if (!V || !acc) { free(V); free(acc); J->status = 2; return NULL; }
    const int64_t *cs = p->cstart;
    const int32_t *ct = p->ctap;
    const uint8_t *cc = p->ccoef;
    size_t k = 0;
    for (int64_t e = p->resstart[0]; e < p->resstart[1]; e++, k++)
        memset(M + k * ns + lo, 0, len);
    for (size_t t = 0; t < p->hw; t++) {
        int32_t f = p->force[t];
        if (f != -2) {
            uint8_t *v = V + (size_t)p->slot[t] * len;
            if (f >= 0) {
                memset(acc, 0, len * sizeof(int32_t));
                int terms = 0;
                int64_t last = cs[f + 1] - 1;
                for (int64_t e = cs[f]; e < last; e++) {
                    const uint8_t *u = V + (size_t)p->slot[ct[e]] * len;
                    const int32_t a = cc[e];
                    if (a == 1) for (size_t i = 0; i < len; i++) acc[i] += u[i];
                    else for (size_t i = 0; i < len; i++) acc[i] += a * u[i];
                    if (++terms == 200) {
                        for (size_t i = 0; i < len; i++) acc[i] = fmod_n(acc[i], n, rn);
                        terms = 0;
                    }
                }
                /* x_p = inv(a_p) * (-sum) */
                const int32_t mneg = (n - p->inv[cc[last]]) % n;
                for (size_t i = 0; i < len; i++)
                    v[i] = (uint8_t)fmod_n(fmod_n(acc[i], n, rn) * mneg, n, rn);
            } else {
                memset(v, 0, len);
                size_t s = (size_t)p->symof[t];
                if (s >= lo && s < hi) v[s - lo] = 1;
            }
        }
        for (int64_t r = p->resstart[t + 1]; r < p->resstart[t + 2]; r++, k++) {
            int64_t c = p->restile[r];
            memset(acc, 0, len * sizeof(int32_t));
            int terms = 0;
            for (int64_t e = cs[c]; e < cs[c + 1]; e++) {
                const uint8_t *u = V + (size_t)p->slot[ct[e]] * len;
                const int32_t a = cc[e];
                for (size_t i = 0; i < len; i++) acc[i] += a * u[i];
                if (++terms == 200) {
                    for (size_t i = 0; i < len; i++) acc[i] = fmod_n(acc[i], n, rn);
                    terms = 0;
                }
            }
            uint8_t *row = M + k * ns + lo;
            for (size_t i = 0; i < len; i++) row[i] = (uint8_t)fmod_n(acc[i], n, rn);
        }
    }
    free(V); free(acc);
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
};

void ml_res_free(ml_res *f) {
    if (!f) return;
    free(f->U); free(f->U8); free(f->swap); free(f->pivcol); free(f->Lb); free(f->L8);
    free(f->pinv); free(f);
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
    if (rows * f->nw) memcpy(f->U, M, rows * f->nw * sizeof(uint64_t));
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
        for (size_t i = piv + 1 > k + 1 ? k + 1 : k + 1; i < rows; i++) {
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

ml_res *ml_res_factor_zp(const uint8_t *M, size_t rows, size_t cols, unsigned p) {
    ml_res *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->rows = rows; f->cols = cols; f->p = p;
    size_t mx = rows < cols ? rows : cols;
    f->U8 = malloc(rows * cols + 1);
    f->swap = malloc((mx + 1) * sizeof(size_t));
    f->pivcol = malloc((mx + 1) * sizeof(size_t));
    f->L8 = calloc(mx * rows + 1, 1);
    f->pinv = malloc(mx + 1);
    if (!f->U8 || !f->swap || !f->pivcol || !f->L8 || !f->pinv) { ml_res_free(f); return NULL; }
    if (rows * cols) memcpy(f->U8, M, rows * cols);
    uint8_t inv[256] = {0};
    for (unsigned a = 1; a < p; a++)
        for (unsigned b = 1; b < p; b++)
            if ((a * b) % p == 1) { inv[a] = (uint8_t)b; break; }
    const int32_t P = (int32_t)p;
    const float rp = 1.0f / (float)p;
    uint8_t *U = f->U8;
    size_t k = 0;
    for (size_t col = 0; col < cols && k < rows; col++) {
        size_t piv = rows;
        for (size_t i = k; i < rows; i++)
            if (U[i * cols + col]) { piv = i; break; }
        if (piv == rows) continue;
        if (piv != k) {
            for (size_t j = col; j < cols; j++) {
                uint8_t t = U[k * cols + j]; U[k * cols + j] = U[piv * cols + j]; U[piv * cols + j] = t;
            }
        }
        f->swap[k] = piv;
        f->pivcol[k] = col;
        uint8_t *pk = U + k * cols;
        const int32_t iv = inv[pk[col]];
        f->pinv[k] = (uint8_t)iv;
        if (iv != 1)
            for (size_t j = col; j < cols; j++) pk[j] = (uint8_t)fmod_n(pk[j] * iv, P, rp);
        uint8_t *Lk = f->L8 + k * rows;
        for (size_t i = k + 1; i < rows; i++) {
            uint8_t *ri = U + i * cols;
            int32_t fi = ri[col];
            if (!fi) continue;
            Lk[i] = (uint8_t)fi;
            const int32_t m = P - fi;
            for (size_t j = col; j < cols; j++) ri[j] = (uint8_t)fmod_n(ri[j] + m * pk[j], P, rp);
        }
        k++;
    }
    f->rank = k;
    return f;
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

static void back_zp(const ml_res *f, const uint8_t *y, uint8_t *z) {
    const size_t cols = f->cols;
    const unsigned p = f->p;
    for (size_t kk = f->rank; kk-- > 0;) {
        const uint8_t *row = f->U8 + kk * cols;
        size_t pc = f->pivcol[kk];
        uint32_t acc = 0;
        for (size_t j = pc + 1; j < cols; j++) {
            acc += (uint32_t)row[j] * z[j];
            if ((j & 1023) == 0) acc %= p;
        }
        acc %= p;
        z[pc] = (uint8_t)(((y ? y[kk] : 0) + p - acc) % p);
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
    } else {
        const unsigned p = f->p;
        for (size_t k = 0; k < f->rank; k++) {
            size_t s = f->swap[k];
            if (s != k) { uint8_t t = y[k]; y[k] = y[s]; y[s] = t; }
            y[k] = (uint8_t)((y[k] * (unsigned)f->pinv[k]) % p);
            unsigned yk = y[k];
            if (!yk) continue;
            const uint8_t *Lk = f->L8 + k * rows;
            for (size_t i = k + 1; i < rows; i++)
                if (Lk[i]) y[i] = (uint8_t)((y[i] + (p - Lk[i]) * yk) % p);
        }
        for (size_t i = f->rank; i < rows; i++) if (y[i]) { ok = 0; break; }
        if (ok) back_zp(f, y, z);
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
        } else {
            z[j] = 1;
            back_zp(f, NULL, z);
        }
        out++;
    }
    free(zw);
    free(isp);
}
