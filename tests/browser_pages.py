"""What the browser tests share (tests/web/test_browser.py drives ``modlights serve``,
tests/web/test_site*.py the static site of ``modlights site DIR``): Debian's Chromium
under Playwright, the static site served by http.server, pages that record their
JavaScript errors, and helpers that read the game's page. tests/web/conftest.py holds
the ``browser`` fixture."""

from __future__ import annotations

import contextlib
import datetime
import functools
import http.server
import importlib.util
import os
import threading
from collections.abc import Iterator

import numpy as np
import pytest

#: The Chromium the tests drive: Debian's (.ci/run installs it), or the binary named by
#: MODLIGHTS_CHROMIUM. Without it, or without Playwright, the browser tests skip with
#: a reason that starts with BROWSER_SKIP and names the command that fixes it;
#: tests/conftest.py repeats it in the summary of the run.
CHROMIUM = os.environ.get("MODLIGHTS_CHROMIUM") or "/usr/bin/chromium"
#: Playwright's default timeout for every page action, in ms.
TIMEOUT_MS = 20_000
BROWSER_SKIP = "browser test skipped"


def browser_missing(chromium: str = CHROMIUM) -> str | None:
    """None when the browser tests can run, else why not and the one command that fixes
    it (the skip reason)."""
    if importlib.util.find_spec("playwright") is None:
        return f'{BROWSER_SKIP}: Playwright is not installed; fix: pip install ".[test]"'
    if not os.access(chromium, os.X_OK):
        return (
            f"{BROWSER_SKIP}: no Chromium at {chromium}; fix: "
            "apt-get install -y chromium (Debian, as root; or set MODLIGHTS_CHROMIUM "
            "to a Chromium binary)"
        )
    return None


needs_chromium = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")


def launch_chromium():
    """(playwright, browser): a headless Chromium; close the browser, then stop
    playwright."""
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    b = pw.chromium.launch(
        executable_path=CHROMIUM,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    )
    return pw, b


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def make_site(tmp_path_factory, files: dict[str, str] | None = None):
    """A fresh directory holding ``modlights site DIR``'s output plus ``files``
    ({name: text}, written beside it); returns its path."""
    from modlights.cli import main

    root = tmp_path_factory.mktemp("site")
    assert main(["site", str(root)]) == 0
    for name, text in (files or {}).items():
        (root / name).write_text(text, encoding="utf-8")
    return root


@contextlib.contextmanager
def served(root) -> Iterator[str]:
    """``root`` served by http.server (static files only, no API) on a free port of
    127.0.0.1 while the block runs; yields its base URL."""
    handler = functools.partial(_Quiet, directory=str(root))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(10)


def open_page(browser, base_url: str, viewport: dict, **options):
    """(context, page): a new browser context at ``viewport`` on ``base_url`` with
    reduced motion (a touch screen below 700 px wide; ``options`` are the context's,
    over these), Playwright's timeout TIMEOUT_MS;
    the page records its JavaScript errors in ``page.errors`` and its finished requests
    as (url, status) in ``page.requests``. Close it with :func:`close_page`."""
    phone = viewport["width"] < 700
    options = {"has_touch": phone, "is_mobile": phone, "reduced_motion": "reduce", **options}
    ctx = browser.new_context(base_url=base_url, viewport=viewport, **options)
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    pg.errors, pg.requests = [], []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("requestfinished", lambda r: pg.requests.append((r.url, r.response().status)))
    return ctx, pg


def close_page(ctx, pg) -> None:
    """Close a page of :func:`open_page`; fails the test if it had JavaScript errors."""
    ctx.close()
    assert not pg.errors, f"JavaScript errors on the page: {pg.errors}"


def goto(page, route):
    """Open the game's ``#/route`` and wait until the page says it is ready."""
    page.goto("/#/" + route)
    page.wait_for_selector("body[data-ready=true]")


def today():
    """Today's date in UTC (the daily puzzles' calendar)."""
    return datetime.datetime.now(datetime.timezone.utc).date()


def page_state(page, board):
    """The tiles' data-state as a board-shaped array (holes read as 0)."""
    values = page.eval_on_selector_all("#board .tile", "els => els.map(e => e.dataset.state)")
    assert len(values) == board.shape[0] * board.shape[1]
    return np.array([int(v) if v else 0 for v in values]).reshape(board.shape)


def tile(page, pos):
    """The tile at (row, col)."""
    return page.locator(f'#board .tile[data-row="{pos[0]}"][data-col="{pos[1]}"]')


def marked(page, cls):
    """Sorted (row, col) of the tiles that have the CSS class ``cls``."""
    rc = page.eval_on_selector_all(
        f"#board .tile.{cls}", "els => els.map(e => [+e.dataset.row, +e.dataset.col])"
    )
    return sorted((r, c) for r, c in rc)


def tap_count(page):
    """The taps the page's counter shows."""
    return int(page.inner_text("#tap-count"))
