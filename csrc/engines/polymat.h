/* polymat.h: 2 x 2 matrices over R = GF(p)[s] / (f) and their diagonal form by
 * unimodular row and column operations (src/modlights/engines/algebraic/torus.py's
 * _diagonalise over polymat.py's mat_mul), for engines/torus.c. Entries are
 * algebraic_impl.h's px; functions return poly.h's codes: 0, 2 out of memory, 3
 * stopped, 4 a bug (an exact division left a remainder, or no convergence). */
#ifndef ML_ENGINES_POLYMAT_H
#define ML_ENGINES_POLYMAT_H

#include "engines/algebraic_impl.h"

/* Row-major: e[0] e[1] / e[2] e[3]. */
typedef struct pmat {
    px e[4];
} pmat;

void ml__pm_init(pmat *m);
void ml__pm_clear(pmat *m);
/* m = [[a, b], [c, d]] for the constants a..d (each 0 or 1). */
int ml__pm_const(unsigned p, pmat *m, int a, int b, int c, int d);
/* r = X Y over GF(p)[s] / (f) (r may alias X or Y). */
int ml__pm_mul(unsigned p, pmat *r, const pmat *X, const pmat *Y, const px *f);
/* g = gcd(a, b) = s a + t b (monic over GF(p)); t may be NULL; g, s, t distinct from a, b. */
int ml__pm_xgcd(unsigned p, px *g, px *s, px *t, const px *a, const px *b);
/* q = a / b when b divides a (4 when it leaves a remainder). */
int ml__pm_exact_div(unsigned p, px *q, const px *a, const px *b);
/* L M V = diag(d1, d2) over GF(p)[s] / (f), f of degree w: M becomes the diagonal
 * form, L and V the unimodular factors (torus.py's _diagonalise, step for step). */
int ml__pm_diagonalise(unsigned p, size_t w, const px *f, pmat *M, pmat *L, pmat *V);

#endif
