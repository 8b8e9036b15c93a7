"""modlights against its peers on the same work: rank, factor + solve, many right-hand
sides, and rings (where no peer applies, the reference engine stands in).

Every contender gets the same input, converted to its own type outside the timing; every
answer is checked (A X = B, or the rank against the reference engine). Peers: galois
(GF(p) arrays, row_reduce / matrix_rank), python-flint (nmod_mat rref / rank) and M4RI
(mzd_echelonize / mzd_solve_left through bench/m4ri_bench.c, GF(2) only). galois.GF(4)
and GF(8) are other rings than Z/4 and Z/8, GF(6) does not exist, and flint aborts the
process on a composite modulus: for Z/n with n composite those peers are reported missing.
"""

from __future__ import annotations

import numpy as np

from ..peers import (
    flint_peer,
    flint_solve,
    galois_peer,
    galois_solve,
    m4ri_peer,
    m4ri_rank,
    m4ri_solve,
    write_mlbm,
)
from ..registry import Context, Missing, Subject, workload

PEERS = ("galois", "flint", "m4ri")


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def _peer_mods(n: int) -> dict:
    """The peers that can run over Z/n, or why not."""
    out = {
        "galois": galois_peer(),
        "flint": flint_peer(),
        "m4ri": m4ri_peer() if n == 2 else Missing("M4RI is GF(2) only"),
    }
    if not _is_prime(n):
        why = f"Z/{n} is not a field (galois.GF({n}) is another ring or none; flint aborts)"
        out["galois"] = out["flint"] = Missing(why)
    return out


def _check_solution(A: np.ndarray, B: np.ndarray, n: int):
    def check(X):
        X = np.asarray(X, np.int64).reshape(A.shape[1], -1)
        assert not ((A.astype(np.int64) @ X - B) % n).any(), "A X != B"

    return check


@workload(
    "peers-gf2-rank",
    help="rank of a dense random GF(2) N x N matrix (N = 1024)",
    peers=PEERS,
    groups=("peers",),
    params={"size": 1024},
    repeats=5,
)
def gf2_rank(ctx: Context):
    import modlights as ml
    from modlights.engines.reference import reference_reason

    N = ctx["size"]
    A = np.random.default_rng(ctx.seed).integers(0, 2, (N, N), dtype=np.uint8)
    want = (  # the reference engine takes matrices up to REFERENCE_MAX_WORK (N = 500)
        int(ml.Solver(ml.Board.from_matrix(A, 2), backend="reference").rank)
        if reference_reason(N, N, 2) is None
        else None
    )

    seen: list[int] = []

    def check(r):  # every contender agrees (and the reference if run)
        r = int(r)
        if want is not None:
            assert r == want, f"rank {r}, the reference engine says {want}"
        assert not seen or r == seen[0], f"rank {r}, another contender said {seen[0]}"
        seen.append(r)
        ctx.figure("rank", r)

    peers = _peer_mods(2)
    out = {"modlights": Subject(lambda: ml.Solver(ml.Board.from_matrix(A, 2)).rank, check)}
    g, f, m = peers["galois"], peers["flint"], peers["m4ri"]
    # the peers' matrices are converted once, outside the timed calls
    if isinstance(g, Missing):
        out["galois"] = g
    else:
        GA = g.GF(2)(A)
        out["galois"] = Subject(lambda: np.linalg.matrix_rank(GA), check)
    if isinstance(f, Missing):
        out["flint"] = f
    else:
        M = f.nmod_mat(A.tolist(), 2)
        out["flint"] = Subject(lambda: M.rank(), check)
    if isinstance(m, Missing):
        out["m4ri"] = m
    else:
        a_bin = ctx.workdir / "A.bin"
        write_mlbm(a_bin, A)
        out["m4ri"] = Subject(lambda: m4ri_rank(m, a_bin), check, "self-timed")
    return out


@workload(
    "peers-cross",
    help="factor + solve of the k x k cross board over Z/n from a random "
    "solvable start (k = 32; --param states=3, 5 for GF(p), 4, 6, 8 for rings)",
    peers=PEERS + ("reference",),
    groups=("peers",),
    params={"size": 32, "states": 2},
    repeats=5,
)
def cross(ctx: Context):
    import modlights as ml

    k, n = ctx["size"], ctx["states"]
    board = ml.Board.grid(k, k, states=n)
    state = np.asarray(board.random_state(rng=ctx.seed), np.uint8)
    A = np.asarray(board.matrix(), np.uint8)
    B = (-state.reshape(-1, 1).astype(np.int64)) % n
    check = _check_solution(A, B, n)
    out = {
        "modlights": Subject(
            lambda: ml.Solver(ml.Board.grid(k, k, states=n)).solve(state, minimal=False).taps, check
        ),
        "reference": Subject(
            lambda: (
                ml.Solver(ml.Board.grid(k, k, states=n), backend="reference")
                .solve(state, minimal=False)
                .taps
            ),
            check,
        )
        if k * k <= 256
        else Missing("the reference engine is timed up to 256 tiles"),
    }
    peers = _peer_mods(n)
    g, f, m = peers["galois"], peers["flint"], peers["m4ri"]
    out["galois"] = (
        g if isinstance(g, Missing) else galois_solve(g, A, B.astype(np.uint8), n, check)
    )
    out["flint"] = f if isinstance(f, Missing) else flint_solve(f, A, B.astype(np.uint8), n, check)
    if isinstance(m, Missing):
        out["m4ri"] = m
    else:
        a_bin, b_bin, x_bin = (ctx.workdir / f for f in ("A.bin", "B.bin", "X.bin"))
        write_mlbm(a_bin, A)
        write_mlbm(b_bin, B.astype(np.uint8))
        out["m4ri"] = Subject(lambda: m4ri_solve(m, a_bin, b_bin, x_bin), check, "self-timed")
    return out


@workload(
    "peers-gf2-many",
    help="GF(2) 5 x 5 cross, K = 100000 right-hand sides at once "
    "(solve_many; the peers solve A X = B with K columns)",
    peers=PEERS,
    groups=("peers",),
    params={"boards": 100_000},
    repeats=5,
)
def gf2_many(ctx: Context):
    import modlights as ml

    K = ctx["boards"]
    board = ml.Board.grid(5, 5)
    solver = ml.Solver(board)
    A = np.asarray(board.matrix(), np.uint8)
    X0 = np.random.default_rng(ctx.seed).integers(0, 2, (25, K))
    B = (A.astype(np.int64) @ X0) % 2
    S = ((-B) % 2).T.astype(np.uint8).reshape(K, 5, 5)  # state + A x = 0
    check = _check_solution(A, B, 2)
    solver.solve_many(S[:64])  # factor outside the timing
    out = {"modlights": Subject(lambda: np.asarray(solver.solve_many(S)).reshape(K, 25).T, check)}
    peers = _peer_mods(2)
    g, f, m = peers["galois"], peers["flint"], peers["m4ri"]
    Bu = B.astype(np.uint8)
    out["galois"] = g if isinstance(g, Missing) else galois_solve(g, A, Bu, 2, check)
    out["flint"] = f if isinstance(f, Missing) else flint_solve(f, A, Bu, 2, check)
    if isinstance(m, Missing):
        out["m4ri"] = m
    else:
        a_bin, b_bin, x_bin = (ctx.workdir / f for f in ("A.bin", "B.bin", "X.bin"))
        write_mlbm(a_bin, A)
        write_mlbm(b_bin, Bu)
        out["m4ri"] = Subject(lambda: m4ri_solve(m, a_bin, b_bin, x_bin), check, "self-timed")
    return out
