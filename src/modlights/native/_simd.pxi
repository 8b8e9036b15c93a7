# The SIMD path of one binding module's C kernels (included by _chase.pyx and
# _rowchase.pyx). csrc/cpu.c keeps the choice; each extension module links its own
# copy of the C core, so each module keeps its own (MODLIGHTS_SIMD sets all of them at
# first use; modlights._gf2.set_simd is the dense engines').

cdef extern from "cpu.h":
    enum: ML_SIMD_COUNT
    int ml_cpu_supports(int path)
    const char *ml_simd_name(int path)
    int ml_simd_from_name(const char *name)
    int ml_simd_get()
    int ml_simd_set(int path)


def simd_paths():
    """The SIMD paths this CPU can run for this module's kernels, best last."""
    return [ml_simd_name(p).decode() for p in range(ML_SIMD_COUNT) if ml_cpu_supports(p)]


def get_simd():
    """The SIMD path this module's kernels use (MODLIGHTS_SIMD at first use, else the
    best this CPU runs)."""
    return ml_simd_name(ml_simd_get()).decode()


def set_simd(name):
    """Force the SIMD path of this module's kernels ("portable", "avx2", "avx512");
    ValueError for an unknown name or one this CPU cannot run. Each extension module
    keeps its own choice (modlights._gf2.set_simd is the dense engines')."""
    if not isinstance(name, str) or ml_simd_from_name(name.encode()) < 0:
        raise ValueError(f"unknown SIMD path {name!r}: use one of "
                         f"{[ml_simd_name(i).decode() for i in range(ML_SIMD_COUNT)]}")
    if ml_simd_set(ml_simd_from_name(name.encode())) != 0:
        raise ValueError(f"this CPU cannot run the {name!r} path; it supports {simd_paths()}")
