/* verify_big.c: unsigned big integers for the LP weights of hardest certificates (the checker's
 * own: little-endian 32-bit limbs, schoolbook multiplication, Knuth's division
 * (TAOCP 4.3.1, algorithm D), Euclid's gcd). Every function returns 0, or -1 when an
 * allocation fails (the operands are then unchanged or freed by the caller). Sizes are a
 * few thousand digits at most (the checker reads rationals of at most 4000 digits a
 * side), so the quadratic algorithms are enough. See verify_impl.h. */
#include "verify/verify_impl.h"

#include <stdlib.h>
#include <string.h>

void mv_big_free(mv_big *a)
{
    free(a->d);
    a->d = NULL;
    a->n = a->cap = 0;
}

static int reserve(mv_big *a, size_t n)
{
    if (n <= a->cap)
        return 0;
    size_t cap = n < 4 ? 4 : n + n / 2;
    uint32_t *d = realloc(a->d, cap * sizeof *d);
    if (!d)
        return -1;
    a->d = d;
    a->cap = cap;
    return 0;
}

static void trim(mv_big *a)
{
    while (a->n && !a->d[a->n - 1])
        a->n--;
}

int mv_big_set_u64(mv_big *a, uint64_t x)
{
    if (reserve(a, 2))
        return -1;
    a->d[0] = (uint32_t)x;
    a->d[1] = (uint32_t)(x >> 32);
    a->n = 2;
    trim(a);
    return 0;
}

int mv_big_copy(mv_big *a, const mv_big *b)
{
    if (a == b)
        return 0;
    if (reserve(a, b->n))
        return -1;
    if (b->n)
        memcpy(a->d, b->d, b->n * sizeof *b->d);
    a->n = b->n;
    return 0;
}

/* a = a * m + add */
static int mul_add_small(mv_big *a, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (size_t i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry) {
        if (reserve(a, a->n + 1))
            return -1;
        a->d[a->n++] = (uint32_t)carry;
    }
    trim(a);
    return 0;
}

int mv_big_mul_small(mv_big *a, uint32_t m) { return mul_add_small(a, m, 0); }

int mv_big_from_dec(mv_big *a, const char *s, size_t len)
{
    a->n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t chunk = 0, mult = 1;
        for (int k = 0; k < 9 && i < len; k++, i++) {
            chunk = chunk * 10 + (uint32_t)(s[i] - '0');
            mult *= 10;
        }
        if (mul_add_small(a, mult, chunk))
            return -1;
    }
    return 0;
}

/* a / m in place; the remainder. */
static uint32_t div_small(mv_big *a, uint32_t m)
{
    uint64_t rem = 0;
    for (size_t i = a->n; i-- > 0;) {
        uint64_t cur = (rem << 32) | a->d[i];
        a->d[i] = (uint32_t)(cur / m);
        rem = cur % m;
    }
    trim(a);
    return (uint32_t)rem;
}

char *mv_big_to_dec(const mv_big *a)
{
    size_t cap = a->n * 10 + 2;
    char *out = malloc(cap);
    mv_big t = {0};
    if (!out || mv_big_copy(&t, a)) {
        free(out);
        mv_big_free(&t);
        return NULL;
    }
    size_t len = 0;
    do {
        uint32_t r = div_small(&t, 1000000000u);
        for (int k = 0; k < 9; k++) {
            out[len++] = (char)('0' + r % 10);
            r /= 10;
            if (!t.n && !r)
                break;
        }
    } while (t.n);
    mv_big_free(&t);
    for (size_t i = 0; i < len / 2; i++) {
        char c = out[i];
        out[i] = out[len - 1 - i];
        out[len - 1 - i] = c;
    }
    out[len] = '\0';
    return out;
}

