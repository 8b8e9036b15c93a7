/* modn.h: small-modulus reduction shared by the chases (csrc/chase/chase.c, csrc/chase/rowchase.c). */
#ifndef ML_MODN_H
#define ML_MODN_H

#include <stdint.h>

/* x mod n for 0 <= x < 2^24 and rn = 1.0f / n, by a float reciprocal (vectorisable):
 * the float quotient is off by at most one either way, fixed by two masked steps. */
static inline int32_t ml_fmod_n(int32_t x, int32_t n, float rn) {
    int32_t q = (int32_t)((float)x * rn);
    int32_t r = x - q * n;
    r += (r >> 31) & n;
    r -= n & -(int32_t)(r >= n);
    return r;
}

#endif
