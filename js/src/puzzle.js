/**
 * Puzzles: a grid board and a start state to bring to all zeros, with Python's shareable
 * puzzle codes, stars and difficulty. Codes, bands, stars and the measured figures are
 * the C library's (with Python's checks and messages), so they need the core as a Board
 * does (node loads it on first need; browsers `await init()` first).
 * @module puzzle
 */
import { badType, badValue } from "./errors.js";
import { Board, jsonText } from "./board.js";
import {
  codeDecode, codeEncode, difficultyIndex, puzzleFromJson, puzzleMeasure, starsFor, starsLimitsOf,
  tapBandsOf,
} from "./capi.js";
import { asInt, asMapping, describe, quote } from "./fmt.js";
import { Solution, Solver } from "./solver.js";

/** Coset elements a puzzle's minimal search may examine (a count, never seconds). */
export const GENERATE_BUDGET = 1 << 18;
export const DIFFICULTIES = Object.freeze(["easy", "medium", "hard", "expert"]);
/** The fewest taps an easy puzzle needs where the board allows it. */
export const TAP_FLOOR = 3;

// ------------------------------------------------------------------ bands and stars
// The C library's rules (ml_tap_bands, ml_difficulty_of, ml_stars_limits,
// ml_stars_for_taps: play/puzzles.py's, in exact integer arithmetic): `await init()` first.
const count = (v, what) => asInt(v, what, 0);
const sides = (nTaps, states) => [Math.max(0, asInt(nTaps, "nTaps")), asInt(states, "states", 2, 255)];
const starsOf = ([a, b, c]) => ({ 3: a, 2: b, 1: c });

/** {difficulty: [lo, hi]}: the fewest taps (both inclusive) of each difficulty on a board
 * with `nTaps` tappable tiles and `states` states (Python's tap_bands). */
export function tapBands(nTaps, states) {
  const [lo, hi] = tapBandsOf(...sides(nTaps, states));
  return Object.fromEntries(DIFFICULTIES.map((name, i) => [name, [lo[i], hi[i]]]));
}

/** The difficulty whose band holds `minTaps` (easy below the floor, expert above). */
export function difficultyOf(minTaps, nTaps, states) {
  return DIFFICULTIES[difficultyIndex(count(minTaps, "minTaps"), ...sides(nTaps, states))];
}

/** {3: a, 2: b, 1: c}: the most taps that earn 3, 2 and 1 stars for a minimum of m. */
export const starsLimits = (m) => starsOf(starsLimitsOf(count(m, "m")));

/** Stars earned by solving in `taps` taps under `limits` ({3, 2, 1}). */
export function starsForTaps(limits, taps) {
  asMapping(limits, "limits", " { 3, 2, 1 }");
  return starsFor([3, 2, 1].map((s) => count(limits[s], `limits[${s}]`)), count(taps, "taps"));
}

// ------------------------------------------------------------------ Puzzle
/** A grid board and a start state (board-shaped integers, reduced mod n, 0 at holes) to
 * bring to all zeros. */
export class Puzzle {
  constructor(board, start) {
    if (!(board instanceof Board)) {
      throw badType(`board must be a modlights Board, got ${describe(board)}`);
    }
    if (!board.isGrid) {
      throw badValue("puzzles are grid boards (Board.grid); graph boards have no puzzle code");
    }
    this._board = board;
    this._start = Object.freeze(board.coerceState(start, "start").map((r) => Object.freeze(r)));
    this._solver = this._stats = this._code = null;
  }

  get board() { return this._board; }
  /** The start state (frozen nested arrays). */
  get start() { return this._start; }

  /** The board's Solver (made on first use, then kept until dispose()). */
  get solver() { return (this._solver ??= Solver.createSync(this._board)); }

  /** Free the board's solver (its WebAssembly memory); the measured figures stay. */
  dispose() {
    if (this._solver !== null) this._solver.dispose();
    this._solver = null;
  }

  /** The measured figures (ml_puzzle_stats_get: Python's _min_solve rule), made on first
   * use and kept (no WebAssembly memory is held). */
  _measure() {
    if (this._stats === null) this._measured(puzzleMeasure(this._board, this._bytes()));
    return this._stats;
  }

  /** Keeps the measured parts of a C puzzle (capi.js readPuzzle). */
  _measured({ stats, result, code }) {
    this._code = code;
    this._stats = { ...stats, solution: new Solution(result, this._board.shape[1]) };
    return this;
  }

  _bytes() { return Uint8Array.from(this._start.flat()); }

  /** The fewest taps that solve the puzzle (proved when `proven`). */
  get minTaps() { return this._measure().minTaps; }
  get proven() { return this._measure().proven; }
  /** The minimal Solution found. */
  get solution() { return this._measure().solution; }
  /** Tiles not at 0 at the start. */
  get touched() { return this._measure().touched; }
  get bands() { return tapBands(this._board.nTaps, this._board.states); }
  /** The band holding minTaps. */
  get difficulty() { return DIFFICULTIES[this._measure().difficulty]; }
  /** minTaps over the top of the expert band, at most 1. */
  get score() { return this._measure().score; }
  /** {3: a, 2: b, 1: c}: the most taps that earn 3, 2 and 1 stars. */
  get stars() { return starsOf(this._measure().stars); }
  /** Stars for solving in `taps` taps (0 beyond the 1-star limit). */
  starsFor(taps) { return starsForTaps(this.stars, taps); }

  /** The puzzle code (Python's, byte for byte). */
  get code() { return (this._code ??= codeEncode(this._board, this._bytes())); }

  /** The puzzle of a code; InputError (INVALID_PUZZLE_CODE, Python's message) for anything
   * that is not a valid, canonical code. */
  static fromCode(code) {
    if (typeof code !== "string") throw badType(`a puzzle code is a string, got ${describe(code)}`);
    return puzzleOf(codeDecode(code));
  }

  /** JSON-safe data as Python's Puzzle.to_dict. */
  toDict() {
    return { board: this._board.toDict(), start: this._start.map((r) => [...r]), code: this.code,
      stars: this.stars, min_taps: this.minTaps, proven: this.proven, difficulty: this.difficulty };
  }

  /** The puzzle of a dict: "board" and "start", or "code", or all three (then they must
   * agree); InputError naming the field (ml_puzzle_from_json: Python's from_dict). */
  static fromDict(d, { maxTiles = null } = {}) {
    asMapping(d, "puzzle");
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
  const p = new Puzzle(board, board._fromTiles(parts.start));
  return parts.stats ? p._measured(parts) : Object.assign(p, { _code: parts.code });
}
