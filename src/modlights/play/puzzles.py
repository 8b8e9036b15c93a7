"""Puzzles: generation, difficulty, stars, shareable puzzle codes and daily challenges.

A :class:`Puzzle` is a grid :class:`~modlights.model.board.Board` plus a start state; the
goal is always all tiles 0. Its measured properties (the fewest taps, stars,
difficulty) are computed on first use and cached.

Difficulty: a band of the fewest taps, scaled by the board
--------------------------------------------------------------
A player counts taps, so each difficulty bounds ``min_taps`` (m, the proved minimum
over every solution) by the board's size. With T the tappable tiles and n the states,
the scale is ``u = sqrt(T (n - 1))`` (a 5 x 5 two-state board: u = 5; 6 x 6 with 3
states: u = 8.5; 12 x 12 with 9 states: u = 34), and the bands are, in taps::

    easy:   FLOOR (3)        .. ceil(u) - 1
    medium: ceil(u)          .. ceil(8 u / 5) - 1
    hard:   ceil(8 u / 5)    .. ceil(12 u / 5) - 1
    expert: ceil(12 u / 5)   .. floor(18 u / 5)

each lower bound raised to one more than the previous band's where the board is so
small that they would meet (every band holds at least one count; ``tap_bands``
computes them in integers). A puzzle's ``difficulty`` is the band holding its m (below
the floor: easy; above expert's top: expert); ``score`` is m over expert's top, at
most 1. A start of ``T (n - 1)`` taps or more is a wall of arithmetic, not a puzzle:
the scale grows as the square root of that, so a large many-state board asks for a
few dozen taps, not hundreds.

``generate`` samples starts ``-A x`` for random tap vectors x whose length is drawn
from the band (times a scale in percent, adapted while samples miss: extra solutions
of a non-trivial kernel make starts shorter; at most max(band top, half of T (n - 1))
taps) until the minimal solve lands in the band, within a fixed number of samples;
where no start reaches the band (a small board, or one whose kernel makes every start
short) it returns the closest puzzle found. On a board with a trivial kernel (``unique=True``)
x is the only solution, so the first sample already lands in the band.

Stars
-----
``stars = {3: m, 2: m + max(2, ceil(m / 4)), 1: m + max(5, m)}``: the most taps that
still earn 3, 2 and 1 stars (more taps than the 1-star limit: solved, no star).

Puzzle codes (version 1)
------------------------
Shareable text holding a whole puzzle: :mod:`modlights.play.codes` has the format.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

import numpy as np

from modlights.model.board import Board
from modlights.model.ring import is_prime
from modlights.model.validation import as_int
from modlights.native import _core
from modlights.play.codes import CODE_VERSION, MAX_CODE_SIDE, decode, encode
from modlights.play.prng import SplitMix64, seed_from
from modlights.play.puzzle_dict import puzzle_from_dict, puzzle_to_dict
from modlights.solver import Solution, Solver

__all__ = [
    "Puzzle",
    "generate",
    "daily",
    "DIFFICULTIES",
    "CODE_VERSION",
    "DAILY_SCHEME",
    "stars_for_taps",
    "tap_bands",
    "difficulty_of",
    "TAP_FLOOR",
]

#: the difficulties, easiest first (the C library's names: ml_difficulty_name)
DIFFICULTIES: tuple[str, ...] = _core.DIFFICULTIES
#: the fewest taps an easy puzzle needs where the board allows it (the low end of easy)
TAP_FLOOR: int = _core.tap_bands(0, 2)[0][0]

MAX_GENERATE_TILES = 1024

#: coset elements the generator's minimal search may examine (a count, not seconds, so
#: that generation is the same on every machine)
GENERATE_BUDGET = 1 << 18
_SAMPLE_TRIES = 48
_PLACEMENT_TRIES = 256

DAILY_SCHEME = "modlights-daily-v2"


# ----------------------------------------------------------------------------- helpers
# The bands, difficulties and stars are the C library's (csrc/play/bands.c: ml_tap_bands,
# ml_difficulty_of, ml_stars_limits, ml_stars_for_taps): the rules of the module
# docstring in integers, the same numbers in every binding.
def tap_bands(n_taps: int, states: int) -> dict[str, tuple[int, int]]:
    """{difficulty: (lo, hi)}: the fewest taps (both inclusive) of each difficulty on a
    board with ``n_taps`` tappable tiles (a negative count counts as 0) and ``states``
    states (module docstring). Integer arithmetic only, so every language computes the
    same bands. ValueError for ints outside 0..2**64 - 1 taps or 1..2**31 - 1 states."""
    return dict(zip(DIFFICULTIES, _core.tap_bands(n_taps, states)))


def difficulty_of(min_taps: int, n_taps: int, states: int) -> str:
    """The difficulty whose band holds ``min_taps`` (easy below the floor, expert above
    the top)."""
    return DIFFICULTIES[_core.difficulty_of(min_taps, n_taps, states)]


def _stars_limits(m: int) -> dict[int, int]:
    """The tap limits of 3, 2 and 1 stars for a minimum of ``m`` taps (module docstring)."""
    three, two, one = _core.stars_limits(m)
    return {3: three, 2: two, 1: one}


def stars_for_taps(limits: dict[int, int], taps: int) -> int:
    """Stars earned by solving in ``taps`` taps under the limits of ``Puzzle.stars``
    (0 past the 1-star limit). ValueError for limits that are not ints from 0 to
    2**64 - 2 (a missing key: KeyError)."""
    return int(_core.stars_for_taps((limits[3], limits[2], limits[1]), taps))


def _check_difficulty(difficulty: Any) -> str:
    """``difficulty`` when it is one of :data:`DIFFICULTIES`, else ValueError listing them."""
    return DIFFICULTIES[_core.difficulty_lookup(difficulty)]


def _check_count(name: str, v: Any) -> int:
    """A count of tiles: an int >= 0, else ValueError naming ``name``."""
    return as_int(v, name, lo=0, expected="a count of tiles (an int >= 0)", floats=False)


# ----------------------------------------------------------------------------- Puzzle
class Puzzle:
    """A grid board and a start state to bring to all zeros.

    ``Puzzle(board, start)``; ``Puzzle.from_code(code)``; or :func:`generate`.

    Parameters
    ----------
    board : Board
        A grid board (graph boards have no puzzle code).
    start : array_like of int
        The start state, board-shaped, reduced mod n.

    Attributes
    ----------
    board, start : Board, numpy.ndarray
        The board and the start (read-only).
    min_taps, proven, stars, difficulty, score, code
        Measured on first use and cached (see each property).

    Two puzzles are equal when their boards and starts are. Puzzles pickle and
    deep-copy, also after their measured properties were read.

    Examples
    --------
    >>> p = ml.generate(4, 4, states=3, difficulty="easy", seed=1)
    >>> p
    Puzzle(4x4, states=3, code='AQIEBAMARAAJKaog00_LYA')
    >>> p.board
    Board.grid(4, 4, states=3, pattern='cross', locked=<2 tiles>)
    >>> p.start
    array([[0, 0, 2, 1],
           [0, 2, 2, 1],
           [2, 2, 2, 2],
           [0, 2, 0, 0]], dtype=uint8)
    >>> p.min_taps, p.proven
    (3, True)
    """

    def __init__(self, board: Board, start: Any):
        if not isinstance(board, Board):
            raise ValueError(f"board must be a modlights Board, got {type(board).__name__}")
        if not board.is_grid:
            raise ValueError(
                "puzzles are grid boards (Board.grid); graph boards have no puzzle code"
            )
        s = board.coerce_state(start, "start")
        s.setflags(write=False)
        self._board = board
        self._start = s
        self._solver: Solver | None = None
        self._stats: tuple | None = None
        self._code: str | None = None

    # -- basic
    @property
    def board(self) -> Board:
        """The puzzle's board.

        Examples
        --------
        >>> ml.generate(4, 4, states=3, seed=1).board
        Board.grid(4, 4, states=3, pattern='cross', locked=<2 tiles>)
        """
        return self._board

    @property
    def start(self) -> np.ndarray:
        """The start state (a read-only uint8 array shaped like the board).

        Examples
        --------
        >>> p = ml.generate(3, 3, states=3, seed=2)
        >>> p.start
        array([[1, 2, 2],
               [0, 0, 2],
               [0, 1, 1]], dtype=uint8)
        >>> ml.Solver(p.board).solvable(p.start)
        True
        """
        return self._start

    @property
    def solver(self) -> Solver:
        """The board's :class:`~modlights.Solver` (made on first use, then kept)."""
        if self._solver is None:
            self._solver = Solver(self._board)
        return self._solver

    # -- measured properties (lazy)
    def _measure(self) -> tuple:
        if self._stats is None:
            sol = _min_solve(self.solver, self._start)
            self._stats = _measure(self._board, sol, self._start)
        return self._stats

    @property
    def min_taps(self) -> int:
        """The fewest taps that solve the puzzle (proved when ``proven``). Raises
        :class:`~modlights.Unsolvable` for a start that cannot be solved.

        Examples
        --------
        >>> p = ml.generate(3, 3, states=3, seed=2)
        >>> p.min_taps
        5
        >>> ml.Solver(p.board).solve(p.start).length == p.min_taps
        True
        """
        return self._measure()[0]

    @property
    def proven(self) -> bool:
        """True when ``min_taps`` is proved minimal (the whole solution set was searched).

        Examples
        --------
        >>> ml.generate(3, 3, states=3, seed=2).proven
        True
        """
        return self._measure()[1]

    @property
    def solution(self) -> Solution:
        """The minimal :class:`~modlights.Solution` found."""
        return self._measure()[3]

    @property
    def bands(self) -> dict[str, tuple[int, int]]:
        """{difficulty: (lo, hi)}: the fewest taps of each difficulty on this board."""
        return tap_bands(self._board.n_taps, self._board.states)

    @property
    def score(self) -> float:
        """``min_taps`` over the top of the expert band, at most 1."""
        return min(1.0, self.min_taps / self.bands["expert"][1])

    @property
    def difficulty(self) -> str:
        """ "easy", "medium", "hard" or "expert": the band holding ``min_taps`` (see the
        module docstring)."""
        return difficulty_of(self.min_taps, self._board.n_taps, self._board.states)

    @property
    def touched(self) -> int:
        """Tiles the solution changes in all (the tiles not at 0 at the start)."""
        return self._measure()[2]

    @property
    def stars(self) -> dict[int, int]:
        """{3: a, 2: b, 1: c}: the most taps that earn 3, 2 and 1 stars.

        Examples
        --------
        >>> p = ml.generate(3, 3, states=3, seed=2)
        >>> p.stars
        {3: 5, 2: 7, 1: 10}
        >>> p.stars[3] == p.min_taps
        True
        """
        return _stars_limits(self.min_taps)

    def stars_for(self, taps: int) -> int:
        """Stars for solving in ``taps`` taps (0 beyond the 1-star limit)."""
        return stars_for_taps(self.stars, taps)

    # -- codes
    @property
    def code(self) -> str:
        """Short URL-safe text holding the whole puzzle (see the module docstring).

        Examples
        --------
        >>> p = ml.generate(3, 3, states=3, seed=2)
        >>> p.code
        'AQADAwMAaCFAvSnc5Q'
        >>> ml.Puzzle.from_code(p.code) == p
        True
        """
        if self._code is None:
            self._code = encode(self._board, self._start)
        return self._code

    @classmethod
    def from_code(cls, code: Any) -> Puzzle:
        """The puzzle of a code; ValueError for anything that is not a valid code.

        Examples
        --------
        >>> p = ml.generate(3, 3, states=3, seed=2)
        >>> ml.Puzzle.from_code(p.code) == p
        True
        >>> ml.Puzzle.from_code("not a code")
        Traceback (most recent call last):
            ...
        ValueError: puzzle code has a character ' ' that is not base64url (A-Z a-z 0-9 - _)
        """
        board, start = decode(code)
        p = cls(board, start)
        p._code = code.strip()  # decode checked that it is canonical
        return p

    # -- data
    def to_dict(self) -> dict:
        """JSON-safe data: ``{"board": board.to_dict(), "start": nested lists, "code",
        "stars": {"3": a, "2": b, "1": c}, "min_taps", "proven", "difficulty"}``.

        Examples
        --------
        >>> d = ml.generate(3, 3, states=3, seed=2).to_dict()
        >>> sorted(d)
        ['board', 'code', 'difficulty', 'min_taps', 'proven', 'stars', 'start']
        """
        return puzzle_to_dict(self)

    @classmethod
    def from_dict(cls, d: Any, *, max_tiles: int | None = None) -> Puzzle:
        """The puzzle of ``d``: ``"board"`` and ``"start"``, or ``"code"``, or all three
        (then they must describe the same puzzle). ``stars``, ``min_taps``, ``proven``
        and ``difficulty`` are derived: checked for type, recomputed from the puzzle.
        ValueError naming the field for anything else.

        Examples
        --------
        >>> p = ml.generate(3, 3, states=3, seed=2)
        >>> ml.Puzzle.from_dict(p.to_dict()) == p
        True
        """
        return puzzle_from_dict(cls, d, max_tiles=max_tiles)

    # -- identity
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return self._board == other._board and np.array_equal(self._start, other._start)

    def __hash__(self) -> int:
        return hash(self.code)

    def __repr__(self) -> str:
        r, c = self._board.shape
        return f"Puzzle({r}x{c}, states={self._board.states}, code={self.code!r})"

    def _repr_svg_(self) -> str | None:
        from modlights.model.render import repr_svg

        r, c = self._board.shape
        return repr_svg(
            self._board,
            self._start,
            title=f"puzzle {r}x{c}, {self._board.states} states, code {self.code}",
        )

    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        """The start as text: '.' hole, '*' after a locked tile."""
        b = self._board
        width = len(str(b.states - 1))
        locked, holes = b.locked, b.holes
        mark = bool(locked.any())
        lines = []
        for r in range(b.shape[0]):
            cells = []
            for c in range(b.shape[1]):
                t = "." if holes[r, c] else str(int(self._start[r, c]))
                cells.append(t.rjust(width) + (("*" if locked[r, c] else " ") if mark else ""))
            lines.append(" ".join(cells).rstrip())
        return "\n".join(lines)


