"""The lean large-board path: lazy masks, uint8 arithmetic, the chase glue.

Boards without locks or holes store no masks; the solve path reads a uint8 state in
place and never widens it. Everything here is checked against the obvious eager /
int64 computation it replaces."""
from __future__ import annotations

import re
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.chase import engine as chase_mod
from modlights.model.board import _reduce_mod, _sub_mod

from strategies import random_masks

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
    locked, holes = random_masks(rng, (rows, cols), draw(st.sampled_from([0.0, 0.1, 0.3])),
                                 draw(st.sampled_from([0.0, 0.1, 0.3])))
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


def test_copies_and_pickles_keep_the_masks():
    import copy
    import pickle
    for kw in ({}, {"locked": [(1, 2)]}, {"holes": [(0, 0)], "locked": [(3, 3)]}):
        b = ml.Board.grid(4, 5, states=3, **kw)
        for c in (copy.deepcopy(b), pickle.loads(pickle.dumps(b))):
            assert c == b and c.n_taps == b.n_taps and c.n_cells == b.n_cells
            assert np.array_equal(c.locked, b.locked) and np.array_equal(c.holes, b.holes)
            assert np.array_equal(c._tappable, b._tappable)


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


# ---------------------------------------------------------------- uint8 arithmetic
@pytest.mark.parametrize("n", [2, 3, 4, 7, 100, 128, 129, 200, 255])
def test_sub_mod_matches_int64(n, monkeypatch):
    import modlights.model.board as board_mod
    monkeypatch.setattr(board_mod, "_CHUNK", 1000)       # several chunks and a tail
    rng = np.random.default_rng(n)
    s = rng.integers(0, n, size=(37, 101), dtype=np.uint8)
    t = rng.integers(0, n, size=(37, 101), dtype=np.uint8)
    s64, t64 = s.astype(np.int64), t.astype(np.int64)
    for tt in (0, 1, n - 1, n // 2):
        got = _sub_mod(tt, s, n)
        assert got.dtype == np.uint8 and np.array_equal(got, (tt - s64) % n)
    assert np.array_equal(_sub_mod(t, s, n), (t64 - s64) % n)
    assert np.array_equal(_sub_mod(t, _sub_mod(0, s, n), n), (t64 + s64) % n)
    inplace = s.copy()
    assert _sub_mod(0, inplace, n, out=inplace) is inplace
    assert np.array_equal(inplace, (-s64) % n)
    assert np.array_equal(s, s64)                        # the input is untouched


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32,
                                   np.uint32, np.int64, np.uint64, bool])
@pytest.mark.parametrize("n", [2, 3, 7, 200, 255])
def test_reduce_mod_every_dtype(dtype, n):
    info = np.iinfo(dtype) if dtype is not bool else None
    rng = np.random.default_rng(n)
    if info is None:
        arr = rng.integers(0, 2, size=300).astype(bool)
    else:
        lo, hi = max(int(info.min), -10**6), min(int(info.max), 10**6)
        arr = rng.integers(lo, hi, size=300, endpoint=True).astype(dtype)
        arr[:2] = [info.min, info.max]
    want = np.array([int(v) % n for v in arr], dtype=np.uint8)
    got = _reduce_mod(arr, n)
    assert got.dtype == np.uint8 and np.array_equal(got, want)
    vals = want if info is None else want[want <= info.max]    # int8 holds < 128
    inr = (vals if dtype is not bool else arr).astype(dtype)
    got = _reduce_mod(inr, n)                            # already in range: a copy
    assert got.dtype == np.uint8 and np.array_equal(got, inr.astype(np.int64))
    assert not np.shares_memory(got, inr)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_specs(), st.integers(0, 2**32 - 1))
