"""Bit-sliced symbolic chase (Z/3, Z/4, Z/8) and the AVX-512 runs: before / after in one run.

Usage: python bench/chase_packed.py [repeats] [case ...]

Each case times Board.grid + Solver(method="chase") + solve(minimal=False) from a random
solvable start (the start is A x for a random x), alternating the two settings run by
run so both see the same machine load, and checks every answer with Board.apply outside
the timing. Settings: Z/n cases flip modlights.engines.chase.engine.PACKED_SYMBOLIC (bytes with delayed
reduction = before, bit-sliced = after, both on the best SIMD path); the GF(2) case flips
the chase's SIMD path (modlights._chase.set_simd: avx2 = before, avx512 = after).
Prints the medians and the ratio after / before. Shared 2-core machine: quote medians.

Cases: z3, z4, z8 (5000 x 5000 cross), z3_2000, z3_locks, z3_locks_10000, z4_locks (1%
locked tiles), knight (5000 x 5000 GF(2)).
"""
import sys
import time

import numpy as np

import modlights.engines.chase.engine
from modlights import Board, Solver
from modlights.native import _core as _chase

CASES = {
    "z3_2000": (2000, 3, "cross", 0.0),
    "z3": (5000, 3, "cross", 0.0),
    "z4": (5000, 4, "cross", 0.0),
    "z8": (5000, 8, "cross", 0.0),
    "z3_locks": (5000, 3, "cross", 0.01),
    "z3_locks_10000": (10000, 3, "cross", 0.01),
    "z4_locks": (5000, 4, "cross", 0.01),
    "knight": (5000, 2, "knight", 0.0),
}


def setting(n, after):
    """Apply the before / after setting of a case; returns its name."""
    if n == 2:
        paths = _chase.simd_paths()
        name = "avx512" if after and "avx512" in paths else ("avx2" if "avx2" in paths else "portable")
        _chase.set_simd(name)
        return name
    modlights.engines.chase.engine.PACKED_SYMBOLIC = after
    return "bit-sliced" if after else "bytes"


def run(case, repeats):
    size, n, pattern, frac = CASES[case]
    rng = np.random.default_rng(1)
    locked = rng.random((size, size)) < frac if frac else None
    b = Board.grid(size, size, states=n, pattern=pattern, locked=locked)
    x = rng.integers(0, n, size=(size, size), dtype=np.uint8)
    if locked is not None:
        x[locked] = 0
    start = b.apply(np.zeros((size, size), np.uint8), x)
    times = {False: [], True: []}
    names = {}
    for _ in range(repeats):
        for after in (False, True):
            names[after] = setting(n, after)
            t0 = time.perf_counter()
            s = Solver(Board.grid(size, size, states=n, pattern=pattern, locked=locked),
                       method="chase")
            sol = s.solve(start, minimal=False)
            times[after].append(time.perf_counter() - t0)
            assert not b.apply(start, sol.taps).any(), "wrong answer"
    setting(n, True)
    before, after = np.median(times[False]), np.median(times[True])
    print(f"{case:16s} {size}x{size} n={n} {pattern} locked={frac:.0%}: "
          f"{names[False]} {before:.3f} s, {names[True]} {after:.3f} s, "
          f"ratio {after / before:.2f} (medians of {repeats})", flush=True)


if __name__ == "__main__":
    a = sys.argv[1:]
    reps = int(a[0]) if a and a[0].isdigit() else 5
    for c in [c for c in a if not c.isdigit()] or list(CASES):
        run(c, reps)
