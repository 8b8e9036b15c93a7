/* result.c: result handles (modlights.h: results): their accessors and freeing, and a
 * result as JSON (ml_result_to_json, ml_result_certificate),
 * solution.py's Solution.to_dict() and Solution.certificate() (docs/certificates.md,
 * kind "minimal"), written as json.dumps(..., separators=(",", ":")) would. The parsed
 * JSON equals Python's (tests/native/test_capi_minimal.py). */
#include "api/board.h"
#include "api/ctx.h"
#include "api/json.h"
#include "api/solver_impl.h"

#include <stdlib.h>
#include <string.h>

#define MAX_KERNEL_GIB 1              /* solution.py's MAX_KERNEL_BYTES // 2**30 */

void ml__result_release(ml_result *r)
{
    free(r->gens);
    free(r->gen_orders);
    free(r->sym_cells);
    free(r->sym_taps);
    free(r->prefixes);
    r->prefixes = NULL;
    r->npruned_words = 0;
    r->gens = NULL;
    r->gen_orders = NULL;
    r->sym_cells = NULL;
    r->sym_taps = NULL;
    r->ngens = 0;
    r->nsyms = 0;
}

static void key(ml_jw *w, const char *k) { ml__jw_key(w, k, strlen(k)); }

static void uint_list(ml_jw *w, const uint64_t *v, uint64_t n)
{
    ml__jw_list(w);
    for (uint64_t i = 0; i < n; i++)
        ml__jw_uint(w, v[i]);
    ml__jw_end_list(w);
}

/* A number given as decimal text (a kernel size past 64 bits), copied as JSON. */
static int raw_number(ml_ctx *ctx, ml_jw *w, const char *text)
{
    ml_json j;
    int rc = ml__json_parse(ctx, &j, text, strlen(text), "number", 0);
    if (rc)
        return rc;
    ml__jw_value(w, &j, 0);
    ml__json_free(&j);
    return ML_OK;
}

static int kernel_size(ml_ctx *ctx, ml_jw *w, const ml_factored *f)
{
    uint64_t v = 1;
    int fits = 1;
    for (int i = 0; i < f->count && fits; i++)
        for (uint64_t e = 0; e < f->exp[i] && fits; e++) {
            if (v > UINT64_MAX / f->prime[i])
                fits = 0;
            else
                v *= f->prime[i];
        }
    if (fits) {
        ml__jw_uint(w, v);
        return ML_OK;
    }
    size_t need = 0;
    int rc = ml_factored_decimal(ctx, f, NULL, 0, &need);
    char *text = rc ? NULL : malloc(need + 1);
    if (!rc && !text)
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_result_to_json");
    if (!rc)
        rc = ml_factored_decimal(ctx, f, text, need + 1, &need);
    if (!rc)
        rc = raw_number(ctx, w, text);
    free(text);
    return rc;
}

static int finish(ml_ctx *ctx, ml_jw *w, const char *fn, size_t *len)
{
    size_t n = ml__jw_finish(w);
    free(w);
    if (n == (size_t)-1)
        return ml__fail(ctx, ML_M_INTERNAL, fn, "the JSON writer was misused");
    if (len)
        *len = n;
    return ML_OK;
}

static int begin(ml_ctx *ctx, const ml_result *r, char *buf, size_t cap, const char *fn,
                 ml_jw **w)
{
    if (!r)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "r");
    if (r->magic != ML__RESULT_MAGIC)
        return ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "result");
    if (!buf && cap)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "buf");
    *w = malloc(sizeof **w);
    if (!*w)
        return ml__fail(ctx, ML_M_NOMEM, fn);
    ml__jw_init(*w, buf, cap);
    return ML_OK;
}

int ml_result_to_json(ml_ctx *ctx, const ml_result *r, char *buf, size_t cap, size_t *len)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_result_to_json";
    ml_jw *w = NULL;
    int rc = begin(ctx, r, buf, cap, fn, &w);
    if (rc)
        return rc;
    const ml_board *b = r->b;
    int grid = b->kind == ML_BOARD_GRID;
    uint64_t size = ml_board_taps_size(b);
    ml__jw_dict(w);
    key(w, "taps");
    ml__jw_list(w);
    if (grid) {
        for (int64_t y = 0; y < b->rows; y++) {
            ml__jw_list(w);
            for (int64_t x = 0; x < b->cols; x++)
                ml__jw_uint(w, r->taps[y * b->cols + x]);
            ml__jw_end_list(w);
        }
    } else {
        for (uint64_t f = 0; f < size; f++)
            ml__jw_uint(w, r->taps[f]);
    }
    ml__jw_end_list(w);
    key(w, "length");
    ml__jw_uint(w, r->length);
    key(w, "proven_minimal");
    ml__jw_bool(w, r->proven);
    key(w, "moves");
    ml__jw_list(w);
    for (uint64_t f = 0; f < size; f++)
        for (unsigned t = 0; t < r->taps[f]; t++) {
            if (grid) {
                ml__jw_list(w);
                ml__jw_uint(w, f / (uint64_t)b->cols);
                ml__jw_uint(w, f % (uint64_t)b->cols);
                ml__jw_end_list(w);
            } else {
                ml__jw_uint(w, f);
            }
        }
    ml__jw_end_list(w);
    key(w, "kernel_size");
    rc = kernel_size(ctx, w, &r->kernel_size);
    if (rc) {
        free(w);
        return rc;
    }
    ml__jw_end_dict(w);
    return finish(ctx, w, fn, len);
}

