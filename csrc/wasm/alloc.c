/* alloc.c: the WebAssembly build's count of live heap bytes.
 *
 * The build links with --wrap for malloc, calloc, realloc, aligned_alloc and free, so
 * every allocation of the C core passes through here and ml_w_live_bytes() is the sum
 * of malloc_usable_size over the blocks not yet freed: a test creates and disposes many
 * solvers and checks that it comes back to where it was (no leak across calls). Only
 * the WebAssembly build has these wrappers (the native build compiles this file empty). */
#if defined(__wasm__)
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void *__real_aligned_alloc(size_t, size_t);
void __real_free(void *);

static uint64_t live;

static void *counted(void *p)
{
    if (p) live += malloc_usable_size(p);
    return p;
}

void *__wrap_malloc(size_t n) { return counted(__real_malloc(n)); }
void *__wrap_calloc(size_t a, size_t b) { return counted(__real_calloc(a, b)); }
void *__wrap_aligned_alloc(size_t al, size_t n) { return counted(__real_aligned_alloc(al, n)); }

void *__wrap_realloc(void *p, size_t n)
{
    size_t old = p ? malloc_usable_size(p) : 0;
    void *q = __real_realloc(p, n);
    if (q || n == 0) live -= old;          /* failed: p stays, and so does its count */
    return counted(q);
}

void __wrap_free(void *p)
{
    if (p) live -= malloc_usable_size(p);
    __real_free(p);
}

__attribute__((export_name("ml_w_live_bytes"))) double ml_w_live_bytes(void)
{
    return (double)live;
}
#else
typedef int ml_wasm_alloc_unused;          /* ISO C: a translation unit is not empty */
#endif
