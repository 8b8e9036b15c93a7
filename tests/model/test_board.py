"""Board geometry: patterns, locks, holes, wrap, mixed, graph boards, press/apply; the
masks built only when asked for and the uint8 arithmetic of states, each against the
obvious eager / int64 computation."""

from __future__ import annotations

import json
import pickle
import re
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.model.board_matrix import _reduce_mod, _sub_mod
from strategies import boards, random_masks


def naive_effect(b: ml.Board, pos) -> np.ndarray:
    """The change a tap at pos makes, straight from the definition."""
    rows, cols = b.shape
    r, c = pos
    out = np.zeros((rows, cols), dtype=np.int64)
    for dr, dc in b.offsets_at(r, c):
        rr, cc = r + dr, c + dc
        if b.wrap:
            rr, cc = rr % rows, cc % cols
        elif not (0 <= rr < rows and 0 <= cc < cols):
            continue
        if not b.holes[rr, cc]:
            out[rr, cc] += 1
    return out % b.states


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=boards)
def test_matrix_columns_are_tap_effects(b):
    A = b.matrix()
    assert A.shape == (b.n_cells, b.n_taps) and A.dtype == np.uint8
    zero = np.zeros(b.shape, dtype=np.uint8)
    for j, pos in enumerate(b.taps):
        pressed = b.press(zero, pos)
        assert np.array_equal(b.cell_vector(pressed), A[:, j])
        if b.is_grid:
            assert np.array_equal(pressed, naive_effect(b, pos))
        else:
            want = np.zeros(b.shape, dtype=np.int64)
            for c in b.effects[j]:
                want[c] += 1
            assert np.array_equal(pressed, want % b.states)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=boards)
def test_apply_is_sum_of_presses(b):
    rng = np.random.default_rng(7)
    state = b.random_state(rng=rng, solvable=False)
    taps = np.zeros(b.shape if b.is_grid else (b.n_taps,), dtype=np.int64)
    expect = state.copy()
    for pos in b.taps:
        k = int(rng.integers(0, 2 * b.states))
        taps[pos] = k
        expect = b.press(expect, pos, times=k)
    got = b.apply(state, taps)
    assert got.dtype == np.uint8
    assert np.array_equal(got, expect)
    assert np.array_equal(state, b.apply(got, (-taps) % b.states))


def test_named_patterns():
    assert ml.PATTERNS["cross"] == ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))
    assert set(ml.PATTERNS) == {"cross", "diagonal", "square", "horizontal", "vertical", "knight"}
    assert len(ml.PATTERNS["square"]) == 9 and len(ml.PATTERNS["knight"]) == 9
    b = ml.Board.grid(5, 5, pattern="knight")
    eff = b.press(np.zeros((5, 5)), (2, 2))
    assert int(eff.sum()) == 9 and eff[0, 1] == 1 and eff[1, 1] == 0


def test_offsets_without_centre_leave_tapped_tile():
    b = ml.Board.grid(3, 3, states=3, pattern=[(-1, 0), (1, 0)])
    eff = b.press(np.zeros((3, 3)), (1, 1))
    assert eff[1, 1] == 0 and eff[0, 1] == 1 and eff[2, 1] == 1


def test_wrap_double_advance():
    # On a 1x2 torus the left and right neighbours of a tile are the same tile.
    b = ml.Board.grid(1, 2, states=5, pattern="horizontal", wrap=True)
    assert np.array_equal(b.press(np.zeros((1, 2)), (0, 0)), [[1, 2]])
    assert b.matrix().tolist() == [[1, 2], [2, 1]]


def test_holes_and_locks():
    holes = np.zeros((3, 3), bool)
    holes[0, 0] = True
    b = ml.Board.grid(3, 3, locked=[(1, 1)], holes=holes)
    assert b.n_cells == 8 and b.n_taps == 7
    assert (0, 0) not in b.cells and (1, 1) in b.cells and (1, 1) not in b.taps
    eff = b.press(np.zeros((3, 3)), (0, 1))
    assert eff[0, 0] == 0 and eff[1, 1] == 1
    with pytest.raises(ValueError, match="locked"):
        b.press(np.zeros((3, 3)), (1, 1))
    with pytest.raises(ValueError, match="hole"):
        b.press(np.zeros((3, 3)), (0, 0))
    taps = np.zeros((3, 3), int)
    taps[1, 1] = 1
    with pytest.raises(ValueError, match="locked"):
        b.apply(np.zeros((3, 3)), taps)
    # values at holes are ignored on input and 0 on output
    st = np.ones((3, 3), int)
    assert b.apply(st, np.zeros((3, 3), int))[0, 0] == 0


