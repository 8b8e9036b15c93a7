"""JSON-safe dictionaries for front ends: Board, Solution and Puzzle as plain data.

Every ``to_dict`` returns only dicts, lists, ints, bools and strings (``json.dumps``
needs no custom encoder); every ``from_dict`` checks each field before anything
large is built and raises a ValueError naming the field and what is allowed.

Grid boards: ``{"rows", "cols", "states", "pattern", "locked", "holes", "wrap"}``
where ``pattern`` is a name ("cross", ...), a list of ``[dr, dc]`` pairs, or for a
mixed board a rows x cols nested list of names / pair lists; ``locked`` and
``holes`` are lists of ``[r, c]`` (boolean nested masks are accepted on input).
Graph boards: ``{"effects", "states", "n_cells"}`` where ``effects[j]`` lists the
cells tap j advances, a cell once per unit (boards made by ``Board.from_matrix``
list cell i ``A[i, j]`` times).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .board import MAX_TILES, Board, _check_dim, _check_states
from .patterns import Offsets, is_mixed, parse_mixed, parse_pattern, pattern_name

__all__ = ["board_to_dict", "board_from_dict", "solution_to_dict", "puzzle_to_dict",
           "puzzle_from_dict", "GRID_FIELDS", "GRAPH_FIELDS", "PUZZLE_FIELDS"]

GRID_FIELDS = ("rows", "cols", "states", "pattern", "locked", "holes", "wrap")
GRAPH_FIELDS = ("effects", "states", "n_cells")
PUZZLE_FIELDS = ("board", "start", "code", "stars", "min_taps", "proven", "difficulty")


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _field(what: str, e: ValueError) -> ValueError:
    """e's message prefixed by the field it is about (unless it names it already)."""
    msg = str(e)
    return ValueError(msg if msg.startswith(what) else f"{what}: {msg}")


def _check_mapping(d: Any, what: str, allowed: tuple, required: tuple) -> None:
    if not isinstance(d, Mapping):
        raise ValueError(f"{what} must be a dict (JSON object), got {type(d).__name__}")
    unknown = [k for k in d if k not in allowed]
    if unknown:
        raise ValueError(f"{what} has unknown field {unknown[0]!r}; allowed fields: "
                         + ", ".join(allowed))
    missing = [k for k in required if k not in d]
    if missing:
        other = "; a graph board has effects and states" if what == "board" else ""
        raise ValueError(f"{what} needs the field {missing[0]!r} (required: "
                         + ", ".join(required) + other + ")")


# ----------------------------------------------------------------------------- boards
def _offsets_data(offs: Offsets) -> Any:
    name = pattern_name(offs)
    return name if name else [[int(dr), int(dc)] for dr, dc in offs]


def _positions(mask: np.ndarray) -> list:
    return [[int(r), int(c)] for r, c in np.argwhere(mask)]


def board_to_dict(board: Board) -> dict:
    """See :meth:`Board.to_dict`."""
    if not board.is_grid:
        effects = board.effects
        if effects is None:                         # Board.from_matrix: units of A[i, j]
            a = board.matrix()
            effects = [np.repeat(np.arange(a.shape[0]), a[:, j]).tolist()
                       for j in range(a.shape[1])]
        return {"effects": [[int(c) for c in e] for e in effects],
                "states": board.states, "n_cells": board.n_cells}
    rows, cols = board.shape
    if board.mixed is not None:
        pattern = [[_offsets_data(o) for o in row] for row in board.mixed]
    else:
        pattern = _offsets_data(board.pattern)
    return {"rows": rows, "cols": cols, "states": board.states, "pattern": pattern,
            # boards without locks / holes store no masks (giant boards stay small)
            "locked": _positions(board.locked) if board._any_locked else [],
            "holes": _positions(board.holes) if board._any_holes else [],
            "wrap": board.wrap}


