/**
 * The named tap patterns (the C library's ml_pattern_offsets table, as data the package
 * exports): tapping (r, c) advances every (r + dr, c + dc) by one, once per listing.
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
