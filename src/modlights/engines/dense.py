"""The dense engines: the whole tap matrix factored once, any board.

- :func:`build_gf2` (n = 2): :class:`modlights.native._core.Gf2Engine`
  (csrc/dense/gf2.c), bit-packed GF(2) elimination by the Method of Four Russians; grid
  and graph boards are packed straight from coordinates (no dense byte matrix).
- :func:`build_zn` (n >= 3): :class:`modlights.native._core.ZnEngine` (csrc/dense/zn.c), elimination
  with delayed reduction over each prime-power factor of n (CRT), unit pivots first,
  then valuation pivots, so composite n is exact.
- :func:`build_reference`: :class:`modlights.engines.reference.ReferenceEngine`, pure
  NumPy (the oracle).

Each answers every question of :mod:`modlights.engines.base` itself. Memory: the
m x r matrix (bits over GF(2), bytes otherwise) and its transform.
"""

from __future__ import annotations

from typing import Any

from modlights.engines.reference import ReferenceEngine, reference_reason
from modlights.model.board import Board

__all__ = ["build_gf2", "build_zn", "build_reference", "dense_reason", "DENSE_BUILDERS"]


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


def build_zn(board: Board) -> Any:
    """The native Z/nZ engine of a board with n >= 3 (ValueError for n = 2)."""
    from modlights.native._core import ZnEngine

    n = board.states
    if n < 3:
        raise ValueError("the Z/n engine needs n >= 3; n = 2 has the GF(2) engine")
    if board._dense is not None:
        return ZnEngine(board.matrix(), n)
    ci, tj = board.coo()
    return ZnEngine.from_coo(board.n_cells, board.n_taps, ci, tj, n)


def build_reference(board: Board) -> ReferenceEngine:
    """The pure-NumPy reference engine of a board (dense Smith forms; small boards):
    ValueError naming the native engines past ``REFERENCE_MAX_WORK``, before anything
    is built."""
    why = reference_reason(board.n_cells, board.n_taps, board.states)
    if why is not None:
        raise ValueError(why)
    return ReferenceEngine(board.matrix(), board.states)


#: The builders of the library's dense engines by registered name (the registry's).
DENSE_BUILDERS = {"dense-gf2": build_gf2, "dense-zn": build_zn}
