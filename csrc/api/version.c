/* version.c: the version of the library linked (modlights.h: ML_VERSION). */
#include "include/modlights.h"

int ml_version(void) { return ML_VERSION; }

const char *ml_version_string(void) { return ML_VERSION_STRING; }
