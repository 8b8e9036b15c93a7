/* tensor.c: the tensor engine's questions (engines/tensor.h), the orchestration of
 * src/modlights/engines/tensor/engine.py's TensorEngine over engines/band.c.
 *
 * The pattern's counts factor as cnt(dr, dc) = a(dr) b(dc) (factor_pattern, as Python
 * computes it); the rows' factor R is BandFactor(a, rows), the columns' C is
 * BandFactor(b, cols). _parts: one part mod n when both factors work mod n, else one per
 * prime power q of n with its CRT idempotent. A part's solve is X = G_R B G_C^T (the
 * chase down the rows, a byte transpose, the chase along the columns, a transpose back;
 * over GF(2) the byte states are packed 8 columns a byte and solved as solve_packed does,
 * the same chases and G, so the same answer, with no byte transposes); over a prime its
 * kernel has the basis u_a (x) e_j, then e_i (x) v_b (i outside the pivots of ker R), the
 * parts' i-th generators added by CRT (their orders multiplied); a ring part (q = p^k, a
 * factor singular mod p) is engines/ring.c's. Nothing of rows x cols size is made at build
 * (the factors are O(rows + cols)), so giant boards get nullity, kernel size and det
 * (the GF(2) byte solve keeps two packed arrays of h x ceil(w / 8) bytes for the next
 * solves). Every allocation is checked ("out of memory in the tensor engine"). */
#include "engines/tensor.h"

#include "api/board.h"
#include "api/engine.h"
#include "api/registry_impl.h"
#include "api/ctx.h"
#include "base/interrupt.h"
#include "base/modn.h"
#include "engines/band.h"
#include "engines/ring.h"
#include "structured/band.h"
#include "structured/packed.h"
#include "structured/symchase.h"

#include <stdlib.h>
#include <string.h>

/* engine.py's KERNEL_BYTES_MAX (256 MiB of generators x taps) */
#define KERNEL_BYTES_MAX ((uint64_t)1 << 28)

typedef struct {
    unsigned q, idem;
    int prime, is_ring;
    ml__band R, C;
    ml__ring ring;   /* a ring part (is_ring): q = p^k, k > 1, a factor singular mod p */
} tpart;

typedef struct {
    unsigned n;
    size_t h, w;
    int nparts;
    tpart part[4];
    /* GF(2), made on the first packed or byte solve (gf2_known): the row solve along C
     * (rs), else one strip of STRIP_ROWS rows and its chase (strip, work) */
    int gf2_known;
    ml_symchase_rows *rs;
    uint8_t *strip, *work;
    /* GF(2) byte solve, made on its first call: the right-hand side and the answer as
     * packed rows (h x ceil(w / 8) bytes each) */
    uint8_t *pin, *pout;
} tens_eng;

static int nomem(ml_ctx *ctx) { return ml__fail(ctx, ML_M_NOMEM, "the tensor engine"); }

/* The failure of a GF(2) packed solve (gf2_solve's status) on ctx. */
static int gf2_fail(ml_ctx *ctx, int rc)
{
    if (rc == ML_ENOMEM)
        return nomem(ctx);
    if (rc == ML_EINTERRUPTED)
        return ml__fail(ctx, ML_M_INTERRUPTED);
    return ml__fail(ctx, ML_M_INTERNAL, "tensor", "the packed chase refused its factor");
}

static int cmp64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a < 0 ? -a : a;
}

/* factor_pattern: 1 with a (na entries) and b (nb entries, zero counts dropped), 0 when
 * the counts do not factor, ML_ENOMEM. ad/ac/bd/bc hold pattern->count entries each. */
