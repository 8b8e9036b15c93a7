/* t-factored: csrc/api/factored.c: factored counts against 64-bit products and their
 * decimals (random products of primes up to 251), known large values (2^64, 3^50 * 7),
 * 1, log2, snprintf truncation, refusals (past 64 bits, not a factored count, past 10^8
 * digits) with their messages. Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: api/board.c api/grid.c api/board_play.c api/factored.c api/ctx.c api/errors.c api/version.c base/interrupt.c */
#include "include/modlights.h"
#include "tests/board-oracle.h"

static void test_counts(ml_ctx *ctx)
{
    ml_factored f = {2, {2, 3}, {10, 4}};
    uint64_t v = 0;
    CHECK(ml_factored_u64(ctx, &f, &v) == ML_OK && v == 1024 * 81);
    CHECK(ml_factored_log2(&f) > 16.3 && ml_factored_log2(&f) < 16.4);
    char buf[128];
    size_t len = 0;
    CHECK(ml_factored_decimal(ctx, &f, buf, sizeof buf, &len) == ML_OK && strcmp(buf, "82944") == 0);
    CHECK(len == 5);
    ml_factored big = {1, {2}, {64}};
    CHECK(ml_factored_u64(ctx, &big, &v) == ML_ERANGE);
    MSG(ctx, "the count is about 2^64.0, more than 64 bits hold (read it with ml_factored_decimal "
             "or ml_factored_log2)");
    CHECK(ml_factored_log2(&big) == 64.0);
    CHECK(ml_factored_decimal(ctx, &big, buf, sizeof buf, &len) == ML_OK);
    CHECK(strcmp(buf, "18446744073709551616") == 0 && len == 20);
    CHECK(ml_factored_decimal(ctx, &big, buf, 5, &len) == ML_OK && strcmp(buf, "1844") == 0 && len == 20);
    ml_factored p3 = {2, {3, 7}, {50, 1}};   /* 3^50 * 7 */
    CHECK(ml_factored_decimal(ctx, &p3, buf, sizeof buf, &len) == ML_OK);
    CHECK(strcmp(buf, "5025285913842968121391743") == 0 || (printf("  got %s\n", buf), 0));
    ml_factored one = {0, {0}, {0}};
    CHECK(ml_factored_u64(ctx, &one, &v) == ML_OK && v == 1 && ml_factored_log2(&one) == 0.0);
    CHECK(ml_factored_decimal(ctx, &one, buf, sizeof buf, &len) == ML_OK && strcmp(buf, "1") == 0);
    for (int trial = 0; trial < 200; trial++) {   /* against 64-bit products */
        static const uint32_t primes[] = {2, 3, 5, 7, 11, 13, 251};
        ml_factored r = {0, {0}, {0}};
        uint64_t want = 1;
        int k = (int)below(5);
        for (int i = 0; i < k; i++) {
            uint32_t p = primes[(i * 3 + trial) % 7];
            int dup = 0;
            for (int q = 0; q < r.count; q++)
                dup |= r.prime[q] == p;
            if (dup)
                continue;
            uint64_t e = (uint64_t)below(5);
            r.prime[r.count] = p;
            r.exp[r.count++] = e;
            for (uint64_t z = 0; z < e; z++)
                want *= p;
        }
        char want_s[32];
        snprintf(want_s, sizeof want_s, "%llu", (unsigned long long)want);
        CHECK(ml_factored_u64(ctx, &r, &v) == ML_OK && v == want);
        CHECK(ml_factored_decimal(ctx, &r, buf, sizeof buf, &len) == ML_OK && strcmp(buf, want_s) == 0);
    }
    ml_factored bad = {2, {4, 3}, {1, 1}};
    CHECK(ml_factored_u64(ctx, &bad, &v) == ML_EINVAL);
    MSG(ctx, "ml_factored_u64: not a factored count (count 2: 0 to 4 distinct primes from 2 to 255, each once)");
    ml_factored huge = {1, {2}, {(uint64_t)1 << 40}};
    CHECK(ml_factored_decimal(ctx, &huge, buf, sizeof buf, &len) == ML_ETOOLARGE);
}

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    test_counts(ctx);
    ml_ctx_free(ctx);
    printf("fails=%d\n", fails);
    return fails != 0;
}
