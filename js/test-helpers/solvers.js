/**
 * The solvers the puzzle tests run with: the pure-JavaScript reference always, and
 * the package's WebAssembly Solver when this tree has it (src/solver.js and
 * dist/modlights.wasm). Each entry: {name, install()} where install() makes it the
 * solver of generate, daily and Puzzle.
 */
import { existsSync } from "node:fs";
import { useSolver } from "../src/engine.js";
import { ReferenceSolver } from "./reference.js";

const HAVE_WASM = existsSync(new URL("../src/solver.js", import.meta.url)) &&
  existsSync(new URL("../dist/modlights.wasm", import.meta.url));

/** @returns {Promise<Array<{name: string, install: () => void}>>} */
export async function solvers() {
  const out = [{ name: "reference", install: () => useSolver((b) => new ReferenceSolver(b)) }];
  if (HAVE_WASM) {
    const { Solver } = await import("../src/solver.js");
    const { loadCore } = await import("../src/core.js");
    await loadCore();
    out.push({ name: "wasm", install: () => useSolver((b) => Solver.createSync(b)) });
  }
  return out;
}
