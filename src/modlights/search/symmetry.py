"""Symmetries of a board's tap matrix A (and of a right-hand side b): pairs of
permutations (cells, taps) with ``A[cells[i], taps[j]] = A[i, j]`` for every entry and
``b[cells[i]] = b[i]``.

A symmetry maps the solutions of ``A y = b`` onto themselves (``y -> P y`` with
``(P y)[taps[j]] = y[j]``) and keeps their length, so a minimal search needs to look at
only one element of each orbit (see :mod:`modlights.search.cube`).

Candidates are the geometric maps of grid boards: the dihedral group of the rectangle
(8 maps for a square, 4 otherwise) and, on tori, translations composed with them (the
group is listed whole when it has at most ``MAX_SYMMETRIES`` + 1 elements, else the
translations by half the sides only). Each candidate is kept only when it maps every
cell to a cell and every tap to a tap and preserves A entry by entry (checked from
``board.coo()``: the pattern, mixed patterns, locks, holes and the wrap all show there)
and b. Graph boards have no candidates (none are looked for).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["symmetries", "apply_taps", "MAX_SYMMETRIES"]

#: Most non-identity symmetries returned (the translations of large tori are capped).
MAX_SYMMETRIES = 127


def _dihedral(rows: int, cols: int) -> list:
    """The maps (r, c) -> (r', c') of the rectangle's dihedral group, identity first,
    as functions on arrays."""
    R, C = rows - 1, cols - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (R - r, C - c),
        lambda r, c: (R - r, c),
        lambda r, c: (r, C - c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (C - c, R - r),
            lambda r, c: (c, R - r),
            lambda r, c: (C - c, r),
        ]
    return maps


def _candidates(board) -> list:
    rows, cols = board.shape
    dih = _dihedral(rows, cols)
    if not board.wrap:
        return dih[1:]
    if rows * cols * len(dih) <= MAX_SYMMETRIES + 1:
        shifts = [(a, b) for a in range(rows) for b in range(cols)]
    else:
        shifts = [(a, b) for a in sorted({0, rows // 2}) for b in sorted({0, cols // 2})]
    out = []
    for a, b in shifts:
        for f in dih:
            if a == 0 and b == 0 and f is dih[0]:
                continue
            out.append(
                lambda r, c, f=f, a=a, b=b: ((f(r, c)[0] + a) % rows, (f(r, c)[1] + b) % cols)
            )
    return out[:MAX_SYMMETRIES]


def _perm(positions: np.ndarray, index: np.ndarray, f, cols: int) -> np.ndarray | None:
    """The permutation of ``positions`` (flat grid indices) under f, as indices into the
    same list, or None when some position leaves it."""
    r, c = np.divmod(positions, cols)
    r2, c2 = f(r, c)
    rows = index.size // cols
    if np.any((r2 < 0) | (r2 >= rows) | (c2 < 0) | (c2 >= cols)):
        return None
    p = index[r2 * cols + c2]
    if np.any(p < 0):
        return None
    return p


def _entries(ci: np.ndarray, tj: np.ndarray, n_taps: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A's nonzero entries mod n: (sorted keys cell * n_taps + tap, values)."""
    keys, counts = np.unique(ci.astype(np.int64) * n_taps + tj.astype(np.int64), return_counts=True)
    counts %= n
    nz = counts != 0
    return keys[nz], counts[nz]


def symmetries(board: Any, rhs: Any = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """The non-identity symmetries of ``board``'s A (and of ``rhs`` when given) among
    the geometric candidates (module docstring).

    Parameters
    ----------
    board : Board
    rhs : array (n_cells,), optional
        b, entries mod n (``board.cell_vector`` order); a symmetry must keep it.

    Returns
    -------
    list of (cells int64 (n_cells,), taps int64 (n_taps,)): ``cells[i]`` is the image
    of cell i, ``taps[j]`` that of tap j. Empty for graph boards. Complexity: O(|A|)
    per candidate (|A| the nonzero entries), at most 16 candidates (tori: at most
    ``MAX_SYMMETRIES``).

    Raises
    ------
    ValueError
        When rhs does not have one entry per cell.
    """
    n_cells, n_taps, n = board.n_cells, board.n_taps, board.states
    b = None
    if rhs is not None:
        b = np.asarray(rhs)
        if b.shape != (n_cells,) or b.dtype.kind not in "iub":
            raise ValueError(
                f"rhs must be an integer array of {n_cells} entries (one per "
                f"cell), got shape {b.shape} and dtype {b.dtype}"
            )
        b = b.astype(np.int64) % n
    if not board.is_grid or n_cells == 0:
        return []
    rows, cols = board.shape
    cells = np.array([r * cols + c for r, c in board.cells], dtype=np.int64)
    taps = np.array([r * cols + c for r, c in board.taps], dtype=np.int64)
    cell_index = np.full(rows * cols, -1, dtype=np.int64)
    cell_index[cells] = np.arange(cells.size)
    tap_index = np.full(rows * cols, -1, dtype=np.int64)
    tap_index[taps] = np.arange(taps.size)
    ci, tj = board.coo()
    keys, vals = _entries(ci, tj, n_taps, n)
    out = []
    for f in _candidates(board):
        pc = _perm(cells, cell_index, f, cols)
        pt = _perm(taps, tap_index, f, cols) if taps.size else np.zeros(0, np.int64)
        if pc is None or pt is None:
            continue
        if b is not None and not np.array_equal(b[pc], b):
            continue
        k2, v2 = _entries(
            pc[np.asarray(ci, dtype=np.int64)], pt[np.asarray(tj, dtype=np.int64)], n_taps, n
        )
        if np.array_equal(k2, keys) and np.array_equal(v2, vals):
            out.append((pc, pt))
    return out


def apply_taps(taps_perm: np.ndarray, y: np.ndarray) -> np.ndarray:
    """P y: the tap vector (or rows of tap vectors) moved by the symmetry,
    ``out[..., taps_perm[j]] = y[..., j]``."""
    y = np.asarray(y)
    out = np.empty_like(y)
    out[..., taps_perm] = y
    return out
