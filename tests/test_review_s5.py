"""Second review of the issue-15 work (the bit-sliced Z/3, Z/4, Z/8 symbolic chase, the
bit-packed solves of the tensor and symmetric engines, the row chase): each test names
the bug it guards and failed before its fix. The broad random comparisons of those
paths (against the reference engine, the byte paths and Board.apply) live beside the
features (tests/test_chase_packed.py, tests/test_packed_engines.py,
tests/test_rowchase.py); the ones here are the cases that found a bug."""
from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from modlights.native import _core as _packed
from modlights.engines.packed import transpose_packed


def _transpose_by_bytes(A: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The independent transpose: unpack, .T, pack."""
    return np.packbits(np.unpackbits(A, axis=1, count=cols).T, axis=1)


def test_bit_transpose_stops_on_ctrl_c():
    """Bug: the bit transpose (csrc/packed.c ml_packed_transpose, 64 x 64 blocks) never
    polled the stop flag, and its binding never checked it: solve_packed on a 100000 x
    100001 diagonal board (chased transposed: two whole-board transposes, 5 to 21 s each
    on the shared box) ignored Ctrl-C for that long. A stop requested on the flag (as
    the SIGINT hook does) now makes it raise KeyboardInterrupt; the next call runs and
    is exact."""
    rng = np.random.default_rng(1)
    rows, cols = 1500, 1100                # several 512 x 512 tiles
    A = rng.integers(0, 256, (rows, (cols + 7) // 8), dtype=np.uint8)
    out = np.full((cols, (rows + 7) // 8), 0xAA, np.uint8)
    _packed._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        _packed.transpose_bits(A, cols, out)
    assert (out == 0xAA).all(axis=1).any()  # rows never written: the C loop stopped early
    _packed._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        transpose_packed(A, rows, cols)
    assert (transpose_packed(A, rows, cols) == _transpose_by_bytes(A, rows, cols)).all()


def test_packed_solve_of_a_transposed_board_stops_on_ctrl_c():
    """The same bug seen from Solver.solve_packed: a diagonal board with an even number of
    rows and an odd number of columns is chased down its columns through two bit
    transposes; a stop requested there raises KeyboardInterrupt and leaves the Solver
    usable (its next answer checked by Board.apply)."""
    b = ml.Board.grid(600, 701, pattern="diagonal")
    s = ml.Solver(b, method="algebraic")
    assert s._engine.transposed
    state = b.random_state(rng=2, solvable=True)
    packed = np.packbits(state, axis=1)
    _packed._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        s.solve_packed(packed)
    taps = np.unpackbits(s.solve_packed(packed), axis=1, count=b.shape[1])
    assert not b.apply(state, taps).any()


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
