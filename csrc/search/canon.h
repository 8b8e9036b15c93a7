/* canon.h: the canonical generators of a submodule K of (Z/n)^L, and the canonical
 * representative of a coset x + K.
 *
 * Engines describe ker A by whatever generators their elimination produces, and a
 * particular solution by whatever their forward pass gives. A search that stops early
 * (a budget short of the coset, or none at all: the greedy descent) returns an element
 * that depends on both. Rewriting them first into forms that depend only on K and on
 * the coset x + K makes those answers the same for every engine and every language
 * that calls this file (the Python extension and the WebAssembly core).
 *
 * The generators (ml_canon_basis): for every prime power q = p^e of n (CRT), the
 * Howell form of K mod q (Storjohann's echelon form with saturation, entries above each
 * pivot reduced: unique for the module), then a direct-sum basis read from it
 * deterministically: repeatedly the row holding an entry of least p-valuation v (least
 * column, then first row), scaled to make that entry p^v, cleared from the other rows'
 * same column; that row has additive order p^(e-v). The i-th generators of the parts
 * are joined by the CRT idempotents into one generator of order the product. K is the
 * direct sum of the cyclic groups they generate; there are max over parts of
 * dim(K_p / p K_p) of them, the fewest possible. For prime n this is the reduced row
 * echelon basis (pivot entries 1, rows by pivot column).
 *
 * The representative (ml_canon_reduce): per part, for each generator in order, subtract
 * floor(x[c] / p^v) times it, c its pivot (the first column of least valuation) and p^v
 * its entry there; then join the parts. Two elements of one coset give the same result.
 *
 * Cost: O(e k^2 L) byte operations per prime power p^e of n (O(k^2 L / 64) word operations
 * for n = 2); ml_canon_fits says whether a kernel is within ML_CANON_MAX_WORK, the bound
 * both callers apply (past it they keep the engine's generators).
 */
#ifndef ML_CANON_H
#define ML_CANON_H
#include <stddef.h>
#include <stdint.h>

/* Work units (word operations for n = 2, byte operations otherwise) ml_canon_fits allows. */
#define ML_CANON_MAX_WORK ((uint64_t)1 << 28)

/* Returned by ml_canon_basis on failure. */
#define ML_CANON_ENOMEM ((size_t)-1)
#define ML_CANON_INTERRUPTED ((size_t)-2)

/* 1 when k generators of length L over Z/n are within ML_CANON_MAX_WORK (k^2 ceil(L/64)
 * for n = 2, k^2 L times the sum of the exponents e of n's prime powers p^e otherwise),
 * else 0. */
int ml_canon_fits(size_t k, size_t L, unsigned n);

/* The canonical generators of the module spanned by the k rows of G (k x L bytes, row
 * stride L, entries < n; 2 <= n <= 255). Writes r <= k rows to out (room for k x L
 * bytes; out may not alias G) and their additive orders to orders (room for k), and
 * returns r; ML_CANON_ENOMEM when memory runs out, ML_CANON_INTERRUPTED when
 * ml_interrupt_poll() reports Ctrl-C (out is then unspecified). */
size_t ml_canon_basis(const uint8_t *G, size_t k, size_t L, unsigned n, uint8_t *out,
                      uint32_t *orders);

/* Reduce each of the m rows of X (m x L bytes, stride L, entries < n) in place to the
 * canonical representative of its coset X_i + span(H), H the r rows ml_canon_basis
 * returned for the same n and L. Returns 0, or ML_CANON_ENOMEM as an int (-1). */
int ml_canon_reduce(const uint8_t *H, size_t r, size_t L, unsigned n, uint8_t *X, size_t m);

#endif
