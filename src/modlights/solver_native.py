"""The C solver behind :class:`modlights.solver.Solver` (``_core.CSolver``, an
``ml_solver`` of csrc/api/solver.c): which plans it answers (:func:`c_solves`), the C
board of a Python board (:func:`c_board`), the states, targets and budgets handed to
it in the Solver's words (the checks and messages of :mod:`modlights.model`), and the
:class:`~modlights.solution.Solution` of its result (:func:`solution`).

The Solver asks the C solver for structure, kernel, det / inverse / pseudo-inverse,
solvable, solve (minimal or not, with its budget and proof), solutions and the batches,
on the native backend for every engine: the C library's, and those of Python code (the
reference engine asked for by name, engines registered from Python), which the C solver
builds through the seam; over an executor or with a progress callback its split
searches run (:mod:`modlights.search.split`), and ``hardest`` asks its minimal solves.
Every minimal search of a native Solver is the C solver's. The registry's Python
engines answer the reference backend only (the NumPy oracle: its own search, exact
counts).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from math import prod
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np

from modlights.engines import registry
from modlights.engines.native import NATIVE_ENGINES
from modlights.engines.native import c_board as _native_c_board
from modlights.native import _core
from modlights.solution import Solution, Unsolvable

if TYPE_CHECKING:
    import threading

    from modlights.engines.registry import Plan
    from modlights.model.board import Board

__all__ = ["C_ENGINES", "C_MAX_SEARCH_BYTES", "NativeSolver", "c_solves", "c_board", "solution"]

#: The registered engines whose Solver is the C solver: the C library's engines, dense
#: and structured (:data:`modlights.engines.native.NATIVE_ENGINES`).
C_ENGINES = NATIVE_ENGINES
#: Whether the C solver answers for the engines of Python code on the native backend
#: too (the reference engine asked for by name, engines registered from Python): it
#: builds them through the seam (native/_registry.pxi) and runs the rest itself.
C_SEAM = True
#: The C library's MAX_SEARCH_BYTES (csrc/api/solver_impl.h): the most bytes of kernel
#: generators its minimal search holds (past it the engine's first generators that fit,
#: a sub-coset, nothing proved but length 0).
C_MAX_SEARCH_BYTES = int(_core.SEARCH_LIMITS["MAX_SEARCH_BYTES"])
#: The C library's DEFAULT_SECONDS (ml_budget_default's deadline a board past the
#: default count): a native Solver hands C its default budget (ml_budget_default) while
#: ``modlights.solver.DEFAULT_SECONDS`` has this value, else that many seconds a board.
C_DEFAULT_SECONDS = float(_core.SEARCH_LIMITS["DEFAULT_SECONDS"])

#: Unsolvable's message: the C library's (ML_M_UNSOLVABLE, its one table of messages)
UNSOLVABLE: str = _core.UNSOLVABLE_MESSAGE


def c_solves(plan: Plan) -> bool:
    """Whether the C solver answers for ``plan``: on the native backend, for an engine of
    the C library (:data:`C_ENGINES`) or one of Python code (:data:`C_SEAM`); else (the
    reference backend) the registry's Python engine does. O(1)."""
    if plan.backend != "native":
        return False
    return plan.engine in C_ENGINES or (C_SEAM and plan.engine not in NATIVE_ENGINES)


def c_board(board: Board) -> Any:
    """The C board of ``board``: the one the Board holds
    (:func:`modlights.engines.native.c_board`; a from_matrix board's reads its reduced
    matrix in place). O(1) after the first call."""
    return _native_c_board(board)


