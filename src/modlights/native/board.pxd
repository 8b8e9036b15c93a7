# Declarations of the public C API's boards (csrc/include/modlights.h: big counts,
# patterns, boards; implemented in csrc/api/), for the bindings of modlights.native._core
# (_board.pxi). Only the public header is bound, never csrc/api's internal functions.
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t


cdef extern from "include/modlights.h":
    ctypedef struct ml_ctx:
        pass
    ctypedef struct ml_board:
        pass
    ctypedef struct ml_grid:
        pass
    ctypedef struct ml_factored:
        int count
        uint32_t prime[4]
        uint64_t exp[4]

    int ML_OK, ML_EINTERRUPTED, ML_ENOMEM, ML_EUNSOLVABLE
    int ML_BOARD_GRID, ML_BOARD_GRAPH
    int ML_MAX_STATES, ML_MAX_REACH, ML_MAX_OFFSETS
    int64_t ML_MAX_SIDE, ML_MAX_TILES
    uint64_t ML_MAX_DENSE

    const char *ml_errmsg(const ml_ctx *ctx) nogil
    int ml_errcode(const ml_ctx *ctx) nogil
    int ml_errmsg_id(const ml_ctx *ctx) nogil
    const char *ml_msg_name(int id) nogil
    const char *ml_msg_template(int id) nogil
    int ML_M_UNSOLVABLE

    int ml_factored_u64(ml_ctx *ctx, const ml_factored *f, uint64_t *out) nogil
    double ml_factored_log2(const ml_factored *f) nogil
    int ml_factored_decimal(ml_ctx *ctx, const ml_factored *f, char *buf, size_t cap,
                            size_t *len) nogil

    int ml_pattern_lookup(ml_ctx *ctx, const char *name, int *id) nogil
    const char *ml_pattern_name(int id) nogil
    size_t ml_pattern_offsets(int id, int32_t *dr, int32_t *dc, size_t cap) nogil

    int ml_grid_new(ml_ctx *ctx, int64_t rows, int64_t cols, int states, ml_grid **out) nogil
    void ml_grid_free(ml_grid *g) nogil
    int ml_grid_set_pattern_name(ml_ctx *ctx, ml_grid *g, const char *name) nogil
    int ml_grid_set_offsets(ml_ctx *ctx, ml_grid *g, size_t count, const int64_t *dr,
                            const int64_t *dc) nogil
    int ml_grid_palette_add(ml_ctx *ctx, ml_grid *g, int pattern_id, uint32_t *index) nogil
    int ml_grid_palette_add_offsets(ml_ctx *ctx, ml_grid *g, size_t count, const int64_t *dr,
                                    const int64_t *dc, uint32_t *index) nogil
    int ml_grid_set_mixed(ml_ctx *ctx, ml_grid *g, const uint32_t *index) nogil
    int ml_grid_set_wrap(ml_ctx *ctx, ml_grid *g, int wrap) nogil
    int ml_grid_lock(ml_ctx *ctx, ml_grid *g, int64_t r, int64_t c) nogil
    int ml_grid_hole(ml_ctx *ctx, ml_grid *g, int64_t r, int64_t c) nogil
    int ml_grid_set_locked(ml_ctx *ctx, ml_grid *g, const uint8_t *mask) nogil
    int ml_grid_set_holes(ml_ctx *ctx, ml_grid *g, const uint8_t *mask) nogil
    int ml_grid_share_locked(ml_ctx *ctx, ml_grid *g, const uint8_t *mask,
                             void (*release)(void *arg) noexcept nogil, void *arg) nogil
    int ml_grid_share_holes(ml_ctx *ctx, ml_grid *g, const uint8_t *mask,
                            void (*release)(void *arg) noexcept nogil, void *arg) nogil
    int ml_grid_build(ml_ctx *ctx, const ml_grid *g, ml_board **out) nogil

    int ml_board_from_effects(ml_ctx *ctx, int states, int64_t n_cells, size_t n_taps,
                              const int64_t *indptr, const int64_t *cells, ml_board **out) nogil
    int ml_board_from_matrix(ml_ctx *ctx, int states, size_t n_cells, size_t n_taps,
                             const uint8_t *a, size_t lda, ml_board **out) nogil
    int ml_board_from_json(ml_ctx *ctx, const char *json, size_t len, int64_t max_tiles,
                           ml_board **out) nogil
    int ml_board_to_json(ml_ctx *ctx, const ml_board *b, char *buf, size_t cap,
                         size_t *len) nogil
    ml_board *ml_board_retain(ml_board *b) nogil
    void ml_board_free(ml_board *b) nogil

    int ml_board_kind(const ml_board *b) nogil
    int ml_board_states(const ml_board *b) nogil
    int64_t ml_board_rows(const ml_board *b) nogil
    int64_t ml_board_cols(const ml_board *b) nogil
    uint64_t ml_board_n_cells(const ml_board *b) nogil
    uint64_t ml_board_n_taps(const ml_board *b) nogil
    uint64_t ml_board_size(const ml_board *b) nogil
    uint64_t ml_board_taps_size(const ml_board *b) nogil
    int ml_board_wrap(const ml_board *b) nogil
    int ml_board_is_mixed(const ml_board *b) nogil
    int ml_board_is_giant(const ml_board *b) nogil
    int ml_board_any_locked(const ml_board *b) nogil
    int ml_board_any_holes(const ml_board *b) nogil
    int ml_board_equal(const ml_board *a, const ml_board *b) nogil
    uint64_t ml_board_hash(const ml_board *b) nogil

    int ml_board_pattern(ml_ctx *ctx, const ml_board *b, size_t *count, int32_t *dr,
                         int32_t *dc, size_t cap) nogil
    int ml_board_tile_pattern(ml_ctx *ctx, const ml_board *b, int64_t r, int64_t c,
                              size_t *count, int32_t *dr, int32_t *dc, size_t cap) nogil
    int ml_board_locked_mask(ml_ctx *ctx, const ml_board *b, uint8_t *out) nogil
    int ml_board_holes_mask(ml_ctx *ctx, const ml_board *b, uint8_t *out) nogil
    int ml_board_tap_index(ml_ctx *ctx, const ml_board *b, int64_t r, int64_t c,
                           uint64_t *j) nogil
    int ml_board_cell_index(ml_ctx *ctx, const ml_board *b, int64_t r, int64_t c,
                            uint64_t *i) nogil
    int ml_board_tap_position(ml_ctx *ctx, const ml_board *b, uint64_t j, int64_t *r,
                              int64_t *c) nogil
    int ml_board_cell_position(ml_ctx *ctx, const ml_board *b, uint64_t i, int64_t *r,
                               int64_t *c) nogil
    int ml_board_matrix(ml_ctx *ctx, const ml_board *b, uint8_t *out, size_t ld) nogil
    int ml_board_effect(ml_ctx *ctx, const ml_board *b, uint64_t j, size_t *count,
                        int64_t *cells, size_t cap) nogil
    int ml_board_apply(ml_ctx *ctx, const ml_board *b, const uint8_t *state,
                       const uint8_t *taps, uint8_t *out) nogil
    int ml_board_press(ml_ctx *ctx, const ml_board *b, const uint8_t *state, int64_t r,
                       int64_t c, int64_t times, uint8_t *out) nogil
    int ml_board_random_state(ml_ctx *ctx, const ml_board *b, uint64_t seed, int solvable,
                              uint8_t *out) nogil

    # puzzles (csrc/play/puzzle.c)
    int ml_board_share_matrix(ml_ctx *ctx, int states, size_t n_cells, size_t n_taps,
                              const uint8_t *a, void (*release)(void *arg) noexcept nogil,
                              void *arg, ml_board **out)
    ctypedef struct ml_puzzle:
        pass
    int ml_puzzle_new(ml_ctx *ctx, ml_board *b, const uint8_t *start, ml_puzzle **out) nogil
    int ml_puzzle_from_code(ml_ctx *ctx, const char *code, size_t len, ml_puzzle **out) nogil
    int ml_puzzle_from_json(ml_ctx *ctx, const char *json, size_t len, int64_t max_tiles,
                            ml_puzzle **out) nogil
    void ml_puzzle_free(ml_puzzle *p) nogil
    const ml_board *ml_puzzle_board(const ml_puzzle *p) nogil
    const uint8_t *ml_puzzle_start(const ml_puzzle *p) nogil
    int ml_puzzle_code(ml_ctx *ctx, ml_puzzle *p, const char **code) nogil
    int ml_puzzle_equal(const ml_puzzle *a, const ml_puzzle *b) nogil
    int ml_code_encode(ml_ctx *ctx, const ml_board *b, const uint8_t *start, char *buf,
                       size_t cap, size_t *len) nogil
