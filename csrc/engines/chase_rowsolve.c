/* chase_rowsolve.c: the row-solve chase's plan for engines/chase.c's "chase-rowsolve"
 * (engine.py's rowsolve_plan and _rowsolve_layout). */
#include "engines/chase_impl.h"

#include "api/board.h"
#include "api/ctx.h"

#include <stdlib.h>
#include <string.h>

#define ROWSOLVE_RING_BYTES (1ull << 28)

/* engine.py's rowsolve_plan (_rowsolve_layout): the offsets of the board's one pattern
 * in order of first appearance with their multiplicity mod n (zero ones dropped), er =
 * -dr, ec = -dc; along the rows or (transposed) the columns, the eligible orientation
 * whose ring fits with the fewest symbols D x w. NULL with *rc = ML_OK when neither
 * fits. */
ml_rowsolve *ml__chase_rowsolve_plan(ml_ctx *ctx, const ml_board *b, int *transposed, int *rc)
{
    *rc = ML_OK;
    if (b->wrap || b->mixed || b->holes || b->locked || !b->pal || !b->pal[0].count)
        return NULL;
    const ml__pattern *p = &b->pal[0];
    int n = b->n;
    size_t m = p->count, ne = 0;
    int32_t *er = malloc(m * sizeof *er), *ec = malloc(m * sizeof *ec),
            *cf = malloc(m * sizeof *cf);
    ml_rowsolve *plan = NULL;
    if (!er || !ec || !cf) {
        *rc = ml__fail(ctx, ML_M_NOMEM, "the chase engine");
        goto done;
    }
    for (size_t i = 0; i < m; i++) {   /* Counter(board.offsets) */
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = !(p->dr[j] == p->dr[i] && p->dc[j] == p->dc[i]);
        if (!first)
            continue;
        long k = 0;
        for (size_t j = i; j < m; j++)
            k += p->dr[j] == p->dr[i] && p->dc[j] == p->dc[i];
        if (k % n) {
            er[ne] = -p->dr[i];
            ec[ne] = -p->dc[i];
            cf[ne] = (int32_t)(k % n);
            ne++;
        }
    }
    if (!ne)
        goto done;
    int best_t = -1;
    uint64_t best = 0;
    for (int t = 0; t < 2; t++) {
        int64_t h = t ? b->cols : b->rows, w = t ? b->rows : b->cols;
        const int32_t *r = t ? ec : er, *c = t ? er : ec;
        int64_t D = r[0], rmin = r[0], mc = 0, mr = 0;
        for (size_t i = 0; i < ne; i++) {
            D = r[i] > D ? r[i] : D;
            rmin = r[i] < rmin ? r[i] : rmin;
            int64_t a = c[i] < 0 ? -c[i] : c[i], q = r[i] < 0 ? -r[i] : r[i];
            mc = a > mc ? a : mc;
            mr = q > mr ? q : mr;
        }
        if (mr > 4096 || mc > 4096 ||
            !ml_rowsolve_eligible_zn((int)h, (int)w, n, (int)ne, r, c, cf))
            continue;
        int64_t span = D - (rmin < 0 ? rmin : 0) + 1;
        uint64_t kept = n == 2 ? (uint64_t)span + 1
                               : (1ull << ml__chase_bit_length((unsigned __int128)(span - 1))) +
                                     1;
        uint64_t slot = n == 2 ? 64 : 256;
        if ((unsigned __int128)kept * (uint64_t)(w + 2 * mc) * slot > ROWSOLVE_RING_BYTES)
            continue;
        uint64_t sym = (uint64_t)D * (uint64_t)w;
        if (best_t < 0 || sym < best) {
            best = sym;
            best_t = t;
        }
    }
    if (best_t < 0)
        goto done;
    *rc = ml__chase_check_residual_size(ctx, best, best, n);
    if (*rc)
        goto done;
    int t = best_t, err = 0;
    plan = ml_rowsolve_plan_zn((int)(t ? b->cols : b->rows), (int)(t ? b->rows : b->cols), n,
                               (int)ne, t ? ec : er, t ? er : ec, cf, &err);
    if (!plan)
        *rc = err == 2 ? ml__fail(ctx, ML_M_NOMEM, "the chase engine")
                       : ml__fail_text(ctx, ML_EINVAL, ML_M_INTERNAL,
                                       "the row-solve plan refused an eligible board");
    *transposed = t;
done:
    free(er);
    free(ec);
    free(cf);
    return plan;
}

