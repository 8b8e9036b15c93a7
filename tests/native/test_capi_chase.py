"""The C API's solver over the light chase (csrc/engines/chase.c, the registry entry
"chase-light", bound as modlights.native._core.CSolver) answers as
``modlights.Solver(board, method="chase-light")`` (engines/chase/engine.py's
ChaseEngine(variant="light")): on random grid boards (every named pattern and random
offsets, mixed maps, locks, holes, wrap, odd and even sides, boards wider than tall that
the chase runs transposed, n 2..9 and 16, 101, 255) the same plan engine, nullity, rank,
kernel size; the same canonical kernel generators and orders, each in ker A; solvable()
the same, and every solution the C solver gives takes the state to the target, or the
same Unsolvable message; a residual system past limits.py's limits refused with the same
message. The same for "chase-rowsolve" on knight and diagonal boards (refusals of the
ineligible ones with the same message) and for "chase-prefix"
(ChaseEngine(variant="prefix")) on boards with locks or holes, tall locked boards taking
a prefix of their residual system.
Deterministic (seeded NumPy generators)."""

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
    """The C board of a grid board, from its JSON (as test_capi_solver builds it)."""
    return CBoard.from_json(json.dumps(board.to_dict()))


def _random_pattern(rng):
    if rng.random() < 0.6:
        return NAMES[rng.integers(len(NAMES))]
    k = int(rng.integers(1, 7))
    return [(int(rng.integers(-2, 3)), int(rng.integers(-2, 3))) for _ in range(k)]


def _random_grid(rng, ns, max_side=9) -> ml.Board:
    n = int(rng.choice(ns))
    rows, cols = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
    kw: dict = {"states": n, "wrap": bool(rng.random() < 0.2)}
    if rng.random() < 0.15:
        pal = [_random_pattern(rng) for _ in range(2)]
        index = rng.integers(0, 2, size=(rows, cols))
        kw["pattern"] = [[pal[i] for i in row] for row in index.tolist()]
    else:
        kw["pattern"] = _random_pattern(rng)
    if rng.random() < 0.35:
        kind = rng.integers(0, 8, size=(rows, cols))
        kw["locked"] = [(int(a), int(b)) for a, b in zip(*np.nonzero(kind == 0))]
        kw["holes"] = [(int(a), int(b)) for a, b in zip(*np.nonzero(kind == 1))]
        if len(kw["holes"]) == rows * cols:
            kw["holes"] = kw["holes"][1:]
    return ml.Board.grid(rows, cols, **kw)


def _compare(b: ml.Board, rng, method: str = "chase-light") -> None:
    ps = ml.Solver(b, method=method)
    cs = CSolver(_c(b), method)
    assert cs.plan["engine"] == ps.plan.engine == method
    assert cs.plan["family"] == ps.plan.family == "chase"
    assert cs.nullity == ps.nullity
    assert cs.rank == ps.rank
    assert cs.kernel_size == ps.kernel_size
    H, orders = cs.kernel()
    assert np.array_equal(H, ps.kernel())
    assert orders == ps.kernel_orders
    n = b.states
    for h, o in zip(H, orders):
        assert not b.apply_vector(h).any()
        assert not (h.astype(np.int64) * o % n).any()
    assert int(np.prod(orders, dtype=object)) == ps.kernel_size
    for t in range(3):
        state = rng.integers(0, 3 * n, size=b.shape)
        if t == 0:  # a solvable one: -A x
            x = rng.integers(0, n, size=b.n_taps)
            state = (-b.apply(np.zeros(b.shape, dtype=np.int64), b.from_tap_vector(x))) % n
        target = (0, int(rng.integers(0, 300)), rng.integers(0, n, size=b.shape))[t]
        ok = ps.solvable(state, target)
        assert cs.solvable(state, target) == ok
        if ok:
            taps, length, proven, ks = cs.solve(state, target)
            assert ks == ps.kernel_size and proven == (ks == 1)  # Solution(..., ks == 1)
            assert length == int(taps.sum())
            x = b.tap_vector(taps.reshape(b.shape))
            assert np.array_equal(b.apply_vector(x), b._rhs_cells(state, target))
        else:
            with pytest.raises(ml.Unsolvable) as e:
                ps.solve(state, target, minimal=False)
            with pytest.raises(ValueError) as got:
                cs.solve(state, target)
            assert str(got.value) == str(e.value)


