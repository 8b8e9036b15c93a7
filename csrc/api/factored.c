/* factored.c: counts past 64 bits, factored over the primes of n (modlights.h: big
 * counts): |ker A| = prod prime[i]^exp[i]. The value in 64 bits, its log2 and its
 * decimal digits (schoolbook multiplication in base 10^9: O(digits^2 / 81) word
 * operations, polled for stops). */
#include "api/ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most decimal digits ml_factored_decimal writes (modlights.h: 10^8). */
#define ML_MAX_DIGITS 100000000LL

/* log2 of the primes up to 255 (Python's math.log2, correctly rounded here): the
 * library needs no libm. */
static const double log2_prime[256] = {
    [2] = 1.0, [3] = 1.584962500721156, [5] = 2.321928094887362,
    [7] = 2.807354922057604, [11] = 3.4594316186372973, [13] = 3.700439718141092,
    [17] = 4.087462841250339, [19] = 4.247927513443585, [23] = 4.523561956057013,
    [29] = 4.857980995127572, [31] = 4.954196310386875, [37] = 5.20945336562895,
    [41] = 5.357552004618084, [43] = 5.426264754702098, [47] = 5.554588851677638,
    [53] = 5.727920454563199, [59] = 5.882643049361842, [61] = 5.930737337562887,
    [67] = 6.066089190457772, [71] = 6.149747119504682, [73] = 6.189824558880018,
    [79] = 6.303780748177103, [83] = 6.3750394313469245, [89] = 6.475733430966398,
    [97] = 6.599912842187128, [101] = 6.658211482751795, [103] = 6.6865005271832185,
    [107] = 6.741466986401147, [109] = 6.768184324776926, [113] = 6.820178962415188,
    [127] = 6.9886846867721655, [131] = 7.03342300153745, [137] = 7.098032082960526,
    [139] = 7.118941072723508, [149] = 7.219168520462161, [151] = 7.2384047393250786,
    [157] = 7.294620748891627, [163] = 7.348728154231077, [167] = 7.383704292474052,
    [173] = 7.434628227636725, [179] = 7.483815777264256, [181] = 7.499845887083206,
    [191] = 7.577428828035749, [193] = 7.592457037268081, [197] = 7.622051819456376,
    [199] = 7.636624620543649, [211] = 7.721099188707185, [223] = 7.800899899920305,
    [227] = 7.826548487290915, [229] = 7.839203788096944, [233] = 7.864186144654281,
    [239] = 7.900866807980749, [241] = 7.912889336229962, [251] = 7.971543553950772,
};

static int is_prime(uint32_t p) { return p < 256 && log2_prime[p] > 0.0; }

/* ML_OK when f is a factored count: 0..ML_MAX_PRIMES distinct primes up to 255. */
static int check(ml_ctx *ctx, const char *fn, const ml_factored *f)
{
    if (!f)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "f");
    int ok = f->count >= 0 && f->count <= ML_MAX_PRIMES;
    for (int i = 0; ok && i < f->count; i++) {
        ok = f->prime[i] <= 255 && is_prime(f->prime[i]);
        for (int k = 0; ok && k < i; k++)
            ok = f->prime[k] != f->prime[i];
    }
    return ok ? ML_OK : ml__fail(ctx, ML_M_FACTORED_INVALID, fn, f->count, ML_MAX_PRIMES);
}

static double log2_of(const ml_factored *f)
{
    double s = 0.0;
    for (int i = 0; i < f->count; i++)
        s += (double)f->exp[i] * log2_prime[f->prime[i] & 255];
    return s;
}

double ml_factored_log2(const ml_factored *f)
{
    if (!f || f->count < 0 || f->count > ML_MAX_PRIMES)
        return 0.0;
    return log2_of(f);
}

int ml_factored_u64(ml_ctx *ctx, const ml_factored *f, uint64_t *out)
{
    ctx = ml__begin(ctx);
    int rc = check(ctx, "ml_factored_u64", f);
    if (rc)
        return rc;
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_factored_u64", "out");
    uint64_t v = 1;
    for (int i = 0; i < f->count; i++)
        for (uint64_t e = 0; e < f->exp[i]; e++) {
            if (v > UINT64_MAX / f->prime[i])
                return ml__fail(ctx, ML_M_FACTORED_RANGE, log2_of(f));
            v *= f->prime[i];
        }
    *out = v;
    return ML_OK;
}

/* x (n limbs of base 10^9, least significant first) *= m (m < 2^32); returns the new n
 * (the caller sizes x for the final value, which bounds every partial product) */
static size_t mul_small(uint32_t *x, size_t n, uint64_t m)
{
    uint64_t carry = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t t = (uint64_t)x[i] * m + carry;
        x[i] = (uint32_t)(t % 1000000000u);
        carry = t / 1000000000u;
    }
    while (carry) {
        x[n++] = (uint32_t)(carry % 1000000000u);
        carry /= 1000000000u;
    }
    return n;
}

int ml_factored_decimal(ml_ctx *ctx, const ml_factored *f, char *buf, size_t cap, size_t *len)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    int rc = check(ctx, "ml_factored_decimal", f);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    if (!buf && cap)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_factored_decimal", "buf"));
    double l10 = log2_of(f) * 0.30102999566398120;    /* digits - 1, about */
    if (l10 >= (double)ML_MAX_DIGITS)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_FACTORED_DIGITS, l10 + 1.0, ML_MAX_DIGITS));
    double digits = (double)(uint64_t)l10 + 1.0;
    size_t limbs = (size_t)(digits / 9.0) + 3;
    uint32_t *x = malloc(limbs * sizeof *x);
    if (!x)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, "ml_factored_decimal"));
    x[0] = 1;
    size_t n = 1;
    for (int i = 0; i < f->count && rc == ML_OK; i++) {
        uint64_t p = f->prime[i], e = f->exp[i];
        while (e > 0) {
            uint64_t m = 1;       /* the largest power of p below 2^32 within e */
            while (e > 0 && m * p < ((uint64_t)1 << 32)) {
                m *= p;
                e--;
            }
            n = mul_small(x, n, m);
            if (ml_interrupt_poll()) {
                rc = ml__fail(ctx, ML_M_INTERRUPTED);
                break;
            }
        }
    }
    if (rc == ML_OK) {
        /* the most significant limb without zeros, then 9 digits a limb */
        char head[16];
        int hl = snprintf(head, sizeof head, "%u", x[n - 1]);
        size_t total = (size_t)hl + 9 * (n - 1);
        if (len)
            *len = total;
        if (cap) {
            size_t o = 0;
            for (int k = 0; k < hl && o + 1 < cap; k++)
                buf[o++] = head[k];
            for (size_t i = n - 1; i-- > 0 && o + 1 < cap;) {
                char d[10];
                snprintf(d, sizeof d, "%09u", x[i]);
                for (int k = 0; k < 9 && o + 1 < cap; k++)
                    buf[o++] = d[k];
            }
            buf[o] = 0;
        }
    }
    free(x);
    return ml__leave(ctx, &sc, rc);
}
