"""The hardest k x k GF(2) cross boards: Solver.hardest on each size, with a time budget.

Prints the value, whether it was proved (bounds met and the witness's minimum proved by
the exact coset search), the bounds, the rounds and the time; every witness is re-solved
and checked. 5x5 = 15 is also what bench/max_minimum_5x5.py finds by looking at every
solvable board; 9x9 = 37 is the published integer-program value.

    python bench/hardest.py                      # 5x5 and 9x9, median of 3 runs
    python bench/hardest.py --sizes 11,14,16,19,23,24,29,30 --budget 120 --repeats 1
"""
from __future__ import annotations

import argparse
import statistics
import time

import modlights as ml


def run(k: int, budget: float | None) -> tuple:
    t0 = time.perf_counter()
    s = ml.Solver(ml.Board.grid(k, k))
    h = s.hardest(budget=budget)
    seconds = time.perf_counter() - t0
    sol = s.solve(h.state)
    assert sol.length == h.min_taps and sol.proven_minimal, "witness does not check"
    return h, seconds, s.nullity


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5,9", help="board sides, comma separated")
    ap.add_argument("--budget", type=float, default=None, help="seconds per board")
    ap.add_argument("--repeats", type=int, default=3, help="runs per board (median)")
    args = ap.parse_args()
    print(f"{'board':>7} {'nullity':>7} {'value':>6} {'proved':>6} {'bounds':>9} "
          f"{'rounds':>6} {'seconds (median)':>16}")
    for k in (int(v) for v in args.sizes.split(",") if v.strip()):
        runs = [run(k, args.budget) for _ in range(max(1, args.repeats))]
        h, _, d = runs[-1]
        med = statistics.median(t for _, t, _ in runs)
        print(f"{k:>3}x{k:<3} {d:>7} {h.min_taps:>6} {'yes' if h.proven else 'no':>6} "
              f"{f'{h.lower}..{h.upper}':>9} {h.iterations:>6} {med:>16.2f}", flush=True)


if __name__ == "__main__":
    main()
