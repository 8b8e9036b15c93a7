"""Benchmark of giant GF(2) boards on the bit-packed path of the algebraic engine
(``modlights bench`` runs it for boards of more than MAX_TILES tiles).

A 100000 x 100000 board is 10^10 tiles: as bytes it would need 10 GB a state, packed
(``np.packbits(state, axis=1)``) 1.25 GB. The start is made solvable by construction
(s = A x0 for random packed taps x0, streamed a row at a time) and every answer is
checked by applying it, streamed the same way, outside the timing.
"""
from __future__ import annotations

import gc
import time
from typing import Any, Callable, Iterable

import numpy as np

from .board import Board
from .chase import _peak_mb, _reset_peak

__all__ = ["bench_packed", "random_packed"]


def random_packed(rows: int, cols: int, rng: Any = None) -> np.ndarray:
    """Uniformly random packed GF(2) rows (bits past the last column 0)."""
    gen = np.random.default_rng(rng)
    nb = (cols + 7) // 8
    a = np.frombuffer(gen.bytes(rows * nb), dtype=np.uint8).reshape(rows, nb).copy() \
        if rows * nb < 1 << 20 else _big_random(gen, rows, nb)
    if cols % 8:
        a[:, -1] &= np.uint8((0xFF << (8 - cols % 8)) & 0xFF)
    return a


def _big_random(gen: np.random.Generator, rows: int, nb: int) -> np.ndarray:
    """rows x nb random bytes filled in chunks (no second full-size buffer)."""
    a = np.empty((rows, nb), dtype=np.uint8)
    flat = a.reshape(-1)
    step = 1 << 26
    for i in range(0, flat.size, step):
        chunk = flat[i:i + step]
        chunk[:] = np.frombuffer(gen.bytes(chunk.size), dtype=np.uint8)
    return a


def bench_packed(sizes: Iterable[Any], pattern: Any = "cross",
                 progress: Callable[[int, int, str], None] | None = None,
                 repeats: int = 1, seed: int = 0
                 ) -> list[tuple[str, int, str, float, float]]:
    """Time Board.grid + Solver(method='algebraic') + solve_packed on GF(2) boards.

    sizes: ints (square boards) or (rows, cols) pairs. Rows as in
    :func:`modlights.chase.bench_large`: (board, 2, pattern, median seconds, peak MB of
    the timed runs, the start state included since it is held throughout)."""
    from .engines.algebraic import AlgebraicEngine
    from .solver import Solver
    sizes = list(sizes)
    pname = pattern if isinstance(pattern, str) else "custom"
    rng = np.random.default_rng(seed)
    out = []
    for i, s in enumerate(sizes):
        rows, cols = (s, s) if isinstance(s, (int, np.integer)) else tuple(s)
        label = f"{rows}x{cols}"
        if progress is not None:
            progress(i, len(sizes), label)
        board = Board.grid(rows, cols, states=2, pattern=pattern)
        eng = AlgebraicEngine(board)
        x0 = random_packed(rows, cols, rng)
        if progress is not None:
            progress(i, len(sizes), f"{label} (start made, solving)")
        start, _ = eng.apply_packed(x0)                  # solvable: A x0
        del x0
        gc.collect()
        _reset_peak()
        times = []
        for _ in range(max(1, repeats)):
            t0 = time.perf_counter()
            b = Board.grid(rows, cols, states=2, pattern=pattern)
            taps = Solver(b, method="algebraic").solve_packed(start)
            times.append(time.perf_counter() - t0)
            if len(times) < max(1, repeats):
                del taps
        peak = _peak_mb()
        if progress is not None:
            progress(i, len(sizes), f"{label} (checking)")
        _, bad = eng.apply_packed(taps, start, write=False)
        if bad:
            raise AssertionError(f"algebraic answer for {label} leaves {bad} tiles lit")
        out.append((label, 2, pname, float(np.median(times)), peak))
        del taps, start
        gc.collect()
    if progress is not None:
        progress(len(sizes), len(sizes), "done")
    return out