static int factor_pattern(const ml__pattern *p, int64_t *ad, int64_t *ac, size_t *na,
                          int64_t *bd, int64_t *bc, size_t *nb)
{
    size_t m = p->count;
    if (!m)
        return 0;
    int64_t *drs = malloc(m * sizeof *drs), *dcs = malloc(m * sizeof *dcs);
    int64_t *cnt = NULL;
    int rc = ML_ENOMEM;
    if (!drs || !dcs)
        goto done;
    for (size_t i = 0; i < m; i++) {
        drs[i] = p->dr[i];
        dcs[i] = p->dc[i];
    }
    qsort(drs, m, sizeof *drs, cmp64);
    qsort(dcs, m, sizeof *dcs, cmp64);
    size_t nr = 0, nc = 0;
    for (size_t i = 0; i < m; i++) {
        if (!nr || drs[nr - 1] != drs[i])
            drs[nr++] = drs[i];
        if (!nc || dcs[nc - 1] != dcs[i])
            dcs[nc++] = dcs[i];
    }
    cnt = calloc(nr * nc, sizeof *cnt);   /* nr * nc <= m^2: patterns are small */
    if (!cnt)
        goto done;
    for (size_t i = 0; i < m; i++) {
        size_t r = (size_t)((int64_t *)bsearch(&(int64_t){p->dr[i]}, drs, nr, sizeof *drs,
                                               cmp64) - drs);
        size_t c = (size_t)((int64_t *)bsearch(&(int64_t){p->dc[i]}, dcs, nc, sizeof *dcs,
                                               cmp64) - dcs);
        cnt[r * nc + c]++;
    }
    int64_t g = 0;
    for (size_t j = 0; j < nc; j++)
        g = gcd64(g, cnt[j]);
    size_t jn = nc;
    for (size_t j = 0; j < nc; j++)
        if (cnt[j] && jn == nc)
            jn = j;
    rc = 0;
    for (size_t r = 0; r < nr; r++) {
        int64_t rj = cnt[r * nc + jn], u = cnt[jn] / g;
        int64_t k = rj / u;
        if (rj % u)
            goto done;
        for (size_t j = 0; j < nc; j++)
            if (cnt[r * nc + j] != k * (cnt[j] / g))
                goto done;
        ad[r] = drs[r];
        ac[r] = k;
    }
    *na = nr;
    *nb = 0;
    for (size_t j = 0; j < nc; j++)
        if (cnt[j]) {
            bd[*nb] = dcs[j];
            bc[(*nb)++] = cnt[j] / g;
        }
    rc = 1;
done:
    free(drs);
    free(dcs);
    free(cnt);
    return rc;
}

static void tens_destroy(void *user, void *engine)
{
    (void)user;
    tens_eng *e = engine;
    if (!e)
        return;
    for (int i = 0; i < e->nparts; i++) {
        if (e->part[i].is_ring)
            ml__ring_free(&e->part[i].ring);
        ml__band_free(&e->part[i].R);
        ml__band_free(&e->part[i].C);
    }
    ml_symchase_rows_free(e->rs);
    free(e->strip);
    free(e->work);
    free(e->pin);
    free(e->pout);
    free(e);
}

/* the two factors mod q into t: 0, 1 (refused), ML_ENOMEM */
static int factors(const ml_board *b, const int64_t *ad, const int64_t *ac, size_t na,
                   const int64_t *bd, const int64_t *bc, size_t nb, unsigned q, tpart *t)
{
    char why[ML_WHY_MAX];
    int rc = ml__band_init(&t->R, ad, ac, na, b->rows, q, b->wrap, why, sizeof why);
    if (rc)
        return rc;
    rc = ml__band_init(&t->C, bd, bc, nb, b->cols, q, b->wrap, why, sizeof why);
    if (rc)
        ml__band_free(&t->R);
    return rc;
}

