"""The C API's solution iterator (csrc/api/solutions.c: ml_solver_solutions /
ml_solutions_next / ml_solutions_free, bound as modlights.native._core.CSolver.solutions)
answers as ``modlights.Solver.solutions``: on random boards (every named pattern and
random offsets, mixed maps, locks, holes, wrap, odd and even sides, n 2..9, 16 and 101,
graph boards from effects and from matrices) with kernels of at most 512 elements, the
same taps in the same order (Solver.solutions' itertools.product order over the same
canonical generators), or none for an unsolvable state, for a fill target and a tile
target. Deterministic (seeded NumPy generators)."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from capi_oracle import c_board
from modlights.native import _core
from test_capi_solver import _random_board

CSolver = _core.CSolver

#: the largest kernel enumerated
MAX_KERNEL = 512


def _compare(b: ml.Board, rng) -> int:
    """Compare Solver.solutions with CSolver.solutions on a solvable and a random state
    (fill and tile targets); the number of solutions compared (0: kernel too large)."""
    name = "dense-gf2" if b.states == 2 else "dense-zn"
    ps = ml.Solver(b, method=name)
    if ps.kernel_size > MAX_KERNEL:
        return 0
    cs = CSolver(c_board(b), "dense")
    shape = b.shape if b.is_grid else (b.n_cells,)
    x = rng.integers(0, b.states, size=b.n_taps)
    solvable = (-b.apply(np.zeros(shape, np.int64), b.from_tap_vector(x))) % b.states
    seen = 0
    for state in (solvable, rng.integers(0, b.states, size=shape)):
        for target in (0, int(rng.integers(0, b.states)), rng.integers(0, b.states, size=shape)):
            want = [np.asarray(t, dtype=np.uint8).reshape(-1) for t in ps.solutions(state, target)]
            got = list(cs.solutions(state, target))
            assert len(got) == len(want)
            for w, g in zip(want, got):
                assert np.array_equal(w, g)
            seen += len(want)
    return seen


@pytest.mark.parametrize("seed", range(6))
def test_random_boards_solutions_as_python(seed):
    rng = np.random.default_rng(3300 + seed)
    seen = 0
    for _ in range(25):
        seen += _compare(_random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16, 101]), rng)
    assert seen > 25


@pytest.mark.matrix
@pytest.mark.parametrize("seed", range(30))
def test_matrix_solutions_as_python(seed):
    rng = np.random.default_rng(3400 + seed)
    for _ in range(40):
        _compare(_random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16, 101], max_side=9), rng)


def test_known_kernels():
    """5 x 5 GF(2) (4 solutions), 4 x 4 Z/4 (64), a trivial kernel (1); the iterator
    outlives its solver; an unsolvable state has none."""
    for rows, cols, n, count in ((5, 5, 2, 4), (4, 4, 4, 64), (3, 3, 2, 1)):
        b = ml.Board.grid(rows, cols, states=n)
        st = b.random_state(rng=7, solvable=True)
        cs = CSolver(c_board(b), "dense")
        it = cs.solutions(st)
        del cs
        sols = list(it)
        assert len(sols) == count
        assert len({s.tobytes() for s in sols}) == count
        for s in sols:
            assert not b.apply(st, s.reshape(rows, cols)).any()
        assert list(it) == []
    b = ml.Board.grid(5, 5, states=2)
    st = np.zeros((5, 5), np.uint8)
    st[0, 0] = 1
    assert not ml.Solver(b).solvable(st)
    assert list(CSolver(c_board(b), "dense").solutions(st)) == []
