"""Stages of the chase on a large grid board with randomly locked tiles.

Usage: python bench/locks_large.py [size] [n] [fraction] [repeats] [whole]
("whole": build the whole residual system, as before the prefix of chase.py)
Prints, per run, the plan, residual build and solve times of Board.grid +
Solver(method='chase') + solve(minimal=False) from a random solvable start (the
start is A x for a random x, so it is solvable), and checks the answer with
Board.apply outside the timing. Shared 2-core machine: quote medians.
"""
import sys
import time

import numpy as np

from modlights import Board, Solver


def main(size=5000, n=2, frac=0.01, repeats=3, whole=False):
    if whole:
        import modlights.engines.chase.engine
        modlights.engines.chase.engine.PREFIX_RATIO = 1 << 62
    rng = np.random.default_rng(1)
    locked = rng.random((size, size)) < frac
    b = Board.grid(size, size, states=n, pattern="cross", locked=locked)
    x = rng.integers(0, n, size=(size, size), dtype=np.uint8)
    x[locked] = 0
    start = b.apply(np.zeros((size, size), np.uint8), x)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        board = Board.grid(size, size, states=n, pattern="cross", locked=locked)
        s = Solver(board, method="chase")
        t1 = time.perf_counter()
        sol = s.solve(start, minimal=False)
        t2 = time.perf_counter()
        times.append(t2 - t0)
        eng = s._engine if hasattr(s, "_engine") else None
        print(f"{size}x{size} n={n} locked={frac:.0%}: build {t1 - t0:.2f} s, solve "
              f"{t2 - t1:.2f} s, total {t2 - t0:.2f} s "
              f"residual {getattr(eng, 'residual_shape', '?')}", flush=True)
    assert not b.apply(start, sol.taps).any(), "wrong answer"
    print(f"median {np.median(times):.2f} s over {repeats}")


if __name__ == "__main__":
    a = sys.argv[1:]
    main(int(a[0]) if a else 5000, int(a[1]) if len(a) > 1 else 2,
         float(a[2]) if len(a) > 2 else 0.01, int(a[3]) if len(a) > 3 else 3,
         len(a) > 4 and a[4] == "whole")
