/* chase.h: structured solving of grid boards by generalised light chasing.
 *
 * A grid board (h x w tiles, n states, any local pattern, locked tiles, holes,
 * wrap) is reduced to a small residual system over "symbols":
 *
 *   - every active tile (a row of A) has the list of taps that affect it, with
 *     their coefficients mod n (zero coefficients dropped); its "last tap" L(c)
 *     is the affecting tap latest in row-major order;
 *   - taps are determined in row-major order: tap p is forced by the first tile c
 *     (row-major) with L(c) = p whose coefficient on p is a unit mod n; when there
 *     is none (locked neighbourhoods, non-unit coefficients, the first rows) p
 *     becomes a new symbol;
 *   - every other tile gives a residual equation over the symbols.
 *
 * Every tap is an affine function of the symbols (the map symbols -> taps is
 * injective: a symbol is itself a tap), so A x = b  <=>  M z = rho with M the
 * residual matrix (n_res x n_sym) and rho the residual of the numeric chase with
 * z = 0; x = chase(b, z). |ker A| = |ker M|.
 *
 * ml_chase_plan builds the structure; ml_chase_matrix_{gf2,zn} run the symbolic
 * chase (linear parts only, a sliding set of live taps); ml_chase_numeric replays
 * the chase numerically. ml_res_gf2_* (dense/gf2.h) solve GF(2) residual systems by the Four
 * Russians echelon form of gf2.h (Z/n residuals go to the dense Z/n engine, zn.h).
 */
#ifndef ML_CHASE_H
#define ML_CHASE_H
#include <stddef.h>
#include <stdint.h>

typedef struct ml_chase ml_chase;

/* Geometry: h x w tiles, n in 2..255, wrap 0/1.
 * active[h*w], tappable[h*w]: 0/1 masks (tappable implies active); NULL means
 * every tile (nothing per tile is then kept).
 * nu offsets (udr[k], udc[k]), the distinct offsets of every pattern used.
 * npat patterns; cnt[pat * nu + k] = how many times offset k is in pattern pat.
 * pat_of[h*w]: pattern index per tile, or NULL when npat == 1.
 * Returns NULL and sets *err (1: bad arguments, 2: out of memory). */
ml_chase *ml_chase_plan(int h, int w, int n, int wrap, const uint8_t *active,
                        const uint8_t *tappable, int nu, const int32_t *udr,
                        const int32_t *udc, int npat, const int32_t *cnt,
                        const int32_t *pat_of, int *err);
void ml_chase_free(ml_chase *p);
/* 1 when the plan works on the stencil (no wrap: no per-tile lists kept). */
int ml_chase_is_stencil(const ml_chase *p);

size_t ml_chase_nsym(const ml_chase *p);
size_t ml_chase_nres(const ml_chase *p);
size_t ml_chase_peak_live(const ml_chase *p);
/* Distinct rows of forcing codes kept (a board without locks keeps a few). */
size_t ml_chase_pool_rows(const ml_chase *p);
/* 1 when the plan is its own left-right mirror image (uniform symmetric pattern,
 * every tile tappable, mirror-symmetric forcing): the symbolic chase then runs only
 * the blocks of half the symbols and mirrors the rest of the residual matrix. */
int ml_chase_mirrored(const ml_chase *p);
/* Flat tile index of each symbol (n_sym) and of each residual tile (n_res). */
void ml_chase_symbols(const ml_chase *p, int64_t *out);
void ml_chase_residual_tiles(const ml_chase *p, int64_t *out);

/* Residual matrix, n == 2: n_res rows of nw = ceil(n_sym/64) words (stride nw).
 * The symbols are taken in blocks of `block` words (0: the default, 8 = 512
 * symbols), one pass over the board per block, the blocks shared by `threads`
 * workers. Returns 0, 2 on out of memory, or 3 when interrupted (interrupt.h). */
int ml_chase_matrix_gf2(const ml_chase *p, uint64_t *M, int threads, size_t block);
/* Residual matrix, any n: n_res x n_sym uint8 (row-major); blocks of `block`
 * symbols (0: the default, 256). */
int ml_chase_matrix_zn(const ml_chase *p, uint8_t *M, int threads, size_t block);

/* The same, choosing the representation of the symbolic vectors: packed = 1 keeps Z/3,
 * Z/4 and Z/8 bit-sliced (bitslice.h: 2 or 3 bit-planes, 64 symbols a word; `block`
 * symbols are rounded up to whole words, 0: 8 words = 512 symbols, MODLIGHTS_CHASE_BP
 * words), packed = 0 (and every other n) bytes with delayed reduction. The same matrix
 * either way (the first `rows` rows, as below). */
int ml_chase_matrix_zn_mode(const ml_chase *p, uint8_t *M, size_t rows, int threads,
                            size_t block, int packed);

/* The first `rows` residual rows only (rows <= n_res; M: rows x stride as above): the
 * pass over the board stops after the last tile they need, so a prefix of a tall
 * residual system (a board with many locked tiles) costs the part of the board it
 * reads. The residual rows are in the order of the rho of ml_chase_numeric. */
int ml_chase_matrix_gf2_rows(const ml_chase *p, uint64_t *M, size_t rows, int threads,
                             size_t block);
int ml_chase_matrix_zn_rows(const ml_chase *p, uint8_t *M, size_t rows, int threads,
                            size_t block);

/* Numeric chase: b[h*w] right-hand side per tile (t - s, values < n; ignored at
 * holes), z[n_sym] symbol values (NULL: all zero). Writes taps x[h*w] (0 where
 * not tappable) and residuals rho[n_res] = b_c - (A x)_c for the residual tiles.
 * rho is affine in z: rho(z) = rho(0) - M z, so A x = b  <=>  M z = rho(0), and
 * then x = numeric(b, z). */
void ml_chase_numeric(const ml_chase *p, const uint8_t *b, const uint8_t *z,
                      uint8_t *x, uint8_t *rho);

/* ---- The plan as the row chase (rowchase.h) walks it: taps in row-major order.
 * Forcing codes of row r (w codes: >= 0 forced, -2 not a tap, <= -3 a symbol; symbols
 * are numbered in tap order); the tile forcing tap t of code e >= 0; the taps
 * affecting tile c in ascending order with their coefficients mod n (qs, cf: room for
 * ml_chase_max_taps entries; the last is the tile's last tap); the tap after which
 * each residual equation can be evaluated (nres entries, non-decreasing, -1: before
 * the first); the ring slot of tap q, ml_chase_slots slots; a tap is read at most
 * ml_chase_reach taps after it is determined (stencil; with lists every slot may be). */
void ml_chase_geometry(const ml_chase *p, int *h, int *w, int *n);
const int32_t *ml_chase_codes(const ml_chase *p, int r);
int64_t ml_chase_forcing_tile(const ml_chase *p, int32_t e, int64_t t);
int ml_chase_taps_of(const ml_chase *p, int64_t c, int32_t *qs, uint8_t *cf);
int ml_chase_max_taps(const ml_chase *p);
void ml_chase_residual_events(const ml_chase *p, int64_t *out);
size_t ml_chase_slot(const ml_chase *p, int64_t q);
size_t ml_chase_slots(const ml_chase *p);
int64_t ml_chase_reach(const ml_chase *p);

#endif
