/**
 * Board: a puzzle's geometry and tap matrix A (rows: active tiles; columns: tappable tiles;
 * both row-major), a thin binding of the C board (Python's Board: its rules and messages
 * in JavaScript's words). A Board keeps the C board's JSON and counts, and each computing
 * call reads the C board from that JSON and frees it (capi.js withBoard): a Board holds no
 * WebAssembly memory. JavaScript checks what C cannot see (values' types, nested arrays'
 * shapes, options). A uniform grid past MAX_TILES tiles is kept by shape and pattern, as in
 * Python: what needs a byte a tile says so (TOO_LARGE).
 * @module board
 */
import { badShape, badType, tooLarge } from "./errors.js";
import {
  asInt, asIntPair, asMapping, count, describe, isInt, isSeq, MAX_SIDE, MAX_TILES,
} from "./fmt.js";
import { PATTERNS } from "./patterns.js";
import {
  boardApply, boardColumns, boardFromJson, boardIndex, boardMatrix, boardPress, boardsEqual,
} from "./capi.js";

export { MAX_TILES, MAX_SIDE } from "./fmt.js";

const mod = (v, n) => (typeof v === "bigint" ? Number(((v % BigInt(n)) + BigInt(n)) % BigInt(n))
  : ((v % n) + n) % n);
/** An integer argument whose range the C library checks (here: its type, and a range
 * only for a value no int32 holds). */
const int = (v, what, lo = null, hi = null) => asInt(v, what, lo, hi, false);

/** Entry i (of row r: [r][i]) of a state, target or tap array reduced mod n: an integer
 * (true / false count as 1 / 0), else InputError naming it. */
function entry(v, n, what, i, c) {
  if (typeof v === "number" && (v | 0) === v && v >= 0 && v < n) return v;
  if ((typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint") return mod(v, n);
  if (typeof v === "boolean") return v ? 1 % n : 0;
  throw badType(`${what}[${i}]${c === undefined ? "" : `[${c}]`} must be an integer, got ` +
    describe(v));
}

/**
 * Board-shaped input as a Uint8Array of its values reduced mod n, row-major: `a` checked
 * against `shape` ([rows, cols] or [length]; a flat typed array of that many entries is
 * taken as row-major) row by row, entry by entry; InputError naming the first row or
 * entry that is wrong. `unit` names a graph board's entries ("cells", "taps").
 */
function readShaped(a, what, [rows, cols], n, unit) {
  const out = new Uint8Array(cols === undefined ? rows : rows * cols);
  const flat = ArrayBuffer.isView(a) && a.length === out.length;
  if (!flat && !isSeq(a)) {
    throw badType(`${what} must be an Array of ${cols === undefined ? "" : `${rows} rows of `}${
      cols ?? rows} integers, got ${describe(a)}`);
  }
  if (flat || cols === undefined) {
    if (!flat && a.length !== rows) {
      throw badShape(`${what} has ${count(a.length, "entry", "entries")}, the board has ` +
        `${rows} ${unit}`);
    }
    for (let i = 0; i < out.length; i++) out[i] = entry(a[i], n, what, i);
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
      throw badType(`${what}[${r}] must be an Array of ${cols} integers (a row), got ${describe(row)}`);
    }
    if (row.length !== cols) {
      throw badShape(`${what}[${r}] has ${count(row.length, "entry", "entries")}, the board ` +
        `has ${count(cols, "column")}`);
    }
    for (let c = 0; c < cols; c++) out[r * cols + c] = entry(row[c], n, what, r, c);
  }
  return out;
}

/** JSON text of a JavaScript value for the C readers: BigInts as their digits, typed
 * arrays as arrays. */
export function jsonText(d) {
  const big = (x) => (typeof x === "bigint" ? `\u0001${x}\u0001` : x);
  return JSON.stringify(d, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v, big) : big(v)))
    .replace(/"\\u0001(-?\d+)\\u0001"/g, "$1");
}

/** The grid document of Board.grid's arguments for the C reader (mlx_grid_from_json: every
 * other check): the options and integers' types checked here, and the masks JSON cannot
 * tell from positions (a typed array of rows * cols; rows x cols of 0 / 1 when cols is not
 * 2) as nested booleans. */
