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

The class is built in layers, one subject a module: ``BoardGeometry``
(model/board_geometry.py: stored geometry, masks, indices, properties, positions),
``BoardMatrix`` (model/board_matrix.py: the tap matrix, state and tap vectors,
playing) and ``Board`` here (the constructors, the dict form, pictures, identity).
Every name is ``Board``'s: ``modlights.Board`` and ``modlights.model.board.Board``
have every method and attribute, and a Board pickles as this class.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from modlights.model.board_dict import json_text
from modlights.model.board_matrix import BoardMatrix, _as_int_array, _reduce_mod
from modlights.model.patterns import (
    MAX_OFFSETS,
    PATTERNS,
    is_mixed,
    pattern_name,
    read_pattern_once,
)
from modlights.model.validation import (
    MAX_DENSE,
    MAX_SIDE,
    MAX_TILES,
    _short,
    as_int,
    check_dim,
    check_states,
    take_items,
)
from modlights.native._core import CBoard

__all__ = ["Board", "MAX_TILES", "MAX_SIDE"]


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


class Board(BoardMatrix):
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
        doc = {"rows": rows, "cols": cols, "states": n, "wrap": b._wrap}
        pattern = read_pattern_once(pattern, rows, cols)
        doc["pattern"] = doc_pattern = _pattern_document(pattern, rows, cols)

        got: list = [None, None]

        def masks() -> list:
            # called once the C reader checked the pattern (Board.grid's order); the C
            # board reads the masks in place (ml_grid_share_*)
            got[:] = [b._mask(locked, "locked"), b._mask(holes, "holes")]
            return got

        # the C reader in Board.grid's words (ml__grid_from_json): the pattern's checks
        # and messages; the builder refuses a tile both locked and a hole
        try:
            cb = CBoard.grid_words(json.dumps(doc, allow_nan=False), rows, cols, masks)
        except ValueError as e:
            raise _as_python_shows(e, pattern, rows, cols) from None
        lock, hole = got
        # Masks are kept only when some tile is locked / a hole (see _lazy_mask).
        b._any_locked = lock is not None
        b._any_holes = hole is not None
        b._giant = giant
        if lock is not None:
            b._locked = lock
        if hole is not None:
            b._holes = hole
        if cb.is_mixed:  # the document's entries, which the reader found good
            b._pattern = None
            b._mixed = _mixed_offsets(doc_pattern)
        else:
            _grid_patterns(b, cb)
        b._cells_cache = b._taps_cache = b._coo_cache = None
        b._set_c(cb)
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
        if n_cells is not None:
            n_cells = as_int(
                n_cells, "n_cells", 0, MAX_TILES, expected="a non-negative int", floats=False
            )
        indptr = np.zeros(len(eff) + 1, dtype=np.int64)  # CSC of A
        np.cumsum(lengths, dtype=np.int64, out=indptr[1:])
        # the C board checks the cell indices (against n_cells, or MAX_TILES without)
        return cls._from_effect_parts(CBoard.from_csc(n, n_cells, indptr, flat), eff, flat, indptr)

    @classmethod
    def _from_effect_parts(cls, cb: Any, eff: list, flat: np.ndarray, indptr: np.ndarray) -> Board:
        """The graph board of the C board ``cb`` and its effects: lists (or integer
        arrays) ``eff``, their cells concatenated (int32 ``flat``) and the column starts
        ``indptr`` (int64)."""
        b = cls._graph(int(cb.states), int(cb.n_cells), len(eff))
        b._effect_lists = eff  # as tuples on first use of ``effects``
        lengths = np.diff(indptr)
        b._coo_cache = (flat, np.repeat(np.arange(len(eff), dtype=np.int32), lengths))
        b._indptr = indptr
        b._set_c(cb)
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

    # ------------------------------------------------------------------ the C board
    def _set_c(self, cb: Any) -> None:
        """Keep ``cb``, this board's C board (``_core.CBoard``), and take the counts from
        it."""
        self.__dict__["_cb"] = cb
        self._n_cells, self._n_taps = int(cb.n_cells), int(cb.n_taps)

    @property
    def _c(self) -> Any:
        """The board's C board (``_core.CBoard``): made with the board (a grid reads the
        board's masks in place), a ``from_matrix`` board's on first use (reading the
        board's reduced matrix in place: one O(entries) check, no copy); the same object
        every time."""
        cb = self.__dict__.get("_cb")
        if cb is None:  # only a from_matrix board makes it here
            assert self._dense is not None
            cb = self.__dict__["_cb"] = CBoard.from_matrix(self._dense, self._n, share=True)
        return cb

    def __getstate__(self) -> dict:
        """A Board pickles as its Python attributes; the C board is made again on the
        other side (__setstate__), from the same masks or effects."""
        d = dict(self.__dict__)
        d.pop("_cb", None)
        return d

    def __setstate__(self, d: dict) -> None:
        self.__dict__.update(d)
        if self._kind == "grid":
            self.__dict__["_cb"] = _c_grid(self)
        elif self._dense is None:
            self.__dict__["_cb"] = CBoard.from_csc(
                self._n, self._n_cells, self._indptr, self.coo()[0]
            )

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
        return json.loads(self._c.to_json())  # ml_board_to_json: Python's order

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
        limit = 0 if max_tiles is None else int(max_tiles)
        if max_tiles is not None and limit < 1:
            raise ValueError(f"max_tiles must be >= 1, got {limit}")
        cb = CBoard.from_json(json_text(d), limit)
        # a graph board's effects as given: the reader found them lists of ints
        return cls._from_c(cb, [list(e) for e in d["effects"]] if cb.kind == "graph" else None)

    @classmethod
    def _from_c(cls, cb: Any, effects: list | None = None) -> Board:
        """The Board of a C board (``_core.CBoard``, kept as the board's own): a grid's
        patterns and masks read from it (O(tiles) with masks or a mixed map), a graph
        board's effects from ``effects`` (lists of ints, those of ``cb``) or its JSON."""
        if cb.kind == "graph":
            eff = json.loads(cb.to_json())["effects"] if effects is None else effects
            lengths = [len(e) for e in eff]
            indptr = np.zeros(len(eff) + 1, dtype=np.int64)
            np.cumsum(lengths, dtype=np.int64, out=indptr[1:])
            flat = np.fromiter((c for e in eff for c in e), dtype=np.int32, count=int(indptr[-1]))
            return cls._from_effect_parts(cb, eff, flat, indptr)
        b = cls._new()
        b._kind = "grid"
        b._n = int(cb.states)
        b._shape = tuple(int(v) for v in cb.shape)
        b._wrap = bool(cb.wrap)
        _grid_patterns(b, cb)
        b._any_locked, b._any_holes = bool(cb.any_locked), bool(cb.any_holes)
        b._giant = bool(cb.is_giant)
        if b._any_locked:
            b._locked = cb.locked_mask()
        if b._any_holes:
            b._holes = cb.holes_mask()
        b._cells_cache = b._taps_cache = b._coo_cache = None
        b._set_c(cb)
        return b

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
    def __eq__(self, other: object) -> bool:
        """Equal boards have the same kind, n and tap matrix: grids compare shape,
        wrap, pattern (or per-tile patterns) and lock / hole masks; graph boards
        compare A mod n, so a ``from_matrix`` board equals the ``from_effects`` board
        listing the same units (ml_board_equal). O(tiles) for grids with masks or a
        mixed map, O(entries of A) for graph boards."""
        return isinstance(other, Board) and self._c == other._c

    def __hash__(self) -> int:
        return hash(self._c)  # ml_board_hash: consistent with ml_board_equal

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


