"""The browser game in a real headless Chromium (Debian's /usr/bin/chromium, Playwright).

The app (``modlights serve``: the API and the game's static files, the JavaScript
package and its WebAssembly core among them) runs in uvicorn on a free local port (a
thread of this process); the page asks the API nothing. Every test
drives the page and checks what it shows against the library: tile states against
``Board.press`` / ``Board.apply`` computed here, previews and hint outlines against
``Game.preview``, stars against ``Puzzle.stars_for``, codes against
``Puzzle.from_code``. Each test saves a screenshot under its tmp_path.

The default run plays one test here (Chromium's start costs seconds):
``test_daily_played_to_the_end_earns_three_stars``; the others are marked ``browser``
(tests/suite_groups.py), which CI runs (``python -m pytest -m browser``).
"""

import datetime
import json
import threading
import time

import numpy as np
import pytest

import modlights as ml
from browser_pages import (
    close_page,
    goto,
    marked,
    needs_chromium,
    open_page,
    page_state,
    tap_count,
    tile,
    today,
)
from modlights.play.campaign import Campaign
from modlights.web import site

pytestmark = needs_chromium
needs_package = pytest.mark.skipif(
    site.js_package_dir() is None
    or not (site.js_package_dir() / "dist" / "modlights.wasm").is_file(),
    reason="the JavaScript package (js/src, js/dist/modlights.wasm) is not built here",
)


@pytest.fixture(scope="module")
def server():
    import uvicorn

    from modlights.web import create_app

    srv = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="warning")
    )
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web app did not start within 20 s")
        time.sleep(0.05)
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture
def page(browser, server):
    ctx, pg = open_page(browser, server, {"width": 1100, "height": 900}, reduced_motion=None)
    yield pg
    close_page(ctx, pg)


# ----------------------------------------------------------------------------- helpers


def open_daily(page, i):
    goto(page, "daily")
    page.click(f"#daily-{i}")
    page.wait_for_selector("#screen-play:not([hidden]) #board .tile")
    return ml.daily(today())[i]


def shot(page, tmp_path, name):
    path = tmp_path / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 1000
    return path


# ----------------------------------------------------------------------------- tests
def random_board(rng):
    """A random grid board: any named, custom or mixed pattern, n 2..8, locks, holes, wrap."""
    rows, cols = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    names = list(ml.PATTERNS)

    def one():
        if rng.random() < 0.7:
            return names[rng.integers(len(names))]
        return [
            (int(rng.integers(-3, 4)), int(rng.integers(-3, 4))) for _ in range(rng.integers(1, 6))
        ]  # repeats and no (0, 0) allowed

    pattern = [[one() for _ in range(cols)] for _ in range(rows)] if rng.random() < 0.3 else one()
    kind = rng.integers(0, 3, size=(rows, cols))  # 0 tile, 1 locked, 2 hole
    kind[rng.integers(rows), rng.integers(cols)] = 0
    return ml.Board.grid(
        rows,
        cols,
        int(rng.integers(2, 9)),
        pattern,
        locked=kind == 1,
        holes=kind == 2,
        wrap=bool(rng.random() < 0.5),
    )


@needs_package
@pytest.mark.browser
def test_page_tap_rule_is_board_press(page):
    """The page applies taps itself: its rule equals Board.press (and its preview,
    Game.preview) on random boards of every kind."""
    goto(page, "")
    rng = np.random.default_rng(11)
    cases = []
    while len(cases) < 300:
        board = random_board(rng)
        if not board.taps:
            continue
        pos = board.taps[rng.integers(len(board.taps))]
        cases.append((board, board.random_state(rng=rng, solvable=False), pos))
    got = page.evaluate(
        "cases => cases.map(([b, s, r, c]) => "
        "[modlights.press(b, s, r, c), modlights.preview(b, r, c)])",
        [[b.to_dict(), s.tolist(), int(p[0]), int(p[1])] for b, s, p in cases],
    )
    for (board, state, pos), (after, preview) in zip(cases, got):
        assert np.array_equal(np.array(after), board.press(state, pos)), (board.to_dict(), pos)
        want = ml.Game(ml.Puzzle(board, np.zeros(board.shape, int))).preview(pos)
        assert sorted(map(tuple, preview)) == want, (board.to_dict(), pos)


