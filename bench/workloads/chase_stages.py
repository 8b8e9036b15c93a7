"""chase-stages: where the time and memory of a large chase solve go.

    python -m bench chase-stages --param size=10000 [--param states=3] [--param pattern=knight]

The workload makes a random (rows, cols) uint8 start
(outside the timing), then runs ``repeats`` times

    b = Board.grid(rows, cols, states=n, pattern=pattern)
    s = Solver(b, method="chase")
    sol = s.solve(start, minimal=False)

and reports medians (seconds) of: Board.grid; the C board of it
(``modlights.engines.native.c_board``: once per board, reused by the solver);
Solver(...) split into the C engine's build (``NativeEngine``: the plan, the symbolic
chase and the residual system's elimination, all in csrc/engines/chase.c) and the rest
(Python glue: the registry's choice); solve split into the C engine's solve (the
numeric replays and the residual solve) and the rest (state checks, right-hand side,
tap grid, Solution); and the whole pipeline. Memory: RSS added by Board.grid (MB, after
it returns) and the peak RSS of the pipeline above the resident set before it (VmHWM,
reset by /proc/self/clear_refs; Linux only), plus the absolute peak.

The start is random (not necessarily solvable): with ``--solvable`` it is
``Board.random_state`` (solvable), whose time and peak are printed too.
"""

from __future__ import annotations

import time

import numpy as np

from ..registry import Context, workload


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


#: Columns: solver = engine + solver_rest (Python glue); solve = c_solve + solve_rest
#: (Python: checks, rhs, taps, Solution).
COLS = (
    "grid",
    "grid_mb",
    "c_board",
    "solver",
    "engine",
    "solver_rest",
    "solve",
    "c_solve",
    "solve_rest",
    "total",
    "peak_mb",
    "abs_peak_mb",
)


def one(size: int, n: int, pattern: str, repeats: int, solvable: bool) -> dict:
    from modlights import Board, Solver
    from modlights.cli.workloads import _peak_mb, _reset_peak
    from modlights.engines import native

    rows = cols = size
    acc = {"engine": 0.0, "c_solve": 0.0}
    real_init, real_solve = native.NativeEngine.__init__, native.NativeEngine.solve

    def init(self, *a, **k):  # times the C engine's build
        t0 = time.perf_counter()
        real_init(self, *a, **k)
        acc["engine"] += time.perf_counter() - t0

    def solve(self, R):  # times the C engine's solves
        t0 = time.perf_counter()
        try:
            return real_solve(self, R)
        finally:
            acc["c_solve"] += time.perf_counter() - t0

    native.NativeEngine.__init__, native.NativeEngine.solve = init, solve  # type: ignore
    out: dict = {"size": size, "n": n}
    if solvable:
        _reset_peak()
        base = _rss_mb()
        t0 = time.perf_counter()
        start = Board.grid(rows, cols, states=n, pattern=pattern).random_state(rng=1)
        out["random_state"] = time.perf_counter() - t0
        out["random_state_peak"] = _peak_mb() - base
    else:
        start = np.random.default_rng(1).integers(0, n, size=(rows, cols), dtype=np.uint8)
    rec: dict = {k: [] for k in COLS}
    try:
        for _ in range(repeats):
            for k in acc:
                acc[k] = 0.0
            _reset_peak()
            base = _rss_mb()
            t0 = time.perf_counter()
            b = Board.grid(rows, cols, states=n, pattern=pattern)
            t1 = time.perf_counter()
            grid_mb = _rss_mb() - base
            native.c_board(b)
            tc = time.perf_counter()
            s = Solver(b, method="chase")
            t2 = time.perf_counter()
            eng = acc["engine"]
            sol = s.solve(start, minimal=False)
            t3 = time.perf_counter()
            peak = _peak_mb()
            rec["grid"].append(t1 - t0)
            rec["grid_mb"].append(grid_mb)
            rec["c_board"].append(tc - t1)
            rec["solver"].append(t2 - tc)
            rec["engine"].append(eng)
            rec["solver_rest"].append(t2 - tc - eng)
            rec["solve"].append(t3 - t2)
            rec["c_solve"].append(acc["c_solve"])
            rec["solve_rest"].append(t3 - t2 - acc["c_solve"])
            rec["total"].append(t3 - t0)
            rec["peak_mb"].append(peak - base)
            rec["abs_peak_mb"].append(peak)
            del b, s, sol
    finally:
        native.NativeEngine.__init__, native.NativeEngine.solve = real_init, real_solve
    for k, v in rec.items():
        out[k] = float(np.median(v))
    return out


@workload(
    "chase-stages",
    help="the stages of Board.grid + Solver(method='chase') + solve on "
    "a large board: C board, C engine build and solve, glue; RSS (figures)",
    params={"size": 4000, "states": 2, "pattern": "cross", "stage_repeats": 5, "solvable": False},
    repeats=1,
    warmup=0,
)
def chase_stages(ctx: Context):
    out = one(ctx["size"], ctx["states"], ctx["pattern"], ctx["stage_repeats"], ctx["solvable"])
    for key in COLS + (("random_state", "random_state_peak") if ctx["solvable"] else ()):
        unit = "MB" if key.endswith("mb") or key.endswith("peak") else "s"
        ctx.figure(key, out[key], unit, "median")
    return {}
