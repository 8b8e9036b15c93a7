/* band.c: one 1-D factor of a product pattern and its chase; see band.h (the C form of
 * src/modlights/engines/tensor/band.py's BandFactor). */
#include "engines/band.h"

#include "base/interrupt.h"
#include "base/modn.h"
#include "include/modlights.h"
#include "structured/band.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t pymod(int64_t a, int64_t m)
{
    int64_t r = a % m;
    return r < 0 ? r + m : r;
}

static unsigned gcdu(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int refuse(char *why, size_t cap, int id, ...)
{
    va_list ap;
    va_start(ap, id);
    vsnprintf(why, cap, ml_msg_template(id), ap);
    va_end(ap);
    return 1;
}

/* "[a, b, c]": Python's repr of the sorted offsets */
static void list_repr(const int64_t *d, size_t m, char *buf, size_t cap)
{
    size_t at = 0;
#define PUT(...)                                                                          \
    at += (size_t)snprintf(buf + (at < cap ? at : cap), at < cap ? cap - at : 0, __VA_ARGS__)
    PUT("[");
    for (size_t i = 0; i < m; i++)
        PUT("%s%lld", i ? ", " : "", (long long)d[i]);
    PUT("]");
#undef PUT
}

static void sort_band(int64_t *d, unsigned *c, size_t k)
{
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && d[j - 1] > d[j]; j--) {
            int64_t t = d[j];
            d[j] = d[j - 1];
            d[j - 1] = t;
            unsigned u = c[j];
            c[j] = c[j - 1];
            c[j - 1] = u;
        }
}

/* _band: the non-zero coefficients mod n, sorted; on a torus reduced mod L and written
 * in the shortest cyclic window nearest offset 0. Returns their count. */
static size_t make_band(const int64_t *din, const int64_t *cin, size_t m, int64_t L,
                        unsigned n, int wrap, int64_t *d, unsigned *c)
{
    size_t k = 0;
    if (!wrap) {
        for (size_t i = 0; i < m; i++)
            if ((din[i] < 0 ? -din[i] : din[i]) < L && pymod(cin[i], n)) {
                d[k] = din[i];
                c[k++] = (unsigned)pymod(cin[i], n);
            }
        sort_band(d, c, k);
        return k;
    }
    for (size_t i = 0; i < m; i++) {
        int64_t key = pymod(din[i], L);
        size_t j = 0;
        while (j < k && d[j] != key)
            j++;
        if (j == k) {
            d[k] = key;
            c[k++] = 0;
        }
        c[j] = (unsigned)((c[j] + pymod(cin[i], n)) % n);
    }
    size_t z = 0;
    for (size_t i = 0; i < k; i++)
        if (c[i]) {
            d[z] = d[i];
            c[z++] = c[i];
        }
    k = z;
    sort_band(d, c, k);
    if (!k)
        return 0;
    int64_t bestg = -1;
    size_t bi = 0;
    for (size_t i = 0; i < k; i++) {   /* max((gap, i)): the last of the largest gaps */
        int64_t g = pymod(d[(i + 1) % k] - d[i], L);
        if (!g)
            g = L;
        if (g >= bestg) {
            bestg = g;
            bi = i;
        }
    }
    int64_t start = d[(bi + 1) % k];
    int64_t shift = start > L / 2 ? -L : 0;
    for (size_t i = 0; i < k; i++)
        d[i] = pymod(d[i] - start, L) + start + shift;
    sort_band(d, c, k);
    return k;
}

void ml__band_free(ml__band *f)
{
    free(f->d);
    free(f->c);
    free(f->det_vars);
    free(f->det_eqs);
    free(f->syms);
    free(f->res_eqs);
    free(f->brow);
    free(f->refs);
    free(f->coefs);
    free(f->lut);
    free(f->S);
    free(f->M);
    free(f->G);
    if (f->s)
        for (int i = 0; i < f->nparts; i++)
            ml__smith_free(&f->sm[i]);
    memset(f, 0, sizeof *f);
}

/* _schedule: which equation determines which value, the symbols, the residual rows and
 * the chase's steps. 0 or ML_ENOMEM. */
