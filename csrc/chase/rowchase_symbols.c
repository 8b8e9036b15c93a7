/* rowchase_symbols.c: what a row-state chase leaves (rowchase.h): its counts, the
 * pending system, the free symbols, and the values of every symbol from the free ones by
 * the elimination records walked backwards. */
#include "chase/rowchase.h"
#include "chase/rowchase_impl.h"

#include <stdlib.h>
#include <string.h>

void ml_rowchase_free(ml_rowchase *R) {
    if (!R) return;
    free(R->rcol); free(R->rbefore); free(R->roff); free(R->rlen); free(R->data);
    free(R->symcol); free(R->freesym); free(R->endsym); free(R->ok);
    free(R->pmat); free(R->pconst);
    free(R);
}

size_t ml_rowchase_nfree(const ml_rowchase *R) { return R->nfree; }
size_t ml_rowchase_neliminated(const ml_rowchase *R) { return R->nel; }
size_t ml_rowchase_nchecks(const ml_rowchase *R) { return R->nchecks; }
size_t ml_rowchase_nretired(const ml_rowchase *R) { return R->nretired; }
size_t ml_rowchase_width(const ml_rowchase *R) { return R->width; }
size_t ml_rowchase_record_bytes(const ml_rowchase *R) { return R->dlen; }
size_t ml_rowchase_npending(const ml_rowchase *R) { return R->npend; }
void ml_rowchase_pending(const ml_rowchase *R, uint8_t *a, uint8_t *c) {
    if (R->npend && R->nfree) memcpy(a, R->pmat, R->npend * R->nfree);
    if (R->npend && R->k && c) memcpy(c, R->pconst, R->npend * R->k);
}
void ml_rowchase_ok(const ml_rowchase *R, uint8_t *ok) { if (R->k) memcpy(ok, R->ok, R->k); }
void ml_rowchase_free_symbols(const ml_rowchase *R, int64_t *out) {
    if (R->nfree) memcpy(out, R->freesym, R->nfree * sizeof(int64_t));
}

/* Index of free symbol s in freesym (binary search). */
size_t ml_rowchase__free_index(const ml_rowchase *R, int64_t s) {
    size_t lo = 0, hi = R->nfree;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (R->freesym[mid] < s) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* Column c's value x into val and the bit planes (GF(2): bits = x; GF(3): bits =
 * [x == 1], mbits = [x == 2]). */
static inline void set_value(const ml_rowchase *R, uint8_t *val, uint64_t *bits,
                             uint64_t *mbits, int32_t c, unsigned x) {
    const uint64_t bit = (uint64_t)1 << (c & 63);
    val[c] = (uint8_t)x;
    bits[c >> 6] = (bits[c >> 6] & ~bit) | ((R->gf3 ? x == 1 : x & 1) ? bit : 0);
    mbits[c >> 6] = (mbits[c >> 6] & ~bit) | (R->gf3 && x == 2 ? bit : 0);
}

int ml_rowchase_symbols(const ml_rowchase *R, long j, const uint8_t *u, uint8_t *z) {
    const int n = R->n;
    uint8_t *val = calloc(R->cap + 64, 1);
    uint64_t *bits = calloc(R->cap / 64 + 1, sizeof(uint64_t));
    uint64_t *mbits = calloc(R->cap / 64 + 1, sizeof(uint64_t));
    if (!val || !bits || !mbits) { free(val); free(bits); free(mbits); return 2; }
    for (size_t e = 0; e < R->nend; e++) {
        const int64_t s = R->endsym[e];
        const size_t i = ml_rowchase__free_index(R, s);
        set_value(R, val, bits, mbits, R->symcol[s], u ? (unsigned)(u[i] % n) : 0);
    }
    int64_t top = (int64_t)R->nsym;
    for (size_t i = R->nel; i-- > 0;) {
        while (top > R->rbefore[i]) { top--; z[top] = val[R->symcol[top]]; }
        const int32_t c = R->rcol[i];
        unsigned x;
        if (R->rlen[i] == RETIRED) {          /* a free symbol: its value from u */
            x = u ? (unsigned)(u[ml_rowchase__free_index(R, (int64_t)R->roff[i])] % n) : 0;
            set_value(R, val, bits, mbits, c, x);
            continue;
        }
        const uint8_t *d = R->data + R->roff[i];
        const size_t len = R->rlen[i];
        if (R->gf2) {
            const uint64_t *r = (const uint64_t *)d;
            uint64_t par = 0;
            for (size_t q = 0; q < len; q++) par ^= r[q] & bits[q];
            x = (unsigned)__builtin_parityll(par);
            if (j >= 0) x ^= (unsigned)((r[len + (size_t)j / 64] >> (j % 64)) & 1);
        } else if (R->gf3) {                  /* 1 x 1 = 2 x 2 = 1, 1 x 2 = 2 */
            const uint64_t *rp = (const uint64_t *)d, *rm = rp + len + R->cw;
            uint64_t one = 0, two = 0;
            for (size_t q = 0; q < len; q++) {
                one += (uint64_t)__builtin_popcountll(rp[q] & bits[q]) +
                       (uint64_t)__builtin_popcountll(rm[q] & mbits[q]);
                two += (uint64_t)__builtin_popcountll(rp[q] & mbits[q]) +
                       (uint64_t)__builtin_popcountll(rm[q] & bits[q]);
            }
            if (j >= 0) {
                one += (rp[len + (size_t)j / 64] >> (j % 64)) & 1;
                two += (rm[len + (size_t)j / 64] >> (j % 64)) & 1;
            }
            x = (unsigned)((one + 2 * two) % 3);
        } else {
            uint64_t acc = 0;
            for (size_t q = 0; q < len; q++) acc += (uint32_t)d[q] * val[q];
            if (j >= 0) acc += d[len + (size_t)j];
            x = (unsigned)(acc % (uint64_t)n);
        }
        set_value(R, val, bits, mbits, c, x);
    }
    while (top > 0) { top--; z[top] = val[R->symcol[top]]; }
    free(val); free(bits); free(mbits);
    return 0;
}