def _min_solve(solver: Solver, start: np.ndarray) -> Solution:
    """Minimal solve with a budget in coset elements (never seconds) so the result is
    the same on every machine; kernels larger than the budget get the deterministic
    greedy descent (budget 0) instead of a partial, order-dependent search."""
    budget = GENERATE_BUDGET if solver.kernel_size <= GENERATE_BUDGET else 0
    return solver.solve(start, minimal=True, budget=budget)


def _measure(board: Board, sol: Solution, start: np.ndarray) -> tuple:
    """(min_taps, proven, touched, solution) of a solved start."""
    touched = int(np.count_nonzero(start))  # holes are 0
    return (int(sol.length), bool(sol.proven_minimal), touched, sol)


# ----------------------------------------------------------------------------- generate
def generate(
    rows: int = 5,
    cols: int = 5,
    states: int = 2,
    pattern: Any = "cross",
    difficulty: str = "medium",
    *,
    locked: Any = None,
    holes: Any = None,
    wrap: bool = False,
    unique: bool = True,
    seed: Any = None,
) -> Puzzle:
    """A new puzzle: a start state for the board described, of the given difficulty.

    rows, cols, states, pattern, wrap: as :meth:`Board.grid` (pattern may be a name,
    offsets, or a mixed (rows, cols) nested list). locked / holes: how many tiles to
    lock (tappable no more, still changed by taps) and to cut out, placed by the
    seeded generator; or fixed positions, as :meth:`Board.grid` takes them (a boolean
    mask or (row, col) pairs). difficulty: "easy", "medium", "hard" or "expert" (defined in
    the module docstring). unique=True: the tap matrix has a trivial kernel, so every
    start has exactly one solution; lock and hole placements are retried until one
    gives it, and a ValueError explains when the settings cannot. Left unset (None),
    locked and holes mean none, except that with unique=True on a board whose kernel
    is not trivial (the classic 5x5 cross board, say) the generator then locks as few
    tiles as make the solution unique; an explicit 0 means none, and unique=True then
    raises a ValueError saying why. seed: an int or str gives the same puzzle on every
    machine; None a random one.

    Raises ValueError for an unknown difficulty, sides over ``MAX_CODE_SIDE`` or more
    than ``MAX_GENERATE_TILES`` tiles, counts that leave no tile to tap, a tile both
    locked and a hole, a pattern that changes nothing, or unique=True where no
    placement gives a trivial kernel. Each try factors the board once and searches
    minimal solutions within a fixed count of coset elements (never seconds), so the
    work is bounded and the answer the same on every machine.

    Examples
    --------
    >>> p = ml.generate(5, 5, states=3, difficulty="medium", locked=3, seed=7)
    >>> p.board.shape, p.board.states, int(p.board.locked.sum())
    ((5, 5), 3, 3)
    >>> ml.Solver(p.board).is_unique
    True
    >>> p.min_taps, p.proven
    (9, True)
    >>> ml.generate(4, 4, seed=7) == ml.generate(4, 4, seed=7)
    True
    >>> ml.generate(4, 4, difficulty="impossible")
    Traceback (most recent call last):
        ...
    ValueError: difficulty must be one of 'easy', 'medium', 'hard', 'expert', got ...
    """
    auto = unique and locked is None and holes is None
    difficulty = _check_difficulty(difficulty)
    rows = as_int(rows, "rows", lo=1, expected="an int >= 1", floats=False)
    cols = as_int(cols, "cols", lo=1, expected="an int >= 1", floats=False)
    if rows > MAX_CODE_SIDE or cols > MAX_CODE_SIDE or rows * cols > MAX_GENERATE_TILES:
        raise ValueError(
            f"generate makes boards of up to {MAX_GENERATE_TILES} tiles with "
            f"sides up to {MAX_CODE_SIDE}, got {rows}x{cols}"
        )
    locked, fixed_lock = _count_or_mask("locked", locked, rows, cols)
    holes, fixed_hole = _count_or_mask("holes", holes, rows, cols)
    if (fixed_lock & fixed_hole).any():
        r, c = map(int, np.argwhere(fixed_lock & fixed_hole)[0])
        raise ValueError(
            f"tile ({r}, {c}) is both locked and a hole; a tile may be one or the other"
        )
    tiles = rows * cols
    free = tiles - int(fixed_lock.sum()) - int(fixed_hole.sum())
    if locked + holes >= free:
        raise ValueError(
            f"{locked} locked tiles and {holes} holes leave no tile to tap on a {rows}x{cols} board"
        )
    rng = SplitMix64(seed_from(seed))
    try:
        board, solver = _place(
            rows,
            cols,
            states,
            pattern,
            locked,
            holes,
            bool(wrap),
            bool(unique),
            rng,
            fixed_lock,
            fixed_hole,
        )
    except ValueError as first:
        if not auto or "unique" not in str(first):
            raise
        # Lock as few tiles as make the kernel trivial: each lock lowers the number of
        # kernel generators by at most one, so start at that number.
        full = Solver(Board.grid(rows, cols, states, pattern, wrap=bool(wrap)))
        lo = max(1, full.nullity)
        for k in range(lo, min(tiles - 1, lo + 3) + 1):
            try:
                board, solver = _place(
                    rows, cols, states, pattern, k, 0, bool(wrap), True, rng, fixed_lock, fixed_hole
                )
                break
            except ValueError:
                continue
        else:
            raise ValueError(
                f"{first}; locking {lo} to {lo + 3} tiles did not help either"
            ) from None
    return _sample_start(board, solver, difficulty, rng)


