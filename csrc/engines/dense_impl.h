/* dense_impl.h: what the dense engines' pieces share (engines/dense.c, dense_gf2.c):
 * their limits and the checks of allocations and stops. Internal to csrc/engines/. */
#ifndef ML_ENGINES_DENSE_IMPL_H
#define ML_ENGINES_DENSE_IMPL_H

#include "api/ctx.h"
#include "base/interrupt.h"
#include "include/modlights.h"

#include <stdint.h>
#include <string.h>

/* _gf2.pxi's MAX_FACTOR_BITS, _zn.pxi's MAX_ENTRIES */
#define GF2_MAX_FACTOR_BITS ((uint64_t)1 << 34)
#define GF2_MAX_DIM ((uint64_t)1 << 28)
#define ZN_MAX_ENTRIES ((uint64_t)1 << 28)
#define GIB (1024.0 * 1024.0 * 1024.0)

static inline int nomem(ml_ctx *ctx, const char *what) { return ml__fail(ctx, ML_M_NOMEM, what); }

/* The dense/ loops that poll the stop flag break off and hand back a partial result
 * (an echelon form's rank so far, a product's garbage): every such result is checked
 * with this before it is used or kept. */
static inline int stopped(ml_ctx *ctx)
{
    return ml_interrupt_stopped() ? ml__fail(ctx, ML_M_INTERRUPTED) : ML_OK;
}

/* f = prod p[i]^e[i] over the i with e[i] > 0. */
static inline void factored_of(ml_factored *f, const uint32_t *p, const uint64_t *e, int count)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < count; i++)
        if (e[i]) {
            f->prime[f->count] = p[i];
            f->exp[f->count] = e[i];
            f->count++;
        }
}

#endif