@needs_package
def test_daily_played_to_the_end_earns_three_stars(page, tmp_path):
    p = open_daily(page, 1)
    board = p.board
    state = p.start.copy()
    assert np.array_equal(page_state(page, board), state)
    assert page.inner_text("#play-title").startswith(f"Daily {today().isoformat()}")
    moves = p.solver.solve(p.start, minimal=True).moves()
    assert len(moves) == p.min_taps
    for k, pos in enumerate(moves, 1):
        tile(page, pos).click()
        state = board.press(state, pos)
        if k % 3 == 0 or k == len(moves):
            assert tap_count(page) == k
            if k < len(moves):
                assert np.array_equal(page_state(page, board), state)
    taps = np.zeros(board.shape, dtype=np.int64)
    for pos in moves:
        taps[pos] += 1
    assert not board.apply(p.start, taps).any()
    page.wait_for_selector("#complete:not([hidden])")
    assert not page_state(page, board).any()
    want = p.stars_for(len(moves))
    assert want == 3
    assert page.get_attribute("#complete-stars", "data-stars") == str(want)
    assert page.inner_text("#complete-stars") == "★★★"
    shot(page, tmp_path, "daily-complete")
    # the best is kept per daily puzzle
    goto(page, "daily")
    page.wait_for_selector('#daily-1[data-stars="3"]')  # the list is redrawn
    assert page.get_attribute("#daily-0", "data-stars") == "0"
    bests = json.loads(page.evaluate("localStorage.getItem('modlights.bests')"))
    key = f"daily:{today().isoformat()}:1"
    assert bests == {key: {"taps": len(moves), "stars": 3, "time": bests[key]["time"]}}
    shot(page, tmp_path, "daily-list")


