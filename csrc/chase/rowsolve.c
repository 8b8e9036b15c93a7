/* rowsolve.c: the row-solve chase over GF(2) and Z/n (see rowsolve.h).
 *
 * The rows of taps a tile row reads live in a ring, padded with mc zero slots on both
 * sides (mc = the largest |ec|), so that no source needs a column check; rows off the
 * board read zero slots. GF(2): the ring is column-interleaved (span + 1 slots a
 * column, see ring_row); Z/n and the bit-sliced Z/3, Z/4: RR rows (a power of two >
 * the row span) one after the other and a shared zero row.
 * The symbolic chase runs one pass over the board per block of 64 bw symbols of one
 * symbol row (bw words a tap), the blocks shared by the threads; a tap costs the xor
 * of the sources of rows < r + D (the knight: 7) and of the tap before it in its
 * chain. The row kernel is compiled for the portable path, AVX2 and AVX-512 and
 * picked at run time (cpu.h). Z/n keeps a byte a symbol, Z/3 and Z/4
 * two bit-planes, the same ring and blocks.
 *
 * The pieces: rowsolve.c (this file: the plan, and the threads of a symbolic pass),
 * rowsolve_gf2.c (the GF(2) symbolic chase), rowsolve_zn.c (Z/n, a byte a symbol),
 * rowsolve_sliced.c (Z/3 and Z/4 bit-sliced), rowsolve_numeric.c (the numeric chase);
 * what they share is in rowsolve_impl.h. */
#include "chase/rowsolve.h"
#include "chase/rowsolve_impl.h"
#include "base/interrupt.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t ml_rowsolve_nsym(const ml_rowsolve *p) { return (size_t)p->D * (size_t)p->w; }
int ml_rowsolve_mirrored(const ml_rowsolve *p) { return p->mirrored; }
int ml_rowsolve_n(const ml_rowsolve *p) { return p->n; }

void ml_rowsolve_free(ml_rowsolve *p) {
    if (!p) return;
    free(p->er); free(p->ec); free(p->cf); free(p);
}

/* The inverse of x mod n, 0 when x is not a unit. */
static int inv_mod(int x, int n) {
    for (int y = 1; y < n; y++)
        if ((x * y) % n == 1) return y;
    return 0;
}

int ml_rowsolve_eligible_zn(int h, int w, int n, int ne, const int32_t *er, const int32_t *ec,
                            const int32_t *cf) {
    if (h < 1 || w < 2 || n < 2 || n > 255 || ne < 2 || ne > ML_ROWSOLVE_MAX_OFFSETS || !er ||
        !ec) return 0;
    int D = er[0];
    for (int i = 0; i < ne; i++) {
        if (er[i] < -ML_ROWSOLVE_MAX_REACH || er[i] > ML_ROWSOLVE_MAX_REACH ||
            ec[i] < -ML_ROWSOLVE_MAX_REACH || ec[i] > ML_ROWSOLVE_MAX_REACH) return 0;
        if (cf && (cf[i] < 1 || cf[i] >= n)) return 0;
        if (er[i] > D) D = er[i];
        for (int j = 0; j < i; j++)
            if (er[j] == er[i] && ec[j] == ec[i]) return 0;
    }
    if (D < 1 || h <= D) return 0;
    int nlast = 0, lo = 0, hi = 0;
    for (int i = 0; i < ne; i++) {
        if (er[i] != D) continue;
        if (nlast == 0) lo = hi = ec[i];
        if (ec[i] < lo) lo = ec[i];
        if (ec[i] > hi) hi = ec[i];
        /* the chains divide by the pair's coefficients */
        if (cf && !inv_mod(cf[i], n)) return 0;
        nlast++;
    }
    if (nlast != 2 || lo != -hi || hi < 1) return 0;
    return w % (2 * hi) == 0;
}

int ml_rowsolve_eligible(int h, int w, int ne, const int32_t *er, const int32_t *ec) {
    return ml_rowsolve_eligible_zn(h, w, 2, ne, er, ec, NULL);
}

