/* dense.c: the dense engines' questions (engines/dense.h), over dense/gf2.c (n = 2) and
 * dense/zn.c (n >= 3, one factorisation per prime power of n, combined by CRT).
 *
 * dense-gf2 is Gf2Engine (native/_gf2.pxi): A packed from the board's effects (m x r
 * bits) at build and kept (MAX_FACTOR_BITS: [A | I] at most 2^34 bits, checked before
 * anything is allocated, with _check_factor_size's message); factored T A = E on first
 * need. The first two solves of fewer than 64 right-hand sides eliminate [A | B^T]
 * directly (giving the rank too), later ones use dot products with T, batches of 64 or
 * more the solve matrix S; rank and det need one forward elimination when nothing gave
 * the rank yet; a kernel basis of r - rank rows of order 2, the inverse and a
 * generalised inverse from the factorisation. The answers are Gf2Engine's, call for
 * call.
 *
 * dense-zn is ZnEngine (native/_zn.pxi): at most MAX_ENTRIES = 2^28 entries (its
 * message); for each q = p^e || n a ml_zn_lu filled from the board's effects (or its
 * dense matrix) and factored; answers combined with the idempotents
 * idem_q = (n/q) * ((n/q)^-1 mod q) mod n, generators row by row (a part with fewer
 * generators adds zero rows of order 1), exactly as ZnEngine.generators does, so the
 * same rows and orders come out.
 *
 * Every allocation is checked (ML_ENOMEM "out of memory in <what>"); the factorisations
 * poll for stops (the caller's scope turns their failure into ML_EINTERRUPTED). */
#include "engines/dense.h"

#include "api/board.h"
#include "api/ctx.h"
#include "api/registry_impl.h"
#include "base/interrupt.h"
#include "dense/gf2.h"
#include "dense/gf2_batch.h"
#include "dense/zn.h"

#include <stdlib.h>
#include <string.h>

/* _gf2.pxi's MAX_FACTOR_BITS, _zn.pxi's MAX_ENTRIES */
#define GF2_MAX_FACTOR_BITS ((uint64_t)1 << 34)
#define GF2_MAX_DIM ((uint64_t)1 << 28)
#define ZN_MAX_ENTRIES ((uint64_t)1 << 28)
#define GIB (1024.0 * 1024.0 * 1024.0)

static int nomem(ml_ctx *ctx, const char *what) { return ml__fail(ctx, ML_M_NOMEM, what); }

/* The dense/ loops that poll the stop flag break off and hand back a partial result
 * (an echelon form's rank so far, a product's garbage): every such result is checked
 * with this before it is used or kept. */
static int stopped(ml_ctx *ctx)
{
    return ml_interrupt_stopped() ? ml__fail(ctx, ML_M_INTERRUPTED) : ML_OK;
}

/* _gf2.pxi's _check_shape: m and r in 0..MAX_DIM (a giant board's 2^32 cells are not),
 * so that the size checks after it multiply without overflow. */
static int gf2_check_shape(ml_ctx *ctx, uint64_t m, uint64_t r)
{
    if (m > GF2_MAX_DIM)
        return ml__fail(ctx, ML_M_INT_RANGE, "m", 0LL, (long long)GF2_MAX_DIM, (long long)m);
    if (r > GF2_MAX_DIM)
        return ml__fail(ctx, ML_M_INT_RANGE, "r", 0LL, (long long)GF2_MAX_DIM, (long long)r);
    return ML_OK;
}

static void factored_of(ml_factored *f, const uint32_t *p, const uint64_t *e, int count)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < count; i++)
        if (e[i]) {
            f->prime[f->count] = p[i];
            f->exp[f->count] = e[i];
            f->count++;
        }
}

/* ================================================================== GF(2) */
typedef struct gf2_eng {
    size_t m, r;
    ml_gf2_t *A;        /* the packed A, kept (m x r bits, a third of F's size) */
    ml_gf2_fact_t *F;   /* T A = E, made on first need */
    ml_gf2_t *S, *St;   /* the solve matrix [G^T | L^T] and S^T, for batches */
    int64_t rank;       /* rank(A) once known, -1 before */
    int direct;         /* direct solves done */
} gf2_eng;

/* Gf2Engine.DIRECT_SOLVES: solves of fewer than 64 right-hand sides answered by one
 * elimination of [A | B^T] (no transform carried: a fraction of factoring) before the
 * engine factors A; each also gives the rank. */
