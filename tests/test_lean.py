"""The lean large-board path: lazy masks and the chase glue.

Boards without locks or holes store no masks. Everything here is checked against the
obvious eager computation it replaces."""
from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights import chase as chase_mod

NAMES = sorted(ml.PATTERNS)
MASKS = ("_locked", "_holes", "_active", "_tappable")


@st.composite
def grid_specs(draw, max_side=9):
    """(rows, cols, n, pattern, wrap, locked, holes, how): masks as bool arrays, as
    position lists, or None; either may be empty."""
    n = draw(st.sampled_from([2, 3, 4, 5, 7, 130, 255]))
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    pattern = draw(st.one_of(st.sampled_from(NAMES),
                             st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)),
                                      max_size=6)))
    wrap = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    p_lock = draw(st.sampled_from([0.0, 0.1, 0.3]))
    p_hole = draw(st.sampled_from([0.0, 0.1, 0.3]))
    u = rng.random((rows, cols))
    holes = u < p_hole
    locked = (u >= p_hole) & (u < p_hole + p_lock)
    how = draw(st.sampled_from(["mask", "positions", "none-if-empty"]))
    return rows, cols, n, pattern, wrap, locked, holes, how


def _spec(mask, how):
    if how == "mask":
        return mask
    if how == "positions":
        return [tuple(map(int, p)) for p in np.argwhere(mask)]
    return mask if mask.any() else None


def _board(spec):
    rows, cols, n, pattern, wrap, locked, holes, how = spec
    return ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=wrap,
                         locked=_spec(locked, how), holes=_spec(holes, how))


def _stored_masks(b):
    return sorted(k for k in vars(b) if k.startswith("_mask_"))


# ---------------------------------------------------------------- lazy masks
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_specs())
def test_lazy_masks_equal_eager_masks(spec):
    rows, cols, n, pattern, wrap, locked, holes, how = spec
    b = _board(spec)
    assert b._any_locked == bool(locked.any()) and b._any_holes == bool(holes.any())
    if not locked.any() and not holes.any():
        assert _stored_masks(b) == []           # nothing built by Board.grid
    eager = {"_locked": locked, "_holes": holes, "_active": ~holes,
             "_tappable": ~holes & ~locked}
    for name in MASKS:
        m = getattr(b, name)
        assert m.dtype == bool and m.shape == (rows, cols)
        assert np.array_equal(m, eager[name]), name
    assert np.array_equal(b.locked, locked) and np.array_equal(b.holes, holes)
    assert b.n_cells == int((~holes).sum()) and b.n_taps == int((~holes & ~locked).sum())
    assert np.array_equal(b._cells_flat, np.flatnonzero(~holes))
    assert np.array_equal(b._taps_flat, np.flatnonzero(~holes & ~locked))
    assert b.cells == [tuple(map(int, p)) for p in np.argwhere(~holes)]
    assert b.taps == [tuple(map(int, p)) for p in np.argwhere(~holes & ~locked)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_specs())
def test_fresh_board_answers_without_building_masks(spec):
    """Every query on a board built with or without masks gives the same answers as
    on the same board whose lazy masks were all built first."""
    rows, cols, n, pattern, wrap, locked, holes, how = spec
    lazy, eager = _board(spec), _board(spec)
    for name in MASKS:
        getattr(eager, name)
    assert lazy == eager and hash(lazy) == hash(eager) and repr(lazy) == repr(eager)
    rng = np.random.default_rng(rows * 31 + cols)
    state = rng.integers(-300, 300, size=(rows, cols))
    taps = rng.integers(0, 3 * n, size=(rows, cols)) * (~locked & ~holes)
    for b in (lazy, eager):
        b._result = (b.coerce_state(state), b.coerce_target(1), b.apply(state, taps),
                     b.tap_vector(taps), b.cell_vector(b.coerce_state(state)),
                     b.from_tap_vector(b.tap_vector(taps)), b.random_state(rng=5),
                     b.random_state(rng=6, solvable=False))
    for x, y in zip(lazy._result, eager._result):
        assert x.dtype == y.dtype == np.uint8 and np.array_equal(x, y)
    for r in range(rows):
        for c in range(cols):
            for meth in ("tap_index", "cell_index"):
                try:
                    want = getattr(eager, meth)((r, c))
                except ValueError as e:
                    with pytest.raises(ValueError, match=re.escape(str(e))):
                        getattr(lazy, meth)((r, c))
                else:
                    assert getattr(lazy, meth)((r, c)) == want


