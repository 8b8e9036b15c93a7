"""The C library's structured engines in Python's registry: one adapter for them all.

The chase (``chase``, the entry choosing its variant from the plan, and the variants
``chase-light``, ``chase-prefix``, ``chase-row``, ``chase-rowsolve``: csrc/engines/chase.c,
chase_layout.c, chase_row.c), the algebraic engines (``algebraic-cross``,
``algebraic-sym``, ``algebraic-torus``: csrc/engines/algebraic.c, torus.c, polymat.c),
the ``lifted`` engine (csrc/engines/lifted.c) and the ``tensor`` engine
(csrc/engines/tensor.c, band.c, ring.c, smith.c) live in the C library only.
:func:`covers` asks the C registry whether one of them takes a board (its reason word
for word: ``ml_engine_covers``), and
:func:`build` makes a :class:`NativeEngine`: a C solver of the board built with that
engine's plan, asked through :class:`modlights.native._core.CEngine` for the questions
of :mod:`modlights.engines.base` (solve, generators, nullity, kernel_size, det,
kernel_fits, packs, transposed, solve_packed; ``variant`` and ``variant_reason``: the
variant the choosing entry took). Python's Solver keeps its own facade over it
(canonical forms, the minimal search, batches, pickling).

The C board of a Python board is the one the Board holds (:func:`c_board`, made with
the board); right-hand sides and packed states go to C
without copies (C-contiguous uint8, as the Solver makes them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from modlights.model.board import Board

__all__ = ["NATIVE_ENGINES", "NativeEngine", "c_board", "covers", "build"]

#: The registered names the C library answers for through this adapter.
NATIVE_ENGINES = (
    "chase",
    "chase-light",
    "chase-prefix",
    "chase-row",
    "chase-rowsolve",
    "algebraic-cross",
    "algebraic-torus",
    "algebraic-sym",
    "lifted",
    "tensor",
)

#: The engines that refuse every board with locked tiles or holes after checks of the
#: board's kind, n, pattern count and wrap only (csrc/api/registry_own.c,
#: registry_tensor.c): a 3 x 3 proxy of a large masked grid has their reason.
_NO_MASKS = ("algebraic-cross", "algebraic-torus", "algebraic-sym", "lifted", "tensor")


def c_board(board: Board) -> Any:
    """The C board (``_core.CBoard``) of a board: the one the Board holds (made with it;
    a grid's masks read in place). O(1)."""
    return board._c


def covers(name: str, board: Board) -> str | None:
    """None when the C engine registered as ``name`` takes ``board``, else its reason
    (the C registry's covers, word for word). A graph board is asked as a one-cell C
    graph board (every one of these engines refuses graph boards for their kind alone);
    a large masked grid, for the engines of _NO_MASKS, as a 3 x 3 grid alike with one
    locked tile. O(tiles) at most (the C board, once)."""
    from modlights.native._core import CBoard, capi_engine_covers, capi_engine_index

    if not board.is_grid:
        proxy = CBoard.from_effects([[0]], board.states)
        return capi_engine_covers(capi_engine_index(name), proxy)
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
