/* codes.c: puzzle codes, version 1: play/puzzles.py's encode and decode over a plain
 * description of the puzzle (ml__code, play.h), byte for byte and message for message.
 *
 * A code is the base64url text (no padding) of: version, flags (bit 0 wrap, bit 1
 * locks, bit 2 holes, bits 3-4 the pattern kind: 0 named, 1 offsets, 2 mixed), rows,
 * cols, states (a byte each), the pattern (named: its id; offsets: a count and
 * signed-byte (dr, dc) pairs; mixed: a palette of such patterns, each with its kind
 * byte), then one bit stream, most significant bit first, zero padded to a byte: the
 * palette index of each tile (ceil(log2 P) bits), the lock mask and the hole mask (one
 * bit a tile each, when the flags say so), the start value of each tile that is not a
 * hole (ceil(log2 n) bits), row-major; then the CRC-32 of all that, big-endian. */
#include "api/ctx.h"
#include "play/play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ml.PATTERNS, in the order of their ids (model/patterns.py). */
static const int8_t named_offs[ML__CODE_NAMED][9][2] = {
    {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}},                                /* cross */
    {{0, 0}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}},                              /* diagonal */
    {{0, 0}, {-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}, /* square */
    {{0, 0}, {0, -1}, {0, 1}},                                                 /* horizontal */
    {{0, 0}, {-1, 0}, {1, 0}},                                                 /* vertical */
    {{0, 0}, {-2, -1}, {-2, 1}, {-1, -2}, {-1, 2}, {1, -2}, {1, 2}, {2, -1}, {2, 1}}, /* knight */
};
static const size_t named_count[ML__CODE_NAMED] = {5, 5, 9, 3, 3, 9};

const int8_t *ml__code_named(int id, size_t *count)
{
    if (id < 0 || id >= ML__CODE_NAMED)
        return NULL;
    if (count)
        *count = named_count[id];
    return &named_offs[id][0][0];
}

/* The named id of a pattern with exactly these offsets (pattern_name), or -1. */
static int named_id(const ml__code_pattern *p)
{
    for (int id = 0; id < ML__CODE_NAMED; id++) {
        if (p->count != named_count[id])
            continue;
        size_t i = 0;
        while (i < p->count && p->offs[2 * i] == named_offs[id][i][0]
               && p->offs[2 * i + 1] == named_offs[id][i][1])
            i++;
        if (i == p->count)
            return id;
    }
    return -1;
}

/* Bits that hold the values 0..k-1 (0 for k <= 1). */
static int bits_for(uint64_t k)
{
    int b = 0;
    for (uint64_t v = k > 1 ? k - 1 : 0; v; v >>= 1)
        b++;
    return b;
}

/* ------------------------------------------------------------------ encode */
typedef struct {
    uint8_t *buf;
    size_t len, bits; /* bytes before the bit stream; bits written into it */
} writer_t;

static void put_byte(writer_t *w, uint8_t b) { w->buf[w->len++] = b; }

static void put_bits(writer_t *w, uint64_t v, int width)
{
    for (int i = width - 1; i >= 0; i--) {
        if ((v >> i) & 1)
            w->buf[w->len + w->bits / 8] |= (uint8_t)(0x80 >> (w->bits % 8));
        w->bits++;
    }
}

/* A pattern as a code writes it (_pattern_bytes): [0, id] or [1, count, pairs...];
 * with out == NULL only the checks and *size. */
static int pattern_bytes(ml_ctx *ctx, const ml__code_pattern *p, writer_t *w, size_t *size)
{
    int id = named_id(p);
    if (id >= 0) {
        *size = 2;
        if (w) {
            put_byte(w, 0);
            put_byte(w, (uint8_t)id);
        }
        return ML_OK;
    }
    if (p->count > 255)
        return ml__fail(ctx, ML_M_CODE_OFFSET_COUNT, (unsigned long long)p->count);
    for (size_t i = 0; i < p->count; i++) {
        int64_t dr = p->offs[2 * i], dc = p->offs[2 * i + 1];
        if (dr < -128 || dr > 127 || dc < -128 || dc > 127)
            return ml__fail(ctx, ML_M_CODE_OFFSET_RANGE, (long long)dr, (long long)dc);
    }
    *size = 2 + 2 * p->count;
    if (w) {
        put_byte(w, 1);
        put_byte(w, (uint8_t)p->count);
        for (size_t i = 0; i < 2 * p->count; i++)
            put_byte(w, (uint8_t)(p->offs[i] & 0xff));
    }
    return ML_OK;
}

