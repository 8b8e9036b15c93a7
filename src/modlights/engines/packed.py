"""GF(2) grid states bit-packed (``np.packbits(state, axis=1)``), worked on without
unpacking: what the engines' ``solve_packed`` / ``apply_packed`` share.

A 100000 x 100000 board is 10^10 tiles: 10 GB a state as bytes, 1.25 GB packed. The
helpers here never make a byte a tile:

- :func:`apply_packed`: s + A x for any uniform grid board (any pattern, tori too),
  straight from its pattern's offsets (those of odd count), streamed a row at a time
  in C (csrc/packed.c), counting the tiles that miss a constant target. It does not
  use any engine's factorisation, so it checks their answers independently;
- :func:`transpose_packed`: the bit transpose (64 x 64 blocks), for boards an engine
  chases along the other axis and for the tensor engine's column direction.

The solvers themselves are the C library's engines (csrc/engines/algebraic.c for the
cross family and the symmetric 3 x 3 patterns, csrc/engines/tensor.c for product
patterns), through :mod:`modlights.engines.native`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["apply_packed", "transpose_packed", "odd_offsets", "check_packed"]


def check_packed(arr, rows: int, cols: int, what: str) -> np.ndarray:
    """arr if it is uint8 of shape (rows, ceil(cols / 8)) (np.packbits rows), else
    ValueError naming ``what``."""
    want = (rows, (cols + 7) // 8)
    if not isinstance(arr, np.ndarray) or arr.dtype != np.uint8 or arr.shape != want:
        got = f"{arr.dtype} {arr.shape}" if isinstance(arr, np.ndarray) else type(arr).__name__
        raise ValueError(
            f"{what} must be np.packbits(state, axis=1): uint8 of shape {want}, got {got}"
        )
    return arr


def odd_offsets(board) -> tuple[np.ndarray, np.ndarray]:
    """(dr, dc): the offsets a tap flips over GF(2), each once (odd counts; on a torus
    reduced mod the sides first, so offsets landing on the same tile cancel in pairs),
    sorted by row offset. Off-board offsets of a flat board are dropped."""
    rows, cols = board.shape
    counts: dict = {}
    for dr, dc in board.pattern:
        if board.wrap:
            key = (dr % rows, dc % cols)
        elif abs(dr) < rows and abs(dc) < cols:
            key = (dr, dc)
        else:
            continue
        counts[key] = counts.get(key, 0) + 1
    keys = sorted(k for k, c in counts.items() if c % 2)
    return (np.array([k[0] for k in keys], np.int64), np.array([k[1] for k in keys], np.int64))


def apply_packed(
    board, x: np.ndarray, s: np.ndarray | None = None, tc: int = 0, write: bool = True
) -> tuple[np.ndarray | None, int]:
    """GF(2), np.packbits rows: (s + A x, None when not ``write``; the number of tiles
    where s + A x differs from tc) for a uniform grid board (one pattern, no locks or
    holes; tori too).

    Parameters
    ----------
    board : Board
        A uniform GF(2) grid board, of any size (past MAX_TILES too).
    x, s : ndarray
        uint8 (rows, ceil(cols / 8)); s None means zero. Bits past the last column are
        ignored.
    tc : int
        The constant target the count compares with (0 or 1).
    write : bool
        False: only count (no output array; a 100000 x 100000 board needs 1.25 GB
        less).

    Raises
    ------
    ValueError
        For n != 2, a mixed board, locks or holes, or arrays of the wrong shape.
    """
    from modlights.native._core import apply_offsets

    if (
        board.states != 2
        or not board.is_grid
        or board.pattern is None
        or board.any_locked
        or board.any_holes
    ):
        raise ValueError(
            "apply_packed needs a GF(2) grid board with one pattern and no locked tiles or holes"
        )
    rows, cols = board.shape
    check_packed(x, rows, cols, "x")
    if s is not None:
        check_packed(s, rows, cols, "s")
    dr, dc = odd_offsets(board)
    return apply_offsets(x, rows, cols, board.wrap, dr, dc, s, int(tc) & 1, write)


def transpose_packed(a: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The transpose of the rows x cols bit matrix ``a`` (np.packbits rows): a new
    (cols, ceil(rows / 8)) uint8 array, bits past the last column 0."""
    from modlights.native._core import transpose_bits

    check_packed(a, rows, cols, "a")
    out = np.empty((cols, (rows + 7) // 8), np.uint8)
    return transpose_bits(a, cols, out)
