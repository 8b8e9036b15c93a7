/**
 * modlights for JavaScript: the package's public entry.
 *
 * Importing this module loads the WebAssembly core (top-level await), so Solver.createSync,
 * generate, daily and a Puzzle's minTaps / proven / stars / difficulty / toDict work at
 * once. When the .wasm cannot be loaded from its default place (next to the package's
 * modules) the import still succeeds: Board, codes and verify work without it, and
 * `await loadCore(source)` loads the core from elsewhere (a URL, bytes or a module).
 *
 * ```js
 * import { Board, Solver, Puzzle, daily, generate, loadCore } from "modlights";
 * const [easy] = daily("2026-11-22");
 * const s = Solver.createSync(easy.board);
 * s.solve(easy.start, { minimal: true }).length === easy.minTaps;
 * ```
 * @module modlights
 */
import { Solver } from "./solver.js";
import { loadCore } from "./core.js";
import { useSolver } from "./engine.js";

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
export { loadCore } from "./core.js";
export { SolverWorker, runInWorker } from "./worker.js";

useSolver((board) => Solver.createSync(board));

// a failure is not an error of the import: Solver.createSync says the core is missing
await loadCore().catch(() => {});
