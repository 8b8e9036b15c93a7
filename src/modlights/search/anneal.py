"""Simulated annealing over boards for hard boards: lower bounds on the hardest value.

A board is given by a tap vector x (the board is -A x); its fewest taps is
``min over c in ker A of weight(x + c)`` (entries read in 0..n-1). The annealing keeps
the coset-weight vector W[c] = weight(x + c) for every element c of a set E of kernel
elements (all of ker A when it is small, else a subgroup and samples), and updates it
per move (one tap changes value: W changes by ((v' + c_j) mod n) - ((v + c_j) mod n),
O(|E|)). The objective is min_c W[c], ties broken towards fewer minimisers (a board
whose minimum is attained by fewer elements is closer to a heavier one).

Over all of ker A the objective is the board's exact fewest taps; over a subset it is an
upper bound on it. Either way a candidate counts only after the exact coset search
proves its fewest taps (the caller's job: :func:`modlights.search.hardest.hardest`).

Deterministic given ``seed`` and ``moves`` (the temperature follows the move count,
not the clock); a ``deadline`` ends the walk early (Ctrl-C too: the walk is NumPy
calls, KeyboardInterrupt arrives between them, within milliseconds).

Complexity: O(|E| x r) to start, O(|E|) per move.
"""

from __future__ import annotations

import math
import time

import numpy as np

__all__ = ["T_END", "T_START", "Annealer"]

#: Temperature at the first and the last move (in taps: a move that loses one tap of
#: the objective is taken with probability exp(-1 / T)).
T_START = 3.0
T_END = 0.1
#: Moves whose random numbers are drawn at once.
BLOCK = 4096
#: Taps x elements of the n = 2 sign table at most (int16: twice as many bytes).
SIGN_TABLE_MAX = 1 << 26


class Annealer:
    """A walk over tap vectors x with the coset-weight vector of x over the elements
    ``values`` (m x r, uint8, the kernel elements' tap values; row 0 need not be 0).

    Parameters
    ----------
    values : uint8 (m, r)
    n : int, the modulus.
    movable : bool (r,), optional
        Taps the walk may change (default: every tap the elements touch; an untouched
        tap is best at n - 1 and is set so).
    seed : int
        The random stream (NumPy's default generator).
    """

    def __init__(
        self, values: np.ndarray, n: int, *, movable: np.ndarray | None = None, seed: int = 0
    ):
        self.n = int(n)
        values = np.asarray(values, dtype=np.uint8)
        self.m, self.r = values.shape
        self.cols = np.ascontiguousarray(values.T)  # r x m: tap j's column
        touched = self.cols.any(axis=1) if self.m else np.zeros(self.r, dtype=bool)
        self.movable = np.flatnonzero(
            touched if movable is None else (np.asarray(movable, dtype=bool) & touched)
        )
        self.untouched = np.flatnonzero(~touched)
        self.rng = np.random.default_rng(seed)
        lut = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
        self._diff = (lut[:, None, :] - lut[None, :, :]).astype(np.int32)  # [v', v, u]
        self.x = np.zeros(self.r, dtype=np.int64)
        self.W = np.zeros(self.m, dtype=np.int32)
        self._signs: np.ndarray | None = None
        self._prepare()

    def _prepare(self) -> None:
        """For n = 2 (and a table of at most ``SIGN_TABLE_MAX`` entries) keep each
        tap's change 0 -> 1 of W, 1 - 2 c_j (1 -> 0 is its negative), as int16, and W
        as int16 when r < 2^15: a move is then one add, one min and one compare."""
        self._signs = None
        if self.n == 2 and self.r * self.m <= SIGN_TABLE_MAX and self.r < 1 << 15:
            self._signs = (1 - 2 * self.cols.astype(np.int16)).astype(np.int16)
        self.W = self.W.astype(np.int16 if self._signs is not None else np.int32)

    def start(self, x: np.ndarray | None = None) -> None:
        """Start from x (default: random values on the movable taps); untouched taps
        are set to n - 1. O(m x r)."""
        n = self.n
        if x is None:
            x = np.zeros(self.r, dtype=np.int64)
            x[self.movable] = self.rng.integers(0, n, len(self.movable))
        self.x = np.asarray(x, dtype=np.int64).copy() % n
        self.x[self.untouched] = n - 1
        W = np.zeros(self.m, dtype=np.int32)
        for j in range(self.r):
            W += ((self.x[j] + self.cols[j]) % n).astype(np.int32)
        self.W = W.astype(self.W.dtype)

    def score(self, W: np.ndarray) -> tuple[int, int]:
        low = int(W.min()) if len(W) else 0
        return low, int(np.count_nonzero(W == low))

    def run(
        self,
        moves: int,
        *,
        deadline: float | None = None,
        t_start: float = T_START,
        t_end: float = T_END,
    ) -> tuple[np.ndarray, int]:
        """``moves`` proposed moves of the walk (stopped early at ``deadline``, a
        ``time.perf_counter()`` value, checked every 64 moves). Returns the best x seen
        (uint8) and its objective (min over the elements of weight(x + c))."""
        n = self.n
        x, W = self.x, self.W
        low, ties = self.score(W)
        best_x, best = x.copy(), low
        if not len(self.movable) or not self.m or moves <= 0:
            return best_x.astype(np.uint8), best
        ratio = t_end / t_start
        for i in range(moves):
            if i % BLOCK == 0:  # random numbers a block at a time (bounded memory)
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                size = min(BLOCK, moves - i)
                taps = self.rng.choice(self.movable, size=size)
                shifts = self.rng.integers(1, n, size=size)
                coins = self.rng.random(size)
            elif deadline is not None and i % 64 == 0 and time.perf_counter() >= deadline:
                break
            b = i % BLOCK
            j = int(taps[b])
            v = int(x[j])
            v2 = (v + int(shifts[b])) % n
            if self._signs is not None:
                W2 = W + self._signs[j] if v == 0 else W - self._signs[j]
            else:
                W2 = W + np.take(self._diff[v2, v], self.cols[j])
            low2, ties2 = self.score(W2)
            delta = (low2 - low) - (ties2 - ties) / (self.m + 1.0)
            temp = t_start * ratio ** (i / moves)
            if delta >= 0 or coins[b] < math.exp(delta / temp):
                x[j] = v2
                W, low, ties = W2, low2, ties2
                if low > best:
                    best, best_x = low, x.copy()
        self.x, self.W = x, W
        return best_x.astype(np.uint8), best

    def add_elements(self, values: np.ndarray) -> None:
        """More kernel elements (rows of tap values): their coset weights for the
        current x join W."""
        values = np.asarray(values, dtype=np.uint8).reshape(-1, self.r)
        if not len(values):
            return
        extra = ((self.x[None, :] + values.astype(np.int64)) % self.n).sum(axis=1)
        self.cols = np.ascontiguousarray(np.concatenate([self.cols, values.T], axis=1))
        self.W = np.concatenate([self.W.astype(np.int32), extra.astype(np.int32)])
        self.m = self.cols.shape[1]
        self._prepare()
