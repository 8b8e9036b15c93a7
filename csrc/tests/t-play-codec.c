/* t-play-codec: csrc/play/sha256.c and csrc/play/codec.c, the hash and the alphabet of
 * seeds and puzzle codes. SHA-256 against FIPS 180-4's examples and Python's hashlib on
 * lengths around the block boundaries, and against a slow obvious version (the whole
 * padded message in one buffer) on random input; CRC-32 against zlib's check values and
 * a bit-at-a-time version; base64url against RFC 4648's vectors, Python's decoding
 * (unused low bits ignored) and a bit-at-a-time version, round trips, and every error.
 * Buffers are exactly the documented sizes (AddressSanitizer sees any overrun).
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: play/sha256.c play/codec.c */
#include "play/play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

static uint64_t rs = 88172645463325252ULL;
static uint64_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

static void hex(const uint8_t *d, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

static int sha_is(const void *data, size_t n, const char *want)
{
    uint8_t d[32];
    char h[65];
    ml__sha256(data, n, d);
    hex(d, 32, h);
    if (strcmp(h, want) != 0) {
        printf("sha256 of %zu bytes: %s, want %s\n", n, h, want);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- slow versions */
#define ROTR(x, k) (((x) >> (k)) | ((x) << (32 - (k))))

static void slow_sha256(const uint8_t *msg, size_t n, uint8_t out[32])
{
    static const uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    size_t total = (n + 9 + 63) / 64 * 64;
    uint8_t *m = calloc(total, 1);
    memcpy(m, msg, n);
    m[n] = 0x80;
    for (int i = 0; i < 8; i++)
        m[total - 1 - i] = (uint8_t)(((uint64_t)n * 8) >> (8 * i));
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    for (size_t b = 0; b < total; b += 64) {
        uint32_t w[64], v[8];
        for (int t = 0; t < 64; t++) {
            if (t < 16) {
                w[t] = 0;
                for (int j = 0; j < 4; j++)
                    w[t] = w[t] << 8 | m[b + 4 * t + j];
            } else {
                w[t] = w[t - 16] + (ROTR(w[t - 15], 7) ^ ROTR(w[t - 15], 18) ^ (w[t - 15] >> 3))
                       + w[t - 7] + (ROTR(w[t - 2], 17) ^ ROTR(w[t - 2], 19) ^ (w[t - 2] >> 10));
            }
        }
        memcpy(v, h, sizeof v);
        for (int t = 0; t < 64; t++) {
            uint32_t t1 = v[7] + (ROTR(v[4], 6) ^ ROTR(v[4], 11) ^ ROTR(v[4], 25))
                          + ((v[4] & v[5]) ^ (~v[4] & v[6])) + k[t] + w[t];
            uint32_t t2 = (ROTR(v[0], 2) ^ ROTR(v[0], 13) ^ ROTR(v[0], 22))
                          + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
            memmove(v + 1, v, 7 * sizeof *v);
            v[4] += t1;
            v[0] = t1 + t2;
        }
        for (int i = 0; i < 8; i++)
            h[i] += v[i];
    }
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
    free(m);
}

static uint32_t slow_crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++)
            c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
    }
    return ~c;
}

static const char *B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* base64url a bit at a time: 6 bits a character, the last zero padded, no '='. */
static void slow_b64(const uint8_t *p, size_t n, char *out)
{
    size_t bits = 8 * n, o = 0;
    for (size_t at = 0; at < bits; at += 6) {
        int v = 0;
        for (int j = 0; j < 6; j++) {
            size_t b = at + (size_t)j;
            v = v << 1 | (b < bits ? (p[b / 8] >> (7 - b % 8)) & 1 : 0);
        }
        out[o++] = B64[v];
    }
    out[o] = 0;
}

/* Decode: allocate exactly the documented size, so any overrun is reported. */
static int decode(const char *text, uint8_t **out, size_t *len, size_t *bad)
{
    size_t n = strlen(text);
    size_t cap = ml__b64url_decoded_len(n);
    *out = malloc(cap ? cap : 1);
    *len = (size_t)-1;
    int rc = ml__b64url_decode(text, n, *out, len, bad);
    if (rc == ML__B64_OK && *len != cap)
        printf("decoded %zu bytes, ml__b64url_decoded_len says %zu\n", *len, cap);
    return rc;
}

