/* t-interrupt: the flag and hook of csrc/base/interrupt.c, and the GF(2) and Z/n
 * eliminations and allocations stopping on it. Exit status 0 when every check holds
 * (prints fails=N).
 * ml-test-sources: base/interrupt.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c base/cpu.c dense/zn.c dense/zn_kernels.c dense/zn_factor.c dense/zn_solve.c dense/bitsliced.c */
#define _POSIX_C_SOURCE 200809L
#include "base/interrupt.h"
#include "dense/gf2.h"
#include "dense/zn.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int fails = 0;
#define CHECK(c) do { if (!(c)) { fails++; printf("FAIL line %d: %s\n", __LINE__, #c); } } while (0)

static int hook_calls = 0, hook_answer = 0;
static int hook(void) { hook_calls++; return hook_answer; }

static ml_gf2_t *identity_like(size_t n)
{
    ml_gf2_t *A = ml_gf2_new(n, n);
    for (size_t i = 0; i < n; i++) {
        ml_gf2_flip(A, i, i);
        if (i + 1 < n) ml_gf2_flip(A, i, i + 1);
    }
    return A;
}

int main(void)
{
    /* the flag alone */
    CHECK(!ml_interrupt_pending() && !ml_interrupt_poll());
    ml_interrupt_request();
    CHECK(ml_interrupt_pending() && ml_interrupt_poll());
    CHECK(ml_interrupt_take() == 1 && !ml_interrupt_pending() && ml_interrupt_take() == 0);

    /* the hook: called on the first poll, then not again within the interval */
    ml_interrupt_set_hook(hook);
    CHECK(!ml_interrupt_poll() && hook_calls == 1);
    for (int i = 0; i < 1000; i++) ml_interrupt_poll();
    CHECK(hook_calls == 1);

    /* a full elimination without a stop: full rank */
    ml_gf2_t *A = identity_like(3000);
    CHECK(ml_gf2_rank(A) == 3000);

    /* a stop requested before: the elimination returns at once with a partial rank,
     * and the factorisation's allocations fail (NULL, as out of memory) */
    ml_interrupt_request();
    CHECK(ml_gf2_rank(A) < 3000);
    ml_gf2_t *big = ml_gf2_new(4096, 1 << 16);     /* 32 MiB: zeroed in one chunk */
    CHECK(big != NULL);
    ml_gf2_free(big);
    big = ml_gf2_new(4096, 1 << 18);               /* 128 MiB: polls between chunks */
    CHECK(big == NULL);
    ml_gf2_free(big);
    ml_zn_lu_t *lu = ml_zn_lu_new(200, 200, 3);
    for (size_t i = 0; i < 200; i++) {
        int64_t ci = (int64_t)i, tj = (int64_t)i;
        ml_zn_lu_add_coo(lu, &ci, &tj, 1);
    }
    CHECK(ml_zn_lu_factor(lu) == -1);              /* stopped: the caller drops lu */
    ml_zn_lu_free(lu);
    lu = ml_zn_lu_new(200, 200, 3);                /* the bit-sliced GF(3) elimination */
    CHECK(ml_zn_lu_set_method(lu, ML_ZN_BITSLICED) == 0);
    for (size_t i = 0; i < 200; i++) {
        int64_t ci = (int64_t)i, tj = (int64_t)i;
        ml_zn_lu_add_coo(lu, &ci, &tj, 1);
    }
    CHECK(ml_zn_lu_factor(lu) == -1);
    ml_zn_lu_free(lu);
    CHECK(ml_interrupt_take() == 1);

    /* the hook asking to stop sets the flag */
    hook_answer = 1;
    ml_interrupt_set_hook(NULL);
    ml_interrupt_set_hook(hook);
    struct timespec ts = {0, 30000000};
    nanosleep(&ts, NULL);                          /* past the polling interval */
    CHECK(ml_interrupt_poll() == 1 && ml_interrupt_pending());
    ml_interrupt_take();
    ml_interrupt_set_hook(NULL);
    CHECK(ml_gf2_rank(A) == 3000);
    ml_gf2_free(A);
    printf("fails=%d\n", fails);
    return fails != 0;
}
