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
    for extra, want in [(0, 3), (limits[2] - limits[3], 2), (limits[1] - limits[3], 1),
                        (limits[1] - limits[3] + n, 0)]:
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
    b = ml.Board.grid(1, 2, 2, "horizontal", wrap=True)     # left == right on 2 columns
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
def _win(c, group, level, hint=False):
    g = c.play(group, level)
    if hint:
        g.hint()
        g.reset()
    for p in c.level(group, level).solution.moves():
        g.tap(p)
    return c.record(group, level, g)


def test_campaign_levels_reproducible_and_unique():
    a, b = ml.Campaign(), ml.Campaign()
    assert a.level((0, 0), 0) == b.level((0, 0), 0)
    assert ml.Campaign("other").level((0, 0), 5) != a.level((0, 0), 5)
    for grp in [(0, 0), (2, 2), (4, 4)]:
        p = a.level(grp, 5)
        assert ml.Solver(p.board).kernel_size == 1 and p.proven
    assert a.level((4, 4), 0).board.shape[0] > a.level((0, 0), 0).board.shape[0]


def test_campaign_opening_rules():
    c = ml.Campaign()
    assert c.open_groups() == [(0, 0)] and not c.is_open((0, 1))
    with pytest.raises(ValueError, match="closed"):
        c.play((1, 0), 0)
    for i in range(4):
        assert _win(c, (0, 0), i) == 3
    assert c.stars((0, 0)) == 12 and not c.is_open((1, 0))
    assert _win(c, (0, 0), 4, hint=True) == 0          # hinted: no stars
    assert c.stars((0, 0)) == 12
    _win(c, (0, 0), 5)
    assert c.stars((0, 0)) == 15
    assert c.open_groups() == [(0, 0), (0, 1), (1, 0)]
    assert not c.is_open((1, 1))
    # a worse replay keeps the best
    g = c.play((0, 0), 0)
    for p in c.level((0, 0), 0).solution.moves():
        g.tap(p)
    pos = c.level((0, 0), 0).board.taps[0]
    g.tap(pos), g.tap(pos)
    c.record((0, 0), 0, g)
    assert c.best((0, 0), 0) == {"taps": c.level((0, 0), 0).min_taps, "stars": 3}


def test_campaign_record_rules():
    c = ml.Campaign()
    g = c.play((0, 0), 0)
    with pytest.raises(ValueError, match="not solved"):
        c.record((0, 0), 0, g)
    with pytest.raises(ValueError, match="not of level"):
        c.record((0, 0), 1, g)
    for bad in [(5, 0), (0,), "a", (0.5, 0)]:
        with pytest.raises(ValueError):
            c.level(bad, 0)
    for bad in [-1, 6, True, 1.0]:
        with pytest.raises(ValueError):
            c.level((0, 0), bad)


def test_campaign_save_load(tmp_path):
    c = ml.Campaign()
    for i in range(6):
        _win(c, (0, 0), i)
    path = tmp_path / "progress.json"
    c.save(path)
    d = ml.Campaign.load(path)
    assert d.total_stars == 18 and d.open_groups() == c.open_groups()
    assert ml.Campaign.from_json(c.to_json()).total_stars == 18
    _win(d, (1, 0), 0)
    d.save(path)
    assert (tmp_path / "progress.json.bak").exists()
    assert ml.Campaign.load(str(path) + ".bak").total_stars == 18
    assert ml.Campaign.load(path).total_stars == 21


@pytest.mark.parametrize("mutate", [
    lambda t: t[: len(t) // 2],                                     # truncated
    lambda t: t.replace('"stars": 3', '"stars": 9', 1),             # out of range
    lambda t: t.replace('"taps": ', '"taps": 1', 1),                # edited: checksum
    lambda t: t.replace("modlights-campaign", "other", 1),          # wrong format
    lambda t: t.replace('"version": 1', '"version": 99', 1),
    lambda t: "\x00\xff garbage",
    lambda t: "[]",
    lambda t: t.replace('"0-0-0"', '"9-9-9"', 1),
])
def test_campaign_rejects_corrupted_files_keeping_progress(tmp_path, mutate):
    c = ml.Campaign()
    for i in range(6):
        _win(c, (0, 0), i)
    path = tmp_path / "p.json"
    c.save(path)
    good = path.read_text()
    path.write_text(mutate(good), encoding="utf-8", errors="surrogateescape")
    with pytest.raises(ValueError):
        ml.Campaign.load(path)
    with pytest.raises(ValueError):
        c.load_progress(path)
    assert c.total_stars == 18                     # progress in memory kept
    c.save(path)                                   # and saving again repairs the file
    assert ml.Campaign.load(path).total_stars == 18
    with pytest.raises(ValueError, match="cannot read"):
        ml.Campaign.load(tmp_path / "missing.json")


@pytest.mark.parametrize("bad", [None, 3, 3.5, ["p.json"], object(), "", "a\0b"])
def test_campaign_paths_of_the_wrong_kind_are_value_errors(tmp_path, bad):
    """Issue 21: load(None) / load(3) raised TypeError; every bad path is a ValueError
    saying what is allowed, for load, load_progress and save alike."""
    c = ml.Campaign()
    _win(c, (0, 0), 0)
    for call in (ml.Campaign.load, c.load_progress, c.save):
        with pytest.raises(ValueError, match="campaign save path"):
            call(bad)
    assert c.total_stars == 3 and not list(tmp_path.iterdir())


def test_campaign_bytes_and_pathlike_paths(tmp_path):
    """bytes paths work (decoded as os.fsdecode does); a missing bytes path is the
    usual "cannot read" ValueError (it was "can't concat str to bytes")."""
    import os
    c = ml.Campaign()
    _win(c, (0, 0), 0)
    path = os.fsencode(tmp_path / "p.json")
    c.save(path)
    c.save(path)                                    # a second save makes the backup
    assert ml.Campaign.load(path).to_json() == c.to_json()
    assert ml.Campaign.load(path + b".bak").to_json() == c.to_json()
    d = ml.Campaign()
    d.load_progress(path)
    assert d.total_stars == 3
    with pytest.raises(ValueError, match="cannot read"):
        ml.Campaign.load(b"/nonexistent")
    with pytest.raises(ValueError, match="cannot write"):
        c.save(tmp_path / "no-such-dir" / "p.json")


def test_play_screen_cell_spans_point_at_glyphs():
    p = ml.generate(5, 5, 3, locked=3, holes=1, seed=5)
    for numbers in (False, True):
        scr = PlayScreen(ml.Game(p), numbers=numbers)
        lines = scr.render()
        spans = scr.cell_spans()
        assert len(spans) == p.board.n_cells
        for y, x, w, v in spans:
            text = lines[y][x:x + w].strip()
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
