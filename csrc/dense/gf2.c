/* gf2.c: see gf2.h. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1     /* madvise */
#endif
#include "dense/gf2.h"
#include "dense/pack.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#if defined(MADV_HUGEPAGE)
#define ML_HAVE_MADVISE 1
#endif
#endif

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define ML_X86 1
#include <immintrin.h>
#endif

/* ======================================================================== memory */

/* Zeroed, 64-byte aligned memory. Large blocks are 2 MiB aligned and marked for
 * transparent huge pages: a fresh 16 MiB matrix otherwise costs ~4000 page faults,
 * measured at a quarter of a 90x90 board's factorisation time. */
static void *aligned_zalloc(size_t words)
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
    M->data = aligned_zalloc(nrows * M->stride);
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

/* ======================================================================== kernels */
/* dst[0..n) ^= src[0..n) */
typedef void (*xor1_fn)(uint64_t *dst, const uint64_t *src, size_t n);
/* dst[0..n) ^= src[0][0..n) ^ ... ^ src[ns-1][0..n), 1 <= ns <= 8 */
typedef void (*xorn_fn)(uint64_t *dst, const uint64_t *const *src, int ns, size_t n);

static void xor1_portable(uint64_t *restrict dst, const uint64_t *restrict src, size_t n)
{
    for (size_t i = 0; i < n; i++) dst[i] ^= src[i];
}

static void xorn_portable(uint64_t *restrict dst, const uint64_t *const *src, int ns, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t a = dst[i];
        for (int s = 0; s < ns; s++) a ^= src[s][i];
        dst[i] = a;
    }
}

#ifdef ML_X86
__attribute__((target("avx2")))
static void xor1_avx2(uint64_t *restrict dst, const uint64_t *restrict src, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(dst + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(dst + i + 4));
        a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(src + i)));
        b = _mm256_xor_si256(b, _mm256_loadu_si256((const __m256i *)(src + i + 4)));
        _mm256_storeu_si256((__m256i *)(dst + i), a);
        _mm256_storeu_si256((__m256i *)(dst + i + 4), b);
    }
    for (; i + 4 <= n; i += 4) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(dst + i));
        a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(src + i)));
        _mm256_storeu_si256((__m256i *)(dst + i), a);
    }
    for (; i < n; i++) dst[i] ^= src[i];
}

__attribute__((target("avx2")))
static void xorn_avx2(uint64_t *restrict dst, const uint64_t *const *src, int ns, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(dst + i));
        for (int s = 0; s < ns; s++)
            a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(src[s] + i)));
        _mm256_storeu_si256((__m256i *)(dst + i), a);
    }
    for (; i < n; i++) {
        uint64_t a = dst[i];
        for (int s = 0; s < ns; s++) a ^= src[s][i];
        dst[i] = a;
    }
}

__attribute__((target("avx512f")))
static void xor1_avx512(uint64_t *restrict dst, const uint64_t *restrict src, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512i a = _mm512_loadu_si512((const void *)(dst + i));
        a = _mm512_xor_si512(a, _mm512_loadu_si512((const void *)(src + i)));
        _mm512_storeu_si512((void *)(dst + i), a);
    }
    for (; i < n; i++) dst[i] ^= src[i];
}

__attribute__((target("avx512f")))
static void xorn_avx512(uint64_t *restrict dst, const uint64_t *const *src, int ns, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512i a = _mm512_loadu_si512((const void *)(dst + i));
        for (int s = 0; s < ns; s++)
            a = _mm512_xor_si512(a, _mm512_loadu_si512((const void *)(src[s] + i)));
        _mm512_storeu_si512((void *)(dst + i), a);
    }
    for (; i < n; i++) {
        uint64_t a = dst[i];
        for (int s = 0; s < ns; s++) a ^= src[s][i];
        dst[i] = a;
    }
}
#endif

/* Table lookups for a list of rows: for each t, words [0, n) of base + rows[t] * stride
 * ^= the ntab table entries picked by the k-bit fields of idx[t] (table g, entry v at
 * tab + (g * 256 + v) * ts, ts >= n; entry 0 is zero, so it needs no branch). The
 * 8- and 16-word paths assume ts = n. */
typedef void (*tabrows_fn)(uint64_t *base, size_t stride, const size_t *rows,
                           const uint64_t *idx, size_t nr, const uint64_t *tab, int k,
                           int ntab, size_t n, size_t ts);

static void tabrows_portable(uint64_t *base, size_t stride, const size_t *rows,
                             const uint64_t *idx, size_t nr, const uint64_t *tab, int k,
                             int ntab, size_t n, size_t ts)
{
    uint64_t mask = ((uint64_t)1 << k) - 1;
    /* fixed widths: the row segment stays in registers through the lookups */
#define ML_TABROWS_FIXED(N)                                                     \
    for (size_t t = 0; t < nr; t++) {                                           \
        uint64_t x = idx[t], a[N];                                              \
        uint64_t *d = base + rows[t] * stride;                                  \
        const uint64_t *T = tab;                                                \
        for (int i = 0; i < N; i++) a[i] = d[i];                                \
        for (int g = 0; g < ntab; g++, x >>= k, T += 256 * N) {                 \
            const uint64_t *e = T + (x & mask) * N;                             \
            for (int i = 0; i < N; i++) a[i] ^= e[i];                           \
        }                                                                       \
        for (int i = 0; i < N; i++) d[i] = a[i];                                \
    }
    if (n == 8) { ML_TABROWS_FIXED(8) return; }
    if (n == 16) { ML_TABROWS_FIXED(16) return; }
#undef ML_TABROWS_FIXED
    const uint64_t *src[8];
    for (size_t t = 0; t < nr; t++) {
        uint64_t x = idx[t];
        for (int g = 0; g < ntab; g++, x >>= k)
            src[g] = tab + ((size_t)g * 256 + (x & mask)) * ts;
        xorn_portable(base + rows[t] * stride, src, ntab, n);
    }
}

