"""The workloads ``modlights bench`` times (moved here from chase.py and bench_giant.py:
a benchmark sits with the command, not with the engines).

:func:`bench_large`: Board.grid + Solver + solve(minimal=False) on byte-state boards.
:func:`bench_packed`: giant GF(2) boards on the bit-packed path (``Solver.solve_packed``:
the algebraic engine for the cross family and the symmetric 3 x 3 patterns such as
diagonal, the tensor engine for square and other product patterns). A 100000 x 100000
board is 10^10 tiles: as bytes it would need 10 GB a state, packed
(``np.packbits(state, axis=1)``) 1.25 GB. The start is made solvable by construction
(s = A x0 for random packed taps x0, streamed a row at a time from the pattern,
:func:`modlights.engines.packed.apply_packed`) and every answer is checked by applying
it, streamed the same way, outside the timing.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from modlights.model.board import Board
from modlights.solver import Solver

__all__ = ["bench_large", "bench_packed", "random_packed"]


def _reset_peak() -> bool:
    """Reset the process's peak resident set (Linux: /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _peak_mb() -> float:
    """Peak resident memory in MB: VmHWM (since the last reset) where available,
    else ru_maxrss (since the process started)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    try:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    except Exception:  # pragma: no cover - non-POSIX
        return float("nan")


def bench_large(
    sizes: Iterable[Any],
    n: int = 2,
    pattern: Any = "cross",
    progress: Callable[[int, int, str], None] | None = None,
    repeats: int = 3,
    seed: int = 0,
    method: str = "chase",
) -> list[tuple[str, int, str, float, float]]:
    """Time Board.grid + Solver(method=method) + solve(minimal=False) on large boards
    (method: a Solver method, "chase" by default; "auto" times what Solver picks).

    sizes: ints (square boards) or (rows, cols) pairs. Each board is solved from a
    random solvable start ``repeats`` times; the median is reported and every answer is
    checked by direct application (Board.apply), outside the timing.
    progress(i, total, label) is called before each board.
    Returns rows (board, n, pattern, seconds, peak MB): peak MB is the peak resident
    memory of the process during the timed runs (VmHWM reset before them on Linux;
    elsewhere the peak since the process started). The start state and the check are
    made outside the timing and outside the peak.
    """
    sizes = list(sizes)
    out = []
    pname = pattern if isinstance(pattern, str) else "custom"
    rng = np.random.default_rng(seed)
    for i, s in enumerate(sizes):
        rows, cols = (s, s) if isinstance(s, (int, np.integer)) else tuple(s)
        label = f"{rows}x{cols}"
        if progress is not None:
            progress(i, len(sizes), label)
        tmp = Board.grid(rows, cols, states=n, pattern=pattern)
        start = tmp.random_state(rng=rng)
        del tmp  # drop its cached sparse matrix
        gc.collect()
        times = []
        _reset_peak()
        base_mb = _peak_mb()
        for _ in range(max(1, repeats)):
            t0 = time.perf_counter()
            b = Board.grid(rows, cols, states=n, pattern=pattern)
            sol = Solver(b, method=method).solve(start, minimal=False)
            times.append(time.perf_counter() - t0)
        peak = _peak_mb()
        base = Board.grid(rows, cols, states=n, pattern=pattern)
        if base.apply(start, sol.taps).any():
            raise AssertionError(f"{method} answer for {label} does not solve the board")
        out.append((label, n, pname, float(np.median(times)), peak))
        del sol, base
        gc.collect()
        _ = base_mb
    if progress is not None:
        progress(len(sizes), len(sizes), "done")
    return out


def random_packed(rows: int, cols: int, rng: Any = None) -> np.ndarray:
    """Uniformly random packed GF(2) rows (bits past the last column 0)."""
    gen = np.random.default_rng(rng)
    nb = (cols + 7) // 8
    a = (
        np.frombuffer(gen.bytes(rows * nb), dtype=np.uint8).reshape(rows, nb).copy()
        if rows * nb < 1 << 20
        else _big_random(gen, rows, nb)
    )
    if cols % 8:
        a[:, -1] &= np.uint8((0xFF << (8 - cols % 8)) & 0xFF)
    return a


def _big_random(gen: np.random.Generator, rows: int, nb: int) -> np.ndarray:
    """rows x nb random bytes filled in chunks (no second full-size buffer)."""
    a = np.empty((rows, nb), dtype=np.uint8)
    flat = a.reshape(-1)
    step = 1 << 26
    for i in range(0, flat.size, step):
        chunk = flat[i : i + step]
        chunk[:] = np.frombuffer(gen.bytes(chunk.size), dtype=np.uint8)
    return a


def bench_packed(
    sizes: Iterable[Any],
    pattern: Any = "cross",
    progress: Callable[[int, int, str], None] | None = None,
    repeats: int = 1,
    seed: int = 0,
) -> list[tuple[str, int, str, float, float]]:
    """Time Board.grid + Solver + solve_packed on GF(2) boards (the engine Solver picks:
    boards whose engine has no packed path are unpacked, or refused past MAX_TILES).

    sizes: ints (square boards) or (rows, cols) pairs. Rows as in
    :func:`bench_large`: (board, 2, pattern, median seconds, peak MB of
    the timed runs, the start state included since it is held throughout)."""
    from modlights.engines.packed import apply_packed

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
        x0 = random_packed(rows, cols, rng)
        if progress is not None:
            progress(i, len(sizes), f"{label} (start made, solving)")
        start, _ = apply_packed(board, x0)  # solvable: A x0
        del x0
        gc.collect()
        _reset_peak()
        times = []
        for _ in range(max(1, repeats)):
            t0 = time.perf_counter()
            b = Board.grid(rows, cols, states=2, pattern=pattern)
            taps = Solver(b).solve_packed(start)
            times.append(time.perf_counter() - t0)
            if len(times) < max(1, repeats):
                del taps
        peak = _peak_mb()
        if progress is not None:
            progress(i, len(sizes), f"{label} (checking)")
        _, bad = apply_packed(board, taps, start, write=False)
        if bad:
            raise AssertionError(f"solve_packed answer for {label} leaves {bad} tiles lit")
        out.append((label, 2, pname, float(np.median(times)), peak))
        del taps, start
        gc.collect()
    if progress is not None:
        progress(len(sizes), len(sizes), "done")
    return out
