/* example-code: the puzzle code of a board and a start state (the same text Python's
 * Puzzle.code and JavaScript's puzzle.code give), read back with its measured stars; and
 * the same puzzle from generate with the same seed. */
#include <modlights.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    const uint8_t start[9] = {1, 2, 2, 0, 0, 2, 0, 1, 1};
    ml_ctx *ctx = NULL;
    ml_board *b = NULL;
    ml_puzzle *p = NULL, *g = NULL;
    char code[128];
    size_t len = 0;
    int rc = 1;
    if (ml_ctx_new(&ctx) || ml_board_grid(ctx, 3, 3, 3, "cross", &b)
        || ml_code_encode(ctx, b, start, code, sizeof code, &len))
        goto fail;
    printf("code: %s\n", code);

    ml_puzzle_stats st;
    if (ml_puzzle_from_code(ctx, code, len, &p) || ml_puzzle_stats_get(ctx, p, &st))
        goto fail;
    printf("fewest taps %llu (%s), %s; stars: 3 up to %llu taps, 2 up to %llu, 1 up to %llu\n",
           (unsigned long long)st.min_taps, st.proven ? "proved" : "not proved",
           ml_difficulty_name(st.difficulty), (unsigned long long)st.stars[0],
           (unsigned long long)st.stars[1], (unsigned long long)st.stars[2]);

    ml_generate_opts opts;
    ml_generate_opts_init(&opts);
    opts.rows = opts.cols = 3;
    opts.states = 3;
    opts.seed = 2;
    opts.seeded = 1;
    const char *again = NULL;
    if (ml_generate(ctx, &opts, &g) || ml_puzzle_code(ctx, g, &again))
        goto fail;
    printf("generate(3, 3, states=3, seed=2): %s\n", again);
    /* Python: ml.generate(3, 3, states=3, seed=2).code == "AQADAwMAaCFAvSnc5Q" */
    rc = strcmp(code, "AQADAwMAaCFAvSnc5Q") != 0 || strcmp(again, code) != 0
         || !ml_puzzle_equal(p, g);
    goto done;
fail:
    fprintf(stderr, "%s\n", ml_errmsg(ctx));
done:
    ml_puzzle_free(g);
    ml_puzzle_free(p);
    ml_board_free(b);
    ml_ctx_free(ctx);
    return rc;
}
