/* verify.c: ml_verify_json (modlights.h), the certificate checker's entry point: the
 * format, version and kind (Python's _check_format), then the board, the kernel (but for
 * kind "bounds", which has none) and the claim in Python's order (search/verify/__init__.py:
 * _check), and the summary line.
 *
 * Why a checker apart (csrc/verify, see verify_impl.h): it checks the solver's answers,
 * so it shares none of the solver's code. It reads the board from the certificate's
 * board dict with its own code (verify_board.c) rather than through the C board model
 * (api/board.c), because that model is what the solver reads: a fault there would make
 * the solver and its checker agree on a wrong matrix. As Python's checker does, it
 * restates the board model's rules and messages instead. The JSON reader (api/json.c)
 * is shared with the rest of the library as Python's checker shares Python's json
 * module: it turns text into values and knows nothing of boards or solutions. */
#include "verify/verify_impl.h"
#include "api/ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The certificate JSON's nesting: the reader's default (ML_JSON_MAX_DEPTH). */
#define MV_MAX_DEPTH 0

/* _check_format: a modlights certificate of a known version and kind. */
static int check_format(mv *v, size_t cert)
{
    char rep[MV_MSG / 2];
    v->format = 1;
    if (!mv_is_dict(v, cert))
        return mv_fail(v, "a certificate is a JSON object, got %s", mv_type(v, cert));
    if (!mv_is_str(v, mv_get(v, cert, "format"), "modlights-certificate"))
        return mv_fail(v, "not a modlights certificate (format must be 'modlights-certificate')");
    /* Python's cert.get("version") != 1: 1, True and 1.0 are equal to 1 */
    size_t ver = mv_get(v, cert, "version");
    const ml_json_tok *t = ver == MV_NONE ? NULL : &v->j->tok[ver];
    int one = t && (((t->kind == ML_JSON_INT || t->kind == ML_JSON_BOOL) && !t->big && t->v.i == 1) ||
                    (t->kind == ML_JSON_FLOAT && t->v.f == 1.0));
    if (!one)
        return mv_fail_cut(v, 300, "unknown certificate version %s: this checker reads version 1",
                           mv_repr(v, ver, rep, sizeof rep));
    size_t kind = mv_get(v, cert, "kind");
    if (!mv_is_str(v, kind, "minimal") && !mv_is_str(v, kind, "hardest") &&
        !mv_is_str(v, kind, "bounds"))
        return mv_fail_cut(v, 300,
                           "unknown certificate kind %s: use 'minimal', 'hardest' or 'bounds'",
                           mv_repr(v, kind, rep, sizeof rep));
    v->format = 0;
    return ML_OK;
}

/* _check: the steps in order; *out receives the summary (malloc'd). */
static int check(mv *v, char **out)
{
    size_t cert = 0, t;
    mv_matrix A;
    mv_kernel K;
    memset(&A, 0, sizeof A);
    memset(&K, 0, sizeof K);
    char *how = NULL, *up = NULL, lt[200], ut[200];
    if (check_format(v, cert) || mv_field(v, cert, "board", "certificate", &t) ||
        mv_board(v, t, &A))
        goto out;
    if (mv_is_str(v, mv_get(v, cert, "kind"), "bounds")) { /* no kernel */
        mv_check_bounds(v, cert, &A, out);
        goto out;
    }
    if (mv_field(v, cert, "kernel", "certificate", &t) ||
        mv_check_kernel(v, t, &A, "kernel", &K))
        goto out;
    if (mv_is_str(v, mv_get(v, cert, "kind"), "minimal")) {
        if (mv_check_minimal(v, cert, "", &A, &K, &how))
            goto out;
        /* the length is an int equal to the taps' sum: checked by the claim */
        *out = mv_printf("no solution has fewer than %s taps (%s)",
                         mv_int_text(mv_int_of(v, mv_get(v, cert, "length")), lt, sizeof lt), how);
        goto out;
    }
    mv_int lower, upper;
    size_t witness, ub;
    if (mv_lower_upper(v, cert, &lower, &upper, lt, ut, sizeof lt))
        goto out;
    if (mv_field(v, cert, "witness", "certificate", &witness))
        goto out;
    if (mv_is_dict(v, witness) && mv_get(v, witness, "lower_bound") != MV_NONE) {
        /* a board's covering bound */
        if (mv_check_covering_witness(v, witness, lower, &A, &how))
            goto out;
    } else if (mv_check_minimal(v, witness, "witness ", &A, &K, &how)) {
        goto out;
    } else if (mv_int_cmp(mv_int_of(v, mv_get(v, witness, "length")), lower)) {
        mv_int wl = mv_int_of(v, mv_get(v, witness, "length"));
        char wt[200];
        mv_fail(v, "the witness needs %s taps, not lower = %s", mv_int_text(wl, wt, sizeof wt), lt);
        goto out;
    }
    if (mv_field(v, cert, "upper_bound", "certificate", &ub) ||
        mv_check_upper(v, ub, upper, &A, &K, &up))
        goto out;
    char value[420];
    mv_value_text(lower, upper, lt, ut, value, sizeof value);
    *out = mv_printf("the hardest board needs %s taps (witness: %s; upper: %s)", value, how, up);
out:
    if (v->rc == ML_OK && !*out)
        mv_nomem(v);
    free(how);
    free(up);
    mv_kernel_free(&K);
    mv_matrix_free(&A);
    return v->rc;
}

ML_API int ml_verify_json(ml_ctx *ctx, const char *json, size_t len, char *summary, size_t cap,
                          size_t *summary_len)
{
    ml_scope sc;
    ctx = ml__enter(ctx, &sc);
    if (!json && len)
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_verify_json", "json"));
    if (!summary && cap)
        return ml__leave(ctx, &sc,
                         ml__fail(ctx, ML_M_NULL_ARGUMENT, "ml_verify_json", "summary"));
    ml_json j;
    int rc = ml__json_parse(ctx, &j, json ? json : "", len, "certificate", MV_MAX_DEPTH);
    if (rc)
        return ml__leave(ctx, &sc, rc);
    mv *v = calloc(1, sizeof *v);
    char *out = NULL;
    if (!v) {
        ml__json_free(&j);
        return ml__leave(ctx, &sc, ml__fail(ctx, ML_M_NOMEM, "ml_verify_json"));
    }
    v->j = &j;
    rc = check(v, &out);
    if (rc == ML_EINVAL)
        ml__fail_text(ctx, ML_EINVAL, v->format ? ML_M_CERT_FORMAT : ML_M_CERT_INVALID, v->msg);
    else if (rc == ML_ENOMEM)
        ml__fail(ctx, ML_M_NOMEM, "ml_verify_json");
    else if (rc == ML_EINTERRUPTED)
        ml__fail(ctx, ML_M_INTERRUPTED);
    if (!rc) {
        size_t n = strlen(out);
        if (cap)
            snprintf(summary, cap, "%s", out);
        if (summary_len)
            *summary_len = n;
    }
    free(out);
    free(v);
    ml__json_free(&j);
    return ml__leave(ctx, &sc, rc);
}