static int schedule(ml__band *f)
{
    int64_t L = f->L, dmin = f->dmin, s = f->s;
    if (L < 1 || s > L)
        return ML_EINVAL;
    size_t nd = (size_t)(L - s);
    f->ndet = nd;
    f->det_vars = malloc((nd ? nd : 1) * sizeof(int64_t));
    f->det_eqs = malloc((nd ? nd : 1) * sizeof(int64_t));
    f->syms = malloc((s ? (size_t)s : 1) * sizeof(int64_t));
    f->res_eqs = malloc((s ? (size_t)s : 1) * sizeof(int64_t));
    uint8_t *mark = calloc((size_t)L, 1);
    if (!f->det_vars || !f->det_eqs || !f->syms || !f->res_eqs || !mark) {
        free(mark);
        return ML_ENOMEM;
    }
    if (f->wrap) {
        for (size_t t = 0; t < nd; t++) {
            f->det_vars[t] = s + (int64_t)t;
            f->det_eqs[t] = pymod(f->det_vars[t] + dmin, L);
        }
        for (int64_t j = 0; j < s; j++)
            f->syms[j] = j;
    } else {
        int64_t lo = dmin < 0 ? -dmin : 0;   /* det_vars = lo..hi: L - s of them */
        for (size_t t = 0; t < nd; t++) {
            f->det_vars[t] = lo + (int64_t)t;
            f->det_eqs[t] = f->det_vars[t] + dmin;
            mark[f->det_vars[t]] = 1;
        }
        int64_t j = 0;
        for (int64_t x = 0; x < L; x++)
            if (!mark[x])
                f->syms[j++] = x;
        memset(mark, 0, (size_t)L);
    }
    for (size_t t = 0; t < nd; t++)
        mark[f->det_eqs[t]] = 1;
    int64_t j = 0;
    for (int64_t x = 0; x < L; x++)
        if (!mark[x])
            f->res_eqs[j++] = x;
    free(mark);
    unsigned n = f->n;
    size_t others = f->m - 1, mm = others ? others : 1;
    f->mm = mm;
    f->brow = malloc((nd ? nd : 1) * sizeof(int64_t));
    f->refs = malloc((nd ? nd : 1) * mm * sizeof(int64_t));
    f->coefs = calloc((nd ? nd : 1) * mm, sizeof(uint32_t));
    if (!f->brow || !f->refs || !f->coefs)
        return ML_ENOMEM;
    for (size_t t = 0; t < nd; t++) {
        int64_t e = f->det_eqs[t];
        f->brow[t] = f->reversed ? L - 1 - e : e;
        f->refs[t * mm] = -1;
        for (size_t q = 0; q < others; q++) {
            int64_t r = e - f->d[q + 1];
            if (f->wrap)
                r = pymod(r, L);
            else if (r < 0 || r >= L)
                r = -1;
            f->refs[t * mm + q] = r;
            f->coefs[t * mm + q] = (n - f->c[q + 1]) * f->inv % n;
        }
    }
    uint64_t top = (uint64_t)(n - 1) * (n - 1) * (mm + 1);   /* _mod_table */
    if (n != 2 && top < (1u << 16)) {
        f->lutlen = (size_t)top + 1;
        f->lut = malloc(f->lutlen);
        if (!f->lut)
            return ML_ENOMEM;
        for (size_t v = 0; v < f->lutlen; v++)
            f->lut[v] = (uint8_t)(v % n);
    }
    return 0;
}

/* The chase of B (L x k, natural rows bstride apart; NULL: the zero right-hand side with
 * the symbols set to the identity, k = s): Y ((L + s) x k, chase order) and the
 * residuals res (s x k, (F y - b) on the residual equations, mod n). 0 or ML_ENOMEM. */
