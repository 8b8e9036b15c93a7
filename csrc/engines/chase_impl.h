/* chase_impl.h: what the chase engines (engines/chase.c, engines/chase_row.c) and the
 * registry's covers of the chase variants (api/registry_own.c) share, in
 * engines/chase_layout.c; and the row chase's engine as the choosing entry takes it. */
#ifndef ML_ENGINES_CHASE_IMPL_H
#define ML_ENGINES_CHASE_IMPL_H

#include "include/modlights.h"
#include "chase/chase.h"
#include "chase/rowsolve.h"

#include <stddef.h>
#include <stdint.h>

/* The bits of v (Python's int.bit_length). */
int ml__chase_bit_length(unsigned __int128 v);
/* limits.py's check_residual_size: whether the residual system of nres equations in nsym
 * symbols mod n fits MAX_RESIDUAL_BYTES and MAX_RESIDUAL_WORK (1) or not (0); *z the
 * arguments of ML_M_CHASE_RESIDUAL's message after nres, nsym and n. */
typedef struct ml__residual_size {
    double mib, max_mib;
    int work_log2, max_work_log2;
} ml__residual_size;
int ml__chase_residual_fits(uint64_t nres, uint64_t nsym, int n, ml__residual_size *z);
/* The same as a status: ML_ETOOLARGE with the message, else ML_OK (engines/chase.c). */
int ml__chase_check_residual_size(ml_ctx *ctx, uint64_t nres, uint64_t nsym, int n);

/* engine.py's _rowsolve_layout: the distinct offsets of b's one pattern in order of
 * first appearance with their multiplicity mod n (zero ones dropped: er = -dr, ec = -dc,
 * cf, ne of them), and the orientation t (0 the rows, 1 the columns) that is eligible
 * (chase/rowsolve.h), whose ring fits ROWSOLVE_RING_BYTES, with the fewest symbols
 * sym = D x w. */
typedef struct ml__rowsolve_layout {
    int32_t *er, *ec, *cf;
    size_t ne;
    int t;          /* -1: no orientation */
    uint64_t sym;
} ml__rowsolve_layout;
/* 1 with *L filled when an orientation takes b, 0 when none does (b not a uniform grid
 * without wrap, locks or holes, or no orientation eligible), -1 out of memory; free
 * with ml__rowsolve_layout_free in every case. */
int ml__rowsolve_layout_of(const ml_board *b, ml__rowsolve_layout *L);
void ml__rowsolve_layout_free(ml__rowsolve_layout *L);

/* engine.py's rowsolve_plan: the plan of b's layout (ml__rowsolve_layout_of) along the
 * rows or, when *transposed is set on return, the columns. NULL with *rc = ML_OK when neither fits
 * (or the board has wrap, locks, holes or mixed patterns); NULL with *rc a status (out
 * of memory) on failure. */
ml_rowsolve *ml__chase_rowsolve_plan(ml_ctx *ctx, const ml_board *b, int *transposed, int *rc);

/* engine.py's _light_plan: build_plan of b along the rows or, for a board wider than
 * tall whose columns give fewer symbols, along the columns (*transposed = 1: the plan of
 * transpose_board(b), tile (r, c) -> (c, r)). NULL with *rc set (ML_ENOMEM, or
 * ML_EINVAL when the plan refuses the board's tables) on failure. scratch (may be NULL):
 * when *scratch is NULL and b has locks or holes, *scratch takes a buffer of rows * cols
 * + 1 bytes the build wrote (to free; a solve's work space without fresh pages). */
ml_chase *ml__chase_light_plan(ml_ctx *ctx, const ml_board *b, int *transposed, int *rc,
                               uint8_t **scratch);
/* _b_grid: b's right-hand side over its cells (n_cells bytes) -> bg, a byte a tile in
 * the layout of the plan along the rows (t = 0) or the columns (t = 1), zero at holes;
 * _tap_vec: x in that layout -> out over b's taps (n_taps bytes). Every tile a cell (a
 * tap): a copy, or a tiled transpose (ml_band_transpose). O(tiles). */
void ml__chase_to_plan(const ml_board *b, int t, const uint8_t *rhs, uint8_t *bg);
void ml__chase_from_plan(const ml_board *b, int t, const uint8_t *x, uint8_t *out);

/* The row chase's engine (engines/chase_row.c, rowchase.py's RowChaseSystem) over a
 * light plan of b: RowChaseSystem's limits checked first (ML_ETOOLARGE with
 * ML_M_ROWCHASE_RECORDS / ML_M_ROWCHASE_LIVE), then one kernel run a prime-power factor
 * of n. plan is borrowed (it must outlive the engine; chase.c's choosing entry owns it)
 * when own = 0, else the engine frees it (on failure too). Questions: the
 * ml__chase_row_ops vtable (engines/chase.h) on *engine. */
int ml__chase_row_new(ml_ctx *ctx, const ml_board *b, ml_chase *plan, int transposed, int own,
                      void **engine);

#endif
