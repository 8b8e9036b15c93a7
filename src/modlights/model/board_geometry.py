"""BoardGeometry: what a board is, before its tap matrix (the first layer of
:class:`modlights.model.board.Board`).

The stored geometry (kind, n, shape, wrap, patterns), the lock / hole / active /
tappable masks (built lazily: a uniform grid stores none), the per-tile limit of giant
boards, the cell and tap indices, the read-only properties and the position checks.
``Board`` (model/board.py) adds the constructors and identity on top of
:class:`modlights.model.board_matrix.BoardMatrix`, which adds the tap matrix, the state
and tap vectors and playing to this class. Every method here is one of ``Board``'s
(docs/reference/api.md documents them there).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from modlights.model.patterns import Offsets
from modlights.model.validation import as_int, as_int_pair

__all__ = ["BoardGeometry"]


def _lazy_mask(name: str, build: Any, doc: str) -> property:
    """A mask attribute built by ``build(board)`` on first access and kept (assigning
    sets it). Grids without locks or holes never build theirs on the solving path."""
    slot = "_mask_" + name

    def get(self: BoardGeometry) -> Any:
        d = self.__dict__
        if slot not in d:
            self._per_tile(f"the {name} mask")
            d[slot] = build(self)
        return d[slot]

    def put(self: BoardGeometry, value: Any) -> None:
        self.__dict__[slot] = value

    return property(get, put, doc=doc)


def _tappable_mask(b: BoardGeometry) -> np.ndarray:
    """Neither locked nor a hole (the active mask itself when nothing is locked)."""
    if not b._any_locked:
        return b._active
    if not b._any_holes:
        return ~b._locked
    return ~(b._locked | b._holes)


def _read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of a (no copy)."""
    v = a.view()
    v.flags.writeable = False
    return v


