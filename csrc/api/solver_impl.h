/* solver_impl.h: what csrc/api/solver_solve.c, solve.c and result.c (solving, the minimal
 * search, results) see of a solver and a result (modlights.h: solvers). The solver's own
 * parts stay in solver.c; these are its answers, made on first need and kept by the
 * solver. */
#ifndef ML_API_SOLVER_IMPL_H
#define ML_API_SOLVER_IMPL_H

#include "include/modlights.h"
#include "search/bnb_zn.h"

#include <stdint.h>

/* The minimal search's limits (solve.c; the Python binding reads them as
 * _core.SEARCH_LIMITS, so they live here once): the default budget's deadline, a board
 * (a coset past ml_board_default_steps elements), the largest count it searches whole,
 * and the most bytes of kernel generators a search holds (past it: the engine's first
 * generators that fit, a sub-coset). */
#define ML__DEFAULT_SECONDS 1.0
#define ML__DEFAULT_NATIVE_BUDGET ((uint64_t)1 << 24)
#define ML__MAX_SEARCH_BYTES ((uint64_t)1 << 24)

/* The proof a minimal search keeps (the <proof> of a certificate, docs/certificates.md). */
enum {
    ML__PROOF_NONE = 0,        /* not proved */
    ML__PROOF_ENUMERATION = 1, /* {"method": "enumeration"} */
    ML__PROOF_TREE0 = 2,       /* {"method": "tree", "leaf_dim": 0, "pruned": [[]]}: length 0 */
    ML__PROOF_CUBE = 3,        /* {"method": "tree", "leaf_dim": m, "pruned": [],
                                * "symmetries": [...]}: the transform search (cube.py's
                                * CubePlan.proof), over the rebased generators in gens */
    ML__PROOF_BNB = 4          /* {"method": "tree", "leaf_dim": m, "bound": "classes",
                                * "pruned": [...]}: the Z/n branch and bound (search/
                                * bnb_zn.h), over the generators in gens (search order) */
};

#define ML__RESULT_MAGIC 0x6d6c7273u   /* "mlrs": a live result */

struct ml_result {
    uint32_t magic;
    ml_board *b;
    uint8_t *taps;             /* ml_board_taps_size bytes */
    uint64_t length;
    int proven;
    ml_factored kernel_size;
    int searched;              /* ML_SOLVE_MINIMAL: a minimal search ran */
    uint64_t examined, pruned;
    double seconds;
    int proof;                 /* ML__PROOF_*: set when proved */
    int kept;                  /* ML_SOLVE_PROOF: the proof (and kernel) kept */
    uint64_t ngens;            /* the kernel for the certificate (when kept and it fits) */
    uint8_t *gens;             /* ngens x n_taps bytes, or NULL */
    uint32_t *gen_orders;
    unsigned leaf_dim;         /* ML__PROOF_CUBE: the low generators (the first leaf_dim) */
    uint64_t nsyms;            /* ... and the symmetries it used: their images of */
    uint64_t *sym_cells;       /*   each cell (nsyms x n_cells) and */
    uint64_t *sym_taps;        /*   each tap (nsyms x n_taps), or NULL */
    uint32_t *prefixes;        /* ML__PROOF_BNB: the pruned prefixes (ml_bnb_proof's words) */
    uint64_t npruned_words;
};

/* Whether minimise searches by the Z/n branch and bound (solve_bnb.c): n > 2, every
 * generator held (k of them, at most ML_BNB_MAX_GENS), a coset of total elements past the
 * default count and past the count budget steps (UINT64_MAX: none). With the environment
 * variable MODLIGHTS_SEARCH=bnb (for tests): every coset of more than one element. */
int ml__bnb_applies(unsigned n, size_t L, uint64_t k, uint64_t total, uint64_t steps,
                    uint64_t count);
/* The branch and bound of x + span(H) (solve_bnb.c): x (L bytes) replaced by the least
 * element found within steps (UINT64_MAX: none) or by deadline_search (seconds on
 * ml_driver_now_ns's clock, < 0: none), then descended until deadline when unfinished.
 * *proven 1 and *proof (malloc'd, ml_bnb_proof_free then free) when finished. */