def _mask_input(v: Any, what: str, rows: int, cols: int) -> Any:
    """A locked / holes field as Board.grid takes it: a list of [r, c] ints, or a
    rows x cols nested list of bools."""
    if v is None:
        return None
    if not isinstance(v, (list, tuple)):
        raise ValueError(f"{what} must be a list of [row, col] pairs or a {rows}x{cols} "
                         f"nested list of booleans, got {type(v).__name__}")
    if v and isinstance(v[0], (list, tuple)) and v[0] and isinstance(v[0][0], bool):
        if len(v) != rows or any(not isinstance(row, (list, tuple)) or len(row) != cols
                                 or not all(isinstance(x, bool) for x in row) for row in v):
            raise ValueError(f"{what} as a mask must be {rows} rows of {cols} booleans")
        return np.array(v, dtype=bool)
    if len(v) > rows * cols:
        raise ValueError(f"{what} lists {len(v)} positions, the board has {rows * cols} tiles")
    for p in v:
        if not (isinstance(p, (list, tuple)) and len(p) == 2 and all(map(_is_int, p))):
            raise ValueError(f"{what} entries must be [row, col] pairs of ints, got {p!r}")
    return [tuple(int(x) for x in p) for p in v]


def _pattern_input(v: Any, rows: int, cols: int) -> Any:
    """The pattern field checked: a name, a list of [dr, dc] pairs, or a mixed map."""
    if isinstance(v, str):
        return parse_pattern(v)
    if not isinstance(v, (list, tuple)):
        raise ValueError("pattern must be a name, a list of [dr, dc] pairs or a "
                         f"{rows}x{cols} nested list of those, got {type(v).__name__}")
    if is_mixed(v, rows, cols):
        for row in v:
            if not isinstance(row, (list, tuple)):
                raise ValueError(f"a mixed pattern is {rows} lists of {cols} entries, "
                                 f"got a {type(row).__name__} row")
            for entry in row:
                _check_offsets_json(entry)
        return parse_mixed(v, rows, cols)
    if v and isinstance(v[0], (list, tuple)) and any(isinstance(x, (str, list, tuple))
                                                     for x in v[0]):
        raise ValueError(f"a mixed pattern must be {rows} lists of {cols} entries (names or "
                         "lists of [dr, dc] pairs), one per tile")
    _check_offsets_json(v)
    return parse_pattern(v)


def _check_offsets_json(entry: Any) -> None:
    """Names and pair lists only (JSON: no floats, no bools as offsets)."""
    if isinstance(entry, str):
        return
    if not isinstance(entry, (list, tuple)):
        raise ValueError(f"a pattern is a name or a list of [dr, dc] pairs, got {entry!r}")
    for p in entry:
        if not (isinstance(p, (list, tuple)) and len(p) == 2 and all(map(_is_int, p))):
            raise ValueError(f"pattern offsets must be [dr, dc] pairs of ints, got {p!r}")


def board_from_dict(d: Any, *, max_tiles: int | None = None) -> Board:
    """See :meth:`Board.from_dict`."""
    limit = MAX_TILES if max_tiles is None else int(max_tiles)
    if isinstance(d, Mapping) and "effects" in d:
        return _graph_from_dict(d, limit)
    _check_mapping(d, "board", GRID_FIELDS, ("rows", "cols"))
    rows = _check_dim("rows", d["rows"])
    cols = _check_dim("cols", d["cols"])
    if rows * cols > limit:
        raise ValueError(f"board too large: {rows}x{cols} = {rows * cols} tiles, at most "
                         f"{limit} allowed")
    try:
        states = _check_states(d.get("states", 2))
    except ValueError as e:
        raise _field("states", e) from None
    wrap = d.get("wrap", False)
    if not isinstance(wrap, bool):
        raise ValueError(f"wrap must be true or false, got {wrap!r}")
    try:
        pattern = _pattern_input(d.get("pattern", "cross"), rows, cols)
    except ValueError as e:
        raise _field("pattern", e) from None
    masks = {}
    for what in ("locked", "holes"):
        try:
            masks[what] = _mask_input(d.get(what), what, rows, cols)
        except ValueError as e:
            raise _field(what, e) from None
    return Board.grid(rows, cols, states, pattern, locked=masks["locked"],
                      holes=masks["holes"], wrap=wrap)


def _graph_from_dict(d: Mapping, limit: int) -> Board:
    _check_mapping(d, "graph board", GRAPH_FIELDS, ("effects", "states"))
    effects = d["effects"]
    if not isinstance(effects, (list, tuple)):
        raise ValueError(f"effects must be a list of lists of cell indices, got "
                         f"{type(effects).__name__}")
    total = 0
    for j, e in enumerate(effects):
        if not isinstance(e, (list, tuple)):
            raise ValueError(f"effects[{j}] must be a list of cell indices, got "
                             f"{type(e).__name__}")
        total += len(e)
    if len(effects) > limit or total > limit:
        raise ValueError(f"graph board too large: {len(effects)} taps and {total} effect "
                         f"entries, at most {limit} of each allowed")
    try:
        states = _check_states(d["states"])
    except ValueError as e:
        raise _field("states", e) from None
    n_cells = d.get("n_cells")
    if n_cells is not None and (not _is_int(n_cells) or not 0 <= n_cells <= limit):
        raise ValueError(f"n_cells must be an int from 0 to {limit}, got {n_cells!r}")
    try:
        return Board.from_effects(effects, states, n_cells=n_cells)
    except ValueError as e:
        raise _field("effects", e) from None


