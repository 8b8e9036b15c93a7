"""The static site's game as a player meets it (issue 32), in headless Chromium over
``modlights site DIR`` served by http.server: boards wider than a phone scroll to
every column while narrow ones stay centred, the playground's menus show a loaded
board, and no message (toast, screen-reader status) outlives the board it was about.

Tile states are checked against ``Board.press``, generated puzzles against
``ml.generate`` with the same seed, the dialog's figures against the Solver.
"""

from __future__ import annotations

import numpy as np
import pytest

import browser_pages
import modlights as ml
from browser_pages import (
    close_page,
    goto,
    make_site,
    needs_chromium,
    page_state,
    served,
    tile,
    today,
)
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
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def static_site(tmp_path_factory):
    """``modlights site DIR`` served by http.server on a free port: its base URL."""
    with served(make_site(tmp_path_factory)) as url:
        yield url


@pytest.fixture
def open_page(browser, static_site):
    """open_page(viewport) -> a page of the site at that size (a touch screen below
    700 px wide), reduced motion; JavaScript errors fail the test."""
    made = []

    def make(viewport):
        ctx, pg = browser_pages.open_page(browser, static_site, viewport)
        made.append((ctx, pg))
        return pg

    yield make
    for ctx, pg in made:
        close_page(ctx, pg)


@pytest.fixture
def page(open_page):
    return open_page(DESKTOP)


@pytest.fixture
def phone(open_page):
    return open_page(PHONE)


# ----------------------------------------------------------------------------- helpers
def wait_play(page):
    page.wait_for_selector("#screen-play:not([hidden]) #board .tile")


def shot(page, tmp_path, name):
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)


def frame(page):
    """The board's frame (.board-wrap) and the board: their boxes in the viewport, the
    frame's scroll figures, the page's width and whether the scroll note shows."""
    return page.evaluate("""() => {
        const w = document.querySelector('.board-wrap'), b = document.getElementById('board');
        const wr = w.getBoundingClientRect(), br = b.getBoundingClientRect();
        const note = document.getElementById('board-scroll-note');
        return {wrap: [wr.left, wr.right], board: [br.left, br.right],
                scrollWidth: w.scrollWidth, clientWidth: w.clientWidth,
                scrollLeft: w.scrollLeft, page: document.documentElement.scrollWidth,
                view: window.innerWidth,
                note: !!note && !note.hidden};
    }""")


def tile_in_sight(page, pos):
    """Whether the tile at pos lies whole inside the board's frame and the window, and
    is what a finger at its centre touches."""
    return page.evaluate(
        """([r, c]) => {
        const t = document.querySelector(`#board .tile[data-row="${r}"][data-col="${c}"]`);
        const a = t.getBoundingClientRect();
        const w = document.querySelector('.board-wrap').getBoundingClientRect();
        const inside = w.left <= a.left && a.right <= w.right && 0 <= a.left &&
            a.right <= window.innerWidth;
        const hit = document.elementFromPoint((a.left + a.right) / 2, (a.top + a.bottom) / 2);
        return inside && hit === t;
    }""",
        list(pos),
    )


def tap_tile(page, pos):
    """Scroll the tile at pos into view (as a player swipes the board), check that it is
    then whole in sight, and tap it."""
    t = tile(page, pos)
    t.scroll_into_view_if_needed()
    assert tile_in_sight(page, pos), (pos, frame(page))
    if page.viewport_size["width"] < 700:  # the phone's pages have a touch screen
        t.tap()
    else:
        t.click()


def assert_fits_centred(page):
    """The board fits its frame, centred (equal room left and right, 1 px slack), the
    page does not scroll sideways and no scroll note shows."""
    f = frame(page)
    assert f["scrollWidth"] <= f["clientWidth"], f
    left, right = f["board"][0] - f["wrap"][0], f["wrap"][1] - f["board"][1]
    assert left >= 0 and right >= 0 and abs(left - right) <= 1, f
    assert f["page"] <= f["view"] and not f["note"], f