int ml__band_chase(const ml__band *f, const uint8_t *B, ptrdiff_t bstride, size_t k, uint8_t *Y,
                   uint8_t *res)
{
    int64_t L = f->L;
    unsigned n = f->n;
    uint32_t *acc = malloc((k ? k : 1) * sizeof *acc);
    uint8_t *zero = B ? NULL : calloc(k ? k : 1, 1);
    if (!acc || (!B && !zero)) {
        free(acc);
        free(zero);
        return ML_ENOMEM;
    }
    for (int j = 0; j < f->s; j++) {
        memset(Y + f->syms[j] * (ptrdiff_t)k, 0, k);
        if (!B)
            Y[f->syms[j] * (ptrdiff_t)k + j] = 1;
    }
    /* in chunks of about 2^24 entries, a stop polled between two (band.py's chunks) */
    size_t chunk = ((size_t)1 << 24) / (k ? k : 1);
    if (!chunk)
        chunk = 1;
    for (size_t t0 = 0; k && t0 < f->ndet; t0 += chunk) {
        size_t steps = f->ndet - t0 < chunk ? f->ndet - t0 : chunk;
        if (ml_interrupt_poll()) {
            free(acc);
            free(zero);
            return ML_EINTERRUPTED;
        }
        ml_band_chase(B ? B : zero, B ? bstride : 0, Y, (ptrdiff_t)k, k, f->brow + t0,
                      f->det_vars + t0, f->refs + t0 * f->mm, f->coefs + t0 * f->mm, f->mm,
                      steps, n, f->inv, acc, f->lut, f->lutlen);
    }
    for (int t = 0; t < f->s; t++) {
        int64_t i = f->res_eqs[t];
        const uint8_t *b = B ? B + (f->reversed ? L - 1 - i : i) * bstride : zero;
        for (size_t x = 0; x < k; x++)
            acc[x] = (n - b[x]) % n;
        for (size_t q = 0; q < f->m; q++) {
            int64_t j = i - f->d[q];
            if (f->wrap)
                j = pymod(j, L);
            else if (j < 0 || j >= L)
                continue;
            const uint8_t *y = Y + j * (ptrdiff_t)k;
            for (size_t x = 0; x < k; x++)
                acc[x] = (acc[x] + f->c[q] * y[x]) % n;
        }
        for (size_t x = 0; x < k; x++)
            res[(size_t)t * k + x] = (uint8_t)acc[x];
    }
    free(acc);
    free(zero);
    return 0;
}

/* M's Smith forms, the ring flag, G and the nullity. 0, 1 (refused), ML_ENOMEM. */
static int residual(ml__band *f, char *why, size_t cap)
{
    int s = f->s;
    unsigned n = f->n;
    f->nparts = ml_prime_powers(n, f->q, f->p, f->e, f->idem);
    if (!s)
        return 0;
    int singular = 0;
    for (int i = 0; i < f->nparts; i++) {
        int rc = ml__smith_init(&f->sm[i], f->M, s, s, f->p[i], (int)f->e[i]);
        if (rc) {
            for (int j = 0; j < i; j++)
                ml__smith_free(&f->sm[j]);
            f->nparts = 0;
            return ML_ENOMEM;
        }
        int gens = 0;
        for (int j = 0; j < s; j++)
            gens += f->sm[i].v[j] > 0;
        if (gens > f->nullity)
            f->nullity = gens;
        singular |= gens > 0;
    }
    int prime = f->nparts == 1 && f->e[0] == 1;
    f->ring = !prime && singular;
    if (f->ring) {
        if (f->nparts > 1) {
            char list[512];
            list_repr(f->d, f->m, list, sizeof list);
            return refuse(why, cap, ML_R_TENSOR_SINGULAR, list, (long long)f->L, (int)n);
        }
        return 0;
    }
    f->G = calloc((size_t)s * s, sizeof *f->G);
    uint64_t *g = malloc((size_t)s * s * sizeof *g);
    if (!f->G || !g) {
        free(g);
        return ML_ENOMEM;
    }
    for (int i = 0; i < f->nparts; i++) {
        ml__smith_pseudo_inverse(&f->sm[i], g);   /* exists: a prime, or M invertible */
        for (int x = 0; x < s * s; x++)
            f->G[x] = (f->G[x] + g[x] % f->q[i] * f->idem[i]) % n;
    }
    free(g);
    return 0;
}

