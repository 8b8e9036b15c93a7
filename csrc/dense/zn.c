/* zn.c: factorisation of matrices over Z/p^eZ (see zn.h for the method). */
#include "dense/zn.h"
#include "dense/bitsliced.h"
#include "base/interrupt.h"

#include <stdlib.h>
#include <string.h>

/* Panel width (columns) and the active width above which panels are cache blocked. */
#ifndef ML_ZN_PANEL
#define ML_ZN_PANEL 64
#endif
#ifndef ML_ZN_BLOCK_MIN
#define ML_ZN_BLOCK_MIN 384
#endif

struct ml_zn_lu {
    size_t m, r;
    unsigned q, p, e;
    uint16_t M;              /* floor(65536 / q): approximate quotient for reduction */
    uint16_t *wbuf;          /* m x r working matrix, uint16, delayed reduction */
    uint16_t **row;          /* row pointers (row swaps are pointer swaps) */
    size_t *perm0;           /* sorted row i is original row perm0[i] */
    size_t *lo0, *hi0;       /* bounds on each original row's non-zero columns [lo, hi) */
    int factored;
    int method;              /* ML_ZN_AUTO / BAND / BITSLICED: asked for, then used */
    /* phase 1: unit pivots, one per step k < K1 */
    size_t K1;
    size_t *pc, *rlo, *rhi, *ipiv, *lend, *loff;
    uint8_t *uinv;
    uint8_t *lpool;          /* multipliers of step k: rows k+1 .. lend[k]-1 */
    size_t llen, lcap;
    /* skipped (non-pivot) columns, ascending */
    size_t r2;
    size_t *skip;
    /* phase 2: residual block S (m2 x r2) over the maximal ideal, full pivoting */
    size_t m2, K2;
    uint8_t *S;              /* L below the diagonal, T2' (divided) on and above */
    size_t *ipiv2, *cperm2;
    uint8_t *uinv2, *v2;
    /* det A = sign * detu * prod p^v2 (square, full rank) */
    unsigned detu;
    int sign;
};

/* ------------------------------------------------------------------ arithmetic */
unsigned ml_zn_inv(unsigned a, unsigned q)
{
    /* extended Euclid on small ints */
    int t = 0, nt = 1, rr = (int)q, nr = (int)(a % q);
    while (nr) {
        int quo = rr / nr, tmp;
        tmp = t - quo * nt; t = nt; nt = tmp;
        tmp = rr - quo * nr; rr = nr; nr = tmp;
    }
    if (rr != 1) return 0;
    if (t < 0) t += (int)q;
    return (unsigned)t;
}

static unsigned ipow(unsigned p, unsigned k)
{
    unsigned x = 1;
    while (k--) x *= p;
    return x;
}

static unsigned valuation(unsigned x, unsigned p, unsigned e)
{
    unsigned v = 0;
    if (!x) return e;
    while (x % p == 0) { x /= p; v++; }
    return v;
}

/* ------------------------------------------------------------------ kernels
 * Written so gcc -O3 vectorises them; compiled twice (baseline and AVX2) and
 * chosen at run time. x mod q for 16-bit x: qa = (x*M)>>16 is floor(x/q) or one
 * less, so one conditional subtraction finishes. */
#define ML_AI static inline __attribute__((always_inline))

ML_AI void axpy16_body(uint16_t *restrict d, const uint16_t *restrict s, uint16_t a, size_t n)
{
    for (size_t j = 0; j < n; j++) d[j] = (uint16_t)(d[j] + a * s[j]);
}

ML_AI void reduce16_body(uint16_t *restrict x, size_t n, uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = x[j];
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        x[j] = r >= q ? (uint16_t)(r - q) : r;
    }
}

ML_AI void scale16_body(uint16_t *restrict x, size_t n, uint16_t u, uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = (uint16_t)(x[j] * u);
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        x[j] = r >= q ? (uint16_t)(r - q) : r;
    }
}

/* d += a0*s0 + a1*s1 + a2*s2 + a3*s3, unreduced (the caller bounds the sums) */
ML_AI void axpy16x4_body(uint16_t *restrict d, const uint16_t *s0, const uint16_t *s1,
                         const uint16_t *s2, const uint16_t *s3, uint16_t a0, uint16_t a1,
                         uint16_t a2, uint16_t a3, size_t n)
{
    for (size_t j = 0; j < n; j++)
        d[j] = (uint16_t)(d[j] + a0 * s0[j] + a1 * s1[j] + a2 * s2[j] + a3 * s3[j]);
}

/* acc += w * x in 16 bits (the caller bounds the sum) */
ML_AI void acc16_body(uint16_t *restrict acc, const uint8_t *restrict x, uint16_t w, size_t n)
{
    for (size_t j = 0; j < n; j++) acc[j] = (uint16_t)(acc[j] + w * x[j]);
}

/* d = (c - acc) mod q, c reduced (or NULL for 0), acc any 16-bit value */
ML_AI void finish16_body(uint8_t *restrict d, const uint8_t *restrict c, const uint16_t *restrict acc,
                         size_t n, uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = acc[j];
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        r = r >= q ? (uint16_t)(r - q) : r;                 /* acc mod q */
        uint16_t x = (uint16_t)((c ? c[j] : 0) + q - r);
        d[j] = (uint8_t)(x >= q ? x - q : x);
    }
}

/* the same for 32-bit sums: floor(2^32/q) approximates the quotient to within one */
ML_AI void finish32_body(uint8_t *restrict d, const uint8_t *restrict c, const uint32_t *restrict acc,
                         size_t n, uint32_t q, uint32_t M32)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t v = acc[j];
        uint32_t qa = (uint32_t)(((uint64_t)v * M32) >> 32);
        uint32_t r = v - qa * q;
        r = r >= q ? r - q : r;
        uint32_t x = (c ? c[j] : 0) + q - r;
        d[j] = (uint8_t)(x >= q ? x - q : x);
    }
}

/* sum w[j] * x[j] for reduced entries (n <= 65535 keeps it in 32 bits) */
ML_AI uint32_t dot16x8_body(const uint16_t *restrict w, const uint8_t *restrict x, size_t n)
{
    uint32_t s = 0;
    for (size_t j = 0; j < n; j++) s += (uint32_t)w[j] * x[j];
    return s;
}

/* d = (d + a*s) mod q on reduced uint8 vectors */
ML_AI void axpy8_body(uint8_t *restrict d, const uint8_t *restrict s, uint16_t a, size_t n,
                      uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = (uint16_t)(d[j] + a * s[j]);
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        d[j] = (uint8_t)(r >= q ? r - q : r);
    }
}

