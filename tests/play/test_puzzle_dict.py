"""Puzzle.to_dict / from_dict: JSON-safe round trips of generated puzzles (every feature),
a code that disagrees with the board or start refused, bad dicts per field."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from jsonsafe import json_types_only, via_json

PUZZLES = [
    dict(rows=4, cols=4, states=2),
    dict(rows=3, cols=5, states=3, pattern="knight", wrap=True, unique=False),
    dict(rows=4, cols=3, states=4, pattern=[(0, 0), (1, 0), (0, 1)], locked=1, holes=1),
    dict(
        rows=2,
        cols=3,
        states=6,
        pattern=[["cross", "square", [(0, 0)]], [[(0, 0), (0, -1)], "vertical", "horizontal"]],
        unique=False,
    ),
    dict(rows=5, cols=5, states=7, pattern="diagonal", holes=2, unique=False),
    dict(rows=3, cols=3, states=8, pattern="square", locked=[(1, 1)], unique=False),
]


@pytest.mark.parametrize("kw", PUZZLES)
def test_puzzle_round_trip(kw):
    p = ml.generate(seed=11, **kw)
    d = p.to_dict()
    assert json_types_only(d)
    assert list(d) == ["board", "start", "code", "stars", "min_taps", "proven", "difficulty"]
    assert d["stars"] == {"3": p.stars[3], "2": p.stars[2], "1": p.stars[1]}
    assert d["min_taps"] == p.min_taps and d["code"] == p.code
    assert np.array_equal(np.array(d["start"]), p.start)
    for given_ in (via_json(d), {"code": d["code"]}, {"board": d["board"], "start": d["start"]}):
        q = ml.Puzzle.from_dict(given_)
        assert q == p and q.code == p.code and q.to_dict() == d


def test_puzzle_from_dict_checks_code_against_board():
    p, q = ml.generate(4, 4, 3, seed=1), ml.generate(4, 4, 3, seed=2)
    d = p.to_dict()
    with pytest.raises(ValueError, match="code and board/start"):
        ml.Puzzle.from_dict({**d, "code": q.code})
    other_start = np.array(d["start"])
    other_start[0, 0] = (other_start[0, 0] + 1) % 3
    with pytest.raises(ValueError, match="code and board/start"):
        ml.Puzzle.from_dict({**d, "start": other_start.tolist()})


BAD_PUZZLE = [
    ({}, "board"),
    ({"start": [[0]]}, "board"),
    ({"board": {"rows": 1, "cols": 1}}, "start"),
    ({"code": 5}, "code"),
    ({"code": "!!!"}, "code"),
    ({"code": "AQIEBAMARACgqAkYrvO7A7"}, "code"),
    ({"board": {"rows": 1, "cols": 2}, "start": [[0, 2]]}, "start"),
    ({"board": {"rows": 1, "cols": 2}, "start": [[0]]}, "start"),
    ({"board": {"rows": 1, "cols": 2}, "start": [[0, True]]}, "start"),
    ({"board": {"rows": 1, "cols": 2, "states": 0}, "start": [[0, 0]]}, "states"),
    ({"board": {"effects": [[0]], "states": 2}, "start": [0]}, "graph"),
    ({"board": {"rows": 1, "cols": 2}, "start": [[0, 0]], "stars": {3: 1}}, "stars"),
    ({"board": {"rows": 1, "cols": 2}, "start": [[0, 0]], "min_taps": -1}, "min_taps"),
    ({"board": {"rows": 1, "cols": 2}, "start": [[0, 0]], "proven": 1}, "proven"),
    ({"board": {"rows": 1, "cols": 2}, "start": [[0, 0]], "difficulty": "dull"}, "difficulty"),
    ({"board": {"rows": 1, "cols": 2}, "start": [[0, 0]], "seed": 1}, "seed"),
]


@pytest.mark.parametrize(
    "d, field", BAD_PUZZLE, ids=[f"{i}-{f}" for i, (_, f) in enumerate(BAD_PUZZLE)]
)
def test_bad_puzzle_dicts_name_the_field(d, field):
    with pytest.raises(ValueError) as e:
        ml.Puzzle.from_dict(d)
    assert field in str(e.value)
