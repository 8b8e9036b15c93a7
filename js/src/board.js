/**
 * Board: the geometry of a puzzle and its tap matrix A, a thin binding of the C library's
 * board (csrc/api/board.c, board_play.c, board_json.c, grid.c: Python's
 * modlights.model.board.Board, its rules and its messages, here in JavaScript's words).
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
 * The constructors build the board in the C library (its checks and messages) and keep
 * its JSON (ml_board_to_json) and counts; every computing call (press, apply, matrix,
 * positions, the Solver, puzzle codes) makes the C board again from that JSON and frees
 * it after (capi.js withBoard), so a Board holds no WebAssembly memory. They need the
 * core: in node it is loaded synchronously on first need; in browsers `await init()`
 * first (before, CORE_NOT_LOADED). The checks of JavaScript values the C library cannot
 * see (a value's type, nested arrays' shapes, options objects) are made here. A uniform
 * grid of more than MAX_TILES tiles is kept by its shape and pattern alone, as Python
 * keeps it: what needs a byte a tile says so (TOO_LARGE).
 * @module board
 */
import { badShape, badType, outOfRange, tooLarge } from "./errors.js";
import { count, describe, list } from "./fmt.js";
import { MAX_SIDE, MAX_TILES, asIntPair, isInt, isMapping } from "./validation.js";
import { PATTERNS, isMixed } from "./patterns.js";
import {
  boardApply, boardColumns, boardFromJson, boardIndex, boardMatrix, boardPress, boardsEqual,
  graphBoard, gridBoard,
} from "./capi.js";

export { MAX_TILES, MAX_SIDE } from "./validation.js";

const mod = (v, n) => ((v % n) + n) % n;
const isSeq = (x) => Array.isArray(x) || ArrayBuffer.isView(x);

function reduce(v, n) {
  if (typeof v === "bigint") return Number(((v % BigInt(n)) + BigInt(n)) % BigInt(n));
  return mod(v, n);
}

/** `v` when it is an integer (a number with Number.isInteger, or a BigInt), else
 * InputError (INVALID_TYPE) "`what` must be an integer from lo to hi, got ...". The range
 * is the C library's check, made here only for a value no int32 holds (OUT_OF_RANGE). */
function int(v, what, lo = null, hi = null) {
  const range = lo === null ? "" : hi === null ? ` >= ${lo}` : ` from ${lo} to ${hi}`;
  if (!isInt(v)) throw badType(`${what} must be an integer${range}, got ${describe(v)}`);
  if (lo !== null && hi !== null && !(v > -(2 ** 31) && v < 2 ** 31)) {
    throw outOfRange(`${what} must be${range}, got ${v}`);
  }
  return v;
}

/** Entry i (of row r: [r][i]) of a state, target or tap array reduced mod n: an integer
 * (a number or a BigInt; true / false count as 1 / 0), else InputError naming it. */
function entry(v, n, what, i, c) {
  if (typeof v === "number" && (v | 0) === v && v >= 0 && v < n) return v;
  if (typeof v === "number" && Number.isInteger(v)) return mod(v, n);
  if (typeof v === "bigint") return reduce(v, n);
  if (typeof v === "boolean") return v ? 1 % n : 0;
  throw badType(`${what}[${i}]${c === undefined ? "" : `[${c}]`} must be an integer, got ` +
    describe(v));
}

/**
 * Board-shaped input as a Uint8Array of its values reduced mod n, row-major: `a` checked
 * against `shape` ([rows, cols] or [length]; a flat typed array of that many entries is
 * taken as row-major) row by row, entry by entry; InputError naming the first row or
 * entry that is wrong (INVALID_TYPE for a value of the wrong kind, INVALID_SHAPE for a
 * wrong length). `unit` names a graph board's entries ("cells", "taps").
 */
