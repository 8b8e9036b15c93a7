/**
 * Board: the geometry of a puzzle and its tap matrix A, as Python's
 * modlights.model.board.Board (the same rules and the same JSON from toDict /
 * fromDict; bad input is an InputError in JavaScript's words).
 *
 * A board lists its active tiles (holes left out), the rows of A, and its tappable
 * tiles (locked tiles left out), the columns of A, both in row-major order. Column j
 * of A is the effect of tapping tap j: for a grid, the tile's offsets applied to its
 * position (dropped off the edges, or wrapped on a torus), holes skipped; for a
 * graph board, the listed cells (a cell listed k times advances k times).
 *
 * States and tap counts: nested arrays rows x cols of ints for grids (0 at holes;
 * taps 0 at locked tiles and holes), a flat array for graph boards; typed arrays are
 * accepted too (for grids, a flat row-major array of rows * cols values or an array
 * of rows). Entries are integers (numbers or BigInts; true and false count as 1 and 0),
 * and every integer is reduced mod n silently, as in Python: with n = 3, a 4 is 1 and a
 * -1 is 2. Results are new nested arrays of integers in 0..n-1; inputs are never
 * modified.
 *
 * A Board works before the WebAssembly core is loaded (its constructors, properties,
 * toDict / fromDict, equals, press, apply and matrix: the public contract, so it stays
 * JavaScript); the Solver, puzzle codes and measurements hand it to the C library as its
 * toDict JSON, one C board per call (capi.js withBoard). A uniform grid of more than
 * MAX_TILES tiles is kept by its shape and pattern alone, as Python keeps it: what needs
 * a byte a tile says so (TOO_LARGE).
 * @module board
 */
import { badShape, badType, badValue, outOfRange, tooLarge } from "./errors.js";
import { count, describe, list, show } from "./fmt.js";
import {
  MAX_TILES, asInt, asIntPair, checkDim, checkMapping, checkStates, fieldError, isInt,
  isMapping, posText,
} from "./validation.js";
import { isMixed, parseMixed, parsePattern, patternName } from "./patterns.js";

export { MAX_TILES, MAX_SIDE } from "./validation.js";

const GRID_FIELDS = ["rows", "cols", "states", "pattern", "locked", "holes", "wrap"];
const GRAPH_FIELDS = ["effects", "states", "n_cells"];

const mod = (v, n) => ((v % n) + n) % n;

/** The shape of a nested array (null when ragged), for the masks' checks. */
function shapeOf(a) {
  if (!(Array.isArray(a) || ArrayBuffer.isView(a))) return [];
  if (ArrayBuffer.isView(a)) return [a.length];
  if (a.length === 0) return [0];
  const inner = a.map(shapeOf);
  const first = JSON.stringify(inner[0]);
  if (inner.some((s) => s === null || JSON.stringify(s) !== first)) return null;
  return [a.length, ...inner[0]];
}

const isSeq = (x) => Array.isArray(x) || ArrayBuffer.isView(x);

function reduce(v, n) {
  if (typeof v === "bigint") return Number(((v % BigInt(n)) + BigInt(n)) % BigInt(n));
  return mod(v, n);
}

/** One entry of a state, target or tap array reduced mod n: an integer (a number or
 * a BigInt; true / false count as 1 / 0), else InputError naming the entry. */
function entryValue(v, n, where) {
  if (typeof v === "number" && Number.isInteger(v)) return mod(v, n);
  if (typeof v === "bigint") return reduce(v, n);
  if (typeof v === "boolean") return v ? 1 % n : 0;
  throw badType(`${where} must be an integer, got ${describe(v)}`);
}

/**
 * The slow reader of board-shaped input (the fast paths of Board#_reduced declined it):
 * `a` checked against `shape` ([rows, cols] or [length]) row by row, entry by entry,
 * into `out` reduced mod n; InputError naming the first row or entry that is wrong
 * (INVALID_TYPE for a value of the wrong kind, INVALID_SHAPE for a wrong length).
 * `unit` names a graph board's entries ("cells", "taps").
 */
function readShaped(a, what, shape, n, out, unit) {
  if (shape.length === 1) {
    const [m] = shape;
    if (!isSeq(a)) throw badType(`${what} must be an Array of ${m} integers, got ${describe(a)}`);
    if (a.length !== m) {
      throw badShape(`${what} has ${count(a.length, "entry", "entries")}, the board has ${m} ` +
        unit);
    }
    for (let i = 0; i < m; i++) out[i] = entryValue(a[i], n, `${what}[${i}]`);
    return out;
  }
  const [rows, cols] = shape;
  if (!isSeq(a)) {
    throw badType(`${what} must be an Array of ${rows} rows of ${cols} integers, got ` +
      describe(a));
  }
  if (ArrayBuffer.isView(a)) {
    throw badShape(`${what} is a flat ${a.constructor.name} of ${a.length} entries, the board ` +
      `has ${rows} x ${cols} = ${rows * cols} tiles`);
  }
  if (a.length !== rows) {
    throw badShape(`${what} has ${count(a.length, "row")}, the board has ${rows}`);
  }
  for (let r = 0; r < rows; r++) {
    const row = a[r];
    if (!isSeq(row)) {
      throw badType(`${what}[${r}] must be an Array of ${cols} integers (a row), got ` +
        describe(row));
    }
    if (row.length !== cols) {
      throw badShape(`${what}[${r}] has ${count(row.length, "entry", "entries")}, the board ` +
        `has ${count(cols, "column")}`);
    }
    for (let c = 0; c < cols; c++) out[r * cols + c] = entryValue(row[c], n, `${what}[${r}][${c}]`);
  }
  return out;
}

