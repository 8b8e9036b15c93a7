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