#ifdef ML_X86
__attribute__((target("avx2")))
static void tabrows_avx2(uint64_t *base, size_t stride, const size_t *rows,
                         const uint64_t *idx, size_t nr, const uint64_t *tab, int k,
                         int ntab, size_t n, size_t ts)
{
    uint64_t mask = ((uint64_t)1 << k) - 1;
    if (n == 8) {
        for (size_t t = 0; t < nr; t++) {
            uint64_t x = idx[t];
            uint64_t *d = base + rows[t] * stride;
            __m256i a0 = _mm256_loadu_si256((const __m256i *)d);
            __m256i a1 = _mm256_loadu_si256((const __m256i *)(d + 4));
            const uint64_t *T = tab;
            for (int g = 0; g < ntab; g++, x >>= k, T += 256 * 8) {
                const uint64_t *e = T + (x & mask) * 8;
                a0 = _mm256_xor_si256(a0, _mm256_loadu_si256((const __m256i *)e));
                a1 = _mm256_xor_si256(a1, _mm256_loadu_si256((const __m256i *)(e + 4)));
            }
            _mm256_storeu_si256((__m256i *)d, a0);
            _mm256_storeu_si256((__m256i *)(d + 4), a1);
        }
        return;
    }
    if (n == 16) {
        for (size_t t = 0; t < nr; t++) {
            uint64_t x = idx[t];
            uint64_t *d = base + rows[t] * stride;
            __m256i a0 = _mm256_loadu_si256((const __m256i *)d);
            __m256i a1 = _mm256_loadu_si256((const __m256i *)(d + 4));
            __m256i a2 = _mm256_loadu_si256((const __m256i *)(d + 8));
            __m256i a3 = _mm256_loadu_si256((const __m256i *)(d + 12));
            const uint64_t *T = tab;
            for (int g = 0; g < ntab; g++, x >>= k, T += 256 * 16) {
                const uint64_t *e = T + (x & mask) * 16;
                a0 = _mm256_xor_si256(a0, _mm256_loadu_si256((const __m256i *)e));
                a1 = _mm256_xor_si256(a1, _mm256_loadu_si256((const __m256i *)(e + 4)));
                a2 = _mm256_xor_si256(a2, _mm256_loadu_si256((const __m256i *)(e + 8)));
                a3 = _mm256_xor_si256(a3, _mm256_loadu_si256((const __m256i *)(e + 12)));
            }
            _mm256_storeu_si256((__m256i *)d, a0);
            _mm256_storeu_si256((__m256i *)(d + 4), a1);
            _mm256_storeu_si256((__m256i *)(d + 8), a2);
            _mm256_storeu_si256((__m256i *)(d + 12), a3);
        }
        return;
    }
    const uint64_t *src[8];
    for (size_t t = 0; t < nr; t++) {
        uint64_t x = idx[t];
        for (int g = 0; g < ntab; g++, x >>= k)
            src[g] = tab + ((size_t)g * 256 + (x & mask)) * ts;
        xorn_avx2(base + rows[t] * stride, src, ntab, n);
    }
}

__attribute__((target("avx512f")))
static void tabrows_avx512(uint64_t *base, size_t stride, const size_t *rows,
                           const uint64_t *idx, size_t nr, const uint64_t *tab, int k,
                           int ntab, size_t n, size_t ts)
{
    uint64_t mask = ((uint64_t)1 << k) - 1;
    if (n == 8 || n == 16) {
        int two = n == 16;
        for (size_t t = 0; t < nr; t++) {
            uint64_t x = idx[t];
            uint64_t *d = base + rows[t] * stride;
            __m512i a0 = _mm512_loadu_si512((const void *)d);
            __m512i a1 = two ? _mm512_loadu_si512((const void *)(d + 8)) : _mm512_setzero_si512();
            const uint64_t *T = tab;
            for (int g = 0; g < ntab; g++, x >>= k, T += 256 * n) {
                const uint64_t *e = T + (x & mask) * n;
                a0 = _mm512_xor_si512(a0, _mm512_loadu_si512((const void *)e));
                if (two) a1 = _mm512_xor_si512(a1, _mm512_loadu_si512((const void *)(e + 8)));
            }
            _mm512_storeu_si512((void *)d, a0);
            if (two) _mm512_storeu_si512((void *)(d + 8), a1);
        }
        return;
    }
    const uint64_t *src[8];
    for (size_t t = 0; t < nr; t++) {
        uint64_t x = idx[t];
        for (int g = 0; g < ntab; g++, x >>= k)
            src[g] = tab + ((size_t)g * 256 + (x & mask)) * ts;
        xorn_avx512(base + rows[t] * stride, src, ntab, n);
    }
}
#endif

static xor1_fn xor1_impl[ML_SIMD_COUNT] = {xor1_portable,
#ifdef ML_X86
                                           xor1_avx2, xor1_avx512
#else
                                           xor1_portable, xor1_portable
#endif
};
static xorn_fn xorn_impl[ML_SIMD_COUNT] = {xorn_portable,
#ifdef ML_X86
                                           xorn_avx2, xorn_avx512
#else
                                           xorn_portable, xorn_portable
#endif
};

