/* gf2_impl.h: what the pieces of the GF(2) matrix code share (gf2.c, gf2_kernels.c,
 * gf2_echelon.c, gf2_factor.c; see gf2.c). Internal to csrc/dense/ (not installed, not
 * part of any API). */
#ifndef ML_GF2_IMPL_H
#define ML_GF2_IMPL_H
#include "dense/gf2.h"
#include <stddef.h>
#include <stdint.h>

/* Zeroed, 64-byte aligned memory of `words` words (large blocks 2 MiB aligned, for
 * transparent huge pages); NULL when out of memory or interrupted (gf2.c). */
void *ml_gf2__zalloc(size_t words);

/* ---- the row kernels (gf2_kernels.c) */
/* dst[0..n) ^= src[0..n) */
typedef void (*xor1_fn)(uint64_t *dst, const uint64_t *src, size_t n);
/* dst[0..n) ^= src[0][0..n) ^ ... ^ src[ns-1][0..n), 1 <= ns <= 8 */
typedef void (*xorn_fn)(uint64_t *dst, const uint64_t *const *src, int ns, size_t n);
/* Table lookups for a list of rows: for each t, words [0, n) of base + rows[t] * stride
 * ^= the ntab table entries picked by the k-bit fields of idx[t] (table g, entry v at
 * tab + (g * 256 + v) * ts, ts >= n; entry 0 is zero, so it needs no branch). The
 * 8- and 16-word paths assume ts = n. */
typedef void (*tabrows_fn)(uint64_t *base, size_t stride, const size_t *rows,
                           const uint64_t *idx, size_t nr, const uint64_t *tab, int k,
                           int ntab, size_t n, size_t ts);

typedef struct { xor1_fn xor1; xorn_fn xorn; tabrows_fn tabrows; } ml_gf2_kernels_t;

/* The kernels of the SIMD path in use (cpu.h: ml_simd_get). */
ml_gf2_kernels_t ml_gf2__kernels(void);

/* Column chunk (words) for table lookups. Measured (dense 8192, AVX2): one pass
 * over the rows with whole-row tables beats L2-sized chunks by 2-4x: the row traffic,
 * not the table lookups, is the bottleneck (for this loop, one kernel call per row;
 * the blocked elimination reuses 16-word strips across passes with one call per strip
 * and pass, see ML_PANEL). */
#ifndef ML_CHUNK
#define ML_CHUNK 512
#endif

static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }

#endif