function readShaped(a, what, shape, n, unit) {
  const [rows, cols] = shape;
  const out = new Uint8Array(cols === undefined ? rows : rows * cols);
  if (ArrayBuffer.isView(a) && a.length === out.length) {
    for (let i = 0; i < out.length; i++) out[i] = entry(a[i], n, what, i);
    return out;
  }
  const ints = cols === undefined ? `${rows} integers` : `${rows} rows of ${cols} integers`;
  if (!isSeq(a)) throw badType(`${what} must be an Array of ${ints}, got ${describe(a)}`);
  if (cols === undefined) {
    if (a.length !== rows) {
      throw badShape(`${what} has ${count(a.length, "entry", "entries")}, the board has ` +
        `${rows} ${unit}`);
    }
    for (let i = 0; i < rows; i++) out[i] = entry(a[i], n, what, i);
    return out;
  }
  if (ArrayBuffer.isView(a)) {
    throw badShape(`${what} is a flat ${a.constructor.name} of ${a.length} entries, the board ` +
      `has ${rows} x ${cols} = ${rows * cols} tiles`);
  }
  if (a.length !== rows) throw badShape(`${what} has ${count(a.length, "row")}, the board has ${rows}`);
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
    for (let c = 0; c < cols; c++) out[r * cols + c] = entry(row[c], n, what, r, c);
  }
  return out;
}

/** The shape of a nested array (null when ragged), for the masks' checks. */
function shapeOf(a) {
  if (!isSeq(a)) return [];
  if (ArrayBuffer.isView(a)) return [a.length];
  if (a.length === 0) return [0];
  const inner = a.map(shapeOf);
  const first = JSON.stringify(inner[0]);
  if (inner.some((s) => s === null || JSON.stringify(s) !== first)) return null;
  return [a.length, ...inner[0]];
}

/** Board.grid's pattern checked for JavaScript's types: a name, [dr, dc] pairs of
 * integers, or rows x cols of those (mixed); names, reach and counts are the C library's. */
function patternOf(pattern, rows, cols) {
  const offsets = (p) => {
    if (typeof p === "string") return p;
    if (!Array.isArray(p)) {
      throw badType(`pattern must be a name (${Object.keys(PATTERNS).map((k) => `'${k}'`)
        .join(", ")}) or an Array of [dr, dc] offsets, got ${describe(p)}`);
    }
    return p.map((q) => asIntPair(q, "pattern offsets", "[dr, dc] pairs of integers"));
  };
  if (!isMixed(pattern, rows, cols)) return offsets(pattern);
  return pattern.map((row, r) => {
    if (!Array.isArray(row)) {
      throw badType(`mixed pattern row ${r} must be an Array of ${cols} patterns, got ` +
        describe(row));
    }
    if (row.length !== cols) {
      throw badShape(`mixed pattern row ${r} has ${row.length} entries, the board has ` +
        `${cols} columns`);
    }
    return row.map(offsets);
  });
}

/** Board.grid's locked / holes: null, a rows * cols mask (a typed array, nested booleans,
 * or nested 0 / 1 when cols is not 2) as a Uint8Array, or [r, c] positions (integers;
 * whether they are on the board is the C library's check). */
function marksOf(spec, what, rows, cols) {
  if (spec === null || spec === undefined) return null;
  if (ArrayBuffer.isView(spec) && spec.length === rows * cols) {
    return Uint8Array.from(spec, (v) => (v ? 1 : 0));
  }
  if (!Array.isArray(spec)) {
    throw badType(`${what} must be an Array of [row, col] positions or a ${rows}x${cols} ` +
      `boolean mask, got ${describe(spec)}`);
  }
  const first = spec[0];
  const s = shapeOf(spec);
  if (spec.length && isSeq(first) && first.length && typeof first[0] === "boolean") {
    if (s === null || s.length !== 2 || s[0] !== rows || s[1] !== cols) {
      throw badShape(`${what} mask has shape ${list(s || [spec.length])}, the board has ` +
        `shape ${list([rows, cols])}`);
    }
    return Uint8Array.from(spec.flat(), (v) => (v ? 1 : 0));
  }
  if (s && s.length === 2 && s[0] === rows && s[1] === cols && cols !== 2 &&
      spec.flat().every((v) => v === 0 || v === 1)) {
    return Uint8Array.from(spec.flat());
  }
  return spec.map((p, i) => {
    if (!isSeq(p)) {
      throw badType(`${what} must be a ${rows}x${cols} boolean mask or an Array of ` +
        `[row, col] positions; ${what}[${i}] is ${describe(p)}`);
    }
    return asIntPair(p, what);
  });
}

