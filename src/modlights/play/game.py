"""Game: one play-through of a Puzzle (tap, undo, reset, hint, stars).

Rules
-----
- ``tap(pos)`` advances the tiles of the pattern at ``pos``; locked tiles, holes and
  positions off the board are a ValueError (the state is unchanged).
- ``taps_used`` is the number of taps on the board now: ``undo()`` takes the last one
  back (and lowers the count), ``reset()`` returns to the start with ``taps_used`` 0.
- ``hint()`` applies the next tap of a minimal plan from the current state and returns
  its position. The plan is kept while the player follows it and recomputed as soon as
  the board differs from what the plan expects (the player tapped elsewhere, undid,
  reset). A hint counts as a tap.
- ``hinted`` becomes True with the first hint and stays True for this Game, also after
  ``undo()`` and ``reset()`` (otherwise a hint could be read and then reset away). A
  hinted game earns no stars.
- ``stars``: 0 while unsolved or when hinted; else by ``puzzle.stars`` limits for
  ``taps_used``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from modlights.play.puzzles import GENERATE_BUDGET, Puzzle, stars_for_taps

if TYPE_CHECKING:
    from modlights.model.board import Board

__all__ = ["Game"]


class Game:
    """One play-through of a puzzle (the rules are in the module docstring).

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its code.

    Attributes
    ----------
    state : numpy.ndarray
        The tiles now (a copy).
    taps_used, solved, hinted, hints_used, stars, moves
        See each property.

    A Game pickles and deep-copies with its history and any hint plan in progress.

    Examples
    --------
    >>> g = ml.Game(ml.generate(3, 3, states=2, seed=5))
    >>> g.solved, g.taps_used
    (False, 0)
    >>> while not g.solved:
    ...     _ = g.hint()
    >>> g.solved, g.hinted, g.stars
    (True, True, 0)
    """

    def __init__(self, puzzle: Any):
        if isinstance(puzzle, str):
            puzzle = Puzzle.from_code(puzzle)
        if not isinstance(puzzle, Puzzle):
            raise ValueError(f"Game needs a Puzzle or a puzzle code, got {type(puzzle).__name__}")
        self._puzzle = puzzle
        self._board = puzzle.board
        self._state = puzzle.start.copy()
        self._history: list = []
        self._hinted = False
        self._hints = 0
        self._plan: list = []
        self._plan_state: np.ndarray | None = None

    # ------------------------------------------------------------------ read-only
    @property
    def puzzle(self) -> Puzzle:
        """The puzzle being played."""
        return self._puzzle

    @property
    def board(self) -> Board:
        """The puzzle's board."""
        return self._board

    @property
    def state(self) -> np.ndarray:
        """The current tiles (a copy).

        Examples
        --------
        >>> p = ml.generate(3, 3, states=2, seed=5)
        >>> g = ml.Game(p)
        >>> np.array_equal(g.state, p.start)
        True
        >>> _ = g.tap(p.board.taps[0])
        >>> np.array_equal(g.state, p.board.press(p.start, p.board.taps[0]))
        True
        """
        return self._state.copy()

    @property
    def taps_used(self) -> int:
        """Taps on the board now (undo lowers it, reset makes it 0).

        Examples
        --------
        >>> g = ml.Game(ml.generate(3, 3, states=2, seed=5))
        >>> _ = g.tap((0, 0)); _ = g.tap((1, 1))
        >>> g.taps_used
        2
        """
        return len(self._history)

    @property
    def moves(self) -> list:
        """Positions tapped so far, in order."""
        return list(self._history)

    @property
    def solved(self) -> bool:
        """True when every tile is 0.

        Examples
        --------
        >>> p = ml.generate(3, 3, states=2, seed=5)
        >>> g = ml.Game(p)
        >>> g.solved
        False
        >>> for pos in ml.Solver(p.board).solve(p.start).moves():
        ...     _ = g.tap(pos)
        >>> g.solved
        True
        """
        return not self._state.any()

    @property
    def hinted(self) -> bool:
        """True once a hint was used in this game (stays True after undo / reset).

        Examples
        --------
        >>> g = ml.Game(ml.generate(3, 3, states=2, seed=5))
        >>> g.hinted
        False
        >>> _ = g.hint()
        >>> g.hinted
        True
        """
        return self._hinted

    @property
    def hints_used(self) -> int:
        """How many hints were used."""
        return self._hints

    @property
    def stars(self) -> int:
        """Stars earned: 0 while unsolved or when hinted, else by the puzzle's limits.

        Examples
        --------
        >>> p = ml.generate(3, 3, states=2, seed=5)
        >>> g = ml.Game(p)
        >>> for pos in ml.Solver(p.board).solve(p.start).moves():
        ...     _ = g.tap(pos)
        >>> g.solved, g.taps_used == p.min_taps, g.stars
        (True, True, 3)
        """
        if not self.solved or self._hinted:
            return 0
        return stars_for_taps(self._puzzle.stars, self.taps_used)

    # ------------------------------------------------------------------ actions
    def _key(self, pos: Any) -> int | tuple[int, int]:
        self._board.tap_index(pos)  # ValueError for locked / hole / off-board
        if isinstance(pos, (int, np.integer)):
            return int(pos)
        return (int(pos[0]), int(pos[1]))

    def tap(self, pos: Any) -> np.ndarray:
        """Tap ``pos``; returns the new state.

        Examples
        --------
        >>> g = ml.Game(ml.generate(3, 3, states=2, seed=5))
        >>> g.tap((1, 1))
        array([[0, 1, 1],
               [0, 1, 0],
               [1, 0, 0]], dtype=uint8)
        >>> g.taps_used
        1
        >>> g.tap((5, 5))
        Traceback (most recent call last):
            ...
        ValueError: tap position (5, 5) is off the board: rows 0..2, cols 0..2
        """
        p = self._key(pos)
        self._state = self._board.press(self._state, p)
        self._history.append(p)
        return self.state

    def undo(self) -> Any:
        """Take back the last tap; returns its position, or None when there is none.

        Examples
        --------
        >>> g = ml.Game(ml.generate(3, 3, states=2, seed=5))
        >>> start = g.state.copy()
        >>> _ = g.tap((1, 1))
        >>> g.undo()
        (1, 1)
        >>> g.taps_used, np.array_equal(g.state, start)
        (0, True)
        """
        if not self._history:
            return None
        p = self._history.pop()
        self._state = self._board.press(self._state, p, times=self._board.states - 1)
        return p

    def reset(self) -> None:
        """Back to the start: ``taps_used`` 0 (``hinted`` stays as it was).

        Examples
        --------
        >>> g = ml.Game(ml.generate(3, 3, states=2, seed=5))
        >>> _ = g.tap((0, 0)); _ = g.tap((2, 2))
        >>> g.reset()
        >>> g.taps_used
        0
        """
        self._state = self._puzzle.start.copy()
        self._history.clear()

    def hint(self) -> Any:
        """Apply the next tap of a minimal plan; returns its position (None if solved).

        Examples
        --------
        >>> p = ml.generate(3, 3, states=2, seed=5)
        >>> g = ml.Game(p)
        >>> pos = g.hint()
        >>> pos in p.board.taps, g.taps_used, g.hinted
        (True, 1, True)
        """
        if self.solved:
            return None
        if (
            not self._plan
            or self._plan_state is None
            or not np.array_equal(self._plan_state, self._state)
        ):
            sol = self._puzzle.solver.solve(self._state, minimal=True, budget=GENERATE_BUDGET)
            self._plan = sol.moves()
        p = self._plan.pop(0)
        self.tap(p)
        self._hinted = True
        self._hints += 1
        self._plan_state = self._state.copy()
        return p

    def preview(self, pos: Any) -> list:
        """Positions whose value a tap at ``pos`` would change (sorted, no repeats)."""
        self._key(pos)
        n = self._board.states
        counts = Counter(self._board.affected(pos))
        return sorted(q for q, k in counts.items() if k % n)

    def _repr_svg_(self) -> str | None:
        from modlights.model.render import repr_svg

        status = ("solved" if self.solved else "unsolved") + (", hinted" if self._hinted else "")
        return repr_svg(
            self._board,
            self._state,
            title=f"game: {self.taps_used} tap{'s' * (self.taps_used != 1)} used, {status}",
        )

    def __repr__(self) -> str:
        return f"Game(taps_used={self.taps_used}, solved={self.solved}, hinted={self._hinted})"


