/* symmetry.h: the geometric symmetries of a grid board's tap matrix A (and of a
 * right-hand side b), search/symmetry.py's symmetries(): pairs of permutations (cells,
 * taps) with A[cells[i], taps[j]] = A[i, j] for every entry and b[cells[i]] = b[i].
 * Candidates: the rectangle's dihedral group without the identity (8 maps for a square,
 * 4 otherwise), on tori composed with translations (every translation when rows * cols *
 * |dihedral| <= ML_SYM_MAX + 1, else those by half the sides), at most ML_SYM_MAX, in
 * Python's order; each kept when it maps cells to cells and taps to taps and keeps A
 * (entries mod n) and b. Graph boards and boards without cells have none. O(|A| log |A|)
 * per candidate. */
#ifndef ML_SEARCH_SYMMETRY_H
#define ML_SEARCH_SYMMETRY_H

#include "include/modlights.h"

#include <stdint.h>

#define ML_SYM_MAX 127   /* symmetry.py's MAX_SYMMETRIES */

typedef struct ml_syms {
    uint64_t k;          /* symmetries found */
    uint64_t *cells;     /* k x n_cells: the image of cell i */
    uint64_t *taps;      /* k x n_taps: the image of tap j */
} ml_syms;

/* rhs: n_cells entries (any bytes, reduced mod n) or NULL. *out filled (free with
 * ml_syms_free); ML_ENOMEM on failure. */
int ml_symmetries(ml_ctx *ctx, const ml_board *b, const uint8_t *rhs, ml_syms *out);
void ml_syms_free(ml_syms *s);

#endif
