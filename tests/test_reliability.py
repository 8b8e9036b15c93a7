"""Issue 12, the Python side: each numbered defect has a test here that failed before
the fix (huge floats, iterators, OverflowError, slow rejection, CLI errors, Campaign
files, canonical codes, pickling, the reference chase). Expected answers come from
independent computations (Python ints, the reference engine, Board.apply)."""
from __future__ import annotations

import copy
import io
import itertools
import pickle
import sys
import time

import numpy as np
import pytest

import modlights as ml
from modlights.cli import main
from modlights.model.validation import MAX_BUDGET, as_int, as_int_array, check_budget


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


# ------------------------------------------------------------------ 1 huge integral floats
@pytest.mark.parametrize("n", [2, 3, 4, 7, 255])
@pytest.mark.parametrize("value", [1e19, -1e19, 2.0 ** 63, 2.0 ** 64 + 2 ** 12, 1e300, 12345.0])
def test_1_huge_integral_floats_reduce_exactly(n, value):
    exact = int(value) % n                            # Python ints: exact
    b = ml.Board.from_matrix([[value]], n)
    assert int(b.matrix()[0, 0]) == exact
    g = ml.Board.grid(2, 2, n)
    state = np.full((2, 2), value)
    assert (g.coerce_state(state) == exact).all()
    s = ml.Solver(g)
    if s.solvable(state):
        sol = s.solve(state)
        assert not g.apply(np.full((2, 2), exact), sol.taps).any()
    # the reference engine agrees
    r = ml.Solver(g, backend="reference")
    assert r.solvable(state) == s.solvable(state)


def test_1_issue_reproducer():
    b = ml.Board.grid(2, 2, 7)
    sol = ml.Solver(b).solve(np.full((2, 2), 1e19))
    assert not b.apply(np.full((2, 2), 10 ** 19 % 7), sol.taps).any()
    assert ml.Board.from_matrix([[1e19]], 7).matrix()[0, 0] == 3


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 0.5, 1e19 + 0.5j])
def test_1_non_integral_values_are_a_value_error(bad):
    with pytest.raises(ValueError, match="integer"):
        ml.Board.from_matrix([[1, bad]], 5)
    with pytest.raises(ValueError, match="integer"):
        ml.Solver(ml.Board.grid(1, 2, 5)).solve([[1, bad]])


def test_1_python_ints_beyond_int64_are_exact():
    big = 10 ** 30 + 1
    b = ml.Board.grid(1, 2, 7)
    assert b.coerce_state([[big, -big]]).tolist() == [[big % 7, -big % 7]]
    s = ml.Solver(b)
    states = [[[big, big]], [[big, 0]], [[0, 0]]]
    lengths, _ = s.min_taps_many(states)
    reduced = np.array([[[big % 7, big % 7]], [[big % 7, 0]], [[0, 0]]])
    assert lengths.tolist() == s.min_taps_many(reduced)[0].tolist()
    assert lengths[0] > 0 and lengths[1] == -1 and lengths[2] == 0


# ------------------------------------------------------------------ 2 iterators
def test_2_locked_and_holes_from_iterators_keep_every_position():
    b = ml.Board.grid(3, 3, locked=iter([(1, 1), (2, 2)]), holes=((0, c) for c in range(2)))
    assert sorted(map(tuple, np.argwhere(b.locked))) == [(1, 1), (2, 2)]
    assert sorted(map(tuple, np.argwhere(b.holes))) == [(0, 0), (0, 1)]
    ref = ml.Board.grid(3, 3, locked=[(1, 1), (2, 2)], holes=[(0, 0), (0, 1)])
    assert b == ref


def test_2_pattern_from_a_generator():
    offs = [(0, 0), (0, 1), (1, 0)]
    b = ml.Board.grid(3, 3, 3, (o for o in offs))
    assert b == ml.Board.grid(3, 3, 3, offs)
    # offsets themselves as iterators, and a mixed map of generators
    b2 = ml.Board.grid(2, 2, 3, [iter(o) for o in offs])
    assert b2.pattern == tuple(offs)
    mixed = ((iter(["cross", "horizontal"]) if r == 0 else ["vertical", "square"])
             for r in range(2))
    m = ml.Board.grid(2, 2, 3, mixed)
    assert m == ml.Board.grid(2, 2, 3, [["cross", "horizontal"], ["vertical", "square"]])


