/* chase_impl.h: the plan of a chase (struct ml_chase) and the helpers its jobs share:
 * plan.c builds it, numeric.c replays it on numbers, symbolic.c runs it on symbols,
 * runner.c shares the symbolic blocks among threads. Internal to csrc/chase/. */
#ifndef ML_CHASE_IMPL_H
#define ML_CHASE_IMPL_H
#include "chase/chase.h"

#include <stddef.h>
#include <stdint.h>

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
static inline unsigned gcd_u(unsigned a, unsigned b) {
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

#define NO_DEP INT32_MIN

/* Bit planes of a bit-sliced Z/n slot (bitslice.h): 2 for Z/3 and Z/4, 3 for Z/8, 0 otherwise. */
static inline int packed_planes(int n) { return n == 3 || n == 4 ? 2 : n == 8 ? 3 : 0; }

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

/* The thread body of the symbolic chase (symbolic.c): runs the blocks of one sym_job. */
void *ml_chase_sym_worker(void *arg);

/* The byte run of the Z/n light chase by a table (symbolic_lut.c), for the runs whose
 * coefficients are all 1 and whose sums nd (n - 1) stay below 128 (at most
 * ML_CHASE_LUT_MAXND sources): v = lut[sum of the nd sources], lut[x] = -x mod n
 * (ml_chase__lut_fill), slots as zn_run_small's. _supported: 1 when the CPU runs it
 * with one byte permutation a vector (AVX-512 VBMI on the AVX-512 path), the only case
 * symbolic.c takes it; _run runs a byte at a time elsewhere. */
#define ML_CHASE_LUT_MAXND 127
int ml_chase__lut_supported(void);
void ml_chase__lut_fill(uint8_t lut[128], int n);
void ml_chase__lut_run(uint8_t *V, size_t bw, int64_t mask, int64_t t0, size_t cnt,
                       const int64_t *dl, int nd, const uint8_t *lut);

#endif
