/* example-version: which modlights this program was compiled against and which library it
 * runs with (exit status 1 when they are different releases). */
#include <modlights.h>
#include <stdio.h>

int main(void)
{
    printf("modlights.h %s, libmodlights %s\n", ML_VERSION_STRING, ml_version_string());
    if (ml_version() != ML_VERSION) {
        fprintf(stderr, "the header and the library are different releases\n");
        return 1;
    }
    return 0;
}
