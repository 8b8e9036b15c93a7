# The SIMD path of every C kernel (csrc/base/cpu.c keeps the one process-wide choice:
# MODLIGHTS_SIMD at first use, else the best this CPU runs).


def simd_paths():
    """Names of the SIMD paths this CPU can run, best last: e.g. ['portable', 'avx2']."""
    return [ml_simd_name(p).decode() for p in range(ML_SIMD_COUNT) if ml_cpu_supports(p)]


def get_simd():
    """The SIMD path every native kernel uses."""
    return ml_simd_name(ml_simd_get()).decode()


def set_simd(name):
    """Force the SIMD path of every native kernel ('avx512', 'avx2' or 'portable');
    ValueError when unknown or not supported by this CPU. The MODLIGHTS_SIMD environment
    variable sets the initial choice the same way."""
    cdef int p = ml_simd_from_name(name.encode()) if isinstance(name, str) else -1
    if p < 0:
        raise ValueError(f"unknown SIMD path {name!r}: use one of "
                         f"{[ml_simd_name(i).decode() for i in range(ML_SIMD_COUNT)]}")
    if ml_simd_set(p) != 0:
        raise ValueError(f"this CPU cannot run the {name!r} path; it supports {simd_paths()}")
