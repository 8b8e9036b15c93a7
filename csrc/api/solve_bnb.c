/* solve_bnb.c: the Z/n branch and bound of the minimal search (solve.c's minimise; see
 * solver_impl.h, ml__bnb_minimum): the generators sparsified and put in search order, the descent's
 * answer as the root and first incumbent, search/bnb_zn.h's search within the budget,
 * the descent again when unfinished. */
#include "api/ctx.h"
#include "api/solver_impl.h"
#include "search/bnb_zn.h"
#include "search/driver.h"

#include <stdlib.h>
#include <string.h>

/* The deadline (seconds on ml_driver_now_ns's clock, < 0: none) in ns (0: none). */
static int64_t deadline_ns(double deadline)
{
    if (deadline < 0)
        return 0;
    double ns = deadline * 1e9 - (double)ml_driver_now_ns();
    return ml_driver_now_ns() + (ns < 1 ? 1 : ns > 4e18 ? (int64_t)4e18 : (int64_t)ns);
}

int ml__bnb_applies(unsigned n, size_t L, uint64_t k, uint64_t total, uint64_t steps,
                    uint64_t count)
{
    const char *env = getenv("MODLIGHTS_SEARCH");   /* "bnb": every Z/n coset (tests) */
    if (env && !strcmp(env, "bnb"))
        count = 1, steps = UINT64_MAX;
    return n > 2 && L && k && k <= ML_BNB_MAX_GENS && total > count &&
           (steps == UINT64_MAX || steps < total) && (k + 1) * k * L <= ((uint64_t)1 << 28);
}

int ml__bnb_minimum(ml_ctx *ctx, const uint8_t *H, const uint32_t *orders, uint64_t k,
                    size_t L, unsigned n, uint8_t *x, uint64_t steps, double deadline_search,
                    double deadline, ml_bnb_proof **proof, uint64_t *examined, int *proven)
{
    *proof = NULL;
    *examined = 0;
    *proven = 0;
    uint32_t *perm = malloc(k * sizeof *perm);
    uint8_t *G = malloc(k * L);
    uint32_t *O = malloc(k * sizeof *O);
    uint8_t *best = malloc(L);
    ml_bnb_proof *P = calloc(1, sizeof *P);
    int rc = ML_OK;
    uint8_t *Hs = malloc(k * L);   /* the sparsified basis, in the solver's order */
    if (!perm || !G || !O || !best || !P || !Hs) {
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
        goto out;
    }
    memcpy(G, H, k * L);
    int sp = ml_bnb_zn_sparsify(G, orders, (size_t)k, L, n);
    if (sp) {
        rc = sp == ML_BNB_INTERRUPTED ? ml__fail(ctx, ML_M_INTERRUPTED)
                                      : ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
        goto out;
    }
    memcpy(Hs, G, k * L);
    if (ml_bnb_zn_order(Hs, (size_t)k, L, perm)) {
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
        goto out;
    }
    for (uint64_t t = 0; t < k; t++) {
        memcpy(G + t * L, Hs + (size_t)perm[t] * L, L);
        O[t] = orders[perm[t]];
    }
    if (ml_driver_descend(G, (size_t)k, L, O, n, x, deadline_ns(deadline)) ==
        ML_DRIVER_INTERRUPTED) {
        rc = ml__fail(ctx, ML_M_INTERRUPTED);
        goto out;
    }
    int64_t len = 0;
    ml_bnb_stats st;
    int got = ml_bnb_zn_min(x, G, O, (size_t)k, L, n, steps == UINT64_MAX ? 0 : steps,
                            deadline_ns(deadline_search), best, &len, P, &st);
    *examined = st.examined;
    if (got == ML_BNB_OK || got == ML_BNB_STOPPED || got == ML_BNB_TOO_BIG ||
        got == ML_BNB_INTERRUPTED)
        memcpy(x, best, L);
    if (got == ML_BNB_INTERRUPTED)
        rc = ml__fail(ctx, ML_M_INTERRUPTED);
    else if (got == ML_BNB_ENOMEM)
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_solver_solve");
    else if (got == ML_BNB_EINVAL)
        rc = ml__fail(ctx, ML_M_INTERNAL, "ml_solver_solve", "the branch and bound refused");
    else if (got == ML_BNB_OK) {
        *proven = 1;
        *proof = P;
        P = NULL;
    } else if (ml_driver_descend(G, (size_t)k, L, O, n, x, deadline_ns(deadline)) ==
               ML_DRIVER_INTERRUPTED) {
        rc = ml__fail(ctx, ML_M_INTERRUPTED);
    }
out:
    if (P)
        ml_bnb_proof_free(P);
    free(P);
    free(perm);
    free(G);
    free(Hs);
    free(O);
    free(best);
    return rc;
}
