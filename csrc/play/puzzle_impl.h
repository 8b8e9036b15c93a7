/* puzzle_impl.h: what a puzzle handle holds (modlights.h: puzzles), for the modules of
 * csrc/play that make and measure puzzles (puzzle.c: handles, codes, JSON reading;
 * puzzle_measure.c: the measured parts and JSON writing; generate.c, daily.c). */
#ifndef ML_PLAY_PUZZLE_IMPL_H
#define ML_PLAY_PUZZLE_IMPL_H

#include "include/modlights.h"

#include <stddef.h>
#include <stdint.h>

#define ML_PUZZLE_MAGIC 0x6d6c707au   /* "mlpz" */

/* A puzzle keeps a reference to its grid board and its own copy of the start (reduced
 * mod n, zero at holes); its code and its measured parts are made on first use. */
struct ml_puzzle {
    uint32_t magic;
    ml_board *board;
    uint8_t *start;         /* rows * cols */
    char *code;             /* NULL until asked for */
    size_t code_len;
    ml_result *sol;         /* the minimal solution measured, NULL until measured */
    ml_puzzle_stats stats;  /* valid once sol is set */
};

/* p is a live puzzle (checked by its magic). */
int ml__puzzle_live(const ml_puzzle *p);
/* Puzzle(board, start): a new handle with a reference to b (a grid board) and a reduced
 * copy of start; Python's checks and messages. */
int ml__puzzle_make(ml_ctx *ctx, ml_board *b, const uint8_t *start, ml_puzzle **out);
/* puzzles._min_solve: the minimal solve of start (to all zeros) on s within a count of
 * GENERATE_BUDGET coset elements when |ker A| <= GENERATE_BUDGET, else the greedy
 * descent alone (a budget of 0): the same answer on every machine. */
int ml__puzzle_min_solve(ml_ctx *ctx, ml_solver *s, const uint8_t *start, ml_result **out);
/* puzzles._measure / _finish: p's measured parts from its minimal solution r (p takes
 * r over). */
void ml__puzzle_set_measured(ml_puzzle *p, ml_result *r);

#endif
