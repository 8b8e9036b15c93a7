/* cpu.h: runtime CPU feature detection and the choice of SIMD path.
 *
 * No -march=native anywhere: SIMD kernels are compiled per function with
 * __attribute__((target(...))) and picked here at run time. The environment
 * variable MODLIGHTS_SIMD=avx512|avx2|portable forces a path (ignored when the CPU
 * lacks it); ml_simd_set() does the same from code. */
#ifndef ML_CPU_H
#define ML_CPU_H

enum { ML_SIMD_PORTABLE = 0, ML_SIMD_AVX2 = 1, ML_SIMD_AVX512 = 2, ML_SIMD_COUNT = 3 };

/* 1 when this CPU (and OS) can run the path. Portable is always supported. */
int ml_cpu_supports(int path);
/* The best supported path. */
int ml_cpu_best(void);
/* "portable", "avx2", "avx512"; NULL for an unknown id. */
const char *ml_simd_name(int path);
/* id for a name, -1 when unknown. */
int ml_simd_from_name(const char *name);
/* The path in use: MODLIGHTS_SIMD on first call if valid and supported, else the best. */
int ml_simd_get(void);
/* Force a path: 0 on success, -1 when unknown or unsupported (nothing changes). */
int ml_simd_set(int path);

/* A function compiled twice, for AVX2 and the default target, chosen by the loader:
 * x86 only; elsewhere (WebAssembly, ARM) the plain C function alone. */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define ML_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define ML_CLONES_AVX2
#endif

#endif