int main(void)
{
    /* ---- SHA-256: FIPS 180-4 examples, Python's hashlib around the block sizes */
    CHECK(sha_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    CHECK(sha_is(NULL, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    CHECK(sha_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    CHECK(sha_is("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
                 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    {
        size_t n = 1000000;
        char *a = malloc(n);
        memset(a, 'a', n);
        CHECK(sha_is(a, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
        free(a);
    }
    {
        /* hashlib.sha256(bytes((i * 7 + 3) % 256 for i in range(n))) */
        static const struct { size_t n; const char *h; } v[] = {
            {1, "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5"},
            {55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"},
            {56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"},
            {57, "35df609437dcfea3279283ab79fd554e2bf78f8f7ae2de532d8ee300b09e8f73"},
            {63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"},
            {64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"},
            {65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"},
            {111, "67d9492e628fd376e0b2efec8ca2b99b123e202cf620deb270728df979b2f73e"},
            {119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"},
            {120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"},
            {127, "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07"},
            {128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"},
            {129, "307f8fc2c1622b92762e818d39a185d4d667ad49a4b07ceae1f4afa008a93ec4"},
            {1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"},
        };
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
            uint8_t *m = malloc(v[i].n);  /* exactly n: no read past the message */
            for (size_t j = 0; j < v[i].n; j++)
                m[j] = (uint8_t)((j * 7 + 3) % 256);
            CHECK(sha_is(m, v[i].n, v[i].h));
            free(m);
        }
    }
    for (int rep = 0; rep < 600; rep++) {
        size_t n = rep < 300 ? (size_t)rep : rnd() % 5000;
        uint8_t *m = malloc(n ? n : 1), a[32], b[32];
        for (size_t j = 0; j < n; j++)
            m[j] = (uint8_t)rnd();
        ml__sha256(m, n, a);
        slow_sha256(m, n, b);
        if (memcmp(a, b, 32) != 0) {
            printf("sha256 of %zu random bytes differs\n", n);
            fails++;
        }
        free(m);
    }

    /* ---- CRC-32: zlib's check values, the bitwise version, continuation */
    CHECK(ml__crc32("", 0) == 0);
    CHECK(ml__crc32(NULL, 0) == 0);
    CHECK(ml__crc32("123456789", 9) == 0xcbf43926u);
    CHECK(ml__crc32("The quick brown fox jumps over the lazy dog", 43) == 0x414fa339u);
    {
        uint8_t all[1024];
        for (int i = 0; i < 1024; i++)
            all[i] = (uint8_t)i;
        CHECK(ml__crc32(all, sizeof all) == 0xb70b4c26u);  /* zlib.crc32(bytes(range(256)) * 4) */
    }
    for (int rep = 0; rep < 500; rep++) {
        size_t n = rnd() % 3000, cut = n ? rnd() % n : 0;
        uint8_t *m = malloc(n ? n : 1);
        for (size_t j = 0; j < n; j++)
            m[j] = (uint8_t)rnd();
        uint32_t whole = ml__crc32(m, n);
        CHECK(whole == slow_crc32(m, n));
        CHECK(ml__crc32_update(ml__crc32(m, cut), m + cut, n - cut) == whole);
        free(m);
    }

    /* ---- base64url: RFC 4648's vectors (padding dropped), the URL-safe characters */
    {
        static const char *plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
        static const char *coded[] = {"", "Zg", "Zm8", "Zm9v", "Zm9vYg", "Zm9vYmE", "Zm9vYmFy"};
        for (int i = 0; i < 7; i++) {
            size_t n = strlen(plain[i]);
            char *out = malloc(ml__b64url_encoded_len(n) + 1);
            CHECK(ml__b64url_encode((const uint8_t *)plain[i], n, out) == strlen(coded[i]));
            CHECK(strcmp(out, coded[i]) == 0);
            free(out);
            uint8_t *d;
            size_t len, bad;
            CHECK(decode(coded[i], &d, &len, &bad) == ML__B64_OK);
            CHECK(len == n && memcmp(d, plain[i], n) == 0);
            free(d);
        }
        const uint8_t fb[3] = {0xfb, 0xff, 0xbf};
        char out[5];
        CHECK(ml__b64url_encode(fb, 3, out) == 4 && strcmp(out, "-_-_") == 0);
    }
    /* Python ignores the unused low bits: urlsafe_b64decode("Zh==") == b"f" */
    {
        uint8_t *d;
        size_t len, bad = 99;
        CHECK(decode("Zh", &d, &len, &bad) == ML__B64_OK && len == 1 && d[0] == 'f');
        free(d);
        CHECK(decode("Zm9", &d, &len, &bad) == ML__B64_OK && len == 2 && memcmp(d, "fo", 2) == 0);
        free(d);
        /* errors: the first bad character's index; a length that is 1 mod 4 */
        CHECK(decode("Zm9v+Yg", &d, &len, &bad) == ML__B64_CHARACTER && bad == 4);
        free(d);
        CHECK(decode("Zm9v=", &d, &len, &bad) == ML__B64_CHARACTER && bad == 4);
        free(d);
        CHECK(decode("a b", &d, &len, &bad) == ML__B64_CHARACTER && bad == 1);
        free(d);
        CHECK(decode("\xc3\xa9", &d, &len, &bad) == ML__B64_CHARACTER && bad == 0);
        free(d);
        CHECK(decode("Zm9vY", &d, &len, &bad) == ML__B64_LENGTH);
        free(d);
        CHECK(decode("A", &d, &len, &bad) == ML__B64_LENGTH);
        free(d);
        CHECK(ml__b64url_decode("%", 1, NULL, NULL, NULL) == ML__B64_CHARACTER);
    }
    /* round trips and the bitwise encoder on random bytes; every character is base64url */
    for (int rep = 0; rep < 2000; rep++) {
        size_t n = rep < 100 ? (size_t)rep : rnd() % 700;
        uint8_t *m = malloc(n ? n : 1);
        for (size_t j = 0; j < n; j++)
            m[j] = (uint8_t)rnd();
        size_t cl = ml__b64url_encoded_len(n);
        char *a = malloc(cl + 1), *b = malloc(cl + 8 * 2 + 2);
        CHECK(ml__b64url_encode(m, n, a) == cl && strlen(a) == cl);
        slow_b64(m, n, b);
        CHECK(strcmp(a, b) == 0);
        CHECK(cl % 4 != 1);
        uint8_t *d;
        size_t len, bad;
        CHECK(decode(a, &d, &len, &bad) == ML__B64_OK && len == n && memcmp(d, m, n) == 0);
        free(d);
        /* every other character in some position: refused, at that index */
        if (cl) {
            size_t at = rnd() % cl;
            char saved = a[at], ch;
            do {
                ch = (char)(rnd() % 255 + 1);
            } while (strchr(B64, ch));
            a[at] = ch;
            CHECK(decode(a, &d, &len, &bad) == ML__B64_CHARACTER && bad == at);
            free(d);
            a[at] = saved;
        }
        free(m);
        free(a);
        free(b);
    }
    printf("fails=%d\n", fails);
    return fails != 0;
}
