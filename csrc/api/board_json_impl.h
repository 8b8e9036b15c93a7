/* board_json_impl.h: the pieces of the board_json module (board_json.c reads and writes
 * board documents; board_json_words.c reads Board.grid's pattern argument in the
 * constructors' words). */
#ifndef ML_API_BOARD_JSON_IMPL_H
#define ML_API_BOARD_JSON_IMPL_H

#include "api/json.h"
#include "include/modlights.h"

/* Board.grid's pattern argument at token v of a grid document (model/board.py writes it
 * from the argument's plain values; mixed: patterns.is_mixed of it, cols the board's), set
 * on g with Board.grid's checks, order and messages (patterns.parse_pattern / parse_mixed:
 * a name, or pairs of ints or integral floats; a mixed map row by row, every tile checked
 * before the tiles' index is allocated). O(tiles + offsets). */
int ml__pattern_words(ml_ctx *ctx, const ml_json *j, size_t v, int mixed, int64_t cols,
                      ml_grid *g);

#endif