/** A board's tap matrix, rows and columns, from its geometry. */
export class Board {
  /** @private */
  constructor(token) {
    if (token !== PRIVATE) {
      throw new TypeError("use Board.grid(...) or Board.fromEffects(...) to make a board");
    }
  }

  /**
   * A rows x cols grid board.
   * @param {number} rows 1..MAX_SIDE
   * @param {number} cols 1..MAX_SIDE (at most MAX_TILES tiles)
   * @param {object} [opts]
   * @param {number} [opts.states=2] n, 2..255
   * @param {string|Array} [opts.pattern="cross"] a name, [dr, dc] offsets used exactly
   *   as given, or a rows x cols nested array of those (a mixed board)
   * @param {Array|null} [opts.locked] [r, c] positions or a rows x cols boolean mask
   * @param {Array|null} [opts.holes] [r, c] positions or a rows x cols boolean mask
   * @param {boolean} [opts.wrap=false] a torus: offsets wrap around the edges
   * @returns {Board}
   * @throws {InputError} for anything else (codes INVALID_TYPE, OUT_OF_RANGE,
   *   INVALID_SHAPE, INVALID_VALUE, TOO_LARGE)
   */
  static grid(rows, cols, opts = {}) {
    if (!isMapping(opts)) {
      throw badType(`Board.grid options must be an object, got ${describe(opts)}`);
    }
    const { states = 2, pattern = "cross", locked = null, holes = null, wrap = false } = opts;
    rows = checkDim("rows", rows);
    cols = checkDim("cols", cols);
    const giant = rows * cols > MAX_TILES;
    const none = (v) => v === null || v === undefined || (Array.isArray(v) && !v.length);
    if (giant && !(none(locked) && none(holes) && !isMixed(pattern, rows, cols))) {
      throw tooLarge(`board too large: ${rows}x${cols} = ${rows * cols} tiles; more ` +
        `than ${MAX_TILES} tiles are allowed only for uniform boards ` +
        "(one pattern, no locked tiles or holes)");
    }
    const n = checkStates(states);
    const b = new Board(PRIVATE);
    b._kind = "grid";
    b._n = n;
    b._shape = [rows, cols];
    b._wrap = Boolean(wrap);
    if (isMixed(pattern, rows, cols)) {
      b._mixed = parseMixed(pattern, rows, cols);
      b._pattern = null;
    } else {
      b._pattern = parsePattern(pattern);
      b._mixed = null;
    }
    const lock = b._mask(locked, "locked");
    const hole = b._mask(holes, "holes");
    if (lock && hole) {
      for (let i = 0; i < rows * cols; i++) {
        if (lock[i] && hole[i]) {
          throw badValue(`tile ${posText(Math.floor(i / cols), i % cols)} is both locked ` +
            "and a hole; a tile may be one or the other");
        }
      }
    }
    // a uniform board past MAX_TILES is kept by its shape and pattern alone, as Python
    // keeps it (its Solver answers nullity, rank and kernelSize); what needs a byte a
    // tile says so (_perTile)
    b._giant = giant;
    b._lockedA = lock;
    b._holesA = hole;
    b._anyLocked = lock !== null;
    b._anyHoles = hole !== null;
    b._index();
    return b;
  }

