/* poly.c: polynomials over GF(2) (bit-packed) and GF(p) (bytes); see poly.h. */
#include "poly/poly.h"
#include "base/interrupt.h"

#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ML_HAVE_PCLMUL_PATH 1
#endif

/* Measured (random equal-length factors, medians of 5, shared 2-core box; time with
 * Karatsuba / schoolbook over PCLMULQDQ): threshold 16 words gives 1.1 at 16 words,
 * 0.81 at 32, 0.58 at 64, 0.43 at 128, 0.23 at 512, 0.16 at 1563 (10^5 bits); 8 is
 * 1.2x slower on short factors, 32 and 64 lose 10-50% on long ones. */
size_t ml_gf2x_karatsuba_words = 0;

size_t ml_gf2x_karatsuba_threshold(void)
{
    if (ml_gf2x_karatsuba_words == 0) {
        const char *e = getenv("MODLIGHTS_KARATSUBA_WORDS");
        char *end = NULL;
        unsigned long v = e ? strtoul(e, &end, 10) : 0;
        ml_gf2x_karatsuba_words = (e && *e && end && !*end && v >= 2) ? (size_t)v : 16;
    }
    return ml_gf2x_karatsuba_words;
}

/* ------------------------------------------------------------------ GF(2)[x] */

void ml_gf2x_init(ml_gf2x *a) { a->c = NULL; a->n = 0; a->alloc = 0; }

void ml_gf2x_clear(ml_gf2x *a)
{
    free(a->c);
    ml_gf2x_init(a);
}

/* Invariant: every allocated word at or past n is zero. */
int ml_gf2x_fit(ml_gf2x *a, size_t words)
{
    if (words <= a->alloc) return 0;
    size_t want = a->alloc + a->alloc / 2;
    if (want < words) want = words;
    uint64_t *c = realloc(a->c, want * sizeof(uint64_t));
    if (!c) return 2;
    memset(c + a->alloc, 0, (want - a->alloc) * sizeof(uint64_t));
    a->c = c;
    a->alloc = want;
    return 0;
}

void ml_gf2x_normalise(ml_gf2x *a)
{
    while (a->n && a->c[a->n - 1] == 0) a->n--;
}

void ml_gf2x_zero(ml_gf2x *a)
{
    if (a->n) memset(a->c, 0, a->n * sizeof(uint64_t));
    a->n = 0;
}

int ml_gf2x_set(ml_gf2x *a, const uint64_t *w, size_t n)
{
    if (ml_gf2x_fit(a, n)) return 2;
    if (a->c != w && n) memmove(a->c, w, n * sizeof(uint64_t));
    if (a->n > n) memset(a->c + n, 0, (a->n - n) * sizeof(uint64_t));
    a->n = n;
    ml_gf2x_normalise(a);
    return 0;
}

int ml_gf2x_copy(ml_gf2x *r, const ml_gf2x *a)
{
    if (r == a) return 0;
    return ml_gf2x_set(r, a->c, a->n);
}

static inline long deg_words(const uint64_t *c, size_t n)
{
    while (n && c[n - 1] == 0) n--;
    if (!n) return -1;
    return (long)(64 * (n - 1)) + 63 - __builtin_clzll(c[n - 1]);
}

long ml_gf2x_deg(const ml_gf2x *a) { return deg_words(a->c, a->n); }

/* c ^= b * x^k over b's nb words (c has room). */
static inline void xor_shifted(uint64_t *c, const uint64_t *b, size_t nb, size_t k)
{
    size_t ws = k / 64;
    unsigned bs = (unsigned)(k % 64);
    uint64_t *d = c + ws;
    if (bs == 0) {
        for (size_t i = 0; i < nb; i++) d[i] ^= b[i];
        return;
    }
    uint64_t carry = 0;
    for (size_t i = 0; i < nb; i++) {
        d[i] ^= (b[i] << bs) | carry;
        carry = b[i] >> (64 - bs);
    }
    d[nb] ^= carry;
}

