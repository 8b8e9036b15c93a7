/* torus2.c: the "algebraic-torus2" engine (torus2.h): tori of any uniform pattern over
 * GF(p), p prime.
 *
 * On an h x w torus the board is multiplication by P(s, t) = sum of s^dc t^dr over the
 * pattern's offsets (counts mod p) in GF(p)[s, t] / (s^w - 1, t^h - 1): a polynomial in
 * t over R = GF(p)[s] / (s^w - 1). When its lowest row (least dr) is a single offset,
 * its coefficient c s^dc is a unit of R and the rows can be chased: each row equation
 * gives the row of that offset from the rows before it (O(offsets x w) a row). The
 * board is first transposed, sheared ((r, c) -> (r + a c mod h, c), an automorphism of
 * the torus when h | a w: offsets (dr, dc) -> (dr + a dc, dc)) and flipped (r -> -r)
 * as ml__torus2_orient chooses, so that a single offset leads with the least span k
 * (the rows between the extreme ones): the diagonal's lead appears at a = 1 (span 4),
 * the knight's at a = 2 (span 10).
 *
 * The unknowns are the first k rows z (each an element of R); chasing the h - k other
 * rows leaves k residual row equations, affine in z and R-linear: M z + c with M the
 * k x k matrix over R whose column j is the chase from z = e_j (b = 0), c the chase of
 * b from z = 0. polymatn.c diagonalises M: L M V = diag(d_i); with g_i = gcd(d_i, f) =
 * t_i d_i + ..., f = s^w - 1: nullity = sum deg g_i; b is solvable iff g_i | e_i (e = -L
 * c), then z = V (t_i e_i / g_i) and the chase is replayed; the kernel is spanned by
 * the chases (b = 0) from V (f / g_i s^j e_i), j < deg g_i, mapped back to the board.
 *
 * Costs: k + 1 chases of O(offsets h w) to build (made on first need), the diagonal form
 * (O(k^3) products and O(k^2) extended gcds of degree w), two chases and the logged
 * operations' products a solve. Every allocation is checked (ML_ENOMEM "out of memory
 * in the algebraic engine"); the chases poll for an interrupt every 16 rows, the gcds
 * and the diagonal form every step (ML_EINTERRUPTED). */
#include "engines/torus2.h"

#include "api/board.h"
#include "api/ctx.h"
#include "base/interrupt.h"
#include "base/modn.h"
#include "engines/algebraic_impl.h"
#include "engines/polymat.h"
#include "engines/polymatn.h"

#include <stdlib.h>
#include <string.h>

/* cross.py's KERNEL_BYTES_MAX (256 MiB of generators x taps) */
#define KERNEL_BYTES_MAX ((uint64_t)1 << 28)

/* One offset of the mapped pattern: its row, its column mod w, its count mod p (> 0). */
typedef struct t2off {
    long dr;
    size_t dc;
    unsigned k;
} t2off;

typedef struct t2_eng {
    unsigned p, inv;          /* inv: the lead's count's inverse mod p */
    size_t rows, cols;        /* the board's */
    ml__t2_orient o;
    size_t h, w, S;           /* the worked board, the span */
    t2off *off;
    size_t noff, lead;
    long D, Dmax;             /* the least and the largest dr */
    size_t *shift;            /* (a c) mod h for c < w */
    int built;
    pmn M;
    px f, *g, *t;             /* S each */
    uint64_t nullity;
} t2_eng;

/* The pattern mapped by (t, a, f) onto a torus w wide: distinct (dr, dc mod w) with
 * their counts mod p, zeros dropped; out has room for pt->count entries. */