#define GF2_DIRECT_SOLVES 2

static void flip_effect(void *arg, uint64_t cell, unsigned times)
{
    void **a = arg;
    if (times & 1u)
        ml_gf2_flip((ml_gf2_t *)a[0], (size_t)cell, *(size_t *)a[1]);
}

/* The packed A of b (m x r bits), NULL when out of memory. */
static ml_gf2_t *gf2_pack_board(const ml_board *b)
{
    size_t m = (size_t)b->n_cells, r = (size_t)b->n_taps;
    ml_gf2_t *A = ml_gf2_new(m, r);
    if (!A)
        return NULL;
    if (b->dense) {
        if (m && r)
            ml_gf2_pack_u8(A, b->dense, r);
        return A;
    }
    for (size_t j = 0; j < r; j++) {
        void *arg[2] = {A, &j};
        ml__board_each_effect(b, j, flip_effect, arg);
    }
    return A;
}

int ml__dense_gf2_rank(ml_ctx *ctx, const ml_board *b, uint64_t *rank)
{
    uint64_t m = b->n_cells, r = b->n_taps;
    int rc = gf2_check_shape(ctx, m, r);   /* then m * r < 2^56 */
    if (rc)
        return rc;
    if (!b->dense && m * r > GF2_MAX_FACTOR_BITS)
        return ml__fail(ctx, ML_M_GF2_RANK_TOO_LARGE, (unsigned long long)m,
                        (unsigned long long)r, (double)(m * r) / 8 / GIB,
                        (double)GF2_MAX_FACTOR_BITS / 8 / GIB);
    ml_gf2_t *A = gf2_pack_board(b);
    if (!A)
        return nomem(ctx, "the GF(2) engine");
    size_t rk = ml_gf2_echelonize(A, 0, A->ncols, NULL);
    ml_gf2_free(A);
    if (rk == (size_t)-1)
        return nomem(ctx, "the GF(2) engine");
    if ((rc = stopped(ctx)))
        return rc;   /* a partial rank must not be kept (the solver caches it) */
    *rank = rk;
    return ML_OK;
}

/* The build packs A only: the factorisation waits for the first question that needs
 * it (gf2_factored), as Gf2Engine's does. */
static int gf2_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    uint64_t m = b->n_cells, r = b->n_taps;
    if (b->n != 2)
        return ml__fail_text(ctx, ML_EINVAL, ML_M_INTERNAL,
                             "the GF(2) engine needs n = 2");
    int rc = gf2_check_shape(ctx, m, r);   /* then m * (r + m) < 2^57 */
    if (rc)
        return rc;
    if (m * (r + m) > GF2_MAX_FACTOR_BITS)
        return ml__fail(ctx, ML_M_GF2_TOO_LARGE, (unsigned long long)m,
                        (unsigned long long)r, (double)(m * (r + m)) / 8 / GIB,
                        (double)GF2_MAX_FACTOR_BITS / 8 / GIB);
    gf2_eng *e = calloc(1, sizeof *e);
    if (!e)
        return nomem(ctx, "the GF(2) engine");
    e->m = (size_t)m;
    e->r = (size_t)r;
    e->rank = -1;
    e->A = gf2_pack_board(b);
    if (!e->A) {
        free(e);
        return nomem(ctx, "the GF(2) engine");
    }
    *engine = e;
    return ML_OK;
}

/* Make the factorisation of the kept A (once); a stopped one is never kept. */
static int gf2_factored(ml_ctx *ctx, gf2_eng *e)
{
    if (e->F)
        return ML_OK;
    ml_gf2_fact_t *F = ml_gf2_factor(e->A);
    int rc = stopped(ctx);
    if (rc) {
        ml_gf2_fact_free(F);
        return rc;
    }
    if (!F)
        return nomem(ctx, "the GF(2) engine");
    e->F = F;
    e->rank = (int64_t)F->rank;
    return ML_OK;
}

/* rank(A): from the factorisation or a direct solve when one was made, else one
 * forward elimination of a copy of A (no transform). */