int ml_gf2x_addshift(ml_gf2x *a, const ml_gf2x *b, size_t k)
{
    if (!b->n) return 0;
    size_t need = b->n + k / 64 + 1;
    if (ml_gf2x_fit(a, need)) return 2;
    xor_shifted(a->c, b->c, b->n, k);
    if (a->n < need) a->n = need;
    ml_gf2x_normalise(a);
    return 0;
}

int ml_gf2x_addmono(ml_gf2x *a, size_t k)
{
    if (ml_gf2x_fit(a, k / 64 + 1)) return 2;
    a->c[k / 64] ^= (uint64_t)1 << (k % 64);
    if (a->n < k / 64 + 1) a->n = k / 64 + 1;
    ml_gf2x_normalise(a);
    return 0;
}

/* r ^= a * b (schoolbook, na x nb words; r has na + nb words). */
static void basecase_portable(uint64_t *r, const uint64_t *a, size_t na, const uint64_t *b,
                              size_t nb)
{
    for (size_t i = 0; i < na; i++) {
        uint64_t ai = a[i];
        if (!ai) continue;
        /* tab[v] = ai * v (carry-less) for the 16 nibbles v, as 128-bit values */
        unsigned __int128 tab[16];
        tab[0] = 0;
        tab[1] = ai;
        for (int v = 2; v < 16; v += 2) {
            tab[v] = tab[v / 2] << 1;
            tab[v + 1] = tab[v] ^ ai;
        }
        for (size_t j = 0; j < nb; j++) {
            uint64_t bj = b[j];
            unsigned __int128 acc = 0;
            for (int s = 60; s >= 0; s -= 4) acc = (acc << 4) ^ tab[(bj >> s) & 15];
            r[i + j] ^= (uint64_t)acc;
            r[i + j + 1] ^= (uint64_t)(acc >> 64);
        }
    }
}

#ifdef ML_HAVE_PCLMUL_PATH
__attribute__((target("pclmul,sse2")))
static void basecase_pclmul(uint64_t *r, const uint64_t *a, size_t na, const uint64_t *b,
                            size_t nb)
{
    for (size_t i = 0; i < na; i++) {
        if (!a[i]) continue;
        __m128i ai = _mm_cvtsi64_si128((long long)a[i]);
        for (size_t j = 0; j < nb; j++) {
            __m128i p = _mm_clmulepi64_si128(ai, _mm_cvtsi64_si128((long long)b[j]), 0);
            r[i + j] ^= (uint64_t)_mm_cvtsi128_si64(p);
            r[i + j + 1] ^= (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p));
        }
    }
}
#endif

static int use_pclmul(void)
{
#ifdef ML_HAVE_PCLMUL_PATH
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("pclmul") && !getenv("MODLIGHTS_NO_PCLMUL");
    }
    return cached;
#else
    return 0;
#endif
}

static void basecase(uint64_t *r, const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
#ifdef ML_HAVE_PCLMUL_PATH
    if (use_pclmul()) {
        basecase_pclmul(r, a, na, b, nb);
        return;
    }
#endif
    basecase_portable(r, a, na, b, nb);
}

/* r (2n words, zero on entry) = a * b, both n words; scratch: 4n + 64 log n words. */
static void kara(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n, uint64_t *scratch)
{
    if (n < ml_gf2x_karatsuba_threshold() || n < 2) {
        basecase(r, a, n, b, n);
        return;
    }
    size_t m = (n + 1) / 2, h = n - m;
    kara(r, a, b, m, scratch);
    kara(r + 2 * m, a + m, b + m, h, scratch);
    uint64_t *as = scratch, *bs = scratch + m, *t = scratch + 2 * m;
    for (size_t i = 0; i < m; i++) {
        as[i] = a[i] ^ (i < h ? a[m + i] : 0);
        bs[i] = b[i] ^ (i < h ? b[m + i] : 0);
    }
    memset(t, 0, 2 * m * sizeof(uint64_t));
    kara(t, as, bs, m, scratch + 4 * m);
    for (size_t i = 0; i < 2 * m; i++) t[i] ^= r[i];
    for (size_t i = 0; i < 2 * h; i++) t[i] ^= r[2 * m + i];
    for (size_t i = 0; i < 2 * m; i++) r[m + i] ^= t[i];
}