/** JSON text of a JavaScript value for the C reader: BigInts as their digits, typed
 * arrays as arrays. */
export function jsonText(d) {
  return JSON.stringify(d, (_, v) => {
    if (typeof v === "bigint") return `\u0001${v}\u0001`;
    return ArrayBuffer.isView(v) ? Array.from(v, (x) => (typeof x === "bigint" ? `\u0001${x}\u0001` : x)) : v;
  }).replace(/"\\u0001(-?\d+)\\u0001"/g, "$1");
}

const PRIVATE = Symbol("Board");

/** A board's tap matrix, rows and columns, from its geometry. */
export class Board {
  /** @private */
  constructor(token, facts) {
    if (token !== PRIVATE) {
      throw new TypeError("use Board.grid(...) or Board.fromEffects(...) to make a board");
    }
    this._f = facts;
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
    for (const [what, v] of [["rows", rows], ["cols", cols]]) int(v, what, 1, MAX_SIDE);
    int(states, "states", 2, 255);
    const [r, c] = [Number(rows), Number(cols)];
    const small = r >= 1 && c >= 1 && r <= MAX_SIDE && c <= MAX_SIDE && r * c <= MAX_TILES;
    const mixed = small && isMixed(pattern, r, c);
    return new Board(PRIVATE, gridBoard("Board.grid", rows, cols, Number(states), {
      pattern: patternOf(pattern, small ? r : 0, c), mixed, wrap: Boolean(wrap),
      locked: marksOf(locked, "locked", r, c), holes: marksOf(holes, "holes", r, c) }));
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
    int(states, "states", 2, 255);
    if (!Array.isArray(effects)) {
      throw badType("effects must be an Array of Arrays of cell indices (one a tap), got " +
        describe(effects));
    }
    const eff = effects.map((e, j) => {
      if (!isSeq(e)) throw badType(`effects[${j}] must be an Array of cell indices, got ${describe(e)}`);
      return Array.from(e, (v, k) => {
        if (!isInt(v)) throw badType(`effects[${j}][${k}] must be an integer (a cell index), got ${describe(v)}`);
        return v;
      });
    });
    let m = -1;
    if (nCells !== null && nCells !== undefined) {
      m = int(nCells, "nCells", 0, MAX_TILES);
      if (m < 0 || m > MAX_TILES) throw outOfRange(`nCells must be from 0 to ${MAX_TILES}, got ${m}`);
    }
    return new Board(PRIVATE, graphBoard("Board.fromEffects", Number(states), m, eff));
  }

  /**
   * The board of a dict as Board.toDict (or Python's Board.to_dict) writes it;
   * `locked` / `holes` may also be boolean nested masks, `states` defaults to 2,
   * `pattern` to "cross". InputError naming the field for anything else (the C
   * library's checks: Python's Board.from_dict).
   * @param {object} d
   * @param {{maxTiles?: number}} [opts]
   * @returns {Board}
   */
  static fromDict(d, { maxTiles = null } = {}) {
    if (!isMapping(d)) throw badType(`board must be an object, got ${describe(d)}`);
    const limit = maxTiles === null || maxTiles === undefined ? 0
      : int(maxTiles, "maxTiles", 1);
    return new Board(PRIVATE, boardFromJson("Board.fromDict", jsonText(d), limit));
  }

  /**
   * JSON-safe data, the same as Python's Board.to_dict: grids
   * {rows, cols, states, pattern, locked, holes, wrap} (pattern a name, [dr, dc]
   * pairs, or a nested array of those for a mixed board; locked / holes [r, c]
   * lists), graph boards {effects, states, n_cells}. Keys in Python's order.
   * @returns {object}
   */
  toDict() { return JSON.parse(this._f.json); }

