/* t-verify: csrc/verify, the certificate checker (ml_verify_json). Certificates written
 * by Python (sol.certificate(), h.certificate(): enumeration, trees with symmetries and
 * a pruned prefix, lp-dual and lp-tree bounds, an lp-tree with a symmetry node, a graph
 * board) hold with Python's
 * summaries; tampered copies fail with Python's messages and message ids; random byte
 * mutations of each are read or refused cleanly (a status of the checker, the message
 * id consistent with it; ASan and UBSan in .ci/sanitize); the big integers against
 * unsigned __int128 and the identity a = q b + r on numbers of hundreds of limbs; a stop
 * requested before the call interrupts it. `t-verify FILE` checks every case of a
 * golden file instead (js/test/golden/verify.json: each certificate's verdict, summary
 * or message, written by Python). (tests/search/test_verify_c.py compares the checker
 * with Python's on many more certificates.)
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: verify/verify.c verify/verify_read.c verify/verify_board.c verify/verify_algebra.c verify/verify_claims.c verify/verify_upper.c verify/verify_count.c verify/verify_bounds.c verify/verify_big.c api/json.c api/json_repr.c api/json_write.c api/ctx.c api/errors.c base/interrupt.c api/version.c */
#define ML_T_SEED 0x7E21F1C0DEull
#include "t-util.h"
#include "include/modlights.h"
#include "verify/verify_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Written by Python (modlights.search.verify.summary gives each summary). */
static const struct { const char *json, *summary; } CERTS[] = {
    {
     "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"minimal\",\"board\":{\"rows\":3,\"cols\":"
     "3,\"states\":3,\"pattern\":\"cross\",\"locked\":[],\"holes\":[],\"wrap\":false},\"kernel\":{\"generator"
     "s\":[],\"orders\":[]},\"rhs\":[1,0,2,1,1,2,0,1,2],\"taps\":[2,0,1,2,0,1,0,1,0],\"length\":7,\"proo"
     "f\":{\"method\":\"enumeration\"}}"
     ,
     "no solution has fewer than 7 taps (enumeration of 1 solutions)"},
    {
     "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"minimal\",\"board\":{\"rows\":4,\"cols\":"
     "4,\"states\":2,\"pattern\":\"cross\",\"locked\":[],\"holes\":[],\"wrap\":false},\"kernel\":{\"generator"
     "s\":[[1,0,0,0,1,1,0,0,1,0,1,0,0,1,1,1],[0,1,0,0,1,1,1,0,0,0,0,1,1,1,0,1],[0,0,1,0,0,1,1,1"
     ",1,0,0,0,1,0,1,1],[0,0,0,1,0,0,1,1,0,1,0,1,1,1,1,0]],\"orders\":[2,2,2,2]},\"rhs\":[1,1,1,1,"
     "1,1,1,1,1,1,1,1,1,1,1,1],\"taps\":[0,1,0,0,0,0,0,1,1,0,0,0,0,0,1,0],\"length\":4,\"proof\":{\"m"
     "ethod\":\"tree\",\"leaf_dim\":0,\"pruned\":[],\"symmetries\":[{\"cells\":[3,2,1,0,7,6,5,4,11,10,9,8"
     ",15,14,13,12],\"taps\":[3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12]},{\"cells\":[12,13,14,15,8,9,"
     "10,11,4,5,6,7,0,1,2,3],\"taps\":[12,13,14,15,8,9,10,11,4,5,6,7,0,1,2,3]},{\"cells\":[0,4,8,1"
     "2,1,5,9,13,2,6,10,14,3,7,11,15],\"taps\":[0,4,8,12,1,5,9,13,2,6,10,14,3,7,11,15]},{\"cells\""
     ":[15,11,7,3,14,10,6,2,13,9,5,1,12,8,4,0],\"taps\":[15,11,7,3,14,10,6,2,13,9,5,1,12,8,4,0]}"
     ",{\"cells\":[3,7,11,15,2,6,10,14,1,5,9,13,0,4,8,12],\"taps\":[3,7,11,15,2,6,10,14,1,5,9,13,0"
     ",4,8,12]},{\"cells\":[15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0],\"taps\":[15,14,13,12,11,10,9,8"
     ",7,6,5,4,3,2,1,0]},{\"cells\":[12,8,4,0,13,9,5,1,14,10,6,2,15,11,7,3],\"taps\":[12,8,4,0,13,"
     "9,5,1,14,10,6,2,15,11,7,3]}]}}"
     ,
     "no solution has fewer than 4 taps (tree: 0 pruned prefixes, 5 leaves checked, 11 mapped by symmetries)"},
    {
     "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"minimal\",\"board\":{\"rows\":4,\"cols\":"
     "4,\"states\":3,\"pattern\":\"cross\",\"locked\":[],\"holes\":[],\"wrap\":false},\"kernel\":{\"generator"
     "s\":[[1,0,0,2,2,2,1,1,1,1,2,2,2,0,0,1],[0,1,2,0,2,0,0,1,1,0,0,2,0,2,1,0]],\"orders\":[3,3]}"
     ",\"rhs\":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],\"taps\":[0,0,1,0,1,0,0,0,0,0,0,1,0,1,0,0],\"lengt"
     "h\":4,\"proof\":{\"method\":\"tree\",\"leaf_dim\":1,\"pruned\":[[0]]}}"
     ,
     "no solution has fewer than 4 taps (tree: 1 pruned prefixes, 2 leaves checked, 0 mapped by symmetries)"},
    {
     "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"hardest\",\"board\":{\"rows\":3,\"cols\":"
     "3,\"states\":2,\"pattern\":\"cross\",\"locked\":[],\"holes\":[],\"wrap\":false},\"kernel\":{\"generator"
     "s\":[],\"orders\":[]},\"lower\":9,\"upper\":9,\"witness\":{\"rhs\":[1,0,1,0,1,0,1,0,1],\"taps\":[1,1,"
     "1,1,1,1,1,1,1],\"length\":9,\"proof\":{\"method\":\"enumeration\"}},\"upper_bound\":{\"method\":\"lp-"
     "dual\",\"elements\":[[]],\"weights\":[\"1\"]}}"
     ,
     "the hardest board needs exactly 9 taps (witness: enumeration of 1 solutions; upper: LP dual over 1 kernel elements, bound 9 (floor 9))"},
    {
     "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"hardest\",\"board\":{\"rows\":4,\"cols\":"
     "4,\"states\":2,\"pattern\":\"cross\",\"locked\":[],\"holes\":[],\"wrap\":false},\"kernel\":{\"generator"
     "s\":[[1,0,0,0,1,1,0,0,1,0,1,0,0,1,1,1],[0,1,0,0,1,1,1,0,0,0,0,1,1,1,0,1],[0,0,1,0,0,1,1,1"
     ",1,0,0,0,1,0,1,1],[0,0,0,1,0,0,1,1,0,1,0,1,1,1,1,0]],\"orders\":[2,2,2,2]},\"lower\":7,\"uppe"
     "r\":7,\"witness\":{\"rhs\":[1,0,1,1,1,0,1,1,1,1,0,0,0,1,1,1],\"taps\":[0,0,0,0,1,0,1,1,0,0,1,1,"
     "0,0,1,1],\"length\":7,\"proof\":{\"method\":\"enumeration\"}},\"upper_bound\":{\"method\":\"lp-tree\","
     "\"elements\":[[0,0,0,0],[1,0,0,0],[0,0,0,1],[1,0,0,1]],\"pinned\":[2,7,1,8],\"nodes\":[{\"weigh"
     "ts\":{\"0\":\"1/4\",\"1\":\"1/4\",\"2\":\"1/4\",\"3\":\"1/4\"}}]}}"
     ,
     "the hardest board needs exactly 7 taps (witness: enumeration of 16 solutions; upper: LP tree of 1 closed leaves, largest bound 7)"},
    {
     "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"minimal\",\"board\":{\"rows\":3,\"cols\":"
     "5,\"states\":8,\"pattern\":\"knight\",\"locked\":[[0,0]],\"holes\":[[1,2]],\"wrap\":false},\"kernel\":"
     "{\"generators\":[[2,2,4,2,4,6,6,4,6,0,2,6,4]],\"orders\":[4]},\"rhs\":[7,1,1,4,7,7,7,0,6,4,6,5"
     ",5,0],\"taps\":[1,7,2,1,3,7,0,2,3,7,5,6,6],\"length\":50,\"proof\":{\"method\":\"enumeration\"}}"
     ,
     "no solution has fewer than 50 taps (enumeration of 4 solutions)"},
    {
     "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"minimal\",\"board\":{\"effects\":[[0,0]"
     ",[1],[0,1,1],[2,2],[2]],\"states\":4,\"n_cells\":3},\"kernel\":{\"generators\":[[1,0,2,0,0],[0,0"
     ",0,1,2]],\"orders\":[4,4]},\"rhs\":[3,2,1],\"taps\":[1,0,1,0,1],\"length\":3,\"proof\":{\"method\":\""
     "enumeration\"}}"
     ,
     "no solution has fewer than 3 taps (enumeration of 16 solutions)"},    {
     "{\"format\":\"modlights-certificate\",\"version\":1,\"kind\":\"hardest\",\"board\":{\"rows\":2,\""
     "cols\":5,\"states\":2,\"pattern\":\"horizontal\",\"locked\":[],\"holes\":[],\"wrap\":false},\"ke"
     "rnel\":{\"generators\":[[1,1,0,1,1,0,0,0,0,0],[0,0,0,0,0,1,1,0,1,1]],\"orders\":[2,2]},\"lower\""
     ":6,\"upper\":6,\"witness\":{\"rhs\":[0,1,0,1,0,0,1,0,1,0],\"taps\":[0,0,1,1,1,0,0,1,1,1],\"lengt"
     "h\":6,\"proof\":{\"method\":\"enumeration\"}},\"upper_bound\":{\"method\":\"lp-tree\",\"elements"
     "\":[[0,0],[1,0],[0,1],[1,1]],\"pinned\":[],\"symmetries\":[{\"cells\":[9,8,7,6,5,4,3,2,1,0],\"ta"
     "ps\":[9,8,7,6,5,4,3,2,1,0]}],\"nodes\":[{\"branch-group\":[5,6,8,9],\"splits\":[2]},{\"weights\""
     ":{\"0\":\"1/2\",\"1\":\"1/2\"}},{\"branch-group\":[5,6,8,9],\"splits\":[3]},{\"branch-group\":[0"
     ",1,3,4],\"splits\":[2]},{\"symmetry\":0,\"to\":1},{\"branch-group\":[0,1,3,4],\"splits\":[3]},{\""
     "weights\":{\"0\":\"1\"}},{\"weights\":{\"1\":\"1\"}},{\"weights\":{\"2\":\"1/2\",\"3\":\"1/2\"}}"
     "]}}"
     ,
     "the hardest board needs exactly 6 taps (witness: enumeration of 4 solutions; upper: LP tree of 4 closed leaves, largest bound 6, 1 mapped by symmetries)"},
};
#define NCERTS (sizeof CERTS / sizeof CERTS[0])

