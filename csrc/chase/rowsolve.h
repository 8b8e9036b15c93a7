/* rowsolve.h: the row-solve chase over Z/n, for patterns whose last row is a pair.
 *
 * A tile (r, c) of an h x w board (no wrap, no locks, no holes, one pattern) is
 * affected by the taps (r + er[i], c + ec[i]), i < ne. Let D = max er. When the taps
 * of the last row are exactly the pair (D, -a), (D, +a) (the knight: (2, -1), (2, +1);
 * the diagonal: (1, -1), (1, +1)) and w is a multiple of 2a, the tiles of row r fix
 * the taps of row r + D completely: with t_c = b_c - (the taps of rows < r + D),
 *
 *     x[c - a] + x[c + a] = t_c   (c = 0..w-1, taps off the board are 0)
 *
 * is, on each class of columns mod a, the path system of even length, invertible:
 * x[c + a] = t_c + x[c - a] upwards for the columns c with (c / a) even, and
 * x[c - a] = t_c + x[c + a] downwards for the others. The light chase in row-major
 * order (csrc/chase/chase.c) instead forces only w - a taps a row and leaves a symbol and a
 * residual equation for each of the a others: D w + a (h - D) symbols (the knight:
 * 3w - 3) against D w here, and the solve of a row is its own left-right mirror
 * image, so for a symmetric pattern the symbolic chase runs only the symbols of the
 * left half of each symbol row and mirrors the rest of the residual matrix.
 *
 * Symbols: the taps of rows 0..D-1 (symbol r0 * w + c); residual equations: the
 * tiles of rows h-D..h-1 (equation (r - h + D) * w + c). As in chase.h,
 * rho(z) = rho(0) - M z, so A x = b <=> M z = rho(0), and then x = numeric(b, z).
 *
 * Over Z/n (n in 2..255) each offset has a coefficient cf (its multiplicity mod n,
 * 1..n-1): alpha at (D, -a), beta at (D, +a), and the row system reads
 * alpha x[c - a] + beta x[c + a] = t_c. When alpha and beta are units mod n it is
 * solved by the same two chains, x[c + a] = beta^-1 (t_c - alpha x[c - a]) upwards and
 * x[c - a] = alpha^-1 (t_c - beta x[c + a]) downwards; otherwise the board is not
 * eligible (the light chase of chase.h takes it). The mirror image is used when every
 * offset's mirror image has the same coefficient. */
#ifndef ML_ROWSOLVE_H
#define ML_ROWSOLVE_H
#include <stddef.h>
#include <stdint.h>

typedef struct ml_rowsolve ml_rowsolve;

/* Largest |er|, |ec| and number of offsets the plan takes. */
#define ML_ROWSOLVE_MAX_REACH 4096
#define ML_ROWSOLVE_MAX_OFFSETS 4096

/* 1 when (h, w, offsets) can be solved this way over GF(2) (see above), else 0. The
 * offsets must be distinct (the ones of odd multiplicity). */
int ml_rowsolve_eligible(int h, int w, int ne, const int32_t *er, const int32_t *ec);
/* The same over Z/n: cf[ne] the coefficients (1..n-1; NULL: all 1), the pair's units. */
int ml_rowsolve_eligible_zn(int h, int w, int n, int ne, const int32_t *er, const int32_t *ec,
                            const int32_t *cf);
/* The plan, or NULL with *err = 1 (not eligible / bad arguments) or 2 (no memory). */
ml_rowsolve *ml_rowsolve_plan(int h, int w, int ne, const int32_t *er, const int32_t *ec,
                              int *err);
ml_rowsolve *ml_rowsolve_plan_zn(int h, int w, int n, int ne, const int32_t *er,
                                 const int32_t *ec, const int32_t *cf, int *err);
void ml_rowsolve_free(ml_rowsolve *p);
size_t ml_rowsolve_nsym(const ml_rowsolve *p);
int ml_rowsolve_n(const ml_rowsolve *p);
/* 1 when the pattern is its own left-right mirror image. */
int ml_rowsolve_mirrored(const ml_rowsolve *p);

/* Residual matrix: n_res rows of stride = ceil(n_sym / 64) words, zeroed
 * by the caller. bw: words a symbolic tap (symbols per pass = 64 bw; 0: 8). mirror:
 * use the mirror symmetry when the pattern has it. Returns 0, 2 (no memory) or 3
 * (interrupted, M meaningless). */
int ml_rowsolve_matrix(const ml_rowsolve *p, uint64_t *M, int threads, size_t bw, int mirror);

/* Residual matrix over Z/n (any plan, n = 2 too): n_res rows of n_sym bytes (entries
 * < n; every entry written). bz: symbols a pass, a byte each (0: 256, at most
 * ML_ROWSOLVE_MAX_BZ); threads, mirror and the return value as above. */
#define ML_ROWSOLVE_MAX_BZ 4096
int ml_rowsolve_matrix_zn(const ml_rowsolve *p, uint8_t *M, int threads, size_t bz, int mirror);
/* The same matrix for n = 3 and 4, the symbolic pass bit-sliced (bitslice.h: two
 * planes, 64 symbols a word); bw: words a plane (symbols a pass = 64 bw; 0: 8).
 * Returns 1 for any other n, else as above. */
int ml_rowsolve_matrix_sliced(const ml_rowsolve *p, uint8_t *M, int threads, size_t bw,
                              int mirror);

/* Numeric chase: b[h*w] right-hand sides (< n; n = 2: low bit used), z[n_sym] symbol
 * values (< n; NULL: zeros) -> x[h*w] taps, rho[n_res] residuals b - A x of the last D
 * rows. Returns 0, 2 or 3. */
int ml_rowsolve_numeric(const ml_rowsolve *p, const uint8_t *b, const uint8_t *z, uint8_t *x,
                        uint8_t *rho);

#endif
