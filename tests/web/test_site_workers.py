"""Web Workers in headless Chromium: the game's solver thread (solve-worker.js) and a
library user's own worker, on the static site (``modlights site DIR`` served by
http.server).

The npm package must never change a worker's message handling on import: the game's
"Show solution" and its hints on boards past 2^16 kernel elements post to one worker
again and again, and every answer must be a solution (checked against the Python
library: Board.apply and the Solver's fewest taps); a user's worker that imports the
package gets only its own replies; the package's SolverWorker runs in a browser too.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import modlights as ml
from browser_pages import (
    close_page,
    goto,
    make_site,
    needs_chromium,
    open_page,
    page_state,
    served,
    tap_count,
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

#: A page that runs a user's module worker importing the package: once the worker says
#: it is ready the page posts three requests and records every message the worker sends
#: back (window.replies); it also solves with the package's SolverWorker
#: (window.viaSolverWorker).
USER_PAGE = """<!doctype html><meta charset="utf-8"><title>user worker</title>
<script type="module">
import { Board, init, runInWorker } from "./js/src/index.js";
await init();                       // the core before the first Board: the page waits for it
window.replies = [];
const w = new Worker("user-worker.js", { type: "module" });
w.onmessage = (ev) => {
  window.replies.push(ev.data);
  if (ev.data.ready) for (const k of [1, 2, 3]) w.postMessage({ ask: k });
};
w.onerror = (ev) => window.replies.push({ workerError: String(ev.message) });
const board = Board.grid(4, 4, { states: 3 });
const state = board.press(board.press([[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]], [1, 2]), [3, 0]);
const sol = await runInWorker(board, state);
window.viaSolverWorker = { state, taps: sol.taps, length: sol.length };
</script>
"""

#: The user's worker: it imports the package, says it is ready, and answers each
#: request with a solve of its own.
USER_WORKER = """
import { Board, Solver, init } from "./js/src/index.js";
self.addEventListener("message", async (ev) => {
  await init();                     // the core before the first Board (once)
  const s = await Solver.create(Board.grid(3, 3));
  self.postMessage({ mine: ev.data.ask, nullity: s.nullity });
  s.dispose();
});
self.postMessage({ ready: true });
"""


@pytest.fixture(scope="module")
def static_site(tmp_path_factory):
    """``modlights site DIR`` plus the user's page and worker, served by http.server."""
    root = make_site(tmp_path_factory, {"user.html": USER_PAGE, "user-worker.js": USER_WORKER})
    with served(root) as url:
        yield url


@pytest.fixture
def page(browser, static_site):
    ctx, pg = open_page(browser, static_site, {"width": 1100, "height": 900})
    yield pg
    close_page(ctx, pg)


def new_playground(page, rows, cols, states, pattern):
    """An empty rows x cols board in the playground, then a random solvable start that
    is not all zeros; returns the Board (Python's) and the start the page shows."""
    goto(page, "playground")
    page.fill("#pg-rows", str(rows))
    page.fill("#pg-cols", str(cols))
    page.fill("#pg-states", str(states))
    page.select_option("#pg-pattern", pattern)
    page.click("#pg-new")
    page.wait_for_selector(
        f'#board[data-rows="{rows}"][data-cols="{cols}"][data-states="{states}"]'
    )
    board = ml.Board.grid(rows, cols, states, pattern)
    return board, random_start(page, board)


def random_start(page, board):
    """Press "Random solvable start" until the start is not all zeros; returns it."""
    for _ in range(10):
        page.click("#pg-random")
        state = page_state(page, board)
        if state.any():
            return state
    raise AssertionError("ten random starts were all zeros")


def show_solution(page, board):
    """Click "Show solution" and return the taps the tiles' corners show; a failure
    ("No solution: ...") fails the test with the page's message."""
    page.click("#solve")
    page.wait_for_function(
        "document.querySelector(\"#board .tile[data-solution]:not([data-solution=''])\")"
        " !== null || document.querySelector('#toast').textContent.includes('No solution')"
    )
    toast = page.inner_text("#toast")
    assert "No solution" not in toast, toast
    marks = page.eval_on_selector_all(
        "#board .tile", "els => els.map(e => +e.dataset.solution || 0)"
    )
    return np.array(marks).reshape(board.shape)


def test_show_solution_works_every_time(page):
    """Each "Show solution" of the playground is a minimal solution of the board shown,
    the second and third too (one solver thread serves them all)."""
    board, state = new_playground(page, 5, 5, 3, "cross")
    solver = ml.Solver(board)
    for k in range(3):
        taps = show_solution(page, board)
        assert not board.apply(state, taps).any(), f"click {k + 1}: not a solution"
        assert taps.sum() == solver.solve(state, minimal=True).length, f"click {k + 1}"
        state = random_start(page, board)  # a new start clears the marks


def test_hints_on_a_kernel_past_two_to_the_sixteen(page):
    """On a board with |ker A| = 2^17 each hint runs in the solver thread: every hint (the
    second and third too) is the first tap of a minimal plan; "Show solution" afterwards
    still answers."""
    board, state = new_playground(page, 5, 17, 2, "vertical")
    solver = ml.Solver(board)
    assert solver.kernel_size == 2**17
    page.check("#tool-play")
    for k in range(1, 4):
        before = solver.solve(state, minimal=True).length
        page.click("#hint")
        page.wait_for_function(
            f"+document.querySelector('#tap-count').textContent === {k}"
            " || document.querySelector('#toast').textContent.includes('No hint')"
        )
        toast = page.inner_text("#toast")
        assert "No hint" not in toast, f"hint {k}: {toast}"
        assert tap_count(page) == k
        after = page_state(page, board)
        assert (after != state).any(), f"hint {k} changed nothing"
        assert solver.solve(after, minimal=True).length == before - 1, f"hint {k}"
        state = after
    taps = show_solution(page, board)
    assert not board.apply(state, taps).any()


def test_user_worker_gets_only_its_own_replies(page):
    """A user's module worker that imports the package and listens for "message"
    receives nothing from the package: after its "ready", its three requests get its
    three replies and nothing else. The package's own SolverWorker answers in the browser too."""
    page.goto("/user.html")
    page.wait_for_function("window.replies && window.replies.length >= 4 && window.viaSolverWorker")
    page.wait_for_timeout(300)  # any late message of the package's would arrive meanwhile
    replies = page.evaluate("window.replies")
    want_nullity = ml.Solver(ml.Board.grid(3, 3)).nullity
    want = [{"ready": True}] + [{"mine": k, "nullity": want_nullity} for k in (1, 2, 3)]
    assert replies == want, json.dumps(replies)
    got = page.evaluate("window.viaSolverWorker")
    board = ml.Board.grid(4, 4, 3)
    state = np.array(got["state"])
    assert not board.apply(state, np.array(got["taps"])).any()
    assert got["length"] == ml.Solver(board).solve(state, minimal=True).length
