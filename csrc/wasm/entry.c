/* entry.c: the C entry layer of the WebAssembly build. See entry.h. */
#include "wasm/entry.h"

#include "base/interrupt.h"
#include "base/modn.h"
#include "chase/chase.h"
#include "dense/gf2.h"
#include "dense/zn.h"
#include "search/canon.h"
#include "search/driver.h"
#include "search/coset.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__wasm__)
#define ML_W_EXPORT(name) __attribute__((export_name(#name)))
#else
#define ML_W_EXPORT(name)
#endif

/* The limits of the Python engines, with their messages (modlights.engines.chase.limits,
 * modlights.native._zn / _gf2, modlights.solver). */
#define MAX_TILES ((uint64_t)1 << 27)
#define MAX_CHASE_OFFSETS 4096
#define MAX_RESIDUAL_BYTES ((uint64_t)1 << 30)
#define MAX_RESIDUAL_WORK ((uint64_t)1 << 38)
#define MAX_ZN_ENTRIES ((uint64_t)1 << 28)
#define MAX_FACTOR_BITS ((uint64_t)1 << 34)
#define MAX_KERNEL_BYTES ((uint64_t)1 << 30)
#define MAX_SEARCH_BYTES ((uint64_t)1 << 24)
#define MAX_PARTS 4                       /* 2 * 3 * 5 * 7 = 210: at most 4 primes <= 255 */

typedef struct {
    unsigned q, p, e, idem;
    ml_zn_lu_t *lu;
} part_t;

/* Set while a solver lives: every exported call checks it, so a NULL, disposed or
 * foreign handle is refused instead of read. */
#define ML_W_MAGIC 0x6d6c7731u

struct ml_w {
    uint32_t magic;
    int grid, n;
    size_t blen, xlen, n_taps;
    ml_chase *plan;                       /* grid boards */
    size_t nsym, nres;                    /* the residual system M z = rho */
    uint64_t *M2;                         /* GF(2): nres rows of nw words */
    size_t nw, rank2;
    int nparts;                           /* Z/n: the prime-power parts */
    part_t parts[MAX_PARTS];
    /* kernel generators over the taps (built on first use) */
    int have_gens, every;
    int canonical;                        /* H is ml_canon_basis's (search/canon.h) */
    size_t k;
    uint8_t *H;                           /* k x xlen */
    uint32_t *orders;
    /* work space */
    uint8_t *rho, *z, *zero_b;
};

static char errbuf[1024];

static void set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errbuf, sizeof errbuf, fmt, ap);
    va_end(ap);
}

ML_W_EXPORT(ml_w_error) const char *ml_w_error(void) { return errbuf; }
ML_W_EXPORT(ml_w_malloc) void *ml_w_malloc(size_t bytes) { return malloc(bytes ? bytes : 1); }
ML_W_EXPORT(ml_w_free) void ml_w_free(void *p) { free(p); }

ML_W_EXPORT(ml_w_init) void ml_w_init(int (*hook)(void))
{
    ml_interrupt_set_hook(hook);
    ml_interrupt_take();
}

#if defined(__wasm__)
/* The JavaScript front's hook: nonzero when the work must stop (it may also report
 * progress). Imported from the module "env". */
__attribute__((import_module("env"), import_name("ml_js_poll"))) int ml_js_poll(void);
ML_W_EXPORT(ml_w_init_js) void ml_w_init_js(void) { ml_w_init(ml_js_poll); }
#endif

/* ------------------------------------------------------------------ live heap bytes
 * The WebAssembly build links with --wrap for malloc, calloc, realloc, aligned_alloc
 * and free, so every allocation of the C core passes through here and
 * ml_w_live_bytes() is the sum of malloc_usable_size over the blocks not yet freed: a
 * test creates and disposes many solvers and checks that it comes back to where it was
 * (no leak across calls). The native build has no wrappers. */
#if defined(__wasm__)
#include <malloc.h>

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
#endif

/* ------------------------------------------------------------------ helpers */
static int bit_length_u128(unsigned __int128 v)
{
    int b = 0;
    while (v) { b++; v >>= 1; }
    return b;
}

