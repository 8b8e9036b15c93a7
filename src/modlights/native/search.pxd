# Declarations of the split searches of csrc/include/modlights.h (the public C API;
# csrc/api/search.c), for modlights.native._core (_search.pxi). Only the public header
# is bound.
from libc.stdint cimport int64_t, uint8_t, uint64_t

from modlights.native.board cimport ml_ctx
from modlights.native.solver cimport ml_result, ml_solver, ml_target


cdef extern from "include/modlights.h" nogil:
    # a context of its own for a search told about progress (ml_ctx_set_progress)
    ctypedef int (*ml_progress_fn)(void *user, int phase, uint64_t done,
                                   uint64_t total) noexcept nogil
    int ml_ctx_new(ml_ctx **out)
    void ml_ctx_free(ml_ctx *ctx)
    void ml_ctx_set_progress(ml_ctx *ctx, ml_progress_fn fn, void *user, unsigned interval_ms)
    int ML_PHASE_SEARCH

    ctypedef struct ml_search:
        pass
    ctypedef struct ml_task_result:
        int found
        int complete
        int64_t length
        uint64_t examined
        uint64_t pruned

    int ml_solver_search(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                         ml_search **out)
    void ml_search_free(ml_search *q)
    int ml_search_split(ml_ctx *ctx, ml_search *q, uint64_t want, uint64_t *tasks)
    int ml_search_bound(ml_ctx *ctx, const ml_search *q, uint64_t t, int64_t *bound)
    int ml_search_export(ml_ctx *ctx, const ml_search *q, uint8_t *buf, size_t cap,
                         size_t *len)
    int ml_search_import(ml_ctx *ctx, const uint8_t *buf, size_t len, ml_search **out)
    int ml_search_run(ml_ctx *ctx, ml_search *q, uint64_t t, int64_t bound,
                      ml_task_result *res, uint8_t *best)
    int ml_search_merge(ml_ctx *ctx, ml_search *q, uint64_t t, const ml_task_result *res,
                        const uint8_t *best)
    int ml_search_done(const ml_search *q)
    int ml_search_finish(ml_ctx *ctx, ml_search *q, ml_result **out)

    # many-coset searches (ml_solver_search_many)
    int ml_solver_search_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                              ml_target target, ml_search **out)
    int ml_search_lengths(ml_ctx *ctx, ml_search *q, int64_t *lengths, uint8_t *taps)
    int ml_search_task_rows(ml_ctx *ctx, const ml_search *q, uint64_t t, uint64_t *rows)
    int ml_search_run_rows(ml_ctx *ctx, ml_search *q, uint64_t t, int64_t *lengths,
                           uint8_t *taps)
    int ml_search_merge_rows(ml_ctx *ctx, ml_search *q, uint64_t t, const int64_t *lengths,
                             const uint8_t *taps)
    int ml_search_proven(ml_ctx *ctx, const ml_search *q, uint8_t *proven)
