"""Named tap patterns, and the reading of Board.grid's pattern argument once.

A pattern is a tuple of ``(dr, dc)`` offsets: tapping the tile at ``(r, c)``
advances every tile ``(r + dr, c + dc)`` by one. Offsets are used exactly as
given: leave out ``(0, 0)`` and the tapped tile itself does not change; list an
offset twice and its tile advances twice. Board.grid's checks of a pattern and their
messages are the C reader's (model/board.py hands it the pattern as a document).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from modlights.model.validation import take_items
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


def pattern_name(offsets: Offsets) -> str | None:
    """The name of a named pattern with exactly these offsets, else None."""
    for name, offs in PATTERNS.items():
        if tuple(offs) == tuple(offsets):
            return name
    return None