static int tens_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    char why[ML_WHY_MAX];
    if (!ml__tensor_covers(b, why, sizeof why))
        return ml__fail(ctx, ML_M_INTERNAL, "tensor", "the board is not covered (the registry's covers)");
    const ml__pattern *pt = &b->pal[0];
    size_t m = pt->count;
    int64_t *buf = malloc(4 * (m ? m : 1) * sizeof *buf);
    tens_eng *e = calloc(1, sizeof *e);
    if (!buf || !e) {
        free(buf);
        free(e);
        return nomem(ctx);
    }
    int64_t *ad = buf, *ac = buf + m, *bd = buf + 2 * m, *bc = buf + 3 * m;
    size_t na = 0, nb = 0;
    int rc = factor_pattern(pt, ad, ac, &na, bd, bc, &nb);
    e->n = (unsigned)b->n;
    e->h = (size_t)b->rows;
    e->w = (size_t)b->cols;
    if (rc == 1) {
        rc = factors(b, ad, ac, na, bd, bc, nb, e->n, &e->part[0]);
        if (rc == 0) {
            e->nparts = 1;
            e->part[0].q = e->n;
            e->part[0].idem = 1;
        } else if (rc == 1) {   /* split by CRT */
            unsigned q[4], p[4], ex[4], idem[4];
            int np = ml_prime_powers(e->n, q, p, ex, idem);
            rc = 0;
            for (int i = 0; i < np && !rc; i++) {
                rc = factors(b, ad, ac, na, bd, bc, nb, q[i], &e->part[i]);
                if (!rc) {
                    e->part[i].q = q[i];
                    e->part[i].idem = idem[i];
                    e->nparts = i + 1;
                }
            }
        }
    }
    free(buf);
    if (rc == ML_ENOMEM || rc == ML_EINTERRUPTED) {
        tens_destroy(NULL, e);
        return rc == ML_ENOMEM ? nomem(ctx) : ml__fail(ctx, ML_M_INTERRUPTED);
    }
    if (rc) {
        tens_destroy(NULL, e);
        return ml__fail(ctx, ML_M_INTERNAL, "tensor", "a factor refused what covers took");
    }
    for (int i = 0; i < e->nparts; i++) {
        tpart *t = &e->part[i];
        unsigned q[4], p[4], ex[4], idem[4];
        t->prime = ml_prime_powers(t->q, q, p, ex, idem) == 1 && ex[0] == 1;
        if (t->R.ring || t->C.ring) {
            if (ml__ring_init(&t->ring, &t->R, &t->C)) {
                tens_destroy(NULL, e);
                return nomem(ctx);
            }
            t->is_ring = 1;
        }
    }
    *engine = e;
    return ML_OK;
}

/* the part's kernel generators: dim ker over a prime, 0 where it is invertible */
static uint64_t part_nullity(const tens_eng *e, const tpart *t)
{
    if (t->is_ring)
        return ml__ring_nullity(&t->ring);
    if (!t->prime)
        return 0;
    uint64_t kr = (uint64_t)t->R.nullity, kc = (uint64_t)t->C.nullity;
    return e->h * kc + e->w * kr - kr * kc;
}

static uint64_t nullity_of(const tens_eng *e)
{
    uint64_t k = 0;
    for (int i = 0; i < e->nparts; i++) {
        uint64_t x = part_nullity(e, &e->part[i]);
        if (x > k)
            k = x;
    }
    return k;
}

static int tens_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    (void)ctx;
    *nullity = nullity_of(engine);
    return ML_OK;
}

static int tens_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    (void)user;
    (void)ctx;
    tens_eng *e = engine;
    memset(size, 0, sizeof *size);
    for (int i = 0; i < e->nparts; i++) {
        uint64_t k = part_nullity(e, &e->part[i]);
        if (e->part[i].is_ring) {
            k = ml__ring_kernel_log(&e->part[i].ring);
            if (k) {
                size->prime[size->count] = e->part[i].ring.p;
                size->exp[size->count++] = k;
            }
        } else if (k) {
            size->prime[size->count] = e->part[i].q;
            size->exp[size->count++] = k;
        }
    }
    return ML_OK;
}

/* engine.py's STRIP_ROWS: rows a strip of the packed solve's column direction */
#define STRIP_ROWS 512

/* BandFactor.packed_row_solver without tori: a GF(2) factor that is I + P or P (odd
 * counts on -1 and +1, maybe 0, nothing else) of side >= 3 solves packed rows in place,
 * word-parallel, when invertible (ml_symchase_rows_new checks): *P set, 1; else 0. */
static int row_solver(const ml__band *f, ml_symchase *P)
{
    if (f->n != 2 || f->identity || f->ring || f->wrap || f->nullity || f->L < 3)
        return 0;
    int has[3] = {0, 0, 0};
    for (size_t i = 0; i < f->m; i++) {
        if (f->c[i] % 2 == 0)
            continue;
        if (f->d[i] < -1 || f->d[i] > 1)
            return 0;
        has[f->d[i] + 1] = 1;
    }
    if (!has[0] || !has[2])
        return 0;
    memset(P, 0, sizeof *P);
    P->h = 1;
    P->w = (size_t)f->L;
    P->p = 2;
    P->a[2] = (unsigned)has[1];
    P->b[2] = 1;
    return 1;
}

