"""Solver: the one entry point for solving and analysing a board.

``Solver(board)`` factors the tap matrix once, by the engine the registry
(:mod:`modlights.engines.registry`) chooses for it; every query after that reuses the
factorisation. ``Solver.plan`` says which engine answers and why.

This module holds the facade itself: construction and the plan, pickling, the
structure questions (kernel, rank, det, inverses), single solves and the minimal
search's kernel. Beside it, one subject a module: :mod:`modlights.solution` (Solution,
Unsolvable: what a solve answers), :mod:`modlights.solver_batch` (the batch questions,
a base class of Solver) and :mod:`modlights.solver_budget` (the default budgets by
count and the checks of budget and progress). Their public names are importable from
here as before; ``DEFAULT_SECONDS`` is this module's (the C library's value; set
another here and the Solver passes it on), ``MAX_SEARCH_BYTES`` the C library's limit
(for reading).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from modlights import solver_native as _cn
from modlights.engines import registry
from modlights.engines.reference import reference_reason
from modlights.engines.registry import Plan
from modlights.model.board import MAX_TILES, Board
from modlights.search import canon
from modlights.search.minimal import (
    MIN_DESCENT_SECONDS,
    Kernel,
    check_executor,
    coset_minimum,
)
from modlights.solution import MAX_KERNEL_BYTES, Solution, Unsolvable
from modlights.solver_batch import SolverBatches
from modlights.solver_budget import (
    DEFAULT_BUDGET,
    DEFAULT_NATIVE_BUDGET,  # noqa: F401 (importable from here, as before)
    _check_budget,
    _check_progress,
    _deadline,
)

if TYPE_CHECKING:
    from modlights.search.hardest import Hardest

__all__ = ["Solver", "Solution", "Unsolvable", "DEFAULT_SECONDS", "DEFAULT_BUDGET"]

#: Seconds a minimal search takes at most when no budget is given (``budget=None``): a
#: deadline, as a budget of ``DEFAULT_SECONDS`` seconds, for cosets too large to be
#: searched whole by count (see ``DEFAULT_NATIVE_BUDGET``). The C library's value
#: (csrc/api/solver_impl.h); set another here and every Solver's default uses it (the
#: native one hands C that many seconds a board in place of C's default).
DEFAULT_SECONDS = _cn.C_DEFAULT_SECONDS
_BACKENDS = ("native", "reference")

#: Largest set of generators (count x n_taps bytes) the C minimal search holds; past it
#: the search covers the sub-coset of the first generators that fit (not proved). The C
#: library's limit (csrc/api/solver_impl.h), for reading: setting it changes nothing.
MAX_SEARCH_BYTES = _cn.C_MAX_SEARCH_BYTES


class Solver(SolverBatches):
    """Factor a board's tap matrix once; answer every question about it.

    The facade over the engines: it validates its input, asks the registry
    (:func:`modlights.engines.registry.choose`) which engine answers, and wraps the
    engine's answers (shapes, Solution objects, the minimal search). ``plan`` says
    which engine answers and why, ``engine`` names it.

    Parameters
    ----------
    board : Board
        The board to factor.
    backend : {"native", "reference"}
        The C engines (default) or the pure-NumPy reference engine (every method
        except the structured engines' names then answers with it). The reference
        engine takes boards up to ``REFERENCE_MAX_WORK`` of
        :mod:`modlights.engines.reference` (a 500 x 500 tap matrix mod a prime, a few
        seconds to factor): ValueError naming the native engines beyond.
    method : str
        ``"auto"`` (default: the cheapest registered engine that covers the board), a
        family name (``"dense"``, ``"chase"``, ``"algebraic"``, ``"lifted"``,
        ``"tensor"``: the cheapest of that family) or a registered engine name
        (``modlights.engines()`` lists them, each with a line saying what it covers).
        ValueError, saying why and naming the accepted methods, for an unknown name or
        an engine that does not cover the board.

    Every engine answers rank, nullity, kernel_size, solvability and solutions; the
    structured ones (chase, algebraic, lifted, tensor) answer det, inverse and
    pseudo-inverse through the dense engine the registry hands them, for boards of at
    most 2^28 matrix entries (ValueError beyond). Boards past MAX_TILES are answered
    only by the algebraic and tensor engines (rank, nullity, kernel_size, det, and
    over GF(2) bit-packed solutions, ``solve_packed``). Without a budget a minimal
    search takes about a second at most (DEFAULT_SECONDS; see :meth:`solve`), so
    ``solve(minimal=True)`` on a huge board returns instead of hanging; the minimal
    search holds at most MAX_SEARCH_BYTES of generators. Long native work stops on
    Ctrl-C (KeyboardInterrupt) and leaves the Solver usable.

    Notes
    -----
    A Solver pickles and deep-copies as its board, backend, method and plan (plus
    results already computed in Python, such as kernel generators); the factorisation
    lives in C memory and is made again, lazily, on first use on the other side.

    Examples
    --------
    >>> b = ml.Board.grid(5, 5, states=2)
    >>> s = ml.Solver(b)
    >>> s.nullity, s.kernel_size, s.rank
    (2, 4, 23)
    >>> s.engine
    'dense-gf2'
    >>> sol = s.solve(b.random_state(rng=1))
    >>> sol.length, sol.proven_minimal
    (10, True)
    >>> ml.Solver(b, backend="reference").nullity
    2
    """

    def __init__(self, board: Board, backend: str = "native", method: str = "auto"):
        if not isinstance(board, Board):
            raise ValueError(f"Solver needs a Board, got {type(board).__name__}")
        if backend not in _BACKENDS:
            raise ValueError(f"unknown backend {backend!r}: use one of {_BACKENDS}")
        methods = registry.methods()
        if not isinstance(method, str) or method not in methods:
            raise ValueError(f"unknown method {method!r}: use one of {methods}")
        if method.startswith("chase") and backend == "reference":
            raise ValueError(
                f"method={method!r} runs the native chase engine; "
                "backend='reference' factors the dense matrix (use "
                "method='dense' or 'auto' with it)"
            )
        if method.startswith("chase") and not board.is_grid:
            raise ValueError(
                f"method={method!r} needs a grid board (Board.grid); use "
                "method='dense' or 'auto' for graph boards"
            )
        if backend == "reference" and not board.is_giant:
            too_big = reference_reason(board.n_cells, board.n_taps, board.states)
            if too_big is not None:  # said plainly, before the registry's list of reasons
                raise ValueError(too_big)
        try:
            plan = registry.choose(board, method, backend)
        except ValueError as e:
            if not board.is_giant:
                raise
            why = {name: en.covers(board) or "covers it" for name, en in registry.entries().items()}
            raise ValueError(
                f"a board of more than {MAX_TILES} tiles is solved only by the "
                "algebraic engine, which does not cover this one (cross "
                f"family: {why['algebraic-cross']}; symmetric 3 x 3 patterns: "
                f"{why['algebraic-sym']}), or the tensor engine, which does "
                f"not either: {why['tensor']} ({e})"
            ) from None
        self.board = board
        self.backend = backend
        #: the family of the engine that answers ("dense", "chase", "algebraic",
        #: "lifted", "tensor"); ``plan.engine`` names the engine itself
        self.method = plan.family
        self._plan = plan
        self.n = board.states
        self._gens: tuple[np.ndarray, list[int]] | None = None
        self._canonical = False  # _gens are canon.basis's (see _generators)
        # The dense GF(2) engine is made on first use (the C solver's engine then
        # factors only on need: rank and nullity by one elimination without transforms).
        self._lazy = plan.engine == "dense-gf2"
        #: the C solver (_core.CSolver) answering where _cn.c_solves(plan), else None;
        #: its calls hold _c_lock (a C solver serves one thread at a time)
        self._c: Any = None
        self._c_lock = threading.Lock()
        self._eng: Any = None  # the registry's Python engine: backend "reference", executor paths
        if not self._lazy:
            self._csolver() if self._on_c else self._build()
        self._dense_eng: Any = None  # registry.fallback: det / inverse / pinv, built on first use

    def _default_seconds(self) -> float:
        """DEFAULT_SECONDS as set in this module now."""
        return DEFAULT_SECONDS

    def _build(self) -> Any:
        """The plan's engine (through the registry); the plan then names the variant
        that answers when the engine chose one from its own data (the chase)."""
        eng = registry.build(self.board, self._plan)
        self._plan = registry.resolve(self._plan, eng)
        self._eng = eng
        return eng

    @property
    def plan(self) -> Plan:
        """Which engine answers and why: ``.engine`` (its registered name), ``.reason``,
        ``.rejected`` ({name: why it was passed over}); ``.explain()`` as text.

        Examples
        --------
        >>> s = ml.Solver(ml.Board.grid(5, 5, states=2))
        >>> s.plan.engine, s.plan.family
        ('dense-gf2', 'dense')
        >>> s.plan.reason.startswith("the cheapest engine")
        True
        >>> sorted(s.plan.rejected)[:3]
        ['algebraic-cross', 'algebraic-sym', 'algebraic-sym-odd']
        >>> ml.Solver(ml.Board.grid(5, 5, states=2), method="chase").plan.engine
        'chase-light'
        """
        if self._eng is None and self._c is None and not self._lazy:
            self._csolver() if self._on_c else self._build()
        return self._plan

    # ---------------------------------------------------------------- travelling
    def __getstate__(self) -> dict:
        """What a pickle or a deep copy carries: the board, backend and method, and
        the pure-Python results already computed; never the engine (C memory), which
        is factored again on first use on the other side."""
        state = dict(self.__dict__)
        state["_eng"] = state["_dense_eng"] = state["_c"] = None
        state.pop("_c_lock", None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._c_lock = threading.Lock()
        self.__dict__.setdefault("_c", None)
        # a Solver pickled before the canonical forms: its generators are the engine's
        self.__dict__.setdefault("_canonical", False)
        self.__dict__.setdefault("_dense_eng", None)

    def __repr__(self) -> str:
        b = self.board
        shape = "x".join(map(str, b.shape))
        return (
            f"Solver(<{shape} board, n={self.n}, {b.n_cells} cells x {b.n_taps} taps>, "
            f"backend={self.backend!r}, method={self.method!r})"
        )

    @property
    def _engine(self) -> Any:
        if self._eng is None:
            self._build()
        return self._eng

    def _ask(self, question: str) -> Any:
        """det / inverse / pseudo_inverse: the C solver's (its engine's answer or its
        registry's dense fallback), else through the Python registry
        (:func:`registry.ask`): the engine's own answer when its registration declares
        the question, else the registry's fallback engine's (built on first use and
        kept)."""
        if self._on_c:
            return self._cask(question)
        return registry.ask(self.board, self.plan, self._engine, question, self._dense)

    def _dense(self) -> Any:
        if self._dense_eng is None:
            self._dense_eng = registry.fallback(self.board, self.plan)
        return self._dense_eng

    @property
    def _default_count(self) -> int:
        """The largest coset the default budget searches whole, by count (see
        :meth:`_search_budget`): DEFAULT_BUDGET on the reference backend,
        DEFAULT_NATIVE_BUDGET on the native one, less on boards with many taps."""
        if self.backend != "native":
            # the NumPy enumeration: about 16 ns an entry (n_taps a coset element), so
            # 2^26 entries are about a second
            return max(1 << 8, min(DEFAULT_BUDGET, (1 << 26) // max(1, self.board.n_taps)))
        # the C library's (ml_board_default_steps): a coset step costs O(n_taps)
        # (O(n_taps / 64) over GF(2)), about 2^30 operations at most
        from modlights.native._core import board_default_steps

        return int(board_default_steps(_cn.c_board(self.board)))

    def _search_budget(self, budget: Any, boards: int = 1) -> tuple[int | None, float | None]:
        """(steps, seconds) of the minimal search of ``boards`` boards: ``budget`` as
        given (:func:`modlights.model.validation.check_budget`), or for None the
        default: a coset of at most ``_default_count`` elements whole, by that count
        (exhaustive: proved, the same answer on every machine), a larger one for
        DEFAULT_SECONDS a board (a deadline). Builds the factorisation for None."""
        if budget is not None:
            return _check_budget(budget)
        count = self._default_count
        if self.kernel_size <= count:
            return count, None
        return None, DEFAULT_SECONDS * max(1, boards)

    @property
    def engine(self) -> str:
        """The registered name of the engine that answers (see ``plan``).

        Examples
        --------
        >>> ml.Solver(ml.Board.grid(4, 4, states=3)).engine
        'dense-zn'
        """
        return self.plan.engine

    # ---------------------------------------------------------------- structure
    def _generators(self) -> tuple[np.ndarray, list[int]]:
        if self._gens is None:
            nbytes = self.nullity * self.board.n_taps
            if nbytes > MAX_KERNEL_BYTES:
                raise ValueError(
                    f"the kernel has {self.nullity} generators of {self.board.n_taps} "
                    f"taps: {nbytes} bytes ({nbytes / 2**30:.1f} GiB) as a dense array, "
                    f"more than the {MAX_KERNEL_BYTES // 2**30} GiB allowed; nullity, "
                    "rank and kernel_size are available without it"
                )
            if self._on_c:  # canonical within canon.fits, as below (csrc/api/solver.c)
                H, orders = self._cask("kernel")
                self._canonical = canon.fits(len(orders), self.board.n_taps, self.n)
                self._gens = (H, list(orders))
                return self._gens
            H, orders = self._engine.generators()
            # the canonical generators (NumPy's, as csrc/search/canon.h makes them) when
            # within their work bound: the same for every engine, so an unfinished
            # search's answer is too
            if canon.fits(len(orders), self.board.n_taps, self.n, native=False):
                try:
                    H, orders = canon.basis(H, self.n)
                    self._canonical = True
                except MemoryError:  # its work space did not fit: the engine's ones
                    pass
            self._gens = (H, list(orders))
        return self._gens

    def _reduce(self, X: np.ndarray) -> np.ndarray:
        """X (n_taps,) or (m, n_taps) with each row made the canonical representative
        of its coset (:func:`modlights.search.canon.reduce`) when the generators are
        canonical; else X. Call after ``_generators``."""
        if not self._canonical or self._gens is None:
            return X
        return canon.reduce(X, self._gens[0], self.n)

    @property
    def kernel_size(self) -> int:
        """``|ker A|`` as an exact Python int.

        Examples
        --------
        >>> ml.Solver(ml.Board.grid(5, 5, states=2)).kernel_size
        4
        >>> ml.Solver(ml.Board.grid(4, 4, states=4)).kernel_size
        64
        """
        if self._on_c:
            return int(self._cask("kernel_size"))
        return int(self._engine.kernel_size)

    @property
    def nullity(self) -> int:
        """dim ker A for prime n; for composite n the number of kernel generators
        (the fewest cyclic summands of ker A).

        Examples
        --------
        >>> ml.Solver(ml.Board.grid(5, 5, states=2)).nullity
        2
        >>> ml.Solver(ml.Board.grid(4, 4, states=6)).nullity
        4
        """
        if self._gens is not None:
            return len(self._gens[1])
        if self._on_c:
            return int(self._cask("nullity"))
        return int(self._engine.nullity)  # from the factorisation

    @property
    def rank(self) -> int:
        """n_taps - nullity (for prime n, the rank of A).

        Examples
        --------
        >>> s = ml.Solver(ml.Board.grid(5, 5, states=2))
        >>> s.rank, s.rank + s.nullity == s.board.n_taps
        (23, True)
        """
        return self.board.n_taps - self.nullity

    def kernel(self) -> np.ndarray:
        """Generators of ker A as rows (uint8, k x n_taps); a basis for prime n.
        ker A is the direct sum of the cyclic groups they generate
        (see ``kernel_orders``). ValueError, before anything is allocated, when that
        array would take more than MAX_KERNEL_BYTES (1 GiB); the message gives its size.

        Examples
        --------
        >>> b = ml.Board.grid(4, 4, states=2)
        >>> s = ml.Solver(b)
        >>> K = s.kernel()
        >>> K.shape, K.dtype
        ((4, 16), dtype('uint8'))
        >>> bool(b.apply(np.zeros(b.shape, dtype=int), b.from_tap_vector(K[0])).any())
        False
        """
        return self._generators()[0].copy()

    @property
    def kernel_orders(self) -> list[int]:
        """Additive order of each row of ``kernel()``; their product is ``|ker A|``.

        Examples
        --------
        >>> ml.Solver(ml.Board.grid(4, 4, states=4)).kernel_orders
        [4, 4, 2, 2]
        >>> ml.Solver(ml.Board.from_matrix([[2]], 4)).kernel_orders
        [2]
        """
        return list(self._generators()[1])

    @property
    def is_unique(self) -> bool:
        """True when every solvable state has exactly one solution (``|ker A| = 1``).

        Examples
        --------
        >>> ml.Solver(ml.Board.grid(3, 3, states=2)).is_unique
        True
        >>> ml.Solver(ml.Board.grid(4, 4, states=2)).is_unique
        False
        """
        return self.kernel_size == 1

    @property
    def is_invertible(self) -> bool:
        """A square and det(A) a unit mod n.

        Examples
        --------
        >>> ml.Solver(ml.Board.grid(3, 3, states=2)).is_invertible
        True
        >>> ml.Solver(ml.Board.grid(3, 3, states=2, holes=[(1, 1)], locked=[(0, 0)])).is_invertible
        False
        """
        b = self.board
        return b.n_cells == b.n_taps and self.kernel_size == 1

    def det(self) -> int:
        """det(A) mod n, in [0, n). ValueError unless A is square.

        Examples
        --------
        >>> ml.Solver(ml.Board.grid(3, 3, states=3)).det()
        2
        >>> ml.Solver(ml.Board.from_matrix([[1, 2], [3, 4]], 7)).det()
        5
        >>> ml.Solver(ml.Board.from_matrix([[1, 2]], 7)).det()
        Traceback (most recent call last):
            ...
        ValueError: det needs a square tap matrix, this one is 1x2
        """
        return int(self._ask("det"))

    def inverse(self) -> np.ndarray:
        """A^-1 mod n (uint8, n_taps x n_cells); ValueError unless square and invertible.

        Examples
        --------
        >>> A = np.array([[1, 2], [3, 4]])
        >>> inv = ml.Solver(ml.Board.from_matrix(A, 7)).inverse()
        >>> inv
        array([[5, 1],
               [5, 3]], dtype=uint8)
        >>> (A @ inv) % 7
        array([[1, 0],
               [0, 1]])
        >>> ml.Solver(ml.Board.grid(4, 4)).inverse()
        Traceback (most recent call last):
            ...
        ValueError: the tap matrix is not invertible mod 2: det = 0 (rank 12 of 16)
        """
        return self._ask("inverse")

    def pseudo_inverse(self) -> np.ndarray:
        """G (n_taps x n_cells) with A G A = A mod n; ValueError where none exists.

        Examples
        --------
        >>> b = ml.Board.grid(4, 4, states=2)
        >>> A = b.matrix().astype(int)
        >>> G = ml.Solver(b).pseudo_inverse()
        >>> G.shape
        (16, 16)
        >>> np.array_equal(A @ G @ A % 2, A)
        True
        """
        return self._ask("pseudo_inverse")

    # ---------------------------------------------------------------- solving
    def _rhs(self, state: Any, target: Any) -> np.ndarray:
        """t - s (mod n) over the cells, uint8, for reading only (see
        Board._rhs_cells). A uint8 state in range is read in place (one ``max`` pass);
        no temporaries wider than a byte."""
        return self.board._rhs_cells(state, target)

    def solvable(self, state: Any, target: Any = 0) -> bool:
        """Whether some tap counts take ``state`` to ``target``.

        Examples
        --------
        >>> s = ml.Solver(ml.Board.grid(4, 4, states=2))
        >>> s.solvable(np.zeros((4, 4), dtype=int), target=1)
        True
        >>> s.solvable([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
        False
        """
        if self._on_c:
            b = self.board
            return bool(self._cask("solvable", *_cn.c_state_target(b, state, target)))
        rhs = self._rhs(state, target)
        _, ok = self._engine.solve(rhs[None, :])
        return bool(ok[0])

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
    ) -> Solution:
        """A solution of ``state + A x = target``, by default one with the fewest taps.

        Parameters
        ----------
        state : array_like of int
            The tiles, shaped like the board; any integers, reduced mod n.
        target : int or array_like of int
            The state to reach: an int for every tile (0: all white, 1: "all on") or a
            board-shaped array.
        minimal : bool
            Search the coset ``x0 + ker A`` for the fewest physical taps (default);
            False returns the engine's particular solution.
        budget : int or float, optional
            Coset elements to examine (an int: a count, the same answer on every
            machine) or seconds (a float); 0 means no search. Seconds are a deadline
            for the call, counted from its start: the coset search and the greedy
            clean-up after it stop by then (+10% or +0.25 s at most, whichever is
            larger; a first call that factors the board adds that time, the
            factorisation is not cut short); the clean-up always gets at least
            MIN_DESCENT_SECONDS, so a budget of 0.0 s still returns the greedily
            improved solution on boards whose clean-up is that fast. Default (None):
            time, about a second. A coset of at most DEFAULT_NATIVE_BUDGET (2^24)
            elements on the native backend (fewer on boards with many taps: about
            2^30 word operations; DEFAULT_BUDGET, 2^20, on the reference backend, fewer on
            boards of more than 64 taps: about 2^26 entries) is
            searched whole, as that count would, well within the second: proved, and
            the same answer on every machine. A larger one is searched for
            DEFAULT_SECONDS (1.0; a deadline counted from the search's start, as a
            budget of that many seconds): proved when the search finishes by then,
            else the best found (``proven_minimal`` False). On the native backend
            such a coset over Z/n, n > 2, is searched by a branch and bound (a count
            budget then counts its nodes and walked elements), which proves many
            cosets far past enumeration.
        executor : concurrent.futures.Executor, optional
            Any executor (a ``ProcessPoolExecutor``, a Dask client's
            ``get_executor()``): when the budget covers the whole coset, the search is
            split over its workers (the C split search, :mod:`modlights.search.split`;
            the reference backend's NumPy search runs in this process); the length and
            ``proven_minimal`` are those of the search without it.
        progress : callable, optional
            ``progress(done, total)``, told how far the minimal search is, in coset
            elements: after every chunk of the reference engine's Python enumeration,
            at the start and end of a native search (the C search runs to its end or
            budget without calling back; Ctrl-C stops it), after each wait of a search
            split over an executor. An exception it raises stops the search.
        checkpoint : str or os.PathLike, optional
            A file that keeps the answers of the split search's tasks as they are
            merged (:mod:`modlights.search.checkpoint`), so that a search stopped by
            Ctrl-C or a lost cluster resumes where it stopped when called again with the
            same file: the same answer and certificate as a run that never stopped.
            Needs the native backend, ``minimal=True``, an ``executor`` and a budget
            that covers the whole coset (a count of at least ``kernel_size``).

        Returns
        -------
        Solution
            ``proven_minimal`` is True only when the whole coset was covered; otherwise
            the best element found, improved greedily, is returned. Past
            MAX_SEARCH_BYTES of kernel generators only the first ones that fit are
            searched (bounded memory; ``proven_minimal`` is then False).

        Raises
        ------
        Unsolvable
            When no tap counts take ``state`` to ``target``.
        ValueError
            For a state or target of the wrong shape, a bad budget, executor or
            progress, a checkpoint without the search it needs, or a checkpoint file
            of another search.

        Examples
        --------
        >>> b = ml.Board.grid(3, 3, states=3, locked=[(1, 1)])
        >>> s = ml.Solver(b)
        >>> state = b.random_state(rng=4)
        >>> sol = s.solve(state)
        >>> sol.length, sol.proven_minimal
        (9, True)
        >>> bool(b.apply(state, sol.taps).any())
        False
        >>> s.solvable(state, target=1)
        False
        >>> s.solve(state, target=1)
        Traceback (most recent call last):
            ...
        modlights.solution.Unsolvable: no combination of taps takes this board to the ...
        >>> s.solve(state, minimal=False).length >= sol.length
        True
        """
        steps, seconds = _check_budget(budget)
        deadline = _deadline(seconds)
        check_executor(executor)
        progress = _check_progress(progress)
        if checkpoint is not None:
            checkpoint = self._check_checkpoint(checkpoint, minimal, executor, steps, seconds)
        if self._on_c:  # executors and progress: the C split search (solver_batch)
            if minimal and (executor is not None or progress is not None):
                return self._solve_c_split(
                    state, target, budget, steps, seconds, executor, progress, checkpoint
                )
            return self._solve_c(state, target, minimal, budget, steps, seconds)
        rhs = self._rhs(state, target)
        X, ok = self._engine.solve(rhs[None, :])
        if not ok[0]:
            raise Unsolvable(_cn.UNSOLVABLE)
        x = X[0]
        ks = self.kernel_size
        if not minimal:
            # X is the engine's new array, owned here: shaped without a copy
            return Solution(self.board, self.board.from_tap_vector(x, copy=False), ks == 1, ks, 0)
        if budget is None:  # the default: by count or seconds, by the coset's size
            steps, seconds = self._search_budget(None)
            deadline = _deadline(seconds)
        t0 = time.perf_counter()
        proof: list = []
        x, proven, examined, pruned = coset_minimum(
            x,
            self._kernel(),
            steps=steps,
            seconds=seconds,
            deadline=deadline,
            progress=progress,
            descent=MIN_DESCENT_SECONDS,
            proof=proof,
        )
        # the certificate's kernel only when it fits the dense limit (a proved answer on
        # a board with no cells, say, may have a kernel far past it)
        keep = (
            proven
            and proof
            and ks > 1
            and self.nullity * max(1, self.board.n_taps) <= MAX_KERNEL_BYTES
        )
        return Solution(
            self.board,
            self.board.from_tap_vector(x, copy=False),
            proven,
            ks,
            examined,
            pruned,
            time.perf_counter() - t0,
            proof=proof,
            kernel=self._generators() if keep else None,
        )

    def hardest(self, *, budget: Any = None, executor: Any = None) -> Hardest:
        """The hardest solvable board (target 0): the largest fewest-taps over every
        solvable board (the covering radius of ker A) and a board that needs it.

        Parameters
        ----------
        budget : float, optional
            Seconds (None: until proved), a deadline (+10% or +0.25 s); past it the
            best board found is returned with ``proven=False``.
        executor : concurrent.futures.Executor, optional
            Passed on to the coset searches where :meth:`solve` takes one.

        Returns
        -------
        modlights.search.hardest.Hardest
            ``min_taps``, ``state``, ``proven``, ``lower``, ``upper``, ``seconds``,
            ``iterations``; see :mod:`modlights.search.hardest` for the algorithm.

        Raises
        ------
        ValueError
            For a bad budget, or a board of more than MAX_TILES tiles. Ctrl-C stops it
            within a second (KeyboardInterrupt), the Solver usable.

        Examples
        --------
        >>> h = ml.Solver(ml.Board.grid(3, 3, states=2)).hardest()
        >>> h.min_taps, h.proven, (h.lower, h.upper)
        (9, True, (9, 9))
        >>> ml.Solver(ml.Board.grid(3, 3)).solve(h.state).length
        9
        """
        if self.board.is_giant:
            raise ValueError(
                f"hardest on a board of more than {MAX_TILES} tiles would need "
                "its states as bytes (rank, nullity, kernel_size and det are "
                "available)"
            )
        from modlights.search.hardest import hardest

        coset = None
        if self._on_c:  # the C solver's minimal searches, their certificates

            def coset(state: np.ndarray, within: Any) -> Solution:
                return self.solve(state, budget=within, executor=executor)

        return hardest(self.board, self._kernel(), budget=budget, executor=executor, coset=coset)

    def solutions(self, state: Any, target: Any = 0) -> Iterator[np.ndarray]:
        """Every solution's tap counts, each exactly once (``|ker A|`` of them).

        Examples
        --------
        >>> b = ml.Board.grid(4, 4, states=2)
        >>> s = ml.Solver(b)
        >>> state = b.random_state(rng=5)
        >>> sols = list(s.solutions(state))
        >>> len(sols) == s.kernel_size
        True
        >>> min(int(x.sum()) for x in sols) == s.solve(state).length
        True
        """
        if self._on_c:
            b = self.board
            with self._c_lock:
                it = self._csolver().solutions(*_cn.c_state_target(b, state, target))
            shape = b.shape if b.is_grid else (b.n_taps,)
            return (x.reshape(shape) for x in it)
        rhs = self._rhs(state, target)
        X, ok = self._engine.solve(rhs[None, :])
        if not ok[0]:
            return iter(())
        x0 = X[0].astype(np.int64)
        H, orders = self._generators()
        H = H.astype(np.int64)
        n = self.n
        board = self.board

        def gen() -> Iterator[np.ndarray]:
            for coeffs in itertools.product(*[range(o) for o in orders]):
                x = x0.copy()
                for c, h in zip(coeffs, H):
                    if c:
                        x += c * h
                yield board.from_tap_vector((x % n).astype(np.uint8))

        return gen()

    # ---------------------------------------------------------------- minimal search
    def _kernel(self) -> Kernel:
        """ker A as the searches of :mod:`modlights.search` see it (generators built on
        first use and kept): the reference backend's NumPy search and ``hardest``."""
        return Kernel(
            self.n,
            self.board.n_taps,
            self.kernel_size,
            generators=self._generators,
            searchable=lambda: (
                self._on_c
                or "kernel_fits" not in registry.answers(self.plan.engine)
                or self._engine.kernel_fits()
            ),
            reduce=self._reduce,
        )
