/* t-notimpl: csrc/api/notimpl.c. Every function of modlights.h not implemented yet
 * answers ML_ENOTIMPL with a message naming it (on its context, or on the calling
 * thread's default context when it has none) and returns 0 / NULL where it returns a
 * value; no stub touches its arguments (all NULL / 0 here). A work package that
 * implements a function deletes its stub in notimpl.c and its line here, and gives the
 * function a test of its own. Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: api/notimpl.c api/ctx.c api/errors.c api/version.c base/interrupt.c */
#include "include/modlights.h"

#include <stdio.h>
#include <string.h>

static int fails, stubs;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

/* the message names the function: "<name> is not implemented yet in libmodlights <v>" */
static int names(const char *msg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(msg, name, n) == 0
           && strcmp(msg + n, " is not implemented yet in libmodlights " ML_VERSION_STRING) == 0;
}

#define STUB_CTX(call, name) do { stubs++; int rc_ = (call); \
    if (rc_ != ML_ENOTIMPL || ml_errcode(ctx) != ML_ENOTIMPL \
        || ml_errmsg_id(ctx) != ML_M_NOT_IMPLEMENTED || !names(ml_errmsg(ctx), name)) { \
        printf("FAIL %s: rc %d, \"%s\"\n", name, rc_, ml_errmsg(ctx)); fails++; } } while (0)
#define STUB_NOCTX(name) do { stubs++; \
    if (ml_errcode(NULL) != ML_ENOTIMPL || !names(ml_errmsg(NULL), name)) { \
        printf("FAIL %s: \"%s\"\n", name, ml_errmsg(NULL)); fails++; } } while (0)

int main(void)
{
    ml_ctx *ctx = NULL;
    if (ml_ctx_new(&ctx) != ML_OK)
        return 1;
    (void)names;   /* no stub left: the macros stay for the next declared function */
    ml_ctx_free(ctx);
    printf("%d stubs; fails=%d\n", stubs, fails);
    return fails != 0;
}
