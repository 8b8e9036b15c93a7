/* pattern.c: the named tap patterns (modlights.h: patterns; Python's
 * modlights.model.patterns.PATTERNS, in the same order with the same offsets) and
 * Python's repr() of a string for messages. */
#include "api/board.h"
#include "api/ctx.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    int count;
    int8_t dr[9], dc[9];
} named_pattern;

/* the tapped tile (0, 0) first, then Python's order */
static const named_pattern named[ML_PATTERN_COUNT] = {
    [ML_PATTERN_CROSS] = {"cross", 5, {0, -1, 1, 0, 0}, {0, 0, 0, -1, 1}},
    [ML_PATTERN_DIAGONAL] = {"diagonal", 5, {0, -1, -1, 1, 1}, {0, -1, 1, -1, 1}},
    [ML_PATTERN_SQUARE] = {"square", 9, {0, -1, -1, -1, 0, 0, 1, 1, 1},
                           {0, -1, 0, 1, -1, 1, -1, 0, 1}},
    [ML_PATTERN_HORIZONTAL] = {"horizontal", 3, {0, 0, 0}, {0, -1, 1}},
    [ML_PATTERN_VERTICAL] = {"vertical", 3, {0, -1, 1}, {0, 0, 0}},
    [ML_PATTERN_KNIGHT] = {"knight", 9, {0, -2, -2, -1, -1, 1, 1, 2, 2},
                           {0, -1, 1, -2, 2, -2, 2, -1, 1}},
};

/* Python's str.isspace for ASCII: what str.strip() removes */
static int py_space(unsigned char ch)
{
    return ch == ' ' || (ch >= '\t' && ch <= '\r') || (ch >= 0x1c && ch <= 0x1f);
}

int ml_pattern_lookup(ml_ctx *ctx, const char *name, int *id)
{
    ctx = ml__begin(ctx);
    if (!name)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_pattern_lookup", "name");
    if (!id)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_pattern_lookup", "id");
    size_t a = 0, b = strlen(name);
    while (a < b && py_space((unsigned char)name[a]))
        a++;
    while (b > a && py_space((unsigned char)name[b - 1]))
        b--;
    for (int k = 0; k < ML_PATTERN_COUNT; k++) {
        const char *p = named[k].name;
        size_t len = strlen(p), i = 0;
        if (len != b - a)
            continue;
        while (i < len) {
            unsigned char ch = (unsigned char)name[a + i];
            if (ch >= 'A' && ch <= 'Z')
                ch = (unsigned char)(ch - 'A' + 'a');
            if (ch != (unsigned char)p[i])
                break;
            i++;
        }
        if (i == len) {
            *id = k;
            return ML_OK;
        }
    }
    char quoted[256];
    return ml__fail(ctx, ML_M_PATTERN_UNKNOWN, ml__repr_str(name, quoted, sizeof quoted));
}

const char *ml_pattern_name(int id)
{
    return id >= 0 && id < ML_PATTERN_COUNT ? named[id].name : NULL;
}

size_t ml_pattern_offsets(int id, int32_t *dr, int32_t *dc, size_t cap)
{
    if (id < 0 || id >= ML_PATTERN_COUNT)
        return 0;
    const named_pattern *p = &named[id];
    for (size_t i = 0; i < (size_t)p->count && i < cap; i++) {
        if (dr)
            dr[i] = p->dr[i];
        if (dc)
            dc[i] = p->dc[i];
    }
    return (size_t)p->count;
}

char *ml__repr_str(const char *s, char *buf, size_t cap)
{
    if (cap == 0)
        return buf;
    int dq = strchr(s, '\'') && !strchr(s, '"');
    char q = dq ? '"' : '\'';
    size_t o = 0;
#define PUT(ch) do { if (o + 1 < cap) buf[o++] = (ch); } while (0)
    PUT(q);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char ch = *p;
        char esc[5] = {0};
        if (ch == (unsigned char)q || ch == '\\')
            esc[0] = '\\', esc[1] = (char)ch;
        else if (ch == '\n')
            memcpy(esc, "\\n", 3);
        else if (ch == '\r')
            memcpy(esc, "\\r", 3);
        else if (ch == '\t')
            memcpy(esc, "\\t", 3);
        else if (ch < 0x20 || ch == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", ch);
        if (esc[0])
            for (const char *e = esc; *e; e++)
                PUT(*e);
        else
            PUT((char)ch);
    }
    PUT(q);
#undef PUT
    buf[o] = 0;
    return buf;
}
