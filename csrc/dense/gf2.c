/* gf2.c: the GF(2) matrix type of gf2.h: memory, construction and packing, and the
 * products (transpose, equality, M4RM multiplication). The rest of gf2.h is in
 * gf2_kernels.c (the SIMD row kernels), gf2_echelon.c (elimination), gf2_factor.c
 * (factorisation and solves) and gf2_residual.c (the chase's residual systems); what
 * the pieces share is in gf2_impl.h. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1     /* madvise */
#endif
#include "dense/gf2.h"
#include "dense/gf2_impl.h"
#include "dense/pack.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#if defined(MADV_HUGEPAGE)
#define ML_HAVE_MADVISE 1
#endif
#endif

/* ======================================================================== memory */

/* Zeroed, 64-byte aligned memory. Large blocks are 2 MiB aligned and marked for
 * transparent huge pages: a fresh 16 MiB matrix otherwise costs ~4000 page faults,
 * measured at a quarter of a 90x90 board's factorisation time. */
void *ml_gf2__zalloc(size_t words)
{
    size_t bytes, align = 64;
    if (words > SIZE_MAX / 8 - ((size_t)2 << 20)) return NULL;
    bytes = (words * 8 + 63) & ~(size_t)63;
    if (bytes == 0) bytes = 64;
    if (bytes >= ((size_t)4 << 20)) {
        align = (size_t)2 << 20;
        bytes = (bytes + align - 1) & ~(align - 1);
    }
    void *p = aligned_alloc(align, bytes);
    if (!p) return NULL;
#ifdef ML_HAVE_MADVISE
    if (align > 64) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    /* zeroed 64 MiB at a time: first-touching a large matrix can take seconds, so
     * Ctrl-C is polled in between (interrupted: NULL, the caller unwinds as for OOM
     * and the binding raises KeyboardInterrupt) */
    const size_t chunk = (size_t)64 << 20;
    for (size_t off = 0; off < bytes; off += chunk) {
        if (off && ml_interrupt_poll()) { free(p); return NULL; }
        memset((char *)p + off, 0, bytes - off < chunk ? bytes - off : chunk);
    }
    return p;
}

ml_gf2_t *ml_gf2_new(size_t nrows, size_t ncols)
{
    ml_gf2_t *M = malloc(sizeof *M);
    if (!M) return NULL;
    M->nrows = nrows;
    M->ncols = ncols;
    M->width = (ncols + 63) / 64;
    M->stride = (M->width + 7) & ~(size_t)7;
    if (M->stride == 0) M->stride = 8;
    if (nrows && M->stride > SIZE_MAX / 8 / nrows) { free(M); return NULL; }
    M->data = ml_gf2__zalloc(nrows * M->stride);
    if (!M->data) { free(M); return NULL; }
    return M;
}

void ml_gf2_free(ml_gf2_t *M)
{
    if (!M) return;
    free(M->data);
    free(M);
}

ml_gf2_t *ml_gf2_copy(const ml_gf2_t *M)
{
    ml_gf2_t *C = ml_gf2_new(M->nrows, M->ncols);
    if (C) memcpy(C->data, M->data, M->nrows * M->stride * 8);
    return C;
}

ml_gf2_t *ml_gf2_identity(size_t n)
{
    ml_gf2_t *I = ml_gf2_new(n, n);
    if (I)
        for (size_t i = 0; i < n; i++) ml_gf2_flip(I, i, i);
    return I;
}