@needs_package
@pytest.mark.browser
def test_undo_and_reset(page, tmp_path):
    p = open_daily(page, 2)
    board = p.board
    picks = [board.taps[i] for i in (0, len(board.taps) // 2, len(board.taps) - 1)]
    state = p.start.copy()
    after = []
    for pos in picks:
        tile(page, pos).click()
        state = board.press(state, pos)
        after.append(state)
    assert tap_count(page) == 3
    assert np.array_equal(page_state(page, board), after[2])
    page.wait_for_function(
        "document.querySelector('#timer').textContent !== '0:00'", timeout=5000
    )  # the clock runs from the first tap
    page.click("#undo")
    assert tap_count(page) == 2
    assert np.array_equal(page_state(page, board), after[1])
    shot(page, tmp_path, "undo")
    page.click("#reset")
    assert tap_count(page) == 0
    assert page.inner_text("#timer") == "0:00"
    assert np.array_equal(page_state(page, board), p.start)
    assert page.is_disabled("#undo")


@needs_package
@pytest.mark.browser
def test_hint_outlines_the_changed_tiles_and_withholds_stars(page, tmp_path):
    p = open_daily(page, 0)
    board = p.board
    page.click("#hint")
    page.wait_for_selector("#board .tile.hinted")
    state = page_state(page, board)
    # the hint is the first tap of a minimal plan: one tap from the start, one tap fewer
    pos = next(q for q in board.taps if np.array_equal(board.press(p.start, q), state))
    assert p.solver.solve(state, minimal=True).length == p.min_taps - 1
    want = ml.Game(p).preview(pos)
    assert marked(page, "hinted") == want
    changed = sorted(map(tuple, np.argwhere(state != p.start)))
    assert want == changed
    colour = page.eval_on_selector("#board .tile.hinted", "e => getComputedStyle(e).outlineColor")
    assert colour == "rgb(255, 59, 48)"
    assert tap_count(page) == 1
    assert page.get_attribute("#stars", "data-stars") == "0"
    assert page.is_visible("#hinted-badge")
    shot(page, tmp_path, "hint")
    rest = p.solver.solve(state, minimal=True).moves()
    for q in rest:
        tile(page, q).click()
    if rest:
        assert marked(page, "hinted") == []  # the outline goes with the next tap
    page.wait_for_selector("#complete:not([hidden])")
    assert page.get_attribute("#complete-stars", "data-stars") == "0"
    assert "You used a hint, so this try earns no stars." in page.inner_text("#complete-text")
    assert page.evaluate("localStorage.getItem('modlights.bests')") is None
    shot(page, tmp_path, "hint-complete")


@needs_package
@pytest.mark.browser
def test_hover_and_keyboard_play(page, tmp_path):
    p = open_daily(page, 1)
    board, game = p.board, ml.Game(p)
    target = board.taps[len(board.taps) // 2]
    tile(page, target).hover()
    assert marked(page, "preview") == game.preview(target)
    # keyboard: focus the first tile, walk to the target with the arrows, Enter taps
    page.focus('#board .tile[data-index="0"]')
    for _ in range(target[0]):
        page.keyboard.press("ArrowDown")
    for _ in range(target[1]):
        page.keyboard.press("ArrowRight")
    active = page.evaluate(
        "[+document.activeElement.dataset.row, +document.activeElement.dataset.col]"
    )
    assert tuple(active) == target
    assert marked(page, "preview") == game.preview(target)
    page.keyboard.press("Enter")
    assert tap_count(page) == 1
    assert np.array_equal(page_state(page, board), board.press(p.start, target))
    page.keyboard.press("u")
    assert tap_count(page) == 0
    assert np.array_equal(page_state(page, board), p.start)
    # touch: a long press previews and does not tap; a short one taps
    page.mouse.move(0, 0)
    sel = f'#board .tile[data-row="{target[0]}"][data-col="{target[1]}"]'
    page.dispatch_event(sel, "pointerdown", {"pointerType": "touch", "bubbles": True})
    page.wait_for_selector("#board .tile.preview")
    assert marked(page, "preview") == game.preview(target)
    page.dispatch_event(sel, "pointerup", {"pointerType": "touch", "bubbles": True})
    page.dispatch_event(sel, "click")
    assert tap_count(page) == 0
    page.dispatch_event(sel, "pointerdown", {"pointerType": "touch", "bubbles": True})
    page.dispatch_event(sel, "pointerup", {"pointerType": "touch", "bubbles": True})
    page.dispatch_event(sel, "click")
    assert tap_count(page) == 1
    r, c = target
    label = tile(page, target).get_attribute("aria-label")
    now = board.press(p.start, target)[r, c]
    assert label == f"row {r + 1}, column {c + 1}, state {now} of {board.states}"
    shot(page, tmp_path, "keyboard")


@needs_package
@pytest.mark.browser
def test_numbers_setting_is_kept(page, tmp_path):
    p = open_daily(page, 0)
    assert page.inner_text('#board .tile[data-index="0"]') == ""
    page.check("#show-numbers")
    texts = page.eval_on_selector_all("#board .tile", "els => els.map(e => e.textContent)")
    want = [("" if h else str(v)) for v, h in zip(p.start.ravel(), p.board.holes.ravel())]
    assert texts == want
    shot(page, tmp_path, "numbers")
    page.reload()
    open_daily(page, 0)
    assert page.is_checked("#show-numbers")
    assert page.eval_on_selector_all("#board .tile", "els => els.map(e => e.textContent)") == want


def build_by_hand(page):
    """Build a 4x5 knight board with 4 states, a lock and a hole in the playground;
    returns the Board and the tiles' states (checked against the page)."""
    goto(page, "playground")
    page.fill("#pg-rows", "4")
    page.fill("#pg-cols", "5")
    page.fill("#pg-states", "4")
    page.select_option("#pg-pattern", "knight")
    page.click("#pg-new")
    page.wait_for_selector('#board[data-rows="4"][data-cols="5"][data-states="4"]')
    page.check("#tool-state")
    clicks = {(0, 0): 1, (1, 2): 3, (3, 4): 2, (2, 1): 5}
    for pos, k in clicks.items():
        for _ in range(k):
            tile(page, pos).click()
    page.check("#tool-lock")
    tile(page, (1, 2)).click()
    page.check("#tool-hole")
    tile(page, (2, 3)).click()
    assert tap_count(page) == 0
    want = np.zeros((4, 5), dtype=np.int64)
    for pos, k in clicks.items():
        want[pos] = k % 4
    board = ml.Board.grid(4, 5, 4, "knight", locked=[(1, 2)], holes=[(2, 3)])
    assert np.array_equal(page_state(page, board), want)
    assert marked(page, "locked") == [(1, 2)] and marked(page, "hole") == [(2, 3)]
    assert tile(page, (1, 2)).get_attribute("aria-label") == "row 2, column 3, state 3 of 4, locked"
    assert tile(page, (2, 3)).get_attribute("aria-label") == "row 3, column 4, hole"
    return board, want


def load_code(page, code):
    page.fill("#code-input", code)
    page.click("#load-code")


@needs_package
@pytest.mark.browser
def test_playground_loads_a_code_and_plays_without_completion(page, tmp_path):
    board, want = build_by_hand(page)
    puzzle = ml.Puzzle(board, want)
    page.click("#pg-new")  # a fresh board ...
    assert not page_state(page, board).any() and marked(page, "locked") == []
    load_code(page, puzzle.code)  # ... and the code brings it back
    page.wait_for_function("document.querySelector('#board .tile.locked') !== null")
    assert np.array_equal(page_state(page, board), want)
    assert marked(page, "locked") == [(1, 2)] and marked(page, "hole") == [(2, 3)]
    shot(page, tmp_path, "playground")
    # "Show solution" marks the taps of a minimal solution; following them solves the
    # board, and the playground shows no completion screen
    page.check("#tool-play")
    page.click("#solve")
    page.wait_for_selector("#board .tile[data-solution]:not([data-solution=''])")
    marks = page.eval_on_selector_all(
        "#board .tile", "els => els.map(e => +e.dataset.solution || 0)"
    )
    taps = np.array(marks).reshape(board.shape)
    assert not board.apply(want, taps).any()
    assert taps.sum() == puzzle.solver.solve(want, minimal=True).length
    state = want.copy()
    for pos in map(tuple, np.argwhere(taps)):
        for _ in range(taps[pos]):
            tile(page, pos).click()
            state = board.press(state, pos)
    assert not state.any() and not page_state(page, board).any()
    assert (
        page.eval_on_selector_all(
            "#board .tile[data-solution]:not([data-solution=''])", "els => els.length"
        )
        == 0
    )
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Solved')")
    assert page.is_hidden("#complete")
    # a malformed code is an error message, not a crash
    load_code(page, "not-a-code")
    page.wait_for_function("document.querySelector('#pg-error').textContent.length > 0")
    assert page.inner_text("#pg-error").startswith("Cannot load that code")


@needs_package
@pytest.mark.browser
def test_playground_shares_a_code(page, server, tmp_path):
    board, want = build_by_hand(page)
    page.click("#share-code")
    page.wait_for_function("document.querySelector('#code-output').value.length > 0")
    code = page.input_value("#code-output")
    puzzle = ml.Puzzle.from_code(code)
    assert puzzle.board == board
    assert np.array_equal(puzzle.start, want)
    page.click("#pg-new")
    assert not page_state(page, board).any()
    load_code(page, code)
    page.wait_for_function("document.querySelector('#board .tile.locked') !== null")
    assert np.array_equal(page_state(page, board), want)
    assert marked(page, "locked") == [(1, 2)] and marked(page, "hole") == [(2, 3)]


@needs_package
@pytest.mark.browser
def test_campaign_map_opens_neighbours_at_fifteen_stars(page, tmp_path):
    goto(page, "campaign")
    page.wait_for_selector("#group-4-4")
    assert page.get_attribute("#group-0-0", "data-open") == "true"
    for g in ("0-1", "1-0", "1-1", "4-4"):
        assert page.get_attribute(f"#group-{g}", "data-open") == "false"
        assert page.is_disabled(f"#group-{g}")
    # 14 stars in group (0, 0) open nothing; 15 open its right and lower neighbours
    best = {f"campaign:0-0-{i}": {"taps": 3, "stars": 3} for i in range(5)}
    best["campaign:0-0-4"]["stars"] = 2
    page.evaluate(f"localStorage.setItem('modlights.bests', {json.dumps(json.dumps(best))})")
    page.reload()
    page.wait_for_selector("#group-4-4")
    assert page.get_attribute("#group-0-0", "data-stars") == "14"
    assert page.get_attribute("#group-0-1", "data-open") == "false"
    best["campaign:0-0-4"]["stars"] = 3
    page.evaluate(f"localStorage.setItem('modlights.bests', {json.dumps(json.dumps(best))})")
    page.reload()
    page.wait_for_selector("#group-4-4")
    opened = page.eval_on_selector_all(".group[data-open=true]", "els => els.map(e => e.id)")
    assert sorted(opened) == ["group-0-0", "group-0-1", "group-1-0"]
    assert page.inner_text("#campaign-total") == "15"
    assert page.get_attribute("#level-4", "data-stars") == "3"
    shot(page, tmp_path, "campaign")
    page.click("#group-1-0")
    page.click("#level-5")
    page.wait_for_selector("#screen-play:not([hidden]) #board .tile")
    level = Campaign().level((1, 0), 5)
    assert np.array_equal(page_state(page, level.board), level.start)
    assert page.inner_text("#play-title") == "Campaign 2-1 · level 6"
    shot(page, tmp_path, "campaign-level")


@needs_package
@pytest.mark.browser
def test_campaign_level_won_counts_on_the_map(page):
    goto(page, "campaign")
    page.click("#level-0")
    page.wait_for_selector("#screen-play:not([hidden]) #board .tile")
    level = Campaign().level((0, 0), 0)
    assert np.array_equal(page_state(page, level.board), level.start)
    for pos in level.solution.moves():
        tile(page, pos).click()
    page.wait_for_selector("#complete:not([hidden])")
    assert page.get_attribute("#complete-stars", "data-stars") == "3"
    page.click("#complete-next")  # on to level 2 of the group
    page.wait_for_function("document.querySelector('#play-title').textContent.endsWith('level 2')")
    nxt = Campaign().level((0, 0), 1)
    assert np.array_equal(page_state(page, nxt.board), nxt.start)
    goto(page, "campaign")
    page.wait_for_selector('#level-0[data-stars="3"]')  # the map is redrawn
    assert page.get_attribute("#group-0-0", "data-stars") == "3"
    assert page.inner_text("#campaign-total") == "3"


@needs_package
@pytest.mark.browser
def test_guide_explains_the_mathematics(page, tmp_path):
    goto(page, "guide")
    text = page.inner_text("#screen-guide")
    for words in (
        "How to play",
        "(Z/n)",
        "A x = −s (mod n)",
        "image",
        "kernel",
        "Howell",
        "minimal",
    ):
        assert words in text
    shot(page, tmp_path, "guide")
    goto(page, "")
    links = page.eval_on_selector_all(
        "#screen-home .card", "els => els.map(e => e.getAttribute('href'))"
    )
    assert links == ["#/campaign", "#/daily", "#/custom", "#/playground", "#/guide"]
    shot(page, tmp_path, "home")


@needs_package
@pytest.mark.parametrize(
    "size, states, viewport", [(3, 3, (1100, 900)), (20, 6, (1100, 900)), (12, 12, (390, 844))]
)
@needs_package
@pytest.mark.browser
def test_boards_small_large_and_phone_width_fit(browser, server, tmp_path, size, states, viewport):
    # reduced motion: the page then drops its 0.15 s colour transitions, so the computed
    # colours read below are the final ones (a loaded machine read some mid-fade)
    ctx = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]},
        base_url=server,
        reduced_motion="reduce",
    )
    page = ctx.new_page()
    try:
        goto(page, "playground")
        page.fill("#pg-rows", str(size))
        page.fill("#pg-cols", str(size))
        page.fill("#pg-states", str(states))
        page.click("#pg-new")
        page.click("#pg-random")
        box = page.locator("#board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport[0]
        first = page.locator("#board .tile").first.bounding_box()
        assert first["width"] >= 14
        if size > 12 and viewport[1] >= 800:
            # a large board below the playground's controls takes 60% of the window
            # (the page scrolls) instead of shrinking to the space left under them
            assert first["width"] >= 0.6 * viewport[1] / size - 4
        texts = page.eval_on_selector_all("#board .tile", "els => els.map(e => e.textContent)")
        values = page.eval_on_selector_all("#board .tile", "els => els.map(e => e.dataset.state)")
        assert texts == (values if states > 8 else [""] * size * size)  # numbers past 8 states
        colours = page.eval_on_selector_all(
            "#board .tile",
            "els => els.map(e => [e.dataset.state, getComputedStyle(e).backgroundColor])",
        )
        by_state = {}
        for value, colour in colours:
            by_state.setdefault(value, set()).add(colour)
        assert all(len(c) == 1 for c in by_state.values())  # one colour a state
        assert len({c.pop() for c in by_state.values()}) == len(by_state)  # all different
        shot(page, tmp_path, f"board-{size}-{viewport[0]}")
    finally:
        ctx.close()


@needs_package
@pytest.mark.browser
def test_custom_level_is_the_generated_puzzle(page, tmp_path):
    goto(page, "custom")
    page.fill("#custom-rows", "3")
    page.fill("#custom-cols", "4")
    page.fill("#custom-states", "5")
    page.select_option("#custom-pattern", "diagonal")
    page.select_option("#custom-difficulty", "hard")
    page.fill("#custom-locked", "1")
    page.fill("#custom-holes", "1")
    page.fill("#custom-seed", "7")
    shot(page, tmp_path, "custom")
    page.click("#custom-go")
    page.wait_for_selector("#screen-play:not([hidden]) #board .tile")
    p = ml.generate(3, 4, 5, "diagonal", "hard", locked=1, holes=1, unique=True, seed=7)
    assert np.array_equal(page_state(page, p.board), p.start)
    assert marked(page, "locked") == [tuple(x) for x in np.argwhere(p.board.locked)]
    assert marked(page, "hole") == [tuple(x) for x in np.argwhere(p.board.holes)]
    assert page.inner_text("#stars-limits").startswith(f"Fewest taps: {p.min_taps}")
    # bad settings: the form says what is wrong (checked here, then by the server)
    goto(page, "custom")
    page.fill("#custom-states", "1")
    page.click("#custom-go")
    assert "States must be a whole number 2..255" in page.inner_text("#custom-error")
    page.fill("#custom-states", "3")
    page.fill("#custom-locked", "900")
    page.click("#custom-go")
    page.wait_for_function("document.querySelector('#custom-error').textContent.length > 0")
    assert page.is_visible("#screen-custom")


@pytest.mark.browser
def test_api_docs_render_offline(page, server, tmp_path):
    """/docs draws the OpenAPI page from the package's own Swagger UI (no CDN)."""
    page.goto(server + "/docs")
    page.wait_for_selector(".swagger-ui .info .title", timeout=15000)
    assert "modlights" in page.inner_text(".swagger-ui .info .title")
    assert page.locator(".opblock-summary-path", has_text="/api/solve").count() == 1
    page.screenshot(path=str(tmp_path / "docs.png"))


# ----------------------------------------------------------------------------- phone
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser, server):
    """A page at a phone's viewport (390 x 844, touch), reduced motion."""
    ctx, pg = open_page(browser, server, PHONE)
    yield pg
    close_page(ctx, pg)


