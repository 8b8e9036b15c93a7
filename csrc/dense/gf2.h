/* gf2.h: dense bit-packed matrices over GF(2) and their linear algebra.
 *
 * One type, ml_gf2_t (rows of 64-bit words; bit j of row i is bit j % 64 of word
 * j / 64; every row starts on a 64-byte boundary; padding bits are always 0), and
 * functions ml_gf2_<verb>, in the manner of M4RI's mzd_t / mzd_<verb>.
 *
 * Elimination is by the Method of Four Russians (M4RI, Albrecht & Bard): up to 64
 * pivots are found at consecutive columns and reduced among themselves, then the
 * rows below are cleared with lookups in up to eight tables of the 2^k combinations
 * of k pivot rows (k <= 8, each table entry one row XOR from an earlier entry, as
 * with a Gray code). On matrices of 2 MiB or more this forward elimination is
 * blocked: the passes of a panel of 512 pivot columns run on the panel's words only
 * and are recorded, then replayed on the columns to the right 16 words at a time, so
 * each strip stays in cache through the panel's passes instead of the whole matrix
 * being streamed once per pass (passes that clear few rows, as on banded boards, are
 * applied across the whole width at once). The reduced form is then reached by back substitution
 * in blocks of up to 64 pivot rows from the bottom up, again with tables, touching only the
 * rows that have bits at the block's pivot columns (so banded boards stay cheap).
 * Each block chooses plain word XORs or tables by counting row XORs. Matrices
 * under 64 rows use plain elimination (measured crossover). ml_gf2_echelonize is the
 * one entry point; the row XOR kernels go through the SIMD path chosen at run time
 * (cpu.h).
 *
 * Sizes are size_t; functions that allocate return NULL (or -1) when out of memory.
 * No function reads or writes outside the matrices it is given. */
#ifndef ML_GF2_H
#define ML_GF2_H
#include <stddef.h>
#include <stdint.h>

typedef struct ml_gf2 {
    size_t nrows, ncols;
    size_t width;    /* words holding ncols bits: ceil(ncols / 64) */
    size_t stride;   /* words from one row to the next: width rounded up to 8 */
    uint64_t *data;  /* nrows * stride words, 64-byte aligned, zero padding */
} ml_gf2_t;

static inline uint64_t *ml_gf2_row(const ml_gf2_t *M, size_t i)
{
    return M->data + i * M->stride;
}
static inline int ml_gf2_get(const ml_gf2_t *M, size_t i, size_t j)
{
    return (int)((ml_gf2_row(M, i)[j >> 6] >> (j & 63)) & 1u);
}
static inline void ml_gf2_flip(ml_gf2_t *M, size_t i, size_t j)
{
    ml_gf2_row(M, i)[j >> 6] ^= (uint64_t)1 << (j & 63);
}

/* ---- construction */
ml_gf2_t *ml_gf2_new(size_t nrows, size_t ncols);          /* all zero */
void ml_gf2_free(ml_gf2_t *M);                             /* NULL is fine */
ml_gf2_t *ml_gf2_copy(const ml_gf2_t *M);
ml_gf2_t *ml_gf2_identity(size_t n);
/* Entries (ci[t], tj[t]) each add 1 (so repeats cancel in pairs), in any order
 * (entries listed column by column are packed through the transpose). NULL when
 * out of memory or when an entry is out of range: then *bad (if not NULL) is its
 * index t (nnz otherwise). */
ml_gf2_t *ml_gf2_from_coo(size_t nrows, size_t ncols, const int64_t *ci,
                          const int64_t *tj, size_t nnz, size_t *bad);
/* Column j has a 1 added at row cells[t] for t in [indptr[j], indptr[j + 1]) (the
 * compressed-column form of Board.from_effects, 4-byte cells: a quarter of the index
 * traffic of int64 coordinates). Caller checks 0 <= indptr[j] <= indptr[j + 1].
 * NULL when out of memory or when a cell is out of range: then *bad (if not NULL)
 * is its index t ((size_t)-1 otherwise). */
