"""The certificate checker, part one: reading its JSON data (integers, rationals, fields),
the numbers (prime powers, CRT) and the board, read from the certificate's dict with the
board model's rules and messages. Imports nothing of modlights (see the package's
docstring)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

FORMAT, VERSION = "modlights-certificate", 1
#: The certificate kinds this checker reads (docs/certificates.md).
KINDS = ("minimal", "hardest", "bounds")
#: The largest common denominator of covering weights (kind "bounds"): every column sum
#: of weights then stays far below 2^63 (at most 2^31 x the cells a tap changes).
COVER_DEN_MAX = 2**31

#: Coset elements one NumPy step of the enumeration handles (rows x taps <= this).
CHUNK_ENTRIES = 1 << 22
#: Largest Walsh-Hadamard transform taken at once (n = 2): 2^20 coefficients.
WHT_DIM = 20
#: Bits per limb when big integer weights are summed in int64 (sums of < 2^32 limbs
#: of < 2^30 each stay below 2^62).
LIMB = 30


class FormatError(ValueError):
    """Not a modlights certificate (format, version or kind unknown)."""


# ------------------------------------------------------------------ reading JSON data
def _int(v: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if type(v) is not int:  # bool is not accepted as an int
        raise ValueError(f"{what} must be an integer, got {type(v).__name__}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        allowed = f">= {lo}" if hi is None else f"in {lo}..{hi}"
        raise ValueError(f"{what} must be {allowed}, got {v}")
    return v


def _ints(v: Any, what: str, length: int | None, lo: int, hi: int) -> np.ndarray:
    """A list of ints in lo..hi as int64 (|entries| <= 2^62 checked first)."""
    if not isinstance(v, list):
        raise ValueError(f"{what} must be a list of integers, got {type(v).__name__}")
    if length is not None and len(v) != length:
        raise ValueError(f"{what} has {len(v)} entries, expected {length}")
    if not all(type(e) is int for e in v):
        bad = next(e for e in v if type(e) is not int)
        raise ValueError(f"{what} must hold integers only, found {type(bad).__name__}")
    for i, e in enumerate(v):
        if e < lo or e > hi:
            raise ValueError(f"{what}[{i}] = {e} is outside {lo}..{hi}")
    return np.array(v, dtype=np.int64).reshape(len(v))


_RATIONAL = re.compile(r"-?[0-9]{1,4000}(/[0-9]{1,4000})?")


def _rational(v: Any, what: str) -> tuple[int, int]:
    """A rational written "p/q" or "p" (or a JSON integer), as (p, q) with q > 0."""
    if type(v) is int:
        return v, 1
    if not isinstance(v, str) or not _RATIONAL.fullmatch(v):
        raise ValueError(f'{what} must be a rational written "p/q" or "p", got {v!r}'[:200])
    num, _, den = v.partition("/")
    if den and int(den) == 0:
        raise ValueError(f"{what} has denominator 0")
    return int(num), int(den) if den else 1


def _field(d: Any, key: str, what: str) -> Any:
    if not isinstance(d, dict):
        raise ValueError(f"{what} must be a JSON object, got {type(d).__name__}")
    if key not in d:
        raise ValueError(f"{what} has no field {key!r}")
    return d[key]


# ------------------------------------------------------------------ numbers
def _prime_powers(n: int) -> list[tuple[int, int]]:
    """[(p, e)] with n = prod p^e (trial division; n <= 255)."""
    out, p = [], 2
    while p * p <= n:
        if n % p == 0:
            e = 0
            while n % p == 0:
                n, e = n // p, e + 1
            out.append((p, e))
        p += 1
    if n > 1:
        out.append((n, 1))
    return out


def _crt(residues: list[tuple[int, int]]) -> int:
    """The x mod prod(m) with x = r mod m for every (r, m) (pairwise coprime m)."""
    x, mod = 0, 1
    for r, m in residues:
        t = ((r - x) * pow(mod, -1, m)) % m
        x, mod = x + mod * t, mod * m
    return x


# ------------------------------------------------------------------ the board
# The board of a certificate is read from its dict (the form of Board.to_dict, see
# docs/certificates.md) by the checker itself, with the rules and the messages of
# Board.from_dict but none of its code: the board model becomes a view of the solver's
# own C library, and the checker shares nothing with what it checks. The limits are the
# board model's, restated here.

#: Most tiles of a grid board (rows * cols); most taps, effect entries and cells of a
#: graph board.
_MAX_TILES = 1 << 27
#: Largest side of a grid board.
_MAX_SIDE = 1 << 20
#: Largest |dr| or |dc| of a pattern offset, and most offsets in one pattern.
_MAX_REACH, _MAX_OFFSETS = 1024, 4096
#: The named tap patterns: the (dr, dc) offsets a tap advances.
_PATTERNS = {
    "cross": ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)),
    "diagonal": ((0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)),
    "square": ((0, 0), (-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
    "horizontal": ((0, 0), (0, -1), (0, 1)),
    "vertical": ((0, 0), (-1, 0), (1, 0)),
    "knight": ((0, 0), (-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)),
}
_GRID_FIELDS = ("rows", "cols", "states", "pattern", "locked", "holes", "wrap")
_GRAPH_FIELDS = ("effects", "states", "n_cells")

_Offsets = tuple[tuple[int, int], ...]


class _Board:
    """A board as the checker reads it: n states, m cells, r taps, and A in coordinate
    form (:meth:`coo`). Grids: tiles row-major; cells are the tiles that are not holes,
    taps those neither holes nor locked (the orders of ``board.cell_vector`` and
    ``board.tap_vector``); tap (r, c) advances the tile (r + dr, c + dc) for each
    offset of its pattern (mod the sides on a torus; off the board or on a hole: no
    tile). Graph boards: tap j advances each cell ``effects[j]`` lists, once a time
    listed. ``nnz`` is the size of the coordinate form the estimate assumes (exact for
    graph boards, an upper bound for grids)."""

    def __init__(self, n: int, m: int, r: int, nnz: int):
        self.n, self.m, self.r, self.nnz = n, m, r, nnz
        # grids: the sides, wrap, the patterns (a palette; tiles: each tile's entry,
        # None when one pattern covers the board), the masks (None: no such tile)
        self.rows = self.cols = 0
        self.wrap = False
        self.palette: list[_Offsets] = []
        self.tiles: np.ndarray | None = None
        self.locked: np.ndarray | None = None
        self.holes: np.ndarray | None = None
        # graph boards: the cell of each effect entry and its tap
        self.effect_cells: np.ndarray | None = None
        self.effect_taps: np.ndarray | None = None

    def coo(self) -> tuple[np.ndarray, np.ndarray]:
        """(cells, taps): one entry per unit of effect, int64 (repeats add up).
        O(entries) time and memory, plus O(tiles) for grids."""
        if self.effect_cells is not None and self.effect_taps is not None:
            return self.effect_cells, self.effect_taps
        rows, cols, size = self.rows, self.cols, self.rows * self.cols
        cell_of = np.full(size, -1, dtype=np.int64)
        tappable = np.ones(size, dtype=bool)
        if self.holes is None:
            cell_of[:] = np.arange(size)
        else:
            cell_of[~self.holes.ravel()] = np.arange(self.m)
            tappable &= ~self.holes.ravel()
        if self.locked is not None:
            tappable &= ~self.locked.ravel()
        taps = np.flatnonzero(tappable)
        tr, tc = taps // cols, taps % cols
        which = None if self.tiles is None else self.tiles.ravel()[taps]
        ci_parts, tj_parts = [], []
        for p, offs in enumerate(self.palette):
            ids = np.arange(taps.size) if which is None else np.flatnonzero(which == p)
            for dr, dc in offs if ids.size else ():
                rr, cc = tr[ids] + dr, tc[ids] + dc
                if self.wrap:
                    ci, tj = cell_of[(rr % rows) * cols + cc % cols], ids
                else:
                    on = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
                    ci, tj = cell_of[rr[on] * cols + cc[on]], ids[on]
                ci_parts.append(ci[ci >= 0])
                tj_parts.append(tj[ci >= 0])
        if not ci_parts:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(ci_parts), np.concatenate(tj_parts).astype(np.int64)


def _short(v: Any) -> str:
    """repr of v on one line, cut to 60 characters."""
    text = repr(v).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _board_int(v: Any, what: str, lo: int, hi: int, expected: str) -> int:
    """An int field of a board dict in lo..hi (no bools, no floats)."""
    if isinstance(v, (bool, np.bool_)):
        raise ValueError(f"{what} must be {expected}, got a bool ({v!r})")
    if not isinstance(v, (int, np.integer)):
        raise ValueError(f"{what} must be {expected}, got {type(v).__name__} {_short(v)}")
    if not lo <= int(v) <= hi:
        raise ValueError(f"{what} must be from {lo} to {hi}, got {_short(int(v))}")
    return int(v)


def _in_field(what: str, e: ValueError) -> ValueError:
    """e's message prefixed by the field it is about, unless it names it already."""
    msg = str(e)
    return ValueError(msg if msg.startswith(what) else f"{what}: {msg}")


