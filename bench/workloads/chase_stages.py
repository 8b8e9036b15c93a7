"""chase-stages: where the time and memory of a large chase solve go.

    python -m bench chase-stages --param size=10000 [--param states=3] [--param pattern=knight]

The workload makes a random (rows, cols) uint8 start
(outside the timing), then runs ``repeats`` times

    b = Board.grid(rows, cols, states=n, pattern=pattern)
    s = Solver(b, method="chase")
    sol = s.solve(start, minimal=False)

and reports medians (seconds) of: Board.grid; Solver(...) split into the C plan
(``_chase.Plan``), the C symbolic chase (``matrix_gf2`` / ``matrix_zn``), the C
residual set-up (``Gf2Residual`` / ``ZnEngine``) and the rest (Python glue); solve
split into the C numeric replays (``Plan.numeric``), the residual solve and the rest
(state checks, right-hand side, tap grid, Solution);
and the whole pipeline. Memory: RSS added by Board.grid (MB, after it returns) and
the peak RSS of the pipeline above the resident set before it (VmHWM, reset by
/proc/self/clear_refs; Linux only), plus the absolute peak.

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


class _TimedRes:
    """A proxy of a chase Residual adding up the seconds of its C calls."""

    def __init__(self, res, acc):
        self._res, self._acc = res, acc

    def __getattr__(self, name):
        attr = getattr(self._res, name)
        if not callable(attr):
            return attr

        def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return attr(*a, **k)
            finally:
                self._acc["residual"] += time.perf_counter() - t0

        return timed


class _Timed:
    """A proxy of a chase Plan adding up the seconds of its C calls."""

    def __init__(self, plan, acc):
        self._plan, self._acc = plan, acc

    def __getattr__(self, name):
        attr = getattr(self._plan, name)
        if name in ("numeric", "matrix_gf2", "matrix_zn"):

            def timed(*a, **k):
                t0 = time.perf_counter()
                try:
                    return attr(*a, **k)
                finally:
                    key = "numeric" if name == "numeric" else "symbolic"
                    self._acc[key] += time.perf_counter() - t0

            return timed
        return attr


#: Columns: Solver = plan + symbolic + res_factor + solver_rest (Python glue);
#: solve = numeric + res_solve + solve_rest (Python: checks, rhs, taps, Solution).
COLS = (
    "grid",
    "grid_mb",
    "solver",
    "plan",
    "symbolic",
    "res_factor",
    "solver_rest",
    "solve",
    "numeric",
    "res_solve",
    "solve_rest",
    "total",
    "peak_mb",
    "abs_peak_mb",
)


def one(size: int, n: int, pattern: str, repeats: int, solvable: bool) -> dict:
    from modlights import Board, Solver
    from modlights.cli.workloads import _peak_mb, _reset_peak
    from modlights.engines.chase import engine as chase_mod
    from modlights.native import _core as _chase

    rows = cols = size
    acc = {"plan": 0.0, "symbolic": 0.0, "numeric": 0.0, "residual": 0.0}
    real_build = chase_mod.build_plan
    from modlights.native import _core as _zn

    real_gf2, real_zn = _chase.Gf2Residual, _zn.ZnEngine

    def timed_residual(real):  # times the set-up and every solve
        def make(*a, **k):
            t0 = time.perf_counter()
            r = real(*a, **k)
            acc["residual"] += time.perf_counter() - t0
            return _TimedRes(r, acc)

        return make

    _chase.Gf2Residual = timed_residual(real_gf2)
    _zn.ZnEngine = timed_residual(real_zn)

    def build_plan(board):
        t0 = time.perf_counter()
        p = real_build(board)
        acc["plan"] += time.perf_counter() - t0
        return _Timed(p, acc)

    chase_mod.build_plan = build_plan
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
    for _ in range(repeats):
        for k in acc:
            acc[k] = 0.0
        _reset_peak()
        base = _rss_mb()
        t0 = time.perf_counter()
        b = Board.grid(rows, cols, states=n, pattern=pattern)
        t1 = time.perf_counter()
        grid_mb = _rss_mb() - base
        s = Solver(b, method="chase")
        t2 = time.perf_counter()
        plan, sym, res = acc["plan"], acc["symbolic"], acc["residual"]
        sol = s.solve(start, minimal=False)
        t3 = time.perf_counter()
        peak = _peak_mb()
        rec["grid"].append(t1 - t0)
        rec["grid_mb"].append(grid_mb)
        rec["solver"].append(t2 - t1)
        rec["plan"].append(plan)
        rec["symbolic"].append(sym)
        rec["res_factor"].append(res)
        rec["solver_rest"].append(t2 - t1 - plan - sym - res)
        rec["solve"].append(t3 - t2)
        rec["numeric"].append(acc["numeric"])
        rec["res_solve"].append(acc["residual"] - res)
        rec["solve_rest"].append(t3 - t2 - acc["numeric"] - (acc["residual"] - res))
        rec["total"].append(t3 - t0)
        rec["peak_mb"].append(peak - base)
        rec["abs_peak_mb"].append(peak)
        del b, s, sol
    chase_mod.build_plan = real_build
    _chase.Gf2Residual, _zn.ZnEngine = real_gf2, real_zn
    for k, v in rec.items():
        out[k] = float(np.median(v))
    return out


@workload(
    "chase-stages",
    help="the stages of Board.grid + Solver(method='chase') + solve on "
    "a large board: plan, symbolic chase, residual, numeric replay, glue; RSS (figures)",
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