static int gf2_rank(ml_ctx *ctx, gf2_eng *e, uint64_t *rank)
{
    if (e->rank < 0) {
        ml_gf2_t *C = ml_gf2_copy(e->A);
        if (!C)
            return nomem(ctx, "the GF(2) engine");
        size_t rk = ml_gf2_echelonize(C, 0, C->ncols, NULL);
        ml_gf2_free(C);
        int rc = stopped(ctx);
        if (rc)
            return rc;
        if (rk == (size_t)-1)
            return nomem(ctx, "the GF(2) engine");
        e->rank = (int64_t)rk;
    }
    *rank = (uint64_t)e->rank;
    return ML_OK;
}

static void gf2_destroy(void *user, void *engine)
{
    (void)user;
    gf2_eng *e = engine;
    if (!e)
        return;
    ml_gf2_fact_free(e->F);
    ml_gf2_free(e->A);
    ml_gf2_free(e->S);
    ml_gf2_free(e->St);
    free(e);
}

/* X and ok from a solve's Y (solutions in columns [0, r), consistency bits right of
 * them), rows of unsolvable right-hand sides zeroed; frees Y. */
static void gf2_unpack_y(ml_gf2_t *Y, size_t k, size_t r, uint8_t *X, uint8_t *ok)
{
    ml_gf2_solve_ok(Y, r, ok);
    if (r)
        ml_gf2_unpack_u8(Y, 0, r, X, r);
    ml_gf2_free(Y);
    for (size_t i = 0; i < k; i++)
        if (!ok[i])
            memset(X + i * r, 0, r);
}

/* The right-hand sides (k x m bytes) as Gf2Engine.solve answers them: the first
 * GF2_DIRECT_SOLVES calls of fewer than 64 by direct elimination, then by dot products
 * with the factorisation's transform (fewer than 64), else through the solve matrix S
 * (built once): boards of at most 64 cells by its Four Russians tables, others packed
 * 64 boards a word and multiplied by S^T. */
static int gf2_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                     uint8_t *X, uint8_t *ok)
{
    (void)user;
    gf2_eng *e = engine;
    size_t m = e->m, r = e->r;
    int rc;
    if (!k)
        return ML_OK;
    if (!e->F && k < 64 && e->direct < GF2_DIRECT_SOLVES) {
        ml_gf2_t *B = ml_gf2_new(k, m), *Y = NULL;
        size_t rk = 0;
        if (B && m)
            ml_gf2_pack_u8(B, R, m);
        if (B)
            Y = ml_gf2_solve_direct(e->A, B, &rk);
        ml_gf2_free(B);
        if ((rc = stopped(ctx))) {
            ml_gf2_free(Y);
            return rc;
        }
        if (!Y)
            return nomem(ctx, "the GF(2) engine");
        e->direct++;
        e->rank = (int64_t)rk;
        gf2_unpack_y(Y, k, r, X, ok);
        return ML_OK;
    }
    if ((rc = gf2_factored(ctx, e)))
        return rc;
    if (k < 64 && !e->S) {
        ml_gf2_t *B = ml_gf2_new(k, m), *Y = NULL;
        if (B && m)
            ml_gf2_pack_u8(B, R, m);
        if (B)
            Y = ml_gf2_solve_dot(e->F, B);
        ml_gf2_free(B);
        if ((rc = stopped(ctx))) {
            ml_gf2_free(Y);
            return rc;
        }
        if (!Y)
            return nomem(ctx, "the GF(2) engine");
        gf2_unpack_y(Y, k, r, X, ok);
        return ML_OK;
    }
    if (!e->S) {
        e->S = ml_gf2_solve_matrix(e->F);
        if ((rc = stopped(ctx))) {
            ml_gf2_free(e->S);
            e->S = NULL;
            return rc;
        }
        if (!e->S)
            return nomem(ctx, "the GF(2) engine");
    }
    if (m <= 64 && e->S->ncols <= 64) {
        if (ml_gf2_solve_bytes_small(e->S, r, m ? R : NULL, k, m, r ? X : NULL, ok) == 0)
            return ML_OK;
        return nomem(ctx, "the GF(2) engine");
    }
    if (!e->St) {
        e->St = ml_gf2_transpose(e->S);
        if (!e->St)
            return nomem(ctx, "the GF(2) engine");
    }
    ml_gf2_t *Bt = ml_gf2_pack_u8_cols(m ? R : NULL, k, m, m), *Yt = NULL;
    if (Bt)
        Yt = ml_gf2_mul(e->St, Bt);
    ml_gf2_free(Bt);
    if ((rc = stopped(ctx))) {
        ml_gf2_free(Yt);
        return rc;
    }
    if (!Yt)
        return nomem(ctx, "the GF(2) engine");
    ml_gf2_unpack_solutions_cols(Yt, r, r ? X : NULL, ok);
    ml_gf2_free(Yt);
    return ML_OK;
}

