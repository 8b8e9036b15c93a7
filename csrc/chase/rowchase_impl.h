/* rowchase_impl.h: what the pieces of the row-state chase share (rowchase.c,
 * rowchase_kernels.c, rowchase_symbols.c; see rowchase.c). Internal to csrc/chase/ (not
 * installed, not part of any API). */
#ifndef ML_ROWCHASE_IMPL_H
#define ML_ROWCHASE_IMPL_H
#include "chase/rowchase.h"

#include <stddef.h>
#include <stdint.h>

struct ml_rowchase {
    int n, gf2, gf3;      /* gf3: bit-sliced rows (planes P = [x == 1], M = [x == 2]) */
    size_t nsym, k, es;   /* symbols, right-hand sides, bytes an element */
    size_t cap, lw, cw;   /* column capacity at the end; its elements; constant elements */
    size_t nel, elcap;    /* eliminations */
    int32_t *rcol;        /* nel: column of the eliminated symbol */
    int64_t *rbefore;     /* nel: symbols created before the elimination */
    size_t *roff;         /* nel: byte offset of the record in data */
    uint32_t *rlen;       /* nel: linear elements kept (trailing zeros dropped) */
    uint8_t *data;        /* records: rlen linear elements, then cw constant elements */
    size_t dlen, dcap;
    int32_t *symcol;      /* nsym: column of each symbol */
    int64_t *freesym;     /* free symbols, ascending: retired ones and those live at the end */
    int64_t *endsym;      /* nend: the symbols live at the end */
    size_t nend;
    size_t nfree, nchecks, width, nretired;
    uint8_t *ok;          /* k */
    size_t npend;         /* pending equations (Z/p^k: no unit coefficient) left at the end */
    uint8_t *pmat;        /* npend x nfree: their coefficients on the free symbols */
    uint8_t *pconst;      /* npend x k: their constants */
};

/* rlen of a retired column's record: its symbol is free (roff: the symbol). */
#define RETIRED UINT32_MAX

/* GF(3) rows: plane P then plane M, each lw words of columns then cw of constants;
 * element c of a plane (c < 64 lw: a column, 64 lw + j: constant j). */
static inline size_t plane_words(const ml_rowchase *R) { return R->lw + R->cw; }
static inline unsigned gf3_get(const ml_rowchase *R, const uint8_t *v, size_t c) {
    const uint64_t *w = (const uint64_t *)v;
    const size_t H = plane_words(R);
    return (unsigned)(((w[c >> 6] >> (c & 63)) & 1) | (((w[H + (c >> 6)] >> (c & 63)) & 1) << 1));
}
static inline void gf3_set(const ml_rowchase *R, uint8_t *v, size_t c, unsigned x) {
    uint64_t *w = (uint64_t *)v;
    const size_t H = plane_words(R);
    const uint64_t bit = (uint64_t)1 << (c & 63);
    w[c >> 6] = (w[c >> 6] & ~bit) | (x == 1 ? bit : 0);
    w[H + (c >> 6)] = (w[H + (c >> 6)] & ~bit) | (x == 2 ? bit : 0);
}

/* The row kernels of one SIMD path (csrc/base/cpu.h: MODLIGHTS_SIMD, ml_simd_set): the
 * bodies of rowchase_kernels.c compiled without target attributes (portable) and for
 * AVX2. */
typedef struct row_kernels row_kernels;
struct row_kernels {
    void (*axpy_gf2)(uint64_t *, const uint64_t *, size_t);
    void (*axpy_gf3)(uint64_t *, uint64_t *, const uint64_t *, const uint64_t *, size_t);
    void (*axpy_zn)(uint8_t *, const uint8_t *, int32_t, size_t, int32_t, float);
    void (*neg_mod)(uint8_t *, size_t, uint8_t);
    void (*xor_rows)(uint64_t *, const uint64_t *const *, int, size_t);
    void (*comb_gf3)(const ml_rowchase *, uint8_t *, const uint8_t *const *, const uint8_t *,
                     int, unsigned);
    void (*comb_rows)(uint8_t *, const uint8_t *const *, const uint8_t *, int, int32_t, size_t,
                      int32_t *, int32_t, float);
};

/* The kernels of the SIMD path in use (rowchase_kernels.c). */
const row_kernels *ml_rowchase__kernels(void);

/* Index of free symbol s in R->freesym (binary search; rowchase_symbols.c). */
size_t ml_rowchase__free_index(const ml_rowchase *R, int64_t s);

#endif
