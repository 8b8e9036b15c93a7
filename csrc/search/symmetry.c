/* symmetry.c: board symmetries (search/symmetry.h), search/symmetry.py in C. */
#include "search/symmetry.h"
#include "api/ctx.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t key;   /* cell * n_taps + tap */
    unsigned val;   /* the count mod n */
} entry;

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = ((const entry *)a)->key, y = ((const entry *)b)->key;
    return x < y ? -1 : x > y;
}

/* Sort e (m of them), merge equal keys (counts summed mod n), drop zeros: the count left. */
static size_t normalise(entry *e, size_t m, unsigned n)
{
    if (!m)
        return 0;
    qsort(e, m, sizeof *e, cmp_key);
    size_t k = 0;
    for (size_t i = 0; i < m;) {
        uint64_t key = e[i].key;
        unsigned v = 0;
        for (; i < m && e[i].key == key; i++)
            v = (v + e[i].val) % n;
        if (v)
            e[k++] = (entry){key, v};
    }
    return k;
}

/* The candidate map number t: (r, c) -> (r', c') (symmetry.py's _candidates order). */
typedef struct {
    int64_t rows, cols;
    int f;            /* dihedral index 1..7 (0 the identity, only with a shift) */
    int64_t a, b;     /* the translation (tori) */
} cand;

static void dihedral(int f, int64_t R, int64_t C, int64_t r, int64_t c, int64_t *r2, int64_t *c2)
{
    switch (f) {
    case 0: *r2 = r; *c2 = c; break;
    case 1: *r2 = R - r; *c2 = C - c; break;
    case 2: *r2 = R - r; *c2 = c; break;
    case 3: *r2 = r; *c2 = C - c; break;
    case 4: *r2 = c; *c2 = r; break;
    case 5: *r2 = C - c; *c2 = R - r; break;
    case 6: *r2 = c; *c2 = R - r; break;
    default: *r2 = C - c; *c2 = r; break;
    }
}

static void map(const cand *m, int wrap, int64_t r, int64_t c, int64_t *r2, int64_t *c2)
{
    dihedral(m->f, m->rows - 1, m->cols - 1, r, c, r2, c2);
    if (wrap) {
        *r2 = (*r2 + m->a) % m->rows;
        *c2 = (*c2 + m->b) % m->cols;
    }
}

void ml_syms_free(ml_syms *s)
{
    if (!s)
        return;
    free(s->cells);
    free(s->taps);
    memset(s, 0, sizeof *s);
}

/* The permutation of the k positions pos (flat) under m as indices (through index, -1
 * for none), or 0 when one leaves them. */
static int perm(const cand *m, int wrap, const int64_t *pos, uint64_t k, const int64_t *index,
                uint64_t *out)
{
    for (uint64_t i = 0; i < k; i++) {
        int64_t r2, c2;
        map(m, wrap, pos[i] / m->cols, pos[i] % m->cols, &r2, &c2);
        if (r2 < 0 || r2 >= m->rows || c2 < 0 || c2 >= m->cols)
            return 0;
        int64_t p = index[r2 * m->cols + c2];
        if (p < 0)
            return 0;
        out[i] = (uint64_t)p;
    }
    return 1;
}

