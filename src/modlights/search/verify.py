"""The certificate checker: ``verify(cert)`` checks a certificate of docs/certificates.md
in exact arithmetic, or raises ValueError naming the first step that fails.

This module is meant to be audited on its own. It imports NumPy and the standard library
only, nothing of modlights: it reads the board from the certificate's dict and builds the
tap matrix A itself (:func:`_read_board`, with the board model's rules and messages), so
it shares no code with the board model, the engines, the C core or the solver whose
answers it checks.
Arithmetic is exact: Python ints and Fractions; NumPy int64 only on entries below n
(<= 255), sums of at most a few million of them, and products of two such entries, far
below 2^63 (each use says why it cannot overflow); float64 once, for products of
coefficient and generator matrices whose every partial sum is an integer below 2^53.

Outline (docs/certificates.md gives the format):

1. the board (from its dict), A in coordinate form, n and its prime powers q = p^e;
2. the kernel: every generator h_i lies in ker A, o_i is its additive order, and the
   generators generate all of ker A (the sizes of both groups by elimination mod q);
   then every solution of A y = b is x + sum c_i h_i with 0 <= c_i < o_i, each exactly
   once (the map c -> sum c_i h_i is onto ker A and both sides have prod(o_i) elements);
3. kind "minimal": x solves A x = b, sum(x) = L, and the proof shows every y in x + ker A
   has sum(y) >= L: by enumeration, or by a tree of pruned prefixes (a lower bound per
   pruned subtree) and leaves checked directly, up to symmetries of A and b;
4. kind "hardest": the witness is a "minimal" claim of length ``lower``, and an LP dual
   (weights over kernel elements, possibly one set per leaf of a branching over taps)
   bounds max_x min_c sum(x + c) by ``upper``.

Errors: ValueError for every certificate that does not hold or is malformed (wrong types,
lengths, ranges, unknown methods); ``FormatError`` (a ValueError) when the object is not
a modlights certificate of a known version and kind at all; ``WorkLimitError`` (a
ValueError, no verdict) when the check needs more work than ``max_work`` allows.

The work bound. A certificate declares how much checking it needs (an enumeration
walks prod(orders) coset elements of r taps), so an untrusted one could hold the
checker for days. Before the first expensive step, :func:`_plan` estimates every step
from the sizes the certificate declares, in work units: building the board and A; the
kernel checks (k generators read and applied, eliminations of A and of H, whose row
updates are estimated from A's profile once A is built, :func:`_plan_updates`); the
claim (an enumeration: the coset's elements through :class:`_Walk`; a tree: its pruned
prefixes, symmetries, and the leaves under no pruned prefix); the upper bound of a
hardest claim (kernel elements x taps, each LP leaf's weights). Past ``max_work`` the
check is refused (:class:`_Meter`). What shows only as it is done is metered: the
leaves a tree walks (the estimate takes one in symmetries + 1, as if the listed
symmetries mapped the others away), the row updates of the elimination of A, and the
limbs of LP weights; past the bound the check stops. A unit is about a nanosecond of
one core of the machine the constants were measured on: each constant (``_PY``,
``_CALL``, ``_ENTRY``, ``_COL``, ...) is the measured CPU time of its step per element
(the elements of a NumPy operation, the iterations of a loop), rounded up, fitted on
certificates of every kind by the workload ``verify-costs`` of bench/workloads/bounds.py,
which prints the CPU nanoseconds per unit of each (0.3 to 2 on a loaded 2-core machine,
0.5 to 1 for the enumerations and trees that dominate). ``MAX_WORK`` (10^9) is thus
about a second.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from math import lcm, prod
from typing import Any

import numpy as np

__all__ = ["verify", "summary", "estimate", "FormatError", "WorkLimitError", "MAX_WORK"]

FORMAT, VERSION = "modlights-certificate", 1

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


# ------------------------------------------------------------------ the matrix A
class _Matrix:
    """A of a board in coordinate form: entry (i, j) is the number of (ci, tj) pairs
    equal to (i, j), mod n. m cells x r taps."""

    def __init__(self, board: _Board):
        self.n, self.m, self.r = board.n, board.m, board.r
        self.ci, self.tj = board.coo()
        self._entries: tuple[np.ndarray, np.ndarray] | None = None

    def apply(self, x: np.ndarray) -> np.ndarray:
        """A x mod n for an int64 vector x of entries 0..n-1 (sums of at most
        len(coo) entries < 256: no overflow)."""
        acc = np.zeros(self.m, dtype=np.int64)
        np.add.at(acc, self.ci, x[self.tj])
        return acc % self.n

    def entries(
        self, cells: np.ndarray | None = None, taps: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The nonzero entries as (sorted keys i * r + j, values mod n), with rows and
        columns renamed by the permutations ``cells`` and ``taps`` when given (those of
        A itself are computed once)."""
        if cells is None and taps is None and self._entries is not None:
            return self._entries
        ci = self.ci if cells is None else cells[self.ci]
        tj = self.tj if taps is None else taps[self.tj]
        keys, counts = np.unique(ci * self.r + tj, return_counts=True)
        counts %= self.n
        keep = counts != 0
        out = keys[keep], counts[keep]
        if cells is None and taps is None:
            self._entries = out
        return out

    def profile(self) -> np.ndarray:
        """F (r,): F[j] = the number of rows whose first nonzero entry (mod n) is in a
        column <= j."""
        keys, _ = self.entries()
        rows = keys // max(1, self.r)
        _, at = np.unique(rows, return_index=True)
        return np.cumsum(np.bincount(keys[at] % max(1, self.r), minlength=self.r))

    def dense(self, q: int) -> np.ndarray:
        """A mod q as a uint8 (m, r) array."""
        keys, counts = self.entries()
        D = np.zeros(self.m * self.r, dtype=np.uint8)
        D[keys] = counts % q
        return D.reshape(self.m, self.r)


