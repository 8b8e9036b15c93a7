#include "base/cpu.h"
#include <stdlib.h>
#include <string.h>

static const char *const names[ML_SIMD_COUNT] = {"portable", "avx2", "avx512"};

int ml_cpu_supports(int path)
{
    switch (path) {
    case ML_SIMD_PORTABLE:
        return 1;
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    case ML_SIMD_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    case ML_SIMD_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") != 0;
#endif
    default:
        return 0;
    }
}

int ml_cpu_best(void)
{
    if (ml_cpu_supports(ML_SIMD_AVX512)) return ML_SIMD_AVX512;
    if (ml_cpu_supports(ML_SIMD_AVX2)) return ML_SIMD_AVX2;
    return ML_SIMD_PORTABLE;
}

const char *ml_simd_name(int path)
{
    return (path >= 0 && path < ML_SIMD_COUNT) ? names[path] : NULL;
}

int ml_simd_from_name(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < ML_SIMD_COUNT; i++)
        if (strcmp(name, names[i]) == 0) return i;
    return -1;
}

static int current = -1;

int ml_simd_get(void)
{
    if (current < 0) {
        int p = ml_simd_from_name(getenv("MODLIGHTS_SIMD"));
        current = (p >= 0 && ml_cpu_supports(p)) ? p : ml_cpu_best();
    }
    return current;
}

int ml_simd_set(int path)
{
    if (path < 0 || path >= ML_SIMD_COUNT || !ml_cpu_supports(path)) return -1;
    current = path;
    return 0;
}
