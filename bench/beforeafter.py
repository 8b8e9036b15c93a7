"""``python -m bench compare``: the same workloads on two source trees, in one run.

Each round runs every workload once on each tree (the order alternates round by round),
each time in a fresh subprocess ``python -m bench _child WORKLOAD`` with
``PYTHONPATH=DIR/src`` (this bench package is found through the working directory), so
both trees see the same machine load and neither inherits the other's imported modules.
Only modlights is timed (the peers do not change between trees). Each subprocess times
``--repeats`` runs; the report gives, per tree, the median over every run of every round
and after / before (< 1: the after tree is faster), and the same ratio of the minima (on a
loaded machine the fastest run is the least disturbed one).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from . import registry
from .runner import RESULTS, ROOT, git_commit, machine, write_results

__all__ = ["main", "run_child"]


def _tree(path: str) -> Path:
    p = Path(path).resolve()
    if not (p / "src" / "modlights" / "__init__.py").is_file():
        raise ValueError(f"{path} is not a modlights source tree (no src/modlights/__init__.py)")
    return p


def run_child(
    tree: Path, name: str, params: list[str], seed: int, timeout: float, repeats: int = 1
) -> dict[str, Any]:
    """One timed run of workload ``name`` against ``tree``'s modlights, in a subprocess.
    Returns the run record, or {"error": ...} when the child fails or times out."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree / "src")
    cmd = [
        sys.executable,
        "-m",
        "bench",
        "_child",
        name,
        "--seed",
        str(seed),
        "--repeats",
        str(repeats),
    ]
    for p in params:
        cmd += ["--param", p]
    try:
        proc = subprocess.run(
            cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("BENCH-JSON "):
            return json.loads(line[len("BENCH-JSON ") :])
    last = proc.stderr.strip().splitlines()[-1:] or ["no output"]
    return {"error": f"exit {proc.returncode}: {last[0][-300:]}"}


def _times_of(rec: dict[str, Any]) -> tuple[list[float], str | None]:
    if "error" in rec:
        return [], rec["error"]
    res = rec["contenders"].get("modlights", {})
    if "error" in res or "missing" in res:
        return [], res.get("error", res.get("missing"))
    return res["times"], None


def main(argv: list[str], out) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bench compare", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--before", required=True, help="source tree (DIR/src/modlights)")
    p.add_argument("--after", required=True, help="source tree (DIR/src/modlights)")
    p.add_argument("workloads", nargs="+", help="workload or group names")
    p.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    p.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="timed runs in each subprocess (default 3); the median is over "
        "every run of every round",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="parameter override (one workload only)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="seconds allowed for one subprocess (default 600)",
    )
    p.add_argument("--out", default=str(RESULTS), help="results directory")
    p.add_argument("--no-save", action="store_true", help="write no results files")
    a = p.parse_args(argv)
    if a.rounds < 1 or a.repeats < 1:
        raise ValueError(f"--rounds and --repeats must be >= 1, got {a.rounds}, {a.repeats}")
    trees = {"before": _tree(a.before), "after": _tree(a.after)}
    ws = registry.select(a.workloads)
    if a.param and len(ws) != 1:
        raise ValueError("--param applies to one workload; name exactly one")
    for w in ws:
        registry.parse_params(w, a.param)  # bad parameters fail here, early
    mach = machine()
    mach["trees"] = {k: {"path": str(v), "commit": git_commit(v)} for k, v in trees.items()}
    print(
        f"before: {trees['before']} ({mach['trees']['before']['commit']})\n"
        f"after:  {trees['after']} ({mach['trees']['after']['commit']})\n"
        f"machine: {mach['cpu']}, {mach['usable_cores']}/{mach['cores']} cores, load "
        f"{mach['load']}",
        file=out,
        flush=True,
    )
    t_start = time.perf_counter()
    rows = []
    worst = 0.0
    for w in ws:
        times: dict[str, list[float]] = {"before": [], "after": []}
        errors: dict[str, str] = {}
        for r in range(a.rounds):
            for side in ("before", "after") if r % 2 == 0 else ("after", "before"):
                if side in errors:
                    continue
                rec = run_child(trees[side], w.name, a.param, a.seed, a.timeout, a.repeats)
                ts, err = _times_of(rec)
                if err:
                    errors[side] = err
                    print(f"  {w.name} {side}: error: {err}", file=out, flush=True)
                else:
                    times[side] += ts
        med = {k: statistics.median(v) if v else None for k, v in times.items()}
        ratio = med["after"] / med["before"] if med["before"] and med["after"] else None
        low = {k: min(v) if v else None for k, v in times.items()}
        low_ratio = low["after"] / low["before"] if low["before"] and low["after"] else None
        if ratio is not None:
            worst = max(worst, ratio)
        row = {
            "workload": w.name,
            "help": w.help,
            "rounds": a.rounds,
            "repeats": a.repeats,
            "times": times,
            "median_before": med["before"],
            "median_after": med["after"],
            "after_over_before": ratio,
            "min_before": low["before"],
            "min_after": low["after"],
            "min_after_over_before": low_ratio,
            "errors": errors,
        }
        rows.append(row)
        print(
            f"{w.name:24s} before {_s(med['before'])}  after {_s(med['after'])}  "
            f"after/before {_r(ratio)} (of the minima {_r(low_ratio)})",
            file=out,
            flush=True,
        )
    total = time.perf_counter() - t_start
    print(
        f"{len(ws)} workloads, {a.rounds} rounds x {a.repeats} runs, {total:.0f} s; "
        f"worst after/before {worst:.3f}",
        file=out,
        flush=True,
    )
    if not a.no_save:
        name = "+".join(a.workloads) if len(a.workloads) <= 3 else f"{len(ws)}-workloads"
        table = [
            "| workload | before | after | after / before | of the minima |",
            "|---|---|---|---|---|",
        ]
        for row in rows:
            table.append(
                f"| {row['workload']} | {_s(row['median_before'])} | "
                f"{_s(row['median_after'])} | {_r(row['after_over_before'])} | "
                f"{_r(row['min_after_over_before'])} |"
            )
        rec = {
            "workload": name,
            "help": "before / after",
            "params": a.param,
            "seed": a.seed,
            "repeats": a.repeats,
            "rounds": a.rounds,
            "rows": rows,
            "total_seconds": total,
            "date": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
            "table": "; ".join(f"{k} {v['path']} ({v['commit']})" for k, v in mach["trees"].items())
            + "; "
            f"medians of {a.rounds} interleaved rounds x {a.repeats} runs, "
            f"{total:.0f} s in all\n\n" + "\n".join(table),
        }
        j, m = write_results(rec, mach, a.out, kind="compare")
        print(f"results: {j} and {m.name}", file=out, flush=True)
    return 1 if any(r["errors"] for r in rows) else 0


def _r(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _s(t: float | None) -> str:
    return "-" if t is None else f"{t:.3f} s"
