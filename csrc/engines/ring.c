/* ring.c: a ring part of the tensor engine; see ring.h (the C form of
 * src/modlights/engines/tensor/ring_part.py's _RingPart).
 *
 * For a factor F the chase gives y = L b + S z with (F y)_det = b_det and the residual
 * M z + rho(b); with Phi(y) = ((F y)_det, y_syms) and E b = (b_det, -rho(b)),
 * F = E^-1 diag(I, M) Phi, so R X C^T = B splits for Y = Phi_R X Phi_C^T into
 * Y11 = B'11, Y12 M_C^T = B'12, M_R Y21 = B'21, M_R Y22 M_C^T = B'22, solved through the
 * Smith forms of M_R, M_C; X = Phi_R^-1 Y Phi_C^-T. Everything runs in the factors'
 * chase order and is flipped back at the end. */
#include "engines/ring.h"

#include "include/modlights.h"

#include <stdlib.h>
#include <string.h>

static uint64_t upow(uint64_t b, unsigned x)
{
    uint64_t r = 1;
    while (x--)
        r *= b;
    return r;
}

void ml__ring_free(ml__ring *r)
{
    free(r->gensR);
    free(r->gensC);
    free(r->logsR);
    free(r->logsC);
    free(r->v22);
    memset(r, 0, sizeof *r);
}

int ml__ring_init(ml__ring *r, const ml__band *R, const ml__band *C)
{
    memset(r, 0, sizeof *r);
    r->R = R;
    r->C = C;
    r->p = R->p[0];
    r->e = R->e[0];
    r->q = R->q[0];
    r->sR = R->s;
    r->sC = C->s;
    size_t a = (size_t)r->sR, b = (size_t)r->sC;
    r->gensR = malloc(a * a * sizeof *r->gensR + 1);
    r->gensC = malloc(b * b * sizeof *r->gensC + 1);
    r->logsR = malloc(a * sizeof *r->logsR + 1);
    r->logsC = malloc(b * sizeof *r->logsC + 1);
    r->v22 = malloc(a * b * sizeof *r->v22 + 1);
    if (!r->gensR || !r->gensC || !r->logsR || !r->logsC || !r->v22) {
        ml__ring_free(r);
        return ML_ENOMEM;
    }
    if (a)
        r->gR = ml__smith_generators(&R->sm[0], r->gensR, r->logsR);
    if (b)
        r->gC = ml__smith_generators(&C->sm[0], r->gensC, r->logsC);
    for (size_t i = 0; i < a; i++)
        for (size_t j = 0; j < b; j++) {
            int v = R->sm[0].v[i] + C->sm[0].v[j];
            r->v22[i * b + j] = v < (int)r->e ? v : (int)r->e;
        }
    return 0;
}

uint64_t ml__ring_nullity(const ml__ring *r)
{
    uint64_t k = (uint64_t)(r->R->L - r->sR) * (uint64_t)r->gC +
                 (uint64_t)(r->C->L - r->sC) * (uint64_t)r->gR;
    for (int x = 0; x < r->sR * r->sC; x++)
        k += r->v22[x] > 0;
    return k;
}

uint64_t ml__ring_kernel_log(const ml__ring *r)
{
    uint64_t lr = 0, lc = 0, k = 0;
    for (int g = 0; g < r->gR; g++)
        lr += (uint64_t)r->logsR[g];
    for (int g = 0; g < r->gC; g++)
        lc += (uint64_t)r->logsC[g];
    for (int x = 0; x < r->sR * r->sC; x++)
        k += (uint64_t)r->v22[x];
    return (uint64_t)(r->R->L - r->sR) * lc + (uint64_t)(r->C->L - r->sC) * lr + k;
}

/* out (L) = S v mod q, S of f (L x s), v of s entries scaled by mul */
static void sym_vec(const ml__band *f, const uint64_t *v, size_t vstride, uint64_t mul,
                    unsigned q, uint8_t *out)
{
    for (int64_t x = 0; x < f->L; x++) {
        uint64_t acc = 0;
        for (int j = 0; j < f->s; j++)
            acc = (acc + (uint64_t)f->S[x * f->s + j] * (v[(size_t)j * vstride] % q)) % q;
        out[x] = (uint8_t)(acc * (mul % q) % q);
    }
}