static int run(const char *json, size_t len, char *out, size_t cap)
{
    size_t n = 0;
    return ml_verify_json(NULL, json, len, out, cap, &n);
}

static void holds(void)
{
    char out[4096];
    for (size_t i = 0; i < NCERTS; i++) {
        size_t n = 0;
        int rc = ml_verify_json(NULL, CERTS[i].json, strlen(CERTS[i].json), out, sizeof out, &n);
        CHECK(rc == ML_OK, "cert %zu: %s", i, ml_errmsg(NULL));
        CHECK(!strcmp(out, CERTS[i].summary), "cert %zu: %s", i, out);
        CHECK(n == strlen(CERTS[i].summary));
        /* a short buffer: cut, NUL-terminated, the full length told */
        char small[8];
        rc = ml_verify_json(NULL, CERTS[i].json, strlen(CERTS[i].json), small, sizeof small, &n);
        CHECK(rc == ML_OK && strlen(small) == 7 && n == strlen(CERTS[i].summary));
        CHECK(ml_verify_json(NULL, CERTS[i].json, strlen(CERTS[i].json), NULL, 0, NULL) == ML_OK);
    }
}

/* The certificate i with the first `from` replaced by `to`: its status, id and message. */
static void tampered(size_t i, const char *from, const char *to, int id, const char *msg)
{
    const char *json = CERTS[i].json, *at = strstr(json, from);
    CHECK(at != NULL, "cert %zu has no %s", i, from);
    if (!at)
        return;
    size_t len = strlen(json) - strlen(from) + strlen(to);
    char *t = malloc(len + 1);
    memcpy(t, json, (size_t)(at - json));
    strcpy(t + (at - json), to);
    strcat(t, at + strlen(from));
    char out[256];
    int rc = run(t, len, out, sizeof out);
    CHECK(rc == ML_EINVAL && ml_errmsg_id(NULL) == id && !strcmp(ml_errmsg(NULL), msg),
          "cert %zu %s -> %s: rc %d id %s: %s", i, from, to, rc, ml_msg_name(ml_errmsg_id(NULL)),
          ml_errmsg(NULL));
    free(t);
}

