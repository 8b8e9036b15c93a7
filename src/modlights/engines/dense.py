"""The dense GF(2) engine's builder, and the reasons of the dense engines.

- :func:`build_gf2` (``dense-gf2``, n = 2): :class:`modlights.native._core.Gf2Engine`
  (csrc/dense/gf2.c), bit-packed GF(2) elimination by the Method of Four Russians; grid
  and graph boards are packed straight from coordinates (no dense byte matrix), and the
  first right-hand sides are solved by direct elimination before any factorisation.
  (``dense-zn`` is the C solver's dense engine through
  :mod:`modlights.engines.native`; ``dense-gf2`` stays here: through the C solver its
  factor and first solve take 2.9 times as long on the 4096 x 4096 bench system.)
- :func:`build_reference`: :class:`modlights.engines.reference.ReferenceEngine`, pure
  NumPy (the oracle).

Each answers every question of :mod:`modlights.engines.base` itself. Memory: the
m x r matrix (bits over GF(2), bytes otherwise) and its transform.
"""

from __future__ import annotations

from typing import Any

from modlights.engines.reference import ReferenceEngine, reference_reason
from modlights.model.board import Board

__all__ = ["build_gf2", "build_reference", "dense_reason", "DENSE_BUILDERS"]


def dense_reason(board: Board) -> str | None:
    """None when a dense engine can hold the board, else why not (past MAX_TILES)."""
    if board.is_giant:
        from modlights.model.board import MAX_TILES

        return (
            f"a board of more than {MAX_TILES} tiles has no dense tap matrix "
            "(only the structured engines take it)"
        )
    return None


def build_gf2(board: Board) -> Any:
    """The native GF(2) engine of a board with n = 2 (ValueError otherwise)."""
    from modlights.native._core import Gf2Engine

    if board.states != 2:
        raise ValueError(f"the GF(2) engine needs n = 2, this board has n = {board.states}")
    if board._dense is not None:  # from_matrix: the matrix as given
        return Gf2Engine(board.matrix())
    if board._indptr is not None:  # from_effects: column by column
        return Gf2Engine.from_csc(board.n_cells, board.n_taps, board._indptr, board.coo()[0])
    ci, tj = board.coo()  # packed straight from coordinates
    return Gf2Engine.from_coo(board.n_cells, board.n_taps, ci, tj)


def build_reference(board: Board) -> ReferenceEngine:
    """The pure-NumPy reference engine of a board (dense Smith forms; small boards):
    ValueError naming the native engines past ``REFERENCE_MAX_WORK``, before anything
    is built."""
    why = reference_reason(board.n_cells, board.n_taps, board.states)
    if why is not None:
        raise ValueError(why)
    return ReferenceEngine(board.matrix(), board.states)


#: The builders of the library's engines that Python builds itself, by registered name.
DENSE_BUILDERS = {"dense-gf2": build_gf2}