static int gf2_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    gf2_eng *e = engine;
    uint64_t rank = 0;
    int rc = gf2_rank(ctx, e, &rank);
    if (!rc)
        *nullity = e->r - rank;
    return rc;
}

static int gf2_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    uint64_t null = 0;
    int rc = gf2_nullity(user, ctx, engine, &null);
    if (rc)
        return rc;
    uint32_t p = 2;
    factored_of(size, &p, &null, 1);
    return ML_OK;
}

static int gf2_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                          uint8_t *H, uint32_t *orders)
{
    (void)user;
    gf2_eng *e = engine;
    int rc = gf2_factored(ctx, e);
    if (rc)
        return rc;
    uint64_t null = e->F->r - e->F->rank;
    uint64_t count = limit < null ? limit : null;
    *k = count;
    if (!H || !count)
        return ML_OK;
    ml_gf2_t *K = ml_gf2_kernel_rows(e->F, 0, (size_t)count);
    if (!K)
        return nomem(ctx, "the GF(2) engine");
    rc = stopped(ctx);
    if (rc) {
        ml_gf2_free(K);
        return rc;
    }
    if (e->r)
        ml_gf2_unpack_u8(K, 0, e->r, H, e->r);
    ml_gf2_free(K);
    if (orders)
        for (uint64_t i = 0; i < count; i++)
            orders[i] = 2;
    return ML_OK;
}

static int gf2_det(void *user, ml_ctx *ctx, void *engine, unsigned *det)
{
    (void)user;
    gf2_eng *e = engine;
    if (e->m != e->r)
        return ml__fail(ctx, ML_M_DET_SQUARE, (unsigned long long)e->m,
                        (unsigned long long)e->r);
    uint64_t rank = 0;
    int rc = gf2_rank(ctx, e, &rank);
    if (!rc)
        *det = rank == e->m ? 1u : 0u;
    return rc;
}

static int gf2_pseudo_inverse(void *user, ml_ctx *ctx, void *engine, uint8_t *out)
{
    (void)user;
    gf2_eng *e = engine;
    int rc = gf2_factored(ctx, e);
    if (rc)
        return rc;
    ml_gf2_t *G = ml_gf2_pinv(e->F);
    if (!G)
        return nomem(ctx, "the GF(2) engine");
    rc = stopped(ctx);
    if (rc) {
        ml_gf2_free(G);
        return rc;
    }
    if (e->r && e->m)
        ml_gf2_unpack_u8(G, 0, e->m, out, e->m);
    ml_gf2_free(G);
    return ML_OK;
}

static int gf2_inverse(void *user, ml_ctx *ctx, void *engine, uint8_t *out)
{
    gf2_eng *e = engine;
    if (e->m != e->r)
        return ml__fail(ctx, ML_M_INVERSE_SQUARE, (unsigned long long)e->m,
                        (unsigned long long)e->r);
    uint64_t rank = 0;
    int rc = gf2_rank(ctx, e, &rank);
    if (rc)
        return rc;
    if (rank < e->m)
        return ml__fail(ctx, ML_M_SINGULAR_GF2, (unsigned long long)rank,
                        (unsigned long long)e->m);
    return gf2_pseudo_inverse(user, ctx, engine, out);
}

const ml_engine_def ml__dense_gf2_ops = {
    .size = sizeof(ml_engine_def),
    .name = "dense-gf2",
    .build = gf2_build,
    .destroy = gf2_destroy,
    .solve = gf2_solve,
    .nullity = gf2_nullity,
    .kernel_size = gf2_kernel_size,
    .generators = gf2_generators,
    .det = gf2_det,
    .inverse = gf2_inverse,
    .pseudo_inverse = gf2_pseudo_inverse,
};

/* ================================================================== Z/n */
typedef struct zn_eng {
    unsigned n;
    size_t m, r;
    int parts;
    unsigned q[ML_MAX_PRIMES], idem[ML_MAX_PRIMES];
    ml_zn_lu_t *lu[ML_MAX_PRIMES];
} zn_eng;