# ----------------------------------------------------------------------------- solutions
def solution_to_dict(sol: Any) -> dict:
    """See :meth:`Solution.to_dict`."""
    board = sol._board
    moves = sol.moves()
    if board.is_grid:
        moves = [[int(r), int(c)] for r, c in moves]
    else:
        moves = [int(j) for j in moves]
    return {"taps": np.asarray(sol.taps).tolist(), "length": int(sol.length),
            "proven_minimal": bool(sol.proven_minimal), "moves": moves,
            "kernel_size": int(sol.kernel_size)}


# ----------------------------------------------------------------------------- puzzles
def puzzle_to_dict(p: Any) -> dict:
    """See :meth:`Puzzle.to_dict`."""
    return {"board": board_to_dict(p.board), "start": p.start.tolist(), "code": p.code,
            "stars": {str(k): int(v) for k, v in p.stars.items()},
            "min_taps": int(p.min_taps), "proven": bool(p.proven),
            "difficulty": p.difficulty}


def _start_input(start: Any, board: Board) -> np.ndarray:
    """The start field: a board-shaped nested list of ints in 0..n-1."""
    rows, cols = board.shape
    n = board.states
    if not isinstance(start, (list, tuple)) or len(start) != rows or any(
            not isinstance(row, (list, tuple)) or len(row) != cols for row in start):
        raise ValueError(f"start must be {rows} lists of {cols} ints (the board's shape)")
    for row in start:
        for v in row:
            if not _is_int(v) or not 0 <= v < n:
                raise ValueError(f"start values must be ints from 0 to {n - 1}, got {v!r}")
    return np.array(start, dtype=np.uint8)


def puzzle_from_dict(d: Any, *, max_tiles: int | None = None) -> Any:
    """See :meth:`Puzzle.from_dict`."""
    from .play.puzzles import Puzzle
    _check_mapping(d, "puzzle", PUZZLE_FIELDS, ())
    if "board" not in d and "code" not in d:
        raise ValueError("puzzle needs 'board' and 'start', or 'code'")
    _check_derived(d)
    from_code = None
    if "code" in d:
        code = d["code"]
        if not isinstance(code, str):
            raise ValueError(f"code must be a string, got {type(code).__name__}")
        try:
            from_code = Puzzle.from_code(code)
        except ValueError as e:
            raise _field("code", e) from None
    if "board" not in d:
        if "start" in d:
            raise ValueError("puzzle has 'start' but no 'board'; give both, or 'code' alone")
        return from_code
    if "start" not in d:
        raise ValueError("puzzle has 'board' but no 'start'; give both, or 'code' alone")
    try:
        board = board_from_dict(d["board"], max_tiles=max_tiles)
    except ValueError as e:
        raise _field("board", e) from None
    if not board.is_grid:
        raise ValueError("board: puzzles are grid boards; a graph board has no puzzle")
    p = Puzzle(board, _start_input(d["start"], board))
    if from_code is not None and from_code != p:
        raise ValueError("code and board/start describe different puzzles; give one or "
                         "make them agree")
    return p


def _check_derived(d: Mapping) -> None:
    """The derived fields (recomputed from board and start) must at least be well typed."""
    if "stars" in d:
        s = d["stars"]
        if not (isinstance(s, Mapping) and set(s) == {"3", "2", "1"}
                and all(_is_int(v) for v in s.values())):
            raise ValueError('stars must be {"3": int, "2": int, "1": int}')
    if "min_taps" in d and not (_is_int(d["min_taps"]) and d["min_taps"] >= 0):
        raise ValueError(f"min_taps must be an int >= 0, got {d['min_taps']!r}")
    if "proven" in d and not isinstance(d["proven"], bool):
        raise ValueError(f"proven must be true or false, got {d['proven']!r}")
    if "difficulty" in d:
        from .play.puzzles import DIFFICULTIES
        if d["difficulty"] not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, "
                             f"got {d['difficulty']!r}")
