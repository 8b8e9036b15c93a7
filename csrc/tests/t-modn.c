/* t-modn: the reducers of csrc/base/modn.h against the % operator, exhaustively where the
 * range is small (ml_barrett16, ml_barrett8) and on the edges plus random values where it
 * is not (ml_fmod_n, ml_fastmod_red), for every modulus 2..255 each takes.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: */
#include "base/modn.h"
#include <stdio.h>

static uint64_t seed = 0x853C49E6748FEA9Bull;
static uint32_t rnd24(void)   /* splitmix64, low 24 bits */
{
    uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)(z ^ (z >> 31)) & 0xFFFFFF;
}

int main(void)
{
    long fails = 0;
    for (uint32_t n = 2; n <= 255; n++) {
        float rn = 1.0f / (float)n;
        ml_fastmod f = ml_fastmod_make(n);
        for (int i = 0; i < 200000; i++) {
            uint32_t x = i < 1000 ? (uint32_t)i : i < 2000 ? 0xFFFFFF - (uint32_t)(i - 1000)
                       : rnd24();
            if ((uint32_t)ml_fmod_n((int32_t)x, (int32_t)n, rn) != x % n && fails++ < 10)
                printf("ml_fmod_n(%u, %u)\n", x, n);
            if (ml_fastmod_red(f, x) != x % n && fails++ < 10)
                printf("ml_fastmod_red(%u, %u)\n", x, n);
        }
        if (n < 128) {
            uint32_t m = 65536u / n;
            for (uint32_t x = 0; x + n < 65536; x++)
                if (ml_barrett16((uint16_t)x, (uint16_t)n, m) != x % n && fails++ < 10)
                    printf("ml_barrett16(%u, %u)\n", x, n);
        }
        if (n <= 16) {
            uint16_t m = (uint16_t)(256u / n);
            for (uint32_t x = 0; x < 256; x++)
                if (ml_barrett8((uint16_t)x, (uint16_t)n, m) != x % n && fails++ < 10)
                    printf("ml_barrett8(%u, %u)\n", x, n);
        }
    }
    printf("fails=%ld\n", fails);
    return fails != 0;
}
