"""GF(2) benchmarks (issue 3) at modest sizes: modlights against galois and
python-flint on the workloads of compare.py. Peers are skipped when not installed.
M4RI is only in compare.py (through its C harness).

    pytest bench/test_bench_gf2.py --benchmark-only --benchmark-group-by=group
"""
import numpy as np
import pytest

import modlights as ml
from conftest import bench_modlights, check_dense, check_grid, flint_solve, galois_solve

RANK_N = [256, 512]
CROSS_K = [16, 24]
MANY_K = 10_000


# ---------------------------------------------------------------- (a) rank of dense N x N
@pytest.mark.parametrize("N", RANK_N)
@pytest.mark.parametrize("who", ["modlights", "galois", "flint"])
def test_rank_dense(benchmark, rng, who, N):
    benchmark.group = f"gf2 rank dense {N}"
    A = rng.integers(0, 2, size=(N, N), dtype=np.uint8)
    if who == "modlights":
        board = ml.Board.from_matrix(A, 2)
        r = bench_modlights(benchmark, board, lambda s: s.rank)
    elif who == "galois":
        galois = pytest.importorskip("galois")
        GA = galois.GF(2)(A)
        r = benchmark(np.linalg.matrix_rank, GA)
    else:
        flint = pytest.importorskip("flint")
        M = flint.nmod_mat(A.tolist(), 2)
        r = benchmark(M.rank)
    assert int(r) == int(ml.Solver(ml.Board.from_matrix(A, 2), backend="reference").rank)


# ---------------------------------------------------------------- (b) factor + solve cross board
@pytest.mark.parametrize("k", CROSS_K)
@pytest.mark.parametrize("who", ["modlights", "galois", "flint"])
def test_cross_factor_solve(benchmark, rng, who, k):
    benchmark.group = f"gf2 cross {k}x{k} factor+solve"
    board = ml.Board.grid(k, k, 2)
    state = board.random_state(rng=rng)
    if who == "modlights":
        sol = bench_modlights(benchmark, board, lambda s: s.solve(state, minimal=False))
        check_grid(board, state, sol.taps)
        return
    A = board.matrix()
    b = ((-state.reshape(-1, 1).astype(np.int64)) % 2).astype(np.uint8)
    Ab = np.hstack([A, b])
    if who == "galois":
        galois = pytest.importorskip("galois")
        M = galois.GF(2)(Ab)
        X, ok = galois_solve(benchmark, M, A.shape[1], 2)
    else:
        flint = pytest.importorskip("flint")
        M = flint.nmod_mat(Ab.tolist(), 2)
        X, ok = flint_solve(benchmark, M, A.shape[1], 2)
    assert ok
    check_grid(board, state, X)


# ---------------------------------------------------------------- (c) solve_many 5 x 5
@pytest.mark.parametrize("who", ["modlights", "galois", "flint"])
def test_solve_many_5x5(benchmark, rng, who):
    benchmark.group = f"gf2 solve_many {MANY_K} x 5x5"
    board = ml.Board.grid(5, 5, 2)
    states = np.stack([board.random_state(rng=rng) for _ in range(MANY_K)])
    A = board.matrix()
    B = ((-states.reshape(MANY_K, -1).astype(np.int64)) % 2).T.astype(np.uint8)
    if who == "modlights":
        xs = bench_modlights(benchmark, board, lambda s: s.solve_many(states, minimal=False))
        X = np.asarray(xs).reshape(MANY_K, -1).T
    elif who == "galois":
        galois = pytest.importorskip("galois")
        M = galois.GF(2)(np.hstack([A, B]))
        X, ok = galois_solve(benchmark, M, 25, 2)
        assert ok
    else:
        flint = pytest.importorskip("flint")
        M = flint.nmod_mat(np.hstack([A, B]).tolist(), 2)
        X, ok = flint_solve(benchmark, M, 25, 2)
        assert ok
    check_dense(A, B, X, 2)
    benchmark.extra_info["boards_per_s"] = MANY_K / benchmark.stats.stats.median