def test_2_positions_and_effects_from_iterators():
    b = ml.Board.grid(3, 3)
    s0 = np.zeros((3, 3), int)
    assert (b.press(s0, iter((1, 2))) == b.press(s0, (1, 2))).all()
    g = ml.Board.from_effects((iter([i, (i + 1) % 4]) for i in range(4)), 3)
    assert g == ml.Board.from_effects([[i, (i + 1) % 4] for i in range(4)], 3)


def test_2_endless_iterators_are_refused_not_read_forever():
    t = time.perf_counter()
    with pytest.raises(ValueError, match="more than"):
        ml.Board.grid(3, 3, locked=itertools.repeat((0, 0)))
    with pytest.raises(ValueError, match="more than"):
        ml.Board.grid(3, 3, pattern=itertools.repeat((0, 0)))
    assert time.perf_counter() - t < 2


def test_2_state_iterators_are_a_clear_error():
    with pytest.raises(ValueError, match="iterator"):
        ml.Board.grid(1, 2).coerce_state(iter([[0, 1]]))


# ------------------------------------------------------------------ 3 OverflowError -> ValueError
@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan"), 1e300, 10 ** 30])
def test_3_inf_and_huge_in_offsets_and_positions(bad):
    with pytest.raises(ValueError):
        ml.Board.grid(3, 3, pattern=[(bad, 0)])
    with pytest.raises(ValueError):
        ml.Board.grid(3, 3, locked=[(0, bad)])
    with pytest.raises(ValueError):
        ml.Board.grid(3, 3, holes=[(bad, bad)])
    b = ml.Board.grid(3, 3)
    with pytest.raises(ValueError):
        b.press(np.zeros((3, 3), int), (bad, 0))
    with pytest.raises(ValueError):
        ml.Game(ml.Puzzle(b, np.eye(3, dtype=int))).tap((0, bad))


@pytest.mark.parametrize("budget", [2 ** 64, 2 ** 200, np.uint64(2 ** 64 - 1)])
def test_3_huge_budgets_mean_no_limit(budget):
    b = ml.Board.grid(5, 5)                     # |ker A| = 4: the C search runs
    s = ml.Solver(b)
    state = b.random_state(rng=3)
    sol = s.solve(state, budget=budget)
    ref = ml.Solver(b, backend="reference").solve(state)
    assert sol.proven_minimal and sol.length == ref.length
    lengths, proven = s.min_taps_many(state[None], budget=budget)
    assert lengths[0] == ref.length and proven[0]
    assert check_budget(budget, 1) == (MAX_BUDGET, None)


@pytest.mark.parametrize("cell", [2 ** 27, 2 ** 63, 10 ** 30, -1])
def test_3_huge_cell_indices_in_effects(cell):
    with pytest.raises(ValueError, match="too large|out of range"):
        ml.Board.from_effects([[0], [cell]], 3)
    with pytest.raises(ValueError, match="out of range"):
        ml.Board.from_effects([[cell]], 3, n_cells=4)


@pytest.mark.parametrize("rng", [float("inf"), 1e19, "x", -1, 2.5])
def test_3_bad_random_state_seeds(rng):
    with pytest.raises(ValueError, match="rng"):
        ml.Board.grid(3, 3).random_state(rng=rng)


def test_3_bad_budgets_are_value_errors():
    s = ml.Solver(ml.Board.grid(3, 3))
    for bad in (-1, -2 ** 70, float("nan"), -0.5, True, "10", [1]):
        with pytest.raises(ValueError, match="budget"):
            s.solve(np.zeros((3, 3), int), budget=bad)


def test_3_cli_huge_budget_and_state_numbers(capsys):
    rc, out, err = run(capsys, "solve", "--grid", "5x5", "--seed", "1", "--budget",
                       "18446744073709551616")
    assert rc == 0 and "minimal: yes" in out
    rc, out, err = run(capsys, "solve", "--grid", "3x3", "--state",
                       "0,0,0,0,0,0,0,0,99999999999999999999999")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "out of range" in err
    rc, out, err = run(capsys, "solve", "--grid", "3x3", "--states", "3", "--seed",
                       "9" * 40)
    assert rc == 0


