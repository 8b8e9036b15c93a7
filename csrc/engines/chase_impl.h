/* chase_impl.h: what engines/chase.c and engines/chase_rowsolve.c share. */
#ifndef ML_ENGINES_CHASE_IMPL_H
#define ML_ENGINES_CHASE_IMPL_H

#include "include/modlights.h"
#include "chase/rowsolve.h"

#include <stdint.h>

/* The bits of v (Python's int.bit_length). */
int ml__chase_bit_length(unsigned __int128 v);
/* limits.py's check_residual_size: ML_ETOOLARGE (ML_M_CHASE_RESIDUAL) when the residual
 * system of nres equations in nsym symbols mod n passes MAX_RESIDUAL_BYTES or
 * MAX_RESIDUAL_WORK (engines/chase.c), else ML_OK. */
int ml__chase_check_residual_size(ml_ctx *ctx, uint64_t nres, uint64_t nsym, int n);

/* engine.py's rowsolve_plan (engines/chase_rowsolve.c): the plan of b's one pattern
 * (offsets in order of first appearance with their multiplicity mod n, zero ones
 * dropped) along the rows or, when
 * *transposed is set on return, the columns: the eligible orientation whose ring fits
 * ROWSOLVE_RING_BYTES with the fewest symbols. NULL with *rc = ML_OK when neither fits
 * (or the board has wrap, locks, holes or mixed patterns); NULL with *rc a status (out
 * of memory) on failure. */
ml_rowsolve *ml__chase_rowsolve_plan(ml_ctx *ctx, const ml_board *b, int *transposed, int *rc);

#endif
