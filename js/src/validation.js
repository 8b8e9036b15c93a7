/**
 * The checks of JavaScript values the C library cannot see: integers (a number or a
 * BigInt), pairs and objects (Python's modlights.model.validation rules, in JavaScript's
 * words). Internal: not part of the public API.
 *
 * An integer is a number for which `Number.isInteger` holds (so 2.0 is the integer 2)
 * or a BigInt; booleans are not integers.
 * @module validation
 */
import { badType, outOfRange } from "./errors.js";
import { describe, show } from "./fmt.js";

/** Largest number of tiles (or graph cells) of a board. */
export const MAX_TILES = 2 ** 27;
/** Largest side of a grid board. */
export const MAX_SIDE = 2 ** 20;

/** Whether `v` is an int (a safe-integer number or a BigInt; booleans are not). */
export function isInt(v) {
  return (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
}

/** The words of a range lo..hi (either may be null): "from 1 to 9", ">= 0", "<= 9". */
function rangeWords(lo, hi) {
  if (lo !== null && hi !== null) return `from ${lo} to ${hi}`;
  if (lo !== null) return `>= ${lo}`;
  return `<= ${hi}`;
}

/**
 * `v` as an integer checked against lo <= v <= hi (either may be null): a number for
 * which Number.isInteger holds, or a BigInt (returned as a number). InputError
 * otherwise: INVALID_TYPE "`what` must be an integer [range], got a string ('3')",
 * OUT_OF_RANGE "`what` must be from lo to hi, got 0".
 * @param {*} v
 * @param {string} what
 * @param {number|null} [lo]
 * @param {number|null} [hi]
 * @returns {number}
 */
export function asInt(v, what, lo = null, hi = null) {
  const expected = lo === null && hi === null ? "an integer"
    : `an integer ${rangeWords(lo, hi)}`;
  if (!isInt(v)) throw badType(`${what} must be ${expected}, got ${describe(v)}`);
  if ((lo !== null && v < lo) || (hi !== null && v > hi)) {
    throw outOfRange(`${what} must be ${rangeWords(lo, hi)}, got ${show(v)}`);
  }
  return typeof v === "bigint" ? Number(v) : v;
}

/**
 * A pair of integers from a two-item array, else InputError (INVALID_TYPE)
 * "`what` must be `expected`, got ...".
 * @returns {[number, number]}
 */
export function asIntPair(pair, what, expected = "a [row, col] pair of integers") {
  const bad = () => badType(`${what} must be ${expected}, got ${show(pair)}`);
  if (!(Array.isArray(pair) || ArrayBuffer.isView(pair)) || pair.length !== 2) throw bad();
  const out = [];
  for (const x of pair) {
    if (!isInt(x)) throw bad();
    out.push(Number(x));
  }
  return out;
}

/** A board side: an integer from 1 to MAX_SIDE. */
export function checkDim(name, v) {
  return asInt(v, name, 1, MAX_SIDE);
}

/** Whether `d` is a plain object (a JSON object). */
export function isMapping(d) {
  return d !== null && typeof d === "object" && !Array.isArray(d) && !ArrayBuffer.isView(d);
}