static void rejected(void)
{
    const int F = ML_M_CERT_FORMAT, I = ML_M_CERT_INVALID;
    tampered(0, "\"version\":1", "\"version\":2", F,
             "unknown certificate version 2: this checker reads version 1");
    tampered(0, "\"kind\":\"minimal\"", "\"kind\":null", F,
             "unknown certificate kind None: use 'minimal', 'hardest' or 'bounds'");
    tampered(0, "\"length\":7", "\"length\":6", I, "length 6 is not the sum of the taps (7)");
    tampered(0, "\"states\":3", "\"states\":1", I, "states must be from 2 to 255, got 1");
    tampered(0, "\"pattern\":\"cross\"", "\"pattern\":\"nope\"", I,
             "pattern: unknown pattern 'nope': use one of 'cross', 'diagonal', 'square', "
             "'horizontal', 'vertical', 'knight', or a sequence of (dr, dc) offsets");
    tampered(0, "\"locked\":[]", "\"locked\":[[3,0]]", I,
             "locked (3, 0) is off the board: rows 0..2, cols 0..2");
    tampered(0, "\"rhs\":[1,", "\"rhs\":[2,", I,
             "taps do not solve the board: A x != rhs at cell 0");
    tampered(1, "\"leaf_dim\":0", "\"leaf_dim\":9", I, "proof leaf_dim must be in 0..4, got 9");
    tampered(1, "\"method\":\"tree\"", "\"method\":\"guess\"", I,
             "proof method 'guess' is unknown: use 'enumeration' or 'tree'");
    tampered(2, "\"pruned\":[[0]]", "\"pruned\":[[0,0,0]]", I,
             "proof pruned prefix 0 must be a list of at most 1 coefficients");
    tampered(2, "\"pruned\":[[0]]", "\"pruned\":[[1],[]]", I,
             "proof: pruned prefix [] has bound 0 < length 4");
    tampered(3, "\"weights\":[\"1\"]", "\"weights\":[\"1/2\"]", I,
             "lp-dual: the weights sum to 1/2, not 1");
    tampered(3, "\"weights\":[\"1\"]", "\"weights\":[\"-1\"]", I,
             "lp-dual: weight 0 is negative (-1)");
    tampered(3, "\"weights\":[\"1\"]", "\"weights\":[\"1/0\"]", I,
             "lp-dual weight 0 has denominator 0");
    tampered(3, "\"upper\":9", "\"upper\":8", I, "lower 9 > upper 8");
    tampered(4, "\"nodes\":[", "\"nodes\":[{\"branch\":0},", I,
             "upper_bound: the tree ends early (after 2 nodes)");
    tampered(6, "\"n_cells\":3", "\"n_cells\":2", I,
             "effects: cell index 2 out of range: cells are 0..1");
    tampered(7, "\"to\":1}", "\"to\":3}", I,
             "upper_bound node 4 maps to node 3, whose subtree does not end before it");
    tampered(7, "\"splits\":[2]},{\"weights\"", "\"splits\":[1]},{\"weights\"", I,
             "upper_bound node 4: symmetry 0 does not map it into node 1");
    tampered(7, "\"taps\":[9,8,", "\"taps\":[8,9,", I,
             "upper_bound symmetry 0 is not an automorphism of A");
    tampered(7, "\"symmetry\":0,", "\"symmetry\":1,", I,
             "upper_bound node 4 symmetry must be in 0..0, got 1");
    tampered(7, "\"symmetries\":[{", "\"symmetries\":[7,{", I,
             "upper_bound symmetry 0 must be a JSON object, got int");
    tampered(7, "\"cells\":[9,8,7", "\"cells\":[9,9,7", I,
             "upper_bound symmetry 0 is not a pair of permutations");
    /* not JSON, and NULL arguments */
    CHECK(run("{\"format\":", 11, NULL, 0) == ML_EINVAL && ml_errmsg_id(NULL) == ML_M_JSON_SYNTAX);
    CHECK(ml_verify_json(NULL, NULL, 3, NULL, 0, NULL) == ML_EMISUSE);
    CHECK(run("[]", 2, NULL, 0) == ML_EINVAL && ml_errmsg_id(NULL) == F &&
          !strcmp(ml_errmsg(NULL), "a certificate is a JSON object, got list"));
}

