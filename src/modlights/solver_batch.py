"""The Solver's batch questions: many states of one board from one factorisation
(``solvable_many``, ``min_taps_many``, ``solve_many``) and bit-packed GF(2) states
(``solve_packed``), and the C solver's searches over an executor or with a progress
callback (``_solve_c_split``: the split search of csrc/api/search.c driven by
:mod:`modlights.search.split`). :class:`SolverBatches` is a base class of
:class:`modlights.solver.Solver`, which holds the engine, the budgets and the kernel
these methods use; every method here is one of ``Solver``'s (docs/reference/api.md
documents them there).
"""

from __future__ import annotations

import os
import time
from math import prod
from typing import TYPE_CHECKING, Any

import numpy as np

from modlights import solver_native as _cn
from modlights.engines import registry
from modlights.model.board import MAX_TILES, Board
from modlights.search import minimal as _minimal
from modlights.search.checkpoint import Checkpoint
from modlights.search.minimal import check_executor, minimise
from modlights.search.split import split_search, split_search_many
from modlights.solution import Solution, Unsolvable
from modlights.solver_budget import _check_budget, _check_progress, _deadline, _share

if TYPE_CHECKING:
    from modlights.engines.registry import Plan
    from modlights.search.minimal import Kernel

__all__ = ["SolverBatches"]


