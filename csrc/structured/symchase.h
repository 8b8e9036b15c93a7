/* symchase.h: the light chase of uniform grid boards whose pattern lies in the 3 x 3 box
 * and is left-right symmetric, over GF(p).
 *
 * With P the w x w path adjacency (ones on the sub- and super-diagonals), the tap rows
 * X_0..X_{h-1} and right-hand side rows b_r satisfy
 *     C_{-1} X_{r-1} + C_0 X_r + C_1 X_{r+1} = b_r,   C_k = a_k I + b_k P,
 * with X_{-1} = X_h = 0 (a_k = count of (k, 0), b_k = count of (k, +1) = count of
 * (k, -1), all mod p). When C_1 is invertible, chasing from X_0 = z forces
 *     X_{r+1} = C_1^-1 (b_r - C_0 X_r - C_{-1} X_{r-1}),
 * one tridiagonal Toeplitz solve a row, done in O(w) by a shooting recurrence that
 * stays valid whenever C_1 is invertible (no pivots): y_0 = u unknown, the first w - 1
 * equations give y_i = alpha_i u + beta_i, the last fixes u. The board is solved iff
 * the virtual row X_h vanishes.
 *
 * Layouts: bytes, one tile a byte, values < p; over GF(2) also np.packbits rows
 * (ml_symchase_run_packed, csrc/structured/packed.h), where the tridiagonal solve is a prefix XOR
 * on 64-bit words (see symchase.c).
 */
#ifndef ML_SYMCHASE_H
#define ML_SYMCHASE_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t h, w;
    unsigned p;       /* prime, 2..251 */
    unsigned a[3];    /* a[k], b[k]: C_{k-1} = a[k] I + b[k] P, the coefficient of X_{r-1+k} */
    unsigned b[3];    /* (a[2]: count of (-1,0), b[2]: of (-1,+1); a[0], b[0]: of (+1,.)) */
} ml_symchase;

/* Whether C_1 = a[2] I + b[2] P (w x w) is invertible mod p. */
int ml_symchase_invertible(const ml_symchase *P);

/* Chase b (h x w bytes) from X_0 = z (NULL: zero): writes the taps x (h x w) and the
 * virtual row X_h to last (w bytes). Returns 0; 1 when C_1 is singular; 2 when out of
 * memory. */
int ml_symchase_run(const ml_symchase *P, const uint8_t *b, const uint8_t *z, uint8_t *x,
                    uint8_t *last);

/* GF(2) on np.packbits rows (ceil(w / 8) bytes a row; bits past column w ignored on
 * input, 0 on output): the chase of b_eff = tc ^ b from X_0 = z (NULL: zero; ceil(w / 64)
 * words, bit c of word c / 64), the taps to x (NULL: not written, a read-only pass) and
 * the virtual row X_h to last (words as z). O(h w / 64) word operations. Returns 0; 1
 * when p != 2 or C_1 is singular; 2 when out of memory. Polls ml_interrupt_poll()
 * (outputs meaningless when it stopped the work). */
int ml_symchase_run_packed(const ml_symchase *P, const uint8_t *b, unsigned tc,
                           const uint64_t *z, uint8_t *x, uint64_t *last);
/* GF(2): y_r = C_1^-1 y_r in place for `rows` np.packbits rows of w columns (row r at
 * y + r * stride), C_1 = a[2] I + b[2] P (the rest of P and h unused): the row solve
 * of the chase alone, O(w / 64) word operations a row (the tensor engine's column
 * direction when that factor is I + P or P). Returns as ml_symchase_run_packed. */
int ml_symchase_solve_rows_packed(const ml_symchase *P, uint8_t *y, size_t rows,
                                  size_t stride);
/* The same row solve prepared once for many calls (the invertibility check and the
 * row kernel's tables): NULL with *why 1 when p != 2 or C_1 is singular, 2 when out of
 * memory. ml_symchase_rows_run solves `rows` rows in place as above (one thread at a
 * time on one S); returns 1 when ml_interrupt_poll() stopped it (rows left as they
 * were meaningless), else 0. */
typedef struct ml_symchase_rows ml_symchase_rows;
ml_symchase_rows *ml_symchase_rows_new(const ml_symchase *P, int *why);
int ml_symchase_rows_run(ml_symchase_rows *S, uint8_t *y, size_t rows, size_t stride);
void ml_symchase_rows_free(ml_symchase_rows *S);

#endif