/* Solution.certificate()'s refusals, in its order. */
static int refusal(ml_ctx *ctx, const ml_result *r, int trivial)
{
    if (!r->proven) {
        if (!r->searched)
            return ml__fail(ctx, ML_M_CERT_NOT_SEARCHED);
        char size[128];
        size_t need = 0;
        if (ml_factored_decimal(ctx, &r->kernel_size, size, sizeof size, &need) ||
            need >= sizeof size)
            strcpy(size, "a huge number of");
        return ml__fail(ctx, ML_M_CERT_BUDGET, (unsigned long long)r->examined, size);
    }
    if (trivial)
        return ML_OK;
    if (r->searched && r->kept && !r->gens)
        return ml__fail(ctx, ML_M_CERT_KERNEL_TOO_LARGE, (unsigned long long)MAX_KERNEL_GIB);
    if (!r->gens)
        return ml__fail(ctx, ML_M_CERT_NO_PROOF);
    return ML_OK;
}

/* The board's own JSON (ml_board_to_json), copied into w. */
static int board_json(ml_ctx *ctx, ml_jw *w, const ml_board *b)
{
    size_t need = 0;
    int rc = ml_board_to_json(ctx, b, NULL, 0, &need);
    char *text = rc ? NULL : malloc(need + 1);
    if (!rc && !text)
        rc = ml__fail(ctx, ML_M_NOMEM, "ml_result_certificate");
    if (!rc)
        rc = ml_board_to_json(ctx, b, text, need + 1, &need);
    ml_json j;
    if (!rc)
        rc = ml__json_parse(ctx, &j, text, need, "board", 0);
    if (!rc) {
        ml__jw_value(w, &j, 0);
        ml__json_free(&j);
    }
    free(text);
    return rc;
}

