/* polymatn.h: k x k matrices over R = GF(p)[s] / (s^w - 1) and their diagonal form, for
 * engines/torus2.c (the residual system of the torus chase of any pattern).
 *
 * Entries are algebraic_impl.h's px, always reduced (degree < w). Products are cyclic
 * (the product folded at w: O(w) past the polynomial product). The diagonal form is
 * made by unimodular row and column operations over GF(p)[s] (Euclid steps: a 2 x 2
 * xgcd block when the pivot does not divide the entry, a multiple of the pivot's row or
 * column when it does, swaps to bring the entry of least degree to the pivot): L M V =
 * diag(d_0 .. d_{k-1}). L and V are not formed: the operations are logged, and
 * ml__pmn_apply_L / ml__pmn_apply_V replay them on a vector (O(ops) products, k times
 * fewer than forming them).
 *
 * Functions return poly.h's codes: 0, 2 out of memory, 3 stopped (an interrupt polled
 * in the gcds and between operations), 4 a bug (an exact division left a remainder, or
 * no convergence). */
#ifndef ML_ENGINES_POLYMATN_H
#define ML_ENGINES_POLYMATN_H

#include "engines/algebraic_impl.h"

/* One logged operation on rows (L) or columns (V) i and j (i the pivot's):
 * ROW2 / COL2: (x_i, x_j) <- (u0 x_i + u1 x_j, u2 x_i + u3 x_j);
 * ROWADD / COLADD: x_j <- x_j + u0 x_i; ROWSWAP / COLSWAP: x_i <-> x_j. */
enum { PMN_ROW2, PMN_COL2, PMN_ROWADD, PMN_COLADD, PMN_ROWSWAP, PMN_COLSWAP };

typedef struct pmn_op {
    int kind;
    unsigned i, j;
    px u[4];
} pmn_op;

typedef struct pmn {
    unsigned p;
    size_t w, k;   /* the ring's s^w - 1; k x k */
    px *e;         /* row-major, k * k */
    pmn_op *ops;   /* the log */
    size_t nops, capops;
} pmn;

/* An all-zero k x k matrix over GF(p)[s] / (s^w - 1) (2 when out of memory). */
int ml__pmn_init(pmn *m, unsigned p, size_t w, size_t k);
void ml__pmn_clear(pmn *m);
/* r = a b mod s^w - 1 (a, b of degree < w; r may alias either). */
int ml__pmn_mul(unsigned p, size_t w, px *r, const px *a, const px *b);
/* a = a mod s^w - 1 (any degree). */
int ml__pmn_reduce(unsigned p, size_t w, px *a);
/* The diagonal form in place: m->e becomes diag(d_i) (off-diagonal entries zero), the
 * operations logged. O(k^3) products and O(k^2) extended gcds of degree-w polynomials. */
int ml__pmn_diagonalise(pmn *m);
/* v = L v, v = V v for a vector of k entries (the logged operations, in order for L,
 * in reverse for V). */
int ml__pmn_apply_L(const pmn *m, px *v);
int ml__pmn_apply_V(const pmn *m, px *v);

#endif