static void zn_destroy(void *user, void *engine)
{
    (void)user;
    zn_eng *e = engine;
    if (!e)
        return;
    for (int i = 0; i < e->parts; i++)
        ml_zn_lu_free(e->lu[i]);
    free(e);
}

/* One tap's effects, gathered for ml_zn_lu_add_coo. */
typedef struct coo_buf {
    int64_t *ci, *tj;
    size_t len, room;
    int64_t j;
    int oom;
} coo_buf;

static void coo_effect(void *arg, uint64_t cell, unsigned times)
{
    coo_buf *c = arg;
    for (unsigned t = 0; t < times && !c->oom; t++) {
        if (c->len == c->room) {
            size_t room = c->room ? 2 * c->room : 64;
            int64_t *ci = realloc(c->ci, room * sizeof *ci);
            if (ci)
                c->ci = ci;
            int64_t *tj = ci ? realloc(c->tj, room * sizeof *tj) : NULL;
            if (!tj) {
                c->oom = 1;
                return;
            }
            c->tj = tj;
            c->room = room;
        }
        c->ci[c->len] = (int64_t)cell;
        c->tj[c->len] = c->j;
        c->len++;
    }
}

/* Fill lu with A (b's effects): 0, or -1 when out of memory. */
static int zn_fill(ml_zn_lu_t *lu, const ml_board *b)
{
    if (b->dense) {
        if (b->n_cells && b->n_taps)
            ml_zn_lu_set_dense(lu, b->dense, (size_t)b->n_taps);
        return 0;
    }
    coo_buf c = {0};
    for (uint64_t j = 0; j < b->n_taps && !c.oom; j++) {
        c.len = 0;
        c.j = (int64_t)j;
        ml__board_each_effect(b, j, coo_effect, &c);
        if (!c.oom && c.len)
            ml_zn_lu_add_coo(lu, c.ci, c.tj, c.len);
    }
    free(c.ci);
    free(c.tj);
    return c.oom ? -1 : 0;
}

static int zn_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine)
{
    (void)user;
    uint64_t m = b->n_cells, r = b->n_taps;
    if (r && m > ZN_MAX_ENTRIES / r)   /* m * r > ZN_MAX_ENTRIES, without the product */
        return ml__fail(ctx, ML_M_ZN_TOO_LARGE, (unsigned long long)m, (unsigned long long)r,
                        (unsigned long long)ZN_MAX_ENTRIES);
    zn_eng *e = calloc(1, sizeof *e);
    if (!e)
        return nomem(ctx, "the Z/n engine");
    e->n = (unsigned)b->n;
    e->m = (size_t)m;
    e->r = (size_t)r;
    int p[ML_MAX_PRIMES], pk[ML_MAX_PRIMES];
    int parts = ml__primes_of(b->n, p, pk);
    for (int i = 0; i < parts; i++) {
        unsigned q = (unsigned)pk[i], rest = e->n / q;
        e->q[i] = q;
        e->idem[i] = rest > 1 ? rest * ml_zn_inv(rest % q, q) % e->n : 1u;
        e->lu[i] = ml_zn_lu_new(e->m, e->r, q);
        e->parts = i + 1;
        if (!e->lu[i] || zn_fill(e->lu[i], b) || ml_zn_lu_factor(e->lu[i])) {
            zn_destroy(NULL, e);
            return nomem(ctx, "the Z/n engine");
        }
    }
    *engine = e;
    return ML_OK;
}

/* X (k x r, row-major) from the parts' solutions of the k columns of bt (m x k): the
 * columns solvable in every part set ok; check = 0: G b (no consistency test). */
