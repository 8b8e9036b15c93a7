/* search_impl.h: what search.c (the ml_search handle, the one-coset search) and
 * search_many.c (the many-coset search) share. An ml_search of many cosets holds an
 * ml_many; the handle's calls that both kinds answer (free, split, bound, export,
 * import, done) pass it on. */
#ifndef ML_SEARCH_IMPL_H
#define ML_SEARCH_IMPL_H
#include "include/modlights.h"

#include <stddef.h>
#include <stdint.h>

#define ML__SEARCH_EXPORT_MANY 3u   /* the many-coset search's export format */
#define ML__SEARCH_MAX_TASKS ((uint64_t)1 << 20)

typedef struct ml_many ml_many;

/* The exports' integers: v as `bytes` little-endian bytes at p (returns the end), and
 * back (advancing *p). */
static inline uint8_t *put(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        *p++ = (uint8_t)(v >> (8 * i));
    return p;
}

static inline uint64_t get(const uint8_t **p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)(*p)[i] << (8 * i);
    *p += bytes;
    return v;
}

/* -- search.c */
/* The solver's generators (canonical when within the work bound: *canonical) and the
 * coset's size, below 2^62 (ML_ETOOLARGE, ML_M_COSET_TOO_LARGE, past it): what both
 * kinds of search read of the solver first. */
int ml__search_generators(ml_ctx *ctx, ml_solver *s, const uint8_t **H,
                          const uint32_t **orders, uint64_t *k, int *canonical);
/* A handle holding m (taken over; freed with m when this fails: ML_ENOMEM). */
int ml__search_wrap(ml_ctx *ctx, ml_many *m, ml_search **out);
/* Whether q is a live handle. */
int ml__search_valid(const ml_search *q);
/* q's many-coset search, or NULL (a one-coset search, or not a handle). */
ml_many *ml__search_many(const ml_search *q);

/* -- search_many.c */
void ml__many_free(ml_many *m);
int ml__many_split(ml_ctx *ctx, ml_many *m, uint64_t want, uint64_t *tasks);
uint64_t ml__many_tasks(const ml_many *m);
int ml__many_done(const ml_many *m);
size_t ml__many_export_size(const ml_many *m);
void ml__many_export(const ml_many *m, uint8_t *buf);
/* A worker's copy from an export of format ML__SEARCH_EXPORT_MANY (the whole buffer,
 * head included); ML_EINVAL (ML_M_SEARCH_EXPORT) for anything else. */
int ml__many_import(ml_ctx *ctx, const uint8_t *buf, size_t len, ml_many **out);

#endif
