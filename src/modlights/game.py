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
from typing import Any

import numpy as np

from .puzzles import GENERATE_BUDGET, Puzzle, stars_for_taps

__all__ = ["Game"]


class Game:
    """Play ``Game(puzzle)`` (a :class:`Puzzle` or a puzzle code)."""

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
        return self._puzzle

    @property
    def board(self):
        return self._board

    @property
    def state(self) -> np.ndarray:
        """The current tiles (a copy)."""
        return self._state.copy()

    @property
    def taps_used(self) -> int:
        return len(self._history)

    @property
    def moves(self) -> list:
        """Positions tapped so far, in order."""
        return list(self._history)

    @property
    def solved(self) -> bool:
        return not self._state.any()

    @property
    def hinted(self) -> bool:
        return self._hinted

    @property
    def hints_used(self) -> int:
        return self._hints

    @property
    def stars(self) -> int:
        if not self.solved or self._hinted:
            return 0
        return stars_for_taps(self._puzzle.stars, self.taps_used)

    # ------------------------------------------------------------------ actions
    def _key(self, pos: Any):
        self._board.tap_index(pos)            # ValueError for locked / hole / off-board
        if isinstance(pos, (int, np.integer)):
            return int(pos)
        return (int(pos[0]), int(pos[1]))

    def tap(self, pos: Any) -> np.ndarray:
        """Tap ``pos``; returns the new state."""
        p = self._key(pos)
        self._state = self._board.press(self._state, p)
        self._history.append(p)
        return self.state

    def undo(self):
        """Take back the last tap; returns its position, or None when there is none."""
        if not self._history:
            return None
        p = self._history.pop()
        self._state = self._board.press(self._state, p, times=self._board.states - 1)
        return p

    def reset(self) -> None:
        """Back to the start: ``taps_used`` 0 (``hinted`` stays as it was)."""
        self._state = self._puzzle.start.copy()
        self._history.clear()

    def hint(self):
        """Apply the next tap of a minimal plan; returns its position (None if solved)."""
        if self.solved:
            return None
        if not self._plan or self._plan_state is None or \
                not np.array_equal(self._plan_state, self._state):
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

    def __repr__(self) -> str:
        return (f"Game(taps_used={self.taps_used}, solved={self.solved}, "
                f"hinted={self._hinted})")