ml_gf2_t *ml_gf2_from_csc(size_t nrows, size_t ncols, const int64_t *indptr,
                          const int32_t *cells, size_t *bad);
/* Low bits of a rows x cols array of bytes / int64 (row stride in elements). */
void ml_gf2_pack_u8(ml_gf2_t *M, const uint8_t *src, size_t src_stride);
void ml_gf2_pack_i64(ml_gf2_t *M, const int64_t *src, size_t src_stride);
/* Write columns [c0, c0 + cols) of M as 0/1 bytes. */
void ml_gf2_unpack_u8(const ml_gf2_t *M, size_t c0, size_t cols, uint8_t *dst,
                      size_t dst_stride);

/* ---- products and shape */
/* C = A B (C is A->nrows x B->ncols, allocated). M4RM (eight 8-bit tables per word
 * of A) for many rows, plain row XORs for few. */
ml_gf2_t *ml_gf2_mul(const ml_gf2_t *A, const ml_gf2_t *B);
ml_gf2_t *ml_gf2_transpose(const ml_gf2_t *A);
/* Transpose a 64 x 64 bit block in place (a[i] bit j <-> a[j] bit i): six levels
 * of swapping j x j sub-blocks, each a loop of constant trip count over consecutive
 * words that the compiler vectorises (inline: a SIMD-targeted caller gets its own
 * vector width). */
#define ML_T64_LEVEL(a, j, m)                                                      \
    for (int k0 = 0; k0 < 64; k0 += 2 * (j))                                       \
        for (int k = k0; k < k0 + (j); k++) {                                      \
            uint64_t t_ = (((a)[k] >> (j)) ^ (a)[k + (j)]) & (m);                  \
            (a)[k + (j)] ^= t_;                                                    \
            (a)[k] ^= t_ << (j);                                                   \
        }
static inline void ml_gf2_transpose64(uint64_t a[64])
{
    ML_T64_LEVEL(a, 32, 0x00000000FFFFFFFFull)
    ML_T64_LEVEL(a, 16, 0x0000FFFF0000FFFFull)
    ML_T64_LEVEL(a, 8, 0x00FF00FF00FF00FFull)
    ML_T64_LEVEL(a, 4, 0x0F0F0F0F0F0F0F0Full)
    ML_T64_LEVEL(a, 2, 0x3333333333333333ull)
    ML_T64_LEVEL(a, 1, 0x5555555555555555ull)
}
#undef ML_T64_LEVEL
int ml_gf2_equal(const ml_gf2_t *A, const ml_gf2_t *B);

/* ---- elimination */
/* Bring M to row echelon form in place, choosing pivots only among the first
 * `pivot_cols` columns (the others ride along, e.g. an identity to record the
 * transform). full != 0: reduced (Gauss-Jordan) form, else rows below pivots only.
 * Pivots are found column by column, top to bottom: piv[i] (if piv != NULL, room
 * for min(nrows, pivot_cols)) is the pivot column of row i. Returns the rank. */
size_t ml_gf2_echelonize(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv);
/* The two algorithms behind it, for tests and measurements. */
size_t ml_gf2_echelonize_naive(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv);
size_t ml_gf2_echelonize_m4ri(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv);
/* M4RI with the forward elimination blocked: `panel` words of pivot columns at a
 * time, the columns right of the panel updated `strip` words at a time (panel = 0:
 * unblocked); passes that clear fewer than dense_rows rows, or use no tables, are
 * applied across the whole width at once. ml_gf2_echelonize_m4ri picks the sizes. */
size_t ml_gf2_echelonize_blocked(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv,
                                 size_t panel, size_t strip, size_t dense_rows);
/* Rank of A (A unchanged); (size_t)-1 when out of memory. */
size_t ml_gf2_rank(const ml_gf2_t *A);

/* ---- factorisation: T A = E with T invertible (m x m), E in reduced echelon form.
 * Everything the solver asks for follows:
 *   x = G b solves A x = b whenever L b = 0, where G (r x m) has row piv[i] = T_i
 *   and L = rows rank..m-1 of T spans the left kernel of A. */
