/**
 * The named tap patterns (the table of the C library's ml_pattern_offsets and Python's
 * modlights.model.patterns, as data the package exports) and the test of a mixed
 * per-tile map. Names, custom offsets and mixed maps are checked by the C library
 * (csrc/api/grid.c).
 *
 * A pattern is a list of [dr, dc] offsets: tapping the tile at (r, c) advances every
 * tile (r + dr, c + dc) by one. Offsets are used exactly as given: leave out [0, 0]
 * and the tapped tile itself does not change; list an offset twice and its tile
 * advances twice.
 * @module patterns
 */
const KNIGHT = [[-2, -1], [-2, 1], [-1, -2], [-1, 2], [1, -2], [1, 2], [2, -1], [2, 1]];

const freeze = (offs) => Object.freeze(offs.map((p) => Object.freeze(p)));

/** The named patterns, in Python's order (frozen). */
export const PATTERNS = Object.freeze({
  cross: freeze([[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]]),
  diagonal: freeze([[0, 0], [-1, -1], [-1, 1], [1, -1], [1, 1]]),
  square: freeze([[0, 0], [-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]),
  horizontal: freeze([[0, 0], [0, -1], [0, 1]]),
  vertical: freeze([[0, 0], [-1, 0], [1, 0]]),
  knight: freeze([[0, 0], ...KNIGHT]),
});

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
