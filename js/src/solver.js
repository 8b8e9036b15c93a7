/**
 * Solver and Solution: the WebAssembly core answering for one board, as Python's
 * `modlights.Solver` does (the same rank, nullity, |ker A|, solvability, minimal lengths
 * and proofs; budgets counted in coset elements as there).
 *
 * A Solver is the C library's solver of the board (ml_solver_new: the registry's plan,
 * its engine, the kernel and the minimal search, as Python's; `Solver#plan` names the
 * engine). While a board's engine or a search is not in the C library yet, the entry
 * layer's factorisation answers instead (grid boards by the light chase and its
 * residual system, graph boards densely; Z/n by CRT over the prime-power parts of n).
 * It holds WebAssembly memory until {@link Solver#dispose}.
 * @module solver
 */
import { getCore, loadCore } from "./core.js";
import { CoreSolver } from "./capi.js";
import { InputError, Interrupted, Unsolvable, badShape, badType, outOfRange } from "./errors.js";
import { Board } from "./board.js";
import { isMixed, parseMixed } from "./patterns.js";
import { describe } from "./fmt.js";
import { checkDim, isInt, isMapping } from "./validation.js";

export { Interrupted };

/** The default minimal search's count: 2^24 coset elements, less on boards with many taps
 * (about 2^30 operations; `Solver#defaultBudget`). A coset within it is searched whole, as
 * Python's default does (the same answer, proved); past it Python's default searches for
 * `modlights.solver.DEFAULT_SECONDS` (1 s, a deadline), JavaScript examines that many
 * elements (its budgets are counts). */
export const DEFAULT_NATIVE_BUDGET = 2 ** 24;
const MAX_BUDGET = 2n ** 63n - 1n;

const CODES = { OK: 0, UNSOLVABLE: 1, EINVAL: -1, ENOMEM: -2, ELIMIT: -3, INTERRUPTED: -4 };

const UNSOLVABLE_MESSAGE = "no combination of taps takes this board to the target "
  + "(the start and the target differ by a pattern that taps cannot make)";

/** The options object of a call (as Board.grid's): InputError unless an object. */
function checkOptions(options, what) {
  if (!isMapping(options)) {
    throw badType(`${what} options must be an object, got ${describe(options)}`);
  }
  return options;
}

/** A spec's locked / holes mask as a Uint8Array of rows * cols 0/1 entries (or null). */
function specMask(v, size, what) {
  if (v == null) return null;
  if (!(ArrayBuffer.isView(v) || Array.isArray(v)) || v.length !== size) {
    throw badShape(`spec.${what} must be a Uint8Array of rows * cols = ${size} entries, got ` +
      describe(v));
  }
  return Uint8Array.from(v, (x) => (x ? 1 : 0));
}

/**
 * The Board of a spec object (as Board#spec writes it), built by Board.grid /
 * Board.fromEffects: the same checks and messages as those.
 */
function boardOfSpec(spec) {
  if (spec.kind === "graph") {
    return Board.fromEffects(spec.effects, spec.states, spec.nCells ?? null);
  }
  const rows = checkDim("rows", spec.rows);
  const cols = checkDim("cols", spec.cols);
  const size = rows * cols;
  let pattern = spec.offsets;
  if (pattern == null && spec.mixed == null) {
    throw badType("spec.offsets must be an Array of [dr, dc] offsets (or spec.mixed given), "
      + `got ${describe(pattern)}`);
  }
  if (spec.mixed != null) {
    if (!Array.isArray(spec.mixed) || spec.mixed.length !== size) {
      throw badShape(`spec.mixed must be an Array of rows * cols = ${size} offset Arrays, got `
        + describe(spec.mixed));
    }
    pattern = Array.from({ length: rows }, (_, r) => spec.mixed.slice(r * cols, (r + 1) * cols));
    if (!isMixed(pattern, rows, cols)) pattern = parseMixed(pattern, rows, cols);
  }
  return Board.grid(rows, cols, { states: spec.states, pattern,
    locked: specMask(spec.locked, size, "locked"), holes: specMask(spec.holes, size, "holes"),
    wrap: !!spec.wrap });
}

/**
 * The board a Solver answers for, from a Board or a spec object (see the package's
 * interface: kind "grid" or "graph"; checked by building its Board, with Board.grid's
 * and Board.fromEffects' messages): {kind, states, shape, rows, cols (grids), nCells,
 * nTaps, board, giant}. InputError on a malformed spec.
 */
