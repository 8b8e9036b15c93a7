"""The issue's JavaScript targets, node and Python in one run (ratios), written to
bench/results/<date>-js-wasm.md.

    PYTHONPATH=src python js/bench/bench.py [--rounds 5] [--out bench/results/2026-11-27-js-wasm.md]

The same work on both sides, the same starts (made here, handed to node in a file):
5 x 5 GF(2) minimal solves (``Solver.solve`` one state at a time, a batch of 10,000
solvable starts, milliseconds a solve), and Solver creation + one minimal solve of the
1000 x 1000 GF(2) and 200 x 200 Z/4 cross boards from a random solvable start. Medians of
``--rounds`` rounds; the lengths must agree (they are compared, not only timed).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import modlights as ml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default=os.path.join(
        ROOT, "bench", "results", f"{datetime.date.today().isoformat()}-js-wasm.md"))
    a = ap.parse_args()
    rng = np.random.default_rng(2026)
    b5 = ml.Board.grid(5, 5)
    batch = [b5.apply(np.zeros((5, 5), dtype=np.int64), rng.integers(0, 2, (5, 5)))
             for _ in range(10000)]
    big = {}
    for N, n in [(1000, 2), (200, 4)]:
        b = ml.Board.grid(N, N, states=n)
        big[f"{N}x{N}-{n}"] = b.apply(np.zeros((N, N), dtype=np.uint8),
                                      rng.integers(0, n, (N, N)).astype(np.uint8))
    res: dict = {}
    chase: dict = {}
    s5 = ml.Solver(b5)
    per, total = [], 0
    for _ in range(a.rounds):
        t0 = time.perf_counter()
        total = sum(s5.solve(st).length for st in batch)
        per.append((time.perf_counter() - t0) / len(batch) * 1000)
    res["5x5-gf2-minimal-ms-per-solve"] = statistics.median(per)
    res["5x5-gf2-minimal-total-length"] = total
    for key, start in big.items():
        N, n = int(key.split("x")[0]), int(key.split("-")[1])
        times = []
        for _ in range(a.rounds):
            t0 = time.perf_counter()
            sol = ml.Solver(ml.Board.grid(N, N, states=n)).solve(start)
            times.append(time.perf_counter() - t0)
        res[f"{key}-cross-seconds"] = statistics.median(times)
        res[f"{key}-cross-length"] = int(sol.length)
        res[f"{key}-cross-proven"] = bool(sol.proven_minimal)
        res[f"{key}-cross-engine"] = ml.Solver(ml.Board.grid(N, N, states=n)).engine
        times = []
        for _ in range(a.rounds):          # the wasm's algorithm: the light chase
            t0 = time.perf_counter()
            ml.Solver(ml.Board.grid(N, N, states=n), method="chase").solve(start)
            times.append(time.perf_counter() - t0)
        chase[key] = statistics.median(times)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"batch": [s.tolist() for s in batch],
                   "big": {k: v.reshape(-1).tolist() for k, v in big.items()}}, f)
        path = f.name
    try:
        proc = subprocess.run(["node", "--experimental-default-type=module",
                               os.path.join(HERE, "bench.mjs"), "--states", path,
                               "--rounds", str(a.rounds)],
                              capture_output=True, text=True, check=True, cwd=ROOT)
    finally:
        os.unlink(path)
    js = json.loads(proc.stdout)
    rows = []
    for key, what, unit, target in [
            ("5x5-gf2-minimal-ms-per-solve", "5 x 5 GF(2) minimal solve (batch of 10,000)", "ms a solve", "< 0.1 ms"),
            ("1000x1000-2-cross-seconds", "1000 x 1000 GF(2) cross, random start (Solver + solve)", "s", "< 1 s"),
            ("200x200-4-cross-seconds", "200 x 200 Z/4 cross, random start (Solver + solve)", "s", "< 1 s")]:
        k = key.replace("-cross-seconds", "")
        ch = f"{chase[k]:.4g} s ({js[key] / chase[k]:.2f})" if k in chase else "-"
        eng = res.get(f"{k}-cross-engine", "dense-gf2")
        rows.append(f"| {what} | {js[key]:.4g} {unit} | {res[key]:.4g} {unit} ({eng}) | "
                    f"{js[key] / res[key]:.2f} | {ch} | {target} |")
    same = all(js[k] == res[k] for k in res
               if not k.endswith(("seconds", "per-solve", "engine")))
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True, cwd=ROOT).stdout.strip()
    text = "\n".join([
        f"# JavaScript / WebAssembly against Python ({datetime.date.today().isoformat()})",
        "",
        f"`PYTHONPATH=src python js/bench/bench.py --rounds {a.rounds}` (js/bench/bench.mjs in "
        f"node {js['node']}, Python {platform.python_version()} with modlights "
        f"{ml.__version__}), commit {git}, medians of {a.rounds} rounds, one run, the same "
        "starts on both sides; lengths and proofs equal: "
        f"{'yes' if same else 'NO'}.",
        "",
        "| work | node (wasm) | Python (native, auto engine) | node / Python | Python "
        "method='chase' (node / it) | target |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"The .wasm: {js['wasm-bytes']} bytes, {js['wasm-gzip-bytes']} gzipped (gzip -9; "
        "target < 1 MB).",
        "",
        "Machine: " + platform.platform() + f", {os.cpu_count()} CPUs (shared; load "
        f"{os.getloadavg()[0]:.1f} at the end).",
        "",
        "```json",
        json.dumps({"node": js, "python": res, "python-chase-seconds": chase}, indent=1,
                   sort_keys=True),
        "```",
        ""])
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