# ------------------------------------------------------------------ elimination mod p^e
def _eliminate(
    M: np.ndarray,
    p: int,
    e: int,
    Z: np.ndarray | None = None,
    spend: Callable[[int], None] | None = None,
) -> tuple[list[tuple[int, int, int]], np.ndarray, np.ndarray | None]:
    """Row-reduce M (a x b) over Z/p^e with pivots of least p-valuation (a local Smith
    form; row operations only), applying the same operations to Z (a x t).

    Level by level, v = 0 .. e-1: while every remaining entry is divisible by p^v, a
    remaining entry u p^v (u a unit) in column j clears column j in the other remaining
    rows (each entry there is a multiple of p^v); its row then leaves. Entries of a
    column passed over at level v stay multiples of p^(v+1) (only multiples of pivot
    rows, whose entries there are such multiples, are added), so one pass over the
    columns per level suffices. Column operations, which do not change the sizes below,
    would clear each pivot row too: the diagonal u_t p^(v_t) is a Smith form of M, so

        |{x : M x = 0}| = p^(e (b - s) + sum v_t)    (b columns, s pivots)
        |row span of M| = p^(sum (e - v_t)).

    Returns (pivots [(row, column, v)], M, Z) after elimination. Entries stay in
    0..q-1 (q <= 255): products below 2^16, no overflow in int64. ``spend(units)`` is
    told the work of each row update before it is done (the work bound's meter).
    """
    q = p**e
    M = np.array(M, dtype=np.int64) % q
    Z = None if Z is None else np.array(Z, dtype=np.int64) % q
    left = np.ones(M.shape[0], dtype=bool)
    pivots: list[tuple[int, int, int]] = []
    done = np.zeros(M.shape[1], dtype=bool)
    for v in range(e):
        pv = p**v
        for j in range(M.shape[1]):
            if done[j]:
                continue
            col = M[:, j]
            cand = np.flatnonzero(left & ((col // pv) % p != 0))
            if cand.size == 0:
                continue
            i = int(cand[0])
            inv = pow(int(M[i, j]) // pv, -1, q)
            rows = np.flatnonzero(left & (col != 0))
            rows = rows[rows != i]
            if rows.size:
                if spend is not None:
                    width = M.shape[1] + (0 if Z is None else Z.shape[1])
                    spend(rows.size * (_ROWS + width * _ROW))
                f = (M[rows, j] // pv) * inv % q
                M[rows] = (M[rows] - f[:, None] * M[i]) % q
                if Z is not None:
                    Z[rows] = (Z[rows] - f[:, None] * Z[i]) % q
            left[i] = False
            done[j] = True
            pivots.append((i, j, v))
    return pivots, M, Z


def _rank_gf2(D: np.ndarray, spend: Callable[[int], None] | None = None) -> int:
    """The rank of a 0/1 matrix over GF(2): the same elimination as :func:`_eliminate`
    for p^e = 2, on rows packed 64 columns a word (column j is bit j % 64 of word
    j // 64). Remaining rows are zero left of the current column, so a pivot row is
    added from its own word on. ``spend``: as in :func:`_eliminate`."""
    m, r = D.shape
    if m == 0 or r == 0:
        return 0
    packed = np.packbits(D.astype(np.uint8), axis=1, bitorder="little")
    pad = (-packed.shape[1]) % 8
    P = np.ascontiguousarray(np.pad(packed, ((0, 0), (0, pad)))).view("<u8")
    left = np.ones(m, dtype=bool)
    rank = 0
    one = np.uint64(1)
    for j in range(r):
        w = j >> 6
        has = ((P[:, w] >> np.uint64(j & 63)) & one).astype(bool) & left
        rows = np.flatnonzero(has)
        if rows.size == 0:
            continue
        i = rows[0]
        left[i] = False
        rank += 1
        if rows.size > 1:
            if spend is not None:
                spend((rows.size - 1) * (_ROWS + (P.shape[1] - w) * _WORD))
            P[rows[1:], w:] ^= P[i, w:]
    return rank


def _log_kernel(A: _Matrix, p: int, e: int, spend: Callable[[int], None] | None = None) -> int:
    """log_p |{x in (Z/p^e)^r : A x = 0}|."""
    if p**e == 2:
        return A.r - _rank_gf2(A.dense(2), spend)
    pivots, _, _ = _eliminate(A.dense(p**e), p, e, spend=spend)
    return e * (A.r - len(pivots)) + sum(v for _, _, v in pivots)


def _log_span(H: np.ndarray, p: int, e: int) -> int:
    """log_p of the size of the subgroup of (Z/p^e)^r the rows of H generate."""
    if H.shape[0] == 0:
        return 0
    pivots, _, _ = _eliminate(H % p**e, p, e)
    return sum(e - v for _, _, v in pivots)


def _solve(M: np.ndarray, Z: np.ndarray, p: int, e: int) -> np.ndarray | None:
    """X (b x t) with M X = Z mod p^e, or None when there is none.

    After :func:`_eliminate`, pivot t's row reads p^v u x_j + (multiples of p^v in the
    columns of later pivots and free columns) = z; rows without a pivot are zero and
    need z = 0. Free unknowns are set to 0 and pivots solved from the last one up:
    z minus the later terms must be a multiple of p^v (it is whenever any solution
    exists, every other term being one)."""
    q = p**e
    pivots, M, Zr = _eliminate(M, p, e, Z)
    assert Zr is not None  # Z given: it comes back reduced
    Z = Zr
    rows = np.ones(M.shape[0], dtype=bool)
    rows[[i for i, _, _ in pivots]] = False
    if Z[rows].any():
        return None
    X = np.zeros((M.shape[1], Z.shape[1]), dtype=np.int64)
    for i, j, v in reversed(pivots):
        R = (Z[i] - M[i] @ X) % q  # b terms < 2^16 each
        if (R % p**v).any():
            return None
        X[j] = (R // p**v) * pow(int(M[i, j]) // p**v, -1, q) % q
    return X


# ------------------------------------------------------------------ the kernel
class _Kernel:
    """Generators h_0..h_{k-1} (int64 (k, r)) of all of ker A with their orders, each
    kernel element exactly once as sum c_i h_i, 0 <= c_i < o_i (checked by
    :func:`_check_kernel`)."""

    def __init__(self, H: np.ndarray, orders: list[int], n: int):
        self.H, self.orders, self.n = H, orders, n
        self.k = len(orders)

    def coords(self, Z: np.ndarray) -> np.ndarray:
        """Coefficients c (t x k, c_i mod o_i) of the columns z of Z (r x t) in the
        generators: sum c_i h_i = z. ValueError for a z outside the kernel's span.

        Mod each prime power p^e of n the system H^T c = z is solved; c_i matters mod
        the p-part of o_i (the order of h_i mod p^e), and the residues are joined by
        the Chinese remainder theorem."""
        t = Z.shape[1]
        C: list[list[list[Any]]] = [[[] for _ in range(self.k)] for _ in range(t)]
        for p, e in _prime_powers(self.n):
            X = _solve(self.H.T, Z, p, e) if self.k else np.zeros((0, t), np.int64)
            if X is None or (self.k == 0 and (Z % p**e).any()):
                raise ValueError("a vector is not in the span of the kernel generators")
            for i, o in enumerate(self.orders):
                pp = 1
                while o % (pp * p) == 0:
                    pp *= p
                for s in range(t):
                    C[s][i].append((int(X[i, s]) % pp, pp))
        out = np.array(
            [[_crt(C[s][i]) for i in range(self.k)] for s in range(t)], dtype=np.int64
        ).reshape(t, self.k)
        if ((out @ self.H - Z.T) % self.n).any():  # k terms < 2^16 each
            raise ValueError("a vector is not in the span of the kernel generators")
        return out


def _check_kernel(kd: Any, A: _Matrix, what: str, meter: _Meter) -> _Kernel:
    """The kernel checks of docs/certificates.md: entries, A h_i = 0, orders, and
    |subgroup generated| = prod(o_i) = |ker A| for every prime power p^e || n.

    Why this suffices: ker A and the subgroup S the h_i generate split by the Chinese
    remainder theorem into their parts mod each p^e, so S = ker A when S is inside
    ker A (A h_i = 0) and both have the same size mod each p^e. Then c -> sum c_i h_i
    maps prod(Z/o_i) (well defined as o_i h_i = 0) onto ker A, and prod(o_i) = |ker A|
    makes it one to one."""
    n, r = A.n, A.r
    gens = _field(kd, "generators", what)
    orders = _field(kd, "orders", what)
    if not isinstance(gens, list) or not isinstance(orders, list):
        raise ValueError(f"{what}: generators and orders must be lists")
    if len(gens) != len(orders):
        raise ValueError(f"{what}: {len(gens)} generators but {len(orders)} orders")
    H = np.zeros((len(gens), r), dtype=np.int64)
    for i, g in enumerate(gens):
        H[i] = _ints(g, f"{what} generator {i}", r, 0, n - 1)
    orders = [_int(o, f"{what} order {i}", 1, n) for i, o in enumerate(orders)]
    for i, (h, o) in enumerate(zip(H, orders)):
        if A.apply(h).any():
            raise ValueError(
                f"{what} generator {i} is not in ker A (A h != 0 at cell "
                f"{int(np.flatnonzero(A.apply(h))[0])})"
            )
        # o is the additive order: o h = 0 and (o / p) h != 0 for each prime p | o
        if (
            n % o
            or ((o * h) % n).any()
            or any(not (((o // p) * h) % n).any() for p, _ in _prime_powers(o))
        ):
            raise ValueError(
                f"{what} order {i} is wrong: {o} is not the additive order of generator {i}"
            )
    for p, e in _prime_powers(n):
        ker = _log_kernel(A, p, e, meter.spender("kernel", f"eliminating A mod {p**e}"))
        span = _log_span(H, p, e)
        claimed = 0
        for o in orders:
            while o % p == 0:
                o, claimed = o // p, claimed + 1
        if span != claimed:
            raise ValueError(
                f"{what}: the generators generate {p}^{span} elements mod "
                f"{p**e}, the product of their orders has {p}^{claimed} "
                "(they are not independent)"
            )
        if ker != span:
            raise ValueError(
                f"{what} is incomplete: ker A has {p}^{ker} elements mod "
                f"{p**e}, the generators generate {p}^{span}"
            )
    return _Kernel(H, orders, n)


# ------------------------------------------------------------------ coset minima
def _wht(a: np.ndarray) -> np.ndarray:
    """F(c) = sum_u a_u (-1)^popcount(c & u) for c < 2^d (a of length 2^d). Every
    partial sum is bounded by sum |a_u| (here at most the number of taps), so the
    transform runs in int16 when that is below 2^15, else int32. Two bits at a time
    where it can (the 4-point transform of bits t, t+1: s0 + s1, d0 + d1, s0 - s1,
    d0 - d1 with s, d the sums and differences of the pairs), else one (a0 + a1,
    a0 - a1)."""
    a = a.astype(np.int16 if int(np.abs(a).sum()) < 1 << 15 else np.int32)
    h, N = 1, a.size
    while h < N:
        if 4 * h <= N:
            b = a.reshape(-1, 4, h)
            s0, d0 = b[:, 0] + b[:, 1], b[:, 0] - b[:, 1]
            s1, d1 = b[:, 2] + b[:, 3], b[:, 2] - b[:, 3]
            np.add(s0, s1, out=b[:, 0])
            np.add(d0, d1, out=b[:, 1])
            np.subtract(s0, s1, out=b[:, 2])
            np.subtract(d0, d1, out=b[:, 3])
            h *= 4
        else:
            b = a.reshape(-1, 2, h)
            x = b[:, 0].copy()
            b[:, 0] += b[:, 1]
            np.subtract(x, b[:, 1], out=b[:, 1])
            h *= 2
    return a


class _Walk:
    """min over c (0 <= c_i < o_i) of sum((y + sum c_i h_i) mod n), exactly, for
    many y and one set of generators (the set-up is done once).

    The first generators form an inner block enumerated at once, the rest an outer
    loop (each outer choice shifts y). n = 2: the inner block is read through a
    Walsh-Hadamard transform. With u_j the column of tap j over the inner generators,
    tap j of y + c.H is y_j xor parity(c & u_j), and y xor t = y + t (1 - 2y), so

        sum = |y| + sum_u w_u (1 - (-1)^popcount(c & u)) / 2 = |y| + (W - F(c)) / 2

    with w_u = sum over taps of column u of (1 - 2 y_j), W = sum w_u and F the
    transform of w: every c of the block at once. Otherwise the inner block's
    vectors (sum c_i h_i mod n, at most CHUNK_ENTRIES entries) are added to y."""

    def __init__(self, H: np.ndarray, orders: list[int], n: int, r: int):
        self.H, self.orders, self.n, self.r = H, orders, n, r
        k = len(orders)
        if n == 2:
            d = min(k, WHT_DIM)
        else:
            d, size = 0, 1
            while d < k and size * orders[d] * max(1, r) <= CHUNK_ENTRIES:
                size *= orders[d]
                d += 1
        self.d = d
        if n == 2:
            self.u = np.zeros(r, dtype=np.int64)
            for i in range(d):
                self.u |= H[i] << i
            self.size = np.bincount(self.u, minlength=1 << d)  # taps per column u
        elif r:
            low = np.zeros((1, r), dtype=np.int64)
            for i in range(d):  # all combinations of the inner block
                mult = np.arange(orders[i], dtype=np.int64)[:, None, None] * H[i]
                low = ((low[None, :, :] + mult) % n).reshape(-1, r)
            self.low = low

    def min(self, y: np.ndarray) -> int:
        n, d = self.n, self.d
        if self.r == 0:
            return 0
        best = None
        for cs in itertools.product(*[range(o) for o in self.orders[d:]]):
            z = y
            for c, h in zip(cs, self.H[d:]):
                if c:
                    z = (z + c * h) % n
            if n == 2:
                w = self.size - 2 * np.bincount(self.u[z == 1], minlength=1 << d)
                F = _wht(w)  # w: sums of 1 - 2 z_j
                val = int(z.sum()) + (int(w.sum()) - int(F.max())) // 2
            else:
                val = int(((self.low + z) % n).sum(axis=1).min())
            if best is None or val < best:
                best = val
        assert best is not None  # the product has at least the empty combination
        return best


def _coset_min(y: np.ndarray, H: np.ndarray, orders: list[int], n: int) -> int:
    """min over the coset y + span(H) of the length (see :class:`_Walk`)."""
    return _Walk(H, orders, n, y.size).min(y)


# ------------------------------------------------------------------ "minimal" claims
def _check_minimal(d: Any, what: str, A: _Matrix, kernel: _Kernel, meter: _Meter) -> str:
    """A "minimal" claim: x solves A x = b, sum(x) = L and the proof covers x + ker A.
    Returns a few words on the proof."""
    n, m, r = A.n, A.m, A.r
    b = _ints(_field(d, "rhs", what), f"{what}rhs", m, 0, n - 1)
    x = _ints(_field(d, "taps", what), f"{what}taps", r, 0, n - 1)
    L = _int(_field(d, "length", what), f"{what}length", 0)
    if int(x.sum()) != L:
        raise ValueError(f"{what}length {L} is not the sum of the taps ({int(x.sum())})")
    bad = np.flatnonzero((A.apply(x) - b) % n)
    if bad.size:
        raise ValueError(f"{what}taps do not solve the board: A x != rhs at cell {int(bad[0])}")
    proof = _field(d, "proof", what)
    method = _field(proof, "method", f"{what}proof")
    if isinstance(proof, dict) and "generators" in proof:
        # a proof may carry its own (reordered) generators: checked as a kernel
        kernel = _check_kernel(proof, A, f"{what}proof kernel", meter)
    if method == "enumeration":
        total = prod(kernel.orders)
        if L > 0:
            low = _coset_min(x, kernel.H, kernel.orders, n)
            if low < L:
                raise ValueError(
                    f"{what}enumeration: the coset has an element of length {low} < {L}"
                )
        return f"enumeration of {total} solutions"
    if method == "tree":
        return _check_tree(proof, f"{what}proof", x, b, L, A, kernel, meter)
    raise ValueError(f"{what}proof method {method!r} is unknown: use 'enumeration' or 'tree'"[:300])


def _groups(Hfree: np.ndarray) -> tuple[np.ndarray, int, int]:
    """Taps grouped by their column over the rows of Hfree: (group id per tap, number
    of groups, id of the zero column's group or -1)."""
    r = Hfree.shape[1]
    if Hfree.shape[0] == 0:
        return np.zeros(r, dtype=np.int64), 1, 0
    keys, gid = np.unique(Hfree.T, axis=0, return_inverse=True)
    zero = np.flatnonzero(~keys.any(axis=1))
    return gid.reshape(-1).astype(np.int64), keys.shape[0], int(zero[0]) if zero.size else -1


def _prefix_bound(y: np.ndarray, gid: np.ndarray, G: int, zero: int, n: int) -> int:
    """sum over groups of min over s of sum_{j in group} ((y_j + s) mod n), s = 0 for
    the zero column's group. cnt[g, v] counts taps of group g with y_j = v, and
    T[g, s] = sum_v cnt[g, v] ((v + s) mod n): entries <= r (n - 1), no overflow."""
    cnt = np.bincount(gid * n + y, minlength=G * n).reshape(G, n)
    vs = np.arange(n, dtype=np.int64)
    T = cnt @ ((vs[:, None] + vs[None, :]) % n)
    mins = T.min(axis=1)
    if zero >= 0:
        mins[zero] = T[zero, 0]
    return int(mins.sum())


def _check_tree(
    proof: dict,
    what: str,
    x: np.ndarray,
    b: np.ndarray,
    L: int,
    A: _Matrix,
    kernel: _Kernel,
    meter: _Meter,
) -> str:
    """A branch and bound proof (docs/certificates.md, method "tree").

    Coefficients are fixed from c_{k-1} down; a leaf fixes c_{k-1}..c_m (m =
    leaf_dim) and is the sub-coset y + span(h_0..h_{m-1}). Every leaf must be (a)
    under a pruned prefix whose bound, recomputed here, is >= L: every element below
    the prefix is y + (free part), and the free part adds the same value s to every
    tap of one group (taps with equal columns over the free generators), so each
    group costs at least its minimum over s; or (b) checked directly: its minimum is
    >= L; or (c) mapped by a listed symmetry onto a leaf smaller in the order
    (c_{k-1}, ..., c_m). (c) is sound by induction over that order: a least leaf
    with a minimum below L would be neither (a) nor (b), so (c) maps it to a smaller
    leaf with the same minimum, a contradiction."""
    n, k = A.n, kernel.k
    H, orders = kernel.H, kernel.orders
    m = _int(_field(proof, "leaf_dim", what), f"{what} leaf_dim", 0, k)
    depth = k - m
    pruned = proof.get("pruned", [])
    if not isinstance(pruned, list):
        raise ValueError(f"{what} pruned must be a list of prefixes")
    groups: dict[int, tuple[np.ndarray, int, int]] = {}
    pset = set()
    for idx, P in enumerate(pruned):
        if not isinstance(P, list) or len(P) > depth:
            raise ValueError(
                f"{what} pruned prefix {idx} must be a list of at most {depth} coefficients"
            )
        y = x.copy()
        for t, c in enumerate(P):
            i = k - 1 - t
            c = _int(c, f"{what} pruned prefix {idx} entry {t}", 0, orders[i] - 1)
            y = (y + c * H[i]) % n
        free = k - len(P)
        if free not in groups:
            groups[free] = _groups(H[:free])
        bound = _prefix_bound(y, *groups[free], n)
        if bound < L:
            raise ValueError(f"{what}: pruned prefix {P} has bound {bound} < length {L}")
        pset.add(tuple(P))
    syms = _symmetries(proof.get("symmetries", []), what, x, b, A, kernel, m)
    checked = skipped = 0
    if L == 0:  # every length is >= 0: nothing to walk
        return f"tree of {len(pset)} pruned prefixes (length 0)"
    walk = _Walk(H[:m], orders[:m], n, A.r)
    per_leaf = _cost_walk(orders[:m], n, A.r)[1]
    step = f"the leaves of a tree proof, each a walk of {prod(orders[:m])} elements"
    # depth-first over prefixes not pruned; y is x plus the fixed part
    stack: list[tuple[tuple, np.ndarray]] = [((), x)]
    while stack:
        P, y = stack.pop()
        if P in pset:
            continue
        if len(P) == depth:
            if syms and _lower_image(syms, P, orders, m):
                skipped += 1
                continue
            meter.spend(per_leaf, "tree leaves", step)
            low = walk.min(y)
            if low < L:
                raise ValueError(f"{what}: leaf {list(P)} has an element of length {low} < {L}")
            checked += 1
            continue
        i = k - 1 - len(P)
        for c in reversed(range(orders[i])):
            stack.append((P + (c,), (y + c * H[i]) % n if c else y))
    return (
        f"tree: {len(pset)} pruned prefixes, {checked} leaves checked, {skipped} "
        "mapped by symmetries"
    )


def _symmetries(
    spec: Any, what: str, x: np.ndarray, b: np.ndarray, A: _Matrix, kernel: _Kernel, m: int
) -> list[tuple]:
    """Checks each symmetry (sigma on cells, tau on taps) and returns, for each, how it
    acts on leaves: (d, T) with leaf coefficients c (i >= m) mapped to d + c T (mod o).

    With A[sigma i, tau j] = A[i, j] and b[sigma i] = b[i], the tap vector tau y
    ((tau y)[tau j] = y[j]) solves A (tau y) = b whenever A y = b, and has the same
    length: tau maps the coset onto itself. It is linear, so tau y - x = (tau x - x) +
    sum c_i tau(h_i), and with coordinates in the generators (unique, see
    :func:`_check_kernel`) the leaf of tau y is read off from those of tau x - x and of
    tau h_i (i >= m). tau maps span(h_0..h_{m-1}) into itself (the coordinates of
    tau h_i, i < m, vanish from m on), hence onto itself: the image of a leaf is a
    whole leaf. Each is returned as (d, T) (bit masks too: see :func:`_lower_image`)."""
    if not isinstance(spec, list):
        raise ValueError(f"{what} symmetries must be a list")
    n, k = A.n, kernel.k
    base = A.entries()
    out = []
    for s, sym in enumerate(spec):
        w = f"{what} symmetry {s}"
        cells = _ints(_field(sym, "cells", w), f"{w} cells", A.m, 0, A.m - 1)
        taps = _ints(_field(sym, "taps", w), f"{w} taps", A.r, 0, A.r - 1)
        if np.unique(cells).size != A.m or np.unique(taps).size != A.r:
            raise ValueError(f"{w} is not a pair of permutations")
        img = A.entries(cells, taps)
        if not (np.array_equal(img[0], base[0]) and np.array_equal(img[1], base[1])):
            raise ValueError(f"{w} is not an automorphism of A")
        if not np.array_equal(b[cells], b):
            raise ValueError(f"{w} does not preserve the rhs")

        def move(v: np.ndarray, taps: np.ndarray = taps) -> np.ndarray:
            out_v = np.empty_like(v)
            out_v[taps] = v
            return out_v

        Z = np.stack([(move(x) - x) % n] + [move(h) for h in kernel.H], axis=1)
        try:
            C = kernel.coords(Z)
        except ValueError:
            raise ValueError(f"{w} does not map the coset onto itself") from None
        if k and C[1 : m + 1, m:].any():
            raise ValueError(f"{w} does not map span(h_0..h_{m - 1}) into itself")
        d, T = C[0, m:], C[m + 1 :, m:]
        # the same as bit masks (bit j - m for coefficient j), used when all orders are 2
        mask = lambda row: sum(int(v & 1) << j for j, v in enumerate(row))  # noqa: E731
        out.append((mask(d), [mask(row) for row in T], (d, T)))
    return out


def _lower_image(syms: list, P: tuple, orders: list[int], m: int) -> bool:
    """Whether a symmetry maps leaf P = (c_{k-1}, ..., c_m) to a smaller leaf.

    A leaf maps to d + c T (mod the orders), c = (c_m, ..., c_{k-1}). When every order
    is 2 the leaf is read as the integer with bit i - m = c_i (its order is the
    lexicographic one) and the image is d xor the rows of T where c has a bit."""
    if all(o == 2 for o in orders[m:]):
        c = 0
        for v in P:
            c = (c << 1) | v
        for d, rows, _ in syms:
            img, bits, i = d, c, 0
            while bits:
                if bits & 1:
                    img ^= rows[i]
                bits >>= 1
                i += 1
            if img < c:
                return True
        return False
    cs = np.array(P[::-1], dtype=np.int64)  # c_m .. c_{k-1}
    mods = np.array(orders[m:], dtype=np.int64)
    for _, _, (d, T) in syms:
        img = (d + cs @ T) % mods  # k terms < 2^16
        if tuple(int(v) for v in img[::-1]) < P:
            return True
    return False


# ------------------------------------------------------------------ "hardest" claims
def _weights(spec: Any, what: str, count: int, meter: _Meter) -> tuple[int, dict[int, int]]:
    """Weights w_i >= 0 summing to 1, as a list (one per element) or {"i": w}:
    (D, {i: D w_i}) with D the least common denominator (so D w_i are integers)."""
    if isinstance(spec, list):
        if len(spec) != count:
            raise ValueError(f"{what} has {len(spec)} weights for {count} elements")
        items = list(enumerate(spec))
    elif isinstance(spec, dict):
        items = []
        for key, v in spec.items():
            if not (isinstance(key, str) and key.isdigit() and key.isascii()) or int(key) >= count:
                raise ValueError(f"{what}: {key!r} is not an element index (0..{count - 1})"[:300])
            items.append((int(key), v))
    else:
        raise ValueError(f"{what} must be a list or an object of weights")
    pairs = {}
    for i, v in items:
        num, den = _rational(v, f"{what} weight {i}")
        if num < 0:
            raise ValueError(f"{what}: weight {i} is negative ({v})"[:300])
        pairs[i] = (num, den)
    dens = {den for _, den in pairs.values()}
    bits = sum(den.bit_length() for den in dens)  # the lcm has at most these bits
    meter.spend(3 * (bits // 64 + 1) ** 2 * _WORD, "lp", "the LP weights' common denominator")
    D = lcm(*dens) if pairs else 1
    W = {i: num * (D // den) for i, (num, den) in pairs.items() if num}
    if sum(W.values()) != D:
        raise ValueError(f"{what}: the weights sum to {Fraction(sum(W.values()), D)}, not 1"[:300])
    return D, W


def _dual_bound(
    values: np.ndarray,
    weights: tuple[int, dict[int, int]],
    n: int,
    fixed: dict[int, int],
    meter: _Meter,
) -> Fraction:
    """sum over fixed taps j of sum_c w_c ((v_j + c_j) mod n) + sum over the other
    taps of max_v sum_c w_c ((v + c_j) mod n), exactly; ``values`` (E x r) holds the
    kernel elements c, ``weights`` is (D, {c: D w_c}) from :func:`_weights`.

    The integers W_c = D w_c are split into 30-bit limbs so that S[j, t] = sum over
    c with c_j = t of W_c is summed in int64 (fewer than 2^32 elements of a limb
    < 2^30 each), then joined as Python ints."""
    D, Wd = weights
    idx = sorted(Wd)
    W = [Wd[i] for i in idx]
    r = values.shape[1]
    bits = max(W, default=1).bit_length()
    limbs = max(1, -(-bits // LIMB))
    meter.spend(_cost_dual(len(W), r, n, limbs, bits), "lp", "the LP bounds of big weights")
    V = values[idx]  # (E', r) entries 0..n-1
    S = [[0] * n for _ in range(r)]
    step = max(1, CHUNK_ENTRIES // max(1, r))
    for lb in range(limbs):
        w = np.array([(x >> (LIMB * lb)) & ((1 << LIMB) - 1) for x in W], dtype=np.int64)
        for t in range(n):
            col = np.zeros(r, dtype=np.int64)
            for s in range(0, len(idx), step):
                col += w[s : s + step] @ (V[s : s + step] == t).astype(np.int64)
            for j in range(r):
                S[j][t] += int(col[j]) << (LIMB * lb)
    total = 0
    for j in range(r):
        sums = [sum(S[j][t] * ((v + t) % n) for t in range(n)) for v in range(n)]
        total += sums[fixed[j]] if j in fixed else max(sums)
    return Fraction(total, D)


def _elements(spec: Any, what: str, kernel: _Kernel) -> np.ndarray:
    """Kernel elements given by their coefficients: (E, r) uint8 of sum a_i h_i mod n.

    The products a H are taken in float64 (BLAS): every entry is a sum of k products
    of integers below 256, so below k 2^16 < 2^53, and float64 represents and adds
    such integers exactly."""
    k = kernel.k
    if not isinstance(spec, list) or not spec:
        raise ValueError(f"{what} elements must be a non-empty list of coefficient lists")
    for e_, row in enumerate(spec):
        if type(row) is not list or len(row) != k or not all(type(c) is int for c in row):
            raise ValueError(f"{what} element {e_} must be a list of {k} integers")
    a = np.array(spec, dtype=object).reshape(len(spec), k)
    hi = np.array([o - 1 for o in kernel.orders], dtype=object)
    bad = (a < 0) | (a > hi[None, :]) if k else np.zeros((len(spec), 0), bool)
    if bad.any():
        e_, i = (int(v) for v in np.argwhere(bad)[0])
        raise ValueError(
            f"{what} element {e_}: coefficient {i} is not in 0..{hi[i]} (below its order)"
        )
    a = a.astype(np.float64)
    r = kernel.H.shape[1]
    V = np.zeros((len(spec), r), dtype=np.uint8)
    Hf = kernel.H.astype(np.float64)
    step = max(1, CHUNK_ENTRIES // max(1, r))
    for s in range(0, len(spec), step):
        V[s : s + step] = (a[s : s + step] @ Hf).astype(np.int64) % kernel.n
    return V


def _check_upper(ub: Any, U: int, A: _Matrix, kernel: _Kernel, meter: _Meter) -> str:
    """The "upper_bound" of a hardest certificate: floor(bound) <= U.

    The hardest value is max_x min_c sum(x + c); for weights w_c >= 0 summing to 1,
    min_c sum(x + c) <= sum_c w_c sum(x + c) = sum_j sum_c w_c ((x_j + c_j) mod n),
    at most the bound of :func:`_dual_bound`; the value is an integer, so at most its
    floor. With "lp-tree", x ranges over the vectors with x_j = 0 on the pinned taps
    (every coset has such an element when ker A maps onto (Z/n)^pinned: the image is
    a submodule whose reduction mod each prime p of n is everything, hence everything
    by Nakayama's lemma, so rank mod p of the generators on those taps is enough), and
    the branching over taps covers every such x; each closed leaf bounds its x."""
    what = "upper_bound"
    n, r = A.n, A.r
    method = _field(ub, "method", what)
    V = _elements(_field(ub, "elements", what), what, kernel)
    if method == "lp-dual":
        w = _weights(_field(ub, "weights", what), "lp-dual", len(V), meter)
        B = _dual_bound(V, w, n, {}, meter)
        if B.numerator // B.denominator > U:
            raise ValueError(f"lp-dual: floor(bound) {B.numerator // B.denominator} > upper {U}")
        return (
            f"LP dual over {len(V)} kernel elements, bound {B} "
            f"(floor {B.numerator // B.denominator})"
        )
    if method != "lp-tree":
        raise ValueError(f"{what} method {method!r} is unknown: use 'lp-dual' or 'lp-tree'"[:300])
    pinned = _ints(_field(ub, "pinned", what), f"{what} pinned", None, 0, r - 1).tolist()
    if len(set(pinned)) != len(pinned):
        raise ValueError(f"{what}: pinned lists a tap twice")
    for p, _ in _prime_powers(n):
        rank = len(_eliminate(kernel.H[:, pinned] % p, p, 1)[0]) if pinned else 0
        if rank != len(pinned):
            raise ValueError(
                f"{what}: ker A does not map onto the pinned taps (rank "
                f"{rank} < {len(pinned)} mod {p})"
            )
    nodes = _field(ub, "nodes", what)
    if not isinstance(nodes, list):
        raise ValueError(f"{what} nodes must be a list")
    fixed = {j: 0 for j in pinned}
    stack: list[list[int]] = []  # [tap, value] along the path
    pos = leaves = 0
    worst = None
    while True:
        if pos >= len(nodes):
            raise ValueError(f"{what}: the tree ends early (after {pos} nodes)")
        node = nodes[pos]
        pos += 1
        if isinstance(node, dict) and "branch" in node:
            j = _int(node["branch"], f"{what} node {pos - 1} branch", 0, r - 1)
            if j in fixed:
                raise ValueError(f"{what} node {pos - 1} branches on tap {j}, already fixed")
            stack.append([j, 0])
            fixed[j] = 0
            continue
        w = _weights(
            _field(node, "weights", f"{what} node {pos - 1}"),
            f"{what} node {pos - 1}",
            len(V),
            meter,
        )
        B = _dual_bound(V, w, n, fixed, meter)
        fl = B.numerator // B.denominator
        if fl > U:
            raise ValueError(f"lp-tree: node {pos - 1} has floor(bound) {fl} > upper {U}")
        worst = fl if worst is None else max(worst, fl)
        leaves += 1
        while stack and stack[-1][1] == n - 1:
            del fixed[stack.pop()[0]]
        if not stack:
            break
        stack[-1][1] += 1
        fixed[stack[-1][0]] = stack[-1][1]
    if pos != len(nodes):
        raise ValueError(f"{what}: {len(nodes) - pos} nodes after the end of the tree")
    return f"LP tree of {leaves} closed leaves, largest bound {worst}"


# ------------------------------------------------------------------ the work bound
#: Work units a check may take unless told otherwise (``max_work``): about a second of
#: one core (see "The work bound" in the module docstring).
MAX_WORK = 10**9

# The cost of each step in work units, from the sizes it handles. A unit is about a
# nanosecond of one core of the machine the constants were measured on: each constant
# is the measured cost of its step per element, rounded up (bench/workloads/bounds.py,
# workload "verify-costs", times checks of every kind and prints seconds per unit).
_BASE = 300_000  # the steps of every check (a few hundred small calls)
_PY = 150  # a Python-level step: a JSON number read and checked, a loop over ints
_CALL = 3000  # a loop iteration that makes a few NumPy calls
_ENTRY = 2  # an int64 entry through one NumPy operation (add, mod, compare, ...)
_ADD_AT = 12  # an entry of np.add.at (A x) or of np.unique (the entries of A)
_COL = 6000  # a column of an elimination (its candidate scan), plus 3 _ENTRY a row
_ROWS = 60  # a row gathered and stored by a row update of an elimination
_ROW = 24  # an entry of such a row mod p^e (gather, scale, subtract, reduce, store)
_WORD = 16  # a 64-bit word of such a row over GF(2) (bit-packed, one XOR)
_FLOP = 1  # a float64 multiply-add of BLAS (kernel elements from coefficients)


class WorkLimitError(ValueError):
    """The check needs more work than ``max_work`` allows. Not a verdict on the
    certificate: checked with a larger ``max_work`` it may hold or not.

    ``need`` is the work the check needs (an estimate made from the sizes the
    certificate declares, or, for work that shows only as it is done, the work done so
    far: ``more`` is then True), ``max_work`` the bound, ``step`` the step that needs
    the most."""

    def __init__(self, need: int, max_work: int, step: str, *, more: bool = False):
        self.need, self.max_work, self.step, self.more = need, max_work, step, more
        super().__init__(
            self.explain(
                "max_work",
                "check it with a larger bound: ml.verify(cert, max_work=...) or "
                "'modlights verify FILE --max-work N'",
            )
        )

    def explain(self, bound: str, advice: str) -> str:
        """The message, the bound named ``bound`` (e.g. "--max-work") and ending
        with ``advice``."""
        about = "more than" if self.more else "about"
        return (
            f"the check needs {about} {_units(self.need)} work units (most of it: "
            f"{self.step}), past {bound} = {_units(self.max_work)} (10^9 units are about "
            f"a second); {advice}"
        )


def _units(u: int) -> str:
    """A count of units: plain below 10^6, else "4.65e15"."""
    if u < 10**6:
        return str(u)
    mant, exp = f"{u:.2e}".split("e")
    return f"{mant.rstrip('0').rstrip('.')}e{int(exp)}"


def _check_max_work(max_work: Any) -> int | None:
    """``max_work`` as an int (None: no bound); ValueError saying what is allowed."""
    if max_work is None:
        return None
    if isinstance(max_work, float) and max_work == max_work and max_work >= 0:
        return int(min(max_work, 2.0**62)) if max_work != float("inf") else None
    if isinstance(max_work, np.integer):
        max_work = int(max_work)
    if type(max_work) is not int or max_work < 0:
        raise ValueError(
            "max_work must be a number of work units >= 0 (10^9 is about a second) or "
            f"None for no bound, got {max_work!r}"[:200]
        )
    return max_work


class _Meter:
    """The work bound of one check. ``plan`` adds up the estimates of the steps to come,
    made from the sizes the certificate declares before the first expensive one, and
    refuses (WorkLimitError) past the bound; ``spend`` counts work whose amount shows
    only as it is done (the leaves a tree proof walks, the limbs of LP weights) against
    the estimate made for it under the same key, and what goes past that estimate
    against the bound."""

    def __init__(self, max_work: int | None):
        self.max = max_work
        self.need = 0
        self.left: dict[str, int] = {}

    def _over(self) -> bool:
        return self.max is not None and self.need > self.max

    def plan(self, items: list[tuple[int, str, str]]) -> None:
        """items: (units, key, description of the step)."""
        for units, key, _ in items:
            self.need += units
            self.left[key] = self.left.get(key, 0) + units
        if self._over():
            units, _, step = max(items, key=lambda t: t[0])
            assert self.max is not None
            raise WorkLimitError(self.need, self.max, step)

    def spender(self, key: str, step: str) -> Callable[[int], None]:
        """``spend`` for one key and step, as the eliminations take it."""
        return lambda units: self.spend(units, key, step)

    def spend(self, units: int, key: str, step: str) -> None:
        left = self.left.get(key, 0)
        if units <= left:
            self.left[key] = left - units
            return
        self.left[key] = 0
        self.need += units - left
        if self._over():
            assert self.max is not None
            raise WorkLimitError(self.need, self.max, step, more=True)


# --- what each step costs (next to nothing of the check itself: sizes only)
def _parts(n: int) -> list[tuple[int, int]]:
    return _prime_powers(n) if type(n) is int and 2 <= n <= 255 else []


def _cost_eliminate(a: int, b: int, e: int, t: int = 0) -> int:
    """:func:`_eliminate` of a dense a x b matrix mod p^e (and Z of t columns): a
    candidate scan per column and level, a row update per row and pivot."""
    return e * b * (_COL + 3 * a * _ENTRY) + min(a, b) * a * (_ROWS + (b + t) * _ROW)


def _cost_updates_of_A(A: _Matrix, k: int, p: int, e: int) -> int:
    """Eliminating A mod p^e (:func:`_log_kernel`), estimated from A's profile: after
    the columns before j, the rows still left are zero there (row operations only add
    rows that are), so the rows a pivot in column j updates have their first nonzero
    entry at j or before: F(j) of them, less the pivots before j, which are at least
    j - k when the k declared generators are all of ker A (the columns without a pivot
    at level 0 number dim ker(A mod p), at most k). Levels past 0 update at most the
    m - r + k rows without a level-0 pivot. Dense when A is not given. The elimination
    is metered: work past this estimate counts as it is done."""
    m, r = A.m, A.r
    if m == 0 or r == 0:
        return 0
    F = A.profile()
    j = np.arange(r, dtype=np.int64)
    rows = np.clip(F - np.maximum(0, j - k) - 1, 0, m)
    if p**e == 2:
        words = -(-r // 512) * 8  # 64-bit words of a packed row (whole bytes, padded)
        return int((rows * (_ROWS + (words - j // 64) * _WORD)).sum())
    later = k * min(m, max(0, m - r + k))  # rows updated at levels past 0
    return (int(rows.sum()) + later) * (_ROWS + r * _ROW)


def _cost_kernel(k: int, m: int, r: int, nnz: int, n: int) -> int:
    """:func:`_check_kernel` of k generators: reading them, A h_i and the order of each,
    the sizes of ker A and of their span mod every prime power of n; of eliminating A,
    the column scans and building the dense matrix (its row updates, which depend on
    A, are :func:`_cost_updates_of_A`)."""
    parts = _parts(n)
    units = k * r * _PY + k * (nnz * _ADD_AT + 4 * _CALL + r * _ENTRY * (4 + 2 * len(parts)))
    for _, e in parts:
        units += e * r * (_COL + 3 * m * _ENTRY) + 3 * m * r * _ENTRY  # A: scans, dense
        units += _cost_eliminate(k, r, e)
    return units


def _walk_shape(orders: list[int], n: int, r: int) -> tuple[int, int]:
    """(d, size): the generators :class:`_Walk` takes at once and the elements they
    span, as it chooses them."""
    k = len(orders)
    if n == 2:
        d = min(k, WHT_DIM)
        return d, 1 << d
    d, size = 0, 1
    while d < k and size * orders[d] * max(1, r) <= CHUNK_ENTRIES:
        size *= orders[d]
        d += 1
    return d, size


def _cost_walk(orders: list[int], n: int, r: int) -> tuple[int, int]:
    """(set-up, one ``min``) of :class:`_Walk`: for every choice of the outer
    generators, y shifted (r entries a generator) and the inner block read at once
    (a Walsh-Hadamard transform of 2^d entries when n = 2, else size x r entries)."""
    if r == 0:
        return 0, _PY
    k = len(orders)
    d, size = _walk_shape(orders, n, r)
    outer = prod(orders[d:])
    shift = (k - d) * r * 3 * _ENTRY
    if n == 2:
        setup = (d + 2) * r * _ENTRY + size * _ENTRY
        block = (6 + 4 * d) * _CALL + 2 * r * _ENTRY + 3 * (d + 4) * size * _ENTRY // 4
    else:
        setup = 2 * size * r * 3 * _ENTRY
        block = 2 * _CALL + size * r * 9 * _ENTRY
    return setup, outer * (shift + block)


def _orders_of(kd: Any, n: int) -> list[int] | None:
    """The orders a kernel (or proof) declares when they are ints in 1..n, else None
    (the check itself then stops on them before any work they would cost)."""
    orders = kd.get("orders") if isinstance(kd, dict) else None
    if not isinstance(orders, list) or not all(type(o) is int and 1 <= o <= n for o in orders):
        return None
    return orders


def _count(v: Any) -> int:
    return len(v) if isinstance(v, (list, dict)) else 0


def _cost_board(bd: Any) -> int:
    """Building the board from its dict: O(tiles), or O(effect entries)."""
    if not isinstance(bd, dict):
        return 0
    units = _PY * (_count(bd.get("locked")) + _count(bd.get("holes")))
    effects = bd.get("effects")
    if isinstance(effects, list):
        return units + _PY * (len(effects) + sum(_count(e) for e in effects))
    rows, cols = bd.get("rows"), bd.get("cols")
    if type(rows) is int and type(cols) is int and rows > 0 and cols > 0:
        per_tile = _PY if isinstance(bd.get("pattern"), list) else 8 * _ENTRY
        units += rows * cols * per_tile
    return units


def _leaves_left(pruned: Any, orders: list[int], m: int) -> tuple[int, int]:
    """(leaves of a tree proof under no pruned prefix, pruned prefixes read) for the
    prefixes that are lists of ints of at most k - m entries (others stop the check
    before its walk)."""
    k = len(orders)
    depth = k - m
    total = prod(orders[m:])
    if not isinstance(pruned, list):
        return total, 0
    ok = sorted(
        tuple(P)
        for P in pruned
        if isinstance(P, list) and len(P) <= depth and all(type(c) is int for c in P)
    )
    covered, top = 0, None
    for P in ok:  # sorted: a prefix comes before everything under it
        if top is not None and P[: len(top)] == top:
            continue
        top = P
        covered += prod(orders[m : k - len(P)])
    return max(0, total - covered), len(ok)


def _cost_tree(
    proof: dict, orders: list[int], L: int, board: _Board, nnz: int
) -> list[tuple[int, str, str]]:
    """The steps of :func:`_check_tree`: the pruned prefixes (each shifts y by its
    coefficients and bounds the groups of taps), the symmetries (each an automorphism
    check and the coordinates of k + 1 vectors), the leaves walked. Leaves mapped by a
    symmetry are not walked: the estimate takes one leaf in (symmetries + 1) as walked
    and the walk is metered."""
    n, m_cells, r = board.n, board.m, board.r
    k = len(orders)
    m = proof.get("leaf_dim")
    if type(m) is not int or not 0 <= m <= k:
        return []
    pruned = proof.get("pruned", [])
    left, n_pruned = _leaves_left(pruned, orders, m)
    fixed = sum(_count(P) for P in pruned) if isinstance(pruned, list) else 0
    frees = {k - _count(P) for P in pruned} if isinstance(pruned, list) else set()
    free = max(frees, default=0)
    groups = r if free * n.bit_length() > 62 else min(r, n**free)
    units = fixed * (4 * _CALL + r * 3 * _ENTRY) + n_pruned * (
        6 * _CALL + r * 2 * _ENTRY + groups * n * n * _ENTRY
    )
    units += sum(r * f * _ENTRY * (r.bit_length() + 1) for f in frees)
    items = [(units, "tree prefixes", f"{n_pruned} pruned prefixes of a tree proof")]
    syms = proof.get("symmetries", [])
    n_syms = _count(syms)
    cost_sym = 30 * _CALL + (m_cells + r) * _PY + 2 * nnz * _ADD_AT
    cost_sym += sum(
        _cost_eliminate(r, k, e, k + 1) + r * (k + 1) * k * 4 * _ENTRY for _, e in _parts(n)
    )
    cost_sym += (k + 1) * k * len(_parts(n)) * 4 * _PY
    items.append((n_syms * cost_sym, "tree symmetries", f"{n_syms} symmetries of a tree proof"))
    if L == 0 or not left:
        return items
    setup, per_leaf = _cost_walk(orders[:m], n, r)
    walked = left if not n_syms else -(-left // (n_syms + 1))
    bits = all(o == 2 for o in orders[m:])  # _lower_image on bit masks, else arrays
    lower = n_syms * ((k - m) * _PY if bits else _CALL // 2)
    nodes = 2 * left * (_PY * (k - m) + 2 * _CALL + r * 3 * _ENTRY)
    items.append(
        (
            setup + walked * per_leaf + left * lower + nodes,
            "tree leaves",
            f"{left} leaves of a tree proof, each a walk of {prod(orders[:m])} "
            f"elements of {r} taps",
        )
    )
    return items


def _cost_minimal(
    d: Any, what: str, board: _Board, nnz: int, orders: list[int] | None
) -> list[tuple[int, str, str]]:
    """The steps of :func:`_check_minimal` for claim ``d`` over a kernel of ``orders``."""
    n, m, r = board.n, board.m, board.r
    items = [((m + r) * _PY + 2 * nnz * _ADD_AT, "claim", f"the {what}claim's vectors")]
    proof = d.get("proof") if isinstance(d, dict) else None
    L = d.get("length") if isinstance(d, dict) else None
    if not isinstance(proof, dict) or type(L) is not int:
        return items
    if "generators" in proof:
        orders = _orders_of(proof, n)
        k = _count(proof.get("generators"))
        items.append((_cost_kernel(k, m, r, nnz, n), "kernel", f"the {what}proof's kernel"))
    if orders is None:
        return items
    if proof.get("method") == "enumeration" and L > 0:
        setup, walk = _cost_walk(orders, n, r)
        size = prod(orders)
        items.append(
            (
                setup + walk,
                "enumeration",
                f"an enumeration of {_size(size)} coset elements of {r} taps",
            )
        )
    elif proof.get("method") == "tree":
        items += _cost_tree(proof, orders, L, board, nnz)
    return items


def _size(v: int) -> str:
    """A count, as a power of two when it is one (2^45) or in short form."""
    if v > 1 << 20 and v & (v - 1) == 0:
        return f"2^{v.bit_length() - 1}"
    return _units(v)


def _cost_weights(spec: Any) -> tuple[int, int]:
    """(units, count) of :func:`_weights`: each weight parsed (its digits), the common
    denominator (bounded by the digits of the denominators)."""
    vals = spec if isinstance(spec, list) else list(spec.values()) if isinstance(spec, dict) else []
    digits = sum(len(v) for v in vals if isinstance(v, str))
    return len(vals) * 12 * _PY + digits * _PY, len(vals)


def _cost_dual(E: int, r: int, n: int, limbs: int, bits: int) -> int:
    """:func:`_dual_bound` over E weighted elements: per limb, n passes over E x r
    entries and a Python loop over r x n sums; then r x n^2 products of big ints."""
    big = bits // 64 + 1
    units = E * r * _ENTRY
    units += limbs * (E * (_PY + big) + n * (E * r * 3 * _ENTRY + r * 3 * _PY))
    return units + r * n * n * (2 * _PY + big * _ENTRY)


def _cost_upper(ub: Any, k: int, board: _Board) -> list[tuple[int, str, str]]:
    """The steps of :func:`_check_upper`: the kernel elements from their coefficients,
    the dual bound of each weighted leaf (one limb of weights in the estimate; the
    limbs are metered)."""
    if not isinstance(ub, dict):
        return []
    n, r = board.n, board.r
    E = _count(ub.get("elements"))
    units = E * k * 14 * _PY + E * k * r * _FLOP + E * r * 3 * _ENTRY
    items = [(units, "elements", f"{E} kernel elements of the upper bound")]
    if ub.get("method") == "lp-dual":
        w, count = _cost_weights(ub.get("weights"))
        items.append((w + _cost_dual(count, r, n, 1, 0), "lp", "the LP dual bound"))
    elif ub.get("method") == "lp-tree":
        pinned = _count(ub.get("pinned"))
        units = sum(_cost_eliminate(k, pinned, 1) for _ in _parts(n))
        nodes = ub.get("nodes")
        leaves = 0
        for node in nodes if isinstance(nodes, list) else []:
            units += _PY * 4
            if isinstance(node, dict) and "weights" in node:
                w, count = _cost_weights(node["weights"])
                units += w + _cost_dual(count, r, n, 1, 0)
                leaves += 1
        items.append((units, "lp", f"the LP bounds of {leaves} leaves of an LP tree"))
    return items


def _plan(cert: dict, board: _Board) -> list[tuple[int, str, str]]:
    """Every step of the check of ``cert`` with its estimated units, from the sizes
    the certificate declares (read leniently: a field the check will reject costs
    nothing past that point), but the row updates of eliminating A
    (:func:`_plan_updates`, which reads A)."""
    n, m, r = board.n, board.m, board.r
    nnz = board.nnz
    kd = cert.get("kernel")
    k = _count(kd.get("generators")) if isinstance(kd, dict) else 0
    orders = _orders_of(kd, n)
    what = f"the kernel checks ({k} generators, a {m} x {r} matrix mod {n})"
    items = [
        (_BASE, "base", "the check's fixed steps"),
        # the coordinate form and its sorted entries (A's profile)
        (nnz * (6 * _ADD_AT) + (m + r) * _ENTRY, "matrix", "the matrix A"),
        (_cost_kernel(k, m, r, nnz, n), "kernel", what),
    ]
    if cert.get("kind") == "minimal":
        return items + _cost_minimal(cert, "", board, nnz, orders)
    items += _cost_minimal(cert.get("witness"), "witness ", board, nnz, orders)
    return items + _cost_upper(cert.get("upper_bound"), k, board)


def _plan_updates(cert: dict, A: _Matrix) -> list[tuple[int, str, str]]:
    """The row updates of eliminating A for the kernel checks (the certificate's, and a
    proof's own), estimated from A's profile (:func:`_cost_updates_of_A`)."""
    claim = cert.get("witness") if cert.get("kind") == "hardest" else cert
    proof = claim.get("proof") if isinstance(claim, dict) else None
    kernels = [cert.get("kernel")]
    if isinstance(proof, dict) and "generators" in proof:
        kernels.append(proof)
    units = 0
    for kd in kernels:
        k = _count(kd.get("generators")) if isinstance(kd, dict) else 0
        units += sum(_cost_updates_of_A(A, k, p, e) for p, e in _parts(A.n))
    what = f"eliminating the {A.m} x {A.r} matrix A mod {A.n}"
    return [(units, "kernel", what)]


# ------------------------------------------------------------------ the entry points
def _check_format(cert: Any) -> None:
    """FormatError unless ``cert`` is a modlights certificate of a known version and kind."""
    if not isinstance(cert, dict):
        raise FormatError(f"a certificate is a JSON object, got {type(cert).__name__}")
    if cert.get("format") != FORMAT:
        raise FormatError(f"not a modlights certificate (format must be {FORMAT!r})")
    if cert.get("version") != VERSION:
        raise FormatError(
            f"unknown certificate version {cert.get('version')!r}: this "
            f"checker reads version {VERSION}"[:300]
        )
    kind = cert.get("kind")
    if kind not in ("minimal", "hardest"):
        raise FormatError(f"unknown certificate kind {kind!r}: use 'minimal' or 'hardest'"[:300])


def _board_and_plan(cert: Any, meter: _Meter) -> _Matrix:
    """A of the board of a certificate of a known format, each built once its cost is
    within the bound, and the estimate of the check planned (refused past the bound)
    before any step that costs more."""
    _check_format(cert)
    bd = _field(cert, "board", "certificate")
    meter.plan([(_cost_board(bd), "board", "building the board")])
    board = _read_board(bd)
    meter.plan(_plan(cert, board))
    A = _Matrix(board)
    meter.plan(_plan_updates(cert, A))
    return A


def _check(cert: Any, meter: _Meter) -> str:
    A = _board_and_plan(cert, meter)
    kind = cert["kind"]
    kernel = _check_kernel(_field(cert, "kernel", "certificate"), A, "kernel", meter)
    if kind == "minimal":
        how = _check_minimal(cert, "", A, kernel, meter)
        return f"no solution has fewer than {cert['length']} taps ({how})"
    lower = _int(_field(cert, "lower", "certificate"), "lower", 0)
    upper = _int(_field(cert, "upper", "certificate"), "upper", 0)
    if lower > upper:
        raise ValueError(f"lower {lower} > upper {upper}")
    witness = _field(cert, "witness", "certificate")
    how = _check_minimal(witness, "witness ", A, kernel, meter)
    if witness["length"] != lower:
        raise ValueError(f"the witness needs {witness['length']} taps, not lower = {lower}")
    up = _check_upper(_field(cert, "upper_bound", "certificate"), upper, A, kernel, meter)
    value = f"exactly {lower}" if lower == upper else f"between {lower} and {upper}"
    return f"the hardest board needs {value} taps (witness: {how}; upper: {up})"


def summary(cert: Any, *, max_work: Any = MAX_WORK) -> str:
    """Check ``cert`` as :func:`verify` does and say in one line what it proves."""
    return _guarded(_check, cert, _Meter(_check_max_work(max_work)))


def _guarded(fn: Any, cert: Any, meter: _Meter) -> Any:
    """fn(cert, meter), with the errors of malformed input made ValueErrors."""
    try:
        return fn(cert, meter)
    except ValueError:
        raise
    except (TypeError, KeyError, IndexError, AttributeError, OverflowError, ZeroDivisionError) as e:
        raise ValueError(f"malformed certificate: {type(e).__name__}: {e}"[:300]) from None


def estimate(cert: Any) -> int:
    """The work units checking ``cert`` would take by the estimate :func:`verify`
    compares with ``max_work`` (10^9 units are about a second of one core), without
    checking anything past the format and the board. Leaves mapped by symmetries and
    LP weights of more than 30 bits can make the check itself take more (it is
    metered: see :func:`verify`). ValueError (``FormatError``) as :func:`verify` for a
    document that is not a certificate or whose board is malformed.

    Examples
    --------
    >>> b = ml.Board.grid(4, 4, states=3)
    >>> cert = ml.Solver(b).solve(b.random_state(rng=1)).certificate()
    >>> from modlights.search.verify import MAX_WORK, estimate
    >>> 0 < estimate(cert) < MAX_WORK
    True
    """
    meter = _Meter(None)
    _guarded(_board_and_plan, cert, meter)
    return meter.need


def verify(cert: Any, *, max_work: Any = MAX_WORK) -> bool:
    """Check a certificate (a dict as ``sol.certificate()`` / ``h.certificate()`` make
    it, see docs/certificates.md) in exact arithmetic, within a bound on the work.

    Parameters
    ----------
    cert : dict
        The certificate (parsed JSON).
    max_work : int, float or None
        The most work units the check may take (default ``MAX_WORK`` = 10^9, about a
        second of one core; None: no bound). The work is estimated from the sizes the
        certificate declares (the board, the kernel, the coset an enumeration walks,
        the leaves and prefixes of a tree, the LP weights) before anything expensive
        is done; work that shows only as it is done (leaves a tree proof maps by
        symmetries, LP weights of many digits) is metered.

    Returns True when every step holds; raises ValueError naming the step that fails
    (``FormatError`` when ``cert`` is not a modlights certificate of a known version
    and kind), or ``WorkLimitError`` (a ValueError, no verdict on the certificate) when
    the check needs more than ``max_work``: refused before the expensive steps when
    the estimate says so, else as soon as the metered work passes the bound. Never
    another exception type for any JSON-like input.

    Complexity: the kernel checks eliminate A mod every prime power of n (O(min(m, r)
    m r) entry operations, GF(2) bit-packed); an enumeration walks every coset element
    (O(r) each, O(log) each with a Walsh-Hadamard transform when n = 2); a tree costs
    O(r) per pruned prefix and a walk per leaf checked; an LP dual O(E r n) for E
    weighted elements. :func:`estimate` gives the units.

    Examples
    --------
    >>> b = ml.Board.grid(4, 4, states=3)
    >>> cert = ml.Solver(b).solve(b.random_state(rng=1)).certificate()
    >>> ml.verify(cert)
    True
    >>> ml.verify(cert, max_work=1000)
    Traceback (most recent call last):
        ...
    modlights.search.verify.WorkLimitError: the check needs about ... work units ...
    >>> cert["length"] -= 1
    >>> ml.verify(cert)
    Traceback (most recent call last):
        ...
    ValueError: length 9 is not the sum of the taps (10)
    >>> ml.verify({"format": "something else"})
    Traceback (most recent call last):
        ...
    modlights.search.verify.FormatError: not a modlights certificate (format must be ...
    """
    summary(cert, max_work=max_work)
    return True
