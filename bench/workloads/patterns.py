"""Every pattern and every n against the cross of the same n (issue 34's matrix).

- pattern-matrix: for every named pattern, n, side parity (``size`` and ``size - 1``) and
  boundary (zero, torus), ``Solver(b).solve(start, minimal=False)`` from a random
  solvable start A x0, the board made untimed, best of ``rounds``, the default engine;
  every answer checked with Board.apply. Each case runs in a child process with a
  deadline of ``timeout`` seconds (a case past it is recorded as the deadline, marked
  "timeout"), so one slow case does not hold the matrix. ``patterns`` takes the named
  patterns and the custom ones of CUSTOM by their names (offsets of reach up to 3).
  Figures per case: the seconds, the engine, the child's peak resident memory, the ratio
  to the cross of the same n, side and boundary, and for odd sides the ratio to the even
  side; then the cases outside issue 34's targets (over
  ``limit`` seconds, over ``cross_ratio`` times the cross, odd over ``odd_ratio``
  times even) as one figure listing them.
- nullity-giant: ``Solver(Board.grid(k, k, states=n)).nullity`` of a k x k cross board
  (k = 100000 by default) for each n of ``states``, each in a child process with a
  deadline; the ratio to GF(2) as a figure.

Public API only, so the same workloads run on any tree.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from ..registry import Context, Subject, Timed, workload

PATTERNS = "cross,diagonal,square,horizontal,vertical,knight"
#: Custom patterns of reach up to 3 (offsets (dr, dc) as Board.grid takes them), by the
#: names ``patterns`` accepts beside the named ones.
CUSTOM = {
    "long-cross": [(0, 0), (-3, 0), (3, 0), (0, -3), (0, 3), (-1, 0), (1, 0), (0, -1), (0, 1)],
    "pinwheel3": [(0, 0), (1, 3), (-1, -3), (3, -1), (-3, 1)],
    "lopsided3": [(0, 0), (1, 0), (3, 2), (-2, 1), (0, -3)],
}
STATES = "2,3,4,5,6,7,16,101,255"

_CHILD = r"""
import json, resource, sys, time
import numpy as np
import modlights as ml
k, n, pattern, wrap, rounds, seed = json.loads(sys.argv[1])
if not isinstance(pattern, str):
    pattern = [tuple(o) for o in pattern]
b = ml.Board.grid(k, k, states=n, pattern=pattern, wrap=bool(wrap))
x = np.random.default_rng(seed).integers(0, n, size=(k, k), dtype=np.uint8)
start = b.apply(np.zeros((k, k), np.uint8), x)
del x
best, engine = float("inf"), None
for _ in range(rounds):
    t0 = time.perf_counter()
    s = ml.Solver(b)
    sol = s.solve(start, minimal=False)
    best = min(best, time.perf_counter() - t0)
    engine = s.plan.engine
    ok = not b.apply(start, sol.taps).any()
    del sol, s
    if not ok:
        print(json.dumps({"error": "wrong answer"}))
        sys.exit(1)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": best, "engine": engine, "peak_mib": peak}))
