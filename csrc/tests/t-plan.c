/* t-plan: csrc/chase/plan.c (the plan of a light chase) against the tap matrix A of
 * random grid descriptions, computed in the test (chase-oracle.h): h, w in 1..8 and
 * 1 x k, k x 1, 16 x 16 boards, n in 2..9, 12, 16, 251, wrap (the per-tile lists) and no
 * wrap (the stencil), holes, locked tiles, one and several patterns, named and random
 * offsets with random counts (zero mod n included):
 *   - the forcing rule: tap t is forced by the first active tile c (row-major) whose
 *     last tap is t with a unit coefficient, else it is a symbol; the other active
 *     tiles are the residual tiles: symbols, residual tiles, nsym, nres, the forcing
 *     codes (-2 off the taps, <= -3 the symbols numbered by row, >= 0 with
 *     ml_chase_forcing_tile giving that tile) all as the oracle says;
 *   - ml_chase_taps_of: the non-zero entries of A's row, ascending, coefficients mod n;
 *   - residual events non-decreasing and after the tile's last tap; slots in range;
 *   - the kernel: over a prime, taps - rank A = nsym - rank M (M from the numeric chase
 *     by unit vectors, the rank by plain elimination here), and b = A x_true replays
 *     x_true with z = x_true at the symbols and rho = 0;
 *   - a mirrored plan only for a uniform pattern with every tile a tap and no wrap;
 *   - memory: a 300 x 200 uniform board (cross, diagonal, square, horizontal, vertical,
 *     knight; n = 2, 3) keeps at most 8 distinct rows of forcing codes, one with a lock
 *     every 7th row at least 2;
 *   - refusals: bad sizes, n, offset counts, npat > 1 without pat_of, offsets not
 *     strictly descending on the stencil: NULL with err 1.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: chase/plan.c chase/numeric.c base/cpu.c base/interrupt.c */
#include "chase/chase.h"
#include <stdio.h>

#define ML_T_SEED 0x91A4C4A5Eull
#include "t-util.h"
#include "chase-oracle.h"

static int n_plans, n_lists, n_mirrored, n_rank;

