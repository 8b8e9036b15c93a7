/**
 * The checks of integers, pairs and JSON objects, with Python's messages
 * (modlights.model.validation). Internal: not part of the public API.
 *
 * JavaScript has one number type: a number is an int when `Number.isInteger` says
 * so (so 2.0 is the int 2, where Python would see a float), a float otherwise.
 * @module validation
 */
import { ValueError } from "./errors.js";
import { repr, short, typeName } from "./pyfmt.js";

/** Largest number of tiles (or graph cells) of a board. */
export const MAX_TILES = 2 ** 27;
/** Largest side of a grid board. */
export const MAX_SIDE = 2 ** 20;

/** Whether `v` is an int (a safe-integer number or a BigInt; booleans are not). */
export function isInt(v) {
  return (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
}

/**
 * `v` as an int checked against lo <= v <= hi (either may be null), else ValueError
 * with Python's message.
 * @param {*} v
 * @param {string} what
 * @param {number|null} [lo]
 * @param {number|null} [hi]
 * @param {string} [expected]
 * @param {boolean} [floats] whether integral floats would be accepted (messages only)
 * @returns {number}
 */
export function asInt(v, what, lo = null, hi = null, expected = "an int", floats = true) {
  if (typeof v === "boolean") {
    throw new ValueError(`${what} must be ${expected}, got a bool (${repr(v)})`);
  }
  let iv;
  if (typeof v === "bigint") {
    iv = v;
  } else if (typeof v === "number" && Number.isInteger(v)) {
    iv = v;
  } else if (typeof v === "number" && floats) {
    throw new ValueError(`${what} must be ${expected}, got ${repr(v)}`);
  } else {
    throw new ValueError(`${what} must be ${expected}, got ${typeName(v)} ${short(v)}`);
  }
  const below = lo !== null && iv < lo;
  const above = hi !== null && iv > hi;
  if (below || above) {
    let rng;
    if (lo !== null && hi !== null) rng = `from ${lo} to ${hi}`;
    else if (lo !== null) rng = `>= ${lo}`;
    else rng = `<= ${hi}`;
    throw new ValueError(`${what} must be ${rng}, got ${short(iv)}`);
  }
  return typeof iv === "bigint" ? Number(iv) : iv;
}

/**
 * A pair of ints from a two-item array, else ValueError
 * `${what} must be ${expected}, got ...` (the array shown as a Python tuple when
 * `asTuple`: positions are tuples in Python's API, offsets lists).
 * @returns {[number, number]}
 */
export function asIntPair(pair, what, expected = "a (row, col) pair of ints", asTuple = false) {
  const shown = () => {
    if (!asTuple || !Array.isArray(pair)) return short(pair);
    const text = pair.length === 1 ? `(${repr(pair[0])},)` : `(${pair.map(repr).join(", ")})`;
    return text.length <= 60 ? text : text.slice(0, 57) + "...";
  };
  const bad = () => new ValueError(`${what} must be ${expected}, got ${shown()}`);
  if (!(Array.isArray(pair) || ArrayBuffer.isView(pair)) || pair.length !== 2) throw bad();
  const out = [];
  for (const x of pair) {
    if (typeof x === "boolean" || !isInt(x)) throw bad();
    out.push(Number(x));
  }
  return out;
}

/** The number of states: an int from 2 to 255. */
export function checkStates(states) {
  return asInt(states, "states", 2, 255, "an int from 2 to 255", false);
}

/** A board side: an int from 1 to MAX_SIDE. */
export function checkDim(name, v) {
  return asInt(v, name, 1, MAX_SIDE, "a positive int", false);
}

/** Whether `d` is a plain object (a JSON object). */
export function isMapping(d) {
  return d !== null && typeof d === "object" && !Array.isArray(d) && !ArrayBuffer.isView(d);
}

/** ValueError unless `d` is an object with only `allowed` keys and every `required` one. */
export function checkMapping(d, what, allowed, required) {
  if (!isMapping(d)) {
    throw new ValueError(`${what} must be a dict (JSON object), got ${typeName(d)}`);
  }
  const unknown = Object.keys(d).filter((k) => !allowed.includes(k));
  if (unknown.length) {
    throw new ValueError(`${what} has unknown field ${repr(unknown[0])}; allowed fields: ` +
      allowed.join(", "));
  }
  const missing = required.filter((k) => !(k in d));
  if (missing.length) {
    const other = what === "board" ? "; a graph board has effects and states" : "";
    throw new ValueError(`${what} needs the field ${repr(missing[0])} (required: ` +
      required.join(", ") + other + ")");
  }
}

/** `e`'s message prefixed by the field it is about (unless it names it already). */
export function fieldError(what, e) {
  if (!(e instanceof ValueError)) return e;
  const msg = e.message;
  return new ValueError(msg.startsWith(what) ? msg : `${what}: ${msg}`);
}