static int same_pattern(const ml__code_pattern *a, const ml__code_pattern *b)
{
    return a->count == b->count
           && (a->count == 0 || memcmp(a->offs, b->offs, 2 * a->count * sizeof *a->offs) == 0);
}

static uint64_t pattern_hash(const ml__code_pattern *p)
{
    uint64_t h = 1469598103934665603ULL ^ p->count;
    for (size_t i = 0; i < 2 * p->count; i++)
        h = (h ^ (uint64_t)p->offs[i]) * 1099511628211ULL;
    return h;
}

/* The mixed palette as Python's encode makes it: *order[0..*n_used) are the entries of
 * c->palette in the order tiles first use them, one per distinct pattern; canon[e] is
 * the code's index of entry e's pattern. */
static int mixed_palette(ml_ctx *ctx, const ml__code *c, size_t tiles, uint32_t *canon,
                         size_t *order, size_t *n_used)
{
    size_t P = c->n_palette, slots = 16;
    while (slots < 2 * P)
        slots *= 2;
    size_t *table = malloc(slots * sizeof *table), *rep = malloc(P * sizeof *rep);
    if (!table || !rep) {
        free(table);
        free(rep);
        return ml__fail(ctx, ML_M_NOMEM, "ml__code_encode");
    }
    for (size_t s = 0; s < slots; s++)
        table[s] = SIZE_MAX;
    for (size_t e = 0; e < P; e++) { /* rep[e]: the first entry with e's pattern */
        size_t s = (size_t)pattern_hash(&c->palette[e]) & (slots - 1);
        while (table[s] != SIZE_MAX && !same_pattern(&c->palette[table[s]], &c->palette[e]))
            s = (s + 1) & (slots - 1);
        if (table[s] == SIZE_MAX)
            table[s] = e;
        rep[e] = table[s];
    }
    for (size_t e = 0; e < P; e++)
        canon[e] = UINT32_MAX;
    size_t used = 0;
    for (size_t t = 0; t < tiles; t++) {
        size_t r = rep[c->index[t]];
        if (canon[r] == UINT32_MAX) {
            canon[r] = (uint32_t)used;
            order[used++] = r;
        }
    }
    for (size_t e = 0; e < P; e++)
        canon[e] = canon[rep[e]];
    free(table);
    free(rep);
    *n_used = used;
    return ML_OK;
}