/* Random byte mutations: a status of the checker, never a crash or another status. */
static void mutations(void)
{
    const char alphabet[] = "0123456789-/[]{},:\"tfnlx. ";
    char out[512];
    for (size_t i = 0; i < NCERTS; i++) {
        size_t len = strlen(CERTS[i].json);
        char *t = malloc(len + 8);
        for (int k = 0; k < 400; k++) {
            memcpy(t, CERTS[i].json, len + 1);
            size_t n = len;
            for (int e = 0, edits = (int)rnd_range(1, 3); e < edits; e++) {
                size_t at = (size_t)rnd_range(0, (int64_t)n - 1);
                char c = alphabet[rnd_range(0, (int64_t)sizeof alphabet - 2)];
                if (rnd() % 4 == 0 && n > 1) {
                    memmove(t + at, t + at + 1, n - at);
                    n--;
                } else {
                    t[at] = c;
                }
            }
            int rc = run(t, n, out, sizeof out);
            int id = ml_errmsg_id(NULL);
            CHECK(rc == ML_OK || (rc == ML_EINVAL && (id == ML_M_CERT_FORMAT ||
                  id == ML_M_CERT_INVALID || id == ML_M_JSON_SYNTAX)) || rc == ML_ENOMEM,
                  "cert %zu mutation %d: rc %d %s", i, k, rc, ml_errmsg(NULL));
            CHECK(rc != ML_OK || ml_errcode(NULL) == ML_OK);
        }
        free(t);
    }
}

