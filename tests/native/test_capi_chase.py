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
a prefix of their residual system. The choosing entry "chase" (ChaseEngine(variant=None))
takes Python's variant, names it in the plan with Python's reason, and answers as it;
where Python takes the row chase (not in C yet) it says so (ML_ENOTIMPL).
Deterministic (seeded NumPy generators)."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from capi_oracle import NAMES, c_board, check_solves, check_structure, random_grid
from modlights.native import _core

CSolver = _core.CSolver


def _random_grid(rng, ns, max_side=9) -> ml.Board:
    return random_grid(rng, int(rng.choice(ns)), max_side, wrap=0.2, locks=0.35)


def _compare(b: ml.Board, rng, method: str = "chase-light") -> None:
    ps = ml.Solver(b, method=method)
    cs = CSolver(c_board(b), method)
    assert cs.plan["engine"] == ps.plan.engine == method
    assert cs.plan["family"] == ps.plan.family == "chase"
    check_structure(cs, ps, b)
    check_solves(cs, ps, b, rng)


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
                CSolver(c_board(b), "chase-rowsolve")
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
            CSolver(c_board(b), "chase-light")
        assert str(got.value) == str(e.value)
        assert "residual system" in str(got.value)


def _compare_choice(b: ml.Board, rng) -> str:
    """The choosing entry: Python's variant and plan, or ML_ENOTIMPL for the row chase;
    the variant taken."""
    try:
        ps = ml.Solver(b, method="chase")
    except ValueError as e:  # too large for the chase: the same refusal
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), "chase")
        assert str(got.value) == str(e)
        return "refused"
    if ps.plan.engine == "chase-row":
        with pytest.raises(RuntimeError, match="chase-row.* is not implemented yet"):
            CSolver(c_board(b), "chase")
        return "chase-row"
    cs = CSolver(c_board(b), "chase")
    for key in ("engine", "family", "variant", "reason"):
        assert cs.plan[key] == getattr(ps.plan, key), (b, key)
    check_structure(cs, ps, b)
    check_solves(cs, ps, b, rng)
    return ps.plan.engine


def test_choosing_entry_takes_pythons_variant():
    rng = np.random.default_rng(3308)
    taken = set()
    for i in range(40):
        taken.add(_compare_choice(_random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16]), rng))
        taken.add(_compare_choice(_tall_locked(rng), rng))
        rows, cols = int(rng.integers(2, 13)), int(rng.integers(2, 13))
        n = int(rng.choice([2, 3, 4, 5, 6, 7, 9, 16, 101]))
        pattern = ("knight", "diagonal", "cross")[i % 3]
        taken.add(_compare_choice(ml.Board.grid(rows, cols, states=n, pattern=pattern), rng))
    for _ in range(20):  # many holes: Python's row chase, which C refuses as not implemented
        rows, cols = int(rng.integers(8, 40)), int(rng.integers(3, 12))
        mask = rng.random((rows, cols)) < rng.choice([0.3, 0.5, 0.7])
        holes = [(int(r), int(c)) for r, c in zip(*np.nonzero(mask))]
        n = int(rng.choice([2, 3, 5]))
        taken.add(_compare_choice(ml.Board.grid(rows, cols, states=n, holes=holes), rng))
    assert {"chase-light", "chase-prefix", "chase-rowsolve", "chase-row"} <= taken, taken


@pytest.mark.matrix
def test_choosing_entry_many_boards():
    rng = np.random.default_rng(3309)
    for _ in range(600):
        _compare_choice(_random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 101, 255], 14), rng)
    for _ in range(150):
        _compare_choice(_tall_locked(rng), rng)
