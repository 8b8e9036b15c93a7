# Declarations of the solvers and results of csrc/include/modlights.h (the public C API;
# csrc/api/solver.c), for modlights.native._core (_solver.pxi): declared here once,
# cimported there. Only the public header is bound.
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t

from modlights.native.board cimport ml_board, ml_ctx, ml_factored
from modlights.native.registry cimport ml_plan


cdef extern from "include/modlights.h" nogil:
    ctypedef struct ml_solver:
        pass
    ctypedef struct ml_result:
        pass
    ctypedef struct ml_target:
        const uint8_t *tiles
        unsigned fill
    ctypedef struct ml_budget:
        int kind
        uint64_t steps
        double seconds
    enum:
        ML_SOLVE_MINIMAL
        ML_SOLVE_PROOF

    ml_target ml_target_fill(unsigned fill)
    ml_target ml_target_tiles(const uint8_t *tiles)
    ml_budget ml_budget_default()
    ml_budget ml_budget_steps(uint64_t steps)
    ml_budget ml_budget_seconds(double seconds)
    uint64_t ml_board_default_steps(const ml_board *b)

    int ml_solver_new(ml_ctx *ctx, ml_board *b, const char *method, ml_solver **out)
    int ml_solver_new_plan(ml_ctx *ctx, ml_board *b, const ml_plan *plan, ml_solver **out)
    void ml_solver_free(ml_solver *s)
    const ml_board *ml_solver_board(const ml_solver *s)
    const ml_plan *ml_solver_plan(const ml_solver *s)
    int ml_solver_nullity(ml_ctx *ctx, ml_solver *s, uint64_t *out)
    int ml_solver_rank(ml_ctx *ctx, ml_solver *s, uint64_t *out)
    int ml_solver_kernel_size(ml_ctx *ctx, ml_solver *s, ml_factored *out)
    int ml_solver_is_unique(ml_ctx *ctx, ml_solver *s, int *out)
    int ml_solver_is_invertible(ml_ctx *ctx, ml_solver *s, int *out)
    int ml_solver_kernel(ml_ctx *ctx, ml_solver *s, uint8_t *H, uint32_t *orders)
    int ml_solver_det(ml_ctx *ctx, ml_solver *s, unsigned *out)
    int ml_solver_inverse(ml_ctx *ctx, ml_solver *s, uint8_t *out)
    int ml_solver_pseudo_inverse(ml_ctx *ctx, ml_solver *s, uint8_t *out)
    int ml_solver_solvable(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                           int *out)
    int ml_solver_solve(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                        unsigned flags, ml_budget budget, ml_result **out)

    int ml_solver_solvable_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                                ml_target target, uint8_t *ok)
    int ml_solver_solve_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                             ml_target target, unsigned flags, ml_budget budget,
                             uint8_t *taps, uint8_t *ok)
    ctypedef struct ml_solutions:
        pass
    int ml_solver_solutions(ml_ctx *ctx, ml_solver *s, const uint8_t *state,
                            ml_target target, ml_solutions **out)
    int ml_solutions_next(ml_ctx *ctx, ml_solutions *it, uint8_t *taps, int *done)
    void ml_solutions_free(ml_solutions *it)
    int ml_solver_solve_packed(ml_ctx *ctx, ml_solver *s, const uint8_t *packed,
                               const uint8_t *target_packed, unsigned fill, uint8_t *out)
    int ml_solver_min_taps_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                                ml_target target, ml_budget budget, int64_t *lengths,
                                uint8_t *proven)

    void ml_result_free(ml_result *r)
    const ml_board *ml_result_board(const ml_result *r)
    const uint8_t *ml_result_taps(const ml_result *r)
    uint64_t ml_result_length(const ml_result *r)
    int ml_result_proven_minimal(const ml_result *r)
    void ml_result_kernel_size(const ml_result *r, ml_factored *out)
    uint64_t ml_result_examined(const ml_result *r)
    uint64_t ml_result_pruned(const ml_result *r)
    double ml_result_seconds(const ml_result *r)
    int ml_result_to_json(ml_ctx *ctx, const ml_result *r, char *buf, size_t cap, size_t *len)
    int ml_result_certificate(ml_ctx *ctx, const ml_result *r, char *buf, size_t cap,
                              size_t *len)


# The minimal search's limits (csrc/api/solver_impl.h: library-internal; _solver.pxi's
# SEARCH_LIMITS).
cdef extern from "api/solver_impl.h" nogil:
    double ML__DEFAULT_SECONDS
    uint64_t ML__DEFAULT_NATIVE_BUDGET
    uint64_t ML__MAX_SEARCH_BYTES


# A solver's own engine asked directly (csrc/api/solver_engine.h: library-internal, for
# the engine adapter modlights.engines.native; _engine.pxi).
cdef extern from "api/solver_engine.h" nogil:
    int ml__solver_engine_solve(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *R,
                                uint8_t *X, uint8_t *ok)
    int ml__solver_engine_generators(ml_ctx *ctx, ml_solver *s, uint64_t limit, uint64_t *k,
                                     uint8_t *H, uint32_t *orders)
    int ml__solver_engine_kernel_fits(ml_ctx *ctx, ml_solver *s, int *fits)
    int ml__solver_engine_packed(ml_ctx *ctx, ml_solver *s, int *packs, int *transposed)
    int ml__solver_engine_solve_packed(ml_ctx *ctx, ml_solver *s, const uint8_t *packed,
                                       unsigned fill, uint8_t *out, int *solvable)
