/* notimpl.c: the functions modlights.h declares that this release does not implement
 * yet. Each returns ML_ENOTIMPL with the message "<name> is not implemented yet in
 * libmodlights <version>" on its context (functions without one: on the calling thread's
 * default context, ml_errcode(NULL)), or returns 0 / NULL where it returns a value.
 * A work package that implements a function deletes its stub here
 * (docs/design/one-c-library.md); csrc/tests/t-notimpl.c checks every stub left. */
#include "api/ctx.h"

/* (none left: every function modlights.h declares is implemented) */