  /**
   * A graph board: tap j advances every cell listed in effects[j] by one (a cell
   * listed k times advances k times).
   * @param {Array<Array<number>>} effects
   * @param {number} states 2..255
   * @param {number|null} [nCells] default: one more than the largest listed cell
   * @returns {Board}
   */
  static fromEffects(effects, states, nCells = null) {
    const n = checkStates(states);
    if (!Array.isArray(effects)) {
      throw badType("effects must be an Array of Arrays of cell indices (one a tap), got " +
        describe(effects));
    }
    if (effects.length > MAX_TILES) {
      throw tooLarge(`effects has more than ${MAX_TILES} taps`);
    }
    const eff = effects.map((e, j) => {
      if (Array.isArray(e) || ArrayBuffer.isView(e)) return Array.from(e);
      throw badType(`effects[${j}] must be an Array of cell indices, got ${describe(e)}`);
    });
    let hi = 0;
    let big = null;
    eff.forEach((e, j) => {
      e.forEach((c, k) => {
        if (!isInt(c)) {
          throw badType(`effects[${j}][${k}] must be an integer (a cell index), got ` +
            describe(c));
        }
      });
    });
    for (const e of eff) {
      for (const c of e) {
        const v = Number(c);
        if (Math.abs(v) > MAX_TILES && big === null) big = v;
        if (v + 1 > hi) hi = v + 1;
      }
    }
    if (big !== null) {
      throw outOfRange(`cell index ${big} out of range: a board has at most ` +
        `${MAX_TILES} cells`);
    }
    let m;
    if (nCells === null || nCells === undefined) {
      if (hi > MAX_TILES) {
        throw outOfRange(`cell index ${hi - 1} is too large: a board has at most ` +
          `${MAX_TILES} cells`);
      }
      m = hi;
    } else {
      m = asInt(nCells, "nCells", 0, MAX_TILES);
    }
    for (const e of eff) {
      for (const c of e) {
        const v = Number(c);
        if (v < 0 || v >= m) {
          throw outOfRange(`cell index ${v} out of range: cells are 0..${m - 1}`);
        }
      }
    }
    const b = new Board(PRIVATE);
    b._kind = "graph";
    b._n = n;
    b._shape = [m];
    b._wrap = false;
    b._pattern = null;
    b._mixed = null;
    b._effects = eff.map((e) => Object.freeze(e.map(Number)));
    b._nCells = m;
    b._nTaps = eff.length;
    // every cell is active and every tap tappable: no index arrays (made on demand by
    // `cells` / `taps` only, see _positions)
    b._cellsFlat = null;
    b._tapsFlat = null;
    return b;
  }

  /**
   * The board of a dict as Board.toDict (or Python's Board.to_dict) writes it;
   * `locked` / `holes` may also be boolean nested masks, `states` defaults to 2,
   * `pattern` to "cross". InputError naming the field for anything else.
   * @param {object} d
   * @param {{maxTiles?: number}} [opts]
   * @returns {Board}
   */
  static fromDict(d, { maxTiles = null } = {}) {
    const limit = maxTiles === null ? MAX_TILES : maxTiles;
    if (isMapping(d) && "effects" in d) return graphFromDict(d, limit);
    checkMapping(d, "board", GRID_FIELDS, ["rows", "cols"]);
    const rows = checkDim("rows", d.rows);
    const cols = checkDim("cols", d.cols);
    if (rows * cols > limit) {
      throw tooLarge(`board too large: ${rows}x${cols} = ${rows * cols} tiles, at most ` +
        `${limit} allowed`);
    }
    let states;
    try {
      states = checkStates("states" in d ? d.states : 2);
    } catch (e) {
      throw fieldError("states", e);
    }
    const wrap = "wrap" in d ? d.wrap : false;
    if (typeof wrap !== "boolean") {
      throw badType(`wrap must be true or false, got ${show(wrap)}`);
    }
    let pattern;
    try {
      pattern = patternInput("pattern" in d ? d.pattern : "cross", rows, cols);
    } catch (e) {
      throw fieldError("pattern", e);
    }
    const masks = {};
    for (const what of ["locked", "holes"]) {
      try {
        masks[what] = maskInput(what in d ? d[what] : null, what, rows, cols);
      } catch (e) {
        throw fieldError(what, e);
      }
    }
    return Board.grid(rows, cols, { states, pattern, locked: masks.locked,
      holes: masks.holes, wrap });
  }

  /**
   * JSON-safe data, the same as Python's Board.to_dict: grids
   * {rows, cols, states, pattern, locked, holes, wrap} (pattern a name, [dr, dc]
   * pairs, or a nested array of those for a mixed board; locked / holes [r, c]
   * lists), graph boards {effects, states, n_cells}. Keys in Python's order.
   * @returns {object}
   */
  toDict() {
    if (this._kind === "graph") {
      return { effects: this._effects.map((e) => [...e]), states: this._n,
        n_cells: this._nCells };
    }
    const [rows, cols] = this._shape;
    const offData = (o) => patternName(o) ?? o.map(([dr, dc]) => [dr, dc]);
    const pattern = this._mixed ? this._mixed.map((row) => row.map(offData))
      : offData(this._pattern);
    const positions = (mask) => {
      const out = [];
      for (let i = 0; i < rows * cols; i++) if (mask[i]) out.push([Math.floor(i / cols), i % cols]);
      return out;
    };
    return { rows, cols, states: this._n, pattern,
      locked: this._anyLocked ? positions(this._locked) : [],
      holes: this._anyHoles ? positions(this._holes) : [], wrap: this._wrap };
  }

