"""Boards per second of the batch minimal search (issue 13, part 1).

For each board: ``min_taps_many`` and ``solve_many(minimal=True)`` on a stack of random
solvable states, against ``solve_many(minimal=False)`` on the same stack (the ratio is
what the fewest-taps search costs on top of solving), medians of --repeat runs.

    python bench/batch_minimal.py [--boards 1000000] [--repeat 5]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import modlights as ml

CASES = [("5x5 GF(2) cross", 5, 5, 2, "cross"), ("6x6 GF(2) cross (trivial kernel)", 6, 6, 2,
                                                  "cross"),
         ("5x5 Z/3 cross", 5, 5, 3, "cross"), ("4x4 Z/4 cross", 4, 4, 4, "cross"),
         ("5x5 Z/4 cross", 5, 5, 4, "cross"), ("9x9 GF(2) cross", 9, 9, 2, "cross")]


def median_time(f, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1 << 20)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'board':34s} {'|ker|':>7s} {'min_taps_many':>14s} {'solve_many(min)':>16s} "
          f"{'solve_many':>11s}  ratios (M boards/s)")
    for name, rows, cols, n, pattern in CASES:
        b = ml.Board.grid(rows, cols, states=n, pattern=pattern)
        s = ml.Solver(b)
        X = rng.integers(0, n, size=(args.boards, rows * cols), dtype=np.uint8)
        A = b.matrix().astype(np.int64)
        S = ((-(X.astype(np.int64) @ A.T)) % n).astype(np.uint8).reshape(-1, rows, cols)
        s.solve_many(S[:100], minimal=True)                     # warm up
        t_min = median_time(lambda: s.min_taps_many(S), args.repeat)
        t_smin = median_time(lambda: s.solve_many(S, minimal=True), args.repeat)
        t_plain = median_time(lambda: s.solve_many(S), args.repeat)
        k = len(S) / 1e6
        print(f"{name:34s} {s.kernel_size:7d} {k / t_min:14.2f} {k / t_smin:16.2f} "
              f"{k / t_plain:11.2f}  {t_min / t_plain:.2f}x, {t_smin / t_plain:.2f}x")


if __name__ == "__main__":
    main()