def test_stencil_apply_and_random_state_match_the_matrix(spec, seed):
    b = _board(spec)
    n = b.states
    A = b.matrix().astype(np.int64)
    x = np.random.default_rng(seed).integers(0, n, size=b.n_taps, dtype=np.uint8)
    want = A @ x.astype(np.int64) % n
    for xx in (x, x.astype(np.int64) + n * 3, x.astype(np.int16) - n):
        got = b.cell_vector(b._stencil_apply(xx))
        assert got.dtype == np.uint8 and np.array_equal(got, want)
    # random_state: -A x for the same draws as before (the stream is unchanged)
    x = np.random.default_rng(seed).integers(0, n, size=b.n_taps, dtype=np.uint8)
    want = b.from_cell_vector(((-(A @ x.astype(np.int64))) % n).astype(np.uint8))
    got = b.random_state(rng=seed)
    assert got.dtype == np.uint8 and np.array_equal(got, want)


def test_stencil_accumulator_widths():
    # uint8 for small sums, uint16 beyond 255, uint32 beyond 65535 (one offset
    # repeated): the sums must not overflow
    for reps, n in ((60, 5), (300, 255), (260, 255)):
        b = ml.Board.grid(3, 4, states=n, pattern=[(0, 0)] * reps + [(0, 1)])
        x = np.full(b.n_taps, n - 1, dtype=np.uint8)
        want = b.matrix().astype(np.int64) @ x.astype(np.int64) % n
        assert np.array_equal(b.cell_vector(b._stencil_apply(x)), want)


# ---------------------------------------------------------------- the solve path
@pytest.mark.parametrize("n", [2, 3, 4, 131])
@pytest.mark.parametrize("kind", ["plain", "locks", "holes", "both"])
def test_chase_solve_same_taps_for_every_input_form(n, kind):
    rows, cols = 23, 17
    rng = np.random.default_rng(n)
    u = rng.random((rows, cols))
    holes = (u < 0.1) if kind in ("holes", "both") else None
    locked = ((u > 0.9) if kind in ("locks", "both") else None)
    b = ml.Board.grid(rows, cols, states=n, locked=locked, holes=holes)
    s = ml.Solver(b, method="chase")
    dense = ml.Solver(b, method="dense")
    for target in (0, 1, rng.integers(0, n, size=(rows, cols))):
        start = b.random_state(rng=rng)
        t = b.coerce_target(target)
        start = b.coerce_state(start.astype(np.int64) + t)      # solvable to target
        forms = [start, start.astype(np.int64), start.astype(np.int64) - 5 * n,
                 start.astype(np.uint16) + n, start.tolist()]
        if n <= 127:
            forms.append((start + n).astype(np.uint8))         # uint8 out of range
        if holes is not None:
            junk = start.copy()
            junk[holes] = 1                                     # ignored at holes
            forms.append(junk)
        sols = [s.solve(f, target, minimal=False) for f in forms]
        for sol in sols:
            assert sol.taps.dtype == np.uint8 and sol.taps.shape == (rows, cols)
            assert np.array_equal(b.apply(start, sol.taps), t)
            assert np.array_equal(sol.taps, sols[0].taps)
            assert sol.length == int(sol.taps.astype(np.int64).sum())
        d = dense.solve(start, target, minimal=False)
        assert np.array_equal(b.apply(start, d.taps), t)
        if locked is not None:
            assert not sols[0].taps[locked].any()
        if holes is not None:
            assert not sols[0].taps[holes].any()


@pytest.mark.parametrize("n", [2, 3])
def test_solve_leaves_the_state_alone_and_owns_its_taps(n):
    b = ml.Board.grid(30, 30, states=n)
    start = b.random_state(rng=1)
    keep = start.copy()
    s = ml.Solver(b, method="chase")
    sol = s.solve(start, minimal=False)
    assert np.array_equal(start, keep) and start.flags.writeable
    assert not np.shares_memory(sol.taps, start)
    sol.taps[0, 0] ^= 1                      # the caller may write to its taps
    assert np.array_equal(s.solve(start, minimal=False).taps[1:], sol.taps[1:])
    # the right-hand side over GF(2) with target 0 is the state itself, read-only
    rhs = s._rhs(start, 0)
    if n == 2:
        assert np.shares_memory(rhs, start) and not rhs.flags.writeable
    assert np.array_equal(rhs, (-start.astype(np.int64)).reshape(-1) % n)


