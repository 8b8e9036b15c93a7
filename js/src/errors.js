/**
 * The errors of the modlights package: the same classes and messages as Python's.
 *
 * `ValueError` is thrown for every bad input, with the message Python's modlights
 * gives for the same input (where JavaScript can express that input); `Unsolvable`
 * (a ValueError) when a state has no solution.
 * @module errors
 */

/** Bad input: the message says what was wrong and what is allowed. */
export class ValueError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ValueError";
  }
}

/** No tap counts bring the state to the target. */
export class Unsolvable extends ValueError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "Unsolvable";
  }
}