# ------------------------------------------------------------------ 6 slow rejection
@pytest.mark.parametrize("args", [(32, 32, 255, []), (32, 32, 255, [(0, 0)] * 255),
                                  (20, 20, 4, [(0, 1)] * 4)])
def test_6_do_nothing_patterns_rejected_fast(args):
    t = time.perf_counter()
    with pytest.raises(ValueError, match="no tap changes any tile"):
        ml.generate(*args, unique=False, seed=1)
    assert time.perf_counter() - t < 1.0


def test_6_patterns_that_change_something_still_generate():
    p = ml.generate(6, 6, 4, [(0, 1)] * 4 + [(0, 0)], unique=False, seed=2)
    assert p.start.any()
    assert not p.board.apply(p.start, p.solution.taps).any()


# ------------------------------------------------------------------ 8 CLI errors
@pytest.mark.parametrize("argv", [
    ["solve", "--grid", "3x3", "--states", "3" * 5000],
    ["solve", "--grid", "3x3", "--seed", "-1"],
    ["solve", "--grid", "99999999999x3"],
    ["solve", "--grid", "3x3", "--locked", "0,99999999999999999999999"],
    ["solve", "--grid", "3x3", "--pattern=0,99999999999999999999;1,0"],
    ["solve", "--grid", "3x3", "--budget", "nans"],
    ["solve", "--grid", "3x3", "--target", "9" * 30],
    ["info", "--grid", "3x3", "--unknown"],
    ["play", "--daily", "4", "--keys", "q"],
    ["bench", "--repeats", "0"],
    ["generate", "--grid", "3x3", "--locked", "99999999999999999999"],
    ["check", "/nonexistent/levels.txt"],
])
def test_8_every_bad_input_one_line_exit_2(capsys, argv):
    rc, out, err = run(capsys, *argv)
    assert rc == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "internal error" not in err


def test_8_memory_and_overflow_errors_are_one_line(capsys, monkeypatch):
    import modlights.cli as cli
    for exc in (MemoryError("cannot allocate 9 GiB"), OverflowError("too big"),
                RecursionError("deep"), KeyError("bug")):
        def boom(*a, _e=exc, **k):
            raise _e
        monkeypatch.setattr(cli.Solver, "solve", boom)
        rc, out, err = run(capsys, "solve", "--grid", "3x3", "--seed", "1")
        assert rc == 2 and len(err.strip().splitlines()) == 1, err
    def interrupt(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli.Solver, "solve", interrupt)
    rc, out, err = run(capsys, "solve", "--grid", "3x3", "--seed", "1")
    assert rc == 130


def test_8_check_reads_with_a_byte_limit(capsys, monkeypatch, tmp_path):
    import modlights.cli.check as cli
    t = time.perf_counter()
    rc, out, err = run(capsys, "check", "/dev/zero")
    assert rc == 2 and "too large" in err and len(err.strip().splitlines()) == 1
    assert time.perf_counter() - t < 5
    monkeypatch.setattr(cli, "MAX_CHECK_BYTES", 100)
    f = tmp_path / "big.txt"
    f.write_text(ml.generate(3, 3, seed=1).code + "\n" * 200)
    rc, out, err = run(capsys, "check", str(f))
    assert rc == 2 and "more than 100 bytes" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x" * 500)))
    rc, out, err = run(capsys, "check", "-")
    assert rc == 2 and "too large" in err


def test_8_exit_1_only_for_unsolvable_and_failed_checks(capsys, tmp_path):
    rc, _, err = run(capsys, "solve", "--grid", "5x5", "--state", "1" + "0" * 24)
    assert rc == 1 and "no combination of taps" in err
    f = tmp_path / "pack.txt"
    f.write_text("AAAA\n")
    rc, out, _ = run(capsys, "check", str(f))
    assert rc == 1 and "BAD" in out