def _check_fields(d: Any, what: str, allowed: tuple, required: tuple) -> None:
    """d is a mapping with only allowed keys and every required one."""
    if not isinstance(d, Mapping):
        raise ValueError(f"{what} must be a dict (JSON object), got {type(d).__name__}")
    unknown = [k for k in d if k not in allowed]
    if unknown:
        raise ValueError(
            f"{what} has unknown field {unknown[0]!r}; allowed fields: " + ", ".join(allowed)
        )
    missing = [k for k in required if k not in d]
    if missing:
        other = "; a graph board has effects and states" if what == "board" else ""
        raise ValueError(
            f"{what} needs the field {missing[0]!r} (required: " + ", ".join(required) + other + ")"
        )


def _read_board(d: Any) -> _Board:
    """The board of a certificate from its dict: a grid ``{"rows", "cols", "states",
    "pattern", "locked", "holes", "wrap"}`` (pattern: a name, a list of [dr, dc]
    pairs, or a rows x cols nested list of those; locked / holes: [r, c] pairs or a
    nested list of booleans; defaults: 2 states, "cross", none, no wrap) or a graph
    board ``{"effects", "states", "n_cells"}``. ValueError naming the field (the
    messages of Board.from_dict). O(tiles + offsets), O(entries) for graph boards."""
    if isinstance(d, Mapping) and "effects" in d:
        return _read_graph(d)
    _check_fields(d, "board", _GRID_FIELDS, ("rows", "cols"))
    rows = _board_int(d["rows"], "rows", 1, _MAX_SIDE, "a positive int")
    cols = _board_int(d["cols"], "cols", 1, _MAX_SIDE, "a positive int")
    if rows * cols > _MAX_TILES:
        raise ValueError(
            f"board too large: {rows}x{cols} = {rows * cols} tiles, at most {_MAX_TILES} allowed"
        )
    n = _board_int(d.get("states", 2), "states", 2, 255, "an int from 2 to 255")
    wrap = d.get("wrap", False)
    if not isinstance(wrap, bool):
        raise ValueError(f"wrap must be true or false, got {wrap!r}")
    try:
        palette, tiles = _read_pattern(d.get("pattern", "cross"), rows, cols)
    except ValueError as e:
        raise _in_field("pattern", e) from None
    given = {}
    for what in ("locked", "holes"):
        try:
            given[what] = _read_positions(d.get(what), what, rows, cols)
        except ValueError as e:
            raise _in_field(what, e) from None
    locked = _mask_of(given["locked"], "locked", rows, cols)
    holes = _mask_of(given["holes"], "holes", rows, cols)
    if locked is not None and holes is not None and (locked & holes).any():
        r, c = map(int, np.argwhere(locked & holes)[0])
        raise ValueError(
            f"tile ({r}, {c}) is both locked and a hole; a tile may be one or the other"
        )
    n_holes = 0 if holes is None else int(np.count_nonzero(holes))
    n_locked = 0 if locked is None else int(np.count_nonzero(locked))
    m = rows * cols - n_holes
    r = m - n_locked
    b = _Board(n, m, r, r * max((len(o) for o in palette), default=0))
    b.rows, b.cols, b.wrap = rows, cols, wrap
    b.palette, b.tiles, b.locked, b.holes = palette, tiles, locked, holes
    return b


