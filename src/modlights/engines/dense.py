"""The reasons of the dense engines, and the reference engine's builder.

The dense engines themselves (``dense-gf2``: bit-packed GF(2) elimination by the
Method of Four Russians, csrc/engines/dense_gf2.c over csrc/dense/gf2.c; ``dense-zn``:
csrc/engines/dense.c over csrc/dense/zn.c) are the C library's, answered through
:mod:`modlights.engines.native` (the Solver's C solver).

- :func:`dense_reason`: why a dense engine cannot hold a board (past MAX_TILES).
- :func:`build_reference`: :class:`modlights.engines.reference.ReferenceEngine`, pure
  NumPy (the oracle). Memory: the m x r byte matrix and its transforms.
"""

from __future__ import annotations

from modlights.engines.reference import ReferenceEngine, reference_reason
from modlights.model.board import Board

__all__ = ["build_reference", "dense_reason"]


def dense_reason(board: Board) -> str | None:
    """None when a dense engine can hold the board, else why not (past MAX_TILES)."""
    if board.is_giant:
        from modlights.model.board import MAX_TILES

        return (
            f"a board of more than {MAX_TILES} tiles has no dense tap matrix "
            "(only the structured engines take it)"
        )
    return None


def build_reference(board: Board) -> ReferenceEngine:
    """The pure-NumPy reference engine of a board (dense Smith forms; small boards):
    ValueError naming the native engines past ``REFERENCE_MAX_WORK``, before anything
    is built."""
    why = reference_reason(board.n_cells, board.n_taps, board.states)
    if why is not None:
        raise ValueError(why)
    return ReferenceEngine(board.matrix(), board.states)