int ml_symmetries(ml_ctx *ctx, const ml_board *b, const uint8_t *rhs, ml_syms *out)
{
    memset(out, 0, sizeof *out);
    uint64_t nc = ml_board_n_cells(b), nt = ml_board_n_taps(b);
    if (ml_board_kind(b) != ML_BOARD_GRID || nc == 0)
        return ML_OK;
    unsigned n = (unsigned)ml_board_states(b);
    int64_t rows = ml_board_rows(b), cols = ml_board_cols(b), wrap = ml_board_wrap(b);
    size_t tiles = (size_t)(rows * cols), m = 0, cap = 0;
    int64_t *cpos = malloc(nc * sizeof *cpos), *tpos = malloc((nt + 1) * sizeof *tpos);
    int64_t *cidx = malloc(tiles * sizeof *cidx), *tidx = malloc(tiles * sizeof *tidx);
    int64_t *eff = NULL;
    entry *A = NULL, *B = NULL;
    uint64_t *pc = malloc(nc * sizeof *pc), *pt = malloc((nt + 1) * sizeof *pt);
    cand *cands = malloc((ML_SYM_MAX + 16) * sizeof *cands);
    int rc = cpos && tpos && cidx && tidx && pc && pt && cands ? ML_OK
                                                               : ml__fail(ctx, ML_M_NOMEM, "the symmetries");
    for (size_t i = 0; !rc && i < tiles; i++)
        cidx[i] = tidx[i] = -1;
    for (uint64_t i = 0; !rc && i < nc; i++) {
        int64_t r, c;
        rc = ml_board_cell_position(ctx, b, i, &r, &c);
        cpos[i] = r * cols + c;
        if (!rc)
            cidx[cpos[i]] = (int64_t)i;
    }
    for (uint64_t j = 0; !rc && j < nt; j++) {
        int64_t r, c;
        rc = ml_board_tap_position(ctx, b, j, &r, &c);
        tpos[j] = r * cols + c;
        if (!rc)
            tidx[tpos[j]] = (int64_t)j;
    }
    /* A's entries: each tap's effect (with repeats) */
    for (uint64_t j = 0; !rc && j < nt; j++) {
        size_t cnt = 0;
        rc = ml_board_effect(ctx, b, j, &cnt, NULL, 0);
        if (rc)
            break;
        if (m + cnt > cap) {
            cap = 2 * (m + cnt) + 16;
            entry *g = realloc(A, cap * sizeof *A);
            int64_t *h = realloc(eff, cap * sizeof *eff);
            if (g)
                A = g;
            if (h)
                eff = h;
            if (!g || !h) {
                rc = ml__fail(ctx, ML_M_NOMEM, "the symmetries");
                break;
            }
        }
        rc = ml_board_effect(ctx, b, j, &cnt, eff, cnt);
        for (size_t q = 0; !rc && q < cnt; q++)
            A[m + q] = (entry){(uint64_t)eff[q] * nt + j, 1};
        m += cnt;
    }
    size_t am = rc ? 0 : normalise(A, m, n);
    if (!rc && m && !(B = malloc(m * sizeof *B)))
        rc = ml__fail(ctx, ML_M_NOMEM, "the symmetries");
    /* the candidates, Python's order */
    size_t nk = 0;
    int nd = rows == cols ? 8 : 4;
    if (!rc && !wrap) {
        for (int f = 1; f < nd; f++)
            cands[nk++] = (cand){rows, cols, f, 0, 0};
    } else if (!rc) {
        int all = (uint64_t)rows * (uint64_t)cols * (uint64_t)nd <= ML_SYM_MAX + 1;
        int64_t as[2] = {0, rows / 2}, bs[2] = {0, cols / 2};
        int64_t na = all ? rows : (rows / 2 ? 2 : 1), nb = all ? cols : (cols / 2 ? 2 : 1);
        for (int64_t ia = 0; ia < na && nk < ML_SYM_MAX; ia++)
            for (int64_t ib = 0; ib < nb && nk < ML_SYM_MAX; ib++)
                for (int f = 0; f < nd && nk < ML_SYM_MAX; f++) {
                    int64_t a = all ? ia : as[ia], bb = all ? ib : bs[ib];
                    if (!a && !bb && !f)
                        continue;
                    cands[nk++] = (cand){rows, cols, f, a, bb};
                }
    }
    out->cells = malloc((nk + 1) * nc * sizeof *out->cells);
    out->taps = malloc((nk + 1) * (nt + 1) * sizeof *out->taps);
    if (!rc && (!out->cells || !out->taps))
        rc = ml__fail(ctx, ML_M_NOMEM, "the symmetries");
    for (size_t t = 0; !rc && t < nk; t++) {
        if (!perm(&cands[t], (int)wrap, cpos, nc, cidx, pc)
            || !perm(&cands[t], (int)wrap, tpos, nt, tidx, pt))
            continue;
        int keep = 1;
        for (uint64_t i = 0; rhs && keep && i < nc; i++)
            keep = rhs[pc[i]] % n == rhs[i] % n;
        if (!keep)
            continue;
        for (size_t q = 0; q < am; q++)
            B[q] = (entry){pc[A[q].key / nt] * nt + pt[A[q].key % nt], A[q].val};
        size_t bm = normalise(B, am, n);
        if (bm != am)
            continue;
        for (size_t q = 0; keep && q < am; q++)
            keep = B[q].key == A[q].key && B[q].val == A[q].val;
        if (!keep)
            continue;
        memcpy(out->cells + out->k * nc, pc, nc * sizeof *pc);
        if (nt)
            memcpy(out->taps + out->k * nt, pt, nt * sizeof *pt);
        out->k++;
    }
    if (rc)
        ml_syms_free(out);
    free(cpos);
    free(tpos);
    free(cidx);
    free(tidx);
    free(eff);
    free(A);
    free(B);
    free(pc);
    free(pt);
    free(cands);
    return rc;
}
