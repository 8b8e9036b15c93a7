/**
 * The solvers the puzzle tests run with. generate, daily and a Puzzle's measurements are
 * the C library's (ml_generate, ml_daily, ml_puzzle_stats_get in the WebAssembly core):
 * one entry, {name: "wasm", install()}, install() a no-op kept for the tests' loops.
 */
import { loadCore } from "../src/core.js";

/** @returns {Promise<Array<{name: string, install: () => void}>>} */
export async function solvers() {
  await loadCore();
  return [{ name: "wasm", install: () => {} }];
}