  // ---------------------------------------------------------------- properties
  /** n: the states of every tile. */
  get states() { return this._n; }
  /** [rows, cols] for grids, [nCells] for graph boards (a copy). */
  get shape() { return [...this._shape]; }
  /** Whether the board is a grid (Board.grid). */
  get isGrid() { return this._kind === "grid"; }
  /** Whether the grid is a torus. */
  get wrap() { return this._wrap; }
  /** The offsets of a uniform grid pattern (null for mixed and graph boards). */
  get pattern() { return this._pattern; }
  /** The per-tile offsets of a mixed board, rows x cols (null otherwise). */
  get mixed() { return this._mixed ? this._mixed.map((r) => [...r]) : null; }
  /** The effect lists of a graph board (null for grids). */
  get effects() { return this._kind === "graph" ? this._effects.map((e) => [...e]) : null; }
  /** Active tiles: the rows of A. */
  get nCells() { return this._nCells; }
  /** Tappable tiles: the columns of A. */
  get nTaps() { return this._nTaps; }
  /** Whether some tile is locked. */
  get anyLocked() { return this._kind === "grid" && this._anyLocked; }
  /** Whether some tile is a hole. */
  get anyHoles() { return this._kind === "grid" && this._anyHoles; }
  /** rows x cols booleans: the locked tiles (grids; a copy). */
  get locked() { return this._nested(this._locked, (v) => v === 1); }
  /** rows x cols booleans: the holes (grids; a copy). */
  get holes() { return this._nested(this._holes, (v) => v === 1); }
  /** Active positions in row-major order ([r, c] for grids, ints for graphs). */
  get cells() {
    return this._positions(this._kind === "graph" ? this._nCells : this._cellsFlat);
  }
  /** Tappable positions in row-major order ([r, c] for grids, ints for graphs). */
  get taps() {
    return this._positions(this._kind === "graph" ? this._nTaps : this._tapsFlat);
  }

  /** The offsets of the tile at (r, c) of a grid. */
  offsetsAt(r, c) {
    return this._mixed ? this._mixed[r][c] : this._pattern;
  }

  // ---------------------------------------------------------------- the solver's view
  /**
   * The board as the solver core reads it (a plain object): for grids
   * {kind: "grid", rows, cols, states, wrap, offsets (null when mixed), mixed (null,
   * or rows * cols offset lists, row-major), locked, holes (Uint8Array(rows * cols))},
   * for graph boards {kind: "graph", states, nCells, effects}.
   * @returns {object}
   */
  spec() {
    if (this._kind === "graph") {
      return { kind: "graph", states: this._n, nCells: this._nCells,
        effects: this._effects.map((e) => [...e]) };
    }
    const [rows, cols] = this._shape;
    const copy = (o) => o.map(([dr, dc]) => [dr, dc]);
    return {
      kind: "grid", rows, cols, states: this._n, wrap: this._wrap,
      offsets: this._mixed ? null : copy(this._pattern),
      mixed: this._mixed ? this._mixed.flat().map(copy) : null,
      locked: this._locked.slice(), holes: this._holes.slice(),
    };
  }

  /**
   * Column j of A as cell indices, one entry per unit (repeats add up), for
   * j in 0..nTaps-1. Cached.
   * @param {number} j
   * @returns {ReadonlyArray<number>}
   */
  column(j) {
    if (this._kind === "graph") return this._effects[j];
    const col = [];
    this._eachTarget(j, (ci) => { col.push(ci); });
    return col;
  }

