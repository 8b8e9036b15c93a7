/**
 * Solver and Solution: the WebAssembly core answering for one board, as Python's
 * `modlights.Solver` does (the same rank, nullity, |ker A|, solvability, minimal lengths
 * and proofs; budgets counted in coset elements as there).
 *
 * A Solver factors the board once in C memory (grid boards by the light chase and its
 * residual system, graph boards densely; Z/n by CRT over the prime-power parts of n,
 * so composite n is exact) and answers every later question from that factorisation.
 * It holds WebAssembly memory until {@link Solver#dispose}.
 * @module solver
 */
import { getCore, loadCore } from "./core.js";
import { ValueError, Unsolvable } from "./errors.js";

/** Coset elements examined by `solve({minimal: true})` when no budget is given, as
 * Python's native default: 2^24, less on boards with many taps (about 2^30 operations). */
export const DEFAULT_NATIVE_BUDGET = 2 ** 24;
const MAX_BUDGET = 2n ** 63n - 1n;

const CODES = { OK: 0, UNSOLVABLE: 1, EINVAL: -1, ENOMEM: -2, ELIMIT: -3, INTERRUPTED: -4 };

/** Thrown when long work was stopped by the interrupt handler (a Worker's cancel). */
export class Interrupted extends Error {
  constructor(message = "interrupted") {
    super(message);
    this.name = "Interrupted";
  }
}

const UNSOLVABLE_MESSAGE = "no combination of taps takes this board to the target "
  + "(the start and the target differ by a pattern that taps cannot make)";

function pyRepr(v) {
  if (typeof v === "string") return `'${v}'`;
  if (v === null || v === undefined) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  return String(v);
}

function pyType(v) {
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "bigint") return "int";
  if (typeof v === "string") return "str";
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return "list";
  if (typeof v === "function") return "function";
  return (v.constructor && v.constructor.name) || "object";
}

function pyShape(shape) {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
}