/* check_residual_size of modlights.engines.chase.limits: 0, or ML_W_ELIMIT. */
static int check_residual_size(size_t nres, size_t nsym, int n, int parts)
{
    unsigned __int128 side = nres < nsym ? nres : nsym;
    unsigned __int128 nbytes, work;
    if (n == 2) {
        unsigned __int128 packed = (unsigned __int128)nres * ((nsym + 63) / 64) * 8;
        nbytes = 3 * packed;
        work = (unsigned __int128)nres * nsym * side / 64;
    } else {
        nbytes = (unsigned __int128)nres * nsym * (unsigned)(1 + 3 * parts);
        work = (unsigned __int128)nres * nsym * side / 16;
    }
    if (nbytes > MAX_RESIDUAL_BYTES || work > MAX_RESIDUAL_WORK) {
        set_error("this board is too large for its pattern: the chase leaves a residual "
                  "system of %zu equations x %zu unknowns mod %d (%.0f MiB, about 2^%d "
                  "operations to eliminate; at most %.0f MiB and 2^%d); the pattern forces "
                  "too few taps (use a smaller board or a pattern that reaches the next row)",
                  nres, nsym, n, (double)nbytes / 1048576.0,
                  (work ? bit_length_u128(work) : 1) - 1,
                  (double)MAX_RESIDUAL_BYTES / 1048576.0, bit_length_u128(MAX_RESIDUAL_WORK) - 1);
        return ML_W_ELIMIT;
    }
    return 0;
}

static int any_nonzero(const uint8_t *v, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (v[i]) return 1;
    return 0;
}

/* The prime-power parts of n with their CRT idempotents (as modlights.native._zn). */
static int split_parts(ml_w *s)
{
    unsigned q[4], p[4], e[4], idem[4];
    s->nparts = ml_prime_powers((unsigned)s->n, q, p, e, idem);
    for (int j = 0; j < s->nparts; j++) {
        part_t *pt = &s->parts[j];
        pt->q = q[j]; pt->p = p[j]; pt->e = e[j]; pt->idem = idem[j];
        pt->lu = NULL;
    }
    return s->nparts;
}

static int interrupted(void) { return ml_interrupt_take() != 0; }

static ml_w *new_solver(int n, int32_t *code)
{
    ml_w *s = calloc(1, sizeof *s);
    if (!s) { *code = ML_W_ENOMEM; set_error("out of memory"); return NULL; }
    s->magic = ML_W_MAGIC;
    s->n = n;
    split_parts(s);
    return s;
}

/* Factor the residual system once: GF(2) rank, or the Z/n parts from M (nres x nsym
 * bytes, entries < n). M2 is set for GF(2). Returns 0 or a code. */
static int factor_zn(ml_w *s, const uint8_t *M)
{
    size_t entries = s->nres * s->nsym;
    uint8_t *red = NULL;
    if (s->nparts > 1 || (unsigned)s->n != s->parts[0].q) {
        red = malloc(entries ? entries : 1);
        if (!red) return ML_W_ENOMEM;
    }
    for (int i = 0; i < s->nparts; i++) {
        part_t *pt = &s->parts[i];
        pt->lu = ml_zn_lu_new(s->nres, s->nsym, pt->q);
        if (!pt->lu) { free(red); return ML_W_ENOMEM; }
        const uint8_t *src = M;
        if (red) {
            for (size_t j = 0; j < entries; j++) red[j] = (uint8_t)(M[j] % pt->q);
            src = red;
        }
        if (entries) ml_zn_lu_set_dense(pt->lu, src, s->nsym);
        if (ml_zn_lu_factor(pt->lu) != 0) {
            free(red);
            return interrupted() ? ML_W_INTERRUPTED : ML_W_ENOMEM;
        }
        if (interrupted()) { free(red); return ML_W_INTERRUPTED; }
    }
    free(red);
    return 0;
}

static int factor_gf2(ml_w *s)
{
    if (s->nres == 0 || s->nsym == 0) { s->rank2 = 0; return 0; }
    size_t rk = ml_res_gf2_solve(s->M2, s->nres, s->nsym, NULL, 0, NULL, NULL);
    if (interrupted()) return ML_W_INTERRUPTED;
    if (rk == (size_t)-1) return ML_W_ENOMEM;
    s->rank2 = rk;
    return 0;
}