  /** Calls f(cell) for every unit of column j of a grid's A (repeats included). */
  _eachTarget(j, f) {
    const [rows, cols] = this._shape;
    const t = this._tapsFlat[j];
    const r = (t / cols) | 0;
    const c = t - r * cols;
    const offs = this._mixed ? this._mixed[r][c] : this._pattern;
    for (let k = 0; k < offs.length; k++) {
      let rr = r + offs[k][0];
      let cc = c + offs[k][1];
      if (this._wrap) {
        rr = mod(rr, rows);
        cc = mod(cc, cols);
      } else if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) {
        continue;
      }
      const ci = this._cellOf[rr * cols + cc];
      if (ci >= 0) f(ci);
    }
  }

  /**
   * A as a dense nCells x nTaps array of rows (entries mod n).
   * @returns {number[][]}
   */
  matrix() {
    const A = Array.from({ length: this._nCells }, () => new Array(this._nTaps).fill(0));
    for (let j = 0; j < this._nTaps; j++) {
      for (const i of this.column(j)) A[i][j] = (A[i][j] + 1) % this._n;
    }
    return A;
  }

  // ---------------------------------------------------------------- positions
  /** The column of A for the tap at `pos`; InputError for holes, locks, off-board. */
  tapIndex(pos) {
    if (this._kind === "graph") {
      const j = asInt(pos, "a tap on a graph board");
      if (!(j >= 0 && j < this._nTaps)) {
        throw outOfRange(`tap ${j} out of range: taps are 0..${this._nTaps - 1}`);
      }
      return j;
    }
    const [r, c] = this._checkPos(pos, "tap position");
    const cols = this._shape[1];
    if (this._holes[r * cols + c]) throw badValue(`cannot tap ${posText(r, c)}: it is a hole`);
    if (this._locked[r * cols + c]) throw badValue(`cannot tap ${posText(r, c)}: it is locked`);
    return this._tapOf[r * cols + c];
  }

  /** The row of A for the tile at `pos`; InputError for holes and off-board. */
  cellIndex(pos) {
    if (this._kind === "graph") {
      const i = asInt(pos, "a cell on a graph board");
      if (!(i >= 0 && i < this._nCells)) {
        throw outOfRange(`cell ${i} out of range: cells are 0..${this._nCells - 1}`);
      }
      return i;
    }
    const [r, c] = this._checkPos(pos, "cell position");
    const cols = this._shape[1];
    if (this._holes[r * cols + c]) throw badValue(`${posText(r, c)} is a hole, not a tile`);
    return this._cellOf[r * cols + c];
  }

  // ---------------------------------------------------------------- playing
  /**
   * The state after tapping `pos` `times` times (any integer, reduced mod n).
   * @returns {number[][]|number[]}
   */
  press(state, pos, times = 1) {
    const s = this._stateCells(state, "state");
    const j = this.tapIndex(pos);
    const t = asInt(times, "times");
    const k = reduce(t, this._n);
    const n = this._n;
    if (k) {
      if (this._kind === "graph") {
        for (const i of this._effects[j]) s[i] = (s[i] + k) % n;
      } else {
        this._eachTarget(j, (i) => { s[i] = (s[i] + k) % n; });
      }
    }
    return this._fromCells(s);
  }

  /**
   * state + A taps (mod n). `taps`: board-shaped for grids (0 at locked tiles; holes
   * ignored), nTaps long for graph boards.
   * @returns {number[][]|number[]}
   */
  apply(state, taps) {
    const s = this._stateCells(state, "state");
    const ax = this._applyCells(this._tapCells(taps));
    const n = this._n;
    for (let i = 0; i < s.length; i++) s[i] = (s[i] + ax[i]) % n;
    return this._fromCells(s);
  }

  /** A x mod n over the cells, for a tap vector x (nTaps ints in 0..n-1). */
  applyVector(x) {
    return Array.from(this._applyCells(x));
  }

  /** A x mod n over the cells as a Uint8Array (x: nTaps ints in 0..n-1). */
  _applyCells(x) {
    const n = this._n;
    // exact: at most MAX_TILES taps x MAX_OFFSETS units x 254 < 2^53
    const acc = new Float64Array(this._nCells);
    for (let j = 0; j < this._nTaps; j++) {
      const k = x[j];
      if (!k) continue;
      if (this._kind === "graph") {
        for (const i of this._effects[j]) acc[i] += k;
      } else {
        this._eachTarget(j, (i) => { acc[i] += k; });
      }
    }
    const v = new Uint8Array(acc.length);
    for (let i = 0; i < acc.length; i++) v[i] = acc[i] % n;
    return v;
  }

  /** The state reduced mod n as a board-shaped nested array (0 at holes). */
  coerceState(state, what = "state") {
    return this._fromCells(this._stateCells(state, what));
  }

  /** A state as a vector over the cells (integers 0..n-1); InputError for bad input. */
  cellVector(state, what = "state") {
    return Array.from(this._stateCells(state, what));
  }

  /** A board-shaped nested array (0 at holes) from a vector over the cells. */
  fromCellVector(v) {
    return this._fromCells(v);
  }

  /** Tap counts (board-shaped for grids, nTaps long for graphs) as a vector mod n. */
  tapVector(taps) {
    return Array.from(this._tapCells(taps));
  }

  /** Tap counts as a Uint8Array over the taps, reduced mod n; InputError for a count
   * on a locked tile. */
  _tapCells(taps) {
    if (this._kind === "graph") return this._reduced(taps, "taps", [this._nTaps], "taps");
    const red = this._reduced(taps, "taps", this._shape);
    const cols = this._shape[1];
    if (this._anyLocked) {
      for (let i = 0; i < red.length; i++) {
        if (red[i] && this._locked[i]) {
          throw badValue(`cannot tap ${posText(Math.floor(i / cols), i % cols)}: it is locked`);
        }
      }
    }
    const out = new Uint8Array(this._nTaps);
    const tf = this._tapsFlat;
    for (let j = 0; j < out.length; j++) out[j] = red[tf[j]];
    return out;
  }

  /** Tap counts shaped as in the conventions (board-shaped grid, 0 at locks and
   * holes; a flat array for graph boards) from a vector over the taps. */
  fromTapVector(x) {
    if (this._kind === "graph") return Array.from(x, Number);
    const [rows, cols] = this._shape;
    const flat = new Array(rows * cols).fill(0);
    this._tapsFlat.forEach((t, j) => { flat[t] = Number(x[j]); });
    return Array.from({ length: rows }, (_, r) => flat.slice(r * cols, (r + 1) * cols));
  }

  /** Whether two boards are equal: kind, n, shape, wrap, patterns, masks (grids), or
   * A mod n (graph boards). */
  equals(other) {
    if (!(other instanceof Board) || other._kind !== this._kind || other._n !== this._n) {
      return false;
    }
    if (this._kind === "graph") {
      return JSON.stringify(this._key()) === JSON.stringify(other._key());
    }
    const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
    return same(this._shape, other._shape) && this._wrap === other._wrap &&
      JSON.stringify(this._pattern) === JSON.stringify(other._pattern) &&
      JSON.stringify(this._mixed) === JSON.stringify(other._mixed) &&
      this._anyLocked === other._anyLocked && this._anyHoles === other._anyHoles &&
      (!this._anyLocked || same(this._locked, other._locked)) &&
      (!this._anyHoles || same(this._holes, other._holes));
  }

  toString() {
    if (this._kind === "graph") {
      return `Board.fromEffects(<${this._nTaps} taps>, states=${this._n}, nCells=${this._nCells})`;
    }
    const [rows, cols] = this._shape;
    return `Board.grid(${rows}, ${cols}, states=${this._n})`;
  }

  // ---------------------------------------------------------------- internals
  /** A graph board's A mod n as sorted [flat index, entry] pairs, with its size. */
  _key() {
    const r = this._nTaps;
    const counts = new Map();
    this._effects.forEach((e, j) => {
      for (const i of e) counts.set(i * r + j, (counts.get(i * r + j) || 0) + 1);
    });
    const entries = [...counts].map(([k, c]) => [k, c % this._n]).filter(([, c]) => c)
      .sort((a, b) => a[0] - b[0]);
    return [this._nCells, r, entries];
  }

  _checkPos(pos, what) {
    const [r, c] = asIntPair(pos, what);
    const [rows, cols] = this._shape;
    if (!(r >= 0 && r < rows && c >= 0 && c < cols)) {
      throw outOfRange(`${what} ${posText(r, c)} is off the board: rows 0..${rows - 1}, ` +
        `cols 0..${cols - 1}`);
    }
    return [r, c];
  }

  /**
   * The grid's counts; its index arrays (tile -> cell, tile -> tap, cell -> tile,
   * tap -> tile, -1 for none) now when it has locked tiles or holes, else on first use
   * (identities: a plain board of 2^26 tiles is not walked for them).
   */
  _index() {
    const [rows, cols] = this._shape;
    const size = rows * cols;
    if (!this._anyHoles && !this._anyLocked) {
      this._nCells = size;
      this._nTaps = size;
      this._lazyIndex = true;
      return;
    }
    this._buildIndex();
  }

  _buildIndex() {
    this._perTile("the tiles' indices", 16);
    this._lazyIndex = false;
    const [rows, cols] = this._shape;
    const size = rows * cols;
    const cellOf = new Int32Array(size);
    const tapOf = new Int32Array(size);
    const cells = new Int32Array(size);
    const taps = new Int32Array(size);
    let m = 0;
    let r = 0;
    const holes = this._holes;
    const locked = this._locked;
    for (let i = 0; i < size; i++) {
      if (holes[i]) {
        cellOf[i] = -1;
        tapOf[i] = -1;
        continue;
      }
      cellOf[i] = m;
      cells[m++] = i;
      if (locked[i]) {
        tapOf[i] = -1;
        continue;
      }
      tapOf[i] = r;
      taps[r++] = i;
    }
    this._cellOfA = cellOf;
    this._tapOfA = tapOf;
    this._cellsFlatA = m === size ? cells : cells.slice(0, m);
    this._tapsFlatA = r === size ? taps : taps.slice(0, r);
    this._nCells = m;
    this._nTaps = r;
  }

  /** The locked / holes masks (rows * cols bytes; zeros made on first use when none). */
  get _locked() { return this._lockedA ?? (this._lockedA = this._perTile("the locked mask")); }

  get _holes() { return this._holesA ?? (this._holesA = this._perTile("the holes mask")); }

  /**
   * `bytes` bytes a tile (zeros), or, on a board past MAX_TILES, an InputError (code
   * TOO_LARGE) saying that `what` needs them.
   */
  _perTile(what, bytes = 1) {
    if (!this._giant) return new Uint8Array(bytes * this._shape[0] * this._shape[1]);
    const [rows, cols] = this._shape;
    const gib = ((bytes * rows * cols) / 2 ** 30).toFixed(1);
    throw tooLarge(`${what} of this ${rows}x${cols} board would need ${gib} GiB (${bytes} ` +
      `byte${bytes === 1 ? "" : "s"} a tile, ${rows * cols} tiles, more than MAX_TILES = ` +
      `${MAX_TILES}); a board this large is described by its shape and pattern alone: its ` +
      "Solver answers nullity, rank and kernelSize");
  }

  get _cellOf() { if (this._lazyIndex) this._buildIndex(); return this._cellOfA; }

  get _tapOf() { if (this._lazyIndex) this._buildIndex(); return this._tapOfA; }

  get _cellsFlat() { if (this._lazyIndex) this._buildIndex(); return this._cellsFlatA; }

  set _cellsFlat(v) { this._cellsFlatA = v; }

  get _tapsFlat() { if (this._lazyIndex) this._buildIndex(); return this._tapsFlatA; }

  set _tapsFlat(v) { this._tapsFlatA = v; }

  _positions(flat) {
    if (this._kind === "graph") return Array.from({ length: flat }, (_, i) => i);  // a count
    const cols = this._shape[1];
    return Array.from(flat, (i) => [Math.floor(i / cols), i % cols]);
  }

  _nested(mask, f) {
    if (this._kind === "graph") return null;
    const [rows, cols] = this._shape;
    return Array.from({ length: rows }, (_, r) =>
      Array.from(mask.subarray(r * cols, (r + 1) * cols), f));
  }

  /**
   * Board-shaped input (nested arrays, or a flat typed array) as a Uint8Array of the
   * values reduced mod n, row-major: the one reader of states, targets and tap counts
   * (press, apply, and the Solver's solve, solvable and hint). InputError naming the
   * first row or entry that is wrong (see readShaped); `unit` names a graph board's
   * entries in its messages ("cells" or "taps").
   */
  _reduced(a, what, shape, unit = "cells") {
    if (this._giant) this._perTile(what);
    const n = this._n;
    const size = shape.reduce((p, q) => p * q, 1);
    const out = new Uint8Array(size);
    if (ArrayBuffer.isView(a) && a.length === size) {
      // a flat typed array, row-major (a JavaScript convenience: shape checked by size);
      // bytes need no checks, other entries are checked one by one
      if (a instanceof Uint8Array || a instanceof Uint8ClampedArray) {
        for (let i = 0; i < size; i++) {
          const v = a[i];
          out[i] = v < n ? v : v % n;
        }
        return out;
      }
      for (let i = 0; i < size; i++) {
        const v = a[i];
        out[i] = typeof v === "number" && Number.isInteger(v) ? mod(v, n)
          : entryValue(v, n, `${what}[${i}]`);
      }
      return out;
    }
    if (Array.isArray(a) && a.length === shape[0]) {
      // the common case: plain safe-integer numbers, exactly shaped
      let ok = true;
      if (shape.length === 2) {
        const cols = shape[1];
        let i = 0;
        for (let r = 0; r < a.length && ok; r++) {
          const row = a[r];
          if (!Array.isArray(row) || row.length !== cols) { ok = false; break; }
          for (let c = 0; c < cols; c++, i++) {
            const v = row[c];
            if (typeof v === "number" && v >= 0 && v < n && (v | 0) === v) out[i] = v;
            else if (Number.isSafeInteger(v)) out[i] = mod(v, n);
            else { ok = false; break; }
          }
        }
      } else {
        for (let i = 0; i < size; i++) {
          const v = a[i];
          if (typeof v === "number" && v >= 0 && v < n && (v | 0) === v) out[i] = v;
          else if (Number.isSafeInteger(v)) out[i] = mod(v, n);
          else { ok = false; break; }
        }
      }
      if (ok) return out;
    }
    return readShaped(a, what, shape, n, out, unit);
  }

  /**
   * t as an integer mod n when `target` is an integer, null when it is an array (read
   * later by {@link Board#tileValues}); InputError for a boolean, as Python's
   * _target_int.
   */
  targetInt(target) {
    if (typeof target === "boolean") {
      throw badType("target must be an integer or a board-shaped Array, got " +
        describe(target));
    }
    if (isInt(target)) return reduce(target, this._n);
    return null;
  }

  /**
   * A state (or target) as a Uint8Array of integers 0..n-1 over every tile, row-major
   * (rows * cols for grids, nCells for graph boards; holes included): the one state
   * reader.
   */
  tileValues(state, what = "state") {
    return this._reduced(state, what, this._shape);
  }

  /** A state as a Uint8Array of integers 0..n-1 over the cells (a new array). */
  _stateCells(state, what) {
    const flat = this.tileValues(state, what);
    if (this._nCells === flat.length) return flat;
    const cf = this._cellsFlat;
    const out = new Uint8Array(cf.length);
    for (let i = 0; i < cf.length; i++) out[i] = flat[cf[i]];
    return out;
  }

  /** Board-shaped output (nested rows for grids, an Array for graph boards) of values
   * over the cells. */
  _fromCells(v) {
    if (this._kind === "graph" || this._nCells === v.length && !this._anyHoles) {
      return this._fromTiles(v);
    }
    const flat = new Uint8Array(this._shape[0] * this._shape[1]);
    const cf = this._cellsFlat;
    for (let i = 0; i < cf.length; i++) flat[cf[i]] = v[i];
    return this._fromTiles(flat);
  }

  /** Board-shaped output of values over every tile, row-major. */
  _fromTiles(flat) {
    if (this._kind === "graph") return Array.from(flat, Number);
    const [rows, cols] = this._shape;
    return Array.from({ length: rows }, (_, r) =>
      Array.from(flat.slice(r * cols, (r + 1) * cols), Number));
  }

  _mask(spec, what) {
    const mask = this._parseMask(spec, what);
    if (mask === null || !mask.some((v) => v)) return null;
    return mask;
  }

  _parseMask(spec, what) {
    const [rows, cols] = this._shape;
    if (spec === null || spec === undefined) return null;
    if (ArrayBuffer.isView(spec) && spec.length === rows * cols) {
      return Uint8Array.from(spec, (v) => (v ? 1 : 0));
    }
    if (!Array.isArray(spec)) {
      throw badType(`${what} must be an Array of [row, col] positions or a ${rows}x${cols} ` +
        `boolean mask, got ${describe(spec)}`);
    }
    const first = spec[0];
    if (spec.length && (Array.isArray(first) || ArrayBuffer.isView(first)) && first.length &&
        typeof first[0] === "boolean") {
      const s = shapeOf(spec);
      if (s === null || s.length !== 2 || s[0] !== rows || s[1] !== cols) {
        throw badShape(`${what} mask has shape ${list(s || [spec.length])}, the board has ` +
          `shape ${list([rows, cols])}`);
      }
      return Uint8Array.from(spec.flat(), (v) => (v ? 1 : 0));
    }
    const s = shapeOf(spec);
    if (s && s.length === 2 && s[0] === rows && s[1] === cols && cols !== 2 &&
        spec.flat().every((v) => v === 0 || v === 1)) {
      return Uint8Array.from(spec.flat());
    }
    const bad = spec.findIndex((p) => !(Array.isArray(p) || ArrayBuffer.isView(p)));
    if (bad >= 0) {
      throw badType(`${what} must be a ${rows}x${cols} boolean mask or an Array of ` +
        `[row, col] positions; ${what}[${bad}] is ${describe(spec[bad])}`);
    }
    if (!spec.length) return null;
    const mask = new Uint8Array(rows * cols);
    for (const p of spec) {
      const [r, c] = this._checkPos(p, what);
      mask[r * cols + c] = 1;
    }
    return mask;
  }
}

