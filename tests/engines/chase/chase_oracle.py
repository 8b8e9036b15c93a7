"""The chase's plans computed from a grid board's tap matrix alone, for the tests of the
chase engines' choice (which variant, along the rows or the columns): an oracle
independent of the C plans (csrc/chase/plan.c, rowsolve.c), from the rules those plans
document.

- The light chase (chase.h): in the plan's tile order (row-major along the rows,
  column-major along the columns), tap t is forced by the first active tile whose last
  tap is t with a unit coefficient; the other taps are the symbols, the active tiles that
  force nothing the residual equations (csrc/tests/t-plan.c checks the C plan against
  the same rule).
- The row-solve chase (rowsolve.h): one pattern, no wrap, locks or holes; seen from the
  tile, the offsets of nonzero multiplicity mod n whose last row D >= 1 is the pair
  (D, -a), (D, +a) with unit coefficients, on a width that is a multiple of 2a and more
  than D rows: D x width symbols.
"""

from __future__ import annotations

from collections import Counter
from math import gcd
from typing import NamedTuple

import numpy as np

import modlights as ml


class LightPlan(NamedTuple):
    """The light chase's plan of a board in one orientation: its symbols, the residual
    equations' tiles (flat row-major positions of the board, in the plan's tile order:
    the order of the C plan's residual equations without wrap), the plan's width
    (columns along the rows, rows along the columns), the orientation."""

    nsym: int
    residual_tiles: np.ndarray
    width: int
    transposed: bool


def light_plan_along(board: ml.Board, transposed: bool = False) -> LightPlan:
    """The light chase's plan along the rows (or the columns: ``transposed``)."""
    rows, cols = board.shape
    n = board.states
    A = board.matrix().astype(np.int64) % n
    cells = np.flatnonzero(board.active_mask.reshape(-1))
    taps = np.flatnonzero(board.tappable_mask.reshape(-1))

    def key(flat):
        r, c = np.divmod(flat, cols)
        return c * rows + r if transposed else flat

    cell_order = np.argsort(key(cells), kind="stable")
    tap_key = key(taps)
    forced = np.zeros(len(taps), dtype=bool)
    forces = np.zeros(len(cells), dtype=bool)
    for i in cell_order:
        nz = np.flatnonzero(A[i])
        if not len(nz):
            continue
        last = nz[np.argmax(tap_key[nz])]
        if not forced[last] and gcd(int(A[i, last]), n) == 1:
            forced[last] = True
            forces[i] = True
    residual = [int(cells[i]) for i in cell_order if not forces[i]]
    return LightPlan(
        int(len(taps) - forced.sum()),
        np.array(residual, dtype=np.int64),
        rows if transposed else cols,
        transposed,
    )


def light_plan(board: ml.Board) -> LightPlan:
    """The light chase's plan as the engines take it: along the rows, or the columns of a
    board wider than tall when they give fewer symbols."""
    plan = light_plan_along(board)
    rows, cols = board.shape
    if cols > rows and plan.nsym > 1:
        other = light_plan_along(board, transposed=True)
        if other.nsym < plan.nsym:
            return other
    return plan


def rowsolve_symbols_along(board: ml.Board, transposed: bool = False) -> int | None:
    """The row-solve chase's symbols along the rows (or the columns), None when that
    orientation is not eligible."""
    if board.wrap or board.any_locked or board.any_holes or board.tile_offsets is not None:
        return None
    n = board.states
    offs = {(-dr, -dc): k % n for (dr, dc), k in Counter(board.offsets).items() if k % n}
    rows, cols = board.shape
    if transposed:
        offs = {(c, r): k for (r, c), k in offs.items()}
        rows, cols = cols, rows
    if len(offs) < 2 or cols < 2:
        return None
    D = max(r for r, _ in offs)
    last = sorted((c, k) for (r, c), k in offs.items() if r == D)
    if D < 1 or rows <= D or len(last) != 2:
        return None
    (lo, k1), (hi, k2) = last
    if lo != -hi or hi < 1 or gcd(k1, n) != 1 or gcd(k2, n) != 1 or cols % (2 * hi):
        return None
    return D * cols


def rowsolve_symbols(board: ml.Board) -> int | None:
    """The fewest row-solve symbols over the two orientations, None when neither is
    eligible."""
    got = [s for t in (False, True) if (s := rowsolve_symbols_along(board, t)) is not None]
    return min(got) if got else None