/* GF(2): the row solve along C (when row_solver takes C and it is invertible), else the
 * strip and its chase buffer; once per engine. 0 or ML_ENOMEM. */
static int gf2_prepare(tens_eng *e)
{
    if (e->gf2_known)
        return 0;
    const ml__band *C = &e->part[0].C;
    ml_symchase P;
    int why = 0;
    if (row_solver(C, &P) && !(e->rs = ml_symchase_rows_new(&P, &why)) && why == 2)
        return ML_ENOMEM;
    if (!e->rs && !C->identity) {
        size_t sb = STRIP_ROWS / 8;
        e->strip = malloc(e->w * sb + 1);
        e->work = malloc((e->w + (size_t)C->s) * sb + 1);
        if (!e->strip || !e->work) {
            free(e->strip);
            free(e->work);
            e->strip = e->work = NULL;
            return ML_ENOMEM;
        }
    }
    e->gf2_known = 1;
    return 0;
}

/* GF(2), np.packbits rows (h x ceil(w / 8) bytes, gf2_prepare done): Y = G_R B G_C^T,
 * *ok whether B is in the image of A (Y then unspecified when not). The chase down the
 * rows on whole packed rows (R's chase writes rows 0..h-1 only: its symbols are rows of
 * the answer set to 0, then corrected by S z), then along the rows: each row solved in
 * place, word-parallel, when C is I + P or P; else strips of STRIP_ROWS rows transposed
 * in bits, chased along the columns and transposed back. Y's bits past column w are 0.
 * 0, ML_EINTERRUPTED, ML_EINVAL (a factor the packed chase refuses). */
static int gf2_solve(const tens_eng *e, const uint8_t *B, uint8_t *Y, int *ok)
{
    const tpart *t = &e->part[0];
    size_t h = e->h, w = e->w, nb = (w + 7) / 8, sb = STRIP_ROWS / 8;
    *ok = 0;
    int rc = ml__band_apply_ginv_packed(&t->R, B, nb, w, Y, ok);   /* R Y = B */
    if (rc || !*ok || t->C.identity)
        goto tail;
    if (e->rs) {   /* C X^T = Y^T a row at a time */
        if (ml_symchase_rows_run(e->rs, Y, h, nb))
            rc = ML_EINTERRUPTED;
        goto tail;
    }
    for (size_t i0 = 0; !rc && *ok && i0 < h; i0 += STRIP_ROWS) {
        size_t rows = h - i0 < STRIP_ROWS ? h - i0 : STRIP_ROWS;
        ml_packed_transpose(Y + i0 * nb, nb, rows, w, e->strip, sb);   /* strip = Y^T */
        rc = ml__band_apply_ginv_packed(&t->C, e->strip, sb, rows, e->work, ok);   /* C X^T = Y^T */
        if (!rc && *ok)
            ml_packed_transpose(e->work, sb, w, rows, Y + i0 * nb, nb);
    }
tail:
    if (!rc && *ok && w % 8)
        for (size_t i = 0; i < h; i++)
            Y[i * nb + nb - 1] &= (uint8_t)(0xFF << (8 - w % 8));
    return rc;
}

/* Whether the GF(2) packed solves take the engine's board: n = 2 (one part, a field:
 * never a ring factor), factors not reversed (a unit at either end; over GF(2) always). */
static int gf2_packs(const tens_eng *e)
{
    const tpart *t = &e->part[0];
    return e->n == 2 && e->nparts == 1 && !t->is_ring && !t->R.reversed && !t->C.reversed;
}

/* the byte solve over GF(2) through gf2_solve: B (h x w bytes 0 / 1) packed into e->pin,
 * solved into e->pout, unpacked into X. The same answer as part_solve's byte chase (the
 * same chases and G on 8 columns a byte). 0, ML_ENOMEM, ML_EINTERRUPTED, ML_EINVAL. */