def _read_pattern(v: Any, rows: int, cols: int) -> tuple[list[_Offsets], np.ndarray | None]:
    """(palette, tiles) of the pattern field: one pattern (tiles None), or a mixed map
    (tiles: each tile's index in the palette of its distinct patterns)."""
    if isinstance(v, str):
        return [_offsets(v)], None
    if not isinstance(v, (list, tuple)):
        raise ValueError(
            "pattern must be a name, a list of [dr, dc] pairs or a "
            f"{rows}x{cols} nested list of those, got {type(v).__name__}"
        )
    if _is_mixed(v, rows, cols):
        for row in v:
            if not isinstance(row, (list, tuple)):
                raise ValueError(
                    f"a mixed pattern is {rows} lists of {cols} entries, "
                    f"got a {type(row).__name__} row"
                )
            for entry in row:
                _check_entry(entry)
        return _read_mixed(v, rows, cols)
    if (
        v
        and isinstance(v[0], (list, tuple))
        and any(isinstance(x, (str, list, tuple)) for x in v[0])
    ):
        raise ValueError(
            f"a mixed pattern must be {rows} lists of {cols} entries (names or "
            "lists of [dr, dc] pairs), one per tile"
        )
    _check_entry(v)
    return [_offsets(v)], None


def _items(v: Any) -> list | None:
    """The items of a list or tuple (a dict: its keys), else None."""
    return list(v) if isinstance(v, (list, tuple, dict)) else None