class BoardGeometry:
    """The geometry of a :class:`~modlights.model.board.Board`: its stored attributes,
    masks, indices, properties and positions (a Board is one; this class is never
    made by itself)."""

    # set by the constructors (grid / from_effects / from_matrix), read everywhere
    _kind: str  # "grid" or "graph"
    _n: int  # the states
    _shape: tuple[int, ...]  # (rows, cols) or (m,)
    _wrap: bool
    _pattern: Any  # the parsed offsets, None on mixed boards
    _mixed: Any  # per-tile offsets (mixed boards), else None
    _n_cells: int
    _n_taps: int
    _cells_cache: Any
    _taps_cache: Any
    _coo_cache: Any
    _c: Any  # the board's C board (Board._c)

    _dense: np.ndarray | None = None
    _effects: tuple | None = None
    _effect_lists: list | None = None
    #: from_effects boards: column j of A is coo()[0][_indptr[j]:_indptr[j + 1]]
    #: (coo() is int32 there, read as it is by Gf2Engine.from_csc)
    _indptr: np.ndarray | None = None
    #: whether some tile is locked / a hole (grids; graph boards have neither)
    _any_locked: bool = False
    _any_holes: bool = False
    #: a uniform grid of more than MAX_TILES tiles (see _per_tile)
    _giant: bool = False

    # Boolean masks shaped like the board. Grids store ``_locked`` / ``_holes`` only
    # when some tile is locked / a hole; everything else is derived on first access.
    _locked = _lazy_mask(
        "locked", lambda b: np.zeros(b._shape, dtype=bool), "Boolean mask of the locked tiles."
    )
    _holes = _lazy_mask(
        "holes", lambda b: np.zeros(b._shape, dtype=bool), "Boolean mask of the holes."
    )
    _active = _lazy_mask(
        "active",
        lambda b: ~b._holes if b._any_holes else np.ones(b._shape, dtype=bool),
        "Boolean mask of the active tiles (the rows of A).",
    )
    _tappable = _lazy_mask(
        "tappable",
        lambda b: _tappable_mask(b),
        "Boolean mask of the tappable tiles (the columns of A).",
    )

    # ------------------------------------------------------------------ indices
    def _per_tile(self, what: str, bytes_per_tile: int = 1) -> None:
        """ValueError for a giant board (a uniform grid over MAX_TILES tiles): ``what``
        would need ``bytes_per_tile`` bytes a tile (the C board's refusal,
        ML_M_GIANT_PER_TILE, saying how much and what to use instead)."""
        if self._giant:
            self._c.per_tile(what, bytes_per_tile)

    @property
    def _cells_flat(self) -> np.ndarray:
        """Flat (row-major) indices of the active tiles (int64), read on first use from
        the C board's cell positions (ml__board_cells)."""
        self._per_tile("the cell index", 8)
        if self._cells_cache is None:
            if not self._any_holes:
                self._cells_cache = np.arange(self._n_cells, dtype=np.int64)
            else:
                self._cells_cache = self._c.cell_flats()
        return self._cells_cache

    @property
    def _taps_flat(self) -> np.ndarray:
        """Flat (row-major) indices of the tappable tiles (int64), read on first use from
        the C board's tap positions (ml__board_taps)."""
        self._per_tile("the tap index", 8)
        if self._taps_cache is None:
            if self._kind == "grid" and not (self._any_holes or self._any_locked):
                self._taps_cache = np.arange(self._n_taps, dtype=np.int64)
            else:
                self._taps_cache = self._c.tap_flats()
        return self._taps_cache

    def _size(self) -> int:
        """Tiles of a grid (rows * cols), cells of a graph board."""
        return self._shape[0] * self._shape[1] if self._kind == "grid" else self._shape[0]

    def _cell_mask(self) -> np.ndarray | None:
        """Flat boolean mask of the cells, None when every tile is one."""
        return None if self._n_cells == self._size() else self._active.reshape(-1)

    def _tap_mask(self) -> np.ndarray | None:
        """Flat boolean mask of the taps (grids), None when every tile is one."""
        if self._kind != "grid" or self._n_taps == self._size():
            return None
        return self._tappable.reshape(-1)

    # ------------------------------------------------------------------ properties
    @property
    def states(self) -> int:
        """n: the number of states of every tile.

        Examples
        --------
        >>> ml.Board.grid(2, 2, states=5).states
        5
        """
        return self._n

    @property
    def shape(self) -> tuple[int, ...]:
        """(rows, cols) for grids, (n_cells,) for graph boards.

        Examples
        --------
        >>> ml.Board.grid(2, 3).shape
        (2, 3)
        >>> ml.Board.from_effects([[0], [1]], states=2).shape
        (2,)
        """
        return self._shape

    @property
    def is_grid(self) -> bool:
        """True for boards made by :meth:`grid`, False for graph boards."""
        return self._kind == "grid"

    @property
    def wrap(self) -> bool:
        """True when the board is a torus (patterns wrap around the edges)."""
        return self._wrap

    @property
    def pattern(self) -> Offsets | None:
        """The offsets of a uniform grid pattern (None for mixed and graph boards)."""
        return self._pattern

    @property
    def mixed(self) -> list[list[Offsets]] | None:
        """The per-tile offsets of a mixed board (None otherwise)."""
        return None if self._mixed is None else [list(r) for r in self._mixed]

    @property
    def effects(self) -> tuple[tuple[int, ...], ...] | None:
        """The effect lists of a graph board (None for grids)."""
        if self._kind != "graph":
            return None
        if self._effects is None and self._effect_lists is not None:
            self._effects = tuple(
                tuple(e.tolist() if isinstance(e, np.ndarray) else e) for e in self._effect_lists
            )
            self._effect_lists = None
        return self._effects

    @property
    def locked(self) -> np.ndarray:
        """Boolean mask of locked tiles (copy)."""
        self._per_tile("the locked mask")
        if self._kind == "grid" and not self._any_locked:
            return np.zeros(self._shape, dtype=bool)
        return self._locked.copy()

    @property
    def holes(self) -> np.ndarray:
        """Boolean mask of holes (copy)."""
        self._per_tile("the holes mask")
        if self._kind == "grid" and not self._any_holes:
            return np.zeros(self._shape, dtype=bool)
        return self._holes.copy()

    @property
    def any_locked(self) -> bool:
        """True when some tile is locked (O(1); no mask is built)."""
        return bool(self._kind == "grid" and self._any_locked)

    @property
    def any_holes(self) -> bool:
        """True when some tile is a hole (O(1); no mask is built)."""
        return bool(self._kind == "grid" and self._any_holes)

    @property
    def is_giant(self) -> bool:
        """True for a grid of more than MAX_TILES tiles (only structured engines take it)."""
        return bool(self._giant)

    @property
    def offsets(self) -> Offsets | None:
        """The offsets of a uniform grid pattern, as stored (no copy; None otherwise)."""
        return self._pattern

    @property
    def tile_offsets(self) -> list | None:
        """The per-tile offsets of a mixed board, as stored: nested lists indexed
        [row][col], for reading only (no copy, O(1); ``mixed`` gives a copy; None
        otherwise)."""
        return None if self._mixed is None else self._mixed

    @property
    def active_mask(self) -> np.ndarray:
        """Read-only (rows, cols) boolean view: tiles that are not holes (grids)."""
        return _read_only(self._active)

    @property
    def tappable_mask(self) -> np.ndarray:
        """Read-only (rows, cols) boolean view: tiles neither locked nor holes (grids)."""
        return _read_only(self._tappable)

    @property
    def locked_mask(self) -> np.ndarray:
        """Read-only (rows, cols) boolean view of the locked tiles (grids; no copy)."""
        return _read_only(self._locked)

    @property
    def holes_mask(self) -> np.ndarray:
        """Read-only (rows, cols) boolean view of the holes (grids; no copy)."""
        return _read_only(self._holes)

    def cell_mask(self) -> np.ndarray | None:
        """Flat boolean mask of the cells (read-only), None when every tile is one."""
        m = self._cell_mask()
        return None if m is None else _read_only(m)

    def tap_mask(self) -> np.ndarray | None:
        """Flat boolean mask of the taps (grids; read-only), None when every tile is one."""
        m = self._tap_mask()
        return None if m is None else _read_only(m)

    @property
    def n_cells(self) -> int:
        """Number of active tiles: the rows of A.

        Examples
        --------
        >>> ml.Board.grid(3, 3, holes=[(1, 1)]).n_cells
        8
        """
        return self._n_cells

    @property
    def n_taps(self) -> int:
        """Number of tappable tiles: the columns of A.

        Examples
        --------
        >>> ml.Board.grid(3, 3, locked=[(0, 0)], holes=[(1, 1)]).n_taps
        7
        """
        return self._n_taps

    @property
    def cells(self) -> list:
        """Active positions in row-major order: the rows of A.

        Examples
        --------
        >>> ml.Board.grid(2, 2, holes=[(0, 1)]).cells
        [(0, 0), (1, 0), (1, 1)]
        """
        return self._positions(self._cells_flat)

    @property
    def taps(self) -> list:
        """Tappable positions in row-major order: the columns of A.

        Examples
        --------
        >>> ml.Board.grid(2, 2, locked=[(0, 1)]).taps
        [(0, 0), (1, 0), (1, 1)]
        """
        return self._positions(self._taps_flat)

    def _positions(self, flat: np.ndarray) -> list:
        """The positions of flat indices: ints on graph boards, (row, col) on grids."""
        if self._kind == "graph":
            return flat.tolist()
        r, c = np.divmod(flat, self._shape[1])
        return list(zip(r.tolist(), c.tolist()))

    # ------------------------------------------------------------------ positions
    def _check_pos(self, pos: Any, what: str = "position") -> Any:
        if self._kind == "graph":
            return as_int(pos, f"{what} on a graph board", expected="an int index", floats=False)
        r, c = as_int_pair(pos, what)
        rows, cols = self._shape
        if not (0 <= r < rows and 0 <= c < cols):
            raise ValueError(
                f"{what} {(r, c)} is off the board: rows 0..{rows - 1}, cols 0..{cols - 1}"
            )
        return r, c

    def tap_index(self, pos: Any) -> int:
        """Column of A for the tap at ``pos``; ValueError for holes, locked tiles, off-board."""
        if self._kind == "graph":
            j = as_int(pos, "a tap on a graph board", expected="an int index", floats=False)
            if not 0 <= j < self.n_taps:
                raise ValueError(f"tap {j} out of range: taps are 0..{self.n_taps - 1}")
            return j
        r, c = self._check_pos(pos, "tap position")
        return int(self._c.tap_index(r, c))  # refuses holes and locked tiles

    def cell_index(self, pos: Any) -> int:
        """Row of A for the tile at ``pos``; ValueError for holes and off-board."""
        if self._kind == "graph":
            i = as_int(pos, "a cell on a graph board", expected="an int index", floats=False)
            if not 0 <= i < self.n_cells:
                raise ValueError(f"cell {i} out of range: cells are 0..{self.n_cells - 1}")
            return i
        r, c = self._check_pos(pos, "cell position")
        return int(self._c.cell_index(r, c))  # refuses holes
