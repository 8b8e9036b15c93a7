/**
 * modlights for JavaScript: the package's public entry (declared in index.d.ts, used as
 * README.md shows). Importing it loads nothing and has no side effect outside the package
 * (no top-level await, no message handler): `import` and `require` both work. `await
 * init()` loads the WebAssembly core once; in node the first call that needs it loads it
 * synchronously; in browsers those calls throw CORE_NOT_LOADED before `await init()`.
 * @module modlights
 */
export {
  ModlightsError, InputError, Unsolvable, Interrupted, ValueError,
} from "./errors.js";
export { Board } from "./board.js";
export { PATTERNS } from "./patterns.js";
export {
  Puzzle, DIFFICULTIES, TAP_FLOOR, GENERATE_BUDGET, tapBands, difficultyOf, starsLimits,
  starsForTaps,
} from "./puzzle.js";
export { generate } from "./generate.js";
export { daily, DAILY_SCHEME } from "./daily.js";
export { SplitMix64, seedFrom } from "./prng.js";
export { verify, summary, FormatError } from "./verify.js";
export { Solver, Solution } from "./solver.js";
export { init, isLoaded, loadCore, coreVariant } from "./core.js";
export { SolverWorker, runInWorker, serveSolverRequests } from "./worker.js";