def _is_scalar(v: Any) -> bool:
    """Whether v reads as one integer (an offset's component, not a pattern)."""
    try:
        int(v)
        return not isinstance(v, (str, bytes)) and not hasattr(v, "__len__")
    except (TypeError, ValueError, OverflowError):
        return False


def _is_mixed(v: list | tuple, rows: int, cols: int) -> bool:
    """Whether the pattern list v is a rows x cols map of per-tile patterns: rows
    entries, the first a list of cols entries whose first is a name or a list of
    pairs (a list of pairs of ints is one pattern)."""
    if len(v) != rows or isinstance(v[0], str):
        return False
    inner = _items(v[0])
    if inner is None or len(inner) != cols:
        return False
    if isinstance(inner[0], str):
        return True
    sub = _items(inner[0])
    return sub is not None and (len(sub) == 0 or not _is_scalar(sub[0]))


def _check_entry(entry: Any) -> None:
    """One pattern's JSON: a name, or a list of [dr, dc] pairs of ints."""
    if isinstance(entry, str):
        return
    if not isinstance(entry, (list, tuple)):
        raise ValueError(f"a pattern is a name or a list of [dr, dc] pairs, got {entry!r}")
    for p in entry:
        if not (isinstance(p, (list, tuple)) and len(p) == 2 and all(map(_is_int, p))):
            raise ValueError(f"pattern offsets must be [dr, dc] pairs of ints, got {p!r}")


def _offsets(entry: str | list | tuple) -> _Offsets:
    """The offsets of a checked pattern entry: a name (any case, blanks around it
    ignored) or the pairs as listed (repeats kept)."""
    if isinstance(entry, str):
        key = entry.strip().lower()
        if key not in _PATTERNS:
            names = ", ".join(repr(k) for k in _PATTERNS)
            raise ValueError(
                f"unknown pattern {entry!r}: use one of {names}, or a sequence of (dr, dc) offsets"
            )
        return _PATTERNS[key]
    if len(entry) > _MAX_OFFSETS:
        raise ValueError(f"pattern has more than {_MAX_OFFSETS} items")
    out = []
    for dr, dc in entry:
        dr, dc = int(dr), int(dc)
        if abs(dr) > _MAX_REACH or abs(dc) > _MAX_REACH:
            raise ValueError(f"pattern offset {(dr, dc)} reaches further than {_MAX_REACH} tiles")
        out.append((dr, dc))
    return tuple(out)


def _read_mixed(v: list | tuple, rows: int, cols: int) -> tuple[list[_Offsets], np.ndarray]:
    """(palette, tiles) of a mixed map whose entries are checked (O(tiles + offsets))."""
    palette: list[_Offsets] = []
    index: dict[_Offsets, int] = {}
    named: dict[str, _Offsets] = {}
    tiles = np.zeros((rows, cols), dtype=np.int64)
    for r, row in enumerate(v):
        if len(row) != cols:
            raise ValueError(
                f"mixed pattern row {r} has {len(row)} entries, the board has {cols} columns"
            )
        for c, entry in enumerate(row):
            if isinstance(entry, str):
                if entry not in named:
                    named[entry] = _offsets(entry)
                offs = named[entry]
            else:
                offs = _offsets(entry)
            if offs not in index:
                index[offs] = len(palette)
                palette.append(offs)
            tiles[r, c] = index[offs]
    return palette, tiles


