"""The recorded upper bound on A075464(79) (bench/results) is a real solution: its taps
clear the all-on 79 x 79 cross board and number what the file says."""

from __future__ import annotations

import json
import pathlib

import numpy as np

import modlights as ml

RESULT = (
    pathlib.Path(__file__).resolve().parents[2]
    / "bench"
    / "results"
    / "2026-11-27-a075464-79-upper.json"
)


def test_a079_upper_bound_solution_clears_the_board():
    rec = json.loads(RESULT.read_text())
    taps = np.array([[int(c) for c in row] for row in rec["solution_rows"]], np.uint8)
    assert taps.shape == (79, 79)
    board = ml.Board.grid(79, 79)
    assert not np.asarray(board.apply(np.ones((79, 79), np.uint8), taps)).any()
    assert int(taps.sum()) == rec["taps"]
