"""Board: the geometry of a puzzle and its tap matrix A.

A board lists its active tiles (holes left out), the rows of A, and its tappable
tiles (locked tiles left out), the columns of A. Column j of A is the effect of
tapping tap j. The matrix is built lazily: a Board itself stores only geometry, so
very large boards cost only their masks until a dense matrix is asked for. A grid
without locks (holes) stores no lock (hole) mask at all: ``_locked``, ``_holes``,
``_active`` and ``_tappable`` are built on first access, and the code on the solving
path asks ``_any_locked`` / ``_any_holes`` instead, so making a uniform grid
(``Board.grid(10000, 10000)``) takes O(1) time and memory.

Costs: the coordinate form (:meth:`Board.coo`) takes O(tiles x pattern size) time and
memory, the dense matrix (:meth:`Board.matrix`) O(n_cells x n_taps) bytes (refused
past ``MAX_DENSE`` entries); :meth:`Board.apply` on a uniform grid is O(tiles x
pattern size) with a few bytes of temporaries a tile. Every public method raises
ValueError (saying what is allowed) for bad input; none mutates its inputs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from modlights.model.patterns import (
    Offsets,
    is_mixed,
    parse_mixed,
    parse_pattern,
    read_pattern_once,
)
from modlights.model.validation import (
    MAX_DENSE,
    MAX_SIDE,
    MAX_TILES,
    as_int,
    as_int_array,
    as_int_pair,
    check_dim,
    check_states,
    in_range,
    take_items,
)

__all__ = ["Board", "MAX_TILES", "MAX_SIDE"]

#: an integer ndarray from any integer-like input (see :func:`validation.as_int_array`)
_as_int_array = as_int_array


def _reduce_mod(arr: np.ndarray, n: int) -> np.ndarray:
    """arr mod n as a new uint8 array (values 0..n-1), for any integer dtype, negatives
    too. Inputs already in range are only copied (one pass checks the range, one
    copies: no division); no int64 temporaries for fixed-width dtypes. O(size)."""
    if arr.dtype.kind == "O":
        return np.array([int(x) % n for x in arr.ravel()], dtype=np.uint8).reshape(arr.shape)
    if in_range(arr, n):
        return arr.astype(np.uint8)  # always a copy
    if arr.dtype.kind == "u":
        return (arr % arr.dtype.type(n)).astype(np.uint8, copy=False)
    if arr.dtype.itemsize == 1:  # int8 cannot hold n
        arr = arr.astype(np.int16)
    return np.mod(arr, arr.dtype.type(n)).astype(np.uint8)  # sign of the divisor: >= 0


#: Entries handled per step by the chunked uint8 kernels (a few hundred kB: the
#: temporaries stay in cache and never cost memory proportional to the board).
_CHUNK = 1 << 18


def _sub_mod(t: Any, s: np.ndarray, n: int, out: np.ndarray | None = None) -> np.ndarray:
    """(t - s) mod n as uint8; s: uint8 with values < n; t: an int in 0..n-1 or a
    uint8 array shaped like s with values < n. Written to ``out`` (a new array by
    default; ``out`` may be ``s`` itself). uint8 arithmetic in chunks: no temporaries
    wider than a byte, none larger than _CHUNK entries."""
    s = np.asarray(s)
    if out is None:
        out = np.empty(s.shape, dtype=np.uint8)
    scalar = not isinstance(t, np.ndarray)
    if scalar:
        t = np.uint8(t)
    if n == 2:
        return np.bitwise_xor(s, t, out=out)  # -s = s mod 2
    of, sf = out.reshape(-1), s.reshape(-1)
    tf = None if scalar else t.reshape(-1)
    un = np.uint8(n)
    tmp = np.empty(min(of.size, _CHUNK), dtype=np.uint8)
    for i in range(0, of.size, _CHUNK):
        o, sc = of[i : i + _CHUNK], sf[i : i + _CHUNK]
        tc = t if tf is None else tf[i : i + _CHUNK]
        w = tmp[: o.size]
        if n <= 128:
            # t - s wraps to 256 + t - s where s > t, which is >= 257 - n > n - 1:
            # the smaller of o and o + n (mod 256) is the residue in both cases
            np.subtract(tc, sc, out=o)
            np.add(o, un, out=w)
            np.minimum(o, w, out=o)
        else:  # the ranges overlap: compare
            m = np.greater(sc, tc, out=w.view(bool))
            np.subtract(tc, sc, out=o)
            np.add(o, un, out=o, where=m)
    return out


def _lazy_mask(name: str, build: Any, doc: str) -> property:
    """A mask attribute built by ``build(board)`` on first access and kept (assigning
    sets it). Grids without locks or holes never build theirs on the solving path."""
    slot = "_mask_" + name

    def get(self: Board) -> Any:
        d = self.__dict__
        if slot not in d:
            self._per_tile(f"the {name} mask")
            d[slot] = build(self)
        return d[slot]

    def put(self: Board, value: Any) -> None:
        self.__dict__[slot] = value

    return property(get, put, doc=doc)


def _tappable_mask(b: Board) -> np.ndarray:
    """Neither locked nor a hole (the active mask itself when nothing is locked)."""
    if not b._any_locked:
        return b._active
    if not b._any_holes:
        return ~b._locked
    return ~(b._locked | b._holes)


def _effect_cells(eff: list[list]) -> np.ndarray:
    """The cells of every tap's effect list, concatenated as int32 (every valid cell
    index fits: MAX_TILES < 2**31; half the bytes the packers read); ValueError naming
    the first entry that is not an int (bools, floats and strings are refused) or
    that does not fit. Lists of plain or NumPy ints are converted by NumPy in one
    pass, without a Python loop per cell; any other list is checked entry by entry.
    O(total effect entries)."""
    parts = []
    for j, e in enumerate(eff):
        if isinstance(e, np.ndarray):  # integers (from_effects keeps no others)
            if e.size and e.dtype.itemsize >= 4 and e.dtype != np.int32:  # no wrapping
                lo, hi = int(e.min()), int(e.max())
                if hi > MAX_TILES or lo < -MAX_TILES:
                    raise ValueError(
                        f"cell index {hi if hi > MAX_TILES else lo} out of "
                        f"range: a board has at most {MAX_TILES} cells"
                    )
            parts.append(e.astype(np.int32))
            continue
        kinds = set(map(type, e))
        if all(k is int or issubclass(k, np.integer) for k in kinds):
            try:
                parts.append(np.array(e, dtype=np.int32))
                continue
            except OverflowError:  # beyond int32: certainly out of range
                pass
        for c in e:
            if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)):
                raise ValueError(f"effects[{j}] holds {c!r}; cell indices must be ints")
        big = max(e, key=lambda c: abs(int(c)))
        raise ValueError(
            f"cell index {int(big)} out of range: a board has at most {MAX_TILES} cells"
        )
    return np.concatenate(parts) if parts else np.zeros(0, np.int32)


def _read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of a (no copy)."""
    v = a.view()
    v.flags.writeable = False
    return v


