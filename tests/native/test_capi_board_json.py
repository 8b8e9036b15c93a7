"""Boards as JSON in the C API (csrc/api/board_json.c: ml_board_from_json and
ml_board_to_json, bound as CBoard.from_json / CBoard.to_json) read and write what
Python's Board.from_dict / Board.to_dict read and write (model/board_dict.py): on random
boards (every named pattern, random offsets, mixed maps, locks, holes, wrap, n 2..9 and
large n, graph boards from effects and from matrices) the C text is
json.dumps(board.to_dict()) and reads back to the same board; on documents mutated
field by field (every JSON type in every field, big ints, NaN, missing and unknown
fields, malformed masks, pattern maps and effect lists) both accept with the same board
or both refuse with the same message, character for character. Deterministic (seeded
generators)."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import modlights as ml
from modlights.model.patterns import PATTERNS
from modlights.native import _core

CBoard = _core.CBoard
NAMES = list(PATTERNS)


def _dumps(d) -> str:
    return json.dumps(d, separators=(",", ":"))


def _outcome_py(doc, max_tiles=None):
    """('ok', the board's JSON) or ('error', message) of Python's Board.from_dict."""
    try:
        b = ml.Board.from_dict(json.loads(doc), max_tiles=max_tiles)
    except ValueError as e:
        return "error", str(e)
    return "ok", _dumps(b.to_dict())


def _outcome_c(doc, max_tiles=None):
    try:
        b = CBoard.from_json(doc, 0 if max_tiles is None else max_tiles)
    except ValueError as e:
        return "error", str(e)
    return "ok", b.to_json()


def _random_pattern(rng):
    if rng.random() < 0.5:
        name = NAMES[rng.integers(len(NAMES))]
        return name if rng.random() < 0.8 else f" {name.upper()} "
    k = int(rng.integers(0, 8))
    return [[int(rng.integers(-3, 4)), int(rng.integers(-3, 4))] for _ in range(k)]


def _random_grid_doc(rng) -> dict:
    rows, cols = int(rng.integers(1, 8)), int(rng.integers(1, 8))
    d: dict = {"rows": rows, "cols": cols}
    if rng.random() < 0.9:
        d["states"] = int(rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 16, 101, 255]))
    if rng.random() < 0.3:
        pal = [_random_pattern(rng) for _ in range(int(rng.integers(1, 4)))]
        d["pattern"] = [[pal[rng.integers(len(pal))] for _ in range(cols)] for _ in range(rows)]
    elif rng.random() < 0.9:
        d["pattern"] = _random_pattern(rng)
    if rng.random() < 0.5:
        kind = rng.integers(0, 6, size=(rows, cols))
        if rng.random() < 0.3:
            d["locked"] = (kind == 0).tolist()
            d["holes"] = (kind == 1).tolist()
        else:
            d["locked"] = [[int(r), int(c)] for r, c in np.argwhere(kind == 0)]
            d["holes"] = [[int(r), int(c)] for r, c in np.argwhere(kind == 1)]
    if rng.random() < 0.4:
        d["wrap"] = bool(rng.random() < 0.5)
    return d


def _random_graph_doc(rng) -> dict:
    m = int(rng.integers(0, 8))
    taps = int(rng.integers(0, 6))
    effects = [
        [int(rng.integers(0, max(m, 1))) for _ in range(int(rng.integers(0, 5)))]
        for _ in range(taps)
    ]
    d: dict = {"effects": effects, "states": int(rng.choice([2, 3, 5, 6, 255]))}
    if rng.random() < 0.5:
        d["n_cells"] = max([c + 1 for e in effects for c in e], default=0) + int(rng.integers(0, 3))
    return d


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("seed", range(4))
def test_random_boards_round_trip_as_python_writes_them(seed):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        doc = _random_grid_doc(rng) if rng.random() < 0.75 else _random_graph_doc(rng)
        want = _outcome_py(_dumps(doc))
        assert want[0] == "ok", (doc, want)
        assert _outcome_c(_dumps(doc)) == want, doc
        # what C writes reads back to itself, in both readers
        assert _outcome_c(want[1]) == want
        assert _outcome_py(want[1]) == want


def test_boards_made_in_python_write_the_same_text():
    rng = np.random.default_rng(7)
    boards = [
        ml.Board.grid(4, 5, 3, "square", locked=[(0, 0)], holes=[(3, 4)], wrap=True),
        ml.Board.grid(3, 3, 2, [[NAMES[(r + c) % 6] for c in range(3)] for r in range(3)]),
        ml.Board.grid(2, 2, 7, [(0, 0), (0, 0), (1, 1)]),
        ml.Board.grid(2000, 3000, 2, "knight"),  # no masks: O(1) text
        ml.Board.from_matrix(rng.integers(0, 4, size=(5, 4)), 4),
        ml.Board.from_matrix(np.zeros((0, 3), np.uint8), 2),
        ml.Board.from_effects([[2, 0, 2], [], [1]], 3, n_cells=6),
    ]
    for b in boards:
        text = _dumps(b.to_dict())
        assert CBoard.from_json(text).to_json() == text
        assert ml.Board.from_dict(json.loads(text)) == b


def test_giant_uniform_boards_and_the_max_tiles_limit():
    big = {"rows": 1 << 20, "cols": 1 << 20, "pattern": "diagonal"}
    for limit in (None, 1 << 40, 1000):
        assert _outcome_c(_dumps(big), limit) == _outcome_py(_dumps(big), limit)
    giant_locked = {**big, "locked": [[0, 0]]}
    assert _outcome_c(_dumps(giant_locked), 1 << 40) == _outcome_py(_dumps(giant_locked), 1 << 40)
    assert _outcome_c(_dumps(giant_locked), 1 << 40)[0] == "error"


# ------------------------------------------------------------------ refusals
_POOL = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    7,
    255,
    256,
    1 << 20,
    (1 << 20) + 1,
    1 << 31,
    -(1 << 31) - 1,
    1 << 63,
    10**30,
    -(10**30),
    0.0,
    2.0,
    -1.5,
    float("nan"),
    float("inf"),
    "",
    "3",
    "cross",
    " Knight\t",
    "nope",
    "é\u2028'\"",
    "x" * 100,
    [],
    [0],
    [0, 1],
    [[0, 1]],
    [[0, 1], [1, 0]],
    [[0, 0.5]],
    [[True, False]],
    [[0, 1, 2]],
    [["cross"]],
    [["cross", 1], ["cross"]],
    [[[0, 1]]],
    [[1 << 64, 0]],
    [[0, -2000]],
    [{}],
    [{"a": 1}],
    [None],
    {},
    {"rows": 1},
]


def _mutations(rng, doc: dict):
    """Documents near doc: one field replaced by a pool value, removed, or added."""
    keys = list(doc) + ["rows", "cols", "states", "pattern", "locked", "holes", "wrap"]
    keys += ["effects", "n_cells", "colour"]
    for _ in range(12):
        d = copy.deepcopy(doc)
        k = keys[rng.integers(len(keys))]
        roll = rng.random()
        if roll < 0.15 and k in d:
            del d[k]
        elif roll < 0.3 and isinstance(d.get(k), list) and d[k]:
            # perturb inside a list: one item replaced by a pool value
            i = int(rng.integers(len(d[k])))
            item = d[k][i]
            if isinstance(item, list) and item and rng.random() < 0.5:
                item[int(rng.integers(len(item)))] = copy.deepcopy(_POOL[rng.integers(len(_POOL))])
            else:
                d[k][i] = copy.deepcopy(_POOL[rng.integers(len(_POOL))])
        elif roll < 0.35 and isinstance(d.get(k), list):
            d[k] = d[k][:-1] if rng.random() < 0.5 else d[k] + d[k][:1]
        else:
            d[k] = copy.deepcopy(_POOL[rng.integers(len(_POOL))])
        yield d


@pytest.mark.parametrize("seed", range(6))
def test_mutated_documents_are_refused_as_python_refuses_them(seed):
    rng = np.random.default_rng(100 + seed)
    checked = refused = 0
    for _ in range(60):
        base = _random_grid_doc(rng) if rng.random() < 0.7 else _random_graph_doc(rng)
        for doc in _mutations(rng, base):
            text = json.dumps(doc, separators=(",", ":"))  # NaN / Infinity as json writes them
            limit = None if rng.random() < 0.8 else int(rng.choice([1, 5, 30, 1 << 40]))
            want = _outcome_py(text, limit)
            assert _outcome_c(text, limit) == want, text
            checked += 1
            refused += want[0] == "error"
    assert refused > checked // 3  # the mutations do reach the refusals


@pytest.mark.parametrize(
    "doc",
    [
        "5",
        '"board"',
        "null",
        '{"rows": 3}',
        '{"rows": 3, "cols": 3, "rows": 0}',
        '{"cols": 3, "rows": 2, "colour": 1, "effects2": 2}',
        '{"effects": [], "states": 2, "rows": 3}',
        '{"effects": [[0, 1], [1 , 2.0]], "states": 2}',
        '{"effects": [[0, 99999999999], [true]], "states": 2}',
        '{"effects": [[0, -3000000000, 3000000000]], "states": 2}',
        '{"effects": [[0, 123456789012345678901234567890]], "states": 2}',
        '{"effects": [[5]], "states": 2, "n_cells": 3}',
        '{"effects": [[200000000]], "states": 2}',
        '{"effects": [[0]], "states": 2, "n_cells": -1}',
        '{"effects": [[0]], "states": 2, "n_cells": 1.0}',
        '{"effects": [[0]], "states": 2, "n_cells": null}',
        '{"rows": 2, "cols": 2, "locked": [[0, 0]], "holes": [[0, 0]]}',
        '{"rows": 2, "cols": 2, "locked": [[5, 0]]}',
        '{"rows": 2, "cols": 2, "holes": [[0, 123456789012345678901234567890]]}',
        '{"rows": 2, "cols": 2, "locked": [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0]]}',
        '{"rows": 2, "cols": 2, "locked": [[true, false], [false]]}',
        '{"rows": 2, "cols": 2, "locked": [[true, false], [false, 1]]}',
        '{"rows": 2, "cols": 2, "locked": {"a": 1}}',
        '{"rows": 1, "cols": 2, "pattern": [[[0, 1]], "cross"]}',
        '{"rows": 1, "cols": 2, "pattern": [["cross", [[0, 1]]]]}',
        '{"rows": 1, "cols": 2, "pattern": [["cross", "plus"]]}',
        '{"rows": 2, "cols": 1, "pattern": [["cross"], "x"]}',
        '{"rows": 2, "cols": 1, "pattern": [["cross"], ["cross", "cross"]]}',
        '{"rows": 1, "cols": 1, "pattern": [{"a": 1}]}',
        '{"rows": 1, "cols": 1, "pattern": [[{}]]}',
        '{"rows": 1, "cols": 1, "pattern": [{"a": 1, "a": 2}]}',
        '{"rows": 1, "cols": 2, "pattern": [{"a": 1, "b": 2, "a": 3}]}',
        '{"rows": 3, "cols": 2, "pattern": [["cross", "cross"], [], []]}',
        '{"rows": 2, "cols": 2, "pattern": [["cross", "plus"], ["cross"]]}',
        '{"rows": 1, "cols": 1, "pattern": [[[NaN]]]}',
        '{"rows": 1, "cols": 1, "pattern": [[[Infinity, 1]]]}',
        '{"rows": 1, "cols": 2, "pattern": [[0, 2000]]}',
        '{"rows": 1, "cols": 2, "pattern": [[0, 123456789012345678901234567890]]}',
        '{"rows": 3, "cols": 3, "pattern": "  SQUARE \\n"}',
        '{"rows": 3, "cols": 3, "pattern": "cro\\u0000ss"}',
        '{"rows": 3, "cols": 3, "wrap": "yes"}',
        '{"rows": 3, "cols": 3, "wrap": 1}',
        '{"rows": 3.0, "cols": 3}',
        '{"rows": 2000, "cols": 2000, "states": 3}',
        '{"rows": 3, "cols": 3, "states": 2.5}',
    ],
)
def test_hand_picked_documents(doc):
    want = _outcome_py(doc, 1000 if '"rows": 2000' in doc else None)
    assert _outcome_c(doc, 1000 if '"rows": 2000' in doc else None) == want


def test_the_golden_from_dict_cases_of_the_javascript_side():
    """js/test/golden/errors.json's from_dict refusals, read by C."""
    import pathlib

    golden = pathlib.Path(__file__).parents[2] / "js" / "test" / "golden" / "errors.json"
    if not golden.exists():
        pytest.skip("no source tree")
    cases = [c for c in json.loads(golden.read_text())["cases"] if c["op"] == "from_dict"]
    assert cases
    for c in cases:
        with pytest.raises(ValueError) as got:
            CBoard.from_json(_dumps(c["arg"]))
        assert str(got.value) == c["message"]


def test_json_syntax_errors_name_the_board_and_the_byte_python_names():
    for text in ("", '{"rows": 3 "cols": 3}', '{"rows": 3,}', "[1, 2", '{"a": tru}'):
        with pytest.raises(json.JSONDecodeError) as py:
            json.loads(text)
        with pytest.raises(ValueError) as got:
            CBoard.from_json(text)
        assert str(got.value) == f"board is not valid JSON: {py.value.msg} at byte {py.value.pos}"


def test_to_json_is_compact_ascii_and_sized_exactly():
    b = CBoard.from_json('{"rows":2,"cols":3,"pattern":[[0,0],[0,1]],"holes":[[1,2]]}')
    text = b.to_json()
    assert text.isascii() and " " not in text
    assert json.loads(text)["pattern"] == [[0, 0], [0, 1]]


# Keys a dict may repeat: some spelled two ways (an escape decodes to the same key).
_KEYS = ['"a"', '"\\u0061"', '"b"', '"\\u00e9"', '"\u00e9"', '"\\u0000"', '""', '"a\'b"']


def _text_with_repeated_keys(rng, depth: int = 0) -> str:
    """JSON text whose dicts draw their keys from a handful (json.dumps cannot write a
    key twice, so the text is built by hand)."""
    r = rng.random()
    if depth < 3 and r < 0.45:
        k = int(rng.integers(0, 7))
        pairs = [
            f"{_KEYS[rng.integers(len(_KEYS))]}: {_text_with_repeated_keys(rng, depth + 1)}"
            for _ in range(k)
        ]
        return "{" + ", ".join(pairs) + "}"
    if depth < 3 and r < 0.6:
        k = int(rng.integers(0, 4))
        return "[" + ", ".join(_text_with_repeated_keys(rng, depth + 1) for _ in range(k)) + "]"
    return str(["1", "-7", "2.5", "null", "true", '"x"', '"\\n\\u00e9"', "[]"][rng.integers(8)])


def _repeats_a_key(text: str) -> bool:
    """Whether a dict of the JSON text has a key twice."""
    twice: list[bool] = []

    def pairs(p):
        twice.append(len(p) > len(dict(p)))
        return dict(p)

    json.loads(text, object_pairs_hook=pairs)
    return any(twice)


@pytest.mark.parametrize("seed", range(4))
def test_dicts_with_a_key_twice_print_as_python_reads_them(seed):
    """A dict with a key twice prints in messages as repr(json.loads(text)): the last
    value at the first key's place (the short repr of a field and the full repr of a
    pattern entry)."""
    rng = np.random.default_rng(4200 + seed)
    repeated = 0
    for _ in range(150):
        value = _text_with_repeated_keys(rng)
        while not value.startswith("{"):
            value = _text_with_repeated_keys(rng)
        repeated += _repeats_a_key(value)
        for doc in (
            f'{{"rows": {value}, "cols": 3, "states": 2}}',
            f'{{"rows": 3, "cols": 3, "states": 2, "pattern": [{value}]}}',
            f'{{"rows": 3, "cols": 3, "states": 2, "pattern": [[{value}, 1]]}}',
        ):
            assert _outcome_c(doc) == _outcome_py(doc), doc
    assert repeated > 20  # the documents do repeat keys
