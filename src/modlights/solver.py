"""Solver: the one entry point for solving and analysing a board.

``Solver(board)`` factors the tap matrix once; every query after that reuses the
factorisation. ``backend="reference"`` is the pure-NumPy engine of
:mod:`modlights.engines.reference`; ``backend="native"`` (the default) is the C core:
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

from modlights.model.board import MAX_TILES, Board
from modlights.engines.reference import ReferenceEngine
from modlights.model.ring import is_prime
from modlights.model.validation import check_budget
from modlights.search.minimal import (MIN_DESCENT_SECONDS, Kernel, check_executor,
                                      coset_minimum, deadline_after, exhaustive, min_many,
                                      minimise)

__all__ = ["Solver", "Solution", "Unsolvable", "DEFAULT_BUDGET"]

#: Coset elements examined by ``solve(minimal=True)`` when no budget is given:
#: the reference engine's Python enumeration, and the native C search.
DEFAULT_BUDGET = 1 << 20
DEFAULT_NATIVE_BUDGET = 1 << 24

_BACKENDS = ("native", "reference")
_METHODS = ("auto", "dense", "chase", "algebraic", "lifted", "tensor")

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
#: ``method="auto"`` uses the algebraic engine (:mod:`modlights.engines.algebraic.cross`) for
#: the uniform boards it covers with at least this many tiles. Measured (Solver +
#: solve(minimal=False), random solvable start, medians of 7, k x k cross, shared box),
#: algebraic time / chase time and / dense time:
#:   n = 2: k=8 1.08 / 0.80, k=12 0.80 / 0.44, k=24 0.77 / 0.15, k=48 0.58, k=256 0.31
#:   n = 3: k=8 1.09 / 0.88, k=12 0.69 / 0.36, k=24 0.58 / 0.27, k=48 0.53, k=256 0.04
#:   n = 5: k=8 0.87 / 0.61, k=12 0.82 / 0.54, k=24 0.61 / 0.22, k=48 0.36, k=256 0.07
#: It wins from about 12 x 12, but below 24 x 24 every engine answers in well under a
#: millisecond; the chase's threshold is kept so small boards (puzzles, daily) keep the
#: dense engines and their kernel bases.
ALGEBRAIC_MIN_TILES = 576
#: ... and for tori (:mod:`modlights.engines.algebraic.torus`) with at least this many
#: tiles (its fixed cost, ~0.5 ms, is the 2 x 2 system's ring arithmetic in Python).
#: Measured (Solver + solve(minimal=False), random solvable start, medians of 7, k x k
#: cross torus, shared box), algebraic / chase:
#:   n = 2: k=32 4.4, k=64 1.9, k=96 1.08, k=128 0.60
#:   n = 3: k=32 2.6, k=64 1.3, k=96 0.78, k=128 0.31
#:   n = 5: k=32 1.8, k=64 0.55, k=96 0.39, k=128 0.20
#: (every engine answers in about a millisecond there); 2000 x 2000 and 5000 x 5000:
#: see bench/README.md.
TORUS_ALGEBRAIC_MIN_TILES = 96 * 96
#: ``method="auto"`` uses the algebraic engine's symmetric 3 x 3 case
#: (:mod:`modlights.engines.algebraic.sym`: diagonal, ring, ...) for the boards it covers
#: (and the tensor engine does not: square stays there) with at least this many tiles. Measured (Board.grid + Solver + solve(minimal=False),
#: random solvable start, medians of 7, k x k diagonal, shared box), algebraic / chase:
#:   n = 2: k=24 2.53, k=64 1.68, k=128 1.00, k=160 0.79, k=192 0.67, k=256 0.56
#:   n = 3: k=24 5.16, k=64 2.73, k=128 1.36, k=160 0.94, k=192 0.66, k=256 0.48
#:   n = 5: k=24 4.69, k=64 2.38, k=128 1.23, k=160 0.84, k=192 0.67, k=256 0.48
#: (its fixed cost, ~0.3 ms, is the companion-matrix powering in Python); 5000 x 5000
#: and 10000 x 10000 GF(2): see bench/README.md.
SYM_ALGEBRAIC_MIN_TILES = 160 * 160
#: ``method="auto"`` uses the lifted engine (:mod:`modlights.engines.algebraic.lifted`, composite
#: n) for the boards it covers with at least this many tiles. Measured (Solver +
#: solve(minimal=False), random solvable start, medians of 5-7, k x k cross, shared
#: box), lifted time / chase time:
#:   n = 4: k=24 1.9, k=48 1.7, k=128 0.76, k=256 1.06 (singular mod 2), k=1000 0.14
#:   n = 6: k=24 1.7, k=48 1.3, k=128 0.55, k=256 0.41, k=1000 0.34
#:   n = 8: k=24 2.3, k=48 1.2, k=128 1.06, k=256 0.91, k=1000 0.20
#: (below 48 x 48 both answer in under a millisecond: the lifted engine's fixed cost is
#: the GF(p) engines it sets up); 5000 x 5000 Z/4 0.35 s against 8.6 s.
LIFTED_MIN_TILES = 128 * 128
#: ``method="auto"`` uses the tensor engine (:mod:`modlights.engines.tensor.engine`: square and
#: other product patterns) for the boards it covers (and the algebraic engine does not)
#: with at least this many tiles. Measured (Board.grid + Solver + solve(minimal=False),
#: random solvable start, medians of 7, k x k square, shared box), tensor / chase:
#:   n = 2: k=16 1.34, k=32 1.45, k=48 0.85, k=64 0.59, k=128 0.33, k=192 0.11
#:   n = 3: k=16 0.91, k=32 0.75, k=48 0.36, k=64 0.21, k=128 0.12, k=192 0.03
#:   n = 4: k=16 0.86, k=24 0.72, k=48 0.34, k=64 0.24, k=96 0.12, k=192 0.02
#: (below 48 x 48 both answer in about 0.1 ms); 5000 x 5000 GF(2) square: see
#: bench/README.md.
TENSOR_MIN_TILES = 48 * 48

#: Largest kernel (nullity x n_taps bytes) that ``kernel()`` materialises.
MAX_KERNEL_BYTES = 1 << 30
#: Largest set of generators (count x n_taps bytes) the minimal search holds; past it
#: the search covers the sub-coset of the first generators that fit (not proved).
MAX_SEARCH_BYTES = 1 << 24


class Unsolvable(ValueError):
    """No tap counts take this state to the target. ``indices`` lists the unsolvable
    boards of a batch (``solve_many``); it is empty for a single board."""

    def __init__(self, message: str, indices: tuple[int, ...] = ()):
        super().__init__(message)
        self.indices = tuple(indices)


class Solution:
    """Tap counts solving a board.

    Attributes
    ----------
    taps : numpy.ndarray
        uint8 counts 0..n-1, shaped as the board for grids, (n_taps,) for graphs.
    length : int
        Physical taps: the sum of ``taps``.
    proven_minimal : bool
        True only when no solution with fewer taps exists (proved).
    kernel_size : int
        |ker A|: how many solutions the board has.
    examined, pruned : int
        Coset elements the minimal search examined / skipped by its bound.
    seconds : float
        Time the minimal search took.

    Two solutions are equal when their boards, taps, length, proven_minimal and
    kernel_size are (the search statistics are not compared). They pickle and copy.
    """

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

    def to_dict(self) -> dict:
        """JSON-safe data: ``{"taps", "length", "proven_minimal", "moves",
        "kernel_size"}`` (taps as nested lists, moves as ``[r, c]`` lists for grids
        and ints for graph boards)."""
        board = self._board
        moves = self.moves()
        if board.is_grid:
            moves = [[int(r), int(c)] for r, c in moves]
        else:
            moves = [int(j) for j in moves]
        return {"taps": np.asarray(self.taps).tolist(), "length": int(self.length),
                "proven_minimal": bool(self.proven_minimal), "moves": moves,
                "kernel_size": int(self.kernel_size)}

    def _repr_svg_(self) -> str | None:
        from modlights.model.render import repr_svg
        tag = "proven minimal" if self.proven_minimal else "not proven minimal"
        return repr_svg(self._board, taps=self.taps,
                        title=f"solution: {self.length} taps ({tag})")

    def __eq__(self, other: object) -> bool:
        """Equal when the board, the tap counts, ``length``, ``proven_minimal`` and
        ``kernel_size`` are (search statistics such as ``seconds`` are not compared)."""
        if not isinstance(other, Solution):
            return NotImplemented
        return (self._board == other._board and self.length == other.length
                and self.proven_minimal == other.proven_minimal
                and self.kernel_size == other.kernel_size
                and np.array_equal(self.taps, other.taps))

    __hash__ = None                     # taps is a mutable array

    def __getstate__(self) -> dict:
        """Every slot by name: pickle protocols 0 and 1 need an explicit state for a
        class with ``__slots__`` (2 and later would manage without)."""
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, state: dict) -> None:
        for k in self.__slots__:
            setattr(self, k, state[k])

    def __repr__(self) -> str:
        tag = "proven minimal" if self.proven_minimal else "not proven minimal"
        return f"Solution(length={self.length}, {tag})"


def _check_budget(budget: Any, default: int = DEFAULT_BUDGET) -> tuple[int | None, float | None]:
    """budget: None (default), an int (coset elements) or a float (seconds); see
    :func:`modlights.model.validation.check_budget`."""
    return check_budget(budget, default)


_deadline = deadline_after


def _share(deadline: float | None, boards_left: int) -> float | None:
    """The deadline of the next of ``boards_left`` searches sharing ``deadline`` evenly."""
    if deadline is None:
        return None
    now = time.perf_counter()
    return now + max(0.0, deadline - now) / max(1, boards_left)


def _check_progress(progress: Any) -> Any:
    """None or a callable ``progress(done, total)``; ValueError for anything else."""
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be None or a callable progress(done, total), got "
                         f"{type(progress).__name__}")
    return progress


class Solver:
    """Factor a board's tap matrix once; answer every question about it.

    backend: ``"native"`` (default: the C engines) or ``"reference"`` (pure NumPy).
    For n = 2 ``"native"`` is :class:`modlights._gf2.Gf2Engine` (csrc/gf2.c): bit-packed
    GF(2) elimination. For n >= 3 it is :class:`modlights._zn.ZnEngine` (csrc/zn.c):
    band-aware elimination with delayed reduction over each prime-power factor of n
    (CRT; dense matrices mod 3, 4 and 8 bit-sliced, csrc/gf3.c), unit pivots first, then
    valuation pivots for rings, so composite n (4, 6, 8,
    12, ...) is exact: solvability, a solution, kernel generators with their orders,
    |ker A|, det, inverse and pseudo-inverse (where one exists).

    method: ``"auto"`` (default), ``"dense"``, ``"chase"`` or ``"algebraic"``.
    ``"dense"`` factors the dense tap matrix. ``"chase"`` (grid boards only) solves
    by generalised light chasing (:mod:`modlights.engines.chase.engine`): it never builds the dense
    matrix and reduces the board to a residual system of about cols x pattern-height
    unknowns; det / inverse / pseudo_inverse then fall back to the dense engine for
    boards of at most 2^22 matrix entries and raise ValueError beyond.
    ``"auto"`` picks the chase for grid boards of at least ``CHASE_MIN_TILES`` (576)
    tiles with the native backend, and dense otherwise: the measured crossover against
    the native dense engines is near 24 x 24 (see ``CHASE_MIN_TILES``); past it the chase
    wins by a growing factor (11x at 48 x 48 over GF(2)) and needs no dense matrix at
    all. Solving 1000 x 1000 GF(2) cross boards takes ~0.012 s, 2000 x 2000 ~0.04 s,
    10000 x 10000 ~2.3 s (2 cores).
    Boards with many taps (chase-routed grids, wide graph boards) get a default coset
    budget bounded by work (about 2^30 operations) so ``solve(minimal=True)`` on a huge
    board returns instead of hanging. Rank, nullity and kernel_size come from the
    factorisation alone (no kernel generators are built); the minimal search holds at
    most MAX_SEARCH_BYTES of generators; long native work stops on Ctrl-C
    (KeyboardInterrupt) and leaves the Solver usable.

    ``"algebraic"`` (:mod:`modlights.engines.algebraic.cross`): uniform grid boards over a
    prime n whose chase is a row recurrence (cross, vertical, horizontal, any counts of
    the offsets (0,0), (0,+-1), (+-1,0); no locks or holes; tori are solved as a 2 x 2
    system over GF(p)[s] / (s^w - 1), :mod:`modlights.engines.algebraic.torus`). The w x w residual
    system becomes one polynomial equation mod chi_T: rank, nullity, kernel_size and
    solvability from one gcd, solutions from one extended gcd and two row-recurrence
    passes; ValueError saying why for other boards. ``"auto"`` picks it for the boards it
    covers from ``ALGEBRAIC_MIN_TILES`` (576) tiles: GF(2) cross 10000 x 10000 in ~0.2 s,
    GF(3) / GF(5) in ~1.7 s; its boards also take bit-packed states (``solve_packed``)
    up to 100000 x 100000 and more. Kernel generators are built when they fit in
    ``KERNEL_BYTES_MAX`` (256 MiB); otherwise ``kernel()`` raises ValueError and
    ``solve(minimal=True)`` returns its solution unproven. It also takes the left-right
    symmetric patterns inside the 3 x 3 box (diagonal, the ring, custom ones; grid boards,
    no tori) whose next-row coefficient a I + b P is invertible for the board's width
    (or, transposed, its height) (:mod:`modlights.engines.algebraic.sym`), from
    ``SYM_ALGEBRAIC_MIN_TILES`` tiles under ``"auto"``.

    ``"lifted"`` (:mod:`modlights.engines.algebraic.lifted`): the algebraic engine's boards over a
    composite n (4, 6, 8, 9, ...; not tori): solved over every GF(p), p | n, lifted
    digit by digit to Z/p^k and combined by CRT when A is invertible mod every such p
    (5000 x 5000 Z/4 cross in ~0.35 s instead of ~5-8 s); otherwise the GF(p) engine
    (p | n) or the chase over Z/p^k does that factor's part. ``"auto"`` picks it from
    ``LIFTED_MIN_TILES`` (128 x 128).

    ``"tensor"`` (:mod:`modlights.engines.tensor.engine`): uniform grid boards (tori too; no
    locks or holes) whose offset counts factor as cnt(dr, dc) = a(dr) b(dc) (square,
    horizontal, vertical, products of a row and a column offset set), so A = R (x) C:
    solved as R X C^T = B by two passes of 1-D banded chases (every column at once),
    O(rows x cols); rank, nullity, kernel_size, det and kernel bases from the two
    1-D factors. Over a composite n by CRT over its prime powers, each a field,
    invertible there, or a power p^k (k > 1) with a factor singular mod p, solved block
    by block from the residual systems' Smith forms (square without wrap: over every
    n); ValueError
    saying why for other boards. ``"auto"`` picks it for the boards it
    covers (and the algebraic engine does not) from ``TENSOR_MIN_TILES`` tiles:
    5000 x 5000 GF(2) square in well under a second instead of ~4 s by the chase.
    Boards past MAX_TILES get rank, nullity, kernel_size and det from the factors, and
    over GF(2) solutions of bit-packed states (``solve_packed``: 100000 x 100000 square
    in ~1-3 s, 10000 x 10000 in ~0.01 s), as do the symmetric 3 x 3 patterns (diagonal).

    Parameters
    ----------
    board : Board
        The board to factor.
    backend : {"native", "reference"}
        The C engines (default) or the pure-NumPy reference engine.
    method : {"auto", "dense", "chase", "algebraic", "lifted", "tensor"}
        See above; ``"chase"`` and ``"algebraic"`` need a grid board and the native
        backend.

    Notes
    -----
    A Solver pickles and deep-copies as its board, backend and method (plus results
    already computed in Python, such as kernel generators); the factorisation lives
    in C memory and is made again, lazily, on first use on the other side.
    """

    def __init__(self, board: Board, backend: str = "native", method: str = "auto"):
        if not isinstance(board, Board):
            raise ValueError(f"Solver needs a Board, got {type(board).__name__}")
        if backend not in _BACKENDS:
            raise ValueError(f"unknown backend {backend!r}: use one of {_BACKENDS}")
        if not isinstance(method, str) or method not in _METHODS:
            raise ValueError(f"unknown method {method!r}: use one of {_METHODS}")
        if method == "chase" and backend == "reference":
            raise ValueError("method='chase' runs the native chase engine; "
                             "backend='reference' factors the dense matrix (use "
                             "method='dense' or 'auto' with it)")
        if method == "chase" and not board.is_grid:
            raise ValueError("method='chase' needs a grid board (Board.grid); use "
                             "method='dense' or 'auto' for graph boards")
        if method == "algebraic":
            from modlights.engines.algebraic.cross import algebraic_reason
            from modlights.engines.algebraic.sym import sym_reason
            reason = algebraic_reason(board)
            sym = sym_reason(board) if reason is not None else None
            if reason is not None and sym is not None:
                reason = f"{reason} (symmetric 3 x 3 patterns: {sym})"
            elif sym is None:
                reason = None
            if reason is not None:
                raise ValueError(f"method='algebraic' does not cover this board: {reason}; "
                                 "use method='auto', 'chase' or 'dense'")
        if method == "lifted":
            from modlights.engines.algebraic.lifted import lifted_reason
            reason = lifted_reason(board) if backend == "native" else "backend must be native"
            if reason is not None:
                raise ValueError(f"method='lifted' does not cover this board: {reason}; "
                                 "use method='auto', 'chase' or 'dense'")
        if method == "tensor":
            from modlights.engines.tensor.engine import tensor_reason
            reason = tensor_reason(board) if backend == "native" else "backend must be native"
            if reason is not None:
                raise ValueError(f"method='tensor' does not cover this board: {reason}; "
                                 "use method='auto', 'chase' or 'dense'")
        if method == "auto":
            from modlights.engines.chase.engine import chase_supports
            from modlights.engines.algebraic.cross import algebraic_supports
            from modlights.engines.algebraic.lifted import lifted_supports
            from modlights.engines.tensor.engine import tensor_supports
            from modlights.engines.algebraic.sym import sym_supports
            method = "algebraic" if (board.is_grid and backend == "native"
                                     and prod(board.shape) >= (TORUS_ALGEBRAIC_MIN_TILES if
                                                               board.wrap else
                                                               ALGEBRAIC_MIN_TILES)
                                     and algebraic_supports(board)) else \
                "tensor" if (board.is_grid and backend == "native"
                             and prod(board.shape) >= TENSOR_MIN_TILES
                             and tensor_supports(board)) else \
                "algebraic" if (board.is_grid and backend == "native"
                                and prod(board.shape) >= SYM_ALGEBRAIC_MIN_TILES
                                and sym_supports(board)) else \
                "lifted" if (board.is_grid and backend == "native"
                             and prod(board.shape) >= LIFTED_MIN_TILES
                             and lifted_supports(board)) else \
                "chase" if (board.is_grid and backend == "native"
                                 and prod(board.shape) >= (CHASE_MIN_TILES if
                                                           is_prime(board.states) else
                                                           CHASE_MIN_TILES_RING)
                                 and chase_supports(board)) else "dense"
        if board._giant and method not in ("algebraic", "tensor"):
            from modlights.engines.algebraic.cross import algebraic_reason
            from modlights.engines.algebraic.sym import sym_reason
            from modlights.engines.tensor.engine import tensor_reason
            native = "backend must be native"
            raise ValueError(f"a board of more than {MAX_TILES} tiles is solved only by the "
                             "algebraic engine, which does not cover this one "
                             f"(cross family: {algebraic_reason(board) or native}; "
                             f"symmetric 3 x 3 patterns: {sym_reason(board) or native}), "
                             "or the tensor engine, which does not either: "
                             f"{tensor_reason(board) or native}")
        self.board = board
        self.backend = backend
        self.method = method
        self.n = board.states
        self._gens: tuple[np.ndarray, list[int]] | None = None
        self._rank_only: int | None = None
        # A dense GF(2) factorisation keeps its transform ([A | I] is reduced); rank
        # and nullity alone need much less, so that engine is built on first use.
        self._lazy = backend == "native" and method == "dense" and self.n == 2
        self._eng = None if self._lazy else self._make_engine(board, backend, method)

    # ---------------------------------------------------------------- travelling
    def __getstate__(self) -> dict:
        """What a pickle or a deep copy carries: the board, backend and method, and
        the pure-Python results already computed; never the engine (C memory), which
        is factored again on first use on the other side."""
        state = dict(self.__dict__)
        state["_eng"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        b = self.board
        shape = "x".join(map(str, b.shape))
        return (f"Solver(<{shape} board, n={self.n}, {b.n_cells} cells x {b.n_taps} taps>, "
                f"backend={self.backend!r}, method={self.method!r})")

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
            from modlights import _gf2
            b = self.board
            if b._dense is not None:
                self._rank_only = _gf2.rank(b._dense)
            else:                       # packed from coordinates: m x r bits, no bytes
                self._rank_only = _gf2.rank_coo(b.n_cells, b.n_taps, *b.coo())
        return self._rank_only

    @property
    def _default_budget(self) -> int:
        if self.backend != "native":
            return DEFAULT_BUDGET
        # Boards can be huge (chase-routed grids, wide graph boards) and a coset step
        # costs O(n_taps) (O(n_taps / 64) over GF(2)): bound the default work to ~2^30
        # operations (about a second) instead of hanging; proven_minimal stays honest.
        per_step = max(1, self.board.n_taps // (64 if self.n == 2 else 1))
        return max(1 << 8, min(DEFAULT_NATIVE_BUDGET, (1 << 30) // per_step))

    @staticmethod
    def _make_engine(board: Board, backend: str, method: str = "dense"):
        if method == "algebraic":
            from modlights.engines.algebraic.cross import AlgebraicEngine, algebraic_supports
            from functools import partial                # picklable, unlike a lambda
            from modlights.engines.algebraic.sym import SymAlgebraicEngine
            engine = AlgebraicEngine if algebraic_supports(board) else SymAlgebraicEngine
            return engine(board, dense=partial(Solver._make_engine, board, backend))
        if method == "tensor":
            from modlights.engines.tensor.engine import TensorEngine
            from functools import partial
            return TensorEngine(board, dense=partial(Solver._make_engine, board, backend))
        if method == "lifted":
            from modlights.engines.algebraic.lifted import LiftedEngine
            from functools import partial
            return LiftedEngine(board, dense=partial(Solver._make_engine, board, backend))
        if method == "chase":
            from modlights.engines.chase.engine import ChaseEngine
            return ChaseEngine(board)
        n = board.states
        if backend == "native" and n == 2:
            from modlights._gf2 import Gf2Engine
            if board._dense is not None:
                return Gf2Engine(board.matrix())
            if board._indptr is not None:     # from_effects: column by column
                return Gf2Engine.from_csc(board.n_cells, board.n_taps, board._indptr,
                                          board.coo()[0])
            ci, tj = board.coo()          # packed straight from coordinates
            return Gf2Engine.from_coo(board.n_cells, board.n_taps, ci, tj)
        if backend == "native" and n >= 3:
            from modlights._zn import ZnEngine
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
            nbytes = self.nullity * self.board.n_taps
            if nbytes > MAX_KERNEL_BYTES:
                raise ValueError(
                    f"the kernel has {self.nullity} generators of {self.board.n_taps} "
                    f"taps: {nbytes} bytes ({nbytes / 2**30:.1f} GiB) as a dense array, "
                    f"more than the {MAX_KERNEL_BYTES // 2**30} GiB allowed; nullity, "
                    "rank and kernel_size are available without it")
            self._gens = self._engine.generators()
        return self._gens

    def _search_generators(self) -> tuple[np.ndarray, list[int], bool]:
        """(H, orders, every): the kernel generators for the minimal search. All of
        them (every=True) when they fit in MAX_SEARCH_BYTES, else the first ones that
        fit (a sub-coset: the search then proves nothing)."""
        r = max(1, self.board.n_taps)
        null = self.nullity
        if self._gens is not None or null * r <= MAX_SEARCH_BYTES \
                or self.backend != "native":
            H, orders = self._generators()
            return H, orders, True
        H, orders = self._engine.generators(limit=max(1, MAX_SEARCH_BYTES // r))
        return H, list(orders), False

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
        if self._gens is not None:
            return len(self._gens[1])
        eng = self._engine
        if hasattr(eng, "nullity"):     # from the factorisation, no generator built
            return int(eng.nullity)
        self._gens = eng.generators()   # the reference engine (dense, small boards)
        return len(self._gens[1])

    @property
    def rank(self) -> int:
        """n_taps - nullity (for prime n, the rank of A)."""
        return self.board.n_taps - self.nullity

    def kernel(self) -> np.ndarray:
        """Generators of ker A as rows (uint8, k x n_taps); a basis for prime n.
        ker A is the direct sum of the cyclic groups they generate
        (see ``kernel_orders``). ValueError, before anything is allocated, when that
        array would take more than MAX_KERNEL_BYTES (1 GiB); the message gives its size."""
        return self._generators()[0].copy()

    @property
    def kernel_orders(self) -> list[int]:
        """Additive order of each row of ``kernel()``; their product is |ker A|."""
        return list(self._generators()[1])

    @property
    def is_unique(self) -> bool:
        """True when every solvable state has exactly one solution (|ker A| = 1)."""
        return self.kernel_size == 1

    @property
    def is_invertible(self) -> bool:
        """A square and det(A) a unit mod n."""
        b = self.board
        return b.n_cells == b.n_taps and self.kernel_size == 1

    def det(self) -> int:
        """det(A) mod n, in [0, n). ValueError unless A is square.

        Over GF(2) a square A has det 1 exactly when its kernel is trivial (1 is the
        only unit), which the chase knows without the dense matrix."""
        b = self.board
        if self.n == 2 and b.n_cells == b.n_taps and b.n_taps and self.method == "chase":
            return int(self.kernel_size == 1)
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
        from modlights.model.board import _as_int_array, _in_range, _reduce_mod, _sub_mod
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
              budget: Any = None, executor: Any = None, progress: Any = None) -> Solution:
        """A solution of ``state + A x = target``; raises Unsolvable when none exists.

        minimal=True searches the coset x0 + ker A for the fewest physical taps.
        budget: coset elements to examine (an int) or seconds (a float); 0 means no
        search. Seconds are a deadline for the call, counted from its start: the coset
        search and the greedy clean-up after it stop by then (+10% or +0.25 s at
        most, whichever is larger; a first call that factors the board adds that
        time, the factorisation is not cut short); the clean-up always gets at least
        MIN_DESCENT_SECONDS, so a budget of 0.0 s still returns the greedily improved
        solution on boards whose clean-up is that fast. Default: DEFAULT_NATIVE_BUDGET
        (2^24, well under a second in the C search) on the native backend, less on
        boards with many taps (about 2^30 word operations), DEFAULT_BUDGET (2^20) on
        the reference backend.
        Past MAX_SEARCH_BYTES of kernel generators only the first ones that fit are
        searched (bounded memory; ``proven_minimal`` is then False).
        ``proven_minimal`` is True only when the whole coset was covered; otherwise
        the best element found, improved greedily, is returned.
        executor: any ``concurrent.futures.Executor`` (a ``ProcessPoolExecutor``, a Dask
        client's ``get_executor()``): when the budget covers the whole coset, the search
        is split into sub-cubes over its workers (:mod:`modlights.search.minimal`); the
        length and ``proven_minimal`` are those of the search without it.
        progress: None or a callable ``progress(done, total)`` told how far the
        minimal search is, in coset elements: after every chunk of the reference
        engine's Python enumeration, at the start and end of a native search (the C
        search runs to its end or budget without calling back; Ctrl-C stops it).
        An exception it raises (KeyboardInterrupt, say) stops the search.
        """
        steps, seconds = _check_budget(budget, self._default_budget)
        deadline = _deadline(seconds)
        check_executor(executor)
        progress = _check_progress(progress)
        rhs = self._rhs(state, target)
        X, ok = self._engine.solve(rhs[None, :])
        if not ok[0]:
            raise Unsolvable("no combination of taps takes this board to the target "
                             "(the start and the target differ by a pattern that taps "
                             "cannot make)")
        x = X[0]
        ks = self.kernel_size
        if not minimal:
            # X is the engine's new array, owned here: shaped without a copy
            return Solution(self.board, self.board.from_tap_vector(x, copy=False), ks == 1,
                            ks, 0)
        t0 = time.perf_counter()
        x, proven, examined, pruned = coset_minimum(
            x, self._kernel(), steps=steps, seconds=seconds, deadline=deadline,
            executor=executor, progress=progress, descent=MIN_DESCENT_SECONDS)
        return Solution(self.board, self.board.from_tap_vector(x, copy=False), proven, ks,
                        examined, pruned, time.perf_counter() - t0)

    def min_taps_many(self, states: Any, target: Any = 0, *, budget: Any = None,
                      executor: Any = None, progress: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """The fewest physical taps for every board of a (k, *board.shape) stack, from
        one factorisation: (lengths int64 (k,), proven bool (k,)). Unsolvable boards
        get length -1 and proven True (proved unsolvable).

        When the budget covers the whole coset (the default does for kernels up to
        2^24 elements) the native backend searches every board in one C call, the
        kernel shared (:func:`modlights.search.minimal.min_lengths_many`); ``executor``
        (any ``concurrent.futures.Executor``) then splits the boards by rows over its
        workers. Otherwise each board is searched as ``solve`` would, within the budget:
        a count of coset elements per board, or seconds for the whole call (a deadline
        as in ``solve``, shared out evenly over the boards not yet searched).
        ``progress(done, k)`` (optional) is called after each board, or once at the end
        of a batch. Ctrl-C stops it within a second (KeyboardInterrupt).
        """
        check_executor(executor)
        steps, seconds = _check_budget(budget, self._default_budget)
        deadline = _deadline(seconds)
        progress = _check_progress(progress)
        R = self._rhs_many(states, target)
        X, ok = self._engine.solve(R)
        lengths = np.full(len(ok), -1, dtype=np.int64)
        proven = np.ones(len(ok), dtype=bool)
        rows = np.flatnonzero(ok)
        kernel = self._kernel()
        if exhaustive(kernel, steps, seconds):
            lengths[rows] = min_many(X[rows] if len(rows) < len(ok) else X,
                                             kernel, executor, taps=False)[0]
            if progress is not None:
                progress(len(ok), len(ok))
            return lengths, proven
        for j, i in enumerate(rows):
            x, pr, _, _ = minimise(X[i], kernel, steps,
                                           _share(deadline, len(rows) - j))
            lengths[i] = int(x.sum(dtype=np.int64))
            proven[i] = pr
            if progress is not None:
                progress(int(i) + 1, len(ok))
        return lengths, proven

    def solve_many(self, states: Any, target: Any = 0, *, minimal: bool = False,
                   budget: Any = None, executor: Any = None) -> np.ndarray:
        """Solve a (k, *board.shape) stack from one factorisation: (k, *shape) tap
        counts. Raises Unsolvable naming the unsolvable indices.

        minimal=True: the fewest taps per board, searched as ``min_taps_many`` does
        (one C call for the batch when the budget covers the coset; ``executor`` splits
        the boards by rows over its workers; seconds are a deadline for the whole call,
        as there). Ctrl-C stops it within a second (KeyboardInterrupt)."""
        deadline = _deadline(_check_budget(budget, self._default_budget)[1]) \
            if minimal else None
        check_executor(executor)
        R = self._rhs_many(states, target)
        X, ok = self._engine.solve(R)
        if not ok.all():
            bad = tuple(int(i) for i in np.flatnonzero(~ok))
            shown = ", ".join(map(str, bad[:20])) + (" ..." if len(bad) > 20 else "")
            raise Unsolvable(f"{len(bad)} of {len(ok)} boards are unsolvable: indices {shown}", bad)
        if minimal and len(X):
            steps, seconds = _check_budget(budget, self._default_budget)
            kernel = self._kernel()
            if exhaustive(kernel, steps, seconds):
                X = min_many(X, kernel, executor, taps=True)[1]
            else:
                X = np.stack([minimise(x, kernel, steps,
                                               _share(deadline, len(X) - j))[0]
                              for j, x in enumerate(X)])
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
        """
        b = self.board
        if self.n != 2 or not b.is_grid:
            raise ValueError(f"solve_packed needs a grid board with n = 2 (bit-packed "
                             f"states), this one has n = {self.n}"
                             + ("" if b.is_grid else " and is a graph board"))
        rows, cols = b.shape
        want = (rows, (cols + 7) // 8)
        arr = packed if isinstance(packed, np.ndarray) else None
        if arr is None or arr.dtype != np.uint8 or arr.shape != want:
            got = f"{arr.dtype} {arr.shape}" if arr is not None else type(packed).__name__
            raise ValueError(f"packed must be np.packbits(state, axis=1): uint8 of shape "
                             f"{want}, got {got}")
        t = b._target_int(target)
        tc = 0
        if t is None:
            tarr = target if isinstance(target, np.ndarray) else np.asarray(target)
            if tarr.dtype != np.uint8 or tarr.shape != want:
                raise ValueError(f"target must be 0, 1 or a packed uint8 array of shape "
                                 f"{want}, got {tarr.dtype} {tarr.shape}")
            arr = np.bitwise_xor(arr, tarr)               # t - s = t ^ s over GF(2)
        else:
            tc = t
        eng = self._packed_engine()
        if eng is not None:
            x = eng.solve_packed(np.ascontiguousarray(arr), tc)
            if x is None:
                raise Unsolvable("this board cannot reach the target: t - s is not in "
                                 "the image of the tap matrix")
            return x
        if b._giant:
            raise ValueError(f"solve_packed on a board of more than {MAX_TILES} tiles needs "
                             "an engine with a packed path (algebraic: the cross family, "
                             "not tori, and left-right symmetric 3 x 3 patterns such as "
                             "diagonal; tensor: square, horizontal, vertical and other "
                             f"product patterns); method={self.method!r} would unpack the "
                             "states (rank, nullity, kernel_size and det are available)")
        state = np.unpackbits(arr, axis=1, count=cols)
        sol = self.solve(state, tc, minimal=False)
        return np.packbits(sol.taps, axis=1)

    def _packed_engine(self):
        """The engine whose solve_packed takes this board's packed states without
        unpacking them, for the structured methods (algebraic, tensor; every board past
        MAX_TILES has one): the Solver's own engine when it packs along the board's
        rows; else the tensor engine when it covers the board (tori of the cross family,
        which the algebraic engine leaves to the chase, and horizontal, which it chases
        transposed: the tensor engine needs no bit transposes there, 3x faster); else
        the own engine through transposes; None otherwise."""
        if self.backend != "native" or self.method not in ("algebraic", "tensor"):
            return None
        eng = self._engine
        packs = getattr(eng, "packs", False)
        if packs and not getattr(eng, "transposed", False):
            return eng
        from modlights.engines.tensor.engine import TensorEngine, tensor_supports
        if tensor_supports(self.board):
            return TensorEngine(self.board)
        return eng if packs else None

    def hardest(self, *, budget: Any = None, executor: Any = None):
        """The hardest solvable board (target 0): the largest fewest-taps over every
        solvable board (the covering radius of ker A) and a board that needs it.

        budget: seconds (None: until proved), a deadline (+10% or +0.25 s); past it the
        best board found is returned with ``proven=False``. Ctrl-C stops it within a
        second (KeyboardInterrupt), the Solver usable. executor: passed on to the
        coset searches where ``solve`` takes one. Returns a
        :class:`modlights.search.hardest.Hardest` (``min_taps``, ``state``, ``proven``,
        ``lower``, ``upper``, ``seconds``, ``iterations``); see
        :mod:`modlights.search.hardest` for the algorithm.
        """
        if self.board._giant:
            raise ValueError(f"hardest on a board of more than {MAX_TILES} tiles would need "
                             "its states as bytes (rank, nullity, kernel_size and det are "
                             "available)")
        from modlights.search.hardest import hardest
        return hardest(self.board, self._kernel(), budget=budget, executor=executor)

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
    def _kernel(self) -> Kernel:
        """ker A as the searches of :mod:`modlights.search` see it (generators built on
        first use and kept)."""
        return Kernel(self.n, self.board.n_taps, self.kernel_size,
                      native=self.backend == "native", generators=self._generators,
                      search_generators=self._search_generators,
                      searchable=lambda: self.method not in ("algebraic", "tensor")
                      or self._engine.kernel_fits())