class SolverBatches(_cn.NativeSolver):
    """The batch questions of :class:`modlights.solver.Solver` (a Solver is one; this
    class is never made by itself)."""

    if TYPE_CHECKING:  # what Solver provides
        board: Board
        n: int
        method: str

        @property
        def plan(self) -> Plan: ...

        @property
        def _engine(self) -> Any: ...

        def _search_budget(
            self, budget: Any, boards: int = 1
        ) -> tuple[int | None, float | None]: ...

        def _kernel(self) -> Kernel: ...

        @property
        def kernel_size(self) -> int: ...

        def solve(
            self,
            state: Any,
            target: Any = 0,
            *,
            minimal: bool = True,
            budget: Any = None,
            executor: Any = None,
            progress: Any = None,
            checkpoint: Any = None,
        ) -> Solution: ...

    def _rhs_many(self, states: Any, target: Any) -> np.ndarray:
        b = self.board
        arr = np.asarray(states)
        if arr.ndim != len(b.shape) + 1 or arr.shape[1:] != b.shape:
            raise ValueError(
                f"states must have shape (k, {', '.join(map(str, b.shape))}), got {arr.shape}"
            )
        from modlights.model.board_matrix import _as_int_array, _reduce_mod, _sub_mod
        from modlights.model.validation import in_range

        if arr.dtype != np.uint8 or not in_range(arr, self.n):
            arr = _reduce_mod(_as_int_array(arr, "states"), self.n)
        red = arr.reshape(arr.shape[0], prod(b.shape))
        mask = b._cell_mask()
        S = red if mask is None else red[:, mask]
        t: int | np.ndarray | None = b._target_int(target)
        if t is None:
            t = np.broadcast_to(b._state_cells(target, "target"), S.shape)
        return _sub_mod(t, S, self.n)  # (k, m), values 0..n-1

    def solvable_many(self, states: Any, target: Any = 0) -> np.ndarray:
        """bool (k,) for a ``(k, *board.shape)`` stack of states.

        Examples
        --------
        >>> b = ml.Board.grid(4, 4, states=2)
        >>> states = np.zeros((3, 4, 4), dtype=int)
        >>> states[1, 0, 0] = 1
        >>> states[2] = b.random_state(rng=2)
        >>> ml.Solver(b).solvable_many(states)
        array([ True, False,  True])
        """
        if self._on_c:
            b = self.board
            return self._cask("solvable_many", _cn.c_states(b, states), _cn.c_target(b, target))
        R = self._rhs_many(states, target)
        _, ok = self._engine.solve(R)
        return ok

    def _check_checkpoint(
        self, path: Any, minimal: bool, executor: Any, steps: Any, seconds: Any
    ) -> Checkpoint:
        """``solve``'s checkpoint: a Checkpoint of ``path``, or ValueError saying what
        the split search it keeps needs (checked before any work)."""
        if not isinstance(path, (str, os.PathLike)):
            raise ValueError(
                f"checkpoint must be a file path (str or os.PathLike), got {type(path).__name__}"
            )
        ks = self.kernel_size
        if not (
            self._on_c
            and minimal
            and executor is not None
            and seconds is None
            and steps is not None
            and 1 < ks <= steps
            and ks < 1 << 62
        ):
            raise ValueError(
                "checkpoint= keeps the tasks of a search split over an executor: it needs "
                "the native backend, minimal=True, executor= and a budget that covers the "
                f"whole coset (a count of at least kernel_size = {ks}, below 2^62; "
                "a coset of one element needs no search)"
            )
        return Checkpoint(path)

    def _solve_c_split(
        self,
        state: Any,
        target: Any,
        budget: Any,
        steps: Any,
        seconds: Any,
        executor: Any,
        progress: Any,
        checkpoint: Any = None,
    ) -> Solution:
        """``Solver.solve(minimal=True)`` by the C solver with an executor or a progress
        callback. A budget that covers the whole coset (a count of at least |ker A|,
        fewer than 2^62) with an executor: the C split search over it
        (:func:`modlights.search.split.split_search`, keeping its answers in
        ``checkpoint`` when given), proved; otherwise
        ``ml_solver_solve`` within the budget, as without an executor. ``progress(done,
        total)`` (total |ker A|, coset elements) is told 0 first and at the end the
        elements covered (total when proved); in between, after each wait of a split
        search the share merged, else the C search's own figures as it reports them
        (``_core.capi_solve_progress``: the transform search's chunks, at most every
        20 ms), growing; an exception ``progress`` raises stops the search. The
        Solution's counts, proof and certificate are the C result's; its seconds this
        call's. ``progress`` runs under the Solver's lock: it must not call this
        Solver."""
        b = self.board
        if budget is None:
            steps, seconds = self._search_budget(None)
        ks = self.kernel_size
        st, t = _cn.c_state_target(b, state, target)
        t0 = time.perf_counter()
        if (
            executor is not None
            and 1 < ks < 1 << 62
            and seconds is None
            and steps is not None
            and ks <= steps
        ):
            from modlights.native._core import capi_search

            with self._c_lock:
                q = capi_search(self._csolver(), st, t)
            res = split_search(q, executor, progress, ks, checkpoint)
        elif progress is None:
            res = self._cask("solve_result", st, t, True, _cn.c_budget(steps, seconds), True, False)
        else:
            from modlights.native._core import capi_solve_progress

            last = [0]

            def told(done: int, total: int) -> None:  # C's figures, growing, not the last
                if last[0] < done < total:
                    last[0] = done
                    progress(done, total)

            progress(0, ks)
            with self._c_lock:
                res = capi_solve_progress(
                    self._csolver(), st, t, _cn.c_budget(steps, seconds), told
                )
            if res is not None:
                progress(ks if res.proven_minimal else max(last[0], min(ks, res.examined)), ks)
        sol = _cn.solution(b, res, True)
        sol.seconds = time.perf_counter() - t0
        return sol

    def _c_exhaustive(self, budget: Any, steps: Any, seconds: Any) -> bool:
        """Whether the budget covers every coset (as csrc/api/solve.c's rule): a trivial kernel,
        or a count of at least |ker A| and below 2^62 (the default's by count)."""
        if budget is None:
            steps, seconds = self._search_budget(None)
        ks = self.kernel_size
        return ks == 1 or (
            seconds is None and steps is not None and 0 < steps and ks <= steps and ks < 1 << 62
        )

    def _c_split_many(self, S: np.ndarray, t: Any, executor: Any, taps: bool) -> Any:
        """The C many-coset split search of the stack S over ``executor`` (rows split,
        :func:`modlights.search.split.split_search_many`): the finished handle."""
        from modlights.native._core import capi_search_many

        with self._c_lock:
            q = capi_search_many(self._csolver(), S, t)
        split_search_many(q, len(S), executor, taps)
        return q

    def _c_min_taps_many(
        self,
        states: Any,
        target: Any,
        budget: Any,
        steps: Any,
        seconds: Any,
        executor: Any,
        progress: Any,
    ) -> tuple[np.ndarray, np.ndarray]:
        """``min_taps_many`` by the C solver with an executor or progress: an exhaustive
        budget searches the batch whole (rows split over the executor past
        ``MIN_ROWS_PER_TASK`` states, else one C call), progress told once at the end;
        another searches board by board (each a one-board C batch by its share of the
        deadline, or by the count), progress told after each solvable board."""
        b = self.board
        S, t = _cn.c_states(b, states), _cn.c_target(b, target)
        k = len(S)
        if self._c_exhaustive(budget, steps, seconds):
            if executor is not None and k > _minimal.MIN_ROWS_PER_TASK:
                q = self._c_split_many(S, t, executor, False)
                lengths, proven = q.lengths(False)[0], q.proven()
            else:  # by a count (the default's or the caller's): no board count needed
                bud = self._c_batch_budget(budget, steps, seconds, k)
                lengths, proven = self._cask("min_taps_many", S, t, bud)
            if progress is not None:
                progress(k, k)
            return lengths, proven
        ok = self._cask("solvable_many", S, t)
        lengths = np.full(k, -1, dtype=np.int64)
        proven = np.ones(k, dtype=bool)
        rows = np.flatnonzero(ok)
        if budget is None:
            steps, seconds = self._search_budget(None, len(rows))
        deadline = _deadline(seconds)
        for j, i in enumerate(rows):
            if deadline is None:
                one = int(steps) if steps is not None else float("inf")
            else:
                share = _share(deadline, len(rows) - j)
                assert share is not None  # a deadline gives a share of it
                one = max(1e-9, share - time.perf_counter())
            got = self._cask("min_taps_many", S[i : i + 1], t, one)
            lengths[i], proven[i] = int(got[0][0]), bool(got[1][0])
            if progress is not None:
                progress(int(i) + 1, k)
        return lengths, proven

    def _c_batch_budget(self, budget: Any, steps: Any, seconds: Any, boards: Any) -> Any:
        """The C solver's budget for a batch's searches: the checked count or seconds,
        or for None :meth:`_c_default_budget` of ``boards`` boards (an int or a callable,
        asked only for a DEFAULT_SECONDS set away from the C library's)."""
        if budget is None:
            return self._c_default_budget(boards)
        return _cn.c_budget(steps, seconds)

    def min_taps_many(
        self,
        states: Any,
        target: Any = 0,
        *,
        budget: Any = None,
        executor: Any = None,
        progress: Any = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The fewest physical taps for every board of a stack, from one factorisation.

        Parameters
        ----------
        states : array_like of int
            A ``(k, *board.shape)`` stack of states.
        target : int or array_like of int
            As in :meth:`solve`, the same for every board.
        budget : int or float, optional
            A count of coset elements per board, or seconds for the whole call (a
            deadline as in :meth:`solve`, shared out evenly over the boards not yet
            searched). Default (None): as in :meth:`solve`, per board: cosets within
            the default count searched whole (in one C call for the batch), larger
            ones for DEFAULT_SECONDS a board (the call's deadline is DEFAULT_SECONDS
            times the number of solvable boards, shared out as seconds are).
        executor : concurrent.futures.Executor, optional
            When the budget covers the whole coset, the boards are split by rows over
            its workers.
        progress : callable, optional
            ``progress(done, k)``, called after each board, or once at the end of a
            batch.

        Returns
        -------
        lengths : numpy.ndarray
            int64 (k,): each board's fewest taps; -1 for an unsolvable board.
        proven : numpy.ndarray
            bool (k,): whether each length is proved (True for unsolvable boards:
            proved unsolvable).

        Notes
        -----
        When the budget covers the whole coset (the default does for kernels up to
        2^24 elements, fewer on boards with many taps) the native backend searches
        every board in one C call, the
        kernel shared (``ml_solver_min_taps_many``); otherwise
        each board is searched as :meth:`solve` would, within the budget. Ctrl-C stops
        it within a second (KeyboardInterrupt).

        Examples
        --------
        >>> b = ml.Board.grid(4, 4, states=2)
        >>> states = np.stack([b.random_state(rng=i) for i in range(4)])
        >>> lengths, proven = ml.Solver(b).min_taps_many(states)
        >>> lengths, proven
        (array([7, 4, 5, 5]), array([ True,  True,  True,  True]))
        """
        check_executor(executor)
        steps, seconds = _check_budget(budget)
        deadline = _deadline(seconds)
        progress = _check_progress(progress)
        if self._on_c:
            if executor is not None or progress is not None:
                return self._c_min_taps_many(
                    states, target, budget, steps, seconds, executor, progress
                )
            b = self.board
            S, t = _cn.c_states(b, states), _cn.c_target(b, target)
            # DEFAULT_SECONDS a solvable board, when set away from C's default
            bud = self._c_batch_budget(
                budget, steps, seconds, lambda: int(self._cask("solvable_many", S, t).sum())
            )
            lengths, proven = self._cask("min_taps_many", S, t, bud)
            return lengths, proven
        R = self._rhs_many(states, target)
        X, ok = self._engine.solve(R)
        lengths = np.full(len(ok), -1, dtype=np.int64)
        proven = np.ones(len(ok), dtype=bool)
        rows = np.flatnonzero(ok)
        if budget is None:  # the default: by count or seconds a board, by the coset's size
            steps, seconds = self._search_budget(None, len(rows))
            deadline = _deadline(seconds)
        kernel = self._kernel()  # the NumPy search, board by board
        for j, i in enumerate(rows):
            x, pr, _, _ = minimise(X[i], kernel, steps, _share(deadline, len(rows) - j))
            lengths[i] = int(x.sum(dtype=np.int64))
            proven[i] = pr
            if progress is not None:
                progress(int(i) + 1, len(ok))
        return lengths, proven

    def solve_many(
        self,
        states: Any,
        target: Any = 0,
        *,
        minimal: bool = False,
        budget: Any = None,
        executor: Any = None,
    ) -> np.ndarray:
        """Solve a stack of states from one factorisation.

        Parameters
        ----------
        states : array_like of int
            A ``(k, *board.shape)`` stack of states.
        target : int or array_like of int
            As in :meth:`solve`, the same for every board.
        minimal : bool
            The fewest taps per board, searched as :meth:`min_taps_many` does (one C
            call for the batch when the budget covers the coset; seconds are a deadline
            for the whole call). Default False: the engine's particular solutions.
        budget : int or float, optional
            As in :meth:`min_taps_many` (default: about a second a board whose coset is
            too large to be searched whole by count).
        executor : concurrent.futures.Executor, optional
            Splits the boards by rows over its workers (``minimal=True``).

        Returns
        -------
        numpy.ndarray
            ``(k, *shape)`` tap counts (``(k, n_taps)`` for graph boards).

        Raises
        ------
        Unsolvable
            Naming the unsolvable indices (``.indices``). Ctrl-C stops the search within
            a second (KeyboardInterrupt).

        Examples
        --------
        >>> b = ml.Board.grid(3, 3, states=3)
        >>> states = np.stack([b.random_state(rng=i) for i in range(3)])
        >>> taps = ml.Solver(b).solve_many(states)
        >>> taps.shape
        (3, 3, 3)
        >>> all(not b.apply(s, x).any() for s, x in zip(states, taps))
        True
        """
        steps, seconds = _check_budget(budget) if minimal else (None, None)
        deadline = _deadline(seconds)
        check_executor(executor)
        if self._on_c:
            b = self.board
            S, t = _cn.c_states(b, states), _cn.c_target(b, target)
            bud = self._c_batch_budget(budget, steps, seconds, len(S)) if minimal else None
            if (
                minimal
                and executor is not None
                and len(S) > _minimal.MIN_ROWS_PER_TASK
                and self._c_exhaustive(budget, steps, seconds)
            ):  # the C many-coset split search over the executor
                lengths, X = self._c_split_many(S, t, executor, True).lengths(True)
                if (lengths < 0).any():
                    raise _unsolvable(lengths >= 0)
            else:
                X, ok = self._cask("solve_many", S, t, minimal, bud, False)
                if X is None:
                    raise _unsolvable(ok)
            return X.reshape((len(S), *b.shape)) if b.is_grid else X
        R = self._rhs_many(states, target)
        X, ok = self._engine.solve(R)
        if not ok.all():
            raise _unsolvable(ok)
        if minimal and len(X):
            if budget is None:  # the default: by count or seconds a board
                steps, seconds = self._search_budget(None, len(X))
                deadline = _deadline(seconds)
            kernel = self._kernel()  # the NumPy search, board by board
            X = np.stack(
                [
                    minimise(x, kernel, steps, _share(deadline, len(X) - j))[0]
                    for j, x in enumerate(X)
                ]
            )
        return self.board.from_tap_vectors(X)

    def solve_packed(self, packed: Any, target: Any = 0) -> np.ndarray:
        """Solve a GF(2) grid board given bit-packed: ``packed = np.packbits(state,
        axis=1)``, uint8 of shape (rows, ceil(cols / 8)) (bits past the last column are
        ignored). Returns the taps in the same layout (``np.unpackbits(taps, axis=1,
        count=cols)`` gives them board-shaped, bits past the last column are 0).

        target: 0, 1 or a packed array shaped like ``packed``. n = 2 only. Raises
        Unsolvable when no taps reach the target. Boards of the algebraic engine (the
        cross family, not tori; left-right symmetric 3 x 3 patterns such as diagonal)
        and of the tensor engine (square, horizontal, vertical, product patterns; tori
        too) are never unpacked (a 100000 x 100000 board needs 1.25 GB a state; 10000 x
        10000 square or diagonal solve in well under a second); others are unpacked,
        solved with ``solve(minimal=False)`` and packed again (boards past MAX_TILES:
        ValueError).

        Examples
        --------
        >>> b = ml.Board.grid(16, 20, states=2)
        >>> state = b.random_state(rng=1)
        >>> packed = np.packbits(state, axis=1)
        >>> packed.shape
        (16, 3)
        >>> taps = ml.Solver(b).solve_packed(packed)
        >>> x = np.unpackbits(taps, axis=1, count=20)
        >>> bool(b.apply(state, x).any())
        False
        """
        b = self.board
        if self.n != 2 or not b.is_grid:
            raise ValueError(
                f"solve_packed needs a grid board with n = 2 (bit-packed "
                f"states), this one has n = {self.n}"
                + ("" if b.is_grid else " and is a graph board")
            )
        rows, cols = b.shape
        want = (rows, (cols + 7) // 8)
        arr = packed if isinstance(packed, np.ndarray) else None
        if arr is None or arr.dtype != np.uint8 or arr.shape != want:
            got = f"{arr.dtype} {arr.shape}" if arr is not None else type(packed).__name__
            raise ValueError(
                f"packed must be np.packbits(state, axis=1): uint8 of shape {want}, got {got}"
            )
        t = b._target_int(target)
        tc = 0
        if t is None:
            tarr = target if isinstance(target, np.ndarray) else np.asarray(target)
            if tarr.dtype != np.uint8 or tarr.shape != want:
                raise ValueError(
                    f"target must be 0, 1 or a packed uint8 array of shape "
                    f"{want}, got {tarr.dtype} {tarr.shape}"
                )
            arr = np.bitwise_xor(arr, tarr)  # t - s = t ^ s over GF(2)
        else:
            tc = t
        eng = self._packed_engine()
        if eng is not None:
            x = eng.solve_packed(np.ascontiguousarray(arr), tc)
            if x is None:
                raise Unsolvable(
                    "this board cannot reach the target: t - s is not in "
                    "the image of the tap matrix"
                )
            return x
        if b.is_giant:
            raise ValueError(
                f"solve_packed on a board of more than {MAX_TILES} tiles needs "
                "an engine with a packed path (algebraic: the cross family, "
                "not tori, and left-right symmetric 3 x 3 patterns such as "
                "diagonal; tensor: square, horizontal, vertical and other "
                f"product patterns); method={self.method!r} would unpack the "
                "states (rank, nullity, kernel_size and det are available)"
            )
        state = np.unpackbits(arr, axis=1, count=cols)
        sol = self.solve(state, tc, minimal=False)
        return np.packbits(sol.taps, axis=1)

    def _packed_engine(self) -> Any:
        """The engine that solves this board's bit-packed states without unpacking
        them, or None (:func:`modlights.engines.registry.packed_answerer`)."""
        return registry.packed_answerer(self.board, self.plan, self._engine)


def _unsolvable(ok: np.ndarray) -> Unsolvable:
    """Unsolvable naming the boards of a batch that ``ok`` marks False."""
    bad = tuple(int(i) for i in np.flatnonzero(~ok))
    shown = ", ".join(map(str, bad[:20])) + (" ..." if len(bad) > 20 else "")
    return Unsolvable(f"{len(bad)} of {len(ok)} boards are unsolvable: indices {shown}", bad)