int ml__code_encode(ml_ctx *ctx, const ml__code *c, char **text, size_t *len)
{
    if (!c || !text)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml__code_encode", !c ? "c" : "text");
    *text = NULL;
    if (c->rows > ML__CODE_MAX_SIDE || c->cols > ML__CODE_MAX_SIDE)
        return ml__fail(ctx, ML_M_CODE_SIDE, ML__CODE_MAX_SIDE, ML__CODE_MAX_SIDE,
                        (long long)c->rows, (long long)c->cols);
    if (c->rows < 1 || c->cols < 1 || c->n_palette < 1 || !c->palette || !c->start
        || (c->mixed && !c->index))
        return ml__fail(ctx, ML_M_INTERNAL, "ml__code_encode", "an incomplete puzzle");
    size_t tiles = (size_t)(c->rows * c->cols), active = 0;
    int any_lock = 0;
    for (size_t t = 0; t < tiles; t++) {
        active += !(c->holes && c->holes[t]);
        any_lock |= c->locked && c->locked[t];
    }
    int any_hole = active < tiles;
    if (active == 0)
        return ml__fail(ctx, ML_M_CODE_ALL_HOLES);
    if (c->mixed)
        for (size_t t = 0; t < tiles; t++)
            if (c->index[t] >= c->n_palette)
                return ml__fail(ctx, ML_M_INTERNAL, "ml__code_encode",
                                "a palette index out of range");

    uint32_t *canon = NULL;
    size_t *order = NULL, n_used = 1, head = 0, size;
    int rc = ML_OK;
    if (c->mixed) {
        canon = malloc(c->n_palette * sizeof *canon);
        order = malloc(c->n_palette * sizeof *order);
        if (!canon || !order) {
            rc = ml__fail(ctx, ML_M_NOMEM, "ml__code_encode");
            goto done;
        }
        if ((rc = mixed_palette(ctx, c, tiles, canon, order, &n_used)))
            goto done;
        if (n_used > 255) {
            rc = ml__fail(ctx, ML_M_CODE_PALETTE, (unsigned long long)n_used);
            goto done;
        }
        head = 1;
        for (size_t i = 0; i < n_used; i++) {
            if ((rc = pattern_bytes(ctx, &c->palette[order[i]], NULL, &size)))
                goto done;
            head += size;
        }
    } else {
        if ((rc = pattern_bytes(ctx, &c->palette[0], NULL, &size)))
            goto done;
        head = size - 1; /* the kind goes into the flags */
    }
    if (c->states < 2 || c->states > 255) { /* Python: bytes([..., n]) */
        rc = ml__fail_text(ctx, ML_ERANGE, ML_M_NONE, "bytes must be in range(0, 256)");
        goto done;
    }
    int ib = c->mixed ? bits_for(n_used) : 0, vb = bits_for((uint64_t)c->states);
    size_t nbits = tiles * (size_t)ib + tiles * (size_t)(any_lock + any_hole) + active * (size_t)vb;
    size_t payload = 5 + head + (nbits + 7) / 8, total = payload + 4;
    writer_t w = {calloc(total, 1), 0, 0};
    char *out = malloc(ml__b64url_encoded_len(total) + 1);
    if (!w.buf || !out) {
        free(w.buf);
        free(out);
        rc = ml__fail(ctx, ML_M_NOMEM, "ml__code_encode");
        goto done;
    }
    int kind = c->mixed ? 2 : named_id(&c->palette[0]) >= 0 ? 0 : 1;
    put_byte(&w, ML__CODE_VERSION);
    put_byte(&w, (uint8_t)((c->wrap ? 1 : 0) | any_lock << 1 | any_hole << 2 | kind << 3));
    put_byte(&w, (uint8_t)c->rows);
    put_byte(&w, (uint8_t)c->cols);
    put_byte(&w, (uint8_t)c->states);
    if (c->mixed) {
        put_byte(&w, (uint8_t)n_used);
        for (size_t i = 0; i < n_used; i++)
            pattern_bytes(ctx, &c->palette[order[i]], &w, &size);
        for (size_t t = 0; t < tiles; t++)
            put_bits(&w, canon[c->index[t]], ib);
    } else {
        uint8_t tmp[2 + 2 * 255];
        writer_t pw = {tmp, 0, 0};
        pattern_bytes(ctx, &c->palette[0], &pw, &size);
        memcpy(w.buf + w.len, tmp + 1, size - 1); /* without the kind byte */
        w.len += size - 1;
    }
    if (any_lock)
        for (size_t t = 0; t < tiles; t++)
            put_bits(&w, c->locked[t] ? 1 : 0, 1);
    if (any_hole)
        for (size_t t = 0; t < tiles; t++)
            put_bits(&w, c->holes[t] ? 1 : 0, 1);
    for (size_t t = 0; t < tiles; t++)
        if (!(c->holes && c->holes[t]))
            put_bits(&w, c->start[t], vb);
    uint32_t crc = ml__crc32(w.buf, payload);
    for (int i = 0; i < 4; i++)
        w.buf[payload + i] = (uint8_t)(crc >> (24 - 8 * i));
    size_t n = ml__b64url_encode(w.buf, total, out);
    free(w.buf);
    *text = out;
    if (len)
        *len = n;
done:
    free(canon);
    free(order);
    return rc;
}

/* ------------------------------------------------------------------ decode */
typedef struct {
    const uint8_t *data;
    size_t n, pos;
    ml_ctx *ctx;
} reader_t;

