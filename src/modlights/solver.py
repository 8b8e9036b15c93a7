"""Solver: the one entry point for solving and analysing a board.

``Solver(board)`` factors the tap matrix once; every query after that reuses the
factorisation. ``backend="reference"`` is the pure-NumPy engine of
:mod:`modlights.reference`; ``backend="native"`` (the default) is the C core:
for n = 2 the bit-packed GF(2) engine (:class:`modlights._gf2.Gf2Engine`, Method
of Four Russians; grid and graph boards are packed straight from coordinates, no
dense matrix), for n >= 3 the Z/nZ engine (:class:`modlights._zn.ZnEngine`).
``Solver.engine`` says which one runs.
"""
from __future__ import annotations

import itertools
import time
from math import prod
from typing import Any, Iterator

import numpy as np

from .board import Board
from .reference import ReferenceEngine, is_prime

__all__ = ["Solver", "Solution", "Unsolvable", "DEFAULT_BUDGET"]

#: Coset elements examined by ``solve(minimal=True)`` when no budget is given:
#: the reference engine's Python enumeration, and the native C search.
DEFAULT_BUDGET = 1 << 20
DEFAULT_NATIVE_BUDGET = 1 << 24

_BACKENDS = ("native", "reference")
_METHODS = ("auto", "dense", "chase")

#: ``method="auto"`` uses the chase for grid boards with at least this many tiles
#: (rows * cols). Measured against the native dense engines (Solver + solve(minimal=
#: False), medians of 7, k x k cross boards, blocked chase with Z/n residuals on the
#: native Z/n engine), chase time / dense time:
#:   n = 2: k=8 2.2, k=12 2.0, k=16 1.2, k=24 0.68, k=32 0.31, k=40 0.17, k=48 0.09
#:   n = 3: k=8 1.3, k=12 1.4, k=16 1.1, k=24 0.66, k=32 0.35, k=40 0.20, k=48 0.05
#:   n = 4: k=8 0.8, k=12 1.3, k=16 1.6, k=24 0.89, k=32 0.54, k=40 0.19, k=48 0.16
#: so the crossover is near 20 x 20 - 24 x 24 for every n; 576 tiles is used for fields
#: and rings alike (CHASE_MIN_TILES_RING was 1600 while ring residuals went through
#: the reference engine).
CHASE_MIN_TILES = 576
CHASE_MIN_TILES_RING = 576


class Unsolvable(ValueError):
    """No tap counts take this state to the target. ``indices`` lists the unsolvable
    boards of a batch (``solve_many``); it is empty for a single board."""

    def __init__(self, message: str, indices: tuple[int, ...] = ()):
        super().__init__(message)
        self.indices = tuple(indices)


class Solution:
    """Tap counts solving a board: ``taps`` (0..n-1, shaped as the board for grids,
    (n_taps,) for graphs), ``length`` (physical taps) and ``proven_minimal``."""

    __slots__ = ("_board", "taps", "length", "proven_minimal", "kernel_size", "examined",
                 "pruned", "seconds")

    def __init__(self, board: Board, taps: np.ndarray, proven_minimal: bool,
                 kernel_size: int, examined: int, pruned: int = 0, seconds: float = 0.0):
        self._board = board
        self.taps = taps
        if taps.dtype == np.uint8 and board.states == 2:     # 0/1 counts: a popcount
            self.length = int(np.count_nonzero(taps))
        else:
            self.length = int(taps.sum(dtype=np.uint64 if taps.dtype.kind == "u"
                                       else np.int64))
        self.proven_minimal = bool(proven_minimal)
        self.kernel_size = kernel_size
        #: coset elements examined by the minimal search (0 when none ran)
        self.examined = examined
        #: coset elements the search skipped soundly by its sub-cube bound
        self.pruned = pruned
        #: seconds the minimal search took (examined / seconds = elements per second)
        self.seconds = seconds

    def moves(self) -> list:
        """Positions to tap, each repeated by its count, in row-major order."""
        b = self._board
        x = b.tap_vector(self.taps)
        out = []
        for pos, cnt in zip(b.taps, x.tolist()):
            out.extend([pos] * cnt)
        return out

    def __repr__(self) -> str:
        tag = "proven minimal" if self.proven_minimal else "not proven minimal"
        return f"Solution(length={self.length}, {tag})"