static int gf2_solve_bytes(tens_eng *e, const uint8_t *B, uint8_t *X, int *ok)
{
    size_t h = e->h, w = e->w, nb = (w + 7) / 8;
    int rc = gf2_prepare(e);
    if (rc)
        return rc;
    if (!e->pin) {
        e->pin = malloc(h * nb + 1);
        e->pout = malloc(h * nb + 1);
        if (!e->pin || !e->pout) {
            free(e->pin);
            free(e->pout);
            e->pin = e->pout = NULL;
            return ML_ENOMEM;
        }
    }
    ml_packed_from_bytes(B, w, h, w, e->pin, nb);
    rc = gf2_solve(e, e->pin, e->pout, ok);
    if (!rc && *ok)
        ml_packed_to_bytes(e->pout, nb, h, w, X, w);
    return rc;
}

/* _part_solve: X (h x w) with R X C^T = B mod q; *ok 0 when there is none. Y: scratch of
 * (h + R.s) x w and (w + C.s) x h bytes (the factors chase in it), T: h x w. */
static int part_solve(const tens_eng *e, const tpart *t, const uint8_t *B, uint8_t *X,
                      uint8_t *Y, uint8_t *T, int *ok)
{
    size_t h = e->h, w = e->w;
    if (t->is_ring)
        return ml__ring_solve(&t->ring, B, X, ok);
    int rc = ml__band_apply_ginv_in(&t->R, B, (ptrdiff_t)w, w, Y, NULL, ok);
    if (rc || !*ok)
        return rc;
    if (t->C.identity) {
        memcpy(X, Y, h * w);
        return 0;
    }
    ml_band_transpose(Y, (ptrdiff_t)w, T, (ptrdiff_t)h, h, w);   /* T = Y^T, w x h */
    rc = ml__band_apply_ginv_in(&t->C, T, (ptrdiff_t)h, h, Y, NULL, ok);
    if (rc || !*ok)
        return rc;
    ml_band_transpose(Y, (ptrdiff_t)h, X, (ptrdiff_t)w, w, h);
    return 0;
}

int ml__tensor_solve_bytes(ml_ctx *ctx, void *engine, size_t k, const uint8_t *R, uint8_t *X,
                           uint8_t *ok)
{
    tens_eng *e = engine;
    size_t hw = e->h * e->w, ys = hw;
    ml_fastmod fn = ml_fastmod_make(e->n);
    for (int j = 0; j < e->nparts; j++) {   /* Y: room for each factor's symbol rows */
        const tpart *t = &e->part[j];
        if (t->is_ring)
            continue;
        size_t r = (e->h + (size_t)t->R.s) * e->w, c = (e->w + (size_t)t->C.s) * e->h;
        ys = r > ys ? r : ys;
        ys = c > ys ? c : ys;
    }
    int crt = e->nparts > 1;   /* Bq, xq, acc: the parts' CRT */
    uint8_t *Y = malloc(ys + 1), *T = malloc(hw + 1), *Bq = crt ? malloc(hw + 1) : NULL,
            *xq = crt ? malloc(hw + 1) : NULL;
    uint16_t *acc = crt ? malloc((hw + 1) * sizeof *acc) : NULL;
    int rc = ML_OK;
    if (!Y || !T || (crt && (!Bq || !xq || !acc))) {
        rc = nomem(ctx);
        goto done;
    }
    for (size_t i = 0; i < k && !rc; i++) {
        const uint8_t *B = R + i * hw;
        int good = 1;
        if (e->nparts == 1) {
            rc = part_solve(e, &e->part[0], B, X + i * hw, Y, T, &good);
        } else {
            memset(acc, 0, hw * sizeof *acc);
            for (int j = 0; j < e->nparts && good && !rc; j++) {
                unsigned id = e->part[j].idem;
                ml_fastmod fq = ml_fastmod_make(e->part[j].q);
                for (size_t x = 0; x < hw; x++)
                    Bq[x] = (uint8_t)ml_fastmod_red(fq, B[x]);
                rc = part_solve(e, &e->part[j], Bq, xq, Y, T, &good);
                if (!rc && good)   /* acc < n, xq < q, id < n: below 2^16 */
                    for (size_t x = 0; x < hw; x++)
                        acc[x] = (uint16_t)ml_fastmod_red(fn, acc[x] + (unsigned)xq[x] * id);
            }
            if (!rc && good)
                for (size_t x = 0; x < hw; x++)
                    X[i * hw + x] = (uint8_t)acc[x];
        }
        if (rc == ML_ENOMEM)
            rc = nomem(ctx);
        else if (rc == ML_EINTERRUPTED)
            rc = ml__fail(ctx, ML_M_INTERRUPTED);
        ok[i] = (uint8_t)(!rc && good);
    }
done:
    free(Y);
    free(T);
    free(Bq);
    free(xq);
    free(acc);
    return rc;
}

