"""Scaling runs for the report's figures (bench/report.py): one board family at one size
per run, every peer that can take that size timed in the same run.

* ``scaling-cross``: the k x k GF(2) cross board from a random solvable start, factor +
  solve. Peers: a plain light-chasing solver in C++ (``bench/lightchase_bench.cpp``,
  compiled on first use, self-timed), M4RI on the dense tap matrix (the harness builds
  it, k <= 128), galois and python-flint on the dense system (k <= 48: past that they
  take minutes). Sweep k with ``--param size=K``.
* ``minimal-rate``: a proved minimal solution over a coset of nullity d (a random graph
  board, m cells, m + d taps), searched to the end; the report divides the coset's size
  by the median time. Sweep d with ``--param nullity=D`` (and ``--param states=3``).

Every answer is checked outside the timing (the taps clear the board; the minimal
solutions are proved).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np

from ..peers import (
    CACHE,
    flint_peer,
    flint_solve,
    galois_peer,
    galois_solve,
    m4ri_peer,
    read_mlbm,
    write_mlbm,
)
from ..registry import Context, Missing, Subject, Timed, workload

HERE = Path(__file__).resolve().parent.parent


def chase_peer() -> Path | Missing:
    """The compiled light-chasing harness (bench/lightchase_bench.cpp), or Missing."""
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if not cxx:
        return Missing("no C++ compiler (c++) to build bench/lightchase_bench.cpp")
    src = HERE / "lightchase_bench.cpp"
    exe = CACHE / "lightchase_bench"
    CACHE.mkdir(parents=True, exist_ok=True)
    if not exe.exists() or exe.stat().st_mtime < src.stat().st_mtime:
        p = subprocess.run(
            [cxx, "-O2", "-march=native", "-o", str(exe), str(src)], capture_output=True, text=True
        )
        if p.returncode != 0:
            return Missing(f"bench/lightchase_bench.cpp did not compile: {p.stderr.strip()[-300:]}")
    return exe


def _self_timed(cmd: list[str], x_bin: Path) -> Timed:
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(
            f"{Path(cmd[0]).name} exit {p.returncode}: {(p.stderr or p.stdout).strip()[-300:]}"
        )
    kv = dict(line.split(" ", 1) for line in p.stdout.strip().splitlines())
    return Timed(float(kv["median"]), read_mlbm(x_bin))


@workload(
    "scaling-cross",
    help="GF(2) k x k cross from a random solvable start, factor + "
    "solve, against a C++ light chaser, M4RI (k <= 128), galois and python-flint "
    "(k <= 48) in the same run (--param size=K)",
    peers=("chase-cpp", "m4ri", "galois", "flint"),
    groups=("scaling",),
    params={"size": 32},
    repeats=3,
)
def scaling_cross(ctx: Context):
    import modlights as ml

    k = ctx["size"]
    if not 2 <= k <= 20000:
        raise ValueError(f"size is 2..20000, got {k}")
    board = ml.Board.grid(k, k)
    state = np.asarray(board.random_state(rng=ctx.seed), np.uint8)

    def check(x):
        x = np.asarray(x, np.uint8).reshape(k, k)
        assert not np.asarray(board.apply(state, x)).any(), "the taps do not clear the board"

    out = {
        "modlights": Subject(
            lambda: ml.Solver(ml.Board.grid(k, k)).solve(state, minimal=False).taps, check
        )
    }
    chase = chase_peer()
    if isinstance(chase, Missing):
        out["chase-cpp"] = chase
    else:
        s_bin, x_bin = ctx.workdir / "S.bin", ctx.workdir / "X-chase.bin"
        write_mlbm(s_bin, state)
        out["chase-cpp"] = Subject(
            lambda: _self_timed([str(chase), str(s_bin), "1", str(x_bin)], x_bin),
            check,
            "self-timed",
        )
    m4 = m4ri_peer()
    if isinstance(m4, Missing):
        out["m4ri"] = m4
    elif k > 128:
        out["m4ri"] = Missing("M4RI on the dense tap matrix is timed up to k = 128")
    else:
        b_bin, x_bin = ctx.workdir / "B.bin", ctx.workdir / "X-m4ri.bin"
        write_mlbm(b_bin, state.reshape(-1, 1))  # A x = s: the same taps clear s mod 2
        out["m4ri"] = Subject(
            lambda: _self_timed(
                [str(m4), "solve-cross", str(k), str(b_bin), "1", str(x_bin)], x_bin
            ),
            check,
            "self-timed",
        )
    A = B = None
    for name, peer, solve in (
        ("galois", galois_peer(), galois_solve),
        ("flint", flint_peer(), flint_solve),
    ):
        if isinstance(peer, Missing):
            out[name] = peer
        elif k > 48:
            out[name] = Missing(f"{name} on the dense system is timed up to k = 48")
        else:
            if A is None:
                A = np.asarray(board.matrix(), np.uint8)
                B = state.reshape(-1, 1).astype(np.uint8)
            out[name] = solve(peer, A, B, 2, check)
    return out


@workload(
    "minimal-rate",
    help="proved minimal solution over a coset of nullity d (graph "
    "board: m cells, m + d taps, 5 cells a tap), searched to the end (--param "
    "nullity=D, states=N); the kernel size as a figure",
    groups=("scaling",),
    params={"nullity": 16, "states": 2, "cells": 64},
    repeats=3,
)
def minimal_rate(ctx: Context):
    import modlights as ml

    d, n, m = ctx["nullity"], ctx["states"], ctx["cells"]
    if not 0 <= d <= 40 or m < 8:
        raise ValueError(f"nullity is 0..40 and cells >= 8, got {d}, {m}")
    rng = np.random.default_rng(ctx.seed + d)
    effects = [rng.choice(m, size=5, replace=False).tolist() for _ in range(m + d)]
    board = ml.Board.from_effects(effects, n, n_cells=m)
    solver = ml.Solver(board)
    state = board.random_state(rng=np.random.default_rng(ctx.seed + 1))
    ctx.figure("nullity", int(solver.nullity))
    ctx.figure("kernel_size", int(solver.kernel_size), "elements", "coset searched")

    def check(sol):
        assert sol.proven_minimal, "not proved minimal"
        assert not np.asarray(board.apply(state, sol.taps)).any(), "does not clear the board"
        ctx.figure("min_taps", int(sol.length))

    return {"modlights": Subject(lambda: ml.Solver(board).solve(state, budget=1 << 48), check)}
