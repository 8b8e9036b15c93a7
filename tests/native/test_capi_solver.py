"""The C API's solver (csrc/api/solver.c over csrc/engines/dense.c, bound as
modlights.native._core.CSolver) answers as ``modlights.Solver`` with its dense engine
(method "dense-gf2" or "dense-zn"): on random boards (every named pattern and random
offsets, mixed maps, locks, holes, wrap, odd and even sides, n 2..9 and 12, 16, 101,
210, 255, graph boards from effects and from matrices) the same plan engine, nullity,
rank, kernel size, is_unique, is_invertible; the same (canonical) kernel generators
and orders as Solver.kernel() and kernel_orders, each in ker A; det, inverse and
pseudo-inverse equal or refused with the same message; solvable() the same, and every
solution the C solver gives takes the state to the target, or the same Unsolvable
message. Deterministic (seeded NumPy generators)."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from capi_oracle import c_board, check_solves, check_structure, random_grid, same
from modlights.native import _core

CSolver = _core.CSolver


def _random_board(rng, ns, max_side=7) -> ml.Board:
    n = int(rng.choice(ns))
    kind = rng.random()
    if kind < 0.15:
        m, r = int(rng.integers(1, 10)), int(rng.integers(1, 10))
        a = rng.integers(0, n, size=(m, r)) * (rng.random((m, r)) < 0.4)
        return ml.Board.from_matrix(a, n)
    if kind < 0.3:
        taps = int(rng.integers(1, 10))
        effects = [
            [int(c) for c in rng.integers(0, 8, size=int(rng.integers(0, 4)))] for _ in range(taps)
        ]
        return ml.Board.from_effects(effects, states=n, n_cells=8)
    return random_grid(rng, n, max_side, wrap=0.25, locks=0.3)


def _compare(b: ml.Board, rng) -> None:
    # the dense engine by name on both sides: the "dense" family also holds the
    # reference engine (registered through the seam), cheapest on tiny boards
    name = "dense-gf2" if b.states == 2 else "dense-zn"
    ps = ml.Solver(b, method=name)
    cs = CSolver(c_board(b), name)
    assert cs.plan["engine"] == ps.plan.engine == name
    assert cs.plan["family"] == "dense"
    # structure (nullity first: dense-gf2's rank-only path on both sides), kernel
    check_structure(cs, ps, b)
    assert cs.is_invertible == ps.is_invertible
    assert cs.nullity == ps.nullity
    assert int(np.prod(ps.kernel_orders, dtype=object)) == ps.kernel_size
    # det / inverse / pseudo-inverse: equal, or the same message
    d_py, d_c = same(ps.det, cs.det)
    assert d_py == d_c
    for q in ("inverse", "pseudo_inverse"):
        g_py, g_c = same(getattr(ps, q), getattr(cs, q))
        if g_py is not None:
            assert np.array_equal(g_py, g_c), q
    check_solves(cs, ps, b, rng)


@pytest.mark.parametrize("seed", range(6))
def test_random_boards_solve_as_python(seed):
    rng = np.random.default_rng(1000 + seed)
    for _ in range(40):
        _compare(_random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9]), rng)


def test_large_n_and_sides_as_python():
    rng = np.random.default_rng(7)
    for n in (16, 101, 255, 210, 12):
        for _ in range(6):
            _compare(_random_board(rng, [n], max_side=9), rng)
    for rows, cols, n in ((10, 10, 2), (9, 11, 3), (16, 16, 2), (8, 8, 6)):
        _compare(ml.Board.grid(rows, cols, states=n), rng)


@pytest.mark.matrix
def test_many_boards_solve_as_python():
    rng = np.random.default_rng(99)
    for _ in range(1500):
        _compare(_random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 101, 255], 12), rng)


def test_refusals_as_python():
    g = ml.Board.from_effects([[0, 1], [1]], states=2)
    for method in ("chase", "chase-light"):
        with pytest.raises(ValueError) as e:
            ml.Solver(g, method=method)
        with pytest.raises(ValueError) as got:
            CSolver(c_board(g), method)
        assert str(got.value) == str(e.value)
    b = ml.Board.grid(3, 3, states=2)
    with pytest.raises(ValueError) as e:
        ml.Solver(b, method="nope")
    with pytest.raises(ValueError) as got:
        CSolver(c_board(b), "nope")
    # the same text, Python's reference engine (registered through the seam) included
    assert str(got.value) == str(e.value)
    # every engine of the library has its C questions, the row chase too
    assert CSolver(c_board(b), "chase-row").plan["engine"] == "chase-row"
    # too large for the dense engines: Python's messages
    big = ml.Board.grid(200, 200, states=3)
    with pytest.raises(ValueError) as e:
        _ = ml.Solver(big, method="dense").nullity
    with pytest.raises(ValueError) as got:
        CSolver(c_board(big), "dense")
    assert str(got.value) == str(e.value)
