/* example-kernel: ker A of the 4 x 4 board with 4 states: its size (factored, so sizes
 * past 64 bits are exact too), its generators and their additive orders, each checked to
 * change nothing when tapped. */
#include <modlights.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    ml_ctx *ctx = NULL;
    ml_board *b = NULL;
    ml_solver *s = NULL;
    uint8_t *H = NULL;
    uint32_t *orders = NULL;
    int rc = 1;
    if (ml_ctx_new(&ctx) || ml_board_grid(ctx, 4, 4, 4, "cross", &b)
        || ml_solver_new(ctx, b, "auto", &s))
        goto fail;
    uint64_t nullity = 0, taps = ml_board_n_taps(b);
    ml_factored ks;
    char text[64];
    size_t len;
    if (ml_solver_nullity(ctx, s, &nullity) || ml_solver_kernel_size(ctx, s, &ks)
        || ml_factored_decimal(ctx, &ks, text, sizeof text, &len))
        goto fail;
    printf("|ker A| = %s =", text);
    for (int i = 0; i < ks.count; i++)
        printf(" %u^%llu", ks.prime[i], (unsigned long long)ks.exp[i]);
    printf(", %llu generators\n", (unsigned long long)nullity);

    H = malloc(nullity * taps + 1);
    orders = malloc(nullity * sizeof *orders + 1);
    if (!H || !orders || ml_solver_kernel(ctx, s, H, orders))
        goto fail;
    uint8_t zero[16], after[16];
    memset(zero, 0, sizeof zero);
    for (uint64_t i = 0; i < nullity; i++) {
        /* every tile is tappable here, so a generator is a board-shaped tap array */
        if (ml_board_apply(ctx, b, zero, H + i * taps, after))
            goto fail;
        int still = 1;
        for (int t = 0; t < 16; t++)
            still &= after[t] == 0;
        printf("generator %llu (order %u):", (unsigned long long)i, orders[i]);
        for (uint64_t t = 0; t < taps; t++)
            printf(" %u", H[i * taps + t]);
        printf("  changes %s\n", still ? "nothing" : "something (wrong!)");
        if (!still)
            goto done;
    }
    rc = strcmp(text, "64") != 0;
    goto done;
fail:
    fprintf(stderr, "%s\n", ml_errmsg(ctx));
done:
    free(H);
    free(orders);
    ml_solver_free(s);
    ml_board_free(b);
    ml_ctx_free(ctx);
    return rc;
}