/* The next byte, or ML_M_CODE_TRUNCATED_AT naming `what` (a printf format + value). */
static int get_byte(reader_t *rd, uint8_t *b, const char *what, unsigned arg)
{
    if (rd->pos >= rd->n) {
        char name[64];
        snprintf(name, sizeof name, what, arg);
        return ml__fail(rd->ctx, ML_M_CODE_TRUNCATED_AT, name);
    }
    *b = rd->data[rd->pos++];
    return ML_OK;
}

/* A pattern as pattern_bytes wrote it (kind 0: a named id, else offsets); `what` is
 * "pattern" or "palette entry %u" (with arg). */
static int read_pattern(reader_t *rd, int kind, const char *what, unsigned arg,
                        ml__code_pattern *p)
{
    char fmt[64], name[64];
    uint8_t b = 0; /* set by get_byte before any read (gcc cannot see it) */
    int rc;
    snprintf(name, sizeof name, what, arg);
    if (kind == 0) {
        snprintf(fmt, sizeof fmt, "%s id", what);
        if ((rc = get_byte(rd, &b, fmt, arg)))
            return rc;
        if (b >= ML__CODE_NAMED)
            return ml__fail(rd->ctx, ML_M_CODE_PATTERN_ID, (unsigned)b, ML__CODE_NAMED - 1);
        p->count = named_count[b];
        p->offs = malloc(2 * p->count * sizeof *p->offs);
        if (!p->offs)
            return ml__fail(rd->ctx, ML_M_NOMEM, "ml__code_decode");
        for (size_t i = 0; i < p->count; i++) {
            p->offs[2 * i] = named_offs[b][i][0];
            p->offs[2 * i + 1] = named_offs[b][i][1];
        }
        return ML_OK;
    }
    snprintf(fmt, sizeof fmt, "%s offset count", what);
    if ((rc = get_byte(rd, &b, fmt, arg)))
        return rc;
    if (rd->n - rd->pos < 2 * (size_t)b)
        return ml__fail(rd->ctx, ML_M_CODE_TRUNCATED_OFFSETS, (unsigned)b, name);
    p->count = b;
    p->offs = malloc((2 * p->count + 1) * sizeof *p->offs);
    if (!p->offs)
        return ml__fail(rd->ctx, ML_M_NOMEM, "ml__code_decode");
    for (size_t i = 0; i < 2 * p->count; i++) {
        uint8_t v = rd->data[rd->pos++];
        p->offs[i] = v > 127 ? (int64_t)v - 256 : v;
    }
    return ML_OK;
}

void ml__code_free(ml__code *c)
{
    if (!c)
        return;
    if (c->palette)
        for (size_t i = 0; i < c->n_palette; i++)
            free(c->palette[i].offs);
    free(c->palette);
    free(c->index);
    free(c->locked);
    free(c->holes);
    free(c->start);
    memset(c, 0, sizeof *c);
}

/* The bit stream after the header: take(count, width) of Python's decode. */
typedef struct {
    const uint8_t *data;
    size_t nbits, at;
} bits_t;

static uint64_t take(bits_t *s, int width)
{
    uint64_t v = 0;
    for (int i = 0; i < width; i++, s->at++)
        v = v << 1 | ((s->data[s->at / 8] >> (7 - s->at % 8)) & 1);
    return v;
}

