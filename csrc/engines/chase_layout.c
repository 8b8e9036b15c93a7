/* chase_layout.c: what the chase engines (engines/chase.c) and the registry's covers
 * of the chase variants (api/registry_own.c) both decide, decided once: limits.py's
 * residual limit and the row-solve layout (engine.py's _rowsolve_layout), and the
 * row-solve plan built on that layout (rowsolve_plan). */
#include "engines/chase_impl.h"

#include "api/board.h"
#include "api/ctx.h"
#include "api/registry_impl.h"

#include <stdlib.h>
#include <string.h>

/* limits.py's MAX_RESIDUAL_BYTES, MAX_RESIDUAL_WORK */
#define MAX_RESIDUAL_BYTES (1ull << 30)
#define MAX_RESIDUAL_WORK (1ull << 38)
#define ROWSOLVE_RING_BYTES (1ull << 28)

int ml__chase_bit_length(unsigned __int128 v)
{
    int k = 0;
    for (; v; v >>= 1)
        k++;
    return k;
}

int ml__chase_residual_fits(uint64_t nres, uint64_t nsym, int n, ml__residual_size *z)
{
    typedef unsigned __int128 u128;
    uint64_t side = nres < nsym ? nres : nsym;
    u128 bytes, work;
    if (n == 2) {
        bytes = 3 * ((u128)nres * ((nsym + 63) / 64) * 8);
        work = (u128)nres * nsym * side / 64;
    } else {
        int p[ML_MAX_PRIMES], pk[ML_MAX_PRIMES];
        int parts = ml__primes_of(n, p, pk);
        bytes = (u128)nres * nsym * (u128)(1 + 3 * parts);
        work = (u128)nres * nsym * side / 16;
    }
    z->mib = (double)bytes / 1048576.0;
    z->work_log2 = ml__chase_bit_length(work ? work : 1) - 1;
    z->max_mib = (double)MAX_RESIDUAL_BYTES / 1048576.0;
    z->max_work_log2 = ml__chase_bit_length(MAX_RESIDUAL_WORK) - 1;
    return bytes <= MAX_RESIDUAL_BYTES && work <= MAX_RESIDUAL_WORK;
}

void ml__rowsolve_layout_free(ml__rowsolve_layout *L)
{
    free(L->er);
    free(L->ec);
    free(L->cf);
    L->er = L->ec = L->cf = NULL;
}

int ml__rowsolve_layout_of(const ml_board *b, ml__rowsolve_layout *L)
{
    memset(L, 0, sizeof *L);
    L->t = -1;
    if (b->kind != ML_BOARD_GRID || b->wrap || b->mixed || b->holes || b->locked || !b->pal ||
        !b->pal[0].count)
        return 0;
    const ml__pattern *p = &b->pal[0];
    int n = b->n;
    size_t m = p->count, ne = 0;
    int32_t *er = malloc(m * sizeof *er), *ec = malloc(m * sizeof *ec),
            *cf = malloc(m * sizeof *cf);
    L->er = er;
    L->ec = ec;
    L->cf = cf;
    if (!er || !ec || !cf) {
        ml__rowsolve_layout_free(L);
        return -1;
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
    L->ne = ne;
    if (!ne)
        return 0;
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
        if (L->t < 0 || sym < L->sym) {
            L->sym = sym;
            L->t = t;
        }
    }
    return L->t >= 0;
}

ml_rowsolve *ml__chase_rowsolve_plan(ml_ctx *ctx, const ml_board *b, int *transposed, int *rc)
{
    *rc = ML_OK;
    ml__rowsolve_layout L;
    int got = ml__rowsolve_layout_of(b, &L);
    if (got < 0) {
        *rc = ml__fail(ctx, ML_M_NOMEM, "the chase engine");
        return NULL;
    }
    ml_rowsolve *plan = NULL;
    if (got == 0)
        goto done;
    *rc = ml__chase_check_residual_size(ctx, L.sym, L.sym, b->n);
    if (*rc)
        goto done;
    int t = L.t, err = 0;
    plan = ml_rowsolve_plan_zn((int)(t ? b->cols : b->rows), (int)(t ? b->rows : b->cols), b->n,
                               (int)L.ne, t ? L.ec : L.er, t ? L.er : L.ec, L.cf, &err);
    if (!plan)
        *rc = err == 2 ? ml__fail(ctx, ML_M_NOMEM, "the chase engine")
                       : ml__fail_text(ctx, ML_EINVAL, ML_M_INTERNAL,
                                       "the row-solve plan refused an eligible board");
    *transposed = t;
done:
    ml__rowsolve_layout_free(&L);
    return plan;
}