ml_gf2_t *ml_gf2_from_coo(size_t nrows, size_t ncols, const int64_t *ci,
                          const int64_t *tj, size_t nnz, size_t *bad)
{
    /* Entries listed column by column (Board.from_effects: tap by tap) would flip
     * bits one row apart, a cache miss each: those are flipped into the transpose,
     * row by row, which is then transposed in 64 x 64 blocks. The order is judged
     * from the first entries; the bounds are checked in the same single pass (the
     * coordinate arrays are 16 bytes an entry: each pass over them costs more than
     * the flips). */
    size_t probe = nnz < 4096 ? nnz : 4096, row_runs = 0, col_runs = 0;
    for (size_t t = 1; t < probe; t++) {
        row_runs += ci[t] != ci[t - 1];
        col_runs += tj[t] != tj[t - 1];
    }
    int by_col = col_runs < row_runs && nrows >= 64;
    ml_gf2_t *M = by_col ? ml_gf2_new(ncols, nrows) : ml_gf2_new(nrows, ncols);
    if (bad) *bad = nnz;
    if (!M) return NULL;
    for (size_t t = 0; t < nnz; t++) {
        uint64_t i = (uint64_t)ci[t], j = (uint64_t)tj[t];   /* negatives: huge */
        if (i >= nrows || j >= ncols) {
            if (bad) *bad = t;
            ml_gf2_free(M);
            return NULL;
        }
        if (by_col) ml_gf2_flip(M, (size_t)j, (size_t)i);
        else ml_gf2_flip(M, (size_t)i, (size_t)j);
    }
    if (!by_col) return M;
    ml_gf2_t *T = ml_gf2_transpose(M);
    ml_gf2_free(M);
    return T;
}

ml_gf2_t *ml_gf2_from_csc(size_t nrows, size_t ncols, const int64_t *indptr,
                          const int32_t *cells, size_t *bad)
{
    /* column j's cells flipped into row j of the transpose (one stream of 4-byte
     * indices, sequential writes), then transposed in 64 x 64 blocks */
    ml_gf2_t *T = ml_gf2_new(ncols, nrows);
    if (bad) *bad = (size_t)-1;
    if (!T) return NULL;
    for (size_t j = 0; j < ncols; j++) {
        uint64_t *row = ml_gf2_row(T, j);
        for (int64_t t = indptr[j]; t < indptr[j + 1]; t++) {
            int64_t c = cells[t];
            uint64_t i = (uint64_t)c;
            if (c < 0 || i >= nrows) {
                if (bad) *bad = (size_t)t;
                ml_gf2_free(T);
                return NULL;
            }
            row[i >> 6] ^= (uint64_t)1 << (i & 63);
        }
    }
    ml_gf2_t *M = ml_gf2_transpose(T);
    ml_gf2_free(T);
    return M;
}

void ml_gf2_pack_u8(ml_gf2_t *M, const uint8_t *src, size_t src_stride)
{
    ml_pack_bits(src, M->nrows, M->ncols, src_stride, M->data, M->stride);
}

void ml_gf2_pack_i64(ml_gf2_t *M, const int64_t *src, size_t src_stride)
{
    for (size_t i = 0; i < M->nrows; i++) {
        const int64_t *s = src + i * src_stride;
        uint64_t *d = ml_gf2_row(M, i);
        memset(d, 0, M->width * 8);
        for (size_t j = 0; j < M->ncols; j++)
            d[j >> 6] |= ((uint64_t)s[j] & 1u) << (j & 63);
    }
}

void ml_gf2_unpack_u8(const ml_gf2_t *M, size_t c0, size_t cols, uint8_t *dst,
                      size_t dst_stride)
{
    for (size_t i = 0; i < M->nrows; i++) {
        const uint64_t *s = ml_gf2_row(M, i);
        uint8_t *d = dst + i * dst_stride;
        for (size_t j = 0; j < cols; j++) {
            size_t c = c0 + j;
            d[j] = (uint8_t)((s[c >> 6] >> (c & 63)) & 1u);
        }
    }
}

/* ======================================================================== products */

ml_gf2_t *ml_gf2_transpose(const ml_gf2_t *A)
{
    ml_gf2_t *T = ml_gf2_new(A->ncols, A->nrows);
    if (!T) return NULL;
    uint64_t blk[8][64];
    /* 64 x 512 bit tiles: each cache line of A is read once, and the 512 rows of T
     * being written stay in cache while the tile moves down A. */
    for (size_t bj0 = 0; bj0 < A->width; bj0 += 8) {
        size_t nbj = A->width - bj0 < 8 ? A->width - bj0 : 8;
        for (size_t bi = 0; bi * 64 < A->nrows; bi++) {
            size_t nr = A->nrows - bi * 64 < 64 ? A->nrows - bi * 64 : 64;
            for (size_t t = 0; t < 64; t++) {
                const uint64_t *row = t < nr ? ml_gf2_row(A, bi * 64 + t) + bj0 : NULL;
                for (size_t u = 0; u < nbj; u++) blk[u][t] = row ? row[u] : 0;
            }
            for (size_t u = 0; u < nbj; u++) {
                size_t bj = bj0 + u;
                size_t nc = A->ncols - bj * 64 < 64 ? A->ncols - bj * 64 : 64;
                ml_gf2_transpose64(blk[u]);
                for (size_t t = 0; t < nc; t++) ml_gf2_row(T, bj * 64 + t)[bi] = blk[u][t];
            }
        }
    }
    return T;
}

