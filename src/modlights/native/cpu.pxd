# Declarations of csrc/base/cpu.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.


cdef extern from "base/cpu.h":
    enum: ML_SIMD_COUNT
    int ml_cpu_supports(int path)
    const char *ml_simd_name(int path)
    int ml_simd_from_name(const char *name)
    int ml_simd_get()
    int ml_simd_set(int path)
