/* bitslice.h: the word arithmetic of bit-sliced GF(3), Z/4 and Z/8 entries.
 *
 * An entry is spread over bit-planes, one bit of it per plane, 64 entries a word:
 * GF(3) as P = [x == 1], M = [x == 2]; Z/4 as its bits L, H; Z/8 as its bits 0, 1, 2.
 * The macros below work on any type with the bitwise operators: uint64_t, or a GCC
 * vector of them (the symbolic chase keeps 256- or 512-bit accumulators in registers).
 * Shared by the dense bit-sliced elimination (bitsliced.c) and the chase (chase.c). */
#ifndef ML_BITSLICE_H
#define ML_BITSLICE_H

/* (op, om) = x + y over GF(3) (7 operations; -y: exchange yp and ym). The outputs may
 * be the inputs. */
#define ML_GF3_ADD(xp, xm, yp, ym, op, om)                                                  \
    do {                                                                                    \
        __typeof__(xp) t_ = ((xp) | (ym)) ^ ((xm) | (yp));                                  \
        __typeof__(xp) p_ = ((xm) | (ym)) ^ t_;                                             \
        (om) = ((xp) | (yp)) ^ t_;                                                          \
        (op) = p_;                                                                          \
    } while (0)

/* (xl, xh) += y over Z/4 (in place); ML_Z4_SUB: -= y; ML_Z4_ADD2: += 2 y */
#define ML_Z4_ADD(xl, xh, yl, yh)                                                           \
    do { (xh) ^= (yh) ^ ((yl) & (xl)); (xl) ^= (yl); } while (0)
#define ML_Z4_SUB(xl, xh, yl, yh)                                                           \
    do { (xh) ^= (yh) ^ ((yl) & ~(xl)); (xl) ^= (yl); } while (0)
#define ML_Z4_ADD2(xl, xh, yl) do { (xh) ^= (yl); } while (0)

/* (t0, t1, t2) = c (y0, y1, y2) over Z/8 for a constant c in 1..7 (c y from shifted
 * copies of y) */
#define ML_Z8_MULC(c, y0, y1, y2, t0, t1, t2)                                               \
    do {                                                                                    \
        switch (c) {                                                                        \
        case 1: (t0) = (y0); (t1) = (y1); (t2) = (y2); break;                               \
        case 2: (t0) = (y0) ^ (y0); (t1) = (y0); (t2) = (y1); break;                        \
        case 3: (t0) = (y0); (t1) = (y1) ^ (y0); (t2) = (y2) ^ (y1) ^ ((y0) & (y1)); break; \
        case 4: (t0) = (y0) ^ (y0); (t1) = (t0); (t2) = (y0); break;                        \
        case 5: (t0) = (y0); (t1) = (y1); (t2) = (y2) ^ (y0); break;                        \
        case 6: (t0) = (y0) ^ (y0); (t1) = (y0); (t2) = (y1) ^ (y0); break;                 \
        default: (t0) = (y0); (t1) = (y1) ^ (y0); (t2) = (y2) ^ ((y1) | (y0)); break;       \
        }                                                                                   \
    } while (0)

/* (x0, x1, x2) += (t0, t1, t2) over Z/8: a ripple carry */
#define ML_Z8_ADD(x0, x1, x2, t0, t1, t2)                                                   \
    do {                                                                                    \
        __typeof__(x0) c0_ = (x0) & (t0), h1_ = (x1) ^ (t1);                                \
        (x2) ^= (t2) ^ (((x1) & (t1)) | (c0_ & h1_));                                       \
        (x1) = h1_ ^ c0_;                                                                   \
        (x0) ^= (t0);                                                                       \
    } while (0)

#endif
