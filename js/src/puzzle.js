/**
 * Puzzles: a grid board and a start state to bring to all zeros, with Python's
 * shareable puzzle codes, stars and difficulty. Codes, bands, stars and a puzzle's
 * measured figures are the C library's (ml_code_encode, ml_puzzle_from_code and
 * ml_puzzle_from_json with every check and message of Python's Puzzle.from_code and
 * from_dict, ml_tap_bands, ml_stars_limits, ml_puzzle_stats_get: Python's _min_solve
 * rule), so they need the core, as a Board does (node loads it on first need; browsers
 * `await init()` first, else a ModlightsError with code CORE_NOT_LOADED).
 * @module puzzle
 */
import { badType, badValue } from "./errors.js";
import { Board, jsonText } from "./board.js";
import { PATTERNS } from "./patterns.js";
import {
  codeDecode, codeEncode, difficultyIndex, puzzleFromJson, puzzleMeasure, starsFor, starsLimitsOf,
  tapBandsOf,
} from "./capi.js";
import { describe, quote } from "./fmt.js";
import { Solution, Solver } from "./solver.js";
import { asInt, isMapping } from "./validation.js";

/** Coset elements a puzzle's minimal search may examine (a count, never seconds). */
export const GENERATE_BUDGET = 1 << 18;
export const DIFFICULTIES = Object.freeze(["easy", "medium", "hard", "expert"]);
/** The fewest taps an easy puzzle needs where the board allows it. */
export const TAP_FLOOR = 3;

// ------------------------------------------------------------------ bands and stars
// The rules are the C library's (ml_tap_bands, ml_difficulty_of, ml_stars_limits,
// ml_stars_for_taps: play/puzzles.py's, in exact integer arithmetic); `await init()` first.
const count = (v, what) => asInt(v, what, 0);

/**
 * {difficulty: [lo, hi]}: the fewest taps (both inclusive) of each difficulty on a
 * board with `nTaps` tappable tiles and `states` states, in integers: with
 * u = sqrt(T (n - 1)), easy from TAP_FLOOR, medium from ceil(u), hard from
 * ceil(8u/5), expert from ceil(12u/5) to floor(18u/5), each lower bound at least one
 * more than the previous one. Needs `await init()`.
 * @returns {Record<"easy" | "medium" | "hard" | "expert", [number, number]>}
 */
export function tapBands(nTaps, states) {
  const [lo, hi] = tapBandsOf(Math.max(0, asInt(nTaps, "nTaps")), asInt(states, "states", 2, 255));
  const out = {};
  DIFFICULTIES.forEach((name, i) => { out[name] = [lo[i], hi[i]]; });
  return out;
}

/** The difficulty whose band holds `minTaps` (easy below the floor, expert above).
 * Needs `await init()`. */
export function difficultyOf(minTaps, nTaps, states) {
  return DIFFICULTIES[difficultyIndex(count(minTaps, "minTaps"),
    Math.max(0, asInt(nTaps, "nTaps")), asInt(states, "states", 2, 255))];
}

/** {3: a, 2: b, 1: c}: the most taps that earn 3, 2 and 1 stars for a minimum of m.
 * Needs `await init()`. */
export function starsLimits(m) {
  const [a, b, c] = starsLimitsOf(count(m, "m"));
  return { 3: a, 2: b, 1: c };
}

/** Stars earned by solving in `taps` taps under `limits` ({3, 2, 1}). Needs
 * `await init()`. */
export function starsForTaps(limits, taps) {
  if (!isMapping(limits)) {
    throw badType(`limits must be an object { 3, 2, 1 }, got ${describe(limits)}`);
  }
  return starsFor([3, 2, 1].map((s) => count(limits[s], `limits[${s}]`)), count(taps, "taps"));
}

// ------------------------------------------------------------------ Puzzle
/** A grid board and a start state to bring to all zeros. */
export class Puzzle {
  /**
   * @param {Board} board a grid board
   * @param {Array} start board-shaped integers, reduced mod n (0 at holes)
   */
  constructor(board, start) {
    if (!(board instanceof Board)) {
      throw badType(`board must be a modlights Board, got ${describe(board)}`);
    }
    if (!board.isGrid) {
      throw badValue("puzzles are grid boards (Board.grid); graph boards have no " +
        "puzzle code");
    }
    this._board = board;
    this._start = Object.freeze(board.coerceState(start, "start").map((r) => Object.freeze(r)));
    this._solver = null;
    this._stats = null;
    this._code = null;
  }

  /** The board. */
  get board() { return this._board; }
  /** The start state (frozen nested arrays). */
  get start() { return this._start; }

  /** The board's Solver (made on first use, then kept until dispose()). */
  get solver() {
    if (this._solver === null) this._solver = Solver.createSync(this._board);
    return this._solver;
  }

