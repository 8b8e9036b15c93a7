"""The C library's engines in Python's registry: one adapter for them all.

The dense engines (``dense-gf2``: csrc/engines/dense_gf2.c over csrc/dense/gf2.c;
``dense-zn``: csrc/engines/dense.c over csrc/dense/zn.c), the
chase (``chase``, the entry choosing its variant from the plan, and the variants
``chase-light``, ``chase-prefix``, ``chase-row``, ``chase-rowsolve``: csrc/engines/chase.c,
chase_layout.c, chase_row.c), the algebraic engines (``algebraic-cross``,
``algebraic-sym``, ``algebraic-torus``, ``algebraic-torus2``: csrc/engines/algebraic.c,
torus.c, polymat.c, torus2.c, polymatn.c),
the ``lifted`` engine (csrc/engines/lifted.c) and the ``tensor`` engine
(csrc/engines/tensor.c, band.c, ring.c, smith.c) live in the C library only.
:func:`covers` asks the C registry whether one of them takes a board (its reason word
for word: ``ml_engine_covers``), and
:func:`build` makes a :class:`NativeEngine`: a C solver of the board built with that
engine's plan, asked through :class:`modlights.native._core.CEngine` for the questions
of :mod:`modlights.engines.base` (solve, generators, nullity, kernel_size, det,
inverse, pseudo_inverse, kernel_fits, packs, transposed, solve_packed; ``variant`` and
``variant_reason``: the variant the choosing entry took). Python's Solver keeps its own
facade over it (canonical forms, the minimal search, batches, pickling).

The C board of a Python board is the one the Board holds (:func:`c_board`, made with
the board); :func:`plan_board` is the C board the registry's choice reads (a graph
board's shape alone, made once per board object), :func:`board_of` the Python board of
a C board a seam callback gets. Right-hand sides and packed states go to C without
copies (C-contiguous uint8, as the Solver makes them).
"""

from __future__ import annotations

import json
import threading
import weakref
from functools import partial
from typing import Any

import numpy as np

from modlights.model.board import Board

__all__ = ["NATIVE_ENGINES", "NativeEngine", "c_board", "plan_board", "board_of", "covers", "build"]

#: The registered names the C library answers for through this adapter.
NATIVE_ENGINES = (
    "dense-gf2",
    "dense-zn",
    "chase",
    "chase-light",
    "chase-prefix",
    "chase-row",
    "chase-rowsolve",
    "algebraic-cross",
    "algebraic-torus",
    "algebraic-torus2",
    "algebraic-sym",
    "algebraic-sym-odd",
    "lifted",
    "tensor",
)

#: The engines that refuse every board with locked tiles or holes after checks of the
#: board's kind, n, pattern count and wrap only (csrc/api/registry_own.c,
#: registry_tensor.c): a 3 x 3 proxy of a large masked grid has their reason.
_NO_MASKS = (
    "algebraic-cross",
    "algebraic-torus",
    "algebraic-torus2",
    "algebraic-sym",
    "lifted",
    "tensor",
)

# id(board) -> [weak reference to it, its C board, its plan board, their addresses]: made
# once per live board object; the C boards' addresses -> the weak reference (board_of)
_CBOARDS: dict[int, list[Any]] = {}
_BY_ADDRESS: dict[int, Any] = {}
_MAKING = threading.Lock()  # one C board a slot, whichever thread asks first


def _forget(key: int, _ref: Any = None) -> None:
    hit = _CBOARDS.pop(key, None)
    for address in hit[3] if hit else ():
        _BY_ADDRESS.pop(address, None)


def _address(cb: Any) -> int:
    from modlights.native._core import capi_board_key

    return int(capi_board_key(cb))


def _kept(board: Board, slot: int, make: Any) -> Any:
    """The C board in ``slot`` (1: c_board, 2: plan_board) of ``board``, made by
    ``make()`` on first use and kept while the board lives."""
    key = id(board)
    hit = _CBOARDS.get(key)
    if hit is not None and hit[0]() is board and hit[slot] is not None:
        return hit[slot]
    with _MAKING:
        hit = _CBOARDS.get(key)
        if hit is None or hit[0]() is not board:
            hit = [weakref.ref(board, partial(_forget, key)), None, None, []]
            _CBOARDS[key] = hit
        if hit[slot] is None:
            cb = make()
            hit[3].append(_address(cb))
            _BY_ADDRESS[hit[3][-1]] = hit[0]
            hit[slot] = cb
        return hit[slot]


def c_board(board: Board) -> Any:
    """The C board (``_core.CBoard``) of a board: the one the Board holds (made with it;
    a grid's masks read in place; a from_matrix board's on first use), remembered so
    that :func:`board_of` finds the board again. O(1) after the first call."""
    return _kept(board, 1, lambda: board._c)


