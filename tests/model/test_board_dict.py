"""Board.to_dict / from_dict (model/board_dict.py): JSON-safe round trips of every
feature, checked against the boards' own matrices, and bad dicts per field (Solution's
dict is in tests/test_solver.py, Puzzle's in tests/play/test_puzzle_dict.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import modlights as ml
from jsonsafe import json_types_only, via_json
from strategies import boards, grid_boards

SETTINGS = settings(max_examples=60, deadline=None)


@st.composite
def matrix_boards(draw):
    n = draw(st.integers(2, 8))
    m, r = draw(st.integers(0, 5)), draw(st.integers(0, 5))
    a = draw(st.lists(st.integers(-20, 20), min_size=m * r, max_size=m * r))
    return ml.Board.from_matrix(np.array(a, dtype=np.int64).reshape(m, r), n)


all_boards = st.one_of(boards, matrix_boards())


# ----------------------------------------------------------------------------- boards
@SETTINGS
@given(all_boards)
def test_board_round_trip_through_json(b):
    d = b.to_dict()
    assert json_types_only(d)
    back = ml.Board.from_dict(via_json(d))
    assert back == b and hash(back) == hash(b)
    # independent of __eq__: the same tap matrix, shape and n
    assert back.states == b.states and back.shape == b.shape
    assert np.array_equal(back.matrix(), b.matrix())
    assert back.to_dict() == d  # a fixed point


@SETTINGS
@given(grid_boards())
def test_grid_dict_fields_describe_the_board(b):
    d = b.to_dict()
    assert list(d) == ["rows", "cols", "states", "pattern", "locked", "holes", "wrap"]
    assert (d["rows"], d["cols"]) == b.shape and d["states"] == b.states
    assert d["wrap"] is b.wrap
    assert sorted(map(tuple, d["locked"])) == [tuple(p) for p in np.argwhere(b.locked)]
    assert sorted(map(tuple, d["holes"])) == [tuple(p) for p in np.argwhere(b.holes)]
    rebuilt = ml.Board.grid(
        d["rows"],
        d["cols"],
        d["states"],
        d["pattern"],
        locked=d["locked"] or None,
        holes=d["holes"] or None,
        wrap=d["wrap"],
    )
    assert np.array_equal(rebuilt.matrix(), b.matrix())


@SETTINGS
@given(
    st.one_of(
        st.sampled_from(sorted(ml.PATTERNS)),
        st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=6),
    )
)
def test_pattern_is_a_name_or_pairs(pattern):
    d = ml.Board.grid(3, 4, 3, pattern).to_dict()
    if isinstance(pattern, str) or ml.Board.grid(3, 4, 3, pattern).pattern in ml.PATTERNS.values():
        assert (
            isinstance(d["pattern"], str)
            and ml.PATTERNS[d["pattern"]] == ml.Board.grid(3, 4, 3, pattern).pattern
        )
    else:
        assert d["pattern"] == [list(p) for p in pattern]


@pytest.mark.parametrize("n", [2, 9, 16, 100, 254, 255])
def test_round_trip_any_n(n):
    rng = np.random.default_rng(n)
    for b in (
        ml.Board.grid(3, 5, n, "knight", locked=[(0, 1)], holes=[(2, 2)], wrap=True),
        ml.Board.from_matrix(rng.integers(0, n, (3, 4)), n),
    ):
        d = via_json(b.to_dict())
        assert d["states"] == n and ml.Board.from_dict(d) == b
        assert np.array_equal(ml.Board.from_dict(d).matrix(), b.matrix())


def test_mixed_pattern_is_a_nested_list_of_names_and_pairs():
    pat = [["cross", [(0, 1), (1, 0)]], [[], "knight"], ["square", [(0, 0)]]]
    b = ml.Board.grid(3, 2, 5, pat, holes=[(2, 1)], locked=[(0, 0)], wrap=True)
    d = b.to_dict()
    assert d["pattern"] == [["cross", [[0, 1], [1, 0]]], [[], "knight"], ["square", [[0, 0]]]]
    assert ml.Board.from_dict(via_json(d)) == b


def test_matrix_boards_list_each_cell_once_per_unit():
    a = np.array([[1, 2, 0], [0, 3, 1], [4, 0, 0]])
    b = ml.Board.from_matrix(a, 5)
    d = b.to_dict()
    assert d["n_cells"] == 3 and d["states"] == 5 and len(d["effects"]) == 3
    for j, eff in enumerate(d["effects"]):
        counts = Counter(eff)
        assert [counts[i] for i in range(3)] == a[:, j].tolist()
    assert ml.Board.from_dict(d) == b


def test_graph_boards_compare_by_matrix():
    e = ml.Board.from_effects
    assert e([[0, 1], [2]], 3) == e([[1, 0], [2]], 3)
    assert e([[0, 0, 0]], 3, n_cells=1) == e([[]], 3, n_cells=1)  # 3 units = 0 mod 3
    assert e([[0, 1]], 3) != e([[0, 1]], 4)
    assert e([[0, 1]], 3) != e([[0, 1]], 3, n_cells=3)
    assert e([[0], [1]], 2) != e([[1], [0]], 2)
    assert e([[0, 1], [1]], 2) == ml.Board.from_matrix([[1, 0], [1, 1]], 2)
    assert hash(e([[0, 1], [2]], 3)) == hash(e([[1, 0], [2]], 3))


def test_boolean_masks_accepted_on_input():
    d = {
        "rows": 2,
        "cols": 3,
        "states": 3,
        "locked": [[True, False, False], [False] * 3],
        "holes": [[False] * 3, [False, False, True]],
    }
    b = ml.Board.from_dict(d)
    assert b == ml.Board.grid(2, 3, 3, locked=[(0, 0)], holes=[(1, 2)])
    assert b.to_dict()["locked"] == [[0, 0]] and b.to_dict()["holes"] == [[1, 2]]


def test_defaults():
    assert ml.Board.from_dict({"rows": 2, "cols": 2}) == ml.Board.grid(2, 2)
    assert ml.Board.from_dict({"effects": [[0]], "states": 3}) == ml.Board.from_effects([[0]], 3)


# ----------------------------------------------------------------------------- bad boards
GOOD = {
    "rows": 3,
    "cols": 3,
    "states": 3,
    "pattern": "cross",
    "locked": [],
    "holes": [],
    "wrap": False,
}
BAD_GRID = [
    ({"rows": 3}, "cols"),
    ({"cols": 3}, "rows"),
    ({**GOOD, "colour": 1}, "colour"),
    ({**GOOD, "rows": True}, "rows"),
    ({**GOOD, "rows": 3.0}, "rows"),
    ({**GOOD, "rows": "3"}, "rows"),
    ({**GOOD, "cols": 0}, "cols"),
    ({**GOOD, "cols": -2}, "cols"),
    ({**GOOD, "states": 1}, "states"),
    ({**GOOD, "states": 256}, "states"),
    ({**GOOD, "states": True}, "states"),
    ({**GOOD, "states": 2.5}, "states"),
    ({**GOOD, "pattern": "hexagon"}, "pattern"),
    ({**GOOD, "pattern": 5}, "pattern"),
    ({**GOOD, "pattern": [[0, True]]}, "pattern"),
    ({**GOOD, "pattern": [[0, 1.5]]}, "pattern"),
    ({**GOOD, "pattern": [[0, 1, 2]]}, "pattern"),
    ({**GOOD, "pattern": [["cross"] * 3, ["cross"] * 3, ["cross", "cross", "ring"]]}, "pattern"),
    ({**GOOD, "pattern": [["cross"] * 3, ["cross"] * 3, ["cross"] * 2]}, "pattern"),
    ({**GOOD, "locked": [[5, 0]]}, "locked"),
    ({**GOOD, "locked": [[0]]}, "locked"),
    ({**GOOD, "locked": [[0, True]]}, "locked"),
    ({**GOOD, "locked": "all"}, "locked"),
    ({**GOOD, "holes": [[True, False], [False, False]]}, "holes"),
    ({**GOOD, "holes": [[0, -1]]}, "holes"),
    ({**GOOD, "locked": [[1, 1]], "holes": [[1, 1]]}, "locked"),
    ({**GOOD, "wrap": 1}, "wrap"),
    ({**GOOD, "wrap": "yes"}, "wrap"),
    ({"effects": [[0]]}, "states"),
    ({"effects": [[0]], "states": 2, "rows": 3}, "rows"),
    ({"effects": 5, "states": 2}, "effects"),
    ({"effects": [5], "states": 2}, "effects"),
    ({"effects": [[0.0]], "states": 2}, "effects"),
    ({"effects": [[True]], "states": 2}, "effects"),
    ({"effects": [[-1]], "states": 2}, "effects"),
    ({"effects": [[3]], "states": 2, "n_cells": 2}, "effects"),
    ({"effects": [[0]], "states": 2, "n_cells": -1}, "n_cells"),
    ({"effects": [[0]], "states": 2, "n_cells": True}, "n_cells"),
    ({"effects": [[0]], "states": 300}, "states"),
]


@pytest.mark.parametrize(
    "d, field", BAD_GRID, ids=[f"{i}-{f}" for i, (_, f) in enumerate(BAD_GRID)]
)
def test_bad_board_dicts_name_the_field(d, field):
    with pytest.raises(ValueError) as e:
        ml.Board.from_dict(d)
    assert field in str(e.value)


@pytest.mark.parametrize("d", [None, [], "board", 5, {"effects": None}])
def test_non_dict_boards(d):
    with pytest.raises(ValueError):
        ml.Board.from_dict(d)


@pytest.mark.parametrize("rows, cols", [(1 << 20, 1 << 20), (10**30, 2), (1 << 14, 1 << 14)])
def test_huge_boards_rejected_before_allocation(rows, cols):
    with pytest.raises(ValueError, match="rows|cols|too large"):
        ml.Board.from_dict({"rows": rows, "cols": cols, "locked": [[True] * 2]})


def test_max_tiles_limit():
    ml.Board.from_dict({"rows": 10, "cols": 10}, max_tiles=100)
    with pytest.raises(ValueError, match="at most 99"):
        ml.Board.from_dict({"rows": 10, "cols": 10}, max_tiles=99)
    with pytest.raises(ValueError, match="too large"):
        ml.Board.from_dict({"effects": [[0]] * 10, "states": 2}, max_tiles=9)