class Board:
    """A Lights Out board: tiles with ``states`` states and a tap pattern.

    Build one with :meth:`Board.grid` (rectangular boards, optionally a torus, with
    locks, holes and per-tile patterns), :meth:`Board.from_effects` (any graph) or
    :meth:`Board.from_matrix` (any tap matrix).

    Examples
    --------
    >>> b = ml.Board.grid(3, 3, states=3, pattern="cross")
    >>> b
    Board.grid(3, 3, states=3, pattern='cross')
    >>> b.shape, b.states, b.n_cells, b.n_taps
    ((3, 3), 3, 9, 9)
    """

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

    # ------------------------------------------------------------------ construction
    def __init__(self, *_args: Any, **_kw: Any) -> None:
        raise TypeError("use Board.grid(...) or Board.from_effects(...) to make a board")

    @classmethod
    def _new(cls) -> Board:
        return object.__new__(cls)

    @classmethod
    def grid(
        cls,
        rows: int,
        cols: int,
        states: int = 2,
        pattern: Any = "cross",
        *,
        locked: Any = None,
        holes: Any = None,
        wrap: bool = False,
    ) -> Board:
        """A rows x cols grid board.

        Parameters
        ----------
        rows, cols : int
            The sides, 1 to ``MAX_SIDE``, at most ``MAX_TILES`` tiles in all.
        states : int
            n, the states of every tile: 2 to 255.
        pattern : str or sequence of (int, int) or nested list
            A name from ``PATTERNS``, a sequence (or iterator, read once) of (dr, dc)
            offsets used exactly as given, or for a mixed board a (rows, cols) nested
            list of such entries, one per tile.
        locked, holes : array_like of bool or iterable of (int, int), optional
            Boolean (rows, cols) masks, or the (row, col) positions (any iterable,
            read once). Locked tiles are changed by taps but cannot be tapped; holes
            are not part of the board.
        wrap : bool
            The board is a torus; offsets that land on the same tile add up.

        Returns
        -------
        Board

        Raises
        ------
        ValueError
            For any argument outside what is described here (the message says what
            is allowed), a tile both locked and a hole, or a position off the board.

        Examples
        --------
        >>> b = ml.Board.grid(3, 4, states=3, pattern="cross", locked=[(0, 0)], holes=[(2, 3)])
        >>> b.shape, b.n_cells, b.n_taps
        ((3, 4), 11, 10)

        A custom pattern leaves the tapped tile alone when (0, 0) is not listed:

        >>> ml.Board.grid(1, 3, pattern=[(0, -1), (0, 1)]).matrix()
        array([[0, 1, 0],
               [1, 0, 1],
               [0, 1, 0]], dtype=uint8)

        A torus: offsets wrap around the edges.

        >>> ml.Board.grid(1, 3, pattern="horizontal", wrap=True).matrix()
        array([[1, 1, 1],
               [1, 1, 1],
               [1, 1, 1]], dtype=uint8)
        >>> ml.Board.grid(2, 2, states=256)
        Traceback (most recent call last):
            ...
        ValueError: states must be from 2 to 255, got 256
        """
        rows = check_dim("rows", rows)
        cols = check_dim("cols", cols)
        giant = rows * cols > MAX_TILES
        if giant and not (
            _no_tiles(locked) and _no_tiles(holes) and not is_mixed(pattern, rows, cols)
        ):
            raise ValueError(
                f"board too large: {rows}x{cols} = {rows * cols} tiles; more "
                f"than {MAX_TILES} tiles are allowed only for uniform boards "
                "(one pattern, no locked tiles or holes)"
            )
        n = check_states(states)
        b = cls._new()
        b._kind = "grid"
        b._n = n
        b._shape = (rows, cols)
        b._wrap = bool(wrap)
        pattern = read_pattern_once(pattern, rows, cols)
        if is_mixed(pattern, rows, cols):
            b._mixed = parse_mixed(pattern, rows, cols)
            b._pattern = None
        else:
            b._pattern = parse_pattern(pattern)
            b._mixed = None
        lock = b._mask(locked, "locked")
        hole = b._mask(holes, "holes")
        if lock is not None and hole is not None:
            both = lock & hole
            if both.any():
                r, c = map(int, np.argwhere(both)[0])
                raise ValueError(
                    f"tile ({r}, {c}) is both locked and a hole; a tile may be one or the other"
                )
        # Masks are kept only when some tile is locked / a hole (see _lazy_mask).
        b._any_locked = lock is not None
        b._any_holes = hole is not None
        b._giant = giant
        if lock is not None:
            b._locked = lock
        if hole is not None:
            b._holes = hole
        b._init_index()
        return b

    @classmethod
    def from_effects(
        cls, effects: Sequence[Iterable[int]], states: int, n_cells: int | None = None
    ) -> Board:
        """A graph board: tap j advances every cell listed in ``effects[j]`` by one
        (a cell listed k times advances k times).

        Parameters
        ----------
        effects : sequence of sequences of int
            ``effects[j]`` lists the cells tap j advances (iterators are read once).
        states : int
            n, 2 to 255.
        n_cells : int, optional
            The number of cells, 0..n_cells-1 (default: one more than the largest
            listed index).

        Returns
        -------
        Board

        Raises
        ------
        ValueError
            For ``states`` outside 2..255, more than ``MAX_TILES`` taps or cells, an
            entry that is not an int (bools, floats and strings included), or a cell
            index outside 0..n_cells-1.

        O(total effect entries) time and memory; the dense matrix is not built.

        Examples
        --------
        >>> effects = [[(i - 1) % 6, i, (i + 1) % 6] for i in range(6)]   # a cycle of 6
        >>> cycle = ml.Board.from_effects(effects, states=8)
        >>> cycle.shape, cycle.n_cells, cycle.n_taps
        ((6,), 6, 6)
        >>> cycle.matrix()[:, 0]
        array([1, 1, 0, 0, 0, 1], dtype=uint8)
        >>> ml.Board.from_effects([[0, 0]], states=3).matrix()
        array([[2]], dtype=uint8)
        """
        n = check_states(states)
        try:
            # integer arrays stay arrays (copied); anything else becomes a list
            eff = [
                e.copy()
                if isinstance(e, np.ndarray) and e.ndim == 1 and e.dtype.kind in "iu"
                else list(e)
                for e in take_items(effects, MAX_TILES, "effects (one list a tap)")
            ]
        except TypeError:
            raise ValueError("effects must be a sequence of lists of cell indices") from None
        flat = _effect_cells(eff)
        lengths = [len(e) for e in eff]
        tap_of = np.repeat(np.arange(len(eff), dtype=np.int32), lengths)
        hi = int(flat.max()) + 1 if flat.size else 0
        if n_cells is None:
            if hi > MAX_TILES:
                raise ValueError(
                    f"cell index {hi - 1} is too large: a board has at most {MAX_TILES} cells"
                )
            m = hi
        else:
            m = as_int(
                n_cells, "n_cells", 0, MAX_TILES, expected="a non-negative int", floats=False
            )
        if flat.size and (int(flat.min()) < 0 or hi > m):
            bad = int(flat[(flat < 0) | (flat >= m)][0])
            raise ValueError(f"cell index {bad} out of range: cells are 0..{m - 1}")
        b = cls._graph(n, m, len(eff))
        b._effect_lists = eff  # as tuples on first use of ``effects``
        b._coo_cache = (flat, tap_of)
        b._indptr = np.concatenate(([0], np.cumsum(lengths, dtype=np.int64)))  # CSC of A
        return b

    @classmethod
    def from_matrix(cls, matrix: Any, states: int) -> Board:
        """A graph board whose tap matrix is ``matrix``: entry (i, j) is how far tap j
        advances cell i. Handy for linear algebra on arbitrary matrices (rank,
        kernel, det, inverse...).

        Parameters
        ----------
        matrix : array_like of int
            n_cells x n_taps integers of any size (integral floats too), reduced
            exactly mod n.
        states : int
            n, 2 to 255.

        Returns
        -------
        Board

        Raises
        ------
        ValueError
            For ``states`` outside 2..255, a matrix that is not 2-D or not integral,
            or one of more than ``MAX_DENSE`` entries.

        O(n_cells x n_taps): the board keeps the reduced matrix (one byte an entry).

        Examples
        --------
        >>> b = ml.Board.from_matrix([[1, 2], [0, 3]], states=4)
        >>> b.matrix()
        array([[1, 2],
               [0, 3]], dtype=uint8)
        >>> ml.Solver(b).det()
        3
        """
        n = check_states(states)
        a = _as_int_array(matrix, "matrix")
        if a.ndim != 2:
            raise ValueError(f"matrix must be 2-D (n_cells x n_taps), got {a.ndim}-D")
        m, r = a.shape
        if m > MAX_TILES or r > MAX_TILES or m * r > MAX_DENSE:
            raise ValueError(f"matrix {m}x{r} is too large (at most {MAX_DENSE} entries)")
        b = cls._graph(n, m, r)
        b._dense = np.ascontiguousarray(_reduce_mod(a, n))
        return b

    @classmethod
    def _graph(cls, n: int, m: int, r: int) -> Board:
        """A graph board's common state: m cells, r taps, no locks, holes or wrap."""
        b = cls._new()
        b._kind = "graph"
        b._n = n
        b._shape = (m,)
        b._wrap = False
        b._pattern = None
        b._mixed = None
        b._effects = None
        # no lock, hole or active masks and no cell index until something asks (a
        # graph of 2^27 cells costs nothing to make)
        b._tappable = None
        b._cells_cache = None
        b._taps_cache = np.arange(r, dtype=np.int64)
        b._n_cells, b._n_taps = m, r
        b._coo_cache = None
        return b

    def _mask(self, spec: Any, what: str) -> np.ndarray | None:
        """A (rows, cols) boolean mask from a mask or positions; None when it marks
        no tile (so boards without locks / holes store nothing)."""
        mask = self._parse_mask(spec, what)
        if mask is None or not mask.any():
            return None
        return mask

    def _parse_mask(self, spec: Any, what: str) -> np.ndarray | None:
        rows, cols = self._shape
        if spec is None:
            return None
        if not isinstance(spec, (np.ndarray, list, tuple, set, frozenset)):
            # an iterator or any other iterable: read once (and at most a few
            # positions a tile), then looked at as a list
            spec = take_items(spec, 4 * rows * cols + 16, what)
        if isinstance(spec, np.ndarray) and spec.dtype == bool or _is_bool_nested(spec):
            arr = np.asarray(spec, dtype=bool)
            if arr.shape != (rows, cols):
                raise ValueError(f"{what} mask has shape {arr.shape}, the board is {(rows, cols)}")
            return np.array(arr, dtype=bool, order="C")  # a copy
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
            and cols != 2
            and arr.dtype.kind in "iu"
            and np.isin(arr, (0, 1)).all()
        ):
            return np.ascontiguousarray(arr.astype(bool))
        try:
            positions = [tuple(p) for p in spec]
        except TypeError:
            raise ValueError(
                f"{what} must be a boolean {rows}x{cols} mask or an iterable "
                "of (row, col) positions"
            ) from None
        if not positions:
            return None
        mask = np.zeros((rows, cols), dtype=bool)
        for p in positions:
            r, c = self._check_pos(p, what)
            mask[r, c] = True
        return mask

    def _init_index(self) -> None:
        rows, cols = self._shape
        # Counts now; the index arrays (8 bytes a tile) only when something needs them:
        # full boards are handled without them, which matters at 10^8 tiles.
        n_holes = int(np.count_nonzero(self._holes)) if self._any_holes else 0
        n_locked = int(np.count_nonzero(self._locked)) if self._any_locked else 0
        self._n_cells = rows * cols - n_holes
        self._n_taps = rows * cols - n_holes - n_locked  # locks and holes are disjoint
        self._cells_cache = None
        self._taps_cache = None
        self._coo_cache = None

    def _per_tile(self, what: str, bytes_per_tile: int = 1) -> None:
        """ValueError for a giant board (a uniform grid over MAX_TILES tiles): ``what``
        would need ``bytes_per_tile`` bytes a tile."""
        if self._giant:
            rows, cols = self._shape
            need = rows * cols * bytes_per_tile
            raise ValueError(
                f"{what} of this {rows}x{cols} board would need {need / 2**30:.1f} GiB "
                f"({bytes_per_tile} byte{'s' * (bytes_per_tile != 1)} a tile, "
                f"{rows * cols} tiles, more than MAX_TILES = {MAX_TILES}); a board this "
                "large is described by its shape and pattern alone: use Solver(board)"
                ".nullity / rank / kernel_size, or Solver(board).solve_packed with "
                "np.packbits(state, axis=1) states (n = 2: the cross family, left-right "
                "symmetric 3 x 3 patterns such as diagonal, and square, horizontal, "
                "vertical and other product patterns)"
            )

    @property
    def _cells_flat(self) -> np.ndarray:
        """Flat (row-major) indices of the active tiles, built on first use."""
        self._per_tile("the cell index", 8)
        if self._cells_cache is None:
            if not self._any_holes:
                self._cells_cache = np.arange(self._n_cells, dtype=np.int64)
            else:
                self._cells_cache = np.flatnonzero(self._active.ravel())
        return self._cells_cache

    @property
    def _taps_flat(self) -> np.ndarray:
        """Flat (row-major) indices of the tappable tiles, built on first use."""
        self._per_tile("the tap index", 8)
        if self._taps_cache is None:
            if self._kind == "grid" and not (self._any_holes or self._any_locked):
                self._taps_cache = np.arange(self._n_taps, dtype=np.int64)
            else:
                self._taps_cache = np.flatnonzero(self._tappable.ravel())
        return self._taps_cache

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
        if self._kind == "graph":
            return [int(i) for i in flat]
        cols = self._shape[1]
        return [(int(i) // cols, int(i) % cols) for i in flat]

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
        if self._any_holes and self._holes[r, c]:
            raise ValueError(f"cannot tap {(r, c)}: it is a hole")
        if self._any_locked and self._locked[r, c]:
            raise ValueError(f"cannot tap {(r, c)}: it is locked")
        flat = r * self._shape[1] + c
        if self._n_taps == self._shape[0] * self._shape[1]:  # every tile tappable
            return flat
        return int(np.searchsorted(self._taps_flat, flat))

    def cell_index(self, pos: Any) -> int:
        """Row of A for the tile at ``pos``; ValueError for holes and off-board."""
        if self._kind == "graph":
            i = as_int(pos, "a cell on a graph board", expected="an int index", floats=False)
            if not 0 <= i < self.n_cells:
                raise ValueError(f"cell {i} out of range: cells are 0..{self.n_cells - 1}")
            return i
        r, c = self._check_pos(pos, "cell position")
        if self._any_holes and self._holes[r, c]:
            raise ValueError(f"{(r, c)} is a hole, not a tile")
        flat = r * self._shape[1] + c
        if not self._any_holes:
            return flat
        return int(np.searchsorted(self._cells_flat, flat))

    # ------------------------------------------------------------------ the matrix
    def offsets_at(self, r: int, c: int) -> Offsets:
        """The pattern of the tile at (r, c)."""
        return self._mixed[r][c] if self._mixed is not None else self._pattern

    def coo(self) -> tuple[np.ndarray, np.ndarray]:
        """A in coordinate form: (cell_rows, tap_cols), one entry per unit of effect
        (repeated pairs add up). Cached. int64 arrays, int32 on from_effects boards
        (widen before arithmetic that can pass 2**31, such as ``ci * n_taps``)."""
        if self._coo_cache is None:
            self._per_tile("the coordinate form of A", 16 * len(self._pattern or ((0, 0),)))
            self._coo_cache = self._build_coo()
        return self._coo_cache

    def _build_coo(self) -> tuple[np.ndarray, np.ndarray]:
        if self._dense is not None:
            ci, tj = np.nonzero(self._dense)
            reps = self._dense[ci, tj].astype(np.int64)
            return np.repeat(ci, reps).astype(np.int64), np.repeat(tj, reps).astype(np.int64)
        rows, cols = self._shape
        cell_of = np.full(rows * cols, -1, dtype=np.int64)
        cell_of[self._cells_flat] = np.arange(self._cells_flat.size)
        tr_all = self._taps_flat // cols
        tc_all = self._taps_flat % cols
        tap_ids = np.arange(self._taps_flat.size, dtype=np.int64)
        groups: list[tuple[Offsets, np.ndarray]]
        if self._mixed is None:
            groups = [(self._pattern, tap_ids)]
        else:
            by: dict[Offsets, list[int]] = {}
            for j, (r, c) in enumerate(zip(tr_all.tolist(), tc_all.tolist())):
                by.setdefault(self._mixed[r][c], []).append(j)
            groups = [(k, np.asarray(v, dtype=np.int64)) for k, v in by.items()]
        ci_parts, tj_parts = [], []
        for offs, ids in groups:
            tr, tc = tr_all[ids], tc_all[ids]
            for dr, dc in offs:
                rr, cc = tr + dr, tc + dc
                if self._wrap:
                    rr, cc = rr % rows, cc % cols
                    keep = slice(None)
                else:
                    keep = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
                ci = cell_of[rr[keep] * cols + cc[keep]]
                tj = ids[keep]
                ok = ci >= 0
                ci_parts.append(ci[ok])
                tj_parts.append(tj[ok])
        if ci_parts:
            return np.concatenate(ci_parts), np.concatenate(tj_parts)
        return np.zeros(0, np.int64), np.zeros(0, np.int64)

    def matrix(self) -> np.ndarray:
        """A: the dense (n_cells x n_taps) uint8 tap matrix, entries mod n (a new array).

        O(n_cells x n_taps) bytes, plus 8 bytes an entry while it is summed from the
        coordinate form. ValueError past ``MAX_DENSE`` entries (the structured
        engines solve such boards without it).

        Examples
        --------
        >>> ml.Board.grid(2, 2, states=3).matrix()
        array([[1, 1, 1, 0],
               [1, 1, 0, 1],
               [1, 0, 1, 1],
               [0, 1, 1, 1]], dtype=uint8)
        """
        if self._dense is not None:
            return self._dense.copy()
        m, r = self.n_cells, self.n_taps
        if m * r > MAX_DENSE:
            raise ValueError(
                f"the dense matrix would have {m}x{r} entries, more than "
                f"{MAX_DENSE}; use the structured solvers for boards this large"
            )
        ci, tj = self.coo()
        acc = np.zeros(m * r, dtype=np.int64)
        if ci.size:
            np.add.at(acc, ci.astype(np.int64) * r + tj, 1)
        return np.mod(acc, self._n).astype(np.uint8).reshape(m, r)

    # ------------------------------------------------------------------ state conversion
    def coerce_state(self, state: Any, what: str = "state") -> np.ndarray:
        """A board-shaped uint8 array (values mod n, zero at holes) from any integer input."""
        self._per_tile(f"a byte {what}")
        arr = _as_int_array(state, what)
        if arr.shape != self._shape:
            raise ValueError(f"{what} has shape {arr.shape}, the board has shape {self._shape}")
        out = _reduce_mod(arr, self._n)
        if self._any_holes:
            out[self._holes] = 0
        return out

    def coerce_target(self, target: Any) -> np.ndarray:
        """A board-shaped target from an int (every tile) or a board-shaped array."""
        t = self._target_int(target)
        if t is not None:
            self._per_tile("a byte target")
            out = np.full(self._shape, t, dtype=np.uint8)
            if self._any_holes:
                out[self._holes] = 0
            return out
        return self.coerce_state(target, "target")

    def _target_int(self, target: Any) -> int | None:
        """target mod n when it is an int, None when it is an array (checked later)."""
        if isinstance(target, (bool, np.bool_)):
            raise ValueError("target must be an int or a board-shaped array, got a bool")
        if isinstance(target, (int, np.integer)):
            return int(target) % self._n
        if isinstance(target, np.ndarray) and target.ndim == 0:
            return self._target_int(target[()])  # a 0-d array: its scalar
        return None

    def _state_cells(self, state: Any, what: str = "state") -> np.ndarray:
        """The cell vector (uint8, values 0..n-1) of a board-shaped state, for reading
        only: a uint8 input already in range and without holes to drop is returned as
        a view (one pass, ``max() < n``); anything else goes through coerce_state."""
        self._per_tile(f"a byte {what}")
        arr = state if isinstance(state, np.ndarray) else None
        if (
            arr is not None
            and arr.dtype == np.uint8
            and arr.shape == self._shape
            and in_range(arr, self._n)
        ):
            return self.cell_vector(arr)
        return self.cell_vector(self.coerce_state(state, what))

    def _rhs_cells(self, state: Any, target: Any) -> np.ndarray:
        """t - s (mod n) over the cells, uint8: the right-hand side of A x = t - s.
        uint8 arithmetic only (see _sub_mod). Over GF(2) with target 0 it is s itself
        (-s = s): a read-only view, possibly of the caller's array; otherwise new."""
        t: int | np.ndarray | None = self._target_int(target)
        s = self._state_cells(state)
        if t is None:
            t = self._state_cells(target, "target")
        elif t == 0 and self._n == 2:
            v = s.view()
            v.flags.writeable = False
            return v
        return _sub_mod(t, s, self._n)

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

    def cell_vector(self, state: np.ndarray) -> np.ndarray:
        """Board-shaped array -> vector over the active tiles (the rows of A)."""
        flat = state.reshape(-1)
        mask = self._cell_mask()
        if mask is None:  # every tile is a cell
            return np.ascontiguousarray(flat)
        return flat[mask]  # a byte a tile, not 8

    def from_cell_vector(self, v: np.ndarray, copy: bool = True) -> np.ndarray:
        """Vector over the cells -> board-shaped uint8 (0 at holes). copy=False: may
        share memory with v (a uint8 vector when every tile is a cell)."""
        mask = self._cell_mask()
        if mask is None:
            v = np.array(v, dtype=np.uint8) if copy else np.asarray(v, dtype=np.uint8)
            return v.reshape(self._shape)
        out = np.zeros(mask.size, dtype=np.uint8)
        out[mask] = v
        return out.reshape(self._shape)

    def tap_vector(self, taps: Any) -> np.ndarray:
        """Tap counts (board-shaped for grids, (n_taps,) for graphs) -> vector mod n.
        Non-zero counts on locked tiles are an error; holes are ignored."""
        self._per_tile("a tap array")
        arr = _as_int_array(taps, "taps")
        if self._kind == "graph":
            if arr.shape != (self.n_taps,):
                raise ValueError(f"taps has shape {arr.shape}, the board has {self.n_taps} taps")
            return _reduce_mod(arr, self._n)
        if arr.shape != self._shape:
            raise ValueError(f"taps has shape {arr.shape}, the board has shape {self._shape}")
        red = _reduce_mod(arr, self._n)
        if self._any_locked:
            bad = red.astype(bool) & self._locked
            if bad.any():
                r, c = map(int, np.argwhere(bad)[0])
                raise ValueError(f"cannot tap {(r, c)}: it is locked")
        flat = red.reshape(-1)
        mask = self._tap_mask()
        return flat if mask is None else flat[mask]

    def from_tap_vector(self, x: np.ndarray, copy: bool = True) -> np.ndarray:
        """Vector over the taps -> tap counts shaped as in the API conventions.
        copy=False: the result may share memory with x (when x is uint8 and every tile
        is tappable), for callers that own x."""
        x = np.asarray(x, dtype=np.uint8)
        if self._kind == "graph":
            return x.copy() if copy else x
        mask = self._tap_mask()
        if mask is None:  # every tile tappable
            out: np.ndarray = x.reshape(self._shape)
            return out.copy() if copy else out
        out = np.zeros(mask.size, dtype=np.uint8)
        out[mask] = x
        return out.reshape(self._shape)

    def from_tap_vectors(self, X: np.ndarray) -> np.ndarray:
        """(k, n_taps) tap vectors -> (k, *shape) tap counts, without a Python loop."""
        X = np.asarray(X, dtype=np.uint8)
        if self._kind == "graph":
            return X.copy()
        mask = self._tap_mask()
        if mask is None:
            return X.reshape((X.shape[0],) + self._shape).copy()
        out = np.zeros((X.shape[0], mask.size), dtype=np.uint8)
        out[:, mask] = X
        return out.reshape((X.shape[0],) + self._shape)

    # ------------------------------------------------------------------ playing
    def apply_vector(self, x: np.ndarray) -> np.ndarray:
        """A x mod n as a vector over the cells (x a vector over the taps)."""
        self._per_tile("A x (a byte a tile)")
        if self._kind == "grid" and self._mixed is None and self._coo_cache is None:
            return self.cell_vector(self._stencil_apply(x))
        x = np.asarray(x, dtype=np.int64)
        if self._dense is not None:
            return (self._dense.astype(np.int64) @ x % self._n).astype(np.uint8)
        ci, tj = self.coo()
        if ci.size == 0:
            return np.zeros(self.n_cells, dtype=np.uint8)
        acc = np.bincount(ci, weights=x[tj], minlength=self.n_cells)
        return np.mod(acc.astype(np.int64), self._n).astype(np.uint8)

    def _stencil_apply(self, x: np.ndarray) -> np.ndarray:
        """A x for a uniform grid pattern as shifted adds of the tap grid: a few bytes
        a tile instead of the coordinate form (16 bytes per matrix entry)."""
        rows, cols = self._shape
        n = self._n
        x = np.asarray(x)
        if not (x.dtype == np.uint8 and in_range(x, n)):
            x = _reduce_mod(_as_int_array(x, "taps"), n)
        X = self.from_tap_vector(x, copy=False)  # zero at locks and holes
        offs = self._pattern
        top = len(offs) * (n - 1)  # largest sum before reduction
        # n = 2 adds by XOR (no overflow, no reduction); otherwise the narrowest
        # accumulator that holds the sum: uint8 for the named patterns up to n = 29
        dt = np.uint8 if n == 2 or top < 1 << 8 else np.uint16 if top < 1 << 16 else np.uint32
        add = np.bitwise_xor if n == 2 else np.add
        acc = np.zeros((rows, cols), dtype=dt)
        for dr, dc in offs:
            for tr, sr, tc, sc in _shift_blocks(dr, dc, rows, cols, self._wrap):
                add(acc[tr, tc], X[sr, sc], out=acc[tr, tc])
        if n != 2 and top >= n:
            acc %= dt(n)
        out = acc if dt == np.uint8 else acc.astype(np.uint8)
        if self._any_holes:
            out[self._holes] = 0
        return out

    def press(self, state: Any, pos: Any, times: int = 1) -> np.ndarray:
        """The state after tapping ``pos`` ``times`` times (the input is not modified).

        ``times`` is any int (reduced mod n). ValueError for a bad state, a position
        off the board, on a hole or on a locked tile. O(entries of A).

        Examples
        --------
        >>> b = ml.Board.grid(3, 3, states=3)
        >>> b.press(np.zeros((3, 3), dtype=int), (0, 0), times=2)
        array([[2, 2, 0],
               [2, 0, 0],
               [0, 0, 0]], dtype=uint8)
        >>> b.press(np.zeros((3, 3), dtype=int), (3, 0))
        Traceback (most recent call last):
            ...
        ValueError: tap position (3, 0) is off the board: rows 0..2, cols 0..2
        """
        s = self.coerce_state(state)
        j = self.tap_index(pos)
        times = as_int(times, "times", floats=False)
        x = np.zeros(self.n_taps, dtype=np.uint8)
        x[j] = times % self._n
        return self._add(s, x)

    def apply(self, state: Any, taps: Any) -> np.ndarray:
        """state + A taps (mod n), board-shaped uint8 (a new array).

        ``taps`` are tap counts shaped as in :meth:`from_tap_vector` (board-shaped for
        grids, (n_taps,) for graph boards), any integers. ValueError for a shape
        other than the board's, or a non-zero count on a locked tile. O(entries of A)
        time; on a uniform grid a few bytes of temporaries a tile.

        Examples
        --------
        >>> b = ml.Board.grid(2, 3, states=2)
        >>> taps = np.array([[1, 0, 0], [0, 0, 1]])
        >>> b.apply(np.zeros(b.shape, dtype=int), taps)
        array([[1, 1, 1],
               [1, 1, 1]], dtype=uint8)
        """
        s = self.coerce_state(state)
        x = self.tap_vector(taps)
        return self._add(s, x)

    def _add(self, s: np.ndarray, x: np.ndarray) -> np.ndarray:
        """s + A x (s coerced, x a tap vector mod n), board-shaped, uint8 throughout."""
        v = self.apply_vector(x)  # a new array: worked in place
        _sub_mod(0, v, self._n, out=v)  # -A x
        _sub_mod(self.cell_vector(s), v, self._n, out=v)  # s - (-A x)
        return self.from_cell_vector(v, copy=False)

    def affected(self, pos: Any) -> list:
        """Positions a tap at ``pos`` changes (with repeats where a tile advances twice),
        sorted row-major. Builds (and caches) the coordinate form of A."""
        j = self.tap_index(pos)
        ci, tj = self.coo()
        cells = ci[tj == j]
        return self._positions(np.sort(self._cells_flat[cells]))

    def random_state(self, rng: Any = None, solvable: bool = True) -> np.ndarray:
        """A random board-shaped state; with ``solvable=True`` one that can be solved
        to all zeros (it is -A x for uniformly random tap counts x).

        rng: anything ``numpy.random.default_rng`` takes (None for fresh entropy, an
        int seed, a Generator); ValueError for anything else. O(entries of A).

        Examples
        --------
        >>> b = ml.Board.grid(3, 3, states=3)
        >>> state = b.random_state(rng=1)
        >>> state
        array([[1, 0, 2],
               [1, 1, 1],
               [1, 2, 2]], dtype=uint8)
        >>> ml.Solver(b).solvable(state)
        True
        """
        self._per_tile("a random byte state")
        try:
            gen = np.random.default_rng(rng)
        except (TypeError, ValueError) as e:
            raise ValueError(
                f"rng must be None, a non-negative int seed or a NumPy Generator: {e}"
            ) from None
        if solvable:
            x = gen.integers(0, self._n, size=self.n_taps, dtype=np.uint8)
            if self._kind == "grid" and self._mixed is None and self._coo_cache is None:
                # a byte a tile: the tap vector, the stencil sum, negated in place
                g = self._stencil_apply(x)  # new, zero at holes
                del x
                return _sub_mod(0, g, self._n, out=g)  # -A x
            v = self.apply_vector(x)  # new
            return self.from_cell_vector(_sub_mod(0, v, self._n, out=v), copy=False)
        v = gen.integers(0, self._n, size=self.n_cells, dtype=np.uint8)
        return self.from_cell_vector(v)

    # ------------------------------------------------------------------ data
    def to_dict(self) -> dict:
        """The board as JSON-safe data (lists, ints, strings, bools).

        Grids: ``{"rows", "cols", "states", "pattern", "locked", "holes", "wrap"}``;
        ``pattern`` is a name, a list of ``[dr, dc]`` pairs, or for mixed boards a
        rows x cols nested list of those; ``locked`` / ``holes`` list ``[r, c]``.
        Graph boards: ``{"effects", "states", "n_cells"}`` (boards from
        :meth:`from_matrix` list cell i ``A[i, j]`` times in ``effects[j]``).
        ``Board.from_dict(b.to_dict()) == b``.

        Examples
        --------
        >>> from pprint import pprint
        >>> pprint(ml.Board.grid(2, 3, states=3, locked=[(0, 0)]).to_dict())
        {'cols': 3,
         'holes': [],
         'locked': [[0, 0]],
         'pattern': 'cross',
         'rows': 2,
         'states': 3,
         'wrap': False}
        >>> ml.Board.from_effects([[0, 1], [1]], states=2).to_dict()
        {'effects': [[0, 1], [1]], 'states': 2, 'n_cells': 2}
        """
        from modlights.model.board_dict import board_to_dict

        return board_to_dict(self)

    @classmethod
    def from_dict(cls, d: Any, *, max_tiles: int | None = None) -> Board:
        """The board described by ``d`` (as :meth:`to_dict` writes it; ``locked`` and
        ``holes`` may also be boolean nested masks; ``states`` defaults to 2,
        ``pattern`` to "cross"). ValueError naming the field for anything else, and
        for boards over ``max_tiles`` tiles (default: what :meth:`grid` allows),
        checked before anything is built.

        Examples
        --------
        >>> b = ml.Board.grid(2, 3, states=3, locked=[(0, 0)])
        >>> ml.Board.from_dict(b.to_dict()) == b
        True
        >>> ml.Board.from_dict({"rows": 2, "cols": 2, "states": 300})
        Traceback (most recent call last):
            ...
        ValueError: states must be from 2 to 255, got 300
        """
        from modlights.model.board_dict import board_from_dict

        return board_from_dict(cls, d, max_tiles=max_tiles)

    # ------------------------------------------------------------------ pictures
    def to_svg(
        self,
        state: Any = None,
        *,
        taps: Any = None,
        numbers: bool = False,
        tile: float | None = None,
        title: str | None = None,
    ) -> str:
        """An SVG picture of the board in ``state`` (all 0 by default) with ``taps``
        marked, numbers on the tiles when asked. See :func:`modlights.model.render.to_svg`.

        Examples
        --------
        >>> b = ml.Board.grid(2, 2, states=3)
        >>> svg = b.to_svg(np.array([[1, 2], [0, 1]]), taps=np.array([[1, 0], [0, 0]]))
        >>> svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
        True
        """
        from modlights.model.render import to_svg

        return to_svg(self, state, taps=taps, numbers=numbers, tile=tile, title=title)

    def to_png(
        self, state: Any = None, *, taps: Any = None, path: Any = None, scale: int = 1
    ) -> bytes | None:
        """A PNG, one pixel a tile (needs Pillow: ``pip install "modlights[png]"``).
        See :func:`modlights.model.render.to_png`."""
        from modlights.model.render import to_png

        return to_png(self, state, taps=taps, path=path, scale=scale)

    def _repr_svg_(self) -> str | None:
        from modlights.model.render import repr_svg

        return repr_svg(self)

    # ------------------------------------------------------------------ identity
    def _key(self) -> tuple:
        if self._kind == "graph":
            # the tap matrix itself, as sorted (flat index, entry mod n) pairs: a
            # from_matrix board equals the from_effects board listing the same units
            # (as Board.from_dict(b.to_dict()) builds it)
            m, r = self._n_cells, self._n_taps
            if self._dense is not None:
                flat = np.flatnonzero(self._dense)
                vals = self._dense.reshape(-1)[flat]
            else:
                ci, tj = self.coo()
                flat, counts = np.unique(ci.astype(np.int64) * r + tj, return_counts=True)
                counts %= self._n
                flat, vals = flat[counts != 0], counts[counts != 0]
            return (
                "graph",
                self._n,
                (m, r),
                flat.astype(np.int64).tobytes(),
                vals.astype(np.uint8).tobytes(),
            )
        pat = self._pattern if self._mixed is None else tuple(tuple(r) for r in self._mixed)
        return (
            "grid",
            self._n,
            self._shape,
            self._wrap,
            pat,
            np.packbits(self._locked).tobytes() if self._any_locked else None,
            np.packbits(self._holes).tobytes() if self._any_holes else None,
        )

    def __eq__(self, other: object) -> bool:
        """Equal boards have the same kind, n and tap matrix: grids compare shape,
        wrap, pattern (or per-tile patterns) and lock / hole masks; graph boards
        compare A mod n, so a ``from_matrix`` board equals the ``from_effects`` board
        listing the same units. Graph boards: O(entries of A)."""
        return isinstance(other, Board) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        if self._dense is not None:
            return f"Board.from_matrix(<{self.n_cells}x{self.n_taps}>, states={self._n})"
        if self._kind == "graph":
            return (
                f"Board.from_effects(<{self.n_taps} taps>, states={self._n}, "
                f"n_cells={self._shape[0]})"
            )
        from modlights.model.patterns import pattern_name

        rows, cols = self._shape
        if self._mixed is not None:
            pat = "<mixed>"
        else:
            name = pattern_name(self._pattern)
            pat = repr(name) if name else repr(list(self._pattern))
        extra = ""
        if self._any_locked:
            extra += f", locked=<{int(np.count_nonzero(self._locked))} tiles>"
        if self._any_holes:
            extra += f", holes=<{int(np.count_nonzero(self._holes))} tiles>"
        if self._wrap:
            extra += ", wrap=True"
        return f"Board.grid({rows}, {cols}, states={self._n}, pattern={pat}{extra})"


def _shift_blocks(dr: int, dc: int, rows: int, cols: int, wrap: bool) -> list:
    """(target rows, source rows, target cols, source cols) slices moving a grid by
    (dr, dc): one block without wrap (none when the shift leaves the grid), up to four
    on a torus (no np.roll copy)."""

    def spans(d: int, size: int) -> list:
        if wrap:
            a = d % size
            if a == 0:
                return [(slice(0, size), slice(0, size))]
            return [(slice(a, size), slice(0, size - a)), (slice(0, a), slice(size - a, size))]
        if abs(d) >= size:
            return []
        return [(slice(max(0, d), size + min(0, d)), slice(max(0, -d), size - max(0, d)))]

    return [(tr, sr, tc, sc) for tr, sr in spans(dr, rows) for tc, sc in spans(dc, cols)]


def _no_tiles(spec: Any) -> bool:
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
