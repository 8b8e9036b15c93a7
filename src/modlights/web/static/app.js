/* modlights: the browser game. ES modules with no build step and no server behind
 * them: every tap, the star rule, hints, solutions, puzzle codes, the daily puzzles and
 * custom levels come from the modlights JavaScript package (./js/src/index.js: the
 * library's C core compiled to WebAssembly), the campaign's levels from campaign.json
 * (written from Python's Campaign by `modlights site`). Served as static files by
 * `modlights site DIR` and by `modlights serve`.
 *
 * This module starts the page; the game's modules are in game/, one subject each:
 *   state.js       the shared mutable state (the session on screen, timers, the worker)
 *   storage.js     progress and settings in localStorage
 *   page.js        element lookup, the toast, the live region, wording, number fields
 *   engine.js      the package: loading it, the spinner, Solvers, the solver thread
 *   model.js       the board model (a package Board as the page taps it) and sessions
 *   board-view.js  drawing the tiles, the stats, the timer and the tap preview
 *   play.js        taps, undo, reset, hints, solutions, the end of a puzzle
 *   playground.js  the playground: menus, editing tools, puzzle codes
 *   screens.js     showing a screen, the play screen, starting a puzzle
 *   levels.js      the campaign, the daily puzzles, custom levels, shared codes
 *   events.js      the route of each #/hash and every event handler
 */
import { Board } from "./js/src/index.js";
import { state } from "./game/state.js";
import { toast, why } from "./game/page.js";
import { engineReady } from "./game/engine.js";
import { Model, flatten } from "./game/model.js";
import { fillPatternSelect } from "./game/playground.js";
import { drawHeroArt } from "./game/screens.js";
import { wire, route } from "./game/events.js";

async function start() {
  wire();
  try {
    await engineReady();
  } catch (e) {
    toast("The game engine did not load: " + why(e));
  }
  for (const sel of document.querySelectorAll(".pattern-select")) fillPatternSelect(sel, true);
  drawHeroArt();
  route();
  document.body.dataset.ready = "true";
}

// For the browser tests and the curious: read-only views of the game, and the page's
// own tap rule on any board dict (checked against Board.press by the tests).
window.modlights = {
  state: () => (state.cur ? state.cur.model.nested(state.cur.state) : null),
  session: () => state.cur && { mode: state.cur.mode, taps: state.cur.history.length,
    hinted: state.cur.hinted, done: state.cur.done },
  press: (board, tiles, r, c) => {
    const m = new Model(Board.fromDict(board)), s = flatten(tiles, m);
    m.press(s, r * m.cols + c, 1);
    return m.nested(s);
  },
  preview: (board, r, c) => new Model(Board.fromDict(board)).effect(r * board.cols + c)
    .map(([j]) => [Math.floor(j / board.cols), j % board.cols]),
};

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