# ----------------------------------------------------------------------------- wide boards
def test_phone_thirty_columns_scroll_to_every_column(phone, tmp_path):
    """Custom, 30 x 30, Generate at 390 x 844: the board is wider than the phone (tiles
    keep 14 px), so its frame scrolls sideways: the left-most and the right-most
    columns can both be scrolled into view whole and tapped (the taps land as
    Board.press says), the page itself does not scroll sideways, and a line under the
    board says that it scrolls. (It was centred into negative offsets: the left 3-4
    columns lay left of the scroll range, out of reach.)"""
    goto(phone, "custom")
    phone.fill("#custom-rows", "30")
    phone.fill("#custom-cols", "30")
    phone.fill("#custom-seed", "5")
    phone.click("#custom-go")
    wait_play(phone)
    p = ml.generate(30, 30, 3, "cross", "medium", seed=5)
    board, state = p.board, p.start.copy()
    assert np.array_equal(page_state(phone, board), state)
    f = frame(phone)
    assert f["scrollWidth"] > f["clientWidth"] and f["scrollLeft"] == 0, f
    shot(phone, tmp_path, "phone-30x30")
    for col in (0, 29, 0):
        pos = next(q for q in board.taps if q[1] == col and q[0] >= 10)
        tap_tile(phone, pos)
        state = board.press(state, pos)
        assert np.array_equal(page_state(phone, board), state), pos
    assert int(phone.inner_text("#tap-count")) == 3
    f = frame(phone)
    assert f["page"] <= f["view"] and f["note"], f
    assert phone.is_visible("#board-scroll-note")
    shot(phone, tmp_path, "phone-30x30-tapped")


def test_phone_playground_thirty_columns_scroll_and_desktop_fits(open_page, tmp_path):
    """The playground's 30-column board: on a phone every column is reachable and
    tappable; at 1280 x 800 the same board fits, centred, with no scroll note."""
    board = ml.Board.grid(12, 30, 4, "cross")
    for viewport in (PHONE, DESKTOP):
        pg = open_page(viewport)
        goto(pg, "playground")
        pg.fill("#pg-rows", "12")
        pg.fill("#pg-cols", "30")
        pg.fill("#pg-states", "4")
        pg.click("#pg-new")
        pg.wait_for_selector('#board[data-rows="12"][data-cols="30"]')
        pg.check("#tool-play")
        if viewport is DESKTOP:
            assert_fits_centred(pg)
        state = np.zeros(board.shape, dtype=np.int64)
        for pos in ((5, 0), (6, 29), (0, 0), (11, 29)):
            tap_tile(pg, pos)
            state = board.press(state, pos)
            assert np.array_equal(page_state(pg, board), state), (viewport, pos)
        if viewport is PHONE:
            assert frame(pg)["note"]
        shot(pg, tmp_path, f"playground-12x30-{viewport['width']}")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_narrow_boards_stay_centred(open_page, viewport, tmp_path):
    """Boards that fit stay centred in their frame, on a phone and on a desktop: a
    campaign level, the three daily puzzles, the playground's default board and the
    widest custom board that fits a phone at 14 px tiles (21 columns)."""
    page = open_page(viewport)
    w = viewport["width"]
    goto(page, "campaign")
    page.click("#level-0")
    wait_play(page)
    assert_fits_centred(page)
    shot(page, tmp_path, f"campaign-{w}")
    for i, p in enumerate(ml.daily(today())):
        goto(page, "daily")
        page.click(f"#daily-{i}")
        wait_play(page)
        assert np.array_equal(page_state(page, p.board), p.start)
        assert_fits_centred(page)
        shot(page, tmp_path, f"daily-{i}-{w}")
    goto(page, "playground")
    assert_fits_centred(page)
    shot(page, tmp_path, f"playground-{w}")
    goto(page, "custom")
    page.fill("#custom-rows", "21")
    page.fill("#custom-cols", "21")
    page.fill("#custom-seed", "2")
    page.click("#custom-go")
    wait_play(page)
    assert_fits_centred(page)
    shot(page, tmp_path, f"custom-21-{w}")


# ----------------------------------------------------------------------------- playground
def load_code(page, code):
    page.fill("#code-input", code)
    page.click("#load-code")


def menus(page):
    """The playground's menus: (rows, cols, states, pattern value, pattern text, wrap)."""
    return (
        int(page.input_value("#pg-rows")),
        int(page.input_value("#pg-cols")),
        int(page.input_value("#pg-states")),
        page.input_value("#pg-pattern"),
        page.eval_on_selector("#pg-pattern", "s => s.selectedOptions[0].textContent"),
        page.is_checked("#pg-wrap"),
    )