def no_horizontal_scroll(page):
    """The page and the board's frame scroll not sideways, and the board lies inside both."""
    got = page.evaluate("""() => {
        const wrap = document.querySelector('.board-wrap');
        const board = document.getElementById('board');
        const w = wrap.getBoundingClientRect(), b = board.getBoundingClientRect();
        return {page: document.documentElement.scrollWidth, view: window.innerWidth,
                wrapScroll: wrap.scrollWidth, wrapClient: wrap.clientWidth,
                board: [b.left, b.right], wrap: [w.left, w.right]};
    }""")
    assert got["page"] <= got["view"], got
    assert got["wrapScroll"] <= got["wrapClient"], got
    assert got["wrap"][0] <= got["board"][0] and got["board"][1] <= got["wrap"][1], got
    assert 0 <= got["board"][0] and got["board"][1] <= got["view"], got


@needs_package
@pytest.mark.browser
def test_phone_six_by_six_board_fits(phone, tmp_path):
    """At 390 x 844 a 6 x 6 board fits inside its frame (padding and border counted):
    nothing is clipped and the page does not scroll sideways."""
    goto(phone, "playground")
    phone.fill("#pg-rows", "6")
    phone.fill("#pg-cols", "6")
    phone.click("#pg-new")
    phone.wait_for_selector('#board[data-rows="6"][data-cols="6"]')
    no_horizontal_scroll(phone)
    assert phone.locator("#board .tile").first.bounding_box()["width"] >= 40
    shot(phone, tmp_path, "phone-6x6")


