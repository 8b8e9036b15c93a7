/* json.h: the strict JSON reader and the writer of the C API (library-internal).
 *
 * The one wire format of the web service, the npm package and C programs: boards,
 * puzzles, results and plans go in and out as JSON (modlights.h: ml_*_from_json,
 * ml_*_to_json). Both sides behave as Python's json module does, so that every binding
 * reads and writes what Python reads and writes:
 *
 * Reader (ml__json_parse): the text is read once into a flat array of tokens, one per
 * value, in document order (a container before its items, a dict's key before its
 * value); no allocation per value (the array grows by doubling; strings are not copied:
 * a token points into the text). It accepts what json.loads accepts (RFC 8259 plus
 * NaN, Infinity and -Infinity; lone surrogate escapes, kept as 3-byte sequences as
 * Python's "surrogatepass" would), and refuses the rest with Python's reasons
 * ("Expecting value", "Expecting ',' delimiter", "Invalid \escape", ...) and the byte
 * offset where Python reports the error (its character offset, for ASCII text), as
 * ML_M_JSON_SYNTAX ("<what> is not valid JSON: <reason> at byte <offset>"). Text that
 * is not UTF-8 is refused ("invalid UTF-8"); nesting deeper than max_depth is refused
 * ("nesting deeper than <max_depth> levels"). Ints beyond int64 are kept as their text
 * (`big`); a dict with a key twice reads as Python's: the last value wins
 * (ml__json_get), the first place counts for the order of keys. A UTF-8 byte order
 * mark at byte 0 is skipped, as json.loads does for bytes.
 *
 * Writer (ml__jw_*): prints as json.dumps(value, separators=(",", ":")) with Python's
 * defaults: ASCII only (\uXXXX escapes, surrogate pairs past U+FFFF), floats as
 * Python's repr (NaN, Infinity, -Infinity for the others), snprintf's convention for
 * the caller's buffer (the full length is counted; at most cap - 1 bytes and a NUL are
 * written).
 *
 * Messages: ml__json_type_name gives Python's type names of JSON values (NoneType,
 * bool, int, float, str, list, dict); ml__json_repr Python's repr of a value (lists,
 * dicts, True / None, strings with Python's quotes and escapes, floats' shortest
 * round trip; a dict with a key twice as json.loads reads it: the last value at the
 * first key's place), ml__json_short that repr on one line cut to 60 characters as
 * model/validation.py's _short. repr's "printable" test is exact for U+0000..U+00FF
 * and the usual separators and format characters past it (U+2000..U+200F,
 * U+2028..U+202F, U+205F..U+206F, U+3000, U+FEFF, surrogates); other characters print
 * as themselves. */
#ifndef ML_API_JSON_H
#define ML_API_JSON_H

#include "include/modlights.h"

#include <stddef.h>
#include <stdint.h>

/* The kinds of JSON values, named by Python's types. */
typedef enum ml_json_kind {
    ML_JSON_NULL,   /* NoneType */
    ML_JSON_BOOL,   /* bool: v.i is 0 or 1 */
    ML_JSON_INT,    /* int: v.i, or the text when `big` */
    ML_JSON_FLOAT,  /* float: v.f */
    ML_JSON_STR,    /* str: the bytes between the quotes, raw (escaped when `esc`) */
    ML_JSON_LIST,   /* list: `count` items follow */
    ML_JSON_DICT    /* dict: `count` (key, value) pairs follow */
} ml_json_kind;

/* Deepest nesting ml__json_parse takes when given max_depth <= 0 (Python's json.loads
 * refuses about a thousand levels with a RecursionError). */
#define ML_JSON_MAX_DEPTH 512

typedef struct ml_json_tok {
    uint8_t kind;      /* ml_json_kind */
    uint8_t big;       /* INT: beyond int64 (v.i is 0; the value is the text) */
    uint8_t esc;       /* STR: the raw bytes hold escapes (ml__json_str decodes them) */
    size_t start;      /* the value's first byte in the text (STR: after the quote) */
    size_t len;        /* the value's bytes (STR: between the quotes; containers: all) */
    size_t count;      /* LIST: items; DICT: pairs; STR: bytes once decoded (UTF-8) */
    size_t end;        /* index of the first token after this value and all inside it */
    union {
        int64_t i;
        double f;
    } v;
} ml_json_tok;

typedef struct ml_json {
    const char *text;  /* the caller's text (not copied: keep it while reading) */
    size_t len;
    ml_json_tok *tok;  /* tok[0] is the document's value */
    size_t ntok, cap;
} ml_json;

