#!/usr/bin/env python
"""packed_engines.py: GF(2) solve_packed on giant boards, every packing engine.

    python bench/packed_engines.py                          # 10000^2 square, diagonal, cross
    python bench/packed_engines.py --sizes 100000 --repeats 3   # 1.25 GB a state (heavy)
    python bench/packed_engines.py --sizes 10000 --bytes    # + the byte solve, same run
    python bench/packed_engines.py --sizes 100000x99998 --patterns square   # a kernel

For each size and pattern: a random solvable start (s = A x0 for random packed taps
x0, streamed from the pattern), then Board.grid + Solver + solve_packed ``--repeats``
times (median, every time; the peak RSS of the timed runs, the start included), the
answer checked by the streamed packed apply outside the timing. Patterns run in turn
(round-robin over the repeats) so the ratios to cross are taken under the same load.
--bytes also times the unpacked path (Solver.solve on a uint8 state, as before
solve_packed covered these patterns) for boards up to MAX_TILES.

The machine is shared (2 cores, several developers): quote medians and in-run ratios.
"""
from __future__ import annotations

import argparse
import gc
import time

import numpy as np

import modlights as ml
from modlights.model.board import MAX_TILES
from modlights.cli.workloads import _peak_mb, _reset_peak, random_packed
from modlights.engines.packed import apply_packed


def _size(text: str) -> tuple[int, int]:
    r, _, c = text.lower().partition("x")
    return int(r), int(c or r)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000", help="sides or ROWSxCOLS, commas")
    ap.add_argument("--patterns", default="square,diagonal,cross")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--bytes", action="store_true", help="also the byte solve")
    args = ap.parse_args()
    for size in args.sizes.split(","):
        rows, cols = _size(size)
        patterns = args.patterns.split(",")
        times: dict = {p: [] for p in patterns}
        btimes: dict = {p: [] for p in patterns}
        peaks: dict = {}
        for rep in range(args.repeats):
            for p in patterns:
                board = ml.Board.grid(rows, cols, pattern=p)
                start, _ = apply_packed(board, random_packed(rows, cols, rep))
                gc.collect()
                _reset_peak()
                t0 = time.perf_counter()
                solver = ml.Solver(ml.Board.grid(rows, cols, pattern=p))
                x = solver.solve_packed(start)
                times[p].append(time.perf_counter() - t0)
                peaks[p] = max(peaks.get(p, 0.0), _peak_mb())
                _, lit = apply_packed(board, x, start, write=False)
                assert lit == 0, f"{p} {rows}x{cols}: {lit} tiles lit"
                engine = type(solver._packed_engine()).__name__
                del x
                if args.bytes and rows * cols <= MAX_TILES:
                    state = np.unpackbits(start, axis=1, count=cols)
                    t0 = time.perf_counter()
                    sol = ml.Solver(ml.Board.grid(rows, cols, pattern=p)).solve(
                        state, minimal=False)
                    btimes[p].append(time.perf_counter() - t0)
                    assert not board.apply(state, sol.taps).any()
                    del sol, state
                del start
                gc.collect()
                print(f"  {rows}x{cols} {p:9s} {engine:18s} run {rep + 1}: "
                      f"{times[p][-1]:.3f} s" +
                      (f" (bytes {btimes[p][-1]:.3f} s)" if btimes[p] else ""), flush=True)
        base = float(np.median(times["cross"])) if "cross" in times else None
        for p in patterns:
            med = float(np.median(times[p]))
            line = (f"{rows}x{cols} {p:9s} solve_packed median {med:.3f} s "
                    f"({', '.join(f'{t:.3f}' for t in times[p])}), peak {peaks[p]:.0f} MB")
            if base and p != "cross":
                line += f", {med / base:.2f}x cross"
            if btimes[p]:
                line += f"; bytes median {float(np.median(btimes[p])):.3f} s " \
                        f"({float(np.median(btimes[p])) / med:.0f}x packed)"
            print(line)


if __name__ == "__main__":
    main()