def test_mixed_board():
    pat = [["cross", "horizontal"], [[(0, 0), (-1, 0)], "vertical"]]
    b = ml.Board.grid(2, 2, states=3, pattern=pat)
    z = np.zeros((2, 2))
    assert b.press(z, (0, 1)).tolist() == [[1, 1], [0, 0]]
    assert b.press(z, (1, 0)).tolist() == [[1, 0], [1, 0]]
    assert b.press(z, (1, 1)).tolist() == [[0, 1], [0, 1]]


def test_graph_board_before_and_after_cycle():
    # six cells in a cycle, each tap advances a cell and its two neighbours, 8 colours
    eff = [[(i - 1) % 6, i, (i + 1) % 6] for i in range(6)]
    b = ml.Board.from_effects(eff, 8)
    assert b.shape == (6,) and b.n_cells == 6 and b.n_taps == 6
    assert b.cells == list(range(6)) and b.taps == list(range(6))
    assert b.press(np.zeros(6), 0).tolist() == [1, 1, 0, 0, 0, 1]
    s = ml.Solver(b)
    st = b.random_state(rng=3)
    sol = s.solve(st)
    assert not b.apply(st, sol.taps).any()
    assert sol.taps.shape == (6,)


def test_repeated_cells_in_effects_advance_twice():
    b = ml.Board.from_effects([[0, 0, 1]], 5)
    assert b.matrix().tolist() == [[2], [1]]


def test_random_state_solvable_and_reproducible():
    b = ml.Board.grid(4, 4, states=2)  # nullity 4: not every state is solvable
    s = ml.Solver(b)
    for seed in range(20):
        st = b.random_state(rng=seed)
        assert s.solvable(st)
        assert np.array_equal(st, b.random_state(rng=seed))
    rng = np.random.default_rng(1)
    assert not all(s.solvable(b.random_state(rng=rng, solvable=False)) for _ in range(40))


def test_states_of_any_integer_dtype_are_reduced():
    b = ml.Board.grid(2, 2, states=3)
    for dt in (np.int8, np.int64, np.uint16, np.uint64, bool):
        st = np.array([[1, 2], [0, 1]]).astype(dt)
        out = b.apply(st, np.zeros((2, 2), dt))
        assert out.dtype == np.uint8
    assert b.apply(np.array([[-1, 4], [3, 0]]), np.zeros((2, 2), int)).tolist() == [[2, 1], [0, 0]]
    assert b.apply(np.array([[5, 0], [0, 0]], dtype=np.uint64), np.zeros((2, 2), int))[0, 0] == 2


# ---------------------------------------------------------------- lazy masks
NAMES = sorted(ml.PATTERNS)


MASKS = ("_locked", "_holes", "_active", "_tappable")


@st.composite
def grid_specs(draw, max_side=9):
    """(rows, cols, n, pattern, wrap, locked, holes, how): masks as bool arrays, as
    position lists, or None; either may be empty."""
    n = draw(st.sampled_from([2, 3, 4, 5, 7, 130, 255]))
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    pattern = draw(
        st.one_of(
            st.sampled_from(NAMES),
            st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), max_size=6),
        )
    )
    wrap = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    locked, holes = random_masks(
        rng,
        (rows, cols),
        draw(st.sampled_from([0.0, 0.1, 0.3])),
        draw(st.sampled_from([0.0, 0.1, 0.3])),
    )
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
    return ml.Board.grid(
        rows,
        cols,
        states=n,
        pattern=pattern,
        wrap=wrap,
        locked=_spec(locked, how),
        holes=_spec(holes, how),
    )


def _stored_masks(b):
    return sorted(k for k in vars(b) if k.startswith("_mask_"))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_specs())
def test_lazy_masks_equal_eager_masks(spec):
    rows, cols, n, pattern, wrap, locked, holes, how = spec
    b = _board(spec)
    assert b._any_locked == bool(locked.any()) and b._any_holes == bool(holes.any())
    if not locked.any() and not holes.any():
        assert _stored_masks(b) == []  # nothing built by Board.grid
    eager = {"_locked": locked, "_holes": holes, "_active": ~holes, "_tappable": ~holes & ~locked}
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
        b._result = (
            b.coerce_state(state),
            b.coerce_target(1),
            b.apply(state, taps),
            b.tap_vector(taps),
            b.cell_vector(b.coerce_state(state)),
            b.from_tap_vector(b.tap_vector(taps)),
            b.random_state(rng=5),
            b.random_state(rng=6, solvable=False),
        )
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
    for kw in (
        {"locked": np.zeros((rows, cols), bool)},
        {"holes": []},
        {"locked": [], "holes": np.zeros((rows, cols), int)},
    ):
        b = ml.Board.grid(rows, cols, states=3, **kw)
        assert b == plain and hash(b) == hash(plain) and _stored_masks(b) == []
        assert repr(b) == repr(plain)
    assert ml.Board.grid(rows, cols, states=3, locked=[(0, 0)]) != plain
    assert ml.Board.grid(rows, cols, states=3, holes=[(0, 0)]) != ml.Board.grid(
        rows, cols, states=3, locked=[(0, 0)]
    )


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