static int alloc_work(ml_w *s)
{
    s->rho = calloc(s->nres + 1, 1);
    s->z = calloc(s->nsym + 1, 1);
    s->zero_b = calloc(s->blen + 1, 1);
    return (s->rho && s->z && s->zero_b) ? 0 : ML_W_ENOMEM;
}

static ml_w *fail(ml_w *s, int rc, int32_t *code)
{
    if (rc == ML_W_ENOMEM) set_error("out of memory in the WebAssembly core");
    if (rc == ML_W_INTERRUPTED) set_error("interrupted");
    *code = rc;
    ml_w_dispose(s);
    return NULL;
}

/* ------------------------------------------------------------------ construction */
ML_W_EXPORT(ml_w_grid)
ml_w *ml_w_grid(int32_t h, int32_t w, int32_t n, int32_t wrap, const uint8_t *active,
                const uint8_t *tappable, int32_t nu, const int32_t *udr, const int32_t *udc,
                int32_t npat, const int32_t *cnt, const int32_t *pat_of, int32_t *code)
{
    *code = ML_W_EINVAL;
    errbuf[0] = 0;
    ml_interrupt_take();
    if (h < 1 || w < 1 || (uint64_t)h * (uint64_t)w > MAX_TILES) {
        set_error("board too large or empty: %dx%d tiles (1..%llu allowed)", (int)h, (int)w,
                  (unsigned long long)MAX_TILES);
        return NULL;
    }
    if (n < 2 || n > 255) { set_error("states must be an int from 2 to 255, got %d", (int)n); return NULL; }
    if (wrap != 0 && wrap != 1) { set_error("wrap must be 0 or 1"); return NULL; }
    if (nu < 0 || npat < 1 || (!udr && nu) || (!udc && nu) || (!cnt && nu)
        || (npat > 1 && !pat_of)) {
        set_error("bad pattern tables");
        return NULL;
    }
    if (nu > MAX_CHASE_OFFSETS) {
        set_error("the chase takes at most %d distinct pattern offsets, this board uses %d; "
                  "use method='dense'", MAX_CHASE_OFFSETS, (int)nu);
        return NULL;
    }
    size_t hw = (size_t)h * (size_t)w;
    for (int32_t i = 0; i < nu; i++)
        if (udr[i] < -(1 << 20) || udr[i] > (1 << 20) || udc[i] < -(1 << 20) || udc[i] > (1 << 20)) {
            set_error("pattern offsets must be within 2^20 of the tile");
            return NULL;
        }
    for (int64_t i = 0; i < (int64_t)npat * nu; i++)
        if (cnt[i] < 0) { set_error("pattern counts must be >= 0"); return NULL; }
    if (npat > 1)
        for (size_t i = 0; i < hw; i++)
            if (pat_of[i] < 0 || pat_of[i] >= npat) { set_error("pattern index out of range"); return NULL; }
    size_t n_taps = hw;
    if (tappable) {
        n_taps = 0;
        for (size_t i = 0; i < hw; i++) {
            if (tappable[i] > 1 || (active && active[i] > 1)) { set_error("masks must be 0/1"); return NULL; }
            if (tappable[i] && active && !active[i]) {
                set_error("a tappable tile must be active (holes are not tappable)");
                return NULL;
            }
            n_taps += tappable[i];
        }
    } else if (active) {
        set_error("a board with holes needs its tappable mask");
        return NULL;
    }
    ml_w *s = new_solver(n, code);
    if (!s) return NULL;
    s->grid = 1;
    s->blen = s->xlen = hw;
    s->n_taps = n_taps;
    int err = 0;
    s->plan = ml_chase_plan(h, w, n, wrap, active, tappable, nu, udr, udc, npat, cnt,
                            npat > 1 ? pat_of : NULL, &err);
    if (!s->plan) {
        if (err == 2) return fail(s, ML_W_ENOMEM, code);
        set_error("the chase refused the board's tables");
        return fail(s, ML_W_EINVAL, code);
    }
    s->nsym = ml_chase_nsym(s->plan);
    s->nres = ml_chase_nres(s->plan);
    int rc = check_residual_size(s->nres, s->nsym, n, s->nparts);
    if (rc) { *code = rc; ml_w_dispose(s); return NULL; }
    if ((rc = alloc_work(s))) return fail(s, rc, code);
    if (n == 2) {
        s->nw = (s->nsym + 63) / 64;
        s->M2 = calloc(s->nres * s->nw + 1, sizeof(uint64_t));
        if (!s->M2) return fail(s, ML_W_ENOMEM, code);
        if (s->nres && s->nsym) {
            rc = ml_chase_matrix_gf2(s->plan, s->M2, 1, 0);
            if (interrupted() || rc == 3) return fail(s, ML_W_INTERRUPTED, code);
            if (rc) return fail(s, ML_W_ENOMEM, code);
        }
        if ((rc = factor_gf2(s))) return fail(s, rc, code);
    } else {
        uint8_t *M = calloc(s->nres * s->nsym + 1, 1);
        if (!M) return fail(s, ML_W_ENOMEM, code);
        if (s->nres && s->nsym) {
            rc = ml_chase_matrix_zn_mode(s->plan, M, s->nres, 1, 0, 1);
            if (interrupted() || rc == 3) { free(M); return fail(s, ML_W_INTERRUPTED, code); }
            if (rc) { free(M); return fail(s, ML_W_ENOMEM, code); }
        }
        rc = factor_zn(s, M);
        free(M);
        if (rc) return fail(s, rc, code);
    }
    *code = ML_W_OK;
    return s;
}

