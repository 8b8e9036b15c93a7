"""Puzzle handles of the C API (csrc/play/puzzle.c, bound as CPuzzle and
capi_code_encode) against modlights.Puzzle: on random grid puzzles (named and random
patterns, mixed maps, locks, holes, wrap, n 2..9 and large n, odd and even sides) the
same code, the same puzzle back from a code (board, start, equality), the same JSON
reading; on mutated codes and mutated puzzle documents the same message, character for
character; boards a code cannot hold refused with Python's message. Deterministic."""

from __future__ import annotations

import copy
import json
import pathlib

import numpy as np
import pytest

import modlights as ml
from modlights.native import _core

CBoard, CPuzzle = _core.CBoard, _core.CPuzzle
NAMES = list(ml.PATTERNS)


def _dumps(d) -> str:
    return json.dumps(d, separators=(",", ":"))


def _random_board(rng) -> ml.Board:
    rows, cols = int(rng.integers(1, 13)), int(rng.integers(1, 13))
    n = int(rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 16, 101, 255]))

    def pattern():
        if rng.random() < 0.5:
            return NAMES[rng.integers(len(NAMES))]
        return [
            (int(rng.integers(-3, 4)), int(rng.integers(-3, 4))) for _ in range(rng.integers(0, 7))
        ]

    if rng.random() < 0.3:
        pal = [pattern() for _ in range(int(rng.integers(1, 4)))]
        pat = [[pal[rng.integers(len(pal))] for _ in range(cols)] for _ in range(rows)]
    else:
        pat = pattern()
    kind = rng.integers(0, 7, size=(rows, cols)) if rng.random() < 0.5 else np.full((rows, cols), 6)
    kind.flat[int(rng.integers(rows * cols))] = 6  # at least one tile
    return ml.Board.grid(
        rows, cols, n, pat, locked=kind == 0, holes=kind == 1, wrap=bool(rng.random() < 0.3)
    )


def _random_puzzle(rng) -> ml.Puzzle:
    b = _random_board(rng)
    return ml.Puzzle(b, rng.integers(0, 256, size=b.shape))  # reduced mod n, as C does


def _c_board(b: ml.Board):
    return CBoard.from_json(_dumps(b.to_dict()))


def _same_puzzle(c, p: ml.Puzzle) -> None:
    assert c.board.to_json() == _dumps(p.board.to_dict())
    np.testing.assert_array_equal(c.start, p.start)


def _error(f, *args):
    """f(*args)'s ValueError message, or None when it returns."""
    try:
        f(*args)
    except ValueError as e:
        return str(e)
    return None


@pytest.mark.parametrize("seed", range(3))
def test_random_puzzles_have_python_codes_both_ways(seed):
    rng = np.random.default_rng(seed)
    for _ in range(120):
        p = _random_puzzle(rng)
        raw = rng.integers(0, 256, size=p.board.shape)
        p = ml.Puzzle(p.board, raw)
        cb = _c_board(p.board)
        c = CPuzzle.new(cb, raw.astype(np.uint8))
        _same_puzzle(c, p)
        assert _core.capi_code_encode(cb, raw.astype(np.uint8)) == p.code
        assert c.code == p.code
        back = CPuzzle.from_code(p.code)
        _same_puzzle(back, p)
        assert back == c and back.code == p.code
        assert CPuzzle.from_code(f"  {p.code}\n") == c  # surrounding blanks, as Python


def test_boards_a_code_cannot_hold_are_refused_as_python_refuses_them():
    boards = [
        ml.Board.grid(256, 2),
        ml.Board.grid(2, 300, 3, "knight"),
        ml.Board.grid(2, 2, holes=[(0, 0), (0, 1), (1, 0), (1, 1)]),
        ml.Board.grid(3, 3, 2, [(0, 0), (0, 128)]),
        ml.Board.grid(3, 3, 2, [(-129, 0)]),
        ml.Board.grid(3, 3, 2, [(0, 0)] * 256),
        ml.Board.grid(1, 256, 2, [[[(0, k)] for k in range(256)]]),
    ]
    for b in boards:
        start = np.zeros(b.shape, np.uint8)
        want = _error(lambda b, s: ml.Puzzle(b, s).code, b, start)
        assert want is not None
        assert _error(lambda b, s: _core.capi_code_encode(_c_board(b), s), b, start) == want
        assert _error(lambda b, s: CPuzzle.new(_c_board(b), s).code, b, start) == want
    graph = CBoard.from_effects([[0]], 2)
    assert _error(lambda: CPuzzle.new(graph, [0])) == _error(
        lambda: ml.Puzzle(ml.Board.from_effects([[0]], 2), [0])
    )


