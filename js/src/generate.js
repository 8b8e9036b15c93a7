/**
 * generate: the C library's ml_generate (Python's modlights.generate, the same puzzle for
 * the same arguments); here the options' types, and the board's settings as Board.grid's.
 * @module generate
 */
import { badType, badValue } from "./errors.js";
import { gridText } from "./board.js";
import { seedFrom } from "./prng.js";
import { generatePuzzle } from "./capi.js";
import { asInt, describe, isInt, quote, show } from "./fmt.js";
import { DIFFICULTIES, puzzleOf } from "./puzzle.js";

/** [a count of tiles (-1: not given), null] or, for positions or a mask, [0, them]: given
 * positions (none too) turn off the "lock as few tiles as make it unique" rule. */
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
 * A new puzzle of the given difficulty on the board described (index.d.ts's
 * GenerateOptions), the same as Python's `modlights.generate` for the same arguments:
 * locked / holes a count (placed at random) or positions; unique (default true) a trivial
 * kernel (unset locked and holes: as few locked tiles as make it so); seed an integer or
 * string (the same puzzle everywhere) or null (random). InputError for bad options,
 * IMPOSSIBLE when no puzzle fits them.
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
  // the board's settings as Board.grid reads them on the boards generate makes; past
  // those the C library's message says its limits
  const fits = rows <= 255 && cols <= 255 && rows * cols <= 1024;
  const grid = fits ? gridText(rows, cols, { states, pattern, locked: lockedAt, holes: holesAt,
    wrap }) : null;
  return puzzleOf(generatePuzzle(grid, { rows, cols, locked: nLocked, holes: nHoles,
    difficulty: DIFFICULTIES.indexOf(difficulty), unique: Boolean(unique), seed: seedFrom(seed) }));
}