"""

_NULLITY = r"""
import json, sys, time
import modlights as ml
k, n = json.loads(sys.argv[1])
t0 = time.perf_counter()
nul = ml.Solver(ml.Board.grid(k, k, states=n)).nullity
print(json.dumps({"seconds": time.perf_counter() - t0, "nullity": int(nul)}))
"""


def _child(code: str, args: list, timeout: float) -> dict:
    """Run ``code`` in a fresh interpreter with ``args`` as JSON; its last JSON line, or
    {"timeout": True} past ``timeout`` seconds, or {"error": ...}."""
    try:
        p = subprocess.run(
            [sys.executable, "-c", code, json.dumps(args)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=dict(os.environ),
        )
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode or not lines:
        return {"error": (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]}
    return json.loads(lines[-1])


def _names(text: str) -> list[str]:
    return [t for t in str(text).split(",") if t]


@workload(
    "pattern-matrix",
    help="every pattern x n x side parity x boundary at size x size: Solver + solve "
    "from A x0, best of rounds, ratios to the cross of the same n (figures; issue 34)",
    params={
        "size": 5000,
        "patterns": PATTERNS,
        "states": STATES,
        "wraps": "0,1",
        "parities": "even,odd",
        "rounds": 2,
        "timeout": 120.0,
        "limit": 5.0,
        "cross_ratio": 10.0,
        "odd_ratio": 1.5,
    },
    repeats=1,
    warmup=0,
    heavy=True,
)
def pattern_matrix(ctx: Context):
    size, rounds, timeout = int(ctx["size"]), int(ctx["rounds"]), float(ctx["timeout"])
    patterns = _names(ctx["patterns"])
    named = set(PATTERNS.split(","))
    for pat in patterns:
        if pat not in named and pat not in CUSTOM:
            raise ValueError(f"patterns: names among {PATTERNS},{','.join(CUSTOM)}, got {pat!r}")
    if "cross" not in patterns:
        patterns.insert(0, "cross")  # every ratio's denominator
    sides = {"even": size - size % 2, "odd": size - 1 + size % 2}
    parities = _names(ctx["parities"])
    out: dict[tuple, dict] = {}

    def run():
        t0 = time.perf_counter()
        for n in [int(v) for v in _names(ctx["states"])]:
            for wrap in [int(v) for v in _names(ctx["wraps"])]:
                for par in parities:
                    for pat in patterns:
                        k = sides[par]
                        shape = CUSTOM.get(pat, pat)
                        r = _child(_CHILD, [k, n, shape, wrap, rounds, ctx.seed + 1], timeout)
                        out[(pat, n, par, wrap)] = r
                        print(f"  {pat:10s} Z/{n:<3d} {k}^2 wrap={wrap}: {_show(r)}", flush=True)
        return Timed(time.perf_counter() - t0, out)

    def check(res):
        bad = []
        for (pat, n, par, wrap), r in res.items():
            name = f"{pat} Z/{n} {par} {'torus' if wrap else 'zero'}"
            s = r.get("seconds", timeout if r.get("timeout") else float("nan"))
            cross = res.get(("cross", n, par, wrap), {}).get("seconds")
            even = res.get((pat, n, "even", wrap), {}).get("seconds")
            note = [r.get("engine") or ("timeout" if r.get("timeout") else r.get("error", ""))]
            if r.get("peak_mib"):
                note.append(f"peak {r['peak_mib']:.0f} MiB")
            if cross:
                note.append(f"{s / cross:.1f}x cross")
            if par == "odd" and even:
                note.append(f"{s / even:.2f}x even")
            ctx.figure(name, s, "s", ", ".join(note))
            why = []
            if not r.get("seconds"):
                why.append(note[0])
            elif s > float(ctx["limit"]):
                why.append(f"{s:.2f} s")
            if cross and r.get("seconds") and s / cross > float(ctx["cross_ratio"]):
                why.append(f"{s / cross:.1f}x cross")
            if par == "odd" and even and r.get("seconds") and s / even > float(ctx["odd_ratio"]):
                why.append(f"{s / even:.2f}x even")
            if why:
                bad.append(f"{name} ({', '.join(why)})")
        ctx.figure("outside the targets", len(bad), "cases", "; ".join(bad))

    return {"modlights": Subject(run, check)}


def _show(r: dict) -> str:
    if "seconds" in r:
        return f"{r['seconds']:.3f} s {r['engine']}, peak {r.get('peak_mib', 0):.0f} MiB"
    return "timeout" if r.get("timeout") else f"error {r.get('error')}"


@workload(
    "nullity-giant",
    help="Solver(Board.grid(k, k, states=n)).nullity of the k x k cross (k = 100000) for "
    "each n, each in a child with a deadline; ratio to GF(2) (figures; issue 34)",
    params={"size": 100000, "states": "2,3", "timeout": 300.0},
    repeats=1,
    warmup=0,
    heavy=True,
)
def nullity_giant(ctx: Context):
    k, timeout = int(ctx["size"]), float(ctx["timeout"])

    def run():
        t0 = time.perf_counter()
        res = {int(n): _child(_NULLITY, [k, int(n)], timeout) for n in _names(ctx["states"])}
        return Timed(time.perf_counter() - t0, res)

    def check(res):
        base = res.get(2, {}).get("seconds")
        for n, r in res.items():
            s = r.get("seconds", timeout if r.get("timeout") else float("nan"))
            note = f"nullity {r['nullity']}" if "nullity" in r else _show(r)
            if base and "seconds" in r:
                note += f", {s / base:.1f}x GF(2)"
            ctx.figure(f"nullity Z/{n} {k}^2", s, "s", note)

    return {"modlights": Subject(run, check)}
