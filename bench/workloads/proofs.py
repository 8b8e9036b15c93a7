"""Proofs past enumeration: fewest taps of the all-on k x k board (OEIS A075464), proved,
and hardest boards with their bounds.

Public API only (Board.grid, Solver.solve(minimal=True), Solver.hardest), so the same
workload runs on any tree. Every answer is checked outside the timing: the solution
clears the board, it is proved minimal, and its length equals the published value where
one is known; hardest witnesses are re-solved. The per-size times and values are recorded
as figures (``k=61: 1234 taps, 12.3 s``) so one run gives the whole table.
"""

from __future__ import annotations

import time

import numpy as np

from ..registry import Context, Subject, workload

#: OEIS A075464: fewest taps that turn every light of the k x k cross board off from all
#: on, k = 1..54 (the values the issue quotes from the OEIS entry).
A075464 = (
    1,
    4,
    5,
    4,
    15,
    28,
    33,
    40,
    25,
    44,
    55,
    72,
    105,
    56,
    117,
    104,
    147,
    188,
    141,
    224,
    245,
    276,
    231,
    270,
    353,
    356,
    405,
    416,
    345,
    376,
    553,
    428,
    469,
    520,
    563,
    600,
    761,
    772,
    561,
    696,
    891,
    940,
    953,
    772,
    1069,
    1188,
    971,
    1096,
    1165,
    1220,
    1317,
    1256,
    1487,
    1400,
)


def _all_on(k: int, budget: float):
    import modlights as ml

    board = ml.Board.grid(k, k)
    solver = ml.Solver(board)
    t0 = time.perf_counter()
    sol = solver.solve(np.ones((k, k), np.uint8), budget=budget)
    return board, solver, sol, time.perf_counter() - t0


@workload(
    "a075464",
    help="fewest taps of the all-on k x k GF(2) cross board for k = lo..hi, "
    "each proved minimal (OEIS A075464; k <= 54 checked against it); per-k time "
    "and value as figures",
    groups=("issue23",),
    params={"lo": 1, "hi": 54, "budget": 1e9},
    repeats=1,
    warmup=0,
    heavy=True,
)
def a075464(ctx: Context):
    lo, hi, budget = int(ctx["lo"]), int(ctx["hi"]), float(ctx["budget"])

    def run():
        rows = []
        for k in range(lo, hi + 1):
            board, solver, sol, secs = _all_on(k, budget)
            rows.append((k, solver.nullity, sol, secs, board))
        return rows

    def check(rows):
        slow = []
        for k, nullity, sol, secs, board in rows:
            assert not np.asarray(board.apply(np.ones((k, k), np.uint8), sol.taps)).any(), (
                f"k={k}: the solution does not clear the board"
            )
            assert sol.proven_minimal, f"k={k}: not proved within the budget"
            if k <= len(A075464):
                assert sol.length == A075464[k - 1], (
                    f"k={k}: {sol.length} taps, OEIS A075464 says {A075464[k - 1]}"
                )
            if nullity:
                ctx.figure(
                    f"k={k}", round(secs, 4), "s", note=f"{sol.length} taps, nullity {nullity}"
                )
            slow.append(secs)
        ctx.figure("total", round(sum(slow), 2), "s", note=f"k = {lo}..{hi}")

    return {"modlights": Subject(run, check)}


@workload(
    "a075464-attempt",
    help="fewest taps of the all-on k x k board (default k = 79, "
    "nullity 64) within a budget in seconds: the value if proved, else the best found",
    groups=(),
    params={"k": 79, "budget": 600.0},
    repeats=1,
    warmup=0,
    heavy=True,
)
def a075464_attempt(ctx: Context):
    k, budget = int(ctx["k"]), float(ctx["budget"])

    def run():
        return _all_on(k, budget)

    def check(ans):
        board, solver, sol, secs = ans
        assert not np.asarray(board.apply(np.ones((k, k), np.uint8), sol.taps)).any()
        lower = getattr(sol, "lower_bound", None)
        ctx.figure(
            f"k={k}",
            sol.length,
            "taps",
            note=f"proved {sol.proven_minimal}, nullity {solver.nullity}, "
            f"{secs:.1f} s" + (f", proved lower bound {lower}" if lower else ""),
        )

    return {"modlights": Subject(run, check)}


@workload(
    "hardest-bounds",
    help="Solver.hardest on k x k GF(2) cross boards within a budget "
    "each: proved lower and upper bounds per size as figures",
    groups=("issue23",),
    params={"sizes": "19,23", "budget": 120.0},
    repeats=1,
    warmup=0,
    heavy=True,
)
def hardest_bounds(ctx: Context):
    import modlights as ml

    sizes = [int(s) for s in str(ctx["sizes"]).split(",") if s]
    budget = float(ctx["budget"])

    def run():
        out = []
        for k in sizes:
            s = ml.Solver(ml.Board.grid(k, k))
            t0 = time.perf_counter()
            h = s.hardest(budget=budget)
            out.append((k, s, h, time.perf_counter() - t0))
        return out

    def check(rows):
        for k, s, h, secs in rows:
            sol = s.solve(h.state, budget=1e9)
            assert sol.length == h.min_taps and sol.proven_minimal, (
                f"{k} x {k}: the witness does not check"
            )
            assert h.lower <= h.upper
            ctx.figure(
                f"{k}x{k}",
                h.lower,
                "taps",
                note=f"bounds {h.lower}..{h.upper}, proved {h.proven}, "
                f"{secs:.1f} s (budget {budget:g} s)",
            )

    return {"modlights": Subject(run, check)}