int ml__ring_generators(const ml__ring *r, uint64_t k, uint8_t *H, uint32_t *orders)
{
    const ml__band *R = r->R, *C = r->C;
    size_t h = (size_t)R->L, w = (size_t)C->L, hw = h * w;
    unsigned q = r->q;
    uint8_t *u = malloc(h + 1), *t = malloc(w + 1);
    if (!u || !t) {
        free(u);
        free(t);
        return ML_ENOMEM;
    }
    uint64_t g = 0;
    for (int a = 0; a < r->gC && g < k; a++) {
        sym_vec(C, r->gensC + (size_t)a * (size_t)r->sC, 1, 1, q, t);
        for (size_t x = 0; x < R->ndet && g < k; x++, g++) {
            memcpy(H + g * hw + (size_t)R->det_vars[x] * w, t, w);
            orders[g] = (uint32_t)upow(r->p, (unsigned)r->logsC[a]);
        }
    }
    for (int a = 0; a < r->gR && g < k; a++) {
        sym_vec(R, r->gensR + (size_t)a * (size_t)r->sR, 1, 1, q, u);
        for (size_t x = 0; x < C->ndet && g < k; x++, g++) {
            for (size_t i = 0; i < h; i++)
                H[g * hw + i * w + (size_t)C->det_vars[x]] = u[i];
            orders[g] = (uint32_t)upow(r->p, (unsigned)r->logsR[a]);
        }
    }
    for (int i = 0; i < r->sR && g < k; i++)
        for (int j = 0; j < r->sC && g < k; j++) {
            int v = r->v22[i * r->sC + j];
            if (!v)
                continue;
            sym_vec(R, R->sm[0].V + i, (size_t)r->sR, 1, q, u);
            sym_vec(C, C->sm[0].V + j, (size_t)r->sC, upow(r->p, r->e - (unsigned)v), q, t);
            for (size_t x = 0; x < h; x++)
                for (size_t y = 0; y < w; y++)
                    H[g * hw + x * w + y] = (uint8_t)((unsigned)u[x] * t[y] % q);
            orders[g++] = (uint32_t)upow(r->p, (unsigned)v);
        }
    for (uint64_t a = 0; a < g; a++) {   /* back to natural order on both axes */
        uint8_t *G = H + a * hw;
        if (R->reversed)
            for (size_t x = 0; x < h / 2; x++)
                for (size_t y = 0; y < w; y++) {
                    uint8_t z = G[x * w + y];
                    G[x * w + y] = G[(h - 1 - x) * w + y];
                    G[(h - 1 - x) * w + y] = z;
                }
        if (C->reversed)
            for (size_t x = 0; x < h; x++)
                for (size_t y = 0; y < w / 2; y++) {
                    uint8_t z = G[x * w + y];
                    G[x * w + y] = G[x * w + w - 1 - y];
                    G[x * w + w - 1 - y] = z;
                }
    }
    free(u);
    free(t);
    return 0;
}

/* index of chase row i in natural order */
static size_t nat(const ml__band *f, int64_t i) { return (size_t)(f->reversed ? f->L - 1 - i : i); }

/* _solve22: Y (sR x sC) with M_R Y M_C^T = B22, or 0 when none */
static int solve22(const ml__ring *r, const uint64_t *B22, uint64_t *Y, uint64_t *tmp)
{
    const ml__smith *a = &r->R->sm[0], *b = &r->C->sm[0];
    int sR = r->sR, sC = r->sC;
    unsigned q = r->q;
    /* tmp = U_R B22; Y = tmp U_C^T (Cm) */
    for (int i = 0; i < sR; i++)
        for (int j = 0; j < sC; j++) {
            uint64_t v = 0;
            for (int x = 0; x < sR; x++)
                v = (v + a->U[i * sR + x] * B22[x * sC + j]) % q;
            tmp[i * sC + j] = v;
        }
    for (int i = 0; i < sR; i++)
        for (int j = 0; j < sC; j++) {
            uint64_t v = 0;
            for (int x = 0; x < sC; x++)
                v = (v + tmp[i * sC + x] * b->U[j * sC + x]) % q;
            int e = r->v22[i * sC + j];
            uint64_t pv = upow(r->p, (unsigned)e);
            if (v % pv)
                return 0;
            Y[i * sC + j] = e < (int)r->e ? v / pv : 0;   /* W */
        }
    for (int i = 0; i < sR; i++)   /* tmp = V_R W */
        for (int j = 0; j < sC; j++) {
            uint64_t v = 0;
            for (int x = 0; x < sR; x++)
                v = (v + a->V[i * sR + x] * Y[x * sC + j]) % q;
            tmp[i * sC + j] = v;
        }
    for (int i = 0; i < sR; i++)   /* Y = tmp V_C^T */
        for (int j = 0; j < sC; j++) {
            uint64_t v = 0;
            for (int x = 0; x < sC; x++)
                v = (v + tmp[i * sC + x] * b->V[j * sC + x]) % q;
            Y[i * sC + j] = v;
        }
    return 1;
}

