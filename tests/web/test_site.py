"""The game as a static site (``modlights site DIR``) in headless Chromium, served by a
plain static file server (Python's http.server: no API routes behind it).

Every mode plays from the JavaScript package and its WebAssembly core alone; each test
checks what the page shows against the Python library: daily and generated puzzles
against ``ml.daily`` / ``ml.generate`` (the same seeds give the same puzzles), codes
against ``Puzzle.code`` / ``Puzzle.from_code``, tile states against ``Board.press``,
stars against ``Puzzle.stars_for``, hints and solutions against the Solver's fewest taps.
No request may reach a path under /api/ (the server would answer 404 anyway).
"""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from browser_pages import (
    close_page,
    goto,
    make_site,
    marked,
    needs_chromium,
    open_page,
    page_state,
    served,
    tap_count,
    tile,
    today,
)
from modlights.play.campaign import Campaign
from modlights.web import site

# the browser group (tests/suite_groups.py): CI runs it; the default run has
# test_browser.py's daily game
pytestmark = [
    pytest.mark.browser,
    needs_chromium,
    pytest.mark.skipif(
        site.js_package_dir() is None
        or not (site.js_package_dir() / "dist" / "modlights.wasm").is_file(),
        reason="the JavaScript package (js/src, js/dist/modlights.wasm) is not built here",
    ),
]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def static_site(tmp_path_factory):
    """``modlights site DIR`` served by http.server on a free port: (base URL, DIR)."""
    root = make_site(tmp_path_factory)
    with served(root) as url:
        yield url, root


def _check_requests(pg):
    assert not [u for u, _ in pg.requests if "/api/" in u]
    bad = [(u, s) for u, s in pg.requests if s != 200]
    assert not bad, bad


@pytest.fixture
def page(browser, static_site):
    ctx, pg = open_page(browser, static_site[0], {"width": 1100, "height": 900})
    yield pg
    close_page(ctx, pg)
    _check_requests(pg)


@pytest.fixture
def phone(browser, static_site):
    ctx, pg = open_page(browser, static_site[0], PHONE)
    yield pg
    close_page(ctx, pg)
    _check_requests(pg)


# ----------------------------------------------------------------------------- helpers


def wait_play(page):
    page.wait_for_selector("#screen-play:not([hidden]) #board .tile")


def play_to_the_end(page, puzzle):
    """Click a minimal solution of ``puzzle`` tile by tile (states checked against
    Board.press on the way); returns the number of taps."""
    board, state = puzzle.board, puzzle.start.copy()
    moves = puzzle.solver.solve(puzzle.start, minimal=True).moves()
    for k, pos in enumerate(moves, 1):
        tile(page, pos).click()
        state = board.press(state, pos)
        if k % 4 == 0 and k < len(moves):
            assert tap_count(page) == k
            assert np.array_equal(page_state(page, board), state)
    page.wait_for_selector("#complete:not([hidden])")
    assert not state.any() and not page_state(page, board).any()
    return len(moves)


# ----------------------------------------------------------------------------- tests
def test_site_has_no_server_behind_it(static_site):
    """The directory holds the page, the package and the .wasm, and nothing of the API."""
    import urllib.error
    import urllib.request

    base, root = static_site
    for rel in (
        "index.html",
        "app.js",
        "js/src/index.js",
        "js/dist/modlights.wasm",
        "campaign.json",
    ):
        assert (root / rel).is_file()
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(base + "/api/patterns")


def test_daily_played_to_the_end(page):
    """The daily list is ml.daily(today) (puzzles made in the browser by the package);
    the middle one played to the end by its minimal solution earns three stars."""
    goto(page, "daily")
    page.wait_for_selector("#daily-2")
    puzzles = ml.daily(today())
    for i, p in enumerate(puzzles):
        assert f"Fewest possible: {p.min_taps} tap" in page.inner_text(f"#daily-{i}")
    page.click("#daily-1")
    wait_play(page)
    p = puzzles[1]
    assert np.array_equal(page_state(page, p.board), p.start)
    assert page.inner_text("#stars-limits").startswith(
        f"Fewest taps: {p.min_taps} ({'proved' if p.proven else 'best found'})"
    )
    taps = play_to_the_end(page, p)
    assert taps == p.min_taps
    assert page.get_attribute("#complete-stars", "data-stars") == str(p.stars_for(taps)) == "3"


def test_campaign_level_played_and_next(page):
    goto(page, "campaign")
    page.wait_for_selector("#group-4-4")
    page.click("#level-0")
    wait_play(page)
    campaign = Campaign()
    level = campaign.level((0, 0), 0)
    assert np.array_equal(page_state(page, level.board), level.start)
    taps = play_to_the_end(page, level)
    assert page.get_attribute("#complete-stars", "data-stars") == str(level.stars_for(taps))
    page.click("#complete-next")
    page.wait_for_function("document.querySelector('#play-title').textContent.endsWith('level 2')")
    nxt = campaign.level((0, 0), 1)
    assert np.array_equal(page_state(page, nxt.board), nxt.start)
    goto(page, "campaign")
    page.wait_for_selector('#level-0[data-stars="3"]')
    assert page.inner_text("#campaign-total") == "3"


