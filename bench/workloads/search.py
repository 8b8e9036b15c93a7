"""Fewest-taps search: one hard board, and many small boards at once.

Public API only (Board.grid, Solver, solve(minimal=True), solve_many, min_taps), so the
same workload runs on any tree. Answers are checked outside the timing: every solution
clears its board, and the reported fewest taps equals the number of taps of the
solution the library returns (and, for the batch, the brute force over the coset on a
sample).
"""
from __future__ import annotations

import itertools

import numpy as np

from ..registry import Context, Subject, workload


@workload("minimal-39", help="GF(2) cross 39 x 39: Solver + solve(minimal=True) of a random "
          "solvable start (kernel 2^32, the default budget)", groups=("issue22",),
          params={"size": 39}, repeats=5)
def minimal_39(ctx: Context):
    import modlights as ml
    k = ctx["size"]
    board = ml.Board.grid(k, k)
    rng = np.random.default_rng(ctx.seed)
    start = np.asarray(board.apply(np.zeros((k, k), np.uint8),
                                   rng.integers(0, 2, (k, k), dtype=np.uint8)), np.uint8)

    def run():
        return ml.Solver(board).solve(start)

    def check(sol):
        assert not np.asarray(board.apply(start, sol.taps)).any(), "does not clear the board"

    return {"modlights": Subject(run, check)}


@workload("batch-5x5", help="GF(2) cross 5 x 5: solve_many(minimal=True) of 2^17 random "
          "solvable boards", groups=("issue22",), params={"boards": 1 << 17}, repeats=5)
def batch_5x5(ctx: Context):
    import modlights as ml
    board = ml.Board.grid(5, 5)
    solver = ml.Solver(board)
    rng = np.random.default_rng(ctx.seed)
    X = rng.integers(0, 2, (ctx["boards"], 25), dtype=np.uint8)
    A = board.matrix().astype(np.int64)
    S = ((X.astype(np.int64) @ A.T) % 2).astype(np.uint8).reshape(-1, 5, 5)
    kernel = _kernel_gf2(A)

    def check(taps):
        taps = np.asarray(taps, np.int64).reshape(len(S), 25)
        assert not ((taps @ A.T + S.reshape(len(S), 25)) % 2).any(), "an answer is wrong"
        for i in range(0, len(S), max(1, len(S) // 64)):     # fewest taps: brute force
            best = min(int(((taps[i] + kvec) % 2).sum()) for kvec in kernel)
            assert taps[i].sum() == best, f"board {i}: {taps[i].sum()} taps, fewest {best}"

    return {"modlights": Subject(lambda: solver.solve_many(S, minimal=True), check)}


def _kernel_gf2(A: np.ndarray) -> list[np.ndarray]:
    """Every x with A x = 0 over GF(2), by elimination (small A only)."""
    M = A.copy() % 2
    rows, cols = M.shape
    pivots = []
    r = 0
    for c in range(cols):
        p = next((i for i in range(r, rows) if M[i, c]), None)
        if p is None:
            continue
        M[[r, p]] = M[[p, r]]
        for i in range(rows):
            if i != r and M[i, c]:
                M[i] ^= M[r]
        pivots.append(c)
        r += 1
    free = [c for c in range(cols) if c not in pivots]
    basis = []
    for f in free:
        x = np.zeros(cols, np.int64)
        x[f] = 1
        for i, pc in enumerate(pivots):
            x[pc] = M[i, f]
        basis.append(x)
    return [sum((c * v for c, v in zip(coeffs, basis)), np.zeros(cols, np.int64)) % 2
            for coeffs in itertools.product((0, 1), repeat=len(basis))]