/* ---------------------------------------------------------------- big integers */
static void big_of(mv_big *a, unsigned __int128 x)
{
    mv_big_set_u64(a, (uint64_t)(x >> 64));
    mv_big_mul_small(a, 1u << 16), mv_big_mul_small(a, 1u << 16);
    mv_big_mul_small(a, 1u << 16), mv_big_mul_small(a, 1u << 16);
    mv_big lo = {0};
    mv_big_set_u64(&lo, (uint64_t)x);
    mv_big_add(a, &lo);
    mv_big_free(&lo);
}

static unsigned __int128 u128_of(const mv_big *a)
{
    unsigned __int128 x = 0;
    for (size_t i = a->n; i-- > 0;)
        x = (x << 32) | a->d[i];
    return x;
}

static unsigned __int128 rnd128(void)
{
    int bits = (int)rnd_range(1, 127);
    unsigned __int128 x = ((unsigned __int128)rnd() << 64) | rnd();
    return x >> (128 - bits);
}

static void bigs(void)
{
    for (int k = 0; k < 3000; k++) {
        unsigned __int128 x = rnd128(), y = rnd128() | 1;
        mv_big a = {0}, b = {0}, q = {0}, r = {0}, g = {0}, s = {0};
        big_of(&a, x), big_of(&b, y);
        CHECK(u128_of(&a) == x && mv_big_cmp(&a, &b) == (x < y ? -1 : x > y));
        mv_big_divmod(&a, &b, &q, &r);
        CHECK(u128_of(&q) == x / y && u128_of(&r) == x % y, "k %d", k);
        unsigned __int128 gx = x, gy = y;
        while (gy) {
            unsigned __int128 t = gx % gy;
            gx = gy, gy = t;
        }
        mv_big_gcd(&g, &a, &b);
        CHECK(u128_of(&g) == gx);
        char *dec = mv_big_to_dec(&a);
        mv_big_from_dec(&s, dec, strlen(dec));
        CHECK(mv_big_cmp(&s, &a) == 0, "%s", dec);
        free(dec);
        mv_big_free(&a), mv_big_free(&b), mv_big_free(&q), mv_big_free(&r);
        mv_big_free(&g), mv_big_free(&s);
    }
    /* a = q b + r with 0 <= r < b on numbers of up to 300 limbs */
    for (int k = 0; k < 300; k++) {
        mv_big a = {0}, b = {0}, q = {0}, r = {0}, back = {0};
        mv_big_set_u64(&a, rnd() | 1), mv_big_set_u64(&b, rnd() | 1);
        for (int64_t i = rnd_range(0, 300); i > 0; i--)
            mv_big_mul_small(&a, (uint32_t)rnd() | 1u);
        for (int64_t i = rnd_range(0, 150); i > 0; i--)
            mv_big_mul_small(&b, (uint32_t)(rnd() % 4 ? rnd() | 1u : 0xFFFFFFFFu));
        mv_big_divmod(&a, &b, &q, &r);
        mv_big_mul(&back, &q, &b);
        mv_big_add(&back, &r);
        CHECK(mv_big_cmp(&back, &a) == 0 && mv_big_cmp(&r, &b) < 0, "k %d", k);
        mv_big_free(&a), mv_big_free(&b), mv_big_free(&q), mv_big_free(&r), mv_big_free(&back);
    }
    mv_big a = {0}, b = {0};
    mv_big_set_u64(&a, 6), mv_big_set_u64(&b, 4);
    char *f = mv_big_frac(&a, &b);
    CHECK(!strcmp(f, "3/2"));
    free(f);
    mv_big_set_u64(&a, 0);
    f = mv_big_frac(&a, &b);
    CHECK(!strcmp(f, "0"));
    free(f);
    mv_big_free(&a), mv_big_free(&b);
}