ML_W_EXPORT(ml_w_graph)
ml_w *ml_w_graph(int32_t n, int32_t n_cells, int32_t n_taps, const int32_t *indptr,
                 const int32_t *cells, int32_t *code)
{
    *code = ML_W_EINVAL;
    errbuf[0] = 0;
    ml_interrupt_take();
    if (n < 2 || n > 255) { set_error("states must be an int from 2 to 255, got %d", (int)n); return NULL; }
    if (n_cells < 0 || n_taps < 0 || !indptr || (uint64_t)n_cells > MAX_TILES) {
        set_error("bad graph board sizes");
        return NULL;
    }
    if (indptr[0] != 0) { set_error("indptr must start at 0"); return NULL; }
    for (int32_t j = 0; j < n_taps; j++)
        if (indptr[j + 1] < indptr[j]) { set_error("indptr must not decrease"); return NULL; }
    int32_t nnz = indptr[n_taps];
    if (nnz && !cells) { set_error("bad graph board effects"); return NULL; }
    for (int32_t t = 0; t < nnz; t++)
        if (cells[t] < 0 || cells[t] >= n_cells) {
            set_error("effect cells must be in 0..%d", (int)n_cells - 1);
            return NULL;
        }
    uint64_t m = (uint64_t)n_cells, r = (uint64_t)n_taps;
    if (n == 2 && m * (r + m) > MAX_FACTOR_BITS) {
        set_error("a %llux%llu tap matrix is too large for the dense GF(2) engine: [A | I] "
                  "would take %.1f GiB (at most %.0f GiB)", (unsigned long long)m,
                  (unsigned long long)r, (double)(m * (r + m)) / 8 / 1073741824.0,
                  (double)MAX_FACTOR_BITS / 8 / 1073741824.0);
        *code = ML_W_ELIMIT;
        return NULL;
    }
    if (n > 2 && m * r > MAX_ZN_ENTRIES) {
        set_error("the tap matrix %llux%llu is too large for the dense native Z/n engine "
                  "(at most %llu entries)", (unsigned long long)m, (unsigned long long)r,
                  (unsigned long long)MAX_ZN_ENTRIES);
        *code = ML_W_ELIMIT;
        return NULL;
    }
    ml_w *s = new_solver(n, code);
    if (!s) return NULL;
    s->grid = 0;
    s->blen = s->nres = (size_t)n_cells;
    s->xlen = s->nsym = s->n_taps = (size_t)n_taps;
    int rc = alloc_work(s);
    if (rc) return fail(s, rc, code);
    if (n == 2) {
        s->nw = (s->nsym + 63) / 64;
        s->M2 = calloc(s->nres * s->nw + 1, sizeof(uint64_t));
        if (!s->M2) return fail(s, ML_W_ENOMEM, code);
        for (int32_t j = 0; j < n_taps; j++)
            for (int32_t t = indptr[j]; t < indptr[j + 1]; t++)
                s->M2[(size_t)cells[t] * s->nw + (size_t)j / 64] ^= (uint64_t)1 << (j % 64);
        if ((rc = factor_gf2(s))) return fail(s, rc, code);
    } else {
        uint8_t *M = calloc(s->nres * s->nsym + 1, 1);
        if (!M) return fail(s, ML_W_ENOMEM, code);
        for (int32_t j = 0; j < n_taps; j++)
            for (int32_t t = indptr[j]; t < indptr[j + 1]; t++) {
                uint8_t *e = &M[(size_t)cells[t] * s->nsym + (size_t)j];
                *e = (uint8_t)((*e + 1) % n);
            }
        rc = factor_zn(s, M);
        free(M);
        if (rc) return fail(s, rc, code);
    }
    *code = ML_W_OK;
    return s;
}

