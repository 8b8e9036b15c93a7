"""Named tap patterns and the parsing of custom offsets and mixed per-tile maps.

A pattern is a tuple of ``(dr, dc)`` offsets: tapping the tile at ``(r, c)``
advances every tile ``(r + dr, c + dc)`` by one. Offsets are used exactly as
given: leave out ``(0, 0)`` and the tapped tile itself does not change; list an
offset twice and its tile advances twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from modlights.model.validation import as_int_pair, take_items
from modlights.native._core import BOARD_LIMITS

Offsets = tuple[tuple[int, int], ...]

_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))

#: The named tap patterns: name -> the (dr, dc) offsets a tap advances, the tapped tile
#: ``(0, 0)`` first. ``cross`` (centre + 4 neighbours), ``diagonal`` (centre + 4 diagonal
#: neighbours), ``square`` (centre + 8 neighbours), ``horizontal`` (centre, left,
#: right), ``vertical`` (centre, up, down), ``knight`` (centre + the 8 knight moves).
#: Read-only; names are matched case-insensitively by ``Board.grid``.
#:
#: Examples
#: --------
#: >>> ml.PATTERNS["cross"]
#: ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))
#: >>> list(ml.PATTERNS)
#: ['cross', 'diagonal', 'square', 'horizontal', 'vertical', 'knight']
#: >>> len(ml.PATTERNS["knight"])
#: 9
PATTERNS: MappingProxyType = MappingProxyType(
    {
        "cross": ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)),
        "diagonal": ((0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)),
        "square": ((0, 0), (-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
        "horizontal": ((0, 0), (0, -1), (0, 1)),
        "vertical": ((0, 0), (-1, 0), (1, 0)),
        "knight": ((0, 0),) + _KNIGHT,
    }
)

#: Largest |dr| or |dc| of an offset: a pattern reaching further is certainly a
#: mistake (and would make the structured solvers' windows absurd).
MAX_REACH: int = BOARD_LIMITS["MAX_REACH"]  # modlights.h ML_MAX_REACH
#: Most offsets in one pattern (repeats included).
MAX_OFFSETS: int = BOARD_LIMITS["MAX_OFFSETS"]  # modlights.h ML_MAX_OFFSETS


def _allowed() -> str:
    """The pattern names, quoted, for error messages."""
    return ", ".join(repr(k) for k in PATTERNS)


def parse_pattern(pattern: Any) -> Offsets:
    """Return the offsets of one tile's pattern: a name or a sequence of (dr, dc).

    Names are matched case-insensitively, surrounding blanks ignored. A sequence (or
    iterator, read once) gives its offsets exactly as listed, repeats kept. ValueError
    for an unknown name, a non-pair entry, more than :data:`MAX_OFFSETS` offsets or an
    offset reaching past :data:`MAX_REACH`. O(offsets).
    """
    if isinstance(pattern, str):
        key = pattern.strip().lower()
        if key not in PATTERNS:
            raise ValueError(
                f"unknown pattern {pattern!r}: use one of {_allowed()}, "
                "or a sequence of (dr, dc) offsets"
            )
        return PATTERNS[key]
    if isinstance(pattern, (bytes, bool)) or not hasattr(pattern, "__iter__"):
        raise ValueError(
            f"pattern must be a name ({_allowed()}) or a sequence of "
            f"(dr, dc) offsets, got {type(pattern).__name__}"
        )
    items = take_items(pattern, MAX_OFFSETS, "pattern")
    out = []
    for item in items:
        dr_i, dc_i = as_int_pair(item, "pattern offsets", "(dr, dc) pairs of ints")
        if abs(dr_i) > MAX_REACH or abs(dc_i) > MAX_REACH:
            raise ValueError(
                f"pattern offset {(dr_i, dc_i)} reaches further than {MAX_REACH} tiles"
            )
        out.append((dr_i, dc_i))
    return tuple(out)


def _is_iterator(v: Any) -> bool:
    """Whether ``v`` is its own iterator (so reading it consumes it)."""
    try:
        return iter(v) is v
    except TypeError:
        return False


def read_pattern_once(pattern: Any, rows: int, cols: int) -> Any:
    """``pattern`` with every iterator in it (the pattern itself, a mixed map's rows,
    their entries) read into a list once, so that looking at it twice (mixed or
    not?) loses nothing; at most as many items as a pattern or map can hold."""
    if (
        isinstance(pattern, (str, bytes))
        or not _is_iterator(pattern)
        and not isinstance(pattern, (list, tuple))
    ):
        return pattern
    outer = take_items(pattern, max(rows, MAX_OFFSETS), "pattern")
    for i, row in enumerate(outer):
        if _is_iterator(row):
            row = outer[i] = take_items(row, max(cols, 2), f"pattern row {i}")
        if isinstance(row, list) and any(_is_iterator(e) for e in row):
            outer[i] = [
                take_items(e, MAX_OFFSETS, f"pattern entry ({i}, {j})") if _is_iterator(e) else e
                for j, e in enumerate(row)
            ]
    return outer


def is_mixed(pattern: Any, rows: int, cols: int) -> bool:
    """True when ``pattern`` is a (rows, cols) nested list of per-tile patterns."""
    if isinstance(pattern, str):
        return False
    try:
        outer = list(pattern)
    except TypeError:
        return False
    if len(outer) != rows or rows == 0:
        return False
    first = outer[0]
    if isinstance(first, str):
        return False
    try:
        inner = list(first)
    except TypeError:
        return False
    if len(inner) != cols or cols == 0:
        return False
    cell = inner[0]
    # A per-tile entry is a name or a sequence of pairs; an offset pair is a pair of ints.
    if isinstance(cell, str):
        return True
    try:
        sub = list(cell)
    except TypeError:
        return False
    return len(sub) == 0 or not _is_scalar(sub[0])


def _is_scalar(v: Any) -> bool:
    """Whether ``v`` reads as one integer (an offset component, not a pattern)."""
    try:
        int(v)
        return not isinstance(v, (str, bytes)) and not hasattr(v, "__len__")
    except (TypeError, ValueError, OverflowError):
        return False


def parse_mixed(pattern: Sequence, rows: int, cols: int) -> list[list[Offsets]]:
    """Parse a (rows, cols) nested list of per-tile patterns (see :func:`parse_pattern`).

    Returns a list of rows of offset tuples; equal names share one tuple. ValueError
    for a wrong number of rows or entries, or for a bad entry. O(total offsets).
    """
    outer = list(pattern)
    if len(outer) != rows:
        raise ValueError(
            f"a mixed pattern needs {rows} rows of {cols} entries, got {len(outer)} rows"
        )
    grid = []
    cache: dict[Any, Offsets] = {}
    for r, row in enumerate(outer):
        if isinstance(row, str):
            raise ValueError(
                f"mixed pattern row {r} must be a list of {cols} patterns, got a string"
            )
        row = list(row)
        if len(row) != cols:
            raise ValueError(
                f"mixed pattern row {r} has {len(row)} entries, the board has {cols} columns"
            )
        out_row = []
        for entry in row:
            key = entry if isinstance(entry, str) else None
            if key is not None and key in cache:
                out_row.append(cache[key])
                continue
            offs = parse_pattern(entry)
            if key is not None:
                cache[key] = offs
            out_row.append(offs)
        grid.append(out_row)
    return grid


def pattern_name(offsets: Offsets) -> str | None:
    """The name of a named pattern with exactly these offsets, else None."""
    for name, offs in PATTERNS.items():
        if tuple(offs) == tuple(offsets):
            return name
    return None