# ---------------------------------------------------------------- uint8 arithmetic
@pytest.mark.parametrize("n", [2, 3, 4, 7, 100, 128, 129, 200, 255])
def test_sub_mod_matches_int64(n, monkeypatch):
    import modlights.model.board_matrix as board_mod

    monkeypatch.setattr(board_mod, "_CHUNK", 1000)  # several chunks and a tail
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
    assert np.array_equal(s, s64)  # the input is untouched


@pytest.mark.parametrize(
    "dtype",
    [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, bool],
)
@pytest.mark.parametrize("n", [2, 3, 7, 200, 255])
def test_reduce_mod_every_dtype(dtype, n):
    info = np.iinfo(dtype) if dtype is not bool else None
    rng = np.random.default_rng(n)
    if info is None:
        arr = rng.integers(0, 2, size=300).astype(bool)
    else:
        lo, hi = max(int(info.min), -(10**6)), min(int(info.max), 10**6)
        arr = rng.integers(lo, hi, size=300, endpoint=True).astype(dtype)
        arr[:2] = [info.min, info.max]
    want = np.array([int(v) % n for v in arr], dtype=np.uint8)
    got = _reduce_mod(arr, n)
    assert got.dtype == np.uint8 and np.array_equal(got, want)
    vals = want if info is None else want[want <= info.max]  # int8 holds < 128
    inr = (vals if dtype is not bool else arr).astype(dtype)
    got = _reduce_mod(inr, n)  # already in range: a copy
    assert got.dtype == np.uint8 and np.array_equal(got, inr.astype(np.int64))
    assert not np.shares_memory(got, inr)


