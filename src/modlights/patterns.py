"""Named tap patterns and the parsing of custom offsets and mixed per-tile maps.

A pattern is a tuple of ``(dr, dc)`` offsets: tapping the tile at ``(r, c)``
advances every tile ``(r + dr, c + dc)`` by one. Offsets are used exactly as
given: leave out ``(0, 0)`` and the tapped tile itself does not change; list an
offset twice and its tile advances twice.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Sequence

Offsets = tuple[tuple[int, int], ...]

_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))

PATTERNS: MappingProxyType = MappingProxyType({
    "cross": ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)),
    "diagonal": ((0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)),
    "square": ((0, 0), (-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
    "horizontal": ((0, 0), (0, -1), (0, 1)),
    "vertical": ((0, 0), (-1, 0), (1, 0)),
    "knight": ((0, 0),) + _KNIGHT,
})

# A pattern reaching further than this is certainly a mistake (and would make the
# structured solvers' windows absurd).
MAX_REACH = 1024
MAX_OFFSETS = 4096


def _allowed() -> str:
    return ", ".join(repr(k) for k in PATTERNS)


def parse_pattern(pattern: Any) -> Offsets:
    """Return the offsets of one tile's pattern: a name or a sequence of (dr, dc)."""
    if isinstance(pattern, str):
        key = pattern.strip().lower()
        if key not in PATTERNS:
            raise ValueError(f"unknown pattern {pattern!r}: use one of {_allowed()}, "
                             "or a sequence of (dr, dc) offsets")
        return PATTERNS[key]
    try:
        items = list(pattern)
    except TypeError:
        raise ValueError(f"pattern must be a name ({_allowed()}) or a sequence of "
                         f"(dr, dc) offsets, got {type(pattern).__name__}") from None
    if len(items) > MAX_OFFSETS:
        raise ValueError(f"a pattern may have at most {MAX_OFFSETS} offsets, got {len(items)}")
    out = []
    for item in items:
        try:
            dr, dc = item
        except (TypeError, ValueError):
            raise ValueError(f"pattern offsets must be (dr, dc) pairs of ints, got {item!r}") from None
        dr_i, dc_i = _as_int(dr, item), _as_int(dc, item)
        if abs(dr_i) > MAX_REACH or abs(dc_i) > MAX_REACH:
            raise ValueError(f"pattern offset {item!r} reaches further than {MAX_REACH} tiles")
        out.append((dr_i, dc_i))
    return tuple(out)


def _as_int(v: Any, item: Any) -> int:
    if isinstance(v, bool):
        raise ValueError(f"pattern offsets must be (dr, dc) pairs of ints, got {item!r}")
    try:
        iv = int(v)
    except (TypeError, ValueError):
        raise ValueError(f"pattern offsets must be (dr, dc) pairs of ints, got {item!r}") from None
    if iv != v:
        raise ValueError(f"pattern offsets must be (dr, dc) pairs of ints, got {item!r}")
    return iv


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
    try:
        int(v)
        return not isinstance(v, (str, bytes)) and not hasattr(v, "__len__")
    except (TypeError, ValueError):
        return False


def parse_mixed(pattern: Sequence, rows: int, cols: int) -> list[list[Offsets]]:
    """Parse a (rows, cols) nested list of per-tile patterns."""
    outer = list(pattern)
    if len(outer) != rows:
        raise ValueError(f"a mixed pattern needs {rows} rows of {cols} entries, got {len(outer)} rows")
    grid = []
    cache: dict[Any, Offsets] = {}
    for r, row in enumerate(outer):
        if isinstance(row, str):
            raise ValueError(f"mixed pattern row {r} must be a list of {cols} patterns, got a string")
        row = list(row)
        if len(row) != cols:
            raise ValueError(f"mixed pattern row {r} has {len(row)} entries, the board has {cols} columns")
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
