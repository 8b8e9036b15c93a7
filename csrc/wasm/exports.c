/* exports.c: the public C API (csrc/include/modlights.h) as the WebAssembly build
 * exports it to JavaScript (js/src/capi.js wraps these).
 *
 * Thin forwarders only: each calls one function of the header with the calling
 * thread's default context (NULL) and turns out-parameters and the snprintf
 * convention into what a WebAssembly export can return: a handle or a malloc'd
 * NUL-terminated string (NULL on failure; the caller frees it with ml_w_free), a
 * status (0 or an ml_status). After a failure mlx_errcode / mlx_errmsg give the status
 * and Python's message (the message table). 64-bit values are i64 (JavaScript BigInt).
 */
#include "include/modlights.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__wasm__)
#define MLX_EXPORT(name) __attribute__((export_name(#name)))
#else
#define MLX_EXPORT(name)
#endif

/* -- errors: the status and message of the last failing call */
MLX_EXPORT(mlx_errcode) int32_t mlx_errcode(void) { return ml_errcode(NULL); }
MLX_EXPORT(mlx_errmsg) const char *mlx_errmsg(void) { return ml_errmsg(NULL); }
MLX_EXPORT(mlx_status_name) const char *mlx_status_name(int32_t status)
{
    return ml_status_name(status);
}

/* A string written by fn with the snprintf convention, malloc'd (NULL on failure). */
typedef int (*mlx_writer)(const void *obj, const void *arg, char *buf, size_t cap, size_t *len);

