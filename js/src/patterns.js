/**
 * Named tap patterns and the parsing of custom offsets and mixed per-tile maps (the
 * rules of Python's modlights.model.patterns).
 *
 * A pattern is a list of [dr, dc] offsets: tapping the tile at (r, c) advances every
 * tile (r + dr, c + dc) by one. Offsets are used exactly as given: leave out [0, 0]
 * and the tapped tile itself does not change; list an offset twice and its tile
 * advances twice.
 * @module patterns
 */
import { badShape, badType, badValue, outOfRange, tooLarge } from "./errors.js";
import { describe, list, quote } from "./fmt.js";
import { asIntPair } from "./validation.js";

const KNIGHT = [[-2, -1], [-2, 1], [-1, -2], [-1, 2], [1, -2], [1, 2], [2, -1], [2, 1]];

const freeze = (offs) => Object.freeze(offs.map((p) => Object.freeze(p)));

/**
 * The named patterns (frozen), in Python's order: cross, diagonal, square,
 * horizontal, vertical, knight.
 * @type {Readonly<Record<string, ReadonlyArray<readonly [number, number]>>>}
 */
export const PATTERNS = Object.freeze({
  cross: freeze([[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]]),
  diagonal: freeze([[0, 0], [-1, -1], [-1, 1], [1, -1], [1, 1]]),
  square: freeze([[0, 0], [-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]),
  horizontal: freeze([[0, 0], [0, -1], [0, 1]]),
  vertical: freeze([[0, 0], [-1, 0], [1, 0]]),
  knight: freeze([[0, 0], ...KNIGHT]),
});

/** Largest |dr| or |dc| of an offset. */
export const MAX_REACH = 1024;
/** Most offsets in one pattern (repeats included). */
export const MAX_OFFSETS = 4096;

function allowed() {
  return Object.keys(PATTERNS).map(quote).join(", ");
}

/** Python's str.strip().lower() of an ASCII-ish name. */
function normName(s) {
  return s.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/g, "").toLowerCase();
}

/**
 * The offsets of one tile's pattern: a name (case-insensitive, blanks ignored) or
 * an array of [dr, dc] pairs; InputError otherwise.
 * @param {*} pattern
 * @returns {ReadonlyArray<readonly [number, number]>}
 */
export function parsePattern(pattern) {
  if (typeof pattern === "string") {
    const key = normName(pattern);
    if (!Object.prototype.hasOwnProperty.call(PATTERNS, key)) {
      throw badValue(`unknown pattern ${quote(pattern)}: use one of ${allowed()}, ` +
        "or an Array of [dr, dc] offsets");
    }
    return PATTERNS[key];
  }
  if (!Array.isArray(pattern)) {
    throw badType(`pattern must be a name (${allowed()}) or an Array of ` +
      `[dr, dc] offsets, got ${describe(pattern)}`);
  }
  if (pattern.length > MAX_OFFSETS) {
    throw tooLarge(`pattern has more than ${MAX_OFFSETS} offsets`);
  }
  const out = [];
  for (const item of pattern) {
    const [dr, dc] = asIntPair(item, "pattern offsets", "[dr, dc] pairs of integers");
    if (Math.abs(dr) > MAX_REACH || Math.abs(dc) > MAX_REACH) {
      throw outOfRange(`pattern offset ${list([dr, dc])} reaches further than ` +
        `${MAX_REACH} tiles`);
    }
    out.push(Object.freeze([dr, dc]));
  }
  return Object.freeze(out);
}

/**
 * Whether `pattern` is a rows x cols nested array of per-tile patterns (a mixed
 * board), by Python's rule: rows entries, the first a list of cols entries whose
 * first is a name or a list that is empty or does not start with a number.
 */
export function isMixed(pattern, rows, cols) {
  if (!Array.isArray(pattern) || pattern.length !== rows || rows === 0) return false;
  const first = pattern[0];
  if (!Array.isArray(first) || first.length !== cols || cols === 0) return false;
  const cell = first[0];
  if (typeof cell === "string") return true;
  if (!Array.isArray(cell)) return false;
  return cell.length === 0 || !(typeof cell[0] === "number" || typeof cell[0] === "bigint");
}

/**
 * A rows x cols nested array of per-tile patterns parsed (see parsePattern); equal
 * names share one offsets array. InputError otherwise.
 */
export function parseMixed(pattern, rows, cols) {
  if (pattern.length !== rows) {
    throw badShape(`a mixed pattern needs ${rows} rows of ${cols} entries, got ` +
      `${pattern.length} rows`);
  }
  const cache = new Map();
  return pattern.map((row, r) => {
    if (!Array.isArray(row)) {
      throw badType(`mixed pattern row ${r} must be an Array of ${cols} patterns, got ` +
        describe(row));
    }
    if (row.length !== cols) {
      throw badShape(`mixed pattern row ${r} has ${row.length} entries, the board has ` +
        `${cols} columns`);
    }
    return row.map((entry) => {
      if (typeof entry === "string" && cache.has(entry)) return cache.get(entry);
      const offs = parsePattern(entry);
      if (typeof entry === "string") cache.set(entry, offs);
      return offs;
    });
  });
}

/** Whether two offset lists are equal, entry by entry. */
export function sameOffsets(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i][0] !== b[i][0] || a[i][1] !== b[i][1]) return false;
  }
  return true;
}

/** The name of the named pattern with exactly these offsets, else null. */
export function patternName(offsets) {
  for (const [name, offs] of Object.entries(PATTERNS)) {
    if (sameOffsets(offs, offsets)) return name;
  }
  return null;
}