def _brute_matrix(spec, raw=False):
    """A of a grid spec written from its definition, tile by tile and offset by offset
    (shares nothing with the board's code, Python's or C's); raw: the counts before
    reduction mod n."""
    rows, cols, n, pattern, wrap, locked, holes, _ = spec
    offs = ml.PATTERNS[pattern] if isinstance(pattern, str) else pattern
    tiles = [(r, c) for r in range(rows) for c in range(cols)]
    cells = [t for t in tiles if not holes[t]]
    taps = [t for t in cells if not locked[t]]
    row_of = {t: i for i, t in enumerate(cells)}
    A = np.zeros((len(cells), len(taps)), dtype=np.int64)
    for j, (r, c) in enumerate(taps):
        for dr, dc in offs:
            rr, cc = r + dr, c + dc
            if wrap:
                rr, cc = rr % rows, cc % cols
            elif not (0 <= rr < rows and 0 <= cc < cols):
                continue
            if (rr, cc) in row_of:
                A[row_of[rr, cc], j] += 1
    return A if raw else A % n


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_specs(), st.integers(0, 2**32 - 1))
def test_apply_and_random_state_match_the_matrix_by_definition(spec, seed):
    """The C board's apply (apply_vector, apply), its dense matrix and the coordinate
    form against A written from the definition; random_state is -A x for the draws of
    its generator (the stream unchanged)."""
    b = _board(spec)
    n = b.states
    raw = _brute_matrix(spec, raw=True)
    A = raw % n
    assert np.array_equal(b.matrix(), A)
    cells = b.cells
    for j in range(0, b.n_taps, max(1, b.n_taps // 3)):  # a tap's effect, repeats kept
        want = [cells[i] for i in np.repeat(np.arange(len(cells)), raw[:, j])]
        assert b.affected(b.taps[j]) == want
    ci, tj = b.coo()
    coo = np.zeros(A.shape, dtype=np.int64)
    np.add.at(coo, (ci, tj), 1)
    assert np.array_equal(coo % n, A)
    x = np.random.default_rng(seed).integers(0, n, size=b.n_taps, dtype=np.uint8)
    want = A @ x.astype(np.int64) % n
    for xx in (x, x.astype(np.int64) + n * 3, x.astype(np.int16) - n):
        got = b.apply_vector(xx)
        assert got.dtype == np.uint8 and np.array_equal(got, want)
    s = np.random.default_rng(seed + 1).integers(0, 3 * n, size=b.shape)
    got = b.apply(s, b.from_tap_vector(x))
    assert np.array_equal(b.cell_vector(got), (b.cell_vector(s % n) + want) % n)
    assert not (got[b.holes]).any()
    x = np.random.default_rng(seed).integers(0, n, size=b.n_taps, dtype=np.uint8)
    want = b.from_cell_vector(((-(A @ x.astype(np.int64))) % n).astype(np.uint8))
    got = b.random_state(rng=seed)
    assert got.dtype == np.uint8 and np.array_equal(got, want)


def test_apply_with_long_patterns():
    # one offset repeated past a byte's worth of units, reaching past the sides
    for reps, n, wrap in ((60, 5, False), (300, 255, True), (260, 255, False)):
        pattern = [(0, 0)] * reps + [(0, 1), (7, -9)]
        b = ml.Board.grid(3, 4, states=n, pattern=pattern, wrap=wrap)
        x = np.full(b.n_taps, n - 1, dtype=np.uint8)
        spec = (3, 4, n, pattern, wrap, np.zeros((3, 4), bool), np.zeros((3, 4), bool), None)
        want = _brute_matrix(spec) @ x.astype(np.int64) % n
        assert np.array_equal(b.apply_vector(x), want)


def test_random_state_is_a_byte_a_tile():
    b = ml.Board.grid(500, 400, states=3)
    b.random_state(rng=0)  # warm up (lazy numpy imports)
    tracemalloc.start()
    try:
        st_ = b.random_state(rng=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert st_.dtype == np.uint8 and st_.shape == (500, 400)
    assert peak < 2.5 * 500 * 400, peak / (500 * 400)  # the draws and the sum


def test_the_board_holds_one_c_board():
    """The C board is made once with the board (a grid's masks read in place, not
    copied), is the engines' and the codes' C board, agrees with the board's JSON and
    masks, and is made again, equal, by a pickled copy; a from_matrix board's on first
    use only."""
    from modlights.engines.native import c_board

    u = np.random.default_rng(3).random((7, 9))
    b = ml.Board.grid(7, 9, 5, "knight", locked=u < 0.2, holes=u > 0.9, wrap=True)
    cb = b._c
    assert cb is b._c and c_board(b) is cb
    assert cb.to_json() == json.dumps(b.to_dict(), separators=(",", ":"))
    assert np.array_equal(cb.locked_mask(), b.locked) and np.array_equal(cb.holes_mask(), b.holes)
    assert (cb.n_cells, cb.n_taps) == (b.n_cells, b.n_taps)
    copy = pickle.loads(pickle.dumps(b))
    assert copy._c is not cb and copy._c == cb and copy == b
    assert ml.Board._from_c(cb)._c is cb  # from_dict / codes keep the reader's board
    m = ml.Board.from_matrix([[1, 2], [0, 3]], 4)
    assert "_cb" not in vars(m)
    assert m._c == ml.Board.from_dict(m.to_dict())._c and "_cb" in vars(m)
    giant = ml.Board.grid(1 << 14, 1 << 14, pattern="square")
    assert giant._c.is_giant and ml.Board.from_dict(giant.to_dict(), max_tiles=1 << 28) == giant


def test_from_dict_reads_python_values_as_json():
    """Tuples, NumPy scalars and any Mapping are JSON data; anything else is refused
    naming where it is."""
    from types import MappingProxyType

    d = {"rows": np.int64(3), "cols": 3, "states": np.uint8(3), "locked": [(0, np.int32(1))]}
    want = ml.Board.grid(3, 3, 3, locked=[(0, 1)])
    assert ml.Board.from_dict(d) == want == ml.Board.from_dict(MappingProxyType(d))
    for bad, where in (
        ({"rows": 2, "cols": 2, "locked": np.zeros((2, 2), bool)}, "locked"),
        ({"rows": 2, "cols": 2, "states": float("nan")}, "states must be an int"),
        ({"rows": 2, "cols": 2, "holes": [{(0, 0)}]}, "holes[0]"),
        ({1: 2}, "board"),
    ):
        with pytest.raises(ValueError, match=re.escape(where)):
            ml.Board.from_dict(bad)


def test_negative_cells_are_named_as_before():
    # no n_cells and every listed cell negative: the range named is 0..(largest cell)
    # (pre-33 Python's words, which search/verify repeats)
    with pytest.raises(ValueError, match=re.escape("cell index -3 out of range: cells are 0..-3")):
        ml.Board.from_effects([[-3, -7]], 2)
    with pytest.raises(ValueError, match=re.escape("cells are 0..-5")):
        ml.Board.from_dict({"effects": [[-5]], "states": 2})


# Board.grid's pattern is read by the C reader in the constructors' words
# (csrc/api/board_json_words.c): each message as patterns.parse_pattern / parse_mixed wrote it,
# the offending pair shown as Python shows the argument's own item.
_X3 = ["cross"] * 3
PATTERN_MESSAGES = [
    (
        "star",
        "unknown pattern 'star': use one of 'cross', 'diagonal', 'square', 'horizontal', "
        "'vertical', 'knight', or a sequence of (dr, dc) offsets",
    ),
    (
        5,
        "pattern must be a name ('cross', 'diagonal', 'square', 'horizontal', 'vertical', "
        "'knight') or a sequence of (dr, dc) offsets, got int",
    ),
    (
        b"cross",
        "pattern must be a name ('cross', 'diagonal', 'square', 'horizontal', "
        "'vertical', 'knight') or a sequence of (dr, dc) offsets, got bytes",
    ),
    (
        np.int64(5),
        "pattern must be a name ('cross', 'diagonal', 'square', 'horizontal', "
        "'vertical', 'knight') or a sequence of (dr, dc) offsets, got int64",
    ),
    ([(0, 0, 1)], "pattern offsets must be (dr, dc) pairs of ints, got (0, 0, 1)"),
    ([[0, 0, 1]], "pattern offsets must be (dr, dc) pairs of ints, got [0, 0, 1]"),
    (
        [(0, 0), (np.float64(0.5), 0)],
        "pattern offsets must be (dr, dc) pairs of ints, got (np.float64(0.5), 0)",
    ),
    (np.array([[0, 0, 0]]), "pattern offsets must be (dr, dc) pairs of ints, got array([0, 0, 0])"),
    ([(0, True)], "pattern offsets must be (dr, dc) pairs of ints, got (0, True)"),
    ([(0, 0), (1025, 0), (0, 0, 1)], "pattern offset (1025, 0) reaches further than 1024 tiles"),
    ([(0, 2**70)], f"pattern offset (0, {2**70}) reaches further than 1024 tiles"),
    ([(0, 0)] * 4097, "pattern has more than 4096 items"),
    (iter([(0, 0)] * 4097), "pattern has more than 4096 items"),
    ([(0, 0)] * 4096 + [(0, 0, 1)], "pattern has more than 4096 items"),
    ([_X3, "abc", _X3], "mixed pattern row 1 must be a list of 3 patterns, got a string"),
    ([_X3, ["cross"] * 2, _X3], "mixed pattern row 1 has 2 entries, the board has 3 columns"),
    (
        [_X3, ["cross", "nope", "cross"], _X3],
        "unknown pattern 'nope': use one of 'cross', 'diagonal', 'square', 'horizontal', "
        "'vertical', 'knight', or a sequence of (dr, dc) offsets",
    ),
    (
        [_X3, ["cross", 7, "cross"], _X3],
        "pattern must be a name ('cross', 'diagonal', 'square', "
        "'horizontal', 'vertical', 'knight') or a sequence of (dr, dc) offsets, got int",
    ),
    (
        [_X3, ["cross", [(0, 0, 1)], "cross"], _X3],
        "pattern offsets must be (dr, dc) pairs of ints, got (0, 0, 1)",
    ),
]


@pytest.mark.parametrize("pattern, message", PATTERN_MESSAGES)
def test_grid_pattern_messages_word_for_word(pattern, message):
    with pytest.raises(ValueError) as e:
        ml.Board.grid(3, 3, states=3, pattern=pattern)
    assert str(e.value) == message


def test_grid_patterns_read_as_python_reads_them():
    """Names in any case, integral floats and NumPy values as offsets, iterators read
    once, mixed maps with shared tuples: the same boards as the named offsets."""
    cross = ml.PATTERNS["cross"]
    assert ml.Board.grid(3, 3, pattern=" CROSS ")._pattern is cross
    b = ml.Board.grid(3, 3, pattern=iter([(0, 0.0), (np.int32(1), 1.0)]))
    assert b._pattern == ((0, 0), (1, 1))
    assert b == ml.Board.grid(3, 3, pattern=np.array([[0, 0], [1, 1]]))
    m = ml.Board.grid(2, 3, pattern=[["Cross", [(0, 1)], "knight"], iter(["cross"] * 3)])
    assert m._mixed[0][0] is m._mixed[1][2] and m._mixed[0][0] == cross
    assert m._mixed[0][1] == ((0, 1),) and m._mixed[0][2] == ml.PATTERNS["knight"]
    assert m.to_dict()["pattern"][0][1] == [[0, 1]]
