"""Tiny workloads: a quick check that the runner and the library work (seconds)."""

from __future__ import annotations

import numpy as np

from ..registry import Context, Missing, Subject, workload


@workload(
    "smoke-cross",
    help="GF(2) cross 16 x 16: Solver + solve from A x0 (tiny)",
    peers=("reference",),
    params={"size": 16, "states": 2},
    repeats=3,
)
def smoke_cross(ctx: Context):
    import modlights as ml

    k, n = ctx["size"], ctx["states"]
    board = ml.Board.grid(k, k, states=n, pattern="cross")
    rng = np.random.default_rng(ctx.seed)
    start = board.apply(np.zeros((k, k), np.uint8), rng.integers(0, n, (k, k), dtype=np.uint8))

    def check(sol):
        assert not board.apply(start, sol.taps).any(), "the answer does not clear the board"

    from modlights.engines.reference import reference_reason

    why = reference_reason(board.n_cells, board.n_taps, n)
    return {
        "modlights": Subject(lambda: ml.Solver(board).solve(start, minimal=False), check),
        "reference": Subject(
            lambda: ml.Solver(board, backend="reference").solve(start, minimal=False), check
        )
        if why is None
        else Missing(why),
    }