def overlaps(a, b):
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def toast_covers(page):
    """The visible controls and tiles whose boxes the visible toast overlaps ([] if none)."""
    return page.evaluate("""() => {
        const t = document.getElementById('toast');
        if (t.hidden) return [];
        const a = t.getBoundingClientRect(), out = [];
        for (const e of document.querySelectorAll('button, input, select, a, .tile')) {
            const b = e.getBoundingClientRect();
            if (!b.width || !b.height || e.closest('[hidden]') || t.contains(e)) continue;
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                out.push(e.id || e.className);
        }
        return out;
    }""")


@needs_package
@pytest.mark.browser
def test_phone_toast_covers_nothing_and_goes_with_navigation(phone, tmp_path):
    """On a phone the "Show solution" message overlaps no button, input or tile (the
    board's bottom row included), wherever the page is scrolled, and is gone on the
    next page."""
    goto(phone, "playground")
    phone.fill("#pg-rows", "6")
    phone.fill("#pg-cols", "6")
    phone.select_option("#pg-pattern", "square")
    phone.click("#pg-new")
    phone.click("#pg-random")
    phone.click("#solve")
    phone.wait_for_selector("#toast:not([hidden])")
    assert "taps" in phone.inner_text("#toast")
    height = phone.evaluate("document.documentElement.scrollHeight")
    for y in range(0, height, 200):
        phone.evaluate(f"window.scrollTo(0, {y})")
        assert toast_covers(phone) == [], y
    shot(phone, tmp_path, "phone-toast")
    phone.click("#nav-daily")
    phone.wait_for_selector("#screen-daily:not([hidden])")
    assert phone.is_hidden("#toast")


