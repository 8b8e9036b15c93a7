/**
 * Solver and Solution: the WebAssembly core answering for one board, as Python's
 * `modlights.Solver` does (the same rank, nullity, |ker A|, solvability, minimal lengths
 * and proofs; budgets counted in coset elements as there).
 *
 * A Solver is the C library's solver of the board (ml_solver_new: the registry's plan,
 * its engine, the kernel and the minimal search, as Python's; `Solver#plan` names the
 * engine; its limits and messages are the library's). It holds WebAssembly memory until {@link Solver#dispose}.
 * @module solver
 */
import { getCore, loadCore } from "./core.js";
import { CoreSolver } from "./capi.js";
import { InputError, Interrupted, Unsolvable, badShape, badType, outOfRange } from "./errors.js";
import { Board } from "./board.js";
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
    // the C library's solver: its plan, engine, kernel and minimal search
    this._c = CoreSolver.open(spec.board, tiles, spec.kind === "grid" ? tiles : spec.nTaps);
    this._nullity = this._c.nullity;
    this._kernelSize = this._c.kernelSize;
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
    if (!this._c) {
      throw new InputError("this Solver was disposed: make a new one", { code: "SOLVER_DISPOSED" });
    }
  }

  /** The C library's plan for this board (its engine, family, variant, reason and the
   * engines it rejected with their reasons: Python's `Solver.plan` as JSON). */
  get plan() { this._live(); return this._c.plan(); }

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
  get defaultBudget() { this._live(); return this._c.defaultSteps; }

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

  /** Whether some tap counts take `state` to `target` (an int or a board-shaped array). */
  solvable(state, options = {}) {
    const { target = 0 } = checkOptions(options, "Solver.solvable");
    this._live();
    return this._c.solvable(...this._bytes(state, target));
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
    const r = this._c.solve(...this._bytes(state, target), minimal, steps);
    return new Solution(null, r.length, r.proven, this._kernelSize, r.examined, r.pruned,
      { x: r.x, cols: this.spec.kind === "grid" ? this.spec.cols : 0 });
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
  }
}
