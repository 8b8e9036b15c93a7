/* json_impl.h: what the pieces of the JSON code share (json.c, json_repr.c,
 * json_write.c; see json.c). Internal to csrc/api/ (not installed, not part of any API). */
#ifndef ML_API_JSON_IMPL_H
#define ML_API_JSON_IMPL_H

#include <stddef.h>

/* The index that names no token (ml__json_get / ml__json_item's "absent"), and the
 * writer's failure. */
#define NONE ((size_t)-1)

/* The code point of the UTF-8 (or 3-byte surrogate) sequence at s (n left; the reader
 * checked it), and its length in *k. */
static inline long code_point(const unsigned char *s, size_t n, size_t *k)
{
    unsigned char c = s[0];
    if (c < 0x80 || n < 2) {
        *k = 1;
        return c;
    }
    if (c < 0xE0) {
        *k = 2;
        return ((long)(c & 0x1F) << 6) | (s[1] & 0x3F);
    }
    if (c < 0xF0 || n < 4) {
        *k = n < 3 ? n : 3;
        return n < 3 ? c : ((long)(c & 0x0F) << 12) | ((long)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    }
    *k = 4;
    return ((long)(c & 0x07) << 18) | ((long)(s[1] & 0x3F) << 12) | ((long)(s[2] & 0x3F) << 6) |
           (s[3] & 0x3F);
}

#endif