def _read_positions(v: Any, what: str, rows: int, cols: int) -> Any:
    """The locked / holes field: None, a bool array (from a rows x cols nested list of
    booleans), or the listed (r, c) pairs (not yet checked to be on the board)."""
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
        if not (isinstance(p, (list, tuple)) and len(p) == 2 and all(map(_is_int, p))):
            raise ValueError(f"{what} entries must be [row, col] pairs of ints, got {p!r}")
    return [(int(p[0]), int(p[1])) for p in v]


def _mask_of(given: Any, what: str, rows: int, cols: int) -> np.ndarray | None:
    """The (rows, cols) mask of what _read_positions read; None when no tile is marked.
    ValueError for a position off the board."""
    if given is None:
        return None
    if isinstance(given, np.ndarray):
        return given if given.any() else None
    if not given:
        return None
    mask = np.zeros((rows, cols), dtype=bool)
    for r, c in given:
        if not (0 <= r < rows and 0 <= c < cols):
            raise ValueError(
                f"{what} {(r, c)} is off the board: rows 0..{rows - 1}, cols 0..{cols - 1}"
            )
        mask[r, c] = True
    return mask


def _read_graph(d: Mapping) -> _Board:
    """A graph board from its dict; ValueError naming the field."""
    _check_fields(d, "graph board", _GRAPH_FIELDS, ("effects", "states"))
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
    if len(effects) > _MAX_TILES or total > _MAX_TILES:
        raise ValueError(
            f"graph board too large: {len(effects)} taps and {total} effect "
            f"entries, at most {_MAX_TILES} of each allowed"
        )
    n = _board_int(d["states"], "states", 2, 255, "an int from 2 to 255")
    n_cells = d.get("n_cells")
    if n_cells is not None and (not _is_int(n_cells) or not 0 <= n_cells <= _MAX_TILES):
        raise ValueError(f"n_cells must be an int from 0 to {_MAX_TILES}, got {n_cells!r}")
    try:
        cells = _effect_cells(effects)
        hi = int(cells.max()) + 1 if cells.size else 0
        if n_cells is None and hi > _MAX_TILES:
            raise ValueError(
                f"cell index {hi - 1} is too large: a board has at most {_MAX_TILES} cells"
            )
        m = hi if n_cells is None else int(n_cells)
        if cells.size and (int(cells.min()) < 0 or hi > m):
            bad = int(cells[(cells < 0) | (cells >= m)][0])
            raise ValueError(f"cell index {bad} out of range: cells are 0..{m - 1}")
    except ValueError as e:
        raise _in_field("effects", e) from None
    b = _Board(n, m, len(effects), int(cells.size))
    b.effect_cells = cells
    b.effect_taps = np.repeat(np.arange(len(effects), dtype=np.int64), [len(e) for e in effects])
    return b


def _is_int_type(k: type) -> bool:
    return issubclass(k, (int, np.integer)) and not issubclass(k, (bool, np.bool_))


def _effect_cells(effects: list | tuple) -> np.ndarray:
    """Every effect list's cells, concatenated (int64); ValueError for the first list
    with an entry that is not an int (bools included) or that is beyond 32 bits."""
    flat = list(itertools.chain.from_iterable(effects))
    if all(_is_int_type(k) for k in set(map(type, flat))):
        try:
            cells = np.array(flat, dtype=np.int64).reshape(len(flat))
        except OverflowError:  # beyond 64 bits: certainly out of range
            cells = None
        if cells is not None and (
            not cells.size or -(1 << 31) <= cells.min() <= cells.max() < 1 << 31
        ):
            return cells
    for j, e in enumerate(effects):  # the first list at fault
        bad = [c for c in e if not _is_int_type(type(c))]
        if bad:
            raise ValueError(f"effects[{j}] holds {bad[0]!r}; cell indices must be ints")
        if any(not -(1 << 31) <= int(c) < 1 << 31 for c in e):
            big = max(e, key=lambda c: abs(int(c)))
            raise ValueError(
                f"cell index {int(big)} out of range: a board has at most {_MAX_TILES} cells"
            )
    raise ValueError("effects must list cell indices")  # not reached: a list is at fault