int ml__band_init(ml__band *f, const int64_t *din, const int64_t *cin, size_t m, int64_t L,
                  unsigned n, int wrap, char *why, size_t cap)
{
    memset(f, 0, sizeof *f);
    if (L < 1 || n < 2 || n > 255)
        return ML_EINVAL;
    f->L = L;
    f->n = n;
    f->wrap = wrap;
    f->d = malloc((m ? m : 1) * sizeof *f->d);
    f->c = malloc((m ? m : 1) * sizeof *f->c);
    if (!f->d || !f->c) {
        ml__band_free(f);
        return ML_ENOMEM;
    }
    size_t k = f->m = make_band(din, cin, m, L, n, wrap, f->d, f->c);
    int rc = 0;
    if (!k) {
        rc = refuse(why, cap, ML_R_TENSOR_ZERO, (int)n);
        goto out;
    }
    f->reversed = gcdu(f->c[0], n) != 1;
    if (f->reversed) {
        if (gcdu(f->c[k - 1], n) != 1) {
            char list[512];
            list_repr(f->d, k, list, sizeof list);
            rc = refuse(why, cap, ML_R_TENSOR_NO_UNIT_END, list, (int)n);
            goto out;
        }
        for (size_t i = 0; i < k / 2; i++) {
            int64_t t = f->d[i];
            f->d[i] = f->d[k - 1 - i];
            f->d[k - 1 - i] = t;
            unsigned u = f->c[i];
            f->c[i] = f->c[k - 1 - i];
            f->c[k - 1 - i] = u;
        }
        for (size_t i = 0; i < k; i++)
            f->d[i] = -f->d[i];
    }
    f->dmin = f->d[0];
    f->dmax = f->d[k - 1];
    int64_t s = wrap ? f->dmax - f->dmin : (f->dmin < 0 ? -f->dmin : f->dmin);
    if (s > L)
        s = L;
    if (s > ML_BAND_MAX_SYMBOLS) {
        rc = refuse(why, cap, ML_R_TENSOR_SYMBOLS, (long long)f->dmin, (long long)f->dmax,
                    (long long)s, (long long)L, ML_BAND_MAX_SYMBOLS);
        goto out;
    }
    f->s = (int)s;
    f->inv = ml_inv_mod(f->c[0], n);
    f->identity = k == 1 && f->d[0] == 0 && f->c[0] == 1 && !f->reversed;
    if ((rc = schedule(f)))
        goto out;
    /* S and M from one chase of the zero right-hand side, the symbols the identity */
    size_t ss = (size_t)s;
    uint8_t *Y = malloc(((size_t)L + ss) * (ss ? ss : 1));
    uint8_t *res = malloc(ss * ss + 1);
    f->S = malloc((size_t)L * ss + 1);
    f->M = malloc((ss * ss + 1) * sizeof *f->M);
    rc = !Y || !res || !f->S || !f->M ? ML_ENOMEM : ml__band_chase(f, NULL, 0, ss, Y, res);
    if (rc) {
        free(Y);
        free(res);
        goto out;
    }
    memcpy(f->S, Y, (size_t)L * ss);
    for (size_t x = 0; x < ss * ss; x++)
        f->M[x] = res[x];
    free(Y);
    free(res);
    rc = residual(f, why, cap);
out:
    if (rc)
        ml__band_free(f);
    return rc;
}

/* ml__band_apply_ginv into Yout; work: NULL, or the caller's (L + s) x k buffer to
 * chase in (Yout itself when it has that room and the factor is not reversed: no copy) */
