"""Game rules: tap, undo, reset, hint (re-planning), stars, hinted, preview."""

import numpy as np
import pytest

import modlights as ml
from modlights.play.game import PlayScreen


@pytest.fixture
def puzzle():
    return ml.generate(5, 5, 3, "cross", "medium", locked=3, holes=1, seed=5)


def test_solve_by_plan_earns_three_stars(puzzle):
    g = ml.Game(puzzle)
    assert not g.solved and g.stars == 0 and g.taps_used == 0 and not g.hinted
    for pos in puzzle.solution.moves():
        g.tap(pos)
    assert g.solved
    assert g.taps_used == puzzle.min_taps
    assert g.stars == 3 and not g.hinted


def test_star_limits(puzzle):
    limits = puzzle.stars
    pos = puzzle.board.taps[0]
    n = puzzle.board.states
    for extra, _want in [
        (0, 3),
        (limits[2] - limits[3], 2),
        (limits[1] - limits[3], 1),
        (limits[1] - limits[3] + n, 0),
    ]:
        g = ml.Game(puzzle)
        # waste taps in whole cycles of n on one tile (they cancel), then solve
        k = -(-extra // n) * n
        for _ in range(k):
            g.tap(pos)
        for p in puzzle.solution.moves():
            g.tap(p)
        assert g.solved
        assert g.stars == puzzle.stars_for(g.taps_used)
        if extra == 0:
            assert g.stars == 3
    assert puzzle.stars_for(limits[3]) == 3
    assert puzzle.stars_for(limits[2]) == 2
    assert puzzle.stars_for(limits[2] + 1) == 1
    assert puzzle.stars_for(limits[1]) == 1
    assert puzzle.stars_for(limits[1] + 1) == 0


def test_undo_and_reset(puzzle):
    g = ml.Game(puzzle)
    taps = puzzle.board.taps
    s0 = g.state
    g.tap(taps[0])
    s1 = g.state
    g.tap(taps[1])
    assert g.taps_used == 2 and g.moves == [taps[0], taps[1]]
    assert g.undo() == taps[1]
    assert g.taps_used == 1 and np.array_equal(g.state, s1)
    assert g.undo() == taps[0]
    assert np.array_equal(g.state, s0)
    assert g.undo() is None and g.taps_used == 0
    g.tap(taps[2])
    g.tap(taps[2])
    g.reset()
    assert g.taps_used == 0 and np.array_equal(g.state, puzzle.start)


def test_state_is_a_copy(puzzle):
    g = ml.Game(puzzle)
    s = g.state
    s[:] = 0
    assert not g.solved


def test_hints_solve_and_forfeit_stars(puzzle):
    g = ml.Game(puzzle)
    for _ in range(puzzle.min_taps):
        pos = g.hint()
        assert pos in puzzle.board.taps
    assert g.solved and g.hinted and g.hints_used == puzzle.min_taps
    assert g.taps_used == puzzle.min_taps
    assert g.stars == 0
    assert g.hint() is None


def test_hint_replans_after_player_leaves_the_plan(puzzle):
    g = ml.Game(puzzle)
    g.hint()
    # leave the plan: tap a tile outside the minimal plan
    plan = set(puzzle.solution.moves())
    off = next(p for p in puzzle.board.taps if p not in plan)
    g.tap(off)
    hints = 0
    while not g.solved:
        g.hint()
        hints += 1
        assert hints < 200
    # the re-plan is minimal from the new state: taps_used = 2 + min from there
    s = ml.Solver(puzzle.board)
    b = puzzle.board
    after = b.press(b.press(puzzle.start, puzzle.solution.moves()[0]), off)
    assert hints == s.solve(after).length


def test_hinted_survives_reset_and_undo(puzzle):
    g = ml.Game(puzzle)
    g.hint()
    g.undo()
    g.reset()
    assert g.hinted and g.taps_used == 0
    for p in puzzle.solution.moves():
        g.tap(p)
    assert g.solved and g.stars == 0


def test_hint_after_undo_and_reset_still_minimal(puzzle):
    g = ml.Game(puzzle)
    g.hint()
    g.hint()
    g.reset()
    while not g.solved:
        g.hint()
    assert g.taps_used == puzzle.min_taps


def test_bad_taps(puzzle):
    g = ml.Game(puzzle)
    b = puzzle.board
    lock = tuple(map(int, np.argwhere(b.locked)[0]))
    hole = tuple(map(int, np.argwhere(b.holes)[0]))
    for bad in [lock, hole, (5, 0), (0, -1), (1,), "a1", None, (0.5, 1)]:
        with pytest.raises(ValueError):
            g.tap(bad)
        with pytest.raises(ValueError):
            g.preview(bad)
    assert g.taps_used == 0 and np.array_equal(g.state, puzzle.start)


def test_preview_matches_tap(puzzle):
    g = ml.Game(puzzle)
    for pos in puzzle.board.taps:
        before = g.state
        changed = sorted(map(tuple, np.argwhere(puzzle.board.press(before, pos) != before)))
        assert g.preview(pos) == [tuple(map(int, p)) for p in changed]


def test_preview_drops_tiles_that_advance_n_times():
    b = ml.Board.grid(1, 2, 2, "horizontal", wrap=True)  # left == right on 2 columns
    g = ml.Game(ml.Puzzle(b, [[1, 0]]))
    assert g.preview((0, 0)) == [(0, 0)]


def test_game_from_code_and_bad_input(puzzle):
    g = ml.Game(puzzle.code)
    assert g.puzzle == puzzle
    with pytest.raises(ValueError):
        ml.Game(42)
    with pytest.raises(ValueError):
        ml.Game("not a code!")


def test_daily_games_solvable_with_hints():
    for p in ml.daily("2026-11-22"):
        g = ml.Game(p)
        while not g.solved:
            g.hint()
        assert g.taps_used == p.min_taps


# ----------------------------------------------------------------------------- campaign


def test_play_screen_cell_spans_point_at_glyphs():
    p = ml.generate(5, 5, 3, locked=3, holes=1, seed=5)
    for numbers in (False, True):
        scr = PlayScreen(ml.Game(p), numbers=numbers)
        lines = scr.render()
        spans = scr.cell_spans()
        assert len(spans) == p.board.n_cells
        for y, x, w, v in spans:
            text = lines[y][x : x + w].strip()
            if numbers:
                assert text == str(v)
            else:
                assert (text == ".") == (v == 0)


def test_play_screen_keys():
    p = ml.generate(4, 4, 2, locked=4, seed=2)
    scr = PlayScreen(ml.Game(p), clock=iter(range(0, 1000, 7)).__next__)
    first = scr.cursor
    scr.handle_key("right")
    assert scr.cursor == (first[0], (first[1] + 1) % 4)
    scr.handle_key("left")
    scr.handle_key("n")
    assert scr.numbers
    lock = tuple(map(int, np.argwhere(p.board.locked)[0]))
    scr.cursor = lock
    scr.handle_key(" ")
    assert "locked" in scr.message and scr.game.taps_used == 0
    assert scr.handle_key("q") is False
    assert any("time 00:" in line for line in scr.render())


# ---------------------------------------------------------------- the terminal screen
@pytest.mark.parametrize("n", range(2, 10))
def test_play_screen_shades_never_look_like_the_lock_marker(n):
    b = ml.Board.grid(4, 4, n, locked=[(0, 0), (2, 3)], holes=[(3, 0)])
    scr = PlayScreen(ml.Game(ml.Puzzle(b, b.random_state(rng=n))))
    assert not scr.numbers
    lines = scr.render()
    state, locked = b.coerce_state(scr.game.state), b.locked
    glyph_of = {}
    for y, x, w, _v in scr.cell_spans():
        r, c = y - 2, (x - 3) // 4
        glyph = lines[y][x : x + w]
        assert glyph != "*" and glyph.strip()
        assert (lines[y][x + w : x + w + 1] == "*") == bool(locked[r, c])
        assert glyph_of.setdefault(int(state[r, c]), glyph) == glyph
    assert len(set(glyph_of.values())) == len(glyph_of)  # values told apart


@pytest.mark.parametrize("n", [10, 16, 255])
def test_play_screen_shows_numbers_past_9_states(n):
    b = ml.Board.grid(3, 3, n)
    scr = PlayScreen(ml.Game(ml.Puzzle(b, b.random_state(rng=1))))
    assert scr.numbers
    scr.handle_key("n")
    assert scr.numbers and "numbers stay on" in scr.message
    lines = scr.render()
    for y, x, w, v in scr.cell_spans():
        assert lines[y][x : x + w].strip() == str(v)


def test_play_screen_scrolls_a_large_board_with_the_cursor():
    b = ml.Board.grid(40, 60, 3, locked=[(39, 59)])
    scr = PlayScreen(ml.Game(ml.Puzzle(b, b.random_state(rng=1))))
    for key in ["down"] * 30 + ["right"] * 50:
        scr.handle_key(key)
        lines = scr.render(24, 80)
        assert len(lines) <= 24 and max(map(len, lines)) <= 80
        assert sum(line.count("[") for line in lines[2:-5]) == 1  # the cursor is shown
    assert "shown" in "".join(lines)
    r, c = scr.cursor
    spans = scr.cell_spans(24, 80)
    state = scr.game.state
    top = min(y for y, *_ in spans) - 2
    for y, x, w, v in spans:
        assert (
            lines[y][x : x + w].strip() in (str(v), "." if v == 0 else "?")
            or lines[y][x : x + w] in ".:-=+o#%@"
        )
    assert any(lines[y][x - 1] == "[" and v == state[r, c] for y, x, w, v in spans)
    assert top >= 0
    small = scr.render(5, 10)
    assert any("too small" in line for line in small)
    assert scr.cell_spans(5, 10) == []
