"""Certificates for the checker's tests (tests/search/test_verify*.py): random tiny boards
the brute-force oracle covers, kernels from the reference engine, minimal-claim
certificates built by hand, and the rejection check."""

import numpy as np
import pytest

import modlights as ml
from modlights.search import verify as V


# ------------------------------------------------------------------ boards
def random_board(rng: np.random.Generator, max_brute: int = 4000) -> ml.Board:
    """A small board: a grid (named or custom pattern, locks, holes, wrap) or a graph
    board, n in 2..6 (and 8, 9: prime powers), n^taps <= max_brute."""
    n = int(rng.choice([2, 2, 3, 4, 5, 6, 8, 9]))
    if rng.random() < 0.25:
        m = int(rng.integers(1, 7))
        r = 1
        while n ** (r + 1) <= max_brute and r < 7:
            r += 1
        r = int(rng.integers(1, r + 1))
        effects = [list(rng.integers(0, m, size=int(rng.integers(0, 4)))) for _ in range(r)]
        return ml.Board.from_effects([[int(c) for c in e] for e in effects], n, n_cells=m)
    rows, cols = int(rng.integers(1, 5)), int(rng.integers(2, 5))
    pattern = str(rng.choice(["cross", "cross", "square", "diagonal", "knight", "horizontal"]))
    if rng.random() < 0.2:
        pattern = [(int(a), int(b)) for a, b in rng.integers(-1, 2, size=(3, 2))]
    kinds = rng.choice(["t", "t", "t", "l", "h"], size=(rows, cols))
    locked, holes = kinds == "l", kinds == "h"
    for idx in rng.permutation(rows * cols):
        if n ** int((~locked & ~holes).sum()) <= max_brute:
            break
        r_, c_ = divmod(int(idx), cols)
        if not holes[r_, c_]:
            locked[r_, c_] = True
    return ml.Board.grid(
        rows,
        cols,
        states=n,
        pattern=pattern,
        locked=locked,
        holes=holes,
        wrap=bool(rng.random() < 0.3),
    )


BOARDS = [random_board(np.random.default_rng(s)) for s in range(34)] + [
    # kernels for n = 3, 4, 6, 9 with entries that are not units
    ml.Board.from_effects([[0], [0], [1, 2], [1, 2], [2], [0, 1]], 3, n_cells=3),
    ml.Board.from_effects([[0, 0], [1], [0, 1, 1], [2, 2], [2]], 4, n_cells=3),
    ml.Board.from_effects([[0, 0, 0], [0, 0], [1], [1, 1, 1, 1]], 6, n_cells=2),
    ml.Board.from_effects([[0, 0, 0], [1, 1, 1], [0, 1]], 9, n_cells=2),
    ml.Board.grid(2, 3, states=3, pattern="square"),
    ml.Board.grid(1, 5, states=4, pattern=[(0, -1), (0, 1)], wrap=True),
]


def kernel_of(board: ml.Board) -> tuple[np.ndarray, list[int]]:
    s = ml.Solver(board)
    return s.kernel(), s.kernel_orders


def minimal_cert(board: ml.Board, x, proof=None, H=None, orders=None) -> dict:
    """A "minimal" certificate for taps x (the claim: no solution of A y = A x is
    shorter than sum(x)), with the Solver's kernel unless given."""
    if H is None:
        H, orders = kernel_of(board)
    A = board.matrix().astype(np.int64)
    x = np.asarray(x, dtype=np.int64)
    return {
        "format": "modlights-certificate",
        "version": 1,
        "kind": "minimal",
        "board": board.to_dict(),
        "kernel": {"generators": np.asarray(H).tolist(), "orders": [int(o) for o in orders]},
        "rhs": ((A @ x) % board.states).tolist(),
        "taps": x.tolist(),
        "length": int(x.sum()),
        "proof": proof or {"method": "enumeration"},
    }


def rejects(cert, *words):
    """verify(cert) raises ValueError whose message contains every word."""
    with pytest.raises(ValueError) as e:
        V.verify(cert)
    for w in words:
        assert w in str(e.value), str(e.value)
    return str(e.value)
