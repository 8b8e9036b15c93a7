"""The recorded upper bounds on A075464(79) and A075464(95) (bench/results, quoted in
docs/guide/records.md) are real solutions: their taps clear the all-on k x k cross
board and number what the file and the page say."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import modlights as ml

ROOT = pathlib.Path(__file__).resolve().parents[2]
RESULTS = {
    79: ROOT / "bench" / "results" / "2026-11-27-a075464-79-upper.json",
    95: ROOT / "bench" / "results" / "2026-11-29-a075464-95-upper.json",
}


@pytest.mark.parametrize("k", sorted(RESULTS))
def test_upper_bound_solution_clears_the_board(k):
    rec = json.loads(RESULTS[k].read_text())
    taps = np.array([[int(c) for c in row] for row in rec["solution_rows"]], np.uint8)
    assert taps.shape == (k, k)
    board = ml.Board.grid(k, k)
    assert not np.asarray(board.apply(np.ones((k, k), np.uint8), taps)).any()
    assert int(taps.sum()) == rec["taps"]
    page = (ROOT / "docs" / "guide" / "records.md").read_text()
    assert f"a({k}) <= {rec['taps']}" in page