static int mul_words(ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b, int karatsuba)
{
    if (!a->n || !b->n) {
        ml_gf2x_zero(r);
        return 0;
    }
    if (a->n < b->n) {
        const ml_gf2x *t = a;
        a = b;
        b = t;
    }
    size_t na = a->n, nb = b->n, nr = na + nb;
    uint64_t *out = calloc(nr + 1, sizeof(uint64_t));
    if (!out) return 2;
    if (!karatsuba || nb < ml_gf2x_karatsuba_threshold()) {
        basecase(out, a->c, na, b->c, nb);
    } else {
        /* a in chunks of nb words, each chunk times b by Karatsuba */
        uint64_t *buf = malloc((2 * nb + nb + 4 * nb + 64 * 64) * sizeof(uint64_t));
        if (!buf) {
            free(out);
            return 2;
        }
        uint64_t *prod = buf, *chunk = buf + 2 * nb, *scratch = buf + 3 * nb;
        for (size_t off = 0; off < na; off += nb) {
            size_t len = na - off < nb ? na - off : nb;
            memcpy(chunk, a->c + off, len * sizeof(uint64_t));
            if (len < nb) memset(chunk + len, 0, (nb - len) * sizeof(uint64_t));
            memset(prod, 0, 2 * nb * sizeof(uint64_t));
            kara(prod, chunk, b->c, nb, scratch);
            size_t top = off + 2 * nb <= nr ? 2 * nb : nr - off;
            for (size_t i = 0; i < top; i++) out[off + i] ^= prod[i];
        }
        free(buf);
    }
    if (ml_gf2x_fit(r, nr)) {
        free(out);
        return 2;
    }
    int rc = ml_gf2x_set(r, out, nr);
    free(out);
    return rc;
}

int ml_gf2x_mul(ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b) { return mul_words(r, a, b, 1); }

int ml_gf2x_mul_basecase(ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b)
{
    return mul_words(r, a, b, 0);
}

/* R (degree dr, words >= nb + shift room) reduced mod B (degree db >= 0) in place;
 * when S / SB are given, S ^= SB * x^k alongside every R ^= B * x^k (extended gcd);
 * when Q is given, its bit k is set. Returns the new degree of R. */
static long reduce_inplace(ml_gf2x *R, const ml_gf2x *B, long db, ml_gf2x *Q, ml_gf2x *S,
                           const ml_gf2x *SB, ml_gf2x *T, const ml_gf2x *TB)
{
    long dr = ml_gf2x_deg(R);
    while (dr >= db) {
        size_t k = (size_t)(dr - db);
        xor_shifted(R->c, B->c, B->n, k);
        if (Q) Q->c[k / 64] ^= (uint64_t)1 << (k % 64);
        if (S && SB->n) {
            xor_shifted(S->c, SB->c, SB->n, k);
            if (S->n < SB->n + k / 64 + 1) S->n = SB->n + k / 64 + 1;
        }
        if (T && TB->n) {
            xor_shifted(T->c, TB->c, TB->n, k);
            if (T->n < TB->n + k / 64 + 1) T->n = TB->n + k / 64 + 1;
        }
        /* the top bit of R is gone: find the next one from that word down */
        size_t wi = (size_t)dr / 64 + 1;
        dr = deg_words(R->c, wi);
    }
    R->n = dr < 0 ? 0 : (size_t)dr / 64 + 1;
    if (S) ml_gf2x_normalise(S);
    if (T) ml_gf2x_normalise(T);
    return dr;
}

