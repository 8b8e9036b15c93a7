/**
 * Which solver the puzzles use: generate, daily and a Puzzle's measured properties
 * need a Solver made synchronously (`createSync(board)`, after the WebAssembly core
 * is loaded). The package's entry (index.js) installs the WebAssembly Solver; tests
 * may install another one with the same interface. Internal.
 * @module engine
 */
import { ModlightsError } from "./errors.js";

let factory = null;

/**
 * Installs the function that makes a solver for a board; returns the previous one.
 * @param {(board: import("./board.js").Board) => object} createSync
 */
export function useSolver(createSync) {
  const prev = factory;
  factory = createSync;
  return prev;
}

/** A solver for `board` from the installed factory. */
export function solverFor(board) {
  if (factory === null) {
    throw new ModlightsError("no solver is installed: import the package's entry " +
      "(index.js) and `await init()` before generating or measuring puzzles",
    { code: "CORE_NOT_LOADED" });
  }
  return factory(board);
}