ML_AI void scale8_body(uint8_t *restrict x, size_t n, uint16_t u, uint16_t q, uint16_t M)
{
    for (size_t j = 0; j < n; j++) {
        uint16_t v = (uint16_t)(x[j] * u);
        uint16_t qa = (uint16_t)(((uint32_t)v * M) >> 16);
        uint16_t r = (uint16_t)(v - qa * q);
        x[j] = (uint8_t)(r >= q ? r - q : r);
    }
}

/* acc += w * x (delayed reduction: products <= 254^2, up to 65536 terms fit) */
ML_AI void acc32_body(uint32_t *restrict acc, const uint8_t *restrict x, uint32_t w, size_t n)
{
    for (size_t j = 0; j < n; j++) acc[j] += w * x[j];
}

typedef struct {
    void (*axpy16)(uint16_t *, const uint16_t *, uint16_t, size_t);
    void (*reduce16)(uint16_t *, size_t, uint16_t, uint16_t);
    void (*scale16)(uint16_t *, size_t, uint16_t, uint16_t, uint16_t);
    void (*axpy8)(uint8_t *, const uint8_t *, uint16_t, size_t, uint16_t, uint16_t);
    void (*scale8)(uint8_t *, size_t, uint16_t, uint16_t, uint16_t);
    void (*acc32)(uint32_t *, const uint8_t *, uint32_t, size_t);
    void (*axpy16x4)(uint16_t *, const uint16_t *, const uint16_t *, const uint16_t *,
                     const uint16_t *, uint16_t, uint16_t, uint16_t, uint16_t, size_t);
    uint32_t (*dot16x8)(const uint16_t *, const uint8_t *, size_t);
    void (*acc16)(uint16_t *, const uint8_t *, uint16_t, size_t);
    void (*finish16)(uint8_t *, const uint8_t *, const uint16_t *, size_t, uint16_t, uint16_t);
    void (*finish32)(uint8_t *, const uint8_t *, const uint32_t *, size_t, uint32_t, uint32_t);
} zn_kernels_t;

#define ML_DEFINE_KERNELS(SUF, ATTR)                                                        \
    ATTR static void axpy16_##SUF(uint16_t *d, const uint16_t *s, uint16_t a, size_t n)     \
    { axpy16_body(d, s, a, n); }                                                            \
    ATTR static void reduce16_##SUF(uint16_t *x, size_t n, uint16_t q, uint16_t M)          \
    { reduce16_body(x, n, q, M); }                                                          \
    ATTR static void scale16_##SUF(uint16_t *x, size_t n, uint16_t u, uint16_t q, uint16_t M) \
    { scale16_body(x, n, u, q, M); }                                                        \
    ATTR static void axpy8_##SUF(uint8_t *d, const uint8_t *s, uint16_t a, size_t n,        \
                                 uint16_t q, uint16_t M)                                    \
    { axpy8_body(d, s, a, n, q, M); }                                                       \
    ATTR static void scale8_##SUF(uint8_t *x, size_t n, uint16_t u, uint16_t q, uint16_t M) \
    { scale8_body(x, n, u, q, M); }                                                         \
    ATTR static void acc32_##SUF(uint32_t *acc, const uint8_t *x, uint32_t w, size_t n)     \
    { acc32_body(acc, x, w, n); }                                                           \
    ATTR static void axpy16x4_##SUF(uint16_t *d, const uint16_t *s0, const uint16_t *s1,    \
                                    const uint16_t *s2, const uint16_t *s3, uint16_t a0,    \
                                    uint16_t a1, uint16_t a2, uint16_t a3, size_t n)        \
    { axpy16x4_body(d, s0, s1, s2, s3, a0, a1, a2, a3, n); }                                \
    ATTR static uint32_t dot16x8_##SUF(const uint16_t *w, const uint8_t *x, size_t n)       \
    { return dot16x8_body(w, x, n); }                                                       \
    ATTR static void acc16_##SUF(uint16_t *acc, const uint8_t *x, uint16_t w, size_t n)     \
    { acc16_body(acc, x, w, n); }                                                           \
    ATTR static void finish16_##SUF(uint8_t *d, const uint8_t *c, const uint16_t *acc,      \
                                    size_t n, uint16_t q, uint16_t M)                       \
    { finish16_body(d, c, acc, n, q, M); }                                                  \
    ATTR static void finish32_##SUF(uint8_t *d, const uint8_t *c, const uint32_t *acc,      \
                                    size_t n, uint32_t q, uint32_t M32)                     \
    { finish32_body(d, c, acc, n, q, M32); }                                                \
    static const zn_kernels_t zn_kernels_##SUF = {                                          \
        axpy16_##SUF, reduce16_##SUF, scale16_##SUF, axpy8_##SUF, scale8_##SUF, acc32_##SUF, \
        axpy16x4_##SUF, dot16x8_##SUF, acc16_##SUF, finish16_##SUF, finish32_##SUF };

ML_DEFINE_KERNELS(base, )
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ML_HAVE_AVX2_PATH 1
ML_DEFINE_KERNELS(avx2, __attribute__((target("avx2"))))
#endif

/* The kernel table for this CPU (AVX2 unless MODLIGHTS_NO_SIMD is set); chosen once,
 * threads racing here all store the same pointer. */
static const zn_kernels_t *zn_k(void)
{
    static const zn_kernels_t *chosen = NULL;
    const zn_kernels_t *k = __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
    if (!k) {
        k = &zn_kernels_base;
#ifdef ML_HAVE_AVX2_PATH
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2") && !getenv("MODLIGHTS_NO_SIMD"))
            k = &zn_kernels_avx2;
#endif
        __atomic_store_n(&chosen, k, __ATOMIC_RELEASE);
    }
    return k;
}

/* ------------------------------------------------------------------ life cycle */
static void *xcalloc(size_t n, size_t sz) { return calloc(n ? n : 1, sz); }
static void *xmalloc(size_t n) { return malloc(n ? n : 1); }