static tabrows_fn tabrows_impl[ML_SIMD_COUNT] = {tabrows_portable,
#ifdef ML_X86
                                                 tabrows_avx2, tabrows_avx512
#else
                                                 tabrows_portable, tabrows_portable
#endif
};

typedef struct { xor1_fn xor1; xorn_fn xorn; tabrows_fn tabrows; } kernels_t;

static kernels_t kernels(void)
{
    int p = ml_simd_get();
    kernels_t k = {xor1_impl[p], xorn_impl[p], tabrows_impl[p]};
    return k;
}

int ml_gf2_simd(void) { return ml_simd_get(); }

/* ======================================================================== helpers */

static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }

/* n <= 64 bits of row starting at column c (row has `stride` words). */
static inline uint64_t read_bits(const uint64_t *row, size_t c, int n, size_t stride)
{
    size_t w = c >> 6;
    int s = (int)(c & 63);
    uint64_t v = row[w] >> s;
    if (s && s + n > 64 && w + 1 < stride) v |= row[w + 1] << (64 - s);
    return n >= 64 ? v : v & (((uint64_t)1 << n) - 1);
}

/* Swap words [lo, hi) of rows a and b. */
static void swap_words(ml_gf2_t *M, size_t a, size_t b, size_t lo, size_t hi)
{
    if (a == b) return;
    uint64_t *x = ml_gf2_row(M, a), *y = ml_gf2_row(M, b);
    for (size_t w = lo; w < hi; w++) {
        uint64_t t = x[w];
        x[w] = y[w];
        y[w] = t;
    }
}

static void swap_rows(ml_gf2_t *M, size_t a, size_t b) { swap_words(M, a, b, 0, M->width); }

/* dst bits [0, n) = src bits [off, off + n) (dst words past the copy zeroed up to
 * ceil(n/64)). */