def _pattern_document(pattern: Any, rows: int, cols: int) -> Any:
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
            CBoard.grid_words(
                json.dumps({"rows": rows, "cols": cols, "pattern": None}),
                rows,
                cols,
                lambda: (None, None),
            )
        except ValueError as e:
            text = str(e)
            raise ValueError(text[: text.rindex("NoneType")] + type(pattern).__name__) from None
    return _plain(pattern, max(rows, cols, MAX_OFFSETS) + 1)


_OFFSETS_MESSAGE = "pattern offsets must be (dr, dc) pairs of ints, got "


def _as_python_shows(e: ValueError, pattern: Any, rows: int, cols: int) -> ValueError:
    """The C reader's message ``e`` with the offending offset pair shown as Python shows
    the argument's own item (a tuple as a tuple, NumPy values as NumPy's repr): the first
    pair, in the reader's order, whose JSON form the message shows. ``pattern`` is the
    argument as read once. O(offsets)."""
    text = str(e)
    if not text.startswith(_OFFSETS_MESSAGE) or isinstance(pattern, str):
        return e
    shown = text[len(_OFFSETS_MESSAGE) :]
    entries = [x for row in pattern for x in row] if is_mixed(pattern, rows, cols) else [pattern]
    for entry in entries:
        if isinstance(entry, (str, bytes)) or not isinstance(entry, (list, tuple, np.ndarray)):
            continue
        for pair in entry:
            if _short(_plain(pair, 3)) == shown:
                return ValueError(_OFFSETS_MESSAGE + _short(pair))
    return e