/* Read `text` (len bytes, no NUL needed) into j. `what` names the document in the
 * message ("board"); max_depth <= 0 means ML_JSON_MAX_DEPTH. Returns ML_OK, or the
 * status of ML_M_JSON_SYNTAX / ML_M_NOMEM recorded on ctx (j then holds nothing).
 * O(len) time, O(values) memory. Free with ml__json_free. */
int ml__json_parse(ml_ctx *ctx, ml_json *j, const char *text, size_t len, const char *what,
                   int max_depth);
void ml__json_free(ml_json *j);

/* The value of `key` (NUL-terminated UTF-8) in the dict at token `i`, the last when the
 * key is there twice; (size_t)-1 when absent or when tok[i] is not a dict. O(pairs). */
size_t ml__json_get(const ml_json *j, size_t i, const char *key);
/* The token of item `k` of the list (or key `k` of the dict) at `i`, or (size_t)-1.
 * O(k) (tokens are skipped by their `end`). Iterate with ml__json_next instead. */
size_t ml__json_item(const ml_json *j, size_t i, size_t k);
/* The token after the value at `i` and everything inside it (the next sibling). */
static inline size_t ml__json_next(const ml_json *j, size_t i) { return j->tok[i].end; }
/* Whether the string at `i` is exactly s (NUL-terminated UTF-8), escapes decoded. */
int ml__json_str_eq(const ml_json *j, size_t i, const char *s);
/* The string at `i` decoded to UTF-8 into buf (snprintf convention); returns its length
 * (tok[i].count). 0 and nothing written when tok[i] is not a string. */
size_t ml__json_str(const ml_json *j, size_t i, char *buf, size_t cap);

/* Python's name of the value's type: "NoneType", "bool", "int", "float", "str", "list",
 * "dict". */
const char *ml__json_type_name(const ml_json *j, size_t i);
/* Python's repr of the value at `i` into buf (snprintf convention); returns the full
 * length. O(size of the value). */
size_t ml__json_repr(const ml_json *j, size_t i, char *buf, size_t cap);
/* repr on one line, cut to 60 characters ("..." at the end), as validation._short. */
size_t ml__json_short(const ml_json *j, size_t i, char *buf, size_t cap);
/* Python's repr of a float (shortest text that reads back as d: "0.1", "1e+16", "inf",
 * "-0.0"), snprintf convention. */
size_t ml__json_float_repr(double d, char *buf, size_t cap);

/* ---- the writer */
typedef struct ml_jw {
    char *buf;
    size_t cap, len;   /* len: the bytes the whole text needs (past cap too) */
    int depth;         /* open containers */
    int bad;           /* a misuse (a key outside a dict, too deep, ends unmatched) */
    unsigned char items[ML_JSON_MAX_DEPTH + 1]; /* per level: 0 none yet, 1 some, 2 key */
    unsigned char dict[ML_JSON_MAX_DEPTH + 1];  /* per level: a dict */
} ml_jw;

void ml__jw_init(ml_jw *w, char *buf, size_t cap);
void ml__jw_list(ml_jw *w);
void ml__jw_end_list(ml_jw *w);
void ml__jw_dict(ml_jw *w);
void ml__jw_end_dict(ml_jw *w);
/* A dict's key (UTF-8, n bytes); the next value written is its value. */
void ml__jw_key(ml_jw *w, const char *s, size_t n);
void ml__jw_null(ml_jw *w);
void ml__jw_bool(ml_jw *w, int v);
void ml__jw_int(ml_jw *w, int64_t v);
void ml__jw_uint(ml_jw *w, uint64_t v);
void ml__jw_float(ml_jw *w, double v);
/* A string (UTF-8, n bytes; 3-byte surrogates as written by the reader are kept). */
void ml__jw_str(ml_jw *w, const char *s, size_t n);
/* Copy the value at token `i` of a parsed document: json.dumps(json.loads(...)), but
 * for a dict with a key twice, whose pairs are all copied as they stand. */
void ml__jw_value(ml_jw *w, const ml_json *j, size_t i);
/* End the text: NUL-terminates within cap (when cap > 0); returns the full length, or
 * (size_t)-1 when the calls did not make one JSON value (w->bad, containers open). */
size_t ml__jw_finish(ml_jw *w);

/* json_fields.c: validation.check_mapping: the value at d is a dict with only the allowed
 * keys and every required one (NULL-terminated lists; `what` names it: "board",
 * "puzzle"). */
int ml__json_check_mapping(ml_ctx *ctx, const ml_json *j, size_t d, const char *what,
                           const char *const *allowed, const char *const *required);
/* validation.field_error: a failure rc recorded on ctx, prefixed "<what>: " unless its
 * message starts with `what`. Returns rc (ML_OK passes through). */
int ml__json_field_error(ml_ctx *ctx, const char *what, int rc);

#endif