# ------------------------------------------------------------------ 9 Campaign files
def test_9_deeply_nested_json_is_a_value_error(tmp_path):
    for text in ("[" * 100000 + "]" * 100000, '{"a":' * 50000 + "1" + "}" * 50000):
        with pytest.raises(ValueError, match="nested too deeply|not valid JSON"):
            ml.Campaign.from_json(text)
        f = tmp_path / "deep.json"
        f.write_text(text)
        with pytest.raises(ValueError):
            ml.Campaign.load(f)


def test_9_load_reads_with_a_byte_limit():
    t = time.perf_counter()
    with pytest.raises(ValueError, match="too large"):
        ml.Campaign.load("/dev/zero")
    c = ml.Campaign()
    with pytest.raises(ValueError, match="too large"):
        c.load_progress("/dev/zero")
    assert time.perf_counter() - t < 5
    with pytest.raises(ValueError, match="cannot read"):
        ml.Campaign.load("/nonexistent/save.json")


# ------------------------------------------------------------------ 10 canonical codes
def test_10_issue_reproducer_typo_rejected():
    good = "AQIFBQIAAAEBARxIwH8pjsE"
    assert ml.Puzzle.from_code(good).code == good
    with pytest.raises(ValueError, match="canonical"):
        ml.Puzzle.from_code("AQIFBQIAAAEBARxIwH8pjsF")


def test_10_only_codes_that_reencode_to_themselves_decode():
    rng = np.random.default_rng(5)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for seed in range(12):
        p = ml.generate(3 + seed % 3, 4, 2 + seed % 4, seed=seed)
        code = p.code
        assert ml.Puzzle.from_code(code) == p
        for _ in range(20):
            i = int(rng.integers(len(code)))
            mutated = code[:i] + alphabet[int(rng.integers(64))] + code[i + 1:]
            try:
                q = ml.Puzzle.from_code(mutated)
            except ValueError:
                continue
            assert q.code == mutated and mutated == code


def test_10_named_pattern_written_as_offsets_is_not_canonical():
    import base64
    import zlib
    # a 1x1 cross board written with pattern kind 1 (custom offsets) equal to "cross"
    offs = ml.PATTERNS["cross"]
    body = bytes([1, 1 << 3, 1, 1, 2, len(offs)]) + bytes(
        b & 0xFF for o in offs for b in o) + bytes([0x80])
    body += zlib.crc32(body).to_bytes(4, "big")
    code = base64.urlsafe_b64encode(body).rstrip(b"=").decode()
    with pytest.raises(ValueError, match="canonical"):
        ml.Puzzle.from_code(code)


# ------------------------------------------------------------------ 11 pickling and copies
def _round_trips(obj):
    """Copies of obj by every pickle protocol (0 and 1 too: issue 21), deepcopy, copy."""
    return [pickle.loads(pickle.dumps(obj, protocol=proto))
            for proto in range(pickle.HIGHEST_PROTOCOL + 1)] + \
        [copy.deepcopy(obj), copy.copy(obj)]


@pytest.mark.parametrize("make", [
    lambda: ml.Board.grid(4, 5, 3, "square", locked=[(0, 0)], holes=[(3, 4)], wrap=True),
    lambda: ml.Board.grid(2, 2, 5, [["cross", "horizontal"], [[(0, 0), (1, 1)], "vertical"]]),
    lambda: ml.Board.from_effects([[0, 1], [1, 2], [2]], 4),
    lambda: ml.Board.from_matrix([[1, 2], [3, 4]], 6),
])
def test_11_boards_pickle_and_copy_after_use(make):
    b = make()
    b.matrix(), b.coo(), b.cells, b.taps, b.locked          # caches filled
    for c in _round_trips(b):
        assert c == b and hash(c) == hash(b)
        assert np.array_equal(c.matrix(), b.matrix())