int ml_gf2x_divrem(ml_gf2x *q, ml_gf2x *r, const ml_gf2x *a, const ml_gf2x *b)
{
    long db = ml_gf2x_deg(b);
    if (db < 0) return 1;
    long da = ml_gf2x_deg(a);
    ml_gf2x R, Q;
    ml_gf2x_init(&R);
    ml_gf2x_init(&Q);
    if (ml_gf2x_fit(&R, a->n + 1) || ml_gf2x_copy(&R, a)) goto oom;
    if (q && da >= db && ml_gf2x_fit(&Q, (size_t)(da - db) / 64 + 1)) goto oom;
    reduce_inplace(&R, b, db, q ? &Q : NULL, NULL, NULL, NULL, NULL);
    if (q) {
        Q.n = da >= db ? (size_t)(da - db) / 64 + 1 : 0;
        ml_gf2x_normalise(&Q);
        ml_gf2x_clear(q);
        *q = Q;
    }
    ml_gf2x_clear(r);
    *r = R;
    return 0;
oom:
    ml_gf2x_clear(&R);
    ml_gf2x_clear(&Q);
    return 2;
}

int ml_gf2x_gcd(ml_gf2x *g, const ml_gf2x *a, const ml_gf2x *b)
{
    ml_gf2x A, B;
    ml_gf2x_init(&A);
    ml_gf2x_init(&B);
    size_t room = (a->n > b->n ? a->n : b->n) + 1;
    if (ml_gf2x_fit(&A, room) || ml_gf2x_fit(&B, room) || ml_gf2x_copy(&A, a) ||
        ml_gf2x_copy(&B, b)) {
        ml_gf2x_clear(&A);
        ml_gf2x_clear(&B);
        return 2;
    }
    long db;
    unsigned steps = 0;
    while ((db = ml_gf2x_deg(&B)) >= 0) {
        if ((++steps & 63) == 0 && ml_interrupt_poll()) {   /* Ctrl-C (interrupt.h) */
            ml_gf2x_clear(&A);
            ml_gf2x_clear(&B);
            return 3;
        }
        reduce_inplace(&A, &B, db, NULL, NULL, NULL, NULL, NULL);
        ml_gf2x t = A;
        A = B;
        B = t;
    }
    ml_gf2x_clear(&B);
    ml_gf2x_clear(g);
    *g = A;
    return 0;
}

int ml_gf2x_xgcd(ml_gf2x *g, ml_gf2x *s, ml_gf2x *t, const ml_gf2x *a, const ml_gf2x *b)
{
    ml_gf2x A, B, SA, SB, TA, TB;
    ml_gf2x *all[6] = {&A, &B, &SA, &SB, &TA, &TB};
    for (int i = 0; i < 6; i++) ml_gf2x_init(all[i]);
    /* cofactors stay below deg a + deg b + 1 bits */
    size_t room = a->n + b->n + 2;
    for (int i = 0; i < 6; i++)
        if ((i >= 4 && !t) ? 0 : ml_gf2x_fit(all[i], room)) goto oom;
    if (ml_gf2x_copy(&A, a) || ml_gf2x_copy(&B, b) || ml_gf2x_addmono(&SA, 0)) goto oom;
    if (t && ml_gf2x_addmono(&TB, 0)) goto oom;
    long db;
    unsigned steps = 0;
    while ((db = ml_gf2x_deg(&B)) >= 0) {
        if ((++steps & 63) == 0 && ml_interrupt_poll()) {
            for (int i = 0; i < 6; i++) ml_gf2x_clear(all[i]);
            return 3;
        }
        reduce_inplace(&A, &B, db, NULL, &SA, &SB, t ? &TA : NULL, &TB);
        ml_gf2x x = A; A = B; B = x;
        x = SA; SA = SB; SB = x;
        x = TA; TA = TB; TB = x;
    }
    ml_gf2x_clear(g);
    *g = A;
    ml_gf2x_clear(s);
    *s = SA;
    if (t) {
        ml_gf2x_clear(t);
        *t = TA;
    } else {
        ml_gf2x_clear(&TA);
    }
    ml_gf2x_clear(&B);
    ml_gf2x_clear(&SB);
    ml_gf2x_clear(&TB);
    return 0;
oom:
    for (int i = 0; i < 6; i++) ml_gf2x_clear(all[i]);
    return 2;
}