static int apply_ginv(const ml__band *f, const uint8_t *B, ptrdiff_t bstride, size_t k,
                      uint8_t *Yout, ptrdiff_t ystride, uint8_t *work, uint8_t *ok, int *all_ok)
{
    int64_t L = f->L;
    int s = f->s;
    unsigned n = f->n;
    if (f->ring)
        return ML_EINVAL;
    *all_ok = 1;
    if (ok)
        memset(ok, 1, k);
    if (f->identity) {
        for (int64_t i = 0; i < L; i++)
            memcpy(Yout + i * ystride, B + i * bstride, k);
        return 0;
    }
    size_t kk = k ? k : 1;
    uint8_t *Y = work ? work : malloc(((size_t)L + (size_t)s) * kk);
    uint8_t *res = malloc((size_t)s * kk + 1);
    uint32_t *z = malloc(((size_t)s + 1) * sizeof *z);
    uint32_t *rhs = malloc(((size_t)s + 1) * sizeof *rhs);
    uint8_t *Z = malloc((size_t)s * kk + 1);          /* s x k: the symbols' values */
    uint32_t *acc = malloc(kk * sizeof *acc);
    int rc = !Y || !res || !z || !rhs || !Z || !acc ? ML_ENOMEM
                                                   : ml__band_chase(f, B, bstride, k, Y, res);
    if (rc) {
        if (Y != work)
            free(Y);
        free(res);
        free(z);
        free(rhs);
        free(Z);
        free(acc);
        return rc;
    }
    /* per column: M z = -q(b), z = G rhs, checked */
    for (size_t x = 0; s && x < k; x++) {
        for (int t = 0; t < s; t++)
            rhs[t] = (n - res[(size_t)t * k + x]) % n;
        for (int a = 0; a < s; a++) {
            uint64_t v = 0;
            for (int b = 0; b < s; b++)
                v += f->G[a * s + b] * rhs[b];
            z[a] = (uint32_t)(v % n);
            Z[(size_t)a * k + x] = (uint8_t)z[a];
        }
        int good = 1;
        for (int a = 0; a < s && good; a++) {
            uint64_t v = 0;
            for (int b = 0; b < s; b++)
                v += f->M[a * s + b] * z[b];
            good = v % n == rhs[a];
        }
        if (!good) {
            *all_ok = 0;
            if (ok)
                ok[x] = 0;
        }
    }
    /* Y[:L] += S Z, a row at a time (rows of S that are zero skipped) */
    ml_fastmod fn = ml_fastmod_make(n);
    for (int64_t i = 0; s && i < L; i++) {
        const uint8_t *srow = f->S + i * s;
        uint8_t *y = Y + i * (ptrdiff_t)k;
        if (n == 2) {   /* GF(2): the odd entries of S, XORs of whole rows */
            for (int b = 0; b < s; b++)
                if (srow[b] & 1) {
                    const uint8_t *zr = Z + (size_t)b * k;
                    for (size_t x = 0; x < k; x++)
                        y[x] ^= zr[x];
                }
            continue;
        }
        int any = 0;
        for (int b = 0; b < s; b++) {
            if (!srow[b])
                continue;
            if (!any)
                for (size_t x = 0; x < k; x++)
                    acc[x] = y[x];
            any = 1;
            const uint8_t *zr = Z + (size_t)b * k;
            for (size_t x = 0; x < k; x++)
                acc[x] += srow[b] * (uint32_t)zr[x];
        }
        if (any)   /* acc < 255 + s * 255^2 < 2^24 */
            for (size_t x = 0; x < k; x++)
                y[x] = (uint8_t)ml_fastmod_red(fn, acc[x]);
    }
    free(Z);
    free(acc);
    if (Y != Yout)
        for (int64_t i = 0; i < L; i++)
            memcpy(Yout + i * ystride, Y + (f->reversed ? L - 1 - i : i) * (ptrdiff_t)k, k);
    if (Y != work)
        free(Y);
    free(res);
    free(z);
    free(rhs);
    return 0;
}

int ml__band_apply_ginv(const ml__band *f, const uint8_t *B, ptrdiff_t bstride, size_t k,
                        uint8_t *Yout, ptrdiff_t ystride, uint8_t *ok, int *all_ok)
{
    return apply_ginv(f, B, bstride, k, Yout, ystride, NULL, ok, all_ok);
}

int ml__band_apply_ginv_in(const ml__band *f, const uint8_t *B, ptrdiff_t bstride, size_t k,
                           uint8_t *Y, uint8_t *ok, int *all_ok)
{
    return apply_ginv(f, B, bstride, k, Y, (ptrdiff_t)k, f->reversed ? NULL : Y, ok, all_ok);
}