@pytest.mark.parametrize("make,method", [
    (lambda: ml.Board.grid(5, 5), "dense"),
    (lambda: ml.Board.grid(4, 4, 4), "dense"),
    (lambda: ml.Board.grid(30, 30, 3), "chase"),
    (lambda: ml.Board.from_effects([[0, 1], [1, 2], [2, 0]], 6), "dense"),
])
@pytest.mark.parametrize("backend", ["native", "reference"])
def test_11_solvers_pickle_as_board_backend_method_and_refactor(make, method, backend):
    b = make()
    if backend == "reference" and method == "chase":
        return
    s = ml.Solver(b, backend=backend, method=method)
    state = b.random_state(rng=1)
    sol = s.solve(state)                                    # used: engine factored
    s.kernel()
    blob = pickle.dumps(s)
    assert len(blob) < 64 * 1024 + 2 * b.n_cells * b.n_taps  # no engine memory inside
    for c in _round_trips(s):
        assert (c.board, c.backend, c.method) == (b, backend, method)
        assert c.kernel_size == s.kernel_size and c.nullity == s.nullity
        csol = c.solve(state)
        assert csol == sol
        assert repr(c) == repr(s)


def test_11_solution_equality():
    b = ml.Board.grid(3, 3, 3)
    s = ml.Solver(b)
    st = b.random_state(rng=2)
    a, a2 = s.solve(st), s.solve(st)
    assert a == a2 and a is not a2
    other = s.solve(b.random_state(rng=3))
    assert a != other or np.array_equal(a.taps, other.taps)
    assert a != s.solve(st, minimal=False) or a.proven_minimal
    assert a != object() and (a == 1) is False
    for c in _round_trips(a):
        assert c == a and c.moves() == a.moves()


def test_11_puzzle_game_campaign_pickle_after_use():
    p = ml.generate(4, 4, 3, seed=4)
    p.min_taps, p.stars, p.code, p.solution                 # measured
    for c in _round_trips(p):
        assert c == p and c.min_taps == p.min_taps and c.proven == p.proven
        assert c.code == p.code
    g = ml.Game(p)
    g.tap(p.board.taps[0])
    g.hint()                                                 # a plan in progress
    for c in _round_trips(g):
        assert c.puzzle == p and c.moves == g.moves and c.hinted
        assert np.array_equal(c.state, g.state)
        while not c.solved:
            c.hint()
        assert not p.board.apply(p.start, _counts(p.board, c.moves)).any()
    camp = ml.Campaign(seed=7)
    game = camp.play((0, 0), 0)
    for pos in game.puzzle.solution.moves():
        game.tap(pos)
    camp.record((0, 0), 0, game)
    for c in _round_trips(camp):
        assert c.to_json() == camp.to_json()
        assert c.level((0, 0), 0) == camp.level((0, 0), 0)


def test_11_every_object_every_protocol_after_use():
    """Issue 21: Solution, a measured Puzzle, Game (after taps, undo and a hint),
    Campaign, Hardest and the seeded generator pickle with protocols 0 and 1 too, and
    the copies behave as the originals."""
    from modlights.play.prng import SplitMix64
    b = ml.Board.grid(4, 4, 3, locked=[(1, 1)])
    s = ml.Solver(b)
    st = b.random_state(rng=5)
    sol = s.solve(st)
    p = ml.generate(4, 4, 3, seed=9)
    p.min_taps, p.stars, p.difficulty, p.solution           # measured
    g = ml.Game(p)
    taps = [q for q in p.board.taps]
    g.tap(taps[0])
    g.tap(taps[1])
    g.undo()
    g.hint()
    camp = ml.Campaign(seed="s")
    camp.level((0, 0), 1).min_taps                            # a measured level cached
    h = ml.Solver(ml.Board.grid(4, 4, 2)).hardest()
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        c = pickle.loads(pickle.dumps(sol, protocol=proto))
        assert c == sol and c.examined == sol.examined and c.moves() == sol.moves()
        assert not b.apply(st, c.taps).any()
        c = pickle.loads(pickle.dumps(p, protocol=proto))
        assert c == p and (c.min_taps, c.stars, c.difficulty) == \
            (p.min_taps, p.stars, p.difficulty)
        c = pickle.loads(pickle.dumps(g, protocol=proto))
        assert c.moves == g.moves and c.hints_used == g.hints_used
        assert np.array_equal(c.state, g.state)
        assert c.undo() == g.undo() and np.array_equal(c.state, g.state)
        c = pickle.loads(pickle.dumps(camp, protocol=proto))
        assert c.to_json() == camp.to_json() and c.level((0, 0), 1) == camp.level((0, 0), 1)
        c = pickle.loads(pickle.dumps(h, protocol=proto))
        assert c.to_dict() == h.to_dict()
    for seed in (0, "x"):           # a zero state too (a falsy state skips __setstate__)
        r = SplitMix64(seed)
        r.next_u64()
        if seed == 0:
            r._state = 0
        for proto in range(pickle.HIGHEST_PROTOCOL + 1):
            c = pickle.loads(pickle.dumps(r, protocol=proto))
            d = copy.deepcopy(r)
            ref = SplitMix64(seed)
            ref._state = r._state
            want = [ref.next_u64() for _ in range(4)]
            assert [c.next_u64() for _ in range(4)] == want
            assert [d.next_u64() for _ in range(4)] == want