def test_custom_knight_level_with_locks_and_holes(page):
    """The custom form's puzzle is ml.generate's for the same settings and seed (made in
    the browser), locks and holes included; played to the end."""
    goto(page, "custom")
    page.fill("#custom-rows", "5")
    page.fill("#custom-cols", "6")
    page.fill("#custom-states", "3")
    page.select_option("#custom-pattern", "knight")
    page.select_option("#custom-difficulty", "medium")
    page.fill("#custom-locked", "2")
    page.fill("#custom-holes", "2")
    page.fill("#custom-seed", "11")
    page.click("#custom-go")
    wait_play(page)
    p = ml.generate(5, 6, 3, "knight", "medium", locked=2, holes=2, unique=True, seed=11)
    assert marked(page, "locked") == [tuple(x) for x in np.argwhere(p.board.locked)]
    assert marked(page, "hole") == [tuple(x) for x in np.argwhere(p.board.holes)]
    assert len(marked(page, "locked")) == 2 and len(marked(page, "hole")) == 2
    assert np.array_equal(page_state(page, p.board), p.start)
    assert page.inner_text("#stars-limits").startswith(f"Fewest taps: {p.min_taps}")
    taps = play_to_the_end(page, p)
    assert page.get_attribute("#complete-stars", "data-stars") == str(p.stars_for(taps))
    # a setting the generator refuses: Python's message, on the form
    goto(page, "custom")
    page.fill("#custom-rows", "2")
    page.fill("#custom-cols", "2")
    page.fill("#custom-locked", "4")
    page.fill("#custom-holes", "")
    page.click("#custom-go")
    page.wait_for_function("document.querySelector('#custom-error').textContent.length > 0")
    with pytest.raises(ValueError) as e:
        ml.generate(2, 2, 3, "knight", "medium", locked=4, unique=False, seed=11)
    assert page.inner_text("#custom-error") == str(e.value)


def build_by_hand(page):
    """A 4 x 5 knight board with 4 states, a lock and a hole, built in the playground."""
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
    want = np.zeros((4, 5), dtype=np.int64)
    for pos, k in clicks.items():
        want[pos] = k % 4
    board = ml.Board.grid(4, 5, 4, "knight", locked=[(1, 2)], holes=[(2, 3)])
    assert np.array_equal(page_state(page, board), want)
    return board, want


def test_share_and_load_a_code(page):
    """The playground's code is Python's code of the same board and start, byte for
    byte; loading it brings the board back, and a shared link opens it as a puzzle."""
    board, want = build_by_hand(page)
    page.click("#share-code")
    page.wait_for_function("document.querySelector('#code-output').value.length > 0")
    code = page.input_value("#code-output")
    puzzle = ml.Puzzle(board, want)
    assert code == puzzle.code
    page.click("#pg-new")
    assert not page_state(page, board).any()
    page.fill("#code-input", code)
    page.click("#load-code")
    page.wait_for_function("document.querySelector('#board .tile.locked') !== null")
    assert np.array_equal(page_state(page, board), want)
    assert marked(page, "locked") == [(1, 2)] and marked(page, "hole") == [(2, 3)]
    # Show solution: a minimal solution's taps in the corners
    page.check("#tool-play")
    page.click("#solve")
    page.wait_for_selector("#board .tile[data-solution]:not([data-solution=''])")
    marks = page.eval_on_selector_all(
        "#board .tile", "els => els.map(e => +e.dataset.solution || 0)"
    )
    taps = np.array(marks).reshape(board.shape)
    assert not board.apply(want, taps).any()
    assert taps.sum() == puzzle.solver.solve(want, minimal=True).length
    # a malformed code: Python's message
    page.fill("#code-input", "not-a-code")
    page.click("#load-code")
    page.wait_for_function("document.querySelector('#pg-error').textContent.length > 0")
    with pytest.raises(ValueError) as e:
        ml.Puzzle.from_code("not-a-code")
    assert page.inner_text("#pg-error") == "Cannot load that code: " + str(e.value)
    # the shared link
    page.goto("/#/code/" + code)
    wait_play(page)
    assert page.inner_text("#play-title") == "Shared puzzle"
    assert np.array_equal(page_state(page, board), want)
    assert page.inner_text("#stars-limits").startswith(f"Fewest taps: {puzzle.min_taps}")