def plan_board(board: Board) -> Any:
    """The C board the registry's choice reads (``ml_plan_choose``): a grid's
    :func:`c_board`; for a graph board a C graph board of its n, cells and taps without
    entries (the library's engines' covers and costs read only those of a graph board;
    an engine of Python code gets the Board itself, :func:`board_of`), made in O(taps)
    and kept while the board lives."""
    if board.is_grid:
        return c_board(board)
    from modlights.native._core import capi_graph_shape

    return _kept(board, 2, lambda: capi_graph_shape(board.states, board.n_cells, board.n_taps))


def board_of(cb: Any) -> Board:
    """The Python board whose :func:`c_board` or :func:`plan_board` ``cb`` wraps (the
    board a seam callback is asked about); a board read from ``cb``'s JSON for a C
    board made elsewhere. O(1), or O(tiles) for a C board Python did not make."""
    ref = _BY_ADDRESS.get(_address(cb))
    board = ref() if ref is not None else None
    if board is None:
        limit = cb.size if cb.is_giant else None  # a giant grid: read as it is
        board = Board.from_dict(json.loads(cb.to_json()), max_tiles=limit)
    return board


def covers(name: str, board: Board) -> str | None:
    """None when the C engine registered as ``name`` takes ``board``, else its reason
    (the C registry's covers, word for word). A graph board is asked as its
    :func:`plan_board` (these engines read a graph board's kind, n, cells and taps only);
    a large masked grid, for the engines of _NO_MASKS, as a 3 x 3 grid alike with one
    locked tile. O(tiles) at most (the C board, once)."""
    from modlights.native._core import CBoard, capi_engine_covers, capi_engine_index

    if not board.is_grid:
        return capi_engine_covers(capi_engine_index(name), plan_board(board))
    rows, cols = board.shape
    if (
        name in _NO_MASKS
        and (board._any_locked or board._any_holes)
        and board._mixed is None
        and rows * cols > 4096
    ):
        proxy = CBoard.grid(
            3,
            3,
            states=board.states,
            pattern=[tuple(o) for o in board._pattern],
            locked=[(0, 0)],
            wrap=board.wrap,
        )
        return capi_engine_covers(capi_engine_index(name), proxy)
    return capi_engine_covers(capi_engine_index(name), c_board(board))


class NativeEngine:
    """The Engine protocol (:mod:`modlights.engines.base`) of one C engine on one board:
    the answers of ``_core.CEngine`` over a C solver built with the engine's plan.
    ``name`` is the registered name. ValueError ("method=NAME does not cover this board:
    why") when the engine does not take the board. Pickles and copies as its board and
    name (the C engine is built again on the other side)."""

    def __init__(self, board: Board, name: str):
        from modlights.native._core import CEngine, CSolver

        why = covers(name, board)
        if why is not None:
            raise ValueError(f"method={name!r} does not cover this board: {why}")
        self.board = board
        self.name = name
        self.n = board.states
        cs = CSolver(c_board(board), name)
        self._c = CEngine(cs)
        plan = cs.plan
        #: the registered name of the engine that answers: ``name``, or for the choosing
        #: entry "chase" the variant it took from the plan (see registry.resolve)
        self.variant: str = plan["variant"] or name
        #: why that variant answers ("" when the engine chose none)
        reason = plan["reason"] or ""
        self.variant_reason: str = reason.partition(f"; variant {self.variant}: ")[2]

    @property
    def nullity(self) -> int:
        return int(self._c.nullity)

    @property
    def kernel_size(self) -> int:
        return int(self._c.kernel_size)

    def solve(self, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(X, ok) for R (k, n_cells) uint8 right-hand sides < n (read in place)."""
        return self._c.solve(R)

    def generators(self, limit: int | None = None) -> tuple[np.ndarray, list[int]]:
        """The engine's first ``limit`` (None: all) kernel generators and their orders."""
        return self._c.generators(limit)

    def det(self) -> int:
        return int(self._c.det())

    def inverse(self) -> np.ndarray:
        """A^-1 (n_taps x n_cells) mod n; ValueError when A has none."""
        return self._c.solver.inverse()

    def pseudo_inverse(self) -> np.ndarray:
        """A G with A G A = A (n_taps x n_cells); ValueError when none exists."""
        return self._c.solver.pseudo_inverse()

    def kernel_fits(self) -> bool:
        return bool(self._c.kernel_fits())

    @property
    def packs(self) -> bool:
        return bool(self._c.packs)

    @property
    def transposed(self) -> bool:
        return bool(self._c.transposed)

    def solve_packed(self, packed: np.ndarray, tc: int = 0) -> np.ndarray | None:
        """GF(2) taps of ``tc + packed`` (np.packbits rows) in the same layout; None
        when unsolvable."""
        return self._c.solve_packed(packed, tc)

    def __reduce__(self) -> Any:
        return (NativeEngine, (self.board, self.name))


def build(name: str, board: Board, backend: str = "native", dense: Any = None) -> NativeEngine:
    """The registry's ``build`` of the C engine ``name`` (backend and dense unused: the C
    engine answers its questions itself, the registry routes the others)."""
    return NativeEngine(board, name)
