/**
 * Solver and Solution: the C library's solver of one board (ml_solver_new: the registry's
 * plan, its engine, the kernel and the minimal search, as Python's `modlights.Solver`;
 * budgets counted in coset elements). A Solver holds WebAssembly memory until dispose().
 * @module solver
 */
import { getCore, loadCore } from "./core.js";
import { CoreSolver } from "./capi.js";
import { InputError, Interrupted, badType, outOfRange } from "./errors.js";
import { Board } from "./board.js";
import { asMapping, describe, isInt, isMapping } from "./fmt.js";

export { Interrupted };

/**
 * The Board a Solver answers for: `board` itself, or the Board of a spec object (as
 * Board#spec writes it) built by Board.grid / Board.fromEffects, with their messages
 * (spec masks: rows * cols entries, row-major). InputError on anything else.
 * @returns {Board}
 */
export function boardOf(board) {
  if (board instanceof Board) return board;
  if (!isMapping(board) || (board.kind !== "grid" && board.kind !== "graph")) {
    throw badType("Solver needs a Board or a board spec ({ kind: 'grid' | 'graph', ... }), "
      + `got ${describe(board)}`);
  }
  const { rows, cols, states, offsets, mixed, locked, holes, wrap } = board;
  if (board.kind === "graph") return Board.fromEffects(board.effects, states, board.nCells ?? null);
  if (offsets == null && mixed == null) {
    throw badType(`spec.offsets must be an Array of [dr, dc] offsets (or spec.mixed given), got ${
      describe(offsets)}`);
  }
  const [r, c] = [Number(rows), Number(cols)];
  const mask = (m) => (m != null && m.length === r * c ? Uint8Array.from(m, Boolean) : m);
  const pattern = mixed == null ? offsets : !(Array.isArray(mixed) && mixed.length === r * c)
    ? mixed : Array.from({ length: r }, (_, i) => mixed.slice(i * c, (i + 1) * c));
  return Board.grid(rows, cols, { states, pattern, locked: mask(locked), holes: mask(holes),
    wrap: !!wrap });
}

/** A solution of `state + A x = target`. */
export class Solution {
  /** `r`: the C result's parts (capi.js readResult: the taps a byte a tile, row-major);
   * `cols`: the board's columns (0 for a graph board). */
  constructor(r, cols) {
    this._x = r.x;
    this._cols = cols;
    this.length = r.length;
    this.provenMinimal = r.proven;
    this.kernelSize = r.kernelSize;
    this.examined = r.examined;
    this.pruned = r.pruned;
  }

  /** The tap counts 0..n-1 shaped as the board: rows for a grid, one Array for a graph
   * board (made on first read, then kept). */
  get taps() {
    const { _x: x, _cols: cols } = this;
    return (this._taps ??= cols ? Array.from({ length: x.length / cols }, (_, r) =>
      Array.from(x.subarray(r * cols, (r + 1) * cols))) : Array.from(x));
  }

  /** Positions to tap ([r, c] for grids, indices for graph boards), each repeated by its
   * count, in row-major order. */
  moves() {
    const out = [];
    this._x.forEach((k, i) => { for (let j = 0; j < k; j++) out.push(this._at(i)); });
    return out;
  }

  /** The first of `moves()`, or null when there is none. */
  firstMove() {
    const i = this._x.findIndex((v) => v !== 0);
    return i < 0 ? null : this._at(i);
  }

  _at(i) { return this._cols ? [Math.floor(i / this._cols), i % this._cols] : i; }

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
 * The solver of one board. Create it with `await Solver.create(board)` (loads the core
 * once) or `Solver.createSync(board)` after `await init()`.
 */
export class Solver {
  /** @private */
  constructor(board) {
    this.board = board;
    this.states = board.states;
    this.shape = board.shape;
    this.nTaps = board.nTaps;
    this._cols = board.isGrid ? board.shape[1] : 0;
    this._tiles = board.isGrid ? board.shape[0] * board.shape[1] : board.nCells;
    // the C library's solver: its plan, engine, kernel and minimal search
    this._c = new CoreSolver(board, board.isGrid ? this._tiles : board.nTaps);
  }