int ml_gf2_equal(const ml_gf2_t *A, const ml_gf2_t *B)
{
    if (A->nrows != B->nrows || A->ncols != B->ncols) return 0;
    for (size_t i = 0; i < A->nrows; i++)
        if (memcmp(ml_gf2_row(A, i), ml_gf2_row(B, i), A->width * 8)) return 0;
    return 1;
}

ml_gf2_t *ml_gf2_mul(const ml_gf2_t *A, const ml_gf2_t *B)
{
    if (A->ncols != B->nrows) return NULL;
    ml_gf2_t *C = ml_gf2_new(A->nrows, B->ncols);
    if (!C) return NULL;
    ml_gf2_kernels_t K = ml_gf2__kernels();
    size_t W = B->width;
    if (W == 0 || A->nrows == 0) return C;
    if (A->nrows < 48) {   /* plain: one row XOR per set bit */
        for (size_t i = 0; i < A->nrows; i++) {
            const uint64_t *a = ml_gf2_row(A, i);
            uint64_t *c = ml_gf2_row(C, i);
            for (size_t w = 0; w < A->width; w++)
                for (uint64_t x = a[w]; x; x &= x - 1)
                    K.xor1(c, ml_gf2_row(B, w * 64 + ctz64(x)), W);
        }
        return C;
    }
    /* M4RM: for each word of A, eight tables of the 256 combinations of 8 rows of B */
    size_t cw = W < ML_CHUNK ? W : ML_CHUNK;
    uint64_t *tab = ml_gf2__zalloc(8 * 256 * cw);
    if (!tab) { ml_gf2_free(C); return NULL; }
    const uint64_t *src[8];
    for (size_t w = 0; w < A->width; w++) {
        if (ml_interrupt_poll()) break;     /* Ctrl-C: C is garbage, the caller drops it */
        size_t nb = B->nrows - w * 64 < 64 ? B->nrows - w * 64 : 64;
        int ntab = (int)((nb + 7) / 8);
        for (size_t c0 = 0; c0 < W; c0 += cw) {
            size_t n = W - c0 < cw ? W - c0 : cw;
            for (int g = 0; g < ntab; g++) {
                uint64_t *T = tab + (size_t)g * 256 * cw;
                int kg = (int)(nb - 8 * g < 8 ? nb - 8 * g : 8);
                memset(T, 0, n * 8);
                for (unsigned v = 1; v < (1u << kg); v++) {
                    uint64_t *dst = T + v * cw;
                    const uint64_t *prev = T + (v & (v - 1)) * cw;
                    const uint64_t *brow = ml_gf2_row(B, w * 64 + 8 * g + ctz64(v)) + c0;
                    for (size_t t = 0; t < n; t++) dst[t] = prev[t] ^ brow[t];
                }
            }
            for (size_t i = 0; i < A->nrows; i++) {
                uint64_t x = ml_gf2_row(A, i)[w];
                if (!x) continue;
                uint64_t *c = ml_gf2_row(C, i) + c0;
                if (n == 1) {
                    uint64_t acc = c[0];
                    for (int g = 0; g < ntab; g++) acc ^= tab[((size_t)g * 256 + ((x >> (8 * g)) & 255)) * cw];
                    c[0] = acc;
                    continue;
                }
                int ns = 0;
                for (int g = 0; g < ntab; g++) {
                    unsigned v = (unsigned)((x >> (8 * g)) & 255);
                    if (v) src[ns++] = tab + ((size_t)g * 256 + v) * cw;
                }
                if (ns) K.xorn(c, src, ns, n);
            }
        }
    }
    free(tab);
    return C;
}