int ml_result_certificate(ml_ctx *ctx, const ml_result *r, char *buf, size_t cap,
                          size_t *len)
{
    ctx = ml__begin(ctx);
    const char *fn = "ml_result_certificate";
    if (!r)
        return ml__fail(ctx, ML_M_NULL_ARGUMENT, fn, "r");
    if (r->magic != ML__RESULT_MAGIC)
        return ml__fail(ctx, ML_M_DEAD_HANDLE, fn, "result");
    int trivial = 1;
    for (int i = 0; i < r->kernel_size.count; i++)
        trivial = trivial && r->kernel_size.exp[i] == 0;
    int rc = refusal(ctx, r, trivial);
    if (rc)
        return rc;
    const ml_board *b = r->b;
    uint64_t L = b->n_taps, size = ml_board_size(b);
    /* x (tap order) and rhs = A x (cell order) */
    uint8_t *x = malloc(L + 1), *zero = calloc(size + 1, 1), *out = malloc(size + 1);
    if (!x || !zero || !out) {
        free(x);
        free(zero);
        free(out);
        return ml__fail(ctx, ML_M_NOMEM, fn);
    }
    ml__tap_runs it;
    for (ml__tap_runs_init(&it, b); ml__tap_runs_next(&it);)
        memcpy(x + it.j, r->taps + it.f, (size_t)it.len);
    rc = ml_board_apply(ctx, b, zero, r->taps, out);
    ml_jw *w = NULL;
    if (!rc)
        rc = begin(ctx, r, buf, cap, fn, &w);
    if (!rc) {
        ml__jw_dict(w);
        key(w, "format");
        ml__jw_str(w, "modlights-certificate", 21);
        key(w, "version");
        ml__jw_int(w, 1);
        key(w, "kind");
        ml__jw_str(w, "minimal", 7);
        key(w, "board");
        rc = board_json(ctx, w, b);
    }
    if (!rc) {
        uint64_t k = trivial ? 0 : r->ngens;
        key(w, "kernel");
        ml__jw_dict(w);
        key(w, "generators");
        ml__jw_list(w);
        for (uint64_t i = 0; i < k; i++) {
            ml__jw_list(w);
            for (uint64_t j = 0; j < L; j++)
                ml__jw_uint(w, r->gens[i * L + j]);
            ml__jw_end_list(w);
        }
        ml__jw_end_list(w);
        key(w, "orders");
        ml__jw_list(w);
        for (uint64_t i = 0; i < k; i++)
            ml__jw_uint(w, r->gen_orders[i]);
        ml__jw_end_list(w);
        ml__jw_end_dict(w);
        key(w, "rhs");
        ml__jw_list(w);
        for (uint64_t i = 0; i < b->n_cells; i++)
            ml__jw_uint(w, out[ml__board_cell_flat(b, i)]);
        ml__jw_end_list(w);
        key(w, "taps");
        ml__jw_list(w);
        for (uint64_t j = 0; j < L; j++)
            ml__jw_uint(w, x[j]);
        ml__jw_end_list(w);
        key(w, "length");
        ml__jw_uint(w, r->length);
        key(w, "proof");
        ml__jw_dict(w);
        key(w, "method");
        if (!trivial && r->proof == ML__PROOF_CUBE) {
            ml__jw_str(w, "tree", 4);
            key(w, "leaf_dim");
            ml__jw_int(w, r->leaf_dim);
            key(w, "pruned");
            ml__jw_list(w);
            ml__jw_end_list(w);
            if (r->nsyms) {
                key(w, "symmetries");
                ml__jw_list(w);
                for (uint64_t g = 0; g < r->nsyms; g++) {
                    ml__jw_dict(w);
                    key(w, "cells");
                    uint_list(w, r->sym_cells + g * b->n_cells, b->n_cells);
                    key(w, "taps");
                    uint_list(w, r->sym_taps + g * L, L);
                    ml__jw_end_dict(w);
                }
                ml__jw_end_list(w);
            }
        } else if (!trivial && r->proof == ML__PROOF_BNB) {
            ml__jw_str(w, "tree", 4);
            key(w, "leaf_dim");
            ml__jw_int(w, r->leaf_dim);
            key(w, "bound");
            ml__jw_str(w, "classes", 7);
            key(w, "pruned");   /* words: a prefix's length d, then its d entries */
            ml__jw_list(w);
            for (uint64_t q = 0; q < r->npruned_words; q += 1 + r->prefixes[q]) {
                ml__jw_list(w);
                for (uint32_t t = 1; t <= r->prefixes[q]; t++)
                    ml__jw_uint(w, r->prefixes[q + t]);
                ml__jw_end_list(w);
            }
            ml__jw_end_list(w);
        } else if (!trivial && r->proof == ML__PROOF_TREE0) {
            ml__jw_str(w, "tree", 4);
            key(w, "leaf_dim");
            ml__jw_int(w, 0);
            key(w, "pruned");
            ml__jw_list(w);
            ml__jw_list(w);
            ml__jw_end_list(w);
            ml__jw_end_list(w);
        } else {
            ml__jw_str(w, "enumeration", 11);
        }
        ml__jw_end_dict(w);
        ml__jw_end_dict(w);
    }
    free(x);
    free(zero);
    free(out);
    if (rc) {
        free(w);
        return rc;
    }
    return finish(ctx, w, fn, len);
}

/* ------------------------------------------------------------------ accessors */
static int result_live(const ml_result *r) { return r && r->magic == ML__RESULT_MAGIC; }

void ml_result_free(ml_result *r)
{
    if (!result_live(r))
        return;
    r->magic = 0;
    ml_board_free(r->b);
    free(r->taps);
    ml__result_release(r);
    free(r);
}

const ml_board *ml_result_board(const ml_result *r) { return result_live(r) ? r->b : NULL; }
const uint8_t *ml_result_taps(const ml_result *r) { return result_live(r) ? r->taps : NULL; }
uint64_t ml_result_length(const ml_result *r) { return result_live(r) ? r->length : 0; }
int ml_result_proven_minimal(const ml_result *r) { return result_live(r) ? r->proven : 0; }
uint64_t ml_result_examined(const ml_result *r) { return result_live(r) ? r->examined : 0; }
uint64_t ml_result_pruned(const ml_result *r) { return result_live(r) ? r->pruned : 0; }
double ml_result_seconds(const ml_result *r) { return result_live(r) ? r->seconds : 0.0; }

void ml_result_kernel_size(const ml_result *r, ml_factored *out)
{
    if (!out)
        return;
    if (result_live(r))
        *out = r->kernel_size;
    else
        memset(out, 0, sizeof *out);
}

uint64_t ml_result_moves(const ml_result *r, int64_t *rows, int64_t *cols, uint64_t cap)
{
    if (!result_live(r))
        return 0;
    const ml_board *b = r->b;
    uint64_t tiles = ml_board_taps_size(b), at = 0;
    int grid = b->kind == ML_BOARD_GRID;
    for (uint64_t f = 0; f < tiles; f++)
        for (unsigned t = 0; t < r->taps[f]; t++, at++)
            if (at < cap) {
                if (rows)
                    rows[at] = grid ? (int64_t)(f / (uint64_t)b->cols) : (int64_t)f;
                if (cols)
                    cols[at] = grid ? (int64_t)(f % (uint64_t)b->cols) : 0;
            }
    return at;
}