static size_t mapped(const ml__pattern *pt, unsigned p, int t, long a, int f, size_t w,
                     t2off *out)
{
    size_t n = 0;
    for (size_t i = 0; i < pt->count; i++) {
        long dr = t ? pt->dc[i] : pt->dr[i], dc = t ? pt->dr[i] : pt->dc[i];
        dr += a * dc;
        if (f)
            dr = -dr;
        long W = (long)w;
        size_t c = (size_t)(((dc % W) + W) % W);
        size_t j = 0;
        while (j < n && !(out[j].dr == dr && out[j].dc == c))
            j++;
        if (j == n)
            out[n++] = (t2off){dr, c, 0};
        out[j].k = (out[j].k + 1) % p;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (out[i].k)
            out[m++] = out[i];
    return m;
}

/* the least row of the offsets, whether it holds one offset (*lead its index), the span */
static long extremes(const t2off *o, size_t n, size_t *lead, int *single, long *hi)
{
    long lo = o[0].dr;
    *hi = o[0].dr;
    for (size_t i = 1; i < n; i++) {
        lo = o[i].dr < lo ? o[i].dr : lo;
        *hi = o[i].dr > *hi ? o[i].dr : *hi;
    }
    int cnt = 0;
    for (size_t i = 0; i < n; i++)
        if (o[i].dr == lo) {
            cnt++;
            *lead = i;
        }
    *single = cnt == 1;
    return lo;
}

int ml__torus2_work_fits(unsigned p, size_t span, size_t w)
{
    /* about span^3 / 3 products and 2 span extended gcds of O(w^2) coefficient steps
     * (O(w^2 / 64) word steps over GF(2)) */
    long double work = ((long double)span * span * span / 3 + 2.0L * span) * w * w;
    if (p == 2)
        work /= 64;
    return work <= (long double)((uint64_t)1 << ML_TORUS2_MAX_WORK_LOG2);
}

int ml__torus2_orient(const ml_board *b, ml__t2_orient *o)
{
    return ml__torus2_orient_mod(b, (unsigned)b->n, o);
}

int ml__torus2_orient_mod(const ml_board *b, unsigned p, ml__t2_orient *o)
{
    const ml__pattern *pt = &b->pal[0];
    t2off *buf = malloc((pt->count + 1) * sizeof *buf);
    if (!buf)
        return -1;
    int found = 0;
    for (int t = 0; t < 2; t++) {
        size_t h = (size_t)(t ? b->cols : b->rows), w = (size_t)(t ? b->rows : b->cols);
        for (int ai = 0; ai <= 2 * ML_TORUS2_MAX_SHEAR; ai++) {
            long a = ai == 0 ? 0 : (ai % 2 ? (ai + 1) / 2 : -(ai / 2));
            unsigned __int128 aw = (unsigned __int128)(a < 0 ? -a : a) * w;
            if (a && aw % h)
                continue;   /* (r + a c mod h, c) is a map of the torus only when h | a w */
            for (int f = 0; f < 2; f++) {
                size_t n = mapped(pt, p, t, a, f, w, buf), lead = 0;
                if (!n)
                    continue;
                int single = 0;
                long hi = 0, lo = extremes(buf, n, &lead, &single, &hi);
                size_t span = (size_t)(hi - lo);
                if (!single || span > ML_TORUS2_MAX_SPAN || span >= h ||
                    !ml__torus2_work_fits(p, span, w))
                    continue;
                /* the least span, then the narrower board (the ring's degree: the
                 * diagonal form's products and gcds are O(w^2) each) */
                if (!found || span < o->span || (span == o->span && w < o->w)) {
                    *o = (ml__t2_orient){t, f, a, h, w, span};
                    found = 1;
                }
            }
        }
    }
    free(buf);
    return found;
}

/* ------------------------------------------------------------------ the chase */
/* A C module's status as the library's: 2 out of memory, 3 stopped, else a bug. */
static int status(ml_ctx *ctx, int rc, const char *what)
{
    return ml__alg_status(ctx, rc, "the torus algebra", what);
}

static int any(const uint8_t *v, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= v[i];
    return acc != 0;
}

/* acc[c] += k src[c - dc mod w] */
static void acc_rot(uint32_t *restrict acc, const uint8_t *restrict src, size_t w, size_t dc,
                    uint32_t k)
{
    for (size_t c = dc; c < w; c++)
        acc[c] += k * src[c - dc];
    for (size_t c = 0; c < dc; c++)
        acc[c] += k * src[c + w - dc];
}

/* acc[c] += k src[c - dc mod w], 16 bits */
static void acc_rot16(uint16_t *restrict acc, const uint8_t *restrict src, size_t w, size_t dc,
                      uint16_t k)
{
    for (size_t c = dc; c < w; c++)
        acc[c] = (uint16_t)(acc[c] + k * src[c - dc]);
    for (size_t c = 0; c < dc; c++)
        acc[c] = (uint16_t)(acc[c] + k * src[c + w - dc]);
}

/* acc[c] += k src[c - dc mod w], bytes that wrap mod 256 */
static void acc_rot8(uint8_t *restrict acc, const uint8_t *restrict src, size_t w, size_t dc,
                     uint8_t k)
{
    if (k == 1) {
        for (size_t c = dc; c < w; c++)
            acc[c] = (uint8_t)(acc[c] + src[c - dc]);
        for (size_t c = 0; c < dc; c++)
            acc[c] = (uint8_t)(acc[c] + src[c + w - dc]);
        return;
    }
    for (size_t c = dc; c < w; c++)
        acc[c] = (uint8_t)(acc[c] + k * src[c - dc]);
    for (size_t c = 0; c < dc; c++)
        acc[c] = (uint8_t)(acc[c] + k * src[c + w - dc]);
}

/* acc[c] ^= src[c - dc mod w] (GF(2)) */
static void xor_rot(uint8_t *restrict acc, const uint8_t *restrict src, size_t w, size_t dc)
{
    for (size_t c = dc; c < w; c++)
        acc[c] ^= src[c - dc];
    for (size_t c = 0; c < dc; c++)
        acc[c] ^= src[c + w - dc];
}

/* One row equation e (row of B; B NULL: zero) over the rows `rows` of its offsets
 * (rows[i]: the row at e - dr_i, NULL for the lead when skip): into tmp as the value of
 * sum k_i x_{e - dr_i} - B_e (lead skipped: inv (B_e - sum) instead), mod p. */
static void equation(const t2_eng *e, const uint8_t *Be, const uint8_t *const *rows,
                     int skip, uint32_t *acc, uint8_t *tmp)
{
    unsigned p = e->p;
    size_t w = e->w;
    if (p == 2) {
        if (Be)
            memcpy(tmp, Be, w);
        else
            memset(tmp, 0, w);
        for (size_t i = 0; i < e->noff; i++)
            if (!(skip && i == e->lead))
                xor_rot(tmp, rows[i], w, e->off[i].dc);
        return;
    }
    uint32_t sq = (p - 1) * (p - 1), kb = skip ? e->inv : p - 1;   /* the weight of B_e */
    if (!(p & (p - 1))) {   /* a power of two (the lifted engine's Z/2^k): bytes mod 256 */
        for (size_t c = 0; c < w; c++)
            tmp[c] = (uint8_t)(Be ? kb * Be[c] : 0);
        for (size_t i = 0; i < e->noff; i++)
            if (!(skip && i == e->lead))
                acc_rot8(tmp, rows[i], w, e->off[i].dc,
                         (uint8_t)(skip ? (p - e->off[i].k) * e->inv % p : e->off[i].k));
        for (size_t c = 0; c < w; c++)
            tmp[c] &= (uint8_t)(p - 1);
        return;
    }
    if ((uint64_t)(e->noff + 1) * sq <= 0xFFFF) {   /* every sum fits 16 bits */
        uint16_t *a16 = (uint16_t *)acc;
        for (size_t c = 0; c < w; c++)
            a16[c] = (uint16_t)(Be ? kb * Be[c] : 0);
        for (size_t i = 0; i < e->noff; i++)
            if (!(skip && i == e->lead))
                acc_rot16(a16, rows[i], w, e->off[i].dc,
                          (uint16_t)(skip ? (p - e->off[i].k) * e->inv % p : e->off[i].k));
        uint32_t M = 65536 / p + 1;
        for (size_t c = 0; c < w; c++) {   /* x mod p: q is x / p or one more */
            uint32_t x = a16[c], q = (x * M) >> 16;
            int32_t r = (int32_t)x - (int32_t)(q * p);
            tmp[c] = (uint8_t)(r + (int32_t)((uint32_t)(r >> 31) & p));
        }
        return;
    }
    ml_fastmod F = ml_fastmod_make(p);
    uint32_t lim = ((1u << 24) - 1) / (sq ? sq : 1), terms = 1;
    for (size_t c = 0; c < w; c++)
        acc[c] = Be ? kb * Be[c] : 0;
    for (size_t i = 0; i < e->noff; i++) {
        if (skip && i == e->lead)
            continue;
        uint32_t k = skip ? (p - e->off[i].k) * e->inv % p : e->off[i].k;
        if (++terms > lim) {
            for (size_t c = 0; c < w; c++)
                acc[c] = ml_fastmod_red(F, acc[c]);
            terms = 2;
        }
        acc_rot(acc, rows[i], w, e->off[i].dc, k);
    }
    for (size_t c = 0; c < w; c++)
        tmp[c] = (uint8_t)ml_fastmod_red(F, acc[c]);
}

/* The chase from the unknown rows z (S x w) with right-hand side B (h x w; NULL: zero):
 * the rows in x (h x w) when x is not NULL, the S residual equations' values in res
 * (S x w). 0, 2 out of memory, 3 stopped. */
static int chase(const t2_eng *e, const uint8_t *B, const uint8_t *z, uint8_t *x, uint8_t *res)
{
    size_t h = e->h, w = e->w, S = e->S, no = e->noff;
    uint32_t *acc = malloc(w * sizeof *acc + 1);
    uint8_t *tmp = malloc(w + 1), *ring = x ? NULL : malloc((S + 1) * w + 1);
    const uint8_t **rows = malloc(no * sizeof *rows + 1);
    int rc = 0;
    if (!acc || !tmp || !rows || (!x && !ring)) {
        rc = 2;
        goto done;
    }
    if (x && S)
        memcpy(x, z, S * w);
#define ROW(r) (x ? x + (r) * w : (r) < S ? z + (r) * w : ring + ((r) % (S + 1)) * w)
    long H = (long)h;
    for (size_t j = 0; j < h && !rc; j++) {
        long er = (((long)j + e->Dmax) % H + H) % H;
        for (size_t i = 0; i < no; i++) {
            long r = (long)j + e->Dmax - e->off[i].dr;   /* in [j, j + S] */
            rows[i] = ROW((size_t)(r % H));
        }
        const uint8_t *Be = B ? B + (size_t)er * w : NULL;
        if (j + S < h) {   /* the lead's row j + S from the others */
            uint8_t *dst = (uint8_t *)ROW(j + S);
            size_t dl = e->off[e->lead].dc;
            equation(e, Be, rows, 1, acc, tmp);
            memcpy(dst + w - dl, tmp, dl);   /* x[c - dl mod w] = tmp[c] */
            memcpy(dst, tmp + dl, w - dl);
        } else {
            equation(e, Be, rows, 0, acc, res + (j + S - h) * w);
        }
        if (((j & 15) == 15 || j + 1 == h) && ml_interrupt_poll())
            rc = 3;
    }
#undef ROW
done:
    free(acc);
    free(tmp);
    free(ring);
    free(rows);
    return rc;
}

/* ------------------------------------------------------------------ the system */
static void coeffs(const t2_eng *e, const px *a, uint8_t *out)
{
    memset(out, 0, e->w);
    if (e->p == 2) {
        for (size_t i = 0; i < e->w && i / 64 < a->b.n; i++)
            out[i] = (uint8_t)(a->b.c[i / 64] >> (i % 64) & 1);
    } else {
        for (size_t i = 0; i < e->w && i < a->c.n; i++)
            out[i] = a->c.c[i];
    }
}

static int build_system(ml_ctx *ctx, t2_eng *e)
{
    if (e->built)
        return ML_OK;
    unsigned p = e->p;
    size_t S = e->S, w = e->w;
    uint8_t *z = calloc(S * w + 1, 1), *res = malloc(S * w + 1);
    int rc = z && res ? 0 : 2;
    for (size_t j = 0; j < S && !rc; j++) {
        z[j * w] = 1;
        rc = chase(e, NULL, z, NULL, res);
        z[j * w] = 0;
        for (size_t i = 0; i < S && !rc; i++)
            rc = ml__alg_px_set(p, &e->M.e[i * S + j], res + i * w, w);
    }
    free(z);
    free(res);
    if (!rc)
        rc = ml__pmn_diagonalise(&e->M);
    e->nullity = 0;
    for (size_t i = 0; i < S && !rc; i++) {
        const px *d = &e->M.e[i * S + i];
        if (ml__alg_px_deg(p, d) < 0) {
            rc = ml__alg_px_copy(p, &e->g[i], &e->f);
            if (!rc)
                rc = ml__alg_px_set(p, &e->t[i], NULL, 0);
        } else {
            rc = ml__pm_xgcd(p, &e->g[i], &e->t[i], NULL, d, &e->f);
            if (!rc)
                rc = ml__pmn_reduce(p, w, &e->t[i]);
        }
        if (!rc)
            e->nullity += (uint64_t)ml__alg_px_deg(p, &e->g[i]);
    }
    if (!rc)
        e->built = 1;
    return status(ctx, rc, rc == 4 ? "the diagonal form" : "the chase");
}

/* y (S entries) -> z = V y as S rows of w bytes */
static int rows_of(const t2_eng *e, px *y, uint8_t *z)
{
    int rc = ml__pmn_apply_V(&e->M, y);
    for (size_t i = 0; i < e->S && !rc; i++)
        coeffs(e, &y[i], z + i * e->w);
    return rc;
}

/* Solve on the worked board B (h x w, values < p): the taps in x, *ok. */
static int solve_work(ml_ctx *ctx, t2_eng *e, const uint8_t *B, uint8_t *x, int *ok)
{
    unsigned p = e->p;
    size_t S = e->S, w = e->w;
    uint8_t *z = calloc(S * w + 1, 1), *res = malloc(S * w + 1);
    px *v = ml__alg_px_vec(S);
    px q, r;
    ml__alg_px_init(&q);
    ml__alg_px_init(&r);
    *ok = 1;
    int st = z && res && v ? chase(e, B, z, NULL, res) : 2;
    if (!st && any(res, S * w)) {
        for (size_t i = 0; i < S && !st; i++) {
            st = ml__alg_px_set(p, &v[i], res + i * w, w);
            ml__alg_px_neg(p, &v[i]);
        }
        if (!st)
            st = ml__pmn_apply_L(&e->M, v);
        /* g_i | e_i, y_i = t_i (e_i / g_i) mod f */
        for (size_t i = 0; i < S && !st && *ok; i++) {
            st = ml__alg_px_divrem(p, &q, &r, &v[i], &e->g[i]);
            if (!st && ml__alg_px_deg(p, &r) >= 0)
                *ok = 0;
            if (!st && *ok)
                st = ml__pmn_mul(p, w, &v[i], &e->t[i], &q);
        }
        if (!st && *ok)
            st = rows_of(e, v, z);
    }
    if (!st && *ok)
        st = chase(e, B, z, x, res);
    int rc = status(ctx, st, "the solve");
    if (!rc && *ok && any(res, S * w))   /* never: M z = -c */
        rc = ml__fail(ctx, ML_M_INTERNAL, "the torus algebra", "the replay left a residual");
    free(z);
    free(res);
    ml__alg_px_vec_free(v, S);
    ml__alg_px_clear(&q);
    ml__alg_px_clear(&r);
    return rc;
}

/* ------------------------------------------------------------------ the board's map */
/* the worked board's flat index of the board's tile (r, c) */
static size_t work_at(const t2_eng *e, size_t r, size_t c)
{
    size_t r1 = e->o.t ? c : r, c1 = e->o.t ? r : c;
    size_t r2 = r1 + e->shift[c1];
    if (r2 >= e->h)
        r2 -= e->h;
    if (e->o.f && r2)
        r2 = e->h - r2;
    return r2 * e->w + c1;
}

/* out (worked) = in (board), to_work; else out (board) = in (worked). In tiles of 64 x
 * 64 of the board: the shear moves each column by its own rows and the transposition
 * swaps the axes, so each tile reads and writes 64 short runs (cache lines). */
static void map_board(const t2_eng *e, const uint8_t *in, uint8_t *out, int to_work)
{
    if (!e->o.t && !e->o.a && !e->o.f) {
        memcpy(out, in, e->rows * e->cols);
        return;
    }
    enum { T = 64 };
    for (size_t r0 = 0; r0 < e->rows; r0 += T)
        for (size_t c0 = 0; c0 < e->cols; c0 += T) {
            size_t r1 = r0 + T < e->rows ? r0 + T : e->rows;
            size_t c1 = c0 + T < e->cols ? c0 + T : e->cols;
            if (e->o.t) {
                for (size_t r = r0; r < r1; r++)
                    for (size_t c = c0; c < c1; c++) {
                        size_t b = r * e->cols + c, k = work_at(e, r, c);
                        if (to_work)
                            out[k] = in[b];
                        else
                            out[b] = in[k];
                    }
                continue;
            }
            /* not transposed: column c is column c, its rows moved by shift[c] (and
             * flipped): the worked row steps by one (or back by one) with r */
            size_t w = e->w, h = e->h;
            for (size_t c = c0; c < c1; c++) {
                size_t rr = work_at(e, r0, c) / w;
                for (size_t r = r0; r < r1; r++) {
                    size_t b = r * w + c, k = rr * w + c;
                    if (to_work)
                        out[k] = in[b];
                    else
                        out[b] = in[k];
                    if (e->o.f)
                        rr = rr ? rr - 1 : h - 1;
                    else
                        rr = rr + 1 < h ? rr + 1 : 0;
                }
            }
        }
}

/* ------------------------------------------------------------------ the questions */
static void t2_destroy(void *user, void *engine)
{
    (void)user;
    t2_eng *e = engine;
    if (!e)
        return;
    ml__alg_px_clear(&e->f);
    ml__alg_px_vec_free(e->g, e->S);
    ml__alg_px_vec_free(e->t, e->S);
    ml__pmn_clear(&e->M);
    free(e->off);
    free(e->shift);
    free(e);
}

static int not_covered(ml_ctx *ctx)
{
    return ml__fail(ctx, ML_M_INTERNAL, "algebraic-torus2",
                    "the board is not covered (the registry's covers)");
}

static int is_prime(int n)
{
    if (n < 2)
        return 0;
    for (int d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

/* the chase's part of e over the modulus q (off, lead, inv, shift): 0, 1 declined (the
 * offsets mod q are not those mod p, or the lead's count is no unit mod q), 2 out of
 * memory */
static int core_init(t2_eng *e, const ml_board *b, unsigned q, unsigned p,
                     const ml__t2_orient *o)
{
    const ml__pattern *pt = &b->pal[0];
    e->p = q;
    e->rows = (size_t)b->rows;
    e->cols = (size_t)b->cols;
    e->o = *o;
    e->h = o->h;
    e->w = o->w;
    e->S = o->span;
    ml__alg_px_init(&e->f);
    e->off = malloc((pt->count + 1) * sizeof *e->off);
    e->shift = malloc(e->w * sizeof *e->shift + 1);
    if (!e->off || !e->shift)
        return 2;
    e->noff = mapped(pt, q, o->t, o->a, o->f, e->w, e->off);
    if (q != p && mapped(pt, p, o->t, o->a, o->f, e->w, e->off) != e->noff)
        return 1;   /* an offset whose count is 0 mod p but not mod q */
    e->noff = mapped(pt, q, o->t, o->a, o->f, e->w, e->off);
    int single = 0;
    e->D = extremes(e->off, e->noff, &e->lead, &single, &e->Dmax);
    if (!single || e->off[e->lead].k % p == 0 || (size_t)(e->Dmax - e->D) != e->S)
        return 1;
    e->inv = ml_inv_mod(e->off[e->lead].k, q);
    long H = (long)e->h;
    for (size_t c = 0; c < e->w; c++)
        e->shift[c] = (size_t)(((o->a * (long)(c % e->h)) % H + H) % H);
    return 0;
}

static int t2_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    if (b->kind != ML_BOARD_GRID || b->mixed || b->locked || b->holes || !b->wrap ||
        !is_prime(b->n) || b->n > 251 || b->rows < 1 || b->cols < 1)
        return not_covered(ctx);
    ml__t2_orient o;
    int found = ml__torus2_orient(b, &o);
    if (found < 0)
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    if (!found)
        return not_covered(ctx);
    t2_eng *e = calloc(1, sizeof *e);
    if (!e)
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    unsigned p = (unsigned)b->n;
    int rc = core_init(e, b, p, p, &o);
    if (rc == 1) {
        t2_destroy(NULL, e);
        return not_covered(ctx);
    }
    e->g = ml__alg_px_vec(e->S);
    e->t = ml__alg_px_vec(e->S);
    uint8_t *fc = calloc(e->w + 1, 1);
    if (!rc)
        rc = e->g && e->t && fc ? 0 : 2;
    if (!rc)
        rc = ml__pmn_init(&e->M, p, e->w, e->S);
    if (!rc) {   /* f = s^w - 1 */
        fc[0] = (uint8_t)(p - 1);
        fc[e->w] = 1;
        rc = ml__alg_px_set(p, &e->f, fc, e->w + 1);
    }
    free(fc);
    if (rc) {
        t2_destroy(NULL, e);
        return ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    }
    *engine = e;
    return ML_OK;
}

/* ------------------------------------------------------------------ the core over Z/q */
int ml__t2_core_new(const ml_board *b, unsigned q, unsigned p, const ml__t2_orient *o,
                    ml__t2_core **core)
{
    *core = NULL;
    t2_eng *e = calloc(1, sizeof *e);
    if (!e)
        return 2;
    int rc = core_init(e, b, q, p, o);
    if (rc) {
        t2_destroy(NULL, e);
        return rc;
    }
    *core = e;
    return 0;
}

void ml__t2_core_free(ml__t2_core *core) { t2_destroy(NULL, core); }

void ml__t2_core_dims(const ml__t2_core *core, size_t *h, size_t *w, size_t *span)
{
    *h = core->h;
    *w = core->w;
    *span = core->S;
}

int ml__t2_core_chase(const ml__t2_core *core, const uint8_t *B, const uint8_t *z,
                      uint8_t *x, uint8_t *res)
{
    return chase(core, B, z, x, res);
}

void ml__t2_core_map(const ml__t2_core *core, const uint8_t *in, uint8_t *out, int to_work)
{
    map_board(core, in, out, to_work);
}

static int t2_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    t2_eng *e = engine;
    int rc = build_system(ctx, e);
    if (!rc)
        *nullity = e->nullity;
    return rc;
}

static int t2_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    t2_eng *e = engine;
    uint64_t null = 0;
    int rc = t2_nullity(user, ctx, e, &null);
    if (rc)
        return rc;
    ml__alg_prime_size(e->p, null, size);
    return ML_OK;
}