def _mutated_codes(rng, code: str):
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for _ in range(10):
        s = list(code)
        roll = rng.random()
        i = int(rng.integers(len(s)))
        if roll < 0.4:
            s[i] = alphabet[rng.integers(len(alphabet))]
        elif roll < 0.55:
            s = s[: int(rng.integers(len(s)))]
        elif roll < 0.65:
            s.insert(i, alphabet[rng.integers(len(alphabet))])
        elif roll < 0.75:
            s[i] = str(rng.choice([" ", "=", "é", "\u2028", "\0", "+", "/", "\ud800"]))
        elif roll < 0.85:
            del s[i]
        else:
            s = s + s
        yield "".join(s)


@pytest.mark.parametrize("seed", range(3))
def test_mutated_codes_are_refused_as_python_refuses_them(seed):
    rng = np.random.default_rng(50 + seed)
    refused = total = 0
    for _ in range(60):
        p = _random_puzzle(rng)
        for code in _mutated_codes(rng, p.code):
            want = _error(ml.Puzzle.from_code, code)
            got = _error(CPuzzle.from_code, code)
            assert got == want, code
            if want is None:
                _same_puzzle(CPuzzle.from_code(code), ml.Puzzle.from_code(code))
            refused += want is not None
            total += 1
    assert refused > total // 2


_POOL = [
    None,
    True,
    0,
    1,
    -1,
    3,
    1 << 70,
    2.0,
    "",
    "easy",
    "AQADAwMAaCFAvSnc5Q",
    [],
    [[0]],
    {},
    {"3": 1, "2": 2, "1": 3},
    {"3": 1, "2": 2},
    {"3": 1, "2": 2, "1": True},
    {"rows": 1, "cols": 1},
    {"effects": [[0]], "states": 2},
]


@pytest.mark.parametrize("seed", range(3))
def test_mutated_puzzle_documents_read_as_python_reads_them(seed):
    rng = np.random.default_rng(70 + seed)
    fields = ["board", "start", "code", "stars", "min_taps", "proven", "difficulty", "level"]
    for _ in range(40):
        p = _random_puzzle(rng)
        doc = {"board": p.board.to_dict(), "start": p.start.tolist(), "code": p.code}
        for _ in range(8):
            d = copy.deepcopy(doc)
            for _ in range(int(rng.integers(1, 3))):
                k = fields[rng.integers(len(fields))]
                roll = rng.random()
                if roll < 0.3 and k in d:
                    del d[k]
                elif roll < 0.45 and k == "start" and d.get("start"):
                    row = d["start"][int(rng.integers(len(d["start"])))]
                    row[int(rng.integers(len(row)))] = copy.deepcopy(
                        _POOL[rng.integers(len(_POOL))]
                    )
                else:
                    d[k] = copy.deepcopy(_POOL[rng.integers(len(_POOL))])
            text = _dumps(d)
            want = _error(lambda t: ml.Puzzle.from_dict(json.loads(t)), text)
            assert _error(CPuzzle.from_json, text) == want, text
            if want is None:
                _same_puzzle(CPuzzle.from_json(text), ml.Puzzle.from_dict(json.loads(text)))


