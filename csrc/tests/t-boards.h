/* t-boards.h: the random boards the whole-solver C tests share (t-solve, t-solutions,
 * t-search): with probability 1 / matrix_one_in a graph board from a sparse random
 * matrix (1..8 cells x 1..9 taps, entries 0..255), else a 1..6 x 1..6 grid with a named
 * pattern or (1 in 5) 1..4 random offsets within 2 tiles, a torus (1 in 3), and (1 in 3)
 * a locked tile and a hole. NULL when the library refuses the description (a lock and a
 * hole on one tile). Include after t-util.h. */
#ifndef ML_T_BOARDS_H
#define ML_T_BOARDS_H

#include "include/modlights.h"

#include <stdlib.h>

static ml_board *__attribute__((unused)) t_random_board(ml_ctx *ctx, int n, int matrix_one_in)
{
    ml_board *b = NULL;
    if (rnd() % (uint64_t)matrix_one_in == 0) {
        size_t m = (size_t)rnd_range(1, 8), r = (size_t)rnd_range(1, 9);
        uint8_t *a = malloc(m * r);
        if (!a)
            return NULL;
        for (size_t i = 0; i < m * r; i++)
            a[i] = rnd() % 3 ? 0 : (uint8_t)(rnd() % 256);
        ml_board_from_matrix(ctx, n, m, r, a, r, &b);
        free(a);
        return b;
    }
    int64_t rows = rnd_range(1, 6), cols = rnd_range(1, 6);
    ml_grid *g = NULL;
    if (ml_grid_new(ctx, rows, cols, n, &g))
        return NULL;
    if (rnd() % 5 == 0) {
        int64_t dr[4], dc[4];
        size_t k = (size_t)rnd_range(1, 4);
        for (size_t i = 0; i < k; i++) {
            dr[i] = rnd_range(-2, 2);
            dc[i] = rnd_range(-2, 2);
        }
        ml_grid_set_offsets(ctx, g, k, dr, dc);
    } else {
        ml_grid_set_pattern(ctx, g, (int)(rnd() % ML_PATTERN_COUNT));
    }
    if (rnd() % 3 == 0)
        ml_grid_set_wrap(ctx, g, 1);
    if (rnd() % 3 == 0) {
        ml_grid_lock(ctx, g, rnd_range(0, rows - 1), rnd_range(0, cols - 1));
        ml_grid_hole(ctx, g, rnd_range(0, rows - 1), rnd_range(0, cols - 1));
    }
    if (ml_grid_build(ctx, g, &b))
        b = NULL;
    ml_grid_free(g);
    return b;
}

#endif