int ml__ring_solve(const ml__ring *r, const uint8_t *B, uint8_t *X, int *ok)
{
    const ml__band *R = r->R, *C = r->C;
    size_t h = (size_t)R->L, w = (size_t)C->L, sR = (size_t)r->sR, sC = (size_t)r->sC;
    size_t dR = R->ndet, dC = C->ndet;
    unsigned q = r->q;
    *ok = 0;
    uint8_t *Yr = malloc((h + sR) * w + 1), *res_r = malloc(sR * w + 1);
    uint8_t *Tt = malloc(w * h + 1), *Yc = malloc((w + sC) * h + 1), *res_t = malloc(sC * h + 1);
    size_t big = (h > w ? h : w) * (sR > sC ? sR : sC) + sR * sC + 1;
    uint8_t *pad = malloc(big), *P = malloc(big + (h + w) * (sR + sC)), *rs = malloc(big);
    uint64_t *M1 = malloc(big * sizeof *M1), *M2 = malloc(big * sizeof *M2);
    uint64_t *Y22 = malloc((sR * sC + 1) * sizeof *Y22), *tmp = malloc((sR * sC + 1) * 8);
    uint8_t *okv = malloc(big);
    int rc = ML_ENOMEM;
    if (!Yr || !res_r || !Tt || !Yc || !res_t || !pad || !P || !rs || !M1 || !M2 || !Y22 ||
        !tmp || !okv)
        goto done;
    if ((rc = ml__band_chase(R, B, (ptrdiff_t)w, w, Yr, res_r)))
        goto done;
    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < w; j++)
            Tt[j * h + i] = Yr[i * w + j];
    if ((rc = ml__band_chase(C, Tt, (ptrdiff_t)h, h, Yc, res_t)))
        goto done;
    rc = 0;
    uint8_t *Y12 = NULL, *Y21 = NULL;
    if (sC) {   /* B'12 = -(R applied to res_t^T) on R's determined rows; M_C y = row */
        for (size_t t = 0; t < dR; t++)
            for (size_t j = 0; j < sC; j++) {
                uint64_t v = 0;
                for (size_t x = 0; x < R->m; x++) {
                    int64_t i = R->det_eqs[t] - R->d[x];
                    if (R->wrap)
                        i = ((i % R->L) + R->L) % R->L;
                    else if (i < 0 || i >= R->L)
                        continue;
                    v += (uint64_t)R->c[x] * res_t[j * h + (size_t)i];
                }
                M1[j * dR + t] = (q - v % q) % q;   /* column t: the right-hand side */
            }
        if (ml__smith_solve(&C->sm[0], M1, (int)dR, M2, okv)) {
            rc = ML_ENOMEM;
            goto done;
        }
        for (size_t t = 0; t < dR; t++)
            if (!okv[t])
                goto done;
        for (size_t t = 0; t < dR; t++)
            for (size_t j = 0; j < sC; j++)
                P[t * sC + j] = (uint8_t)M2[j * dR + t];
        Y12 = P;   /* dR x sC */
    }
    if (sR) {   /* B'21 = -rho_R(B) on C's determined columns; M_R y = column */
        for (size_t i = 0; i < sR; i++)
            for (size_t t = 0; t < dC; t++)
                M1[i * dC + t] = (q - res_r[i * w + nat(C, C->det_eqs[t])]) % q;
        if (ml__smith_solve(&R->sm[0], M1, (int)dC, M2, okv)) {
            rc = ML_ENOMEM;
            goto done;
        }
        for (size_t t = 0; t < dC; t++)
            if (!okv[t])
                goto done;
        Y21 = P + dR * sC;   /* dC x sR */
        for (size_t t = 0; t < dC; t++)
            for (size_t i = 0; i < sR; i++)
                Y21[t * sR + i] = (uint8_t)M2[i * dC + t];
    }
    if (sR && sC) {   /* B'22 = rho_C of the rows rho_R(B) */
        for (size_t c = 0; c < w; c++)
            for (size_t i = 0; i < sR; i++)
                pad[c * sR + i] = res_r[i * w + c];
        uint8_t *Ytmp = malloc((w + sC) * sR + 1);
        rc = !Ytmp ? ML_ENOMEM : ml__band_chase(C, pad, (ptrdiff_t)sR, sR, Ytmp, rs);
        if (rc) {
            free(Ytmp);
            goto done;
        }
        free(Ytmp);
        for (size_t i = 0; i < sR; i++)
            for (size_t j = 0; j < sC; j++)
                M1[i * sC + j] = rs[j * sR + i];
        if (!solve22(r, M1, Y22, tmp))
            goto done;
    }
    if (sC) {   /* U^T += S_C P1^T, P1 = the chase of Y12 on R's determined rows */
        memset(pad, 0, h * sC);
        for (size_t t = 0; t < dR; t++)
            memcpy(pad + nat(R, R->det_eqs[t]) * sC, Y12 + t * sC, sC);
        uint8_t *P1 = malloc((h + sR) * sC + 1), *rr = malloc(sR * sC + 1);
        rc = !P1 || !rr ? ML_ENOMEM : ml__band_chase(R, pad, (ptrdiff_t)sC, sC, P1, rr);
        if (rc) {
            free(P1);
            free(rr);
            goto done;
        }
        for (size_t c = 0; c < w; c++)
            for (size_t i = 0; i < h; i++) {
                uint64_t v = Yc[c * h + i];
                for (size_t j = 0; j < sC; j++)
                    v += (uint64_t)C->S[c * sC + j] * P1[i * sC + j];
                Yc[c * h + i] = (uint8_t)(v % q);
            }
        free(P1);
        free(rr);
    }
    for (size_t c = 0; c < w; c++)
        for (size_t i = 0; i < h; i++)
            Yr[i * w + c] = Yc[c * h + i];
    if (sR) {   /* Yr += S_R Q, Q = (the chase of Y21 on C's determined columns)^T + Y22 S_C^T */
        memset(pad, 0, w * sR);
        for (size_t t = 0; t < dC; t++)
            memcpy(pad + nat(C, C->det_eqs[t]) * sR, Y21 + t * sR, sR);
        uint8_t *Qc = malloc((w + sC) * sR + 1), *rr = malloc(sC * sR + 1);
        rc = !Qc || !rr ? ML_ENOMEM : ml__band_chase(C, pad, (ptrdiff_t)sR, sR, Qc, rr);
        if (rc) {
            free(Qc);
            free(rr);
            goto done;
        }
        for (size_t i = 0; i < sR; i++)
            for (size_t c = 0; c < w; c++) {
                uint64_t v = Qc[c * sR + i];
                for (size_t j = 0; j < sC; j++)
                    v += Y22[i * sC + j] * C->S[c * sC + j];
                M1[i * w + c] = v % q;
            }
        free(Qc);
        free(rr);
        for (size_t x = 0; x < h; x++)
            for (size_t c = 0; c < w; c++) {
                uint64_t v = Yr[x * w + c];
                for (size_t i = 0; i < sR; i++)
                    v += (uint64_t)R->S[x * sR + i] * M1[i * w + c];
                Yr[x * w + c] = (uint8_t)(v % q);
            }
    }
    for (size_t x = 0; x < h; x++)
        for (size_t c = 0; c < w; c++)
            X[x * w + c] = Yr[nat(R, (int64_t)x) * w + nat(C, (int64_t)c)];
    *ok = 1;
done:
    free(Yr);
    free(res_r);
    free(Tt);
    free(Yc);
    free(res_t);
    free(pad);
    free(P);
    free(rs);
    free(M1);
    free(M2);
    free(Y22);
    free(tmp);
    free(okv);
    return rc;
}
