/* solver_engine.h: a solver's own engine asked directly, for a binding that keeps its own
 * Solver facade over the library's engines (Python's engine adapter,
 * src/modlights/engines/native.py: the registry's Engine protocol of engines/base.py).
 *
 * Each function is one call on the solver: it takes the solver (ML_EMISUSE when dead or
 * used by another thread), opens a scope (the stop flag and progress of ctx; a stopped
 * loop returns ML_EINTERRUPTED), builds the plan's engine on first need, asks it, gives
 * the solver back. Unlike the public questions (ml_solver_kernel, ml_solver_solve) these
 * answer with the engine's own data: its generators as it makes them (not canonical),
 * its particular solutions of right-hand sides over the cells. A question the engine
 * does not define is answered by the solver's fallback (the dense engine) where
 * modlights.h's seam says so (solve, generators), else as stated. */
#ifndef ML_API_SOLVER_ENGINE_H
#define ML_API_SOLVER_ENGINE_H

#include "include/modlights.h"

#include <stddef.h>
#include <stdint.h>

/* Engine.solve: R k x n_cells right-hand sides t - s (bytes < n); X k x n_taps tap
 * vectors, ok[i] whether R[i] is solvable (X[i] unspecified when not). k = 0: nothing.
 * O(the engine's solve of k right-hand sides). */
int ml__solver_engine_solve(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *R,
                            uint8_t *X, uint8_t *ok);
/* Engine.generators(limit): the engine's first min(limit, nullity) generators of ker A,
 * *k of them (rows of H, k x n_taps bytes, and their additive orders); H = NULL asks for
 * *k alone. The engine's limits and messages apply (its kernel basis cap). */
int ml__solver_engine_generators(ml_ctx *ctx, ml_solver *s, uint64_t limit, uint64_t *k,
                                 uint8_t *H, uint32_t *orders);
/* Engine.kernel_fits: whether the engine's kernel basis fits its memory cap (1 for an
 * engine that does not say). */
int ml__solver_engine_kernel_fits(ml_ctx *ctx, ml_solver *s, int *fits);
/* Engine.packs / transposed: whether the own engine solves this GF(2) grid's packed
 * states (it defines solve_packed and n = 2), and whether through bit transposes (it
 * chases down the columns). O(pattern). */
int ml__solver_engine_packed(ml_ctx *ctx, ml_solver *s, int *packs, int *transposed);
/* Engine.solve_packed: the own engine's taps of fill ^ packed (rows x ceil(cols / 8)
 * bytes, np.packbits rows) in the same layout, *solvable 0 when none exist (out then
 * unspecified). ML_EINVAL (ML_M_PACKED_NEEDS_GF2_GRID) unless the board is a GF(2)
 * grid; ML_EUNAVAILABLE ("not available from the %s engine on its own") when the engine
 * does not pack it (ml__solver_engine_packed says whether it does). */
int ml__solver_engine_solve_packed(ml_ctx *ctx, ml_solver *s, const uint8_t *packed,
                                   unsigned fill, uint8_t *out, int *solvable);

/* solve_packed.c: whether the library engine e solves b along its rows (1), through
 * bit transposes (0), or unknown (-1); a seam engine: 1. */
struct ml__engine;
int ml__packed_along_rows(const struct ml__engine *e, const ml_board *b);

#endif
