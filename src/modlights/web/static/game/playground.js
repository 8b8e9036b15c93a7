/* modlights game: the playground, a board built by hand: its menus (size, states,
 * pattern, wrap), the editing tools (state +1, lock, hole), a random solvable start,
 * and puzzle codes (share, copy, load). */
import { Board, Puzzle, PATTERNS } from "../js/src/index.js";
import { state } from "./state.js";
import { $, toast, clearToast, say, why, intField } from "./page.js";
import { Model, randomMixed, describe, newSession, dispose } from "./model.js";
import { updateTiles, currentTool } from "./board-view.js";
import { showPlay } from "./screens.js";

/** Fill the <select> `sel` with the package's pattern names (and "mixed" when
 * `withMixed`), "cross" selected. */
export function fillPatternSelect(sel, withMixed) {
  sel.innerHTML = "";
  for (const name of Object.keys(PATTERNS).concat(withMixed ? ["mixed"] : [])) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = name;
    sel.appendChild(o);
  }
  sel.value = "cross";
}

/* The pattern of the last loaded code when it has no name (custom offsets, or a
 * mixed board's per-tile patterns): {pattern, mixed, rows, cols}, offered in the
 * playground's Pattern menu as its "loaded" entry; null when there is none. */
let loadedPattern = null;

/** Set the playground's menus (size, states, pattern, wrap) to those of model `m`,
 * so that they show the board on screen and New empty board makes one like it. */
function showMenusOf(m) {
  $("pg-rows").value = m.rows;
  $("pg-cols").value = m.cols;
  $("pg-states").value = m.n;
  $("pg-wrap").checked = m.wrap;
  const sel = $("pg-pattern"), pattern = m.board.pattern;
  let extra = sel.querySelector("option[value=loaded]");
  if (typeof pattern === "string") {
    if (extra) extra.remove();
    loadedPattern = null;
    sel.value = pattern;
    return;
  }
  loadedPattern = { pattern: pattern, mixed: m.mixed, rows: m.rows, cols: m.cols };
  if (!extra) {             // short enough for the menu's width (the info line names it)
    extra = document.createElement("option");
    extra.value = "loaded";
    extra.textContent = "as loaded";
    sel.appendChild(extra);
  }
  sel.value = "loaded";
}

/** The pattern New empty board uses for a rows x cols board: the menu's name, a
 * random mix, or the loaded code's own pattern (a mixed one only at its own size). */
function menuPattern(rows, cols) {
  const name = $("pg-pattern").value;
  if (name === "mixed") return randomMixed(rows, cols);
  if (name !== "loaded") return name;
  const lp = loadedPattern;
  if (lp.mixed && (lp.rows !== rows || lp.cols !== cols)) {
    throw new Error("The loaded mixed pattern is " + lp.rows + "×" + lp.cols +
      ": keep that size for it, or pick another pattern");
  }
  return lp.pattern;
}

/** A new empty board of the menus' settings becomes the playground's session and the
 * session on screen; an Error (the message for the player) for a bad setting. */
export function newPlayground() {
  const rows = intField("pg-rows", 1, 30), cols = intField("pg-cols", 1, 30);
  const n = intField("pg-states", 2, 255);
  const board = Board.grid(rows, cols, { states: n, wrap: $("pg-wrap").checked,
    pattern: menuPattern(rows, cols) });
  const zeros = Array.from({ length: rows }, () => new Array(cols).fill(0));
  dispose(state.pgSession);
  state.pgSession = newSession("playground", board, zeros, { title: "Playground" });
  state.cur = state.pgSession;
}

/** The playground's board was replaced or edited: a search for the old one stops
 * (its answer would be dropped), and its messages (a solution's note, "No
 * solution", the live region's "Solved") go. */
export function boardChanged() {
  if (state.cancelWork) state.cancelWork();
  clearToast();
  say("");
}

function boardWithMasks(m) {
  const locked = [], holes = [];
  for (let i = 0; i < m.size; i++) {
    const rc = [Math.floor(i / m.cols), i % m.cols];
    if (m.locked[i]) locked.push(rc);
    if (m.holes[i]) holes.push(rc);
  }
  return Object.assign({}, m.board, { locked: locked, holes: holes });
}

/** A click on tile i with the editing tool chosen (state +1, lock, hole). */
export function editTile(i) {
  const cur = state.cur;
  const m = cur.model;
  const tool = currentTool();
  if (tool === "state") {
    if (m.holes[i]) return;
    cur.state[i] = (cur.state[i] + 1) % m.n;
  } else if (tool === "lock") {
    m.locked[i] ^= 1;
    m.holes[i] = 0;
  } else if (tool === "hole") {
    m.holes[i] ^= 1;
    m.locked[i] = 0;
    cur.state[i] = 0;
  }
  if (tool !== "state") {
    const s = cur.state;
    cur.model = new Model(Board.fromDict(boardWithMasks(m)));
    cur.solver = null;
    cur.state = s;
  }
  startFromHere(cur);
}

// The playground's current state becomes its start: no history, hints or solution, no code.
function startFromHere(cur) {
  cur.start = Uint8Array.from(cur.state);
  cur.history = [];
  cur.hintMarks = [];
  cur.solution = null;
  $("code-output").value = "";
  boardChanged();
  updateTiles();
}

export function randomStart() {
  const cur = state.cur;
  const m = cur.model;
  cur.state = new Uint8Array(m.size);
  for (let i = 0; i < m.size; i++) {
    if (m.tappable(i)) m.press(cur.state, i, Math.floor(Math.random() * m.n));
  }
  startFromHere(cur);
}

export async function shareCode() {
  $("pg-error").textContent = "";
  try {
    const p = new Puzzle(state.cur.model.b, state.cur.model.nested(state.cur.state));
    $("code-output").value = await p.code;
    $("code-output").select();
  } catch (e) {
    $("pg-error").textContent = "Cannot make a code: " + why(e);
  }
}

export async function copyCode() {
  const text = $("code-output").value;
  if (!text) return;
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    $("code-output").select();
    document.execCommand("copy");
  }
  toast("Code copied.");
}

export async function loadCode() {
  $("pg-error").textContent = "";
  const code = $("code-input").value.trim();
  if (!code) { $("pg-error").textContent = "Paste a puzzle code first."; return; }
  let p;
  try {
    p = Puzzle.fromCode(code);
    dispose(state.pgSession);
    state.pgSession = newSession("playground", p.board, await p.start, { title: "Playground", puzzle: null });
  } catch (e) {
    $("pg-error").textContent = "Cannot load that code: " + why(e);
    return;
  }
  state.cur = state.pgSession;
  boardChanged();
  showMenusOf(state.cur.model);
  $("code-output").value = await p.code;
  showPlay();
  say("Loaded: " + describe(state.cur.model) + ".");
}
