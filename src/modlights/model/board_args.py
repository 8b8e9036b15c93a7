"""The constructors' arguments as board documents for the C reader (the Python side of
``Board.grid`` and ``Board.from_effects``, model/board.py).

Python reads its own types here (iterators once, tuples, NumPy arrays and scalars, a
boolean mask kept as a NumPy array) and writes plain JSON values; the checks, their
order and their messages are the C library's (``ml__grid_from_json_shared`` /
``ml__board_from_json_words``, csrc/api/board_json.c and board_json_words.c). Where a
message shows an item of the argument, the item is shown as Python shows it (a tuple as
a tuple, NumPy values as NumPy's repr): the C reader shows the JSON form, found again
among the argument's items (:func:`as_python_shows`, :func:`effects_board`).
"""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import numpy as np

from modlights.model.patterns import MAX_OFFSETS, PATTERNS, is_mixed
from modlights.model.validation import MAX_TILES, _short, take_items
from modlights.native._core import CBoard, capi_cell_index_max, capi_errmsg_name

__all__ = [
    "pattern_document",
    "grid_refuses",
    "document_text",
    "marks_argument",
    "as_python_shows",
    "plain",
    "mixed_offsets",
    "offsets_of",
    "no_tiles",
    "effects_board",
]


def pattern_document(pattern: Any, rows: int, cols: int) -> Any:
    """Board.grid's ``pattern`` (as read_pattern_once read it) as plain JSON values for
    the C reader: tuples, NumPy arrays and other iterables as lists, NumPy scalars as
    Python's, integral floats kept (the reader takes them as offsets), NaN and
    infinities as their text. A value JSON cannot hold at the top (bytes, a
    non-iterable object) gets the reader's message with its type's name. O(size of the
    pattern)."""
    if isinstance(pattern, str):
        return pattern
    if isinstance(pattern, (bytes, bool, np.bool_)) or not hasattr(pattern, "__iter__"):
        try:  # the reader's message for a value of no pattern's kind, named as Python names it
            grid_refuses({"rows": rows, "cols": cols, "pattern": None}, rows, cols)
        except ValueError as e:
            text = str(e)
            raise ValueError(text[: text.rindex("NoneType")] + type(pattern).__name__) from None
    return plain(pattern, max(rows, cols, MAX_OFFSETS) + 1)


def grid_refuses(doc: dict, rows: int, cols: int, locked: Any = None, holes: Any = None) -> None:
    """The C reader's ValueError for the grid document ``doc`` (with the masks beside it),
    if it has one: Board.grid's messages for what it holds, raised in its words. Used
    where Python stops reading the arguments (a giant board with marks, a value of no
    pattern's kind, a locked / holes argument it cannot read), so that the messages about
    what comes before are the C reader's, in Board.grid's order."""
    CBoard.grid_words(document_text(doc), rows, cols, locked, holes)


def document_text(doc: dict) -> str:
    """A grid document as JSON text: positions of Python ints and floats as they are,
    other values (NumPy scalars, NaN, nested iterables) through plain. O(size)."""
    try:
        return json.dumps(doc, allow_nan=False)
    except (TypeError, ValueError):
        doc = dict(doc)
        for what in ("locked", "holes"):
            if what in doc:
                doc[what] = [plain(list(p), 3) for p in doc[what]]
        return json.dumps(doc, allow_nan=False)


def marks_argument(spec: Any, what: str, rows: int, cols: int) -> tuple:
    """Board.grid's ``locked`` / ``holes`` argument read (the Python types): (mask, None)
    for a boolean (rows, cols) mask (a C-contiguous copy; nested lists of bools, 0 / 1
    integer arrays of that shape), (None, positions) for the (row, col) items of an
    iterable (each as a tuple; an iterator read once, at most 4 items a tile), (None,
    None) for None. ValueError for a mask of another shape or items that are not
    iterable; the positions are the C reader's to check (ml__marks_words)."""
    if spec is None:
        return None, None
    if not isinstance(spec, (np.ndarray, list, tuple, set, frozenset)):
        # an iterator or any other iterable: read once (and at most a few
        # positions a tile), then looked at as a list
        spec = take_items(spec, 4 * rows * cols + 16, what)
    if isinstance(spec, np.ndarray) and spec.dtype == bool or _is_bool_nested(spec):
        arr = np.asarray(spec, dtype=bool)
        if arr.shape != (rows, cols):
            raise ValueError(f"{what} mask has shape {arr.shape}, the board is {(rows, cols)}")
        return np.array(arr, dtype=bool, order="C"), None  # a copy
    if len(spec) == rows and cols != 2:  # (only then can it be a 0 / 1 mask)
        try:
            arr = (
                np.asarray(spec)
                if not isinstance(spec, (set, frozenset))
                else np.asarray(sorted(spec, key=repr))
            )
        except (ValueError, TypeError, OverflowError):
            arr = np.empty(0, dtype=object)  # ragged: positions below
        if (
            arr.ndim == 2
            and arr.shape == (rows, cols)
            and arr.dtype.kind in "iu"
            and np.isin(arr, (0, 1)).all()
        ):
            return np.ascontiguousarray(arr.astype(bool)), None
    try:
        return None, [tuple(p) for p in spec]
    except TypeError:
        raise ValueError(
            f"{what} must be a boolean {rows}x{cols} mask or an iterable of (row, col) positions"
        ) from None


