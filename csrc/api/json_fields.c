/* json_fields.c: Python's validation.check_mapping and field_error over a JSON
 * document's dicts (json.h: ml__json_check_mapping, ml__json_field_error), for the
 * board and puzzle readers (api/board_json.c, play/puzzle.c). A piece of json.c. */
#include "api/ctx.h"
#include "api/json.h"
#include "api/json_impl.h"

#include <stdio.h>
#include <string.h>

/* The names of a field list, ", "-joined. */
static void join(const char *const *names, char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t k = 0; names[k] && at < cap; k++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%s", k ? ", " : "", names[k]);
}

static int in_list(const ml_json *j, size_t key, const char *const *names)
{
    for (size_t k = 0; names[k]; k++)
        if (ml__json_str_eq(j, key, names[k]))
            return 1;
    return 0;
}

int ml__json_check_mapping(ml_ctx *ctx, const ml_json *j, size_t d, const char *what,
                           const char *const *allowed, const char *const *required)
{
    if (j->tok[d].kind != ML_JSON_DICT)
        return ml__fail(ctx, ML_M_JSON_NOT_OBJECT, what, ml__json_type_name(j, d));
    char names[256], text[ML_ERRMSG_MAX];
    for (size_t k = d + 1; k < j->tok[d].end; k = ml__json_next(j, ml__json_next(j, k)))
        if (!in_list(j, k, allowed)) {
            join(allowed, names, sizeof names);
            ml__json_repr(j, k, text, sizeof text);
            return ml__fail(ctx, ML_M_JSON_UNKNOWN_FIELD, what, text, names);
        }
    for (size_t k = 0; required[k]; k++)
        if (ml__json_get(j, d, required[k]) == (size_t)-1) {
            char quoted[64];
            snprintf(quoted, sizeof quoted, "'%s'", required[k]);
            join(required, names, sizeof names);
            const char *other = strcmp(what, "board") ? "" : "; a graph board has effects and states";
            return ml__fail(ctx, ML_M_JSON_MISSING_FIELD, what, quoted, names, other);
        }
    return ML_OK;
}

/* validation.field_error: the failure recorded on ctx, prefixed by the field it is about
 * unless its message names it first. Returns rc. */
int ml__json_field_error(ml_ctx *ctx, const char *what, int rc)
{
    ctx = ml__ctx(ctx);
    if (!rc || strncmp(ctx->msg, what, strlen(what)) == 0)
        return rc;
    char text[ML_ERRMSG_MAX + 64];   /* ml__fail_text keeps what fits */
    snprintf(text, sizeof text, "%s: %s", what, ctx->msg);
    return ml__fail_text(ctx, ctx->status, ML_M_JSON_FIELD, text);
}