ml_zn_lu_t *ml_zn_lu_new(size_t m, size_t r, unsigned q)
{
    unsigned p = 0, e = 0, x;
    if (q < 2 || q > 255) return NULL;
    for (unsigned d = 2; d <= q; d++)
        if (q % d == 0) { p = d; break; }
    for (x = q; x % p == 0; x /= p) e++;
    if (x != 1) return NULL;                     /* not a prime power */
    if (r && m > SIZE_MAX / 2 / r) return NULL;
    ml_zn_lu_t *lu = calloc(1, sizeof *lu);
    if (!lu) return NULL;
    lu->m = m; lu->r = r; lu->q = q; lu->p = p; lu->e = e;
    lu->M = (uint16_t)(65536u / q);
    lu->wbuf = xcalloc(m * r, sizeof(uint16_t));
    lu->row = xcalloc(m, sizeof(uint16_t *));
    lu->perm0 = xcalloc(m, sizeof(size_t));
    lu->lo0 = xmalloc(m * sizeof(size_t));
    lu->hi0 = xcalloc(m, sizeof(size_t));
    if (!lu->wbuf || !lu->row || !lu->perm0 || !lu->lo0 || !lu->hi0) {
        ml_zn_lu_free(lu);
        return NULL;
    }
    for (size_t i = 0; i < m; i++) lu->lo0[i] = r;
    lu->detu = 1 % q;
    lu->sign = 1;
    return lu;
}

void ml_zn_lu_free(ml_zn_lu_t *lu)
{
    if (!lu) return;
    free(lu->wbuf); free(lu->row); free(lu->perm0); free(lu->lo0); free(lu->hi0);
    free(lu->pc); free(lu->rlo); free(lu->rhi); free(lu->ipiv); free(lu->lend); free(lu->loff);
    free(lu->uinv); free(lu->lpool); free(lu->skip);
    free(lu->S); free(lu->ipiv2); free(lu->cperm2); free(lu->uinv2); free(lu->v2);
    free(lu);
}

void ml_zn_lu_set_dense(ml_zn_lu_t *lu, const uint8_t *a, size_t stride)
{
    const zn_kernels_t *K = zn_k();
    const size_t r = lu->r;
    for (size_t i = 0; i < lu->m; i++) {
        const uint8_t *src = a + i * stride;
        uint16_t *dst = lu->wbuf + i * r;
        for (size_t j = 0; j < r; j++) dst[j] = src[j];
        K->reduce16(dst, r, (uint16_t)lu->q, lu->M);
        size_t lo = 0, hi = r;
        while (lo < r && !dst[lo]) lo++;
        while (hi > lo && !dst[hi - 1]) hi--;
        lu->lo0[i] = lo; lu->hi0[i] = hi;
    }
}

void ml_zn_lu_add_coo(ml_zn_lu_t *lu, const int64_t *ci, const int64_t *tj, size_t nnz)
{
    for (size_t k = 0; k < nnz; k++) {
        size_t i = (size_t)ci[k], j = (size_t)tj[k];
        uint16_t *w = lu->wbuf + i * lu->r + j;
        uint16_t v = (uint16_t)(*w + 1);
        *w = v == lu->q ? 0 : v;
        if (j < lu->lo0[i]) lu->lo0[i] = j;       /* conservative: entries may cancel */
        if (j + 1 > lu->hi0[i]) lu->hi0[i] = j + 1;
    }
}

unsigned ml_zn_lu_p(const ml_zn_lu_t *lu) { return lu->p; }
unsigned ml_zn_lu_e(const ml_zn_lu_t *lu) { return lu->e; }
size_t ml_zn_lu_unit_rank(const ml_zn_lu_t *lu) { return lu->K1; }
size_t ml_zn_lu_rank(const ml_zn_lu_t *lu) { return lu->K1 + lu->K2; }
size_t ml_zn_lu_ngens(const ml_zn_lu_t *lu) { return lu->r - lu->K1; }

size_t ml_zn_lu_kernel_log(const ml_zn_lu_t *lu)
{
    size_t s = (lu->r2 - lu->K2) * lu->e;
    for (size_t k = 0; k < lu->K2; k++) s += lu->v2[k];
    return s;
}

/* ------------------------------------------------------------------ factor */
/* first index s with a[s] >= x in the ascending a[0..n) */
static size_t lower_bound(const size_t *a, size_t n, size_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}
/* the sign of the column permutation [pivot columns, skipped columns] into lu->sign */
static void column_sign(ml_zn_lu_t *lu, size_t t)
{
    size_t ns = 0, k = 0, inv = 0;
    for (size_t col = 0; col < lu->r; col++) {
        if (k < t && lu->pc[k] == col) { inv += ns; k++; }
        else ns++;
    }
    if (inv & 1) lu->sign = -lu->sign;
}

/* Row extents (kept by set_dense / add_coo) into lo0 / hi0 (m each; empty rows
 * [r, 0)), then a stable counting sort of the rows by first non-zero into perm0, its
 * parity into sign. cnt: r + 2 zeros. 0, or -1 on allocation failure. */
static int sort_rows(ml_zn_lu_t *lu, size_t *lo0, size_t *hi0, size_t *cnt)
{
    const size_t m = lu->m, r = lu->r;
    for (size_t i = 0; i < m; i++) {
        size_t a = lu->lo0[i], b = lu->hi0[i];
        if (a >= b) { a = r; b = 0; }
        lo0[i] = a; hi0[i] = b;
        cnt[a + 1]++;
    }
    for (size_t c = 0; c <= r; c++) cnt[c + 1] += cnt[c];
    for (size_t i = 0; i < m; i++) lu->perm0[cnt[lo0[i]]++] = i;
    char *seen = xcalloc(m, 1);          /* parity of perm0 */
    if (!seen) return -1;
    for (size_t i = 0; i < m; i++) {
        if (seen[i]) continue;
        size_t len = 0;
        for (size_t j = i; !seen[j]; j = lu->perm0[j]) { seen[j] = 1; len++; }
        if (len % 2 == 0) lu->sign = -lu->sign;
    }
    free(seen);
    return 0;
}

/* The phase-1 records of a factorisation (kmax pivots at most, r columns) and a
 * multiplier pool of lcap bytes; 1 when an allocation failed (the caller's cleanup
 * frees whatever was allocated). */
static int alloc_records(ml_zn_lu_t *lu, size_t kmax, size_t lcap)
{
    const size_t r = lu->r;
    lu->pc = xmalloc(kmax * sizeof(size_t));
    lu->rlo = xmalloc(kmax * sizeof(size_t));
    lu->rhi = xmalloc(kmax * sizeof(size_t));
    lu->ipiv = xmalloc(kmax * sizeof(size_t));
    lu->lend = xmalloc(kmax * sizeof(size_t));
    lu->loff = xmalloc(kmax * sizeof(size_t));
    lu->uinv = xmalloc(kmax);
    lu->skip = xmalloc(r * sizeof(size_t));
    lu->lcap = lcap;
    lu->lpool = xmalloc(lcap);
    return !lu->pc || !lu->rlo || !lu->rhi || !lu->ipiv || !lu->lend || !lu->loff ||
           !lu->uinv || !lu->skip || !lu->lpool;
}

