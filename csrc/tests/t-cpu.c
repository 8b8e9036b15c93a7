/* t-cpu: csrc/base/cpu.c (CPU feature detection and the SIMD path choice) against an
 * independent oracle: the "flags" line of /proc/cpuinfo (x86 Linux) for avx2 / avx512f,
 * the name table round trip, the refusal paths (unknown ids and names, unsupported paths
 * leave the choice unchanged), and MODLIGHTS_SIMD read on the first ml_simd_get() of a
 * process (each case in a forked child, since the choice is process-wide and sticky).
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: base/cpu.c */
#include "base/cpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ML_T_SEED 0xC0FFEE5EEDull
#include "t-util.h"

/* 1/0 when /proc/cpuinfo's first flags line has / lacks the word flag, -1 when unknown. */
static int cpuinfo_has(const char *flag)
{
#if defined(__x86_64__) || defined(__i386__)
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return -1;
    static char line[1 << 16];
    int found = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0) continue;
        found = 0;
        for (char *w = strtok(strchr(line, ':') + 1, " \t\n"); w; w = strtok(NULL, " \t\n"))
            if (strcmp(w, flag) == 0) found = 1;
        break;
    }
    fclose(f);
    return found;
#else
    (void)flag;
    return 0;   /* not x86: no AVX path can be supported */
#endif
}

/* ml_simd_get() in a fresh child process with MODLIGHTS_SIMD = env (unset when NULL),
 * after ml_simd_set(pre) when pre >= 0; the child's exit status is the path (or 99). */
static int simd_in_child(const char *env, int pre)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (env) setenv("MODLIGHTS_SIMD", env, 1);
        else unsetenv("MODLIGHTS_SIMD");
        if (pre >= 0 && ml_simd_set(pre) != 0) _exit(99);
        int p = ml_simd_get();
        int q = ml_simd_get();      /* sticky: the same on the second call */
        _exit(p == q ? p : 98);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) return -2;
    return WEXITSTATUS(st);
}

int main(void)
{
    /* the oracle: the kernel's view of the CPU flags */
    int want[ML_SIMD_COUNT] = {1, cpuinfo_has("avx2"), cpuinfo_has("avx512f")};
    for (int p = 0; p < ML_SIMD_COUNT; p++) {
        int s = ml_cpu_supports(p);
        CHECK(s == 0 || s == 1, "path %d supports=%d", p, s);
        if (want[p] >= 0) CHECK(s == want[p], "path %d supports=%d cpuinfo=%d", p, s, want[p]);
    }
    int best = ML_SIMD_PORTABLE;
    for (int p = 0; p < ML_SIMD_COUNT; p++)
        if (ml_cpu_supports(p)) best = p;
    CHECK(ml_cpu_best() == best, "best=%d want %d", ml_cpu_best(), best);
    /* unknown ids are never supported */
    const int bad[] = {-1, ML_SIMD_COUNT, ML_SIMD_COUNT + 1, 1000, -1000};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK(ml_cpu_supports(bad[i]) == 0, "id %d", bad[i]);
        CHECK(ml_simd_name(bad[i]) == NULL, "id %d", bad[i]);
    }
    /* the names: distinct, and ml_simd_from_name inverts ml_simd_name */
    const char *expect[ML_SIMD_COUNT] = {"portable", "avx2", "avx512"};
    for (int p = 0; p < ML_SIMD_COUNT; p++) {
        const char *nm = ml_simd_name(p);
        CHECK(nm && strcmp(nm, expect[p]) == 0, "name %d", p);
        CHECK(nm && ml_simd_from_name(nm) == p, "from_name(%s)", nm ? nm : "?");
    }
    const char *badnames[] = {"", "AVX2", "avx", "avx5120", "portable ", " avx2", "sse", "x"};
    for (size_t i = 0; i < sizeof badnames / sizeof *badnames; i++)
        CHECK(ml_simd_from_name(badnames[i]) == -1, "from_name(\"%s\")", badnames[i]);
    CHECK(ml_simd_from_name(NULL) == -1);
    /* random junk names: never a path unless equal to a name */
    for (int it = 0; it < 2000; it++) {
        char s[8];
        size_t len = (size_t)rnd_range(0, 7);
        for (size_t j = 0; j < len; j++) s[j] = "adinoprtvxl25140"[rnd() % 16];
        s[len] = 0;
        int w = -1;
        for (int p = 0; p < ML_SIMD_COUNT; p++)
            if (strcmp(s, expect[p]) == 0) w = p;
        CHECK(ml_simd_from_name(s) == w, "from_name(\"%s\")", s);
    }

    /* MODLIGHTS_SIMD on the first ml_simd_get(): a supported path is taken, an
     * unsupported or unknown one falls back to the best */
    CHECK(simd_in_child(NULL, -1) == best, "unset: %d", simd_in_child(NULL, -1));
    for (int p = 0; p < ML_SIMD_COUNT; p++) {
        int got = simd_in_child(expect[p], -1);
        int w = ml_cpu_supports(p) ? p : best;
        CHECK(got == w, "MODLIGHTS_SIMD=%s: got %d want %d", expect[p], got, w);
    }
    for (size_t i = 0; i < sizeof badnames / sizeof *badnames; i++) {
        int got = simd_in_child(badnames[i], -1);
        CHECK(got == best, "MODLIGHTS_SIMD=\"%s\": got %d want %d", badnames[i], got, best);
    }
    /* ml_simd_set before the first get wins over the environment */
    CHECK(simd_in_child("portable", best) == best);
    CHECK(simd_in_child(expect[best], ML_SIMD_PORTABLE) == ML_SIMD_PORTABLE);

    /* ml_simd_set in this process: every supported path is taken, a refused one
     * (unknown or unsupported) returns -1 and changes nothing */
    unsetenv("MODLIGHTS_SIMD");
    CHECK(ml_simd_get() == best);
    for (int round = 0; round < 200; round++) {
        int p = (int)rnd_range(-2, ML_SIMD_COUNT + 1);
        int before = ml_simd_get();
        int r = ml_simd_set(p);
        int ok = p >= 0 && p < ML_SIMD_COUNT && ml_cpu_supports(p);
        CHECK(r == (ok ? 0 : -1), "set(%d)=%d", p, r);
        CHECK(ml_simd_get() == (ok ? p : before), "after set(%d): %d", p, ml_simd_get());
    }
    return t_done();
}