  /** Free the board's solver (its WebAssembly memory). The measured figures (minTaps,
   * proven, stars, difficulty) stay; a later question that needs the solver makes a
   * new one. */
  dispose() {
    if (this._solver !== null) this._solver.dispose();
    this._solver = null;
  }

  /** The measured figures: the C library's (ml_puzzle_stats_get: Python's _min_solve
   * rule), made on first use and kept (no WebAssembly memory is held). */
  _measure() {
    if (this._stats === null) {
      this._measured(puzzleMeasure(this._board, Uint8Array.from(this._start.flat())));
    }
    return this._stats;
  }

  /** Keeps the measured parts of a C puzzle (capi.js readPuzzle). */
  _measured({ stats, result, code }) {
    this._code = code;
    this._stats = { ...stats, solution: new Solution(result, this._board.shape[1]) };
    return this;
  }

  /** The fewest taps that solve the puzzle (proved when `proven`). */
  get minTaps() { return this._measure().minTaps; }
  /** Whether minTaps is proved minimal. */
  get proven() { return this._measure().proven; }
  /** The minimal Solution found. */
  get solution() { return this._measure().solution; }
  /** Tiles not at 0 at the start. */
  get touched() { return this._measure().touched; }
  /** {difficulty: [lo, hi]}: the fewest taps of each difficulty on this board. */
  get bands() { return tapBands(this._board.nTaps, this._board.states); }
  /** "easy", "medium", "hard" or "expert": the band holding minTaps. */
  get difficulty() { return DIFFICULTIES[this._measure().difficulty]; }
  /** minTaps over the top of the expert band, at most 1. */
  get score() { return this._measure().score; }
  /** {3: a, 2: b, 1: c}: the most taps that earn 3, 2 and 1 stars. */
  get stars() {
    const [a, b, c] = this._measure().stars;
    return { 3: a, 2: b, 1: c };
  }
  /** Stars for solving in `taps` taps (0 beyond the 1-star limit). */
  starsFor(taps) { return starsForTaps(this.stars, taps); }

  /** The puzzle code (Python's, byte for byte). */
  get code() {
    if (this._code === null) {
      this._code = codeEncode(this._board, Uint8Array.from(this._start.flat()));
    }
    return this._code;
  }

  /**
   * The puzzle of a code; InputError (code INVALID_PUZZLE_CODE, the same message as
   * Python's) for anything that is not a valid, canonical code.
   * @param {string} code
   * @returns {Puzzle}
   */
  static fromCode(code) {
    if (typeof code !== "string") {
      throw badType(`a puzzle code is a string, got ${describe(code)}`);
    }
    return puzzleOf(codeDecode(code));
  }

  /**
   * JSON-safe data as Python's Puzzle.to_dict: {board, start, code, stars
   * {"3", "2", "1"}, min_taps, proven, difficulty}.
   */
  toDict() {
    const st = this.stars;
    return { board: this._board.toDict(), start: this._start.map((r) => [...r]),
      code: this.code, stars: { 3: st[3], 2: st[2], 1: st[1] }, min_taps: this.minTaps,
      proven: this.proven, difficulty: this.difficulty };
  }

  /**
   * The puzzle of a dict: "board" and "start", or "code", or all three (then they
   * must agree); the derived fields are checked for type. InputError naming the field
   * (the C library's ml_puzzle_from_json: Python's checks and messages).
   */
  static fromDict(d, { maxTiles = null } = {}) {
    if (!isMapping(d)) throw badType(`puzzle must be an object, got ${describe(d)}`);
    const limit = maxTiles === null || maxTiles === undefined ? 0 : asInt(maxTiles, "maxTiles");
    return puzzleOf(puzzleFromJson(jsonText(d), limit));
  }

  /** Equal boards and starts. */
  equals(other) {
    return other instanceof Puzzle && this._board.equals(other._board) &&
      JSON.stringify(this._start) === JSON.stringify(other._start);
  }

  toString() {
    const [r, c] = this._board.shape;
    return `Puzzle(${r}x${c}, states=${this._board.states}, code=${quote(this.code)})`;
  }
}

/** The Puzzle of a C puzzle's parts (capi.js readPuzzle: generate, daily, codes). */
export function puzzleOf(parts) {
  const board = Board.fromDict(JSON.parse(parts.board));
  const cols = board.shape[1];
  const start = Array.from({ length: board.shape[0] }, (_, r) =>
    Array.from(parts.start.subarray(r * cols, (r + 1) * cols)));
  const p = new Puzzle(board, start);
  return parts.stats ? p._measured(parts) : Object.assign(p, { _code: parts.code });
}

export { PATTERNS };