def playground_taps_match(page, board, picks):
    """With the Tap tool, tapping ``picks`` on the (empty) playground board gives the
    states Board.press gives on ``board``."""
    page.check("#tool-play")
    state = np.zeros(board.shape, dtype=np.int64)
    for pos in picks:
        tile(page, pos).click()
        state = board.press(state, pos)
        assert np.array_equal(page_state(page, board), state), pos


def test_load_code_sets_the_menus_and_new_board_follows_them(page, tmp_path):
    """After Load code the playground's menus show the loaded board (size, states,
    pattern, wrap), so New empty board makes one like it: a diagonal board's code
    sets Pattern to diagonal (it stayed at "cross", and New empty board then silently
    made a cross board). Custom offsets and a mixed board's per-tile patterns show as
    "as loaded" and New empty board reuses them; a named pattern's code takes that
    entry away again."""
    goto(page, "playground")
    assert menus(page) == (5, 5, 3, "cross", "cross", False)
    diagonal = ml.Board.grid(4, 6, 4, "diagonal", wrap=True)
    start = diagonal.press(np.zeros((4, 6), dtype=np.int64), (1, 2))
    load_code(page, ml.Puzzle(diagonal, start).code)
    page.wait_for_selector('#board[data-rows="4"][data-cols="6"][data-states="4"]')
    assert np.array_equal(page_state(page, diagonal), start)
    assert menus(page) == (4, 6, 4, "diagonal", "diagonal", True)
    page.click("#pg-new")
    page.wait_for_function("!document.querySelector('#board .tile[data-state=\"1\"]')")
    assert page.inner_text("#play-info") == "4×6 · 4 states · diagonal · wrap"
    playground_taps_match(page, diagonal, [(0, 0), (3, 5), (1, 2)])

    custom = ml.Board.grid(3, 5, 3, [(0, 0), (0, 2), (1, -1)])
    load_code(page, ml.Puzzle(custom, np.zeros((3, 5), dtype=np.int64)).code)
    page.wait_for_function("document.querySelector('#pg-pattern').value === 'loaded'")
    assert menus(page) == (3, 5, 3, "loaded", "as loaded", False)
    page.fill("#pg-cols", "6")  # custom offsets fit any size
    page.click("#pg-new")
    page.wait_for_selector('#board[data-rows="3"][data-cols="6"]')
    playground_taps_match(
        page, ml.Board.grid(3, 6, 3, [(0, 0), (0, 2), (1, -1)]), [(0, 1), (1, 3), (2, 0)]
    )

    mix = [["cross", "knight", "square"], ["vertical", [(0, 1), (1, 1)], "diagonal"]]
    mixed = ml.Board.grid(2, 3, 5, mix, wrap=True)
    load_code(page, ml.Puzzle(mixed, np.zeros((2, 3), dtype=np.int64)).code)
    page.wait_for_selector('#board[data-rows="2"][data-cols="3"][data-states="5"]')
    assert menus(page) == (2, 3, 5, "loaded", "as loaded", True)
    page.click("#pg-new")
    playground_taps_match(page, mixed, [(0, 0), (0, 1), (1, 1), (1, 2)])
    page.fill("#pg-rows", "3")  # a per-tile mix only fits its own size
    page.click("#pg-new")
    assert page.inner_text("#pg-error") == (
        "The loaded mixed pattern is 2×3: keep that size for it, or pick another pattern"
    )
    assert page.locator('#board[data-rows="2"]').count() == 1

    knight = ml.Board.grid(2, 2, 2, "knight")
    load_code(page, ml.Puzzle(knight, np.zeros((2, 2), dtype=np.int64)).code)
    page.wait_for_function("document.querySelector('#pg-pattern').value === 'knight'")
    assert menus(page) == (2, 2, 2, "knight", "knight", False)
    assert page.locator("#pg-pattern option[value=loaded]").count() == 0
    assert page.inner_text("#pg-error") == ""
    shot(page, tmp_path, "playground-loaded")


