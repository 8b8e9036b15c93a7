"""modlights: solve, analyse and generate modular Lights Out puzzles.

A board has tiles with n states (2..255); tapping a tile advances every tile of a
pattern around it by one, mod n. Solving a state s means finding tap counts x with
``s + A x = t (mod n)``. The public names are the model (:class:`Board`,
:data:`PATTERNS`), the solver facade (:class:`Solver`, :class:`Solution`,
:class:`Unsolvable`, a ValueError), the engines (``engines()``: every registered
engine with a one-line description), the certificate checker (:func:`verify`) and
play (:class:`Puzzle`, :func:`generate`, :func:`daily`, :class:`Game`,
:class:`Campaign`); everything else lives in the
subpackages by role (see docs/architecture.md). Bad input raises ValueError saying
what is allowed.

>>> import modlights as ml
>>> b = ml.Board.grid(5, 5, states=3, pattern="cross")
>>> s = ml.Solver(b)
>>> sol = s.solve(b.random_state(rng=1))
"""

from modlights import engines  # callable: ml.engines() lists the registered engines
from modlights.model.board import Board
from modlights.model.patterns import PATTERNS
from modlights.play.campaign import Campaign
from modlights.play.game import Game
from modlights.play.puzzles import Puzzle, daily, generate
from modlights.search.verify import verify
from modlights.solver import Solution, Solver, Unsolvable

__version__ = "0.1.0"

__all__ = [
    "Board",
    "PATTERNS",
    "Solution",
    "Solver",
    "Unsolvable",
    "Puzzle",
    "Game",
    "Campaign",
    "generate",
    "daily",
    "engines",
    "verify",
    "__version__",
]