@pytest.mark.parametrize(
    "doc",
    [
        "[]",
        "{}",
        '{"code": 5}',
        '{"code": "AQADAwMAaCFAvSnc5Q", "start": [[0]]}',
        '{"code": "AQADAwMAaCFAvSnc5Q", "difficulty": "Easy"}',
        '{"code": "AQADAwMAaCFAvSnc5Q", "min_taps": -1}',
        '{"code": "AQADAwMAaCFAvSnc5Q", "min_taps": 100000000000000000000000}',
        '{"code": "AQADAwMAaCFAvSnc5Q", "proven": 1}',
        '{"code": "AQADAwMAaCFAvSnc5Q", "stars": {"3": 1, "2": 2, "1": 3, "3": 4}}',
        '{"code": "AQADAwMAaCFAvSnc5Q", "stars": {"3": 1, "2": 2, "1": 3.0}}',
        '{"board": {"rows": 2, "cols": 2}, "start": [[0, 1], [1, 2]]}',
        '{"board": {"rows": 2, "cols": 2}, "start": [[0, 1], [1]]}',
        '{"board": {"rows": 2, "cols": 2}, "start": [[0, 1], [1, true]]}',
        '{"board": {"rows": 2, "cols": 2, "holes": [[0, 0]]}, "start": [[1, 1], [1, 1]]}',
        '{"board": {"effects": [[0]], "states": 2}, "start": [0]}',
        '{"board": {"rows": 0, "cols": 2}, "start": []}',
        '{"board": {"rows": 3, "cols": 3, "states": 3}, "start": [[0,0,0],[0,0,0],[0,0,0]],'
        ' "code": "AQADAwMAaCFAvSnc5Q"}',
    ],
)
def test_hand_picked_puzzle_documents(doc):
    want = _error(lambda: ml.Puzzle.from_dict(json.loads(doc)))
    assert _error(lambda: CPuzzle.from_json(doc)) == want


# --------------------------------------------------------------------------- measured
def _solvable_start(b: ml.Board, rng) -> np.ndarray:
    x = rng.integers(0, b.states, size=b.n_taps)
    ax = b.apply(np.zeros(b.shape, dtype=np.int64), b.from_tap_vector(x)).astype(np.int64)
    return (-ax) % b.states


def _c_or_missing(f):
    """f()'s value, or None when the C library lacks the engine (ML_ENOTIMPL)."""
    try:
        return f()
    except RuntimeError as e:
        if "not implemented yet" in str(e):
            return None
        raise


def _same_measure(p: ml.Puzzle, c) -> bool:
    """ml_puzzle_stats_get, ml_puzzle_solution and ml_puzzle_to_json of c answer as p's
    measured properties, Solution.to_dict() and Puzzle.to_dict() (or the same
    Unsolvable message); False when C lacks p's engine."""
    try:
        want = p.to_dict()
    except ml.Unsolvable as e:
        got = _c_or_missing(lambda: _error_any(lambda: c.stats))
        assert got in (None, str(e))
        return got is not None
    st = _c_or_missing(lambda: c.stats)
    if st is None:
        return False
    assert st == {
        "min_taps": p.min_taps,
        "proven": p.proven,
        "difficulty": p.difficulty,
        "stars": p.stars,
        "touched": p.touched,
        "score": p.score,
    }
    assert c.to_json() == _dumps(want)
    taps, length, proven, text = c.solution
    np.testing.assert_array_equal(taps.reshape(p.board.shape), p.solution.taps)
    assert (length, proven) == (p.solution.length, p.solution.proven_minimal)
    assert json.loads(text) == json.loads(json.dumps(p.solution.to_dict()))
    return True


