/**
 * generate: a new puzzle of a requested difficulty, the C library's ml_generate (the same
 * puzzle as Python's modlights.generate for the same arguments: the same SplitMix64
 * draws, placements, samples and minimal solves; `await init()` first). Here: the
 * options' types in JavaScript's words, the board's pattern, wrap and fixed locked
 * tiles and holes read as Board.grid reads them; every other check and message is the
 * C library's.
 * @module generate
 */
import { badType, badValue } from "./errors.js";
import { Board } from "./board.js";
import { seedFrom } from "./prng.js";
import { generatePuzzle } from "./capi.js";
import { describe, quote, show } from "./fmt.js";
import { asInt, isInt } from "./validation.js";
import { DIFFICULTIES, puzzleOf } from "./puzzle.js";

export { GENERATE_BUDGET } from "./puzzle.js";

/**
 * [a count of tiles (-1: not given), null] or, for positions or a mask, [0, them]: given
 * positions (none too) turn off the "lock as few tiles as make it unique" rule, as in
 * Python.
 * @returns {[number, *]}
 */
function countOrMask(name, v) {
  if (v === null || v === undefined) return [-1, null];
  if (typeof v !== "boolean" && isInt(v)) return [asInt(v, name, 0, null), null];
  if (typeof v === "boolean" || typeof v === "number" || typeof v === "string") {
    throw badType(`${name} must be a count of tiles (an integer >= 0) or their positions ` +
      `(a boolean mask or an Array of [row, col] pairs), got ${describe(v)}`);
  }
  return [0, v];
}

/**
 * A new puzzle: a start state for the board described, of the given difficulty; the
 * same puzzle as Python's `modlights.generate` for the same arguments.
 *
 * locked / holes: how many tiles to lock and to cut out (placed at random), or their
 * positions ([r, c] pairs or a boolean mask). unique (default true): the tap matrix
 * has a trivial kernel (placements retried); left unset (null), locked and holes
 * mean none, except that with unique on a board whose kernel is not trivial the
 * generator locks as few tiles as make the solution unique. seed: an int, BigInt or
 * string gives the same puzzle on every machine; null a random one.
 *
 * Needs the core loaded (`await init()`).
 * @param {object} [opts]
 * @returns {import("./puzzle.js").Puzzle}
 * @throws {InputError} for bad options (codes INVALID_TYPE, OUT_OF_RANGE,
 *   INVALID_VALUE, TOO_LARGE) and IMPOSSIBLE when no puzzle fits them (e.g. unique: true
 *   on a board whose kernel no allowed locked tile can make trivial)
 */
export function generate({
  rows = 5, cols = 5, states = 2, pattern = "cross", difficulty = "medium",
  locked = null, holes = null, wrap = false, unique = true, seed = null,
} = {}) {
  if (!DIFFICULTIES.includes(difficulty)) {
    throw (typeof difficulty === "string" ? badValue : badType)("difficulty must be one of " +
      `${DIFFICULTIES.map(quote).join(", ")}, got ${typeof difficulty === "string"
        ? show(difficulty) : describe(difficulty)}`);
  }
  rows = asInt(rows, "rows", 1, null);
  cols = asInt(cols, "cols", 1, null);
  const [nLocked, lockedAt] = countOrMask("locked", locked);
  const [nHoles, holesAt] = countOrMask("holes", holes);
  // the board's settings read by Board.grid (its checks, in JavaScript's words) on the
  // boards generate makes; past them the C library's message says its limits
  const fits = rows <= 255 && cols <= 255 && rows * cols <= 1024;
  const board = fits ? Board.grid(rows, cols, { states, pattern, locked: lockedAt,
    holes: holesAt, wrap: Boolean(wrap) }) : null;
  return puzzleOf(generatePuzzle(board, { rows, cols, locked: nLocked, holes: nHoles,
    difficulty: DIFFICULTIES.indexOf(difficulty), unique: Boolean(unique),
    seed: seedFrom(seed) }));
}