const PRIVATE = Symbol("Board");

function patternInput(v, rows, cols) {
  if (typeof v === "string") return parsePattern(v);
  if (!Array.isArray(v)) {
    throw badType("pattern must be a name, an Array of [dr, dc] pairs or a " +
      `${rows}x${cols} nested Array of those, got ${describe(v)}`);
  }
  if (isMixed(v, rows, cols)) {
    for (const row of v) {
      if (!Array.isArray(row)) {
        throw badType(`a mixed pattern is ${rows} Arrays of ${cols} entries, got ` +
          `${describe(row)} as a row`);
      }
      for (const entry of row) checkOffsetsJson(entry);
    }
    return v;
  }
  if (v.length && Array.isArray(v[0]) &&
      v[0].some((x) => typeof x === "string" || Array.isArray(x))) {
    throw badShape(`a mixed pattern must be ${rows} Arrays of ${cols} entries (names or ` +
      "Arrays of [dr, dc] pairs), one per tile");
  }
  checkOffsetsJson(v);
  return v;
}

function checkOffsetsJson(entry) {
  if (typeof entry === "string") return;
  if (!Array.isArray(entry)) {
    throw badType(`a pattern is a name or an Array of [dr, dc] pairs, got ${describe(entry)}`);
  }
  for (const p of entry) {
    if (!(Array.isArray(p) && p.length === 2 && p.every((x) => typeof x !== "boolean" && isInt(x)))) {
      throw badType(`pattern offsets must be [dr, dc] pairs of integers, got ${show(p)}`);
    }
  }
}