/* 1 when s is a live solver; else 0 with the error text set. */
static int solver_live(const ml_w *s)
{
    if (s && s->magic == ML_W_MAGIC) return 1;
    set_error("not a live solver (disposed, or never made)");
    return 0;
}

ML_W_EXPORT(ml_w_dispose) void ml_w_dispose(ml_w *s)
{
    if (!s || s->magic != ML_W_MAGIC) return;
    s->magic = 0;
    if (s->plan) ml_chase_free(s->plan);
    for (int i = 0; i < s->nparts; i++) ml_zn_lu_free(s->parts[i].lu);
    free(s->M2);
    free(s->H);
    free(s->orders);
    free(s->rho);
    free(s->z);
    free(s->zero_b);
    free(s);
}

/* ------------------------------------------------------------------ questions */
static size_t nullity_of(const ml_w *s)
{
    if (s->n == 2) return s->nsym - s->rank2;
    size_t k = 0;
    for (int i = 0; i < s->nparts; i++) {
        size_t g = ml_zn_lu_ngens(s->parts[i].lu);
        if (g > k) k = g;
    }
    return k;
}

ML_W_EXPORT(ml_w_sizes) void ml_w_sizes(const ml_w *s, int32_t *out)
{
    if (!out) return;
    if (!solver_live(s)) { memset(out, 0, 6 * sizeof *out); return; }
    out[0] = (int32_t)s->blen;
    out[1] = (int32_t)s->xlen;
    out[2] = (int32_t)s->n_taps;
    out[3] = (int32_t)nullity_of(s);
    out[4] = (int32_t)s->nsym;
    out[5] = (int32_t)s->nres;
}

ML_W_EXPORT(ml_w_kernel_factors) int32_t ml_w_kernel_factors(const ml_w *s, int32_t *pe)
{
    if (!pe || !solver_live(s)) return 0;
    if (s->n == 2) {
        pe[0] = 2;
        pe[1] = (int32_t)(s->nsym - s->rank2);
        return 1;
    }
    for (int i = 0; i < s->nparts; i++) {
        pe[2 * i] = (int32_t)s->parts[i].p;
        pe[2 * i + 1] = (int32_t)ml_zn_lu_kernel_log(s->parts[i].lu);
    }
    return s->nparts;
}

/* Solve M z = rho (s->rho) into s->z: 1 solvable, 0 not, negative on failure. */
static int res_solve(ml_w *s)
{
    if (s->nsym == 0) return !any_nonzero(s->rho, s->nres);
    memset(s->z, 0, s->nsym);
    if (s->nres == 0) return 1;
    if (s->n == 2) {
        uint8_t ok = 0;
        size_t rk = ml_res_gf2_solve(s->M2, s->nres, s->nsym, s->rho, 1, s->z, &ok);
        if (interrupted()) return ML_W_INTERRUPTED;
        if (rk == (size_t)-1) return ML_W_ENOMEM;
        return ok;
    }
    uint8_t *bq = malloc(s->nres), *xq = malloc(s->nsym);
    if (!bq || !xq) { free(bq); free(xq); return ML_W_ENOMEM; }
    int good = 1;
    for (int i = 0; i < s->nparts && good; i++) {
        part_t *pt = &s->parts[i];
        for (size_t j = 0; j < s->nres; j++) bq[j] = (uint8_t)(s->rho[j] % pt->q);
        uint8_t ok = 0;
        if (ml_zn_lu_solve(pt->lu, bq, 1, xq, &ok, 1) != 0) { good = ML_W_ENOMEM; break; }
        if (!ok) { good = 0; break; }
        for (size_t j = 0; j < s->nsym; j++)
            s->z[j] = (uint8_t)((s->z[j] + (unsigned)xq[j] * pt->idem) % (unsigned)s->n);
    }
    free(bq);
    free(xq);
    if (interrupted()) return ML_W_INTERRUPTED;
    return good;
}