int mv_big_cmp(const mv_big *a, const mv_big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (size_t i = a->n; i-- > 0;)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

int mv_big_add(mv_big *a, const mv_big *b)
{
    size_t n = a->n > b->n ? a->n : b->n;
    if (reserve(a, n + 1))
        return -1;
    for (size_t i = a->n; i < n; i++)
        a->d[i] = 0;
    uint64_t carry = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t t = (uint64_t)a->d[i] + (i < b->n ? b->d[i] : 0) + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    a->d[n] = (uint32_t)carry;
    a->n = n + 1;
    trim(a);
    return 0;
}

int mv_big_sub(mv_big *a, const mv_big *b)
{
    int64_t borrow = 0;
    for (size_t i = 0; i < a->n; i++) {
        int64_t t = (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
        borrow = t < 0;
        a->d[i] = (uint32_t)(t + (borrow << 32));
    }
    trim(a);
    return 0;
}

int mv_big_mul(mv_big *out, const mv_big *a, const mv_big *b)
{
    mv_big t = {0};
    if (!a->n || !b->n) {
        out->n = 0;
        return 0;
    }
    if (reserve(&t, a->n + b->n))
        return -1;
    memset(t.d, 0, (a->n + b->n) * sizeof *t.d);
    for (size_t i = 0; i < a->n; i++) {
        uint64_t carry = 0;
        for (size_t j = 0; j < b->n; j++) {
            uint64_t x = (uint64_t)a->d[i] * b->d[j] + t.d[i + j] + carry;
            t.d[i + j] = (uint32_t)x;
            carry = x >> 32;
        }
        t.d[i + b->n] = (uint32_t)carry;
    }
    t.n = a->n + b->n;
    trim(&t);
    mv_big_free(out);
    *out = t;
    return 0;
}

static int clz32(uint32_t x)
{
    int n = 0;
    while (!(x & 0x80000000u))
        x <<= 1, n++;
    return n;
}

int mv_big_divmod(const mv_big *a, const mv_big *b, mv_big *q, mv_big *r)
{
    mv_big Q = {0}, R = {0};
    if (mv_big_cmp(a, b) < 0) {
        if (mv_big_copy(&R, a))
            return -1;
    } else if (b->n == 1) {
        if (mv_big_copy(&Q, a)) {
            mv_big_free(&Q);
            return -1;
        }
        uint32_t rem = div_small(&Q, b->d[0]);
        if (mv_big_set_u64(&R, rem)) {
            mv_big_free(&Q);
            return -1;
        }
    } else {
        /* Knuth D: normalise so that the divisor's top limb has its high bit set */
        size_t n = b->n, m = a->n - b->n;
        int s = clz32(b->d[n - 1]);
        uint32_t *u = calloc(a->n + 1, sizeof *u), *vn = calloc(n, sizeof *vn);
        if (!u || !vn || reserve(&Q, m + 1)) {
            free(u), free(vn), mv_big_free(&Q);
            return -1;
        }
        for (size_t i = n - 1; i > 0; i--)
            vn[i] = s ? (b->d[i] << s) | (b->d[i - 1] >> (32 - s)) : b->d[i];
        vn[0] = b->d[0] << s;
        u[a->n] = s ? a->d[a->n - 1] >> (32 - s) : 0;
        for (size_t i = a->n - 1; i > 0; i--)
            u[i] = s ? (a->d[i] << s) | (a->d[i - 1] >> (32 - s)) : a->d[i];
        u[0] = a->d[0] << s;
        for (size_t j = m + 1; j-- > 0;) {
            uint64_t num = ((uint64_t)u[j + n] << 32) | u[j + n - 1];
            uint64_t qhat = num / vn[n - 1], rhat = num % vn[n - 1];
            while (qhat >> 32 || qhat * vn[n - 2] > ((rhat << 32) | u[j + n - 2])) {
                qhat--;
                rhat += vn[n - 1];
                if (rhat >> 32)
                    break;
            }
            int64_t borrow = 0;
            uint64_t carry = 0;
            for (size_t i = 0; i < n; i++) {
                uint64_t p = qhat * vn[i] + carry;
                carry = p >> 32;
                int64_t t = (int64_t)u[i + j] - (int64_t)(uint32_t)p - borrow;
                u[i + j] = (uint32_t)t;
                borrow = t < 0;
            }
            int64_t t = (int64_t)u[j + n] - (int64_t)carry - borrow;
            u[j + n] = (uint32_t)t;
            if (t < 0) {            /* qhat was one too large: add the divisor back */
                qhat--;
                uint64_t c = 0;
                for (size_t i = 0; i < n; i++) {
                    uint64_t x = (uint64_t)u[i + j] + vn[i] + c;
                    u[i + j] = (uint32_t)x;
                    c = x >> 32;
                }
                u[j + n] += (uint32_t)c;
            }
            Q.d[j] = (uint32_t)qhat;
        }
        Q.n = m + 1;
        trim(&Q);
        if (reserve(&R, n)) {
            free(u), free(vn), mv_big_free(&Q);
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            R.d[i] = s ? (u[i] >> s) | (u[i + 1] << (32 - s)) : u[i];
        R.n = n;
        trim(&R);
        free(u), free(vn);
    }
    if (q) {
        mv_big_free(q);
        *q = Q;
    } else {
        mv_big_free(&Q);
    }
    if (r) {
        mv_big_free(r);
        *r = R;
    } else {
        mv_big_free(&R);
    }
    return 0;
}

int mv_big_gcd(mv_big *g, const mv_big *a, const mv_big *b)
{
    mv_big x = {0}, y = {0}, t = {0};
    if (mv_big_copy(&x, a) || mv_big_copy(&y, b))
        goto fail;
    while (y.n) {
        if (mv_big_divmod(&x, &y, NULL, &t))
            goto fail;
        mv_big_free(&x);
        x = y;
        y = t;
        t.d = NULL, t.n = t.cap = 0;
    }
    mv_big_free(&y);
    mv_big_free(g);
    *g = x;
    return 0;
fail:
    mv_big_free(&x), mv_big_free(&y), mv_big_free(&t);
    return -1;
}

char *mv_big_frac(const mv_big *a, const mv_big *b)
{
    mv_big g = {0}, p = {0}, q = {0};
    char *out = NULL, *ps = NULL, *qs = NULL;
    if (mv_big_gcd(&g, a, b))
        goto done;
    if (!g.n) {                         /* a = 0: Fraction(0, b) is "0" */
        out = mv_printf("0");
        goto done;
    }
    if (mv_big_divmod(a, &g, &p, NULL) || mv_big_divmod(b, &g, &q, NULL))
        goto done;
    ps = mv_big_to_dec(&p);
    if (!ps)
        goto done;
    if (q.n == 1 && q.d[0] == 1) {
        out = ps;
        ps = NULL;
        goto done;
    }
    qs = mv_big_to_dec(&q);
    if (qs)
        out = mv_printf("%s/%s", ps, qs);
done:
    free(ps), free(qs);
    mv_big_free(&g), mv_big_free(&p), mv_big_free(&q);
    return out;
}