def _counts(board, moves):
    x = np.zeros(board.shape, dtype=np.int64)
    for r, c in moves:
        x[r, c] += 1
    return x % board.states


# ------------------------------------------------------------------ 13 reference + chase
def test_13_reference_backend_never_runs_the_native_chase():
    b = ml.Board.grid(30, 30)
    with pytest.raises(ValueError, match="chase.*reference|reference.*chase"):
        ml.Solver(b, backend="reference", method="chase")
    assert ml.Solver(ml.Board.grid(6, 6), backend="reference").engine == "reference"


@pytest.mark.parametrize("n", [2, 3])
def test_13_info_on_a_200x200_grid_prints_rank_and_nullity(capsys, n):
    rc, out, err = run(capsys, "info", "--grid", "200x200", "--states", str(n))
    assert rc == 0, err
    fields = dict(line.split(":", 1) for line in out.splitlines())
    s = ml.Solver(ml.Board.grid(200, 200, n), method="chase")
    assert int(fields["rank"].split()[0]) == s.rank
    assert int(fields["nullity"].split()[0]) == s.nullity
    # never the dense engine at this size: the chase, or the algebraic engine for
    # the uniform boards it covers
    assert fields["engine"].split()[0] == ml.Solver(ml.Board.grid(200, 200, n)).engine
    assert fields["engine"].split()[0].startswith(("chase-", "algebraic-"))


def test_13_gf2_det_from_the_chase_matches_dense():
    for k in range(24, 30):
        b = ml.Board.grid(k, k)
        assert ml.Solver(b, method="chase").det() == ml.Solver(b, method="dense").det()


# ------------------------------------------------------------------ the shared path
def test_one_validation_path_for_integers():
    assert as_int(3.0, "x") == 3 and as_int(np.int8(-3), "x") == -3
    assert as_int(1e19, "x") == 10 ** 19
    for bad in (True, "3", None, 2.5, float("inf"), float("nan"), [1]):
        with pytest.raises(ValueError, match="x must be"):
            as_int(bad, "x")
    with pytest.raises(ValueError, match="from 2 to 255"):
        as_int(300, "x", 2, 255)
    with pytest.raises(ValueError, match="x must be an int"):
        as_int(3.0, "x", floats=False)
    a = as_int_array([[1e19, 2.0]], "a")
    assert a.dtype == object and a.tolist() == [[10 ** 19, 2]]
    assert as_int_array([1.0, 2.0], "a").dtype == np.int64


# ------------------------------------------------------------------ the terminal game
from modlights.play.game import PlayScreen  # noqa: E402


@pytest.mark.parametrize("n", range(2, 10))
def test_game_shades_never_look_like_the_lock_marker(n):
    b = ml.Board.grid(4, 4, n, locked=[(0, 0), (2, 3)], holes=[(3, 0)])
    scr = PlayScreen(ml.Game(ml.Puzzle(b, b.random_state(rng=n))))
    assert not scr.numbers
    lines = scr.render()
    state, locked = b.coerce_state(scr.game.state), b.locked
    glyph_of = {}
    for y, x, w, v in scr.cell_spans():
        r, c = y - 2, (x - 3) // 4
        glyph = lines[y][x:x + w]
        assert glyph != "*" and glyph.strip()
        assert (lines[y][x + w:x + w + 1] == "*") == bool(locked[r, c])
        assert glyph_of.setdefault(int(state[r, c]), glyph) == glyph
    assert len(set(glyph_of.values())) == len(glyph_of)      # values told apart