# ----------------------------------------------------------------------------- screen
#: key names PlayScreen understands (front ends map their key codes to these)
KEYS_HELP = "arrows/wasd move  space/enter tap  u undo  r reset  ? hint  n numbers  q quit"
_MOVES = {
    "up": (-1, 0),
    "down": (1, 0),
    "left": (0, -1),
    "right": (0, 1),
    "w": (-1, 0),
    "s": (1, 0),
    "a": (0, -1),
    "d": (0, 1),
    "k": (-1, 0),
    "j": (1, 0),
    "h": (0, -1),
    "l": (0, 1),
}
#: '.' for 0, then one glyph a value: none of them is the lock marker '*', the cursor
#: '[ ]' or the preview '( )'. Boards with more states than glyphs show numbers.
_SHADES = ".:-=+o#%@"
#: lines of ``render()`` around the board: title and blank above; blank, taps, status,
#: message and keys below; one more for the scroll note of a board larger than the view
_CHROME = 2 + 5 + 1


class PlayScreen:
    """A front-end-agnostic terminal game screen: keys in, lines of text out.

    ``handle_key(name)`` takes key names ("up", "down", "left", "right", "w", "a",
    "s", "d", "h", "j", "k", "l", " " or "enter" to tap, "u" undo, "r" reset, "?"
    hint, "n" toggle numbers, "q" quit) and returns False once the player quits;
    ``render()`` returns the screen as a list of lines. The curses front end
    (``modlights play``) only maps keys and draws these lines, so a scripted session
    drives exactly what a player sees.

    Tiles: '.' is 0; other values are shades ``.:-=+o#%@`` (or numbers with
    ``numbers=True``, always for more than 9 states: the shades could not tell the
    values apart); '*' after a tile: locked; blank: hole; '[ ]' the cursor; '( )' the
    tiles the tap under the cursor would change.

    ``render(height, width)`` fits the screen into a window of that many lines and
    columns: a board larger than that shows the part around the cursor (moving the
    cursor scrolls it, a note says which rows and columns are shown); a window too
    small for even one tile gets a line saying how large it must be.
    """

    def __init__(self, game: Game, numbers: bool = False, clock: Any = None, title: str = ""):
        import time

        self.game = game
        self._forced_numbers = game.board.states > len(_SHADES)
        self.numbers = bool(numbers) or self._forced_numbers
        self.clock = clock or time.monotonic
        self.title = title
        self.message = ""
        self.quit = False
        taps = game.board.taps
        self.cursor = taps[0] if taps else (0, 0)
        self._t0 = self.clock()
        self._t_end: float | None = None
        self._top = self._left = 0  # first board row / column in view

    # -- input
    def handle_key(self, key: str) -> bool:
        """Act on one key name (see the class docstring); False once the player quits.
        Unknown keys are ignored; a tap the game refuses (a locked tile, a hole)
        becomes the screen's message, never an exception."""
        g = self.game
        if key in ("q", "escape"):
            self.quit = True
            return False
        self.message = ""
        if key in _MOVES:
            dr, dc = _MOVES[key]
            rows, cols = g.board.shape
            self.cursor = ((self.cursor[0] + dr) % rows, (self.cursor[1] + dc) % cols)
        elif key in (" ", "enter", "\n", "\r", "t"):
            try:
                g.tap(self.cursor)
            except ValueError as e:
                self.message = str(e)
        elif key == "u":
            if g.undo() is None:
                self.message = "nothing to undo"
        elif key == "r":
            g.reset()
            self._t_end = None
            self.message = "back to the start"
        elif key in ("?", "i"):
            pos = g.hint()
            if pos is not None:
                self.cursor = pos
                self.message = f"hint: tapped {pos}"
        elif key == "n":
            if self._forced_numbers:
                self.message = (
                    f"{g.board.states} states: numbers stay on (the shades "
                    f"show at most {len(_SHADES)} values)"
                )
            else:
                self.numbers = not self.numbers
        if g.solved and self._t_end is None:
            self._t_end = self.clock()
        return True

    # -- output
    def elapsed(self) -> float:
        """Seconds since the screen started, by ``clock``; frozen while the board is
        solved (a reset lets it run again)."""
        end = self._t_end if self._t_end is not None else self.clock()
        return max(0.0, end - self._t0)

    def _glyph(self, v: int, width: int) -> str:
        """The text of a tile value, right-aligned to ``width``: a number or a shade."""
        n = self.game.board.states
        if self.numbers:
            return str(v).rjust(width)
        if v == 0:
            return ".".rjust(width)
        idx = 1 + (v - 1) * (len(_SHADES) - 2) // max(1, n - 2) if n > 2 else len(_SHADES) - 3
        return _SHADES[min(idx, len(_SHADES) - 1)].rjust(width)

    def _tile_width(self) -> int:
        """Characters of one tile's value (the widest number, or one shade)."""
        return len(str(self.game.board.states - 1)) if self.numbers else 1

    def _view(self, height: int | None, width: int | None) -> tuple[range, range] | None:
        """The board rows and columns shown in a window of height x width characters
        (None: unlimited), scrolled so that the cursor is in view; None when not even
        one tile fits."""
        rows, cols = self.game.board.shape
        cell = self._tile_width() + 3
        n_rows = rows if height is None else min(rows, height - _CHROME)
        n_cols = cols if width is None else min(cols, (width - 2) // cell)
        if n_rows < 1 or n_cols < 1:
            return None
        r, c = self.cursor
        self._top = min(max(self._top, r - n_rows + 1), r, rows - n_rows)
        self._left = min(max(self._left, c - n_cols + 1), c, cols - n_cols)
        return range(self._top, self._top + n_rows), range(self._left, self._left + n_cols)

    def cell_spans(self, height: int | None = None, width: int | None = None) -> list:
        """(line, column, width, value) of every tile's glyph in ``render(height,
        width)`` (for front ends that colour tiles); holes and tiles out of view are
        left out."""
        b = self.game.board
        w = self._tile_width()
        view = self._view(height, width)
        if view is None:
            return []
        rows, cols = view
        state, holes = self.game.state, b.holes
        return [
            (2 + i, 2 + j * (w + 3) + 1, w, int(state[r, c]))
            for i, r in enumerate(rows)
            for j, c in enumerate(cols)
            if not holes[r, c]
        ]

    def render(self, height: int | None = None, width: int | None = None) -> list[str]:
        """The screen as lines of text, fitted to ``height`` lines and ``width``
        columns when given (see the class docstring)."""
        g = self.game
        b = g.board
        p = g.puzzle
        rows, cols = b.shape
        state = g.state
        locked, holes = b.locked, b.holes
        width_t = self._tile_width()
        head = self.title or "modlights"
        view = self._view(height, width)
        if view is None:
            need_h = _CHROME + 1
            need_w = 2 + width_t + 3
            return [
                f"{head}  {rows}x{cols}, {b.states} states",
                f"the window is too small: it needs at least {need_w} columns and "
                f"{need_h} lines to show a tile; enlarge it (q quits)",
            ]
        view_rows, view_cols = view
        try:
            preview = set(g.preview(self.cursor))
        except ValueError:
            preview = set()
        lines = []
        lines.append(f"{head}  {rows}x{cols}, {b.states} states")
        lines.append("")
        width = width_t
        for r in view_rows:
            cells = []
            for c in view_cols:
                if holes[r, c]:
                    glyph = " " * width
                else:
                    glyph = self._glyph(int(state[r, c]), width)
                lk = "*" if locked[r, c] else " "
                if (r, c) == tuple(self.cursor):
                    cells.append(f"[{glyph}{lk}]")
                elif (r, c) in preview:
                    cells.append(f"({glyph}{lk})")
                else:
                    cells.append(f" {glyph}{lk} ")
            lines.append("  " + "".join(cells).rstrip())
        if len(view_rows) < rows or len(view_cols) < cols:
            lines.append(
                f"  rows {view_rows[0]}-{view_rows[-1]} and cols {view_cols[0]}-"
                f"{view_cols[-1]} of {rows}x{cols} shown (move the cursor to scroll)"
            )
        lines.append("")
        secs = int(self.elapsed())
        lim = p.stars
        lines.append(
            f"taps {g.taps_used}   fewest {p.min_taps}   "
            f"time {secs // 60:02d}:{secs % 60:02d}"
            f"   stars: 3 <= {lim[3]}, 2 <= {lim[2]}, 1 <= {lim[1]}"
        )
        if g.solved:
            if g.hinted:
                lines.append(f"SOLVED in {g.taps_used} taps with hints: no stars")
            else:
                st = g.stars
                lines.append(f"SOLVED in {g.taps_used} taps: {st} star{'s' * (st != 1)} {'*' * st}")
        else:
            lines.append("hinted: this game earns no stars" if g.hinted else "")
        lines.append(self.message)
        lines.append(KEYS_HELP)
        return lines

    def run_keys(self, keys: Iterable[str]) -> list[str]:
        """Feed a sequence of key names; returns the final screen."""
        for k in keys:
            if not self.handle_key(k):
                break
        return self.render()