static int check_values(const ml_w *s, const uint8_t *b)
{
    if (!solver_live(s)) return ML_W_EINVAL;
    if (!b) { set_error("no right-hand side given"); return ML_W_EINVAL; }
    for (size_t i = 0; i < s->blen; i++)
        if (b[i] >= s->n) {
            set_error("right-hand side values must be in 0..%d", s->n - 1);
            return ML_W_EINVAL;
        }
    return 0;
}

static int solve_into(ml_w *s, const uint8_t *b, uint8_t *x)
{
    if (s->grid) {
        ml_chase_numeric(s->plan, b, NULL, x, s->rho);
        if (!s->nres || !any_nonzero(s->rho, s->nres)) return ML_W_OK;
        int ok = res_solve(s);
        if (ok < 0) return ok;
        if (!ok) return ML_W_UNSOLVABLE;
        ml_chase_numeric(s->plan, b, s->z, x, s->rho);
        return ML_W_OK;
    }
    memcpy(s->rho, b, s->nres);
    int ok = res_solve(s);
    if (ok < 0) return ok;
    if (!ok) return ML_W_UNSOLVABLE;
    memcpy(x, s->z, s->nsym);
    return ML_W_OK;
}

ML_W_EXPORT(ml_w_solve) int32_t ml_w_solve(ml_w *s, const uint8_t *b, uint8_t *x)
{
    errbuf[0] = 0;
    ml_interrupt_take();
    if (!x) { set_error("no output buffer given"); return ML_W_EINVAL; }
    int rc = check_values(s, b);
    if (rc) return rc;
    rc = solve_into(s, b, x);
    if (rc == ML_W_ENOMEM) set_error("out of memory in the WebAssembly core");
    if (rc == ML_W_INTERRUPTED) set_error("interrupted");
    return rc;
}

/* The kernel generators over the taps (Solver._search_generators): all of them when
 * they fit in MAX_SEARCH_BYTES (every = 1), else the first that fit (every = 0);
 * ML_W_ELIMIT past MAX_KERNEL_BYTES, as modlights.solver. */