/* ------------------------------------------------------------------ GF(p)[x] */

void ml_gfpx_init(ml_gfpx *a) { a->c = NULL; a->n = 0; a->alloc = 0; }

void ml_gfpx_clear(ml_gfpx *a)
{
    free(a->c);
    ml_gfpx_init(a);
}

/* Invariant as for GF(2): entries at or past n are zero. */
int ml_gfpx_fit(ml_gfpx *a, size_t n)
{
    if (n <= a->alloc) return 0;
    size_t want = a->alloc + a->alloc / 2;
    if (want < n) want = n;
    uint8_t *c = realloc(a->c, want);
    if (!c) return 2;
    memset(c + a->alloc, 0, want - a->alloc);
    a->c = c;
    a->alloc = want;
    return 0;
}

void ml_gfpx_normalise(ml_gfpx *a)
{
    while (a->n && a->c[a->n - 1] == 0) a->n--;
}

int ml_gfpx_set(ml_gfpx *a, const uint8_t *c, size_t n)
{
    if (ml_gfpx_fit(a, n)) return 2;
    if (a->c != c && n) memmove(a->c, c, n);
    if (a->n > n) memset(a->c + n, 0, a->n - n);
    a->n = n;
    ml_gfpx_normalise(a);
    return 0;
}

int ml_gfpx_copy(ml_gfpx *r, const ml_gfpx *a)
{
    if (r == a) return 0;
    return ml_gfpx_set(r, a->c, a->n);
}

long ml_gfpx_deg(const ml_gfpx *a) { return (long)a->n - 1; }

unsigned ml_gfp_inv(unsigned a, unsigned p)
{
    /* a^(p-2) mod p */
    unsigned r = 1, b = a % p, e = p - 2;
    while (e) {
        if (e & 1) r = r * b % p;
        b = b * b % p;
        e >>= 1;
    }
    return r;
}

/* Entries a 32-bit accumulator takes before a reduction: K (p-1)^2 + p < 2^32. */
static size_t delay_of(unsigned p)
{
    uint64_t sq = (uint64_t)(p - 1) * (p - 1);
    if (sq == 0) sq = 1;
    return (size_t)((0xFFFFFFFFull - p) / sq);
}

int ml_gfpx_axpy(ml_gfpx *a, unsigned k, const ml_gfpx *b, size_t s, unsigned m, unsigned p)
{
    size_t top = b->n ? b->n + s : 0;
    if (top < a->n) top = a->n;
    if (ml_gfpx_fit(a, top)) return 2;
    uint8_t *c = a->c;
    if (k != 1)
        for (size_t i = 0; i < a->n; i++) c[i] = (uint8_t)(c[i] * k % p);
    if (m)
        for (size_t i = 0; i < b->n; i++) c[i + s] = (uint8_t)((c[i + s] + b->c[i] * m) % p);
    a->n = top;
    ml_gfpx_normalise(a);
    return 0;
}

void ml_gfpx_scale(ml_gfpx *a, unsigned k, unsigned p)
{
    for (size_t i = 0; i < a->n; i++) a->c[i] = (uint8_t)(a->c[i] * k % p);
    ml_gfpx_normalise(a);
}

unsigned ml_gfpx_make_monic(ml_gfpx *a, unsigned p)
{
    if (!a->n) return 0;
    unsigned lc = a->c[a->n - 1];
    if (lc != 1) ml_gfpx_scale(a, ml_gfp_inv(lc, p), p);
    return lc;
}