@needs_package
@pytest.mark.browser
def test_counts_of_one_are_singular(page):
    """ "1 tap", "1 hole": a shared one-tap puzzle with one hole, played to the end."""
    board = ml.Board.grid(3, 3, 2, "cross", holes=[(2, 2)])
    start = board.press(np.zeros((3, 3), dtype=np.uint8), (0, 0))
    puzzle = ml.Puzzle(board, start)
    assert puzzle.min_taps == 1
    page.goto("/#/code/" + puzzle.code)
    page.wait_for_selector("#screen-play:not([hidden]) #board .tile")
    assert "· 1 hole ·" in page.inner_text("#play-info")
    assert page.inner_text("#stars-limits").startswith("Fewest taps: 1 (proved)")
    tile(page, (0, 0)).click()
    page.wait_for_selector("#complete:not([hidden])")
    text = page.inner_text("#complete-text")
    assert text.startswith("Solved in 1 tap and ") and "The fewest possible is 1." in text
    for words in ("1 taps", "1 holes", "1 stars"):
        assert words not in page.inner_text("body")


@needs_package
@pytest.mark.browser
def test_custom_form_locks_as_few_tiles_as_needed_by_default(page):
    """Left at its default the form's locked count is unset: on the classic 5 x 5 cross
    board (kernel of 4) a unique solution is asked for and the generator locks as few
    tiles as make it unique, as ``generate(locked=None)`` and the CLI do."""
    goto(page, "custom")
    assert page.input_value("#custom-locked") == ""
    page.fill("#custom-states", "2")
    page.fill("#custom-seed", "3")
    page.click("#custom-go")
    page.wait_for_selector("#screen-play:not([hidden]) #board .tile")
    p = ml.generate(5, 5, 2, "cross", "medium", seed=3)
    assert p.board.locked.any() and p.solver.kernel_size == 1
    assert np.array_equal(page_state(page, p.board), p.start)
    assert marked(page, "locked") == [tuple(x) for x in np.argwhere(p.board.locked)]
    assert page.is_hidden("#toast")  # no "no unique solution" note


