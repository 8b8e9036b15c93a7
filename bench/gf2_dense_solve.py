"""Dense random GF(2) factor + solve (issue 15): modlights against M4RI's mzd_solve_left.

For N x N random A and one solvable right-hand side b = A x, per round and in rotated
order (the machine is shared: medians of interleaved rounds, ratios within the run):

  m4ri           bench/m4ri_bench.c `solve` (mzd_solve_left): median of 3 calls
  matrix         Board.from_matrix(A, 2) + Solver(...) + solve(b, minimal=False)
  effects        Solver(board) + solve(b, minimal=False), the board made beforehand
                 by Board.from_effects (tap j: the cells of column j, as lists)
  effects-board  Board.from_effects(...) alone (Python lists in, as a user would)

Each modlights timing is the median of 3 calls in a fresh process of the
interpreter given, the same treatment as M4RI's harness (so the
installs before and after a change can be compared in one run)::

    python bench/gf2_dense_solve.py --sizes 4096 8192 --rounds 5 \
        --python after=/work/venvs/dense/bin/python --python before=/work/venvs/main/bin/python

Needs libm4ri-dev for the M4RI column (compiled like compare.py does).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import build_m4ri, write_mlbm  # noqa: E402

ROUTES = ("matrix", "effects", "effects-board")


def one(route: str, a_path: str, b_path: str) -> float:
    """Median seconds of three calls of one route in this process (the worker side;
    M4RI's harness likewise takes the median of three calls in its process)."""
    return statistics.median(one_call(route, a_path, b_path) for _ in range(3))


def one_call(route: str, a_path: str, b_path: str) -> float:
    """Seconds for one call of a route."""
    import modlights as ml
    A = np.load(a_path)
    b = np.load(b_path)
    N = A.shape[1]
    if route == "matrix":
        t0 = time.perf_counter()
        sol = ml.Solver(ml.Board.from_matrix(A, 2), method="dense").solve(b, minimal=False)
        t = time.perf_counter() - t0
    else:
        eff = [np.flatnonzero(A[:, j]).tolist() for j in range(N)]
        t0 = time.perf_counter()
        board = ml.Board.from_effects(eff, 2, n_cells=A.shape[0])
        t = time.perf_counter() - t0
        if route == "effects":
            t0 = time.perf_counter()
            sol = ml.Solver(board, method="dense").solve(b, minimal=False)
            t = time.perf_counter() - t0
        else:
            return t
    x = np.asarray(sol.taps, dtype=np.int64).reshape(-1)
    assert not ((A.astype(np.int64) @ x + b) % 2).any(), "wrong solution"
    return t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[4096, 8192])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--python", action="append", default=None,
                    help="NAME=INTERPRETER (repeatable; default: this one)")
    ap.add_argument("--routes", nargs="+", default=list(ROUTES), choices=ROUTES)
    ap.add_argument("--one", nargs=3, metavar=("ROUTE", "A", "B"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(*args.one)))
        return 0
    pythons = dict(p.split("=", 1) for p in (args.python or [f"modlights={sys.executable}"]))
    work = tempfile.mkdtemp(prefix="gf2-dense-")
    exe, msg = build_m4ri(os.path.join(tempfile.gettempdir(), "modlights-bench-build"))
    print(msg)
    rng = np.random.default_rng(2026)
    for N in args.sizes:
        A = (rng.random((N, N)) < 0.5).astype(np.uint8)
        x = (rng.random(N) < 0.5).astype(np.int64)
        b = (A.astype(np.int64) @ x % 2).astype(np.uint8)
        paths = {k: os.path.join(work, f"{k}{N}") for k in ("A", "b")}
        np.save(paths["A"] + ".npy", A)
        np.save(paths["b"] + ".npy", b)
        write_mlbm(paths["A"] + ".bin", A)
        write_mlbm(paths["b"] + ".bin", b[:, None])
        jobs = [("m4ri", None, None)] if exe else []
        jobs += [(f"{name} {route}", py, route) for name, py in pythons.items()
                 for route in args.routes]
        times: dict[str, list[float]] = {j[0]: [] for j in jobs}
        for rnd in range(args.rounds):
            for label, py, route in jobs[rnd % len(jobs):] + jobs[:rnd % len(jobs)]:
                if py is None:
                    p = subprocess.run([exe, "solve", paths["A"] + ".bin", paths["b"] + ".bin",
                                        "3", os.path.join(work, "X.bin")],
                                       capture_output=True, text=True, check=True)
                    kv = dict(l.split(" ", 1) for l in p.stdout.strip().splitlines())
                    times[label].append(float(kv["median"]))
                else:
                    p = subprocess.run([py, __file__, "--one", route, paths["A"] + ".npy",
                                        paths["b"] + ".npy"], capture_output=True, text=True)
                    if p.returncode:
                        raise SystemExit(f"{label}: {p.stderr.strip()[-500:]}")
                    times[label].append(json.loads(p.stdout))
        ref = statistics.median(times["m4ri"]) if "m4ri" in times else None
        print(f"N = {N}, {args.rounds} interleaved rounds, medians:")
        for label, ts in times.items():
            med = statistics.median(ts)
            ratio = f"  {med / ref:5.2f}x M4RI" if ref else ""
            print(f"  {label:28s} {med * 1e3:9.1f} ms{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