static int phase1(ml_zn_lu_t *lu)
{
    const size_t m = lu->m, r = lu->r;
    const uint16_t q = (uint16_t)lu->q, p = (uint16_t)lu->p, M = lu->M;
    const zn_kernels_t *K = zn_k();
    size_t kmax = m < r ? m : r;
    size_t *lo0 = xmalloc(m * sizeof(size_t)), *hi0 = xmalloc(m * sizeof(size_t));
    size_t *cnt = xcalloc(r + 2, sizeof(size_t));
    size_t *los = xmalloc(m * sizeof(size_t)), *his = xmalloc(m * sizeof(size_t));
    size_t *locur = xmalloc(m * sizeof(size_t));
    uint32_t *ub = xmalloc(m * sizeof(uint32_t)), *ubr = xmalloc(m * sizeof(uint32_t));
    uint8_t *mult = xmalloc(m * ML_ZN_PANEL);
    size_t *spj = xmalloc(r * sizeof(size_t));
    uint16_t *spv = xmalloc(r * sizeof(uint16_t));
    const unsigned e = lu->e;
    int rc = -1;
    if (alloc_records(lu, kmax, 4096)) goto done;
    if (!ubr || !mult || !spj || !spv || !lo0 || !hi0 || !cnt || !los || !his || !locur || !ub)
        goto done;

    if (sort_rows(lu, lo0, hi0, cnt)) goto done;
    for (size_t i = 0; i < m; i++) {
        size_t o = lu->perm0[i];
        lu->row[i] = lu->wbuf + o * r;
        los[i] = lo0[o]; his[i] = hi0[o]; locur[i] = lo0[o];
        ub[i] = q - 1u; ubr[i] = q - 1u;
    }

    /* Panels of PB columns. A panel is "blocked" when the active width G - c0 is large
     * (dense matrices, wide bands): row operations then touch only the panel's columns,
     * the multipliers are kept per physical row, and the rest of every row (columns
     * >= c1, and for rings the skipped columns < c0) is updated once per panel with
     * up to 4 pivot rows per pass: each row is read and written once per panel instead
     * of once per pivot (cache blocking), with the sums kept unreduced in uint16. */
    const size_t PB = ML_ZN_PANEL;
    const uint32_t step = (uint32_t)(q - 1u);
    size_t t = 0, c = 0, E = 0, G = 0, r2 = 0;
    while (c < r && t < m) {
        if (ml_interrupt_poll()) goto done;      /* Ctrl-C: rc = -1, the caller drops lu */
        const size_t c0 = c, c1 = c0 + PB < r ? c0 + PB : r, k0 = t;
        while (E < m && los[E] <= c) { if (his[E] > G) G = his[E]; E++; }
        const int blocked = G > c0 + ML_ZN_BLOCK_MIN;
        if (blocked)
            for (size_t i = t; i < E; i++) {
                memset(mult + (size_t)(lu->row[i] - lu->wbuf) / r * PB, 0, PB);
                ubr[i] = ub[i];
            }
        while (c < c1 && t < m) {
            while (E < m && los[E] <= c) {
                if (his[E] > G) G = his[E];
                if (blocked) {
                    memset(mult + (size_t)(lu->row[E] - lu->wbuf) / r * PB, 0, PB);
                    ubr[E] = ub[E];
                }
                E++;
            }
            const size_t hiop = blocked ? c1 : G;     /* row operations stop here */
            size_t piv = SIZE_MAX;
            for (size_t i = t; i < E; i++) {
                uint16_t x = (uint16_t)(lu->row[i][c] % q);
                lu->row[i][c] = x;
                if (x % p) { piv = i; break; }
            }
            if (piv == SIZE_MAX) { lu->skip[r2++] = c++; continue; }
            if (piv != t) {
                uint16_t *tp = lu->row[t]; lu->row[t] = lu->row[piv]; lu->row[piv] = tp;
                uint32_t tu = ub[t]; ub[t] = ub[piv]; ub[piv] = tu;
                tu = ubr[t]; ubr[t] = ubr[piv]; ubr[piv] = tu;
                size_t tl = locur[t]; locur[t] = locur[piv]; locur[piv] = tl;
                lu->sign = -lu->sign;
            }
            lu->ipiv[t] = piv;
            uint16_t *pr = lu->row[t];
            /* first column of the pivot row that row operations must cover */
            size_t f = locur[t] < c ? locur[t] : c;
            size_t nsp = 0;                           /* sparse skipped entries (rings) */
            int sparse = 0;
            uint16_t u, ui;
            if (e == 1) f = c;                        /* field: everything left of c is zero */
            if (e > 1 && !blocked) {
                /* left of c a row can be non-zero only at skipped columns */
                size_t s0 = lower_bound(lu->skip, r2, locur[t]);
                u = (uint16_t)(pr[c] % q);
                ui = (uint16_t)ml_zn_inv(u, q);
                f = c;
                for (size_t s = s0; s < r2; s++) {
                    size_t j = lu->skip[s];
                    uint16_t v = (uint16_t)((uint32_t)(pr[j] % q) * ui % q);
                    pr[j] = v;
                    if (v) { if (!nsp) f = j; spj[nsp] = j; spv[nsp] = v; nsp++; }
                }
                K->reduce16(pr + c, hiop - c, q, M);
                if (ui != 1) K->scale16(pr + c, hiop - c, ui, q, M);
                sparse = nsp * 8 < c - f;
            } else {
                if (blocked && f < c0) f = c0;        /* columns < c0 wait for the panel end */
                while (f < c && pr[f] % q == 0) { pr[f] = 0; f++; }
                K->reduce16(pr + f, hiop - f, q, M);
                u = pr[c];
                ui = (uint16_t)ml_zn_inv(u, q);
                if (ui != 1) K->scale16(pr + f, hiop - f, ui, q, M);
            }
            const size_t fop = sparse ? c : f;        /* contiguous part of row operations */
            lu->detu = lu->detu * u % q;
            lu->pc[t] = c; lu->rlo[t] = f; lu->rhi[t] = G; lu->uinv[t] = (uint8_t)ui;
            size_t nl = E - t - 1;
            if (lu->llen + nl > lu->lcap) {
                size_t nc = lu->lcap * 2;
                while (nc < lu->llen + nl) nc *= 2;
                uint8_t *np = realloc(lu->lpool, nc);
                if (!np) goto done;
                lu->lpool = np; lu->lcap = nc;
            }
            lu->loff[t] = lu->llen; lu->lend[t] = E;
            uint8_t *L = lu->lpool + lu->llen;
            lu->llen += nl;
            for (size_t i = t + 1; i < E; i++) {
                uint16_t *ri = lu->row[i];
                uint16_t x = (uint16_t)(ri[c] % q);
                L[i - t - 1] = (uint8_t)x;
                if (!x) { ri[c] = 0; continue; }
                uint16_t a = (uint16_t)(q - x);
                if (ub[i] + (uint32_t)a * step > 65535u) {
                    size_t lo = locur[i];
                    if (blocked && lo < c0) lo = c0;
                    if (e == 1 && lo < c) lo = c;
                    if (e > 1 && !blocked && lo < c) {
                        size_t s0 = lower_bound(lu->skip, r2, lo);
                        if ((r2 - s0) * 4 < c - lo) {
                            for (size_t s = s0; s < r2; s++) ri[lu->skip[s]] %= q;
                            lo = c;
                        }
                    }
                    if (lo < hiop) K->reduce16(ri + lo, hiop - lo, q, M);
                    ub[i] = step;
                }
                K->axpy16(ri + fop, pr + fop, a, hiop - fop);
                if (sparse)
                    for (size_t z = 0; z < nsp; z++) ri[spj[z]] = (uint16_t)(ri[spj[z]] + a * spv[z]);
                ri[c] = 0;
                ub[i] += (uint32_t)a * step;
                if (blocked) mult[(size_t)(ri - lu->wbuf) / r * PB + (t - k0)] = (uint8_t)a;
                if (locur[t] < locur[i]) locur[i] = locur[t];
                if (f < locur[i]) locur[i] = f;
            }
            t++; c++;
        }
        if (!blocked) continue;
        /* ---- the rest of each row: [alo, c0) (rings) and [c1, G) */
        const size_t k1 = t;
        size_t alo = c0;
        if (e > 1)
            for (size_t k = k0; k < E; k++) if (locur[k] < alo) alo = locur[k];
        for (size_t i = k0; i < E; i++) {
            uint16_t *ri = lu->row[i];
            const uint8_t *mi = mult + (size_t)(ri - lu->wbuf) / r * PB;
            size_t kend = i < k1 ? i : k1;            /* pivot row i: earlier pivots only */
            uint32_t b = ubr[i];
            size_t k = k0;
            while (k < kend) {
                /* gather up to 4 pivots with non-zero multipliers */
                const uint16_t *s[4]; uint16_t a[4]; int ns = 0; uint32_t add = 0;
                while (k < kend && ns < 4) {
                    uint8_t ak = mi[k - k0];
                    if (ak) { s[ns] = lu->row[k]; a[ns] = ak; add += ak * step; ns++; }
                    k++;
                }
                if (!ns) break;
                if (b + add > 65535u) {
                    if (alo < c0) K->reduce16(ri + alo, c0 - alo, q, M);
                    if (c1 < G) K->reduce16(ri + c1, G - c1, q, M);
                    b = step;
                }
                if (b + add > 65535u) {                /* q large: one at a time */
                    for (int z = 0; z < ns; z++) {
                        if (b + a[z] * step > 65535u) {
                            if (alo < c0) K->reduce16(ri + alo, c0 - alo, q, M);
                            if (c1 < G) K->reduce16(ri + c1, G - c1, q, M);
                            b = step;
                        }
                        if (alo < c0) K->axpy16(ri + alo, s[z] + alo, a[z], c0 - alo);
                        if (c1 < G) K->axpy16(ri + c1, s[z] + c1, a[z], G - c1);
                        b += a[z] * step;
                    }
                    continue;
                }
                for (int z = ns; z < 4; z++) { s[z] = s[0]; a[z] = 0; }
                if (alo < c0) K->axpy16x4(ri + alo, s[0] + alo, s[1] + alo, s[2] + alo, s[3] + alo,
                                          a[0], a[1], a[2], a[3], c0 - alo);
                if (c1 < G) K->axpy16x4(ri + c1, s[0] + c1, s[1] + c1, s[2] + c1, s[3] + c1,
                                        a[0], a[1], a[2], a[3], G - c1);
                b += add;
            }
            if (i < k1) {
                /* pivot row: now current; reduce, scale, find its first non-zero */
                if (alo < c0) K->reduce16(ri + alo, c0 - alo, q, M);
                if (c1 < G) K->reduce16(ri + c1, G - c1, q, M);
                uint16_t ui = lu->uinv[i];
                if (ui != 1) {
                    if (alo < c0) K->scale16(ri + alo, c0 - alo, ui, q, M);
                    if (c1 < G) K->scale16(ri + c1, G - c1, ui, q, M);
                }
                ub[i] = step;
                size_t f = lu->pc[i];
                if (e > 1) {
                    f = locur[i] < f ? locur[i] : f;
                    while (f < lu->pc[i] && ri[f] == 0) f++;
                }
                lu->rlo[i] = f; lu->rhi[i] = G;
            } else {
                if (b > ub[i]) ub[i] = b;
            }
        }
    }
    while (c < r) lu->skip[r2++] = c++;
    lu->K1 = t;
    lu->r2 = r2;
    lu->m2 = m - t;
    /* residual rows reduced in full (entries outside [locur, G) are zero) */
    for (size_t i = t; i < m; i++)
        if (locur[i] < G) K->reduce16(lu->row[i] + locur[i], G - locur[i], q, M);
    column_sign(lu, t);
    rc = 0;
done:
    free(lo0); free(hi0); free(cnt); free(los); free(his); free(locur); free(ub); free(ubr); free(mult); free(spj); free(spv);
    return rc;
}