  // ---------------------------------------------------------------- properties
  /** n: the states of every tile. */
  get states() { return this._f.states; }
  /** [rows, cols] for grids, [nCells] for graph boards (a copy). */
  get shape() { return this.isGrid ? [this._f.rows, this._f.cols] : [this._f.nCells]; }
  /** Whether the board is a grid (Board.grid). */
  get isGrid() { return this._f.grid; }
  /** Whether the grid is a torus. */
  get wrap() { return this._f.wrap; }
  /** The offsets of a uniform grid pattern (null for mixed and graph boards). */
  get pattern() {
    const d = this._dict;
    return this.isGrid && !this._mixed ? offsetsOf(d.pattern) : null;
  }
  /** The per-tile offsets of a mixed board, rows x cols (null otherwise). */
  get mixed() { return this._mixed ? this._dict.pattern.map((row) => row.map(offsetsOf)) : null; }
  /** The effect lists of a graph board (null for grids). */
  get effects() { return this.isGrid ? null : this.toDict().effects; }
  /** Active tiles: the rows of A. */
  get nCells() { return this._f.nCells; }
  /** Tappable tiles: the columns of A. */
  get nTaps() { return this._f.nTaps; }
  /** Whether some tile is locked. */
  get anyLocked() { return this._f.anyLocked; }
  /** Whether some tile is a hole. */
  get anyHoles() { return this._f.anyHoles; }
  /** rows x cols booleans: the locked tiles (grids; a copy). */
  get locked() { return this._nested(this._mask("locked"), (v) => v === 1); }
  /** rows x cols booleans: the holes (grids; a copy). */
  get holes() { return this._nested(this._mask("holes"), (v) => v === 1); }
  /** Active positions in row-major order ([r, c] for grids, ints for graphs). */
  get cells() { return this._positions(false); }
  /** Tappable positions in row-major order ([r, c] for grids, ints for graphs). */
  get taps() { return this._positions(true); }
  /** Whether the grid has more than MAX_TILES tiles (kept by shape and pattern). */
  get _giant() { return this._f.giant; }

  /** The offsets of the tile at (r, c) of a grid. */
  offsetsAt(r, c) {
    return this._mixed ? offsetsOf(this._dict.pattern[r][c]) : this.pattern;
  }

  // ---------------------------------------------------------------- the solver's view
  /**
   * The board as a plain object: for grids {kind: "grid", rows, cols, states, wrap,
   * offsets (null when mixed), mixed (null, or rows * cols offset lists, row-major),
   * locked, holes (Uint8Array(rows * cols))}, for graph boards {kind: "graph", states,
   * nCells, effects}.
   * @returns {object}
   */
  spec() {
    const { rows, cols, states, wrap } = this._f;
    if (!this.isGrid) {
      return { kind: "graph", states, nCells: this.nCells, effects: this.effects };
    }
    const copy = (o) => o.map(([dr, dc]) => [dr, dc]);
    return { kind: "grid", rows, cols, states, wrap,
      offsets: this._mixed ? null : copy(this.pattern),
      mixed: this._mixed ? this.mixed.flat().map(copy) : null,
      locked: this._mask("locked"), holes: this._mask("holes") };
  }

  /**
   * Column j of A as cell indices, one entry per unit (repeats add up), for
   * j in 0..nTaps-1 (every column is read from the C library on the first call, then
   * kept).
   * @param {number} j
   * @returns {ReadonlyArray<number>}
   */
  column(j) {
    if (!this._columns) {
      this._perTile("the columns of A", 8);
      this._columns = (this.isGrid ? boardColumns(this, this.nTaps) : this.effects)
        .map((c) => Object.freeze(Array.from(c)));
    }
    return this._columns[j];
  }

  /**
   * A as a dense nCells x nTaps array of rows (entries mod n; the C library's
   * ml_board_matrix, TOO_LARGE past its limit).
   * @returns {number[][]}
   */
  matrix() {
    const [m, r] = [this.nCells, this.nTaps];
    const a = boardMatrix(this, m, r);
    return Array.from({ length: m }, (_, i) => Array.from(a.subarray(i * r, (i + 1) * r)));
  }

  // ---------------------------------------------------------------- positions
  /** The column of A for the tap at `pos`; InputError for holes, locks, off-board. */
  tapIndex(pos) { return this._index(pos, true); }

  /** The row of A for the tile at `pos`; InputError for holes and off-board. */
  cellIndex(pos) { return this._index(pos, false); }

  /** ml_board_tap_index / ml_board_cell_index of a position ([r, c], or an index on a
   * graph board), its type checked here. */
  _index(pos, tap) {
    const what = tap ? "tap" : "cell";
    const [r, c] = this.isGrid ? asIntPair(pos, `${what} position`)
      : [int(pos, `a ${what} on a graph board`), 0];
    return boardIndex(this, tap, r, c);
  }

