/* t-driver: csrc/search/driver.c, the greedy descent. On random generators over Z/n
 * (n = 2..9, 16, 251; orders n or a divisor's multiple as the module's elements have
 * them) the descent returns a vector of the coset it started in (tracked by the
 * multiples it must have added: x' - x is a combination of the generators, checked by
 * re-deriving it greedily from a brute-force search on small cases), never longer than
 * the start, a local minimum (no multiple of one generator shortens it), the same on a
 * second run; a deadline already past and a pending interrupt return at once with the
 * start unchanged. Python's tests compare it with the NumPy definition. Exit 0 when every
 * check holds.
 * ml-test-sources: search/driver.c base/interrupt.c */
#include "base/interrupt.h"
#include "search/driver.h"
#include "t-util.h"

#include <stdlib.h>
#include <string.h>

static uint64_t len_of(const uint8_t *x, size_t L)
{
    uint64_t t = 0;
    for (size_t j = 0; j < L; j++)
        t += x[j];
    return t;
}

/* Whether y is in x + span(H) for small cases: every combination of the generators
 * (orders' product <= 4096) tried. */
static int in_coset(const uint8_t *x, const uint8_t *y, const uint8_t *H, size_t k, size_t L,
                    const uint32_t *orders, unsigned n)
{
    uint64_t total = 1;
    for (size_t i = 0; i < k; i++)
        total *= orders[i];
    if (total > 4096)
        return 1;   /* too many to try: the other checks stand */
    uint32_t c[8] = {0};
    for (uint64_t t = 0; t < total; t++) {
        uint64_t r = t;
        for (size_t i = 0; i < k; i++) {
            c[i] = (uint32_t)(r % orders[i]);
            r /= orders[i];
        }
        int same = 1;
        for (size_t j = 0; same && j < L; j++) {
            unsigned v = x[j];
            for (size_t i = 0; i < k; i++)
                v += c[i] * H[i * L + j];
            same = v % n == y[j];
        }
        if (same)
            return 1;
    }
    return 0;
}

int main(void)
{
    static const unsigned ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 16, 251};
    for (int t = 0; t < 600; t++) {
        unsigned n = ns[rnd_range(0, 9)];
        size_t k = (size_t)rnd_range(0, 5), L = (size_t)rnd_range(1, 30);
        uint8_t H[5 * 30], x[30], y[30], z[30];
        uint32_t orders[5];
        for (size_t i = 0; i < k; i++) {
            /* an element of order o: a multiple d of a random vector, o = n / gcd(d, n) */
            unsigned d = (unsigned)rnd_range(1, n - 1), g = n, a = d;
            while (a) {
                unsigned r = g % a;
                g = a;
                a = r;
            }
            orders[i] = n / g;
            for (size_t j = 0; j < L; j++)
                H[i * L + j] = (uint8_t)((unsigned)rnd_range(0, n - 1) * d % n);
        }
        for (size_t j = 0; j < L; j++)
            x[j] = (uint8_t)rnd_range(0, n - 1);
        memcpy(y, x, L);
        CHECK(ml_driver_descend(H, k, L, orders, n, y, 0) == ML_DRIVER_OK);
        CHECK(len_of(y, L) <= len_of(x, L));
        for (size_t i = 0; i < k; i++)
            for (unsigned c = 1; c < orders[i]; c++) {
                uint64_t s = 0;
                for (size_t j = 0; j < L; j++)
                    s += (y[j] + c * H[i * L + j]) % n;
                CHECK(s >= len_of(y, L), "n=%u k=%zu L=%zu: generator %zu x %u shortens it", n, k,
                      L, i, c);
            }
        CHECK(in_coset(x, y, H, k, L, orders, n), "n=%u k=%zu L=%zu", n, k, L);
        memcpy(z, x, L);
        ml_driver_descend(H, k, L, orders, n, z, 0);
        CHECK(memcmp(y, z, L) == 0);
        /* a deadline already past: nothing changes */
        memcpy(z, x, L);
        if (k)
            CHECK(ml_driver_descend(H, k, L, orders, n, z, 1) == ML_DRIVER_STOPPED);
        CHECK(memcmp(z, x, L) == 0);
    }
    /* a pending interrupt stops it before the first generator */
    uint8_t H[4] = {1, 1, 1, 1}, x[4] = {1, 1, 1, 0};
    uint32_t o[1] = {2};
    ml_interrupt_request();
    CHECK(ml_driver_descend(H, 1, 4, o, 2, x, 0) == ML_DRIVER_INTERRUPTED);
    CHECK(x[0] == 1 && x[3] == 0);
    ml_interrupt_take();
    CHECK(ml_driver_descend(H, 1, 4, o, 2, x, 0) == ML_DRIVER_OK);
    CHECK(len_of(x, 4) == 1);
    CHECK(ml_driver_now_ns() > 0);
    return t_done();
}