@pytest.mark.parametrize("seed", range(4))
def test_random_grids_solve_as_python(seed):
    rng = np.random.default_rng(3300 + seed)
    for _ in range(25):
        _compare(_random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9]), rng)


def test_every_pattern_large_n_and_wide_boards_as_python():
    rng = np.random.default_rng(33)
    for i, name in enumerate(NAMES):
        n = (2, 3, 4, 6)[i % 4]
        rows, cols = (5, 8) if i % 2 else (6, 6)  # wider than tall: the transposed chase
        _compare(ml.Board.grid(rows, cols, states=n, pattern=name), rng)
    for n in (16, 101, 255):
        for _ in range(4):
            _compare(_random_grid(rng, [n]), rng)
    for rows, cols, n in ((2, 17, 2), (3, 20, 5), (16, 16, 2), (9, 9, 3)):
        _compare(ml.Board.grid(rows, cols, states=n, pattern="knight"), rng)


@pytest.mark.matrix
def test_many_grids_solve_as_python():
    rng = np.random.default_rng(333)
    for _ in range(1200):
        b = _random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 101, 255], 14)
        _compare(b, rng)
        if b.any_locked or b.any_holes:
            _compare(b, rng, "chase-prefix")
    for _ in range(300):
        _compare(_tall_locked(rng), rng, "chase-prefix")


def _tall_locked(rng) -> ml.Board:
    """A tall narrow board with about a third of its tiles locked: a tall residual
    system, a prefix of which usually leaves no kernel."""
    rows, cols = int(rng.integers(12, 31)), int(rng.integers(2, 7))
    locked = [(int(a), int(b)) for a, b in zip(*np.nonzero(rng.random((rows, cols)) < 1 / 3))]
    n = int(rng.choice([2, 3, 4, 5, 6, 9, 16]))
    return ml.Board.grid(rows, cols, states=n, locked=locked, wrap=bool(rng.random() < 0.2))


def test_prefix_variant_as_python():
    from modlights.engines.chase.engine import ChaseEngine

    rng = np.random.default_rng(3306)
    taken = 0
    for _ in range(30):
        b = _tall_locked(rng)
        eng = ChaseEngine(b, variant="prefix")
        taken += eng.residual_rows < eng.nres
        _compare(b, rng, "chase-prefix")
    assert taken >= 15  # the prefix path itself, not only the whole system
    for _ in range(30):  # locks or holes on any grid: the whole system or a prefix
        b = _random_grid(rng, [2, 3, 4, 5, 7, 8])
        if b.any_locked or b.any_holes:
            _compare(b, rng, "chase-prefix")


def test_rowsolve_variant_as_python():
    rng = np.random.default_rng(3307)
    taken = 0
    for i in range(40):
        rows, cols = int(rng.integers(2, 13)), int(rng.integers(2, 13))
        n = int(rng.choice([2, 3, 4, 5, 6, 7, 9, 16, 101, 255]))
        b = ml.Board.grid(rows, cols, states=n, pattern=("knight", "diagonal")[i % 2])
        try:
            ps = ml.Solver(b, method="chase-rowsolve")
        except ValueError as e:  # not eligible: the same refusal
            with pytest.raises(ValueError) as got:
                CSolver(_c(b), "chase-rowsolve")
            # but for Python's reference engine, which C has only if registered (seam)
            assert str(got.value) == str(e).replace(" 'reference',", "")
            continue
        del ps
        taken += 1
        _compare(b, rng, "chase-rowsolve")
    assert taken >= 15


def test_residual_too_large_refused_as_python():
    for rows, cols, n in ((255, 255, 2), (200, 200, 6)):
        b = ml.Board.grid(rows, cols, states=n, pattern=[])
        with pytest.raises(ValueError) as e:
            _ = ml.Solver(b, method="chase-light").nullity
        with pytest.raises(ValueError) as got:
            CSolver(_c(b), "chase-light")
        assert str(got.value) == str(e.value)
        assert "residual system" in str(got.value)
