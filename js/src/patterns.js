/**
 * The named tap patterns (the table of the C library's ml_pattern_offsets and Python's
 * modlights.model.patterns, as data the package exports; names, custom offsets and mixed
 * maps are checked by the C library). A pattern is a list of [dr, dc] offsets: tapping the
 * tile at (r, c) advances every tile (r + dr, c + dc) by one, [0, 0] included only when
 * listed, an offset listed twice advancing its tile twice.
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