static int zn_solve_cols(ml_ctx *ctx, zn_eng *e, size_t k, const uint8_t *RT, uint8_t *X,
                         uint8_t *ok, int check)
{
    size_t m = e->m, r = e->r;
    for (size_t j = 0; j < k; j++)
        ok[j] = 1;
    if (!k)
        return ML_OK;
    if (!r) {   /* _LocalLU.solve_t: solvable iff the right-hand side is zero */
        for (size_t i = 0; i < m && check; i++)
            for (size_t j = 0; j < k; j++)
                if (RT[i * k + j])
                    ok[j] = 0;
        return ML_OK;
    }
    uint8_t *bt = malloc(m * k + 1), *xt = malloc(r * k), *okp = malloc(k);
    uint16_t *acc = e->parts > 1 ? calloc(r * k, sizeof *acc) : NULL;
    int rc = ML_OK;
    if (!bt || !xt || !okp || (e->parts > 1 && !acc)) {
        rc = nomem(ctx, "the Z/n engine");
        goto done;
    }
    for (int pi = 0; pi < e->parts; pi++) {
        unsigned q = e->q[pi];
        for (size_t t = 0; t < m * k; t++)
            bt[t] = (uint8_t)(RT[t] % q);
        memset(xt, 0, r * k);
        memset(okp, 1, k);
        if (ml_zn_lu_solve(e->lu[pi], m ? bt : NULL, k, xt, okp, check)) {
            rc = nomem(ctx, "the Z/n engine");
            goto done;
        }
        for (size_t j = 0; j < k; j++)
            ok[j] &= okp[j] ? 1 : 0;
        if (e->parts == 1) {
            for (size_t i = 0; i < r; i++)
                for (size_t j = 0; j < k; j++)
                    X[j * r + i] = xt[i * k + j];
        } else {
            for (size_t i = 0; i < r; i++)
                for (size_t j = 0; j < k; j++)
                    acc[j * r + i] =
                        (uint16_t)((acc[j * r + i] + (unsigned)xt[i * k + j] * e->idem[pi]) %
                                   e->n);
        }
    }
    if (e->parts > 1)
        for (size_t t = 0; t < r * k; t++)
            X[t] = (uint8_t)acc[t];
done:
    free(bt);
    free(xt);
    free(okp);
    free(acc);
    return rc;
}

static int zn_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                    uint8_t *X, uint8_t *ok)
{
    (void)user;
    zn_eng *e = engine;
    size_t m = e->m, r = e->r;
    uint8_t *RT = calloc(m * k + 1, 1);
    if (!RT)
        return nomem(ctx, "the Z/n engine");
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < m; i++)
            RT[i * k + j] = (uint8_t)(R[j * m + i] % e->n);
    int rc = zn_solve_cols(ctx, e, k, RT, X, ok, 1);
    free(RT);
    if (rc == ML_OK)
        for (size_t j = 0; j < k; j++)
            if (!ok[j])
                memset(X + j * r, 0, r);
    return rc;
}

static int zn_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity)
{
    (void)user;
    (void)ctx;
    zn_eng *e = engine;
    uint64_t best = 0;
    for (int i = 0; i < e->parts; i++) {
        uint64_t g = ml_zn_lu_ngens(e->lu[i]);
        if (g > best)
            best = g;
    }
    *nullity = best;
    return ML_OK;
}

static int zn_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size)
{
    (void)user;
    (void)ctx;
    zn_eng *e = engine;
    uint32_t p[ML_MAX_PRIMES];
    uint64_t ex[ML_MAX_PRIMES];
    for (int i = 0; i < e->parts; i++) {
        p[i] = ml_zn_lu_p(e->lu[i]);
        ex[i] = ml_zn_lu_kernel_log(e->lu[i]);
    }
    factored_of(size, p, ex, e->parts);
    return ML_OK;
}

static int zn_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                         uint8_t *H, uint32_t *orders)
{
    zn_eng *e = engine;
    uint64_t null = 0;
    zn_nullity(user, ctx, engine, &null);
    uint64_t count = limit < null ? limit : null;
    *k = count;
    if (!H || !count)
        return ML_OK;
    size_t r = e->r;
    if (e->parts == 1) {
        unsigned *o = malloc(count * sizeof *o);
        if (!o || ml_zn_lu_generators_range(e->lu[0], 0, (size_t)count, H, o)) {
            free(o);
            return nomem(ctx, "computing kernel generators");
        }
        for (uint64_t i = 0; i < count && orders; i++)
            orders[i] = o[i];
        free(o);
        return ML_OK;
    }
    uint16_t *acc = calloc((size_t)count * r + 1, sizeof *acc);
    uint8_t *h = malloc((size_t)count * r + 1);
    unsigned *o = malloc(count * sizeof *o);
    int rc = ML_OK;
    if (!acc || !h || !o) {
        rc = nomem(ctx, "computing kernel generators");
        goto done;
    }
    for (uint64_t i = 0; i < count; i++)
        if (orders)
            orders[i] = 1;
    for (int pi = 0; pi < e->parts; pi++) {
        size_t g = ml_zn_lu_ngens(e->lu[pi]);
        if (g > count)
            g = (size_t)count;
        if (!g)
            continue;
        if (ml_zn_lu_generators_range(e->lu[pi], 0, g, h, o)) {
            rc = nomem(ctx, "computing kernel generators");
            goto done;
        }
        for (size_t t = 0; t < g * r; t++)
            acc[t] = (uint16_t)((acc[t] + (unsigned)h[t] * e->idem[pi]) % e->n);
        for (size_t i = 0; i < g && orders; i++)
            orders[i] *= o[i];
    }
    for (size_t t = 0; t < (size_t)count * r; t++)
        H[t] = (uint8_t)acc[t];
done:
    free(acc);
    free(h);
    free(o);
    return rc;
}

