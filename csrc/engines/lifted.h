/* lifted.h: the "lifted" engine's questions in C (engines/lifted.c), for the registry's
 * entry "lifted" (registry_own.c) and the solver (api/solver.c): lifted.py's
 * LiftedEngine on uniform grid boards over a composite n (no wrap, locks or holes) that
 * the GF(p) algebraic engine covers for every prime p dividing n. build, destroy, solve,
 * nullity, kernel_size, generators, kernel_fits; det, inverse and pseudo-inverse are the
 * registry's fallback and solve_packed is refused (Python's packs is False). A factor
 * p^k, k > 1, singular mod p is Python's "chase" part: for the cross family and the
 * symmetric 3 x 3 patterns without wrap the algebra over Z/p^k
 * (engines/lifted_cross.h), for algebraic-sym-odd's boards without wrap the odd-width
 * split over Z/p^k (engines/lifted_odd.h), on tori the torus algebra over Z/p^k
 * (engines/lifted_torus.h), else the choosing chase engine (engines/chase.h) over
 * Z/p^k. */
#ifndef ML_ENGINES_LIFTED_H
#define ML_ENGINES_LIFTED_H

#include "include/modlights.h"

#include <stddef.h>

extern const ml_engine_def ml__lifted_ops;

/* What answers part j of a lifted engine (the prime powers of n ascending): "lift", or
 * the name of the engine (over GF(p): the field's; over Z/p^k: "lifted-zq-cross",
 * "lifted-zq-odd", "lifted-zq-torus" or the choosing chase's); NULL past the parts.
 * For tests. */
const char *ml__lifted_part(const void *engine, int j);

/* ------------------------------------------------------------------ a part over Z/p^k
 * What the parts over Z/p^k (engines/lifted_cross.c, lifted_odd.c, lifted_torus.c)
 * share: each engine begins with an ml__zq_part (its first member, so that a pointer to
 * the engine is one to its frame) naming the part's own steps; ml__zq_part_destroy,
 * _solve (the right-hand sides read mod q, then the part's solve a row), _nullity,
 * _kernel_size and _generators (lifted.c) answer the ml_engine_def questions from them
 * (ML__ZQ_PART_DEF). The steps return 0, 2 out of memory, 3 stopped
 * or 4 an identity of the algebra broken (a bug: ML_M_INTERNAL). */
typedef struct ml__zq_part ml__zq_part;

typedef struct ml__zq_part_ops {
    /* *scratch for solves and generators, freed by scratch_free (also when this fails;
     * scratch_free(NULL) does nothing). */
    int (*scratch_new)(const ml__zq_part *e, void **scratch);
    void (*scratch_free)(void *scratch);
    /* x (rows x cols) with A x = r mod q (r: rows x cols bytes below q) and *ok = 1, or
     * *ok = 0 (x then unspecified) when there is none. */
    int (*solve)(const ml__zq_part *e, void *scratch, const uint8_t *r, uint8_t *x,
                 int *ok);
    /* The i-th kernel generator (i < ngens) into h (rows x cols) and its order. */
    int (*generator)(const ml__zq_part *e, void *scratch, uint64_t i, uint8_t *h,
                     unsigned *order);
    /* Frees what the engine holds besides the frame (not the engine itself). */
    void (*clear)(ml__zq_part *e);
    const char *broke;   /* ML_M_INTERNAL's detail: which algebra broke an identity */
} ml__zq_part_ops;

struct ml__zq_part {
    const ml__zq_part_ops *ops;
    unsigned p, k, q;      /* q = p^k */
    size_t rows, cols;     /* the board */
    uint64_t ngens, klog;  /* the kernel: its generators' count, |ker| = p^klog */
};

/* e's frame for board b over Z/p^k (ngens = klog = 0). */
void ml__zq_part_init(ml__zq_part *e, const ml__zq_part_ops *ops, const ml_board *b,
                      unsigned p, unsigned k);
/* A step's code rc (2, 3 or 4) as the library's status recorded on ctx (e may be NULL:
 * the generic detail). */
int ml__zq_part_fail(ml_ctx *ctx, const ml__zq_part *e, int rc);

void ml__zq_part_destroy(void *user, void *engine);
int ml__zq_part_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                      uint8_t *X, uint8_t *ok);
int ml__zq_part_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity);
int ml__zq_part_kernel_size(void *user, ml_ctx *ctx, void *engine, ml_factored *size);
int ml__zq_part_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit,
                           uint64_t *k, uint8_t *H, uint32_t *orders);

/* out (c x r) = the transpose of in (r x c) when t, else a copy of its r c bytes. */
void ml__zq_part_orient(int t, size_t r, size_t c, const uint8_t *in, uint8_t *out);

/* The ml_engine_def of a part named engine_name (no build: not a registry entry). */
#define ML__ZQ_PART_DEF(engine_name)                                                      \
    {                                                                                      \
        .size = sizeof(ml_engine_def), .name = (engine_name),                              \
        .destroy = ml__zq_part_destroy, .solve = ml__zq_part_solve,                        \
        .nullity = ml__zq_part_nullity, .kernel_size = ml__zq_part_kernel_size,            \
        .generators = ml__zq_part_generators,                                              \
    }

/* Every part of a lifted engine and why it takes its strategy, as text in buf (cap
 * bytes, snprintf convention; the length it needs returned): "Z/q <engine> (<why>)" a
 * part, comma-separated, a lift part as "lift over <the engine over GF(p)>"; the solver
 * appends it to its plan's reason (api/solver.c). */
int ml__lifted_parts_text(const void *engine, char *buf, size_t cap);

/* The largest rank m of the singular part R_A (lifted_alg.h) for which a part over Z/p^k
 * singular mod p with rows of length w is the algebra's (lifted_cross.c, lifted_odd.c),
 * the choosing chase's above: min(RHO w, ML__LIFTED_ZQ_MMAX), RHO registry_costs.h's
 * ML__LIFTED_ZQ_RHO_CROSS (the cross family) or _SYM (sym: the symmetric 3 x 3 patterns,
 * whose chase has the longer residual); ML__LIFTED_ZQ_MMAX when
 * MODLIGHTS_LIFTED_PARTS=algebra, 0 when =plain. */
#define ML__LIFTED_ZQ_MMAX 512
size_t ml__lifted_zq_mmax(size_t w, int sym);

#endif