/* The coset walk (packed Gray code for n = 2, the odometer otherwise) against plain
 * enumeration of every coefficient vector. */
static void walks(void)
{
    mv v;
    memset(&v, 0, sizeof v);
    for (int k_ = 0; k_ < 300; k_++) {
        int n = (int)rnd_range(2, 6);
        int64_t k = rnd_range(0, 6), r = rnd_range(0, 140);
        uint8_t *H = malloc(mv_sz(k * r)), *y = malloc(mv_sz(r)), *z = malloc(mv_sz(r));
        int orders[8];
        for (int64_t i = 0; i < k; i++) {
            orders[i] = rnd() % 5 ? n : 1;      /* an order-1 generator is zero */
            for (int64_t j = 0; j < r; j++)
                H[i * r + j] = orders[i] == 1 ? 0 : (uint8_t)rnd_range(0, n - 1);
        }
        for (int64_t j = 0; j < r; j++)
            y[j] = (uint8_t)rnd_range(0, n - 1);
        int64_t got = -1, want = INT64_MAX, total = 1, c[8] = {0};
        for (int64_t i = 0; i < k; i++)
            total *= orders[i];
        for (int64_t e = 0; e < total; e++) {
            int64_t x = e, len = 0;
            for (int64_t i = 0; i < k; i++)
                c[i] = x % orders[i], x /= orders[i];
            for (int64_t j = 0; j < r; j++) {
                int64_t s = y[j];
                for (int64_t i = 0; i < k; i++)
                    s += c[i] * H[i * r + j];
                len += s % n;
            }
            if (len < want)
                want = len;
        }
        CHECK(mv_coset_min(&v, y, H, orders, k, r, n, &got) == ML_OK && got == want,
              "n %d k %lld r %lld: %lld, want %lld", n, (long long)k, (long long)r,
              (long long)got, (long long)want);
        free(H), free(y), free(z);
    }
}

