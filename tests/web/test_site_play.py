"""The static site's game as a player meets it (issue 32), in headless Chromium over
``modlights site DIR`` served by http.server: boards wider than a phone scroll to
every column while narrow ones stay centred.

Tile states are checked against ``Board.press``, generated puzzles against
``ml.generate`` with the same seed.
"""

from __future__ import annotations

import functools
import http.server
import threading

import numpy as np
import pytest

import modlights as ml
from browser_pages import TIMEOUT_MS, goto, launch_chromium, needs_chromium, page_state, tile, today
from modlights.web import site

pytestmark = [
    needs_chromium,
    pytest.mark.skipif(
        site.js_package_dir() is None
        or not (site.js_package_dir() / "dist" / "modlights.wasm").is_file(),
        reason="the JavaScript package (js/src, js/dist/modlights.wasm) is not built here",
    ),
]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def static_site(tmp_path_factory):
    """``modlights site DIR`` served by http.server on a free port: its base URL."""
    from modlights.cli import main

    root = tmp_path_factory.mktemp("site")
    assert main(["site", str(root)]) == 0
    handler = functools.partial(_Quiet, directory=str(root))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    pw, b = launch_chromium()
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def open_page(browser, static_site):
    """open_page(viewport) -> a page of the site at that size (a touch screen below
    700 px wide), reduced motion; JavaScript errors fail the test."""
    made = []

    def make(viewport):
        phone = viewport["width"] < 700
        ctx = browser.new_context(
            viewport=viewport,
            base_url=static_site,
            reduced_motion="reduce",
            has_touch=phone,
            is_mobile=phone,
        )
        pg = ctx.new_page()
        pg.set_default_timeout(TIMEOUT_MS)
        pg.errors = []
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))
        made.append((ctx, pg))
        return pg

    yield make
    for ctx, pg in made:
        ctx.close()
        assert not pg.errors, f"JavaScript errors on the page: {pg.errors}"


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