@needs_package
@pytest.mark.browser
def test_solved_dialog_time_is_the_timers(browser, server):
    """The solved dialog's time is the one the timer shows (2.7 s read 0:02 on both)."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, base_url=server)
    page = ctx.new_page()
    try:
        now = datetime.datetime.now(datetime.timezone.utc)
        page.clock.install(time=now)
        p = open_daily(page, 1)
        page.clock.pause_at(now + datetime.timedelta(seconds=30))  # time stands still
        moves = p.solver.solve(p.start, minimal=True).moves()
        assert len(moves) >= 2
        tile(page, moves[0]).click()
        page.clock.run_for(2700)
        for pos in moves[1:]:
            tile(page, pos).click()
        page.wait_for_selector("#complete:not([hidden])")
        timer = page.inner_text("#timer")
        assert timer == "0:02"
        assert f" and {timer}." in page.inner_text("#complete-text")
    finally:
        ctx.close()


@needs_package
@pytest.mark.browser
def test_reset_after_a_hint_starts_a_try_with_stars(page):
    """After Reset the "Hint used" badge is gone and the new try earns its stars."""
    p = open_daily(page, 0)
    page.click("#hint")
    page.wait_for_selector("#board .tile.hinted")
    assert page.is_visible("#hinted-badge")
    page.click("#reset")
    assert page.is_hidden("#hinted-badge")
    assert page.get_attribute("#stars", "data-stars") == "3"
    for pos in p.solver.solve(p.start, minimal=True).moves():
        tile(page, pos).click()
    page.wait_for_selector("#complete:not([hidden])")
    assert page.get_attribute("#complete-stars", "data-stars") == "3"
    assert "You used a hint" not in page.inner_text("#complete-text")
