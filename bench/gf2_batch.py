#!/usr/bin/env python
"""gf2_batch.py: in-process time of GF(2) ``Solver.solve_many`` on a stack of byte
boards (the "GF(2) solve_many 100000 x 5x5" workload of compare.py), S built once.

    python bench/gf2_batch.py                      this install: median of 7 calls
    python bench/gf2_batch.py --before PYTHON      also PYTHON (e.g. a venv of main),
                                                   rounds interleaved, in one run

Every answer is checked (state + A x = 0 for every board, with NumPy). Prints the
median over --repeat calls per round and the median over the rounds.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np


def measure(k: int, side: int, repeat: int, seed: int) -> dict:
    import modlights as ml
    b = ml.Board.grid(side, side)
    A = b.matrix().astype(np.int64)
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(k, side * side))
    S = ((X @ A.T) % 2).astype(np.uint8).reshape(k, side, side)   # solvable boards
    s = ml.Solver(b)
    s.solve_many(S[:64])                      # factor and build S outside the timing
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        T = s.solve_many(S)
        times.append(time.perf_counter() - t0)
    got = (T.reshape(k, -1).astype(np.int64) @ A.T + S.reshape(k, -1)) % 2
    if got.any():
        raise SystemExit("wrong answer: some state + A x is not 0")
    return {"median_ms": statistics.median(times) * 1e3, "simd": _simd()}


def _simd() -> str:
    from modlights.native import _core as _gf2
    return _gf2.get_simd()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=100_000)
    ap.add_argument("--side", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--before", help="another Python whose modlights is the baseline")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(measure(a.k, a.side, a.repeat, 1)))
        return
    runs = {"after": sys.executable}
    if a.before:
        runs = {"before": a.before, **runs}
    res: dict[str, list[float]] = {name: [] for name in runs}
    for r in range(a.rounds):
        for name, py in (list(runs.items())[::1 if r % 2 == 0 else -1]):
            out = subprocess.run([py, __file__, "--child", "--k", str(a.k), "--side",
                                  str(a.side), "--repeat", str(a.repeat)],
                                 check=True, capture_output=True, text=True).stdout
            res[name].append(json.loads(out)["median_ms"])
    print(f"solve_many {a.k} x {a.side}x{a.side}, median of {a.repeat} calls per round, "
          f"{a.rounds} rounds (SIMD {_simd()})")
    med = {name: statistics.median(v) for name, v in res.items()}
    for name, v in res.items():
        print(f"  {name:6s} {med[name]:7.3f} ms  rounds: {' '.join(f'{t:.3f}' for t in v)}"
              f"  ({a.k / med[name] / 1e3:.1f} M boards/s)")
    if "before" in med:
        print(f"  before / after: {med['before'] / med['after']:.2f}x")


if __name__ == "__main__":
    main()
