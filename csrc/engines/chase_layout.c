/* chase_layout.c: what the chase engines (engines/chase.c, engines/chase_row.c) and the
 * registry's covers of the chase variants (api/registry_own.c) both decide, decided
 * once: limits.py's residual limit and the row-solve layout (engine.py's
 * _rowsolve_layout), the row-solve plan built on that layout (rowsolve_plan), and the
 * light chase's plan of a board (build_plan, _light_plan) with its tile layout. */
#include "engines/chase_impl.h"

#include "api/board.h"
#include "api/ctx.h"
#include "api/registry_impl.h"
#include "chase/chase.h"
#include "structured/band.h"

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

/* ------------------------------------------------------------------ the plan */
typedef struct { int32_t dr, dc; } off2;

static int off_desc(const void *a, const void *b)
{
    const off2 *x = a, *y = b;
    if (x->dr != y->dr)
        return x->dr < y->dr ? 1 : -1;
    return x->dc < y->dc ? 1 : (x->dc > y->dc ? -1 : 0);
}

/* The board tile at the plan's flat position f (plan h x w: the board's, or its
 * transpose). */
static uint64_t board_flat(const ml_board *b, int t, uint64_t f)
{
    if (!t)
        return f;
    uint64_t w = (uint64_t)b->rows;   /* plan w = board rows */
    uint64_t i = f / w, j = f % w;    /* plan (i, j) = board (j, i) */
    return j * (uint64_t)b->cols + i;
}

/* The plan's flat position of board tile f. */
/* The length of the run of consecutive positions idx[j], idx[j] + 1, ... (< n - j). */
static size_t run_of(const uint32_t *idx, size_t j, size_t n)
{
    size_t L = 1;
    while (j + L < n && idx[j + L] == idx[j] + L)
        L++;
    return L;
}

void ml__chase_to_plan(const ml_board *b, int t, const uint8_t *rhs, uint8_t *bg)
{
    size_t rows = (size_t)b->rows, cols = (size_t)b->cols, m = (size_t)b->n_cells;
    if (!b->holes || m == rows * cols) {   /* every tile a cell */
        if (t)
            ml_band_transpose(rhs, (ptrdiff_t)cols, bg, (ptrdiff_t)rows, rows, cols);
        else
            memcpy(bg, rhs, rows * cols);
        return;
    }
    memset(bg, 0, rows * cols);
    const uint32_t *cf = ml__board_cell_positions(b);
    if (!cf) {   /* no memory for the cells' positions: the tiles one by one */
        for (size_t f = 0, i = 0; f < rows * cols; f++)
            if (!b->holes[f])
                bg[t ? (f % cols) * rows + f / cols : f] = rhs[i++];
        return;
    }
    if (!t) {   /* runs of consecutive cells copied whole */
        for (size_t i = 0, L; i < m; i += L) {
            L = run_of(cf, i, m);
            memcpy(bg + cf[i], rhs + i, L);
        }
    } else {
        for (size_t i = 0; i < m; i++)
            bg[(size_t)(cf[i] % cols) * rows + cf[i] / cols] = rhs[i];
    }
}

void ml__chase_from_plan(const ml_board *b, int t, const uint8_t *x, uint8_t *out)
{
    size_t rows = (size_t)b->rows, cols = (size_t)b->cols, r = (size_t)b->n_taps;
    if (r == rows * cols) {   /* every tile a tap */
        if (t)
            ml_band_transpose(x, (ptrdiff_t)rows, out, (ptrdiff_t)cols, cols, rows);
        else
            memcpy(out, x, rows * cols);
        return;
    }
    ml__tap_runs it;   /* runs of consecutive taps: copied whole, or read down the columns */
    for (ml__tap_runs_init(&it, b); ml__tap_runs_next(&it);) {
        if (!t) {
            memcpy(out + it.j, x + it.f, (size_t)it.len);
            continue;
        }
        size_t r0 = (size_t)it.f / cols, c0 = (size_t)it.f % cols;
        for (size_t k = 0; k < it.len; k++, c0++) {
            if (c0 == cols)
                c0 = 0, r0++;
            out[it.j + k] = x[c0 * rows + r0];
        }
    }
}

/* build_plan of the board (t = 0) or of transpose_board(board) (t = 1): the plan, or
 * NULL with *rc set. */