export function normalizeSpec(board) {
  if (!(board instanceof Board)) {
    if (!isMapping(board) || (board.kind !== "grid" && board.kind !== "graph")) {
      throw badType("Solver needs a Board or a board spec ({ kind: 'grid' | 'graph', ... }), "
        + `got ${describe(board)}`);
    }
    board = boardOfSpec(board);
  }
  const [rows, cols] = board.isGrid ? board.shape : [0, 0];
  return { kind: board.isGrid ? "grid" : "graph", states: board.states, shape: board.shape,
    rows, cols, nCells: board.nCells, nTaps: board.nTaps, board, giant: board._giant === true };
}

// ------------------------------------------------------------------ the legacy path
// (the entry layer csrc/wasm/entry.c, while a board's engine or search is not in the C
// library yet; this section goes with it)

/**
 * The board as the entry layer's ml_w_grid / ml_w_graph take it: for grids the distinct
 * offsets in Python's descending tuple order (the chase's tables), each pattern's counts
 * over them, the tile -> pattern map of a mixed board, the holes, active and tappable
 * masks (null when none); for graph boards the effects.
 */
function legacySpec(board) {
  const spec = board.spec();
  if (spec.kind === "graph") return { effects: spec.effects };
  const size = spec.rows * spec.cols;
  let pats;
  let patOf = null;
  if (spec.mixed != null) {
    const index = new Map();
    pats = [];
    patOf = new Int32Array(size);
    for (let t = 0; t < size; t++) {
      const p = spec.mixed[t];
      const key = JSON.stringify(p);
      let i = index.get(key);
      if (i === undefined) { i = pats.length; index.set(key, i); pats.push(p); }
      patOf[t] = i;
    }
  } else {
    pats = [spec.offsets];
  }
  const seen = new Map();
  for (const p of pats) for (const o of p) seen.set(`${o[0]},${o[1]}`, o);
  const offs = [...seen.values()].sort((x, y) => (x[0] !== y[0] ? y[0] - x[0] : y[1] - x[1]));
  const pos = new Map(offs.map((o, i) => [`${o[0]},${o[1]}`, i]));
  const cnt = new Int32Array(Math.max(1, pats.length * offs.length));
  pats.forEach((p, i) => { for (const o of p) cnt[i * offs.length + pos.get(`${o[0]},${o[1]}`)] += 1; });
  const holes = board.anyHoles ? spec.holes : null;
  const locked = board.anyLocked ? spec.locked : null;
  let active = null;
  let tappable = null;
  if (holes || locked) {
    tappable = new Uint8Array(size);
    for (let t = 0; t < size; t++) tappable[t] = (holes && holes[t]) || (locked && locked[t]) ? 0 : 1;
    if (holes) active = Uint8Array.from(holes, (h) => 1 - h);
  }
  return { wrap: spec.wrap, udr: Int32Array.from(offs, (o) => o[0]),
    udc: Int32Array.from(offs, (o) => o[1]), npat: pats.length, cnt, patOf, holes, active,
    tappable };
}