ml_rowsolve *ml_rowsolve_plan(int h, int w, int ne, const int32_t *er, const int32_t *ec,
                              int *err) {
    return ml_rowsolve_plan_zn(h, w, 2, ne, er, ec, NULL, err);
}

ml_rowsolve *ml_rowsolve_plan_zn(int h, int w, int n, int ne, const int32_t *er,
                                 const int32_t *ec, const int32_t *cf, int *err) {
    *err = 1;
    if (!ml_rowsolve_eligible_zn(h, w, n, ne, er, ec, cf)) return NULL;
    *err = 2;
    ml_rowsolve *p = calloc(1, sizeof(*p));
    if (!p) return NULL;
    p->er = malloc((size_t)ne * sizeof(int32_t));
    p->ec = malloc((size_t)ne * sizeof(int32_t));
    p->cf = malloc((size_t)ne * sizeof(int32_t));
    if (!p->er || !p->ec || !p->cf) { ml_rowsolve_free(p); return NULL; }
    p->h = h; p->w = w; p->ne = ne; p->n = n;
    int D = er[0], emin = er[0], mc = 0;
    for (int i = 0; i < ne; i++) {
        if (er[i] > D) D = er[i];
        if (er[i] < emin) emin = er[i];
        int m = ec[i] < 0 ? -ec[i] : ec[i];
        if (m > mc) mc = m;
    }
    p->D = D; p->emin = emin < 0 ? emin : 0; p->mc = mc;
    /* the sources of t first, the last-row pair after them */
    int k = 0;
    for (int i = 0; i < ne; i++)
        if (er[i] < D) { p->er[k] = er[i]; p->ec[k] = ec[i]; p->cf[k] = cf ? cf[i] : 1; k++; }
    p->nt = k;
    for (int i = 0; i < ne; i++)
        if (er[i] == D) {
            p->er[k] = er[i]; p->ec[k] = ec[i]; p->cf[k] = cf ? cf[i] : 1;
            p->a = ec[i] > 0 ? ec[i] : -ec[i];
            if (ec[i] < 0) p->alpha = p->cf[k];
            else p->beta = p->cf[k];
            k++;
        }
    p->ainv = inv_mod(p->alpha, n);
    p->binv = inv_mod(p->beta, n);
    int span = D - p->emin + 1, RR = 1;
    while (RR < span) RR *= 2;
    p->RR = RR;
    p->span = span;
    /* the mirror image of the row solve is the row solve of the mirrored pattern, so
     * the pattern must be its own mirror image, coefficients included */
    p->mirrored = 1;
    for (int i = 0; i < ne && p->mirrored; i++) {
        int found = 0;
        for (int j = 0; j < ne && !found; j++)
            found = p->er[j] == p->er[i] && p->ec[j] == -p->ec[i] && p->cf[j] == p->cf[i];
        p->mirrored = found;
    }
    *err = 0;
    return p;
}

/* One symbolic pass: D ceil(cols / per) blocks (per symbols a block) over min(threads,
 * blocks) workers, the calling thread one of them. Returns 0 or a worker's status. */
int ml_rowsolve__run(const ml_rowsolve *p, void *M, size_t stride, size_t width, size_t per,
                     size_t cols, int threads, void *(*worker)(void *)) {
    const size_t nblk_row = (cols + per - 1) / per;
    const size_t nblocks = nblk_row * (size_t)p->D;
    if (threads < 1) threads = 1;
    if (threads > 16) threads = 16;
    if ((size_t)threads > nblocks) threads = (int)nblocks;
    rs_job jobs[16];
    pthread_t tid[16];
    int started[16] = {0};
    int next = 0;
    for (int i = 0; i < threads; i++) {
        jobs[i].p = p; jobs[i].M = M; jobs[i].stride = stride; jobs[i].width = width;
        jobs[i].nblk_row = nblk_row; jobs[i].nblocks = nblocks; jobs[i].next = &next;
        jobs[i].status = 0;
    }
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, worker, &jobs[i]) == 0;
    worker(&jobs[0]);
    int st = jobs[0].status;
    for (int i = 1; i < threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        if (jobs[i].status) st = jobs[i].status;
    }
    return st;
}
