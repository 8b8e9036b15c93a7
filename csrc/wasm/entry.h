/* entry.h: the C entry layer of the WebAssembly build (js/dist/modlights.wasm).
 *
 * One object, ml_w, holds a factored board: a grid board reduced by the light chase
 * (chase/chase.h) to its residual system M z = rho, or a graph board whose residual
 * system is its tap matrix itself (z = x, rho = b). The residual system is factored
 * once: over GF(2) kept bit-packed and eliminated by the Four Russians echelon form
 * (dense/gf2.h); over Z/n one factorisation per prime-power part of n (dense/zn.h),
 * the parts combined by CRT. Every question is answered from it:
 *
 *   - nullity (kernel generators: the fewest cyclic summands of ker A) and |ker A| as
 *     prime powers p^e (the caller multiplies them exactly);
 *   - solvability and one solution of A x = b;
 *   - a least-length solution within a budget of coset elements, with a flag saying
 *     whether it is proved (the Gray-code coset search of search/coset.h, then the
 *     greedy descent on generators when the budget ran out).
 *
 * Vectors: for a grid board the right-hand side b = t - s and the taps x are a byte
 * a tile (rows * cols, row-major; b ignored at holes, x zero where no tap); for a graph
 * board b has n_cells bytes and x n_taps bytes. Values are in 0..n-1.
 *
 * Every argument is checked before anything is allocated. Functions returning int
 * give ML_W_OK (or a count), or a negative code with a message (ml_w_error) the
 * caller throws as a ValueError; nothing here aborts. Memory: every buffer is
 * malloc'd here and freed by ml_w_free / ml_w_dispose; the caller copies results out.
 * Interrupts: the long loops poll ml_interrupt_poll(); the embedding program installs
 * its hook with ml_w_init (the JavaScript front imports one that reads a cancel flag
 * and reports progress); an interrupted call returns ML_W_INTERRUPTED and leaves the
 * object usable.
 */
#ifndef ML_WASM_ENTRY_H
#define ML_WASM_ENTRY_H
#include <stddef.h>
#include <stdint.h>

enum {
    ML_W_OK = 0,
    ML_W_UNSOLVABLE = 1,        /* solve / minimal: no solution */
    ML_W_EINVAL = -1,           /* bad arguments: message in ml_w_error() */
    ML_W_ENOMEM = -2,           /* out of memory */
    ML_W_ELIMIT = -3,           /* too large (a limit of the Python engines): message */
    ML_W_INTERRUPTED = -4       /* the hook asked to stop */
};

typedef struct ml_w ml_w;

/* Install the interrupt hook (NULL: none) and clear the stop flag. */
void ml_w_init(int (*hook)(void));
/* The message of the last failing call (empty when none). */
const char *ml_w_error(void);
/* Plain malloc / free for the caller's buffers. */
void *ml_w_malloc(size_t bytes);
void ml_w_free(void *p);

/* A grid board: h x w tiles, n in 2..255, wrap 0/1, active / tappable masks (NULL:
 * every tile), the patterns as ml_chase_plan takes them (nu distinct offsets udr/udc,
 * npat patterns, cnt npat x nu multiplicities, pat_of h*w pattern indices or NULL when
 * npat == 1). n_taps: the board's tappable tiles (for the limits' messages). Factors
 * the residual system. NULL on failure (*code and ml_w_error say why). */
ml_w *ml_w_grid(int32_t h, int32_t w, int32_t n, int32_t wrap, const uint8_t *active,
                const uint8_t *tappable, int32_t nu, const int32_t *udr, const int32_t *udc,
                int32_t npat, const int32_t *cnt, const int32_t *pat_of, int32_t *code);
/* A graph board: n_cells cells, n_taps taps, tap j adds 1 at cells[indptr[j] ..
 * indptr[j+1]) (a repeated cell that many times). NULL on failure. */
ml_w *ml_w_graph(int32_t n, int32_t n_cells, int32_t n_taps, const int32_t *indptr,
                 const int32_t *cells, int32_t *code);
void ml_w_dispose(ml_w *s);

/* Sizes: out[0] = length of b, out[1] = length of x, out[2] = n_taps, out[3] = nullity,
 * out[4] = symbols of the residual system, out[5] = its equations. */
void ml_w_sizes(const ml_w *s, int32_t *out);
/* |ker A| = prod p_i^e_i: writes up to 8 pairs (p_i, e_i) into pe, returns the count. */
int32_t ml_w_kernel_factors(const ml_w *s, int32_t *pe);
/* Solve A x = b: ML_W_OK (x written), ML_W_UNSOLVABLE, or a negative code. */
int32_t ml_w_solve(ml_w *s, const uint8_t *b, uint8_t *x);
/* A least-length solution within `budget` coset elements (0: no search, the greedy
 * descent only; budgets past 2^63 mean 2^63). out[0] = 1 when proved minimal,
 * out[1] = elements examined, out[2] = pruned (as doubles). Returns as ml_w_solve. */
int32_t ml_w_minimal(ml_w *s, const uint8_t *b, double budget, uint8_t *x, double *out);

#endif
