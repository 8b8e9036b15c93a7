/* c_api_replay.c: runs fuzz/c_api.c's LLVMFuzzerTestOneInput on files, without libFuzzer:
 * the regression check of the committed corpus (fuzz/c_api_corpus/) on every test run
 * (tests/test_fuzz_c_api.py builds this with fuzz/c_api.c and the library's sources, under
 * ASan + UBSan where the compiler has them).
 *
 *   c_api_replay FILE_OR_DIR...     each file (a directory: its files, sorted by name)
 *
 * Prints "run <name>" before each input (a violated invariant aborts the process, so the
 * last such line names the input) and "replayed <k> inputs" at the end; exit status 0
 * when every input ran clean. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "c_api_replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *more = realloc(buf, cap *= 2);
            if (!more) {
                free(buf);
                buf = NULL;
            }
            buf = more;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "c_api_replay: out of memory reading %s\n", path);
        return 1;
    }
    printf("run %s\n", path);
    fflush(stdout);
    /* a copy of exactly n bytes: ASan sees a read past the input */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int bad = 0;
    long count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "c_api_replay: no such file or directory: %s\n", argv[i]);
            bad = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad |= run_file(argv[i]);
            count++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            fprintf(stderr, "c_api_replay: cannot read %s\n", argv[i]);
            bad = 1;
            continue;
        }
        char **names = NULL;
        size_t k = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            names = realloc(names, (k + 1) * sizeof *names);
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[k] = malloc(len);
            snprintf(names[k], len, "%s/%s", argv[i], e->d_name);
            k++;
        }
        closedir(d);
        qsort(names, k, sizeof *names, by_name);
        for (size_t j = 0; j < k; j++) {
            bad |= run_file(names[j]);
            count++;
            free(names[j]);
        }
        free(names);
    }
    printf("replayed %ld inputs\n", count);
    return bad;
}
