/* modlights game: playing the session on screen (state.cur): taps, undo, reset, hints,
 * the playground's "Show solution", and the end of a puzzle (stars, best, the solved
 * dialog). */
import { state } from "./state.js";
import { recordBest } from "./storage.js";
import { $, toast, say, why, count, starText, clock } from "./page.js";
import { busy, solverOf, solveOffThread } from "./engine.js";
import { updateTiles, updateStats, startTimer, stopTimer, showPreview } from "./board-view.js";

function tapAt(i) {
  const cur = state.cur;
  say("");                        // the last message (solved, locked, hint) is stale
  cur.model.press(cur.state, i, 1);
  cur.history.push(i);
  cur.hintMarks = [];
  // a shown solution counts down as it is followed; any other tap makes it stale
  if (cur.solution && cur.solution[i]) cur.solution[i]--;
  else cur.solution = null;
  startTimer();
}

/** A tap on tile i as the player asked for it: refused (with a shake and a message)
 * on a locked tile or a hole, ignored once the puzzle is done. The playground's
 * editing tools do not come here (events.js sends those clicks to editTile). */
export function onTile(i) {
  const cur = state.cur;
  if (cur.done) return;
  if (!cur.model.tappable(i)) {
    const t = $("board").children[i];
    t.classList.remove("shake");
    void t.offsetWidth;
    t.classList.add("shake");
    say(cur.model.holes[i] ? "That is a hole." : "Locked tiles cannot be tapped.");
    return;
  }
  tapAt(i);
  afterMove();
}

function afterMove() {
  updateTiles();
  if (state.previewed !== null) showPreview(state.previewed);
  if (state.cur.model.solved(state.cur.state) && state.cur.history.length > 0) finish();
}

export function undo() {
  const cur = state.cur;
  if (!cur || cur.done || !cur.history.length) return;
  const i = cur.history.pop();
  cur.model.press(cur.state, i, cur.model.n - 1);
  cur.hintMarks = [];
  cur.solution = null;
  say("");
  updateTiles();
}

export function reset() {
  const cur = state.cur;
  if (!cur) return;
  cur.state = Uint8Array.from(cur.start);
  cur.history = [];
  cur.hintMarks = [];
  cur.solution = null;
  cur.hinted = false;             // a new try: the badge and the stars start afresh
  cur.done = false;
  cur.elapsed = 0;
  cur.t0 = null;
  say("");
  updateTiles();
}

/* Kernels up to this many elements are searched on the page's thread (milliseconds);
 * a hint on a larger one runs its minimal search in the solver thread, as "Show
 * solution" does, so the page never freezes and Cancel stops it. */
const QUICK_KERNEL = 1n << 16n;

/** The first tap of a board-shaped tap array in row-major order (the package's
 * Solution.firstMove), or null when there is none. */
function firstTap(taps) {
  for (let r = 0; r < taps.length; r++)
    for (let c = 0; c < taps[r].length; c++) if (Number(taps[r][c]) !== 0) return [r, c];
  return null;
}

export async function hint() {
  const cur = state.cur;
  if (!cur || cur.done || cur.model.solved(cur.state)) return;
  const s = cur, before = s.state.join();
  let tap;
  try {
    const solver = await solverOf(s);
    if (solver.kernelSize > QUICK_KERNEL) {
      tap = firstTap((await solveOffThread(s.model.b, s.model.nested(s.state))).taps);
    } else {
      tap = await busy(() => solver.hint(s.model.nested(s.state)));
    }
  } catch (e) {
    if (s === state.cur) toast(why(e) === "cancelled" ? "Cancelled." : "No hint: " + why(e));
    return;
  }
  // a hint for a state the player has changed meanwhile is dropped
  if (s !== state.cur || s.done || !tap || s.state.join() !== before) return;
  const i = tap[0] * s.model.cols + tap[1];
  tapAt(i);
  s.hinted = true;
  s.hintMarks = s.model.effect(i).map((e) => e[0]);
  say("Hint: tapped row " + (tap[0] + 1) + ", column " + (tap[1] + 1) + ".");
  afterMove();
}

export async function showSolution() {
  const s = state.cur, model = s.model, before = s.state.join();
  // an answer for a board edited (or left) meanwhile is dropped
  const stale = () => s !== state.cur || s.model !== model || s.state.join() !== before ||
    document.body.dataset.screen !== "play";
  try {
    const sol = await solveOffThread(model.b, model.nested(s.state));
    if (stale()) return;
    s.solution = Uint8Array.from(Array.from(sol.taps).flat(), Number);
    updateTiles();
    toast(count(Number(sol.length), "tap") + (sol.provenMinimal ? " (proved fewest)" : "") +
      ": the numbers in the corners say how often to tap each tile.");
  } catch (e) {
    if (stale()) return;
    toast(why(e) === "cancelled" ? "Cancelled." : "No solution: " + why(e));
  }
}

function finish() {
  const cur = state.cur;
  if (cur.mode === "playground") {
    say("Solved in " + count(cur.history.length, "tap") + ".");
    $("board").classList.add("flash");
    setTimeout(() => $("board").classList.remove("flash"), 700);
    return;
  }
  cur.done = true;
  stopTimer();
  const taps = cur.history.length;
  const stars = cur.hinted ? 0 : cur.puzzle.puzzle.starsFor(taps);
  const time = Math.floor(cur.elapsed);
  const improved = !cur.hinted && recordBest(cur.key, taps, stars, time);
  updateStats();
  $("complete-stars").textContent = starText(stars);
  $("complete-stars").dataset.stars = stars;
  $("complete").dataset.hinted = cur.hinted ? "true" : "false";
  let text = "Solved in " + count(taps, "tap") + " and " + clock(time) + ". The fewest possible is " + cur.puzzle.min_taps + ".";
  if (cur.hinted) text += " You used a hint, so this try earns no stars.";
  else if (improved) text += " New personal best!";
  $("complete-text").textContent = text;
  $("complete-next").hidden = !cur.next;
  $("complete").hidden = false;
  say("Solved in " + count(taps, "tap") + (cur.hinted ? " with a hint: no stars."
    : ", " + count(stars, "star") + "."));
  $("complete-next").hidden ? $("complete-retry").focus() : $("complete-next").focus();
}
