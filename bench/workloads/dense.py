"""Dense random systems: Board.from_matrix(A, n) + Solver(method="dense") + solve.

A is N x N uniform random, b = A x0 for random x0 (consistent by construction); every
answer is checked (A x + b = 0, Solver's convention) outside the timing. Peers solve
the same A, b: M4RI's mzd_solve_left (its harness times the call itself), python-flint's
nmod_mat rref of [A | b] (flint's solve refuses singular systems), galois's row_reduce.
"""

from __future__ import annotations

import numpy as np

from ..peers import (
    flint_peer,
    flint_solve,
    galois_peer,
    galois_solve,
    m4ri_peer,
    m4ri_solve,
    write_mlbm,
)
from ..registry import Context, Missing, Subject, workload


def _system(ctx: Context, n: int):
    N = ctx["size"]
    rng = np.random.default_rng(ctx.seed)
    A = rng.integers(0, n, (N, N), dtype=np.uint8)
    x0 = rng.integers(0, n, N).astype(np.int64)
    b = ((A.astype(np.int64) @ x0) % n).astype(np.uint8)
    return A, b


def _check_ml(A: np.ndarray, b: np.ndarray, n: int):
    def check(sol):
        x = np.asarray(sol.taps, np.int64).reshape(-1)
        assert not ((A.astype(np.int64) @ x + b) % n).any(), "A x + b != 0"

    return check


def _check_peer(A: np.ndarray, b: np.ndarray, n: int):
    def check(x):
        x = np.asarray(x, np.int64).reshape(-1)
        assert not ((A.astype(np.int64) @ x - b) % n).any(), "A x != b"

    return check


def _modlights(A, b, n):
    import modlights as ml

    return Subject(
        lambda: ml.Solver(ml.Board.from_matrix(A, n), method="dense").solve(b, minimal=False),
        _check_ml(A, b, n),
        label="method=dense",
    )


@workload(
    "dense-gf2-4096",
    help="dense random GF(2) 4096 x 4096 factor + solve vs M4RI",
    peers=("m4ri",),
    groups=("issue22",),
    params={"size": 4096},
    repeats=5,
)
def dense_gf2(ctx: Context):
    A, b = _system(ctx, 2)
    out = {"modlights": _modlights(A, b, 2)}
    exe = m4ri_peer()
    if isinstance(exe, Missing):
        out["m4ri"] = exe
    else:
        a_bin, b_bin, x_bin = (ctx.workdir / f for f in ("A.bin", "b.bin", "X.bin"))
        write_mlbm(a_bin, A)
        write_mlbm(b_bin, b[:, None])
        out["m4ri"] = Subject(
            lambda: m4ri_solve(exe, a_bin, b_bin, x_bin),
            _check_peer(A, b, 2),
            label="mzd_solve_left, self-timed",
        )
    return out


@workload(
    "dense-gf3-2000",
    help="dense random GF(3) 2000 x 2000 factor + solve vs python-flint",
    peers=("flint", "galois"),
    groups=("issue22",),
    params={"size": 2000},
    repeats=3,
)
def dense_gf3(ctx: Context):
    A, b = _system(ctx, 3)
    out = {"modlights": _modlights(A, b, 3)}
    fl = flint_peer()
    check = _check_peer(A, b, 3)
    out["flint"] = fl if isinstance(fl, Missing) else flint_solve(fl, A, b[:, None], 3, check)
    if ctx["size"] > 1000:
        out["galois"] = Missing("galois row_reduce is timed up to size 1000 (minutes here)")
    else:
        ga = galois_peer()
        out["galois"] = ga if isinstance(ga, Missing) else galois_solve(ga, A, b[:, None], 3, check)
    return out