static int tens_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                      uint8_t *X, uint8_t *ok)
{
    (void)user;
    tens_eng *e = engine;
    if (!gf2_packs(e))
        return ml__tensor_solve_bytes(ctx, engine, k, R, X, ok);
    size_t hw = e->h * e->w;   /* GF(2): 8 columns a byte, no byte transposes */
    int rc = ML_OK;
    for (size_t i = 0; i < k && !rc; i++) {
        int good = 0;
        rc = gf2_solve_bytes(e, R + i * hw, X + i * hw, &good);
        ok[i] = (uint8_t)(!rc && good);
    }
    if (rc)
        return gf2_fail(ctx, rc);
    return ML_OK;
}

/* _part_generators: the first k rows of u_a (x) e_j, then e_i (x) v_b, into H (k x hw,
 * zeroed by the caller) */
static int part_generators(const tens_eng *e, const tpart *t, uint64_t k, uint8_t *H)
{
    size_t h = e->h, w = e->w;
    size_t kr = (size_t)t->R.nullity, kc = (size_t)t->C.nullity;
    uint8_t *U = malloc(kr * h + 1), *V = malloc(kc * w + 1), *piv = calloc(h, 1);
    int64_t *pu = malloc((kr + 1) * sizeof *pu), *pv = malloc((kc + 1) * sizeof *pv);
    int rc = 0;
    if (!U || !V || !piv || !pu || !pv || ml__band_kernel_basis(&t->R, U, pu) ||
        ml__band_kernel_basis(&t->C, V, pv)) {
        rc = ML_ENOMEM;
        goto done;
    }
    uint64_t g = 0;
    for (size_t a = 0; a < kr; a++)
        for (size_t j = 0; j < w; j++) {
            if (g == k)
                goto done;
            for (size_t i = 0; i < h; i++)
                H[g * h * w + i * w + j] = U[a * h + i];
            g++;
        }
    for (size_t a = 0; a < kr; a++)
        piv[pu[a]] = 1;
    for (size_t i = 0; i < h; i++) {
        if (piv[i])
            continue;
        for (size_t b = 0; b < kc; b++) {
            if (g == k)
                goto done;
            memcpy(H + g * h * w + i * w, V + b * w, w);
            g++;
        }
    }
done:
    free(U);
    free(V);
    free(piv);
    free(pu);
    free(pv);
    return rc;
}

static int tens_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                           uint8_t *H, uint32_t *orders)
{
    (void)user;
    tens_eng *e = engine;
    uint64_t null = nullity_of(e), hw = (uint64_t)e->h * e->w;
    uint64_t count = limit < null ? limit : null;
    *k = count;
    if (!H || !count)
        return ML_OK;
    if (hw && count > KERNEL_BYTES_MAX / hw) {
        unsigned __int128 bytes = (unsigned __int128)count * hw;
        return ml__fail(ctx, ML_M_KERNEL_BASIS_TOO_LARGE, (unsigned long long)count,
                        (unsigned long long)hw, (double)bytes / (1024.0 * 1024.0 * 1024.0),
                        (double)KERNEL_BYTES_MAX / (1024.0 * 1024.0));
    }
    memset(H, 0, (size_t)(count * hw));
    if (e->nparts == 1 && e->part[0].is_ring) {
        uint32_t *ord = orders ? orders : malloc((size_t)count * sizeof *ord);
        int bad = !ord || ml__ring_generators(&e->part[0].ring, count, H, ord);
        if (ord != orders)
            free(ord);
        return bad ? nomem(ctx) : ML_OK;
    }
    if (e->nparts == 1) {
        if (part_generators(e, &e->part[0], count, H))
            return nomem(ctx);
        for (uint64_t g = 0; orders && g < count; g++)
            orders[g] = e->part[0].q;
        return ML_OK;
    }
    for (uint64_t g = 0; orders && g < count; g++)
        orders[g] = 1;
    unsigned n = e->n;
    for (int j = 0; j < e->nparts; j++) {
        const tpart *t = &e->part[j];
        uint64_t kq = part_nullity(e, t);
        if (kq > count)
            kq = count;
        if (!kq)
            continue;
        uint8_t *G = calloc((size_t)(kq * hw), 1);
        uint32_t *ord = malloc((size_t)kq * sizeof *ord);
        if (!G || !ord ||
            (t->is_ring ? ml__ring_generators(&t->ring, kq, G, ord) : part_generators(e, t, kq, G))) {
            free(G);
            free(ord);
            return nomem(ctx);
        }
        for (uint64_t x = 0; x < kq * hw; x++)
            H[x] = (uint8_t)((H[x] + (unsigned)G[x] * t->idem) % n);
        free(G);
        for (uint64_t g = 0; orders && g < kq; g++)
            orders[g] *= t->is_ring ? ord[g] : t->q;
        free(ord);
    }
    return ML_OK;
}

