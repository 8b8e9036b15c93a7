"""Shared fixtures for the pytest-benchmark suites in bench/ (not collected by the
default test run, whose testpaths is ["tests"]). Run them explicitly:
    pytest bench/test_bench_gf2.py bench/test_bench_zn.py --benchmark-only
"""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compare import rref_solution  # noqa: E402


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)


def galois_solve(benchmark, M, N, n):
    """Time row_reduce of [A|B] (a galois array); read X off it untimed.
    Returns (X, consistent)."""
    R = benchmark(M.row_reduce)
    return rref_solution(R.view(np.ndarray), N, n)


def flint_solve(benchmark, M, N, n):
    """Time nmod_mat.rref of [A|B]; read X off it untimed. Returns (X, consistent)."""
    R, _rank = benchmark(M.rref)
    return rref_solution(np.array([[int(v) for v in row] for row in R.tolist()]), N, n)


def bench_modlights(benchmark, board, call):
    """Time call(Solver(board)) (a fresh Solver each round, so factoring is timed) and
    record the engine that ran; returns call's result."""
    import modlights as ml
    out = benchmark(lambda: call(ml.Solver(board)))
    benchmark.extra_info["engine"] = ml.Solver(board).engine
    return out


def check_grid(board, state, x):
    after = board.apply(state, np.asarray(x).reshape(board.shape))
    assert not (np.asarray(after) % board.states).any(), "state + A x != 0"


def check_dense(A, B, X, n):
    assert not ((A.astype(np.int64) @ np.asarray(X, dtype=np.int64) - B) % n).any(), "A X != B"