  // ---------------------------------------------------------------- playing
  /**
   * The state after tapping `pos` `times` times (any integer, reduced mod n): the C
   * library's ml_board_press.
   * @returns {number[][]|number[]}
   */
  press(state, pos, times = 1) {
    const s = this.tileValues(state, "state");
    const [r, c] = this.isGrid ? asIntPair(pos, "tap position")
      : [int(pos, "a tap on a graph board"), 0];
    const k = reduce(int(times, "times"), this.states);
    return this._fromTiles(boardPress(this, s, r, c, k));
  }

  /**
   * state + A taps (mod n): the C library's ml_board_apply. `taps`: board-shaped for
   * grids (0 at locked tiles; holes ignored), nTaps long for graph boards.
   * @returns {number[][]|number[]}
   */
  apply(state, taps) {
    const s = this.tileValues(state, "state");
    return this._fromTiles(boardApply(this, s, this._tapTiles(taps)));
  }

  /** A x mod n over the cells, for a tap vector x (nTaps ints in 0..n-1). */
  applyVector(x) {
    const t = this._scatter(Uint8Array.from(x, (v) => mod(Number(v), this.states)), true);
    const zero = new Uint8Array(this.isGrid ? this._f.rows * this._f.cols : this.nCells);
    return Array.from(this._gather(boardApply(this, zero, t), false));
  }

  /** The state reduced mod n as a board-shaped nested array (0 at holes). */
  coerceState(state, what = "state") {
    return this._fromTiles(this._scatter(this._gather(this.tileValues(state, what), false), false));
  }

  /** A state as a vector over the cells (integers 0..n-1); InputError for bad input. */
  cellVector(state, what = "state") {
    return Array.from(this._gather(this.tileValues(state, what), false));
  }

  /** A board-shaped nested array (0 at holes) from a vector over the cells. */
  fromCellVector(v) { return this._fromTiles(this._scatter(v, false)); }

  /** Tap counts (board-shaped for grids, nTaps long for graphs) as a vector mod n;
   * InputError for a count on a locked tile. */
  tapVector(taps) { return Array.from(this._gather(this._tapTiles(taps), true)); }

  /** Tap counts shaped as in the conventions (board-shaped grid, 0 at locks and
   * holes; a flat array for graph boards) from a vector over the taps. */
  fromTapVector(x) { return this._fromTiles(this._scatter(x, true)); }

  /** Whether two boards are equal: kind, n, shape, wrap, patterns, masks (grids: the
   * same JSON), or A mod n (graph boards: ml_board_equal). */
  equals(other) {
    if (!(other instanceof Board) || other.isGrid !== this.isGrid || other.states !== this.states) {
      return false;
    }
    return this._f.json === other._f.json || (!this.isGrid && boardsEqual(this, other));
  }

  toString() {
    if (!this.isGrid) {
      return `Board.fromEffects(<${this.nTaps} taps>, states=${this.states}, nCells=${this.nCells})`;
    }
    return `Board.grid(${this._f.rows}, ${this._f.cols}, states=${this.states})`;
  }

  // ---------------------------------------------------------------- internals
  /** The JSON text of the C board (what withBoard makes the C board from). */
  get _json() { return this._f.json; }

  /** The board's dict, parsed once (internal: never handed out). */
  get _dict() { return this._d ?? (this._d = JSON.parse(this._f.json)); }

  get _mixed() { return this.isGrid && isMixed(this._dict.pattern, this._f.rows, this._f.cols); }

  /**
   * `bytes` bytes a tile: nothing on a board of at most MAX_TILES tiles; on a larger one
   * an InputError (code TOO_LARGE) saying that `what` needs them.
   */
  _perTile(what, bytes = 1) {
    if (!this._f.giant) return;
    const { rows, cols } = this._f;
    const gib = ((bytes * rows * cols) / 2 ** 30).toFixed(1);
    throw tooLarge(`${what} of this ${rows}x${cols} board would need ${gib} GiB (${bytes} ` +
      `byte${bytes === 1 ? "" : "s"} a tile, ${rows * cols} tiles, more than MAX_TILES = ` +
      `${MAX_TILES}); a board this large is described by its shape and pattern alone: its ` +
      "Solver answers nullity, rank and kernelSize");
  }