def test_empty_masks_are_no_masks():
    rows, cols = 6, 7
    plain = ml.Board.grid(rows, cols, states=3)
    for kw in ({"locked": np.zeros((rows, cols), bool)}, {"holes": []},
               {"locked": [], "holes": np.zeros((rows, cols), int)}):
        b = ml.Board.grid(rows, cols, states=3, **kw)
        assert b == plain and hash(b) == hash(plain) and _stored_masks(b) == []
        assert repr(b) == repr(plain)
    assert ml.Board.grid(rows, cols, states=3, locked=[(0, 0)]) != plain
    assert ml.Board.grid(rows, cols, states=3, holes=[(0, 0)]) != \
        ml.Board.grid(rows, cols, states=3, locked=[(0, 0)])


def test_large_board_stores_no_masks():
    b = ml.Board.grid(4000, 4000, states=2)
    big = [k for k, v in vars(b).items() if isinstance(v, np.ndarray) and v.nbytes > 1 << 16]
    assert big == [] and _stored_masks(b) == []
    assert b.n_cells == b.n_taps == 4000 * 4000
    assert b.tap_index((3999, 3999)) == 4000 * 4000 - 1 == b.cell_index((3999, 3999))
    assert "locked" not in repr(b) and not b.locked.any() and not b.holes.any()
    # a mask given by the caller is copied, not kept
    m = np.zeros((5, 5), bool)
    m[1, 1] = True
    b = ml.Board.grid(5, 5, locked=m)
    m[2, 2] = True
    assert b.locked.sum() == 1 and b.n_taps == 24


def test_chase_solve_builds_no_masks():
    b = ml.Board.grid(120, 90, states=3)
    start = b.random_state(rng=3)
    sol = ml.Solver(b, method="chase").solve(start, minimal=False)
    assert _stored_masks(b) == []
    assert not b.apply(start, sol.taps).any()


# ---------------------------------------------------------------- the C plan's masks
class _FakePlan:
    def __init__(self, *args):
        self.args = args


@pytest.mark.parametrize("accepts_none", [False, True])
@pytest.mark.parametrize("kind", ["plain", "locks", "holes", "both"])
def test_build_plan_masks(monkeypatch, accepts_none, kind):
    from modlights import _chase
    rows, cols = 7, 9
    rng = np.random.default_rng(4)
    u = rng.random((rows, cols))
    holes = (u < 0.2) if kind in ("holes", "both") else None
    locked = (u > 0.8) if kind in ("locks", "both") else None
    b = ml.Board.grid(rows, cols, states=3, locked=locked, holes=holes)
    if accepts_none:
        monkeypatch.setattr(_chase, "ACCEPTS_NONE_MASKS", True, raising=False)
    else:
        monkeypatch.delattr(_chase, "ACCEPTS_NONE_MASKS", raising=False)
    monkeypatch.setattr(_chase, "Plan", _FakePlan)
    args = chase_mod.build_plan(b).args
    active, tappable = args[4], args[5]
    h = np.zeros((rows, cols), bool) if holes is None else holes
    lk = np.zeros((rows, cols), bool) if locked is None else locked
    if accepts_none and holes is None:
        assert active is None
    else:
        assert active.dtype == np.uint8 and np.array_equal(active, (~h).reshape(-1))
    if accepts_none and holes is None and locked is None:
        assert tappable is None
    else:
        assert tappable.dtype == np.uint8
        assert np.array_equal(tappable, (~h & ~lk).reshape(-1))
    if kind == "plain":
        assert _stored_masks(b) == []


def test_build_plan_with_the_real_binding():
    # whichever the binding is, the plan it gets solves the board
    b = ml.Board.grid(40, 30, states=2, locked=[(3, 3)], holes=[(7, 7), (0, 29)])
    for board in (b, ml.Board.grid(40, 30, states=2)):
        start = board.random_state(rng=8)
        sol = ml.Solver(board, method="chase").solve(start, minimal=False)
        assert not board.apply(start, sol.taps).any()