int ml__bnb_minimum(ml_ctx *ctx, const uint8_t *H, const uint32_t *orders, uint64_t k,
                    size_t L, unsigned n, uint8_t *x, uint64_t steps, double deadline_search,
                    double deadline, ml_bnb_proof **proof, uint64_t *examined, int *proven);

/* The kernel's generators (canonical when ml_canon_fits allowed; *canonical says), made
 * on first use and owned by the solver: k rows of n_taps bytes, their additive orders. */
int ml__solver_generators(ml_ctx *ctx, ml_solver *s, const uint8_t **H,
                          const uint32_t **orders, uint64_t *k, int *canonical);
/* The nullity (no generators made for it). */
int ml__solver_nullity(ml_ctx *ctx, ml_solver *s, uint64_t *out);
/* The engine's particular solutions of k states (k x ml_board_size bytes) to target:
 * X (k x n_taps bytes) and ok (k). */
int ml__solver_solve_rows(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                          ml_target target, uint8_t *X, uint8_t *ok);
/* The engine's particular solutions of k right-hand sides R (k x n_cells bytes, t - s
 * over the cells): X (k x n_taps bytes) and ok (k); the registry's fallback answers when
 * the engine leaves solve NULL. */
int ml__solver_solve_rhs(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *R, uint8_t *X,
                         uint8_t *ok);
/* The solver's board. */
ml_board *ml__solver_board(const ml_solver *s);
/* Whether |ker A| is 1 (every exponent 0). */
static inline int ml__factored_trivial(const ml_factored *f)
{
    for (int i = 0; i < f->count; i++)
        if (f->exp[i])
            return 0;
    return 1;
}
/* Take the solver for one public call (ML_EMISUSE when dead or in use) / give it back. */
int ml__solver_take(ml_ctx *ctx, ml_solver *s, const char *fn);
void ml__solver_give(ml_solver *s);
/* The frame of a public solver call (in a function with ml_ctx *ctx and ml_solver *s):
 * the scope entered, the out pointer checked, the solver taken (int rc declared);
 * ML__SOLVER_END gives the solver back and leaves the scope with rc. Needs api/ctx.h. */
#define ML__SOLVER_BEGIN(fn, outp)                                                       \
    ml_scope sc;                                                                         \
    ctx = ml__enter(ctx, &sc);                                                           \
    if (!(outp))                                                                         \
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, #outp));        \
    int rc = ml__solver_take(ctx, s, fn);                                                \
    if (rc)                                                                              \
        return ml__leave(ctx, &sc, rc);
/* The same frame without an out pointer (the caller checks its arguments after). */
#define ML__SOLVER_ENTER(fn)                                                             \
    ml_scope sc;                                                                         \
    ctx = ml__enter(ctx, &sc);                                                           \
    int rc = ml__solver_take(ctx, s, fn);                                                \
    if (rc)                                                                              \
        return ml__leave(ctx, &sc, rc);
#define ML__SOLVER_END(rc)                                                               \
    ml__solver_give(s);                                                                  \
    return ml__leave(ctx, &sc, rc)
/* |ker A| (the solver taken by the caller). */
int ml__solver_kernel_size(ml_ctx *ctx, ml_solver *s, ml_factored *out);
/* Whether the solver already made its generators. */
int ml__solver_has_generators(const ml_solver *s);

/* The plan's own engine, built: its registry entry, questions, user data and state. */
struct ml__engine;
int ml__solver_own(ml_ctx *ctx, ml_solver *s, const struct ml__engine **e,
                   const ml_engine_def **ops, void **user, void **eng);

/* solve.c: the minimal search of ml_solver_solve (Solver.solve(minimal=True) without an
 * executor): x (n_taps bytes, a particular solution) is replaced by the answer; r's
 * proven, examined, pruned, seconds and proof are set, and with ML_SOLVE_PROOF the
 * kernel a certificate names (Solver.solve's `keep`). ks: |ker A|. budget is checked. */
int ml__solve_minimal(ml_ctx *ctx, ml_solver *s, uint8_t *x, const ml_factored *ks,
                      ml_budget budget, unsigned flags, ml_result *r);
/* result.c: free what a result holds besides its board and taps. */
void ml__result_release(ml_result *r);
/* ML_M_BUDGET_KIND / ML_M_BUDGET_SECONDS for a bad budget (solver_budget.py's check). */
int ml__check_budget(ml_ctx *ctx, ml_budget budget);

#endif
