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

import json

import numpy as np
import pytest

import modlights as ml
from modlights.model.patterns import PATTERNS
from modlights.native import _core

CBoard = _core.CBoard
CSolver = _core.CSolver
NAMES = list(PATTERNS)


def _c(board: ml.Board) -> CBoard:
    """The C board built as the Python one is: a from_matrix board from its dense matrix
    (the engines then read it densely on both sides; its JSON would make an effects
    board, whose Z/n elimination may pick another of the many generalised inverses),
    others from their JSON."""
    if board._dense is not None:
        return CBoard.from_matrix(board.matrix(), board.states)
    return CBoard.from_json(json.dumps(board.to_dict()))


def _random_pattern(rng):
    if rng.random() < 0.6:
        return NAMES[rng.integers(len(NAMES))]
    k = int(rng.integers(1, 7))
    return [(int(rng.integers(-2, 3)), int(rng.integers(-2, 3))) for _ in range(k)]


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
    rows, cols = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
    kw: dict = {"states": n, "wrap": bool(rng.random() < 0.25)}
    if rng.random() < 0.15:
        pal = [_random_pattern(rng) for _ in range(2)]
        index = rng.integers(0, 2, size=(rows, cols))
        kw["pattern"] = [[pal[i] for i in row] for row in index.tolist()]
    else:
        kw["pattern"] = _random_pattern(rng)
    if rng.random() < 0.3:
        kind_ = rng.integers(0, 8, size=(rows, cols))
        kw["locked"] = [(int(a), int(b)) for a, b in zip(*np.nonzero(kind_ == 0))]
        kw["holes"] = [(int(a), int(b)) for a, b in zip(*np.nonzero(kind_ == 1))]
        if len(kw["holes"]) == rows * cols:
            kw["holes"] = kw["holes"][1:]
    return ml.Board.grid(rows, cols, **kw)


def _same(call_py, call_c):
    """(value, value) or both raise ValueError with one message; returns the values."""
    try:
        want = call_py()
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            call_c()
        assert str(got.value) == str(e)
        return None, None
    return want, call_c()


def _compare(b: ml.Board, rng) -> None:
    # the dense engine by name on Python's side: its "dense" family also holds the
    # reference engine (registered through the seam, not in C), cheapest on tiny boards
    name = "dense-gf2" if b.states == 2 else "dense-zn"
    ps = ml.Solver(b, method=name)
    cs = CSolver(_c(b), "dense")
    assert cs.plan["engine"] == ps.plan.engine == name
    assert cs.plan["family"] == "dense"
    # structure (nullity first: dense-gf2's rank-only path on both sides)
    assert cs.nullity == ps.nullity
    assert cs.rank == ps.rank
    assert cs.kernel_size == ps.kernel_size
    assert cs.is_unique == ps.is_unique
    assert cs.is_invertible == ps.is_invertible
    # the canonical generators and orders, exactly (Solver.kernel / kernel_orders);
    # each in ker A with its order
    H, orders = cs.kernel()
    assert np.array_equal(H, ps.kernel())
    assert orders == ps.kernel_orders
    assert cs.nullity == ps.nullity
    n = b.states
    for h, o in zip(H, orders):
        assert not b.apply_vector(h).any()
        assert not (h.astype(np.int64) * o % n).any()
    assert (
        int(np.prod(orders, dtype=object))
        == ps.kernel_size
        == int(np.prod(ps.kernel_orders, dtype=object))
    )
    # det / inverse / pseudo-inverse: equal, or the same message
    d_py, d_c = _same(ps.det, cs.det)
    assert d_py == d_c
    for q in ("inverse", "pseudo_inverse"):
        g_py, g_c = _same(getattr(ps, q), getattr(cs, q))
        if g_py is not None:
            assert np.array_equal(g_py, g_c), q
    # solving
    for t in range(3):
        state = rng.integers(0, 3 * n, size=b.shape)
        if t == 0:  # a solvable one: -A x
            x = rng.integers(0, n, size=b.n_taps)
            state = (-b.apply(np.zeros(b.shape, dtype=np.int64), b.from_tap_vector(x))) % n
        target = int(rng.integers(0, 300)) if t < 2 else rng.integers(0, n, size=b.shape)
        ok = ps.solvable(state, target)
        assert cs.solvable(state, target) == ok
        if ok:
            taps, length, proven, ks = cs.solve(state, target)
            assert ks == ps.kernel_size and proven == (ks == 1)  # Solution(..., ks == 1)
            assert length == int(taps.sum())
            shaped = taps if not b.is_grid else taps.reshape(b.shape)
            x = b.tap_vector(shaped)
            assert np.array_equal(b.apply_vector(x), b._rhs_cells(state, target))
        else:
            with pytest.raises(ml.Unsolvable) as e:
                ps.solve(state, target, minimal=False)
            with pytest.raises(ValueError) as got:
                cs.solve(state, target)
            assert str(got.value) == str(e.value)


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
            CSolver(_c(g), method)
        assert str(got.value) == str(e.value)
    b = ml.Board.grid(3, 3, states=2)
    with pytest.raises(ValueError) as e:
        ml.Solver(b, method="nope")
    with pytest.raises(ValueError) as got:
        CSolver(_c(b), "nope")
    # the same text but for Python's reference engine, which a C program does not have
    # unless it registers it through the seam
    assert str(got.value) == str(e.value).replace(" 'reference',", "")
    # an engine without C ops yet says so, naming it
    with pytest.raises(RuntimeError, match="the chase engine .* is not implemented yet"):
        CSolver(_c(b), "chase")
    # too large for the dense engines: Python's messages
    big = ml.Board.grid(200, 200, states=3)
    with pytest.raises(ValueError) as e:
        _ = ml.Solver(big, method="dense").nullity
    with pytest.raises(ValueError) as got:
        CSolver(_c(big), "dense")
    assert str(got.value) == str(e.value)