/* The checks of decode after the text is base64url: body[0..n) and its CRC. */
static int decode_body(ml_ctx *ctx, const uint8_t *body, size_t n, ml__code *c)
{
    reader_t rd = {body, n, 0, ctx};
    uint8_t version = 0, flags = 0, rows = 0, cols = 0, states = 0; /* get_byte sets them */
    int rc;
    if ((rc = get_byte(&rd, &version, "version", 0)))
        return rc;
    if (version != ML__CODE_VERSION)
        return ml__fail(ctx, ML_M_CODE_VERSION, (unsigned)version, ML__CODE_VERSION);
    if ((rc = get_byte(&rd, &flags, "flags", 0)))
        return rc;
    if (flags & ~0x1f)
        return ml__fail(ctx, ML_M_CODE_FLAGS, (unsigned)flags);
    int has_lock = (flags >> 1) & 1, has_hole = (flags >> 2) & 1, kind = (flags >> 3) & 3;
    if (kind == 3)
        return ml__fail(ctx, ML_M_CODE_KIND);
    if ((rc = get_byte(&rd, &rows, "rows", 0)) || (rc = get_byte(&rd, &cols, "cols", 0))
        || (rc = get_byte(&rd, &states, "states", 0)))
        return rc;
    if (rows < 1 || cols < 1)
        return ml__fail(ctx, ML_M_CODE_SIDES, (unsigned)rows, (unsigned)cols);
    if (states < 2)
        return ml__fail(ctx, ML_M_CODE_STATES, (unsigned)states);
    c->rows = rows;
    c->cols = cols;
    c->states = states;
    c->wrap = flags & 1;
    size_t tiles = (size_t)rows * cols;
    if (kind == 2) {
        uint8_t P = 0;
        if ((rc = get_byte(&rd, &P, "palette size", 0)))
            return rc;
        if (P < 1)
            return ml__fail(ctx, ML_M_CODE_EMPTY_PALETTE);
        c->mixed = 1;
        c->palette = calloc(P, sizeof *c->palette);
        if (!c->palette)
            return ml__fail(ctx, ML_M_NOMEM, "ml__code_decode");
        c->n_palette = P;
        for (unsigned i = 0; i < P; i++) {
            uint8_t tag = 0;
            if ((rc = get_byte(&rd, &tag, "palette entry", 0)))
                return rc;
            if (tag > 1)
                return ml__fail(ctx, ML_M_CODE_PALETTE_KIND, i, (unsigned)tag);
            if ((rc = read_pattern(&rd, tag, "palette entry %u", i, &c->palette[i])))
                return rc;
        }
    } else {
        c->palette = calloc(1, sizeof *c->palette);
        if (!c->palette)
            return ml__fail(ctx, ML_M_NOMEM, "ml__code_decode");
        c->n_palette = 1;
        if ((rc = read_pattern(&rd, kind, "pattern", 0, &c->palette[0])))
            return rc;
    }
    /* sizes before allocation: the bit stream must hold exactly what the header declares */
    int ib = c->mixed ? bits_for(c->n_palette) : 0, vb = bits_for(states);
    size_t left = n - rd.pos, fixed = tiles * (size_t)ib + tiles * (size_t)(has_lock + has_hole);
    if (fixed > left * 8)
        return ml__fail(ctx, ML_M_CODE_TRUNCATED_BOARD, (unsigned)rows, (unsigned)cols,
                        (unsigned long long)left);
    if (!has_hole && (fixed + tiles * (size_t)vb + 7) / 8 != left)
        return ml__fail(ctx, ML_M_CODE_LENGTH_STATES, (unsigned)rows, (unsigned)cols,
                        (unsigned)states);
    bits_t s = {body + rd.pos, left * 8, 0};
    if (c->mixed) {
        c->index = malloc(tiles * sizeof *c->index);
        if (!c->index)
            return ml__fail(ctx, ML_M_NOMEM, "ml__code_decode");
        uint64_t top = 0;
        for (size_t t = 0; t < tiles; t++) {
            c->index[t] = (uint32_t)take(&s, ib);
            if (c->index[t] > top)
                top = c->index[t];
        }
        if (top >= c->n_palette)
            return ml__fail(ctx, ML_M_CODE_PALETTE_ENTRY, (unsigned long long)top,
                            (unsigned)c->n_palette);
    }
    uint8_t **masks[2] = {&c->locked, &c->holes};
    int has[2] = {has_lock, has_hole}, any[2] = {0, 0};
    for (int m = 0; m < 2; m++) {
        if (!has[m])
            continue;
        *masks[m] = malloc(tiles);
        if (!*masks[m])
            return ml__fail(ctx, ML_M_NOMEM, "ml__code_decode");
        for (size_t t = 0; t < tiles; t++)
            any[m] |= (*masks[m])[t] = (uint8_t)take(&s, 1);
    }
    size_t active = tiles;
    if (has_hole)
        for (size_t t = 0; t < tiles; t++)
            active -= c->holes[t];
    if (has_lock && !any[0])
        return ml__fail(ctx, ML_M_CODE_NO_LOCKS);
    if (has_hole && !any[1])
        return ml__fail(ctx, ML_M_CODE_NO_HOLES);
    if (has_hole && active == 0)
        return ml__fail(ctx, ML_M_CODE_ALL_HOLE);
    if (has_lock && has_hole)
        for (size_t t = 0; t < tiles; t++)
            if (c->locked[t] && c->holes[t])
                return ml__fail(ctx, ML_M_CODE_LOCKED_HOLE, (long long)(t / cols),
                                (long long)(t % cols));
    if ((fixed + active * (size_t)vb + 7) / 8 * 8 != s.nbits)
        return ml__fail(ctx, ML_M_CODE_LENGTH_BOARD);
    c->start = calloc(tiles, 1);
    if (!c->start)
        return ml__fail(ctx, ML_M_NOMEM, "ml__code_decode");
    uint64_t top = 0;
    for (size_t t = 0; t < tiles; t++)
        if (!(has_hole && c->holes[t])) {
            uint64_t v = take(&s, vb);
            c->start[t] = (uint8_t)v; /* vb <= 8 */
            if (v > top)
                top = v;
        }
    while (s.at < s.nbits)
        if (take(&s, 1))
            return ml__fail(ctx, ML_M_CODE_PADDING);
    if (top >= states)
        return ml__fail(ctx, ML_M_CODE_TILE_VALUE, (unsigned long long)top, (unsigned)states);
    return ML_OK;
}