static int phase2(ml_zn_lu_t *lu)
{
    const size_t m2 = lu->m2, r2 = lu->r2;
    const unsigned q = lu->q, p = lu->p, e = lu->e;
    size_t kmax = m2 < r2 ? m2 : r2;
    const zn_kernels_t *K = zn_k();
    lu->K2 = 0;
    lu->cperm2 = xmalloc(r2 * sizeof(size_t));
    lu->ipiv2 = xmalloc(kmax * sizeof(size_t));
    lu->uinv2 = xmalloc(kmax);
    lu->v2 = xmalloc(kmax);
    if (!lu->cperm2 || !lu->ipiv2 || !lu->uinv2 || !lu->v2) return -1;
    for (size_t j = 0; j < r2; j++) lu->cperm2[j] = j;
    if (e == 1 || !m2 || !r2) return 0;     /* field: the residual block is zero */
    uint8_t *S = lu->S = xmalloc(m2 * r2);
    if (!S) return -1;
    int any = 0;
    for (size_t i = 0; i < m2; i++) {
        const uint16_t *w = lu->row[lu->K1 + i];
        for (size_t j = 0; j < r2; j++) {
            S[i * r2 + j] = (uint8_t)(w[lu->skip[j]] % q);
            any |= S[i * r2 + j];
        }
    }
    if (!any) return 0;
    unsigned vmin = 1;
    size_t k;
    for (k = 0; k < kmax; k++) {
        if (ml_interrupt_poll()) return -1;      /* Ctrl-C: the caller drops lu */
        unsigned best = e;
        size_t bi = 0, bj = 0;
        for (size_t i = k; i < m2 && best > vmin; i++)
            for (size_t j = k; j < r2; j++) {
                unsigned x = S[i * r2 + j];
                if (!x) continue;
                unsigned v = valuation(x, p, e);
                if (v < best) { best = v; bi = i; bj = j; if (v <= vmin) break; }
            }
        if (best >= e) break;
        vmin = best;
        if (bi != k) {
            for (size_t j = 0; j < r2; j++) {
                uint8_t tmp = S[k * r2 + j]; S[k * r2 + j] = S[bi * r2 + j]; S[bi * r2 + j] = tmp;
            }
            lu->sign = -lu->sign;
        }
        lu->ipiv2[k] = bi;
        if (bj != k) {
            for (size_t i = 0; i < m2; i++) {
                uint8_t tmp = S[i * r2 + k]; S[i * r2 + k] = S[i * r2 + bj]; S[i * r2 + bj] = tmp;
            }
            size_t tc = lu->cperm2[k]; lu->cperm2[k] = lu->cperm2[bj]; lu->cperm2[bj] = tc;
            lu->sign = -lu->sign;
        }
        unsigned pv = ipow(p, best);
        unsigned u = S[k * r2 + k] / pv;
        unsigned ui = ml_zn_inv(u, q);
        lu->detu = lu->detu * u % q;
        lu->uinv2[k] = (uint8_t)ui;
        lu->v2[k] = (uint8_t)best;
        uint8_t *rk = S + k * r2;
        for (size_t j = k; j < r2; j++) rk[j] = (uint8_t)(rk[j] * ui % q);
        for (size_t i = k + 1; i < m2; i++) {
            uint8_t *ri = S + i * r2;
            unsigned tm = ri[k] / pv;
            ri[k] = (uint8_t)tm;                 /* the multiplier, stored as L */
            if (!tm) continue;
            if (k + 1 < r2) K->axpy8(ri + k + 1, rk + k + 1, (uint16_t)(q - tm), r2 - k - 1,
                                     (uint16_t)q, lu->M);
        }
    }
    lu->K2 = k;
    /* T2' = D^-1 T2: divide each pivot row by its p^v (exact) */
    for (size_t kk = 0; kk < lu->K2; kk++) {
        unsigned pv = ipow(p, lu->v2[kk]);
        uint8_t *rk = S + kk * r2;
        rk[kk] = 1;
        for (size_t j = kk + 1; j < r2; j++) rk[j] = (uint8_t)(rk[j] / pv);
    }
    return 0;
}