def _plain(v: Any, limit: int) -> Any:
    """``v`` as JSON values (see _pattern_document); an iterable is read up to ``limit``
    items (past what any level of a pattern accepts)."""
    if type(v) is str:
        return v
    if isinstance(v, np.generic):  # before float: np.float64 is one
        return _plain(v.item(), limit)
    if v is None or isinstance(v, (str, bool, int)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else repr(v)
    if isinstance(v, np.ndarray):
        return _plain(v.tolist(), limit)
    if isinstance(v, (list, tuple)):
        return [_plain(x, limit) for x in v]
    if isinstance(v, (bytes, bytearray)) or not hasattr(v, "__iter__"):
        return repr(v)
    return [_plain(x, limit) for x in itertools.islice(v, limit)]


def _grid_patterns(b: Board, cb: Any) -> None:
    """A grid Board's ``_pattern`` / ``_mixed`` from its C board: the offsets (PATTERNS'
    own tuple for a named pattern), or rows of offset tuples (one tuple a distinct
    pattern) read from the board's JSON (O(tiles))."""
    if cb.is_mixed:
        shared: dict = {}
        b._pattern = None
        b._mixed = [
            [shared.setdefault(o, o) for o in map(_offsets_of, row)]
            for row in json.loads(cb.to_json())["pattern"]
        ]
    else:
        b._pattern = _named(tuple((int(dr), int(dc)) for dr, dc in cb.pattern()))
        b._mixed = None


def _c_grid(b: Board) -> Any:
    """The C board of a grid Board: its pattern (or its palette of patterns and a
    palette index a tile), wrap, and its lock / hole masks read in place
    (ml_grid_share_locked / _holes: a Board's masks never change). O(1) for a uniform
    grid without masks, O(tiles) otherwise. ValueError from the C builder (a tile both
    locked and a hole, a giant board with masks)."""
    rows, cols = b._shape
    masks = {
        "locked": b._locked if b._any_locked else None,
        "holes": b._holes if b._any_holes else None,
    }
    if b._mixed is None:  # a named pattern by its name (the C library's same offsets)
        pattern = pattern_name(b._pattern) or list(b._pattern)
        return CBoard.grid(rows, cols, b._n, pattern, wrap=b._wrap, share_masks=True, **masks)
    palette: dict[tuple, int] = {}
    index = np.array(
        [[palette.setdefault(o, len(palette)) for o in row] for row in b._mixed],
        dtype=np.uint32,
    )
    return CBoard.grid(
        rows,
        cols,
        b._n,
        palette=[list(o) for o in palette],
        index=index,
        wrap=b._wrap,
        share_masks=True,
        **masks,
    )


def _named(offs: tuple) -> tuple:
    """PATTERNS' own tuple for the offsets of a named pattern, else ``offs``."""
    name = pattern_name(offs)
    return PATTERNS[name] if name else offs


def _mixed_offsets(rows: list) -> list:
    """The rows of offset tuples of a mixed map the C reader accepted (names and [dr, dc]
    lists), one tuple a distinct pattern (a name read once). O(tiles + offsets)."""
    names: dict = {}
    shared: dict = {}

    def offsets(p: Any) -> tuple:
        if isinstance(p, str):
            o = names.get(p)
            if o is None:
                o = names[p] = shared.setdefault(_offsets_of(p), _offsets_of(p))
            return o
        o = _offsets_of(p)
        return shared.setdefault(o, o)

    return [[offsets(p) for p in row] for row in rows]


def _offsets_of(p: Any) -> tuple:
    """The offsets of a pattern the C reader accepted: a name (any case, blanks around)
    or [dr, dc] pairs (ints or integral floats)."""
    if isinstance(p, str):
        return PATTERNS[p.strip().lower()]
    return tuple((int(dr), int(dc)) for dr, dc in p)


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
