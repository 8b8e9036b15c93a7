/**
 * The checks of JavaScript values the C library cannot see: integers (a number for which
 * Number.isInteger holds, so 2.0 is 2, or a BigInt; booleans are not), pairs and objects,
 * in JavaScript's words. Internal: not part of the public API.
 * @module validation
 */
import { badType, outOfRange } from "./errors.js";
import { describe, show } from "./fmt.js";

/** Largest number of tiles (or graph cells) of a board. */
export const MAX_TILES = 2 ** 27;
/** Largest side of a grid board. */
export const MAX_SIDE = 2 ** 20;

/** Whether `v` is an integer (a number with Number.isInteger, or a BigInt). */
export const isInt = (v) => (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";

/** Whether `d` is a plain object (a JSON object). */
export const isMapping = (d) => d !== null && typeof d === "object" && !Array.isArray(d) &&
  !ArrayBuffer.isView(d);

/** `d` when it is an object, else InputError (INVALID_TYPE) "`what` must be an object[,
 * `hint`], got ...". */
export function asMapping(d, what, hint = "") {
  if (!isMapping(d)) throw badType(`${what} must be an object${hint}, got ${describe(d)}`);
  return d;
}

/**
 * `v` as an integer in lo..hi (either may be null), a BigInt returned as a number; else
 * InputError: INVALID_TYPE "`what` must be an integer from lo to hi, got a string ('3')",
 * OUT_OF_RANGE "`what` must be from lo to hi, got 0". With `here` false the range is the
 * C library's check, made here only for a value no int32 holds (it returns `v` as is).
 */
export function asInt(v, what, lo = null, hi = null, here = true) {
  const range = lo === null ? (hi === null ? "" : `<= ${hi}`)
    : hi === null ? `>= ${lo}` : `from ${lo} to ${hi}`;
  if (!isInt(v)) throw badType(`${what} must be an integer${range && ` ${range}`}, got ${describe(v)}`);
  if (here ? (lo !== null && v < lo) || (hi !== null && v > hi)
    : lo !== null && hi !== null && !(v > -(2 ** 31) && v < 2 ** 31)) {
    throw outOfRange(`${what} must be ${range}, got ${here ? show(v) : v}`);
  }
  return here && typeof v === "bigint" ? Number(v) : v;
}

/** A pair of integers from a two-item array, else InputError (INVALID_TYPE)
 * "`what` must be `expected`, got ...". */
export function asIntPair(pair, what, expected = "a [row, col] pair of integers") {
  if (!isSeq(pair) || pair.length !== 2 || !Array.prototype.every.call(pair, isInt)) {
    throw badType(`${what} must be ${expected}, got ${show(pair)}`);
  }
  return [Number(pair[0]), Number(pair[1])];
}

const isSeq = (x) => Array.isArray(x) || ArrayBuffer.isView(x);