int ml__band_kernel_basis(const ml__band *f, uint8_t *U, int64_t *pos)
{
    int s = f->s, k = f->nullity;
    unsigned p = f->n;
    int64_t L = f->L;
    if (!k)
        return 0;
    uint64_t *H = malloc((size_t)s * s * sizeof *H);
    int *logs = malloc((size_t)s * sizeof *logs);
    int *piv = malloc((size_t)s * sizeof *piv);
    if (!H || !logs || !piv) {
        free(H);
        free(logs);
        free(piv);
        return ML_ENOMEM;
    }
    int g = ml__smith_generators(&f->sm[0], H, logs);
    /* _rref_mod_p (rows independent) */
    int r = 0;
    for (int c = 0; c < s && r < g; c++) {
        int i = r;
        while (i < g && H[i * s + c] % p == 0)
            i++;
        if (i == g)
            continue;
        for (int x = 0; x < s; x++) {
            uint64_t t = H[r * s + x] % p;
            H[r * s + x] = H[i * s + x] % p;
            H[i * s + x] = t;
        }
        uint64_t iv = ml_inv_mod((unsigned)H[r * s + c], p);
        for (int x = 0; x < s; x++)
            H[r * s + x] = H[r * s + x] * iv % p;
        for (int y = 0; y < g; y++) {
            uint64_t t = H[y * s + c] % p;
            if (y == r || !t)
                continue;
            for (int x = 0; x < s; x++)
                H[y * s + x] = (H[y * s + x] % p + (p - t) * H[r * s + x]) % p;
        }
        piv[r++] = c;
    }
    for (int a = 0; a < k; a++) {
        for (int64_t x = 0; x < L; x++) {
            uint32_t v = 0;
            for (int j = 0; j < s; j++)
                v = (v + (uint32_t)(H[a * s + j] % p) * f->S[x * s + j]) % p;
            U[(size_t)a * (size_t)L + (size_t)(f->reversed ? L - 1 - x : x)] = (uint8_t)v;
        }
        int64_t ps = f->syms[piv[a]];
        pos[a] = f->reversed ? L - 1 - ps : ps;
    }
    free(H);
    free(logs);
    free(piv);
    return 0;
}

static int perm_sign2(const int64_t *a, size_t na, const int64_t *b, size_t nb, uint8_t *seen)
{
    size_t len = na + nb;
    memset(seen, 0, len);
    int sign = 1;
#define AT(i) ((i) < na ? a[i] : b[(i) - na])
    for (size_t i = 0; i < len; i++) {
        if (seen[i])
            continue;
        size_t j = i, cyc = 0;
        while (!seen[j]) {
            seen[j] = 1;
            j = (size_t)AT(j);
            cyc++;
        }
        if (cyc % 2 == 0)
            sign = -sign;
    }
#undef AT
    return sign;
}

static unsigned powmod(unsigned b, int64_t e, unsigned n)
{
    uint64_t r = 1 % n, x = b % n;
    while (e > 0) {
        if (e & 1)
            r = r * x % n;
        x = x * x % n;
        e >>= 1;
    }
    return (unsigned)r;
}

int ml__band_det(const ml__band *f, unsigned *out)
{
    unsigned n = f->n;
    *out = 0;
    if (f->nullity && !f->ring)
        return 0;
    *out = 1;
    if (f->identity)
        return 0;
    uint64_t dm = 0;
    if (f->s) {
        for (int i = 0; i < f->nparts; i++) {
            uint64_t di = 0;
            ml__smith_det(&f->sm[i], &di);
            dm = (dm + di % f->q[i] * f->idem[i]) % n;
        }
    } else {
        dm = 1 % n;
    }
    uint8_t *seen = malloc((size_t)f->L);
    if (!seen)
        return ML_ENOMEM;
    int sign = perm_sign2(f->det_eqs, f->ndet, f->res_eqs, (size_t)f->s, seen) *
               perm_sign2(f->det_vars, f->ndet, f->syms, (size_t)f->s, seen);
    free(seen);
    unsigned d = (unsigned)((uint64_t)powmod(f->c[0], f->L - f->s, n) * dm % n);
    *out = sign > 0 ? d : (n - d) % n;
    return 0;
}