function maskInput(v, what, rows, cols) {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v)) {
    throw badType(`${what} must be an Array of [row, col] pairs or a ${rows}x${cols} ` +
      `nested Array of booleans, got ${describe(v)}`);
  }
  if (v.length && Array.isArray(v[0]) && v[0].length && typeof v[0][0] === "boolean") {
    if (v.length !== rows || v.some((row) => !Array.isArray(row) || row.length !== cols ||
        !row.every((x) => typeof x === "boolean"))) {
      throw badShape(`${what} as a mask must be ${rows} rows of ${cols} booleans`);
    }
    return v;
  }
  if (v.length > rows * cols) {
    throw tooLarge(`${what} lists ${v.length} positions, the board has ${rows * cols} tiles`);
  }
  for (const p of v) {
    if (!(Array.isArray(p) && p.length === 2 && p.every((x) => typeof x !== "boolean" && isInt(x)))) {
      throw badType(`${what} entries must be [row, col] pairs of integers, got ${show(p)}`);
    }
  }
  return v;
}

function graphFromDict(d, limit) {
  checkMapping(d, "graph board", GRAPH_FIELDS, ["effects", "states"]);
  const effects = d.effects;
  if (!Array.isArray(effects)) {
    throw badType(`effects must be an Array of Arrays of cell indices, got ${describe(effects)}`);
  }
  let total = 0;
  effects.forEach((e, j) => {
    if (!Array.isArray(e)) {
      throw badType(`effects[${j}] must be an Array of cell indices, got ${describe(e)}`);
    }
    total += e.length;
  });
  if (effects.length > limit || total > limit) {
    throw tooLarge(`graph board too large: ${effects.length} taps and ${total} effect ` +
      `entries, at most ${limit} of each allowed`);
  }
  let states;
  try {
    states = checkStates(d.states);
  } catch (e) {
    throw fieldError("states", e);
  }
  const nCells = "n_cells" in d ? d.n_cells : null;
  if (nCells !== null) asInt(nCells, "n_cells", 0, limit);
  try {
    return Board.fromEffects(effects, states, nCells);
  } catch (e) {
    throw fieldError("effects", e);
  }
}