int ml_gfpx_mul_basecase(ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b, unsigned p)
{
    if (!a->n || !b->n) {
        if (r->n) memset(r->c, 0, r->n);
        r->n = 0;
        return 0;
    }
    size_t nr = a->n + b->n - 1, K = delay_of(p), pending = 0;
    uint32_t *acc = calloc(nr, sizeof(uint32_t));
    if (!acc) return 2;
    for (size_t i = 0; i < a->n; i++) {
        uint32_t ai = a->c[i];
        if (!ai) continue;
        uint32_t *dst = acc + i;
        const uint8_t *bc = b->c;
        for (size_t j = 0; j < b->n; j++) dst[j] += ai * bc[j];
        if (++pending == K) {
            for (size_t j = 0; j < nr; j++) acc[j] %= p;
            pending = 0;
        }
    }
    if (ml_gfpx_fit(r, nr)) {
        free(acc);
        return 2;
    }
    if (r->n > nr) memset(r->c + nr, 0, r->n - nr);
    for (size_t j = 0; j < nr; j++) r->c[j] = (uint8_t)(acc[j] % p);
    r->n = nr;
    ml_gfpx_normalise(r);
    free(acc);
    return 0;
}

int ml_gfpx_divrem_basecase(ml_gfpx *q, ml_gfpx *r, const ml_gfpx *a, const ml_gfpx *b,
                            unsigned p)
{
    if (!b->n) return 1;
    size_t db = b->n - 1;
    if (a->n <= db) {
        if (q) {
            if (q->n) memset(q->c, 0, q->n);
            q->n = 0;
        }
        return ml_gfpx_copy(r, a);
    }
    size_t na = a->n, nq = na - db, K = delay_of(p), pending = 0;
    uint32_t *R = malloc(na * sizeof(uint32_t));
    uint8_t *Q = calloc(nq, 1);
    if (!R || !Q) {
        free(R);
        free(Q);
        return 2;
    }
    for (size_t i = 0; i < na; i++) R[i] = a->c[i];
    unsigned inv = ml_gfp_inv(b->c[db], p);
    for (size_t i = na; i-- > db;) {
        unsigned c = R[i] % p;
        if (!c) continue;
        unsigned qc = c * inv % p, neg = p - qc;
        Q[i - db] = (uint8_t)qc;
        uint32_t *dst = R + (i - db);
        const uint8_t *bc = b->c;
        for (size_t j = 0; j < db; j++) dst[j] += neg * bc[j];
        if (++pending == K) {
            for (size_t j = 0; j < i; j++) R[j] %= p;
            pending = 0;
        }
    }
    int rc = ml_gfpx_fit(r, db ? db : 1);
    if (!rc && q) rc = ml_gfpx_set(q, Q, nq);
    if (!rc) {
        if (r->n > db) memset(r->c + db, 0, r->n - db);
        for (size_t j = 0; j < db; j++) r->c[j] = (uint8_t)(R[j] % p);
        r->n = db;
        ml_gfpx_normalise(r);
    }
    free(R);
    free(Q);
    return rc;
}

/* x mod p for x < 2^24 by one multiplication (m = floor(2^32 / p) + 1). */
static inline uint32_t fm_red(uint32_t x, uint32_t p, uint64_t m)
{
    return x - (uint32_t)(((uint64_t)x * m) >> 32) * p;
}

/* a[j] = (a[j] + c b[j]) mod p for j < n (values < p, c < p). */
static void addmul_row(uint8_t *restrict a, const uint8_t *restrict b, size_t n, uint32_t c,
                       uint32_t p, uint64_t m)
{
    for (size_t j = 0; j < n; j++) a[j] = (uint8_t)fm_red(a[j] + c * b[j], p, m);
}

/* R reduced mod B (B != 0) in place, one leading term at a time; alongside every
 * R -= c x^k B, S -= c x^k SB and T -= c x^k TB (extended gcd; S / T may be NULL).
 * S and T must have room for SB->n + deg R - deg B coefficients. */