/* Phase 1 over GF(3), Z/4 or Z/8 by the bit-sliced dense elimination of csrc/dense/bitsliced.c: the
 * same records as phase1 from the same row order (so the same factorisation), every
 * row band the whole width. */
static int phase1_bitsliced(ml_zn_lu_t *lu)
{
    const size_t m = lu->m, r = lu->r, kmax = m < r ? m : r;
    size_t *rows = xmalloc(m * sizeof(size_t)), *lo0 = xmalloc(m * sizeof(size_t));
    size_t *hi0 = xmalloc(m * sizeof(size_t)), *cnt = xcalloc(r + 2, sizeof(size_t));
    int rc = -1;
    if (alloc_records(lu, kmax, ml_gf3_loff(m, kmax))) goto done;
    if (!rows || !lo0 || !hi0 || !cnt) goto done;
    if (sort_rows(lu, lo0, hi0, cnt)) goto done;
    memcpy(rows, lu->perm0, m * sizeof(size_t));
    long k1 = ml_bitsliced_echelon(lu->q, m, r, lu->wbuf, r, lu->pc, lu->ipiv, lu->uinv,
                                   lu->lpool, rows);
    if (k1 < 0) goto done;
    const size_t t = (size_t)k1;
    lu->llen = ml_gf3_loff(m, t);
    for (size_t i = 0; i < m; i++) lu->row[i] = lu->wbuf + rows[i] * r;
    for (size_t k = 0; k < t; k++) {
        size_t f = lu->pc[k];
        if (lu->e > 1) {                          /* skipped columns left of the pivot */
            f = 0;
            while (f < lu->pc[k] && !lu->row[k][f]) f++;
        }
        lu->rlo[k] = f; lu->rhi[k] = r;
        lu->lend[k] = m; lu->loff[k] = ml_gf3_loff(m, k);
        lu->detu = lu->detu * lu->uinv[k] % lu->q;   /* the pivot is its own inverse */
        if (lu->ipiv[k] != k) lu->sign = -lu->sign;
    }
    size_t r2 = 0;
    for (size_t c = 0, k = 0; c < r; c++) {
        if (k < t && lu->pc[k] == c) k++;
        else lu->skip[r2++] = c;
    }
    lu->K1 = t; lu->r2 = r2; lu->m2 = m - t;
    column_sign(lu, t);
    rc = 0;
done:
    free(rows); free(lo0); free(hi0); free(cnt);
    return rc;
}

/* Whether the bit-sliced elimination (q = 3, 4, 8) beats the band elimination: its work is
 * about m r min(m, r) / 64 word operations against the band's sum of squared row extents
 * in uint16 entries (measured: the crossover is near a ratio of ML_ZN_GF3_RATIO). */
#ifndef ML_ZN_GF3_RATIO
#define ML_ZN_GF3_RATIO 24.0
#endif
static int bitsliced_pays(const ml_zn_lu_t *lu)
{
    const size_t m = lu->m, r = lu->r;
    if (m < 32 || r < 32) return 0;            /* thin: rows of one padded word or less */
    double band = 0;
    for (size_t i = 0; i < m; i++)
        if (lu->hi0[i] > lu->lo0[i]) {
            double x = (double)(lu->hi0[i] - lu->lo0[i]);
            band += x * x;
        }
    double dense = (double)m * (double)r * (double)(m < r ? m : r);
    return band * ML_ZN_GF3_RATIO >= dense;
}

int ml_zn_lu_set_method(ml_zn_lu_t *lu, int method)
{
    if (lu->factored || method < ML_ZN_AUTO || method > ML_ZN_BITSLICED) return -1;
    if (method == ML_ZN_BITSLICED && lu->q != 3 && lu->q != 4 && lu->q != 8) return -1;
    lu->method = method;
    return 0;
}

