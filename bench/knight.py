"""The row-solve chase (csrc/rowsolve.c) against the light chase: before / after in one run.

Usage: python bench/knight.py [repeats] [case ...]

Each case times Board.grid + Solver(method="chase") + solve(minimal=False) from a random
solvable start (A x for a random x), alternating modlights.engines.chase.engine.ROWSOLVE = False (the
light chase of csrc/chase.c: 3w - 3 symbols for the knight) and True (the row-solve
chase: 2w symbols, half the symbolic blocks by the mirror image) run by run, so both see
the same machine load, and checks every answer with Board.apply outside the timing.
Prints the medians, the ratio after / before and the symbols of each. Shared 2-core
machine: quote medians and the in-run ratio.

Cases: knight (5000 x 5000), knight_2000, knight_8000, diagonal (5000 x 5000, method
"chase": the auto route takes the algebraic engine), knight_odd (5001 x 5001: odd sides,
the light chase both times, a control).
"""
import sys
import time

import numpy as np

import modlights.engines.chase.engine
from modlights import Board, Solver

CASES = {
    "knight_2000": (2000, "knight"),
    "knight": (5000, "knight"),
    "knight_8000": (8000, "knight"),
    "diagonal": (5000, "diagonal"),
    "knight_odd": (5001, "knight"),
}


def run(case, repeats):
    size, pattern = CASES[case]
    rng = np.random.default_rng(1)
    b = Board.grid(size, size, states=2, pattern=pattern)
    x = rng.integers(0, 2, size=(size, size), dtype=np.uint8)
    start = b.apply(np.zeros((size, size), np.uint8), x)
    times = {False: [], True: []}
    nsym = {}
    for _ in range(repeats):
        for after in (False, True):
            modlights.engines.chase.engine.ROWSOLVE = after
            t0 = time.perf_counter()
            s = Solver(Board.grid(size, size, states=2, pattern=pattern), method="chase")
            sol = s.solve(start, minimal=False)
            times[after].append(time.perf_counter() - t0)
            nsym[after] = s._engine.nsym
            assert not b.apply(start, sol.taps).any(), "wrong answer"
            del s, sol
    modlights.engines.chase.engine.ROWSOLVE = True
    before, after = np.median(times[False]), np.median(times[True])
    print(f"{case:12s} {size}x{size} {pattern}: light chase {before:.3f} s ({nsym[False]} "
          f"symbols), row-solve {after:.3f} s ({nsym[True]} symbols), ratio "
          f"{after / before:.2f} (medians of {repeats})", flush=True)


if __name__ == "__main__":
    a = sys.argv[1:]
    reps = int(a[0]) if a and a[0].isdigit() else 5
    for c in [c for c in a if not c.isdigit()] or list(CASES):
        run(c, reps)
