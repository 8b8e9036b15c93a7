"""Z/nZ benchmarks (issue 4) at modest sizes: prime fields GF(3), GF(5) against
galois and python-flint; rings Z/4, Z/6, Z/8 against modlights' reference engine
(no peer does rings: flint aborts the process, galois.GF(4)/GF(8) are other rings
and GF(6) does not exist; compare.py records those failures in subprocesses).

    pytest bench/test_bench_zn.py --benchmark-only --benchmark-group-by=group
"""
import numpy as np
import pytest

import modlights as ml
from conftest import bench_modlights, check_dense, check_grid, flint_solve, galois_solve

CROSS_K = [8, 16]
DENSE_N = [200, 400]
RING_K = [8, 16]


@pytest.mark.parametrize("k", CROSS_K)
@pytest.mark.parametrize("p", [3, 5])
@pytest.mark.parametrize("who", ["modlights", "galois", "flint"])
def test_field_cross_factor_solve(benchmark, rng, who, p, k):
    benchmark.group = f"GF({p}) cross {k}x{k} factor+solve"
    board = ml.Board.grid(k, k, p)
    state = board.random_state(rng=rng)
    if who == "modlights":
        sol = bench_modlights(benchmark, board, lambda s: s.solve(state, minimal=False))
        check_grid(board, state, sol.taps)
        return
    A = board.matrix()
    Ab = np.hstack([A, ((-state.reshape(-1, 1).astype(np.int64)) % p).astype(np.uint8)])
    if who == "galois":
        galois = pytest.importorskip("galois")
        X, ok = galois_solve(benchmark, galois.GF(p)(Ab), A.shape[1], p)
    else:
        flint = pytest.importorskip("flint")
        X, ok = flint_solve(benchmark, flint.nmod_mat(Ab.tolist(), p), A.shape[1], p)
    assert ok
    check_grid(board, state, X)


@pytest.mark.parametrize("N", DENSE_N)
@pytest.mark.parametrize("who", ["modlights", "galois", "flint"])
def test_gf3_dense_factor_solve(benchmark, rng, who, N):
    benchmark.group = f"GF(3) dense {N}x{N} factor+solve"
    A = rng.integers(0, 3, size=(N, N), dtype=np.uint8)
    b = (A.astype(np.int64) @ rng.integers(0, 3, size=N)) % 3
    B = b.reshape(-1, 1)
    if who == "modlights":
        board = ml.Board.from_matrix(A, 3)
        state = (-b) % 3
        sol = bench_modlights(benchmark, board, lambda s: s.solve(state, minimal=False))
        X = np.asarray(sol.taps).reshape(-1, 1)
    elif who == "galois":
        galois = pytest.importorskip("galois")
        X, ok = galois_solve(benchmark, galois.GF(3)(np.hstack([A, B.astype(np.uint8)])), N, 3)
        assert ok
    else:
        flint = pytest.importorskip("flint")
        X, ok = flint_solve(benchmark, flint.nmod_mat(np.hstack([A, B]).tolist(), 3), N, 3)
        assert ok
    check_dense(A, B, X, 3)


@pytest.mark.parametrize("k", RING_K)
@pytest.mark.parametrize("n", [4, 6, 8])
@pytest.mark.parametrize("backend", ["native", "reference"])
def test_ring_cross_factor_solve(benchmark, rng, backend, n, k):
    benchmark.group = f"Z/{n} cross {k}x{k} factor+solve"
    board = ml.Board.grid(k, k, n)
    state = board.random_state(rng=rng)
    sol = benchmark(lambda: ml.Solver(board, backend=backend).solve(state, minimal=False))
    benchmark.extra_info["engine"] = ml.Solver(board, backend=backend).engine
    check_grid(board, state, sol.taps)
