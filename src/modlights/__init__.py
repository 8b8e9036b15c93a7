"""modlights: solve, analyse and generate modular Lights Out puzzles.

>>> import modlights as ml
>>> b = ml.Board.grid(5, 5, states=3, pattern="cross")
>>> s = ml.Solver(b)
>>> sol = s.solve(b.random_state(rng=1))
"""
from modlights.model.board import Board
from modlights.model.patterns import PATTERNS
from modlights.solver import Solution, Solver, Unsolvable
from modlights.play.puzzles import Puzzle, daily, generate
from modlights.play.game import Game
from modlights.play.campaign import Campaign
from modlights import engines          # callable: ml.engines() lists the registered engines

__version__ = "0.1.0"

__all__ = ["Board", "PATTERNS", "Solution", "Solver", "Unsolvable", "Puzzle", "Game", "Campaign",
           "generate", "daily", "engines", "__version__"]