  /** A Solver for `board` (a Board, or its `spec()`), loading the core first if needed.
   * InputError for a malformed board or one past the engines' limits.
   * @returns {Promise<Solver>} */
  static async create(board) {
    await loadCore();
    return new Solver(boardOf(board));
  }

  /** As {@link Solver.create}, once the core is loaded. */
  static createSync(board) {
    getCore();
    return new Solver(boardOf(board));
  }

  /** The C solver, or InputError (SOLVER_DISPOSED) after dispose(). */
  get _live() {
    if (!this._c) {
      throw new InputError("this Solver was disposed: make a new one", { code: "SOLVER_DISPOSED" });
    }
    return this._c;
  }

  /** The C library's plan for this board (its engine, family, variant, reason and the
   * engines it rejected with their reasons: Python's `Solver.plan` as JSON). */
  get plan() { return this._live.plan(); }
  /** dim ker A for prime n; for composite n the number of kernel generators. */
  get nullity() { return this._live.nullity; }
  /** n_taps - nullity (for prime n the rank of A). */
  get rank() { return this.nTaps - this.nullity; }
  /** |ker A| as a BigInt: how many solutions a solvable state has. */
  get kernelSize() { return this._live.kernelSize; }
  /** True when every solvable state has exactly one solution. */
  get isUnique() { return this.kernelSize === 1n; }
  /** The default budget (coset elements): a coset within it is searched whole, proved,
   * as Python's default does (Python then searches a larger one for a second). */
  get defaultBudget() { return this._live.defaultSteps; }

  /** [state bytes, target bytes or null, fill] (Board#tileValues, Board#targetInt); a
   * byte a tile, row-major, is handed over as it is (the C library reduces mod n). */
  _bytes(state, target) {
    const raw = (a) => (a instanceof Uint8Array || a instanceof Uint8ClampedArray) &&
      a.length === this._tiles;
    const t = this.board.targetInt(target);
    const s = raw(state) ? state : this.board.tileValues(state, "state");
    if (t !== null) return [s, null, t];
    return [s, raw(target) ? target : this.board.tileValues(target, "target"), 0];
  }

  /** Whether some tap counts take `state` to `target` (an int or a board-shaped array). */
  solvable(state, options = {}) {
    const { target = 0 } = asMapping(options, "Solver.solvable options");
    return this._live.solvable(...this._bytes(state, target));
  }

  /**
   * A solution of `state + A x = target`; Unsolvable when none exists. minimal (default
   * true): the fewest physical taps found within `budget` coset elements (default
   * `defaultBudget`); `provenMinimal` only when the whole coset was covered. 0: no search
   * (the greedy descent only).
   * @returns {Solution}
   */
  solve(state, options = {}) {
    const { minimal = true, budget, target = 0 } = asMapping(options, "Solver.solve options");
    const c = this._live;
    let steps = c.defaultSteps;
    if (budget !== undefined && budget !== null) {
      if (!isInt(budget)) {
        throw badType("budget must be an integer (coset elements; a budget in seconds is "
          + `Python's only), got ${describe(budget)}`);
      }
      if (budget < 0) throw outOfRange(`budget must be >= 0, got ${budget}`);
      steps = Number(budget);   // past 2^63 - 1: the C library's largest budget
    }
    return new Solution(c.solve(...this._bytes(state, target), minimal, steps), this._cols);
  }

  /** The first tap ([r, c], or the tap index on a graph board) of a minimal plan, or null
   * when `state` is already at the target. Unsolvable when no plan exists. */
  hint(state, options = {}) {
    const { budget, target = 0 } = asMapping(options, "Solver.hint options");
    return this.solve(state, { minimal: true, budget, target }).firstMove();
  }

  /** Free the solver's WebAssembly memory (the Solver is unusable after). */
  dispose() {
    if (this._c) this._c.dispose();
    this._c = null;
  }
}
