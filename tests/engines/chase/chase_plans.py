"""The C chase plan of a grid board for the tests of the chase's bindings
(``_core.Plan``: the symbolic chase, its residual matrices, the numeric replay;
``_core.RowChase``; ``_core.RowSolvePlan``). The engines build their plans in C from the
C board (csrc/engines/chase.c, chase_layout.c); this builds the same plan from a Python
board so the bindings can be checked against replays and the reference engine."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

import modlights as ml
from modlights.native import _core


def _tables(board: ml.Board):
    """(udr, udc, cnt, pat_of): the distinct offsets of every pattern in decreasing
    order, per-pattern counts, and the pattern index of every tile (None: uniform)."""
    if board.tile_offsets is None:
        pats = [tuple(board.offsets)]
        pat_of = None
    else:
        index: dict = {}
        pat_of = np.array(
            [index.setdefault(tuple(p), len(index)) for row in board.tile_offsets for p in row],
            dtype=np.int32,
        )
        pats = list(index)
    offs = sorted({o for p in pats for o in p}, reverse=True)
    pos = {o: i for i, o in enumerate(offs)}
    cnt = np.zeros((len(pats), len(offs)), dtype=np.int32)
    for i, p in enumerate(pats):
        for o in p:
            cnt[i, pos[o]] += 1
    udr = np.array([o[0] for o in offs], dtype=np.int32)
    udc = np.array([o[1] for o in offs], dtype=np.int32)
    return udr, udc, cnt, pat_of


def build_plan(board: ml.Board) -> Any:
    """The chase plan (``_core.Plan``) of a grid board along its rows."""
    rows, cols = board.shape
    udr, udc, cnt, pat_of = _tables(board)
    active = tappable = None
    if board.any_holes or board.any_locked:
        active = np.ascontiguousarray(board.active_mask).reshape(-1).view(np.uint8)
        tappable = np.ascontiguousarray(board.tappable_mask).reshape(-1).view(np.uint8)
    return _core.Plan(rows, cols, board.states, board.wrap, active, tappable, udr, udc, cnt, pat_of)


def transpose_board(board: ml.Board) -> ml.Board:
    """The board with rows and columns exchanged (offset (dr, dc) becomes (dc, dr))."""
    rows, cols = board.shape
    if board.tile_offsets is None:
        pattern: Any = [(dc, dr) for dr, dc in board.offsets]
    else:
        pattern = [
            [[(dc, dr) for dr, dc in board.tile_offsets[r][c]] for r in range(rows)]
            for c in range(cols)
        ]
    return ml.Board.grid(
        cols,
        rows,
        states=board.states,
        pattern=pattern,
        locked=board.locked_mask.T if board.any_locked else None,
        holes=board.holes_mask.T if board.any_holes else None,
        wrap=board.wrap,
    )


def rowsolve_plan(board: ml.Board) -> Any:
    """The row-solve plan (``_core.RowSolvePlan``) of a uniform grid along its rows:
    the taps affecting a tile (offsets negated) with their multiplicities mod n; the
    binding refuses a pattern whose last row is not a pair of unit taps."""
    n = board.states
    offs = [(o, k % n) for o, k in Counter(board.offsets).items() if k % n]
    er = np.array([-o[0] for o, _ in offs], dtype=np.int32)
    ec = np.array([-o[1] for o, _ in offs], dtype=np.int32)
    cf = np.array([k for _, k in offs], dtype=np.int32)
    rows, cols = board.shape
    if n == 2:
        return _core.RowSolvePlan(rows, cols, er, ec)
    return _core.RowSolvePlan(rows, cols, er, ec, n, cf)
