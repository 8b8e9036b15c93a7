"""modlights: solve, analyse and generate modular Lights Out puzzles.

>>> import modlights as ml
>>> b = ml.Board.grid(5, 5, states=3, pattern="cross")
>>> s = ml.Solver(b)
>>> sol = s.solve(b.random_state(rng=1))
"""
from .board import Board
from .patterns import PATTERNS
from .solver import Solution, Solver, Unsolvable
from .play.puzzles import Puzzle, daily, generate
from .play.game import Game
from .play.campaign import Campaign
# the modules' old paths (moved to play/ and engines/), still attributes of the package
from . import campaign, game, prng, puzzles, reference  # noqa: F401,E402

__version__ = "0.1.0"

__all__ = ["Board", "PATTERNS", "Solution", "Solver", "Unsolvable", "Puzzle", "Game", "Campaign",
           "generate", "daily", "__version__"]
