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
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from modlights.model.board_args import (
    as_python_shows,
    document_text,
    effects_board,
    grid_refuses,
    marks_argument,
    mixed_offsets,
    no_tiles,
    offsets_of,
    pattern_document,
)
from modlights.model.board_dict import json_text
from modlights.model.board_matrix import BoardMatrix, _as_int_array, _reduce_mod
from modlights.model.patterns import PATTERNS, is_mixed, pattern_name, read_pattern_once
from modlights.model.validation import (
    MAX_DENSE,
    MAX_SIDE,
    MAX_TILES,
    check_dim,
    check_states,
    take_items,
)
from modlights.native._core import CBoard

__all__ = ["Board", "MAX_TILES", "MAX_SIDE"]


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
            no_tiles(locked) and no_tiles(holes) and not is_mixed(pattern, rows, cols)
        ):
            grid_refuses({"rows": rows, "cols": cols, "locked": [[0, 0]]}, rows, cols)
        n = check_states(states)
        b = cls._new()
        b._kind = "grid"
        b._n = n
        b._shape = (rows, cols)
        b._wrap = bool(wrap)
        doc: dict = {"rows": rows, "cols": cols, "states": n, "wrap": b._wrap}
        pattern = read_pattern_once(pattern, rows, cols)
        doc["pattern"] = doc_pattern = pattern_document(pattern, rows, cols)
        # locked / holes: a boolean mask stays a NumPy array the C board reads in place
        # (ml_grid_share_*); positions go into the document, where the C reader checks
        # and marks them in Board.grid's words. An argument Python cannot read gets its
        # message after the C reader's about what comes before it (the pattern, locked).
        shared: list = [None, None]
        given: dict = {}
        for k, (what, spec) in enumerate((("locked", locked), ("holes", holes))):
            try:
                mask, positions = marks_argument(spec, what, rows, cols)
            except ValueError:
                try:
                    grid_refuses(doc, rows, cols, *shared)
                except ValueError as e:
                    raise as_python_shows(e, pattern, rows, cols, given) from None
                raise
            if mask is not None and mask.any():
                shared[k] = mask
            elif positions:
                doc[what] = given[what] = positions
        try:
            cb = CBoard.grid_words(document_text(doc), rows, cols, *shared)
        except ValueError as e:
            raise as_python_shows(e, pattern, rows, cols, given) from None
        # Masks are kept only when some tile is locked / a hole (see _lazy_mask): the
        # argument's own mask, else the C board's (read in place)
        b._any_locked = bool(cb.any_locked)
        b._any_holes = bool(cb.any_holes)
        b._giant = giant
        if b._any_locked:
            b._locked = shared[0] if shared[0] is not None else cb.mask_view(0)
        if b._any_holes:
            b._holes = shared[1] if shared[1] is not None else cb.mask_view(1)
        if cb.is_mixed:  # the document's entries, which the reader found good
            b._pattern = None
            b._mixed = mixed_offsets(doc_pattern)
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
        # the C reader checks the entries, n_cells and the indices (Board.from_effects' words)
        cb = effects_board(n, eff, n_cells)
        lengths = [len(e) for e in eff]
        indptr = np.zeros(len(eff) + 1, dtype=np.int64)  # CSC of A
        np.cumsum(lengths, dtype=np.int64, out=indptr[1:])
        flat = np.fromiter(
            itertools.chain.from_iterable(eff), dtype=np.int32, count=int(indptr[-1])
        )
        return cls._from_effect_parts(cb, eff, flat, indptr)

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
            flat = np.fromiter(
                itertools.chain.from_iterable(eff), dtype=np.int32, count=int(indptr[-1])
            )
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


def _grid_patterns(b: Board, cb: Any) -> None:
    """A grid Board's ``_pattern`` / ``_mixed`` from its C board: the offsets (PATTERNS'
    own tuple for a named pattern), or rows of offset tuples (one tuple a distinct
    pattern) read from the board's JSON (O(tiles))."""
    if cb.is_mixed:
        shared: dict = {}
        b._pattern = None
        b._mixed = [
            [shared.setdefault(o, o) for o in map(offsets_of, row)]
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