def _error_any(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 - the message is compared
        return str(e)
    return None


@pytest.mark.parametrize("seed", range(2))
def test_measured_parts_are_python_puzzles(seed):
    """Random puzzles (solvable starts, unsolvable ones, every kind of board of
    _random_board): the same min_taps, proven, difficulty, stars, touched, score,
    minimal solution and to_dict JSON, or the same Unsolvable message."""
    rng = np.random.default_rng(100 + seed)
    compared = 0
    for _ in range(60):
        b = _random_board(rng)
        if b.n_taps > 150:
            continue
        start = _solvable_start(b, rng) if rng.random() < 0.8 else rng.integers(0, 255, b.shape)
        p = ml.Puzzle(b, start)
        compared += _same_measure(p, CPuzzle.new(_c_board(b), p.start))
    assert compared >= 30


def test_measured_parts_of_large_kernels_take_the_descent():
    """Past GENERATE_BUDGET coset elements _min_solve descends (budget 0): a 5x5 square
    board of 4 states (|ker A| = 4^9, the budget exactly: searched), 5x8 square boards
    of 3 and 4 states and 5x5 of 5 and 6 states (3^12, 4^12, 5^9, 6^9: past it)."""
    rng = np.random.default_rng(5)
    for r, c, n in ((5, 5, 4), (5, 8, 3), (5, 8, 4), (5, 5, 5), (5, 5, 6)):
        b = ml.Board.grid(r, c, n, "square")
        p = ml.Puzzle(b, _solvable_start(b, rng))
        assert _same_measure(p, CPuzzle.new(_c_board(b), p.start))


# --------------------------------------------------------------------------- generate
GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "js" / "test" / "golden"


def _golden(name: str):
    return json.loads((GOLDEN / name).read_text())


def _same_generated(*args, **kwargs) -> str:
    """ml.generate(*args, **kwargs) and capi_generate: the same puzzle (code, to_dict,
    measured parts) or the same ValueError message; 'ok' / 'error' / 'missing'."""
    try:
        want = ml.generate(*args, **kwargs)
    except ValueError as e:
        try:
            _core.capi_generate(*args, **kwargs)
        except RuntimeError as f:
            assert "not implemented yet" in str(f), (args, kwargs, str(f))
            return "missing"
        except ValueError as f:
            assert str(f) == str(e), (args, kwargs)
            return "error"
        raise AssertionError(f"C made a puzzle where Python says {e}") from None
    got = _c_or_missing(lambda: _core.capi_generate(*args, **kwargs))
    if got is None:
        return "missing"
    assert got.code == want.code, (args, kwargs)
    assert got.to_json() == _dumps(want.to_dict()), (args, kwargs)
    assert got.stats["score"] == want.score and got.stats["touched"] == want.touched
    return "ok"


def _random_settings(rng) -> tuple[tuple, dict]:
    rows, cols = int(rng.integers(1, 8)), int(rng.integers(1, 8))
    n = int(rng.choice([2, 2, 3, 3, 4, 5, 6, 7, 8, 9, 16]))
    kw: dict = {
        "difficulty": str(rng.choice(_core.DIFFICULTIES)),
        "wrap": bool(rng.random() < 0.25),
        "unique": bool(rng.random() < 0.6),
        "seed": int(rng.integers(0, 2**63)) if rng.random() < 0.7 else f"s{rng.integers(99)}",
    }
    r = rng.random()
    pattern: object = NAMES[int(rng.integers(len(NAMES)))]
    if r < 0.15:
        pattern = [(int(rng.integers(-2, 3)), int(rng.integers(-2, 3))) for _ in range(3)]
    for key in ("locked", "holes"):
        u = rng.random()
        if u < 0.35:
            kw[key] = int(rng.integers(0, 4))
        elif u < 0.45:
            m = rng.random((rows, cols)) < 0.15
            kw[key] = m if rng.random() < 0.5 else [tuple(map(int, p)) for p in np.argwhere(m)]
    return (rows, cols, n, pattern), kw


def test_generate_draws_as_python(seed=0):
    """Random settings (sizes 1..7, n 2..16, every named pattern and offsets, wrap,
    unique or not, counts and fixed masks or pairs of locked tiles and holes, int and
    str seeds, every difficulty): the same puzzle or the same message."""
    rng = np.random.default_rng(300 + seed)
    seen = {"ok": 0, "error": 0, "missing": 0}
    for _ in range(40):
        args, kw = _random_settings(rng)
        seen[_same_generated(*args, **kw)] += 1
    assert seen["ok"] >= 20 and seen["error"] >= 2, seen


@pytest.mark.heavy
@pytest.mark.parametrize("seed", range(8))
def test_generate_draws_as_python_many(seed):
    rng = np.random.default_rng(400 + seed)
    for _ in range(60):
        args, kw = _random_settings(rng)
        _same_generated(*args, **kw)


def test_generate_larger_boards_and_mixed_patterns():
    """Boards up to 12 x 12 and 32 x 32 (the algebraic engine), the automatic locks of
    the 5x5 cross, and a mixed board: Python's puzzles."""
    cases = [
        ((5, 5), {"seed": 3}),
        ((12, 12), {"states": 3, "difficulty": "hard", "seed": 5}),
        ((32, 32), {"unique": False, "difficulty": "easy", "seed": 1}),
        ((9, 9), {"pattern": "knight", "states": 5, "locked": 4, "holes": 3, "seed": "k"}),
    ]
    for args, kw in cases:
        assert _same_generated(*args, **kw) == "ok", (args, kw)
    pal = ["cross", [(0, 0), (0, 1)], "square"]
    index = np.arange(36).reshape(6, 6) % 3
    mixed = [[pal[i] for i in row] for row in index]
    want = ml.generate(6, 6, 3, mixed, "medium", seed=11)
    got = _core.capi_generate(6, 6, 3, palette=pal, index=index, seed=11)
    assert got.code == want.code and got.to_json() == _dumps(want.to_dict())


def test_generate_golden_files():
    """js/test/golden/puzzles.json's generate cases and errors.json's generate errors."""
    d = _golden("puzzles.json")
    for case in d["generate"] + d["generate_large_kernel"]:
        got = _core.capi_generate(**case["kwargs"])
        assert got.code == case["code"]
        assert json.loads(got.to_json()) == case["dict"]
    errors = [c for c in _golden("errors.json")["cases"] if c["op"] == "generate"]
    for case in errors:
        kw = dict(case["arg"])
        if any(isinstance(v, (bool, float)) or v is None for k, v in kw.items() if k != "unique"):
            continue  # types the C options cannot hold (the binding's own checks)
        if kw.get("locked") == -1:
            continue  # -1 is "none given" in ml_generate_opts
        with pytest.raises(ValueError) as e:
            _core.capi_generate(**kw)
        assert str(e.value) == case["message"], kw


# --------------------------------------------------------------------------- daily
def _c_daily(date: str):
    y, m, d = _core.date_parse(date)
    return _core.capi_daily(y, m, d)


def test_daily_golden_files():
    """tests/play/golden/daily.json (codes) and puzzles.json's daily (whole documents),
    and errors.json's daily messages for the text dates (ml_date_parse, then ml_daily)."""
    days = json.loads(
        (pathlib.Path(__file__).resolve().parents[1] / "play" / "golden" / "daily.json").read_text()
    )["days"]
    for date, codes in days.items():
        assert [p.code for p in _c_daily(date)] == codes, date
    for date, docs in _golden("puzzles.json")["daily"].items():
        got = _c_daily(date)
        assert [json.loads(p.to_json()) for p in got] == [d["dict"] for d in docs], date
    for case in _golden("errors.json")["cases"]:
        if case["op"] == "daily" and isinstance(case["arg"], str):
            with pytest.raises(ValueError) as e:
                _c_daily(case["arg"])
            assert str(e.value) == case["message"]


def test_daily_as_python_on_dates_and_bad_numbers():
    """ml.daily on a spread of dates (leap days, year ends, far years) equals ml_daily;
    numbers datetime.date refuses are refused with its reason."""
    import datetime

    rng = np.random.default_rng(9)
    dates = [datetime.date(2000, 2, 29), datetime.date(9999, 12, 31), datetime.date(1, 1, 1)]
    dates += [datetime.date.fromordinal(int(rng.integers(1, 3_000_000))) for _ in range(4)]
    for d in dates:
        want = ml.daily(d)
        got = _core.capi_daily(d.year, d.month, d.day)
        assert [p.code for p in got] == [p.code for p in want], d
        assert [p.to_json() for p in got] == [_dumps(p.to_dict()) for p in want], d
    for y, m, d in ((2023, 2, 29), (2026, 0, 5), (2026, 4, 31), (10000, 1, 1), (0, 1, 1)):
        with pytest.raises(ValueError) as e:
            datetime.date(y, m, d)
        with pytest.raises(ValueError) as got:
            _core.capi_daily(y, m, d)
        assert str(got.value).endswith(": " + str(e.value)), (y, m, d, str(got.value))


def test_level_pack_measures_as_python():
    """Every level of examples/levels.txt: ml_puzzle_stats_get, the solution and the JSON
    of the code's puzzle equal Python's measured Puzzle."""
    pack = pathlib.Path(__file__).resolve().parents[2] / "examples" / "levels.txt"
    codes = [ln.split("#")[0].strip() for ln in pack.read_text().splitlines()]
    codes = [c for c in codes if c]
    assert len(codes) >= 5
    for code in codes:
        assert _same_measure(ml.Puzzle.from_code(code), CPuzzle.from_code(code)), code
