"""Size limits of the chase's residual system: what it may take in memory and work
before anything is built.

:func:`check_residual_size` raises ValueError, before any allocation, for a residual
system too large to build or too slow to eliminate; every chase variant
(:mod:`modlights.engines.chase.engine`, :mod:`modlights.engines.chase.rowchase`) asks it.
"""

from __future__ import annotations

__all__ = ["MAX_RESIDUAL_BYTES", "MAX_RESIDUAL_WORK", "residual_cost", "check_residual_size"]

#: Largest memory the residual system may take (bytes: the symbolic chase's matrix and
#: the elimination's working copies), and the most work its elimination may take
#: (64-bit word operations over GF(2), 16-lane byte operations over Z/n, cubic in the
#: sides). The 10000 x 10000 GF(2) cross board (10000 x 10000 residual, 2^33.9
#: operations, 0.23 s to eliminate) is well inside; the 255 x 255 board with an
#: empty pattern (65025 x 65025, 2^42 operations: minutes) is refused.
MAX_RESIDUAL_BYTES = 1 << 30
MAX_RESIDUAL_WORK = 1 << 38


def residual_cost(nres: int, nsym: int, n: int) -> tuple[int, int]:
    """(bytes, work) of a residual system of nres equations in nsym symbols mod n:
    the memory its matrix and the elimination's copies take, and the word operations
    of a dense elimination (see MAX_RESIDUAL_WORK)."""
    side = min(nres, nsym)
    if n == 2:
        packed = nres * ((nsym + 63) // 64) * 8
        return 3 * packed, nres * nsym * side // 64  # matrix, kept copy, [M | R]
    from modlights.model.ring import factorize

    parts = len(factorize(n))
    # matrix (uint8) + per prime power: a reduced copy (uint8) and the work matrix (uint16)
    return nres * nsym * (1 + 3 * parts), nres * nsym * side // 16


def check_residual_size(nres: int, nsym: int, n: int) -> None:
    """ValueError, before anything is allocated, when the residual system of the chase
    would be too large to build or too slow to eliminate (see MAX_RESIDUAL_BYTES)."""
    nbytes, work = residual_cost(nres, nsym, n)
    if nbytes > MAX_RESIDUAL_BYTES or work > MAX_RESIDUAL_WORK:
        raise ValueError(
            f"this board is too large for its pattern: the chase leaves a residual system "
            f"of {nres} equations x {nsym} unknowns mod {n} ({nbytes / 2**20:.0f} MiB, "
            f"about 2^{max(work, 1).bit_length() - 1} operations to eliminate; at most "
            f"{MAX_RESIDUAL_BYTES / 2**20:.0f} MiB and 2^{MAX_RESIDUAL_WORK.bit_length() - 1}"
            f"); the pattern forces too few taps (use a smaller board or a pattern that "
            f"reaches the next row)"
        )
