"""The covering lower bound on the fewest taps of one board, and its certificate (kind
"bounds" of docs/certificates.md).

Every cell i whose light must change (b_i != 0 in A y = b) is changed by some tap j
with y_j != 0 and A_ij != 0. So for weights w_i >= 0 on those cells whose sum over the
cells of each tap's column is at most 1, every solution has
``sum(y) >= |supp y| >= sum_i w_i``. The best such weights are the linear program

    max sum_i w_i  subject to  sum_{i: A_ij != 0, b_i != 0} w_i <= 1 for every tap j,

the dual of the fractional set cover of the cells to change by the taps' columns (the
counting bound, m_changed / (largest column), is one feasible point). HiGHS solves it
in floating point (an interior point method, no crossover); :func:`covering_bound`
rounds its answer down to integers over a common denominator and scales them until
every column sum holds exactly, so the bound it returns is the one the certificate's
checkers recompute in integers.

It holds for every ring, locks (locked tiles are no taps) and holes (no cells), and
needs no kernel: it is the lower bound for boards whose coset is far too large to
search (A075464 at k = 79 and 95: nullity 64 and 62).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from modlights.model.board import Board

__all__ = ["covering_bound", "bounds_certificate", "covering_witness", "DENOMINATOR"]

#: The common denominator of the weights (at most the checkers' 2^31).
DENOMINATOR = 1 << 30


def _support(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """The nonzero entries (mod n) of A as (cells, taps), each pair once."""
    ci, tj = board.coo()
    ci = np.asarray(ci, dtype=np.int64)
    tj = np.asarray(tj, dtype=np.int64)
    r = max(1, board.n_taps)
    keys, counts = np.unique(ci * r + tj, return_counts=True)
    keys = keys[counts % board.states != 0]
    return keys // r, keys % r


def covering_bound(board: Board, rhs: Any) -> tuple[int, int, np.ndarray]:
    """The covering lower bound on the length of every solution of A y = rhs.

    Parameters
    ----------
    board : Board
    rhs : array_like
        b (n_cells entries 0..n-1, in the board's cell order, or its shape).

    Returns ``(bound, D, weights)``: integer weights (int64, one per cell, 0 where
    b_i = 0) over the denominator D with every tap's column sum at most D, and
    bound = ceil(sum(weights) / D). ValueError for a rhs of the wrong size or range.
    Complexity: one linear program of n_taps rows over the cells to change (HiGHS's
    interior point method), O(entries of A) around it.
    """
    import highspy

    from modlights.search.lpbound import _new_lp

    n, m, r = board.states, board.n_cells, board.n_taps
    b = np.asarray(rhs, dtype=np.int64).reshape(-1)
    if b.size != m or (b.size and (b.min() < 0 or b.max() >= n)):
        raise ValueError(f"rhs must have {m} entries in 0..{n - 1}")
    cells, taps = _support(board)
    live = np.flatnonzero(b != 0)
    w = np.zeros(m, dtype=np.int64)
    if live.size == 0:
        return 0, 1, w
    col_of = np.full(m, -1, dtype=np.int64)
    col_of[live] = np.arange(live.size)
    keep = col_of[cells] >= 0
    cells, taps = col_of[cells[keep]], taps[keep]
    order = np.lexsort((cells, taps))
    cells, taps = cells[order], taps[order]
    starts = np.searchsorted(taps, np.arange(r + 1)).astype(np.int32)
    h = _new_lp()
    # the interior point method without crossover: 20x the simplex's speed on these
    # covering programs (45 x 45: 0.7 s against 16 s), and an approximate optimum is
    # enough, as it is rounded down and scaled into exact weights below
    h.setOptionValue("solver", "ipm")
    h.setOptionValue("run_crossover", "off")
    inf = highspy.kHighsInf
    h.addVars(live.size, np.zeros(live.size), np.full(live.size, inf))
    h.changeColsCost(live.size, np.arange(live.size, dtype=np.int32), np.ones(live.size))
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    if r:
        h.addRows(
            r,
            np.full(r, -inf),
            np.ones(r),
            len(cells),
            starts[:-1].copy(),
            cells.astype(np.int32),
            np.ones(len(cells)),
        )
    h.run()
    x = np.asarray(h.getSolution().col_value, dtype=float)
    D = DENOMINATOR
    wl = np.floor(np.clip(x, 0.0, 1.0) * D).astype(np.int64)
    sums = np.zeros(r, dtype=np.int64)
    np.add.at(sums, taps, wl[cells])
    top = int(sums.max()) if r else 0
    if top > D:  # rounding pushed a column past 1: scale every weight down exactly
        wl = wl * D // top
    w[live] = wl
    return -(-int(w.sum()) // D), D, w


def bounds_certificate(board: Board, taps: Any) -> dict:
    """A kind "bounds" certificate (docs/certificates.md) for the board whose rhs is
    b = A taps: ``upper`` the taps' length, ``lower`` the covering bound
    (:func:`covering_bound`, at most ``upper``), checked by ``modlights.verify``
    without a kernel. ``taps`` as a Solution's (board-shaped for grids, (n_taps,) for
    graphs); ValueError for taps of another shape or on a locked tile.
    Complexity: as :func:`covering_bound`.
    """
    x = board.tap_vector(taps).astype(np.int64)
    b = board.apply_vector(x).astype(np.int64)
    bound, D, w = covering_bound(board, b)
    upper = int(x.sum())
    return {
        "format": "modlights-certificate",
        "version": 1,
        "kind": "bounds",
        "board": board.to_dict(),
        "rhs": [int(v) for v in b],
        "taps": [int(v) for v in x],
        "lower": min(bound, upper),
        "upper": upper,
        "lower_bound": {"method": "covering", "denominator": D, "weights": [int(v) for v in w]},
    }


def covering_witness(cert: dict, board: Board, taps: Any) -> dict:
    """A hardest certificate (kind "hardest") whose witness is replaced by the board
    b = A taps with its covering weights, and whose ``lower`` is that board's covering
    bound, when the bound is above the certificate's ``lower``: every solution of that
    board needs at least that many taps, so the hardest value does (docs/certificates.md,
    a witness by covering weights). Else ``cert`` unchanged. The board must be the
    certificate's (ValueError otherwise). Complexity: as :func:`covering_bound`.
    """
    if cert.get("kind") != "hardest" or cert.get("board") != board.to_dict():
        raise ValueError("covering_witness needs a hardest certificate of this board")
    x = board.tap_vector(taps).astype(np.int64)
    b = board.apply_vector(x).astype(np.int64)
    bound, D, w = covering_bound(board, b)
    if bound <= cert["lower"]:
        return cert
    witness = {
        "rhs": [int(v) for v in b],
        "taps": [int(v) for v in x],
        "lower_bound": {"method": "covering", "denominator": D, "weights": [int(v) for v in w]},
    }
    return {**cert, "lower": min(bound, cert["upper"]), "witness": witness}