export function gridText(rows, cols, opts = {}) {
  const { states = 2, pattern = "cross", locked = null, holes = null, wrap = false } =
    asMapping(opts, "Board.grid options");
  int(rows, "rows", 1, MAX_SIDE);
  int(cols, "cols", 1, MAX_SIDE);
  int(states, "states", 2, 255);
  const [r, c] = [Number(rows), Number(cols)];
  const mask = (m) => {
    const bits = ArrayBuffer.isView(m) && m.length === r * c ? Array.from(m)
      : Array.isArray(m) && c !== 2 && m.length === r && m.every((row) => isSeq(row) &&
        row.length === c && Array.prototype.every.call(row, (v) => v === 0 || v === 1))
        ? m.flatMap((row) => Array.from(row)) : null;
    return bits ? Array.from({ length: r }, (_, i) => bits.slice(i * c, (i + 1) * c).map(Boolean)) : m;
  };
  return jsonText({ rows, cols, states, pattern, locked: mask(locked), holes: mask(holes),
    wrap: Boolean(wrap) });
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

  /** A rows x cols grid board (index.d.ts's GridOptions); InputError with Python's
   * Board.grid's checks for anything else. */
  static grid(rows, cols, opts = {}) {
    return new Board(PRIVATE, boardFromJson("Board.grid", gridText(rows, cols, opts), 0, true));
  }

  /** A graph board: tap j advances every cell listed in effects[j] by one (k times when
   * listed k times); nCells default: one more than the largest listed cell. */
  static fromEffects(effects, states, nCells = null) {
    int(states, "states", 2, 255);
    if (!Array.isArray(effects)) {
      throw badType("effects must be an Array of Arrays of cell indices (one a tap), got " +
        describe(effects));
    }
    const d = { effects, states, n_cells: nCells ?? undefined };
    if (nCells !== null && nCells !== undefined) asInt(nCells, "nCells", 0, MAX_TILES);
    return new Board(PRIVATE, boardFromJson("Board.fromEffects", jsonText(d), 0, true));
  }

  /** The board of a dict as toDict (or Python's to_dict) writes it; InputError naming the
   * field for anything else (Python's from_dict checks). */
  static fromDict(d, { maxTiles = null } = {}) {
    asMapping(d, "board");
    const limit = maxTiles === null || maxTiles === undefined ? 0 : int(maxTiles, "maxTiles", 1);
    return new Board(PRIVATE, boardFromJson("Board.fromDict", jsonText(d), limit));
  }

  /** JSON-safe data, the same as Python's Board.to_dict (keys in Python's order). */
  toDict() { return JSON.parse(this._f.json); }

  // ---------------------------------------------------------------- properties
  get states() { return this._f.states; }
  /** [rows, cols] for grids, [nCells] for graph boards (a copy). */
  get shape() { return this.isGrid ? [this._f.rows, this._f.cols] : [this._f.nCells]; }
  get isGrid() { return this._f.grid; }
  get wrap() { return this._f.wrap; }
  /** The offsets of a uniform grid pattern (null for mixed and graph boards). */
  get pattern() { return this.isGrid && !this._mixed ? offsetsOf(this._dict.pattern) : null; }
  /** The per-tile offsets of a mixed board, rows x cols (null otherwise). */
  get mixed() { return this._mixed ? this._dict.pattern.map((row) => row.map(offsetsOf)) : null; }
  /** The effect lists of a graph board (null for grids). */
  get effects() { return this.isGrid ? null : this.toDict().effects; }
  /** Active tiles: the rows of A. */
  get nCells() { return this._f.nCells; }
  /** Tappable tiles: the columns of A. */
  get nTaps() { return this._f.nTaps; }
  get anyLocked() { return this._f.anyLocked; }
  get anyHoles() { return this._f.anyHoles; }
  /** rows x cols booleans: the locked tiles (grids; a copy). */
  get locked() { return this._nested(this._mask("locked")); }
  /** rows x cols booleans: the holes (grids; a copy). */
  get holes() { return this._nested(this._mask("holes")); }
  /** Active positions in row-major order ([r, c] for grids, indices for graphs). */
  get cells() { return this._positions(false); }
  /** Tappable positions in row-major order ([r, c] for grids, indices for graphs). */
  get taps() { return this._positions(true); }

  /** The offsets of the tile at (r, c) of a grid. */
  offsetsAt(r, c) { return this._mixed ? offsetsOf(this._dict.pattern[r][c]) : this.pattern; }

  /** The board as a plain object (index.d.ts's GridSpec / GraphSpec: masks and mixed
   * row-major over rows * cols). */
  spec() {
    const { rows, cols, states, wrap } = this._f;
    if (!this.isGrid) return { kind: "graph", states, nCells: this.nCells, effects: this.effects };
    const copy = (o) => o.map(([dr, dc]) => [dr, dc]);
    return { kind: "grid", rows, cols, states, wrap,
      offsets: this._mixed ? null : copy(this.pattern),
      mixed: this._mixed ? this.mixed.flat().map(copy) : null,
      locked: this._mask("locked"), holes: this._mask("holes") };
  }

  /** Column j of A as cell indices, one entry per unit (repeats add up) (every column read
   * from the C library on the first call, then kept). */
  column(j) {
    if (!this._columns) {
      this._perTile("the columns of A", 8);
      this._columns = (this.isGrid ? boardColumns(this, this.nTaps) : this.effects)
        .map((c) => Object.freeze(Array.from(c)));
    }
    return this._columns[j];
  }

  /** A as a dense nCells x nTaps array of rows (ml_board_matrix, TOO_LARGE past its limit). */
  matrix() {
    const [m, r] = [this.nCells, this.nTaps];
    const a = boardMatrix(this, m, r);
    return Array.from({ length: m }, (_, i) => Array.from(a.subarray(i * r, (i + 1) * r)));
  }

  // ---------------------------------------------------------------- positions
  /** The column of A for the tap at `pos`; InputError for holes, locks, off-board. */
  tapIndex(pos) { return boardIndex(this, true, ...this._pos(pos, "tap position")); }

  /** The row of A for the tile at `pos`; InputError for holes and off-board. */
  cellIndex(pos) { return boardIndex(this, false, ...this._pos(pos, "cell position")); }

  /** A position's (r, c) ([r, c] on a grid, (index, 0) on a graph board), its type checked. */
  _pos(pos, what) {
    if (this.isGrid) return asIntPair(pos, what);
    return [int(pos, `a ${what.split(" ")[0]} on a graph board`), 0];
  }

  // ---------------------------------------------------------------- playing
  /** The state after tapping `pos` `times` times (any integer, reduced mod n). */
  press(state, pos, times = 1) {
    const s = this.tileValues(state, "state");
    const [r, c] = this._pos(pos, "tap position");
    return this._fromTiles(boardPress(this, s, r, c, mod(int(times, "times"), this.states)));
  }

  /** state + A taps (mod n); `taps` board-shaped for grids (0 at locked tiles; holes
   * ignored), nTaps long for graph boards. */
  apply(state, taps) {
    return this._fromTiles(boardApply(this, this.tileValues(state, "state"), this._tapTiles(taps)));
  }

  /** A x mod n over the cells, for a tap vector x (nTaps integers). */
  applyVector(x) {
    const t = this._scatter(Uint8Array.from(x, (v) => mod(Number(v), this.states)), true);
    return Array.from(this._gather(boardApply(this, new Uint8Array(this._size(false)), t), false));
  }

  /** The state reduced mod n as a board-shaped nested array (0 at holes). */
  coerceState(state, what = "state") { return this.fromCellVector(this.cellVector(state, what)); }

  /** A state as a vector over the cells (integers 0..n-1); InputError for bad input. */
  cellVector(state, what = "state") {
    return Array.from(this._gather(this.tileValues(state, what), false));
  }

  /** A board-shaped nested array (0 at holes) from a vector over the cells. */
  fromCellVector(v) { return this._fromTiles(this._scatter(v, false)); }

  /** Tap counts (board-shaped for grids, nTaps long for graphs) as a vector mod n. */
  tapVector(taps) { return Array.from(this._gather(this._tapTiles(taps), true)); }

  /** Tap counts shaped as a state (0 at locks and holes) from a vector over the taps. */
  fromTapVector(x) { return this._fromTiles(this._scatter(x, true)); }

  /** Whether two boards are equal: kind, n, and for grids the same JSON (shape, wrap,
   * patterns, masks), for graph boards A mod n (ml_board_equal). */
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
  /** The JSON text of the C board (what withBoard reads); its dict, parsed once. */
  get _json() { return this._f.json; }
  get _dict() { return this._d ?? (this._d = JSON.parse(this._f.json)); }

  /** Whether the grid's pattern is per tile (the C writer's rows of names or pair lists). */
  get _mixed() {
    const p = this.isGrid && this._dict.pattern;
    return Array.isArray(p) && Array.isArray(p[0]) && p[0].length > 0 && typeof p[0][0] !== "number";
  }

  /** Nothing on a board of at most MAX_TILES tiles; on a larger one an InputError
   * (TOO_LARGE) saying that `what` needs `bytes` bytes a tile. */
  _perTile(what, bytes = 1) {
    if (!this._f.giant) return;
    const { rows, cols } = this._f;
    const gib = ((bytes * rows * cols) / 2 ** 30).toFixed(1);
    throw tooLarge(`${what} of this ${rows}x${cols} board would need ${gib} GiB (${bytes} ` +
      `byte${bytes === 1 ? "" : "s"} a tile, ${rows * cols} tiles, more than MAX_TILES = ` +
      `${MAX_TILES}); a board this large is described by its shape and pattern alone: its ` +
      "Solver answers nullity, rank and kernelSize");
  }

  /** Bytes of a state (grids: rows * cols; graph boards: nCells, or with `taps` nTaps). */
  _size(taps) { return this.isGrid ? this._f.rows * this._f.cols : taps ? this.nTaps : this.nCells; }

  /** The locked / holes mask of a grid, rows * cols bytes (from its dict's positions). */
  _mask(which) {
    if (!this.isGrid) return null;
    this._perTile(`the ${which} mask`);
    const mask = new Uint8Array(this._size());
    for (const [r, c] of this._dict[which]) mask[r * this._f.cols + c] = 1;
    return mask;
  }

  /** The tiles of the cells (taps: of the taps), row-major (made once). */
  _tiles(taps) {
    const key = taps ? "_tapTiles_" : "_cellTiles_";
    if (this[key]) return this[key];
    this._perTile("the tiles' indices", 16);
    const skip = this.isGrid ? this._mask("holes") : new Uint8Array(this._size(taps));
    if (taps && this.anyLocked) this._mask("locked").forEach((v, i) => { skip[i] |= v; });
    const out = new Int32Array(taps ? this.nTaps : this.nCells);
    for (let t = 0, k = 0; t < skip.length; t++) if (!skip[t]) out[k++] = t;
    return (this[key] = out);
  }

  _positions(taps) {
    const cols = this._f.cols;
    return Array.from(this._tiles(taps), (i) => (this.isGrid ? [Math.floor(i / cols), i % cols] : i));
  }

  /** Values over the tiles (a byte a tile) -> over the cells or taps. */
  _gather(flat, taps) {
    const t = this._tiles(taps);
    return t.length === flat.length ? flat : Uint8Array.from(t, (i) => flat[i]);
  }

  /** Values over the cells or taps -> over the tiles (0 elsewhere), a byte a tile. */
  _scatter(v, taps) {
    const out = new Uint8Array(this._size(taps));
    this._tiles(taps).forEach((t, j) => { out[t] = Number(v[j]); });
    return out;
  }

  _nested(mask) { return mask && this._fromTiles(mask).map((row) => row.map((v) => v === 1)); }

  /** Tap counts (board-shaped; a graph board: nTaps long) as a byte a tile mod n (the C
   * library refuses a count on a locked tile). */
  _tapTiles(taps) {
    if (this.isGrid) return this.tileValues(taps, "taps");
    return readShaped(taps, "taps", [this.nTaps], this.states, "taps");
  }

  /** A target as an integer mod n, or null for an array (read by tileValues); InputError
   * for a boolean, as Python's _target_int. */
  targetInt(target) {
    if (typeof target === "boolean") {
      throw badType(`target must be an integer or a board-shaped Array, got ${describe(target)}`);
    }
    return isInt(target) ? mod(target, this.states) : null;
  }

  /** A state (or target) as a Uint8Array of integers 0..n-1 over every tile, row-major
   * (holes included): the one state reader; TOO_LARGE past MAX_TILES tiles. */
  tileValues(state, what = "state") {
    this._perTile(what);
    return readShaped(state, what, this.shape, this.states, "cells");
  }

  /** Board-shaped output of values over every tile, row-major. */
  _fromTiles(flat) {
    if (!this.isGrid) return Array.from(flat, Number);
    const { rows, cols } = this._f;
    return Array.from({ length: rows }, (_, r) =>
      Array.from(flat.subarray(r * cols, (r + 1) * cols), Number));
  }
}

/** The offsets of a pattern of a board's dict (a name: PATTERNS's; frozen). */
function offsetsOf(p) {
  return typeof p === "string" ? PATTERNS[p] : Object.freeze(p.map((o) => Object.freeze([...o])));
}
