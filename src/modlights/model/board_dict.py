"""The JSON-safe dict form of a Board (``Board.to_dict`` / ``Board.from_dict``).

``to_dict`` returns only dicts, lists, ints, bools and strings (``json.dumps`` needs no
custom encoder); ``from_dict`` checks each field before anything large is built and
raises a ValueError naming the field and what is allowed.

Grid boards: ``{"rows", "cols", "states", "pattern", "locked", "holes", "wrap"}``
where ``pattern`` is a name ("cross", ...), a list of ``[dr, dc]`` pairs, or for a
mixed board a rows x cols nested list of names / pair lists; ``locked`` and
``holes`` are lists of ``[r, c]`` (boolean nested masks are accepted on input).
Graph boards: ``{"effects", "states", "n_cells"}`` where ``effects[j]`` lists the
cells tap j advances, a cell once per unit (boards made by ``Board.from_matrix``
list cell i ``A[i, j]`` times).

This module does not import the Board class: ``board_to_dict`` reads a board's public
properties only, and ``board_from_dict`` builds through the class it is given
(``Board.from_dict`` passes itself: anything with Board's ``grid`` and ``from_effects``
constructors, :class:`BoardClass`), so the board and its dict form import in one
direction only (tests/model/test_imports.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

from modlights.model.patterns import Offsets, is_mixed, parse_mixed, parse_pattern, pattern_name
from modlights.model.validation import (
    MAX_TILES,
    check_dim,
    check_mapping,
    check_states,
    field_error,
    is_int,
)

if TYPE_CHECKING:
    from modlights.model.board_matrix import BoardMatrix

__all__ = ["board_to_dict", "board_from_dict", "BoardClass", "GRID_FIELDS", "GRAPH_FIELDS"]

B = TypeVar("B")
B_co = TypeVar("B_co", covariant=True)


class BoardClass(Protocol[B_co]):
    """What :func:`board_from_dict` builds with: a class with Board's two constructors
    (``modlights.Board`` itself, or a subclass)."""

    def grid(
        self,
        rows: int,
        cols: int,
        states: int = ...,
        pattern: Any = ...,
        *,
        locked: Any = ...,
        holes: Any = ...,
        wrap: bool = ...,
    ) -> B_co: ...

    def from_effects(
        self, effects: Sequence[Iterable[int]], states: int, n_cells: int | None = ...
    ) -> B_co: ...


GRID_FIELDS = ("rows", "cols", "states", "pattern", "locked", "holes", "wrap")
GRAPH_FIELDS = ("effects", "states", "n_cells")


def _offsets_data(offs: Offsets) -> Any:
    """A pattern as JSON: its name when it is a named pattern, else [dr, dc] pairs."""
    name = pattern_name(offs)
    return name if name else [[int(dr), int(dc)] for dr, dc in offs]


def _positions(mask: np.ndarray) -> list:
    """The [r, c] positions of a boolean mask, row-major (O(tiles))."""
    return [[int(r), int(c)] for r, c in np.argwhere(mask)]


def board_to_dict(board: BoardMatrix) -> dict:
    """See :meth:`Board.to_dict`. O(tiles) for grids with locks or holes (O(pattern)
    without), O(effect entries) for graph boards (O(n_cells x n_taps) for a board made
    by ``from_matrix``)."""
    if not board.is_grid:
        effects: Sequence[Sequence[int]] | None = board.effects
        if effects is None:  # Board.from_matrix: units of A[i, j]
            a = board.matrix()
            effects = [
                np.repeat(np.arange(a.shape[0]), a[:, j]).tolist() for j in range(a.shape[1])
            ]
        return {
            "effects": [[int(c) for c in e] for e in effects],
            "states": board.states,
            "n_cells": board.n_cells,
        }
    rows, cols = board.shape
    if board.mixed is not None:
        pattern = [[_offsets_data(o) for o in row] for row in board.mixed]
    else:
        assert board.pattern is not None  # a uniform grid has its offsets
        pattern = _offsets_data(board.pattern)
    return {
        "rows": rows,
        "cols": cols,
        "states": board.states,
        "pattern": pattern,
        # boards without locks / holes store no masks (giant boards stay small)
        "locked": _positions(board.locked) if board.any_locked else [],
        "holes": _positions(board.holes) if board.any_holes else [],
        "wrap": board.wrap,
    }


def _mask_input(v: Any, what: str, rows: int, cols: int) -> Any:
    """A locked / holes field as Board.grid takes it: a list of [r, c] ints, or a
    rows x cols nested list of bools."""
    if v is None:
        return None
    if not isinstance(v, (list, tuple)):
        raise ValueError(
            f"{what} must be a list of [row, col] pairs or a {rows}x{cols} "
            f"nested list of booleans, got {type(v).__name__}"
        )
    if v and isinstance(v[0], (list, tuple)) and v[0] and isinstance(v[0][0], bool):
        if len(v) != rows or any(
            not isinstance(row, (list, tuple))
            or len(row) != cols
            or not all(isinstance(x, bool) for x in row)
            for row in v
        ):
            raise ValueError(f"{what} as a mask must be {rows} rows of {cols} booleans")
        return np.array(v, dtype=bool)
    if len(v) > rows * cols:
        raise ValueError(f"{what} lists {len(v)} positions, the board has {rows * cols} tiles")
    for p in v:
        if not (isinstance(p, (list, tuple)) and len(p) == 2 and all(map(is_int, p))):
            raise ValueError(f"{what} entries must be [row, col] pairs of ints, got {p!r}")
    return [tuple(int(x) for x in p) for p in v]


def _pattern_input(v: Any, rows: int, cols: int) -> Any:
    """The pattern field checked: a name, a list of [dr, dc] pairs, or a mixed map."""
    if isinstance(v, str):
        return parse_pattern(v)
    if not isinstance(v, (list, tuple)):
        raise ValueError(
            "pattern must be a name, a list of [dr, dc] pairs or a "
            f"{rows}x{cols} nested list of those, got {type(v).__name__}"
        )
    if is_mixed(v, rows, cols):
        for row in v:
            if not isinstance(row, (list, tuple)):
                raise ValueError(
                    f"a mixed pattern is {rows} lists of {cols} entries, "
                    f"got a {type(row).__name__} row"
                )
            for entry in row:
                _check_offsets_json(entry)
        return parse_mixed(v, rows, cols)
    if (
        v
        and isinstance(v[0], (list, tuple))
        and any(isinstance(x, (str, list, tuple)) for x in v[0])
    ):
        raise ValueError(
            f"a mixed pattern must be {rows} lists of {cols} entries (names or "
            "lists of [dr, dc] pairs), one per tile"
        )
    _check_offsets_json(v)
    return parse_pattern(v)


def _check_offsets_json(entry: Any) -> None:
    """Names and pair lists only (JSON: no floats, no bools as offsets)."""
    if isinstance(entry, str):
        return
    if not isinstance(entry, (list, tuple)):
        raise ValueError(f"a pattern is a name or a list of [dr, dc] pairs, got {entry!r}")
    for p in entry:
        if not (isinstance(p, (list, tuple)) and len(p) == 2 and all(map(is_int, p))):
            raise ValueError(f"pattern offsets must be [dr, dc] pairs of ints, got {p!r}")


def board_from_dict(cls: BoardClass[B], d: Any, *, max_tiles: int | None = None) -> B:
    """See :meth:`Board.from_dict`."""
    limit = MAX_TILES if max_tiles is None else int(max_tiles)
    if isinstance(d, Mapping) and "effects" in d:
        return _graph_from_dict(cls, d, limit)
    check_mapping(d, "board", GRID_FIELDS, ("rows", "cols"))
    rows = check_dim("rows", d["rows"])
    cols = check_dim("cols", d["cols"])
    if rows * cols > limit:
        raise ValueError(
            f"board too large: {rows}x{cols} = {rows * cols} tiles, at most {limit} allowed"
        )
    try:
        states = check_states(d.get("states", 2))
    except ValueError as e:
        raise field_error("states", e) from None
    wrap = d.get("wrap", False)
    if not isinstance(wrap, bool):
        raise ValueError(f"wrap must be true or false, got {wrap!r}")
    try:
        pattern = _pattern_input(d.get("pattern", "cross"), rows, cols)
    except ValueError as e:
        raise field_error("pattern", e) from None
    masks = {}
    for what in ("locked", "holes"):
        try:
            masks[what] = _mask_input(d.get(what), what, rows, cols)
        except ValueError as e:
            raise field_error(what, e) from None
    return cls.grid(
        rows, cols, states, pattern, locked=masks["locked"], holes=masks["holes"], wrap=wrap
    )


def _graph_from_dict(cls: BoardClass[B], d: Mapping, limit: int) -> B:
    """A graph board from its dict: the sizes checked against ``limit`` (taps and effect
    entries) before ``cls.from_effects`` builds it; ValueError naming the field."""
    check_mapping(d, "graph board", GRAPH_FIELDS, ("effects", "states"))
    effects = d["effects"]
    if not isinstance(effects, (list, tuple)):
        raise ValueError(
            f"effects must be a list of lists of cell indices, got {type(effects).__name__}"
        )
    total = 0
    for j, e in enumerate(effects):
        if not isinstance(e, (list, tuple)):
            raise ValueError(f"effects[{j}] must be a list of cell indices, got {type(e).__name__}")
        total += len(e)
    if len(effects) > limit or total > limit:
        raise ValueError(
            f"graph board too large: {len(effects)} taps and {total} effect "
            f"entries, at most {limit} of each allowed"
        )
    try:
        states = check_states(d["states"])
    except ValueError as e:
        raise field_error("states", e) from None
    n_cells = d.get("n_cells")
    if n_cells is not None and (not is_int(n_cells) or not 0 <= n_cells <= limit):
        raise ValueError(f"n_cells must be an int from 0 to {limit}, got {n_cells!r}")
    try:
        return cls.from_effects(effects, states, n_cells=n_cells)
    except ValueError as e:
        raise field_error("effects", e) from None
