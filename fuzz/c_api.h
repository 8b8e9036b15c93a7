/* c_api.h: what the pieces of the C API fuzz target share (fuzz/c_api.c has the target's
 * description): the limits, the failure macros, the input readers, the checked calls,
 * the state of one input and the operations each piece defines. */
#ifndef ML_FUZZ_C_API_H
#define ML_FUZZ_C_API_H

#include "include/modlights.h"
#include "api/json.h"
#include "play/play.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ limits of the target */
#define MAX_OPS 48          /* operations an input runs */
#define NB 6                /* board slots */
#define NG 3                /* grid builder slots */
#define SMALL_TILES 1024    /* boards whose per-tile arrays the target makes */
#define SMALL_DENSE 65536   /* dense matrices the target reads (entries) */

/* ------------------------------------------------------------------ failing */
#define FAIL(...)                                                                        \
    do {                                                                                 \
        fprintf(stderr, "c_api fuzz: invariant violated at %s:%d: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                                    \
        fprintf(stderr, "\n");                                                           \
        abort();                                                                         \
    } while (0)
#define ASSERT(c)                                                                        \
    do {                                                                                 \
        if (!(c))                                                                        \
            FAIL("%s", #c);                                                              \
    } while (0)

/* ------------------------------------------------------------------ the input */
typedef struct {
    const uint8_t *d;
    size_t n, at;
} in_t;

static inline uint8_t u8(in_t *in) { return in->at < in->n ? in->d[in->at++] : 0; }
static inline uint16_t u16(in_t *in) { return (uint16_t)(u8(in) | u8(in) << 8); }
static inline uint32_t u32(in_t *in) { return (uint32_t)u16(in) | (uint32_t)u16(in) << 16; }
static inline uint64_t u64(in_t *in) { return (uint64_t)u32(in) | (uint64_t)u32(in) << 32; }
static inline int more(const in_t *in) { return in->at < in->n; }

/* A side or count: small mostly, else an edge of the limits or any 64-bit value. */
static inline int64_t size_arg(in_t *in)
{
    uint8_t k = u8(in);
    if (k < 200)
        return 1 + k % 12;
    switch (k % 14) {
    case 0: return 0;
    case 1: return -1;
    case 2: return INT64_MIN;
    case 3: return INT64_MAX;
    case 4: return ML_MAX_SIDE;
    case 5: return ML_MAX_SIDE + 1;
    case 6: return (int64_t)1 << 14;    /* 2^14 x 2^14 > ML_MAX_TILES */
    case 7: return (int64_t)1 << 13;
    case 8: return (int64_t)u16(in);
    case 9: return 255;
    case 10: return 256;
    case 11: return (int64_t)u64(in);
    case 12: return 1;
    default: return 40 + u8(in) % 60;
    }
}

static inline int states_arg(in_t *in)
{
    uint8_t k = u8(in);
    if (k < 240)
        return 2 + k % 12 == 13 ? 255 : 2 + k % 12;
    switch (k % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 256;
    case 3: return -1;
    case 4: return INT32_MAX;
    case 5: return 255;
    case 6: return 2 + u8(in) % 254;
    default: return INT32_MIN;
    }
}

static inline int64_t offset_arg(in_t *in)
{
    uint8_t k = u8(in);
    if (k < 240)
        return (int64_t)(k % 9) - 4;
    switch (k % 8) {
    case 0: return ML_MAX_REACH;
    case 1: return -ML_MAX_REACH;
    case 2: return ML_MAX_REACH + 1;
    case 3: return INT64_MIN;
    case 4: return 127;
    case 5: return -129;
    case 6: return (int8_t)u8(in);
    default: return (int64_t)u64(in);
    }
}

/* A position on a rows x cols board, now and then off it. */
static inline int64_t pos_arg(in_t *in, int64_t side)
{
    uint8_t k = u8(in);
    if (k < 240)
        return side > 0 ? (int64_t)((uint64_t)u16(in) % (uint64_t)side) : 0;
    switch (k % 5) {
    case 0: return -1;
    case 1: return side;
    case 2: return INT64_MAX;
    case 3: return INT64_MIN;
    default: return side - 1;
    }
}

/* NUL-terminated text from the input (at most cap - 1 bytes). */
static inline const char *text_arg(in_t *in, char *buf, size_t cap)
{
    size_t n = u8(in) % cap, i = 0;
    for (; i < n && more(in); i++)
        buf[i] = (char)u8(in);
    buf[i] = 0;
    return buf;
}

/* ------------------------------------------------------------------ the checks of a call */
enum {
    K_PLAIN = 0,       /* implemented, short */
    K_LONG = 1,        /* implemented, polls for stops */
    K_PENDING = 2,     /* a package under way: ML_ENOTIMPL allowed */
    K_MISUSE = 4       /* a NULL handle was passed on purpose: ML_EMISUSE expected */
};

extern ml_ctx *g_ctx;      /* this input's context (NULL: the thread's default) */
extern int g_stopped;      /* ml_ctx_stop was called during this input */
extern int g_interrupted;  /* some call returned ML_EINTERRUPTED */

#define CALL(fn, kind, ...) check(#fn, fn(__VA_ARGS__), kind)
#define CALL_INTERNAL(fn, kind, ...) (clear_slot(), check(#fn, fn(__VA_ARGS__), kind))

/* ------------------------------------------------------------------ the state of an input */
typedef struct {
    ml_grid *g;
    int64_t rows, cols;
    int n;
    uint8_t *locked, *holes;    /* shadow masks (small grids), NULL: none marked */
    int mixed;                  /* set_mixed took effect and no pattern replaced it */
    uint32_t n_pal;
} grid_slot;

extern ml_board *boards[NB];
extern grid_slot grids[NG];

/* ------------------------------------------------------------------ the pieces */
void check_text(const char *fn, const char *buf, size_t cap, size_t len);
void grid_clear(grid_slot *s);
int64_t grid_tiles(const grid_slot *s);
void put_board(int slot, ml_board *b);
int check(const char *fn, int rc, int kind);
void clear_slot(void);
void check_board(ml_board *b);
void op_board_grid(in_t *in);
void op_effects(in_t *in);
void op_grid_build(in_t *in);
void op_grid_mark(in_t *in);
void op_grid_masks(in_t *in);
void op_grid_mixed(in_t *in);
void op_grid_new(in_t *in);
void op_grid_palette(in_t *in);
void op_grid_pattern(in_t *in);
void op_grid_wrap(in_t *in);
void op_matrix_board(in_t *in);
void use_board(in_t *in, ml_board *b);
void board_json_round_trip(ml_board *b);
void code_round_trip(in_t *in, ml_board *b);
void op_code_text(in_t *in);
void op_factored(in_t *in);
void op_json_text(in_t *in);
void op_misuse(in_t *in);
void op_plan(in_t *in);
void op_play(in_t *in);

#endif
