/* modlights game: the board model (a package Board as the page draws and taps it) and
 * sessions (one board being played, with its history, hints and timer). */
import { PATTERNS } from "../js/src/index.js";
import { count } from "./page.js";

/** The name of a pattern's offsets in PATTERNS, or null for custom offsets. */
const nameOf = (offsets) => {
  const key = JSON.stringify(offsets);
  for (const [name, o] of Object.entries(PATTERNS)) if (JSON.stringify(o) === key) return name;
  return null;
};

/** A grid board as the page draws it: geometry and masks read from the package's
 * Board `b`, every tap applied by `b.press` (the engine's tap rule, not a copy). */
export class Model {
  constructor(b) {
    this.b = b;
    this.board = b.toDict();
    [this.rows, this.cols] = b.shape;
    this.n = b.states;
    this.wrap = !!b.wrap;
    this.mixed = b.mixed !== null;
    this.locked = Uint8Array.from(b.locked.flat(), Number);
    this.holes = Uint8Array.from(b.holes.flat(), Number);
    this.effects = new Array(this.size);
  }
  get size() { return this.rows * this.cols; }
  /** The tile's pattern: a name, or null for custom offsets. */
  patternAt(i) {
    const p = this.board.pattern;
    const e = this.mixed ? p[Math.floor(i / this.cols)][i % this.cols] : p;
    return typeof e === "string" ? e : nameOf(e);
  }
  tappable(i) { return !this.locked[i] && !this.holes[i]; }
  /** [[cell, advance], ...]: the cells a tap at i changes (Board.press on zeros). */
  effect(i) {
    if (!this.effects[i]) {
      const after = this.b.press(this.nested(new Uint8Array(this.size)),
        [Math.floor(i / this.cols), i % this.cols]).flat();
      this.effects[i] = [];
      after.forEach((k, j) => { if (k) this.effects[i].push([j, k]); });
    }
    return this.effects[i];
  }
  /** state (flat, modified) after `times` taps at i, by the package's Board.press. */
  press(state, i, times) {
    const after = this.b.press(this.nested(state), [Math.floor(i / this.cols), i % this.cols], times);
    state.set(after.flat());
  }
  solved(state) {
    for (let i = 0; i < state.length; i++) if (state[i] && !this.holes[i]) return false;
    return true;
  }
  nested(state) {
    const out = [];
    for (let r = 0; r < this.rows; r++) out.push(Array.from(state.slice(r * this.cols, (r + 1) * this.cols)));
    return out;
  }
}

/** A board-shaped state as the flat Uint8Array the page keeps (reduced by the package). */
export function flatten(nested, model) {
  return Uint8Array.from(model.b.coerceState(nested).flat());
}

/** A rows x cols board of named patterns drawn at random (a "mixed" board). */
export function randomMixed(rows, cols) {
  const names = Object.keys(PATTERNS);
  const out = [];
  for (let r = 0; r < rows; r++) {
    const row = [];
    for (let c = 0; c < cols; c++) row.push(names[Math.floor(Math.random() * names.length)]);
    out.push(row);
  }
  return out;
}

/** The info line of model `m`: "5×5 · 3 states · cross · wrap · 2 locked · 1 hole". */
export function describe(m) {
  const pat = m.mixed ? "mixed" : (typeof m.board.pattern === "string" ? m.board.pattern : "custom pattern");
  const nl = m.locked.reduce((a, b) => a + b, 0), nh = m.holes.reduce((a, b) => a + b, 0);
  return m.rows + "×" + m.cols + " · " + m.n + " states · " + pat + (m.wrap ? " · wrap" : "") +
    (nl ? " · " + nl + " locked" : "") + (nh ? " · " + count(nh, "hole") : "");
}

/* A session is one board being played: the game's (campaign, daily, custom, code)
 * or the playground's (kept while the player visits other screens). */
export function newSession(mode, board, start, extra) {
  const model = new Model(board);
  const s = Object.assign({
    mode: mode, model: model, puzzle: null, key: null, title: "Puzzle", next: null,
    start: flatten(start, model), history: [], hinted: false, hintMarks: [], solution: null,
    t0: null, elapsed: 0, done: false, focus: 0, solver: null,
  }, extra || {});
  s.state = Uint8Array.from(s.start);
  return s;
}

/** Free a finished session's Solver (its factorisation lives in WebAssembly memory). */
export function dispose(session) {
  if (session && session.solver) { session.solver.dispose(); session.solver = null; }
}