static char *written(mlx_writer fn, const void *obj, const void *arg)
{
    size_t len = 0;
    if (fn(obj, arg, NULL, 0, &len))
        return NULL;
    char *buf = malloc(len + 1);
    if (!buf) {
        ml_ctx_fail(NULL, ML_ENOMEM, "out of memory");
        return NULL;
    }
    if (fn(obj, arg, buf, len + 1, &len)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* -- boards as JSON (Python's Board.from_dict / to_dict) */
MLX_EXPORT(mlx_board_from_json)
ml_board *mlx_board_from_json(const char *json, uint32_t len, int64_t max_tiles)
{
    ml_board *b = NULL;
    return ml_board_from_json(NULL, json, len, max_tiles, &b) ? NULL : b;
}

static int board_json(const void *b, const void *arg, char *buf, size_t cap, size_t *len)
{
    (void)arg;
    return ml_board_to_json(NULL, b, buf, cap, len);
}

MLX_EXPORT(mlx_board_to_json) char *mlx_board_to_json(const ml_board *b)
{
    return written(board_json, b, NULL);
}

MLX_EXPORT(mlx_board_free) void mlx_board_free(ml_board *b) { ml_board_free(b); }
MLX_EXPORT(mlx_board_size) double mlx_board_size(const ml_board *b)
{
    return (double)ml_board_size(b);
}

/* -- certificates: ml_verify_json; mlx_errmsg_name tells its verdicts apart */
MLX_EXPORT(mlx_verify_json) int32_t mlx_verify_json(const char *j, size_t n, char *buf,
    size_t cap, size_t *len) { return ml_verify_json(NULL, j, n, buf, cap, len); }
MLX_EXPORT(mlx_errmsg_name)
const char *mlx_errmsg_name(void) { return ml_msg_name(ml_errmsg_id(NULL)); }

/* -- puzzle codes */
static int code_text(const void *b, const void *start, char *buf, size_t cap, size_t *len)
{
    return ml_code_encode(NULL, b, start, buf, cap, len);
}

MLX_EXPORT(mlx_code_encode) char *mlx_code_encode(const ml_board *b, const uint8_t *start)
{
    return written(code_text, b, start);
}

MLX_EXPORT(mlx_puzzle_from_code) ml_puzzle *mlx_puzzle_from_code(const char *code, uint32_t len)
{
    ml_puzzle *p = NULL;
    return ml_puzzle_from_code(NULL, code, len, &p) ? NULL : p;
}

MLX_EXPORT(mlx_puzzle_free) void mlx_puzzle_free(ml_puzzle *p) { ml_puzzle_free(p); }
MLX_EXPORT(mlx_puzzle_board) const ml_board *mlx_puzzle_board(const ml_puzzle *p)
{
    return ml_puzzle_board(p);
}
MLX_EXPORT(mlx_puzzle_start) const uint8_t *mlx_puzzle_start(const ml_puzzle *p)
{
    return ml_puzzle_start(p);
}
/* The puzzle's code (owned by the puzzle; NULL on failure). */
MLX_EXPORT(mlx_puzzle_code) const char *mlx_puzzle_code(ml_puzzle *p)
{
    const char *code = NULL;
    return ml_puzzle_code(NULL, p, &code) ? NULL : code;
}

/* -- SplitMix64: g points at an ml_prng (8 bytes, the state) in the caller's memory */
MLX_EXPORT(mlx_prng_next) uint64_t mlx_prng_next(ml_prng *g) { return ml_prng_next(g); }
MLX_EXPORT(mlx_prng_below) uint64_t mlx_prng_below(ml_prng *g, uint64_t n)
{
    return ml_prng_below(g, n);
}
MLX_EXPORT(mlx_prng_sample)
int32_t mlx_prng_sample(ml_prng *g, uint64_t n, uint64_t k, uint64_t *out)
{
    return ml_prng_sample(NULL, g, n, k, out);
}
MLX_EXPORT(mlx_seed_from_bytes) uint64_t mlx_seed_from_bytes(const void *data, uint32_t len)
{
    return ml_seed_from_bytes(data, len);
}

/* -- difficulty bands and stars (lo, hi, limits: caller's arrays of 4, 4 and 3 u64) */
MLX_EXPORT(mlx_tap_bands) void mlx_tap_bands(uint64_t n_taps, int32_t states, uint64_t *lo,
                                             uint64_t *hi)
{
    ml_tap_bands(n_taps, states, lo, hi);
}
MLX_EXPORT(mlx_difficulty_of) int32_t mlx_difficulty_of(uint64_t min_taps, uint64_t n_taps,
                                                        int32_t states)
{
    return ml_difficulty_of(min_taps, n_taps, states);
}
MLX_EXPORT(mlx_stars_limits) void mlx_stars_limits(uint64_t min_taps, uint64_t *limits)
{
    ml_stars_limits(min_taps, limits);
}
MLX_EXPORT(mlx_stars_for_taps) int32_t mlx_stars_for_taps(const uint64_t *limits, uint64_t taps)
{
    return ml_stars_for_taps(limits, taps);
}

/* -- dates of the daily puzzles: ymd receives year, month, day; a status */
MLX_EXPORT(mlx_date_parse) int32_t mlx_date_parse(const char *text, int32_t *ymd)
{
    int y, m, d;
    int rc = ml_date_parse(NULL, text, &y, &m, &d);
    if (!rc) {
        ymd[0] = y;
        ymd[1] = m;
        ymd[2] = d;
    }
    return rc;
}

/* -- solvers: ml_solver_new's plan (method NULL: the registry's choice), its answers;
 *    state / target: a byte a tile (target NULL: every tile `fill`). Numbers past 2^53
 *    do not occur in what is returned as a double (nullity, lengths, counts). */
MLX_EXPORT(mlx_solver_new) ml_solver *mlx_solver_new(ml_board *b, const char *method)
{
    ml_solver *s = NULL;
    return ml_solver_new(NULL, b, method, &s) ? NULL : s;
}
MLX_EXPORT(mlx_solver_free) void mlx_solver_free(ml_solver *s) { ml_solver_free(s); }

static int plan_json(const void *s, const void *arg, char *buf, size_t cap, size_t *len)
{
    (void)arg;
    return ml_plan_to_json(NULL, ml_solver_plan(s), buf, cap, len);
}
MLX_EXPORT(mlx_solver_plan_json) char *mlx_solver_plan_json(const ml_solver *s)
{
    return written(plan_json, s, NULL);
}

/* The nullity (-1 on failure). */
MLX_EXPORT(mlx_solver_nullity) double mlx_solver_nullity(ml_solver *s)
{
    uint64_t v = 0;
    return ml_solver_nullity(NULL, s, &v) ? -1.0 : (double)v;
}

static int kernel_text(const void *s, const void *arg, char *buf, size_t cap, size_t *len)
{
    (void)arg;
    ml_factored f;
    int rc = ml_solver_kernel_size(NULL, (ml_solver *)s, &f);
    return rc ? rc : ml_factored_decimal(NULL, &f, buf, cap, len);
}
/* |ker A| in decimal (malloc'd; NULL on failure). */
MLX_EXPORT(mlx_solver_kernel_size) char *mlx_solver_kernel_size(ml_solver *s)
{
    return written(kernel_text, s, NULL);
}

MLX_EXPORT(mlx_board_default_steps) double mlx_board_default_steps(const ml_board *b)
{
    return (double)ml_board_default_steps(b);
}

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
MLX_EXPORT(mlx_result_free) void mlx_result_free(ml_result *r) { ml_result_free(r); }
MLX_EXPORT(mlx_result_taps) const uint8_t *mlx_result_taps(const ml_result *r)
{
    return ml_result_taps(r);
}
/* out[0] = length, out[1] = 1 when proved minimal, out[2] = examined, out[3] = pruned. */
MLX_EXPORT(mlx_result_info) void mlx_result_info(const ml_result *r, double *out)
{
    out[0] = (double)ml_result_length(r);
    out[1] = ml_result_proven_minimal(r) ? 1.0 : 0.0;
    out[2] = (double)ml_result_examined(r);
    out[3] = (double)ml_result_pruned(r);
}

/* -- the library's one-time state (the registry's table) made at load, so the heap
 *    after loading is the steady one; returns the number of engines */
MLX_EXPORT(mlx_init) int32_t mlx_init(void) { return ml_engine_count(); }

/* -- the day's three puzzles (ml_daily) as their codes, space-separated (malloc'd; NULL
 *    on failure) */
static int daily_codes(const void *ymd_, const void *arg, char *buf, size_t cap, size_t *len)
{
    (void)arg;
    const int32_t *ymd = ymd_;
    ml_puzzle *p[3] = {NULL, NULL, NULL};
    int rc = ml_daily(NULL, ymd[0], ymd[1], ymd[2], p);
    size_t at = 0;
    for (int i = 0; i < 3 && !rc; i++) {
        const char *code = NULL;
        rc = ml_puzzle_code(NULL, p[i], &code);
        for (const char *c = code; !rc && *c; c++, at++)
            if (at + 1 < cap)
                buf[at] = *c;
        if (!rc && i < 2) {
            if (at + 1 < cap)
                buf[at] = ' ';
            at++;
        }
    }
    for (int i = 0; i < 3; i++)
        ml_puzzle_free(p[i]);
    if (!rc && cap)
        buf[at < cap ? at : cap - 1] = '\0';
    *len = at;
    return rc;
}
MLX_EXPORT(mlx_daily_codes) char *mlx_daily_codes(int32_t year, int32_t month, int32_t day)
{
    int32_t ymd[3] = {year, month, day};
    return written(daily_codes, ymd, NULL);
}

#if defined(__wasm__)
/* Debian's compiler-rt for wasm32 (its 128-bit division, __udivti3 / __umodti3, used by
 * the Smith forms' products mod q) is built with the stack protector: its two symbols,
 * which wasi-libc does not define. */
uintptr_t __stack_chk_guard = (uintptr_t)0x6d6c736bu;   /* "mlsk": a canary only compiler-rt reads */
void __stack_chk_fail(void);
void __stack_chk_fail(void) { __builtin_trap(); }
#endif
