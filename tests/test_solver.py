"""The Solver facade: targets, budgets, backends and methods, progress callbacks; every
answer checked with Board.apply or against the reference engine."""
from __future__ import annotations

import numpy as np
import pytest

import modlights as ml


# ---------------------------------------------------------------- targets
def test_zero_d_array_targets_are_scalars():
    """A 0-d array target is its scalar (solve_packed refused it while an int worked)."""
    b = ml.Board.grid(6, 6, states=2, pattern="diagonal")
    s = ml.Solver(b)
    rng = np.random.default_rng(3)
    state = b.random_state(rng=rng, solvable=True)
    for t in (1, np.int64(1), np.array(1), np.array(1, dtype=np.uint8)):
        sol = s.solve(state, t, minimal=False)
        assert (b.apply(state, sol.taps) == 1).all()
        packed = s.solve_packed(np.packbits(state, axis=1), t)
        taps = np.unpackbits(packed, axis=1, count=6)
        assert (b.apply(state, taps) == 1).all()
    with pytest.raises(ValueError, match="bool"):
        s.solve(state, np.array(True), minimal=False)