static void check_plan(co_desc *d)
{
    int err = -1;
    ml_chase *P = co_plan(d, &err);
    CHECK(P && err == 0, "%s: no plan (err %d)", d->what, err);
    if (!P) return;
    n_plans++;
    n_lists += !ml_chase_is_stencil(P);
    n_mirrored += ml_chase_mirrored(P);
    const size_t hw = co_hw(d);
    const unsigned n = (unsigned)d->n;
    uint8_t *A = co_dense(d);
    CHECK(ml_chase_is_stencil(P) == !d->wrap, "%s: stencil %d", d->what, ml_chase_is_stencil(P));
    /* the oracle's forcing: last taps, forcing tiles in row-major order */
    int64_t *last = malloc(hw * sizeof(int64_t)), *forcer = malloc(hw * sizeof(int64_t));
    uint8_t *forces = calloc(hw, 1);
    size_t ntaps = 0, nactive = 0, nforced = 0;
    for (size_t t = 0; t < hw; t++) {
        forcer[t] = -1;
        ntaps += co_tap(d, t);
        nactive += co_act(d, t);
    }
    for (size_t c = 0; c < hw; c++) {
        last[c] = -1;
        for (size_t q = 0; q < hw; q++)
            if (A[c * hw + q]) last[c] = (int64_t)q;
        if (!co_act(d, c) || last[c] < 0) continue;
        size_t L = (size_t)last[c];
        if (forcer[L] < 0 && co_is_unit(A[c * hw + L], n)) {
            forcer[L] = (int64_t)c;
            forces[c] = 1;
            nforced++;
        }
    }
    const size_t nsym = ml_chase_nsym(P), nres = ml_chase_nres(P);
    CHECK(nsym == ntaps - nforced, "%s: nsym %zu, want %zu", d->what, nsym, ntaps - nforced);
    CHECK(nres == nactive - nforced, "%s: nres %zu, want %zu", d->what, nres, nactive - nforced);
    int64_t *sym = malloc((nsym + 1) * sizeof(int64_t)), *res = malloc((nres + 1) * sizeof(int64_t)),
            *ev = malloc((nres + 1) * sizeof(int64_t));
    ml_chase_symbols(P, sym);
    ml_chase_residual_tiles(P, res);
    ml_chase_residual_events(P, ev);
    /* symbols: the taps nothing forces, ascending */
    size_t s = 0;
    for (size_t t = 0; t < hw; t++)
        if (co_tap(d, t) && forcer[t] < 0) {
            CHECK(s < nsym && sym[s] == (int64_t)t, "%s: symbol %zu is %lld, want %zu", d->what, s,
                  s < nsym ? (long long)sym[s] : -1LL, t);
            s++;
        }
    /* residual tiles: the active tiles that force nothing, each once */
    uint8_t *seen = calloc(hw, 1);
    for (size_t k = 0; k < nres; k++) {
        int64_t c = res[k];
        CHECK(c >= 0 && (size_t)c < hw && co_act(d, (size_t)c) && !forces[c] && !seen[c],
              "%s: residual tile %zu is %lld", d->what, k, (long long)c);
        if (c < 0 || (size_t)c >= hw) continue;
        seen[c] = 1;
        CHECK(ev[k] >= last[c] && ev[k] < (int64_t)hw, "%s: residual %zu at tap %lld, last tap %lld",
              d->what, k, (long long)ev[k], (long long)last[c]);
        if (k) CHECK(ev[k] >= ev[k - 1], "%s: residual events decrease at %zu", d->what, k);
    }
    /* forcing codes, row by row; symbols numbered within their row */
    size_t before = 0;
    for (int r = 0; r < d->h; r++) {
        const int32_t *e = ml_chase_codes(P, r);
        size_t inrow = 0;
        for (int col = 0; col < d->w; col++) {
            size_t t = (size_t)r * (size_t)d->w + (size_t)col;
            if (!co_tap(d, t)) {
                CHECK(e[col] == -2, "%s: code %d off the taps at %zu", d->what, e[col], t);
            } else if (forcer[t] < 0) {
                CHECK(e[col] == -3 - (int32_t)inrow, "%s: code %d at symbol tile %zu (%zu in row)",
                      d->what, e[col], t, inrow);
                inrow++;
            } else {
                CHECK(e[col] >= 0, "%s: code %d at a forced tap %zu", d->what, e[col], t);
                if (e[col] >= 0)
                    CHECK(ml_chase_forcing_tile(P, e[col], (int64_t)t) == forcer[t],
                          "%s: tap %zu forced by %lld, want %lld", d->what, t,
                          (long long)ml_chase_forcing_tile(P, e[col], (int64_t)t), (long long)forcer[t]);
            }
            if (co_tap(d, t)) CHECK(ml_chase_slot(P, (int64_t)t) < ml_chase_slots(P));
        }
        CHECK(before + inrow <= nsym);
        for (size_t j = 0; j < inrow && before + j < nsym; j++)
            CHECK(sym[before + j] / d->w == r, "%s: symbol %zu not in row %d", d->what, before + j, r);
        before += inrow;
    }
    CHECK(before == nsym);
    CHECK(ml_chase_pool_rows(P) >= 1 && ml_chase_pool_rows(P) <= (size_t)d->h);
    /* the taps affecting each active tile: A's row */
    const int mt = ml_chase_max_taps(P);
    int32_t *qs = malloc((size_t)mt * sizeof(int32_t));
    uint8_t *cf = malloc((size_t)mt);
    for (size_t c = 0; c < hw; c++) {
        if (!co_act(d, c)) continue;
        int m = ml_chase_taps_of(P, (int64_t)c, qs, cf), i = 0, ok = 1;
        for (size_t q = 0; q < hw && ok; q++)
            if (A[c * hw + q]) ok = i < m && qs[i] == (int32_t)q && cf[i] == A[c * hw + q], i++;
        CHECK(ok && i == m, "%s: taps of tile %zu differ from A's row (%d taps)", d->what, c, m);
    }
    /* mirrored: only a uniform pattern with every tile a tap, no wrap */
    if (ml_chase_mirrored(P))
        CHECK(!d->wrap && d->npat == 1 && ntaps == hw, "%s: mirrored", d->what);
    /* the kernel, and the replay of a known solution */
    uint8_t *b = malloc(hw), *xt = malloc(hw), *x = malloc(hw), *rho = malloc(nres + 1),
            *z = malloc(nsym + 1);
    co_solvable(d, b, xt);
    for (size_t j = 0; j < nsym; j++) z[j] = xt[sym[j]];
    if (!co_check_numeric(P, d, b, z, x, rho, "replay")) {
        for (size_t t = 0; t < hw; t++)
            if (co_tap(d, t)) CHECK(x[t] == xt[t], "%s: replay x[%zu] = %u, x_true %u", d->what, t, x[t], xt[t]);
        for (size_t k = 0; k < nres; k++) CHECK(rho[k] == 0, "%s: replay rho[%zu] = %u", d->what, k, rho[k]);
    }
    if (co_is_prime(d->n)) {
        uint8_t *M = co_matrix_by_numeric(P, d, b);
        /* rank of A over its active rows and tap columns = rank of all of A (the rest 0) */
        n_rank++;
        size_t ra = co_rank_p(A, hw, hw, hw, n), rm = co_rank_p(M, nres, nsym, nsym, n);
        CHECK(ntaps - ra == nsym - rm, "%s: dim ker A = %zu, dim ker M = %zu", d->what, ntaps - ra,
              nsym - rm);
        free(M);
    }
    free(b); free(xt); free(x); free(rho); free(z); free(qs); free(cf); free(seen);
    free(sym); free(res); free(ev); free(last); free(forcer); free(forces); free(A);
    ml_chase_free(P);
}