_OFFSETS_MESSAGE = "pattern offsets must be (dr, dc) pairs of ints, got "
_POSITION_MESSAGE = " must be a (row, col) pair of ints, got "


def as_python_shows(
    e: ValueError, pattern: Any, rows: int, cols: int, given: dict | None = None
) -> ValueError:
    """The C reader's message ``e`` with the offending offset pair, or (row, col) item of
    ``given`` (the positions written into the document, by field), shown as Python shows
    the argument's own item (a tuple as a tuple, NumPy values as NumPy's repr): the first
    one, in the reader's order, whose JSON form the message shows. ``pattern`` is the
    argument as read once. O(offsets + positions)."""
    text = str(e)
    for what, positions in (given or {}).items():
        if text.startswith(what + _POSITION_MESSAGE):
            shown = text[len(what + _POSITION_MESSAGE) :]
            for p in positions:
                if _short(plain(list(p), 3)) == shown:
                    return ValueError(what + _POSITION_MESSAGE + _short(p))
            return e
    if not text.startswith(_OFFSETS_MESSAGE) or isinstance(pattern, str):
        return e
    shown = text[len(_OFFSETS_MESSAGE) :]
    entries = [x for row in pattern for x in row] if is_mixed(pattern, rows, cols) else [pattern]
    for entry in entries:
        if isinstance(entry, (str, bytes)) or not isinstance(entry, (list, tuple, np.ndarray)):
            continue
        for pair in entry:
            if _short(plain(pair, 3)) == shown:
                return ValueError(_OFFSETS_MESSAGE + _short(pair))
    return e