def test_solve_many_and_solvable_many_uint8():
    b = ml.Board.grid(12, 12, states=3, locked=[(0, 0)], holes=[(5, 5)])
    s = ml.Solver(b, method="chase")
    rng = np.random.default_rng(9)
    S = np.stack([b.random_state(rng=rng) for _ in range(4)])
    for target in (0, 2, rng.integers(0, 3, size=(12, 12))):
        t = b.coerce_target(target)
        S2 = np.stack([b.coerce_state(x.astype(np.int64) + t) for x in S])
        for form in (S2, S2.astype(np.int64) + 3, S2.astype(np.int8) - 3):
            X = s.solve_many(form, target)
            for st_, x in zip(S2, X):
                assert np.array_equal(b.apply(st_, x), t)
            assert s.solvable_many(form, target).all()


def test_solve_errors_unchanged():
    b = ml.Board.grid(30, 30, states=3)
    s = ml.Solver(b, method="chase")
    with pytest.raises(ValueError, match=r"state has shape \(30, 29\)"):
        s.solve(np.zeros((30, 29), np.uint8))
    with pytest.raises(ValueError, match="must be an array of integers"):
        s.solve(np.full((30, 30), "a"))
    with pytest.raises(ValueError, match="non-integral"):
        s.solve(np.full((30, 30), 0.5))
    with pytest.raises(ValueError, match="got a bool"):
        s.solve(np.zeros((30, 30), np.uint8), True)
    with pytest.raises(ValueError, match=r"target has shape \(2,\)"):
        s.solve(np.zeros((30, 30), np.uint8), np.zeros(2, np.uint8))


@pytest.mark.parametrize("n", [2, 3])
def test_solve_path_has_no_wide_temporaries(n):
    """Python-side memory of solve(minimal=False): the uint8 replays and at most one
    uint8 right-hand side (n > 2); an int64 or uint16 copy of the board would not fit."""
    rows = cols = 400
    hw = rows * cols
    b = ml.Board.grid(rows, cols, states=n)
    s = ml.Solver(b, method="chase")
    start = b.random_state(rng=2)
    s.solve(start, minimal=False)                     # warm up
    tracemalloc.start()
    try:
        sol = s.solve(start, minimal=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not b.apply(start, sol.taps).any()
    # numeric replay x (hw) kept as the taps, its second replay (hw), rhs (hw, n > 2)
    assert peak < (2.5 if n == 2 else 3.5) * hw, peak / hw


def test_random_state_is_a_byte_a_tile():
    b = ml.Board.grid(500, 400, states=3)
    b.random_state(rng=0)                             # warm up (lazy numpy imports)
    tracemalloc.start()
    try:
        st_ = b.random_state(rng=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert st_.dtype == np.uint8 and st_.shape == (500, 400)
    assert peak < 2.5 * 500 * 400, peak / (500 * 400)   # the draws and the sum


# ---------------------------------------------------------------- the C plan's masks
class _FakePlan:
    def __init__(self, *args):
        self.args = args


@pytest.mark.parametrize("accepts_none", [False, True])
@pytest.mark.parametrize("kind", ["plain", "locks", "holes", "both"])
def test_build_plan_masks(monkeypatch, accepts_none, kind):
    from modlights.native import _core as _chase
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


def test_solution_length():
    for n in (2, 3, 255):
        b = ml.Board.grid(9, 9, states=n)
        sol = ml.Solver(b, method="chase").solve(b.random_state(rng=n), minimal=False)
        assert sol.length == int(sol.taps.astype(np.int64).sum())
