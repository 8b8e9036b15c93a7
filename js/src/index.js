/**
 * modlights for JavaScript: the package's public entry.
 *
 * Boards, puzzle codes, stars and difficulty work at once; everything that needs the
 * solver core (Solver, generate, daily, a Puzzle's minTaps / proven / stars /
 * difficulty / toDict) needs the WebAssembly module loaded first:
 * `await loadCore()` (or `await Solver.create(board)`, which loads it once).
 *
 * ```js
 * import { Board, Solver, Puzzle, daily, generate, loadCore } from "modlights";
 * await loadCore();
 * const [easy] = daily("2026-11-22");
 * const s = Solver.createSync(easy.board);
 * s.solve(easy.start, { minimal: true }).length === easy.minTaps;
 * ```
 * @module modlights
 */
import { Solver } from "./solver.js";
import { useSolver } from "./engine.js";

export { ValueError, Unsolvable } from "./errors.js";
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
export { Solver, Solution, Interrupted } from "./solver.js";
export { loadCore } from "./core.js";

useSolver((board) => Solver.createSync(board));
