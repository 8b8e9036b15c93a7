/* board_json.h: boards as JSON, for the modules of the library that read documents
 * holding boards (puzzles, certificates): the board of a value inside a parsed document,
 * and the two field rules of Python's validation module every JSON reader shares. */
#ifndef ML_API_BOARD_JSON_H
#define ML_API_BOARD_JSON_H

#include "api/json.h"
#include "include/modlights.h"

/* ml_board_from_json for the value at token i of a parsed document. */
int ml__board_from_json_value(ml_ctx *ctx, const ml_json *j, size_t i, int64_t max_tiles,
                              ml_board **out);
/* Board.grid(rows, cols, states=, pattern=, locked=, holes=, wrap=) of a grid document (the
 * fields of ml_board_from_json's grids, sides up to ML_MAX_SIDE whatever the tiles): the
 * described grid, not built (*out freed with ml_grid_free), with Board.grid's messages
 * (no field prefix: "unknown pattern 'x'", not "pattern: unknown pattern 'x'"). For the
 * WebAssembly layer's Board.grid and generate (csrc/wasm/exports.c). */
int ml__grid_from_json(ml_ctx *ctx, const char *json, size_t len, ml_grid **out);
/* As ml__grid_from_json for a document whose locked (ML__SHARED_LOCKED) and / or holes
 * (ML__SHARED_HOLES) come beside it as masks the caller sets on the grid afterwards
 * (model/board.py: ml_grid_share_*): such a field is absent from the document, and counts
 * as marking tiles (a giant board is refused with Board.grid's message). */
#define ML__SHARED_LOCKED 1u
#define ML__SHARED_HOLES 2u
int ml__grid_from_json_shared(ml_ctx *ctx, const char *json, size_t len, unsigned shared,
                              ml_grid **out);
/* ml_board_from_json in the constructors' words: a grid document with Board.grid's messages
 * (as ml__grid_from_json, then built), a graph document with Board.from_effects' checks,
 * order and messages (states first; the effects' entries list by list; then n_cells as
 * validation.as_int: a non-negative int up to ML_MAX_TILES; then the indices; no
 * "effects: " prefix). For Python's Board.from_effects (model/board_args.py) and the
 * WebAssembly layer's Board.grid and Board.fromEffects. */
int ml__board_from_json_words(ml_ctx *ctx, const char *json, size_t len, ml_board **out);

#endif