int ml_zn_lu_method(const ml_zn_lu_t *lu) { return lu->method; }

int ml_zn_lu_factor(ml_zn_lu_t *lu)
{
    if (lu->factored) return 0;
    if (lu->method == ML_ZN_AUTO)
        lu->method = (lu->q == 3 || lu->q == 4 || lu->q == 8) && bitsliced_pays(lu)
                         ? ML_ZN_BITSLICED : ML_ZN_BAND;
    if ((lu->method == ML_ZN_BITSLICED ? phase1_bitsliced(lu) : phase1(lu)) || phase2(lu))
        return -1;
    lu->factored = 1;
    return 0;
}

unsigned ml_zn_lu_det(const ml_zn_lu_t *lu)
{
    const unsigned q = lu->q;
    if (lu->m != lu->r) return 0;
    if (lu->K1 + lu->K2 < lu->m) return 0;
    unsigned d = lu->detu % q;
    for (size_t k = 0; k < lu->K2; k++) d = d * ipow(lu->p, lu->v2[k]) % q;
    if (lu->sign < 0) d = (q - d) % q;
    return d;
}

/* ------------------------------------------------------------------ solving */
/* Phase-1 back substitution: xt (r x nb) holds the skipped columns' values and zeros
 * at the pivot columns; c (K1 x nb, or NULL for zero) the transformed right side. */
static int backsub1(const ml_zn_lu_t *lu, const uint8_t *c, uint8_t *xt, size_t nb)
{
    const zn_kernels_t *K = zn_k();
    const unsigned q = lu->q;
    const size_t BLK = 2048;
    uint32_t *acc = xmalloc((nb < BLK ? nb : BLK) * sizeof(uint32_t));
    if (!acc) return -1;
    for (size_t k = lu->K1; k-- > 0;) {
        const uint16_t *w = lu->row[k];
        const size_t pcol = lu->pc[k], lo = lu->rlo[k], hi = lu->rhi[k];
        uint8_t *dst = xt + pcol * nb;
        if (nb == 1) {                 /* one right side: a dot product over the row */
            uint64_t s = 0;
            for (size_t j0 = lo; j0 < hi; j0 += 65535) {
                size_t j1 = hi - j0 < 65535 ? hi : j0 + 65535;
                s += K->dot16x8(w + j0, xt + j0, j1 - j0);
            }
            s -= (uint64_t)w[pcol] * xt[pcol];
            unsigned v = (c ? c[k] : 0) + q - (unsigned)(s % q);
            *dst = (uint8_t)(v >= q ? v - q : v);
            continue;
        }
        if ((uint64_t)(q - 1) * (q - 1) * (hi - lo) <= 65535u) {
            /* small q and a short row: the whole sum fits in 16 bits */
            uint16_t *a16 = (uint16_t *)acc;
            for (size_t b0 = 0; b0 < nb; b0 += 2 * BLK) {
                size_t bn = nb - b0 < 2 * BLK ? nb - b0 : 2 * BLK;
                memset(a16, 0, bn * sizeof(uint16_t));
                for (size_t j = lo; j < hi; j++) {
                    uint16_t wj = w[j];
                    if (!wj || j == pcol) continue;
                    K->acc16(a16, xt + j * nb + b0, wj, bn);
                }
                K->finish16(dst + b0, c ? c + k * nb + b0 : NULL, a16, bn, (uint16_t)q, lu->M);
            }
            continue;
        }
        for (size_t b0 = 0; b0 < nb; b0 += BLK) {
            size_t bn = nb - b0 < BLK ? nb - b0 : BLK;
            memset(acc, 0, bn * sizeof(uint32_t));
            size_t terms = 0;
            for (size_t j = lo; j < hi; j++) {
                uint32_t wj = w[j];
                if (!wj || j == pcol) continue;
                K->acc32(acc, xt + j * nb + b0, wj, bn);
                if (++terms == 65535) {
                    for (size_t b = 0; b < bn; b++) acc[b] %= q;
                    terms = 1;
                }
            }
            K->finish32(dst + b0, c ? c + k * nb + b0 : NULL, acc, bn, q,
                        (uint32_t)(((uint64_t)1 << 32) / q));
        }
    }
    free(acc);
    return 0;
}

/* Phase-2 back substitution over T2' (rows k < K2): y (r2 x nb) holds the divided
 * right side in rows < K2 and the free values in rows >= K2; solved in place. */
static void backsub2(const ml_zn_lu_t *lu, uint8_t *y, size_t nb, uint32_t *acc)
{
    const unsigned q = lu->q;
    const size_t r2 = lu->r2;
    const zn_kernels_t *K = zn_k();
    for (size_t k = lu->K2; k-- > 0;) {
        const uint8_t *tk = lu->S + k * r2;
        memset(acc, 0, nb * sizeof(uint32_t));
        size_t terms = 0;
        for (size_t j = k + 1; j < r2; j++) {
            if (!tk[j]) continue;
            K->acc32(acc, y + j * nb, tk[j], nb);
            if (++terms == 65535) { for (size_t b = 0; b < nb; b++) acc[b] %= q; terms = 1; }
        }
        uint8_t *yk = y + k * nb;
        for (size_t b = 0; b < nb; b++) {
            unsigned v = yk[b] + q - acc[b] % q;
            yk[b] = (uint8_t)(v >= q ? v - q : v);
        }
    }
}