function copyIn(core, data, ptr) {
  new Uint8Array(core.memory.buffer, ptr, data.byteLength).set(
    new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

function throwCode(core, rc) {
  const msg = readError(core);
  if (rc === CODES.INTERRUPTED) throw new Interrupted();
  if (rc === CODES.ENOMEM) throw outOfMemory(msg);
  throw new InputError(msg, { code: rc === CODES.ELIMIT ? "TOO_LARGE" : "INVALID_VALUE" });
}

/** The core's ENOMEM: a RangeError (as WebAssembly.Memory's growth failures) with code
 * OUT_OF_MEMORY. */
function outOfMemory(msg) {
  const e = new RangeError(msg || "out of memory in the WebAssembly core");
  e.code = "OUT_OF_MEMORY";
  return e;
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
   * @param {number[][] | number[] | null} taps tap counts 0..n-1, shaped as the board
   *   (null: made from `moves` when first read)
   * @param {number} length the physical taps: the sum of `taps`
   * @param {boolean} provenMinimal true only when no solution has fewer taps (proved)
   * @param {bigint} kernelSize |ker A|
   * @param {number} examined coset elements the minimal search examined
   * @param {number} pruned coset elements it skipped by its bound
   * @param {{x: Uint8Array, cols: number}} moves the tap counts, row-major, and the
   *   board's columns (0 for a graph board): `moves()` is made from them on demand
   */
  constructor(taps, length, provenMinimal, kernelSize, examined, pruned, moves) {
    this._tapsArray = taps;
    this.length = length;
    this.provenMinimal = provenMinimal;
    this.kernelSize = kernelSize;
    this.examined = examined;
    this.pruned = pruned;
    this._moves = moves;
  }

  /** The tap counts 0..n-1 shaped as the board: rows of Numbers for a grid, one Array
   * for a graph board (made on first read, then kept). */
  get taps() {
    if (this._tapsArray === null) {
      const { x, cols } = this._moves;
      if (cols) {
        const rows = x.length / cols;
        const t = new Array(rows);
        for (let r = 0; r < rows; r++) t[r] = Array.from(x.subarray(r * cols, (r + 1) * cols));
        this._tapsArray = t;
      } else {
        this._tapsArray = Array.from(x);
      }
    }
    return this._tapsArray;
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
    this.nTaps = spec.nTaps;
    const tiles = spec.kind === "grid" ? spec.rows * spec.cols : spec.nCells;
    this._tiles = tiles;
    // the C library's solver (its plan, engines, kernel and minimal search) when it has
    // an engine for the board's plan; else (ML_ENOTIMPL) the chase / dense core below
    this._c = CoreSolver.open(spec.board, tiles,
      spec.kind === "grid" ? tiles : spec.nTaps);
    if (this._c) {
      this._nullity = this._c.nullity;
      this._kernelSize = this._c.kernelSize;
      return;
    }
    if (spec.giant) spec.board._perTile("this board's solver");
    this._legacy(core, spec);
  }

  /** @private the entry layer's factorisation (csrc/wasm/entry.c) */
  _legacy(core, spec0) {
    const spec = { ...spec0, ...legacySpec(spec0.board) };
    this._legacyHoles = spec.holes ?? null;
    const ex = core.exports;
    const allocs = [];
    const put = (arr) => {
      if (arr == null) return 0;
      const p = ex.ml_w_malloc(arr.byteLength);
      if (!p) throw outOfMemory();
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
      throw outOfMemory();
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
   * InputError for a malformed board or one past the engines' limits.
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
    if (!this._h && !this._c) {
      throw new InputError("this Solver was disposed: make a new one", { code: "SOLVER_DISPOSED" });
    }
  }

  /** The C library's plan for this board (its engine, family, variant, reason and the
   * engines it rejected with their reasons: Python's `Solver.plan` as JSON), or null
   * while the board's engine is not in the C library yet (the entry layer's chase or
   * dense factorisation answers then). */
  get plan() { this._live(); return this._c ? this._c.plan() : null; }

  /** dim ker A for prime n; for composite n the number of kernel generators. */
  get nullity() { this._live(); return this._nullity; }
  /** n_taps - nullity (for prime n the rank of A). */
  get rank() { this._live(); return this.nTaps - this._nullity; }
  /** |ker A| as a BigInt: how many solutions a solvable state has. */
  get kernelSize() { this._live(); return this._kernelSize; }
  /** True when every solvable state has exactly one solution. */
  get isUnique() { return this.kernelSize === 1n; }

  /** The default coset budget for this board (coset elements): the count within which
   * Python's default searches a coset whole (see DEFAULT_NATIVE_BUDGET). */
  get defaultBudget() {
    if (this._c) return this._c.defaultSteps;
    const perStep = Math.max(1, Math.floor(this.nTaps / (this.states === 2 ? 64 : 1)));
    return Math.max(256, Math.min(DEFAULT_NATIVE_BUDGET, Math.floor(2 ** 30 / perStep)));
  }

  /** b = t - s mod n into the core's input buffer (zero at holes): the Board's one
   * state reader (Board#tileValues, Board#targetInt), in Python's order. */
  _rhs(state, target) {
    const n = this.states;
    const board = this.spec.board;
    const tv0 = board.targetInt(target);
    const s = board.tileValues(state, "state");
    const tarr = tv0 === null ? board.tileValues(target, "target") : null;
    const b = new Uint8Array(this._core.memory.buffer, this._b, this._blen);
    const holes = this._legacyHoles;
    for (let i = 0; i < this._blen; i++) {
      const d = (tv0 === null ? tarr[i] : tv0) - s[i];
      b[i] = d < 0 ? d + n : d;
    }
    if (holes) for (let i = 0; i < this._blen; i++) if (holes[i]) b[i] = 0;
  }

  /** The state's and target's bytes (Board#tileValues, Board#targetInt): [state, target
   * array or null, fill]. */
  _bytes(state, target) {
    const board = this.spec.board;
    const tv0 = board.targetInt(target);
    // a byte a tile, row-major, is handed over as it is: the C library reduces mod n
    const raw = (a) => (a instanceof Uint8Array || a instanceof Uint8ClampedArray) &&
      a.length === this._tiles;
    const s = raw(state) ? state : board.tileValues(state, "state");
    if (tv0 === null && raw(target)) return [s, target, 0];
    return [s, tv0 === null ? board.tileValues(target, "target") : null, tv0 ?? 0];
  }

  /** A solution's parts from its tap counts x (row-major bytes): the taps left to
   * Solution's first read, the length summed here. */
  _taps(x = new Uint8Array(this._core.memory.buffer, this._x, this._xlen).slice()) {
    let length = 0;
    for (let i = 0; i < x.length; i++) length += x[i];
    const cols = this.spec.kind === "grid" ? this.spec.cols : 0;
    return { taps: null, length, moves: { x, cols } };
  }

  /** Whether some tap counts take `state` to `target` (an int or a board-shaped array). */
  solvable(state, options = {}) {
    const { target = 0 } = checkOptions(options, "Solver.solvable");
    this._live();
    if (this._c) return this._c.solvable(...this._bytes(state, target));
    this._rhs(state, target);
    const rc = this._core.exports.ml_w_solve(this._h, this._b, this._x);
    if (rc < 0) throwCode(this._core, rc);
    return rc === CODES.OK;
  }

  /**
   * A solution of `state + A x = target`; throws Unsolvable when none exists.
   * minimal (default true): the fewest physical taps found within `budget` coset
   * elements (default `defaultBudget`: a coset within it is searched whole, proved, as
   * Python's default does; Python searches a larger one for a second); `provenMinimal` is
   * true only when the whole coset was covered. 0: no search (the greedy descent only).
   * @returns {Solution}
   */
  solve(state, options = {}) {
    const { minimal = true, budget, target = 0 } = checkOptions(options, "Solver.solve");
    this._live();
    let steps = this.defaultBudget;
    if (budget !== undefined && budget !== null) {
      if (!isInt(budget)) {
        throw badType("budget must be an integer (coset elements; a budget in seconds is "
          + `Python's only), got ${describe(budget)}`);
      }
      if (BigInt(budget) < 0n) {
        throw outOfRange(`budget must be >= 0, got ${budget}`);
      }
      steps = BigInt(budget) > MAX_BUDGET ? Number(MAX_BUDGET) : Number(budget);
    }
    if (this._c) {
      const [s, t, fill] = this._bytes(state, target);
      let r = null;
      try {
        r = this._c.solve(s, t, fill, minimal, steps);
      } catch (e) {
        // searches the C library does not have yet (the GF(2) transform search, a
        // sub-coset's): the entry layer's factorisation answers
        if (e.code !== "NOT_IMPLEMENTED") throw e;
      }
      if (r) {
        return new Solution(null, r.length, r.proven, this._kernelSize, r.examined, r.pruned,
          { x: r.x, cols: this.spec.kind === "grid" ? this.spec.cols : 0 });
      }
      if (!this._h) this._legacy(this._core, this.spec);
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
  hint(state, options = {}) {
    const { budget, target = 0 } = checkOptions(options, "Solver.hint");
    return this.solve(state, { minimal: true, budget, target }).firstMove();
  }

  /** Free the factorisation's WebAssembly memory (the Solver is unusable after). */
  dispose() {
    if (this._c) this._c.dispose();
    this._c = null;
    const ex = this._core.exports;
    if (this._h) ex.ml_w_dispose(this._h);
    for (const p of [this._b, this._x, this._out, this._scr]) if (p) ex.ml_w_free(p);
    this._h = this._b = this._x = this._out = this._scr = 0;
  }
}