def _check_budget(budget: Any, default: int = DEFAULT_BUDGET) -> tuple[int | None, float | None]:
    """budget: None (default), an int (coset elements) or a float (seconds)."""
    if budget is None:
        return default, None
    if isinstance(budget, (bool, np.bool_)):
        raise ValueError("budget must be an int (coset elements) or a float (seconds)")
    if isinstance(budget, (int, np.integer)):
        if budget < 0:
            raise ValueError(f"budget must be >= 0, got {budget}")
        return int(budget), None
    if isinstance(budget, (float, np.floating)):
        if not budget >= 0:
            raise ValueError(f"budget seconds must be >= 0, got {budget}")
        return None, float(budget)
    raise ValueError(f"budget must be None, an int (coset elements) or a float (seconds), "
                     f"got {type(budget).__name__}")


class Solver:
    """Factor a board's tap matrix once; answer every question about it.

    backend: ``"native"`` (default: the C engines) or ``"reference"`` (pure NumPy).
    For n = 2 ``"native"`` is :class:`modlights._gf2.Gf2Engine` (csrc/gf2.c): bit-packed
    GF(2) elimination. For n >= 3 it is :class:`modlights._zn.ZnEngine` (csrc/zn.c):
    band-aware elimination with delayed reduction over each prime-power factor of n
    (CRT), unit pivots first, then valuation pivots for rings, so composite n (4, 6, 8,
    12, ...) is exact: solvability, a solution, kernel generators with their orders,
    |ker A|, det, inverse and pseudo-inverse (where one exists).

    method: ``"auto"`` (default), ``"dense"`` or ``"chase"``.
    ``"dense"`` factors the dense tap matrix. ``"chase"`` (grid boards only) solves
    by generalised light chasing (:mod:`modlights.chase`): it never builds the dense
    matrix and reduces the board to a residual system of about cols x pattern-height
    unknowns; det / inverse / pseudo_inverse then fall back to the dense engine for
    boards of at most 2^22 matrix entries and raise ValueError beyond.
    ``"auto"`` picks the chase for grid boards of at least ``CHASE_MIN_TILES`` (576)
    tiles with the native backend, and dense otherwise: the measured crossover against
    the native dense engines is near 24 x 24 (see ``CHASE_MIN_TILES``); past it the chase
    wins by a growing factor (11x at 48 x 48 over GF(2)) and needs no dense matrix at
    all. Solving 1000 x 1000 GF(2) cross boards takes ~0.012 s, 2000 x 2000 ~0.04 s,
    10000 x 10000 ~2.3 s (2 cores).
    Chase-routed boards get a default coset budget bounded by work (about 2^30
    operations) so ``solve(minimal=True)`` on a huge board returns instead of hanging.
    """

    def __init__(self, board: Board, backend: str = "native", method: str = "auto"):
        if not isinstance(board, Board):
            raise ValueError(f"Solver needs a Board, got {type(board).__name__}")
        if backend not in _BACKENDS:
            raise ValueError(f"unknown backend {backend!r}: use one of {_BACKENDS}")
        if not isinstance(method, str) or method not in _METHODS:
            raise ValueError(f"unknown method {method!r}: use one of {_METHODS}")
        if method == "chase" and not board.is_grid:
            raise ValueError("method='chase' needs a grid board (Board.grid); use "
                             "method='dense' or 'auto' for graph boards")
        if method == "auto":
            from .chase import chase_supports
            method = "chase" if (board.is_grid and backend == "native"
                                 and prod(board.shape) >= (CHASE_MIN_TILES if
                                                           is_prime(board.states) else
                                                           CHASE_MIN_TILES_RING)
                                 and chase_supports(board)) else "dense"
        self.board = board
        self.backend = backend
        self.method = method
        self.n = board.states
        self._gens: tuple[np.ndarray, list[int]] | None = None
        self._pruned = 0
        self._rank_only: int | None = None
        # A dense GF(2) factorisation keeps its transform ([A | I] is reduced); rank
        # and nullity alone need much less, so that engine is built on first use.
        self._lazy = backend == "native" and method == "dense" and self.n == 2
        self._eng = None if self._lazy else self._make_engine(board, backend, method)

    @property
    def _engine(self):
        if self._eng is None:
            self._eng = self._make_engine(self.board, self.backend, self.method)
        return self._eng

    def _gf2_rank(self) -> int | None:
        """rank(A) by one elimination without transforms (GF(2), engine not built)."""
        if not self._lazy or self._eng is not None:
            return None
        if self._rank_only is None:
            from . import _gf2
            self._rank_only = _gf2.rank(self.board.matrix())
        return self._rank_only

    @property
    def _default_budget(self) -> int:
        if self.backend != "native":
            return DEFAULT_BUDGET
        if self.method == "chase":
            # Boards routed to the chase can be huge and a coset step costs O(n_taps)
            # (O(n_taps / 64) over GF(2)): bound the default work to ~2^30 operations
            # (about a second) instead of hanging; proven_minimal stays honest.
            per_step = max(1, self.board.n_taps // (64 if self.n == 2 else 1))
            return max(1 << 8, min(DEFAULT_NATIVE_BUDGET, (1 << 30) // per_step))
        return DEFAULT_NATIVE_BUDGET

    @staticmethod
    def _make_engine(board: Board, backend: str, method: str = "dense"):
        if method == "chase":
            from .chase import ChaseEngine
            return ChaseEngine(board)
        n = board.states
        if backend == "native" and n == 2:
            from ._gf2 import Gf2Engine
            if board._dense is not None:
                return Gf2Engine(board.matrix())
            ci, tj = board.coo()          # packed straight from coordinates
            return Gf2Engine.from_coo(board.n_cells, board.n_taps, ci, tj)
        if backend == "native" and n >= 3:
            from ._zn import ZnEngine
            if board._dense is not None:
                return ZnEngine(board.matrix(), n)
            ci, tj = board.coo()
            return ZnEngine.from_coo(board.n_cells, board.n_taps, ci, tj, n)
        return ReferenceEngine(board.matrix(), board.states)

    @property
    def engine(self) -> str:
        """Name of the engine doing the work."""
        return self._engine.name

    # ---------------------------------------------------------------- structure
    def _generators(self) -> tuple[np.ndarray, list[int]]:
        if self._gens is None:
            self._gens = self._engine.generators()
        return self._gens

    @property
    def kernel_size(self) -> int:
        """|ker A| as an exact Python int."""
        rk = self._gf2_rank()
        if rk is not None:
            return 1 << (self.board.n_taps - rk)
        return int(self._engine.kernel_size)

    @property
    def nullity(self) -> int:
        """dim ker A for prime n; for composite n the number of kernel generators
        (the fewest cyclic summands of ker A)."""
        rk = self._gf2_rank()
        if rk is not None:
            return self.board.n_taps - rk
        return len(self._generators()[1])

    @property
    def rank(self) -> int:
        """n_taps - nullity (for prime n, the rank of A)."""
        return self.board.n_taps - self.nullity

    def kernel(self) -> np.ndarray:
        """Generators of ker A as rows (uint8, k x n_taps); a basis for prime n.
        ker A is the direct sum of the cyclic groups they generate
        (see ``kernel_orders``)."""
        return self._generators()[0].copy()

    @property
    def kernel_orders(self) -> list[int]:
        """Additive order of each row of ``kernel()``; their product is |ker A|."""
        return list(self._generators()[1])

    @property
    def is_unique(self) -> bool:
        return self.kernel_size == 1

    @property
    def is_invertible(self) -> bool:
        """A square and det(A) a unit mod n."""
        b = self.board
        return b.n_cells == b.n_taps and self.kernel_size == 1

    def det(self) -> int:
        """det(A) mod n, in [0, n). ValueError unless A is square."""
        return int(self._engine.det())

    def inverse(self) -> np.ndarray:
        """A^-1 mod n (uint8, n_taps x n_cells); ValueError unless square and invertible."""
        return self._engine.inverse()

    def pseudo_inverse(self) -> np.ndarray:
        """G (n_taps x n_cells) with A G A = A mod n; ValueError where none exists."""
        return self._engine.pseudo_inverse()

    # ---------------------------------------------------------------- solving
    def _rhs(self, state: Any, target: Any) -> np.ndarray:
        """t - s (mod n) over the cells, uint8, for reading only (see
        Board._rhs_cells). A uint8 state in range is read in place (one ``max`` pass);
        no temporaries wider than a byte."""
        return self.board._rhs_cells(state, target)

    def _rhs_many(self, states: Any, target: Any) -> np.ndarray:
        b = self.board
        arr = np.asarray(states)
        if arr.ndim != len(b.shape) + 1 or arr.shape[1:] != b.shape:
            raise ValueError(f"states must have shape (k, {', '.join(map(str, b.shape))}), "
                             f"got {arr.shape}")
        from .board import _as_int_array, _in_range, _reduce_mod, _sub_mod
        if arr.dtype != np.uint8 or not _in_range(arr, self.n):
            arr = _reduce_mod(_as_int_array(arr, "states"), self.n)
        red = arr.reshape(arr.shape[0], prod(b.shape))
        mask = b._cell_mask()
        S = red if mask is None else red[:, mask]
        t = b._target_int(target)
        if t is None:
            t = np.broadcast_to(b._state_cells(target, "target"), S.shape)
        return _sub_mod(t, S, self.n)               # (k, m), values 0..n-1

    def solvable(self, state: Any, target: Any = 0) -> bool:
        """Whether some tap counts take ``state`` to ``target``."""
        rhs = self._rhs(state, target)
        _, ok = self._engine.solve(rhs[None, :])
        return bool(ok[0])

    def solvable_many(self, states: Any, target: Any = 0) -> np.ndarray:
        """bool (k,) for a (k, *board.shape) stack of states."""
        R = self._rhs_many(states, target)
        _, ok = self._engine.solve(R)
        return ok

    def solve(self, state: Any, target: Any = 0, *, minimal: bool = True,
              budget: Any = None) -> Solution:
        """A solution of ``state + A x = target``; raises Unsolvable when none exists.

        minimal=True searches the coset x0 + ker A for the fewest physical taps.
        budget: coset elements to examine (an int) or seconds (a float); 0 means no
        search. Default: DEFAULT_NATIVE_BUDGET (2^24, well under a second in the C
        search) on the native backend, less on huge chase-solved boards (about 2^30
        word operations), DEFAULT_BUDGET (2^20) on the reference backend.
        ``proven_minimal`` is True only when the whole coset was covered; otherwise
        the best element found, improved greedily, is returned.
        """
        steps, seconds = _check_budget(budget, self._default_budget)
        rhs = self._rhs(state, target)
        X, ok = self._engine.solve(rhs[None, :])
        if not ok[0]:
            raise Unsolvable("this board cannot reach the target: t - s is not in the "
                             "image of the tap matrix")
        x = X[0]
        ks = self.kernel_size
        if not minimal:
            # X is the engine's new array, owned here: shaped without a copy
            return Solution(self.board, self.board.from_tap_vector(x, copy=False), ks == 1,
                            ks, 0)
        t0 = time.perf_counter()
        self._pruned = 0
        x, proven, examined = self._minimise(x, steps, seconds)
        return Solution(self.board, self.board.from_tap_vector(x, copy=False), proven, ks,
                        examined, self._pruned, time.perf_counter() - t0)

    def min_taps_many(self, states: Any, target: Any = 0, *, budget: Any = None
                      ) -> tuple[np.ndarray, np.ndarray]:
        """The fewest physical taps for every board of a (k, *board.shape) stack, from
        one factorisation: (lengths int64 (k,), proven bool (k,)). Unsolvable boards
        get length -1 and proven True (proved unsolvable)."""
        R = self._rhs_many(states, target)
        X, ok = self._engine.solve(R)
        steps, seconds = _check_budget(budget, self._default_budget)
        lengths = np.full(len(ok), -1, dtype=np.int64)
        proven = np.ones(len(ok), dtype=bool)
        for i in np.flatnonzero(ok):
            x, pr, _ = self._minimise(X[i], steps, seconds)
            lengths[i] = int(x.sum(dtype=np.int64))
            proven[i] = pr
        return lengths, proven

    def solve_many(self, states: Any, target: Any = 0, *, minimal: bool = False,
                   budget: Any = None) -> np.ndarray:
        """Solve a (k, *board.shape) stack from one factorisation: (k, *shape) tap
        counts. Raises Unsolvable naming the unsolvable indices."""
        R = self._rhs_many(states, target)
        X, ok = self._engine.solve(R)
        if not ok.all():
            bad = tuple(int(i) for i in np.flatnonzero(~ok))
            shown = ", ".join(map(str, bad[:20])) + (" ..." if len(bad) > 20 else "")
            raise Unsolvable(f"{len(bad)} of {len(ok)} boards are unsolvable: indices {shown}", bad)
        if minimal and len(X):
            steps, seconds = _check_budget(budget, self._default_budget)
            X = np.stack([self._minimise(x, steps, seconds)[0] for x in X])
        return self.board.from_tap_vectors(X)

    def hardest(self, *, budget: Any = None, executor: Any = None):
        """The hardest solvable board (target 0): the largest fewest-taps over every
        solvable board (the covering radius of ker A) and a board that needs it.

        budget: seconds (None: until proved); past it the best board found is returned
        with ``proven=False``. executor: passed on to the coset searches where
        ``solve`` takes one. Returns a :class:`modlights.search.hardest.Hardest`
        (``min_taps``, ``state``, ``proven``, ``lower``, ``upper``, ``seconds``,
        ``iterations``); see :mod:`modlights.search.hardest` for the algorithm.
        """
        from .search.hardest import hardest
        return hardest(self, budget=budget, executor=executor)

    def solutions(self, state: Any, target: Any = 0) -> Iterator[np.ndarray]:
        """Every solution's tap counts, each exactly once (|ker A| of them)."""
        rhs = self._rhs(state, target)
        X, ok = self._engine.solve(rhs[None, :])
        if not ok[0]:
            return iter(())
        x0 = X[0].astype(np.int64)
        H, orders = self._generators()
        H = H.astype(np.int64)
        n = self.n
        board = self.board

        def gen():
            for coeffs in itertools.product(*[range(o) for o in orders]):
                x = x0.copy()
                for c, h in zip(coeffs, H):
                    if c:
                        x += c * h
                yield board.from_tap_vector((x % n).astype(np.uint8))
        return gen()

    # ---------------------------------------------------------------- minimal search
    def _minimise(self, x0: np.ndarray, steps: int | None, seconds: float | None
                  ) -> tuple[np.ndarray, bool, int]:
        """Least-length element of x0 + ker A by enumeration (within the budget)."""
        H, orders = self._generators()
        total = prod(orders)
        n = self.n
        if total == 1:
            return x0.astype(np.uint8), True, 1
        if steps == 0 or (seconds is not None and seconds <= 0):
            best = self._descend(x0.astype(np.int64), H.astype(np.int64), orders)
            return best.astype(np.uint8), int(x0.sum()) == 0, 0
        if self.backend == "native":
            from . import _coset
            # A coset of 2^62 or more elements is never covered: search the sub-coset
            # of the generators that fit (C enumeration), then descend; not proved.
            k = len(orders)
            while prod(orders[:k]) >= 1 << 62:
                k -= 1
            best, _, examined, self._pruned, complete = _coset.coset_min(
                x0.astype(np.uint8), H[:k], orders[:k], n, budget=steps or 0,
                seconds=seconds if seconds is not None else 0.0)
            complete = complete and k == len(orders)
            if not complete:
                best = self._descend(best.astype(np.int64), H.astype(np.int64), orders)
            return best.astype(np.uint8), complete, examined
        x0 = x0.astype(np.int64)
        limit = total if steps is None else min(total, steps)
        deadline = None if seconds is None else time.perf_counter() + seconds
        Hi = H.astype(np.int64)
        best = x0.copy()
        best_len = int(best.sum())
        chunk = max(1, min(1 << 14, (1 << 22) // max(1, self.board.n_taps)))
        start = 0
        while start < limit and best_len > 0:
            stop = min(limit, start + chunk)
            idx = np.arange(start, stop, dtype=object) if total >= 1 << 62 else \
                np.arange(start, stop, dtype=np.int64)
            C = np.empty((stop - start, len(orders)), dtype=np.int64)
            rem = idx
            for i, o in enumerate(orders):
                C[:, i] = (rem % o).astype(np.int64)
                rem = rem // o
            X = (x0[None, :] + C @ Hi) % n
            lens = X.sum(axis=1)
            i = int(np.argmin(lens))
            if lens[i] < best_len:
                best_len = int(lens[i])
                best = X[i]
            start = stop
            if deadline is not None and time.perf_counter() > deadline:
                break
        covered = start >= total
        proven = covered or best_len == 0
        if not covered:
            best = self._descend(best, Hi, orders)
        return best.astype(np.uint8), proven, start

    def _descend(self, x: np.ndarray, H: np.ndarray, orders: list[int]) -> np.ndarray:
        """Greedy improvement: add multiples of single generators while it helps."""
        n = self.n
        improved = True
        cur = x.copy()
        cur_len = int(cur.sum())
        while improved:
            improved = False
            for h, o in zip(H, orders):
                cands = (cur[None, :] + np.arange(1, o, dtype=np.int64)[:, None] * h[None, :]) % n
                lens = cands.sum(axis=1)
                i = int(np.argmin(lens))
                if lens[i] < cur_len:
                    cur, cur_len, improved = cands[i], int(lens[i]), True
        return cur