def _count_or_mask(name: str, v: Any, rows: int, cols: int) -> tuple[int, np.ndarray]:
    """A count of tiles to place at random, or fixed positions (mask or (r, c) pairs)."""
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
        return _check_count(name, v), np.zeros((rows, cols), bool)
    if v is None:
        return 0, np.zeros((rows, cols), bool)
    if isinstance(v, (bool, np.bool_, float, str)):
        raise ValueError(
            f"{name} must be a count of tiles (an int >= 0) or their positions "
            f"(a boolean mask or (row, col) pairs), got {v!r}"
        )
    b = Board.grid(rows, cols, 2, "cross", **{name: v})
    return 0, (b.locked if name == "locked" else b.holes)


def _place(
    rows: int,
    cols: int,
    states: int,
    pattern: Any,
    locked: int,
    holes: int,
    wrap: bool,
    unique: bool,
    rng: SplitMix64,
    fixed_lock: Any,
    fixed_hole: Any,
) -> tuple[Board, Solver]:
    """(board, solver) with ``locked`` / ``holes`` more tiles placed at random (``rng``)
    besides the fixed ones, retried up to the placement tries until the kernel is
    trivial when ``unique``; ValueError saying why when no placement gives it."""
    tiles = rows * cols
    tries = 1 if locked + holes == 0 else _PLACEMENT_TRIES
    free = [i for i in range(tiles) if not (fixed_lock.flat[i] or fixed_hole.flat[i])]
    if unique and holes == 0 and not fixed_hole.any() and locked > 0:
        # Locking k tiles removes k columns of A, so dim ker A drops by at most k: with
        # fewer locks than the nullity (n prime) no placement can work.
        full = Solver(Board.grid(rows, cols, states, pattern, wrap=wrap))
        total = locked + int(fixed_lock.sum())
        if is_prime(full.board.states) and full.nullity > total:
            raise ValueError(
                f"unique=True is impossible: the {rows}x{cols} board with {states} states "
                f"has |ker A| = {full.kernel_size} (nullity {full.nullity}) and each locked "
                f"tile lowers the nullity by at most 1, so it needs at least "
                f"{full.nullity} locked tiles, not {total}; or pass unique=False"
            )
    best = None
    for _ in range(tries):
        chosen = rng.sample(free, locked + holes)
        lock, hole = fixed_lock.copy(), fixed_hole.copy()
        for i in chosen[:locked]:
            lock.flat[i] = True
        for i in chosen[locked:]:
            hole.flat[i] = True
        board = Board.grid(rows, cols, states, pattern, locked=lock, holes=hole, wrap=wrap)
        if board.n_taps == 0:
            continue
        solver = Solver(board)
        if not unique or solver.kernel_size == 1:
            return board, solver
        if best is None or solver.kernel_size < best[2]:
            best = (board, solver, solver.kernel_size)
    desc = f"{rows}x{cols} board with {states} states"
    if best is None:
        raise ValueError(f"no tappable tile is left on the {desc}")
    ks = best[2]
    if locked + holes == 0:
        extra = (
            "no further locked tiles or holes were allowed"
            if fixed_lock.any() or fixed_hole.any()
            else "no locked tiles or holes were allowed"
        )
        raise ValueError(
            f"unique=True is impossible: the {desc} has |ker A| = {ks} (several tap "
            f"combinations change nothing, so solutions are never unique) and {extra} to "
            "break that; allow some with locked=k or holes=k, or pass unique=False"
        )
    raise ValueError(
        f"unique=True: none of {tries} placements of {locked} locked tiles and {holes} "
        f"holes on the {desc} gives a trivial kernel (the best left |ker A| = {ks}); "
        "allow more locked tiles, or pass unique=False"
    )