def seamed(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, a call into the C solver; when it fails after a seam callback (an
    engine of Python code, the C solver's engine) raised, that exception re-raised as it
    was (``registry._reraise``), else the C binding's."""
    from modlights.native._core import capi_seam_errors

    capi_seam_errors()
    try:
        return fn(*args)
    except BaseException as e:
        registry._reraise(e)


def variant(cs: Any, name: str) -> Any:
    """What :func:`modlights.engines.registry.resolve` reads of a built engine: the
    variant the C solver's plan names (``name`` when none) and why."""
    plan = cs.plan
    taken = plan["variant"] or name
    reason = plan["reason"] or ""
    return SimpleNamespace(
        variant=taken, variant_reason=reason.partition(f"; variant {taken}: ")[2]
    )


def c_tiles(board: Board, state: Any, what: str = "state") -> np.ndarray:
    """A board-shaped state as the C solver reads it: a uint8 array of the board's shape
    as it is (C reduces it mod n and ignores holes), anything else through
    ``board.coerce_state`` (its checks and messages)."""
    board._per_tile(f"a byte {what}")
    if isinstance(state, np.ndarray) and state.dtype == np.uint8 and state.shape == board.shape:
        return state
    return board.coerce_state(state, what)


def c_target(board: Board, t: Any) -> Any:
    """target as the C solver reads it: an int (every tile, mod n) or a board-shaped
    array (:func:`c_tiles`)."""
    v = board._target_int(t)
    return v if v is not None else c_tiles(board, t, "target")


def c_state_target(board: Board, state: Any, t: Any) -> tuple[np.ndarray, Any]:
    """(state, target) as the C solver reads them (:func:`c_tiles`, :func:`c_target`),
    checked in the order of ``Board._rhs_cells`` (and so with its first message): the
    target's kind, then the state, then a target array."""
    v = board._target_int(t)
    st = c_tiles(board, state)
    return st, (v if v is not None else c_tiles(board, t, "target"))


def c_states(board: Board, arr: Any) -> np.ndarray:
    """A (k, *shape) stack of states as the C solver reads it, with the Solver's shape
    message; other dtypes than uint8 reduced mod n (``_reduce_mod``)."""
    from modlights.model.board_matrix import _as_int_array, _reduce_mod

    a = np.asarray(arr)
    if a.ndim != len(board.shape) + 1 or a.shape[1:] != board.shape:
        raise ValueError(
            f"states must have shape (k, {', '.join(map(str, board.shape))}), got {a.shape}"
        )
    if a.dtype != np.uint8:
        a = _reduce_mod(_as_int_array(a, "states"), board.states)
    return a.reshape(a.shape[0], prod(board.shape))


def c_budget(steps: int | None, seconds: float | None) -> Any:
    """The C binding's budget of a checked (steps, seconds): an int count or float
    seconds (neither: no limit, infinite seconds)."""
    if steps is not None:
        return int(steps)
    return float("inf") if seconds is None else float(seconds)


def solution(board: Board, res: Any, minimal: bool) -> Solution:
    """The Solution of a C result (``_core.CResult``): its taps (the result's memory,
    no copy) shaped as the board's,
    proven flag, |ker A|, search counts and time; the certificate is the result's
    (``ml_result_certificate``)."""
    if res is None:
        raise Unsolvable(UNSOLVABLE)
    taps = res.taps_view()  # the result's memory, kept alive by the array
    shaped = taps.reshape(board.shape) if board.is_grid else taps
    return Solution(
        board,
        shaped,
        res.proven_minimal,
        res.kernel_size,
        res.examined if minimal else 0,
        res.pruned if minimal else 0,
        res.seconds if minimal else 0.0,
        result=res,
    )


class NativeSolver:
    """The C solver's part of :class:`modlights.solver.Solver` (a base class of it,
    through :class:`modlights.solver_batch.SolverBatches`; never made by itself): the
    C solver made once (``_c``, lazily where the Solver is lazy), asked under the
    Solver's lock, and :meth:`_solve_c`."""

    if TYPE_CHECKING:  # what Solver provides
        board: Board
        _plan: Plan
        _c: Any
        _c_lock: threading.Lock

        def _search_budget(
            self, budget: Any, boards: int = 1
        ) -> tuple[int | None, float | None]: ...

        def _default_seconds(self) -> float: ...

        @property
        def _default_count(self) -> int: ...

        @property
        def kernel_size(self) -> int: ...

    @property
    def _on_c(self) -> bool:
        """Whether the C solver answers (:func:`c_solves`): the one switch between the C
        solver and the registry's Python engine."""
        return c_solves(self._plan)

    def _csolver(self) -> Any:
        """The C solver of the plan (made on first use and kept); the plan then names
        the variant the engine took (the chase), as ``Solver._build`` does, and the
        strategy of each part (lifted's: "; parts: ..." after the reason)."""
        if self._c is None:
            from modlights.native._core import CSolver

            cs = seamed(CSolver, c_board(self.board), self._plan.engine)
            self._plan = registry.resolve(self._plan, variant(cs, self._plan.engine))
            parts = (cs.plan["reason"] or "").partition("; parts: ")[2]
            if parts and "; parts: " not in self._plan.reason:  # lifted's parts (once)
                self._plan = replace(self._plan, reason=f"{self._plan.reason}; parts: {parts}")
            self._c = cs
        return self._c

    def _cask(self, question: str, *args: Any) -> Any:
        """The C solver's answer to ``question`` (a CSolver attribute, called with
        ``args`` when callable), under the Solver's lock (one thread at a time); an
        exception an engine of Python code raised in it re-raised as it was
        (:func:`seamed`)."""
        with self._c_lock:
            cs = self._csolver()
            return seamed(lambda: v(*args) if callable(v := getattr(cs, question)) else v)

    def _c_default_budget(self, boards: Callable[[], int] | int = 1) -> Any:
        """The C budget of ``budget=None`` for a search of ``boards`` boards (an int, or
        a callable asked only when needed): None (ml_budget_default: C's rule) while
        ``modlights.solver.DEFAULT_SECONDS`` is the C library's; else the same rule with
        that value (``Solver._search_budget``): a coset of at most the default count
        whole by that count, a larger one for DEFAULT_SECONDS a board."""
        seconds = self._default_seconds()
        if seconds == C_DEFAULT_SECONDS:
            return None
        count = self._default_count
        if self.kernel_size <= count:
            return int(count)
        k = boards() if callable(boards) else boards
        return float(seconds * max(1, k))

    def _solve_c(
        self, state: Any, target: Any, minimal: bool, budget: Any, steps: Any, seconds: Any
    ) -> Solution:
        """``Solver.solve`` by the C solver (ml_solver_solve, the proof kept): the same
        Solution, its certificate the result's; the default budget C's
        (:meth:`_c_default_budget`)."""
        b = self.board
        st, t = c_state_target(b, state, target)
        if not minimal:
            bud = None
        elif budget is None:
            bud = self._c_default_budget()
        else:
            bud = c_budget(steps, seconds)
        res = self._cask("solve_result", st, t, minimal, bud, minimal, False)
        return solution(b, res, minimal)