static unsigned powmod(unsigned b, uint64_t x, unsigned q)
{
    uint64_t r = 1 % q, y = b % q;
    while (x) {
        if (x & 1)
            r = r * y % q;
        y = y * y % q;
        x >>= 1;
    }
    return (unsigned)r;
}

static int tens_det(void *user, ml_ctx *ctx, void *engine, unsigned *det)
{
    (void)user;
    tens_eng *e = engine;
    uint64_t d = 0;
    for (int j = 0; j < e->nparts; j++) {
        const tpart *t = &e->part[j];
        unsigned dr = 0, dc = 0;
        if (ml__band_det(&t->R, &dr) || ml__band_det(&t->C, &dc))
            return nomem(ctx);
        uint64_t v = (uint64_t)powmod(dr, e->w, t->q) * powmod(dc, e->h, t->q) % t->q;
        d = (d + v * t->idem) % e->n;
    }
    *det = (unsigned)d;
    return ML_OK;
}

static int tens_kernel_fits(void *user, ml_ctx *ctx, void *engine, int *fits)
{
    (void)user;
    (void)ctx;
    tens_eng *e = engine;
    uint64_t null = nullity_of(e), hw = (uint64_t)e->h * e->w;
    *fits = !null || !hw || null <= KERNEL_BYTES_MAX / hw;
    return ML_OK;
}

/* GF(2), np.packbits rows: the taps of fill ^ packed (TensorEngine.solve_packed) in
 * `out` itself, by gf2_solve. Memory: a flipped copy of the input for fill 1, and the
 * engine's strip (gf2_prepare). */
static int tens_solve_packed(void *user, ml_ctx *ctx, void *engine, const uint8_t *packed,
                             unsigned fill, uint8_t *out, int *solvable)
{
    (void)user;
    tens_eng *e = engine;
    *solvable = 0;
    if (e->n != 2)
        return ml__fail(ctx, ML_M_PACKED_NEEDS_GF2_GRID, (int)e->n, "");
    if (!gf2_packs(e))
        return ml__fail(ctx, ML_M_INTERNAL, "tensor", "the packed chase refused its factor");
    size_t h = e->h, nb = (e->w + 7) / 8;
    /* the input read in place for fill 0, a flipped copy for fill 1 */
    uint8_t *B = fill & 1 ? malloc(h * nb + 1) : NULL;
    int rc = gf2_prepare(e), ok = 0;
    if (!rc && (fill & 1) && !B)
        rc = ML_ENOMEM;
    for (size_t x = 0; !rc && B && x < h * nb; x++)
        B[x] = packed[x] ^ 0xFF;
    if (!rc)
        rc = gf2_solve(e, B ? B : packed, out, &ok);
    free(B);
    if (rc)
        return gf2_fail(ctx, rc);
    *solvable = ok;
    return ML_OK;
}

const ml_engine_def ml__tensor_ops = {
    .size = sizeof(ml_engine_def),
    .name = "tensor",
    .build = tens_build,
    .destroy = tens_destroy,
    .solve = tens_solve,
    .nullity = tens_nullity,
    .kernel_size = tens_kernel_size,
    .generators = tens_generators,
    .det = tens_det,
    .kernel_fits = tens_kernel_fits,
    .solve_packed = tens_solve_packed,
};
