/* dense_gf2.c: the dense GF(2) engine's questions (engines/dense.h: ml__dense_gf2_ops,
 * ml__dense_gf2_rank) over dense/gf2.c; a piece of dense.c (what the pieces share is in
 * engines/dense_impl.h).
 *
 * dense-gf2 is Gf2Engine (native/_gf2.pxi): A packed from the board's effects (m x r
 * bits) at build and kept (MAX_FACTOR_BITS: [A | I] at most 2^34 bits, checked before
 * anything is allocated, with _check_factor_size's message); factored T A = E on first
 * need. The first two solves of fewer than 64 right-hand sides eliminate [A | B^T]
 * directly (giving the rank too), later ones use dot products with T, batches of 64 or
 * more the solve matrix S; rank and det need one forward elimination when nothing gave
 * the rank yet; a kernel basis of r - rank rows of order 2, the inverse and a
 * generalised inverse from the factorisation. The answers are Gf2Engine's, call for
 * call. Every allocation is checked; the eliminations poll for stops. */
#include "engines/dense.h"
#include "engines/dense_impl.h"

#include "api/board.h"
#include "dense/gf2.h"
#include "dense/gf2_batch.h"

#include <stdlib.h>
#include <string.h>

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

/* Fewer than 64 right-hand sides packed as rows: by direct elimination of [A | B^T]
 * when rank is not NULL (*rank its rank(A)), else by dot products with the
 * factorisation's transform; X and ok written (gf2_unpack_y). */
static int gf2_solve_few(ml_ctx *ctx, gf2_eng *e, size_t k, const uint8_t *R, uint8_t *X,
                         uint8_t *ok, size_t *rank)
{
    ml_gf2_t *B = ml_gf2_new(k, e->m), *Y = NULL;
    if (B && e->m)
        ml_gf2_pack_u8(B, R, e->m);
    if (B)
        Y = rank ? ml_gf2_solve_direct(e->A, B, rank) : ml_gf2_solve_dot(e->F, B);
    ml_gf2_free(B);
    int rc = stopped(ctx);
    if (rc) {
        ml_gf2_free(Y);
        return rc;
    }
    if (!Y)
        return nomem(ctx, "the GF(2) engine");
    gf2_unpack_y(Y, k, e->r, X, ok);
    return ML_OK;
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
        size_t rk = 0;
        if ((rc = gf2_solve_few(ctx, e, k, R, X, ok, &rk)))
            return rc;
        e->direct++;
        e->rank = (int64_t)rk;
        return ML_OK;
    }
    if ((rc = gf2_factored(ctx, e)))
        return rc;
    if (k < 64 && !e->S)
        return gf2_solve_few(ctx, e, k, R, X, ok, NULL);
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