static int is_b64url(uint32_t cp)
{
    return (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')
           || cp == '-' || cp == '_';
}

int ml__code_decode(ml_ctx *ctx, const char *text, size_t n, ml__code *out)
{
    if (!out)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml__code_decode", "out");
    memset(out, 0, sizeof *out);
    if (!text && n)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml__code_decode", "text");
    size_t a = 0, b = 0, chars = 0;
    if (n)
        ml__py_strip(text, n, &a, &b);
    if (a == b)
        return ml__fail(ctx, ML_M_CODE_EMPTY);
    for (size_t i = a; i < b; chars++)
        ml__utf8_next(text, b, &i);
    if (chars > ML__CODE_MAX_CHARS)
        return ml__fail(ctx, ML_M_CODE_TOO_LONG, (unsigned long long)chars, ML__CODE_MAX_CHARS);
    for (size_t i = a; i < b;) {
        size_t at = i;
        if (!is_b64url(ml__utf8_next(text, b, &i))) {
            char r[64];
            ml__py_repr(text + at, i - at, r, sizeof r);
            return ml__fail(ctx, ML_M_CODE_CHARACTER, r);
        }
    }
    size_t len = b - a; /* ASCII now: one byte a character */
    if (len % 4 == 1)
        return ml__fail(ctx, ML_M_CODE_LENGTH);
    uint8_t *data = malloc(ml__b64url_decoded_len(len) + 1);
    if (!data)
        return ml__fail(ctx, ML_M_NOMEM, "ml__code_decode");
    size_t dn = 0;
    int rc = ML_OK;
    if (ml__b64url_decode(text + a, len, data, &dn, NULL) != ML__B64_OK) {
        rc = ml__fail(ctx, ML_M_CODE_BASE64);
    } else if (dn < 5 + 1 + 4) {
        rc = ml__fail(ctx, ML_M_CODE_TOO_SHORT, (unsigned long long)dn);
    } else {
        uint32_t crc = (uint32_t)data[dn - 4] << 24 | (uint32_t)data[dn - 3] << 16
                       | (uint32_t)data[dn - 2] << 8 | data[dn - 1];
        if (ml__crc32(data, dn - 4) != crc)
            rc = ml__fail(ctx, ML_M_CODE_CHECKSUM);
        else
            rc = decode_body(ctx, data, dn - 4, out);
    }
    free(data);
    if (rc == ML_OK) { /* one puzzle, one code: it must re-encode to itself */
        char *again = NULL;
        size_t again_len = 0;
        rc = ml__code_encode(ctx, out, &again, &again_len);
        if (rc == ML_OK && (again_len != len || memcmp(again, text + a, len) != 0))
            rc = ml__fail(ctx, ML_M_CODE_NOT_CANONICAL);
        free(again);
    }
    if (rc != ML_OK)
        ml__code_free(out);
    return rc;
}