static void check_refusals(void)
{
    int32_t dr[3] = {1, 0, -1}, dc[3] = {0, 0, 0}, cnt[6] = {1, 1, 1, 1, 1, 1}, po[4] = {0, 1, 0, 1};
    int err;
    struct { int h, w, n, nu, npat; const int32_t *po; const char *why; } bad[] = {
        {0, 2, 3, 3, 1, NULL, "h = 0"},
        {2, 0, 3, 3, 1, NULL, "w = 0"},
        {2, 2, 1, 3, 1, NULL, "n = 1"},
        {2, 2, 256, 3, 1, NULL, "n = 256"},
        {2, 2, 3, -1, 1, NULL, "nu = -1"},
        {2, 2, 3, 4097, 1, NULL, "nu = 4097"},
        {2, 2, 3, 3, 0, NULL, "npat = 0"},
        {2, 2, 3, 3, 2, NULL, "npat = 2 without pat_of"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = -1;
        ml_chase *P = ml_chase_plan(bad[i].h, bad[i].w, bad[i].n, 0, NULL, NULL, bad[i].nu, dr, dc,
                                    bad[i].npat, cnt, bad[i].po, &err);
        CHECK(P == NULL && err == 1, "%s: taken (err %d)", bad[i].why, err);
        ml_chase_free(P);
    }
    /* the same with pat_of: taken; offsets not strictly descending on the stencil: refused */
    err = -1;
    ml_chase *P = ml_chase_plan(2, 2, 3, 0, NULL, NULL, 3, dr, dc, 2, cnt, po, &err);
    CHECK(P && err == 0, "npat = 2 with pat_of refused (err %d)", err);
    ml_chase_free(P);
    int32_t ur[3] = {-1, 0, 1}, rr[3] = {1, 0, 0};
    P = ml_chase_plan(3, 3, 3, 0, NULL, NULL, 3, ur, dc, 1, cnt, NULL, &err);
    CHECK(P == NULL && err == 1, "ascending offsets taken on the stencil (err %d)", err);
    ml_chase_free(P);
    P = ml_chase_plan(3, 3, 3, 0, NULL, NULL, 3, rr, dc, 1, cnt, NULL, &err);
    CHECK(P == NULL && err == 1, "a repeated offset taken on the stencil (err %d)", err);
    ml_chase_free(P);
    /* nu = 0: nothing affects anything; every tap a symbol, every tile a residual */
    P = ml_chase_plan(2, 3, 5, 0, NULL, NULL, 0, dr, dc, 1, cnt, NULL, &err);
    CHECK(P && ml_chase_nsym(P) == 6 && ml_chase_nres(P) == 6, "nu = 0");
    ml_chase_free(P);
}

/* The distinct rows of forcing codes a uniform board keeps: a handful, not one a row. */
static void check_pool_rows(void)
{
    static const int8_t P[6][9][2] = {
        {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}},
        {{0, 0}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}},
        {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 0}, {0, 1}, {1, -1}, {1, 0}, {1, 1}},
        {{0, 0}, {0, -1}, {0, 1}},
        {{0, 0}, {-1, 0}, {1, 0}},
        {{0, 0}, {1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}},
    };
    static const int len[6] = {5, 5, 9, 3, 3, 9};
    const int h = 300, w = 200;
    uint8_t *act = malloc((size_t)h * w), *tap = malloc((size_t)h * w);
    memset(act, 1, (size_t)h * w);
    memset(tap, 1, (size_t)h * w);
    for (int r = 0; r < h; r += 7) tap[r * w + 5] = 0;
    for (int i = 0; i < 6; i++)
        for (int n = 2; n <= 3; n++) {
            co_desc d;
            memset(&d, 0, sizeof d);
            d.h = h; d.w = w; d.n = n; d.npat = 1; d.nu = len[i];
            for (int u = 0; u < len[i]; u++) { d.udr[u] = P[i][u][0]; d.udc[u] = P[i][u][1]; d.cnt[u] = 1; }
            co_sort(&d);
            int err = -1;
            ml_chase *p = co_plan(&d, &err);
            CHECK(p && ml_chase_pool_rows(p) <= 8, "pattern %d, n = %d: %zu rows of codes", i, n,
                  p ? ml_chase_pool_rows(p) : 0);
            ml_chase_free(p);
            d.active = act;
            d.tappable = tap;
            p = co_plan(&d, &err);
            CHECK(p && ml_chase_pool_rows(p) >= 2, "pattern %d, n = %d, locks: %zu rows of codes", i,
                  n, p ? ml_chase_pool_rows(p) : 0);
            ml_chase_free(p);
        }
    free(act);
    free(tap);
}

int main(void)
{
    static const int ns[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 251};
    check_refusals();
    check_pool_rows();
    for (int trial = 0; trial < 660; trial++) {
        co_desc d;
        int h = 0, w = 0, n = ns[trial % 11];
        switch (trial % 12) {
        case 0: h = 1; w = (int)rnd_range(1, 20); break;        /* 1 x k */
        case 1: w = 1; h = (int)rnd_range(1, 20); break;        /* k x 1 */
        case 2: if (trial % 24 == 2) { h = 16; w = 16; } break;
        default: break;
        }
        co_random(&d, h, w, n, trial % 5 == 0 ? 1 : 0);
        check_plan(&d);
        co_free(&d);
    }
    printf("plans %d (lists %d, mirrored %d, rank checked %d)\n", n_plans, n_lists, n_mirrored,
           n_rank);
    CHECK(n_lists > 50 && n_mirrored > 20 && n_rank > 200);
    return t_done();
}
