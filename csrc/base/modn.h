/* modn.h: the modular reducers of the C core, for small moduli (n <= 255), in one place.
 * Each reduces x mod n exactly on the range it states; all are branch-free and inline, so
 * the loops that use them vectorise.
 *
 *   ml_fmod_n        x < 2^24, by a float reciprocal (rn = 1.0f / n)
 *   ml_fastmod_red   x < 2^24, by one 64-bit multiplication (ml_fastmod_make)
 *   ml_barrett16     x < 2^16 - n, n < 128, in 16-bit lanes (m = 2^16 / n)
 *   ml_barrett8      x < 256, n <= 16, 16-bit multiplies only (m = 256 / n)
 * and the unit inverse (ml_inv_mod) and the prime powers of n with their CRT
 * idempotents (ml_prime_powers). */
#ifndef ML_MODN_H
#define ML_MODN_H

#include <stdint.h>

#if defined(__GNUC__)
#define ML_MODN_INLINE static inline __attribute__((always_inline))
#else
#define ML_MODN_INLINE static inline
#endif

/* x mod n for 0 <= x < 2^24 and rn = 1.0f / n, by a float reciprocal (vectorisable):
 * the float quotient is off by at most one either way, fixed by two masked steps. */
ML_MODN_INLINE int32_t ml_fmod_n(int32_t x, int32_t n, float rn) {
    int32_t q = (int32_t)((float)x * rn);
    int32_t r = x - q * n;
    r += (r >> 31) & n;
    r -= n & -(int32_t)(r >= n);
    return r;
}

/* x mod p for x < 2^24 by one multiplication (m = floor(2^32 / p) + 1). */
typedef struct {
    uint32_t p;
    uint64_t m;
} ml_fastmod;

ML_MODN_INLINE ml_fastmod ml_fastmod_make(unsigned p)
{
    ml_fastmod f = {p, ((uint64_t)1 << 32) / p + 1};
    return f;
}

ML_MODN_INLINE uint32_t ml_fastmod_red(ml_fastmod f, uint32_t x)
{
    return x - (uint32_t)(((uint64_t)x * f.m) >> 32) * f.p;
}

/* x mod n for n < 128 and x + n < 2^16, m = 2^16 / n rounded down: the Barrett quotient
 * is short by at most one, so one unsigned-min step. */
ML_MODN_INLINE uint16_t ml_barrett16(uint16_t x, uint16_t n, uint32_t m) {
    const uint16_t q = (uint16_t)(((uint32_t)x * m) >> 16);
    const uint16_t y = (uint16_t)(x - q * n);
    const uint16_t z = (uint16_t)(y - n);
    return y < z ? y : z;
}

/* x mod n for n <= 16 and x < 256, m = 256 / n rounded down (short by at most one); the
 * quotient stays in 16-bit lanes (16-bit multiplies only). */
ML_MODN_INLINE uint16_t ml_barrett8(uint16_t x, uint16_t n, uint16_t m) {
    const uint16_t q = (uint16_t)((uint16_t)(x * m) >> 8);
    const uint16_t y = (uint16_t)(x - q * n);
    const uint16_t z = (uint16_t)(y - n);
    return y < z ? y : z;
}

/* The inverse of a mod m (2 <= m <= 255), 0 when a is not a unit; O(m). */
static inline unsigned ml_inv_mod(unsigned a, unsigned m)
{
    for (unsigned x = 1; x < m; x++)
        if ((a * x) % m == 1) return x;
    return 0;
}

/* The prime powers q = p^e of n (2 <= n <= 255: at most 4, p ascending) with their CRT
 * idempotents idem (1 mod q, 0 mod n / q); returns their count. */
static inline int ml_prime_powers(unsigned n, unsigned q[4], unsigned p[4], unsigned e[4],
                                  unsigned idem[4])
{
    int count = 0;
    unsigned rest = n;
    for (unsigned d = 2; rest > 1; d++) {
        if (rest % d) continue;
        unsigned qq = 1, ee = 0;
        while (rest % d == 0) { rest /= d; qq *= d; ee++; }
        unsigned other = n / qq;
        q[count] = qq;
        p[count] = d;
        e[count] = ee;
        idem[count] = other > 1 ? (other * ml_inv_mod(other % qq, qq)) % n : 1;
        count++;
    }
    return count;
}

#endif