def test_load_code_clears_the_old_boards_messages(page):
    """A message about the board on screen ("No hint: ..." for a start no taps
    clear) goes when another board is loaded, and when New empty board replaces it;
    it stayed up over the next board."""
    goto(page, "playground")
    stuck = ml.Board.grid(1, 2, 2, "cross", locked=[(0, 1)])  # a tap adds [1, 1]
    unsolvable = ml.Puzzle(stuck, np.array([[0, 1]])).code
    solvable = ml.Puzzle(stuck, np.array([[1, 1]])).code
    for replace in ("load", "new"):
        load_code(page, unsolvable)
        page.wait_for_selector('#board[data-rows="1"][data-cols="2"]')
        page.click("#hint")
        page.wait_for_selector("#toast:not([hidden])")
        assert page.inner_text("#toast").startswith("No hint: ")
        if replace == "load":
            load_code(page, solvable)
            page.wait_for_function(
                "document.querySelector('#board .tile[data-col=\"0\"]').dataset.state === '1'"
            )
        else:
            page.click("#pg-new")
            page.wait_for_function(
                "document.querySelector('#board .tile[data-col=\"1\"]').dataset.state === '0'"
            )
        assert page.is_hidden("#toast"), replace
        assert page.inner_text("#toast") == ""


def status(page):
    return page.text_content("#status")


def test_status_keeps_no_stale_solved_message(page):
    """The screen-reader status line (a hidden live region) does not keep "Solved
    ..." once the solved board is left or replaced: not on the playground after a
    solved daily puzzle, not after loading another code, New empty board, or an
    undo in the playground."""
    goto(page, "daily")
    page.click("#daily-0")
    wait_play(page)
    p = ml.daily(today())[0]
    page.click("#hint")
    page.wait_for_selector("#board .tile.hinted")
    after = page_state(page, p.board)
    for pos in p.solver.solve(after, minimal=True).moves():
        tile(page, pos).click()
    page.wait_for_selector("#complete:not([hidden])")
    assert status(page).startswith("Solved in ")
    page.click("#complete-close")
    goto(page, "playground")
    assert status(page) == ""

    board = ml.Board.grid(3, 3, 3, "cross")
    start = board.press(np.zeros((3, 3), dtype=np.int64), (1, 1), 2)  # one tap solves it
    code = ml.Puzzle(board, start).code
    page.check("#tool-play")
    for leave in ("load", "new", "undo"):
        load_code(page, code)
        page.wait_for_function(
            'document.querySelector(\'#board .tile[data-row="1"][data-col="1"]\')'
            ".dataset.state === '2'"
        )
        assert status(page) == "Loaded: 3×3 · 3 states · cross."
        tile(page, (1, 1)).click()
        page.wait_for_function("document.querySelector('#status').textContent !== ''")
        assert status(page) == "Solved in 1 tap."
        if leave == "load":
            load_code(page, code)
            page.wait_for_function("document.querySelector('#tap-count').textContent === '0'")
            assert status(page) == "Loaded: 3×3 · 3 states · cross."
        elif leave == "new":
            page.click("#pg-new")
            page.wait_for_function("document.querySelector('#tap-count').textContent === '0'")
            assert status(page) == ""
        else:
            page.click("#undo")
            assert status(page) == ""


# ----------------------------------------------------------------------------- dialog
def test_hinted_dialog_speaks_plainly(page, tmp_path):
    """The solved dialog of a try with a hint says so in a player's words: "You used a
    hint, so this try earns no stars." (it read "A hint was used (hinted): ...")."""
    goto(page, "daily")
    page.click("#daily-1")
    wait_play(page)
    p = ml.daily(today())[1]
    page.click("#hint")
    page.wait_for_selector("#board .tile.hinted")
    after = page_state(page, p.board)
    rest = p.solver.solve(after, minimal=True).moves()
    for pos in rest:
        tile(page, pos).click()
    page.wait_for_selector("#complete:not([hidden])")
    taps = 1 + len(rest)
    said = f"{taps} tap" + ("" if taps == 1 else "s")
    timer = page.inner_text("#timer")
    assert page.inner_text("#complete-text") == (
        f"Solved in {said} and {timer}. The fewest possible is {p.min_taps}. "
        "You used a hint, so this try earns no stars."
    )
    assert page.get_attribute("#complete-stars", "data-stars") == "0"
    assert status(page) == f"Solved in {said} with a hint: no stars."
    shot(page, tmp_path, "hinted-dialog")
