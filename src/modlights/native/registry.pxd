# Declarations of the registry and plans of csrc/include/modlights.h (the public C API:
# engines, plans, the seam), for modlights.native._core (_registry.pxi): declared here
# once, cimported there.
from libc.stdint cimport uint8_t, uint32_t, uint64_t

from modlights.native.board cimport ml_factored


cdef extern from "include/modlights.h" nogil:
    ctypedef struct ml_ctx:
        pass
    ctypedef struct ml_board:
        pass
    ctypedef struct ml_plan:
        pass
    enum:
        ML_ECALLBACK
        ML_BACKEND_NATIVE
        ML_BACKEND_REFERENCE

    int ml_engine_count()
    const char *ml_engine_name(int index)
    const char *ml_engine_family(int index)
    const char *ml_engine_description(int index)
    int ml_engine_index(const char *name)
    unsigned ml_engine_answers(int index)
    unsigned ml_engine_backends(int index)
    int ml_engine_auto(int index)
    int ml_engine_covers(ml_ctx *ctx, int index, const ml_board *b, int *covers, char *why,
                         size_t cap, size_t *len)
    int ml_engine_cost(ml_ctx *ctx, int index, const ml_board *b, double *seconds)

    int ml_plan_choose(ml_ctx *ctx, const ml_board *b, const char *method,
                       const char *backend, ml_plan **out)
    void ml_plan_free(ml_plan *p)
    const char *ml_plan_engine(const ml_plan *p)
    const char *ml_plan_family(const ml_plan *p)
    const char *ml_plan_reason(const ml_plan *p)
    const char *ml_plan_variant(const ml_plan *p)
    const char *ml_plan_method(const ml_plan *p)
    const char *ml_plan_backend(const ml_plan *p)
    double ml_plan_cost(const ml_plan *p)
    size_t ml_plan_rejected_count(const ml_plan *p)
    int ml_plan_rejected(const ml_plan *p, size_t i, const char **name, const char **reason)
    int ml_plan_explain(ml_ctx *ctx, const ml_plan *p, char *buf, size_t cap, size_t *len)
    int ml_plan_to_json(ml_ctx *ctx, const ml_plan *p, char *buf, size_t cap, size_t *len)

    ctypedef struct ml_engine_def:
        uint32_t size
        const char *name
        const char *description
        const char *family
        unsigned answers
        unsigned backends
        int auto_choose
        void *user
        int (*covers)(void *user, ml_ctx *ctx, const ml_board *b, int *covers, char *why,
                      size_t cap) noexcept
        int (*cost)(void *user, ml_ctx *ctx, const ml_board *b, double *seconds) noexcept
        int (*build)(void *user, ml_ctx *ctx, const ml_board *b, void **engine) noexcept
        void (*destroy)(void *user, void *engine) noexcept
        int (*solve)(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                     uint8_t *X, uint8_t *ok) noexcept
        int (*nullity)(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity) noexcept
        int (*kernel_size)(void *user, ml_ctx *ctx, void *engine, ml_factored *size) noexcept
        int (*generators)(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                          uint8_t *H, uint32_t *orders) noexcept
        int (*det)(void *user, ml_ctx *ctx, void *engine, unsigned *det) noexcept
        void (*release)(void *user) noexcept

    int ml_engine_register(ml_ctx *ctx, const ml_engine_def *d)
    int ml_engine_unregister(ml_ctx *ctx, const char *name)
    int ml_ctx_fail(ml_ctx *ctx, int status, const char *message)


cdef extern from "api/engine.h" nogil:
    int ml__engine_register_before(ml_ctx *ctx, const ml_engine_def *d, const char *before)


# The cost constants of the library's own engines (csrc/api/registry_costs.h:
# library-internal; _registry.pxi's ENGINE_COSTS).
cdef extern from "api/registry_costs.h" nogil:
    ctypedef struct ml__engine_cost_row:
        const char *name
        double per_tile
        long crossover
    const ml__engine_cost_row ML__ENGINE_COSTS[]
    int ML__N_ENGINE_COSTS
    double ML__DENSE_PER_ENTRY
    double ML__LIFTED_TORUS_RATIO_2
    double ML__LIFTED_TORUS_RATIO_ODD
    double ML__LIFTED_ZQ_RHO_CROSS
    double ML__LIFTED_ZQ_RHO_SYM