@pytest.mark.parametrize("n", [10, 16, 255])
def test_game_more_than_9_states_shows_numbers(n):
    b = ml.Board.grid(3, 3, n)
    scr = PlayScreen(ml.Game(ml.Puzzle(b, b.random_state(rng=1))))
    assert scr.numbers
    scr.handle_key("n")
    assert scr.numbers and "numbers stay on" in scr.message
    lines = scr.render()
    for y, x, w, v in scr.cell_spans():
        assert lines[y][x:x + w].strip() == str(v)


def test_game_large_board_scrolls_with_the_cursor():
    b = ml.Board.grid(40, 60, 3, locked=[(39, 59)])
    scr = PlayScreen(ml.Game(ml.Puzzle(b, b.random_state(rng=1))))
    for key in ["down"] * 30 + ["right"] * 50:
        scr.handle_key(key)
        lines = scr.render(24, 80)
        assert len(lines) <= 24 and max(map(len, lines)) <= 80
        assert sum(line.count("[") for line in lines[2:-5]) == 1     # the cursor is shown
    assert "shown" in "".join(lines)
    r, c = scr.cursor
    spans = scr.cell_spans(24, 80)
    state = scr.game.state
    top = min(y for y, *_ in spans) - 2
    for y, x, w, v in spans:
        assert lines[y][x:x + w].strip() in (str(v), "." if v == 0 else "?") or \
            lines[y][x:x + w] in ".:-=+o#%@"
    assert any(lines[y][x - 1] == "[" and v == state[r, c] for y, x, w, v in spans)
    assert top >= 0
    small = scr.render(5, 10)
    assert any("too small" in line for line in small)
    assert scr.cell_spans(5, 10) == []


# ------------------------------------------------------------------ progress callbacks
class _Stop(Exception):
    pass


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_progress_reports_the_minimal_search(backend):
    b = ml.Board.grid(4, 4, 4)                          # |ker A| = 256 over Z/4
    s = ml.Solver(b, backend=backend)
    calls = []
    state = b.random_state(rng=5)
    sol = s.solve(state, progress=lambda done, total: calls.append((done, total)))
    total = s.kernel_size
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert all(t == total for _, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert sol == ml.Solver(b, backend="reference").solve(state) or \
        sol.length == ml.Solver(b, backend="reference").solve(state).length


def test_progress_can_stop_a_python_search_and_the_solver_stays_usable():
    b = ml.Board.grid(8, 8, 3)                          # |ker A| = 81
    s = ml.Solver(b, backend="reference")
    assert s.kernel_size > 1
    state = b.random_state(rng=2)
    seen = []

    def stop(done, total):
        seen.append(done)
        if done > 0:
            raise _Stop
    with pytest.raises(_Stop):
        s.solve(state, progress=stop)
    sol = s.solve(state)
    assert not b.apply(state, sol.taps).any() and sol.proven_minimal


def test_progress_of_min_taps_many_and_bad_callbacks():
    b = ml.Board.grid(4, 4)                    # |ker A| = 16
    s = ml.Solver(b)
    states = np.stack([b.random_state(rng=i) for i in range(5)])
    calls = []
    s.min_taps_many(states, progress=lambda d, t: calls.append((d, t)))
    # one C call for the batch (the coset fits the budget): told once, at the end
    assert calls == [(5, 5)]
    calls.clear()
    s.min_taps_many(states, budget=2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(i, 5) for i in range(1, 6)]      # a partial search: board by board
    with pytest.raises(ValueError, match="progress"):
        s.solve(states[0], progress=3)


def test_cli_mixed_board_codes_solve_and_describe(capsys):
    """Found by the fuzz test: a puzzle code of a mixed board crashed solve / info."""
    p = ml.generate(3, 3, 4, [["cross", "knight", "vertical"]] * 3, unique=False, seed=3)
    rc, out, err = run(capsys, "solve", "--code", p.code)
    assert rc == 0 and "mixed" in out, err
    rc, out, err = run(capsys, "info", "--code", p.code, "--json")
    doc = __import__("json").loads(out)
    assert rc == 0 and doc["pattern"] == [["cross", "knight", "vertical"]] * 3
    assert doc["nullity"] == ml.Solver(p.board, backend="reference").nullity
