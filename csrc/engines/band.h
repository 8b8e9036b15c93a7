/* band.h: one 1-D factor of a product pattern (engines/band.c), for the tensor engine
 * (engines/tensor.c) and its ring parts (engines/ring.c).
 *
 * The C form of src/modlights/engines/tensor/band.py's BandFactor, step for step: the
 * length x length banded Toeplitz matrix F[i, j] = c(i - j) mod n (circulant when wrap),
 * its band (reduced mod n, on a torus in the shortest cyclic window nearest offset 0),
 * reversed when c(dmin) is not a unit, its schedule (the values the chase determines,
 * the s symbols, the residual equations), the symbol matrix S and the s x s residual
 * matrix M from one chase of the zero right-hand side, M's Smith forms mod each prime
 * power of n (engines/smith.c), and G = M's generalised inverse (ReferenceEngine's
 * pseudo_inverse: V D' U over a prime, M^-1 otherwise) when the factor is not a ring
 * factor (n = p^k, k > 1, M singular mod p). The chase itself is structured/band.c's
 * ml_band_chase (bytes, every right-hand side at once).
 * Complexity: O(length x k x band) for k right-hand sides plus O(s^2 k). Internal to the
 * library: not in the public header. */
#ifndef ML_ENGINES_BAND_H
#define ML_ENGINES_BAND_H

#include "engines/smith.h"

#include <stddef.h>
#include <stdint.h>

/* Largest number of symbols (band width) a 1-D factor may carry (band.py MAX_SYMBOLS). */
#define ML_BAND_MAX_SYMBOLS 64

typedef struct {
    int64_t L;          /* the side */
    unsigned n;
    int wrap, reversed, identity, ring;
    size_t m;           /* band entries, sorted by offset (after any reversal) */
    int64_t *d;
    unsigned *c;
    int64_t dmin, dmax;
    int s;              /* symbols */
    unsigned inv;       /* c(dmin)^-1 mod n */
    size_t ndet;        /* L - s determined values */
    int64_t *det_vars, *det_eqs, *syms, *res_eqs;
    /* the chase's steps: row yrow[t] of Y from row brow[t] of B (natural order) and the
     * rows refs[t * mm + q] of Y (-1: none) with coefficients coefs[t * mm + q] */
    size_t mm;
    int64_t *brow, *refs;
    uint32_t *coefs;
    uint8_t *lut;       /* v -> v mod n below lutlen (NULL: reduce by %) */
    size_t lutlen;
    uint8_t *S;         /* L x s, chase order */
    uint64_t *M;        /* s x s */
    uint64_t *G;        /* s x s generalised inverse of M mod n, NULL for a ring factor */
    int nullity;        /* max over n's prime powers of M's kernel generators */
    int nparts;         /* M's Smith forms mod each prime power of n (when s > 0) */
    unsigned q[4], p[4], e[4], idem[4];
    ml__smith sm[4];
} ml__band;

/* BandFactor(coeffs, length, n, wrap) with coeffs {d[i]: c[i]} (distinct offsets, counts
 * >= 0), length >= 1, 2 <= n <= 255. 0; 1 when BandFactor refuses the factor, with its
 * message in why (snprintf convention; nothing left allocated); ML_EINVAL (length < 1, n
 * outside 2..255); ML_ENOMEM; ML_EINTERRUPTED. */
int ml__band_init(ml__band *f, const int64_t *d, const int64_t *c, size_t m, int64_t L,
                  unsigned n, int wrap, char *why, size_t cap);
void ml__band_free(ml__band *f);

/* The chase of B (L x k, natural rows bstride bytes apart; NULL: the zero right-hand side
 * with the symbols set to the identity, k = s): Y ((L + s) x k, chase order, the symbols
 * 0) and the residuals res (s x k: (F y - b) on the residual equations, mod n).
 * 0, ML_ENOMEM or ML_EINTERRUPTED (a stop polled between chunks of about 2^24
 * entries, base/interrupt.h) (BandFactor._chase). */
int ml__band_chase(const ml__band *f, const uint8_t *B, ptrdiff_t bstride, size_t k, uint8_t *Y,
                   uint8_t *res);

/* Y = G B for the generalised inverse G of F (F G F = F): B is L x k (rows bstride bytes
 * apart, values < n), Y L x k (rows ystride apart; may not overlap B); ok[j] (may be
 * NULL) whether column j of B is in the image of F; *all_ok whether every one is.
 * ML_EINVAL for a ring factor (it has no G); ML_ENOMEM; ML_EINTERRUPTED. */
int ml__band_apply_ginv(const ml__band *f, const uint8_t *B, ptrdiff_t bstride, size_t k,
                        uint8_t *Y, ptrdiff_t ystride, uint8_t *ok, int *all_ok);
/* The same with Y holding (L + s) x k bytes (rows k bytes apart, L rows of answer): the
 * chase runs in Y itself (no copy) unless the factor is reversed. */
int ml__band_apply_ginv_in(const ml__band *f, const uint8_t *B, ptrdiff_t bstride, size_t k,
                           uint8_t *Y, uint8_t *ok, int *all_ok);

/* n = 2 on np.packbits rows (k bytes a row, 8 columns a byte): Y (L rows of k bytes,
 * Y holds (L + s) x k bytes: s spare rows) = G B; *all_ok whether each of the first cols
 * bit columns of B is in the image of F (BandFactor.apply_ginv_packed). ML_EINVAL when
 * n != 2; ML_ENOMEM; ML_EINTERRUPTED. */
int ml__band_apply_ginv_packed(const ml__band *f, const uint8_t *B, size_t k, size_t cols,
                               uint8_t *Y, int *all_ok);

/* Over a prime n: the rows of U (nullity x L, natural order) are a basis of ker F with
 * U[:, pos] the identity (BandFactor.kernel_basis). U holds nullity * L bytes, pos
 * nullity entries. ML_ENOMEM or 0. */
int ml__band_kernel_basis(const ml__band *f, uint8_t *U, int64_t *pos);

/* *out = det F mod n (BandFactor.det). 0 or ML_ENOMEM. */
int ml__band_det(const ml__band *f, unsigned *out);

#endif
