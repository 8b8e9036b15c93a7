"""Worked examples of the classic puzzles."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml

BACKENDS = ["reference", "native"]


def bits(s: str, shape) -> np.ndarray:
    return np.array([int(c) for c in s], dtype=np.uint8).reshape(shape)


@pytest.mark.parametrize("backend", BACKENDS)
def test_3x3_inverse(backend):
    b = ml.Board.grid(3, 3)
    s = ml.Solver(b, backend=backend)
    A = b.matrix().astype(np.int64)
    inv = s.inverse()
    assert inv.shape == (9, 9) and inv.dtype == np.uint8
    assert np.array_equal(A @ inv % 2, np.eye(9)) and np.array_equal(inv @ A % 2, np.eye(9))
    assert s.det() == 1 and s.is_invertible and s.is_unique and s.nullity == 0
    # column j of the inverse is the recipe that lights exactly tile j
    for j, pos in enumerate(b.cells):
        one = np.zeros((3, 3), np.uint8)
        one[pos] = 1
        assert np.array_equal(b.apply(np.zeros((3, 3)), inv[:, j].reshape(3, 3)), one)


@pytest.mark.parametrize("backend", BACKENDS)
def test_3x3_state_011110110(backend):
    b = ml.Board.grid(3, 3)
    sol = ml.Solver(b, backend=backend).solve(bits("011110110", (3, 3)))
    assert sol.taps.ravel().tolist() == [int(c) for c in "111001010"]
    assert sol.length == 5 and sol.proven_minimal
    assert not b.apply(bits("011110110", (3, 3)), sol.taps).any()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("taps", [[(0, 0), (4, 4)], [(2, 2), (2, 3)], [(1, 3), (3, 0)]])
def test_5x5_two_taps_minimum_two(backend, taps):
    b = ml.Board.grid(5, 5)
    st = np.zeros((5, 5), np.uint8)
    for p in taps:
        st = b.press(st, p)
    sol = ml.Solver(b, backend=backend).solve(st)
    assert sol.length == 2 and sol.proven_minimal
    assert sorted(sol.moves()) == sorted(taps)


@pytest.mark.parametrize("backend", BACKENDS)
def test_classic_nullities(backend):
    assert ml.Solver(ml.Board.grid(5, 5), backend=backend).nullity == 2
    assert ml.Solver(ml.Board.grid(5, 5), backend=backend).kernel_size == 4
    assert ml.Solver(ml.Board.grid(4, 4), backend=backend).nullity == 4
    assert ml.Solver(ml.Board.grid(5, 5), backend=backend).rank == 23


@pytest.mark.parametrize("backend", BACKENDS)
def test_all_on_target(backend):
    b = ml.Board.grid(3, 3, states=3)
    s = ml.Solver(b, backend=backend)
    sol = s.solve(np.zeros((3, 3)), target=1)
    assert (b.apply(np.zeros((3, 3)), sol.taps) == 1).all()
    t = np.arange(9).reshape(3, 3) % 3
    sol = s.solve(np.zeros((3, 3)), target=t)
    assert np.array_equal(b.apply(np.zeros((3, 3)), sol.taps), t)
