/* exports.c: the WebAssembly export layer of the C library (csrc/include/modlights.h).
 *
 * The header's functions are exported as they are (csrc/wasm/exports.list, given to
 * wasm-ld as --export; js/src/capi.js calls them with the calling thread's default
 * context, 0, and reads their out-parameters from WebAssembly memory). Wrappers are
 * written here only where WebAssembly cannot pass an argument as the header does: the
 * by-value structs ml_target and ml_budget (the solvers' questions), and Board.grid's
 * reading of board documents (ml__grid_from_json, ml__board_from_json_words). A failure's status
 * and message are then read with ml_errcode(NULL) / ml_errmsg(NULL). Besides: the blocks
 * JavaScript hands over (mlx_malloc / mlx_free), the count of live heap bytes (tests
 * check that disposing gives every byte back) and the stop hook JavaScript polls.
 */
#include "include/modlights.h"
#include "api/board_json.h"
#include "base/interrupt.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__wasm__)
#define MLX_EXPORT(name) __attribute__((export_name(#name)))
#else
#define MLX_EXPORT(name)
#endif

/* -- memory: a block of `bytes` bytes (at least 1) for JavaScript to fill, freed by
 * mlx_free */
MLX_EXPORT(mlx_malloc) void *mlx_malloc(size_t bytes) { return malloc(bytes ? bytes : 1); }
MLX_EXPORT(mlx_free) void mlx_free(void *p) { free(p); }

#if defined(__wasm__)
#include <malloc.h>

/* The module links with --wrap for malloc, calloc, realloc, aligned_alloc and free, so
 * every allocation passes through here: mlx_live_bytes() is the sum of
 * malloc_usable_size over the blocks not yet freed. */
void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void *__real_aligned_alloc(size_t, size_t);
void __real_free(void *);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t a, size_t b);
void *__wrap_aligned_alloc(size_t al, size_t n);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

static uint64_t live;

static void *counted(void *p)
{
    if (p)
        live += malloc_usable_size(p);
    return p;
}

void *__wrap_malloc(size_t n) { return counted(__real_malloc(n)); }
void *__wrap_calloc(size_t a, size_t b) { return counted(__real_calloc(a, b)); }
void *__wrap_aligned_alloc(size_t al, size_t n) { return counted(__real_aligned_alloc(al, n)); }

void *__wrap_realloc(void *p, size_t n)
{
    size_t old = p ? malloc_usable_size(p) : 0;
    void *q = __real_realloc(p, n);
    if (q || n == 0)
        live -= old;                    /* failed: p stays, and so does its count */
    return counted(q);
}

void __wrap_free(void *p)
{
    if (p)
        live -= malloc_usable_size(p);
    __real_free(p);
}

MLX_EXPORT(mlx_live_bytes) double mlx_live_bytes(void) { return (double)live; }

/* The JavaScript front's stop hook (imported from the module "env"): nonzero when the
 * work must stop; the C library's polls call it about every ML_INTERRUPT_POLL_NS. */
__attribute__((import_module("env"), import_name("ml_js_poll"))) int ml_js_poll(void);
MLX_EXPORT(mlx_init) void mlx_init(void)
{
    ml_interrupt_set_hook(ml_js_poll);
    ml_interrupt_take();
}
#endif

/* -- board documents in the constructors' words (api/board_json.h): generate's grid (*out
 * freed with ml_grid_free), Board.grid's and Board.fromEffects' boards */
MLX_EXPORT(mlx_grid_from_json)
int32_t mlx_grid_from_json(const char *json, size_t len, ml_grid **out)
{
    return ml__grid_from_json(NULL, json, len, out);
}

MLX_EXPORT(mlx_board_from_json)
int32_t mlx_board_from_json(const char *json, size_t len, ml_board **out)
{
    return ml__board_from_json_words(NULL, json, len, out);
}

/* -- solvers: state / target a byte a tile (target NULL: every tile `fill`) */
static ml_target target_of(const uint8_t *tiles, uint32_t fill)
{
    return tiles ? ml_target_tiles(tiles) : ml_target_fill(fill);
}

/* 1 solvable, 0 not, -1 failure. */
MLX_EXPORT(mlx_solver_solvable)
int32_t mlx_solver_solvable(ml_solver *s, const uint8_t *state, const uint8_t *target,
                            uint32_t fill)
{
    int v = 0;
    return ml_solver_solvable(NULL, s, state, target_of(target, fill), &v) ? -1 : v;
}

/* A solution (minimal: the fewest taps within `steps` coset elements; steps < 0: the
 * default budget); NULL on failure (ML_EUNSOLVABLE when none exists). */
MLX_EXPORT(mlx_solver_solve)
ml_result *mlx_solver_solve(ml_solver *s, const uint8_t *state, const uint8_t *target,
                            uint32_t fill, int32_t minimal, double steps)
{
    ml_result *r = NULL;
    ml_budget budget = steps < 0 ? ml_budget_default()
                       : ml_budget_steps(steps >= 9.2e18 ? ML_MAX_BUDGET : (uint64_t)steps);
    return ml_solver_solve(NULL, s, state, target_of(target, fill),
                           minimal ? ML_SOLVE_MINIMAL : 0u, budget, &r) ? NULL : r;
}
#if defined(__wasm__)
/* Debian's compiler-rt for wasm32 (its 128-bit division, __udivti3 / __umodti3, used by
 * the Smith forms' products mod q) is built with the stack protector: its two symbols,
 * which wasi-libc does not define. */
uintptr_t __stack_chk_guard = (uintptr_t)0x6d6c736bu;   /* "mlsk": a canary only compiler-rt reads */
void __stack_chk_fail(void);
void __stack_chk_fail(void) { __builtin_trap(); }
#endif
