"""The JSON-safe dict form of a Puzzle (``Puzzle.to_dict`` / ``Puzzle.from_dict``).

``{"board": board.to_dict(), "start": nested lists, "code", "stars": {"3", "2", "1"},
"min_taps", "proven", "difficulty"}``; reading needs ``board`` and ``start``, or
``code`` (both: they must agree); the derived fields, when given, are checked for their
types and recomputed. This module does not import the Puzzle class: ``puzzle_from_dict``
builds through the class it is given, so the puzzle and its dict form import in one
direction only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from modlights.model.board import Board
from modlights.model.validation import check_mapping, field_error, is_int
from modlights.native import _core

if TYPE_CHECKING:
    from modlights.play.puzzles import Puzzle

__all__ = ["PUZZLE_FIELDS", "puzzle_to_dict", "puzzle_from_dict"]

#: the difficulties, easiest first (the C library's names)
DIFFICULTIES: tuple[str, ...] = _core.DIFFICULTIES

PUZZLE_FIELDS = ("board", "start", "code", "stars", "min_taps", "proven", "difficulty")


def puzzle_to_dict(p: Puzzle) -> dict:
    """The JSON-safe dict of a puzzle (see :meth:`Puzzle.to_dict`)."""
    return {
        "board": p.board.to_dict(),
        "start": p.start.tolist(),
        "code": p.code,
        "stars": {str(k): int(v) for k, v in p.stars.items()},
        "min_taps": int(p.min_taps),
        "proven": bool(p.proven),
        "difficulty": p.difficulty,
    }


def _start_input(start: Any, board: Board) -> np.ndarray:
    """The start field: a board-shaped nested list of ints in 0..n-1."""
    rows, cols = board.shape
    n = board.states
    if (
        not isinstance(start, (list, tuple))
        or len(start) != rows
        or any(not isinstance(row, (list, tuple)) or len(row) != cols for row in start)
    ):
        raise ValueError(f"start must be {rows} lists of {cols} ints (the board's shape)")
    for row in start:
        for v in row:
            if not is_int(v) or not 0 <= v < n:
                raise ValueError(f"start values must be ints from 0 to {n - 1}, got {v!r}")
    return np.array(start, dtype=np.uint8)


def puzzle_from_dict(cls: type[Puzzle], d: Any, *, max_tiles: int | None = None) -> Puzzle:
    """A puzzle from its dict, every field checked (see :meth:`Puzzle.from_dict`), made
    through the class it is given (``Puzzle.from_dict`` passes itself)."""
    check_mapping(d, "puzzle", PUZZLE_FIELDS, ())
    if "board" not in d and "code" not in d:
        raise ValueError("puzzle needs 'board' and 'start', or 'code'")
    _check_derived(d)
    from_code = None
    if "code" in d:
        code = d["code"]
        if not isinstance(code, str):
            raise ValueError(f"code must be a string, got {type(code).__name__}")
        try:
            from_code = cls.from_code(code)
        except ValueError as e:
            raise field_error("code", e) from None
    if "board" not in d:
        if "start" in d:
            raise ValueError("puzzle has 'start' but no 'board'; give both, or 'code' alone")
        assert from_code is not None  # checked above: 'board' or 'code'
        return from_code
    if "start" not in d:
        raise ValueError("puzzle has 'board' but no 'start'; give both, or 'code' alone")
    try:
        board = Board.from_dict(d["board"], max_tiles=max_tiles)
    except ValueError as e:
        raise field_error("board", e) from None
    if not board.is_grid:
        raise ValueError("board: puzzles are grid boards; a graph board has no puzzle")
    p = cls(board, _start_input(d["start"], board))
    if from_code is not None and from_code != p:
        raise ValueError(
            "code and board/start describe different puzzles; give one or make them agree"
        )
    return p


def _check_derived(d: Mapping) -> None:
    """The derived fields (recomputed from board and start) must at least be well typed."""
    if "stars" in d:
        s = d["stars"]
        if not (
            isinstance(s, Mapping)
            and set(s) == {"3", "2", "1"}
            and all(is_int(v) for v in s.values())
        ):
            raise ValueError('stars must be {"3": int, "2": int, "1": int}')
    if "min_taps" in d and not (is_int(d["min_taps"]) and d["min_taps"] >= 0):
        raise ValueError(f"min_taps must be an int >= 0, got {d['min_taps']!r}")
    if "proven" in d and not isinstance(d["proven"], bool):
        raise ValueError(f"proven must be true or false, got {d['proven']!r}")
    if "difficulty" in d:
        if d["difficulty"] not in DIFFICULTIES:
            raise ValueError(
                f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {d['difficulty']!r}"
            )
