/* driver.c: the minimal-search drivers (search/driver.h has the contract). */
#include "search/driver.h"

#include "base/interrupt.h"

#include <time.h>

int64_t ml_driver_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t length_of(const uint8_t *x, size_t L)
{
    uint64_t t = 0;
    for (size_t j = 0; j < L; j++)
        t += x[j];
    return t;
}

int ml_driver_descend(const uint8_t *H, size_t k, size_t L, const uint32_t *orders, unsigned n,
                      uint8_t *x, int64_t deadline_ns)
{
    uint64_t cur = length_of(x, L);
    int improved = 1;
    while (improved) {
        improved = 0;
        for (size_t i = 0; i < k; i++) {
            if (deadline_ns > 0 && ml_driver_now_ns() >= deadline_ns)
                return ML_DRIVER_STOPPED;
            if (ml_interrupt_poll())
                return ML_DRIVER_INTERRUPTED;
            const uint8_t *h = H + i * L;
            uint64_t best = UINT64_MAX;
            unsigned bc = 0;
            unsigned o = orders[i] < n ? orders[i] : n;   /* an order divides n */
            for (unsigned c = 1; c < o; c++) {
                uint64_t t = 0;
                for (size_t j = 0; j < L; j++)
                    t += (x[j] + c * h[j]) % n;
                if (t < best) {
                    best = t;
                    bc = c;
                }
            }
            if (bc && best < cur) {
                for (size_t j = 0; j < L; j++)
                    x[j] = (uint8_t)((x[j] + bc * h[j]) % n);
                cur = best;
                improved = 1;
            }
        }
    }
    return ML_DRIVER_OK;
}
