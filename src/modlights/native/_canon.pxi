"""Bindings to csrc/search/canon.h's work bound (canon_fits, CANON_MAX_WORK: whether the
C solver makes its kernel canonical; the canonical forms themselves run inside the C
solver) and the argument checks _driver.pxi shares."""

#: Work units (k^2 ceil(L/64) for n = 2, k^2 L times the exponents' sum otherwise) canon_fits allows.
CANON_MAX_WORK = ML_CANON_MAX_WORK


def _check_int(what, v, lo, hi):
    """v as an int when it is one (not a bool) from lo to hi, else ValueError."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) \
            or not lo <= v <= hi:
        raise ValueError(f"{what} must be an int from {lo} to {hi}, got {v!r}")
    return int(v)


def _canon_n(n):
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) \
            or not 2 <= n <= 255:
        raise ValueError(f"n must be an int from 2 to 255, got {n!r}")
    return int(n)


def _canon_matrix(name, a, n):
    a = np.asarray(a)
    if a.dtype.kind not in "iub":
        raise ValueError(f"{name} must hold integers, got dtype {a.dtype}")
    if a.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got {a.ndim}-D")
    if a.size and (int(a.min()) < 0 or int(a.max()) >= n):
        raise ValueError(f"{name} entries must be in 0..{n - 1}")
    return np.ascontiguousarray(a, dtype=np.uint8)


def canon_fits(k, L, n):
    """Whether k generators of length L over Z/n are within CANON_MAX_WORK."""
    k = _check_int("k", k, 0, (1 << 62))
    L = _check_int("L", L, 0, (1 << 62))
    return bool(ml_canon_fits(k, L, _canon_n(n)))