def plain(v: Any, limit: int) -> Any:
    """``v`` as JSON values (see pattern_document); an iterable is read up to ``limit``
    items (past what any level of a pattern accepts)."""
    if type(v) is str:
        return v
    if isinstance(v, np.generic):  # before float: np.float64 is one
        return plain(v.item(), limit)
    if v is None or isinstance(v, (str, bool, int)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else repr(v)
    if isinstance(v, np.ndarray):
        return plain(v.tolist(), limit)
    if isinstance(v, (list, tuple)):
        return [plain(x, limit) for x in v]
    if isinstance(v, (bytes, bytearray)) or not hasattr(v, "__iter__"):
        return repr(v)
    return [plain(x, limit) for x in itertools.islice(v, limit)]


def mixed_offsets(rows: list) -> list:
    """The rows of offset tuples of a mixed map the C reader accepted (names and [dr, dc]
    lists), one tuple a distinct pattern (a name read once). O(tiles + offsets)."""
    names: dict = {}
    shared: dict = {}

    def offsets(p: Any) -> tuple:
        if isinstance(p, str):
            o = names.get(p)
            if o is None:
                o = names[p] = shared.setdefault(offsets_of(p), offsets_of(p))
            return o
        o = offsets_of(p)
        return shared.setdefault(o, o)

    return [[offsets(p) for p in row] for row in rows]


def offsets_of(p: Any) -> tuple:
    """The offsets of a pattern the C reader accepted: a name (any case, blanks around)
    or [dr, dc] pairs (ints or integral floats)."""
    if isinstance(p, str):
        return PATTERNS[p.strip().lower()]
    return tuple((int(dr), int(dc)) for dr, dc in p)


def no_tiles(spec: Any) -> bool:
    """True for a locked / holes argument marking no tile without a mask: None or an
    empty list, tuple or set of positions."""
    return spec is None or (isinstance(spec, (list, tuple, set, frozenset)) and not spec)


def _is_bool_nested(spec: Any) -> bool:
    """True for nested lists of Python bools (a mask written by hand)."""
    if isinstance(spec, np.ndarray) or isinstance(spec, (str, bytes)):
        return False
    try:
        first = next(iter(spec))
        inner = next(iter(first))
    except (TypeError, StopIteration):
        return False
    return isinstance(inner, (bool, np.bool_))


# ----------------------------------------------------------------------------- effects
_ENTRY_IDS = ("ML_M_JSON_EFFECT_ENTRY", "ML_M_CELL_INDEX_MAX")


def _is_index(c: Any) -> bool:
    """Whether c is an int or NumPy integer (bools excluded): what a cell index may be."""
    return isinstance(c, (int, np.integer)) and not isinstance(c, (bool, np.bool_))


def _array_over(e: np.ndarray) -> int | None:
    """The cell index an integer array shows when it holds one past +-MAX_TILES (its
    largest when over, else its smallest), for arrays wider than int32 (narrowed without
    wrapping); None otherwise. O(size), NumPy's min / max."""
    if e.size and e.dtype.itemsize >= 4 and e.dtype != np.int32:
        lo, hi = int(e.min()), int(e.max())
        if hi > MAX_TILES or lo < -MAX_TILES:
            return hi if hi > MAX_TILES else lo
    return None


def _effects_text(doc: dict) -> str:
    """A graph document as JSON text: lists of Python ints as they are, other entries
    (NumPy scalars, NaN, objects) as plain values through :func:`plain`."""
    try:
        return json.dumps(doc, allow_nan=False)
    except (TypeError, ValueError):
        doc = dict(doc)
        doc["effects"] = [
            e if all(type(c) is int for c in e) else [plain(c, 3) for c in e]
            for e in doc["effects"]
        ]
        return json.dumps(doc, allow_nan=False)


def _entry_shown(e: ValueError, eff: list) -> ValueError:
    """The C reader's message about a non-int entry of ``effects[j]`` with the entry shown
    as Python shows it (its repr: NumPy values as NumPy's): the first entry of that list
    that is not an index, as the reader finds it."""
    text = str(e)
    if capi_errmsg_name() != "ML_M_JSON_EFFECT_ENTRY":
        return e
    j = int(text[text.index("[") + 1 : text.index("]")])
    bad = next((c for c in eff[j] if not _is_index(c)), None)
    at, end = text.index(" holds ") + len(" holds "), text.rindex("; ")
    return ValueError(text[:at] + repr(bad) + text[end:])


def effects_board(states: int, eff: list, n_cells: Any) -> Any:
    """The C board of ``Board.from_effects(effects, states, n_cells)`` whose tap lists,
    read once, are ``eff`` (lists, or integer arrays), as a graph document read in the
    constructors' words (ml__board_from_json_words: the entries, n_cells and the indices
    checked in Board.from_effects' order and words). n_cells: an int or NumPy integer
    is written as its value; any other value is refused by the reader with its message
    about n_cells, shown with the value as Python names it. O(total effect entries)."""
    doc: dict = {"states": states, "effects": eff}
    wrong = None
    if n_cells is not None:
        if _is_index(n_cells):
            doc["n_cells"] = int(n_cells)
        else:
            wrong, doc["n_cells"] = n_cells, "?"
    lists: list[Any] = []
    for e in eff:
        if isinstance(e, np.ndarray):
            over = _array_over(e)
            if over is not None:  # Python's rule for wide arrays, after the lists before
                try:
                    CBoard.from_json_words(json.dumps({"states": states, "effects": lists}))
                except ValueError as x:
                    if capi_errmsg_name() in _ENTRY_IDS:
                        raise _entry_shown(x, eff) from None
                capi_cell_index_max(over)
            e = e.tolist()
        lists.append(e)
    doc["effects"] = lists
    try:
        return CBoard.from_json_words(_effects_text(doc))
    except ValueError as x:
        if wrong is not None and capi_errmsg_name() == "ML_M_JSON_INT":
            text = str(x)
            got = (
                f"a bool ({wrong!r})"
                if isinstance(wrong, (bool, np.bool_))
                else f"{type(wrong).__name__} {_short(wrong)}"
            )
            raise ValueError(text[: text.rindex(", got ") + 6] + got) from None
        raise _entry_shown(x, eff) from None
