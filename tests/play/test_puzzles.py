"""Puzzles: generate (solvable, brute-force minimum, unique kernels, difficulty order,
reproducibility), puzzle codes (round trips, fuzz), daily (golden file), the PRNG."""

import base64
import datetime
import itertools
import json
import os
import random
import time
import tracemalloc
import zlib

import numpy as np
import pytest

import modlights as ml
from modlights.play.prng import SplitMix64
from modlights.play.puzzles import DIFFICULTIES, TAP_FLOOR, difficulty_of, tap_bands

GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "daily.json")


def brute_min(board, start):
    """Fewest taps over every tap vector (tiny boards only)."""
    A = board.matrix().astype(np.int64)
    n = board.states
    s = board.cell_vector(board.coerce_state(start)).astype(np.int64)
    best = None
    for x in itertools.product(range(n), repeat=board.n_taps):
        x = np.array(x, dtype=np.int64)
        if not ((s + A @ x) % n).any():
            L = int(x.sum())
            best = L if best is None else min(best, L)
    return best


# ----------------------------------------------------------------------------- prng
def test_splitmix64_reference_values():
    # Vigna's splitmix64.c, seed 1234567
    r = SplitMix64(1234567)
    assert [r.next_u64() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_prng_helpers_deterministic():
    a, b = SplitMix64("x"), SplitMix64("x")
    assert [a.randbelow(7) for _ in range(50)] == [b.randbelow(7) for _ in range(50)]
    assert all(0 <= a.random() < 1 for _ in range(100))
    assert sorted(a.sample(range(10), 10)) == list(range(10))
    with pytest.raises(ValueError):
        SplitMix64(1.5)


# ----------------------------------------------------------------------------- generate
@pytest.mark.parametrize(
    "kw",
    [
        dict(rows=3, cols=3),
        dict(rows=5, cols=5, locked=2),
        dict(rows=5, cols=5, states=3, locked=3),
        dict(rows=4, cols=6, states=5, pattern="diagonal", unique=False),
        dict(rows=6, cols=6, holes=3, unique=False, wrap=True),
        dict(rows=5, cols=5, states=4, pattern="square", unique=False),
        dict(rows=4, cols=4, pattern=[[0, 0], [0, 1], [1, 0]], unique=False),
    ],
)
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_generated_puzzles_are_solvable(kw, difficulty):
    p = ml.generate(difficulty=difficulty, seed=11, **kw)
    assert isinstance(p, ml.Puzzle)
    assert p.start.any()
    sol = p.solution
    assert not p.board.apply(p.start, sol.taps).any()
    assert sol.length == p.min_taps
    assert p.stars[3] == p.min_taps < p.stars[2] < p.stars[1]
    assert p.difficulty in DIFFICULTIES
    s = ml.Solver(p.board)
    assert s.solvable(p.start)


@pytest.mark.parametrize(
    "kw",
    [
        dict(rows=2, cols=3, states=2, unique=False),
        dict(rows=3, cols=3, states=2, pattern="square", unique=False),
        dict(rows=3, cols=3, states=2, wrap=True, unique=False),
        dict(rows=2, cols=2, states=3, pattern="diagonal", unique=False),
        dict(rows=2, cols=3, states=3, locked=1, unique=False),
        dict(rows=3, cols=3, states=2, holes=2, unique=False),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_min_taps_equals_brute_force(kw, seed):
    p = ml.generate(difficulty="hard", seed=seed, **kw)
    assert p.proven
    assert p.min_taps == brute_min(p.board, p.start)


@pytest.mark.parametrize(
    "kw",
    [
        dict(rows=5, cols=5, locked=2),
        dict(rows=4, cols=4, locked=4),
        dict(rows=4, cols=4, holes=4),
        dict(rows=4, cols=4, holes=2, locked=2),
        dict(rows=5, cols=5, states=3, locked=3, holes=1),
        dict(rows=6, cols=6),
        dict(rows=3, cols=3, states=4),
    ],
)
def test_unique_gives_trivial_kernel(kw):
    for seed in range(3):
        p = ml.generate(seed=seed, **kw)
        assert ml.Solver(p.board).kernel_size == 1
        assert p.proven
        assert int(p.board.locked.sum()) == kw.get("locked", 0)
        assert int(p.board.holes.sum()) == kw.get("holes", 0)


@pytest.mark.parametrize("rows,cols,states", [(4, 4, 2), (5, 5, 2), (5, 5, 3)])
def test_unique_impossible_says_why(rows, cols, states):
    with pytest.raises(ValueError, match=r"unique.*\|ker A\|"):
        ml.generate(rows, cols, states, seed=1, locked=0, holes=0)
    # allowed without the uniqueness demand
    p = ml.generate(rows, cols, states, seed=1, unique=False)
    assert p.start.any()
    # left unset, locked/holes let the generator lock as few tiles as uniqueness needs
    p = ml.generate(rows, cols, states, seed=1)
    s = ml.Solver(p.board)
    assert s.kernel_size == 1 and not p.board.holes.any()
    full = ml.Solver(ml.Board.grid(rows, cols, states))
    assert full.nullity <= int(p.board.locked.sum()) <= full.nullity + 3
    assert ml.generate(rows, cols, states, seed=1) == p  # reproducible


def test_unique_impossible_with_placements():
    # 1x4 with a 'horizontal' pattern and 3 of 4 tiles locked: one tap column, 4 rows:
    # kernel is trivial unless... use a pattern that does nothing to force failure.
    with pytest.raises(ValueError, match="unique"):
        ml.generate(3, 3, 2, pattern=[(0, 0), (0, 0)], locked=1, seed=0)


def test_difficulty_ordering_on_average():
    scores, taps = {}, {}
    for d in DIFFICULTIES:
        ps = [ml.generate(5, 5, 3, "cross", d, locked=3, seed=s) for s in range(8)]
        scores[d] = np.mean([p.score for p in ps])
        taps[d] = np.mean([p.min_taps for p in ps])
    order = [scores[d] for d in DIFFICULTIES]
    assert order == sorted(order) and len(set(order)) == 4
    assert [taps[d] for d in DIFFICULTIES] == sorted(taps[d] for d in DIFFICULTIES)


@pytest.mark.parametrize(
    "kw",
    [
        dict(rows=5, cols=5),
        dict(rows=5, cols=5, states=4, wrap=True),
        dict(rows=4, cols=4, pattern="square"),
    ],
)
def test_difficulty_ordering_with_a_kernel(kw):
    means = []
    for d in DIFFICULTIES:
        ps = [ml.generate(difficulty=d, seed=s, unique=False, **kw) for s in range(6)]
        means.append(np.mean([p.score for p in ps]))
        # expert's band may lie past the largest fewest taps of a board with a big
        # kernel (the 5 x 5 Z/4 torus needs at most 18): the closest puzzle then
        if d != "expert":
            assert sum(p.difficulty == d for p in ps) >= 4
    assert means == sorted(means) and len(set(means)) == 4


def test_same_codes_in_a_fresh_process():
    import subprocess
    import sys

    prog = (
        "import modlights as ml; print(ml.generate(5, 5, 3, locked=3, seed=8).code, "
        "ml.generate(5, 5, 2, 'square', 'hard', unique=False, seed=8).code)"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run(
        [sys.executable, "-c", prog], capture_output=True, text=True, env=env, check=True
    ).stdout.split()
    assert out == [
        ml.generate(5, 5, 3, locked=3, seed=8).code,
        ml.generate(5, 5, 2, "square", "hard", unique=False, seed=8).code,
    ]


@pytest.mark.parametrize("d", DIFFICULTIES)
def test_requested_difficulty_is_met_on_normal_boards(d):
    for seed in range(4):
        assert ml.generate(6, 6, 2, "cross", d, seed=seed).difficulty == d
        assert ml.generate(5, 5, 3, "cross", d, locked=3, seed=seed).difficulty == d


def test_same_seed_same_puzzle():
    a = ml.generate(5, 5, 3, locked=3, holes=1, seed=42)
    b = ml.generate(5, 5, 3, locked=3, holes=1, seed=42)
    assert a == b and a.code == b.code
    assert ml.generate(5, 5, 3, locked=3, holes=1, seed="42") == ml.generate(
        5, 5, 3, locked=3, holes=1, seed="42"
    )
    others = {ml.generate(5, 5, 3, locked=3, holes=1, seed=s).code for s in range(10)}
    assert len(others) >= 8
    r1 = ml.generate(6, 6, seed=5)
    assert r1.start.any()


def test_generate_pinned_codes():
    # Same on every machine and NumPy version (the generator only uses play/prng.py).
    assert ml.generate(6, 6, 2, seed=0).code == ml.generate(6, 6, 2, seed=0).code
    assert ml.generate(6, 6, 2, "cross", "hard", seed=0).code == "AQAGBgIAfnf6hLAUNNFG"


@pytest.mark.parametrize("bad", ["Easy!", "", "impossible", None, 3, "normal", "Easy", " hard"])
def test_bad_difficulty(bad):
    with pytest.raises(ValueError, match="difficulty"):
        ml.generate(difficulty=bad)


@pytest.mark.parametrize(
    "kw",
    [
        dict(locked=-1),
        dict(holes=True),
        dict(locked=1.5),
        dict(locked=20, holes=5),
        dict(rows=0),
        dict(cols=-2),
        dict(states=1),
        dict(states=256),
        dict(pattern="nope"),
        dict(rows=100, cols=100),
    ],
)
def test_bad_generate_arguments(kw):
    with pytest.raises(ValueError):
        ml.generate(**{"unique": False, **kw})


# ----------------------------------------------------------------------------- codes
def _roundtrip(board, seed=0):
    rng = np.random.default_rng(seed)
    start = rng.integers(0, board.states, size=board.shape)
    p = ml.Puzzle(board, start)
    code = p.code
    assert isinstance(code, str) and code.isascii()
    assert all(ch.isalnum() or ch in "-_" for ch in code)
    q = ml.Puzzle.from_code(code)
    assert q == p and q.code == code
    assert q.board == board
    assert np.array_equal(q.start, p.start)
    assert q.board.locked.tolist() == board.locked.tolist()
    assert q.board.holes.tolist() == board.holes.tolist()
    assert q.board.wrap == board.wrap
    return code


@pytest.mark.parametrize("name", list(ml.PATTERNS))
def test_code_roundtrip_named(name):
    _roundtrip(ml.Board.grid(4, 5, 3, name))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 128, 129, 254, 255])
def test_code_roundtrip_states(n):
    _roundtrip(ml.Board.grid(3, 4, n, "cross", locked=[(0, 1)], holes=[(2, 2)]), seed=n)


def test_code_roundtrip_features():
    _roundtrip(ml.Board.grid(5, 5, 2, [(0, 1), (1, 0), (-3, 2)]))  # custom, no (0,0)
    _roundtrip(ml.Board.grid(4, 4, 5, [(0, 0), (0, 0), (127, -128)]))  # repeats, extremes
    _roundtrip(ml.Board.grid(3, 3, 2, []))  # empty pattern
    _roundtrip(ml.Board.grid(6, 7, 3, "knight", wrap=True))
    _roundtrip(ml.Board.grid(1, 1, 2, "cross"))
    _roundtrip(ml.Board.grid(255, 1, 2, "vertical"))
    _roundtrip(ml.Board.grid(2, 255, 255, "horizontal", wrap=True))
    locked = np.zeros((5, 6), bool)
    locked[::2, ::3] = True
    holes = np.zeros((5, 6), bool)
    holes[1, 1] = holes[4, 5] = True
    _roundtrip(ml.Board.grid(5, 6, 4, "square", locked=locked, holes=holes, wrap=True))
    mixed = [
        ["cross", "square", [(0, 0), (2, 2)]],
        ["knight", "cross", "cross"],
        [[(0, 0)], "diagonal", [(0, 1), (1, 0)]],
    ]
    _roundtrip(ml.Board.grid(3, 3, 3, mixed, locked=[(1, 1)], holes=[(0, 2)]))
    _roundtrip(ml.Board.grid(2, 2, 2, [["cross", "cross"], ["cross", "cross"]]))  # mixed, 1 entry
    big_mixed = [
        [[(0, 0), (k % 7 - 3, k // 7)] for k in range(r * 20, r * 20 + 20)] for r in range(15)
    ]  # 300 distinct > 255
    with pytest.raises(ValueError, match="255"):
        _ = ml.Puzzle(ml.Board.grid(15, 20, 2, big_mixed), np.zeros((15, 20))).code


def test_code_roundtrip_generated_and_short():
    p = ml.generate(5, 5, 3, locked=3, holes=1, seed=3)
    assert ml.Puzzle.from_code(p.code) == p
    assert len(p.code) < 40
    assert ml.Puzzle.from_code(" " + p.code + "\n") == p
    assert p != ml.generate(5, 5, 3, locked=3, holes=1, seed=4)
    assert (p == 5) is False


def test_puzzle_rejects_graph_boards_and_bad_start():
    g = ml.Board.from_effects([[0, 1], [1]], 2)
    with pytest.raises(ValueError):
        ml.Puzzle(g, np.zeros(2))
    with pytest.raises(ValueError):
        ml.Puzzle(ml.Board.grid(3, 3), np.zeros((2, 2)))


def _payload(body: bytes) -> str:
    data = body + zlib.crc32(body).to_bytes(4, "big")
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.mark.parametrize(
    "code,match",
    [
        ("", "empty"),
        ("!!!!", "base64url"),
        ("AQ", "short"),
        ("A" * 200_000, "too long"),
        (_payload(bytes([2, 0, 5, 5, 2, 0]) + b"\0" * 4), "version"),
        (_payload(bytes([1, 0, 255, 255, 255, 0]) + b"\0" * 4), "length|truncated"),
        (_payload(bytes([1, 0, 0, 5, 2, 0]) + b"\0" * 4), "board"),
        (_payload(bytes([1, 0, 5, 5, 1, 0]) + b"\0" * 4), "states"),
        (_payload(bytes([1, 0, 5, 5, 2, 9]) + b"\0" * 4), "pattern id"),
        (_payload(bytes([1, 0x80, 5, 5, 2, 0]) + b"\0" * 4), "flags"),
        (_payload(bytes([1, 0x18, 5, 5, 2, 0]) + b"\0" * 4), "kind"),
        (_payload(bytes([1, 0x08, 5, 5, 2, 200, 1, 1]) + b"\0" * 4), "truncated"),
    ],
)
def test_bad_codes(code, match):
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=match):
            ml.Puzzle.from_code(code)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # refused before anything board-sized is allocated


def test_bad_code_types_and_checksum():
    for bad in (None, 5, b"AQID", ["x"]):
        with pytest.raises(ValueError):
            ml.Puzzle.from_code(bad)
    code = ml.generate(6, 6, seed=1).code
    flipped = code[:8] + ("A" if code[8] != "A" else "B") + code[9:]
    with pytest.raises(ValueError, match="checksum|truncated|length"):
        ml.Puzzle.from_code(flipped)
    with pytest.raises(ValueError):
        ml.Puzzle.from_code(code[:-3])
    # value out of range for n (valid checksum): 3 states, 2 bits, value 3
    body = bytes([1, 0, 1, 1, 3, 0, 0b11000000])
    with pytest.raises(ValueError, match="out of range"):
        ml.Puzzle.from_code(_payload(body))
    # non-zero padding bits
    body = bytes([1, 0, 1, 1, 2, 0, 0b01000000])
    with pytest.raises(ValueError, match="padding"):
        ml.Puzzle.from_code(_payload(body))
    # lock and hole on the same tile
    body = bytes([1, 0b110, 1, 2, 2, 0, 0b10100000])
    with pytest.raises(ValueError, match="both"):
        ml.Puzzle.from_code(_payload(body))


def _check_fuzz(code):
    """A code decodes or raises ValueError, round-trips, and decoding allocates little
    (memory, not time, is the bound: the machine is shared and times are noisy)."""
    tracemalloc.start()
    try:
        try:
            p = ml.Puzzle.from_code(code)
        except ValueError:
            pass
        else:
            assert ml.Puzzle.from_code(p.code) == p
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20, (peak, code[:60])


def test_fuzz_codes():
    rnd = random.Random(1234)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    seeds = [
        ml.generate(5, 5, 3, locked=3, holes=1, seed=1).code,
        ml.Puzzle(
            ml.Board.grid(3, 3, 3, [["cross", "square", "knight"]] * 3, wrap=True), np.ones((3, 3))
        ).code,
        ml.Puzzle(ml.Board.grid(20, 20, 255, [(0, 0), (3, -4)]), np.full((20, 20), 254)).code,
    ]
    for _ in range(400):
        _check_fuzz("".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 120))))
        _check_fuzz("".join(chr(rnd.randint(0, 0x2FF)) for _ in range(rnd.randint(0, 40))))
    for code in seeds:
        for _ in range(300):
            c = list(code)
            for _ in range(rnd.randint(1, 3)):
                op = rnd.randint(0, 3)
                i = rnd.randint(0, max(0, len(c) - 1))
                if op == 0 and c:
                    c[i] = rnd.choice(alphabet)
                elif op == 1 and c:
                    del c[i]
                elif op == 2:
                    c.insert(i, rnd.choice(alphabet))
                else:
                    c = c[:i]
            _check_fuzz("".join(c))
    # valid checksum, random body: exercises the parser past the CRC
    for _ in range(1500):
        head = bytes(
            [1, rnd.randint(0, 0x1F), rnd.randint(0, 255), rnd.randint(0, 255), rnd.randint(0, 255)]
        )
        tail = bytes(rnd.randint(0, 255) for _ in range(rnd.randint(0, 60)))
        _check_fuzz(_payload(head + tail))
    for _ in range(300):
        rows, cols, n = rnd.randint(1, 6), rnd.randint(1, 6), rnd.randint(2, 9)
        bits = rows * cols * (n - 1).bit_length()
        body = bytes([1, 0, rows, cols, n, rnd.randint(0, 6)]) + bytes(
            rnd.randint(0, 255) for _ in range((bits + 7) // 8 + rnd.randint(-1, 1))
        )
        _check_fuzz(_payload(body))


# ----------------------------------------------------------------------------- daily
def test_daily_golden():
    with open(GOLDEN) as f:
        doc = json.load(f)
    assert doc["scheme"] == ml.play.puzzles.DAILY_SCHEME
    for day, codes in doc["days"].items():
        ps = ml.daily(day)
        assert [p.code for p in ps] == codes, day
        assert [p.difficulty for p in ps] == ["easy", "medium", "hard"]
        assert all(ml.Solver(p.board).kernel_size == 1 and p.proven for p in ps)


def test_daily_accepts_dates():
    d = datetime.date(2026, 11, 22)
    assert ml.daily(d) == ml.daily("2026-11-22")
    assert ml.daily(datetime.datetime(2026, 11, 22, 23, 59)) == ml.daily(d)
    assert ml.daily("2026-11-22") != ml.daily("2026-11-23")
    assert len(ml.daily("2026-11-22")) == 3


@pytest.mark.parametrize(
    "bad",
    [
        "2026/11/22",
        "22-11-2026",
        "2026-13-01",
        "2026-02-30",
        "yesterday",
        "",
        20261122,
        1.5,
        ["2026-11-22"],
    ],
)
def test_daily_bad_dates(bad):
    with pytest.raises(ValueError, match="date"):
        ml.daily(bad)


def test_too_few_locks_for_the_nullity_says_so():
    with pytest.raises(ValueError, match="at least 9 locked tiles"):
        ml.generate(5, 5, 2, "square", locked=3, seed=1)
    p = ml.generate(5, 5, 2, "square", locked=9, seed=1)
    assert ml.Solver(p.board).kernel_size == 1


def test_fixed_lock_and_hole_positions():
    p = ml.generate(5, 5, 2, locked=[(0, 0), (0, 1)], seed=1)
    assert [tuple(x) for x in np.argwhere(p.board.locked).tolist()] == [(0, 0), (0, 1)]
    assert ml.Solver(p.board).kernel_size == 1
    with pytest.raises(ValueError, match="unique"):  # corners leave |ker A| = 2
        ml.generate(5, 5, 2, locked=[(0, 0), (4, 4)], seed=1)
    holes = np.zeros((4, 4), bool)
    holes[0, 0] = True
    q = ml.generate(4, 4, 2, holes=holes, locked=3, seed=2)
    assert q.board.holes[0, 0] and int(q.board.locked.sum()) == 3
    assert ml.Solver(q.board).kernel_size == 1
    with pytest.raises(ValueError, match="both"):
        ml.generate(4, 4, locked=[(1, 1)], holes=[(1, 1)], unique=False, seed=1)
    with pytest.raises(ValueError):
        ml.generate(4, 4, locked=[(9, 9)], unique=False, seed=1)
    with pytest.raises(ValueError, match="unique"):
        ml.generate(4, 4, 2, holes=[(0, 0)], seed=1)


# ---------------------------------------------------------------- codes, patterns that do nothing
@pytest.mark.parametrize(
    "args", [(32, 32, 255, []), (32, 32, 255, [(0, 0)] * 255), (20, 20, 4, [(0, 1)] * 4)]
)
def test_generate_refuses_patterns_that_change_nothing_fast(args):
    t = time.perf_counter()
    with pytest.raises(ValueError, match="no tap changes any tile"):
        ml.generate(*args, unique=False, seed=1)
    assert time.perf_counter() - t < 1.0


def test_generate_takes_patterns_that_change_something():
    p = ml.generate(6, 6, 4, [(0, 1)] * 4 + [(0, 0)], unique=False, seed=2)
    assert p.start.any()
    assert not p.board.apply(p.start, p.solution.taps).any()


def test_code_with_a_changed_last_character_is_not_canonical():
    good = "AQIFBQIAAAEBARxIwH8pjsE"
    assert ml.Puzzle.from_code(good).code == good
    with pytest.raises(ValueError, match="canonical"):
        ml.Puzzle.from_code("AQIFBQIAAAEBARxIwH8pjsF")


def test_only_codes_that_reencode_to_themselves_decode():
    rng = np.random.default_rng(5)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for seed in range(12):
        p = ml.generate(3 + seed % 3, 4, 2 + seed % 4, seed=seed)
        code = p.code
        assert ml.Puzzle.from_code(code) == p
        for _ in range(20):
            i = int(rng.integers(len(code)))
            mutated = code[:i] + alphabet[int(rng.integers(64))] + code[i + 1 :]
            try:
                q = ml.Puzzle.from_code(mutated)
            except ValueError:
                continue
            assert q.code == mutated and mutated == code


def test_named_pattern_written_as_offsets_is_not_canonical():
    import base64
    import zlib

    # a 1x1 cross board written with pattern kind 1 (custom offsets) equal to "cross"
    offs = ml.PATTERNS["cross"]
    body = (
        bytes([1, 1 << 3, 1, 1, 2, len(offs)])
        + bytes(b & 0xFF for o in offs for b in o)
        + bytes([0x80])
    )
    body += zlib.crc32(body).to_bytes(4, "big")
    code = base64.urlsafe_b64encode(body).rstrip(b"=").decode()
    with pytest.raises(ValueError, match="canonical"):
        ml.Puzzle.from_code(code)


# ----------------------------------------------------------------------------- tap bands
def _brute_bands(T, n):
    """The bands of the module docstring from floats, for comparison with the integer
    version (exact for these sizes: no product lands within 1e-9 of an integer)."""
    import math

    u = math.sqrt(T * (n - 1))
    los = [TAP_FLOOR]
    for f in (1, 1.6, 2.4):
        los.append(max(los[-1] + 1, math.ceil(f * u - 1e-9)))
    top = max(los[3], math.floor(3.6 * u + 1e-9))
    return dict(zip(DIFFICULTIES, zip(los, [los[1] - 1, los[2] - 1, los[3] - 1, top])))


@pytest.mark.parametrize(
    "T,n",
    [
        (1, 2),
        (4, 2),
        (9, 2),
        (23, 2),
        (25, 2),
        (22, 3),
        (32, 3),
        (144, 9),
        (1024, 2),
        (1024, 255),
        (100, 5),
        (49, 4),
    ],
)
def test_tap_bands_partition_and_grow(T, n):
    b = tap_bands(T, n)
    assert b == _brute_bands(T, n)
    assert b["easy"][0] == TAP_FLOOR
    for d1, d2 in zip(DIFFICULTIES, DIFFICULTIES[1:]):
        assert b[d1][0] <= b[d1][1] == b[d2][0] - 1
    assert b["expert"][0] <= b["expert"][1]
    for m in range(0, b["expert"][1] + 3):
        d = difficulty_of(m, T, n)
        lo, hi = b[d]
        assert lo <= m <= hi or (d == "easy" and m < lo) or (d == "expert" and m > hi)


def test_twelve_by_twelve_nine_state_medium_is_a_few_dozen_taps():
    # a 12 x 12, 9-state medium puzzle once needed 211 taps
    for seed in range(3):
        p = ml.generate(12, 12, 9, "cross", "medium", seed=seed, unique=False)
        lo, hi = p.bands["medium"]
        assert p.proven and lo <= p.min_taps <= hi <= 60, (seed, p.min_taps)


@pytest.mark.parametrize(
    "kw",
    [
        dict(rows=5, cols=5, locked=2),
        dict(rows=5, cols=5, states=3, locked=3),
        dict(rows=6, cols=6, states=3, locked=2, holes=2),
        dict(rows=7, cols=7),
        dict(rows=4, cols=8, states=5),
        dict(rows=8, cols=8, states=4, pattern="knight", unique=False),
        dict(rows=5, cols=5, unique=False),
        dict(rows=10, cols=10, states=7),
        dict(rows=5, cols=5, states=6, pattern="square", locked=9),
    ],
)
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_fewest_taps_lie_in_the_requested_band(kw, difficulty):
    for seed in range(6):
        p = ml.generate(difficulty=difficulty, seed=seed, **kw)
        lo, hi = p.bands[difficulty]
        assert p.proven, (kw, seed)
        assert lo <= p.min_taps <= hi, (kw, seed, p.min_taps, lo, hi)
        assert p.difficulty == difficulty


def test_unreachable_band_gives_the_closest_puzzle():
    # every start of the 6 x 6 torus needs fewer taps than expert's band starts at
    for seed in range(3):
        p = ml.generate(6, 6, 2, "cross", "expert", seed=seed, wrap=True, unique=False)
        hard = ml.generate(6, 6, 2, "cross", "hard", seed=seed, wrap=True, unique=False)
        assert p.proven and p.min_taps >= hard.min_taps and p.difficulty == "hard"


def test_daily_easy_needs_at_least_the_floor():
    day = datetime.date(2026, 11, 1)
    for i in range(60):
        ps = ml.daily(day + datetime.timedelta(days=i))
        assert ps[0].min_taps >= TAP_FLOOR, day + datetime.timedelta(days=i)
        assert [p.difficulty for p in ps] == ["easy", "medium", "hard"]
    assert ml.daily("2026-11-26")[0].min_taps >= TAP_FLOOR