/* n = 2, bytes holding 8 columns each (BandFactor.apply_ginv_packed; over GF(2) the
 * factor is never reversed): the chase is row XORs, the residuals, z = G q(b) and S z
 * too. */
/* dst ^= src over k bytes (8 bytes a step through memcpy, which compilers turn into word
 * and vector loads: the packed rows' XOR). */
static void xor_row(uint8_t *restrict dst, const uint8_t *restrict src, size_t k)
{
    size_t x = 0;
    for (; x + 8 <= k; x += 8) {
        uint64_t a, b;
        memcpy(&a, dst + x, 8);
        memcpy(&b, src + x, 8);
        a ^= b;
        memcpy(dst + x, &a, 8);
    }
    for (; x < k; x++)
        dst[x] ^= src[x];
}

int ml__band_apply_ginv_packed(const ml__band *f, const uint8_t *B, size_t k, size_t cols,
                               uint8_t *Y, int *all_ok)
{
    int64_t L = f->L;
    int s = f->s;
    *all_ok = 1;
    if (f->n != 2 || f->reversed)
        return ML_EINVAL;
    if (f->identity) {
        memcpy(Y, B, (size_t)L * k);
        return 0;
    }
    size_t kk = k ? k : 1;
    uint8_t *res = calloc((size_t)s * kk + 1, 1), *Z = calloc((size_t)s * kk + 1, 1);
    uint8_t *bad = malloc(kk);
    uint32_t acc = 0;
    int rc = !res || !Z || !bad ? ML_ENOMEM : 0;
    for (int j = 0; !rc && j < s; j++)
        memset(Y + f->syms[j] * (ptrdiff_t)k, 0, k);
    size_t chunk = ((size_t)1 << 24) / kk;
    if (!chunk)
        chunk = 1;
    for (size_t t0 = 0; !rc && t0 < f->ndet; t0 += chunk) {
        size_t steps = f->ndet - t0 < chunk ? f->ndet - t0 : chunk;
        if (ml_interrupt_poll()) {
            rc = ML_EINTERRUPTED;
            break;
        }
        ml_band_chase(B, (ptrdiff_t)k, Y, (ptrdiff_t)k, k, f->brow + t0, f->det_vars + t0,
                      f->refs + t0 * f->mm, f->coefs + t0 * f->mm, f->mm, steps, 2, 1, &acc,
                      NULL, 0);
    }
    for (int t = 0; !rc && t < s; t++) {   /* q(b): b XOR the odd references */
        int64_t i = f->res_eqs[t];
        uint8_t *r = res + (size_t)t * k;
        memcpy(r, B + i * (ptrdiff_t)k, k);
        for (size_t q = 0; q < f->m; q++) {
            int64_t j = i - f->d[q];
            if (f->wrap)
                j = pymod(j, L);
            else if (j < 0 || j >= L)
                continue;
            if (f->c[q] & 1)
                xor_row(r, Y + j * (ptrdiff_t)k, k);
        }
    }
    if (!rc && s) {
        for (int a = 0; a < s; a++)   /* z = G q(b) (signs vanish) */
            for (int b = 0; b < s; b++)
                if (f->G[a * s + b] & 1)
                    xor_row(Z + (size_t)a * k, res + (size_t)b * k, k);
        size_t nbytes = (cols + 7) / 8;
        for (int a = 0; a < s && *all_ok; a++) {   /* M z = q(b) on the first cols bits */
            memcpy(bad, res + (size_t)a * k, k);
            for (int b = 0; b < s; b++)
                if (f->M[a * s + b] & 1)
                    xor_row(bad, Z + (size_t)b * k, k);
            if (cols % 8 && nbytes)
                bad[nbytes - 1] &= (uint8_t)(0xFF << (8 - cols % 8));
            for (size_t x = 0; x < nbytes && x < k; x++)
                if (bad[x])
                    *all_ok = 0;
        }
        for (int64_t i = 0; i < L; i++)   /* Y += S z */
            for (int b = 0; b < s; b++)
                if (f->S[i * s + b] & 1)
                    xor_row(Y + i * (ptrdiff_t)k, Z + (size_t)b * k, k);
    }
    free(res);
    free(Z);
    free(bad);
    return rc;
}