typedef struct ml_gf2_fact {
    size_t m, r, rank;
    ml_gf2_t *W;    /* [E | T]: m x (r + m) */
    size_t *piv;    /* piv[i]: pivot column of row i < rank */
} ml_gf2_fact_t;

ml_gf2_fact_t *ml_gf2_factor(const ml_gf2_t *A);
void ml_gf2_fact_free(ml_gf2_fact_t *F);
/* Basis of ker A as rows (r - rank) x r. */
ml_gf2_t *ml_gf2_kernel(const ml_gf2_fact_t *F);
/* Rows [first, first + count) of that basis (clipped to it): a bounded part of a
 * huge kernel. */
ml_gf2_t *ml_gf2_kernel_rows(const ml_gf2_fact_t *F, size_t first, size_t count);
/* G, r x m, with A G A = A (the inverse when A is invertible). */
ml_gf2_t *ml_gf2_pinv(const ml_gf2_fact_t *F);
/* det A: 0 or 1; -1 unless square. */
int ml_gf2_det(const ml_gf2_fact_t *F);
/* The solve matrix S = [G^T | L^T] (m x (r + m - rank)): for right-hand sides as the
 * rows of B (k x m), Y = B S holds the solutions in columns [0, r) and the
 * consistency checks in columns [r, r + m - rank) (all zero iff solvable). */
ml_gf2_t *ml_gf2_solve_matrix(const ml_gf2_fact_t *F);
/* The same Y = B S computed from the factorisation by dot products (no S needed):
 * cheaper than building S when B has few rows. Y is allocated. */
ml_gf2_t *ml_gf2_solve_dot(const ml_gf2_fact_t *F, const ml_gf2_t *B);
/* Solve A x = b for the rows b of B (k x m) without a factorisation: one forward
 * elimination of [A | B^T] (pivots among A's columns; the transform is never
 * carried), then back substitution per right-hand side. Y (k x (r + 1)) is laid
 * out as from ml_gf2_solve_dot: the solution (free columns 0) in columns [0, r),
 * bit r set iff that right-hand side is unsolvable (ml_gf2_solve_ok reads it).
 * *rank (if not NULL) receives rank(A). Cheaper than ml_gf2_factor + solve for a
 * few right-hand sides of one matrix. NULL when out of memory or interrupted. */
ml_gf2_t *ml_gf2_solve_direct(const ml_gf2_t *A, const ml_gf2_t *B, size_t *rank);
/* For each row i of Y (as above) ok[i] = 1 iff columns [r, ncols) are zero. */
void ml_gf2_solve_ok(const ml_gf2_t *Y, size_t r, uint8_t *ok);

/* ---- SIMD path (see cpu.h); returns the path in use */
int ml_gf2_simd(void);

/* ---- GF(2) residual systems (the chase's, chase/chase.h) by the Four Russians echelon
 * form (no factorisation kept: each call eliminates once; M: rows x cols bits, packed
 * rows of ceil(cols / 64) words, as ml_chase_matrix_gf2 writes it).
 * Solve M z = r_j for the k rows r_j of R (k x rows bytes, low bit used): one
 * echelon form of [M | R^T]. Z: k x cols bytes (all zero where unsolvable), ok: k.
 * Returns the rank of M, (size_t)-1 when out of memory. */
size_t ml_res_gf2_solve(const uint64_t *M, size_t rows, size_t cols, const uint8_t *R, size_t k,
                        uint8_t *Z, uint8_t *ok);
/* Kernel basis of M: *K = malloc'd (nullity x cols) bytes (free() it); returns the
 * nullity, (size_t)-1 when out of memory. */
size_t ml_res_gf2_kernel(const uint64_t *M, size_t rows, size_t cols, uint8_t **K);
/* The first min(nullity, max) vectors of that basis (the free columns in increasing
 * order, as ml_res_gf2_kernel orders them): *K = malloc'd (min(nullity, max) x cols)
 * bytes; returns the nullity, (size_t)-1 when out of memory or when the array's size
 * does not fit a size_t. */
size_t ml_res_gf2_kernel_first(const uint64_t *M, size_t rows, size_t cols, size_t max,
                               uint8_t **K);

#endif