def _changes_nothing(board: Board) -> bool:
    """True when no tap changes any tile (A = 0 mod n: an empty pattern, or one
    whose offsets add up to multiples of n): no start can need a tap."""
    ci, tj = board.coo()
    if ci.size == 0:
        return True
    _, counts = np.unique(ci * max(1, board.n_taps) + tj, return_counts=True)
    return not (counts % board.states).any()


def _sample_start(board: Board, solver: Solver, difficulty: str, rng: SplitMix64) -> Puzzle:
    """A puzzle on ``board`` whose measured difficulty is ``difficulty``, or the closest
    sampled (starts ``-A x`` for random x of lengths adapted to the band); ValueError
    when no tap changes any tile. Every draw comes from ``rng``: deterministic."""
    T, n = board.n_taps, board.states
    if _changes_nothing(board):
        # checked first: the samples below would all be the solved board, after a
        # search of the whole (huge) kernel for the difficulty's reference
        rows, cols = board.shape
        raise ValueError(
            f"no tap changes any tile on this {rows}x{cols} board with {n} "
            "states (its pattern is empty, or its offsets add up to multiples "
            f"of {n}), so no start can need a tap; use a pattern that changes "
            "some tile"
        )
    lo, hi = tap_bands(T, n)[difficulty]
    # Plans longer than half the most taps (or the band's top) only fold back onto
    # the kernel's shorter solutions: no longer plans are sampled.
    cap = min(T * (n - 1), max(hi, (T * (n - 1) + 1) // 2))
    best = None
    scale = 100  # percent; adapted while samples miss the band
    for _attempt in range(_SAMPLE_TRIES):
        want = lo + rng.randbelow(hi - lo + 1)
        length = max(1, min(cap, (want * scale + 50) // 100))
        x = [0] * T
        placed = 0
        while placed < length:
            j = rng.randbelow(T)
            if x[j] < n - 1:
                x[j] += 1
                placed += 1
        xv = np.array(x, dtype=np.int64)
        start_vec = (-board.apply_vector(xv).astype(np.int64)) % n
        if not start_vec.any():
            continue
        start = board.from_cell_vector(start_vec.astype(np.uint8))
        sol = _min_solve(solver, start)
        stats = _measure(board, sol, start)
        m = stats[0]
        if lo <= m <= hi:
            return _finish(board, solver, start, stats)
        # Extra solutions shorten starts: sample longer plans when short, and shorter
        # ones when long.
        scale = min(400, scale * 5 // 4) if m < lo else max(1, scale * 4 // 5)
        dist = lo - m if m < lo else m - hi
        if best is None or dist < best[0]:
            best = (dist, start, stats)
    if best is None:
        raise ValueError(
            "could not make a start state that needs any tap on this board "
            "(every tap changes nothing)"
        )
    return _finish(board, solver, best[1], best[2])


def _finish(board: Board, solver: Solver, start: np.ndarray, stats: tuple) -> Puzzle:
    """The Puzzle of ``start`` with its solver and measured stats already filled in."""
    p = Puzzle(board, start)
    p._solver = solver
    p._stats = stats
    return p


# ----------------------------------------------------------------------------- daily
_DAILY = (  # (difficulty, rows, cols, states, pattern, locked, holes) -- scheme v2
    ("easy", 5, 5, 2, "cross", 2, 0),
    ("medium", 5, 5, 3, "cross", 3, 0),
    ("hard", 6, 6, 3, "cross", 2, 2),
)


def _parse_date(date: Any) -> _dt.date:
    """A ``datetime.date`` from a date, a datetime or "YYYY-MM-DD" (the C library's
    ml_date_parse: Python's datetime rules and messages); ValueError otherwise."""
    if isinstance(date, _dt.datetime):
        return date.date()
    if isinstance(date, _dt.date):
        return date
    if isinstance(date, str):
        return _dt.date(*_core.date_parse(date))
    raise ValueError(
        f"date must be a datetime.date or an ISO string 'YYYY-MM-DD', got {type(date).__name__}"
    )


def daily(date: Any = None) -> tuple[Puzzle, Puzzle, Puzzle]:
    """The day's three puzzles (easy, medium, hard): the same on every machine.

    date: a ``datetime.date`` (or datetime) or an ISO string "YYYY-MM-DD"; None is
    today (UTC). Derived with SplitMix64 from "modlights-daily-v2:YYYY-MM-DD".

    Examples
    --------
    >>> easy, medium, hard = ml.daily("2026-11-22")
    >>> easy.board.shape, medium.board.shape, hard.board.shape
    ((5, 5), (5, 5), (6, 6))
    >>> ml.daily("2026-11-22")[2] == hard
    True
    """
    if date is None:
        date = _dt.datetime.now(_dt.timezone.utc).date()
    d = _parse_date(date)
    rng = SplitMix64(f"{DAILY_SCHEME}:{d.isoformat()}")
    first, second, third = (
        generate(r, c, n, pat, diff, locked=lk, holes=hl, seed=rng.next_u64())
        for diff, r, c, n, pat, lk, hl in _DAILY
    )
    return first, second, third
