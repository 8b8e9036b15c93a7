/* t-version: csrc/api/version.c. ml_version() and ml_version_string() agree with the
 * header's macros and with each other (MAJOR.MINOR.PATCH); built by CMake, also with the
 * Python package's __version__ (ML_EXPECTED_VERSION), which the header must declare.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: api/version.c */
#include "include/modlights.h"

#include <stdio.h>
#include <string.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

int main(void)
{
    CHECK(ml_version() == ML_VERSION);
    CHECK(strcmp(ml_version_string(), ML_VERSION_STRING) == 0);
    int a = -1, b = -1, c = -1, used = 0;
    CHECK(sscanf(ml_version_string(), "%d.%d.%d%n", &a, &b, &c, &used) == 3);
    CHECK(used == (int)strlen(ml_version_string()));
    CHECK(a == ML_VERSION_MAJOR && b == ML_VERSION_MINOR && c == ML_VERSION_PATCH);
    CHECK(ML_VERSION == a * 10000 + b * 100 + c);
    CHECK(b < 100 && c < 100);    /* the packed form holds them */
#ifdef ML_EXPECTED_VERSION
    CHECK(strcmp(ML_VERSION_STRING, ML_EXPECTED_VERSION) == 0);
#endif
    printf("fails=%d\n", fails);
    return fails != 0;
}