static int t2_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                    uint8_t *X, uint8_t *ok)
{
    (void)user;
    t2_eng *e = engine;
    size_t m = e->rows * e->cols;
    if (!k)
        return ML_OK;
    int rc = build_system(ctx, e);
    if (rc)
        return rc;
    ml_fastmod fp = ml_fastmod_make(e->p);
    uint8_t *B = malloc(m + 1), *x = malloc(m + 1);
    if (!B || !x)
        rc = ml__fail(ctx, ML_M_NOMEM, "the algebraic engine");
    for (size_t i = 0; i < k && !rc; i++) {
        map_board(e, R + i * m, B, 1);
        uint8_t top = 0;
        for (size_t j = 0; j < m; j++)
            top = B[j] > top ? B[j] : top;
        for (size_t j = 0; j < m && top >= e->p; j++)
            B[j] = (uint8_t)ml_fastmod_red(fp, B[j]);
        int good = 0;
        rc = solve_work(ctx, e, B, x, &good);
        ok[i] = !rc && good;
        if (rc || !good)
            memset(X + i * m, 0, m);
        else
            map_board(e, x, X + i * m, 0);
    }
    free(B);
    free(x);
    return rc;
}

static int t2_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                         uint8_t *H, uint32_t *orders)
{
    t2_eng *e = engine;
    uint64_t null = 0, hw = (uint64_t)e->h * e->w;
    int rc = t2_nullity(user, ctx, e, &null);
    if (rc)
        return rc;
    uint64_t count = limit < null ? limit : null;
    *k = count;
    if (!H || !count)
        return ML_OK;
    if (hw && count > KERNEL_BYTES_MAX / hw) {   /* _generator_count */
        unsigned __int128 bytes = (unsigned __int128)count * hw;
        return ml__fail(ctx, ML_M_KERNEL_BASIS_TOO_LARGE, (unsigned long long)count,
                        (unsigned long long)hw, (double)bytes / (1024.0 * 1024.0 * 1024.0),
                        (double)KERNEL_BYTES_MAX / (1024.0 * 1024.0));
    }
    unsigned p = e->p;
    size_t S = e->S, w = e->w;
    uint8_t *x = malloc(hw + 1), *z = malloc(S * w + 1), *res = malloc(S * w + 1);
    px *y = ml__alg_px_vec(S);
    px base;
    ml__alg_px_init(&base);
    int st = x && z && res && y ? 0 : 2;
    uint64_t n = 0;
    /* V (f / g_i s^j) in slot i, j < deg g_i */
    for (size_t i = 0; i < S && !st && n < count; i++) {
        long dg = ml__alg_px_deg(p, &e->g[i]);
        st = ml__pm_exact_div(p, &base, &e->f, &e->g[i]);
        for (long j = 0; j < dg && !st && n < count; j++, n++) {
            for (size_t l = 0; l < S && !st; l++)
                st = ml__alg_px_set(p, &y[l], NULL, 0);
            if (!st)
                st = ml__alg_px_shift(p, &y[i], &base, (size_t)j);
            if (!st)
                st = ml__pmn_reduce(p, w, &y[i]);
            if (!st)
                st = rows_of(e, y, z);
            if (!st)
                st = chase(e, NULL, z, x, res);
            if (!st && any(res, S * w))
                st = 5;
            if (!st)
                map_board(e, x, H + n * hw, 0);
            if (!st && orders)
                orders[n] = p;
        }
    }
    ml__alg_px_clear(&base);
    ml__alg_px_vec_free(y, S);
    free(x);
    free(z);
    free(res);
    if (st == 5)
        return ml__fail(ctx, ML_M_INTERNAL, "the torus algebra",
                        "a kernel vector left a residual");
    return status(ctx, st, "the kernel");
}

static int t2_kernel_fits(void *user, ml_ctx *ctx, void *engine, int *fits)
{
    t2_eng *e = engine;
    uint64_t null = 0, hw = (uint64_t)e->h * e->w;
    int rc = t2_nullity(user, ctx, e, &null);
    if (!rc)
        *fits = !null || !hw || null <= KERNEL_BYTES_MAX / hw;
    return rc;
}

const ml_engine_def ml__algebraic_torus2_ops = {
    .size = sizeof(ml_engine_def),
    .name = "algebraic-torus2",
    .build = t2_build,
    .destroy = t2_destroy,
    .solve = t2_solve,
    .nullity = t2_nullity,
    .kernel_size = t2_kernel_size,
    .generators = t2_generators,
    .kernel_fits = t2_kernel_fits,
};
