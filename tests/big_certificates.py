"""Certificates whose check needs far more work than the default bound of
modlights.verify (issue 31): real boards and kernels, true claims, proofs that would
take hours to check."""

from __future__ import annotations

import numpy as np

import modlights as ml


def kernel_board(nullity: int, cells: int, states: int = 2, seed: int = 0) -> ml.Board:
    """A graph board with ``cells`` cells and ``cells + nullity`` taps whose kernel has
    exactly ``nullity`` generators: tap j < cells advances cells j and j + 1 (full
    rank), each further tap three random cells."""
    rng = np.random.default_rng(seed)
    effects = [[j, j + 1] if j + 1 < cells else [j] for j in range(cells)]
    effects += [
        sorted(int(c) for c in rng.choice(cells, size=3, replace=False)) for _ in range(nullity)
    ]
    return ml.Board.from_effects(effects, states, n_cells=cells)


def minimal_certificate(board: ml.Board, x: np.ndarray, proof: dict) -> dict:
    """A "minimal" certificate claiming taps ``x`` are least in their coset, with the
    Solver's kernel."""
    s = ml.Solver(board)
    A = board.matrix().astype(np.int64)
    x = np.asarray(x, dtype=np.int64)
    return {
        "format": "modlights-certificate",
        "version": 1,
        "kind": "minimal",
        "board": board.to_dict(),
        "kernel": {
            "generators": s.kernel().astype(int).tolist(),
            "orders": [int(o) for o in s.kernel_orders],
        },
        "rhs": ((A @ x) % board.states).tolist(),
        "taps": x.tolist(),
        "length": int(x.sum()),
        "proof": proof,
    }


def enumeration_over_2_45() -> dict:
    """The reproducer of issue 31: about 120 KB of JSON claiming an enumeration over a
    kernel of 2^45 elements (755 cells, 800 taps, n = 2). Its board and kernel are
    real (the kernel checks pass in milliseconds); the enumeration would take days."""
    board = kernel_board(45, 755)
    x = np.random.default_rng(1).integers(0, 2, size=board.n_taps)
    return minimal_certificate(board, x, {"method": "enumeration"})