static ml_chase *plan_of(ml_ctx *ctx, const ml_board *b, int t, int *rc, uint8_t **scratch)
{
    int h = (int)(t ? b->cols : b->rows), w = (int)(t ? b->rows : b->cols);
    uint64_t hw = (uint64_t)h * (uint64_t)w;
    uint32_t npal = b->n_pal ? b->n_pal : 1;
    int32_t *index = malloc(npal * sizeof *index);   /* palette -> pattern number */
    uint32_t *used = malloc(npal * sizeof *used);    /* pattern number -> palette */
    int32_t *pat_of = b->mixed ? malloc(hw * sizeof *pat_of + 1) : NULL;
    off2 *offs = NULL;
    int32_t *udr = NULL, *udc = NULL, *cnt = NULL;
    uint8_t *active = NULL, *tappable = NULL;
    ml_chase *p = NULL;
    *rc = ML_OK;
    if (!index || !used || (b->mixed && !pat_of))
        goto oom;
    for (uint32_t k = 0; k < npal; k++)
        index[k] = -1;
    int32_t npat = 0;
    if (b->mixed) {
        for (uint64_t f = 0; f < hw; f++) {
            uint32_t k = b->tile_pal[board_flat(b, t, f)];
            if (index[k] < 0) {
                index[k] = npat;
                used[npat++] = k;
            }
            pat_of[f] = index[k];
        }
    } else {
        index[0] = 0;
        used[0] = 0;
        npat = 1;
    }
    size_t total = 0;
    for (int32_t i = 0; i < npat; i++)
        total += b->pal[used[i]].count;
    offs = malloc((total + 1) * sizeof *offs);
    if (!offs)
        goto oom;
    size_t k = 0;
    for (int32_t i = 0; i < npat; i++) {
        const ml__pattern *pt = &b->pal[used[i]];
        for (size_t j = 0; j < pt->count; j++, k++) {
            offs[k].dr = t ? pt->dc[j] : pt->dr[j];
            offs[k].dc = t ? pt->dr[j] : pt->dc[j];
        }
    }
    qsort(offs, total, sizeof *offs, off_desc);
    size_t nu = 0;
    for (size_t i = 0; i < total; i++)
        if (!nu || off_desc(&offs[nu - 1], &offs[i]))
            offs[nu++] = offs[i];
    udr = malloc((nu + 1) * sizeof *udr);
    udc = malloc((nu + 1) * sizeof *udc);
    cnt = calloc((size_t)npat * nu + 1, sizeof *cnt);
    if (!udr || !udc || !cnt)
        goto oom;
    for (size_t i = 0; i < nu; i++) {
        udr[i] = offs[i].dr;
        udc[i] = offs[i].dc;
    }
    for (int32_t i = 0; i < npat; i++) {
        const ml__pattern *pt = &b->pal[used[i]];
        for (size_t j = 0; j < pt->count; j++) {
            off2 o = {t ? pt->dc[j] : pt->dr[j], t ? pt->dr[j] : pt->dc[j]};
            off2 *at = bsearch(&o, offs, nu, sizeof *offs, off_desc);
            cnt[(size_t)i * nu + (size_t)(at - offs)]++;
        }
    }
    if (b->locked || b->holes) {   /* _plan_masks */
        tappable = malloc(hw + 1);
        active = b->holes ? malloc(hw + 1) : NULL;
        if (!tappable || (b->holes && !active))
            goto oom;
        const uint8_t *h = b->holes, *l = b->locked, *one = h ? h : l;   /* 0 / 1 masks */
        if (!t && h && l) {   /* along the rows: the masks in place, loops that vectorise */
            for (uint64_t f = 0; f < hw; f++)
                tappable[f] = (uint8_t)!(h[f] | l[f]);
        } else if (!t) {
            for (uint64_t f = 0; f < hw; f++)
                tappable[f] = (uint8_t)!one[f];
        }
        if (!t && active)
            for (uint64_t f = 0; f < hw; f++)
                active[f] = (uint8_t)!h[f];
        for (uint64_t f = 0; t && f < hw; f++) {
            uint64_t g = board_flat(b, t, f);
            int hole = h && h[g], lock = l && l[g];
            if (active)
                active[f] = !hole;
            tappable[f] = !hole && !lock;
        }
    }
    int err = 0;
    p = ml_chase_plan(h, w, b->n, b->wrap, active, tappable, (int)nu, udr, udc, npat, cnt,
                      npat > 1 ? pat_of : NULL, &err);
    if (!p)
        *rc = err == 2 ? ml__fail(ctx, ML_M_NOMEM, "the chase engine")
                       : ml__fail_text(ctx, ML_EINVAL, ML_M_INTERNAL,
                                       "the chase plan refused the board's tables");
    goto done;
oom:
    *rc = ml__fail(ctx, ML_M_NOMEM, "the chase engine");
done:
    free(index);
    free(used);
    free(pat_of);
    free(offs);
    free(udr);
    free(udc);
    free(cnt);
    free(active);
    if (p && scratch && !*scratch) {   /* its pages written once already: the caller's */
        *scratch = tappable;
        tappable = NULL;
    }
    free(tappable);
    return p;
}

/* _light_plan: the light chase's plan along the rows or, for a board wider than tall
 * whose columns give fewer symbols, along the columns (*transposed set). */
ml_chase *ml__chase_light_plan(ml_ctx *ctx, const ml_board *b, int *transposed, int *rc,
                               uint8_t **scratch)
{
    *transposed = 0;
    ml_chase *plan = plan_of(ctx, b, 0, rc, scratch);
    if (plan && b->cols > b->rows && ml_chase_nsym(plan) > 1) {
        ml_chase *tp = plan_of(ctx, b, 1, rc, scratch);
        if (tp && ml_chase_nsym(tp) < ml_chase_nsym(plan)) {
            ml_chase_free(plan);
            plan = tp;
            *transposed = 1;
        } else {
            ml_chase_free(tp);
        }
    }
    return plan;
}
