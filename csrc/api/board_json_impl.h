/* board_json_impl.h: the pieces of the board_json module (board_json.c reads and writes
 * board documents; board_json_words.c reads Board.grid's pattern argument and its
 * positions in the constructors' words). */
#ifndef ML_API_BOARD_JSON_IMPL_H
#define ML_API_BOARD_JSON_IMPL_H

#include "api/json.h"
#include "include/modlights.h"

/* patterns.is_mixed(v, rows, cols) for the JSON list at token v: rows entries whose first
 * is an iterable of cols entries, its first a name or an iterable that is empty or does
 * not start with a scalar (a dict's keys count as its items, a key given twice once). */
int ml__json_is_mixed(const ml_json *j, size_t v, int64_t rows, int64_t cols);

/* Board.grid's pattern argument at token v of a grid document (model/board.py writes it
 * from the argument's plain values; mixed: patterns.is_mixed of it, cols the board's), set
 * on g with Board.grid's checks, order and messages (patterns.parse_pattern / parse_mixed:
 * a name, or pairs of ints or integral floats; a mixed map row by row, every tile checked
 * before the tiles' index is allocated). O(tiles + offsets). */
int ml__pattern_words(ml_ctx *ctx, const ml_json *j, size_t v, int mixed, int64_t cols,
                      ml_grid *g);

/* Board.grid's locked (holes: 0) or holes (1) positions at token v, a list of a grid
 * document (model/board.py writes each (row, col) item as a list of its plain values),
 * marked on g item by item in the argument's order with Board.grid's checks and messages:
 * a pair of ints or integral floats (else ML_M_JSON_WORDS_POSITION_ENTRY showing the
 * item), on the board (ML_M_OFF_BOARD, an index past int64 by its digits). No limit on
 * the count (a position may repeat). O(positions). */
int ml__marks_words(ml_ctx *ctx, const ml_json *j, size_t v, int holes, int64_t rows,
                    int64_t cols, ml_grid *g);

#endif
