/* ring.h: a ring part of the tensor engine (engines/ring.c): R (x) C over Z/q, q = p^e
 * (e > 1), with a factor singular mod p, solved by four block systems through the Smith
 * forms of the residual matrices M_R, M_C (engines/smith.c, kept by engines/band.c).
 * The C form of src/modlights/engines/tensor/ring_part.py's _RingPart, step for step (the
 * same kernel generators in the same order, with their orders). Internal to the library. */
#ifndef ML_ENGINES_RING_H
#define ML_ENGINES_RING_H

#include "engines/band.h"

#include <stdint.h>

typedef struct {
    const ml__band *R, *C;   /* borrowed: they outlive the part */
    unsigned p, e, q;
    int sR, sC;
    int gR, gC;              /* kernel generators of M_R, M_C */
    uint64_t *gensR, *gensC; /* gR x sR, gC x sC (largest order first) */
    int *logsR, *logsC;      /* their orders' log_p */
    int *v22;                /* sR x sC: min(v_i + w_j, e) */
} ml__ring;

/* The ring part of R and C (both mod q = p^e, one of them ring). 0 or ML_ENOMEM. */
int ml__ring_init(ml__ring *r, const ml__band *R, const ml__band *C);
void ml__ring_free(ml__ring *r);

/* The number of cyclic summands of ker A mod q; log_p |ker A|. */
uint64_t ml__ring_nullity(const ml__ring *r);
uint64_t ml__ring_kernel_log(const ml__ring *r);

/* The first k generators (k x rows x cols bytes in H, zeroed by the caller) and their
 * orders. 0 or ML_ENOMEM. */
int ml__ring_generators(const ml__ring *r, uint64_t k, uint8_t *H, uint32_t *orders);

/* X (rows x cols) with R X C^T = B mod q (B rows x cols, values < q); *ok 0 when there
 * is none (X then unspecified). 0, ML_ENOMEM or ML_EINTERRUPTED. */
int ml__ring_solve(const ml__ring *r, const uint8_t *B, uint8_t *X, int *ok);

#endif
