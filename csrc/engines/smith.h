/* smith.h: small dense Smith normal forms over Z/p^e with both transforms
 * (engines/smith.c), for the tensor engine's ring parts (engines/ring.c).
 *
 * The C form of src/modlights/engines/reference.py's LocalSmith, step for step (the same
 * pivot choice, so the same U, V and D): U A V = D mod q = p^e, U (m x m) and V (r x r)
 * invertible mod q, D = diag(p^v_0, ..., p^v_{rank-1}, 0, ...) with v_0 <= v_1 <= ... < e,
 * so each invariant divides the next. Sizes are small (s <= 64 in the tensor engine):
 * plain O(m r min(m, r)) loops. Entries are uint64_t in [0, q); q < 2^63 (products go
 * through unsigned __int128). Internal to the library: not in the public header. */
#ifndef ML_ENGINES_SMITH_H
#define ML_ENGINES_SMITH_H

#include <stdint.h>

typedef struct {
    int m, r;          /* A is m x r */
    uint64_t p, q;     /* q = p^e */
    int e;
    int rank;          /* the number of non-zero invariants */
    uint64_t *U;       /* m x m, row-major */
    uint64_t *V;       /* r x r, row-major */
    int *v;            /* r valuations: v[k] for k < rank, e past it */
    uint64_t det_u;    /* det U mod q */
    uint64_t det_v;    /* det V mod q (+-1) */
} ml__smith;

/* The Smith form of the m x r matrix a (row-major, entries read mod q) over Z/p^e, p a
 * prime (not checked), e >= 1, p^e < 2^63. 0, or ML_EINVAL (m, r < 0, p < 2, e < 1 or q
 * too large), or ML_ENOMEM (nothing left allocated). O(m r min(m, r)) time. On success
 * release it with ml__smith_free. */
int ml__smith_init(ml__smith *s, const uint64_t *a, int m, int r, uint64_t p, int e);
void ml__smith_free(ml__smith *s);

/* log_p |ker A| (the kernel has p^(sum of v) elements; columns past rank count e). */
int ml__smith_kernel_log(const ml__smith *s);

/* The kernel generators, largest order first (LocalSmith.generators: by v descending,
 * stable): writes count (<= r) generators, gens[i*r .. i*r+r) and their orders
 * log_p in logs[i] (order p^logs[i]). gens holds r*r, logs r entries. */
int ml__smith_generators(const ml__smith *s, uint64_t *gens, int *logs);

/* Solve A X = B (B: m x k row-major): X (r x k row-major), ok[j] = 1 when column j is
 * solvable (X's column j is then a solution). ML_ENOMEM or 0. */
int ml__smith_solve(const ml__smith *s, const uint64_t *B, int k, uint64_t *X, uint8_t *ok);

/* det A mod q (square A only: ML_EINVAL otherwise, "det needs a square matrix"). */
int ml__smith_det(const ml__smith *s, uint64_t *det);

/* A^-1 (r x r) when A is square and invertible mod q: 1, else 0 (out untouched). */
int ml__smith_inverse(const ml__smith *s, uint64_t *out);

/* V D' U (r x m), D' the 0/1 diagonal of rank ones, when every invariant is a unit
 * (v[k] = 0 for k < rank): 1, else 0 (LocalSmith.pseudo_inverse). */
int ml__smith_pseudo_inverse(const ml__smith *s, uint64_t *out);

#endif