static int zn_det(void *user, ml_ctx *ctx, void *engine, unsigned *det)
{
    (void)user;
    zn_eng *e = engine;
    if (e->m != e->r)
        return ml__fail(ctx, ML_M_DET_SQUARE, (unsigned long long)e->m,
                        (unsigned long long)e->r);
    unsigned d = 0;
    for (int i = 0; i < e->parts; i++)
        d = e->parts == 1 ? ml_zn_lu_det(e->lu[i])
                          : (d + ml_zn_lu_det(e->lu[i]) * e->idem[i]) % e->n;
    *det = d;
    return ML_OK;
}

static unsigned gcd_u(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* G b for the identity's columns: out (r x m) = the parts' G combined. */
static int zn_identity_solve(ml_ctx *ctx, zn_eng *e, uint8_t *out)
{
    size_t m = e->m, r = e->r;
    if (!m || !r)
        return ML_OK;
    uint8_t *I = calloc(m * m, 1), *X = malloc(m * r), *ok = malloc(m);
    int rc = ML_OK;
    if (!I || !X || !ok) {
        rc = nomem(ctx, "the Z/n engine");
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        I[i * m + i] = 1;
    rc = zn_solve_cols(ctx, e, m, I, X, ok, 0);   /* X: m x r, row j = G e_j */
    if (rc == ML_OK)
        for (size_t i = 0; i < r; i++)
            for (size_t j = 0; j < m; j++)
                out[i * m + j] = X[j * r + i];
done:
    free(I);
    free(X);
    free(ok);
    return rc;
}

static int zn_inverse(void *user, ml_ctx *ctx, void *engine, uint8_t *out)
{
    zn_eng *e = engine;
    if (e->m != e->r)
        return ml__fail(ctx, ML_M_INVERSE_SQUARE, (unsigned long long)e->m,
                        (unsigned long long)e->r);
    for (int i = 0; i < e->parts; i++)
        if (ml_zn_lu_unit_rank(e->lu[i]) < e->m) {
            unsigned d = 0;
            zn_det(user, ctx, engine, &d);
            return ml__fail(ctx, ML_M_SINGULAR, (int)e->n, d, gcd_u(d, e->n));
        }
    return zn_identity_solve(ctx, e, out);
}

static int zn_pseudo_inverse(void *user, ml_ctx *ctx, void *engine, uint8_t *out)
{
    (void)user;
    zn_eng *e = engine;
    for (int i = 0; i < e->parts; i++) {
        size_t rk = ml_zn_lu_rank(e->lu[i]), ur = ml_zn_lu_unit_rank(e->lu[i]);
        if (rk > ur)
            return ml__fail(ctx, ML_M_NO_PSEUDO_INVERSE, (int)e->n, e->q[i],
                            (unsigned long long)(rk - ur));
    }
    if (e->r && e->m)
        memset(out, 0, e->r * e->m);
    return zn_identity_solve(ctx, e, out);
}

const ml_engine_def ml__dense_zn_ops = {
    .size = sizeof(ml_engine_def),
    .name = "dense-zn",
    .build = zn_build,
    .destroy = zn_destroy,
    .solve = zn_solve,
    .nullity = zn_nullity,
    .kernel_size = zn_kernel_size,
    .generators = zn_generators,
    .det = zn_det,
    .inverse = zn_inverse,
    .pseudo_inverse = zn_pseudo_inverse,
};

const ml_engine_def *ml__dense_ops_for(int n)
{
    return n == 2 ? &ml__dense_gf2_ops : &ml__dense_zn_ops;
}