static void copy_bits(uint64_t *dst, const uint64_t *src, size_t off, size_t n, size_t src_stride)
{
    size_t nw = (n + 63) / 64, w0 = off >> 6;
    int s = (int)(off & 63);
    for (size_t w = 0; w < nw; w++) {
        uint64_t v = src[w0 + w] >> s;
        if (s && w0 + w + 1 < src_stride) v |= src[w0 + w + 1] << (64 - s);
        dst[w] = v;
    }
    if (n & 63) dst[nw - 1] &= ((uint64_t)1 << (n & 63)) - 1;
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

/* Column chunk (words) for table lookups. Measured (dense 8192, AVX2): one pass
 * over the rows with whole-row tables beats L2-sized chunks by 2-4x: the row traffic,
 * not the table lookups, is the bottleneck (for this loop, one kernel call per row;
 * the blocked elimination reuses 16-word strips across passes with one call per strip
 * and pass, see ML_PANEL). */
#ifndef ML_CHUNK
#define ML_CHUNK 512
#endif

ml_gf2_t *ml_gf2_mul(const ml_gf2_t *A, const ml_gf2_t *B)
{
    if (A->ncols != B->nrows) return NULL;
    ml_gf2_t *C = ml_gf2_new(A->nrows, B->ncols);
    if (!C) return NULL;
    kernels_t K = kernels();
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
    uint64_t *tab = aligned_zalloc(8 * 256 * cw);
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

/* ======================================================================== elimination */

size_t ml_gf2_echelonize_naive(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv)
{
    kernels_t K = kernels();
    size_t m = M->nrows, W = M->width, r = 0;
    if (pivot_cols > M->ncols) pivot_cols = M->ncols;
    for (size_t c = 0; c < pivot_cols && r < m; c++) {
        if ((c & 63) == 0 && ml_interrupt_poll()) break;     /* Ctrl-C: a partial form */
        size_t w0 = c >> 6, i;
        uint64_t bit = (uint64_t)1 << (c & 63);
        for (i = r; i < m; i++)
            if (ml_gf2_row(M, i)[w0] & bit) break;
        if (i == m) continue;
        swap_rows(M, i, r);
        const uint64_t *p = ml_gf2_row(M, r) + w0;
        for (i = full ? 0 : r + 1; i < m; i++) {
            uint64_t *row = ml_gf2_row(M, i);
            if (i != r && (row[w0] & bit)) K.xor1(row + w0, p, W - w0);
        }
        if (piv) piv[r] = c;
        r++;
    }
    return r;
}

/* Row operations of the forward elimination of one panel, recorded so that they can be
 * replayed on the columns right of the panel strip by strip (see
 * ml_gf2_echelonize_m4ri): XOR (row a ^= row b), SWAP (rows a, b), PASS (clear the kb
 * pivot columns of the rows[off..off+nr) with pivot rows a.., k = 0: plain XORs, else
 * tables of k bits). */
enum { LOG_XOR, LOG_SWAP, LOG_PASS };
typedef struct { int kind, kb, k; size_t a, b, nr, off; } logop_t;
typedef struct {
    logop_t *ops;
    size_t nops, cap;
    size_t *rows;      /* the PASS entries' rows and bits, `used` of `rcap` */
    uint64_t *idx;
    size_t used, rcap;
    int oom;
} oplog_t;

static void log_op(oplog_t *L, int kind, size_t a, size_t b)
{
    if (!L || L->oom) return;
    if (L->nops == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 256;
        logop_t *p = realloc(L->ops, cap * sizeof *p);
        if (!p) { L->oom = 1; return; }
        L->ops = p;
        L->cap = cap;
    }
    logop_t *o = &L->ops[L->nops++];
    o->kind = kind;
    o->a = a;
    o->b = b;
    o->kb = o->k = 0;
    o->nr = o->off = 0;
}

/* Room for n more rows / bits in L; returns 0 when out of memory. */
static int log_reserve(oplog_t *L, size_t n)
{
    if (L->used + n <= L->rcap) return 1;
    size_t cap = L->rcap ? 2 * L->rcap : 1024;
    while (cap < L->used + n) cap *= 2;
    size_t *r = realloc(L->rows, cap * sizeof *r);
    if (!r) return 0;
    L->rows = r;
    uint64_t *x = realloc(L->idx, cap * sizeof *x);
    if (!x) return 0;
    L->idx = x;
    L->rcap = cap;
    return 1;
}

/* Find up to kmax pivots at consecutive columns c, c+1, ... among rows r.. and bring
 * them to rows r, r+1, ..., reduced among themselves (their bits at those columns
 * form an identity). Stops at the first column without a pivot. Returns how many.
 * Row operations touch words [c / 64, wend) and are recorded in L (if not NULL). */
static int gauss_block(ml_gf2_t *M, size_t r, size_t c, int kmax, size_t wend, oplog_t *L,
                       kernels_t K)
{
    size_t m = M->nrows, S = M->stride, w0 = c >> 6;
    int kb = 0;
    size_t start = r;
    for (int j = 0; j < kmax; j++) {
        size_t col = c + (size_t)j, found = m;
        for (size_t i = start; i < m; i++) {
            uint64_t *row = ml_gf2_row(M, i);
            if (kb) {
                uint64_t bits = read_bits(row, c, kb, S);
                for (; bits; bits &= bits - 1) {
                    size_t src = r + (size_t)ctz64(bits);
                    K.xor1(row + w0, ml_gf2_row(M, src) + w0, wend - w0);
                    log_op(L, LOG_XOR, i, src);
                }
            }
            if ((row[col >> 6] >> (col & 63)) & 1) { found = i; break; }
        }
        if (found == m) break;
        swap_words(M, found, r + (size_t)kb, w0, wend);
        if (found != r + (size_t)kb) log_op(L, LOG_SWAP, found, r + (size_t)kb);
        const uint64_t *p = ml_gf2_row(M, r + (size_t)kb);
        for (int t = 0; t < kb; t++) {
            uint64_t *q = ml_gf2_row(M, r + (size_t)t);
            if ((q[col >> 6] >> (col & 63)) & 1) {
                K.xor1(q + w0, p + w0, wend - w0);
                log_op(L, LOG_XOR, r + (size_t)t, r + (size_t)kb);
            }
        }
        kb++;
        start = r + (size_t)kb;
    }
    return kb;
}

typedef struct {
    int oom;           /* set when a table could not be allocated */
    uint64_t *tab;     /* 8 * 256 * cw words, allocated on first use */
    size_t cw;         /* words per table row: min(width, ML_CHUNK) */
    size_t *rows;      /* nrows */
    uint64_t *idx;     /* nrows */
} workspace_t;

/* Plain XORs (0) or the table size k for clearing kb pivot columns from nr rows with
 * these bits: the cheaper by counting row-segment XORs. */
static int choose_k(int kb, const uint64_t *idx, size_t nr)
{
    size_t plain = 0;
    for (size_t t = 0; t < nr; t++) plain += (size_t)__builtin_popcountll(idx[t]);
    int best_k = 0;
    size_t best = plain;
    for (int k = (kb + 7) / 8 > 2 ? (kb + 7) / 8 : 2; k <= 8; k++) {   /* <= 8 tables */
        size_t ntab = (size_t)((kb + k - 1) / k);
        size_t cost = ntab * ((size_t)1 << k) + nr * ntab + nr;   /* + nr: loads */
        if (cost < best) { best = cost; best_k = k; }
    }
    return best_k;
}

/* Words [wa, wb) of the listed rows (idx: their bits at the kb pivot columns) ^= the
 * combination of pivot rows r..r+kb-1 given by idx: plain XORs (k = 0) or Four
 * Russians tables of k bits, built per chunk of ws->cw words. */
static void apply_range(ml_gf2_t *M, size_t r, int kb, int k, const size_t *rows,
                        const uint64_t *idx, size_t nr, size_t wa, size_t wb,
                        workspace_t *ws, kernels_t K)
{
    if (nr == 0 || wa >= wb) return;
    if (k == 0) {
        for (size_t t = 0; t < nr; t++) {
            uint64_t *row = ml_gf2_row(M, rows[t]) + wa;
            for (uint64_t b = idx[t]; b; b &= b - 1)
                K.xor1(row, ml_gf2_row(M, r + ctz64(b)) + wa, wb - wa);
        }
        return;
    }
    int ntab = (kb + k - 1) / k;
    const uint64_t *src[8];
    if (!ws->tab) {    /* allocated on first use */
        ws->tab = aligned_zalloc(8 * 256 * ws->cw);
        if (!ws->tab) { ws->oom = 1; return; }
    }
    uint64_t *tab = ws->tab;
    size_t cw = ws->cw;
    for (size_t c0 = wa; c0 < wb; c0 += cw) {
        size_t n = wb - c0 < cw ? wb - c0 : cw;
        /* table g, entry v: tab + (g * 256 + v) * ts, so short chunks stay dense
         * (entries on 64-byte boundaries: unaligned ones measured 30% slower) */
        size_t ts = (n + 7) & ~(size_t)7;
        if (ts > cw) ts = n;
        for (int g = 0; g < ntab; g++) {
            uint64_t *T = tab + (size_t)g * 256 * ts;
            int kg = kb - g * k < k ? kb - g * k : k;
            memset(T, 0, n * 8);
            for (unsigned v = 1; v < (1u << kg); v++) {
                uint64_t *dst = T + v * ts;
                const uint64_t *prev = T + (v & (v - 1)) * ts;
                const uint64_t *prow = ml_gf2_row(M, r + (size_t)(g * k) + ctz64(v)) + c0;
                for (size_t t = 0; t < n; t++) dst[t] = prev[t] ^ prow[t];
            }
        }
        if (n <= 16) {     /* short chunks (strips): one call for all the rows */
            K.tabrows(M->data + c0, M->stride, rows, idx, nr, tab, k, ntab, n, ts);
            continue;
        }
        uint64_t mask = ((uint64_t)1 << k) - 1;
        for (size_t t = 0; t < nr; t++) {
            uint64_t x = idx[t];
            int ns = 0;
            for (int g = 0; g < ntab; g++) {
                uint64_t v = (x >> (g * k)) & mask;
                if (v) src[ns++] = tab + ((size_t)g * 256 + v) * ts;
            }
            if (ns) K.xorn(ml_gf2_row(M, rows[t]) + c0, src, ns, n);
        }
    }
}

/* Clear the kb pivot columns c.. of the listed rows, all the way to the right. */
static void apply_block(ml_gf2_t *M, size_t r, size_t c, int kb, const size_t *rows,
                        const uint64_t *idx, size_t nr, workspace_t *ws, kernels_t K)
{
    if (nr == 0) return;
    apply_range(M, r, kb, choose_k(kb, idx, nr), rows, idx, nr, c >> 6, M->width, ws, K);
}

/* Replay the panel's log on words [wa, wb), `sw` words at a time, so that each strip
 * stays in cache through all the panel's passes. */
static void replay(ml_gf2_t *M, const oplog_t *L, size_t wa, size_t wb, size_t sw,
                   workspace_t *ws, kernels_t K)
{
    int passes = 0;    /* only row XORs and swaps: one strip, fewer calls */
    for (size_t t = 0; t < L->nops && !passes; t++) passes = L->ops[t].kind == LOG_PASS;
    if (!passes) sw = wb - wa;
    for (size_t s0 = wa; s0 < wb; s0 += sw) {
        size_t n = wb - s0 < sw ? wb - s0 : sw;
        for (size_t t = 0; t < L->nops; t++) {
            const logop_t *o = &L->ops[t];
            if (o->kind == LOG_XOR)
                K.xor1(ml_gf2_row(M, o->a) + s0, ml_gf2_row(M, o->b) + s0, n);
            else if (o->kind == LOG_SWAP)
                swap_words(M, o->a, o->b, s0, s0 + n);
            else {
                apply_range(M, o->a, o->kb, o->k, L->rows + o->off, L->idx + o->off, o->nr,
                            s0, s0 + n, ws, K);
                if (ws->oom) return;
            }
        }
    }
}

/* Back substitution of a forward echelon form (rows 0..rank-1, pivots piv[]) to the
 * reduced form, block by block from the bottom: a block is up to 64 consecutive pivot
 * rows whose pivot columns span at most 64 columns; it is first reduced within
 * itself, then cleared from the rows above with Four Russians tables. Rows above only
 * take part where they have bits at the block's pivot columns, so banded matrices
 * stay cheap. */
static void back_substitute(ml_gf2_t *M, size_t rank, const size_t *piv, workspace_t *ws,
                            kernels_t K)
{
    size_t W = M->width, S = M->stride;
    signed char slot[64];
    size_t e = rank;
    while (e > 0) {
        if (ml_interrupt_poll()) return;     /* Ctrl-C: the caller drops the result */
        size_t s = e - 1;
        while (s > 0 && e - (s - 1) <= 64 && piv[e - 1] - piv[s - 1] < 64) s--;
        int kb = (int)(e - s);
        size_t c = piv[s];
        int span = (int)(piv[e - 1] - c + 1);
        /* within the block: clear each pivot column from the block rows above it */
        for (size_t t = e - 1; t > s; t--) {
            size_t pc = piv[t], w0 = pc >> 6;
            const uint64_t *p = ml_gf2_row(M, t);
            for (size_t q = s; q < t; q++) {
                uint64_t *row = ml_gf2_row(M, q);
                if ((row[w0] >> (pc & 63)) & 1) K.xor1(row + w0, p + w0, W - w0);
            }
        }
        /* the pivot columns as a mask over the window [c, c + span) */
        uint64_t mask = 0;
        for (int t = 0; t < 64; t++) slot[t] = -1;
        for (int t = 0; t < kb; t++) {
            int off = (int)(piv[s + (size_t)t] - c);
            mask |= (uint64_t)1 << off;
            slot[off] = (signed char)t;
        }
        int contiguous = span == kb;
        size_t nr = 0;
        for (size_t i = 0; i < s; i++) {
            uint64_t b = read_bits(ml_gf2_row(M, i), c, span, S) & mask;
            if (!b) continue;
            if (!contiguous) {
                uint64_t x = 0;
                for (; b; b &= b - 1) x |= (uint64_t)1 << slot[ctz64(b)];
                b = x;
            }
            ws->rows[nr] = i;
            ws->idx[nr] = b;
            nr++;
        }
        apply_block(M, s, c, kb, ws->rows, ws->idx, nr, ws, K);
        if (ws->oom) return;
        e = s;
    }
}

/* Panels (words) and strips (words) of the blocked forward elimination, used from
 * ML_BLOCK_MIN_BYTES of matrix on. Measured (AVX2, dense random N x N, CPU-time medians,
 * interleaved with M4RI's mzd_echelonize): N = 8192 from 0.66 to 0.44-0.47 of M4RI's
 * time; N = 4096 even (0.60-0.64); N = 2048 (512 KiB, fits L2) slower blocked, hence
 * the 2 MiB threshold. Panel 16 or strips of 8 words were no faster. Passes clearing
 * fewer than ML_DENSE_ROWS rows with tables (or none) are not deferred: on the 64 x 64
 * and 90 x 90 cross boards (factor of [A | I], 4 and 16 MiB) deferring every pass
 * cost 40%; with the threshold, 10%; and a panel after one without such a pass is not
 * blocked at all (bookkeeping only: the passes are still counted). */
#ifndef ML_PANEL
#define ML_PANEL 8
#endif
#ifndef ML_STRIP
#define ML_STRIP 16
#endif
#ifndef ML_DENSE_ROWS
#define ML_DENSE_ROWS 512
#endif
#ifndef ML_BLOCK_MIN_BYTES
#define ML_BLOCK_MIN_BYTES ((size_t)2 << 20)
#endif

size_t ml_gf2_echelonize_blocked(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv,
                                 size_t panel, size_t strip, size_t dense_rows)
{
    kernels_t K = kernels();
    size_t m = M->nrows, S = M->stride, W = M->width, r = 0, c = 0;
    if (pivot_cols > M->ncols) pivot_cols = M->ncols;
    workspace_t ws;
    oplog_t log;
    memset(&log, 0, sizeof log);
    size_t *pv = piv;
    ws.oom = 0;
    ws.tab = NULL;
    ws.cw = M->width < ML_CHUNK ? M->width : ML_CHUNK;
    if (ws.cw == 0) ws.cw = 1;
    if (strip > ws.cw) strip = ws.cw;
    if (strip == 0) panel = 0;
    ws.rows = malloc((m ? m : 1) * sizeof(size_t));
    ws.idx = malloc((m ? m : 1) * sizeof(uint64_t));
    if (!pv) pv = malloc((m ? m : 1) * sizeof(size_t));
    if (!ws.rows || !ws.idx || !pv) {
        free(ws.tab); free(ws.rows); free(ws.idx);
        if (pv != piv) free(pv);
        return (size_t)-1;
    }
    /* forward: clear below the pivots only. With panel > 0, the columns are taken a
     * panel (up to 64 * panel pivot columns) at a time: the passes run on the panel's
     * words only and are recorded, then replayed on the words right of the panel strip
     * by strip (strip words), so the matrix is streamed once per panel, not per pass. */
    int stopped = 0;   /* interrupted (interrupt.h): rank so far, no reduced form */
    int want = 1;   /* block this panel: the previous one had a dense pass (or first) */
    while (c < pivot_cols && r < m) {
        size_t cend = pivot_cols, wend = W;
        oplog_t *L = NULL;
        int dense = 0;
        if (panel) {
            if (cend - c > 64 * panel) cend = c + 64 * panel;
            wend = (cend + 63) >> 6;
            if (want && wend < W) {
                L = &log;
                log.nops = log.used = 0;
            } else {
                wend = W;
            }
        }
        while (c < cend && r < m) {
            if (ml_interrupt_poll()) { stopped = 1; break; }     /* Ctrl-C */
            size_t kmax = 64;
            if (kmax > cend - c) kmax = cend - c;
            if (kmax > m - r) kmax = m - r;
            int kb = gauss_block(M, r, c, (int)kmax, wend, L, K);
            if (kb == 0) { c++; continue; }
            size_t nr = 0, *rows = ws.rows;
            uint64_t *idx = ws.idx;
            if (L) {
                if (!log_reserve(L, m - r - (size_t)kb)) { log.oom = 1; break; }
                rows = L->rows + L->used;
                idx = L->idx + L->used;
            }
            for (size_t i = r + (size_t)kb; i < m; i++) {
                uint64_t b = read_bits(ml_gf2_row(M, i), c, kb, S);
                if (b) { rows[nr] = i; idx[nr] = b; nr++; }
            }
            int k = choose_k(kb, idx, nr);
            dense |= k > 0 && nr >= dense_rows;
            if (L && (k == 0 || nr < dense_rows)) {
                /* a light pass (banded matrices): deferring it would only cost calls
                 * per strip; bring the columns right of the panel up to date and apply
                 * it across the whole width */
                if (log.nops) replay(M, L, wend, W, strip, &ws, K);
                if (ws.oom) break;
                apply_range(M, r, kb, k, rows, idx, nr, c >> 6, W, &ws, K);
                log.nops = log.used = 0;
                nr = 0;
            } else {
                apply_range(M, r, kb, k, rows, idx, nr, c >> 6, wend, &ws, K);
            }
            if (ws.oom) break;
            if (L && nr) {
                log_op(L, LOG_PASS, r, 0);
                if (!log.oom) {
                    logop_t *o = &L->ops[L->nops - 1];
                    o->kb = kb;
                    o->k = k;
                    o->nr = nr;
                    o->off = L->used;
                }
                L->used += nr;
            }
            for (int t = 0; t < kb; t++) pv[r + (size_t)t] = c + (size_t)t;
            r += (size_t)kb;
            c += (size_t)kb;
        }
        if (ws.oom || log.oom) break;
        if (L && log.nops) replay(M, L, wend, W, strip, &ws, K);
        if (ws.oom || stopped) break;
        want = dense;
    }
    int oom = ws.oom || log.oom;
    if (full && !oom && !stopped) {
        back_substitute(M, r, pv, &ws, K);
        oom = ws.oom;
    }
    free(ws.tab); free(ws.rows); free(ws.idx);
    free(log.ops); free(log.rows); free(log.idx);
    if (pv != piv) free(pv);
    return oom ? (size_t)-1 : r;
}

size_t ml_gf2_echelonize_m4ri(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv)
{
    size_t bytes = M->nrows * M->stride * 8;
    int blocked = bytes >= ML_BLOCK_MIN_BYTES && M->width > ML_PANEL;
    return ml_gf2_echelonize_blocked(M, full, pivot_cols, piv, blocked ? ML_PANEL : 0,
                                     ML_STRIP, ML_DENSE_ROWS);
}

size_t ml_gf2_echelonize(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv)
{
    /* Measured (AVX2, [A | I] of random A): plain and M4RI are even from 32 to 64
     * rows, M4RI 2.5-5x faster from 128 rows on. */
    if (M->nrows < 64 || M->width <= 1)
        return ml_gf2_echelonize_naive(M, full, pivot_cols, piv);
    return ml_gf2_echelonize_m4ri(M, full, pivot_cols, piv);
}

size_t ml_gf2_rank(const ml_gf2_t *A)
{
    ml_gf2_t *C = ml_gf2_copy(A);
    if (!C) return (size_t)-1;
    size_t r = ml_gf2_echelonize(C, 0, C->ncols, NULL);
    ml_gf2_free(C);
    return r;
}

/* ======================================================================== factorisation */

void ml_gf2_fact_free(ml_gf2_fact_t *F)
{
    if (!F) return;
    ml_gf2_free(F->W);
    free(F->piv);
    free(F);
}

ml_gf2_fact_t *ml_gf2_factor(const ml_gf2_t *A)
{
    size_t m = A->nrows, r = A->ncols;
    ml_gf2_fact_t *F = calloc(1, sizeof *F);
    if (!F) return NULL;
    F->m = m;
    F->r = r;
    F->W = ml_gf2_new(m, r + m);
    F->piv = malloc(((m < r ? m : r) + 1) * sizeof(size_t));
    if (!F->W || !F->piv) { ml_gf2_fact_free(F); return NULL; }
    for (size_t i = 0; i < m; i++) {
        memcpy(ml_gf2_row(F->W, i), ml_gf2_row(A, i), A->width * 8);
        ml_gf2_flip(F->W, i, r + i);
    }
    size_t rank = ml_gf2_echelonize(F->W, 1, r, F->piv);
    if (rank == (size_t)-1) { ml_gf2_fact_free(F); return NULL; }
    F->rank = rank;
    return F;
}

ml_gf2_t *ml_gf2_kernel(const ml_gf2_fact_t *F)
{
    return ml_gf2_kernel_rows(F, 0, F->r - F->rank);
}

ml_gf2_t *ml_gf2_kernel_rows(const ml_gf2_fact_t *F, size_t first, size_t count)
{
    size_t r = F->r, rank = F->rank, null = r - rank;
    if (first > null) first = null;
    if (count > null - first) count = null - first;
    ml_gf2_t *H = ml_gf2_new(count, r);
    if (!H) return NULL;
    size_t h = 0, i = 0, t_end = 0;
    for (size_t f = 0; f < r && h < first + count; f++) {
        if (i < rank && F->piv[i] == f) { i++; continue; }
        if (h >= first) {
            /* basis vector of free column f: e_f + the pivot columns left of it whose
             * rows have a 1 in column f */
            while (t_end < rank && F->piv[t_end] < f) t_end++;
            ml_gf2_flip(H, h - first, f);
            for (size_t t = 0; t < t_end; t++)
                if (ml_gf2_get(F->W, t, f)) ml_gf2_flip(H, h - first, F->piv[t]);
        }
        h++;
    }
    return H;
}

ml_gf2_t *ml_gf2_pinv(const ml_gf2_fact_t *F)
{
    ml_gf2_t *G = ml_gf2_new(F->r, F->m);
    if (!G) return NULL;
    for (size_t i = 0; i < F->rank; i++)
        copy_bits(ml_gf2_row(G, F->piv[i]), ml_gf2_row(F->W, i), F->r, F->m, F->W->stride);
    return G;
}

int ml_gf2_det(const ml_gf2_fact_t *F)
{
    if (F->m != F->r) return -1;
    return F->rank == F->m ? 1 : 0;
}

ml_gf2_t *ml_gf2_solve_matrix(const ml_gf2_fact_t *F)
{
    size_t m = F->m, r = F->r, rank = F->rank;
    ml_gf2_t *GL = ml_gf2_new(r + m - rank, m);
    if (!GL) return NULL;
    for (size_t i = 0; i < rank; i++)
        copy_bits(ml_gf2_row(GL, F->piv[i]), ml_gf2_row(F->W, i), r, m, F->W->stride);
    for (size_t i = rank; i < m; i++)
        copy_bits(ml_gf2_row(GL, r + i - rank), ml_gf2_row(F->W, i), r, m, F->W->stride);
    ml_gf2_t *S = ml_gf2_transpose(GL);
    ml_gf2_free(GL);
    return S;
}

ml_gf2_t *ml_gf2_solve_dot(const ml_gf2_fact_t *F, const ml_gf2_t *B)
{
    size_t m = F->m, r = F->r, rank = F->rank;
    const ml_gf2_t *W = F->W;
    if (B->ncols != m) return NULL;
    ml_gf2_t *Y = ml_gf2_new(B->nrows, r + m - rank);
    uint64_t *bw = aligned_zalloc(W->stride + 1);
    if (!Y || !bw) { ml_gf2_free(Y); free(bw); return NULL; }
    size_t t0 = r >> 6, t1 = W->width;   /* the words holding T */
    for (size_t k = 0; k < B->nrows; k++) {
        const uint64_t *b = ml_gf2_row(B, k);
        /* b moved to columns [r, r + m) of W's frame */
        memset(bw, 0, W->stride * 8);
        for (size_t j = 0; j < B->width; j++) {
            size_t bit = r + 64 * j;
            bw[bit >> 6] |= b[j] << (bit & 63);
            if ((bit & 63) && (bit >> 6) + 1 < W->stride)
                bw[(bit >> 6) + 1] |= b[j] >> (64 - (bit & 63));
        }
        uint64_t *y = ml_gf2_row(Y, k);
        for (size_t i = 0; i < m; i++) {
            const uint64_t *t = ml_gf2_row(W, i);
            uint64_t acc = 0;
            for (size_t w = t0; w < t1; w++) acc ^= t[w] & bw[w];
            if (__builtin_parityll(acc)) {
                size_t col = i < rank ? F->piv[i] : r + i - rank;
                y[col >> 6] |= (uint64_t)1 << (col & 63);
            }
        }
    }
    free(bw);
    return Y;
}

ml_gf2_t *ml_gf2_solve_direct(const ml_gf2_t *A, const ml_gf2_t *B, size_t *rank)
{
    size_t m = A->nrows, r = A->ncols, k = B->nrows;
    if (B->ncols != m) return NULL;
    /* W = [A | B^T]: the right-hand sides ride along as the last k columns */
    ml_gf2_t *Bt = ml_gf2_transpose(B);
    ml_gf2_t *W = Bt ? ml_gf2_new(m, r + k) : NULL;
    ml_gf2_t *Y = W ? ml_gf2_new(k, r + 1) : NULL;
    size_t *piv = Y ? malloc(((m < r ? m : r) + 1) * sizeof(size_t)) : NULL;
    uint64_t *x = piv ? aligned_zalloc(W->stride) : NULL;
    if (!x) {
        ml_gf2_free(Bt); ml_gf2_free(W); ml_gf2_free(Y); free(piv);
        return NULL;
    }
    size_t rw = (r + 63) >> 6, sh = r & 63;
    for (size_t i = 0; i < m; i++) {
        uint64_t *w = ml_gf2_row(W, i);
        const uint64_t *b = ml_gf2_row(Bt, i);
        memcpy(w, ml_gf2_row(A, i), A->width * 8);
        for (size_t j = 0; j < Bt->width; j++) {      /* b's words shifted to bit r */
            size_t at = (r >> 6) + j;
            w[at] |= b[j] << sh;
            if (sh && at + 1 < W->width) w[at + 1] |= b[j] >> (64 - sh);
        }
    }
    ml_gf2_free(Bt);
    size_t rk = ml_gf2_echelonize(W, 0, r, piv);
    if (rk == (size_t)-1 || ml_interrupt_pending()) {
        ml_gf2_free(W); ml_gf2_free(Y); free(piv); free(x);
        return NULL;
    }
    /* rows rk.. are zero left of column r: right-hand side q is solvable iff their
     * bits at column r + q are all 0; then back substitution through the echelon
     * rows (x only has bits at pivot columns right of the current one, so the dot
     * product of row i with x is the sum over those columns) */
    for (size_t q = 0; q < k; q++) {
        size_t col = r + q, cw = col >> 6;
        uint64_t bit = (uint64_t)1 << (col & 63);
        uint64_t *y = ml_gf2_row(Y, q);
        int bad = 0;
        for (size_t i = rk; i < m && !bad; i++) bad = (ml_gf2_row(W, i)[cw] & bit) != 0;
        if (bad) { y[r >> 6] |= (uint64_t)1 << sh; continue; }
        memset(x, 0, W->stride * 8);
        for (size_t i = rk; i-- > 0;) {
            const uint64_t *w = ml_gf2_row(W, i);
            uint64_t acc = (w[cw] & bit) ? 1u : 0u;
            for (size_t t = piv[i] >> 6; t < rw; t++) acc ^= (uint64_t)__builtin_parityll(w[t] & x[t]);
            if (acc) x[piv[i] >> 6] |= (uint64_t)1 << (piv[i] & 63);
        }
        memcpy(y, x, rw * 8);
    }
    if (rank) *rank = rk;
    ml_gf2_free(W); free(piv); free(x);
    return Y;
}

void ml_gf2_solve_ok(const ml_gf2_t *Y, size_t r, uint8_t *ok)
{
    size_t w0 = r >> 6;
    uint64_t first = ~(uint64_t)0 << (r & 63);
    for (size_t i = 0; i < Y->nrows; i++) {
        const uint64_t *y = ml_gf2_row(Y, i);
        uint64_t acc = 0;
        if (w0 < Y->width) {
            acc = y[w0] & first;
            for (size_t w = w0 + 1; w < Y->width; w++) acc |= y[w];
        }
        ok[i] = acc == 0;
    }
}

/* ------------------------------------------------------------------ GF(2) residual systems */
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
    return ml_res_gf2_kernel_first(M, rows, cols, (size_t)-1, K);
}

size_t ml_res_gf2_kernel_first(const uint64_t *M, size_t rows, size_t cols, size_t max,
                               uint8_t **K) {
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
    const size_t want = null < max ? null : max;
    if (cols && want > (SIZE_MAX - 1) / cols) goto oom;   /* want x cols bytes: no wrap */
    *K = malloc(want * cols + 1);
    if (!*K) goto oom;
    for (size_t i = 0; i < rank; i++) isp[piv[i]] = 1;
    size_t f = 0;
    for (size_t c = 0; c < cols && f < want; c++) {
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
