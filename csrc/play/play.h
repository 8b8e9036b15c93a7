/* play.h: the internal helpers of the puzzle layer (csrc/play), for its modules and
 * the puzzle codes: SHA-256, zlib's CRC-32, base64url without padding, and Python's
 * str rules (UTF-8 reading, repr(), strip(), \d) that messages and parsers need to
 * give Python's answers. None of these is part of modlights.h (the library hides them). */
#ifndef ML_PLAY_H
#define ML_PLAY_H

#include <stddef.h>
#include <stdint.h>

#include "include/modlights.h"

/* ------------------------------------------------------------------ sha256.c */
/* SHA-256 (FIPS 180-4) of len bytes (data may be NULL when len is 0). O(len). */
void ml__sha256(const void *data, size_t len, uint8_t out[32]);

/* ------------------------------------------------------------------ codec.c */
/* zlib's crc32(data) (the CRC-32 of ISO 3309 / ITU-T V.42 that zlib.crc32 computes). */
uint32_t ml__crc32(const void *data, size_t len);
/* The same, continued from a previous value: ml__crc32_update(ml__crc32(a), b) is the
 * CRC of a then b (zlib.crc32(b, crc)); ml__crc32_update(0, p, n) == ml__crc32(p, n). */
uint32_t ml__crc32_update(uint32_t crc, const void *data, size_t len);

/* Characters base64url gives n bytes without padding: ceil(4 n / 3) (n <= SIZE_MAX / 2). */
size_t ml__b64url_encoded_len(size_t n);
/* base64url (RFC 4648 section 5: A-Z a-z 0-9 - _) of n bytes, without '=' padding,
 * into out (ml__b64url_encoded_len(n) characters and a NUL). Returns the characters
 * written, the NUL not counted. */
size_t ml__b64url_encode(const uint8_t *in, size_t n, char *out);

/* The failures of ml__b64url_decode. */
enum {
    ML__B64_OK = 0,
    ML__B64_CHARACTER = 1, /* a character outside A-Z a-z 0-9 - _ (*bad: its index) */
    ML__B64_LENGTH = 2     /* n % 4 == 1: no byte string encodes to that many */
};
/* Bytes n base64url characters decode to: n / 4 * 3 + (0, -, 1, 2)[n % 4]. */
size_t ml__b64url_decoded_len(size_t n);
/* Decodes n base64url characters (no padding) into out (ml__b64url_decoded_len(n)
 * bytes) as Python's base64.urlsafe_b64decode(text + padding) does: the unused low
 * bits of the last character are ignored (a code checks that it re-encodes to itself).
 * Returns ML__B64_OK (and *out_len), or a failure (bad: the first bad character's
 * index, may be NULL). Nothing is written past out's size on any input. */
int ml__b64url_decode(const char *in, size_t n, uint8_t *out, size_t *out_len, size_t *bad);

/* ------------------------------------------------------------------ codes.c */
/* Puzzle codes, version 1 (play/puzzles.py's module docstring has the format), over a
 * plain description of a grid puzzle: what ml_code_encode and ml_puzzle_from_code read
 * from and make into boards once boards are C (they then only convert). */
#define ML__CODE_VERSION 1
#define ML__CODE_MAX_SIDE 255
#define ML__CODE_MAX_CHARS 120000
#define ML__CODE_NAMED 6 /* named patterns' ids 0..5, fixed forever (append only) */

typedef struct ml__code_pattern {
    size_t count;  /* offsets */
    int64_t *offs; /* 2 count values: dr, dc of each offset, in order */
} ml__code_pattern;

typedef struct ml__code {
    int64_t rows, cols;          /* >= 1 */
    int states;                  /* >= 2 */
    int wrap;
    int mixed;                   /* 0: palette[0] is every tile's pattern; 1: index[] */
    size_t n_palette;            /* >= 1 */
    ml__code_pattern *palette;
    uint32_t *index;             /* mixed: each tile's palette entry (rows * cols) */
    uint8_t *locked, *holes;     /* rows * cols flags 0/1, row-major, or NULL: none */
    uint8_t *start;              /* rows * cols values < states (holes' are ignored) */
} ml__code;

/* The named pattern `id` (0..ML__CODE_NAMED - 1): its offsets as ml.PATTERNS lists
 * them (*count of them, 2 values each), or NULL for another id. */
const int8_t *ml__code_named(int id, size_t *count);
/* The code of c as Python's encode writes it: *text (malloc'd, NUL-terminated, the
 * caller frees it) and *len. Equal patterns of a mixed palette are one entry (in the
 * order tiles first use them; unused entries are left out), a pattern equal to a named
 * one is written as its id. Python's errors and messages otherwise (a side past 255,
 * every tile a hole, more than 255 offsets or distinct patterns, an offset outside
 * -128..127, more than 255 states). O(tiles + offsets). */
int ml__code_encode(ml_ctx *ctx, const ml__code *c, char **text, size_t *len);
/* The puzzle of code text[0..n) (UTF-8 as a binding hands a str over; surrounding
 * Python whitespace ignored) into *out, with every check and message of Python's
 * decode, in its order, the canonical re-encoding included (ML_ECODE). On success *out
 * owns its arrays (ml__code_free); on failure *out is empty. O(n). */
int ml__code_decode(ml_ctx *ctx, const char *text, size_t n, ml__code *out);
/* Frees what ml__code_decode allocated in c and empties it (c may be empty). */
void ml__code_free(ml__code *c);

/* ------------------------------------------------------------------ pytext.c */
/* One code point of UTF-8 text, read the way a binding hands a Python str over:
 * s[*i..n); advances *i (at least one byte). Valid UTF-8 gives its code point;
 * C0 80 gives U+0000 (modified UTF-8: a NUL inside a C string); the three-byte forms of
 * U+D800..U+DFFF give those surrogates (str.encode("utf-8", "surrogatepass")); any other
 * invalid byte gives U+DC80 + byte, one byte at a time (Python's "surrogateescape"). */
uint32_t ml__utf8_next(const char *s, size_t n, size_t *i);
/* Python's str.isprintable() / str.isspace() of one code point (the Unicode version of
 * ML_PYTEXT_UNICODE, pytext_data.h), and the value of a decimal digit (category Nd: what
 * re's \d matches) or -1. */
int ml__py_isprintable(uint32_t cp);
int ml__py_isspace(uint32_t cp);
int ml__py_decimal(uint32_t cp);
/* Python's repr() of the str s[0..n) (read with ml__utf8_next) into buf, snprintf's
 * convention: at most cap - 1 bytes and a NUL (buf may be NULL when cap is 0); returns
 * the full length. Quotes as Python does (single, or double when the text holds a '
 * and no "), escapes \\ \t \n \r, \xhh, \uhhhh, \Uhhhhhhhh as Python does. */
size_t ml__py_repr(const char *s, size_t n, char *buf, size_t cap);
/* Byte offsets [*a, *b) of s[0..n) without its leading and trailing Python whitespace
 * (str.strip()). */
void ml__py_strip(const char *s, size_t n, size_t *a, size_t *b);

#endif