  /** The locked / holes mask of a grid, rows * cols bytes (from its dict's positions). */
  _mask(which) {
    if (!this.isGrid) return null;
    this._perTile(`the ${which} mask`);
    const { rows, cols } = this._f;
    const mask = new Uint8Array(rows * cols);
    for (const [r, c] of this._dict[which]) mask[r * cols + c] = 1;
    return mask;
  }

  /** The tiles of the cells (taps: of the taps), row-major, as an Int32Array (made once);
   * a graph board's are its indices. */
  _tiles(taps) {
    const key = taps ? "_tapTiles_" : "_cellTiles_";
    if (this[key]) return this[key];
    this._perTile("the tiles' indices", 16);
    const size = this.isGrid ? this._f.rows * this._f.cols : (taps ? this.nTaps : this.nCells);
    const skip = this.isGrid ? this._mask("holes") : new Uint8Array(size);
    if (taps && this.anyLocked) this._mask("locked").forEach((v, i) => { skip[i] |= v; });
    const out = new Int32Array(taps ? this.nTaps : this.nCells);
    for (let t = 0, k = 0; t < size; t++) if (!skip[t]) out[k++] = t;
    return (this[key] = out);
  }

  _positions(taps) {
    if (!this.isGrid) return Array.from({ length: taps ? this.nTaps : this.nCells }, (_, i) => i);
    const cols = this._f.cols;
    return Array.from(this._tiles(taps), (i) => [Math.floor(i / cols), i % cols]);
  }

  /** Values over the tiles (a byte a tile) -> over the cells or taps. */
  _gather(flat, taps) {
    const t = this._tiles(taps);
    return t.length === flat.length ? flat : Uint8Array.from(t, (i) => flat[i]);
  }

  /** Values over the cells or taps -> over the tiles (0 elsewhere), a byte a tile. */
  _scatter(v, taps) {
    if (!this.isGrid && !taps) return Uint8Array.from(v, Number);
    const out = new Uint8Array(this.isGrid ? this._f.rows * this._f.cols : this.nTaps);
    this._tiles(taps).forEach((t, j) => { out[t] = Number(v[j]); });
    return out;
  }

  _nested(mask, f) {
    if (mask === null) return null;
    const { rows, cols } = this._f;
    return Array.from({ length: rows }, (_, r) => Array.from(mask.subarray(r * cols, (r + 1) * cols), f));
  }

  /** Tap counts (board-shaped; a graph board: nTaps long) as a byte a tile reduced mod n
   * (the C library refuses a count on a locked tile). */
  _tapTiles(taps) {
    return this.isGrid ? this.tileValues(taps, "taps")
      : this._reduced(taps, "taps", [this.nTaps], "taps");
  }

  /** Board-shaped input read by readShaped (states, targets and tap counts: press, apply,
   * and the Solver's solve, solvable and hint); TOO_LARGE past MAX_TILES tiles. */
  _reduced(a, what, shape, unit = "cells") {
    this._perTile(what);
    return readShaped(a, what, shape, this.states, unit);
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
    if (isInt(target)) return reduce(target, this.states);
    return null;
  }

  /**
   * A state (or target) as a Uint8Array of integers 0..n-1 over every tile, row-major
   * (rows * cols for grids, nCells for graph boards; holes included): the one state
   * reader.
   */
  tileValues(state, what = "state") {
    return this._reduced(state, what, this.shape);
  }

  /** Board-shaped output of values over every tile, row-major. */
  _fromTiles(flat) {
    if (!this.isGrid) return Array.from(flat, Number);
    const { rows, cols } = this._f;
    return Array.from({ length: rows }, (_, r) =>
      Array.from(flat.subarray(r * cols, (r + 1) * cols), Number));
  }
}

/** The offsets of a pattern of a board's dict (a name: PATTERNS's, frozen). */
function offsetsOf(p) {
  return typeof p === "string" ? PATTERNS[p] : Object.freeze(p.map((o) => Object.freeze([...o])));
}