static int build_generators(ml_w *s)
{
    if (s->have_gens) return 0;
    size_t null = nullity_of(s);
    size_t r = s->n_taps ? s->n_taps : 1;
    size_t limit = null;
    s->every = 1;
    if ((uint64_t)null * r > MAX_SEARCH_BYTES) {
        limit = MAX_SEARCH_BYTES / r;
        if (limit < 1) limit = 1;
        if (limit >= null) limit = null;
        else s->every = 0;
    }
    if ((uint64_t)limit * s->n_taps > MAX_KERNEL_BYTES) {
        uint64_t nbytes = (uint64_t)null * s->n_taps;
        set_error("the kernel has %zu generators of %zu taps: %llu bytes (%.1f GiB) as a "
                  "dense array, more than the %llu GiB allowed; nullity, rank and "
                  "kernel_size are available without it", null, s->n_taps,
                  (unsigned long long)nbytes, (double)nbytes / 1073741824.0,
                  (unsigned long long)(MAX_KERNEL_BYTES >> 30));
        return ML_W_ELIMIT;
    }
    /* What is allocated below: limit x nsym (Z, h) and limit x xlen (H) bytes. Checked
     * in 64 bits, before anything is allocated: size_t is 32 bits in wasm32. */
    const uint64_t zbytes = (uint64_t)limit * s->nsym, hbytes = (uint64_t)limit * s->xlen;
    if (zbytes > MAX_KERNEL_BYTES || hbytes > MAX_KERNEL_BYTES) {
        uint64_t nbytes = zbytes > hbytes ? zbytes : hbytes;
        set_error("the minimal search needs %zu kernel generators over %zu values each: "
                  "%llu bytes (%.1f GiB), more than the %llu GiB allowed; nullity, rank "
                  "and kernel_size are available without it", limit,
                  zbytes > hbytes ? s->nsym : s->xlen, (unsigned long long)nbytes,
                  (double)nbytes / 1073741824.0,
                  (unsigned long long)(MAX_KERNEL_BYTES >> 30));
        return ML_W_ELIMIT;
    }
    uint8_t *Z = NULL;                    /* limit x nsym generators of ker M */
    uint32_t *ords = calloc(limit + 1, sizeof(uint32_t));
    if (!ords) return ML_W_ENOMEM;
    if (s->n == 2) {
        uint8_t *K = NULL;
        if (s->nres == 0) {               /* ker M is everything: the first unit vectors */
            K = calloc((size_t)zbytes + 1, 1);
            if (!K) { free(ords); return ML_W_ENOMEM; }
            for (size_t i = 0; i < limit; i++) K[i * s->nsym + i] = 1;
        } else if (null) {
            size_t got = ml_res_gf2_kernel_first(s->M2, s->nres, s->nsym, limit, &K);
            if (interrupted()) { free(K); free(ords); return ML_W_INTERRUPTED; }
            if (got == (size_t)-1 || got != null) { free(K); free(ords); return ML_W_ENOMEM; }
        }
        Z = K;
        for (size_t i = 0; i < limit; i++) ords[i] = 2;
    } else {
        Z = calloc((size_t)zbytes + 1, 1);
        uint8_t *h = calloc((size_t)zbytes + 1, 1);
        unsigned *o = calloc(limit + 1, sizeof(unsigned));
        if (!Z || !h || !o) { free(Z); free(h); free(o); free(ords); return ML_W_ENOMEM; }
        for (size_t i = 0; i < limit; i++) ords[i] = 1;
        for (int pi = 0; pi < s->nparts; pi++) {
            part_t *pt = &s->parts[pi];
            size_t g = ml_zn_lu_ngens(pt->lu);
            size_t c = g < limit ? g : limit;
            if (!c) continue;
            if (ml_zn_lu_generators_range(pt->lu, 0, c, h, o) != 0) {
                free(Z); free(h); free(o); free(ords);
                return interrupted() ? ML_W_INTERRUPTED : ML_W_ENOMEM;
            }
            for (size_t i = 0; i < c; i++) {
                for (size_t j = 0; j < s->nsym; j++) {
                    uint8_t *e = &Z[i * s->nsym + j];
                    *e = (uint8_t)((*e + (unsigned)h[i * s->nsym + j] * pt->idem) % (unsigned)s->n);
                }
                ords[i] *= o[i];
            }
        }
        free(h);
        free(o);
    }
    uint8_t *H = calloc((size_t)hbytes + 1, 1);
    if (!H) { free(Z); free(ords); return ML_W_ENOMEM; }
    for (size_t i = 0; i < limit; i++) {
        if (s->grid)
            ml_chase_numeric(s->plan, s->zero_b, Z + i * s->nsym, H + i * s->xlen, s->rho);
        else
            memcpy(H + i * s->xlen, Z + i * s->nsym, s->nsym);
    }
    free(Z);
    /* the canonical generators when within their work bound, as modlights.solver (the
     * decision on n_taps, the tap vector's length there; the zero columns of locked
     * taps and holes in H change nothing in the canonical form) */
    size_t kept = limit;
    s->canonical = 0;
    if (s->every && limit && ml_canon_fits(limit, s->n_taps, (unsigned)s->n)) {
        /* out of memory for the canonical form: the generators as they are (as
         * modlights.solver does on a MemoryError) */
        uint8_t *C = calloc((size_t)hbytes + 1, 1);
        uint32_t *co = calloc(limit + 1, sizeof(uint32_t));
        size_t got = C && co ? ml_canon_basis(H, limit, s->xlen, (unsigned)s->n, C, co)
                             : ML_CANON_ENOMEM;
        if (got == ML_CANON_INTERRUPTED) {
            free(C); free(co); free(H); free(ords);
            return ML_W_INTERRUPTED;
        }
        if (got == ML_CANON_ENOMEM) {
            free(C);
            free(co);
        } else {
            free(H);
            free(ords);
            H = C;
            ords = co;
            kept = got;
            s->canonical = 1;
        }
    }
    s->H = H;
    s->orders = ords;
    s->k = kept;
    s->have_gens = 1;
    return 0;
}