static int solve_block(const ml_zn_lu_t *lu, const uint8_t *bt, size_t nb, uint8_t *xt,
                       uint8_t *ok, int check)
{
    const zn_kernels_t *K = zn_k();
    const size_t m = lu->m, r = lu->r, K1 = lu->K1, r2 = lu->r2, m2 = lu->m2;
    const uint16_t q = (uint16_t)lu->q, M = lu->M;
    memset(xt, 0, r * nb);
    for (size_t b = 0; b < nb; b++) ok[b] = 1;
    if (!nb) return 0;
    uint8_t *C = xmalloc(m * nb);
    uint8_t *tmp = xmalloc(nb);
    if (!C || !tmp) { free(C); free(tmp); return -1; }
    for (size_t i = 0; i < m; i++) {
        memcpy(C + i * nb, bt + lu->perm0[i] * nb, nb);
        K->scale8(C + i * nb, nb, 1, q, M);          /* reduce mod q */
    }
    /* forward, phase 1 (swaps interleaved, as recorded) */
    for (size_t k = 0; k < K1; k++) {
        uint8_t *ck = C + k * nb;
        if (lu->ipiv[k] != k) {
            uint8_t *cp = C + lu->ipiv[k] * nb;
            memcpy(tmp, ck, nb); memcpy(ck, cp, nb); memcpy(cp, tmp, nb);
        }
        if (lu->uinv[k] != 1) K->scale8(ck, nb, lu->uinv[k], q, M);
        const uint8_t *L = lu->lpool + lu->loff[k];
        if (nb == 1) {                 /* one right side: C[i] -= L[i] c_k, vectorised over i */
            if (*ck && lu->lend[k] > k + 1)
                K->axpy8(C + k + 1, L, (uint16_t)(q - *ck), lu->lend[k] - k - 1, q, M);
            continue;
        }
        for (size_t i = k + 1; i < lu->lend[k]; i++) {
            uint8_t l = L[i - k - 1];
            if (l) K->axpy8(C + i * nb, ck, (uint16_t)(q - l), nb, q, M);
        }
    }
    int rc = 0;
    if (check && m2) {
        uint8_t *C2 = C + K1 * nb;
        const size_t K2 = lu->K2;
        uint8_t *y = NULL;
        uint32_t *acc = NULL;
        if (K2) {
            /* forward, phase 2 (LAPACK style: all swaps first) */
            for (size_t k = 0; k < K2; k++) {
                size_t pi = lu->ipiv2[k];
                if (pi != k) {
                    memcpy(tmp, C2 + k * nb, nb); memcpy(C2 + k * nb, C2 + pi * nb, nb);
                    memcpy(C2 + pi * nb, tmp, nb);
                }
            }
            for (size_t k = 0; k < K2; k++) {
                uint8_t *ck = C2 + k * nb;
                if (lu->uinv2[k] != 1) K->scale8(ck, nb, lu->uinv2[k], q, M);
                for (size_t i = k + 1; i < m2; i++) {
                    uint8_t l = lu->S[i * r2 + k];
                    if (l) K->axpy8(C2 + i * nb, ck, (uint16_t)(q - l), nb, q, M);
                }
            }
        }
        for (size_t k = 0; k < m2; k++) {
            uint8_t *ck = C2 + k * nb;
            if (k < K2) {
                unsigned pv = ipow(lu->p, lu->v2[k]);
                for (size_t b = 0; b < nb; b++) {
                    if (ck[b] % pv) ok[b] = 0;
                    ck[b] = (uint8_t)(ck[b] / pv);
                }
            } else {
                for (size_t b = 0; b < nb; b++) if (ck[b]) ok[b] = 0;
            }
        }
        if (K2) {
            y = xcalloc(r2 * nb, 1);
            acc = xmalloc(nb * sizeof(uint32_t));
            if (!y || !acc) { free(y); free(acc); rc = -1; goto out; }
            memcpy(y, C2, K2 * nb);
            backsub2(lu, y, nb, acc);
            for (size_t l = 0; l < K2; l++)
                memcpy(xt + lu->skip[lu->cperm2[l]] * nb, y + l * nb, nb);
            free(y); free(acc);
        }
    }
    rc = backsub1(lu, C, xt, nb);
out:
    free(C); free(tmp);
    return rc;
}

/* Many right sides are solved in column blocks of ML_ZN_RHS_BLOCK so the rows each
 * step touches stay in cache. */
#ifndef ML_ZN_RHS_BLOCK
#define ML_ZN_RHS_BLOCK 1024
#endif
int ml_zn_lu_solve(const ml_zn_lu_t *lu, const uint8_t *bt, size_t nb, uint8_t *xt,
                   uint8_t *ok, int check)
{
    const size_t CB = ML_ZN_RHS_BLOCK, m = lu->m, r = lu->r;
    if (nb <= CB) return solve_block(lu, bt, nb, xt, ok, check);
    uint8_t *bc = xmalloc(m * CB), *xc = xmalloc(r * CB);
    int rc = 0;
    if (!bc || !xc) { rc = -1; goto out; }
    for (size_t b0 = 0; b0 < nb && !rc; b0 += CB) {
        size_t cb = nb - b0 < CB ? nb - b0 : CB;
        for (size_t i = 0; i < m; i++) memcpy(bc + i * cb, bt + i * nb + b0, cb);
        rc = solve_block(lu, bc, cb, xc, ok + b0, check);
        for (size_t j = 0; j < r; j++) memcpy(xt + j * nb + b0, xc + j * cb, cb);
    }
out:
    free(bc); free(xc);
    return rc;
}

int ml_zn_lu_generators(const ml_zn_lu_t *lu, uint8_t *h, unsigned *orders)
{
    return ml_zn_lu_generators_range(lu, 0, lu->r2, h, orders);
}

int ml_zn_lu_generators_range(const ml_zn_lu_t *lu, size_t first, size_t count, uint8_t *h,
                              unsigned *orders)
{
    const size_t r = lu->r, r2 = lu->r2, K2 = lu->K2, ng = r2;
    const unsigned p = lu->p, e = lu->e;
    if (first > ng) first = ng;
    if (count > ng - first) count = ng - first;
    if (!count) return 0;
    /* order of positions: non-pivot skipped (v = e) first, then phase-2 pivots by v desc */
    size_t *pos = xmalloc(ng * sizeof(size_t));
    uint8_t *y = xcalloc(r2 * count, 1);
    uint8_t *xt = xcalloc(r * count, 1);
    uint32_t *acc = xmalloc(count * sizeof(uint32_t));
    int rc = -1;
    if (!pos || !y || !xt || !acc) goto done;
    size_t g = 0;
    for (size_t l = K2; l < r2; l++) pos[g++] = l;
    for (unsigned v = e; v >= 1; v--)
        for (size_t l = 0; l < K2; l++)
            if (lu->v2[l] == v) pos[g++] = l;
    for (size_t gi = 0; gi < count; gi++) {
        size_t l = pos[first + gi];
        unsigned v = l < K2 ? lu->v2[l] : e;
        y[l * count + gi] = (uint8_t)ipow(p, e - v);
        orders[gi] = ipow(p, v);
    }
    backsub2(lu, y, count, acc);
    for (size_t l = 0; l < r2; l++)
        memcpy(xt + lu->skip[lu->cperm2[l]] * count, y + l * count, count);
    if (backsub1(lu, NULL, xt, count)) goto done;
    for (size_t j = 0; j < r; j++)
        for (size_t gi = 0; gi < count; gi++) h[gi * r + j] = xt[j * count + gi];
    rc = 0;
done:
    free(pos); free(y); free(xt); free(acc);
    return rc;
}