static void gfpx_reduce_inplace(ml_gfpx *R, const ml_gfpx *B, ml_gfpx *S, const ml_gfpx *SB,
                                ml_gfpx *T, const ml_gfpx *TB, unsigned p)
{
    size_t db = B->n - 1;
    uint32_t inv = ml_gfp_inv(B->c[db], p);
    uint64_t m = ((uint64_t)1 << 32) / p + 1;
    while (R->n > db) {
        size_t k = R->n - 1 - db;
        uint32_t c = (p - R->c[R->n - 1]) * inv % p;       /* R += c x^k B kills the top */
        addmul_row(R->c + k, B->c, db, c, p, m);
        R->c[R->n - 1] = 0;
        R->n--;
        ml_gfpx_normalise(R);
        if (S && SB->n) {
            addmul_row(S->c + k, SB->c, SB->n, c, p, m);
            if (S->n < SB->n + k) S->n = SB->n + k;
            ml_gfpx_normalise(S);
        }
        if (T && TB->n) {
            addmul_row(T->c + k, TB->c, TB->n, c, p, m);
            if (T->n < TB->n + k) T->n = TB->n + k;
            ml_gfpx_normalise(T);
        }
    }
}

int ml_gfpx_gcd_classical(ml_gfpx *g, const ml_gfpx *a, const ml_gfpx *b, unsigned p)
{
    ml_gfpx A, B;
    ml_gfpx_init(&A);
    ml_gfpx_init(&B);
    int rc = ml_gfpx_copy(&A, a);
    if (!rc) rc = ml_gfpx_copy(&B, b);
    unsigned steps = 0;
    while (!rc && B.n) {
        if ((++steps & 63) == 0 && ml_interrupt_poll()) {   /* Ctrl-C (interrupt.h) */
            rc = 3;
            break;
        }
        gfpx_reduce_inplace(&A, &B, NULL, NULL, NULL, NULL, p);
        ml_gfpx t = A; A = B; B = t;
    }
    if (!rc) {
        ml_gfpx_make_monic(&A, p);
        ml_gfpx_clear(g);
        *g = A;
        ml_gfpx_init(&A);
    }
    ml_gfpx_clear(&A);
    ml_gfpx_clear(&B);
    return rc;
}

int ml_gfpx_xgcd_classical(ml_gfpx *g, ml_gfpx *s, ml_gfpx *t, const ml_gfpx *a,
                           const ml_gfpx *b, unsigned p)
{
    ml_gfpx A, B, SA, SB, TA, TB;
    ml_gfpx *all[6] = {&A, &B, &SA, &SB, &TA, &TB};
    for (int i = 0; i < 6; i++) ml_gfpx_init(all[i]);
    static const uint8_t one = 1;
    /* cofactors stay below deg a + deg b + 1 coefficients */
    size_t room = a->n + b->n + 2;
    int rc = ml_gfpx_copy(&A, a);
    if (!rc) rc = ml_gfpx_copy(&B, b);
    for (int i = 2; i < 6 && !rc; i++)
        if (i < 4 || t) rc = ml_gfpx_fit(all[i], room);
    if (!rc) rc = ml_gfpx_set(&SA, &one, 1);
    if (!rc && t) rc = ml_gfpx_set(&TB, &one, 1);
    unsigned steps = 0;
    while (!rc && B.n) {
        if ((++steps & 63) == 0 && ml_interrupt_poll()) {
            rc = 3;
            break;
        }
        gfpx_reduce_inplace(&A, &B, &SA, &SB, t ? &TA : NULL, &TB, p);
        ml_gfpx x = A; A = B; B = x;
        x = SA; SA = SB; SB = x;
        x = TA; TA = TB; TB = x;
    }
    if (!rc && A.n) {
        unsigned inv = ml_gfp_inv(A.c[A.n - 1], p);
        ml_gfpx_scale(&A, inv, p);
        ml_gfpx_scale(&SA, inv, p);
        if (t) ml_gfpx_scale(&TA, inv, p);
    }
    if (!rc) {
        ml_gfpx_clear(g);
        *g = A;
        ml_gfpx_init(&A);
        ml_gfpx_clear(s);
        *s = SA;
        ml_gfpx_init(&SA);
        if (t) {
            ml_gfpx_clear(t);
            *t = TA;
            ml_gfpx_init(&TA);
        }
    }
    for (int i = 0; i < 6; i++) ml_gfpx_clear(all[i]);
    return rc;
}
