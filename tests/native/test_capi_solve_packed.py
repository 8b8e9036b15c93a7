"""The C API's bit-packed solve (csrc/api/solve_packed.c: ml_solver_solve_packed, bound as
modlights.native._core.CSolver.solve_packed) answers as ``modlights.Solver.solve_packed``
with the same plan: on random GF(2) grids (every named pattern and random offsets, locks,
holes, wrap, odd and even sides up to 19 columns, so rows end inside a byte) and on the
boards of the algebraic engines (cross, vertical, diagonal, ring, without wrap) for fill
targets 0 and 1 and packed tile targets, the same taps, or the same Unsolvable message;
bits past the last column are ignored; n != 2 and graph boards are refused with
Python's message; where Python takes an engine that has no C questions yet the C call
is ML_ENOTIMPL (RuntimeError "... is not implemented yet ...").
Deterministic (seeded NumPy generators)."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from capi_oracle import c_board, random_grid, random_pattern
from modlights.native import _core

CSolver = _core.CSolver


def _compare(b: ml.Board, rng, method=None) -> str:
    """Compare Solver.solve_packed with CSolver.solve_packed on two states and three
    targets; the outcome ("same", "unsolvable", "notimpl"; "nosolver" when ml_solver_new
    cannot build the plan's engine yet)."""
    ps = ml.Solver(b, method=method) if method else ml.Solver(b)
    try:
        cs = CSolver(c_board(b), method)
    except RuntimeError as x:  # ML_ENOTIMPL
        assert "is not implemented yet" in str(x)
        return "nosolver"  # ml_solver_new: an engine not in C yet
    assert cs.plan["engine"] == ps.plan.engine
    rows, cols = b.shape
    seen = "same"
    for _ in range(2):
        state = rng.integers(0, 2, size=(rows, cols), dtype=np.uint8)
        packed = np.packbits(state, axis=1)
        noisy = packed.copy()
        if cols % 8:  # bits past the last column are ignored
            noisy[:, -1] |= np.uint8((1 << (8 - cols % 8)) - 1)
        tgt = np.packbits(rng.integers(0, 2, size=(rows, cols), dtype=np.uint8), axis=1)
        for target in (0, 1, tgt):
            try:
                want = ps.solve_packed(packed, target)
            except ValueError as e:  # Unsolvable is a ValueError
                try:
                    cs.solve_packed(noisy, target)
                except RuntimeError as x:  # ML_ENOTIMPL
                    assert "is not implemented yet" in str(x)
                    return "notimpl"
                except ValueError as g:
                    assert str(g) == str(e)
                    seen = "unsolvable"
                    continue
                raise AssertionError(f"C solved what Python refused: {e}") from None
            try:
                got = cs.solve_packed(noisy, target)
            except RuntimeError as x:  # ML_ENOTIMPL
                assert "is not implemented yet" in str(x)
                return "notimpl"
            assert np.array_equal(got, want)
    return seen


@pytest.mark.parametrize("seed", range(4))
def test_random_grids_solve_packed_as_python(seed):
    rng = np.random.default_rng(3500 + seed)
    outcomes = {"same": 0, "unsolvable": 0, "notimpl": 0, "nosolver": 0}
    for _ in range(30):
        b = random_grid(rng, 2, 9, wrap=0.25, locks=0.3)
        if rng.random() < 0.3:
            rows, cols = int(rng.integers(1, 20)), int(rng.integers(1, 20))
            b = ml.Board.grid(rows, cols, states=2, pattern=random_pattern(rng))
        outcomes[_compare(b, rng, "dense")] += 1
    assert outcomes["same"] + outcomes["unsolvable"] == 30


@pytest.mark.parametrize("pattern", ["cross", "vertical", "diagonal", "square", "horizontal"])
def test_packed_engines_as_python(pattern):
    rng = np.random.default_rng(3600)
    outcomes = []
    for rows, cols in (
        (1, 1),
        (5, 5),
        (4, 9),
        (9, 4),
        (16, 20),
        (17, 33),
        (64, 64),
        (200, 300),
        (301, 200),
    ):
        b = ml.Board.grid(rows, cols, states=2, pattern=pattern)
        outcomes.append(_compare(b, rng))
    if pattern in ("cross", "vertical", "diagonal", "horizontal"):  # C's packed engines
        assert "notimpl" not in outcomes, outcomes


def test_refusals():
    for b in (ml.Board.grid(3, 3, states=3), ml.Board.from_matrix(np.eye(3, dtype=int), 2)):
        ps = ml.Solver(b)
        with pytest.raises(ValueError) as want:
            ps.solve_packed(np.zeros((3, 1), np.uint8))
        cs = CSolver(c_board(b), "dense")
        with pytest.raises(ValueError) as got:
            cs.solve_packed(np.zeros((3, 1), np.uint8))
        assert str(got.value) == str(want.value)
