"""The checker's own board reader (search/verify/data.py ``_read_board``) against the board
model it replaces: for random boards of every kind the tap matrix A it builds equals
``Board.coo()`` / ``Board.matrix()`` with the same cells, taps and estimate sizes, and
every board dict, valid or not, gets the verdict and the message ``Board.from_dict``
gives. Deterministic (fixed seeds)."""

from __future__ import annotations

import copy
import json
import pathlib
import random

import numpy as np
import pytest

import modlights as ml
from modlights.search import verify as V

ROOT = pathlib.Path(__file__).resolve().parents[2]
NAMES = ["cross", "diagonal", "square", "horizontal", "vertical", "knight"]


# ------------------------------------------------------------------ random boards
def random_offsets(rng: random.Random) -> list[tuple[int, int]]:
    """Custom offsets: small, repeated, without (0, 0), or reaching past the board."""
    k = rng.choice([0, 1, 2, 3, 5, 8])
    reach = rng.choice([1, 2, 3, 7])
    offs = [(rng.randint(-reach, reach), rng.randint(-reach, reach)) for _ in range(k)]
    if offs and rng.random() < 0.3:
        offs.append(offs[0])  # a repeat: that tile advances twice
    return offs


def random_grid(rng: random.Random) -> ml.Board:
    """A grid board: any named pattern, custom offsets or a mixed map; n in 2..9 or
    255; locks, holes and wrap at random; odd and even sides from 1 to 9."""
    rows, cols = rng.randint(1, 9), rng.randint(1, 9)
    n = rng.choice(list(range(2, 10)) + [255])
    kind = rng.random()
    if kind < 0.45:
        pattern: object = rng.choice(NAMES)
    elif kind < 0.7:
        pattern = random_offsets(rng)
    else:
        palette = [rng.choice(NAMES) for _ in range(2)] + [random_offsets(rng) for _ in range(2)]
        pattern = [[rng.choice(palette) for _ in range(cols)] for _ in range(rows)]
        if rng.random() < 0.2:
            pattern[0][0] = []  # an empty entry: that tap changes nothing
    tiles = [(r, c) for r in range(rows) for c in range(cols)]
    marked = rng.sample(tiles, rng.randint(0, len(tiles) // 2)) if rng.random() < 0.6 else []
    cut = rng.randint(0, len(marked))
    return ml.Board.grid(
        rows,
        cols,
        states=n,
        pattern=pattern,
        locked=marked[:cut],
        holes=marked[cut:],
        wrap=rng.random() < 0.35,
    )


def random_graph(rng: random.Random) -> ml.Board:
    """A graph board: repeated cells, empty effect lists, unused cells, no taps."""
    n = rng.choice(list(range(2, 10)) + [255])
    m = rng.randint(0, 8)
    r = rng.randint(0, 8)
    effects = [[rng.randrange(m) for _ in range(rng.randint(0, 5))] if m else [] for _ in range(r)]
    used = max((c for e in effects for c in e), default=-1) + 1
    n_cells = None if rng.random() < 0.4 else rng.randint(used, used + 3)
    return ml.Board.from_effects(effects, n, n_cells=n_cells)


BOARDS = [random_grid(random.Random(s)) for s in range(300)] + [
    random_graph(random.Random(1000 + s)) for s in range(80)
]


def old_nnz(b: ml.Board) -> int:
    """The size of A's coordinate form the estimate took from the board model."""
    if b.effects is not None:
        return sum(len(e) for e in b.effects)
    if b.mixed is not None:
        return b.n_taps * max((len(o) for row in b.mixed for o in row), default=0)
    return b.n_taps * len(b.pattern)


def sorted_pairs(ci: np.ndarray, tj: np.ndarray) -> np.ndarray:
    pairs = np.stack([np.asarray(ci, np.int64), np.asarray(tj, np.int64)], axis=1)
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


@pytest.mark.parametrize("i", range(len(BOARDS)))
def test_the_checkers_matrix_is_the_boards(i):
    b = BOARDS[i]
    d = json.loads(json.dumps(b.to_dict()))  # as a certificate carries it
    rb = V._read_board(d)
    assert (rb.n, rb.m, rb.r, rb.nnz) == (b.states, b.n_cells, b.n_taps, old_nnz(b))
    ci, tj = rb.coo()
    assert ci.dtype == tj.dtype == np.int64
    assert np.array_equal(sorted_pairs(ci, tj), sorted_pairs(*b.coo()))
    A = V._Matrix(rb)
    assert np.array_equal(A.dense(b.states), b.matrix())


def test_the_kinds_are_all_there():
    """The random boards above hold every kind the brief names."""
    grids = [b for b in BOARDS if b.is_grid]
    named = {ml.model.patterns.pattern_name(b.pattern) for b in grids if b.pattern is not None}
    assert set(NAMES) <= named and None in named  # every name, and custom offsets
    assert any(b.mixed is not None for b in grids)
    assert {b.states for b in BOARDS} == set(range(2, 10)) | {255}
    assert any(b.any_locked for b in grids) and any(b.any_holes for b in grids)
    assert any(b.wrap for b in grids) and len(grids) < len(BOARDS)
    assert {b.shape[0] % 2 for b in grids} == {0, 1}


def test_larger_boards():
    """Boards of many tiles (the sizes real certificates have), every pattern kind."""
    rng = np.random.default_rng(5)
    mixed = rng.choice(np.array(NAMES, dtype=object), size=(40, 33)).tolist()
    for b in [
        ml.Board.grid(60, 61, states=3, pattern="knight", wrap=True),
        ml.Board.grid(40, 33, states=4, pattern=mixed, locked=rng.random((40, 33)) < 0.2),
        ml.Board.grid(
            50,
            50,
            states=6,
            pattern=[(0, 0), (0, 3), (-2, 1), (0, 3)],
            holes=rng.random((50, 50)) < 0.1,
            wrap=True,
        ),
        ml.Board.from_effects([list(rng.integers(0, 500, 7)) for _ in range(700)], 5),
    ]:
        rb = V._read_board(json.loads(json.dumps(b.to_dict())))
        assert (rb.n, rb.m, rb.r, rb.nnz) == (b.states, b.n_cells, b.n_taps, old_nnz(b))
        assert np.array_equal(sorted_pairs(*rb.coo()), sorted_pairs(*b.coo()))


# ------------------------------------------------------------------ the same verdicts
def verdict(read, d):
    """('ok', n, m, r, sorted A entries) or ('error', message) of a board reader."""
    try:
        if read == "model":
            b = ml.Board.from_dict(d)
            return ("ok", b.states, b.n_cells, b.n_taps, sorted_pairs(*b.coo()).tolist())
        rb = V._read_board(d)
        return ("ok", rb.n, rb.m, rb.r, sorted_pairs(*rb.coo()).tolist())
    except ValueError as e:
        return ("error", str(e))


GOOD = {
    "rows": 3,
    "cols": 4,
    "states": 3,
    "pattern": "cross",
    "locked": [[0, 0]],
    "holes": [[2, 3]],
    "wrap": False,
}
GRAPH = {"effects": [[0, 1], [1], []], "states": 4, "n_cells": 3}

#: Board dicts, valid and not: every message of the reader, and the other forms
#: Board.from_dict accepts (boolean masks, names in any case, defaults).
CASES = [
    GOOD,
    {"rows": 3, "cols": 4},
    {"rows": 2, "cols": 2, "pattern": " Knight ", "wrap": True},
    {"rows": 2, "cols": 3, "locked": [[True, False, False], [False, False, True]], "holes": None},
    {"rows": 2, "cols": 3, "holes": [[False] * 3, [False] * 3]},
    {"rows": 2, "cols": 2, "pattern": [["cross", [[0, 1], [1, 0]]], [[], "SQUARE"]]},
    {"rows": 1, "cols": 2, "pattern": [[0, 1], [0, -1]]},
    {"rows": 2, "cols": 2, "pattern": [[0, 1], [0, -1]]},
    {"rows": 1, "cols": 1, "pattern": [["cross"]]},
    {"rows": 1, "cols": 1, "pattern": [[[0, 1]]]},
    {"rows": 2, "cols": 2, "pattern": [[[0, 1]], [[1, 0]]]},
    {"rows": 1, "cols": 3, "pattern": [[0, 5]], "wrap": True},
    {"rows": 1, "cols": 3, "pattern": []},
    [1, 2],
    "board",
    None,
    {"rows": 3},
    {"cols": 3},
    {"rows": 3, "cols": 3, "colour": "red"},
    {"rows": 0, "cols": 3},
    {"rows": 3, "cols": 1 << 21},
    {"rows": True, "cols": 3},
    {"rows": 3.0, "cols": 3},
    {"rows": "3", "cols": 3},
    {"rows": [3], "cols": 3},
    {"rows": 3, "cols": 3, "states": 1},
    {"rows": 3, "cols": 3, "states": 256},
    {"rows": 3, "cols": 3, "states": None},
    {"rows": 3, "cols": 3, "states": 2.0},
    {"rows": 3, "cols": 3, "states": False},
    {"rows": 1 << 14, "cols": 1 << 14},
    {"rows": 3, "cols": 3, "wrap": 1},
    {"rows": 3, "cols": 3, "wrap": None},
    {"rows": 3, "cols": 3, "wrap": "yes"},
    {"rows": 3, "cols": 3, "pattern": "nope"},
    {"rows": 3, "cols": 3, "pattern": 'it\'s "quoted"'},
    {"rows": 3, "cols": 3, "pattern": 5},
    {"rows": 3, "cols": 3, "pattern": None},
    {"rows": 3, "cols": 3, "pattern": {"a": 1}},
    {"rows": 3, "cols": 3, "pattern": [[0, 0, 1]]},
    {"rows": 3, "cols": 3, "pattern": [[0, 2000]]},
    {"rows": 3, "cols": 3, "pattern": [[-1025, 0]]},
    {"rows": 3, "cols": 3, "pattern": [[0, True]]},
    {"rows": 3, "cols": 3, "pattern": [[0, 1.0]]},
    {"rows": 3, "cols": 3, "pattern": [[0, 0]] * 4097},
    {"rows": 3, "cols": 3, "pattern": [[0, 0]] * 4096},
    {"rows": 3, "cols": 3, "pattern": [[0, "a"]]},
    {"rows": 3, "cols": 3, "pattern": [0, 1]},
    {"rows": 3, "cols": 3, "pattern": [[0, 1], "cross"]},
    {"rows": 2, "cols": 2, "pattern": [["cross", "nope"], ["cross", "cross"]]},
    {"rows": 2, "cols": 2, "pattern": [["cross", "cross", "cross"], ["cross", "cross"]]},
    {"rows": 2, "cols": 2, "pattern": [["cross", "cross"], ["cross"]]},
    {"rows": 2, "cols": 2, "pattern": [["cross", "cross"], "cross"]},
    {"rows": 2, "cols": 2, "pattern": [["cross", "cross"], 5]},
    {"rows": 2, "cols": 2, "pattern": [["cross", 5], ["cross", "cross"]]},
    {"rows": 2, "cols": 2, "pattern": [["cross", [[0, 1, 2]]], ["cross", "cross"]]},
    {"rows": 2, "cols": 2, "pattern": [["cross", [[0, 5000]]], ["cross", "cross"]]},
    {"rows": 2, "cols": 2, "pattern": [[[], []], [[], []]]},
    {"rows": 2, "cols": 2, "pattern": [[[[0, 0]], "cross"], ["cross", "cross", "x"]]},
    {"rows": 2, "cols": 2, "pattern": [{"a": 1, "b": 2}, ["cross", "cross"]]},
    {"rows": 2, "cols": 2, "pattern": [["cross", "cross"], {"a": 1, "b": 2}]},
    {"rows": 2, "cols": 2, "pattern": [[{"a": 1}, "cross"], ["cross", "cross"]]},
    {"rows": 2, "cols": 2, "pattern": [[None, "cross"], ["cross", "cross"]]},
    {"rows": 2, "cols": 2, "pattern": [[[1.5, 2], "cross"], ["cross", "cross"]]},
    {"rows": 2, "cols": 2, "pattern": [[[[0, 0], 3], "cross"], ["cross", "cross"]]},
    {"rows": 3, "cols": 3, "locked": 5},
    {"rows": 3, "cols": 3, "locked": "00"},
    {"rows": 3, "cols": 3, "locked": {"r": 0}},
    {"rows": 3, "cols": 3, "locked": [[0, 3]]},
    {"rows": 3, "cols": 3, "locked": [[-1, 0]]},
    {"rows": 3, "cols": 3, "locked": [[0]]},
    {"rows": 3, "cols": 3, "locked": [[0, 0, 0]]},
    {"rows": 3, "cols": 3, "locked": [[0, 0.0]]},
    {"rows": 3, "cols": 3, "locked": [[0, True]]},
    {"rows": 3, "cols": 3, "locked": [0, 1]},
    {"rows": 3, "cols": 3, "locked": [[0, 0]] * 10},
    {"rows": 3, "cols": 3, "locked": [[0, 0]] * 9},
    {"rows": 3, "cols": 3, "locked": [[True, False, True]]},
    {"rows": 2, "cols": 2, "locked": [[True, False], [False, 1]]},
    {"rows": 2, "cols": 2, "locked": [[True, False], [False]]},
    {"rows": 2, "cols": 2, "locked": [[True, False], "ab"]},
    {"rows": 3, "cols": 3, "holes": [[0, 0], [9, 9]]},
    {"rows": 3, "cols": 3, "holes": [[1, 1]], "locked": [[0, 0], [1, 1]]},
    {"rows": 3, "cols": 3, "holes": [[1 << 70, 0]]},
    GRAPH,
    {"effects": [[0, 1], [1]], "states": 4},
    {"effects": [], "states": 2},
    {"effects": [[]], "states": 2, "n_cells": 0},
    {"effects": [[0, 0, 0]], "states": 255, "n_cells": 7},
    {"effects": [[0]], "states": 2, "rows": 3},
    {"effects": [[0]]},
    {"effects": 5, "states": 2},
    {"effects": "01", "states": 2},
    {"effects": [5], "states": 2},
    {"effects": [[0], {"a": 0}], "states": 2},
    {"effects": [[0]], "states": 1},
    {"effects": [[0]], "states": "2"},
    {"effects": [[0]], "states": 2, "n_cells": -1},
    {"effects": [[0]], "states": 2, "n_cells": 2.0},
    {"effects": [[0]], "states": 2, "n_cells": True},
    {"effects": [[0]], "states": 2, "n_cells": 1 << 28},
    {"effects": [[0, 1.0]], "states": 2},
    {"effects": [[0], [True]], "states": 2},
    {"effects": [[0], ["1"]], "states": 2},
    {"effects": [[0], [None]], "states": 2},
    {"effects": [[0], [1 << 31]], "states": 2},
    {"effects": [[0], [-(1 << 31) - 1, 5]], "states": 2},
    {"effects": [[0], [1 << 70]], "states": 2},
    {"effects": [[0], [(1 << 27) + 5]], "states": 2},
    {"effects": [[0], [1 << 27]], "states": 2},
    {"effects": [[0], [(1 << 27) - 1]], "states": 2, "n_cells": 3},
    {"effects": [[0], [3]], "states": 2, "n_cells": 3},
    {"effects": [[0], [-1]], "states": 2, "n_cells": 3},
    {"effects": [[-5]], "states": 2},
    {"effects": (0, 1), "states": 2},
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_the_same_verdict_and_message_as_the_model(i):
    d = CASES[i]
    assert verdict("checker", copy.deepcopy(d)) == verdict("model", copy.deepcopy(d))


def test_every_message_is_met():
    """The cases above reach a good share of distinct messages and valid boards."""
    got = [verdict("checker", copy.deepcopy(d)) for d in CASES]
    assert sum(v[0] == "ok" for v in got) >= 15
    assert len({v[1] for v in got if v[0] == "error"}) >= 80


JSON_VALUES = json.loads(
    '[null, true, false, 0, 1, -1, 2, 3, 5, 255, 256, 1099511627776, 2.0, 1.5, "", "cross", '
    '"x", [], [0], [0, 0], [1, 2], [[0, 0]], [[0, 1], [1, 0]], [[true]], [["cross"]], [[]], '
    '[[0, 0, 0]], {}, {"a": 1}, [null], [[null, 0]], [["cross", "cross"], ["cross", "cross"]]]'
)


def mutate(rng: random.Random, d: dict) -> dict:
    """d with one to three fields set to JSON values (or removed, or added)."""
    d = copy.deepcopy(d)
    keys = list(V._GRID_FIELDS if "rows" in d else V._GRAPH_FIELDS) + ["other"]
    for _ in range(rng.randint(1, 3)):
        k = rng.choice(keys)
        if rng.random() < 0.15:
            d.pop(k, None)
        elif k == "effects" and rng.random() < 0.5:
            d[k] = [[rng.choice(JSON_VALUES[:12])] for _ in range(rng.randint(0, 3))]
        elif k in ("locked", "holes") and rng.random() < 0.5:
            d[k] = [[rng.randint(-1, 4), rng.randint(-1, 4)] for _ in range(rng.randint(0, 3))]
        else:
            d[k] = copy.deepcopy(rng.choice(JSON_VALUES))
    return d


@pytest.mark.parametrize("seed", range(10))
def test_mutated_dicts_get_the_models_verdict(seed):
    rng = random.Random(seed)
    bases = [GOOD, GRAPH, {"rows": 2, "cols": 2, "pattern": [["cross", "knight"], ["square", []]]}]
    for _ in range(300):
        d = mutate(rng, rng.choice(bases))
        assert verdict("checker", copy.deepcopy(d)) == verdict("model", copy.deepcopy(d)), d


# ------------------------------------------------------------------ certificates
def test_every_golden_certificate_gets_its_verdict():
    """js/test/golden/verify.json (written from Python's checker by tests/js): the checker
    reading boards itself gives each case the same verdict and the same text."""
    cases = json.loads((ROOT / "js" / "test" / "golden" / "verify.json").read_text())["cases"]
    assert len(cases) > 300
    for case in cases:
        try:
            got = {"ok": True, "summary": V.summary(case["cert"])}
        except ValueError as e:
            got = {"ok": False, "message": str(e)}
        want = {k: case[k] for k in ("ok", "summary", "message") if k in case}
        assert got == want, case["name"]


def test_a_board_the_certificate_does_not_match_is_rejected():
    """A certificate whose board dict was changed (a lock moved, the pattern or wrap
    changed) fails a step of the check: the board is read, not trusted."""
    b = ml.Board.grid(4, 4, states=3, locked=[(1, 1)])
    cert = ml.Solver(b).solve(b.random_state(rng=3)).certificate()
    assert ml.verify(cert)
    for change in [
        {"locked": [[2, 2]]},
        {"pattern": "square"},
        {"wrap": True},
        {"states": 4},
        {"holes": [[0, 0]]},
    ]:
        bad = copy.deepcopy(cert)
        bad["board"].update(change)
        with pytest.raises(ValueError):
            ml.verify(bad)