/* Greedy descent (search/driver.c, the one modlights.search.minimal.descend calls). */
static int descend(ml_w *s, uint8_t *x)
{
    return ml_driver_descend(s->H, s->k, s->xlen, s->orders, (unsigned)s->n, x, 0) == ML_DRIVER_OK
               ? 0
               : ML_W_INTERRUPTED;
}

ML_W_EXPORT(ml_w_minimal)
int32_t ml_w_minimal(ml_w *s, const uint8_t *b, double budget, uint8_t *x, double *out)
{
    errbuf[0] = 0;
    ml_interrupt_take();
    if (!out || !x) { set_error("no output buffer given"); return ML_W_EINVAL; }
    out[0] = out[1] = out[2] = 0;
    if (!(budget >= 0)) { set_error("budget must be >= 0"); return ML_W_EINVAL; }
    int rc = check_values(s, b);
    if (rc) return rc;
    rc = solve_into(s, b, x);
    if (rc) goto done;
    rc = build_generators(s);
    if (rc) goto done;
    const size_t L = s->xlen;
    /* the canonical representative of the coset, as modlights.search.minimal */
    if (s->canonical && ml_canon_reduce(s->H, s->k, L, (unsigned)s->n, x, 1) != 0) {
        rc = ML_W_ENOMEM;
        goto done;
    }
    /* the coset's size, and the longest prefix of generators under 2^62 elements */
    size_t k = 0;
    uint64_t size = 1;
    const uint64_t cap = ((uint64_t)1 << 62) - 1;
    while (k < s->k && size <= cap / s->orders[k]) { size *= s->orders[k]; k++; }
    if (s->k == 0 && s->every) { out[0] = 1; out[1] = 1; rc = ML_W_OK; goto done; }
    uint64_t steps = budget >= 9.2e18 ? (uint64_t)INT64_MAX : (uint64_t)budget;
    if (steps == 0) {
        int zero = !any_nonzero(x, L);
        rc = descend(s, x);
        if (rc) goto done;
        out[0] = zero;
        goto done;
    }
    uint8_t *best = calloc(L + 1, 1);
    if (!best) { rc = ML_W_ENOMEM; goto done; }
    ml_coset_stats st = {0, 0, 0};
    int64_t len;
    if (s->n == 2) {
        const size_t nw = (L + 63) / 64 ? (L + 63) / 64 : 1;
        uint64_t *xp = calloc(nw, 8), *gp = calloc(nw * (k ? k : 1), 8), *bp = calloc(nw, 8);
        if (!xp || !gp || !bp) { free(xp); free(gp); free(bp); free(best); rc = ML_W_ENOMEM; goto done; }
        for (size_t j = 0; j < L; j++) xp[j / 64] |= (uint64_t)(x[j] & 1) << (j % 64);
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < L; j++)
                gp[i * nw + j / 64] |= (uint64_t)(s->H[i * L + j] & 1) << (j % 64);
        len = ml_coset_min_gf2(xp, gp, k, nw, steps, 0.0, 1, bp, &st);
        for (size_t j = 0; j < L; j++) best[j] = (uint8_t)((bp[j / 64] >> (j % 64)) & 1);
        free(xp); free(gp); free(bp);
    } else if (L == 0) {
        len = 0;
        st.examined = 1;
        st.complete = 1;
    } else {
        static const uint32_t one_order[1] = {0};
        len = ml_coset_min_zn(x, k ? s->H : x, k ? s->orders : one_order, k, L,
                              (unsigned)s->n, steps, 0.0, 1, best, &st);
    }
    if (interrupted()) { free(best); rc = ML_W_INTERRUPTED; goto done; }
    if (len < 0) { free(best); rc = ML_W_ENOMEM; goto done; }
    int complete = (st.complete && k == s->k && s->every) || !any_nonzero(best, L);
    memcpy(x, best, L);
    free(best);
    if (!complete && (rc = descend(s, x))) goto done;
    out[0] = complete;
    out[1] = (double)st.examined;
    out[2] = (double)st.pruned;
    rc = ML_W_OK;
done:
    if (rc == ML_W_ENOMEM) set_error("out of memory in the WebAssembly core");
    if (rc == ML_W_INTERRUPTED) set_error("interrupted");
    return rc;
}
