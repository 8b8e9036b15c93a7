/* chase.h: the chase engines' questions in C (engines/chase.c, engines/chase_row.c), for
 * the registry's entries "chase", "chase-light", "chase-prefix", "chase-row",
 * "chase-rowsolve" (registry_own.c) and the solver (api/solver.c).
 *
 * An ml_engine_def holding only the questions (build, destroy, solve, nullity,
 * kernel_size, generators; user NULL): covers and cost stay the registry's own. It is
 * src/modlights/engines/chase/engine.py's ChaseEngine(variant="light"): the light chase
 * along the rows or, for a board wider than tall whose columns give fewer symbols, along
 * the columns; its residual system refused past MAX_RESIDUAL_BYTES / MAX_RESIDUAL_WORK
 * with limits.py's message, then eliminated whole (GF(2): the Four Russians residual
 * solver of dense/gf2.c; Z/n: the dense Z/n engine over the residual matrix, CRT over
 * the prime powers of n, its generators and orders); kernel generators of the residual
 * system pushed through the numeric chase. det / inverse / pseudo-inverse are NULL:
 * the solver's dense fallback answers them, as the Python registry does. */
#ifndef ML_ENGINES_CHASE_H
#define ML_ENGINES_CHASE_H

#include "include/modlights.h"

extern const ml_engine_def ml__chase_light_ops;
/* ChaseEngine(variant="prefix"): the same, but a tall residual system (locks, holes) is
 * first tried by prefixes (engine.py's _prefix_residual: PREFIX_RATIO x symbols
 * equations, PREFIX_GROWTH times as many while at most half the system, prefixes that a
 * symbol made past every equation would leave a kernel skipped) and one that leaves no
 * kernel is the whole system: its solution the only candidate, the numeric replay
 * checks every other equation. */
extern const ml_engine_def ml__chase_prefix_ops;
/* ChaseEngine(variant="rowsolve"): the row-solve chase (chase/rowsolve.h) of a board with
 * one pattern, no wrap, locks or holes, whose last row of taps is a pair of unit taps,
 * along the rows or the columns (the eligible one with fewer symbols), its residual
 * system eliminated whole. */
extern const ml_engine_def ml__chase_rowsolve_ops;
/* ChaseEngine(variant="row"): the row chase (engines/chase_row.c, rowchase.py's
 * RowChaseSystem) on the light chase's plan: online elimination, no residual matrix;
 * any n (a run a prime-power factor, Z/p^e by valuation with a pending system solved by
 * the Z/q engine, the factors combined by CRT); refused past RowChaseSystem's limits
 * (ML_ETOOLARGE: ML_M_ROWCHASE_RECORDS, ML_M_ROWCHASE_LIVE, ML_M_ROWCHASE_BYTES). */
extern const ml_engine_def ml__chase_row_ops;
/* ChaseEngine(variant=None), the registry's "chase": the variant chosen from the board's
 * plans (the row-solve chase when it has the fewest symbols; the row chase for many holes
 * or locks, more than ROWCHASE_MIN_RATIO symbols a column; a prefix of a tall residual
 * system that leaves no kernel; the row chase for a tall system past
 * ROWCHASE_TALL_ENTRIES none of whose prefixes does; else the light chase), answering as
 * that variant. */
extern const ml_engine_def ml__chase_choose_ops;
/* The registered name of the variant a ml__chase_choose_ops engine took (NULL for the
 * other chase engines) and *why it did (ChaseEngine.variant / variant_reason). */
const char *ml__chase_variant(const void *engine, const char **why);

#endif