def test_hint_undo_reset(page):
    """A hint taps the first move of some minimal solution (the fewest taps drop by one)
    and outlines what it changed; undo and reset bring the states back; after Reset
    the try earns stars again."""
    goto(page, "daily")
    page.click("#daily-2")
    wait_play(page)
    p = ml.daily(today())[2]
    board, solver = p.board, p.solver
    page.click("#hint")
    page.wait_for_selector("#board .tile.hinted")
    after = page_state(page, board)
    taps = [pos for pos in board.taps if np.array_equal(board.press(p.start, pos), after)]
    assert taps, "the hint's state is no single tap from the start"
    assert solver.solve(after, minimal=True).length == p.min_taps - 1
    assert marked(page, "hinted") == ml.Game(p).preview(taps[0])
    assert page.is_visible("#hinted-badge") and page.get_attribute("#stars", "data-stars") == "0"
    picks = [board.taps[i] for i in (0, len(board.taps) // 2)]
    state = after
    for pos in picks:
        tile(page, pos).click()
        state = board.press(state, pos)
    assert tap_count(page) == 3 and np.array_equal(page_state(page, board), state)
    page.click("#undo")
    assert tap_count(page) == 2
    assert np.array_equal(page_state(page, board), board.press(after, picks[0]))
    page.click("#reset")
    assert tap_count(page) == 0 and np.array_equal(page_state(page, board), p.start)
    assert page.is_hidden("#hinted-badge") and page.get_attribute("#stars", "data-stars") == "3"


def _no_horizontal_scroll(page):
    got = page.evaluate("""() => {
        const out = {page: document.documentElement.scrollWidth, view: window.innerWidth};
        const wrap = document.querySelector('.board-wrap');
        if (wrap && wrap.offsetParent) {
            const b = document.getElementById('board').getBoundingClientRect();
            Object.assign(out, {wrapScroll: wrap.scrollWidth, wrapClient: wrap.clientWidth,
                                board: [b.left, b.right]});
        }
        return out;
    }""")
    assert got["page"] <= got["view"], got
    if "board" in got:
        assert got["wrapScroll"] <= got["wrapClient"], got
        assert 0 <= got["board"][0] and got["board"][1] <= got["view"], got


def _toast_covers(page):
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


def test_phone_every_screen_fits_and_toasts_cover_nothing(phone):
    """At 390 x 844: no screen scrolls sideways, a 6 x 6 campaign board fits its frame,
    and the solution message of the playground covers no control or tile."""
    for route in ("", "campaign", "daily", "custom", "guide", "playground"):
        goto(phone, route)
        _no_horizontal_scroll(phone)
    goto(phone, "campaign")
    phone.wait_for_selector("#level-0")
    phone.click("#level-0")
    wait_play(phone)
    _no_horizontal_scroll(phone)
    goto(phone, "playground")
    phone.fill("#pg-rows", "6")
    phone.fill("#pg-cols", "6")
    phone.click("#pg-new")
    phone.click("#pg-random")
    _no_horizontal_scroll(phone)
    phone.click("#solve")
    phone.wait_for_selector("#toast:not([hidden])")
    height = phone.evaluate("document.documentElement.scrollHeight")
    for y in range(0, height, 200):
        phone.evaluate(f"window.scrollTo(0, {y})")
        assert _toast_covers(phone) == [], y
    phone.click("#nav-guide")
    phone.wait_for_selector("#screen-guide:not([hidden])")
    assert phone.is_hidden("#toast")


def test_long_search_runs_off_the_page_and_cancels(page):
    """ "Show solution" on a 30 x 30 board of 255 states (a kernel of 5^12 elements: a
    search of seconds) runs in the game's worker: the page's thread stays free (its
    seconds count on), it shows the running search with a Cancel button, and Cancel stops it
    without an answer."""
    goto(page, "playground")
    page.fill("#pg-rows", "30")
    page.fill("#pg-cols", "30")
    page.fill("#pg-states", "255")
    page.click("#pg-new")
    page.click("#pg-random")
    page.check("#tool-play")
    page.click("#solve")
    page.wait_for_selector("#cancel-work")
    assert page.is_disabled("#solve")
    # the page's own clock ticks on while the worker searches
    page.wait_for_function("document.querySelector('#toast').textContent.includes('… 1 s')")
    page.click("#cancel-work")
    page.wait_for_function("document.querySelector('#toast').textContent === 'Cancelled.'")
    assert not page.is_disabled("#solve")
    assert (
        page.eval_on_selector_all(
            "#board .tile[data-solution]:not([data-solution=''])", "els => els.length"
        )
        == 0
    )


def test_hint_on_a_large_kernel_runs_off_the_page_and_cancels(page):
    """A hint needs a minimal plan: on the 30 x 30 board of 255 states (5^12 kernel
    elements, seconds of search) it runs in the game's worker like "Show solution"; the
    page's clock ticks on, Cancel stops it, and no tap is made."""
    goto(page, "playground")
    page.fill("#pg-rows", "30")
    page.fill("#pg-cols", "30")
    page.fill("#pg-states", "255")
    page.click("#pg-new")
    page.click("#pg-random")
    page.check("#tool-play")
    before = page.evaluate("window.modlights.session().taps")
    page.click("#hint")
    page.wait_for_selector("#cancel-work")
    page.wait_for_function("document.querySelector('#toast').textContent.includes('… 1 s')")
    page.click("#cancel-work")
    page.wait_for_function("document.querySelector('#toast').textContent === 'Cancelled.'")
    assert page.evaluate("window.modlights.session().taps") == before
    assert page.evaluate("window.modlights.session().hinted") is False