static void stopped(void)
{
    ml_ctx *ctx = NULL;
    CHECK(ml_ctx_new(&ctx) == ML_OK);
    ml_ctx_stop(ctx);
    int rc = ml_verify_json(ctx, CERTS[1].json, strlen(CERTS[1].json), NULL, 0, NULL);
    CHECK(rc == ML_EINTERRUPTED, "rc %d %s", rc, ml_errmsg(ctx));
    rc = ml_verify_json(ctx, CERTS[1].json, strlen(CERTS[1].json), NULL, 0, NULL);
    CHECK(rc == ML_OK, "the stop is used up: rc %d", rc);
    ml_ctx_free(ctx);
}

/* The cases of a golden file: {"cases": [{"name", "cert", "ok", "summary" | "message"}]}. */
static int golden(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("cannot open %s\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    size_t got = fread(text, 1, (size_t)size, f);
    fclose(f);
    ml_json j;
    CHECK(got == (size_t)size && ml__json_parse(NULL, &j, text, got, "golden", 0) == ML_OK);
    size_t cases = ml__json_get(&j, 0, "cases"), c = cases + 1, count = 0;
    char *out = malloc(1 << 16);
    for (size_t i = 0; i < j.tok[cases].count; i++, c = ml__json_next(&j, c), count++) {
        size_t cert = ml__json_get(&j, c, "cert"), ok = ml__json_get(&j, c, "ok");
        int want_ok = j.tok[ok].v.i != 0;
        size_t want = ml__json_get(&j, c, want_ok ? "summary" : "message");
        char expect[8192];
        ml__json_str(&j, want, expect, sizeof expect);
        /* a container token's bytes are its text: the certificate as written */
        int rc = ml_verify_json(NULL, text + j.tok[cert].start, j.tok[cert].len, out, 1 << 16,
                                NULL);
        const char *said = rc == ML_OK ? out : ml_errmsg(NULL);
        CHECK((rc == ML_OK) == want_ok && !strcmp(said, expect), "case %zu: %s", i, said);
    }
    printf("%zu golden cases\n", count);
    free(out);
    ml__json_free(&j);
    free(text);
    return t_done();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return golden(argv[1]);
    holds();
    rejected();
    mutations();
    bigs();
    walks();
    stopped();
    return t_done();
}