function isIntLike(v) {
  return (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
}

/** An int checked against lo..hi with Python's as_int messages. */
function checkInt(v, what, lo, hi, expected) {
  if (typeof v === "boolean") throw new ValueError(`${what} must be ${expected}, got a bool (${pyRepr(v)})`);
  if (!isIntLike(v)) throw new ValueError(`${what} must be ${expected}, got ${pyType(v)} ${pyRepr(v)}`);
  const iv = Number(v);
  if (iv < lo || iv > hi) throw new ValueError(`${what} must be from ${lo} to ${hi}, got ${v}`);
  return iv;
}

function mask(v, size, what) {
  if (v == null) return null;
  if (!(ArrayBuffer.isView(v) || Array.isArray(v)) || v.length !== size) {
    throw new ValueError(`spec.${what} must be a Uint8Array of rows * cols = ${size} entries`);
  }
  const out = new Uint8Array(size);
  let any = false;
  for (let i = 0; i < size; i++) {
    if (v[i]) { out[i] = 1; any = true; }
  }
  return any ? out : null;
}

function offsetList(list, what) {
  if (!Array.isArray(list)) throw new ValueError(`${what} must be a list of [dr, dc] offsets`);
  return list.map((o) => {
    if (!o || o.length !== 2 || !isIntLike(o[0]) || !isIntLike(o[1])) {
      throw new ValueError(`${what} must be a list of [dr, dc] offsets of ints`);
    }
    return [Number(o[0]), Number(o[1])];
  });
}

/** Python's tuple order, descending (the chase's offset tables: engines/chase/engine.py). */
function cmpDesc(a, b) {
  return a[0] !== b[0] ? b[0] - a[0] : b[1] - a[1];
}

/**
 * The board description the C core takes, from a Board (its `spec()`) or a spec
 * object (see the package's interface: kind "grid" or "graph"). ValueError on a
 * malformed spec.
 */
export function normalizeSpec(board) {
  let spec = board;
  if (board && typeof board.spec === "function") spec = board.spec();
  if (!spec || typeof spec !== "object" || (spec.kind !== "grid" && spec.kind !== "graph")) {
    throw new ValueError(`Solver needs a Board, got ${pyType(board)}`);
  }
  const states = checkInt(spec.states, "states", 2, 255, "an int from 2 to 255");
  if (spec.kind === "graph") {
    const nCells = checkInt(spec.nCells, "nCells", 0, 2 ** 27, "a non-negative int");
    if (!Array.isArray(spec.effects)) throw new ValueError("effects must be a list of lists of cells");
    const effects = spec.effects.map((e, j) => {
      if (!(Array.isArray(e) || ArrayBuffer.isView(e))) {
        throw new ValueError(`effects[${j}] must be a list of cell indices`);
      }
      return Array.from(e, (c) => {
        if (!isIntLike(c) || Number(c) < 0 || Number(c) >= nCells) {
          throw new ValueError(`effects[${j}] has cell ${pyRepr(c)}: cells must be ints in 0..${nCells - 1}`);
        }
        return Number(c);
      });
    });
    return { kind: "graph", states, nCells, nTaps: effects.length, effects, shape: [effects.length] };
  }
  const rows = checkInt(spec.rows, "rows", 1, 2 ** 20, "a positive int");
  const cols = checkInt(spec.cols, "cols", 1, 2 ** 20, "a positive int");
  if (rows * cols > 2 ** 27) {
    throw new ValueError(`board too large: ${rows}x${cols} = ${rows * cols} tiles (at most ${2 ** 27})`);
  }
  const size = rows * cols;
  let pats;
  let patOf = null;
  if (spec.mixed != null) {
    if (!Array.isArray(spec.mixed) || spec.mixed.length !== size) {
      throw new ValueError(`spec.mixed must hold rows * cols = ${size} offset lists`);
    }
    const index = new Map();
    pats = [];
    patOf = new Int32Array(size);
    for (let t = 0; t < size; t++) {
      const p = offsetList(spec.mixed[t], `spec.mixed[${t}]`);
      const key = JSON.stringify(p);
      let i = index.get(key);
      if (i === undefined) { i = pats.length; index.set(key, i); pats.push(p); }
      patOf[t] = i;
    }
  } else {
    pats = [offsetList(spec.offsets, "spec.offsets")];
  }
  const seen = new Map();
  for (const p of pats) for (const o of p) seen.set(`${o[0]},${o[1]}`, o);
  const offs = [...seen.values()].sort(cmpDesc);
  const pos = new Map(offs.map((o, i) => [`${o[0]},${o[1]}`, i]));
  const cnt = new Int32Array(Math.max(1, pats.length * offs.length));
  pats.forEach((p, i) => { for (const o of p) cnt[i * offs.length + pos.get(`${o[0]},${o[1]}`)] += 1; });
  const holes = mask(spec.holes, size, "holes");
  const locked = mask(spec.locked, size, "locked");
  let active = null;
  let tappable = null;
  if (holes || locked) {
    tappable = new Uint8Array(size);
    for (let t = 0; t < size; t++) tappable[t] = (holes && holes[t]) || (locked && locked[t]) ? 0 : 1;
    if (holes) active = Uint8Array.from(holes, (h) => 1 - h);
  }
  let nTaps = size;
  if (tappable) { nTaps = 0; for (let t = 0; t < size; t++) nTaps += tappable[t]; }
  return {
    kind: "grid", states, rows, cols, wrap: !!spec.wrap, shape: [rows, cols],
    udr: Int32Array.from(offs, (o) => o[0]), udc: Int32Array.from(offs, (o) => o[1]),
    npat: pats.length, cnt, patOf, holes, active, tappable, nTaps,
  };
}

function copyIn(core, data, ptr) {
  new Uint8Array(core.memory.buffer, ptr, data.byteLength).set(
    new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

function throwCode(core, rc) {
  const msg = readError(core);
  if (rc === CODES.INTERRUPTED) throw new Interrupted();
  if (rc === CODES.ENOMEM) throw new RangeError(msg || "out of memory in the WebAssembly core");
  throw new ValueError(msg);
}

function readError(core) {
  const ptr = core.exports.ml_w_error();
  const mem = new Uint8Array(core.memory.buffer);
  let end = ptr;
  while (mem[end]) end++;
  return new TextDecoder().decode(mem.subarray(ptr, end));
}

/** A solution of `state + A x = target`. */
export class Solution {
  /**
   * @param {number[][] | number[]} taps tap counts 0..n-1, shaped as the board
   * @param {number} length the physical taps: the sum of `taps`
   * @param {boolean} provenMinimal true only when no solution has fewer taps (proved)
   * @param {bigint} kernelSize |ker A|
   * @param {number} examined coset elements the minimal search examined
   * @param {number} pruned coset elements it skipped by its bound
   * @param {{x: Uint8Array, cols: number}} moves the tap counts, row-major, and the
   *   board's columns (0 for a graph board): `moves()` is made from them on demand
   */
  constructor(taps, length, provenMinimal, kernelSize, examined, pruned, moves) {
    this.taps = taps;
    this.length = length;
    this.provenMinimal = provenMinimal;
    this.kernelSize = kernelSize;
    this.examined = examined;
    this.pruned = pruned;
    this._moves = moves;
  }

  /** Positions to tap ([r, c] for grids, indices for graph boards), each repeated by
   * its count, in row-major order. */
  moves() {
    const { x, cols } = this._moves;
    const out = [];
    for (let i = 0; i < x.length; i++) {
      for (let k = 0; k < x[i]; k++) out.push(cols ? [Math.floor(i / cols), i % cols] : i);
    }
    return out;
  }

  /** The first of `moves()`, or null when there is none. */
  firstMove() {
    const { x, cols } = this._moves;
    const i = x.findIndex((v) => v !== 0);
    if (i < 0) return null;
    return cols ? [Math.floor(i / cols), i % cols] : i;
  }

  /** The same JSON as Python's Solution.to_dict (kernel_size as a Number when exact,
   * else a string). */
  toDict() {
    const ks = this.kernelSize <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(this.kernelSize)
      : this.kernelSize.toString();
    return { taps: this.taps, length: this.length, proven_minimal: this.provenMinimal,
      moves: this.moves(), kernel_size: ks };
  }
}

/**
 * The solver of one board. Create it with `await Solver.create(board)` (loads the
 * core once) or `Solver.createSync(board)` after `await loadCore()`.
 */
export class Solver {
  /** @private */
  constructor(core, spec) {
    this._core = core;
    this.spec = spec;
    this.states = spec.states;
    this.shape = spec.shape;
    const ex = core.exports;
    const allocs = [];
    const put = (arr) => {
      if (arr == null) return 0;
      const p = ex.ml_w_malloc(arr.byteLength);
      if (!p) throw new RangeError("out of memory in the WebAssembly core");
      allocs.push(p);
      copyIn(core, arr, p);
      return p;
    };
    let handle = 0;
    const codePtr = ex.ml_w_malloc(4);
    try {
      if (spec.kind === "grid") {
        handle = ex.ml_w_grid(spec.rows, spec.cols, spec.states, spec.wrap ? 1 : 0,
          put(spec.active), put(spec.tappable), spec.udr.length, put(spec.udr), put(spec.udc),
          spec.npat, put(spec.cnt), put(spec.patOf), codePtr);
      } else {
        const indptr = new Int32Array(spec.nTaps + 1);
        spec.effects.forEach((e, j) => { indptr[j + 1] = indptr[j] + e.length; });
        const cells = new Int32Array(Math.max(1, indptr[spec.nTaps]));
        let t = 0;
        for (const e of spec.effects) for (const c of e) cells[t++] = c;
        handle = ex.ml_w_graph(spec.states, spec.nCells, spec.nTaps, put(indptr), put(cells),
          codePtr);
      }
      if (!handle) {
        const rc = new Int32Array(core.memory.buffer, codePtr, 1)[0];
        throwCode(core, rc);
      }
    } finally {
      for (const p of allocs) ex.ml_w_free(p);
      ex.ml_w_free(codePtr);
    }
    this._h = handle;
    const sizes = this._scratch(24);
    ex.ml_w_sizes(handle, sizes);
    const sz = Array.from(new Int32Array(core.memory.buffer, sizes, 6));
    [this._blen, this._xlen, this.nTaps, this._nullity] = sz;
    this.residualShape = [sz[5], sz[4]];
    const pe = this._scratch(64);
    const np = ex.ml_w_kernel_factors(handle, pe);
    const f = new Int32Array(core.memory.buffer, pe, 2 * np);
    let ks = 1n;
    for (let i = 0; i < np; i++) ks *= BigInt(f[2 * i]) ** BigInt(f[2 * i + 1]);
    this._kernelSize = ks;
    this._b = ex.ml_w_malloc(Math.max(1, this._blen));
    this._x = ex.ml_w_malloc(Math.max(1, this._xlen));
    this._out = ex.ml_w_malloc(24);
    if (!this._b || !this._x || !this._out) {
      this.dispose();
      throw new RangeError("out of memory in the WebAssembly core");
    }
  }

  _scratch(bytes) {
    if (!this._scr) {
      this._scr = this._core.exports.ml_w_malloc(64);
    }
    if (bytes > 64) throw new Error("scratch too small");
    return this._scr;
  }

  /**
   * A Solver for `board` (a Board, or its `spec()`), loading the core first if needed.
   * ValueError for a malformed board or one past the engines' limits (Python's messages).
   * @returns {Promise<Solver>}
   */
  static async create(board) {
    const core = await loadCore();
    return new Solver(core, normalizeSpec(board));
  }

  /** As {@link Solver.create}, once `loadCore()` has resolved. */
  static createSync(board) {
    return new Solver(getCore(), normalizeSpec(board));
  }

  _live() {
    if (!this._h) throw new ValueError("this Solver was disposed");
  }

  /** dim ker A for prime n; for composite n the number of kernel generators. */
  get nullity() { this._live(); return this._nullity; }
  /** n_taps - nullity (for prime n the rank of A). */
  get rank() { this._live(); return this.nTaps - this._nullity; }
  /** |ker A| as a BigInt: how many solutions a solvable state has. */
  get kernelSize() { this._live(); return this._kernelSize; }
  /** True when every solvable state has exactly one solution. */
  get isUnique() { return this.kernelSize === 1n; }

  /** The default coset budget: Python's native default for this board. */
  get defaultBudget() {
    const perStep = Math.max(1, Math.floor(this.nTaps / (this.states === 2 ? 64 : 1)));
    return Math.max(256, Math.min(DEFAULT_NATIVE_BUDGET, Math.floor(2 ** 30 / perStep)));
  }

  /** Values of a board-shaped array (nested rows or flat), reduced mod n, row-major. */
  _values(state, what) {
    const n = this.states;
    const size = this._blenTiles();
    const out = new Int32Array(size);
    const shape = this.shape;
    const bad = (got) => new ValueError(`${what} has shape ${got}, the board has shape ${pyShape(shape)}`);
    const put = (i, v) => {
      if (typeof v === "number" && Number.isSafeInteger(v)) {
        const r = v % n;
        out[i] = r < 0 ? r + n : r;
        return;
      }
      if (typeof v === "boolean" || !(typeof v === "number" || typeof v === "bigint")) {
        throw new ValueError(`${what} entry must be an integer, got ${pyType(v)} ${pyRepr(v)}`);
      }
      if (typeof v === "number" && !Number.isInteger(v)) {
        throw new ValueError(`${what} must hold integers, got non-integral or non-finite floats`);
      }
      const r = Number(BigInt(v) % BigInt(n));
      out[i] = r < 0 ? r + n : r;
    };
    if (state == null || typeof state !== "object") {
      throw new ValueError(`${what} must be an array of integers (a list or ndarray), got ${pyType(state)}`);
    }
    const nested = Array.isArray(state) && state.length > 0 && state[0] != null
      && typeof state[0] === "object";
    if (nested) {
      const lens = new Set(Array.from(state, (x) => (x != null && typeof x === "object" ? x.length : -1)));
      if (lens.size > 1 || lens.has(-1)) {
        throw new ValueError(`${what} must be a rectangular array of integers: setting an `
          + "array element with a sequence. The requested array has an inhomogeneous shape "
          + `after 1 dimensions. The detected shape was (${state.length},) + inhomogeneous part.`);
      }
      const got = [state.length, state[0].length];
      if (shape.length !== 2 || got[0] !== shape[0] || got[1] !== shape[1]) throw bad(pyShape(got));
      const [rows, cols] = shape;
      for (let r = 0; r < rows; r++) {
        const row = state[r];
        for (let c = 0; c < cols; c++) put(r * cols + c, row[c]);
      }
    } else if (state instanceof Uint8Array && state.length === size) {
      for (let i = 0; i < size; i++) {
        const v = state[i];
        out[i] = v < n ? v : v % n;
      }
    } else if (ArrayBuffer.isView(state) || Array.isArray(state)) {
      if (state.length !== size || (shape.length === 2 && !ArrayBuffer.isView(state))) {
        throw bad(`(${state.length},)`);
      }
      for (let i = 0; i < size; i++) put(i, state[i]);
    } else {
      throw new ValueError(`${what} must be an array of integers (a list or ndarray), got ${pyType(state)}`);
    }
    return out;
  }

  _blenTiles() {
    return this.spec.kind === "grid" ? this.spec.rows * this.spec.cols : this.spec.nCells;
  }

  /** b = t - s mod n into the core's input buffer (zero at holes). */
  _rhs(state, target) {
    const n = this.states;
    const s = this._values(state, "state");
    let tv0 = null;
    let tarr = null;
    if (typeof target === "boolean") {
      throw new ValueError("target must be an int or a board-shaped array, got a bool");
    }
    if (isIntLike(target)) {
      tv0 = Number(((BigInt(target) % BigInt(n)) + BigInt(n)) % BigInt(n));
    } else {
      tarr = this._values(target, "target");
    }
    const b = new Uint8Array(this._core.memory.buffer, this._b, this._blen);
    const holes = this.spec.holes;
    if (tv0 !== null) {
      for (let i = 0; i < this._blen; i++) {
        const d = tv0 - s[i];
        b[i] = d < 0 ? d + n : d;
      }
    } else {
      for (let i = 0; i < this._blen; i++) {
        const d = tarr[i] - s[i];
        b[i] = d < 0 ? d + n : d;
      }
    }
    if (holes) for (let i = 0; i < this._blen; i++) if (holes[i]) b[i] = 0;
  }

  _taps() {
    const x = new Uint8Array(this._core.memory.buffer, this._x, this._xlen).slice();
    let length = 0;
    let taps;
    if (this.spec.kind === "grid") {
      const { rows, cols } = this.spec;
      taps = new Array(rows);
      for (let r = 0; r < rows; r++) {
        const row = new Array(cols);
        for (let c = 0; c < cols; c++) {
          const v = x[r * cols + c];
          row[c] = v;
          length += v;
        }
        taps[r] = row;
      }
    } else {
      taps = Array.from(x);
      for (const v of x) length += v;
    }
    const cols = this.spec.kind === "grid" ? this.spec.cols : 0;
    return { taps, length, moves: { x, cols } };
  }

  /** Whether some tap counts take `state` to `target` (an int or a board-shaped array). */
  solvable(state, { target = 0 } = {}) {
    this._live();
    this._rhs(state, target);
    const rc = this._core.exports.ml_w_solve(this._h, this._b, this._x);
    if (rc < 0) throwCode(this._core, rc);
    return rc === CODES.OK;
  }

  /**
   * A solution of `state + A x = target`; throws Unsolvable when none exists.
   * minimal (default true): the fewest physical taps found within `budget` coset
   * elements (default: Python's native default, `defaultBudget`); `provenMinimal` is
   * true only when the whole coset was covered. 0: no search (the greedy descent only).
   * @returns {Solution}
   */
  solve(state, { minimal = true, budget, target = 0 } = {}) {
    this._live();
    let steps = this.defaultBudget;
    if (budget !== undefined && budget !== null) {
      if (typeof budget === "boolean") {
        throw new ValueError("budget must be an int (coset elements) or a float (seconds), "
          + "got a bool");
      }
      if (!isIntLike(budget)) {
        throw new ValueError("budget must be an int (coset elements) in JavaScript (a budget "
          + `in seconds is Python's only), got ${pyType(budget)} ${pyRepr(budget)}`);
      }
      if (BigInt(budget) < 0n) throw new ValueError(`budget must be >= 0, got ${budget}`);
      steps = BigInt(budget) > MAX_BUDGET ? Number(MAX_BUDGET) : Number(budget);
    }
    this._rhs(state, target);
    const ex = this._core.exports;
    let proven;
    let examined = 0;
    let pruned = 0;
    if (!minimal) {
      const rc = ex.ml_w_solve(this._h, this._b, this._x);
      if (rc < 0) throwCode(this._core, rc);
      if (rc === CODES.UNSOLVABLE) throw new Unsolvable(UNSOLVABLE_MESSAGE);
      proven = this._kernelSize === 1n;
    } else {
      const rc = ex.ml_w_minimal(this._h, this._b, steps, this._x, this._out);
      if (rc < 0) throwCode(this._core, rc);
      if (rc === CODES.UNSOLVABLE) throw new Unsolvable(UNSOLVABLE_MESSAGE);
      const out = new Float64Array(this._core.memory.buffer, this._out, 3);
      proven = out[0] === 1;
      examined = out[1];
      pruned = out[2];
    }
    const { taps, length, moves } = this._taps();
    return new Solution(taps, length, proven, this._kernelSize, examined, pruned, moves);
  }

  /** The first tap ([r, c], or the tap index on a graph board) of a minimal plan, or
   * null when `state` is already at the target. Throws Unsolvable when no plan exists. */
  hint(state, { budget, target = 0 } = {}) {
    return this.solve(state, { minimal: true, budget, target }).firstMove();
  }

  /** Free the factorisation's WebAssembly memory (the Solver is unusable after). */
  dispose() {
    const ex = this._core.exports;
    if (this._h) ex.ml_w_dispose(this._h);
    for (const p of [this._b, this._x, this._out, this._scr]) if (p) ex.ml_w_free(p);
    this._h = this._b = this._x = this._out = this._scr = 0;
  }
}
